//! The engine's help to the person in `othello play`: `hint` (the move the engine would play,
//! through the [`Engine`] facade's own choice: the book, a forced move, or a search), `analyse`
//! (every legal move's value, as `othello review` judges) and the review offered after the game.
//! Both engines start on first use.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use othello::board::Position;
use othello::discs::CentiDiscs;
use othello::engine::{Engine, EngineOptions, Source};
use othello::eval::EngineEval;
use othello::game::Game;
use othello::gamedb::GameRecord;
use othello::review::{self, ReviewOptions};
use othello::search::{Searcher, Value};

use super::human::{read_typed_line, TypedLine};

/// The table of each helper engine, MiB.
const HELPER_HASH_MB: usize = 16;

/// How the helpers think.
#[derive(Clone, Debug)]
pub struct AssistOptions {
    /// The time of a hint's search.
    pub hint_time: Option<Duration>,
    /// The depth of a hint's search.
    pub hint_depth: Option<u32>,
    /// The evaluator of both helpers.
    pub eval: EngineEval,
    /// How `analyse` and the review search.
    pub analysis: ReviewOptions,
}

/// The helpers: the hint engine and the analysis searcher, started when first asked.
pub struct Assistant {
    options: AssistOptions,
    hinter: Option<Engine>,
    analyst: Option<Searcher<EngineEval>>,
}

impl Assistant {
    /// Helpers that think as `options` say.
    pub fn new(options: AssistOptions) -> Assistant {
        Assistant {
            options,
            hinter: None,
            analyst: None,
        }
    }

    /// The analysis searcher.
    fn analyst(&mut self) -> &mut Searcher<EngineEval> {
        let eval = &self.options.eval;
        self.analyst
            .get_or_insert_with(|| Searcher::new(eval.clone(), HELPER_HASH_MB))
    }

    /// `hint`: the engine's move for the side to move of `game`, with its value and where it
    /// comes from (the book also names its next best moves).
    pub fn hint(&mut self, game: &Game, out: &mut impl Write) -> io::Result<()> {
        if self.hinter.is_none() {
            let options = EngineOptions {
                hash_mb: HELPER_HASH_MB,
                eval: self.options.eval.clone(),
                ..EngineOptions::default()
            };
            match Engine::new(options) {
                Ok(engine) => self.hinter = Some(engine),
                Err(e) => return writeln!(out, "  hint: the engine cannot start: {e}"),
            }
        }
        let Some(engine) = self.hinter.as_mut() else {
            return Ok(());
        };
        engine.set_game(game.clone());
        engine.set_depth(self.options.hint_depth);
        let decision = match engine.choose(None, self.options.hint_time, &mut ()) {
            Ok(d) => d,
            Err(e) => return writeln!(out, "  hint: {e}"),
        };
        let (mv, value) = (decision.mv, decision.eval.unwrap_or(0.0));
        match decision.source {
            Source::Pass => writeln!(out, "  hint: you must pass"),
            Source::Book => {
                let others: Vec<String> = engine
                    .book_moves()
                    .iter()
                    .filter(|m| m.mv != mv)
                    .take(3)
                    .map(|m| format!("{} {:+.2}", m.mv, CentiDiscs::from(m.value)))
                    .collect();
                let also = match others.is_empty() {
                    true => String::new(),
                    false => format!("; also {}", others.join(", ")),
                };
                writeln!(out, "  hint: {mv} ({value:+.2} discs, opening book{also})")
            }
            Source::Forced => writeln!(out, "  hint: {mv} ({value:+.2} discs, your only move)"),
            Source::Search => {
                let depth = decision.search.map_or(0, |r| r.depth);
                writeln!(out, "  hint: {mv} ({value:+.2} discs, depth {depth})")
            }
        }
    }

    /// `analyse`: every legal move of `pos` with its value, best first.
    pub fn analyse(&mut self, pos: &Position, out: &mut impl Write) -> io::Result<()> {
        let options = self.options.analysis.clone();
        let values = review::analyse_position(self.analyst(), &pos.board, &options);
        if values.is_empty() {
            return writeln!(out, "  analyse: you must pass");
        }
        writeln!(out, "  analysis ({options}), your view:")?;
        for m in values {
            let judged = match m.value {
                _ if m.from_book => format!("opening book (depth {})", m.depth),
                Value::Heuristic(_) => format!("depth {}", m.depth + 1),
                _ => "exact".to_string(),
            };
            writeln!(
                out,
                "    {}  {:>7}  {judged}",
                m.square,
                review::value_text(m.value)
            )?;
        }
        Ok(())
    }

    /// After the game: asks whether to review it and, on `review`, prints the review table.
    pub fn offer_review(
        &mut self,
        input: &mut impl BufRead,
        out: &mut impl Write,
        game: &Game,
    ) -> io::Result<()> {
        let options = self.options.analysis.clone();
        write!(
            out,
            "Type review to review the game ({options}), or press Enter > "
        )?;
        out.flush()?;
        let line = match read_typed_line(input)? {
            TypedLine::Text(line) => line,
            TypedLine::End | TypedLine::Bad(_) => return writeln!(out),
        };
        if !line.trim().eq_ignore_ascii_case("review") {
            return writeln!(out);
        }
        let record = match GameRecord::from_game(game) {
            Ok(record) => record,
            Err(e) => return writeln!(out, "  cannot review this game: {e}"),
        };
        writeln!(out, "Reviewing {} moves...", record.moves.len())?;
        match review::review_game(&record, self.analyst(), &options, &mut |_| {}) {
            Ok(r) => {
                writeln!(out)?;
                review::text::write_report(&r, out)
            }
            Err(e) => writeln!(out, "  cannot review this game: {e}"),
        }
    }
}
