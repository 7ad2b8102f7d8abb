//! Faults planted in the debugger (`tests/support/faults.rs`) show as divergences and no rule excuses them.

use super::*;
/// A debugger whose evaluation answers another value (a planted fault) diverges from a correct
/// one as an `evaluation` divergence at that action; the same engine twice agrees.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_evaluation_answered_wrong_is_an_evaluation_divergence() {
    let _g = SERIAL.lock().await;
    let triage = morphtrace_judges::triage::Triage::default();
    let (_dir, p) = inline(
        "eval.js",
        "function f(i) {\n  const angle = i * 3 + 1;\n  return angle;\n}\nvar r = f(41);\n",
    );
    let plan = Plan::Replay {
        actions: vec![
            Action::SetBreakpoint {
                line: 2,
                column: None,
            },
            Action::Start,
            Action::Evaluate {
                expression: "i".into(),
            },
            Action::Evaluate {
                expression: "angle - i".into(),
            },
            Action::Resume,
        ],
    };
    let mut a = engine("node", CaptureOptions::default()).await;
    let mut b = engine("node", CaptureOptions::default()).await;
    let rec = common::lockstep_under(&mut [&mut a, &mut b], &p, &plan, &triage).await;
    assert!(rec.divergences.is_empty(), "{:?}", rec.divergences);
    let mut faulty = faults::FaultyEngine::wrap(
        engine("node", CaptureOptions::default()).await,
        faults::Fault::WrongEvaluation,
    );
    let rec = common::lockstep_under(&mut [&mut a, &mut faulty], &p, &plan, &triage).await;
    let d = rec.divergences.first().expect("the planted fault shows");
    assert_eq!(d.kind, DivergenceKind::Evaluation);
    assert_eq!(d.action_index, 2);
    assert_eq!(d.detail, "evaluated 41 vs 42");
    for e in [&mut a, &mut b, &mut faulty] {
        e.shutdown().await;
    }
}

/// A debugger that ignores a breakpoint's condition (a planted fault) diverges from a correct
/// one at the first pause the condition should have skipped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ignored_condition_is_a_divergence() {
    let _g = SERIAL.lock().await;
    let triage = morphtrace_judges::triage::Triage::default();
    let (_dir, p) = inline(
        "cond.js",
        "let total = 0;\nfor (let i = 0; i < 5; i++) {\n  total += i;\n}\n",
    );
    let plan = Plan::Replay {
        actions: vec![
            Action::SetConditionalBreakpoint {
                line: 2,
                condition: "i > 2".into(),
                column: None,
            },
            Action::Start,
            Action::Resume,
        ],
    };
    let mut a = engine("node", CaptureOptions::default()).await;
    let mut faulty = faults::FaultyEngine::wrap(
        engine("node", CaptureOptions::default()).await,
        faults::Fault::IgnoreCondition,
    );
    let rec = common::lockstep_under(&mut [&mut a, &mut faulty], &p, &plan, &triage).await;
    let d = rec.divergences.first().expect("the planted fault shows");
    assert_eq!(d.kind, DivergenceKind::Variables);
    assert_eq!(d.action_index, 1);
    assert_eq!(d.detail, "i: 3 vs 0");
    for e in [&mut a, &mut faulty] {
        e.shutdown().await;
    }
}

/// A logpoint that logs nothing (a planted fault) diverges from a correct one, as a `log`
/// divergence at the action during which the line should have been logged; one that pauses
/// shows where it paused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_or_pausing_logpoint_is_a_divergence() {
    let _g = SERIAL.lock().await;
    let triage = morphtrace_judges::triage::Triage::default();
    let (_dir, p) = inline(
        "log.js",
        "let total = 0;\nfor (let i = 0; i < 3; i++) {\n  total += i;\n}\ntotal += 1;\n",
    );
    let plan = Plan::Replay {
        actions: vec![
            Action::SetLogpoint {
                line: 2,
                expression: "total".into(),
                column: None,
            },
            Action::SetBreakpoint {
                line: 4,
                column: None,
            },
            Action::Start,
            Action::Resume,
        ],
    };
    for (fault, kind, detail) in [
        (
            faults::Fault::SilentLogpoint,
            DivergenceKind::Log,
            "logpoints logged #0 0 vs nothing (line 1 of 3 vs 0)",
        ),
        (
            faults::Fault::PausingLogpoint,
            DivergenceKind::PauseLocation,
            "paused at 5:1 vs 3:3",
        ),
    ] {
        let mut a = engine("node", CaptureOptions::default()).await;
        let mut faulty =
            faults::FaultyEngine::wrap(engine("node", CaptureOptions::default()).await, fault);
        let rec = common::lockstep_under(&mut [&mut a, &mut faulty], &p, &plan, &triage).await;
        let d = rec.divergences.first().expect("the planted fault shows");
        assert_eq!((&d.kind, d.action_index), (&kind, 2));
        assert_eq!(d.detail, detail);
        // The trace keeps what the correct logpoint logged, stamped with the start.
        let logged: Vec<(u32, &str)> = rec.traces[0]
            .logs
            .iter()
            .map(|l| (l.action, l.text.as_str()))
            .collect();
        assert_eq!(logged, [(2, "0"), (2, "0"), (2, "1")]);
        for e in [&mut a, &mut faulty] {
            e.shutdown().await;
        }
    }
}

/// Functions ECMAScript names (`f`, `g`) and leaves unnamed (a prototype's method, a function
/// returned into a property), each called from `run`: where each engine pauses in each, its
/// stack's top frame is the function, the one below `run`.
const NAMED_AND_UNNAMED: &str = "function D() {}
D.prototype.m = function () {
  return 1;
};
var o = {};
o.k = (function () {
  return function () {
    return 2;
  };
})();
function f() {
  return 3;
}
const g = () => {
  return 4;
};
function run() {
  new D().m();
  o.k();
  f();
  g();
}
run();
";

/// Issue 66: the rules on how engines name function expressions (Firefox's inferred names
/// against V8's and JavaScriptCore's, `.prototype.` paths, JavaScriptCore's unnamed frames)
/// excuse a name only where it is inferred from the assignment around a function ECMAScript
/// leaves unnamed. On Node, Firefox and Bun, two by two, a breakpoint in each function: the real
/// engines' naming differences are excused (the rules fire on every pair). Then each engine,
/// in turn, loses its top frame's name or shows the caller's name there (planted faults):
/// every stack divergence the fault causes (one the real pair does not show) stays new, and
/// each fault on each side of each pair causes one. (A lost name at a function ECMAScript
/// leaves unnamed is no fault: it is how JavaScriptCore shows every such frame.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn planted_frame_name_faults_are_never_excused_as_naming() {
    use faults::{Fault, FaultyEngine};
    let _g = SERIAL.lock().await;
    let triage = repo_triage();
    let (_dir, p) = inline("named.js", NAMED_AND_UNNAMED);
    // The `return` line of each function (0-based): two ECMAScript leaves unnamed, two named.
    let bodies = [2, 7, 11, 14];
    let unnamed = [2, 7];
    let plan = |line: u32| Plan::Replay {
        actions: vec![Action::SetBreakpoint { line, column: None }, Action::Start],
    };
    let mut engines = Vec::new();
    for kind in ["node", "firefox", "bun"] {
        let (e, switch) =
            FaultyEngine::switchable(engine(kind, CaptureOptions::default()).await, Fault::Honest);
        engines.push((kind, e, switch));
    }
    let stacks = |rec: &Recording| -> Vec<(String, bool)> {
        rec.divergences
            .iter()
            .filter(|d| d.kind == DivergenceKind::CallStack)
            .map(|d| (d.detail.clone(), excused(rec, d)))
            .collect()
    };
    for (x, y) in [(0, 1), (0, 2), (1, 2)] {
        let (head, tail) = engines.split_at_mut(y);
        let (a, b) = (&mut head[x], &mut tail[0]);
        let pair = format!("{} and {}", a.0, b.0);
        a.2.set(Fault::Honest);
        b.2.set(Fault::Honest);
        let mut real = Vec::new();
        for &line in &bodies {
            let rec =
                common::lockstep_under(&mut [&mut a.1, &mut b.1], &p, &plan(line), &triage).await;
            real.push(stacks(&rec));
        }
        eprintln!("{pair}: {real:?}");
        assert!(
            real.iter().flatten().any(|(_, excused)| *excused),
            "{pair}: a naming rule excuses the real engines' difference: {real:?}"
        );
        assert!(
            real.iter().flatten().all(|(_, excused)| *excused),
            "{pair}: the real engines differ only in how they name: {real:?}"
        );
        for fault in [Fault::LoseFrameName, Fault::RenameFrame] {
            for side in [0, 1] {
                let (planted, honest) = if side == 0 {
                    (&a.2, &b.2)
                } else {
                    (&b.2, &a.2)
                };
                planted.set(fault.clone());
                honest.set(Fault::Honest);
                let name = if side == 0 { a.0 } else { b.0 };
                let mut caused = 0;
                for (i, &line) in bodies.iter().enumerate() {
                    let rec =
                        common::lockstep_under(&mut [&mut a.1, &mut b.1], &p, &plan(line), &triage)
                            .await;
                    for (detail, excused) in stacks(&rec) {
                        if real[i].iter().any(|(d, _)| *d == detail) {
                            continue;
                        }
                        // An unnamed function shown without the name the engine infers is shown
                        // as ECMAScript names it (JavaScriptCore's way): no fault to catch.
                        if fault == Fault::LoseFrameName && unnamed.contains(&line) {
                            continue;
                        }
                        caused += 1;
                        assert!(
                            !excused,
                            "{fault:?} in {name} ({pair}), line {line}: {detail} excused"
                        );
                    }
                }
                assert!(caused > 0, "{fault:?} in {name} ({pair}): caught");
                planted.set(Fault::Honest);
            }
        }
    }
    for (_, mut e, _) in engines {
        e.shutdown().await;
    }
}

/// A program with lines that hold no code (comments, blank lines, function heads, braces), on
/// which breakpoints slide, and lines that hold code, on which they do not.
const SLIDES: &str = "// where breakpoints go\nfunction add(a, b) {\n\n  return a + b;\n}\n\n/* a comment */\nvar total = 0;\nfor (var i = 0; i < 3; i++) {\n  // inside the loop\n\n  total = add(total, i);\n}\nfunction never() {\n  // never called\n  return 1;\n}\nvar last = total;\n";

/// Issue 66: the sliding rules (Firefox's, JavaScriptCore's, V8's) accept two placements apart
/// only where every engine placed the breakpoint where its own break positions say (CDP's
/// `getPossibleBreakpoints`, Firefox's positions, WebKit's `getBreakpointLocations`; for
/// JavaScriptCore, which slides within the request's function only, its positions there). On
/// real Node against Firefox and against Bun, a breakpoint on every line of a program: each
/// placement apart is judged with both engines' own positions asked, and the rules excuse the
/// real slides. Then a debugger that reports breakpoints a line off (a slid one, or any:
/// planted faults in Node, and in Firefox and Bun against Node) is asked the same: every
/// divergence the fault causes (a placement unlike the real engine's on that line) shows, and
/// none is excused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn planted_placement_faults_are_never_excused_as_sliding() {
    use faults::{Fault, FaultyEngine};
    let _g = SERIAL.lock().await;
    let triage = repo_triage();
    let (_dir, p) = inline("slides.js", SLIDES);
    let lines = SLIDES.lines().count() as u32;
    let plan = |line: u32| Plan::Replay {
        actions: vec![Action::SetBreakpoint { line, column: None }, Action::Start],
    };
    let placed = |d: &morphtrace_schema::Divergence, side: usize| {
        d.sides[side]
            .output
            .as_ref()
            .map(actual)
            .unwrap_or_default()
    };
    let mut node = engine("node", CaptureOptions::default()).await;
    for other in ["firefox", "bun"] {
        let mut o = engine(other, CaptureOptions::default()).await;
        // The real engines: where each placed the breakpoint of each line, and what the rules
        // made of the placements apart.
        let mut real: Vec<[Vec<Location>; 2]> = Vec::new();
        let mut slid_and_excused = 0;
        for line in 0..lines {
            let rec =
                common::lockstep_under(&mut [&mut node, &mut o], &p, &plan(line), &triage).await;
            let set = |k: usize| actual(rec.traces[k].outputs().next().unwrap());
            real.push([set(0), set(1)]);
            if let Some(d) = rec
                .divergences
                .iter()
                .find(|d| d.kind == DivergenceKind::BreakpointLocation)
            {
                let asked = |e: u16| {
                    d.facts.iter().any(|f| {
                        matches!(f, morphtrace_schema::fact::Fact::BreakPositions { engine, .. }
                                 if *engine == EngineRef(e))
                    })
                };
                eprintln!(
                    "{other} {line}: {} {:?} {:?}",
                    d.detail, d.facts, d.continued
                );
                assert!(asked(0), "{other} line {line}: Node's own positions asked");
                assert!(asked(1), "{other} line {line}: its own positions asked");
                if excused(&rec, d) {
                    slid_and_excused += 1;
                }
            }
        }
        assert!(
            slid_and_excused >= 2,
            "{other}: the sliding rules excuse real slides ({slid_and_excused})"
        );
        let mut plants: Vec<(Fault, usize)> =
            vec![(Fault::WrongSlide, 0), (Fault::ShiftBreakpoint, 0)];
        plants.push((Fault::ShiftBreakpoint, 1));
        for (fault, side) in plants {
            let (mut faulty, mut honest) = if side == 0 {
                (
                    FaultyEngine::wrap(
                        engine("node", CaptureOptions::default()).await,
                        fault.clone(),
                    ),
                    engine(other, CaptureOptions::default()).await,
                )
            } else {
                (
                    FaultyEngine::wrap(
                        engine(other, CaptureOptions::default()).await,
                        fault.clone(),
                    ),
                    engine("node", CaptureOptions::default()).await,
                )
            };
            let mut caused = 0;
            for line in 0..lines {
                // Node is always the first side.
                let mut pair = if side == 0 {
                    [&mut faulty, &mut honest]
                } else {
                    [&mut honest, &mut faulty]
                };
                let rec = common::lockstep_under(&mut pair, &p, &plan(line), &triage).await;
                for d in rec
                    .divergences
                    .iter()
                    .filter(|d| d.kind == DivergenceKind::BreakpointLocation)
                {
                    if placed(d, side) == real[line as usize][side] {
                        continue;
                    }
                    caused += 1;
                    assert!(
                        !excused(&rec, d),
                        "{fault:?} in side {side} against {other}, line {line}: {} excused: {:?}",
                        d.detail,
                        d.continued
                    );
                }
            }
            assert!(
                caused > 0,
                "{fault:?} in side {side} against {other}: caught"
            );
            faulty.shutdown().await;
            honest.shutdown().await;
        }
        o.shutdown().await;
    }
    node.shutdown().await;
}

/// Issue 66: Firefox's closing-brace rule took any second pause at a line's first column, so a
/// breakpoint pause the other debugger swallowed (it went on to a later breakpoint) passed for
/// SpiderMonkey's pause at a function's closing brace. The rule now asks the program's syntax
/// whether Firefox stands at a function body's closing brace. Real Node and Firefox agree on
/// the plan; Node with a planted fault that swallows the pause at `b = a + 1;` diverges there,
/// and that divergence is not excused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swallowed_breakpoint_pause_is_not_excused_as_firefoxs_closing_brace() {
    use faults::{Fault, FaultyEngine};
    let _g = SERIAL.lock().await;
    let triage = repo_triage();
    let (_dir, p) = inline(
        "swallowed.js",
        "var a, b, c;\nfunction f(x) {\n  return x + 1;\n}\na = f(1);\nb = a + 1;\nc = f(b);\na = c + b;\n",
    );
    let plan = Plan::Replay {
        actions: vec![
            Action::SetBreakpoint {
                line: 4,
                column: None,
            },
            Action::SetBreakpoint {
                line: 5,
                column: None,
            },
            Action::SetBreakpoint {
                line: 7,
                column: None,
            },
            Action::Start,
            Action::StepOver,
            Action::Resume,
        ],
    };
    let mut node = engine("node", CaptureOptions::default()).await;
    let mut firefox = engine("firefox", CaptureOptions::default()).await;
    let rec = common::lockstep_under(&mut [&mut node, &mut firefox], &p, &plan, &triage).await;
    assert!(rec.divergences.is_empty(), "{:?}", rec.divergences);
    let mut faulty = FaultyEngine::wrap(
        engine("node", CaptureOptions::default()).await,
        Fault::DropPausesAt { line: 5 },
    );
    let rec = common::lockstep_under(&mut [&mut faulty, &mut firefox], &p, &plan, &triage).await;
    let d = rec.divergences.first().expect("the swallowed pause shows");
    assert_eq!(d.kind, DivergenceKind::PauseLocation);
    assert_eq!(d.action, Action::StepOver);
    assert_eq!(d.detail, "paused at 8:1 vs 6:1");
    assert!(!excused(&rec, d), "{:?} {:?}", d.continued, rec.notes);
    for e in [&mut node, &mut firefox, &mut faulty] {
        e.shutdown().await;
    }
}

/// The fault layer's newer faults, each planted in Node against a real Node (one engine: no
/// difference between them is by design): a step into that steps over, a missed exception pause,
/// a pause where none should be, and every breakpoint reported a line off. Real Node against
/// itself agrees on every plan; each fault shows as a divergence, and no rule excuses it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn newer_planted_faults_show_between_two_nodes_and_none_is_excused() {
    use faults::{Fault, FaultyEngine};
    use morphtrace_schema::ExceptionPause;
    let _g = SERIAL.lock().await;
    let triage = repo_triage();
    let (_dir, p) = inline(
        "faults.js",
        "function inc(n) {\n  var m = n + 1;\n  return m;\n}\nvar total = 0;\nfor (var i = 0; i < 3; i++) {\n  total = inc(total);\n}\ntry {\n  throw new Error(\"boom\");\n} catch (e) {\n  total = total + 10;\n}\nvar last = total;\n",
    );
    let bp = |line| Action::SetBreakpoint { line, column: None };
    let cases = [
        (
            Fault::StepIntoAsOver,
            vec![bp(6), Action::Start, Action::StepInto, Action::StepInto],
            DivergenceKind::PauseLocation,
        ),
        (
            Fault::MissExceptionPause,
            vec![
                Action::PauseOnExceptions {
                    mode: ExceptionPause::All,
                },
                Action::Start,
                Action::Resume,
            ],
            DivergenceKind::Termination,
        ),
        (
            Fault::ExtraPause,
            vec![bp(6), Action::Start, Action::Resume, Action::Resume],
            DivergenceKind::PauseLocation,
        ),
        (
            Fault::ShiftBreakpoint,
            vec![bp(1), Action::Start, Action::Resume],
            DivergenceKind::BreakpointLocation,
        ),
    ];
    let mut node = engine("node", CaptureOptions::default()).await;
    let mut other = engine("node", CaptureOptions::default()).await;
    for (fault, actions, kind) in cases {
        let plan = Plan::Replay { actions };
        let rec = common::lockstep_under(&mut [&mut node, &mut other], &p, &plan, &triage).await;
        assert!(
            rec.divergences.is_empty(),
            "{fault:?}: {:?}",
            rec.divergences
        );
        let mut faulty = FaultyEngine::wrap(
            engine("node", CaptureOptions::default()).await,
            fault.clone(),
        );
        let rec = common::lockstep_under(&mut [&mut node, &mut faulty], &p, &plan, &triage).await;
        let d = rec
            .divergences
            .first()
            .unwrap_or_else(|| panic!("{fault:?} shows"));
        assert_eq!(d.kind, kind, "{fault:?}: {}", d.detail);
        assert!(
            rec.divergences.iter().all(|d| !excused(&rec, d)),
            "{fault:?}: {:?} {:?}",
            rec.divergences,
            rec.notes
        );
        faulty.shutdown().await;
    }
    node.shutdown().await;
    other.shutdown().await;
}

/// Issue 66: the rule on a class's own name while the class is defined, proven against planted
/// faults on each of its engines. Real Chromium against real Firefox and Bun: V8's
/// `<uninitialized>` in the static block is excused. Then a Chromium that hides the name, and a
/// Firefox or Bun that shows another function of the program in its place: each fault's
/// divergence shows at that pause, and none is excused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_class_own_name_rule_excuses_no_planted_fault() {
    use faults::{Fault, FaultyEngine};
    let _g = SERIAL.lock().await;
    let triage = repo_triage();
    let (_dir, p) = inline(
        "ownname.js",
        "let other = function () { return 0; };\nvar acc = 0;\nclass Quiet {\n  static {\n    acc = 1;\n  }\n}\nacc = other();\n",
    );
    let plan = Plan::Replay {
        actions: vec![
            Action::SetBreakpoint {
                line: 4,
                column: None,
            },
            Action::Start,
            Action::Resume,
        ],
    };
    let mut chromium = engine("chromium", CaptureOptions::default()).await;
    let mixed_up = || Fault::MixedUp {
        name: "Quiet".into(),
        as_: "other".into(),
    };
    for kind in ["firefox", "bun"] {
        let mut o = engine(kind, CaptureOptions::default()).await;
        let rec = common::lockstep_under(&mut [&mut chromium, &mut o], &p, &plan, &triage).await;
        assert!(
            rec.divergences
                .iter()
                .any(|d| d.detail.starts_with("Quiet: <uninitialized> vs "))
                && rec.divergences.iter().all(|d| excused(&rec, d)),
            "{kind}: {:?}",
            rec.divergences
        );
        o.shutdown().await;
        let mut faulty =
            FaultyEngine::wrap(engine(kind, CaptureOptions::default()).await, mixed_up());
        let rec =
            common::lockstep_under(&mut [&mut chromium, &mut faulty], &p, &plan, &triage).await;
        let d = rec
            .divergences
            .iter()
            .find(|d| {
                d.detail
                    .starts_with("Quiet: <uninitialized> vs Function { name: \"other\"")
            })
            .unwrap_or_else(|| panic!("{kind}: the mixed-up class shows: {:?}", rec.divergences));
        assert!(!excused(&rec, d) && d.continued.is_none(), "{kind}: {d:?}");
        faulty.shutdown().await;
    }
    chromium.shutdown().await;
    let mut firefox = engine("firefox", CaptureOptions::default()).await;
    let mut hiding = FaultyEngine::wrap(
        engine("chromium", CaptureOptions::default()).await,
        Fault::HideVariable {
            line: 4,
            name: "Quiet".into(),
        },
    );
    let rec = common::lockstep_under(&mut [&mut hiding, &mut firefox], &p, &plan, &triage).await;
    let d = rec
        .divergences
        .iter()
        .find(|d| d.detail.starts_with("Quiet only on the second side"))
        .unwrap_or_else(|| panic!("the hidden class name shows: {:?}", rec.divergences));
    assert!(!excused(&rec, d) && d.continued.is_none(), "{d:?}");
    hiding.shutdown().await;
    firefox.shutdown().await;
}

/// Issue 66: the rule on Firefox's error evaluating a name it shows optimized out, proven against
/// planted faults on Firefox. Real Chromium against real Firefox, paused in a constructor of a
/// class that never names itself: the variables difference (rule 40) and the evaluation of
/// `typeof Quiet` (Firefox throws SpiderMonkey's optimized-out error) are both excused. Then a
/// Firefox that shows another function of the program as `Quiet`, one that hides `Quiet`, and
/// one whose evaluations give a number one too high: each fault's divergence shows at that
/// pause and none is excused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_optimized_out_evaluation_rule_excuses_no_planted_fault() {
    use faults::Fault;
    let _g = SERIAL.lock().await;
    let triage = repo_triage();
    let (_dir, p) = inline(
        "quiet.js",
        "let other = function () { return 0; };\nclass Base {\n  constructor(n) { this.n = n; }\n}\nclass Quiet extends Base {\n  constructor(n) {\n    super(n);\n    this.extra = other();\n  }\n}\nnew Quiet(1);\n",
    );
    let evaluate = |e: &str| Action::Evaluate {
        expression: e.into(),
    };
    let plan = Plan::Replay {
        actions: vec![
            Action::SetBreakpoint {
                line: 7,
                column: None,
            },
            Action::Start,
            evaluate("typeof Quiet"),
            evaluate("n + 1"),
            Action::Resume,
        ],
    };
    let mut chromium = engine("chromium", CaptureOptions::default()).await;
    let mut firefox = engine("firefox", CaptureOptions::default()).await;
    let rec = common::lockstep_under(&mut [&mut chromium, &mut firefox], &p, &plan, &triage).await;
    assert!(
        rec.divergences.iter().any(|d| d
            .detail
            .ends_with("second side threw evaluating `Quiet`, a name it shows optimized out"))
            && rec.divergences.iter().all(|d| excused(&rec, d)),
        "{:?}",
        rec.divergences
    );
    firefox.shutdown().await;
    let plants = [
        (
            Fault::MixedUp {
                name: "Quiet".into(),
                as_: "other".into(),
            },
            "Quiet.name: \"Quiet\" vs \"other\"",
        ),
        (
            Fault::HideVariable {
                line: 7,
                name: "Quiet".into(),
            },
            "Quiet only on the first side",
        ),
        (Fault::WrongEvaluation, "evaluated 2 vs "),
    ];
    firefox_plants_show_unexcused(&mut chromium, plants, &p, &plan, &triage).await;
    chromium.shutdown().await;
}

/// Issue 66: the loop-head rule (SpiderMonkey at a loop body's first statement where V8 stands
/// in the head, one point of control) proven against planted faults on Firefox. Real Chromium
/// against real Firefox: a step into from the body's last statement is excused, and one more
/// step brings V8 to the body, where both show the next value. Then a Firefox whose step skips
/// an iteration (it stands at the same place, one value later), one whose step ends a statement
/// late, and one that never pauses on the body's first line: each fault's divergence shows and
/// none is excused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loop_head_rule_excuses_no_planted_fault() {
    use faults::Fault;
    let _g = SERIAL.lock().await;
    let triage = repo_triage();
    let (_dir, p) = inline(
        "rounds.js",
        "var acc = 0;\nfor (const y of [1, 2, 3]) {\n  acc = acc + y;\n  acc = acc * 2;\n}\nacc = acc + 1;\n",
    );
    let plan = from_a_breakpoint(3, &[Action::StepInto, Action::StepInto]);
    let mut chromium = engine("chromium", CaptureOptions::default()).await;
    let mut firefox = engine("firefox", CaptureOptions::default()).await;
    let rec = common::lockstep_under(&mut [&mut chromium, &mut firefox], &p, &plan, &triage).await;
    assert!(
        rec.divergences.len() == 1
            && rec.divergences[0].detail
                == "paused at 2:12 vs 3:3; first side at a for-in or for-of loop's head, the other at the first statement of its body"
            && excused(&rec, &rec.divergences[0]),
        "{:?}",
        rec.divergences
    );
    firefox.shutdown().await;
    let plants = [
        (Fault::SkipIteration { line: 2 }, "y: 2 vs 3"),
        (Fault::StepOnceMore { line: 2 }, "paused at 2:12 vs 4:3"),
        (Fault::DropPausesAt { line: 2 }, "paused at 2:12 vs 4:3"),
    ];
    firefox_plants_show_unexcused(&mut chromium, plants, &p, &plan, &triage).await;
    chromium.shutdown().await;
}

/// Each fault planted in Firefox, in lockstep with `chromium` on `p` under `plan`: a divergence
/// whose detail begins with its `shows` is met, lockstep stopped there, and no rule excuses it:
/// none matched, or the engines fell out of step past it, which leaves it new (an excuse whose
/// engines could not be brought back judges nothing).
async fn firefox_plants_show_unexcused(
    chromium: &mut Box<dyn Engine>,
    plants: impl IntoIterator<Item = (faults::Fault, &str)>,
    p: &corpus::Loaded,
    plan: &Plan,
    triage: &morphtrace_judges::triage::Triage,
) {
    for (fault, shows) in plants {
        let name = format!("{fault:?}");
        let mut faulty =
            faults::FaultyEngine::wrap(engine("firefox", CaptureOptions::default()).await, fault);
        let rec = common::lockstep_under(&mut [chromium, &mut faulty], p, plan, triage).await;
        let d = rec
            .divergences
            .iter()
            .find(|d| d.detail.starts_with(shows))
            .unwrap_or_else(|| panic!("{name}: the fault shows: {:?}", rec.divergences));
        assert!(
            (!excused(&rec, d) || fell_out_of_step(d)) && d.continued.is_none(),
            "{name}: {d:?}"
        );
        faulty.shutdown().await;
    }
}

fn fell_out_of_step(d: &morphtrace_schema::Divergence) -> bool {
    d.facts
        .iter()
        .any(|f| matches!(f, morphtrace_schema::fact::Fact::OutOfStep { .. }))
}

/// Issue 66: the heritage rule (Firefox stops where a `class … extends …` begins, V8 past it),
/// widened to a step out of a static block, proven against planted faults. Real Chromium against
/// real Firefox: the step out's divergence is excused and the engines meet at `let b`. Then a
/// Firefox that never pauses on `let b`'s line (its step over from the heritage runs past where
/// V8 stands: the engines fall out of step, which leaves the divergence new) and a Chromium that
/// never pauses there (its step out runs to the program's end): each fault shows in a divergence
/// no rule excuses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_heritage_rule_excuses_no_planted_fault_after_a_step_out() {
    use faults::{Fault, FaultyEngine};
    let _g = SERIAL.lock().await;
    let triage = repo_triage();
    let (_dir, p) = inline(
        "statics.js",
        "let a = 0;\nclass A {\n  static {\n    a = 1;\n  }\n}\nclass B extends A {}\nlet b = new B();\na = 2;\n",
    );
    let plan = from_a_breakpoint(3, &[Action::StepOut, Action::StepOver]);
    let heritage = "second side where a class declaration with a heritage begins";
    let mut chromium = engine("chromium", CaptureOptions::default()).await;
    let mut firefox = engine("firefox", CaptureOptions::default()).await;
    let rec = common::lockstep_under(&mut [&mut chromium, &mut firefox], &p, &plan, &triage).await;
    assert!(
        rec.divergences.iter().any(|d| d.detail.contains(heritage))
            && rec.divergences.iter().all(|d| excused(&rec, d)),
        "{:?}",
        rec.divergences
    );
    firefox_plants_show_unexcused(
        &mut chromium,
        [(Fault::DropPausesAt { line: 7 }, "paused at 8:9 vs 7:1")],
        &p,
        &plan,
        &triage,
    )
    .await;
    chromium.shutdown().await;
    let mut faulty = FaultyEngine::wrap(
        engine("chromium", CaptureOptions::default()).await,
        Fault::DropPausesAt { line: 7 },
    );
    let rec = common::lockstep_under(&mut [&mut faulty, &mut firefox], &p, &plan, &triage).await;
    assert!(
        rec.divergences
            .iter()
            .any(|d| !excused(&rec, d) || fell_out_of_step(d)),
        "{:?}",
        rec.divergences
    );
    faulty.shutdown().await;
    firefox.shutdown().await;
}
