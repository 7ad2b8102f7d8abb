//! The debugger abstraction every adapter implements (docs/design.md §6): normalized actions and outputs.

pub mod cdp;
pub mod dap;
pub mod determinism;
pub mod engines;
pub mod inspector;
pub mod jsc;
pub mod line_starts;
pub mod mi;
pub mod pdb;
mod quickack;
pub mod rdp;

use async_trait::async_trait;
use morphtrace_schema::{
    Action, BreakpointId, EngineDescriptor, ExceptionPause, Location, Output, ProgramOutcome,
};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Clone, thiserror::Error)]
pub enum DebuggerError {
    #[error("could not launch {engine}: {reason}")]
    Launch { engine: String, reason: String },
    #[error("the engine died: {0}")]
    Crashed(String),
    #[error("protocol: {0}")]
    Protocol(String),
    #[error("no answer: {0}")]
    Timeout(String),
}

/// What the adapter records and how long it waits.
#[derive(Debug, Clone)]
pub struct CaptureOptions {
    /// How deep objects are expanded (docs/design.md §2: bounded trees). 0 = type and description only.
    pub depth: u32,
    /// At most this many entries per object; more are marked `truncated`.
    pub max_entries: usize,
    /// Longest wait for a pause or the program's end after a control action (non-termination).
    pub action_timeout: Duration,
    /// Longest wait for any single protocol reply.
    pub call_timeout: Duration,
    /// How many program frames, top first, have their scopes read at a pause (0: every frame);
    /// the comparison compares the variables of every frame both sides read. pdb reads the
    /// top frame's only.
    pub frame_scopes: usize,
    /// Where Firefox breakpoints go (its server does not slide them; the adapter chooses).
    pub breakpoint_policy: crate::debugger::rdp::BreakpointPolicy,
    /// Relaunch a browser after this many sessions (0: never). Firefox only.
    pub restart_every: usize,
    /// Run the determinism prelude before every program (see `determinism`).
    pub prelude: bool,
    /// How debugpy starts a program (`--python-start`).
    pub python_start: PythonStart,
}

/// How debugpy starts a program: forked from a server that has imported debugpy (`Warm`,
/// `engines::forkserver`), or launched through debugpy's launcher as an IDE launches it
/// (`Cold`: two interpreters started and debugpy imported per session).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PythonStart {
    #[default]
    Warm,
    Cold,
}

impl Default for CaptureOptions {
    fn default() -> Self {
        CaptureOptions {
            depth: 2,
            max_entries: 50,
            action_timeout: Duration::from_secs(5),
            call_timeout: Duration::from_secs(10),
            frame_scopes: 1,
            breakpoint_policy: crate::debugger::rdp::BreakpointPolicy::default(),
            restart_every: 200,
            prelude: true,
            python_start: PythonStart::default(),
        }
    }
}

impl CaptureOptions {
    /// Whether the scopes of program frame `i` (0: the top) are read at a pause.
    pub fn scopes_of(&self, i: usize) -> bool {
        i == 0 || self.frame_scopes == 0 || i < self.frame_scopes
    }

    /// The header section a campaign records these options in (`schema::options`), read back
    /// by `recorded`; Firefox's breakpoint policy only where a Firefox runs.
    pub fn section(&self, firefox: bool) -> morphtrace_schema::options::Capture {
        morphtrace_schema::options::Capture {
            depth: Some(self.depth),
            frame_scopes: Some(self.frame_scopes),
            firefox_breakpoints: firefox.then(|| self.breakpoint_policy.name().to_string()),
            action_timeout: Some(self.action_timeout),
        }
    }

    /// The options a campaign was recorded with, from its archive's header: the capture depth,
    /// the frames whose scopes are read, Firefox's breakpoint policy and the action timeout
    /// (campaign parameters), and whether the determinism prelude ran (the `engines`' details).
    /// What the header does not say (older archives) is the default. Replaying, reducing or
    /// bisecting a session with other options could make "does not reproduce" ours.
    pub fn recorded(
        header: &morphtrace_schema::ArchiveHeader,
        engines: &[&EngineDescriptor],
    ) -> CaptureOptions {
        let d = CaptureOptions::default();
        let c = morphtrace_schema::options::Capture::read(&header.campaign);
        CaptureOptions {
            depth: c.depth.unwrap_or(d.depth),
            frame_scopes: c.frame_scopes.unwrap_or(d.frame_scopes),
            breakpoint_policy: c
                .firefox_breakpoints
                .and_then(|v| <rdp::BreakpointPolicy as clap::ValueEnum>::from_str(&v, false).ok())
                .unwrap_or(d.breakpoint_policy),
            action_timeout: c.action_timeout.unwrap_or(d.action_timeout),
            prelude: !engines.iter().any(|e| {
                e.details
                    .iter()
                    .any(|(k, v)| k == "determinism" && v.starts_with("off"))
            }),
            ..d
        }
    }
}

/// A program written to disk for the engines (Node needs a file; URLs must match for breakpoints).
#[derive(Debug, Clone)]
pub struct ProgramFile {
    pub language: morphtrace_schema::Language,
    pub path: PathBuf,
    pub url: String,
    pub text: String,
    pub lines: u32,
}

/// The program could not even be compiled.
#[derive(Debug, Clone)]
pub struct SyntaxError {
    pub message: String,
    pub location: Option<Location>,
}

/// One debugging session of one program on one engine.
#[async_trait]
pub trait Debugger: Send {
    /// `SetBreakpoint`: answers `BreakpointSet` (or `Error`).
    async fn set_breakpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
    ) -> Result<Output, DebuggerError>;
    /// `SetConditionalBreakpoint`: answers `BreakpointSet` (or `Error`), its id shared with
    /// plain breakpoints.
    async fn set_conditional_breakpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
        condition: &str,
    ) -> Result<Output, DebuggerError>;
    /// `RemoveBreakpoint`: answers `BreakpointRemoved`.
    async fn remove_breakpoint(&mut self, id: BreakpointId) -> Result<Output, DebuggerError>;
    /// `Start`, `Resume`, `StepInto`, `StepOver`, `StepOut`, `ContinueToLocation`: answers
    /// `Paused` or `Finished`.
    async fn control(&mut self, action: &Action) -> Result<Output, DebuggerError>;
    /// Whether the protocol can continue to a location (Firefox's cannot: its own UI sets a
    /// hidden breakpoint instead). Where it cannot, `ContinueToLocation` answers `Error`.
    fn continues_to_location(&self) -> bool {
        true
    }
    /// Whether the protocol can restart a frame (WebKit's cannot). Where it cannot,
    /// `RestartFrame` answers `Error`.
    fn restarts_frames(&self) -> bool {
        true
    }
    /// Whether `set_variable` assigns by evaluating an assignment on the frame (Firefox, WebKit),
    /// rather than by a request of its own that may change what an assignment cannot (CDP).
    fn sets_by_assignment(&self) -> bool {
        true
    }
    /// `SetVariable` on the top frame of the current pause: answers `VariableSet` with the
    /// value read back, or `Error` (`not_paused`, or what the engine refused).
    async fn set_variable(&mut self, name: &str, value: &str) -> Result<Output, DebuggerError>;
    /// `PauseOnExceptions`: answers `PauseOnExceptionsSet` (or `Error`). Before the program's
    /// end only.
    async fn pause_on_exceptions(&mut self, mode: ExceptionPause) -> Result<Output, DebuggerError>;
    /// `Evaluate` on the top frame of the current pause: answers `Evaluated`, or `Error` when
    /// the program is not paused (`not_paused`).
    async fn evaluate(&mut self, expression: &str) -> Result<Output, DebuggerError>;
    /// `SetLogpoint`: answers `BreakpointSet` (or `Error`), its id shared with breakpoints.
    /// What it logs comes through the console, marked (`log_arguments`), and is read by `logs`.
    async fn set_logpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
        expression: &str,
    ) -> Result<Output, DebuggerError>;
    /// The engine's own break positions from `from` to `to`, both included, in order, by its
    /// protocol's break-position query (a `fact::Fact::BreakPositions`): `Ok(None)` where the
    /// protocol has no such query (the default). Read-only: neither the program nor the
    /// breakpoints change.
    async fn break_positions(
        &mut self,
        _from: Location,
        _to: Location,
    ) -> Result<Option<Vec<Location>>, DebuggerError> {
        Ok(None)
    }
    /// Whether a breakpoint slides only to a position in the code of the function (or the
    /// top-level code) that holds the requested place, never into a function nested there
    /// (JavaScriptCore: docs/jsc-cookbook.md §3); V8 and SpiderMonkey take the next position.
    fn slides_within_its_function(&self) -> bool {
        false
    }
    /// Whether a breakpoint slides to the first break position the engine's code reaches at
    /// or after the requested place, rather than the first in the source (V8: its bytecode's
    /// order, `morphtrace_syntax::js::order`); its break positions are then listed in that order.
    fn slides_in_execution_order(&self) -> bool {
        false
    }
    /// Console output of the program so far, without what logpoints logged.
    fn console(&self) -> Vec<String>;
    /// What logpoints logged so far, in order: `(breakpoint, text)`.
    fn logs(&self) -> Vec<(BreakpointId, String)>;
    /// Ends the session and frees its target or process. Returns false if the engine must be restarted.
    async fn close(self: Box<Self>) -> bool;
}

/// The engine's own crash, if `status` is one: death by a fault signal (a failed assertion's
/// abort, a segmentation fault, …). The memory guard kills with SIGKILL and a program that exits
/// leaves an exit code, so neither reads as the engine's fault.
pub fn fault(engine: &str, status: std::process::ExitStatus) -> Option<String> {
    use std::os::unix::process::ExitStatusExt;
    let name = match status.signal()? {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGTRAP => "SIGTRAP",
        _ => return None,
    };
    let core = if status.core_dumped() {
        ", core dumped"
    } else {
        ""
    };
    Some(format!("{engine} died of {name}{core}"))
}

/// The session's life that every adapter enforces alike before a control action (docs/design.md §2): a
/// program starts once, runs only once started, and takes no control action after it ended.
/// Returns the `Error` output an engine-independent refusal gives, or `None` to go ahead.
pub fn refusal(action: &Action, started: bool, ended: Option<&ProgramOutcome>) -> Option<Output> {
    let message = match (action, ended) {
        (_, Some(outcome)) => format!("the program already ended ({})", outcome.name()),
        (Action::Start, None) if started => "the program already started".into(),
        (Action::Start, None) => return None,
        // Resume, the steps, continue to a location: they run a started program.
        (a, None) if a.is_control() && !started => "the program has not started".into(),
        (a, None) if a.is_control() => return None,
        (other, None) => format!("{other} is not a control action"),
    };
    Some(Output::Error { message })
}

/// One action on a debugger, whatever its kind: the one place actions are dispatched.
pub async fn apply(d: &mut dyn Debugger, action: &Action) -> Result<Output, DebuggerError> {
    match action {
        Action::SetBreakpoint { line, column } => d.set_breakpoint(*line, *column).await,
        Action::RemoveBreakpoint { id } => d.remove_breakpoint(*id).await,
        Action::PauseOnExceptions { mode } => d.pause_on_exceptions(*mode).await,
        Action::Evaluate { expression } => d.evaluate(expression).await,
        Action::SetConditionalBreakpoint {
            line,
            condition,
            column,
        } => {
            d.set_conditional_breakpoint(*line, *column, condition)
                .await
        }
        Action::SetLogpoint {
            line,
            expression,
            column,
        } => d.set_logpoint(*line, *column, expression).await,
        Action::SetVariable { name, value } => d.set_variable(name, value).await,
        Action::Start
        | Action::Resume
        | Action::StepInto
        | Action::StepOver
        | Action::StepOut
        | Action::ContinueToLocation { .. }
        | Action::RestartFrame { .. } => d.control(action).await,
    }
}

/// What every adapter answers to a setting after the program ended, `None` before.
pub fn after_the_end(ended: Option<&ProgramOutcome>) -> Option<Output> {
    ended.map(|outcome| Output::Error {
        message: format!("the program already ended ({})", outcome.name()),
    })
}

/// What a breakpoint does besides being where it is.
#[derive(Debug, Clone, Copy)]
pub enum Extra<'a> {
    Plain,
    /// Pauses only where this holds.
    Condition(&'a str),
    /// Never pauses; logs this expression's value.
    Log(&'a str),
}

/// Leads every console line a logpoint logs, before its breakpoint id: no program prints it
/// (an invisible separator, then our name).
pub const LOG_MARK: &str = "\u{2063}morphtrace-log";

/// The console arguments a logpoint logs, as JavaScript: the mark, the breakpoint's id and the
/// expression's value, or `threw NAME` when evaluating it threw (engines word the message
/// differently; the error's name they share). Every protocol's logpoint logs these.
pub fn log_arguments(id: BreakpointId, expression: &str) -> String {
    format!(
        "{}, {}, (() => {{ try {{ return ({expression}); }} catch (e) {{ return \"threw \" + (e && e.name); }} }})()",
        serde_json::Value::String(LOG_MARK.into()),
        id.0
    )
}

/// A console line split into the program's output and what logpoints logged.
pub fn split_console(lines: &[String]) -> (Vec<String>, Vec<(BreakpointId, String)>) {
    let mut console = Vec::new();
    let mut logs = Vec::new();
    for l in lines {
        let logged = l
            .strip_prefix(LOG_MARK)
            .and_then(|r| r.strip_prefix(' '))
            .and_then(|r| {
                let (id, text) = r.split_once(' ').unwrap_or((r, ""));
                Some((BreakpointId(id.parse().ok()?), text.to_string()))
            });
        match logged {
            Some(x) => logs.push(x),
            None => console.push(l.clone()),
        }
    }
    (console, logs)
}

/// What a pause's reason is when a continue to a location arrived there (CDP says `other`, as
/// for a `debugger` statement; WebKit says nothing of its own).
pub fn continued_to() -> morphtrace_schema::PauseReason {
    morphtrace_schema::PauseReason::Other("continue-to-location".into())
}

/// What every adapter answers to a set of a name no scope of the top frame binds (an
/// assignment would create a global instead).
pub fn unbound(name: &str) -> Output {
    Output::Error {
        message: format!("no scope of the top frame binds {name}"),
    }
}

/// The names the scopes of a pause's top frame bind: what a set by assignment may name.
pub fn bound_names(scopes: &[morphtrace_schema::Scope]) -> std::collections::HashSet<String> {
    scopes
        .iter()
        .flat_map(|s| s.variables.iter().map(|v| v.name.clone()))
        .collect()
}

/// What an adapter answers to a restart of a frame the current pause does not have.
pub fn no_frame(frame: u32) -> Output {
    Output::Error {
        message: format!("the pause has no program frame #{frame}"),
    }
}

/// The engine reason of a step's pause that Firefox's server made as a throw popped the
/// frame (`why.frameFinished.throw`): stepping from an exception pause, it pauses once more
/// where it stood before the step goes on (devtools' `thread.js`, `_makeOnPop`).
pub const POPPED_BY_A_THROW: &str = "resumeLimit (frameFinished.throw)";

/// The engine reason of a step's pause that Firefox's server made as the frame returned
/// (`why.frameFinished.return`). Stepping from a breakpoint pause at a frame's last position
/// (a script's end), it pauses once more where it stood; a step that arrived there was already
/// that pause, and the next step leaves the frame.
pub const POPPED_BY_A_RETURN: &str = "resumeLimit (frameFinished.return)";

/// The reason of the pause a restarted frame arrives at (CDP says `other`, Firefox
/// `resumeLimit`): the restart's own.
pub fn restarted() -> morphtrace_schema::PauseReason {
    morphtrace_schema::PauseReason::Other("restart-frame".into())
}

/// The assignment that sets a variable where a protocol has no request of its own for it
/// (Firefox's, WebKit's): evaluated on the frame, as their own UIs' consoles would.
pub fn assignment(name: &str, value: &str) -> String {
    format!("{name} = ({value})")
}

/// A set variable's value, read back by evaluating its name on the frame, as `VariableSet`.
pub fn read_back(evaluated: Output, name: &str) -> Output {
    match evaluated {
        Output::Evaluated {
            value,
            threw: false,
        } => Output::VariableSet {
            name: name.to_string(),
            value,
        },
        Output::Evaluated { value, threw: true } => Output::Error {
            message: format!("reading {name} back threw {value}"),
        },
        other => other,
    }
}

/// What a set by assignment (`assignment`) answers when the assignment itself did not give a
/// value: what it threw, or the refusal. `None` when it gave one.
pub fn assignment_failed(evaluated: Output) -> Option<Output> {
    match evaluated {
        Output::Evaluated { threw: false, .. } => None,
        Output::Evaluated { value, threw: true } => Some(Output::Error {
            message: format!("the assignment threw {value}"),
        }),
        other => Some(other),
    }
}

/// What every adapter answers to an evaluation while the program is not paused.
pub fn not_paused() -> Output {
    Output::Error {
        message: "evaluation needs a pause".into(),
    }
}

/// A launched engine that opens sessions.
#[async_trait]
pub trait Engine: Send {
    fn descriptor(&self) -> &EngineDescriptor;
    /// Loads `program` paused before its first statement, or reports its syntax error.
    async fn open(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<Box<dyn Debugger>, SyntaxError>, DebuggerError>;
    /// Kills and relaunches (after a crash or a hang).
    async fn restart(&mut self) -> Result<(), DebuggerError>;
    async fn shutdown(&mut self);
    /// Process id of the engine process that runs the current session: the long-lived browser,
    /// or Node's process of the session opened last (memory guard, diagnostics, crash tests).
    fn pid(&self) -> Option<u32> {
        None
    }
}

/// The frames of a pause (top first) that run the program, as `is_program` tells them; when
/// the top frame is not the program's (engine or launcher code), `Err` saying whether program
/// frames are further down. Every adapter walks its stack from here.
pub(crate) fn in_program(
    frames: &[serde_json::Value],
    is_program: impl Fn(&serde_json::Value) -> bool,
) -> Result<Vec<&serde_json::Value>, bool> {
    let program: Vec<&serde_json::Value> = frames.iter().filter(|f| is_program(f)).collect();
    if frames.first().is_none_or(|f| !is_program(f)) {
        return Err(!program.is_empty());
    }
    Ok(program)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_is_rerun_with_the_options_it_was_recorded_with() {
        let mut header = morphtrace_schema::ArchiveHeader::new(
            morphtrace_schema::CampaignConfig {
                name: "c".into(),
                strategy: "differential".into(),
                corpus: vec![],
                seeds: "1..1".into(),
                params: vec![],
                command_line: vec![],
            },
            vec![],
        );
        let firefox = EngineDescriptor {
            kind: morphtrace_schema::EngineKind::Firefox,
            executable: "/usr/lib/firefox-esr/firefox-esr".into(),
            version: "153.7.0esr".into(),
            protocol: morphtrace_schema::Protocol::Rdp,
            engine_version: None,
            details: vec![("determinism".into(), "off (--no-prelude)".into())],
        };
        let given = CaptureOptions {
            depth: 4,
            frame_scopes: 3,
            breakpoint_policy: rdp::BreakpointPolicy::SameLine,
            action_timeout: Duration::from_millis(2500),
            ..CaptureOptions::default()
        };
        given.section(true).write(&mut header.campaign);
        let o = CaptureOptions::recorded(&header, &[&firefox]);
        assert_eq!((o.depth, o.frame_scopes), (4, 3));
        assert_eq!(o.breakpoint_policy, rdp::BreakpointPolicy::SameLine);
        assert_eq!(o.action_timeout, Duration::from_millis(2500));
        assert!(!o.prelude);
        // An archive that says nothing: the defaults, prelude on.
        header.campaign.params.clear();
        let o = CaptureOptions::recorded(&header, &[]);
        let d = CaptureOptions::default();
        assert_eq!(
            (o.depth, o.breakpoint_policy, o.action_timeout, o.prelude),
            (d.depth, d.breakpoint_policy, d.action_timeout, true)
        );
    }

    fn refused(action: Action, started: bool, ended: Option<ProgramOutcome>) -> Option<String> {
        refusal(&action, started, ended.as_ref()).map(|o| match o {
            Output::Error { message } => message,
            other => panic!("not an error: {other:?}"),
        })
    }

    #[test]
    fn every_adapter_refuses_the_same_control_actions() {
        assert_eq!(refused(Action::Start, false, None), None);
        assert_eq!(
            refused(Action::Start, true, None).as_deref(),
            Some("the program already started")
        );
        for a in [
            Action::Resume,
            Action::StepInto,
            Action::StepOver,
            Action::StepOut,
        ] {
            assert_eq!(
                refused(a.clone(), false, None).as_deref(),
                Some("the program has not started")
            );
            assert_eq!(refused(a.clone(), true, None), None);
            assert!(refused(a, true, Some(ProgramOutcome::Completed))
                .is_some_and(|m| m.starts_with("the program already ended")));
        }
        assert!(refused(
            Action::RemoveBreakpoint {
                id: BreakpointId(1)
            },
            true,
            None
        )
        .is_some_and(|m| m.ends_with("is not a control action")));
    }
}
