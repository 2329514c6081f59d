//! Architecture checks, for what Cargo cannot say: the library's top-level modules form no
//! import cycle (across the workspace's crates too), the core crate reads no file, starts no
//! process and no thread outside the parallel search, and depends only on the crates its rules
//! allow; only the binary prints; `src/main.rs` stays thin and no source file grows past the
//! size a reader can hold. Which crate may depend on which is the crates' own `Cargo.toml`:
//! the compiler refuses the rest.
//!
//! The module graph is built from the source text: every `crate::<top>` path (in `use` lines,
//! `crate::{a, b::c}` groups and paths in code), every `othello_<crate>::<top>` path, and every
//! `super::` path that climbs out of a top-level module is an edge from the file's top-level
//! module to `<top>` (module names are unique across the crates, and each crate imports the
//! modules of the crates below it at its root). Comments and string literals are skipped, and
//! `super::` is resolved against the file's module path plus the inline `mod name { .. }`
//! blocks it appears in. The binary (`src/main.rs`, `src/cli/`) is not part of the library
//! and is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Most lines `src/main.rs` may have.
const MAIN_MAX_LINES: usize = 150;
/// Most lines any file under `src/` may have.
const FILE_MAX_LINES: usize = 800;

/// Every `.rs` file below `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The module path of a library file relative to `src/`: `search/endgame.rs` is
/// `[search, endgame]`, `search/mod.rs` is `[search]`, `lib.rs` is `[]`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// `source` with comments, string and character literals replaced by spaces (lines kept).
fn code_only(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let blank = |out: &mut String, s: &[u8]| {
        for &b in s {
            out.push(if b == b'\n' { '\n' } else { ' ' });
        }
    };
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            // Block comments nest in Rust.
            let (mut depth, mut j) = (0usize, 0);
            while j < rest.len() {
                if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &rest[..j]);
            i += j;
        } else if rest[0] == b'r'
            && (rest.starts_with(b"r\"") || rest.starts_with(b"r#"))
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
        {
            // A raw string r#"..."#.
            let hashes = rest[1..].iter().take_while(|&&b| b == b'#').count();
            if rest.get(1 + hashes) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let body = 2 + hashes;
            let end = rest[body..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(rest.len(), |p| body + p + close.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{..}'), or a lifetime (left as it is).
            let end = if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&b| b == b'\'').map(|p| p + 3)
            } else {
                let ch_len = source[i + 1..].chars().next().map_or(1, char::len_utf8);
                (rest.get(1 + ch_len) == Some(&b'\'')).then_some(2 + ch_len)
            };
            match end {
                Some(end) => {
                    blank(&mut out, &rest[..end]);
                    i += end;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let ch = source[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The identifier at the start of `s` (after spaces).
fn ident(s: &str) -> &str {
    let s = s.trim_start();
    let end = s.bytes().position(|b| !is_ident(b)).unwrap_or(s.len());
    &s[..end]
}

/// The first segments of a path that continues after `crate::` or a resolved `super::`: one
/// identifier, or the top-level names of a `{a, b::c, self}` group.
fn first_segments(rest: &str) -> Vec<String> {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let mut names = Vec::new();
        let (mut depth, mut start) = (0i32, 0);
        for (k, b) in group.bytes().enumerate() {
            match b {
                b'{' => depth += 1,
                b'}' if depth == 0 => {
                    names.push(ident(&group[start..k]).to_string());
                    break;
                }
                b'}' => depth -= 1,
                b',' if depth == 0 => {
                    names.push(ident(&group[start..k]).to_string());
                    start = k + 1;
                }
                _ => {}
            }
        }
        names.retain(|n| !n.is_empty());
        names
    } else {
        vec![ident(rest).to_string()]
    }
}

/// The top-level modules that a library file at `module` (its module path) refers to.
fn references(module: &[String], source: &str) -> BTreeSet<String> {
    let code = code_only(source);
    let bytes = code.as_bytes();
    let mut found = BTreeSet::new();
    // Inline modules open at some brace depth: (depth inside the block, name).
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let at_word = i == 0 || !is_ident(bytes[i - 1]);
        let rest = &code[i..];
        match bytes[i] {
            b'{' => {
                depth += 1;
                i += 1;
                continue;
            }
            b'}' => {
                if inline.last().is_some_and(|(d, _)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
                continue;
            }
            _ => {}
        }
        if at_word && rest.starts_with("mod ") {
            let name = ident(&rest[4..]);
            let after = rest[4..].trim_start()[name.len()..].trim_start();
            if after.starts_with('{') {
                inline.push((depth + 1, name.to_string()));
            }
        }
        let dollar = i > 0 && bytes[i - 1] == b'$';
        if (at_word || dollar) && rest.starts_with("crate::") {
            found.extend(first_segments(&rest["crate::".len()..]));
            i += "crate::".len();
            continue;
        }
        if at_word && rest.starts_with("super::") {
            let mut path: Vec<String> = module.to_vec();
            path.extend(inline.iter().map(|(_, n)| n.clone()));
            let mut tail = rest;
            while let Some(t) = tail.strip_prefix("super::") {
                path.pop();
                tail = t.trim_start();
            }
            if path.is_empty() {
                found.extend(first_segments(tail));
            } else {
                found.insert(path[0].clone());
            }
            i += rest.len() - tail.len();
            continue;
        }
        i += 1;
    }
    found.retain(|n| !n.is_empty() && n != "self");
    found
}

/// The graph of the library: top-level module -> the top-level modules it uses, over the
/// source folders `srcs` (the crates' `src/`).
fn library_graph(srcs: &[PathBuf]) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (src, file) in srcs
        .iter()
        .flat_map(|src| rust_files(src).into_iter().map(move |f| (src, f)))
    {
        let relative = file.strip_prefix(src).unwrap();
        if relative == Path::new("main.rs") || relative.starts_with("cli") {
            continue; // the binary
        }
        let module = module_path(relative);
        let Some(top) = module.first().cloned() else {
            continue; // lib.rs declares the modules, it does not use them
        };
        let source = fs::read_to_string(&file).unwrap();
        let source = crate_paths_as_crate(&source);
        let entry = graph.entry(top.clone()).or_default();
        entry.extend(
            references(&module, &source)
                .into_iter()
                .filter(|t| *t != top),
        );
    }
    graph
}

/// A cycle of `graph` (its nodes in order, the first repeated at the end), if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(node.to_string(), Mark::Open);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match marks.get(next.as_str()).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let start = stack.iter().position(|n| n == next).unwrap();
                    let mut cycle = stack[start..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(cycle) = visit(next, graph, marks, stack) {
                        return Some(cycle);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(node.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in graph.keys() {
        if marks.get(node).copied().unwrap_or(Mark::New) == Mark::New {
            if let Some(cycle) = visit(node, graph, &mut marks, &mut Vec::new()) {
                return Some(cycle);
            }
        }
    }
    None
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The workspace's library crates, lowest layer first.
const CRATES: [&str; 6] = ["core", "engine", "tools", "train", "nnue", "web"];

/// The layers among them, whose module names are unique (the network trainer and the
/// WebAssembly bindings, leaves that nothing depends on, stay out of the module graph: the
/// trainer has its own `eval` and `train`).
const LAYERS: usize = 4;

/// The `src/` folders of the layers' crates.
fn layer_srcs() -> Vec<PathBuf> {
    crate_srcs().into_iter().take(LAYERS).collect()
}

/// The `src/` folders of the library crates.
fn crate_srcs() -> Vec<PathBuf> {
    CRATES
        .iter()
        .map(|c| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("crates")
                .join(c)
                .join("src")
        })
        .collect()
}

/// Every source folder: the binary's and the crates'.
fn all_srcs() -> Vec<PathBuf> {
    let mut all = vec![src_dir()];
    all.extend(crate_srcs());
    all
}

/// `source` with the paths into another workspace crate (`othello_core::board`) written as
/// paths into this one (`crate::board`): module names are unique across the crates.
fn crate_paths_as_crate(source: &str) -> String {
    let mut out = source.to_string();
    for c in CRATES {
        out = out.replace(&format!("othello_{c}::"), "crate::");
    }
    out
}

fn line_count(path: &Path) -> usize {
    fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .count()
}

#[test]
fn top_level_modules_form_no_cycle() {
    let graph = library_graph(&layer_srcs());
    // The graph is really read: known edges are there.
    for (from, to) in [
        ("board", "bitboard"),
        ("search", "eval"),
        ("arena", "players"),
        ("weights", "files"),
        ("learn", "search"),
    ] {
        assert!(
            graph.get(from).is_some_and(|s| s.contains(to)),
            "expected the edge {from} -> {to} in {graph:#?}"
        );
    }
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "import cycle between top-level modules: {}\nthe graph: {graph:#?}",
            cycle.join(" -> ")
        );
    }
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let graph = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
        }
        g
    };
    assert_eq!(
        find_cycle(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])),
        None
    );
    let cycle = find_cycle(&graph(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])).unwrap();
    assert_eq!(cycle, ["a", "b", "c", "a"]);
}

#[test]
fn references_resolve_crate_groups_super_and_inline_modules() {
    let module = |p: &str| module_path(Path::new(p));
    let source = r#"
        //! Uses crate::commented in a comment only.
        use crate::{board::Board, search::{Limits, Searcher}, self};
        use super::sibling;
        const S: &str = "crate::in_a_string";
        fn f() -> crate::square::Square { let _c = '{'; todo!() }
        #[cfg(test)]
        mod tests {
            use super::*;
            use super::super::super::game::Game;
        }
    "#;
    let found = references(&module("arena/referee.rs"), source);
    let expected: BTreeSet<String> = ["arena", "board", "game", "search", "square"]
        .map(String::from)
        .into();
    assert_eq!(found, expected);
    // At the top level, `super::` reaches the crate root.
    let found = references(&module("play.rs"), "use super::players::Player;");
    assert_eq!(found, BTreeSet::from(["players".to_string()]));
    assert_eq!(module("search/mod.rs"), ["search"]);
}

#[test]
fn main_is_thin() {
    let lines = line_count(&src_dir().join("main.rs"));
    assert!(
        lines < MAIN_MAX_LINES,
        "src/main.rs has {lines} lines (at most {} allowed)",
        MAIN_MAX_LINES - 1
    );
}

#[test]
fn no_source_file_is_too_long() {
    let files: Vec<PathBuf> = all_srcs().iter().flat_map(|d| rust_files(d)).collect();
    assert!(files.len() > 20, "too few files found: {files:?}");
    let long: Vec<String> = files
        .iter()
        .map(|f| (f, line_count(f)))
        .filter(|&(_, n)| n > FILE_MAX_LINES)
        .map(|(f, n)| format!("{}: {n} lines", f.display()))
        .collect();
    assert!(
        long.is_empty(),
        "files over {FILE_MAX_LINES} lines: {long:#?}"
    );
}

/// Whether `path` (below `src/`) is the binary's: `main.rs` and `cli/`.
fn is_binary(relative: &Path) -> bool {
    relative == Path::new("main.rs") || relative.starts_with("cli")
}

// The library never draws on the terminal and never prints: progress goes through
// `othello::progress`, search through `search::Observer`, diagnostics through `log`. Only the
// binary (`src/main.rs`, `src/cli/`) uses indicatif or prints. Unit tests (the code after a
// file's first `#[cfg(test)]`) may print.
#[test]
fn only_the_binary_draws_or_prints() {
    let src = src_dir();
    let mut offenders = Vec::new();
    for (dir, path) in all_srcs()
        .into_iter()
        .flat_map(|d| rust_files(&d).into_iter().map(move |f| (d.clone(), f)))
    {
        let relative = path.strip_prefix(&dir).unwrap();
        // The binary's own files, and a crate's binaries (`src/bin/`), may print.
        if (dir == src && is_binary(relative)) || relative.starts_with("bin") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let library = text.split("#[cfg(test)]").next().unwrap_or("");
        let code = code_only(library);
        for (n, line) in code.lines().enumerate() {
            for word in [
                "indicatif",
                "eprintln!",
                "eprint!",
                "println!",
                "print!",
                "dbg!",
            ] {
                let found = line.match_indices(word).any(|(i, _)| {
                    // `print!` must not match inside `eprint!` or `println!`.
                    !line[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                });
                if found {
                    offenders.push(format!("{}:{}: {word}", relative.display(), n + 1));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "the library prints: {offenders:#?}");
    // The check sees what it looks for: the binary does print.
    let main = code_only(&fs::read_to_string(src.join("main.rs")).unwrap());
    assert!(main.contains("eprintln!"));
}

/// The code of a library file before its unit tests (the first `#[cfg(test)]`), without
/// comments and strings.
fn library_code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    code_only(text.split("#[cfg(test)]").next().unwrap_or(""))
}

// The core builds for the browser: it reads no file (but, on Linux only, its own address-space
// limit and size from /proc/self before starting threads: search/headroom.rs), opens no
// socket, starts no process, reads no environment but its two tuning variables, and starts
// threads only in the parallel search (a one-thread search runs on the caller's thread) and,
// in native builds only, to decode the embedded network beside the pattern weights at
// start-up (eval/builtin.rs).
#[test]
fn the_core_touches_no_file_process_or_thread() {
    let core = crate_srcs()[0].clone();
    let mut offenders = Vec::new();
    let mut threads_seen = false;
    for path in rust_files(&core) {
        let relative = path.strip_prefix(&core).unwrap();
        let code = library_code(&path);
        for word in [
            "std::fs",
            "fs::",
            "File::",
            "std::net",
            "std::process",
            "stdin(",
            "stdout(",
            "stderr(",
            "std::env::args",
        ] {
            let proc_self = relative == Path::new("search/headroom.rs")
                && matches!(word, "std::fs" | "fs::")
                && code.contains("#[cfg(target_os");
            if code.contains(word) && !proc_self {
                offenders.push(format!("{}: {word}", relative.display()));
            }
        }
        if code.contains("thread::spawn") || code.contains("thread::scope") {
            if relative == Path::new("search/parallel.rs") {
                threads_seen = true;
            } else if relative != Path::new("eval/builtin.rs") {
                offenders.push(format!("{}: starts a thread", relative.display()));
            }
        }
    }
    assert!(offenders.is_empty(), "the core crate: {offenders:#?}");
    assert!(
        threads_seen,
        "the parallel search's threads were not found: is the check blind?"
    );
}

/// The `[dependencies]` (and target-specific dependencies) of a crate's `Cargo.toml`, by name.
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let mut deps = BTreeSet::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]"
                || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
            continue;
        }
        if in_deps && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.']).next().unwrap().trim();
            deps.insert(name.to_string());
        }
    }
    deps
}

// The layers, as docs/DEVELOPING.md's table gives them: what each crate may depend on.
#[test]
fn each_crate_depends_only_on_what_its_layer_allows() {
    let allowed: [(&str, &[&str]); 6] = [
        ("core", &["thiserror", "log", "libc", "web-time"]),
        (
            "engine",
            &["othello-core", "thiserror", "log", "libc", "fs4"],
        ),
        (
            "tools",
            &[
                "othello-core",
                "othello-engine",
                "thiserror",
                "log",
                "serde",
                "serde_json",
            ],
        ),
        (
            "train",
            &[
                "othello-core",
                "othello-engine",
                "othello-tools",
                "thiserror",
                "log",
            ],
        ),
        (
            "nnue",
            &[
                "othello-core",
                "othello-engine",
                "othello-train",
                "log",
                "env_logger",
            ],
        ),
        (
            "web",
            &[
                "othello-core",
                "othello-engine",
                "othello-tools",
                "serde_json",
                "wasm-bindgen",
            ],
        ),
    ];
    for (name, allowed) in allowed {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates")
            .join(name)
            .join("Cargo.toml");
        let deps = dependencies(&fs::read_to_string(&path).unwrap());
        assert!(
            deps.contains("log") || deps.contains("othello-core"),
            "{name}: the manifest was not read: {deps:?}"
        );
        let extra: Vec<&String> = deps
            .iter()
            .filter(|d| !allowed.contains(&d.as_str()))
            .collect();
        assert!(
            extra.is_empty(),
            "crate {name} depends on {extra:?}, outside its layer"
        );
    }
}
