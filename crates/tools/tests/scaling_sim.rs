//! `scaling-sim` end to end: it solves, records and simulates, and one simulated processor is
//! the serial search in every model.

use std::process::Command;

fn sim(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_scaling-sim"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("scaling-sim runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn one_processor_is_the_serial_search_and_more_are_faster() {
    let (ok, out, err) = sim(&["tests/data/fforum-40-59.obf", "--count", "1"]);
    assert!(ok, "{err}");
    // FFO #40: its published value.
    assert!(out.contains("Exact(38)"), "{out}");
    let table = out
        .split_once("whole solve")
        .unwrap_or_else(|| panic!("no speed-up table:\n{out}"))
        .1;
    let row = |p: &str| -> Vec<f64> {
        let line = table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(p))
            .unwrap_or_else(|| panic!("no row for P={p}:\n{out}"));
        line.split_whitespace()
            .filter_map(|w| w.strip_suffix('x'))
            .map(|w| w.parse().unwrap())
            .collect()
    };
    let one = row("1");
    assert_eq!(one.len(), 5, "{out}");
    assert!(one.iter().all(|&s| s == 1.0), "{one:?}");
    let two = row("2");
    assert!(two[0] > 1.2 && two[0] <= 2.2, "{two:?}");
}

#[test]
fn bad_arguments_are_named() {
    let (ok, _, err) = sim(&["no/such/file.obf"]);
    assert!(!ok && err.contains("no/such/file.obf"), "{err}");
    // Not a regular file: refused before any read, so no hang on a device.
    let (ok, _, err) = sim(&["/dev/zero"]);
    assert!(
        !ok && err.contains("/dev/zero: not a regular file"),
        "{err}"
    );
    let (ok, _, err) = sim(&["tests/data/fforum-1-19.obf", "--count", "x"]);
    assert!(!ok && err.contains("--count x"), "{err}");
    let (ok, _, err) = sim(&["tests/data/fforum-1-19.obf", "--skip", "99"]);
    assert!(!ok && err.contains("no position"), "{err}");
}
