//! The one policy for every file the program reads or writes.
//!
//! Every path a user or a GUI gives (`set book`, `--eval-file`, `games convert`, `--out`, ...)
//! may name something that is not an ordinary file: a FIFO, which blocks a reader forever; a
//! device such as `/dev/zero`, which never ends; `/proc/self/fd/0`, the program's own standard
//! input; a directory; a symbolic link, a dangling one or a loop. This module is the only place
//! that opens such paths, so the rules hold everywhere:
//!
//! **Readers** ([`read`], [`read_to_string`], [`read_if_exists`], [`open`]) open only regular
//! files. The path's metadata is checked first (following symbolic links), the file is then
//! opened non-blocking (so a FIFO swapped in after the check cannot block the open), and the
//! open handle's metadata is checked again. Every reader takes a size cap suited to its format
//! and stops at it, so a file that grows while it is read cannot eat memory either. Every error
//! names the file ([`FileError`]).
//!
//! **Writers** ([`write_atomically`], [`write_atomically_with`]) write a temporary file beside
//! the target (`.<name>.<pid>.<n>.tmp`, created exclusively, so no existing file or link is
//! opened by mistake), flush it to disk and rename it over the target. They refuse a target
//! that is not a regular file (a directory, a FIFO, a device: renaming over `/dev/null` would
//! replace it). A symbolic link is **followed**: the file it points to is written and the link
//! stays a link (a book reached through a link learns into the real book). A dangling link or a
//! link loop is refused, and so is a write-protected target (no write bit: the rename would
//! replace it silently). [`check_files`] is the one rule every command's files go through
//! before it starts working (the binary's table of them is `src/cli/roles.rs`): every output
//! is compared with every input and every other output, explicit or implicit, by file
//! identity (device and inode after following links, or, for a name where nothing is yet, its
//! directory's and the name; canonical paths where there are no inodes), and refused with a
//! message naming both; [`check_output`] is the same for one output. The temporary file is removed when the write fails, and, once the binary has called
//! [`remove_temporaries_on_interrupt`], when the process is interrupted (SIGINT, SIGTERM,
//! SIGHUP).
//!
//! **Files updated in place** (a book's journal, training data appended to) go through
//! [`open_for_update`], which applies the same rules to the existing file.
//!
//! The idea is the usual one of careful Unix tools (GNU `sort -o`, `sponge`, editors' safe
//! save): never trust a name to be what its extension says, and never truncate or replace
//! what might not be ours.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

/// One mebibyte, for the size caps.
pub const MIB: u64 = 1 << 20;
/// The cap on an opening book file, its journal, or an Edax `.dat` book (about 33 million
/// positions; the built-in book is 1.6 MB).
pub const BOOK_MAX_BYTES: u64 = 1024 * MIB;
/// The cap on a game database file (a WTHOR `.wtb`, PGN, GGF, transcript). The WTHOR base of
/// 138,077 games is 9 MB as `.wtb` and about 60 MB as PGN.
pub const GAMES_MAX_BYTES: u64 = 1024 * MIB;
/// The cap on a text file of positions or a small data file (OBF, book text, a Multi-ProbCut
/// model, samples).
pub const TEXT_MAX_BYTES: u64 = 256 * MIB;
/// The cap on a training data file (fixed-size records; the largest made so far is under
/// 1 GB).
pub const DATA_MAX_BYTES: u64 = 16 * 1024 * MIB;

/// A file could not be read or written; the message names it.
#[derive(Debug, Error)]
#[error("{}: {source}", path.display())]
pub struct FileError {
    /// The file, as the caller named it.
    pub path: PathBuf,
    /// What went wrong.
    #[source]
    pub source: io::Error,
}

impl FileError {
    /// An error about `path`.
    pub fn new(path: &Path, source: io::Error) -> FileError {
        FileError {
            path: path.to_path_buf(),
            source,
        }
    }

    /// An error about `path` with a message of our own (kind `InvalidInput`).
    fn refused(path: &Path, message: String) -> FileError {
        FileError::new(path, io::Error::new(io::ErrorKind::InvalidInput, message))
    }

    /// Whether the file does not exist.
    pub fn is_not_found(&self) -> bool {
        self.source.kind() == io::ErrorKind::NotFound
    }
}

/// What kind of file `meta` describes, in words ("a directory", "a FIFO", ...).
fn kind(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_file() {
        return "a regular file";
    }
    if t.is_dir() {
        return "a directory";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Refuses anything but a regular file.
fn require_regular(path: &Path, meta: &Metadata) -> Result<(), FileError> {
    if meta.is_file() {
        Ok(())
    } else {
        Err(FileError::refused(
            path,
            format!(
                "not a regular file ({}); only regular files are read or written",
                kind(meta)
            ),
        ))
    }
}

/// Opens `path` with `options`, non-blocking where the platform allows it (a FIFO swapped in
/// after the metadata check then cannot block the open; on a regular file the flag changes
/// nothing).
fn open_with(path: &Path, options: &mut OpenOptions) -> Result<File, FileError> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| FileError::new(path, e))?;
    let meta = file.metadata().map_err(|e| FileError::new(path, e))?;
    require_regular(path, &meta)?;
    Ok(file)
}

/// Opens the regular file at `path` for reading. Anything else (a FIFO, a device, a directory,
/// a dangling link or a link loop) is an error naming the file, found without blocking.
pub fn open(path: &Path) -> Result<File, FileError> {
    let meta = std::fs::metadata(path).map_err(|e| FileError::new(path, e))?;
    require_regular(path, &meta)?;
    open_with(path, OpenOptions::new().read(true))
}

/// How `max_bytes` reads in an error message.
fn size_words(max_bytes: u64) -> String {
    if max_bytes >= MIB && max_bytes.is_multiple_of(MIB) {
        format!("{} MiB", max_bytes / MIB)
    } else {
        format!("{max_bytes} bytes")
    }
}

/// The error for a file over its cap.
fn too_large(path: &Path, max_bytes: u64) -> FileError {
    FileError::refused(
        path,
        format!(
            "larger than {}, the most this kind of file may hold",
            size_words(max_bytes)
        ),
    )
}

/// Reads the regular file at `path` whole, refusing one of more than `max_bytes` bytes (even
/// one that grows while it is read).
pub fn read(path: &Path, max_bytes: u64) -> Result<Vec<u8>, FileError> {
    let file = open(path)?;
    let len = file.metadata().map_err(|e| FileError::new(path, e))?.len();
    if len > max_bytes {
        return Err(too_large(path, max_bytes));
    }
    let mut bytes = Vec::new();
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::new(path, e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large(path, max_bytes));
    }
    Ok(bytes)
}

/// [`read`] as UTF-8 text (invalid UTF-8 is an error naming the file).
pub fn read_to_string(path: &Path, max_bytes: u64) -> Result<String, FileError> {
    String::from_utf8(read(path, max_bytes)?).map_err(|_| {
        FileError::new(
            path,
            io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"),
        )
    })
}

/// [`read`], but a path where nothing exists is `Ok(None)`. A dangling link or a link loop is
/// an error, not "absent": something is there that a writer would refuse.
pub fn read_if_exists(path: &Path, max_bytes: u64) -> Result<Option<Vec<u8>>, FileError> {
    if !exists(path)? {
        return Ok(None);
    }
    read(path, max_bytes).map(Some)
}

/// Whether anything is at `path`, a dangling link or a link loop included (unlike
/// [`Path::exists`], which says `false` for both). Errors other than "not found" (a directory
/// that cannot be searched) are returned.
pub fn exists(path: &Path) -> Result<bool, FileError> {
    match std::fs::symlink_metadata(path) {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(FileError::new(path, e)),
    }
}

/// The file a write to `path` must replace: `path` itself, or the file a symbolic link at
/// `path` points to (followed through every link). Refuses a target that exists and is not a
/// regular file, a dangling link and a link loop. `Ok((target, None))` if nothing is there yet.
fn resolve_output(path: &Path) -> Result<(PathBuf, Option<Metadata>), FileError> {
    if path.file_name().is_none() {
        return Err(FileError::refused(path, "not a file name".into()));
    }
    let link = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((path.to_path_buf(), None)),
        Err(e) => return Err(FileError::new(path, e)),
    };
    if !link.file_type().is_symlink() {
        require_regular(path, &link)?;
        return Ok((path.to_path_buf(), Some(link)));
    }
    let target = std::fs::canonicalize(path).map_err(|e| {
        let why = if e.kind() == io::ErrorKind::NotFound {
            "a symbolic link to nothing (a dangling link); it is not followed".to_string()
        } else {
            format!("a symbolic link that cannot be followed ({e})")
        };
        FileError::refused(path, why)
    })?;
    let meta = std::fs::metadata(&target).map_err(|e| FileError::new(path, e))?;
    require_regular(path, &meta)?;
    Ok((target, Some(meta)))
}

/// What a command does with a file, for [`check_files`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Read only.
    Input,
    /// Written whole (replaced atomically).
    Output,
    /// Read and written in place (a data file appended to, a book and its journal).
    Update,
}

impl Role {
    fn word(self) -> &'static str {
        match self {
            Role::Input => "input",
            Role::Output => "output",
            Role::Update => "file updated",
        }
    }
}

/// One file a command reads or writes: its role, the path as given, and what it is (the
/// option or argument that names it, or why it is read: `WTHOR.JOU beside x.wtb`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileUse {
    /// Read, written or both.
    pub role: Role,
    /// The path, as the user gave it (or as the command derives it).
    pub path: PathBuf,
    /// What the file is to the command (for messages), e.g. `--out`.
    pub what: String,
}

impl FileUse {
    /// A file read.
    pub fn input(path: impl Into<PathBuf>, what: impl Into<String>) -> FileUse {
        FileUse {
            role: Role::Input,
            path: path.into(),
            what: what.into(),
        }
    }

    /// A file written whole.
    pub fn output(path: impl Into<PathBuf>, what: impl Into<String>) -> FileUse {
        FileUse {
            role: Role::Output,
            path: path.into(),
            what: what.into(),
        }
    }

    /// A file read and written in place.
    pub fn update(path: impl Into<PathBuf>, what: impl Into<String>) -> FileUse {
        FileUse {
            role: Role::Update,
            path: path.into(),
            what: what.into(),
        }
    }
}

/// What a path names, to tell whether two paths are the same file: on Unix the device and
/// inode of the file (after following every link), or, for a path where nothing is yet, those
/// of its directory and the name it would have there; elsewhere the canonical path.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Identity {
    #[cfg(unix)]
    File(u64, u64),
    #[cfg(unix)]
    New(u64, u64, std::ffi::OsString),
    #[cfg(not(unix))]
    Path(PathBuf),
}

/// The identity of the file at `path` (see [`Identity`]); `None` when it cannot be known (a
/// dangling link, a directory that cannot be searched): such paths are refused elsewhere.
fn identity(path: &Path) -> Option<Identity> {
    match std::fs::metadata(path) {
        Ok(meta) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                Some(Identity::File(meta.dev(), meta.ino()))
            }
            #[cfg(not(unix))]
            {
                let _ = meta;
                std::fs::canonicalize(path).ok().map(Identity::Path)
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if std::fs::symlink_metadata(path).is_ok() {
                return None; // a dangling link
            }
            let name = path.file_name()?.to_os_string();
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                let meta = std::fs::metadata(dir).ok()?;
                Some(Identity::New(meta.dev(), meta.ino(), name))
            }
            #[cfg(not(unix))]
            {
                std::fs::canonicalize(dir)
                    .ok()
                    .map(|d| Identity::Path(d.join(name)))
            }
        }
        Err(_) => None,
    }
}

/// Refuses a write-protected target (no write permission bit): renaming over it would replace
/// it silently, whoever runs the program.
fn require_writable(path: &Path, meta: &Metadata) -> Result<(), FileError> {
    if !meta.permissions().readonly() {
        return Ok(());
    }
    #[cfg(unix)]
    let mode = {
        use std::os::unix::fs::PermissionsExt;
        format!(" (mode {:03o})", meta.permissions().mode() & 0o7777)
    };
    #[cfg(not(unix))]
    let mode = String::new();
    Err(FileError::refused(
        path,
        format!("is write-protected{mode}; it is not replaced"),
    ))
}

/// The one rule for the files of a command, checked before it does any work: every file it
/// writes (an [`Role::Output`] or [`Role::Update`]) can be written (a regular file or nothing
/// there, not write-protected, in a directory that takes a new file) and is not the same file
/// as any other file of the command, input or output, explicit or implicit, under any name
/// (a hard link, a symbolic link, `dir/../name`). The error names both files.
pub fn check_files(uses: &[FileUse]) -> Result<(), FileError> {
    let ids: Vec<Option<Identity>> = uses.iter().map(|u| identity(&u.path)).collect();
    for (i, used) in uses.iter().enumerate() {
        if used.role == Role::Input {
            continue;
        }
        let path = &used.path;
        let (target, meta) = resolve_output(path)?;
        if let Some(meta) = &meta {
            require_writable(path, meta)?;
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if dir.is_dir() {
            if meta.is_none() || used.role == Role::Output {
                drop(Temporary::create(&target, None).map_err(|e| FileError::new(path, e))?);
            }
        } else if used.role == Role::Output {
            return Err(FileError::refused(
                path,
                format!("its directory {} does not exist", dir.display()),
            ));
        }
        let Some(id) = &ids[i] else { continue };
        for (j, other) in uses.iter().enumerate() {
            if j == i || ids[j].as_ref() != Some(id) {
                continue;
            }
            let what = if other.what.is_empty() {
                String::new()
            } else {
                format!(" ({})", other.what)
            };
            let message = match other.role {
                Role::Input => format!(
                    "is the input {}{what} too; writing it would destroy the input",
                    other.path.display()
                ),
                role => format!(
                    "is the {} {}{what} too; one would overwrite the other",
                    role.word(),
                    other.path.display()
                ),
            };
            return Err(FileError::refused(path, message));
        }
    }
    Ok(())
}

/// Checks that `output` can be written by [`write_atomically`] (nothing there, a regular file,
/// or a link to one, not write-protected; its directory exists and takes a new file: a
/// temporary file is created there and removed) and that it is not the same file as any of
/// `inputs` (which would be destroyed). Commands call it before they start working, so a bad
/// output path costs nothing. [`check_files`] is the general rule.
pub fn check_output(output: &Path, inputs: &[&Path]) -> Result<(), FileError> {
    let mut uses = vec![FileUse::output(output, "")];
    uses.extend(inputs.iter().map(|p| FileUse::input(*p, "")));
    check_files(&uses)
}

/// Writes `bytes` to `path` atomically (see the module documentation).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_atomically_with(path, |w| w.write_all(bytes))
}

/// The counter that makes temporary names unique within the process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A temporary file being written: removed when dropped unless renamed into place.
struct Temporary {
    path: PathBuf,
    slot: Option<usize>,
    done: bool,
}

impl Temporary {
    /// Creates a new temporary file beside `target`, with the permissions of `like` if given.
    fn create(target: &Path, like: Option<&Metadata>) -> io::Result<(Temporary, File)> {
        let name = target.file_name().unwrap_or_default().to_string_lossy();
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = target.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()));
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        let slot = interrupt::register(&path);
        let temporary = Temporary {
            path,
            slot,
            done: false,
        };
        if let Some(meta) = like {
            file.set_permissions(meta.permissions())?;
        }
        Ok((temporary, file))
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            interrupt::unregister(slot);
        }
        if !self.done {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Like [`write_atomically`], the content written by `write` through a buffered writer (for
/// outputs too large to build in memory first). Errors name `path`, the target as given.
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), FileError> {
    let (target, meta) = resolve_output(path)?;
    if let Some(meta) = &meta {
        require_writable(path, meta)?;
    }
    let io = |e| FileError::new(path, e);
    let (mut temporary, file) = Temporary::create(&target, meta.as_ref()).map_err(io)?;
    let mut out = io::BufWriter::new(file);
    write(&mut out).map_err(io)?;
    let file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)?;
    drop(file);
    std::fs::rename(&temporary.path, &target).map_err(io)?;
    temporary.done = true;
    Ok(())
}

/// Opens the file at `path` for writing in place (appending to it or rewriting part of it),
/// creating it if nothing is there and `create` is set. The same rules as for
/// [`write_atomically`]: only a regular file (or a link to one) is opened, never a FIFO, a
/// device or a directory, and a dangling link or a link loop is refused.
pub fn open_for_update(path: &Path, create: bool, truncate: bool) -> Result<File, FileError> {
    let (target, meta) = resolve_output(path)?;
    if let Some(meta) = &meta {
        require_writable(path, meta)?;
    }
    if meta.is_none() && !create {
        return Err(FileError::new(
            path,
            io::Error::new(io::ErrorKind::NotFound, "no such file"),
        ));
    }
    let mut options = OpenOptions::new();
    options
        .read(true)
        .write(true)
        .create(create)
        .truncate(truncate);
    open_with(&target, &mut options).map_err(|e| FileError::new(path, e.source))
}

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the temporary files being
/// written, then let the signal end the process as it would have. Signals the process ignores
/// (a job started with `nohup`) stay ignored. For the binary to call once at start-up: the
/// library never installs handlers by itself. Does nothing where it is not supported.
pub fn remove_temporaries_on_interrupt() {
    interrupt::install();
}

/// The registry of temporary files for the signal handler: fixed slots of pointers to
/// NUL-terminated paths, read with atomic loads only (which a signal handler may do). A path
/// is leaked when its slot is released, since a handler on another thread may still hold it;
/// it is a few dozen bytes per write.
#[cfg(target_os = "linux")]
mod interrupt {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::atomic::{AtomicPtr, Ordering};

    /// Writes in progress at once that the handler can clean up (more are still removed on
    /// error, just not on a signal).
    const SLOTS: usize = 64;

    static PATHS: [AtomicPtr<libc::c_char>; SLOTS] =
        [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];

    /// Puts `path` in a free slot; `None` if every slot is taken.
    pub(super) fn register(path: &Path) -> Option<usize> {
        let c = CString::new(path.as_os_str().as_bytes()).ok()?.into_raw();
        for (i, slot) in PATHS.iter().enumerate() {
            if slot
                .compare_exchange(std::ptr::null_mut(), c, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                return Some(i);
            }
        }
        // No slot: free the copy now, nobody else has seen it.
        // SAFETY: `c` came from `CString::into_raw` just above and was never shared.
        drop(unsafe { CString::from_raw(c) });
        None
    }

    /// Empties slot `i` (the path is leaked, see the module docs).
    pub(super) fn unregister(i: usize) {
        PATHS[i].store(std::ptr::null_mut(), Ordering::Release);
    }

    /// Removes every registered temporary file (what the handler does; async-signal-safe:
    /// atomic loads and `unlink` only).
    pub(super) fn remove_all() {
        for slot in &PATHS {
            let p = slot.load(Ordering::Acquire);
            if !p.is_null() {
                // SAFETY: a registered pointer is a NUL-terminated string that is never freed.
                unsafe {
                    libc::unlink(p);
                }
            }
        }
    }

    /// The registered paths (for tests).
    #[cfg(test)]
    pub(super) fn registered() -> Vec<String> {
        PATHS
            .iter()
            .map(|slot| slot.load(Ordering::Acquire))
            .filter(|p| !p.is_null())
            // SAFETY: registered pointers are NUL-terminated strings that are never freed.
            .map(|p| {
                unsafe { std::ffi::CStr::from_ptr(p) }
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    }

    extern "C" fn handler(signal: libc::c_int) {
        remove_all();
        // SAFETY: `signal` and `raise` are async-signal-safe; the default action then ends the
        // process as the signal would have without this handler.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }

    pub(super) fn install() {
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: plain sigaction calls; the handler only does async-signal-safe work.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                    || old.sa_sigaction == libc::SIG_IGN
                {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = handler as extern "C" fn(libc::c_int) as usize;
                libc::sigemptyset(&mut action.sa_mask);
                action.sa_flags = libc::SA_RESTART;
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }
}

/// Elsewhere nothing is registered: temporary files are still removed on errors.
#[cfg(not(target_os = "linux"))]
mod interrupt {
    use std::path::Path;

    pub(super) fn register(_: &Path) -> Option<usize> {
        None
    }

    pub(super) fn unregister(_: usize) {}

    pub(super) fn install() {}
}

#[cfg(test)]
mod tests;
