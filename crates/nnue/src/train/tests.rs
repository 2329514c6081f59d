//! Tests of the training loop: the row ranges of the sparse update and the checkpoint
//! format, then whole runs (files, resumption, shapes left out) on a small data file.
use super::*;
use crate::net::Params;

#[test]
fn row_ranges_cover_the_rows_by_whole_shapes() {
    let arch = Arch::new(4, 2, 1);
    for threads in 1..=4 {
        let r = row_ranges(&arch, threads);
        assert_eq!(r.len(), threads);
        assert_eq!(r[0].0, 0);
        assert_eq!(r[0].2, 0);
        assert_eq!(r[threads - 1].1, arch.rows);
        assert_eq!(r[threads - 1].3, INSTANCE_COUNT);
        for w in r.windows(2) {
            assert_eq!(w[0].1, w[1].0);
            assert_eq!(w[0].3, w[1].2);
        }
    }
    assert_eq!(row_ranges(&arch, 2)[0].3, 28);
}

#[test]
fn checkpoint_round_trip() {
    let arch = Arch::new(2, 2, 2);
    let mut s = State::new(arch, 5, 3);
    s.step = 42;
    s.epoch = 3;
    s.best_mae = 3.5;
    s.m[2][1] = 0.25;
    let bytes = s.to_bytes("fp");
    let back = State::from_bytes(&bytes, arch, 3, "fp").unwrap();
    assert_eq!(back.params, s.params);
    assert_eq!(back.m, s.m);
    assert_eq!((back.step, back.epoch, back.best_mae), (42, 3, 3.5));
    assert!(State::from_bytes(&bytes, arch, 3, "other").is_err());
    let mut bad = bytes.clone();
    bad[100] ^= 1;
    assert!(State::from_bytes(&bad, arch, 3, "fp").is_err());
}

/// The sibling term: one backward pass per member of a pair, each with [`sibling_target`] and
/// the other member's output held fixed, sums to the gradient of the pair's whole loss
/// `(y_a − t_a)² + (y_b − t_b)² + λ ((y_a − t_a) − (y_b − t_b))²`, checked against central
/// finite differences of that loss on a tiny network in f64.
#[test]
fn sibling_gradients_match_finite_differences_of_the_pair_loss() {
    let arch = Arch::new(5, 4, 3);
    let mut p: Params<f64> = Params::init(arch, 9);
    p.emb.iter_mut().for_each(|w| *w *= 3.0);
    let start = othello_core::Board::start();
    let parent = start.play("f5".parse().unwrap());
    let kids: Vec<_> = parent.legal_moves().map(|sq| parent.play(sq)).collect();
    let (a, b) = (
        Input::of(kids[0].player(), kids[0].opponent(), arch.buckets),
        Input::of(kids[1].player(), kids[1].opponent(), arch.buckets),
    );
    let (ta, tb) = (1.5, -2.25);
    let lambda = 2.0;
    let pair_loss = |q: &Params<f64>| {
        let mut s = Scratch::new(&arch);
        let ea = q.forward(&a, &mut s) - ta;
        let eb = q.forward(&b, &mut s) - tb;
        ea * ea + eb * eb + lambda * (ea - eb) * (ea - eb)
    };
    let mut s = Scratch::new(&arch);
    let (ya, yb) = (p.forward(&a, &mut s), p.forward(&b, &mut s));
    let mut grads = DenseGrads::zeros(&arch);
    let mut d_acc = vec![0.0; arch.hidden];
    let mut emb = vec![0.0; arch.rows * arch.hidden];
    for (input, t, other) in [(&a, ta, yb - tb), (&b, tb, ya - ta)] {
        let (target, scale) = sibling_target(t, other, lambda);
        p.forward_backward(input, target, scale, &mut s, &mut grads, &mut d_acc);
        for &r in &input.rows {
            for j in 0..arch.hidden {
                emb[r as usize * arch.hidden + j] += d_acc[j];
            }
        }
    }
    let mut checked = 0;
    let groups: [(usize, Vec<f64>); 3] = [(0, emb), (2, grads.w2.clone()), (5, grads.b3.clone())];
    for (g, analytic) in groups {
        for (i, &an) in analytic.iter().enumerate() {
            if g == 0 && an == 0.0 && i % 97 != 0 {
                continue;
            }
            let eps = 1e-6;
            let mut q = p.clone();
            q.groups_mut()[g][i] += eps;
            let plus = pair_loss(&q);
            q.groups_mut()[g][i] -= 2.0 * eps;
            let numeric = (plus - pair_loss(&q)) / (2.0 * eps);
            let tol = 1e-6 + 1e-4 * numeric.abs().max(an.abs());
            assert!(
                (numeric - an).abs() <= tol,
                "group {g}[{i}]: {an} against {numeric}"
            );
            checked += usize::from(an.abs() > 1e-9);
        }
    }
    assert!(checked > 50, "{checked} non-zero gradients checked");
    // With λ = 0 the target and scale are the plain squared error's.
    assert_eq!(sibling_target(1.5, 4.0, 0.0), (1.5, 1.0));
}

/// Whole runs on a small data file.
mod run {
    use super::*;
    use othello_train::learn::data::{header_bytes, LabelKind, Record};

    fn write_data(path: &Path, games: u32) {
        let mut bytes = header_bytes(7).to_vec();
        let mut rng = othello_core::rng::SplitMix64::new(3);
        for game in 0..games {
            let boards: Vec<_> =
                othello_core::rng::random_playout(othello_core::Board::start(), &mut rng).collect();
            for (k, b) in boards.iter().enumerate() {
                let r = Record {
                    board: *b,
                    side: othello_core::Color::Black,
                    game,
                    label: (b.disc_difference() * 100) as i16,
                    kind: LabelKind::Search,
                    last: k + 1 == boards.len(),
                };
                bytes.extend_from_slice(&r.to_bytes());
            }
        }
        std::fs::write(path, bytes).unwrap();
    }

    /// A one-epoch run of a tiny network on 300 games written under a fresh directory
    /// (returned, to be removed): its settings.
    fn small_run(tag: &str) -> (PathBuf, Config) {
        let root = std::env::temp_dir().join(format!("othello-nnue-{tag}-{}", std::process::id()));
        let data = root.join("data");
        std::fs::create_dir_all(&data).unwrap();
        write_data(&data.join("g.dat"), 300);
        let cfg = Config {
            data: data.clone(),
            dir: root.join("out"),
            hidden: 8,
            l2: 4,
            buckets: 2,
            batch: 256,
            lr: 3e-3,
            decay: 0.9,
            epochs: 1,
            patience: 5,
            valid: 0.1,
            fraction: 1.0,
            wd: 0.01,
            min_empties: 0,
            epoch_samples: 0,
            seed: 1,
            threads: 2,
            dropped: Vec::new(),
            factor: false,
            dedupe: false,
            clip: false,
            base: None,
            sibling: 0.0,
            init: None,
            outcome: 0.0,
        };
        (root, cfg)
    }

    /// Two epochs, then a resume to a third, with weight decay: the files appear, the resumed
    /// run continues where the first stopped, and other settings are refused.
    #[test]
    fn trains_checkpoints_and_resumes() {
        let (root, mut cfg) = small_run("run");
        cfg.epochs = 2;
        run(&cfg).unwrap();
        assert!(cfg.dir.join("best.nnue").exists());
        assert!(cfg.dir.join("ckpt/epoch-002.nnue").exists());
        crate::load_weights(&cfg.dir.join("ckpt/epoch-002.nnue")).unwrap();
        cfg.epochs = 3;
        run(&cfg).unwrap();
        let log = std::fs::read_to_string(cfg.dir.join("train.log")).unwrap();
        assert!(log.contains("# resumed from"), "{log}");
        assert!(log.lines().any(|l| l.starts_with("epoch 3 ")), "{log}");
        // Other settings are refused.
        cfg.hidden = 6;
        assert!(run(&cfg).unwrap_err().contains("other settings"));
        std::fs::remove_dir_all(&root).ok();
    }

    /// A run started from a network (`--init`): with a negligible learning rate its first
    /// epoch writes the same weights back (to rounding), and its validation MAE is the
    /// network's own; a network of other dimensions is refused by name.
    #[test]
    fn a_run_can_start_from_a_network() {
        let (root, cfg) = small_run("init");
        run(&cfg).unwrap();
        let trained = cfg.dir.join("best.nnue");
        let before = crate::load_weights(&trained).unwrap();
        let mut again = cfg.clone();
        again.dir = root.join("again");
        again.init = Some(trained.clone());
        again.lr = 1e-12;
        again.wd = 0.0;
        run(&again).unwrap();
        let after = crate::load_weights(&again.dir.join("best.nnue")).unwrap();
        for (a, b) in before.params.groups().iter().zip(after.params.groups()) {
            assert_eq!(a.len(), b.len());
            for (x, y) in a.iter().zip(b.iter()) {
                assert!((x - y).abs() < 1e-6, "{x} against {y}");
            }
        }
        let log = std::fs::read_to_string(again.dir.join("train.log")).unwrap();
        assert!(log.contains("# weights from"), "{log}");
        // The same validation error as the network's own first run.
        let mae = |log: &str| {
            log.lines()
                .find(|l| l.starts_with("epoch 1 "))
                .and_then(|l| l.split(" val_mae ").nth(1))
                .and_then(|r| r.split(' ').next())
                .map(str::to_owned)
                .unwrap()
        };
        let first = std::fs::read_to_string(cfg.dir.join("train.log")).unwrap();
        assert_eq!(mae(&log), mae(&first));
        let mut wide = cfg.clone();
        wide.dir = root.join("wide");
        wide.hidden = 16;
        wide.init = Some(trained);
        let err = run(&wide).unwrap_err();
        assert!(err.contains("--init") && err.contains("H 8"), "{err}");
        // What is not a regular network file is refused by name, before any data is read.
        for bad in ["/dev/zero", "Cargo.toml", "/nonexistent.nnue"] {
            let mut other = cfg.clone();
            other.dir = root.join("bad-init");
            other.init = Some(PathBuf::from(bad));
            let err = run(&other).unwrap_err();
            assert!(err.contains("--init") && err.contains(bad), "{err}");
        }
        std::fs::remove_dir_all(&root).ok();
    }

    /// A factorised run: it learns, resumes with its factors, and is refused without them.
    /// Its written network is the folded one: a validation position evaluates as in the log.
    #[test]
    fn factorised_runs_train_and_resume() {
        let (root, mut cfg) = small_run("factor");
        cfg.factor = true;
        cfg.epochs = 2;
        run(&cfg).unwrap();
        let e2 = crate::load_weights(&cfg.dir.join("ckpt/epoch-002.nnue")).unwrap();
        cfg.epochs = 3;
        run(&cfg).unwrap();
        let log = std::fs::read_to_string(cfg.dir.join("train.log")).unwrap();
        assert!(
            log.contains("# resumed from") && log.contains(" factor"),
            "{log}"
        );
        let mae = |line: &str| -> f64 {
            let v: Vec<&str> = line.split_whitespace().collect();
            let at = v.iter().position(|&w| w == "val_mae").unwrap();
            v[at + 1].parse().unwrap()
        };
        let epochs: Vec<f64> = log
            .lines()
            .filter(|l| l.starts_with("epoch "))
            .map(mae)
            .collect();
        assert_eq!(epochs.len(), 3, "{log}");
        assert!(epochs[2] < 8.0, "no learning: {epochs:?}");
        // The resumed epoch continued from epoch 2's state (its network differs from it).
        let e3 = crate::load_weights(&cfg.dir.join("ckpt/epoch-003.nnue")).unwrap();
        assert_ne!(e2.params.emb, e3.params.emb);
        cfg.factor = false;
        assert!(run(&cfg).unwrap_err().contains("other settings"));
        std::fs::remove_dir_all(&root).ok();
    }

    /// With a learning rate that drives the factorised embedding past the `i8` range, a run
    /// with `clip` writes every network within it (so it quantises, as `nnue-pack` needs), and
    /// the same run without `clip` does not; both learn.
    #[test]
    fn clipped_runs_stay_within_the_engine_range() {
        let limit = embedding_limit();
        let mut beyond = [0usize; 2];
        for (k, clip) in [false, true].into_iter().enumerate() {
            let (root, mut cfg) = small_run(if clip { "clip-on" } else { "clip-off" });
            cfg.factor = true;
            cfg.clip = clip;
            cfg.lr = 0.05;
            cfg.wd = 0.0;
            cfg.epochs = 2;
            run(&cfg).unwrap();
            for epoch in 1..=2 {
                let path = cfg.dir.join(format!("ckpt/epoch-{epoch:03}.nnue"));
                let net = crate::load_weights(&path).unwrap();
                beyond[k] += net.params.emb.iter().filter(|w| w.abs() > limit).count();
                assert!(net.params.emb.iter().any(|&w| w != 0.0));
            }
            let log = std::fs::read_to_string(cfg.dir.join("train.log")).unwrap();
            assert_eq!(log.contains(" clip"), clip, "{log}");
            std::fs::remove_dir_all(&root).ok();
        }
        assert!(
            beyond[0] > 0,
            "the unclipped run never left the range: no test"
        );
        assert_eq!(
            beyond[1], 0,
            "the clipped run wrote weights beyond ±{limit}"
        );
    }

    /// A row is clamped so that its sum with the factors' lies in the range.
    #[test]
    fn clamp_row_bounds_the_folded_weight() {
        let mut row = [0.875f32, -0.875, 0.125, 0.25];
        let shift = [0.0f32, 0.25, 0.625, -0.5];
        assert_eq!(clamp_row(&mut row, &shift, 0.5), 3);
        assert_eq!(row, [0.5, -0.75, -0.125, 0.25]);
    }

    /// Dropped shapes' rows stay exactly zero through training, the others learn.
    #[test]
    fn dropped_shapes_keep_zero_rows() {
        let (root, mut cfg) = small_run("drop");
        cfg.dropped = vec![2, 11];
        run(&cfg).unwrap();
        let net = crate::load_weights(&cfg.dir.join("best.nnue")).unwrap();
        let h = cfg.hidden;
        for shape in 0..PATTERNS.len() {
            let r0 = features::shape_row_offset(shape);
            let r1 = if shape + 1 < PATTERNS.len() {
                features::shape_row_offset(shape + 1)
            } else {
                features::row_count()
            };
            let rows = &net.params.emb[r0 * h..r1 * h];
            let zero = rows.iter().all(|&w| w == 0.0);
            assert_eq!(zero, cfg.dropped.contains(&shape), "shape {shape}");
        }
        std::fs::remove_dir_all(&root).ok();
    }

    /// A run with a base: the labels become residuals over the pattern weights (checked
    /// position by position), the log gives the base's validation MAE, every written network
    /// names the base by its id, and the engine reads it as a correction of its embedded
    /// weights: the validation MAE in the log is that of the sum.
    #[test]
    fn a_run_with_a_base_learns_the_residual_and_names_its_base() {
        let (root, mut cfg) = small_run("base");
        let base_file = root.join("base.bin");
        std::fs::write(&base_file, othello_core::eval::builtin::DEFAULT_WEIGHTS).unwrap();
        // The residuals, position by position.
        let files = data::data_files(&cfg.data).unwrap();
        let load = || {
            let (valid, fraction) = (cfg.valid, cfg.fraction);
            data::load(
                &files,
                valid,
                fraction,
                cfg.min_empties,
                cfg.dedupe,
                false,
                0.0,
            )
            .unwrap()
        };
        let plain = load();
        let mut ds = load();
        let base = othello_core::eval::builtin::default_pattern();
        let mae = data::subtract_base(&mut ds, &base);
        let mut sum = 0.0;
        for (a, b) in plain.valid.iter().zip(&ds.valid) {
            let board = othello_core::Board::from_bits_unchecked(a.player, a.opponent);
            assert_eq!(
                b.label as i32,
                a.label as i32 - othello_core::eval::Evaluator::evaluate(&*base, &board)
            );
            sum += (b.label as f64 / 100.0).abs();
        }
        assert!((mae - sum / ds.valid.len() as f64).abs() < 1e-9);
        assert_eq!(plain.train.len(), ds.train.len());
        cfg.base = Some(base_file);
        run(&cfg).unwrap();
        let log = std::fs::read_to_string(cfg.dir.join("train.log")).unwrap();
        assert!(
            log.contains(&format!("its validation MAE {mae:.4}")),
            "{log}"
        );
        let id = othello_core::eval::nnue::file::builtin_base_id();
        let bytes = std::fs::read(cfg.dir.join("best.nnue")).unwrap();
        assert_eq!(crate::read_weights(&bytes).unwrap().params.base, id);
        let engine = othello_core::eval::nnue::NnueEval::from_bytes(&bytes).unwrap();
        assert!(engine.has_base());
        // A base that is not a pattern weight file, or not a regular file, is refused by name.
        for bad in ["/dev/zero", "Cargo.toml"] {
            let mut other = cfg.clone();
            other.base = Some(PathBuf::from(bad));
            other.dir = root.join("bad-base");
            let err = run(&other).unwrap_err();
            assert!(err.contains("--base") && err.contains(bad), "{err}");
        }
        // Without the base the same settings are other settings.
        cfg.base = None;
        assert!(run(&cfg).unwrap_err().contains("other settings"));
        std::fs::remove_dir_all(&root).ok();
    }
}
