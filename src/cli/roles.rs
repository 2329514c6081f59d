//! The table of every subcommand's files: what it reads and what it writes, explicit (the
//! arguments) and implicit (the names database beside a WTHOR file, the `.mpc` model beside
//! a weight file, a book's journal). [`run`](super::run) checks it by the one rule of
//! [`othello::files::check_files`] before any command starts: no output is one of the
//! command's inputs or other outputs under any name, and every output can be written.
//!
//! The match below has no catch-all arm, so a new subcommand does not compile until its row
//! is written; `tests/file_roles.rs` runs the binary over every row with outputs that alias
//! inputs by every spelling.

use std::path::{Path, PathBuf};

use othello::arena::OpeningSource;
use othello::book::BookChoice;
use othello::files::FileUse;
use othello::gamedb::{self, Format};
use othello::players::PlayerSpec;
use othello::weights::EvalChoice;

use super::book::BookCommand;
use super::games::{GamesCommand, GamesInput};
use super::{Cli, Command};

/// The files of one command line, in the order found.
#[derive(Default)]
struct Table {
    uses: Vec<FileUse>,
}

impl Table {
    fn input(&mut self, path: &Path, what: impl Into<String>) {
        self.uses.push(FileUse::input(path, what));
    }

    fn output(&mut self, path: &Path, what: impl Into<String>) {
        self.uses.push(FileUse::output(path, what));
    }

    fn update(&mut self, path: &Path, what: impl Into<String>) {
        self.uses.push(FileUse::update(path, what));
    }

    /// A weight file and the Multi-ProbCut model read beside it.
    fn weights(&mut self, path: &Path, what: &str) {
        self.input(path, what);
        let model = path.with_extension("mpc");
        if model.exists() {
            self.input(&model, format!("the model beside {}", path.display()));
        }
    }

    fn eval(&mut self, choice: &EvalChoice, what: &str) {
        if let EvalChoice::File(path) = choice {
            self.weights(path, what);
        }
    }

    fn player(&mut self, spec: &PlayerSpec, what: &str) {
        if let PlayerSpec::Engine(settings) = spec {
            self.eval(&settings.eval, what);
            if let BookChoice::File(path) = &settings.book {
                self.book_read(path, what);
            }
        }
    }

    /// A book file read, with the journal replayed onto it.
    fn book_read(&mut self, path: &Path, what: &str) {
        self.input(path, what);
        self.input(
            &othello::book::file::journal_path(path),
            format!("the journal of {}", path.display()),
        );
    }

    /// A book file updated in place, with its journal.
    fn book_update(&mut self, path: &Path, what: &str) {
        self.update(path, what);
        self.update(
            &othello::book::file::journal_path(path),
            format!("the journal of {}", path.display()),
        );
    }

    /// Game files or directories (expanded as the readers expand them), with the WTHOR names
    /// each `.wtb` is read with.
    fn games(&mut self, files: &[PathBuf], input: Option<&GamesInput>, what: &str) {
        let format = input.and_then(|i| i.from);
        if let Some(players) = input.and_then(|i| i.players.as_deref()) {
            self.input(players, "--players");
        }
        if let Some(tournaments) = input.and_then(|i| i.tournaments.as_deref()) {
            self.input(tournaments, "--tournaments");
        }
        let expanded = gamedb::expand_paths(files).unwrap_or_else(|_| files.to_vec());
        for path in &expanded {
            self.input(path, what);
            if format.unwrap_or_else(|| Format::from_path(path)) != Format::Wtb {
                continue;
            }
            let (players, tournaments) = gamedb::wthor::names_beside(path);
            let beside = |name: &str| format!("{name}, the names beside {}", path.display());
            if input.and_then(|i| i.players.as_ref()).is_none() {
                if let Some(p) = players {
                    self.input(&p, beside("WTHOR.JOU"));
                }
            }
            if input.and_then(|i| i.tournaments.as_ref()).is_none() {
                if let Some(t) = tournaments {
                    self.input(&t, beside("WTHOR.TRN"));
                }
            }
        }
    }

    fn openings(&mut self, openings: &Option<OpeningSource>) {
        if let Some(OpeningSource::List(list)) = openings {
            self.input(list.path(), "--openings");
        }
    }
}

/// Every file the command line reads or writes.
pub fn file_uses(cli: &Cli) -> Vec<FileUse> {
    let mut t = Table::default();
    if let Some(choice) = &cli.eval_file {
        t.eval(choice, "--eval-file");
    }
    let Some(command) = &cli.command else {
        return t.uses; // the NBoard engine with the default book
    };
    match command {
        Command::Nboard(args) => {
            if let BookChoice::File(path) = &args.book {
                t.book_update(path, "--book");
            }
        }
        Command::Gtp(args) => {
            if let BookChoice::File(path) = &args.book {
                t.book_read(path, "--book");
            }
        }
        Command::Perft(_)
        | Command::Search(_)
        | Command::Bench(_)
        | Command::FakeEngine(_)
        | Command::Serve(_)
        | Command::Completions { .. } => {}
        Command::Solve(args) => {
            if let Some(file) = args.file.as_deref().filter(|f| f.as_os_str() != "-") {
                t.input(file, "the positions");
            }
        }
        Command::Quality(args) => t.input(&args.file, "the positions"),
        Command::Label(args) => {
            t.games(&args.files, Some(&args.input), "a game file");
            t.update(&args.out, "--out");
        }
        Command::Selfplay(args) => {
            if let Some(data) = &args.openings_of {
                t.input(data, "--openings-of");
                t.output(&args.out, "--out");
            } else {
                t.update(&args.out, "--out");
            }
        }
        Command::Calibrate(args) => {
            let default = if args.endgame {
                "data/end-samples.txt"
            } else {
                "data/mpc-samples.txt"
            };
            let samples = args
                .samples
                .clone()
                .unwrap_or_else(|| PathBuf::from(default));
            t.games(&args.games, None, "--games");
            if let Some(base) = &args.base {
                t.input(base, "--base");
            }
            t.update(&samples, "--samples");
            t.output(&args.out, "--out");
        }
        Command::EvalError(args) => {
            for data in &args.data {
                t.input(data, "the data");
            }
            for choice in &args.evals {
                t.eval(choice, "--eval");
            }
        }
        Command::Train(args) => {
            for data in &args.data {
                t.input(data, "the training data");
            }
            if let Some(prior) = args.prior.as_deref().filter(|p| p.as_os_str() != "default") {
                t.weights(prior, "--prior");
            }
            t.output(&args.out, "--out");
        }
        Command::Centre(args) => {
            t.weights(&args.weights, "the weights");
            t.output(&args.out, "--out");
            let model = args.weights.with_extension("mpc");
            if model.exists() {
                t.output(
                    &args.out.with_extension("mpc"),
                    format!("the model beside {}", args.out.display()),
                );
            }
        }
        Command::Match(args) => {
            t.player(&args.a, "player A's");
            t.player(&args.b, "player B's");
            t.openings(&args.series.openings);
            if let Some(ggf) = &args.series.ggf {
                t.output(ggf, "--ggf");
            }
            if let Some(json) = &args.audit_json {
                t.output(json, "--audit-json");
            }
        }
        Command::Tournament(args) => {
            for spec in &args.players {
                t.player(spec, "a player's");
            }
            t.openings(&args.series.openings);
            if let Some(ggf) = &args.series.ggf {
                t.output(ggf, "--ggf");
            }
        }
        Command::Play(args) => {
            t.player(&args.opponent, "the opponent's");
            if let Some(file) = &args.file {
                t.games(std::slice::from_ref(file), None, "--file");
            }
            if let Some(ggf) = &args.ggf {
                t.output(ggf, "--ggf");
            }
        }
        Command::Games { command } => match command {
            GamesCommand::Stats { files, input } => t.games(files, Some(input), "a game file"),
            GamesCommand::Convert {
                files, out, input, ..
            }
            | GamesCommand::Export {
                files, out, input, ..
            } => {
                t.games(files, Some(input), "a game file");
                t.output(out, "--out");
            }
        },
        Command::Book { command } => match command {
            BookCommand::Build {
                files, out, input, ..
            } => {
                t.games(files, Some(input), "a game file");
                t.book_update(out, "--out");
            }
            BookCommand::Evaluate { book, .. }
            | BookCommand::Deepen { book, .. }
            | BookCommand::Deviate { book, .. } => t.book_update(book, "the book"),
            BookCommand::Merge { books, out } => {
                for book in books {
                    t.book_read(book, "a book");
                }
                t.output(out, "--out");
            }
            BookCommand::Stats { book } | BookCommand::Show { book, .. } => {
                if book != "default" {
                    t.book_read(Path::new(book), "the book");
                }
            }
            BookCommand::Export { book, out, .. } => {
                if book != "default" {
                    t.book_read(Path::new(book), "the book");
                }
                t.output(out, "--out");
            }
            BookCommand::Import { input, out } => {
                t.input(input, "the book");
                t.output(out, "--out");
            }
        },
        Command::Review(args) => {
            let input = GamesInput {
                from: args.from,
                players: None,
                tournaments: None,
            };
            t.games(
                std::slice::from_ref(&args.file),
                Some(&input),
                "the game file",
            );
            if let BookChoice::File(book) = &args.book {
                t.book_read(book, "--book");
            }
            if let Some(html) = &args.html {
                t.output(html, "--html");
            }
        }
        Command::Audit(args) => {
            let input = GamesInput {
                from: args.from,
                players: None,
                tournaments: None,
            };
            t.games(&args.files, Some(&input), "a game file");
            if let Some(json) = &args.json {
                t.output(json, "--json");
            }
        }
    }
    t.uses
}

/// Checks the command line's files by the one rule, before any work.
pub fn check(cli: &Cli) -> super::CliResult {
    othello::files::check_files(&file_uses(cli))?;
    Ok(())
}
