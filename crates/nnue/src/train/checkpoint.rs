//! The trainer's checkpoint: the weights, the optimiser's moments and the run's progress, in
//! one file (`OthNnCk1`: the settings' fingerprint, counters, every `f32` little-endian, an
//! FNV-1a checksum), written after every epoch so that the same command resumes the run. A
//! checkpoint made with other settings, truncated or damaged is refused with the reason.

use crate::file::fnv1a64;
use crate::net::{Arch, Params};

/// Everything a checkpoint holds.
pub(super) struct State {
    pub(super) params: Params<f32>,
    pub(super) m: Vec<Vec<f32>>,
    pub(super) v: Vec<Vec<f32>>,
    pub(super) step: u64,
    pub(super) epoch: usize,
    pub(super) best_mae: f64,
    pub(super) best_epoch: usize,
    pub(super) bad_epochs: usize,
    pub(super) finished: bool,
    pub(super) elapsed: f64,
    /// The factor vectors and their Adam moments (empty without `--factor`).
    pub(super) fac: [Vec<f32>; 3],
}

const CKPT_MAGIC: &[u8; 8] = b"OthNnCk1";

impl State {
    pub(super) fn new(arch: Arch, seed: u64, factors: usize) -> State {
        let params = Params::init(arch, seed);
        let fac = std::array::from_fn(|_| vec![0f32; factors * arch.hidden]);
        let zeros: Vec<Vec<f32>> = arch.group_sizes().iter().map(|&n| vec![0.0; n]).collect();
        State {
            params,
            m: zeros.clone(),
            v: zeros,
            step: 0,
            epoch: 0,
            best_mae: f64::INFINITY,
            best_epoch: 0,
            bad_epochs: 0,
            finished: false,
            elapsed: 0.0,
            fac,
        }
    }

    pub(super) fn to_bytes(&self, fingerprint: &str) -> Vec<u8> {
        let n = self.params.arch.param_count();
        let mut out = Vec::with_capacity(128 + fingerprint.len() + 12 * n);
        out.extend_from_slice(CKPT_MAGIC);
        out.extend_from_slice(&(fingerprint.len() as u32).to_le_bytes());
        out.extend_from_slice(fingerprint.as_bytes());
        out.extend_from_slice(&self.step.to_le_bytes());
        out.extend_from_slice(&(self.epoch as u32).to_le_bytes());
        out.extend_from_slice(&self.best_mae.to_le_bytes());
        out.extend_from_slice(&(self.best_epoch as u32).to_le_bytes());
        out.extend_from_slice(&(self.bad_epochs as u32).to_le_bytes());
        out.push(self.finished as u8);
        out.extend_from_slice(&self.elapsed.to_le_bytes());
        for g in self.params.groups() {
            for w in g {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for g in self.m.iter().chain(&self.v).chain(&self.fac) {
            for w in g {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        let sum = fnv1a64(&out, 0..0);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    pub(super) fn from_bytes(
        bytes: &[u8],
        arch: Arch,
        factors: usize,
        fingerprint: &str,
    ) -> Result<State, String> {
        let n = arch.param_count() + factors * arch.hidden;
        if bytes.len() < 8 + 4 || &bytes[0..8] != CKPT_MAGIC {
            return Err("not a trainer checkpoint (bad magic)".into());
        }
        let flen = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
        if bytes.len() < 12 + flen {
            return Err("truncated checkpoint".into());
        }
        let theirs = String::from_utf8_lossy(&bytes[12..12 + flen]);
        if theirs != fingerprint {
            return Err(format!(
                "the checkpoint was made with other settings:\n  checkpoint: {theirs}\n  now:        {fingerprint}\n(use the same settings, or another --dir)"
            ));
        }
        let expected = 12 + flen + 8 + 4 + 8 + 4 + 4 + 1 + 8 + 12 * n + 8;
        if bytes.len() != expected {
            return Err(format!(
                "checkpoint is {} bytes, expected {expected} (different network or truncated)",
                bytes.len()
            ));
        }
        let body = &bytes[..bytes.len() - 8];
        let stored = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap());
        if fnv1a64(body, 0..0) != stored {
            return Err("corrupt checkpoint (checksum)".into());
        }
        let mut at = 12 + flen;
        let mut take = |k: usize| {
            let s = &bytes[at..at + k];
            at += k;
            s
        };
        let step = u64::from_le_bytes(take(8).try_into().unwrap());
        let epoch = u32::from_le_bytes(take(4).try_into().unwrap()) as usize;
        let best_mae = f64::from_le_bytes(take(8).try_into().unwrap());
        let best_epoch = u32::from_le_bytes(take(4).try_into().unwrap()) as usize;
        let bad_epochs = u32::from_le_bytes(take(4).try_into().unwrap()) as usize;
        let finished = take(1)[0] != 0;
        let elapsed = f64::from_le_bytes(take(8).try_into().unwrap());
        let mut s = State::new(arch, 0, factors);
        let read = |dst: &mut [f32], src: &[u8]| {
            for (w, c) in dst.iter_mut().zip(src.chunks_exact(4)) {
                *w = f32::from_le_bytes(c.try_into().unwrap());
            }
        };
        for g in s.params.groups_mut() {
            let len = g.len();
            read(g, take(4 * len));
        }
        for g in s.m.iter_mut().chain(s.v.iter_mut()).chain(s.fac.iter_mut()) {
            let len = g.len();
            read(g, take(4 * len));
        }
        s.step = step;
        s.epoch = epoch;
        s.best_mae = best_mae;
        s.best_epoch = best_epoch;
        s.bad_epochs = bad_epochs;
        s.finished = finished;
        s.elapsed = elapsed;
        Ok(s)
    }
}
