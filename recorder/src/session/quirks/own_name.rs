//! `own-name-uninitialized`: inside a class, its own name shown uninitialized by one engine and
//! optimized out or as the class by another (V8 leaves out the class's own scope where nothing in
//! the class refers to it).
//!
//! On the real engines:
//! - `tests/debuggers/values.rs#a_class_name_nothing_in_the_class_refers_to_on_each_engine`

use super::{Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{DivergenceKind, Language, ObjectKind, Output, Value};
use morphtrace_syntax::js::classes::NamedClasses;

pub(super) struct OwnName;

impl Quirk for OwnName {
    /// Where one side shows a class's own name uninitialized inside that class, and the other
    /// shows it optimized out or as a function (`OWN_NAME_UNINITIALIZED`): the class binds its
    /// name in a scope of its own, which V8 leaves out where nothing in the class refers to it,
    /// showing the outer binding (in its dead zone while the class is being defined).
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let [a, b] = d.answers.outputs;
        let kind = d.kind;
        let detail = d.detail;
        use morphtrace_judges::dbdb::visible_variables;
        if *kind != DivergenceKind::Variables || r.program.language != Language::JavaScript {
            return None;
        }
        let (Output::Paused(x), Output::Paused(y)) = (a, b) else {
            return None;
        };
        let name = morphtrace_judges::difference::variable_name(detail)
            .filter(|n| detail[n.len()..].starts_with(": "))?;
        if x.location.line != y.location.line {
            return None;
        }
        let inside = r
            .facts
            .get::<NamedClasses>()
            .is_some_and(|c| c.inside(name, x.location) && c.inside(name, y.location));
        if !inside {
            return None;
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
            return None;
        };
        Some(Remark::OwnNameUninitialized { side })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

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
}
