//! The engine's evaluator: which evaluation the engine searches with, chosen at run time.
//!
//! The default ([`EngineEval::default`]) is the neural network embedded in the binary
//! ([`DEFAULT_NETWORK`], `weights/nnue-r10.nnue` with its Multi-ProbCut model
//! [`DEFAULT_NETWORK_MODEL`]: a small network over pattern set 3's features trained on this
//! engine's own searches, as `docs/dev/NNUE.md` describes) on a processor with AVX2 (else the
//! pattern weights: [`network_is_default`]), ordered by and falling back on the
//! learned [`PatternEval`] with the weights also embedded ([`DEFAULT_WEIGHTS`],
//! `weights/pattern-v6.bin`: trained on depth-12 searches of WTHOR and XOT positions and on
//! depth-8 searches of every WTHOR tournament game, `docs/dev/WEIGHTS.md`). The pattern
//! weights alone are [`EngineEval::pattern`] (`--eval-file pattern`). The WebAssembly build
//! embeds no network: its default is the pattern weights, since it has no SIMD kernel and the
//! portable path is about 2.5× slower a network evaluation. A weight file can replace either
//! (`--eval-file PATH`, the NBoard extension `set eval PATH`), and the hand-tuned [`HandEval`]
//! of the first release stays available (`hand`) as a baseline for matches.
//!
//! The choice is an enum, not a trait object: the searcher is generic over its evaluator, and a
//! `match` on three variants costs a well-predicted branch per evaluation where a `dyn` call
//! would cost an indirect call. Weights are shared through an [`Arc`], so every searcher of a
//! match or a self-play run uses one copy (about 8 MB expanded for pattern weights, 22 MB for
//! the network), and the embedded ones are decoded once per process, when first used.
//!
//! Weight files by path, and the choice by name (`default`, `pattern`, `hand` or a path) that
//! `--eval-file` parses, are the engine crate's (`othello_engine::weights`): this crate reads no
//! file.

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::board::Board;
use crate::cpu::Cpu;
use crate::square::Square;

use super::nnue::{NnueEval, NnueState};
use super::pattern::PatternEval;
use super::{Evaluator, HandEval};

/// The default weight file, embedded at build time.
pub static DEFAULT_WEIGHTS: &[u8] = include_bytes!("../../../../weights/pattern-v6.bin");

/// The embedded pattern weights once decoded ([`default_pattern`]).
static DEFAULT: OnceLock<Arc<PatternEval>> = OnceLock::new();

/// The default network, embedded at build time (native builds only: see the module header).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub static DEFAULT_NETWORK: &[u8] = include_bytes!("../../../../weights/nnue-r10.nnue");

/// The default network's Multi-ProbCut model, embedded at build time.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub static DEFAULT_NETWORK_MODEL: &str = include_str!("../../../../weights/nnue-r10.mpc");

/// The lazy margin of a network's leaves, centi-discs ([`NnueEval::with_lazy_margin`]): a
/// leaf whose pattern estimate lies this far outside its window gets the estimate.
pub const LAZY_MARGIN: i32 = 400;

/// The embedded network once decoded ([`default_network`]).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
static NETWORK: OnceLock<Arc<NnueEval>> = OnceLock::new();

/// The embedded network ([`DEFAULT_NETWORK`]) with its model, ordered by the embedded pattern
/// weights, its leaves lazy by [`LAZY_MARGIN`]: decoded once per process, beside the pattern
/// weights (about 15 ms here).
///
/// # Panics
/// If the embedded file is corrupt, which a unit test rules out for every build.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn default_network() -> Arc<NnueEval> {
    NETWORK
        .get_or_init(|| {
            // The network decodes on a thread of its own while this one decodes the pattern
            // weights that order it: the engine does both before it answers its first command.
            let net = std::thread::scope(|s| {
                let net = s.spawn(|| NnueEval::from_embedded_bytes(DEFAULT_NETWORK));
                default_pattern();
                net.join()
            })
            .expect("decoding the embedded network does not panic")
            .expect("the embedded network is checked by a unit test");
            Arc::new(
                net.with_orderer(default_pattern())
                    .with_lazy_margin(Some(LAZY_MARGIN))
                    .with_value_cache(true)
                    .with_mpc_model_text(DEFAULT_NETWORK_MODEL.to_string()),
            )
        })
        .clone()
}

/// Whether `eval` is the embedded pattern weights (the copy [`default_pattern`] hands out).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
#[inline(always)]
fn is_default(eval: &PatternEval) -> bool {
    DEFAULT
        .get()
        .is_some_and(|d| std::ptr::eq(Arc::as_ptr(d), eval))
}

/// The embedded pattern weights ([`DEFAULT_WEIGHTS`]), decoded once per process: the
/// default network's orderer, and the evaluator of [`EngineEval::pattern`].
///
/// # Panics
/// If the embedded file is corrupt, which a unit test rules out for every build.
pub fn default_pattern() -> Arc<PatternEval> {
    DEFAULT
        .get_or_init(|| {
            Arc::new(
                PatternEval::from_bytes(DEFAULT_WEIGHTS)
                    .expect("the embedded weight file is checked by a unit test"),
            )
        })
        .clone()
}

/// The weights the exact solver orders its moves by near the end, embedded at build time:
/// `weights/pattern-v5.bin` (pattern set 2, 46 placements against pattern-v6's 58). Not in
/// the WebAssembly build, whose download they would enlarge by 3.4 MB for a few percent of
/// solving time: there the solver orders by the default weights throughout.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub static SOLVE_ORDER_WEIGHTS: &[u8] = include_bytes!("../../../../weights/pattern-v5.bin");

/// The exact solver's ordering weights ([`SOLVE_ORDER_WEIGHTS`]), decoded once per process.
///
/// # Panics
/// If the embedded file is corrupt, which a unit test rules out for every build.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
#[inline]
pub fn solve_order_pattern() -> &'static PatternEval {
    static ORDER: OnceLock<PatternEval> = OnceLock::new();
    ORDER.get_or_init(|| {
        PatternEval::from_bytes(SOLVE_ORDER_WEIGHTS)
            .expect("the embedded ordering weights are checked by a unit test")
    })
}

/// The engine's evaluator: a network, pattern weights or the hand-tuned evaluator.
// One per searcher and never moved in a hot loop, so the size difference between the variants
// does not matter; boxing the hand evaluator would add an indirection to every evaluation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum EngineEval {
    /// The hand-tuned evaluator.
    Hand(HandEval),
    /// A pattern evaluator (the embedded weights or a loaded file).
    Pattern(Arc<PatternEval>),
    /// A neural network over the pattern features (the embedded default or a loaded `.nnue`
    /// file).
    Nnue(Arc<NnueEval>),
}

/// Whether the default is the network here: a processor with AVX2 (the network's kernels;
/// without them a network evaluation costs about 2.5× more, and the pattern weights play
/// better at a clock).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn network_is_default() -> bool {
    crate::cpu::CpuPath::Avx2.supported()
}

impl Default for EngineEval {
    /// The embedded network ([`default_network`]) on a processor with AVX2
    /// ([`network_is_default`]), else the embedded pattern weights.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    fn default() -> Self {
        if network_is_default() {
            EngineEval::Nnue(default_network())
        } else {
            EngineEval::pattern()
        }
    }

    /// The embedded pattern weights: the WebAssembly build embeds no network.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    fn default() -> Self {
        EngineEval::pattern()
    }
}

impl EngineEval {
    /// The embedded pattern weights ([`default_pattern`]; `--eval-file pattern`): the default
    /// before the network, and the WebAssembly build's.
    pub fn pattern() -> Self {
        EngineEval::Pattern(default_pattern())
    }

    /// The weights the exact solver orders its moves by, when they are not this evaluator's own
    /// ordering values: the embedded [`SOLVE_ORDER_WEIGHTS`] for the embedded pattern weights
    /// and for a network that orders by them. A pattern file loaded by the user orders by
    /// itself, and the hand-tuned evaluator by itself.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    #[inline(always)]
    fn solve_orderer(&self) -> Option<&'static PatternEval> {
        let default = match self {
            EngineEval::Hand(_) => false,
            EngineEval::Pattern(e) => is_default(e),
            EngineEval::Nnue(e) => e.orderer().is_some_and(is_default),
        };
        default.then(solve_order_pattern)
    }

    /// The WebAssembly build embeds no ordering weights of the solver's own.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    #[inline(always)]
    fn solve_orderer(&self) -> Option<&'static PatternEval> {
        None
    }

    /// A one-line description for logs and `# eval` answers.
    pub fn describe(&self) -> String {
        match self {
            EngineEval::Hand(_) => "hand-tuned evaluator".to_string(),
            EngineEval::Pattern(p) => format!("pattern evaluator, {} phases", p.phases()),
            EngineEval::Nnue(n) => format!(
                "neural network evaluator, H {}, L2 {}, {} phase buckets",
                n.hidden(),
                n.l2(),
                n.buckets()
            ),
        }
    }
}

impl fmt::Debug for EngineEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineEval::Hand(_) => f.write_str("EngineEval::Hand"),
            EngineEval::Pattern(e) => write!(f, "EngineEval::Pattern({e:?})"),
            EngineEval::Nnue(e) => write!(f, "EngineEval::Nnue({e:?})"),
        }
    }
}

impl Evaluator for EngineEval {
    /// The network's state, whose sibling stack the pattern evaluator uses (the hand-tuned
    /// evaluator ignores it); only a caching network's holds a cache.
    type State = NnueState;

    fn new_state(&self) -> NnueState {
        match self {
            EngineEval::Nnue(e) => e.new_state(),
            _ => NnueState::uncached(),
        }
    }

    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        match self {
            EngineEval::Hand(e) => e.evaluate(board),
            EngineEval::Pattern(e) => e.evaluate(board),
            EngineEval::Nnue(e) => e.evaluate(board),
        }
    }

    #[inline]
    fn evaluate_on<C: Cpu>(&self, board: &Board) -> i32 {
        match self {
            EngineEval::Hand(e) => e.evaluate(board),
            EngineEval::Pattern(e) => e.evaluate_on::<C>(board),
            EngineEval::Nnue(e) => e.evaluate_on::<C>(board),
        }
    }

    #[inline]
    fn evaluate_child_in<C: Cpu>(
        &self,
        state: &mut NnueState,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32 {
        match self {
            EngineEval::Hand(e) => {
                e.evaluate_child_in::<C>(&mut crate::eval::Stateless, p, o, sq, flips)
            }
            EngineEval::Pattern(e) => e.evaluate_child_in::<C>(state.stack(), p, o, sq, flips),
            EngineEval::Nnue(e) => e.evaluate_child_in::<C>(state, p, o, sq, flips),
        }
    }

    #[inline]
    fn evaluate_child_window_in<C: Cpu>(
        &self,
        state: &mut NnueState,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match self {
            EngineEval::Nnue(e) => {
                e.evaluate_child_window_in::<C>(state, p, o, sq, flips, alpha, beta)
            }
            _ => self.evaluate_child_in::<C>(state, p, o, sq, flips),
        }
    }

    #[inline]
    fn order_in<C: Cpu>(&self, state: &mut NnueState, p: u64, o: u64) -> i32 {
        match self {
            EngineEval::Nnue(e) => e.order_in::<C>(state, p, o),
            _ => self.evaluate_in::<C>(state, p, o),
        }
    }

    #[inline]
    fn order_child_in<C: Cpu>(
        &self,
        state: &mut NnueState,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32 {
        match self {
            EngineEval::Nnue(e) => e.order_child_in::<C>(state, p, o, sq, flips),
            _ => self.evaluate_child_in::<C>(state, p, o, sq, flips),
        }
    }

    #[inline]
    fn solve_order_in<C: Cpu>(&self, state: &mut NnueState, p: u64, o: u64) -> i32 {
        match self.solve_orderer() {
            Some(w) => w.evaluate_in::<C>(state.stack(), p, o),
            None => self.order_in::<C>(state, p, o),
        }
    }

    #[inline]
    fn solve_order_child_in<C: Cpu>(
        &self,
        state: &mut NnueState,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32 {
        match self.solve_orderer() {
            Some(w) => w.evaluate_child_in::<C>(state.stack(), p, o, sq, flips),
            None => self.order_child_in::<C>(state, p, o, sq, flips),
        }
    }

    fn mpc_model_text(&self) -> Option<&str> {
        match self {
            EngineEval::Hand(_) => None,
            EngineEval::Pattern(e) => e.mpc_model_text(),
            EngineEval::Nnue(e) => e.mpc_model_text(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_weights_load_and_are_not_all_zero() {
        let p = PatternEval::from_bytes(DEFAULT_WEIGHTS).expect("embedded weights load");
        assert!(p.compact_weights().iter().any(|&w| w != 0));
        // The start position is balanced: the learned value must be small.
        let v = EngineEval::default().evaluate(&Board::start());
        assert!(v.abs() < 300, "start position valued {v} centi-discs");
    }

    #[test]
    fn the_solver_orders_the_default_by_the_embedded_ordering_weights_only() {
        let order = PatternEval::from_bytes(SOLVE_ORDER_WEIGHTS).expect("ordering weights load");
        assert!(!order.uses_set3_shapes());
        assert_eq!(
            order.compact_weights(),
            solve_order_pattern().compact_weights()
        );
        // The default (and a network ordered by it) takes them; a loaded file and the
        // hand-tuned evaluator order by themselves.
        let solve_orderer = |e: &EngineEval| e.solve_orderer().map(|w| w as *const PatternEval);
        let ordering = Some(solve_order_pattern() as *const PatternEval);
        assert_eq!(solve_orderer(&EngineEval::default()), ordering);
        assert_eq!(solve_orderer(&EngineEval::pattern()), ordering);
        let loaded = PatternEval::from_bytes(DEFAULT_WEIGHTS).unwrap();
        assert_eq!(solve_orderer(&EngineEval::Pattern(Arc::new(loaded))), None);
        assert_eq!(solve_orderer(&EngineEval::Hand(HandEval::default())), None);
    }

    #[test]
    fn the_default_is_the_embedded_network_with_its_model_and_orderer() {
        let net = match EngineEval::default() {
            EngineEval::Nnue(net) => net,
            EngineEval::Pattern(p) if !network_is_default() && is_default(&p) => default_network(),
            other => panic!("the default evaluator is {other:?}"),
        };
        // One copy per process.
        assert!(Arc::ptr_eq(&net, &default_network()));
        assert_eq!(net.mpc_model_text(), Some(DEFAULT_NETWORK_MODEL));
        assert!(net.orderer().is_some_and(is_default));
        // The network values positions, not its orderer: a plain decode of the embedded file
        // (no orderer, so no lazy leaves) gives the same value everywhere a search starts.
        // The checksum the start-up decode skips.
        let plain = NnueEval::from_bytes(DEFAULT_NETWORK).expect("embedded network loads");
        let mut board = Board::start();
        for sq in ["f5", "d6", "c3", "d3", "c4"] {
            let v = net.evaluate(&board);
            assert_eq!(v, plain.evaluate(&board), "after {sq}");
            assert!(v.abs() < 600, "valued {v} centi-discs");
            board = board.play(sq.parse().expect("a square"));
        }
        let pattern = EngineEval::pattern();
        assert!(matches!(pattern, EngineEval::Pattern(ref p) if is_default(p)));
    }
}
