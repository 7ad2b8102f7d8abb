//! Coverage reports: V8 block ranges, derived per-line counts, and per-file line counts of C profilers.

use serde::{Deserialize, Serialize};

/// A V8-style range of character offsets `[start, end)` with its execution count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockRange {
    pub start: u32,
    pub end: u32,
    pub count: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionCoverage {
    pub name: String,
    /// Outermost range first, as V8 reports them; nested ranges refine it (innermost wins).
    pub ranges: Vec<BlockRange>,
    pub is_block_coverage: bool,
}

/// Coverage of one script or source file. `lines[i]` is the count of 0-based line `i`;
/// `None` means the profiler gives no information for that line (not "zero").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileCoverage {
    /// Script URL or source path as the profiler named it.
    pub name: String,
    pub functions: Vec<FunctionCoverage>,
    pub lines: Vec<Option<u64>>,
}

/// What the program printed and how it exited under the profiler.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramRun {
    pub stdout: String,
    pub exit_code: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoverageReport {
    pub engine: crate::engine::EngineRef,
    pub program: crate::program::ProgramHash,
    pub files: Vec<FileCoverage>,
    #[serde(default)]
    pub run: Option<ProgramRun>,
}
