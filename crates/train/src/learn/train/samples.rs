//! Training samples from data files: reading them ([`load_samples`]), and the optional
//! treatments of their labels before a fit. A search label can be blended with its game's
//! result ([`mix_game_results`]) or shifted by the mean offset of the search labels from the
//! results ([`debias_search_labels`]); positions equal under the board's symmetries can be
//! merged into one sample ([`merge_duplicates`]).

use crate::board::Board;
use crate::discs::{fraction_to_discs, CentiDiscs};
use crate::learn::data::{read_records, LabelKind, Record};
use crate::learn::LearnError;

use super::Sample;

/// Samples from data records (label in discs, grouped by game).
pub fn samples_from_records(records: &[Record]) -> Vec<Sample> {
    records
        .iter()
        .map(|r| Sample {
            board: r.board,
            label: CentiDiscs::from(r.label).to_discs(),
            group: r.game,
        })
        .collect()
}

/// Reads data files into samples, printing one line per file to `out`; returns the samples
/// and the files' names. Games of different files become different groups. With `debias`,
/// each file's search labels lose their mean offset from their games' results
/// ([`debias_search_labels`]); with `result_mix > 0`, they are blended with those results
/// ([`mix_game_results`]); with `dedup`, positions equal under the board symmetries are
/// merged ([`merge_duplicates`]).
pub fn load_samples(
    paths: &[std::path::PathBuf],
    dedup: bool,
    result_mix: f64,
    debias: bool,
    out: &mut dyn std::io::Write,
) -> Result<(Vec<Sample>, Vec<String>), LearnError> {
    let mut records = Vec::new();
    let mut names = Vec::new();
    let write = |e| LearnError::io(std::path::Path::new("<stdout>"), e);
    for (k, path) in paths.iter().enumerate() {
        let mut data = read_records(path)?;
        if debias {
            let shift = debias_search_labels(&mut data.records);
            let at = |e: usize| shift.get(e).copied().flatten().unwrap_or(0.0);
            writeln!(
                out,
                "{}: search labels shifted by {:+.2} / {:+.2} / {:+.2} / {:+.2} discs at 20 / 30 / 40 / 50 empties",
                path.display(),
                at(20),
                at(30),
                at(40),
                at(50)
            )
            .map_err(write)?;
        }
        if result_mix > 0.0 {
            mix_game_results(&mut data.records, result_mix);
        }
        writeln!(
            out,
            "{}: {} positions{}",
            path.display(),
            data.records.len(),
            if data.skipped > 0 {
                format!(" ({} from an incomplete last game skipped)", data.skipped)
            } else {
                String::new()
            }
        )
        .map_err(write)?;
        // Games of different files are different groups.
        let offset = (k as u32).wrapping_mul(0x9E37_79B9);
        records.extend(data.records.into_iter().map(|mut r| {
            r.game = r.game.wrapping_add(offset);
            r
        }));
        names.push(
            path.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        );
    }
    let samples = if dedup {
        let samples = merge_duplicates(&records);
        writeln!(
            out,
            "{} positions, {} distinct under symmetry",
            records.len(),
            samples.len()
        )
        .map_err(write)?;
        samples
    } else {
        samples_from_records(&records)
    };
    Ok((samples, names))
}

/// Blends the search labels of recorded games with the games' results: in each game (a run of
/// records with one game index, in the order of play), every [`LabelKind::Search`] record
/// before the game's first exact record gets `(1 − w) · search + w · result`, where the result
/// is that exact record's value (the game as played, finished perfectly) seen from the
/// record's side to move. Games without an exact record are left as they are. Meant for files
/// of game positions (`label --depth`), not of deviations, whose exact records are not on the
/// game's path. The result is unbiased but noisy (the players' later mistakes), the search
/// score biased by the evaluator that made it; a blend trades one against the other.
///
pub fn mix_game_results(records: &mut [Record], w: f64) {
    for_each_search_and_result(records, |r, result| {
        r.label = ((1.0 - w) * r.label as f64 + w * result).round() as i16;
    });
}

/// Calls `f(search record, its game's result in centi-discs)` for every search-labelled record
/// of a recorded game before the game's first exact record (see [`mix_game_results`]).
fn for_each_search_and_result(records: &mut [Record], mut f: impl FnMut(&mut Record, f64)) {
    let mut start = 0;
    while start < records.len() {
        let game = records[start].game;
        let end = start
            + records[start..]
                .iter()
                .position(|r| r.game != game)
                .unwrap_or(records.len() - start);
        let run = &mut records[start..end];
        if let Some(k) = run.iter().position(|r| r.kind == LabelKind::Exact) {
            let (side, result) = (run[k].side, run[k].label as f64);
            for r in run[..k].iter_mut().filter(|r| r.kind == LabelKind::Search) {
                let result = if r.side == side { result } else { -result };
                f(r, result);
            }
        }
        start = end;
    }
}

/// Removes the bias of the search labels of recorded games: for each number of empties, the
/// mean of (search label − game result) over the records that have both (see
/// [`mix_game_results`]) is subtracted from every search label with that many empties. The
/// game results are noisy but unbiased on average; a search is not (measured on depth-8
/// parity-mean labels of the WTHOR games: about +1.1 discs for the side to move at every
/// stage). Returns the shift per number of empties, in discs (`None` where no record had
/// both). Meant for files of game positions, like [`mix_game_results`].
pub fn debias_search_labels(records: &mut [Record]) -> Vec<Option<f64>> {
    let mut sum = [0.0f64; 61];
    let mut count = [0u64; 61];
    for_each_search_and_result(records, |r, result| {
        let e = r.board.empty_count().min(60) as usize;
        sum[e] += r.label as f64 - result;
        count[e] += 1;
    });
    let shift: Vec<Option<f64>> = (0..61)
        .map(|e| (count[e] > 0).then(|| sum[e] / count[e] as f64))
        .collect();
    for r in records.iter_mut() {
        if r.kind == LabelKind::Search {
            if let Some(d) = shift[r.board.empty_count().min(60) as usize] {
                r.label = (r.label as f64 - d).round().clamp(-6400.0, 6400.0) as i16;
            }
        }
    }
    shift
        .into_iter()
        .map(|d| d.map(fraction_to_discs))
        .collect()
}

/// Merges the records of positions equal under the eight board symmetries into one sample each,
/// in order of first appearance, with the group (game) of the first. Its label is the mean of
/// the labels of the best kind present: exact solves before search scores before game results
/// (the same opening reached in many games gets the mean of their results).
pub fn merge_duplicates(records: &[Record]) -> Vec<Sample> {
    use std::collections::hash_map::{Entry, HashMap};
    let rank = |k: LabelKind| match k {
        LabelKind::Exact => 0u8,
        LabelKind::Search => 1,
        LabelKind::GameResult => 2,
    };
    // Per distinct position: the sample, its best label kind, the sum and count of its labels.
    let mut merged: Vec<(Sample, u8, f64, u32)> = Vec::new();
    let mut index: HashMap<Board, usize> = HashMap::with_capacity(records.len());
    for r in records {
        let label = CentiDiscs::from(r.label).to_discs();
        let r_rank = rank(r.kind);
        match index.entry(r.board.canonical()) {
            Entry::Vacant(v) => {
                v.insert(merged.len());
                let sample = Sample {
                    board: r.board,
                    label,
                    group: r.game,
                };
                merged.push((sample, r_rank, label, 1));
            }
            Entry::Occupied(o) => {
                let m = &mut merged[*o.get()];
                if r_rank < m.1 {
                    (m.1, m.2, m.3) = (r_rank, label, 1);
                } else if r_rank == m.1 {
                    m.2 += label;
                    m.3 += 1;
                }
            }
        }
    }
    merged
        .into_iter()
        .map(|(mut s, _, sum, count)| {
            s.label = sum / count as f64;
            s
        })
        .collect()
}
