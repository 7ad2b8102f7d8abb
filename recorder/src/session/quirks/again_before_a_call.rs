//! `again-before-a-call`: JavaScriptCore pauses before each call, so a step into a call whose
//! arguments call only built-ins (which have no source) pauses again where it stood.
//!
//! On the real engines:
//! - `tests/debuggers/stepping.rs#jsc_pauses_again_before_a_call_whose_arguments_called_a_built_in`

use super::{same_frames, Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{Action, DivergenceKind, Language, Output};
use morphtrace_syntax::js::calls::BuiltInArguments;

pub(super) struct AgainBeforeACall;

impl Quirk for AgainBeforeACall {
    /// Where one side's step into paused again where it stood (the same place and frames), at
    /// the start of a call whose arguments call only built-ins (`AGAIN_BEFORE_A_CALL`):
    /// JavaScriptCore pauses before each call, and the built-in it stepped into has no source.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let [a, b] = d.answers.outputs;
        let kind = d.kind;
        let action = d.answers.action;
        let before = d.answers.before[0];
        if *kind != DivergenceKind::PauseLocation
            || *action != Action::StepInto
            || r.program.language != Language::JavaScript
        {
            return None;
        }
        let (Some(before), Output::Paused(x), Output::Paused(y)) = (before, a, b) else {
            return None;
        };
        let again = |p: &morphtrace_schema::PauseState| {
            p.location == before.location && same_frames(p, before)
        };
        let (side, at) = match (again(x), again(y)) {
            (true, false) => (Side::First, x.location),
            (false, true) => (Side::Second, y.location),
            _ => return None,
        };
        let calls = r.facts.get::<BuiltInArguments>();
        match calls {
            Some(c) if c.starts_at(at) => Some(Remark::AgainBeforeACall { side }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    #[test]
    fn a_step_into_that_stays_before_a_call_of_built_ins_only() {
        let text = "function p(s) {\n  return s;\n}\np(Math.max(1, 2));\np(p(3));\n";
        let prog = program(text, Language::JavaScript);
        let remark = |before: (u32, u32), into: (u32, u32), first_stays: bool| {
            let b = pause(before, PauseReason::Step, &[""], &[]);
            let stays = paused(before, PauseReason::Step, &[""], &[]);
            let went = paused(into, PauseReason::Step, &["p", ""], &[]);
            let pair = if first_stays {
                [&stays, &went]
            } else {
                [&went, &stays]
            };
            remarks(
                &prog,
                DivergenceKind::PauseLocation,
                "paused at 4:1 vs 2:3",
                Action::StepInto,
                pair,
                [Some(&b), Some(&b)],
                [None; 2],
            )
        };
        assert_eq!(
            remark((3, 0), (1, 2), true),
            Remark::AgainBeforeACall { side: Side::First }.to_string()
        );
        assert_eq!(
            remark((3, 0), (1, 2), false),
            Remark::AgainBeforeACall { side: Side::Second }.to_string()
        );
        // Planted: a call whose argument calls the program's own function.
        assert_eq!(remark((4, 0), (1, 2), true), "");
    }
}
