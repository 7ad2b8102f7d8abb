//! Breakpoint-sliding (Table 1): every breakpoint of the parent that slid is asked for where it
//! landed; the follow-up must behave as the parent did.

use super::{action_choice, Choice, Derive, Deriving, Recipe};
use rand_chacha::ChaCha8Rng;

pub(in crate::metamorphic) struct Sliding;

impl Derive for Sliding {
    fn follow_up(
        &self,
        _: &mut Deriving<'_, '_>,
        base: Recipe,
        _: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        Ok(action_choice(
            Recipe {
                slide_slid: true,
                ..base
            },
            vec![],
        ))
    }
}
