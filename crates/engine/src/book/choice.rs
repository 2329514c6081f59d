//! Which book the engine uses ([`BookChoice`]: the embedded one, none, or a file of either
//! format), and a book an engine owns and learns into ([`OwnedBook`]).

use std::sync::Arc;

use super::{default_book, edax, file, Book, BookError};

/// Which book a player or the NBoard engine uses: `default` (the embedded one), `off`, or a
/// file (an othello book, with its journal, or an Edax `.dat` book).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum BookChoice {
    /// The embedded book.
    #[default]
    Default,
    /// No book.
    Off,
    /// A book file.
    File(std::path::PathBuf),
}

impl std::str::FromStr for BookChoice {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<BookChoice, Self::Err> {
        Ok(match s.trim() {
            "default" | "on" => BookChoice::Default,
            "off" | "none" => BookChoice::Off,
            path => BookChoice::File(path.into()),
        })
    }
}

impl std::fmt::Display for BookChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BookChoice::Default => f.write_str("default"),
            BookChoice::Off => f.write_str("off"),
            BookChoice::File(p) => write!(f, "{}", p.display()),
        }
    }
}

impl BookChoice {
    /// The book, or `None` for `off`.
    pub fn load(&self) -> Result<Option<Arc<Book>>, BookError> {
        match self {
            BookChoice::Default => Ok(Some(default_book())),
            BookChoice::Off => Ok(None),
            BookChoice::File(path) => load_any(path).map(|b| Some(Arc::new(b))),
        }
    }
}

/// A book an engine owns and learns into ([`BookChoice::open_owned`]): the book, and the
/// file that learned games are saved to (`None` for the embedded book and for Edax books,
/// which are read but never overwritten). The book is shared until it is learned into
/// (`Arc::make_mut` copies it then), so engines that only read it share one copy.
#[derive(Clone, Debug)]
pub struct OwnedBook {
    /// The book.
    pub book: Arc<Book>,
    /// Where `learn` saves it.
    pub save_to: Option<std::path::PathBuf>,
    /// The Edax book file it was read from, which `learn` never writes (`learn` is refused).
    pub read_only: Option<std::path::PathBuf>,
}

impl BookChoice {
    /// The book as an engine's own copy, `None` for `off`. A file that does not exist yet
    /// starts as a copy of the embedded book and is created by the first save.
    pub fn open_owned(&self) -> Result<Option<OwnedBook>, BookError> {
        match self {
            BookChoice::Off => Ok(None),
            // A new book whose directory does not exist: its first save (`learn`) would fail
            // long after, so it is refused now.
            BookChoice::File(path) if missing_directory(path).is_some() => {
                Err(BookError::Write(format!(
                    "{}: no such book, and it cannot be made: the directory {} does not exist",
                    path.display(),
                    missing_directory(path).unwrap_or_default()
                )))
            }
            BookChoice::Default => Ok(Some(OwnedBook {
                book: default_book(),
                save_to: None,
                read_only: None,
            })),
            // Nothing at all there (a dangling link or a link loop is something, and is
            // refused when read): a new book, created by the first save.
            BookChoice::File(path) if !crate::files::exists(path)? => Ok(Some(OwnedBook {
                book: default_book(),
                save_to: Some(path.clone()),
                read_only: None,
            })),
            BookChoice::File(path) => {
                let bytes = file::read_file(path)?;
                let edax = edax::looks_like_edax(&bytes);
                let book = load_bytes(path, &bytes)?;
                Ok(Some(OwnedBook {
                    book: Arc::new(book),
                    save_to: (!edax).then(|| path.clone()),
                    read_only: edax.then(|| path.clone()),
                }))
            }
        }
    }
}

/// The directory of `path`, shown, when it does not exist (nor does `path` then).
fn missing_directory(path: &std::path::Path) -> Option<String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    (!dir.is_dir() && std::fs::symlink_metadata(path).is_err()).then(|| dir.display().to_string())
}

/// Reads a book file of either format: an Edax `.dat` book (recognised by its magic) or an
/// othello book with its journal replayed.
pub fn load_any(path: &std::path::Path) -> Result<Book, BookError> {
    load_bytes(path, &file::read_file(path)?)
}

/// [`load_any`] for a file already read: `bytes` are the contents of the file at `path`.
fn load_bytes(path: &std::path::Path, bytes: &[u8]) -> Result<Book, BookError> {
    if edax::looks_like_edax(bytes) {
        return edax::from_edax_bytes(bytes)
            .map_err(|e| BookError::Format(format!("{}: {e}", path.display())));
    }
    file::open_bytes(path, bytes).map(|(book, _)| book)
}
