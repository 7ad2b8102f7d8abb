//! Real debugpy (pinned, from PyPI by scripts/setup.sh) on the machine's CPython, driven through
//! the recorder's Debug Adapter Protocol session: what it answers, normalized.
//! One test binary, a module per capability; this file holds what the modules share.

mod debugpy;
mod lockstep;
mod oracles;
mod pdb;

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

#[path = "../common/mod.rs"]
mod common;

// Each test crate uses some of the faults.
#[allow(dead_code)]
#[path = "../support/faults.rs"]
mod faults;

/// One interpreter start-up at a time keeps 2 cores from timing sessions out.
pub(crate) static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A program written for one test, loaded (the directory lives as long as the first value).
pub(crate) fn inline(name: &str, text: &str) -> (tempfile::TempDir, corpus::Loaded) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let p = corpus::load(&[path], dir.path()).unwrap().remove(0);
    (dir, p)
}

pub(crate) async fn debugpy(opts: CaptureOptions) -> Box<dyn Engine> {
    EngineSpec::parse("debugpy")
        .unwrap_or_else(|e| panic!("debugpy: {e}"))
        .launch(&opts, 1)
        .await
        .unwrap_or_else(|e| panic!("debugpy: {e} (run scripts/setup.sh)"))
}

pub(crate) async fn open(e: &mut Box<dyn Engine>, p: &corpus::Loaded) -> Box<dyn Debugger> {
    e.open(&p.file).await.unwrap().expect("program compiles")
}

/// Runs `text` (saved as `name`) from `Start`: what the start answered and what the program
/// printed.
pub(crate) async fn run_to_end(
    e: &mut Box<dyn Engine>,
    name: &str,
    text: &str,
) -> (Output, Vec<String>) {
    let (_dir, p) = inline(name, text);
    let mut d = open(e, &p).await;
    let out = d.control(&Action::Start).await.unwrap();
    let printed = d.console();
    d.close().await;
    (out, printed)
}

pub(crate) fn paused(o: Output) -> PauseState {
    match o {
        Output::Paused(p) => p,
        other => panic!("expected a pause, got {other:?}"),
    }
}

pub(crate) fn var<'a>(p: &'a PauseState, name: &str) -> &'a Value {
    p.top_scopes()
        .iter()
        .flat_map(|s| &s.variables)
        .find(|v| v.name == name)
        .map(|v| &v.value)
        .unwrap_or_else(|| panic!("no {name} at {:?}: {:?}", p.location, p.top_scopes()))
}

pub(crate) const VALUES: &str = r#"class Point:
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
pub(crate) async fn evaluates_and_sets_in_f(d: &mut Box<dyn Debugger>) {
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
