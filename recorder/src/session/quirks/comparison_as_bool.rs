//! `comparison-as-bool`: LLDB evaluates a C program's expressions as C++ (its expression parser
//! sets `CPlusPlus` for every C dialect, under a FIXME: "ask for C, get C++"), so that a
//! comparison or a logical operator gives a `bool` (`false`) where C gives an `int` (`0`), which
//! gdb shows; a logpoint on such an expression logs `true` where gdb logs `1`.
//!
//! On the real engines:
//! - `tests/debuggers/native.rs#lldb_evaluates_a_c_comparison_as_a_bool`

use super::{logged_line, Divergence, Quirk, Recognizer};
use morphtrace_judges::difference::Difference;
use morphtrace_judges::remark::{self, Remark, Side};
use morphtrace_schema::{Action, DivergenceKind, Language, Output, Value};

pub(super) struct ComparisonAsBool;

impl Quirk for ComparisonAsBool {
    /// Where a C program's evaluation of an expression whose outermost operator is a
    /// comparison, `&&`, `||` or `!` gives a bool on one side and on the other the number of
    /// the same truth, 0 or 1 (`ComparisonAsBool`, the side that shows the bool); so too the
    /// line a logpoint on such an expression logged (`true` against `1`). Another truth,
    /// another number, or any other expression (`i - i` is an `int` in C++ too) gets no remark.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        if r.program.language != Language::C {
            return None;
        }
        let (side, truth, number, expression) = match d.kind {
            DivergenceKind::Evaluation => evaluated(d)?,
            DivergenceKind::Log => logged(d)?,
            _ => return None,
        };
        let same = number == if truth { 1.0 } else { 0.0 };
        (same && morphtrace_syntax::c::is_comparison(expression)?)
            .then_some(Remark::ComparisonAsBool { side })
    }
}

/// An evaluation's bool against a number: the side of the bool, its truth, the number and the
/// expression.
fn evaluated<'d>(d: &Divergence<'d>) -> Option<(Side, bool, f64, &'d str)> {
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
    match (value(a)?, value(b)?) {
        (Value::Bool(t), Value::Number(n)) => Some((Side::First, t, n, expression)),
        (Value::Number(n), Value::Bool(t)) => Some((Side::Second, t, n, expression)),
        _ => None,
    }
}

/// One logpoint's line, `true` or `false` on one side and a number on the other, with the
/// logpoint's expression.
fn logged<'d>(d: &Divergence<'d>) -> Option<(Side, bool, f64, &'d str)> {
    let Some(Difference::Logged { logged, .. }) = Difference::parse(remark::split(d.detail).0)
    else {
        return None;
    };
    let [(a_id, a), (b_id, b)] = [logged_line(&logged[0])?, logged_line(&logged[1])?];
    if a_id != b_id {
        return None;
    }
    let expression = d.answers.quiet[0]
        .iter()
        .find(|q| q.id.0 == a_id)?
        .logs
        .as_deref()?;
    let truth = |t: &str| match t {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    match (truth(a), truth(b)) {
        (Some(t), None) => Some((Side::First, t, b.parse().ok()?, expression)),
        (None, Some(t)) => Some((Side::Second, t, a.parse().ok()?, expression)),
        _ => None,
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

    /// What the quirk remarks on a line logpoint #7 on `expression` logged as `a` and `b`.
    fn logged(expression: &str, a: &str, b: &str) -> Option<Remark> {
        let logpoint = vec![super::super::QuietBreakpoint {
            id: morphtrace_schema::BreakpointId(7),
            line: 2,
            logs: Some(expression.into()),
        }];
        let done = Output::Finished {
            outcome: morphtrace_schema::ProgramOutcome::Completed,
        };
        let answers = super::super::Answers {
            action: &Action::Resume,
            outputs: [&done, &done],
            before: [None; 2],
            came_by: [None; 2],
            interrupted: [None; 2],
            quiet: [logpoint.clone(), logpoint],
        };
        recognized_by(
            &super::ComparisonAsBool,
            C,
            DivergenceKind::Log,
            &format!("logpoints logged #7 {a} vs #7 {b} (line 1 of 1 vs 1)"),
            &answers,
        )
    }

    #[test]
    fn a_logpoint_on_a_c_comparison_logs_a_bool_of_the_same_truth() {
        assert_eq!(
            logged("n < 0", "0", "false"),
            Some(Remark::ComparisonAsBool { side: Side::Second })
        );
        assert_eq!(
            logged("n == 7 && n", "true", "1"),
            Some(Remark::ComparisonAsBool { side: Side::First })
        );
        // Planted: another truth, an empty line, an arithmetic expression, two numbers.
        assert_eq!(logged("n < 0", "1", "false"), None);
        assert_eq!(logged("n < 0", "", "false"), None);
        assert_eq!(logged("n - n", "0", "false"), None);
        assert_eq!(logged("n < 0", "0", "1"), None);
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
