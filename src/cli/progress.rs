//! The command line's [`Progress`]: an indicatif bar on stderr when it is a terminal, or a
//! plain line at every percent when it is not (a job run with `nohup`), for the library's long
//! jobs.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use othello::progress::{Progress, Reporter};

/// Progress on stderr.
pub struct Bar {
    bar: ProgressBar,
    /// Plain lines instead of the bar (stderr is not a terminal).
    plain: bool,
    state: Mutex<State>,
}

struct State {
    total: u64,
    done: u64,
    unit: String,
    start: Instant,
}

/// A rate for the bar, with about three significant digits: `2.04/s`, `20.4/s`, `204/s`
/// (indicatif's own `{per_sec}` shows `2.0377/s`).
pub fn rate_text(per_sec: f64) -> String {
    match per_sec {
        r if !r.is_finite() => "-/s".to_string(),
        r if r >= 100.0 => format!("{r:.0}/s"),
        r if r >= 10.0 => format!("{r:.1}/s"),
        r => format!("{r:.2}/s"),
    }
}

impl Bar {
    /// A reporter to stderr if `show`, else a silent one. `lines`: when stderr is not a
    /// terminal, a plain line at every percent (else nothing there).
    pub fn reporter(show: bool, lines: bool) -> Reporter {
        if !show {
            return Reporter::silent();
        }
        let terminal = std::io::stderr().is_terminal();
        if !terminal && !lines {
            return Reporter::silent();
        }
        let bar = if terminal {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} {prefix}  {msg}  ({rate}, eta {eta})",
            )
            .expect("valid template")
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&rate_text(state.per_sec()));
                },
            )
            .progress_chars("=> "),
        );
        Reporter::new(Bar {
            bar,
            plain: !terminal,
            state: Mutex::new(State {
                total: 0,
                done: 0,
                unit: String::new(),
                start: Instant::now(),
            }),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Progress for Bar {
    fn start(&self, total: u64, unit: &str) {
        let mut s = self.state();
        (s.total, s.done, s.unit, s.start) = (total, 0, unit.to_string(), Instant::now());
        self.bar.set_length(total);
        self.bar.set_position(0);
        self.bar.set_prefix(unit.to_string());
    }

    fn step(&self, status: &str) {
        let mut s = self.state();
        s.done += 1;
        self.bar.inc(1);
        if !status.is_empty() {
            self.bar.set_message(status.to_string());
        }
        let percent = |n: u64| n * 100 / s.total.max(1);
        if self.plain && percent(s.done) != percent(s.done - 1) {
            let status = if status.is_empty() {
                String::new()
            } else {
                format!(", {status}")
            };
            eprintln!(
                "progress: {}/{} {}{status}, {:.0} s",
                s.done,
                s.total,
                s.unit,
                s.start.elapsed().as_secs_f64()
            );
        }
    }

    fn status(&self, status: &str) {
        self.bar.set_message(status.to_string());
    }

    fn note(&self, line: &str) {
        if self.plain {
            eprintln!("{line}");
        } else {
            self.bar.suspend(|| eprintln!("{line}"));
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::rate_text;

    #[test]
    fn rates_have_about_three_digits() {
        assert_eq!(rate_text(2.0377), "2.04/s");
        assert_eq!(rate_text(20.377), "20.4/s");
        assert_eq!(rate_text(2037.7), "2038/s");
        assert_eq!(rate_text(0.0), "0.00/s");
        assert_eq!(rate_text(f64::INFINITY), "-/s");
    }
}
