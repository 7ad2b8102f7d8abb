//! Follow-ups that must ask for what their parent asked for and rejoin it where engines stop otherwise (JavaScriptCore's refused places, Firefox's pauses as frames pop, V8's one breakpoint per place).

#[allow(unused_imports)]
use super::*;
#[allow(unused_imports)]
use crate::{campaigns::*, chains::*, modern::*, planted::*};

/// JavaScriptCore gives a breakpoint that slides onto a place another one takes no location
/// (`findings/jsc-drops-a-second-breakpoint-at-an-occupied-location`). A follow-up whose
/// program has an assignment inserted at that place must not ask for it again: its request on
/// the function's line would slide onto the inserted line, a breakpoint the parent never had.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_breakpoint_the_parent_got_nowhere_is_not_asked_for_in_a_transformed_program() {
    const TAKEN: &str = "function f(i) {\n  var k = i * 2;\n  return k;\n}\nvar t = 0;\nfor (var j = 0; j < 3; j++) t += f(j);\nconsole.log(t);\n";
    let mut actions = vec![bp(1), bp(0), Action::Start];
    actions.push(Action::SetVariable {
        name: "k".into(),
        value: "10".into(),
    });
    actions.extend(std::iter::repeat_n(Action::Resume, 3));
    let params = one(mm::Transformation::SetAsCode, actions, anchored(3, &[]));
    let p = inline("taken.js", TAKEN);
    let mut e = engine("bun").await;
    let c = chain_judged(&mut e, &p, &params).await;
    e.shutdown().await;
    assert_eq!(
        c.sessions.len(),
        2,
        "{:?}",
        answered(&c.sessions[0].traces[0])
    );
    // The premise: Bun placed the first breakpoint and gave the second no location.
    let placed: Vec<Vec<Location>> = answered(&c.sessions[0].traces[0])
        .iter()
        .filter_map(|(a, o, _)| match (a.sets_breakpoint(), o) {
            (true, Output::BreakpointSet { actual, .. }) => Some(actual.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(placed, [vec![Location::new(1, 2)], vec![]]);
    let follow_up = &c.sessions[1];
    assert!(follow_up.warnings.is_empty(), "{:?}", follow_up.warnings);
    assert!(
        follow_up.outcome.undecided().is_none(),
        "{:?}",
        follow_up.outcome
    );
    // One breakpoint asked for: the one the parent placed, moved below the inserted line.
    let asked: Vec<Action> = follow_up.traces[0]
        .actions()
        .filter(|a| a.sets_breakpoint())
        .cloned()
        .collect();
    assert_eq!(
        asked,
        [Action::SetBreakpoint {
            line: 2,
            column: Some(2)
        }]
    );
}

/// Pausing on every exception, the follow-up stops at a caught throw its parent ran past, and
/// rejoins it with a temporary breakpoint where the parent's step went. That place is met
/// first in another call (the recursion's inner one returns through it): those pauses are the
/// temporary breakpoint's alone, and the follow-up goes on to the call the parent stepped in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follow_up_rejoins_its_parent_in_the_call_the_parent_was_in() {
    const WALK: &str = "function walk(n) {\n  if (n === 0) throw new Error(\"x\");\n  try { walk(n - 1); } catch (e) {}\n  return n;\n}\nconsole.log(walk(2));\n";
    let actions = vec![
        bp(2),
        Action::Start,
        Action::RemoveBreakpoint {
            id: morphtrace_schema::BreakpointId(0),
        },
        Action::StepOver,
        Action::Resume,
    ];
    let params = one(mm::Transformation::PauseOnAll, actions, Pin::default());
    let p = inline("walk.js", WALK);
    let mut e = engine("node").await;
    let c = chain_judged(&mut e, &p, &params).await;
    e.shutdown().await;
    assert_eq!(c.sessions.len(), 2, "{:?}", c.sessions[0].outcome);
    let follow_up = &c.sessions[1];
    assert!(
        follow_up.warnings.is_empty(),
        "{:?} {:?}",
        follow_up.warnings,
        answered(&follow_up.traces[0])
    );
    assert!(
        follow_up.outcome.undecided().is_none(),
        "{:?}",
        follow_up.outcome
    );
    // Its pauses at `return n`: walk(1)'s (the temporary breakpoint's, extra), then walk(2)'s.
    let depths: Vec<usize> = answered(&follow_up.traces[0])
        .iter()
        .filter_map(|(_, o, _)| match o {
            Output::Paused(q) if q.location.line == 3 => Some(q.stack.len()),
            _ => None,
        })
        .collect();
    assert_eq!(depths, [3, 2]);
}

/// Firefox, pausing on every exception: a step out whose caller throws at the place it returns
/// to stops there on the exception, where the parent's step out stopped; a step from that
/// exception pause pauses once more at the same place as the throw pops the frame
/// (`why.frameFinished.throw`), a pause the parent's step never made. The follow-up takes that
/// pause as extra and steps again, and then goes where the parent went (18 of the
/// test262 `async-generator` warnings were this, before).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn firefox_pauses_again_where_a_throw_pops_the_frame_and_the_follow_up_goes_on() {
    const THROW: &str = "function E() {\n  this.m = 1;\n}\nfunction t() {\n  throw new E();\n}\nfunction u() {\n  t();\n}\ntry {\n  u();\n} catch (e) {\n  e;\n}\nvar done = 1;\n";
    let actions = vec![
        bp(1),
        Action::Start,
        Action::StepOut,
        Action::StepOver,
        Action::StepOver,
        Action::StepOver,
    ];
    let params = one(mm::Transformation::PauseOnAll, actions, Pin::default());
    let p = inline("throw-pop.js", THROW);
    let mut e = engine("firefox").await;
    let c = chain_judged(&mut e, &p, &params).await;
    e.shutdown().await;
    assert_eq!(c.sessions.len(), 2, "{:?}", c.sessions[0].outcome);
    let follow_up = &c.sessions[1];
    let pauses: Vec<(String, Option<String>)> = answered(&follow_up.traces[0])
        .iter()
        .filter_map(|(_, o, _)| match o {
            Output::Paused(q) => Some((q.location.to_string(), q.engine_reason.clone())),
            _ => None,
        })
        .collect();
    let popped = Some(morphtrace_recorder::debugger::POPPED_BY_A_THROW.to_string());
    // The exception pause at the throw, the pause as the throw pops `t`, then on as the parent
    // (in `u`, the throw's completion still said).
    assert_eq!(
        &pauses[1..4],
        [
            ("5:9".to_string(), Some("exception".to_string())),
            ("5:9".to_string(), popped.clone()),
            ("8:3".to_string(), popped),
        ],
        "{pauses:?}"
    );
    assert!(
        follow_up.warnings.is_empty(),
        "{:?} {pauses:?}",
        follow_up.warnings
    );
    assert!(
        follow_up.outcome.undecided().is_none(),
        "{:?}",
        follow_up.outcome
    );
}

/// Firefox, pausing on every exception: the parent's step over a call that throws and catches
/// inside lands at the script's end; the follow-up's step stops on the exception (extra), and it
/// rejoins the parent there by a temporary breakpoint. A step from that breakpoint pause pauses
/// once more at the script's end as its frame returns (`why.frameFinished.return`), where the
/// parent's step, from the pause a step made, ended the program. The follow-up takes that pause
/// as extra and steps again (5 of Firefox's test262 warnings were this, before).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn firefox_pauses_again_as_the_script_returns_after_a_rejoin_and_the_follow_up_goes_on() {
    const CAUGHT: &str = "function t() {\n  try {\n    throw new Error(\"x\");\n  } catch (e) {\n    return 1;\n  }\n}\nvar a = 1;\nt();\n";
    let actions = vec![bp(8), Action::Start, Action::StepOver, Action::StepOver];
    let params = one(mm::Transformation::PauseOnAll, actions, Pin::default());
    let p = inline("rejoin-end.js", CAUGHT);
    let mut e = engine("firefox").await;
    let c = chain_judged(&mut e, &p, &params).await;
    e.shutdown().await;
    assert_eq!(c.sessions.len(), 2, "{:?}", c.sessions[0].outcome);
    let outputs = |s: &Session| -> Vec<(String, Option<String>)> {
        answered(&s.traces[0])
            .iter()
            .filter_map(|(_, o, _)| match o {
                Output::Paused(q) => Some((q.location.to_string(), q.engine_reason.clone())),
                Output::Finished { .. } => Some(("end".to_string(), None)),
                _ => None,
            })
            .collect()
    };
    let (parent, follow_up) = (outputs(&c.sessions[0]), outputs(&c.sessions[1]));
    let end = parent[1].0.clone();
    assert_eq!(parent.len(), 3, "{parent:?}");
    assert_eq!(parent[2].0, "end", "{parent:?}");
    let popped = Some(morphtrace_recorder::debugger::POPPED_BY_A_RETURN.to_string());
    // After the step over: the exception at line 3, the temporary breakpoint at the end, once
    // more there as the script returns, the end.
    let tail = &follow_up[follow_up.len().saturating_sub(4)..];
    assert_eq!(tail.len(), 4, "{follow_up:?}");
    assert_eq!(tail[0].0, "3:11", "{follow_up:?}");
    assert_eq!(tail[0].1.as_deref(), Some("exception"), "{follow_up:?}");
    let places: Vec<&str> = tail[1..].iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(places, [end.as_str(), &end, "end"], "{follow_up:?}");
    assert_eq!(tail[2].1, popped, "{follow_up:?}");
    assert!(
        c.sessions[1].warnings.is_empty(),
        "{:?} {follow_up:?}",
        c.sessions[1].warnings
    );
    assert!(
        c.sessions[1].outcome.undecided().is_none(),
        "{:?}",
        c.sessions[1].outcome
    );
}

/// Firefox gives a second breakpoint asked for where a conditional one stands (a rejoin's
/// temporary breakpoint once met an earlier round's conditional one there): the program pauses
/// there. The follow-up asks alike; it once took the two for one shared breakpoint (V8 refuses
/// the second), kept only the false condition, and ran to the end (a `condition-false` warning on
/// test262's `dflt-ary-ptrn-rest-id-elision-next-err.js`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_breakpoint_given_where_a_conditional_one_stands_is_asked_for_in_the_follow_up() {
    let actions = vec![
        Action::SetConditionalBreakpoint {
            line: 3,
            condition: "false".into(),
            column: None,
        },
        Action::SetBreakpoint {
            line: 3,
            column: Some(0),
        },
        Action::Start,
        Action::Resume,
    ];
    let params = one(mm::Transformation::PauseOnAll, actions, Pin::default());
    let p = inline("asked-again.js", LOOP);
    let mut e = engine("firefox").await;
    let c = chain_judged(&mut e, &p, &params).await;
    e.shutdown().await;
    assert_eq!(c.sessions.len(), 2, "{:?}", c.sessions[0].outcome);
    let sets = |s: &Session| {
        answered(&s.traces[0])
            .iter()
            .filter(|(a, o, _)| a.sets_breakpoint() && matches!(o, Output::BreakpointSet { .. }))
            .count()
    };
    let lines = |s: &Session| -> Vec<u32> {
        answered(&s.traces[0])
            .iter()
            .filter_map(|(_, o, _)| match o {
                Output::Paused(q) => Some(q.location.line),
                _ => None,
            })
            .collect()
    };
    // The parent was given both and paused at `s += i;` twice (i = 0, 1).
    assert_eq!(sets(&c.sessions[0]), 2);
    assert_eq!(lines(&c.sessions[0]), [3, 3]);
    assert_eq!(lines(&c.sessions[1]), [3, 3]);
    assert_eq!(sets(&c.sessions[1]), 2);
    assert!(
        c.sessions[1].warnings.is_empty(),
        "{:?}",
        c.sessions[1].warnings
    );
}

/// A plain breakpoint asked for where the parent already had a conditional one is refused
/// (V8 keys both at the line's column 0); moved by inserted code, the follow-up asks for the
/// same place as the conditional one was sent, and is refused alike (it once asked with the
/// column the parent's breakpoint landed on, and was not).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_request_beside_a_conditional_breakpoint_is_refused_in_the_follow_up() {
    let actions = vec![
        Action::SetConditionalBreakpoint {
            line: 3,
            condition: "i > 0".into(),
            column: None,
        },
        bp(3),
        Action::Start,
        Action::Resume,
        Action::Resume,
    ];
    let pin = Pin {
        line: Some(1),
        ..Pin::default()
    };
    let params = one(mm::Transformation::InsertDeadCode, actions, pin);
    let p = inline("refused.js", LOOP);
    let mut e = engine("node").await;
    let c = chain_judged(&mut e, &p, &params).await;
    e.shutdown().await;
    assert_eq!(c.sessions.len(), 2);
    let refused = |s: &Session| {
        answered(&s.traces[0])
            .iter()
            .filter(|(a, o, _)| a.sets_breakpoint() && matches!(o, Output::Error { .. }))
            .count()
    };
    assert_eq!(refused(&c.sessions[0]), 1);
    assert_eq!(refused(&c.sessions[1]), 1);
    assert!(
        c.sessions[1].warnings.is_empty(),
        "{:?}",
        c.sessions[1].warnings
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_that_does_not_restart_is_caught_by_restarting_as_reentry() {
    // Into `sq` by a step, two steps on, then (the follow-up) its frame restarted: it pauses
    // where the step into did, the two steps repeat, and nothing it did shows (5 and 26).
    let text = "function sq(n) {\n  let t = n * n;\n  t = t + 1;\n  return t;\n}\nlet a = sq(2);\nlet b = sq(a);\nconsole.log(a, b);\n";
    let actions = vec![
        bp(5),
        Action::Start,
        Action::StepInto,
        Action::StepOver,
        Action::StepOver,
        Action::Resume,
    ];
    let params = one(
        mm::Transformation::RestartAsReentry,
        actions,
        anchored(4, &[]),
    );
    let (good, bad) = with_and_without(Fault::RestartAsStep, text, &params).await;
    assert!(good.warnings.is_empty(), "{:?}", good.warnings);
    assert_eq!(good.traces[0].console, ["5 26"]);
    let lines: Vec<(String, Option<u32>)> = answered(&good.traces[0])
        .into_iter()
        .filter(|(a, _, _)| a.is_control())
        .map(|(a, o, _)| (a.name().to_string(), pause_line(&o)))
        .collect();
    assert_eq!(
        lines,
        [
            ("start".into(), Some(5)),
            ("stepInto".into(), Some(1)),
            ("stepOver".into(), Some(2)),
            ("stepOver".into(), Some(3)),
            ("restartFrame".into(), Some(1)),
            ("stepOver".into(), Some(2)),
            ("stepOver".into(), Some(3)),
            ("resume".into(), None),
        ]
    );
    assert_eq!(bad.warnings.len(), 1, "{:?}", bad.outcome);
    assert_eq!(
        bad.warnings[0].relation,
        "a-restarted-side-effect-free-frame-pauses-as-its-entry-did"
    );
    let restart = answered(&bad.traces[0])
        .into_iter()
        .find(|(a, _, _)| matches!(a, Action::RestartFrame { .. }))
        .map(|(_, _, i)| i);
    assert_eq!(bad.warnings[0].event_index, restart);
}

/// Moved by inserted code, a conditional breakpoint is asked for where the parent's landed,
/// column included, as a plain one is: asked for its line alone, it would land at the line's
/// first statement instead (found by the set-variable-as-code campaign on generated programs).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moved_conditional_breakpoint_keeps_its_column() {
    let text = "function run(n) {\n  var s = 0; var t = 1;\n  for (var i = 0; i < n; i++) {\n    s += i * t;\n  }\n  return s;\n}\nconsole.log(run(3));\n";
    let actions = vec![
        Action::SetConditionalBreakpoint {
            line: 1,
            condition: "n > 0".into(),
            column: Some(14),
        },
        Action::Start,
        Action::Resume,
    ];
    let pin = Pin {
        line: Some(1),
        ..Pin::default()
    };
    let params = one(mm::Transformation::InsertDeadCode, actions, pin);
    let p = inline("column.js", text);
    let mut e = engine("node").await;
    let c = chain_judged(&mut e, &p, &params).await;
    e.shutdown().await;
    assert_eq!(c.sessions.len(), 2);
    let landed = |s: &Session| {
        answered(&s.traces[0])
            .into_iter()
            .find_map(|(_, o, _)| match o {
                Output::BreakpointSet { actual, .. } => actual.first().copied(),
                _ => None,
            })
    };
    let (parent, follow) = (landed(&c.sessions[0]), landed(&c.sessions[1]));
    let parent = parent.expect("the parent's breakpoint landed");
    assert!(
        parent.column > 2,
        "past the line's first statement: {parent}"
    );
    assert_eq!(
        follow,
        Some(morphtrace_schema::Location::new(
            parent.line + 1,
            parent.column
        ))
    );
    assert!(
        c.sessions[1].warnings.is_empty(),
        "{:?}",
        c.sessions[1].warnings
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_continue_to_a_location_is_a_temporary_breakpoint_there() {
    // From the loop's first pause, its breakpoint removed, on to `return s` (line 6): the
    // follow-up sets a breakpoint there, resumes and removes it, and pauses where the parent's
    // continue did, with the same state.
    let actions = vec![
        bp(3),
        Action::Start,
        Action::RemoveBreakpoint {
            id: morphtrace_schema::BreakpointId(0),
        },
        Action::ContinueToLocation { line: 6 },
        Action::Resume,
    ];
    let params = one(
        mm::Transformation::ContinueAsBreakpoint,
        actions,
        anchored(3, &[]),
    );
    let p = inline("continue.js", LOOP);
    let mut e = engine("node").await;
    let c = chain_judged(&mut e, &p, &params).await;
    e.shutdown().await;
    assert_eq!(c.sessions.len(), 2);
    let (parent, follow) = (&c.sessions[0], &c.sessions[1]);
    assert!(follow.warnings.is_empty(), "{:?}", follow.warnings);
    let stops = |s: &Session| -> Vec<(String, Option<u32>)> {
        answered(&s.traces[0])
            .into_iter()
            .filter(|(a, _, _)| a.is_control())
            .map(|(a, o, _)| (a.name().to_string(), pause_line(&o)))
            .collect()
    };
    assert_eq!(
        stops(parent),
        [
            ("start".into(), Some(3)),
            ("continueToLocation".into(), Some(6)),
            ("resume".into(), None),
        ]
    );
    assert_eq!(
        stops(follow),
        [
            ("start".into(), Some(3)),
            ("resume".into(), Some(6)),
            ("resume".into(), None),
        ]
    );
    // Not where the parent set a false condition: the temporary breakpoint would be refused
    // there, and the resume pass where the continue stops (three Node warnings were that).
    let filtered = vec![
        bp(3),
        Action::SetConditionalBreakpoint {
            line: 6,
            condition: "false".into(),
            column: None,
        },
        Action::Start,
        Action::RemoveBreakpoint {
            id: morphtrace_schema::BreakpointId(0),
        },
        Action::ContinueToLocation { line: 6 },
        Action::Resume,
    ];
    let mut e = engine("node").await;
    let c = chain_judged(
        &mut e,
        &p,
        &one(
            mm::Transformation::ContinueAsBreakpoint,
            filtered,
            anchored(4, &[]),
        ),
    )
    .await;
    e.shutdown().await;
    assert_eq!(c.sessions.len(), 1, "no follow-up");
    // A continue that runs on as a resume: the parent ends where the breakpoint stops.
    let (_, bad) = with_and_without(Fault::ContinueAsResume, LOOP, &params).await;
    assert_eq!(bad.warnings.len(), 1, "{:?}", bad.outcome);
    assert_eq!(
        bad.warnings[0].relation,
        "continuing-to-a-line-is-a-temporary-breakpoint-there"
    );
    let names: Vec<&str> = follow.traces[0].actions().map(|a| a.name()).collect();
    assert_eq!(
        names,
        [
            "setBreakpoint",
            "start",
            "removeBreakpoint",
            "setBreakpoint",
            "resume",
            "removeBreakpoint",
            "resume"
        ]
    );
}

/// Add-parameter on the engines that pause just past a function's closing brace as it returns
/// (JavaScriptCore, SpiderMonkey): the pause there is still the function's frame and shows the
/// fresh parameter, `undefined`, so the follow-up holds (met on Bun over gen:2023, where the
/// brace's next column was taken for the caller's); V8 pauses at the brace itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fresh_parameter_shown_as_the_function_returns_past_its_brace_holds() {
    const RET: &str =
        "function f(i) {\n  var k = i * 2;\n  k += 1;\n}\nf(3);\nconsole.log(\"done\");\n";
    let actions = vec![
        bp(1),
        Action::Start,
        Action::StepOver,
        Action::StepOver,
        Action::StepOver,
    ];
    let p = inline("returns.js", RET);
    for kind in ["node", "firefox", "bun"] {
        let params = one(
            mm::Transformation::AddParameter,
            actions.clone(),
            Pin::default(),
        );
        let mut e = engine(kind).await;
        let c = chain_judged(&mut e, &p, &params).await;
        e.shutdown().await;
        assert_eq!(c.sessions.len(), 2, "{kind}");
        let follow_up = &c.sessions[1];
        // The premise: the step from `k += 1` stops at the function's end, in its frame.
        let ends: Vec<(Location, String)> = answered(&follow_up.traces[0])
            .iter()
            .filter_map(|(_, o, _)| match o {
                Output::Paused(s) if s.location.line == 3 => {
                    Some((s.location, s.stack[0].function.clone()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(ends.len(), 1, "{kind}: {ends:?}");
        assert_eq!(ends[0].1, "f", "{kind}");
        assert!(
            follow_up.warnings.is_empty(),
            "{kind}: {:?}",
            follow_up.warnings
        );
    }
}
