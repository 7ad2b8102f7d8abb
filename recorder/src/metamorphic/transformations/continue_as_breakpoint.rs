//! Continue-to-location-as-a-breakpoint: one of the parent's continues to a location done as a
//! temporary breakpoint there, a resume, and the breakpoint removed; continuing to a line is a
//! temporary breakpoint there.

use super::{action_choice, pick, Choice, Derive, Deriving, Recipe};
use morphtrace_schema::{Action, Output};
use rand_chacha::ChaCha8Rng;

pub(in crate::metamorphic) struct ContinueAsBreakpoint;

impl Derive for ContinueAsBreakpoint {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        // Not to a line where the parent asked for a conditional breakpoint or a logpoint
        // before: V8 refuses the temporary breakpoint there (one place, one breakpoint), and
        // the resume would pass where the continue stops (a continue heeds no condition).
        let parent = d.parent;
        let continues: Vec<usize> = parent
            .iter()
            .enumerate()
            .filter(|(i, (a, o))| {
                let Action::ContinueToLocation { line } = a else {
                    return false;
                };
                let filtered = parent[..*i].iter().any(|(b, _)| {
                    matches!(
                        b,
                        Action::SetConditionalBreakpoint { .. } | Action::SetLogpoint { .. }
                    ) && b.breakpoint_line() == Some(*line)
                });
                !filtered && matches!(o, Some(Output::Paused(_) | Output::Finished { .. }))
            })
            .map(|(i, _)| i)
            .collect();
        let at = pick(d.pin.action, &continues, rng)
            .ok_or("the parent continues to no location (free of conditions and logpoints)")?;
        Ok(action_choice(
            Recipe {
                continue_as_breakpoint: Some(at),
                ..base
            },
            vec![("action", at.to_string())],
        ))
    }
}
