//! `passed-where-it-stood`: Firefox's devtools server passes a breakpoint at the place a step left
//! it when resumed from there (that pause was not the breakpoint's own).
//!
//! On the real engines:
//! - `tests/debuggers/breakpoints.rs#firefoxs_lost_breakpoint_hits_are_judged_only_in_their_shape`

use super::{Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{Action, DivergenceKind, Output};

pub(super) struct PassedWhereItStood;

impl Quirk for PassedWhereItStood {
    /// Where, after a resume from a place both sides stood at (`before`, by line), one side went on
    /// past it from a pause a step had brought it to (`came_by`: each side's control action before
    /// this one) and the other stopped there again at a breakpoint (`PassedWhereItStood`): the shape
    /// of Firefox's devtools server passing a breakpoint at the prior pause's place when that pause
    /// was not a breakpoint's own (a step's that landed there).
    fn recognize(&self, _: &Recognizer, d: &Divergence) -> Option<Remark> {
        let a = d.answers;
        let kind = d.kind;
        let action = a.action;
        let before = a.before;
        let came_by = a.came_by;
        let outputs = a.outputs;
        use morphtrace_schema::PauseReason;
        if !matches!(
            kind,
            DivergenceKind::PauseLocation | DivergenceKind::Termination
        ) || *action != Action::Resume
        {
            return None;
        }
        let [Some(x), Some(y)] = before else {
            return None;
        };
        // Places by line, as pause locations compare by default (engines put a statement's pause
        // at different columns).
        if x.location.line != y.location.line {
            return None;
        }
        let stopped_there = |o: &Output| {
            matches!(o, Output::Paused(p)
                if p.location.line == x.location.line
                    && matches!(p.reason, PauseReason::Breakpoint { .. }))
        };
        let (side, came, went) = match (stopped_there(outputs[0]), stopped_there(outputs[1])) {
            (false, true) => (Side::First, came_by[0], outputs[0]),
            (true, false) => (Side::Second, came_by[1], outputs[1]),
            _ => return None,
        };
        // An engine that died did not go on past anything: its crash is its own divergence
        // (and a known crash's rule must still see it without this remark).
        if matches!(
            went,
            Output::Finished {
                outcome: morphtrace_schema::ProgramOutcome::EngineCrashed { .. }
            }
        ) {
            return None;
        }
        if !matches!(
            came,
            Some(Action::StepInto | Action::StepOver | Action::StepOut)
        ) {
            return None;
        }
        Some(Remark::PassedWhereItStood { side })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    #[test]
    fn a_resume_that_passes_where_a_step_left_it() {
        let p = program(EXITS, Language::JavaScript);
        let before = pause((1, 2), PauseReason::Step, &["f", ""], &[]);
        let on = paused((3, 0), breakpoint(), &[""], &[]);
        let again = paused((1, 2), breakpoint(), &["f", ""], &[]);
        let step = Action::StepOver;
        let passed = |pair: [&Output; 2], came: [Option<&Action>; 2]| {
            remarks(
                &p,
                DivergenceKind::PauseLocation,
                "paused at 4:1 vs 2:3",
                Action::Resume,
                pair,
                [Some(&before), Some(&before)],
                came,
            )
        };
        let by_steps = [Some(&step), Some(&step)];
        assert_eq!(
            passed([&on, &again], by_steps),
            Remark::PassedWhereItStood { side: Side::First }.to_string()
        );
        assert_eq!(
            passed([&again, &on], by_steps),
            Remark::PassedWhereItStood { side: Side::Second }.to_string()
        );
        // Planted: the pause before was a breakpoint's own (a resume brought it there), where
        // passing on is right.
        let resume = Action::Resume;
        assert_eq!(passed([&on, &again], [Some(&resume), Some(&resume)]), "");
        // An engine that crashed on the resume went on past nothing (gen:116: Bun's abort in a
        // catch parameter with a default, which this remark kept from its rule): no remark.
        // One that ran on until the action's time was up did go on.
        let crashed = Output::Finished {
            outcome: morphtrace_schema::ProgramOutcome::EngineCrashed {
                message: "bun died of SIGABRT".into(),
            },
        };
        assert_eq!(passed([&again, &crashed], by_steps), "");
        let ran_on = Output::Finished {
            outcome: morphtrace_schema::ProgramOutcome::Timeout,
        };
        assert_eq!(
            passed([&again, &ran_on], by_steps),
            Remark::PassedWhereItStood { side: Side::Second }.to_string()
        );
    }
}
