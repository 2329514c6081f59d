//! Training positions from `OthData1` label files (`othello_train::learn::data`), split by game.

use std::path::{Path, PathBuf};

use othello_core::eval::pattern::PatternEval;
use othello_core::eval::Evaluator;
use othello_train::learn::data::{parse_header, LabelKind, Record, DATA_HEADER_LEN, RECORD_LEN};

use crate::file::fnv1a64;

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Value for the side to move, centi-discs.
    pub label: i16,
}

impl Position {
    /// Empty squares.
    pub fn empties(&self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }
}

/// The positions of some files, split into training and validation by game.
#[derive(Debug, Default)]
pub struct Dataset {
    /// Training positions.
    pub train: Vec<Position>,
    /// Validation positions (whole games never in `train`).
    pub valid: Vec<Position>,
    /// Records read, complete games only.
    pub records: usize,
    /// Records of training games left out by `train_fraction`.
    pub skipped: usize,
    /// Records dropped as repeats (with `dedupe`): a position and label already read.
    pub repeats: usize,
    /// For each training position, the index in `train` of its sibling ([`NO_SIBLING`]:
    /// none): a deviation and the move the game played from the same position (see
    /// [`load`]). Filled only when pairing is asked for.
    pub sibling: Vec<u32>,
    /// Sibling pairs of validation positions, as indices into `valid`.
    pub valid_pairs: Vec<(u32, u32)>,
}

/// [`Dataset::sibling`] of a position without a sibling.
pub const NO_SIBLING: u32 = u32::MAX;

/// Where one record of a game went: the training set, the validation set, or neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Train(u32),
    Valid(u32),
    Out,
}

/// The file whose games a deviations file branches from: `nd6e16-s4607.dat` branches from
/// `n6e16-s4607.dat` (the label scripts name a deviations file by a `d` after the first letter
/// of its positions file's name, `scripts/xot-d8-round.sh`).
fn positions_file_of(name: &str) -> Option<String> {
    let b = name.as_bytes();
    (b.len() > 2 && b[1] == b'd' && b[0].is_ascii_alphabetic() && b[2] != b'.')
        .then(|| format!("{}{}", &name[..1], &name[2..]))
}

/// Whether `child` (side to move first) is the position after one move of the side to move of
/// `parent`, without a pass.
fn is_child(parent: (u64, u64), child: (u64, u64)) -> bool {
    // A child's side to move is the parent's opponent, less the discs it lost.
    if child.0 & !parent.1 != 0 || child.1 & parent.0 != parent.0 {
        return false;
    }
    let board = othello_core::Board::from_bits_unchecked(parent.0, parent.1);
    let placed = child.1 & !parent.0 & !parent.1;
    placed.count_ones() == 1 && board.moves() & placed != 0 && {
        let c = board.play(othello_core::Square::from_index_masked(
            placed.trailing_zeros(),
        ));
        (c.player(), c.opponent()) == child
    }
}

/// The sibling pairs of one game: `positions` the game's records in a positions file, and
/// `deviations` its records in the deviations file branched from it. A deviation of game
/// position `j` (one of its children the game did not play) is paired with position `j + 1`
/// when that is the played child, also without a pass. Both lists are in game order.
fn sibling_pairs(
    positions: &[((u64, u64), Slot)],
    deviations: &[((u64, u64), Slot)],
) -> Vec<(Slot, Slot)> {
    let mut out = Vec::new();
    let mut j = 0;
    for &(d, d_slot) in deviations {
        // The deviation's parent, from the last one on (a deviation whose parent the
        // positions file lacks is skipped without losing the place).
        let Some(at) = (j..positions.len()).find(|&k| is_child(positions[k].0, d)) else {
            continue;
        };
        j = at;
        if let Some(&(played, p_slot)) = positions.get(j + 1) {
            if played != d && is_child(positions[j].0, played) {
                out.push((d_slot, p_slot));
            }
        }
    }
    out
}

fn mix(x: u64) -> u64 {
    // SplitMix64's finaliser.
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key that decides where a game goes. The same game is labelled in several files (the
/// WTHOR games at depth 8 and at depth 12), so the key is not the file and game index but the
/// game's first position with at most 30 empty squares, up to symmetry (a game that never
/// gets there: its file name and index). Equal games thus land on the same side of the split.
fn split_key(game: &[Position], file_name: &str, index: u32) -> u64 {
    match game.iter().find(|p| p.empties() <= 30) {
        Some(p) => {
            let c = othello_core::Board::from_bits_unchecked(p.player, p.opponent).canonical();
            mix(c.player() ^ mix(c.opponent()))
        }
        None => mix(fnv1a64(file_name.as_bytes(), 0..0) ^ mix(index as u64)),
    }
}

/// A number in `[0, 1)` from a key and a salt.
fn unit(key: u64, salt: u64) -> f64 {
    (mix(key ^ salt) >> 11) as f64 / (1u64 << 53) as f64
}

/// The data files of `dir` (every regular file whose header is `OthData1`), sorted by name.
pub fn data_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let path = e?.path();
        if path.is_file() {
            let mut head = [0u8; DATA_HEADER_LEN];
            use std::io::Read;
            let ok = std::fs::File::open(&path)
                .and_then(|mut f| f.read_exact(&mut head))
                .is_ok();
            if ok && parse_header(&head).is_ok() {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Reads `files`: games whose key is below `valid_fraction` go to validation; of the others,
/// those whose second key is below `train_fraction` go to training. Incomplete last games are
/// skipped; a bad record is an error. Positions with fewer than `min_empties` empty squares
/// are dropped from both sides (after the split, which does not depend on it). With `dedupe`,
/// a record whose position (as stored, side to move first) and label are those of an earlier
/// record of any file is dropped too, after the split: the self-play rounds before session 45
/// replayed their games from seed to seed, so the same labeller labelled the same positions
/// up to ten times (docs/dev/NNUE.md). Different labels of one position are all kept.
///
/// With `pairs`, each deviation (a record of a deviations file, `nd6e16-sS.dat`, labelled by
/// `othello label --deviations 1`: a child of a game position that the game did not play) is
/// paired with the child the game played from the same position, found in the positions file
/// it branches from (`n6e16-sS.dat`, read first, as names sort), game by game
/// ([`Dataset::sibling`], [`Dataset::valid_pairs`]). Pairs across a pass, or with a member
/// dropped or on the other side of the split, are left out.
pub fn load(
    files: &[PathBuf],
    valid_fraction: f64,
    train_fraction: f64,
    min_empties: u32,
    dedupe: bool,
    pairs: bool,
    outcome: f64,
) -> Result<Dataset, String> {
    let mut ds = Dataset::default();
    let mut seen: std::collections::HashSet<(u64, u64, i16)> = std::collections::HashSet::new();
    type Game = Vec<((u64, u64), Slot)>;
    // The games of the positions files a deviations file branches from, by file and game.
    let names: std::collections::HashSet<String> = files
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    let branched: std::collections::HashSet<String> = if pairs {
        names
            .iter()
            .filter_map(|n| positions_file_of(n))
            .filter(|n| names.contains(n))
            .collect()
    } else {
        Default::default()
    };
    let mut stash: std::collections::HashMap<String, std::collections::HashMap<u32, Game>> =
        Default::default();
    for path in files {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        parse_header(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let body = &bytes[DATA_HEADER_LEN..];
        let mut game: Vec<Position> = Vec::new();
        let mut meta: Vec<(othello_core::Color, LabelKind)> = Vec::new();
        let mixes = outcome > 0.0 && positions_file_of(&name).is_none();
        for (k, chunk) in body.chunks_exact(RECORD_LEN).enumerate() {
            let r = Record::from_bytes(chunk.try_into().expect("record length"))
                .map_err(|e| format!("{}: record {k}: {e}", path.display()))?;
            game.push(Position {
                player: r.board.player(),
                opponent: r.board.opponent(),
                label: r.label,
            });
            meta.push((r.side, r.kind));
            if r.last {
                if mixes {
                    mix_outcome(&mut game, &meta, outcome);
                }
                meta.clear();
                ds.records += game.len();
                let key = split_key(&game, &name, r.game);
                let side = if unit(key, 0) < valid_fraction {
                    Slot::Valid(0)
                } else if unit(key, 0x5eed) < train_fraction {
                    Slot::Train(0)
                } else {
                    Slot::Out
                };
                let mut slots = Vec::with_capacity(game.len());
                for p in &game {
                    let fresh = !dedupe || seen.insert((p.player, p.opponent, p.label));
                    ds.repeats += usize::from(!fresh);
                    let slot = if !fresh || p.empties() < min_empties {
                        Slot::Out
                    } else {
                        match side {
                            Slot::Valid(_) => {
                                ds.valid.push(*p);
                                Slot::Valid(ds.valid.len() as u32 - 1)
                            }
                            Slot::Train(_) => {
                                ds.train.push(*p);
                                Slot::Train(ds.train.len() as u32 - 1)
                            }
                            Slot::Out => {
                                ds.skipped += 1;
                                Slot::Out
                            }
                        }
                    };
                    slots.push(slot);
                }
                if pairs {
                    let records: Game = game
                        .iter()
                        .zip(slots)
                        .map(|(p, s)| ((p.player, p.opponent), s))
                        .collect();
                    if branched.contains(&name) {
                        stash
                            .entry(name.clone())
                            .or_default()
                            .insert(r.game, records);
                    } else if let Some(played) = positions_file_of(&name)
                        .and_then(|n| stash.get(&n))
                        .and_then(|games| games.get(&r.game))
                    {
                        for pair in sibling_pairs(played, &records) {
                            match pair {
                                (Slot::Train(a), Slot::Train(b)) => {
                                    ds.sibling.resize(ds.train.len(), NO_SIBLING);
                                    ds.sibling[a as usize] = b;
                                    ds.sibling[b as usize] = a;
                                }
                                (Slot::Valid(a), Slot::Valid(b)) => ds.valid_pairs.push((a, b)),
                                _ => {}
                            }
                        }
                    }
                }
                game.clear();
            }
        }
    }
    if pairs {
        ds.sibling.resize(ds.train.len(), NO_SIBLING);
    }
    Ok(ds)
}

/// Mixes the game's outcome into the search labels of one game of a positions file: each
/// [`LabelKind::Search`] label becomes `(1 − w) · label + w · outcome`, the outcome being the
/// exact value of the game's first exactly labelled position (the game as played to the exact
/// zone, then perfectly), seen from the position's side to move. A game without an exact
/// label keeps its labels. A depth-6 label carries its search's bias; the outcome carries
/// none of it, only the noise of the moves played after the position (as NNUE trainers mix an
/// engine's score with the game's result).
fn mix_outcome(game: &mut [Position], meta: &[(othello_core::Color, LabelKind)], w: f64) {
    let Some(anchor) = meta.iter().position(|m| m.1 == LabelKind::Exact) else {
        return;
    };
    let (side, value) = (meta[anchor].0, game[anchor].label as f64);
    for (p, m) in game.iter_mut().zip(meta) {
        if m.1 == LabelKind::Search {
            let outcome = if m.0 == side { value } else { -value };
            let mixed = (1.0 - w) * p.label as f64 + w * outcome;
            p.label = mixed.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        }
    }
}

/// Makes every label of `ds` a residual: the label minus `base`'s value of the position
/// (centi-discs, saturated to `i16`). Returns `base`'s mean absolute error in discs on the
/// validation positions, the figure the network has to beat.
pub fn subtract_base(ds: &mut Dataset, base: &PatternEval) -> f64 {
    let residual = |p: &mut Position| {
        let board = othello_core::Board::from_bits_unchecked(p.player, p.opponent);
        let r = p.label as i32 - base.evaluate(&board);
        p.label = r.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    };
    ds.train.iter_mut().for_each(residual);
    ds.valid.iter_mut().for_each(residual);
    if ds.valid.is_empty() {
        return f64::NAN;
    }
    let sum: f64 = ds
        .valid
        .iter()
        .map(|p| (p.label as f64 / 100.0).abs())
        .sum();
    sum / ds.valid.len() as f64
}

/// Reads the pattern weights of `nnue-train --base`, with their base id
/// (`othello_core::eval::nnue::file::base_id`).
pub fn read_base(path: &Path) -> Result<(PatternEval, u32), String> {
    let bytes =
        othello_engine::files::read(path, othello_core::eval::pattern::file::MAX_FILE_LEN as u64)
            .map_err(|e| format!("--base {}: {e}", path.display()))?;
    let eval =
        PatternEval::from_bytes(&bytes).map_err(|e| format!("--base {}: {e}", path.display()))?;
    Ok((eval, othello_core::eval::nnue::file::base_id(&bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `records` as the label file `dir/name`; returns its path.
    fn write_records(dir: &Path, name: &str, records: &[Record]) -> PathBuf {
        let mut bytes = othello_train::learn::data::header_bytes(1).to_vec();
        for r in records {
            bytes.extend_from_slice(&r.to_bytes());
        }
        let path = dir.join(name);
        std::fs::write(&path, &bytes).unwrap();
        path
    }

    #[test]
    fn split_is_by_game_and_reproducible() {
        let dir = std::env::temp_dir().join(format!("othello-nnue-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.dat");
        let mut bytes = othello_train::learn::data::header_bytes(1).to_vec();
        let b = othello_core::Board::start();
        for game in 0..200u32 {
            for k in 0..5 {
                let r = Record {
                    board: b,
                    side: othello_core::Color::Black,
                    game,
                    label: (game as i16) * 10,
                    kind: othello_train::learn::data::LabelKind::Search,
                    last: k == 4,
                };
                bytes.extend_from_slice(&r.to_bytes());
            }
        }
        // An incomplete game at the end.
        let first: Vec<u8> = bytes[DATA_HEADER_LEN..DATA_HEADER_LEN + RECORD_LEN].into();
        bytes.extend_from_slice(&first);
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(data_files(&dir).unwrap(), vec![path.clone()]);
        let ds = load(std::slice::from_ref(&path), 0.2, 1.0, 0, false, false, 0.0).unwrap();
        assert_eq!(ds.records, 1000);
        assert_eq!(ds.train.len() + ds.valid.len(), 1000);
        assert!(
            ds.valid.len() > 100 && ds.valid.len() < 350,
            "{}",
            ds.valid.len()
        );
        let games = |v: &[Position]| {
            let mut g: Vec<i16> = v.iter().map(|p| p.label).collect();
            g.dedup();
            g
        };
        for g in games(&ds.valid) {
            assert!(!ds.train.iter().any(|p| p.label == g));
        }
        let again = load(std::slice::from_ref(&path), 0.2, 1.0, 0, false, false, 0.0).unwrap();
        assert_eq!(again.valid, ds.valid);
        // Every record is the start position: with dedupe, one record of each label (game) is
        // left, on the side of the split its game went to.
        let once = load(std::slice::from_ref(&path), 0.2, 1.0, 0, true, false, 0.0).unwrap();
        assert_eq!(once.records, 1000);
        assert_eq!(once.repeats, 800);
        assert_eq!(games(&once.valid), games(&ds.valid));
        assert_eq!(games(&once.train), games(&ds.train));
        assert_eq!(once.train.len() + once.valid.len(), 200);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn dedupe_drops_repeated_positions_with_their_label_only() {
        let dir = std::env::temp_dir().join(format!("othello-nnue-dedupe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let start = othello_core::Board::start();
        let next = start.play("f5".parse().unwrap());
        // Two files: the same game of two positions twice, once more with another label of
        // the second position.
        let record = |board, game, label, last| Record {
            board,
            side: othello_core::Color::Black,
            game,
            label,
            kind: othello_train::learn::data::LabelKind::Search,
            last,
        };
        let write = |name: &str, records: &[Record]| write_records(&dir, name, records);
        let a = write(
            "a.dat",
            &[record(start, 0, 10, false), record(next, 0, 20, true)],
        );
        let b = write(
            "b.dat",
            &[
                record(start, 0, 10, false),
                record(next, 0, 20, true),
                record(start, 1, 10, false),
                record(next, 1, -30, true),
            ],
        );
        let files = [a, b];
        let plain = load(&files, 0.0, 1.0, 0, false, false, 0.0).unwrap();
        assert_eq!((plain.train.len(), plain.repeats), (6, 0));
        let once = load(&files, 0.0, 1.0, 0, true, false, 0.0).unwrap();
        assert_eq!(once.repeats, 3);
        let labels: Vec<i16> = once.train.iter().map(|p| p.label).collect();
        assert_eq!(labels, [10, 20, -30]);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A deviations file is paired with the positions file it branches from: each deviation
    /// with the child its game played from the same position, in both directions; a game
    /// position missing from the positions file costs only the pairs that need it.
    #[test]
    fn deviations_are_paired_with_the_played_children() {
        let dir = std::env::temp_dir().join(format!("othello-nnue-pairs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A game without passes: random moves until the side to move has none.
        let mut rng = othello_core::rng::SplitMix64::new(11);
        let mut game = vec![othello_core::Board::start()];
        loop {
            let b = *game.last().unwrap();
            let moves: Vec<_> = b.legal_moves().collect();
            if moves.is_empty() || game.len() == 40 {
                break;
            }
            game.push(b.play(moves[rng.below(moves.len() as u64) as usize]));
        }
        game.pop_if(|b| b.moves() == 0);
        let record = |board: othello_core::Board, label: i16, last: bool| Record {
            board,
            side: othello_core::Color::Black,
            game: 3,
            label,
            kind: othello_train::learn::data::LabelKind::Search,
            last,
        };
        let write = |name: &str, records: &[Record]| write_records(&dir, name, records);
        // The positions file lacks game position 5; each position has one deviation, the
        // child by its first legal move that the game did not play.
        let missing = 5;
        let kept: Vec<usize> = (0..game.len()).filter(|&j| j != missing).collect();
        let positions: Vec<Record> = kept
            .iter()
            .enumerate()
            .map(|(k, &j)| record(game[j], j as i16, k + 1 == kept.len()))
            .collect();
        let mut deviations = Vec::new();
        let mut expected = Vec::new();
        for j in 0..game.len() {
            let played = game.get(j + 1).copied();
            let Some(child) = game[j]
                .legal_moves()
                .map(|sq| game[j].play(sq))
                .find(|c| Some(*c) != played)
            else {
                continue;
            };
            if played.is_some() && j != missing && j + 1 != missing {
                // Training index: the positions file's records come first.
                let p = kept.iter().position(|&k| k == j + 1).unwrap();
                expected.push((kept.len() + deviations.len(), p));
            }
            deviations.push(record(child, 1000 + j as i16, false));
        }
        deviations.last_mut().unwrap().last = true;
        let files = [
            write("n1-s1.dat", &positions),
            write("nd1-s1.dat", &deviations),
        ];
        assert_eq!(
            positions_file_of("nd1-s1.dat").as_deref(),
            Some("n1-s1.dat")
        );
        assert_eq!(positions_file_of("d8e16.dat"), None);
        let ds = load(&files, 0.0, 1.0, 0, false, true, 0.0).unwrap();
        assert_eq!(ds.train.len(), positions.len() + deviations.len());
        let mut found: Vec<(usize, usize)> = ds
            .sibling
            .iter()
            .enumerate()
            .filter(|&(i, &s)| s != NO_SIBLING && i >= kept.len())
            .map(|(i, &s)| (i, s as usize))
            .collect();
        found.sort_unstable();
        assert!(expected.len() > 20, "{} pairs", expected.len());
        assert_eq!(found, expected);
        for &(d, p) in &found {
            assert_eq!(ds.sibling[p], d as u32, "pairs go both ways");
        }
        // Without pairing, no sibling table.
        assert!(load(&files, 0.0, 1.0, 0, false, false, 0.0)
            .unwrap()
            .sibling
            .is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The outcome mix: a search label moves toward the game's first exact value, seen from
    /// its own side to move; exact labels, and games without one, keep theirs.
    #[test]
    fn the_outcome_is_mixed_into_search_labels_from_each_side() {
        use othello_core::Color::{Black, White};
        let at = |label| Position {
            player: 0,
            opponent: 0,
            label,
        };
        let mut game = vec![at(400), at(-200), at(1000), at(-600)];
        let meta = [
            (Black, LabelKind::Search),
            (White, LabelKind::Search),
            (White, LabelKind::Exact),
            (Black, LabelKind::Exact),
        ];
        mix_outcome(&mut game, &meta, 0.25);
        // White's exact +10 is Black's -10.
        let labels: Vec<i16> = game.iter().map(|p| p.label).collect();
        assert_eq!(labels, [50, 100, 1000, -600]);
        let mut plain = vec![at(400), at(-200)];
        mix_outcome(&mut plain, &meta[..2], 0.25);
        assert_eq!(plain, [at(400), at(-200)]);
    }
}
