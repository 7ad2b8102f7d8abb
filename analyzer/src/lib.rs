//! morphtrace's analyzer: works from archives alone, never from a debugger (docs/design.md §7).

// The papers' analyses.
pub mod cod;
pub mod dbdb;
pub mod genmorph;
pub mod metamorphic;

// Shared: loading archives, what one holds, tables and reports for people and tools.
pub mod columns;
pub mod compare;
pub mod dataset;
pub mod export;
pub mod faults;
pub mod findings;
pub mod info;
pub mod load;
pub mod merge;
pub mod oracles;
pub mod render;
pub mod report;
pub mod show;
pub mod tables;
pub mod triage;
pub mod versions;
