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
        // A step over from `first` to `second` (0-based line and column, each side's frames
        // named as given) in `text`: the remarks both ways.
        let step = |text: &str, first: ((u32, u32), [&str; 2]), second: ((u32, u32), [&str; 2])| {
            let p = program(text, Language::JavaScript);
            let (x, y) = (
                paused(first.0, PauseReason::Step, &first.1, &[]),
                paused(second.0, PauseReason::Step, &second.1, &[]),
            );
            let shown = |(l, c): (u32, u32)| format!("{}:{}", l + 1, c + 1);
            let detail = format!("paused at {} vs {}", shown(first.0), shown(second.0));
            let detail = [detail.as_str(); 2];
            both_ways(
                &p,
                DivergenceKind::PauseLocation,
                detail,
                Action::StepOver,
                &x,
                &y,
            )
        };
        let remarked = oriented(|side| Remark::ReturnAndBrace { side });
        let none = [String::new(), String::new()];
        // SpiderMonkey names an anonymous function by inference, V8 not at all.
        let assigned = "var o = {};\no.m = function (a) {\n  return a + 1;\n};\no.m(1);\n";
        let at_return = ((2, 14), ["", ""]);
        assert_eq!(step(assigned, at_return, ((3, 0), ["o.m", ""])), remarked);
        // SunSpider's seeded `Math.random`: a function returned from one called at once inside
        // the assignment, named `Math.random` by SpiderMonkey.
        let seeded = "Math.random = (function () {\n  return function () {\n    return 1;\n  };\n}());\nMath.random();\n";
        assert_eq!(
            step(seeded, ((2, 13), ["", ""]), ((3, 2), ["Math.random", ""])),
            remarked
        );
        // Callers named apart, neither frame's place in a function of the program: not known
        // to be one function.
        assert_eq!(step(assigned, at_return, ((3, 0), ["o.m", "g"])), none);
        // Planted: a function the program names (`function f`), shown by one side under another
        // name in the same body: a wrong name, not the same frames.
        let declared = "function f(a) {\n  return a + 1;\n}\nf(1);\n";
        let at_return = ((1, 14), ["f", ""]);
        assert_eq!(step(declared, at_return, ((2, 0), ["g", ""])), none);
        assert_eq!(step(declared, at_return, ((2, 0), ["f", ""])), remarked);
    }
}
