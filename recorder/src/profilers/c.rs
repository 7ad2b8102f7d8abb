//! gcc + gcov and clang + llvm-cov: compile a C program with coverage, run it under limits, and
//! read the per-line counts (gcov's JSON; llvm-cov's segments through LLVM's own line rule).

use super::CoverageError;
use crate::process::{self, Finished, Limits};
use morphtrace_schema::lines::{Breaks, LineIndex};
use morphtrace_schema::{BlockRange, FunctionCoverage, ProgramRun};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Where Csmith's runtime header lives (Debian's libcsmith-dev).
pub const CSMITH_INCLUDE: &str = "/usr/include/csmith";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CProfiler {
    Gcov,
    LlvmCov,
}

/// The tools of one profiler, by the executables found on this machine.
#[derive(Debug, Clone)]
pub struct CTools {
    pub profiler: CProfiler,
    pub compiler: String,
    pub tool: String,
    /// llvm-profdata (llvm-cov only).
    pub merge: String,
}

impl CTools {
    pub fn find(profiler: CProfiler) -> CTools {
        match profiler {
            CProfiler::Gcov => CTools {
                profiler,
                compiler: "gcc".into(),
                tool: "gcov".into(),
                merge: String::new(),
            },
            CProfiler::LlvmCov => CTools {
                profiler,
                compiler: "clang".into(),
                tool: "llvm-cov".into(),
                merge: "llvm-profdata".into(),
            },
        }
    }

    /// (compiler version line, tool version line), read from the tools themselves.
    pub fn versions(&self) -> Result<(String, String), CoverageError> {
        let c = process::version_line(&self.compiler)
            .ok_or_else(|| CoverageError::Missing(self.compiler.clone()))?;
        let t = process::version_line(&self.tool)
            .ok_or_else(|| CoverageError::Missing(self.tool.clone()))?;
        Ok((c, t))
    }
}

/// Limits of a C program's run: it is untrusted (Csmith's programs included).
pub fn limits(timeout: Duration) -> Limits {
    Limits {
        cpu_seconds: timeout.as_secs() + 1,
        file_bytes: 64 << 20,
        memory_bytes: 2 << 30,
    }
}

const TOOL_TIMEOUT: Duration = Duration::from_secs(60);

fn tool(cmd: &mut Command, what: &str) -> Result<Finished, CoverageError> {
    let f = process::run(cmd, TOOL_TIMEOUT, None).map_err(|e| CoverageError::Tool {
        what: what.into(),
        message: e.to_string(),
    })?;
    if !f.ok() {
        return Err(CoverageError::Tool {
            what: what.into(),
            message: if f.timed_out {
                "timed out".into()
            } else {
                f.stderr_tail()
            },
        });
    }
    Ok(f)
}

/// One compiled program in its own directory.
pub struct Build {
    pub dir: PathBuf,
    pub exe: PathBuf,
}

/// Compiles `text` as `dir/prog.c` with coverage instrumentation. A compile error is
/// `CoverageError::Compile` (variants that do not compile are dropped by the caller).
pub fn compile(t: &CTools, dir: &Path, text: &str) -> Result<Build, CoverageError> {
    std::fs::create_dir_all(dir)?;
    let src = dir.join("prog.c");
    std::fs::write(&src, text)?;
    let exe = dir.join("prog");
    let mut cmd = Command::new(&t.compiler);
    cmd.current_dir(dir)
        .args(["-O0", "-w", "-I", CSMITH_INCLUDE]);
    match t.profiler {
        // One step (a third faster than compiling and linking apart); gcc >= 11 then names the
        // notes and data `prog-prog.gcno`/`.gcda`, which `gcda` finds.
        // `-pipe`: cc1's assembly goes to `as` through a pipe, not a file (15 % faster here).
        CProfiler::Gcov => {
            cmd.args(["-pipe", "--coverage", "prog.c", "-o", "prog"]);
        }
        CProfiler::LlvmCov => {
            cmd.args([
                "-fprofile-instr-generate",
                "-fcoverage-mapping",
                "prog.c",
                "-o",
                "prog",
            ]);
        }
    }
    let f = process::run(&mut cmd, TOOL_TIMEOUT, None)?;
    if !f.ok() {
        return Err(CoverageError::Compile(f.stderr_tail()));
    }
    Ok(Build {
        dir: dir.to_path_buf(),
        exe,
    })
}

/// What one profiled run gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profiled {
    pub run: ProgramRun,
    /// Per line of `prog.c` (0-based): the count, `None` without information.
    pub lines: Vec<Option<u64>>,
    /// gcov: each function of `prog.c` as one range (its execution count); llvm-cov: each
    /// function with its code regions. Offsets are bytes into the source.
    pub functions: Vec<FunctionCoverage>,
}

/// Byte offset of a 1-based (line, column) of `text`.
/// Byte offsets of llvm-cov's 1-based lines and columns (lines as clang counts them).
struct Offsets(LineIndex);

impl Offsets {
    fn new(text: &str) -> Offsets {
        Offsets(LineIndex::new(text, Breaks::C))
    }

    fn at(&self, line: u32, col: u32) -> u32 {
        let l = line.saturating_sub(1).min(self.0.len() as u32 - 1);
        (self.0.start(l) + (col as usize).saturating_sub(1)) as u32
    }
}

/// Runs the program (fresh counters) and reads its coverage. `text` is the program's source.
pub fn profile(
    t: &CTools,
    b: &Build,
    text: &str,
    timeout: Duration,
) -> Result<Profiled, CoverageError> {
    let offsets = Offsets::new(text);
    let lines = offsets.0.len();
    for e in std::fs::read_dir(&b.dir)?.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".gcda") || name.starts_with("prog.prof") {
            let _ = std::fs::remove_file(e.path());
        }
    }
    let mut cmd = Command::new(&b.exe);
    cmd.current_dir(&b.dir).env_clear();
    if t.profiler == CProfiler::LlvmCov {
        cmd.env("LLVM_PROFILE_FILE", b.dir.join("prog.profraw"));
    }
    let f = process::run(&mut cmd, timeout, Some(limits(timeout)))?;
    if let Some(reason) = f.memory {
        return Err(CoverageError::Memory(reason));
    }
    if f.timed_out {
        return Err(CoverageError::Timeout(timeout));
    }
    let run = ProgramRun::new(f.stdout, f.code);
    let (counts, functions) = match t.profiler {
        CProfiler::Gcov => {
            let gcda = std::fs::read_dir(&b.dir)?
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .find(|n| n.ends_with(".gcda"))
                .ok_or_else(|| CoverageError::Tool {
                    what: "gcov".into(),
                    message: "the program wrote no coverage data".into(),
                })?;
            let j = tool(
                Command::new(&t.tool).current_dir(&b.dir).args([
                    "--json-format",
                    "--stdout",
                    &gcda,
                ]),
                "gcov",
            )?;
            (
                gcov_lines(&j.stdout, lines)?,
                gcov_functions(&j.stdout, &offsets),
            )
        }
        CProfiler::LlvmCov => {
            tool(
                Command::new(&t.merge).current_dir(&b.dir).args([
                    "merge",
                    "-sparse",
                    "prog.profraw",
                    "-o",
                    "prog.profdata",
                ]),
                "llvm-profdata merge",
            )?;
            let j = tool(
                Command::new(&t.tool).current_dir(&b.dir).args([
                    "export",
                    "-format=text",
                    "-instr-profile=prog.profdata",
                    "./prog",
                ]),
                "llvm-cov export",
            )?;
            (
                llvm_lines(&j.stdout, lines)?,
                llvm_functions(&j.stdout, &offsets),
            )
        }
    };
    Ok(Profiled {
        run,
        lines: counts,
        functions,
    })
}

#[derive(Deserialize)]
struct GcovJson {
    files: Vec<GcovFile>,
}
#[derive(Deserialize)]
struct GcovFile {
    file: String,
    lines: Vec<GcovLine>,
    #[serde(default)]
    functions: Vec<GcovFunction>,
}
#[derive(Deserialize)]
struct GcovFunction {
    name: String,
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
    execution_count: u64,
}
#[derive(Deserialize)]
struct GcovLine {
    line_number: u32,
    count: u64,
}

/// gcov's JSON (`--json-format --stdout`, one document per data file) to per-line counts of
/// `prog.c`; a line absent from `lines[]` has no information.
pub fn gcov_lines(json: &str, lines: usize) -> Result<Vec<Option<u64>>, CoverageError> {
    let mut out = vec![None; lines];
    for doc in serde_json::Deserializer::from_str(json).into_iter::<GcovJson>() {
        let doc = doc.map_err(|e| CoverageError::Format(format!("gcov JSON: {e}")))?;
        for f in doc.files.iter().filter(|f| f.file.ends_with("prog.c")) {
            for l in &f.lines {
                if let Some(slot) = out.get_mut((l.line_number as usize).wrapping_sub(1)) {
                    // gcov's text output sums the entries of a line (one per function on it).
                    *slot = Some(slot.unwrap_or(0) + l.count);
                }
            }
        }
    }
    Ok(out)
}

/// gcov's functions of `prog.c`, each as one range with its execution count.
fn gcov_functions(json: &str, o: &Offsets) -> Vec<FunctionCoverage> {
    let mut out = Vec::new();
    for doc in serde_json::Deserializer::from_str(json).into_iter::<GcovJson>() {
        let Ok(doc) = doc else { break };
        for f in doc.files.iter().filter(|f| f.file.ends_with("prog.c")) {
            for func in &f.functions {
                out.push(FunctionCoverage {
                    name: func.name.clone(),
                    ranges: vec![BlockRange {
                        start: o.at(func.start_line, func.start_column),
                        end: o.at(func.end_line, func.end_column + 1),
                        count: func.execution_count,
                    }],
                    is_block_coverage: false,
                });
            }
        }
    }
    out
}

#[derive(Deserialize)]
struct LlvmFunctions {
    data: Vec<LlvmFunctionData>,
}
#[derive(Deserialize)]
struct LlvmFunctionData {
    #[serde(default)]
    functions: Vec<LlvmFunction>,
}
/// `[lineStart, colStart, lineEnd, colEnd, count, fileID, expandedFileID, kind]`.
type LlvmRegion = (u32, u32, u32, u32, u64, usize, usize, u32);

#[derive(Deserialize)]
struct LlvmFunction {
    name: String,
    regions: Vec<LlvmRegion>,
    filenames: Vec<String>,
}

/// llvm-cov's functions of `prog.c` with their code regions (kind 0) in `prog.c` itself.
fn llvm_functions(json: &str, o: &Offsets) -> Vec<FunctionCoverage> {
    let Ok(doc) = serde_json::from_str::<LlvmFunctions>(json) else {
        return Vec::new();
    };
    doc.data
        .iter()
        .flat_map(|d| d.functions.iter())
        .filter(|f| f.filenames.first().is_some_and(|n| n.ends_with("prog.c")))
        .map(|f| FunctionCoverage {
            name: f.name.clone(),
            ranges: f
                .regions
                .iter()
                .filter(|r| r.7 == 0 && f.filenames.get(r.5).is_some_and(|n| n.ends_with("prog.c")))
                .map(|r| BlockRange {
                    start: o.at(r.0, r.1),
                    end: o.at(r.2, r.3),
                    count: r.4,
                })
                .collect(),
            is_block_coverage: true,
        })
        .collect()
}

#[derive(Deserialize)]
struct LlvmExport {
    data: Vec<LlvmData>,
}
#[derive(Deserialize)]
struct LlvmData {
    files: Vec<LlvmFile>,
}
#[derive(Deserialize)]
struct LlvmFile {
    filename: String,
    segments: Vec<(u32, u32, u64, bool, bool, bool)>,
}

/// A coverage segment of `llvm-cov export`: `[line, col, count, hasCount, isRegionEntry, isGapRegion]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    pub line: u32,
    pub col: u32,
    pub count: u64,
    pub has_count: bool,
    pub region_entry: bool,
    pub gap: bool,
}

/// `llvm-cov export` JSON to per-line counts of `prog.c`.
pub fn llvm_lines(json: &str, lines: usize) -> Result<Vec<Option<u64>>, CoverageError> {
    let doc: LlvmExport = serde_json::from_str(json)
        .map_err(|e| CoverageError::Format(format!("llvm-cov JSON: {e}")))?;
    let segments: Vec<Segment> = doc
        .data
        .iter()
        .flat_map(|d| d.files.iter())
        .filter(|f| f.filename.ends_with("prog.c"))
        .flat_map(|f| f.segments.iter())
        .map(
            |&(line, col, count, has_count, region_entry, gap)| Segment {
                line,
                col,
                count,
                has_count,
                region_entry,
                gap,
            },
        )
        .collect();
    Ok(line_stats(&segments, lines))
}

/// LLVM's `LineCoverageIterator`/`LineCoverageStats` (llvm/ProfileData/Coverage/CoverageMapping.cpp):
/// a line is mapped unless its first segment starts a skipped region, and then only when the
/// segment wrapping into it (the last of the previous line with segments) has a count or a
/// region starts on it; its count is the largest of the wrapped count and the counts of the
/// regions starting on it. Lines before the first and after the last segment are unmapped.
pub fn line_stats(segments: &[Segment], lines: usize) -> Vec<Option<u64>> {
    let mut out = vec![None; lines];
    let Some(first) = segments.first() else {
        return out;
    };
    let start = |s: &Segment| !s.gap && s.has_count && s.region_entry;
    let mut wrapped: Option<Segment> = None;
    let mut i = 0;
    let mut line = first.line;
    while i < segments.len() {
        let from = i;
        while i < segments.len() && segments[i].line == line {
            i += 1;
        }
        let on_line = &segments[from..i];
        let starts = on_line.iter().filter(|s| start(s)).count();
        let skipped = on_line
            .first()
            .is_some_and(|s| !s.has_count && s.region_entry);
        let mapped = !skipped && (wrapped.is_some_and(|w| w.has_count) || starts > 0);
        if mapped {
            let mut count = wrapped.map(|w| w.count).unwrap_or(0);
            for s in on_line.iter().filter(|s| start(s)) {
                count = count.max(s.count);
            }
            if let Some(slot) = out.get_mut((line as usize).wrapping_sub(1)) {
                *slot = Some(count);
            }
        }
        if let Some(last) = on_line.last() {
            wrapped = Some(*last);
        }
        line += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(line: u32, count: u64, has: bool, entry: bool, gap: bool) -> Segment {
        Segment {
            line,
            col: 1,
            count,
            has_count: has,
            region_entry: entry,
            gap,
        }
    }

    #[test]
    fn llvm_line_rule() {
        // Line 1 starts a region (count 5) that wraps over lines 2-3; line 3 starts an inner
        // region (count 2); line 4 starts a skipped region; line 5 a gap region only.
        let s = vec![
            seg(1, 5, true, true, false),
            seg(3, 2, true, true, false),
            seg(3, 5, true, false, false),
            seg(4, 0, false, true, false),
            seg(5, 0, true, true, true),
            seg(6, 0, false, false, false),
        ];
        let l = line_stats(&s, 8);
        assert_eq!(l[0], Some(5));
        assert_eq!(l[1], Some(5), "wrapped");
        assert_eq!(l[2], Some(5), "max of wrapped and region starts");
        assert_eq!(l[3], None, "skipped region");
        assert_eq!(
            l[4], None,
            "wrapped segment has no count, only a gap starts"
        );
        assert_eq!(l[5], Some(0), "the gap region's count wraps");
        assert_eq!(l[6], None, "after the last segment");
    }

    #[test]
    fn gcov_json_sums_entries_of_a_line() {
        let j = r#"{"format_version":"1","files":[{"file":"prog.c","functions":[],"lines":[
            {"line_number":2,"count":3,"unexecuted_block":false,"branches":[],"function_name":"f"},
            {"line_number":2,"count":1,"unexecuted_block":false,"branches":[],"function_name":"g"},
            {"line_number":3,"count":0,"unexecuted_block":true,"branches":[],"function_name":"f"}]},
            {"file":"/usr/include/csmith/safe_math.h","lines":[{"line_number":1,"count":9}]}]}"#;
        let l = gcov_lines(j, 4).unwrap();
        assert_eq!(l, vec![None, Some(4), Some(0), None]);
        assert!(gcov_lines("{", 1).is_err());
    }
}
