//! `at-a-heritage`: a step that stops where a `class … extends …` declaration begins, where
//! another engine's step went past the declaration.
//!
//! On the real engines:
//! - `tests/debuggers/stepping.rs#firefox_stops_a_step_where_a_class_with_a_heritage_begins`

use super::{same_frames, Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{Action, DivergenceKind, Language, Output};
use morphtrace_syntax::js::classes::Heritages;

pub(super) struct Heritage;

impl Quirk for Heritage {
    /// Where one side's step stopped where a `class … extends …` declaration begins and the
    /// other's, in the same frames, went past the declaration (`AT_A_HERITAGE`); a step out
    /// too, which returns into the frame that goes on to the declaration (out of a static block
    /// that runs while an earlier class is defined).
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let [a, b] = d.answers.outputs;
        let kind = d.kind;
        let action = d.answers.action;
        if *kind != DivergenceKind::PauseLocation
            || !matches!(
                action,
                Action::StepInto | Action::StepOver | Action::StepOut
            )
            || r.program.language != Language::JavaScript
        {
            return None;
        }
        let (Output::Paused(x), Output::Paused(y)) = (a, b) else {
            return None;
        };
        let same_frames = same_frames(x, y);
        let heritages = r.facts.get::<Heritages>().filter(|_| same_frames)?;
        let past = |at: &morphtrace_schema::PauseState, other: &morphtrace_schema::PauseState| {
            heritages
                .declaration_at(at.location)
                .is_some_and(|end| other.location >= end)
        };
        let side = if past(x, y) {
            Side::First
        } else if past(y, x) {
            Side::Second
        } else {
            return None;
        };
        Some(Remark::AtAHeritage { side })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    const HERITAGE: &str = "class A {}\nclass B extends A {\n  m() {}\n}\nconst b = new B();\n";

    #[test]
    fn a_step_that_stops_at_a_heritage_against_one_past_it() {
        let p = program(HERITAGE, Language::JavaScript);
        let detail = ["paused at 2:1 vs 5:1", "paused at 5:1 vs 2:1"];
        let after = |action: Action, x: &Output, y: &Output| {
            both_ways(&p, DivergenceKind::PauseLocation, detail, action, x, y)
        };
        let at = paused((1, 0), PauseReason::Step, &[""], &[]);
        let past = paused((4, 0), PauseReason::Step, &[""], &[]);
        let remarked = oriented(|side| Remark::AtAHeritage { side });
        // A step over, and a step out that returned into the same frame and went on.
        assert_eq!(after(Action::StepOver, &at, &past), remarked);
        assert_eq!(after(Action::StepOut, &at, &past), remarked);
        // Planted: after a resume (a breakpoint's place, not a step's); the other side in
        // another frame; the other side short of the declaration's end; a class without
        // heritage.
        let none = [String::new(), String::new()];
        assert_eq!(after(Action::Resume, &at, &past), none);
        let inside = paused((2, 2), PauseReason::Step, &["m", ""], &[]);
        assert_eq!(after(Action::StepOut, &at, &inside), none);
        let short = paused((0, 0), PauseReason::Step, &[""], &[]);
        assert_eq!(after(Action::StepOver, &at, &short), none);
        let plain = paused((0, 0), PauseReason::Step, &[""], &[]);
        assert_eq!(after(Action::StepOver, &plain, &past), none);
    }
}
