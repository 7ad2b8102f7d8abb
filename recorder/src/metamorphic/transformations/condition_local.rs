//! Condition-over-a-local: a plain breakpoint of the parent asked for with a condition over a
//! local (`x !== v`) that filters some of its pauses away exactly; the follow-up pauses where
//! the recorded values say the condition holds, and the resumes that left the filtered pauses
//! are dropped.

use super::{action_choice, hits, literal, local, plain_breakpoints, skippable};
use super::{Choice, Derive, Deriving, Recipe};
use morphtrace_schema::{Action, Output};
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

pub(in crate::metamorphic) struct ConditionLocal;

impl Derive for ConditionLocal {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        let pinned_condition = d.recorded("condition");
        let mut options: Vec<(usize, String, BTreeSet<usize>)> = Vec::new();
        for b in plain_breakpoints(d.parent) {
            if d.pin.action.is_some_and(|a| a != b) {
                continue;
            }
            options.extend(filters(d.parent, b));
        }
        if let Some(c) = &pinned_condition {
            options.retain(|(_, cond, _)| cond == c);
        }
        let (at, condition, skipped) = options
            .choose(rng)
            .ok_or(
                "no plain breakpoint whose pauses a condition over a local filters exactly \
                 (each filtered pause reached and left by a resume)",
            )?
            .clone();
        Ok(action_choice(
            Recipe {
                conditioned: Some((at, condition.clone())),
                drop_resumes: skipped.iter().map(|k| k + 1).collect(),
                ..base
            },
            vec![
                ("action", at.to_string()),
                ("condition", condition),
                (
                    "skipped",
                    skipped
                        .iter()
                        .map(|k| k.to_string())
                        .collect::<Vec<_>>()
                        .join(","),
                ),
            ],
        ))
    }
}

/// Conditions over a local for the plain breakpoint the parent set at action `b` that filter
/// some of its pauses away exactly: `x !== v` for a value `v` that `x` had at a pause there.
/// The pauses it filters must have been reached by a resume (or the start) and left by a resume
/// right away, so that dropping that resume is all the follow-up changes; every other pause at
/// the breakpoint's place must show `x` (the condition is evaluated there too). Returns
/// (`b`, condition, indices of the parent actions whose pauses go).
pub(in crate::metamorphic) fn filters(
    parent: &[(Action, Option<Output>)],
    b: usize,
) -> Vec<(usize, String, BTreeSet<usize>)> {
    let pauses = hits(parent, b);
    let Some((_, first)) = pauses.first() else {
        return vec![];
    };
    let mut out = Vec::new();
    for (name, _) in morphtrace_judges::dbdb::visible_variables(first.top_scopes()) {
        if !crate::dbdb::spellable(name) {
            continue;
        }
        let Some(values) = pauses
            .iter()
            .map(|(i, p)| local(p, name).and_then(literal).map(|v| (*i, v)))
            .collect::<Option<Vec<(usize, String)>>>()
        else {
            continue;
        };
        let distinct: BTreeSet<&String> = values.iter().map(|(_, v)| v).collect();
        for v in distinct {
            let gone: BTreeSet<usize> = values
                .iter()
                .filter(|(_, x)| x == v)
                .map(|(i, _)| *i)
                .collect();
            if gone.iter().all(|&k| skippable(parent, k)) {
                out.push((b, format!("{name} !== {v}"), gone));
            }
        }
    }
    out
}
