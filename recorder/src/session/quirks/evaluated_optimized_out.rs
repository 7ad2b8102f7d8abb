//! `evaluated-an-optimized-out-name`: SpiderMonkey keeps no binding that nothing in its scope
//! refers to (a class's own name in a method of a class that never names itself), Firefox shows
//! it `<optimized out>` (the Debugger API's `optimizedOut`), and an expression evaluated on that
//! frame that reads the name throws SpiderMonkey's `variable 'NAME' has been optimized out`
//! (`JSMSG_DEBUG_OPTIMIZED_OUT`), where V8 and JavaScriptCore give the value of the binding
//! they show. The remark ties the throw to the binding: the throwing side's error says that
//! name, the expression reads it (`morphtrace_syntax::js::reads`), the same side's pause shows
//! it optimized out, and the other side did not throw. Another error, a name shown with a value
//! or not read gets no remark.
//!
//! On the real engines:
//! - `tests/debuggers/values.rs#a_class_name_nothing_in_the_class_refers_to_on_each_engine`

use super::{evaluations, Divergence, Quirk, Recognizer};
use morphtrace_judges::dbdb::visible_variables;
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{ObjectKind, Value};
use morphtrace_syntax::js::reads::names_read;

pub(super) struct EvaluatedOptimizedOut;

/// The name in SpiderMonkey's error for a binding it did not keep, if `v` is that error.
fn optimized_out_name(v: &Value) -> Option<&str> {
    let Value::Object {
        kind: ObjectKind::Error,
        class,
        description: Some(d),
        ..
    } = v
    else {
        return None;
    };
    if class != "Error" {
        return None;
    }
    d.strip_prefix("Error: variable '")?
        .strip_suffix("' has been optimized out")
}

impl Quirk for EvaluatedOptimizedOut {
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let (expression, [(x, tx), (y, ty)]) = evaluations(r, d)?;
        let (side, error, before) = match (tx, ty) {
            (true, false) => (Side::First, x, d.answers.before[0]?),
            (false, true) => (Side::Second, y, d.answers.before[1]?),
            _ => return None,
        };
        let name = optimized_out_name(error)?;
        let shown = visible_variables(before.top_scopes());
        let read = names_read(expression)?;
        (read.iter().any(|n| n == name) && shown.get(name) == Some(&&Value::OptimizedOut)).then(
            || Remark::EvaluatedAnOptimizedOutName {
                side,
                name: name.to_string(),
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use morphtrace_schema::ObjectKind;

    const TEXT: &str = "class B {}\nclass C2 extends B {\n  constructor() {\n    super();\n    this.b = 1;\n  }\n}\nnew C2();\n";

    fn error(class: &str, description: &str) -> Output {
        Output::Evaluated {
            value: Value::Object {
                kind: ObjectKind::Error,
                class: class.into(),
                description: Some(description.into()),
                entries: None,
                truncated: false,
            },
            threw: true,
        }
    }

    fn class() -> Value {
        Value::Object {
            kind: ObjectKind::Function,
            class: "Function".into(),
            description: None,
            entries: None,
            truncated: false,
        }
    }

    /// A pause in `C2`'s constructor showing `C2` as the class (V8, JavaScriptCore), one
    /// showing it optimized out (SpiderMonkey), and SpiderMonkey's error evaluating it.
    fn pauses_and_error() -> (PauseState, PauseState, Output) {
        (
            pause((4, 4), breakpoint(), &["C2", ""], &[("C2", class())]),
            pause(
                (4, 4),
                breakpoint(),
                &["C2", ""],
                &[("C2", Value::OptimizedOut)],
            ),
            error("Error", "Error: variable 'C2' has been optimized out"),
        )
    }

    #[test]
    fn an_evaluation_that_reads_a_name_the_side_shows_optimized_out() {
        let (kept, out, threw) = pauses_and_error();
        let value = Output::Evaluated {
            value: Value::String("function".into()),
            threw: false,
        };
        let remark = |side| {
            Some(
                Remark::EvaluatedAnOptimizedOutName {
                    side,
                    name: "C2".into(),
                }
                .to_string(),
            )
        };
        assert_eq!(
            evaluation_remarks(TEXT, "typeof C2", [&value, &threw], [&kept, &out]),
            remark(Side::Second)
        );
        assert_eq!(
            evaluation_remarks(TEXT, "C2.name + 1", [&threw, &value], [&out, &kept]),
            remark(Side::First)
        );
    }

    #[test]
    fn near_misses_get_no_remark() {
        let (kept, out, threw) = pauses_and_error();
        let value = Output::Evaluated {
            value: class(),
            threw: false,
        };
        // The throwing side shows the name with a value: an evaluation that lies, not a binding
        // it did not keep.
        assert_eq!(
            evaluation_remarks(TEXT, "C2", [&value, &threw], [&kept, &kept]),
            None
        );
        // The expression does not read the name (a property of that name).
        assert_eq!(
            evaluation_remarks(TEXT, "this.C2", [&value, &threw], [&out, &out]),
            None
        );
        // Another name in the error than the one read; another error; another error class.
        let other = error("Error", "Error: variable 'B' has been optimized out");
        assert_eq!(
            evaluation_remarks(TEXT, "C2", [&value, &other], [&kept, &out]),
            None
        );
        let reference = error("ReferenceError", "ReferenceError: C2 is not defined");
        assert_eq!(
            evaluation_remarks(TEXT, "C2", [&value, &reference], [&kept, &out]),
            None
        );
        let plain = error("Error", "Error: C2");
        assert_eq!(
            evaluation_remarks(TEXT, "C2", [&value, &plain], [&kept, &out]),
            None
        );
        // Both threw.
        assert_eq!(
            evaluation_remarks(TEXT, "C2", [&threw, &threw], [&out, &out]),
            None
        );
    }
}
