//! `at-a-loop-head-and-its-body`: where a `for-in`/`for-of` iteration begins, V8 and
//! JavaScriptCore pause at the head's declaration (V8 at the binding, JavaScriptCore at the
//! `const`), SpiderMonkey at the body's first statement: it has no pause in the head once the
//! loop runs. A step from the body's end, or out of a generator at the `yield` that feeds the
//! loop, stands at the two places for one point of control.
//!
//! On the real engines:
//! - `tests/debuggers/stepping.rs#a_step_to_a_loops_next_iteration_pauses_at_its_head_except_on_firefox`

use super::{same_frames, Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{Action, DivergenceKind, Output};
use morphtrace_syntax::js::loops::LoopHeads;

pub(super) struct LoopHeadAndBody;

impl Quirk for LoopHeadAndBody {
    /// After a step, in the same frames (below the top, at the same places too): one side in a
    /// `for-in`/`for-of` loop's head, the other exactly at that loop's body's first statement.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let [a, b] = d.answers.outputs;
        let (DivergenceKind::PauseLocation, Output::Paused(x), Output::Paused(y)) = (d.kind, a, b)
        else {
            return None;
        };
        if !matches!(
            d.answers.action,
            Action::StepInto | Action::StepOver | Action::StepOut
        ) || !same_frames(x, y)
            || x.stack
                .iter()
                .zip(&y.stack)
                .skip(1)
                .any(|(f, g)| f.location.line != g.location.line)
        {
            return None;
        }
        let starts = r.facts.get::<LoopHeads>()?;
        if starts.head_and_body(x.location, y.location) {
            Some(Remark::AtALoopHeadAndItsBody { side: Side::First })
        } else if starts.head_and_body(y.location, x.location) {
            Some(Remark::AtALoopHeadAndItsBody { side: Side::Second })
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    const LOOPS: &str = "var acc = 0;\nfunction* gen(n) {\n  yield n;\n  yield n + 1;\n}\nfor (const y of gen(5)) {\n  acc = acc + y;\n  acc = acc * 2;\n}\n";

    #[test]
    fn a_step_to_the_head_against_one_to_the_bodys_first_statement() {
        let p = program(LOOPS, Language::JavaScript);
        let kind = DivergenceKind::PauseLocation;
        let detail = ["paused at 6:12 vs 7:3"; 2];
        let at_head = paused((5, 11), PauseReason::Step, &[""], &[]);
        let at_body = paused((6, 2), PauseReason::Step, &[""], &[]);
        let remarked = oriented(|side| Remark::AtALoopHeadAndItsBody { side });
        for step in [Action::StepOver, Action::StepOut, Action::StepInto] {
            let got = both_ways(&p, kind.clone(), detail, step.clone(), &at_head, &at_body);
            assert_eq!(got, remarked, "{step:?}");
        }
        // JavaScriptCore's place in the head, the `const`.
        let at_const = paused((5, 5), PauseReason::Step, &[""], &[]);
        let got = both_ways(
            &p,
            kind.clone(),
            detail,
            Action::StepOver,
            &at_const,
            &at_body,
        );
        assert_eq!(got, remarked);
        // Planted: the body's second statement (an iteration's statement skipped); the iterable;
        // one side still in the generator; a caller frame at another line; after a resume; the
        // same text read as Python.
        let none = [String::new(), String::new()];
        let second = paused((7, 2), PauseReason::Step, &[""], &[]);
        let iterable = paused((5, 16), PauseReason::Step, &[""], &[]);
        let in_gen = paused((2, 2), PauseReason::Step, &["gen", ""], &[]);
        for (x, y) in [
            (&at_head, &second),
            (&iterable, &at_body),
            (&in_gen, &at_body),
        ] {
            let got = both_ways(&p, kind.clone(), detail, Action::StepOver, x, y);
            assert_eq!(got, none, "{x:?} {y:?}");
        }
        let mut below = pause((5, 11), PauseReason::Step, &["f", ""], &[]);
        let mut other = pause((6, 2), PauseReason::Step, &["f", ""], &[]);
        below.stack[1].location.line = 20;
        other.stack[1].location.line = 21;
        let (below, other) = (Output::Paused(below), Output::Paused(other));
        let got = both_ways(&p, kind.clone(), detail, Action::StepOver, &below, &other);
        assert_eq!(got, none, "the frames below at other lines");
        let got = both_ways(&p, kind.clone(), detail, Action::Resume, &at_head, &at_body);
        assert_eq!(got, none, "a resume");
        let py = program(LOOPS, Language::Python);
        let got = both_ways(&py, kind, detail, Action::StepOver, &at_head, &at_body);
        assert_eq!(got, none, "Python");
    }
}
