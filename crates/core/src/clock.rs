//! Clocks, in one place: the time-control type and its two text forms, the rules for the time
//! a side has left and for a fallen flag, the search's view of a clock, and the default times.
//!
//! A [`TimeControl`] is what a game is played with: initial time, increment per move and grace.
//! Its text forms are GGF's `time[/increment[/grace]]` ([`FromStr`], [`fmt::Display`]; game
//! records and the NBoard protocol) and the command line's `SECONDS[+INCREMENT]`
//! ([`TimeControl::parse_match`]; `match --time`, `play --time`), whose grace is a separate option.
//!
//! The rules follow GGS as NBoard applies them: when a side's time runs out the first time, the
//! grace is added once; a second time-out loses ([`TimeControl::flag_fallen`]). The referee,
//! terminal play, the players and the NBoard engine all ask these methods, given the times the
//! side spent on its moves (`Game::move_times`). [`Clock`] is what a search is given: the time
//! left to the side to move and its increment.

use crate::time::{Duration, Instant};
use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Largest time (in seconds) a clock or a move may record: about 31 years. Keeps every time
/// convertible to a [`Duration`].
pub const MAX_SECONDS: f64 = 1e9;

/// Grace time GGF assumes when a clock does not give one: two minutes.
pub const GGF_GRACE_SECS: f64 = 120.0;

/// Default grace margin of `match`, `tournament` and `play` (`--grace`): a side loses on time
/// when its clock is below minus this.
pub const MATCH_GRACE_SECS: f64 = 0.1;

/// How long after a side's time (grace included) has run out a referee stops waiting for its
/// move ([`TimeControl::deadline`]).
pub const HANG_SLACK_MS: u64 = 50;

/// Time per move of an `engine` player in a match with no clock, no depth and no time given.
pub const MATCH_MOVE_TIME_MS: u64 = 1_000;

/// Time per move of the NBoard engine's `go` when the game has no clock (no `TI`/`TB`/`TW`, or
/// `TI[0]`).
pub const NBOARD_MOVE_TIME_MS: u64 = 5_000;

/// Time allowed for a forced move (a single legal move), by the NBoard engine and by an `engine`
/// player in a timed game: enough for a shallow eval, so the clock is kept for real choices.
pub const FORCED_MOVE_TIME_MS: u64 = 20;

/// At most this many characters of offending text are quoted in an error.
const MAX_ERROR_TEXT: usize = 32;

/// A clock as a search sees it: time left for the side to move, and the increment per move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// A time control: initial time, increment per move and grace time, all in seconds.
///
/// GGF text form `time[/increment[/grace]]`, each a time `[[d.]h:]m:s` or plain seconds:
/// `15:00` (15 minutes), `1:00:00` (an hour), `90.5`, `5:00/10` (10 s increment), `5:00//2:00`
/// (no increment, 2 minutes grace). A missing grace is [`GGF_GRACE_SECS`]. When a side's time
/// runs out the first time, the grace is added once; after a second time-out its clock stays
/// at zero (the GGS rule, as NBoard applies it).
///
/// ```
/// use othello_core::clock::TimeControl;
///
/// let tc: TimeControl = "5:00/10".parse().unwrap();
/// assert_eq!((tc.initial, tc.increment, tc.grace), (300.0, 10.0, 120.0));
/// // After moves of 20 s and 30 s: 300 - 50 + 2 increments.
/// assert_eq!(tc.remaining([20.0, 30.0]), 270.0);
/// assert!(!tc.flag_fallen([20.0, 30.0]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Time on the clock at the start, in seconds.
    pub initial: f64,
    /// Time added after each move, in seconds.
    pub increment: f64,
    /// Time added once, at the first time-out, in seconds.
    pub grace: f64,
}

impl TimeControl {
    /// A clock of `initial` seconds, no increment, the GGF default grace.
    pub fn new(initial: f64) -> TimeControl {
        TimeControl {
            initial,
            increment: 0.0,
            grace: GGF_GRACE_SECS,
        }
    }

    /// Reads the command line's `SECONDS[+INCREMENT]` (per game and side), e.g. `60+0.5`, into
    /// a clock with the given grace margin. Each number is at most 10^6 seconds; the initial
    /// time must be positive and the grace finite and not negative.
    pub fn parse_match(text: &str, grace: f64) -> Result<TimeControl, ParseClockError> {
        let bad = || ParseClockError::Match(text.to_string());
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let number = |t: &str| -> Result<f64, ParseClockError> {
            match t.trim().parse::<f64>() {
                Ok(x) if x.is_finite() && (0.0..=1e6).contains(&x) => Ok(x),
                _ => Err(bad()),
            }
        };
        let (initial, increment) = (number(base)?, number(inc)?);
        if initial <= 0.0 || !(grace.is_finite() && grace >= 0.0) {
            return Err(bad());
        }
        Ok(TimeControl {
            initial,
            increment,
            grace,
        })
    }

    /// Whether the clock is unset: no time and no increment (NBoard writes `TI[0]` for untimed
    /// games).
    pub fn is_untimed(&self) -> bool {
        self.initial == 0.0 && self.increment == 0.0
    }

    /// Seconds on the clock after moves that took `move_seconds` each, with increments and the
    /// grace (what a side has left to think with; never negative).
    pub fn remaining(&self, move_seconds: impl IntoIterator<Item = f64>) -> f64 {
        let mut left = self.initial;
        let mut timeouts = 0;
        for spent in move_seconds {
            left -= spent;
            if left < 0.0 && timeouts == 0 {
                left += self.grace;
                timeouts = 1;
            }
            if left < 0.0 {
                left = 0.0;
                timeouts = 2;
            }
            if timeouts < 2 {
                left += self.increment;
            }
        }
        left.clamp(0.0, MAX_SECONDS)
    }

    /// The clock as shown to a person: the initial time plus the increments of `move_seconds`
    /// minus their sum, without the grace (negative once the time is out).
    pub fn shown(&self, move_seconds: &[f64]) -> f64 {
        let used: f64 = move_seconds.iter().sum();
        self.initial + self.increment * move_seconds.len() as f64 - used
    }

    /// Whether a side that spent `move_seconds` on its moves, in order, has lost on time: at
    /// some move its used time exceeded the initial time, the increments earned before that
    /// move and the grace (the same rule as [`TimeControl::remaining`] reaching a second
    /// time-out).
    pub fn flag_fallen(&self, move_seconds: impl IntoIterator<Item = f64>) -> bool {
        let mut left = self.initial;
        for s in move_seconds {
            left -= s;
            if left < -self.grace {
                return true;
            }
            left += self.increment;
        }
        false
    }

    /// Seconds the side may still use before its flag falls, grace included (never negative).
    pub fn time_to_flag(&self, move_seconds: impl IntoIterator<Item = f64>) -> f64 {
        let mut left = self.initial;
        for s in move_seconds {
            left += self.increment - s;
        }
        (left + self.grace).max(0.0)
    }

    /// When a referee stops waiting for a move that started at `started`: when the flag falls
    /// ([`TimeControl::time_to_flag`]) plus [`HANG_SLACK_MS`].
    pub fn deadline(&self, started: Instant, move_seconds: &[f64]) -> Instant {
        let left = self.time_to_flag(move_seconds.iter().copied());
        started
            + Duration::from_secs_f64(left.min(MAX_SECONDS))
            + Duration::from_millis(HANG_SLACK_MS)
    }
}

/// Why a clock could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseClockError {
    /// Not a GGF clock (the text, clipped).
    #[error("bad clock {0:?}: expected time[/increment[/grace]] with times like 15:00 or 90")]
    Ggf(String),
    /// Not a command-line clock, or a bad grace (the text).
    #[error("bad time control {0:?}: expected SECONDS[+INCREMENT] per game and side, e.g. 60+0.5")]
    Match(String),
}

/// Reads one time: `s`, `m:s`, `h:m:s` or `d.h:m:s`; only the seconds may have decimals.
fn parse_time(text: &str) -> Option<f64> {
    let t = text.trim();
    let parts: Vec<&str> = t.split(':').collect();
    if parts.len() > 3 {
        return None;
    }
    let integer = |p: &str| -> Option<f64> {
        if p.is_empty() || p.len() > 9 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        p.parse::<u32>().ok().map(f64::from)
    };
    let (last, leading) = parts.split_last()?;
    let mut total = 0.0;
    for (i, part) in leading.iter().enumerate() {
        let value = match part.split_once('.') {
            // Days, only in front of h:m:s.
            Some((d, h)) if i == 0 && parts.len() == 3 => integer(d)? * 24.0 + integer(h)?,
            _ => integer(part)?,
        };
        total = total * 60.0 + value;
    }
    let seconds = {
        let (whole, frac) = last.split_once('.').unwrap_or((last, ""));
        let digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty()
            || !digits(whole)
            || !digits(frac)
            || (last.contains('.') && frac.is_empty())
        {
            return None;
        }
        last.parse::<f64>().ok()?
    };
    let total = total * 60.0 + seconds;
    (total.is_finite() && total <= MAX_SECONDS).then_some(total)
}

/// Writes a time the way GGF files do: `h:mm:ss`, `m:ss` or plain seconds (with decimals if
/// needed, never an exponent).
fn write_time(f: &mut fmt::Formatter<'_>, secs: f64) -> fmt::Result {
    if secs.fract() != 0.0 || secs < 60.0 {
        return write!(f, "{secs}");
    }
    let whole = secs as u64;
    let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60);
    if h > 0 {
        write!(f, "{h}:{m:02}:{s:02}")
    } else {
        write!(f, "{m}:{s:02}")
    }
}

impl FromStr for TimeControl {
    type Err = ParseClockError;

    fn from_str(s: &str) -> Result<TimeControl, ParseClockError> {
        let bad = || ParseClockError::Ggf(crate::text::clip(s, MAX_ERROR_TEXT));
        let mut fields = s.split('/');
        let initial = parse_time(fields.next().unwrap_or("")).ok_or_else(bad)?;
        let increment = match fields.next().map(str::trim) {
            None | Some("") => 0.0,
            Some(t) => parse_time(t).ok_or_else(bad)?,
        };
        let grace = match fields.next() {
            None => GGF_GRACE_SECS,
            Some(t) => parse_time(t).ok_or_else(bad)?,
        };
        if fields.next().is_some() {
            return Err(bad());
        }
        Ok(TimeControl {
            initial,
            increment,
            grace,
        })
    }
}

impl fmt::Display for TimeControl {
    /// `15:00`, `5:00/10`, `5:00//2:00` or `5:00/10/2:00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_time(f, self.initial)?;
        let default_grace = self.grace == GGF_GRACE_SECS;
        if self.increment != 0.0 || !default_grace {
            f.write_str("/")?;
            if self.increment != 0.0 {
                write_time(f, self.increment)?;
            }
        }
        if !default_grace {
            f.write_str("/")?;
            write_time(f, self.grace)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_in_every_form() {
        let c = |s: &str| s.parse::<TimeControl>().unwrap();
        assert_eq!(c("15:00"), TimeControl::new(900.0));
        assert_eq!(c("900"), TimeControl::new(900.0));
        assert_eq!(c("1:00:00").initial, 3600.0);
        assert_eq!(c("1.02:00:00").initial, 26.0 * 3600.0);
        assert_eq!(c("90.5").initial, 90.5);
        assert_eq!(c("5:00/10").increment, 10.0);
        let g = c("5:00//2:00");
        assert_eq!((g.initial, g.increment, g.grace), (300.0, 0.0, 120.0));
        assert_eq!(c("0//0").grace, 0.0);
        for s in [
            "15:00",
            "1:00:00",
            "5:00/10",
            "5:00//1:00",
            "90.5/0.5/3",
            "0//0",
            "30",
        ] {
            assert_eq!(c(s).to_string(), s);
            assert_eq!(c(&c(s).to_string()), c(s));
        }
        for bad in [
            "", "x", "1:2:3:4", "-5", "1.5:00", "5:00/x", "1/2/3/4", "1e3", "5.",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn remaining_time_follows_the_ggs_rules() {
        let tc = TimeControl {
            initial: 60.0,
            increment: 2.0,
            grace: 30.0,
        };
        assert_eq!(tc.remaining([]), 60.0);
        assert_eq!(tc.remaining([10.0, 5.0]), 60.0 - 15.0 + 4.0);
        // First time-out: the grace is added once.
        assert_eq!(tc.remaining([70.0]), 60.0 - 70.0 + 30.0 + 2.0);
        // Second time-out: zero, no more increments.
        assert_eq!(tc.remaining([70.0, 100.0, 1.0]), 0.0);
        // Shown to a person: no grace, and below zero once out.
        assert_eq!(tc.shown(&[10.0, 5.0]), 60.0 - 15.0 + 4.0);
        assert_eq!(tc.shown(&[70.0]), 60.0 - 70.0 + 2.0);
    }

    #[test]
    fn flag_falls_past_the_grace_only() {
        let tc = TimeControl {
            initial: 1.0,
            increment: 0.5,
            grace: 0.1,
        };
        assert!(!tc.flag_fallen([0.5, 0.5, 0.5]));
        // 1.0 - 1.05 = -0.05: inside the grace.
        assert!(!tc.flag_fallen([1.05]));
        assert!(tc.flag_fallen([1.11]));
        // Increments arrive after each move: 1.0 - 0.9 + 0.5 - 0.65 = -0.05, inside the grace.
        assert!(!tc.flag_fallen([0.9, 0.65]));
        assert!(tc.flag_fallen([0.9, 0.75]));
        assert!((tc.time_to_flag([0.9]) - 0.7).abs() < 1e-9);
        // The same rule as the remaining time: a second time-out leaves nothing.
        assert_eq!(tc.remaining([0.9, 0.75]), 0.0);
        let start = Instant::now();
        let deadline = tc.deadline(start, &[0.9]);
        let wait = deadline - start;
        assert!((wait.as_secs_f64() - 0.7 - HANG_SLACK_MS as f64 / 1000.0).abs() < 1e-6);
    }

    #[test]
    fn command_line_clocks() {
        let tc = TimeControl::parse_match("60+0.5", 0.1).unwrap();
        assert_eq!((tc.initial, tc.increment, tc.grace), (60.0, 0.5, 0.1));
        assert_eq!(TimeControl::parse_match("2", 0.1).unwrap().increment, 0.0);
        for bad in ["", "0", "-1", "x+1", "1+y", "1+-2", "inf", "5:00"] {
            assert!(TimeControl::parse_match(bad, 0.1).is_err(), "{bad}");
        }
        assert!(TimeControl::parse_match("1", -1.0).is_err());
        assert_eq!(
            TimeControl::parse_match("x", 0.1).unwrap_err().to_string(),
            "bad time control \"x\": expected SECONDS[+INCREMENT] per game and side, e.g. 60+0.5"
        );
    }
}
