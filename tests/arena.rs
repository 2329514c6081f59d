//! Matches and tournaments end to end: reproducibility, the NBoard driver against our own
//! binary, faulty engines (the hidden `othello fake-engine` subcommand), and `match --json`.

use std::path::PathBuf;
use std::time::Duration;

use othello::arena::{
    run_match, run_tournament, MatchOptions, OpeningSource, SeriesConfig, Sprt, TournamentOptions,
};
use othello::board::Move;
use othello::game::{Game, GameEnd, GameResult};
use othello::players::PlayerSpec;

const BIN: &str = env!("CARGO_BIN_EXE_othello");

fn spec(s: &str) -> PlayerSpec {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("othello-arena-{}-{name}", std::process::id()))
}

fn read_games(path: &PathBuf) -> Vec<Game> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| l.parse::<Game>().unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn moves(game: &Game) -> Vec<Move> {
    game.moves().iter().map(|r| r.mv).collect()
}

fn options(a: &str, b: &str, pairs: usize, config: SeriesConfig) -> MatchOptions {
    MatchOptions {
        a: spec(a),
        b: spec(b),
        pairs,
        config,
        sprt: None,
        ggf: None,
        progress: othello::progress::Reporter::silent(),
    }
}

#[test]
fn same_seed_same_games_at_any_concurrency() {
    let run = |seed: u64, jobs: usize| {
        let path = temp_path(&format!("repro-{seed}-{jobs}.ggf"));
        let config = SeriesConfig {
            openings: OpeningSource::Random(6),
            seed,
            concurrency: jobs,
            ..SeriesConfig::default()
        };
        let mut o = options("alphabeta:2:weighted", "random", 4, config);
        o.ggf = Some(path.clone());
        let summary = run_match(&o).unwrap();
        let games = read_games(&path);
        std::fs::remove_file(&path).ok();
        (summary, games)
    };
    let (s1, g1) = run(7, 1);
    let (s2, g2) = run(7, 3);
    let (_, g3) = run(8, 2);
    assert_eq!(g1.len(), 8);
    assert_eq!(s1.total.games(), 8);
    assert_eq!(
        g1.iter().map(moves).collect::<Vec<_>>(),
        g2.iter().map(moves).collect::<Vec<_>>()
    );
    assert_eq!(
        (s1.total, s1.as_black, s1.pentanomial),
        (s2.total, s2.as_black, s2.pentanomial)
    );
    assert_ne!(
        g1.iter().map(moves).collect::<Vec<_>>(),
        g3.iter().map(moves).collect::<Vec<_>>()
    );
    // Pairs share an opening, colours swapped; results match the records.
    for pair in g1.chunks(2) {
        assert_eq!(pair[0].black_name, "alphabeta:2:weighted");
        assert_eq!(pair[1].white_name, "alphabeta:2:weighted");
        assert_eq!(moves(&pair[0])[..6], moves(&pair[1])[..6]);
    }
    let mut discs = 0i64;
    for (i, g) in g1.iter().enumerate() {
        assert!(g.position().board.is_game_over());
        let GameResult::Finished { black_margin, end } = g.result else {
            panic!("unfinished")
        };
        assert_eq!(end, GameEnd::Normal);
        let a_margin = if i % 2 == 0 {
            black_margin
        } else {
            -black_margin
        };
        discs += a_margin as i64;
    }
    assert_eq!(discs, s1.total.discs);
}

#[test]
fn the_sprt_stops_a_lopsided_match_early() {
    let config = SeriesConfig {
        openings: OpeningSource::Random(4),
        ..SeriesConfig::default()
    };
    let mut o = options("iago:2", "random", 60, config);
    o.sprt = Some(Sprt::new(0.0, 200.0));
    let s = run_match(&o).unwrap();
    let (_, state) = s.sprt.unwrap();
    assert_eq!(
        state.decision,
        othello::arena::stats::SprtDecision::AcceptH1,
        "{s}"
    );
    assert!(s.pentanomial.pairs() < 60, "{s}");
    assert!(state.llr >= state.upper);
}

#[test]
fn tournament_table_adds_up() {
    let options = TournamentOptions {
        players: ["random", "maximizer:count", "iago:2"].map(spec).to_vec(),
        pairs: 2,
        config: SeriesConfig {
            openings: OpeningSource::Random(10),
            concurrency: 2,
            ..SeriesConfig::default()
        },
        ggf: None,
        progress: othello::progress::Reporter::silent(),
    };
    let t = run_tournament(&options).unwrap();
    for i in 0..3 {
        assert_eq!(t.games[i], 8);
        for j in 0..3 {
            if i != j {
                assert_eq!(t.points[i][j] + t.points[j][i], 4.0);
            }
        }
    }
    let total: f64 = (0..3).map(|i| t.total(i)).sum();
    assert_eq!(total, 12.0);
    assert_eq!(t.discs.iter().sum::<i64>(), 0);
    let text = t.to_string();
    assert!(text.contains("#3 iago:2") && text.contains("---"), "{text}");
}

#[test]
fn nboard_driver_plays_our_own_binary() {
    let path = temp_path("self.ggf");
    let config = SeriesConfig {
        openings: OpeningSource::Xot,
        depth: Some(2),
        ..SeriesConfig::default()
    };
    let mut o = options("engine", &format!("nboard:self={BIN}"), 1, config);
    o.ggf = Some(path.clone());
    let s = run_match(&o).unwrap();
    let games = read_games(&path);
    std::fs::remove_file(&path).ok();
    assert!(s.faults.is_empty(), "{s}");
    assert_eq!(s.total.games(), 2);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].white_name, "self");
    for g in &games {
        assert!(g.position().board.is_game_over(), "{g}");
        // Every move after the 8 XOT moves has a recorded time.
        assert!(g.moves()[8..].iter().all(|r| r.seconds.is_some()));
    }
    // A clocked game too: the engine must budget from the GGF clock it is sent.
    let config = SeriesConfig {
        openings: OpeningSource::Xot,
        clock: Some(othello::clock::TimeControl::parse_match("3", 0.1).unwrap()),
        seed: 5,
        ..SeriesConfig::default()
    };
    let o = options("engine:depth=2", &format!("nboard:self={BIN}"), 1, config);
    let s = run_match(&o).unwrap();
    assert!(s.faults.is_empty(), "{s}");
    assert_eq!(s.total.games(), 2);
}

/// Plays one pair of maximizer:count against the fake engine in `mode`, misbehaving at its
/// third `go` in every process; returns the summary and the games.
fn against_fake(
    mode: &str,
    clock: Option<&str>,
    extra: &str,
) -> (othello::arena::MatchSummary, Vec<Game>) {
    let path = temp_path(&format!("fake-{mode}.ggf"));
    let config = SeriesConfig {
        openings: OpeningSource::Start,
        clock: clock.map(|c| othello::clock::TimeControl::parse_match(c, 0.1).unwrap()),
        move_timeout: Duration::from_millis(700),
        ..SeriesConfig::default()
    };
    let b = format!("nboard:fake={BIN} fake-engine --mode {mode} --at 3 {extra}");
    let mut o = options("maximizer:count", &b, 1, config);
    o.ggf = Some(path.clone());
    let s = run_match(&o).unwrap();
    let games = read_games(&path);
    std::fs::remove_file(&path).ok();
    (s, games)
}

fn assert_fake_forfeits(mode: &str, kind: &str, end: GameEnd, clock: Option<&str>, extra: &str) {
    let (s, games) = against_fake(mode, clock, extra);
    assert_eq!((s.total.wins, s.total.losses), (2, 0), "{s}");
    assert_eq!(s.total.discs, 128, "a forfeit counts 64-0: {s}");
    assert_eq!(s.faults.get(&("fake".to_string(), kind)), Some(&2), "{s}");
    assert_eq!(s.faults.len(), 1, "{s}");
    for (i, g) in games.iter().enumerate() {
        let fake = if i == 0 {
            othello::Color::White
        } else {
            othello::Color::Black
        };
        let margin = if fake == othello::Color::Black {
            -64.0
        } else {
            64.0
        };
        assert_eq!(
            g.result,
            GameResult::Finished {
                black_margin: margin,
                end
            },
            "{g}"
        );
        // The fake made exactly two good moves in each game: the engine was restarted after
        // the first game's fault, so its move counter started again.
        let fake_moves = (0..g.moves().len()).filter(|&k| g.mover(k) == fake).count();
        assert_eq!(fake_moves, 2, "{g}");
    }
}

#[test]
fn an_illegal_move_forfeits() {
    assert_fake_forfeits("illegal", "illegal", GameEnd::Resignation, None, "");
}

#[test]
fn an_unreadable_move_forfeits() {
    assert_fake_forfeits("garbage", "illegal", GameEnd::Resignation, None, "");
}

#[test]
fn a_crash_forfeits_and_the_engine_is_restarted() {
    assert_fake_forfeits("crash", "crash", GameEnd::Resignation, None, "");
}

#[test]
fn sleeping_past_the_clock_loses_on_time() {
    assert_fake_forfeits("slow", "time", GameEnd::Timeout, Some("0.5"), "--sleep 2");
}

#[test]
fn a_hung_engine_forfeits_in_an_untimed_game() {
    assert_fake_forfeits("hang", "hung", GameEnd::Timeout, None, "");
}

#[test]
fn a_well_behaved_fake_is_driven_to_the_end() {
    // Edax-style answers and noise lines are understood; nothing is a fault.
    let (s, games) = against_fake("good", Some("30"), "");
    assert!(s.faults.is_empty(), "{s}");
    assert!(games.iter().all(|g| g.position().board.is_game_over()));
}

#[test]
fn a_missing_program_is_an_error_not_a_panic() {
    let o = options(
        "random",
        "nboard:nothing=/nonexistent/othello-engine",
        1,
        SeriesConfig::default(),
    );
    let err = run_match(&o).unwrap_err().to_string();
    assert!(
        err.contains("nothing") && err.contains("cannot start"),
        "{err}"
    );
}

#[test]
fn the_driver_talks_like_the_nboard_gui() {
    let transcript = temp_path("transcript.txt");
    std::fs::remove_file(&transcript).ok();
    let config = SeriesConfig {
        openings: OpeningSource::Start,
        depth: Some(3),
        clock: Some(othello::clock::TimeControl::parse_match("30", 0.1).unwrap()),
        ..SeriesConfig::default()
    };
    let b = format!(
        "nboard:fake={BIN} fake-engine --mode good --transcript {}",
        transcript.display()
    );
    let s = run_match(&options("maximizer:count", &b, 1, config)).unwrap();
    assert!(s.faults.is_empty(), "{s}");
    let text = std::fs::read_to_string(&transcript).unwrap();
    std::fs::remove_file(&transcript).ok();
    let lines: Vec<&str> = text.lines().collect();
    // Start-up handshake, then the first request of game 1 (the fake is White).
    assert_eq!(lines[..3], ["nboard 2", "ping 1", "set depth 3"], "{text}");
    assert!(lines[3].starts_with("set game (;GM[Othello]"), "{text}");
    assert!(
        lines[3].contains("TI[30//0.1]") && lines[3].ends_with("B[D3//0];)"),
        "{text}"
    );
    assert_eq!(lines[4..6], ["ping 2", "go"], "{text}");
    // Then the fake's own move comes back, then Black's reply, each as one `move`
    // with eval and time, then ping and go again.
    assert!(
        lines[6].starts_with("move ") && lines[6].contains('/'),
        "{text}"
    );
    assert!(lines[7].starts_with("move "), "{text}");
    assert_eq!(lines[8..10], ["ping 3", "go"], "{text}");
    // Every go follows a ping with a strictly larger number; pings never repeat.
    let mut last = 0;
    for (i, l) in lines.iter().enumerate() {
        if let Some(n) = l.strip_prefix("ping ") {
            let n: u64 = n.parse().unwrap();
            assert!(n > last, "{text}");
            last = n;
        }
        if *l == "go" {
            assert!(lines[i - 1].starts_with("ping "), "{text}");
        }
    }
    // Game 2 starts with a new `set game` (the game is no longer an extension).
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("set game")).count(),
        2,
        "{text}"
    );
    assert_eq!(lines.last(), Some(&"quit"), "{text}");
}

/// Runs `othello <args>` and returns its stdout, after checking that it succeeded.
fn othello_stdout(args: &[&str]) -> String {
    let o = std::process::Command::new(BIN)
        .args(args)
        .output()
        .expect("the othello binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

/// `othello match --json`: one JSON object on one line, with the numbers of the table (the same
/// games, the same seed), wins + draws + losses = games, and the audit's summary with
/// `--audit`, equal to what `--audit-json` writes.
#[test]
fn match_json_is_the_table_for_scripts() {
    let players = ["iago:1", "alphabeta:2:weighted"];
    let base = [
        "match", players[0], players[1], "--pairs", "2", "--seed", "4", "--quiet",
    ];
    let table = othello_stdout(&base);
    let text = othello_stdout(&[&base[..], &["--json"]].concat());
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.ends_with("}\n"), "{text}");
    let j: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let int = |v: &serde_json::Value, key: &str| {
        v[key]
            .as_u64()
            .unwrap_or_else(|| panic!("{key} is not a count: {v}"))
    };
    let float = |v: &serde_json::Value, key: &str| {
        v[key]
            .as_f64()
            .unwrap_or_else(|| panic!("{key} is not a number: {v}"))
    };
    assert_eq!(j["a"].as_str(), Some(players[0]));
    assert_eq!(j["b"].as_str(), Some(players[1]));
    assert_eq!(int(&j, "games"), 4);
    assert_eq!(int(&j, "pairs"), 2);
    let (wins, draws, losses) = (int(&j, "wins"), int(&j, "draws"), int(&j, "losses"));
    assert_eq!(wins + draws + losses, int(&j, "games"), "{j}");
    let score = 100.0 * (wins as f64 + draws as f64 / 2.0) / 4.0;
    assert!((float(&j, "score_percent") - score).abs() < 1e-9, "{j}");
    for colour in ["as_black", "as_white"] {
        let c = &j[colour];
        assert_eq!(int(c, "games"), 2, "{j}");
        assert_eq!(
            int(c, "wins") + int(c, "draws") + int(c, "losses"),
            2,
            "{j}"
        );
    }
    for key in ["wins", "draws", "losses"] {
        assert_eq!(
            int(&j["as_black"], key) + int(&j["as_white"], key),
            int(&j, key)
        );
    }
    let mean = (float(&j["as_black"], "mean_discs") + float(&j["as_white"], "mean_discs")) / 2.0;
    assert!((float(&j, "mean_discs") - mean).abs() < 1e-9, "{j}");
    let pentanomial: Vec<u64> = j["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert_eq!((pentanomial.len(), pentanomial.iter().sum::<u64>()), (5, 2));
    // The Elo and its interval: numbers in order, or null where infinite.
    let elo: Vec<Option<f64>> = ["elo_lower", "elo", "elo_upper"]
        .iter()
        .map(|key| {
            let v = j.get(*key).unwrap_or_else(|| panic!("no {key}: {j}"));
            assert!(v.is_null() || v.is_f64(), "{key}: {v}");
            v.as_f64()
        })
        .collect();
    if let [Some(lower), Some(elo), Some(upper)] = elo[..] {
        assert!(lower <= elo && elo <= upper, "{j}");
    }
    // As the table shows them; null is infinite, with the sign docs/COMMANDS.md gives it.
    let shown = |x: Option<f64>, infinite_sign_up: bool| match x {
        Some(x) => format!("{x:+.1}"),
        None if infinite_sign_up => "+inf".to_string(),
        None => "-inf".to_string(),
    };
    let elo_line = format!(
        "Elo {} [{}, {}] (95%; pentanomial over 2 pairs: {})",
        shown(elo[1], score > 50.0),
        shown(elo[0], score == 100.0),
        shown(elo[2], score != 0.0),
        pentanomial
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    assert!(table.contains(&elo_line), "{elo_line:?} not in\n{table}");
    assert_eq!(int(&j, "forfeits"), 0);
    assert_eq!(j["faults"], serde_json::json!([]));
    for key in ["sprt", "most_time_used", "clock_use", "audit"] {
        assert_eq!(j.get(key), Some(&serde_json::Value::Null), "{key}: {j}");
    }
    // The same numbers as the table of the same match.
    assert!(table.contains(&format!(
        "{} vs {}: 4 games, 2 pairs",
        players[0], players[1]
    )));
    let total = format!(
        "total           4 {wins:>6} {draws:>6} {losses:>6} {:>6.1}% {:>+7.2}",
        score,
        float(&j, "mean_discs")
    );
    assert!(table.contains(&total), "{total:?} not in\n{table}");

    // With an audit: its summary, equal to the --audit-json file without the games.
    let file = temp_path("match-audit.json");
    let text = othello_stdout(
        &[
            &base[..],
            &[
                "--json",
                "--audit",
                "10",
                "--audit-json",
                file.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    std::fs::remove_file(&file).ok();
    assert_eq!(text.lines().count(), 1, "{text}");
    let with_audit: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(with_audit["wins"], j["wins"], "the same games");
    let audit = &with_audit["audit"];
    assert_eq!(
        audit["players"],
        serde_json::json!(["A: iago:1", "B: alphabeta:2:weighted"])
    );
    assert_eq!(audit["points"], serde_json::json!([10]));
    let sides = audit["by_point"][0]["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 2);
    for s in sides {
        assert_eq!(
            int(s, "games") + int(s, "ended_before") + int(s, "unfinished"),
            4
        );
    }
    assert!(audit.get("games").is_none(), "the games are --audit-json's");
    for key in [
        "players",
        "points",
        "jobs",
        "hash_mb",
        "positions",
        "solves",
        "nodes",
        "by_point",
    ] {
        assert_eq!(audit[key], written[key], "{key}");
    }
}

/// The GTP client against our own `othello gtp`: two pairs at level 1 and one clocked pair,
/// every game played to the end without a fault (the referee checks every move; the records
/// parse back, which replays them).
#[test]
fn gtp_driver_plays_our_own_binary() {
    let path = temp_path("gtp-self.ggf");
    let config = SeriesConfig {
        openings: OpeningSource::Xot,
        ..SeriesConfig::default()
    };
    let ours = format!("gtp:ours={BIN} gtp --level 1 --book off --threads 1");
    let mut o = options(&ours, "iago:1", 2, config);
    o.ggf = Some(path.clone());
    let s = run_match(&o).unwrap();
    let games = read_games(&path);
    std::fs::remove_file(&path).ok();
    assert!(s.faults.is_empty(), "{s}");
    assert_eq!(s.total.games(), 4, "{s}");
    assert_eq!(games.len(), 4);
    assert_eq!(games[0].black_name, "ours");
    for g in &games {
        assert!(g.position().board.is_game_over(), "{g}");
        assert!(g.moves()[8..].iter().all(|r| r.seconds.is_some()));
    }
    // A clocked pair: time_settings and time_left, and the engine keeps to its clock.
    let config = SeriesConfig {
        openings: OpeningSource::Xot,
        clock: Some(othello::clock::TimeControl::parse_match("2", 0.1).unwrap()),
        seed: 5,
        ..SeriesConfig::default()
    };
    let ours = format!("gtp:ours={BIN} gtp --book off --threads 1");
    let s = run_match(&options(&ours, "iago:1", 1, config)).unwrap();
    assert!(s.faults.is_empty(), "{s}");
    assert_eq!(s.total.games(), 2);
}

/// A fake GTP engine in shell: answers every command `=`, and `genmove` as `mode` says.
fn fake_gtp(mode: &str) -> String {
    let script = temp_path(&format!("fake-gtp-{mode}.sh"));
    let genmove = match mode {
        "illegal" => r"printf '=%s A1\n\n' $id",
        "pass" => r"printf '=%s pass\n\n' $id",
        "garbage" => r"printf '=%s zz\n\n' $id",
        "resign" => r"printf '=%s resign\n\n' $id",
        "noise" => r"printf 'thinking hard\n'",
        "wrong-id" => r"printf '=999 D3\n\n'",
        "refuse" => r"printf '?%s no\n\n' $id",
        "crash" => "exit 3",
        "hang" => "exec sleep 30",
        _ => unreachable!(),
    };
    let text = format!(
        "while read id cmd rest; do\n  case $cmd in\n    genmove) {genmove} ;;\n    \
         quit) printf '=%s\\n\\n' $id; exit 0 ;;\n    *) printf '=%s\\n\\n' $id ;;\n  esac\ndone\n"
    );
    std::fs::write(&script, text).unwrap();
    format!("gtp:fake=sh {}", script.display())
}

/// Every misbehaviour of a GTP engine forfeits the game (64-0) with the fault named and a
/// clear detail, never hangs, and the next game (after a restart, as the series does) is
/// forfeited the same way: a pair of such games gives the opponent both.
#[test]
fn a_misbehaving_gtp_engine_forfeits_without_hanging() {
    use othello::arena::{play_game, Clocks, GameSetup, Opening};
    for (mode, kind, detail) in [
        ("illegal", "illegal", "a1"),
        ("pass", "illegal", "pass"),
        ("garbage", "illegal", "unreadable move \"zz\""),
        ("resign", "illegal", "resigned"),
        (
            "noise",
            "protocol",
            "expected an answer starting with = or ?",
        ),
        ("wrong-id", "protocol", "does not carry the command's id"),
        ("refuse", "protocol", "refused \"genmove"),
        ("crash", "crash", "crashed"),
        ("hang", "hung", ""),
    ] {
        let setup = GameSetup {
            opening: Opening::start(),
            clocks: Clocks::default(),
            depth: None,
            move_timeout: Duration::from_millis(700),
            seed: 1,
            place: "test".to_string(),
        };
        let mut fake = spec(&fake_gtp(mode)).build().unwrap();
        let mut maximizer = spec("maximizer:count").build().unwrap();
        let started = std::time::Instant::now();
        for fake_is_black in [false, true] {
            let outcome = if fake_is_black {
                play_game(fake.as_mut(), maximizer.as_mut(), &setup)
            } else {
                play_game(maximizer.as_mut(), fake.as_mut(), &setup)
            };
            let t = &outcome.termination;
            let want_loser = if fake_is_black {
                othello::Color::Black
            } else {
                othello::Color::White
            };
            assert_eq!(t.kind(), kind, "{mode}: {t:?}");
            assert_eq!(t.loser(), Some(want_loser), "{mode}: {t:?}");
            assert_eq!(outcome.black_margin.abs(), 64, "{mode}");
            let text = t.detail().unwrap_or("").to_ascii_lowercase();
            assert!(text.contains(&detail.to_ascii_lowercase()), "{mode}: {t:?}");
            fake.restart().unwrap();
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{mode}: {:?}",
            started.elapsed()
        );
    }
}

/// An engine that passes implicitly, as GRhino (`gtp-rhino`) does: it answers `play b pass`
/// with `? syntax error`, and `genmove` with `pass` when it has no move. Here it is our own
/// `othello gtp` behind a bash filter that refuses every `play <colour> pass`. From a position
/// where Black must pass (twice in the game), both colours' games end normally: the client
/// treats the refused pass as implicit, and no refusal is a fault, let alone a crash.
#[test]
fn an_engine_with_implicit_passes_plays_through_passes() {
    use othello::arena::{play_game, Clocks, GameSetup, Opening};
    let script = temp_path("implicit-pass-gtp.sh");
    let text = format!(
        "coproc G {{ {BIN} gtp --level 1 --book off --threads 1; }}\n\
         while read -r id cmd rest; do\n\
         \x20 if [ \"$cmd\" = play ] && [ \"${{rest#* }}\" = pass ]; then\n\
         \x20   printf '?%s syntax error\\n\\n' \"$id\"; continue\n\
         \x20 fi\n\
         \x20 printf '%s %s %s\\n' \"$id\" \"$cmd\" \"$rest\" >&\"${{G[1]}}\"\n\
         \x20 while IFS= read -r line <&\"${{G[0]}}\"; do\n\
         \x20   printf '%s\\n' \"$line\"; [ -z \"$line\" ] && break\n\
         \x20 done\n\
         \x20 [ \"$cmd\" = quit ] && exit 0\n\
         done\n"
    );
    std::fs::write(&script, text).unwrap();
    // A game of GRhino's that was forfeited at move 57: Black must pass here, and again after
    // White's a1.
    let line = "f5d6c7f4g3g4h3h4d3h2f3e2f1d1f2e3d2f6g6c1e6c3c4c6h5c2h1d7b3c5g5g1e7g2b6e1b1a2\
                a4d8e8f8b5b4f7a6b2c8a7a8b8b7a3a5g8h8";
    let opening_moves = othello::xot::parse_moves(line).unwrap();
    let opening = Opening {
        name: "implicit pass".to_string(),
        start: othello::Position::start(),
        moves: opening_moves,
    };
    assert!(opening.position().unwrap().board.must_pass());
    let setup = GameSetup {
        opening,
        clocks: Clocks::default(),
        depth: None,
        move_timeout: Duration::from_secs(30),
        seed: 1,
        place: "test".to_string(),
    };
    let mut rhino = spec(&format!("gtp:rhino=bash {}", script.display()))
        .build()
        .unwrap();
    let mut maximizer = spec("maximizer:count").build().unwrap();
    for rhino_is_black in [false, true] {
        let outcome = if rhino_is_black {
            play_game(rhino.as_mut(), maximizer.as_mut(), &setup)
        } else {
            play_game(maximizer.as_mut(), rhino.as_mut(), &setup)
        };
        assert_eq!(outcome.termination.kind(), "normal", "{outcome:?}");
        let passes = moves(&outcome.game)
            .iter()
            .filter(|m| **m == Move::Pass)
            .count();
        assert!(passes >= 1, "{}", outcome.game);
        assert!(outcome.game.position().board.is_game_over());
    }
    drop(rhino);
    std::fs::remove_file(&script).ok();
}

/// `--openings file:PATH`: every game starts with one of the file's lines, each line is played
/// once per pass (both colours), and a bad line is refused before any game, naming its line.
#[test]
fn a_match_plays_the_openings_of_a_file() {
    let list = temp_path("openings-list.txt");
    let ggf = temp_path("openings-list.ggf");
    let lines = ["f5d6c3d3", "f5f6e6f4e3"];
    std::fs::write(
        &list,
        format!("# two openings\n{}\n\n{}\n", lines[0], lines[1]),
    )
    .unwrap();
    let _ = std::fs::remove_file(&ggf);
    let openings = format!("file:{}", list.display());
    othello_stdout(&[
        "match",
        "iago:1",
        "alphabeta:2:weighted",
        "--pairs",
        "2",
        "--openings",
        &openings,
        "--ggf",
        ggf.to_str().unwrap(),
        "--quiet",
    ]);
    let games = read_games(&ggf);
    assert_eq!(games.len(), 4);
    let mut starts: Vec<String> = games
        .iter()
        .map(|g| {
            let line = lines
                .iter()
                .find(|l| {
                    let m: String = moves(g).iter().map(|m| m.to_string()).collect();
                    m.to_ascii_lowercase().starts_with(*l)
                })
                .unwrap_or_else(|| panic!("a game not from the list: {:?}", moves(g)));
            line.to_string()
        })
        .collect();
    starts.sort();
    assert_eq!(starts, [lines[0], lines[0], lines[1], lines[1]]);

    std::fs::write(&list, "f5d6c3d3\nf5d6c3d3d9\n").unwrap();
    let _ = std::fs::remove_file(&ggf);
    let o = std::process::Command::new(BIN)
        .args(["match", "iago:1", "iago:2", "--openings", &openings])
        .args(["--ggf", ggf.to_str().unwrap(), "--quiet"])
        .output()
        .expect("the othello binary runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        stderr.contains("line 2") && stderr.contains("f5d6c3d3d9"),
        "{stderr}"
    );
    assert!(!ggf.exists(), "no game was played");
    let _ = std::fs::remove_file(&list);
}
