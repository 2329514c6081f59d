//! The documents agree with the program: what they quote of it (the bench signature, what GTP
//! supports), and their examples work from a fresh clone without leaving files in the work
//! tree.

use std::process::Command;

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// docs/COMMANDS.md quotes the bench signature that `othello bench` prints (one thread, the
/// shipped weights and model).
#[test]
fn commands_md_quotes_the_bench_signature() {
    let o = Command::new(env!("CARGO_BIN_EXE_othello"))
        .arg("bench")
        .env_remove("OTHELLO_EVAL_FILE")
        .output()
        .unwrap();
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    let last = out.lines().last().unwrap();
    let nodes = last.split_whitespace().nth(1).unwrap();
    let docs = read("docs/COMMANDS.md");
    let quoted = docs
        .lines()
        .find(|l| l.contains("with the shipped weights and model"))
        .expect("the bench signature sentence");
    assert!(
        quoted.contains(&format!("({nodes} ")),
        "bench says {nodes}: {quoted}"
    );
}

/// PROTOCOL.md §13 does not call levels unsupported over GTP while it documents
/// `othello-level`, and it lists `final_score`.
#[test]
fn protocol_md_says_what_gtp_supports() {
    let text = read("PROTOCOL.md");
    let gtp = &text[text.find("## 13. GTP").unwrap()..];
    assert!(gtp.contains("`othello-level <n>`"));
    assert!(gtp.contains("`final_score`"));
    let unsupported = &gtp[gtp.find("**Not supported over GTP:**").unwrap()..];
    let sentence = &unsupported[..unsupported.find('.').unwrap()];
    assert!(!sentence.contains("levels"), "{sentence}");
}

/// scripts/stream-parallel.sh runs from a fresh clone: its default games are in the
/// repository.
#[test]
fn stream_parallel_defaults_to_games_in_the_repository() {
    let script = read("scripts/stream-parallel.sh");
    let line = script
        .lines()
        .find(|l| l.contains("|| FILES=("))
        .expect("the default FILES");
    let inside = &line[line.find("FILES=(").unwrap() + 7..line.rfind(')').unwrap()];
    for path in inside.split_whitespace() {
        assert!(!path.starts_with(".."), "{line}");
        assert!(std::path::Path::new(path).exists(), "{path}");
    }
}

/// The README's commands on the repository's own data write their outputs under `target/`
/// (ignored by git), not into the work tree.
#[test]
fn readme_examples_write_under_target() {
    let readme = read("README.md");
    for line in readme.lines().filter(|l| l.starts_with("    othello ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            if (*w == "--out" || *w == ">") && line.contains("tests/data") {
                let target = words[i + 1];
                assert!(target.starts_with("target/"), "{line}");
            }
        }
        if line.contains("< target/") {
            let out = words[words.iter().position(|w| *w == ">").unwrap() + 1];
            assert!(out.starts_with("target/"), "{line}");
        }
    }
}

/// The package leaves out the training labels (`cargo package --list` shows no `labels/`),
/// and the release profile carries no debug info, which the `profiling` profile keeps.
#[test]
fn the_package_leaves_out_the_labels_and_release_has_no_debug_info() {
    let manifest = read("Cargo.toml");
    let exclude = manifest
        .lines()
        .find(|l| l.starts_with("exclude = "))
        .expect("an exclude list");
    assert!(exclude.contains("\"/labels/\""), "{exclude}");
    let section = |name: &str| -> String {
        let start = manifest.find(&format!("[profile.{name}]")).unwrap();
        let rest = &manifest[start + 1..];
        rest[..rest.find("\n[").unwrap_or(rest.len())].to_string()
    };
    assert!(section("release").contains("debug = false"));
    let profiling = section("profiling");
    assert!(profiling.contains("inherits = \"release\"") && profiling.contains("debug = 1"));
}

/// The README says how the `othello` of its examples is had: `cargo install --path .` or
/// `cargo run --release -- ...`.
#[test]
fn readme_says_how_to_run_othello() {
    let readme = read("README.md");
    assert!(readme.contains("    cargo install --path ."));
    assert!(readme.contains("    cargo run --release -- "));
}
