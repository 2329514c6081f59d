//! `nnue-average`: the weight-by-weight mean of networks, and the files it refuses to read or
//! write without touching any.

use std::path::{Path, PathBuf};

mod common;

use othello_nnue::file::{read_weights, weights_bytes};
use othello_nnue::{Arch, Params};

fn dir(name: &str) -> PathBuf {
    common::dir("nnue-average", name)
}

fn network(hidden: usize, seed: u64) -> Params<f32> {
    Params::init(Arch::new(hidden, 4, 2), seed)
}

fn average(args: &[&Path]) -> (bool, String) {
    common::run(env!("CARGO_BIN_EXE_nnue-average"), args)
}

#[test]
fn the_output_is_the_mean_of_every_weight() {
    let d = dir("mean");
    let nets = [network(4, 1), network(4, 2), network(4, 3)];
    let paths: Vec<PathBuf> = (0..3).map(|i| d.join(format!("n{i}.nnue"))).collect();
    for (net, path) in nets.iter().zip(&paths) {
        std::fs::write(path, weights_bytes(net)).unwrap();
    }
    let out = d.join("mean.nnue");
    let mut args: Vec<&Path> = vec![&out];
    args.extend(paths.iter().map(|p| p.as_path()));
    let (ok, err) = average(&args);
    assert!(ok, "{err}");
    let mean = read_weights(&std::fs::read(&out).unwrap()).unwrap().params;
    for (g, group) in mean.groups().iter().enumerate() {
        for (i, &w) in group.iter().enumerate() {
            let want = nets.iter().map(|n| n.groups()[g][i]).sum::<f32>() / 3.0;
            assert!(
                (w - want).abs() < 1e-6,
                "group {g} [{i}]: {w} against {want}"
            );
        }
    }
    // The inputs differ, so the mean is none of them.
    assert_ne!(mean.emb, nets[0].emb);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn bad_inputs_and_outputs_are_refused_and_no_file_is_touched() {
    let d = dir("bad");
    let (a, b, wide) = (d.join("a.nnue"), d.join("b.nnue"), d.join("wide.nnue"));
    std::fs::write(&a, weights_bytes(&network(4, 1))).unwrap();
    std::fs::write(&b, weights_bytes(&network(4, 2))).unwrap();
    std::fs::write(&wide, weights_bytes(&network(6, 3))).unwrap();
    // A network that corrects pattern weights (`nnue-train --base`) does not average with
    // one that does not.
    let based = d.join("based.nnue");
    let mut with_base = network(4, 4);
    with_base.base = 0x1234_5678;
    std::fs::write(&based, weights_bytes(&with_base)).unwrap();
    let (damaged, out) = (d.join("damaged.nnue"), d.join("out.nnue"));
    let mut bytes = std::fs::read(&a).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&damaged, &bytes).unwrap();
    let before: Vec<Vec<u8>> = [&a, &b, &wide, &damaged, &based]
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let cases: [(&[&Path], &str); 7] = [
        (&[&a, &a, &b], "input"),
        (&[&out, &a], "two networks"),
        (&[&out, &a, &wide], "dimensions"),
        (&[&out, &a, &based], "base 12345678"),
        (&[&out, &a, &damaged], "damaged.nnue"),
        (&[&out, &a, Path::new("/dev/zero")], "/dev/zero"),
        (&[&d.join("no/such/dir/out.nnue"), &a, &b], "out.nnue"),
    ];
    for (args, expected) in cases {
        let (ok, err) = average(args);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(!out.exists(), "{args:?} wrote the output");
    }
    let after: Vec<Vec<u8>> = [&a, &b, &wide, &damaged, &based]
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert_eq!(before, after, "an input changed");
    std::fs::remove_dir_all(&d).ok();
}
