//! The weight file (`.nnue`) and its checksum.
//!
//! Little-endian throughout:
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0 | 8 | magic `OthNNUE1` |
//! | 8 | 2 | format version = 1 |
//! | 10 | 2 | pattern set = 3 (the engine's 14 shapes, 58 placements) |
//! | 12 | 2 | accumulator width H |
//! | 14 | 2 | second layer width L2 |
//! | 16 | 2 | phase buckets B (bucket = `empties * B / 61`) |
//! | 18 | 2 | global inputs X = 2 (mobility of the side to move and of the opponent, / 16) |
//! | 20 | 4 | embedding rows R (weight classes of all shapes: 204,030) |
//! | 24 | 8 | checksum: 64-bit FNV-1a of all bytes except these 8 |
//! | 32 | 4 | parameter count N |
//! | 36 | 4 | base: 0, or the id of the pattern weights the network corrects (`nnue-train --base`; see `othello_core::eval::nnue::file`) |
//! | 40 | 4·N | `f32` parameters: E (R × H, row-major), b0 (H), W2 (B × L2 × (H + X)), b2 (B × L2), W3 (B × L2), b3 (B) |
//!
//! [`read_weights`] checks every field, the exact length, the checksum and that every weight
//! is finite, and returns a [`FileError`] naming the problem; it never panics on bad bytes.

use std::fmt;
use std::path::Path;

use crate::features::EXTRA;
use crate::net::{Arch, Network, Params};

/// The first eight bytes of a weight file.
pub const MAGIC: [u8; 8] = *b"OthNNUE1";
/// The format version.
pub const VERSION: u16 = 1;
/// The pattern set the rows index.
pub const PATTERN_SET: u16 = 3;
/// Header length.
pub const HEADER_LEN: usize = 40;

/// 64-bit FNV-1a of `bytes`, skipping `skip` (the checksum field itself).
pub fn fnv1a64(bytes: &[u8], skip: std::ops::Range<usize>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, &b) in bytes.iter().enumerate() {
        if skip.contains(&i) {
            continue;
        }
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Why a weight file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileError {
    /// Reading failed.
    Io(String),
    /// Shorter than its header or than its header announces.
    Truncated {
        /// Bytes needed.
        expected: usize,
        /// Bytes present.
        actual: usize,
    },
    /// Longer than its header announces.
    TrailingBytes {
        /// Bytes announced.
        expected: usize,
        /// Bytes present.
        actual: usize,
    },
    /// Not a network file.
    BadMagic,
    /// A version this code does not read.
    UnsupportedVersion(u16),
    /// A pattern set this code does not read.
    WrongPatternSet(u16),
    /// Dimensions out of range or not matching the engine's pattern rows.
    BadDimensions(String),
    /// The checksum does not match the contents.
    CorruptChecksum {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
    /// A weight is NaN or infinite.
    NonFinite(usize),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io(e) => write!(f, "cannot read the network file: {e}"),
            FileError::Truncated { expected, actual } => write!(
                f,
                "truncated network file: {actual} bytes, expected {expected}"
            ),
            FileError::TrailingBytes { expected, actual } => write!(
                f,
                "network file too long: {actual} bytes, expected {expected}"
            ),
            FileError::BadMagic => write!(f, "not an othello network file (bad magic)"),
            FileError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "network file version {v} is not supported (expected {VERSION})"
                )
            }
            FileError::WrongPatternSet(s) => {
                write!(
                    f,
                    "network file for pattern set {s}, expected {PATTERN_SET}"
                )
            }
            FileError::BadDimensions(e) => write!(f, "bad network dimensions: {e}"),
            FileError::CorruptChecksum { stored, computed } => write!(
                f,
                "corrupt network file: checksum {stored:016x}, contents give {computed:016x}"
            ),
            FileError::NonFinite(i) => write!(f, "network weight {i} is not finite"),
        }
    }
}

impl std::error::Error for FileError {}

/// The bytes of a weight file holding `params`.
pub fn weights_bytes(params: &Params<f32>) -> Vec<u8> {
    let a = &params.arch;
    let n = a.param_count();
    let mut out = Vec::with_capacity(HEADER_LEN + 4 * n);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&PATTERN_SET.to_le_bytes());
    out.extend_from_slice(&(a.hidden as u16).to_le_bytes());
    out.extend_from_slice(&(a.l2 as u16).to_le_bytes());
    out.extend_from_slice(&(a.buckets as u16).to_le_bytes());
    out.extend_from_slice(&(EXTRA as u16).to_le_bytes());
    out.extend_from_slice(&(a.rows as u32).to_le_bytes());
    out.extend_from_slice(&[0u8; 8]);
    out.extend_from_slice(&(n as u32).to_le_bytes());
    out.extend_from_slice(&params.base.to_le_bytes());
    for g in params.groups() {
        for w in g {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    let sum = fnv1a64(&out, 24..32);
    out[24..32].copy_from_slice(&sum.to_le_bytes());
    out
}

/// Parses a weight file.
pub fn read_weights(bytes: &[u8]) -> Result<Network, FileError> {
    if bytes.len() < HEADER_LEN {
        return Err(if bytes.len() >= 8 && bytes[0..8] != MAGIC {
            FileError::BadMagic
        } else {
            FileError::Truncated {
                expected: HEADER_LEN,
                actual: bytes.len(),
            }
        });
    }
    if bytes[0..8] != MAGIC {
        return Err(FileError::BadMagic);
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]) as usize;
    let u32_at =
        |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes")) as usize;
    let version = u16_at(8) as u16;
    if version != VERSION {
        return Err(FileError::UnsupportedVersion(version));
    }
    let set = u16_at(10) as u16;
    if set != PATTERN_SET {
        return Err(FileError::WrongPatternSet(set));
    }
    let (hidden, l2, buckets, extra, rows) =
        (u16_at(12), u16_at(14), u16_at(16), u16_at(18), u32_at(20));
    if !(1..=1024).contains(&hidden) || !(1..=256).contains(&l2) || !(1..=61).contains(&buckets) {
        return Err(FileError::BadDimensions(format!(
            "H {hidden}, L2 {l2}, buckets {buckets}"
        )));
    }
    if extra != EXTRA {
        return Err(FileError::BadDimensions(format!(
            "{extra} global inputs, expected {EXTRA}"
        )));
    }
    let arch = Arch::new(hidden, l2, buckets);
    if rows != arch.rows {
        return Err(FileError::BadDimensions(format!(
            "{rows} embedding rows, the pattern set has {}",
            arch.rows
        )));
    }
    let n = u32_at(32);
    if n != arch.param_count() {
        return Err(FileError::BadDimensions(format!(
            "{n} parameters, the dimensions give {}",
            arch.param_count()
        )));
    }
    let expected = HEADER_LEN + 4 * n;
    if bytes.len() < expected {
        return Err(FileError::Truncated {
            expected,
            actual: bytes.len(),
        });
    }
    if bytes.len() > expected {
        return Err(FileError::TrailingBytes {
            expected,
            actual: bytes.len(),
        });
    }
    let stored = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
    let computed = fnv1a64(bytes, 24..32);
    if stored != computed {
        return Err(FileError::CorruptChecksum { stored, computed });
    }
    let mut params = Params::zeros(arch);
    params.base = u32_at(36) as u32;
    let mut at = HEADER_LEN;
    let mut index = 0;
    for g in params.groups_mut() {
        for w in g.iter_mut() {
            *w = f32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
            if !w.is_finite() {
                return Err(FileError::NonFinite(index));
            }
            at += 4;
            index += 1;
        }
    }
    Ok(Network { params })
}

/// Writes `params` to `path` (through a temporary file and a rename).
pub fn save_weights(params: &Params<f32>, path: &Path) -> std::io::Result<()> {
    write_atomic(path, &weights_bytes(params))
}

/// Reads a weight file.
pub fn load_weights(path: &Path) -> Result<Network, FileError> {
    let bytes =
        std::fs::read(path).map_err(|e| FileError::Io(format!("{}: {e}", path.display())))?;
    read_weights(&bytes)
}

/// Writes `bytes` to `path` through `path.tmp` and a rename, so that a crash leaves the old
/// file or the new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Params<f32> {
        Params::init(Arch::new(4, 3, 2), 99)
    }

    #[test]
    fn round_trip_keeps_every_weight_and_the_evaluation() {
        let p = small();
        let bytes = weights_bytes(&p);
        assert_eq!(bytes.len(), HEADER_LEN + 4 * p.arch.param_count());
        let net = read_weights(&bytes).expect("reads back");
        assert_eq!(net.params, p);
        let b = othello_core::Board::start();
        let original = Network { params: p };
        assert_eq!(
            original.evaluate(b.player(), b.opponent()),
            net.evaluate(b.player(), b.opponent())
        );
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = weights_bytes(&small());
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(read_weights(&bad).unwrap_err(), FileError::BadMagic);
        let mut bad = bytes.clone();
        bad[8] = 2;
        assert_eq!(
            read_weights(&bad).unwrap_err(),
            FileError::UnsupportedVersion(2)
        );
        let mut bad = bytes.clone();
        bad[12] = 5; // H 4 -> 5: the parameter count no longer matches
        assert!(matches!(
            read_weights(&bad),
            Err(FileError::BadDimensions(_))
        ));
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] ^= 0x40; // a weight's bit
        assert!(matches!(
            read_weights(&bad),
            Err(FileError::CorruptChecksum { .. })
        ));
        assert!(matches!(
            read_weights(&bytes[..bytes.len() - 4]),
            Err(FileError::Truncated { .. })
        ));
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(
            read_weights(&long),
            Err(FileError::TrailingBytes { .. })
        ));
        assert!(matches!(
            read_weights(&bytes[..10]),
            Err(FileError::Truncated { .. })
        ));
        assert_eq!(
            read_weights(b"OthPatEv and more bytes than a header has..").unwrap_err(),
            FileError::BadMagic
        );
        // A NaN with a valid checksum.
        let mut nan = bytes.clone();
        nan[HEADER_LEN..HEADER_LEN + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        let sum = fnv1a64(&nan, 24..32);
        nan[24..32].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(read_weights(&nan).unwrap_err(), FileError::NonFinite(0));
        // Any truncation or single-byte change is refused, never a panic.
        for cut in (0..bytes.len()).step_by(bytes.len() / 40) {
            assert!(read_weights(&bytes[..cut]).is_err());
        }
        for i in (0..bytes.len()).step_by(bytes.len() / 40 + 1) {
            let mut b = bytes.clone();
            b[i] = b[i].wrapping_add(1);
            assert!(read_weights(&b).is_err(), "byte {i} changed");
        }
    }

    #[test]
    fn fnv1a64_matches_the_published_vectors() {
        assert_eq!(fnv1a64(b"", 0..0), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a", 0..0), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar", 0..0), 0x8594_4171_f739_67e8);
    }
}
