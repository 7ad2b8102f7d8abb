//! Engines over a session's life: control actions, reuse, crashes and kills, the next session after one.

use super::*;
/// Control actions outside a program's life are refused alike by every adapter, and change
/// nothing: a step before `Start`, and a second `Start`.
async fn refuses_outside_the_programs_life(d: &mut Box<dyn Debugger>, kind: &str) {
    for a in [Action::StepOver, Action::Resume] {
        assert_eq!(
            d.control(&a).await.unwrap(),
            Output::Error {
                message: "the program has not started".into()
            },
            "{kind}: {a:?} before Start"
        );
    }
}

async fn control_actions(kind: &str) {
    let _g = SERIAL.lock().await;
    let mut e = engine(kind, CaptureOptions::default()).await;
    let p = fixture("prog.js");
    let mut d = open(&mut e, &p).await;
    for line in [1, 6, 9, 21] {
        d.set_breakpoint(line - 1, None).await.unwrap();
    }
    refuses_outside_the_programs_life(&mut d, kind).await;
    // Cookbook §1.5: 21:14 bp → stepInto → 8:15 → stepInto → 9:16 → stepOver → 9:21 → stepOut
    // → 3:13 (a breakpoint inside add interrupts the step out) → stepOver → 4:12.
    let p0 = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!(p0.location, at(21, 14), "{kind}");
    assert_eq!(
        d.control(&Action::Start).await.unwrap(),
        Output::Error {
            message: "the program already started".into()
        },
        "{kind}"
    );
    assert!(
        matches!(p0.reason, PauseReason::Breakpoint { .. }),
        "{kind}: {:?}",
        p0.reason
    );
    assert_eq!(p0.stack.len(), 1, "{kind}: only program frames");
    let p1 = paused(d.control(&Action::StepInto).await.unwrap());
    assert_eq!(p1.location, at(8, 15), "{kind}");
    assert_eq!(
        p1.stack
            .iter()
            .map(|f| f.function.as_str())
            .collect::<Vec<_>>(),
        ["compute", ""]
    );
    let p2 = paused(d.control(&Action::StepInto).await.unwrap());
    assert_eq!(p2.location, at(9, 16), "{kind}");
    // The step lands on the breakpoint of line 9: "ambiguous" with hitBreakpoints, a breakpoint stop.
    assert!(
        matches!(p2.reason, PauseReason::Breakpoint { .. }),
        "{kind}: {:?}",
        p2.reason
    );
    let p2b = paused(d.control(&Action::StepInto).await.unwrap());
    assert_eq!(p2b.reason, PauseReason::Step, "{kind}");
    assert_eq!(p2b.location, at(9, 21), "{kind}");
    let p4 = paused(d.control(&Action::StepOut).await.unwrap());
    assert_eq!(p4.location, at(3, 13), "{kind}");
    assert_eq!(p4.stack[0].function, "add");
    let p5 = paused(d.control(&Action::StepOver).await.unwrap());
    assert_eq!(p5.location, at(4, 12), "{kind}");
    // Resume runs through the remaining breakpoint hits to the end.
    let mut hits = 0;
    loop {
        match d.control(&Action::Resume).await.unwrap() {
            Output::Paused(_) => hits += 1,
            Output::Finished { outcome } => {
                assert_eq!(outcome, ProgramOutcome::Completed, "{kind}");
                break;
            }
            other => panic!("{kind}: {other:?}"),
        }
        assert!(hits < 20, "{kind}: resume never reached the end");
    }
    assert_eq!(d.console(), vec!["result 3".to_string()], "{kind}");
    // Nothing after the end: an action is answered by an error output, not a hang.
    assert_eq!(
        d.control(&Action::StepOver).await.unwrap(),
        Output::Error {
            message: "the program already ended (completed)".into()
        },
        "{kind}"
    );
    d.close().await;
    e.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_control_actions() {
    control_actions("chromium").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn node_control_actions() {
    control_actions("node").await;
}

async fn killed_mid_session(kind: &str) {
    let _g = SERIAL.lock().await;
    let mut e = engine(kind, CaptureOptions::default()).await;
    let p = fixture("prog.js");
    let mut d = open(&mut e, &p).await;
    d.set_breakpoint(20, None).await.unwrap();
    paused(d.control(&Action::Start).await.unwrap());
    let pid = e.pid().expect("browser pid");
    std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    let r = d.control(&Action::StepOver).await;
    assert!(
        r.is_err(),
        "a killed engine is an error, not an output: {r:?}"
    );
    let healthy = d.close().await;
    assert!(!healthy);
    // The next session relaunches the browser by itself.
    let mut d = open(&mut e, &p).await;
    assert!(matches!(
        d.control(&Action::Start).await.unwrap(),
        Output::Finished { .. }
    ));
    assert_ne!(e.pid(), Some(pid));
    d.close().await;
    e.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_killed_mid_session_then_next_session_works() {
    killed_mid_session("chromium").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn firefox_killed_mid_session_then_next_session_works() {
    killed_mid_session("firefox").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn firefox_control_actions() {
    let _g = SERIAL.lock().await;
    let mut e = engine("firefox", CaptureOptions::default()).await;
    let p = fixture("prog.js");
    let mut d = open(&mut e, &p).await;
    for line in [1, 6, 9, 21] {
        d.set_breakpoint(line - 1, None).await.unwrap();
    }
    refuses_outside_the_programs_life(&mut d, "firefox").await;
    let p0 = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!(p0.location, at(21, 14));
    assert_eq!(
        d.control(&Action::Start).await.unwrap(),
        Output::Error {
            message: "the program already started".into()
        }
    );
    assert_eq!(p0.stack.len(), 1, "only program frames");
    let p1 = paused(d.control(&Action::StepInto).await.unwrap());
    assert_eq!(p1.location, at(8, 15));
    let names: Vec<&str> = p1.stack.iter().map(|f| f.function.as_str()).collect();
    assert_eq!(names, ["compute", ""]);
    // Firefox says `resumeLimit` when a step lands on a breakpoint: still a breakpoint stop.
    let p2 = paused(d.control(&Action::StepInto).await.unwrap());
    assert_eq!(p2.location, at(9, 16));
    assert!(
        matches!(p2.reason, PauseReason::Breakpoint { .. }),
        "{:?}",
        p2.reason
    );
    let p3 = paused(d.control(&Action::StepInto).await.unwrap());
    assert_eq!((p3.location, &p3.reason), (at(9, 19), &PauseReason::Step));
    let p4 = paused(d.control(&Action::StepOut).await.unwrap());
    assert_eq!(p4.location, at(3, 13));
    assert_eq!(p4.stack[0].function, "add");
    let p5 = paused(d.control(&Action::StepOver).await.unwrap());
    assert_eq!(p5.location, at(4, 3));
    // Cookbook §3.8 item 9: `next` stops at the function's closing brace (V8 does not).
    let p6 = paused(d.control(&Action::StepOver).await.unwrap());
    assert_eq!(p6.location, at(5, 1));
    let mut hits = 0;
    loop {
        match d.control(&Action::Resume).await.unwrap() {
            Output::Paused(_) => hits += 1,
            Output::Finished { outcome } => {
                assert_eq!(outcome, ProgramOutcome::Completed);
                break;
            }
            other => panic!("{other:?}"),
        }
        assert!(hits < 20, "resume never reached the end");
    }
    assert_eq!(d.console(), vec!["result 3".to_string()]);
    assert!(matches!(
        d.control(&Action::StepOver).await.unwrap(),
        Output::Error { .. }
    ));
    assert!(d.close().await);
    // A session left paused: closing runs the page out, and the next session starts clean.
    let mut d = open(&mut e, &p).await;
    d.set_breakpoint(2, None).await.unwrap();
    paused(d.control(&Action::Start).await.unwrap());
    assert!(d.close().await, "a paused session closes cleanly");
    let mut d = open(&mut e, &p).await;
    assert!(matches!(
        d.control(&Action::Start).await.unwrap(),
        Output::Finished {
            outcome: ProgramOutcome::Completed
        }
    ));
    d.close().await;
    e.shutdown().await;
}

/// Chromium reuses a healthy session's target (reset: program terminated, breakpoints removed,
/// the program's frame replaced by a new one). A session on a reused target must not see
/// anything of the one before: not its breakpoints (URL breakpoints outlive frames), not its
/// globals, not what it tried to leave in the page, not its pause; and it must answer exactly
/// as on a brand-new target.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_reused_targets_start_clean() {
    let _g = SERIAL.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let load = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        corpus::load(&[path], dir.path()).unwrap().remove(0)
    };
    let leaky = load(
        "leaky.js",
        "var leaked = 1;\nfunction f(n) {\n  leaked += n;\n  return leaked;\n}\nfor (var i = 0; i < 3; i++) f(i);\nconsole.log(leaked);\n",
    );
    let probe = load("probe.js", "console.log(typeof leaked, typeof f);\n");
    // The program's frame is sandboxed: the page around it is out of its reach.
    let escape = load(
        "escape.js",
        "try { parent.leaked = 1; console.log('wrote'); } catch (e) { console.log(e.name); }\n",
    );
    // The same actions on a session: a breakpoint in f, start, two steps, a resume to the end.
    async fn run(e: &mut Box<dyn Engine>, p: &corpus::Loaded, to_end: bool) -> Vec<Output> {
        let mut d = open(e, p).await;
        let mut out = vec![d.set_breakpoint(2, None).await.unwrap()];
        for a in [Action::Start, Action::StepOver, Action::StepOver] {
            out.push(d.control(&a).await.unwrap());
        }
        if to_end {
            d.remove_breakpoint(morphtrace_schema::BreakpointId(0))
                .await
                .unwrap();
            out.push(d.control(&Action::Resume).await.unwrap());
            assert_eq!(d.console(), ["4"]);
        }
        assert!(d.close().await, "healthy");
        out
    }
    // Targets prepared ahead, hence reused.
    let mut e = engine("chromium", CaptureOptions::default()).await;
    // Left paused in f with its breakpoint set, four times over: the later sessions reuse it.
    let first = run(&mut e, &leaky, false).await;
    for _ in 0..3 {
        assert_eq!(run(&mut e, &leaky, false).await, first);
    }
    let full = run(&mut e, &leaky, true).await;
    assert_eq!(
        actual(&full[0]),
        [Location::new(2, 2)],
        "one breakpoint, not one per old document"
    );
    assert!(matches!(
        full.last(),
        Some(Output::Finished {
            outcome: ProgramOutcome::Completed
        })
    ));
    // A step off the program's end leaves Chromium unable to stop a later program on that page
    // at its breakpoints: the target must not be reused after it.
    let mut d = open(&mut e, &leaky).await;
    d.set_breakpoint(6, None).await.unwrap();
    paused(d.control(&Action::Start).await.unwrap());
    let mut steps = 0;
    while !matches!(
        d.control(&Action::StepOver).await.unwrap(),
        Output::Finished { .. }
    ) {
        steps += 1;
        assert!(steps < 5, "the program ends within a few steps");
    }
    assert!(d.close().await);
    assert_eq!(run(&mut e, &leaky, false).await, first);
    let mut d = open(&mut e, &probe).await;
    assert!(matches!(
        d.control(&Action::Start).await.unwrap(),
        Output::Finished { .. }
    ));
    assert_eq!(
        d.console(),
        ["undefined undefined"],
        "no globals of earlier programs"
    );
    d.close().await;
    for _ in 0..2 {
        let mut d = open(&mut e, &escape).await;
        d.control(&Action::Start).await.unwrap();
        assert_eq!(d.console(), ["SecurityError"], "the page is out of reach");
        d.close().await;
    }
    e.shutdown().await;
    // A browser that never reuses a target (nothing prepared ahead) answers the same.
    let mut fresh = EngineSpec::parse("chromium")
        .unwrap()
        .launch(&CaptureOptions::default(), 0)
        .await
        .unwrap();
    assert_eq!(run(&mut fresh, &leaky, false).await, first);
    assert_eq!(run(&mut fresh, &leaky, true).await, full);
    fresh.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bun_control_actions() {
    let _g = SERIAL.lock().await;
    let mut e = engine("bun", CaptureOptions::default()).await;
    let p = fixture("prog.js");
    let mut d = open(&mut e, &p).await;
    for line in [3, 9, 21] {
        d.set_breakpoint(line - 1, None).await.unwrap();
    }
    refuses_outside_the_programs_life(&mut d, "bun").await;
    // The program waits at its first statement, 21:1, where a breakpoint is: Start reports it.
    let p0 = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!(p0.location, at(21, 1));
    assert!(
        matches!(p0.reason, PauseReason::Breakpoint { .. }),
        "{:?}",
        p0.reason
    );
    assert_eq!(
        d.control(&Action::Start).await.unwrap(),
        Output::Error {
            message: "the program already started".into()
        }
    );
    assert_eq!(p0.stack.len(), 1, "only program frames");
    let p1 = paused(d.control(&Action::StepInto).await.unwrap());
    assert_eq!((p1.location, &p1.reason), (at(8, 3), &PauseReason::Step));
    let names: Vec<&str> = p1.stack.iter().map(|f| f.function.as_str()).collect();
    assert_eq!(names, ["compute", ""], "`global code` is the top level");
    let p2 = paused(d.control(&Action::StepInto).await.unwrap());
    assert_eq!(p2.location, at(9, 8));
    assert!(
        matches!(p2.reason, PauseReason::Breakpoint { .. }),
        "{:?}",
        p2.reason
    );
    let p3 = paused(d.control(&Action::StepInto).await.unwrap());
    assert_eq!((p3.location, &p3.reason), (at(9, 19), &PauseReason::Step));
    // The step out is interrupted by the breakpoint in add.
    let p4 = paused(d.control(&Action::StepOut).await.unwrap());
    assert_eq!(p4.location, at(3, 3));
    assert_eq!(p4.stack[0].function, "add");
    let v = var(&p4, "a");
    assert_eq!(v.value, Value::Number(0.0));
    let p5 = paused(d.control(&Action::StepOver).await.unwrap());
    assert_eq!(p5.location, at(4, 3));
    // As in Firefox (and unlike V8), stepping over `return` stops after the closing brace.
    let p6 = paused(d.control(&Action::StepOver).await.unwrap());
    assert_eq!(p6.location, at(5, 2));
    let mut hits = 0;
    loop {
        match d.control(&Action::Resume).await.unwrap() {
            Output::Paused(_) => hits += 1,
            Output::Finished { outcome } => {
                assert_eq!(outcome, ProgramOutcome::Completed);
                break;
            }
            other => panic!("{other:?}"),
        }
        assert!(hits < 20, "resume never reached the end");
    }
    assert_eq!(hits, 2, "add's breakpoint, twice more");
    assert_eq!(d.console(), vec!["result 3".to_string()]);
    assert!(matches!(
        d.control(&Action::StepOver).await.unwrap(),
        Output::Error { .. }
    ));
    assert!(d.close().await);
    e.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bun_killed_mid_session_then_next_session_works() {
    killed_mid_session("bun").await;
}

/// A program that aborts its own process is no engine crash: Bun's launcher keeps
/// `process.abort` and `process.kill` from programs (an exception), and Node, whose V8 reported
/// no failed check, loses its session as before (an engine error: the session is undecided).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_that_aborts_its_process_is_no_engine_crash() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("abort.js", "var x = 1;\nprocess.abort();\nx = 2;\n");
    let mut b = engine("bun", CaptureOptions::default()).await;
    let mut d = open(&mut b, &p).await;
    match d.control(&Action::Start).await.unwrap() {
        Output::Finished {
            outcome: ProgramOutcome::UncaughtException { message, .. },
        } => assert!(
            message.contains("process.abort is not available"),
            "{message}"
        ),
        other => panic!("bun: {other:?}"),
    }
    d.close().await;
    b.shutdown().await;
    let mut n = engine("node", CaptureOptions::default()).await;
    let mut d = open(&mut n, &p).await;
    let answered = d.control(&Action::Start).await;
    assert!(
        matches!(
            answered,
            Err(morphtrace_recorder::debugger::DebuggerError::Crashed(_))
        ),
        "node: {answered:?}"
    );
    d.close().await;
    n.shutdown().await;
}

/// Bun 1.4.5 aborts when resumed to a breakpoint in a `catch` whose parameter is a destructuring
/// pattern with a default (traces/findings/jsc-aborts-resumed-into-a-catch-parameter-with-a-default,
/// reduced from test262): the session answers that its engine crashed, with the signal, instead
/// of failing as a harness error, so that a differential judges it (a termination divergence).
/// The same engine, resumed past that `catch` without a breakpoint there, runs to the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bun_crash_is_the_answer_of_the_action_that_caused_it() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "catch.js",
        "try {\n throw [];\n} catch ([[x, y, z] = [4, 5, 6]]) {\n ranCatch = true;\n}\n",
    );
    let mut e = engine("bun", CaptureOptions::default()).await;
    for crash in [true, false] {
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(0, None).await.unwrap();
        if crash {
            d.set_breakpoint(2, None).await.unwrap();
        }
        assert_eq!(
            paused(d.control(&Action::Start).await.unwrap())
                .location
                .line,
            1
        );
        let resumed = d.control(&Action::Resume).await.unwrap();
        match (crash, resumed) {
            (
                true,
                Output::Finished {
                    outcome: ProgramOutcome::EngineCrashed { message },
                },
            ) => assert!(message.starts_with("bun died of SIG"), "{message}"),
            (false, Output::Finished { outcome }) => assert_eq!(outcome, ProgramOutcome::Completed),
            (_, other) => panic!("crash={crash}: {other:?}"),
        }
        // A crashed session asks for a new engine; the next one starts on it.
        if !d.close().await {
            e.restart().await.unwrap();
        }
    }
    e.shutdown().await;
}

/// V8 aborts when a frame is restarted while paused on an exception at its throw
/// (traces/findings/v8-crashes-restarting-a-frame-paused-at-a-throw): Node's process dies,
/// Chromium's renderer (`Inspector.targetCrashed`). Either is the engine's crash, the answer to
/// the restart, not a program that runs on; and the engine serves the next session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_renderer_or_process_is_an_engine_crash() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "restart-at-throw.js",
        "function f(a) {\n  try {\n    throw { code: a };\n  } catch (e) {\n    return e.code;\n  }\n}\nf(1);\n",
    );
    for kind in ["chromium", "node"] {
        let mut e = engine(kind, CaptureOptions::default()).await;
        let mut d = open(&mut e, &p).await;
        d.pause_on_exceptions(morphtrace_schema::ExceptionPause::All)
            .await
            .unwrap();
        let s = paused(d.control(&Action::Start).await.unwrap());
        assert_eq!(
            (s.location.line, s.reason.name()),
            (2, "exception"),
            "{kind}"
        );
        let out = d.control(&Action::RestartFrame { frame: 0 }).await.unwrap();
        assert!(
            matches!(
                &out,
                Output::Finished {
                    outcome: ProgramOutcome::EngineCrashed { .. }
                }
            ),
            "{kind}: {out:?}"
        );
        // Chromium's crashed target is not reused; Node's session had a process of its own.
        if !d.close().await {
            assert_eq!(kind, "chromium");
            e.restart().await.unwrap();
        }
        let mut d = open(&mut e, &p).await;
        assert!(matches!(
            d.control(&Action::Start).await.unwrap(),
            Output::Finished { .. }
        ));
        d.close().await;
        e.shutdown().await;
    }
}
