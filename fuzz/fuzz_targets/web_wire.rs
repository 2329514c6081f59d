//! Fuzz target: arbitrary bytes as the JSON that crosses between the static page's session and
//! its Web Worker (`othello::web::wire`, crates/web): as a job and as an outcome.
//!
//! Checks: no panic; a job that parses and is accepted crosses the wire again unchanged (its
//! positions, task and number); an outcome that parses converts or is refused with a reason.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::web::wire::{JobWire, OutcomeWire};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(wire) = serde_json::from_str::<JobWire>(text) {
        if let Ok(job) = wire.to_job() {
            let again = JobWire::from_job(&job).to_job().expect("a job's own wire form");
            assert_eq!(again.id, job.id);
            assert_eq!(again.task, job.task);
            assert_eq!(again.game.positions(), job.game.positions());
        }
    }
    if let Ok(wire) = serde_json::from_str::<OutcomeWire>(text) {
        if let Err(reason) = wire.to_outcome() {
            assert!(!reason.is_empty());
        }
    }
});
