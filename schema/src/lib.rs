//! morphtrace's contract between recorder and analyzer: the trace model (docs/design.md §2) and the
//! crash-safe `.mtrace` archive format (docs/design.md §5). What a session *is*, not what it
//! means: the judges (DBDB, the metamorphic relations, Cod, triage) live in `morphtrace-judges`,
//! which changes often, so that this crate, which must change least, does not.

pub mod archive;
pub mod coverage;
pub mod engine;
pub mod fact;
pub mod genmorph;
pub mod header;
pub mod language;
pub mod lines;
pub mod options;
pub mod program;
pub mod session;
pub mod summary;
pub mod trace;
pub mod value;

pub use archive::{ArchiveError, ArchiveReader, ArchiveWriter, RecoveryReport, WriterOptions};
pub use coverage::{
    BlockRange, BranchCount, CoverageReport, FileCoverage, FunctionCoverage, ProgramRun,
    StatementCount,
};
pub use engine::{EngineDescriptor, EngineKind, EngineRef, Protocol};
pub use header::{ArchiveHeader, CampaignConfig, FormatVersion, HostInfo, Shard, TaskKey};
pub use program::{Language, LineMap, LineSegment, Program, ProgramHash, ProgramOrigin};
pub use session::{
    Decision, Divergence, DivergenceKind, DivergencePair, DivergenceSide, ParentRef, Session,
    SessionId, SessionMode, SessionOutcome, TransformationRecord, Warning,
};
pub use trace::{
    Action, AsyncFrames, BreakpointId, ConditionCheck, Event, EventKind, ExceptionPause, Frame,
    Location, LocationSource, LogLine, Output, PauseReason, PauseState, ProgramOutcome, Scope,
    ScopeKind, Trace, Variable,
};
pub use value::{Entry, Key, ObjectKind, Value};

/// Re-exported so that users of `ArchiveReader::par_sessions` have the same rayon.
pub use rayon;

/// Sessions of an archive the project recorded into `traces/`, for unit tests that want real,
/// rich sessions (the synthetic generator lives in the testkit crate, outside the contract).
#[cfg(test)]
pub(crate) fn recorded(name: &str) -> (ArchiveReader, Vec<Session>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../traces")
        .join(name);
    let r = ArchiveReader::open(&path).expect("a recorded archive in traces/");
    let sessions = r.sessions().map(Result::unwrap).collect();
    (r, sessions)
}
