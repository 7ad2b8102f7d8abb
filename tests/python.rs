//! Real debugpy (pinned, from PyPI by scripts/setup.sh) on the machine's CPython, driven through
//! the recorder's Debug Adapter Protocol session: what it answers, normalized.

use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_recorder::corpus;
use morphtrace_recorder::dbdb;
use morphtrace_recorder::debugger::engines::EngineSpec;
use morphtrace_recorder::debugger::{CaptureOptions, Debugger, Engine};
use morphtrace_recorder::session::Reissue;
use morphtrace_recorder::session::{self, Recording};
use morphtrace_recorder::task::{Plan, RandomParams};
use morphtrace_schema::{
    Action, BreakpointId, DivergenceKind, EngineRef, EventKind, ExceptionPause, Key, Location,
    ObjectKind, Output, PauseReason, PauseState, ProgramOutcome, Value,
};
use std::time::Duration;

mod common;

// Each test crate uses some of the faults.
#[allow(dead_code)]
#[path = "support/faults.rs"]
mod faults;

/// One interpreter start-up at a time keeps 2 cores from timing sessions out.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A program written for one test, loaded (the directory lives as long as the first value).
fn inline(name: &str, text: &str) -> (tempfile::TempDir, corpus::Loaded) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let p = corpus::load(&[path], dir.path()).unwrap().remove(0);
    (dir, p)
}

async fn debugpy(opts: CaptureOptions) -> Box<dyn Engine> {
    EngineSpec::parse("debugpy")
        .unwrap_or_else(|e| panic!("debugpy: {e}"))
        .launch(&opts, 1)
        .await
        .unwrap_or_else(|e| panic!("debugpy: {e} (run scripts/setup.sh)"))
}

async fn open(e: &mut Box<dyn Engine>, p: &corpus::Loaded) -> Box<dyn Debugger> {
    e.open(&p.file).await.unwrap().expect("program compiles")
}

/// Runs `text` (saved as `name`) from `Start`: what the start answered and what the program
/// printed.
async fn run_to_end(e: &mut Box<dyn Engine>, name: &str, text: &str) -> (Output, Vec<String>) {
    let (_dir, p) = inline(name, text);
    let mut d = open(e, &p).await;
    let out = d.control(&Action::Start).await.unwrap();
    let printed = d.console();
    d.close().await;
    (out, printed)
}

fn paused(o: Output) -> PauseState {
    match o {
        Output::Paused(p) => p,
        other => panic!("expected a pause, got {other:?}"),
    }
}

fn var<'a>(p: &'a PauseState, name: &str) -> &'a Value {
    p.top_scopes()
        .iter()
        .flat_map(|s| &s.variables)
        .find(|v| v.name == name)
        .map(|v| &v.value)
        .unwrap_or_else(|| panic!("no {name} at {:?}: {:?}", p.location, p.top_scopes()))
}

const VALUES: &str = r#"class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def f(a):
    big = 2 ** 64
    neg = -0.0
    s = 'it\'s\n\u2063'
    d = {"k": [1, None], 7: True}
    p = Point(1, 2.5)
    return a + 1


b = f(3)
print("b is", b)
print("done")
"#;

/// Paused in VALUES' `f` (a = 3): an evaluation on the frame, one that throws, and a set that
/// takes and is read back.
async fn evaluates_and_sets_in_f(d: &mut Box<dyn Debugger>) {
    assert_eq!(
        d.evaluate("a * 10 + len(s)").await.unwrap(),
        Output::Evaluated {
            value: Value::Number(36.0),
            threw: false
        }
    );
    match d.evaluate("missing + 1").await.unwrap() {
        Output::Evaluated {
            value: Value::Object { class, .. },
            threw: true,
        } => assert_eq!(class, "NameError"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        d.set_variable("a", "40").await.unwrap(),
        Output::VariableSet {
            name: "a".into(),
            value: Value::Number(40.0)
        }
    );
}

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

const LOOP: &str = r#"def work(n):
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

const THROWS: &str = "def f():\n    raise KeyError('boom')\n\nf()\n";
const ENDLESS: &str = "n = 0\nwhile True:\n    n += 1\n";
const ABORTS: &str = "import os\nos.abort()\n";

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

const NONDETERMINISTIC: &str = r#"import random
import time

t0 = time.time()
values = [random.random() for _ in range(3)]
names = list({"alpha", "beta", "gamma", "delta"})
print(t0, values, names)
"#;

/// Random sessions that try every kind of action.
fn every_action() -> RandomParams {
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
async fn one_random_trace(
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
const PROBE: &str = r#"import json, os, sys, threading
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

const PLANTED: &str = r#"def scale(v, k):
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

/// `debugpy` or `pdb`, with the default options.
async fn debugger(name: &str) -> Box<dyn Engine> {
    if name == "pdb" {
        pdb(CaptureOptions::default()).await
    } else {
        debugpy(CaptureOptions::default()).await
    }
}

async fn pdb(opts: CaptureOptions) -> Box<dyn Engine> {
    EngineSpec::parse("pdb")
        .unwrap_or_else(|e| panic!("pdb: {e}"))
        .launch(&opts, 0)
        .await
        .unwrap_or_else(|e| panic!("pdb: {e}"))
}

/// pdb over its own command interface: the same frame shows the same values as through
/// debugpy (named, ordered and grouped alike); its stops are its own (a step out stops where
/// the caller's next line starts); what it cannot do is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdb_steps_and_shows_the_values_debugpy_shows() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("values.py", VALUES);
    let mut views = Vec::new();
    for engine in ["debugpy", "pdb"] {
        let mut e = debugger(engine).await;
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(12, None).await.unwrap();
        let p0 = paused(d.control(&Action::Start).await.unwrap());
        assert_eq!(
            p0.reason,
            PauseReason::Breakpoint {
                ids: vec![BreakpointId(1)]
            },
            "{engine}"
        );
        views.push((p0.location, p0.stack.clone()));
        if engine == "pdb" {
            // What pdb cannot do.
            for refused in [
                d.set_logpoint(13, None, "a").await.unwrap(),
                d.pause_on_exceptions(ExceptionPause::All).await.unwrap(),
                d.set_breakpoint(13, None).await.unwrap(),
            ] {
                assert!(matches!(refused, Output::Error { .. }), "{refused:?}");
            }
            assert!(matches!(
                d.set_breakpoint(13, None).await.unwrap(),
                Output::Error { message } if message == "Blank or comment"
            ));
            // Each refused set took an id, as debugpy's would: lockstep names breakpoints by
            // the first engine's ids.
            assert!(matches!(
                d.set_breakpoint(16, None).await.unwrap(),
                Output::BreakpointSet { id, .. } if id == BreakpointId(5)
            ));
            d.remove_breakpoint(BreakpointId(5)).await.unwrap();
            evaluates_and_sets_in_f(&mut d).await;
            // `return` stops at f's return event, passed; the next stop is the caller's next
            // line (the call's line has no line event left).
            let out = paused(d.control(&Action::StepOut).await.unwrap());
            assert_eq!(out.location.line, 16);
            assert_eq!(var(&out, "b"), &Value::Number(41.0));
            assert!(matches!(
                d.control(&Action::Resume).await.unwrap(),
                Output::Finished {
                    outcome: ProgramOutcome::Completed
                }
            ));
            assert_eq!(d.console(), vec!["b is 41", "done"]);
        }
        d.close().await;
        e.shutdown().await;
    }
    assert_eq!(views[0], views[1], "debugpy's view, then pdb's");
}

/// Functions and classes whose names are protected (`_knobby`, `_Hidden`) among a frame's
/// variables, with public ones (`plain`, `Tray`) beside them.
const GROUPED: &str = "class Tray:
    def _knobby(self):
        return 1

    def plain(self):
        return 2
    marker = 3


def _private():
    return 0


def public():
    return 1


class _Hidden:
    pass


t = Tray()
print('done')
";

/// pdb shows a frame's functions and classes as debugpy groups them: pydevd's `get_var_scope`
/// puts a protected name (`_x`, `x__`) inline before it asks whether the value is a routine or
/// a class, so `_knobby` is a variable of the class body and `_private` a global, while
/// `plain` and `public` go to debugpy's `function variables` group, which neither view lists.
/// (pdb's driver once hid every routine: a class body's `_any_knobby` in a held-out program was
/// a `variables` divergence of ours.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdb_groups_a_frames_functions_and_classes_as_debugpy_does() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("grouped.py", GROUPED);
    let names = |p: &PauseState| -> Vec<Vec<String>> {
        p.top_scopes()
            .iter()
            .map(|s| s.variables.iter().map(|v| v.name.clone()).collect())
            .collect()
    };
    let mut views = Vec::new();
    for engine in ["debugpy", "pdb"] {
        let mut e = debugger(engine).await;
        let mut d = open(&mut e, &p).await;
        // `marker = 3` in the class body, `print` at the end (0-based lines).
        d.set_breakpoint(6, None).await.unwrap();
        d.set_breakpoint(22, None).await.unwrap();
        let body = paused(d.control(&Action::Start).await.unwrap());
        let end = paused(d.control(&Action::Resume).await.unwrap());
        assert_eq!((body.location.line, end.location.line), (6, 22), "{engine}");
        // The class body's locals: the protected method, not the public one.
        assert_eq!(names(&body)[0], vec!["_knobby".to_string()], "{engine}");
        let globals = names(&end).pop().unwrap();
        for shown in ["t", "_Hidden", "_private"] {
            assert!(globals.iter().any(|n| n == shown), "{engine}: {globals:?}");
        }
        for grouped in ["Tray", "public"] {
            assert!(
                !globals.iter().any(|n| n == grouped),
                "{engine}: {globals:?}"
            );
        }
        // `t`'s members: the bound protected method and the class attribute.
        let Value::Object {
            entries: Some(members),
            ..
        } = var(&end, "t")
        else {
            panic!("{engine}: t is {:?}", var(&end, "t"));
        };
        let members: Vec<String> = members
            .iter()
            .map(|m| match &m.key {
                Key::Name(n) => n.clone(),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(members, ["marker", "_knobby"], "{engine}");
        views.push((names(&body), names(&end), end.stack.clone()));
        d.close().await;
        e.shutdown().await;
    }
    assert_eq!(views[0], views[1], "debugpy's view, then pdb's");
}

/// Program code that the standard library calls back: `copy.deepcopy` calls `__reduce__`,
/// then `C()` (so `__init__`).
const LIBRARY_CALLS_BACK: &str = "import copy


class C:
    def __init__(self):
        self.a = 1

    def __reduce__(self):
        return (C, (), self.__dict__)


c = C()
d = copy.deepcopy(c)
print(d.a)
";

/// A step that leaves the program for the standard library stops at the next line back in the
/// program, also in program code the library calls: a step into `copy.deepcopy(c)` stops in
/// `__reduce__`, a step over its `return` in `__init__`, on debugpy (just my code) and on pdb
/// (bdb's `skip`); a step out of `__init__` then returns through the library to the top level.
/// pdb's driver once passed library frames with a `return` out of each, which
/// stepped over `__init__` to the caller's next line: a pause-location divergence of ours in a
/// held-out program (pyperformance's deepcopy).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_stop_in_program_code_the_standard_library_calls() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("calls_back.py", LIBRARY_CALLS_BACK);
    let mut seen = Vec::new();
    for engine in ["debugpy", "pdb"] {
        let mut e = debugger(engine).await;
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(12, None).await.unwrap();
        let mut stops = vec![paused(d.control(&Action::Start).await.unwrap())];
        for step in [Action::StepInto, Action::StepOver, Action::StepOut] {
            stops.push(paused(d.control(&step).await.unwrap()));
        }
        let at: Vec<(u32, String)> = stops
            .iter()
            .map(|p| (p.location.line, p.stack[0].function.clone()))
            .collect();
        assert_eq!(
            at[..3],
            [
                (12, String::new()),
                (8, "__reduce__".to_string()),
                (5, "__init__".to_string())
            ],
            "{engine}"
        );
        seen.push(at);
        d.close().await;
        e.shutdown().await;
    }
    // The step out of `__init__` returns through the library into the top level: debugpy on the
    // line of the call, pdb on the next line (the step-return difference triage.toml judges).
    assert_eq!(seen[0][3], (12, String::new()));
    assert_eq!(seen[1][3], (13, String::new()));
}

/// pdb's sessions end as debugpy's do: an uncaught exception, a syntax error, a program that
/// never ends, one that kills its interpreter.
/// `g` raises out of its frame into `f`, which catches it.
const RAISES_INTO_CALLER: &str = "def g(x):
    y = x + 1
    return [][y]

def f(x):
    try:
        return g(x)
    except IndexError:
        return -1

print(f(1))
";

/// A step out of a frame that an exception leaves stops in the calling function, on the line
/// of the call, in debugpy and in pdb alike (pdb at its exception event there; the session once
/// repeated its `return` from there and ran on). At the top level, with nothing to catch it,
/// both run to the uncaught end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_out_of_a_frame_an_exception_leaves_stops_in_the_caller() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("raises.py", RAISES_INTO_CALLER);
    let mut seen = Vec::new();
    for engine in ["debugpy", "pdb"] {
        let mut e = debugger(engine).await;
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(1, None).await.unwrap();
        let at = paused(d.control(&Action::Start).await.unwrap());
        assert_eq!(at.location.line, 1, "{engine}");
        let out = paused(d.control(&Action::StepOut).await.unwrap());
        let then = paused(d.control(&Action::StepOver).await.unwrap());
        seen.push((
            out.location.line,
            out.stack.len(),
            out.stack[0].function.clone(),
            then.location.line,
        ));
        d.close().await;
        e.shutdown().await;
    }
    assert_eq!(seen[0], (6, 2, "f".to_string(), 7), "debugpy");
    assert_eq!(seen[1], seen[0], "pdb as debugpy");
    // Uncaught: `h` raises out of `g` into the top level, which has no handler.
    let (_dir, p) = inline(
        "uncaught.py",
        "def g(x):\n    y = x + 1\n    return [][y]\n\ng(1)\nprint('never')\n",
    );
    for engine in ["debugpy", "pdb"] {
        let mut e = debugger(engine).await;
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(2, None).await.unwrap();
        paused(d.control(&Action::Start).await.unwrap());
        let out = d.control(&Action::StepOver).await.unwrap();
        assert!(
            matches!(
                &out,
                Output::Finished {
                    outcome: ProgramOutcome::UncaughtException { .. }
                }
            ),
            "{engine}: {out:?}"
        );
        d.close().await;
        e.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdb_program_outcomes() {
    let _g = SERIAL.lock().await;
    let mut e = pdb(CaptureOptions {
        action_timeout: Duration::from_millis(2000),
        ..CaptureOptions::default()
    })
    .await;
    assert_eq!(
        run_to_end(&mut e, "throws.py", THROWS).await.0,
        Output::Finished {
            outcome: ProgramOutcome::UncaughtException {
                message: "KeyError: 'boom'".into(),
                location: Some(Location::new(1, 0)),
            }
        }
    );
    let (_b, p) = inline("syntax.py", "x = 1\ny = = 2\n");
    match e.open(&p.file).await.unwrap() {
        Err(s) => assert_eq!(
            (s.message.as_str(), s.location),
            ("SyntaxError: invalid syntax", Some(Location::new(1, 0)))
        ),
        Ok(_) => panic!("a syntax error compiled"),
    }
    assert_eq!(
        run_to_end(&mut e, "endless.py", ENDLESS).await.0,
        Output::Finished {
            outcome: ProgramOutcome::Timeout
        }
    );
    assert_eq!(
        run_to_end(&mut e, "aborts.py", ABORTS).await.0,
        Output::Finished {
            outcome: ProgramOutcome::EngineCrashed {
                message: "python died of SIGABRT".into()
            }
        }
    );
    e.shutdown().await;
}

/// Lockstep goes on past pdb's and debugpy's understood breakpoint differences (triage.toml):
/// a breakpoint pdb refuses on a blank line is removed where debugpy placed it, one placed on
/// different lines is removed on both, and the two then pause alike at the next breakpoint.
/// debugpy and pdb in lockstep over `actions` on `p`, going on past what `triage.toml` excuses.
async fn debugpy_and_pdb_under_triage(p: &corpus::Loaded, actions: Vec<Action>) -> Recording {
    let a = debugpy(CaptureOptions::default()).await;
    let b = pdb(CaptureOptions::default()).await;
    under_triage(a, b, p, actions).await
}

/// Engines `a` and `b` in lockstep over `actions` on `p`, going on past what `triage.toml`
/// excuses; both shut down after.
async fn under_triage(
    mut a: Box<dyn Engine>,
    mut b: Box<dyn Engine>,
    p: &corpus::Loaded,
    actions: Vec<Action>,
) -> Recording {
    let triage = morphtrace_judges::triage::Triage::load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../triage.toml"),
    )
    .unwrap();
    let mut rec = Recording::new(&[EngineRef(0), EngineRef(1)]);
    session::run(
        &mut [&mut a, &mut b],
        &p.file,
        &p.program.hash,
        &mut Reissue { actions: &actions },
        &ComparisonPolicy::default(),
        Some(&triage),
        &mut rec,
    )
    .await
    .unwrap();
    a.shutdown().await;
    b.shutdown().await;
    rec
}

/// Each divergence of a lockstep recording: its action, its detail, whether it went on.
fn details(rec: &Recording) -> Vec<(&Action, &str, bool)> {
    rec.divergences
        .iter()
        .map(|d| (&d.action, d.detail.as_str(), d.continued.is_some()))
        .collect()
}

/// A breakpoint at `line` (0-based), run to it, a step out, a step over, resume.
fn break_then_step_out(line: u32) -> Vec<Action> {
    vec![
        bp(line),
        Action::Start,
        Action::StepOut,
        Action::StepOver,
        Action::Resume,
    ]
}

/// The lines of a trace's pauses, in order.
fn pause_lines(t: &morphtrace_schema::Trace) -> Vec<u32> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Output(Output::Paused(p)) => Some(p.location.line),
            _ => None,
        })
        .collect()
}

/// A program of comments and blank lines only: pdb itself never stops in it (bdb sees no line
/// event), so it takes no breakpoint, where debugpy takes one on line 1. The recorder's pdb says
/// that, the triage rule judges it by design, and lockstep goes on to both programs' end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_a_breakpoint_in_a_program_without_a_statement() {
    let _g = SERIAL.lock().await;
    let (dir, p) = inline("comments.py", "# nothing but a comment\n\n");
    // pdb alone, as a user runs it: no prompt, the program restarted again and again (with
    // no input, a pdb that prompted would read its end and quit).
    let python = EngineSpec::parse("pdb").unwrap().executable;
    let mut child = std::process::Command::new(&python)
        .args(["-m", "pdb"])
        .arg(dir.path().join("comments.py"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut buf = vec![0u8; 1 << 16];
        let mut got = Vec::new();
        while got.len() < 4096 {
            match std::io::Read::read(&mut stdout, &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
        String::from_utf8_lossy(&got).into_owned()
    });
    let said = reader.join().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        said.contains("The program finished and will be restarted") && !said.contains("(Pdb)"),
        "{said}"
    );
    let rec = debugpy_and_pdb_under_triage(&p, vec![bp(0), Action::Start]).await;
    assert_eq!(
        details(&rec),
        [(
            &bp(0),
            "second side refused the breakpoint: the program has no statement, so pdb never stopped in it",
            true
        )]
    );
    for t in &rec.traces {
        assert!(
            matches!(
                t.events.last().map(|e| &e.kind),
                Some(EventKind::Output(Output::Finished {
                    outcome: ProgramOutcome::Completed
                }))
            ),
            "{:?}",
            t.events
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_pdbs_and_debugpys_breakpoint_differences() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("planted.py", PLANTED);
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            // Blank (1-based line 4): pdb refuses, debugpy moves it up to `return out`.
            Action::SetBreakpoint {
                line: 3,
                column: None,
            },
            Action::SetBreakpoint {
                line: 1,
                column: None,
            },
            Action::Start,
            Action::StepOver,
            Action::Resume,
        ],
    )
    .await;
    assert_eq!(rec.divergences.len(), 1, "{:?}", rec.divergences);
    let d = &rec.divergences[0];
    assert_eq!(
        d.detail,
        "second side refused the breakpoint: Blank or comment"
    );
    // Judged by debugpy's own positions (the interpreter's line starts from `return out` to
    // the blank line: `return out`); pdb placed nothing to ask about.
    let asked: Vec<(EngineRef, Vec<Location>)> = d
        .facts
        .iter()
        .filter_map(|f| match f {
            morphtrace_schema::fact::Fact::BreakPositions {
                engine, positions, ..
            } => Some((*engine, positions.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(asked, [(EngineRef(0), vec![Location::new(2, 0)])]);
    // Both went on to the end of the plan, pausing alike at `out = v * k`.
    for t in &rec.traces {
        assert_eq!(pause_lines(t), vec![1, 2, 1], "{:?}", t.engine);
    }
    // The same refusal where pdb already has a breakpoint on the line debugpy moves this one
    // to (`return out`): the detail says so, and it is still pdb's `checkline`.
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            bp(2),
            bp(3),
            bp(1),
            Action::Start,
            Action::Resume,
            Action::Resume,
        ],
    )
    .await;
    assert_eq!(
        details(&rec),
        [(
            &bp(3),
            "second side refused the breakpoint: Blank or comment; second side already had a \
             breakpoint on the line where the other placed it",
            true
        )]
    );
    for t in &rec.traces {
        assert_eq!(pause_lines(t), vec![1, 2, 1], "{:?}", t.engine);
    }
}

/// Issue 66: a breakpoint debugpy and pdb place apart is judged by each one's own break
/// positions, asked at the divergence: debugpy's, the lines where its interpreter's compiled code
/// starts one (the table pydevd moves a breakpoint by); pdb's, the lines its own `checkline`
/// accepts. On the blank line 4 pdb refuses and debugpy moves the breakpoint up to `return out`,
/// as its positions say: excused. A debugpy that reports its breakpoints a line off (a planted
/// fault) says it placed this one on the blank line, where it has no position; a pdb that does
/// says `out = v * k`'s is on the next line, past a line it accepts: neither is excused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_breakpoints_placed_apart_are_judged_by_each_debuggers_own_positions() {
    use faults::{Fault, FaultyEngine};
    use morphtrace_schema::fact::Fact;
    use morphtrace_schema::DivergenceKind;
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("planted.py", PLANTED);
    let asked = |d: &morphtrace_schema::Divergence, e: u16| {
        d.facts.iter().find_map(|f| match f {
            Fact::BreakPositions {
                engine, positions, ..
            } if *engine == EngineRef(e) => Some(positions.clone()),
            _ => None,
        })
    };
    // The real debuggers on these plans: lockstep_goes_on_past_pdbs_and_debugpys_breakpoint_
    // differences (the refusal excused with debugpy's positions asked; `out = v * k`'s
    // breakpoint placed alike).
    let blank = vec![bp(3), bp(1), Action::Start, Action::Resume];
    let shifted = FaultyEngine::wrap(
        debugpy(CaptureOptions::default()).await,
        Fault::ShiftBreakpoint,
    );
    let rec = under_triage(shifted, pdb(CaptureOptions::default()).await, &p, blank).await;
    let d = rec.divergences.first().expect("the lie shows");
    assert_eq!(d.kind, DivergenceKind::BreakpointLocation);
    assert_eq!(asked(d, 0), Some(vec![]), "no position on the blank line");
    assert!(d.continued.is_none(), "{d:?} {:?}", rec.notes);

    let code = vec![bp(1), Action::Start, Action::Resume];
    let shifted = FaultyEngine::wrap(pdb(CaptureOptions::default()).await, Fault::ShiftBreakpoint);
    let rec = under_triage(debugpy(CaptureOptions::default()).await, shifted, &p, code).await;
    let d = rec.divergences.first().expect("the lie shows");
    assert_eq!(d.detail, "breakpoint at [2:1] vs [3:1]");
    assert_eq!(
        asked(d, 1),
        Some(vec![Location::new(1, 0), Location::new(2, 0)]),
        "pdb accepts both lines"
    );
    assert!(d.continued.is_none(), "{d:?} {:?}", rec.notes);
}

/// A step out of `f` returns into the caller in the middle of `b = f(3)`: debugpy stops there, on
/// the line of the call (pydevd's step return stops in the caller at once, as the JavaScript
/// debuggers do); pdb at the caller's next line event, `print("b is", b)` (bdb stops on a line
/// event, and the call's line has none left). The divergence says which side is on the call's
/// line, `triage.toml` judges it by design, and lockstep goes on: debugpy finishes the line with
/// a step over and both pause alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_a_step_that_returns_onto_the_line_of_the_call() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("values.py", VALUES);
    let rec = debugpy_and_pdb_under_triage(&p, break_then_step_out(12)).await;
    assert_eq!(rec.divergences.len(), 1, "{:?}", rec.divergences);
    let d = &rec.divergences[0];
    assert_eq!(d.action, Action::StepOut);
    assert!(
        d.detail.ends_with(
            "; first side on the caller's line of the call, second side on another line of the \
             caller"
        ),
        "{}",
        d.detail
    );
    assert!(d.continued.is_some(), "{d:?}");
    // debugpy: 12, 15 (the call), 16 (its catch-up step over), 17; pdb: 12, 16, 17.
    assert_eq!(pause_lines(&rec.traces[0]), vec![12, 15, 16, 17]);
    assert_eq!(pause_lines(&rec.traces[1]), vec![12, 16, 17]);
}

/// `b = g(f(3))`: a step out of `f` returns into the middle of the line, which calls `g` next.
const CALLS_ON_ONE_LINE: &str = "def f(a):
    return a + 1


def g(x):
    return x * 2


b = g(f(3))
print(b)
";

/// A step out of `f`: debugpy stops on the line of the call; pdb, stepping on from `f`'s return
/// event, at the next event anywhere, in `g` (bdb drops its stop frame when it returns). The
/// divergence says so, the rule judges it by design, and debugpy catches up with a step into
/// `g`. A step over `g`'s last line then brings both to `print(b)`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_a_step_out_that_pdb_continues_into_the_next_call() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("calls.py", CALLS_ON_ONE_LINE);
    let rec = debugpy_and_pdb_under_triage(&p, break_then_step_out(1)).await;
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOut,
            "paused at 9:1 vs 6:1; first side on the caller's line of the call, second side \
                 in a function called from that line",
            true
        ),]
    );
    assert_eq!(pause_lines(&rec.traces[0]), vec![1, 8, 5, 9]);
    assert_eq!(pause_lines(&rec.traces[1]), vec![1, 5, 9]);
}

/// A program with something for every program transformation of Table 1: a boolean, integers,
/// functions, and a statement that never runs (`print("big")`).
const TRANSFORMABLE: &str = r#"def scale(v, k):
    out = v * k
    if out > 100:
        print("big")
    return out


total = 0
flag = True
for i in range(3):
    total += scale(i, 2)
print(total, flag)
"#;

async fn chain(
    engine: &mut Box<dyn Engine>,
    program: &corpus::Loaded,
    params: &morphtrace_recorder::task::ChainParams,
) -> morphtrace_recorder::metamorphic::Chain {
    let policy = ComparisonPolicy::default();
    let workdir = tempfile::tempdir().unwrap();
    let (mut coverage, mut py_coverage) = (None, None);
    let mut ctx = morphtrace_recorder::metamorphic::Context {
        engine,
        engine_ref: EngineRef(0),
        policy: &policy,
        workdir: workdir.path(),
        coverage: &mut coverage,
        py_coverage: &mut py_coverage,
        node: "node".into(),
        session_timeout: Duration::from_secs(60),
        prelude: true,
    };
    morphtrace_recorder::metamorphic::run_chain(&mut ctx, "test", program, params, &[]).await
}

fn one(
    transformation: morphtrace_judges::metamorphic::Transformation,
    actions: Vec<Action>,
    line: Option<u32>,
) -> morphtrace_recorder::task::ChainParams {
    morphtrace_recorder::task::ChainParams {
        rounds: 1,
        transformations: vec![transformation],
        initial: Plan::Replay { actions },
        seed: 1,
        max_resync: 6,
        pin: morphtrace_recorder::task::Pin {
            line,
            ..Default::default()
        },
    }
}

/// A list comprehension calling `double` for each element.
const COMPREHENSION: &str = "def double(x):
    return x * 2


def run(xs):
    return [double(x) for x in xs]


print(run([1, 2]))
";

/// Why `replace-continue-by-step` may warn on debugpy where nothing is wrong: with breakpoints
/// in `double` and on the comprehension's line, a resume from `double` stops at the
/// comprehension's line as it runs again for the next element; a step out of `double` stops on
/// that line at once, where the call returned (mid-line), and the resume after it stops on the
/// same line again, at its breakpoint, as the line runs again. The pause the step made is one
/// the continue never makes (`triage.toml`'s rule on this warning).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_meets_a_breakpoint_again_on_the_line_a_step_out_stopped_on() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("comprehension.py", COMPREHENSION);
    let mut e = debugpy(CaptureOptions::default()).await;
    let mut pauses = Vec::new();
    for replaced in [Action::Resume, Action::StepOut] {
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(1, None).await.unwrap();
        d.set_breakpoint(5, None).await.unwrap();
        let mut seen = Vec::new();
        for a in [
            Action::Start,
            Action::Resume,
            Action::Resume,
            replaced,
            Action::Resume,
        ] {
            let q = paused(d.control(&a).await.unwrap());
            seen.push((q.location.line, q.reason.name().to_string()));
        }
        d.close().await;
        pauses.push(seen);
    }
    let at = |l: u32, r: &str| (l, r.to_string());
    // In `run`, in `<listcomp>` (the line runs for the first element), in `double`.
    let common = vec![
        at(5, "breakpoint"),
        at(5, "breakpoint"),
        at(1, "breakpoint"),
    ];
    let mut resumed = common.clone();
    resumed.extend([at(5, "breakpoint"), at(1, "breakpoint")]);
    let mut stepped = common;
    stepped.extend([at(5, "step"), at(5, "breakpoint")]);
    assert_eq!(pauses, vec![resumed, stepped]);
    e.shutdown().await;
}

/// `same(reflect(5, 2), 3)`: `sub` returns into `reflect`, which returns at once (`return
/// sub(a, b)`) into the top level's line, which calls `same` next.
const RETURNS_TWO_FRAMES: &str = "def sub(a, b):
    return a - b


def reflect(a, b):
    return sub(a, b)


def same(a, b):
    return a == b


print(same(reflect(5, 2), 3))
";

/// A step over `sub`'s last line: debugpy stops at `reflect`'s return, shown on the top
/// level's line of the call (pydevd's step over becomes a step into when its frame returns, and
/// a return event shows in the frame below); pdb at the next line or call event, in `same`. The
/// divergence says the caller is 2 frames down, the rule judges it by design, and debugpy
/// catches up with a step into `same`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_a_step_that_returns_two_frames_down() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("reflect.py", RETURNS_TWO_FRAMES);
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![bp(1), Action::Start, Action::StepOver, Action::Resume],
    )
    .await;
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOver,
            "paused at 13:1 vs 10:1; first side on the caller's line of the call 2 frames down, \
             second side in a function called from that line",
            true
        )]
    );
    assert_eq!(pause_lines(&rec.traces[0]), vec![1, 12, 9]);
    assert_eq!(pause_lines(&rec.traces[1]), vec![1, 9]);
}

/// A generator expression on `total`'s line, consumed by `sum`.
const GENEXPR: &str = "def total(xs):
    return sum(x * 2 for x in xs)


print(total([1, 2, 3]))
";

/// A step out of a `<genexpr>` frame with a breakpoint on its line: debugpy's settrace tracer
/// stops at the generator's first `yield`, shown in `total` (pydevd takes the yield for a return:
/// traces/findings/debugpy-a-step-out-of-a-generator-expression-stops-at-its-first-yield); pdb
/// runs on and stops in the generator at the breakpoint as it runs for the next element. The
/// divergence says pdb's side is one frame further in, in `<genexpr>`; the rule judges it a
/// debugpy fault, and lockstep goes on past the known bug (issue 66): debugpy, the side not
/// further in (read from the stacks, not from the rule), resumes once to pdb's pause, and the
/// plan's last resume goes on alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_debugpys_step_out_of_a_generator_expression_at_its_first_yield() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("genexpr.py", GENEXPR);
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            bp(1),
            Action::Start,
            Action::StepInto,
            Action::StepOut,
            Action::Resume,
        ],
    )
    .await;
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOut,
            "stack [total, ] vs [<genexpr>, total, ]; second side one frame further in, in \
             <genexpr>",
            true
        )]
    );
    let tops = |t: &morphtrace_schema::Trace| -> Vec<String> {
        t.pauses()
            .map(|p| {
                p.stack
                    .first()
                    .map(|f| f.function.clone())
                    .unwrap_or_default()
            })
            .collect()
    };
    let went = rec.divergences[0].continued.as_deref().unwrap_or_default();
    assert!(
        went.contains(
            "(engine bug), gone past: 1 extra resume(s) of the others brought the engines to pdb@"
        ),
        "{went}"
    );
    // debugpy's one extra resume, then the plan's resume on both, in the generator again.
    assert_eq!(
        tops(&rec.traces[0]),
        ["total", "<genexpr>", "total", "<genexpr>", "<genexpr>"]
    );
    assert_eq!(
        tops(&rec.traces[1]),
        ["total", "<genexpr>", "<genexpr>", "<genexpr>"]
    );
}

/// The same step out seen through a logpoint, between pydevd's two backends on a Python 3.12 or
/// later: with a logpoint (and no breakpoint) on the generator expression's line, a step into
/// the expression and out of it. The settrace tracer stops at the first `yield`, on `total`'s
/// line, before the logpoint fires again; the sys.monitoring backend runs the expression to its
/// end, the logpoint firing for each element left. The divergence says where the step out began,
/// the rule judges it the settrace tracer's fault, and lockstep goes on past it (issue 66: a known
/// bug ends no session; the answers agreed, so the engines stand where they did). The settrace
/// side then logs at the resume what it did not log during the step: that logpoint is set apart
/// for the rest of the session, and that echo is no second divergence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_past_where_the_settrace_tracer_steps_out_of_a_generator_expression_before_its_logpoint(
) {
    let _g = SERIAL.lock().await;
    let newer = morphtrace_recorder::profilers::python::newer_pythons();
    let python = newer.first().unwrap_or_else(|| {
        panic!("no Python 3.12 or later on this machine (python3.12 on PATH, or pyenv's versions)")
    });
    let (_dir, p) = inline("genexpr.py", GENEXPR);
    let launch = |tracer: &str| {
        let spec = EngineSpec::parse(&format!("debugpy+{tracer}={}", python.display())).unwrap();
        async move { spec.launch(&CaptureOptions::default(), 1).await.unwrap() }
    };
    let actions = vec![
        bp(1),
        Action::Start,
        Action::RemoveBreakpoint {
            id: BreakpointId(1),
        },
        Action::SetLogpoint {
            line: 1,
            expression: "x".into(),
            column: None,
        },
        Action::StepInto,
        Action::StepOut,
        Action::Resume,
    ];
    let rec = under_triage(launch("python").await, launch("sysmon").await, &p, actions).await;
    // The logpoint logs `x` for each element the sys.monitoring side runs after the step began.
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOut,
            "logpoints logged nothing vs #2 1 (line 1 of 0 vs 3); the step out began in a \
             generator expression, where first side logged nothing",
            true
        )]
    );
    let went = rec.divergences[0].continued.as_deref().unwrap_or_default();
    assert!(
        went.contains(
            "(engine bug), gone past: the engines are in step (they logged differently only)"
        ),
        "{went}"
    );
    // Both went on to the plan's last action and answered it.
    for t in &rec.traces {
        assert!(
            t.events.iter().any(|e| matches!(
                e.kind,
                morphtrace_schema::trace::EventKind::Action(Action::Resume)
            )),
            "{:?}",
            t.engine
        );
    }
}

/// A generator function consumed by a `for` loop, and one consumed by explicit `next` calls.
const GENERATOR_ENDS: &str = "def gen(n):
    for i in range(n):
        yield i
    done = n


def main():
    total = 0
    for v in gen(2):
        total += v
    it = gen(1)
    a = next(it)
    try:
        b = next(it)
    except StopIteration:
        b = 0
    return total + a + b


print(main())
";

/// A step over a generator's last statement (or a `<genexpr>`'s last element). Consumed by a
/// `for` loop or a built-in, pdb's step runs on to the next breakpoint or the program's end
/// (bdb ignores a generator's return events while stepping and waits for a StopIteration in the
/// caller, which CPython 3.11 raises in no frame here); debugpy stops in the caller. Consumed by
/// `next(it)`, pdb stops at the StopIteration exception event in the caller, on the line of the
/// call; debugpy on the caller's next line. The divergences say where the step began (from the
/// program's syntax) and, where pdb's driver saw the generator end, that it ended first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_that_ends_a_generator_on_debugpy_and_pdb() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("generator_ends.py", GENERATOR_ENDS);
    // The `for` loop's generator: debugpy in `main` at `it = gen(1)`, pdb at the breakpoint
    // again, in `gen(1)` (run on by the loop, the rest of `main` and the first `next`).
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![bp(3), Action::Start, Action::StepOver, Action::Resume],
    )
    .await;
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOver,
            "paused at 11:1 vs 4:1; second side stopped by a breakpoint, the other by its step; \
             the step began in a generator, which ended before the second side stopped",
            true
        )]
    );
    // An engine's fault (triage.toml judges this detail `engine-bug`, pdb ahead): debugpy
    // resumes to where pdb stands, and both go on.
    assert_eq!(
        (pause_lines(&rec.traces[0]), pause_lines(&rec.traces[1])),
        (vec![3, 10, 3], vec![3, 3])
    );
    // `next(it)`'s generator: pdb on `b = next(it)`, debugpy on `except StopIteration:`; pdb
    // finishes the line, and both go on to the end.
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            bp(3),
            Action::Start,
            Action::Resume,
            Action::StepOver,
            Action::Resume,
        ],
    )
    .await;
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOver,
            "paused at 15:1 vs 14:1; second side on the caller's line of the call, first side on \
             another line of the caller; the step began on a generator's last statement",
            true
        )]
    );
    assert_eq!(pause_lines(&rec.traces[0]), vec![3, 3, 14]);
    assert_eq!(pause_lines(&rec.traces[1]), vec![3, 3, 13, 14]);

    // A `<genexpr>` consumed by `set()`, stepped over at its last element: pdb runs on to the
    // breakpoint on `return ok`, and its driver saw the generator return for good first (the
    // pause's engine reason); debugpy's step ends on the statement's next line.
    let (_dir, p) = inline("genexpr_ends.py", GENEXPR_ENDS);
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            Action::SetConditionalBreakpoint {
                line: 1,
                condition: "locals().get('i') == 3".into(),
                column: None,
            },
            bp(3),
            Action::Start,
            Action::StepOver,
            Action::Resume,
        ],
    )
    .await;
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOver,
            "paused at 3:1 vs 4:1; second side stopped by a breakpoint, the other by its step; \
             the step began in a generator, which ended before the second side stopped",
            true
        )]
    );
    assert_eq!(
        (pause_lines(&rec.traces[0]), pause_lines(&rec.traces[1])),
        (vec![1, 2, 3], vec![1, 3])
    );
    let reasons: Vec<Option<&str>> = rec.traces[1]
        .pauses()
        .map(|p| p.engine_reason.as_deref())
        .collect();
    assert_eq!(
        reasons,
        vec![None, Some(morphtrace_judges::dbdb::GENERATOR_ENDED)]
    );
}

/// Two generator expressions on a statement of two lines, as pyperformance's nqueens has.
const GENEXPR_ENDS: &str = "def check(vec, cols):
    ok = (len(vec) == len(set(vec[i] + i for i in cols))
          == len(set(vec[i] - i for i in cols)))
    return ok


print(check((1, 3, 0, 2), range(4)))
";

/// `f`'s breakpoint has a condition over a name defined nowhere.
const RAISING_CONDITION: &str = "def f(a):
    b = a * 2
    return b


x = f(1)
y = f(2)
print(x + y)
";

/// A breakpoint whose condition raises: pdb stops there (bdb's `effective`), debugpy goes on
/// (its DAP mode skips suspending on a condition's exception). The recorder evaluates the
/// condition again on pdb's paused frame, the divergence says it threw, the rule judges it by
/// design, and pdb resumes until both have ended. A condition that does not raise and does not
/// hold stops neither.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_a_condition_that_raises() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("raising.py", RAISING_CONDITION);
    let at_f = |condition: &str| Action::SetConditionalBreakpoint {
        line: 1,
        condition: condition.into(),
        column: None,
    };
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![at_f("missing > 1"), bp(5), Action::Start, Action::Resume],
    )
    .await;
    // pdb stops in `f` for each call; the second call's pause, passed on the way back into
    // step, is a difference of its own, recorded as met there.
    let ended_apart = "first side ended (completed), second side paused at 2:1; second side at a \
                       breakpoint whose condition `missing > 1` threw NameError";
    assert_eq!(
        details(&rec),
        vec![
            (&Action::Resume, ended_apart, true),
            (&Action::Resume, ended_apart, true)
        ]
    );
    assert_eq!(met_in_resync(&rec), vec![false, true]);
    // pdb: `x = f(1)`, `f` for each call (its two extra resumes); debugpy: `x = f(1)` only.
    assert_eq!(pause_lines(&rec.traces[0]), vec![5]);
    assert_eq!(pause_lines(&rec.traces[1]), vec![5, 1, 1]);
    let checked: Vec<_> = rec.traces[1]
        .pauses()
        .map(|p| p.condition.as_ref().map(|c| c.threw))
        .collect();
    // Both of pdb's pauses in `f` checked: the second where the steps back into step met it.
    assert_eq!(checked, vec![None, Some(true), Some(true)]);

    // The same during a step over `x = f(1)`: bdb stops in `f` (a breakpoint's stop, reported
    // as one), debugpy's step goes on to `y = f(2)`, where a breakpoint is; pdb resumes to it.
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            at_f("missing > 1"),
            bp(5),
            bp(6),
            Action::Start,
            Action::StepOver,
            Action::Resume,
        ],
    )
    .await;
    assert_eq!(
        details(&rec),
        vec![
            (
                &Action::StepOver,
                "paused at 7:1 vs 2:1; second side at a breakpoint whose condition \
                 `missing > 1` threw NameError",
                true
            ),
            (
                &Action::Resume,
                "first side ended (completed), second side paused at 2:1; second side at a \
                 breakpoint whose condition `missing > 1` threw NameError",
                true
            )
        ]
    );
    assert_eq!(pause_lines(&rec.traces[0]), vec![5, 6]);
    assert_eq!(pause_lines(&rec.traces[1]), vec![5, 1, 6, 1]);
    let stopped_by = |t: &morphtrace_schema::Trace| -> Vec<bool> {
        t.pauses()
            .map(|p| matches!(p.reason, PauseReason::Breakpoint { .. }))
            .collect()
    };
    assert_eq!(stopped_by(&rec.traces[1]), vec![true, true, true, true]);

    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![at_f("a > 5"), bp(5), Action::Start, Action::Resume],
    )
    .await;
    assert!(rec.divergences.is_empty(), "{:?}", rec.divergences);
    assert_eq!(pause_lines(&rec.traces[1]), vec![5]);

    // The condition over a local not yet bound, on a comprehension's line: pdb stops on `f`'s
    // line and on each run of it in `<listcomp>`, debugpy at the next breakpoint; pdb alone
    // resumes until it is there too (debugpy stays).
    let (_dir, p) = inline("listcomp.py", LISTCOMP_CONDITION);
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            Action::SetConditionalBreakpoint {
                line: 1,
                condition: "b is None".into(),
                column: None,
            },
            bp(6),
            Action::Start,
            Action::Resume,
        ],
    )
    .await;
    // pdb's pause in `f` and each in `<listcomp>` (its elements, and the comprehension's end):
    // the first judged at the action, the others met on the way back into step.
    let apart = "paused at 7:1 vs 2:1; second side at a breakpoint whose condition `b is None` \
                 threw NameError";
    assert_eq!(details(&rec), vec![(&Action::Start, apart, true); 5]);
    assert_eq!(met_in_resync(&rec), vec![false, true, true, true, true]);
    assert_eq!(pause_lines(&rec.traces[0]), vec![6]);
    let pdb = pause_lines(&rec.traces[1]);
    assert!(
        pdb.len() > 3 && pdb[..pdb.len() - 1].iter().all(|&l| l == 1) && pdb.ends_with(&[1, 6]),
        "{pdb:?}"
    );
}

/// `b = [a * k for k in range(3)]`: a comprehension's line runs once in `f` and once per
/// element in `<listcomp>`.
const LISTCOMP_CONDITION: &str = "def f(a):
    b = [a * k for k in range(3)]
    return b


x = f(1)
print(x)
";

/// Which of the session's divergences were met while the engines were brought back in step
/// past the one before.
fn met_in_resync(rec: &Recording) -> Vec<bool> {
    rec.divergences
        .iter()
        .map(|d| d.continued.as_deref() == Some(morphtrace_recorder::session::MET_IN_RESYNC))
        .collect()
}

fn bp(line: u32) -> Action {
    Action::SetBreakpoint { line, column: None }
}

/// Table 1's program transformations on Python programs (spelled in Python, over
/// tree-sitter-python's tree; remove-dead-code by coverage.py): on the real debugpy each
/// follow-up keeps its relation to its parent. Behind the DAP proxy that drops the breakpoint
/// stop at one line, or misreports a frame's line there, inserted dead code moves the code
/// under that line away and the relation catches the difference; behind the one that hides the
/// fresh parameter, add-parameter does; without a fault, the same chains have no warning.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metamorphic_relations_hold_on_debugpy_and_catch_a_planted_fault() {
    use morphtrace_judges::metamorphic as mm;
    use morphtrace_recorder::debugger::engines::debugpy::{DebugpyEngine, Tracer};
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("transformable.py", TRANSFORMABLE);
    let actions = vec![
        bp(1),
        bp(4),
        bp(11),
        Action::Start,
        Action::StepOver,
        Action::StepInto,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
    ];
    let mut e = debugpy(CaptureOptions::default()).await;
    for t in [
        mm::Transformation::InsertDeadCode,
        mm::Transformation::AddNoOp,
        mm::Transformation::IntegerLiteral,
        mm::Transformation::BooleanLiteral,
        mm::Transformation::AddParameter,
        mm::Transformation::RemoveDeadCode,
    ] {
        let c = chain(&mut e, &p, &one(t, actions.clone(), None)).await;
        assert_eq!(c.sessions.len(), 2, "{t}: {:?}", c.sessions[0].outcome);
        let follow = &c.sessions[1];
        assert_eq!(follow.transformations.last().unwrap().name, t.name());
        assert!(follow.warnings.is_empty(), "{t}: {:?}", follow.warnings);
        let text = &c.programs.last().unwrap().text;
        match t {
            mm::Transformation::RemoveDeadCode => {
                assert!(!text.contains("print(\"big\")"), "{text}")
            }
            mm::Transformation::AddParameter => assert!(text.contains("_mt1=None"), "{text}"),
            mm::Transformation::BooleanLiteral => assert!(text.contains(" is "), "{text}"),
            _ => assert_ne!(text, TRANSFORMABLE),
        }
    }
    e.shutdown().await;

    let (_dir, p) = inline("planted.py", PLANTED);
    let python = EngineSpec::parse("debugpy").unwrap().executable;
    let proxy =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/support/dap-proxy.py");
    // Breakpoints on `out = v * k` and `print(total)` (1-based line 9); dead code goes in
    // before `total = 0`, so that `print(total)` moves to line 10.
    let actions = vec![
        bp(1),
        bp(8),
        Action::Start,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
    ];
    // Each fault against a relation whose follow-up it treats unlike the parent: a stop dropped,
    // or a frame's line misreported, at line 9 (the follow-up's `print(total)` is on line 10);
    // the fresh parameter `_mt1` hidden from the scopes. (A fault that does the same to parent
    // and follow-up, hiding `v` everywhere, is invisible to a relation between two runs of one
    // debugger: the differential catches that, `a_fault_planted_in_debugpys_messages_…`.)
    for (fault, transformation, warns) in [
        ("none:0", mm::Transformation::InsertDeadCode, None),
        (
            "drop-stop:9",
            mm::Transformation::InsertDeadCode,
            Some("expected the end (completed) as in the parent"),
        ),
        (
            "wrong-line:9",
            mm::Transformation::InsertDeadCode,
            Some("paused at 10:1 vs 9:1"),
        ),
        ("none:0", mm::Transformation::AddParameter, None),
        (
            "hide:_mt1",
            mm::Transformation::AddParameter,
            Some("the fresh parameter _mt1 is missing from the scope"),
        ),
    ] {
        let adapter = vec![
            python.display().to_string(),
            proxy.display().to_string(),
            fault.to_string(),
            "--".to_string(),
            python.display().to_string(),
            "-m".to_string(),
            "debugpy.adapter".to_string(),
        ];
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
        let pin = (transformation == mm::Transformation::InsertDeadCode).then_some(5);
        let c = chain(&mut planted, &p, &one(transformation, actions.clone(), pin)).await;
        assert_eq!(c.sessions.len(), 2, "{fault}");
        let warnings = &c.sessions[1].warnings;
        let said: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
        match warns {
            None => assert!(said.is_empty(), "{fault}, {transformation}: {said:?}"),
            Some(what) => assert!(
                said.len() == 1 && said[0].contains(what),
                "{fault}, {transformation}: {said:?}"
            ),
        }
        planted.shutdown().await;
    }
}

/// A breakpoint asked for inside a module's docstring is placed on the docstring's first line,
/// the program's first statement, where the session waits before `start`: `start` reports it
/// hit there, as debugpy stops there (the session once compared the line asked for, ran on,
/// and made 28 false metamorphic warnings).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_breakpoint_placed_on_the_first_statement_is_hit_at_start() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "docstring.py",
        "# A comment.\n\"\"\"\nThe module's docstring.\n\"\"\"\n\nx = 1\nprint(x)\n",
    );
    let mut e = debugpy(CaptureOptions::default()).await;
    let mut d = open(&mut e, &p).await;
    let set = d.set_breakpoint(2, None).await.unwrap();
    assert!(
        matches!(&set, Output::BreakpointSet { actual, .. } if actual == &vec![Location::new(1, 0)]),
        "{set:?}"
    );
    let at = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!(
        (at.location.line, at.reason.clone()),
        (
            1,
            PauseReason::Breakpoint {
                ids: vec![BreakpointId(1)]
            }
        )
    );
    d.close().await;
    e.shutdown().await;
}

const MISSED: &str = "hits = 0
for i in range(3):
    try:
        if i == 1: raise ValueError('one')
    except ValueError:
        hits += 1
last = hits
";

/// Issue 66 on DAP: a pause on an exception on one side only, where the other side paused at
/// the same place for a breakpoint, shows. A breakpoint on the line that raises in the loop's
/// second turn: real debugpy pauses there for the breakpoint twice, on the exception, then for
/// the breakpoint; against itself it agrees. debugpy with a planted fault that never pauses on
/// an exception stands at the third turn's breakpoint when the real one stands on the
/// exception: an exception divergence at that resume, not excused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missed_exception_pause_on_debugpy_shows_at_the_place_of_a_breakpoint_pause() {
    use faults::{Fault, FaultyEngine};
    use morphtrace_schema::DivergenceKind;
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("missed.py", MISSED);
    let actions = vec![
        Action::PauseOnExceptions {
            mode: ExceptionPause::All,
        },
        bp(3),
        Action::Start,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
    ];
    let rec = under_triage(
        debugpy(CaptureOptions::default()).await,
        debugpy(CaptureOptions::default()).await,
        &p,
        actions.clone(),
    )
    .await;
    assert!(rec.divergences.is_empty(), "{:?}", details(&rec));
    let faulty = FaultyEngine::wrap(
        debugpy(CaptureOptions::default()).await,
        Fault::MissExceptionPause,
    );
    let rec = under_triage(
        debugpy(CaptureOptions::default()).await,
        faulty,
        &p,
        actions,
    )
    .await;
    let d = rec.divergences.first().expect("the missed pause shows");
    assert_eq!(d.kind, DivergenceKind::Exception, "{}", d.detail);
    assert_eq!(d.action_index, 4, "{}", d.detail);
    assert_eq!(
        d.detail,
        "first side paused on an exception (threw ValueError: one), second side there for another reason (breakpoint)"
    );
    assert!(d.continued.is_none(), "{:?} {:?}", d.continued, rec.notes);
}

/// A program nobody instrumented by hand: functions calling functions (the stack), a loop
/// (hits), floats to their last digit, strings, booleans, `None`, and a `__repr__` that the
/// debugger itself calls when it shows the object (a record no breakpoint stops at).
const TRUTH: &str = r#"import math


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __repr__(self):
        label = "Vec"
        return "%s(%r, %r)" % (label, self.x, self.y)


def norm(v):
    squared = v.x * v.x + v.y * v.y
    root = math.sqrt(squared)
    return root


def walk(steps):
    total = 0.0
    name = "walk"
    done = False
    last = None
    for i in range(steps):
        v = Vec(i / 3, 1 - i / 7)
        total += norm(v)
        last = v
    done = True
    return total


result = walk(4)
print("total %.6f" % result)
"#;

/// The program with the debugger and without on Python (`dbdb::attached`): on debugpy and pdb
/// the real debugger changes nothing the program prints; one that prints a line of its own at
/// a pause is caught, in a session that ran to the end and, with `run-on`, in one that stopped
/// with the program paused (the honest run-on is the JavaScript test's).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_program_prints_the_same_under_debugpy_and_pdb_and_without() {
    use faults::Fault;
    use morphtrace_judges::attached::{Check, RELATION};
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("attached.py", TRUTH);
    let timeout = Duration::from_secs(120);
    // A breakpoint on `done = True` (run once), a step, a read, a resume to the end.
    let looking = vec![
        Action::SetBreakpoint {
            line: 28,
            column: None,
        },
        Action::Start,
        Action::StepOver,
        Action::Evaluate {
            expression: "total".into(),
        },
        Action::Resume,
    ];
    let stopped = looking[..3].to_vec();
    let printed = "printed line 1: \"printed by the debugger\" vs \"total 4.048489\"";
    for name in ["debugpy", "pdb"] {
        let (mut e, switch) = faults::FaultyEngine::switchable(debugger(name).await, Fault::Honest);
        for (fault, actions, want) in [
            (Fault::Honest, &looking, None),
            (
                Fault::PrintAtPause,
                &looking,
                Some(format!("with the debugger and without: {printed}")),
            ),
            (
                Fault::PrintAtPause,
                &stopped,
                Some(format!(
                    "run on to its end after the session's 3 actions, with the debugger and \
                     without: {printed}"
                )),
            ),
        ] {
            switch.set(fault.clone());
            let policy = ComparisonPolicy {
                attached_output: Check::RunOn,
                ..ComparisonPolicy::default()
            };
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
            let what = format!("{name}, {}, {} actions", fault.name(), actions.len());
            let setting = dbdb::attached::Setting {
                refs: &[EngineRef(0)],
                policy: &policy,
                timeout,
            };
            let mut notes = Vec::new();
            let w =
                dbdb::attached::judge(&mut [&mut e], &p, &rec.traces, &setting, &mut notes).await;
            let note = notes
                .iter()
                .find(|(k, _)| k == dbdb::attached::NOTE)
                .map(|(_, v)| v.as_str());
            match want {
                None => {
                    assert!(w.is_empty(), "{what}: {w:#?}");
                    assert_eq!(note, Some("alike (1 judged)"), "{what}");
                }
                Some(message) => {
                    assert_eq!(w.len(), 1, "{what}: {w:#?} {notes:?}");
                    assert_eq!(w[0].relation, RELATION, "{what}");
                    assert_eq!(w[0].message, message, "{what}");
                }
            }
        }
        e.shutdown().await;
    }
}

/// Ground truth on Python (issue 68): the program above, as its instrumented copy
/// (`corpus::truth`), is paused where it records its own state, on debugpy and on pdb alone.
/// The real debuggers contradict no record (and the object whose `__repr__` the debugger calls
/// records nothing the judge waits for); each planted fault contradicts the program in the way
/// that is its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ground_truth_catches_each_planted_fault_on_debugpy_and_pdb_alone() {
    use faults::Fault;
    use morphtrace_judges::truth::{judge, Context};
    let _g = SERIAL.lock().await;
    let (dir, original) = inline("truth.py", TRUTH);
    let python = EngineSpec::parse("debugpy").unwrap().executable;
    let p = corpus::truth::instrument(vec![original], Some(&python), dir.path())
        .unwrap()
        .remove(0);
    assert!(p.rejected.is_none(), "{:?}", p.rejected);
    assert!(
        p.program
            .text
            .contains("        __mt_truth__(5, 11); return \"%s(%r, %r)\""),
        "{}",
        p.program.text
    );
    let triage = morphtrace_judges::triage::Triage::default();
    // Seed 2's breakpoints leave the line after the first pause without one, so that the
    // extra pause's step (a resume turned into a step over) ends where no breakpoint is; with
    // seed 1 it ends on the next breakpoint, a pause no debugger could tell from the honest one.
    let plan = Plan::Truth {
        seed: 2,
        max_points: 256,
    };
    let planted = Fault::for_truth();
    for name in ["debugpy", "pdb"] {
        let (mut e, switch) = faults::FaultyEngine::switchable(debugger(name).await, Fault::Honest);
        let rec = common::lockstep_under(&mut [&mut e], &p, &plan, &triage).await;
        assert_eq!(
            rec.final_outcome(),
            morphtrace_schema::SessionOutcome::Finished,
            "{name}"
        );
        let t = &rec.traces[0];
        let pauses = t.pauses().count();
        assert!(pauses >= 10, "{name}: {pauses} pauses");
        assert!(
            t.console.iter().any(|l| l == "total 4.048489"),
            "{name}: {:?}",
            t.console
        );
        let w = judge(t, Context::default()).unwrap();
        assert!(w.is_empty(), "{name}, the real debugger: {w:#?}");
        for (fault, want) in &planted {
            switch.set(fault.clone());
            let rec = common::lockstep_under(&mut [&mut e], &p, &plan, &triage).await;
            let w = judge(&rec.traces[0], Context::default()).unwrap();
            assert!(
                w.iter().any(|w| w.relation == *want),
                "{name}, {}: no {want} among {w:#?} (pauses {:?})",
                fault.name(),
                rec.traces[0]
                    .pauses()
                    .map(|p| (p.location.to_string(), p.reason.name().to_string()))
                    .collect::<Vec<_>>()
            );
        }
        e.shutdown().await;
    }
}

/// The debugger against itself on Python (issue 68): the program above (not instrumented)
/// stepped into line by line and run from breakpoint to breakpoint, one on every line, on
/// debugpy and on pdb alone. The real debuggers' two traces agree and print what the program
/// prints; a step into that steps over leaves breakpoint pauses unreached, and a swallowed
/// breakpoint pause is a step's place missed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_debugger_against_itself_catches_planted_faults_on_debugpy_and_pdb_alone() {
    use faults::Fault;
    use morphtrace_judges::steps::relation;
    use morphtrace_schema::{EngineRef, SessionOutcome};
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("itself.py", TRUTH);
    let policy = ComparisonPolicy::default();
    let timeout = Duration::from_secs(120);
    for name in ["debugpy", "pdb"] {
        let (mut e, switch) = faults::FaultyEngine::switchable(debugger(name).await, Fault::Honest);
        for (fault, want) in [
            (Fault::Honest, ""),
            (Fault::StepIntoAsOver, relation::REACHED),
            (Fault::SwallowPause, relation::MISSED),
        ] {
            switch.set(fault.clone());
            let (traces, outcome, _) =
                dbdb::steps::traces(&mut [&mut e], &[EngineRef(0)], &p, 500, &policy, timeout)
                    .await;
            assert_eq!(
                outcome,
                SessionOutcome::Finished,
                "{name}, {}",
                fault.name()
            );
            let w = dbdb::steps::judge(&mut e, &p, &traces).await.unwrap();
            if fault == Fault::Honest {
                let pauses: Vec<usize> = traces.iter().map(|t| t.pauses().count()).collect();
                assert!(
                    pauses[0] >= pauses[1] && pauses[1] >= 20,
                    "{name}: {pauses:?} pauses"
                );
                assert!(w.is_empty(), "{name}, the real debugger: {w:#?}");
                for t in &traces {
                    assert!(
                        t.console.iter().any(|l| l == "total 4.048489"),
                        "{name}: {:?}",
                        t.console
                    );
                }
            } else {
                assert!(
                    w.iter().any(|w| w.relation == want),
                    "{name}, {}: no {want} among {w:#?}",
                    fault.name()
                );
            }
        }
        e.shutdown().await;
    }
}

/// Lines where debugpy and pdb place a breakpoint differently by design (blank and comment
/// lines, a docstring's inside, `else:`, a multi-line literal's lines) between lines with code.
const PLACEMENTS_APART: &str = "def f(x):
    \"\"\"A docstring
    over three lines.
    \"\"\"
    # a comment

    if x > 1:
        y = [
            x,
            x + 1,
        ]
    else:
        y = [x]
    return len(y)


total = 0
for i in range(6):
    # another comment
    total += f(i)
print(total)
";

/// `--breakpoint-lines placeable` (issue 70, Deliver 3): the breakpoints a differential sets
/// before the start go only on lines where debugpy and pdb each say one goes on that very
/// line, so no placement apart is tried; `any` (DBDB's draw) tries them, and triage excuses
/// them, on the same programs and seeds. The header says which was asked.
#[test]
fn breakpoints_go_only_where_both_debuggers_place_them_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("apart.py");
    std::fs::write(&prog, PLACEMENTS_APART).unwrap();
    // Lines (0-based) where a breakpoint stays on its line in both: a statement starts there
    // (the interpreter's line table: also the lines inside the list display) and pdb's checkline
    // accepts it.
    let placeable: Vec<u32> = vec![0, 6, 7, 8, 9, 12, 13, 16, 17, 19, 20];
    let mut placements_apart = Vec::new();
    for lines in ["placeable", "any"] {
        let out = dir.path().join(format!("{lines}.mtrace"));
        common::succeeded(
            std::process::Command::new(env!("CARGO_BIN_EXE_morphtrace-record"))
                .args(["run", "--strategy", "differential", "--engine", "debugpy"])
                .args(["--engine", "pdb", "--seeds", "1..6", "--bp-per-line", "0.5"])
                .args(["--breakpoint-lines", lines, "--corpus"])
                .arg(&prog)
                .arg("--out")
                .arg(&out),
        );
        let r = morphtrace_schema::ArchiveReader::open(&out).unwrap();
        let asked = r
            .header()
            .campaign
            .params
            .iter()
            .any(|(k, v)| k == "random.breakpoint_lines" && v == "placeable");
        assert_eq!(asked, lines == "placeable");
        let sessions: Vec<morphtrace_schema::Session> = r.sessions().map(|s| s.unwrap()).collect();
        assert_eq!(sessions.len(), 6);
        let mut set = 0;
        let mut apart = 0;
        for s in &sessions {
            for a in s.traces[0].actions() {
                if let (Action::SetBreakpoint { line, .. }, true) = (a, lines == "placeable") {
                    assert!(placeable.contains(line), "a breakpoint on line {line}");
                }
                set += usize::from(matches!(a, Action::SetBreakpoint { .. }));
            }
            apart += s
                .divergences
                .iter()
                .chain(&s.divergence)
                .filter(|d| d.kind == DivergenceKind::BreakpointLocation)
                .count();
        }
        assert!(set >= 6, "{set} breakpoints set");
        placements_apart.push(apart);
    }
    assert_eq!(
        placements_apart[0], 0,
        "placeable lines: no placement apart"
    );
    assert!(placements_apart[1] > 0, "any line: placements apart tried");
}
