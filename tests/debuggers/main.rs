//! Real Chromium, Node, Firefox and Bun (JavaScriptCore), driven through the recorder's adapters: the cookbook's facts.
//! One test binary (engines are started one test at a time, see `SERIAL`), a module per capability;
//! this file holds what the modules share.

mod breakpoints;
mod delve;
mod exceptions;
mod lifecycle;
mod lockstep;
mod native;
mod oracles;
mod planted;
mod reproducers;
mod stepping;
mod values;

use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_recorder::corpus;
use morphtrace_recorder::dbdb;
use morphtrace_recorder::debugger::engines::EngineSpec;
use morphtrace_recorder::debugger::rdp::BreakpointPolicy;
use morphtrace_recorder::debugger::{apply, CaptureOptions, Debugger, Engine};
use morphtrace_recorder::session::{self, Recording};
use morphtrace_recorder::task::Plan;
use morphtrace_schema::{
    Action, DivergenceKind, EngineRef, Key, Location, LocationSource, ObjectKind, Output,
    PauseReason, PauseState, ProgramOutcome, Value,
};
use std::path::Path;
use std::time::Duration;
#[path = "../common/mod.rs"]
mod common;

// Each test crate uses some of the faults.
#[allow(dead_code)]
#[path = "../support/faults.rs"]
mod faults;

/// Engine tests start browsers; one at a time keeps 2 cores from timing them out.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn fixture(name: &str) -> corpus::Loaded {
    let dir = tempfile::tempdir().unwrap().keep();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name);
    corpus::load(&[path], &dir).unwrap().remove(0)
}

/// A program written for one test, loaded (the directory lives as long as the first value).
fn inline(name: &str, text: &str) -> (tempfile::TempDir, corpus::Loaded) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let p = corpus::load(&[path], dir.path()).unwrap().remove(0);
    (dir, p)
}

async fn engine(kind: &str, opts: CaptureOptions) -> Box<dyn Engine> {
    EngineSpec::parse(kind)
        .unwrap_or_else(|e| panic!("{kind}: {e} (run scripts/setup.sh)"))
        .launch(&opts, 1)
        .await
        .unwrap()
}

async fn open(e: &mut Box<dyn Engine>, p: &corpus::Loaded) -> Box<dyn Debugger> {
    e.open(&p.file).await.unwrap().expect("program compiles")
}

/// 1-based line:column as the cookbook writes them → 0-based location.
fn at(line: u32, col1: u32) -> Location {
    Location::new(line - 1, col1 - 1)
}

fn actual(o: &Output) -> Vec<Location> {
    match o {
        Output::BreakpointSet { actual, .. } => actual.clone(),
        other => panic!("not a breakpoint output: {other:?}"),
    }
}

fn paused(o: Output) -> PauseState {
    match o {
        Output::Paused(p) => p,
        other => panic!("expected a pause, got {other:?}"),
    }
}

fn var<'a>(p: &'a PauseState, name: &str) -> &'a morphtrace_schema::Variable {
    p.top_scopes()
        .iter()
        .flat_map(|s| s.variables.iter())
        .find(|v| v.name == name)
        .unwrap_or_else(|| panic!("no variable {name} in {:?}", p.top_scopes()))
}

/// A breakpoint on `line` (0-based), the program started, then `steps`.
fn from_a_breakpoint(line: u32, steps: &[Action]) -> Plan {
    from_breakpoints(&[line], steps)
}

/// Breakpoints on `lines` (0-based), the program started, then `steps`.
fn from_breakpoints(lines: &[u32], steps: &[Action]) -> Plan {
    let mut actions: Vec<Action> = lines
        .iter()
        .map(|&line| Action::SetBreakpoint { line, column: None })
        .collect();
    actions.push(Action::Start);
    actions.extend_from_slice(steps);
    Plan::Replay { actions }
}

/// Chromium, Firefox and Bun, for a three-engine lockstep.
async fn three_engines() -> [Box<dyn Engine>; 3] {
    [
        engine("chromium", CaptureOptions::default()).await,
        engine("firefox", CaptureOptions::default()).await,
        engine("bun", CaptureOptions::default()).await,
    ]
}

/// The repository's own triage file, as the campaigns read it.
fn repo_triage() -> morphtrace_judges::triage::Triage {
    morphtrace_judges::triage::Triage::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../triage.toml"),
    )
    .unwrap()
}

/// Whether a rule excused `d` in `rec`: lockstep went on past it, or it stopped there only
/// because the engines could not be brought back in step (the note says which rule excused it).
fn excused(rec: &Recording, d: &morphtrace_schema::Divergence) -> bool {
    let at = format!("at action {},", d.action_index);
    d.continued
        .as_deref()
        .is_some_and(|c| c.starts_with("excused"))
        || rec
            .notes
            .iter()
            .any(|(k, v)| k == "lockstep stopped" && v.starts_with("excused") && v.contains(&at))
}
