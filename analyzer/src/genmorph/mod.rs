//! Relation synthesis (GenMorph, TSE): output relations evolved offline over recorded
//! executions. `tree` is Table I, `data` turns execution frames into correct and incorrect
//! executions, `search` is Algorithm 1, `simplify` makes results readable.

pub mod columns;
pub mod data;
pub mod evaluate;
pub mod jstests;
pub mod search;
pub mod simplify;
pub mod synth;
pub mod table2;
pub mod tree;

#[cfg(test)]
mod tests;
