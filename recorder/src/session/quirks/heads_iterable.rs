//! `in-a-heads-iterable`: while a `for-in`/`for-of` head's iterable runs, its `let` or `const`
//! is in its dead zone in a scope of the head's own, which one engine lists and another does not.
//!
//! On the real engines:
//! - `tests/debuggers/values.rs#v8_13_lists_no_scope_for_a_loop_heads_names_while_its_iterable_runs`

use super::{one_sided, same_frames, Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::Remark;
use morphtrace_schema::{DivergenceKind, Language, Output};
use morphtrace_syntax::js::loops::LoopHeads;

pub(super) struct HeadsIterable;

impl Quirk for HeadsIterable {
    /// Where both sides stand, in the same frames, in the iterable of a `for-in`/`for-of` head
    /// that declares the `let` or `const` one side lacks (`IN_A_HEADS_ITERABLE`): the binding
    /// is in its dead zone there, in a scope of the head's own.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let [a, b] = d.answers.outputs;
        let kind = d.kind;
        let detail = d.detail;
        let (DivergenceKind::Variables, Output::Paused(x), Output::Paused(y)) = (kind, a, b) else {
            return None;
        };
        let (name, _) = one_sided(detail)?;
        let same_frames = same_frames(x, y);
        if !same_frames || r.program.language != Language::JavaScript {
            return None;
        }
        let heads = r.facts.get::<LoopHeads>();
        match heads {
            Some(h)
                if h.declares_around(name, x.location) && h.declares_around(name, y.location) =>
            {
                Some(Remark::InAHeadsIterable)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

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
}
