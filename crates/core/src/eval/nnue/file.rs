//! The network file (`.nnue`), as the trainer writes it, and the float reference network.
//!
//! Little-endian throughout:
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0 | 8 | magic `OthNNUE1` |
//! | 8 | 2 | format version: 1 (every weight `f32`) or 2 (the embedding in `i8`) |
//! | 10 | 2 | pattern set = 3 (the 14 shapes, 58 placements) |
//! | 12 | 2 | accumulator width H (1 to [`MAX_HIDDEN`]) |
//! | 14 | 2 | second layer width L2 (1 to [`MAX_L2`]) |
//! | 16 | 2 | phase buckets B (1 to 61; bucket = `empties * B / 61`) |
//! | 18 | 2 | global inputs X = 2 (each side's move count / 16) |
//! | 20 | 4 | embedding rows R (the weight classes of all shapes: 204,030) |
//! | 24 | 8 | checksum: 64-bit FNV-1a of every byte but these 8 |
//! | 32 | 4 | parameter count N |
//! | 36 | 4 | base: 0, or the [`base_id`] of the pattern weights the network corrects |
//! | 40 | 4·N | version 1, `f32`: E (R × H, row-major), b0 (H), W2 (B × L2 × (H + X)), b2 (B × L2), W3 (B × L2), b3 (B) |
//! | 40 | R·H + 4·(N − R·H) | version 2: E in `i8` at [`EMBED_SCALE`] per unit (−127 to 127), then the rest in `f32` as in version 1 |
//!
//! Version 2 is the shipping form: the engine quantises the embedding to those same `i8`
//! values when it reads version 1, so both versions of one network evaluate identically, and
//! version 2 is a quarter of the size (13 MB for the shipped shape against 52 MB).
//! [`FloatNet::to_packed_bytes`] writes it.
//!
//! A network with a base (`nnue-train --base`) was trained on the labels' residuals over those
//! pattern weights: its value is its own output plus theirs. The engine reads only the base it
//! embeds (`weights/pattern-v6.bin`, [`crate::eval::builtin::DEFAULT_WEIGHTS`]) and refuses a
//! file naming another, so that a correction is never added to the wrong weights. (Files made
//! before the field had 0 there: no base.)
//!
//! Parsing checks every field, the exact length, the checksum, that every weight is finite
//! and that the weights fit the quantised inference's ranges, and never panics on any bytes.

use thiserror::Error;

use super::{
    bucket, raw_to_row, rows_from_indices, NnueEval, EMBED_SCALE, MAX_CLIPPED, MAX_HIDDEN, MAX_L2,
    MOBILITY_SCALE, W2_SCALE,
};
use std::sync::Arc;

use crate::eval::pattern::file::Fnv1a64;
use crate::eval::pattern::geometry::geometry;
use crate::eval::pattern::geometry::instance_indices;
use crate::eval::pattern::PatternEval;
use crate::zeroed::ZeroedArray;

/// The first eight bytes of a network file.
pub const MAGIC: [u8; 8] = *b"OthNNUE1";
/// The format version of `f32` files (what the trainer writes).
pub const VERSION: u16 = 1;
/// The format version of packed files: the embedding in `i8`.
pub const VERSION_PACKED: u16 = 2;
/// The pattern set the rows index.
pub const PATTERN_SET: u16 = 3;
/// Header length.
pub const HEADER_LEN: usize = 40;
/// Global inputs of the second layer.
pub const EXTRA: usize = 2;
/// The largest network file read (a network of the widest accumulator).
pub const MAX_FILE_LEN: usize = 256 << 20;

/// Why a network file was refused.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum NnueError {
    /// Fewer bytes than the header, or than the header announces.
    #[error("truncated network file: {actual} bytes, expected {expected}")]
    Truncated {
        /// Bytes needed.
        expected: usize,
        /// Bytes present.
        actual: usize,
    },
    /// More bytes than the header announces.
    #[error("network file too long: {actual} bytes, expected {expected}")]
    TrailingBytes {
        /// Bytes announced.
        expected: usize,
        /// Bytes present.
        actual: usize,
    },
    /// Not a network file.
    #[error("not a network file: bad magic bytes (expected \"OthNNUE1\")")]
    BadMagic,
    /// A version this code does not read.
    #[error("network file version {0} is not supported (this engine reads versions {VERSION} and {VERSION_PACKED})")]
    UnsupportedVersion(u16),
    /// Another pattern set.
    #[error("network file for pattern set {0}; this engine reads pattern set {PATTERN_SET}")]
    WrongPatternSet(u16),
    /// Dimensions out of range or not those of the pattern set.
    #[error("bad network dimensions: {0}")]
    BadDimensions(String),
    /// The checksum does not match the contents.
    #[error("corrupt network file: checksum {stored:016x}, the contents give {computed:016x}")]
    Checksum {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
    /// A weight is NaN or infinite.
    #[error("network weight {0} is not finite")]
    NonFinite(usize),
    /// Too many embedding weights beyond the `i8` range.
    #[error("{clipped} of the network's {total} embedding weights are beyond ±{limit}, more than the {share}% the quantised inference clips")]
    TooManyClipped {
        /// Weights beyond the range.
        clipped: usize,
        /// Embedding weights in all.
        total: usize,
        /// The range.
        limit: f32,
        /// The most, in percent, that may clip.
        share: f64,
    },
    /// An embedding of another length than its dimensions give.
    #[error("the network's embedding has {given} weights, its dimensions give {expected}")]
    EmbeddingLength {
        /// Weights the dimensions give.
        expected: usize,
        /// Weights given.
        given: usize,
    },
    /// No memory for the embedding's rows.
    #[error("no memory for the network's embedding ({0} bytes)")]
    NoMemory(usize),
    /// The network corrects pattern weights this engine does not have.
    #[error("the network corrects pattern weights with id {0:08x}, which this engine does not embed (it embeds {1:08x}, weights/pattern-v6.bin)")]
    UnknownBase(u32, u32),
    /// A weight outside what the quantised inference represents.
    #[error(
        "network weight {index} ({value}) is outside the quantised range of its layer (±{limit})"
    )]
    OutOfRange {
        /// The weight's index in the file's parameters.
        index: usize,
        /// Its value, as text.
        value: String,
        /// The largest magnitude the layer takes.
        limit: f32,
    },
}

/// 64-bit FNV-1a of `bytes`, skipping the checksum field (bytes 24 to 31).
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a64::new();
    h.write(&bytes[..bytes.len().min(24)]);
    h.write(bytes.get(32..).unwrap_or(&[]));
    h.finish()
}

/// The id a network file gives the pattern weights it corrects: the low 32 bits of the
/// 64-bit FNV-1a of their file's bytes (never 0, which means no base).
pub fn base_id(pattern_file: &[u8]) -> u32 {
    let mut h = Fnv1a64::new();
    h.write(pattern_file);
    (h.finish() as u32).max(1)
}

/// The id of the embedded pattern weights, the one base the engine reads.
pub fn builtin_base_id() -> u32 {
    static ID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *ID.get_or_init(|| base_id(crate::eval::builtin::DEFAULT_WEIGHTS))
}

/// The pattern weights a network with base field `id` corrects: none for 0, the embedded
/// weights for their id, and an error naming both ids for any other.
pub fn base_for(id: u32) -> Result<Option<Arc<PatternEval>>, NnueError> {
    match id {
        0 => Ok(None),
        id if id == builtin_base_id() => Ok(Some(crate::eval::builtin::default_pattern())),
        id => Err(NnueError::UnknownBase(id, builtin_base_id())),
    }
}

/// The network in `f32`, as the trainer computes it: the reference the quantised inference
/// is tested against.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Accumulator width.
    pub hidden: usize,
    /// Second layer width.
    pub l2: usize,
    /// Phase buckets.
    pub buckets: usize,
    /// Embedding, `rows × hidden`.
    pub emb: Vec<f32>,
    /// Accumulator bias.
    pub b0: Vec<f32>,
    /// Second layer, `buckets × l2 × (hidden + 2)`.
    pub w2: Vec<f32>,
    /// Second layer bias, `buckets × l2`.
    pub b2: Vec<f32>,
    /// Output weights, `buckets × l2`.
    pub w3: Vec<f32>,
    /// Output bias, `buckets`.
    pub b3: Vec<f32>,
    /// The [`base_id`] of the pattern weights this network corrects, or 0. [`FloatNet::evaluate`]
    /// gives the network's own output either way; the engine adds the base.
    pub base: u32,
}

/// A network file whose header, length and checksum are checked: its dimensions, and its
/// weights still as bytes.
struct Layout<'a> {
    hidden: usize,
    l2: usize,
    buckets: usize,
    base: u32,
    /// The parameter counts of the embedding, `b0`, `w2`, `b2`, `w3` and `b3`.
    sizes: [usize; 6],
    /// The embedding at one byte a weight (version 2), else empty.
    packed: &'a [u8],
    /// The rest of the weights, `f32` little-endian (with the embedding for version 1).
    floats: &'a [u8],
}

impl<'a> Layout<'a> {
    /// Checks a network file's header, length and checksum.
    /// `verify` false skips the checksum (13 ms for a 13 MB file here): only for bytes
    /// embedded at build time, whose checksum a unit test verifies.
    fn parse(bytes: &'a [u8], verify: bool) -> Result<Layout<'a>, NnueError> {
        if bytes.len() < HEADER_LEN {
            return Err(if bytes.len() >= 8 && bytes[..8] != MAGIC {
                NnueError::BadMagic
            } else {
                NnueError::Truncated {
                    expected: HEADER_LEN,
                    actual: bytes.len(),
                }
            });
        }
        if bytes[..8] != MAGIC {
            return Err(NnueError::BadMagic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let version = u16_at(8);
        if version != VERSION && version != VERSION_PACKED {
            return Err(NnueError::UnsupportedVersion(version));
        }
        let set = u16_at(10);
        if set != PATTERN_SET {
            return Err(NnueError::WrongPatternSet(set));
        }
        let (hidden, l2, buckets, extra) = (
            u16_at(12) as usize,
            u16_at(14) as usize,
            u16_at(16) as usize,
            u16_at(18) as usize,
        );
        if !(1..=MAX_HIDDEN).contains(&hidden)
            || !(1..=MAX_L2).contains(&l2)
            || !(1..=61).contains(&buckets)
        {
            return Err(NnueError::BadDimensions(format!(
                "H {hidden} (1 to {MAX_HIDDEN}), L2 {l2} (1 to {MAX_L2}), buckets {buckets} (1 to 61)"
            )));
        }
        if extra != EXTRA {
            return Err(NnueError::BadDimensions(format!(
                "{extra} global inputs, expected {EXTRA}"
            )));
        }
        let rows = geometry().compact_patterns_len;
        if u32_at(20) as usize != rows {
            return Err(NnueError::BadDimensions(format!(
                "{} embedding rows, the pattern set has {rows}",
                u32_at(20)
            )));
        }
        let sizes = [
            rows * hidden,
            hidden,
            buckets * l2 * (hidden + EXTRA),
            buckets * l2,
            buckets * l2,
            buckets,
        ];
        let count: usize = sizes.iter().sum();
        if u32_at(32) as usize != count {
            return Err(NnueError::BadDimensions(format!(
                "{} parameters, the dimensions give {count}",
                u32_at(32)
            )));
        }
        // Version 2 holds the embedding in one byte a weight.
        let embedded = if version == VERSION_PACKED {
            sizes[0]
        } else {
            0
        };
        let expected = HEADER_LEN + embedded + 4 * (count - embedded);
        if bytes.len() < expected {
            return Err(NnueError::Truncated {
                expected,
                actual: bytes.len(),
            });
        }
        if bytes.len() > expected {
            return Err(NnueError::TrailingBytes {
                expected,
                actual: bytes.len(),
            });
        }
        let stored = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        if verify {
            let computed = checksum(bytes);
            if stored != computed {
                return Err(NnueError::Checksum { stored, computed });
            }
        }
        let (packed, floats) = bytes[HEADER_LEN..].split_at(embedded);
        Ok(Layout {
            hidden,
            l2,
            buckets,
            base: u32_at(36),
            sizes,
            packed,
            floats,
        })
    }

    /// The packed embedding, checked: an error names a byte of -128, which no writer produces.
    fn checked_packed(&self) -> Result<&[u8], NnueError> {
        // `contains` on bytes is a vectorised search; the position only for the error.
        let bad = i8::MIN as u8;
        if !self.packed.contains(&bad) {
            return Ok(self.packed);
        }
        match self.packed.iter().position(|&q| q == bad) {
            Some(index) => Err(NnueError::OutOfRange {
                index,
                value: format!("{} / {EMBED_SCALE}", i8::MIN),
                limit: i8::MAX as f32 / EMBED_SCALE as f32,
            }),
            None => Ok(self.packed),
        }
    }

    /// The packed embedding as the engine holds it ([`embedding_rows`]).
    fn packed_embedding(&self, hidden: usize) -> Result<ZeroedArray<i8>, NnueError> {
        let packed = self.checked_packed()?;
        // Whole rows (the copies vectorise): the engine decodes the embedded network at
        // start-up, before it answers its first command.
        embedding_rows(hidden, packed.len(), |row, first| {
            for (w, &q) in row.iter_mut().zip(&packed[first..]) {
                *w = q as i8;
            }
        })
    }

    /// The network in `f32`; with `with_embedding` false, a packed file's embedding is left
    /// out (`emb` empty) for [`FloatNet::quantise_with`].
    fn floats(&self, with_embedding: bool) -> Result<FloatNet, NnueError> {
        let embedded = self.packed.len();
        let mut values = Vec::with_capacity(self.sizes.iter().sum());
        if with_embedding {
            values.extend(
                self.checked_packed()?
                    .iter()
                    .map(|&q| q as i8 as f32 / EMBED_SCALE as f32),
            );
        }
        for (i, chunk) in self.floats.chunks_exact(4).enumerate() {
            let v = f32::from_le_bytes(chunk.try_into().expect("4 bytes"));
            if !v.is_finite() {
                return Err(NnueError::NonFinite(embedded + i));
            }
            values.push(v);
        }
        let mut rest = values.as_slice();
        let mut take = |n: usize| {
            let (a, b) = rest.split_at(n);
            rest = b;
            a.to_vec()
        };
        let skipped = embedded > 0 && !with_embedding;
        Ok(FloatNet {
            hidden: self.hidden,
            l2: self.l2,
            buckets: self.buckets,
            emb: if skipped {
                Vec::new()
            } else {
                take(self.sizes[0])
            },
            b0: take(self.sizes[1]),
            w2: take(self.sizes[2]),
            b2: take(self.sizes[3]),
            w3: take(self.sizes[4]),
            b3: take(self.sizes[5]),
            base: self.base,
        })
    }
}

impl FloatNet {
    /// Parses a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<FloatNet, NnueError> {
        Layout::parse(bytes, true)?.floats(true)
    }

    /// The value of (`p`, `o`) in discs, computed in `f32` as the trainer computes it.
    pub fn evaluate(&self, p: u64, o: u64) -> f32 {
        let h = self.hidden;
        let mut acc = self.b0.clone();
        for row in rows_from_indices(&instance_indices(p, o)) {
            let row = row as usize;
            for (a, w) in acc.iter_mut().zip(&self.emb[row * h..row * h + h]) {
                *a += *w;
            }
        }
        let mut x: Vec<f32> = acc.iter().map(|a| a.clamp(0.0, 1.0)).collect();
        x.push(crate::movegen::moves(p, o).count_ones() as f32 / MOBILITY_SCALE);
        x.push(crate::movegen::moves(o, p).count_ones() as f32 / MOBILITY_SCALE);
        let n = h + EXTRA;
        let b = bucket((!(p | o)).count_ones(), self.buckets);
        let mut y = self.b3[b];
        for k in 0..self.l2 {
            let row = &self.w2[(b * self.l2 + k) * n..(b * self.l2 + k + 1) * n];
            let z: f32 =
                row.iter().zip(&x).map(|(w, v)| w * v).sum::<f32>() + self.b2[b * self.l2 + k];
            y += self.w3[b * self.l2 + k] * z.clamp(0.0, 1.0);
        }
        y
    }

    /// The quantised network (see [`NnueEval`]), or an error naming a weight out of its
    /// layer's range.
    pub fn quantise(&self) -> Result<NnueEval, NnueError> {
        let emb_limit = i8::MAX as f32 / EMBED_SCALE as f32;
        let clipped = self.emb.iter().filter(|w| w.abs() > emb_limit).count();
        if clipped as f64 > MAX_CLIPPED * self.emb.len() as f64 {
            return Err(NnueError::TooManyClipped {
                clipped,
                total: self.emb.len(),
                limit: emb_limit,
                share: MAX_CLIPPED * 100.0,
            });
        }
        let emb = embedding_rows(self.hidden, self.emb.len(), |row, first| {
            for (w, &v) in row.iter_mut().zip(&self.emb[first..]) {
                *w = quantise_embedding(v);
            }
        })?;
        self.quantise_with(emb)
    }

    /// [`FloatNet::quantise`] with the embedding given, already quantised (`self.emb` is not
    /// read).
    fn quantise_with(&self, emb: ZeroedArray<i8>) -> Result<NnueEval, NnueError> {
        let h = self.hidden;
        let embed_limit = i16::MAX as f32 / EMBED_SCALE as f32;
        let w2_limit = i16::MAX as f32 / W2_SCALE as f32;
        let quantise = |values: &[f32], scale: i32, limit: f32, first: usize| {
            values
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    if v.abs() > limit {
                        Err(NnueError::OutOfRange {
                            index: first + i,
                            value: v.to_string(),
                            limit,
                        })
                    } else {
                        Ok((v * scale as f32).round() as i16)
                    }
                })
                .collect::<Result<Vec<i16>, NnueError>>()
        };
        let embedded = geometry().compact_patterns_len * h;
        let b0 = quantise(&self.b0, EMBED_SCALE, embed_limit, embedded)?;
        let n = h + EXTRA;
        let mut w2_dense = Vec::with_capacity(self.buckets * self.l2 * h);
        let mut w2_mobility = Vec::with_capacity(self.buckets * self.l2 * EXTRA);
        let w2_first = embedded + self.b0.len();
        for (r, row) in self.w2.chunks_exact(n).enumerate() {
            w2_dense.extend(quantise(&row[..h], W2_SCALE, w2_limit, w2_first + r * n)?);
        }
        // By bucket, each mobility input's weights for the `l2` outputs together.
        for bucket_rows in self.w2.chunks_exact(n * self.l2) {
            for input in 0..EXTRA {
                w2_mobility.extend(bucket_rows.chunks_exact(n).map(|row| row[h + input]));
            }
        }
        let base = base_for(self.base)?;
        let active = super::active_slots(emb.as_slice(), h);
        Ok(NnueEval {
            hidden: h,
            l2: self.l2,
            buckets: self.buckets,
            active,
            emb,
            b0,
            w2: w2_dense,
            w2_mobility,
            b2: self.b2.clone(),
            w3: self.w3.clone(),
            b3: self.b3.clone(),
            mpc_model: None,
            orderer: None,
            lazy_margin: None,
            pattern_below: None,
            avx512: super::avx512_available(),
            base,
            value_cache: false,
        })
    }

    /// The bytes of a version 1 network file holding this network (every weight `f32`).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.write(VERSION)
    }

    /// The bytes of a version 2 network file: the embedding rounded to the `i8` values the
    /// engine evaluates with (clipped to ±127), the rest as in [`FloatNet::to_bytes`]. Read
    /// back, it evaluates exactly as this network does in the engine.
    pub fn to_packed_bytes(&self) -> Vec<u8> {
        self.write(VERSION_PACKED)
    }

    fn write(&self, version: u16) -> Vec<u8> {
        let count = self.emb.len()
            + self.b0.len()
            + self.w2.len()
            + self.b2.len()
            + self.w3.len()
            + self.b3.len();
        let mut out = Vec::with_capacity(HEADER_LEN + 4 * count);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&PATTERN_SET.to_le_bytes());
        out.extend_from_slice(&(self.hidden as u16).to_le_bytes());
        out.extend_from_slice(&(self.l2 as u16).to_le_bytes());
        out.extend_from_slice(&(self.buckets as u16).to_le_bytes());
        out.extend_from_slice(&(EXTRA as u16).to_le_bytes());
        out.extend_from_slice(&(geometry().compact_patterns_len as u32).to_le_bytes());
        out.extend_from_slice(&[0; 8]);
        out.extend_from_slice(&(count as u32).to_le_bytes());
        out.extend_from_slice(&self.base.to_le_bytes());
        let floats: &[&Vec<f32>] = if version == VERSION_PACKED {
            for &w in &self.emb {
                out.push(quantise_embedding(w) as u8);
            }
            &[&self.b0, &self.w2, &self.b2, &self.w3, &self.b3]
        } else {
            &[&self.emb, &self.b0, &self.w2, &self.b2, &self.w3, &self.b3]
        };
        for v in floats {
            for x in v.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        let sum = checksum(&out);
        out[24..32].copy_from_slice(&sum.to_le_bytes());
        out
    }
}

/// The embedding as the engine reads it, each row filled by `fill(row, first)` from the file's
/// embedding (rows of `hidden` by weight class; `first` is the index of the row's class's
/// first weight there): one row a base-3 index, so that no table
/// lookup precedes a row's load ([`NnueEval`]); on a cache-line boundary, so that a row of 64
/// is one line, not two; and on huge pages where the kernel grants them ([`ZeroedArray`]).
fn embedding_rows(
    hidden: usize,
    given: usize,
    fill: impl Fn(&mut [i8], usize),
) -> Result<ZeroedArray<i8>, NnueError> {
    let expected = geometry().compact_patterns_len * hidden;
    if given != expected {
        return Err(NnueError::EmbeddingLength { expected, given });
    }
    let classes = raw_to_row();
    let len = classes.len() * hidden;
    let mut rows = ZeroedArray::new(len).ok_or(NnueError::NoMemory(len))?;
    rows.advise_huge_pages();
    for (row, &class) in rows.as_mut_slice().chunks_exact_mut(hidden).zip(classes) {
        fill(row, class as usize * hidden);
    }
    Ok(rows)
}

/// An embedding weight as the engine holds it: `i8` at [`EMBED_SCALE`] per unit, clipped to
/// ±127.
fn quantise_embedding(w: f32) -> i8 {
    (w * EMBED_SCALE as f32).round().clamp(-127.0, 127.0) as i8
}

impl NnueEval {
    /// Parses and quantises a network file. A packed file's embedding (version 2, nearly all
    /// of it) goes straight to the `i8` rows the engine reads, with no `f32` copy: what
    /// [`FloatNet::from_bytes`] and [`FloatNet::quantise`] give, at a fifth of the memory.
    pub fn from_bytes(bytes: &[u8]) -> Result<NnueEval, NnueError> {
        NnueEval::decode(bytes, true)
    }

    /// [`NnueEval::from_bytes`] without the checksum, for the network embedded at build time
    /// (whose checksum a unit test verifies): the engine decodes it at start-up, before it
    /// answers its first command, and the checksum would be a third of the time.
    pub(crate) fn from_embedded_bytes(bytes: &[u8]) -> Result<NnueEval, NnueError> {
        NnueEval::decode(bytes, false)
    }

    /// Parses (checking the checksum if `verify`) and quantises a network file.
    fn decode(bytes: &[u8], verify: bool) -> Result<NnueEval, NnueError> {
        let layout = Layout::parse(bytes, verify)?;
        if layout.packed.is_empty() {
            return layout.floats(true)?.quantise();
        }
        let floats = layout.floats(false)?;
        let emb = layout.packed_embedding(floats.hidden)?;
        floats.quantise_with(emb)
    }

    /// Whether `bytes` start like a network file (what `--eval-file` tells weight files by).
    pub fn is_network_file(bytes: &[u8]) -> bool {
        bytes.starts_with(&MAGIC)
    }
}
