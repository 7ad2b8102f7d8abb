//! Reduction of a divergence (issue 23): the smallest actions and program that still show *the
//! finding* — the same divergence type at the same kind of action, on the same engines. First
//! the actions (delta debugging over the action list, by replay), then the program (statements
//! blanked on swc's syntax tree, outermost first, every candidate parsed before it runs; blanks
//! keep every line's number, so the actions stay valid), then blank lines dropped with the
//! actions' lines mapped. Deterministic (no random choice), bounded by a time budget.

pub mod bundle;
pub mod coverage;
pub mod metamorphic;
pub mod native;
pub mod python;
pub mod reproducer;
pub mod session;
pub mod standalone;

pub use bundle::Case;

/// Writes a reduced divergence's bundle: native debuggers' with `reproduce.sh`
/// ([`native::write_bundle`]), the others' with `reproduce.mjs` where one speaks their protocols.
pub fn write_bundle(
    dir: &Path,
    r: &Reduced,
    finding: &Finding,
    case: &Case<'_>,
) -> std::io::Result<()> {
    if case.engines.iter().all(native::reproducible) {
        native::write_bundle(dir, r, finding, case)
    } else {
        bundle::write_bundle(dir, r, finding, case)
    }
}

use crate::corpus;
use crate::debugger::Engine;
use indicatif::ProgressBar;
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_schema::{
    Action, BreakpointId, DivergenceKind, EngineRef, EventKind, Language, Output, Program,
    ProgramOrigin, Trace,
};
use morphtrace_syntax::c::CSyntax;
use morphtrace_syntax::js::statements::JsProgram;
use morphtrace_syntax::python::statements::PySyntax;
use morphtrace_syntax::Statements;
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

#[derive(Debug, thiserror::Error)]
pub enum ReduceError {
    #[error("the finding does not reproduce: {0}")]
    NotReproduced(String),
    #[error("writing a candidate: {0}")]
    Write(String),
    /// The request cannot be done as asked (nothing to reduce, the directory exists, …).
    #[error("{0}")]
    Refused(String),
    #[error("launching {engine}: {message}")]
    Launch { engine: String, message: String },
    #[error(transparent)]
    Recorded(#[from] crate::recorded::RecordedError),
    #[error(transparent)]
    Coverage(#[from] crate::cod::CoverageError),
}

/// What must stay the same: the divergence type and the kind of the action it showed at, the
/// engine that stood alone, and the shape of each side's answer where the type has one. Without
/// the last two a reduction drifts: a breakpoint that JavaScriptCore alone places nowhere
/// reduced (on held-out test262 programs) to an empty program where V8 alone places one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: DivergenceKind,
    /// `Action::name()` of the diverging action.
    pub action: String,
    /// A termination: how each side ended (`engine-crashed`, `timeout`, …), `None` for a side
    /// that did not; a crash that reduces to an uncaught exception is not the same finding.
    pub ends: Vec<Option<String>>,
    /// A breakpoint location: whether each side placed the breakpoint somewhere.
    pub placed: Vec<bool>,
    /// Three engines or more: the one that stood alone (`None`: none did, or two engines).
    pub suspect: Option<EngineRef>,
}

impl Finding {
    /// The finding a recorded divergence is.
    pub fn of(d: &morphtrace_schema::Divergence) -> Finding {
        let ends = match d.kind {
            DivergenceKind::Termination => d
                .sides
                .iter()
                .map(|s| match &s.output {
                    Some(Output::Finished { outcome }) => Some(outcome.name().to_string()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let placed = match d.kind {
            DivergenceKind::BreakpointLocation => d
                .sides
                .iter()
                .map(|s| matches!(&s.output, Some(Output::BreakpointSet { actual, .. }) if !actual.is_empty()))
                .collect(),
            _ => Vec::new(),
        };
        Finding {
            kind: d.kind.clone(),
            action: d.action.name().to_string(),
            ends,
            placed,
            suspect: d.suspect,
        }
    }

    /// Whether `d` is this finding again: its type at its kind of action, the same engine
    /// alone, and, for a termination, each side ending as it did; for a breakpoint location,
    /// the same sides placing it.
    pub fn matches(&self, d: &morphtrace_schema::Divergence) -> bool {
        let again = Finding::of(d);
        d.kind == self.kind
            && d.action.name() == self.action
            && again.suspect == self.suspect
            && (self.ends.is_empty() || again.ends == self.ends)
            && (self.placed.is_empty() || again.placed == self.placed)
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at {}", self.kind.name(), self.action)
    }
}

/// The reduced case and what it took.
#[derive(Debug, Clone)]
pub struct Reduced {
    pub text: String,
    pub actions: Vec<Action>,
    /// Each engine's trace of the reduced case (engine order).
    pub traces: Vec<Trace>,
    pub detail: String,
    /// The position of the action where the reduced case diverges.
    pub step: usize,
    /// Non-blank lines and actions before and after.
    pub lines: (usize, usize),
    pub action_count: (usize, usize),
    /// Candidates run, and whether the budget ran out before a fixpoint.
    pub tests: usize,
    pub complete: bool,
    pub elapsed: Duration,
}

fn non_blank(text: &str) -> usize {
    text.lines().filter(|l| !l.trim().is_empty()).count()
}

/// Drops the actions at positions not in `keep`, renumbering breakpoint ids: a kept
/// `RemoveBreakpoint` refers to the kept `SetBreakpoint` it referred to (dropped with it
/// otherwise). `ids` maps a `SetBreakpoint`'s position to the id the engine gave it.
fn subset(actions: &[Action], ids: &HashMap<usize, BreakpointId>, keep: &[usize]) -> Vec<Action> {
    let mut renumber: HashMap<BreakpointId, BreakpointId> = HashMap::new();
    let mut next = 0;
    let mut out = Vec::new();
    for &i in keep {
        match &actions[i] {
            a if a.sets_breakpoint() => {
                if let Some(old) = ids.get(&i) {
                    renumber.insert(*old, BreakpointId(next));
                    next += 1;
                }
                out.push(a.clone());
            }
            Action::RemoveBreakpoint { id } => {
                if let Some(new) = renumber.get(id) {
                    out.push(Action::RemoveBreakpoint { id: *new });
                }
            }
            a => out.push(a.clone()),
        }
    }
    out
}

/// The ids a trace's `SetBreakpoint` actions got, by action position.
fn breakpoint_ids(trace: &Trace) -> HashMap<usize, BreakpointId> {
    let mut out = HashMap::new();
    let mut index = None;
    let mut n = 0;
    for e in &trace.events {
        match &e.kind {
            EventKind::Action(a) => {
                index = a.sets_breakpoint().then_some(n);
                n += 1;
            }
            EventKind::Output(Output::BreakpointSet { id, .. }) => {
                if let Some(i) = index.take() {
                    out.insert(i, *id);
                }
            }
            EventKind::Output(_) => index = None,
        }
    }
    out
}

/// Where the engine was paused when the action at position `at` was issued.
fn pause_before(t: &Trace, at: usize) -> Option<morphtrace_schema::Location> {
    let mut n = 0;
    let mut last = None;
    for e in &t.events {
        match &e.kind {
            EventKind::Action(_) => {
                if n == at {
                    return last;
                }
                n += 1;
            }
            EventKind::Output(Output::Paused(p)) => last = Some(p.location),
            EventKind::Output(_) => {}
        }
    }
    None
}

/// Blanks bytes `start..end` (spaces, newlines kept): every other position keeps its line and
/// column.
fn blank(text: &str, start: usize, end: usize) -> String {
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..start]);
    for c in text[start..end].chars() {
        if c == '\n' || c == '\r' {
            out.push(c);
        } else {
            out.push_str(&" ".repeat(c.len_utf8()));
        }
    }
    out.push_str(&text[end..]);
    out
}

/// The text without the blank (or whitespace-only) lines `drop` picks by 0-based number, and
/// each old line's new number; kept lines lose trailing blanks.
fn compact_where(text: &str, drop: impl Fn(usize) -> bool) -> (String, Vec<Option<u32>>) {
    let mut out = String::new();
    let mut map = Vec::new();
    let mut n = 0;
    for (k, line) in text.split_inclusive('\n').enumerate() {
        if line.trim().is_empty() && drop(k) {
            map.push(None);
        } else {
            map.push(Some(n));
            n += 1;
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    (out, map)
}

/// The runs of blank lines of `text` (0-based, end exclusive), last first: the candidates for
/// dropping blank lines a few at a time when dropping them all loses the finding (a pause past
/// the last statement may need the lines after it).
fn blank_runs(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for (k, line) in text.split_inclusive('\n').enumerate() {
        if !line.trim().is_empty() {
            continue;
        }
        match runs.last_mut() {
            Some(r) if r.end == k => r.end = k + 1,
            _ => runs.push(k..k + 1),
        }
    }
    runs.reverse();
    runs
}

/// Ways to drop blank lines, most first: all of them, then each run of them whole, then each
/// run but its first line, then none (whitespace-only lines emptied); at most `limit`.
fn blank_line_drops(text: &str, limit: usize) -> Vec<Vec<std::ops::Range<usize>>> {
    let runs = blank_runs(text);
    let mut out = vec![runs.clone()];
    out.extend(runs.iter().map(|r| vec![r.clone()]));
    out.extend(
        runs.iter()
            .filter(|r| r.len() > 1)
            .map(|r| std::iter::once(r.start + 1..r.end).collect()),
    );
    out.push(Vec::new());
    out.truncate(limit);
    out
}

/// Whether a candidate of `language` parses: JavaScript by swc, C by tree-sitter-c without a
/// recovered error. Other languages are not blanked.
fn parses(language: Language, text: &str) -> bool {
    match language {
        Language::C => CSyntax::parse(text).is_some_and(|s| !s.has_errors()),
        Language::Python => {
            PySyntax::parse(text).is_some_and(|s| s.rejection().is_none() && !s.has_empty_block())
        }
        _ => JsProgram::parse(text).is_ok(),
    }
}

/// The spans of the statements blanking may remove, outermost first, that are not blank
/// already: JavaScript's whole statements of a statement list (not directives); C's items of a
/// block or of the file ([`CSyntax::removable`]); Python's statements of a block or the module
/// but `pass` (each becomes one). `None` if `text` does not parse.
fn removable(language: Language, text: &str) -> Option<Vec<(usize, usize)>> {
    if language == Language::Python {
        let p = PySyntax::parse(text).filter(|s| s.rejection().is_none())?;
        return Some(
            p.deletable()
                .into_iter()
                .filter(|d| text.get(d.start..d.end).is_some_and(|t| t.trim() != "pass"))
                .map(|d| (d.start, d.end))
                .collect(),
        );
    }
    if language == Language::C {
        let c = CSyntax::parse(text).filter(|s| !s.has_errors())?;
        return Some(
            c.removable()
                .into_iter()
                .filter(|&(a, b)| text.get(a..b).is_some_and(|t| !t.trim().is_empty()))
                .collect(),
        );
    }
    let p = JsProgram::parse(text).ok()?;
    Some(
        p.statements
            .iter()
            .filter(|s| s.listed && !s.directive)
            .filter(|s| {
                text.get(s.start..s.end)
                    .is_some_and(|t| !t.trim().is_empty())
            })
            .map(|s| (s.start, s.end))
            .collect(),
    )
}

/// `text` with `start..end` blanked, if that is not blank already (a statement inside one
/// blanked before) and the result still parses.
fn blanked(language: Language, text: &str, start: usize, end: usize) -> Option<String> {
    if text.get(start..end).is_none_or(|t| t.trim().is_empty()) {
        return None;
    }
    let mut candidate = blank(text, start, end);
    // A Python block must keep a statement: `pass` where the statement began (over its first
    // blanks; a shorter first line grows, and every line keeps its number).
    if language == Language::Python {
        let room = candidate[start..]
            .find(['\n', '\r'])
            .unwrap_or(candidate.len() - start)
            .min(4);
        candidate.replace_range(start..start + room, "pass");
    }
    parses(language, &candidate).then_some(candidate)
}

/// A byte span and what goes in its place (`""`: blanks).
type Edit = (usize, usize, &'static str);

/// One kind of edit of a program: the candidate edits of a text, and a text with one applied
/// (`None` if it changes nothing or does not parse). Reduction applies each kind to a fixpoint.
struct Edits {
    list: fn(Language, &str) -> Option<Vec<Edit>>,
    apply: fn(Language, &str, usize, usize, &'static str) -> Option<String>,
}

/// Whole statements blanked.
const STATEMENTS: Edits = Edits {
    list: |l, t| {
        Some(
            removable(l, t)?
                .into_iter()
                .map(|(a, b)| (a, b, ""))
                .collect(),
        )
    },
    apply: |l, t, a, b, _| blanked(l, t, a, b),
};

/// Long literals emptied, long argument lists dropped (JavaScript); long initializer lists
/// made `{0}` (C).
const EXPRESSIONS: Edits = Edits {
    list: |l, t| match l {
        Language::JavaScript => simplifiable(t),
        Language::C => Some(
            CSyntax::parse(t)?
                .long_initializers()
                .into_iter()
                .map(|(a, b)| (a, b, "{0}"))
                .collect(),
        ),
        _ => Some(Vec::new()),
    },
    apply: simplified,
};

/// The candidates of blanking a program, one at a time over a text that changes as candidates
/// are kept: whole statements, outermost first, until a pass keeps none; then expressions
/// alike. The spans of a pass keep their offsets whatever is kept before them (both edits keep
/// every offset); one inside a blanked span is blank now and yields nothing; each new pass
/// parses again. `None` when a pass keeps nothing of the last kind, or the text does not parse.
struct Blanking {
    language: Language,
    kind: usize,
    pass: Option<std::vec::IntoIter<Edit>>,
    kept: bool,
}

impl Blanking {
    const KINDS: [Edits; 2] = [STATEMENTS, EXPRESSIONS];

    fn new(language: Language) -> Blanking {
        Blanking {
            language,
            kind: 0,
            pass: None,
            kept: false,
        }
    }

    /// The next candidate made from `text` (the text as kept so far).
    fn next(&mut self, text: &str) -> Option<String> {
        while let Some(edits) = Self::KINDS.get(self.kind) {
            let Some(pass) = self.pass.as_mut() else {
                match (edits.list)(self.language, text) {
                    Some(spans) => {
                        self.pass = Some(spans.into_iter());
                        self.kept = false;
                    }
                    None => self.kind += 1,
                }
                continue;
            };
            match pass.next() {
                Some((start, end, by)) => {
                    if let Some(candidate) = (edits.apply)(self.language, text, start, end, by) {
                        return Some(candidate);
                    }
                }
                None => {
                    self.pass = None;
                    if !self.kept {
                        self.kind += 1;
                    }
                }
            }
        }
        None
    }

    /// The last candidate was kept: its kind gets another pass.
    fn keep(&mut self) {
        self.kept = true;
    }
}

/// The expressions of `text` that may shrink (long literals, long argument lists), outermost
/// first. `None` if `text` does not parse.
fn simplifiable(text: &str) -> Option<Vec<Edit>> {
    let p = JsProgram::parse(text).ok()?;
    Some(
        p.simplifications
            .iter()
            .map(|s| (s.start, s.end, s.by))
            .collect(),
    )
}

/// `text` with `start..end` replaced by `by` and blanks to the old length, so that every other
/// position keeps its line and column; if the result still parses.
fn simplified(
    language: Language,
    text: &str,
    start: usize,
    end: usize,
    by: &str,
) -> Option<String> {
    let cut = start + by.len();
    let head = text.get(start..cut)?;
    if cut > end || head.contains(['\n', '\r']) || text.get(start..end)? == by {
        return None;
    }
    let mut candidate = blank(text, cut, end);
    candidate.replace_range(start..cut, by);
    parses(language, &candidate).then_some(candidate)
}

/// `text` with runs of blanks squeezed to one space, on each line after the last column an
/// action names there (`keep`: 0-based line -> 0-based column), if that changes anything and
/// the result still parses. What blanking and simplifying left inside lines goes.
fn squeezed(language: Language, text: &str, keep: &HashMap<u32, u32>) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let body = line.trim_end_matches(['\n', '\r']);
        let ending = &line[body.len()..];
        // Columns are UTF-16 units; up to that many chars stay as they are.
        let from = keep.get(&(i as u32)).map_or(0, |&c| {
            body.char_indices()
                .nth(c as usize + 1)
                .map_or(body.len(), |(b, _)| b)
        });
        let mut l = body[..from].to_string();
        let mut blank_run = false;
        for ch in body[from..].chars() {
            if ch == ' ' || ch == '\t' {
                if !blank_run {
                    l.push(' ');
                }
                blank_run = true;
            } else {
                l.push(ch);
                blank_run = false;
            }
        }
        let kept = l.len().min(from);
        let trimmed = l[kept..].trim_end().len();
        l.truncate(kept + trimmed);
        out.push_str(&l);
        out.push_str(ending);
    }
    (out != text && parses(language, &out)).then_some(out)
}

/// The last column (0-based) each line's breakpoint actions name.
fn named_columns(actions: &[Action]) -> HashMap<u32, u32> {
    let mut keep: HashMap<u32, u32> = HashMap::new();
    for a in actions {
        if let Action::SetBreakpoint {
            line,
            column: Some(c),
        } = a
        {
            let k = keep.entry(*line).or_insert(*c);
            *k = (*k).max(*c);
        }
    }
    keep
}

/// A Python text with every line holding only the `pass` blanking left blanked where its block
/// keeps another statement (each tried by parsing alone) and no action names the line, if
/// there is one: the blank-line step then takes those lines out.
fn without_lone_passes(text: &str, actions: &[Action]) -> Option<String> {
    let named: std::collections::HashSet<u32> =
        actions.iter().filter_map(Action::breakpoint_line).collect();
    let mut out = text.to_string();
    let mut offset = 0;
    for (k, line) in text.split_inclusive('\n').enumerate() {
        if line.trim() == "pass" && !named.contains(&(k as u32)) {
            let candidate = blank(&out, offset, offset + line.trim_end().len());
            if parses(Language::Python, &candidate) {
                out = candidate;
            }
        }
        offset += line.len();
    }
    (out != text).then_some(out)
}

/// `text` with every comment-only line blanked, if there is one and the rest still parses.
fn without_comment_lines(language: Language, text: &str) -> Option<String> {
    let tokenless: std::collections::HashSet<u32> = match language {
        Language::C => CSyntax::parse(text)?.comment_lines().into_iter().collect(),
        Language::Python => text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.trim_start().starts_with('#'))
            .map(|(i, _)| i as u32)
            .collect(),
        _ => JsProgram::parse(text)
            .ok()?
            .tokenless_lines()
            .into_iter()
            .collect(),
    };
    let candidate: String = text
        .split_inclusive('\n')
        .enumerate()
        .map(|(i, l)| {
            if tokenless.contains(&(i as u32)) && !l.trim().is_empty() {
                l.chars()
                    .map(|c| if c == '\n' || c == '\r' { c } else { ' ' })
                    .collect()
            } else {
                l.to_string()
            }
        })
        .collect();
    (candidate != text && parses(language, &candidate)).then_some(candidate)
}

/// A JavaScript program reduced where line numbers do not matter to the finding (a coverage
/// class): statements blanked to a fixpoint, comment-only lines, then blank lines dropped.
#[derive(Debug, Clone)]
pub struct Blanked {
    pub text: String,
    pub tests: usize,
    pub complete: bool,
    pub elapsed: Duration,
}

/// Reduces `text` by statement blanking while `shows` holds, until `budget` runs out. `shows`
/// is the interestingness test; it is never asked about a candidate that does not parse.
pub fn blank_statements<E>(
    text: &str,
    budget: Duration,
    progress: &ProgressBar,
    mut shows: impl FnMut(&str) -> Result<bool, E>,
) -> Result<Blanked, E> {
    let t0 = Instant::now();
    let out_of_time = || t0.elapsed() >= budget;
    let mut tests = 0;
    let mut test = |c: &str| {
        tests += 1;
        progress.inc(1);
        shows(c)
    };
    let mut text = text.to_string();
    let mut blanking = Blanking::new(Language::JavaScript);
    while !out_of_time() {
        let Some(candidate) = blanking.next(&text) else {
            break;
        };
        if test(&candidate)? {
            text = candidate;
            blanking.keep();
        }
    }
    let complete = !out_of_time();
    if let Some(candidate) =
        squeezed(Language::JavaScript, &text, &HashMap::new()).filter(|_| complete)
    {
        if test(&candidate)? {
            text = candidate;
        }
    }
    if let Some(candidate) = without_comment_lines(Language::JavaScript, &text).filter(|_| complete)
    {
        if test(&candidate)? {
            text = candidate;
        }
    }
    // Blank lines out: all at once, else run by run.
    let mut tried = 0;
    while complete && tried < MAX_BLANK_LINE_TRIES && !out_of_time() {
        let mut dropped = false;
        for drop in blank_line_drops(&text, MAX_BLANK_LINE_TRIES - tried) {
            let (short, _) = compact_where(&text, |k| drop.iter().any(|r| r.contains(&k)));
            if short == text || JsProgram::parse(&short).is_err() {
                continue;
            }
            tried += 1;
            if test(&short)? {
                text = short;
                dropped = true;
                break;
            }
        }
        if !dropped {
            break;
        }
    }
    Ok(Blanked {
        text,
        tests,
        complete,
        elapsed: t0.elapsed(),
    })
}

/// A last clean-up of a reduced text (blanks squeezed, comment lines dropped), given its
/// actions; `None` if it changes nothing.
type Tidy = fn(Language, &str, &[Action]) -> Option<String>;

/// One candidate for a [`Judge`]: a program and actions; `pinned`, the position in `actions`
/// of the action the finding is anchored to (a metamorphic transformation's); `lines`, set
/// when blank lines were dropped: each line of the previous text's new number.
pub struct Candidate<'c> {
    pub text: &'c str,
    pub actions: &'c [Action],
    pub pinned: Option<usize>,
    pub lines: Option<&'c [Option<u32>]>,
}

/// What one run of a candidate showed; `extra` is the judge's own record of it.
pub struct Run<X> {
    pub shows: bool,
    /// The position of the action where it showed.
    pub at: Option<usize>,
    pub traces: Vec<Trace>,
    pub detail: String,
    pub extra: X,
}

/// The interestingness test of a reduction: runs a candidate on the engines and says whether
/// the finding still shows.
#[allow(async_fn_in_trait)]
pub trait Judge {
    type Extra;
    /// The language of the programs it runs, which says how candidates are made.
    fn language(&self) -> Language {
        Language::JavaScript
    }
    async fn run(&mut self, c: Candidate<'_>) -> Result<Run<Self::Extra>, ReduceError>;
}

/// How a reduction runs: its judge's limits and the progress it shows.
struct Search {
    deadline: Instant,
    progress: ProgressBar,
    tests: usize,
}

impl Search {
    fn out_of_time(&self) -> bool {
        Instant::now() >= self.deadline
    }

    async fn run<J: Judge>(
        &mut self,
        judge: &mut J,
        text: &str,
        actions: &[Action],
        pinned: Option<usize>,
    ) -> Result<Run<J::Extra>, ReduceError> {
        self.counted(
            judge,
            Candidate {
                text,
                actions,
                pinned,
                lines: None,
            },
        )
        .await
    }

    async fn counted<J: Judge>(
        &mut self,
        judge: &mut J,
        c: Candidate<'_>,
    ) -> Result<Run<J::Extra>, ReduceError> {
        self.tests += 1;
        self.progress.inc(1);
        judge.run(c).await
    }
}

/// The actions at positions `keep`, as [`subset`], and where `pinned` went in them.
fn subset_pinned(
    actions: &[Action],
    ids: &HashMap<usize, BreakpointId>,
    keep: &[usize],
    pinned: Option<usize>,
) -> (Vec<Action>, Option<usize>) {
    let out = subset(actions, ids, keep);
    // `subset` drops only removals of dropped breakpoints, and the pinned action is a control:
    // its new position is the length of what the kept actions before it become.
    let at = pinned.map(|p| {
        let before: Vec<usize> = keep.iter().copied().filter(|&k| k < p).collect();
        subset(actions, ids, &before).len()
    });
    (out, at)
}

/// Reduces `text` and `actions` while `judge` says the finding shows: delta debugging over the
/// actions (never dropping `pinned`), then statements and expressions of the program, then
/// blank lines. With `shortcut`, first tries a breakpoint where the engine paused before the
/// diverging action, a few resumes and that action.
pub async fn reduce_with<J: Judge>(
    judge: &mut J,
    text: &str,
    actions: &[Action],
    pinned: Option<usize>,
    shortcut: bool,
    budget: Duration,
    progress: ProgressBar,
) -> Result<(Reduced, J::Extra), ReduceError> {
    let t0 = Instant::now();
    let language = judge.language();
    let mut search = Search {
        deadline: t0 + budget,
        progress,
        tests: 0,
    };
    let lines_before = non_blank(text);
    let actions_before = actions.len();
    let first = search.run(judge, text, actions, pinned).await?;
    if !first.shows {
        return Err(ReduceError::NotReproduced(format!(
            "replaying the {} actions gave {}",
            actions.len(),
            if first.detail.is_empty() {
                "no divergence".to_string()
            } else {
                format!("another outcome ({})", first.detail)
            }
        )));
    }
    // 0. A shortcut delta debugging cannot find (a breakpoint and the resumes it needs go
    // together): a breakpoint where the engine paused before the diverging action, start,
    // a few resumes, then that action; if that loses it, the same with the logpoints and
    // conditional breakpoints set before that action first (a step's end can hinge on one).
    let shortcut = match (first.at, first.traces.first()) {
        (Some(at), Some(t)) if at > 0 && shortcut && pinned.is_none() => {
            pause_before(t, at).map(|l| (l, at))
        }
        _ => None,
    };
    let mut best = first;
    let mut actions = actions.to_vec();
    if let Some((loc, at)) = shortcut.filter(|(_, at)| actions[*at].is_control()) {
        let quiet: Vec<Action> = actions[..at]
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    Action::SetLogpoint { .. } | Action::SetConditionalBreakpoint { .. }
                )
            })
            .cloned()
            .collect();
        let action = actions[at].clone();
        let mut prefixes = vec![Vec::new()];
        if !quiet.is_empty() {
            prefixes.push(quiet);
        }
        'shortcut: for prefix in prefixes {
            for resumes in 0..=8 {
                if search.out_of_time() {
                    break 'shortcut;
                }
                let mut c = prefix.clone();
                c.extend([
                    Action::SetBreakpoint {
                        line: loc.line,
                        column: Some(loc.column),
                    },
                    Action::Start,
                ]);
                c.extend(std::iter::repeat_n(Action::Resume, resumes));
                c.push(action.clone());
                let r = search.run(judge, text, &c, None).await?;
                if r.shows {
                    actions = c;
                    best = r;
                    break 'shortcut;
                }
            }
        }
    }
    // The ids the engine gave the breakpoints of these actions (first trace).
    let ids = best.traces.first().map(breakpoint_ids).unwrap_or_default();
    let actions = &actions[..];
    // 1. Actions: ddmin over positions, complements first (Zeller and Hildebrandt); the pinned
    // action always stays.
    let mut keep: Vec<usize> = (0..actions.len()).filter(|&i| Some(i) != pinned).collect();
    let with_pinned = |keep: &[usize]| {
        let mut all: Vec<usize> = keep.iter().copied().chain(pinned).collect();
        all.sort_unstable();
        all
    };
    let mut n = 2;
    let mut complete = true;
    'ddmin: while keep.len() >= 2 || (pinned.is_some() && !keep.is_empty()) {
        let n_now = n.min(keep.len()).max(1);
        let chunk = keep.len().div_ceil(n_now);
        let mut reduced = false;
        for c in 0..n_now {
            if search.out_of_time() {
                complete = false;
                break 'ddmin;
            }
            let lo = (c * chunk).min(keep.len());
            let hi = ((c + 1) * chunk).min(keep.len());
            if lo == hi {
                continue;
            }
            let candidate: Vec<usize> = keep[..lo].iter().chain(&keep[hi..]).copied().collect();
            let (acts, at) = subset_pinned(actions, &ids, &with_pinned(&candidate), pinned);
            let r = search.run(judge, text, &acts, at).await?;
            if r.shows {
                keep = candidate;
                best = r;
                reduced = true;
                break;
            }
        }
        if reduced {
            n = (n - 1).max(2);
            continue;
        }
        if n >= keep.len() {
            break;
        }
        n = (n * 2).min(keep.len());
    }
    let (mut acts, at) = subset_pinned(actions, &ids, &with_pinned(&keep), pinned);
    // 2. The program: whole statements blanked, outermost first, until nothing more goes;
    // then expressions.
    let mut text = text.to_string();
    let mut blanking = Blanking::new(language);
    while complete && !search.out_of_time() {
        let Some(candidate) = blanking.next(&text) else {
            break;
        };
        let r = search.run(judge, &candidate, &acts, at).await?;
        if r.shows {
            text = candidate;
            best = r;
            blanking.keep();
        }
    }
    if search.out_of_time() {
        complete = false;
    }
    // Blanks inside lines squeezed where no action's column depends on them; comment-only
    // lines go too (one candidate: all of them, if the rest still parses).
    let last_steps: [Tidy; 3] = [
        // Not Python's: its blanks at a line's start are its blocks.
        |l, t, a| (l != Language::Python).then(|| squeezed(l, t, &named_columns(a)))?,
        |l, t, _| without_comment_lines(l, t),
        |l, t, a| (l == Language::Python).then(|| without_lone_passes(t, a))?,
    ];
    for step in last_steps {
        let Some(candidate) = step(language, &text, &acts).filter(|_| !search.out_of_time()) else {
            continue;
        };
        let r = search.run(judge, &candidate, &acts, at).await?;
        if r.shows {
            text = candidate;
            best = r;
        }
    }
    // 3. Blank lines out, breakpoints moved with their lines (kept only if still showing): all
    // at once, else run by run, again on what is left after each that goes.
    let mut tried = 0;
    'drops: while tried < MAX_BLANK_LINE_TRIES && !search.out_of_time() {
        for drop in blank_line_drops(&text, MAX_BLANK_LINE_TRIES - tried) {
            let (short, map) = compact_where(&text, |k| drop.iter().any(|r| r.contains(&k)));
            if short == text || search.out_of_time() {
                continue;
            }
            tried += 1;
            if let Some((moved, r)) =
                without_blank_lines(&mut search, judge, language, &short, &map, &acts, at).await?
            {
                text = short;
                acts = moved;
                best = r;
                continue 'drops;
            }
        }
        break;
    }
    Ok((
        Reduced {
            lines: (lines_before, non_blank(&text)),
            action_count: (actions_before, acts.len()),
            text,
            actions: acts,
            traces: best.traces,
            detail: best.detail,
            step: best.at.unwrap_or(0),
            tests: search.tests,
            complete,
            elapsed: t0.elapsed(),
        },
        best.extra,
    ))
}

/// How many candidates without some blank lines a reduction tries at most.
const MAX_BLANK_LINE_TRIES: usize = 24;

/// `short` (the text with some blank lines dropped, `map` each old line's new number) with the
/// actions' breakpoints moved along, when it parses and the finding still shows there.
#[allow(clippy::too_many_arguments)]
async fn without_blank_lines<J: Judge>(
    search: &mut Search,
    judge: &mut J,
    language: Language,
    short: &str,
    map: &[Option<u32>],
    acts: &[Action],
    at: Option<usize>,
) -> Result<Option<(Vec<Action>, Run<J::Extra>)>, ReduceError> {
    let kept = map.iter().flatten().count() as u32;
    let moved: Vec<Action> = acts
        .iter()
        .map(|a| match a {
            // A breakpoint on a blank line goes to the next line left, where V8 and
            // morphtrace's Firefox policy slide it (its column then means little); past the
            // last line, it stays past the last line.
            a if a.sets_breakpoint() => {
                let line = a.breakpoint_line().unwrap_or(0);
                let column = match a {
                    Action::SetBreakpoint { column, .. } => *column,
                    _ => None,
                };
                let next = map
                    .get(line as usize..)
                    .and_then(|rest| rest.iter().enumerate().find_map(|(k, l)| l.map(|l| (k, l))));
                match next {
                    Some((k, l)) => a.on_line(l, if k == 0 { column } else { None }),
                    None => a.on_line(kept + line.saturating_sub(map.len() as u32), None),
                }
            }
            other => other.clone(),
        })
        .collect();
    if !parses(language, short) {
        return Ok(None);
    }
    let candidate = Candidate {
        text: short,
        actions: &moved,
        pinned: at,
        lines: Some(map),
    };
    let r = search.counted(judge, candidate).await?;
    Ok(r.shows.then_some((moved, r)))
}

/// DBDB's judge: the candidate replayed in lockstep on the engines; it shows when the same
/// divergence type appears at the same kind of action.
pub struct Reducer<'a> {
    pub engines: Vec<&'a mut Box<dyn Engine>>,
    pub refs: Vec<EngineRef>,
    pub policy: ComparisonPolicy,
    pub workdir: &'a Path,
    pub session_timeout: Duration,
    pub finding: Finding,
    /// The triage the recording went on under (its archive's): a candidate goes on past the
    /// same divergences, so that a finding met after a session's first can show.
    pub triage: Option<morphtrace_judges::triage::Triage>,
    /// The program's language (JavaScript unless set): how candidates are made and written.
    pub language: Language,
    /// C: the guard against undefined behaviour every candidate must pass (set when the
    /// original passes it, [`coverage::WELL_DEFINED`]).
    pub guard: Option<std::path::PathBuf>,
    /// The guard's answers by program text: reducing the actions runs one text many times.
    guarded: HashMap<String, bool>,
    budget: Duration,
    progress: ProgressBar,
}

impl<'a> Reducer<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        engines: Vec<&'a mut Box<dyn Engine>>,
        refs: Vec<EngineRef>,
        policy: ComparisonPolicy,
        workdir: &'a Path,
        session_timeout: Duration,
        finding: Finding,
        budget: Duration,
        progress: ProgressBar,
    ) -> Reducer<'a> {
        Reducer {
            engines,
            refs,
            policy,
            workdir,
            session_timeout,
            finding,
            triage: None,
            language: Language::JavaScript,
            guard: None,
            guarded: HashMap::new(),
            budget,
            progress,
        }
    }

    /// For a C program: candidates in C, each first passing the guard against undefined
    /// behaviour if `text` (the original) passes it; whether it did.
    pub fn in_c(&mut self, text: &str) -> Result<bool, ReduceError> {
        self.language = Language::C;
        let dir = self.workdir.join("guard");
        std::fs::create_dir_all(&dir).map_err(|e| ReduceError::Write(e.to_string()))?;
        let guard = dir.join("well-defined.sh");
        std::fs::write(&guard, coverage::WELL_DEFINED)
            .map_err(|e| ReduceError::Write(e.to_string()))?;
        let passes = well_defined(&guard, text)?;
        if passes {
            self.guard = Some(guard);
        } else {
            tracing::warn!("the original program shows signs of undefined behaviour: candidates are reduced without the guard");
        }
        Ok(passes)
    }

    /// Reduces `text` and `actions`.
    pub async fn reduce(&mut self, text: &str, actions: &[Action]) -> Result<Reduced, ReduceError> {
        let (budget, progress) = (self.budget, self.progress.clone());
        Ok(
            reduce_with(self, text, actions, None, true, budget, progress)
                .await?
                .0,
        )
    }
}

/// Whether the C program `text` passes `guard` ([`coverage::WELL_DEFINED`], beside which it is
/// written).
fn well_defined(guard: &Path, text: &str) -> Result<bool, ReduceError> {
    let dir = guard.parent().unwrap_or(Path::new("."));
    std::fs::write(dir.join("program.c"), text).map_err(|e| ReduceError::Write(e.to_string()))?;
    let mut cmd = std::process::Command::new("sh");
    cmd.arg(guard).arg("program.c").current_dir(dir);
    let ran = crate::process::run(&mut cmd, Duration::from_secs(60), None)
        .map_err(|e| ReduceError::Write(format!("the undefined-behaviour guard: {e}")))?;
    Ok(ran.ok())
}

/// Writes a candidate program where the engines load it (`name` without its extension).
pub(crate) fn materialized(
    language: Language,
    text: &str,
    name: &str,
    workdir: &Path,
) -> Result<corpus::Loaded, ReduceError> {
    let extension = match language {
        Language::C => "c",
        Language::Python => "py",
        _ => "js",
    };
    let program = corpus::classified(Program::new(
        language,
        text.to_string(),
        ProgramOrigin::File {
            path: format!("{name}.{extension}"),
        },
    ));
    corpus::materialize(program, workdir).map_err(|e| ReduceError::Write(e.to_string()))
}

impl Judge for Reducer<'_> {
    type Extra = ();

    fn language(&self) -> Language {
        self.language
    }

    async fn run(&mut self, c: Candidate<'_>) -> Result<Run<()>, ReduceError> {
        let guarded = match (self.guard.clone(), self.guarded.get(c.text)) {
            (None, _) => true,
            (Some(_), Some(&known)) => known,
            (Some(guard), None) => {
                let text = c.text.to_string();
                let passes = tokio::task::spawn_blocking(move || well_defined(&guard, &text))
                    .await
                    .map_err(|e| ReduceError::Write(format!("the guard's thread failed: {e}")))??;
                self.guarded.insert(c.text.to_string(), passes);
                passes
            }
        };
        if !guarded {
            return Ok(Run {
                shows: false,
                at: None,
                traces: Vec::new(),
                detail: "shows signs of undefined behaviour".into(),
                extra: (),
            });
        }
        let loaded = materialized(self.language, c.text, "reduced", self.workdir)?;
        let rec = crate::session::record(
            &mut self.engines,
            &self.refs,
            &loaded,
            &mut crate::session::Reissue { actions: c.actions },
            &self.policy,
            self.triage.as_ref(),
            self.session_timeout,
        )
        .await;
        // The finding: a divergence of its type at its kind of action that the triage did not
        // excuse (without a triage, the session's first and only one).
        let found = rec.divergences.iter().find(|d| {
            self.finding.matches(d)
                && !d
                    .continued
                    .as_deref()
                    .is_some_and(|c| c.starts_with("excused"))
        });
        let shows = found.is_some();
        for d in &rec.divergences {
            tracing::debug!(
                "candidate: {} at {} ({}): {} [{}]",
                d.kind.name(),
                d.action.name(),
                d.action_index,
                d.detail,
                d.continued.as_deref().unwrap_or("stopped there")
            );
        }
        let first = found.or(rec.divergence.as_ref());
        Ok(Run {
            shows,
            at: first.map(|d| d.action_index as usize),
            detail: first.map(|d| d.detail.clone()).unwrap_or_default(),
            traces: rec.traces,
            extra: (),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_breakpoints_take_their_removals_and_ids_are_renumbered() {
        let actions = vec![
            Action::SetBreakpoint {
                line: 1,
                column: None,
            },
            Action::SetBreakpoint {
                line: 2,
                column: None,
            },
            Action::RemoveBreakpoint {
                id: BreakpointId(0),
            },
            Action::RemoveBreakpoint {
                id: BreakpointId(1),
            },
            Action::Start,
        ];
        let ids: HashMap<usize, BreakpointId> = [(0, BreakpointId(0)), (1, BreakpointId(1))].into();
        assert_eq!(
            subset(&actions, &ids, &[1, 2, 3, 4]),
            vec![
                Action::SetBreakpoint {
                    line: 2,
                    column: None
                },
                Action::RemoveBreakpoint {
                    id: BreakpointId(0)
                },
                Action::Start
            ]
        );
    }

    #[test]
    fn simplifying_empties_long_literals_and_argument_lists_in_place() {
        let t = "var s = 'a long string of text';\nf(first_argument, second_one);\nlog(s);\n";
        let spans = simplifiable(t).unwrap();
        let whole = |a: &str| {
            let start = t.find(a).unwrap();
            (start, start + a.len())
        };
        let string = whole("'a long string of text'");
        let args = whole("first_argument, second_one");
        assert!(spans.contains(&(string.0, string.1, "''")), "{spans:?}");
        assert!(spans.contains(&(args.0, args.1, "")), "{spans:?}");
        // `log(s)` is too short to be worth a run.
        assert_eq!(spans.len(), 2, "{spans:?}");
        let c = simplified(Language::JavaScript, t, string.0, string.1, "''").unwrap();
        assert_eq!(c.len(), t.len());
        assert_eq!(c.find("log"), t.find("log"));
        assert!(c.starts_with("var s = '' "), "{c}");
        let c = simplified(Language::JavaScript, t, args.0, args.1, "").unwrap();
        assert!(c.contains("f(     "), "{c}");
        assert_eq!(c.find("log"), t.find("log"));
        // A stand-in that would not parse is no candidate.
        assert!(simplified(
            Language::JavaScript,
            "({a: 1, b: 2, c: 33333});",
            1,
            23,
            "{"
        )
        .is_none());
        // Squeezing keeps what a breakpoint's column needs and trims the rest.
        let c = simplified(Language::JavaScript, t, args.0, args.1, "").unwrap();
        let s = squeezed(Language::JavaScript, &c, &HashMap::new()).unwrap();
        assert!(s.contains("\nf( );\n"), "{s}");
        let s = squeezed(Language::JavaScript, &c, &[(1, 6)].into()).unwrap();
        assert!(s.contains("\nf(      );\n"), "{s}");
    }

    #[test]
    fn a_c_program_is_blanked_item_by_item_and_keeps_its_lines() {
        let t = "int g = 1;\nint main(void) {\n  g = 2;\n  if (g) { g = 3; }\n  return g;\n}\n";
        let mut b = Blanking::new(Language::C);
        let mut seen = Vec::new();
        while let Some(c) = b.next(t) {
            assert_eq!(c.len(), t.len(), "{c}");
            assert_eq!(c.lines().count(), t.lines().count(), "{c}");
            assert!(parses(Language::C, &c), "{c}");
            seen.push(t.lines().zip(c.lines()).filter(|(a, b)| a != b).count());
        }
        // `int g = 1;`, `g = 2;`, the `if`, `g = 3;`, `return g;`; never `main` itself.
        assert_eq!(seen, [1, 1, 1, 1, 1], "{seen:?}");
        assert!(!parses(Language::C, "int main(void) { if ( }"));
        // A long initializer list becomes `{0}`, padded: every position after it stays.
        let t = "int a[6] = {10, 20, 30, 40, 50};\nint main(void) { return a[1]; }\n";
        let edits = (EXPRESSIONS.list)(Language::C, t).unwrap();
        assert_eq!(edits.len(), 1, "{edits:?}");
        let (a, b, by) = edits[0];
        let c = (EXPRESSIONS.apply)(Language::C, t, a, b, by).unwrap();
        assert_eq!(c.len(), t.len());
        assert!(c.starts_with("int a[6] = {0} "), "{c}");
        assert_eq!(c.find("int main"), t.find("int main"), "{c}");
        // A comment-only line goes in one candidate, a comment after code stays.
        let c = without_comment_lines(Language::C, "// a\nint main(void) { return 0; } // b\n");
        assert_eq!(
            c.as_deref(),
            Some("    \nint main(void) { return 0; } // b\n")
        );
    }

    #[test]
    fn a_python_statement_becomes_pass_on_its_own_lines() {
        let t = "def f(a):\n    if a:\n        b = [1,\n             2]\n    return a\nf(1)\n";
        let mut b = Blanking::new(Language::Python);
        let mut seen = Vec::new();
        while let Some(c) = b.next(t) {
            assert_eq!(c.lines().count(), t.lines().count(), "{c}");
            assert!(parses(Language::Python, &c), "{c}");
            seen.push(c);
        }
        // The `def`, the `if`, the assignment over two lines, the `return`, the call.
        assert_eq!(seen.len(), 5, "{seen:?}");
        let lines = |c: &str| {
            c.lines()
                .map(str::trim_end)
                .map(String::from)
                .collect::<Vec<_>>()
        };
        assert_eq!(lines(&seen[0]), ["pass", "", "", "", "", "f(1)"]);
        assert_eq!(
            lines(&seen[2]),
            [
                "def f(a):",
                "    if a:",
                "        pass",
                "",
                "    return a",
                "f(1)"
            ]
        );
        // Lone `pass` lines go where their block keeps a statement and no action names them.
        let t = "def f():\n    pass\n    return 1\npass\nf()\n";
        let c = without_lone_passes(t, &[]).unwrap();
        assert_eq!(
            c.lines().map(str::trim).collect::<Vec<_>>(),
            ["def f():", "", "return 1", "", "f()"]
        );
        let bp = Action::SetBreakpoint {
            line: 3,
            column: None,
        };
        let c = without_lone_passes(t, &[bp]).unwrap();
        assert_eq!(c.lines().nth(3), Some("pass"), "{c}");
        assert!(without_lone_passes("def f():\n    pass\n", &[]).is_none());
    }

    #[test]
    fn blanking_keeps_positions_and_compacting_maps_lines() {
        let t = "var a = 1;\nif (a) {\n  a = 2;\n}\nlog(a);\n";
        let b = blank(t, 11, 30);
        assert_eq!(b.len(), t.len());
        assert_eq!(b.lines().count(), t.lines().count());
        assert_eq!(b.find("log"), t.find("log"));
        let (c, map) = compact_where(&b, |_| true);
        assert_eq!(c, "var a = 1;\nlog(a);\n");
        assert_eq!(map, [Some(0), None, None, None, Some(1)]);
    }

    /// A crash that reduces to an uncaught exception (or a pause that reduces to another end)
    /// is not the finding; the same crash at another step kind is not either.
    #[test]
    fn a_termination_finding_keeps_how_each_side_ended() {
        use morphtrace_judges::dbdb::compare_outputs;
        use morphtrace_schema::{Divergence, DivergenceSide, PauseReason, PauseState};
        use morphtrace_schema::{Location, ProgramOutcome};
        let paused = Output::Paused(PauseState {
            location: Location::new(3, 1),
            reason: PauseReason::Step,
            engine_reason: None,
            stack: Vec::new(),
            exception: None,
            async_stack: None,
            condition: None,
        });
        let ended = |o: ProgramOutcome| Output::Finished { outcome: o };
        let crashed = ended(ProgramOutcome::EngineCrashed {
            message: "bun died of SIGABRT".into(),
        });
        let thrown = ended(ProgramOutcome::UncaughtException {
            message: "ReferenceError".into(),
            location: None,
        });
        let div = |a: &Output, b: &Output, action: Action| {
            let (kind, detail) = compare_outputs(a, b, &ComparisonPolicy::default()).unwrap();
            Divergence {
                kind,
                action_index: 3,
                action,
                sides: [a, b]
                    .iter()
                    .enumerate()
                    .map(|(i, o)| DivergenceSide {
                        engine: EngineRef(i as u16),
                        output: Some((*o).clone()),
                    })
                    .collect(),
                detail,
                groups: Vec::new(),
                suspect: None,
                continued: None,
                program_differs: None,
                pairs: Vec::new(),
                facts: Vec::new(),
            }
        };
        let original = div(&paused, &crashed, Action::Resume);
        // The detail names the side that ended, so that a triage rule can name its engine.
        assert_eq!(
            original.detail,
            "second side ended (engine-crashed), first side paused at 4:2"
        );
        let f = Finding::of(&original);
        assert!(f.matches(&original));
        assert!(f.matches(&div(&paused, &crashed, Action::Resume)));
        assert!(!f.matches(&div(&paused, &thrown, Action::Resume)));
        assert!(!f.matches(&div(&crashed, &paused, Action::Resume)));
        assert!(!f.matches(&div(&paused, &crashed, Action::StepOut)));
    }

    /// A reduction keeps the engine that stood alone and which sides placed the breakpoint:
    /// JavaScriptCore alone placing a breakpoint nowhere is not V8 alone placing one (the drift
    /// seen on held-out test262 programs, to an empty program).
    #[test]
    fn a_breakpoint_finding_keeps_its_lone_engine_and_who_placed_it() {
        use morphtrace_schema::{Divergence, DivergenceSide, Location, LocationSource};
        let set = |at: &[Location]| Output::BreakpointSet {
            id: BreakpointId(1),
            requested: Location::new(212, 0),
            actual: at.to_vec(),
            source: LocationSource::EngineReported,
            policy: None,
        };
        let div = |outputs: [&Output; 3], suspect: u16| Divergence {
            kind: DivergenceKind::BreakpointLocation,
            action_index: 3,
            action: Action::SetBreakpoint {
                line: 212,
                column: None,
            },
            sides: outputs
                .iter()
                .enumerate()
                .map(|(i, o)| DivergenceSide {
                    engine: EngineRef(i as u16),
                    output: Some((*o).clone()),
                })
                .collect(),
            detail: String::new(),
            groups: Vec::new(),
            suspect: Some(EngineRef(suspect)),
            continued: None,
            program_differs: None,
            pairs: Vec::new(),
            facts: Vec::new(),
        };
        let (here, there, none) = (
            set(&[Location::new(225, 0)]),
            set(&[Location::new(225, 5)]),
            set(&[]),
        );
        // Chromium and Firefox place it, Bun (engine 2) alone does not.
        let original = div([&here, &there, &none], 2);
        let f = Finding::of(&original);
        assert_eq!(f.placed, [true, true, false]);
        assert!(f.matches(&original));
        assert!(f.matches(&div([&there, &here, &none], 2)));
        // Chromium alone places one (the empty program): another finding.
        assert!(!f.matches(&div([&here, &none, &none], 0)));
        // Bun alone again, but placing one where the others place none: another finding.
        assert!(!f.matches(&div([&none, &none, &here], 2)));
    }

    #[test]
    // Lists of line ranges, one range each: what the candidates are.
    #[allow(clippy::single_range_in_vec_init)]
    fn blank_lines_go_all_at_once_then_run_by_run() {
        // Two statements under blank and whitespace-only lines, one run after the last.
        let t = "\n  \n\nf();\n\t\ng();\n\n\n";
        assert_eq!(blank_runs(t), [6..8, 4..5, 0..3]);
        let drops = blank_line_drops(t, 24);
        assert_eq!(drops[0], [6..8, 4..5, 0..3], "all first");
        assert_eq!(&drops[1..4], [[6..8], [4..5], [0..3]]);
        // Then each longer run but one line of it, then none (whitespace-only lines emptied).
        assert_eq!(&drops[4..6], [[7..8], [1..3]]);
        assert!(drops[6].is_empty());
        assert_eq!(compact_where("f();\n \t\n", |_| false).0, "f();\n\n");
        let (c, map) = compact_where(t, |k| (0..3).contains(&k));
        assert_eq!(c, "f();\n\ng();\n\n\n");
        assert_eq!(map[3], Some(0));
        assert_eq!(blank_line_drops(t, 2).len(), 2);
    }
}
