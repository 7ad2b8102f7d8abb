//! `both-at-a-closing-brace`: at a function's closing brace, where the body's lexical scope has
//! ended, one engine still lists its `let`, `const` and `class` bindings.
//!
//! On the real engines:
//! - `tests/debuggers/stepping.rs#a_step_over_a_return_pauses_where_the_function_returns_on_each_engine`

use super::{same_frames, Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::Remark;
use morphtrace_schema::{DivergenceKind, Output};

pub(super) struct ClosingBrace;

impl Quirk for ClosingBrace {
    /// Both sides at one function's closing brace, in the same frames, where one lacks a lexical
    /// binding (only that: other rules read the other variables divergences as they are).
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let [a, b] = d.answers.outputs;
        let kind = d.kind;
        let detail = d.detail;
        let (DivergenceKind::Variables, Output::Paused(x), Output::Paused(y)) = (kind, a, b) else {
            return None;
        };
        if !same_frames(x, y) || !r.lexical_on_one_side(detail) {
            return None;
        }
        r.exits()
            .filter(|e| e.same_closing_brace(x.location, y.location))
            .map(|_| Remark::BothAtAClosingBrace)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

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
}
