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

/// Walks a move list best-first (by [`pick`]) and then the moves it was told to defer: the
/// move loop of a parallel search (see [`super::busy`]). A search without helper threads
/// never defers, and then visits exactly the moves, in exactly the order, of plain `pick`.
pub struct Cursor {
    next: usize,
    count: usize,
    deferred: [u8; MAX_MOVES],
    deferred_count: usize,
    next_deferred: usize,
}

impl Cursor {
    /// A cursor over the first `count` moves of a list.
    #[inline(always)]
    pub fn new(count: usize) -> Cursor {
        Cursor {
            next: 0,
            count,
            deferred: [0; MAX_MOVES],
            deferred_count: 0,
            next_deferred: 0,
        }
    }

    /// The next move to search: the best of those not yet picked, except that a move other
    /// than the first for which `defer` says yes is set aside; once the list is exhausted,
    /// the set-aside moves in the order they were set aside. `None` at the end.
    #[inline(always)]
    pub fn next(
        &mut self,
        list: &mut MoveList,
        mut defer: impl FnMut(&Candidate) -> bool,
    ) -> Option<Candidate> {
        while self.next < self.count {
            let i = self.next;
            let c = pick(list, i, self.count);
            self.next += 1;
            if i > 0 && defer(&c) {
                self.deferred[self.deferred_count] = i as u8;
                self.deferred_count += 1;
                continue;
            }
            return Some(c);
        }
        if self.next_deferred < self.deferred_count {
            let i = self.deferred[self.next_deferred] as usize;
            self.next_deferred += 1;
            return Some(list[i]);
        }
        None
    }

    /// Whether the move just returned is the first one searched at this node.
    #[inline(always)]
    pub fn first(&self) -> bool {
        self.next == 1 && self.next_deferred == 0
    }
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

    fn keyed(keys: &[i32]) -> MoveList {
        let mut list = [Candidate::default(); MAX_MOVES];
        for (i, &key) in keys.iter().enumerate() {
            list[i] = Candidate {
                sq: i as u8,
                key,
                flips: 0,
            };
        }
        list
    }

    #[test]
    fn a_cursor_that_never_defers_picks_like_pick() {
        let keys = [5, 9, -1, 9, 0, 7];
        let mut a = keyed(&keys);
        let mut b = keyed(&keys);
        let mut cursor = Cursor::new(keys.len());
        let mut firsts = Vec::new();
        for i in 0..keys.len() {
            let c = cursor.next(&mut a, |_| false).unwrap();
            firsts.push(cursor.first());
            assert_eq!(c.sq, pick(&mut b, i, keys.len()).sq);
        }
        assert!(cursor.next(&mut a, |_| false).is_none());
        assert_eq!(firsts, [true, false, false, false, false, false]);
    }

    #[test]
    fn deferred_moves_come_last_in_order_and_the_first_is_never_deferred() {
        // Squares by key: 1 (9), 3 (9), 5 (7), 0 (5), 4 (0), 2 (-1). Defer every even square.
        let mut list = keyed(&[5, 9, -1, 9, 0, 7]);
        let mut cursor = Cursor::new(6);
        let mut seen = Vec::new();
        while let Some(c) = cursor.next(&mut list, |c| c.sq % 2 == 0) {
            seen.push(c.sq);
        }
        assert_eq!(seen, [1, 3, 5, 0, 4, 2]);
        // The first move is searched even when it would be deferred.
        let mut list = keyed(&[1, 2, 3]);
        let mut cursor = Cursor::new(3);
        let mut seen = Vec::new();
        while let Some(c) = cursor.next(&mut list, |_| true) {
            seen.push(c.sq);
        }
        assert_eq!(seen, [2, 1, 0]);
    }
}
