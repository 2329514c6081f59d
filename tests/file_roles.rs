//! The one file rule over the table of every subcommand's files (`src/cli/roles.rs`), through
//! the binary: for random choices of which output aliases which input (or another output), and
//! how (the same path, a hard link, a symbolic link, a `dir/../name` spelling), the command
//! refuses with a message naming both files, and no byte of any input changes. The inputs
//! are small files of any content: the rule is checked before anything is read.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use proptest::prelude::*;

/// A row: a command line whose `{i:NAME}` are inputs (files made with some content), `{o}`
/// its outputs (in order), and the implicit inputs it reads without naming them.
struct Row {
    args: &'static str,
    implicit: &'static [&'static str],
}

const ROWS: &[Row] = &[
    Row {
        args: "train {i:sp.dat} --out {o}",
        implicit: &[],
    },
    Row {
        args: "train {i:d.dat} --prior {i:p.bin} --out {o}",
        implicit: &[],
    },
    Row {
        args: "centre {i:c.bin} --out {o}",
        implicit: &[],
    },
    Row {
        args: "--eval-file {i:w.bin} calibrate --samples {i:s.txt} --out {o}",
        implicit: &[],
    },
    Row {
        args: "calibrate --endgame --games {i:g.pgn} --base {i:m.txt} --samples {o} --out {o}",
        implicit: &[],
    },
    Row {
        args: "play random --file {i:g.ggf} --ggf {o}",
        implicit: &[],
    },
    Row {
        args: "review {i:G.pgn} --book {i:b.book} --html {o}",
        implicit: &[],
    },
    Row {
        args: "match random random --openings file:{i:op.txt} --ggf {o}",
        implicit: &[],
    },
    Row {
        args: "match random random --ggf {o} --audit 20 --audit-json {o}",
        implicit: &[],
    },
    Row {
        args: "tournament random random --openings file:{i:op.txt} --ggf {o}",
        implicit: &[],
    },
    Row {
        args: "games convert {i:WTH_1977.wtb} --out {o}",
        implicit: &["WTHOR.JOU", "WTHOR.TRN"],
    },
    Row {
        args: "games export {i:WTH_1977.wtb} --out {o}",
        implicit: &["WTHOR.JOU", "WTHOR.TRN"],
    },
    Row {
        args: "games convert {i:x.pgn} --players {i:p.jou} --out {o}",
        implicit: &[],
    },
    Row {
        args: "label {i:g.txt} --out {o}",
        implicit: &[],
    },
    Row {
        args: "--eval-file {i:w.bin} selfplay --out {o}",
        implicit: &[],
    },
    Row {
        args: "selfplay --openings-of {i:data.dat} --out {o}",
        implicit: &[],
    },
    Row {
        args: "book build {i:g.pgn} --out {o}",
        implicit: &[],
    },
    Row {
        args: "book merge {i:a.book} {i:b.book} --out {o}",
        implicit: &[],
    },
    Row {
        args: "book import {i:e.dat} --out {o}",
        implicit: &[],
    },
    Row {
        args: "book export {i:a.book} --out {o}",
        implicit: &[],
    },
    Row {
        args: "--eval-file {i:w.bin} book deepen {o} --depth 2",
        implicit: &[],
    },
    Row {
        args: "--eval-file {i:w.bin} nboard --book {o}",
        implicit: &[],
    },
    Row {
        args: "audit {i:g.ggf} --at 20 --json {o}",
        implicit: &[],
    },
];

/// The subcommands that write no file (nothing to alias), and the hidden test engine.
const READ_ONLY: &[&str] = &[
    "perft",
    "completions",
    "search",
    "bench",
    "solve",
    "quality",
    "eval-error",
    "gtp",
    "fake-engine",
    // The board server reads no file (its page is embedded) and writes none (downloads are
    // the browser's).
    "serve",
    "games stats",
    "book stats",
    "book show",
    "book evaluate",
    "book deviate",
];

/// How an output names its target.
#[derive(Clone, Copy, Debug)]
enum Alias {
    Same,
    HardLink,
    SymLink,
    DotDot,
}

const ALIASES: [Alias; 4] = [Alias::Same, Alias::HardLink, Alias::SymLink, Alias::DotDot];

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_othello")
}

/// The content of input `name` (the openings file must parse: it is read with the options).
fn content(name: &str, k: usize) -> Vec<u8> {
    if name == "op.txt" {
        return b"f5d6\nf5f6\n".to_vec();
    }
    format!("input {k}: {name}\n").into_bytes()
}

struct Case {
    dir: PathBuf,
    args: Vec<String>,
    /// Every file that must not change, with its bytes.
    kept: Vec<(PathBuf, Vec<u8>)>,
}

/// Lays out row `row` in a fresh directory with output `out` (of the row's outputs) aliasing
/// file `target` (an index into the inputs then the outputs before `out`) by `alias`.
fn lay_out(tag: &str, row: &Row, out: usize, target: usize, alias: Alias) -> Option<Case> {
    let dir = std::env::temp_dir().join(format!("othello-roles-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let mut inputs: Vec<String> = Vec::new();
    let mut outputs = 0;
    let mut words = Vec::new();
    for word in row.args.split(' ') {
        words.push(word.to_string());
        let mut rest = word;
        while let Some(start) = rest.find('{') {
            let end = rest[start..].find('}').unwrap() + start;
            let slot = &rest[start + 1..end];
            if let Some(name) = slot.strip_prefix("i:") {
                inputs.push(name.to_string());
            } else {
                outputs += 1;
            }
            rest = &rest[end + 1..];
        }
    }
    let mut candidates: Vec<String> = inputs.clone();
    candidates.extend(row.implicit.iter().map(|s| s.to_string()));
    let out = out % outputs;
    // Earlier outputs are targets too: they exist (with old content) for links to reach them.
    let earlier: Vec<String> = (0..out).map(|k| format!("out{k}.old")).collect();
    candidates.extend(earlier.iter().cloned());
    if candidates.is_empty() {
        return None;
    }
    let target = &candidates[target % candidates.len()];
    let mut kept = Vec::new();
    for (k, name) in candidates.iter().enumerate() {
        let bytes = content(name, k);
        std::fs::write(dir.join(name), &bytes).unwrap();
        kept.push((dir.join(name), bytes));
    }
    let alias_name = match alias {
        Alias::Same => target.clone(),
        Alias::HardLink => {
            std::fs::hard_link(dir.join(target), dir.join("hard.alias")).unwrap();
            "hard.alias".to_string()
        }
        Alias::SymLink => {
            std::os::unix::fs::symlink(target, dir.join("sym.alias")).unwrap();
            "sym.alias".to_string()
        }
        Alias::DotDot => format!("sub/../{target}"),
    };
    let mut k = 0;
    let args = words
        .iter()
        .map(|w| {
            let mut w = w.clone();
            while let Some(start) = w.find('{') {
                let end = w[start..].find('}').unwrap() + start;
                let slot = w[start + 1..end].to_string();
                let name = match slot.strip_prefix("i:") {
                    Some(name) => name.to_string(),
                    None => {
                        let name = if k == out {
                            alias_name.clone()
                        } else if k < out {
                            format!("out{k}.old")
                        } else {
                            format!("out{k}.new")
                        };
                        k += 1;
                        name
                    }
                };
                w.replace_range(start..=end, &name);
            }
            w
        })
        .collect();
    Some(Case { dir, args, kept })
}

/// Runs the case: the command must refuse (status 1, an error naming the alias and a file
/// it is), and every input must keep its bytes.
fn check(case: &Case) -> Result<(), String> {
    let output = Command::new(binary())
        .args(&case.args)
        .current_dir(&case.dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = format!("othello {}", case.args.join(" "));
    if output.status.code() != Some(1) {
        return Err(format!(
            "{line}: status {:?}, stderr {stderr}",
            output.status
        ));
    }
    if !(stderr.contains("error:") && stderr.contains("too;")) {
        return Err(format!("{line}: not refused as an alias: {stderr}"));
    }
    for (path, bytes) in &case.kept {
        let now = std::fs::read(path).unwrap_or_default();
        if &now != bytes {
            return Err(format!("{line}: {} changed", path.display()));
        }
    }
    let _ = std::fs::remove_dir_all(&case.dir);
    Ok(())
}

#[test]
fn every_row_refuses_every_alias_of_its_first_input() {
    for (r, row) in ROWS.iter().enumerate() {
        for (a, alias) in ALIASES.iter().enumerate() {
            // The last output against the first candidate file.
            let case = lay_out(&format!("all-{r}-{a}"), row, usize::MAX / 2, 0, *alias)
                .expect("every row has a file to alias");
            if let Err(e) = check(&case) {
                panic!("{alias:?}: {e}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_output_aliasing_any_file_of_its_command_is_refused(
        row in 0..ROWS.len(),
        out in 0usize..4,
        target in 0usize..16,
        alias in 0usize..4,
    ) {
        // A row whose first output has nothing before it to alias (match --ggf) has no case.
        let Some(case) = lay_out("prop", &ROWS[row], out, target, ALIASES[alias]) else {
            return Ok(());
        };
        if let Err(e) = check(&case) {
            prop_assert!(false, "{:?}: {}", ALIASES[alias], e);
        }
    }
}

/// The subcommands `othello GROUP --help` lists (`help` left out).
fn subcommands(group: &[&str]) -> Vec<String> {
    let mut args: Vec<&str> = group.to_vec();
    args.push("--help");
    let out = Command::new(binary()).args(&args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut names = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("Commands:") {
            inside = true;
            continue;
        }
        if inside {
            if !line.starts_with("  ") {
                break;
            }
            let name = line.split_whitespace().next().unwrap_or_default();
            if line.starts_with("   ") || name == "help" {
                continue; // a wrapped description
            }
            names.push(name.to_string());
        }
    }
    names
}

#[test]
fn every_subcommand_is_in_the_table_or_writes_nothing() {
    let covered = |name: &str| {
        READ_ONLY.contains(&name)
            || ROWS.iter().any(|r| {
                let words: Vec<&str> = r
                    .args
                    .split(' ')
                    .filter(|w| !w.starts_with('-') && !w.contains('{'))
                    .collect();
                words.join(" ").starts_with(name)
            })
    };
    let mut names = subcommands(&[]);
    assert!(names.len() > 10, "{names:?}");
    for group in ["games", "book"] {
        names.retain(|n| n != group);
        names.extend(
            subcommands(&[group])
                .into_iter()
                .map(|s| format!("{group} {s}")),
        );
    }
    for name in &names {
        assert!(
            covered(name),
            "`othello {name}` has no row in tests/file_roles.rs"
        );
    }
}

/// A fresh directory for one of the tests below.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-roles-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_in(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(binary())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn centre_checks_the_model_beside_its_output_before_the_work() {
    let dir = scratch("centre-mpc");
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/pattern-v1");
    std::fs::copy(format!("{weights}.bin"), dir.join("w.bin")).unwrap();
    std::fs::copy(format!("{weights}.mpc"), dir.join("w.mpc")).unwrap();
    // The model beside the output cannot be written: before, the weights were centred (a
    // minute) and written, then the model failed, leaving weights without their model.
    std::fs::create_dir(dir.join("o.mpc")).unwrap();
    let start = std::time::Instant::now();
    let (code, stderr) = run_in(&dir, &["centre", "w.bin", "--out", "o.bin"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("o.mpc"), "{stderr}");
    assert!(
        start.elapsed().as_secs() < 10,
        "refused only after the work"
    );
    assert!(!dir.join("o.bin").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn calibrate_checks_its_output_before_the_work() {
    let dir = scratch("calibrate-out");
    let (code, stderr) = run_in(
        &dir,
        &[
            "calibrate",
            "--samples",
            "s.txt",
            "--out",
            "no/m.txt",
            "--positions",
            "2",
            "--depth",
            "3",
        ],
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("no/m.txt") && stderr.contains("does not exist"),
        "{stderr}"
    );
    assert!(
        !dir.join("s.txt").exists(),
        "samples measured before the output was checked"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_write_protected_output_is_refused_and_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("readonly");
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wthor/WTH_1977.pgn");
    std::fs::write(dir.join("ro.ggf"), b"keep").unwrap();
    std::fs::set_permissions(dir.join("ro.ggf"), std::fs::Permissions::from_mode(0o444)).unwrap();
    let (code, stderr) = run_in(&dir, &["games", "convert", games, "--out", "ro.ggf"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("ro.ggf: is write-protected (mode 444)"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(dir.join("ro.ggf")).unwrap(), b"keep");
    let _ = std::fs::remove_dir_all(&dir);
}
