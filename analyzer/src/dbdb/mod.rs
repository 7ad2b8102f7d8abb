//! DBDB (ASE 2022) offline: the AST node type of a line, equivalence classes (Definition 4) with
//! round-robin sampling, and differential sessions re-judged under other comparison policies.

pub mod ast;
pub mod classes;
pub mod rejudge;
