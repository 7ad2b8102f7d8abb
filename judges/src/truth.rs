//! Ground truth (issue 68; after Li et al., PLDI'20, "actionable programs"): a program that records
//! its own state at chosen points is paused there by one debugger, and what the debugger shows
//! is compared with what the program recorded: no second engine, so nothing is "by design".
//!
//! The contract with the program: a statement line that begins with a call
//! `__mt_truth(POINT, LINE, { a, b })` prints, for the first [`HITS`] times each point runs, one
//! console line: [`PREFIX`] and JSON `{point, line, hit, values, stack}` (`values`: each
//! variable's number as `String` gives it, `-0` kept, a plain object's as an object of those;
//! `stack`: the lines of the program's own synchronous frames, the point's first). A line
//! breakpoint on that line stops before the call, where the variables hold what it records.
//! The truth strategy sets breakpoints on some points' lines, removes each after [`HITS`]
//! pauses, and only resumes; so the pauses, in order, are the records of those points, in
//! order. `recorder/src/corpus/generated.rs` writes such programs (`truth:SEED`).
//! C programs' instrumented copies (`recorder/src/corpus/truth.rs`) call
//! `__mt_truth(POINT, LINE, FORMAT, values...)`, which prints typed integers and no `stack` (a C
//! program cannot read its own frames' lines), so their frames are not judged; instead `seq`
//! (which run a pause precedes, [`SEQ`]) and `site` (which copy of the line's code ran).

use morphtrace_schema::session::Warning;
use morphtrace_schema::trace::{EventKind, Output, PauseState, Trace};
use morphtrace_schema::value::{Key, Value};
use serde::Deserialize;
use serde_json::Value as Json;

/// The recording function's name in JavaScript programs.
pub const FUNCTION: &str = "__mt_truth";
/// Its name in Python programs (a builtin of the engines' sitecustomize; the dunder name is
/// not mangled inside a class body). Its records' values are typed (`Record::typed`).
pub const PY_FUNCTION: &str = "__mt_truth__";
/// The start of a record's console line.
pub const PREFIX: &str = "mt-truth ";
/// How many executions of each point are recorded (and paused at).
pub const HITS: u32 = 3;
/// The global in which C's recording function counts the points run so far: a pause before a
/// point shows one less than the point's record (`Record::seq`).
pub const SEQ: &str = "__mt_truth_seq";

/// The relations of ground truth, one per way a debugger can contradict the program.
pub mod relation {
    /// A variable shows another value than the program recorded.
    pub const VALUE: &str = "truth-value";
    /// A variable the program read is not shown, or shown without a value (optimized out,
    /// unavailable, uninitialized).
    pub const UNSHOWN: &str = "truth-unshown";
    /// The frames' lines differ from the program's own stack.
    pub const STACK: &str = "truth-stack";
    /// The program ran a point with a breakpoint, and the debugger did not pause there.
    pub const MISSED: &str = "truth-missed-pause";
    /// A missed pause (as [`MISSED`]) at a run of the point's line in another copy of its code
    /// than every run the debugger did pause at (the compiler duplicated the line within one
    /// block, e.g. an unrolled loop; the record's `site` says which copy ran): apart, so that
    /// the triage can judge a debugger that places one location per block without excusing a
    /// pause missed at the copy it does stop in.
    pub const MISSED_COPY: &str = "truth-missed-copy";
    /// The debugger paused where the program ran no point with a breakpoint.
    pub const STRAY: &str = "truth-stray-pause";
    /// A stray pause, by a breakpoint, inside a line whose breakpoint the debugger placed at the
    /// line's start, not right after a pause on that line in the same frame:
    /// the shape of JavaScriptCore's rule that a breakpoint at column 0 matches the first
    /// statement run on its line each time the line is entered from another (an arrow's body
    /// on that line, when called from elsewhere; a loop's head after its body). Entered means
    /// not right after a pause on that line in the same frame, unless the program recorded a
    /// point on another line in between. Apart from other stray pauses so that the
    /// triage can judge it on JavaScriptCore alone.
    pub const LINE_ENTRY: &str = "truth-line-entry-pause";
    /// The debugger paused at a breakpoint on a line it did not say the breakpoint is on.
    pub const PLACE: &str = "truth-breakpoint-place";
    /// The engine died while the program ran under the debugger (the program runs to its end
    /// without one: generated programs are run once before use).
    pub const CRASH: &str = "truth-engine-crash";
}

/// What the judge must know of the engine and the program besides the trace.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// The program's text.
    pub program: Option<&'a str>,
    /// The engine implements ECMAScript's proper tail calls (JavaScriptCore does, in strict
    /// code): a caller's frame is gone from `Error().stack` after a call in tail position,
    /// while its debugger shows the frame again (WebKit's ShadowChicken log, the inspector's
    /// tail-deleted frames; LayoutTests/inspector/debugger/tail-deleted-frames*.html).
    pub proper_tail_calls: bool,
}

/// One record the program printed.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Record {
    pub point: u32,
    /// 1-based, as people and the program's text count.
    pub line: u32,
    pub hit: u32,
    pub values: serde_json::Map<String, Json>,
    /// `None` where the program cannot read its own stack (C's recording function): the
    /// frames are then not judged.
    #[serde(default)]
    pub stack: Option<Vec<u32>>,
    /// How many points the program had run with this one (C's recording function; [`SEQ`]):
    /// a pause that shows [`SEQ`] as `seq - 1` stands right before this record's run, and no
    /// other. Where a record has none, pauses pair with records by line, in order.
    #[serde(default)]
    pub seq: Option<u64>,
    /// Where in the program's code the recording call was made (C: its return address, as an
    /// offset from the recording function's): runs of one point with different sites ran
    /// different copies of the line's code.
    #[serde(default)]
    pub site: Option<i64>,
    /// Values as JSON of their own type (Python's recorder: numbers, strings, booleans, null),
    /// not as JavaScript's `String` writes them; a string is then a string, never a number.
    #[serde(default)]
    pub typed: bool,
}

/// The records among a program's console lines, in order (a record ends its line); a line with the prefix that does not
/// parse is returned as an error (the program or its console capture is broken, not the debugger).
pub fn records(console: &[String]) -> Result<Vec<Record>, String> {
    console
        .iter()
        // Anywhere in a line: Python's records go straight to the process's output, after
        // what the program left of a line unfinished.
        .filter_map(|l| l.find(PREFIX).map(|i| &l[i + PREFIX.len()..]))
        .map(|json| {
            serde_json::from_str(json).map_err(|e| format!("unreadable record {json:?}: {e}"))
        })
        .collect()
}

/// The 0-based lines of the points a program text records at (a line that begins with a call
/// of [`FUNCTION`]), with each point's number.
pub fn points(text: &str) -> Vec<(u32, u32)> {
    let calls = [format!("{FUNCTION}("), format!("{PY_FUNCTION}(")];
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let l = l.trim_start();
            let rest = calls.iter().find_map(|c| l.strip_prefix(c.as_str()))?;
            let point = rest.split(',').next()?.trim().parse().ok()?;
            Some((point, i as u32))
        })
        .collect()
}

/// The warnings of one trace of the truth strategy: every pause compared with the record of the
/// same point and hit, every record of a point with a breakpoint matched with a pause.
/// `Err` when the records cannot be read (the session is then undecided, not judged).
pub fn judge(trace: &Trace, cx: Context<'_>) -> Result<Vec<Warning>, String> {
    let records = records(&trace.console)?;
    let tail_calls = tail_call_lines(cx);
    // The lines the session asked breakpoints for (0-based): their points' records are the
    // pauses to come, in order.
    let asked: std::collections::BTreeSet<u32> = trace
        .actions()
        .filter_map(|a| match a {
            morphtrace_schema::trace::Action::SetBreakpoint { line, .. } => Some(*line),
            _ => None,
        })
        .collect();
    // With each one's place among all records (which tell what ran between two pauses).
    let (at, expected): (Vec<usize>, Vec<&Record>) = records
        .iter()
        .enumerate()
        .filter(|(_, r)| r.line >= 1 && asked.contains(&(r.line - 1)))
        .unzip();
    let mut last_matched: Option<usize> = None;
    // Missed runs (their warnings' places), and each point's sites where a pause came.
    let mut missed: Vec<(usize, &Record)> = Vec::new();
    let mut paused_sites: std::collections::BTreeSet<(u32, Option<i64>)> = Default::default();
    let end = trace.outputs().find_map(|o| match o {
        Output::Finished { outcome } => Some(outcome),
        _ => None,
    });
    let completed = matches!(
        end,
        Some(morphtrace_schema::trace::ProgramOutcome::Completed)
    );
    let mut warnings = Vec::new();
    let warn = |relation: &str, index: Option<usize>, message: String| Warning {
        relation: relation.into(),
        round: 0,
        against: None,
        event_index: index.map(|i| i as u32),
        message,
    };
    // Where the debugger said each breakpoint is (lines), and the lines with one at their
    // start (column 0).
    let mut placed: std::collections::BTreeMap<morphtrace_schema::trace::BreakpointId, Vec<u32>> =
        Default::default();
    let mut at_line_start = std::collections::BTreeSet::new();
    // The line each breakpoint was asked for.
    let mut requested: std::collections::BTreeMap<morphtrace_schema::trace::BreakpointId, u32> =
        Default::default();
    for o in trace.outputs() {
        if let Output::BreakpointSet {
            id,
            requested: asked,
            actual,
            ..
        } = o
        {
            placed.insert(*id, actual.iter().map(|l| l.line).collect());
            at_line_start.extend(actual.iter().filter(|l| l.column == 0).map(|l| l.line));
            requested.insert(*id, asked.line);
        }
    }
    let mut next = 0;
    // The frame and line of the pause before: JavaScriptCore's line-entry pause comes from
    // another line, never from the same line of the same frame.
    let mut before: Option<(u32, String, usize)> = None;
    for (index, p) in pauses(trace) {
        let here = (
            p.location.line,
            p.stack
                .first()
                .map(|f| f.function.clone())
                .unwrap_or_default(),
            p.stack.len(),
        );
        let entered = before.replace(here.clone()) != Some(here);
        let line = p.location.line + 1;
        // The session only starts and resumes: a pause that says a step ended is one no
        // breakpoint made, wherever it is (also on a line whose record comes next).
        let asked = trace.events[..index]
            .iter()
            .rev()
            .find_map(|e| match &e.kind {
                EventKind::Action(a) => Some(a),
                _ => None,
            });
        if p.reason == morphtrace_schema::trace::PauseReason::Step
            && matches!(
                asked,
                Some(
                    morphtrace_schema::trace::Action::Resume
                        | morphtrace_schema::trace::Action::Start
                )
            )
        {
            warnings.push(warn(
                relation::STRAY,
                Some(index),
                format!(
                    "paused at {} by a step after {}, which asks for no step",
                    p.location,
                    asked.map_or("", |a| a.name())
                ),
            ));
        }
        if let morphtrace_schema::trace::PauseReason::Breakpoint { ids } = &p.reason {
            for id in ids {
                match placed.get(id) {
                    Some(lines) if !lines.is_empty() && !lines.contains(&p.location.line) => {
                        warnings.push(warn(
                            relation::PLACE,
                            Some(index),
                            format!(
                                "paused at {} by breakpoint #{}, which the debugger placed at \
                                 line(s) {:?}",
                                p.location,
                                id.0,
                                lines.iter().map(|l| l + 1).collect::<Vec<_>>()
                            ),
                        ))
                    }
                    _ => {}
                }
            }
        }
        // Where the program says which run comes next (C: the count of points run, shown at
        // the pause), the pause stands before that run's record or before none: a pause at a
        // line whose point does not run next is stray even where that point runs later (a
        // breakpoint on code of the line hoisted above the branch that decides whether the
        // line runs).
        let next_run = shown_seq(p)
            .and_then(|s| s.checked_add(1))
            .and_then(|s| records.iter().position(|r| r.seq == Some(s)))
            .map(|i| &records[i]);
        let found = match next_run {
            Some(r) if r.line == line => expected[next..].iter().position(|e| std::ptr::eq(*e, r)),
            Some(_) => None,
            None => expected[next..].iter().position(|r| r.line == line),
        };
        match found {
            Some(skip) => {
                for r in &expected[next..next + skip] {
                    missed.push((warnings.len(), *r));
                    warnings.push(warn(
                        relation::MISSED,
                        Some(index),
                        format!(
                            "the program ran point {} (line {}) for the {} time and the \
                             debugger did not pause there; it paused next at {}",
                            r.point,
                            r.line,
                            ordinal(r.hit),
                            p.location
                        ),
                    ));
                }
                let r = expected[next + skip];
                paused_sites.insert((r.point, r.site));
                last_matched = Some(at[next + skip]);
                next += skip + 1;
                warnings.extend(
                    compare(r, p, &tail_calls)
                        .into_iter()
                        .map(|(rel, m)| warn(rel, Some(index), m)),
                );
            }
            // The program runs this line's point next, though no breakpoint was asked for this
            // line (one asked elsewhere stops here; where the debugger said it is elsewhere,
            // `truth-breakpoint-place` says so): the pause is that run's, its values compare.
            None if next_run.is_some_and(|r| r.line == line) => {
                if let Some(r) = next_run {
                    warnings.extend(
                        compare(r, p, &tail_calls)
                            .into_iter()
                            .map(|(rel, m)| warn(rel, Some(index), m)),
                    );
                }
            }
            // The engine died: what it logged last may never have reached the debugger, so a
            // pause past the last record tells nothing.
            None if next == expected.len() && !completed && next_run.is_none() => break,
            // Paused where the debugger said it placed a breakpoint asked for on another line
            // (V8 gives code it does not compile, such as an `if (false)` body, no breakable
            // place, and slides the breakpoint to the next code, in another function): that
            // place records nothing, and the line asked for is judged by its own records (a
            // point there that ran and was not paused at is a missed pause).
            None if moved_here(p, &requested, &placed) => {}
            None => warnings.push(warn(
                // Where the program says which run came next, the pause is simply stray.
                if next_run.is_none()
                    && p.location.column > 0
                    && at_line_start.contains(&p.location.line)
                    && matches!(
                        p.reason,
                        morphtrace_schema::trace::PauseReason::Breakpoint { .. }
                    )
                    && (entered || left_since(&records, last_matched, at.get(next), line))
                {
                    relation::LINE_ENTRY
                } else {
                    relation::STRAY
                },
                Some(index),
                match next_run {
                    Some(r) => format!(
                        "paused at {} ({}) where the program next ran point {} at line {}, its \
                         {} time (the pause shows {SEQ} = {})",
                        p.location,
                        p.reason.name(),
                        r.point,
                        r.line,
                        ordinal(r.hit),
                        r.seq.unwrap_or(1).saturating_sub(1)
                    ),
                    None => format!(
                        "paused at {} ({}) where the program ran no point with a breakpoint{}",
                        p.location,
                        p.reason.name(),
                        match expected.get(next) {
                            Some(r) => format!(
                                " (next: point {} at line {}, its {} time)",
                                r.point,
                                r.line,
                                ordinal(r.hit)
                            ),
                            None => String::new(),
                        }
                    ),
                },
            )),
        }
    }
    if let Some(morphtrace_schema::trace::ProgramOutcome::EngineCrashed { message }) = end {
        warnings.push(warn(
            relation::CRASH,
            trace
                .events
                .iter()
                .rposition(|e| matches!(e.kind, EventKind::Output(Output::Finished { .. }))),
            format!("the engine died while the program ran under the debugger: {message}"),
        ));
    }
    // Records past the last pause count only when the program ran to its end under the
    // debugger: a session cut short (action limit, time) ends its pauses early.
    if completed {
        for r in &expected[next..] {
            missed.push((warnings.len(), *r));
            warnings.push(warn(
                relation::MISSED,
                None,
                format!(
                    "the program ran point {} (line {}) for the {} time and the debugger did \
                     not pause there; it ran to its end",
                    r.point,
                    r.line,
                    ordinal(r.hit)
                ),
            ));
        }
    }
    // A missed run at another copy of its line than every run paused at there.
    for (i, r) in missed {
        let Some(site) = r.site else { continue };
        let paused: Vec<i64> = paused_sites
            .iter()
            .filter(|(p, _)| *p == r.point)
            .filter_map(|(_, s)| *s)
            .collect();
        if !paused.is_empty() && !paused.contains(&site) {
            warnings[i].relation = relation::MISSED_COPY.into();
            warnings[i].message.push_str(
                " (that run's code is another copy of the line than every pause's there)",
            );
        }
    }
    Ok(warnings)
}

/// Whether the program recorded a point on another line than `line` (1-based) after the
/// record last paused at and before the next one a pause is due for: it left the line and
/// came back (a loop's head, after its body), which enters the line again.
fn left_since(records: &[Record], last: Option<usize>, next: Option<&usize>, line: u32) -> bool {
    let from = last.map_or(0, |i| i + 1);
    let to = next.copied().unwrap_or(records.len()).max(from);
    records[from..to].iter().any(|r| r.line != line)
}

/// The count of points run that the pause shows ([`SEQ`]), if the program keeps one.
fn shown_seq(p: &PauseState) -> Option<u64> {
    let v = p
        .top_scopes()
        .iter()
        .flat_map(|s| &s.variables)
        .find(|v| v.name == SEQ)?;
    match &v.value {
        Value::Number(n) if *n >= 0.0 && n.fract() == 0.0 => Some(*n as u64),
        Value::BigInt(digits) => digits.parse().ok(),
        _ => None,
    }
}

/// Whether pause `p` is by a breakpoint asked for on another line that the debugger said it
/// placed at the pause's line.
fn moved_here(
    p: &PauseState,
    requested: &std::collections::BTreeMap<morphtrace_schema::trace::BreakpointId, u32>,
    placed: &std::collections::BTreeMap<morphtrace_schema::trace::BreakpointId, Vec<u32>>,
) -> bool {
    let morphtrace_schema::trace::PauseReason::Breakpoint { ids } = &p.reason else {
        return false;
    };
    ids.iter().any(|id| {
        requested.get(id).is_some_and(|l| *l != p.location.line)
            && placed
                .get(id)
                .is_some_and(|lines| lines.contains(&p.location.line))
    })
}

/// The trace's pauses with their event indices.
fn pauses(trace: &Trace) -> impl Iterator<Item = (usize, &PauseState)> {
    trace
        .events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            EventKind::Output(Output::Paused(p)) => Some((i, p)),
            _ => None,
        })
}

fn ordinal(n: u32) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        n => format!("{n}th"),
    }
}

/// What the pause shows against what the program recorded there: (relation, message) for each
/// contradiction.
/// The 1-based lines whose statement is a `return` of a call, in a program whose code is
/// strict throughout, on an engine with proper tail calls: the frames that may be missing from
/// the program's own stack.
fn tail_call_lines(cx: Context<'_>) -> Vec<u32> {
    let Some(text) = cx.program.filter(|_| cx.proper_tail_calls) else {
        return Vec::new();
    };
    let strict = text
        .lines()
        .next()
        .is_some_and(|l| matches!(l.trim(), "\"use strict\";" | "'use strict';"));
    if !strict {
        return Vec::new();
    }
    let call = format!("{FUNCTION}(");
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let mut s = l.trim();
            // After the recording call the line may begin with.
            if s.starts_with(&call) {
                s = s.split_once("); ").map_or("", |(_, rest)| rest);
            }
            // After the labels the statement may carry (`test262: return f(n - 1);`).
            while let Some((label, rest)) = s.split_once(':') {
                let is_label = !label.is_empty()
                    && label
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
                if !is_label || rest.starts_with(':') {
                    break;
                }
                s = rest.trim_start();
            }
            // The statement, or the last block on the line (`if (c) { return f(); }`, `else {
            // return f(); }`: the block's last statement is in tail position too).
            let last = match s.strip_prefix("return ") {
                Some(e) => Some(e),
                None => s
                    .rfind("{ return ")
                    .map(|i| s[i + "{ return ".len()..].trim_end_matches([' ', '}'])),
            };
            last.is_some_and(|e| {
                e.ends_with(");") && !e.contains('?') && !e.contains("||") && !e.contains("&&")
            })
        })
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

/// Whether the debugger's frames (`shown`) are the program's own stack (`own`), but for frames
/// at lines that call in tail position (`tail_calls`), which the program's stack may lack.
fn same_stack(shown: &[u32], own: &[u32], tail_calls: &[u32]) -> bool {
    let mut own = own.iter().peekable();
    for line in shown {
        if own.peek() == Some(&line) {
            own.next();
        } else if !tail_calls.contains(line) {
            return false;
        }
    }
    own.next().is_none()
}

fn compare(r: &Record, p: &PauseState, tail_calls: &[u32]) -> Vec<(&'static str, String)> {
    let at = format!(
        "point {} (line {}), {} time",
        r.point,
        r.line,
        ordinal(r.hit)
    );
    let mut out = Vec::new();
    let scopes = p.top_scopes();
    for (name, want) in &r.values {
        let shown = scopes
            .iter()
            .flat_map(|s| &s.variables)
            .find(|v| &v.name == name);
        match shown {
            None => out.push((
                relation::UNSHOWN,
                format!(
                    "{at}: `{name}` is not shown; the program read {}",
                    show(want, r.typed)
                ),
            )),
            Some(v) => match if r.typed {
                differs_typed(want, &v.value)
            } else {
                differs(want, &v.value)
            } {
                None => {}
                Some(Mismatch::NoValue) => out.push((
                    relation::UNSHOWN,
                    format!(
                        "{at}: `{name}` is shown as {}; the program read {}",
                        v.value,
                        show(want, r.typed)
                    ),
                )),
                Some(Mismatch::Other) => out.push((
                    relation::VALUE,
                    format!(
                        "{at}: `{name}` is shown as {}; the program read {}",
                        v.value,
                        show(want, r.typed)
                    ),
                )),
            },
        }
    }
    let frames: Vec<u32> = p.stack.iter().map(|f| f.location.line + 1).collect();
    if let Some(own) = r
        .stack
        .as_ref()
        .filter(|own| !same_stack(&frames, own, tail_calls))
    {
        out.push((
            relation::STACK,
            format!(
                "{at}: the debugger's frames are at lines {frames:?}; the program's own stack \
                 at {own:?}"
            ),
        ));
    }
    out
}

enum Mismatch {
    /// The debugger gave no value where the program read one.
    NoValue,
    Other,
}

/// A recorded value in a message: a typed record's as JSON (a string quoted), JavaScript's as
/// the text it recorded.
fn show(want: &Json, typed: bool) -> String {
    match want {
        Json::String(s) if !typed => s.clone(),
        other => other.to_string(),
    }
}

/// Whether `shown` contradicts what the program recorded (`want`): a number as JavaScript's
/// `String` writes it, or an object of those. An object the debugger did not expand (depth)
/// cannot contradict.
fn differs(want: &Json, shown: &Value) -> Option<Mismatch> {
    match (want, shown) {
        (_, Value::OptimizedOut | Value::Unavailable | Value::Uninitialized | Value::Undefined) => {
            Some(Mismatch::NoValue)
        }
        (Json::String(w), Value::Number(n)) => (js_string(*n) != *w).then_some(Mismatch::Other),
        (Json::Object(fields), Value::Object { entries, .. }) => {
            let entries = entries.as_ref()?;
            for (k, w) in fields {
                let e = entries
                    .iter()
                    .find(|e| matches!(&e.key, Key::Name(n) if n == k));
                match e {
                    None => return Some(Mismatch::Other),
                    Some(e) => {
                        if let Some(m) = differs(w, &e.value) {
                            return Some(m);
                        }
                    }
                }
            }
            None
        }
        _ => Some(Mismatch::Other),
    }
}

/// Whether `shown` contradicts a typed record's value (`want`): a number equal as a double
/// (and of the same sign at zero), an integer beyond 2**53 digit for digit (C's; Python
/// records none), a string, a boolean, `null` for Python's `None`.
fn differs_typed(want: &Json, shown: &Value) -> Option<Mismatch> {
    let same = match (want, shown) {
        (_, Value::OptimizedOut | Value::Unavailable | Value::Uninitialized | Value::Undefined) => {
            return Some(Mismatch::NoValue)
        }
        (Json::Number(w), Value::Number(n)) => w
            .as_f64()
            .is_some_and(|w| w == *n && w.is_sign_negative() == n.is_sign_negative()),
        // An integer beyond 2**53 (C's 64-bit ones), exact on both sides: decimal digits.
        (Json::Number(w), Value::BigInt(digits)) => {
            (w.is_i64() || w.is_u64()) && w.to_string() == *digits
        }
        (Json::String(w), Value::String(s)) => w == s,
        (Json::Bool(w), Value::Bool(b)) => w == b,
        (Json::Null, Value::Null) => true,
        _ => false,
    };
    (!same).then_some(Mismatch::Other)
}

/// A number as JavaScript's `String` writes it, for the integers the programs record (and
/// `-0`, which the recording function keeps); other numbers in Rust's shortest form, which
/// agrees with JavaScript's for the values these programs compute.
fn js_string(n: f64) -> String {
    if n == 0.0 && n.is_sign_negative() {
        "-0".into()
    } else if n.fract() == 0.0 && n.abs() < 1e21 {
        format!("{}", n as i64)
    } else if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        format!("{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::engine::EngineRef;
    use morphtrace_schema::trace::{Action, Event, Frame, Location, PauseReason, ProgramOutcome};

    fn pause(line: u32, vars: &[(&str, Value)], stack: &[u32]) -> Output {
        Output::Paused(PauseState {
            location: Location::new(line, 2),
            reason: PauseReason::Breakpoint { ids: Vec::new() },
            engine_reason: None,
            stack: stack
                .iter()
                .enumerate()
                .map(|(i, l)| Frame {
                    function: String::new(),
                    location: Location::new(*l - 1, 2),
                    scopes: if i == 0 {
                        vec![morphtrace_testkit::pauses::local_scope(vars)]
                    } else {
                        Vec::new()
                    },
                })
                .collect(),
            exception: None,
            async_stack: None,
            condition: None,
        })
    }

    fn trace(breakpoints: &[u32], outputs: Vec<Output>, console: &[&str]) -> Trace {
        let mut events: Vec<Event> = breakpoints
            .iter()
            .map(|l| Event {
                at_us: 0,
                kind: EventKind::Action(Action::SetBreakpoint {
                    line: *l,
                    column: None,
                }),
            })
            .collect();
        events.extend(outputs.into_iter().map(|o| Event {
            at_us: 0,
            kind: EventKind::Output(o),
        }));
        events.push(Event {
            at_us: 0,
            kind: EventKind::Output(Output::Finished {
                outcome: ProgramOutcome::Completed,
            }),
        });
        Trace {
            engine: EngineRef(0),
            events,
            console: console.iter().map(|s| s.to_string()).collect(),
            logs: Vec::new(),
        }
    }

    /// The relations `judge` finds in `t`, in order.
    fn relations_of(t: &Trace) -> Vec<String> {
        judge(t, Context::default())
            .unwrap()
            .into_iter()
            .map(|w| w.relation)
            .collect()
    }

    const R1: &str = r#"mt-truth {"point":1,"line":5,"hit":1,"values":{"a":"3","o":{"x":"1","y":"-0"}},"stack":[5,9]}"#;
    const R2: &str = r#"mt-truth {"point":2,"line":7,"hit":1,"values":{"a":"4"},"stack":[7]}"#;

    fn pair(x: f64, y: f64) -> Value {
        Value::Object {
            kind: morphtrace_schema::value::ObjectKind::Object,
            class: "Object".into(),
            description: None,
            entries: Some(vec![
                morphtrace_schema::value::Entry {
                    key: Key::Name("x".into()),
                    value: Value::Number(x),
                },
                morphtrace_schema::value::Entry {
                    key: Key::Name("y".into()),
                    value: Value::Number(y),
                },
            ]),
            truncated: false,
        }
    }

    #[test]
    fn a_debugger_that_shows_what_the_program_recorded_gets_no_warning() {
        let t = trace(
            &[4, 6],
            vec![
                pause(
                    4,
                    &[("a", Value::Number(3.0)), ("o", pair(1.0, -0.0))],
                    &[5, 9],
                ),
                pause(6, &[("a", Value::Number(4.0))], &[7]),
            ],
            &["checksum 1", R1, R2],
        );
        assert_eq!(judge(&t, Context::default()).unwrap(), Vec::new());
    }

    #[test]
    fn each_contradiction_is_its_own_relation() {
        // A number one too high, and +0 for -0 in a field.
        let t = trace(
            &[4],
            vec![pause(
                4,
                &[("a", Value::Number(4.0)), ("o", pair(1.0, 0.0))],
                &[5, 9],
            )],
            &[R1],
        );
        assert_eq!(relations_of(&t), [relation::VALUE, relation::VALUE]);
        // A hidden local, one optimized out, a caller's frame lost.
        let t = trace(
            &[4],
            vec![pause(4, &[("o", Value::OptimizedOut)], &[5])],
            &[R1],
        );
        assert_eq!(
            relations_of(&t),
            [relation::UNSHOWN, relation::UNSHOWN, relation::STACK]
        );
        // A swallowed pause, then a pause one line off.
        let t = trace(
            &[4, 6],
            vec![pause(7, &[("a", Value::Number(4.0))], &[8])],
            &[R1, R2],
        );
        assert_eq!(
            relations_of(&t),
            [relation::STRAY, relation::MISSED, relation::MISSED]
        );
        // The record of a point without a breakpoint asks for no pause.
        let t = trace(
            &[6],
            vec![pause(6, &[("a", Value::Number(4.0))], &[7])],
            &[R1, R2],
        );
        assert_eq!(relations_of(&t), Vec::<String>::new());
    }

    /// A pause by a breakpoint away from where the debugger placed it, and a stray pause inside
    /// a line whose breakpoint stands at the line's start: each its own relation.
    #[test]
    fn breakpoint_places_are_held_to_what_the_debugger_said() {
        use morphtrace_schema::trace::{BreakpointId, LocationSource};
        let set = |id: u32, line: u32, column: u32| Output::BreakpointSet {
            id: BreakpointId(id),
            requested: Location::new(line, 0),
            actual: vec![Location::new(line, column)],
            source: LocationSource::EngineReported,
            policy: None,
        };
        let by = |id: u32, line: u32, column: u32| {
            let Output::Paused(mut p) = pause(line, &[("a", Value::Number(4.0))], &[line + 1])
            else {
                unreachable!()
            };
            p.location.column = column;
            p.reason = PauseReason::Breakpoint {
                ids: vec![BreakpointId(id)],
            };
            Output::Paused(p)
        };
        let relations = |outputs: Vec<Output>| relations_of(&trace(&[6], outputs, &[R2]));
        assert_eq!(
            relations(vec![set(0, 6, 0), by(0, 6, 0)]),
            Vec::<String>::new()
        );
        let in_arrow = match by(0, 6, 30) {
            Output::Paused(mut p) => {
                p.stack[0].function = "add".into();
                p.stack.push(p.stack[0].clone());
                Output::Paused(p)
            }
            _ => unreachable!(),
        };
        assert_eq!(
            relations(vec![set(0, 6, 0), by(0, 6, 0), in_arrow]),
            [relation::LINE_ENTRY]
        );
        // Right after a pause on the same line in the same frame: no line was entered.
        assert_eq!(
            relations(vec![set(0, 6, 0), by(0, 6, 0), by(0, 6, 30)]),
            [relation::STRAY]
        );
        // Unless the program recorded a point on another line in between (a loop's body, and
        // back to its head on the breakpoint's line: JavaScriptCore pauses there again).
        let body = r#"mt-truth {"point":3,"line":9,"hit":1,"values":{},"stack":[9]}"#;
        assert_eq!(
            relations_of(&trace(
                &[6],
                vec![set(0, 6, 0), by(0, 6, 0), by(0, 6, 30)],
                &[R2, body]
            )),
            [relation::LINE_ENTRY]
        );
        assert_eq!(
            relations(vec![set(0, 6, 2), by(0, 6, 2), by(0, 6, 30)]),
            [relation::STRAY]
        );
        // A step's pause there (a debugger that pauses where nothing asked) stays a stray.
        let step = match by(0, 6, 30) {
            Output::Paused(mut p) => {
                p.reason = PauseReason::Step;
                Output::Paused(p)
            }
            _ => unreachable!(),
        };
        assert_eq!(
            relations(vec![set(0, 6, 0), by(0, 6, 0), step]),
            [relation::STRAY]
        );
        assert_eq!(
            relations(vec![set(0, 7, 0), by(0, 6, 0)]),
            [relation::PLACE]
        );
        // Asked for on line 7 (0-based 6) and placed on line 31, where it pauses: no record
        // there to judge, and none of line 7 ran (R2 is line 7's: it ran, so it is missed).
        let moved = |line: u32| Output::BreakpointSet {
            id: BreakpointId(0),
            requested: Location::new(6, 0),
            actual: vec![Location::new(line, 0)],
            source: LocationSource::EngineReported,
            policy: None,
        };
        let t =
            |console: &[&str]| relations_of(&trace(&[6], vec![moved(30), by(0, 30, 0)], console));
        assert_eq!(t(&[]), Vec::<String>::new());
        assert_eq!(t(&[R2]), [relation::MISSED]);
        // Not where the debugger said it placed it: a stray pause, as before.
        assert_eq!(
            relations_of(&trace(&[6], vec![moved(29), by(0, 30, 0)], &[])),
            [relation::PLACE, relation::STRAY]
        );
    }

    /// JavaScriptCore's debugger shows a frame that called in tail position in strict code,
    /// which the program's own stack lacks: excused at such a line only, on such an engine only.
    #[test]
    fn a_tail_deleted_frame_is_excused_where_a_strict_program_returns_a_call() {
        let text = "\"use strict\";\nfunction g() {\n  return 1;\n}\nfunction f() {\n  __mt_truth(1, 6, {}); return g();\n}\nf();\n";
        let jsc = Context {
            program: Some(text),
            proper_tail_calls: true,
        };
        assert_eq!(tail_call_lines(jsc), [6]);
        // A labeled return (test262's tco tests), and not an object key or `a ? b : c`.
        let labeled = text.replace("return g();", "test262: return g();");
        let cx = |t| Context {
            program: Some(t),
            proper_tail_calls: true,
        };
        assert_eq!(tail_call_lines(cx(&labeled)), [6]);
        let ternary = text.replace("return g();", "x ? y : return g();");
        assert_eq!(tail_call_lines(cx(&ternary)), Vec::<u32>::new());
        // The last statement of a block on the line (test262's tco tests), not one that
        // returns a call's result combined with something else.
        for (shape, tail) in [
            ("if (true) { return g(); }", true),
            ("if (false) { } else { return g(); }", true),
            ("if (c) { return g() && h(); }", false),
        ] {
            let t = text.replace("return g();", shape);
            let jsc = Context {
                program: Some(&t),
                proper_tail_calls: true,
            };
            assert_eq!(tail_call_lines(jsc).len(), usize::from(tail), "{shape}");
        }
        assert!(same_stack(&[3, 6, 8], &[3, 8], &[6]));
        // Another frame lost, or the tail-calling frame where the program has none to lose.
        assert!(!same_stack(&[3, 6, 8], &[3], &[6]));
        assert!(!same_stack(&[3, 7, 8], &[3, 8], &[6]));
        assert!(!same_stack(&[3], &[3, 8], &[6]));
        let sloppy = text.replacen("\"use strict\";", "let s;", 1);
        let v8 = Context {
            program: Some(text),
            proper_tail_calls: false,
        };
        assert_eq!(tail_call_lines(v8), Vec::<u32>::new());
        assert_eq!(
            tail_call_lines(Context {
                program: Some(&sloppy),
                proper_tail_calls: true
            }),
            Vec::<u32>::new()
        );
    }

    /// A crash is a warning of its own, and pauses past the last record that reached the
    /// debugger are not strays.
    #[test]
    fn an_engine_crash_is_a_warning_and_leaves_later_pauses_unjudged() {
        let mut t = trace(
            &[4, 6],
            vec![
                pause(
                    4,
                    &[("a", Value::Number(3.0)), ("o", pair(1.0, -0.0))],
                    &[5, 9],
                ),
                pause(6, &[("a", Value::Number(4.0))], &[7]),
            ],
            &[R1],
        );
        let last = t.events.len() - 1;
        t.events[last].kind = EventKind::Output(Output::Finished {
            outcome: ProgramOutcome::EngineCrashed {
                message: "bun died of SIGABRT".into(),
            },
        });
        let w = judge(&t, Context::default()).unwrap();
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].relation, relation::CRASH);
        assert!(
            w[0].message.ends_with("bun died of SIGABRT"),
            "{}",
            w[0].message
        );
    }

    #[test]
    fn points_are_read_from_the_program_text_and_broken_records_are_errors() {
        let text = "let a = 1;\n  __mt_truth(1, 2, { a }); a++;\n__mt_truth(2, 3, {}); mix(a);\n";
        assert_eq!(points(text), [(1, 1), (2, 2)]);
        assert!(records(&["mt-truth {".to_string()]).is_err());
        assert_eq!(records(&["checksum 3".to_string()]).unwrap(), Vec::new());
        // After what the program left of a line unfinished.
        let after = format!("h_imghdr.py: {R2}");
        assert_eq!(records(&[after]).unwrap().len(), 1);
    }

    #[test]
    fn a_typed_record_compares_values_of_their_own_type_to_the_last_bit() {
        // Python's recorder: a float to its last digit (read back as the double written), a
        // string that is not a number, a boolean that is not an integer, None.
        let r = r#"mt-truth {"point":1,"line":5,"hit":1,"values":{"x":0.9092974268256816,"s":"5","b":true,"n":null,"z":-0.0},"stack":[5],"typed":true}"#;
        let right = [
            ("x", Value::Number(0.909_297_426_825_681_6)),
            ("s", Value::String("5".into())),
            ("b", Value::Bool(true)),
            ("n", Value::Null),
            ("z", Value::Number(-0.0)),
        ];
        let t = trace(&[4], vec![pause(4, &right, &[5])], &[r]);
        assert_eq!(relations_of(&t), Vec::<String>::new());
        // One bit off, a number for the string, 1 for True, a string for None, +0 for -0: each
        // a wrong value.
        let wrong = [
            ("x", Value::Number(0.909_297_426_825_681_7)),
            ("s", Value::Number(5.0)),
            ("b", Value::Number(1.0)),
            ("n", Value::String("None".into())),
            ("z", Value::Number(0.0)),
        ];
        let t = trace(&[4], vec![pause(4, &wrong, &[5])], &[r]);
        let warnings = judge(&t, Context::default()).unwrap();
        assert_eq!(
            warnings
                .iter()
                .map(|w| w.relation.as_str())
                .collect::<Vec<_>>(),
            [relation::VALUE; 5]
        );
        assert!(
            warnings.iter().any(|w| w
                .message
                .contains("`s` is shown as 5; the program read \"5\"")),
            "{warnings:?}"
        );
        // The Python recorder's call starts a point as JavaScript's does.
        assert_eq!(points("x = 1\n__mt_truth__(1, 2); y = 2\n"), [(1, 1)]);
    }

    #[test]
    fn a_c_record_compares_64_bit_integers_digit_for_digit_and_no_frames() {
        // C's recorder: typed integers, 64-bit ones beyond 2**53 among them, and no stack.
        let r = r#"mt-truth {"point":1,"line":5,"hit":1,"values":{"u":18446744073709551615,"i":-9007199254740993,"k":7},"typed":true}"#;
        let right = [
            ("u", Value::BigInt("18446744073709551615".into())),
            ("i", Value::BigInt("-9007199254740993".into())),
            ("k", Value::Number(7.0)),
        ];
        // Frames at any lines: the program recorded none.
        let t = trace(&[4], vec![pause(4, &right, &[5, 30])], &[r]);
        assert_eq!(relations_of(&t), Vec::<String>::new());
        // One off in the last digit (the same double), and a number shown where C read 7: wrong.
        let wrong = [
            ("u", Value::BigInt("18446744073709551614".into())),
            ("i", Value::BigInt("-9007199254740992".into())),
            ("k", Value::BigInt("8".into())),
        ];
        let t = trace(&[4], vec![pause(4, &wrong, &[5])], &[r]);
        assert_eq!(relations_of(&t), [relation::VALUE; 3]);
    }

    #[test]
    fn a_pause_that_shows_the_count_of_points_run_pairs_with_the_run_that_comes_next() {
        // `fib(2)` runs point 1 and then point 3 (line 9); `fib(1)` then runs point 2 (line 7).
        // A breakpoint on line 7 placed on code hoisted above `if (n < 2)` pauses in `fib(2)`
        // too, before point 3's run: stray, though line 7's next record comes later.
        let console = [
            r#"mt-truth {"point":1,"line":5,"hit":1,"seq":1,"values":{"n":2},"typed":true}"#,
            r#"mt-truth {"point":3,"line":9,"hit":1,"seq":2,"values":{"n":2},"typed":true}"#,
            r#"mt-truth {"point":2,"line":7,"hit":1,"seq":3,"values":{"n":1},"typed":true}"#,
        ];
        let at = |n: f64, seq: f64| {
            pause(
                6,
                &[("n", Value::Number(n)), (SEQ, Value::Number(seq))],
                &[7],
            )
        };
        let t = trace(&[6], vec![at(2.0, 1.0), at(1.0, 2.0)], &console);
        let w = judge(&t, Context::default()).unwrap();
        assert_eq!(
            w.iter().map(|w| w.relation.as_str()).collect::<Vec<_>>(),
            [relation::STRAY]
        );
        assert!(
            w[0].message
                .contains("where the program next ran point 3 at line 9, its first time"),
            "{}",
            w[0].message
        );
        // The same pauses without the count pair by line, in order: the stray pause takes
        // line 7's record and shows a wrong value, and the right pause is stray.
        let plain = |n: f64| pause(6, &[("n", Value::Number(n))], &[7]);
        let t = trace(&[6], vec![plain(2.0), plain(1.0)], &console);
        assert_eq!(relations_of(&t), [relation::VALUE, relation::STRAY]);
        // A pause whose count names the run of its own line's point is that run's.
        let t = trace(&[6], vec![at(1.0, 2.0)], &console);
        assert_eq!(relations_of(&t), Vec::<String>::new());
        // Also at a line no breakpoint was asked for (one asked for line 7 stops at line 9,
        // right before its point runs): not stray, and its values compare.
        let at9 = |n: f64| {
            pause(
                8,
                &[("n", Value::Number(n)), (SEQ, Value::Number(1.0))],
                &[9],
            )
        };
        let t = trace(&[6], vec![at9(2.0), at(1.0, 2.0)], &console);
        assert_eq!(relations_of(&t), Vec::<String>::new());
        let t = trace(&[6], vec![at9(5.0), at(1.0, 2.0)], &console);
        assert_eq!(relations_of(&t), [relation::VALUE]);
        // The program is untrusted: a record it forges with a count of 0, a pause showing the
        // largest count, judge without a panic.
        let forged = [
            r#"mt-truth {"point":2,"line":7,"hit":1,"seq":0,"values":{},"typed":true}"#,
            r#"mt-truth {"point":2,"line":7,"hit":2,"seq":18446744073709551615,"values":{},"typed":true}"#,
        ];
        let huge = pause(
            6,
            &[(SEQ, Value::BigInt("18446744073709551615".into()))],
            &[7],
        );
        let at_zero = pause(6, &[(SEQ, Value::Number(0.0))], &[7]);
        let t = trace(&[6], vec![huge, at_zero], &forged);
        assert!(judge(&t, Context::default()).is_ok());
    }

    #[test]
    fn a_run_missed_at_another_copy_of_its_line_is_apart_from_one_missed_where_pauses_come() {
        // Line 7's code, duplicated by the compiler (an unrolled loop): the first and third runs
        // at one copy (site 40), the second at another (site 90). The debugger paused at the
        // first run only.
        let console = [
            r#"mt-truth {"point":2,"line":7,"hit":1,"seq":1,"site":40,"values":{},"typed":true}"#,
            r#"mt-truth {"point":2,"line":7,"hit":2,"seq":2,"site":90,"values":{},"typed":true}"#,
            r#"mt-truth {"point":2,"line":7,"hit":3,"seq":3,"site":40,"values":{},"typed":true}"#,
        ];
        let first = pause(6, &[(SEQ, Value::Number(0.0))], &[7]);
        let t = trace(&[6], vec![first.clone()], &console);
        let w = judge(&t, Context::default()).unwrap();
        assert_eq!(
            w.iter().map(|w| w.relation.as_str()).collect::<Vec<_>>(),
            [relation::MISSED_COPY, relation::MISSED]
        );
        assert!(w[0].message.contains("second time"), "{}", w[0].message);
        // Without sites (JavaScript, Python) every missed run is a missed pause.
        let plain: Vec<String> = console
            .iter()
            .map(|l| l.replace(r#""site":40,"#, "").replace(r#""site":90,"#, ""))
            .collect();
        let plain: Vec<&str> = plain.iter().map(String::as_str).collect();
        let t = trace(&[6], vec![first], &plain);
        assert_eq!(relations_of(&t), [relation::MISSED, relation::MISSED]);
    }

    #[test]
    fn a_step_pause_after_a_resume_is_stray_even_where_a_record_comes_next() {
        let mut step = pause(4, &[("a", Value::Number(4.0))], &[7]);
        if let Output::Paused(p) = &mut step {
            p.reason = PauseReason::Step;
        }
        let mut t = trace(&[6], vec![step], &[R2]);
        let resume = Event {
            at_us: 0,
            kind: EventKind::Action(Action::Resume),
        };
        t.events.insert(1, resume.clone());
        // At line 7, whose record is next: the values agree, the reason does not.
        if let EventKind::Output(Output::Paused(p)) = &mut t.events[2].kind {
            p.location = Location::new(6, 2);
        }
        assert_eq!(relations_of(&t), [relation::STRAY]);
        // After a step asked for, the same pause is the record's.
        t.events[1].kind = EventKind::Action(Action::StepOver);
        assert_eq!(relations_of(&t), Vec::<String>::new());
    }
}
