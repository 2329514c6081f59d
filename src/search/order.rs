//! Move lists for ordering: candidates with a sort key, picked best-first.
//!
//! Both searches build a fixed-size list on the stack (no allocation) and pull moves with a
//! selection-sort step, so a cut-off after the first few moves never pays for a full sort.
//! Higher keys come first.

/// The most legal moves an Othello position can have is 33; 34 leaves a spare.
pub const MAX_MOVES: usize = 34;

/// One candidate move: its square, its ordering key (higher first) and its flips.
#[derive(Clone, Copy, Default, Debug)]
pub struct Candidate {
    /// Square index of the move.
    pub sq: u8,
    /// Ordering key; higher is tried first.
    pub key: i32,
    /// The discs the move flips.
    pub flips: u64,
}

/// A stack-allocated move list.
pub type MoveList = [Candidate; MAX_MOVES];

/// Selection-sort step: moves the highest-keyed of `list[i..count]` to position `i`, returns it.
#[inline(always)]
pub fn pick(list: &mut MoveList, i: usize, count: usize) -> Candidate {
    let mut best = i;
    for j in i + 1..count {
        if list[j].key > list[best].key {
            best = j;
        }
    }
    list.swap(i, best);
    list[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_in_decreasing_key_order() {
        let mut list = [Candidate::default(); MAX_MOVES];
        for (i, key) in [3, -7, 12, 0, 12].into_iter().enumerate() {
            list[i] = Candidate {
                sq: i as u8,
                key,
                flips: 0,
            };
        }
        let keys: Vec<i32> = (0..5).map(|i| pick(&mut list, i, 5).key).collect();
        assert_eq!(keys, [12, 12, 3, 0, -7]);
    }
}
