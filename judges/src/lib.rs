//! What morphtrace's sessions mean: the judges, pure functions over what `morphtrace-schema`
//! stores. The recorder applies them online (to stop a chain, to go on past an excused
//! divergence); the analyzer re-judges archives offline with the same code, possibly under
//! another policy. Nothing here runs an engine or reads a DataFrame.
//!
//! - Two debuggers (DBDB, ESEC/FSE 2018): `dbdb`, with the typed `difference` of two answers and
//!   the `remark`s on what the recorder knows besides.
//! - A session against its follow-up (ISSTA 2019, Table 1): `metamorphic`, its `warning`s.
//! - One debugger against itself or the program: `truth` (ground truth), `steps` (DEVIL's
//!   self-consistency), `attached` (Dfusor: output with and without the debugger).
//! - Coverage profilers (Cod, C2V): `cod`.
//! - What each class of finding is, with evidence: `triage`.

pub mod attached;
pub mod cod;
pub mod dbdb;
pub mod difference;
pub mod metamorphic;
pub mod optimization;
pub mod remark;
pub mod steps;
pub mod triage;
pub mod truth;
pub mod warning;
