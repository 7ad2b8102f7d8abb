//! `no-pause-at-the-end-after-an-untaken-return`: where a function's last statement is an `if`
//! that holds a `return` and the `return` is not taken, the function ends at its closing brace,
//! where V8 and SpiderMonkey pause (a step over or into from that `if`, a breakpoint on the
//! brace); JavaScriptCore (Bun 1.4.5) does not: its step over runs past the caller's next
//! statements into the function's next call, its step into stops in the caller, and its
//! breakpoint on the brace never pauses. The remark names the side that did not pause there,
//! where the other stands at such a brace, by a step that began in that `if` on both sides or by
//! a breakpoint. A function without such an `if`, a step that began elsewhere, or a side that
//! stands at another brace gets no remark.
//!
//! On the real engines:
//! - `tests/debuggers/stepping.rs#jsc_has_no_pause_at_a_functions_end_after_an_untaken_return`

use super::{Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{
    Action, DivergenceKind, Language, Location, Output, PauseReason, PauseState,
};
use morphtrace_syntax::js::exits::Exits;

pub(super) struct UntakenReturnAtTheEnd;

impl Quirk for UntakenReturnAtTheEnd {
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        if !matches!(
            d.kind,
            DivergenceKind::PauseLocation | DivergenceKind::Termination
        ) || r.program.language != Language::JavaScript
        {
            return None;
        }
        let exits = r.exits()?;
        fn at_brace<'o>(
            exits: &Exits,
            o: &'o Output,
        ) -> Option<((Location, Location), &'o PauseState)> {
            match o {
                Output::Paused(p) => exits.ending_if_at_brace(p.location).map(|s| (s, p)),
                _ => None,
            }
        }
        let [a, b] = d.answers.outputs;
        let (stood, ((from, to), pause)) = match (at_brace(&exits, a), at_brace(&exits, b)) {
            (Some(x), None) => (Side::First, x),
            (None, Some(x)) => (Side::Second, x),
            _ => return None,
        };
        let came = match d.answers.action {
            // Both sides stepped from inside that `if` (it ran, and the side at the brace shows
            // that its `return` was not taken).
            Action::StepOver | Action::StepInto => d
                .answers
                .before
                .iter()
                .all(|p| p.is_some_and(|p| from <= p.location && p.location < to)),
            Action::Start | Action::Resume | Action::ContinueToLocation { .. } => {
                matches!(pause.reason, PauseReason::Breakpoint { .. })
            }
            _ => false,
        };
        came.then(|| Remark::NoPauseAtTheEndAfterAnUntakenReturn {
            side: stood.other(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use morphtrace_schema::ProgramOutcome;

    const RETURNS: &str =
        "function clamp(v) {\n  var y = v * 2;\n  if (y > 5) return 5;\n}\nclamp(1);\nvar after = 1;\nclamp(2);\n";
    const ASSIGNS: &str =
        "function clamp(v) {\n  var y = v * 2;\n  if (y > 5) y = 5;\n}\nclamp(1);\nvar after = 1;\nclamp(2);\n";

    fn remarked(
        text: &str,
        action: Action,
        [a, b]: [&Output; 2],
        before: [Option<&PauseState>; 2],
    ) -> String {
        remarks(
            &program(text, Language::JavaScript),
            DivergenceKind::PauseLocation,
            "paused at 4:1 vs 2:2",
            action,
            [a, b],
            before,
            [None, None],
        )
    }

    fn step() -> PauseReason {
        PauseReason::Step
    }

    #[test]
    fn a_step_from_the_if_that_one_side_ends_at_the_brace_and_the_other_does_not() {
        // 0-based: the `if` at 2:2..2:22, the brace at 3:0 (JavaScriptCore's 3:1).
        let on_if = pause((2, 2), breakpoint(), &["clamp", ""], &[]);
        let on_test = pause((2, 6), breakpoint(), &["clamp", ""], &[]);
        let brace = paused((3, 0), step(), &["clamp", ""], &[]);
        let next_call = paused((1, 1), step(), &["clamp", ""], &[]);
        let caller = paused((5, 0), step(), &[""], &[]);
        let expect = |side| Remark::NoPauseAtTheEndAfterAnUntakenReturn { side }.to_string();
        assert_eq!(
            remarked(
                RETURNS,
                Action::StepOver,
                [&brace, &next_call],
                [Some(&on_if), Some(&on_test)]
            ),
            expect(Side::Second)
        );
        assert_eq!(
            remarked(
                RETURNS,
                Action::StepInto,
                [&caller, &brace],
                [Some(&on_test), Some(&on_if)]
            ),
            expect(Side::First)
        );
        // A breakpoint on the brace that one side never paused at.
        let at_bp = paused((3, 0), breakpoint(), &["clamp", ""], &[]);
        let ended = Output::Finished {
            outcome: ProgramOutcome::Completed,
        };
        assert_eq!(
            remarked(RETURNS, Action::Start, [&at_bp, &ended], [None, None]),
            expect(Side::Second)
        );
    }

    #[test]
    fn near_misses_get_no_remark() {
        let on_if = pause((2, 2), breakpoint(), &["clamp", ""], &[]);
        let before_if = pause((1, 2), breakpoint(), &["clamp", ""], &[]);
        let brace = paused((3, 0), step(), &["clamp", ""], &[]);
        let next_call = paused((1, 1), step(), &["clamp", ""], &[]);
        // The function's `if` does not return.
        assert_eq!(
            remarked(
                ASSIGNS,
                Action::StepOver,
                [&brace, &next_call],
                [Some(&on_if), Some(&on_if)]
            ),
            ""
        );
        // The step began before the `if` on one side: the sides did not step from it.
        assert_eq!(
            remarked(
                RETURNS,
                Action::StepOver,
                [&brace, &next_call],
                [Some(&on_if), Some(&before_if)]
            ),
            ""
        );
        // Both at the brace.
        assert_eq!(
            remarked(
                RETURNS,
                Action::StepOver,
                [&brace, &brace],
                [Some(&on_if), Some(&on_if)]
            ),
            ""
        );
        // A step out, and a resume to the brace that was a step's pause, not a breakpoint's.
        assert_eq!(
            remarked(
                RETURNS,
                Action::StepOut,
                [&brace, &next_call],
                [Some(&on_if), Some(&on_if)]
            ),
            ""
        );
        assert_eq!(
            remarked(RETURNS, Action::Resume, [&brace, &next_call], [None, None]),
            ""
        );
    }
}
