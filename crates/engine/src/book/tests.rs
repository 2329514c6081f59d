//! Unit tests of the book model: symmetry, negamax, choice, games, merging.

use super::*;

fn leaf(mv: &str, value: i16) -> LeafState {
    LeafState::Move(Leaf {
        mv: mv.parse().unwrap(),
        value,
        depth: 8,
        exact: false,
    })
}

#[test]
fn inverse_undoes_every_symmetry() {
    for s in 0..8 {
        let t = inverse(s);
        for sq in 0..64 {
            let bit = 1u64 << sq;
            assert_eq!(symmetry(symmetry(bit, s), t), bit, "s={s}");
        }
    }
}

#[test]
fn a_leaf_move_is_found_again_in_every_orientation() {
    let start = Board::start();
    let f5: Square = "f5".parse().unwrap();
    let board = start.play(f5);
    let mut book = Book::new(8);
    book.add(&board, 1);
    book.set_leaf(&board, leaf("d6", -40));
    book.negamax();
    for s in 0..8 {
        let image = board.symmetry(s);
        let moves = book.moves(&image);
        assert_eq!(moves.len(), 1, "symmetry {s}");
        let expected = move_symmetry("d6".parse().unwrap(), s);
        assert_eq!(moves[0].mv, expected, "symmetry {s}");
        assert!(image.try_play_move(moves[0].mv).is_ok());
        assert_eq!(moves[0].value, -40);
    }
}

#[test]
fn negamax_takes_the_best_of_links_and_leaf() {
    // Start: f5 and d3 are symmetric (one child position); leaf c4 is symmetric too, so
    // use a one-link book: start -> f5, with the start's leaf outside (none: all four
    // first moves give the same canonical position, so the start is closed).
    let start = Board::start();
    let after = start.play("f5".parse().unwrap());
    let mut book = Book::new(8);
    book.add(&start, 10);
    book.add(&after, 10);
    book.set_leaf(&after, leaf("d6", 120));
    assert_eq!(book.mark_stale_pending(), 0);
    book.set_leaf(&start, LeafState::Closed);
    book.negamax();
    let root = book.get(&start).unwrap();
    assert!(root.known);
    assert_eq!(root.value, -120);
    let moves = book.moves(&start);
    assert_eq!(
        moves.len(),
        4,
        "the four symmetric first moves are all links"
    );
    assert!(moves
        .iter()
        .all(|m| m.link && m.value == -120 && m.games == 10));
    // A deeper leaf in the child changes the root.
    let f5d6 = after.play("d6".parse().unwrap());
    book.add(&f5d6, 1);
    assert_eq!(
        book.mark_stale_pending(),
        1,
        "the child's leaf d6 is now a link"
    );
    book.set_leaf(&f5d6, leaf("c3", 50));
    book.set_leaf(&after, leaf("f6", -300));
    book.negamax();
    assert_eq!(book.get(&after).unwrap().value, -50);
    assert_eq!(book.get(&start).unwrap().value, 50);
}

#[test]
fn choose_respects_randomness() {
    let start = Board::start();
    let after = start.play("f5".parse().unwrap());
    let mut book = Book::new(8);
    book.add(&after, 1);
    // Three children in the book: d6 (-10 for them, so +10 for us), f6 (+0), f4 (-300).
    for (mv, their) in [("d6", -10), ("f6", 0), ("f4", 300)] {
        let child = after.play(mv.parse().unwrap());
        book.add(&child, 1);
        book.set_leaf(
            &child,
            LeafState::Move(Leaf {
                mv: child.legal_moves().next().map(Move::Place).unwrap(),
                value: their,
                depth: 8,
                exact: false,
            }),
        );
    }
    book.set_leaf(&after, LeafState::Closed);
    book.mark_stale_pending();
    book.negamax();
    let mut rng = SplitMix64::new(1);
    let best = book.choose(&after, 0, &mut rng).unwrap();
    assert_eq!(best.mv, "d6".parse().unwrap());
    let mut seen = HashSet::new();
    for _ in 0..200 {
        let m = book.choose(&after, 50, &mut rng).unwrap();
        assert!(m.value >= 10 - 50);
        seen.insert(m.mv);
    }
    assert_eq!(seen.len(), 2, "d6 and f6 are within half a disc; f4 is not");
    assert!(book.choose(&Board::start(), 0, &mut rng).is_none());
}

#[test]
fn add_game_counts_games_and_marks_stale_leaves() {
    let start = Board::start();
    let a = start.play("f5".parse().unwrap());
    let b = a.play("d6".parse().unwrap());
    let c = b.play("c3".parse().unwrap());
    let mut book = Book::new(8);
    assert_eq!(book.add_game(&[start, a, b], 60), vec![start, a, b]);
    book.set_leaf(&b, leaf("c3", 10));
    // The same game again, one move longer: b's leaf c3 becomes a link.
    let again = book.add_game(&[start, a, b, c], 60);
    assert_eq!(again, vec![c, b]);
    assert_eq!(book.get(&b).unwrap().leaf, LeafState::Pending);
    assert_eq!(book.get(&start).unwrap().games, 2);
    assert_eq!(book.get(&c).unwrap().games, 1);
    // The ply limit.
    let mut short = Book::new(8);
    assert_eq!(short.add_game(&[start, a, b, c], 2).len(), 3);
}

#[test]
fn merge_keeps_the_deeper_leaf_and_sums_games() {
    let start = Board::start();
    let a = start.play("f5".parse().unwrap());
    let mut x = Book::new(8);
    x.add(&a, 3);
    x.set_leaf(&a, leaf("d6", 10));
    let mut y = Book::new(10);
    y.add(&a, 4);
    y.set_leaf(
        &a,
        LeafState::Move(Leaf {
            mv: "f6".parse().unwrap(),
            value: -20,
            depth: 12,
            exact: false,
        }),
    );
    x.merge(&y);
    x.negamax();
    let e = x.get(&a).unwrap();
    assert_eq!(e.games, 7);
    assert_eq!(e.value, -20);
    assert_eq!(x.depth, 10);
}

#[test]
fn a_forced_pass_is_one_move_whether_linked_or_a_leaf() {
    // The side to move (c1) has no move; the other side (a1, b1) can play d1.
    let must_pass = Board::new(Square::C1.bit(), Square::A1.bit() | Square::B1.bit()).unwrap();
    assert!(must_pass.must_pass());
    let after = must_pass.pass();
    let mut book = Book::new(8);
    book.add(&must_pass, 1);
    let pass_leaf = |value| {
        LeafState::Move(Leaf {
            mv: Move::Pass,
            value,
            depth: 8,
            exact: false,
        })
    };
    book.set_leaf(&must_pass, pass_leaf(-300));
    book.negamax();
    assert_eq!(book.moves(&must_pass).len(), 1);
    assert_eq!(book.get(&must_pass).unwrap().value, -300);
    // Once the position after the pass is in the book, the pass is a link: listed once, the
    // stale leaf ignored and then made pending.
    book.add(&after, 1);
    book.set_leaf(&after, leaf("d1", 500));
    book.negamax();
    let moves = book.moves(&must_pass);
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert!(moves[0].link && moves[0].mv == Move::Pass && moves[0].value == -500);
    assert_eq!(book.get(&must_pass).unwrap().value, -500);
    assert_eq!(book.mark_stale_pending(), 1);
    assert_eq!(book.get(&must_pass).unwrap().leaf, LeafState::Pending);
}
