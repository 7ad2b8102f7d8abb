//! The remarks a divergence gets from the program's syntax and the two sides' answers: the shapes
//! of known engine differences (a class's parameters, a `switch`'s discriminant, a closing brace,
//! a generator's step), each recognized narrowly and oriented (which side did what), so that a
//! triage rule names the shape and a real fault of another shape still shows.

use super::facts::ProgramFacts;
use crate::debugger::ProgramFile;
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::Language;
use morphtrace_schema::{Action, DivergenceKind, EventKind, ObjectKind, Output, Value};
use morphtrace_syntax::js::calls::BuiltInArguments;
use morphtrace_syntax::js::classes::{ClassParams, Heritages, NamedClasses};
use morphtrace_syntax::js::exits::Exits;
use morphtrace_syntax::js::loops::HeadIterables;
use morphtrace_syntax::js::switches::Discriminants;
use morphtrace_syntax::nodes::LineNodes;
use morphtrace_syntax::python::{InGenerator, PythonTree};

/// What recognizes the shapes of known engine differences in a divergence: the program under
/// test and the facts its syntax gives, parsed at the first divergence that asks.
pub(super) struct Recognizer<'a> {
    pub(super) program: &'a ProgramFile,
    pub(super) facts: &'a ProgramFacts<'a>,
}

/// Two sides' answers to one action, with what came before it on each side.
pub(super) struct Answers<'o> {
    pub(super) action: &'o Action,
    pub(super) outputs: [&'o Output; 2],
    /// Each side's pause before the action.
    pub(super) before: [Option<&'o morphtrace_schema::PauseState>; 2],
    /// Each side's last control action before this one.
    pub(super) came_by: [Option<&'o Action>; 2],
}

impl Recognizer<'_> {
    /// `detail` (what two answers differ in) with the remarks of every shape recognized in
    /// it, in a fixed order: a remark that reads the detail reads it with the remarks before.
    pub(super) fn remark(
        &self,
        kind: &DivergenceKind,
        mut detail: String,
        answers: &Answers,
        policy: &ComparisonPolicy,
    ) -> String {
        let Answers {
            action,
            outputs: [a, b],
            before,
            came_by,
        } = answers;
        let exit = self.exit_remark(kind, &detail, action, a, b);
        detail.push_str(&exit);
        let head = self.head_remark(kind, &detail, a, b);
        detail.push_str(&head);
        let switch = self.discriminant_remark(kind, &detail, a, b);
        detail.push_str(&switch);
        let heritage = self.heritage_remark(kind, action, a, b);
        detail.push_str(&heritage);
        let own = self.own_name_remark(kind, &detail, a, b);
        detail.push_str(&own);
        detail.push_str(&self.brace_breakpoint_remark(kind, a, b));
        detail.push_str(&self.class_definition_remark(kind, action, a, b));
        detail.push_str(&self.message_remark(kind, &detail, a, b, policy));
        detail.push_str(&self.again_remark(kind, action, before[0], a, b));
        detail.push_str(&passed_remark(kind, action, *before, *came_by, [a, b]));
        detail
    }

    /// Where the program's functions are and return (JavaScript that parses).
    fn exits(&self) -> Option<std::sync::Arc<Exits>> {
        self.facts.get()
    }

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

/// Each recognizer on the shape it names, with the sides swapped (the remark says which side did
/// what), and on planted faults of the same kind that are not the shape (one line off, another
/// frame, a value where the quirk shows none, another language): those get no remark, so that a
/// triage rule written for the shape cannot excuse them.
#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::{Frame, Location, PauseReason, PauseState};

    fn program(text: &str, language: Language) -> ProgramFile {
        ProgramFile {
            language,
            path: "p".into(),
            url: "file:///p".into(),
            text: text.into(),
            lines: text.lines().count() as u32,
        }
    }

    /// A pause at `at` (line, column) in the functions `frames` (innermost first; `""` is the top
    /// level), its top frame showing `vars`.
    fn paused(
        at: (u32, u32),
        reason: PauseReason,
        frames: &[&str],
        vars: &[(&str, Value)],
    ) -> Output {
        Output::Paused(pause(at, reason, frames, vars))
    }

    fn pause(
        at: (u32, u32),
        reason: PauseReason,
        frames: &[&str],
        vars: &[(&str, Value)],
    ) -> PauseState {
        let location = Location::new(at.0, at.1);
        let stack = frames
            .iter()
            .enumerate()
            .map(|(i, f)| Frame {
                function: f.to_string(),
                location: if i == 0 {
                    location
                } else {
                    Location::new(99, 0)
                },
                scopes: if i == 0 {
                    vec![morphtrace_testkit::pauses::local_scope(vars)]
                } else {
                    Vec::new()
                },
            })
            .collect();
        PauseState {
            location,
            reason,
            engine_reason: None,
            stack,
            exception: None,
            async_stack: None,
            condition: None,
        }
    }

    fn breakpoint() -> PauseReason {
        PauseReason::Breakpoint { ids: Vec::new() }
    }

    /// What the recognizer appends to `detail` for the answers `a`, `b` to `action` on `p`.
    fn remarks(
        p: &ProgramFile,
        kind: DivergenceKind,
        detail: &str,
        action: Action,
        [a, b]: [&Output; 2],
        before: [Option<&PauseState>; 2],
        came_by: [Option<&Action>; 2],
    ) -> String {
        let facts = ProgramFacts::new(&p.text, p.language);
        let r = Recognizer {
            program: p,
            facts: &facts,
        };
        let answers = Answers {
            action: &action,
            outputs: [a, b],
            before,
            came_by,
        };
        let out = r.remark(
            &kind,
            detail.to_string(),
            &answers,
            &ComparisonPolicy::default(),
        );
        out.strip_prefix(detail).unwrap().to_string()
    }

    /// `remarks` for two answers alone, and for the same answers the other way round.
    fn both_ways(
        p: &ProgramFile,
        kind: DivergenceKind,
        detail: [&str; 2],
        action: Action,
        a: &Output,
        b: &Output,
    ) -> [String; 2] {
        [
            remarks(
                p,
                kind.clone(),
                detail[0],
                action.clone(),
                [a, b],
                [None; 2],
                [None; 2],
            ),
            remarks(p, kind, detail[1], action, [b, a], [None; 2], [None; 2]),
        ]
    }

    /// A remark that names the first side, then the second.
    fn oriented(remark: impl Fn(Side) -> Remark) -> [String; 2] {
        [Side::First, Side::Second].map(|s| remark(s).to_string())
    }

    const EXITS: &str = "function f(a) {\n  return a + 1;\n}\nf(1);\n";

    #[test]
    fn a_step_to_a_returns_end_against_one_to_the_brace() {
        let p = program(EXITS, Language::JavaScript);
        let at_return = paused((1, 14), PauseReason::Step, &["f", ""], &[]);
        let at_brace = paused((2, 0), PauseReason::Step, &["f", ""], &[]);
        let detail = ["paused at 2:15 vs 3:1"; 2];
        let got = both_ways(
            &p,
            DivergenceKind::PauseLocation,
            detail,
            Action::StepOver,
            &at_return,
            &at_brace,
        );
        assert_eq!(got, oriented(|side| Remark::ReturnAndBrace { side }));
        // Planted: a step that did not move off the `return`'s start; one at the brace in other
        // frames; the
        // same answers after a resume; the same text read as Python.
        let at_start = paused((1, 2), PauseReason::Step, &["f", ""], &[]);
        let returned = paused((2, 0), PauseReason::Step, &[""], &[]);
        let none = [String::new(), String::new()];
        let kind = DivergenceKind::PauseLocation;
        assert_eq!(
            both_ways(
                &p,
                kind.clone(),
                detail,
                Action::StepOver,
                &at_start,
                &at_brace
            ),
            none
        );
        assert_eq!(
            both_ways(
                &p,
                kind.clone(),
                detail,
                Action::StepOver,
                &at_return,
                &returned
            ),
            none
        );
        assert_eq!(
            both_ways(
                &p,
                kind.clone(),
                detail,
                Action::Resume,
                &at_return,
                &at_brace
            ),
            none
        );
        let py = program(EXITS, Language::Python);
        assert_eq!(
            both_ways(&py, kind, detail, Action::StepOver, &at_return, &at_brace),
            none
        );
    }

    const BRACES: &str = "function g() {\n  if (g) {\n    return 1;\n  }\n}\nconst o = {\n  m() {\n    return 2;\n  },\n};\no.m();\ng();\n";

    #[test]
    fn a_breakpoint_pause_at_an_indented_functions_brace_on_one_side() {
        let p = program(BRACES, Language::JavaScript);
        let at_brace = paused((8, 2), breakpoint(), &["m", ""], &[]);
        let past = paused((11, 0), breakpoint(), &[""], &[]);
        let detail = ["paused at 9:3 vs 12:1", "paused at 12:1 vs 9:3"];
        let got = both_ways(
            &p,
            DivergenceKind::PauseLocation,
            detail,
            Action::Resume,
            &at_brace,
            &past,
        );
        assert_eq!(got, oriented(|side| Remark::AtAnIndentedBrace { side }));
        // Planted: an `if`'s brace (not a function's), a function's brace at column 0, a step
        // (not a breakpoint) at the method's brace.
        let none = [String::new(), String::new()];
        for fault in [
            paused((3, 2), breakpoint(), &["g", ""], &[]),
            paused((4, 0), breakpoint(), &["g", ""], &[]),
            paused((8, 2), PauseReason::Step, &["m", ""], &[]),
        ] {
            let got = both_ways(
                &p,
                DivergenceKind::PauseLocation,
                detail,
                Action::Resume,
                &fault,
                &past,
            );
            assert_eq!(got, none, "{fault:?}");
        }
    }

    const SWITCH: &str = "function h(k) {\n  switch (k) {\n    case 1:\n      let v = 3;\n      return v;\n  }\n  return 0;\n}\nh(1);\n";

    #[test]
    fn a_case_blocks_binding_uninitialized_in_the_discriminant_on_one_side() {
        let p = program(SWITCH, Language::JavaScript);
        let k = ("k", Value::Number(1.0));
        let shows = paused(
            (1, 10),
            PauseReason::Step,
            &["h", ""],
            &[k.clone(), ("v", Value::Uninitialized)],
        );
        let lacks = paused(
            (1, 10),
            PauseReason::Step,
            &["h", ""],
            std::slice::from_ref(&k),
        );
        let detail = ["v only on the first side", "v only on the second side"];
        let got = both_ways(
            &p,
            DivergenceKind::Variables,
            detail,
            Action::StepInto,
            &shows,
            &lacks,
        );
        let remark = Remark::InADiscriminant.to_string();
        assert_eq!(got, [remark.clone(), remark]);
        // Planted: the binding shown with a value there; both sides inside the case block.
        let none = [String::new(), String::new()];
        let valued = paused(
            (1, 10),
            PauseReason::Step,
            &["h", ""],
            &[k.clone(), ("v", Value::Number(3.0))],
        );
        let got = both_ways(
            &p,
            DivergenceKind::Variables,
            detail,
            Action::StepInto,
            &valued,
            &lacks,
        );
        assert_eq!(got, none);
        let inside = paused(
            (4, 6),
            PauseReason::Step,
            &["h", ""],
            &[k.clone(), ("v", Value::Uninitialized)],
        );
        let inside_lacks = paused((4, 6), PauseReason::Step, &["h", ""], &[k]);
        let got = both_ways(
            &p,
            DivergenceKind::Variables,
            detail,
            Action::StepInto,
            &inside,
            &inside_lacks,
        );
        assert_eq!(got, none);
    }

    const HEAD: &str = "const xs = [1];\nfor (const x of xs) {\n  console.log(x);\n}\n";

    #[test]
    fn a_heads_binding_on_one_side_in_its_iterable_only() {
        let p = program(HEAD, Language::JavaScript);
        let with_x = paused(
            (1, 16),
            PauseReason::Step,
            &[""],
            &[("x", Value::Uninitialized)],
        );
        let without = paused((1, 16), PauseReason::Step, &[""], &[]);
        let detail = ["x only on the first side", "x only on the second side"];
        let got = both_ways(
            &p,
            DivergenceKind::Variables,
            detail,
            Action::StepOver,
            &with_x,
            &without,
        );
        let remark = Remark::InAHeadsIterable.to_string();
        assert_eq!(got, [remark.clone(), remark]);
        // Planted: the same one-sided binding in the loop's body.
        let body = paused(
            (2, 2),
            PauseReason::Step,
            &[""],
            &[("x", Value::Number(1.0))],
        );
        let body_lacks = paused((2, 2), PauseReason::Step, &[""], &[]);
        let got = both_ways(
            &p,
            DivergenceKind::Variables,
            detail,
            Action::StepOver,
            &body,
            &body_lacks,
        );
        assert_eq!(got, [String::new(), String::new()]);
    }

    const HERITAGE: &str = "class A {}\nclass B extends A {\n  m() {}\n}\nconst b = new B();\n";

    #[test]
    fn a_step_that_stops_at_a_heritage_against_one_past_it() {
        let p = program(HERITAGE, Language::JavaScript);
        let at = paused((1, 0), PauseReason::Step, &[""], &[]);
        let past = paused((4, 0), PauseReason::Step, &[""], &[]);
        let detail = ["paused at 2:1 vs 5:1", "paused at 5:1 vs 2:1"];
        let got = both_ways(
            &p,
            DivergenceKind::PauseLocation,
            detail,
            Action::StepOver,
            &at,
            &past,
        );
        assert_eq!(got, oriented(|side| Remark::AtAHeritage { side }));
        // Planted: the other side short of the declaration's end; a class without heritage.
        let none = [String::new(), String::new()];
        let short = paused((0, 0), PauseReason::Step, &[""], &[]);
        let got = both_ways(
            &p,
            DivergenceKind::PauseLocation,
            detail,
            Action::StepOver,
            &at,
            &short,
        );
        assert_eq!(got, none);
        let plain = paused((0, 0), PauseReason::Step, &[""], &[]);
        let got = both_ways(
            &p,
            DivergenceKind::PauseLocation,
            detail,
            Action::StepOver,
            &plain,
            &past,
        );
        assert_eq!(got, none);
    }

    #[test]
    fn a_step_into_that_stays_before_a_call_of_built_ins_only() {
        let text = "function p(s) {\n  return s;\n}\np(Math.max(1, 2));\np(p(3));\n";
        let prog = program(text, Language::JavaScript);
        let remark = |before: (u32, u32), into: (u32, u32), first_stays: bool| {
            let b = pause(before, PauseReason::Step, &[""], &[]);
            let stays = paused(before, PauseReason::Step, &[""], &[]);
            let went = paused(into, PauseReason::Step, &["p", ""], &[]);
            let pair = if first_stays {
                [&stays, &went]
            } else {
                [&went, &stays]
            };
            remarks(
                &prog,
                DivergenceKind::PauseLocation,
                "paused at 4:1 vs 2:3",
                Action::StepInto,
                pair,
                [Some(&b), Some(&b)],
                [None; 2],
            )
        };
        assert_eq!(
            remark((3, 0), (1, 2), true),
            Remark::AgainBeforeACall { side: Side::First }.to_string()
        );
        assert_eq!(
            remark((3, 0), (1, 2), false),
            Remark::AgainBeforeACall { side: Side::Second }.to_string()
        );
        // Planted: a call whose argument calls the program's own function.
        assert_eq!(remark((4, 0), (1, 2), true), "");
    }

    #[test]
    fn a_resume_that_passes_where_a_step_left_it() {
        let p = program(EXITS, Language::JavaScript);
        let before = pause((1, 2), PauseReason::Step, &["f", ""], &[]);
        let on = paused((3, 0), breakpoint(), &[""], &[]);
        let again = paused((1, 2), breakpoint(), &["f", ""], &[]);
        let step = Action::StepOver;
        let passed = |pair: [&Output; 2], came: [Option<&Action>; 2]| {
            remarks(
                &p,
                DivergenceKind::PauseLocation,
                "paused at 4:1 vs 2:3",
                Action::Resume,
                pair,
                [Some(&before), Some(&before)],
                came,
            )
        };
        let by_steps = [Some(&step), Some(&step)];
        assert_eq!(
            passed([&on, &again], by_steps),
            Remark::PassedWhereItStood { side: Side::First }.to_string()
        );
        assert_eq!(
            passed([&again, &on], by_steps),
            Remark::PassedWhereItStood { side: Side::Second }.to_string()
        );
        // Planted: the pause before was a breakpoint's own (a resume brought it there), where
        // passing on is right.
        let resume = Action::Resume;
        assert_eq!(passed([&on, &again], [Some(&resume), Some(&resume)]), "");
    }

    #[test]
    fn both_at_a_closing_brace_where_one_side_lacks_a_lexical_binding() {
        let text = "function f() {\n  let v = 1;\n  var w = 2;\n  return v + w;\n}\nf();\n";
        let p = program(text, Language::JavaScript);
        let shows = paused(
            (4, 0),
            PauseReason::Step,
            &["f", ""],
            &[("v", Value::Number(1.0))],
        );
        let lacks = paused((4, 0), PauseReason::Step, &["f", ""], &[]);
        let detail = ["v only on the first side", "v only on the second side"];
        let kind = DivergenceKind::Variables;
        let remark = Remark::BothAtAClosingBrace.to_string();
        let got = both_ways(&p, kind.clone(), detail, Action::StepOver, &shows, &lacks);
        assert_eq!(got, [remark.clone(), remark]);
        // Planted: a `var` lacking there (nothing hides a `var`); the same `let` lacking inside
        // the body.
        let none = [String::new(), String::new()];
        let var = paused(
            (4, 0),
            PauseReason::Step,
            &["f", ""],
            &[("w", Value::Number(2.0))],
        );
        let var_detail = ["w only on the first side", "w only on the second side"];
        assert_eq!(
            both_ways(&p, kind.clone(), var_detail, Action::StepOver, &var, &lacks),
            none
        );
        let body = paused(
            (3, 2),
            PauseReason::Step,
            &["f", ""],
            &[("v", Value::Number(1.0))],
        );
        let body_lacks = paused((3, 2), PauseReason::Step, &["f", ""], &[]);
        assert_eq!(
            both_ways(&p, kind, detail, Action::StepOver, &body, &body_lacks),
            none
        );
    }

    #[test]
    fn a_step_into_a_members_parameters_while_its_class_is_defined() {
        let text = "class C {\n  static m(a = 1) {\n    return a;\n  }\n}\nC.m();\n";
        let p = program(text, Language::JavaScript);
        let in_params = |caller_line: u32| {
            let mut q = pause((1, 11), PauseReason::Step, &["m", ""], &[]);
            q.stack[1].location = Location::new(caller_line, 0);
            Output::Paused(q)
        };
        let defining = in_params(0);
        let past = paused((5, 0), PauseReason::Step, &[""], &[]);
        let detail = ["paused at 2:12 vs 6:1", "paused at 6:1 vs 2:12"];
        let kind = DivergenceKind::PauseLocation;
        let got = both_ways(&p, kind.clone(), detail, Action::StepInto, &defining, &past);
        assert_eq!(
            got,
            oriented(|side| Remark::InParametersWhileDefined { side })
        );
        // Planted: the same place entered by the call on line 6 (the member runs: its
        // parameters are code); the same answers after a resume.
        let none = [String::new(), String::new()];
        let called = in_params(5);
        assert_eq!(
            both_ways(&p, kind.clone(), detail, Action::StepInto, &called, &past),
            none
        );
        assert_eq!(
            both_ways(&p, kind, detail, Action::Resume, &defining, &past),
            none
        );
    }

    #[test]
    fn a_classs_own_name_uninitialized_inside_it_on_one_side() {
        let text = "class K {\n  static s = 1;\n  m() {\n    return 2;\n  }\n}\nnew K().m();\n";
        let p = program(text, Language::JavaScript);
        let tdz = paused(
            (3, 4),
            PauseReason::Step,
            &["m", ""],
            &[("K", Value::Uninitialized)],
        );
        let out = paused(
            (3, 4),
            PauseReason::Step,
            &["m", ""],
            &[("K", Value::OptimizedOut)],
        );
        let detail = [
            "K: uninitialized vs optimized out",
            "K: optimized out vs uninitialized",
        ];
        let kind = DivergenceKind::Variables;
        let got = both_ways(&p, kind.clone(), detail, Action::StepInto, &tdz, &out);
        assert_eq!(got, oriented(|side| Remark::OwnNameUninitialized { side }));
        // Planted: a number where the class should be; the same two answers outside the class.
        let none = [String::new(), String::new()];
        let number = paused(
            (3, 4),
            PauseReason::Step,
            &["m", ""],
            &[("K", Value::Number(1.0))],
        );
        assert_eq!(
            both_ways(&p, kind.clone(), detail, Action::StepInto, &tdz, &number),
            none
        );
        let tdz_out = paused(
            (6, 0),
            PauseReason::Step,
            &[""],
            &[("K", Value::Uninitialized)],
        );
        let out_out = paused(
            (6, 0),
            PauseReason::Step,
            &[""],
            &[("K", Value::OptimizedOut)],
        );
        assert_eq!(
            both_ways(&p, kind, detail, Action::StepInto, &tdz_out, &out_out),
            none
        );
    }

    #[test]
    fn error_messages_each_engine_worded_but_not_the_programs_own() {
        let text = "function f(o) {\n  if (!o) throw new TypeError('no o given');\n  return o.x.y;\n}\nf({});\n";
        let p = program(text, Language::JavaScript);
        let threw = |message: &str| Output::Evaluated {
            value: Value::Object {
                kind: ObjectKind::Error,
                class: "TypeError".into(),
                description: Some(format!("TypeError: {message}")),
                entries: None,
                truncated: false,
            },
            threw: true,
        };
        let remark = |a: &Output, b: &Output| {
            remarks(
                &p,
                DivergenceKind::Evaluation,
                "TypeError vs TypeError",
                Action::Evaluate {
                    expression: "o.x.y".into(),
                },
                [a, b],
                [None; 2],
                [None; 2],
            )
        };
        let v8 = threw("Cannot read properties of undefined (reading 'y')");
        let jsc = threw("undefined is not an object (evaluating 'o.x.y')");
        assert_eq!(remark(&v8, &jsc), Remark::EngineWordedMessages.to_string());
        // Planted: one side shows the program's own message where the other worded its own.
        assert_eq!(remark(&threw("no o given"), &jsc), "");
    }

    #[test]
    fn a_breakpoint_that_stopped_where_the_others_step_out_of_a_generator_ended() {
        use morphtrace_judges::dbdb::GENERATOR_ENDED;
        let step = paused((3, 4), PauseReason::Step, &["g", ""], &[]);
        let mut hit = pause((7, 0), breakpoint(), &[""], &[]);
        let plain = generator_remark(InGenerator::Within, &Output::Paused(hit.clone()), &step);
        assert_eq!(
            plain,
            format!(
                "{}{}",
                Remark::StoppedByABreakpoint { side: Side::First },
                Remark::BeganInAGenerator { ended_before: None }
            )
        );
        hit.engine_reason = Some(GENERATOR_ENDED.into());
        let ended = generator_remark(InGenerator::LastStatement, &step, &Output::Paused(hit));
        assert_eq!(
            ended,
            format!(
                "{}{}",
                Remark::StoppedByABreakpoint { side: Side::Second },
                Remark::BeganInAGenerator {
                    ended_before: Some(Side::Second)
                }
            )
        );
        // Two steps apart: only where the step began.
        let other = paused((4, 4), PauseReason::Step, &["g", ""], &[]);
        assert_eq!(
            generator_remark(InGenerator::LastStatement, &step, &other),
            Remark::BeganOnAGeneratorsLastStatement.to_string()
        );
    }
}
