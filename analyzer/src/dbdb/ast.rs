//! The AST node type of a source line and how a program binds its names: shared with the
//! recorder, which classifies a divergence while it records (lockstep continuation).

pub use morphtrace_syntax::nodes::*;
