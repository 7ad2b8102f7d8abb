//! GDB's machine interface (GDB/MI, `gdb --interpreter=mi3`), the documented protocol gdb
//! speaks to front ends (Debian 12's gdb 13.1 has no DAP; that came with GDB 14): a parser of
//! its output records ([`parse`]), a client ([`connection`]), the program's terminal
//! ([`terminal`]) and a session mapping MI onto the normalized actions and outputs
//! ([`session`]); values read as LLDB's do (`dap::c_values`), so that gdb and LLDB compare.

pub mod connection;
pub mod parse;
pub mod session;
pub mod terminal;

pub use connection::{Connection, Event, MiError};

use crate::debugger::DebuggerError;

/// An MI failure as the session's error: gdb gone is a crash, silent a timeout, a refusal a
/// protocol error.
pub fn err(e: MiError) -> DebuggerError {
    match e {
        MiError::Closed => DebuggerError::Crashed(e.to_string()),
        MiError::Timeout(..) => DebuggerError::Timeout(e.to_string()),
        MiError::Failed { .. } => DebuggerError::Protocol(e.to_string()),
    }
}
