//! Chrome DevTools Protocol: the connection and the normalizing session adapter (Chromium, Node).

pub mod session;
pub mod values;

pub use crate::debugger::inspector::{Connection, InspectorError, InspectorEvent};
pub use session::{syntax_error, CdpSession, Flavor, Leftover, Teardown};

use serde_json::json;
use std::time::Duration;

/// Enables the Debugger domain of a fresh context and, with `prelude`, makes the programs it
/// will run deterministic: the prelude runs as its own blackboxed script (see `determinism`)
/// in `context` (the programs' execution context; `None`: the default one).
pub async fn enable_debugger(
    conn: &Connection,
    sid: Option<&str>,
    prelude: bool,
    context: Option<i64>,
    t: Duration,
) -> Result<(), InspectorError> {
    conn.call(sid, "Debugger.enable", json!({}), t).await?;
    // Off until asked: without it a pause after an `await` shows no async stack.
    conn.call(
        sid,
        "Debugger.setAsyncCallStackDepth",
        json!({"maxDepth": crate::debugger::inspector::session::ASYNC_STACK_DEPTH}),
        t,
    )
    .await?;
    if !prelude {
        return Ok(());
    }
    use crate::debugger::determinism;
    conn.call(
        sid,
        "Debugger.setBlackboxPatterns",
        json!({"patterns": [determinism::BLACKBOX_PATTERN]}),
        t,
    )
    .await?;
    let mut params = json!({"expression": determinism::script(), "silent": true});
    if let Some(id) = context {
        params["contextId"] = json!(id);
    }
    let r = conn.call(sid, "Runtime.evaluate", params, t).await?;
    match r.get("exceptionDetails") {
        None => Ok(()),
        Some(d) => Err(InspectorError::Protocol {
            method: "Runtime.evaluate".into(),
            code: 0,
            message: format!("the determinism prelude threw: {d}"),
        }),
    }
}
