//! The XOT opening list: 10,784 eight-move openings chosen to be close to balanced.
//!
//! XOT ("eXtended Othello Theory") openings vary engine-versus-engine games. The list is the
//! one NBoard ships (see `tests/data/README.md` for its provenance); it is embedded in the
//! binary so matches and benchmarks need no data files. Each line is 8 moves from the standard
//! start, written `f5d6c4d3c2b3b4b5`; Black is to move after them.

use crate::board::{Move, Position};
use crate::square::Square;

static XOT_TEXT: &str = include_str!("../../../tests/data/xot-large.txt");

/// The XOT openings as move strings, in file order.
pub fn openings() -> impl Iterator<Item = &'static str> {
    XOT_TEXT.lines().map(str::trim).filter(|l| !l.is_empty())
}

/// The moves of a move string such as `f5d6c4d3`, or `None` if it is malformed.
pub fn parse_moves(line: &str) -> Option<Vec<Move>> {
    let line = line.trim();
    if !line.len().is_multiple_of(2) || !line.is_ascii() {
        return None;
    }
    (0..line.len())
        .step_by(2)
        .map(|i| line[i..i + 2].parse::<Square>().ok().map(Move::Place))
        .collect()
}

/// The position after playing a move string from the start, or `None` if it is malformed or
/// illegal.
pub fn position_after(line: &str) -> Option<Position> {
    parse_moves(line)?
        .into_iter()
        .try_fold(Position::start(), |pos, mv| pos.try_play(mv).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_opening_is_legal_and_distinct() {
        let lines: Vec<&str> = openings().collect();
        assert_eq!(lines.len(), 10_784);
        let mut positions: Vec<_> = lines
            .iter()
            .map(|l| position_after(l).unwrap_or_else(|| panic!("illegal opening {l}")))
            .collect();
        assert!(positions.iter().all(|p| p.board.empty_count() == 52));
        positions.sort_by_key(|p| (p.board.player(), p.board.opponent()));
        positions.dedup();
        assert_eq!(positions.len(), 10_784);
    }

    #[test]
    fn malformed_lines_are_rejected() {
        assert_eq!(position_after("f5d"), None);
        assert_eq!(position_after("f5f5"), None);
        assert_eq!(position_after("z9"), None);
        assert_eq!(position_after("f5é"), None);
    }
}
