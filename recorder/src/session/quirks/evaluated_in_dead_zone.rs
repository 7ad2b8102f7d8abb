//! `evaluated-in-its-dead-zone`: V8 shows a loop body's `let`/`const` with the previous
//! iteration's value where the binding is in its temporal dead zone again (the finding
//! `v8-shows-a-loop-bodys-const-from-the-previous-iteration-in-its-dead-zone`), and an
//! expression evaluated on that frame reads the old value too, where SpiderMonkey and
//! JavaScriptCore throw a `ReferenceError`. The remark ties such an evaluation to the binding:
//! the expression reads a name (`morphtrace_syntax::js::reads`) that the throwing side shows
//! uninitialized and the evaluating side with a value, both paused on the same line with no
//! declaration of the name between their columns. Another error, a name the expression does not
//! read or pauses apart get no remark.
//!
//! On the real engines:
//! - `tests/debuggers/values.rs#v8_shows_a_loop_bodys_const_from_the_previous_iteration_in_its_dead_zone`

use super::{evaluations, Divergence, Quirk, Recognizer};
use morphtrace_judges::dbdb::visible_variables;
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{ObjectKind, PauseState, Value};
use morphtrace_syntax::js::reads::names_read;
use morphtrace_syntax::js::tdz::Declarations;

pub(super) struct EvaluatedInDeadZone;

/// Whether `v` is a `ReferenceError` thrown.
fn reference_error(v: &Value) -> bool {
    matches!(v, Value::Object { kind: ObjectKind::Error, class, .. } if class == "ReferenceError")
}

/// A value the engine shows: not uninitialized, `undefined` (how Node 20 shows a binding in its
/// dead zone) or one it says it cannot show.
fn shown(v: &Value) -> bool {
    !matches!(
        v,
        Value::Uninitialized | Value::Undefined | Value::OptimizedOut | Value::Unavailable
    )
}

impl Quirk for EvaluatedInDeadZone {
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let (expression, [(x, tx), (y, ty)]) = evaluations(r, d)?;
        let side = match (tx, ty) {
            (false, true) if reference_error(y) => Side::First,
            (true, false) if reference_error(x) => Side::Second,
            _ => return None,
        };
        let [Some(pa), Some(pb)] = d.answers.before else {
            return None;
        };
        // The same line; columns apart only where no declaration of the name lies between
        // them (engines place a pause on a line at columns of their own).
        if pa.location.line != pb.location.line {
            return None;
        }
        let declarations = r.facts.get::<Declarations>()?;
        let (evaluated, threw): (&PauseState, &PauseState) = match side {
            Side::First => (pa, pb),
            Side::Second => (pb, pa),
        };
        let (on, off) = (
            visible_variables(evaluated.top_scopes()),
            visible_variables(threw.top_scopes()),
        );
        let name = names_read(expression)?.into_iter().find(|n| {
            on.get(n.as_str()).is_some_and(|v| shown(v))
                && off.get(n.as_str()) == Some(&&Value::Uninitialized)
                && !declarations.initialized_between(n, pa.location, pb.location)
        })?;
        Some(Remark::EvaluatedInItsDeadZone { side, name })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use morphtrace_schema::ObjectKind;

    const TEXT: &str = "for (let i = 0; i < 3; i++) {\n  g();\n  const v = i;\n}\n";

    fn error(class: &str) -> Value {
        Value::Object {
            kind: ObjectKind::Error,
            class: class.into(),
            description: None,
            entries: None,
            truncated: false,
        }
    }

    fn evaluated(value: Value, threw: bool) -> Output {
        Output::Evaluated { value, threw }
    }

    #[test]
    fn an_evaluation_of_a_binding_one_side_shows_in_its_dead_zone() {
        let old = pause((2, 3), breakpoint(), &[""], &[("v", Value::Number(1.0))]);
        let dead = pause((2, 3), breakpoint(), &[""], &[("v", Value::Uninitialized)]);
        let value = evaluated(Value::Number(2.0), false);
        let threw = evaluated(error("ReferenceError"), true);
        assert_eq!(
            evaluation_remarks(TEXT, "v + 1", [&value, &threw], [&old, &dead]).as_deref(),
            Some(
                Remark::EvaluatedInItsDeadZone {
                    side: Side::First,
                    name: "v".into()
                }
                .to_string()
                .as_str()
            )
        );
        // Columns apart on the line, no declaration between them (`g();`).
        let further = pause((1, 5), breakpoint(), &[""], &[("v", Value::Uninitialized)]);
        let at_g = pause((1, 2), breakpoint(), &[""], &[("v", Value::Number(1.0))]);
        assert!(evaluation_remarks(TEXT, "v", [&value, &threw], [&at_g, &further]).is_some());
        assert_eq!(
            evaluation_remarks(TEXT, "v + 1", [&threw, &value], [&dead, &old]).as_deref(),
            Some(
                Remark::EvaluatedInItsDeadZone {
                    side: Side::Second,
                    name: "v".into()
                }
                .to_string()
                .as_str()
            )
        );
    }

    #[test]
    fn near_misses_get_no_remark() {
        let old = pause((2, 3), breakpoint(), &[""], &[("v", Value::Number(1.0))]);
        let dead = pause((2, 3), breakpoint(), &[""], &[("v", Value::Uninitialized)]);
        let value = evaluated(Value::Number(2.0), false);
        let threw = evaluated(error("ReferenceError"), true);
        // Another error: not a read in a dead zone.
        let type_error = evaluated(error("TypeError"), true);
        assert_eq!(
            evaluation_remarks(TEXT, "v + 1", [&value, &type_error], [&old, &dead]),
            None
        );
        // The expression does not read the binding (`v` only as a property name).
        assert_eq!(
            evaluation_remarks(TEXT, "o.v", [&value, &threw], [&old, &dead]),
            None
        );
        // Both sides show it uninitialized, or both with a value: the evaluating side
        // (a lie in an evaluation) is not the dead-zone bug.
        assert_eq!(
            evaluation_remarks(TEXT, "v", [&value, &threw], [&dead, &dead]),
            None
        );
        assert_eq!(
            evaluation_remarks(TEXT, "v", [&value, &threw], [&old, &old]),
            None
        );
        // The throwing side shows the value and the evaluating side the dead zone.
        assert_eq!(
            evaluation_remarks(TEXT, "v", [&value, &threw], [&dead, &old]),
            None
        );
        // Paused apart: the binding may be in its dead zone at one place and not the other.
        let elsewhere = pause((3, 3), breakpoint(), &[""], &[("v", Value::Uninitialized)]);
        assert_eq!(
            evaluation_remarks(TEXT, "v", [&value, &threw], [&old, &elsewhere]),
            None
        );
        // On one line, on either side of the declaration's end (`const v = i;` ends at 2:14).
        let after = pause((2, 14), breakpoint(), &[""], &[("v", Value::Number(1.0))]);
        let before = pause((2, 2), breakpoint(), &[""], &[("v", Value::Uninitialized)]);
        assert_eq!(
            evaluation_remarks(TEXT, "v", [&value, &threw], [&after, &before]),
            None
        );
        // Both threw.
        assert_eq!(
            evaluation_remarks(TEXT, "v", [&threw, &threw], [&old, &dead]),
            None
        );
    }
}
