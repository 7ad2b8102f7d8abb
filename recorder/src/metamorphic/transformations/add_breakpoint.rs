//! Add-breakpoint-and-continue (Table 1): a breakpoint on a line no request of the parent names,
//! set before one of its answered control actions; the follow-up pauses there besides the
//! parent's pauses, and a step the new breakpoint consumed is made good by a temporary breakpoint
//! where the parent's step went (Figure 7, decided live in `follow_up::drive`).

use super::{action_choice, answered_controls, Choice, Derive, Deriving, Recipe};
use morphtrace_schema::{Action, Output};
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

pub(in crate::metamorphic) struct AddBreakpoint;

impl Derive for AddBreakpoint {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        let controls = answered_controls(d.parent);
        let &at = controls
            .choose(rng)
            .ok_or("the parent has no answered control action")?;
        let at = d.pin.action.unwrap_or(at);
        let line = match d.pin.line {
            Some(l) => l,
            None => free_line(d.parent, d.loaded.file.lines, rng)
                .ok_or("every line has a breakpoint of the parent")?,
        };
        Ok(action_choice(
            Recipe {
                new_breakpoint: Some((at, line)),
                ..base
            },
            vec![
                ("line", line.to_string()),
                ("before-action", at.to_string()),
            ],
        ))
    }
}

/// A line for add-breakpoint-and-continue that no breakpoint request of the parent names (at
/// its start, column 0 or none): V8 refuses a second breakpoint with the same URL, line and
/// column, so a breakpoint we add there would make the parent's own request, earlier or later,
/// answer differently in the follow-up (a collision of ours, not the engine's). `None` when
/// the parent asked for every line.
pub(in crate::metamorphic) fn free_line(
    parent: &[(Action, Option<Output>)],
    lines: u32,
    rng: &mut ChaCha8Rng,
) -> Option<u32> {
    let taken: BTreeSet<u32> = parent
        .iter()
        .filter_map(|(a, _)| match a {
            Action::SetBreakpoint { line, column } if column.unwrap_or(0) == 0 => Some(*line),
            _ => None,
        })
        .collect();
    let free: Vec<u32> = (0..lines.max(1)).filter(|l| !taken.contains(l)).collect();
    free.choose(rng).copied()
}
