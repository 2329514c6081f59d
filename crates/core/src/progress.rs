//! Progress of the long jobs (match and tournament series, labelling and self-play, book
//! building), reported through an observer as searches report through
//! [`crate::search::Observer`]: the library never draws on the terminal. The command line's
//! implementation shows a bar on a terminal, or plain lines in a log.

use std::fmt;
use std::sync::Arc;

/// Receives the progress of a long job; every method does nothing unless implemented. Called
/// from the job's thread that collects results (once per finished unit, never in a search).
pub trait Progress: Send + Sync {
    /// A job of `total` steps, counted in `unit` (e.g. `"games"`), starts.
    fn start(&self, total: u64, unit: &str) {
        let _ = (total, unit);
    }
    /// One more step is done; `status` sums up the job so far (it may be empty).
    fn step(&self, status: &str) {
        let _ = status;
    }
    /// The summary changes without a step (the score after a pair of games).
    fn status(&self, status: &str) {
        let _ = status;
    }
    /// A line worth showing on its own (a phase of the job that starts).
    fn note(&self, line: &str) {
        let _ = line;
    }
    /// The job is over.
    fn finish(&self) {}
}

/// A handle to a [`Progress`] observer, or to none ([`Reporter::silent`], the default):
/// cheap to clone, so that job settings can carry it.
#[derive(Clone, Default)]
pub struct Reporter(Option<Arc<dyn Progress>>);

impl Reporter {
    /// Reports to `progress`.
    pub fn new(progress: impl Progress + 'static) -> Reporter {
        Reporter(Some(Arc::new(progress)))
    }

    /// Reports to nobody.
    pub fn silent() -> Reporter {
        Reporter(None)
    }

    /// Whether nobody listens (callers skip building status texts then).
    pub fn is_silent(&self) -> bool {
        self.0.is_none()
    }

    /// See [`Progress::start`].
    pub fn start(&self, total: u64, unit: &str) {
        if let Some(p) = &self.0 {
            p.start(total, unit);
        }
    }

    /// See [`Progress::step`].
    pub fn step(&self, status: &str) {
        if let Some(p) = &self.0 {
            p.step(status);
        }
    }

    /// See [`Progress::status`].
    pub fn status(&self, status: &str) {
        if let Some(p) = &self.0 {
            p.status(status);
        }
    }

    /// See [`Progress::note`].
    pub fn note(&self, line: &str) {
        if let Some(p) = &self.0 {
            p.note(line);
        }
    }

    /// See [`Progress::finish`].
    pub fn finish(&self) {
        if let Some(p) = &self.0 {
            p.finish();
        }
    }
}

impl fmt::Debug for Reporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_silent() {
            "Reporter(silent)"
        } else {
            "Reporter(..)"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Record(Mutex<Vec<String>>);

    impl Progress for Arc<Record> {
        fn start(&self, total: u64, unit: &str) {
            self.0.lock().unwrap().push(format!("start {total} {unit}"));
        }
        fn step(&self, status: &str) {
            self.0.lock().unwrap().push(format!("step {status}"));
        }
        fn finish(&self) {
            self.0.lock().unwrap().push("finish".into());
        }
    }

    #[test]
    fn a_reporter_passes_everything_on_and_a_silent_one_nothing() {
        let record = Arc::new(Record::default());
        let reporter = Reporter::new(record.clone());
        let copy = reporter.clone();
        reporter.start(2, "games");
        copy.step("1 positions");
        copy.note("a default method: ignored");
        reporter.finish();
        assert_eq!(
            *record.0.lock().unwrap(),
            ["start 2 games", "step 1 positions", "finish"]
        );
        let silent = Reporter::default();
        assert!(silent.is_silent() && !reporter.is_silent());
        silent.step("nothing");
        assert_eq!(format!("{silent:?}"), "Reporter(silent)");
    }
}
