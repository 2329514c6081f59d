//! Fuzz target: bytes as the text of a Multi-ProbCut model (`NAME.mpc` beside a weight file;
//! `MpcModel::parse`, which `--eval-file` and `set eval` run on it).
//!
//! Checks: the parser never panics on any text; an accepted model prints (`Display`) to text
//! that parses back to a model printing identically.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::search::probcut::model::MpcModel;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(model) = MpcModel::parse(&text) {
        let printed = model.to_string();
        let again = MpcModel::parse(&printed).expect("a printed model parses");
        assert_eq!(again.to_string(), printed, "printing is not stable");
    }
});
