//! WebKit Inspector Protocol (JavaScriptCore, here in Bun): the normalizing session adapter.
//!
//! A relative of CDP with the same JSON framing: the shared `inspector` connection carries it. What differs
//! and is normalized here: a script is known to the debugger only once it runs (so sessions
//! wait at the program's first statement, see `engines::bun`); `Runtime.getProperties` answers
//! in `properties`; Map and Set entries come from `Runtime.getCollectionEntries`; scopes are
//! `closure`/`nestedLexical`/`globalLexicalEnvironment`; top-level frames are `global code`;
//! bindings in their temporal dead zone read as `undefined` (told apart by reading them on the
//! frame); pauses name one breakpoint.

pub mod session;
pub mod values;

pub use session::{JscSession, Opened};
