//! Scores in centi-discs and in discs, and every conversion between the two.
//!
//! The engine counts in **centi-discs**, hundredths of a disc: a heuristic score of `150` means
//! the side to move is expected to finish a disc and a half ahead. Exact results are whole
//! discs (a final disc difference), and people read discs, so scores cross between the two
//! units wherever they are shown (text, protocol lines, JSON, reports), parsed from a user, or
//! stored (book entries and data records keep centi-discs in an `i16`).
//!
//! [`CentiDiscs`] is that crossing. The search itself keeps plain `i32` centi-disc scores in its
//! loops; it meets this type only at its edges ([`crate::search::Value::discs`]).
//!
//! ```
//! use othello_core::discs::CentiDiscs;
//!
//! let score = CentiDiscs::from(-150);
//! assert_eq!(score.to_discs(), -1.5);
//! assert_eq!(format!("{score:+.2}"), "-1.50");
//! assert_eq!(CentiDiscs::from_discs(0.125), CentiDiscs(13));
//! assert_eq!(CentiDiscs::from_whole_discs(4).to_string(), "4");
//! ```

use std::fmt;

/// Centi-discs in one disc.
pub const CENTI_PER_DISC: i64 = 100;

/// The largest score in centi-discs: a 64-0 result.
const MAX_CENTI: i64 = 64 * CENTI_PER_DISC;

/// A score or a difference of scores, in centi-discs (100 = one disc).
///
/// Held in an `i64` so that every score the program keeps (`i16` book values and data labels,
/// `i32` search scores, `i64` sums such as a game's total loss) converts into it without loss.
///
/// Its [`Display`](fmt::Display) writes the value **in discs**, exactly as the `f64`
/// [`CentiDiscs::to_discs`] would be written with the same flags: `{:+.2}` gives `+1.50`,
/// `{}` gives `1.5`, width and alignment apply as usual.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CentiDiscs(pub i64);

impl CentiDiscs {
    /// A whole number of discs (an exact disc difference, a final score).
    pub fn from_whole_discs(discs: i32) -> CentiDiscs {
        CentiDiscs(i64::from(discs) * CENTI_PER_DISC)
    }

    /// A number of discs from a person or a file, rounded to the nearest centi-disc (halves
    /// away from zero); a value beyond the `i64` range saturates, NaN gives 0. Callers check
    /// the range they accept first.
    pub fn from_discs(discs: f64) -> CentiDiscs {
        CentiDiscs((discs * CENTI_PER_DISC as f64).round() as i64)
    }

    /// The value in discs.
    pub fn to_discs(self) -> f64 {
        self.0 as f64 / CENTI_PER_DISC as f64
    }

    /// Whether the value is a whole number of discs.
    pub fn is_whole(self) -> bool {
        self.0 % CENTI_PER_DISC == 0
    }

    /// The whole discs of the value, the fraction dropped (towards zero): exact for a
    /// [whole](CentiDiscs::is_whole) value.
    pub fn whole_discs(self) -> i64 {
        self.0 / CENTI_PER_DISC
    }

    /// The value clamped to a 64-0 result (±6400), as the `i16` that book entries and data
    /// records store.
    pub fn to_i16_clamped(self) -> i16 {
        self.0.clamp(-MAX_CENTI, MAX_CENTI) as i16
    }
}

impl From<i16> for CentiDiscs {
    fn from(centi: i16) -> CentiDiscs {
        CentiDiscs(i64::from(centi))
    }
}

impl From<i32> for CentiDiscs {
    fn from(centi: i32) -> CentiDiscs {
        CentiDiscs(i64::from(centi))
    }
}

impl From<u32> for CentiDiscs {
    fn from(centi: u32) -> CentiDiscs {
        CentiDiscs(i64::from(centi))
    }
}

impl fmt::Display for CentiDiscs {
    /// The value in discs, formatted as an `f64` with the caller's flags.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_discs(), f)
    }
}

/// A fractional amount of centi-discs (a mean shift, a standard deviation) in discs.
pub fn fraction_to_discs(centi: f64) -> f64 {
    centi / CENTI_PER_DISC as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_both_ways() {
        assert_eq!(CentiDiscs::from(250i32).to_discs(), 2.5);
        assert_eq!(CentiDiscs::from(-7i16).to_discs(), -0.07);
        assert_eq!(CentiDiscs::from_whole_discs(-64), CentiDiscs(-6400));
        assert_eq!(CentiDiscs::from_discs(1.5), CentiDiscs(150));
        assert_eq!(CentiDiscs::from_discs(-0.5), CentiDiscs(-50));
        assert_eq!(CentiDiscs::from_discs(0.005), CentiDiscs(1));
        assert_eq!(CentiDiscs::from_discs(f64::NAN), CentiDiscs(0));
        assert_eq!(fraction_to_discs(123.0), 1.23);
    }

    #[test]
    fn whole_discs_truncate_towards_zero() {
        assert!(CentiDiscs(-400).is_whole());
        assert!(!CentiDiscs(125).is_whole());
        assert_eq!(CentiDiscs(-400).whole_discs(), -4);
        assert_eq!(CentiDiscs(-450).whole_discs(), -4);
        assert_eq!(CentiDiscs(199).whole_discs(), 1);
    }

    #[test]
    fn clamps_to_a_64_0_result() {
        assert_eq!(CentiDiscs(7000).to_i16_clamped(), 6400);
        assert_eq!(CentiDiscs(-7000).to_i16_clamped(), -6400);
        assert_eq!(CentiDiscs(-123).to_i16_clamped(), -123);
    }

    #[test]
    fn displays_discs_as_an_f64_would() {
        for centi in [-6400, -150, -7, 0, 1, 99, 100, 250, 6400] {
            let discs = centi as f64 / 100.0;
            let c = CentiDiscs(centi);
            assert_eq!(format!("{c}"), format!("{discs}"));
            assert_eq!(format!("{c:+.2}"), format!("{discs:+.2}"));
            assert_eq!(format!("{c:>+7.2}"), format!("{discs:>+7.2}"));
            assert_eq!(format!("{c:.2}"), format!("{discs:.2}"));
        }
    }
}
