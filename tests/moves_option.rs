//! `--moves` on `perft`, `search` and `solve`: a move list names the position it reaches, the
//! same as its board string, with spaces or commas between moves and passes implicit; a bad
//! list is an error that names the move and its index. And `solve`'s table ends each row with
//! the principal variation, the JSON stream's `pv`.

use std::process::{Command, Output};

fn othello(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(args)
        .output()
        .expect("the othello binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// FFO #1 (14 empties, Black to move; +18 by g8), and a move list of the game that ends in a
/// wipe-out (the shortest game: nine moves, White has no disc left).
const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
const WIPE_OUT: &str = "d3c3b3d2e1d6d7e3f4";

/// The rows of a `solve` table (header and totals left out), split on whitespace.
fn solve_rows(o: &Output) -> Vec<Vec<String>> {
    stdout(o)
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("total:"))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[test]
fn every_command_reads_the_same_position_from_moves_or_board() {
    let board = "------------------XO------XXX------OXX-----O-------------------- O";
    for spelling in ["f5d6c3d3c4", "f5 d6 c3 d3 c4", "F5,D6, c3,d3 c4"] {
        let by_moves = othello(&["perft", "2", "--moves", spelling]);
        let by_board = othello(&["perft", "2", "--board", board]);
        assert!(
            by_moves.status.success(),
            "{spelling}: {}",
            stderr(&by_moves)
        );
        let counts = |o: &Output| -> Vec<String> {
            stdout(o)
                .lines()
                .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
                .collect()
        };
        assert_eq!(counts(&by_moves), counts(&by_board), "{spelling}");
        let search = othello(&[
            "search",
            "--moves",
            spelling,
            "--depth",
            "4",
            "--threads",
            "1",
        ]);
        assert!(search.status.success(), "{spelling}: {}", stderr(&search));
        assert_eq!(stdout(&search).lines().next(), Some(board), "{spelling}");
    }
    // solve: the row of a position named by its board, and the same by its moves.
    let by_board = othello(&["solve", "--board", FFO1, "--threads", "1"]);
    assert!(by_board.status.success(), "{}", stderr(&by_board));
    let rows = solve_rows(&by_board);
    assert_eq!(rows.len(), 1, "{}", stdout(&by_board));
    assert_eq!(rows[0][..5], ["1", "14", "g8", "+18", "-"]);
    // After the wipe-out the game is over: no move, the final score for the side to move.
    let over = othello(&["solve", "--moves", WIPE_OUT]);
    assert!(over.status.success(), "{}", stderr(&over));
    let rows = solve_rows(&over);
    assert_eq!(
        rows[0][..5],
        ["1", "51", "--", "-64", "-"],
        "{}",
        stdout(&over)
    );
    assert_eq!(rows[0].last().map(String::as_str), Some("--"));
}

/// A move list of a random game (seeded) in which a side must pass with moves left to the
/// other, up to the move after the pass; and the board strings after each listed move.
fn game_with_a_pass() -> (Vec<String>, Vec<String>) {
    use othello::board::{Move, Position};
    use othello::rng::SplitMix64;
    let mut rng = SplitMix64::new(7);
    loop {
        let (mut pos, mut moves, mut boards) = (Position::start(), Vec::new(), Vec::new());
        let mut passed = false;
        while !pos.board.is_game_over() {
            if pos.board.moves() == 0 {
                pos = pos.try_play(Move::Pass).unwrap();
                passed = true;
                continue;
            }
            let legal: Vec<_> = pos.board.legal_moves().collect();
            let sq = legal[rng.below_u32(legal.len())];
            pos = pos.try_play(Move::Place(sq)).unwrap();
            moves.push(sq.to_string());
            boards.push(pos.to_board_string());
            if passed {
                return (moves, boards);
            }
        }
    }
}

#[test]
fn a_pass_is_implicit_as_in_transcripts() {
    let (moves, boards) = game_with_a_pass();
    let perft = |args: &[&str]| {
        let o = othello(&[&["perft", "2"][..], args].concat());
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
            .lines()
            .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
    };
    // The whole list: the move after the pass is the passing side's opponent's.
    let all = moves.concat();
    assert_eq!(
        perft(&["--moves", &all]),
        perft(&["--board", &boards[moves.len() - 1]])
    );
    // Up to the move that forces the pass: the pass is made, the other side is to move.
    let before = moves[..moves.len() - 1].concat();
    let forced = boards[moves.len() - 2].clone();
    let (squares, side) = forced.split_at(65);
    let other = if side == "X" { "O" } else { "X" };
    assert_eq!(
        perft(&["--moves", &before]),
        perft(&["--board", &format!("{squares}{other}")])
    );
    // After the end of the game a move is refused by its index.
    let o = othello(&["perft", "1", "--moves", &format!("{WIPE_OUT}a1")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("move 10 (a1)") && stderr(&o).contains("the game is already over"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_bad_move_list_names_the_move_and_its_index_for_every_command() {
    let cases = [
        (
            "f5d6a1",
            "move 3 (a1) of \"f5d6a1\" is illegal: a1 flips no disc",
        ),
        (
            "f5,z9",
            "move 2 (\"z9\") of \"f5,z9\" is not a square a1 to h8",
        ),
        ("f5 d6 c", "move 3 (\"c\") of \"f5 d6 c\" is cut short"),
        ("f5f5", "move 2 (f5) of \"f5f5\" is illegal: f5 is occupied"),
    ];
    for (moves, why) in cases {
        for command in [
            &["perft", "1"][..],
            &["search", "--depth", "1"][..],
            &["solve"][..],
        ] {
            let mut args = command.to_vec();
            args.extend(["--moves", moves]);
            let o = othello(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains(why), "{args:?}: {err}");
            assert!(!err.contains("panicked"), "{err}");
            assert!(o.stdout.is_empty(), "{args:?}");
        }
    }
    // solve takes a file, or --board, or --moves: not two of them, and not the JSON stream.
    for args in [
        &["solve", "tests/data/fforum-1-19.obf", "--moves", "f5"][..],
        &["solve", "--moves", "f5", "--board", FFO1][..],
        &["solve", "--moves", "f5", "--jsonl"][..],
    ] {
        let o = othello(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("cannot be used with"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn the_solve_table_shows_the_principal_variation_of_the_json_stream() {
    let file = "tests/data/fforum-1-19.obf";
    let table = othello(&["solve", file, "--count", "2", "--threads", "1"]);
    assert!(table.status.success(), "{}", stderr(&table));
    let header = stdout(&table).lines().next().unwrap().to_string();
    assert!(header.trim_end().ends_with("nodes/s  pv"), "{header}");
    let stream = othello(&["solve", file, "--jsonl", "--count", "2", "--threads", "1"]);
    assert!(stream.status.success(), "{}", stderr(&stream));
    let rows = solve_rows(&table);
    for (row, line) in rows.iter().zip(stdout(&stream).lines()) {
        let json: serde_json::Value = serde_json::from_str(line).unwrap();
        let pv: Vec<&str> = json["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        // The table's pv: the stream's first ten moves, then `...` as the line goes on.
        let shown: Vec<&str> = row[8..].iter().map(String::as_str).collect();
        assert_eq!(
            shown[0], row[2],
            "the pv starts with the best move: {row:?}"
        );
        assert_eq!(shown[..10], pv[..10], "{row:?}");
        assert_eq!(shown.get(10).copied(), (pv.len() > 10).then_some("..."));
    }
}
