//! Endgame ProbCut: the selective passes that run before an exact solve.
//!
//! Buro's ProbCut (1995), in the multi-level form Edax and Egaroucid use in their endgames: at a
//! null-window node with `n` empties, a shallow midgame search of depth `d` predicts the exact
//! value, with an error whose standard deviation `sigma(n, d)` was measured once (see
//! `examples/probcut_sigma.rs`). If the shallow value clears the window by `t` sigmas, the
//! node is cut as if the deep search had failed the same way. With `t` around 1 to 2.6 the
//! pass is right most of the time and far cheaper than an exact solve.
//!
//! In a solve, the passes prepare the exact pass: each fills the transposition table with best
//! moves for the nodes the exact search will visit, and gives its score as the first guess for
//! the next pass. Their table entries are stored as searches of depth `n + k` (not as solved),
//! `k` the level's index (0 for 73% to 3 for 98%), so the exact pass takes their moves but
//! never their scores, and a pass takes the bounds of a pass of its own level or a safer one
//! only: a 95% pass does not inherit the wrong cuts of the 73% pass before it, and is right
//! about as often as its name says (docs/dev/TRANSITION.md has the measurements).

/// Fewest empties at which a selective pass tries ProbCut.
pub const PROBCUT_MIN_EMPTIES: u32 = 14;

/// Fewest empties at which a solve runs selective passes first.
pub const SELECTIVE_MIN_EMPTIES: u32 = 20;

pub use crate::search::selectivity::Selectivity;

use super::model::Cut;

/// The selective passes' levels, in increasing order (73%, 87%, 95% and 98%: about that share
/// of cuts right, for a normal error).
pub const LEVELS: [Selectivity; 4] = [
    Selectivity::P73,
    Selectivity::P87,
    Selectivity::P95,
    Selectivity::P98,
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

/// Standard deviation, in discs, of (depth-`d` midgame value - exact value) at `n` empties:
/// the model of a Multi-ProbCut file with no `end` lines ([`EndgameModel::legacy`]).
///
/// Measured with the weights of the time on self-play positions at 10 to 25 empties
/// (`examples/probcut_sigma.rs`): about 8.5 discs for the static evaluation, falling by about
/// 0.4 disc per ply of search, with no clear trend in `n` over that range.
pub fn sigma(n: u32, d: u32) -> f32 {
    let _ = n;
    (8.5 - 0.4 * d as f32).max(3.0)
}

/// The endgame ProbCut model: for each number of empties, the shallow search that predicts
/// the exact value and the prediction `exact ≈ a·v_shallow + b ± sigma` (centi-discs, a
/// [`Cut`]). It comes from the `end` lines of the evaluator's Multi-ProbCut file
/// ([`super::model`], fitted by `othello calibrate --endgame`); a file without them gets
/// [`EndgameModel::legacy`].
#[derive(Clone, Debug, PartialEq)]
pub struct EndgameModel {
    /// `cuts[empties]`; `None`: no cut at that many empties.
    cuts: [Option<Entry>; 61],
}

/// A prediction and its margins, centi-discs, at each level (`t·sigma`, truncated to a whole
/// number as the solver always did).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    cut: Cut,
    margins: [f32; Selectivity::LEVELS.len()],
}

impl Entry {
    fn new(cut: Cut, sigma_of: impl Fn(f32) -> f32) -> Entry {
        Entry {
            cut,
            margins: Selectivity::LEVELS.map(|s| sigma_of(s.t()) as i32 as f32),
        }
    }
}

impl EndgameModel {
    /// The model before calibration: the shallow depth [`shallow_depth`], `a = 1`, `b = 0`
    /// and [`sigma`] at every number of empties.
    pub fn legacy() -> EndgameModel {
        let mut cuts = [None; 61];
        for (n, c) in cuts.iter_mut().enumerate() {
            let d = shallow_depth(n as u32);
            let cut = Cut {
                shallow: d,
                a: 1.0,
                b: 0.0,
                sigma: sigma(n as u32, d) * 100.0,
            };
            // The margins exactly as the solver computed them from the formula.
            *c = Some(Entry::new(cut, |t| t * sigma(n as u32, d) * 100.0));
        }
        EndgameModel { cuts }
    }

    /// The model of `fits` (a later fit overrides an earlier one where they overlap; empties
    /// no fit covers get no cut).
    pub fn from_fits(fits: &[EndFit]) -> EndgameModel {
        let mut cuts = [None; 61];
        for f in fits {
            for n in f.empties_min..=f.empties_max.min(60) {
                cuts[n as usize] = Some(Entry::new(f.cut, |t| t * f.cut.sigma));
            }
        }
        EndgameModel { cuts }
    }

    /// The prediction at a node with `n` empties, if there is one.
    pub fn cut(&self, n: u32) -> Option<&Cut> {
        Some(&self.cuts.get(n as usize)?.as_ref()?.cut)
    }

    /// The prediction at a node with `n` empties and its margin at `sel`, centi-discs.
    #[inline(always)]
    pub fn cut_and_margin(&self, n: u32, sel: Selectivity) -> Option<(&Cut, f32)> {
        let e = self.cuts.get(n as usize)?.as_ref()?;
        Some((&e.cut, e.margins[sel.index()]))
    }
}

/// One `end` line of a model file: the prediction for `empties_min..=empties_max` empties.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndFit {
    /// Fewest empties the fit covers.
    pub empties_min: u32,
    /// Most empties the fit covers.
    pub empties_max: u32,
    /// The shallow depth and `exact·100 ≈ a·v_shallow + b ± sigma` (centi-discs).
    pub cut: Cut,
    /// Positions the fit was made from (0 for an extrapolated line).
    pub samples: u32,
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

    #[test]
    fn the_legacy_model_is_the_sigma_formula_and_fits_cover_their_bands() {
        let legacy = EndgameModel::legacy();
        for n in PROBCUT_MIN_EMPTIES..=60 {
            let c = legacy.cut(n).unwrap();
            let d = shallow_depth(n);
            assert_eq!((c.shallow, c.a, c.b), (d, 1.0, 0.0));
            // The margin the solver uses is the one it computed from the formula.
            for sel in LEVELS {
                let old = (sel.t() * sigma(n, d) * 100.0) as i32;
                assert_eq!(
                    legacy.cut_and_margin(n, sel).unwrap().1,
                    old as f32,
                    "{n} {sel}"
                );
            }
        }
        assert!(legacy.cut(61).is_none());
        let cut = Cut {
            shallow: 6,
            a: 0.9,
            b: 20.0,
            sigma: 350.0,
        };
        let m = EndgameModel::from_fits(&[
            EndFit {
                empties_min: 15,
                empties_max: 18,
                cut,
                samples: 10,
            },
            EndFit {
                empties_min: 18,
                empties_max: 70,
                cut: Cut { shallow: 8, ..cut },
                samples: 0,
            },
        ]);
        assert!(m.cut(14).is_none());
        let (_, margin) = m.cut_and_margin(16, Selectivity::P87).unwrap();
        assert_eq!(margin, 525.0); // 1.5 * 350
        assert_eq!(m.cut(15), Some(&cut));
        assert_eq!(m.cut(17), Some(&cut));
        assert_eq!(m.cut(18).unwrap().shallow, 8);
        assert_eq!(m.cut(60).unwrap().shallow, 8);
        assert!(m.cut(61).is_none());
    }
}
