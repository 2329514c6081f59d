//! The network, its parameters, and the float forward and backward passes.
//!
//! ```text
//! a   = b0 + Σ_{58 placements} E[row]            (H values; E: rows × H, one table per shape)
//! h1  = clamp(a, 0, 1)
//! x   = [h1, mobility(side to move)/16, mobility(opponent)/16]          (H + 2 values)
//! z2  = W2[b] · x + b2[b]                         (L2 values; b = phase bucket by empties)
//! h2  = clamp(z2, 0, 1)
//! y   = W3[b] · h2 + b3[b]                        (discs for the side to move; ×100 centi-discs)
//! ```
//!
//! Everything is generic over [`Real`] so that the tests check the gradients in `f64`; the
//! trainer and the reference evaluator use `f32`.

use std::ops::{Add, AddAssign, Mul, Neg, Sub};

use othello_core::eval::pattern::geometry::INSTANCE_COUNT;

use crate::features::{self, EXTRA};

/// A float type the network computes in (`f32` or `f64`).
pub trait Real:
    Copy
    + Send
    + Sync
    + Default
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + 'static
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// Conversion from `f64`.
    fn from_f64(x: f64) -> Self;
    /// Conversion to `f64`.
    fn to_f64(self) -> f64;
}

impl Real for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    #[inline(always)]
    fn from_f64(x: f64) -> f32 {
        x as f32
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
}

impl Real for f64 {
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    #[inline(always)]
    fn from_f64(x: f64) -> f64 {
        x
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
}

#[inline(always)]
fn clamp01<T: Real>(x: T) -> T {
    if x < T::ZERO {
        T::ZERO
    } else if x > T::ONE {
        T::ONE
    } else {
        x
    }
}

#[inline(always)]
fn inside<T: Real>(x: T) -> bool {
    x > T::ZERO && x < T::ONE
}

/// The network's dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arch {
    /// Embedding rows (weight classes of all shapes: [`features::row_count`]).
    pub rows: usize,
    /// Accumulator width H.
    pub hidden: usize,
    /// Second layer width L2.
    pub l2: usize,
    /// Phase buckets of the second and third layers.
    pub buckets: usize,
}

impl Arch {
    /// An architecture over the engine's pattern rows.
    pub fn new(hidden: usize, l2: usize, buckets: usize) -> Arch {
        Arch {
            rows: features::row_count(),
            hidden,
            l2,
            buckets,
        }
    }

    /// Inputs of the second layer (H plus the global inputs).
    pub fn l2_inputs(&self) -> usize {
        self.hidden + EXTRA
    }

    /// The sizes of the parameter groups, in file order: E, b0, W2, b2, W3, b3.
    pub fn group_sizes(&self) -> [usize; 6] {
        [
            self.rows * self.hidden,
            self.hidden,
            self.buckets * self.l2 * self.l2_inputs(),
            self.buckets * self.l2,
            self.buckets * self.l2,
            self.buckets,
        ]
    }

    /// Total number of parameters.
    pub fn param_count(&self) -> usize {
        self.group_sizes().iter().sum()
    }
}

/// The parameters: every group a flat vector.
#[derive(Clone, Debug, PartialEq)]
pub struct Params<T> {
    /// Dimensions.
    pub arch: Arch,
    /// Embedding, `rows × H`, row-major.
    pub emb: Vec<T>,
    /// Accumulator bias, H.
    pub b0: Vec<T>,
    /// Second layer, `buckets × L2 × (H + EXTRA)`.
    pub w2: Vec<T>,
    /// Second layer bias, `buckets × L2`.
    pub b2: Vec<T>,
    /// Output weights, `buckets × L2`.
    pub w3: Vec<T>,
    /// Output bias, `buckets`.
    pub b3: Vec<T>,
    /// The base id (`othello_core::eval::nnue::file::base_id`) of the pattern weights the
    /// network corrects, or 0: written in the file's header, not trained.
    pub base: u32,
}

/// Gradients of the dense groups (the embedding's come as accumulator gradients, scattered by
/// the caller).
#[derive(Clone, Debug)]
pub struct DenseGrads<T> {
    /// d/d b0.
    pub b0: Vec<T>,
    /// d/d W2.
    pub w2: Vec<T>,
    /// d/d b2.
    pub b2: Vec<T>,
    /// d/d W3.
    pub w3: Vec<T>,
    /// d/d b3.
    pub b3: Vec<T>,
}

impl<T: Real> DenseGrads<T> {
    /// Zero gradients for `arch`.
    pub fn zeros(arch: &Arch) -> DenseGrads<T> {
        let s = arch.group_sizes();
        DenseGrads {
            b0: vec![T::ZERO; s[1]],
            w2: vec![T::ZERO; s[2]],
            b2: vec![T::ZERO; s[3]],
            w3: vec![T::ZERO; s[4]],
            b3: vec![T::ZERO; s[5]],
        }
    }

    /// Sets every gradient to 0.
    pub fn clear(&mut self) {
        for g in [
            &mut self.b0,
            &mut self.w2,
            &mut self.b2,
            &mut self.w3,
            &mut self.b3,
        ] {
            g.iter_mut().for_each(|x| *x = T::ZERO);
        }
    }

    /// Adds `other` to these.
    pub fn add(&mut self, other: &DenseGrads<T>) {
        for (a, b) in [
            (&mut self.b0, &other.b0),
            (&mut self.w2, &other.w2),
            (&mut self.b2, &other.b2),
            (&mut self.w3, &other.w3),
            (&mut self.b3, &other.b3),
        ] {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += *y);
        }
    }
}

/// Scratch buffers of one forward/backward pass.
#[derive(Clone, Debug)]
pub struct Scratch<T> {
    acc: Vec<T>,
    x: Vec<T>,
    z2: Vec<T>,
    h2: Vec<T>,
    dz2: Vec<T>,
}

impl<T: Real> Scratch<T> {
    /// Buffers for `arch`.
    pub fn new(arch: &Arch) -> Scratch<T> {
        Scratch {
            acc: vec![T::ZERO; arch.hidden],
            x: vec![T::ZERO; arch.l2_inputs()],
            z2: vec![T::ZERO; arch.l2],
            h2: vec![T::ZERO; arch.l2],
            dz2: vec![T::ZERO; arch.l2],
        }
    }
}

/// One training/evaluation input: the embedding rows, the global inputs and the bucket.
#[derive(Clone, Copy, Debug)]
pub struct Input {
    /// Embedding row of every placement.
    pub rows: [u32; INSTANCE_COUNT],
    /// Global inputs.
    pub extra: [f32; EXTRA],
    /// Phase bucket.
    pub bucket: usize,
}

impl Input {
    /// The input of a position (side to move's discs, opponent's discs) for `buckets` buckets.
    #[inline]
    pub fn of(player: u64, opponent: u64, buckets: usize) -> Input {
        let empties = 64 - (player | opponent).count_ones();
        Input {
            rows: features::rows(player, opponent),
            extra: features::extras(player, opponent),
            bucket: features::bucket(empties, buckets),
        }
    }
}

impl<T: Real> Params<T> {
    /// All-zero parameters.
    pub fn zeros(arch: Arch) -> Params<T> {
        let s = arch.group_sizes();
        Params {
            arch,
            emb: vec![T::ZERO; s[0]],
            b0: vec![T::ZERO; s[1]],
            w2: vec![T::ZERO; s[2]],
            b2: vec![T::ZERO; s[3]],
            w3: vec![T::ZERO; s[4]],
            b3: vec![T::ZERO; s[5]],
            base: 0,
        }
    }

    /// Random initial parameters (uniform, scaled so that the accumulator starts inside the
    /// clipped ReLU's slope and the output near the labels' spread).
    pub fn init(arch: Arch, seed: u64) -> Params<T> {
        let mut p = Params::zeros(arch);
        let mut rng = othello_core::rng::SplitMix64::new(seed);
        let mut uniform = |scale: f64| {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            T::from_f64((2.0 * u - 1.0) * scale)
        };
        p.emb.iter_mut().for_each(|w| *w = uniform(0.04));
        p.b0.iter_mut().for_each(|w| *w = T::from_f64(0.5));
        let fan2 = (arch.l2_inputs() as f64).sqrt();
        p.w2.iter_mut().for_each(|w| *w = uniform(1.5 / fan2));
        p.b2.iter_mut().for_each(|w| *w = T::from_f64(0.5));
        p.w3.iter_mut().for_each(|w| *w = uniform(2.0));
        p
    }

    /// The groups in file order.
    pub fn groups(&self) -> [&[T]; 6] {
        [&self.emb, &self.b0, &self.w2, &self.b2, &self.w3, &self.b3]
    }

    /// The groups in file order, mutable.
    pub fn groups_mut(&mut self) -> [&mut Vec<T>; 6] {
        [
            &mut self.emb,
            &mut self.b0,
            &mut self.w2,
            &mut self.b2,
            &mut self.w3,
            &mut self.b3,
        ]
    }

    /// The accumulator of `rows`: `b0 + Σ E[row]`.
    #[inline]
    pub fn accumulate(&self, rows: &[u32], acc: &mut [T]) {
        let h = self.arch.hidden;
        acc.copy_from_slice(&self.b0);
        for &r in rows {
            let e = &self.emb[r as usize * h..r as usize * h + h];
            acc.iter_mut().zip(e).for_each(|(a, w)| *a += *w);
        }
    }

    /// The output (discs) from an accumulator, filling the scratch's activations.
    #[inline]
    fn head(&self, extra: &[f32; EXTRA], bucket: usize, s: &mut Scratch<T>) -> T {
        let (h, l2, n) = (self.arch.hidden, self.arch.l2, self.arch.l2_inputs());
        for j in 0..h {
            s.x[j] = clamp01(s.acc[j]);
        }
        for (k, &e) in extra.iter().enumerate() {
            s.x[h + k] = T::from_f64(e as f64);
        }
        let w2 = &self.w2[bucket * l2 * n..(bucket + 1) * l2 * n];
        let b2 = &self.b2[bucket * l2..(bucket + 1) * l2];
        let w3 = &self.w3[bucket * l2..(bucket + 1) * l2];
        let mut y = self.b3[bucket];
        for k in 0..l2 {
            let row = &w2[k * n..(k + 1) * n];
            let mut z = b2[k];
            for (w, x) in row.iter().zip(&s.x) {
                z += *w * *x;
            }
            s.z2[k] = z;
            s.h2[k] = clamp01(z);
            y += w3[k] * s.h2[k];
        }
        y
    }

    /// The network's value of `input`, in discs.
    pub fn forward(&self, input: &Input, s: &mut Scratch<T>) -> T {
        self.forward_plus(input, &[], s)
    }

    /// The network's value of `input` with `add` added to the accumulator (the trainer's
    /// factors, [`crate::factor`]; empty for none), in discs.
    pub fn forward_plus(&self, input: &Input, add: &[T], s: &mut Scratch<T>) -> T {
        let mut acc = std::mem::take(&mut s.acc);
        self.accumulate(&input.rows, &mut acc);
        acc.iter_mut().zip(add).for_each(|(a, x)| *a += *x);
        s.acc = acc;
        self.head(&input.extra, input.bucket, s)
    }

    /// Forward and backward for one sample with loss `scale · (y − target)²`: adds the dense
    /// gradients to `grads`, writes the accumulator's gradient to `d_acc` (each placement's
    /// embedding row receives it), and returns `y`.
    pub fn forward_backward(
        &self,
        input: &Input,
        target: T,
        scale: T,
        s: &mut Scratch<T>,
        grads: &mut DenseGrads<T>,
        d_acc: &mut [T],
    ) -> T {
        self.forward_backward_plus(input, &[], target, scale, s, grads, d_acc)
    }

    /// [`Params::forward_backward`] with `add` added to the accumulator
    /// ([`Params::forward_plus`]); `d_acc` is also the gradient of `add`.
    #[allow(clippy::too_many_arguments)]
    pub fn forward_backward_plus(
        &self,
        input: &Input,
        add: &[T],
        target: T,
        scale: T,
        s: &mut Scratch<T>,
        grads: &mut DenseGrads<T>,
        d_acc: &mut [T],
    ) -> T {
        let y = self.forward_plus(input, add, s);
        let (h, l2, n, b) = (
            self.arch.hidden,
            self.arch.l2,
            self.arch.l2_inputs(),
            input.bucket,
        );
        let dy = T::from_f64(2.0) * scale * (y - target);
        grads.b3[b] += dy;
        let w2 = &self.w2[b * l2 * n..(b + 1) * l2 * n];
        let w3 = &self.w3[b * l2..(b + 1) * l2];
        let gw2 = &mut grads.w2[b * l2 * n..(b + 1) * l2 * n];
        let gb2 = &mut grads.b2[b * l2..(b + 1) * l2];
        let gw3 = &mut grads.w3[b * l2..(b + 1) * l2];
        for k in 0..l2 {
            gw3[k] += dy * s.h2[k];
            s.dz2[k] = if inside(s.z2[k]) { dy * w3[k] } else { T::ZERO };
            gb2[k] += s.dz2[k];
        }
        d_acc[..h].iter_mut().for_each(|d| *d = T::ZERO);
        for k in 0..l2 {
            let dz = s.dz2[k];
            if dz == T::ZERO {
                continue;
            }
            let grow = &mut gw2[k * n..(k + 1) * n];
            grow.iter_mut().zip(&s.x).for_each(|(g, x)| *g += dz * *x);
            let wrow = &w2[k * n..k * n + h];
            d_acc[..h]
                .iter_mut()
                .zip(wrow)
                .for_each(|(d, w)| *d += dz * *w);
        }
        for ((d, a), g) in d_acc[..h].iter_mut().zip(&s.acc).zip(&mut grads.b0) {
            if !inside(*a) {
                *d = T::ZERO;
            }
            *g += *d;
        }
        y
    }
}

/// The float reference evaluator.
#[derive(Clone, Debug)]
pub struct Network {
    /// The parameters.
    pub params: Params<f32>,
}

impl Network {
    /// The value of a position for the side to move, in discs.
    pub fn evaluate(&self, player: u64, opponent: u64) -> f32 {
        let input = Input::of(player, opponent, self.params.arch.buckets);
        let mut s = Scratch::new(&self.params.arch);
        self.params.forward(&input, &mut s)
    }

    /// The value in centi-discs, rounded and clamped to ±6400.
    pub fn evaluate_centi(&self, player: u64, opponent: u64) -> i32 {
        ((self.evaluate(player, opponent) * 100.0).round() as i32).clamp(-6400, 6400)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(n: usize, buckets: usize, seed: u64) -> Vec<(Input, f64)> {
        let mut rng = othello_core::rng::SplitMix64::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let game: Vec<_> =
                othello_core::rng::random_playout(othello_core::Board::start(), &mut rng).collect();
            let b = game[rng.below(game.len() as u64) as usize];
            let target = (rng.below(129) as f64 - 64.0) / 4.0;
            out.push((Input::of(b.player(), b.opponent(), buckets), target));
        }
        out
    }

    fn loss(p: &Params<f64>, data: &[(Input, f64)]) -> f64 {
        let mut s = Scratch::new(&p.arch);
        data.iter()
            .map(|(i, t)| {
                let y = p.forward(i, &mut s);
                (y - t) * (y - t)
            })
            .sum::<f64>()
            / data.len() as f64
    }

    /// Every parameter group's analytic gradient against central finite differences, on a
    /// tiny network (H = 5, L2 = 4, 3 buckets) in f64.
    #[test]
    fn gradients_match_finite_differences() {
        let arch = Arch::new(5, 4, 3);
        let mut p: Params<f64> = Params::init(arch, 3);
        // Larger embedding values so that the accumulator crosses the clip in places.
        p.emb.iter_mut().for_each(|w| *w *= 3.0);
        let data = samples(12, arch.buckets, 17);
        let scale = 1.0 / data.len() as f64;
        let mut grads = DenseGrads::zeros(&arch);
        let mut emb_grad = vec![0.0; arch.rows * arch.hidden];
        let mut s = Scratch::new(&arch);
        let mut d_acc = vec![0.0; arch.hidden];
        for (input, t) in &data {
            p.forward_backward(input, *t, scale, &mut s, &mut grads, &mut d_acc);
            for &r in &input.rows {
                for j in 0..arch.hidden {
                    emb_grad[r as usize * arch.hidden + j] += d_acc[j];
                }
            }
        }
        // The embedding entries to check: every touched row (all of its columns) and a few
        // untouched ones (gradient 0).
        let mut touched: Vec<usize> = data
            .iter()
            .flat_map(|(i, _)| i.rows.iter().map(|&r| r as usize))
            .collect();
        touched.sort_unstable();
        touched.dedup();
        let mut emb_idx: Vec<usize> = touched
            .iter()
            .flat_map(|&r| (0..arch.hidden).map(move |j| r * arch.hidden + j))
            .collect();
        emb_idx.extend([1usize, 77, 100_000].iter().map(|&r| r * arch.hidden + 2));
        let analytic: [Vec<(usize, f64)>; 6] = [
            emb_idx.iter().map(|&i| (i, emb_grad[i])).collect(),
            grads.b0.iter().copied().enumerate().collect(),
            grads.w2.iter().copied().enumerate().collect(),
            grads.b2.iter().copied().enumerate().collect(),
            grads.w3.iter().copied().enumerate().collect(),
            grads.b3.iter().copied().enumerate().collect(),
        ];
        let names = ["E", "b0", "W2", "b2", "W3", "b3"];
        let eps = 1e-6;
        let mut nonzero = [0usize; 6];
        for (g, list) in analytic.iter().enumerate() {
            for &(i, a) in list {
                let mut q = p.clone();
                q.groups_mut()[g][i] += eps;
                let plus = loss(&q, &data);
                q.groups_mut()[g][i] -= 2.0 * eps;
                let minus = loss(&q, &data);
                let numeric = (plus - minus) / (2.0 * eps);
                let tol = 1e-6 + 1e-4 * numeric.abs().max(a.abs());
                assert!(
                    (numeric - a).abs() <= tol,
                    "{}[{i}]: analytic {a}, numeric {numeric}",
                    names[g]
                );
                if a.abs() > 1e-9 {
                    nonzero[g] += 1;
                }
            }
        }
        for g in 0..6 {
            assert!(
                nonzero[g] > 0,
                "group {} has no non-zero gradient",
                names[g]
            );
        }
    }

    #[test]
    fn evaluation_is_invariant_under_the_board_symmetries() {
        let arch = Arch::new(8, 6, 4);
        let net = Network {
            params: Params::init(arch, 7),
        };
        let mut rng = othello_core::rng::SplitMix64::new(4);
        for _ in 0..50 {
            let game: Vec<_> =
                othello_core::rng::random_playout(othello_core::Board::start(), &mut rng).collect();
            let b = game[rng.below(game.len() as u64) as usize];
            let v = net.evaluate(b.player(), b.opponent());
            for g in 0..8 {
                let s = b.symmetry(g);
                let w = net.evaluate(s.player(), s.opponent());
                assert!((v - w).abs() < 1e-4, "symmetry {g}: {v} vs {w}");
            }
        }
    }
}
