//! The Debug Adapter Protocol (DAP), which editors speak to debug adapters (debugpy, lldb-dap,
//! Delve, js-debug): a client ([`connection`]), a session mapping DAP onto the normalized
//! actions and outputs ([`session`]), Python values as adapters show them ([`values`]), C values
//! as LLDB shows them ([`c_values`]) and Go values as Delve shows them ([`go_values`]).

pub mod c_values;
pub mod connection;
pub mod go_values;
pub mod session;
pub mod values;

pub use connection::{Connection, DapError, DapEvent};
pub use session::DapSession;

use crate::debugger::DebuggerError;

/// A DAP failure as the session's error: a closed adapter is a crash, a silent one a timeout,
/// a refusal or a bad frame a protocol error.
pub fn err(e: DapError) -> DebuggerError {
    match e {
        DapError::Closed => DebuggerError::Crashed(e.to_string()),
        DapError::Timeout(..) => DebuggerError::Timeout(e.to_string()),
        DapError::Failed { .. } | DapError::Frame(_) => DebuggerError::Protocol(e.to_string()),
    }
}
