//! The fit as a linear system, solved by the preconditioned conjugate gradient method.
//!
//! The trainer's objective (see the parent module) is quadratic, so its minimum solves the normal equations
//! `(XᵀX + λI + μL) w = Xᵀy`, where row `i` of `X` has a 1 at each weight sample `i` sums, `y`
//! holds the labels and `L` is the path-graph Laplacian linking each weight to the same weight
//! in the adjacent phases. [`NormalEquations`] never forms `XᵀX`: its product with a vector is
//! one pass over the samples ([`scatter_pass`], split across threads) plus the regulariser.
//!
//! [`ConjugateGradient`] runs the method of Hestenes and Stiefel (1952; see Shewchuk, "An
//! Introduction to the Conjugate Gradient Method Without the Agonizing Pain", 1994) on them
//! from `w = 0`, with a Jacobi (diagonal) preconditioner: `diag(XᵀX) + λ + μ·degree`, where
//! the diagonal of `XᵀX` counts the samples that use each weight. Logistello's and Edax's
//! weights were fitted the same way.

use crate::eval::pattern::FEATURES_PER_PHASE;
use crate::learn::LearnError;
use crate::search::start_all;

use super::encode::Encoded;

/// The normal equations of a fit to `samples`: the product with their matrix, and its
/// preconditioner.
pub(super) struct NormalEquations<'a> {
    samples: &'a Encoded,
    phases: usize,
    /// L2 regularisation `λ`.
    lambda: f64,
    /// Phase smoothing `μ`.
    smooth: f64,
    /// Threads for the passes over the samples.
    threads: usize,
    /// The inverse of the matrix's diagonal (0 where the diagonal is 0).
    precond: Vec<f64>,
}

impl<'a> NormalEquations<'a> {
    /// The system of a `phases`-phase model fitted to `samples`, regularised by `lambda` and
    /// `smooth`, its passes run on `threads` threads.
    pub(super) fn new(
        samples: &'a Encoded,
        phases: usize,
        lambda: f64,
        smooth: f64,
        threads: usize,
    ) -> Result<NormalEquations<'a>, LearnError> {
        let n = phases * FEATURES_PER_PHASE;
        let threads = threads.max(1);
        check_pass_memory(samples.len(), n, threads)?;
        let zero = vec![0f64; n];
        let counts = scatter_pass(samples, &zero, threads, &|_, _| 1.0);
        let precond = (0..n)
            .map(|j| {
                let p = j / FEATURES_PER_PHASE;
                let degree = (p > 0) as u32 + (p + 1 < phases) as u32;
                let d = counts[j] + lambda + smooth * degree as f64;
                if d > 0.0 {
                    1.0 / d
                } else {
                    0.0
                }
            })
            .collect();
        Ok(NormalEquations {
            samples,
            phases,
            lambda,
            smooth,
            threads,
            precond,
        })
    }

    /// The number of unknowns (weights).
    pub(super) fn len(&self) -> usize {
        self.precond.len()
    }

    /// The right-hand side `Xᵀy`.
    fn right_hand_side(&self) -> Vec<f64> {
        let labels = self.samples.labels();
        let zero = vec![0f64; self.len()];
        scatter_pass(self.samples, &zero, self.threads, &|i, _| labels[i])
    }

    /// The matrix times `v`: `XᵀX v + λ v + μ L v`.
    fn apply(&self, v: &[f64]) -> Vec<f64> {
        let mut out = scatter_pass(self.samples, v, self.threads, &|_, dot| dot);
        add_regularisation(&mut out, v, self.phases, self.lambda, self.smooth);
        out
    }
}

/// The state of a preconditioned conjugate gradient run on a [`NormalEquations`].
pub(super) struct ConjugateGradient<'s, 'a> {
    system: &'s NormalEquations<'a>,
    /// The current solution.
    w: Vec<f64>,
    /// The residual `b − A w`.
    r: Vec<f64>,
    /// The preconditioned residual.
    z: Vec<f64>,
    /// The search direction.
    d: Vec<f64>,
    /// `r · z`, now and at the start.
    rz: f64,
    rz0: f64,
}

impl<'s, 'a> ConjugateGradient<'s, 'a> {
    /// A run on `system` from `w = 0`.
    pub(super) fn new(system: &'s NormalEquations<'a>) -> ConjugateGradient<'s, 'a> {
        let w = vec![0f64; system.len()];
        let r = system.right_hand_side();
        let z: Vec<f64> = r.iter().zip(&system.precond).map(|(a, m)| a * m).collect();
        let d = z.clone();
        let rz = dot(&r, &z);
        ConjugateGradient {
            system,
            w,
            r,
            z,
            d,
            rz,
            rz0: rz,
        }
    }

    /// One iteration. `false`, with nothing changed, once the residual has vanished (relative
    /// to the start) or when the direction has no positive curvature left (rounding).
    pub(super) fn step(&mut self) -> bool {
        if self.rz <= self.rz0 * 1e-24 || self.rz == 0.0 {
            return false;
        }
        let q = self.system.apply(&self.d);
        let dq = dot(&self.d, &q);
        if dq <= 0.0 || !dq.is_finite() {
            return false;
        }
        let alpha = self.rz / dq;
        let precond = &self.system.precond;
        for j in 0..self.w.len() {
            self.w[j] += alpha * self.d[j];
            self.r[j] -= alpha * q[j];
            self.z[j] = self.r[j] * precond[j];
        }
        let rz_new = dot(&self.r, &self.z);
        let beta = rz_new / self.rz;
        self.rz = rz_new;
        for j in 0..self.d.len() {
            self.d[j] = self.z[j] + beta * self.d[j];
        }
        true
    }

    /// The current solution.
    pub(super) fn weights(&self) -> &[f64] {
        &self.w
    }
}

/// The threads of a pass over `samples` samples with `threads` asked for: each sums into a
/// vector of all the weights.
fn pass_threads(threads: usize, samples: usize) -> usize {
    threads.clamp(1, 64).min(samples.max(1))
}

/// Checks that the sums of a pass (one vector of `weights` per thread) can be allocated, as
/// every pass will: with many phases and threads they reach gigabytes (61 phases: 95 MiB a
/// thread), and a pass that cannot have them would abort half-way through the fit.
fn check_pass_memory(samples: usize, weights: usize, threads: usize) -> Result<(), LearnError> {
    let sums = pass_threads(threads, samples);
    let mut held: Vec<Vec<f64>> = Vec::with_capacity(sums);
    for _ in 0..sums {
        let mut sum = Vec::new();
        if sum.try_reserve_exact(weights).is_err() {
            return Err(LearnError::Memory(format!(
                "cannot allocate the sums of {sums} threads over {weights} weights ({} MiB); \
                 use fewer threads or phases",
                (sums * weights * std::mem::size_of::<f64>()) >> 20
            )));
        }
        held.push(sum);
    }
    Ok(())
}

/// `out = Σ_i x_i · g(i, x_i · v)` over the samples, split across `threads` threads, where
/// `g` gives the value to scatter for each sample from its dot product with `v`. If the system
/// will not start the threads, the calling thread sums the same parts in the same order.
fn scatter_pass(
    enc: &Encoded,
    v: &[f64],
    threads: usize,
    g: &(dyn Fn(usize, f64) -> f64 + Sync),
) -> Vec<f64> {
    let n = enc.len();
    let threads = pass_threads(threads, n);
    let chunk = n.div_ceil(threads).max(1);
    let part = |t: usize, out: &mut [f64]| {
        for i in t * chunk..((t + 1) * chunk).min(n) {
            let idx = enc.indices(i);
            let dot: f64 = idx.iter().map(|&j| v[j]).sum();
            let x = g(i, dot);
            for &j in &idx {
                out[j] += x;
            }
        }
    };
    let mut parts: Vec<Vec<f64>> = (0..threads).map(|_| vec![0f64; v.len()]).collect();
    let started = std::thread::scope(|s| {
        let part = &part;
        let tasks = parts
            .iter_mut()
            .enumerate()
            .map(|(t, out)| move || part(t, out))
            .collect();
        start_all(s, tasks).is_ok()
    });
    if !started {
        for (t, out) in parts.iter_mut().enumerate() {
            part(t, out);
        }
    }
    let mut total = parts.pop().unwrap_or_else(|| vec![0f64; v.len()]);
    for p in parts {
        for (a, b) in total.iter_mut().zip(p) {
            *a += b;
        }
    }
    total
}

/// Adds `λ v + μ L v` (regularisation and phase smoothing) to `out`.
fn add_regularisation(out: &mut [f64], v: &[f64], phases: usize, lambda: f64, mu: f64) {
    let d = FEATURES_PER_PHASE;
    for p in 0..phases {
        for f in 0..d {
            let j = p * d + f;
            let mut r = lambda * v[j];
            if mu > 0.0 {
                if p > 0 {
                    r += mu * (v[j] - v[j - d]);
                }
                if p + 1 < phases {
                    r += mu * (v[j] - v[j + d]);
                }
            }
            out[j] += r;
        }
    }
}

/// The dot product of `a` and `b`.
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
