//! The inspector protocols: V8's Chrome DevTools Protocol (Chromium, Node, Deno) and WebKit's
//! Inspector Protocol (JavaScriptCore in Bun) descend from one protocol and keep its JSON-RPC
//! framing, its breakpoint replies and much of its Debugger and Runtime domains. What both
//! adapters (`cdp`, `jsc`) use lives here: the connection, breakpoint book-keeping, the
//! temporal-dead-zone scanner, and the shared parts of a session.

pub mod breakpoints;
pub mod connection;
pub mod objects;
pub mod session;
pub mod tdz;

pub use connection::{Connection, InspectorError, InspectorEvent};
