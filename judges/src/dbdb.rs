//! DBDB (ESEC/FSE 2018): relations as pure functions over outputs and traces, what counts as the same behaviour of two
//! debuggers (DBDB §3.4). The recorder applies them online; the analyzer re-judges offline,
//! possibly with another policy.

use crate::difference::Difference;
use crate::remark::{PastTheCall, Remark, Side};
use morphtrace_schema::session::DivergenceKind;
use morphtrace_schema::trace::{AsyncFrames, Output, PauseState, Scope, ScopeKind};
use morphtrace_schema::value::Value;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Which details of two outputs must agree. The default is DBDB's: lines (not columns) of
/// breakpoints and pauses, function names of the call stack, and variables with their values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComparisonPolicy {
    /// Compare columns too, not only lines.
    pub columns: bool,
    /// Compare the function names of the call stack.
    pub call_stack: bool,
    /// Compare variables (names, types, values) of the top frame.
    pub variables: bool,
    /// Compare breakpoint outputs (actual locations, removal results).
    pub breakpoints: bool,
    /// Compare objects' class names and descriptions too (`Point` vs `Object`, how a `Date` is
    /// printed), not only their kind and entries. Off for engines that name things differently.
    #[serde(default = "yes")]
    pub object_shells: bool,
    /// Compare the function names of the async call stack (the frames that scheduled the
    /// paused code), where both sides recorded one.
    #[serde(default = "yes")]
    pub async_stack: bool,
    /// Compare whether each side paused on an exception: two pauses at one place, one on an
    /// exception and one for another reason, differ (a missed exception pause, or one where
    /// nothing was thrown).
    #[serde(default = "yes")]
    pub exception_pauses: bool,
    /// Compare errors' messages (`Value::error_message`) where both sides' can be read. Off
    /// where the program's text differs between the sides (a metamorphic follow-up): engines
    /// quote the program's source in the messages they word (V8 `o.f is not a function`).
    #[serde(default = "yes")]
    pub error_messages: bool,
    /// Which sessions are held to what the program prints and how it ends without a debugger
    /// (`crate::attached`).
    #[serde(default)]
    pub attached_output: crate::attached::Check,
    /// At one pause, the features divergences already gone past there have judged: compared
    /// no more at that pause, everything else still is (an excused difference masks only
    /// itself). Empty but in lockstep's live comparison of one action; never recorded.
    #[serde(skip)]
    pub mask: PauseMask,
}

/// The features of one pause that divergences already gone past have judged: the call stack's
/// names, the async stack, the thrown value, variables by name. A pause's place is never
/// masked: two pauses apart compare nothing else.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PauseMask {
    pub call_stack: bool,
    pub async_stack: bool,
    pub exception: bool,
    pub variables: BTreeSet<String>,
}

impl PauseMask {
    /// Masks the feature the divergence (`kind`, `detail`) at a pause is about: whether that
    /// masked something not masked before (false for a feature that cannot be masked, or one
    /// already masked: comparing again would find the same difference).
    pub fn cover(&mut self, kind: &DivergenceKind, detail: &str) -> bool {
        let newly = |flag: &mut bool| !std::mem::replace(flag, true);
        match kind {
            DivergenceKind::CallStack => newly(&mut self.call_stack),
            DivergenceKind::AsyncStack => newly(&mut self.async_stack),
            DivergenceKind::Exception if shown_at_one_place(kind, detail) => {
                newly(&mut self.exception)
            }
            DivergenceKind::Variables => match crate::difference::in_frame(detail) {
                Some((n, rest)) => match crate::difference::variable_name(rest) {
                    Some(name) => self.variables.insert(format!("{n}:{name}")),
                    None => false,
                },
                None => match crate::difference::variable_name(detail) {
                    Some(name) => self.variables.insert(name.to_string()),
                    None => false,
                },
            },
            _ => false,
        }
    }
}

fn yes() -> bool {
    true
}

impl Default for ComparisonPolicy {
    fn default() -> Self {
        ComparisonPolicy {
            columns: false,
            call_stack: true,
            variables: true,
            breakpoints: true,
            object_shells: true,
            async_stack: true,
            exception_pauses: true,
            error_messages: true,
            attached_output: crate::attached::Check::default(),
            mask: PauseMask::default(),
        }
    }
}

impl ComparisonPolicy {
    /// `name=value` pairs for the archive header's campaign parameters.
    pub fn params(&self) -> Vec<(String, String)> {
        vec![
            ("compare.columns".into(), self.columns.to_string()),
            ("compare.call_stack".into(), self.call_stack.to_string()),
            ("compare.variables".into(), self.variables.to_string()),
            ("compare.breakpoints".into(), self.breakpoints.to_string()),
            (
                "compare.object_shells".into(),
                self.object_shells.to_string(),
            ),
            ("compare.async_stack".into(), self.async_stack.to_string()),
            (
                "compare.exception_pauses".into(),
                self.exception_pauses.to_string(),
            ),
            (
                "compare.error_messages".into(),
                self.error_messages.to_string(),
            ),
            (
                "compare.attached_output".into(),
                self.attached_output.name().into(),
            ),
        ]
    }
}

/// Variables visible in the top frame, innermost binding first wins; the global scope excluded.
pub fn visible_variables(scopes: &[Scope]) -> BTreeMap<&str, &Value> {
    let mut out = BTreeMap::new();
    for s in scopes {
        if s.kind == ScopeKind::Global {
            continue;
        }
        for v in &s.variables {
            out.entry(v.name.as_str()).or_insert(&v.value);
        }
    }
    out
}

/// Where two pauses' async call stacks name different functions: segment by segment, the
/// function names of each; the causes are each engine's wording and are not compared. An
/// engine that keeps no async stack (or an archive from before they were recorded) is not
/// compared.
pub fn async_stack_difference(a: &PauseState, b: &PauseState) -> Option<String> {
    let (Some(sa), Some(sb)) = (&a.async_stack, &b.async_stack) else {
        return None;
    };
    let names = |s: &[AsyncFrames]| -> Vec<Vec<String>> {
        s.iter()
            .map(|s| s.frames.iter().map(|f| f.function.clone()).collect())
            .collect()
    };
    let (x, y) = (names(sa), names(sb));
    if x == y {
        return None;
    }
    Some(Difference::AsyncStack { segments: [x, y] }.to_string())
}

fn pause_divergence(
    a: &PauseState,
    b: &PauseState,
    policy: &ComparisonPolicy,
) -> Option<(DivergenceKind, String)> {
    let same_loc = a.location.line == b.location.line
        && (!policy.columns || a.location.column == b.location.column);
    if !same_loc {
        return Some((
            DivergenceKind::PauseLocation,
            format!(
                "{}{}{}",
                Difference::PausedAt {
                    at: [a.location.to_string(), b.location.to_string()]
                },
                condition_remark(Side::First, a),
                condition_remark(Side::Second, b)
            ),
        ));
    }
    let mask = &policy.mask;
    if policy.call_stack && !mask.call_stack {
        let fa: Vec<&str> = a.stack.iter().map(|f| f.function.as_str()).collect();
        let fb: Vec<&str> = b.stack.iter().map(|f| f.function.as_str()).collect();
        if fa != fb {
            return Some((
                DivergenceKind::CallStack,
                format!(
                    "{}{}{}",
                    Difference::Stack {
                        frames: [&fa, &fb].map(|f| f.iter().map(|s| s.to_string()).collect())
                    },
                    one_frame_further(&fa, &fb),
                    initializer_names_only(&fa, &fb)
                ),
            ));
        }
    }
    if policy.async_stack && !mask.async_stack {
        if let Some(message) = async_stack_difference(a, b) {
            return Some((DivergenceKind::AsyncStack, message));
        }
    }
    if policy.exception_pauses {
        if let Some(detail) = exception_pause_on_one_side(a, b) {
            return Some((DivergenceKind::Exception, detail));
        }
    }
    if let (Some(x), Some(y), false) = (&a.exception, &b.exception, mask.exception) {
        if !same_thrown(x, y, policy) {
            return Some((DivergenceKind::Exception, {
                let (thrown, messages) = thrown_apart(x, y);
                Difference::Threw { thrown, messages }.to_string()
            }));
        }
    }
    if policy.variables {
        if let Some(d) = variables_apart(a, b, policy) {
            return Some(d);
        }
        // The frames below the top, where both sides captured their scopes (`--frame-scopes`)
        // and the frame is the same function's on both: `frame N (f): …`, N counted from the
        // top frame's 1.
        for (i, (fa, fb)) in a.stack.iter().zip(&b.stack).enumerate().skip(1) {
            if fa.scopes.is_empty() || fb.scopes.is_empty() || fa.function != fb.function {
                continue;
            }
            let frame = (i + 1) as u32;
            if let Some((kind, detail, remarks)) = frame_variables_apart(
                (&fa.scopes, &fb.scopes),
                |name| mask.variables.contains(&format!("{frame}:{name}")),
                policy,
                None,
            ) {
                let framed = Difference::InFrame {
                    frame,
                    function: fa.function.clone(),
                    inner: Box::new(detail),
                };
                return Some((kind, format!("{framed}{remarks}")));
            }
        }
    }
    None
}

/// The first difference in the variables of the top frames of two pauses at one place.
fn variables_apart(
    a: &PauseState,
    b: &PauseState,
    policy: &ComparisonPolicy,
) -> Option<(DivergenceKind, String)> {
    let mask = &policy.mask;
    frame_variables_apart(
        (a.top_scopes(), b.top_scopes()),
        |name| mask.variables.contains(name),
        policy,
        Some((a, b)),
    )
    .map(|(kind, d, remarks)| (kind, format!("{d}{remarks}")))
}

/// The first difference in the variables visible in two frames' scopes (`masked`: names gone
/// past at this pause), as `name only on the first side` or `name.path: x vs y (shell)`, with
/// its remarks; the top frames' pauses (`top`) to remark on a value shown in its dead zone.
fn frame_variables_apart(
    (sa, sb): (&[Scope], &[Scope]),
    masked: impl Fn(&str) -> bool,
    policy: &ComparisonPolicy,
    top: Option<(&PauseState, &PauseState)>,
) -> Option<(DivergenceKind, Difference, String)> {
    let (mut va, mut vb) = (visible_variables(sa), visible_variables(sb));
    va.retain(|name, _| !masked(name));
    vb.retain(|name, _| !masked(name));
    for (name, x) in &va {
        match vb.get(name) {
            None => {
                return Some((
                    DivergenceKind::Variables,
                    Difference::OnlyOn {
                        name: name.to_string(),
                        side: Side::First,
                    },
                    String::new(),
                ))
            }
            Some(y) if !x.equal_as(y, policy.object_shells, policy.error_messages) => {
                let (path, x, y) = x
                    .first_difference_as(y, policy.object_shells, policy.error_messages)
                    .unwrap_or((String::new(), x, y));
                let dead = match top {
                    Some((a, b)) if path.is_empty() => dead_zone_remark(a, b, x, y),
                    _ => String::new(),
                };
                return Some((
                    DivergenceKind::Variables,
                    Difference::Value {
                        name: name.to_string(),
                        path,
                        values: [x.to_string(), y.to_string()],
                        shell: crate::difference::shell_difference(x, y),
                    },
                    dead,
                ));
            }
            _ => {}
        }
    }
    if let Some(name) = vb.keys().find(|n| !va.contains_key(*n)) {
        return Some((
            DivergenceKind::Variables,
            Difference::OnlyOn {
                name: name.to_string(),
                side: Side::Second,
            },
            String::new(),
        ));
    }
    None
}

/// `first side paused on an exception (threw Error), second side for a breakpoint`: two pauses
/// at the same place, only one of them on an exception. Each side named, so that a rule can say
/// which engine did what.
fn exception_pause_on_one_side(a: &PauseState, b: &PauseState) -> Option<String> {
    use morphtrace_schema::trace::PauseReason;
    let on = |p: &PauseState| matches!(p.reason, PauseReason::Exception);
    let (side, p, q) = match (on(a), on(b)) {
        (true, false) => (Side::First, a, b),
        (false, true) => (Side::Second, b, a),
        _ => return None,
    };
    Some(
        Difference::ExceptionPauseOnOneSide {
            on: side,
            thrown: p.exception.as_deref().map(|v| v.to_string()),
            other_reason: q.reason.name().to_string(),
        }
        .to_string(),
    )
}

/// `Remark::ValueInDeadZone` where one side shows a binding uninitialized and the other with a
/// value (not `undefined`, which is how Node 20 and older V8 show a binding in its dead zone),
/// both paused at the same line and column: at one place of the program the binding is in its
/// temporal dead zone or it is not, so one of the two shows what the program cannot see.
fn dead_zone_remark(a: &PauseState, b: &PauseState, x: &Value, y: &Value) -> String {
    if a.location != b.location {
        return String::new();
    }
    // Optimized out or unavailable: the engine says it cannot show one.
    let shows = |v: &Value| {
        !matches!(
            v,
            Value::Uninitialized | Value::Undefined | Value::OptimizedOut | Value::Unavailable
        )
    };
    let side = match (x, y) {
        (v, Value::Uninitialized) if shows(v) => Side::First,
        (Value::Uninitialized, v) if shows(v) => Side::Second,
        _ => return String::new(),
    };
    Remark::ValueInDeadZone { side }.to_string()
}

/// V8's names for the functions that run a class's field initializers and static blocks, which
/// SpiderMonkey and JavaScriptCore leave unnamed.
const INITIALIZER_NAMES: [&str; 2] = ["<instance_members_initializer>", "<static_initializer>"];

/// `Remark::OnlyAnInitializersName` when the stacks have the same frames and every differing
/// name is such an initializer's on one side and empty on the other; empty otherwise.
fn initializer_names_only(a: &[&str], b: &[&str]) -> String {
    let unnamed = |x: &str, y: &str| x.is_empty() && INITIALIZER_NAMES.contains(&y);
    let alike = a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x == y || unnamed(x, y) || unnamed(y, x));
    if alike {
        Remark::OnlyAnInitializersName.to_string()
    } else {
        String::new()
    }
}

/// `Remark::OneFrameFurther` where one side's stack is the other's with one more frame on top
/// (a debugger that stops at a generator's `yield`, shown in its caller, against one that stops
/// in the generator).
fn one_frame_further(a: &[&str], b: &[&str]) -> String {
    let further = |x: &[&str], y: &[&str]| x.len() == y.len() + 1 && x[1..] == *y;
    let (side, function) = if further(b, a) {
        (Side::Second, b[0])
    } else if further(a, b) {
        (Side::First, a[0])
    } else {
        return String::new();
    };
    Remark::OneFrameFurther {
        side,
        function: function.to_string(),
    }
    .to_string()
}

/// The remark a pause-location divergence after a step carries when both sides returned into
/// the same caller (the frame the step began in is gone on both, the frames below are the same
/// functions) and exactly one stopped on the line the caller was at before the step (the line
/// of the call): `; first side on the caller's line of the call, second side on another line
/// of the caller`. Debuggers differ here by design (a stop at the call's completion, or at the
/// caller's next line event), and a rule can say so only if the detail says which is which.
/// The caller may be further down when the frames between returned at once (`return f(x)`):
/// the remark then says how many frames down it is (` 2 frames down`).
pub fn returned_into_caller(before: &PauseState, a: &PauseState, b: &PauseState) -> Option<String> {
    (1..before.stack.len()).find_map(|j| returned_into(before, j, a, b))
}

/// `returned_into_caller` for the caller `j` frames down from the step's frame.
fn returned_into(before: &PauseState, j: usize, a: &PauseState, b: &PauseState) -> Option<String> {
    let caller = &before.stack[j];
    let below = &before.stack[j..];
    // `stack` is exactly the caller and the frames below it, the caller at any line.
    let is_caller = |stack: &[morphtrace_schema::trace::Frame]| {
        stack.len() == below.len()
            && stack
                .iter()
                .zip(below)
                .all(|(x, y)| x.function == y.function)
            && stack[1..]
                .iter()
                .zip(&below[1..])
                .all(|(x, y)| x.location.line == y.location.line)
    };
    let on_call_line =
        |p: &PauseState| is_caller(&p.stack) && p.location.line == caller.location.line;
    // On another line of the caller, or in a frame the caller's line of the call made.
    let past = |p: &PauseState| {
        if is_caller(&p.stack) {
            (p.location.line != caller.location.line).then_some(PastTheCall::AnotherLine)
        } else {
            // Another function than the one the step left (not that frame, still there: a
            // debugger that stops once more before leaving, at a closing brace), unless frames
            // between returned too (`j > 1`): the step's frame stood on one of them, so a frame
            // right on the caller is a new call, also of the same function (`Tree.__init__`
            // again). And not a frame between still running: a frame of the same function
            // counts as a new call (recursion) only above that frame's line of the call, where
            // a new call starts (a frame still running is at that line or past it).
            let top = &p.stack[0];
            (p.stack.len() > 1
                && (j > 1 || top.function != before.stack[0].function)
                && before.stack[1..j]
                    .iter()
                    .all(|f| f.function != top.function || top.location.line < f.location.line)
                && is_caller(&p.stack[1..])
                && p.stack[1].location.line == caller.location.line)
                .then_some(PastTheCall::InACallFromIt)
        }
    };
    let side = Side::alone(on_call_line(a), on_call_line(b))?;
    let other = past(if side == Side::First { b } else { a })?;
    Some(
        Remark::OnTheCallLine {
            side,
            frames_down: j as u32,
            other,
        }
        .to_string(),
    )
}

/// What a pause at a conditional breakpoint found the condition to be, where that explains a
/// pause the other side did not make: `; second side at a breakpoint whose condition `x > 3`
/// threw NameError` or `… is false`. Nothing where it held, gave another value, or was not
/// checked (the recorder checks it at a divergence: `PauseState::condition`).
fn condition_remark(side: Side, p: &PauseState) -> String {
    use crate::remark::ConditionOutcome;
    use morphtrace_schema::value::ObjectKind;
    let Some(c) = &p.condition else {
        return String::new();
    };
    let outcome = match (&c.value, c.threw) {
        (
            Value::Object {
                kind: ObjectKind::Error,
                class,
                ..
            },
            true,
        ) => ConditionOutcome::Threw(class.clone()),
        (v, true) => ConditionOutcome::Threw(v.to_string()),
        (Value::Bool(false), false) => ConditionOutcome::IsFalse,
        _ => return String::new(),
    };
    Remark::AtACondition {
        side,
        condition: c.condition.clone(),
        outcome,
    }
    .to_string()
}

/// A pause's engine reason where pdb's driver saw the generator a `next` began in return for
/// good before a breakpoint stopped the program (pdb gives no reasons of its own): the recorder
/// then remarks `Remark::BeganInAGenerator` with the side it stopped.
pub const GENERATOR_ENDED: &str = "after the generator the step began in ended";

/// The outputs of `t` recorded before its action `index` (extra answers included).
fn outputs_before(
    t: &morphtrace_schema::trace::Trace,
    index: usize,
) -> impl Iterator<Item = &Output> {
    use morphtrace_schema::trace::EventKind;
    let mut actions = 0;
    t.events
        .iter()
        .take_while(move |e| {
            if matches!(e.kind, EventKind::Action(_)) {
                actions += 1;
                return actions <= index;
            }
            true
        })
        .filter_map(|e| match &e.kind {
            EventKind::Output(o) => Some(o),
            EventKind::Action(_) => None,
        })
}

/// The pause the program was at before action `index` of `trace`: the last pause recorded
/// before that action, extra answers included (the steps lockstep took to catch up).
pub fn pause_before(t: &morphtrace_schema::trace::Trace, index: usize) -> Option<&PauseState> {
    outputs_before(t, index)
        .filter_map(|o| match o {
            Output::Paused(p) => Some(p),
            _ => None,
        })
        .last()
}

/// `compare_outputs`, with the remarks `returned_into_caller` adds to a step's pause-location
/// divergence and `occupied_remark` to a breakpoint one side did not place. `sides`: each side's
/// trace with the action's index among its actions (the sides agreed before it).
pub fn compare_answers(
    sides: [(&morphtrace_schema::trace::Trace, usize); 2],
    action: &morphtrace_schema::trace::Action,
    a: &Output,
    b: &Output,
    policy: &ComparisonPolicy,
) -> Option<(DivergenceKind, String)> {
    use morphtrace_schema::trace::Action;
    let (kind, mut detail) = compare_outputs(a, b, policy)?;
    match (&kind, action, a, b) {
        (
            DivergenceKind::PauseLocation,
            Action::StepInto | Action::StepOver | Action::StepOut,
            Output::Paused(x),
            Output::Paused(y),
        ) => {
            let (trace, index) = sides[0];
            if let Some(remark) =
                pause_before(trace, index).and_then(|p| returned_into_caller(p, x, y))
            {
                detail.push_str(&remark);
            }
        }
        (DivergenceKind::BreakpointLocation, _, _, _) => {
            detail.push_str(&occupied_remark(sides, a, b).unwrap_or_default())
        }
        _ => {}
    }
    Some((kind, detail))
}

/// `; first side already had a breakpoint on the line where the other placed it` (or second):
/// the side that placed the breakpoint nowhere, or refused it, already had a live breakpoint of
/// its own at the place the other side gave this one, or on its line one that the other side
/// has at that very place (each engine's column for a line differs). An engine that keeps one
/// breakpoint per place (JavaScriptCore, Firefox) is then answering about that place.
fn occupied_remark(
    sides: [(&morphtrace_schema::trace::Trace, usize); 2],
    a: &Output,
    b: &Output,
) -> Option<String> {
    let unplaced = |o: &Output| match o {
        Output::BreakpointSet { actual, .. } => actual.is_empty(),
        Output::Error { .. } => true,
        _ => false,
    };
    let placed = |o: &Output| match o {
        Output::BreakpointSet { actual, .. } if !actual.is_empty() => Some(actual.clone()),
        _ => None,
    };
    let (side, name, places) = if unplaced(a) {
        (0, Side::First, placed(b)?)
    } else if unplaced(b) {
        (1, Side::Second, placed(a)?)
    } else {
        return None;
    };
    let here: Vec<(u32, u32)> = places.iter().map(|l| (l.line, l.column)).collect();
    let (trace, index) = sides[side];
    let (other, other_index) = sides[1 - side];
    let mine = live_before(trace, index);
    let theirs = live_before(other, other_index);
    let at_the_place = mine.iter().any(|(_, p)| p.iter().any(|x| here.contains(x)));
    let shared_on_the_line = theirs
        .iter()
        .filter(|(_, p)| p.iter().any(|x| here.contains(x)))
        .any(|(id, _)| {
            mine.iter()
                .filter(|(m, _)| m == id)
                .any(|(_, p)| p.iter().any(|x| here.iter().any(|h| h.0 == x.0)))
        });
    (at_the_place || shared_on_the_line)
        .then(|| Remark::AlreadyHadOneThere { side: name }.to_string())
}

/// The live breakpoints of `t` before its action `index`, with where each was placed: placed by
/// the trace's earlier actions and not removed since.
fn live_before(
    t: &morphtrace_schema::trace::Trace,
    index: usize,
) -> Vec<(morphtrace_schema::trace::BreakpointId, Vec<(u32, u32)>)> {
    let mut live = Vec::new();
    for o in outputs_before(t, index) {
        match o {
            Output::BreakpointSet { id, actual, .. } => {
                live.push((*id, actual.iter().map(|l| (l.line, l.column)).collect()))
            }
            Output::BreakpointRemoved { id, ok: true } => live.retain(|(x, _)| x != id),
            _ => {}
        }
    }
    live
}

/// Whether two thrown values are the same: errors by their class and message (where both
/// messages can be read: `Value::error_message`; their stacks are each engine's own), anything
/// else as values compare.
fn same_thrown(x: &Value, y: &Value, policy: &ComparisonPolicy) -> bool {
    use morphtrace_schema::value::ObjectKind;
    match (x, y) {
        (
            Value::Object {
                kind: ObjectKind::Error,
                class: a,
                ..
            },
            Value::Object {
                kind: ObjectKind::Error,
                class: b,
                ..
            },
        ) => a == b && (!policy.error_messages || x.messages_apart(y).is_none()),
        _ => x.equal_as(y, policy.object_shells, policy.error_messages),
    }
}

/// The messages of the two errors a divergence between outputs `a` and `b` is about, where it is
/// about two errors of one class whose messages alone differ (`Value::messages_apart`): a
/// thrown value at a pause, an evaluation that threw, or a variable's value (or a value inside
/// it). `None` for any other divergence.
pub fn messages_apart_in(
    kind: &DivergenceKind,
    detail: &str,
    a: &Output,
    b: &Output,
    policy: &ComparisonPolicy,
) -> Option<(String, String)> {
    if !policy.error_messages {
        return None;
    }
    let apart = |x: &Value, y: &Value| {
        same_class(x, y)
            .then(|| x.messages_apart(y))
            .flatten()
            .map(|(m, n)| (m.to_string(), n.to_string()))
    };
    match (kind, a, b) {
        (DivergenceKind::Exception, Output::Paused(p), Output::Paused(q)) => {
            apart(p.exception.as_deref()?, q.exception.as_deref()?)
        }
        (
            DivergenceKind::Evaluation,
            Output::Evaluated {
                value: x,
                threw: true,
            },
            Output::Evaluated {
                value: y,
                threw: true,
            },
        ) => apart(x, y),
        (DivergenceKind::Variables, Output::Paused(p), Output::Paused(q)) => {
            let name = crate::difference::variable_name(detail)?;
            let x = *visible_variables(p.top_scopes()).get(name)?;
            let y = *visible_variables(q.top_scopes()).get(name)?;
            let (_, x, y) =
                x.first_difference_as(y, policy.object_shells, policy.error_messages)?;
            apart(x, y)
        }
        _ => None,
    }
}

/// Two objects of one class.
fn same_class(x: &Value, y: &Value) -> bool {
    matches!((x, y), (Value::Object { class: a, .. }, Value::Object { class: b, .. }) if a == b)
}

/// Two thrown values that are not the same: errors of one class by their class and messages
/// (`TypeError vs TypeError (message "a" vs "b")`), anything else as shown.
fn thrown_apart(x: &Value, y: &Value) -> ([String; 2], Option<[String; 2]>) {
    match (x, y, x.messages_apart(y)) {
        (Value::Object { class: a, .. }, Value::Object { class: b, .. }, Some((m, n)))
            if a == b =>
        {
            (
                [a.clone(), b.clone()],
                Some([format!("{m:?}"), format!("{n:?}")]),
            )
        }
        _ => ([x.to_string(), y.to_string()], None),
    }
}

/// Which side refused, of two answers one of which is an error (`a` the first side's).
fn refusing_side(a: &Output) -> Side {
    if matches!(a, Output::Error { .. }) {
        Side::First
    } else {
        Side::Second
    }
}

/// The divergence between two debuggers' outputs to the same action, if any.
pub fn compare_outputs(
    a: &Output,
    b: &Output,
    policy: &ComparisonPolicy,
) -> Option<(DivergenceKind, String)> {
    use Output::*;
    match (a, b) {
        (BreakpointSet { actual: x, .. }, BreakpointSet { actual: y, .. }) => {
            if !policy.breakpoints {
                return None;
            }
            let key = |l: &morphtrace_schema::trace::Location| {
                (l.line, if policy.columns { l.column } else { 0 })
            };
            let kx: Vec<_> = x.iter().map(key).collect();
            let ky: Vec<_> = y.iter().map(key).collect();
            (kx != ky).then(|| {
                let show = |v: &[morphtrace_schema::trace::Location]| {
                    v.iter().map(|l| l.to_string()).collect()
                };
                (
                    DivergenceKind::BreakpointLocation,
                    Difference::BreakpointAt {
                        placed: [show(x), show(y)],
                    }
                    .to_string(),
                )
            })
        }
        (BreakpointRemoved { ok: x, .. }, BreakpointRemoved { ok: y, .. }) => {
            (policy.breakpoints && x != y).then(|| {
                (
                    DivergenceKind::BreakpointRemoval,
                    Difference::Removed {
                        ok: [x.to_string(), y.to_string()],
                    }
                    .to_string(),
                )
            })
        }
        (BreakpointSet { actual, .. }, Error { message })
        | (Error { message }, BreakpointSet { actual, .. }) => policy.breakpoints.then(|| {
            // Refused on one side, placed nowhere on the other: neither has it.
            let nowhere = if actual.is_empty() {
                Remark::PlacedNowhere.to_string()
            } else {
                String::new()
            };
            (
                DivergenceKind::BreakpointLocation,
                format!(
                    "{}{nowhere}",
                    Difference::RefusedBreakpoint {
                        refused: Some(refusing_side(a)),
                        message: message.clone()
                    }
                ),
            )
        }),
        (Paused(x), Paused(y)) => pause_divergence(x, y, policy),
        (Finished { outcome: x }, Finished { outcome: y }) => (x.name() != y.name()).then(|| {
            (
                DivergenceKind::Termination,
                Difference::ProgramEnded {
                    outcomes: [x.name().to_string(), y.name().to_string()],
                }
                .to_string(),
            )
        }),
        // The side that ended named, so that a rule can say which engine it is.
        (Finished { outcome }, Paused(p)) | (Paused(p), Finished { outcome }) => {
            let ended = if matches!(a, Finished { .. }) {
                Side::First
            } else {
                Side::Second
            };
            Some((
                DivergenceKind::Termination,
                format!(
                    "{}{}",
                    Difference::EndedOnOneSide {
                        ended: Some(ended),
                        outcome: outcome.name().to_string(),
                        paused_at: p.location.to_string(),
                    },
                    condition_remark(ended.other(), p)
                ),
            ))
        }
        (
            Evaluated {
                value: x,
                threw: tx,
            },
            Evaluated {
                value: y,
                threw: ty,
            },
        ) => (tx != ty
            || if *tx {
                !same_thrown(x, y, policy)
            } else {
                !x.equal_as(y, policy.object_shells, policy.error_messages)
            })
        .then(|| {
            if *tx && *ty && same_class(x, y) {
                let (thrown, messages) = thrown_apart(x, y);
                return (
                    DivergenceKind::Evaluation,
                    Difference::EvaluatedThrew { thrown, messages }.to_string(),
                );
            }
            // Objects that differ only besides their entries say how (as variables do), so
            // that a class named otherwise is told from a difference in what they hold.
            let shell = match (tx, ty) {
                (false, false) => {
                    match x.first_difference_as(y, policy.object_shells, policy.error_messages) {
                        Some((path, a, b)) if path.is_empty() => {
                            crate::difference::shell_difference(a, b)
                        }
                        _ => Vec::new(),
                    }
                }
                _ => Vec::new(),
            };
            (
                DivergenceKind::Evaluation,
                Difference::Evaluated {
                    values: [x.to_string(), y.to_string()],
                    threw: [*tx, *ty],
                    shell,
                }
                .to_string(),
            )
        }),
        (Evaluated { value, threw }, Error { message })
        | (Error { message }, Evaluated { value, threw }) => Some((
            DivergenceKind::Evaluation,
            Difference::RefusedToEvaluate {
                refused: Some(refusing_side(a)),
                message: message.clone(),
                threw: *threw,
                value: value.to_string(),
            }
            .to_string(),
        )),
        // Named first, as the other variables divergences are (triage reads the binding).
        (VariableSet { name, value: x }, VariableSet { value: y, .. }) => {
            (!x.equal_as(y, policy.object_shells, policy.error_messages)).then(|| {
                (
                    DivergenceKind::Variables,
                    Difference::ReadBack {
                        name: name.clone(),
                        values: [x.to_string(), y.to_string()],
                    }
                    .to_string(),
                )
            })
        }
        (VariableSet { name, value }, Error { message })
        | (Error { message }, VariableSet { name, value }) => Some((
            DivergenceKind::Variables,
            Difference::RefusedToSet {
                refused: Some(refusing_side(a)),
                name: name.clone(),
                message: message.clone(),
                value: value.to_string(),
            }
            .to_string(),
        )),
        (PauseOnExceptionsSet { .. }, PauseOnExceptionsSet { .. }) => None,
        (Error { message: x }, Error { message: y }) => (x != y).then(|| {
            (
                DivergenceKind::Other("error".into()),
                Difference::Errors {
                    messages: [x.clone(), y.clone()],
                }
                .to_string(),
            )
        }),
        (x, y) => Some((
            DivergenceKind::Other("output".into()),
            Difference::Answers {
                names: [x.name().to_string(), y.name().to_string()],
            }
            .to_string(),
        )),
    }
}

/// Whether a divergence (`kind`, `detail`) is a difference in what the engines show at one
/// place, where they stand in step: a pause's stack, async stack, variables or thrown value, an
/// evaluation's answer, a variable read back. Not a pause on an exception on one side only (the
/// two sides are there for different reasons, and their next steps differ).
pub fn shown_at_one_place(kind: &DivergenceKind, detail: &str) -> bool {
    match kind {
        DivergenceKind::Variables
        | DivergenceKind::CallStack
        | DivergenceKind::AsyncStack
        | DivergenceKind::Evaluation => true,
        DivergenceKind::Exception => detail.starts_with("threw "),
        _ => false,
    }
}

/// Whether two engines stand at one place again, after steps taken to bring them back in step:
/// paused on the same line (and column, where the policy compares columns) in stacks of one
/// depth, or both ended. What they show there compares apart, as an action's answers do, so a
/// difference met where they meet again is a divergence, not a reason to step on.
pub fn same_place(a: &Output, b: &Output, policy: &ComparisonPolicy) -> bool {
    match (a, b) {
        (Output::Paused(x), Output::Paused(y)) => {
            x.location.line == y.location.line
                && (!policy.columns || x.location.column == y.location.column)
                && x.stack.len() == y.stack.len()
        }
        (Output::Finished { .. }, Output::Finished { .. }) => true,
        _ => false,
    }
}

/// Whether an action's answer is the program's end by the action timeout.
pub fn timed_out(o: &Output) -> bool {
    matches!(
        o,
        Output::Finished {
            outcome: morphtrace_schema::trace::ProgramOutcome::Timeout
        }
    )
}

/// Which logpoint logged a line, told alike on every side of a lockstep session: the place of
/// the request that set it among the trace's breakpoint requests. Each debugger numbers its
/// breakpoints itself, so a request one side refuses (by design, say) shifts that side's later
/// numbers; lockstep makes the same requests on every side. A trace that does not hold the
/// request names the logpoint by its own id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Logpoint {
    Request(u32),
    Id(u32),
}

/// Each breakpoint id of a trace by the place of its request among the trace's breakpoint
/// requests.
fn requests(t: &morphtrace_schema::trace::Trace) -> BTreeMap<u32, u32> {
    use morphtrace_schema::trace::EventKind;
    let mut out = BTreeMap::new();
    let (mut n, mut current) = (0u32, None);
    for e in &t.events {
        match &e.kind {
            EventKind::Action(a) => {
                current = a.sets_breakpoint().then_some(n);
                n += u32::from(a.sets_breakpoint());
            }
            EventKind::Output(Output::BreakpointSet { id, .. }) => {
                if let Some(k) = current {
                    out.entry(id.0).or_insert(k);
                }
            }
            _ => {}
        }
    }
    out
}

/// One logged line: which logpoint, its own id on that side, the text.
type LogLine = (Logpoint, u32, String);

/// The lines two traces' logpoints logged during action `action`, those of `quiet` logpoints
/// left out, each cut to what both logged when `cut_short`.
fn logged_during(
    a: &morphtrace_schema::trace::Trace,
    b: &morphtrace_schema::trace::Trace,
    action: u32,
    cut_short: bool,
    quiet: &BTreeSet<Logpoint>,
) -> (Vec<LogLine>, Vec<LogLine>) {
    let at = |t: &morphtrace_schema::trace::Trace| -> Vec<LogLine> {
        let by = requests(t);
        t.logs
            .iter()
            .filter(|l| l.action == action)
            .map(|l| {
                let id = l.breakpoint.0;
                let which = by
                    .get(&id)
                    .map_or(Logpoint::Id(id), |&r| Logpoint::Request(r));
                (which, id, l.text.clone())
            })
            .filter(|(which, _, _)| !quiet.contains(which))
            .collect()
    };
    let (mut x, mut y) = (at(a), at(b));
    if cut_short {
        let n = x.len().min(y.len());
        x.truncate(n);
        y.truncate(n);
    }
    (x, y)
}

/// Where two sides' logged lines first differ (by logpoint and text), if they do.
fn first_apart(x: &[LogLine], y: &[LogLine]) -> Option<usize> {
    let same = |p: &LogLine, q: &LogLine| p.0 == q.0 && p.2 == q.2;
    let k = x.iter().zip(y).take_while(|(p, q)| same(p, q)).count();
    (k < x.len().max(y.len())).then_some(k)
}

/// What two traces' logpoints logged during action `action` differs in, if anything: the lines
/// compare in order, each by its logpoint (`Logpoint`: the request that set it, whatever each
/// side numbered it) and text; each side's line is shown with its own id. `cut_short`: the
/// action ended both programs by the action timeout, each wherever its speed had taken it, so
/// only the lines both logged compare (a slower debugger logs fewer; that is not a difference
/// in what it logs).
pub fn compare_logs(
    a: &morphtrace_schema::trace::Trace,
    b: &morphtrace_schema::trace::Trace,
    action: u32,
    cut_short: bool,
    quiet: &BTreeSet<Logpoint>,
) -> Option<(DivergenceKind, String)> {
    let (x, y) = logged_during(a, b, action, cut_short, quiet);
    let k = first_apart(&x, &y)?;
    let show = |v: &[LogLine]| {
        v.get(k)
            .map(|(_, id, t)| format!("#{id} {t}"))
            .unwrap_or_else(|| "nothing".into())
    };
    Some((
        DivergenceKind::Log,
        Difference::Logged {
            logged: [show(&x), show(&y)],
            line: k as u32 + 1,
            lines: [x.len() as u32, y.len() as u32],
        }
        .to_string(),
    ))
}

/// The logpoints of the first line two traces' logs differ in during action `action`, on
/// either side (what `compare_logs` names): those a known bug set apart, which compare no more.
pub fn logs_apart(
    a: &morphtrace_schema::trace::Trace,
    b: &morphtrace_schema::trace::Trace,
    action: u32,
    quiet: &BTreeSet<Logpoint>,
) -> Vec<Logpoint> {
    let (x, y) = logged_during(a, b, action, false, quiet);
    let Some(k) = first_apart(&x, &y) else {
        return Vec::new();
    };
    let mut out: Vec<Logpoint> = [x.get(k), y.get(k)]
        .into_iter()
        .flatten()
        .map(|l| l.0)
        .collect();
    out.dedup();
    out
}

/// The first divergence of debuggers run in lockstep, judged offline from their traces.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    pub action_index: u32,
    pub action: morphtrace_schema::trace::Action,
    pub kind: DivergenceKind,
    pub detail: String,
}

type Step<'a> = (&'a morphtrace_schema::trace::Action, Option<&'a Output>);

/// Each action of a trace with the first output that answered it.
fn steps(t: &morphtrace_schema::trace::Trace) -> Vec<Step<'_>> {
    use morphtrace_schema::trace::EventKind;
    let mut v: Vec<Step<'_>> = Vec::new();
    for e in &t.events {
        match &e.kind {
            EventKind::Action(a) => v.push((a, None)),
            EventKind::Output(o) => {
                if let Some(last) = v.last_mut() {
                    if last.1.is_none() {
                        last.1 = Some(o);
                    }
                }
            }
        }
    }
    v
}

/// What re-judging lockstep traces found.
#[derive(Debug, Clone, PartialEq)]
pub enum Lockstep {
    /// Every action of the first trace was answered in every trace, alike under the policy.
    /// Whether that makes the session *agreed* depends on how it ended (a session that timed out
    /// after its last answer was still never judged to its end).
    Agreed,
    /// The first action whose outputs differ.
    Diverged(Judgement),
    /// Some trace has no answer to this action (the recording stopped there, e.g. the engine
    /// died or the session timed out): nothing can be said of it or of what came after.
    Unanswered { action_index: u32 },
}

/// Re-judges lockstep traces (the same actions, each answered by one output per debugger) under
/// `policy`: the first action whose outputs differ between the first trace and another one, or
/// the first action some trace left unanswered.
pub fn judge_lockstep(
    traces: &[morphtrace_schema::trace::Trace],
    policy: &ComparisonPolicy,
) -> Lockstep {
    let Some(first) = traces.first().map(steps) else {
        return Lockstep::Unanswered { action_index: 0 };
    };
    let others: Vec<_> = traces[1..].iter().map(steps).collect();
    for (i, (action, out)) in first.iter().enumerate() {
        let unanswered = Lockstep::Unanswered {
            action_index: i as u32,
        };
        let Some(a) = out else { return unanswered };
        for (k, o) in others.iter().enumerate() {
            let Some((other_action, Some(b))) = o.get(i) else {
                return unanswered;
            };
            if other_action != action {
                return Lockstep::Diverged(Judgement {
                    action_index: i as u32,
                    action: (*action).clone(),
                    kind: DivergenceKind::Other("actions".into()),
                    detail: Difference::Actions {
                        actions: [action.to_string(), other_action.to_string()],
                    }
                    .to_string(),
                });
            }
            let sides = [(&traces[0], i), (&traces[k + 1], i)];
            let differs = compare_answers(sides, action, a, b, policy).or_else(|| {
                compare_logs(
                    &traces[0],
                    &traces[k + 1],
                    i as u32,
                    timed_out(a) && timed_out(b),
                    &BTreeSet::new(),
                )
            });
            if let Some((kind, detail)) = differs {
                return Lockstep::Diverged(Judgement {
                    action_index: i as u32,
                    action: (*action).clone(),
                    kind,
                    detail,
                });
            }
        }
    }
    Lockstep::Agreed
}

/// Why a session is undecided although what was recorded agrees: the recording stopped at a
/// divergence of the recorded policy, so a laxer policy cannot know what came after.
pub const STOPPED_AT_DIVERGENCE: &str = "stopped at the recorded divergence";

/// A lockstep session's verdict under a policy, from its traces and how its recording ended.
#[derive(Debug, Clone, PartialEq)]
pub enum LockstepDecision {
    Diverged(Judgement),
    /// Every action answered alike, and the recording reached the program's end or its budget.
    Agreed,
    /// Nothing diverged in what was recorded, but the recording did not reach its end (the
    /// recorded divergence, a dead engine, a timeout) or a trace lacks an answer.
    Undecided {
        reason: String,
    },
}

/// Re-judges a recorded lockstep session under `policy`: agreed only when it was recorded to
/// the program's end or its action budget (docs/design.md §2: undecided work is never agreed).
pub fn judge_session(
    traces: &[morphtrace_schema::trace::Trace],
    outcome: &morphtrace_schema::session::SessionOutcome,
    policy: &ComparisonPolicy,
) -> LockstepDecision {
    use morphtrace_schema::session::SessionOutcome as O;
    let undecided = |reason: &str| LockstepDecision::Undecided {
        reason: reason.into(),
    };
    match judge_lockstep(traces, policy) {
        Lockstep::Diverged(j) => LockstepDecision::Diverged(j),
        Lockstep::Agreed => match outcome {
            O::Finished | O::ActionLimit => LockstepDecision::Agreed,
            O::Diverged => undecided(STOPPED_AT_DIVERGENCE),
            other => undecided(other.name()),
        },
        Lockstep::Unanswered { .. } => match outcome.undecided() {
            Some(r) => undecided(r),
            None if matches!(outcome, O::Diverged) => undecided(STOPPED_AT_DIVERGENCE),
            None => undecided("an action without an answer"),
        },
    }
}

impl ComparisonPolicy {
    /// The settings `set` accepts, as in the header's `compare.<key>` parameters.
    pub const KEYS: [&'static str; 8] = [
        "columns",
        "call_stack",
        "variables",
        "breakpoints",
        "object_shells",
        "async_stack",
        "exception_pauses",
        "error_messages",
    ];

    /// Sets one setting by its key (`columns`, `call_stack`, ...); false for an unknown key.
    pub fn set(&mut self, key: &str, value: bool) -> bool {
        let field = match key {
            "columns" => &mut self.columns,
            "call_stack" => &mut self.call_stack,
            "variables" => &mut self.variables,
            "breakpoints" => &mut self.breakpoints,
            "object_shells" => &mut self.object_shells,
            "async_stack" => &mut self.async_stack,
            "exception_pauses" => &mut self.exception_pauses,
            "error_messages" => &mut self.error_messages,
            _ => return false,
        };
        *field = value;
        true
    }

    /// The policy a campaign recorded in its header parameters (`compare.*`), defaults elsewhere.
    pub fn from_params(params: &[(String, String)]) -> ComparisonPolicy {
        let mut p = ComparisonPolicy::default();
        for (k, v) in params {
            if let Some(key) = k.strip_prefix("compare.") {
                p.set(key, v == "true");
            }
        }
        p
    }
}

#[cfg(test)]
mod frame_tests {
    use super::*;

    #[test]
    fn a_frame_below_the_top_is_named_in_the_detail_and_masked_apart() {
        assert_eq!(
            crate::difference::in_frame("frame 2 (outer): x: 1 vs 2"),
            Some((2, "x: 1 vs 2"))
        );
        assert_eq!(
            crate::difference::in_frame("frame: 1 vs 2"),
            None,
            "a variable named frame"
        );
        assert_eq!(
            crate::difference::in_frame("frame only on the first side"),
            None
        );
        assert_eq!(
            crate::difference::variable_name("frame 2 (outer): x: 1 vs 2"),
            None
        );
        assert_eq!(
            crate::difference::variable_name("frame: 1 vs 2"),
            Some("frame")
        );
        let mut mask = PauseMask::default();
        assert!(mask.cover(
            &DivergenceKind::Variables,
            "frame 3 (f): x only on the first side"
        ));
        assert!(mask.variables.contains("3:x"));
        assert!(
            !mask.variables.contains("x"),
            "the top frame's x still compares"
        );
        assert!(mask.cover(&DivergenceKind::Variables, "x: 1 vs 2"));
    }
}

#[cfg(test)]
mod thrown_tests {
    use super::*;
    use morphtrace_schema::value::ObjectKind;

    fn error(class: &str, description: &str) -> Value {
        Value::Object {
            kind: ObjectKind::Error,
            class: class.into(),
            description: Some(description.into()),
            entries: Some(vec![]),
            truncated: false,
        }
    }

    /// Errors thrown compare by class: V8 and SpiderMonkey word messages and stacks each their
    /// own way; another class, or a thrown value that is no error, still differs.
    #[test]
    fn thrown_errors_compare_by_class() {
        let p = ComparisonPolicy::default();
        let v8 = error(
            "TypeError",
            "TypeError: big 5\n    at thrower (file:///p.js:3:11)",
        );
        let sm = error("TypeError", "thrower@file:///p.js:3:11");
        assert!(same_thrown(&v8, &sm, &p));
        assert!(!same_thrown(&v8, &error("RangeError", "RangeError: x"), &p));
        assert!(!same_thrown(&Value::Number(1.0), &Value::Number(2.0), &p));
        let eval = |value: Value, threw: bool| Output::Evaluated { value, threw };
        assert_eq!(
            compare_outputs(&eval(v8.clone(), true), &eval(sm, true), &p),
            None
        );
        assert!(compare_outputs(&eval(v8, true), &eval(Value::Number(1.0), false), &p).is_some());
    }

    /// An evaluation's objects that differ only besides their entries (a class named otherwise)
    /// say how, as variables do; a difference inside says nothing more.
    #[test]
    fn evaluated_objects_say_what_differs_besides_their_entries() {
        let p = ComparisonPolicy::default();
        let object = |class: &str, base: f64| Value::Object {
            kind: morphtrace_schema::value::ObjectKind::Object,
            class: class.into(),
            description: Some(class.into()),
            entries: Some(vec![morphtrace_schema::value::Entry {
                key: morphtrace_schema::value::Key::Name("base".into()),
                value: Value::Number(base),
            }]),
            truncated: false,
        };
        let eval = |value: Value| Output::Evaluated {
            value,
            threw: false,
        };
        let (kind, detail) =
            compare_outputs(&eval(object("C1", 0.0)), &eval(object("Object", 0.0)), &p).unwrap();
        assert_eq!(kind, DivergenceKind::Evaluation);
        assert_eq!(
            detail,
            r#"evaluated C1 { base: 0 } vs Object { base: 0 } (class "C1" vs "Object", description Some("C1") vs Some("Object"))"#
        );
        let (_, detail) =
            compare_outputs(&eval(object("C1", 0.0)), &eval(object("Object", 1.0)), &p).unwrap();
        assert_eq!(detail, "evaluated C1 { base: 0 } vs Object { base: 1 }");
    }
}

#[cfg(test)]
mod async_stack_tests {
    use super::*;
    use morphtrace_schema::trace::{Frame, Location, PauseReason};

    fn frame(function: &str, line: u32) -> Frame {
        Frame {
            function: function.into(),
            location: Location::new(line, 0),
            scopes: Vec::new(),
        }
    }

    fn pause(async_stack: Option<Vec<(&str, Vec<&str>)>>) -> PauseState {
        PauseState {
            location: Location::new(3, 2),
            reason: PauseReason::Step,
            engine_reason: None,
            stack: vec![frame("inner", 3)],
            exception: None,
            condition: None,
            async_stack: async_stack.map(|segments| {
                segments
                    .into_iter()
                    .map(|(cause, names)| AsyncFrames {
                        cause: cause.into(),
                        frames: names.into_iter().map(|n| frame(n, 6)).collect(),
                    })
                    .collect()
            }),
        }
    }

    /// A pause with its stack, innermost first: `(function, line)`.
    fn at(frames: &[(&str, u32)]) -> PauseState {
        PauseState {
            location: Location::new(frames[0].1, 0),
            stack: frames.iter().map(|(f, l)| frame(f, *l)).collect(),
            ..pause(None)
        }
    }

    #[test]
    fn a_step_back_into_the_caller_says_which_side_is_on_the_call_line() {
        // Paused in `f` (line 2), called from line 9 of the top level.
        let before = at(&[("f", 2), ("", 9)]);
        let call_line = at(&[("", 9)]);
        let remark = |a: &PauseState, b: &PauseState| returned_into_caller(&before, a, b);
        assert_eq!(
            remark(&call_line, &at(&[("", 10)])).as_deref(),
            Some("; first side on the caller's line of the call, second side on another line of the caller")
        );
        assert_eq!(
            remark(&at(&[("g", 5), ("", 9)]), &call_line).as_deref(),
            Some("; second side on the caller's line of the call, first side in a function called from that line")
        );
        // Still in `f` (a closing brace), both on the call line, another caller line below, a
        // function called from another line, the same function again: no remark.
        assert_eq!(remark(&call_line, &at(&[("f", 3), ("", 9)])), None);
        assert_eq!(remark(&call_line, &call_line.clone()), None);
        assert_eq!(remark(&call_line, &at(&[("", 10), ("main", 4)])), None);
        assert_eq!(remark(&call_line, &at(&[("g", 5), ("", 10)])), None);
        assert_eq!(remark(&at(&[("", 10)]), &at(&[("", 11)])), None);

        // `__sub__` (line 49) returns into `reflect` (line 87, `return self - x`), which returns
        // at once into the top level's line 95, which calls `__eq__` next.
        let before = at(&[("__sub__", 49), ("reflect", 87), ("", 95)]);
        let remark = |a: &PauseState, b: &PauseState| returned_into_caller(&before, a, b);
        assert_eq!(
            remark(&at(&[("", 95)]), &at(&[("__eq__", 71), ("", 95)])).as_deref(),
            Some("; first side on the caller's line of the call 2 frames down, second side in a function called from that line")
        );
        assert_eq!(
            remark(&at(&[("", 96)]), &at(&[("", 95)])).as_deref(),
            Some("; second side on the caller's line of the call 2 frames down, first side on another line of the caller")
        );
        // One side still in the frame between: no remark (that is the one-frame shape's).
        assert_eq!(
            remark(&at(&[("", 95)]), &at(&[("reflect", 88), ("", 95)])),
            None
        );
        assert_eq!(
            remark(&at(&[("reflect", 87), ("", 95)]), &at(&[("reflect", 88), ("", 95)]))
                .as_deref(),
            Some("; first side on the caller's line of the call, second side on another line of the caller")
        );
        // Recursion: `tree` (line 37, `return Tree(tree(l), v, tree(r))`) called from line 37
        // of another `tree`; `Tree.__init__` returns into the first, which returns at once. A
        // new call of `tree` from that line starts above it (line 33).
        let before = at(&[("__init__", 22), ("tree", 37), ("tree", 37), ("", 51)]);
        let remark = |a: &PauseState, b: &PauseState| returned_into_caller(&before, a, b);
        assert_eq!(
            remark(&at(&[("tree", 37), ("", 51)]), &at(&[("tree", 33), ("tree", 37), ("", 51)]))
                .as_deref(),
            Some("; first side on the caller's line of the call 2 frames down, second side in a function called from that line")
        );
        assert_eq!(
            remark(
                &at(&[("tree", 37), ("", 51)]),
                &at(&[("tree", 38), ("tree", 37), ("", 51)])
            ),
            None
        );
        // The next `Tree(...)` of the outer `tree` calls `__init__` again: a new call of the
        // function the step left, the frame between gone (a held-out program's shape).
        assert_eq!(
            remark(&at(&[("tree", 37), ("", 51)]), &at(&[("__init__", 18), ("tree", 37), ("", 51)]))
                .as_deref(),
            Some("; first side on the caller's line of the call 2 frames down, second side in a function called from that line")
        );
        // One frame down, `__init__` right on the caller may be the frame the step left.
        let before = at(&[("__init__", 22), ("tree", 37), ("", 51)]);
        assert_eq!(
            returned_into_caller(
                &before,
                &at(&[("tree", 37), ("", 51)]),
                &at(&[("__init__", 18), ("tree", 37), ("", 51)])
            ),
            None
        );
    }

    /// A binding one side shows with a value and the other uninitialized, both paused at the
    /// same place, says which side shows the value; `undefined` (Node 20's dead zone), another
    /// column, or a difference inside an object do not.
    #[test]
    fn a_value_against_a_binding_in_its_dead_zone_at_the_same_place_says_which_side_shows_it() {
        use morphtrace_schema::trace::{Scope, ScopeKind, Variable};
        let p = ComparisonPolicy::default();
        let paused = |column: u32, value: Value| {
            let mut s = at(&[("f", 4)]);
            s.location.column = column;
            s.stack[0].scopes = vec![Scope {
                kind: ScopeKind::Block,
                name: None,
                variables: vec![Variable {
                    name: "o".into(),
                    value,
                    reported: None,
                }],
            }];
            Output::Paused(s)
        };
        let said = |a: &Output, b: &Output| compare_outputs(a, b, &p).unwrap().1;
        let dead = paused(16, Value::Uninitialized);
        let three = paused(16, Value::Number(3.0));
        assert_eq!(
            said(&dead, &three),
            format!(
                "o: <uninitialized> vs 3{}",
                Remark::ValueInDeadZone { side: Side::Second }
            )
        );
        assert_eq!(
            said(&three, &dead),
            format!(
                "o: 3 vs <uninitialized>{}",
                Remark::ValueInDeadZone { side: Side::First }
            )
        );
        assert_eq!(
            said(&paused(16, Value::Undefined), &dead),
            "o: undefined vs <uninitialized>"
        );
        assert_eq!(
            said(&paused(2, Value::Number(3.0)), &dead),
            "o: 3 vs <uninitialized>"
        );
        assert_eq!(said(&paused(16, Value::Number(4.0)), &three), "o: 4 vs 3");
    }

    /// Stacks alike but for V8's name of a class's initializer frame say so; another name, or
    /// another frame too, do not.
    #[test]
    fn a_call_stack_that_differs_only_in_an_initializers_name_says_so() {
        let p = ComparisonPolicy::default();
        let stack =
            |names: &[&str]| Output::Paused(at(&names.iter().map(|n| (*n, 3)).collect::<Vec<_>>()));
        let said = |a: &[&str], b: &[&str]| compare_outputs(&stack(a), &stack(b), &p).unwrap().1;
        assert_eq!(
            said(
                &["f", "<instance_members_initializer>", "C", ""],
                &["f", "", "C", ""]
            ),
            format!(
                "stack [f, <instance_members_initializer>, C, ] vs [f, , C, ]{}",
                Remark::OnlyAnInitializersName
            )
        );
        assert_eq!(
            said(&["", ""], &["<static_initializer>", ""]),
            format!(
                "stack [, ] vs [<static_initializer>, ]{}",
                Remark::OnlyAnInitializersName
            )
        );
        assert_eq!(
            said(&["f", "g", "C"], &["f", "", "C"]),
            "stack [f, g, C] vs [f, , C]"
        );
        assert_eq!(
            said(&["<instance_members_initializer>", "C"], &["", "D"]),
            "stack [<instance_members_initializer>, C] vs [, D]"
        );
    }

    #[test]
    fn a_call_stack_one_frame_further_in_says_which_side() {
        let policy = ComparisonPolicy::default();
        let caller = at(&[("n_queens", 50), ("", 60)]);
        let genexpr = at(&[("<genexpr>", 50), ("n_queens", 50), ("", 60)]);
        let detail = |a: &PauseState, b: &PauseState| pause_divergence(a, b, &policy).unwrap().1;
        assert_eq!(
            detail(&caller, &genexpr),
            "stack [n_queens, ] vs [<genexpr>, n_queens, ]; second side one frame further in, in <genexpr>"
        );
        assert_eq!(
            detail(&genexpr, &caller),
            "stack [<genexpr>, n_queens, ] vs [n_queens, ]; first side one frame further in, in <genexpr>"
        );
        // Another frame below, or two more: no remark.
        let elsewhere = at(&[("<genexpr>", 50), ("main", 50), ("", 60)]);
        assert_eq!(
            detail(&caller, &elsewhere),
            "stack [n_queens, ] vs [<genexpr>, main, ]"
        );
        let two = at(&[("f", 50), ("<genexpr>", 50), ("n_queens", 50), ("", 60)]);
        assert_eq!(
            detail(&caller, &two),
            "stack [n_queens, ] vs [f, <genexpr>, n_queens, ]"
        );
    }

    /// The pause before an action is the last one recorded, a catch-up step's answer included.
    #[test]
    fn the_pause_before_an_action_counts_extra_answers() {
        use morphtrace_schema::trace::{Action, Event, EventKind, Trace};
        let (p1, p2, p3) = (at(&[("f", 2)]), at(&[("", 9)]), at(&[("", 10)]));
        let ev = |kind| Event { at_us: 0, kind };
        let t = Trace {
            engine: morphtrace_schema::engine::EngineRef(0),
            events: vec![
                ev(EventKind::Action(Action::Start)),
                ev(EventKind::Output(Output::Paused(p1.clone()))),
                ev(EventKind::Action(Action::StepOut)),
                ev(EventKind::Output(Output::Paused(p2.clone()))),
                ev(EventKind::Output(Output::Paused(p3.clone()))),
                ev(EventKind::Action(Action::StepOver)),
                ev(EventKind::Output(Output::Paused(p1.clone()))),
            ],
            console: Vec::new(),
            logs: Vec::new(),
        };
        assert_eq!(pause_before(&t, 0), None);
        assert_eq!(pause_before(&t, 1), Some(&p1));
        assert_eq!(pause_before(&t, 2), Some(&p3));
    }

    #[test]
    fn async_stacks_compare_by_function_names_not_causes() {
        let policy = ComparisonPolicy::default();
        let v8 = pause(Some(vec![("await", vec!["outer", ""])]));
        let firefox = pause(Some(vec![("async", vec!["outer", ""])]));
        assert_eq!(pause_divergence(&v8, &firefox, &policy), None);
        // A lost segment, a lost frame, another name: each an async-stack divergence.
        for other in [
            pause(Some(vec![])),
            pause(Some(vec![("await", vec!["outer"])])),
            pause(Some(vec![("await", vec!["outer"]), ("await", vec![""])])),
            pause(Some(vec![("await", vec!["main", ""])])),
        ] {
            let (kind, detail) = pause_divergence(&v8, &other, &policy).unwrap();
            assert_eq!(kind, DivergenceKind::AsyncStack, "{detail}");
            assert!(detail.starts_with("async stack [outer, ] vs "), "{detail}");
        }
        let (_, detail) = pause_divergence(&v8, &pause(Some(vec![])), &policy).unwrap();
        assert_eq!(detail, "async stack [outer, ] vs (none)");
        // An engine that keeps none, or the policy off: not compared.
        assert_eq!(pause_divergence(&v8, &pause(None), &policy), None);
        let mut off = policy.clone();
        assert!(off.set("async_stack", false));
        assert_eq!(pause_divergence(&v8, &pause(Some(vec![])), &off), None);
    }

    /// Two pauses at one place, one on an exception and one for a breakpoint: an exception
    /// divergence naming each side (a debugger that missed the exception pause and stopped at
    /// the next breakpoint on the same line showed nothing before). Both on an exception, or
    /// neither: no difference; the policy off: not compared.
    #[test]
    fn an_exception_pause_on_one_side_only_shows() {
        use morphtrace_schema::trace::PauseReason;
        let policy = ComparisonPolicy::default();
        let breakpoint = PauseState {
            reason: PauseReason::Breakpoint { ids: vec![] },
            ..at(&[("", 3)])
        };
        let thrown = PauseState {
            reason: PauseReason::Exception,
            exception: Some(Box::new(Value::Number(7.0))),
            ..at(&[("", 3)])
        };
        let (kind, detail) = pause_divergence(&thrown, &breakpoint, &policy).unwrap();
        assert_eq!(kind, DivergenceKind::Exception);
        assert_eq!(
            detail,
            "first side paused on an exception (threw 7), second side there for another reason (breakpoint)"
        );
        let (_, detail) = pause_divergence(&breakpoint, &thrown, &policy).unwrap();
        assert_eq!(
            detail,
            "second side paused on an exception (threw 7), first side there for another reason (breakpoint)"
        );
        let step = PauseState {
            reason: PauseReason::Step,
            ..at(&[("", 3)])
        };
        assert_eq!(pause_divergence(&breakpoint, &step, &policy), None);
        assert_eq!(pause_divergence(&thrown, &thrown.clone(), &policy), None);
        let mut off = policy.clone();
        assert!(off.set("exception_pauses", false));
        assert_eq!(pause_divergence(&thrown, &breakpoint, &off), None);
    }

    /// Issue 66: an excused difference at a pause masks only itself. Two pauses that differ in
    /// a frame's name, a hidden variable and another variable's value: masking what was gone
    /// past shows the next difference, until nothing is left; the place is never masked.
    #[test]
    fn a_mask_hides_only_what_it_names() {
        use morphtrace_schema::trace::Variable;
        let with = |names: &[(&str, f64)], top: &str| {
            let mut p = at(&[(top, 3), ("", 9)]);
            p.stack[0].scopes = vec![Scope {
                kind: ScopeKind::Local,
                name: None,
                variables: names
                    .iter()
                    .map(|(n, v)| Variable {
                        name: n.to_string(),
                        value: Value::Number(*v),
                        reported: None,
                    })
                    .collect(),
            }];
            p
        };
        let a = with(&[("a", 1.0), ("b", 2.0)], "f");
        let b = with(&[("b", 3.0)], "anonymous");
        let mut policy = ComparisonPolicy::default();
        let mut seen = Vec::new();
        while let Some((kind, detail)) = pause_divergence(&a, &b, &policy) {
            assert!(policy.mask.cover(&kind, &detail), "{detail} masked twice");
            seen.push(detail);
        }
        assert_eq!(
            seen,
            [
                "stack [f, ] vs [anonymous, ]",
                "a only on the first side",
                "b: 2 vs 3"
            ]
        );
        // Masked again: nothing new.
        assert!(!policy
            .mask
            .cover(&DivergenceKind::Variables, "a only on the first side"));
        // A place apart is never masked, nor is an exception pause on one side only.
        let mut mask = PauseMask::default();
        assert!(!mask.cover(&DivergenceKind::PauseLocation, "paused at 3:0 vs 4:0"));
        assert!(!mask.cover(
            &DivergenceKind::Exception,
            "first side paused on an exception (threw 7), second side there for another reason (breakpoint)"
        ));
        assert!(mask.cover(&DivergenceKind::Exception, "threw 7 vs 8"));
        // Pauses at one place and depth are where a resync meets; ended programs too.
        let p = |x: PauseState| Output::Paused(x);
        assert!(same_place(&p(a.clone()), &p(b.clone()), &policy));
        assert!(!same_place(
            &p(a.clone()),
            &p(at(&[("f", 4), ("", 9)])),
            &policy
        ));
        assert!(!same_place(&p(a.clone()), &p(at(&[("f", 3)])), &policy));
        let end = Output::Finished {
            outcome: morphtrace_schema::trace::ProgramOutcome::Completed,
        };
        assert!(same_place(&end, &end.clone(), &policy));
        assert!(!same_place(&p(a), &end, &policy));
    }
}

#[cfg(test)]
mod log_tests {
    use super::*;
    use morphtrace_schema::engine::EngineRef;
    use morphtrace_schema::trace::{BreakpointId, LogLine, Trace};

    fn logged(n: usize) -> Trace {
        Trace {
            engine: EngineRef(0),
            events: Vec::new(),
            console: Vec::new(),
            logs: (0..n)
                .map(|i| LogLine {
                    action: 3,
                    breakpoint: BreakpointId(1),
                    text: i.to_string(),
                })
                .collect(),
        }
    }

    /// Two debuggers cut short by the action timeout log as far as each got: the lines both
    /// logged compare, the count does not. Otherwise the count is a difference, and so is a
    /// line that differs within what both logged.
    #[test]
    fn logs_cut_short_by_the_timeout_compare_as_far_as_both_got() {
        let (fast, slow) = (logged(5), logged(3));
        assert_eq!(compare_logs(&fast, &slow, 3, true, &BTreeSet::new()), None);
        assert!(compare_logs(&fast, &slow, 3, false, &BTreeSet::new()).is_some());
        let mut wrong = logged(3);
        wrong.logs[1].text = "x".into();
        assert!(compare_logs(&fast, &wrong, 3, true, &BTreeSet::new()).is_some());
        // A logpoint a known bug set apart compares no more; the divergence names it (a
        // trace that does not hold the request names it by its id).
        assert_eq!(
            logs_apart(&fast, &slow, 3, &BTreeSet::new()),
            [Logpoint::Id(1)]
        );
        let quiet: BTreeSet<Logpoint> = [Logpoint::Id(1)].into();
        assert_eq!(compare_logs(&fast, &slow, 3, false, &quiet), None);
        assert!(logs_apart(&fast, &fast, 3, &BTreeSet::new()).is_empty());
    }

    /// Lines compare by the request that set their logpoint: one side refused an earlier
    /// request, so its ids run one behind, and the same logpoint logging the same text is no
    /// difference; another logpoint, or another text, is.
    #[test]
    fn logs_compare_by_the_request_that_set_the_logpoint_not_by_each_sides_id() {
        use morphtrace_schema::trace::{Action, Event, EventKind, LocationSource};
        use morphtrace_schema::Location;
        let ev = |kind| Event { at_us: 0, kind };
        let log = |line: u32| {
            ev(EventKind::Action(Action::SetLogpoint {
                line,
                expression: "x".into(),
                column: None,
            }))
        };
        let set = |id: u32, line: u32| {
            ev(EventKind::Output(Output::BreakpointSet {
                id: BreakpointId(id),
                requested: Location::new(line, 0),
                actual: vec![Location::new(line, 0)],
                source: LocationSource::EngineReported,
                policy: None,
            }))
        };
        let refused = ev(EventKind::Output(Output::Error {
            message: "refused".into(),
        }));
        let trace = |events: Vec<Event>, logs: &[(u32, &str)]| Trace {
            engine: EngineRef(0),
            events,
            console: Vec::new(),
            logs: logs
                .iter()
                .map(|&(id, text)| LogLine {
                    action: 3,
                    breakpoint: BreakpointId(id),
                    text: text.into(),
                })
                .collect(),
        };
        let both = trace(vec![log(1), set(0, 1), log(5), set(1, 5)], &[(1, "true")]);
        let behind = trace(
            vec![log(1), refused.clone(), log(5), set(0, 5)],
            &[(0, "true")],
        );
        assert_eq!(
            compare_logs(&both, &behind, 3, false, &BTreeSet::new()),
            None
        );
        let other_text = trace(
            vec![log(1), refused.clone(), log(5), set(0, 5)],
            &[(0, "false")],
        );
        let (_, detail) = compare_logs(&both, &other_text, 3, false, &BTreeSet::new()).unwrap();
        assert_eq!(
            detail,
            "logpoints logged #1 true vs #0 false (line 1 of 1 vs 1)"
        );
        assert_eq!(
            logs_apart(&both, &other_text, 3, &BTreeSet::new()),
            [Logpoint::Request(1)]
        );
        // Logged by the first request's logpoint on one side, the second's on the other.
        let first = trace(vec![log(1), set(0, 1), log(5), set(1, 5)], &[(0, "true")]);
        assert!(compare_logs(&first, &behind, 3, false, &BTreeSet::new()).is_some());
        assert_eq!(
            logs_apart(&first, &behind, 3, &BTreeSet::new()),
            [Logpoint::Request(0), Logpoint::Request(1)]
        );
    }

    /// A trace of breakpoint requests, each `(line, placed at)` (0-based, as `Location` holds
    /// them), `None` a removal of the first.
    /// A request: its line and where it was placed, or `None` for a removal of the first.
    type Request = Option<(u32, Option<(u32, u32)>)>;

    fn placing(requests: &[Request]) -> Trace {
        use morphtrace_schema::trace::{Action, Event, EventKind, Location, LocationSource};
        let mut events = Vec::new();
        let mut next = 0;
        for r in requests {
            let (action, output) = match r {
                Some((line, placed)) => {
                    next += 1;
                    (
                        Action::SetBreakpoint {
                            line: *line,
                            column: None,
                        },
                        Output::BreakpointSet {
                            id: BreakpointId(next - 1),
                            requested: Location::new(*line, 0),
                            actual: placed.iter().map(|&(l, c)| Location::new(l, c)).collect(),
                            source: LocationSource::EngineReported,
                            policy: None,
                        },
                    )
                }
                None => (
                    Action::RemoveBreakpoint {
                        id: BreakpointId(0),
                    },
                    Output::BreakpointRemoved {
                        id: BreakpointId(0),
                        ok: true,
                    },
                ),
            };
            for kind in [EventKind::Action(action), EventKind::Output(output)] {
                events.push(Event { at_us: 0, kind });
            }
        }
        Trace {
            engine: EngineRef(0),
            events,
            console: Vec::new(),
            logs: Vec::new(),
        }
    }

    /// A breakpoint one side placed nowhere, where that side already had one at the place the
    /// other gave it, says so; not when its earlier one was elsewhere or removed, nor when both
    /// placed it.
    #[test]
    fn a_breakpoint_placed_nowhere_says_when_that_side_already_had_one_there() {
        let p = ComparisonPolicy::default();
        let v8 = placing(&[Some((6, Some((5, 2)))), Some((5, Some((5, 2))))]);
        let jsc = placing(&[Some((6, Some((5, 2)))), Some((5, None))]);
        let last = |t: &Trace| t.outputs().last().unwrap().clone();
        let action = t_action(&v8);
        let said = |a: &Trace, b: &Trace| {
            compare_answers([(a, 1), (b, 1)], &action, &last(a), &last(b), &p)
                .unwrap()
                .1
        };
        assert_eq!(
            said(&v8, &jsc),
            format!(
                "breakpoint at [6:3] vs []{}",
                Remark::AlreadyHadOneThere { side: Side::Second }
            )
        );
        assert_eq!(
            said(&jsc, &v8),
            format!(
                "breakpoint at [] vs [6:3]{}",
                Remark::AlreadyHadOneThere { side: Side::First }
            )
        );
        // Its earlier one on the line at another column, where the other side has that one at
        // the very place: the remark too (each engine's column for a line differs).
        let column = placing(&[Some((6, Some((5, 0)))), Some((5, None))]);
        assert_eq!(
            said(&v8, &column),
            format!(
                "breakpoint at [6:3] vs []{}",
                Remark::AlreadyHadOneThere { side: Side::Second }
            )
        );
        // Its earlier breakpoint elsewhere, or removed: no remark.
        let elsewhere = placing(&[Some((6, Some((7, 1)))), Some((5, None))]);
        assert_eq!(said(&v8, &elsewhere), "breakpoint at [6:3] vs []");
        let removed = placing(&[Some((6, Some((5, 2)))), None, Some((5, None))]);
        let got = compare_answers(
            [(&v8, 1), (&removed, 2)],
            &action,
            &last(&v8),
            &last(&removed),
            &p,
        );
        assert_eq!(got.unwrap().1, "breakpoint at [6:3] vs []");
        // A refusal: the same remark; against a side that placed it nowhere, that instead.
        let refused = Output::Error {
            message: "taken".into(),
        };
        let got = compare_answers([(&v8, 1), (&jsc, 1)], &action, &last(&v8), &refused, &p);
        assert_eq!(
            got.unwrap().1,
            format!(
                "second side refused the breakpoint: taken{}",
                Remark::AlreadyHadOneThere { side: Side::Second }
            )
        );
        let got = compare_answers([(&jsc, 1), (&jsc, 1)], &action, &refused, &last(&jsc), &p);
        assert_eq!(
            got.unwrap().1,
            format!(
                "first side refused the breakpoint: taken{}",
                Remark::PlacedNowhere
            )
        );
    }

    fn t_action(t: &Trace) -> morphtrace_schema::trace::Action {
        t.actions().last().unwrap().clone()
    }
}
