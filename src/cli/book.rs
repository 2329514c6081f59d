//! `othello book`: build, deepen, merge, inspect, export and import opening books (see
//! docs/BOOK.md).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::{Args, Subcommand};
use othello::board::{Board, Position};
use othello::book::build::{self, DeviateSettings, SearchSettings};
use othello::book::file::{self, Journal};
use othello::book::{edax, text, Book, BookChoice, LeafState};
use othello::discs::CentiDiscs;
use othello::eval::EngineEval;
use othello::gamedb;

use super::games::GamesInput;
use super::{fail, CliResult};

/// `othello book` subcommands.
#[derive(Subcommand)]
pub enum BookCommand {
    /// Build a book from game databases: the positions of the first --plies moves that at
    /// least --min-games games reached, each valued by a search of its best move out of the
    /// book, negamaxed. Resumable: run the same command again after an interruption.
    Build {
        /// Game files or directories (WTHOR .wtb, PGN, GGF, transcripts).
        #[arg(required = true, value_name = "FILE|DIR")]
        files: Vec<PathBuf>,
        /// The book to write (created, or resumed if it was built from the same input).
        #[arg(long, value_name = "BOOK")]
        out: PathBuf,
        /// Keep positions up to this many moves from the start.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=60))]
        plies: u32,
        /// Keep positions that at least this many games reached.
        #[arg(long, default_value_t = 3)]
        min_games: u32,
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        input: GamesInput,
    },
    /// Search every pending leaf of a book (new positions from learn, merge or import).
    /// Resumable.
    Evaluate {
        /// The book file.
        book: PathBuf,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Search again, at --depth, the leaves searched shallower (of the positions with at least
    /// --min-games games), then negamax. Resumable.
    Deepen {
        /// The book file.
        book: PathBuf,
        /// Only positions that at least this many games reached.
        #[arg(long, default_value_t = 0)]
        min_games: u32,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Deepen a book along its best lines: follow every move within --tolerance of the best
    /// from the start position, add the positions of those that leave the book (up to
    /// --plies moves from the start), search them, negamax, and repeat. Resumable.
    Deviate {
        /// The book file.
        book: PathBuf,
        /// Follow moves within this many discs of the best (both sides).
        #[arg(long, default_value_t = 2.0)]
        tolerance: f64,
        /// Add positions up to this many moves from the start.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=60))]
        plies: u32,
        /// Stop after adding this many positions (at most 10,000,000).
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(0..=10_000_000))]
        max_new: u64,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Merge books into one: every position of each; for a position in several, the games
    /// are summed and the deepest leaf kept. Leaves made stale stay pending (book evaluate).
    Merge {
        /// The books (othello or Edax format).
        #[arg(required = true)]
        books: Vec<PathBuf>,
        /// The book to write.
        #[arg(long, value_name = "BOOK")]
        out: PathBuf,
    },
    /// Counts, positions per move number, the start position's moves, load time and look-up
    /// cost. BOOK may be `default` (the embedded book).
    Stats {
        /// The book file, or `default`.
        book: String,
    },
    /// The book moves of a position, best first. BOOK may be `default`.
    Show {
        /// The book file, or `default`.
        book: String,
        /// The position after these moves from the start, like f5d6c3 (default: the start).
        #[arg(long, value_parser = super::search::parse_moves)]
        moves: Option<Position>,
        /// A board string instead (64 squares and the side to move).
        #[arg(long, value_parser = super::search::parse_board, conflicts_with = "moves", allow_hyphen_values = true)]
        board: Option<Position>,
    },
    /// Write a book as plain text (one position per line) or as an Edax .dat book.
    Export {
        /// The book file, or `default`.
        book: String,
        /// The file to write (replaced atomically).
        #[arg(long)]
        out: PathBuf,
        /// text or edax (default: edax for a .dat file, text otherwise).
        #[arg(long, value_name = "text|edax")]
        format: Option<String>,
    },
    /// Read a plain-text or Edax .dat book into an othello book (recomputing its values).
    Import {
        /// The text or Edax file (the format is recognised).
        input: PathBuf,
        /// The book to write.
        #[arg(long)]
        out: PathBuf,
    },
}

/// The search settings of the commands that search.
#[derive(Args)]
pub struct SearchArgs {
    /// Leaf search depth (default: the book's, or 12 for a new book).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=60))]
    depth: Option<u8>,
    /// Parallel workers, each with its own search (default: all cores; `--threads` is an old
    /// name of this option).
    #[arg(short = 'j', long = "jobs", alias = "threads", value_name = "JOBS", value_parser = super::search::parse_jobs)]
    threads: Option<usize>,
    /// Transposition table per worker, MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// No progress on stderr.
    #[arg(long)]
    quiet: bool,
}

impl SearchArgs {
    fn settings(&self, book_depth: u8, eval: &EngineEval) -> SearchSettings {
        SearchSettings {
            depth: self
                .depth
                .unwrap_or(if book_depth == 0 { 12 } else { book_depth }),
            threads: self
                .threads
                .unwrap_or_else(othello::learn::selfplay::default_threads)
                .max(1),
            hash_mb: self.hash as usize,
            eval: eval.clone(),
            progress: super::progress::Bar::reporter(!self.quiet, true),
        }
    }
}

/// The default depth of a new book's leaves.
const NEW_BOOK_DEPTH: u8 = 12;

/// Reads a book named on the command line: `default` or a file of either format.
fn read_book(name: &str) -> Result<(Book, f64), super::CliError> {
    let start = Instant::now();
    let book = match name.parse::<BookChoice>() {
        Ok(BookChoice::Default) | Ok(BookChoice::Off) if name == "default" => {
            (*othello::book::default_book()).clone()
        }
        _ => othello::book::load_any(Path::new(name))?,
    };
    Ok((book, start.elapsed().as_secs_f64()))
}

/// Opens a book file for a long job: the book with its journal replayed, and the journal.
fn open_for_work(path: &Path) -> Result<(Book, Journal), super::CliError> {
    let (book, replayed) = file::open(path)?;
    if replayed > 0 {
        log::info!("{}: {replayed} journal entries replayed", path.display());
    }
    let journal = Journal::open(path)?;
    Ok((book, journal))
}

/// Runs an `othello book` subcommand.
pub fn run(command: BookCommand, eval: EngineEval, out: &mut impl Write) -> CliResult {
    let stop = AtomicBool::new(false);
    match command {
        BookCommand::Build {
            files,
            out: path,
            plies,
            min_games,
            search,
            input,
        } => {
            let t0 = Instant::now();
            let inputs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
            othello::files::check_output(&path, &inputs)?;
            // Whatever is at BOOK.journal must be a journal: it is truncated below.
            file::check_journal(&path)?;
            let read = gamedb::read_all_with(&files, &input.options())?;
            let mut games = Vec::new();
            for (_, records) in &read {
                for record in records {
                    let positions = record.replay()?;
                    games.push(positions.iter().map(|p| p.board).collect::<Vec<Board>>());
                }
            }
            let depth = search.depth.unwrap_or(NEW_BOOK_DEPTH);
            let skeleton = build::skeleton(&games, plies, min_games);
            let source = build::fingerprint(&skeleton, plies, min_games, depth);
            writeln!(
                out,
                "{} games read in {:.1} s: {} positions of up to {plies} moves reached by at least {min_games} games",
                games.len(),
                t0.elapsed().as_secs_f64(),
                skeleton.len()
            )?;
            if othello::files::exists(&path)? {
                let (book, _) = file::open(&path)?;
                if book.source != source {
                    return Err(fail(format!(
                        "{} exists and was built from other games or settings; remove it or choose another --out",
                        path.display()
                    )));
                }
                writeln!(out, "resuming {}", path.display())?;
            } else {
                let book = build::book_from_skeleton(&skeleton, depth, source);
                file::save(&book, &path)?;
            }
            let (book, journal) = open_for_work(&path)?;
            evaluate_and_report(book, journal, &search.settings(depth, &eval), out)
        }
        BookCommand::Evaluate { book: path, search } => {
            let (book, journal) = open_for_work(&path)?;
            let settings = search.settings(book.depth, &eval);
            evaluate_and_report(book, journal, &settings, out)
        }
        BookCommand::Deepen {
            book: path,
            min_games,
            search,
        } => {
            let Some(depth) = search.depth else {
                return Err(fail("book deepen: --depth is required"));
            };
            let (mut book, mut journal) = open_for_work(&path)?;
            let marked = build::mark_shallow(&mut book, &mut journal, depth, min_games)?;
            let settings = search.settings(depth, &eval);
            let t = Instant::now();
            let n = build::evaluate(&mut book, &mut journal, &settings, &stop)
                .map_err(|e| workers_error(e, &settings))?;
            book.depth = book.depth.max(depth);
            journal.compact(&mut book)?;
            writeln!(
                out,
                "{marked} leaves to deepen; {n} searched at depth {depth} in {:.1} s",
                t.elapsed().as_secs_f64()
            )?;
            print_summary(&book, out)
        }
        BookCommand::Deviate {
            book: path,
            tolerance,
            plies,
            max_new,
            search,
        } => {
            if !(tolerance.is_finite() && (0.0..=64.0).contains(&tolerance)) {
                return Err(fail("--tolerance: expected discs from 0 to 64"));
            }
            let (mut book, mut journal) = open_for_work(&path)?;
            let settings = search.settings(book.depth, &eval);
            let t = Instant::now();
            let added = build::deviate(
                &mut book,
                &mut journal,
                &settings,
                &DeviateSettings {
                    tolerance: CentiDiscs::from_discs(tolerance).to_i16_clamped(),
                    plies,
                    max_new: max_new as usize,
                },
                &stop,
            )
            .map_err(|e| workers_error(e, &settings))?;
            writeln!(
                out,
                "{added} positions added in {:.1} s",
                t.elapsed().as_secs_f64()
            )?;
            print_summary(&book, out)
        }
        BookCommand::Merge { books, out: path } => {
            let inputs: Vec<&Path> = books.iter().map(PathBuf::as_path).collect();
            othello::files::check_output(&path, &inputs)?;
            let mut merged = Book::new(0);
            for name in &books {
                let other = othello::book::load_any(name)?;
                merged.merge(&other);
            }
            merged.negamax();
            file::save(&merged, &path)?;
            writeln!(out, "{} books merged into {}", books.len(), path.display())?;
            print_summary(&merged, out)
        }
        BookCommand::Stats { book } => {
            let (book, load) = read_book(&book)?;
            stats(&book, load, out)
        }
        BookCommand::Show { book, moves, board } => {
            let (book, _) = read_book(&book)?;
            let position = board.or(moves).unwrap_or(Position::start());
            show(&book, &position.board, out)
        }
        BookCommand::Export {
            book,
            out: path,
            format,
        } => {
            othello::files::check_output(&path, &[Path::new(&book)])?;
            let (book, _) = read_book(&book)?;
            let edax_format = match format.as_deref() {
                Some("edax") => true,
                Some("text") => false,
                Some(other) => {
                    return Err(fail(format!("--format {other}: expected text or edax")))
                }
                None => path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("dat")),
            };
            let bytes = if edax_format {
                edax::to_edax_bytes(&book, edax_date())
            } else {
                text::to_text(&book).into_bytes()
            };
            gamedb::write_atomically(&path, &bytes)?;
            writeln!(
                out,
                "{} positions written to {} ({})",
                book.len(),
                path.display(),
                if edax_format { "Edax" } else { "text" }
            )?;
            Ok(())
        }
        BookCommand::Import { input, out: path } => {
            othello::files::check_output(&path, &[&input])?;
            let bytes = file::read_file(&input)?;
            let book = if edax::looks_like_edax(&bytes) {
                edax::from_edax_bytes(&bytes)?
            } else if bytes.starts_with(file::MAGIC) {
                file::from_bytes(&bytes)?
            } else {
                let text = std::str::from_utf8(&bytes)
                    .map_err(|_| fail(format!("{}: neither a book nor text", input.display())))?;
                text::from_text(text).map_err(|e| fail(format!("{}: {e}", input.display())))?
            };
            file::save(&book, &path)?;
            writeln!(
                out,
                "{} positions imported into {}",
                book.len(),
                path.display()
            )?;
            print_summary(&book, out)
        }
    }
}

/// A book job's error, naming the options to change when its workers (each a thread with a
/// table of `--hash` MiB) could not be had.
fn workers_error(e: file::BookError, settings: &SearchSettings) -> super::CliError {
    match e {
        file::BookError::Workers(m) => fail(format!(
            "--hash {} (MiB per worker) with -j {}: {m}",
            settings.hash_mb, settings.threads
        )),
        e => e.into(),
    }
}

/// Searches the pending leaves of `book`, folds the journal into the book file, and reports.
fn evaluate_and_report(
    mut book: Book,
    mut journal: Journal,
    settings: &SearchSettings,
    out: &mut impl Write,
) -> CliResult {
    let t = Instant::now();
    let n = build::evaluate(&mut book, &mut journal, settings, &AtomicBool::new(false))
        .map_err(|e| workers_error(e, settings))?;
    journal.compact(&mut book)?;
    writeln!(
        out,
        "{n} leaves searched at depth {} in {:.1} s",
        settings.depth,
        t.elapsed().as_secs_f64()
    )?;
    print_summary(&book, out)
}

fn edax_date() -> edax::EdaxDate {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = gamedb::civil_from_days((secs / 86_400) as i64);
    let t = secs % 86_400;
    (
        y as i16,
        m,
        d,
        (t / 3600) as u8,
        (t / 60 % 60) as u8,
        (t % 60) as u8,
    )
}

fn print_summary(book: &Book, out: &mut impl Write) -> CliResult {
    let s = book.stats();
    writeln!(
        out,
        "book: {} positions, {} links, {} pending, {} exact values, leaf depth {}",
        s.positions, s.links, s.pending, s.exact, book.depth
    )?;
    if let Some(root) = book.get(&Board::start()) {
        if root.known {
            writeln!(
                out,
                "start position: {:+.2} discs ({} games)",
                CentiDiscs::from(root.value),
                root.games
            )?;
        }
    }
    Ok(())
}

fn show(book: &Book, board: &Board, out: &mut impl Write) -> CliResult {
    let Some(entry) = book.get(board) else {
        writeln!(out, "not in the book")?;
        return Ok(());
    };
    writeln!(
        out,
        "value {:+.2} discs{}, {} games, leaf {}",
        CentiDiscs::from(entry.value),
        if entry.exact { " (exact)" } else { "" },
        entry.games,
        match entry.leaf {
            LeafState::Pending => "pending",
            LeafState::Closed => "closed",
            LeafState::Move(_) => "searched",
        }
    )?;
    writeln!(out, "move   value  depth  games  kind")?;
    for m in book.moves(board) {
        writeln!(
            out,
            "{:<4} {:>+7.2}  {:>5}  {:>5}  {}",
            m.mv.to_string(),
            CentiDiscs::from(m.value),
            if m.exact {
                "exact".to_string()
            } else {
                m.depth.to_string()
            },
            m.games,
            if m.link { "book" } else { "leaf" }
        )?;
    }
    Ok(())
}

fn stats(book: &Book, load_seconds: f64, out: &mut impl Write) -> CliResult {
    print_summary(book, out)?;
    let s = book.stats();
    let plies: Vec<String> = s
        .by_ply
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(p, n)| format!("{p}:{n}"))
        .collect();
    writeln!(out, "positions by move number: {}", plies.join(" "))?;
    writeln!(out, "start position's moves:")?;
    show(book, &Board::start(), out)?;
    // Look-up cost: every position of the book, in each of two orientations, through the
    // same call the players make.
    let boards: Vec<Board> = book.iter().map(|(b, _)| *b).collect();
    let t = Instant::now();
    let mut found = 0usize;
    for b in &boards {
        found += book.moves(&b.symmetry(3)).len();
    }
    let per = t.elapsed().as_secs_f64() / boards.len().max(1) as f64;
    writeln!(
        out,
        "load {:.1} ms; look-up {:.2} us per position (all {} moves of {} positions)",
        load_seconds * 1000.0,
        per * 1e6,
        found,
        boards.len()
    )?;
    Ok(())
}
