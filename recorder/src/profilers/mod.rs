//! Coverage profilers, driven as their users run them: V8's block coverage from a warm Node
//! (`v8`), gcc with gcov and clang with llvm-cov (`c`), coverage.py with each of its cores
//! (`python`, warm through `py_forkserver`). A core beside `debugger/`: the Cod strategy
//! (`cod/`), the metamorphic relations and reduction use them alike.

pub mod c;
pub mod py_forkserver;
pub mod python;
pub mod v8;

use std::time::Duration;

/// What running a program under a profiler, or preparing one, can fail with.
#[derive(Debug, thiserror::Error)]
pub enum CoverageError {
    #[error("{0} is not installed (run scripts/setup.sh)")]
    Missing(String),
    #[error("does not compile: {0}")]
    Compile(String),
    #[error("does not terminate within {0:?}")]
    Timeout(Duration),
    #[error("{what} failed: {message}")]
    Tool { what: String, message: String },
    #[error("unexpected output: {0}")]
    Format(String),
    #[error("the Node process running the programs died")]
    Crashed,
    /// The recorder's memory bound killed the program or the Node process running it.
    #[error("{0}")]
    Memory(String),
    /// The profiler had nothing to report: the program ended without writing coverage data.
    #[error("no coverage data: {0}")]
    NoData(String),
    #[error("nondeterministic: two runs gave different output or coverage")]
    Nondeterministic,
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Archive(#[from] morphtrace_schema::ArchiveError),
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Open(#[from] crate::runner::OpenError),
}
