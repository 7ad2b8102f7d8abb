//! One debugging session over Firefox's RDP: the normalizing adapter (docs/debugger-protocols.md §3.3).
//!
//! Lines are 1-based on the wire and 0-based in our model: converted here and nowhere else.
//! Firefox does not slide breakpoints: the actual location is chosen by this adapter from the
//! source's breakable positions, under a recorded [`BreakpointPolicy`].

use super::connection::{Connection, RdpError};
use super::grips::primitive_or_shell;
use crate::debugger::inspector::objects::private_in_order;
use crate::debugger::{CaptureOptions, Debugger, DebuggerError, Extra};
use async_trait::async_trait;
use morphtrace_schema::{
    Action, AsyncFrames, BreakpointId, Entry, ExceptionPause, Frame, Key, Location, LocationSource,
    ObjectKind, Output, PauseReason, PauseState, ProgramOutcome, Scope, ScopeKind, Value, Variable,
};
use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio::sync::{mpsc, Mutex, OwnedMutexGuard};

/// Where a breakpoint goes when the requested line has no breakable position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum BreakpointPolicy {
    /// The first breakable position at or after the requested line (V8-like; the default).
    #[default]
    NextBreakable,
    /// The first breakable position on the requested line only; none if it has none.
    SameLine,
}

impl BreakpointPolicy {
    pub fn name(self) -> &'static str {
        match self {
            BreakpointPolicy::NextBreakable => "next-breakable",
            BreakpointPolicy::SameLine => "same-line",
        }
    }

    /// The actual location for a request, from the breakable positions (0-based lines).
    pub fn place(
        self,
        positions: &BTreeMap<u32, Vec<u32>>,
        line: u32,
        column: Option<u32>,
    ) -> Option<Location> {
        let on_line = |l: u32, min_col: u32| {
            positions
                .get(&l)
                .and_then(|cols| cols.iter().copied().filter(|&c| c >= min_col).min())
                .map(|c| Location::new(l, c))
        };
        if let Some(loc) = on_line(line, column.unwrap_or(0)) {
            return Some(loc);
        }
        match self {
            BreakpointPolicy::SameLine => None,
            BreakpointPolicy::NextBreakable => positions
                .range(line + 1..)
                .find_map(|(&l, _)| on_line(l, 0)),
        }
    }
}

/// Parses `getBreakpointPositionsCompressed` (`{"3": [12], ...}`, 1-based lines) to 0-based lines.
pub fn parse_positions(reply: &Json) -> BTreeMap<u32, Vec<u32>> {
    let mut out = BTreeMap::new();
    if let Some(m) = reply.get("positions").and_then(Json::as_object) {
        for (line, cols) in m {
            let Ok(l) = line.parse::<u32>() else { continue };
            let Some(l) = l.checked_sub(1) else { continue };
            let mut cols: Vec<u32> = cols
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c.as_u64().map(|c| c as u32))
                .collect();
            cols.sort_unstable();
            cols.dedup();
            out.insert(l, cols);
        }
    }
    out
}

/// What one session needs of the engine's connection.
pub struct Link {
    pub conn: Connection,
    /// The tab descriptor (navigation).
    pub tab: String,
    pub breakpoint_list: String,
    /// The watcher's thread configuration (pausing on exceptions): session data of the
    /// watcher, so it outlives a page and is reset by the session that changed it.
    pub thread_configuration: String,
    pub events: Arc<Mutex<mpsc::UnboundedReceiver<Json>>>,
    /// True when the session owns the connection (naive mode): it is closed with the session.
    pub owned: bool,
}

/// What `open` found when the program first paused: its thread, source and breakable positions.
pub struct FirstPause {
    pub thread: String,
    pub source_actor: String,
    pub source_url: String,
    pub first: Location,
    pub positions: BTreeMap<u32, Vec<u32>>,
    /// Console lines and an uncaught error seen before the first pause.
    pub console: Vec<String>,
    /// The console actor of the page's target (evaluation on a frame), when it was announced.
    pub console_actor: Option<String>,
}

pub struct RdpSession {
    conn: Connection,
    breakpoint_list: String,
    thread_configuration: String,
    console_actor: Option<String>,
    /// The top program frame's actor at the current pause, what `evaluate` runs on.
    top_frame: Option<String>,
    /// The names the top frame's scopes bind at the current pause (`set_variable`).
    top_names: std::collections::HashSet<String>,
    /// The program frames' actors at the current pause, top first (`RestartFrame`).
    frame_actors: Vec<String>,
    /// Pausing on exceptions was turned on: turned off again when the session closes.
    pauses_on_exceptions: bool,
    events: OwnedMutexGuard<mpsc::UnboundedReceiver<Json>>,
    owned_link: bool,
    thread: String,
    source_actor: String,
    source_url: String,
    marker: String,
    /// `threw_marker(marker)`, and whether the page logged it: an uncaught error's resource
    /// is then still to come if it has not.
    threw: String,
    threw_seen: bool,
    /// The end marker came while that error was still to come.
    ended: bool,
    positions: BTreeMap<u32, Vec<u32>>,
    policy: BreakpointPolicy,
    opts: CaptureOptions,
    /// Our breakpoints and where they were placed (`None`: no breakable position).
    bps: HashMap<BreakpointId, Option<Location>>,
    /// Breakpoints per placed location: Firefox keeps one per location, we may set several.
    at: BTreeMap<Location, Vec<BreakpointId>>,
    /// The conditions of conditional breakpoints. Firefox's breakpoint at a location pauses
    /// where any of ours there would: unconditionally if one is, else where one holds.
    conditions: HashMap<BreakpointId, String>,
    /// Logpoints: what each logs (Firefox's `logValue`). A logpoint shares its place with no
    /// other breakpoint: Firefox's breakpoint there either logs or pauses.
    logpoints: HashMap<BreakpointId, String>,
    /// A logpoint was set: lines it logged may still be on their way at a pause.
    logging: bool,
    /// The console line that says every line logged before it arrived (`flush_logs`).
    synced: bool,
    next_bp: u32,
    /// The first-statement pause, until `Start`.
    first: Option<Location>,
    started: bool,
    finished: Option<ProgramOutcome>,
    exception: Option<(String, Option<Location>)>,
    console: Vec<String>,
    healthy: bool,
    page: Option<std::path::PathBuf>,
}

fn err(e: RdpError) -> DebuggerError {
    match e {
        RdpError::Closed | RdpError::Io(_) => {
            DebuggerError::Crashed("the debugger connection closed".into())
        }
        RdpError::Timeout(m, d) => DebuggerError::Timeout(format!("{m} after {d:?}")),
        other => DebuggerError::Protocol(other.to_string()),
    }
}

/// The line `flush_logs` logs: never the program's.
const LOG_SYNC: &str = "\u{2063}morphtrace-log-sync";

/// The line the page's `onerror` logs, before `end`, when one of its scripts threw.
pub fn threw_marker(end: &str) -> String {
    format!("{end}threw")
}

/// A console message's arguments as one line (strings bare, other values as rendered).
pub fn console_line(message: &Json) -> String {
    message
        .get("arguments")
        .and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .map(|g| match primitive_or_shell(g) {
                    Value::String(s) => s,
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// An uncaught error of the page's scripts (`error-message` resource), if this is one.
pub fn page_error(resource: &Json) -> Option<(String, Option<Location>)> {
    let e = resource.get("pageError")?;
    if e.get("warning").and_then(Json::as_bool) == Some(true)
        || e.get("category").and_then(Json::as_str) != Some("content javascript")
    {
        return None;
    }
    let message = e.get("errorMessage").and_then(Json::as_str)?.to_string();
    let n = |k: &str| e.get(k).and_then(Json::as_u64).map(|n| n as u32);
    // Both 1-based in error messages.
    let loc = n("lineNumber")
        .filter(|&l| l > 0)
        .map(|l| Location::new(l - 1, n("columnNumber").unwrap_or(1).saturating_sub(1)));
    Some((message, loc))
}

/// The `(type, resource)` pairs of a `resources-available-array` event.
pub fn resources(ev: &Json) -> Vec<(&str, &Json)> {
    let mut out = Vec::new();
    for pair in ev
        .get("array")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
    {
        let (Some(ty), Some(list)) = (
            pair.get(0).and_then(Json::as_str),
            pair.get(1).and_then(Json::as_array),
        ) else {
            continue;
        };
        out.extend(list.iter().map(|r| (ty, r)));
    }
    out
}

enum Pause {
    InProgram(PauseState),
    Outside { program_below: bool },
}

impl RdpSession {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        link: &Link,
        events: OwnedMutexGuard<mpsc::UnboundedReceiver<Json>>,
        loaded: FirstPause,
        marker: String,
        policy: BreakpointPolicy,
        opts: CaptureOptions,
        page: std::path::PathBuf,
    ) -> RdpSession {
        RdpSession {
            conn: link.conn.clone(),
            breakpoint_list: link.breakpoint_list.clone(),
            thread_configuration: link.thread_configuration.clone(),
            console_actor: loaded.console_actor,
            top_frame: None,
            top_names: Default::default(),
            frame_actors: Vec::new(),
            pauses_on_exceptions: false,
            events,
            owned_link: link.owned,
            thread: loaded.thread,
            source_actor: loaded.source_actor,
            source_url: loaded.source_url,
            threw: threw_marker(&marker),
            threw_seen: false,
            ended: false,
            marker,
            positions: loaded.positions,
            policy,
            opts,
            bps: HashMap::new(),
            at: BTreeMap::new(),
            conditions: HashMap::new(),
            logpoints: HashMap::new(),
            logging: false,
            synced: false,
            next_bp: 0,
            first: Some(loaded.first),
            started: false,
            finished: None,
            exception: None,
            console: loaded.console,
            healthy: true,
            page: Some(page),
        }
    }

    async fn request(&self, to: &str, method: &str, fields: Json) -> Result<Json, RdpError> {
        self.conn
            .request(to, method, fields, self.opts.call_timeout)
            .await
    }

    fn finish(&mut self, outcome: ProgramOutcome) -> Output {
        self.finished = Some(outcome.clone());
        Output::Finished { outcome }
    }

    /// `setBreakpoint` or `removeBreakpoint` on the breakpoint list (1-based line on the wire).
    /// Setting a location again replaces its options.
    async fn breakpoint_request(&self, method: &str, loc: Location) -> Result<Json, RdpError> {
        let location =
            json!({"sourceUrl": self.source_url, "line": loc.line + 1, "column": loc.column});
        let fields = if method == "setBreakpoint" {
            json!({"location": location, "options": self.options_at(loc)})
        } else {
            json!({"location": location})
        };
        self.request(&self.breakpoint_list, method, fields).await
    }

    /// The options of Firefox's breakpoint at `loc`: no condition if one of ours there has
    /// none, else the disjunction of theirs.
    fn options_at(&self, loc: Location) -> Json {
        let ids = self.at.get(&loc).map(Vec::as_slice).unwrap_or_default();
        if let Some(log) = ids.iter().find_map(|id| self.logpoints.get(id)) {
            return json!({ "logValue": log });
        }
        let conditions: Option<Vec<String>> = ids
            .iter()
            .map(|id| self.conditions.get(id).map(|c| format!("({c})")))
            .collect();
        match conditions {
            Some(c) if !c.is_empty() => json!({"condition": c.join(" || ")}),
            _ => json!({}),
        }
    }

    async fn set(
        &mut self,
        line: u32,
        column: Option<u32>,
        extra: Extra<'_>,
    ) -> Result<Output, DebuggerError> {
        let requested = Location::new(line, column.unwrap_or(0));
        let placed = self.policy.place(&self.positions, line, column);
        if let Some(here) = placed.and_then(|loc| self.at.get(&loc)) {
            if matches!(extra, Extra::Log(_)) || here.iter().any(|i| self.logpoints.contains_key(i))
            {
                return Ok(Output::Error {
                    message: "a logpoint shares its place with no other breakpoint".into(),
                });
            }
        }
        let id = BreakpointId(self.next_bp);
        self.next_bp += 1;
        match extra {
            Extra::Plain => {}
            Extra::Condition(c) => {
                self.conditions.insert(id, c.to_string());
            }
            // Firefox's own logpoints: `logValue` is evaluated as the console's arguments.
            Extra::Log(e) => {
                self.logging = true;
                self.logpoints
                    .insert(id, crate::debugger::log_arguments(id, e));
            }
        }
        if let Some(loc) = placed {
            let before = self.at.get(&loc).map(|_| self.options_at(loc));
            self.at.entry(loc).or_default().push(id);
            if before.as_ref() != Some(&self.options_at(loc)) {
                match self.breakpoint_request("setBreakpoint", loc).await {
                    Ok(_) => {}
                    Err(RdpError::Server { message, error, .. }) => {
                        self.at.entry(loc).or_default().retain(|i| *i != id);
                        if self.at.get(&loc).is_some_and(Vec::is_empty) {
                            self.at.remove(&loc);
                        }
                        return Ok(Output::Error {
                            message: format!("{error}: {message}"),
                        });
                    }
                    Err(e) => {
                        self.healthy = false;
                        return Err(err(e));
                    }
                }
            }
        }
        self.bps.insert(id, placed);
        Ok(Output::BreakpointSet {
            id,
            requested,
            actual: placed.into_iter().collect(),
            source: LocationSource::ClientComputed,
            policy: Some(self.policy.name().to_string()),
        })
    }

    /// Console output and errors of a resources event; true when the page's end marker came.
    fn note_resources(&mut self, ev: &Json) -> bool {
        let mut ended = false;
        for (ty, r) in resources(ev) {
            match ty {
                "console-message" => {
                    let line = console_line(r);
                    if line == self.threw {
                        self.threw_seen = true;
                    } else if line == self.marker {
                        ended = true;
                    } else if line == LOG_SYNC {
                        self.synced = true;
                    } else if !ended && !self.ended {
                        self.console.push(line);
                    }
                }
                "error-message" => {
                    if let Some(e) = page_error(r) {
                        self.exception.get_or_insert(e);
                    }
                }
                _ => {}
            }
        }
        ended
    }

    fn resume_limit(action: &Action) -> Json {
        match action {
            Action::StepInto => json!({"type": "step"}),
            Action::StepOver => json!({"type": "next"}),
            Action::StepOut => json!({"type": "finish"}),
            _ => Json::Null,
        }
    }

    async fn resume(&mut self, limit: Json) -> Result<(), DebuggerError> {
        let thread = self.thread.clone();
        self.request(&thread, "resume", json!({"resumeLimit": limit}))
            .await
            .map(|_| ())
            .map_err(|e| {
                self.healthy = false;
                err(e)
            })
    }

    /// Waits for the next pause in the program or for the page's end marker.
    async fn wait_outcome(&mut self, action: &Action) -> Result<Output, DebuggerError> {
        let deadline = tokio::time::Instant::now() + self.opts.action_timeout;
        loop {
            let ev = tokio::select! {
                ev = self.events.recv() => ev,
                _ = tokio::time::sleep_until(deadline) => {
                    if self.ended {
                        // The page ended after a script threw; Firefox never said what.
                        return Ok(self.finish(ProgramOutcome::UncaughtException {
                            message: "an uncaught error Firefox did not report".into(),
                            location: None,
                        }));
                    }
                    // Still running (non-termination): the page's process is busy.
                    self.healthy = false;
                    return Ok(self.finish(ProgramOutcome::Timeout));
                }
            };
            let Some(ev) = ev else {
                self.healthy = false;
                return Err(DebuggerError::Crashed(
                    "the debugger connection closed".into(),
                ));
            };
            match ev.get("type").and_then(Json::as_str) {
                Some("paused") => {
                    if let Some(t) = ev.get("from").and_then(Json::as_str) {
                        self.thread = t.to_string();
                    }
                    match self.pause_state(&ev, action).await? {
                        Pause::InProgram(p) => return Ok(Output::Paused(p)),
                        // Paused in the end-marker script or in code that is not the program's:
                        // leave it, never report a pause there.
                        Pause::Outside { program_below } => {
                            let limit = if program_below && action != &Action::Resume {
                                json!({"type": "finish"})
                            } else {
                                Json::Null
                            };
                            self.resume(limit).await?;
                        }
                    }
                }
                Some("resources-available-array") if self.note_resources(&ev) | self.ended => {
                    if self.threw_seen && self.exception.is_none() {
                        // The page said a script threw; its error resource is on its way.
                        self.ended = true;
                        continue;
                    }
                    let outcome = match self.exception.take() {
                        Some((message, location)) => {
                            ProgramOutcome::UncaughtException { message, location }
                        }
                        None => ProgramOutcome::Completed,
                    };
                    return Ok(self.finish(outcome));
                }
                _ => {}
            }
        }
    }

    async fn pause_state(&mut self, ev: &Json, action: &Action) -> Result<Pause, DebuggerError> {
        let thread = self.thread.clone();
        let frames = self
            .request(&thread, "frames", json!({"start": 0, "count": 1000}))
            .await
            .map_err(err)?;
        let all: &[Json] = frames
            .get("frames")
            .and_then(Json::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        // The live frames come first; below them, the async stack: saved frames (state
        // `dead`) or frames suspended at an `await`, a segment starting at each `asyncCause`.
        let live = all
            .iter()
            .position(|f| f.get("state").and_then(Json::as_str) != Some("on-stack"))
            .unwrap_or(all.len());
        let (frames, older) = all.split_at(live);
        let source = self.source_actor.as_str();
        let async_stack = async_segments(older, source);
        let program = match crate::debugger::in_program(frames, |f| {
            f.pointer("/where/actor").and_then(Json::as_str) == Some(source)
        }) {
            Ok(frames) => frames,
            Err(program_below) => return Ok(Pause::Outside { program_below }),
        };
        let mut stack = Vec::with_capacity(program.len());
        for (i, f) in program.iter().enumerate() {
            let scopes = if self.opts.scopes_of(i) {
                match f.get("actor").and_then(Json::as_str) {
                    Some(actor) => self.scopes(actor).await?,
                    None => Vec::new(),
                }
            } else {
                Vec::new()
            };
            stack.push(Frame {
                function: frame_name(f),
                location: where_location(&f["where"]),
                scopes,
            });
        }
        let location = stack[0].location;
        let why = ev.pointer("/why/type").and_then(Json::as_str);
        let engine_reason = match why {
            Some("resumeLimit") if ev.pointer("/why/frameFinished/throw").is_some() => {
                Some(crate::debugger::POPPED_BY_A_THROW.to_string())
            }
            Some("resumeLimit") if ev.pointer("/why/frameFinished/return").is_some() => {
                Some(crate::debugger::POPPED_BY_A_RETURN.to_string())
            }
            w => w.map(str::to_string),
        };
        let exception = match ev.pointer("/why/exception") {
            Some(grip) if why == Some("exception") => {
                Some(Box::new(self.value(grip, self.opts.depth).await?))
            }
            _ => None,
        };
        self.top_frame = program[0]
            .get("actor")
            .and_then(Json::as_str)
            .map(str::to_string);
        self.top_names = crate::debugger::bound_names(&stack[0].scopes);
        self.frame_actors = program
            .iter()
            .map(|f| {
                f.get("actor")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
        Ok(Pause::InProgram(PauseState {
            location,
            reason: self.reason(location, action, why),
            engine_reason,
            stack,
            exception,
            condition: None,
            async_stack: Some(async_stack),
        }))
    }

    /// Firefox says `resumeLimit` even when a step lands on a breakpoint, and `why.actors` is
    /// `[null]` for breakpoint-list breakpoints (pitfall 8): hits are matched by location.
    fn reason(&self, at: Location, action: &Action, why: Option<&str>) -> PauseReason {
        if let Some(ids) = self.at.get(&at).filter(|ids| !ids.is_empty()) {
            let mut ids = ids.clone();
            ids.sort();
            return PauseReason::Breakpoint { ids };
        }
        match (action, why) {
            (_, Some("exception")) => PauseReason::Exception,
            (Action::StepInto | Action::StepOver | Action::StepOut, _) => PauseReason::Step,
            (Action::RestartFrame { .. }, Some("resumeLimit")) => crate::debugger::restarted(),
            (_, Some("debuggerStatement")) => PauseReason::DebuggerStatement,
            (_, r) => PauseReason::Other(r.unwrap_or("").to_string()),
        }
    }

    /// The environment chain of a frame as our scopes (cookbook pitfall 10), global object
    /// skipped. A function's `let`/`const` (`function lexical`) and its parameters and `var`s
    /// (`function`) form one local scope, as in V8; the implicit `arguments` binding is left
    /// out (V8 lists it only when the function materializes it).
    async fn scopes(&self, frame_actor: &str) -> Result<Vec<Scope>, DebuggerError> {
        let env = self
            .request(frame_actor, "getEnvironment", json!({}))
            .await
            .map_err(err)?;
        let mut out: Vec<Scope> = Vec::new();
        let mut env = Some(&env);
        let mut in_own_function = true;
        let mut merge_into_local = false;
        while let Some(e) = env {
            let parent = e.get("parent").filter(|p| p.is_object());
            let ty = e.get("type").and_then(Json::as_str).unwrap_or("");
            let scope_kind = e.get("scopeKind").and_then(Json::as_str).unwrap_or("");
            let kind = match (ty, scope_kind) {
                // The global object (Window): the whole page, not the program's state.
                ("object", _) if parent.is_none() => {
                    env = None;
                    continue;
                }
                ("object" | "with", _) => ScopeKind::With,
                ("block", "global") => ScopeKind::Script,
                ("block", "catch") => ScopeKind::Catch,
                ("block", "function lexical") | ("function", _) if in_own_function => {
                    ScopeKind::Local
                }
                ("block", "function lexical") | ("function", _) => ScopeKind::Closure,
                ("block", _) if in_own_function => ScopeKind::Block,
                ("block", _) => ScopeKind::Closure,
                (other, _) => ScopeKind::Other(other.to_string()),
            };
            let mut variables = Vec::new();
            if let Some(b) = e.get("bindings") {
                for a in b
                    .get("arguments")
                    .and_then(Json::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some((name, d)) = a.as_object().and_then(|o| o.iter().next()) {
                        variables.push(self.variable(name, d).await?);
                    }
                }
                if let Some(vars) = b.get("variables").and_then(Json::as_object) {
                    for (name, d) in vars {
                        if ty == "function" && name == "arguments" {
                            continue;
                        }
                        variables.push(self.variable(name, d).await?);
                    }
                }
            } else if let Some(actor) = e.pointer("/object/actor").and_then(Json::as_str) {
                // A `with` object: its properties are the scope's variables.
                let obj = primitive_or_shell(&e["object"]);
                let kind = match &obj {
                    Value::Object { kind, .. } => kind.clone(),
                    _ => ObjectKind::Object,
                };
                // A scope's bindings have no private names.
                let (entries, _) = self
                    .entries(actor, &kind, None, false, self.opts.depth)
                    .await?;
                for en in entries {
                    if let Key::Name(name) = en.key {
                        variables.push(Variable {
                            name,
                            value: en.value,
                            reported: None,
                        });
                    }
                }
            }
            let name = e
                .pointer("/function/displayName")
                .and_then(Json::as_str)
                .map(str::to_string);
            if merge_into_local && kind == ScopeKind::Local {
                if let Some(last) = out.last_mut() {
                    last.variables.extend(variables);
                    last.variables.sort_by(|a, b| a.name.cmp(&b.name));
                    if last.name.is_none() {
                        last.name = name;
                    }
                }
            } else if kind == ScopeKind::Script && variables.is_empty() {
                // V8 has a script scope only when there are top-level let/const/class.
            } else {
                variables.sort_by(|a, b| a.name.cmp(&b.name));
                out.push(Scope {
                    kind: kind.clone(),
                    name,
                    variables,
                });
            }
            merge_into_local = ty == "block" && scope_kind == "function lexical";
            if ty == "function" {
                in_own_function = false;
            }
            env = parent;
        }
        Ok(out)
    }

    async fn variable(&self, name: &str, descriptor: &Json) -> Result<Variable, DebuggerError> {
        let value = match descriptor.get("value") {
            Some(g) => self.value(g, self.opts.depth).await?,
            None => accessor(),
        };
        Ok(Variable {
            name: name.to_string(),
            value,
            reported: None,
        })
    }

    /// A value expanded to `depth` levels of object entries.
    fn value<'a>(
        &'a self,
        grip: &'a Json,
        depth: u32,
    ) -> Pin<Box<dyn Future<Output = Result<Value, DebuggerError>> + Send + 'a>> {
        Box::pin(async move {
            let mut v = primitive_or_shell(grip);
            if grip.get("type").and_then(Json::as_str) == Some("longString") {
                if let (Some(actor), Some(len)) = (
                    grip.get("actor").and_then(Json::as_str),
                    grip.get("length").and_then(Json::as_u64),
                ) {
                    let r = self
                        .request(actor, "substring", json!({"start": 0, "end": len}))
                        .await
                        .map_err(err)?;
                    if let Some(s) = r.get("substring").and_then(Json::as_str) {
                        v = Value::String(s.to_string());
                    }
                }
            }
            if let Value::Object {
                kind,
                entries,
                truncated,
                ..
            } = &mut v
            {
                if let (true, true, Some(actor)) = (
                    depth > 0,
                    *kind == ObjectKind::Function,
                    grip.get("actor").and_then(Json::as_str),
                ) {
                    *entries = Some(self.function(actor, grip).await?);
                } else if depth > 0 {
                    if let Some(actor) = grip.get("actor").and_then(Json::as_str) {
                        // Present properties, `length` included (holes are not properties).
                        let own = grip.get("ownPropertyLength").and_then(Json::as_u64);
                        let private = may_have_private_fields(grip);
                        let (e, t) = self.entries(actor, kind, own, private, depth - 1).await?;
                        *entries = Some(e);
                        *truncated = t;
                    }
                }
            }
            Ok(v)
        })
    }

    /// A function's name and defining line (`Value::function_entries`): its own `name` where
    /// that is a string data property (`prototypeAndProperties`), and its grip's `location`
    /// where that is in the program's source.
    async fn function(&self, actor: &str, grip: &Json) -> Result<Vec<Entry>, DebuggerError> {
        let props = self
            .request(actor, "prototypeAndProperties", json!({}))
            .await
            .map_err(err)?;
        let name = props
            .pointer("/ownProperties/name/value")
            .and_then(Json::as_str)
            .map(str::to_string);
        let line = grip
            .get("location")
            .filter(|l| l.get("url").and_then(Json::as_str) == Some(self.source_url.as_str()))
            .and_then(|l| l.get("line"))
            .and_then(Json::as_u64)
            .and_then(|n| u32::try_from(n).ok());
        Ok(Value::function_entries(name, line))
    }

    /// Up to `max_entries` enumerable own entries, in the engine's order (indices ascending,
    /// then names in creation order), then private fields by name when `private` (see
    /// `inspector::objects::private_in_order`); Map and Set entries from their iterator.
    async fn entries(
        &self,
        actor: &str,
        kind: &ObjectKind,
        own_len: Option<u64>,
        private: bool,
        depth: u32,
    ) -> Result<(Vec<Entry>, bool), DebuggerError> {
        let max = self.opts.max_entries;
        let keyed = matches!(kind, ObjectKind::Map | ObjectKind::Set);
        let indexed = matches!(kind, ObjectKind::Array | ObjectKind::TypedArray);
        // An array's indexed iterator walks index ranges, holes included: fine for dense arrays,
        // but a holey one is read from its few present properties instead.
        let few_present = own_len.is_some_and(|n| n as usize <= max.saturating_mul(2));
        let (method, fields) = if keyed {
            ("enumEntries", json!({}))
        } else if indexed && !few_present {
            (
                "enumProperties",
                json!({"options": {"ignoreNonIndexedProperties": true}}),
            )
        } else {
            ("enumProperties", json!({"options": {}}))
        };
        let Some((it_actor, count)) = self.iterator(actor, method, fields).await? else {
            return Ok((Vec::new(), false));
        };
        let it_actor = it_actor.as_str();
        let mut props: Vec<(String, Json)> = Vec::new();
        let mut truncated;
        if indexed && !few_present {
            // Index ranges of `max`, until `max` present elements (a few ranges at most).
            let mut start = 0;
            let mut ranges = 0;
            while start < count && props.len() < max && ranges < 20 {
                let slice = self
                    .request(it_actor, "slice", json!({"start": start, "count": max}))
                    .await
                    .map_err(err)?;
                if let Some(m) = slice.get("ownProperties").and_then(Json::as_object) {
                    props.extend(m.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
                start += max;
                ranges += 1;
            }
            truncated = start < count;
        } else {
            // Non-enumerable names (`length`) are filtered below: read a little further.
            let want = if keyed {
                count.min(max)
            } else {
                count.min(max.saturating_mul(4).max(64))
            };
            let slice = self
                .request(it_actor, "slice", json!({"start": 0, "count": want}))
                .await
                .map_err(err)?;
            if let Some(m) = slice.get("ownProperties").and_then(Json::as_object) {
                props.extend(m.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            truncated = count > want;
        }
        let mut out = Vec::new();
        for (name, d) in &props {
            if !keyed && d.get("enumerable").and_then(Json::as_bool) != Some(true) {
                continue;
            }
            if indexed && name.parse::<u64>().is_err() {
                continue;
            }
            if out.len() >= max {
                truncated = true;
                break;
            }
            let Some(grip) = d.get("value") else {
                out.push(Entry {
                    key: Key::Name(name.clone()),
                    value: accessor(),
                });
                continue;
            };
            if keyed {
                let entry = if grip.get("type").and_then(Json::as_str) == Some("mapEntry") {
                    let key = grip.pointer("/preview/key").cloned().unwrap_or(Json::Null);
                    let value = grip
                        .pointer("/preview/value")
                        .cloned()
                        .unwrap_or(Json::Null);
                    Entry {
                        key: Key::Value(self.value(&key, depth).await?),
                        value: self.value(&value, depth).await?,
                    }
                } else {
                    Entry {
                        key: Key::Index(out.len() as u64),
                        value: self.value(grip, depth).await?,
                    }
                };
                out.push(entry);
                continue;
            }
            let key = match name.parse::<u64>() {
                Ok(i) if indexed => Key::Index(i),
                _ => Key::Name(name.clone()),
            };
            out.push(Entry {
                key,
                value: self.value(grip, depth).await?,
            });
        }
        if private && !keyed && !indexed && out.len() < max {
            truncated |= self
                .private_fields(actor, max - out.len(), depth, &mut out)
                .await?;
        }
        Ok((out, truncated))
    }

    /// An iterator actor over an object's entries (`enumProperties`, `enumEntries`,
    /// `enumPrivateProperties`) and how many it holds; `None` when it holds none.
    async fn iterator(
        &self,
        actor: &str,
        method: &str,
        fields: Json,
    ) -> Result<Option<(String, usize)>, DebuggerError> {
        let it = self.request(actor, method, fields).await.map_err(err)?;
        let count = it
            .pointer("/iterator/count")
            .and_then(Json::as_u64)
            .unwrap_or(0) as usize;
        Ok(it
            .pointer("/iterator/actor")
            .and_then(Json::as_str)
            .filter(|_| count > 0)
            .map(|a| (a.to_string(), count)))
    }

    /// An object's private fields (`enumPrivateProperties`: SpiderMonkey's
    /// `Debugger.Object.getOwnPrivateProperties`, fields only), at most `room` of them, appended
    /// by name; whether more were left out.
    async fn private_fields(
        &self,
        actor: &str,
        room: usize,
        depth: u32,
        out: &mut Vec<Entry>,
    ) -> Result<bool, DebuggerError> {
        let Some((it_actor, count)) = self
            .iterator(actor, "enumPrivateProperties", json!({}))
            .await?
        else {
            return Ok(false);
        };
        let slice = self
            .request(&it_actor, "slice", json!({"start": 0, "count": count}))
            .await
            .map_err(err)?;
        let fields: Vec<(&str, &Json)> = slice
            .get("privateProperties")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter_map(|p| {
                let name = p.get("name").and_then(Json::as_str)?;
                Some((name, p.pointer("/descriptor/value")?))
            })
            .collect();
        let more = fields.len() > room;
        for (name, grip) in private_in_order(fields).into_iter().take(room) {
            out.push(Entry {
                key: Key::Name(name.to_string()),
                value: self.value(grip, depth).await?,
            });
        }
        Ok(more)
    }

    /// Sets which exceptions pause (cookbook §3.3: the watcher's thread configuration).
    async fn configure_exceptions(
        &self,
        config: &str,
        mode: ExceptionPause,
    ) -> Result<(), RdpError> {
        let configuration = json!({
            "pauseOnExceptions": mode != ExceptionPause::None,
            "ignoreCaughtExceptions": mode != ExceptionPause::All,
        });
        self.request(
            config,
            "updateConfiguration",
            json!({ "configuration": configuration }),
        )
        .await
        .map(|_| ())
    }

    /// `evaluateJSAsync` on a frame (cookbook §3.3): the reply names the result, which comes
    /// as an `evaluationResult` event; what it threw is its `exception`.
    async fn evaluate_on(
        &mut self,
        console: &str,
        frame: &str,
        expression: &str,
    ) -> Result<Output, DebuggerError> {
        let reply = match self
            .request(
                console,
                "evaluateJSAsync",
                json!({"text": expression, "frameActor": frame}),
            )
            .await
        {
            Ok(r) => r,
            Err(RdpError::Server { message, .. }) => return Ok(Output::Error { message }),
            Err(e) => return Err(err(e)),
        };
        let id = reply.get("resultID").cloned().unwrap_or(Json::Null);
        let deadline = tokio::time::Instant::now() + self.opts.call_timeout;
        loop {
            let ev = tokio::select! {
                ev = self.events.recv() => ev,
                _ = tokio::time::sleep_until(deadline) => {
                    return Err(DebuggerError::Timeout(format!(
                        "evaluateJSAsync: no evaluationResult after {:?}",
                        self.opts.call_timeout
                    )))
                }
            };
            let Some(ev) = ev else {
                return Err(DebuggerError::Crashed(
                    "the debugger connection closed".into(),
                ));
            };
            match ev.get("type").and_then(Json::as_str) {
                Some("evaluationResult") if ev.get("resultID") == Some(&id) => {
                    let threw = ev.get("hasException").and_then(Json::as_bool) == Some(true);
                    let grip = if threw {
                        &ev["exception"]
                    } else {
                        &ev["result"]
                    };
                    let value = self.value(grip, self.opts.depth).await?;
                    return Ok(Output::Evaluated { value, threw });
                }
                Some("resources-available-array") => {
                    self.note_resources(&ev);
                }
                _ => {}
            }
        }
    }

    /// Firefox hands console messages over in batches, after the pause that follows them:
    /// what logpoints logged before a pause is read once a line logged at the pause, on its
    /// top frame, comes back behind them.
    async fn flush_logs(&mut self) -> Result<(), DebuggerError> {
        let (Some(frame), Some(console)) = (self.top_frame.clone(), self.console_actor.clone())
        else {
            return Ok(());
        };
        self.synced = false;
        let expression = format!("console.log({})", Json::String(LOG_SYNC.into()));
        if let Output::Error { message } = self.evaluate_on(&console, &frame, &expression).await? {
            return Err(DebuggerError::Protocol(format!(
                "reading what logpoints logged: {message}"
            )));
        }
        let deadline = tokio::time::Instant::now() + self.opts.call_timeout;
        while !self.synced {
            let ev = tokio::select! {
                ev = self.events.recv() => ev,
                _ = tokio::time::sleep_until(deadline) => {
                    return Err(DebuggerError::Timeout(
                        "what logpoints logged never came".into(),
                    ))
                }
            };
            let Some(ev) = ev else {
                return Err(DebuggerError::Crashed(
                    "the debugger connection closed".into(),
                ));
            };
            if ev.get("type").and_then(Json::as_str) == Some("resources-available-array") {
                self.note_resources(&ev);
            }
        }
        Ok(())
    }

    /// Runs the rest of the page without breakpoints, so that the next navigation starts from
    /// an idle page (navigating away from a paused page would resume it anyway). False if it
    /// does not end within the action timeout.
    async fn run_to_end(&mut self) -> bool {
        if self.resume(Json::Null).await.is_err() {
            return false;
        }
        let deadline = tokio::time::Instant::now() + self.opts.action_timeout;
        loop {
            let ev = tokio::select! {
                ev = self.events.recv() => ev,
                _ = tokio::time::sleep_until(deadline) => return false,
            };
            let Some(ev) = ev else { return false };
            match ev.get("type").and_then(Json::as_str) {
                // A `debugger;` statement: go on.
                Some("paused") => {
                    if let Some(t) = ev.get("from").and_then(Json::as_str) {
                        self.thread = t.to_string();
                    }
                    if self.resume(Json::Null).await.is_err() {
                        return false;
                    }
                }
                Some("resources-available-array") if self.note_resources(&ev) => return true,
                _ => {}
            }
        }
    }
}

/// A program without a single statement (comments only): it ends as soon as it starts.
pub struct EmptyProgram {
    policy: BreakpointPolicy,
    next_bp: u32,
    finished: bool,
}

impl EmptyProgram {
    pub fn new(policy: BreakpointPolicy) -> EmptyProgram {
        EmptyProgram {
            policy,
            next_bp: 0,
            finished: false,
        }
    }
}

#[async_trait]
impl Debugger for EmptyProgram {
    async fn set_breakpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
    ) -> Result<Output, DebuggerError> {
        let id = BreakpointId(self.next_bp);
        self.next_bp += 1;
        Ok(Output::BreakpointSet {
            id,
            requested: Location::new(line, column.unwrap_or(0)),
            actual: Vec::new(),
            source: LocationSource::ClientComputed,
            policy: Some(self.policy.name().to_string()),
        })
    }

    async fn set_conditional_breakpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
        _condition: &str,
    ) -> Result<Output, DebuggerError> {
        self.set_breakpoint(line, column).await
    }

    async fn set_logpoint(
        &mut self,
        line: u32,
        column: Option<u32>,
        _expression: &str,
    ) -> Result<Output, DebuggerError> {
        self.set_breakpoint(line, column).await
    }

    async fn remove_breakpoint(&mut self, id: BreakpointId) -> Result<Output, DebuggerError> {
        Ok(Output::BreakpointRemoved {
            id,
            ok: id.0 < self.next_bp,
        })
    }

    async fn control(&mut self, action: &Action) -> Result<Output, DebuggerError> {
        if action == &Action::Start && !self.finished {
            self.finished = true;
            return Ok(Output::Finished {
                outcome: ProgramOutcome::Completed,
            });
        }
        Ok(Output::Error {
            message: "the program already ended (completed)".into(),
        })
    }

    async fn pause_on_exceptions(&mut self, mode: ExceptionPause) -> Result<Output, DebuggerError> {
        Ok(if self.finished {
            Output::Error {
                message: "the program already ended (completed)".into(),
            }
        } else {
            Output::PauseOnExceptionsSet { mode }
        })
    }

    async fn evaluate(&mut self, _expression: &str) -> Result<Output, DebuggerError> {
        Ok(crate::debugger::not_paused())
    }

    async fn set_variable(&mut self, _name: &str, _value: &str) -> Result<Output, DebuggerError> {
        Ok(crate::debugger::not_paused())
    }

    fn console(&self) -> Vec<String> {
        Vec::new()
    }

    fn logs(&self) -> Vec<(BreakpointId, String)> {
        Vec::new()
    }

    async fn close(self: Box<Self>) -> bool {
        true
    }
}

fn accessor() -> Value {
    // Reading an accessor would run program code.
    Value::Object {
        kind: ObjectKind::Other("accessor".into()),
        class: "accessor".into(),
        description: None,
        entries: None,
        truncated: false,
    }
}

/// The async stack below the live frames of a `frames` reply: program frames (of `source`)
/// only, a new segment at each frame that names its `asyncCause` (`async`, `promise
/// callback`, `setTimeout handler`); a segment without program frames is left out.
fn async_segments(older: &[Json], source: &str) -> Vec<AsyncFrames> {
    let mut out: Vec<AsyncFrames> = Vec::new();
    let mut current: Option<AsyncFrames> = None;
    for f in older {
        if let Some(cause) = f.get("asyncCause").and_then(Json::as_str) {
            out.extend(current.take().filter(|s| !s.frames.is_empty()));
            current = Some(AsyncFrames {
                cause: cause.to_string(),
                frames: Vec::new(),
            });
        }
        if f.pointer("/where/actor").and_then(Json::as_str) != Some(source) {
            continue;
        }
        // Frames before any cause (none seen so far) open a segment without one.
        current
            .get_or_insert_with(|| AsyncFrames {
                cause: String::new(),
                frames: Vec::new(),
            })
            .frames
            .push(Frame {
                function: frame_name(f),
                location: where_location(&f["where"]),
                scopes: Vec::new(),
            });
    }
    out.extend(current.filter(|s| !s.frames.is_empty()));
    out
}

fn frame_name(f: &Json) -> String {
    match f.get("displayName").and_then(Json::as_str) {
        None | Some("(global)") => String::new(),
        Some(n) => n.to_string(),
    }
}

/// An RDP `where` (1-based line, 0-based column) as our 0-based location.
pub fn where_location(w: &Json) -> Location {
    let n = |k: &str| w.get(k).and_then(Json::as_u64).unwrap_or(0) as u32;
    Location::new(n("line").saturating_sub(1), n("column"))
}

#[async_trait]
impl Debugger for RdpSession {
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
        let Some(placed) = self.bps.remove(&id) else {
            return Ok(Output::BreakpointRemoved { id, ok: false });
        };
        let Some(loc) = placed else {
            self.conditions.remove(&id);
            self.logpoints.remove(&id);
            return Ok(Output::BreakpointRemoved { id, ok: true });
        };
        let before = self.options_at(loc);
        self.conditions.remove(&id);
        self.logpoints.remove(&id);
        let ids = self.at.entry(loc).or_default();
        ids.retain(|i| *i != id);
        if !ids.is_empty() {
            // Others stay there: their options, if this one's changed them.
            if self.options_at(loc) != before {
                if let Err(e) = self.breakpoint_request("setBreakpoint", loc).await {
                    if !matches!(e, RdpError::Server { .. }) {
                        self.healthy = false;
                        return Err(err(e));
                    }
                    return Ok(Output::BreakpointRemoved { id, ok: false });
                }
            }
        } else {
            self.at.remove(&loc);
            let r = self.breakpoint_request("removeBreakpoint", loc).await;
            match r {
                Ok(_) => {}
                Err(RdpError::Server { .. }) => {
                    return Ok(Output::BreakpointRemoved { id, ok: false })
                }
                Err(e) => {
                    self.healthy = false;
                    return Err(err(e));
                }
            }
        }
        Ok(Output::BreakpointRemoved { id, ok: true })
    }

    async fn control(&mut self, action: &Action) -> Result<Output, DebuggerError> {
        if let Some(refused) =
            crate::debugger::refusal(action, self.started, self.finished.as_ref())
        {
            return Ok(refused);
        }
        if matches!(action, Action::ContinueToLocation { .. }) {
            return Ok(Output::Error {
                message: "Firefox's protocol cannot continue to a location".into(),
            });
        }
        // The frame's actor before the pause's state is let go.
        let restart = match action {
            Action::RestartFrame { frame } => {
                match self
                    .frame_actors
                    .get(*frame as usize)
                    .filter(|a| !a.is_empty())
                {
                    Some(actor) => Some(actor.clone()),
                    None => return Ok(crate::debugger::no_frame(*frame)),
                }
            }
            _ => None,
        };
        self.top_frame = None;
        match action {
            // The thread's `resume` with a `restart` limit and the frame (Firefox's own
            // "Restart frame").
            Action::RestartFrame { .. } => {
                let thread = self.thread.clone();
                let packet = json!({"resumeLimit": {"type": "restart"}, "frameActorID": restart});
                match self.request(&thread, "resume", packet).await {
                    Ok(_) => {}
                    Err(RdpError::Server { message, .. }) => return Ok(Output::Error { message }),
                    Err(e) => {
                        self.healthy = false;
                        return Err(err(e));
                    }
                }
            }
            Action::Start => {
                self.started = true;
                let first = self.first.take();
                // A breakpoint on the first statement: the pause we are in *is* its hit, and
                // resuming would not hit it again (pitfall 3). V8 stops there; so do we.
                if first.is_some_and(|l| self.at.get(&l).is_some_and(|ids| !ids.is_empty())) {
                    let ev = json!({"why": {"type": "breakpoint"}});
                    return match self.pause_state(&ev, action).await {
                        Ok(Pause::InProgram(p)) => Ok(Output::Paused(p)),
                        Ok(Pause::Outside { .. }) => {
                            self.resume(Json::Null).await?;
                            self.wait_outcome(action).await
                        }
                        Err(e) => {
                            self.healthy = false;
                            Err(e)
                        }
                    };
                }
                self.resume(Json::Null).await?;
            }
            _ => self.resume(Self::resume_limit(action)).await?,
        }
        let mut out = self.wait_outcome(action).await;
        if matches!(out, Ok(Output::Paused(_))) && self.logging {
            if let Err(e) = self.flush_logs().await {
                out = Err(e);
            }
        }
        if out.is_err() {
            self.healthy = false;
        }
        out
    }

    async fn pause_on_exceptions(&mut self, mode: ExceptionPause) -> Result<Output, DebuggerError> {
        if let Some(refused) = crate::debugger::after_the_end(self.finished.as_ref()) {
            return Ok(refused);
        }
        self.pauses_on_exceptions |= mode != ExceptionPause::None;
        let config = self.thread_configuration.clone();
        match self.configure_exceptions(&config, mode).await {
            Ok(()) => Ok(Output::PauseOnExceptionsSet { mode }),
            Err(RdpError::Server { message, .. }) => Ok(Output::Error { message }),
            Err(e) => {
                self.healthy = false;
                Err(err(e))
            }
        }
    }

    async fn evaluate(&mut self, expression: &str) -> Result<Output, DebuggerError> {
        let Some(frame) = self.top_frame.clone() else {
            return Ok(crate::debugger::not_paused());
        };
        let Some(console) = self.console_actor.clone() else {
            return Ok(Output::Error {
                message: "the page's console actor was not announced".into(),
            });
        };
        let out = self.evaluate_on(&console, &frame, expression).await;
        if out.is_err() {
            self.healthy = false;
        }
        out
    }

    fn continues_to_location(&self) -> bool {
        false
    }

    /// Firefox's protocol has no request to set a variable (its UI cannot either): an
    /// assignment evaluated on the frame, as its console would, then the name read back.
    async fn set_variable(&mut self, name: &str, value: &str) -> Result<Output, DebuggerError> {
        let Some(frame) = self.top_frame.clone() else {
            return Ok(crate::debugger::not_paused());
        };
        let Some(console) = self.console_actor.clone() else {
            return Ok(Output::Error {
                message: "the page's console actor was not announced".into(),
            });
        };
        if !self.top_names.contains(name) {
            return Ok(crate::debugger::unbound(name));
        }
        let assignment = crate::debugger::assignment(name, value);
        let out = match self.evaluate_on(&console, &frame, &assignment).await {
            Ok(assigned) => match crate::debugger::assignment_failed(assigned) {
                Some(failed) => Ok(failed),
                None => self
                    .evaluate_on(&console, &frame, name)
                    .await
                    .map(|o| crate::debugger::read_back(o, name)),
            },
            Err(e) => Err(e),
        };
        if out.is_err() {
            self.healthy = false;
        }
        out
    }

    async fn break_positions(
        &mut self,
        from: Location,
        to: Location,
    ) -> Result<Option<Vec<Location>>, DebuggerError> {
        // The source's positions as the server gave them when the program first paused.
        Ok(Some(
            self.positions
                .range(from.line..=to.line)
                .flat_map(|(&l, cols)| cols.iter().map(move |&c| Location::new(l, c)))
                .filter(|p| from <= *p && *p <= to)
                .collect(),
        ))
    }

    fn console(&self) -> Vec<String> {
        crate::debugger::split_console(&self.console).0
    }

    fn logs(&self) -> Vec<(BreakpointId, String)> {
        crate::debugger::split_console(&self.console).1
    }

    async fn close(mut self: Box<Self>) -> bool {
        if self.pauses_on_exceptions && self.healthy && !self.conn.is_broken() {
            let config = self.thread_configuration.clone();
            if self
                .configure_exceptions(&config, ExceptionPause::None)
                .await
                .is_err()
            {
                self.healthy = false;
            }
        }
        if self.healthy && !self.conn.is_broken() {
            // Breakpoint-list breakpoints are the watcher's, not the page's: remove ours, or a
            // later session of the same program would hit them.
            let locs: Vec<Location> = self.at.keys().copied().collect();
            for loc in locs {
                let r = self.breakpoint_request("removeBreakpoint", loc).await;
                if r.is_err() {
                    self.healthy = false;
                    break;
                }
            }
            if self.healthy && self.finished.is_none() {
                let t0 = std::time::Instant::now();
                if !self.run_to_end().await {
                    self.healthy = false;
                }
                tracing::debug!(
                    "ran the rest of the page in {:?} (healthy: {})",
                    t0.elapsed(),
                    self.healthy
                );
            }
        }
        if let Some(p) = self.page.take() {
            let _ = std::fs::remove_file(p);
        }
        if self.owned_link {
            self.conn.close();
        }
        self.healthy && !self.conn.is_broken()
    }
}

/// Whether an object's grip leaves room for private fields: SpiderMonkey's generic preview counts
/// them (`privatePropertiesLength`) unless it stopped at its ten own properties first; a nested
/// grip has no preview, so it cannot say. Saves two requests per object that has none.
fn may_have_private_fields(grip: &Json) -> bool {
    let Some(preview) = grip.get("preview") else {
        return true;
    };
    if preview.get("kind").and_then(Json::as_str) != Some("Object") {
        return false;
    }
    let counted = preview
        .get("ownPropertiesLength")
        .and_then(Json::as_u64)
        .is_some_and(|n| n < 10);
    !counted
        || preview
            .get("privatePropertiesLength")
            .and_then(Json::as_u64)
            .is_some_and(|n| n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_fields_are_asked_for_unless_the_preview_counted_none() {
        let grip = |preview: Json| json!({"type": "object", "actor": "a", "preview": preview});
        let counted = |n: u64| grip(json!({"kind": "Object", "ownPropertiesLength": n}));
        assert!(!may_have_private_fields(&counted(2)));
        assert!(may_have_private_fields(&grip(
            json!({"kind": "Object", "ownPropertiesLength": 2, "privatePropertiesLength": 1})
        )));
        // Ten own properties: the preview stopped before counting private ones.
        assert!(may_have_private_fields(&counted(10)));
        // A nested grip: no preview at all.
        assert!(may_have_private_fields(
            &json!({"type": "object", "actor": "a"})
        ));
        assert!(!may_have_private_fields(&grip(
            json!({"kind": "ArrayLike", "length": 3})
        )));
    }

    #[test]
    fn placement_policies() {
        let p = parse_positions(&json!({"positions": {"3": [12], "5": [4, 0], "9": [15, 18]}}));
        // 0-based lines: 2, 4, 8.
        assert_eq!(p.get(&4), Some(&vec![0, 4]));
        let next = BreakpointPolicy::NextBreakable;
        let same = BreakpointPolicy::SameLine;
        assert_eq!(next.place(&p, 2, None), Some(Location::new(2, 12)));
        assert_eq!(next.place(&p, 3, None), Some(Location::new(4, 0)));
        assert_eq!(same.place(&p, 3, None), None);
        assert_eq!(next.place(&p, 4, Some(2)), Some(Location::new(4, 4)));
        assert_eq!(next.place(&p, 8, Some(16)), Some(Location::new(8, 18)));
        assert_eq!(next.place(&p, 8, Some(19)), None);
        assert_eq!(next.place(&p, 9, None), None);
    }

    #[test]
    fn page_errors_and_console() {
        let r = json!({"pageError": {"errorMessage": "Error: boom", "category": "content javascript",
                       "lineNumber": 7, "columnNumber": 7, "warning": false}});
        let (m, l) = page_error(&r).unwrap();
        assert_eq!(m, "Error: boom");
        assert_eq!(l, Some(Location::new(6, 6)));
        let layout =
            json!({"pageError": {"errorMessage": "Layout was forced", "category": "Layout"}});
        assert!(page_error(&layout).is_none());
        assert_eq!(
            console_line(&json!({"arguments": ["y", 3, {"type": "-0"}]})),
            "y 3 -0"
        );
    }
}
