//! The documents agree with the program: what they quote of it (the bench signature, what GTP
//! supports), and their examples work from a fresh clone without leaving files in the work
//! tree.

use std::process::Command;

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The node count `othello bench` prints (one thread), with `--eval-file` as given.
fn bench_nodes(eval: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["bench", "--eval-file", eval])
        .env_remove("OTHELLO_EVAL_FILE")
        .output()
        .unwrap();
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    let last = out.lines().last().unwrap();
    last.split_whitespace().nth(1).unwrap().to_string()
}

/// docs/COMMANDS.md quotes the bench signatures that `othello bench` prints (one thread): with
/// the shipped network and its model (the default where the processor has AVX2), and with the
/// shipped pattern weights and their model.
#[test]
fn commands_md_quotes_the_bench_signature() {
    let docs = read("docs/COMMANDS.md");
    let quoted = docs
        .lines()
        .find(|l| l.contains("with the shipped network and model"))
        .expect("the bench signature sentence");
    let pattern = bench_nodes("pattern");
    assert!(
        quoted.contains(&format!("; {pattern} with `--eval-file pattern`")),
        "bench --eval-file pattern says {pattern}: {quoted}"
    );
    let default = bench_nodes("default");
    if othello::eval::builtin::network_is_default() {
        assert!(
            quoted.contains(&format!("({default} with the shipped network")),
            "bench says {default}: {quoted}"
        );
    } else {
        assert_eq!(
            default, pattern,
            "without AVX2 the default is the pattern weights"
        );
    }
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
