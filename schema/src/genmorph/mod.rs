//! GenMorph (TSE): the recorded executions of a function under test, on source and follow-up
//! inputs, for the original and its mutants; the six input-transformation templates of §5 with
//! their canonical input relations. Shared by the recorder (which makes follow-up inputs and
//! records the executions) and the analyzer (which evolves output relations over them).

pub mod executions;
pub mod relations;
pub mod transform;
pub mod value;

pub use executions::{
    ExecutionBatch, Implementation, InputOrigin, InputRecord, Kind, MutantRecord, MutantRole,
    Param, Subject,
};
pub use transform::InputTransformation;
pub use value::{JsValue, Outcome};

/// The JavaScript helpers (`__mt`) that generated tests and the recorder's falsification search
/// evaluate relations with; the analyzer's tree evaluator has the same semantics.
pub const PRELUDE: &str = include_str!("prelude.js");
