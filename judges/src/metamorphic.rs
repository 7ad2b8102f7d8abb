//! Metamorphic relations between a debugging session and its follow-up (ISSTA 2019, Table 1), as
//! pure functions over two traces. The recorder judges every follow-up as soon as it ends (to stop
//! a chain at the first violation); the analyzer re-judges archives offline with the same code.
//!
//! What a transformation changed is in its [`TransformationRecord`]: the line mapping, and in its
//! parameters the column edits, the actions it inserted or dropped, where extra pauses are
//! allowed and the fresh parameter a function gained. [`Expectation`] reads them back.

use crate::dbdb::{compare_outputs, ComparisonPolicy};
use crate::warning::{Aside, Message, Thrower};
use morphtrace_schema::program::LineMap;
use morphtrace_schema::session::{DivergenceKind, TransformationRecord};
use morphtrace_schema::trace::{
    Action, EventKind, Location, Output, PauseReason, PauseState, Trace,
};
use morphtrace_schema::value::Value;
use std::collections::{BTreeMap, BTreeSet};

/// A transformation of a session into its follow-up: Table 1's and the modern ones. The archive
/// records it by [`Transformation::name`]; what the follow-up must show is its
/// [`Transformation::relation`], judged by [`judge`] from the transformation's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Transformation {
    AddBreakpoint,
    ContinueToStep,
    Sliding,
    InsertDeadCode,
    RemoveDeadCode,
    AddParameter,
    AddNoOp,
    IntegerLiteral,
    BooleanLiteral,
    ConditionTrue,
    ConditionFalse,
    ConditionLocal,
    EvaluateLocal,
    PauseOnAll,
    Logpoint,
    ContinueAsBreakpoint,
    SetAsCode,
    RestartAsReentry,
}

impl Transformation {
    /// Every transformation of Table 1, action transformations first.
    pub const TABLE1: [Transformation; 9] = [
        Transformation::AddBreakpoint,
        Transformation::ContinueToStep,
        Transformation::Sliding,
        Transformation::InsertDeadCode,
        Transformation::RemoveDeadCode,
        Transformation::AddParameter,
        Transformation::AddNoOp,
        Transformation::IntegerLiteral,
        Transformation::BooleanLiteral,
    ];

    /// Relations over the actions debuggers have beyond the 2019 paper's five (conditions,
    /// evaluation, exception pauses, logpoints, continuing to a location, set variables,
    /// restarted frames), none of them in Table 1; chosen only when asked for.
    pub const MODERN: [Transformation; 9] = [
        Transformation::ConditionTrue,
        Transformation::ConditionFalse,
        Transformation::ConditionLocal,
        Transformation::EvaluateLocal,
        Transformation::PauseOnAll,
        Transformation::Logpoint,
        Transformation::ContinueAsBreakpoint,
        Transformation::SetAsCode,
        Transformation::RestartAsReentry,
    ];

    /// Its name, as the command line takes it and the archive records it.
    pub fn name(self) -> &'static str {
        match self {
            Transformation::AddBreakpoint => "add-breakpoint-and-continue",
            Transformation::ContinueToStep => "replace-continue-by-step",
            Transformation::Sliding => "breakpoint-sliding",
            Transformation::InsertDeadCode => "insert-dead-code",
            Transformation::RemoveDeadCode => "remove-dead-code",
            Transformation::AddParameter => "add-parameter",
            Transformation::AddNoOp => "add-no-op",
            Transformation::IntegerLiteral => "integer-literal-to-expression",
            Transformation::BooleanLiteral => "boolean-literal-to-expression",
            Transformation::ConditionTrue => "condition-true",
            Transformation::ConditionFalse => "condition-false",
            Transformation::ConditionLocal => "condition-over-a-local",
            Transformation::EvaluateLocal => "evaluate-a-local",
            Transformation::PauseOnAll => "pause-on-all-exceptions",
            Transformation::Logpoint => "logpoint-for-a-breakpoint",
            Transformation::ContinueAsBreakpoint => "continue-to-location-as-a-breakpoint",
            Transformation::SetAsCode => "set-variable-as-code",
            Transformation::RestartAsReentry => "restart-frame-as-reentry",
        }
    }

    /// The transformation of this name, of Table 1 or the modern ones.
    pub fn named(name: &str) -> Option<Transformation> {
        Transformation::TABLE1
            .into_iter()
            .chain(Transformation::MODERN)
            .find(|t| t.name() == name)
    }

    /// One of the modern relations (not Table 1's).
    pub fn is_modern(self) -> bool {
        Transformation::MODERN.contains(&self)
    }

    /// Decided while the follow-up runs, from the live debugger (Table 1's interactive ones, and
    /// pausing on all exceptions, whose extra pauses are resynchronized live).
    pub fn is_interactive(self) -> bool {
        matches!(
            self,
            Transformation::AddBreakpoint
                | Transformation::ContinueToStep
                | Transformation::PauseOnAll
        )
    }

    /// Changes the program text (the others change only the actions; setting a variable as
    /// code changes both).
    pub fn changes_program(self) -> bool {
        !matches!(
            self,
            Transformation::AddBreakpoint
                | Transformation::ContinueToStep
                | Transformation::Sliding
        ) && (!self.is_modern() || self == Transformation::SetAsCode)
    }

    /// The output relation its follow-up must keep to its parent.
    pub fn relation(self) -> &'static str {
        match self {
            Transformation::AddBreakpoint => "extra-pauses-only-at-the-new-breakpoint",
            Transformation::ContinueToStep => "every-parent-pause-still-appears",
            Transformation::AddParameter => "same-behaviour-plus-an-undefined-parameter",
            Transformation::ConditionTrue => "a-true-condition-is-a-plain-breakpoint",
            Transformation::ConditionFalse => "a-false-condition-never-pauses",
            Transformation::ConditionLocal => "a-condition-filters-the-pauses-by-recorded-values",
            Transformation::EvaluateLocal => "a-local-evaluates-to-its-value-in-the-scopes",
            Transformation::PauseOnAll => {
                "all-exceptions-pause-where-uncaught-ones-do-and-at-throws"
            }
            Transformation::Logpoint => {
                "a-logpoint-never-pauses-and-logs-what-the-breakpoint-showed"
            }
            Transformation::ContinueAsBreakpoint => {
                "continuing-to-a-line-is-a-temporary-breakpoint-there"
            }
            Transformation::SetAsCode => {
                "a-set-variable-is-the-assignment-in-the-program-from-there-on"
            }
            Transformation::RestartAsReentry => {
                "a-restarted-side-effect-free-frame-pauses-as-its-entry-did"
            }
            Transformation::Sliding
            | Transformation::InsertDeadCode
            | Transformation::RemoveDeadCode
            | Transformation::AddNoOp
            | Transformation::IntegerLiteral
            | Transformation::BooleanLiteral => "same-behaviour",
        }
    }
}

impl std::fmt::Display for Transformation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The relation of a recorded transformation, by its name ("same-behaviour" for a name this
/// build does not know: an archive's newer transformation is judged as a behaviour-preserving one).
pub fn relation_of(name: &str) -> &'static str {
    Transformation::named(name).map_or("same-behaviour", Transformation::relation)
}

/// The note of a follow-up (or of a chain's last session, when nothing applied to it) that
/// lists the transformations its round could not apply to the parent, each with why.
pub const NOT_APPLICABLE: &str = "not applicable";

/// The `NOT_APPLICABLE` note's value: `name: reason` joined by `; `.
pub fn unfit_note(unfit: &[(Transformation, String)]) -> String {
    let said: Vec<String> = unfit.iter().map(|(t, why)| format!("{t}: {why}")).collect();
    said.join("; ")
}

/// `(transformation, reason)` pairs of a `NOT_APPLICABLE` note's value.
pub fn unfit_of_note(value: &str) -> Vec<(&str, &str)> {
    value
        .split("; ")
        .filter_map(|part| part.split_once(": "))
        .collect()
}

/// Text replaced inside one line: parent columns `[column, column + old_len)` became
/// `[column, column + new_len)` on the follow-up's `line` (0-based, UTF-16 columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColumnEdit {
    pub line: u32,
    pub column: u32,
    pub old_len: u32,
    pub new_len: u32,
}

/// Follow-up positions to parent positions: a line map plus column edits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PositionMap {
    pub lines: Option<LineMap>,
    pub edits: Vec<ColumnEdit>,
}

impl PositionMap {
    /// The parent position of a follow-up position; `None` for inserted lines.
    pub fn to_parent(&self, l: Location) -> Option<Location> {
        let line = match &self.lines {
            Some(m) => m.to_origin(l.line)?,
            None => l.line,
        };
        let mut column = l.column;
        for e in self.edits.iter().filter(|e| e.line == l.line) {
            if column >= e.column + e.new_len {
                column = column - e.new_len + e.old_len;
            } else if column >= e.column {
                column = e.column;
            }
        }
        Some(Location { line, column })
    }

    /// The follow-up position of a parent position; `None` for removed lines.
    pub fn to_follow_up(&self, l: Location) -> Option<Location> {
        let line = match &self.lines {
            Some(m) => m.from_origin(l.line)?,
            None => l.line,
        };
        let mut column = l.column;
        for e in self.edits.iter().filter(|e| e.line == line) {
            if column >= e.column + e.old_len {
                column = column + e.new_len - e.old_len;
            }
        }
        Some(Location { line, column })
    }
}

/// A function that gained a fresh formal parameter: pauses in its own body must show it, as
/// `undefined`, in the top frame (Figure 11); in Python as `None`, its default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FreshParameter {
    pub name: String,
    /// Its value is `None` (Python's `__mt1=None`), not `undefined`.
    pub none: bool,
    /// The function's body in the follow-up, from its `{` to its `}` (inclusive).
    pub body: (Location, Location),
    /// Bodies of functions nested in it (their frames do not see the parameter).
    pub nested: Vec<(Location, Location)>,
}

impl FreshParameter {
    fn applies_at(&self, l: Location) -> bool {
        let inside = |(a, b): (Location, Location)| l >= a && l <= b;
        inside(self.body) && !self.nested.iter().any(|&r| inside(r))
    }

    /// Just past the body's closing brace, where JavaScriptCore and SpiderMonkey pause as the
    /// function returns (docs/jsc-cookbook.md), still in its frame: a parameter shown there must
    /// be `undefined`; one not shown is no fault, since code after the brace on that line is the
    /// caller's.
    fn just_past(&self, l: Location) -> bool {
        l.line == self.body.1.line && l.column == self.body.1.column + 1
    }
}

fn show_range((a, b): (Location, Location)) -> String {
    format!("{}:{}-{}:{}", a.line, a.column, b.line, b.column)
}

fn parse_range(s: &str) -> Option<(Location, Location)> {
    let (a, b) = s.split_once('-')?;
    let loc = |x: &str| {
        let (l, c) = x.split_once(':')?;
        Some(Location::new(
            l.trim().parse().ok()?,
            c.trim().parse().ok()?,
        ))
    };
    Some((loc(a)?, loc(b)?))
}

/// What a follow-up must satisfy, read from its transformation record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expectation {
    pub map: PositionMap,
    /// Follow-up action indices the transformation inserted (new, temporary and resynchronizing
    /// actions); their breakpoint outputs have no parent counterpart.
    pub inserted: BTreeSet<u32>,
    /// Parent action indices the transformation dropped (breakpoints in removed code).
    pub dropped: BTreeSet<u32>,
    /// Follow-up lines where extra pauses are allowed (the new breakpoint's actual lines).
    pub extra_lines: BTreeSet<u32>,
    /// Follow-up action indices whose pauses may be extra (steps that replaced a continue).
    pub extra_actions: BTreeSet<u32>,
    /// Follow-up control actions whose pauses were a rejoining temporary breakpoint's in
    /// another call than the one the parent's step went to: extra, even at the parent's place.
    pub passed: BTreeSet<u32>,
    /// Extra pauses are allowed on inserted lines (a no-op is real code: steps stop there).
    pub extra_on_inserted_lines: bool,
    pub fresh: Option<FreshParameter>,
    /// Parent action indices whose pauses the follow-up must not have (a condition false there
    /// by the recorded values); the follow-up dropped the resume that left each.
    pub skipped: BTreeSet<u32>,
    /// Follow-up action indices of evaluations of a local's name, each to equal that local's
    /// value in the top frame's scopes at the pause before it.
    pub evaluated_locals: BTreeSet<u32>,
    /// Extra pauses are allowed where an exception was thrown (pausing on all exceptions).
    pub extra_exception_pauses: bool,
    /// A logpoint set in place of a breakpoint: the follow-up action that set it, the parent
    /// actions whose pauses were that breakpoint's hits, and the local it logs. It must log the
    /// local's value at each of those pauses, in order.
    pub logged: Option<(u32, Vec<u32>, String)>,
    /// A parent's set variable done by the program instead: the parent control action whose
    /// pause the set was made at, and the set's own action. The follow-up's counterpart of that
    /// pause shows the variable already set (the inserted assignment ran before it).
    pub assigned: Option<(u32, u32)>,
    /// A frame restarted after the parent's control action `.1`, whose function the parent
    /// entered at control action `.0`: the restart pauses as that entry did, and the parent's
    /// actions after the entry, repeated, pause as they did (then the parent's go on).
    pub repeated: Option<(u32, u32)>,
    /// Compare class names and function source descriptions (off when the program changed).
    pub object_shells: bool,
}

fn list(v: &BTreeSet<u32>) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

fn pair(s: &str) -> Option<(u32, u32)> {
    let (a, b) = s.split_once(',')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

fn parse_list(s: &str) -> BTreeSet<u32> {
    s.split(',').filter_map(|x| x.trim().parse().ok()).collect()
}

impl Expectation {
    /// Parameters to store in the transformation record (0-based lines and action indices).
    pub fn params(&self) -> Vec<(String, String)> {
        let mut p = Vec::new();
        if !self.map.edits.is_empty() {
            let e: Vec<String> = self
                .map
                .edits
                .iter()
                .map(|e| format!("{}:{}:{}:{}", e.line, e.column, e.old_len, e.new_len))
                .collect();
            p.push(("expect.column-edits".into(), e.join(",")));
        }
        if !self.inserted.is_empty() {
            p.push(("expect.inserted-actions".into(), list(&self.inserted)));
        }
        if !self.dropped.is_empty() {
            p.push(("expect.dropped-actions".into(), list(&self.dropped)));
        }
        if !self.extra_lines.is_empty() {
            p.push(("expect.extra-pause-lines".into(), list(&self.extra_lines)));
        }
        if !self.extra_actions.is_empty() {
            p.push((
                "expect.extra-pause-actions".into(),
                list(&self.extra_actions),
            ));
        }
        if !self.passed.is_empty() {
            p.push(("expect.passed-pause-actions".into(), list(&self.passed)));
        }
        if self.extra_on_inserted_lines {
            p.push((
                "expect.extra-pauses-on-inserted-lines".into(),
                "true".into(),
            ));
        }
        if !self.skipped.is_empty() {
            p.push(("expect.skipped-pauses".into(), list(&self.skipped)));
        }
        if !self.evaluated_locals.is_empty() {
            p.push((
                "expect.evaluated-locals".into(),
                list(&self.evaluated_locals),
            ));
        }
        if self.extra_exception_pauses {
            p.push(("expect.extra-exception-pauses".into(), "true".into()));
        }
        if let Some((at, pauses, name)) = &self.logged {
            let ks: Vec<String> = pauses.iter().map(u32::to_string).collect();
            p.push((
                "expect.logged".into(),
                format!("{at};{};{name}", ks.join(",")),
            ));
        }
        if let Some((pause, set)) = self.assigned {
            p.push(("expect.assigned".into(), format!("{pause},{set}")));
        }
        if let Some((entry, restart)) = self.repeated {
            p.push(("expect.repeated".into(), format!("{entry},{restart}")));
        }
        if let Some(f) = &self.fresh {
            p.push(("expect.fresh-parameter".into(), f.name.clone()));
            if f.none {
                p.push(("expect.fresh-value".into(), "None".into()));
            }
            p.push(("expect.fresh-body".into(), show_range(f.body)));
            if !f.nested.is_empty() {
                let n: Vec<String> = f.nested.iter().map(|&r| show_range(r)).collect();
                p.push(("expect.fresh-nested".into(), n.join(",")));
            }
        }
        p.push((
            "expect.object-shells".into(),
            self.object_shells.to_string(),
        ));
        p
    }

    /// Reads an expectation back from a transformation record.
    pub fn of(t: &TransformationRecord) -> Expectation {
        let get = |k: &str| {
            t.params
                .iter()
                .find(|(x, _)| x == k)
                .map(|(_, v)| v.as_str())
        };
        let edits = get("expect.column-edits")
            .map(|s| {
                s.split(',')
                    .filter_map(|e| {
                        let n: Vec<u32> = e.split(':').filter_map(|x| x.parse().ok()).collect();
                        (n.len() == 4).then(|| ColumnEdit {
                            line: n[0],
                            column: n[1],
                            old_len: n[2],
                            new_len: n[3],
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let fresh = get("expect.fresh-parameter").map(|name| FreshParameter {
            name: name.to_string(),
            none: get("expect.fresh-value") == Some("None"),
            body: get("expect.fresh-body")
                .and_then(parse_range)
                .unwrap_or_default(),
            nested: get("expect.fresh-nested")
                .map(|s| s.split(',').filter_map(parse_range).collect())
                .unwrap_or_default(),
        });
        Expectation {
            map: PositionMap {
                lines: t.mapping.clone(),
                edits,
            },
            inserted: get("expect.inserted-actions")
                .map(parse_list)
                .unwrap_or_default(),
            dropped: get("expect.dropped-actions")
                .map(parse_list)
                .unwrap_or_default(),
            extra_lines: get("expect.extra-pause-lines")
                .map(parse_list)
                .unwrap_or_default(),
            extra_actions: get("expect.extra-pause-actions")
                .map(parse_list)
                .unwrap_or_default(),
            passed: get("expect.passed-pause-actions")
                .map(parse_list)
                .unwrap_or_default(),
            extra_on_inserted_lines: get("expect.extra-pauses-on-inserted-lines") == Some("true"),
            fresh,
            skipped: get("expect.skipped-pauses")
                .map(parse_list)
                .unwrap_or_default(),
            evaluated_locals: get("expect.evaluated-locals")
                .map(parse_list)
                .unwrap_or_default(),
            extra_exception_pauses: get("expect.extra-exception-pauses") == Some("true"),
            logged: get("expect.logged").and_then(|v| {
                let mut parts = v.splitn(3, ';');
                let at = parts.next()?.parse().ok()?;
                let pauses = parts
                    .next()?
                    .split(',')
                    .filter_map(|k| k.parse().ok())
                    .collect();
                Some((at, pauses, parts.next()?.to_string()))
            }),
            assigned: get("expect.assigned").and_then(pair),
            repeated: get("expect.repeated").and_then(pair),
            object_shells: get("expect.object-shells") != Some("false"),
        }
    }
}

/// The parent's pause `p` as the follow-up should show it when the set variable of
/// `x.assigned` was made at it: the innermost binding of the name in the top frame holding the
/// value the parent's set read back. `None` for every other pause (compared as recorded).
fn assigned_before(pa: &[Answer<'_>], p: &Answer<'_>, x: &Expectation) -> Option<Output> {
    let (pause, set) = x.assigned?;
    if p.action_index != pause {
        return None;
    }
    let s = pa.iter().find(|a| a.action_index == set)?;
    let (Action::SetVariable { name, .. }, Output::VariableSet { value, .. }, Output::Paused(q)) =
        (s.action, s.output, p.output)
    else {
        return None;
    };
    let mut q = q.clone();
    let v = q
        .stack
        .first_mut()?
        .scopes
        .iter_mut()
        .flat_map(|s| s.variables.iter_mut())
        .find(|v| &v.name == name)?;
    v.value = value.clone();
    v.reported = None;
    Some(Output::Paused(q))
}

/// A violated relation: where in the follow-up's trace, and what differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub relation: &'static str,
    /// Index of the first differing event in the follow-up's trace.
    pub event_index: Option<u32>,
    /// Index of the parent's event it was compared with, when there is one (a reproducer
    /// compares the two answers).
    pub parent_event_index: Option<u32>,
    /// What differs between the two answers, in DBDB's terms (`Other("console")`, ...).
    pub kind: DivergenceKind,
    pub message: String,
}

/// An output with the action it answered.
struct Answer<'a> {
    action_index: u32,
    event_index: u32,
    action: &'a Action,
    output: &'a Output,
}

fn answers(t: &Trace) -> Vec<Answer<'_>> {
    let mut out = Vec::new();
    let mut current: Option<(u32, &Action)> = None;
    let mut n = 0u32;
    for (i, e) in t.events.iter().enumerate() {
        match &e.kind {
            EventKind::Action(a) => {
                current = Some((n, a));
                n += 1;
            }
            EventKind::Output(o) => {
                if let Some((action_index, action)) = current.take() {
                    out.push(Answer {
                        action_index,
                        event_index: i as u32,
                        action,
                        output: o,
                    });
                }
            }
        }
    }
    out
}

/// A follow-up pause in parent coordinates, with the fresh parameter checked and taken out.
fn to_parent_pause(p: &PauseState, x: &Expectation) -> Result<Option<PauseState>, String> {
    let Some(location) = x.map.to_parent(p.location) else {
        return Ok(None);
    };
    let mut q = p.clone();
    q.location = location;
    for f in &mut q.stack {
        // A caller frame on an inserted line cannot be: report it through the location.
        f.location = x
            .map
            .to_parent(f.location)
            .unwrap_or(Location::INSERTED_LINE);
    }
    if let Some(fresh) = &x.fresh {
        let past = fresh.just_past(p.location);
        if fresh.applies_at(p.location) || past {
            let mut found = None;
            if let Some(top) = q.stack.first_mut() {
                for s in &mut top.scopes {
                    if let Some(i) = s.variables.iter().position(|v| v.name == fresh.name) {
                        found = Some(s.variables.remove(i).value);
                        break;
                    }
                }
            }
            match found {
                Some(Value::Undefined) if !fresh.none => {}
                Some(Value::Null) if fresh.none => {}
                Some(v) => {
                    return Err(format!(
                        "the fresh parameter {} is {v}, not {}, at {}",
                        fresh.name,
                        if fresh.none { "None" } else { "undefined" },
                        p.location
                    ))
                }
                None if past => {}
                None => {
                    return Err(format!(
                        "the fresh parameter {} is missing from the scope at {}",
                        fresh.name, p.location
                    ))
                }
            }
        }
    }
    Ok(Some(q))
}

fn to_parent_output(o: &Output, x: &Expectation) -> Result<Option<Output>, String> {
    let mut out = to_parent_places(o, x)?;
    // Functions' defining lines too, as the pauses' places.
    let to = |line: u32| x.map.to_parent(Location::new(line, 0)).map(|l| l.line);
    if let Some(o) = &mut out {
        o.map_function_lines(&to);
    }
    Ok(out)
}

/// `to_parent_output` of the places alone: pauses, frames, breakpoints.
fn to_parent_places(o: &Output, x: &Expectation) -> Result<Option<Output>, String> {
    Ok(match o {
        Output::Paused(p) => to_parent_pause(p, x)?.map(Output::Paused),
        Output::BreakpointSet {
            id,
            requested,
            actual,
            source,
            policy,
        } => Some(Output::BreakpointSet {
            id: *id,
            requested: x.map.to_parent(*requested).unwrap_or(*requested),
            actual: actual
                .iter()
                .map(|l| x.map.to_parent(*l).unwrap_or(Location::INSERTED_LINE))
                .collect(),
            source: *source,
            policy: policy.clone(),
        }),
        Output::Finished { outcome } => Some(Output::Finished {
            outcome: outcome.clone(),
        }),
        other => Some(other.clone()),
    })
}

/// The first line of the engine's description of what a pause's exception is (V8:
/// `ReferenceError: Super constructor may only be called once`).
fn thrown_line(q: &PauseState) -> Option<&str> {
    match q.exception.as_deref() {
        Some(Value::Object {
            description: Some(d),
            ..
        }) => first_line(d),
        _ => None,
    }
}

fn first_line(text: &str) -> Option<&str> {
    text.lines().next().filter(|l| !l.is_empty())
}

/// What was thrown, by the engine's first line (a triage rule can tell one engine error from
/// another): where the follow-up paused on it or ended on it, or else what the parent's pause
/// there had thrown (the same error gone, or thrown elsewhere).
fn thrown_remark(follow_up: &Output, parent: &Output) -> Option<Aside> {
    fn paused_on(o: &Output) -> Option<&str> {
        match o {
            Output::Paused(q) => thrown_line(q),
            _ => None,
        }
    }
    let ended_on = match follow_up {
        Output::Finished {
            outcome: morphtrace_schema::trace::ProgramOutcome::UncaughtException { message, .. },
        } => first_line(message),
        _ => None,
    };
    let (by, error) = if let Some(t) = paused_on(follow_up) {
        (Thrower::FollowUpPaused, t)
    } else if let Some(t) = ended_on {
        (Thrower::FollowUpEnded, t)
    } else {
        (Thrower::ParentPaused, paused_on(parent)?)
    };
    Some(Aside::Thrown {
        by,
        error: error.to_string(),
    })
}

fn describe(o: &Output) -> String {
    match o {
        // What paused, where a triage rule needs it (V8 mutes these two at a statement whose
        // breakpoints all have false conditions).
        Output::Paused(p) if p.exception.is_some() => {
            format!("an exception pause at {}", p.location)
        }
        Output::Paused(p) if p.reason == PauseReason::DebuggerStatement => {
            format!("a debugger statement's pause at {}", p.location)
        }
        Output::Paused(p) => format!("a pause at {}", p.location),
        Output::Finished { outcome } => format!("the end ({})", outcome.name()),
        Output::BreakpointSet { actual, .. } => format!(
            "a breakpoint at [{}]",
            actual
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
        other => other.name().to_string(),
    }
}

/// Judges a follow-up's trace against its parent's under the transformation's expected output
/// relation: breakpoint outputs pairwise, then the parent's pauses and end in order, each
/// compared (location, call stack, variables) modulo the position mapping. Extra follow-up
/// pauses are allowed only where the expectation says. `None`: the relation holds.
pub fn judge(parent: &Trace, follow_up: &Trace, t: &TransformationRecord) -> Option<Violation> {
    let j = Judging::new(parent, follow_up, t);
    // In this order: the first phase that finds a difference names the violation.
    j.breakpoints()
        .or_else(|| j.evaluated_locals())
        .or_else(|| j.pauses_and_end())
        .or_else(|| j.evaluations())
        .or_else(|| j.breakpoint_counts())
        .or_else(|| j.logpoint())
        .or_else(|| j.console())
}

/// One follow-up being judged against its parent: what every phase of `judge` reads.
struct Judging<'a> {
    parent: &'a Trace,
    follow_up: &'a Trace,
    x: Expectation,
    relation: &'static str,
    policy: ComparisonPolicy,
    /// The parent's and the follow-up's answers, in order.
    pa: Vec<Answer<'a>>,
    fa: Vec<Answer<'a>>,
}

/// The breakpoints the transformation added with condition `false`: where each was asked for
/// and where placed. A pause there is named so in the message (V8 stops a step that lost its
/// frame at such a breakpoint; a triage rule tells that from other misplaced pauses).
struct FalseBreakpoints<'t> {
    asked: Vec<(Location, &'t [Location])>,
    places: BTreeSet<Location>,
}

impl<'a> Judging<'a> {
    fn new(parent: &'a Trace, follow_up: &'a Trace, t: &TransformationRecord) -> Judging<'a> {
        let x = Expectation::of(t);
        let policy = ComparisonPolicy {
            columns: true,
            call_stack: true,
            variables: true,
            breakpoints: true,
            object_shells: x.object_shells,
            async_stack: true,
            // The relations say themselves where a follow-up must pause on an exception (a
            // transformation may add or remove exception pauses at a place the parent paused).
            exception_pauses: false,
            // The follow-up's text is not the parent's, and engines quote the program's source
            // in the messages they word (V8's `o.f is not a function`, JavaScriptCore's
            // `(evaluating 'a[1]')`): a transformed expression rewords them.
            error_messages: false,
            ..ComparisonPolicy::default()
        };
        Judging {
            parent,
            follow_up,
            relation: relation_of(&t.name),
            x,
            policy,
            pa: answers(parent),
            fa: answers(follow_up),
        }
    }

    fn violation(
        &self,
        event_index: Option<u32>,
        parent_event_index: Option<u32>,
        kind: DivergenceKind,
        message: String,
    ) -> Option<Violation> {
        Some(Violation {
            relation: self.relation,
            event_index,
            parent_event_index,
            kind,
            message,
        })
    }

    /// The follow-up's answer `got` to `f` (in the parent's places) against the parent's to `p`,
    /// where a pair of answers is compared as it stands (breakpoints, evaluations).
    fn answered_otherwise(&self, p: &Answer, f: &Answer, got: &Output) -> Option<Violation> {
        let (kind, detail) = compare_outputs(p.output, got, &self.policy)?;
        self.violation(
            Some(f.event_index),
            Some(p.event_index),
            kind,
            Message::Answered {
                action: f.action.to_string(),
                difference: detail,
            }
            .to_string(),
        )
    }

    /// The breakpoint requests, the parent's and the follow-up's in order, without those the
    /// transformation dropped (parent) or inserted (follow-up).
    fn set_breakpoints(&self) -> (Vec<&Answer<'a>>, Vec<&Answer<'a>>) {
        let pb = self
            .pa
            .iter()
            .filter(|a| a.action.sets_breakpoint())
            .filter(|a| !self.x.dropped.contains(&a.action_index))
            .collect();
        let fb = self
            .fa
            .iter()
            .filter(|a| a.action.sets_breakpoint())
            .filter(|a| !self.x.inserted.contains(&a.action_index))
            .collect();
        (pb, fb)
    }

    /// Breakpoint outputs, pairwise in order.
    fn breakpoints(&self) -> Option<Violation> {
        let (pb, fb) = self.set_breakpoints();
        for (p, f) in pb.iter().zip(&fb) {
            let mapped = match to_parent_output(f.output, &self.x) {
                Ok(Some(o)) => o,
                Ok(None) => continue,
                Err(m) => {
                    return self.violation(
                        Some(f.event_index),
                        Some(p.event_index),
                        DivergenceKind::Variables,
                        m,
                    )
                }
            };
            if let Some(v) = self.answered_otherwise(p, f, &mapped) {
                return Some(v);
            }
        }
        None
    }

    /// A local's name evaluates to the value the pause before it shows in its scopes.
    fn evaluated_locals(&self) -> Option<Violation> {
        let x = &self.x;
        let mut last_pause = None;
        for f in &self.fa {
            if let Output::Paused(q) = f.output {
                last_pause = Some(q);
            }
            if !x.evaluated_locals.contains(&f.action_index) {
                continue;
            }
            let (Action::Evaluate { expression }, Some(q)) = (f.action, last_pause) else {
                continue;
            };
            let shown = crate::dbdb::visible_variables(q.top_scopes())
                .get(expression.as_str())
                .map(|v| (*v).clone());
            let wrong = match (f.output, &shown) {
                (
                    Output::Evaluated {
                        value,
                        threw: false,
                    },
                    Some(v),
                ) => (!value.equal_under(v, x.object_shells)).then(|| format!("gave {value}")),
                (Output::Evaluated { value, threw: true }, _) => Some(format!("threw {value}")),
                (Output::Evaluated { value, .. }, None) => Some(format!(
                    "gave {value}, and the scopes no longer show {expression}"
                )),
                (other, _) => Some(format!("answered {}", describe(other))),
            };
            if let Some(what) = wrong {
                return self.violation(
                    Some(f.event_index),
                    None,
                    DivergenceKind::Evaluation,
                    format!(
                        "at {}, {expression} {what}; the top frame's scopes show {}",
                        q.location,
                        shown
                            .map(|v| v.to_string())
                            .unwrap_or_else(|| "nothing".into())
                    ),
                );
            }
        }
        None
    }

    /// The pauses and the end, the parent's and the follow-up's, in order: the parent's
    /// without those a condition filters out, a restarted frame's entry pause and those after
    /// it again after the restart's place; the follow-up's without those lockstep went past.
    fn controls(&self) -> (Vec<&Answer<'a>>, Vec<&Answer<'a>>) {
        let x = &self.x;
        let mut pc: Vec<&Answer> = self
            .pa
            .iter()
            .filter(|a| a.action.is_control() && !x.skipped.contains(&a.action_index))
            .collect();
        if let Some((entry, restart)) = x.repeated {
            let again: Vec<&Answer> = pc
                .iter()
                .filter(|a| (entry..=restart).contains(&a.action_index))
                .copied()
                .collect();
            if let Some(at) = pc.iter().position(|a| a.action_index == restart) {
                pc.splice(at + 1..at + 1, again);
            }
        }
        let fc = self
            .fa
            .iter()
            .filter(|a| a.action.is_control() && !x.passed.contains(&a.action_index))
            .collect();
        (pc, fc)
    }

    fn false_breakpoints(&self) -> FalseBreakpoints<'a> {
        let asked: Vec<(Location, &[Location])> = self
            .fa
            .iter()
            .filter(|a| self.x.inserted.contains(&a.action_index))
            .filter_map(|a| match (a.action, a.output) {
                (
                    Action::SetConditionalBreakpoint { condition, .. },
                    Output::BreakpointSet {
                        requested, actual, ..
                    },
                ) if condition.trim() == "false" => Some((*requested, actual.as_slice())),
                _ => None,
            })
            .collect();
        let places = asked
            .iter()
            .flat_map(|(_, actual)| actual.iter().copied())
            .collect();
        FalseBreakpoints { asked, places }
    }

    /// Whether the follow-up's pause `f` is one the transformation may add; `unmapped`: its
    /// place has no counterpart in the parent (an inserted line).
    fn extra(&self, f: &Answer, unmapped: bool) -> bool {
        let x = &self.x;
        match f.output {
            Output::Paused(q) => {
                x.extra_lines.contains(&q.location.line)
                    || x.extra_actions.contains(&f.action_index)
                    || (unmapped && x.extra_on_inserted_lines)
                    || (x.extra_exception_pauses && q.exception.is_some())
            }
            _ => false,
        }
    }

    /// The parent's pauses and end in order, each found in the follow-up (past the pauses the
    /// transformation may add) and compared modulo the position mapping; then what the
    /// follow-up did beyond the parent's end, which must be extra.
    fn pauses_and_end(&self) -> Option<Violation> {
        let x = &self.x;
        let (pc, fc) = self.controls();
        let falses = self.false_breakpoints();
        // Where each of the follow-up's breakpoints was placed.
        let placed: BTreeMap<morphtrace_schema::BreakpointId, &[Location]> = self
            .fa
            .iter()
            .filter_map(|a| match a.output {
                Output::BreakpointSet { id, actual, .. } => Some((*id, actual.as_slice())),
                _ => None,
            })
            .collect();
        let mut j = 0;
        for p in &pc {
            loop {
                let Some(f) = fc.get(j) else {
                    // The follow-up stopped early: only a failure if it did not also end.
                    return self.violation(
                        fc.last().map(|f| f.event_index),
                        Some(p.event_index),
                        DivergenceKind::Termination,
                        format!(
                            "the follow-up has no counterpart of the parent's {} after {}",
                            describe(p.output),
                            p.action
                        ),
                    );
                };
                let mapped = match to_parent_output(f.output, x) {
                    Ok(m) => m,
                    Err(m) => {
                        return self.violation(
                            Some(f.event_index),
                            Some(p.event_index),
                            DivergenceKind::Variables,
                            m,
                        )
                    }
                };
                let extra = self.extra(f, mapped.is_none());
                let same_place = match (&mapped, p.output) {
                    (Some(Output::Paused(a)), Output::Paused(b)) => a.location == b.location,
                    (Some(Output::Finished { .. }), Output::Finished { .. }) => true,
                    _ => false,
                };
                if same_place || !extra {
                    let Some(m) = &mapped else {
                        return self.violation(
                            Some(f.event_index),
                            Some(p.event_index),
                            DivergenceKind::PauseLocation,
                            format!(
                                "after {}, paused on an inserted line at {} instead of {}",
                                f.action,
                                match f.output {
                                    Output::Paused(q) => q.location.to_string(),
                                    _ => String::new(),
                                },
                                describe(p.output)
                            ),
                        );
                    };
                    let expected = assigned_before(&self.pa, p, x);
                    let expected = expected.as_ref().unwrap_or(p.output);
                    if let Some((kind, detail)) = compare_outputs(expected, m, &self.policy) {
                        return self.violation(
                            Some(f.event_index),
                            Some(p.event_index),
                            kind,
                            Message::Expected {
                                action: f.action.to_string(),
                                expected: describe(p.output),
                                difference: detail,
                                aside: self.aside(p, &fc, j, &falses, &placed),
                            }
                            .to_string(),
                        );
                    }
                    j += 1;
                    break;
                }
                j += 1;
            }
        }
        // What the follow-up did beyond the parent's end must be extra, or the end itself again.
        for f in &fc[j.min(fc.len())..] {
            let unmapped = match f.output {
                Output::Paused(q) => x.map.to_parent(q.location).is_none(),
                _ => false,
            };
            let allowed = self.extra(f, unmapped);
            if !allowed {
                return self.violation(
                    Some(f.event_index),
                    pc.last().map(|p| p.event_index),
                    DivergenceKind::Termination,
                    format!(
                        "{} after the parent's last pause, at {}",
                        describe(f.output),
                        f.action
                    ),
                );
            }
        }
        None
    }

    /// What a triage rule needs to know of the situation where the follow-up's answer `fc[j]`
    /// differs from the parent's `p`: an engine quirk it may be, named by the follow-up's own
    /// actions (a false breakpoint the transformation added, a step before), or else what was
    /// thrown.
    fn aside(
        &self,
        p: &Answer,
        fc: &[&Answer],
        j: usize,
        falses: &FalseBreakpoints,
        placed: &BTreeMap<morphtrace_schema::BreakpointId, &[Location]>,
    ) -> Option<Aside> {
        let x = &self.x;
        let f = fc[j];
        match f.output {
            Output::Paused(q) if falses.places.contains(&q.location) => {
                Some(Aside::AtTheAddedFalseBreakpoint)
            }
            // Firefox: a false-conditioned breakpoint set where the debugger stands makes the
            // next step into run as a step over.
            _ if matches!(f.action, Action::StepInto)
                && j > 0
                && matches!(fc[j - 1].output, Output::Paused(r)
                    if falses.places.contains(&r.location)) =>
            {
                Some(Aside::StepIntoFromAFalseBreakpoint)
            }
            // V8 mutes a statement whose breakpoints all have false conditions: its exceptions
            // and `debugger` do not pause.
            _ if matches!(p.output, Output::Paused(r)
                if (r.exception.is_some()
                    || r.reason == PauseReason::DebuggerStatement)
                    && falses.places.iter().any(|l| l.line == r.location.line)) =>
            {
                Some(Aside::MissedOnAFalseLine)
            }
            // V8 takes a position before a line's first break position to that break
            // position's statement: a false breakpoint asked for on the line and placed
            // further on mutes it.
            _ if matches!(p.output, Output::Paused(r)
            if (r.exception.is_some()
                || r.reason == PauseReason::DebuggerStatement)
                && falses.asked.iter().any(|(asked, actual)| {
                    asked.line == r.location.line
                        && !actual.is_empty()
                        && actual.iter().all(|l| *l > r.location)
                })) =>
            {
                Some(Aside::MissedBeforeAFalsePlace)
            }
            // Firefox: a resume from a step's pause passes the breakpoint at that place in
            // later calls.
            _ if matches!(f.action, Action::Resume)
                && j > 0
                && matches!(
                    fc[j - 1].action,
                    Action::StepInto | Action::StepOver | Action::StepOut
                )
                && matches!(
                    (to_parent_output(fc[j - 1].output, x), p.output),
                    (Ok(Some(Output::Paused(r))), Output::Paused(q))
                        if r.location == q.location
                ) =>
            {
                Some(Aside::MissedWhereAStepStood)
            }
            // JavaScriptCore: an exception a built-in threw, met by a step where every
            // exception pauses, stops the step in the catch.
            Output::Paused(q)
                if x.extra_exception_pauses
                    && q.exception.is_none()
                    && q.top_scopes()
                        .first()
                        .is_some_and(|s| s.kind == morphtrace_schema::trace::ScopeKind::Catch) =>
            {
                Some(Aside::InACatchBlock)
            }
            // JavaScriptCore: an exception named as a breakpoint's hit.
            Output::Paused(q)
                if x.extra_exception_pauses
                    && q.exception.is_none()
                    && matches!(q.reason, PauseReason::Breakpoint { .. })
                    && j > 0
                    && matches!(fc[j - 1].output, Output::Paused(r)
                        if r.reason == q.reason
                            && r.stack.len() == q.stack.len()) =>
            {
                Some(Aside::AgainAtItsBreakpoint)
            }
            Output::Paused(q)
                if x.extra_exception_pauses
                    && q.exception.is_none()
                    && matches!(&q.reason, PauseReason::Breakpoint { ids }
                    if !ids.is_empty() && ids.iter().all(|id| {
                        placed.get(id).is_some_and(|at| !at.contains(&q.location))
                    })) =>
            {
                Some(Aside::AwayFromItsBreakpoint)
            }
            // A step that stopped on a breakpoint's line where a call returned (mid-line), then
            // this breakpoint as the line ran again: a pause the continue it replaced never
            // made.
            Output::Paused(q)
                if matches!(q.reason, PauseReason::Breakpoint { .. })
                    && j > 0
                    && matches!(fc[j - 1].output, Output::Paused(r)
                        if r.reason == PauseReason::Step
                            && r.location.line == q.location.line
                            && r.stack.first().map(|f| &f.function)
                                == q.stack.first().map(|f| &f.function)) =>
            {
                Some(Aside::AfterAStepOnItsLine)
            }
            _ => thrown_remark(f.output, p.output),
        }
    }

    /// Evaluations, pairwise in order: the parent's against the follow-up's own (after the
    /// pauses: an evaluation refused for want of a pause follows from a pause missing).
    fn evaluations(&self) -> Option<Violation> {
        let on_the_frame =
            |a: &Action| matches!(a, Action::Evaluate { .. } | Action::SetVariable { .. });
        let pe = self
            .pa
            .iter()
            .filter(|a| on_the_frame(a.action))
            .filter(|a| !self.x.dropped.contains(&a.action_index));
        let fe = self
            .fa
            .iter()
            .filter(|a| on_the_frame(a.action))
            .filter(|a| !self.x.inserted.contains(&a.action_index));
        for (p, f) in pe.zip(fe) {
            if let Some(v) = self.answered_otherwise(p, f, f.output) {
                return Some(v);
            }
        }
        None
    }

    /// Breakpoints were compared pairwise first: one the parent set that the follow-up did
    /// not (or the reverse) is a difference too, not something the pairing may drop.
    fn breakpoint_counts(&self) -> Option<Violation> {
        let (pb, fb) = self.set_breakpoints();
        if pb.len() == fb.len() {
            return None;
        }
        let extra = fb.get(pb.len()).map(|f| f.event_index);
        self.violation(
            extra.or(self.fa.last().map(|f| f.event_index)),
            None,
            DivergenceKind::BreakpointLocation,
            format!(
                "the parent's breakpoint requests were answered {} times, the follow-up's {} times",
                pb.len(),
                fb.len()
            ),
        )
    }

    /// A logpoint in place of a breakpoint logs the local's value at each of its hits.
    fn logpoint(&self) -> Option<Violation> {
        let (at, pauses, name) = self.x.logged.as_ref()?;
        let id = self.fa.iter().find_map(|f| match f.output {
            Output::BreakpointSet { id, .. } if f.action_index == *at => Some(*id),
            _ => None,
        });
        let logged: Vec<&str> = self
            .follow_up
            .logs
            .iter()
            .filter(|l| Some(l.breakpoint) == id)
            .map(|l| l.text.as_str())
            .collect();
        let shown: Vec<String> = pauses
            .iter()
            .filter_map(|k| self.pa.iter().find(|p| p.action_index == *k))
            .filter_map(|p| match p.output {
                Output::Paused(q) => Some(
                    crate::dbdb::visible_variables(q.top_scopes())
                        .get(name.as_str())
                        .map(|v| match v {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        })
                        .unwrap_or_else(|| "(absent)".into()),
                ),
                _ => None,
            })
            .collect();
        if logged == shown {
            return None;
        }
        self.violation(
            self.fa
                .iter()
                .find(|f| f.action_index == *at)
                .map(|f| f.event_index),
            None,
            DivergenceKind::Log,
            format!(
                "the logpoint logged {name} as [{}] where the breakpoint's pauses showed [{}]",
                logged.join(", "),
                shown.join(", ")
            ),
        )
    }

    /// What the program printed, where both ran to their end.
    fn console(&self) -> Option<Violation> {
        let (pc, fc) = self.controls();
        if self.parent.console != self.follow_up.console
            && !pc.is_empty()
            && finished(&pc)
            && finished(&fc)
        {
            return self.violation(
                fc.last().map(|f| f.event_index),
                pc.last().map(|p| p.event_index),
                DivergenceKind::Other("console".into()),
                "the program printed something else".into(),
            );
        }
        None
    }
}

fn finished(answers: &[&Answer]) -> bool {
    answers
        .last()
        .is_some_and(|a| matches!(a.output, Output::Finished { .. }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::warning::{
        AFTER_A_STEP_ON_ITS_LINE, AGAIN_AT_ITS_BREAKPOINT, AWAY_FROM_ITS_BREAKPOINT,
        MISSED_BEFORE_A_FALSE_PLACE, MISSED_ON_A_FALSE_LINE, MISSED_WHERE_A_STEP_STOOD,
        STEP_INTO_FROM_A_FALSE_BREAKPOINT,
    };
    use morphtrace_schema::engine::EngineRef;
    use morphtrace_schema::program::{LineMap, LineSegment, ProgramHash};
    use morphtrace_schema::trace::*;

    fn pause(line: u32, column: u32, vars: &[(&str, Value)]) -> Output {
        Output::Paused(PauseState {
            location: Location::new(line, column),
            reason: PauseReason::Step,
            engine_reason: None,
            stack: vec![Frame {
                function: "f".into(),
                location: Location::new(line, column),
                scopes: vec![morphtrace_testkit::pauses::local_scope(vars)],
            }],
            exception: None,
            condition: None,
            async_stack: None,
        })
    }

    fn trace(steps: Vec<(Action, Output)>) -> Trace {
        let mut events = Vec::new();
        for (a, o) in steps {
            events.push(Event {
                at_us: 0,
                kind: EventKind::Action(a),
            });
            events.push(Event {
                at_us: 0,
                kind: EventKind::Output(o),
            });
        }
        Trace {
            engine: EngineRef(0),
            events,
            console: vec![],
            logs: vec![],
        }
    }

    fn record(
        t: Transformation,
        mapping: Option<LineMap>,
        x: &Expectation,
    ) -> TransformationRecord {
        TransformationRecord {
            name: t.name().into(),
            interactive: t.is_interactive(),
            params: x.params(),
            program_before: ProgramHash::of("a"),
            program_after: ProgramHash::of("b"),
            mapping,
        }
    }

    fn done() -> Output {
        Output::Finished {
            outcome: ProgramOutcome::Completed,
        }
    }

    fn shifted_after(line: u32) -> LineMap {
        LineMap {
            segments: vec![
                LineSegment {
                    start: 0,
                    len: line,
                    origin_start: 0,
                },
                LineSegment {
                    start: line + 1,
                    len: 100,
                    origin_start: line,
                },
            ],
        }
    }

    #[test]
    fn position_maps_shift_columns_after_an_edit() {
        let m = PositionMap {
            lines: None,
            edits: vec![ColumnEdit {
                line: 2,
                column: 8,
                old_len: 2,
                new_len: 6,
            }],
        };
        assert_eq!(m.to_parent(Location::new(2, 4)), Some(Location::new(2, 4)));
        assert_eq!(m.to_parent(Location::new(2, 10)), Some(Location::new(2, 8)));
        assert_eq!(
            m.to_parent(Location::new(2, 16)),
            Some(Location::new(2, 12))
        );
        assert_eq!(
            m.to_parent(Location::new(3, 16)),
            Some(Location::new(3, 16))
        );
        assert_eq!(
            m.to_follow_up(Location::new(2, 12)),
            Some(Location::new(2, 16))
        );
        let x = Expectation {
            map: m.clone(),
            object_shells: false,
            ..Default::default()
        };
        let t = record(Transformation::IntegerLiteral, None, &x);
        assert_eq!(Expectation::of(&t), x);
    }

    #[test]
    fn shifted_lines_compare_equal_and_a_moved_pause_is_named() {
        let parent = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::StepOver, pause(1, 0, &[("x", Value::Number(1.0))])),
            (Action::StepOver, done()),
        ]);
        let x = Expectation::default();
        let t = record(Transformation::InsertDeadCode, Some(shifted_after(1)), &x);
        let good = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::StepOver, pause(2, 0, &[("x", Value::Number(1.0))])),
            (Action::StepOver, done()),
        ]);
        assert_eq!(judge(&parent, &good, &t), None);
        // Pausing on the inserted dead code is a violation, named at its event.
        let bad = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::StepOver, pause(1, 0, &[("x", Value::Number(1.0))])),
            (Action::StepOver, done()),
        ]);
        let v = judge(&parent, &bad, &t).unwrap();
        assert_eq!(v.event_index, Some(3));
        assert!(v.message.contains("inserted line"), "{}", v.message);
        // A changed variable is named.
        let bad = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::StepOver, pause(2, 0, &[("x", Value::Number(2.0))])),
            (Action::StepOver, done()),
        ]);
        let v = judge(&parent, &bad, &t).unwrap();
        assert_eq!(v.event_index, Some(3));
        assert!(v.message.contains("x: 1 vs 2"), "{}", v.message);
    }

    /// Finding 5 of the honest-counts issue: breakpoint answers were paired with `zip`, so a
    /// follow-up that set fewer (or more) breakpoints than its parent went unreported.
    #[test]
    fn a_breakpoint_the_follow_up_did_not_set_is_a_violation() {
        let bp = |line: u32| {
            (
                Action::SetBreakpoint { line, column: None },
                Output::BreakpointSet {
                    id: BreakpointId(line),
                    requested: Location::new(line, 0),
                    actual: vec![Location::new(line, 0)],
                    source: LocationSource::EngineReported,
                    policy: None,
                },
            )
        };
        let run = vec![(Action::Start, pause(0, 0, &[])), (Action::Resume, done())];
        let parent = trace([vec![bp(3), bp(7)], run.clone()].concat());
        let t = record(
            Transformation::IntegerLiteral,
            None,
            &Expectation::default(),
        );
        let same = trace([vec![bp(3), bp(7)], run.clone()].concat());
        assert_eq!(judge(&parent, &same, &t), None);
        for follow_up in [
            trace([vec![bp(3)], run.clone()].concat()),
            trace([vec![bp(3), bp(7), bp(9)], run.clone()].concat()),
        ] {
            let v = judge(&parent, &follow_up, &t).expect("a violation");
            assert!(v.message.contains("breakpoint requests"), "{}", v.message);
        }
    }

    #[test]
    fn no_ops_allow_pauses_on_their_own_line_only() {
        let parent = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::StepOver, pause(1, 0, &[])),
        ]);
        let x = Expectation {
            extra_on_inserted_lines: true,
            ..Default::default()
        };
        let t = record(Transformation::AddNoOp, Some(shifted_after(1)), &x);
        let good = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::StepOver, pause(1, 0, &[])),
            (Action::StepOver, pause(2, 0, &[])),
        ]);
        assert_eq!(judge(&parent, &good, &t), None);
        let bad = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::StepOver, pause(1, 0, &[])),
            (Action::StepOver, pause(3, 0, &[])),
        ]);
        assert_eq!(judge(&parent, &bad, &t).unwrap().event_index, Some(5));
    }

    #[test]
    fn extra_pauses_at_the_new_breakpoint_are_ignored_elsewhere_not() {
        let parent = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::Resume, pause(5, 0, &[])),
            (Action::Resume, done()),
        ]);
        let x = Expectation {
            extra_lines: [3].into(),
            inserted: [0].into(),
            object_shells: true,
            ..Default::default()
        };
        let t = record(Transformation::AddBreakpoint, None, &x);
        let bp = Output::BreakpointSet {
            id: BreakpointId(1),
            requested: Location::new(3, 0),
            actual: vec![Location::new(3, 0)],
            source: LocationSource::EngineReported,
            policy: None,
        };
        let good = trace(vec![
            (
                Action::SetBreakpoint {
                    line: 3,
                    column: None,
                },
                bp.clone(),
            ),
            (Action::Start, pause(0, 0, &[])),
            (Action::Resume, pause(3, 0, &[])),
            (Action::Resume, pause(5, 0, &[])),
            (Action::Resume, done()),
        ]);
        assert_eq!(judge(&parent, &good, &t), None);
        let bad = trace(vec![
            (
                Action::SetBreakpoint {
                    line: 3,
                    column: None,
                },
                bp,
            ),
            (Action::Start, pause(0, 0, &[])),
            (Action::Resume, pause(4, 0, &[])),
            (Action::Resume, pause(5, 0, &[])),
            (Action::Resume, done()),
        ]);
        let v = judge(&parent, &bad, &t).unwrap();
        assert_eq!(v.event_index, Some(5));
        assert_eq!(v.relation, Transformation::AddBreakpoint.relation());
        // A missing pause is a violation too.
        let missing = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::Resume, done()),
        ]);
        let v = judge(&parent, &missing, &t).unwrap();
        assert!(
            v.message.contains("expected a pause at 6:1"),
            "{}",
            v.message
        );
    }

    #[test]
    fn steps_replacing_a_continue_may_pause_anywhere_but_must_resynchronize() {
        let parent = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::Resume, pause(5, 0, &[])),
        ]);
        let x = Expectation {
            extra_actions: [1].into(),
            inserted: [2].into(),
            object_shells: true,
            ..Default::default()
        };
        let t = record(Transformation::ContinueToStep, None, &x);
        let good = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::StepOver, pause(1, 0, &[])),
            (Action::Resume, pause(5, 0, &[])),
        ]);
        assert_eq!(judge(&parent, &good, &t), None);
        let direct = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::StepOver, pause(5, 0, &[])),
        ]);
        assert_eq!(judge(&parent, &direct, &t), None);
        let bad = trace(vec![
            (Action::Start, pause(0, 0, &[])),
            (Action::StepOver, pause(1, 0, &[])),
            (Action::Resume, pause(6, 0, &[])),
        ]);
        assert_eq!(judge(&parent, &bad, &t).unwrap().event_index, Some(5));

        // The step stopped on line 1 (where a call returned), and the next pause is line 1's
        // breakpoint, as the line runs again: the warning says so. The same breakpoint pause
        // after a step on another line, or a step pause there, does not get the remark.
        let at_breakpoint = |line| match pause(line, 0, &[]) {
            Output::Paused(p) => Output::Paused(PauseState {
                reason: PauseReason::Breakpoint {
                    ids: vec![BreakpointId(1)],
                },
                ..p
            }),
            _ => unreachable!(),
        };
        let again = |step_line, next: Output| {
            let follow_up = trace(vec![
                (Action::Start, pause(0, 0, &[])),
                (Action::StepOut, pause(step_line, 0, &[])),
                (Action::Resume, next),
            ]);
            judge(&parent, &follow_up, &t).unwrap().message
        };
        assert_eq!(
            again(1, at_breakpoint(1)),
            format!(
                "after resume, expected a pause at 6:1 as in the parent: paused at 6:1 vs 2:1; \
                 {AFTER_A_STEP_ON_ITS_LINE}"
            )
        );
        assert!(!again(2, at_breakpoint(1)).contains(AFTER_A_STEP_ON_ITS_LINE));
        assert!(!again(1, pause(1, 0, &[])).contains(AFTER_A_STEP_ON_ITS_LINE));
    }

    #[test]
    fn a_fresh_parameter_must_be_there_and_undefined() {
        let parent = trace(vec![(Action::Start, pause(2, 0, &[("a", Value::Null)]))]);
        let x = Expectation {
            fresh: Some(FreshParameter {
                none: false,
                name: "p".into(),
                body: (Location::new(1, 10), Location::new(4, 0)),
                nested: vec![(Location::new(3, 0), Location::new(3, 20))],
            }),
            ..Default::default()
        };
        let t = record(Transformation::AddParameter, None, &x);
        assert_eq!(Expectation::of(&t), x);
        let good = trace(vec![(
            Action::Start,
            pause(2, 0, &[("a", Value::Null), ("p", Value::Undefined)]),
        )]);
        assert_eq!(judge(&parent, &good, &t), None);
        let missing = trace(vec![(Action::Start, pause(2, 0, &[("a", Value::Null)]))]);
        assert!(judge(&parent, &missing, &t)
            .unwrap()
            .message
            .contains("missing"));
        let wrong = trace(vec![(
            Action::Start,
            pause(2, 0, &[("a", Value::Null), ("p", Value::Null)]),
        )]);
        assert!(judge(&parent, &wrong, &t)
            .unwrap()
            .message
            .contains("not undefined"));
        // Just past the closing brace (4:0), where JavaScriptCore pauses as the function
        // returns: the parameter shown is held to `undefined`, and may be absent.
        let at_end = |vars: &[(&str, Value)]| trace(vec![(Action::Start, pause(4, 1, vars))]);
        let parent_end = at_end(&[("a", Value::Null)]);
        for shown in [
            vec![("a", Value::Null), ("p", Value::Undefined)],
            vec![("a", Value::Null)],
        ] {
            assert_eq!(judge(&parent_end, &at_end(&shown), &t), None, "{shown:?}");
        }
        assert!(judge(
            &parent_end,
            &at_end(&[("a", Value::Null), ("p", Value::Null)]),
            &t
        )
        .unwrap()
        .message
        .contains("not undefined"));
        // One column further is the caller's: an extra `p` there is a difference.
        let further = trace(vec![(Action::Start, pause(4, 2, &[("a", Value::Null)]))]);
        assert!(judge(
            &further,
            &trace(vec![(
                Action::Start,
                pause(4, 2, &[("a", Value::Null), ("p", Value::Undefined)])
            )]),
            &t
        )
        .is_some());
    }

    fn bp(line: u32, id: u32) -> (Action, Output) {
        let at = Location::new(line, 0);
        (
            Action::SetBreakpoint { line, column: None },
            Output::BreakpointSet {
                id: BreakpointId(id),
                requested: at,
                actual: vec![at],
                source: LocationSource::EngineReported,
                policy: None,
            },
        )
    }

    fn conditional(line: u32, id: u32, condition: &str) -> (Action, Output) {
        let (_, out) = bp(line, id);
        (
            Action::SetConditionalBreakpoint {
                line,
                condition: condition.into(),
                column: None,
            },
            out,
        )
    }

    #[test]
    fn a_condition_true_pairs_with_the_plain_breakpoint_and_a_false_one_must_not_pause() {
        let parent = trace(vec![
            bp(3, 1),
            (Action::Start, pause(3, 0, &[])),
            (Action::Resume, done()),
        ]);
        let same = trace(vec![
            conditional(3, 1, "true"),
            (Action::Start, pause(3, 0, &[])),
            (Action::Resume, done()),
        ]);
        let x = Expectation::default();
        assert_eq!(
            judge(
                &parent,
                &same,
                &record(Transformation::ConditionTrue, None, &x)
            ),
            None
        );
        // A condition taken as false: the pause is gone.
        let ignored = trace(vec![conditional(3, 1, "true"), (Action::Start, done())]);
        let v = judge(
            &parent,
            &ignored,
            &record(Transformation::ConditionTrue, None, &x),
        )
        .unwrap();
        assert_eq!(v.relation, "a-true-condition-is-a-plain-breakpoint");
        assert_eq!(v.kind, DivergenceKind::Termination);

        // condition-false: a breakpoint inserted before Start, whose pause must not come.
        let x = Expectation {
            inserted: [1].into(),
            ..Default::default()
        };
        let kept = trace(vec![
            bp(3, 1),
            conditional(5, 2, "false"),
            (Action::Start, pause(3, 0, &[])),
            (Action::Resume, done()),
        ]);
        assert_eq!(
            judge(
                &parent,
                &kept,
                &record(Transformation::ConditionFalse, None, &x)
            ),
            None
        );
        let paused = trace(vec![
            bp(3, 1),
            conditional(5, 2, "false"),
            (Action::Start, pause(5, 0, &[])),
            (Action::Resume, pause(3, 0, &[])),
            (Action::Resume, done()),
        ]);
        let v = judge(
            &parent,
            &paused,
            &record(Transformation::ConditionFalse, None, &x),
        )
        .unwrap();
        assert_eq!(v.kind, DivergenceKind::PauseLocation);
        assert!(v.message.contains("vs 6:1"), "{}", v.message);
        // A pause at the false breakpoint's place is named so; one elsewhere is not.
        assert!(
            v.message
                .ends_with("; the follow-up paused at the added breakpoint (condition false)"),
            "{}",
            v.message
        );
        let elsewhere = trace(vec![
            bp(3, 1),
            conditional(5, 2, "false"),
            (Action::Start, pause(4, 0, &[])),
            (Action::Resume, pause(3, 0, &[])),
            (Action::Resume, done()),
        ]);
        let v = judge(
            &parent,
            &elsewhere,
            &record(Transformation::ConditionFalse, None, &x),
        )
        .unwrap();
        assert!(v.message.ends_with("vs 5:1"), "{}", v.message);

        // A step into from where the false breakpoint was added, that went elsewhere: named so.
        // From another place, or a step over, it is not.
        let parent = trace(vec![
            bp(3, 1),
            (Action::Start, pause(3, 0, &[])),
            (Action::StepInto, pause(7, 0, &[])),
            (Action::Resume, done()),
        ]);
        let x = Expectation {
            inserted: [2].into(),
            ..Default::default()
        };
        let step_from = |false_line, step: Action| {
            let follow_up = trace(vec![
                bp(3, 1),
                (Action::Start, pause(3, 0, &[])),
                conditional(false_line, 2, "false"),
                (step, pause(4, 0, &[])),
                (Action::Resume, done()),
            ]);
            judge(
                &parent,
                &follow_up,
                &record(Transformation::ConditionFalse, None, &x),
            )
            .unwrap()
            .message
        };
        let v = step_from(3, Action::StepInto);
        assert!(
            v.ends_with(&format!("vs 5:1; {STEP_INTO_FROM_A_FALSE_BREAKPOINT}")),
            "{v}"
        );
        assert!(!step_from(5, Action::StepInto).contains(STEP_INTO_FROM_A_FALSE_BREAKPOINT));
        assert!(!step_from(3, Action::StepOver).contains(STEP_INTO_FROM_A_FALSE_BREAKPOINT));
    }

    /// A pause on a thrown `ReferenceError` with this description (stack lines after the first).
    fn exception_pause(line: u32, column: u32, description: &str) -> Output {
        let mut thrown = pause(line, column, &[]);
        if let Output::Paused(q) = &mut thrown {
            q.reason = PauseReason::Exception;
            q.exception = Some(Box::new(Value::Object {
                kind: morphtrace_schema::value::ObjectKind::Error,
                class: "ReferenceError".into(),
                description: Some(description.into()),
                entries: None,
                truncated: false,
            }));
        }
        thrown
    }

    #[test]
    fn a_misplaced_exception_pause_names_what_was_thrown() {
        let parent = trace(vec![
            bp(3, 1),
            (Action::Start, pause(3, 0, &[])),
            (Action::Resume, done()),
        ]);
        let thrown = exception_pause(
            5,
            2,
            "ReferenceError: Super constructor may only be called once\n    at f (x.js:2:18)",
        );
        let follow_up = trace(vec![
            bp(3, 1),
            (Action::Start, thrown),
            (Action::Resume, done()),
        ]);
        let x = Expectation::default();
        let v = judge(
            &parent,
            &follow_up,
            &record(Transformation::ConditionTrue, None, &x),
        )
        .unwrap();
        assert!(
            v.message.ends_with(
                "vs 6:3; the follow-up paused on the exception ReferenceError: Super constructor may only be called once"
            ),
            "{}",
            v.message
        );
    }

    #[test]
    fn a_missing_exception_pause_names_what_the_parent_had_thrown() {
        let thrown = exception_pause(
            8,
            6,
            "ReferenceError: Must call super constructor in derived class\n    at new C (x.js:8:7)",
        );
        let parent = trace(vec![
            bp(8, 1),
            (Action::Start, pause(8, 6, &[])),
            (Action::StepOver, thrown),
            (Action::Resume, done()),
        ]);
        let follow_up = trace(vec![
            bp(8, 1),
            (Action::Start, pause(8, 6, &[])),
            (Action::StepOver, pause(10, 6, &[])),
            (Action::Resume, done()),
        ]);
        let x = Expectation::default();
        let v = judge(
            &parent,
            &follow_up,
            &record(Transformation::ConditionTrue, None, &x),
        )
        .unwrap();
        assert_eq!(
            v.message,
            "after stepOver, expected an exception pause at 9:7 as in the parent: paused at 9:7 vs \
             11:7; the parent paused on the exception ReferenceError: Must call super constructor in \
             derived class"
        );
    }

    #[test]
    fn an_end_on_an_uncaught_error_names_it() {
        let parent = trace(vec![
            bp(3, 1),
            (Action::Start, pause(3, 0, &[])),
            (Action::StepInto, pause(5, 2, &[])),
            (Action::Resume, done()),
        ]);
        let follow_up = trace(vec![
            bp(3, 1),
            (Action::Start, pause(3, 0, &[])),
            (
                Action::StepInto,
                Output::Finished {
                    outcome: morphtrace_schema::trace::ProgramOutcome::UncaughtException {
                        message: "ReferenceError: Super constructor may only be called once\nmore"
                            .into(),
                        location: None,
                    },
                },
            ),
        ]);
        let x = Expectation::default();
        let v = judge(
            &parent,
            &follow_up,
            &record(Transformation::ConditionTrue, None, &x),
        )
        .unwrap();
        assert_eq!(
            v.message,
            "after stepInto, expected a pause at 6:3 as in the parent: second side ended \
             (uncaught-exception), first side paused at 6:3; the follow-up ended on the exception \
             ReferenceError: Super constructor may only be called once"
        );
    }

    #[test]
    fn a_resume_that_missed_the_place_of_a_step_pause_says_so() {
        let x = Expectation::default();
        let r = record(Transformation::ConditionTrue, None, &x);
        for (stepped_to, named) in [(3, true), (4, false)] {
            let parent = trace(vec![
                bp(3, 1),
                (Action::Start, pause(3, 0, &[])),
                (Action::StepInto, pause(stepped_to, 0, &[])),
                (Action::Resume, pause(3, 0, &[])),
                (Action::Resume, done()),
            ]);
            let follow_up = trace(vec![
                bp(3, 1),
                (Action::Start, pause(3, 0, &[])),
                (Action::StepInto, pause(stepped_to, 0, &[])),
                (Action::Resume, done()),
            ]);
            let v = judge(&parent, &follow_up, &r).unwrap();
            let expected = "after resume, expected a pause at 4:1 as in the parent: second side \
                            ended (completed), first side paused at 4:1";
            // Near miss: the step had stopped elsewhere.
            if named {
                assert_eq!(
                    v.message,
                    format!("{expected}; {MISSED_WHERE_A_STEP_STOOD}")
                );
            } else {
                assert_eq!(v.message, expected);
            }
        }
    }

    #[test]
    fn a_missed_exception_pause_on_a_false_breakpoints_line_says_so() {
        let x = Expectation {
            inserted: [1].into(),
            ..Default::default()
        };
        let r = record(Transformation::ConditionFalse, None, &x);
        // The false breakpoint on the throw's line (line 8, 0-based 7), then on another line.
        for (false_line, named) in [(7, true), (5, false)] {
            let parent = trace(vec![
                bp(3, 1),
                (Action::Start, pause(3, 0, &[])),
                (
                    Action::Resume,
                    exception_pause(7, 6, "TypeError: x is not a function"),
                ),
                (Action::Resume, done()),
            ]);
            let follow_up = trace(vec![
                bp(3, 1),
                conditional(false_line, 2, "false"),
                (Action::Start, pause(3, 0, &[])),
                (Action::Resume, done()),
            ]);
            let v = judge(&parent, &follow_up, &r).unwrap();
            let said = v
                .message
                .ends_with(&format!("; {}", crate::warning::Aside::MissedOnAFalseLine));
            assert_eq!(said, named, "{}", v.message);
        }
    }

    #[test]
    fn a_missed_exception_pause_before_where_a_false_breakpoint_on_its_line_went_says_so() {
        let x = Expectation {
            inserted: [1].into(),
            ..Default::default()
        };
        let r = record(Transformation::ConditionFalse, None, &x);
        // The throw at 7:13 (0-based 6:12); the false breakpoint asked for on line 7 and placed
        // at 8:2, after it: said. Placed at 7:2, on the throw's line: the other remark. Asked
        // for on line 8 and placed at 8:2: neither.
        let before = Some(MISSED_BEFORE_A_FALSE_PLACE);
        let on = Some(MISSED_ON_A_FALSE_LINE);
        for (asked, placed, remark) in [
            (6, Location::new(7, 1), before),
            (6, Location::new(6, 1), on),
            (7, Location::new(7, 1), None),
        ] {
            let parent = trace(vec![
                bp(16, 1),
                (Action::Start, pause(16, 1, &[])),
                (
                    Action::Resume,
                    exception_pause(6, 12, "TypeError: Cannot initialize private methods"),
                ),
                (Action::Resume, done()),
            ]);
            let (action, mut out) = conditional(asked, 2, "false");
            if let Output::BreakpointSet { actual, .. } = &mut out {
                *actual = vec![placed];
            }
            let follow_up = trace(vec![
                bp(16, 1),
                (action, out),
                (Action::Start, pause(16, 1, &[])),
                (Action::Resume, done()),
            ]);
            let v = judge(&parent, &follow_up, &r).unwrap();
            let said = [MISSED_BEFORE_A_FALSE_PLACE, MISSED_ON_A_FALSE_LINE]
                .into_iter()
                .find(|m| v.message.ends_with(&format!("; {m}")));
            assert_eq!(said, remark, "{asked} {placed}: {}", v.message);
        }
    }

    #[test]
    fn a_condition_over_a_local_skips_exactly_the_pauses_it_filters() {
        let at = |i: f64| pause(3, 0, &[("i", Value::Number(i))]);
        let parent = trace(vec![
            bp(3, 1),
            (Action::Start, at(0.0)),
            (Action::Resume, at(1.0)),
            (Action::Resume, at(2.0)),
            (Action::Resume, done()),
        ]);
        // `i !== 1`: the parent's pause answering action 2 is filtered; action 3 dropped.
        let x = Expectation {
            skipped: [2].into(),
            ..Default::default()
        };
        let t = record(Transformation::ConditionLocal, None, &x);
        assert_eq!(Expectation::of(&t), x);
        let good = trace(vec![
            conditional(3, 1, "i !== 1"),
            (Action::Start, at(0.0)),
            (Action::Resume, at(2.0)),
            (Action::Resume, done()),
        ]);
        assert_eq!(judge(&parent, &good, &t), None);
        let ignored = trace(vec![
            conditional(3, 1, "i !== 1"),
            (Action::Start, at(0.0)),
            (Action::Resume, at(1.0)),
            (Action::Resume, at(2.0)),
        ]);
        let v = judge(&parent, &ignored, &t).unwrap();
        assert_eq!(v.kind, DivergenceKind::Variables);
        // Filtering too much is as wrong as too little.
        let too_much = trace(vec![
            conditional(3, 1, "i !== 1"),
            (Action::Start, at(0.0)),
            (Action::Resume, done()),
        ]);
        assert!(judge(&parent, &too_much, &t).is_some());
    }

    #[test]
    fn an_evaluated_local_must_equal_its_value_in_the_scopes() {
        let p = || {
            pause(
                2,
                0,
                &[("n", Value::Number(7.0)), ("s", Value::String("a".into()))],
            )
        };
        let parent = trace(vec![(Action::Start, p()), (Action::Resume, done())]);
        let x = Expectation {
            inserted: [1].into(),
            evaluated_locals: [1].into(),
            ..Default::default()
        };
        let t = record(Transformation::EvaluateLocal, None, &x);
        assert_eq!(Expectation::of(&t), x);
        let eval = |v: Value, threw: bool| {
            (
                Action::Evaluate {
                    expression: "n".into(),
                },
                Output::Evaluated { value: v, threw },
            )
        };
        let good = trace(vec![
            (Action::Start, p()),
            eval(Value::Number(7.0), false),
            (Action::Resume, done()),
        ]);
        assert_eq!(judge(&parent, &good, &t), None);
        for wrong in [
            eval(Value::Number(8.0), false),
            eval(Value::Number(7.0), true),
        ] {
            let bad = trace(vec![(Action::Start, p()), wrong, (Action::Resume, done())]);
            let v = judge(&parent, &bad, &t).unwrap();
            assert_eq!(v.kind, DivergenceKind::Evaluation);
            assert!(v.message.contains("show 7"), "{}", v.message);
        }
        // Evaluations both sessions made compare pairwise.
        let both = |v: f64| {
            trace(vec![
                (Action::Start, p()),
                eval(Value::Number(v), false),
                (Action::Resume, done()),
            ])
        };
        let x = Expectation::default();
        let t = record(Transformation::ConditionTrue, None, &x);
        assert_eq!(judge(&both(7.0), &both(7.0), &t), None);
        assert_eq!(
            judge(&both(7.0), &both(9.0), &t).map(|v| v.kind),
            Some(DivergenceKind::Evaluation)
        );
    }

    #[test]
    fn pausing_on_all_exceptions_allows_extra_pauses_at_throws_only() {
        let parent = trace(vec![
            bp(6, 1),
            (Action::Start, pause(6, 0, &[])),
            (Action::Resume, done()),
        ]);
        let thrown = || {
            let mut p = pause(2, 4, &[]);
            if let Output::Paused(q) = &mut p {
                q.reason = PauseReason::Exception;
                q.exception = Some(Box::new(Value::Number(1.0)));
            }
            p
        };
        let x = Expectation {
            inserted: [0].into(),
            extra_exception_pauses: true,
            ..Default::default()
        };
        let t = record(Transformation::PauseOnAll, None, &x);
        assert_eq!(Expectation::of(&t), x);
        let set = (
            Action::PauseOnExceptions {
                mode: ExceptionPause::All,
            },
            Output::PauseOnExceptionsSet {
                mode: ExceptionPause::All,
            },
        );
        let good = trace(vec![
            set.clone(),
            bp(6, 1),
            (Action::Start, thrown()),
            (Action::Resume, pause(6, 0, &[])),
            (Action::Resume, done()),
        ]);
        assert_eq!(judge(&parent, &good, &t), None);
        // A pause that is no throw is not allowed, nor a missing one.
        let bad = trace(vec![
            set.clone(),
            bp(6, 1),
            (Action::Start, pause(2, 4, &[])),
            (Action::Resume, pause(6, 0, &[])),
            (Action::Resume, done()),
        ]);
        let v = judge(&parent, &bad, &t).unwrap();
        assert!(!v.message.contains("catch"), "{}", v.message);
        // The same pause in a catch block is named so (JavaScriptCore's built-in throws).
        let in_catch = |line, column| match pause(line, column, &[]) {
            Output::Paused(mut q) => {
                q.stack[0].scopes[0].kind = ScopeKind::Catch;
                Output::Paused(q)
            }
            other => other,
        };
        let caught = trace(vec![
            set.clone(),
            bp(6, 1),
            (Action::Start, in_catch(2, 4)),
            (Action::Resume, pause(6, 0, &[])),
            (Action::Resume, done()),
        ]);
        let v = judge(&parent, &caught, &t).unwrap();
        assert!(
            v.message
                .ends_with("; the follow-up paused in a catch block, not on the exception"),
            "{}",
            v.message
        );
        let missing = trace(vec![
            set.clone(),
            bp(6, 1),
            (Action::Start, thrown()),
            (Action::Resume, done()),
        ]);
        assert!(judge(&parent, &missing, &t).is_some());
        // A second pause at the breakpoint the follow-up stood on, no exception said: named so.
        // At another place, or with the exception, it is not.
        let at_bp = |line, column, exception: bool| match pause(line, column, &[]) {
            Output::Paused(mut q) => {
                q.reason = PauseReason::Breakpoint {
                    ids: vec![BreakpointId(line)],
                };
                if exception {
                    q.exception = Some(Box::new(Value::Number(1.0)));
                }
                Output::Paused(q)
            }
            other => other,
        };
        let again = |second: Output| {
            let follow_up = trace(vec![
                set.clone(),
                bp(6, 1),
                (Action::Start, at_bp(6, 0, false)),
                (Action::StepInto, second),
                (Action::Resume, done()),
            ]);
            judge(&parent, &follow_up, &t).map(|v| v.message)
        };
        let v = again(at_bp(6, 0, false)).unwrap();
        assert!(v.ends_with(&format!("; {AGAIN_AT_ITS_BREAKPOINT}")), "{v}");
        // The same breakpoint further on its line (JavaScriptCore's breakpoint at a line's
        // start matches the whole line): named so too.
        let further = again(at_bp(6, 9, false)).unwrap();
        assert!(further.ends_with(AGAIN_AT_ITS_BREAKPOINT), "{further}");
        let another = again(at_bp(2, 0, false)).unwrap();
        assert!(!another.contains(AGAIN_AT_ITS_BREAKPOINT), "{another}");
        // Breakpoint 2 was never placed at all: not named as away from its place either.
        // Breakpoint 6, placed at 7:1, paused for at 7:10 after a
        // step's pause: named so.
        assert!(!another.contains(AWAY_FROM_ITS_BREAKPOINT), "{another}");
        let away = trace(vec![
            set.clone(),
            bp(6, 6),
            (Action::Start, pause(6, 0, &[])),
            (Action::StepOut, at_bp(6, 9, false)),
            (Action::Resume, done()),
        ]);
        let v = judge(&parent, &away, &t).unwrap().message;
        assert!(v.ends_with(AWAY_FROM_ITS_BREAKPOINT), "{v}");
        assert_eq!(again(at_bp(6, 0, true)), None);
    }
}
