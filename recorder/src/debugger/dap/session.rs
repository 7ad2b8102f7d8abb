//! One program's session through a debug adapter: the normalized actions as DAP requests, the
//! adapter's events as pauses and outcomes.
//!
//! - Breakpoints: DAP sets a source's breakpoints all at once (`setBreakpoints` replaces the
//!   list), so every set or removal sends the whole list; the answer's `i`-th breakpoint is
//!   the list's `i`-th, and its `id` is what a `stopped` event's `hitBreakpointIds` names.
//! - Logpoints log through the program's stdout, marked as every adapter marks them
//!   ([`crate::debugger::LOG_MARK`]); the expression goes through `__morphtrace_log__` (the
//!   engine's sitecustomize), so that a failing one logs `threw NAME` instead of replacing the
//!   line with the adapter's error text.
//! - Continue to a location and restarting a frame: DAP has `goto` (a jump, not a run) and
//!   `restartFrame` only where the adapter says so (`supportsRestartFrame`).
//! - The program's outcome comes from the `exited` event's code and its stderr: a traceback is
//!   an uncaught exception, a negative code (a signal) the interpreter's crash.

use super::connection::{Connection, DapEvent};
use super::{c_values, err, go_values, values};
use crate::debugger::engines::forkserver::{AdapterProcess, NoStatus, Stream, Warm};
use crate::debugger::{
    after_the_end, refusal, CaptureOptions, Debugger, DebuggerError, Extra, ProgramFile,
    SyntaxError,
};
use async_trait::async_trait;
use futures_util::future::BoxFuture;
use morphtrace_schema::{
    Action, BreakpointId, Entry, ExceptionPause, Frame, Location, LocationSource, Output,
    PauseReason, PauseState, ProgramOutcome, Scope, ScopeKind, Value, Variable,
};
use serde_json::{json, Value as Json};
use std::path::Path;
use std::time::Duration;
use tokio::sync::mpsc;

/// An adapter process, connected and initialized, waiting for a program.
pub struct Launched {
    pub process: AdapterProcess,
    pub conn: Connection,
    pub events: mpsc::UnboundedReceiver<DapEvent>,
    /// The `initialize` response's capabilities.
    pub capabilities: Json,
}

impl crate::debugger::engines::prepared::Waiting for Launched {
    fn start_kill(&mut self) {
        self.process.start_kill();
    }
}

pub enum Opened {
    Session(Box<dyn Debugger>),
    SyntaxError(SyntaxError),
}

impl Opened {
    /// What `Engine::open` answers: the session, or the program's syntax error.
    pub fn into_result(self) -> Result<Box<dyn Debugger>, SyntaxError> {
        match self {
            Opened::Session(s) => Ok(s),
            Opened::SyntaxError(e) => Err(e),
        }
    }
}

/// `initialize`, as the recorder asks every adapter (1-based lines and columns, paths, variable
/// types, no terminal of its own); the answer is the adapter's capabilities.
pub async fn initialize(
    conn: &Connection,
    adapter_id: &str,
    timeout: Duration,
) -> Result<Json, DebuggerError> {
    conn.call(
        "initialize",
        json!({
            "clientID": "morphtrace",
            "clientName": "morphtrace",
            "adapterID": adapter_id,
            "linesStartAt1": true,
            "columnsStartAt1": true,
            "pathFormat": "path",
            "supportsVariableType": true,
            "supportsRunInTerminalRequest": false,
            "supportsStartDebuggingRequest": false,
        }),
        timeout,
    )
    .await
    .map_err(err)
}

/// What differs between adapters that the session needs to know.
#[derive(Debug, Clone)]
pub struct AdapterTraits {
    /// The exception filters that pause on uncaught exceptions, and on all (DAP leaves their
    /// names to the adapter; its `initialize` answer lists them).
    pub uncaught: Vec<&'static str>,
    pub all: Vec<&'static str>,
    /// Where the program's true exit status is written by its pid (`PID.status`), when the
    /// adapter's `exited` event cannot tell a signal from an exit code.
    pub statuses: Option<std::path::PathBuf>,
    /// The interpreter that runs the program, where the adapter places breakpoints by its
    /// compiled code's line starts (debugpy): the break positions (`line_starts`).
    pub python: Option<std::path::PathBuf>,
    /// The language of the programs, which decides how values, the end and output read.
    pub dialect: Dialect,
    /// Where the program's first statement is, for an adapter that cannot stop there by itself
    /// (LLDB's `stopOnEntry` stops in the loader): a function breakpoint set while the session
    /// is configured and cleared at its first stop, which then counts as the entry.
    pub entry_function: Option<&'static str>,
    /// The entry's function breakpoint stops on the function's own line, before its first
    /// statement (Delve's on `func main() {`): a step over at the entry brings it there.
    pub entry_step: bool,
}

/// What the programs a DAP adapter runs are written in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Dialect {
    /// Python under debugpy: values by `repr`, the end by the traceback.
    #[default]
    Python,
    /// C under LLDB: values by LLDB's summaries, output through a terminal (`\r\n`).
    C,
    /// Go under Delve: values by Delve's renderings (`go_values`), the program's output on the
    /// adapter's own streams, its exit status and a logpoint's line in `output` events.
    Go,
}

struct Breakpoint {
    id: BreakpointId,
    line: u32,
    /// Where the adapter placed it (0-based), when it verified it: debugpy moves a breakpoint
    /// on a line without code to the preceding line with code.
    placed: Option<u32>,
    column: Option<u32>,
    condition: Option<String>,
    log: Option<String>,
    /// The adapter's id for it, from the last `setBreakpoints` answer.
    adapter_id: Option<i64>,
}

/// How a native dialect's values read: C's as LLDB shows them, Go's as Delve does.
struct Reading {
    primitive: fn(&str, &str) -> Option<Value>,
    shell: fn(&str, &str) -> Value,
    kind: fn(&str) -> morphtrace_schema::ObjectKind,
    key: fn(&morphtrace_schema::ObjectKind, &str) -> morphtrace_schema::Key,
    described: fn(&str, &str) -> Option<String>,
    class: fn(&str) -> String,
}

const C: Reading = Reading {
    primitive: c_values::primitive,
    shell: c_values::shell,
    kind: c_values::kind,
    key: c_values::key,
    described: c_values::described,
    class: c_values::class,
};

const GO: Reading = Reading {
    primitive: go_values::primitive,
    shell: go_values::shell,
    kind: go_values::kind,
    key: go_values::key,
    described: go_values::described,
    class: str::to_string,
};

/// What the session knows of the pause it is in.
struct Paused {
    frame: i64,
    /// The top frame's scopes: `(scope reference, names it binds)`.
    scopes: Vec<(i64, Vec<String>)>,
}

pub struct DapSession {
    conn: Connection,
    events: mpsc::UnboundedReceiver<DapEvent>,
    process: AdapterProcess,
    engine: String,
    opts: CaptureOptions,
    /// The program's path as the adapter writes it in stack frames.
    path: String,
    traits: AdapterTraits,
    /// The program's process, from the `process` event.
    pid: Option<i64>,
    breakpoints: Vec<Breakpoint>,
    next_id: u32,
    started: bool,
    finished: Option<ProgramOutcome>,
    /// The program ended before its first statement (nothing to run): `Start` answers it.
    ended_early: Option<ProgramOutcome>,
    thread: i64,
    /// The pause at the first statement, until `Start`.
    initial: Option<Json>,
    paused: Option<Paused>,
    stdout: String,
    /// What logpoints logged, line by line, marked.
    logged: Vec<String>,
    stderr: String,
    exit_code: Option<i64>,
    /// The program's line starts (`AdapterTraits::python`), read at the first question.
    line_starts: Option<Option<Vec<u32>>>,
    /// C's globals in the order the program declares them (LLDB lists them in an order that
    /// changes from run to run).
    c_globals: Vec<String>,
    /// A program forked warm (debugpy's fork server): its streams are read apart from the
    /// adapter, its status comes from the server.
    warm: Option<Warm>,
    /// The program's stdout and stderr where they come apart from the adapter's events (Delve's
    /// program writes to the adapter's own streams): read to the end when it has ended.
    apart: Option<(Stream, Stream)>,
    /// A Go program's functions and methods by Delve's names: where a step into stops in a
    /// library, the session steps out with a function breakpoint on each, so that program code
    /// the library calls back (a `String` method called by `fmt`) is where the step ends.
    callbacks: Vec<String>,
    /// Those function breakpoints are set (until the next stop).
    armed: bool,
    /// A Go program's function body lines: where a step into stops in a panic (`runtime.gopanic`)
    /// that a deferred call recovers, the deferring function resumes without the panic ever
    /// returning, so a step out would run on; a breakpoint on each of these lines (beside the
    /// function breakpoints) ends the step where the program's code runs again.
    resumes: Vec<u32>,
    /// The adapter's ids of those line breakpoints while they are set (until the next stop).
    armed_lines: Vec<i64>,
}

/// How long the adapter gets to answer a disconnect before its processes are killed.
const DISCONNECT: Duration = Duration::from_secs(2);

impl DapSession {
    /// Starts `program` through the adapter (`launch`, or `attach` as `arguments` ask), runs
    /// the configuration handshake and waits at the program's first statement. `warm`: the
    /// program is forked when the adapter says where it waits for it (an `attach` whose
    /// adapter listens). `apart`: the program's stdout and stderr, where the adapter does not
    /// send them as events.
    #[allow(clippy::too_many_arguments)]
    pub async fn open(
        w: Launched,
        program: &ProgramFile,
        arguments: Json,
        traits: AdapterTraits,
        engine: &str,
        opts: CaptureOptions,
        warm: Option<Warm>,
        apart: Option<(Stream, Stream)>,
    ) -> Result<Opened, DebuggerError> {
        let c_dialect = traits.dialect == Dialect::C;
        let (callbacks, resumes) = match traits.dialect {
            Dialect::Go => morphtrace_syntax::go::GoSyntax::parse(&program.text)
                .map(|g| (g.functions(), g.body_lines()))
                .unwrap_or_default(),
            _ => (Vec::new(), Vec::new()),
        };
        let mut s = DapSession {
            conn: w.conn,
            events: w.events,
            process: w.process,
            engine: engine.to_string(),
            path: program.path.display().to_string(),
            traits,
            pid: None,
            breakpoints: Vec::new(),
            next_id: 1,
            started: false,
            finished: None,
            ended_early: None,
            thread: 0,
            initial: None,
            paused: None,
            stdout: String::new(),
            logged: Vec::new(),
            stderr: String::new(),
            exit_code: None,
            line_starts: None,
            c_globals: if c_dialect {
                morphtrace_syntax::c::CSyntax::parse(&program.text)
                    .map(|c| c.globals())
                    .unwrap_or_default()
            } else {
                Vec::new()
            },
            callbacks,
            armed: false,
            resumes,
            armed_lines: Vec::new(),
            opts,
            warm,
            apart,
        };
        // The adapter answers `launch` (or `attach`) only after `configurationDone`.
        let command = arguments
            .get("request")
            .and_then(Json::as_str)
            .unwrap_or("launch")
            .to_string();
        let launch = s.conn.send(&command, arguments).map_err(err)?;
        let deadline = tokio::time::Instant::now() + s.opts.call_timeout;
        loop {
            match s.next_event(deadline).await? {
                Some(e) if e.event == "initialized" => break,
                Some(e) if e.event == "debugpyWaitingForServer" => {
                    let port = e.body.get("port").and_then(Json::as_u64).unwrap_or(0);
                    if let (Some(w), Ok(port)) = (s.warm.as_mut(), u16::try_from(port)) {
                        let pid = w.start(port, s.opts.call_timeout).await?;
                        s.pid = Some(i64::from(pid));
                    }
                }
                Some(e) if e.event == "terminated" => {
                    s.ended().await?;
                    return Err(DebuggerError::Launch {
                        engine: s.engine.clone(),
                        reason: format!(
                            "the adapter ended the session before it was configured: {}",
                            s.stderr_text().trim()
                        ),
                    });
                }
                Some(_) => {}
                None => {
                    return Err(DebuggerError::Timeout(format!(
                        "{}: no `initialized` event within {:?}",
                        s.engine, s.opts.call_timeout
                    )))
                }
            }
        }
        if let Some(f) = s.traits.entry_function {
            s.call(
                "setFunctionBreakpoints",
                json!({"breakpoints": [{"name": f}]}),
            )
            .await?;
        }
        s.call("configurationDone", json!({})).await?;
        match tokio::time::timeout(s.opts.call_timeout, launch).await {
            Ok(Ok(reply)) => {
                reply.map_err(err)?;
            }
            Ok(Err(_)) => {
                return Err(DebuggerError::Crashed(
                    "the debug adapter closed the connection".into(),
                ))
            }
            Err(_) => return Err(DebuggerError::Timeout(format!("{}: launch", s.engine))),
        }
        // The first statement's pause, or the program's end (nothing to run, or it does not
        // compile).
        let deadline = tokio::time::Instant::now() + s.opts.action_timeout.max(s.opts.call_timeout);
        loop {
            match s.next_event(deadline).await? {
                Some(e) if e.event == "stopped" => {
                    s.thread = e.body.get("threadId").and_then(Json::as_i64).unwrap_or(0);
                    let mut body = e.body;
                    if s.traits.entry_function.is_some() {
                        s.call("setFunctionBreakpoints", json!({"breakpoints": []}))
                            .await?;
                        if s.traits.entry_step {
                            s.call("next", json!({"threadId": s.thread})).await?;
                            match s.next_stop(deadline).await? {
                                Some(b) => body = b,
                                None => {
                                    s.ended().await?;
                                    s.ended_early = Some(s.outcome());
                                    return Ok(Opened::Session(Box::new(s)));
                                }
                            }
                        }
                        body["reason"] = json!("entry");
                    }
                    s.initial = Some(body);
                    return Ok(Opened::Session(Box::new(s)));
                }
                Some(e) if e.event == "terminated" => {
                    s.ended().await?;
                    if let Some(e) = syntax_error(&s.stderr_text(), &s.path) {
                        s.close_now().await;
                        return Ok(Opened::SyntaxError(e));
                    }
                    s.ended_early = Some(s.outcome());
                    return Ok(Opened::Session(Box::new(s)));
                }
                Some(_) => {}
                None => {
                    return Err(DebuggerError::Timeout(format!(
                        "{}: the program did not reach its first statement",
                        s.engine
                    )))
                }
            }
        }
    }

    /// The next `stopped` event's body before `deadline`, or `None` when the program ended
    /// first. Past the deadline the program did not stop: a timeout.
    async fn next_stop(
        &mut self,
        deadline: tokio::time::Instant,
    ) -> Result<Option<Json>, DebuggerError> {
        loop {
            match self.next_event(deadline).await? {
                Some(e) if e.event == "stopped" => return Ok(Some(e.body)),
                Some(e) if e.event == "terminated" => return Ok(None),
                Some(_) => {}
                None => {
                    return Err(DebuggerError::Timeout(format!(
                        "{}: no stop within the action's time",
                        self.engine
                    )))
                }
            }
        }
    }

    async fn call(&self, command: &str, arguments: Json) -> Result<Json, DebuggerError> {
        self.conn
            .call(command, arguments, self.opts.call_timeout)
            .await
            .map_err(err)
    }

    /// The next event before `deadline` (`None` past it), output noted on the way. A closed
    /// adapter is the session's crash.
    async fn next_event(
        &mut self,
        deadline: tokio::time::Instant,
    ) -> Result<Option<DapEvent>, DebuggerError> {
        match tokio::time::timeout_at(deadline, self.events.recv()).await {
            Err(_) => Ok(None),
            Ok(None) => Err(DebuggerError::Crashed(format!(
                "{}: the debug adapter closed the connection",
                self.engine
            ))),
            Ok(Some(e)) => {
                match e.event.as_str() {
                    "output" | "exited" | "process" => self.note(&e),
                    _ => {}
                }
                Ok(Some(e))
            }
        }
    }

    /// A warm program's end: its status and what it wrote, awaited (the adapter's `terminated`
    /// comes when the debugger in it disconnects, which may be before it has exited). The fork
    /// server's end is the engine's crash, as the adapter's is when cold (the memory guard
    /// kills the server with the program).
    async fn ended(&mut self) -> Result<(), DebuggerError> {
        if let Some((out, err)) = self.apart.as_mut() {
            // The program has ended: what it wrote is in the pipes.
            out.finish().await;
            err.finish().await;
        }
        let deadline = tokio::time::Instant::now() + self.opts.call_timeout;
        let Some(w) = self.warm.as_mut() else {
            return Ok(());
        };
        match w.end(deadline).await {
            Ok(_) => Ok(()),
            Err(NoStatus::ServerGone) => Err(DebuggerError::Crashed(format!(
                "{}: the fork server the program ran under is gone",
                self.engine
            ))),
            Err(NoStatus::Late) => Err(DebuggerError::Timeout(format!(
                "{}: the program did not end after the debugger left it",
                self.engine
            ))),
        }
    }

    fn stdout_text(&self) -> String {
        match (&self.warm, &self.apart) {
            (Some(w), _) => w.stdout.text(),
            (None, Some((out, _))) => out.text(),
            (None, None) => self.stdout.clone(),
        }
    }

    fn stderr_text(&self) -> String {
        match (&self.warm, &self.apart) {
            (Some(w), _) => w.stderr.text(),
            (None, Some((_, err))) => err.text(),
            (None, None) => self.stderr.clone(),
        }
    }

    fn outcome(&self) -> ProgramOutcome {
        // The true status where the adapter's code may hide a signal.
        let status = self
            .traits
            .statuses
            .as_ref()
            .zip(self.pid)
            .and_then(|(dir, pid)| std::fs::read_to_string(dir.join(format!("{pid}.status"))).ok())
            .and_then(|s| s.trim().parse::<i64>().ok());
        match self.traits.dialect {
            Dialect::Python => outcome(status.or(self.exit_code), &self.stderr_text(), &self.path),
            // The program's own exit code is its business; the adapter reports a signal as a
            // pause (reason `exception`), not as the end.
            Dialect::C => ProgramOutcome::Completed,
            Dialect::Go => go_outcome(&self.stderr_text(), &self.path),
        }
    }

    fn finish(&mut self, outcome: ProgramOutcome) -> Output {
        self.paused = None;
        self.finished = Some(outcome.clone());
        Output::Finished { outcome }
    }

    /// Waits for the next pause in the program, or its end.
    async fn wait_outcome(&mut self, action: &Action) -> Result<Output, DebuggerError> {
        let deadline = tokio::time::Instant::now() + self.opts.action_timeout;
        loop {
            let Some(e) = self.next_event(deadline).await? else {
                return Ok(self.finish(ProgramOutcome::Timeout));
            };
            match e.event.as_str() {
                "stopped" => {
                    if let Some(p) = self.pause(&e.body, action).await? {
                        return Ok(Output::Paused(p));
                    }
                }
                "terminated" => {
                    // `exited` comes first; its output may still be queued.
                    while let Ok(e) = self.events.try_recv() {
                        self.note(&e);
                    }
                    self.ended().await?;
                    let o = self.outcome();
                    return Ok(self.finish(o));
                }
                _ => {}
            }
        }
    }

    /// Notes what an event tells of the program: its output, a logpoint's line, its exit code.
    /// A logpoint's line is an event of its own, sent by the debugger in the program, while the
    /// program's own output comes through the launcher's pipe in chunks and later: the two
    /// are kept apart, or a log line could land inside a line the program printed.
    fn note(&mut self, e: &DapEvent) {
        let text = e.body.get("output").and_then(Json::as_str).unwrap_or("");
        match (
            e.event.as_str(),
            e.body.get("category").and_then(Json::as_str),
        ) {
            ("output", Some("stdout")) if text.starts_with(crate::debugger::LOG_MARK) => {
                self.logged.extend(text.lines().map(str::to_string));
            }
            // Delve sends what a logpoint logs as the program's stdout, after the goroutine's
            // name (`> [Go 1]: `); the program's own stdout never comes as an event.
            ("output", Some("stdout")) if self.traits.dialect == Dialect::Go => {
                self.logged.extend(text.lines().map(|l| {
                    l.strip_prefix("> [")
                        .and_then(|r| r.split_once("]: "))
                        .map_or(l, |(_, m)| m)
                        .to_string()
                }));
            }
            // Delve tells the end in its console: `Process 1860 has exited with status 0`.
            ("output", Some("console")) if self.traits.dialect == Dialect::Go => {
                if let Some(code) = text
                    .split_once(" has exited with status ")
                    .and_then(|(_, c)| c.trim().parse::<i64>().ok())
                {
                    self.exit_code = Some(code);
                }
            }
            // LLDB writes what a logpoint logs to its own console.
            ("output", Some("console"))
                if self.traits.dialect == Dialect::C
                    && text.starts_with(crate::debugger::LOG_MARK) =>
            {
                self.logged.extend(text.lines().map(str::to_string));
            }
            // A program under LLDB writes to a terminal, which ends lines with `\r\n`.
            ("output", Some("stdout")) if self.traits.dialect == Dialect::C => {
                self.stdout.push_str(&text.replace("\r\n", "\n"))
            }
            ("output", Some("stdout")) => self.stdout.push_str(text),
            ("output", Some("stderr")) => self.stderr.push_str(text),
            // The adapter's own words (`console`, `telemetry`, `important`).
            ("output", _) => {}
            ("exited", _) => self.exit_code = e.body.get("exitCode").and_then(Json::as_i64),
            ("process", _) => self.pid = e.body.get("systemProcessId").and_then(Json::as_i64),
            _ => {}
        }
    }

    /// The pause a `stopped` event tells of, or `None` when it is outside the program (a step
    /// out of its last frame into the interpreter's): the session then leaves it.
    async fn pause(
        &mut self,
        stopped: &Json,
        action: &Action,
    ) -> Result<Option<PauseState>, DebuggerError> {
        let thread = stopped
            .get("threadId")
            .and_then(Json::as_i64)
            .unwrap_or(self.thread);
        self.thread = thread;
        // The stop that ends a step out of a library: its function breakpoints go, and one of
        // them hit is the step's end.
        let armed_lines = std::mem::take(&mut self.armed_lines);
        let stepped_back = std::mem::take(&mut self.armed) || !armed_lines.is_empty();
        // Stopped by one of those line breakpoints alone: the step's end, like a function
        // breakpoint. (Told before they go: the session's own keep their lines, and one hit
        // with them is a breakpoint pause.)
        let resumed = !armed_lines.is_empty()
            && stopped
                .get("hitBreakpointIds")
                .and_then(Json::as_array)
                .is_some_and(|ids| {
                    !ids.is_empty()
                        && ids
                            .iter()
                            .all(|i| i.as_i64().is_some_and(|i| armed_lines.contains(&i)))
                });
        if stepped_back {
            self.call("setFunctionBreakpoints", json!({"breakpoints": []}))
                .await?;
        }
        let trace = self.call("stackTrace", json!({"threadId": thread})).await?;
        let frames: &[Json] = trace
            .get("stackFrames")
            .and_then(Json::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let program = match crate::debugger::in_program(frames, |f| self.is_program(f)) {
            Ok(p) => p.into_iter().cloned().collect::<Vec<Json>>(),
            Err(program_below) => {
                // A step into a Go method expression (`I.m(S{})`) stops in the wrapper the
                // compiler made, a frame without a source (Delve: `main.I.m`, line 1), which
                // calls the program's method: one more step in gets there, where a step out
                // would skip it.
                let wrapper = self.traits.dialect == Dialect::Go
                    && matches!(action, Action::StepInto)
                    && frames.first().is_some_and(|f| {
                        f.pointer("/source/path")
                            .and_then(Json::as_str)
                            .is_none_or(|p| p.is_empty() || p == "<autogenerated>")
                    });
                if !armed_lines.is_empty() {
                    self.send_breakpoints().await?;
                }
                let leave = if wrapper {
                    "stepIn"
                } else if program_below && action.is_control() && !matches!(action, Action::Resume)
                {
                    if matches!(action, Action::StepInto) && !self.callbacks.is_empty() {
                        let each: Vec<Json> =
                            self.callbacks.iter().map(|f| json!({"name": f})).collect();
                        self.call("setFunctionBreakpoints", json!({"breakpoints": each}))
                            .await?;
                        self.armed = true;
                        let panicking = frames.iter().any(|f| {
                            f.get("name").and_then(Json::as_str) == Some("runtime.gopanic")
                        });
                        if panicking {
                            self.arm_resumes().await?;
                        }
                    }
                    "stepOut"
                } else {
                    "continue"
                };
                self.call(leave, json!({"threadId": thread})).await?;
                return Ok(None);
            }
        };
        let mut stack = Vec::with_capacity(program.len());
        let mut top = None;
        for (i, f) in program.iter().enumerate() {
            let id = f.get("id").and_then(Json::as_i64).unwrap_or(0);
            let scopes = if self.opts.scopes_of(i) {
                let (scopes, refs) = self.scopes(id, is_module(f)).await?;
                if i == 0 {
                    top = Some(Paused {
                        frame: id,
                        scopes: refs,
                    });
                }
                scopes
            } else {
                Vec::new()
            };
            stack.push(Frame {
                function: function_name(f),
                location: location(f),
                scopes,
            });
        }
        self.paused = top;
        let at = stack.first().map(|f| f.location).unwrap_or_default();
        let engine_reason = stopped
            .get("reason")
            .and_then(Json::as_str)
            .map(str::to_string);
        let reason = match engine_reason.as_deref() {
            Some("function breakpoint") if stepped_back => PauseReason::Step,
            Some("breakpoint") if resumed => PauseReason::Step,
            Some("breakpoint") => PauseReason::Breakpoint {
                ids: self.hit(stopped, at),
            },
            Some("step") => PauseReason::Step,
            Some("exception") => PauseReason::Exception,
            Some("entry") => PauseReason::Entry,
            Some(other) => PauseReason::Other(other.to_string()),
            None => PauseReason::Other("unknown".into()),
        };
        // The line breakpoints go once the hit is told by the ids they were set with.
        if !armed_lines.is_empty() {
            self.send_breakpoints().await?;
        }
        let exception = if reason == PauseReason::Exception {
            self.exception(thread).await.map(Box::new)
        } else {
            None
        };
        Ok(Some(PauseState {
            location: at,
            reason,
            engine_reason,
            stack,
            exception,
            // Python keeps no async call stack a debugger shows.
            condition: None,
            async_stack: None,
        }))
    }

    fn is_program(&self, f: &Json) -> bool {
        f.pointer("/source/path")
            .and_then(Json::as_str)
            .is_some_and(|p| same_path(p, &self.path))
    }

    /// Our breakpoints a `stopped` event names (or, when it names none, those placed here).
    fn hit(&self, stopped: &Json, at: Location) -> Vec<BreakpointId> {
        let named: Vec<i64> = stopped
            .get("hitBreakpointIds")
            .and_then(Json::as_array)
            .map(|a| a.iter().filter_map(Json::as_i64).collect())
            .unwrap_or_default();
        let mut ids: Vec<BreakpointId> = self
            .breakpoints
            .iter()
            .filter(|b| match b.adapter_id {
                Some(a) if !named.is_empty() => named.contains(&a),
                _ => named.is_empty() && b.placed.unwrap_or(b.line) == at.line,
            })
            .map(|b| b.id)
            .collect();
        ids.sort();
        ids
    }

    /// The top frame's scopes (locals, then globals; a module's code has only globals) and
    /// their references with the names they bind.
    async fn scopes(
        &self,
        frame: i64,
        module: bool,
    ) -> Result<(Vec<Scope>, Vec<(i64, Vec<String>)>), DebuggerError> {
        let body = self.call("scopes", json!({"frameId": frame})).await?;
        let mut scopes = Vec::new();
        let mut refs = Vec::new();
        for s in body
            .get("scopes")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            let name = s.get("name").and_then(Json::as_str).unwrap_or("");
            // The machine's registers are not the program's variables.
            if s.get("presentationHint").and_then(Json::as_str) == Some("registers") {
                continue;
            }
            let kind = match name {
                "Locals" if module => continue,
                "Locals" => ScopeKind::Local,
                "Globals" => ScopeKind::Global,
                other => ScopeKind::Other(other.to_lowercase()),
            };
            let reference = s
                .get("variablesReference")
                .and_then(Json::as_i64)
                .unwrap_or(0);
            let mut variables = Vec::new();
            for (n, v) in self.children(reference, self.opts.depth).await? {
                variables.push(Variable {
                    name: n,
                    value: v,
                    reported: None,
                });
            }
            if self.traits.dialect == Dialect::C {
                // A name declared in two blocks around the pause is the innermost one's, as
                // the debugger evaluates it. LLDB lists the function's variables in scope from
                // its outermost block in: the last of a name is the innermost.
                let mut seen = std::collections::HashSet::new();
                let innermost: Vec<bool> = variables
                    .iter()
                    .rev()
                    .map(|v| seen.insert(v.name.clone()))
                    .collect();
                let mut keep = innermost.into_iter().rev();
                variables.retain(|_| keep.next().unwrap_or(true));
            }
            if self.traits.dialect == Dialect::Go {
                variables.retain(|v| go_values::is_program_name(&v.name));
            }
            if kind == ScopeKind::Global && self.traits.dialect == Dialect::C {
                let rank = |name: &str| {
                    self.c_globals
                        .iter()
                        .position(|g| g == name)
                        .unwrap_or(usize::MAX)
                };
                variables.sort_by(|a, b| (rank(&a.name), &a.name).cmp(&(rank(&b.name), &b.name)));
            }
            refs.push((
                reference,
                variables.iter().map(|v| v.name.clone()).collect(),
            ));
            scopes.push(Scope {
                kind,
                name: None,
                variables,
            });
        }
        Ok((scopes, refs))
    }

    /// The children of a variables reference, without the adapter's groupings, each expanded
    /// to `depth` more levels.
    fn children(
        &self,
        reference: i64,
        depth: u32,
    ) -> BoxFuture<'_, Result<Vec<(String, Value)>, DebuggerError>> {
        Box::pin(async move {
            if reference <= 0 {
                return Ok(Vec::new());
            }
            let body = self
                .call("variables", json!({"variablesReference": reference}))
                .await?;
            let mut out = Vec::new();
            for v in body
                .get("variables")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
            {
                let mut name = v.get("name").and_then(Json::as_str).unwrap_or("");
                // LLDB names each of two locals of one name by its declaration
                // (`i @ prog.c:7`); a scope keeps the innermost (`scopes`).
                if self.traits.dialect == Dialect::C {
                    name = name.split_once(" @ ").map_or(name, |(n, _)| n);
                }
                if values::is_grouping(name)
                    || (self.traits.dialect == Dialect::Go && go_values::is_synthetic(name))
                {
                    continue;
                }
                let name = if self.traits.dialect == Dialect::C {
                    let type_name = v.get("type").and_then(Json::as_str).unwrap_or("");
                    match c_values::member_name(name, type_name) {
                        Some(n) => n,
                        None => continue,
                    }
                } else {
                    name.to_string()
                };
                out.push((name, self.value(v, depth).await?));
            }
            Ok(out)
        })
    }

    /// A variable's (or an evaluation's) value: `value`/`result`, `type` and its children.
    async fn value(&self, v: &Json, depth: u32) -> Result<Value, DebuggerError> {
        let repr = v
            .get("value")
            .or_else(|| v.get("result"))
            .and_then(Json::as_str)
            .unwrap_or("");
        let type_name = v.get("type").and_then(Json::as_str).unwrap_or("");
        match self.traits.dialect {
            Dialect::C => return self.typed_value(v, type_name, repr, depth, &C).await,
            Dialect::Go => {
                let type_name = go_values::value_type(type_name);
                return self.typed_value(v, type_name, repr, depth, &GO).await;
            }
            Dialect::Python => {}
        }
        if let Some(p) = values::primitive(type_name, repr) {
            return Ok(p);
        }
        let reference = v
            .get("variablesReference")
            .and_then(Json::as_i64)
            .unwrap_or(0);
        let opaque = values::OPAQUE.contains(&type_name);
        if depth == 0 || reference <= 0 || opaque {
            return Ok(values::shell(type_name, repr));
        }
        let kind = values::kind(type_name);
        let children = self.children(reference, depth - 1).await?;
        let truncated = children.len() > self.opts.max_entries;
        let entries = children
            .into_iter()
            .take(self.opts.max_entries)
            .enumerate()
            .map(|(i, (n, value))| Entry {
                key: values::key(&kind, &n, i),
                value,
            })
            .collect();
        Ok(Value::Object {
            description: values::described(&kind, repr),
            kind,
            class: type_name.to_string(),
            entries: Some(entries),
            truncated,
        })
    }

    /// A native program's value (C's, Go's): a primitive, or an object with its members, read
    /// as `r` says.
    async fn typed_value(
        &self,
        v: &Json,
        type_name: &str,
        repr: &str,
        depth: u32,
        r: &Reading,
    ) -> Result<Value, DebuggerError> {
        if let Some(p) = (r.primitive)(type_name, repr) {
            return Ok(p);
        }
        let reference = v
            .get("variablesReference")
            .and_then(Json::as_i64)
            .unwrap_or(0);
        if depth == 0 || reference <= 0 {
            return Ok((r.shell)(type_name, repr));
        }
        let kind = (r.kind)(type_name);
        let children = self.children(reference, depth - 1).await?;
        let truncated = children.len() > self.opts.max_entries;
        let entries = children
            .into_iter()
            .take(self.opts.max_entries)
            .map(|(n, value)| Entry {
                key: (r.key)(&kind, &n),
                value,
            })
            .collect();
        Ok(Value::Object {
            description: (r.described)(type_name, repr),
            kind,
            class: (r.class)(type_name),
            entries: Some(entries),
            truncated,
        })
    }

    /// The exception a pause on one is for (`exceptionInfo`): its type as class, its message.
    async fn exception(&self, thread: i64) -> Option<Value> {
        let info = self
            .call("exceptionInfo", json!({"threadId": thread}))
            .await
            .ok()?;
        let class = info.get("exceptionId").and_then(Json::as_str)?;
        let message = info.get("description").and_then(Json::as_str).unwrap_or("");
        Some(Value::Object {
            kind: morphtrace_schema::ObjectKind::Error,
            class: class.to_string(),
            description: Some(format!("{class}: {message}")),
            entries: None,
            truncated: false,
        })
    }

    /// Sends the whole breakpoint list; the answer places each.
    async fn send_breakpoints(&mut self) -> Result<Vec<Json>, DebuggerError> {
        self.send_breakpoints_with(&[]).await
    }

    /// Sends the whole breakpoint list and a plain breakpoint on each of `extra`'s lines after
    /// it; the answer places each (the session's first).
    async fn send_breakpoints_with(&mut self, extra: &[u32]) -> Result<Vec<Json>, DebuggerError> {
        let mut list: Vec<Json> = self
            .breakpoints
            .iter()
            .map(|b| {
                let mut o = json!({"line": b.line + 1});
                if let Some(c) = b.column {
                    o["column"] = json!(c + 1);
                }
                if let Some(c) = &b.condition {
                    o["condition"] = json!(c);
                }
                if let Some(e) = &b.log {
                    o["logMessage"] = json!(match self.traits.dialect {
                        Dialect::Python => log_message(b.id, e),
                        // Delve interpolates `{EXPRESSION}` as LLDB does.
                        Dialect::C | Dialect::Go => c_log_message(b.id, e),
                    });
                }
                o
            })
            .collect();
        list.extend(extra.iter().map(|l| json!({"line": l + 1})));
        let body = self
            .call(
                "setBreakpoints",
                json!({"source": {"path": self.path}, "breakpoints": list}),
            )
            .await?;
        let placed: Vec<Json> = body
            .get("breakpoints")
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default();
        for (b, p) in self.breakpoints.iter_mut().zip(&placed) {
            b.adapter_id = p.get("id").and_then(Json::as_i64);
            b.placed = p
                .get("line")
                .and_then(Json::as_u64)
                .filter(|_| p.get("verified") == Some(&json!(true)))
                .map(|l| l.saturating_sub(1) as u32);
        }
        Ok(placed)
    }

    /// Sets a breakpoint on each line of `resumes` beside the session's own (the same line
    /// keeps the session's, with its condition), and notes the adapter's ids of the others.
    async fn arm_resumes(&mut self) -> Result<(), DebuggerError> {
        let own: std::collections::BTreeSet<u32> =
            self.breakpoints.iter().map(|b| b.line).collect();
        let extra: Vec<u32> = self
            .resumes
            .iter()
            .copied()
            .filter(|l| !own.contains(l))
            .collect();
        let placed = self.send_breakpoints_with(&extra).await?;
        self.armed_lines = placed
            .iter()
            .skip(self.breakpoints.len())
            .filter_map(|p| p.get("id").and_then(Json::as_i64))
            .collect();
        Ok(())
    }

    async fn add_breakpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
        extra: Extra<'_>,
    ) -> Result<Output, DebuggerError> {
        if let Some(o) = after_the_end(self.finished.as_ref()) {
            return Ok(o);
        }
        // Every set request takes an id, refused or not, as on every engine: lockstep names a
        // breakpoint by the id the first engine gave it.
        let id = BreakpointId(self.next_id);
        self.next_id += 1;
        // A source's breakpoints are one per line in DAP: a second would replace the first.
        if let Some(b) = self.breakpoints.iter().find(|b| b.line == line) {
            return Ok(Output::Error {
                message: format!(
                    "the Debug Adapter Protocol holds one breakpoint per line: #{} is on it",
                    b.id.0
                ),
            });
        }
        let (condition, log) = match extra {
            Extra::Plain => (None, None),
            Extra::Condition(c) => (Some(c.to_string()), None),
            Extra::Log(e) => (None, Some(e.to_string())),
        };
        self.breakpoints.push(Breakpoint {
            id,
            line,
            column,
            condition,
            log,
            adapter_id: None,
            placed: None,
        });
        let placed = match self.send_breakpoints().await {
            Ok(p) => p,
            Err(DebuggerError::Protocol(message)) => {
                self.breakpoints.pop();
                return Ok(Output::Error { message });
            }
            Err(e) => return Err(e),
        };
        let actual = placed
            .get(self.breakpoints.len() - 1)
            .filter(|p| p.get("verified") == Some(&json!(true)))
            .and_then(|p| p.get("line").and_then(Json::as_u64))
            .map(|l| vec![Location::new(l.saturating_sub(1) as u32, 0)])
            .unwrap_or_default();
        Ok(Output::BreakpointSet {
            id,
            requested: Location::new(line, column.unwrap_or(0)),
            actual,
            source: LocationSource::EngineReported,
            policy: None,
        })
    }

    /// Kills the adapter and everything it started.
    async fn close_now(&mut self) {
        let _ = tokio::time::timeout(
            DISCONNECT,
            self.conn
                .call("disconnect", json!({"terminateDebuggee": true}), DISCONNECT),
        )
        .await;
        if let Some(w) = &self.warm {
            w.kill();
        }
        if let Some(pid) = self.process.id() {
            for p in crate::child::descendants(pid) {
                // SAFETY: kill takes no pointers; a pid gone meanwhile is an ESRCH, ignored.
                unsafe {
                    libc::kill(p as i32, libc::SIGKILL);
                }
            }
        }
        self.process.start_kill();
        let _ = self.process.wait(DISCONNECT).await;
    }

    fn lines(&self) -> Vec<String> {
        let stdout = self.stdout_text();
        let mut lines: Vec<String> = stdout.split('\n').map(str::to_string).collect();
        // The text after the last break is a line only when it has something.
        if lines.last().is_some_and(String::is_empty) {
            lines.pop();
        }
        lines
    }
}

#[async_trait]
impl Debugger for DapSession {
    async fn set_breakpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
    ) -> Result<Output, DebuggerError> {
        self.add_breakpoint(line, column, Extra::Plain).await
    }

    async fn set_conditional_breakpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
        condition: &str,
    ) -> Result<Output, DebuggerError> {
        self.add_breakpoint(line, column, Extra::Condition(condition))
            .await
    }

    async fn set_logpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
        expression: &str,
    ) -> Result<Output, DebuggerError> {
        self.add_breakpoint(line, column, Extra::Log(expression))
            .await
    }

    async fn remove_breakpoint(&mut self, id: BreakpointId) -> Result<Output, DebuggerError> {
        if let Some(o) = after_the_end(self.finished.as_ref()) {
            return Ok(o);
        }
        let Some(i) = self.breakpoints.iter().position(|b| b.id == id) else {
            return Ok(Output::BreakpointRemoved { id, ok: false });
        };
        let removed = self.breakpoints.remove(i);
        match self.send_breakpoints().await {
            Ok(_) => Ok(Output::BreakpointRemoved { id, ok: true }),
            Err(DebuggerError::Protocol(message)) => {
                self.breakpoints.insert(i, removed);
                Ok(Output::Error { message })
            }
            Err(e) => Err(e),
        }
    }

    async fn control(&mut self, action: &Action) -> Result<Output, DebuggerError> {
        if let Some(refused) = refusal(action, self.started, self.finished.as_ref()) {
            return Ok(refused);
        }
        let command = match action {
            Action::Start => {
                self.started = true;
                if let Some(outcome) = self.ended_early.take() {
                    return Ok(self.finish(outcome));
                }
                let Some(initial) = self.initial.take() else {
                    return Err(DebuggerError::Protocol(
                        "the program is not waiting at its first statement".into(),
                    ));
                };
                // A continue from the first statement passes a breakpoint set there: report
                // the hit, as an engine that runs the program from its start does. Where the
                // adapter placed it counts (one asked for inside a module's docstring is on the
                // docstring's first line, where the program waits). Delve does not pass it: a
                // continue from where a breakpoint was set meanwhile stops there at once, as
                // that breakpoint's hit (its condition and log held), which is the start's.
                let delve_hits_it = self.traits.dialect == Dialect::Go;
                if let Some(mut p) = self
                    .pause(&initial, action)
                    .await?
                    .filter(|_| !delve_hits_it)
                {
                    let hit: Vec<BreakpointId> = self
                        .breakpoints
                        .iter()
                        .filter(|b| {
                            b.log.is_none()
                                && b.condition.is_none()
                                && b.placed.unwrap_or(b.line) == p.location.line
                        })
                        .map(|b| b.id)
                        .collect();
                    if !hit.is_empty() {
                        p.reason = PauseReason::Breakpoint { ids: hit };
                        return Ok(Output::Paused(p));
                    }
                }
                "continue"
            }
            Action::Resume => "continue",
            Action::StepInto => "stepIn",
            Action::StepOver => "next",
            Action::StepOut => "stepOut",
            Action::ContinueToLocation { .. } => {
                return Ok(Output::Error {
                    message: "the Debug Adapter Protocol cannot continue to a location".into(),
                })
            }
            Action::RestartFrame { .. } => {
                return Ok(Output::Error {
                    message: format!("{} cannot restart a frame", self.engine),
                })
            }
            // `refusal` lets only control actions through.
            other => {
                return Ok(Output::Error {
                    message: format!("{other} is not a control action"),
                })
            }
        };
        self.paused = None;
        match self.call(command, json!({"threadId": self.thread})).await {
            Ok(_) => {}
            Err(DebuggerError::Protocol(message)) => return Ok(Output::Error { message }),
            Err(e) => return Err(e),
        }
        match self.wait_outcome(action).await {
            Err(DebuggerError::Crashed(m)) => {
                // The adapter went: a death by a fault signal is the interpreter's crash.
                match self.process.wait(Duration::from_secs(2)).await {
                    Some(status) => match crate::debugger::fault(&self.engine, status) {
                        // The program had ended (its `exited` came) when the adapter died: its
                        // end stands, and no action is left to answer. lldb-vscode 16 now and
                        // then dies of SIGSEGV in its teardown; that is not the program's end.
                        Some(message) if self.exit_code.is_some() => {
                            tracing::warn!("{message} after the program exited");
                            let o = self.outcome();
                            Ok(self.finish(o))
                        }
                        Some(message) => Ok(self.finish(ProgramOutcome::EngineCrashed { message })),
                        None => Err(DebuggerError::Crashed(m)),
                    },
                    None => Err(DebuggerError::Crashed(m)),
                }
            }
            other => other,
        }
    }

    fn continues_to_location(&self) -> bool {
        false
    }

    fn restarts_frames(&self) -> bool {
        false
    }

    /// DAP's `setVariable` is a request of its own.
    fn sets_by_assignment(&self) -> bool {
        false
    }

    async fn set_variable(&mut self, name: &str, value: &str) -> Result<Output, DebuggerError> {
        if let Some(o) = after_the_end(self.finished.as_ref()) {
            return Ok(o);
        }
        let Some(p) = &self.paused else {
            return Ok(crate::debugger::not_paused());
        };
        let Some(reference) = p
            .scopes
            .iter()
            .find(|(_, names)| names.iter().any(|n| n == name))
            .map(|(r, _)| *r)
        else {
            return Ok(crate::debugger::unbound(name));
        };
        match self
            .call(
                "setVariable",
                json!({"variablesReference": reference, "name": name, "value": value}),
            )
            .await
        {
            Ok(_) => {}
            Err(DebuggerError::Protocol(message)) => return Ok(Output::Error { message }),
            Err(e) => return Err(e),
        }
        let read = self.evaluate(name).await?;
        Ok(crate::debugger::read_back(read, name))
    }

    async fn pause_on_exceptions(&mut self, mode: ExceptionPause) -> Result<Output, DebuggerError> {
        if let Some(o) = after_the_end(self.finished.as_ref()) {
            return Ok(o);
        }
        let filters = match mode {
            ExceptionPause::None => Vec::new(),
            ExceptionPause::Uncaught => self.traits.uncaught.clone(),
            ExceptionPause::All => self.traits.all.clone(),
        };
        match self
            .call("setExceptionBreakpoints", json!({"filters": filters}))
            .await
        {
            Ok(_) => Ok(Output::PauseOnExceptionsSet { mode }),
            Err(DebuggerError::Protocol(message)) => Ok(Output::Error { message }),
            Err(e) => Err(e),
        }
    }

    async fn evaluate(&mut self, expression: &str) -> Result<Output, DebuggerError> {
        let Some(p) = &self.paused else {
            return Ok(crate::debugger::not_paused());
        };
        let frame = p.frame;
        match self
            .conn
            .call(
                "evaluate",
                json!({"expression": expression, "frameId": frame, "context": "watch"}),
                self.opts.call_timeout,
            )
            .await
        {
            Ok(body) => Ok(Output::Evaluated {
                value: self.value(&body, self.opts.depth).await?,
                threw: false,
            }),
            Err(super::DapError::Failed { message, .. }) => Ok(Output::Evaluated {
                value: values::thrown(&message),
                threw: true,
            }),
            Err(e) => Err(err(e)),
        }
    }

    /// The program's line starts, by the interpreter that runs it (debugpy): every line
    /// position, column 0, from `from` to `to`.
    async fn break_positions(
        &mut self,
        from: Location,
        to: Location,
    ) -> Result<Option<Vec<Location>>, DebuggerError> {
        let Some(python) = self.traits.python.clone() else {
            return Ok(None);
        };
        if self.line_starts.is_none() {
            let path = std::path::PathBuf::from(&self.path);
            self.line_starts = Some(crate::debugger::line_starts::python(&python, &path).await);
        }
        Ok(self.line_starts.clone().flatten().map(|lines| {
            lines
                .into_iter()
                .map(|l| Location::new(l - 1, 0))
                .filter(|l| from <= *l && *l <= to)
                .collect()
        }))
    }

    fn console(&self) -> Vec<String> {
        crate::debugger::split_console(&self.lines()).0
    }

    /// What logpoints logged, without memory addresses (a `str` of an object names one,
    /// different in every run; see [`values::description`]).
    fn logs(&self) -> Vec<(BreakpointId, String)> {
        crate::debugger::split_console(&self.logged)
            .1
            .into_iter()
            .map(|(b, text)| (b, values::description(&text)))
            .collect()
    }

    /// A session is its own adapter process: nothing to restart afterwards.
    async fn close(mut self: Box<Self>) -> bool {
        self.close_now().await;
        true
    }
}

/// A logpoint's message: the mark, its id, and its expression through the sitecustomize's
/// `__morphtrace_log__` as a string literal (braces escaped: the adapter reads `{…}` as
/// interpolation).
/// The `logMessage` of a logpoint under LLDB, which evaluates what stands in braces as an
/// expression of the program's language and writes its value: the mark, the id, `{EXPRESSION}`.
/// `None` of the recorder's expressions holds a brace.
pub fn c_log_message(id: BreakpointId, expression: &str) -> String {
    format!("{} {} {{{expression}}}", crate::debugger::LOG_MARK, id.0)
}

pub fn log_message(id: BreakpointId, expression: &str) -> String {
    let mut literal = String::from("'");
    for c in expression.chars() {
        match c {
            '\\' => literal.push_str("\\\\"),
            '\'' => literal.push_str("\\'"),
            '{' => literal.push_str("\\x7b"),
            '}' => literal.push_str("\\x7d"),
            '\n' => literal.push_str("\\n"),
            c => literal.push(c),
        }
    }
    literal.push('\'');
    format!(
        "{} {} {{__morphtrace_log__({literal})}}",
        crate::debugger::LOG_MARK,
        id.0
    )
}

fn same_path(a: &str, b: &str) -> bool {
    a == b
        || Path::new(a)
            .canonicalize()
            .ok()
            .zip(Path::new(b).canonicalize().ok())
            .is_some_and(|(x, y)| x == y)
}

fn is_module(f: &Json) -> bool {
    f.get("name").and_then(Json::as_str) == Some("<module>")
}

fn function_name(f: &Json) -> String {
    match f.get("name").and_then(Json::as_str) {
        Some("<module>") | None => String::new(),
        Some(n) => n.to_string(),
    }
}

fn location(f: &Json) -> Location {
    let line = f.get("line").and_then(Json::as_u64).unwrap_or(1);
    // Adapters without columns (debugpy) say 1: the line's start.
    let column = f.get("column").and_then(Json::as_u64).unwrap_or(1);
    Location::new(
        line.saturating_sub(1) as u32,
        column.saturating_sub(1) as u32,
    )
}

/// The line of the last `File "<path>", line N` of a traceback that names the program.
fn traceback_line(stderr: &str, path: &str) -> Option<Location> {
    stderr.lines().rev().find_map(|l| {
        let rest = l.trim_start().strip_prefix("File \"")?;
        let (file, rest) = rest.split_once('"')?;
        if !same_path(file, path) {
            return None;
        }
        let n: u32 = rest
            .trim_start_matches(", line ")
            .split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()?;
        Some(Location::new(n.saturating_sub(1), 0))
    })
}

/// The program's outcome from its exit code and stderr.
pub fn outcome(code: Option<i64>, stderr: &str, path: &str) -> ProgramOutcome {
    if let Some(c) = code.filter(|c| *c < 0) {
        let name = match -c {
            4 => "SIGILL".to_string(),
            5 => "SIGTRAP".into(),
            6 => "SIGABRT".into(),
            7 => "SIGBUS".into(),
            8 => "SIGFPE".into(),
            9 => "SIGKILL".into(),
            11 => "SIGSEGV".into(),
            n => format!("signal {n}"),
        };
        return ProgramOutcome::EngineCrashed {
            message: format!("python died of {name}"),
        };
    }
    if let Some(tb) = stderr.rfind("Traceback (most recent call last):") {
        let rest = &stderr[tb..];
        let message = rest
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty() && !l.starts_with(' '))
            .unwrap_or("")
            .to_string();
        return ProgramOutcome::UncaughtException {
            message,
            location: traceback_line(rest, path),
        };
    }
    ProgramOutcome::Completed
}

/// A Go program's end, from what it wrote to stderr: an unrecovered panic (`panic: MESSAGE`
/// and its goroutine's trace) or the runtime's fatal error (`fatal error: all goroutines are
/// asleep - deadlock!`) is the program's uncaught exception, at the program's innermost line
/// in the trace; any exit code of its own (`os.Exit`) is its business.
pub fn go_outcome(stderr: &str, path: &str) -> ProgramOutcome {
    let Some(start) = stderr
        .lines()
        .position(|l| l.starts_with("panic: ") || l.starts_with("fatal error: "))
    else {
        return ProgramOutcome::Completed;
    };
    let lines: Vec<&str> = stderr.lines().collect();
    let message = lines[start].to_string();
    // Frames are `\tPATH:LINE +0x1d` below `goroutine N [running]:`.
    let location = lines[start..].iter().find_map(|l| {
        let rest = l.trim_start().strip_prefix(path)?.strip_prefix(':')?;
        let n = rest.split(|c: char| !c.is_ascii_digit()).next()?;
        n.parse::<u32>()
            .ok()
            .map(|n| Location::new(n.saturating_sub(1), 0))
    });
    ProgramOutcome::UncaughtException { message, location }
}

/// The program's syntax error, from what the interpreter wrote before running it.
pub fn syntax_error(stderr: &str, path: &str) -> Option<SyntaxError> {
    let message = stderr.lines().rev().find(|l| {
        ["SyntaxError", "IndentationError", "TabError"]
            .iter()
            .any(|k| l.starts_with(&format!("{k}:")))
    })?;
    Some(SyntaxError {
        message: message.to_string(),
        location: traceback_line(stderr, path),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_go_programs_panic_is_its_uncaught_exception_at_its_line() {
        let stderr = "panic: runtime error: index out of range [5] with length 3\n\n\
            goroutine 1 [running]:\nmain.at(...)\n\t/tmp/p.go:7\nmain.main()\n\
            \t/tmp/p.go:12 +0x1d\nexit status 2\n";
        assert_eq!(
            go_outcome(stderr, "/tmp/p.go"),
            ProgramOutcome::UncaughtException {
                message: "panic: runtime error: index out of range [5] with length 3".into(),
                location: Some(Location::new(6, 0)),
            }
        );
        assert_eq!(
            go_outcome("hello\n", "/tmp/p.go"),
            ProgramOutcome::Completed
        );
    }

    #[test]
    fn a_logpoint_message_keeps_its_expression_whole() {
        let m = log_message(BreakpointId(3), "{'a': x}['a'] + len(\"}\")");
        assert!(m.starts_with(crate::debugger::LOG_MARK));
        // No brace of the expression's own is left for the adapter to read as interpolation.
        let inner = m.split_once(" 3 ").map(|(_, r)| r).unwrap_or_default();
        assert_eq!(inner.matches('{').count(), 1, "{m}");
        assert_eq!(inner.matches('}').count(), 1, "{m}");
    }

    #[test]
    fn outcomes_are_read_from_the_exit_and_the_traceback() {
        let tb = "Traceback (most recent call last):\n  File \"/p/a.py\", line 3, in <module>\n    f()\n  File \"/p/a.py\", line 1, in f\n    raise ValueError(\"x\")\nValueError: x\n";
        assert_eq!(
            outcome(Some(1), tb, "/p/a.py"),
            ProgramOutcome::UncaughtException {
                message: "ValueError: x".into(),
                location: Some(Location::new(0, 0)),
            }
        );
        assert_eq!(outcome(Some(3), "", "/p/a.py"), ProgramOutcome::Completed);
        assert!(matches!(
            outcome(Some(-11), "", "/p/a.py"),
            ProgramOutcome::EngineCrashed { .. }
        ));
        let se =
            "  File \"/p/a.py\", line 2\n    x = = 1\n        ^\nSyntaxError: invalid syntax\n";
        let e = syntax_error(se, "/p/a.py").expect("a syntax error");
        assert_eq!(
            (e.message.as_str(), e.location),
            ("SyntaxError: invalid syntax", Some(Location::new(1, 0)))
        );
    }
}
