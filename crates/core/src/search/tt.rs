//! Transposition table: a fixed-size cache of search results, keyed by [`crate::hash::table_key`].
//!
//! # Layout
//! The table is a vector of 64-byte clusters (one cache line each), allocated once. A cluster
//! holds four entries of two `u64` words:
//!
//! | word | contents |
//! | --- | --- |
//! | `check` | the position's table key XOR `data` |
//! | `data`  | bits 0-15 score (`i16`, centi-discs), 16-17 bound, 24-31 depth, 32-39 best move (64 = none), 40-47 age |
//!
//! A position's cluster is chosen by multiplying its key by the number of clusters and keeping
//! the high 64 bits ("fast range"), so any table size works.
//!
//! # Regions
//! The endgame solver keeps its entries for nodes near the leaves (up to
//! `endgame::NEAR_MAX` empties) in the table's first [`NEAR_MB`] MiB ([`Region::Near`]), and
//! every other entry in the rest ([`Region::Main`]). The near nodes are most of the table's
//! traffic, and a small region stays in the processor's last-level cache and TLB, where a
//! gigabyte-sized table makes nearly every probe a miss to memory; and they no longer evict
//! the deeper entries, which order the big subtrees. A position's region depends only on the
//! position (its empties), so its entries are found where they were stored. A table smaller
//! than four times [`NEAR_MB`] is not split: both regions are the whole table, so the 64 MiB
//! of a game's search and of `othello bench` keep every entry where it was.
//!
//! # Depth
//! Midgame entries store their search depth (1..=60). Exact endgame results store
//! [`SOLVED_DEPTH`] plus the number of empty squares, so they outrank every midgame entry
//! and are usable at any depth. Scores are in centi-discs in both cases (an exact score of
//! `n` discs is stored as `100 * n`).
//!
//! # Replacement
//! A store to a position already in the cluster overwrites it unless the old entry is from
//! this search, deeper, and the new one is not exact. Otherwise the victim is the entry with
//! the lowest priority, where an entry from an older search has priority `depth` and one from
//! the current search `depth + 256`: current-age entries survive, deeper ones first.
//!
//! # Threads
//! Words are `AtomicU64` with relaxed ordering (plain moves on x86-64). Two threads may store
//! to one entry at once and leave `check` from one and `data` from the other; because `check`
//! is the key XOR the data (Hyatt and Mann's lockless hashing), such a torn entry fails
//! verification and reads as a miss instead of as a wrong result.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::square::Square;

use crate::zeroed::{Zeroable, ZeroedArray};

/// Depth stored for exact endgame results (plus the number of empties).
pub const SOLVED_DEPTH: u8 = 100;

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (the search failed low).
    Upper,
    /// The score is the true value (at the stored depth).
    Exact,
}

impl Bound {
    /// What a fail-soft result `best` of a search over (`alpha`, `beta`) says about the value.
    #[inline(always)]
    pub fn from_window(best: i32, alpha: i32, beta: i32) -> Bound {
        if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

impl Bound {
    /// Whether a stored `score` with this bound settles a search over (`alpha`, `beta`).
    #[inline(always)]
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// One entry, decoded.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Score in centi-discs, from the side to move's view.
    pub score: i16,
    /// How `score` bounds the true value.
    pub bound: Bound,
    /// Search depth, or [`SOLVED_DEPTH`] + empties for an exact solve.
    pub depth: u8,
    /// The best (or refutation) move found, if any.
    pub best: Option<Square>,
    /// The search generation that wrote it.
    pub age: u8,
}

impl Entry {
    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::Lower => 1u64,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        let best = self.best.map_or(64, |s| s.index() as u64);
        (self.score as u16 as u64)
            | (bound << 16)
            | ((self.depth as u64) << 24)
            | (best << 32)
            | ((self.age as u64) << 40)
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 16) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            score: data as u16 as i16,
            bound,
            depth: (data >> 24) as u8,
            best: Square::from_index(((data >> 32) & 0xFF) as usize),
            age: (data >> 40) as u8,
        })
    }

    /// Whether this entry is an exact endgame result (valid at any depth).
    pub fn is_solved(&self) -> bool {
        self.depth >= SOLVED_DEPTH
    }
}

const ENTRIES_PER_CLUSTER: usize = 4;

#[repr(align(64))]
struct Cluster([AtomicU64; 2 * ENTRIES_PER_CLUSTER]);

/// Size in MiB of the table's first part, where [`Region::Near`] entries live, in a table of at
/// least four times this size.
pub const NEAR_MB: usize = 32;

/// The part of the table an entry lives in (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Region {
    /// All but the first [`NEAR_MB`] MiB (the whole of a small table).
    Main,
    /// The first [`NEAR_MB`] MiB (the whole of a small table).
    Near,
}

/// The memory for a table could not be allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {mb} MiB transposition table")]
pub struct TableAllocError {
    /// The size asked for, in MiB.
    pub mb: usize,
}

/// Hints the processor to start loading the cache line holding `item` (a no-op off x86-64).
/// Only a hint: it changes no state a program can observe except timing.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch never faults, whatever the address, and has no architectural
        // effect; here the pointer comes from a live reference anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(item as *const T as *const i8) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

// SAFETY: a cluster is atomic words, valid when zero (an empty cluster), aligned to 64.
unsafe impl Zeroable for Cluster {}

/// The transposition table. See the module docs for layout and policies.
pub struct TranspositionTable {
    /// Zero-filled at first: a large table costs no time and no memory until used.
    clusters: ZeroedArray<Cluster>,
    /// Clusters in the [`Region::Near`] part, which starts the table.
    near: usize,
    /// The first cluster of the [`Region::Main`] part, which ends the table.
    main_start: usize,
    age: u8,
}

/// The clusters of the [`Region::Near`] part of a table of `len` clusters, and the first of
/// its [`Region::Main`] part: split at [`NEAR_MB`] if the table holds four times that, else
/// both the whole table.
fn regions(len: usize) -> (usize, usize) {
    let near = NEAR_MB * (1 << 20) / std::mem::size_of::<Cluster>();
    if len >= 4 * near {
        (near, near)
    } else {
        (len, 0)
    }
}

/// Table size in MiB of a single search (`search`, `solve`, `quality`, the NBoard engine).
pub const DEFAULT_HASH_MB: usize = 64;

/// Largest table (MiB) that [`TranspositionTable::clear`] zeroes where it is. A fresh block is
/// free to make but every page the next search touches is zeroed again by the kernel on its
/// first touch, which costs more than zeroing pages already there (on a virtual machine that
/// hands freed pages back to its host, 1.1-1.8 s a GiB: `othello quality`, which clears the
/// table for each position, spent 28% of its time there at depth 16). Above this size, most
/// of a table may stay untouched by a short search, and zeroing it all would hold up the
/// caller (an NBoard `set game` must still answer its `ping` at once).
pub const CLEAR_IN_PLACE_MB: usize = 256;
/// The largest table [`solve_hash_mb`] chooses, in MiB.
pub const SOLVE_MAX_HASH_MB: usize = 1024;

/// The table size in MiB that `othello solve` gives a position of `empties` empty squares when
/// no size is named: [`DEFAULT_HASH_MB`] up to 24 empties, doubling with each empty beyond, up
/// to [`SOLVE_MAX_HASH_MB`] from 28. An exact solve's tree grows about threefold an empty, and
/// a table too small for it loses the entries that order the deeper nodes: FFO #40-#59 (20-34
/// empties) takes 15.3 G nodes at 64 MiB and 11.4 G at 1 GiB, while #40-#49 (20-26) are the
/// same at both. A small position keeps a small table, since its touched pages are the cost of
/// clearing the table.
pub fn solve_hash_mb(empties: u32) -> usize {
    (DEFAULT_HASH_MB << empties.saturating_sub(24).min(4)).min(SOLVE_MAX_HASH_MB)
}

/// Largest table of a single search that the command line accepts, in MiB.
pub const MAX_HASH_MB: usize = 65_536;
/// Table size in MiB where many searches run at once, each with its own table: an `engine`
/// player (a match at `-j 20` runs 40 of them), and each worker of `label`, `selfplay` and
/// `calibrate`.
pub const SHARED_HASH_MB: usize = 16;
/// Largest table of such a search in MiB, and of the NBoard engine's `set hash` (the table is
/// allocated at once, so a size beyond the machine's memory would kill the process rather than
/// fail).
pub const MAX_SHARED_HASH_MB: usize = 4_096;

impl TranspositionTable {
    /// Default size in MiB ([`DEFAULT_HASH_MB`]).
    pub const DEFAULT_MB: usize = DEFAULT_HASH_MB;

    /// A table of about `mb` MiB (at least one cluster).
    ///
    /// # Panics
    /// If the memory cannot be allocated; see [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        match Self::try_new(mb) {
            Ok(tt) => tt,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of about `mb` MiB, or an error if the memory cannot be allocated.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, TableAllocError> {
        let n = (mb.saturating_mul(1 << 20) / std::mem::size_of::<Cluster>()).max(1);
        let clusters = ZeroedArray::new(n).ok_or(TableAllocError { mb })?;
        clusters.advise_huge_pages();
        let (near, main_start) = regions(n);
        Ok(TranspositionTable {
            clusters,
            near,
            main_start,
            age: 1,
        })
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        std::mem::size_of_val(self.clusters.as_slice())
    }

    /// Empties the table. Up to [`CLEAR_IN_PLACE_MB`] it is zeroed where it is; a larger one
    /// is replaced by a fresh zeroed block (no time spent on pages the next search may never
    /// touch), or zeroed where it is if there is no memory for that.
    pub fn clear(&mut self) {
        let n = self.clusters.as_slice().len();
        let fresh = if self.size_bytes() > CLEAR_IN_PLACE_MB << 20 {
            ZeroedArray::new(n)
        } else {
            None
        };
        match fresh {
            Some(fresh) => {
                self.clusters = fresh;
                self.clusters.advise_huge_pages();
            }
            None => {
                for c in self.clusters.as_mut_slice() {
                    for w in &mut c.0 {
                        *w.get_mut() = 0;
                    }
                }
            }
        }
        self.age = 1;
    }

    /// Starts a new search generation: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.age = if self.age == u8::MAX { 1 } else { self.age + 1 };
    }

    /// The current search generation.
    pub fn age(&self) -> u8 {
        self.age
    }

    #[inline(always)]
    fn cluster(&self, key: u64, region: Region) -> &Cluster {
        let all = self.clusters.as_slice();
        let (start, len) = match region {
            Region::Main => (self.main_start, all.len() - self.main_start),
            Region::Near => (0, self.near),
        };
        let i = ((key as u128 * len as u128) >> 64) as usize;
        &all[start + i]
    }

    /// Starts loading the cluster of `key` into the cache (a hint only).
    #[inline(always)]
    pub fn prefetch_key(&self, key: u64) {
        self.prefetch_in(key, Region::Main);
    }

    /// Starts loading the cluster of `key` in `region` into the cache (a hint only).
    #[inline(always)]
    pub fn prefetch_in(&self, key: u64, region: Region) {
        prefetch(self.cluster(key, region));
    }

    /// The entry stored for `key`, if any (a copy).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.probe_in(key, Region::Main)
    }

    /// The entry stored for `key` in `region`, if any (a copy).
    #[inline]
    pub fn probe_in(&self, key: u64, region: Region) -> Option<Entry> {
        let c = self.cluster(key, region);
        for i in 0..ENTRIES_PER_CLUSTER {
            let data = c.0[2 * i + 1].load(Relaxed);
            if c.0[2 * i].load(Relaxed) ^ data == key && data != 0 {
                return Entry::unpack(data);
            }
        }
        None
    }

    /// Stores a result for `key`. `best` of `None` keeps a best move already stored for it.
    #[inline]
    pub fn store(&self, key: u64, score: i16, bound: Bound, depth: u8, best: Option<Square>) {
        self.store_in(key, Region::Main, score, bound, depth, best);
    }

    /// [`TranspositionTable::store`] in `region`.
    #[inline]
    pub fn store_in(
        &self,
        key: u64,
        region: Region,
        score: i16,
        bound: Bound,
        depth: u8,
        best: Option<Square>,
    ) {
        let c = self.cluster(key, region);
        let mut victim = 0;
        let mut victim_priority = u32::MAX;
        for i in 0..ENTRIES_PER_CLUSTER {
            let data = c.0[2 * i + 1].load(Relaxed);
            let old = Entry::unpack(data);
            if c.0[2 * i].load(Relaxed) ^ data == key && data != 0 {
                if let Some(old) = old {
                    if old.age == self.age && old.depth > depth && bound != Bound::Exact {
                        return;
                    }
                    let best = best.or(old.best);
                    self.write(c, i, key, score, bound, depth, best);
                    return;
                }
            }
            let priority = match old {
                None => 0,
                Some(e) if e.age == self.age => e.depth as u32 + 256,
                Some(e) => e.depth as u32,
            };
            if priority < victim_priority {
                victim_priority = priority;
                victim = i;
            }
        }
        self.write(c, victim, key, score, bound, depth, best);
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn write(
        &self,
        c: &Cluster,
        i: usize,
        key: u64,
        score: i16,
        bound: Bound,
        depth: u8,
        best: Option<Square>,
    ) {
        let data = Entry {
            score,
            bound,
            depth,
            best,
            age: self.age,
        }
        .pack();
        c.0[2 * i].store(key ^ data, Relaxed);
        c.0[2 * i + 1].store(data, Relaxed);
    }

    /// Per-mille of a sample of entries written by the current search (UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let main = &self.clusters.as_slice()[self.main_start..];
        let sample = main.len().min(250);
        let mut used = 0;
        for c in &main[..sample] {
            for i in 0..ENTRIES_PER_CLUSTER {
                if let Some(e) = Entry::unpack(c.0[2 * i + 1].load(Relaxed)) {
                    used += (e.age == self.age) as u32;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_CLUSTER) as u32).min(1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe_round_trips_every_field() {
        let tt = TranspositionTable::new(1);
        tt.store(0xDEAD_BEEF, -1234, Bound::Lower, 7, Some(Square::C4));
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(
            (e.score, e.bound, e.depth, e.best, e.age),
            (-1234, Bound::Lower, 7, Some(Square::C4), 1)
        );
        assert_eq!(tt.probe(0xDEAD_BEEE), None);
    }

    #[test]
    fn near_entries_live_in_the_first_part_and_round_trip() {
        let tt = TranspositionTable::new(4 * NEAR_MB);
        let len = tt.clusters.as_slice().len();
        assert_eq!(tt.near, len / 4);
        let base = tt.clusters.as_slice().as_ptr() as usize;
        let index = |c: &Cluster| (c as *const Cluster as usize - base) / 64;
        let mut rng = crate::rng::SplitMix64::new(59);
        let (mut near_max, mut main_min, mut main_max) = (0, usize::MAX, 0);
        for _ in 0..10_000 {
            let key = rng.next_u64();
            near_max = near_max.max(index(tt.cluster(key, Region::Near)));
            let main = index(tt.cluster(key, Region::Main));
            (main_min, main_max) = (main_min.min(main), main_max.max(main));
            tt.store_in(key, Region::Near, 7, Bound::Exact, 12, Some(Square::D3));
            let e = tt.probe_in(key, Region::Near).unwrap();
            assert_eq!((e.score, e.depth, e.best), (7, 12, Some(Square::D3)));
        }
        // The regions split the table, and each is used from end to end.
        assert_eq!(tt.main_start, tt.near);
        assert!(near_max < tt.near && near_max > tt.near * 99 / 100);
        assert!(main_min >= tt.near && main_min < tt.near + len / 100);
        assert!(main_max < len && main_max > len * 99 / 100);
        // A table under four times the near region is not split.
        let small = TranspositionTable::new(2 * NEAR_MB);
        assert_eq!(small.near, small.clusters.as_slice().len());
        assert_eq!(small.main_start, 0);
        assert!(std::ptr::eq(
            small.cluster(12345, Region::Near),
            small.cluster(12345, Region::Main)
        ));
    }

    #[test]
    fn a_shallower_store_keeps_the_deeper_entry_of_the_same_search() {
        let tt = TranspositionTable::new(1);
        tt.store(42, 100, Bound::Exact, 10, Some(Square::A1));
        tt.store(42, 300, Bound::Upper, 3, None);
        assert_eq!(tt.probe(42).unwrap().depth, 10);
        // An exact result always replaces, and keeps the old best move if it has none.
        tt.store(42, 200, Bound::Exact, 4, None);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.score, e.depth, e.best), (200, 4, Some(Square::A1)));
    }

    #[test]
    fn replacement_prefers_old_and_shallow_victims() {
        // A one-cluster table: every key shares the cluster.
        let mut tt = TranspositionTable {
            clusters: ZeroedArray::new(1).unwrap(),
            near: 1,
            main_start: 0,
            age: 1,
        };
        for k in 1..=4u64 {
            tt.store(k, 0, Bound::Exact, 10 + k as u8, None);
        }
        tt.new_search();
        tt.store(5, 0, Bound::Exact, 1, None);
        // The shallowest old entry (key 1) went.
        assert_eq!(tt.probe(1), None);
        assert!(tt.probe(5).is_some());
        tt.store(6, 0, Bound::Exact, 1, None);
        // Now key 2 (old, depth 12) went, not key 5 (current search, depth 1).
        assert_eq!(tt.probe(2), None);
        assert!(tt.probe(5).is_some() && tt.probe(6).is_some());
        assert_eq!(tt.hashfull(), 500);
    }

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        assert_eq!(
            TranspositionTable::try_new(usize::MAX).err(),
            Some(TableAllocError { mb: usize::MAX })
        );
        assert!(TranspositionTable::try_new(1).is_ok());
    }

    #[test]
    fn concurrent_stores_never_give_a_reader_another_positions_data() {
        // Four threads store and probe keys of a small table (many collisions, many writes to
        // the same slots); each key's score and depth are functions of the key, so a probe
        // that returned another key's data, or a mix of two writes, would show.
        let tt = TranspositionTable::new(1);
        let score_of = |k: u64| ((k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50) as i16) - 4096;
        let depth_of = |k: u64| (k % 50) as u8 + 1;
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let (tt, hits) = (&tt, &hits);
                s.spawn(move || {
                    let mut state = 0x1234_5678 + t;
                    for _ in 0..200_000 {
                        let x;
                        (state, x) = crate::rng::splitmix64(state);
                        let k = crate::rng::splitmix64(x % 50_000).1;
                        if x >> 63 == 0 {
                            tt.store(k, score_of(k), Bound::Exact, depth_of(k), None);
                        } else if let Some(e) = tt.probe(k) {
                            assert_eq!((e.score, e.depth), (score_of(k), depth_of(k)), "key {k}");
                            hits.fetch_add(1, Relaxed);
                        }
                    }
                });
            }
        });
        let hits = hits.into_inner();
        assert!(hits > 1000, "the readers found only {hits} entries");
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        tt.store(77, 5, Bound::Exact, 3, None);
        let c = tt.cluster(77, Region::Main);
        let slot = (0..4).find(|&i| c.0[2 * i + 1].load(Relaxed) != 0).unwrap();
        c.0[2 * slot + 1].fetch_xor(1 << 24, Relaxed);
        assert_eq!(tt.probe(77), None);
    }

    #[test]
    fn solve_tables_grow_with_empties_to_a_gigabyte() {
        let sizes: Vec<usize> = (20..=30).map(solve_hash_mb).collect();
        assert_eq!(
            sizes,
            [64, 64, 64, 64, 64, 128, 256, 512, 1024, 1024, 1024],
            "20..=30 empties"
        );
        assert_eq!(solve_hash_mb(0), DEFAULT_HASH_MB);
        assert_eq!(solve_hash_mb(60), SOLVE_MAX_HASH_MB);
    }
}
