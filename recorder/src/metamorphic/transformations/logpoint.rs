//! Logpoint-for-a-breakpoint: a plain breakpoint of the parent, every pause of which was a hit
//! left at once by a resume, asked for as a logpoint of a primitive local instead; a logpoint
//! never pauses and logs what the breakpoint showed.

use super::{action_choice, hits, local, plain_breakpoints, primitive, skippable};
use super::{Choice, Derive, Deriving, Recipe};
use morphtrace_schema::{Action, Output};
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

pub(in crate::metamorphic) struct Logpoint;

impl Derive for Logpoint {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        let mut options: Vec<(usize, String, BTreeSet<usize>)> = Vec::new();
        for b in plain_breakpoints(d.parent) {
            if d.pin.action.is_some_and(|a| a != b) {
                continue;
            }
            options.extend(logpoints(d.parent, b).into_iter().map(|(n, g)| (b, n, g)));
        }
        if let Some(n) = d.recorded("local") {
            options.retain(|(_, x, _)| *x == n);
        }
        let (at, local, gone) = options
            .choose(rng)
            .ok_or(
                "no plain breakpoint whose every pause was reached and left by a resume and \
                 shows a primitive local",
            )?
            .clone();
        Ok(action_choice(
            Recipe {
                logpoint: Some((at, local.clone())),
                drop_resumes: gone.iter().map(|k| k + 1).collect(),
                ..base
            },
            vec![("action", at.to_string()), ("local", local)],
        ))
    }
}

/// Logpoints for the plain breakpoint the parent set at action `b`: every pause at its place
/// was a hit that can go (`skippable`); each primitive local all of them show is a choice.
/// Returns (local, indices of the parent actions whose pauses go).
pub(in crate::metamorphic) fn logpoints(
    parent: &[(Action, Option<Output>)],
    b: usize,
) -> Vec<(String, BTreeSet<usize>)> {
    let pauses = hits(parent, b);
    let Some((_, first)) = pauses.first() else {
        return vec![];
    };
    if !pauses.iter().all(|(k, _)| skippable(parent, *k)) {
        return vec![];
    }
    let gone: BTreeSet<usize> = pauses.iter().map(|(k, _)| *k).collect();
    morphtrace_judges::dbdb::visible_variables(first.top_scopes())
        .into_keys()
        .filter(|n| crate::dbdb::spellable(n))
        .filter(|n| {
            pauses
                .iter()
                .all(|(_, p)| local(p, n).is_some_and(primitive))
        })
        .map(|n| (n.to_string(), gone.clone()))
        .collect()
}
