//! Pause-on-all-exceptions: every exception pauses (the parent's settings become `all`, and
//! `all` is set before the start); all exceptions pause where uncaught ones did and where each
//! is thrown, the follow-up resuming past the extra pauses (decided live).

use super::{action_choice, Choice, Derive, Deriving, Recipe};
use morphtrace_schema::{Action, ExceptionPause};
use rand_chacha::ChaCha8Rng;

pub(in crate::metamorphic) struct PauseOnAll;

impl Derive for PauseOnAll {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        _: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        let all_already = d.parent.iter().any(|(a, _)| {
            matches!(
                a,
                Action::PauseOnExceptions {
                    mode: ExceptionPause::All
                }
            )
        });
        if all_already {
            return Err("the parent pauses on all exceptions already".into());
        }
        if !d.parent.iter().any(|(a, _)| a.is_control()) {
            return Err("the parent takes no control action".into());
        }
        Ok(action_choice(
            Recipe {
                exceptions_all: true,
                ..base
            },
            vec![],
        ))
    }
}
