//! `crashed-with-a-catch-default`: JavaScriptCore (Bun 1.4.5) aborts when resumed or stepped out
//! of a pause into a `catch` whose parameter is a destructuring pattern with a default. The
//! remark says that the crashed side's program has such a clause: a crash in a program without
//! one is not that bug, and its rule must not judge it. The finding's `reproduce.mjs` exits 1
//! with Bun's crash report; the test that runs every finding's reproducer runs it.
//!
//! On the real engines:
//! - `tests/debuggers/lifecycle.rs#bun_crash_is_the_answer_of_the_action_that_caused_it`
//! - `tests/campaigns.rs#every_finding_in_traces_reproduces_on_todays_engines`

use super::{Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{DivergenceKind, Language, Output, ProgramOutcome};
use morphtrace_syntax::js::catches::CatchDefaults;

pub(super) struct CrashedWithACatchDefault;

impl Quirk for CrashedWithACatchDefault {
    /// Where one side's engine crashed (the other's did not) in a JavaScript program that has a
    /// `catch` whose parameter holds a default (`CatchDefaults`).
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        if *d.kind != DivergenceKind::Termination || r.program.language != Language::JavaScript {
            return None;
        }
        let crashed = |o: &Output| {
            matches!(
                o,
                Output::Finished {
                    outcome: ProgramOutcome::EngineCrashed { .. }
                }
            )
        };
        let [a, b] = d.answers.outputs;
        let side = Side::alone(crashed(a), crashed(b))?;
        r.facts
            .get::<CatchDefaults>()
            .filter(|c| c.any())
            .map(|_| Remark::CrashedWithACatchDefault { side })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use morphtrace_schema::ProgramOutcome;

    #[test]
    fn a_crash_in_a_program_with_a_catch_default() {
        let with = program(
            "try {\n  throw [];\n} catch ([[x, y] = [4, 5]]) {\n  x;\n}\n",
            Language::JavaScript,
        );
        let without = program(
            "try {\n  throw [];\n} catch ([x, y]) {\n  x;\n}\n",
            Language::JavaScript,
        );
        let crashed = Output::Finished {
            outcome: ProgramOutcome::EngineCrashed {
                message: "bun died of SIGABRT".into(),
            },
        };
        let in_catch = paused((3, 2), breakpoint(), &[""], &[]);
        let completed = Output::Finished {
            outcome: ProgramOutcome::Completed,
        };
        let remarked = |p: &ProgramFile, pair: [&Output; 2]| {
            remarks(
                p,
                DivergenceKind::Termination,
                "first side ended",
                Action::Resume,
                pair,
                [None, None],
                [None, None],
            )
        };
        assert_eq!(
            remarked(&with, [&in_catch, &crashed]),
            Remark::CrashedWithACatchDefault { side: Side::Second }.to_string()
        );
        assert_eq!(
            remarked(&with, [&crashed, &completed]),
            Remark::CrashedWithACatchDefault { side: Side::First }.to_string()
        );
        // Planted: the same crash where no catch parameter holds a default, both sides crashed,
        // or no side did.
        assert_eq!(remarked(&without, [&in_catch, &crashed]), "");
        assert_eq!(remarked(&with, [&crashed, &crashed]), "");
        assert_eq!(remarked(&with, [&in_catch, &completed]), "");
    }
}
