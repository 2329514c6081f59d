//! The weight file: a versioned, checksummed binary holding a [`PatternEval`]'s compact
//! weights.
//!
//! Layout (version 1; all integers little-endian):
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0 | 8 | magic `OthPatEv` ([`MAGIC`]) |
//! | 8 | 2 | format version, 1 ([`VERSION`]) |
//! | 10 | 2 | pattern set id: 3 ([`super::PATTERN_SET_ID`]), or 2 when the weights do not use set 3's shapes; 1 is read too |
//! | 12 | 2 | phase count `P`, 1..=61 |
//! | 14 | 2 | weight scale: units per disc, 256 ([`super::WEIGHT_SCALE`]) |
//! | 16 | 4 | weights per phase `D`: 204,224 for pattern set 3 ([`super::FEATURES_PER_PHASE`]), 114,071 for set 2, 113,943 for set 1 |
//! | 20 | 4 | metadata length `M`, at most 65,536 ([`MAX_META_LEN`]) |
//! | 24 | 8 | checksum: 64-bit FNV-1a of every byte of the file except these eight |
//! | 32 | `M` | metadata: UTF-8 text (how the weights were made) |
//! | 32+`M` | `2·P·D` | weights, `i16`, phase 0 first; within a phase in compact order |
//!
//! The file ends right after the weights. With 15 phases it is 6.1 MB (set 3) or 3.4 MB (sets 1
//! and 2). Compact order is the weight classes of each pattern in
//! [`super::geometry::PATTERNS`] order (class ids as [`super::geometry::Geometry`] numbers
//! them: increasing smallest base-3 index), then 32 mover-mobility weights, 32
//! opponent-mobility weights, and the even- and odd-empties parity weights, then (pattern set 2
//! on) 64 mover and 64 opponent potential-mobility weights. A file of pattern set 2 has only
//! the classes of the first 11 shapes; it loads with the weights of set 3's three shapes 0. A
//! file of pattern set 1 (v1 to v5) also stops after the parity weights; it loads with the
//! potential-mobility weights 0. Either evaluates exactly as before, and weights that do not
//! use set 3's shapes are written as set 2, which older engines read.
//!
//! Loading checks every field and the checksum and never panics, whatever the bytes.

use std::path::PathBuf;

use thiserror::Error;

use super::{
    PatternEval, BASE_COMPACT_PATTERNS_LEN, COMPACT_PATTERNS_LEN, FEATURES_PER_PHASE, MAX_PHASES,
    PATTERN_SET_ID, SET1_FEATURES_PER_PHASE, SET2_FEATURES_PER_PHASE, WEIGHT_SCALE,
};

/// The first eight bytes of a weight file.
pub const MAGIC: [u8; 8] = *b"OthPatEv";
/// The format version this code reads and writes.
pub const VERSION: u16 = 1;
/// Size of the fixed header.
pub const HEADER_LEN: usize = 32;
/// The longest metadata text.
pub const MAX_META_LEN: usize = 65_536;

/// The largest valid weight file: the header, the most metadata and the most phases.
pub const MAX_FILE_LEN: usize = HEADER_LEN + MAX_META_LEN + 2 * MAX_PHASES * FEATURES_PER_PHASE;
/// The largest Multi-ProbCut model file read beside a weight file (the shipped one is a few
/// kilobytes of text).
pub const MAX_MPC_LEN: usize = 1 << 20;

/// Why a weight file (or a set of weights) was rejected.
#[derive(Debug, Error)]
pub enum WeightsError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// Fewer bytes than the header.
    #[error("not a weight file: {0} bytes, shorter than the {HEADER_LEN}-byte header")]
    TooShort(usize),
    /// The magic bytes are wrong.
    #[error("not a weight file: bad magic bytes (expected \"OthPatEv\")")]
    BadMagic,
    /// A format version this code does not read.
    #[error("unsupported weight file version {found} (this engine reads version {VERSION})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u16,
    },
    /// Weights for another pattern set.
    #[error(
        "weights are for pattern set {found}; this engine reads pattern sets 1 to {PATTERN_SET_ID}"
    )]
    WrongPatternSet {
        /// The pattern set id in the file.
        found: u16,
    },
    /// A phase count outside `1..=MAX_PHASES`.
    #[error("bad phase count {0} (must be 1 to {MAX_PHASES})")]
    BadPhaseCount(usize),
    /// A weight scale other than [`WEIGHT_SCALE`].
    #[error("unsupported weight scale {0} (expected {WEIGHT_SCALE})")]
    BadScale(u16),
    /// The wrong number of weights per phase for the pattern set.
    #[error("{found} weights per phase; pattern set {set} has {expected}")]
    WrongFeatureCount {
        /// The count in the file.
        found: u32,
        /// The file's pattern set.
        set: u16,
        /// The count of that pattern set.
        expected: usize,
    },
    /// Metadata longer than [`MAX_META_LEN`].
    #[error("metadata of {0} bytes is longer than the limit of {MAX_META_LEN}")]
    MetaTooLong(usize),
    /// Metadata that is not UTF-8.
    #[error("metadata is not valid UTF-8")]
    BadMeta,
    /// The file is truncated or has trailing bytes.
    #[error("weight file is {found} bytes; its header implies {expected} (truncated or padded)")]
    BadLength {
        /// The actual length.
        found: usize,
        /// The length the header implies.
        expected: usize,
    },
    /// The checksum does not match the contents.
    #[error("checksum mismatch: stored {stored:#018x}, computed {computed:#018x} (corrupt file)")]
    BadChecksum {
        /// The checksum in the header.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
    /// A weight vector of the wrong length (building from memory).
    #[error("{found} weights given; {expected} expected")]
    WrongWeightCount {
        /// The number given.
        found: usize,
        /// The number expected.
        expected: usize,
    },
}

/// 64-bit FNV-1a over `parts` in order (Fowler, Noll and Vo's public-domain hash).
pub fn fnv1a64(parts: &[&[u8]]) -> u64 {
    let mut h = Fnv1a64::new();
    for part in parts {
        h.write(part);
    }
    h.finish()
}

/// The 64-bit FNV-1a hash, fed incrementally (for inputs too large to gather first).
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a64(u64);

impl Fnv1a64 {
    /// The hash of nothing.
    pub fn new() -> Fnv1a64 {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }

    /// Feeds `bytes`.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }

    /// The hash of everything fed so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a64 {
    fn default() -> Self {
        Fnv1a64::new()
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl PatternEval {
    /// Parses a weight file's bytes, checking every header field and the checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternEval, WeightsError> {
        if bytes.len() < HEADER_LEN {
            return Err(WeightsError::TooShort(bytes.len()));
        }
        if bytes[0..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let version = u16_at(bytes, 8);
        if version != VERSION {
            return Err(WeightsError::UnsupportedVersion { found: version });
        }
        let set = u16_at(bytes, 10);
        let per_phase_of_set = match set {
            1 => SET1_FEATURES_PER_PHASE,
            2 => SET2_FEATURES_PER_PHASE,
            PATTERN_SET_ID => FEATURES_PER_PHASE,
            _ => return Err(WeightsError::WrongPatternSet { found: set }),
        };
        let phases = u16_at(bytes, 12) as usize;
        if !(1..=MAX_PHASES).contains(&phases) {
            return Err(WeightsError::BadPhaseCount(phases));
        }
        let scale = u16_at(bytes, 14);
        if scale as i32 != WEIGHT_SCALE {
            return Err(WeightsError::BadScale(scale));
        }
        let per_phase = u32_at(bytes, 16);
        if per_phase as usize != per_phase_of_set {
            return Err(WeightsError::WrongFeatureCount {
                found: per_phase,
                set,
                expected: per_phase_of_set,
            });
        }
        let meta_len = u32_at(bytes, 20) as usize;
        if meta_len > MAX_META_LEN {
            return Err(WeightsError::MetaTooLong(meta_len));
        }
        // All factors are bounded above, so this cannot overflow.
        let expected = HEADER_LEN + meta_len + 2 * phases * per_phase_of_set;
        if bytes.len() != expected {
            return Err(WeightsError::BadLength {
                found: bytes.len(),
                expected,
            });
        }
        let stored = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        let computed = fnv1a64(&[&bytes[..24], &bytes[32..]]);
        if stored != computed {
            return Err(WeightsError::BadChecksum { stored, computed });
        }
        let meta = std::str::from_utf8(&bytes[HEADER_LEN..HEADER_LEN + meta_len])
            .map_err(|_| WeightsError::BadMeta)?
            .to_string();
        let stored: Vec<i16> = bytes[HEADER_LEN + meta_len..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        // A phase of a set-1 or set-2 file gets zero weights for set 3's shapes after the base
        // shapes' classes, and a set-1 phase zero potential-mobility weights after its own.
        let mut weights = Vec::with_capacity(phases * FEATURES_PER_PHASE);
        for phase in stored.chunks_exact(per_phase_of_set) {
            if set == PATTERN_SET_ID {
                weights.extend_from_slice(phase);
                continue;
            }
            let (patterns, scalars) = phase.split_at(BASE_COMPACT_PATTERNS_LEN);
            let start = weights.len();
            weights.extend_from_slice(patterns);
            weights.resize(start + COMPACT_PATTERNS_LEN, 0);
            weights.extend_from_slice(scalars);
            weights.resize(start + FEATURES_PER_PHASE, 0);
        }
        PatternEval::from_compact(phases, weights, meta)
    }

    /// The weight file's bytes (see the module documentation for the layout).
    /// Weights that do not use the shapes of pattern set 3 are written as a set-2 file (the
    /// same evaluation in half the bytes, readable by older engines).
    pub fn to_bytes(&self) -> Vec<u8> {
        let meta = self.meta().as_bytes();
        let weights = self.compact_weights();
        let (set, per_phase) = if self.uses_set3_shapes() {
            (PATTERN_SET_ID, FEATURES_PER_PHASE)
        } else {
            (2, SET2_FEATURES_PER_PHASE)
        };
        let mut out = Vec::with_capacity(HEADER_LEN + meta.len() + 2 * self.phases() * per_phase);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&set.to_le_bytes());
        out.extend_from_slice(&(self.phases() as u16).to_le_bytes());
        out.extend_from_slice(&(WEIGHT_SCALE as u16).to_le_bytes());
        out.extend_from_slice(&(per_phase as u32).to_le_bytes());
        out.extend_from_slice(&(meta.len() as u32).to_le_bytes());
        out.extend_from_slice(&[0; 8]); // checksum, filled in below
        out.extend_from_slice(meta);
        for phase in weights.chunks_exact(FEATURES_PER_PHASE) {
            // Set 2 leaves out the classes of set 3's shapes, which are all 0.
            let kept = if set == PATTERN_SET_ID {
                [phase, &[][..]]
            } else {
                [
                    &phase[..BASE_COMPACT_PATTERNS_LEN],
                    &phase[COMPACT_PATTERNS_LEN..],
                ]
            };
            for w in kept.into_iter().flatten() {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        let sum = fnv1a64(&[&out[..24], &out[32..]]);
        out[24..32].copy_from_slice(&sum.to_le_bytes());
        out
    }
}
