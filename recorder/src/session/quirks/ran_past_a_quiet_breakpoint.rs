//! `ran-past-a-quiet-breakpoint`: LLDB 16's step into, on gcc's code, does not end on a line
//! where a breakpoint that does not stop stands (a logpoint, a false condition): its single step
//! lands on the breakpoint's address, the stop is taken for the breakpoint, which says not to
//! stop, and the program runs on to the next breakpoint or its end. gdb's step stops there.
//!
//! On the real engines:
//! - `tests/debuggers/native.rs#lldb_steps_into_past_a_logpoint_on_gccs_code`
//! - `traces/findings/lldb-a-step-into-onto-a-logpoint-runs-on` (LLDB's command line alone)

use super::{Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{Action, DivergenceKind, Output, PauseReason};

pub(super) struct RanPastAQuietBreakpoint;

impl Quirk for RanPastAQuietBreakpoint {
    /// Where a step into began on one line on both sides, one side's step ended on another line
    /// (a step's pause), and the other side (`RanPastAQuietBreakpoint`) paused at a breakpoint
    /// elsewhere or ended, with a logpoint or a conditional breakpoint of its own placed on the
    /// line where the first side's step ended. Without such a breakpoint there, another
    /// step, or a side that paused for anything but a breakpoint, gets no remark.
    fn recognize(&self, _: &Recognizer, d: &Divergence) -> Option<Remark> {
        if !matches!(
            d.kind,
            DivergenceKind::PauseLocation | DivergenceKind::Termination
        ) || *d.answers.action != Action::StepInto
        {
            return None;
        }
        let began = d.answers.before.map(|p| p.map(|p| p.location.line));
        let began = began[0].filter(|_| began[0] == began[1])?;
        let stepped_to = |o: &Output| match o {
            Output::Paused(p) if p.reason == PauseReason::Step && p.location.line != began => {
                Some(p.location.line)
            }
            _ => None,
        };
        let ran_on = |o: &Output, line: u32| match o {
            Output::Paused(p) => {
                matches!(p.reason, PauseReason::Breakpoint { .. }) && p.location.line != line
            }
            Output::Finished { .. } => true,
            _ => false,
        };
        let [a, b] = d.answers.outputs;
        [(Side::Second, a, b), (Side::First, b, a)]
            .into_iter()
            .find(|&(side, stepped, other)| {
                let k = if side == Side::First { 0 } else { 1 };
                stepped_to(stepped).is_some_and(|line| {
                    ran_on(other, line) && d.answers.quiet[k].iter().any(|q| q.line == line)
                })
            })
            .map(|(side, _, _)| Remark::RanPastAQuietBreakpoint { side })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::super::{Answers, QuietBreakpoint};
    use super::RanPastAQuietBreakpoint;

    const C: &str = "int main(int argc, char **argv) {\n  int x = 0;\n  if (argc == 2) x = 1;\n  x += 2;\n  x += 3;\n  return x - 5;\n}\n";

    fn remark(
        action: Action,
        outputs: [&Output; 2],
        before: [Option<&PauseState>; 2],
        quiet_lines: [Vec<u32>; 2],
    ) -> Option<Remark> {
        let quiet = quiet_lines.map(|lines| {
            lines
                .into_iter()
                .map(|line| QuietBreakpoint {
                    id: morphtrace_schema::BreakpointId(1),
                    line,
                    logs: Some("x".into()),
                })
                .collect()
        });
        let answers = Answers {
            action: &action,
            outputs,
            before,
            came_by: [None; 2],
            interrupted: [None; 2],
            quiet,
        };
        recognized_by(
            &RanPastAQuietBreakpoint,
            C,
            DivergenceKind::PauseLocation,
            "paused at 4:1 vs 6:3",
            &answers,
        )
    }

    #[test]
    fn a_step_into_that_ran_past_its_own_logpoint_where_the_other_stopped() {
        let at = pause((2, 0), breakpoint(), &["main"], &[]);
        let stepped = paused((3, 0), PauseReason::Step, &["main"], &[]);
        let later = paused((5, 2), breakpoint(), &["main"], &[]);
        let ended = Output::Finished {
            outcome: morphtrace_schema::ProgramOutcome::Completed,
        };
        let before = [Some(&at), Some(&at)];
        let second = Some(Remark::RanPastAQuietBreakpoint { side: Side::Second });
        let first = Some(Remark::RanPastAQuietBreakpoint { side: Side::First });
        let quiet = || [vec![3], vec![3]];
        assert_eq!(
            remark(Action::StepInto, [&stepped, &later], before, quiet()),
            second
        );
        assert_eq!(
            remark(Action::StepInto, [&ended, &stepped], before, quiet()),
            first
        );
        // Planted: no breakpoint that need not stop on the line on the side that ran on, one
        // on another line, a step over, a side that ran on to a step's pause, steps begun on
        // different lines.
        assert_eq!(
            remark(
                Action::StepInto,
                [&stepped, &later],
                before,
                [vec![3], vec![]]
            ),
            None
        );
        assert_eq!(
            remark(
                Action::StepInto,
                [&stepped, &later],
                before,
                [vec![3], vec![4]]
            ),
            None
        );
        assert_eq!(
            remark(Action::StepOver, [&stepped, &later], before, quiet()),
            None
        );
        let stepped_far = paused((5, 2), PauseReason::Step, &["main"], &[]);
        assert_eq!(
            remark(Action::StepInto, [&stepped, &stepped_far], before, quiet()),
            None
        );
        let elsewhere = pause((1, 0), breakpoint(), &["main"], &[]);
        assert_eq!(
            remark(
                Action::StepInto,
                [&stepped, &later],
                [Some(&at), Some(&elsewhere)],
                quiet()
            ),
            None
        );
    }
}
