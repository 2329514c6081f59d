//! The trainer: minibatch Adam with a sparse (lazy) update of the embedding rows a batch
//! touches, data-parallel over the batch, validation by game, early stopping, learning-rate
//! decay, a resumable checkpoint every epoch.
//!
//! Loss: mean squared error in discs. Each step:
//!
//! 1. the batch is cut into one slice per thread; each thread runs forward and backward on its
//!    samples, adding the dense gradients to its own buffer and writing each sample's
//!    accumulator gradient and embedding rows;
//! 2. the embedding rows are cut into one range per thread (whole shapes, balanced by their
//!    placements); each thread adds the accumulator gradients of its rows into a gradient
//!    table, then applies Adam to the rows it touched only (their moments decay only when they
//!    are touched, as in NNUE trainers' sparse Adam), and clears them;
//! 3. the dense groups get an ordinary Adam step on the sum of the threads' gradients.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use othello_core::eval::pattern::geometry::{INSTANCES, INSTANCE_COUNT, PATTERNS};

use crate::data;
use crate::factor::Factors;
use crate::features;
use crate::file::{fnv1a64, save_weights, write_atomic};
use crate::net::{Arch, DenseGrads, Input, Scratch};

mod checkpoint;
mod init;
mod siblings;
mod validation;
use checkpoint::State;
use init::init_params;
pub use siblings::sibling_target;
pub use validation::{sibling_mae, validate};

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const ADAM_EPS: f64 = 1e-8;

/// The trainer's settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Directory of `OthData1` files.
    pub data: PathBuf,
    /// Output directory: `train.log`, `ckpt/`, `best.nnue`.
    pub dir: PathBuf,
    /// Accumulator width.
    pub hidden: usize,
    /// Second layer width.
    pub l2: usize,
    /// Phase buckets.
    pub buckets: usize,
    /// Minibatch size.
    pub batch: usize,
    /// Initial learning rate.
    pub lr: f64,
    /// Learning rate factor per epoch.
    pub decay: f64,
    /// Maximum epochs.
    pub epochs: usize,
    /// Stop after this many epochs without a better validation MAE.
    pub patience: usize,
    /// Fraction of games held out for validation.
    pub valid: f64,
    /// Fraction of the other games used for training.
    pub fraction: f64,
    /// Decoupled (AdamW) weight decay of the embedding rows, applied when a row is updated.
    pub wd: f64,
    /// Positions with fewer empty squares are left out (the exact solver's domain).
    pub min_empties: u32,
    /// Drop the records that repeat an earlier record's position and label
    /// ([`data::load`]).
    pub dedupe: bool,
    /// Samples per epoch (0: every training position once).
    pub epoch_samples: usize,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Shapes left out (indices into `PATTERNS`): their rows stay zero, so the network reads
    /// only the other shapes' placements and the engine skips these (a smaller table).
    pub dropped: Vec<usize>,
    /// Train the embedding factorised ([`crate::factor`]): per-square vectors shared by the
    /// rows, folded into them in every written network.
    pub factor: bool,
    /// Keep every embedding weight the network file holds (each row with its factors folded
    /// in) within the `i8` range the engine's inference holds, ±127/256: after each sparse
    /// step a touched row is clamped to it, and the written networks are clamped once more
    /// (the shared factors move rows the step did not touch). So the network learns within the
    /// range it is evaluated in, as NNUE trainers clip their quantised layers, and every file
    /// packs (`nnue-pack`).
    pub clip: bool,
    /// Pattern weights the network corrects ([`data::subtract_base`]): each label becomes the label
    /// minus these weights' value, so the network learns a residual and the engine adds the
    /// two (`None`: the network alone).
    pub base: Option<PathBuf>,
    /// Weight λ of the sibling term ([`sibling_target`]; 0: plain MSE). With λ > 0 the
    /// deviations files are paired with the games they branch from ([`data::load`]).
    pub sibling: f64,
    /// A network to start from instead of random weights (either file version; its dimensions
    /// must be the run's): a fine-tuning run. The optimiser starts afresh.
    pub init: Option<PathBuf>,
    /// Weight of the game's outcome mixed into the search labels of the positions files
    /// (`data::load`; 0: the labels as they are).
    pub outcome: f64,
}

impl Config {
    /// Whether placement slot `slot` belongs to a dropped shape.
    fn dropped_slots(&self) -> [bool; INSTANCE_COUNT] {
        let mut out = [false; INSTANCE_COUNT];
        for (slot, inst) in INSTANCES.iter().enumerate() {
            out[slot] = self.dropped.contains(&(inst.pattern as usize));
        }
        out
    }
}

impl Config {
    /// What a checkpoint must agree on to be resumed (not the epoch count, patience or threads).
    fn fingerprint(&self, files: &[PathBuf]) -> String {
        let names: Vec<String> = files
            .iter()
            .map(|p| {
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            })
            .collect();
        format!(
            "H {} L2 {} buckets {} batch {} lr {} decay {} valid {} fraction {} min_empties {} epoch_samples {} seed {} files {:016x}{}{}{}{}{}{}{}{}{}",
            self.hidden,
            self.l2,
            self.buckets,
            self.batch,
            self.lr,
            self.decay,
            self.valid,
            self.fraction,
            self.min_empties,
            self.epoch_samples,
            self.seed,
            fnv1a64(names.join("\n").as_bytes(), 0..0),
            // Older checkpoints were made without weight decay or dropped shapes.
            if self.wd == 0.0 { String::new() } else { format!(" wd {}", self.wd) },
            if self.dropped.is_empty() {
                String::new()
            } else {
                format!(" dropped {:?}", self.dropped)
            },
            if self.factor { " factor" } else { "" },
            if self.dedupe { " dedupe" } else { "" },
            if self.clip { " clip" } else { "" },
            match &self.base {
                Some(path) => format!(
                    " base {}",
                    path.file_name().unwrap_or_default().to_string_lossy()
                ),
                None => String::new(),
            },
            if self.sibling == 0.0 { String::new() } else { format!(" sibling {}", self.sibling) },
            match &self.init {
                Some(path) => format!(
                    " init {}",
                    path.file_name().unwrap_or_default().to_string_lossy()
                ),
                None => String::new(),
            },
            if self.outcome == 0.0 { String::new() } else { format!(" outcome {}", self.outcome) }
        )
    }
}

/// The row range and placement slots each thread owns in the sparse update: whole shapes,
/// balanced by their number of placements.
fn row_ranges(arch: &Arch, threads: usize) -> Vec<(usize, usize, usize, usize)> {
    let shapes = PATTERNS.len();
    let mut slot_start = vec![0usize; shapes + 1];
    for (slot, inst) in INSTANCES.iter().enumerate() {
        slot_start[inst.pattern as usize + 1] = slot + 1;
    }
    let mut out = Vec::new();
    let mut first = 0usize;
    for t in 0..threads {
        let target = INSTANCE_COUNT * (t + 1) / threads;
        let mut last = first;
        while last < shapes && (slot_start[last + 1] <= target || t + 1 == threads) {
            last += 1;
        }
        let row0 = if first < shapes {
            features::shape_row_offset(first)
        } else {
            arch.rows
        };
        let row1 = if last < shapes {
            features::shape_row_offset(last)
        } else {
            arch.rows
        };
        out.push((row0, row1, slot_start[first], slot_start[last]));
        first = last;
    }
    out
}

/// Per-thread buffers of the first phase.
struct Worker {
    scratch: Scratch<f32>,
    grads: DenseGrads<f32>,
    /// The factors' gradient and one sample's factor sum (empty without factors).
    fgrad: Vec<f32>,
    add: Vec<f32>,
    sq: f64,
    abs: f64,
}

/// Adam on `p` with gradient `g`; `lr_t` includes the bias corrections; `decay` is the
/// decoupled weight decay factor of this step (AdamW: `p *= 1 - lr · wd`).
#[inline]
fn adam(p: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32], lr_t: f32, decay: f32) {
    let (b1, b2, eps) = (BETA1 as f32, BETA2 as f32, ADAM_EPS as f32);
    for i in 0..p.len() {
        let gi = g[i];
        m[i] = b1 * m[i] + (1.0 - b1) * gi;
        v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
        p[i] = p[i] * decay - lr_t * m[i] / (v[i].sqrt() + eps);
    }
}

/// Clamps `row` so that `row + shift` lies within ±`limit`, weight by weight; returns how many
/// weights moved.
fn clamp_row(row: &mut [f32], shift: &[f32], limit: f32) -> usize {
    let mut moved = 0;
    for (w, s) in row.iter_mut().zip(shift) {
        let c = w.clamp(-limit - s, limit - s);
        moved += usize::from(c != *w);
        *w = c;
    }
    moved
}

/// The embedding range of the engine's `i8` inference, in units.
pub fn embedding_limit() -> f32 {
    i8::MAX as f32 / othello_core::eval::nnue::EMBED_SCALE as f32
}

fn shuffled(n: usize, seed: u64) -> Vec<u32> {
    let mut v: Vec<u32> = (0..n as u32).collect();
    let mut rng = othello_core::rng::SplitMix64::new(seed);
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
    v
}

fn log_line(path: &Path, line: &str) {
    log::info!("{line}");
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = writeln!(f, "{line}");
    }
}

/// Runs (or resumes) a training run.
pub fn run(cfg: &Config) -> Result<(), String> {
    let ckpt_dir = cfg.dir.join("ckpt");
    std::fs::create_dir_all(&ckpt_dir).map_err(|e| format!("{}: {e}", ckpt_dir.display()))?;
    let log = cfg.dir.join("train.log");
    let files = data::data_files(&cfg.data).map_err(|e| format!("{}: {e}", cfg.data.display()))?;
    if files.is_empty() {
        return Err(format!("no OthData1 files in {}", cfg.data.display()));
    }
    let arch = Arch::new(cfg.hidden, cfg.l2, cfg.buckets);
    let fingerprint = cfg.fingerprint(&files);
    let factors = cfg.factor.then(Factors::new);
    let clip = cfg.clip.then(embedding_limit);
    let nf = factors.as_ref().map_or(0, |f| f.count);
    let last = ckpt_dir.join("last.ckpt");
    let mut state = if last.exists() {
        let bytes = std::fs::read(&last).map_err(|e| format!("{}: {e}", last.display()))?;
        let s = State::from_bytes(&bytes, arch, nf, &fingerprint)
            .map_err(|e| format!("{}: {e}", last.display()))?;
        log_line(
            &log,
            &format!(
                "# resumed from {} after epoch {} (step {}, best val MAE {:.4} at epoch {})",
                last.display(),
                s.epoch,
                s.step,
                s.best_mae,
                s.best_epoch
            ),
        );
        s
    } else {
        let mut state = State::new(arch, cfg.seed, nf);
        if let Some(path) = &cfg.init {
            state.params = init_params(path, arch)?;
            log_line(&log, &format!("# weights from {}", path.display()));
        }
        // Dropped shapes' rows start at zero and are never updated (see the scatter below).
        let h = arch.hidden;
        for &shape in &cfg.dropped {
            let r0 = features::shape_row_offset(shape);
            let r1 = if shape + 1 < PATTERNS.len() {
                features::shape_row_offset(shape + 1)
            } else {
                arch.rows
            };
            state.params.emb[r0 * h..r1 * h]
                .iter_mut()
                .for_each(|w| *w = 0.0);
        }
        state
    };
    let dropped = cfg.dropped_slots();
    if state.finished || state.epoch >= cfg.epochs {
        log_line(&log, &format!("# training already finished after epoch {} (best epoch {}, val MAE {:.4}); weights in {}", state.epoch, state.best_epoch, state.best_mae, cfg.dir.join("best.nnue").display()));
        return Ok(());
    }

    let t_load = Instant::now();
    let mut ds = data::load(
        &files,
        cfg.valid,
        cfg.fraction,
        cfg.min_empties,
        cfg.dedupe,
        cfg.sibling > 0.0,
        cfg.outcome,
    )?;
    if let Some(path) = &cfg.base {
        let (base, id) = data::read_base(path)?;
        state.params.base = id;
        let mae = data::subtract_base(&mut ds, &base);
        log_line(
            &log,
            &format!(
                "# labels made residuals over {}: its validation MAE {mae:.4}",
                path.display()
            ),
        );
    }
    log_line(
        &log,
        &format!(
            "# {} files, {} records: {} training, {} validation, {} left out, {} repeats dropped; loaded in {:.1} s; {fingerprint}; params {}",
            files.len(),
            ds.records,
            ds.train.len(),
            ds.valid.len(),
            ds.skipped,
            ds.repeats,
            t_load.elapsed().as_secs_f64(),
            arch.param_count()
        ),
    );
    if cfg.sibling > 0.0 {
        let paired = ds
            .sibling
            .iter()
            .filter(|&&s| s != data::NO_SIBLING)
            .count();
        log_line(
            &log,
            &format!(
                "# sibling pairs: {} training positions paired, {} validation pairs; λ {}",
                paired,
                ds.valid_pairs.len(),
                cfg.sibling
            ),
        );
    }
    if state.epoch == 0 {
        log_line(&log, "# epoch train_mse train_mae val_mae val_rmse val_mae(<=20,21-30,31-40,41+) lr samples/s elapsed_s");
    }

    let threads = cfg.threads.max(1);
    let h = arch.hidden;
    let ranges = row_ranges(&arch, threads);
    let mut workers: Vec<Worker> = (0..threads)
        .map(|_| Worker {
            scratch: Scratch::new(&arch),
            grads: DenseGrads::zeros(&arch),
            fgrad: vec![0.0; nf * arch.hidden],
            add: vec![0.0; if nf > 0 { arch.hidden } else { 0 }],
            sq: 0.0,
            abs: 0.0,
        })
        .collect();
    let mut emb_grad = vec![0f32; arch.rows * h];
    let mut touched = vec![false; arch.rows];
    // The step up to which each row's weight decay has been applied (rows untouched by a step
    // catch up when next touched, and all of them at the end of an epoch).
    let mut decayed_to = vec![state.step; arch.rows];
    let mut dacc = vec![0f32; cfg.batch * h];
    let mut rows_buf = vec![0u32; cfg.batch * INSTANCE_COUNT];
    let mut dense_sum = DenseGrads::<f32>::zeros(&arch);

    while state.epoch < cfg.epochs && !state.finished {
        let epoch = state.epoch + 1;
        let t0 = Instant::now();
        let lr = cfg.lr * cfg.decay.powi(state.epoch as i32);
        let mut order = shuffled(
            ds.train.len(),
            cfg.seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9),
        );
        if cfg.epoch_samples > 0 && cfg.epoch_samples < order.len() {
            order.truncate(cfg.epoch_samples);
        }
        let (mut sum_sq, mut sum_abs) = (0.0f64, 0.0f64);
        let mut last_report = Instant::now();
        for (bi, batch) in order.chunks(cfg.batch).enumerate() {
            state.step += 1;
            let n = batch.len();
            let scale = 1.0 / n as f32;
            let per = n.div_ceil(threads);
            // Phase 1: forward and backward, data-parallel.
            for w in workers.iter_mut() {
                w.grads.clear();
                w.fgrad.iter_mut().for_each(|x| *x = 0.0);
                w.sq = 0.0;
                w.abs = 0.0;
            }
            {
                let params = &state.params;
                let train = &ds.train;
                let sibling = &ds.sibling;
                let lambda = cfg.sibling as f32;
                let (factors, fac) = (factors.as_ref(), &state.fac[0]);
                std::thread::scope(|s| {
                    for (((w, idx), da), rb) in workers
                        .iter_mut()
                        .zip(batch.chunks(per))
                        .zip(dacc[..n * h].chunks_mut(per * h))
                        .zip(rows_buf[..n * INSTANCE_COUNT].chunks_mut(per * INSTANCE_COUNT))
                    {
                        s.spawn(move || {
                            for (k, &i) in idx.iter().enumerate() {
                                let p = &train[i as usize];
                                let input = Input::of(p.player, p.opponent, params.arch.buckets);
                                let target = p.label as f32 / 100.0;
                                let mut fit = (target, 1.0);
                                if let Some(&j) = sibling.get(i as usize) {
                                    if j != data::NO_SIBLING {
                                        let q = &train[j as usize];
                                        let qi =
                                            Input::of(q.player, q.opponent, params.arch.buckets);
                                        if let Some(f) = factors {
                                            w.add.iter_mut().for_each(|x| *x = 0.0);
                                            f.add_to(&qi.rows, fac, &mut w.add);
                                        }
                                        let yq = params.forward_plus(&qi, &w.add, &mut w.scratch);
                                        fit = sibling_target(
                                            target,
                                            yq - q.label as f32 / 100.0,
                                            lambda,
                                        );
                                    }
                                }
                                if let Some(f) = factors {
                                    w.add.iter_mut().for_each(|x| *x = 0.0);
                                    f.add_to(&input.rows, fac, &mut w.add);
                                }
                                let d = &mut da[k * h..(k + 1) * h];
                                let y = params.forward_backward_plus(
                                    &input,
                                    &w.add,
                                    fit.0,
                                    scale * fit.1,
                                    &mut w.scratch,
                                    &mut w.grads,
                                    d,
                                );
                                if let Some(f) = factors {
                                    f.scatter(&input.rows, d, &mut w.fgrad);
                                }
                                let e = (y - target) as f64;
                                w.sq += e * e;
                                w.abs += e.abs();
                                rb[k * INSTANCE_COUNT..(k + 1) * INSTANCE_COUNT]
                                    .copy_from_slice(&input.rows);
                            }
                        });
                    }
                });
            }
            for w in &workers {
                sum_sq += w.sq;
                sum_abs += w.abs;
            }
            let t = state.step as f64;
            let lr_t = (lr * (1.0 - BETA2.powf(t)).sqrt() / (1.0 - BETA1.powf(t))) as f32;
            // Decoupled weight decay of the embedding (the dense layers: none), per step.
            let emb_decay = (1.0 - lr * cfg.wd) as f32;
            let step = state.step;
            // Phase 2: scatter the accumulator gradients and the sparse Adam step, by row range.
            {
                let dacc = &dacc[..n * h];
                let rows_buf = &rows_buf[..n * INSTANCE_COUNT];
                let mut emb: &mut [f32] = &mut state.params.emb;
                let mut m: &mut [f32] = &mut state.m[0];
                let mut v: &mut [f32] = &mut state.v[0];
                let mut g: &mut [f32] = &mut emb_grad;
                let mut tf: &mut [bool] = &mut touched;
                let mut dt: &mut [u64] = &mut decayed_to;
                let (factors, fac) = (factors.as_ref(), &state.fac[0]);
                std::thread::scope(|s| {
                    let mut done = 0usize;
                    for &(r0, r1, s0, s1) in &ranges {
                        debug_assert_eq!(r0, done);
                        let len = r1 - r0;
                        let (e_part, e_rest) = std::mem::take(&mut emb).split_at_mut(len * h);
                        let (m_part, m_rest) = std::mem::take(&mut m).split_at_mut(len * h);
                        let (v_part, v_rest) = std::mem::take(&mut v).split_at_mut(len * h);
                        let (g_part, g_rest) = std::mem::take(&mut g).split_at_mut(len * h);
                        let (t_part, t_rest) = std::mem::take(&mut tf).split_at_mut(len);
                        let (d_part, d_rest) = std::mem::take(&mut dt).split_at_mut(len);
                        dt = d_rest;
                        emb = e_rest;
                        m = m_rest;
                        v = v_rest;
                        g = g_rest;
                        tf = t_rest;
                        done = r1;
                        s.spawn(move || {
                            let mut list: Vec<u32> = Vec::with_capacity(n * (s1 - s0));
                            let mut fsum = vec![0f32; h];
                            for k in 0..n {
                                let d = &dacc[k * h..(k + 1) * h];
                                for (&r, _) in rows_buf
                                    [k * INSTANCE_COUNT + s0..k * INSTANCE_COUNT + s1]
                                    .iter()
                                    .zip(&dropped[s0..s1])
                                    .filter(|(_, &gone)| !gone)
                                {
                                    let local = r as usize - r0;
                                    let gr = &mut g_part[local * h..(local + 1) * h];
                                    gr.iter_mut().zip(d).for_each(|(a, b)| *a += *b);
                                    if !t_part[local] {
                                        t_part[local] = true;
                                        list.push(local as u32);
                                    }
                                }
                            }
                            for &local in &list {
                                let l = local as usize;
                                let range = l * h..(l + 1) * h;
                                if emb_decay != 1.0 {
                                    let f = emb_decay.powi((step - d_part[l]) as i32);
                                    e_part[range.clone()].iter_mut().for_each(|w| *w *= f);
                                    d_part[l] = step;
                                }
                                adam(
                                    &mut e_part[range.clone()],
                                    &mut m_part[range.clone()],
                                    &mut v_part[range.clone()],
                                    &g_part[range.clone()],
                                    lr_t,
                                    1.0,
                                );
                                if let Some(limit) = clip {
                                    fsum.iter_mut().for_each(|x| *x = 0.0);
                                    if let Some(f) = factors {
                                        f.add_to(&[(r0 + l) as u32], fac, &mut fsum);
                                    }
                                    clamp_row(&mut e_part[range.clone()], &fsum, limit);
                                }
                                g_part[range].iter_mut().for_each(|x| *x = 0.0);
                                t_part[l] = false;
                            }
                        });
                    }
                });
            }
            // Phase 3: the dense groups.
            dense_sum.clear();
            for w in &workers {
                dense_sum.add(&w.grads);
            }
            let dense_grads = [
                &dense_sum.b0,
                &dense_sum.w2,
                &dense_sum.b2,
                &dense_sum.w3,
                &dense_sum.b3,
            ];
            let groups = state.params.groups_mut();
            for (gi, grad) in dense_grads.iter().enumerate() {
                let k = gi + 1;
                adam(
                    &mut groups[k][..],
                    &mut state.m[k],
                    &mut state.v[k],
                    grad,
                    lr_t,
                    1.0,
                );
            }
            if nf > 0 {
                let (first, rest) = workers.split_first_mut().expect("one worker at least");
                for w in rest.iter() {
                    first
                        .fgrad
                        .iter_mut()
                        .zip(&w.fgrad)
                        .for_each(|(a, b)| *a += *b);
                }
                let [f, fm, fv] = &mut state.fac;
                adam(f, fm, fv, &first.fgrad, lr_t, 1.0);
            }
            if last_report.elapsed().as_secs_f64() > 60.0 {
                let done = (bi + 1) * cfg.batch;
                log::info!(
                    "  epoch {epoch}: {done}/{} samples, train MAE so far {:.4}, {:.0} samples/s",
                    order.len(),
                    sum_abs / done as f64,
                    done as f64 / t0.elapsed().as_secs_f64()
                );
                last_report = Instant::now();
            }
        }
        // The weight decay every row owes up to this step.
        if cfg.wd != 0.0 {
            let f = (1.0 - lr * cfg.wd) as f32;
            for (r, d) in decayed_to.iter_mut().enumerate() {
                if *d != state.step {
                    let k = f.powi((state.step - *d) as i32);
                    state.params.emb[r * h..(r + 1) * h]
                        .iter_mut()
                        .for_each(|w| *w *= k);
                    *d = state.step;
                }
            }
        }
        let train_time = t0.elapsed().as_secs_f64();
        let samples = order.len() as f64;
        // What the network file holds: the rows with the factors folded in.
        let folded = factors.as_ref().map(|f| {
            let mut folded = f.fold(&state.params, &state.fac[0]);
            folded.base = state.params.base;
            folded
        });
        let mut written = folded.unwrap_or_else(|| state.params.clone());
        if let Some(limit) = clip {
            let zero = vec![0f32; h];
            let mut moved = 0usize;
            for row in written.emb.chunks_exact_mut(h) {
                moved += clamp_row(row, &zero, limit);
            }
            log_line(
                &log,
                &format!(
                    "# epoch {epoch}: {moved} embedding weights clamped to ±{limit} as written"
                ),
            );
        }
        let written = &written;
        let (val_mae, val_mse, bands) = validate(written, &ds.valid, threads);
        let val_sibling = if ds.valid_pairs.is_empty() {
            String::new()
        } else {
            format!(
                " val_sibling_mae {:.4}",
                sibling_mae(written, &ds.valid, &ds.valid_pairs)
            )
        };
        state.elapsed += t0.elapsed().as_secs_f64();
        state.epoch = epoch;
        let improved = val_mae < state.best_mae;
        if improved {
            state.best_mae = val_mae;
            state.best_epoch = epoch;
            state.bad_epochs = 0;
        } else {
            state.bad_epochs += 1;
        }
        if state.bad_epochs >= cfg.patience {
            state.finished = true;
        }
        let weights = ckpt_dir.join(format!("epoch-{epoch:03}.nnue"));
        save_weights(written, &weights).map_err(|e| format!("{}: {e}", weights.display()))?;
        if improved {
            let best = cfg.dir.join("best.nnue");
            save_weights(written, &best).map_err(|e| format!("{}: {e}", best.display()))?;
        }
        write_atomic(&last, &state.to_bytes(&fingerprint))
            .map_err(|e| format!("{}: {e}", last.display()))?;
        log_line(
            &log,
            &format!(
                "epoch {epoch} train_mse {:.4} train_mae {:.4} val_mae {val_mae:.4} val_rmse {:.4} bands {:.3} {:.3} {:.3} {:.3}{val_sibling} lr {lr:.3e} samples/s {:.0} elapsed {:.0}{}",
                sum_sq / samples,
                sum_abs / samples,
                val_mse.sqrt(),
                bands[0],
                bands[1],
                bands[2],
                bands[3],
                samples / train_time,
                state.elapsed,
                if improved { " *best" } else { "" }
            ),
        );
    }
    log_line(
        &log,
        &format!(
            "# stopped after epoch {} ({}); best epoch {} val MAE {:.4}: {}",
            state.epoch,
            if state.finished {
                "no improvement for --patience epochs"
            } else {
                "--epochs reached"
            },
            state.best_epoch,
            state.best_mae,
            cfg.dir.join("best.nnue").display()
        ),
    );
    Ok(())
}

#[cfg(test)]
mod tests;
