//! Injected faults caught by the relations that should catch them.

#[allow(unused_imports)]
use super::*;
#[allow(unused_imports)]
use crate::{campaigns::*, chains::*, follow_ups::*, modern::*};

pub(crate) const LOOP: &str = "function run(n) {\n  var s = 0;\n  for (var i = 0; i < n; i++) {\n    s += i;\n    s += 1;\n  }\n  return s;\n}\nconsole.log(run(3));\n";

/// A chain whose initial session was judged: Node 20 sometimes aborts in its scope iterator
/// while a pause's scopes are read (README), which leaves the chain undecided after its
/// initial session; such a chain is recorded once more.
pub(crate) async fn chain_judged(
    engine: &mut Box<dyn Engine>,
    p: &Loaded,
    params: &ChainParams,
) -> Chain {
    let c = chain(engine, p, params).await;
    match c.sessions.first().and_then(|s| s.outcome.undecided()) {
        Some(why) => {
            eprintln!("initial session undecided ({why}): recording the chain again");
            engine.restart().await.unwrap();
            chain(engine, p, params).await
        }
        None => c,
    }
}

/// Runs a one-round chain on Node with and without the fault; returns both follow-ups.
pub(crate) async fn with_and_without(
    fault: Fault,
    text: &str,
    params: &ChainParams,
) -> (Session, Session) {
    let p = inline("fault.js", text);
    let mut clean = engine("node").await;
    let good = chain_judged(&mut clean, &p, params).await;
    clean.shutdown().await;
    let mut faulty = FaultyEngine::wrap(engine("node").await, fault);
    let bad = chain_judged(&mut faulty, &p, params).await;
    faulty.shutdown().await;
    let outcomes = |c: &Chain| {
        c.sessions
            .iter()
            .map(|s| s.outcome.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(good.sessions.len(), 2, "{:?}", outcomes(&good));
    assert_eq!(bad.sessions.len(), 2, "{:?}", outcomes(&bad));
    (good.sessions[1].clone(), bad.sessions[1].clone())
}

/// The warning's event is the first output of the follow-up that pauses at `line`.
pub(crate) fn assert_warned_at(s: &Session, relation: &str, line: u32) {
    assert_eq!(s.warnings.len(), 1, "{:?}", s.outcome);
    let w = &s.warnings[0];
    assert_eq!(w.relation, relation);
    assert_eq!(w.round, 1);
    let first = answered(&s.traces[0])
        .into_iter()
        .find(|(_, o, _)| pause_line(o) == Some(line))
        .map(|(_, _, i)| i);
    assert_eq!(w.event_index, first, "{w:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_pauses_are_caught_by_inserted_dead_code() {
    // Dead code before line 3 moves `s += 1` (line 4) to line 5, out of the faulty line.
    let actions = vec![bp(4), bp(6), Action::Start, Action::Resume, Action::Resume];
    let pin = Pin {
        line: Some(3),
        ..Pin::default()
    };
    let params = one(
        mm::Transformation::InsertDeadCode,
        actions.clone(),
        pin.clone(),
    );
    let (good, bad) = with_and_without(Fault::DropPausesAt { line: 4 }, LOOP, &params).await;
    assert!(good.warnings.is_empty(), "{:?}", good.warnings);
    assert_warned_at(&bad, "same-behaviour", 5);
    // The same fault under add-no-op (also a line shift).
    let params = one(mm::Transformation::AddNoOp, actions, pin);
    let (good, bad) = with_and_without(Fault::DropPausesAt { line: 4 }, LOOP, &params).await;
    assert!(good.warnings.is_empty(), "{:?}", good.warnings);
    assert_warned_at(&bad, "same-behaviour", 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_variable_is_caught_by_inserted_dead_code() {
    let actions = vec![bp(4), Action::Start, Action::Resume, Action::Resume];
    let pin = Pin {
        line: Some(3),
        ..Pin::default()
    };
    let params = one(mm::Transformation::InsertDeadCode, actions, pin);
    let fault = Fault::HideVariable {
        line: 4,
        name: "s".into(),
    };
    let (good, bad) = with_and_without(fault, LOOP, &params).await;
    assert!(good.warnings.is_empty(), "{:?}", good.warnings);
    assert_warned_at(&bad, "same-behaviour", 5);
    assert!(bad.warnings[0]
        .message
        .contains("s only on the second side"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_slide_is_caught_by_breakpoint_sliding() {
    let text = "function run(n) {\n  var s = 0;\n  // slides from here\n  s += n;\n  s += 1;\n  return s;\n}\nconsole.log(run(3));\n";
    let actions = vec![bp(2), Action::Start, Action::Resume, Action::Resume];
    let params = one(mm::Transformation::Sliding, actions, Pin::default());
    let (good, bad) = with_and_without(Fault::WrongSlide, text, &params).await;
    assert!(good.warnings.is_empty(), "{:?}", good.warnings);
    // Set directly where the debugger said it slid, the breakpoint pauses one line lower.
    assert_warned_at(&bad, "same-behaviour", 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skipped_iteration_is_caught_by_replacing_a_continue_with_step_into() {
    let mut actions = vec![bp(3), Action::Start];
    actions.extend(std::iter::repeat_n(Action::Resume, 5));
    // Parent: start (line 8), continue to line 3 (i = 0), continue to line 3 (i = 1), ...
    let pin = Pin {
        action: Some(3),
        step: Some(Action::StepInto),
        ..Pin::default()
    };
    let params = one(mm::Transformation::ContinueToStep, actions, pin);
    let (good, bad) = with_and_without(Fault::SkipIteration { line: 4 }, LOOP, &params).await;
    assert!(good.warnings.is_empty(), "{:?}", good.warnings);
    let w = &bad.warnings[0];
    assert_eq!(w.relation, "every-parent-pause-still-appears");
    // The continue that resynchronized paused one iteration late: that is the event named.
    let steps = answered(&bad.traces[0]);
    let resync = steps
        .iter()
        .position(|(a, _, _)| *a == Action::StepInto)
        .unwrap()
        + 1;
    assert_eq!(steps[resync].0, Action::Resume);
    assert_eq!(w.event_index, Some(steps[resync].2), "{w:?}");
    assert!(w.message.contains('i') || w.message.contains('s'), "{w:?}");
}

/// Pin of a modern relation: its anchor action and what it repeats as recorded.
pub(crate) fn anchored(action: usize, recorded: &[(&str, &str)]) -> Pin {
    Pin {
        action: Some(action),
        recorded: recorded
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Pin::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ignored_condition_is_caught_by_a_false_condition_and_by_one_over_a_local() {
    // A breakpoint with condition `false` on line 8 (the call of `run`, seen on the parent's
    // stacks), set before the start: it must not pause.
    let actions = vec![bp(4), Action::Start, Action::Resume, Action::Resume];
    let pin = Pin {
        line: Some(8),
        action: Some(1),
        ..Pin::default()
    };
    let params = one(mm::Transformation::ConditionFalse, actions, pin);
    let (good, bad) = with_and_without(Fault::IgnoreCondition, LOOP, &params).await;
    assert!(good.warnings.is_empty(), "{:?}", good.warnings);
    assert_warned_at(&bad, "a-false-condition-never-pauses", 8);

    // `i !== 1` on the loop's breakpoint: the parent's second pause there (i = 1) goes, and
    // the resume that left it.
    let mut actions = vec![bp(4), Action::Start];
    actions.extend(std::iter::repeat_n(Action::Resume, 3));
    let params = one(
        mm::Transformation::ConditionLocal,
        actions,
        anchored(0, &[("condition", "i !== 1")]),
    );
    let (good, bad) = with_and_without(Fault::IgnoreCondition, LOOP, &params).await;
    assert!(good.warnings.is_empty(), "{:?}", good.warnings);
    let record = good.transformations.last().unwrap();
    assert!(
        record
            .params
            .contains(&("expect.skipped-pauses".into(), "2".into())),
        "{:?}",
        record.params
    );
    let pauses_at_4 = |s: &Session| {
        answered(&s.traces[0])
            .iter()
            .filter(|(_, o, _)| pause_line(o) == Some(4))
            .count()
    };
    assert_eq!(pauses_at_4(&good), 2, "i = 0 and i = 2 only");
    let w = &bad.warnings[0];
    assert_eq!(
        w.relation,
        "a-condition-filters-the-pauses-by-recorded-values"
    );
    assert!(w.message.contains("i: 2 vs 1"), "{w:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_evaluation_is_caught_by_evaluating_a_local() {
    let actions = vec![bp(4), Action::Start, Action::Resume, Action::Resume];
    let params = one(
        mm::Transformation::EvaluateLocal,
        actions,
        anchored(2, &[("local", "s")]),
    );
    let (good, bad) = with_and_without(Fault::WrongEvaluation, LOOP, &params).await;
    assert!(good.warnings.is_empty(), "{:?}", good.warnings);
    // The evaluation was inserted after the parent's second pause (s = 1 + 1 at line 4).
    let evaluated = answered(&good.traces[0])
        .into_iter()
        .find(|(a, _, _)| matches!(a, Action::Evaluate { .. }))
        .unwrap();
    assert_eq!(
        evaluated.1,
        Output::Evaluated {
            value: morphtrace_schema::Value::Number(2.0),
            threw: false
        }
    );
    let w = &bad.warnings[0];
    assert_eq!(w.relation, "a-local-evaluates-to-its-value-in-the-scopes");
    let bad_evaluation = answered(&bad.traces[0])
        .into_iter()
        .find(|(a, _, _)| matches!(a, Action::Evaluate { .. }))
        .unwrap();
    assert_eq!(w.event_index, Some(bad_evaluation.2));
    assert!(w.message.contains("s gave 3"), "{w:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pausing_or_silent_logpoint_is_caught_by_a_logpoint_for_a_breakpoint() {
    // The loop's breakpoint becomes a logpoint of `s`: no pause there, and it logs s at each
    // iteration as the breakpoint's pauses showed it (0, 2, 5).
    let mut actions = vec![bp(4), bp(6), Action::Start];
    actions.extend(std::iter::repeat_n(Action::Resume, 4));
    let params = one(
        mm::Transformation::Logpoint,
        actions,
        anchored(0, &[("local", "s")]),
    );
    for (fault, said) in [
        // It pauses where the parent's breakpoint did, and the follow-up dropped that resume.
        (Fault::PausingLogpoint, "paused at 7:3 vs 5:5"),
        (
            Fault::SilentLogpoint,
            "the logpoint logged s as [] where the breakpoint's pauses showed [0, 2, 5]",
        ),
    ] {
        let (good, bad) = with_and_without(fault.clone(), LOOP, &params).await;
        assert!(good.warnings.is_empty(), "{:?}", good.warnings);
        let logged: Vec<&str> = good.traces[0]
            .logs
            .iter()
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(logged, ["0", "2", "5"]);
        assert_eq!(bad.warnings.len(), 1, "{fault:?}: {:?}", bad.outcome);
        let w = &bad.warnings[0];
        assert_eq!(
            w.relation,
            "a-logpoint-never-pauses-and-logs-what-the-breakpoint-showed"
        );
        assert!(w.message.contains(said), "{fault:?}: {}", w.message);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_that_does_not_take_is_caught_by_setting_the_variable_as_code() {
    // `s = 10` at the loop's first pause; the follow-up's program assigns it there instead,
    // on that pass only, and the pauses after it show what it leads to (11, 13, then 16).
    let mut actions = vec![bp(3), bp(6), Action::Start];
    actions.push(Action::SetVariable {
        name: "s".into(),
        value: "10".into(),
    });
    actions.extend(std::iter::repeat_n(Action::Resume, 4));
    let params = one(mm::Transformation::SetAsCode, actions, anchored(3, &[]));
    let (good, bad) = with_and_without(Fault::IgnoreSet, LOOP, &params).await;
    assert!(good.warnings.is_empty(), "{:?}", good.warnings);
    assert!(
        good.traces[0].console.iter().any(|l| l == "16"),
        "{:?}",
        good.traces[0].console
    );
    // No set in the follow-up: the program did it.
    assert!(!good.traces[0]
        .actions()
        .any(|a| matches!(a, Action::SetVariable { .. })));
    let s_at = |o: &Output| match o {
        Output::Paused(p) => morphtrace_judges::dbdb::visible_variables(p.top_scopes())
            .get("s")
            .map(|v| v.to_string()),
        _ => None,
    };
    let seen: Vec<Option<String>> = answered(&good.traces[0])
        .iter()
        .filter(|(_, o, _)| pause_line(o) == Some(4))
        .map(|(_, o, _)| s_at(o))
        .collect();
    assert_eq!(
        seen,
        [Some("10".into()), Some("11".into()), Some("13".into())]
    );
    // The faulty parent went on with s = 0: its second pause shows 1, the follow-up's 11.
    assert_eq!(bad.warnings.len(), 1, "{:?}", bad.outcome);
    let w = &bad.warnings[0];
    assert_eq!(
        w.relation,
        "a-set-variable-is-the-assignment-in-the-program-from-there-on"
    );
    let second = answered(&bad.traces[0])
        .into_iter()
        .filter(|(_, o, _)| pause_line(o) == Some(4))
        .nth(1)
        .map(|(_, _, i)| i);
    assert_eq!(w.event_index, second, "{w:?}");
}
