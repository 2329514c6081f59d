//! GGF clocks: reading and writing `time[/increment[/grace]]`, and the time a side has left
//! after its recorded moves (the GGS rules, as NBoard applies them).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::{clip, MAX_SECONDS};

/// Grace time GGF assumes when a clock does not give one: two minutes.
pub const DEFAULT_GRACE_SECS: f64 = 120.0;

/// A GGF clock: initial time, increment per move and grace time, all in seconds.
///
/// Text form `time[/increment[/grace]]`, each a time `[[d.]h:]m:s` or plain seconds: `15:00`
/// (15 minutes), `1:00:00` (an hour), `90.5`, `5:00/10` (10 s increment), `5:00//2:00` (no
/// increment, 2 minutes grace). A missing grace is [`DEFAULT_GRACE_SECS`]. When a side's time
/// runs out the first time, the grace is added once; after a second time-out its clock stays
/// at zero (the GGS rule, as NBoard applies it).
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
    /// A clock of `initial` seconds, no increment, the default grace.
    pub fn new(initial: f64) -> TimeControl {
        TimeControl {
            initial,
            increment: 0.0,
            grace: DEFAULT_GRACE_SECS,
        }
    }

    /// Whether the clock is unset: no time and no increment (NBoard writes `TI[0]` for untimed
    /// games).
    pub fn is_untimed(&self) -> bool {
        self.initial == 0.0 && self.increment == 0.0
    }

    /// Seconds left after moves that took `move_seconds` each, with increments and the grace.
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
}

/// Why a clock could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad clock {0:?}: expected time[/increment[/grace]] with times like 15:00 or 90")]
pub struct ParseClockError(pub String);

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
        let bad = || ParseClockError(clip(s));
        let mut fields = s.split('/');
        let initial = parse_time(fields.next().unwrap_or("")).ok_or_else(bad)?;
        let increment = match fields.next().map(str::trim) {
            None | Some("") => 0.0,
            Some(t) => parse_time(t).ok_or_else(bad)?,
        };
        let grace = match fields.next() {
            None => DEFAULT_GRACE_SECS,
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
        let default_grace = self.grace == DEFAULT_GRACE_SECS;
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
    }
}
