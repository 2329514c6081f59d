//! Validation: the mean absolute and squared errors of a network on the validation games,
//! overall and by empties band, and the error of the differences of sibling pairs.

use crate::data::Position;
use crate::net::{Input, Params, Scratch};

/// Mean absolute and squared error (discs) of `params` on `positions`, overall and by
/// empties band (≤ 20, 21-30, 31-40, 41+).
pub fn validate(
    params: &Params<f32>,
    positions: &[Position],
    threads: usize,
) -> (f64, f64, [f64; 4]) {
    if positions.is_empty() {
        return (f64::NAN, f64::NAN, [f64::NAN; 4]);
    }
    let chunk = positions.len().div_ceil(threads.max(1));
    let parts: Vec<(f64, f64, [f64; 4], [usize; 4])> = std::thread::scope(|s| {
        let handles: Vec<_> = positions
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut scratch = Scratch::new(&params.arch);
                    let (mut abs, mut sq) = (0.0, 0.0);
                    let mut band = [0.0; 4];
                    let mut count = [0usize; 4];
                    for p in part {
                        let input = Input::of(p.player, p.opponent, params.arch.buckets);
                        let y = params.forward(&input, &mut scratch) as f64;
                        let e = y - p.label as f64 / 100.0;
                        abs += e.abs();
                        sq += e * e;
                        let b = match p.empties() {
                            0..=20 => 0,
                            21..=30 => 1,
                            31..=40 => 2,
                            _ => 3,
                        };
                        band[b] += e.abs();
                        count[b] += 1;
                    }
                    (abs, sq, band, count)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("validation thread"))
            .collect()
    });
    let n = positions.len() as f64;
    let abs: f64 = parts.iter().map(|p| p.0).sum();
    let sq: f64 = parts.iter().map(|p| p.1).sum();
    let mut bands = [0.0; 4];
    for (b, out) in bands.iter_mut().enumerate() {
        let s: f64 = parts.iter().map(|p| p.2[b]).sum();
        let c: usize = parts.iter().map(|p| p.3[b]).sum();
        *out = if c > 0 { s / c as f64 } else { f64::NAN };
    }
    (abs / n, sq / n, bands)
}

/// The mean absolute error (discs) of the difference of each pair's two values: how far the
/// network's preference between two siblings is from the labels'.
pub fn sibling_mae(params: &Params<f32>, positions: &[Position], pairs: &[(u32, u32)]) -> f64 {
    if pairs.is_empty() {
        return f64::NAN;
    }
    let mut scratch = Scratch::new(&params.arch);
    let mut value = |p: &Position| {
        let input = Input::of(p.player, p.opponent, params.arch.buckets);
        params.forward(&input, &mut scratch) as f64 - p.label as f64 / 100.0
    };
    let sum: f64 = pairs
        .iter()
        .map(|&(a, b)| (value(&positions[a as usize]) - value(&positions[b as usize])).abs())
        .sum();
    sum / pairs.len() as f64
}
