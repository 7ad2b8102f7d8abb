//! Replace-continue-by-step (Table 1): one of the parent's answered resumes becomes a step (out,
//! over or into); every pause of the parent must still appear, the follow-up continuing past
//! the extra pauses the step makes (decided live).

use super::{action_choice, Choice, Derive, Deriving, Recipe};
use morphtrace_schema::Action;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

pub(in crate::metamorphic) struct ContinueToStep;

impl Derive for ContinueToStep {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        let resumes: Vec<usize> = d
            .parent
            .iter()
            .enumerate()
            .filter(|(_, (a, o))| matches!(a, Action::Resume) && o.is_some())
            .map(|(i, _)| i)
            .collect();
        let &at = resumes.choose(rng).ok_or("the parent resumes nowhere")?;
        let step = [Action::StepOut, Action::StepOver, Action::StepInto]
            .choose(rng)
            .cloned()
            .unwrap_or(Action::StepOver);
        let at = d.pin.action.unwrap_or(at);
        let step = d.pin.step.clone().unwrap_or(step);
        Ok(action_choice(
            Recipe {
                replace: Some((at, step.clone())),
                ..base
            },
            vec![("action", at.to_string()), ("step", step.to_string())],
        ))
    }
}
