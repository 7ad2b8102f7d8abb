//! Archives → polars DataFrames (docs/design.md §7). Many archives load in parallel, session frames
//! decode on every thread, and a damaged archive contributes what it still holds, with its report.
//!
//! Lines and columns in every frame are 1-based, as `show` prints them and editors count them.
//! Rows refer to their session by `archive` (index into the `archives` frame) and `session`
//! (position in that archive, which `show` accepts too).

use crate::dbdb::ast;
use morphtrace_judges::cod::{self, InconsistencyKind};
use morphtrace_schema::summary::{EventKindSummary, OutputSummary, SessionSummary, TraceSummary};
use morphtrace_schema::{
    Action, ArchiveHeader, ArchiveReader, DivergenceKind, EventKind, Output, PauseReason, Program,
    ProgramHash, RecoveryReport, Session, SessionOutcome, Trace,
};
use polars::prelude::*;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{0}: no such file or directory")]
    Missing(String),
    #[error("{pattern}: bad glob pattern: {error}")]
    Glob { pattern: String, error: String },
    #[error("{0}: no .mtrace archive found")]
    Empty(String),
    #[error("building the {frame} frame: {error}")]
    Frame { frame: &'static str, error: String },
}

/// Expands files, directories (every `*.mtrace` below, sorted) and glob patterns.
pub fn expand(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, LoadError> {
    let mut out = Vec::new();
    for input in inputs {
        let s = input.to_string_lossy();
        if input.is_dir() {
            let mut found = Vec::new();
            collect_dir(input, &mut found);
            found.sort();
            if found.is_empty() {
                return Err(LoadError::Empty(s.into_owned()));
            }
            out.extend(found);
        } else if input.exists() {
            out.push(input.clone());
        } else if s.contains(['*', '?', '[']) {
            let paths = glob::glob(&s).map_err(|e| LoadError::Glob {
                pattern: s.to_string(),
                error: e.to_string(),
            })?;
            let mut found: Vec<PathBuf> = paths.filter_map(Result::ok).collect();
            found.sort();
            if found.is_empty() {
                return Err(LoadError::Empty(s.into_owned()));
            }
            out.extend(found);
        } else {
            return Err(LoadError::Missing(s.into_owned()));
        }
    }
    Ok(out)
}

fn collect_dir(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_dir(&p, out);
        } else if p.extension().is_some_and(|x| x == "mtrace") {
            out.push(p);
        }
    }
}

/// Which frames to build: `classes` and `tables` need only the light ones.
#[derive(Debug, Clone, Copy)]
pub struct Want {
    /// `actions`, `outputs`, `frames`, `breakpoints`.
    pub events: bool,
    /// `variables` (the largest frame by far).
    pub variables: bool,
    /// `coverage_lines`, `coverage_blocks`.
    pub coverage: bool,
}

impl Want {
    pub const ALL: Want = Want {
        events: true,
        variables: true,
        coverage: true,
    };
    pub const SUMMARY: Want = Want {
        events: false,
        variables: false,
        coverage: false,
    };
}

/// One archive as loaded: where it is, what it says about itself, and what could not be read.
pub struct Source {
    pub path: String,
    pub header: ArchiveHeader,
    pub recovery: RecoveryReport,
    /// Sessions whose frames did not decode: `position: error`.
    pub undecodable: Vec<String>,
    pub sessions: usize,
    pub events: u64,
}

impl Source {
    pub fn is_damaged(&self) -> bool {
        !self.recovery.is_intact() || !self.undecodable.is_empty()
    }
}

/// Everything loaded, as DataFrames, plus the programs (for AST nodes and excerpts).
pub struct Archives {
    pub sources: Vec<Source>,
    /// Archives that could not be opened at all: `path: error`.
    pub unreadable: Vec<String>,
    pub programs: HashMap<ProgramHash, Program>,
    pub frames: Frames,
    pub events: u64,
}

/// Names from a fixed set (action and output names, value types): no allocation per row.
pub type Label = &'static str;

/// `(column, type, meaning)`.
pub type ColumnDoc = (&'static str, &'static str, &'static str);

/// Declares a frame's columns once: the builder, its documentation and its DataFrame.
macro_rules! frame {
    ($(#[doc = $fdoc:literal])* $name:ident { $($col:ident : $ty:ty => $doc:literal),* $(,)? }) => {
        $(#[doc = $fdoc])*
        #[derive(Default)]
        pub struct $name { $(pub $col: Vec<$ty>,)* }
        impl $name {
            /// `(column, type, meaning)` for the README and `export --schema`.
            pub const COLUMNS: &'static [ColumnDoc] =
                &[$((stringify!($col), stringify!($ty), $doc)),*];
            fn into_df(self) -> PolarsResult<DataFrame> {
                DataFrame::new_infer_height(vec![$(Column::new(stringify!($col).into(), self.$col),)*])
            }
        }
    };
}

frame!(
    /// One row per archive.
    ArchiveCols {
    archive: u32 => "archive number, referred to by every other frame",
    path: String => "the file as given or found",
    campaign: String => "campaign name",
    strategy: String => "random, differential, replay, metamorphic, ...",
    seeds: String => "seed specification as given to the recorder",
    engines: String => "engine labels, ` vs ` between them",
    tool_version: String => "recorder that wrote it",
    started_at_ms: i64 => "campaign start, ms since the Unix epoch",
    sessions: u32 => "sessions read",
    intact: bool => "false when the archive had to be recovered or a session did not decode",
    dropped_bytes: u64 => "bytes the recovering reader skipped",
});

frame!(
    /// One row per engine of each archive header.
    EngineCols {
    archive: u32 => "archive number",
    engine: u32 => "engine number within the archive (traces refer to it)",
    label: String => "kind@version, e.g. chromium@156.0.8078.79",
    kind: String => "chromium, node, firefox, gcov, ...",
    version: String => "product version reported by the engine",
    engine_version: Option<String> => "inner engine (V8, SpiderMonkey) version",
    protocol: String => "cdp, rdp, ...",
});

frame!(
    /// One row per session.
    SessionCols {
    archive: u32 => "archive number",
    session: u32 => "position in the archive (0-based; `show` accepts it)",
    id: String => "session id (16 hex digits)",
    mode: String => "random, differential, replay, metamorphic, coverage, synthesis",
    seed: u64 => "the session's seed",
    engines: String => "engine labels, ` vs ` between them",
    program: String => "program hash (12 hex digits)",
    program_name: String => "program path or name",
    parent: Option<String> => "id of the session this one was derived from",
    round: Option<u32> => "transformation round of a metamorphic follow-up",
    transformation: Option<String> => "last transformation applied",
    interactive: bool => "some transformation of the chain was decided while the debugger ran",
    outcome: String => "finished, action-limit, diverged, violated, timeout, harness-error",
    error: Option<String> => "harness error message",
    actions: u32 => "actions of the first trace",
    control_actions: u32 => "start, resume and step actions of the first trace (DBDB Figure 7's x)",
    events: u32 => "events of all traces",
    divergence: Option<String> => "divergence type, when the session diverged",
    warnings: u32 => "relation violations recorded",
    program_end: Option<String> => "how the program ended in the first trace (completed, uncaught-exception, ...)",
    started_at_ms: i64 => "ms since the Unix epoch",
    duration_ms: f64 => "wall time of the session",
    cpu_ms: Option<f64> => "CPU of the recorder and its processes charged to the session (null: not recorded)",
    not_applicable: Option<String> => "metamorphic: the transformations a round could not apply to this session's parent (or, on a chain's last session, to it), `name: reason` joined by `; `",
});

frame!(
    /// One row per action of each trace.
    ActionCols {
    archive: u32 => "archive number",
    session: u32 => "session position",
    engine: u32 => "engine number",
    index: u32 => "action number within the trace (0-based)",
    at_us: u64 => "time since the session started",
    action: Label => "setBreakpoint, removeBreakpoint, start, resume, stepInto, stepOver, stepOut",
    line: Option<u32> => "requested line of a setBreakpoint",
    column: Option<u32> => "requested column of a setBreakpoint",
    breakpoint: Option<u32> => "breakpoint number of a removeBreakpoint",
});

frame!(
    /// One row per output (the answer to an action).
    OutputCols {
    archive: u32 => "archive number",
    session: u32 => "session position",
    engine: u32 => "engine number",
    index: u32 => "number of the action it answers",
    at_us: u64 => "time since the session started",
    output: Label => "breakpointSet, breakpointRemoved, paused, finished, error",
    line: Option<u32> => "pause location, or first actual breakpoint location",
    column: Option<u32> => "column of that location",
    reason: Option<String> => "pause reason: entry, breakpoint, step, exception, debugger-statement",
    function: Option<String> => "function of the top frame (empty: top level)",
    depth: Option<u32> => "number of program frames when paused",
    program_end: Option<String> => "how the program ended (finished outputs)",
    message: Option<String> => "error message, exception or syntax error text",
});

frame!(
    /// One row per call-stack frame of each pause.
    StackCols {
    archive: u32 => "archive number",
    session: u32 => "session position",
    engine: u32 => "engine number",
    index: u32 => "number of the action whose pause this is",
    depth: u32 => "0 is the top frame",
    function: String => "function name (empty: top level)",
    line: u32 => "frame location",
    column: u32 => "frame column",
});

frame!(
    /// One row per variable of the top frame's scopes at each pause.
    VariableCols {
    archive: u32 => "archive number",
    session: u32 => "session position",
    engine: u32 => "engine number",
    index: u32 => "number of the action whose pause this is",
    scope: u32 => "scope position, innermost first",
    scope_kind: String => "local, closure, block, catch, script, ...",
    name: String => "variable name",
    value_type: Label => "undefined, number, string, object, uninitialized, ...",
    value: String => "the value as `show` prints it (cut at 200 characters)",
});

frame!(
    /// One row per breakpoint location reported (or one with null location if none).
    BreakpointCols {
    archive: u32 => "archive number",
    session: u32 => "session position",
    engine: u32 => "engine number",
    index: u32 => "number of the setBreakpoint action",
    breakpoint: u32 => "breakpoint number",
    requested_line: u32 => "line asked for",
    requested_column: u32 => "column asked for",
    actual_line: Option<u32> => "where the engine put it (null: nowhere)",
    actual_column: Option<u32> => "its column",
    source: String => "engine-reported, client-computed, unknown",
    policy: Option<String> => "placement policy of client-computed locations",
});

frame!(
    /// One row per divergence (DBDB §3.4): a session's first (`index` 0), and those after it
    /// when lockstep went on past one.
    DivergenceCols {
    archive: u32 => "archive number",
    session: u32 => "session position",
    index: u32 => "the divergence's place in its session (0: the first, DBDB's; more when lockstep went on past one)",
    continued: Option<String> => "how the session went on past it (excused by a triage rule, a lone suspect left out); null: it stopped here",
    program: String => "program hash (12 hex digits)",
    program_name: String => "program path or name",
    kind: String => "breakpoint-location, breakpoint-removal, termination, pause-location, call-stack, variables",
    action_index: u32 => "number of the diverging action",
    last_action: String => "the diverging action's name (the class's `last action`)",
    action: String => "the diverging action with its arguments",
    line: Option<u32> => "line where that action was triggered: the requested line, or where the first debugger was paused",
    ast_node: String => "AST node type of that line (Program for none, empty and comment lines)",
    detail: String => "what differs",
    engine_a: String => "first debugger",
    output_a: Option<String> => "its output",
    engine_b: String => "second debugger",
    output_b: Option<String> => "its output",
    suspect: Option<String> => "three engines or more: the one engine that disagrees when all the others agree",
    agreement: Option<String> => "three engines or more: the engines grouped by agreeing output, `a+b vs c`",
    binding: Option<String> => "variables: how the program binds the differing name (`var`, `let`, `unreferenced var`, `unreferenced implicit`, ...)",
    after_the_code: Option<bool> => "the line of `line` comes after every line with code (a blank or comment line after the last statement, or past the end); null: not classified",
    program_differs: Option<String> => "the program itself computes differently on these engines (run without a pause, it ended or printed otherwise): the first difference; null: it computes the same, or that was not looked at",
    verdict: Option<String> => "the member's triage verdict (engine bug, by design, representation, harness, new) under the triage file `export` read; null where none was read",
    pairs: Option<String> => "three engines or more with none alone: what differs between each two groups, a JSON array of {engine_a, engine_b, kind, detail, binding}; null otherwise",
    at_a_closing_brace: Option<String> => "the engines paused at a function body's closing brace (exactly or just after it, from the program's syntax), `a+b`; null where none is",
    named_by_inference: Option<String> => "call-stack: the engines whose stack names every frame the engines name apart as a function ECMAScript leaves without a name (none, or a name inferred from the assignments around it; from the program's syntax), `a+b`; null where none is",
    only_the_top_frame_differs: Option<bool> => "call-stack: the stacks have one depth and differ only in the top frame's function name; null for other kinds",
    out_of_step: Option<String> => "an excusing rule's account did not hold: why the engines could not be brought back in step past this divergence (it then stays new); null otherwise",
    placements: Option<String> => "breakpoint placements: each side's, a JSON array of {engine, placed: [{line, column}], asked, requested, positions} (0-based; `asked`: the engine was asked for its own break positions, `positions` those from the request to the placement); null where no side placed a breakpoint",
});

frame!(
    /// One row per warning (violated metamorphic or coverage relation).
    WarningCols {
    archive: u32 => "archive number",
    session: u32 => "session position",
    program: String => "program hash (12 hex digits)",
    program_name: String => "program path or name",
    engine: String => "the debugger (label)",
    relation: String => "the violated relation",
    round: u32 => "transformation round (1-based; 0: not iterative)",
    against: Option<String> => "id of the session compared with",
    event_index: Option<u32> => "first differing event of the first trace",
    transformation: Option<String> => "last transformation of the chain",
    interactive: bool => "the chain has an interactive transformation",
    transformations: u32 => "length of the chain",
    line: Option<u32> => "line where the action before the differing event was triggered",
    ast_node: String => "AST node type of that line",
    message: String => "what was violated",
});

frame!(
    /// One row per line with coverage information.
    CoverageLineCols {
    archive: u32 => "archive number",
    session: u32 => "session position",
    engine: u32 => "engine number of the profiler",
    program: String => "program hash (12 hex digits)",
    file: String => "script URL or source path",
    line: u32 => "line",
    count: u64 => "execution count",
});

frame!(
    /// One row per V8 block range.
    CoverageBlockCols {
    archive: u32 => "archive number",
    session: u32 => "session position",
    engine: u32 => "engine number of the profiler",
    program: String => "program hash (12 hex digits)",
    file: String => "script URL",
    function: String => "function name",
    start: u32 => "start offset (characters)",
    end: u32 => "end offset",
    count: u64 => "execution count",
    block_coverage: bool => "from precise block coverage (not function granularity)",
});

frame!(
    /// One row per coverage inconsistency (Cod, C2V, ground truth), judged while loading.
    InconsistencyCols {
    archive: u32 => "archive number",
    session: u32 => "session position",
    relation: Label => "cod (P vs a variant P'), c2v (two profilers on P), truth (the profiler vs the instrumented ground truth)",
    profiler: String => "the profiler's kind (gcov, llvm-cov, v8), with its core for coverage.py (`coverage.py+pytrace`); C2V: both, `gcov/llvm-cov`",
    engine: u32 => "engine number of the profiler (C2V: the first)",
    other_engine: Option<u32> => "C2V: the second profiler",
    kind: Label => "strong (both counts known, different), weak (one side has no information), output (the runs differ)",
    unit: Label => "line, statement (JavaScript: the count at a statement's start) or branch (coverage.py's arcs, from `line`)",
    program: String => "P (12 hex digits)",
    program_b: String => "the other side's program: P', the instrumented copy, or P (C2V)",
    line: u32 => "line in P (output: 0)",
    line_b: u32 => "line in program_b",
    count_a: Option<u64> => "count on P (C2V: first profiler; truth: the profiler; coverage.py: 1 ran, 0 did not)",
    count_b: Option<u64> => "count on program_b (C2V: second profiler; truth: the true count)",
    syntax: String => "syntax kind of the line in P (statement kind for statements; `branch from KIND` for branches)",
    noise: bool => "dropped by the weak-noise filter (docs/coverage.md)",
});

/// Every frame's builder, filled per chunk of sessions and concatenated in file order.
#[derive(Default)]
struct Builders {
    sessions: SessionCols,
    actions: ActionCols,
    outputs: OutputCols,
    stack: StackCols,
    variables: VariableCols,
    breakpoints: BreakpointCols,
    divergences: DivergenceCols,
    warnings: WarningCols,
    coverage_lines: CoverageLineCols,
    coverage_blocks: CoverageBlockCols,
    inconsistencies: InconsistencyCols,
    undecodable: Vec<(usize, String)>,
    events: u64,
}

/// What one chunk of sessions became: its rows already as DataFrames (converted in parallel, so
/// that the per-cell strings of a chunk are freed before the next one is built).
struct Part {
    /// sessions, actions, outputs, frames, variables, breakpoints, divergences, warnings,
    /// coverage_lines, coverage_blocks, inconsistencies.
    frames: Vec<DataFrame>,
    undecodable: Vec<(usize, String)>,
    events: u64,
    sessions: usize,
}

const PART_FRAMES: [&str; 11] = [
    "sessions",
    "actions",
    "outputs",
    "frames",
    "variables",
    "breakpoints",
    "divergences",
    "warnings",
    "coverage_lines",
    "coverage_blocks",
    "inconsistencies",
];

impl Builders {
    fn into_part(self) -> Result<Part, LoadError> {
        let sessions = self.sessions.session.len();
        let frames = [
            self.sessions.into_df(),
            self.actions.into_df(),
            self.outputs.into_df(),
            self.stack.into_df(),
            self.variables.into_df(),
            self.breakpoints.into_df(),
            self.divergences.into_df(),
            self.warnings.into_df(),
            self.coverage_lines.into_df(),
            self.coverage_blocks.into_df(),
            self.inconsistencies.into_df(),
        ]
        .into_iter()
        .zip(PART_FRAMES)
        .map(|(r, frame)| {
            r.map_err(|e| LoadError::Frame {
                frame,
                error: e.to_string(),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
        Ok(Part {
            frames,
            undecodable: self.undecodable,
            events: self.events,
            sessions,
        })
    }
}

/// A frame that could not be built, named.
fn named(frame: &'static str, r: PolarsResult<DataFrame>) -> Result<DataFrame, LoadError> {
    r.map_err(|e| LoadError::Frame {
        frame,
        error: e.to_string(),
    })
}

/// The DataFrames (docs/design.md §7); `frames` is the call stacks.
pub struct Frames {
    pub archives: DataFrame,
    pub engines: DataFrame,
    pub sessions: DataFrame,
    pub actions: DataFrame,
    pub outputs: DataFrame,
    pub frames: DataFrame,
    pub variables: DataFrame,
    pub breakpoints: DataFrame,
    pub divergences: DataFrame,
    pub warnings: DataFrame,
    pub coverage_lines: DataFrame,
    pub coverage_blocks: DataFrame,
    pub inconsistencies: DataFrame,
}

impl Frames {
    /// Every frame, with no rows and their columns.
    pub fn empty() -> Result<Frames, LoadError> {
        let archives = named("archives", ArchiveCols::default().into_df())?;
        let engines = named("engines", EngineCols::default().into_df())?;
        let part = Builders::default().into_part()?.frames;
        Ok(Frames::from_vec([vec![archives, engines], part].concat()))
    }

    /// Frames in the order of [`Frames::all`].
    pub fn from_vec(v: Vec<DataFrame>) -> Frames {
        let mut it = v.into_iter();
        let mut next = || it.next().unwrap_or_default();
        Frames {
            archives: next(),
            engines: next(),
            sessions: next(),
            actions: next(),
            outputs: next(),
            frames: next(),
            variables: next(),
            breakpoints: next(),
            divergences: next(),
            warnings: next(),
            coverage_lines: next(),
            coverage_blocks: next(),
            inconsistencies: next(),
        }
    }

    /// Every frame with its name, in documentation order.
    pub fn all(&self) -> Vec<(&'static str, &DataFrame)> {
        vec![
            ("archives", &self.archives),
            ("engines", &self.engines),
            ("sessions", &self.sessions),
            ("actions", &self.actions),
            ("outputs", &self.outputs),
            ("frames", &self.frames),
            ("variables", &self.variables),
            ("breakpoints", &self.breakpoints),
            ("divergences", &self.divergences),
            ("warnings", &self.warnings),
            ("coverage_lines", &self.coverage_lines),
            ("coverage_blocks", &self.coverage_blocks),
            ("inconsistencies", &self.inconsistencies),
        ]
    }
}

/// `(frame, description, columns)` of every frame, for the README and `export --schema`.
pub fn schema_doc() -> Vec<(&'static str, &'static str, &'static [ColumnDoc])> {
    vec![
        ("archives", "one row per archive", ArchiveCols::COLUMNS),
        (
            "engines",
            "one row per engine of each archive",
            EngineCols::COLUMNS,
        ),
        ("sessions", "one row per session", SessionCols::COLUMNS),
        (
            "actions",
            "one row per action of each trace",
            ActionCols::COLUMNS,
        ),
        (
            "outputs",
            "one row per output (the answer to an action)",
            OutputCols::COLUMNS,
        ),
        (
            "frames",
            "one row per call-stack frame at each pause",
            StackCols::COLUMNS,
        ),
        (
            "variables",
            "one row per variable of the top frame at each pause",
            VariableCols::COLUMNS,
        ),
        (
            "breakpoints",
            "one row per breakpoint location reported (null location: not placed)",
            BreakpointCols::COLUMNS,
        ),
        (
            "divergences",
            "one row per divergence (DBDB §3.4): a session's first (`index` 0) and those after it when lockstep went on past one",
            DivergenceCols::COLUMNS,
        ),
        (
            "warnings",
            "one row per violated relation",
            WarningCols::COLUMNS,
        ),
        (
            "coverage_lines",
            "one row per covered line a profiler reported",
            CoverageLineCols::COLUMNS,
        ),
        (
            "coverage_blocks",
            "one row per V8 block range",
            CoverageBlockCols::COLUMNS,
        ),
        (
            "inconsistencies",
            "one row per coverage inconsistency (Cod, C2V, ground truth)",
            InconsistencyCols::COLUMNS,
        ),
    ]
}

/// The column's type as a reader of the export sees it (`str`, `u32?` for nullable).
fn dtype(rust: &str) -> String {
    let t = rust.replace(' ', "");
    let (inner, nullable) = match t.strip_prefix("Option<").and_then(|x| x.strip_suffix('>')) {
        Some(i) => (i.to_string(), true),
        None => (t, false),
    };
    let name = match inner.as_str() {
        "String" | "Label" => "str",
        other => other,
    };
    format!("{name}{}", if nullable { "?" } else { "" })
}

/// The schema as Markdown: what the README documents and `export --schema` prints.
pub fn schema_markdown() -> String {
    let mut s = String::new();
    for (name, what, cols) in schema_doc() {
        s.push_str(&format!(
            "#### `{name}`: {what}\n\n| column | type | meaning |\n|---|---|---|\n"
        ));
        for (c, t, d) in cols {
            let t = dtype(t);
            s.push_str(&format!("| `{c}` | `{t}` | {d} |\n"));
        }
        s.push('\n');
    }
    s
}

const CHUNK: usize = 256;
const VALUE_CHARS: usize = 200;

/// Opens archives in parallel: the readable ones with the path as given, and `path: error` for
/// the others.
pub fn open_all(paths: &[PathBuf]) -> (Vec<(String, ArchiveReader)>, Vec<String>) {
    let opened: Vec<(String, Result<ArchiveReader, String>)> = paths
        .par_iter()
        .map(|p| {
            let shown = p.display().to_string();
            let r = ArchiveReader::open(p).map_err(|e| e.to_string());
            (shown, r)
        })
        .collect();
    let mut readers = Vec::new();
    let mut unreadable = Vec::new();
    for (path, r) in opened {
        match r {
            Ok(r) => readers.push((path, r)),
            Err(e) => unreadable.push(format!("{path}: {e}")),
        }
    }
    (readers, unreadable)
}

/// Loads archives into DataFrames. An archive that cannot be opened is listed in `unreadable`
/// and the others still load; sessions that do not decode are listed in their source.
pub fn load(paths: &[PathBuf], want: Want) -> Result<Archives, LoadError> {
    let (readers, unreadable) = open_all(paths);
    let mut programs: HashMap<ProgramHash, Program> = HashMap::new();
    for (_, r) in &readers {
        for (h, p) in r.programs() {
            programs.entry(*h).or_insert_with(|| p.clone());
        }
    }
    let programs = Arc::new(programs);
    let memo = ast::Memo::default();
    let tasks: Vec<(usize, usize)> = readers
        .iter()
        .enumerate()
        .flat_map(|(a, (_, r))| (0..r.session_count()).step_by(CHUNK).map(move |s| (a, s)))
        .collect();
    let parts: Vec<(usize, Result<Part, LoadError>)> = tasks
        .par_iter()
        .map(|&(a, start)| {
            let r = &readers[a].1;
            let mut b = Builders::default();
            let ctx = Ctx {
                archive: a as u32,
                header: r.header(),
                programs: &programs,
                memo: &memo,
                want,
            };
            for i in start..(start + CHUNK).min(r.session_count()) {
                // Variables and coverage need the whole session; everything else the light view.
                // Coverage campaigns always: their inconsistencies are judged while loading.
                let decoded = if want.variables
                    || want.coverage
                    || r.header().campaign.strategy == "coverage"
                {
                    r.session(i)
                        .map(|full| (SessionSummary::from(&full), Some(full)))
                } else {
                    r.session_as::<SessionSummary>(i).map(|s| (s, None))
                };
                match decoded {
                    Ok((s, full)) => ctx.add(&mut b, i as u32, &s, full.as_ref()),
                    Err(e) => b.undecodable.push((i, e.to_string())),
                }
            }
            (a, b.into_part())
        })
        .collect();
    let mut all: Vec<DataFrame> = Builders::default().into_part()?.frames;
    let mut events = 0;
    let mut per_archive: Vec<(Vec<String>, u64, usize)> = vec![(Vec::new(), 0, 0); readers.len()];
    for (a, part) in parts {
        let part = part?;
        let pa = &mut per_archive[a];
        pa.0.extend(part.undecodable.iter().map(|(i, e)| format!("{i}: {e}")));
        pa.1 += part.events;
        pa.2 += part.sessions;
        events += part.events;
        for ((acc, df), frame) in all.iter_mut().zip(&part.frames).zip(PART_FRAMES) {
            acc.vstack_mut(df).map_err(|e| LoadError::Frame {
                frame,
                error: e.to_string(),
            })?;
        }
    }
    all.par_iter_mut().for_each(|df| {
        df.rechunk_mut_par();
    });
    let mut archives = ArchiveCols::default();
    let mut engines = EngineCols::default();
    let mut sources = Vec::new();
    for (a, ((path, r), (undecodable, events, sessions))) in
        readers.into_iter().zip(per_archive).enumerate()
    {
        let h = r.header().clone();
        let labels: Vec<String> = h.engines.iter().map(|e| e.label()).collect();
        for (i, e) in h.engines.iter().enumerate() {
            engines.archive.push(a as u32);
            engines.engine.push(i as u32);
            engines.label.push(e.label());
            engines.kind.push(e.kind.as_str().to_string());
            engines.version.push(e.version.clone());
            engines.engine_version.push(e.engine_version.clone());
            engines
                .protocol
                .push(format!("{:?}", e.protocol).to_lowercase());
        }
        let source = Source {
            path: path.clone(),
            header: h,
            recovery: r.recovery().clone(),
            undecodable,
            sessions,
            events,
        };
        archives.archive.push(a as u32);
        archives.path.push(path);
        archives.campaign.push(source.header.campaign.name.clone());
        archives
            .strategy
            .push(source.header.campaign.strategy.clone());
        archives.seeds.push(source.header.campaign.seeds.clone());
        archives.engines.push(labels.join(" vs "));
        archives
            .tool_version
            .push(source.header.tool_version.clone());
        archives.started_at_ms.push(source.header.started_at_ms);
        archives.sessions.push(sessions as u32);
        archives.intact.push(!source.is_damaged());
        archives.dropped_bytes.push(source.recovery.dropped_bytes());
        sources.push(source);
    }
    let frames = Frames::from_vec(
        [
            vec![
                named("archives", archives.into_df())?,
                named("engines", engines.into_df())?,
            ],
            all,
        ]
        .concat(),
    );
    let programs = Arc::try_unwrap(programs).unwrap_or_else(|p| (*p).clone());
    Ok(Archives {
        sources,
        unreadable,
        programs,
        frames,
        events,
    })
}

/// What a chunk needs to turn sessions into rows.
struct Ctx<'a> {
    archive: u32,
    header: &'a ArchiveHeader,
    programs: &'a HashMap<ProgramHash, Program>,
    memo: &'a ast::Memo,
    want: Want,
}

pub use morphtrace_judges::difference::variable_name;

/// The first divergence of every session (DBDB's; `index` 0) of a divergences frame. A frame
/// without `index` (a dataset written before lockstep continuation) holds only first ones.
pub fn first_divergences(divergences: &DataFrame) -> PolarsResult<DataFrame> {
    if !divergences
        .get_column_names()
        .iter()
        .any(|c| c.as_str() == "index")
    {
        return Ok(divergences.clone());
    }
    let index = crate::columns::u32s(divergences, "index")?;
    crate::columns::rows_where(divergences, index.into_iter().map(|i| i == 0))
}

fn one_based(x: u32) -> u32 {
    // Engines may report any number (JavaScriptCore: u32::MAX for a column it does not know).
    x.saturating_add(1)
}

/// The 0-based line where the action at `action_index` was triggered in `trace`: the requested
/// line of a breakpoint action, the location of the pause it was issued from for a control
/// action, none for `start` (the program is not running yet).
pub fn trigger_line(trace: &TraceSummary, action_index: u32) -> Option<u32> {
    let mut seen = 0u32;
    let mut lines = morphtrace_schema::trace::TriggerLines::default();
    for e in &trace.events {
        match &e.kind {
            EventKindSummary::Action(a) => {
                if seen == action_index {
                    return lines.of(a);
                }
                seen += 1;
            }
            EventKindSummary::Output(OutputSummary::Paused(p)) => lines.paused(p.location.line),
            EventKindSummary::Output(OutputSummary::BreakpointSet { id, requested, .. }) => {
                lines.breakpoint_set(*id, requested.line)
            }
            EventKindSummary::Output(OutputSummary::Finished { .. }) => lines.finished(),
            EventKindSummary::Output(_) => {}
        }
    }
    None
}

/// The number of the last action at or before event `event_index` of `trace`.
pub fn action_of_event(trace: &TraceSummary, event_index: u32) -> Option<u32> {
    let mut n = None;
    for (i, e) in trace.events.iter().enumerate() {
        if i as u32 > event_index {
            break;
        }
        if matches!(e.kind, EventKindSummary::Action(_)) {
            n = Some(n.map_or(0, |x| x + 1));
        }
    }
    n
}

/// A one-line summary of an output, for divergence rows and samples.
pub fn output_summary(o: &OutputSummary) -> String {
    match o {
        OutputSummary::BreakpointSet { actual, .. } => format!(
            "breakpoint at [{}]",
            actual
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
        OutputSummary::BreakpointRemoved { ok, .. } => format!("removed: {ok}"),
        OutputSummary::Paused(p) => {
            let f = p.stack.first().map(|f| f.function.as_str()).unwrap_or("");
            if f.is_empty() {
                format!("paused at {}", p.location)
            } else {
                format!("paused at {} in {f}", p.location)
            }
        }
        OutputSummary::Finished { outcome } => format!("finished: {}", outcome.name()),
        OutputSummary::Error { message } => format!("error: {message}"),
        OutputSummary::PauseOnExceptionsSet { mode } => {
            format!("pausing on exceptions: {}", mode.name())
        }
        OutputSummary::Evaluated { threw: true, .. } => "evaluation threw".into(),
        OutputSummary::Evaluated { threw: false, .. } => "evaluated".into(),
        OutputSummary::VariableSet { .. } => "variable set".into(),
    }
}

/// A value as `show` prints it, cut at `VALUE_CHARS`: formatting stops there, so a large object
/// costs no more than a small one.
fn bounded(v: &morphtrace_schema::Value) -> String {
    use std::fmt::Write as _;
    struct Limited(String);
    impl std::fmt::Write for Limited {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            let room = VALUE_CHARS.saturating_sub(self.0.len());
            if s.len() <= room {
                self.0.push_str(s);
                return Ok(());
            }
            let mut at = room;
            while !s.is_char_boundary(at) {
                at -= 1;
            }
            self.0.push_str(&s[..at]);
            self.0.push('…');
            Err(std::fmt::Error)
        }
    }
    let mut out = Limited(String::new());
    let _ = write!(out, "{v}");
    out.0
}

impl Ctx<'_> {
    fn label(&self, e: morphtrace_schema::EngineRef) -> String {
        self.header
            .engine(e)
            .map(|d| d.label())
            .unwrap_or_else(|| format!("engine#{}", e.0))
    }

    fn ast_node(&self, program: &ProgramHash, line: Option<u32>) -> String {
        let Some(line) = line else {
            return ast::PROGRAM.into();
        };
        match self.programs.get(program) {
            Some(p) => self.memo.get(p).of(line).into(),
            None => "Unknown".into(),
        }
    }

    fn add(&self, b: &mut Builders, pos: u32, s: &SessionSummary, full: Option<&Session>) {
        let a = self.archive;
        let program_name = self
            .programs
            .get(&s.program)
            .map(|p| p.origin.name())
            .unwrap_or_default();
        let program = s.program.short();
        let first = s.traces.first();
        let actions = first.map(|t| t.actions().count() as u32).unwrap_or(0);
        let control = first
            .map(|t| t.actions().filter(|x| x.is_control()).count() as u32)
            .unwrap_or(0);
        let program_end = first.and_then(|t| {
            t.outputs().find_map(|o| match o {
                OutputSummary::Finished { outcome } => Some(outcome.name().to_string()),
                _ => None,
            })
        });
        let events = s.event_count() as u32;
        b.events += u64::from(events);
        let sc = &mut b.sessions;
        sc.archive.push(a);
        sc.session.push(pos);
        sc.id.push(s.id.to_string());
        sc.mode.push(s.mode.name().to_string());
        sc.seed.push(s.seed);
        sc.engines.push(
            s.engines
                .iter()
                .map(|e| self.label(*e))
                .collect::<Vec<_>>()
                .join(" vs "),
        );
        sc.program.push(program.clone());
        sc.program_name.push(program_name.clone());
        sc.parent.push(s.parent.map(|p| p.session.to_string()));
        sc.round.push(s.parent.map(|p| p.round));
        sc.transformation
            .push(s.transformations.last().map(|t| t.name.clone()));
        let interactive = s.transformations.iter().any(|t| t.interactive);
        sc.interactive.push(interactive);
        sc.outcome.push(s.outcome.name().to_string());
        sc.error.push(match &s.outcome {
            SessionOutcome::HarnessError { message } => Some(message.clone()),
            SessionOutcome::Rejected { reason } => Some(reason.clone()),
            _ => None,
        });
        sc.actions.push(actions);
        sc.control_actions.push(control);
        sc.events.push(events);
        sc.divergence
            .push(s.divergence.as_ref().map(|d| d.kind.name().to_string()));
        sc.warnings.push(s.warnings.len() as u32);
        sc.program_end.push(program_end);
        sc.started_at_ms.push(s.started_at_ms);
        sc.duration_ms.push(s.duration_us as f64 / 1000.0);
        sc.cpu_ms.push(s.cpu_us.map(|c| c as f64 / 1000.0));
        let unfit: Vec<&str> = s
            .notes
            .iter()
            .filter(|(k, _)| k == morphtrace_judges::metamorphic::NOT_APPLICABLE)
            .map(|(_, v)| v.as_str())
            .collect();
        sc.not_applicable
            .push((!unfit.is_empty()).then(|| unfit.join("; ")));

        for (index, d) in s.all_divergences().iter().enumerate() {
            // The line as the first engine in lockstep at that point saw it (a suspect left
            // out earlier has no answer there).
            let trigger = d
                .sides
                .first()
                .and_then(|x| s.traces.iter().find(|t| t.engine == x.engine))
                .or(first);
            let line = trigger.and_then(|t| trigger_line(t, d.action_index));
            let dc = &mut b.divergences;
            dc.archive.push(a);
            dc.session.push(pos);
            dc.index.push(index as u32);
            dc.continued.push(d.continued.clone());
            dc.program_differs.push(d.program_differs.clone());
            let engines_where = |at: &dyn Fn(
                &morphtrace_syntax::nodes::LineNodes,
                &morphtrace_schema::summary::PauseSummary,
            ) -> bool| {
                let p = self.programs.get(&s.program)?;
                let nodes = self.memo.get(p);
                let engines: Vec<String> = d
                    .sides
                    .iter()
                    .filter(|x| match &x.output {
                        Some(morphtrace_schema::summary::OutputSummary::Paused(p)) => at(&nodes, p),
                        _ => false,
                    })
                    .map(|x| self.label(x.engine))
                    .collect();
                (!engines.is_empty()).then(|| engines.join("+"))
            };
            dc.at_a_closing_brace.push(engines_where(&|nodes, p| {
                nodes.at_a_closing_brace(p.location)
            }));
            // The engines naming by inference among the sides `among` (a call-stack
            // difference: of the divergence, or of one pair of groups in it).
            let inferring = |among: &dyn Fn(morphtrace_schema::EngineRef) -> bool| {
                let p = self.programs.get(&s.program)?;
                let paused: Vec<_> = d
                    .sides
                    .iter()
                    .filter(|x| among(x.engine))
                    .filter_map(|x| match &x.output {
                        Some(morphtrace_schema::summary::OutputSummary::Paused(p)) => Some((
                            x.engine,
                            p.stack
                                .iter()
                                .map(|f| (f.function.as_str(), f.location))
                                .collect::<Vec<_>>(),
                        )),
                        _ => None,
                    })
                    .collect();
                let named: Vec<String> = self
                    .memo
                    .get(p)
                    .named_by_inference(&paused)
                    .into_iter()
                    .map(|e| self.label(e))
                    .collect();
                (!named.is_empty()).then(|| named.join("+"))
            };
            dc.named_by_inference
                .push(if d.kind == DivergenceKind::CallStack {
                    inferring(&|_| true)
                } else {
                    None
                });
            dc.only_the_top_frame_differs
                .push((d.kind == DivergenceKind::CallStack).then(|| {
                    morphtrace_schema::fact::only_the_top_frame_differs(
                        &d.sides
                            .iter()
                            .filter_map(|x| match &x.output {
                                Some(morphtrace_schema::summary::OutputSummary::Paused(p)) => {
                                    Some(p.stack.iter().map(|f| f.function.as_str()).collect())
                                }
                                _ => None,
                            })
                            .collect::<Vec<Vec<&str>>>(),
                    )
                }));
            dc.out_of_step
                .push(morphtrace_schema::fact::out_of_step(&d.facts).map(str::to_string));
            dc.after_the_code
                .push(match (line, self.programs.get(&s.program)) {
                    (Some(l), Some(p)) => {
                        let nodes = self.memo.get(p);
                        nodes.parsed().then(|| nodes.after_the_code(l))
                    }
                    _ => None,
                });
            dc.verdict.push(None);
            dc.program.push(program.clone());
            dc.program_name.push(program_name.clone());
            dc.kind.push(d.kind.name().to_string());
            dc.action_index.push(d.action_index);
            dc.last_action.push(d.action.name().to_string());
            dc.action.push(d.action.to_string());
            dc.line.push(line.map(one_based));
            dc.ast_node.push(self.ast_node(&s.program, line));
            dc.detail.push(d.detail.clone());
            let side = |i: usize| d.sides.get(i);
            dc.engine_a
                .push(side(0).map(|x| self.label(x.engine)).unwrap_or_default());
            dc.output_a
                .push(side(0).and_then(|x| x.output.as_ref().map(output_summary)));
            dc.engine_b
                .push(side(1).map(|x| self.label(x.engine)).unwrap_or_default());
            dc.output_b
                .push(side(1).and_then(|x| x.output.as_ref().map(output_summary)));
            dc.suspect.push(d.suspect.map(|e| self.label(e)));
            dc.agreement.push((!d.groups.is_empty()).then(|| {
                d.groups
                    .iter()
                    .map(|g| {
                        g.iter()
                            .map(|e| self.label(*e))
                            .collect::<Vec<_>>()
                            .join("+")
                    })
                    .collect::<Vec<_>>()
                    .join(" vs ")
            }));
            let binding = |kind: &DivergenceKind, detail: &str| match (
                kind,
                variable_name(detail),
                self.programs.get(&s.program),
            ) {
                (DivergenceKind::Variables, Some(name), Some(p)) => self.memo.get(p).binding(name),
                _ => None,
            };
            dc.binding.push(binding(&d.kind, &d.detail));
            dc.pairs.push((!d.pairs.is_empty()).then(|| {
                let pairs: Vec<PairRow> = d
                    .pairs
                    .iter()
                    .map(|p| PairRow {
                        engine_a: self.label(p.sides[0]),
                        engine_b: self.label(p.sides[1]),
                        kind: p.kind.name().to_string(),
                        detail: p.detail.clone(),
                        binding: binding(&p.kind, &p.detail),
                        named_by_inference: (p.kind == DivergenceKind::CallStack)
                            .then(|| inferring(&|e| p.sides.contains(&e)))
                            .flatten(),
                    })
                    .collect();
                serde_json::to_string(&pairs).unwrap_or_default()
            }));
            let placements = morphtrace_schema::fact::placements(
                d.sides.iter().map(|x| {
                    (
                        x.engine,
                        x.output
                            .as_ref()
                            .and_then(morphtrace_schema::summary::OutputSummary::placed),
                    )
                }),
                &d.facts,
                |e| self.label(e),
            );
            dc.placements.push(
                (!placements.is_empty())
                    .then(|| serde_json::to_string(&placements).unwrap_or_default()),
            );
        }
        for w in &s.warnings {
            let line = first.and_then(|t| {
                w.event_index
                    .and_then(|e| action_of_event(t, e))
                    .and_then(|i| trigger_line(t, i))
            });
            let wc = &mut b.warnings;
            wc.archive.push(a);
            wc.session.push(pos);
            wc.program.push(program.clone());
            wc.program_name.push(program_name.clone());
            wc.engine.push(
                s.engines
                    .first()
                    .map(|e| self.label(*e))
                    .unwrap_or_default(),
            );
            wc.relation.push(w.relation.clone());
            wc.round.push(w.round);
            wc.against.push(w.against.map(|x| x.to_string()));
            wc.event_index.push(w.event_index);
            wc.transformation
                .push(s.transformations.last().map(|t| t.name.clone()));
            wc.interactive.push(interactive);
            wc.transformations.push(s.transformations.len() as u32);
            wc.line.push(line.map(one_based));
            wc.ast_node.push(self.ast_node(&s.program, line));
            wc.message.push(w.message.clone());
        }
        if self.want.events {
            for t in &s.traces {
                self.add_trace(b, pos, t);
            }
        }
        if let Some(full) = full {
            if self.want.variables {
                for t in &full.traces {
                    self.add_variables(b, pos, t);
                }
            }
            if self.want.coverage {
                self.add_coverage(b, pos, full);
            }
            self.add_inconsistencies(b, pos, full);
        }
    }

    fn add_trace(&self, b: &mut Builders, pos: u32, t: &TraceSummary) {
        let a = self.archive;
        let engine = u32::from(t.engine.0);
        let mut index = 0u32;
        let mut next_action = 0u32;
        for e in &t.events {
            match &e.kind {
                EventKindSummary::Action(act) => {
                    index = next_action;
                    next_action += 1;
                    let ac = &mut b.actions;
                    ac.archive.push(a);
                    ac.session.push(pos);
                    ac.engine.push(engine);
                    ac.index.push(index);
                    ac.at_us.push(e.at_us);
                    ac.action.push(act.name());
                    let (line, column, bp) = match act {
                        Action::SetBreakpoint { line, column } => {
                            (Some(one_based(*line)), column.map(one_based), None)
                        }
                        Action::SetConditionalBreakpoint { line, column, .. }
                        | Action::SetLogpoint { line, column, .. } => {
                            (Some(one_based(*line)), column.map(one_based), None)
                        }
                        Action::ContinueToLocation { line } => (Some(one_based(*line)), None, None),
                        Action::RemoveBreakpoint { id } => (None, None, Some(id.0)),
                        _ => (None, None, None),
                    };
                    ac.line.push(line);
                    ac.column.push(column);
                    ac.breakpoint.push(bp);
                }
                EventKindSummary::Output(o) => self.add_output(b, pos, engine, index, e.at_us, o),
            }
        }
    }

    /// Variables need the whole session (the light view skips them).
    fn add_variables(&self, b: &mut Builders, pos: u32, t: &Trace) {
        let engine = u32::from(t.engine.0);
        let mut index = 0u32;
        let mut next_action = 0u32;
        for e in &t.events {
            match &e.kind {
                EventKind::Action(_) => {
                    index = next_action;
                    next_action += 1;
                }
                EventKind::Output(Output::Paused(p)) => {
                    let vc = &mut b.variables;
                    for (si, sc) in p.top_scopes().iter().enumerate() {
                        for v in &sc.variables {
                            vc.archive.push(self.archive);
                            vc.session.push(pos);
                            vc.engine.push(engine);
                            vc.index.push(index);
                            vc.scope.push(si as u32);
                            vc.scope_kind.push(sc.kind.name().to_string());
                            vc.name.push(v.name.clone());
                            vc.value_type.push(v.value.type_name());
                            vc.value.push(bounded(&v.value));
                        }
                    }
                }
                EventKind::Output(_) => {}
            }
        }
    }

    fn add_output(
        &self,
        b: &mut Builders,
        pos: u32,
        engine: u32,
        index: u32,
        at: u64,
        o: &OutputSummary,
    ) {
        let a = self.archive;
        let oc = &mut b.outputs;
        oc.archive.push(a);
        oc.session.push(pos);
        oc.engine.push(engine);
        oc.index.push(index);
        oc.at_us.push(at);
        oc.output.push(o.name());
        let (loc, reason, function, depth, end, message) = match o {
            OutputSummary::BreakpointSet { actual, .. } => {
                (actual.first().copied(), None, None, None, None, None)
            }
            OutputSummary::BreakpointRemoved { .. } => (None, None, None, None, None, None),
            OutputSummary::Paused(p) => (
                Some(p.location),
                Some(match &p.reason {
                    PauseReason::Other(s) => s.clone(),
                    r => r.name().to_string(),
                }),
                p.stack.first().map(|f| f.function.clone()),
                Some(p.stack.len() as u32),
                None,
                None,
            ),
            OutputSummary::Finished { outcome } => {
                use morphtrace_schema::ProgramOutcome::*;
                let (loc, msg) = match outcome {
                    UncaughtException { message, location } | SyntaxError { message, location } => {
                        (*location, Some(message.clone()))
                    }
                    EngineCrashed { message } => (None, Some(message.clone())),
                    _ => (None, None),
                };
                (loc, None, None, None, Some(outcome.name().to_string()), msg)
            }
            OutputSummary::Error { message } => {
                (None, None, None, None, None, Some(message.clone()))
            }
            // `reason`: the mode set, or `threw` for an evaluation that threw.
            OutputSummary::PauseOnExceptionsSet { mode } => {
                (None, Some(mode.name().to_string()), None, None, None, None)
            }
            OutputSummary::Evaluated { threw, .. } => (
                None,
                threw.then(|| "threw".to_string()),
                None,
                None,
                None,
                None,
            ),
            OutputSummary::VariableSet { .. } => (None, None, None, None, None, None),
        };
        oc.line.push(loc.map(|l| one_based(l.line)));
        oc.column.push(loc.map(|l| one_based(l.column)));
        oc.reason.push(reason);
        oc.function.push(function);
        oc.depth.push(depth);
        oc.program_end.push(end);
        oc.message.push(message);
        match o {
            OutputSummary::Paused(p) => {
                let fc = &mut b.stack;
                for (d, f) in p.stack.iter().enumerate() {
                    fc.archive.push(a);
                    fc.session.push(pos);
                    fc.engine.push(engine);
                    fc.index.push(index);
                    fc.depth.push(d as u32);
                    fc.function.push(f.function.clone());
                    fc.line.push(one_based(f.location.line));
                    fc.column.push(one_based(f.location.column));
                }
            }
            OutputSummary::BreakpointSet {
                id,
                requested,
                actual,
                source,
                policy,
            } => {
                let bc = &mut b.breakpoints;
                let source = match source {
                    morphtrace_schema::LocationSource::EngineReported => "engine-reported",
                    morphtrace_schema::LocationSource::ClientComputed => "client-computed",
                    morphtrace_schema::LocationSource::Unknown => "unknown",
                };
                let locs: Vec<Option<morphtrace_schema::Location>> = if actual.is_empty() {
                    vec![None]
                } else {
                    actual.iter().copied().map(Some).collect()
                };
                for l in locs {
                    bc.archive.push(a);
                    bc.session.push(pos);
                    bc.engine.push(engine);
                    bc.index.push(index);
                    bc.breakpoint.push(id.0);
                    bc.requested_line.push(one_based(requested.line));
                    bc.requested_column.push(one_based(requested.column));
                    bc.actual_line.push(l.map(|l| one_based(l.line)));
                    bc.actual_column.push(l.map(|l| one_based(l.column)));
                    bc.source.push(source.to_string());
                    bc.policy.push(policy.clone());
                }
            }
            _ => {}
        }
    }

    fn add_coverage(&self, b: &mut Builders, pos: u32, s: &Session) {
        let a = self.archive;
        for c in &s.coverage {
            let engine = u32::from(c.engine.0);
            let program = c.program.short();
            for f in &c.files {
                for (i, n) in f.lines.iter().enumerate() {
                    if let Some(n) = n {
                        let lc = &mut b.coverage_lines;
                        lc.archive.push(a);
                        lc.session.push(pos);
                        lc.engine.push(engine);
                        lc.program.push(program.clone());
                        lc.file.push(f.name.clone());
                        lc.line.push(one_based(i as u32));
                        lc.count.push(*n);
                    }
                }
                for func in &f.functions {
                    for r in &func.ranges {
                        let bc = &mut b.coverage_blocks;
                        bc.archive.push(a);
                        bc.session.push(pos);
                        bc.engine.push(engine);
                        bc.program.push(program.clone());
                        bc.file.push(f.name.clone());
                        bc.function.push(func.name.clone());
                        bc.start.push(r.start);
                        bc.end.push(r.end);
                        bc.count.push(r.count);
                        bc.block_coverage.push(func.is_block_coverage);
                    }
                }
            }
        }
    }

    fn add_inconsistencies(&self, b: &mut Builders, pos: u32, s: &Session) {
        let a = self.archive;
        let program = s.program.short();
        for j in cod::judge_session(s).found {
            let i = &j.inconsistency;
            let ic = &mut b.inconsistencies;
            ic.archive.push(a);
            ic.session.push(pos);
            ic.relation.push(j.relation.name());
            let kind = |e: morphtrace_schema::EngineRef| {
                self.header
                    .engines
                    .get(e.0 as usize)
                    .map(|d| d.profiler())
                    .unwrap_or_else(|| format!("#{}", e.0))
            };
            ic.profiler.push(match j.other {
                Some(o) => format!("{}/{}", kind(j.engine), kind(o)),
                None => kind(j.engine),
            });
            ic.engine.push(u32::from(j.engine.0));
            ic.other_engine.push(j.other.map(|o| u32::from(o.0)));
            ic.kind.push(i.kind.name());
            ic.unit.push(i.unit.name());
            ic.program.push(program.clone());
            ic.program_b.push(j.program_b.short());
            let output = i.kind == InconsistencyKind::Output;
            ic.line.push(if output { 0 } else { one_based(i.line) });
            ic.line_b.push(if output { 0 } else { one_based(i.line_b) });
            ic.count_a.push(i.a);
            ic.count_b.push(i.b);
            ic.syntax.push(cod::syntax_of(s, &j).to_string());
            ic.noise.push(cod::is_noise(s, &j));
        }
    }
}

/// One difference of a divergence no engine stood alone in, as the `pairs` column holds it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct PairRow {
    pub engine_a: String,
    pub engine_b: String,
    pub kind: String,
    pub detail: String,
    pub binding: Option<String>,
    /// A call-stack difference: the engines of the pair naming by inference (`a+b`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub named_by_inference: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::Value;

    #[test]
    fn values_are_cut_while_formatting() {
        let long = Value::String("x".repeat(1000));
        let s = bounded(&long);
        assert_eq!(s.chars().count(), VALUE_CHARS + 1);
        assert!(s.ends_with('…'));
        assert_eq!(bounded(&Value::Number(1.5)), "1.5");
        let multibyte = Value::String("é".repeat(300));
        assert!(bounded(&multibyte).ends_with('…'));
    }

    #[test]
    fn documented_types_are_the_exported_ones() {
        assert_eq!(dtype("Option < String >"), "str?");
        assert_eq!(dtype("Label"), "str");
        assert_eq!(dtype("u32"), "u32");
    }
}
