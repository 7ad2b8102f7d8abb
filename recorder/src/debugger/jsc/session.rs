//! One debugging session of a program in a Bun process (JavaScriptCore): the normalizing
//! adapter over the WebKit Inspector Protocol.

use super::values::primitive_or_shell;
use crate::debugger::engines::bun::Waiting;
use crate::debugger::inspector::breakpoints::Breakpoints;
use crate::debugger::inspector::objects::{self, Remote};
use crate::debugger::inspector::session::{
    accessor, async_stack, err, evaluate, location, next_got, pause_on_exceptions, program_frames,
    set_by_assignment, thrown, AsyncShape, Got, Pause,
};
use crate::debugger::inspector::{Connection, InspectorError, InspectorEvent};
use crate::debugger::Extra;
use crate::debugger::{CaptureOptions, Debugger, DebuggerError, ProgramFile, SyntaxError};
use async_trait::async_trait;
use morphtrace_schema::{
    Action, BreakpointId, Entry, ExceptionPause, Frame, Key, Location, ObjectKind, Output,
    PauseReason, PauseState, ProgramOutcome, Scope, ScopeKind, Value, Variable,
};
use morphtrace_syntax::js::tdz::Declarations;
use serde_json::{json, Value as Json};
use std::collections::HashSet;
use std::time::Duration;
use tokio::process::Child;
use tokio::sync::{mpsc, oneshot};

/// What `open` made of a program.
pub enum Opened {
    Session(Box<JscSession>),
    SyntaxError(SyntaxError),
}

pub struct JscSession {
    conn: Connection,
    events: mpsc::UnboundedReceiver<InspectorEvent>,
    child: Child,
    url: String,
    script_id: String,
    opts: CaptureOptions,
    breakpoints: Breakpoints,
    started: bool,
    finished: Option<ProgramOutcome>,
    console: Vec<String>,
    /// The console's last message (its line when the program or a logpoint printed it) and how
    /// many times it was printed: Web Inspector folds a message printed again right after itself
    /// into `Console.messageRepeatCountUpdated`, which tells only the new count.
    last_message: Option<(Option<String>, u64)>,
    /// The reply to `Runtime.awaitPromise` on the launcher's run: it comes when the program ends.
    run_reply: Option<oneshot::Receiver<Result<Json, InspectorError>>>,
    /// The pause at the program's first statement where `open` left it, until `Start`.
    initial: Option<Json>,
    /// How the program ended when it ended during `open` (it has no statement to pause at).
    ended_early: Option<ProgramOutcome>,
    declarations: Declarations,
    /// The program's lines, to tell an async function's own wrapper frame (see `wrapper_frame`).
    lines: Vec<String>,
    /// False once the engine failed (connection lost, no answer): the engine is restarted.
    /// The top program frame of the current pause (`callFrameId`), what `evaluate` runs on.
    top_frame: Option<String>,
    /// The names the top frame's scopes bind at the current pause (`set_variable`).
    top_names: std::collections::HashSet<String>,
    healthy: bool,
}

/// The 0-based line and UTF-16 column of a UTF-16 offset into `text` (JavaScriptCore's parse
/// ranges count UTF-16 units).
fn position_of(text: &str, offset: usize) -> Location {
    let (mut line, mut col, mut at) = (0u32, 0u32, 0usize);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if at >= offset {
            break;
        }
        at += c.len_utf16();
        let crlf = c == '\r' && chars.peek() == Some(&'\n');
        if matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}') && !crlf {
            line += 1;
            col = 0;
        } else {
            col += c.len_utf16() as u32;
        }
    }
    Location::new(line, col)
}

/// Where the program threw: the first frame of `stack` in the program (`URL:LINE:COLUMN`,
/// 1-based), as a 0-based location.
fn thrown_at(stack: &str, url: &str) -> Option<Location> {
    let needle = format!("{url}:");
    let i = stack.find(&needle)? + needle.len();
    let mut nums = stack[i..]
        .split(|c: char| !c.is_ascii_digit())
        .take(2)
        .map(|n| n.parse::<u32>().ok());
    let line = nums.next().flatten()?;
    let column = nums.next().flatten().unwrap_or(1);
    Some(Location::new(
        line.saturating_sub(1),
        column.saturating_sub(1),
    ))
}

/// A console message's parameters as one line (strings bare, other values as rendered).
fn console_line(message: &Json) -> String {
    match message.get("parameters").and_then(Json::as_array) {
        Some(ps) => ps
            .iter()
            .map(|p| match primitive_or_shell(p) {
                Value::String(s) => s,
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" "),
        None => message
            .get("text")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string(),
    }
}

/// How the launcher's run ended: `{ok}` or `{ok: false, message, stack}`.
fn run_outcome(reply: &Json, url: &str) -> ProgramOutcome {
    let v = reply.pointer("/result/value").unwrap_or(&Json::Null);
    if v.get("ok").and_then(Json::as_bool) == Some(true) {
        return ProgramOutcome::Completed;
    }
    let message = v
        .get("message")
        .and_then(Json::as_str)
        .unwrap_or("exception")
        .to_string();
    let location = v
        .get("stack")
        .and_then(Json::as_str)
        .and_then(|s| thrown_at(s, url));
    ProgramOutcome::UncaughtException { message, location }
}

/// How many pauses `open` steps through in the launcher before the program's first statement
/// (two are expected: the `debugger` statement and the call that runs the program).
const MAX_LAUNCHER_STEPS: usize = 8;

impl JscSession {
    /// Compiles `program` in the waiting process and runs it up to its first statement.
    pub async fn open(
        w: Waiting,
        program: &ProgramFile,
        opts: CaptureOptions,
    ) -> Result<Opened, DebuggerError> {
        let Waiting {
            mut child,
            conn,
            mut events,
        } = w;
        let t = opts.call_timeout;
        let crash = |e: InspectorError| match e {
            InspectorError::Closed => {
                DebuggerError::Crashed("the debugger connection closed".into())
            }
            other => DebuggerError::Crashed(other.to_string()),
        };
        // Drop what the idle process reported while it waited in the pool.
        while events.try_recv().is_ok() {}
        let compiled = conn
            .call(
                None,
                "Runtime.evaluate",
                json!({
                    "expression": format!(
                        "__morphtraceCompile({}, {})",
                        Json::String(program.text.clone()),
                        Json::String(program.url.clone())
                    ),
                    "returnByValue": true,
                    "silent": true,
                }),
                t,
            )
            .await
            .map_err(crash)?;
        let value = compiled
            .pointer("/result/value")
            .cloned()
            .unwrap_or_default();
        if value.get("ok").and_then(Json::as_bool) != Some(true) {
            let message = value
                .get("message")
                .and_then(Json::as_str)
                .unwrap_or("syntax error")
                .to_string();
            // The compiler's error has no column; the parser's range places it.
            let parsed = conn
                .call(None, "Runtime.parse", json!({"source": program.text}), t)
                .await
                .ok();
            let location = parsed
                .as_ref()
                .and_then(|p| p.pointer("/range/startOffset"))
                .and_then(Json::as_u64)
                .map(|o| position_of(&program.text, o as usize));
            conn.close();
            let _ = child.start_kill();
            let _ = tokio::time::timeout(Duration::from_secs(3), child.wait()).await;
            return Ok(Opened::SyntaxError(SyntaxError { message, location }));
        }
        let run = conn
            .call(
                None,
                "Runtime.evaluate",
                json!({"expression": "__morphtraceRun()", "silent": true}),
                t,
            )
            .await
            .map_err(crash)?;
        let promise = run
            .pointer("/result/objectId")
            .and_then(Json::as_str)
            .ok_or_else(|| DebuggerError::Protocol(format!("the launcher's run said {run}")))?
            .to_string();
        let mut s = JscSession {
            run_reply: Some(conn.send(
                None,
                "Runtime.awaitPromise",
                json!({"promiseObjectId": promise, "returnByValue": true}),
            )),
            conn,
            events,
            child,
            url: program.url.clone(),
            script_id: String::new(),
            opts,
            breakpoints: Default::default(),
            started: false,
            finished: None,
            console: Vec::new(),
            last_message: None,
            initial: None,
            ended_early: None,
            declarations: Declarations::scan(&program.text),
            lines: program.text.lines().map(str::to_string).collect(),
            top_frame: None,
            top_names: Default::default(),
            healthy: true,
        };
        s.run_to_first_statement().await?;
        Ok(Opened::Session(Box::new(s)))
    }

    /// From the launcher's `debugger` statement into the program's first statement.
    async fn run_to_first_statement(&mut self) -> Result<(), DebuggerError> {
        let deadline = tokio::time::Instant::now() + self.opts.call_timeout;
        let mut steps = 0;
        loop {
            let got = next_got(&mut self.events, &mut self.run_reply, deadline).await;
            match got {
                Got::Timeout => {
                    return Err(DebuggerError::Timeout(
                        "the program never reached its first statement".into(),
                    ))
                }
                Got::Event(None) => return Err(err(InspectorError::Closed)),
                // No statement to pause at: the program ran (and ended) in full.
                Got::RunReply(r) => {
                    self.run_reply = None;
                    let reply = r.map_err(err)?;
                    self.ended_early = Some(run_outcome(&reply, &self.url));
                    return Ok(());
                }
                Got::Event(Some(ev)) => match ev.method.as_str() {
                    "Debugger.scriptParsed"
                        if ev.params.get("url").and_then(Json::as_str) == Some(&self.url) =>
                    {
                        if let Some(id) = ev.params.get("scriptId").and_then(Json::as_str) {
                            self.script_id = id.to_string();
                        }
                    }
                    "Console.messageAdded" | "Console.messageRepeatCountUpdated" => {
                        self.note_console(&ev.method, &ev.params)
                    }
                    "Debugger.paused" => {
                        let top = ev
                            .params
                            .pointer("/callFrames/0/location/scriptId")
                            .and_then(Json::as_str);
                        if !self.script_id.is_empty() && top == Some(self.script_id.as_str()) {
                            self.initial = Some(ev.params);
                            return Ok(());
                        }
                        steps += 1;
                        // Past the program (it had nothing to pause at): let the run end.
                        let m = if !self.script_id.is_empty() || steps > MAX_LAUNCHER_STEPS {
                            "Debugger.resume"
                        } else {
                            "Debugger.stepInto"
                        };
                        self.call(m, json!({})).await.map_err(err)?;
                    }
                    _ => {}
                },
            }
        }
    }

    async fn call(&self, method: &str, params: Json) -> Result<Json, InspectorError> {
        self.conn
            .call(None, method, params, self.opts.call_timeout)
            .await
    }

    /// Keeps what a console event says the program or a logpoint printed: a message, or the
    /// last message printed again (each repeat is a line of its own, as the other engines
    /// tell it).
    fn note_console(&mut self, method: &str, params: &Json) {
        match method {
            "Console.messageAdded" => {
                let Some(m) = params.get("message") else {
                    return;
                };
                let line = (m.get("source").and_then(Json::as_str) == Some("console-api"))
                    .then(|| console_line(m));
                let times = m
                    .get("repeatCount")
                    .and_then(Json::as_u64)
                    .unwrap_or(1)
                    .max(1);
                if let Some(l) = &line {
                    self.console
                        .extend(std::iter::repeat_n(l.clone(), times as usize));
                }
                self.last_message = Some((line, times));
            }
            "Console.messageRepeatCountUpdated" => {
                let count = params.get("count").and_then(Json::as_u64).unwrap_or(0);
                if let Some((line, times)) = &mut self.last_message {
                    if count > *times {
                        if let Some(l) = line {
                            self.console
                                .extend(std::iter::repeat_n(l.clone(), (count - *times) as usize));
                        }
                        *times = count;
                    }
                }
            }
            _ => {}
        }
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
                Got::Timeout => return Ok(self.finish(ProgramOutcome::Timeout)),
                Got::RunReply(reply) => {
                    self.run_reply = None;
                    while let Ok(ev) = self.events.try_recv() {
                        self.note_console(&ev.method, &ev.params);
                    }
                    let reply = reply.map_err(err)?;
                    let outcome = run_outcome(&reply, &self.url);
                    return Ok(self.finish(outcome));
                }
                Got::Event(None) => return Err(err(InspectorError::Closed)),
                Got::Event(Some(ev)) => match ev.method.as_str() {
                    "Debugger.paused" => match self.pause_state(&ev.params, action).await? {
                        Pause::InProgram(p) => return Ok(Output::Paused(*p)),
                        // A step past the program's end lands in the launcher: leave it.
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
                    "Console.messageAdded" | "Console.messageRepeatCountUpdated" => {
                        self.note_console(&ev.method, &ev.params)
                    }
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
        let program: Vec<&Json> = program
            .iter()
            .enumerate()
            .filter(|&(i, f)| {
                let at = location(&f["location"]);
                i == 0
                    || !(wrapper_frame(
                        &function_name(program[i - 1]),
                        &function_name(f),
                        at,
                        &self.lines,
                    ) || self.declarations.ends_static_block(at))
            })
            .map(|(_, f)| *f)
            .collect();
        let mut stack = Vec::with_capacity(program.len());
        for (i, f) in program.iter().enumerate() {
            let scopes = if self.opts.scopes_of(i) {
                self.scopes(f, i == 0).await?
            } else {
                Vec::new()
            };
            stack.push(Frame {
                function: function_name(f),
                location: location(&f["location"]),
                scopes,
            });
        }
        let at = stack[0].location;
        let engine_reason = params
            .get("reason")
            .and_then(Json::as_str)
            .map(str::to_string);
        // JavaScriptCore names one breakpoint; every one of ours resolved here was hit.
        let mut hit = Vec::new();
        if engine_reason.as_deref() == Some("Breakpoint") {
            hit = self.breakpoints.resolved_at(at);
            if let Some(id) = params
                .pointer("/data/breakpointId")
                .and_then(Json::as_str)
                .and_then(|b| self.breakpoints.ours(b))
            {
                if !hit.contains(&id) {
                    hit.push(id);
                    hit.sort();
                }
            }
        }
        let reason = if !hit.is_empty() {
            PauseReason::Breakpoint { ids: hit }
        } else {
            match (action, engine_reason.as_deref()) {
                (_, Some("exception" | "Exception")) => PauseReason::Exception,
                (Action::StepInto | Action::StepOver | Action::StepOut, _) => PauseReason::Step,
                (_, Some("DebuggerStatement")) => PauseReason::DebuggerStatement,
                (Action::ContinueToLocation { .. }, _) => crate::debugger::continued_to(),
                (_, r) => PauseReason::Other(r.unwrap_or("").to_string()),
            }
        };
        let exception = thrown(self, params, self.opts.depth).await?;
        self.top_frame = program[0]
            .get("callFrameId")
            .and_then(Json::as_str)
            .map(str::to_string);
        self.top_names = crate::debugger::bound_names(&stack[0].scopes);
        Ok(Pause::InProgram(Box::new(PauseState {
            location: at,
            reason,
            engine_reason,
            stack,
            exception,
            condition: None,
            async_stack: Some(async_stack(
                params,
                &self.script_id,
                AsyncShape::WebKit,
                function_name,
            )),
        })))
    }

    /// The scope chain of a frame as our scopes, the global object skipped. JavaScriptCore
    /// splits a function's scope in two `closure` scopes named after it (its parameters, its
    /// body's `let`/`const`): they form one local scope, as in V8. `globalLexicalEnvironment`
    /// is the script scope; `functionName` (a named function expression's own name) has no
    /// counterpart in V8 and is left out, as is the implicit `arguments` binding (V8 lists it
    /// only when the function materializes it).
    async fn scopes(&self, frame: &Json, top: bool) -> Result<Vec<Scope>, DebuggerError> {
        let function = frame
            .get("functionName")
            .and_then(Json::as_str)
            .unwrap_or("");
        let mut own = function != "global code";
        let mut seen_local = false;
        let mut chain = Vec::new();
        for s in frame
            .get("scopeChain")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            let ty = s.get("type").and_then(Json::as_str).unwrap_or("");
            let name = s.get("name").and_then(Json::as_str).unwrap_or("");
            let kind = match ty {
                "global" | "functionName" => continue,
                "globalLexicalEnvironment" => ScopeKind::Script,
                "with" => ScopeKind::With,
                "catch" if own => ScopeKind::Catch,
                "nestedLexical" if own && !seen_local => ScopeKind::Block,
                "closure" if own && name == function => {
                    seen_local = true;
                    ScopeKind::Local
                }
                "closure" | "nestedLexical" | "catch" => {
                    own = false;
                    ScopeKind::Closure
                }
                other => ScopeKind::Other(other.to_string()),
            };
            if let Some(id) = s.pointer("/object/objectId").and_then(Json::as_str) {
                chain.push((s, kind, id));
            }
        }
        let ids: Vec<&str> = chain.iter().map(|(_, _, id)| *id).collect();
        let bindings = objects::bindings(self, &ids, self.opts.depth).await?;
        let call_frame = frame.get("callFrameId").and_then(Json::as_str);
        let mut out: Vec<Scope> = Vec::new();
        let mut seen_names = HashSet::new();
        for ((s, kind, _), b) in chain.into_iter().zip(bindings) {
            let mut variables = Vec::new();
            for (name, value) in b {
                if kind == ScopeKind::Local && name == "arguments" {
                    continue;
                }
                let shadowed = !seen_names.insert(name.clone());
                let value = value.unwrap_or_else(accessor);
                // JavaScriptCore reports a binding in its temporal dead zone as `undefined`;
                // reading it on the frame tells the two apart.
                let tdz = top
                    && value == Value::Undefined
                    && !shadowed
                    && kind != ScopeKind::With
                    && self.declarations.declares(&name)
                    && self.uninitialized(call_frame, &name).await;
                variables.push(if tdz {
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
                });
            }
            variables.sort_by(|a, b| a.name.cmp(&b.name));
            // Parameters and body bindings of one function: one local scope.
            if kind == ScopeKind::Local {
                if let Some(last) = out.last_mut().filter(|l| l.kind == ScopeKind::Local) {
                    last.variables.extend(variables);
                    last.variables.sort_by(|a, b| a.name.cmp(&b.name));
                    continue;
                }
            }
            if kind == ScopeKind::Script && variables.is_empty() {
                // V8 has a script scope only when there are top-level let/const/class.
                continue;
            }
            out.push(Scope {
                kind,
                name: s
                    .get("name")
                    .and_then(Json::as_str)
                    .filter(|n| !n.is_empty())
                    .map(str::to_string),
                variables,
            });
        }
        Ok(out)
    }

    /// Whether reading `name` on the frame throws JavaScriptCore's TDZ error. Reading a
    /// binding runs no program code (`with` scopes, whose objects may have getters, are not
    /// asked).
    async fn uninitialized(&self, call_frame: Option<&str>, name: &str) -> bool {
        let Some(id) = call_frame else {
            return false;
        };
        let Ok(r) = self
            .call(
                "Debugger.evaluateOnCallFrame",
                json!({"callFrameId": id, "expression": name, "silent": true,
                       "doNotPauseOnExceptionsAndMuteConsole": true}),
            )
            .await
        else {
            return false;
        };
        r.get("wasThrown").and_then(Json::as_bool) == Some(true)
            && r.pointer("/result/description")
                .and_then(Json::as_str)
                .is_some_and(|d| {
                    d.starts_with("ReferenceError")
                        && (d.contains("before initialization") || d.contains("uninitialized"))
                })
    }
}

#[async_trait]
impl Remote for JscSession {
    const PROPERTIES: &'static str = "properties";
    const QUIET: &'static str = "doNotPauseOnExceptionsAndMuteConsole";

    async fn request(&self, method: &str, params: Json) -> Result<Json, InspectorError> {
        self.call(method, params).await
    }

    fn max_entries(&self) -> usize {
        self.opts.max_entries
    }

    fn shell(ro: &Json) -> Value {
        primitive_or_shell(ro)
    }

    fn length(ro: &Json) -> Option<usize> {
        ro.get("size").and_then(Json::as_u64).map(|s| s as usize)
    }

    /// `Debugger.getFunctionDetails`' location, in the program's script (a built-in has none:
    /// the request fails), not for a bound function (it describes the target). A class's is its
    /// constructor's, as V8 and SpiderMonkey say; a default constructor's is in a script of its
    /// own, so JavaScriptCore says no line for a class without a constructor of its own.
    async fn defined_at(
        &self,
        object_id: &str,
        properties: &Json,
    ) -> Result<Option<u32>, DebuggerError> {
        let Ok(r) = self
            .call(
                "Debugger.getFunctionDetails",
                json!({"functionId": object_id}),
            )
            .await
        else {
            return Ok(None);
        };
        // A bound function's details are its target's (its own name is `bound <target>`).
        let own_name = properties
            .get("properties")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .find(|p| p["name"] == "name")
            .and_then(|p| p.pointer("/value/value"))
            .and_then(Json::as_str);
        let described = r.pointer("/details/name").and_then(Json::as_str);
        if let (Some(own), Some(described)) = (own_name, described) {
            if own != described {
                return Ok(None);
            }
        }
        let at = r.pointer("/details/location");
        Ok(at
            .filter(|l| l.get("scriptId").and_then(Json::as_str) == Some(self.script_id.as_str()))
            .and_then(|l| l.get("lineNumber"))
            .and_then(Json::as_u64)
            .and_then(|n| u32::try_from(n).ok()))
    }

    /// Map and Set entries come from `Runtime.getCollectionEntries`.
    async fn collection(
        &self,
        object_id: &str,
        kind: &ObjectKind,
        depth: u32,
    ) -> Result<(Vec<Entry>, bool), DebuggerError> {
        let max = self.opts.max_entries;
        let r = self
            .call(
                "Runtime.getCollectionEntries",
                json!({"objectId": object_id, "fetchStart": 0, "fetchCount": max + 1}),
            )
            .await
            .map_err(err)?;
        let list: Vec<Json> = r
            .get("entries")
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default();
        let truncated = list.len() > max;
        let mut out = Vec::new();
        for (i, e) in list.iter().take(max).enumerate() {
            let value = match e.get("value") {
                Some(v) => objects::value(self, v, depth).await?,
                None => Value::Unavailable,
            };
            let key = match e.get("key") {
                Some(k) if *kind == ObjectKind::Map => {
                    Key::Value(objects::value(self, k, depth).await?)
                }
                _ => Key::Index(i as u64),
            };
            out.push(Entry { key, value });
        }
        Ok((out, truncated))
    }
}

/// A frame's function as V8 names it: JavaScriptCore calls top-level code `global code`.
/// Whether a frame is JavaScriptCore's wrapper of the async function that runs in the frame
/// above it: JavaScriptCore shows an async function twice while its body runs before its first
/// `await` (the body where it is, and below it a frame of the same name at the function's
/// closing brace, the wrapper that started it). That frame is the engine's machinery, not a
/// call the program made, and is cut like engine frames (`docs/jsc-cookbook.md` §6c). Only
/// that shape: a recursive call of the same name stands at its call site, not after a `}`.
/// (A class static block has such a frame too, unnamed, just after the block: the caller
/// cuts it by the syntax tree, `Declarations::ends_static_block`.)
fn wrapper_frame(above: &str, name: &str, at: Location, lines: &[String]) -> bool {
    if above != name || name.is_empty() {
        return false;
    }
    let Some(line) = lines.get(at.line as usize) else {
        return false;
    };
    // JavaScriptCore puts the wrapper just after the brace (UTF-16 columns; the brace and what
    // precedes it on such a line are ASCII in every case seen, and anything else reads as no).
    let before: String = line
        .encode_utf16()
        .take(at.column as usize)
        .map(|u| char::from_u32(u32::from(u)).unwrap_or('\u{fffd}'))
        .collect();
    let after: String = line
        .encode_utf16()
        .skip(at.column as usize)
        .map(|u| char::from_u32(u32::from(u)).unwrap_or('\u{fffd}'))
        .collect();
    before.trim_end().ends_with('}')
        && !after
            .trim_start()
            .starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$' || c == '(')
}

fn function_name(f: &Json) -> String {
    match f.get("functionName").and_then(Json::as_str).unwrap_or("") {
        "global code" | "eval code" => String::new(),
        name => name.to_string(),
    }
}

#[async_trait]
impl Debugger for JscSession {
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
        let removed = self.breakpoints.remove(&self.conn, None, id, t).await;
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
        // The connection went with the process: a death by a fault signal is the engine's
        // crash, the answer to this action (Bun aborting on a resume, for one).
        let waited = tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await;
        match waited {
            Ok(Ok(status)) => match crate::debugger::fault("bun", status) {
                Some(message) => Ok(self.finish(ProgramOutcome::EngineCrashed { message })),
                None => answered,
            },
            _ => answered,
        }
    }

    async fn pause_on_exceptions(&mut self, mode: ExceptionPause) -> Result<Output, DebuggerError> {
        let out = pause_on_exceptions(self, mode, self.finished.as_ref()).await;
        self.healthy &= out.is_ok();
        out
    }

    async fn evaluate(&mut self, expression: &str) -> Result<Output, DebuggerError> {
        let out = evaluate(self, self.top_frame.as_deref(), expression, self.opts.depth).await;
        self.healthy &= out.is_ok();
        out
    }

    fn restarts_frames(&self) -> bool {
        false
    }

    /// WebKit's protocol has no request to set a variable: an assignment evaluated on the
    /// frame, as Web Inspector's console would.
    async fn set_variable(&mut self, name: &str, value: &str) -> Result<Output, DebuggerError> {
        let frame = self.top_frame.clone();
        if frame.is_some() && !self.top_names.contains(name) {
            return Ok(crate::debugger::unbound(name));
        }
        let out = set_by_assignment(self, frame.as_deref(), name, value, self.opts.depth).await;
        self.healthy &= out.is_ok();
        out
    }

    /// WebKit's `Debugger.getBreakpointLocations` (what Bun's own debug adapter answers DAP's
    /// `breakpointLocations` with): the script's pause positions in the range.
    async fn break_positions(
        &mut self,
        from: Location,
        to: Location,
    ) -> Result<Option<Vec<Location>>, DebuggerError> {
        let params = json!({
            "start": {"scriptId": self.script_id, "lineNumber": from.line, "columnNumber": from.column},
            "end": {"scriptId": self.script_id, "lineNumber": to.line, "columnNumber": to.column + 1},
        });
        match self.call("Debugger.getBreakpointLocations", params).await {
            Ok(r) => Ok(Some(crate::debugger::inspector::session::positions_in(
                &r,
                &self.script_id,
                from,
                to,
            ))),
            // A version without the request says nothing.
            Err(InspectorError::Protocol { .. }) => Ok(None),
            Err(e) => {
                self.healthy = false;
                Err(err(e))
            }
        }
    }

    fn slides_within_its_function(&self) -> bool {
        true
    }

    fn console(&self) -> Vec<String> {
        crate::debugger::split_console(&self.console).0
    }

    fn logs(&self) -> Vec<(BreakpointId, String)> {
        crate::debugger::split_console(&self.console).1
    }

    async fn close(mut self: Box<Self>) -> bool {
        self.conn.close();
        let _ = self.child.start_kill();
        let _ = tokio::time::timeout(Duration::from_secs(3), self.child.wait()).await;
        // One process per session: a healthy session leaves nothing behind. A failed one has
        // the engine restarted (its pool may hold processes as broken as this one).
        self.healthy
    }
}

impl JscSession {
    /// A breakpoint, with its condition if it has one (WebKit's `options.condition`).
    async fn set(
        &mut self,
        line: u32,
        column: Option<u32>,
        extra: Extra<'_>,
    ) -> Result<Output, DebuggerError> {
        let mut params = json!({"url": self.url, "lineNumber": line});
        if let Some(c) = column {
            params["columnNumber"] = json!(c);
        }
        match extra {
            Extra::Plain => {}
            Extra::Condition(c) => params["options"] = json!({ "condition": c }),
            // WebKit's own logpoint: an action evaluated on the frame, then on without a pause.
            Extra::Log(e) => {
                let args = crate::debugger::log_arguments(self.breakpoints.next_id(), e);
                params["options"] = json!({
                    "actions": [{"type": "evaluate", "data": format!("console.log({args})")}],
                    "autoContinue": true,
                });
            }
        }
        let requested = Location::new(line, column.unwrap_or(0));
        match self.call("Debugger.setBreakpointByUrl", params).await {
            // The script is known (the program waits at its first statement, or ran): the
            // reply carries the resolved locations.
            Ok(r) => Ok(self.breakpoints.set(&r, &self.script_id, requested)),
            Err(InspectorError::Protocol { message, .. }) => Ok(Output::Error { message }),
            Err(e) => {
                self.healthy = false;
                Err(err(e))
            }
        }
    }

    async fn control_inner(&mut self, action: &Action) -> Result<Output, DebuggerError> {
        if let Some(refused) =
            crate::debugger::refusal(action, self.started, self.finished.as_ref())
        {
            return Ok(refused);
        }
        if matches!(action, Action::RestartFrame { .. }) {
            return Ok(Output::Error {
                message: "WebKit's protocol cannot restart a frame".into(),
            });
        }
        self.top_frame = None;
        let method = match action {
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
                // A resume from the first statement would pass a breakpoint set there: report
                // the hit, as an engine that runs the program from its start does.
                let at = initial
                    .pointer("/callFrames/0/location")
                    .map(location)
                    .unwrap_or(Location::new(0, 0));
                let hit = self.breakpoints.resolved_at(at);
                if !hit.is_empty() {
                    if let Pause::InProgram(mut p) = self.pause_state(&initial, action).await? {
                        p.reason = PauseReason::Breakpoint { ids: hit };
                        return Ok(Output::Paused(*p));
                    }
                }
                "Debugger.resume"
            }
            Action::Resume => "Debugger.resume",
            Action::StepInto => "Debugger.stepInto",
            Action::StepOver => "Debugger.stepOver",
            Action::ContinueToLocation { .. } => "Debugger.continueToLocation",
            // StepOut: `refusal` let only control actions through.
            _ => "Debugger.stepOut",
        };
        let params = match action {
            Action::ContinueToLocation { line } => json!({
                "location": {"scriptId": self.script_id, "lineNumber": line},
            }),
            _ => json!({}),
        };
        match self.call(method, params).await {
            Ok(_) => {}
            Err(InspectorError::Protocol { message, .. }) => return Ok(Output::Error { message }),
            Err(e) => {
                self.healthy = false;
                return Err(err(e));
            }
        }
        let out = self.wait_outcome(action).await;
        if out.is_err() {
            self.healthy = false;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_offsets_become_lines_and_columns() {
        let text = "let a = 1;\r\nlet é = ;\nx";
        assert_eq!(position_of(text, 0), Location::new(0, 0));
        assert_eq!(position_of(text, 12), Location::new(1, 0));
        assert_eq!(position_of(text, 20), Location::new(1, 8));
        assert_eq!(position_of("a\u{1F600}b", 3), Location::new(0, 3));
    }

    #[test]
    fn the_throw_is_placed_by_the_programs_own_frame() {
        let stack = "RangeError: boom\n    at f (file:///p.js:3:9)\n    at file:///p.js:9:21\n    at runInThisContext (unknown)";
        assert_eq!(thrown_at(stack, "file:///p.js"), Some(Location::new(2, 8)));
        assert_eq!(thrown_at(stack, "file:///q.js"), None);
    }

    #[test]
    fn only_an_async_functions_wrapper_at_its_closing_brace_is_cut() {
        let lines: Vec<String> = "async function inner(x) {\n  await null;\n}\nfunction f(n) { return n ? f(n - 1) : 0; }\n}f(1)"
            .lines()
            .map(str::to_string)
            .collect();
        // Bun 1.4.5 at `await null` before it ran: inner (the body), inner at 2:1 (the wrapper).
        assert!(wrapper_frame("inner", "inner", Location::new(2, 1), &lines));
        // Another function below, or no name: a frame of the program.
        assert!(!wrapper_frame(
            "inner",
            "outer",
            Location::new(2, 1),
            &lines
        ));
        assert!(!wrapper_frame("", "", Location::new(2, 1), &lines));
        // Direct recursion stands at its call site.
        assert!(!wrapper_frame("f", "f", Location::new(3, 25), &lines));
        // A call just after a brace is a call.
        assert!(!wrapper_frame("f", "f", Location::new(4, 1), &lines));
        assert!(!wrapper_frame(
            "inner",
            "inner",
            Location::new(9, 1),
            &lines
        ));
    }
}
