//! The opening book: positions keyed by their canonical form under the eight symmetries, each
//! with the best move that *leaves* the book (its "leaf", valued by a search) and the values of
//! the moves that stay in it, negamaxed from the leaves up, as in the book builders of Edax and
//! NTest (Buro's "Toward Opening Book Learning", 1999, describes the scheme).
//!
//! # Model
//!
//! A book is a set of positions. A position's moves are of two kinds:
//!
//! - **links**: moves whose resulting position is itself in the book; such a move is worth
//!   minus that position's value;
//! - the **leaf**: the best of the moves whose position is *not* in the book, found by a
//!   search that excludes the links ([`crate::search::Searcher::search_excluding`]), with its
//!   value and depth. A position whose every move is a link has a closed leaf; a position not
//!   yet searched (or whose leaf move has since become a link) has a pending one
//!   ([`LeafState::Pending`]), which [`build`] fills in.
//!
//! A position's value is the best of its leaf and its links ([`Book::negamax`]); a value is
//! exact when every one of its moves is known exactly (solved leaves, finished games). Values
//! are centi-discs for the side to move, like the search's.
//!
//! Positions are stored under [`Board::canonical`] (the least of the eight images, which is
//! also Edax's choice), so transpositions and symmetric lines share one entry; a leaf move is
//! stored in the canonical orientation and mapped back when a position is looked up.
//!
//! # Files
//!
//! [`mod@file`] has the binary format (versioned, checksummed, written to a temporary file and
//! renamed) and the journal that makes long builds resumable; [`text`] the plain-text export;
//! [`edax`] Edax's `.dat` format. `docs/BOOK.md` describes all three.

pub mod build;
mod choice;
pub mod edax;
pub mod file;
pub mod text;

use std::collections::hash_map::Entry as MapEntry;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};

use crate::bitboard::{squares, symmetry};
use crate::board::{Board, Move};
use crate::discs::CentiDiscs;
use crate::rng::SplitMix64;
use crate::square::Square;

pub use choice::{load_any, BookChoice, OwnedBook};
pub use file::BookError;

/// The book shipped in the binary (`book/default.book`, built from the WTHOR games; see
/// `docs/BOOK.md`).
const DEFAULT_BOOK: &[u8] = include_bytes!("../../../../book/default.book");

/// The embedded default book, loaded once.
pub fn default_book() -> Arc<Book> {
    static DEFAULT: OnceLock<Arc<Book>> = OnceLock::new();
    DEFAULT
        .get_or_init(|| {
            Arc::new(
                file::from_bytes(DEFAULT_BOOK)
                    .expect("the embedded book is checked by a unit test"),
            )
        })
        .clone()
}

/// The best move out of the book from a position, as a search found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// The move, in the orientation of the stored (canonical) board.
    pub mv: Move,
    /// Its value, centi-discs for the side to move.
    pub value: i16,
    /// The depth of the search (the number of empties for a solve).
    pub depth: u8,
    /// Whether the value is an exact solve.
    pub exact: bool,
}

/// What is known of a position's best move out of the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafState {
    /// Not searched yet, or its move has become a link: to be searched.
    Pending,
    /// Every move stays in the book (or the game is over): nothing to search.
    Closed,
    /// Searched.
    Move(Leaf),
}

/// One book position (stored under its canonical board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Games of the source databases (and learned games) that went through the position.
    pub games: u32,
    /// The best move out of the book.
    pub leaf: LeafState,
    /// The negamaxed value (centi-discs, side to move); meaningful when `known`.
    pub value: i16,
    /// The depth behind the value: the depth of the leaf search it comes from.
    pub depth: u8,
    /// Whether the value is exact.
    pub exact: bool,
    /// Whether any move of the position has a value yet.
    pub known: bool,
}

impl Entry {
    /// A new position, not yet searched.
    pub fn pending(games: u32) -> Entry {
        Entry {
            games,
            leaf: LeafState::Pending,
            value: 0,
            depth: 0,
            exact: false,
            known: false,
        }
    }
}

/// A move of a book position with its value, as [`Book::moves`] lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, in the orientation of the board asked about.
    pub mv: Move,
    /// Its value for the side to move, centi-discs.
    pub value: i16,
    /// The search depth behind the value.
    pub depth: u8,
    /// Whether the value is exact.
    pub exact: bool,
    /// Games in the book that played it (0 for the leaf).
    pub games: u32,
    /// Whether the move stays in the book (a link) or leaves it (the leaf).
    pub link: bool,
}

impl BookMove {
    /// The value as a search would report it: exact values in whole discs, the others in
    /// centi-discs.
    pub fn search_value(&self) -> crate::search::Value {
        if self.exact {
            crate::search::Value::Exact(i32::from(self.value) / 100)
        } else {
            crate::search::Value::Heuristic(i32::from(self.value))
        }
    }
}

/// The symmetry that undoes symmetry `s` of [`crate::bitboard::symmetry`].
fn inverse(s: u8) -> u8 {
    // An asymmetric pattern: its eight images are distinct.
    const PROBE: u64 = 0x0000_0000_0000_010E;
    (0..8)
        .find(|&t| symmetry(symmetry(PROBE, s), t) == PROBE)
        .expect("the symmetries form a group")
}

/// The canonical board of `board` and the symmetry that maps `board` onto it.
pub fn canonical_with_symmetry(board: &Board) -> (Board, u8) {
    let mut best = (*board, 0u8);
    for s in 1..8 {
        let b = board.symmetry(s);
        if (b.player(), b.opponent()) < (best.0.player(), best.0.opponent()) {
            best = (b, s);
        }
    }
    best
}

/// A move under a symmetry.
fn move_symmetry(mv: Move, s: u8) -> Move {
    match mv {
        Move::Place(sq) => Move::Place(Square::from_lowest_bit(symmetry(sq.bit(), s))),
        Move::Pass => Move::Pass,
    }
}

/// Summary counts of a book ([`Book::stats`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookStats {
    /// Positions.
    pub positions: usize,
    /// Positions whose leaf is still to be searched.
    pub pending: usize,
    /// Positions whose every move is in the book.
    pub closed: usize,
    /// Positions with an exact value.
    pub exact: usize,
    /// Links (moves between book positions).
    pub links: usize,
    /// Positions per number of discs played (index = discs − 4).
    pub by_ply: Vec<usize>,
}

/// An opening book (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<Board, Entry>,
    /// The depth new leaves are searched to (from the file; `learn` uses it).
    pub depth: u8,
    /// A fingerprint of what the book was built from (0 for none), so that a resumed build
    /// refuses other inputs.
    pub source: u64,
}

impl Book {
    /// An empty book whose leaves are searched to `depth`.
    pub fn new(depth: u8) -> Book {
        Book {
            entries: HashMap::new(),
            depth,
            source: 0,
        }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of `board` (any orientation).
    pub fn get(&self, board: &Board) -> Option<&Entry> {
        self.entries.get(&board.canonical())
    }

    /// Whether `board` (any orientation) is in the book.
    pub fn contains(&self, board: &Board) -> bool {
        self.entries.contains_key(&board.canonical())
    }

    /// Every (canonical board, entry) pair, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&Board, &Entry)> {
        self.entries.iter()
    }

    /// The entries sorted by canonical board: the order of the book file.
    pub fn sorted(&self) -> Vec<(Board, Entry)> {
        let mut all: Vec<(Board, Entry)> = self.entries.iter().map(|(b, e)| (*b, *e)).collect();
        all.sort_unstable_by_key(|(b, _)| (b.player(), b.opponent()));
        all
    }

    /// Sets the entry of `board` (any orientation; a leaf move is given in `board`'s
    /// orientation and stored in the canonical one).
    pub fn insert(&mut self, board: &Board, mut entry: Entry) {
        let (canonical, s) = canonical_with_symmetry(board);
        if let LeafState::Move(leaf) = &mut entry.leaf {
            leaf.mv = move_symmetry(leaf.mv, s);
        }
        self.entries.insert(canonical, entry);
    }

    /// Sets the entry of a board that is already canonical (file readers).
    pub(crate) fn insert_canonical(&mut self, canonical: Board, entry: Entry) {
        debug_assert_eq!(canonical, canonical.canonical());
        self.entries.insert(canonical, entry);
    }

    /// Adds `board` with `games` games if it is new (a pending leaf), or adds `games` to its
    /// count. Returns whether it was new.
    pub fn add(&mut self, board: &Board, games: u32) -> bool {
        match self.entries.entry(board.canonical()) {
            MapEntry::Occupied(mut e) => {
                let e = e.get_mut();
                e.games = e.games.saturating_add(games);
                false
            }
            MapEntry::Vacant(v) => {
                v.insert(Entry::pending(games));
                true
            }
        }
    }

    /// Sets the leaf of `board` (which must be in the book), its move given in `board`'s
    /// orientation.
    pub fn set_leaf(&mut self, board: &Board, mut leaf: LeafState) {
        let (canonical, s) = canonical_with_symmetry(board);
        if let LeafState::Move(l) = &mut leaf {
            l.mv = move_symmetry(l.mv, s);
        }
        if let Some(e) = self.entries.get_mut(&canonical) {
            e.leaf = leaf;
        }
    }

    /// The moves of `board` (any orientation) that stay in the book: a bit set of squares,
    /// and whether the pass (of a side that must pass) does.
    pub fn links(&self, board: &Board) -> (u64, bool) {
        let moves = board.moves();
        if moves == 0 {
            let pass = !board.is_game_over() && self.contains(&board.pass());
            return (0, pass);
        }
        let linked = squares(moves)
            .filter(|&sq| self.contains(&board.play(sq)))
            .fold(0, |acc, sq| acc | sq.bit());
        (linked, false)
    }

    /// The leaf of the entry of `board` in `board`'s orientation.
    fn leaf_of(&self, board: &Board) -> Option<(LeafState, &Entry)> {
        let (canonical, s) = canonical_with_symmetry(board);
        let entry = self.entries.get(&canonical)?;
        let leaf = match entry.leaf {
            LeafState::Move(mut l) => {
                l.mv = move_symmetry(l.mv, inverse(s));
                LeafState::Move(l)
            }
            other => other,
        };
        Some((leaf, entry))
    }

    /// The known moves of `board` (any orientation) with their values, best first: every link
    /// whose position has a value, and the leaf unless its move has become a link. Empty when
    /// the position is not in the book.
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let Some((leaf, _)) = self.leaf_of(board) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut child_move = |mv: Move, child: &Board| {
            if let Some(e) = self.get(child) {
                if e.known {
                    out.push(BookMove {
                        mv,
                        value: e.value.saturating_neg(),
                        depth: e.depth,
                        exact: e.exact,
                        games: e.games,
                        link: true,
                    });
                }
                true
            } else {
                false
            }
        };
        let moves = board.moves();
        let mut linked = 0u64;
        let mut pass_linked = false;
        if moves == 0 {
            if !board.is_game_over() {
                pass_linked = child_move(Move::Pass, &board.pass());
            }
        } else {
            for sq in squares(moves) {
                if child_move(Move::Place(sq), &board.play(sq)) {
                    linked |= sq.bit();
                }
            }
        }
        if let LeafState::Move(l) = leaf {
            let stale = match l.mv {
                Move::Place(sq) => linked & sq.bit() != 0 || moves & sq.bit() == 0,
                Move::Pass => moves != 0 || pass_linked,
            };
            if !stale {
                out.push(BookMove {
                    mv: l.mv,
                    value: l.value,
                    depth: l.depth,
                    exact: l.exact,
                    games: 0,
                    link: false,
                });
            }
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.value));
        out
    }

    /// The best known move of `board` (any orientation), whose value is the position's value
    /// for its side to move; `None` when the position is not in the book or no move of it has
    /// a value.
    pub fn best(&self, board: &Board) -> Option<BookMove> {
        self.moves(board).into_iter().next()
    }

    /// A move to play from `board`: uniformly among the known moves within `randomness`
    /// centi-discs of the best (the best alone when `randomness` is 0, the first of equals).
    /// `None` when the position is not in the book or no move of it has a value.
    pub fn choose(&self, board: &Board, randomness: u32, rng: &mut SplitMix64) -> Option<BookMove> {
        let moves = self.moves(board);
        let best = moves.first()?.value as i32;
        let near = moves
            .iter()
            .take_while(|m| best - m.value as i32 <= randomness as i32)
            .count();
        let pick = if randomness == 0 {
            0
        } else {
            rng.below(near as u64) as usize
        };
        Some(moves[pick])
    }

    /// Recomputes every position's value from the leaves up (links are worth minus their
    /// position's value). Positions are visited from the ones nearest the end, each once.
    pub fn negamax(&mut self) {
        let mut done: HashSet<Board> = HashSet::with_capacity(self.entries.len());
        let keys: Vec<Board> = self.entries.keys().copied().collect();
        for key in keys {
            self.negamax_from(key, &mut done);
        }
    }

    /// Negamaxes the position `key` (canonical) after its children; returns its entry.
    fn negamax_from(&mut self, key: Board, done: &mut HashSet<Board>) -> Option<Entry> {
        let entry = *self.entries.get(&key)?;
        if !done.insert(key) {
            return Some(entry);
        }
        // (value, depth, exact) of the best move so far; `all_exact` over every move seen.
        let mut best: Option<(i16, u8, bool)> = None;
        let mut all_exact = true;
        let mut consider = |v: i16, d: u8, exact: bool, best: &mut Option<(i16, u8, bool)>| {
            all_exact &= exact;
            if best.is_none_or(|(bv, _, _)| v > bv) {
                *best = Some((v, d, exact));
            }
        };
        let moves = key.moves();
        let mut linked = 0u64;
        let mut pass_linked = false;
        let mut unknown_link = false;
        if key.is_game_over() {
            let v = CentiDiscs::from_whole_discs(key.final_score()).to_i16_clamped();
            consider(v, 0, true, &mut best);
        } else {
            let children: Vec<(u64, Board)> = if moves == 0 {
                vec![(0, key.pass())]
            } else {
                squares(moves).map(|sq| (sq.bit(), key.play(sq))).collect()
            };
            for (bit, child) in children {
                let canonical = child.canonical();
                if !self.entries.contains_key(&canonical) {
                    continue;
                }
                linked |= bit;
                pass_linked |= moves == 0;
                let e = self.negamax_from(canonical, done).expect("present");
                if e.known {
                    consider(e.value.saturating_neg(), e.depth, e.exact, &mut best);
                } else {
                    unknown_link = true;
                }
            }
            match entry.leaf {
                LeafState::Move(l) => {
                    let stale = match l.mv {
                        Move::Place(sq) => linked & sq.bit() != 0 || moves & sq.bit() == 0,
                        Move::Pass => moves != 0 || pass_linked,
                    };
                    if stale {
                        all_exact = false;
                    } else {
                        consider(l.value, l.depth, l.exact, &mut best);
                    }
                }
                LeafState::Pending => all_exact = false,
                LeafState::Closed => {}
            }
        }
        let e = self.entries.get_mut(&key).expect("present");
        match best {
            Some((v, d, _)) => {
                e.value = v;
                e.depth = d;
                e.exact = all_exact && !unknown_link;
                e.known = true;
            }
            None => {
                e.value = 0;
                e.depth = 0;
                e.exact = false;
                e.known = false;
            }
        }
        Some(*e)
    }

    /// Counts of the book's contents.
    pub fn stats(&self) -> BookStats {
        let mut s = BookStats {
            positions: self.entries.len(),
            by_ply: vec![0; 61],
            ..BookStats::default()
        };
        for (board, e) in &self.entries {
            match e.leaf {
                LeafState::Pending => s.pending += 1,
                LeafState::Closed => s.closed += 1,
                LeafState::Move(_) => {}
            }
            s.exact += e.exact as usize;
            s.links += self.links(board).0.count_ones() as usize;
            let ply = (60 - board.empty_count().min(60)) as usize;
            s.by_ply[ply] += 1;
        }
        while s.by_ply.last() == Some(&0) {
            s.by_ply.pop();
        }
        s
    }

    /// Merges `other` into this book: new positions are added; for a position in both, the
    /// games are summed and the deeper leaf is kept (an exact one over any search; this
    /// book's on a tie). Leaves whose move has become a link are made pending. The values
    /// must be negamaxed afterwards.
    pub fn merge(&mut self, other: &Book) {
        for (board, theirs) in &other.entries {
            match self.entries.entry(*board) {
                MapEntry::Vacant(v) => {
                    v.insert(*theirs);
                }
                MapEntry::Occupied(mut o) => {
                    let ours = o.get_mut();
                    ours.games = ours.games.saturating_add(theirs.games);
                    let rank = |l: &LeafState| match l {
                        LeafState::Move(l) => (l.exact as u32) * 1000 + l.depth as u32 + 1,
                        LeafState::Closed => 2000,
                        LeafState::Pending => 0,
                    };
                    if rank(&theirs.leaf) > rank(&ours.leaf) {
                        ours.leaf = theirs.leaf;
                    }
                }
            }
        }
        self.depth = self.depth.max(other.depth);
        self.mark_stale_pending();
    }

    /// Makes pending every leaf whose move now stays in the book (or is no longer legal), and
    /// every closed leaf of a position with a move out of the book. Returns how many changed.
    pub fn mark_stale_pending(&mut self) -> usize {
        let stale: Vec<Board> = self
            .entries
            .iter()
            .filter(|(board, e)| {
                if board.is_game_over() {
                    return false;
                }
                let (linked, pass_linked) = self.links(board);
                let moves = board.moves();
                match e.leaf {
                    LeafState::Move(l) => match l.mv {
                        Move::Place(sq) => linked & sq.bit() != 0 || moves & sq.bit() == 0,
                        Move::Pass => moves != 0 || pass_linked,
                    },
                    LeafState::Closed => {
                        if moves == 0 {
                            !pass_linked
                        } else {
                            linked != moves
                        }
                    }
                    LeafState::Pending => false,
                }
            })
            .map(|(b, _)| *b)
            .collect();
        for board in &stale {
            if let Some(e) = self.entries.get_mut(board) {
                e.leaf = LeafState::Pending;
            }
        }
        stale.len()
    }

    /// Adds the positions of a game, `boards` from its first position on, up to `max_plies`
    /// discs played beyond the start (positions with more discs are left out): each gets one
    /// more game; new ones get a pending leaf, and a position whose leaf move the game now
    /// links into the book is made pending too. Returns the positions to search (new or made
    /// pending), in game order.
    pub fn add_game(&mut self, boards: &[Board], max_plies: u32) -> Vec<Board> {
        let mut to_search = Vec::new();
        let mut previous: Option<Board> = None;
        for board in boards {
            let plies = 60 - board.empty_count().min(60);
            if plies > max_plies {
                break;
            }
            if self.add(board, 1) {
                to_search.push(*board);
                if let Some(prev) = previous {
                    // The move from `prev` now stays in the book: its leaf may be stale.
                    if let Some((LeafState::Move(l), _)) = self.leaf_of(&prev) {
                        let child = match l.mv {
                            Move::Pass => Some(prev.pass()),
                            Move::Place(sq) => prev.is_legal(sq).then(|| prev.play(sq)),
                        };
                        let stale = child.is_none_or(|c| c.canonical() == board.canonical());
                        if stale && !to_search.contains(&prev) {
                            self.set_leaf(&prev, LeafState::Pending);
                            to_search.push(prev);
                        }
                    }
                }
            }
            previous = Some(*board);
        }
        to_search
    }

    /// The boards of positions whose leaf is pending, sorted (the order a build searches them).
    pub fn pending(&self) -> Vec<Board> {
        let mut out: Vec<Board> = self
            .entries
            .iter()
            .filter(|(_, e)| e.leaf == LeafState::Pending)
            .map(|(b, _)| *b)
            .collect();
        out.sort_unstable_by_key(|b| {
            (std::cmp::Reverse(b.empty_count()), b.player(), b.opponent())
        });
        out
    }
}

/// A small book for the unit tests of the book modules: the start (closed), f5 (leaf f4 at
/// −2.50), f5 d6 (leaf c3 at −1.00) and f5 f6 (leaf e6 at +3.00, depth 11); leaf depth 12,
/// source 77.
#[cfg(test)]
pub(crate) fn sample_book() -> Book {
    let start = Board::start();
    let a = start.play(Square::F5);
    let b = a.play(Square::D6);
    let c = a.play(Square::F6);
    let mut book = Book::new(12);
    book.source = 77;
    book.add_game(&[start, a, b], 60);
    book.add_game(&[start, a, c], 60);
    book.set_leaf(&start, LeafState::Closed);
    let leaf = |sq: Square, value, depth| {
        LeafState::Move(Leaf {
            mv: Move::Place(sq),
            value,
            depth,
            exact: false,
        })
    };
    book.set_leaf(&a, leaf(Square::F4, -250, 12));
    book.set_leaf(&b, leaf(Square::C3, -100, 12));
    book.set_leaf(&c, leaf(Square::E6, 300, 11));
    book.negamax();
    book
}

#[cfg(test)]
mod tests;
