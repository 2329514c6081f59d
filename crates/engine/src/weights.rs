//! Weight files by path: the pattern evaluator's file read and written by the program's file
//! policy ([`crate::files`]), and the evaluator chosen by name as `--eval-file`, NBoard's
//! `set eval` and `engine:eval=` name it.
//!
//! The format and its parser are the core's ([`othello_core::eval::pattern::file`]); this
//! module adds only the paths: regular files only, checked before they are opened, no more
//! bytes than the largest valid file, written atomically.
//!
//! # Example
//!
//! Load weights by name as `--eval-file` does, and see a bad file refused with its reason:
//!
//! ```
//! use othello_engine::weights::{EvalChoice, PatternFile};
//! use othello_core::eval::builtin::default_pattern;
//! use othello_core::eval::Evaluator;
//! use othello_core::Board;
//!
//! // Write the embedded pattern weights to a file, then load them back as a user's file.
//! let dir = std::env::temp_dir().join(format!("othello-eval-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("weights.bin");
//! default_pattern().save(&path).unwrap();
//! let choice: EvalChoice = path.to_str().unwrap().parse().unwrap();
//! let from_file = choice.load().unwrap();
//! let embedded = EvalChoice::Pattern.load().unwrap();
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
use std::sync::Arc;

use othello_core::eval::nnue::{self, NnueEval};
use othello_core::eval::pattern::file::{MAX_FILE_LEN, MAX_MPC_LEN};
use othello_core::eval::pattern::{PatternEval, WeightsError};
use othello_core::eval::{EngineEval, HandEval};

use crate::files::{self, FileError};

impl From<FileError> for WeightsError {
    fn from(e: FileError) -> WeightsError {
        WeightsError::Io {
            path: e.path,
            source: e.source,
        }
    }
}

/// A pattern weight file by path: [`PatternEval`]'s reader and writer.
pub trait PatternFile: Sized {
    /// Reads and parses a weight file, with the Multi-ProbCut model beside it (`NAME.mpc`) if
    /// there is one. Both are read by the program's file policy ([`crate::files`]): regular
    /// files only, checked before they are opened, and no more bytes than the largest valid
    /// file ([`MAX_FILE_LEN`], [`MAX_MPC_LEN`]), so a device, a FIFO or a link to one named by
    /// mistake (`/dev/zero`) gives an error naming it instead of a hang.
    fn load(path: impl AsRef<Path>) -> Result<Self, WeightsError>;

    /// Writes the weight file atomically, by the program's file policy
    /// ([`crate::files::write_atomically`]).
    fn save(&self, path: impl AsRef<Path>) -> Result<(), WeightsError>;
}

impl PatternFile for PatternEval {
    fn load(path: impl AsRef<Path>) -> Result<PatternEval, WeightsError> {
        let path = path.as_ref();
        let bytes = files::read(path, MAX_FILE_LEN as u64)?;
        let eval = PatternEval::from_bytes(&bytes)?;
        // The Multi-ProbCut model fitted to these weights, if it ships beside them.
        Ok(match read_model_beside(path)? {
            Some(text) => eval.with_mpc_model_text(text),
            None => eval,
        })
    }

    fn save(&self, path: impl AsRef<Path>) -> Result<(), WeightsError> {
        Ok(files::write_atomically(path.as_ref(), &self.to_bytes())?)
    }
}

/// The engine's evaluator read from `path`: a neural network (a `.nnue` file, told by its
/// magic bytes) or pattern weights ([`PatternFile::load`]), either with the Multi-ProbCut model
/// beside it (`NAME.mpc`) if there is one.
///
/// A file whose bytes (and model, and settings) are those of an evaluator this process has
/// loaded and still holds gives that evaluator again: the engine players of a
/// match or a tournament each load their `eval=` file, and would otherwise hold a network's
/// 22 MB of embedding rows once each.
pub fn engine_eval_from_file(path: impl AsRef<Path>) -> Result<EngineEval, WeightsError> {
    let path = path.as_ref();
    let network = starts_like_a_network(path)?;
    let limit = if network {
        nnue::file::MAX_FILE_LEN
    } else {
        MAX_FILE_LEN
    };
    let bytes = files::read(path, limit as u64)?;
    let model = read_model_beside(path)?;
    let settings = network.then(|| (lazy_margin(), pattern_below()));
    shared::get_or_load(&bytes, model.as_deref(), settings, || {
        if !network {
            let eval = PatternEval::from_bytes(&bytes)?;
            let eval = match model.clone() {
                Some(text) => eval.with_mpc_model_text(text),
                None => eval,
            };
            return Ok(EngineEval::Pattern(Arc::new(eval)));
        }
        let net = NnueEval::from_bytes(&bytes).map_err(|e| WeightsError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
        })?;
        // The embedded pattern weights order the moves: as good an order at a fifth of the cost.
        let net = net.with_orderer(othello_core::eval::builtin::default_pattern());
        let (lazy, below) = settings.expect("a network's settings");
        let net = net
            .with_lazy_margin(lazy)
            .with_pattern_below(below)
            .with_value_cache(true);
        let net = match model.clone() {
            Some(text) => net.with_mpc_model_text(text),
            None => net,
        };
        Ok(EngineEval::Nnue(Arc::new(net)))
    })
}

/// The evaluators loaded from files that this process still holds, by the files' contents.
mod shared {
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    use std::sync::{Arc, Mutex, Weak};

    use othello_core::eval::nnue::NnueEval;
    use othello_core::eval::pattern::{PatternEval, WeightsError};
    use othello_core::eval::EngineEval;

    /// A loaded evaluator, held weakly: it is freed when its last user drops it.
    enum Held {
        Pattern(Weak<PatternEval>),
        Nnue(Weak<NnueEval>),
    }

    /// What an evaluator was built from: its file's length and a hash of the file, its
    /// model and its settings.
    type Key = (usize, u64);

    static LOADED: Mutex<Vec<(Key, Held)>> = Mutex::new(Vec::new());

    /// The evaluator built from `bytes`, `model` and `settings`: one this process holds
    /// already, or `load`'s (then kept for the next caller).
    pub(super) fn get_or_load(
        bytes: &[u8],
        model: Option<&str>,
        settings: Option<(Option<i32>, Option<u32>)>,
        load: impl FnOnce() -> Result<EngineEval, WeightsError>,
    ) -> Result<EngineEval, WeightsError> {
        let mut h = DefaultHasher::new();
        (bytes, model, settings).hash(&mut h);
        let key = (bytes.len(), h.finish());
        let find = |loaded: &mut Vec<(Key, Held)>| {
            loaded.retain(|(_, held)| match held {
                Held::Pattern(w) => w.strong_count() > 0,
                Held::Nnue(w) => w.strong_count() > 0,
            });
            loaded
                .iter()
                .find(|(k, _)| *k == key)
                .and_then(|(_, held)| match held {
                    Held::Pattern(w) => w.upgrade().map(EngineEval::Pattern),
                    Held::Nnue(w) => w.upgrade().map(EngineEval::Nnue),
                })
        };
        // A poisoned lock only means another loader panicked; the list is still whole.
        if let Some(eval) = find(&mut LOADED.lock().unwrap_or_else(|e| e.into_inner())) {
            return Ok(eval);
        }
        let eval = load()?;
        let held = match &eval {
            EngineEval::Pattern(p) => Held::Pattern(Arc::downgrade(p)),
            EngineEval::Nnue(n) => Held::Nnue(Arc::downgrade(n)),
            EngineEval::Hand(_) => return Ok(eval),
        };
        let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        // Two loads of one file at once: keep the first, so that both share it.
        if let Some(first) = find(&mut loaded) {
            return Ok(first);
        }
        loaded.push((key, held));
        Ok(eval)
    }
}

pub use othello_core::eval::builtin::LAZY_MARGIN;

/// The lazy margin: [`LAZY_MARGIN`], or `$OTHELLO_NNUE_LAZY` (centi-discs, or `off`) for
/// experiments (docs/dev/NNUE.md); a value that cannot be read is logged and ignored.
fn lazy_margin() -> Option<i32> {
    let Ok(text) = std::env::var("OTHELLO_NNUE_LAZY") else {
        return Some(LAZY_MARGIN);
    };
    match text.trim() {
        "off" => None,
        t => match t.parse::<i32>() {
            Ok(m) if (0..=6400).contains(&m) => Some(m),
            _ => {
                log::warn!("OTHELLO_NNUE_LAZY={text:?}: expected centi-discs 0 to 6400 or off");
                Some(LAZY_MARGIN)
            }
        },
    }
}

/// The empties at and below which a network hands positions to the embedded pattern weights
/// ([`NnueEval::with_pattern_below`]).
pub const PATTERN_BELOW: Option<u32> = None;

/// [`PATTERN_BELOW`], or `$OTHELLO_NNUE_PATTERN_BELOW` (empties 0 to 60, or `off`) for
/// experiments (docs/dev/NNUE.md); a value that cannot be read is logged and ignored.
fn pattern_below() -> Option<u32> {
    let Ok(text) = std::env::var("OTHELLO_NNUE_PATTERN_BELOW") else {
        return PATTERN_BELOW;
    };
    match text.trim() {
        "off" => None,
        t => match t.parse::<u32>() {
            Ok(e) if e <= 60 => Some(e),
            _ => {
                log::warn!("OTHELLO_NNUE_PATTERN_BELOW={text:?}: expected empties 0 to 60 or off");
                PATTERN_BELOW
            }
        },
    }
}

/// Whether the file at `path` begins with a network file's magic bytes (read by the file
/// policy: a regular file only).
fn starts_like_a_network(path: &Path) -> Result<bool, WeightsError> {
    use std::io::Read;
    let mut head = Vec::with_capacity(8);
    files::open(path)?
        .take(8)
        .read_to_end(&mut head)
        .map_err(|e| WeightsError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
    Ok(NnueEval::is_network_file(&head))
}

/// The Multi-ProbCut model beside the weight file `path` (`NAME.mpc`), if there is one.
fn read_model_beside(path: &Path) -> Result<Option<String>, WeightsError> {
    let model = path.with_extension("mpc");
    match files::read_if_exists(&model, MAX_MPC_LEN as u64)? {
        Some(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| WeightsError::Io {
                path: model,
                source: std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"),
            }),
        None => Ok(None),
    }
}

/// Which evaluator to build: what `--eval-file`, `set eval` and `engine:eval=` name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvalChoice {
    /// The embedded evaluator (`default`): the network in native builds, the pattern weights
    /// in the WebAssembly one ([`EngineEval::default`]).
    #[default]
    Default,
    /// The embedded pattern weights (`pattern`: pattern-v6, the default before the network).
    Pattern,
    /// The hand-tuned evaluator of the first release (`hand`).
    Hand,
    /// Pattern weights or a neural network from a file (any other text is taken as a path).
    File(PathBuf),
}

impl EvalChoice {
    /// Builds the evaluator; only a weight file can fail (missing, corrupt, wrong version).
    pub fn load(&self) -> Result<EngineEval, WeightsError> {
        match self {
            EvalChoice::Default => Ok(EngineEval::default()),
            EvalChoice::Pattern => Ok(EngineEval::pattern()),
            EvalChoice::Hand => Ok(EngineEval::Hand(HandEval::new())),
            EvalChoice::File(path) => engine_eval_from_file(path),
        }
    }
}

impl FromStr for EvalChoice {
    type Err = std::convert::Infallible;

    /// `default`, `pattern`, `hand`, or a path to a weight file (never fails; the file is read by
    /// [`EvalChoice::load`]).
    fn from_str(s: &str) -> Result<EvalChoice, Self::Err> {
        let s = s.trim();
        Ok(match s.to_ascii_lowercase().as_str() {
            "default" => EvalChoice::Default,
            "pattern" => EvalChoice::Pattern,
            "hand" => EvalChoice::Hand,
            _ => EvalChoice::File(PathBuf::from(s)),
        })
    }
}

impl fmt::Display for EvalChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalChoice::Default => f.write_str("default"),
            EvalChoice::Pattern => f.write_str("pattern"),
            EvalChoice::Hand => f.write_str("hand"),
            EvalChoice::File(p) => write!(f, "{}", p.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_core::eval::builtin::DEFAULT_WEIGHTS;

    #[test]
    fn choices_parse_and_display() {
        assert_eq!(
            "default".parse::<EvalChoice>().unwrap(),
            EvalChoice::Default
        );
        assert_eq!(" HAND ".parse::<EvalChoice>().unwrap(), EvalChoice::Hand);
        let pattern = "Pattern".parse::<EvalChoice>().unwrap();
        assert_eq!(pattern, EvalChoice::Pattern);
        assert_eq!(pattern.to_string(), "pattern");
        assert!(matches!(pattern.load().unwrap(), EngineEval::Pattern(_)));
        let default = EvalChoice::Default.load().unwrap();
        let network = othello_core::eval::builtin::network_is_default();
        assert_eq!(matches!(default, EngineEval::Nnue(_)), network);
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

    #[test]
    fn loads_of_one_file_share_one_evaluator_while_it_is_held() {
        let dir = std::env::temp_dir().join(format!("othello-evalshare-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let nnue_path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../weights/nnue-r7.nnue");
        let net = dir.join("net.nnue");
        std::fs::copy(&nnue_path, &net).unwrap();
        let choice = EvalChoice::File(net.clone());
        let (EngineEval::Nnue(a), EngineEval::Nnue(b)) =
            (choice.load().unwrap(), choice.load().unwrap())
        else {
            panic!("a network file loads as a network");
        };
        assert!(
            Arc::ptr_eq(&a, &b),
            "the second load shares the first's network"
        );
        // Another file with the same bytes shares it too; a model beside it makes another.
        let copy = dir.join("copy.nnue");
        std::fs::copy(&net, &copy).unwrap();
        let EngineEval::Nnue(c) = EvalChoice::File(copy.clone()).load().unwrap() else {
            panic!("a network");
        };
        assert!(Arc::ptr_eq(&a, &c));
        std::fs::copy(nnue_path.with_extension("mpc"), copy.with_extension("mpc")).unwrap();
        let EngineEval::Nnue(d) = EvalChoice::File(copy.clone()).load().unwrap() else {
            panic!("a network");
        };
        assert!(
            !Arc::ptr_eq(&a, &d),
            "with a model beside it, it is another evaluator"
        );
        use othello_core::eval::Evaluator;
        assert!(d.mpc_model_text().is_some() && a.mpc_model_text().is_none());
        drop(d);
        // Once every holder is gone, a load builds a new one.
        let weak = Arc::downgrade(&a);
        drop((a, b, c));
        assert!(weak.upgrade().is_none(), "nothing else holds the network");
        // Pattern weights are shared the same way, and a changed file is not the old one.
        let pattern = dir.join("p.bin");
        std::fs::write(&pattern, DEFAULT_WEIGHTS).unwrap();
        let p = EvalChoice::File(pattern.clone());
        let (EngineEval::Pattern(x), EngineEval::Pattern(y)) =
            (p.load().unwrap(), p.load().unwrap())
        else {
            panic!("pattern weights");
        };
        assert!(Arc::ptr_eq(&x, &y));
        let other = dir.join("p1.bin");
        std::fs::copy(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../weights/pattern-v1.bin"),
            &other,
        )
        .unwrap();
        std::fs::rename(&other, &pattern).unwrap();
        let EngineEval::Pattern(z) = p.load().unwrap() else {
            panic!("pattern weights");
        };
        assert!(!Arc::ptr_eq(&x, &z), "a changed file is loaded again");
        std::fs::remove_dir_all(&dir).ok();
    }
}
