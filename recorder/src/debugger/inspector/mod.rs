//! The inspector protocols: V8's Chrome DevTools Protocol (Chromium, Node, Deno) and WebKit's
//! Inspector Protocol (JavaScriptCore in Bun) descend from one protocol and keep its JSON-RPC
//! framing, its breakpoint replies and much of its Debugger and Runtime domains. What both
//! adapters (`cdp`, `jsc`) use lives here: the connection, breakpoint book-keeping, the
//! temporal-dead-zone scanner, and the shared parts of a session.

pub mod breakpoints;
pub mod connection;
pub mod objects;
pub mod session;

pub use connection::{Connection, InspectorError, InspectorEvent};

use crate::debugger::DebuggerError;

/// A connection's error as the session reports it: a closed connection is a dead engine.
pub fn err(e: InspectorError) -> DebuggerError {
    match e {
        InspectorError::Closed => DebuggerError::Crashed("the debugger connection closed".into()),
        InspectorError::Timeout(m, d) => DebuggerError::Timeout(format!("{m} after {d:?}")),
        other => DebuggerError::Protocol(other.to_string()),
    }
}
