//! Actions, outputs and pause states: the events of a trace (docs/design.md §2).

use crate::value::Value;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A position in a program: 0-based line, 0-based column (UTF-16 units for JavaScript).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Location {
    pub line: u32,
    pub column: u32,
}

impl Location {
    /// Where the metamorphic judge puts a follow-up position on a line its transformation
    /// inserted, which has no place in the parent program (no program has 2^32 lines).
    pub const INSERTED_LINE: Location = Location {
        line: u32::MAX,
        column: 0,
    };

    pub fn new(line: u32, column: u32) -> Location {
        Location { line, column }
    }
}

/// A 0-based position shown 1-based, without overflow (an engine may report any number, e.g.
/// JavaScriptCore's `4294967295` for a column it does not know).
fn one_based(n: u32) -> u64 {
    u64::from(n) + 1
}

/// Shown 1-based for people: `line:column`.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Location::INSERTED_LINE {
            return f.write_str("an inserted line");
        }
        write!(f, "{}:{}", one_based(self.line), one_based(self.column))
    }
}

/// Recorder-assigned breakpoint number, stable within a session (not the engine's id string).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BreakpointId(pub u32);

/// Which thrown exceptions pause the program (CDP and WebKit `setPauseOnExceptions`, Firefox's
/// `pauseOnExceptions` and `ignoreCaughtExceptions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ExceptionPause {
    None,
    /// Only exceptions no `catch` will handle.
    Uncaught,
    /// Every thrown exception, caught or not.
    All,
}

impl ExceptionPause {
    pub fn name(&self) -> &'static str {
        match self {
            ExceptionPause::None => "none",
            ExceptionPause::Uncaught => "uncaught",
            ExceptionPause::All => "all",
        }
    }
}

/// A debugging action (docs/design.md §2): breakpoint actions, control actions, and actions on
/// the paused program (evaluation) or on the debugger's settings (exceptions). Variants are only
/// ever added at the end: archives store them by position.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    SetBreakpoint {
        line: u32,
        column: Option<u32>,
    },
    RemoveBreakpoint {
        id: BreakpointId,
    },
    Start,
    Resume,
    StepInto,
    StepOver,
    StepOut,
    /// Which exceptions pause from now on; answered by `PauseOnExceptionsSet`.
    PauseOnExceptions {
        mode: ExceptionPause,
    },
    /// An expression evaluated on the top frame of the current pause; answered by `Evaluated`.
    Evaluate {
        expression: String,
    },
    /// A breakpoint that pauses only where `condition` holds; answered like `SetBreakpoint`
    /// (its id is removed the same way).
    SetConditionalBreakpoint {
        line: u32,
        condition: String,
        /// Where on the line, as for `SetBreakpoint` (none: the engine's choice).
        #[serde(default)]
        column: Option<u32>,
    },
    /// A breakpoint that never pauses: each time the line runs, `expression`'s value is
    /// logged (the trace's `logs`). Answered like `SetBreakpoint`, removed the same way.
    SetLogpoint {
        line: u32,
        expression: String,
        #[serde(default)]
        column: Option<u32>,
    },
    /// A variable of the current pause's top frame (the innermost binding of `name` its scopes
    /// show) given the value of `value`, a primitive literal; answered by `VariableSet`.
    SetVariable {
        name: String,
        value: String,
    },
    /// Runs until the program reaches `line` (or pauses before, as a resume would); answered
    /// like a resume.
    ContinueToLocation {
        line: u32,
    },
    /// Runs the function of the current pause's `frame` (0: the top program frame) again from
    /// its start, the frames above it dropped; answered by the pause at its start.
    RestartFrame {
        frame: u32,
    },
}

impl Action {
    /// Whether the action sets a breakpoint (and so takes the next breakpoint id).
    pub fn sets_breakpoint(&self) -> bool {
        matches!(
            self,
            Action::SetBreakpoint { .. }
                | Action::SetConditionalBreakpoint { .. }
                | Action::SetLogpoint { .. }
        )
    }

    /// The (0-based) line a breakpoint action requests.
    pub fn breakpoint_line(&self) -> Option<u32> {
        match self {
            Action::SetBreakpoint { line, .. }
            | Action::SetConditionalBreakpoint { line, .. }
            | Action::SetLogpoint { line, .. } => Some(*line),
            _ => None,
        }
    }

    /// The (0-based) column a breakpoint action requests, if it names one.
    pub fn breakpoint_column(&self) -> Option<u32> {
        match self {
            Action::SetBreakpoint { column, .. }
            | Action::SetConditionalBreakpoint { column, .. }
            | Action::SetLogpoint { column, .. } => *column,
            _ => None,
        }
    }

    /// The same breakpoint action at another line and column; other actions unchanged.
    pub fn on_line(&self, line: u32, column: Option<u32>) -> Action {
        match self {
            Action::SetBreakpoint { .. } => Action::SetBreakpoint { line, column },
            Action::SetConditionalBreakpoint { condition, .. } => {
                Action::SetConditionalBreakpoint {
                    line,
                    condition: condition.clone(),
                    column,
                }
            }
            Action::SetLogpoint { expression, .. } => Action::SetLogpoint {
                line,
                expression: expression.clone(),
                column,
            },
            Action::ContinueToLocation { .. } => Action::ContinueToLocation { line },
            other => other.clone(),
        }
    }

    /// Whether the action runs the program (start, resume, a step, continue to a location).
    pub fn is_control(&self) -> bool {
        matches!(
            self,
            Action::Start
                | Action::Resume
                | Action::StepInto
                | Action::StepOver
                | Action::StepOut
                | Action::ContinueToLocation { .. }
                | Action::RestartFrame { .. }
        )
    }

    /// The short name used in equivalence classes and tables.
    pub fn name(&self) -> &'static str {
        match self {
            Action::SetBreakpoint { .. } => "setBreakpoint",
            Action::RemoveBreakpoint { .. } => "removeBreakpoint",
            Action::Start => "start",
            Action::Resume => "resume",
            Action::StepInto => "stepInto",
            Action::StepOver => "stepOver",
            Action::StepOut => "stepOut",
            Action::PauseOnExceptions { .. } => "pauseOnExceptions",
            Action::Evaluate { .. } => "evaluate",
            Action::SetConditionalBreakpoint { .. } => "setConditionalBreakpoint",
            Action::SetLogpoint { .. } => "setLogpoint",
            Action::SetVariable { .. } => "setVariable",
            Action::ContinueToLocation { .. } => "continueToLocation",
            Action::RestartFrame { .. } => "restartFrame",
        }
    }
}

/// A requested place, 1-based: `line` or `line:column`.
fn at(line: u32, column: Option<u32>) -> String {
    match column {
        Some(c) => format!("{}:{}", one_based(line), one_based(c)),
        None => one_based(line).to_string(),
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::SetBreakpoint { line, column } => match column {
                Some(c) => write!(f, "setBreakpoint({}:{})", one_based(*line), one_based(*c)),
                None => write!(f, "setBreakpoint({})", one_based(*line)),
            },
            Action::RemoveBreakpoint { id } => write!(f, "removeBreakpoint(#{})", id.0),
            Action::PauseOnExceptions { mode } => write!(f, "pauseOnExceptions({})", mode.name()),
            Action::Evaluate { expression } => write!(f, "evaluate({expression})"),
            Action::SetConditionalBreakpoint {
                line,
                condition,
                column,
            } => write!(f, "setBreakpoint({} if {condition})", at(*line, *column)),
            Action::SetLogpoint {
                line,
                expression,
                column,
            } => write!(f, "setLogpoint({} logs {expression})", at(*line, *column)),
            Action::SetVariable { name, value } => write!(f, "setVariable({name} = {value})"),
            Action::ContinueToLocation { line } => {
                write!(f, "continueToLocation({})", one_based(*line))
            }
            Action::RestartFrame { frame } => write!(f, "restartFrame(#{frame})"),
            other => f.write_str(other.name()),
        }
    }
}

/// How the actual location of a breakpoint was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LocationSource {
    /// The engine said where the breakpoint landed (CDP `locations[]`, `breakpointResolved`).
    EngineReported,
    /// The recorder computed it from the engine's breakable positions (Firefox RDP).
    ClientComputed,
    /// Neither: the location is unknown until a pause proves it.
    Unknown,
}

/// Why the program paused, derived from the last command and the hit breakpoints.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PauseReason {
    /// Paused at the program's first statement after `Start` (break on start).
    Entry,
    Breakpoint {
        ids: Vec<BreakpointId>,
    },
    Step,
    Exception,
    DebuggerStatement,
    Other(String),
}

impl PauseReason {
    pub fn name(&self) -> &str {
        match self {
            PauseReason::Entry => "entry",
            PauseReason::Breakpoint { .. } => "breakpoint",
            PauseReason::Step => "step",
            PauseReason::Exception => "exception",
            PauseReason::DebuggerStatement => "debugger-statement",
            PauseReason::Other(s) => s,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScopeKind {
    Local,
    Closure,
    Block,
    Catch,
    With,
    Script,
    Module,
    Global,
    Eval,
    Other(String),
}

impl ScopeKind {
    pub fn name(&self) -> &str {
        match self {
            ScopeKind::Local => "local",
            ScopeKind::Closure => "closure",
            ScopeKind::Block => "block",
            ScopeKind::Catch => "catch",
            ScopeKind::With => "with",
            ScopeKind::Script => "script",
            ScopeKind::Module => "module",
            ScopeKind::Global => "global",
            ScopeKind::Eval => "eval",
            ScopeKind::Other(s) => s,
        }
    }
}

/// A variable as the engine showed it. `value` is normalized (e.g. a TDZ binding is
/// `Uninitialized` whatever the engine said); `reported` keeps the engine's own value where it differs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variable {
    pub name: String,
    pub value: Value,
    #[serde(default)]
    pub reported: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scope {
    pub kind: ScopeKind,
    /// Function or block name when the engine gives one.
    pub name: Option<String>,
    pub variables: Vec<Variable>,
}

/// A program frame of the call stack (engine-internal frames are cut by the adapter).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// Function name; empty for top-level code.
    pub function: String,
    pub location: Location,
    /// Scopes from innermost outwards; adapters fill them for the top frame (others on request).
    pub scopes: Vec<Scope>,
}

impl Frame {
    /// The function's name as people read a stack: `(top level)` for top-level code.
    pub fn shown_name(&self) -> &str {
        if self.function.is_empty() {
            "(top level)"
        } else {
            &self.function
        }
    }
}

/// Everything observable while paused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PauseState {
    pub location: Location,
    pub reason: PauseReason,
    /// The engine's own reason string, verbatim (`other`, `Break on start`, `breakpoint`).
    pub engine_reason: Option<String>,
    /// Program frames, innermost first; `stack[0].location == location`.
    pub stack: Vec<Frame>,
    /// At a pause on an exception (`reason` `Exception`): the value thrown (boxed: most
    /// pauses have none).
    #[serde(default)]
    pub exception: Option<Box<Value>>,
    /// The async call stack below `stack`: for code that an `await`, a promise reaction or a
    /// timer resumed, the frames that scheduled it, segment by segment outwards (program
    /// frames only, without scopes). Empty where none applies; `None` where the engine keeps
    /// none (or the archive is older than async stacks).
    #[serde(default)]
    pub async_stack: Option<Vec<AsyncFrames>>,
    /// At a pause on a breakpoint with a condition, where the session had to know (a
    /// divergence at that pause): the condition evaluated on the paused frame afterwards. The
    /// engine's own check cannot be read; this is the same expression in the same frame and
    /// state, so it tells a pause on a condition that threw, or on one that does not hold.
    #[serde(default)]
    pub condition: Option<Box<ConditionCheck>>,
}

/// A breakpoint's condition evaluated on the frame that paused there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConditionCheck {
    pub condition: String,
    pub value: Value,
    pub threw: bool,
}

/// One segment of an async call stack: the program frames (innermost first) that were on the
/// stack when the code above was scheduled, and the engine's word for how (`await`,
/// `Promise.then`, `setTimeout`; verbatim, engines word it differently).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AsyncFrames {
    pub cause: String,
    pub frames: Vec<Frame>,
}

impl PauseState {
    pub fn top_scopes(&self) -> &[Scope] {
        self.stack
            .first()
            .map(|f| f.scopes.as_slice())
            .unwrap_or(&[])
    }
}

/// How the program-to-debug ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProgramOutcome {
    Completed,
    UncaughtException {
        message: String,
        location: Option<Location>,
    },
    SyntaxError {
        message: String,
        location: Option<Location>,
    },
    /// The program did not finish within the session's time limit.
    Timeout,
    /// The engine died while running the program.
    EngineCrashed {
        message: String,
    },
    /// The session stopped (action limit, divergence) while the program was still running.
    Detached,
}

impl ProgramOutcome {
    pub fn name(&self) -> &'static str {
        match self {
            ProgramOutcome::Completed => "completed",
            ProgramOutcome::UncaughtException { .. } => "uncaught-exception",
            ProgramOutcome::SyntaxError { .. } => "syntax-error",
            ProgramOutcome::Timeout => "timeout",
            ProgramOutcome::EngineCrashed { .. } => "engine-crashed",
            ProgramOutcome::Detached => "detached",
        }
    }
}

/// What the debugger answered to an action (docs/design.md §2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Output {
    BreakpointSet {
        id: BreakpointId,
        requested: Location,
        /// Where the engine put it; empty when it could not be placed (or is not known yet).
        actual: Vec<Location>,
        source: LocationSource,
        /// For `ClientComputed` locations: the placement policy that chose them
        /// (`next-breakable`, `same-line`), so that the analyzer can tell engine behaviour from
        /// the recorder's own choice.
        #[serde(default)]
        policy: Option<String>,
    },
    BreakpointRemoved {
        id: BreakpointId,
        ok: bool,
    },
    Paused(PauseState),
    Finished {
        outcome: ProgramOutcome,
    },
    /// The debugger refused or failed the action; the session may go on.
    Error {
        message: String,
    },
    /// The answer to `PauseOnExceptions`.
    PauseOnExceptionsSet {
        mode: ExceptionPause,
    },
    /// The answer to `Evaluate`: the value, or what the evaluation threw (`threw`).
    Evaluated {
        value: Value,
        threw: bool,
    },
    /// The answer to `SetVariable`: the variable's value read back on the frame afterwards.
    VariableSet {
        name: String,
        value: Value,
    },
}

impl Output {
    pub fn name(&self) -> &'static str {
        match self {
            Output::BreakpointSet { .. } => "breakpointSet",
            Output::BreakpointRemoved { .. } => "breakpointRemoved",
            Output::Paused(_) => "paused",
            Output::Finished { .. } => "finished",
            Output::Error { .. } => "error",
            Output::PauseOnExceptionsSet { .. } => "pauseOnExceptionsSet",
            Output::Evaluated { .. } => "evaluated",
            Output::VariableSet { .. } => "variableSet",
        }
    }

    /// Moves the defining lines of the functions among the values this answer shows by `to`
    /// (`Value::map_function_lines`), leaving out those `to` has no line for.
    pub fn map_function_lines(&mut self, to: &impl Fn(u32) -> Option<u32>) {
        match self {
            Output::Paused(p) => {
                for v in p
                    .stack
                    .iter_mut()
                    .flat_map(|f| &mut f.scopes)
                    .flat_map(|s| &mut s.variables)
                {
                    v.value.map_function_lines(to);
                }
                if let Some(e) = &mut p.exception {
                    e.map_function_lines(to);
                }
            }
            Output::Evaluated { value, .. } | Output::VariableSet { value, .. } => {
                value.map_function_lines(to)
            }
            _ => {}
        }
    }
}

/// One event of a trace, with its time since the session started (excluded from determinism checks).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub at_us: u64,
    pub kind: EventKind,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum EventKind {
    Action(Action),
    Output(Output),
}

/// The ordered actions and outputs of one debugger in one session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub engine: crate::engine::EngineRef,
    pub events: Vec<Event>,
    /// Console output of the program, when the adapter captured it.
    #[serde(default)]
    pub console: Vec<String>,
    /// What the session's logpoints logged, in order.
    #[serde(default)]
    pub logs: Vec<LogLine>,
}

/// One line a logpoint logged: the value of its expression as the console shows it (a string
/// bare, another value as morphtrace renders it), or what evaluating it threw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogLine {
    /// The action during which it was logged (its index among the trace's actions).
    pub action: u32,
    pub breakpoint: BreakpointId,
    pub text: String,
}

impl Trace {
    pub fn actions(&self) -> impl Iterator<Item = &Action> {
        self.events.iter().filter_map(|e| match &e.kind {
            EventKind::Action(a) => Some(a),
            _ => None,
        })
    }

    pub fn outputs(&self) -> impl Iterator<Item = &Output> {
        self.events.iter().filter_map(|e| match &e.kind {
            EventKind::Output(o) => Some(o),
            _ => None,
        })
    }

    /// The condition of the live conditional breakpoint that pause `p` is at: one of the
    /// breakpoints the pause names, or else one placed on its line.
    /// Live: set by the trace's actions and not removed since.
    pub fn condition_at(&self, p: &PauseState) -> Option<&str> {
        let mut live: Vec<(BreakpointId, &str, Vec<u32>)> = Vec::new();
        let mut asked: Option<&str> = None;
        for e in &self.events {
            match &e.kind {
                EventKind::Action(Action::SetConditionalBreakpoint { condition, .. }) => {
                    asked = Some(condition)
                }
                EventKind::Action(_) => asked = None,
                EventKind::Output(Output::BreakpointSet { id, actual, .. }) => {
                    if let Some(c) = asked.take() {
                        live.push((*id, c, actual.iter().map(|l| l.line).collect()));
                    }
                }
                EventKind::Output(Output::BreakpointRemoved { id, ok: true }) => {
                    live.retain(|(x, _, _)| x != id)
                }
                EventKind::Output(_) => {}
            }
        }
        let PauseReason::Breakpoint { ids } = &p.reason else {
            return None;
        };
        live.iter()
            .find(|(id, _, _)| ids.contains(id))
            .or_else(|| {
                live.iter()
                    .find(|(_, _, lines)| lines.contains(&p.location.line))
            })
            .map(|(_, c, _)| *c)
    }

    pub fn pauses(&self) -> impl Iterator<Item = &PauseState> {
        self.outputs().filter_map(|o| match o {
            Output::Paused(p) => Some(p),
            _ => None,
        })
    }
}

/// The line where each action of a trace is triggered (DBDB §3.4's "last action" line): the
/// requested line for a breakpoint, the line of a removed breakpoint's request, none for `start`,
/// and for the other control actions where the debugger was last paused. Fed the trace's outputs
/// in order, so that the recorder (while it records) and the analyzer (offline) agree.
#[derive(Debug, Clone, Default)]
pub struct TriggerLines {
    paused_at: Option<u32>,
    requested: std::collections::HashMap<u32, u32>,
}

impl TriggerLines {
    /// The line `a` is triggered at, given the outputs seen so far.
    pub fn of(&self, a: &Action) -> Option<u32> {
        match a {
            Action::SetBreakpoint { line, .. }
            | Action::SetConditionalBreakpoint { line, .. }
            | Action::SetLogpoint { line, .. } => Some(*line),
            Action::RemoveBreakpoint { id } => self.requested.get(&id.0).copied(),
            Action::Start => None,
            _ => self.paused_at,
        }
    }

    pub fn paused(&mut self, line: u32) {
        self.paused_at = Some(line);
    }

    pub fn breakpoint_set(&mut self, id: BreakpointId, requested_line: u32) {
        self.requested.insert(id.0, requested_line);
    }

    pub fn finished(&mut self) {
        self.paused_at = None;
    }

    /// Takes one output of the trace into account.
    pub fn output(&mut self, o: &Output) {
        match o {
            Output::Paused(p) => self.paused(p.location.line),
            Output::BreakpointSet { id, requested, .. } => self.breakpoint_set(*id, requested.line),
            Output::Finished { .. } => self.finished(),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_at_the_end_of_the_range_display_without_overflow() {
        assert_eq!(
            Location::new(u32::MAX, u32::MAX).to_string(),
            "4294967296:4294967296"
        );
        let a = Action::SetBreakpoint {
            line: u32::MAX,
            column: Some(u32::MAX),
        };
        assert_eq!(a.to_string(), "setBreakpoint(4294967296:4294967296)");
        assert_eq!(
            Action::ContinueToLocation { line: u32::MAX }.to_string(),
            "continueToLocation(4294967296)"
        );
        assert_eq!(Location::INSERTED_LINE.to_string(), "an inserted line");
        assert_eq!(Location::new(u32::MAX, 1).to_string(), "4294967296:2");
    }
}
