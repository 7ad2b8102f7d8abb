//! `resumed-an-interrupted-step`: LLDB keeps a step that a breakpoint interrupted on its thread's
//! plan stack, and a later continue completes it (lldb/docs/use/tutorial.rst: "a simple
//! `continue` will resume the original step-over operation"): the program stops where the step
//! would have, with the step's reason. gdb abandons an interrupted step; its continue runs to
//! the next breakpoint.
//!
//! On the real engines:
//! - `tests/debuggers/native.rs#lldb_completes_an_interrupted_step_out_on_continue`

use super::{Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{Action, DivergenceKind, Output, PauseReason, PauseState};

pub(super) struct ResumedAnInterruptedStep;

impl Quirk for ResumedAnInterruptedStep {
    /// After a resume, where one side paused for a step (not a breakpoint) where its step over
    /// or out, interrupted by a breakpoint and followed only by pauses deeper than where it
    /// ends (`interrupted_step`), ends: in the functions
    /// that step began in (over), or in them less the innermost (out); and the other side did
    /// not pause for a step. A resume that pauses for a step anywhere else gets no remark.
    fn recognize(&self, _: &Recognizer, d: &Divergence) -> Option<Remark> {
        let a = d.answers;
        if !matches!(
            d.kind,
            DivergenceKind::PauseLocation | DivergenceKind::Termination
        ) || *a.action != Action::Resume
        {
            return None;
        }
        let stepped = |o: &Output| matches!(o, Output::Paused(p) if p.reason == PauseReason::Step);
        let side = Side::alone(stepped(a.outputs[0]), stepped(a.outputs[1]))?;
        let k = match side {
            Side::First => 0,
            Side::Second => 1,
        };
        let Output::Paused(at) = a.outputs[k] else {
            return None;
        };
        let (step, began) = a.interrupted[k]?;
        ends_there(step, began, at).then_some(Remark::ResumedAnInterruptedStep { side })
    }
}

/// Whether `at` is in the functions where `step`, begun at `began`, ends.
fn ends_there(step: &Action, began: &PauseState, at: &PauseState) -> bool {
    let names =
        |p: &PauseState| -> Vec<String> { p.stack.iter().map(|f| f.function.clone()).collect() };
    let from = names(began);
    let expected: &[String] = match step {
        Action::StepOver => &from,
        Action::StepOut if !from.is_empty() => &from[1..],
        _ => return false,
    };
    !expected.is_empty() && names(at) == expected
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::super::Answers;
    use super::ResumedAnInterruptedStep;

    const C: &str = "int g;\nvoid inner(void) {\n  g++;\n}\nvoid f(void) {\n  inner();\n  g++;\n}\nint main(void) {\n  f();\n  f();\n  return g;\n}\n";

    fn remark(
        outputs: [&Output; 2],
        interrupted: [Option<(&Action, &PauseState)>; 2],
    ) -> Option<Remark> {
        let answers = Answers {
            action: &Action::Resume,
            outputs,
            before: [None; 2],
            came_by: [None; 2],
            interrupted,
            quiet: [Vec::new(), Vec::new()],
        };
        recognized_by(
            &ResumedAnInterruptedStep,
            C,
            DivergenceKind::PauseLocation,
            "paused at 3:3 vs 11:3",
            &answers,
        )
    }

    #[test]
    fn a_resume_that_ends_an_interrupted_step_out_where_it_would_have() {
        let began = pause((5, 2), breakpoint(), &["f", "main"], &[]);
        let out = Action::StepOut;
        let completed = paused((9, 2), PauseReason::Step, &["main"], &[]);
        let next_breakpoint = paused((2, 2), breakpoint(), &["inner", "f", "main"], &[]);
        assert_eq!(
            remark([&next_breakpoint, &completed], [None, Some((&out, &began))]),
            Some(Remark::ResumedAnInterruptedStep { side: Side::Second })
        );
        assert_eq!(
            remark([&completed, &next_breakpoint], [Some((&out, &began)), None]),
            Some(Remark::ResumedAnInterruptedStep { side: Side::First })
        );
        // A step over interrupted: it ends in the frame it began in.
        let over = Action::StepOver;
        let over_done = paused((6, 2), PauseReason::Step, &["f", "main"], &[]);
        assert_eq!(
            remark(
                [&next_breakpoint, &over_done],
                [None, Some((&over, &began))]
            ),
            Some(Remark::ResumedAnInterruptedStep { side: Side::Second })
        );
    }

    #[test]
    fn planted_pauses_of_the_same_shape_get_no_remark() {
        let began = pause((5, 2), breakpoint(), &["f", "main"], &[]);
        let out = Action::StepOut;
        let next_breakpoint = paused((2, 2), breakpoint(), &["inner", "f", "main"], &[]);
        // A resume that pauses for a step with no step pending (a pause where none is due).
        let stray = paused((9, 2), PauseReason::Step, &["main"], &[]);
        assert_eq!(remark([&next_breakpoint, &stray], [None, None]), None);
        // Pending, but the pause is not where that step ends (a frame too far, another one).
        let too_far = paused((9, 2), PauseReason::Step, &[""], &[]);
        assert_eq!(
            remark([&next_breakpoint, &too_far], [None, Some((&out, &began))]),
            None
        );
        let inside = paused((6, 2), PauseReason::Step, &["f", "main"], &[]);
        assert_eq!(
            remark([&next_breakpoint, &inside], [None, Some((&out, &began))]),
            None
        );
        // Both paused for steps: not this.
        let done = paused((9, 2), PauseReason::Step, &["main"], &[]);
        assert_eq!(
            remark([&done, &done], [Some((&out, &began)), Some((&out, &began))]),
            None
        );
    }

    /// A trace of `steps`, each an action and the pause that answered it.
    fn trace(steps: &[(Action, Output)]) -> morphtrace_schema::Trace {
        use morphtrace_schema::{EngineRef, Event, EventKind};
        let mut events = Vec::new();
        for (a, o) in steps {
            events.push(Event {
                at_us: 0,
                kind: EventKind::Action(a.clone()),
            });
            events.push(Event {
                at_us: 0,
                kind: EventKind::Output(o.clone()),
            });
        }
        morphtrace_schema::Trace {
            engine: EngineRef(0),
            events,
            console: Vec::new(),
            logs: Vec::new(),
        }
    }

    #[test]
    fn a_step_stays_pending_under_later_steps_deeper_than_where_it_ends() {
        use super::super::interrupted_step;
        let in_main = paused((9, 2), breakpoint(), &["main"], &[]);
        let at_inner = paused((2, 2), breakpoint(), &["inner", "f", "main"], &[]);
        let inner_end = paused((3, 0), PauseReason::Step, &["inner", "f", "main"], &[]);
        let in_f = paused((6, 2), PauseReason::Step, &["f", "main"], &[]);
        // Start, a step over main's call interrupted in inner, a step inside inner: pending.
        let t = trace(&[
            (Action::Start, in_main.clone()),
            (Action::StepOver, at_inner.clone()),
            (Action::StepOver, inner_end.clone()),
        ]);
        let (step, began) = interrupted_step(&t, 3).expect("pending");
        assert_eq!(*step, Action::StepOver);
        assert_eq!(began.location.line, 9);
        // A later step that came back out to f is still deeper than main: pending.
        let t = trace(&[
            (Action::Start, in_main.clone()),
            (Action::StepOver, at_inner.clone()),
            (Action::StepOut, in_f.clone()),
        ]);
        assert!(interrupted_step(&t, 3).is_some());
        // Back in main's frame after the interruption: done, nothing pending.
        let back = paused((10, 2), PauseReason::Step, &["main"], &[]);
        let t = trace(&[
            (Action::Start, in_main.clone()),
            (Action::StepOver, at_inner.clone()),
            (Action::StepOut, in_f),
            (Action::StepOut, back),
        ]);
        assert_eq!(interrupted_step(&t, 4), None);
        // A step that was not interrupted leaves nothing pending.
        let t = trace(&[(Action::Start, in_main), (Action::StepOver, inner_end)]);
        assert_eq!(interrupted_step(&t, 2), None);
    }
}
