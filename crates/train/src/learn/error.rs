//! Evaluator error on labelled data (`othello eval-error`): how far each evaluator's static
//! value is from the labels of a self-play data set, by band of empty squares.
//!
//! The positions measured are the trainer's validation games (the same hash split, see
//! [`super::train::is_validation`]), so weights are never scored on positions they were fitted
//! to, and every evaluator is scored on the very same labels.
//!
//! Two errors are reported per evaluator and band:
//! - the **mean absolute error** of its value in discs (centi-discs / 100) against the label;
//! - the same error after the best **least-squares scale** `a · value` is applied, with `a`
//!   fitted on the band itself. An evaluator whose unit is not a disc (the hand-tuned one
//!   counts mobility and stability in its own units) is then compared on its ranking power,
//!   not on its calibration. The fitted `a` is printed too.
//!
//! [`exact_samples`] and [`report_by_empties`] measure the same errors against *exact* scores:
//! OBF files whose moves carry solved scores (`quality-30.obf`, `hard-20.obf`, or positions
//! solved with `othello solve`) give the value of each position and of the position after each
//! scored move, and the errors are reported per number of empty squares. A second table there
//! gives the **sibling error** ([`sibling_error`]): among the children of one position, each
//! child's error less the mean error of its siblings. A shift that moves every child alike
//! (a bias of the evaluator at that number of empties) changes no move choice and is not
//! counted; what remains is the error in how the evaluator *orders* the moves, which is what a
//! search's choice rests on.

use std::io::Write;

use crate::board::Move;
use crate::discs::CentiDiscs;
use crate::eval::{EngineEval, Evaluator};
use crate::obf::ObfEntry;

use super::train::{is_validation, Sample};
use super::LearnError;

/// The error of one evaluator on one band of empties.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BandError {
    /// Positions in the band.
    pub count: usize,
    /// Mean absolute error in discs.
    pub mae: f64,
    /// The least-squares scale `a` minimising `Σ (a·v − label)²`.
    pub scale: f64,
    /// Mean absolute error in discs of `a·v`.
    pub scaled_mae: f64,
    /// Mean signed error in discs (value − label): above 0, the evaluator overrates the side to
    /// move.
    pub bias: f64,
}

/// The error of `eval` on the samples whose empty count is in `min..=max` (NaN fields when
/// there are none).
pub fn band_error(eval: &EngineEval, samples: &[Sample], min: u32, max: u32) -> BandError {
    let pairs: Vec<(f64, f64)> = samples
        .iter()
        .filter(|s| (min..=max).contains(&s.board.empty_count()))
        .map(|s| {
            (
                CentiDiscs::from(eval.evaluate(&s.board)).to_discs(),
                s.label,
            )
        })
        .collect();
    let n = pairs.len();
    let mean_abs = |a: f64| pairs.iter().map(|&(v, l)| (a * v - l).abs()).sum::<f64>() / n as f64;
    let (vv, vl) = pairs
        .iter()
        .fold((0.0, 0.0), |(vv, vl), &(v, l)| (vv + v * v, vl + v * l));
    let scale = if vv > 0.0 { vl / vv } else { 0.0 };
    BandError {
        count: n,
        mae: mean_abs(1.0),
        scale,
        scaled_mae: mean_abs(scale),
        bias: pairs.iter().map(|&(v, l)| v - l).sum::<f64>() / n as f64,
    }
}

/// The bands reported: every 10 empties, plus the 30-40 band the issue asks about.
pub const BANDS: [(u32, u32); 7] = [
    (0, 9),
    (10, 19),
    (20, 29),
    (30, 40),
    (41, 50),
    (51, 60),
    (0, 60),
];

/// `othello eval-error`: the validation games of `samples` (split by `seed` and `fraction`)
/// scored by each named evaluator, one table row per band.
pub fn report(
    evals: &[(String, EngineEval)],
    samples: &[Sample],
    seed: u64,
    fraction: f64,
    out: &mut dyn Write,
) -> Result<(), LearnError> {
    if !(fraction > 0.0 && fraction <= 1.0) {
        return Err(LearnError::Config(
            "validation must be above 0 and at most 1".into(),
        ));
    }
    let held_out: Vec<Sample> = samples
        .iter()
        .filter(|s| is_validation(s.group, seed, fraction))
        .copied()
        .collect();
    let io = |e| LearnError::io(std::path::Path::new("<stdout>"), e);
    writeln!(
        out,
        "{} validation positions of {} (fraction {fraction}, seed {seed})",
        held_out.len(),
        samples.len()
    )
    .map_err(io)?;
    let bands: Vec<(u32, u32, String)> = BANDS
        .iter()
        .map(|&(min, max)| (min, max, format!("{min}-{max}")))
        .collect();
    write_table(evals, &held_out, &bands, out)
}

/// One table row per evaluator and band `(min, max, label)` of empties: positions, MAE, scale,
/// scaled MAE and bias.
fn write_table(
    evals: &[(String, EngineEval)],
    samples: &[Sample],
    bands: &[(u32, u32, String)],
    out: &mut dyn Write,
) -> Result<(), LearnError> {
    let io = |e| LearnError::io(std::path::Path::new("<stdout>"), e);
    writeln!(
        out,
        "{:<24} {:>7} {:>9} {:>9} {:>7} {:>10} {:>7}",
        "evaluator", "empties", "positions", "MAE", "scale", "scaled MAE", "bias"
    )
    .map_err(io)?;
    for (name, eval) in evals {
        for (min, max, label) in bands {
            let e = band_error(eval, samples, *min, *max);
            writeln!(
                out,
                "{:<24} {:>7} {:>9} {:>9.3} {:>7.3} {:>10.3} {:>+7.3}",
                name, label, e.count, e.mae, e.scale, e.scaled_mae, e.bias
            )
            .map_err(io)?;
        }
    }
    Ok(())
}

/// Exactly valued samples from OBF entries with scored moves: each position (valued by its best
/// score, when the entry lists every legal move, or a single move, which is taken to be the best
/// one as in the lines of a solved position) and the position after each scored move (valued by
/// minus the move's score, when its side to move has a legal move). Distinct boards only;
/// `group` is the entry's index.
pub fn exact_samples(entries: &[ObfEntry]) -> Vec<Sample> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut push = |board: crate::board::Board, label: i32, group: usize| {
        if seen.insert(board.canonical()) {
            out.push(Sample {
                board,
                label: label as f64,
                group: group as u32,
            });
        }
    };
    for (k, entry) in entries.iter().enumerate() {
        let board = entry.position.board;
        let listed_all = board
            .legal_moves()
            .all(|sq| entry.score_of(Move::Place(sq)).is_some());
        let valued = (listed_all || entry.moves.len() == 1) && board.moves() != 0;
        if let (true, Some(best)) = (valued, entry.best_score()) {
            push(board, best, k);
        }
        for &(mv, score) in &entry.moves {
            if let Move::Place(sq) = mv {
                let child = board.play(sq);
                if child.moves() != 0 {
                    push(child, -score, k);
                }
            }
        }
    }
    out
}

/// Like [`report`] on every sample (no split), one row per number of empty squares present plus
/// a row for all of them: for scoring evaluators against exact values ([`exact_samples`]).
pub fn report_by_empties(
    evals: &[(String, EngineEval)],
    samples: &[Sample],
    out: &mut dyn Write,
) -> Result<(), LearnError> {
    let mut empties: Vec<u32> = samples.iter().map(|s| s.board.empty_count()).collect();
    empties.sort_unstable();
    empties.dedup();
    let bands: Vec<(u32, u32, String)> = empties
        .iter()
        .map(|&e| (e, e, e.to_string()))
        .chain(std::iter::once((0, 60, "all".to_string())))
        .collect();
    write_table(evals, samples, &bands, out)?;
    let io = |e| LearnError::io(std::path::Path::new("<stdout>"), e);
    writeln!(
        out,
        "\nsibling error: each position's children, their mean error removed (the move order)"
    )
    .map_err(io)?;
    writeln!(
        out,
        "{:<24} {:>7} {:>9} {:>11}",
        "evaluator", "empties", "children", "sibling MAE"
    )
    .map_err(io)?;
    for (name, eval) in evals {
        for (min, max, label) in &bands {
            let (count, mae) = sibling_error(eval, samples, *min, *max);
            if count > 0 {
                writeln!(out, "{name:<24} {label:>7} {count:>9} {mae:>11.3}").map_err(io)?;
            }
        }
    }
    if let Some(((first, base), others)) = evals.split_first().filter(|(_, o)| !o.is_empty()) {
        writeln!(
            out,
            "\nsibling MAE against {first}, paired by position (95% interval; below 0 orders better)"
        )
        .map_err(io)?;
        writeln!(
            out,
            "{:<24} {:>9} {:>10} {:>18}",
            "evaluator", "positions", "difference", "interval"
        )
        .map_err(io)?;
        for (name, eval) in others {
            let (d, half, n) = paired_sibling_difference(base, eval, samples);
            let interval = format!("[{:+.3}, {:+.3}]", d - half, d + half);
            writeln!(out, "{name:<24} {n:>9} {d:>+10.3} {interval:>18}").map_err(io)?;
        }
    }
    Ok(())
}

/// The sibling error of `eval` on the children in `samples` ([`exact_samples`]' layout: a
/// group per position, its children the group's samples with the fewest empty squares) whose
/// empty count is in `min..=max`: the number of children counted (in groups of two or more),
/// and their mean absolute error in discs after each group's mean error is taken off.
pub fn sibling_error(eval: &EngineEval, samples: &[Sample], min: u32, max: u32) -> (usize, f64) {
    let (count, total) = sibling_groups(eval, samples, min, max)
        .iter()
        .fold((0, 0.0), |(c, t), g| (c + g.0, t + g.1));
    (
        count,
        if count > 0 {
            total / count as f64
        } else {
            f64::NAN
        },
    )
}

/// Per group of siblings (in group order, groups of two or more children in the band only):
/// the number of children and the sum of their absolute errors around the group's mean error.
fn sibling_groups(eval: &EngineEval, samples: &[Sample], min: u32, max: u32) -> Vec<(usize, f64)> {
    let mut groups: std::collections::BTreeMap<u32, Vec<&Sample>> = Default::default();
    for s in samples {
        groups.entry(s.group).or_default().push(s);
    }
    let mut out = Vec::new();
    for members in groups.values() {
        let fewest = members.iter().map(|s| s.board.empty_count()).min();
        let errors: Vec<f64> = members
            .iter()
            .filter(|s| Some(s.board.empty_count()) == fewest)
            .filter(|s| (min..=max).contains(&s.board.empty_count()))
            .map(|s| CentiDiscs::from(eval.evaluate(&s.board)).to_discs() - s.label)
            .collect();
        if errors.len() < 2 {
            continue;
        }
        let mean = errors.iter().sum::<f64>() / errors.len() as f64;
        out.push((
            errors.len(),
            errors.iter().map(|e| (e - mean).abs()).sum::<f64>(),
        ));
    }
    out
}

/// The sibling MAE of `b` less that of `a` on the same children, paired by position: the
/// difference in discs, the half-width of its 95% interval, and the number of positions (groups
/// of siblings). The positions are the sampling unit (a ratio estimate with the variance of
/// its per-position residuals), since siblings share their position's errors. Below 0, `b`
/// orders the moves better. NaN fields when fewer than two positions have siblings.
pub fn paired_sibling_difference(
    a: &EngineEval,
    b: &EngineEval,
    samples: &[Sample],
) -> (f64, f64, usize) {
    let ga = sibling_groups(a, samples, 0, 60);
    let gb = sibling_groups(b, samples, 0, 60);
    let n = ga.len();
    let children: usize = ga.iter().map(|g| g.0).sum();
    if n < 2 {
        return (f64::NAN, f64::NAN, n);
    }
    // The same samples give the same groups with the same counts for every evaluator.
    let diffs: Vec<(f64, f64)> = ga
        .iter()
        .zip(&gb)
        .map(|(x, y)| (x.0 as f64, y.1 - x.1))
        .collect();
    let mean = diffs.iter().map(|d| d.1).sum::<f64>() / children as f64;
    let residuals: f64 = diffs.iter().map(|(k, d)| (d - mean * k).powi(2)).sum();
    let variance = residuals * n as f64 / (n as f64 - 1.0) / (children as f64).powi(2);
    (mean, 1.96 * variance.sqrt(), n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::eval::HandEval;

    #[test]
    fn scale_and_errors_are_least_squares_and_absolute() {
        let eval = EngineEval::Hand(HandEval::new());
        let board = Board::start();
        let v = CentiDiscs::from(eval.evaluate(&board)).to_discs();
        let samples: Vec<Sample> = [v + 1.0, v - 3.0]
            .iter()
            .map(|&label| Sample {
                board,
                label,
                group: 0,
            })
            .collect();
        let e = band_error(&eval, &samples, 60, 60);
        assert_eq!(e.count, 2);
        assert!((e.mae - 2.0).abs() < 1e-9, "{e:?}");
        assert!((e.bias - 1.0).abs() < 1e-9, "{e:?}");
        if v != 0.0 {
            assert!((e.scale - (v - 1.0) / v).abs() < 1e-9, "{e:?}");
        }
        let none = band_error(&eval, &samples, 0, 10);
        assert_eq!(none.count, 0);
        assert!(none.mae.is_nan());
    }

    #[test]
    fn the_sibling_error_ignores_a_shift_shared_by_siblings() {
        let eval = EngineEval::Hand(HandEval::new());
        let parent = Board::start();
        let children: Vec<Board> = parent.legal_moves().map(|sq| parent.play(sq)).collect();
        let value = |b: &Board| CentiDiscs::from(eval.evaluate(b)).to_discs();
        let sample = |board: Board, label: f64| Sample {
            board,
            label,
            group: 0,
        };
        // Labels 3 discs below the evaluation for every child: a shared shift, no sibling error;
        // the parent (more empties) is not one of the children.
        let mut samples = vec![sample(parent, 40.0)];
        samples.extend(children.iter().map(|b| sample(*b, value(b) - 3.0)));
        let (count, mae) = sibling_error(&eval, &samples, 0, 60);
        assert_eq!(count, 4);
        assert!(mae.abs() < 1e-9, "{mae}");
        // One child 4 discs further off: errors 3, 3, 3, 7 around their mean 4.
        samples[1].label -= 4.0;
        let (_, mae) = sibling_error(&eval, &samples, 0, 60);
        assert!((mae - 1.5).abs() < 1e-9, "{mae}");
        // Out of the band, nothing is counted.
        assert_eq!(sibling_error(&eval, &samples, 0, 10).0, 0);
    }

    #[test]
    fn the_paired_sibling_difference_is_the_difference_of_the_maes_with_its_interval() {
        let hand = EngineEval::Hand(HandEval::new());
        let zero = EngineEval::pattern();
        let value = |b: &Board| CentiDiscs::from(hand.evaluate(b)).to_discs();
        // Three positions, each with its children labelled by the hand evaluator plus a
        // per-child offset, so that the hand evaluator's sibling errors are those offsets.
        let mut samples = Vec::new();
        let mut position = Board::start();
        for (group, offsets) in [
            [0.0, 2.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 3.0],
            [0.0, 0.0, 0.0, 0.0],
        ]
        .iter()
        .enumerate()
        {
            let children: Vec<Board> = position.legal_moves().map(|sq| position.play(sq)).collect();
            for (child, off) in children.iter().zip(offsets.iter().cycle()) {
                samples.push(Sample {
                    board: *child,
                    label: value(child) + off,
                    group: group as u32,
                });
            }
            position = children[0];
            while position.moves().count_ones() < 4 {
                position = position.play(position.legal_moves().next().unwrap());
            }
        }
        // Against itself: no difference, no width.
        let (d, half, n) = paired_sibling_difference(&hand, &hand, &samples);
        assert_eq!(n, 3);
        assert!(d.abs() < 1e-12 && half.abs() < 1e-12, "{d} {half}");
        // Against another evaluator: exactly the difference of their sibling MAEs.
        let (d, half, _) = paired_sibling_difference(&hand, &zero, &samples);
        let want =
            sibling_error(&zero, &samples, 0, 60).1 - sibling_error(&hand, &samples, 0, 60).1;
        assert!((d - want).abs() < 1e-9, "{d} {want}");
        assert!(half > 0.0, "{half}");
        // And the opposite sign the other way round, with the same width.
        let (back, back_half, _) = paired_sibling_difference(&zero, &hand, &samples);
        assert!((back + d).abs() < 1e-9 && (back_half - half).abs() < 1e-9);
        // One position is too few for an interval.
        let one: Vec<Sample> = samples.iter().filter(|s| s.group == 0).copied().collect();
        assert!(paired_sibling_difference(&hand, &zero, &one).0.is_nan());
    }

    #[test]
    fn exact_samples_value_the_position_and_its_children() {
        let text = "-----------XO----OXXXXX-XXXOOOOOOXOOOOOO-OXOXXO---OOO--------O-- X; A3:+8; \
                    H3:+6; A6:+4; F1:+4; D8:+2; D1:+2; E1:+2; F2:+2; C2:+2; E8:+0; H6:-2; H7:-4; \
                    C8:-4; A7:-8; B8:-10; A2:-12; B7:-12; B2:-12; G7:-18;\n";
        let entries = crate::obf::parse_obf(text).unwrap();
        let samples = exact_samples(&entries);
        assert_eq!(samples.len(), 1 + 19);
        assert_eq!(samples[0].board, entries[0].position.board);
        assert_eq!(samples[0].label, 8.0);
        let a3: crate::square::Square = "a3".parse().unwrap();
        assert_eq!(samples[1].board, entries[0].position.board.play(a3));
        assert_eq!(samples[1].label, -8.0);
        // A partial move list gives no root sample; a single (best) move does.
        let partial = crate::obf::parse_obf(&text.replace(" G7:-18;", "")).unwrap();
        assert_eq!(exact_samples(&partial).len(), 18);
        let best_only = crate::obf::parse_obf(&format!("{}\n", &text[..74])).unwrap();
        assert_eq!(best_only[0].moves.len(), 1);
        let samples = exact_samples(&best_only);
        assert_eq!(samples.len(), 2);
        assert_eq!(samples[0].label, 8.0);
    }
}
