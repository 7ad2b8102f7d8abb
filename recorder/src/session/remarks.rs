//! The remarks a divergence gets from the program's syntax and the two sides' answers: the shapes
//! of known engine differences (a class's parameters, a `switch`'s discriminant, a closing brace,
//! a generator's step), each recognized narrowly and oriented (which side did what), so that a
//! triage rule names the shape and a real fault of another shape still shows.

use super::Lockstep;
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::Language;
use morphtrace_schema::{Action, DivergenceKind, EventKind, ObjectKind, Output, Value};
use morphtrace_syntax::js::calls::BuiltInArguments;
use morphtrace_syntax::js::classes::{ClassParams, Heritages, NamedClasses};
use morphtrace_syntax::js::loops::HeadIterables;
use morphtrace_syntax::js::switches::Discriminants;
use morphtrace_syntax::nodes::LineNodes;
use morphtrace_syntax::python::{InGenerator, PythonTree};

impl Lockstep<'_> {
    /// Where in a generator's code the pause action `index` of `trace` stepped from was, if it
    /// was in one (Python, from the program's syntax: the JavaScript engines' steps out of
    /// generators have shown no such difference).
    pub(super) fn generator_the_step_began_in(
        &self,
        trace: &morphtrace_schema::Trace,
        index: usize,
    ) -> Option<InGenerator> {
        if self.program.language != Language::Python {
            return None;
        }
        let top = morphtrace_judges::dbdb::pause_before(trace, index)?
            .stack
            .first()?;
        PythonTree::parse(&self.program.text)?.generator_at(
            &self.program.text,
            &top.function,
            top.location.line,
        )
    }

    /// Where both sides stand where one function returns, each as its engine shows it (a
    /// JavaScript program's syntax): after a step, one at the end of a `return` and the other at
    /// that function's closing brace, in the same frames (`RETURN_AND_BRACE`); or, where their
    /// variables differ, both at one function's closing brace (`BOTH_AT_A_CLOSING_BRACE`).
    pub(super) fn exit_remark(
        &self,
        kind: &DivergenceKind,
        detail: &str,
        action: &Action,
        a: &Output,
        b: &Output,
    ) -> String {
        let (Output::Paused(x), Output::Paused(y)) = (a, b) else {
            return String::new();
        };
        let exits = || self.exits();
        let same_frames = same_frames(x, y);
        match kind {
            DivergenceKind::PauseLocation
                if same_frames
                    && matches!(
                        action,
                        Action::StepInto | Action::StepOver | Action::StepOut
                    ) =>
            {
                let Some(e) = exits() else {
                    return String::new();
                };
                let side = if e.returns_there(x.location, y.location) {
                    Side::First
                } else if e.returns_there(y.location, x.location) {
                    Side::Second
                } else {
                    return String::new();
                };
                Remark::ReturnAndBrace { side }.to_string()
            }
            // Only a lexical binding one side lacks (what the remark's rule is about): other
            // rules read the other variables divergences as they are.
            DivergenceKind::Variables if same_frames && self.lexical_on_one_side(detail) => {
                match exits() {
                    Some(e) if e.same_closing_brace(x.location, y.location) => {
                        Remark::BothAtAClosingBrace.to_string()
                    }
                    _ => String::new(),
                }
            }
            _ => String::new(),
        }
    }

    /// Where both sides stand, in the same frames, in the iterable of a `for-in`/`for-of` head
    /// that declares the `let` or `const` one side lacks (`IN_A_HEADS_ITERABLE`): the binding
    /// is in its dead zone there, in a scope of the head's own.
    pub(super) fn head_remark(
        &self,
        kind: &DivergenceKind,
        detail: &str,
        a: &Output,
        b: &Output,
    ) -> String {
        let (DivergenceKind::Variables, Output::Paused(x), Output::Paused(y)) = (kind, a, b) else {
            return String::new();
        };
        let Some((name, _)) = one_sided(detail) else {
            return String::new();
        };
        let same_frames = same_frames(x, y);
        if !same_frames || self.program.language != Language::JavaScript {
            return String::new();
        }
        let heads = self.facts.get::<HeadIterables>();
        match heads {
            Some(h)
                if h.declares_around(name, x.location) && h.declares_around(name, y.location) =>
            {
                Remark::InAHeadsIterable.to_string()
            }
            _ => String::new(),
        }
    }

    /// Where both sides stand, in the same frames, in the discriminant of a `switch` whose case
    /// block declares the name one side lacks, and the other side shows it uninitialized
    /// (`IN_A_DISCRIMINANT`): that block's scope does not exist yet.
    pub(super) fn discriminant_remark(
        &self,
        kind: &DivergenceKind,
        detail: &str,
        a: &Output,
        b: &Output,
    ) -> String {
        let (DivergenceKind::Variables, Output::Paused(x), Output::Paused(y)) = (kind, a, b) else {
            return String::new();
        };
        let Some((name, first)) = one_sided(detail) else {
            return String::new();
        };
        let shown = if first { x } else { y };
        let uninitialized = morphtrace_judges::dbdb::visible_variables(shown.top_scopes())
            .get(name)
            .is_some_and(|v| **v == morphtrace_schema::Value::Uninitialized);
        if !uninitialized || !same_frames(x, y) || self.program.language != Language::JavaScript {
            return String::new();
        }
        let switches = self.facts.get::<Discriminants>();
        match switches {
            Some(s) if s.declares_after(name, x.location) && s.declares_after(name, y.location) => {
                Remark::InADiscriminant.to_string()
            }
            _ => String::new(),
        }
    }

    /// Where one side, not the other, paused for a breakpoint on a function's closing brace
    /// that stands indented (`AT_AN_INDENTED_BRACE`): JavaScriptCore never pauses there.
    pub(super) fn brace_breakpoint_remark(
        &self,
        kind: &DivergenceKind,
        a: &Output,
        b: &Output,
    ) -> String {
        let (DivergenceKind::PauseLocation, Output::Paused(x), Output::Paused(y)) = (kind, a, b)
        else {
            return String::new();
        };
        if x.location == y.location || self.program.language != Language::JavaScript {
            return String::new();
        }
        let exits = self.exits();
        let at_brace = |p: &morphtrace_schema::PauseState| {
            matches!(p.reason, morphtrace_schema::PauseReason::Breakpoint { .. })
                && p.location.column > 0
                && exits
                    .as_ref()
                    .is_some_and(|e| e.closing_brace_exactly_at(p.location))
        };
        let Some(side) = Side::alone(at_brace(x), at_brace(y)) else {
            return String::new();
        };
        Remark::AtAnIndentedBrace { side }.to_string()
    }

    /// Whether `detail` says that one side lacks a binding the program declares with `let`,
    /// `const` or `class` (`v only on the second side`).
    pub(super) fn lexical_on_one_side(&self, detail: &str) -> bool {
        let Some((name, _)) = one_sided(detail) else {
            return false;
        };
        let Some(nodes) = self.facts.get::<LineNodes>() else {
            return false;
        };
        let binding = nodes.binding(name).unwrap_or_default();
        matches!(
            binding.strip_prefix("unreferenced ").unwrap_or(&binding),
            "let" | "const" | "class"
        )
    }

    /// Where one side's step stopped in a class member's parameter list while that class is
    /// being defined (its caller's frame stands on the class's first line): no code of the member
    /// runs then (`IN_PARAMETERS_WHILE_DEFINED`; JavaScriptCore after a static block).
    pub(super) fn class_definition_remark(
        &self,
        kind: &DivergenceKind,
        action: &Action,
        a: &Output,
        b: &Output,
    ) -> String {
        if *kind != DivergenceKind::PauseLocation
            || !matches!(
                action,
                Action::StepInto | Action::StepOver | Action::StepOut
            )
            || self.program.language != Language::JavaScript
        {
            return String::new();
        }
        let (Output::Paused(x), Output::Paused(y)) = (a, b) else {
            return String::new();
        };
        let Some(classes) = self.facts.get::<ClassParams>() else {
            return String::new();
        };
        let defining = |p: &morphtrace_schema::PauseState| {
            p.stack.get(1).is_some_and(|caller| {
                classes.class_of_params_at(p.location) == Some(caller.location.line)
            })
        };
        let Some(side) = Side::alone(defining(x), defining(y)) else {
            return String::new();
        };
        Remark::InParametersWhileDefined { side }.to_string()
    }

    /// Where one side's step stopped where a `class … extends …` declaration begins and the
    /// other's, in the same frames, went past the declaration (`AT_A_HERITAGE`).
    pub(super) fn heritage_remark(
        &self,
        kind: &DivergenceKind,
        action: &Action,
        a: &Output,
        b: &Output,
    ) -> String {
        if *kind != DivergenceKind::PauseLocation
            || !matches!(action, Action::StepInto | Action::StepOver)
            || self.program.language != Language::JavaScript
        {
            return String::new();
        }
        let (Output::Paused(x), Output::Paused(y)) = (a, b) else {
            return String::new();
        };
        let same_frames = same_frames(x, y);
        let Some(heritages) = self.facts.get::<Heritages>().filter(|_| same_frames) else {
            return String::new();
        };
        let past = |at: &morphtrace_schema::PauseState, other: &morphtrace_schema::PauseState| {
            heritages
                .declaration_at(at.location)
                .is_some_and(|end| other.location >= end)
        };
        let side = if past(x, y) {
            Side::First
        } else if past(y, x) {
            Side::Second
        } else {
            return String::new();
        };
        Remark::AtAHeritage { side }.to_string()
    }

    /// Where one side shows a class's own name uninitialized inside that class, and the other
    /// shows it optimized out or as a function (`OWN_NAME_UNINITIALIZED`): the class binds its
    /// name in a scope of its own, which V8 leaves out where nothing in the class refers to it,
    /// showing the outer binding (in its dead zone while the class is being defined).
    pub(super) fn own_name_remark(
        &self,
        kind: &DivergenceKind,
        detail: &str,
        a: &Output,
        b: &Output,
    ) -> String {
        use morphtrace_judges::dbdb::visible_variables;
        if *kind != DivergenceKind::Variables || self.program.language != Language::JavaScript {
            return String::new();
        }
        let (Output::Paused(x), Output::Paused(y)) = (a, b) else {
            return String::new();
        };
        let Some(name) = morphtrace_judges::difference::variable_name(detail)
            .filter(|n| detail[n.len()..].starts_with(": "))
        else {
            return String::new();
        };
        if x.location.line != y.location.line {
            return String::new();
        }
        let inside = self
            .facts
            .get::<NamedClasses>()
            .is_some_and(|c| c.inside(name, x.location) && c.inside(name, y.location));
        if !inside {
            return String::new();
        }
        let value = |p: &morphtrace_schema::PauseState| {
            visible_variables(p.top_scopes())
                .get(name)
                .map(|v| (*v).clone())
        };
        // The class itself: a function that says no name, or the class's own.
        let unavailable_or_class = |v: &Option<Value>| match v {
            Some(Value::OptimizedOut) => true,
            Some(Value::Object {
                kind: ObjectKind::Function,
                entries,
                ..
            }) => entries.iter().flatten().all(|e| {
                !matches!(&e.key, morphtrace_schema::Key::Name(k) if k == "name")
                    || matches!(&e.value, Value::String(n) if n == name)
            }),
            _ => false,
        };
        let (vx, vy) = (value(x), value(y));
        let side = if vx == Some(Value::Uninitialized) && unavailable_or_class(&vy) {
            Side::First
        } else if vy == Some(Value::Uninitialized) && unavailable_or_class(&vx) {
            Side::Second
        } else {
            return String::new();
        };
        Remark::OwnNameUninitialized { side }.to_string()
    }

    /// Where one side's step into paused again where it stood (the same place and frames), at
    /// the start of a call whose arguments call only built-ins (`AGAIN_BEFORE_A_CALL`):
    /// JavaScriptCore pauses before each call, and the built-in it stepped into has no source.
    pub(super) fn again_remark(
        &self,
        kind: &DivergenceKind,
        action: &Action,
        before: Option<&morphtrace_schema::PauseState>,
        a: &Output,
        b: &Output,
    ) -> String {
        if *kind != DivergenceKind::PauseLocation
            || *action != Action::StepInto
            || self.program.language != Language::JavaScript
        {
            return String::new();
        }
        let (Some(before), Output::Paused(x), Output::Paused(y)) = (before, a, b) else {
            return String::new();
        };
        let again = |p: &morphtrace_schema::PauseState| {
            p.location == before.location && same_frames(p, before)
        };
        let (side, at) = match (again(x), again(y)) {
            (true, false) => (Side::First, x.location),
            (false, true) => (Side::Second, y.location),
            _ => return String::new(),
        };
        let calls = self.facts.get::<BuiltInArguments>();
        match calls {
            Some(c) if c.starts_at(at) => Remark::AgainBeforeACall { side }.to_string(),
            _ => String::new(),
        }
    }

    /// Where two errors of one class differ in their messages alone and neither message is in
    /// the program's text (`EngineWordedMessages`): each engine worded an error it threw itself.
    /// A message the program wrote, shown otherwise by one side, gets no remark.
    pub(super) fn message_remark(
        &self,
        kind: &DivergenceKind,
        detail: &str,
        a: &Output,
        b: &Output,
        policy: &ComparisonPolicy,
    ) -> String {
        let Some((m, n)) = morphtrace_judges::dbdb::messages_apart_in(kind, detail, a, b, policy)
        else {
            return String::new();
        };
        let written = |m: &str| !m.is_empty() && self.program.text.contains(m);
        if written(&m) || written(&n) {
            String::new()
        } else {
            Remark::EngineWordedMessages.to_string()
        }
    }

    /// Whether the pause action `index` of `trace` stepped from was in a Python generator
    /// expression's frame (CPython names its code `<genexpr>`).
    pub(super) fn began_in_a_generator_expression(
        &self,
        trace: &morphtrace_schema::Trace,
        index: usize,
    ) -> bool {
        self.program.language == Language::Python
            && morphtrace_judges::dbdb::pause_before(trace, index)
                .and_then(|p| p.stack.first())
                .is_some_and(|top| top.function == "<genexpr>")
    }
}

/// Where, after a resume from a place both sides stood at (`before`, by line), one side went on
/// past it from a pause a step had brought it to (`came_by`: each side's control action before
/// this one) and the other stopped there again at a breakpoint (`PassedWhereItStood`): the shape
/// of Firefox's devtools server passing a breakpoint at the prior pause's place when that pause
/// was not a breakpoint's own (a step's that landed there).
pub(super) fn passed_remark(
    kind: &DivergenceKind,
    action: &Action,
    before: [Option<&morphtrace_schema::PauseState>; 2],
    came_by: [Option<&Action>; 2],
    outputs: [&Output; 2],
) -> String {
    use morphtrace_schema::PauseReason;
    if !matches!(
        kind,
        DivergenceKind::PauseLocation | DivergenceKind::Termination
    ) || *action != Action::Resume
    {
        return String::new();
    }
    let [Some(x), Some(y)] = before else {
        return String::new();
    };
    // Places by line, as pause locations compare by default (engines put a statement's pause
    // at different columns).
    if x.location.line != y.location.line {
        return String::new();
    }
    let stopped_there = |o: &Output| {
        matches!(o, Output::Paused(p)
            if p.location.line == x.location.line
                && matches!(p.reason, PauseReason::Breakpoint { .. }))
    };
    let (side, came) = match (stopped_there(outputs[0]), stopped_there(outputs[1])) {
        (false, true) => (Side::First, came_by[0]),
        (true, false) => (Side::Second, came_by[1]),
        _ => return String::new(),
    };
    if !matches!(
        came,
        Some(Action::StepInto | Action::StepOver | Action::StepOut)
    ) {
        return String::new();
    }
    Remark::PassedWhereItStood { side }.to_string()
}

/// The last control action (one that runs the program) of `trace` before its action `index`.
pub(super) fn last_control(trace: &morphtrace_schema::Trace, index: usize) -> Option<&Action> {
    trace
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Action(a) => Some(a),
            _ => None,
        })
        .take(index)
        .filter(|a| a.is_control())
        .last()
}

/// The remark of a divergence after a step that began in a generator (`place`), given the two
/// sides' answers: which side a breakpoint stopped where the other's step ended (bdb's `next`
/// can lose a generator's frame and run on to the next breakpoint), then where in the generator
/// the step began, or that it ended before that side stopped (pdb's driver says so in the
/// pause's engine reason).
pub(super) fn generator_remark(place: InGenerator, a: &Output, b: &Output) -> String {
    use morphtrace_judges::dbdb::GENERATOR_ENDED;
    use morphtrace_schema::PauseReason;
    let stopped_by_a_breakpoint = match (a, b) {
        (Output::Paused(x), Output::Paused(y)) => match (&x.reason, &y.reason) {
            (PauseReason::Breakpoint { .. }, PauseReason::Step) => Some((Side::First, x)),
            (PauseReason::Step, PauseReason::Breakpoint { .. }) => Some((Side::Second, y)),
            _ => None,
        },
        _ => None,
    };
    let mut remark = String::new();
    let mut ended_first = None;
    if let Some((side, p)) = stopped_by_a_breakpoint {
        remark.push_str(&Remark::StoppedByABreakpoint { side }.to_string());
        if p.engine_reason.as_deref() == Some(GENERATOR_ENDED) {
            ended_first = Some(side);
        }
    }
    let began = match (ended_first, place) {
        (Some(side), _) => Remark::BeganInAGenerator {
            ended_before: Some(side),
        },
        (None, InGenerator::LastStatement) => Remark::BeganOnAGeneratorsLastStatement,
        (None, InGenerator::Within) => Remark::BeganInAGenerator { ended_before: None },
    };
    remark.push_str(&began.to_string());
    remark
}

/// The name a variables divergence says only one side shows (`v only on the first side`), and
/// whether that is the first side.
pub(super) fn one_sided(detail: &str) -> Option<(&str, bool)> {
    detail
        .strip_suffix(" only on the first side")
        .map(|n| (n, true))
        .or_else(|| {
            detail
                .strip_suffix(" only on the second side")
                .map(|n| (n, false))
        })
}

/// Whether two pauses are in the same functions, frame by frame (where they stand in them
/// aside).
pub(super) fn same_frames(
    x: &morphtrace_schema::PauseState,
    y: &morphtrace_schema::PauseState,
) -> bool {
    x.stack.len() == y.stack.len()
        && x.stack
            .iter()
            .zip(&y.stack)
            .all(|(f, g)| f.function == g.function)
}
