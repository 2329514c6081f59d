//! The engine's evaluator: which evaluation the engine searches with, chosen at run time.
//!
//! The default is the learned [`PatternEval`] with the weights embedded in the binary
//! ([`DEFAULT_WEIGHTS`], `weights/pattern-v6.bin`: pattern set 3, trained on depth-12 searches
//! of WTHOR and XOT positions and on depth-8 searches of every WTHOR tournament game and of
//! unplayed moves from their positions, as `docs/dev/WEIGHTS.md` describes, and checked to search
//! the start position to 0; the earlier `weights/pattern-v5.bin` to `weights/pattern-v1.bin` load
//! with `--eval-file`). A
//! weight file can replace them (`--eval-file PATH`, the NBoard extension `set eval PATH`), and
//! the hand-tuned [`HandEval`] of the first release stays available (`hand`) as a baseline for
//! matches.
//!
//! The choice is an enum, not a trait object: the searcher is generic over its evaluator, and a
//! `match` on two variants costs a well-predicted branch per evaluation where a `dyn` call would
//! cost an indirect call. Pattern weights are shared through an [`Arc`], so every searcher of a
//! match or a self-play run uses one copy (about 8 MB expanded), and the embedded default is
//! decoded once per process.
//!
//! # Example
//!
//! Load weights by name as `--eval-file` does, and see a bad file refused with its reason:
//!
//! ```
//! use othello::eval::engine::default_pattern;
//! use othello::eval::{EvalChoice, Evaluator};
//! use othello::Board;
//!
//! // Write the embedded weights to a file, then load them back as a user's weight file.
//! let dir = std::env::temp_dir().join(format!("othello-eval-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("weights.bin");
//! default_pattern().save(&path).unwrap();
//! let choice: EvalChoice = path.to_str().unwrap().parse().unwrap();
//! let from_file = choice.load().unwrap();
//! let embedded = EvalChoice::Default.load().unwrap();
//! let board = Board::start().play("f5".parse().unwrap());
//! assert_eq!(from_file.evaluate(&board), embedded.evaluate(&board));
//!
//! // Anything that is not a weight file gives an error that says why.
//! std::fs::write(&path, b"not weights").unwrap();
//! let error = choice.load().unwrap_err().to_string();
//! assert!(error.contains("not a weight file"), "{error}");
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

use crate::board::Board;
use crate::cpu::Cpu;
use crate::square::Square;

use super::pattern::{PatternEval, WeightsError};
use super::{Evaluator, HandEval, Siblings};

/// The default weight file, embedded at build time.
pub static DEFAULT_WEIGHTS: &[u8] = include_bytes!("../../weights/pattern-v6.bin");

/// The embedded default weights, decoded once per process.
///
/// # Panics
/// If the embedded file is corrupt, which a unit test rules out for every build.
pub fn default_pattern() -> Arc<PatternEval> {
    static DEFAULT: OnceLock<Arc<PatternEval>> = OnceLock::new();
    DEFAULT
        .get_or_init(|| {
            Arc::new(
                PatternEval::from_bytes(DEFAULT_WEIGHTS)
                    .expect("the embedded weight file is checked by a unit test"),
            )
        })
        .clone()
}

/// Which evaluator to build: what `--eval-file`, `set eval` and `engine:eval=` name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvalChoice {
    /// The embedded pattern weights (`default`).
    #[default]
    Default,
    /// The hand-tuned evaluator of the first release (`hand`).
    Hand,
    /// Pattern weights from a file (any other text is taken as a path).
    File(PathBuf),
}

impl EvalChoice {
    /// Builds the evaluator; only a weight file can fail (missing, corrupt, wrong version).
    pub fn load(&self) -> Result<EngineEval, WeightsError> {
        match self {
            EvalChoice::Default => Ok(EngineEval::default()),
            EvalChoice::Hand => Ok(EngineEval::Hand(HandEval::new())),
            EvalChoice::File(path) => EngineEval::from_file(path),
        }
    }
}

impl FromStr for EvalChoice {
    type Err = std::convert::Infallible;

    /// `default`, `hand`, or a path to a weight file (never fails; the file is read by
    /// [`EvalChoice::load`]).
    fn from_str(s: &str) -> Result<EvalChoice, Self::Err> {
        let s = s.trim();
        Ok(match s.to_ascii_lowercase().as_str() {
            "default" => EvalChoice::Default,
            "hand" => EvalChoice::Hand,
            _ => EvalChoice::File(PathBuf::from(s)),
        })
    }
}

impl fmt::Display for EvalChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalChoice::Default => f.write_str("default"),
            EvalChoice::Hand => f.write_str("hand"),
            EvalChoice::File(p) => write!(f, "{}", p.display()),
        }
    }
}

/// The engine's evaluator: pattern weights or the hand-tuned evaluator.
// One per searcher and never moved in a hot loop, so the size difference between the variants
// does not matter; boxing the hand evaluator would add an indirection to every evaluation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum EngineEval {
    /// The hand-tuned evaluator.
    Hand(HandEval),
    /// A pattern evaluator (the embedded default or a loaded file).
    Pattern(Arc<PatternEval>),
}

impl Default for EngineEval {
    /// The embedded pattern weights.
    fn default() -> Self {
        EngineEval::Pattern(default_pattern())
    }
}

impl EngineEval {
    /// Pattern weights read from `path`.
    pub fn from_file(path: impl AsRef<Path>) -> Result<EngineEval, WeightsError> {
        PatternEval::load(path).map(|e| EngineEval::Pattern(Arc::new(e)))
    }

    /// A one-line description for logs and `# eval` answers.
    pub fn describe(&self) -> String {
        match self {
            EngineEval::Hand(_) => "hand-tuned evaluator".to_string(),
            EngineEval::Pattern(p) => format!("pattern evaluator, {} phases", p.phases()),
        }
    }
}

impl fmt::Debug for EngineEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineEval::Hand(_) => f.write_str("EngineEval::Hand"),
            EngineEval::Pattern(e) => write!(f, "EngineEval::Pattern({e:?})"),
        }
    }
}

impl Evaluator for EngineEval {
    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        match self {
            EngineEval::Hand(e) => e.evaluate(board),
            EngineEval::Pattern(e) => e.evaluate(board),
        }
    }

    #[inline]
    fn evaluate_on<C: Cpu>(&self, board: &Board) -> i32 {
        match self {
            EngineEval::Hand(e) => e.evaluate(board),
            EngineEval::Pattern(e) => e.evaluate_on::<C>(board),
        }
    }

    #[inline]
    fn evaluate_child_on<C: Cpu>(
        &self,
        siblings: &mut Siblings,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32 {
        match self {
            EngineEval::Hand(e) => e.evaluate_child_on::<C>(siblings, p, o, sq, flips),
            EngineEval::Pattern(e) => e.evaluate_child_on::<C>(siblings, p, o, sq, flips),
        }
    }

    fn mpc_model_text(&self) -> Option<&str> {
        match self {
            EngineEval::Hand(_) => None,
            EngineEval::Pattern(e) => e.mpc_model_text(),
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
    fn choices_parse_and_display() {
        assert_eq!(
            "default".parse::<EvalChoice>().unwrap(),
            EvalChoice::Default
        );
        assert_eq!(" HAND ".parse::<EvalChoice>().unwrap(), EvalChoice::Hand);
        let f = "weights/x.bin".parse::<EvalChoice>().unwrap();
        assert_eq!(f, EvalChoice::File(PathBuf::from("weights/x.bin")));
        assert_eq!(f.to_string(), "weights/x.bin");
    }

    #[test]
    fn a_missing_or_corrupt_file_is_an_error() {
        let missing = EvalChoice::File(PathBuf::from("/nonexistent/weights.bin"));
        assert!(missing.load().is_err());
        let dir = std::env::temp_dir().join(format!("othello-evalchoice-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("corrupt.bin");
        let mut bytes = DEFAULT_WEIGHTS.to_vec();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let err = EvalChoice::File(path.clone()).load().unwrap_err();
        assert!(err.to_string().contains("checksum"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
