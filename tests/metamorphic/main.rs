//! Interactive metamorphic testing against real Chromium and Node: the paper's Figure 1, full
//! chains of every transformation on the DBDB programs, injected faults caught by the relations
//! that should catch them, and a campaign through the `morphtrace-record` binary.
//! One test binary, a module per capability; this file holds what the modules share.

mod campaigns;
mod chains;
mod follow_ups;
mod modern;
mod planted;

#[path = "../common/mod.rs"]
mod common;
use common::normalized;
use common::root;

use morphtrace_recorder::corpus::{self, Loaded};
use morphtrace_recorder::debugger::engines::EngineSpec;
use morphtrace_recorder::debugger::{CaptureOptions, Engine};
use morphtrace_recorder::session::Reissue;
// Each test crate uses some of the faults.
#[allow(dead_code)]
#[path = "../support/faults.rs"]
mod faults;
use faults::{Fault, FaultyEngine};
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_judges::metamorphic as mm;
use morphtrace_recorder::metamorphic::{self, Chain, Context};
use morphtrace_recorder::task::{ChainParams, Pin, Plan, RandomParams};
use morphtrace_schema::{
    Action, ArchiveReader, EngineRef, EventKind, Language, Location, Output, PauseReason, Program,
    ProgramOrigin, Session, SessionId, SessionOutcome, Trace,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

pub(crate) const RECORD: &str = env!("CARGO_BIN_EXE_morphtrace-record");

pub(crate) fn dir() -> PathBuf {
    tempfile::tempdir().unwrap().keep()
}

pub(crate) fn inline(name: &str, text: &str) -> Loaded {
    let p = Program::new(
        Language::JavaScript,
        text,
        ProgramOrigin::Inline { name: name.into() },
    );
    corpus::materialize(p, &dir()).unwrap()
}

/// The DBDB programs bundled with the tests: ten SunSpider programs and the four manual ones.
pub(crate) fn dbdb() -> Vec<Loaded> {
    let mut specs = common::sunspider();
    specs.push(root().join("corpus/dbdb/manual"));
    let specs: Vec<String> = specs.iter().map(|p| p.display().to_string()).collect();
    corpus::load_specs(&specs, &dir()).unwrap()
}

pub(crate) async fn engine(kind: &str) -> Box<dyn Engine> {
    EngineSpec::parse(kind)
        .unwrap_or_else(|e| panic!("{kind}: {e} (run scripts/setup.sh)"))
        .launch(&CaptureOptions::default(), 1)
        .await
        .unwrap()
}

pub(crate) async fn chain(
    engine: &mut Box<dyn Engine>,
    program: &Loaded,
    params: &ChainParams,
) -> Chain {
    let policy = ComparisonPolicy::default();
    let workdir = dir();
    let mut coverage = None;
    let mut py_coverage = None;
    let mut ctx = Context {
        engine,
        engine_ref: EngineRef(0),
        policy: &policy,
        workdir: &workdir,
        coverage: &mut coverage,
        py_coverage: &mut py_coverage,
        node: "node".into(),
        session_timeout: Duration::from_secs(60),
        prelude: true,
    };
    metamorphic::run_chain(&mut ctx, "test", program, params, &[]).await
}

pub(crate) fn one(
    transformation: mm::Transformation,
    actions: Vec<Action>,
    pin: Pin,
) -> ChainParams {
    ChainParams {
        rounds: 1,
        transformations: vec![transformation],
        initial: Plan::Replay { actions },
        seed: 1,
        max_resync: 6,
        pin,
    }
}

pub(crate) fn bp(line: u32) -> Action {
    Action::SetBreakpoint { line, column: None }
}

/// (action, output, index of the output event) of a trace.
pub(crate) fn answered(t: &Trace) -> Vec<(Action, Output, u32)> {
    let mut out = Vec::new();
    let mut last = None;
    for (i, e) in t.events.iter().enumerate() {
        match &e.kind {
            EventKind::Action(a) => last = Some(a.clone()),
            EventKind::Output(o) => {
                if let Some(a) = last.take() {
                    out.push((a, o.clone(), i as u32));
                }
            }
        }
    }
    out
}

pub(crate) fn pause_line(o: &Output) -> Option<u32> {
    match o {
        Output::Paused(p) => Some(p.location.line),
        _ => None,
    }
}
