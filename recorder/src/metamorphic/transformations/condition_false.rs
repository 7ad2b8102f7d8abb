//! Condition-false: a breakpoint with the condition `false` added on a line the program is seen
//! running; a false condition never pauses, so the follow-up must pause as the parent did.

use super::{
    action_choice, answered_controls, lines_on_stacks, occupied_lines, pick, Choice, Derive,
    Deriving, Recipe,
};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

pub(in crate::metamorphic) struct ConditionFalse;

impl Derive for ConditionFalse {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        // A line the program is seen running (a frame of some pause), where the parent asks
        // for no breakpoint and none of its breakpoints landed, nor a continue goes: a plain
        // one there would pause, a false one must not. (JavaScriptCore keeps one breakpoint
        // per place: a later breakpoint that slides to an occupied place gets no location, and
        // a continue to a place a false breakpoint holds runs past it, Bun's gen:1..200 six
        // times; traces/findings/jsc-drops-a-second-breakpoint-at-an-occupied-location.)
        let taken = occupied_lines(d.parent);
        let seen: BTreeSet<u32> = lines_on_stacks(d.parent)
            .filter(|l| !taken.contains(l))
            .collect();
        let lines: Vec<u32> = seen.into_iter().collect();
        let line = pick(d.pin.line, &lines, rng)
            .ok_or("every line the program was seen running has a breakpoint of the parent")?;
        let at = pick(d.pin.action, &answered_controls(d.parent), rng)
            .ok_or("the parent has no answered control action")?;
        Ok(action_choice(
            Recipe {
                new_breakpoint: Some((at, line)),
                new_condition: Some("false".into()),
                ..base
            },
            vec![
                ("line", line.to_string()),
                ("before-action", at.to_string()),
                ("condition", "false".into()),
            ],
        ))
    }
}
