//! `return-and-brace`: where one function returns, each engine shows the place its own way — at
//! the end of the `return` or at the function's closing brace.
//!
//! On the real engines:
//! - `tests/debuggers/stepping.rs#a_step_over_a_return_pauses_where_the_function_returns_on_each_engine`
//! - `tests/debuggers/stepping.rs#a_step_from_a_closing_brace_leaves_the_function_except_on_firefox`
//! - `tests/debuggers/breakpoints.rs#chromium_vs_firefox_closing_brace_is_a_pause_location_divergence`

use super::{same_functions, Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{Action, DivergenceKind, Output};
use morphtrace_syntax::nodes::LineNodes;

pub(super) struct ReturnAndBrace;

impl Quirk for ReturnAndBrace {
    /// After a step, in the same frames (anonymous functions named apart where both stand in
    /// one body, see `same_functions`):
    /// one side at the end of a `return`, the other at that function's closing brace (a
    /// JavaScript program's syntax).
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let [a, b] = d.answers.outputs;
        let kind = d.kind;
        let action = d.answers.action;
        let (DivergenceKind::PauseLocation, Output::Paused(x), Output::Paused(y)) = (kind, a, b)
        else {
            return None;
        };
        if !matches!(
            action,
            Action::StepInto | Action::StepOver | Action::StepOut
        ) {
            return None;
        }
        let e = r.exits()?;
        let nodes = r.facts.get::<LineNodes>()?;
        if !same_functions(&e, &nodes, x, y) {
            return None;
        }
        let side = if e.returns_there(x.location, y.location) {
            Side::First
        } else if e.returns_there(y.location, x.location) {
            Side::Second
        } else {
            return None;
        };
        Some(Remark::ReturnAndBrace { side })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    #[test]
    fn a_step_to_a_returns_end_against_one_to_the_brace() {
        let p = program(EXITS, Language::JavaScript);
        let at_return = paused((1, 14), PauseReason::Step, &["f", ""], &[]);
        let at_brace = paused((2, 0), PauseReason::Step, &["f", ""], &[]);
        let detail = ["paused at 2:15 vs 3:1"; 2];
        let got = both_ways(
            &p,
            DivergenceKind::PauseLocation,
            detail,
            Action::StepOver,
            &at_return,
            &at_brace,
        );
        assert_eq!(got, oriented(|side| Remark::ReturnAndBrace { side }));
        // Planted: a step that did not move off the `return`'s start; one at the brace in other
        // frames; the
        // same answers after a resume; the same text read as Python.
        let at_start = paused((1, 2), PauseReason::Step, &["f", ""], &[]);
        let returned = paused((2, 0), PauseReason::Step, &[""], &[]);
        let none = [String::new(), String::new()];
        let kind = DivergenceKind::PauseLocation;
        assert_eq!(
            both_ways(
                &p,
                kind.clone(),
                detail,
                Action::StepOver,
                &at_start,
                &at_brace
            ),
            none
        );
        assert_eq!(
            both_ways(
                &p,
                kind.clone(),
                detail,
                Action::StepOver,
                &at_return,
                &returned
            ),
            none
        );
        assert_eq!(
            both_ways(
                &p,
                kind.clone(),
                detail,
                Action::Resume,
                &at_return,
                &at_brace
            ),
            none
        );
        let py = program(EXITS, Language::Python);
        assert_eq!(
            both_ways(&py, kind, detail, Action::StepOver, &at_return, &at_brace),
            none
        );
    }

    #[test]
    fn frames_named_apart_are_one_function_where_both_stand_in_its_body() {
        // SpiderMonkey names an anonymous function by inference, V8 not at all.
        let p = program(
            "var o = {};\no.m = function (a) {\n  return a + 1;\n};\no.m(1);\n",
            Language::JavaScript,
        );
        let detail = ["paused at 3:15 vs 4:1"; 2];
        let at_return = paused((2, 14), PauseReason::Step, &["", ""], &[]);
        let at_brace = paused((3, 0), PauseReason::Step, &["o.m", ""], &[]);
        let got = both_ways(
            &p,
            DivergenceKind::PauseLocation,
            detail,
            Action::StepOver,
            &at_return,
            &at_brace,
        );
        assert_eq!(got, oriented(|side| Remark::ReturnAndBrace { side }));
        // SunSpider's seeded `Math.random`: a function returned from one called at once inside
        // the assignment, named `Math.random` by SpiderMonkey.
        let seeded = program(
            "Math.random = (function () {\n  return function () {\n    return 1;\n  };\n}());\nMath.random();\n",
            Language::JavaScript,
        );
        let seeded_return = paused((2, 13), PauseReason::Step, &["", ""], &[]);
        let seeded_brace = paused((3, 2), PauseReason::Step, &["Math.random", ""], &[]);
        assert_eq!(
            both_ways(
                &seeded,
                DivergenceKind::PauseLocation,
                ["paused at 3:14 vs 4:3"; 2],
                Action::StepOver,
                &seeded_return,
                &seeded_brace,
            ),
            oriented(|side| Remark::ReturnAndBrace { side })
        );
        // Callers named apart, neither frame's place in a function of the program: not known
        // to be one function.
        let called_apart = paused((3, 0), PauseReason::Step, &["o.m", "g"], &[]);
        let none = [String::new(), String::new()];
        assert_eq!(
            both_ways(
                &p,
                DivergenceKind::PauseLocation,
                detail,
                Action::StepOver,
                &at_return,
                &called_apart,
            ),
            none
        );
        // Planted: a function the program names (`function f`), shown by one side under another
        // name in the same body: a wrong name, not the same frames.
        let p = program(
            "function f(a) {\n  return a + 1;\n}\nf(1);\n",
            Language::JavaScript,
        );
        let at_return = paused((1, 14), PauseReason::Step, &["f", ""], &[]);
        let misnamed = paused((2, 0), PauseReason::Step, &["g", ""], &[]);
        let detail = ["paused at 2:15 vs 3:1"; 2];
        assert_eq!(
            both_ways(
                &p,
                DivergenceKind::PauseLocation,
                detail,
                Action::StepOver,
                &at_return,
                &misnamed,
            ),
            none
        );
        let named = paused((2, 0), PauseReason::Step, &["f", ""], &[]);
        assert_eq!(
            both_ways(
                &p,
                DivergenceKind::PauseLocation,
                detail,
                Action::StepOver,
                &at_return,
                &named,
            ),
            oriented(|side| Remark::ReturnAndBrace { side })
        );
    }
}
