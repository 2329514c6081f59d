//! The page and the runner driven as `web/static.js` drives them, natively.

use super::*;

/// One action of [`Page::handle`].
fn actions(text: &str) -> Vec<serde_json::Value> {
    serde_json::from_str::<Vec<serde_json::Value>>(text).expect("a JSON array")
}

fn replies(actions: &[serde_json::Value]) -> Vec<&serde_json::Value> {
    actions.iter().filter_map(|a| a.get("reply")).collect()
}

fn started(actions: &[serde_json::Value]) -> Option<(f64, String)> {
    actions.iter().find_map(|a| {
        let job = a.get("start")?;
        Some((job["id"].as_f64()?, job.to_string()))
    })
}

/// Runs every job the actions start, as the page's driver does, until none is left: returns
/// the replies the page would have drawn.
fn drive(
    page: &mut Page,
    runner: &mut Runner,
    first: Vec<serde_json::Value>,
) -> Vec<serde_json::Value> {
    let mut shown: Vec<serde_json::Value> = replies(&first).into_iter().cloned().collect();
    let mut pending = first;
    while let Some((id, job)) = started(&pending) {
        let mut lines = Vec::new();
        let outcome = runner.run_with(&job, &mut |line| lines.push(line));
        for line in lines {
            if page.line(id, &line) {
                shown.push(serde_json::from_str(&line).unwrap());
            }
        }
        pending = actions(&page.finish(id, &outcome));
        shown.extend(replies(&pending).into_iter().cloned());
    }
    shown
}

fn last_state(shown: &[serde_json::Value]) -> &serde_json::Value {
    shown
        .iter()
        .rev()
        .find(|r| r["type"] == "state")
        .expect("a state reply")
}

#[test]
fn the_engine_plays_a_move_through_the_page_and_the_runner() {
    let mut page = Page::new();
    let mut runner = Runner::native().unwrap();
    let first = actions(&page.handle(r#"{"type":"setup","kind":"moves","text":"f5d6"}"#));
    assert_eq!(
        last_state(&replies(&first).into_iter().cloned().collect::<Vec<_>>())["ply"],
        2
    );
    let go = actions(&page.handle(r#"{"type":"go","level":3}"#));
    let shown = drive(&mut page, &mut runner, go);
    assert!(shown.iter().any(|r| r["type"] == "started"));
    assert!(shown
        .iter()
        .any(|r| r["type"] == "done" && r["stopped"] == false));
    let state = last_state(&shown);
    assert_eq!(state["ply"], 3, "{state}");
    // The engine's move is one of the position's legal moves (the state after f5 d6 lists them).
    let after: Vec<&str> = state["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(&after[..2], ["f5", "d6"]);
    // The session refused nothing: the engine's move was legal (an illegal one is an error).
    assert!(!shown.iter().any(|r| r["type"] == "error"), "{shown:?}");
}

#[test]
fn hints_value_every_legal_move_exactly_in_the_endgame() {
    // FFO #1 (14 empties) with every move's exact score.
    let obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; \
               G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";
    let (board, scores) = obf.split_once(';').unwrap();
    let mut page = Page::new();
    let mut runner = Runner::native().unwrap();
    let setup = format!(r#"{{"type":"setup","kind":"board","text":"{board}"}}"#);
    let out = actions(&page.handle(&setup));
    assert_eq!(replies(&out).last().unwrap()["type"], "state", "{out:?}");
    let hints = actions(&page.handle(r#"{"type":"hints","depth":14}"#));
    let shown = drive(&mut page, &mut runner, hints);
    let mut last = std::collections::BTreeMap::new();
    for r in shown.iter().filter(|r| r["type"] == "line") {
        last.insert(r["move"].as_str().unwrap().to_uppercase(), r.clone());
    }
    let mut expected = 0;
    for item in scores.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let (mv, score) = item.split_once(':').unwrap();
        let score: f64 = score.parse().unwrap();
        let line = &last[mv];
        assert_eq!(line["kind"], "exact", "{line}");
        assert_eq!(line["value"].as_f64().unwrap(), score, "{mv}: {line}");
        expected += 1;
    }
    assert_eq!(
        last.len(),
        expected,
        "a line for every legal move and no other"
    );
}

#[test]
fn a_job_cut_off_ends_as_a_stop_ends_it() {
    let mut page = Page::new();
    let _ = page.handle(r#"{"type":"setup","kind":"moves","text":"f5d6c3"}"#);
    let go = actions(&page.handle(r#"{"type":"go","level":10}"#));
    let (id, _) = started(&go).expect("a job");
    // Two iterations arrive, then the page asks for a stop.
    let line = |mv: &str, value: f64| {
        format!(
            r#"{{"type":"line","job":{id},"move":"{mv}","value":{value},"kind":"heuristic","depth":2,"selectivity":100,"pv":"{mv}","nodes":5}}"#
        )
    };
    assert!(page.line(id, &line("c5", 0.5)));
    assert!(page.line(id, &line("d3", 0.25)));
    let stop = actions(&page.handle(r#"{"type":"stop"}"#));
    assert_eq!(
        stop.iter()
            .find_map(|a| a.get("stop"))
            .and_then(|s| s.as_f64()),
        Some(id)
    );
    let after = actions(&page.stopped(id));
    let shown: Vec<serde_json::Value> = replies(&after).into_iter().cloned().collect();
    assert!(shown
        .iter()
        .any(|r| r["type"] == "done" && r["stopped"] == true));
    let state = last_state(&shown);
    assert_eq!(
        state["last"], "d3",
        "the last line's move is played: {state}"
    );
    // Lines of a job that is no longer running are not passed on.
    assert!(!page.line(id, &line("d3", 0.5)));
}

#[test]
fn a_change_of_position_drops_the_job_and_starts_the_waiting_one() {
    let mut page = Page::new();
    let go = actions(&page.handle(r#"{"type":"hints","depth":20}"#));
    let (id, _) = started(&go).expect("a job");
    let undo = actions(&page.handle(r#"{"type":"play","move":"f5"}"#));
    assert_eq!(
        undo.iter()
            .find_map(|a| a.get("stop"))
            .and_then(|s| s.as_f64()),
        Some(id)
    );
    // A new job asked for now waits for the cut-off one.
    let hints = actions(&page.handle(r#"{"type":"hints","depth":2}"#));
    assert!(started(&hints).is_none());
    let after = actions(&page.stopped(id));
    let (next, _) = started(&after).expect("the waiting job starts");
    assert_ne!(next, id);
    // An outcome for the dropped job that comes late is ignored.
    assert_eq!(
        page.finish(id, r#"{"outcome":"hinted","value":null}"#),
        "[]"
    );
}

#[test]
fn bad_input_gets_an_error_and_changes_nothing() {
    let mut page = Page::new();
    let before = page.handle(r#"{"type":"state"}"#);
    for bad in [
        "",
        "{",
        r#"{"type":"play","move":"a1"}"#,
        r#"{"type":"go","level":99}"#,
    ] {
        let out = actions(&page.handle(bad));
        assert_eq!(replies(&out)[0]["type"], "error", "{bad}");
    }
    assert_eq!(page.handle(r#"{"type":"state"}"#), before);
    let mut runner = Runner::native().unwrap();
    let outcome = runner.run_with("not json", &mut |_| {});
    assert!(outcome.contains("failed"), "{outcome}");
    // A damaged outcome from the worker fails the job with a reason.
    let go = actions(&page.handle(r#"{"type":"go","level":1}"#));
    let (id, _) = started(&go).unwrap();
    let out = actions(&page.finish(id, "{"));
    let shown = replies(&out);
    assert!(shown.iter().any(|r| r["type"] == "error"
        && r["message"]
            .as_str()
            .unwrap()
            .contains("the worker's outcome")));
}
