//! The known engine quirks the recorder recognizes in a divergence, one module each: a recognizer
//! over the program's syntax and the two sides' answers, narrow and oriented (which side did
//! what), its unit tests beside it (the shape gets its remark, the sides swapped the other side's,
//! planted faults of the same kind none), and the real-engine test that shows the quirk named in
//! its documentation (the triage rule's evidence). [`QUIRKS`] lists them in the order they are
//! tried; the remark of each is appended to the divergence's detail, which triage rules match by
//! the remark's id (`judges::remark`).
//!
//! A new quirk: a module here with a [`Quirk`] impl, a line in [`QUIRKS`], a `Remark` variant in
//! `judges::remark`, a rule in `triage.toml` with the real-engine test as evidence.

mod again_before_a_call;
mod class_definition;
mod closing_brace;
mod comparison_as_bool;
mod condition_out_of_scope;
mod crashed_with_a_catch_default;
mod discriminant;
mod evaluated_in_dead_zone;
mod evaluated_optimized_out;
pub(super) mod generators;
mod heads_iterable;
mod heritage;
mod indented_brace;
mod listed_without_a_location;
mod logged_without_a_summary;
mod loop_head_and_body;
mod own_name;
mod passed_where_it_stood;
mod ran_past_a_quiet_breakpoint;
mod resumed_an_interrupted_step;
mod return_and_brace;
mod slid_into_the_next_function;
mod untaken_return_at_the_end;
mod worded_messages;

use super::facts::ProgramFacts;
use crate::debugger::ProgramFile;
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_judges::remark::Remark;
use morphtrace_schema::{
    Action, BreakpointId, DivergenceKind, EventKind, Language, Output, PauseState, Value,
};
use morphtrace_syntax::js::exits::Exits;
use morphtrace_syntax::nodes::LineNodes;
use std::sync::Arc;

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
    pub(super) before: [Option<&'o PauseState>; 2],
    /// Each side's last control action before this one.
    pub(super) came_by: [Option<&'o Action>; 2],
    /// Each side's step that a breakpoint interrupted and that is still pending, with the pause
    /// it began at ([`interrupted_step`]).
    pub(super) interrupted: [Option<(&'o Action, &'o PauseState)>; 2],
    /// Each side's breakpoints that need not stop ([`quiet_breakpoints`]).
    pub(super) quiet: [Vec<QuietBreakpoint>; 2],
}

/// A divergence between two answers as a quirk sees it: what they differ in (`detail`, with
/// the remarks of the quirks tried before) and under which comparison.
pub(super) struct Divergence<'d> {
    pub(super) kind: &'d DivergenceKind,
    pub(super) detail: &'d str,
    pub(super) answers: &'d Answers<'d>,
    pub(super) policy: &'d ComparisonPolicy,
}

/// One known shape of an engine difference.
pub(super) trait Quirk: Sync {
    /// The remark for the divergence when it has this shape.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark>;
}

/// Every quirk recognized per pair of engines, in the order they are tried.
pub(super) static QUIRKS: &[&dyn Quirk] = &[
    &return_and_brace::ReturnAndBrace,
    &loop_head_and_body::LoopHeadAndBody,
    &closing_brace::ClosingBrace,
    &heads_iterable::HeadsIterable,
    &discriminant::Discriminant,
    &heritage::Heritage,
    &own_name::OwnName,
    &indented_brace::IndentedBrace,
    &class_definition::ClassDefinition,
    &worded_messages::WordedMessages,
    &again_before_a_call::AgainBeforeACall,
    &passed_where_it_stood::PassedWhereItStood,
    &crashed_with_a_catch_default::CrashedWithACatchDefault,
    &evaluated_in_dead_zone::EvaluatedInDeadZone,
    &evaluated_optimized_out::EvaluatedOptimizedOut,
    &untaken_return_at_the_end::UntakenReturnAtTheEnd,
    &slid_into_the_next_function::SlidIntoTheNextFunction,
    &listed_without_a_location::ListedWithoutALocation,
    &resumed_an_interrupted_step::ResumedAnInterruptedStep,
    &comparison_as_bool::ComparisonAsBool,
    &condition_out_of_scope::ConditionOutOfScope,
    &logged_without_a_summary::LoggedWithoutASummary,
    &ran_past_a_quiet_breakpoint::RanPastAQuietBreakpoint,
];

impl Recognizer<'_> {
    /// `detail` (what two answers differ in) with the remark of every quirk whose shape it has,
    /// in [`QUIRKS`]' order.
    pub(super) fn remark(
        &self,
        kind: &DivergenceKind,
        mut detail: String,
        answers: &Answers,
        policy: &ComparisonPolicy,
    ) -> String {
        for q in QUIRKS {
            let d = Divergence {
                kind,
                detail: &detail,
                answers,
                policy,
            };
            if let Some(r) = q.recognize(self, &d) {
                detail.push_str(&r.to_string());
            }
        }
        detail
    }

    /// Where the program's functions are and return (JavaScript that parses).
    fn exits(&self) -> Option<Arc<Exits>> {
        self.facts.get()
    }

    /// Whether `detail` says that one side lacks a binding the program declares with `let`,
    /// `const` or `class` (`v only on the second side`).
    fn lexical_on_one_side(&self, detail: &str) -> bool {
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
}

/// The name a variables divergence says only one side shows (`v only on the first side`), and
/// whether that is the first side.
fn one_sided(detail: &str) -> Option<(&str, bool)> {
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
fn same_frames(x: &morphtrace_schema::PauseState, y: &morphtrace_schema::PauseState) -> bool {
    x.stack.len() == y.stack.len()
        && x.stack
            .iter()
            .zip(&y.stack)
            .all(|(f, g)| f.function == g.function)
}

/// `same_frames`, where two frames named apart are still one function's when both stand in
/// the same function body of the program (`exits`) and that function is one ECMAScript leaves
/// without a name, each side showing no name or one inferred from the code around it (`nodes`):
/// engines name an anonymous function their own way (SpiderMonkey `Math.random` by inference,
/// V8 nothing), which says nothing of where control is. A function the program names, shown
/// under another name, stays apart.
fn same_functions(
    exits: &Exits,
    nodes: &LineNodes,
    x: &morphtrace_schema::PauseState,
    y: &morphtrace_schema::PauseState,
) -> bool {
    x.stack.len() == y.stack.len()
        && x.stack.iter().zip(&y.stack).all(|(f, g)| {
            f.function == g.function
                || (exits
                    .body_holding(f.location)
                    .is_some_and(|body| exits.body_holding(g.location) == Some(body))
                    && nodes
                        .named_by_inference(&[
                            (0, vec![(f.function.as_str(), f.location)]),
                            (1, vec![(g.function.as_str(), g.location)]),
                        ])
                        .len()
                        == 2)
        })
}

/// An evaluation divergence in a JavaScript program: the expression and each side's value and
/// whether it threw.
fn evaluations<'d>(
    r: &Recognizer,
    d: &Divergence<'d>,
) -> Option<(&'d str, [(&'d Value, bool); 2])> {
    if *d.kind != DivergenceKind::Evaluation || r.program.language != Language::JavaScript {
        return None;
    }
    let Action::Evaluate { expression } = d.answers.action else {
        return None;
    };
    match d.answers.outputs {
        [Output::Evaluated {
            value: x,
            threw: tx,
        }, Output::Evaluated {
            value: y,
            threw: ty,
        }] => Some((expression, [(x, *tx), (y, *ty)])),
        _ => None,
    }
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

/// A logged line as a log divergence's detail shows it, `#ID TEXT`: the logpoint and its text.
pub(super) fn logged_line(shown: &str) -> Option<(u32, &str)> {
    let (id, text) = shown.strip_prefix('#')?.split_once(' ')?;
    Some((id.parse().ok()?, text))
}

/// A breakpoint that need not stop: a logpoint (its expression) or a conditional breakpoint.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct QuietBreakpoint {
    pub(super) id: BreakpointId,
    /// Where the engine placed it (its first location).
    pub(super) line: u32,
    /// A logpoint's expression; `None` for a conditional breakpoint.
    pub(super) logs: Option<String>,
}

/// `trace`'s breakpoints that need not stop standing before its action `index`: its logpoints
/// and conditional breakpoints that the engine placed, not removed since.
pub(super) fn quiet_breakpoints(
    trace: &morphtrace_schema::Trace,
    index: usize,
) -> Vec<QuietBreakpoint> {
    let mut standing: Vec<QuietBreakpoint> = Vec::new();
    let (mut actions, mut asked) = (0, None);
    for e in &trace.events {
        match &e.kind {
            EventKind::Action(a) => {
                if actions == index {
                    break;
                }
                actions += 1;
                asked = Some(a);
            }
            EventKind::Output(o) => match (asked.take(), o) {
                (
                    Some(
                        a @ (Action::SetLogpoint { .. } | Action::SetConditionalBreakpoint { .. }),
                    ),
                    Output::BreakpointSet { id, actual, .. },
                ) => standing.extend(actual.first().map(|l| QuietBreakpoint {
                    id: *id,
                    line: l.line,
                    logs: match a {
                        Action::SetLogpoint { expression, .. } => Some(expression.clone()),
                        _ => None,
                    },
                })),
                (Some(Action::RemoveBreakpoint { id }), _) => standing.retain(|b| b.id != *id),
                _ => {}
            },
        }
    }
    standing
}

/// The step over or out of `trace` before its action `index` that a pause at a breakpoint
/// interrupted, with the pause it began at, where what followed (resumes, steps LLDB runs on top
/// of the pending one) paused only in frames deeper than those the step ends in.
pub(super) fn interrupted_step(
    trace: &morphtrace_schema::Trace,
    index: usize,
) -> Option<(&Action, &PauseState)> {
    // Each action with the pause before it and its answer.
    let mut answered: Vec<(&Action, Option<&PauseState>, Option<&Output>)> = Vec::new();
    let mut last_pause = None;
    for e in &trace.events {
        match &e.kind {
            EventKind::Action(a) => {
                if answered.len() == index {
                    break;
                }
                answered.push((a, last_pause, None));
            }
            EventKind::Output(o) => {
                if let Some(last) = answered.last_mut() {
                    last.2.get_or_insert(o);
                }
                if let Output::Paused(p) = o {
                    last_pause = Some(p);
                }
            }
        }
    }
    // The shallowest pause since: LLDB's pending step is done once the program is back in the
    // frames it ends in, so every pause after the interrupting one must be deeper than those.
    let mut shallowest = usize::MAX;
    for (action, began, answer) in answered.into_iter().rev().filter(|a| a.0.is_control()) {
        let paused = match answer {
            Some(Output::Paused(p)) => Some(p),
            _ => None,
        };
        match action {
            Action::Resume | Action::StepInto => {}
            Action::StepOver | Action::StepOut => {
                let interrupted = paused.is_some_and(|p| {
                    matches!(p.reason, morphtrace_schema::PauseReason::Breakpoint { .. })
                });
                if interrupted {
                    let began = began?;
                    let ends_in = began
                        .stack
                        .len()
                        .saturating_sub(usize::from(*action == Action::StepOut));
                    return (shallowest > ends_in).then_some((action, began));
                }
            }
            _ => return None,
        }
        // A later step, completed (or a resume): LLDB ran it on top of the pending one.
        shallowest = shallowest.min(paused.map_or(0, |p| p.stack.len()));
    }
    None
}

#[cfg(test)]
pub(super) mod test_support {
    pub(super) use super::*;
    pub(super) use morphtrace_judges::remark::Side;
    pub(super) use morphtrace_schema::{Frame, Language, Location, PauseReason, PauseState, Value};

    pub(super) fn program(text: &str, language: Language) -> ProgramFile {
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
    pub(super) fn paused(
        at: (u32, u32),
        reason: PauseReason,
        frames: &[&str],
        vars: &[(&str, Value)],
    ) -> Output {
        Output::Paused(pause(at, reason, frames, vars))
    }

    pub(super) fn pause(
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

    pub(super) fn breakpoint() -> PauseReason {
        PauseReason::Breakpoint { ids: Vec::new() }
    }

    /// What quirk `q` alone remarks on a divergence of `kind` with `answers` on the C program
    /// `text`.
    pub(super) fn recognized_by(
        q: &dyn Quirk,
        text: &str,
        kind: DivergenceKind,
        detail: &str,
        answers: &Answers,
    ) -> Option<Remark> {
        let p = program(text, Language::C);
        let facts = ProgramFacts::new(&p.text, p.language);
        let r = Recognizer {
            program: &p,
            facts: &facts,
        };
        q.recognize(
            &r,
            &Divergence {
                kind: &kind,
                detail,
                answers,
                policy: &ComparisonPolicy::default(),
            },
        )
    }

    /// What the recognizer appends to `detail` for the answers `a`, `b` to `action` on `p`.
    pub(super) fn remarks(
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
            interrupted: [None; 2],
            quiet: [Vec::new(), Vec::new()],
        };
        let out = r.remark(
            &kind,
            detail.to_string(),
            &answers,
            &ComparisonPolicy::default(),
        );
        out.strip_prefix(detail).unwrap().to_string()
    }

    /// The remarks on an evaluation divergence of `expression` in the JavaScript program
    /// `text`, each side paused as `before` says before it evaluated; `None` for none.
    pub(super) fn evaluation_remarks(
        text: &str,
        expression: &str,
        answers: [&Output; 2],
        before: [&PauseState; 2],
    ) -> Option<String> {
        let p = program(text, Language::JavaScript);
        let out = remarks(
            &p,
            DivergenceKind::Evaluation,
            "evaluated 1 vs threw Error { }",
            Action::Evaluate {
                expression: expression.into(),
            },
            answers,
            [Some(before[0]), Some(before[1])],
            [None, None],
        );
        (!out.is_empty()).then_some(out)
    }

    /// `remarks` for two answers alone, and for the same answers the other way round.
    pub(super) fn both_ways(
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
    pub(super) fn oriented(remark: impl Fn(Side) -> Remark) -> [String; 2] {
        [Side::First, Side::Second].map(|s| remark(s).to_string())
    }

    pub(super) const EXITS: &str = "function f(a) {\n  return a + 1;\n}\nf(1);\n";
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each quirk module names the remark it makes (a triage rule matches it) and the test on
    /// the real engines that shows the quirk, which exists: the map from recognizer to rule to
    /// evidence stays true.
    #[test]
    fn each_quirk_names_its_rule_and_its_real_engine_test() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let triage = std::fs::read_to_string(root.join("triage.toml")).unwrap();
        let dir = root.join("recorder/src/session/quirks");
        let mut modules = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().is_some_and(|n| n == "mod.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let head: String = text
                .lines()
                .take_while(|l| !l.contains("On the real engines:"))
                .collect();
            let ids: Vec<&str> = morphtrace_judges::remark::IDS
                .iter()
                .copied()
                .filter(|id| head.contains(&format!("`{id}`")))
                .collect();
            assert!(!ids.is_empty(), "{path:?} names no remark");
            for id in ids {
                assert!(
                    triage.contains(&format!("id = \"{id}\"")),
                    "no triage rule matches {id} ({path:?})"
                );
            }
            let tests: Vec<&str> = text
                .lines()
                .skip_while(|l| !l.contains("On the real engines:"))
                .skip(1)
                .map_while(|l| l.strip_prefix("//! - `")?.strip_suffix('`'))
                .collect();
            assert!(!tests.is_empty(), "{path:?} names no real-engine test");
            for t in tests {
                let (file, name) = t.split_once('#').unwrap();
                let body = std::fs::read_to_string(root.join(file)).unwrap();
                assert!(body.contains(&format!("fn {name}(")), "{t} ({path:?})");
            }
            modules += 1;
        }
        // Every quirk of the list, and the generators' (recognized for the whole divergence).
        assert_eq!(modules, QUIRKS.len() + 1);
    }
}
