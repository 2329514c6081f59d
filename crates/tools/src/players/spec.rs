//! Player spec strings: parsed into [`PlayerSpec`], which builds players.
//!
//! Grammar (fields separated by `:`; kinds and evaluation names are case-insensitive):
//!
//! ```text
//! random
//! maximizer:<eval>                    eval = count | weighted | modified | iago
//! minimax:<depth>:<eval>              depth = 1..=MAX_PAIP_DEPTH
//! alphabeta:<depth>:<eval>
//! alphabeta2:<depth>:<eval>
//! alphabeta3:<depth>:<eval>
//! iago:<depth>
//! engine[:<option>[,<option>...]]     option = level=N | depth=N | time=SECONDS | hash=MB
//!                                             | threads=N
//!                                             | ponder=on|off
//!                                             | book=default|off|<book file>
//!                                             | book-random=DISCS
//!                                             | eval=default|pattern|hand|<weight file>
//!                                             | selectivity=58|73|87|95|98|99|100
//! nboard:<name>[@<dir>]=<command line>
//! gtp:<name>[@<dir>]=<command line>
//! ```
//!
//! For `nboard`, the name must match `[A-Za-z0-9]+` (NBoard's rule), everything after the
//! first `=` is the command line, split on whitespace with no quoting (as NBoard splits it),
//! and the optional `@<dir>` is the working directory: the program runs there, and a relative
//! program path is resolved from there (NBoard's "working directory" field). Examples:
//! `nboard:self=target/release/othello`, `nboard:edax@/opt/edax=./mEdax -q`. `gtp` is read
//! the same way: `gtp:grhino=gtp-rhino`, `gtp:ours=target/release/othello gtp --level 4`.
//!
//! `level=N` (1-60, [`crate::engine::level`]) sets the depth, the exact solve and the
//! selectivity at once, untimed; it cannot be combined with `depth=`, `time=` or
//! `selectivity=`.
//!
//! Parsing never panics; every mistake is a [`SpecError`] naming the offending part.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

use super::gtp::GtpPlayer;
use super::native::{EnginePlayer, EngineSettings};
use super::nboard::{EngineCommand, NboardPlayer};
use super::paip::{Algorithm, PaipEval, PaipSearcher};
use super::{MaximizerPlayer, Player, PlayerError, RandomPlayer, SearcherPlayer};
use crate::book::BookChoice;
use crate::discs::CentiDiscs;
use crate::engine::Level;
use crate::search::tt::MAX_SHARED_HASH_MB;
use crate::search::{SelectivitySetting, MAX_THREADS};
use crate::weights::EvalChoice;

/// The deepest search a PAIP searcher spec may ask for. PAIP's searchers have no time limit, so
/// deeper than this would not finish a game in reasonable time anyway.
pub const MAX_PAIP_DEPTH: u32 = 16;

/// A parsed player spec.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// `random`.
    Random,
    /// `maximizer:<eval>`.
    Maximizer(PaipEval),
    /// `minimax:..`, `alphabeta:..`, `alphabeta2:..`, `alphabeta3:..` and `iago:<depth>`.
    Searcher {
        /// The searcher.
        searcher: PaipSearcher,
        /// Whether it was written `iago:<depth>` (kept for display).
        iago: bool,
    },
    /// `engine[:...]`.
    Engine(EngineSettings),
    /// `nboard:<name>[@<dir>]=<command>`.
    Nboard(EngineCommand),
    /// `gtp:<name>[@<dir>]=<command>`.
    Gtp(EngineCommand),
}

/// Why a spec string is not a player.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SpecError {
    /// Nothing given.
    #[error("empty player spec; expected e.g. random, maximizer:weighted, iago:4, engine")]
    Empty,
    /// The first field is not a known kind.
    #[error(
        "unknown player kind {0:?}: expected random, maximizer, minimax, alphabeta, \
         alphabeta2, alphabeta3, iago, engine, nboard or gtp"
    )]
    UnknownKind(String),
    /// Wrong number of `:` fields for the kind.
    #[error("{spec:?}: expected {usage}")]
    Fields {
        /// The spec.
        spec: String,
        /// What the kind looks like.
        usage: &'static str,
    },
    /// An evaluation name that is not one of PAIP's.
    #[error("unknown evaluation {0:?}: expected count, weighted, modified or iago")]
    UnknownEval(String),
    /// A depth that is not an integer in range.
    #[error("bad depth {0:?}: expected an integer from 1 to {MAX_PAIP_DEPTH}")]
    Depth(String),
    /// An engine option that is unknown or malformed.
    #[error(
        "bad engine option {0:?}: expected level=N (1-60), depth=N (1-60), time=SECONDS, hash=MB, \
         threads=N, ponder=on|off, eval=default|pattern|hand|<weight file>, \
         selectivity=58|73|87|95|98|99|100, book=default|off|<book file> or \
         book-random=DISCS"
    )]
    EngineOption(String),
    /// `level=` with an option it replaces.
    #[error("engine option {0:?}: level=N sets the depth, the time rule and the selectivity; drop one of them")]
    LevelConflict(String),
    /// An `nboard:` spec without `=` or with an empty command.
    #[error("{0:?}: expected nboard:<name>[@<dir>]=<command line>")]
    NboardSyntax(String),
    /// A `gtp:` spec without `=` or with an empty command.
    #[error("{0:?}: expected gtp:<name>[@<dir>]=<command line>")]
    GtpSyntax(String),
    /// An NBoard or GTP engine name with characters other than letters and digits.
    #[error("bad engine name {0:?}: use letters and digits only")]
    NboardName(String),
}

impl PlayerSpec {
    /// The name the player goes by: the engine's name for `nboard`, the spec otherwise.
    pub fn name(&self) -> String {
        match self {
            PlayerSpec::Nboard(cmd) | PlayerSpec::Gtp(cmd) => cmd.name.clone(),
            other => other.to_string(),
        }
    }

    /// Builds the player. Only `nboard` players (the program cannot be started) and engines
    /// with an `eval=` file (it cannot be loaded) can fail.
    pub fn build(&self) -> Result<Box<dyn Player>, PlayerError> {
        self.build_with_startup(std::time::Duration::from_secs(
            super::nboard::STARTUP_TIMEOUT_SECS,
        ))
    }

    /// [`PlayerSpec::build`], an `nboard` engine given `startup` to answer its first `ping`.
    pub fn build_with_startup(
        &self,
        startup: std::time::Duration,
    ) -> Result<Box<dyn Player>, PlayerError> {
        Ok(match self {
            PlayerSpec::Random => Box::new(RandomPlayer::new()),
            PlayerSpec::Maximizer(eval) => Box::new(MaximizerPlayer::new(*eval)),
            PlayerSpec::Searcher { searcher, .. } => {
                Box::new(SearcherPlayer::new(*searcher, self.name()))
            }
            PlayerSpec::Engine(settings) => {
                Box::new(EnginePlayer::new(settings.clone(), self.name())?)
            }
            PlayerSpec::Nboard(cmd) => {
                Box::new(NboardPlayer::spawn_with_startup(cmd.clone(), startup)?)
            }
            PlayerSpec::Gtp(cmd) => Box::new(GtpPlayer::spawn_with_startup(cmd.clone(), startup)?),
        })
    }
}

fn parse_depth(text: &str) -> Result<u32, SpecError> {
    match text.trim().parse::<u32>() {
        Ok(d) if (1..=MAX_PAIP_DEPTH).contains(&d) => Ok(d),
        _ => Err(SpecError::Depth(text.to_string())),
    }
}

fn parse_eval(text: &str) -> Result<PaipEval, SpecError> {
    PaipEval::from_name(&text.trim().to_ascii_lowercase())
        .ok_or_else(|| SpecError::UnknownEval(text.to_string()))
}

fn parse_engine_options(text: &str) -> Result<EngineSettings, SpecError> {
    let mut settings = EngineSettings::default();
    for option in text.split(',').map(str::trim).filter(|o| !o.is_empty()) {
        let bad = || SpecError::EngineOption(option.to_string());
        let (key, value) = option.split_once('=').ok_or_else(bad)?;
        let value = value.trim();
        match key.trim().to_ascii_lowercase().as_str() {
            "level" => match value.parse::<Level>() {
                Ok(level) => settings.level = Some(level),
                Err(_) => return Err(bad()),
            },
            "depth" => match value.parse::<u32>() {
                Ok(d) if (1..=60).contains(&d) => settings.depth = Some(d),
                _ => return Err(bad()),
            },
            "time" => match value.parse::<f64>() {
                Ok(s) if s.is_finite() && s > 0.0 && s <= 1e6 => {
                    settings.move_time = Some(Duration::from_secs_f64(s))
                }
                _ => return Err(bad()),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MAX_SHARED_HASH_MB).contains(&mb) => settings.hash_mb = mb,
                _ => return Err(bad()),
            },
            "ponder" => match value.to_ascii_lowercase().as_str() {
                "on" | "yes" | "true" | "1" => settings.ponder = true,
                "off" | "no" | "false" | "0" => settings.ponder = false,
                _ => return Err(bad()),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => settings.threads = n,
                _ => return Err(bad()),
            },
            "selectivity" => match value.parse::<SelectivitySetting>() {
                Ok(setting) => settings.selectivity = setting.0,
                Err(_) => return Err(bad()),
            },
            "book" if !value.is_empty() => {
                let Ok(choice) = value.parse::<BookChoice>();
                settings.book = choice;
            }
            "book-random" => match value.parse::<f64>() {
                Ok(d) if d.is_finite() && (0.0..=64.0).contains(&d) => {
                    // Checked non-negative: the centi-discs fit a u32.
                    settings.book_randomness = CentiDiscs::from_discs(d).0 as u32
                }
                _ => return Err(bad()),
            },
            // A path may not contain ',' here (it separates options).
            "eval" if !value.is_empty() => {
                let Ok(choice) = value.parse::<EvalChoice>();
                settings.eval = choice;
            }
            _ => return Err(bad()),
        }
    }
    if settings.level.is_some() {
        let default = EngineSettings::default();
        for (key, set) in [
            ("depth", settings.depth.is_some()),
            ("time", settings.move_time.is_some()),
            ("selectivity", settings.selectivity != default.selectivity),
        ] {
            if set {
                return Err(SpecError::LevelConflict(key.to_string()));
            }
        }
    }
    Ok(settings)
}

/// The `<name>[@<dir>]=<command line>` of an `nboard:` or `gtp:` spec (`gtp` says which, for
/// the syntax error).
fn parse_external(spec: &str, rest: &str, gtp: bool) -> Result<EngineCommand, SpecError> {
    let syntax = || {
        if gtp {
            SpecError::GtpSyntax(spec.to_string())
        } else {
            SpecError::NboardSyntax(spec.to_string())
        }
    };
    let (head, command) = rest.split_once('=').ok_or_else(syntax)?;
    let (name, dir) = match head.split_once('@') {
        Some((n, d)) if !d.trim().is_empty() => (n.trim(), Some(PathBuf::from(d.trim()))),
        Some(_) => return Err(syntax()),
        None => (head.trim(), None),
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(SpecError::NboardName(name.to_string()));
    }
    let argv: Vec<String> = command.split_whitespace().map(str::to_string).collect();
    if argv.is_empty() {
        return Err(syntax());
    }
    Ok(EngineCommand {
        name: name.to_string(),
        dir,
        argv,
    })
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<PlayerSpec, SpecError> {
        let spec = s.trim();
        if spec.is_empty() {
            return Err(SpecError::Empty);
        }
        let (kind, rest) = match spec.split_once(':') {
            Some((k, r)) => (k.trim().to_ascii_lowercase(), Some(r)),
            None => (spec.to_ascii_lowercase(), None),
        };
        let fields: Vec<&str> = rest.map_or(Vec::new(), |r| r.split(':').collect());
        let wrong = |usage| SpecError::Fields {
            spec: spec.to_string(),
            usage,
        };
        let searcher = |algorithm, usage| -> Result<PlayerSpec, SpecError> {
            match fields.as_slice() {
                [depth, eval] => Ok(PlayerSpec::Searcher {
                    searcher: PaipSearcher {
                        algorithm,
                        depth: parse_depth(depth)?,
                        eval: parse_eval(eval)?,
                    },
                    iago: false,
                }),
                _ => Err(wrong(usage)),
            }
        };
        match kind.as_str() {
            "random" if fields.is_empty() => Ok(PlayerSpec::Random),
            "random" => Err(wrong("random (no options)")),
            "maximizer" => match fields.as_slice() {
                [eval] => Ok(PlayerSpec::Maximizer(parse_eval(eval)?)),
                _ => Err(wrong("maximizer:<eval>")),
            },
            "minimax" => searcher(Algorithm::Minimax, "minimax:<depth>:<eval>"),
            "alphabeta" => searcher(Algorithm::AlphaBeta, "alphabeta:<depth>:<eval>"),
            "alphabeta2" => searcher(Algorithm::AlphaBeta2, "alphabeta2:<depth>:<eval>"),
            "alphabeta3" => searcher(Algorithm::AlphaBeta3, "alphabeta3:<depth>:<eval>"),
            "iago" => match fields.as_slice() {
                [depth] => Ok(PlayerSpec::Searcher {
                    searcher: PaipSearcher {
                        algorithm: Algorithm::AlphaBeta3,
                        depth: parse_depth(depth)?,
                        eval: PaipEval::Iago,
                    },
                    iago: true,
                }),
                _ => Err(wrong("iago:<depth>")),
            },
            "engine" => match rest {
                None => Ok(PlayerSpec::Engine(EngineSettings::default())),
                Some(options) => parse_engine_options(options).map(PlayerSpec::Engine),
            },
            // The command line may contain ':' (paths, URLs): take everything after "nboard:".
            "nboard" => parse_external(spec, rest.unwrap_or(""), false).map(PlayerSpec::Nboard),
            "gtp" => parse_external(spec, rest.unwrap_or(""), true).map(PlayerSpec::Gtp),
            _ => Err(SpecError::UnknownKind(kind)),
        }
    }
}

impl fmt::Display for PlayerSpec {
    /// The canonical spec string, which parses back to the same spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Maximizer(eval) => write!(f, "maximizer:{}", eval.name()),
            PlayerSpec::Searcher { searcher, iago } => {
                let kind = match searcher.algorithm {
                    _ if *iago => return write!(f, "iago:{}", searcher.depth),
                    Algorithm::Minimax => "minimax",
                    Algorithm::AlphaBeta => "alphabeta",
                    Algorithm::AlphaBeta2 => "alphabeta2",
                    Algorithm::AlphaBeta3 => "alphabeta3",
                };
                write!(f, "{kind}:{}:{}", searcher.depth, searcher.eval.name())
            }
            PlayerSpec::Engine(s) => {
                f.write_str("engine")?;
                let mut options = Vec::new();
                if let Some(level) = s.level {
                    options.push(format!("level={level}"));
                }
                if let Some(d) = s.depth {
                    options.push(format!("depth={d}"));
                }
                if let Some(t) = s.move_time {
                    options.push(format!("time={}", t.as_secs_f64()));
                }
                if s.hash_mb != EngineSettings::default().hash_mb {
                    options.push(format!("hash={}", s.hash_mb));
                }
                if s.threads != EngineSettings::default().threads {
                    options.push(format!("threads={}", s.threads));
                }
                if s.ponder {
                    options.push("ponder=on".to_string());
                }
                if s.book != BookChoice::Default {
                    options.push(format!("book={}", s.book));
                }
                if s.book_randomness != 0 {
                    options.push(format!(
                        "book-random={}",
                        CentiDiscs::from(s.book_randomness)
                    ));
                }
                if s.eval != EvalChoice::Default {
                    options.push(format!("eval={}", s.eval));
                }
                if s.selectivity != EngineSettings::default().selectivity {
                    let setting = SelectivitySetting(s.selectivity);
                    options.push(format!(
                        "selectivity={}",
                        setting.to_string().trim_end_matches('%')
                    ));
                }
                if !options.is_empty() {
                    write!(f, ":{}", options.join(","))?;
                }
                Ok(())
            }
            PlayerSpec::Nboard(cmd) | PlayerSpec::Gtp(cmd) => {
                let kind = if matches!(self, PlayerSpec::Gtp(_)) {
                    "gtp"
                } else {
                    "nboard"
                };
                write!(f, "{kind}:{}", cmd.name)?;
                if let Some(dir) = &cmd.dir {
                    write!(f, "@{}", dir.display())?;
                }
                write!(f, "={}", cmd.argv.join(" "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_parses_and_round_trips() {
        for text in [
            "random",
            "maximizer:count",
            "maximizer:weighted",
            "maximizer:modified",
            "maximizer:iago",
            "minimax:3:count",
            "alphabeta:4:weighted",
            "alphabeta2:4:modified",
            "alphabeta3:5:iago",
            "iago:3",
            "engine",
            "engine:depth=6",
            "engine:time=0.5",
            "engine:depth=4,time=2,hash=8",
            "engine:time=2,threads=2",
            "engine:time=4,ponder=on",
            "engine:book=off",
            "engine:book=my.book,book-random=1.5",
            "engine:depth=8,eval=hand",
            "engine:selectivity=95",
            "engine:time=1,selectivity=100",
            "engine:level=1",
            "engine:level=60,hash=8,book=off",
            "nboard:self=target/release/othello",
            "nboard:edax@/opt/edax=./mEdax -q",
            "gtp:grhino=gtp-rhino",
            "gtp:ours@/tmp=./othello gtp --level 2",
        ] {
            let spec: PlayerSpec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(spec.to_string(), text);
        }
    }

    #[test]
    fn iago_is_alpha_beta3_with_iago_eval() {
        let PlayerSpec::Searcher { searcher, iago } = "IAGO:4".parse().unwrap() else {
            panic!()
        };
        assert!(iago);
        assert_eq!(searcher.algorithm, Algorithm::AlphaBeta3);
        assert_eq!(searcher.eval, PaipEval::Iago);
        assert_eq!(searcher.depth, 4);
    }

    #[test]
    fn nboard_parts() {
        let PlayerSpec::Nboard(cmd) = "nboard:E1@/tmp/x y=./a  -b c:d"
            .parse::<PlayerSpec>()
            .unwrap()
        else {
            panic!()
        };
        assert_eq!(cmd.name, "E1");
        assert_eq!(cmd.dir, Some(PathBuf::from("/tmp/x y")));
        assert_eq!(cmd.argv, ["./a", "-b", "c:d"]);
    }

    #[test]
    fn mistakes_are_errors_not_panics() {
        let cases: &[(&str, SpecError)] = &[
            ("", SpecError::Empty),
            ("  ", SpecError::Empty),
            ("randy", SpecError::UnknownKind("randy".into())),
            ("maximizer:foo", SpecError::UnknownEval("foo".into())),
            ("minimax:0:count", SpecError::Depth("0".into())),
            ("minimax:99:count", SpecError::Depth("99".into())),
            ("alphabeta:x:count", SpecError::Depth("x".into())),
            ("iago:-1", SpecError::Depth("-1".into())),
            ("engine:depth=0", SpecError::EngineOption("depth=0".into())),
            ("engine:time=-1", SpecError::EngineOption("time=-1".into())),
            ("engine:speed=9", SpecError::EngineOption("speed=9".into())),
            ("engine:depth", SpecError::EngineOption("depth".into())),
            ("engine:level=0", SpecError::EngineOption("level=0".into())),
            (
                "engine:level=61",
                SpecError::EngineOption("level=61".into()),
            ),
            ("engine:level=x", SpecError::EngineOption("level=x".into())),
            (
                "engine:level=3,depth=4",
                SpecError::LevelConflict("depth".into()),
            ),
            (
                "engine:time=1,level=3",
                SpecError::LevelConflict("time".into()),
            ),
            (
                "engine:level=3,selectivity=95",
                SpecError::LevelConflict("selectivity".into()),
            ),
            ("nboard:x", SpecError::NboardSyntax("nboard:x".into())),
            ("nboard:x=", SpecError::NboardSyntax("nboard:x=".into())),
            ("nboard:a b=./e", SpecError::NboardName("a b".into())),
            ("nboard:=./e", SpecError::NboardName("".into())),
            ("gtp:x", SpecError::GtpSyntax("gtp:x".into())),
            ("gtp:x=  ", SpecError::GtpSyntax("gtp:x=".into())),
            ("gtp:a b=./e", SpecError::NboardName("a b".into())),
        ];
        for (text, want) in cases {
            assert_eq!(&text.parse::<PlayerSpec>().unwrap_err(), want, "{text}");
        }
        for text in [
            "random:1",
            "maximizer",
            "maximizer:count:2",
            "minimax:3",
            "iago",
            "iago:3:iago",
            "alphabeta3:1:2:3",
        ] {
            let err = text.parse::<PlayerSpec>().unwrap_err();
            assert!(matches!(err, SpecError::Fields { .. }), "{text}: {err}");
            assert!(err.to_string().contains("expected"), "{err}");
        }
    }
}
