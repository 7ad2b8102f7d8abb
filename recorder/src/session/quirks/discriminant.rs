//! `in-a-discriminant`: while a `switch`'s discriminant runs, its case block's scope does not
//! exist yet; V8 lists it already, each name uninitialized.
//!
//! On the real engines:
//! - `tests/debuggers/values.rs#v8_lists_a_case_blocks_names_while_the_switchs_discriminant_runs`

use super::{one_sided, same_frames, Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::Remark;
use morphtrace_schema::{DivergenceKind, Language, Output};
use morphtrace_syntax::js::switches::Discriminants;

pub(super) struct Discriminant;

impl Quirk for Discriminant {
    /// Where both sides stand, in the same frames, in the discriminant of a `switch` whose case
    /// block declares the name one side lacks, and the other side shows it uninitialized
    /// (`IN_A_DISCRIMINANT`): that block's scope does not exist yet.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let [a, b] = d.answers.outputs;
        let kind = d.kind;
        let detail = d.detail;
        let (DivergenceKind::Variables, Output::Paused(x), Output::Paused(y)) = (kind, a, b) else {
            return None;
        };
        let (name, first) = one_sided(detail)?;
        let shown = if first { x } else { y };
        let uninitialized = morphtrace_judges::dbdb::visible_variables(shown.top_scopes())
            .get(name)
            .is_some_and(|v| **v == morphtrace_schema::Value::Uninitialized);
        if !uninitialized || !same_frames(x, y) || r.program.language != Language::JavaScript {
            return None;
        }
        let switches = r.facts.get::<Discriminants>();
        match switches {
            Some(s) if s.declares_after(name, x.location) && s.declares_after(name, y.location) => {
                Some(Remark::InADiscriminant)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

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
}
