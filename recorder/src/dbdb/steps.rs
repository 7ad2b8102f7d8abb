//! The steps strategy's sessions (issue 68, "the debugger against itself"; the oracle is
//! `morphtrace_judges::steps`): one engine, the program run twice: once with a breakpoint on
//! every line, resumed from pause to pause, and once stepped into statement by statement from
//! that run's first pause. Both runs are plain replays of fixed actions; the session keeps both
//! traces (steps first) and the judge compares them.

use crate::corpus::Loaded;
use crate::debugger::engines::EngineSpec;
use crate::debugger::Engine;
use crate::session::Reissue;
use crate::task::{Plan, Task};
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_judges::steps::{self as judged, Breakpoints};
use morphtrace_schema::{
    Action, EngineKind, EngineRef, SessionMode, SessionOutcome, Trace, Warning,
};
use std::time::Duration;

/// Lines with a breakpoint at most: a longer program gets them on its first lines only.
pub const MAX_LINES: u32 = 2_000;

/// The tasks of a steps campaign: every program × engine, one engine per session. The session
/// has no random choice, so one seed (the first) stands for all.
pub fn tasks(
    specs: &[EngineSpec],
    programs: &[Loaded],
    seeds: &[u64],
    max_pauses: u32,
) -> Vec<Task> {
    let seeds = &seeds[..seeds.len().min(1)];
    super::tasks_over(
        specs,
        programs,
        seeds,
        false,
        "steps",
        SessionMode::Steps,
        |_| Plan::Steps { max_pauses },
    )
}

/// The breakpoints trace's actions, for a program of `lines` lines: a breakpoint on every line,
/// a start, then at most `max_pauses` resumes.
pub fn breakpoints_actions(lines: u32, max_pauses: u32) -> Vec<Action> {
    let lines = lines.clamp(1, MAX_LINES);
    let mut actions: Vec<Action> = (0..lines)
        .map(|line| Action::SetBreakpoint { line, column: None })
        .collect();
    actions.push(Action::Start);
    actions.extend(std::iter::repeat_n(Action::Resume, max_pauses as usize));
    actions
}

/// The steps trace's actions: one breakpoint, on the line of the breakpoints trace's first
/// pause, a start, then at most `max_pauses` steps into. The breakpoint stays: removing the
/// breakpoint a program is paused at makes Node 20's next step run past statements
/// (traces/findings/v8-11-a-step-after-removing-the-breakpoint-it-stands-at-skips-statements),
/// and where a step stops, a breakpoint adds no pause.
pub fn steps_actions(first_line: u32, max_pauses: u32) -> Vec<Action> {
    let mut actions = vec![
        Action::SetBreakpoint {
            line: first_line,
            column: None,
        },
        Action::Start,
    ];
    actions.extend(std::iter::repeat_n(Action::StepInto, max_pauses as usize));
    actions
}

/// When the engine's line breakpoints pause: JavaScriptCore's, at a line's start, on entering
/// the line (WebKit's `Breakpoint` matches a line and column-0 request at the first expression
/// run on the line each time it is entered; tests/debuggers/,
/// `javascriptcore_pauses_in_an_arrow_on_a_line_whose_breakpoint_is_at_its_start`).
/// gdb's and Delve's, at the line's first instruction and without columns to tell it from the
/// line's other stops (docs/gdb-mi-cookbook.md; tests/debuggers/native.rs,
/// `a_for_lines_breakpoint_pauses_at_its_initialization_only`; tests/debuggers/delve.rs,
/// `a_for_lines_breakpoint_pauses_at_its_initialization_only_on_delve`).
pub fn breakpoints_of(kind: &EngineKind) -> Breakpoints {
    match kind {
        EngineKind::Bun => Breakpoints::OnLineEntry,
        EngineKind::Gdb | EngineKind::Delve => Breakpoints::AtLineStart,
        _ => Breakpoints::AtPlace,
    }
}

/// Whether a step from a `yield` or `await` runs on to the resumption: V8's `Debug::Break`
/// (v8/src/debug/debug.cc) puts a step into or over at a suspend location into "generator
/// stepping" mode, which records the suspended generator and breaks when it resumes; Firefox
/// steps the same way (seen in every generated program with a generator or an `await`:
/// traces/steps-gen/README.md).
pub fn steps_run_to_resumption(kind: &EngineKind) -> bool {
    matches!(
        kind,
        EngineKind::Chromium | EngineKind::Node | EngineKind::Deno | EngineKind::Firefox
    )
}

/// Whether a step out of a frame stops again as the frame pops, at its closing brace
/// (SpiderMonkey's devtools server).
pub fn pauses_as_frames_pop(kind: &EngineKind) -> bool {
    matches!(kind, EngineKind::Firefox)
}

/// The two traces of a steps session, recorded one after the other on its one engine, and how
/// the session ended: the first undecided outcome of the two, else `ActionLimit` if either ran
/// out of actions, else `Finished`.
pub async fn traces(
    engines: &mut [&mut Box<dyn Engine>],
    refs: &[EngineRef],
    loaded: &Loaded,
    max_pauses: u32,
    policy: &ComparisonPolicy,
    timeout: Duration,
) -> (Vec<Trace>, SessionOutcome, Vec<(String, String)>) {
    let mut outcome = SessionOutcome::Finished;
    let mut notes = Vec::new();
    // The breakpoints trace first: the steps trace starts where it first paused.
    let by_breakpoints_actions = breakpoints_actions(loaded.file.lines, max_pauses);
    let mut by_breakpoints = crate::session::record(
        engines,
        refs,
        loaded,
        &mut Reissue {
            actions: &by_breakpoints_actions,
        },
        policy,
        None,
        timeout,
    )
    .await;
    notes.append(&mut by_breakpoints.notes);
    let o = by_breakpoints.final_outcome();
    if o.undecided().is_some() {
        return (by_breakpoints.traces, o, notes);
    }
    if o == SessionOutcome::ActionLimit {
        outcome = o;
    }
    let first_line = by_breakpoints
        .traces
        .first()
        .and_then(|t| t.pauses().next())
        .map_or(0, |p| p.location.line);
    let by_steps_actions = steps_actions(first_line, max_pauses);
    let mut by_steps = crate::session::record(
        engines,
        refs,
        loaded,
        &mut Reissue {
            actions: &by_steps_actions,
        },
        policy,
        None,
        timeout,
    )
    .await;
    notes.append(&mut by_steps.notes);
    let o = by_steps.final_outcome();
    let mut traces = by_steps.traces;
    traces.append(&mut by_breakpoints.traces);
    if o.undecided().is_some() {
        return (traces, o, notes);
    }
    if o == SessionOutcome::ActionLimit {
        outcome = o;
    }
    (traces, outcome, notes)
}

/// The warnings of a steps session's two traces on `engine` (`morphtrace_judges::steps`),
/// with the engine's facts and, for JavaScript, the program's run without a debugger (made,
/// or taken from the cache, on `engine`).
pub async fn judge(
    engine: &mut Box<dyn Engine>,
    loaded: &Loaded,
    traces: &[Trace],
) -> Result<Vec<Warning>, String> {
    let kind = engine.descriptor().kind.clone();
    let computed = crate::session::computes::computed(engine, &loaded.file).await;
    judged::judge(
        traces,
        judged::Context {
            breakpoints: breakpoints_of(&kind),
            steps_run_to_resumption: steps_run_to_resumption(&kind),
            pauses_as_frames_pop: pauses_as_frames_pop(&kind),
            continuations_run_unstepped: kind == EngineKind::Bun,
            // tests/debuggers/delve.rs, `delve_steps_against_its_breakpoints_on_go`.
            steps_follow_one_thread: kind == EngineKind::Delve,
            program: Some(&loaded.file.text),
            plain: computed.as_ref().map(|c| judged::Plain {
                ended: &c.ended,
                printed: &c.printed,
            }),
        },
    )
}
