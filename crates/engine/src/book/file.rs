//! The book's binary file and its journal.
//!
//! # The book file (little-endian)
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `OthBook1` |
//! | 8 | 2 | format version = 1 |
//! | 10 | 2 | record size = 32 |
//! | 12 | 1 | leaf search depth of the book (what `learn` and `evaluate` use) |
//! | 13 | 3 | reserved (0) |
//! | 16 | 8 | source fingerprint (what a build was made from; 0 for none) |
//! | 24 | 8 | record count N |
//! | 32 | 8 | checksum: 64-bit FNV-1a of the N records |
//! | 40 | 32·N | records, sorted by (player, opponent) |
//!
//! A record ([`RECORD_LEN`] bytes): the canonical board's player and opponent discs (`u64`
//! each), games (`u32`), the negamaxed value (`i16`, centi-discs), its depth (`u8`), value
//! flags (`u8`: bit 0 exact, bit 1 known), the leaf's value (`i16`), its move (`u8`: 0-63 a
//! square, a1 = 0 and h8 = 63, 64 pass, 254 closed, 255 pending), its depth (`u8`), its flags
//! (`u8`: bit 0 exact) and three reserved bytes.
//!
//! A book file is written whole to a temporary file beside it, flushed to disk and renamed
//! over the old one ([`save`]), so a crash at any moment leaves either the old or the new book.
//!
//! # The journal
//!
//! A long job (building, deviating, learning) records every position it changes in
//! `BOOK.journal` as soon as it is computed: a 16-byte header (magic `OthBkJn1`, then the
//! checksum of the book file it extends) and 40-byte entries (a record as above plus the
//! FNV-1a checksum of its 32 bytes). [`open`] loads the book and replays the journal onto it,
//! stopping at the first torn or corrupt entry, so a killed job loses at most the position it
//! was writing. [`Journal::compact`] saves the book and starts an empty journal for it; a
//! journal whose header names another book file (a crash between the two steps) is ignored,
//! since the book file already holds its entries.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::board::{Board, Move};
use crate::eval::pattern::file::Fnv1a64;
use crate::square::Square;

use super::{Book, Entry, Leaf, LeafState};

/// The book file's magic bytes.
pub const MAGIC: &[u8; 8] = b"OthBook1";
/// The journal's magic bytes.
pub const JOURNAL_MAGIC: &[u8; 8] = b"OthBkJn1";
/// The format version.
pub const VERSION: u16 = 1;
/// Bytes per record.
pub const RECORD_LEN: usize = 32;
/// Bytes of the header.
pub const HEADER_LEN: usize = 40;
/// Bytes per journal entry.
pub const JOURNAL_ENTRY_LEN: usize = RECORD_LEN + 8;
const JOURNAL_HEADER_LEN: usize = 16;

const LEAF_PASS: u8 = 64;
const LEAF_CLOSED: u8 = 254;
const LEAF_PENDING: u8 = 255;

/// Why a book could not be read or written.
#[derive(Debug, Error)]
pub enum BookError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// The bytes are not a book of this format.
    #[error("{0}")]
    Format(String),
    /// A file could not be written (the message names it).
    #[error("{0}")]
    Write(String),
    /// The workers' tables or threads could not be had; nothing was searched.
    #[error("{0}")]
    Workers(String),
}

impl From<crate::files::FileError> for BookError {
    fn from(e: crate::files::FileError) -> BookError {
        BookError::Io {
            path: e.path,
            source: e.source,
        }
    }
}

impl BookError {
    fn io(path: &Path, source: io::Error) -> BookError {
        BookError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    fn format(message: impl Into<String>) -> BookError {
        BookError::Format(message.into())
    }
}

fn checksum(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a64::new();
    h.write(bytes);
    h.finish()
}

/// The 32-byte record of `board` (canonical) and `entry`.
pub fn encode_record(board: &Board, e: &Entry) -> [u8; RECORD_LEN] {
    let mut r = [0u8; RECORD_LEN];
    r[0..8].copy_from_slice(&board.player().to_le_bytes());
    r[8..16].copy_from_slice(&board.opponent().to_le_bytes());
    r[16..20].copy_from_slice(&e.games.to_le_bytes());
    r[20..22].copy_from_slice(&e.value.to_le_bytes());
    r[22] = e.depth;
    r[23] = e.exact as u8 | (e.known as u8) << 1;
    match e.leaf {
        LeafState::Pending => r[26] = LEAF_PENDING,
        LeafState::Closed => r[26] = LEAF_CLOSED,
        LeafState::Move(l) => {
            r[24..26].copy_from_slice(&l.value.to_le_bytes());
            r[26] = match l.mv {
                Move::Place(sq) => sq.index() as u8,
                Move::Pass => LEAF_PASS,
            };
            r[27] = l.depth;
            r[28] = l.exact as u8;
        }
    }
    r
}

/// The board and entry of a record, checked: disjoint discs, a canonical board, a legal leaf.
pub fn decode_record(r: &[u8]) -> Result<(Board, Entry), String> {
    let word = |i: usize| u64::from_le_bytes(r[i..i + 8].try_into().expect("8 bytes"));
    let board = Board::new(word(0), word(8)).map_err(|e| e.to_string())?;
    if board.canonical() != board {
        return Err("a position is not stored in its canonical orientation".into());
    }
    let games = u32::from_le_bytes(r[16..20].try_into().expect("4 bytes"));
    let value = i16::from_le_bytes([r[20], r[21]]);
    let leaf = match r[26] {
        LEAF_PENDING => LeafState::Pending,
        LEAF_CLOSED => LeafState::Closed,
        code => {
            let mv = if code == LEAF_PASS {
                if board.moves() != 0 || board.is_game_over() {
                    return Err("a pass leaf where the side to move can move".into());
                }
                Move::Pass
            } else {
                let sq = Square::from_index(code as usize)
                    .ok_or_else(|| format!("leaf move code {code} is not a square"))?;
                if !board.is_legal(sq) {
                    return Err(format!("leaf move {sq} is not legal"));
                }
                Move::Place(sq)
            };
            LeafState::Move(Leaf {
                mv,
                value: i16::from_le_bytes([r[24], r[25]]),
                depth: r[27],
                exact: r[28] & 1 != 0,
            })
        }
    };
    Ok((
        board,
        Entry {
            games,
            leaf,
            value,
            depth: r[22],
            exact: r[23] & 1 != 0,
            known: r[23] & 2 != 0,
        },
    ))
}

/// The bytes of the book file of `book`.
pub fn to_bytes(book: &Book) -> Vec<u8> {
    let sorted = book.sorted();
    let mut records = Vec::with_capacity(sorted.len() * RECORD_LEN);
    for (board, entry) in &sorted {
        records.extend_from_slice(&encode_record(board, entry));
    }
    let mut out = Vec::with_capacity(HEADER_LEN + records.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(RECORD_LEN as u16).to_le_bytes());
    out.push(book.depth);
    out.extend_from_slice(&[0; 3]);
    out.extend_from_slice(&book.source.to_le_bytes());
    out.extend_from_slice(&(sorted.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(&records).to_le_bytes());
    out.extend_from_slice(&records);
    out
}

/// The book in `bytes` (a book file), with every check: magic, version, record size,
/// length, checksum, each record, sorted unique boards. Never panics.
pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
    if bytes.len() < HEADER_LEN {
        return Err(BookError::format(format!(
            "truncated: {} bytes, a book file has at least {HEADER_LEN}",
            bytes.len()
        )));
    }
    if &bytes[0..8] != MAGIC {
        return Err(BookError::format(
            "not an othello book file (bad magic; for Edax books use --format edax)",
        ));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(BookError::format(format!(
            "book format version {version}, this program reads version {VERSION}"
        )));
    }
    let record_len = u16::from_le_bytes([bytes[10], bytes[11]]) as usize;
    if record_len != RECORD_LEN {
        return Err(BookError::format(format!(
            "record size {record_len}, expected {RECORD_LEN}"
        )));
    }
    let depth = bytes[12];
    let source = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let count = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
    let sum = u64::from_le_bytes(bytes[32..40].try_into().expect("8 bytes"));
    let body = &bytes[HEADER_LEN..];
    if (body.len() as u64) != count.saturating_mul(RECORD_LEN as u64) {
        return Err(BookError::format(format!(
            "{count} records need {} bytes after the header, the file has {}",
            count.saturating_mul(RECORD_LEN as u64),
            body.len()
        )));
    }
    if checksum(body) != sum {
        return Err(BookError::format("corrupt: the checksum does not match"));
    }
    let mut book = Book::new(depth);
    book.source = source;
    let mut last: Option<(u64, u64)> = None;
    for (i, r) in body.chunks_exact(RECORD_LEN).enumerate() {
        let (board, entry) =
            decode_record(r).map_err(|e| BookError::format(format!("record {i}: {e}")))?;
        let key = (board.player(), board.opponent());
        if last.is_some_and(|l| l >= key) {
            return Err(BookError::format(format!(
                "record {i}: records are not sorted or a position is repeated"
            )));
        }
        last = Some(key);
        book.insert_canonical(board, entry);
    }
    Ok(book)
}

/// Writes `book` to `path` atomically (temporary file, flush to disk, rename).
pub fn save(book: &Book, path: &Path) -> Result<(), BookError> {
    crate::files::write_atomically(path, &to_bytes(book))
        .map_err(|e| BookError::Write(e.to_string()))
}

/// The journal's path for the book at `path`: `path` with `.journal` appended.
pub fn journal_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

/// Reads the book at `path` (the book file alone, no journal).
pub fn load(path: &Path) -> Result<Book, BookError> {
    let bytes = read_file(path)?;
    from_bytes(&bytes).map_err(|e| match e {
        BookError::Format(m) => BookError::Format(format!("{}: {m}", path.display())),
        other => other,
    })
}

/// The checksum field of a book file's bytes (what a journal names).
fn file_checksum(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes[32..40].try_into().expect("a checked header"))
}

/// Reads the book at `path` and replays its journal, if it has one for this book file.
/// Returns the book and the number of journal entries replayed.
pub fn open(path: &Path) -> Result<(Book, usize), BookError> {
    let bytes = read_file(path)?;
    open_bytes(path, &bytes)
}

/// [`open`] for a book file already read: `bytes` are the contents of the file at `path`
/// (whose journal is read now).
pub fn open_bytes(path: &Path, bytes: &[u8]) -> Result<(Book, usize), BookError> {
    let mut book =
        from_bytes(bytes).map_err(|e| BookError::Format(format!("{}: {e}", path.display())))?;
    let jpath = journal_path(path);
    let Some(journal) = crate::files::read_if_exists(&jpath, crate::files::BOOK_MAX_BYTES)? else {
        return Ok((book, 0));
    };
    let replayed = replay(&mut book, &journal, file_checksum(bytes));
    Ok((book, replayed))
}

/// Applies the valid entries of `journal` (for the book file with checksum `book_sum`) to
/// `book`; returns how many. A journal for another book file applies nothing.
fn replay(book: &mut Book, journal: &[u8], book_sum: u64) -> usize {
    if journal.len() < JOURNAL_HEADER_LEN
        || &journal[0..8] != JOURNAL_MAGIC
        || u64::from_le_bytes(journal[8..16].try_into().expect("8 bytes")) != book_sum
    {
        return 0;
    }
    let mut n = 0;
    let mut interleaved = false;
    for e in journal[JOURNAL_HEADER_LEN..].chunks_exact(JOURNAL_ENTRY_LEN) {
        let (record, sum) = e.split_at(RECORD_LEN);
        if checksum(record).to_le_bytes() != sum {
            break;
        }
        let Ok((board, mut entry)) = decode_record(record) else {
            break;
        };
        // A position's games only ever grow: an entry with fewer games than one before it was
        // written by another process (a long job beside a `learn`), whose game stays counted.
        if let Some(before) = book.entries.get(&board) {
            if before.games > entry.games {
                entry.games = before.games;
                interleaved = true;
            }
        }
        book.insert_canonical(board, entry);
        n += 1;
    }
    if interleaved {
        // A leaf written by a job that had not seen a learned game may now lead into the book.
        book.mark_stale_pending();
    }
    if n > 0 {
        book.negamax();
    }
    n
}

/// The lock file of a book, `BOOK.lock` beside it: every process that reads, merges and
/// writes the book (`learn`, the long jobs' journal writes and compactions) holds an exclusive
/// advisory lock on it meanwhile. A separate file, since the book file itself is replaced by a
/// rename (a lock on it would stay on the old file).
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes the exclusive advisory lock of an open file, waiting for it (the `fs4` crate:
/// `flock` on Unix, `LockFileEx` on Windows).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn lock_file(file: &File) -> std::io::Result<()> {
    fs4::fs_std::FileExt::lock_exclusive(file)
}

/// Releases the lock [`lock_file`] took.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn unlock_file(file: &File) -> std::io::Result<()> {
    fs4::fs_std::FileExt::unlock(file)
}

/// The browser has no file system, so no file opens and there is nothing to lock.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn lock_file(_file: &File) -> std::io::Result<()> {
    Ok(())
}

/// See the other [`lock_file`].
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn unlock_file(_file: &File) -> std::io::Result<()> {
    Ok(())
}

/// An exclusive advisory lock on a book ([`lock`]); released when dropped.
pub struct BookLock {
    file: File,
}

impl Drop for BookLock {
    fn drop(&mut self) {
        let _ = unlock_file(&self.file);
    }
}

/// Opens (creating it if needed) the book's lock file by the file policy.
fn open_lock_file(path: &Path) -> Result<File, BookError> {
    Ok(crate::files::open_for_update(
        &lock_path(path),
        true,
        false,
    )?)
}

/// Waits for and takes the exclusive lock of the book at `path` (`flock` on Unix,
/// `LockFileEx` on Windows). Between processes: a process must not take it twice.
pub fn lock(path: &Path) -> Result<BookLock, BookError> {
    let file = open_lock_file(path)?;
    lock_file(&file).map_err(|e| BookError::io(&lock_path(path), e))?;
    Ok(BookLock { file })
}

/// Refuses a file at the journal path of `path` that is not a book journal (a journal is
/// replaced or truncated freely; anything else is not the program's to destroy).
pub fn check_journal(path: &Path) -> Result<(), BookError> {
    let jpath = journal_path(path);
    let Some(bytes) = crate::files::read_if_exists(&jpath, crate::files::BOOK_MAX_BYTES)? else {
        return Ok(());
    };
    let n = bytes.len().min(JOURNAL_MAGIC.len());
    if bytes[..n] != JOURNAL_MAGIC[..n] {
        return Err(BookError::Io {
            path: jpath,
            source: io::Error::new(
                io::ErrorKind::InvalidData,
                "not a book journal (it does not start with OthBkJn1); it is not replaced: \
                 move it away or choose another book name",
            ),
        });
    }
    Ok(())
}

/// Reads the book at `path` (with its journal) under its lock, lets `change` change it, and
/// stores the change so that no other process's change is lost: appended to the journal if a
/// long job's journal extends the book file (the entries of the positions of `record`), else
/// by saving the whole book. `fallback` is the book when no file is there yet. Returns the
/// book as stored and what `change` returned.
pub fn update_locked<R>(
    path: &Path,
    fallback: &Book,
    record: &[Board],
    change: impl FnOnce(&mut Book) -> R,
) -> Result<(Book, R), BookError> {
    let _lock = lock(path)?;
    check_journal(path)?;
    if !crate::files::exists(path)? {
        let mut book = fallback.clone();
        let r = change(&mut book);
        save(&book, path)?;
        return Ok((book, r));
    }
    let bytes = read_file(path)?;
    let (mut book, _) = open_bytes(path, &bytes)?;
    let r = change(&mut book);
    let jpath = journal_path(path);
    let sum = file_checksum(&bytes);
    match crate::files::read_if_exists(&jpath, crate::files::BOOK_MAX_BYTES)? {
        Some(journal) if journal.len() >= JOURNAL_HEADER_LEN && replay_header_ok(&journal, sum) => {
            let (mut file, _) = reopen_journal(&jpath, &journal, sum)?;
            let io = |err| BookError::io(&jpath, err);
            for board in record {
                let canonical = board.canonical();
                if let Some(e) = book.entries.get(&canonical) {
                    file.write_all(&journal_entry(&canonical, e)).map_err(io)?;
                }
            }
            file.sync_all().map_err(io)?;
        }
        _ => save(&book, path)?,
    }
    Ok((book, r))
}

/// A journal entry: the record and its checksum.
fn journal_entry(board: &Board, entry: &Entry) -> [u8; JOURNAL_ENTRY_LEN] {
    let record = encode_record(board, entry);
    let mut e = [0u8; JOURNAL_ENTRY_LEN];
    e[..RECORD_LEN].copy_from_slice(&record);
    e[RECORD_LEN..].copy_from_slice(&checksum(&record).to_le_bytes());
    e
}

/// Opens the existing journal `existing` (the bytes at `jpath`, whose header matches the book
/// file's checksum `sum`) for appending: a torn last entry is cut off. Returns the file,
/// positioned at its end, and its number of valid entries. The caller holds the book's lock.
fn reopen_journal(jpath: &Path, existing: &[u8], sum: u64) -> Result<(File, usize), BookError> {
    use std::io::Seek;
    let mut scratch = Book::default();
    let valid = replay(&mut scratch, existing, sum);
    let io = |e| BookError::io(jpath, e);
    let mut file = crate::files::open_for_update(jpath, false, false)?;
    file.set_len((JOURNAL_HEADER_LEN + valid * JOURNAL_ENTRY_LEN) as u64)
        .map_err(io)?;
    file.seek(io::SeekFrom::End(0)).map_err(io)?;
    Ok((file, valid))
}

/// An open journal: every change of a long job is appended to it as soon as it is made.
pub struct Journal {
    path: PathBuf,
    file: File,
    /// The book's lock file, locked around every write of the journal or the book.
    lock: File,
    /// Entries written since the last compaction.
    pub written: usize,
}

/// The lock of a [`Journal`], held while it writes.
struct Held<'a>(&'a File);

/// Takes the book's lock through its open lock file (released when the result is dropped).
fn hold<'a>(lock: &'a File, path: &Path) -> Result<Held<'a>, BookError> {
    lock_file(lock).map_err(|e| BookError::io(&lock_path(path), e))?;
    Ok(Held(lock))
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let _ = unlock_file(self.0);
    }
}

impl Journal {
    /// Opens the journal of the book file at `path` (which must exist) for appending: keeps
    /// the entries of an existing journal for this book file (cutting off a torn last
    /// entry), or starts a new one.
    pub fn open(path: &Path) -> Result<Journal, BookError> {
        let lock = open_lock_file(path)?;
        lock_file(&lock).map_err(|e| BookError::io(&lock_path(path), e))?;
        let held = Held(&lock);
        check_journal(path)?;
        let bytes = read_file(path)?;
        from_bytes(&bytes)?;
        let sum = file_checksum(&bytes);
        let jpath = journal_path(path);
        let existing =
            crate::files::read_if_exists(&jpath, crate::files::BOOK_MAX_BYTES)?.unwrap_or_default();
        let (file, valid) =
            if existing.len() >= JOURNAL_HEADER_LEN && replay_header_ok(&existing, sum) {
                reopen_journal(&jpath, &existing, sum)?
            } else {
                (new_journal(&jpath, sum)?, 0)
            };
        drop(held);
        Ok(Journal {
            path: path.to_path_buf(),
            file,
            lock,
            written: valid,
        })
    }

    /// Appends the entry of `board` (canonical) to the journal.
    pub fn record(&mut self, board: &Board, entry: &Entry) -> Result<(), BookError> {
        use std::io::Seek;
        let e = journal_entry(board, entry);
        let _held = hold(&self.lock, &self.path)?;
        // At the end: another process (a `learn`) may have appended since.
        let io = |err| BookError::io(&journal_path(&self.path), err);
        self.file.seek(io::SeekFrom::End(0)).map_err(io)?;
        self.file.write_all(&e).map_err(io)?;
        self.written += 1;
        Ok(())
    }

    /// Records the current entry of `board` (any orientation) in `book`.
    pub fn record_from(&mut self, book: &Book, board: &Board) -> Result<(), BookError> {
        let canonical = board.canonical();
        match book.entries.get(&canonical) {
            Some(e) => self.record(&canonical, e),
            None => Ok(()),
        }
    }

    /// Negamaxes `book`, saves it over the book file and starts an empty journal for it.
    pub fn compact(&mut self, book: &mut Book) -> Result<(), BookError> {
        let _held = hold(&self.lock, &self.path)?;
        // What other processes stored since (learned games, in the journal or the book file)
        // is merged in: this job's leaves are kept, games never go down, new positions added.
        if crate::files::exists(&self.path)? {
            let (mut disk, _) = open(&self.path)?;
            let mut theirs = false;
            for (board, ours) in &book.entries {
                match disk.entries.get_mut(board) {
                    Some(e) => {
                        theirs |= e.games > ours.games;
                        e.games = e.games.max(ours.games);
                        e.leaf = ours.leaf;
                    }
                    None => disk.insert_canonical(*board, *ours),
                }
            }
            theirs |= disk.entries.len() > book.entries.len();
            disk.depth = disk.depth.max(book.depth);
            disk.source = book.source;
            if theirs {
                disk.mark_stale_pending();
            }
            *book = disk;
        }
        book.negamax();
        let bytes = to_bytes(book);
        crate::files::write_atomically(&self.path, &bytes)
            .map_err(|e| BookError::Write(e.to_string()))?;
        self.file = new_journal(&journal_path(&self.path), file_checksum(&bytes))?;
        self.written = 0;
        Ok(())
    }
}

fn replay_header_ok(journal: &[u8], sum: u64) -> bool {
    &journal[0..8] == JOURNAL_MAGIC
        && u64::from_le_bytes(journal[8..16].try_into().expect("8 bytes")) == sum
}

/// Creates (or truncates) the journal at `jpath` for the book file with checksum `sum`.
fn new_journal(jpath: &Path, sum: u64) -> Result<File, BookError> {
    let io = |e| BookError::io(jpath, e);
    let mut file = crate::files::open_for_update(jpath, true, true)?;
    let mut header = [0u8; JOURNAL_HEADER_LEN];
    header[0..8].copy_from_slice(JOURNAL_MAGIC);
    header[8..16].copy_from_slice(&sum.to_le_bytes());
    file.write_all(&header).map_err(io)?;
    file.sync_all().map_err(io)?;
    Ok(file)
}

/// Reads a whole book file into memory, of any book format, by the program's file policy: a
/// regular file only, of at most [`crate::files::BOOK_MAX_BYTES`].
pub fn read_file(path: &Path) -> Result<Vec<u8>, BookError> {
    Ok(crate::files::read(path, crate::files::BOOK_MAX_BYTES)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::book::sample_book as sample;

    #[test]
    fn bytes_round_trip() {
        let book = sample();
        let bytes = to_bytes(&book);
        let back = from_bytes(&bytes).unwrap();
        assert_eq!(back.sorted(), book.sorted());
        assert_eq!((back.depth, back.source), (12, 77));
        assert_eq!(to_bytes(&back), bytes);
    }

    #[test]
    fn every_damage_is_an_error_not_a_panic() {
        let bytes = to_bytes(&sample());
        for cut in 0..bytes.len() {
            assert!(from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            // Reserved bytes of the header are not checked; everything else is.
            if (13..16).contains(&i) || i == 12 || (16..24).contains(&i) {
                continue;
            }
            assert!(from_bytes(&bad).is_err(), "byte {i} flipped");
        }
    }

    #[test]
    fn a_torn_journal_entry_is_dropped_and_the_rest_replayed() {
        let dir = std::env::temp_dir().join(format!("othello-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("j.book");
        let mut book = Book::new(8);
        book.add(&Board::start(), 1);
        save(&book, &path).unwrap();
        let mut journal = Journal::open(&path).unwrap();
        let a = Board::start().play("f5".parse().unwrap());
        let b = a.play("d6".parse().unwrap());
        book.add(&a, 1);
        journal.record_from(&book, &a).unwrap();
        book.add(&b, 1);
        journal.record_from(&book, &b).unwrap();
        drop(journal);
        // Tear the last entry.
        let jpath = journal_path(&path);
        let len = std::fs::metadata(&jpath).unwrap().len();
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(&jpath)
            .unwrap();
        f.set_len(len - 5).unwrap();
        let (reopened, replayed) = open(&path).unwrap();
        assert_eq!(replayed, 1);
        assert!(reopened.contains(&a) && !reopened.contains(&b));
        // Appending again cuts the torn entry first.
        let mut journal = Journal::open(&path).unwrap();
        assert_eq!(journal.written, 1);
        journal.record_from(&book, &b).unwrap();
        let (reopened, replayed) = open(&path).unwrap();
        assert_eq!(replayed, 2);
        assert!(reopened.contains(&b));
        // Compaction: the book file holds everything, the journal is empty.
        let mut full = reopened;
        journal.compact(&mut full).unwrap();
        let (after, replayed) = open(&path).unwrap();
        assert_eq!(replayed, 0);
        assert_eq!(after.len(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
