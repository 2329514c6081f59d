//! Error against exact values: OBF files whose moves carry solved scores.
//!
//! The samples are `othello_train::learn::error::exact_samples`' (the same as `othello eval-error
//! --exact`): each position whose every legal move is scored (value: the best score), and the
//! position after each scored move (value: minus its score), duplicates under the symmetries
//! removed.

use othello_train::learn::train::Sample;

/// `(count, mean absolute error)` of each band or number of empties.
pub type Errors = Vec<(usize, f64)>;

/// The empties bands of the report.
pub const BANDS: [(u32, u32, &str); 5] = [
    (0, 24, "<=24"),
    (25, 27, "25-27"),
    (28, 32, "28-32"),
    (33, 64, "33+"),
    (0, 64, "all"),
];

/// Reads the samples of OBF files.
pub fn obf_samples(paths: &[std::path::PathBuf]) -> Result<Vec<Sample>, String> {
    let mut entries = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let parsed =
            othello_core::obf::parse_obf(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        entries.extend(parsed);
    }
    Ok(othello_train::learn::error::exact_samples(&entries))
}

/// `(count, MAE)` of `f` (a value in discs) on the samples of each band of [`BANDS`], and per
/// number of empties (`by_empties[e]`).
pub fn mae_by_band(samples: &[Sample], f: impl Fn(u64, u64) -> f64) -> (Errors, Errors) {
    let mut bands = vec![(0usize, 0.0f64); BANDS.len()];
    let mut by_empties = vec![(0usize, 0.0f64); 65];
    for s in samples {
        let e = s.board.empty_count();
        let err = (f(s.board.player(), s.board.opponent()) - s.label).abs();
        for (k, &(lo, hi, _)) in BANDS.iter().enumerate() {
            if (lo..=hi).contains(&e) {
                bands[k].0 += 1;
                bands[k].1 += err;
            }
        }
        by_empties[e as usize].0 += 1;
        by_empties[e as usize].1 += err;
    }
    let avg = |v: Vec<(usize, f64)>| {
        v.into_iter()
            .map(|(c, s)| (c, if c > 0 { s / c as f64 } else { f64::NAN }))
            .collect()
    };
    (avg(bands), avg(by_empties))
}
