//! Midgame Multi-ProbCut: the model that predicts a deep search from a shallow one.
//!
//! Buro's Multi-ProbCut ("Experiments with Multi-ProbCut and a New High-Quality Evaluation
//! Function for Othello", 1997): the value of a depth-`d` search is well predicted by a
//! shallow search of depth `d'`, through a linear model `v_d ≈ a·v_d' + b` whose error has a
//! standard deviation `σ`. At a null-window node of depth `d`, the midgame search
//! ([`crate::search::midgame`]) runs the shallow search against the window moved by `t·σ` (the
//! [`Selectivity`](crate::search::selectivity::Selectivity) margin); if it clears that window, the
//! node is cut as if the deep search had failed the same way. Several levels of `t` and a
//! model per depth and game phase make it "multi".
//!
//! The model is data, not code: `othello calibrate` (see `crate::learn::calibrate` and
//! `docs/dev/SEARCH.md`) searches a sample of positions to every depth, fits `a`, `b` and `σ` for
//! each depth `d` (with its shallow depth [`shallow_depth`]) and each band of empty squares,
//! and writes a text file that ships next to the evaluator's weights
//! (`weights/pattern-v6.mpc`, embedded in the binary). It must be rebuilt whenever the
//! evaluator is retrained (centring, a uniform shift, keeps it).
//!
//! # File format
//!
//! Text, one fit per line, `#` starts a comment:
//!
//! ```text
//! mpc 1
//! # empties_min empties_max depth shallow a b sigma samples
//! 24 29 8 4 0.987 -3.1 212.4 310
//! ```
//!
//! `a` is unitless, `b` and `sigma` are in centi-discs. Lines may come in any order; a later
//! line for the same empties and depth replaces an earlier one. Depths and empties the file
//! does not cover get no cut.
//!
//! Version 2 (header `mpc 2`) may also hold the model of the exact solver's selective passes
//! (endgame ProbCut, `search/probcut/endgame.rs`), fitted by `othello calibrate --endgame`: lines
//!
//! ```text
//! # end empties_min empties_max shallow a b sigma samples
//! end 20 20 8 1.012 -35.2 392.5 190
//! ```
//!
//! predict the exact score (times 100) of a node with `empties_min..=empties_max` empties as
//! `a·v + b ± sigma` from the value `v` of a full-width midgame search of depth `shallow`
//! (centi-discs). A later `end` line overrides an earlier one where they overlap; once a file
//! has one, empties that no `end` line covers get no endgame cut. A file with none (every
//! `mpc 1` file) gets the formula the solver used before calibration
//! ([`EndgameModel::legacy`]). The writer uses `mpc 1` for a model without `end` lines, so
//! older engines still read it.

use std::fmt;

use thiserror::Error;

use super::endgame::{EndFit, EndgameModel};

/// The endgame ProbCut definitions that the `end` lines and their calibration
/// (`crate::learn::endcal`) use; the solver's ProbCut itself is private.
pub mod end {
    pub use crate::search::endgame::{selective_passes, PassOutcome};
    pub use crate::search::probcut::endgame::{
        shallow_depth, sigma, EndFit, EndgameModel, LEVELS, PROBCUT_MIN_EMPTIES,
    };
}

/// Shallowest node depth at which a cut is tried.
pub const MPC_MIN_DEPTH: u32 = 3;
/// Deepest node depth the model covers.
pub const MPC_MAX_DEPTH: u32 = 40;

/// The shallow search depth used to predict a node of depth `d`: about half of it, with the
/// same parity (an odd depth ends on the side to move's ply, which biases the evaluation).
#[inline(always)]
pub fn shallow_depth(d: u32) -> u32 {
    2 * (d / 4) + (d & 1)
}

/// One fitted prediction: the shallow depth and `v_d ≈ a·v_shallow + b ± sigma`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    /// Depth of the shallow search.
    pub shallow: u32,
    /// Slope.
    pub a: f32,
    /// Intercept, centi-discs.
    pub b: f32,
    /// Standard deviation of the prediction error, centi-discs.
    pub sigma: f32,
}

impl Cut {
    /// The smallest shallow value that predicts `v_d >= beta` with `margin` centi-discs to
    /// spare, or `None` if no value could (the bound lies beyond a 64-0 result).
    #[inline(always)]
    pub fn high_bound(&self, beta: i32, margin: f32) -> Option<i32> {
        let v = ((beta as f32 + margin - self.b) / self.a).ceil();
        (v < crate::eval::MAX_SCORE as f32).then_some(v as i32)
    }

    /// The largest shallow value that predicts `v_d <= alpha` with `margin` to spare.
    #[inline(always)]
    pub fn low_bound(&self, alpha: i32, margin: f32) -> Option<i32> {
        let v = ((alpha as f32 - margin - self.b) / self.a).floor();
        (v > -crate::eval::MAX_SCORE as f32).then_some(v as i32)
    }
}

/// One line of a model file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Fewest empties the fit covers.
    pub empties_min: u32,
    /// Most empties the fit covers.
    pub empties_max: u32,
    /// The node depth `d`.
    pub depth: u32,
    /// The prediction.
    pub cut: Cut,
    /// Positions the fit was made from (0 for an extrapolated line).
    pub samples: u32,
}

/// A Multi-ProbCut model: a [`Cut`] for each number of empties and node depth it covers.
#[derive(Clone, Debug, PartialEq)]
pub struct MpcModel {
    fits: Vec<Fit>,
    /// `table[empties][depth]`.
    table: Vec<[Option<Cut>; MPC_MAX_DEPTH as usize + 1]>,
    /// The `end` lines, in file order.
    end_fits: Vec<EndFit>,
    /// The endgame model they make (the legacy one without them).
    end: EndgameModel,
}

/// A model file that cannot be used.
#[derive(Debug, Error, PartialEq)]
pub enum MpcError {
    /// The first line is not `mpc 1` or `mpc 2`.
    #[error("not a Multi-ProbCut model (the first line must be `mpc 1` or `mpc 2`)")]
    Header,
    /// A line that is not eight numbers in range.
    #[error("line {line}: {reason}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// The model shipped with the default evaluator weights.
pub const DEFAULT_MODEL: &str = include_str!("../../../../../weights/pattern-v6.mpc");

impl Default for MpcModel {
    fn default() -> MpcModel {
        MpcModel::parse(DEFAULT_MODEL).expect("the embedded model parses (checked by a test)")
    }
}

impl MpcModel {
    /// A model from its fits (later fits override earlier ones where they overlap).
    pub fn from_fits(fits: Vec<Fit>) -> MpcModel {
        let mut table = vec![[None; MPC_MAX_DEPTH as usize + 1]; 61];
        for f in &fits {
            for e in f.empties_min..=f.empties_max.min(60) {
                table[e as usize][f.depth as usize] = Some(f.cut);
            }
        }
        MpcModel {
            fits,
            table,
            end_fits: Vec::new(),
            end: EndgameModel::legacy(),
        }
    }

    /// This model with the endgame ProbCut model of `end_fits` (the legacy one if empty),
    /// replacing any it had.
    pub fn with_endgame(mut self, end_fits: Vec<EndFit>) -> MpcModel {
        self.end = if end_fits.is_empty() {
            EndgameModel::legacy()
        } else {
            EndgameModel::from_fits(&end_fits)
        };
        self.end_fits = end_fits;
        self
    }

    /// The `end` lines, in file order (empty for a model without them).
    pub fn end_fits(&self) -> &[EndFit] {
        &self.end_fits
    }

    /// The model of the exact solver's selective passes.
    pub fn endgame(&self) -> &EndgameModel {
        &self.end
    }

    /// A model with no fits: it never cuts.
    pub fn empty() -> MpcModel {
        MpcModel::from_fits(Vec::new())
    }

    /// The fits, in file order.
    pub fn fits(&self) -> &[Fit] {
        &self.fits
    }

    /// The cut to try at a node of `depth` with `empties` empty squares, if the model has one.
    #[inline(always)]
    pub fn cut(&self, empties: u32, depth: u32) -> Option<&Cut> {
        if depth > MPC_MAX_DEPTH {
            return None;
        }
        self.table.get(empties as usize)?[depth as usize].as_ref()
    }

    /// Parses a model file (see the module documentation).
    pub fn parse(text: &str) -> Result<MpcModel, MpcError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
            .filter(|(_, l)| !l.is_empty());
        let version = match lines.next() {
            Some((_, "mpc 1")) => 1,
            Some((_, "mpc 2")) => 2,
            _ => return Err(MpcError::Header),
        };
        let mut fits = Vec::new();
        let mut end_fits = Vec::new();
        for (line, l) in lines {
            let err = |reason: &str| MpcError::Line {
                line,
                reason: reason.to_string(),
            };
            if let Some(rest) = l.strip_prefix("end").filter(|r| r.starts_with([' ', '\t'])) {
                if version < 2 {
                    return Err(err("`end` lines need the header `mpc 2`"));
                }
                end_fits.push(parse_end(rest).map_err(|r| err(&r))?);
                continue;
            }
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() != 8 {
                return Err(err(
                    "expected 8 fields: empties_min empties_max depth shallow a b sigma samples",
                ));
            }
            let int = |i: usize, what: &str, max: u32| -> Result<u32, MpcError> {
                f[i].parse::<u32>()
                    .ok()
                    .filter(|&v| v <= max)
                    .ok_or_else(|| err(&format!("{what} must be an integer 0..={max}")))
            };
            let real = |i: usize, what: &str| -> Result<f32, MpcError> {
                f[i].parse::<f32>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| err(&format!("{what} must be a finite number")))
            };
            let (empties_min, empties_max) =
                (int(0, "empties_min", 60)?, int(1, "empties_max", 60)?);
            let depth = int(2, "depth", MPC_MAX_DEPTH)?;
            let shallow = int(3, "shallow", MPC_MAX_DEPTH)?;
            let (a, b, sigma) = (real(4, "a")?, real(5, "b")?, real(6, "sigma")?);
            let samples = int(7, "samples", u32::MAX)?;
            if empties_min > empties_max {
                return Err(err("empties_min is above empties_max"));
            }
            if depth < MPC_MIN_DEPTH || shallow >= depth {
                return Err(err("need 3 <= depth and shallow < depth"));
            }
            if !(0.2..=5.0).contains(&a) || sigma <= 0.0 || sigma > 6400.0 || b.abs() > 6400.0 {
                return Err(err("a must be in 0.2..=5, sigma in (0, 6400], |b| <= 6400"));
            }
            fits.push(Fit {
                empties_min,
                empties_max,
                depth,
                cut: Cut {
                    shallow,
                    a,
                    b,
                    sigma,
                },
                samples,
            });
        }
        Ok(MpcModel::from_fits(fits).with_endgame(end_fits))
    }
}

/// The fields of an `end` line after `end`, or why they are unusable.
fn parse_end(rest: &str) -> Result<EndFit, String> {
    let f: Vec<&str> = rest.split_whitespace().collect();
    if f.len() != 7 {
        return Err(
            "expected `end` and 7 fields: empties_min empties_max shallow a b sigma samples".into(),
        );
    }
    let int = |i: usize, what: &str, max: u32| -> Result<u32, String> {
        f[i].parse::<u32>()
            .ok()
            .filter(|&v| v <= max)
            .ok_or_else(|| format!("{what} must be an integer 0..={max}"))
    };
    let real = |i: usize, what: &str| -> Result<f32, String> {
        f[i].parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("{what} must be a finite number"))
    };
    let (empties_min, empties_max) = (int(0, "empties_min", 60)?, int(1, "empties_max", 60)?);
    let shallow = int(2, "shallow", MPC_MAX_DEPTH)?;
    let (a, b, sigma) = (real(3, "a")?, real(4, "b")?, real(5, "sigma")?);
    let samples = int(6, "samples", u32::MAX)?;
    if empties_min > empties_max {
        return Err("empties_min is above empties_max".into());
    }
    if shallow >= empties_min {
        return Err("the shallow depth must be below empties_min".into());
    }
    if !(0.2..=5.0).contains(&a) || sigma <= 0.0 || sigma > 6400.0 || b.abs() > 6400.0 {
        return Err("a must be in 0.2..=5, sigma in (0, 6400], |b| <= 6400".into());
    }
    Ok(EndFit {
        empties_min,
        empties_max,
        cut: Cut {
            shallow,
            a,
            b,
            sigma,
        },
        samples,
    })
}

impl fmt::Display for MpcModel {
    /// The model in its file format (parses back to an equal model).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "mpc {}", if self.end_fits.is_empty() { 1 } else { 2 })?;
        writeln!(
            f,
            "# empties_min empties_max depth shallow a b sigma samples"
        )?;
        for x in &self.fits {
            writeln!(
                f,
                "{} {} {} {} {} {} {} {}",
                x.empties_min,
                x.empties_max,
                x.depth,
                x.cut.shallow,
                x.cut.a,
                x.cut.b,
                x.cut.sigma,
                x.samples
            )?;
        }
        if !self.end_fits.is_empty() {
            writeln!(f, "# end empties_min empties_max shallow a b sigma samples")?;
        }
        for x in &self.end_fits {
            writeln!(
                f,
                "end {} {} {} {} {} {} {}",
                x.empties_min,
                x.empties_max,
                x.cut.shallow,
                x.cut.a,
                x.cut.b,
                x.cut.sigma,
                x.samples
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_are_below_the_node_with_its_parity() {
        for d in MPC_MIN_DEPTH..=MPC_MAX_DEPTH {
            let s = shallow_depth(d);
            assert!(s < d && s % 2 == d % 2, "{d}: {s}");
            assert!(2 * s + 2 >= d, "{d}: {s} is too shallow");
        }
    }

    #[test]
    fn the_embedded_model_parses_and_covers_the_midgame() {
        let m = MpcModel::parse(DEFAULT_MODEL).expect("embedded model");
        for e in 20..=50 {
            for d in MPC_MIN_DEPTH..=20 {
                let c = m
                    .cut(e, d)
                    .unwrap_or_else(|| panic!("no cut at {e} empties, depth {d}"));
                assert_eq!(c.shallow, shallow_depth(d));
                assert!(c.sigma > 0.0);
            }
        }
        assert_eq!(MpcModel::parse(&m.to_string()), Ok(m));
    }

    #[test]
    fn bounds_invert_the_linear_model() {
        let c = Cut {
            shallow: 2,
            a: 1.25,
            b: -40.0,
            sigma: 300.0,
        };
        let hi = c.high_bound(500, 330.0).unwrap();
        // The smallest v with a*v + b - margin >= beta.
        assert!(1.25 * hi as f32 - 40.0 - 330.0 >= 500.0);
        assert!(1.25 * (hi - 1) as f32 - 40.0 - 330.0 < 500.0);
        let lo = c.low_bound(500, 330.0).unwrap();
        assert!(1.25 * lo as f32 - 40.0 + 330.0 <= 500.0);
        assert!(1.25 * (lo + 1) as f32 - 40.0 + 330.0 > 500.0);
        // Bounds beyond a 64-0 result cannot be reached by any shallow value.
        let flat = Cut { a: 1.0, ..c };
        assert_eq!(flat.high_bound(6300, 330.0), None);
        assert_eq!(flat.low_bound(-6300, 330.0), None);
    }

    #[test]
    fn bad_files_are_errors_not_panics() {
        assert_eq!(MpcModel::parse(""), Err(MpcError::Header));
        assert_eq!(MpcModel::parse("mpc 3\n"), Err(MpcError::Header));
        for bad in [
            "1 2 3",
            "30 20 8 4 1 0 200 5",
            "20 30 2 0 1 0 200 5",
            "20 30 8 8 1 0 200 5",
            "20 30 8 4 1 0 -1 5",
            "20 30 8 4 0 0 200 5",
            "20 30 8 4 NaN 0 200 5",
            "20 61 8 4 1 0 200 5",
            "20 30 41 4 1 0 200 5",
            "20 30 8 4 1 0 200 x",
        ] {
            let text = format!("mpc 1\n{bad}\n");
            assert!(
                matches!(MpcModel::parse(&text), Err(MpcError::Line { line: 2, .. })),
                "{bad}"
            );
        }
        let m = MpcModel::parse("# a comment\nmpc 1\n20 30 8 4 1 0 200 5 # fit\n").unwrap();
        assert!(m.cut(25, 8).is_some() && m.cut(31, 8).is_none() && m.cut(25, 9).is_none());
    }

    #[test]
    fn files_without_end_lines_keep_the_legacy_endgame_model() {
        let old = MpcModel::parse("mpc 1\n20 30 8 4 1 0 200 5\n").unwrap();
        assert_eq!(old.endgame(), &EndgameModel::legacy());
        assert!(old.end_fits().is_empty());
        // Written back as version 1, which older engines read.
        assert!(old.to_string().starts_with("mpc 1\n"));
        let v2 = MpcModel::parse("mpc 2\n20 30 8 4 1 0 200 5\n").unwrap();
        assert_eq!(v2, old);
        assert_eq!(MpcModel::empty().endgame(), &EndgameModel::legacy());
    }

    #[test]
    fn end_lines_make_the_endgame_model() {
        let text = "mpc 2\n\
                    20 30 8 4 1 0 200 5\n\
                    end 14 19 6 0.95 -20 410.5 300 # measured\n\
                    end 20 20 8 1.02 15 380 150\n\
                    end 21 60 8 1 0 450 0\n\
                    end 19 19 4 1 0 500 3\n";
        let m = MpcModel::parse(text).unwrap();
        assert_eq!(m.end_fits().len(), 4);
        let e = m.endgame();
        assert!(e.cut(13).is_none(), "no line covers 13 empties");
        let c = e.cut(14).unwrap();
        assert_eq!((c.shallow, c.a, c.b, c.sigma), (6, 0.95, -20.0, 410.5));
        assert_eq!(e.cut(18), Some(c));
        // The later line wins where they overlap.
        assert_eq!(e.cut(19).unwrap().shallow, 4);
        assert_eq!(e.cut(20).unwrap().b, 15.0);
        assert_eq!(e.cut(60).unwrap().sigma, 450.0);
        assert_eq!(e.cut(36), e.cut(21));
        // The midgame lines are untouched, and the file round-trips.
        assert!(m.cut(25, 8).is_some());
        assert!(m.to_string().starts_with("mpc 2\n"));
        assert_eq!(MpcModel::parse(&m.to_string()), Ok(m));
    }

    #[test]
    fn bad_end_lines_name_their_line() {
        for bad in [
            "end 14 19 6 1 0 400",
            "end 14 19 6 1 0 400 5 7",
            "end 19 14 6 1 0 400 5",
            "end 14 19 14 1 0 400 5",
            "end 14 61 6 1 0 400 5",
            "end 14 19 6 0.1 0 400 5",
            "end 14 19 6 1 0 0 5",
            "end 14 19 6 1 9000 400 5",
            "end 14 19 6 1 0 inf 5",
            "end 14 19 x 1 0 400 5",
            "end14 19 6 1 0 400 5",
        ] {
            let text = format!("mpc 2\n# comment\n20 30 8 4 1 0 200 5\n{bad}\n");
            assert!(
                matches!(MpcModel::parse(&text), Err(MpcError::Line { line: 4, .. })),
                "{bad}: {:?}",
                MpcModel::parse(&text)
            );
        }
        // `end` lines are version 2.
        let err = MpcModel::parse("mpc 1\nend 14 19 6 1 0 400 5\n").unwrap_err();
        assert!(err.to_string().contains("line 2") && err.to_string().contains("mpc 2"));
        assert_eq!(MpcModel::parse("mpc 3\n"), Err(MpcError::Header));
    }
}
