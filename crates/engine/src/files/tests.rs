//! The file policy on special files made in a temporary directory: FIFOs, links, loops,
//! directories. Nothing here opens `/dev`.

use super::*;

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Makes a FIFO at `path`.
fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// The files left in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn reads_a_regular_file_and_refuses_a_fifo_without_blocking() {
    let dir = scratch("fifo");
    let file = dir.join("a.txt");
    std::fs::write(&file, b"hello").unwrap();
    assert_eq!(read(&file, 100).unwrap(), b"hello");
    let fifo = dir.join("pipe");
    mkfifo(&fifo);
    // Nobody writes to the FIFO: a reader that opened it would block here forever.
    let e = read(&fifo, 100).unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with(&fifo.display().to_string()), "{text}");
    assert!(text.contains("FIFO"), "{text}");
    // A link to the FIFO is the FIFO.
    let link = dir.join("link");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    assert!(read(&link, 100).unwrap_err().to_string().contains("FIFO"));
    // Also through the non-blocking open itself (the race the metadata check cannot close).
    let e = open_with(&fifo, OpenOptions::new().read(true)).unwrap_err();
    assert!(e.to_string().contains("FIFO"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn refuses_directories_loops_and_oversized_files_by_name() {
    let dir = scratch("kinds");
    let e = read(&dir, 100).unwrap_err();
    assert!(e.to_string().contains("a directory"), "{e}");
    let a = dir.join("loop-a");
    let b = dir.join("loop-b");
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let e = read(&a, 100).unwrap_err();
    assert!(e.to_string().starts_with(&a.display().to_string()), "{e}");
    // A loop exists: it is neither absent nor readable.
    assert!(exists(&a).unwrap());
    assert!(read_if_exists(&a, 100).is_err());
    assert!(read_if_exists(&dir.join("nothing"), 100).unwrap().is_none());
    let big = dir.join("big");
    std::fs::write(&big, vec![b'x'; 101]).unwrap();
    let e = read(&big, 100).unwrap_err();
    assert!(e.to_string().contains("larger than 100 bytes"), "{e}");
    assert_eq!(read(&big, 101).unwrap().len(), 101);
    let e = read_to_string(&big, 3 * MIB).map(|s| s.len()).unwrap();
    assert_eq!(e, 101);
    std::fs::write(&big, [0xff, 0xfe]).unwrap();
    assert!(read_to_string(&big, 100)
        .unwrap_err()
        .to_string()
        .contains("not UTF-8"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn writes_atomically_and_leaves_no_temporary_file() {
    let dir = scratch("write");
    let out = dir.join("out.txt");
    write_atomically(&out, b"one").unwrap();
    write_atomically(&out, b"two").unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), b"two");
    // A failing writer leaves the old file and no temporary file.
    let e = write_atomically_with(&out, |w| {
        w.write_all(b"half")?;
        Err(io::Error::other("interrupted"))
    })
    .unwrap_err();
    assert!(e.to_string().contains("interrupted"));
    assert_eq!(std::fs::read(&out).unwrap(), b"two");
    assert_eq!(listing(&dir), ["out.txt"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn refuses_to_replace_a_fifo_a_directory_or_a_dangling_link() {
    let dir = scratch("targets");
    let fifo = dir.join("pipe");
    mkfifo(&fifo);
    let e = write_atomically(&fifo, b"x").unwrap_err();
    assert!(e.to_string().contains("FIFO"), "{e}");
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    assert!(write_atomically(&sub, b"x")
        .unwrap_err()
        .to_string()
        .contains("directory"));
    let dangling = dir.join("dangling");
    std::os::unix::fs::symlink(dir.join("missing"), &dangling).unwrap();
    let e = write_atomically(&dangling, b"x").unwrap_err();
    assert!(e.to_string().contains("dangling"), "{e}");
    let a = dir.join("loop-a");
    let b = dir.join("loop-b");
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    assert!(write_atomically(&a, b"x").is_err());
    assert!(open_for_update(&fifo, true, false).is_err());
    assert!(open_for_update(&a, true, false).is_err());
    // Everything is still what it was: the FIFO a FIFO, the links links, nothing new.
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    assert!(std::fs::symlink_metadata(&dangling)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::symlink_metadata(&a)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        listing(&dir),
        ["dangling", "loop-a", "loop-b", "pipe", "sub"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_link_is_followed_and_stays_a_link() {
    let dir = scratch("follow");
    let real = dir.join("real.book");
    std::fs::write(&real, b"old").unwrap();
    let link = dir.join("link.book");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    write_atomically(&link, b"new").unwrap();
    assert_eq!(std::fs::read(&real).unwrap(), b"new");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(listing(&dir), ["link.book", "real.book"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = scratch("same");
    let input = dir.join("in.pgn");
    std::fs::write(&input, b"games").unwrap();
    let e = check_output(&input, &[&input]).unwrap_err();
    assert!(e.to_string().contains("is the input"), "{e}");
    // Also under another name: a hard link and a symbolic link.
    let hard = dir.join("hard.pgn");
    std::fs::hard_link(&input, &hard).unwrap();
    assert!(check_output(&hard, &[&input]).is_err());
    let soft = dir.join("soft.pgn");
    std::os::unix::fs::symlink(&input, &soft).unwrap();
    assert!(check_output(&input, &[&soft]).is_err());
    check_output(&dir.join("new.pgn"), &[&input]).unwrap();
    assert_eq!(std::fs::read(&input).unwrap(), b"games");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_files_compares_every_output_with_every_file_of_the_command() {
    let dir = scratch("roles");
    let input = dir.join("in.dat");
    std::fs::write(&input, b"data").unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    let dotted = dir.join("sub").join("..").join("in.dat");
    let e = check_files(&[
        FileUse::input(&input, "the data"),
        FileUse::output(&dotted, "--out"),
    ])
    .unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("is the input") && text.contains("in.dat (the data)"),
        "{e}"
    );
    // Two outputs that do not exist yet, under two spellings of one name.
    let a = dir.join("new.out");
    let b = dir.join("sub").join("..").join("new.out");
    let e =
        check_files(&[FileUse::output(&a, "--ggf"), FileUse::output(&b, "--json")]).unwrap_err();
    assert!(
        e.to_string().contains("one would overwrite the other"),
        "{e}"
    );
    // A file updated in place is not its own alias; an input beside it is.
    check_files(&[FileUse::update(&input, "--out")]).unwrap();
    assert!(check_files(&[
        FileUse::update(&input, "--out"),
        FileUse::input(&input, "a game file"),
    ])
    .is_err());
    // An output whose directory does not exist is refused before the work.
    let e = check_files(&[FileUse::output(dir.join("no/such/x"), "--out")]).unwrap_err();
    assert!(e.to_string().contains("does not exist"), "{e}");
    assert_eq!(std::fs::read(&input).unwrap(), b"data");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_write_protected_target_is_never_replaced() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("readonly");
    let target = dir.join("ro.txt");
    std::fs::write(&target, b"keep").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o444)).unwrap();
    let e = check_output(&target, &[]).unwrap_err();
    assert!(e.to_string().contains("write-protected (mode 444)"), "{e}");
    assert!(write_atomically(&target, b"new").is_err());
    assert!(open_for_update(&target, false, true).is_err());
    assert_eq!(std::fs::read(&target).unwrap(), b"keep");
    assert_eq!(listing(&dir), ["ro.txt"]);
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn the_interrupt_handler_sees_a_write_in_progress() {
    let dir = scratch("interrupt");
    let out = dir.join("out.bin");
    let mut seen = None;
    write_atomically_with(&out, |w| {
        w.write_all(b"partial")?;
        // Mid-write, the temporary file is registered for the handler to remove.
        let temp: Vec<String> = listing(&dir);
        assert_eq!(temp.len(), 1, "{temp:?}");
        let registered = interrupt::registered();
        seen = registered
            .into_iter()
            .find(|p| p.ends_with(&temp[0]))
            .map(PathBuf::from);
        Ok(())
    })
    .unwrap();
    let seen = seen.expect("the temporary file is registered");
    assert!(seen.starts_with(&dir));
    // Once renamed, it is no longer registered.
    assert!(!interrupt::registered().contains(&seen.display().to_string()));
    std::fs::remove_dir_all(&dir).unwrap();
}
