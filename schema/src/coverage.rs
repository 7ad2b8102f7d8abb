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
    /// JavaScript: each statement with the count at its start offset (V8), or its true count
    /// (the instrumented ground truth). Empty for C profilers.
    #[serde(default)]
    pub statements: Vec<StatementCount>,
    /// The syntax kind of each 0-based line of the profiled source (`expression_statement`,
    /// `brace`, `label`, `case`, `else`, `IfStatement`, ...), for classifying inconsistencies.
    #[serde(default)]
    pub line_kinds: Vec<String>,
    /// Branches (coverage.py's arcs between lines), each taken or not; empty when the profiler
    /// measures none.
    #[serde(default)]
    pub branches: Vec<BranchCount>,
    /// The profiler records whether a line ran, not how often (coverage.py): its counts are 1
    /// (ran) or 0 (did not), and relations compare only that.
    #[serde(default)]
    pub executed_only: bool,
}

/// One branch: an arc from a line to another, or out of a code object, as coverage.py
/// measures them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BranchCount {
    /// 0-based line the arc leaves.
    pub from: u32,
    /// 0-based line the arc enters, or (`exit`) the first line of the code object it leaves.
    pub to: u32,
    /// The arc leaves its code object (coverage.py's negative target line).
    pub exit: bool,
    /// `None`: no information; for executed-only profilers 1 or 0.
    pub count: Option<u64>,
}

impl BranchCount {
    /// coverage.py's arc `[from, to]` (1-based lines; a negative `to` leaves the code object
    /// that starts at line `-to`), with its count.
    pub fn from_arc(from: i64, to: i64, count: Option<u64>) -> Option<BranchCount> {
        let from = u32::try_from(from.checked_sub(1)?).ok()?;
        let exit = to < 0;
        let to = u32::try_from(to.checked_abs()?.checked_sub(1)?).ok()?;
        Some(BranchCount {
            from,
            to,
            exit,
            count,
        })
    }

    /// The arc as coverage.py writes it: `12->15`, `12->exit(3)`, 1-based.
    pub fn arc(&self) -> String {
        if self.exit {
            format!("{}->exit({})", self.from + 1, self.to + 1)
        } else {
            format!("{}->{}", self.from + 1, self.to + 1)
        }
    }
}

/// A statement of a JavaScript program and its execution count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatementCount {
    /// UTF-16 offset of the statement's first character (V8's unit).
    pub start: u32,
    /// 0-based line of `start`.
    pub line: u32,
    /// ESTree type (`ExpressionStatement`, `ReturnStatement`, ...).
    pub kind: String,
    /// `None`: the profiler gives no count there.
    pub count: Option<u64>,
}

impl FileCoverage {
    /// The count of a 0-based line; `None` when there is no information (or no such line).
    pub fn line(&self, line: u32) -> Option<u64> {
        self.lines.get(line as usize).copied().flatten()
    }

    /// The syntax kind of a 0-based line, `?` when unknown.
    pub fn line_kind(&self, line: u32) -> &str {
        self.line_kinds
            .get(line as usize)
            .map(String::as_str)
            .unwrap_or("?")
    }
}

/// V8's count at a UTF-16 offset: all ranges of the script sorted by (start asc, end desc) and
/// painted in that order, so the innermost range containing the offset wins. `None` when no range
/// contains it.
pub fn v8_count_at(functions: &[FunctionCoverage], offset: u32) -> Option<u64> {
    let mut best: Option<BlockRange> = None;
    for r in functions.iter().flat_map(|f| f.ranges.iter()) {
        if r.start <= offset && offset < r.end {
            // Proper nesting: a later start, or the same start with an earlier end, is inner.
            let inner = match best {
                None => true,
                Some(b) => r.start > b.start || (r.start == b.start && r.end <= b.end),
            };
            if inner {
                best = Some(*r);
            }
        }
    }
    best.map(|r| r.count)
}

/// What the program printed and how it exited under the profiler.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramRun {
    pub stdout: String,
    /// `None`: killed (by a signal or the run-time limit).
    pub exit_code: Option<i32>,
    /// The interpreter that ran the program as it is, when the profiler does not compile it
    /// (coverage.py: the Python executable). Two profilers' runs by the same interpreter must
    /// behave alike, so C2V compares their outputs; programs built by two compilers may differ
    /// by undefined behaviour, and are not compared. `None` in archives before it.
    #[serde(default)]
    pub interpreter: Option<String>,
}

impl ProgramRun {
    /// A run by a compiled build or an engine that does not say which interpreter ran it.
    pub fn new(stdout: String, exit_code: Option<i32>) -> ProgramRun {
        ProgramRun {
            stdout,
            exit_code,
            interpreter: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoverageReport {
    pub engine: crate::engine::EngineRef,
    pub program: crate::program::ProgramHash,
    pub files: Vec<FileCoverage>,
    #[serde(default)]
    pub run: Option<ProgramRun>,
}
