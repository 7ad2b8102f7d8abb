//! Restart-frame-as-reentry: after a pause in a function without side effects that the parent
//! entered by a step into, the frame is restarted and the actions since the entry issued again;
//! a restarted side-effect-free frame pauses as its entry did.

use super::{action_choice, Choice, Derive, Deriving, Recipe};
use morphtrace_schema::{Action, Output};
use morphtrace_syntax::js::pure;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

pub(in crate::metamorphic) struct RestartAsReentry;

impl Derive for RestartAsReentry {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        // WebKit's protocol cannot restart a frame (the debugger says so per session; the
        // follow-up is chosen before one is opened).
        if d.ctx.engine.descriptor().protocol == morphtrace_schema::Protocol::WebKitInspector {
            return Err("the engine's protocol cannot restart a frame".into());
        }
        let options = reentries(&d.loaded.program.text, d.parent, d.pin.action);
        let &(entry, at) = options
            .choose(rng)
            .ok_or("the parent never paused in a function without side effects it stepped into")?;
        Ok(action_choice(
            Recipe {
                restart: Some((entry, at)),
                ..base
            },
            vec![("action", at.to_string()), ("entry", entry.to_string())],
        ))
    }
}

/// Restart-frame-as-reentry: the parent's pauses in a function without side effects
/// (`pure`) that it entered by a step into from its caller, each with that entry: the parent's
/// control actions (pinned: `at`) whose pause is in the same call of the function (the frames
/// below unchanged), with only resumes and steps within it since the entry.
pub(in crate::metamorphic) fn reentries(
    text: &str,
    parent: &[(Action, Option<Output>)],
    at: Option<usize>,
) -> Vec<(usize, usize)> {
    let functions = pure::functions(text);
    let pauses: Vec<(usize, &morphtrace_schema::PauseState)> = parent
        .iter()
        .enumerate()
        .filter_map(|(i, (a, o))| match o {
            Some(Output::Paused(p)) if a.is_control() => Some((i, p)),
            _ => None,
        })
        .collect();
    let names = |p: &morphtrace_schema::PauseState, from: usize| -> Vec<String> {
        p.stack[from..].iter().map(|f| f.function.clone()).collect()
    };
    let mut out = Vec::new();
    for (k, &(cr, r)) in pauses.iter().enumerate() {
        if at.is_some_and(|a| a != cr)
            || r.stack.len() < 2
            || r.stack[0].function.is_empty()
            || r.exception.is_some()
            || !pure::pure_at(&functions, r.location)
        {
            continue;
        }
        let below = &r.stack[1..];
        let same_call = |p: &morphtrace_schema::PauseState| {
            p.stack.len() == r.stack.len()
                && p.stack[0].function == r.stack[0].function
                && p.stack[1..] == *below
                && p.exception.is_none()
        };
        // Back through this call's pauses to the one a step into from the caller made.
        let mut entry = None;
        for j in (0..=k).rev() {
            let (cj, p) = pauses[j];
            if !same_call(p) {
                break;
            }
            let caller = j
                .checked_sub(1)
                .map(|h| pauses[h].1)
                .is_some_and(|q| q.stack.len() + 1 == r.stack.len() && names(q, 0) == names(r, 1));
            if parent[cj].0 == Action::StepInto && caller {
                entry = Some(cj);
                break;
            }
        }
        let Some(ce) = entry else { continue };
        let within = parent[ce + 1..=cr]
            .iter()
            .all(|(a, _)| matches!(a, Action::Resume | Action::StepInto | Action::StepOver));
        if within {
            out.push((ce, cr));
        }
    }
    out
}
