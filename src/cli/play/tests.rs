//! The terminal play loop fed scripted input: commands parse, a whole game is played and saved
//! through the referee, undo, redo, help, quit and resign behave as documented.

use othello::board::{Board, Color, Move};
use othello::game::{Game, GameResult};
use othello::players::paip::{maximizer, PaipEval};
use othello::players::{Player, PlayerSpec};
use othello::review::{Effort, ReviewOptions};
use othello::Square;

use super::assist::AssistOptions;
use super::command::Command;
use super::{play, PlayEnd, PlayOptions};

fn build(s: &str) -> Box<dyn Player> {
    s.parse::<PlayerSpec>()
        .unwrap_or_else(|e| panic!("{s}: {e}"))
        .build()
        .unwrap()
}

#[test]
fn commands_parse() {
    assert_eq!("F5".parse(), Ok(Command::Place(Square::F5)));
    assert_eq!(" f5 ".parse(), Ok(Command::Place(Square::F5)));
    assert_eq!("56".parse(), Ok(Command::Place(Square::F5)));
    assert_eq!("PASS".parse(), Ok(Command::Pass));
    assert_eq!("Undo".parse(), Ok(Command::Undo));
    assert_eq!("hint".parse(), Ok(Command::Hint));
    assert_eq!("Analyse".parse(), Ok(Command::Analyse));
    assert_eq!("analyze".parse(), Ok(Command::Analyse));
    assert_eq!("resign".parse(), Ok(Command::Resign));
    assert_eq!("quit".parse(), Ok(Command::Quit));
    assert_eq!("REDO".parse(), Ok(Command::Redo));
    assert_eq!("help".parse(), Ok(Command::Help));
    for bad in ["f9", "hello", "i1", "f55", "p"] {
        assert!(bad.parse::<Command>().is_err(), "{bad}");
    }
}

fn options(name: &str) -> PlayOptions {
    PlayOptions {
        ggf_path: std::env::temp_dir()
            .join(format!("othello-play-{}-{name}.ggf", std::process::id())),
        assist: AssistOptions {
            hint_time: None,
            hint_depth: Some(3),
            eval: Default::default(),
            analysis: ReviewOptions {
                effort: Effort::Depth(3),
                exact_empties: 10,
                book: None,
            },
        },
        ..PlayOptions::default()
    }
}

/// The whole game the person plays by always taking the first legal move (square order)
/// against `maximizer:count`: the script and the moves expected in the record.
fn scripted_game() -> (Vec<String>, Vec<Move>) {
    let mut board = Board::start();
    let mut black = true;
    let (mut script, mut moves) = (Vec::new(), Vec::new());
    while !board.is_game_over() {
        let mv = if black {
            let mv = board.legal_moves().next().map_or(Move::Pass, Move::Place);
            script.push(match mv {
                Move::Pass => "pass".to_string(),
                // Alternate cases: input is case-insensitive.
                Move::Place(sq) if moves.len() % 4 == 0 => sq.to_string().to_uppercase(),
                Move::Place(sq) => sq.to_string(),
            });
            mv
        } else {
            maximizer(&board, PaipEval::Count).map_or(Move::Pass, Move::Place)
        };
        board = board.try_play_move(mv).unwrap();
        moves.push(mv);
        black = !black;
    }
    (script, moves)
}

#[test]
fn a_scripted_game_is_played_to_the_end_and_saved() {
    let (script, expected) = scripted_game();
    // Bad inputs first: each is answered and changes nothing.
    let mut input = String::from("hello\na1\npass\nundo\n\nhint\nanalyse\n");
    for line in &script {
        input.push_str(line);
        input.push('\n');
    }
    input.push_str("review\n");
    let mut out = Vec::new();
    let mut opponent = build("maximizer:count");
    let opts = options("full");
    let outcome = play(input.as_bytes(), &mut out, opponent.as_mut(), &opts).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(outcome.end, PlayEnd::Finished, "{text}");
    let got: Vec<Move> = outcome.game.moves().iter().map(|r| r.mv).collect();
    assert_eq!(got, expected);
    assert!(
        text.contains("\"hello\" is not a move or a command"),
        "{text}"
    );
    assert!(
        text.contains("illegal move: A1 is illegal for Black: a1 flips no disc"),
        "{text}"
    );
    assert!(
        text.contains("you cannot pass: you can play d3 c4 f5 e6"),
        "{text}"
    );
    assert!(text.contains("nothing to undo"), "{text}");
    let hint = text.split("hint: ").nth(1).unwrap();
    let hinted: Move = hint.split_whitespace().next().unwrap().parse().unwrap();
    assert!(
        matches!(hinted, Move::Place(sq) if Board::start().is_legal(sq)),
        "{hint}"
    );
    // The PAIP board: coordinates, counts, clocks, legal moves marked.
    assert!(
        text.contains("    a b c d e f g h   [X=2 O=2 (+0)]"),
        "{text}"
    );
    assert!(text.contains("  4 . . + O X . . . "), "{text}");
    assert!(text.contains("[X=0:00 used O=0:00 used]"), "{text}");
    assert!(text.contains("The game is over"), "{text}");
    // `analyse` at the start: the four moves, equal by symmetry, each searched to depth 3.
    let analysis: Vec<&str> = text
        .split("analysis (depth 3, exact at 10 empties or fewer), your view:\n")
        .nth(1)
        .expect("an analysis")
        .lines()
        .take(4)
        .collect();
    let mut squares: Vec<&str> = analysis
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    squares.sort_unstable();
    assert_eq!(squares, ["c4", "d3", "e6", "f5"], "{text}");
    let values: Vec<&str> = analysis
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert!(values.iter().all(|v| *v == values[0]), "{analysis:?}");
    assert!(
        analysis.iter().all(|l| l.ends_with("depth 3")),
        "{analysis:?}"
    );
    // `review` after the game: the table of `othello review`, one row per move played.
    let (_, report) = text
        .split("Reviewing ")
        .nth(1)
        .and_then(|r| r.split_once('\n'))
        .expect("a review");
    assert!(
        report.contains("human (Black) vs maximizer:count (White)"),
        "{report}"
    );
    let rows = report
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<usize>().is_ok())
        })
        .count();
    let placed = expected.iter().filter(|m| **m != Move::Pass).count();
    assert_eq!(rows, placed, "{report}");
    assert!(report.contains("Turning points"), "{report}");
    let saved = std::fs::read_to_string(&outcome.path).unwrap();
    assert!(text.contains(&format!("Game saved to {}", outcome.path.display())));
    let game: Game = saved.trim().parse().unwrap();
    assert_eq!(game.moves().len(), expected.len());
    assert_eq!(game.result, outcome.game.result);
    assert_eq!(game.black_name, "human");
    assert_eq!(game.white_name, "maximizer:count");
    std::fs::remove_file(&outcome.path).ok();
}

#[test]
fn undo_takes_back_the_own_move_and_the_reply() {
    let mut out = Vec::new();
    let mut opponent = build("maximizer:count");
    let opts = options("undo");
    let input = "d3\nundo\nf5\nresign\n";
    let outcome = play(input.as_bytes(), &mut out, opponent.as_mut(), &opts).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("undone: back to your move"), "{text}");
    assert_eq!(outcome.end, PlayEnd::Resigned);
    let moves: Vec<Move> = outcome.game.moves().iter().map(|r| r.mv).collect();
    assert_eq!(moves.len(), 2, "{text}");
    assert_eq!(moves[0], Move::Place(Square::F5));
    assert_eq!(outcome.game.result.to_string(), "-64:r");
    std::fs::remove_file(&outcome.path).ok();
}

#[test]
fn quitting_saves_an_unfinished_game_and_white_can_be_played() {
    let mut out = Vec::new();
    let mut opponent = build("maximizer:weighted");
    let opts = PlayOptions {
        human: Color::White,
        clock: Some(othello::clock::TimeControl {
            initial: 600.0,
            increment: 0.0,
            grace: 0.1,
        }),
        ..options("quit")
    };
    let outcome = play("quit\n".as_bytes(), &mut out, opponent.as_mut(), &opts).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(outcome.end, PlayEnd::Quit);
    // The opponent (Black) moved first; the clocks show time left.
    assert_eq!(outcome.game.moves().len(), 1);
    assert!(text.contains("[X=10:00 O=10:00]"), "{text}");
    assert!(text.contains("O (White, you) to move"), "{text}");
    let saved: Game = std::fs::read_to_string(&outcome.path)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(saved.result, GameResult::Unfinished);
    std::fs::remove_file(&outcome.path).ok();
    // End of input is a quit too.
    let mut out = Vec::new();
    let opts = options("eof");
    let outcome = play("".as_bytes(), &mut out, opponent.as_mut(), &opts).unwrap();
    assert_eq!(outcome.end, PlayEnd::Quit);
    std::fs::remove_file(&outcome.path).ok();
}

/// Input that removes a directory when it is first read: the save path passed the check
/// before the first move, and is gone when the game ends.
struct RemovesDirOnRead {
    inner: std::io::Cursor<Vec<u8>>,
    dir: Option<std::path::PathBuf>,
}

impl std::io::Read for RemovesDirOnRead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(dir) = self.dir.take() {
            std::fs::remove_dir_all(dir).unwrap();
        }
        self.inner.read(buf)
    }
}

impl std::io::BufRead for RemovesDirOnRead {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if let Some(dir) = self.dir.take() {
            std::fs::remove_dir_all(dir).unwrap();
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.inner.consume(n)
    }
}

#[test]
fn bad_bytes_are_answered_and_a_failed_save_prints_the_game() {
    let dir = std::env::temp_dir().join(format!("othello-play-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut opts = options("save");
    opts.ggf_path = dir.join("game.ggf");
    // A byte that is not UTF-8 and an endless line are answered; the game goes on to f5, d3.
    let mut script = b"\xe9\xff\n".to_vec();
    script.extend(std::iter::repeat_n(b'x', 5000));
    script.extend_from_slice(b"\nf5\nd3\nquit\n");
    let input = RemovesDirOnRead {
        inner: std::io::Cursor::new(script),
        dir: Some(dir.clone()),
    };
    let mut out = Vec::new();
    let mut opponent = build("maximizer:count");
    let e = play(input, &mut out, opponent.as_mut(), &opts).unwrap_err();
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("not text (invalid UTF-8)"), "{text}");
    assert!(text.contains("longer than 1024 bytes"), "{text}");
    assert!(e.to_string().contains("game.ggf"), "{e}");
    // The record is on the terminal, with the moves played (f5 and the reply at least).
    let record = text
        .lines()
        .skip_while(|l| !l.starts_with("Cannot save the game"))
        .nth(1)
        .unwrap_or_else(|| panic!("the record after the error: {text}"));
    let game: Game = record.parse().unwrap();
    assert_eq!(game.moves()[0].mv, Move::Place(Square::F5));
    assert!(game.moves().len() >= 2, "{record}");
}

#[test]
fn an_unwritable_save_path_is_refused_before_the_first_move() {
    let mut opts = options("unwritable");
    opts.ggf_path = std::env::temp_dir()
        .join(format!("othello-play-missing-{}", std::process::id()))
        .join("game.ggf");
    let mut out = Vec::new();
    let mut opponent = build("random");
    let e = play(&b"f5\n"[..], &mut out, opponent.as_mut(), &opts).unwrap_err();
    assert!(e.to_string().contains("game.ggf"), "{e}");
    assert!(
        out.is_empty(),
        "no board shown: {}",
        String::from_utf8_lossy(&out)
    );
}

/// Plays `input` against `maximizer:count` from `opts`; the outcome and everything printed.
fn session(input: &str, opts: &PlayOptions) -> (super::PlayOutcome, String) {
    let mut out = Vec::new();
    let mut opponent = build("maximizer:count");
    let outcome = play(input.as_bytes(), &mut out, opponent.as_mut(), opts).unwrap();
    std::fs::remove_file(&outcome.path).ok();
    (outcome, String::from_utf8(out).unwrap())
}

fn moves_of(game: &Game) -> Vec<String> {
    game.moves().iter().map(|r| r.mv.to_string()).collect()
}

#[test]
fn redo_plays_again_what_undo_took_back_until_a_new_move() {
    // d3, the reply; undo; redo (d3 and the reply again); undo twice (the second has nothing
    // left); redo; then f5 instead, after which redo has nothing to play.
    let input = "d3\nundo\nredo\nundo\nundo\nredo\nundo\nf5\nredo\nquit\n";
    let (outcome, text) = session(input, &options("redo"));
    assert_eq!(outcome.end, PlayEnd::Quit);
    let moves = moves_of(&outcome.game);
    assert_eq!(moves.len(), 2, "{text}");
    assert_eq!(moves[0], "f5");
    assert_eq!(
        text.matches("undone: back to your move").count(),
        3,
        "{text}"
    );
    assert_eq!(text.matches("nothing to undo").count(), 1, "{text}");
    let redone: Vec<&str> = text.matches("redone: d3 ").collect();
    assert_eq!(redone.len(), 2, "{text}");
    assert!(text.contains("nothing to redo"), "{text}");
    // The board marks the last disc played: after d3 and White's reply, the reply.
    let reply = outcome.game.moves()[1].mv.to_string();
    let marked = text.lines().any(|l| l.contains("[O]"));
    assert!(marked, "the reply {reply} in brackets: {text}");
}

#[test]
fn a_bad_move_is_answered_and_changes_nothing() {
    let (outcome, text) = session("a1\nf9\npass\nquit\n", &options("bad"));
    assert!(outcome.game.moves().is_empty(), "{text}");
    assert!(
        text.contains("illegal move: A1 is illegal for Black: a1 flips no disc"),
        "{text}"
    );
    assert!(text.contains("\"f9\" is not a move or a command"), "{text}");
    assert!(text.contains("you cannot pass"), "{text}");
    // Each answer is followed by the same prompt, the board not drawn again.
    assert_eq!(text.matches("a b c d e f g h").count(), 2, "{text}");
    assert_eq!(
        text.matches("Your move [d3 c4 f5 e6] >").count(),
        4,
        "{text}"
    );
}

#[test]
fn help_lists_every_command() {
    let (_, text) = session("help\nquit\n", &options("help"));
    assert!(text.contains("help lists the commands"), "{text}");
    // Every command's line starts at the same indentation, the first too (the prompt before
    // it ends without a newline when the input is not echoed).
    let first = text
        .lines()
        .find(|l| l.contains("play that square"))
        .unwrap();
    assert!(first.starts_with("  f5 "), "{first:?}");
    for word in [
        "pass", "undo", "redo", "hint", "analyse", "resign", "quit", "help",
    ] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(word)),
            "{word}: {text}"
        );
    }
}

#[test]
fn a_game_from_an_opening_keeps_its_moves_and_undo_goes_into_them() {
    use othello::arena::referee::Opening;
    let moves: Vec<Move> = ["f5", "d6", "c3"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    let opts = PlayOptions {
        opening: Opening {
            name: "--moves".to_string(),
            start: othello::board::Position::start(),
            moves,
        },
        ..options("opening")
    };
    // White (the opponent) moves after c3; then the person undoes c3 and quits.
    let (outcome, text) = session("undo\nquit\n", &opts);
    assert_eq!(moves_of(&outcome.game), ["f5", "d6"], "{text}");
    assert!(text.contains("O moves to"), "{text}");
    // The hint comes from the engine's own choice: the book at the start.
    let (_, text) = session("hint\nquit\n", &options("hint"));
    assert!(text.contains("opening book"), "{text}");
}

#[test]
fn the_console_commands_parse() {
    use othello::engine::Level;
    assert_eq!("go".parse(), Ok(Command::Go));
    assert_eq!("NEW".parse(), Ok(Command::New));
    assert_eq!("board".parse(), Ok(Command::Board));
    assert_eq!("swap".parse(), Ok(Command::Swap));
    assert_eq!(
        "level 7".parse(),
        Ok(Command::Level(Level::new(7).unwrap()))
    );
    assert_eq!(
        "Level  12 ".parse(),
        Ok(Command::Level(Level::new(12).unwrap()))
    );
    for bad in ["level", "level 0", "level 61", "level x"] {
        let e = bad.parse::<Command>().unwrap_err().to_string();
        assert!(e.contains("level N"), "{bad}: {e}");
    }
}

/// `go` has the opponent play the person's move; `swap` gives the person the other colour
/// (the opponent then plays the side the person had); `board` draws the board again without
/// ending the turn; `new` keeps the game (saved, unfinished) and starts another, and the file
/// holds both games.
#[test]
fn go_swap_board_and_new() {
    let opts = options("console");
    let mut out = Vec::new();
    let mut opponent = build("maximizer:count");
    let input = "board\ngo\nswap\nnew\nd3\nquit\n";
    let outcome = play(input.as_bytes(), &mut out, opponent.as_mut(), &opts).unwrap();
    let text = String::from_utf8(out).unwrap();
    let saved = std::fs::read_to_string(&outcome.path).unwrap();
    std::fs::remove_file(&outcome.path).ok();
    // board: the board twice before the first move (the turn's and the command's).
    let first_move = text.find("X moves to").unwrap();
    assert_eq!(
        text[..first_move].matches("X (Black, you) to move").count(),
        2,
        "{text}"
    );
    // go: the opponent played Black's first move (maximizer:count, first of the best: d3).
    assert!(text.contains("X moves to d3"), "{text}");
    // swap: now the person is White, the opponent Black moves next.
    assert!(text.contains("you now play White"), "{text}");
    assert!(text.contains("X (Black, opponent) to move"), "{text}");
    // new: two games in the file; the first unfinished with its moves, the second the
    // person's d3 (the person still plays White, so Black moved first)...
    let games: Vec<Game> = saved.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(games.len(), 2, "{saved}");
    assert_eq!(games[0].result, GameResult::Unfinished);
    assert!(games[0].moves().len() >= 3, "{}", games[0]);
    assert_eq!(games[1].white_name, "human");
    assert_eq!(outcome.game, games[1]);
    assert!(text.contains("2 games saved to"), "{text}");
}

/// `level N` at the prompt is given to an engine opponent before its next move (its depth
/// follows); a player without levels says so.
#[test]
fn level_is_given_to_the_engine_before_its_next_move() {
    let opts = options("level");
    let (_, text) = session("level 3\nf5\nquit\n", &opts);
    assert!(
        text.contains("level 3 from the opponent's next move"),
        "{text}"
    );
    assert!(text.contains("has no levels"), "{text}");
    let mut out = Vec::new();
    let mut engine = build("engine:level=1,book=off,threads=1");
    let outcome = play(
        "level 4\nf5\nquit\n".as_bytes(),
        &mut out,
        engine.as_mut(),
        &opts,
    )
    .unwrap();
    std::fs::remove_file(&outcome.path).ok();
    let text = String::from_utf8(out).unwrap();
    assert!(!text.contains("has no levels"), "{text}");
    assert_eq!(outcome.game.moves().len(), 2, "{text}");
}

/// A game resumed with its records keeps its move times: the clocks go on from where they
/// were, and undo goes back into the resumed moves.
#[test]
fn a_resumed_game_keeps_its_clock() {
    use othello::clock::TimeControl;
    use othello::game::MoveRecord;
    let record = |mv: &str, seconds: f64| MoveRecord {
        mv: mv.parse().unwrap(),
        eval: None,
        seconds: Some(seconds),
    };
    let opts = PlayOptions {
        clock: Some(TimeControl::new(300.0)),
        resume: vec![record("f5", 40.0), record("d6", 10.0)],
        ..options("resume")
    };
    let (outcome, text) = session("quit\n", &opts);
    assert_eq!(moves_of(&outcome.game), ["f5", "d6"]);
    assert!(text.contains("[X=4:20 O=4:50]"), "{text}");
    assert_eq!(outcome.game.moves()[0].seconds, Some(40.0));
}
