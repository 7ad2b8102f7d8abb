//! Programs on real syntax trees, a module per language: JavaScript on swc ([`js`]), Python on
//! tree-sitter-python ([`python`]), C on tree-sitter-c (`c`, feature `c`), Go on tree-sitter-go (`go`,
//! feature `go`: the kind of each line and whether a program can run, no deletions). Each language answers
//! what the recorder asks of a program it has never seen (the kind of every line, the statements
//! that may be deleted, the facts the oracles read) and what the analyzer asks of a recorded one
//! (the AST node of a line: [`nodes`]). [`variant`] deletes statements from any of them with the
//! exact line map back (Cod's P', the metamorphic dead-code removal, reduction).
//!
//! A core: the recorder's paper folders and the analyzer use it; it knows no debugger, profiler
//! or paper. Programs are untrusted: nothing here recurses on the program's nesting outside a
//! bounded, large-stack parse (see [`js`]); tree-sitter trees are walked without recursion.

#[cfg(feature = "c")]
pub mod c;
#[cfg(feature = "go")]
pub mod go;
pub mod js;
pub mod nodes;
pub mod python;
pub mod sites;
mod trees;
pub mod variant;

pub use variant::{Deletable, LineKinds};

/// A parsed program, in any language, as Cod's variants and the dead-code removal see it. What
/// differs between languages is how a profiler says a statement did not run: line counts (gcov,
/// llvm-cov, coverage.py: [`variant::unexecuted_by_lines`]) or V8's block ranges
/// ([`js::statements::JsProgram::unexecuted`]), so that stays outside the trait.
pub trait Statements {
    /// Why the program cannot be used although it parsed (recovered syntax errors, a C program
    /// that reads the clock); `None` when it can.
    fn rejection(&self) -> Option<String>;
    /// The syntax kind of each line (0-based, lines as the language's own tools count them).
    fn line_kinds(&self) -> LineKinds;
    /// The statements whose deletion keeps the program well formed when they did not run, by
    /// start, outer ones before those nested in them.
    fn deletable(&self) -> Vec<Deletable>;
}
