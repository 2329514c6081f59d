//! Benchmarks of the opening book: loading the built-in book from its bytes, and the look-up a
//! player makes at every move (`Book::moves`: the position and its children under the eight
//! symmetries), on positions in the book and out of it.
//!
//! Run briefly with: `cargo bench --bench book -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use othello::book::{default_book, file, Book};
use othello::Board;

/// The built-in book's bytes, as embedded in the binary.
const DEFAULT_BOOK: &[u8] = include_bytes!("../book/default.book");

/// Book positions (in a rotated orientation, as a game meets them) and positions out of it.
fn positions(book: &Book) -> (Vec<Board>, Vec<Board>) {
    let mut inside: Vec<Board> = book.iter().map(|(b, _)| b.symmetry(5)).collect();
    inside.sort_unstable_by_key(|b| (b.player(), b.opponent()));
    inside.truncate(4096);
    let outside: Vec<Board> = inside
        .iter()
        .filter_map(|b| {
            let mut x = *b;
            for _ in 0..6 {
                let sq = x.legal_moves().next()?;
                x = x.play(sq);
            }
            (!book.contains(&x)).then_some(x)
        })
        .collect();
    (inside, outside)
}

fn bench_book(c: &mut Criterion) {
    let book = default_book();
    assert!(book.len() > 10_000, "the built-in book is there");
    let parsed = file::from_bytes(DEFAULT_BOOK).unwrap();
    assert_eq!(parsed.len(), book.len());
    let (inside, outside) = positions(&book);
    assert!(inside.iter().all(|b| book.contains(b)));
    assert!(!outside.is_empty());

    let mut g = c.benchmark_group("book");
    g.sample_size(10);
    g.bench_function("load default book", |b| {
        b.iter(|| file::from_bytes(black_box(DEFAULT_BOOK)).unwrap().len())
    });
    g.finish();

    let mut g = c.benchmark_group("book look-up");
    g.throughput(Throughput::Elements(inside.len() as u64));
    g.bench_function("moves, positions in the book", |b| {
        b.iter(|| {
            inside
                .iter()
                .map(|p| book.moves(black_box(p)).len())
                .sum::<usize>()
        })
    });
    g.throughput(Throughput::Elements(outside.len() as u64));
    g.bench_function("moves, positions out of the book", |b| {
        b.iter(|| {
            outside
                .iter()
                .map(|p| book.moves(black_box(p)).len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench_book);
criterion_main!(benches);
