//! A factorised embedding for training: each row is its own vector plus a sum of shared
//! per-square vectors, folded into plain rows when the weights are written.
//!
//! A row is the weight class of a shape's base-3 index (see [`crate::features`]). Most of the
//! 204,030 rows are rare: the large shapes have 3^10 indices, and a row seen a few hundred
//! times overfits its labels. NNUE trainers meet the same problem with *factorisers*: a
//! coarser, virtual feature shared by many rows is trained beside each row and added to it.
//! Here the virtual features are the squares of a shape with their contents:
//!
//! ```text
//! row value  = R[row] + Σ_{digits k of the row's index, d_k ≠ 0} F[shape, orbit(k), d_k]
//! ```
//!
//! `orbit(k)` ties together the squares that a shape's own symmetries map onto each other, so
//! every index of a weight class has the same factor sum and the network stays exactly
//! invariant under the board's symmetries. The factor table is small (a few hundred vectors
//! of H), trained densely with Adam; weight decay applies to `R` only, so it pulls a rare row
//! toward what its squares say rather than toward zero. Inference never sees the factors:
//! [`Factors::fold`] adds them into the rows, and the file holds plain rows.

use othello_core::eval::pattern::geometry::{self, stabiliser_permutations, PATTERNS, POW3};

use crate::net::{Params, Real};

/// Most squares in a shape.
pub const MAX_CELLS: usize = 10;

/// The factor structure of the pattern rows: for each row, the factor vectors it includes.
#[derive(Clone, Debug)]
pub struct Factors {
    /// Number of factor vectors (shape, square orbit, content).
    pub count: usize,
    /// `lists[row * MAX_CELLS + i]`: the factors of `row`, `u16::MAX` after the last.
    lists: Vec<u16>,
}

impl Factors {
    /// The factor structure of the engine's pattern set.
    pub fn new() -> Factors {
        let g = geometry::geometry();
        let rows = g.compact_patterns_len;
        let mut lists = vec![u16::MAX; rows * MAX_CELLS];
        let mut count = 0usize;
        for (shape, def) in PATTERNS.iter().enumerate() {
            let n = def.len as usize;
            let orbit = orbits(n, &stabiliser_permutations(def.mask));
            let orbits = orbit.iter().max().map_or(0, |&m| m + 1);
            for (id, &rep) in g.representative[shape].iter().enumerate() {
                let row = g.compact_offset[shape] + id;
                let mut at = 0;
                for (k, &o) in orbit.iter().enumerate() {
                    let d = (rep / POW3[k]) % 3;
                    if d != 0 {
                        lists[row * MAX_CELLS + at] = (count + 2 * o + d as usize - 1) as u16;
                        at += 1;
                    }
                }
            }
            count += 2 * orbits;
        }
        Factors { count, lists }
    }

    /// The factors of `row`.
    #[inline]
    pub fn of(&self, row: u32) -> impl Iterator<Item = usize> + '_ {
        self.lists[row as usize * MAX_CELLS..(row as usize + 1) * MAX_CELLS]
            .iter()
            .take_while(|&&f| f != u16::MAX)
            .map(|&f| f as usize)
    }

    /// Adds the factor sums of `rows` to the accumulator `acc` (`f`: `count × H`).
    #[inline]
    pub fn add_to<T: Real>(&self, rows: &[u32], f: &[T], acc: &mut [T]) {
        let h = acc.len();
        for &r in rows {
            for k in self.of(r) {
                acc.iter_mut()
                    .zip(&f[k * h..(k + 1) * h])
                    .for_each(|(a, w)| *a += *w);
            }
        }
    }

    /// Adds the accumulator gradient `d_acc` to the factor gradient `g` of every factor of
    /// `rows` (each row's factors receive what the row does).
    #[inline]
    pub fn scatter<T: Real>(&self, rows: &[u32], d_acc: &[T], g: &mut [T]) {
        let h = d_acc.len();
        for &r in rows {
            for k in self.of(r) {
                g[k * h..(k + 1) * h]
                    .iter_mut()
                    .zip(d_acc)
                    .for_each(|(a, d)| *a += *d);
            }
        }
    }

    /// The parameters with the factors folded into the rows: what the network file holds.
    pub fn fold<T: Real>(&self, params: &Params<T>, f: &[T]) -> Params<T> {
        let mut out = params.clone();
        let h = params.arch.hidden;
        for (row, e) in out.emb.chunks_exact_mut(h).enumerate() {
            for k in self.of(row as u32) {
                e.iter_mut()
                    .zip(&f[k * h..(k + 1) * h])
                    .for_each(|(a, w)| *a += *w);
            }
        }
        out
    }
}

impl Default for Factors {
    fn default() -> Self {
        Factors::new()
    }
}

/// The orbit of each of a shape's `n` squares under its stabiliser's digit permutations,
/// numbered from 0 in order of the first square of each orbit.
fn orbits(n: usize, perms: &[Vec<usize>]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while p[r] != r {
            r = p[r];
        }
        p[x] = r;
        r
    }
    for perm in perms {
        for (k, &j) in perm.iter().enumerate() {
            let (a, b) = (find(&mut parent, k), find(&mut parent, j));
            if a != b {
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let mut id = vec![usize::MAX; n];
    let mut next = 0;
    (0..n)
        .map(|k| {
            let r = find(&mut parent, k);
            if id[r] == usize::MAX {
                id[r] = next;
                next += 1;
            }
            id[r]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features;
    use crate::net::{Arch, Input, Network, Scratch};

    #[test]
    fn every_index_of_a_class_has_the_same_factors() {
        // The factors are read from the class's representative; the squares' orbits make the
        // choice of member irrelevant: check every member of every class of every shape.
        let g = geometry::geometry();
        for (shape, def) in PATTERNS.iter().enumerate() {
            let n = def.len as usize;
            let orbit = orbits(n, &stabiliser_permutations(def.mask));
            let key = |index: u32| {
                let mut v: Vec<(usize, u32)> = (0..n)
                    .map(|k| (orbit[k], (index / POW3[k]) % 3))
                    .filter(|&(_, d)| d != 0)
                    .collect();
                v.sort_unstable();
                v
            };
            for index in 0..POW3[n] {
                let class = g.canon[shape][index as usize] as usize;
                assert_eq!(
                    key(index),
                    key(g.representative[shape][class]),
                    "{} index {index}",
                    def.name
                );
            }
        }
    }

    #[test]
    fn a_row_has_one_factor_per_disc_and_the_count_is_small() {
        let f = Factors::new();
        assert!(
            f.count > 2 * 14 && f.count < 2 * 14 * MAX_CELLS,
            "{}",
            f.count
        );
        let g = geometry::geometry();
        for (shape, def) in PATTERNS.iter().enumerate() {
            for (id, &rep) in g.representative[shape].iter().enumerate() {
                let row = (g.compact_offset[shape] + id) as u32;
                let discs = (0..def.len as usize)
                    .filter(|&k| !(rep / POW3[k]).is_multiple_of(3))
                    .count();
                assert_eq!(f.of(row).count(), discs);
            }
        }
        // Only the empty index of each shape has no factor.
        assert_eq!(f.of(0).count(), 0);
    }

    /// The factors' analytic gradient against central finite differences of the loss of the
    /// folded network, in f64.
    #[test]
    fn factor_gradients_match_finite_differences() {
        use crate::net::DenseGrads;
        let arch = Arch::new(5, 4, 2);
        let mut p: Params<f64> = Params::init(arch, 3);
        p.emb.iter_mut().for_each(|w| *w *= 3.0);
        let fac = Factors::new();
        let mut rng = othello_core::rng::SplitMix64::new(8);
        let f: Vec<f64> = (0..fac.count * arch.hidden)
            .map(|_| (rng.below(2001) as f64 - 1000.0) / 10000.0)
            .collect();
        let mut data = Vec::new();
        while data.len() < 10 {
            let game: Vec<_> =
                othello_core::rng::random_playout(othello_core::Board::start(), &mut rng).collect();
            let b = game[rng.below(game.len() as u64) as usize];
            let t = (rng.below(129) as f64 - 64.0) / 4.0;
            data.push((Input::of(b.player(), b.opponent(), arch.buckets), t));
        }
        let scale = 1.0 / data.len() as f64;
        let loss = |f: &[f64]| {
            let q = fac.fold(&p, f);
            let mut s = Scratch::new(&arch);
            data.iter()
                .map(|(i, t)| {
                    let y = q.forward(i, &mut s);
                    (y - t) * (y - t)
                })
                .sum::<f64>()
                * scale
        };
        let mut g = vec![0.0; f.len()];
        let mut grads = DenseGrads::zeros(&arch);
        let mut s = Scratch::new(&arch);
        let mut d_acc = vec![0.0; arch.hidden];
        for (input, t) in &data {
            let mut add = vec![0.0; arch.hidden];
            fac.add_to(&input.rows, &f, &mut add);
            p.forward_backward_plus(input, &add, *t, scale, &mut s, &mut grads, &mut d_acc);
            fac.scatter(&input.rows, &d_acc, &mut g);
        }
        let mut nonzero = 0;
        for i in (0..f.len()).step_by(7) {
            let mut q = f.clone();
            q[i] += 1e-6;
            let plus = loss(&q);
            q[i] -= 2e-6;
            let minus = loss(&q);
            let numeric = (plus - minus) / 2e-6;
            let tol = 1e-6 + 1e-4 * numeric.abs().max(g[i].abs());
            assert!(
                (numeric - g[i]).abs() <= tol,
                "F[{i}]: analytic {}, numeric {numeric}",
                g[i]
            );
            nonzero += (g[i].abs() > 1e-9) as usize;
        }
        assert!(nonzero > 10, "only {nonzero} non-zero factor gradients");
    }

    #[test]
    fn folding_gives_the_same_value_as_the_factorised_forward() {
        let arch = Arch::new(6, 4, 3);
        let params: Params<f32> = Params::init(arch, 11);
        let fac = Factors::new();
        let mut rng = othello_core::rng::SplitMix64::new(2);
        let f: Vec<f32> = (0..fac.count * arch.hidden)
            .map(|_| (rng.below(2001) as f32 - 1000.0) / 20000.0)
            .collect();
        let folded = Network {
            params: fac.fold(&params, &f),
        };
        let mut s = Scratch::new(&arch);
        let mut any_diff = false;
        for b in othello_core::rng::random_playout(othello_core::Board::start(), &mut rng) {
            let input = Input::of(b.player(), b.opponent(), arch.buckets);
            let mut add = vec![0f32; arch.hidden];
            fac.add_to(&input.rows, &f, &mut add);
            let y = params.forward_plus(&input, &add, &mut s);
            let z = folded.evaluate(b.player(), b.opponent());
            assert!((y - z).abs() < 1e-4, "{y} vs {z}");
            any_diff |= (y - params.forward(&input, &mut s)).abs() > 1e-3;
        }
        assert!(any_diff, "the factors changed nothing");
        assert_eq!(features::row_count(), arch.rows);
    }
}
