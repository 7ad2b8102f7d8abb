//! One debugging session over CDP (Chromium target or Node process): the normalizing adapter.

use super::values::primitive_or_shell;
use crate::debugger::inspector::objects::{self, Remote};
use crate::debugger::inspector::session::{
    async_stack, err, evaluate, location, next_got, pause_on_exceptions, program_frames, thrown,
    AsyncShape, Got, Pause,
};
use crate::debugger::inspector::{Connection, InspectorError, InspectorEvent};
use crate::debugger::Extra;
use crate::debugger::{CaptureOptions, Debugger, DebuggerError};
use async_trait::async_trait;
use morphtrace_schema::{
    Action, BreakpointId, Entry, ExceptionPause, Frame, Key, Location, ObjectKind, Output,
    PauseReason, PauseState, ProgramOutcome, Scope, ScopeKind, Value, Variable,
};
use serde_json::{json, Value as Json};
use std::collections::HashSet;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    Chromium,
    Node,
    /// Deno holds no pause in code that a CDP command started (it resumes at once), so the
    /// program is run from a timer by the launcher (node:vm's `runInThisContext`: a classic
    /// script with the program's URL) and breakpoints are set by URL. The script that runs is
    /// not the one compiled to check the syntax: its id is taken from `Debugger.scriptParsed`.
    Deno,
}

/// How a session is torn down: Chromium closes its target or hands it back for reuse, Node
/// kills its process.
pub enum Teardown {
    Target {
        browser: Connection,
        target_id: String,
        /// Where a healthy session's target goes to be reset and reused instead of closed.
        recycle: Option<mpsc::UnboundedSender<Leftover>>,
    },
    Process(tokio::process::Child),
}

/// A healthy Chromium session's target, still attached, as the session left it: possibly
/// paused in the program, with breakpoints set. The engine resets it before reusing it.
pub struct Leftover {
    pub target_id: String,
    pub sid: String,
    pub events: mpsc::UnboundedReceiver<InspectorEvent>,
    /// The reply to `Runtime.runScript` if the program started and has not ended.
    pub run_reply: Option<oneshot::Receiver<Result<Json, InspectorError>>>,
    /// The engine's ids of breakpoints that may still be set.
    pub breakpoints: Vec<String>,
}

pub struct CdpSession {
    conn: Connection,
    sid: Option<String>,
    events: mpsc::UnboundedReceiver<InspectorEvent>,
    flavor: Flavor,
    url: String,
    script_id: String,
    /// The execution context the program was compiled in (Chromium: its frame's), if not the
    /// default one.
    context: Option<i64>,
    opts: CaptureOptions,
    breakpoints: crate::debugger::inspector::breakpoints::Breakpoints,
    finished: Option<ProgramOutcome>,
    /// `Start` was applied (a program starts once; steps need a started program).
    started: bool,
    exception: Option<(String, Option<Location>)>,
    console: Vec<String>,
    run_reply: Option<oneshot::Receiver<Result<Json, InspectorError>>>,
    /// Node: the script's own reply, held while its promise reactions still run (see
    /// `wait_outcome`).
    script_reply: Option<Json>,
    /// The top program frame of the current pause (`callFrameId`), what `evaluate` runs on.
    top_frame: Option<String>,
    /// The top frame's scopes at the current pause: each one's place in CDP's `scopeChain`
    /// (`setVariableValue`'s `scopeNumber`) and the names it binds, innermost first.
    top_scopes: Vec<(usize, HashSet<String>)>,
    /// The program frames' `callFrameId`s at the current pause, top first (`RestartFrame`).
    frame_ids: Vec<String>,
    /// Pausing on exceptions was turned on: the target keeps it, so it serves no other session.
    pauses_on_exceptions: bool,
    healthy: bool,
    /// Whether a healthy session's target may serve another session.
    reusable: bool,
    teardown: Option<Teardown>,
    declarations: Option<morphtrace_syntax::js::tdz::Declarations>,
    /// Deno: the program's text, which the launcher runs (see `Flavor::Deno`).
    program_text: Option<String>,
    /// What the engine process said when it died (a V8 `Check failed`), filled by its owner.
    crash_report: Option<CrashReport>,
}

/// The fatal message of an engine process, if it printed one.
pub type CrashReport = std::sync::Arc<std::sync::Mutex<Option<String>>>;

fn exception_message(details: &Json) -> (String, Option<Location>) {
    let msg = details
        .get("exception")
        .and_then(|e| e.get("description").or_else(|| e.get("value")))
        .and_then(Json::as_str)
        // Node prefixes uncaught errors with the source line and a caret: take the error line.
        .map(|d| {
            d.lines()
                .find(|l| l.contains("Error") || l.contains("Exception"))
                .or_else(|| d.lines().next())
                .unwrap_or("")
                .to_string()
        })
        .or_else(|| {
            details
                .get("text")
                .and_then(Json::as_str)
                .map(str::to_string)
        })
        .unwrap_or_else(|| "exception".into());
    let loc = details.get("lineNumber").map(|_| location(details));
    (msg, loc)
}

/// The message and location of a `Runtime.compileScript` reply that did not compile.
pub fn syntax_error(compiled: &Json) -> (String, Option<Location>) {
    let d = compiled
        .get("exceptionDetails")
        .cloned()
        .unwrap_or(Json::Null);
    let (message, location) = exception_message(&d);
    let message = if message == "exception" {
        "syntax error".into()
    } else {
        message
    };
    (message, location)
}

impl CdpSession {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        conn: Connection,
        sid: Option<String>,
        events: mpsc::UnboundedReceiver<InspectorEvent>,
        flavor: Flavor,
        url: String,
        script_id: String,
        opts: CaptureOptions,
        teardown: Teardown,
    ) -> CdpSession {
        CdpSession {
            conn,
            sid,
            events,
            flavor,
            url,
            script_id,
            context: None,
            opts,
            breakpoints: Default::default(),
            finished: None,
            started: false,
            exception: None,
            console: Vec::new(),
            run_reply: None,
            script_reply: None,
            top_frame: None,
            top_scopes: Vec::new(),
            frame_ids: Vec::new(),
            pauses_on_exceptions: false,
            healthy: true,
            reusable: true,
            teardown: Some(teardown),
            declarations: None,
            program_text: None,
            crash_report: None,
        }
    }

    /// Where the engine process's fatal message will be, to name it when the connection drops.
    pub fn with_crash_report(mut self, report: CrashReport) -> CdpSession {
        self.crash_report = Some(report);
        self
    }

    /// The error for a lost connection, with the engine's last words if it printed any.
    async fn closed(&self) -> DebuggerError {
        let Some(report) = &self.crash_report else {
            return err(InspectorError::Closed);
        };
        // The process writes its message to stderr while the socket closes: give it a moment.
        tokio::time::sleep(Duration::from_millis(200)).await;
        match report.lock().ok().and_then(|r| r.clone()) {
            Some(m) => DebuggerError::Crashed(format!("the debugger connection closed: {m}")),
            None => err(InspectorError::Closed),
        }
    }

    /// The execution context the program was compiled in: it runs there.
    pub fn with_context(mut self, context: i64) -> CdpSession {
        self.context = Some(context);
        self
    }

    /// The program text, to infer TDZ bindings that Node reports as `undefined`.
    pub fn with_program_text(mut self, text: &str) -> CdpSession {
        self.declarations = Some(morphtrace_syntax::js::tdz::Declarations::scan(text));
        if self.flavor == Flavor::Deno {
            self.program_text = Some(text.to_string());
        }
        self
    }

    async fn call(&self, method: &str, params: Json) -> Result<Json, InspectorError> {
        self.conn
            .call(self.sid.as_deref(), method, params, self.opts.call_timeout)
            .await
    }

    fn note_console(&mut self, params: &Json) {
        let args = params.get("args").and_then(Json::as_array);
        let line = args
            .map(|a| {
                a.iter()
                    .map(|v| match primitive_or_shell(v) {
                        Value::String(s) => s,
                        other => other.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        self.console.push(line);
    }

    fn finish(&mut self, outcome: ProgramOutcome) -> Output {
        self.finished = Some(outcome.clone());
        Output::Finished { outcome }
    }

    /// Waits for the next pause in the program or for the program's end.
    async fn wait_outcome(&mut self, action: &Action) -> Result<Output, DebuggerError> {
        let deadline = tokio::time::Instant::now() + self.opts.action_timeout;
        loop {
            let got = next_got(&mut self.events, &mut self.run_reply, deadline).await;
            match got {
                Got::Timeout => {
                    // The program is still running (non-termination): the target or process is
                    // busy, so it cannot be reused.
                    self.healthy = false;
                    return Ok(self.finish(ProgramOutcome::Timeout));
                }
                Got::RunReply(reply) => {
                    self.run_reply = None;
                    // Node runs promise reactions only after the call that ran the script
                    // returns (Chromium and the other engines run them before the script's
                    // run ends): an async program has not ended at the script's reply. Its end
                    // is when an immediate fires, after every reaction the script queued (and
                    // their pauses) ran. The script's reply says how the script itself ended.
                    if self.flavor == Flavor::Node && self.script_reply.is_none() {
                        let reply = reply.map_err(err)?;
                        self.script_reply = Some(reply);
                        self.run_reply = Some(self.conn.send(
                            self.sid.as_deref(),
                            "Runtime.evaluate",
                            json!({
                                "expression": "new Promise(function (r) { setImmediate(r); })",
                                "awaitPromise": true,
                            }),
                        ));
                        continue;
                    }
                    let reply = match self.script_reply.take() {
                        Some(script) => Ok(script),
                        None => reply,
                    };
                    while let Ok(ev) = self.events.try_recv() {
                        if ev.method == "Runtime.consoleAPICalled" {
                            self.note_console(&ev.params);
                        }
                    }
                    let reply = reply.map_err(err)?;
                    return Ok(self.finish(run_outcome(&self.program_throw(reply))));
                }
                Got::Event(None) => {
                    self.healthy = false;
                    // Events are read first: the reply that ended the program may have arrived
                    // just before the process exited and closed the connection.
                    if let Some(rx) = self.run_reply.take() {
                        if let Ok(Ok(Ok(reply))) =
                            tokio::time::timeout(Duration::from_millis(500), rx).await
                        {
                            return Ok(self.finish(run_outcome(&reply)));
                        }
                    }
                    return Err(self.closed().await);
                }
                Got::Event(Some(ev)) => match ev.method.as_str() {
                    "Debugger.paused" => match self.pause_state(&ev.params, action).await? {
                        Pause::InProgram(p) => return Ok(Output::Paused(*p)),
                        // Node: stepping past the program's end lands in the launcher or in
                        // node:internal code; a step into a Node-internal function (console.log)
                        // lands there too. Leave such code, never report a pause in it.
                        Pause::Outside { program_below } => {
                            let m = if program_below
                                && !matches!(
                                    action,
                                    Action::Resume | Action::ContinueToLocation { .. }
                                ) {
                                "Debugger.stepOut"
                            } else {
                                "Debugger.resume"
                            };
                            self.call(m, json!({})).await.map_err(err)?;
                        }
                    },
                    "Debugger.scriptParsed"
                        if self.flavor == Flavor::Deno
                            && self.started
                            && ev.params.get("url").and_then(Json::as_str)
                                == Some(self.url.as_str()) =>
                    {
                        if let Some(id) = ev.params.get("scriptId").and_then(Json::as_str) {
                            self.script_id = id.to_string();
                        }
                    }
                    "Inspector.targetCrashed" => {
                        // Chromium's renderer died under the program (V8 aborted): the engine's
                        // crash, not a program that runs on. The target is not reused.
                        self.healthy = false;
                        return Ok(self.finish(ProgramOutcome::EngineCrashed {
                            message: "the renderer crashed (Inspector.targetCrashed)".into(),
                        }));
                    }
                    "Runtime.exceptionThrown" => {
                        if let Some(d) = ev.params.get("exceptionDetails") {
                            self.exception = Some(exception_message(d));
                        }
                    }
                    "Runtime.consoleAPICalled" => self.note_console(&ev.params),
                    _ => {}
                },
            }
        }
    }

    async fn pause_state(
        &mut self,
        params: &Json,
        action: &Action,
    ) -> Result<Pause, DebuggerError> {
        let program = match program_frames(params, &self.script_id) {
            Ok(frames) => frames,
            Err(outside) => return Ok(outside),
        };
        let mut stack = Vec::with_capacity(program.len());
        // Where the script's top-level code is, when it is on the stack: a script-scope
        // binding declared after it is still in its dead zone, seen from any frame.
        let script_at = program
            .last()
            .filter(|f| f.get("functionName").and_then(Json::as_str) == Some(""))
            .map(|f| location(&f["location"]));
        let mut top_numbers = Vec::new();
        for (i, f) in program.iter().enumerate() {
            let scopes = if self.opts.scopes_of(i) {
                let (scopes, numbers) = self.scopes(f, script_at).await?;
                if i == 0 {
                    top_numbers = numbers;
                }
                scopes
            } else {
                Vec::new()
            };
            stack.push(Frame {
                function: f
                    .get("functionName")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string(),
                location: location(&f["location"]),
                scopes,
            });
        }
        self.top_scopes = stack[0]
            .scopes
            .iter()
            .zip(&top_numbers)
            .map(|(s, n)| (*n, s.variables.iter().map(|v| v.name.clone()).collect()))
            .collect();
        let mut hit: Vec<BreakpointId> = params
            .get("hitBreakpoints")
            .and_then(Json::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|h| h.as_str().and_then(|h| self.breakpoints.ours(h)))
                    .collect()
            })
            .unwrap_or_default();
        hit.sort();
        let engine_reason = params
            .get("reason")
            .and_then(Json::as_str)
            .map(str::to_string);
        let reason = if !hit.is_empty() {
            PauseReason::Breakpoint { ids: hit }
        } else {
            match (action, engine_reason.as_deref()) {
                (_, Some("exception" | "promiseRejection")) => PauseReason::Exception,
                (Action::StepInto | Action::StepOver | Action::StepOut, _) => PauseReason::Step,
                // V8 arrives with `other`, as at a `debugger` statement (one met on the way
                // reads as the arrival), and may arrive on a later line than asked.
                (Action::ContinueToLocation { .. }, Some("other")) => {
                    crate::debugger::continued_to()
                }
                // Node's V8 says `other`, Chromium's `step`.
                (Action::RestartFrame { .. }, _) => crate::debugger::restarted(),
                (_, Some("other" | "debugCommand")) => PauseReason::DebuggerStatement,
                (_, r) => PauseReason::Other(r.unwrap_or("").to_string()),
            }
        };
        let exception = thrown(self, params, self.opts.depth).await?;
        self.top_frame = program[0]
            .get("callFrameId")
            .and_then(Json::as_str)
            .map(str::to_string);
        self.frame_ids = program
            .iter()
            .map(|f| {
                f.get("callFrameId")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
        Ok(Pause::InProgram(Box::new(PauseState {
            location: stack[0].location,
            reason,
            engine_reason,
            stack,
            exception,
            condition: None,
            async_stack: Some(async_stack(params, &self.script_id, AsyncShape::Cdp, |f| {
                f.get("functionName")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string()
            })),
        })))
    }

    async fn scopes(
        &self,
        frame: &Json,
        script_at: Option<Location>,
    ) -> Result<(Vec<Scope>, Vec<usize>), DebuggerError> {
        let mut chain = Vec::new();
        for (number, s) in frame
            .get("scopeChain")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let ty = s.get("type").and_then(Json::as_str).unwrap_or("");
            // The global scope is the whole Window/global object: not the program's state.
            if ty == "global" {
                continue;
            }
            let kind = match ty {
                "local" => ScopeKind::Local,
                "closure" => ScopeKind::Closure,
                "block" => ScopeKind::Block,
                "catch" => ScopeKind::Catch,
                "with" => ScopeKind::With,
                "script" => ScopeKind::Script,
                "module" => ScopeKind::Module,
                "eval" => ScopeKind::Eval,
                other => ScopeKind::Other(other.to_string()),
            };
            if let Some(object_id) = s.pointer("/object/objectId").and_then(Json::as_str) {
                chain.push((s, kind, object_id, number));
            }
        }
        let numbers: Vec<usize> = chain.iter().map(|c| c.3).collect();
        let chain: Vec<_> = chain.into_iter().map(|(s, k, id, _)| (s, k, id)).collect();
        let ids: Vec<&str> = chain.iter().map(|(_, _, id)| *id).collect();
        let bindings = objects::bindings(self, &ids, self.opts.depth).await?;
        let mut out = Vec::new();
        let mut seen_names = HashSet::new();
        for ((s, kind, _), b) in chain.into_iter().zip(bindings) {
            let mut variables = Vec::new();
            for (name, value) in b {
                let shadowed = !seen_names.insert(name.clone());
                let var = match value {
                    // Chromium gives a binding in its temporal dead zone no value at all.
                    None => Variable {
                        name,
                        value: Value::Uninitialized,
                        reported: Some(Value::Unavailable),
                    },
                    Some(value) => {
                        // Node reports a TDZ binding as undefined: infer it from the source, for
                        // the frame's own scopes and the script's (their code runs in text order).
                        let tdz = value == Value::Undefined
                            && !shadowed
                            && self.flavor == Flavor::Node
                            && self.tdz_by_source(frame, s, &kind, &name, script_at);
                        if tdz {
                            Variable {
                                name,
                                value: Value::Uninitialized,
                                reported: Some(Value::Undefined),
                            }
                        } else {
                            Variable {
                                name,
                                value,
                                reported: None,
                            }
                        }
                    }
                };
                variables.push(var);
            }
            // Stable order: engines list bindings in different orders.
            variables.sort_by(|a, b| a.name.cmp(&b.name));
            out.push(Scope {
                kind,
                name: s.get("name").and_then(Json::as_str).map(str::to_string),
                variables,
            });
        }
        Ok((out, numbers))
    }

    fn tdz_by_source(
        &self,
        frame: &Json,
        scope: &Json,
        kind: &ScopeKind,
        name: &str,
        script_at: Option<Location>,
    ) -> bool {
        let Some(decls) = &self.declarations else {
            return false;
        };
        let mut at = location(&frame["location"]);
        let top_level = frame.get("functionName").and_then(Json::as_str) == Some("");
        let (from, to) = match kind {
            ScopeKind::Local | ScopeKind::Block => {
                match (scope.get("startLocation"), scope.get("endLocation")) {
                    (Some(a), Some(b)) => (location(a), location(b)),
                    _ => return false,
                }
            }
            ScopeKind::Script if top_level => (Location::new(0, 0), Location::new(u32::MAX, 0)),
            // Seen from a function the script called: where the script's own code is.
            ScopeKind::Script => match script_at {
                Some(s) => {
                    at = s;
                    (Location::new(0, 0), Location::new(u32::MAX, 0))
                }
                None => return false,
            },
            _ => return false,
        };
        decls.in_tdz(name, at, from, to)
    }
}

#[async_trait]
impl Remote for CdpSession {
    const PROPERTIES: &'static str = "result";
    const QUIET: &'static str = "silent";

    async fn request(&self, method: &str, params: Json) -> Result<Json, InspectorError> {
        self.call(method, params).await
    }

    fn max_entries(&self) -> usize {
        self.opts.max_entries
    }

    fn shell(ro: &Json) -> Value {
        primitive_or_shell(ro)
    }

    /// `Array(43200)`, `Float64Array(8)`: the length is in the description.
    fn length(ro: &Json) -> Option<usize> {
        ro.get("description")
            .and_then(Json::as_str)
            .and_then(|d| d.split_once('('))
            .and_then(|(_, n)| n.trim_end_matches(')').parse::<usize>().ok())
    }

    /// `[[FunctionLocation]]` among the internal properties, in the program's script.
    async fn defined_at(
        &self,
        _object_id: &str,
        properties: &Json,
    ) -> Result<Option<u32>, DebuggerError> {
        let at = properties
            .get("internalProperties")
            .and_then(Json::as_array)
            .and_then(|a| a.iter().find(|p| p["name"] == "[[FunctionLocation]]"))
            .and_then(|p| p.pointer("/value/value"));
        Ok(at
            .filter(|l| l.get("scriptId").and_then(Json::as_str) == Some(self.script_id.as_str()))
            .and_then(|l| l.get("lineNumber"))
            .and_then(Json::as_u64)
            .and_then(|n| u32::try_from(n).ok()))
    }

    /// Map and Set entries live in the internal property `[[Entries]]`, each entry an object
    /// with `key` (Maps) and `value`.
    async fn collection(
        &self,
        object_id: &str,
        _kind: &ObjectKind,
        depth: u32,
    ) -> Result<(Vec<Entry>, bool), DebuggerError> {
        let props = objects::own_properties(self, object_id).await?;
        let mut out = Vec::new();
        let mut truncated = false;
        // Map and Set entries are not own properties: they live in [[Entries]].
        let entries_id = props
            .get("internalProperties")
            .and_then(Json::as_array)
            .and_then(|a| a.iter().find(|p| p["name"] == "[[Entries]]"))
            .and_then(|p| p.pointer("/value/objectId"))
            .and_then(Json::as_str);
        if let Some(eid) = entries_id {
            let list = objects::own_properties(self, eid).await?;
            for item in list
                .get("result")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
            {
                if item["name"]
                    .as_str()
                    .and_then(|n| n.parse::<u64>().ok())
                    .is_none()
                {
                    continue;
                }
                if out.len() >= self.opts.max_entries {
                    truncated = true;
                    break;
                }
                let Some(entry_id) = item.pointer("/value/objectId").and_then(Json::as_str) else {
                    continue;
                };
                let kv = objects::own_properties(self, entry_id).await?;
                let field = |n: &str| {
                    kv.get("result")
                        .and_then(Json::as_array)
                        .and_then(|a| a.iter().find(|p| p["name"] == n))
                        .and_then(|p| p.get("value"))
                        .cloned()
                };
                let value = match field("value") {
                    Some(v) => objects::value(self, &v, depth).await?,
                    None => Value::Unavailable,
                };
                let key = match field("key") {
                    Some(k) => Key::Value(objects::value(self, &k, depth).await?),
                    None => Key::Index(out.len() as u64),
                };
                out.push(Entry { key, value });
            }
        }
        Ok((out, truncated))
    }
}

#[async_trait]
impl Debugger for CdpSession {
    async fn set_breakpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
    ) -> Result<Output, DebuggerError> {
        self.set(line, column, Extra::Plain).await
    }

    async fn set_conditional_breakpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
        condition: &str,
    ) -> Result<Output, DebuggerError> {
        self.set(line, column, Extra::Condition(condition)).await
    }

    async fn set_logpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
        expression: &str,
    ) -> Result<Output, DebuggerError> {
        self.set(line, column, Extra::Log(expression)).await
    }

    async fn remove_breakpoint(&mut self, id: BreakpointId) -> Result<Output, DebuggerError> {
        let t = self.opts.call_timeout;
        let removed = self
            .breakpoints
            .remove(&self.conn, self.sid.as_deref(), id, t)
            .await;
        removed.map_err(|e| {
            self.healthy = false;
            err(e)
        })
    }

    async fn control(&mut self, action: &Action) -> Result<Output, DebuggerError> {
        let answered = self.control_inner(action).await;
        if !matches!(answered, Err(DebuggerError::Crashed(_))) {
            return answered;
        }
        // A process of its own (Node) that V8 itself aborted (a failed CHECK, reported on its
        // stderr) and that died of it: the engine's crash, the answer to this action. A program
        // that calls `process.abort()` dies of the same signal without V8's report: not this.
        let report = self
            .crash_report
            .as_ref()
            .and_then(|r| r.lock().ok().and_then(|r| r.clone()));
        let (Some(report), Some(Teardown::Process(child))) = (report, self.teardown.as_mut())
        else {
            return answered;
        };
        let waited = tokio::time::timeout(std::time::Duration::from_secs(2), child.wait()).await;
        match waited.ok().and_then(|s| s.ok()) {
            Some(status) => match crate::debugger::fault("node", status) {
                Some(died) => Ok(self.finish(ProgramOutcome::EngineCrashed {
                    message: format!("{died}: {report}"),
                })),
                None => answered,
            },
            None => answered,
        }
    }

    async fn pause_on_exceptions(&mut self, mode: ExceptionPause) -> Result<Output, DebuggerError> {
        self.pauses_on_exceptions |= mode != ExceptionPause::None;
        let out = pause_on_exceptions(self, mode, self.finished.as_ref()).await;
        self.healthy &= out.is_ok();
        out
    }

    async fn evaluate(&mut self, expression: &str) -> Result<Output, DebuggerError> {
        let out = evaluate(self, self.top_frame.as_deref(), expression, self.opts.depth).await;
        self.healthy &= out.is_ok();
        out
    }

    fn sets_by_assignment(&self) -> bool {
        false
    }

    /// `Debugger.setVariableValue` on the innermost scope of the top frame that binds `name`,
    /// then the value read back by evaluating the name on the frame.
    async fn set_variable(&mut self, name: &str, value: &str) -> Result<Output, DebuggerError> {
        let Some(frame) = self.top_frame.clone() else {
            return Ok(crate::debugger::not_paused());
        };
        let Some(number) = self
            .top_scopes
            .iter()
            .find(|(_, names)| names.contains(name))
            .map(|(n, _)| *n)
        else {
            return Ok(crate::debugger::unbound(name));
        };
        let params = json!({
            "scopeNumber": number,
            "variableName": name,
            "newValue": call_argument(value),
            "callFrameId": frame,
        });
        match self.call("Debugger.setVariableValue", params).await {
            Ok(_) => {}
            Err(InspectorError::Protocol { message, .. }) => return Ok(Output::Error { message }),
            Err(e) => {
                self.healthy = false;
                return Err(err(e));
            }
        }
        let out = evaluate(self, Some(&frame), name, self.opts.depth).await;
        self.healthy &= out.is_ok();
        Ok(crate::debugger::read_back(out?, name))
    }

    async fn break_positions(
        &mut self,
        from: Location,
        to: Location,
    ) -> Result<Option<Vec<Location>>, DebuggerError> {
        // `end` is exclusive, and V8 clamps a column past a line's end to that end: the end is
        // the next line's start. A position at the script's very end (its return, where V8
        // places a breakpoint after the last statement) lies past every `end` V8 accepts: where
        // neither end of the range is among the answer (one of them is the placement), the
        // query goes on to the script's end.
        let start = json!({"scriptId": self.script_id, "lineNumber": from.line, "columnNumber": from.column});
        let next_line =
            json!({"scriptId": self.script_id, "lineNumber": to.line + 1, "columnNumber": 0});
        let mut found = None;
        for end in [Some(next_line), None] {
            let mut params = json!({"start": start, "restrictToFunction": false});
            if let Some(end) = end {
                params["end"] = end;
            }
            match self.call("Debugger.getPossibleBreakpoints", params).await {
                Ok(r) => {
                    let at = crate::debugger::inspector::session::positions_in(
                        &r,
                        &self.script_id,
                        from,
                        to,
                    );
                    let complete = at.contains(&from) || at.contains(&to);
                    found = Some(at);
                    if complete {
                        break;
                    }
                }
                // An engine that refuses the query (a version without it) says nothing.
                Err(InspectorError::Protocol { .. }) => return Ok(None),
                Err(e) => {
                    self.healthy = false;
                    return Err(err(e));
                }
            }
        }
        Ok(found)
    }

    fn slides_in_execution_order(&self) -> bool {
        true
    }

    fn console(&self) -> Vec<String> {
        crate::debugger::split_console(&self.console).0
    }

    fn logs(&self) -> Vec<(BreakpointId, String)> {
        crate::debugger::split_console(&self.console).1
    }

    async fn close(mut self: Box<Self>) -> bool {
        if self.pauses_on_exceptions {
            self.reusable = false;
        }
        if let Some(Teardown::Target {
            recycle: Some(back),
            target_id,
            ..
        }) = &self.teardown
        {
            if self.healthy && self.reusable {
                if let Some(sid) = self.sid.clone() {
                    let (_, events) = mpsc::unbounded_channel();
                    let left = Leftover {
                        target_id: target_id.clone(),
                        sid,
                        events: std::mem::replace(&mut self.events, events),
                        run_reply: self.run_reply.take(),
                        breakpoints: self.breakpoints.engine_ids(),
                    };
                    if back.send(left).is_ok() {
                        return true;
                    }
                }
            }
        }
        self.conn.unsubscribe(self.sid.as_deref());
        match self.teardown.take() {
            Some(Teardown::Target {
                browser, target_id, ..
            }) => {
                let close =
                    browser.send(None, "Target.closeTarget", json!({"targetId": target_id}));
                if self.healthy {
                    // A healthy target closes in the background, off the critical path.
                    return true;
                }
                // A target that timed out may still be running the program: wait for the close,
                // and have the engine restarted whatever it answered.
                let _ = tokio::time::timeout(std::time::Duration::from_secs(3), close).await;
                false
            }
            Some(Teardown::Process(mut child)) => {
                self.conn.close();
                let _ = child.start_kill();
                let _ = tokio::time::timeout(std::time::Duration::from_secs(3), child.wait()).await;
                true
            }
            None => self.healthy,
        }
    }
}

/// How the program's run ended, from the reply to the call that ran it.
impl CdpSession {
    /// A breakpoint, with its condition if it has one (CDP's `condition`). CDP has no
    /// logpoints: a logpoint is a condition that logs and is false, as editors set them.
    async fn set(
        &mut self,
        line: u32,
        column: Option<u32>,
        extra: Extra<'_>,
    ) -> Result<Output, DebuggerError> {
        // Chromium resolves URL breakpoints against the compiled script. Node 20 answers
        // `locations: []` for a script compiled by vm.Script (and resolves it only at the next
        // compilation), so there the breakpoint is set on the script itself.
        let (method, mut params) = match self.flavor {
            Flavor::Chromium | Flavor::Deno => {
                let mut p = json!({"lineNumber": line, "url": self.url});
                if let Some(c) = column {
                    p["columnNumber"] = json!(c);
                }
                ("Debugger.setBreakpointByUrl", p)
            }
            Flavor::Node => {
                let mut l = json!({"scriptId": self.script_id, "lineNumber": line});
                if let Some(c) = column {
                    l["columnNumber"] = json!(c);
                }
                ("Debugger.setBreakpoint", json!({"location": l}))
            }
        };
        match extra {
            Extra::Plain => {}
            Extra::Condition(c) => params["condition"] = json!(c),
            Extra::Log(e) => {
                let args = crate::debugger::log_arguments(self.breakpoints.next_id(), e);
                params["condition"] = json!(format!("console.log({args}), false"));
            }
        }
        let requested = Location::new(line, column.unwrap_or(0));
        match self.call(method, params).await {
            Ok(r) => {
                tracing::debug!("{method} line {line} -> {r}");
                Ok(self.breakpoints.set(&r, &self.script_id, requested))
            }
            Err(InspectorError::Protocol { message, .. }) => Ok(Output::Error { message }),
            Err(e) => {
                self.healthy = false;
                Err(err(e))
            }
        }
    }

    /// A control action as the protocol answers it (an engine death an error).
    async fn control_inner(&mut self, action: &Action) -> Result<Output, DebuggerError> {
        if let Some(refused) =
            crate::debugger::refusal(action, self.started, self.finished.as_ref())
        {
            return Ok(refused);
        }
        // The frame's id before the pause's state is let go.
        let restart = match action {
            Action::RestartFrame { frame } => {
                match self
                    .frame_ids
                    .get(*frame as usize)
                    .filter(|f| !f.is_empty())
                {
                    Some(id) => Some(id.clone()),
                    None => return Ok(crate::debugger::no_frame(*frame)),
                }
            }
            _ => None,
        };
        self.top_frame = None;
        let method = match action {
            Action::Start if self.flavor == Flavor::Deno => {
                self.started = true;
                let text = self.program_text.clone().unwrap_or_default();
                let expression = format!(
                    "__morphtraceRun({}, {})",
                    Json::String(text),
                    Json::String(self.url.clone())
                );
                self.run_reply = Some(self.conn.send(
                    self.sid.as_deref(),
                    "Runtime.evaluate",
                    json!({"expression": expression, "awaitPromise": true}),
                ));
                None
            }
            Action::Start => {
                self.started = true;
                let mut params = json!({"scriptId": self.script_id});
                if let Some(id) = self.context {
                    params["executionContextId"] = json!(id);
                }
                self.run_reply = Some(self.conn.send(
                    self.sid.as_deref(),
                    "Runtime.runScript",
                    params,
                ));
                None
            }
            // Node waits at an instrumentation pause just before the first statement, where a
            // resume would skip a breakpoint on that statement: step onto it instead, and go on
            // if no breakpoint is there (see wait_outcome).
            Action::Resume => Some("Debugger.resume"),
            Action::StepInto => Some("Debugger.stepInto"),
            Action::StepOver => Some("Debugger.stepOver"),
            Action::ContinueToLocation { .. } => Some("Debugger.continueToLocation"),
            Action::RestartFrame { .. } => Some("Debugger.restartFrame"),
            // StepOut: `refusal` let only control actions through.
            _ => Some("Debugger.stepOut"),
        };
        if let Some(m) = method {
            // Any frame may arrive there, as a breakpoint's would.
            let params = match action {
                Action::ContinueToLocation { line } => json!({
                    "location": {"scriptId": self.script_id, "lineNumber": line},
                    "targetCallFrames": "any",
                }),
                // `StepInto`: pause where the restarted function starts (V8 then runs on to it;
                // without a mode the request is refused).
                Action::RestartFrame { .. } => json!({"callFrameId": restart, "mode": "StepInto"}),
                _ => json!({}),
            };
            match self.call(m, params).await {
                Ok(_) => {}
                Err(InspectorError::Protocol { message, .. }) => {
                    return Ok(Output::Error { message })
                }
                Err(InspectorError::Closed) => {
                    self.healthy = false;
                    return Err(self.closed().await);
                }
                Err(e) => {
                    self.healthy = false;
                    return Err(err(e));
                }
            }
        }
        let out = self.wait_outcome(action).await;
        match &out {
            Err(_) => self.healthy = false,
            // A step that runs off the program's end leaves Chromium's renderer in a state
            // where later programs on the page never stop at their breakpoints (found when
            // targets were first reused; a new document and Debugger.disable do not clear it):
            // such a target is closed, not reused.
            Ok(Output::Finished { .. })
                if matches!(
                    action,
                    Action::StepInto | Action::StepOver | Action::StepOut
                ) =>
            {
                self.reusable = false
            }
            Ok(_) => {}
        }
        out
    }

    /// Deno's program ends in a rejected promise, whose details place the exception
    /// (1-based) where the stack says; the program's own frame has it as runScript would.
    fn program_throw(&self, mut reply: Json) -> Json {
        if self.flavor != Flavor::Deno {
            return reply;
        }
        if let Some(d) = reply.get_mut("exceptionDetails") {
            let top = d
                .pointer("/stackTrace/callFrames")
                .and_then(Json::as_array)
                .and_then(|f| {
                    f.iter()
                        .find(|f| f.get("url").and_then(Json::as_str) == Some(self.url.as_str()))
                })
                .cloned();
            if let Some(f) = top {
                d["lineNumber"] = f["lineNumber"].clone();
                d["columnNumber"] = f["columnNumber"].clone();
            }
        }
        reply
    }
}

/// A primitive literal as CDP's `CallArgument`: JSON values as `value`, `undefined` as no value,
/// the rest (`NaN`, `-0`, `Infinity`, a BigInt) as `unserializableValue`.
fn call_argument(literal: &str) -> Json {
    match literal {
        "undefined" => json!({}),
        _ => match serde_json::from_str::<Json>(literal) {
            Ok(v) if !v.is_object() && !v.is_array() => json!({ "value": v }),
            _ => json!({ "unserializableValue": literal }),
        },
    }
}

fn run_outcome(reply: &Json) -> ProgramOutcome {
    match reply.get("exceptionDetails") {
        Some(d) => {
            let (message, location) = exception_message(d);
            ProgramOutcome::UncaughtException { message, location }
        }
        None => ProgramOutcome::Completed,
    }
}
