//! The binary's batch commands (`perft`, ...), written against `io::Write` so tests can run them.
//!
//! Each command takes already-parsed arguments; argument parsing lives in the other `cli` files.

use std::io::{self, Write};
use std::time::Instant;

use othello::board::{Board, Move};
use othello::eval::EngineEval;
use othello::obf::ObfEntry;
use othello::perft::perft;
use othello::search::tt::{solve_hash_mb, DEFAULT_HASH_MB};
use othello::search::{Searcher, Value};

/// `othello perft N`: for each depth 1..=N, the leaf count, the time and leaves per second.
pub fn run_perft(board: &Board, max_depth: u32, out: &mut impl Write) -> io::Result<u64> {
    writeln!(
        out,
        "{:>5} {:>20} {:>12} {:>16}",
        "depth", "leaves", "seconds", "leaves/s"
    )?;
    let mut last = 1;
    for depth in 1..=max_depth {
        let start = Instant::now();
        last = perft(board, depth);
        let secs = start.elapsed().as_secs_f64();
        writeln!(
            out,
            "{depth:>5} {last:>20} {secs:>12.3} {:>16.0}",
            rate(last, secs)
        )?;
        out.flush()?;
    }
    Ok(last)
}

/// Whether the system can start the searcher's `--threads` now, beside its table: an error
/// before the work if not (a search would otherwise run on one thread, with a warning).
pub fn check_threads<E: othello::eval::Evaluator>(searcher: &Searcher<E>) -> io::Result<()> {
    searcher.check_threads().map_err(|e| {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            format!("--threads {}: {e}", searcher.threads()),
        )
    })
}

/// Options of `othello solve`.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Solve for win/loss/draw only.
    pub wld: bool,
    /// The transposition table's size.
    pub hash: TableSize,
    /// The evaluator (it orders moves in the solver).
    pub eval: EngineEval,
    /// Search threads per position.
    pub threads: usize,
    /// Moves solved per position (1: the best move only; more: the best `multipv` moves, each
    /// scored exactly).
    pub multipv: usize,
    /// A probable solve instead, at every selectivity level up to this one (`None`: exact).
    pub probable: Option<othello::search::Selectivity>,
    /// Print every iteration of each solve to stderr as it finishes ([`SolveProgress`]).
    pub progress: bool,
}

/// How `solve` sizes its transposition table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSize {
    /// This many MiB for every position (`--hash`).
    Fixed(usize),
    /// By each position's empties ([`solve_hash_mb`]; the default).
    ByEmpties,
}

impl TableSize {
    /// The size in MiB of the table made before the first position.
    pub fn initial_mb(self) -> usize {
        match self {
            TableSize::Fixed(mb) => mb,
            TableSize::ByEmpties => DEFAULT_HASH_MB,
        }
    }

    /// Sizes `searcher`'s table for `board` (by its empties, unless the size is fixed). With
    /// `grow_only`, a larger table is kept (a table carried from one position to the next
    /// may hold entries the next one uses); otherwise the table takes the position's size,
    /// since a cleared table costs the pages its search touches. A table that cannot be had
    /// leaves the old one, with a warning.
    pub fn fit<E: othello::eval::Evaluator>(
        self,
        searcher: &mut Searcher<E>,
        board: &Board,
        grow_only: bool,
    ) {
        let TableSize::ByEmpties = self else {
            return;
        };
        let want = solve_hash_mb(board.empty_count());
        let have = searcher.hash_mb();
        if want > have || (want < have && !grow_only) {
            if let Err(e) = searcher.try_set_hash_mb(want) {
                log::warn!("{e}; solving with a table of {have} MiB");
            }
        }
    }
}

/// The iterations of a solve, one line each as it finishes, as Edax and Egaroucid print them:
/// `depth@selectivity` (`24@73%`: a search to the end with 73% ProbCut; `24@100%`: exact;
/// a midgame depth alone: the presearch), the value (discs, two decimals for a midgame
/// estimate), the best move, nodes, seconds and nodes/s since the solve began, and the
/// principal variation.
pub struct SolveProgress<W: Write> {
    out: W,
    header: bool,
}

impl<W: Write> SolveProgress<W> {
    /// Writes to `out` (stderr for `othello solve`), the header before the first line.
    pub fn new(out: W) -> SolveProgress<W> {
        SolveProgress { out, header: false }
    }
}

impl<W: Write> othello::search::Observer for SolveProgress<W> {
    fn on_iteration(&mut self, r: &othello::search::SearchResult) {
        if !self.header {
            self.header = true;
            let _ = writeln!(
                self.out,
                "{:>9} {:>6} {:>4} {:>14} {:>9} {:>10}  pv",
                "depth", "value", "move", "nodes", "seconds", "nodes/s"
            );
        }
        let (depth, value) = match (r.value, r.selectivity) {
            (Value::Heuristic(_), _) => {
                (format!("{}", r.depth), format!("{:+.2}", r.value.discs()))
            }
            (Value::Probable(v), Some(s)) => (format!("{}@{s}", r.depth), format!("{v:+}")),
            (Value::Probable(v), None) | (Value::Exact(v), _) => {
                (format!("{}@100%", r.depth), format!("{v:+}"))
            }
            (Value::Wld(v), _) => (
                format!("{}@100%", r.depth),
                ["loss", "draw", "win"][(v.signum() + 1) as usize].to_string(),
            ),
        };
        let secs = r.elapsed.as_secs_f64();
        let _ = writeln!(
            self.out,
            "{depth:>9} {value:>6} {:>4} {:>14} {secs:>9.3} {:>10.0}  {}",
            r.best.to_string(),
            r.nodes,
            rate(r.nodes, secs),
            pv_text(&r.pv)
        );
        let _ = self.out.flush();
    }
}

/// Totals of a `solve` run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolveSummary {
    /// Positions solved.
    pub positions: usize,
    /// Positions whose result disagrees with the file.
    pub mismatches: usize,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Seconds spent in all.
    pub seconds: f64,
}

/// `othello solve`: solve every position of an OBF text, compare with its listed scores, and
/// print one line per position (ending with the start of its principal variation, both sides'
/// moves) then the totals. A position matches as [`solve_matches`] says.
pub fn run_solve(
    entries: &[(usize, ObfEntry)],
    options: &SolveOptions,
    out: &mut impl Write,
) -> io::Result<SolveSummary> {
    let mut searcher = Searcher::try_new(options.eval.clone(), options.hash.initial_mb())
        .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
    searcher.set_threads(options.threads);
    check_threads(&searcher)?;
    let mut summary = SolveSummary::default();
    writeln!(
        out,
        "{:>4} {:>3} {:>4} {:>6} {:>5} {:>14} {:>9} {:>10}  pv",
        "#", "emp", "move", "score", "match", "nodes", "seconds", "nodes/s"
    )?;
    for (number, entry) in entries {
        let board = &entry.position.board;
        // The table is carried from one position to the next.
        options.hash.fit(&mut searcher, board, true);
        let (result, lines) = if options.multipv > 1 {
            let mut lines = searcher.solve_multipv(board, options.wld, options.multipv, &mut ());
            let mut first = lines.remove(0);
            first.nodes += lines.iter().map(|l| l.nodes).sum::<u64>();
            first.elapsed += lines.iter().map(|l| l.elapsed).sum();
            (first, lines)
        } else if let Some(level) = options.probable {
            (
                searcher.solve_probable(board, Some(level), &mut ()),
                Vec::new(),
            )
        } else if options.progress {
            let mut progress = SolveProgress::new(io::stderr());
            (
                searcher.solve(board, options.wld, &mut progress),
                Vec::new(),
            )
        } else {
            (searcher.solve(board, options.wld, &mut ()), Vec::new())
        };
        let (score, shown) = match result.value {
            Value::Exact(s) | Value::Probable(s) => (s, format!("{s:+}")),
            Value::Wld(s) => (
                s,
                ["loss", "draw", "win"][(s.signum() + 1) as usize].to_string(),
            ),
            Value::Heuristic(_) => unreachable!("a solve returns a solve's value"),
        };
        let mut matched = if options.probable.is_some() {
            solve_matches(entry, result.best, score, options.wld)
        } else {
            solve_matches_confirmed(&mut searcher, entry, result.best, score, options.wld)
        };
        if !options.wld && entry.best_score().is_some() {
            // Every further line's move must have the score the file gives it.
            let others = lines
                .iter()
                .all(|l| Some(l.value.discs() as i32) == entry.score_of(l.best));
            matched = matched.map(|m| m && others);
        }
        let secs = result.elapsed.as_secs_f64();
        summary.positions += 1;
        summary.mismatches += (matched == Some(false)) as usize;
        summary.nodes += result.nodes;
        summary.seconds += secs;
        let game_over = board.is_game_over();
        writeln!(
            out,
            "{:>4} {:>3} {:>4} {:>6} {:>5} {:>14} {:>9.3} {:>10.0}  {}",
            number,
            entry.position.board.empty_count(),
            if game_over {
                "--".to_string()
            } else {
                result.best.to_string()
            },
            shown,
            match matched {
                None => "-",
                Some(true) => "ok",
                Some(false) => "WRONG",
            },
            result.nodes,
            secs,
            rate(result.nodes, secs),
            if game_over {
                "--".to_string()
            } else {
                pv_text(&result.pv)
            }
        )?;
        if !lines.is_empty() {
            let shown: Vec<String> = lines
                .iter()
                .map(|l| format!("{} {:+}", l.best, l.value.discs()))
                .collect();
            writeln!(out, "     then {}", shown.join(", "))?;
        }
        out.flush()?;
    }
    if let Some(level) = options.probable {
        // A probable solve is expected to be wrong now and then: report, don't fail.
        writeln!(
            out,
            "probable solves at {level}: {} of {} right (score and a best move)",
            summary.positions - summary.mismatches,
            summary.positions
        )?;
        summary.mismatches = 0;
    }
    writeln!(
        out,
        "total: {} positions, {} mismatches, {} nodes, {:.3} s, {:.0} nodes/s",
        summary.positions,
        summary.mismatches,
        summary.nodes,
        summary.seconds,
        rate(summary.nodes, summary.seconds)
    )?;
    Ok(summary)
}

/// Whether a solve agrees with the scores an OBF entry lists (`None` if it lists none): `best`
/// is the solver's move and `score` its value (the disc difference, or for a WLD solve its
/// sign).
///
/// An exact solve matches when its score equals the entry's best score and its move is one of
/// the entry's best moves. A WLD solve matches when the sign agrees and the move is one the
/// entry scores with the same sign.
pub fn solve_matches(entry: &ObfEntry, best: Move, score: i32, wld: bool) -> Option<bool> {
    let listed = entry.best_score()?;
    Some(if wld {
        listed.signum() == score.signum()
            && entry.score_of(best).map(i32::signum) == Some(listed.signum())
    } else {
        score == listed && entry.best_moves().contains(&best)
    })
}

/// [`solve_matches`], and when it says no only because the solve's best move is not listed
/// although its score is the listed best score: whether that move is a best move all the
/// same. A file may list one best move of several (`tests/data/exact-24.obf` gives "a best
/// move and the exact value"), so the position after the move is solved exactly with
/// `searcher`; it must be worth the listed score to the side that played it. A move the file
/// lists with a lower score is a mismatch, as before. (The extra solve shares the table, so
/// the next position's node count may differ by its entries.)
pub fn solve_matches_confirmed(
    searcher: &mut Searcher<EngineEval>,
    entry: &ObfEntry,
    best: Move,
    score: i32,
    wld: bool,
) -> Option<bool> {
    let matched = solve_matches(entry, best, score, wld);
    if matched != Some(false) || wld || entry.best_score() != Some(score) {
        return matched;
    }
    match best {
        Move::Place(sq) if entry.score_of(best).is_none() => {
            let child = entry.position.board.play(sq);
            let reply = searcher.solve(&child, false, &mut ());
            Some(matches!(reply.value, Value::Exact(s) if -s == score))
        }
        _ => matched,
    }
}

/// The most moves of a principal variation the `solve` table shows.
pub const SOLVE_PV_SHOWN: usize = 10;

/// The start of a solve's principal variation for its table: at most [`SOLVE_PV_SHOWN`] moves
/// (`PA` for a pass), then `...` if the line goes on.
fn pv_text(pv: &[Move]) -> String {
    let mut text: Vec<String> = pv
        .iter()
        .take(SOLVE_PV_SHOWN)
        .map(Move::to_string)
        .collect();
    if pv.len() > SOLVE_PV_SHOWN {
        text.push("...".to_string());
    }
    text.join(" ")
}

fn rate(count: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        count as f64 / secs
    } else {
        0.0
    }
}

/// XOT openings searched by `othello bench`, and their depth.
const BENCH_MIDGAME_OPENINGS: usize = 8;
const BENCH_MIDGAME_DEPTH: u32 = 11;
/// FFO positions (#20-#29, 6 to 20 empties) solved exactly by `othello bench`.
static BENCH_ENDGAME: &str = include_str!("../../tests/data/fforum-20-39.obf");
const BENCH_ENDGAME_POSITIONS: usize = 10;

/// `othello bench`: a fixed set of searches, ending with the total node count (the bench
/// signature: it changes only when search behaviour changes) and the speed.
///
/// Each search starts from an empty table, so the signature does not depend on order. The
/// signature also depends on the evaluator `eval` (the engine's default for the published one).
pub fn run_bench(eval: &EngineEval, threads: usize, out: &mut impl Write) -> io::Result<u64> {
    use othello::search::Limits;
    let mut total_nodes = 0u64;
    let start = Instant::now();
    let limits = Limits {
        depth: Some(BENCH_MIDGAME_DEPTH),
        ..Limits::default()
    };
    let mut searcher = Searcher::try_new(eval.clone(), 64)
        .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
    searcher.set_threads(threads);
    check_threads(&searcher)?;
    // The solver's leaf table is sized by the processor's L2 cache, which would make the
    // count differ from machine to machine: the bench pins the largest size while it runs.
    struct Unpin;
    impl Drop for Unpin {
        fn drop(&mut self) {
            othello::search::set_leaf_table_bits(None);
        }
    }
    othello::search::set_leaf_table_bits(Some(16));
    let _unpin = Unpin;
    for line in othello::xot::openings().take(BENCH_MIDGAME_OPENINGS) {
        let pos = othello::xot::position_after(line).expect("bundled XOT lines are legal");
        searcher.clear();
        let r = searcher.search(&pos.board, &limits, &mut ());
        total_nodes += r.nodes;
        writeln!(
            out,
            "midgame {line} depth {:>2} move {} value {:+.2} nodes {:>10} {:.3} s",
            r.depth,
            r.best,
            r.value.discs(),
            r.nodes,
            r.elapsed.as_secs_f64()
        )?;
    }
    let entries = othello::obf::parse_obf(BENCH_ENDGAME).expect("bundled OBF file parses");
    for (i, e) in entries.iter().take(BENCH_ENDGAME_POSITIONS).enumerate() {
        searcher.clear();
        let r = searcher.solve(&e.position.board, false, &mut ());
        total_nodes += r.nodes;
        writeln!(
            out,
            "endgame FFO #{} empties {} move {} value {:+} nodes {:>10} {:.3} s",
            20 + i,
            e.position.board.empty_count(),
            r.best,
            r.value.discs(),
            r.nodes,
            r.elapsed.as_secs_f64()
        )?;
    }
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        out,
        "bench: {total_nodes} nodes {secs:.3} s {:.0} nodes/s (cpu path {}, {} thread{})",
        rate(total_nodes, secs),
        searcher.cpu_path(),
        searcher.threads(),
        if searcher.threads() == 1 { "" } else { "s" }
    )?;
    Ok(total_nodes)
}

/// Options of `othello search`.
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    /// The limits of each search.
    pub limits: othello::search::Limits,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// The evaluator.
    pub eval: EngineEval,
    /// Midgame forward pruning (`None`: full width).
    pub selectivity: Option<othello::search::Selectivity>,
    /// Search threads.
    pub threads: usize,
    /// Lines per position (1: the best move only).
    pub multipv: usize,
    /// Only the summary: no iteration lines.
    pub quiet: bool,
    /// Print the odd/even swing (a measure for tuning the evaluator) after the totals; it is
    /// logged (`RUST_LOG=info`) either way.
    pub swing: bool,
}

/// Prints each completed iteration as one line (unless `quiet`), and keeps the midgame values
/// by depth.
struct IterationPrinter<'w, W: Write> {
    out: &'w mut W,
    quiet: bool,
    error: Option<io::Error>,
    /// `(depth, value in discs)` of each heuristic (midgame) iteration, in order.
    values: Vec<(u32, f64)>,
}

/// Iterations below this depth are left out of the odd/even swing (their values move for other
/// reasons than the parity of the horizon).
const SWING_MIN_DEPTH: u32 = 5;

/// The odd/even swing of one search: `|v(d) − v(d−1)|` for each pair of consecutive midgame
/// depths from [`SWING_MIN_DEPTH`] on, summed, and the number of pairs.
fn swing(values: &[(u32, f64)]) -> (f64, usize) {
    values
        .windows(2)
        .filter(|w| w[1].0 == w[0].0 + 1 && w[0].0 >= SWING_MIN_DEPTH)
        .fold((0.0, 0), |(sum, n), w| {
            (sum + (w[1].1 - w[0].1).abs(), n + 1)
        })
}

impl<W: Write> othello::search::Observer for IterationPrinter<'_, W> {
    fn on_iteration(&mut self, r: &othello::search::SearchResult) {
        if let Value::Heuristic(_) = r.value {
            self.values.push((r.depth, r.value.discs()));
        }
        if self.error.is_some() || self.quiet {
            return;
        }
        let depth = match (r.value, r.selectivity) {
            (Value::Heuristic(_), None) => format!("{}", r.depth),
            (Value::Heuristic(_), Some(s)) => format!("{}@{s}", r.depth),
            (Value::Exact(_), _) => format!("{}@100%", r.depth),
            (Value::Wld(_), _) => format!("{}@100%W", r.depth),
            (Value::Probable(_), Some(s)) => format!("{}@{s}", r.depth),
            (Value::Probable(_), None) => format!("{}@100%", r.depth),
        };
        let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
        let secs = r.elapsed.as_secs_f64();
        let line = writeln!(
            self.out,
            "  depth {depth:>8} value {:+7.2} nodes {:>12} time {secs:>8.3} nps {:>10.0} pv {}",
            r.value.discs(),
            r.nodes,
            rate(r.nodes, secs),
            pv.join(" ")
        );
        if let Err(e) = line.and_then(|_| self.out.flush()) {
            self.error = Some(e);
        }
    }
}

/// `othello search`: search each position with the given limits, printing every iteration
/// (unless `quiet`), then the totals (positions, nodes, seconds, nodes/s) and, when iterations
/// from depth 5 on follow each other, the odd/even swing: the mean of `|v(d) − v(d−1)|` over
/// those pairs (printed with `swing`, logged at info level either way).
pub fn run_search(
    positions: &[(String, Board)],
    options: &SearchOptions,
    out: &mut impl Write,
) -> io::Result<u64> {
    let mut searcher = Searcher::try_new(options.eval.clone(), options.hash_mb)
        .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
    searcher.set_selectivity(options.selectivity);
    searcher.set_threads(options.threads);
    check_threads(&searcher)?;
    let (mut nodes, mut secs) = (0u64, 0f64);
    let (mut swing_sum, mut swing_pairs) = (0.0, 0);
    let (mut value_sum, mut valued) = (0.0, 0);
    for (name, board) in positions {
        writeln!(out, "{name}")?;
        let mut printer = IterationPrinter {
            out,
            quiet: options.quiet,
            error: None,
            values: Vec::new(),
        };
        if options.multipv > 1 {
            let lines =
                searcher.search_multipv(board, &options.limits, options.multipv, &mut printer);
            if let Some(e) = printer.error {
                return Err(e);
            }
            for (i, r) in lines.iter().enumerate() {
                nodes += r.nodes;
                secs += r.elapsed.as_secs_f64();
                writeln!(
                    out,
                    "  line {} {} value {:+.2} depth {}",
                    i + 1,
                    r.best,
                    r.value.discs(),
                    r.depth
                )?;
            }
            continue;
        }
        let r = searcher.search(board, &options.limits, &mut printer);
        if let Some(e) = printer.error {
            return Err(e);
        }
        let (sum, pairs) = swing(&printer.values);
        (swing_sum, swing_pairs) = (swing_sum + sum, swing_pairs + pairs);
        nodes += r.nodes;
        secs += r.elapsed.as_secs_f64();
        (value_sum, valued) = (value_sum + r.value.discs(), valued + 1);
        writeln!(
            out,
            "  best {} value {:+.2} depth {}",
            r.best,
            r.value.discs(),
            r.depth
        )?;
    }
    writeln!(
        out,
        "total: {} positions, {nodes} nodes, {secs:.3} s, {:.0} nodes/s",
        positions.len(),
        rate(nodes, secs)
    )?;
    if valued > 1 {
        writeln!(
            out,
            "mean value: {:+.2} discs over {valued} positions",
            value_sum / valued as f64
        )?;
    }
    if swing_pairs > 0 {
        let line = format!(
            "odd/even swing: mean |v(d) - v(d-1)| {:.2} discs over {swing_pairs} pairs of depths >= {SWING_MIN_DEPTH}",
            swing_sum / swing_pairs as f64
        );
        log::info!("{line}");
        if options.swing {
            writeln!(out, "{line}")?;
        }
    }
    Ok(nodes)
}

#[cfg(test)]
mod tests {
    use super::{swing, Board, EngineEval, Searcher, TableSize};

    /// The position after the first legal move, again and again, down to `empties`.
    fn board_with(empties: u32) -> Board {
        let mut board = Board::start();
        while board.empty_count() > empties {
            assert!(!board.is_game_over(), "the game ended first");
            board = match board.legal_moves().next() {
                Some(m) => board.play(m),
                None => board.pass(),
            };
        }
        assert_eq!(board.empty_count(), empties);
        board
    }

    #[test]
    fn solve_tables_follow_the_empties() {
        let (small, large) = (board_with(20), board_with(28));
        let mut searcher = Searcher::new(EngineEval::default(), TableSize::ByEmpties.initial_mb());
        assert_eq!(searcher.hash_mb(), 64);
        TableSize::ByEmpties.fit(&mut searcher, &large, true);
        assert_eq!(searcher.hash_mb(), 1024);
        // A carried table only grows; a cleared one takes each position's size.
        TableSize::ByEmpties.fit(&mut searcher, &small, true);
        assert_eq!(searcher.hash_mb(), 1024);
        TableSize::ByEmpties.fit(&mut searcher, &small, false);
        assert_eq!(searcher.hash_mb(), 64);
        // A named size is never changed.
        let mut fixed = Searcher::new(EngineEval::default(), TableSize::Fixed(8).initial_mb());
        TableSize::Fixed(8).fit(&mut fixed, &large, false);
        assert_eq!(fixed.hash_mb(), 8);
    }

    #[test]
    fn swing_averages_consecutive_depths_from_five_on() {
        let values = [
            (3, 9.0),
            (4, 0.0),
            (5, 4.0),
            (6, 1.0),
            (7, 5.0),
            (9, 0.0),
            (10, 2.0),
        ];
        // Pairs 5-6 (3), 6-7 (4) and 9-10 (2); 4-5 starts below depth 5, 7-9 skips a depth.
        assert_eq!(swing(&values), (9.0, 3));
        assert_eq!(swing(&[(8, 1.0)]), (0.0, 0));
    }
}
