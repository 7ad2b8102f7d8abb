//! Condition-true: a plain breakpoint of the parent asked for with the condition `true`; a true
//! condition is a plain breakpoint, so the follow-up must pause as the parent did.

use super::{action_choice, pick, plain_breakpoints, Choice, Derive, Deriving, Recipe};
use rand_chacha::ChaCha8Rng;

pub(in crate::metamorphic) struct ConditionTrue;

impl Derive for ConditionTrue {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        let at = pick(d.pin.action, &plain_breakpoints(d.parent), rng)
            .ok_or("the parent placed no plain breakpoint")?;
        Ok(action_choice(
            Recipe {
                conditioned: Some((at, "true".into())),
                ..base
            },
            vec![("action", at.to_string()), ("condition", "true".into())],
        ))
    }
}
