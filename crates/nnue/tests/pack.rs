//! `nnue-pack`: packs a network so that it evaluates as the source does, and refuses what it
//! must not read or write without touching any file.

use std::path::{Path, PathBuf};

mod common;

use othello_core::eval::nnue::{FloatNet, NnueEval};
use othello_core::eval::pattern::geometry::geometry;
use othello_core::eval::Evaluator;

fn dir(name: &str) -> PathBuf {
    common::dir("nnue-pack", name)
}

/// A small valid `f32` network file.
fn network_bytes() -> Vec<u8> {
    let rows = geometry().compact_patterns_len;
    let (hidden, l2, buckets) = (8, 8, 2);
    let small = |i: usize, scale: f32| ((i * 7919) % 201) as f32 / 200.0 * scale - scale / 2.0;
    FloatNet {
        hidden,
        l2,
        buckets,
        emb: (0..rows * hidden).map(|i| small(i, 0.2)).collect(),
        b0: vec![0.4; hidden],
        w2: (0..buckets * l2 * (hidden + 2))
            .map(|i| small(i, 1.0))
            .collect(),
        b2: vec![0.1; buckets * l2],
        w3: (0..buckets * l2).map(|i| small(i, 4.0)).collect(),
        b3: vec![0.5; buckets],
        base: 0,
    }
    .to_bytes()
}

fn pack(args: &[&Path]) -> (bool, String) {
    common::run(env!("CARGO_BIN_EXE_nnue-pack"), args)
}

#[test]
fn a_packed_network_evaluates_as_its_source() {
    let d = dir("ok");
    let (input, output) = (d.join("net.nnue"), d.join("packed.nnue"));
    std::fs::write(&input, network_bytes()).unwrap();
    let (ok, err) = pack(&[&input, &output]);
    assert!(ok, "{err}");
    let source = NnueEval::from_bytes(&std::fs::read(&input).unwrap()).unwrap();
    let packed_bytes = std::fs::read(&output).unwrap();
    assert_eq!(u16::from_le_bytes([packed_bytes[8], packed_bytes[9]]), 2);
    let packed = NnueEval::from_bytes(&packed_bytes).unwrap();
    let mut rng = othello_core::rng::SplitMix64::new(3);
    for b in othello_core::rng::random_playout(othello_core::Board::start(), &mut rng) {
        assert_eq!(packed.evaluate(&b), source.evaluate(&b), "{b:?}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn bad_inputs_and_outputs_are_refused_and_no_file_is_touched() {
    let d = dir("bad");
    let input = d.join("net.nnue");
    let bytes = network_bytes();
    std::fs::write(&input, &bytes).unwrap();
    // The input as the output, directly and through a link.
    let (ok, err) = pack(&[&input, &input]);
    assert!(!ok && err.contains("destroy the input"), "{err}");
    #[cfg(unix)]
    {
        let link = d.join("link.nnue");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        let (ok, err) = pack(&[&input, &link]);
        assert!(!ok && err.contains("destroy the input"), "{err}");
    }
    assert_eq!(std::fs::read(&input).unwrap(), bytes);
    // A missing input, a damaged one, a device: named, and no output written.
    let output = d.join("out.nnue");
    let missing = d.join("missing.nnue");
    let (ok, err) = pack(&[&missing, &output]);
    assert!(!ok && err.contains("missing.nnue"), "{err}");
    let damaged = d.join("damaged.nnue");
    let mut b = bytes.clone();
    let last = b.len() - 1;
    b[last] ^= 1;
    std::fs::write(&damaged, &b).unwrap();
    let (ok, err) = pack(&[&damaged, &output]);
    assert!(!ok && err.contains("checksum"), "{err}");
    #[cfg(unix)]
    {
        let (ok, err) = pack(&[Path::new("/dev/zero"), &output]);
        assert!(!ok && err.contains("/dev/zero"), "{err}");
    }
    assert!(!output.exists());
    // An output in a directory that does not exist.
    let (ok, err) = pack(&[&input, &d.join("no/such/dir/out.nnue")]);
    assert!(!ok && err.contains("out.nnue"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}
