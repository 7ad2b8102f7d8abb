//! What the two inspector sessions (CDP's and WebKit's) share while a program runs: waiting for
//! an event or the run's reply, the pause as first seen, and reading replies (locations,
//! accessors, errors).

pub use super::err;
pub use super::objects::accessor;
use super::{InspectorError, InspectorEvent};
use crate::debugger::DebuggerError;
use morphtrace_schema::{AsyncFrames, Frame, Location, PauseState, Value};
use serde_json::Value as Json;
use tokio::sync::{mpsc, oneshot};

/// What came first while a program runs: an event, the reply that ends the program, or the
/// deadline. Both inspector adapters run programs this way.
pub enum Got {
    Event(Option<InspectorEvent>),
    RunReply(Result<Json, InspectorError>),
    Timeout,
}

/// The next of `events`, `run`'s reply and `deadline`. Events first: the reply that ends the
/// program can be read off the socket after the program's last console events, and must not
/// overtake them.
pub async fn next_got(
    events: &mut mpsc::UnboundedReceiver<InspectorEvent>,
    run: &mut Option<oneshot::Receiver<Result<Json, InspectorError>>>,
    deadline: tokio::time::Instant,
) -> Got {
    tokio::select! {
        biased;
        ev = events.recv() => Got::Event(ev),
        r = async {
            match run.as_mut() {
                Some(rx) => rx.await.unwrap_or(Err(InspectorError::Closed)),
                None => std::future::pending().await,
            }
        } => Got::RunReply(r),
        _ = tokio::time::sleep_until(deadline) => Got::Timeout,
    }
}

pub enum Pause {
    InProgram(Box<PauseState>),
    /// Paused in engine or launcher code; `program_below` if program frames are further down.
    Outside {
        program_below: bool,
    },
}

/// The frames of a `Debugger.paused` event that run the program (script `script_id`), top
/// first; the pause as `Outside` when the top frame is not the program's (engine or launcher
/// code), saying whether program frames are further down.
pub fn program_frames<'p>(params: &'p Json, script_id: &str) -> Result<Vec<&'p Json>, Pause> {
    let frames: &[Json] = params
        .get("callFrames")
        .and_then(Json::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    crate::debugger::in_program(frames, |f| {
        f.pointer("/location/scriptId").and_then(Json::as_str) == Some(script_id)
    })
    .map_err(|program_below| Pause::Outside { program_below })
}

/// How deep the engines are asked to keep async call stacks: segments beyond are cut by the
/// engine (and the stack said to be truncated), the same on every engine.
pub const ASYNC_STACK_DEPTH: u32 = 16;

/// Which protocol's shape an async stack trace has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AsyncShape {
    /// CDP's `Runtime.StackTrace`: `description`, `callFrames` at 0-based positions, `parent`.
    Cdp,
    /// WebKit's `Console.StackTrace`: no description, `callFrames` at 1-based positions,
    /// `parentStackTrace`.
    WebKit,
}

/// The async call stack of a `Debugger.paused` event's `params`, program frames (script
/// `script_id`) only; a segment without any is left out (the engine's or the launcher's own
/// scheduling). `function` names a frame as the synchronous stack does.
pub fn async_stack(
    params: &Json,
    script_id: &str,
    shape: AsyncShape,
    function: impl Fn(&Json) -> String,
) -> Vec<AsyncFrames> {
    let (parent_key, base) = match shape {
        AsyncShape::Cdp => ("parent", 0),
        AsyncShape::WebKit => ("parentStackTrace", 1),
    };
    let mut out = Vec::new();
    let mut next = params.get("asyncStackTrace");
    // The depth asked for bounds the chain; a longer one (a cycle in a broken reply) is cut.
    for _ in 0..ASYNC_STACK_DEPTH * 4 {
        let Some(segment) = next else { break };
        let frames: Vec<Frame> = segment
            .get("callFrames")
            .and_then(Json::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .filter(|f| f.get("scriptId").and_then(Json::as_str) == Some(script_id))
            .map(|f| Frame {
                function: function(f),
                location: Location::new(
                    position(f, "lineNumber").saturating_sub(base),
                    position(f, "columnNumber").saturating_sub(base),
                ),
                scopes: Vec::new(),
            })
            .collect();
        if !frames.is_empty() {
            out.push(AsyncFrames {
                cause: segment
                    .get("description")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string(),
                frames,
            });
        }
        next = segment.get(parent_key);
    }
    out
}

fn position(f: &Json, key: &str) -> u32 {
    f.get(key)
        .and_then(Json::as_u64)
        .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX))
}

/// The break positions a reply lists (`locations`: CDP's `Debugger.getPossibleBreakpoints` and
/// WebKit's `Debugger.getBreakpointLocations` alike) in the script `script`, from `from` to `to`
/// (both included), in order, once each.
pub fn positions_in(reply: &Json, script: &str, from: Location, to: Location) -> Vec<Location> {
    let mut at: Vec<Location> = reply
        .get("locations")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter(|l| {
            l.get("scriptId")
                .and_then(Json::as_str)
                .is_none_or(|id| id == script)
        })
        .map(location)
        .filter(|l| from <= *l && *l <= to)
        .collect();
    at.sort();
    at.dedup();
    at
}

pub fn location(j: &Json) -> Location {
    Location::new(
        j.get("lineNumber").and_then(Json::as_u64).unwrap_or(0) as u32,
        j.get("columnNumber").and_then(Json::as_u64).unwrap_or(0) as u32,
    )
}

/// `Debugger.evaluateOnCallFrame` on `frame`, quietly (no pause on what it throws, no console),
/// as `Evaluated` with the value read to `depth`; a protocol error (a frame that is gone) as
/// `Error`. CDP says an evaluation threw with `exceptionDetails`, WebKit with `wasThrown`; both
/// give what was thrown as the `result`.
pub async fn evaluate<R: super::objects::Remote>(
    r: &R,
    frame: Option<&str>,
    expression: &str,
    depth: u32,
) -> Result<morphtrace_schema::Output, DebuggerError> {
    use morphtrace_schema::Output;
    let Some(frame) = frame else {
        return Ok(crate::debugger::not_paused());
    };
    let mut params = serde_json::json!({"callFrameId": frame, "expression": expression});
    params[R::QUIET] = Json::Bool(true);
    match r.request("Debugger.evaluateOnCallFrame", params).await {
        Ok(reply) => {
            let threw = reply.get("exceptionDetails").is_some()
                || reply.get("wasThrown").and_then(Json::as_bool) == Some(true);
            let value = super::objects::value(r, &reply["result"], depth).await?;
            Ok(Output::Evaluated { value, threw })
        }
        Err(InspectorError::Protocol { message, .. }) => Ok(Output::Error { message }),
        Err(e) => Err(err(e)),
    }
}

/// A variable set by evaluating an assignment on `frame` (WebKit's protocol has no request
/// for it), then read back.
pub async fn set_by_assignment<R: super::objects::Remote>(
    r: &R,
    frame: Option<&str>,
    name: &str,
    value: &str,
    depth: u32,
) -> Result<morphtrace_schema::Output, DebuggerError> {
    let assigned = evaluate(r, frame, &crate::debugger::assignment(name, value), depth).await?;
    if let Some(failed) = crate::debugger::assignment_failed(assigned) {
        return Ok(failed);
    }
    Ok(crate::debugger::read_back(
        evaluate(r, frame, name, depth).await?,
        name,
    ))
}

/// `Debugger.setPauseOnExceptions`, the same in CDP and WebKit's protocol.
pub async fn pause_on_exceptions<R: super::objects::Remote>(
    r: &R,
    mode: morphtrace_schema::ExceptionPause,
    ended: Option<&morphtrace_schema::ProgramOutcome>,
) -> Result<morphtrace_schema::Output, DebuggerError> {
    use morphtrace_schema::Output;
    if let Some(refused) = crate::debugger::after_the_end(ended) {
        return Ok(refused);
    }
    let params = serde_json::json!({"state": mode.name()});
    match r.request("Debugger.setPauseOnExceptions", params).await {
        Ok(_) => Ok(Output::PauseOnExceptionsSet { mode }),
        Err(InspectorError::Protocol { message, .. }) => Ok(Output::Error { message }),
        Err(e) => Err(err(e)),
    }
}

/// The value a pause on an exception was thrown with (`data` of `Debugger.paused`, in both
/// protocols), read to `depth`; `None` at any other pause.
pub async fn thrown<R: super::objects::Remote>(
    r: &R,
    params: &Json,
    depth: u32,
) -> Result<Option<Box<Value>>, DebuggerError> {
    // CDP says `exception` or `promiseRejection`, WebKit `exception` (older: `Exception`).
    let reason = params.get("reason").and_then(Json::as_str);
    match (reason, params.get("data")) {
        (Some("exception" | "Exception" | "promiseRejection"), Some(data)) => {
            Ok(Some(Box::new(super::objects::value(r, data, depth).await?)))
        }
        _ => Ok(None),
    }
}
