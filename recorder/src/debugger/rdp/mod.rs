//! Firefox's Remote Debugging Protocol: a small client and the normalizing session adapter.

pub mod connection;
pub mod grips;
pub mod session;

pub use connection::{Connection, RdpError};
pub use session::{BreakpointPolicy, RdpSession};
