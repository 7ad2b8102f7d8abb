//! Fault injection for testing the relations themselves: a wrapper around a real engine whose
//! debugger misbehaves in one known way. A relation that should catch the fault must report it,
//! at the event where the fault shows.

use async_trait::async_trait;
use morphtrace_recorder::debugger::{Debugger, DebuggerError, Engine, ProgramFile, SyntaxError};
use morphtrace_schema::{
    Action, BreakpointId, EngineDescriptor, ExceptionPause, Location, Output, Value,
};

/// One way to misbehave. Lines are 0-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// None: the engine's own answers (a switchable engine between planted faults).
    Honest,
    /// Never pause at this line: continue silently to the next pause elsewhere.
    DropPausesAt { line: u32 },
    /// Leave this variable out of the top frame's scopes in pauses at this line.
    HideVariable { line: u32, name: String },
    /// Report a slid breakpoint one line below where it really is.
    WrongSlide,
    /// A step into that lands on this line steps on through one more iteration (the first
    /// time in a session).
    SkipIteration { line: u32 },
    /// A step into that lands on this line steps into once more: a step that ends a line late.
    StepOnceMore { line: u32 },
    /// Report this variable's number, wherever it shows, one too high.
    WrongNumber { name: String },
    /// Show variable `name` with the value of variable `as_` of the same pause (two functions
    /// mixed up, as a debugger that reads the wrong closure slot would).
    MixedUp { name: String, as_: String },
    /// Answer every evaluation that gives a number with that number plus one.
    WrongEvaluation,
    /// Set a conditional breakpoint as a plain one: its condition ignored.
    IgnoreCondition,
    /// Refuse every conditional breakpoint as gdb refuses one on a name out of scope, naming the
    /// condition's first name (in scope or not).
    RefuseCondition,
    /// Set a logpoint as a plain breakpoint: it pauses and logs nothing.
    PausingLogpoint,
    /// Set a logpoint that never pauses and never logs.
    SilentLogpoint,
    /// Every line a logpoint logs, logged with an empty text: a debugger that loses what its
    /// logpoints format.
    BlankLogs,
    /// A set variable that does not take: the engine is not asked, the old value read back as
    /// if it were the new one.
    IgnoreSet,
    /// A continue to a location that runs on as a resume does.
    ContinueAsResume,
    /// A restarted frame that only steps over instead.
    RestartAsStep,
    /// Report every breakpoint (slid or not) one line below where it really is.
    ShiftBreakpoint,
    /// A step into that steps over instead.
    StepIntoAsOver,
    /// Say that pausing on exceptions is set, and never pause on one.
    MissExceptionPause,
    /// The first resume of a session pauses at the next statement instead of running on: a
    /// pause where no breakpoint is.
    ExtraPause,
    /// Show an error's message with `from` worded as `to`, wherever the error shows (a
    /// variable's value or inside it, a thrown value, an evaluation).
    Reword { from: String, to: String },
    /// At every pause, leave out the top frame's first local (by name) of its innermost function
    /// or block scope: a debugger that loses a variable.
    HideLocal,
    /// At every pause, show the top frame's first local (by name) that holds a number one too
    /// high: a debugger that reads a slot wrong.
    ShiftLocal,
    /// The first time a resume stops at a breakpoint in a session, resume again: a breakpoint
    /// pause swallowed.
    SwallowPause,
    /// At every pause, show the top frame's function without its name: a debugger that loses
    /// a function's name.
    LoseFrameName,
    /// At every pause of two frames or more, show the top frame under the name of the frame
    /// below it: a debugger that reads the caller's name.
    RenameFrame,
    /// At the first pause of a session, evaluate a print of the debugger's own (JavaScript's
    /// `console.log`, else Python's `print`): a debugger that changes what the program prints by looking at it (as
    /// one that calls the program's functions to show a value would).
    PrintAtPause,
}

impl Fault {
    /// The faults a campaign can plant in any program, with no line or name to know before:
    /// each way the oracle must not be talked out of.
    pub const CAMPAIGN: [Fault; 12] = [
        Fault::HideLocal,
        Fault::ShiftLocal,
        Fault::SwallowPause,
        Fault::ExtraPause,
        Fault::ShiftBreakpoint,
        Fault::WrongSlide,
        Fault::StepIntoAsOver,
        Fault::IgnoreCondition,
        Fault::WrongEvaluation,
        Fault::IgnoreSet,
        Fault::MissExceptionPause,
        Fault::ContinueAsResume,
    ];

    /// The faults ground truth must catch on any engine, each with the relation that is its
    /// own (`morphtrace_judges::truth`).
    pub fn for_truth() -> [(Fault, &'static str); 5] {
        use morphtrace_judges::truth::relation;
        [
            (Fault::HideLocal, relation::UNSHOWN),
            (Fault::ShiftLocal, relation::VALUE),
            (Fault::SwallowPause, relation::MISSED),
            (Fault::ExtraPause, relation::STRAY),
            (Fault::ShiftBreakpoint, relation::PLACE),
        ]
    }

    /// The name a campaign's archive records the fault under (`fault.planted`).
    pub fn name(&self) -> &'static str {
        match self {
            Fault::Honest => "honest",
            Fault::DropPausesAt { .. } => "drop-pauses-at",
            Fault::HideVariable { .. } => "hide-variable",
            Fault::WrongSlide => "wrong-slide",
            Fault::SkipIteration { .. } => "skip-iteration",
            Fault::StepOnceMore { .. } => "step-once-more",
            Fault::WrongNumber { .. } => "wrong-number",
            Fault::MixedUp { .. } => "mixed-up",
            Fault::WrongEvaluation => "wrong-evaluation",
            Fault::IgnoreCondition => "ignore-condition",
            Fault::RefuseCondition => "refuse-condition",
            Fault::PausingLogpoint => "pausing-logpoint",
            Fault::SilentLogpoint => "silent-logpoint",
            Fault::BlankLogs => "blank-logs",
            Fault::IgnoreSet => "ignore-set",
            Fault::ContinueAsResume => "continue-as-resume",
            Fault::RestartAsStep => "restart-as-step",
            Fault::ShiftBreakpoint => "shift-breakpoint",
            Fault::StepIntoAsOver => "step-into-as-over",
            Fault::MissExceptionPause => "miss-exception-pause",
            Fault::ExtraPause => "extra-pause",
            Fault::Reword { .. } => "reword",
            Fault::HideLocal => "hide-local",
            Fault::ShiftLocal => "shift-local",
            Fault::SwallowPause => "swallow-pause",
            Fault::LoseFrameName => "lose-frame-name",
            Fault::RenameFrame => "rename-frame",
            Fault::PrintAtPause => "print-at-pause",
        }
    }
}

pub struct FaultyEngine {
    inner: Box<dyn Engine>,
    fault: FaultSwitch,
}

/// The fault an engine's next sessions plant: one engine started serves many faults.
#[derive(Clone)]
pub struct FaultSwitch(std::sync::Arc<std::sync::Mutex<Fault>>);

impl FaultSwitch {
    /// Plants `fault` in every session opened from now on.
    pub fn set(&self, fault: Fault) {
        *self.0.lock().unwrap() = fault;
    }

    fn get(&self) -> Fault {
        self.0.lock().unwrap().clone()
    }
}

impl FaultyEngine {
    pub fn wrap(inner: Box<dyn Engine>, fault: Fault) -> Box<dyn Engine> {
        FaultyEngine::switchable(inner, fault).0
    }

    /// The engine with `fault` planted, and the switch that plants another.
    pub fn switchable(inner: Box<dyn Engine>, fault: Fault) -> (Box<dyn Engine>, FaultSwitch) {
        let switch = FaultSwitch(std::sync::Arc::new(std::sync::Mutex::new(fault)));
        (
            Box::new(FaultyEngine {
                inner,
                fault: switch.clone(),
            }),
            switch,
        )
    }
}

#[async_trait]
impl Engine for FaultyEngine {
    fn descriptor(&self) -> &EngineDescriptor {
        self.inner.descriptor()
    }

    async fn open(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<Box<dyn Debugger>, SyntaxError>, DebuggerError> {
        Ok(self.inner.open(program).await?.map(|d| {
            Box::new(FaultyDebugger {
                inner: d,
                fault: self.fault.get(),
                skipped: false,
            }) as Box<dyn Debugger>
        }))
    }

    async fn restart(&mut self) -> Result<(), DebuggerError> {
        self.inner.restart().await
    }

    async fn shutdown(&mut self) {
        self.inner.shutdown().await
    }

    fn pid(&self) -> Option<u32> {
        self.inner.pid()
    }
}

struct FaultyDebugger {
    inner: Box<dyn Debugger>,
    fault: Fault,
    skipped: bool,
}

/// The top frame's innermost function or block scope's variables and the index of its first
/// local by name (for `ShiftLocal`, the first that holds a number).
fn first_local(
    o: &mut Output,
    numbers: bool,
) -> Option<(&mut Vec<morphtrace_schema::Variable>, usize)> {
    use morphtrace_schema::ScopeKind;
    let Output::Paused(p) = o else { return None };
    let scope = p.stack.first_mut()?.scopes.iter_mut().find(|s| {
        matches!(
            s.kind,
            ScopeKind::Local | ScopeKind::Block | ScopeKind::Catch
        )
    })?;
    let i = scope
        .variables
        .iter()
        .enumerate()
        .filter(|(_, v)| !numbers || matches!(v.value, Value::Number(_)))
        .min_by(|a, b| a.1.name.cmp(&b.1.name))
        .map(|(i, _)| i)?;
    Some((&mut scope.variables, i))
}

fn paused_stack(o: &mut Output) -> Option<&mut Vec<morphtrace_schema::Frame>> {
    match o {
        Output::Paused(p) => Some(&mut p.stack),
        _ => None,
    }
}

fn line_of(o: &Output) -> Option<u32> {
    match o {
        Output::Paused(p) => Some(p.location.line),
        _ => None,
    }
}

#[async_trait]
impl Debugger for FaultyDebugger {
    async fn set_breakpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
    ) -> Result<Output, DebuggerError> {
        let mut out = self.inner.set_breakpoint(line, column).await?;
        if let Output::BreakpointSet { actual, .. } = &mut out {
            let shifted = |a: &Location| match self.fault {
                Fault::WrongSlide => a.line != line,
                Fault::ShiftBreakpoint => true,
                _ => false,
            };
            for a in actual.iter_mut().filter(|a| shifted(a)) {
                *a = Location::new(a.line + 1, a.column);
            }
        }
        Ok(out)
    }

    async fn set_conditional_breakpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
        condition: &str,
    ) -> Result<Output, DebuggerError> {
        if self.fault == Fault::IgnoreCondition {
            return self.inner.set_breakpoint(line, column).await;
        }
        if self.fault == Fault::RefuseCondition {
            let name = condition
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .find(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))
                .unwrap_or(condition);
            return Ok(Output::Error {
                message: format!("-break-insert: No symbol \"{name}\" in current context."),
            });
        }
        self.inner
            .set_conditional_breakpoint(line, column, condition)
            .await
    }

    async fn set_logpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
        expression: &str,
    ) -> Result<Output, DebuggerError> {
        if self.fault == Fault::PausingLogpoint {
            return self.inner.set_breakpoint(line, column).await;
        }
        if self.fault == Fault::SilentLogpoint {
            return self
                .inner
                .set_conditional_breakpoint(line, column, "false")
                .await;
        }
        self.inner.set_logpoint(line, column, expression).await
    }

    async fn remove_breakpoint(&mut self, id: BreakpointId) -> Result<Output, DebuggerError> {
        self.inner.remove_breakpoint(id).await
    }

    async fn pause_on_exceptions(&mut self, mode: ExceptionPause) -> Result<Output, DebuggerError> {
        if self.fault == Fault::MissExceptionPause {
            let out = self.inner.pause_on_exceptions(ExceptionPause::None).await?;
            return Ok(match out {
                Output::PauseOnExceptionsSet { .. } => Output::PauseOnExceptionsSet { mode },
                other => other,
            });
        }
        self.inner.pause_on_exceptions(mode).await
    }

    async fn break_positions(
        &mut self,
        from: Location,
        to: Location,
    ) -> Result<Option<Vec<Location>>, DebuggerError> {
        // The engine's own positions, true: the fault lies in what the debugger reports.
        self.inner.break_positions(from, to).await
    }

    async fn evaluate(&mut self, expression: &str) -> Result<Output, DebuggerError> {
        let mut out = self.inner.evaluate(expression).await?;
        if let (Fault::Reword { from, to }, Output::Evaluated { value, .. }) =
            (&self.fault, &mut out)
        {
            reword(value, from, to);
        }
        if self.fault == Fault::WrongEvaluation {
            if let Output::Evaluated {
                value: Value::Number(n),
                threw: false,
            } = &mut out
            {
                *n += 1.0;
            }
        }
        Ok(out)
    }

    async fn set_variable(&mut self, name: &str, value: &str) -> Result<Output, DebuggerError> {
        if self.fault == Fault::IgnoreSet {
            let Output::Evaluated { .. } = self.inner.evaluate(name).await? else {
                return self.inner.set_variable(name, value).await;
            };
            // The answer says the value took; the program goes on with the old one.
            return Ok(Output::VariableSet {
                name: name.to_string(),
                value: literal_value(value),
            });
        }
        self.inner.set_variable(name, value).await
    }

    fn slides_within_its_function(&self) -> bool {
        self.inner.slides_within_its_function()
    }

    fn continues_to_location(&self) -> bool {
        self.inner.continues_to_location()
    }

    fn restarts_frames(&self) -> bool {
        self.inner.restarts_frames()
    }

    fn sets_by_assignment(&self) -> bool {
        self.inner.sets_by_assignment()
    }

    async fn control(&mut self, action: &Action) -> Result<Output, DebuggerError> {
        let action = match action {
            Action::ContinueToLocation { .. } if self.fault == Fault::ContinueAsResume => {
                &Action::Resume
            }
            Action::RestartFrame { .. } if self.fault == Fault::RestartAsStep => &Action::StepOver,
            Action::StepInto if self.fault == Fault::StepIntoAsOver => &Action::StepOver,
            Action::Resume if self.fault == Fault::ExtraPause && !self.skipped => {
                self.skipped = true;
                &Action::StepOver
            }
            other => other,
        };
        let mut out = self.inner.control(action).await?;
        match &self.fault {
            Fault::PrintAtPause => {
                if !self.skipped && matches!(out, Output::Paused(_)) {
                    self.skipped = true;
                    let js = self
                        .inner
                        .evaluate("console.log(\"printed by the debugger\")")
                        .await?;
                    // Python has no `console`.
                    if matches!(js, Output::Evaluated { threw: true, .. }) {
                        self.inner
                            .evaluate("print(\"printed by the debugger\")")
                            .await?;
                    }
                }
            }
            Fault::SwallowPause => {
                let at_breakpoint = |o: &Output| {
                    matches!(o, Output::Paused(p)
                        if matches!(p.reason, morphtrace_schema::PauseReason::Breakpoint { .. }))
                };
                if *action == Action::Resume && !self.skipped && at_breakpoint(&out) {
                    self.skipped = true;
                    out = self.inner.control(&Action::Resume).await?;
                }
            }
            Fault::LoseFrameName => {
                if let Some(top) = paused_stack(&mut out).and_then(|s| s.first_mut()) {
                    top.function.clear();
                }
            }
            Fault::RenameFrame => {
                if let Some([top, below, ..]) = paused_stack(&mut out).map(|s| s.as_mut_slice()) {
                    top.function.clone_from(&below.function);
                }
            }
            Fault::HideLocal | Fault::ShiftLocal => {
                if let Some(v) = first_local(&mut out, self.fault == Fault::ShiftLocal) {
                    if self.fault == Fault::HideLocal {
                        v.0.remove(v.1);
                    } else if let Value::Number(x) = &mut v.0[v.1].value {
                        *x += 1.0;
                    }
                }
            }
            Fault::DropPausesAt { line } => {
                for _ in 0..1000 {
                    if line_of(&out) != Some(*line) {
                        break;
                    }
                    out = self.inner.control(&Action::Resume).await?;
                }
            }
            Fault::HideVariable { line, name } => {
                if let Output::Paused(p) = &mut out {
                    if p.location.line == *line {
                        if let Some(top) = p.stack.first_mut() {
                            for s in &mut top.scopes {
                                s.variables.retain(|v| &v.name != name);
                            }
                        }
                    }
                }
            }
            Fault::SkipIteration { line } => {
                if *action == Action::StepInto && !self.skipped && line_of(&out) == Some(*line) {
                    self.skipped = true;
                    for _ in 0..10_000 {
                        out = self.inner.control(&Action::StepInto).await?;
                        if line_of(&out).is_none_or(|l| l == *line) {
                            break;
                        }
                    }
                }
            }
            Fault::StepOnceMore { line } => {
                if *action == Action::StepInto && line_of(&out) == Some(*line) {
                    out = self.inner.control(&Action::StepInto).await?;
                }
            }
            Fault::WrongNumber { name } => {
                if let Output::Paused(p) = &mut out {
                    for f in &mut p.stack {
                        for s in &mut f.scopes {
                            for v in s.variables.iter_mut().filter(|v| &v.name == name) {
                                if let morphtrace_schema::Value::Number(x) = &mut v.value {
                                    *x += 1.0;
                                }
                            }
                        }
                    }
                }
            }
            Fault::MixedUp { name, as_ } => {
                if let Output::Paused(p) = &mut out {
                    let other = p
                        .stack
                        .iter()
                        .flat_map(|f| &f.scopes)
                        .flat_map(|s| &s.variables)
                        .find(|v| &v.name == as_)
                        .map(|v| v.value.clone());
                    if let Some(other) = other {
                        for f in &mut p.stack {
                            for s in &mut f.scopes {
                                for v in s.variables.iter_mut().filter(|v| &v.name == name) {
                                    v.value = other.clone();
                                }
                            }
                        }
                    }
                }
            }
            Fault::Reword { from, to } => {
                if let Output::Paused(p) = &mut out {
                    for f in &mut p.stack {
                        for s in &mut f.scopes {
                            for v in &mut s.variables {
                                reword(&mut v.value, from, to);
                            }
                        }
                    }
                    if let Some(e) = &mut p.exception {
                        reword(e, from, to);
                    }
                }
            }
            Fault::Honest
            | Fault::WrongSlide
            | Fault::ShiftBreakpoint
            | Fault::StepIntoAsOver
            | Fault::MissExceptionPause
            | Fault::ExtraPause
            | Fault::WrongEvaluation
            | Fault::IgnoreCondition
            | Fault::RefuseCondition
            | Fault::PausingLogpoint
            | Fault::SilentLogpoint
            | Fault::BlankLogs
            | Fault::IgnoreSet
            | Fault::ContinueAsResume
            | Fault::RestartAsStep => {}
        }
        Ok(out)
    }

    fn console(&self) -> Vec<String> {
        self.inner.console()
    }

    fn logs(&self) -> Vec<(BreakpointId, String)> {
        let logs = self.inner.logs();
        if self.fault == Fault::BlankLogs {
            return logs.into_iter().map(|(b, _)| (b, String::new())).collect();
        }
        logs
    }

    async fn close(self: Box<Self>) -> bool {
        self.inner.close().await
    }
}

/// The value a primitive literal spells (the forms the generator writes).
fn literal_value(literal: &str) -> Value {
    match literal {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "null" => Value::Null,
        "undefined" => Value::Undefined,
        _ => match serde_json::from_str::<serde_json::Value>(literal) {
            Ok(serde_json::Value::Number(n)) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
            Ok(serde_json::Value::String(s)) => Value::String(s),
            _ => Value::Undefined,
        },
    }
}

/// `value` with every error's description worded `to` where it said `from`, inside it too.
fn reword(value: &mut morphtrace_schema::Value, from: &str, to: &str) {
    use morphtrace_schema::value::ObjectKind;
    use morphtrace_schema::Value;
    if let Value::Object {
        kind,
        description,
        entries,
        ..
    } = value
    {
        if *kind == ObjectKind::Error {
            if let Some(d) = description {
                *d = d.replace(from, to);
            }
        }
        for e in entries.iter_mut().flatten() {
            reword(&mut e.value, from, to);
        }
    }
}
