//! Debugpy alone: steps, values, conditions, logpoints, exception pauses, outcomes, determinism, the warm start, its tracers, and a planted fault the differential catches.

#[allow(unused_imports)]
use super::*;
#[allow(unused_imports)]
use crate::{lockstep::*, oracles::*, pdb::*};

/// Breakpoints, steps, values of every Python kind, evaluation and set, and the program's
/// output.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_steps_and_shows_python_values_exactly() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("values.py", VALUES);
    let mut e = debugpy(CaptureOptions::default()).await;
    let mut d = open(&mut e, &p).await;
    // Line 13 (0-based 12): `return a + 1`.
    let set = d.set_breakpoint(12, None).await.unwrap();
    assert!(
        matches!(&set, Output::BreakpointSet { id, actual, .. } if *id == BreakpointId(1) && actual == &vec![Location::new(12, 0)]),
        "{set:?}"
    );
    // A blank line: debugpy moves the breakpoint to the preceding line with code (pydevd:
    // "Adjust to the first preceding valid line"), `return a + 1`.
    let blank = d.set_breakpoint(13, None).await.unwrap();
    assert!(
        matches!(&blank, Output::BreakpointSet { actual, .. } if actual == &vec![Location::new(12, 0)]),
        "{blank:?}"
    );
    let p0 = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!(p0.location, Location::new(12, 0));
    // Both are on line 12 now: the second where debugpy moved it.
    assert_eq!(
        p0.reason,
        PauseReason::Breakpoint {
            ids: vec![BreakpointId(1), BreakpointId(2)]
        }
    );
    assert_eq!(
        p0.stack
            .iter()
            .map(|f| (f.function.as_str(), f.location.line))
            .collect::<Vec<_>>(),
        vec![("f", 12), ("", 15)]
    );
    assert_eq!(var(&p0, "a"), &Value::Number(3.0));
    assert_eq!(
        var(&p0, "big"),
        &Value::BigInt("18446744073709551616".into())
    );
    assert!(matches!(var(&p0, "neg"), Value::Number(x) if *x == 0.0 && x.is_sign_negative()));
    assert_eq!(var(&p0, "s"), &Value::String("it's\n\u{2063}".into()));
    match var(&p0, "d") {
        Value::Object {
            kind: ObjectKind::Map,
            class,
            entries: Some(entries),
            ..
        } => {
            assert_eq!(class, "dict");
            let keys: Vec<&Key> = entries.iter().map(|e| &e.key).collect();
            assert_eq!(
                keys,
                vec![
                    &Key::Value(Value::String("k".into())),
                    &Key::Value(Value::Number(7.0))
                ]
            );
            assert_eq!(entries[1].value, Value::Bool(true));
            match &entries[0].value {
                Value::Object {
                    kind: ObjectKind::Array,
                    entries: Some(list),
                    ..
                } => assert_eq!(
                    list.iter().map(|e| (&e.key, &e.value)).collect::<Vec<_>>(),
                    vec![
                        (&Key::Index(0), &Value::Number(1.0)),
                        (&Key::Index(1), &Value::Null)
                    ]
                ),
                other => panic!("d['k']: {other:?}"),
            }
        }
        other => panic!("d: {other:?}"),
    }
    match var(&p0, "p") {
        Value::Object {
            class,
            entries: Some(entries),
            ..
        } => {
            assert_eq!(class, "Point");
            assert_eq!(
                entries
                    .iter()
                    .map(|e| (&e.key, &e.value))
                    .collect::<Vec<_>>(),
                vec![
                    (&Key::Name("x".into()), &Value::Number(1.0)),
                    (&Key::Name("y".into()), &Value::Number(2.5))
                ]
            );
        }
        other => panic!("p: {other:?}"),
    }
    evaluates_and_sets_in_f(&mut d).await;
    // A name no scope binds is refused.
    assert!(matches!(
        d.set_variable("nowhere", "1").await.unwrap(),
        Output::Error { message } if message.contains("nowhere")
    ));
    // Step out to the caller; the set value came back from the call.
    let p1 = paused(d.control(&Action::StepOut).await.unwrap());
    assert_eq!(
        (p1.location.line, p1.reason.clone()),
        (15, PauseReason::Step)
    );
    let p2 = paused(d.control(&Action::StepOver).await.unwrap());
    assert_eq!(p2.location.line, 16);
    assert_eq!(var(&p2, "b"), &Value::Number(41.0));
    assert!(matches!(
        d.control(&Action::Resume).await.unwrap(),
        Output::Finished {
            outcome: ProgramOutcome::Completed
        }
    ));
    assert_eq!(d.console(), vec!["b is 41", "done"]);
    // After the end, settings and steps are refused, not sent.
    assert!(matches!(
        d.control(&Action::StepOver).await.unwrap(),
        Output::Error { message } if message.contains("already ended")
    ));
    d.close().await;
    e.shutdown().await;
}

pub(crate) const LOOP: &str = r#"def work(n):
    total = 0
    for k in range(n):
        total += k
        try:
            if k == 2:
                raise ValueError("two")
        except ValueError:
            total += 100
    return total


print(work(4))
"#;

/// Conditions hold where they say, logpoints log in order without pausing (and what their
/// expression throws), and exception pauses tell caught from uncaught.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_conditions_logpoints_and_exception_pauses() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("loop.py", LOOP);
    let mut e = debugpy(CaptureOptions::default()).await;
    let mut d = open(&mut e, &p).await;
    // `total += k` (0-based 3) only where k == 3; a logpoint on the loop's `try` (0-based 4)
    // logs k, one on the `if` below it logs a name that is not there.
    d.set_conditional_breakpoint(3, None, "k == 3")
        .await
        .unwrap();
    d.set_logpoint(4, None, "k * 10").await.unwrap();
    d.set_logpoint(5, None, "nothing").await.unwrap();
    // DAP keeps one breakpoint per line: a second on a line is refused, not merged.
    assert!(matches!(
        d.set_breakpoint(5, None).await.unwrap(),
        Output::Error { message } if message.contains("one breakpoint per line")
    ));
    d.pause_on_exceptions(ExceptionPause::All).await.unwrap();
    // The caught ValueError pauses where it is raised, and says what it is.
    let p0 = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!((p0.location.line, &p0.reason), (6, &PauseReason::Exception));
    match p0.exception.as_deref() {
        Some(Value::Object {
            class, description, ..
        }) => {
            assert_eq!(class, "ValueError");
            assert_eq!(description.as_deref(), Some("ValueError: two"));
        }
        other => panic!("{other:?}"),
    }
    let p1 = paused(d.control(&Action::Resume).await.unwrap());
    assert_eq!(p1.location.line, 3);
    assert_eq!(var(&p1, "k"), &Value::Number(3.0));
    assert!(matches!(
        d.control(&Action::Resume).await.unwrap(),
        Output::Finished {
            outcome: ProgramOutcome::Completed
        }
    ));
    assert_eq!(d.console(), vec!["106"]);
    let logged: Vec<(u32, String)> = d.logs().into_iter().map(|(b, t)| (b.0, t)).collect();
    let expected: Vec<(u32, String)> = (0..4)
        .flat_map(|k| {
            [
                (2, (k * 10).to_string()),
                (3, "threw NameError".to_string()),
            ]
        })
        .collect();
    assert_eq!(logged, expected);
    d.close().await;
    // Uncaught only: the caught exception does not pause.
    let mut d = open(&mut e, &p).await;
    d.pause_on_exceptions(ExceptionPause::Uncaught)
        .await
        .unwrap();
    assert!(matches!(
        d.control(&Action::Start).await.unwrap(),
        Output::Finished {
            outcome: ProgramOutcome::Completed
        }
    ));
    d.close().await;
    e.shutdown().await;
}

pub(crate) const THROWS: &str = "def f():\n    raise KeyError('boom')\n\nf()\n";
pub(crate) const ENDLESS: &str = "n = 0\nwhile True:\n    n += 1\n";
pub(crate) const ABORTS: &str = "import os\nos.abort()\n";

/// An uncaught exception, a syntax error, a program that never ends, one that exits with a
/// code and one that kills its interpreter: each ends its own session with its reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_program_outcomes() {
    let _g = SERIAL.lock().await;
    let opts = CaptureOptions {
        action_timeout: Duration::from_millis(2000),
        ..CaptureOptions::default()
    };
    let mut e = debugpy(opts).await;
    match run_to_end(&mut e, "throws.py", THROWS).await.0 {
        Output::Finished {
            outcome: ProgramOutcome::UncaughtException { message, location },
        } => {
            assert_eq!(message, "KeyError: 'boom'");
            assert_eq!(location, Some(Location::new(1, 0)));
        }
        other => panic!("{other:?}"),
    }
    let (_b, p) = inline("syntax.py", "x = 1\ny = = 2\n");
    match e.open(&p.file).await.unwrap() {
        Err(s) => {
            assert!(s.message.starts_with("SyntaxError"), "{}", s.message);
            assert_eq!(s.location, Some(Location::new(1, 0)));
        }
        Ok(_) => panic!("a syntax error compiled"),
    }
    assert_eq!(
        run_to_end(&mut e, "endless.py", ENDLESS).await.0,
        Output::Finished {
            outcome: ProgramOutcome::Timeout
        }
    );
    assert_eq!(
        run_to_end(
            &mut e,
            "exits.py",
            "import sys\nprint('bye')\nsys.exit(3)\n"
        )
        .await,
        (
            Output::Finished {
                outcome: ProgramOutcome::Completed
            },
            vec!["bye".to_string()]
        )
    );
    match run_to_end(&mut e, "aborts.py", ABORTS).await.0 {
        Output::Finished {
            outcome: ProgramOutcome::EngineCrashed { message },
        } => assert_eq!(message, "python died of SIGABRT"),
        other => panic!("{other:?}"),
    }
    // The engine goes on after all of them.
    assert_eq!(
        run_to_end(&mut e, "fine.py", "print(1 + 1)\n").await.1,
        vec!["2"]
    );
    e.shutdown().await;
}

pub(crate) const NONDETERMINISTIC: &str = r#"import random
import time

t0 = time.time()
values = [random.random() for _ in range(3)]
names = list({"alpha", "beta", "gamma", "delta"})
print(t0, values, names)
"#;

/// Random sessions that try every kind of action.
pub(crate) fn every_action() -> RandomParams {
    RandomParams {
        bp_per_line: 0.5,
        max_actions: 12,
        evaluate_weight: 1.0,
        condition_weight: 1.0,
        logpoint_weight: 1.0,
        set_variable_weight: 1.0,
        ..RandomParams::default()
    }
}

/// One random session's trace on `e` alone: its events, console and logs.
pub(crate) async fn one_random_trace(
    e: &mut Box<dyn Engine>,
    p: &corpus::Loaded,
    plan: &Plan,
) -> (Vec<EventKind>, Vec<String>, Vec<morphtrace_schema::LogLine>) {
    let rec: Recording = session::record(
        &mut [e],
        &[EngineRef(0)],
        p,
        &mut *plan.strategy().unwrap(),
        &ComparisonPolicy::default(),
        None,
        Duration::from_secs(60),
    )
    .await;
    let t = rec.traces.into_iter().next().expect("one trace");
    let events: Vec<EventKind> = t.events.into_iter().map(|e| e.kind).collect();
    (events, t.console, t.logs)
}

/// Behind the prelude, a program that reads the clock, the random source and a set of strings
/// runs the same twice: its output, and a random session's whole trace.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_random_sessions_are_deterministic() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("nondeterministic.py", NONDETERMINISTIC);
    let mut e = debugpy(CaptureOptions::default()).await;
    let params = every_action();
    let mut printed = Vec::new();
    for _ in 0..2 {
        let mut d = open(&mut e, &p).await;
        d.control(&Action::Start).await.unwrap();
        printed.push(d.console());
        d.close().await;
    }
    assert_eq!(printed[0], printed[1]);
    assert!(
        printed[0].len() == 1 && printed[0][0].starts_with("1577836800.001 "),
        "{printed:?}"
    );
    let plan = Plan::Random { params, seed: 7 };
    let mut traces = Vec::new();
    for _ in 0..2 {
        traces.push(one_random_trace(&mut e, &p, &plan).await);
    }
    assert!(
        traces[0].0.len() > 5,
        "a session with actions: {:?}",
        traces[0].0
    );
    assert_eq!(traces[0], traces[1]);
    e.shutdown().await;
}

/// What a program can see of how it was started: printed as JSON, one key a line.
pub(crate) const PROBE: &str = r#"import json, os, sys, threading
with open(os.path.join(os.path.dirname(__file__), "helper.py"), "w") as f:
    f.write("print('helper ran')\n")
import helper
seen = {
    "name": __name__, "file": __file__, "argv": sys.argv, "path": sys.path[:3],
    "cwd": os.getcwd(), "spec": repr(__spec__), "loader": type(__loader__).__name__,
    "builtins": type(__builtins__).__name__, "env": sorted(os.environ),
    "stdin": sys.stdin.read(), "threads": sorted(t.name for t in threading.enumerate()),
    "tty": sys.stdout.isatty(), "encoding": sys.stdout.encoding, "hash": hash("abc"),
    "flags": str(sys.flags), "xoptions": sys._xoptions, "helper": helper.__name__,
    "helper_file": helper.__file__, "traced": sys.gettrace() is not None,
    "main": sys.modules["__main__"].__dict__ is globals(), "executable": sys.executable,
    "modules": sorted(sys.modules),
}
for k, v in seen.items():
    print(k, json.dumps(v))
sys.stdout.flush()
os.write(1, b"written below print\n")
sys.exit(3)
"#;

/// The warm start (a child forked from a server that has imported debugpy, attached to the
/// session's adapter) and the cold one (debugpy's launcher) run a program alike: what it can see
/// of its start (its `__main__`, `__file__`, `sys.argv`, `sys.path`, working directory,
/// environment, imported modules, a sibling module's import, standard streams, interpreter
/// flags), its output (what Python prints and what goes to the file descriptor), how it ends
/// (an exit code, an exception, a signal), and a random session's whole trace for one seed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_starts_a_program_warm_as_it_starts_it_cold() {
    use morphtrace_recorder::debugger::PythonStart;
    let _g = SERIAL.lock().await;
    // The probe writes a module beside itself and imports it (its folder is first in
    // `sys.path`).
    let (_p, probe) = inline("probe.py", PROBE);
    let (_n, nondeterministic) = inline("nondeterministic.py", NONDETERMINISTIC);
    let params = every_action();
    let mut seen = Vec::new();
    for start in [PythonStart::Warm, PythonStart::Cold] {
        let mut e = debugpy(CaptureOptions {
            python_start: start,
            action_timeout: Duration::from_millis(3000),
            ..CaptureOptions::default()
        })
        .await;
        let details = &e.descriptor().details;
        let said = details
            .iter()
            .find(|(k, _)| k == "start")
            .map(|(_, v)| v.clone());
        let mut d = open(&mut e, &probe).await;
        let end = d.control(&Action::Start).await.unwrap();
        let printed = d.console();
        d.close().await;
        let outcomes = [
            run_to_end(&mut e, "throws.py", THROWS).await.0,
            run_to_end(&mut e, "aborts.py", ABORTS).await.0,
        ];
        let plan = Plan::Random {
            params: params.clone(),
            seed: 7,
        };
        let trace = one_random_trace(&mut e, &nondeterministic, &plan).await;
        e.shutdown().await;
        seen.push((start, said, end, printed, outcomes, trace));
    }
    // Each engine has its own sitecustomize folder (`morphtrace-python-` and six letters).
    for s in &mut seen {
        for line in &mut s.3 {
            while let Some(at) = line.find("morphtrace-python-") {
                let end = (at + "morphtrace-python-".len() + 6).min(line.len());
                line.replace_range(at..end, "<site>");
            }
        }
    }
    let (warm, cold) = (&seen[0], &seen[1]);
    assert!(
        warm.1.as_deref().is_some_and(|s| s.starts_with("warm")),
        "{:?}",
        warm.1
    );
    assert!(
        cold.1.as_deref().is_some_and(|s| s.starts_with("cold")),
        "{:?}",
        cold.1
    );
    // The probe ran to its end and printed every key, the sibling module's line first.
    assert_eq!(
        warm.2,
        Output::Finished {
            outcome: ProgramOutcome::Completed
        }
    );
    assert_eq!(warm.3.first().map(String::as_str), Some("helper ran"));
    assert_eq!(
        warm.3.last().map(String::as_str),
        Some("written below print")
    );
    assert!(
        warm.3.iter().any(|l| l.starts_with("name \"__main__\"")),
        "{:?}",
        warm.3
    );
    // Line by line, so that a difference names its key.
    for (w, c) in warm.3.iter().zip(&cold.3) {
        assert_eq!(w, c, "the program saw its start differently");
    }
    assert_eq!(warm.3.len(), cold.3.len());
    assert_eq!(warm.2, cold.2);
    assert_eq!(warm.4, cold.4);
    assert!(
        matches!(&warm.4[0], Output::Finished { outcome: ProgramOutcome::UncaughtException { message, .. } } if message == "KeyError: 'boom'"),
        "{:?}",
        warm.4[0]
    );
    assert!(
        matches!(&warm.4[1], Output::Finished { outcome: ProgramOutcome::EngineCrashed { message } } if message == "python died of SIGABRT"),
        "{:?}",
        warm.4[1]
    );
    assert!(
        warm.5 .0.len() > 5,
        "a session with actions: {:?}",
        warm.5 .0
    );
    assert_eq!(warm.5, cold.5, "one seed, one trace, warm or cold");
}

/// `debugpy` runs pydevd's compiled tracer, `debugpy+python` its pure-Python one: the program's
/// process shows which was loaded, and the archive's label and details say which ran.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_runs_under_each_tracer() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("tracer.py", "x = 1\nprint(x)\n");
    for (spec, compiled) in [("debugpy", true), ("debugpy+python", false)] {
        let parsed = EngineSpec::parse(spec).unwrap();
        let mut e = parsed.launch(&CaptureOptions::default(), 1).await.unwrap();
        let label = e.descriptor().label();
        assert!(
            label.ends_with(if compiled { "+cython" } else { "+python" }),
            "{label}"
        );
        // The recorded descriptor launches the same tracer again (replay, reduce).
        assert_eq!(
            EngineSpec::of(e.descriptor()).variant.as_deref(),
            Some(if compiled { "cython" } else { "python" })
        );
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(1, None).await.unwrap();
        paused(d.control(&Action::Start).await.unwrap());
        assert_eq!(
            d.evaluate("'_pydevd_bundle.pydevd_cython' in __import__('sys').modules")
                .await
                .unwrap(),
            Output::Evaluated {
                value: Value::Bool(compiled),
                threw: false
            },
            "{spec}"
        );
        d.close().await;
        e.shutdown().await;
    }
    assert!(EngineSpec::parse("debugpy+jit").is_err());
    assert!(EngineSpec::parse("node+python").is_err());
}

/// On a Python 3.12 or later, pydevd picks its `sys.monitoring` backend unless told otherwise:
/// `debugpy+sysmon` runs it, `debugpy+python` the `sys.settrace` tracer on the same interpreter
/// (the switch is set either way), and the program's process shows which one traces it
/// (`sys.monitoring`'s debugger tool, `sys.gettrace()`). On the machine's 3.11 `debugpy+sysmon`
/// is refused rather than run as settrace.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_runs_its_sys_monitoring_backend_on_a_newer_python() {
    let _g = SERIAL.lock().await;
    let newer = morphtrace_recorder::profilers::python::newer_pythons();
    let python = newer.first().unwrap_or_else(|| {
        panic!("no Python 3.12 or later on this machine (python3.12 on PATH, or pyenv's versions)")
    });
    let (_dir, p) = inline(
        "backend.py",
        "def f(x):\n    y = x + 1\n    return y\n\n\ndef main():\n    a = f(1)\n    return a + 1\n\n\nprint(main())\n",
    );
    let mut pauses = Vec::new();
    for (tracer, monitored) in [("python", false), ("sysmon", true)] {
        let spec = EngineSpec::parse(&format!("debugpy+{tracer}={}", python.display())).unwrap();
        let mut e = spec.launch(&CaptureOptions::default(), 1).await.unwrap();
        assert!(e.descriptor().label().ends_with(&format!("+{tracer}")));
        assert_eq!(
            EngineSpec::of(e.descriptor()).variant.as_deref(),
            Some(tracer)
        );
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(1, None).await.unwrap();
        let s = paused(d.control(&Action::Start).await.unwrap());
        let probe =
            "(__import__('sys').monitoring.get_tool(0), __import__('sys').gettrace() is None)";
        let Output::Evaluated {
            value: Value::Object {
                entries: Some(e0), ..
            },
            threw: false,
        } = d.evaluate(probe).await.unwrap()
        else {
            panic!("{tracer}: the probe did not evaluate");
        };
        let tool = e0[0].value.to_string();
        assert_eq!(
            (tool.contains("pydevd"), e0[1].value.clone()),
            (monitored, Value::Bool(monitored)),
            "{tracer}: tool {tool}"
        );
        let mut lines = vec![s.location.line.to_string()];
        while lines.len() < 8 {
            match d.control(&Action::StepOver).await.unwrap() {
                Output::Paused(s) => lines.push(s.location.line.to_string()),
                Output::Finished { .. } => {
                    lines.push("end".into());
                    break;
                }
                other => panic!("{tracer}: {other:?}"),
            }
        }
        pauses.push(lines);
        d.close().await;
        e.shutdown().await;
    }
    // Steps over from the breakpoint (0-based lines): into `return y`, then out of `f` into
    // `main`, then out of `main` into the top level. At a frame's end pydevd's settrace tracer
    // turns the step over into a step into and stops at the next line event, the caller's next
    // line (7), and then nowhere (the top level has no line left); its sys.monitoring backend
    // turns it into a step return and stops on the caller's line of the call (6, then 10), as the
    // JavaScript debuggers do. pydevd's own test of its backends expects exactly this
    // (`tests_python/test_debugger.py::test_case_11`: "Reverts to step in" / "Reverts to step
    // return"): the rule that judges these divergences by design rests on it (triage.toml).
    assert_eq!(
        pauses,
        [
            vec!["1", "2", "7", "end"],
            vec!["1", "2", "6", "7", "10", "end"]
        ]
    );
    let on_this = EngineSpec::parse("debugpy+sysmon").unwrap();
    match on_this.launch(&CaptureOptions::default(), 1).await {
        Err(e) => assert!(e.to_string().contains("needs Python 3.12"), "{e}"),
        Ok(_) => panic!("debugpy+sysmon ran on the machine's python3 (3.11)"),
    }
}

pub(crate) const PLANTED: &str = r#"def scale(v, k):
    out = v * k
    return out


total = 0
for i in range(3):
    total += scale(i, 2)
print(total)
"#;

/// A real debugpy beside one behind a DAP proxy that plants a fault in the protocol's
/// messages (`tests/support/dap-proxy.py`): the differential catches each fault at the action
/// where it shows, as the divergence kind it is; with no fault, the two agree.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fault_planted_in_debugpys_messages_is_caught_by_the_differential() {
    use morphtrace_recorder::debugger::engines::debugpy::{DebugpyEngine, Tracer};
    use morphtrace_schema::DivergenceKind;
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("planted.py", PLANTED);
    let python = EngineSpec::parse("debugpy").unwrap().executable;
    let proxy =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/support/dap-proxy.py");
    // Breakpoints on `out = v * k` (1-based line 2) and `print(total)` (line 9), then steps.
    let actions = vec![
        Action::SetBreakpoint {
            line: 1,
            column: None,
        },
        Action::SetBreakpoint {
            line: 8,
            column: None,
        },
        Action::Start,
        Action::StepOver,
        Action::StepOver,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
    ];
    let plan = Plan::Replay { actions };
    // (fault, the divergence's kind, the action it shows at); the proxy without a fault
    // changes nothing.
    for (fault, expected) in [
        (Some("none:0"), None),
        (
            Some("drop-stop:2"),
            Some((DivergenceKind::PauseLocation, 2)),
        ),
        (Some("hide:out"), Some((DivergenceKind::Variables, 3))),
        (
            Some("wrong-line:3"),
            Some((DivergenceKind::PauseLocation, 3)),
        ),
    ] {
        let mut real = debugpy(CaptureOptions::default()).await;
        let mut adapter = vec![python.display().to_string()];
        if let Some(f) = fault {
            adapter.extend([
                proxy.display().to_string(),
                f.to_string(),
                "--".to_string(),
                python.display().to_string(),
            ]);
        }
        adapter.extend(["-m".to_string(), "debugpy.adapter".to_string()]);
        let mut planted: Box<dyn Engine> = Box::new(
            DebugpyEngine::launch_through(
                python.clone(),
                Tracer::Cython,
                CaptureOptions::default(),
                1,
                adapter,
            )
            .await
            .unwrap(),
        );
        let rec = session::record(
            &mut [&mut real, &mut planted],
            &[EngineRef(0), EngineRef(1)],
            &p,
            &mut *plan.strategy().unwrap(),
            &ComparisonPolicy::default(),
            None,
            Duration::from_secs(60),
        )
        .await;
        let got = rec
            .divergences
            .first()
            .map(|d| (d.kind.clone(), d.action_index));
        assert_eq!(got, expected, "{fault:?}: {:?}", rec.divergences);
        real.shutdown().await;
        planted.shutdown().await;
    }
}
