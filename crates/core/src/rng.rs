//! The crate's one pseudo-random generator, SplitMix64, and random play-outs built on it.
//!
//! SplitMix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators", OOPSLA
//! 2014) adds a constant to a 64-bit state and scrambles it with two multiply-xorshift rounds.
//! It passes BigCrush, needs no crate, and every seed (zero included) is fine, which is all an
//! engine needs: random players, random opening plies, self-play and data splits must be
//! reproducible from a seed, not cryptographic. The Zobrist keys ([`crate::hash`]) are made by
//! the same step at compile time ([`splitmix64`]).
//!
//! Seeds for independent streams (game `k` of a series, position `i` of a run) come from
//! [`derive_seed`] and [`mix`]; both are fixed forever, since recorded data and seeded matches
//! depend on them.

use crate::bitboard::squares;
use crate::board::Board;

/// The SplitMix64 state increment (the golden ratio in 64-bit fixed point).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective 64-bit mixer.
#[inline]
pub const fn finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One SplitMix64 step as a `const fn`: the next state and its output.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(GAMMA);
    (state, finalize(state))
}

/// The SplitMix64 generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = splitmix64(self.state);
        self.state = state;
        out
    }

    /// A number in `0..n` (0 when `n` is 0): Lemire's multiply-shift on all 64 bits, bias below
    /// 2^-32.
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A number in `0..n` (0 when `n` is 0) from the high 32 bits only, the draw of the players
    /// and the arena (kept so that seeded games and openings stay the same); the bias is below
    /// 2^-32 for the small `n` used there.
    pub fn below_u32(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// A float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

/// A seed for stream `stream` of a series seeded with `seed` (the players and the arena: game
/// `k` gets its own generator whatever order the games are played in).
pub fn derive_seed(seed: u64, stream: u64) -> u64 {
    SplitMix64::new(seed ^ stream.wrapping_mul(0xD6E8_FEB8_6659_FD93)).next_u64()
}

/// A seed for stream `index` of a run seeded with `seed` (self-play, calibration, data splits:
/// distinct indices give unrelated streams).
pub fn mix(seed: u64, index: u64) -> u64 {
    finalize(seed ^ finalize(index.wrapping_add(0x6A09_E667_F3BC_C909)))
}

/// A random play-out: every position of a game from `start` in which each move is drawn
/// uniformly from the legal ones ([`SplitMix64::below`]), a pass where there is none, up to
/// and including the finished position.
///
/// The iterator is lazy: taking the first `k + 1` positions draws only for the first `k`
/// plies, so a sample of positions `k` plies deep costs no more randomness than it uses.
///
/// ```
/// use othello_core::rng::{random_playout, SplitMix64};
/// use othello_core::Board;
///
/// let game: Vec<Board> = random_playout(Board::start(), &mut SplitMix64::new(7)).collect();
/// assert_eq!(game[0], Board::start());
/// assert!(game.last().unwrap().is_game_over());
/// ```
pub fn random_playout(start: Board, rng: &mut SplitMix64) -> RandomPlayout<'_> {
    RandomPlayout {
        board: Some(start),
        first: true,
        rng,
    }
}

/// The iterator of [`random_playout`].
#[derive(Debug)]
pub struct RandomPlayout<'a> {
    board: Option<Board>,
    first: bool,
    rng: &'a mut SplitMix64,
}

impl Iterator for RandomPlayout<'_> {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        if std::mem::take(&mut self.first) {
            return self.board;
        }
        let board = self.board?;
        let moves = board.moves();
        self.board = if moves != 0 {
            let k = self.rng.below(u64::from(moves.count_ones())) as usize;
            squares(moves).nth(k).map(|sq| board.play(sq))
        } else if board.is_game_over() {
            None
        } else {
            Some(board.pass())
        };
        self.board
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // The published SplitMix64 outputs for seed 0 (as in the Java and C reference code).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn draws_are_in_range_and_roughly_uniform() {
        let mut r = SplitMix64::new(42);
        let (mut wide, mut narrow) = ([0u32; 5], [0u32; 5]);
        for _ in 0..50_000 {
            wide[r.below(5) as usize] += 1;
            narrow[r.below_u32(5)] += 1;
            assert!((0.0..1.0).contains(&r.unit()));
        }
        for c in wide.into_iter().chain(narrow) {
            assert!((9_500..10_500).contains(&c), "{wide:?} {narrow:?}");
        }
        assert_eq!((r.below(0), r.below_u32(0)), (0, 0));
    }

    #[test]
    fn streams_differ_and_are_fixed() {
        assert_ne!(derive_seed(1, 0), derive_seed(1, 1));
        assert_eq!(derive_seed(7, 3), derive_seed(7, 3));
        assert_ne!(mix(1, 0), mix(1, 1));
        assert_ne!(mix(1, 0), mix(2, 0));
        // Recorded data depends on these values: they must never change.
        assert_eq!(mix(0, 0), finalize(finalize(0x6A09_E667_F3BC_C909)));
    }

    #[test]
    fn playouts_are_legal_games_and_lazy() {
        let mut rng = SplitMix64::new(3);
        let game: Vec<Board> = random_playout(Board::start(), &mut rng).collect();
        assert!(game.len() >= 61);
        for pair in game.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let legal = if a.moves() == 0 {
                b == a.pass()
            } else {
                a.legal_moves().any(|sq| a.play(sq) == b)
            };
            assert!(legal, "{a:?} -> {b:?}");
        }
        assert!(game.last().unwrap().is_game_over());
        // Taking k + 1 positions draws k times (no pass in the first plies of this game).
        let mut a = SplitMix64::new(9);
        let _ = random_playout(Board::start(), &mut a).take(5).count();
        let mut b = SplitMix64::new(9);
        for _ in 0..4 {
            b.next_u64();
        }
        assert_eq!(a, b);
    }
}
