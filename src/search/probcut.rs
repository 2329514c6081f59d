//! Endgame ProbCut: the selective passes that run before an exact solve.
//!
//! Buro's ProbCut (1995), in the multi-level form Edax and Egaroucid use in their endgames: at a
//! null-window node with `n` empties, a shallow midgame search of depth `d` predicts the exact
//! value, with an error whose standard deviation `sigma(n, d)` was measured once (see
//! `examples/probcut_sigma.rs`). If the shallow value clears the window by `t` sigmas, the
//! node is cut as if the deep search had failed the same way. With `t` around 1 to 2.6 the
//! pass is right most of the time and far cheaper than an exact solve.
//!
//! The passes only prepare the exact solve: each fills the transposition table with best moves
//! for the nodes the exact search will visit, and gives its score as the first guess for the
//! next pass. Their table entries are stored as searches of depth `n` (not as solved), so the
//! exact pass takes their moves but never their scores.

/// Fewest empties at which a selective pass tries ProbCut.
pub const PROBCUT_MIN_EMPTIES: u32 = 14;

/// Fewest empties at which a solve runs selective passes first.
pub const SELECTIVE_MIN_EMPTIES: u32 = 20;

pub use super::selectivity::Selectivity;

/// The selective passes' levels, in increasing order (73%, 87%, 95% and 98%: about that share
/// of cuts right, for a normal error).
pub const LEVELS: [Selectivity; 4] = [
    Selectivity::LEVELS[0],
    Selectivity::LEVELS[1],
    Selectivity::LEVELS[2],
    Selectivity::LEVELS[3],
];

/// The selective passes to run before solving a position with `empties` empty squares: more
/// of them as the solve gets more expensive.
pub fn schedule(empties: u32) -> &'static [Selectivity] {
    match empties {
        0..SELECTIVE_MIN_EMPTIES => &[],
        SELECTIVE_MIN_EMPTIES..=21 => &LEVELS[..1],
        22..=24 => &LEVELS[..2],
        25..=28 => &LEVELS[..3],
        _ => &LEVELS,
    }
}

/// Depth of the shallow search that predicts a node with `n` empties: even (odd depths carry a
/// bias of one to three discs toward the side to move) and about `2n / 5`.
pub fn shallow_depth(n: u32) -> u32 {
    2 * (n / 5)
}

/// Standard deviation, in discs, of (depth-`d` midgame value - exact value) at `n` empties.
///
/// Measured with the shipped weights on self-play positions at 10 to 25 empties
/// (`examples/probcut_sigma.rs`): about 8.5 discs for the static evaluation, falling by about
/// 0.4 disc per ply of search, with no clear trend in `n` over that range.
pub fn sigma(n: u32, d: u32) -> f32 {
    let _ = n;
    (8.5 - 0.4 * d as f32).max(3.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_are_even_and_below_the_node() {
        for n in PROBCUT_MIN_EMPTIES..=60 {
            let d = shallow_depth(n);
            assert_eq!(d % 2, 0);
            assert!(d >= 4 && d < n, "{n}: {d}");
        }
    }

    #[test]
    fn schedules_grow_with_empties_and_end_below_certainty() {
        assert!(schedule(SELECTIVE_MIN_EMPTIES - 1).is_empty());
        let mut last = 0;
        for n in SELECTIVE_MIN_EMPTIES..=60 {
            let s = schedule(n);
            assert!(s.len() >= last && !s.is_empty());
            assert!(s.windows(2).all(|w| w[0].t() < w[1].t()));
            last = s.len();
        }
        assert!(sigma(20, 8) > 0.0);
    }
}
