//! `comparison-as-bool`: LLDB evaluates a C program's expressions as C++ (its expression parser
//! sets `CPlusPlus` for every C dialect, under a FIXME: "ask for C, get C++"), so that a
//! comparison or a logical operator gives a `bool` (`false`) where C gives an `int` (`0`), which
//! gdb shows.
//!
//! On the real engines:
//! - `tests/debuggers/native.rs#lldb_evaluates_a_c_comparison_as_a_bool`

use super::{Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{Action, DivergenceKind, Language, Output, Value};

pub(super) struct ComparisonAsBool;

impl Quirk for ComparisonAsBool {
    /// Where a C program's evaluation of an expression whose outermost operator is a
    /// comparison, `&&`, `||` or `!` gives a bool on one side and on the other the number of
    /// the same truth, 0 or 1 (`ComparisonAsBool`, the side that shows the bool). Another
    /// truth, another number, or any other expression (`i - i` is an `int` in C++ too) gets no
    /// remark.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        if *d.kind != DivergenceKind::Evaluation || r.program.language != Language::C {
            return None;
        }
        let Action::Evaluate { expression } = d.answers.action else {
            return None;
        };
        let value = |o: &Output| match o {
            Output::Evaluated {
                value,
                threw: false,
            } => Some(value.clone()),
            _ => None,
        };
        let [a, b] = d.answers.outputs;
        let (side, truth, number) = match (value(a)?, value(b)?) {
            (Value::Bool(t), Value::Number(n)) => (Side::First, t, n),
            (Value::Number(n), Value::Bool(t)) => (Side::Second, t, n),
            _ => return None,
        };
        let same = number == if truth { 1.0 } else { 0.0 };
        (same && morphtrace_syntax::c::is_comparison(expression)?)
            .then_some(Remark::ComparisonAsBool { side })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    const C: &str = "int main(void) {\n  int n = 6;\n  return n < 0;\n}\n";

    fn remark(language: Language, expression: &str, a: Value, b: Value) -> String {
        let p = program(C, language);
        let shown = |value| Output::Evaluated {
            value,
            threw: false,
        };
        remarks(
            &p,
            DivergenceKind::Evaluation,
            "evaluated 0 vs false",
            Action::Evaluate {
                expression: expression.into(),
            },
            [&shown(a), &shown(b)],
            [None; 2],
            [None; 2],
        )
    }

    #[test]
    fn a_c_comparison_shown_as_a_bool_of_the_same_truth() {
        let (n, t) = (Value::Number, Value::Bool);
        assert_eq!(
            remark(Language::C, "n < 0", n(0.0), t(false)),
            Remark::ComparisonAsBool { side: Side::Second }.to_string()
        );
        assert_eq!(
            remark(Language::C, "!(n == 6) || n", t(true), n(1.0)),
            Remark::ComparisonAsBool { side: Side::First }.to_string()
        );
        // Planted: another truth, a number that is no truth value, an arithmetic expression,
        // a thrown side, a program in another language.
        assert_eq!(remark(Language::C, "n < 0", n(1.0), t(false)), "");
        assert_eq!(remark(Language::C, "n < 0", n(2.0), t(true)), "");
        assert_eq!(remark(Language::C, "i - i", n(0.0), t(false)), "");
        assert_eq!(remark(Language::C, "(n < 0) + 1", n(1.0), t(true)), "");
        assert_eq!(remark(Language::Python, "n < 0", n(0.0), t(false)), "");
        let p = program(C, Language::C);
        let threw = Output::Evaluated {
            value: Value::Bool(false),
            threw: true,
        };
        let zero = Output::Evaluated {
            value: Value::Number(0.0),
            threw: false,
        };
        assert_eq!(
            remarks(
                &p,
                DivergenceKind::Evaluation,
                "evaluated 0 vs false",
                Action::Evaluate {
                    expression: "n < 0".into()
                },
                [&zero, &threw],
                [None; 2],
                [None; 2],
            ),
            ""
        );
    }
}
