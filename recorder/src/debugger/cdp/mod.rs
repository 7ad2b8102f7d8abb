//! Chrome DevTools Protocol: the connection and the normalizing session adapter (Chromium, Node).

pub mod connection;
pub mod session;
pub mod tdz;
pub mod values;

pub use connection::{CdpError, CdpEvent, Connection};
pub use session::{syntax_error, CdpSession, Flavor, Leftover, Teardown};
