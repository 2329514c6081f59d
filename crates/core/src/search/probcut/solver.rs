//! The solver's side of endgame ProbCut ([`crate::search::probcut`]): the cut tried at the
//! null-window nodes of a selective pass, with the shallow midgame search it runs.

use std::sync::LazyLock;

use crate::board::Board;
use crate::cpu::{with_cpu, Cpu, CpuPath};
use crate::eval::Evaluator;
use crate::search::context::Context;
use crate::search::midgame::Midgame;
use crate::search::probcut::endgame::{EndgameModel, Selectivity};
use crate::search::probcut::model::MpcModel;
use crate::search::tt::TranspositionTable;
use crate::search::{aspiration, Stopper, PRESEARCH_GAP, PRESEARCH_MIN_EMPTIES};
use crate::square::Square;

use crate::search::endgame::Solver;

/// The Multi-ProbCut level of the shallow searches of endgame ProbCut when the solver has the
/// searcher's models (`Solver::set_models`). A full-width shallow search of depth 8 to 12 at
/// every cut tried was most of a pass's cost. Selective at 73%, the passes took 21% fewer
/// nodes and a third less time at 24 empties (the 73% pass on 30 positions of `exact-24.obf`:
/// 21 right against 20) and 23% less time at 20 (hard-20 #1-#100: 73 right either way); at a
/// 1 s game clock the mean loss per move fell from 0.44-0.46 to 0.26 discs on the odd lines of
/// the transition benchmark, and from 0.51-0.54 to 0.41-0.42 on hard-20. Shallow searches at
/// 87% gained less (0.32 and 0.50); exact solves are unchanged (FFO #40-#49: 2% more nodes,
/// 3% less time).
pub const SHALLOW_SELECTIVITY: Selectivity = Selectivity::P73;

/// The endgame model of the embedded evaluator's Multi-ProbCut file, for solvers that are
/// given none.
pub(in crate::search) fn default_model() -> &'static EndgameModel {
    static MODEL: LazyLock<EndgameModel> = LazyLock::new(|| MpcModel::default().endgame().clone());
    &MODEL
}

impl<E: Evaluator, C: Cpu> Solver<'_, '_, E, C> {
    /// ProbCut at a null-window node of a selective pass: `Some(bound)` when a shallow search
    /// predicts, with `sel.t()` sigmas to spare, that the value is above `alpha` (returns
    /// `alpha + 1`) or at most `alpha` (returns `alpha`).
    ///
    /// The prediction is the model's ([`EndgameModel::cut`]): `exact ≈ a·v + b ± sigma` from
    /// the value `v` of a shallow search, all in centi-discs. Each side is tried only when the
    /// static evaluation, put through the same prediction, already leans that way, which saves
    /// most of the shallow searches that could not succeed.
    #[inline(always)]
    pub(in crate::search) fn probcut(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        n: u32,
        sel: Selectivity,
    ) -> Option<i32> {
        let (&cut, margin) = self.end_model.cut_and_margin(n, sel)?;
        let beta = alpha + 1;
        let static_value = self.cx.evaluate::<C>(p, o);
        let predicted = cut.a * static_value as f32 + cut.b;
        if predicted >= (beta * 100) as f32 {
            if let Some(high) = cut.high_bound(beta * 100, margin) {
                if self.shallow_search(p, o, high - 1, cut.shallow) >= high {
                    return Some(beta);
                }
            }
        }
        if predicted <= (alpha * 100) as f32 {
            if let Some(low) = cut.low_bound(alpha * 100, margin) {
                if self.shallow_search(p, o, low, cut.shallow) <= low {
                    return Some(alpha);
                }
            }
        }
        None
    }

    /// A null-window midgame search (`alpha`, `alpha + 1`) in centi-discs, sharing this
    /// solver's table, stop condition and node count; selective (Multi-ProbCut at
    /// [`SHALLOW_SELECTIVITY`]) when the solver has the searcher's models.
    fn shallow_search(&mut self, p: u64, o: u64, alpha: i32, depth: u32) -> i32 {
        let shallow_mpc = self.shallow_mpc;
        self.cx.nested(|cx| {
            let mut search = Midgame::<E, C>::nested(cx);
            if let Some(model) = shallow_mpc {
                search.set_selectivity(model, Some(SHALLOW_SELECTIVITY));
            }
            search.pvs_node(p, o, alpha, alpha + 1, depth, false)
        })
    }
}

/// One selective pass of [`selective_passes`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassOutcome {
    /// The pass's level.
    pub selectivity: Selectivity,
    /// Its value, discs (a probable score, not an exact one).
    pub value: i32,
    /// Its best move (`None` if the side to move has none).
    pub best: Option<Square>,
    /// Nodes of this pass alone.
    pub nodes: u64,
}

/// The selective passes an exact solve of `board` runs, at each of `levels` in turn, with
/// `model` (its endgame lines predict, its midgame lines make the shallow searches selective,
/// as in the searcher's solves), one thread and the table `tt` (cleared first): the presearch a solve makes
/// (midgame iterations to `empties - PRESEARCH_GAP`, from [`PRESEARCH_MIN_EMPTIES`]
/// empties), then each pass by MTD(f) from the value before, as `solve_sequence` runs them.
/// Returns the presearch's nodes and each pass. For measurements of the endgame model (the
/// solver runs the levels of `probcut::schedule` and then the exact pass).
pub fn selective_passes<E: Evaluator>(
    eval: &E,
    model: &MpcModel,
    tt: &mut TranspositionTable,
    board: &Board,
    levels: &[Selectivity],
) -> (u64, Vec<PassOutcome>) {
    tt.clear();
    let (p, o) = (board.player(), board.opponent());
    let empties = board.empty_count();
    let mut stopper = Stopper::unlimited();
    let mut presearch = 0;
    let mut out = Vec::new();
    with_cpu!(CpuPath::current(), C => {
        let mut guess = None;
        if empties >= PRESEARCH_MIN_EMPTIES {
            for depth in 1..=empties - PRESEARCH_GAP {
                let mut cx = Context::new(eval, tt, &mut stopper);
                let mut search = Midgame::<E, C>::on_cpu(&mut cx, 0);
                guess = Some(aspiration(&mut search, p, o, depth, guess, 0).0);
                presearch += search.nodes();
            }
        }
        let mut guess = guess.map(|g| (g + 100 * g.signum()) / 200 * 2).unwrap_or(0);
        for &sel in levels {
            let mut cx = Context::new(eval, tt, &mut stopper);
            let mut solver = Solver::<E, C>::on_cpu(&mut cx, 0);
            solver.set_models(model);
            solver.set_selectivity(Some(sel));
            let (value, best) = solver.solve_root_mtd(p, o, guess, 0);
            out.push(PassOutcome {
                selectivity: sel,
                value,
                best,
                nodes: solver.nodes(),
            });
            guess = value;
        }
    });
    (presearch, out)
}
