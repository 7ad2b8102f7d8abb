//! `in-parameters-while-defined`: JavaScriptCore, stepping out of a static block, stops in the
//! next member's parameter list while the class is being defined, where no code of the member runs.
//!
//! On the real engines:
//! - `tests/debuggers/stepping.rs#jsc_steps_out_of_a_static_block_into_the_next_members_parameters`

use super::{Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{Action, DivergenceKind, Language, Output};
use morphtrace_syntax::js::classes::ClassParams;

pub(super) struct ClassDefinition;

impl Quirk for ClassDefinition {
    /// Where one side's step stopped in a class member's parameter list while that class is
    /// being defined (its caller's frame stands on the class's first line): no code of the member
    /// runs then (`IN_PARAMETERS_WHILE_DEFINED`; JavaScriptCore after a static block).
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let [a, b] = d.answers.outputs;
        let kind = d.kind;
        let action = d.answers.action;
        if *kind != DivergenceKind::PauseLocation
            || !matches!(
                action,
                Action::StepInto | Action::StepOver | Action::StepOut
            )
            || r.program.language != Language::JavaScript
        {
            return None;
        }
        let (Output::Paused(x), Output::Paused(y)) = (a, b) else {
            return None;
        };
        let classes = r.facts.get::<ClassParams>()?;
        let defining = |p: &morphtrace_schema::PauseState| {
            p.stack.get(1).is_some_and(|caller| {
                classes.class_of_params_at(p.location) == Some(caller.location.line)
            })
        };
        let side = Side::alone(defining(x), defining(y))?;
        Some(Remark::InParametersWhileDefined { side })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use morphtrace_schema::Location;

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
}
