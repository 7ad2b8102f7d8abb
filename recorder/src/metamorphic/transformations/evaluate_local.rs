//! Evaluate-a-local: after one of the parent's pauses, a primitive local it shows is evaluated;
//! a local evaluates to its value in the scopes.

use super::{action_choice, primitive, Choice, Derive, Deriving, Recipe};
use morphtrace_schema::Output;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

pub(in crate::metamorphic) struct EvaluateLocal;

impl Derive for EvaluateLocal {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        let mut options: Vec<(usize, String)> = Vec::new();
        for (i, (_, o)) in d.parent.iter().enumerate() {
            let Some(Output::Paused(p)) = o else { continue };
            if d.pin.action.is_some_and(|a| a != i) {
                continue;
            }
            // In a parameter list the scopes list what is not bound yet (`in_parameters`).
            if d.analysis.is_some_and(|a| a.in_parameters(p.location)) {
                continue;
            }
            for (n, v) in morphtrace_judges::dbdb::visible_variables(p.top_scopes()) {
                if crate::dbdb::spellable(n) && primitive(v) {
                    options.push((i, n.to_string()));
                }
            }
        }
        if let Some(n) = d.recorded("local") {
            options.retain(|(_, x)| *x == n);
        }
        let (at, local) = options
            .choose(rng)
            .ok_or("no pause shows a primitive local")?
            .clone();
        Ok(action_choice(
            Recipe {
                evaluate_after: Some((at, local.clone())),
                ..base
            },
            vec![("action", at.to_string()), ("local", local)],
        ))
    }
}
