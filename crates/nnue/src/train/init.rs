//! The starting weights of a fine-tuning run (`nnue-train --init`): a network file read into
//! the trainer's parameters.

use std::path::Path;

use crate::net::{Arch, Params};

/// The weights of the network file `path` (either version) as the trainer's parameters, for
/// `--init`: its dimensions must be `arch`'s, and it may not be a correction of a base.
pub(super) fn init_params(path: &Path, arch: Arch) -> Result<Params<f32>, String> {
    let bytes =
        othello_engine::files::read(path, othello_core::eval::nnue::file::MAX_FILE_LEN as u64)
            .map_err(|e| format!("--init {}: {e}", path.display()))?;
    let net = othello_core::eval::nnue::FloatNet::from_bytes(&bytes)
        .map_err(|e| format!("--init {}: {e}", path.display()))?;
    if (net.hidden, net.l2, net.buckets) != (arch.hidden, arch.l2, arch.buckets) {
        return Err(format!(
            "--init {}: H {} L2 {} buckets {}, the run's are {} {} {}",
            path.display(),
            net.hidden,
            net.l2,
            net.buckets,
            arch.hidden,
            arch.l2,
            arch.buckets
        ));
    }
    if net.base != 0 {
        return Err(format!(
            "--init {}: a correction of pattern weights cannot start a run",
            path.display()
        ));
    }
    let mut params = Params::zeros(arch);
    let sources = [&net.emb, &net.b0, &net.w2, &net.b2, &net.w3, &net.b3];
    for (g, src) in params.groups_mut().into_iter().zip(sources) {
        if g.len() != src.len() {
            return Err(format!(
                "--init {}: a layer of another size",
                path.display()
            ));
        }
        g.copy_from_slice(src);
    }
    Ok(params)
}
