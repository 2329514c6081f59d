//! Helpers of the tests that run this crate's binaries.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh, empty scratch directory for test `name` of binary `tool`.
pub fn dir(tool: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("{tool}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the binary `exe` with `args`: whether it succeeded, and its standard error.
pub fn run(exe: &str, args: &[&Path]) -> (bool, String) {
    let out = Command::new(exe).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
