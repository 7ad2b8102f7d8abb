//! Oracles with no second engine: execution tiers, ground truth, the debugger against itself, output with and without it.

use super::*;
/// A program whose values change at every step: the tiers' test.
const TIERED: &str = "function square(n) {\n  var s = n * n;\n  return s;\n}\nvar total = 0;\nfor (var i = 0; i < 4; i++) {\n  total += square(i);\n}\nvar last = total;\nfunction fail() {\n  var err = null;\n  try { null.x; } catch (e) { err = e; }\n  return err;\n}\nvar caught = fail();\n";

/// Issue 68: an engine under another execution tier (`node+jitless`) runs with the tier's flags,
/// names it in its version and a `tier` detail, and refuses a tier it does not have. The tier
/// is real where a program can tell: V8 without a JIT has no WebAssembly (Node and Chromium);
/// Firefox's preferences are read back over its protocol and Bun's options from JavaScriptCore
/// at launch (either refuses to launch otherwise).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn execution_tiers_run_under_their_flags_on_every_js_engine() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("tiered.js", TIERED);
    for (spec, wasm) in [
        ("node", "object"),
        ("node+jitless", "undefined"),
        ("chromium", "object"),
        ("chromium+jitless", "undefined"),
        ("node+sparkplug", "object"),
        ("firefox+nojit", "object"),
        ("bun+nojit", "object"),
    ] {
        let mut e = engine(spec, CaptureOptions::default()).await;
        let d = e.descriptor().clone();
        match spec.split_once('+') {
            Some((_, tier)) => {
                assert!(d.version.ends_with(&format!("+{tier}")), "{spec}: {d:?}");
                assert!(
                    d.details
                        .iter()
                        .any(|(k, v)| k == "tier" && v.starts_with(&format!("{tier} ("))),
                    "{spec}: {d:?}"
                );
            }
            None => assert!(!d.version.contains('+'), "{spec}: {d:?}"),
        }
        let mut s = open(&mut e, &p).await;
        apply(
            s.as_mut(),
            &Action::SetBreakpoint {
                line: 8,
                column: None,
            },
        )
        .await
        .unwrap();
        assert!(matches!(
            apply(s.as_mut(), &Action::Start).await.unwrap(),
            Output::Paused(_)
        ));
        let o = apply(
            s.as_mut(),
            &Action::Evaluate {
                expression: "typeof WebAssembly + ':' + total".into(),
            },
        )
        .await
        .unwrap();
        assert_eq!(
            o,
            Output::Evaluated {
                value: Value::String(format!("{wasm}:14")),
                threw: false
            },
            "{spec}"
        );
        s.close().await;
        e.shutdown().await;
    }
    for (bad, says) in [
        ("firefox+jitless", "nojit, noion, eager"),
        ("node+nojit", "jitless, sparkplug, turbofan"),
        ("pdb+jitless", "runs one way only"),
    ] {
        let e = EngineSpec::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

/// Issue 68: a differential between two tiers of one engine is judged by no family's rules.
/// Node against Node without its JIT, Firefox against its interpreter only, Bun against its
/// LLInt only, on a program with a loop, calls, values and a caught error: each real pair
/// agrees; each fault planted in the tier's side (a value one too high, a hidden local, a
/// breakpoint reported a line off, a step into taken as a step over; on Node also an error's
/// message worded as Firefox words it) shows as a divergence that no rule of the repository's
/// triage excuses or judges. The last is what the rule on engine-worded messages excuses between
/// two families (by design: each engine words its own errors); one engine words them alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_tiers_of_one_engine_are_compared_with_no_familys_rules() {
    let _g = SERIAL.lock().await;
    // The reworded message is planted where the variables show an error's message as V8 words
    // it (Node); Firefox's and Bun's pause there showed no divergence for it (not looked into).
    for (default, tier, reword) in [
        (
            "node",
            "node+jitless",
            Some(("Cannot read properties of null", "null has no properties")),
        ),
        ("firefox", "firefox+nojit", None),
        ("bun", "bun+nojit", None),
    ] {
        tiers_agree_and_every_planted_fault_stays_new(default, tier, reword).await;
    }
}

async fn tiers_agree_and_every_planted_fault_stays_new(
    default: &str,
    tier: &str,
    reword: Option<(&str, &str)>,
) {
    use faults::{Fault, FaultyEngine};
    let triage = repo_triage();
    let (_dir, p) = inline("tiered.js", TIERED);
    // One breakpoint, on the call: a step into it enters `square`, a step over would not.
    let mut actions = vec![
        Action::SetBreakpoint {
            line: 6,
            column: None,
        },
        Action::Start,
    ];
    for _ in 0..3 {
        actions.extend([
            Action::StepInto,
            Action::StepInto,
            Action::StepOver,
            Action::Resume,
        ]);
    }
    let in_the_loop = Plan::Replay { actions };
    // A pause where a local holds the TypeError the engine threw.
    let at_the_error = Plan::Replay {
        actions: vec![
            Action::SetBreakpoint {
                line: 12,
                column: None,
            },
            Action::Start,
        ],
    };
    let mut plain = engine(default, CaptureOptions::default()).await;
    // One engine serves the real runs and every fault.
    let (mut tiered, switch) =
        FaultyEngine::switchable(engine(tier, CaptureOptions::default()).await, Fault::Honest);
    for plan in [&in_the_loop, &at_the_error] {
        let rec = common::lockstep_under(&mut [&mut plain, &mut tiered], &p, plan, &triage).await;
        assert!(
            rec.divergences.is_empty(),
            "{default} and {tier}: {:?}",
            rec.divergences
        );
        assert!(rec.traces[0]
            .outputs()
            .any(|o| matches!(o, Output::Paused(_))));
    }
    let mut faults = vec![
        (Fault::WrongNumber { name: "n".into() }, &in_the_loop),
        (
            Fault::HideVariable {
                line: 2,
                name: "s".into(),
            },
            &in_the_loop,
        ),
        (Fault::ShiftBreakpoint, &in_the_loop),
        (Fault::StepIntoAsOver, &in_the_loop),
    ];
    if let Some((from, to)) = reword {
        faults.push((
            Fault::Reword {
                from: from.into(),
                to: to.into(),
            },
            &at_the_error,
        ));
    }
    for (fault, plan) in faults {
        switch.set(fault.clone());
        let rec = common::lockstep_under(&mut [&mut plain, &mut tiered], &p, plan, &triage).await;
        assert!(!rec.divergences.is_empty(), "{tier}: {fault:?}: caught");
        for d in &rec.divergences {
            let judged = d
                .continued
                .as_deref()
                .is_some_and(|c| c.starts_with("excused") || c.starts_with("judged"));
            assert!(
                !judged && !excused(&rec, d),
                "{tier}: {fault:?}: {} judged by a family's rule: {:?} {:?}",
                d.detail,
                d.continued,
                rec.notes
            );
        }
    }
    tiered.shutdown().await;
    plain.shutdown().await;
}

/// Ground truth, an oracle with no second engine (issue 68): generated programs that record
/// their own state (`truth:1`, and `truth:75`, strict, whose calls in tail position
/// JavaScriptCore's stack loses and its debugger keeps) are paused where they record it, on
/// Node, Firefox and Bun alone. The real engines contradict no record; each planted fault
/// contradicts the program in the way that is its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ground_truth_catches_each_planted_fault_on_one_engine_alone() {
    use faults::Fault;
    use morphtrace_judges::truth::{judge, Context};
    let _g = SERIAL.lock().await;
    let triage = morphtrace_judges::triage::Triage::default();
    let mut programs: Vec<(String, (tempfile::TempDir, corpus::Loaded))> = [1, 75]
        .into_iter()
        .map(|seed| {
            let text = corpus::generated::with_truth(seed);
            (text.clone(), inline(&format!("truth-{seed}.js"), &text))
        })
        .collect();
    // And an instrumented copy of a program not generated (`corpus::truth::copy_js`): strings,
    // booleans, floats, a closure, a switch, a loop head's binding, an inner binding in its
    // dead zone.
    let copy = corpus::truth::copy_js(TRUTH_COPY).unwrap();
    programs.push((copy.clone(), inline("copy.js", &copy)));
    let plan = Plan::Truth {
        seed: 1,
        max_points: 256,
    };
    let planted = Fault::for_truth();
    for kind in ["node", "firefox", "bun"] {
        let (mut e, switch) = faults::FaultyEngine::switchable(
            engine(kind, CaptureOptions::default()).await,
            Fault::Honest,
        );
        let cx = |text| Context {
            program: Some(text),
            proper_tail_calls: kind == "bun",
        };
        for (text, (_dir, p)) in &programs {
            switch.set(Fault::Honest);
            let rec = common::lockstep_under(&mut [&mut e], p, &plan, &triage).await;
            assert_eq!(
                rec.final_outcome(),
                morphtrace_schema::SessionOutcome::Finished,
                "{kind}"
            );
            let pauses = rec.traces[0].pauses().count();
            assert!(pauses >= 10, "{kind}: {pauses} pauses");
            let w = judge(&rec.traces[0], cx(text)).unwrap();
            assert!(w.is_empty(), "{kind}, the real engine: {w:#?}");
        }
        let (text, (_dir, p)) = &programs[0];
        for (fault, want) in &planted {
            switch.set(fault.clone());
            let rec = common::lockstep_under(&mut [&mut e], p, &plan, &triage).await;
            let w = judge(&rec.traces[0], cx(text)).unwrap();
            assert!(
                w.iter().any(|w| w.relation == *want),
                "{kind}, {}: no {want} among {w:#?}",
                fault.name()
            );
        }
        e.shutdown().await;
    }
}

/// The debugger against itself (issue 68, after DEVIL): one program stepped into statement by
/// statement and run from breakpoint to breakpoint (one on every line) on Node, Firefox and Bun
/// alone. On the real engines the two traces agree (every breakpoint pause is a step pause
/// with the same frames and values; on Node and Firefox every step onto a breakpoint's place is
/// a breakpoint pause; both print what the program prints without a debugger). A debugger
/// that steps over where asked to step into leaves breakpoint pauses unreached; one that
/// swallows a breakpoint pause misses a step pause's place (where breakpoints pause at their
/// place: JavaScriptCore's pause on entering a line, and ground truth catches that one there).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_debugger_against_itself_catches_planted_faults_on_one_engine_alone() {
    use faults::Fault;
    use morphtrace_judges::steps::relation;
    use morphtrace_schema::{EngineRef, SessionOutcome};
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("itself.js", STEPS_PROGRAM);
    let policy = ComparisonPolicy::default();
    let timeout = Duration::from_secs(120);
    for kind in ["node", "firefox", "bun"] {
        let (mut e, switch) = faults::FaultyEngine::switchable(
            engine(kind, CaptureOptions::default()).await,
            Fault::Honest,
        );
        let mut planted = vec![(Fault::StepIntoAsOver, relation::REACHED)];
        if kind != "bun" {
            planted.push((Fault::SwallowPause, relation::MISSED));
        }
        for (fault, want) in std::iter::once((Fault::Honest, "")).chain(planted) {
            switch.set(fault.clone());
            let (traces, outcome, _) =
                dbdb::steps::traces(&mut [&mut e], &[EngineRef(0)], &p, 500, &policy, timeout)
                    .await;
            assert_eq!(
                outcome,
                SessionOutcome::Finished,
                "{kind}, {}",
                fault.name()
            );
            let w = dbdb::steps::judge(&mut e, &p, &traces).await.unwrap();
            if fault == Fault::Honest {
                let pauses: Vec<usize> = traces.iter().map(|t| t.pauses().count()).collect();
                assert!(
                    pauses[0] > pauses[1] && pauses[1] >= 20,
                    "{kind}: {pauses:?} pauses"
                );
                assert!(w.is_empty(), "{kind}, the real engine: {w:#?}");
                assert_eq!(
                    traces[0].console,
                    ["total 22", "done 3"],
                    "{kind}: what the program printed"
                );
            } else {
                assert!(
                    w.iter().any(|w| w.relation == want),
                    "{kind}, {}: no {want} among {w:#?}",
                    fault.name()
                );
            }
        }
        e.shutdown().await;
    }
}

/// Every session that only observes holds the program to what it prints without a debugger
/// (`dbdb::attached`, the check every strategy runs): on Node, Firefox and Bun the real
/// debugger changes nothing; one that prints a line of its own at a pause is caught, and
/// confirmed by a replay; a session that sets a variable is not judged, and says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_program_prints_the_same_with_the_debugger_and_without() {
    use faults::Fault;
    use morphtrace_judges::attached::{Check, RELATION};
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("attached.js", STEPS_PROGRAM);
    let timeout = Duration::from_secs(120);
    // A breakpoint on a line run once (`let count = 0;`), a step, a read, a resume to the end.
    let looking = vec![
        Action::SetBreakpoint {
            line: 20,
            column: None,
        },
        Action::Start,
        Action::StepOver,
        Action::Evaluate {
            expression: "total + count".into(),
        },
        Action::Resume,
    ];
    let mut setting = looking.clone();
    setting.insert(
        3,
        Action::SetVariable {
            name: "count".into(),
            value: "1".into(),
        },
    );
    // A session that stops with the program paused (as at DBDB's action limit): run on to the
    // end, its breakpoint removed, to be judged.
    let stopped = looking[..3].to_vec();
    let note = |notes: &[(String, String)]| {
        notes
            .iter()
            .find(|(k, _)| k == dbdb::attached::NOTE)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    for kind in ["node", "firefox", "bun"] {
        let (mut e, switch) = faults::FaultyEngine::switchable(
            engine(kind, CaptureOptions::default()).await,
            Fault::Honest,
        );
        for (fault, actions, check) in [
            (Fault::Honest, &looking, Check::Ended),
            (Fault::PrintAtPause, &looking, Check::Ended),
            (Fault::PrintAtPause, &setting, Check::Ended),
            (Fault::PrintAtPause, &stopped, Check::Ended),
            (Fault::Honest, &stopped, Check::RunOn),
            (Fault::PrintAtPause, &stopped, Check::RunOn),
        ] {
            let policy = ComparisonPolicy {
                attached_output: check,
                ..ComparisonPolicy::default()
            };
            switch.set(fault.clone());
            let plan = Plan::Replay {
                actions: actions.clone(),
            };
            let rec = session::record(
                &mut [&mut e],
                &[EngineRef(0)],
                &p,
                &mut *plan.strategy().unwrap(),
                &policy,
                None,
                timeout,
            )
            .await;
            let what = format!(
                "{kind}, {}, {} actions, {}",
                fault.name(),
                actions.len(),
                check.name()
            );
            // The plan's last action runs the program to its end, or leaves it paused.
            assert_eq!(
                morphtrace_judges::attached::ended(&rec.traces[0]).is_some(),
                actions.len() > 3,
                "{what}: {:?} {:#?}",
                rec.final_outcome(),
                rec.traces[0].outputs().collect::<Vec<_>>()
            );
            let mut notes = Vec::new();
            let setting = dbdb::attached::Setting {
                refs: &[EngineRef(0)],
                policy: &policy,
                timeout,
            };
            let w =
                dbdb::attached::judge(&mut [&mut e], &p, &rec.traces, &setting, &mut notes).await;
            match (&fault, actions.len()) {
                (Fault::Honest, n) => {
                    assert!(w.is_empty(), "{what}: {w:#?}");
                    assert_eq!(note(&notes), "alike (1 judged)", "{what}");
                    if n > 3 {
                        assert_eq!(rec.traces[0].console, ["total 22", "done 3"], "{what}");
                    }
                }
                (_, 3) if check == Check::Ended => {
                    assert!(w.is_empty(), "{what}: {w:#?}");
                    assert_eq!(
                        note(&notes),
                        "not judged: the session stopped with the program paused \
                         (--attached-output run-on runs it on)",
                        "{what}"
                    );
                }
                (_, 3) => {
                    assert_eq!(w.len(), 1, "{what}: {w:#?} {notes:?}");
                    assert_eq!(
                        w[0].message,
                        "run on to its end after the session's 3 actions, with the debugger and \
                         without: printed line 1: \"printed by the debugger\" vs \"total 22\"",
                        "{what}"
                    );
                }
                (_, 5) => {
                    assert_eq!(w.len(), 1, "{what}: {w:#?} {notes:?}");
                    assert_eq!(w[0].relation, RELATION);
                    assert_eq!(
                        w[0].message,
                        "with the debugger and without: printed line 1: \"printed by the \
                         debugger\" vs \"total 22\"",
                        "{what}"
                    );
                    assert_eq!(note(&notes), "apart (1 traces)", "{what}");
                }
                _ => {
                    assert!(w.is_empty(), "{what}: {w:#?}");
                    assert_eq!(
                        note(&notes),
                        "not judged: it sets a variable (setVariable)",
                        "{what}"
                    );
                }
            }
        }
        e.shutdown().await;
    }
}

/// A program for the debugger against itself: calls in a loop, a closure, a return from the
/// middle of a function, a generator read by a loop, an object, what it prints.
const STEPS_PROGRAM: &str = r#"function add(a, b) {
  const sum = a + b;
  return sum;
}
function clamp(n) {
  if (n > 10) {
    return 10;
  }
  return n;
}
function* upTo(n) {
  for (let i = 0; i < n; i++) {
    yield i;
  }
}
let total = 0;
const point = { x: 1, y: 2 };
for (let k = 0; k < 4; k++) {
  total = add(total, clamp(k * 4));
}
let count = 0;
for (const v of upTo(3)) {
  count = add(count, 1);
  point.x = v;
}
console.log("total " + total);
console.log("done " + count);
"#;

const TRUTH_COPY: &str = r#"let total = 0.5;
const label = "sum";
function step(k, flag) {
  let inner = k * 1.25;
  const next = () => {
    return inner + total;
  };
  switch (k % 3) {
    case 0:
      inner += 1;
      break;
    default:
      inner -= 0.5;
  }
  for (const j of [k, k + 1]) {
    total += j / 4;
  }
  {
    let seen = flag;
    seen = !seen;
    total += seen ? 1 : 0;
  }
  return next();
}
let last = null;
for (let i = 0; i < 4; i++) {
  last = step(i, i % 2 === 0);
}
console.log(label, total, last);
"#;
