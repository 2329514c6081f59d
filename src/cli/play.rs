//! Terminal play: a person against any player, PAIP's `human` strategy with a friendlier loop.
//!
//! PAIP's `othello` (section 18.2) prints the board with `print-board` before every move:
//! column letters, row numbers, both disc counts and their difference, and each side's clock.
//! This loop shows the same, marks the legal moves of the side to move with `+`, and reads one
//! command per line:
//!
//! | input | meaning |
//! | --- | --- |
//! | `f5`, `F5` (also PAIP's `56`) | play that square |
//! | `pass` | pass, accepted only when no move exists |
//! | `undo` | take back your last move and the replies to it |
//! | `hint` | the engine's suggestion, with its evaluation (from the opening book while the game is in it) |
//! | `analyse` | every legal move with its value, best first (as `othello review` judges) |
//! | `resign` | lose the game (64-0, as PAIP scores a resignation) |
//! | `quit` | stop; the unfinished game is saved |
//!
//! A bad input is answered with the reason and the prompt again; nothing changes. With a clock,
//! the person's thinking time runs from the prompt to the move, and a fallen flag (past the
//! grace margin) loses, as for any player. At the end the result is shown and the game is saved
//! as one GGF line; the path is printed. Unless the person quit, the loop then offers `review`:
//! the game judged move by move, printed as the table of `othello review`.
//!
//! The loop is generic over [`BufRead`] and [`Write`], so tests feed it scripted input.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, Instant};

use thiserror::Error;

use othello::arena::referee::utc_date;
use othello::board::{Color, Move, Position};
use othello::clock::TimeControl;
use othello::discs::CentiDiscs;
use othello::eval::EngineEval;
use othello::game::{Game, GameEnd, GameResult, MoveRecord};
use othello::gamedb::GameRecord;
use othello::players::{Player, Turn};
use othello::review::{self, ReviewOptions};
use othello::search::{Limits, Searcher};
use othello::square::Square;

/// One line of the person's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play a square.
    Place(Square),
    /// Pass.
    Pass,
    /// Take back the last own move.
    Undo,
    /// Ask the engine.
    Hint,
    /// Every legal move's value.
    Analyse,
    /// Give up.
    Resign,
    /// Stop playing.
    Quit,
}

/// Why a line is not a command.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "{0:?} is not a move or a command: type a square like f5, or pass, undo, hint, analyse, \
     resign, quit"
)]
pub struct CommandError(pub String);

impl FromStr for Command {
    type Err = CommandError;

    fn from_str(s: &str) -> Result<Command, CommandError> {
        let t = s.trim().to_ascii_lowercase();
        Ok(match t.as_str() {
            "pass" | "pa" => Command::Pass,
            "undo" => Command::Undo,
            "hint" => Command::Hint,
            "analyse" | "analyze" => Command::Analyse,
            "resign" => Command::Resign,
            "quit" | "exit" => Command::Quit,
            _ => match t.parse::<Move>() {
                Ok(Move::Place(sq)) => Command::Place(sq),
                _ => return Err(CommandError(s.trim().to_string())),
            },
        })
    }
}

/// The depth of `analyse` and of the review after the game: less than `othello review`'s
/// default, so that `analyse` answers within a few seconds.
pub const ANALYSIS_DEPTH: u32 = 12;
/// `analyse` and the review after the game solve exactly from this many empties.
pub const ANALYSIS_EXACT_EMPTIES: u32 = 20;

/// How the game is set up.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The person's colour.
    pub human: Color,
    /// The person's name in the record.
    pub human_name: String,
    /// Each side's clock, if timed.
    pub clock: Option<TimeControl>,
    /// Where the game is saved.
    pub ggf_path: PathBuf,
    /// How hard the hint engine thinks.
    pub hint_limits: Limits,
    /// The hint engine's evaluator.
    pub hint_eval: EngineEval,
    /// How `analyse` and the review after the game search (the hint engine's evaluator).
    pub analysis: ReviewOptions,
    /// Seeds the opponent's randomness.
    pub seed: u64,
    /// The position the game starts from.
    pub start: Position,
}

impl Default for PlayOptions {
    fn default() -> PlayOptions {
        PlayOptions {
            human: Color::Black,
            human_name: "human".to_string(),
            clock: None,
            ggf_path: PathBuf::from("othello-game.ggf"),
            hint_limits: Limits {
                move_time: Some(Duration::from_secs(1)),
                ..Limits::default()
            },
            hint_eval: EngineEval::default(),
            analysis: ReviewOptions {
                effort: review::Effort::Depth(ANALYSIS_DEPTH),
                exact_empties: ANALYSIS_EXACT_EMPTIES,
            },
            seed: 1,
            start: Position::start(),
        }
    }
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayEnd {
    /// Played to the end.
    Finished,
    /// The person resigned.
    Resigned,
    /// The person quit; the game is unfinished.
    Quit,
    /// A side's flag fell.
    Time(Color),
    /// The opponent failed (crash, hang, illegal move).
    OpponentFault(String),
}

/// The finished session.
#[derive(Clone, Debug)]
// The binary only needs to know that the game ended; the tests read the outcome.
#[cfg_attr(not(test), allow(dead_code))]
pub struct PlayOutcome {
    /// The game record as saved.
    pub game: Game,
    /// How it ended.
    pub end: PlayEnd,
    /// Where it was saved.
    pub path: PathBuf,
}

/// Why the session could not go on.
#[derive(Debug, Error)]
pub enum PlayError {
    /// Reading or writing the terminal failed.
    #[error("terminal i/o: {0}")]
    Io(#[from] io::Error),
    /// The game could not be saved.
    #[error("cannot save the game to {path}: {source}")]
    Save {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The opponent could not start.
    #[error("the opponent cannot start: {0}")]
    Opponent(#[from] othello::players::PlayerError),
}

/// PAIP's piece letters: `@` Black, `O` White.
fn letter(color: Color) -> char {
    match color {
        Color::Black => '@',
        Color::White => 'O',
    }
}

/// `m:ss` (PAIP's `time-string`), or `-m:ss` below zero.
fn clock_string(seconds: f64) -> String {
    let sign = if seconds < 0.0 { "-" } else { "" };
    let s = seconds.abs().round() as u64;
    format!("{sign}{}:{:02}", s / 60, s % 60)
}

/// Writes the board PAIP-style: coordinates, disc counts and difference, legal moves marked
/// `+`, each side's clock (time left, or time used when untimed), and (if `show_turn`) whose
/// turn it is.
pub fn write_board(
    out: &mut impl Write,
    game: &Game,
    human: Color,
    show_turn: bool,
) -> io::Result<()> {
    let pos = game.position();
    let (black, white) = pos.black_white();
    let (nb, nw) = (black.count_ones(), white.count_ones());
    let legal = if pos.board.is_game_over() {
        0
    } else {
        pos.board.moves()
    };
    writeln!(
        out,
        "\n    a b c d e f g h   [@={nb} O={nw} ({:+})]",
        nb as i32 - nw as i32
    )?;
    for row in 0..8 {
        write!(out, "  {} ", row + 1)?;
        for col in 0..8 {
            let bit = 1u64 << (row * 8 + col);
            let c = if black & bit != 0 {
                '@'
            } else if white & bit != 0 {
                'O'
            } else if legal & bit != 0 {
                '+'
            } else {
                '.'
            };
            write!(out, "{c} ")?;
        }
        if row == 7 {
            let show = |color: Color| -> String {
                let times = game.move_times(color);
                match game.time_control(color) {
                    Some(tc) => clock_string(tc.shown(&times)),
                    None => format!("{} used", clock_string(times.iter().sum())),
                }
            };
            write!(out, "  [@={} O={}]", show(Color::Black), show(Color::White))?;
        }
        writeln!(out)?;
    }
    if show_turn && !pos.board.is_game_over() {
        let who = if pos.side == human { "you" } else { "opponent" };
        let side = match pos.side {
            Color::Black => "Black",
            Color::White => "White",
        };
        writeln!(out, "{} ({side}, {who}) to move", letter(pos.side))?;
    }
    Ok(())
}

/// The legal moves, `c4 d3 e6 f5`.
fn legal_list(pos: &Position) -> String {
    pos.board
        .legal_moves()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The game with the moves from `keep` on removed.
fn truncated(game: &Game, keep: usize) -> Game {
    let mut g = Game::new(game.start());
    g.place = game.place.clone();
    g.date = game.date.clone();
    g.black_name = game.black_name.clone();
    g.white_name = game.white_name.clone();
    g.black_clock = game.black_clock;
    g.white_clock = game.white_clock;
    g.game_type = game.game_type.clone();
    for record in &game.moves()[..keep] {
        g.push(*record).expect("a prefix of a legal game is legal");
    }
    g
}

/// Plays a game between the person (on `input`/`out`) and `opponent`, then saves it.
pub fn play<R: BufRead, W: Write>(
    mut input: R,
    out: &mut W,
    opponent: &mut dyn Player,
    options: &PlayOptions,
) -> Result<PlayOutcome, PlayError> {
    let mut game = Game::new(options.start);
    game.place = "othello play".to_string();
    game.date = utc_date(std::time::SystemTime::now());
    let (human_name, opponent_name) = (options.human_name.clone(), opponent.name().to_string());
    match options.human {
        Color::Black => (game.black_name, game.white_name) = (human_name, opponent_name),
        Color::White => (game.black_name, game.white_name) = (opponent_name, human_name),
    }
    game.black_clock = options.clock;
    game.white_clock = options.clock;
    // Before the first move: a game that cannot be saved where asked is refused now, not
    // found out after it is played.
    othello::files::check_output(&options.ggf_path, &[]).map_err(|e| PlayError::Save {
        path: options.ggf_path.clone(),
        source: e.source,
    })?;
    opponent.new_game(options.seed)?;
    let mut hinter: Option<Searcher<EngineEval>> = None;
    let end = 'game: loop {
        let pos = game.position();
        if pos.board.is_game_over() {
            break PlayEnd::Finished;
        }
        write_board(out, &game, options.human, true)?;
        let side = pos.side;
        let spent = game.move_times(side);
        let started = Instant::now();
        if side != options.human {
            let deadline = options.clock.map(|tc| tc.deadline(started, &spent));
            let turn = Turn {
                game: &game,
                depth: None,
                deadline,
            };
            let choice = match opponent.choose(&turn) {
                Ok(c) => c,
                Err(othello::players::PlayerError::Timeout) => break PlayEnd::Time(side),
                Err(e) => break PlayEnd::OpponentFault(e.to_string()),
            };
            let used = choice
                .elapsed
                .unwrap_or_else(|| started.elapsed())
                .as_secs_f64();
            if options
                .clock
                .is_some_and(|tc| tc.flag_fallen(spent.iter().copied().chain([used])))
            {
                break PlayEnd::Time(side);
            }
            let record = MoveRecord {
                mv: choice.mv,
                eval: choice.eval.filter(|e| e.is_finite()),
                seconds: Some((used * 1000.0).round() / 1000.0),
            };
            if let Err(e) = game.push(record) {
                break PlayEnd::OpponentFault(e.to_string());
            }
            match (choice.mv, choice.eval) {
                (Move::Pass, _) => writeln!(out, "{} passes.", letter(side))?,
                (mv, Some(e)) if e.is_finite() => {
                    writeln!(out, "{} moves to {mv} ({e:+.2} discs).", letter(side))?
                }
                (mv, _) => writeln!(out, "{} moves to {mv}.", letter(side))?,
            }
            continue;
        }
        // The person's turn: read until one line changes the game.
        loop {
            if pos.board.moves() == 0 {
                write!(out, "You have no move and must pass: type pass > ")?;
            } else {
                write!(out, "Your move [{}] > ", legal_list(&pos))?;
            }
            out.flush()?;
            let line = match read_typed_line(&mut input)? {
                TypedLine::End => {
                    writeln!(out)?;
                    break 'game PlayEnd::Quit;
                }
                TypedLine::Bad(why) => {
                    writeln!(out, "  {why}")?;
                    continue;
                }
                TypedLine::Text(line) => line,
            };
            if line.trim().is_empty() {
                continue;
            }
            let command = match line.parse::<Command>() {
                Ok(c) => c,
                Err(e) => {
                    writeln!(out, "  {e}")?;
                    continue;
                }
            };
            let mv = match command {
                Command::Quit => break 'game PlayEnd::Quit,
                Command::Resign => break 'game PlayEnd::Resigned,
                Command::Hint => {
                    if pos.board.moves() == 0 {
                        writeln!(out, "  hint: you must pass")?;
                        continue;
                    }
                    let book_moves = othello::book::default_book().moves(&pos.board);
                    if let Some(best) = book_moves.first() {
                        let others: Vec<String> = book_moves[1..]
                            .iter()
                            .take(3)
                            .map(|m| format!("{} {:+.2}", m.mv, CentiDiscs::from(m.value)))
                            .collect();
                        let also = if others.is_empty() {
                            String::new()
                        } else {
                            format!("; also {}", others.join(", "))
                        };
                        writeln!(
                            out,
                            "  hint: {} ({:+.2} discs, opening book{also})",
                            best.mv,
                            CentiDiscs::from(best.value)
                        )?;
                        continue;
                    }
                    let searcher = hinter.get_or_insert_with(|| new_searcher(options));
                    let r = searcher.search(&pos.board, &options.hint_limits, &mut ());
                    writeln!(
                        out,
                        "  hint: {} ({:+.2} discs, depth {})",
                        r.best,
                        r.value.discs(),
                        r.depth
                    )?;
                    continue;
                }
                Command::Analyse => {
                    let searcher = hinter.get_or_insert_with(|| new_searcher(options));
                    write_analysis(out, searcher, &pos, &options.analysis)?;
                    continue;
                }
                Command::Undo => {
                    let last_own = (0..game.moves().len())
                        .rev()
                        .find(|&i| game.mover(i) == options.human);
                    match last_own {
                        Some(i) => {
                            game = truncated(&game, i);
                            writeln!(out, "  undone: back to your move")?;
                            continue 'game;
                        }
                        None => {
                            writeln!(out, "  nothing to undo")?;
                            continue;
                        }
                    }
                }
                Command::Pass => Move::Pass,
                Command::Place(sq) => Move::Place(sq),
            };
            let used = started.elapsed().as_secs_f64();
            if options
                .clock
                .is_some_and(|tc| tc.flag_fallen(spent.iter().copied().chain([used])))
            {
                break 'game PlayEnd::Time(side);
            }
            let record = MoveRecord {
                mv,
                eval: None,
                seconds: Some((used * 1000.0).round() / 1000.0),
            };
            match game.push(record) {
                Ok(()) => continue 'game,
                Err(e) => {
                    let reason = match (mv, pos.board.moves()) {
                        (Move::Pass, _) => {
                            format!("you cannot pass: you can play {}", legal_list(&pos))
                        }
                        _ => format!("illegal move: {e}"),
                    };
                    writeln!(out, "  {reason}")?;
                }
            }
        }
    };
    // The result, from Black's side, as in the GGF `RE` tag.
    let pos = game.position();
    let forfeit = |loser: Color, end| GameResult::Finished {
        black_margin: if loser == Color::Black { -64.0 } else { 64.0 },
        end,
    };
    game.result = match &end {
        PlayEnd::Finished => {
            let s = pos.board.final_score();
            let m = if pos.side == Color::Black { s } else { -s };
            GameResult::Finished {
                black_margin: m as f64,
                end: GameEnd::Normal,
            }
        }
        PlayEnd::Resigned => forfeit(options.human, GameEnd::Resignation),
        PlayEnd::Time(loser) => forfeit(*loser, GameEnd::Timeout),
        PlayEnd::OpponentFault(_) => forfeit(options.human.opposite(), GameEnd::Resignation),
        PlayEnd::Quit => GameResult::Unfinished,
    };
    write_board(out, &game, options.human, false)?;
    let verdict = match &end {
        PlayEnd::Quit => "Game stopped unfinished.".to_string(),
        PlayEnd::Resigned => "You resigned.".to_string(),
        PlayEnd::Time(c) if *c == options.human => "You lost on time.".to_string(),
        PlayEnd::Time(_) => "Your opponent lost on time.".to_string(),
        PlayEnd::OpponentFault(why) => format!("Your opponent forfeits: {why}."),
        PlayEnd::Finished => {
            let (b, w) = pos.black_white();
            let (nb, nw) = (b.count_ones(), w.count_ones());
            let human_margin = match (&game.result, options.human) {
                (GameResult::Finished { black_margin, .. }, Color::Black) => *black_margin,
                (GameResult::Finished { black_margin, .. }, Color::White) => -*black_margin,
                _ => 0.0,
            };
            let how = match human_margin.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => "You win",
                Some(std::cmp::Ordering::Less) => "You lose",
                _ => "Draw",
            };
            format!("The game is over: @={nb} O={nw}. {how} ({human_margin:+}).")
        }
    };
    writeln!(out, "{verdict}")?;
    if let Err(e) =
        othello::files::write_atomically(&options.ggf_path, format!("{game}\n").as_bytes())
    {
        // The game is not lost: its record goes to the terminal, to copy from there.
        writeln!(
            out,
            "Cannot save the game to {}: {}. The game record (GGF):",
            options.ggf_path.display(),
            e.source
        )?;
        writeln!(out, "{game}")?;
        return Err(PlayError::Save {
            path: options.ggf_path.clone(),
            source: e.source,
        });
    }
    writeln!(out, "Game saved to {}", options.ggf_path.display())?;
    if end != PlayEnd::Quit && !game.moves().is_empty() {
        let searcher = hinter.get_or_insert_with(|| new_searcher(options));
        offer_review(&mut input, out, searcher, &game, &options.analysis)?;
    }
    Ok(PlayOutcome {
        game,
        end,
        path: options.ggf_path.clone(),
    })
}

/// The longest line read from the person (bytes); the rest of a longer line is dropped.
const MAX_TYPED_LINE: usize = 1024;

/// A line the person typed.
enum TypedLine {
    /// The input ended.
    End,
    /// Not a line to act on (not UTF-8, too long): why, to tell the person.
    Bad(String),
    /// A line of text.
    Text(String),
}

/// Reads one line: never more than [`MAX_TYPED_LINE`] bytes of it are kept, and bytes that are
/// not UTF-8 are an answer to give, not an error that ends the game.
fn read_typed_line(input: &mut impl BufRead) -> io::Result<TypedLine> {
    let mut bytes = Vec::new();
    let n = io::Read::take(&mut *input, MAX_TYPED_LINE as u64).read_until(b'\n', &mut bytes)?;
    if n == 0 {
        return Ok(TypedLine::End);
    }
    if bytes.last() != Some(&b'\n') && n == MAX_TYPED_LINE {
        // Drop the rest of the line, however long.
        loop {
            let mut rest = Vec::new();
            let m =
                io::Read::take(&mut *input, MAX_TYPED_LINE as u64).read_until(b'\n', &mut rest)?;
            if m == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
        return Ok(TypedLine::Bad(format!(
            "that line is longer than {MAX_TYPED_LINE} bytes; type a move like f5"
        )));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(TypedLine::Text(text)),
        Err(_) => Ok(TypedLine::Bad(
            "that line is not text (invalid UTF-8); type a move like f5".to_string(),
        )),
    }
}

/// The engine behind `hint`, `analyse` and `review`.
fn new_searcher(options: &PlayOptions) -> Searcher<EngineEval> {
    Searcher::new(options.hint_eval.clone(), 16)
}

/// `analyse`: every legal move of `pos` with its value, best first.
fn write_analysis(
    out: &mut impl Write,
    searcher: &mut Searcher<EngineEval>,
    pos: &Position,
    options: &ReviewOptions,
) -> io::Result<()> {
    let values = review::analyse_position(searcher, &pos.board, options);
    if values.is_empty() {
        return writeln!(out, "  analyse: you must pass");
    }
    writeln!(out, "  analysis ({options}), your view:")?;
    for m in values {
        let judged = match m.value {
            othello::search::Value::Heuristic(_) => format!("depth {}", m.depth + 1),
            _ => "exact".to_string(),
        };
        writeln!(
            out,
            "    {}  {:>7}  {judged}",
            m.square,
            review::value_text(m.value)
        )?;
    }
    Ok(())
}

/// After the game: asks whether to review it and, on `review`, prints the review table.
fn offer_review(
    input: &mut impl BufRead,
    out: &mut impl Write,
    searcher: &mut Searcher<EngineEval>,
    game: &Game,
    options: &ReviewOptions,
) -> io::Result<()> {
    write!(
        out,
        "Type review to review the game ({options}), or press Enter > "
    )?;
    out.flush()?;
    let line = match read_typed_line(input)? {
        TypedLine::Text(line) => line,
        TypedLine::End | TypedLine::Bad(_) => return writeln!(out),
    };
    if !line.trim().eq_ignore_ascii_case("review") {
        return writeln!(out);
    }
    let record = match GameRecord::from_game(game) {
        Ok(record) => record,
        Err(e) => return writeln!(out, "  cannot review this game: {e}"),
    };
    writeln!(out, "Reviewing {} moves...", record.moves.len())?;
    match review::review_game(&record, searcher, options, &mut |_| {}) {
        Ok(r) => {
            writeln!(out)?;
            review::text::write_report(&r, out)
        }
        Err(e) => writeln!(out, "  cannot review this game: {e}"),
    }
}

#[cfg(test)]
mod tests;
