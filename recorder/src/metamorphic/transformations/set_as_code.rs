//! Set-variable-as-code: a parent's set variable done instead by an assignment inserted in the
//! program, guarded to run only on the pass the set was made at; a set variable is the
//! assignment in the program from there on.

use super::{program_choice, Choice, Derive, Deriving, Recipe};
use crate::metamorphic::source::{Analysis, Transformed};
use crate::task::Pin;
use morphtrace_schema::{Action, Location, Output};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub(in crate::metamorphic) struct SetAsCode;

impl Derive for SetAsCode {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        let a = d.analysis.ok_or("the program is beyond its analysis")?;
        set_as_code(a, &d.loaded.program.text, base, d.pin, d.parent, rng).map_err(String::from)
    }
}

/// Set-variable-as-code: a parent set variable that took, made at a breakpoint's pause on a
/// statement that starts its line, done instead by an assignment inserted before that
/// statement, guarded to run only on the pass the set was made at. The pass is counted from
/// the parent: the breakpoint was there before the start and stayed, and every pause there
/// until the set was that breakpoint's (so each was one pass, and no pass went unseen).
fn set_as_code(
    analysis: &Analysis,
    text: &str,
    base: Recipe,
    pin: &Pin,
    parent: &[(Action, Option<Output>)],
    rng: &mut ChaCha8Rng,
) -> Result<Choice, &'static str> {
    let first_control = parent
        .iter()
        .position(|(a, _)| a.is_control())
        .ok_or("the parent takes no control action")?;

    let mut options: Vec<(usize, usize, Transformed)> = Vec::new();
    for (s, (a, o)) in parent.iter().enumerate() {
        let (Action::SetVariable { name, value }, Some(Output::VariableSet { .. })) = (a, o) else {
            continue;
        };
        if pin.action.is_some_and(|p| p != s) {
            continue;
        }
        // The pause it was made at: the last control's.
        let Some(c) = (0..s).rev().find(|&k| parent[k].0.is_control()) else {
            continue;
        };
        let Some(Output::Paused(q)) = &parent[c].1 else {
            continue;
        };
        // Nothing between the pause and the set looks at the frame: in the follow-up the
        // assignment has already run there.
        if parent[c + 1..s]
            .iter()
            .any(|(a, _)| matches!(a, Action::Evaluate { .. } | Action::SetVariable { .. }))
        {
            continue;
        }
        let at = q.location;
        // A breakpoint there from before the start, never removed before the set.
        let kept = parent[..first_control].iter().any(|(a, o)| match (a, o) {
            (_, Some(Output::BreakpointSet { id, actual, .. })) if a.sets_breakpoint() => {
                actual.contains(&at)
                    && !parent[..s]
                        .iter()
                        .any(|(r, _)| matches!(r, Action::RemoveBreakpoint { id: x } if x == id))
            }
            _ => false,
        });
        if !kept {
            continue;
        }
        let here: Vec<&morphtrace_schema::PauseState> = parent[..=c]
            .iter()
            .filter_map(|(_, o)| match o {
                Some(Output::Paused(p)) if p.location == at => Some(p),
                _ => None,
            })
            .collect();
        let all_hits = here.iter().all(|p| {
            matches!(p.reason, morphtrace_schema::PauseReason::Breakpoint { .. })
                && p.exception.is_none()
        });
        if !all_hits || repaused_in_place(&parent[..=c], at) || aliased(q, name) {
            continue;
        }
        // A counter of its own per line (an earlier round may have inserted another).
        let counter = format!("globalThis.__morphtraceSet{}", at.line + 1);
        if text.contains(&counter) {
            continue;
        }
        let code = format!(
            "if (({counter} = ({counter} || 0) + 1) === {}) {name} = {value};",
            here.len()
        );
        if let Some(t) = analysis.assignment_before(text, at, name, &code) {
            options.push((c, s, t));
        }
    }
    let k = rng.random_range(0..options.len().max(1));
    let took = |(a, o): &(Action, Option<Output>)| {
        matches!(
            (a, o),
            (Action::SetVariable { .. }, Some(Output::VariableSet { .. }))
        )
    };
    if options.is_empty() && !parent.iter().any(took) {
        return Err("the parent sets no variable that took");
    }
    if options.is_empty() {
        return Err(
            "no variable set at the pause of a breakpoint kept from the start (every pause there \
             its hit) before a statement an assignment can precede",
        );
    }
    let (c, s, t) = options.swap_remove(k);
    let mut choice = program_choice(base, t);
    choice.recipe.set_as_code = Some((c, s));
    choice.params.push(("action".into(), s.to_string()));
    Ok(choice)
}

/// Whether the frame's `arguments` object holds the value `name` has now: in a sloppy function
/// it may be that parameter's alias, which the assignment in the program changes too (and the
/// relation's expectation, the parent's pause with `name`'s new value, does not know).
pub(in crate::metamorphic) fn aliased(q: &morphtrace_schema::PauseState, name: &str) -> bool {
    let vars: Vec<&morphtrace_schema::Variable> =
        q.top_scopes().iter().flat_map(|s| &s.variables).collect();
    let Some(now) = vars.iter().find(|v| v.name == name).map(|v| &v.value) else {
        return false;
    };
    vars.iter().any(|v| {
        v.name == "arguments"
            && match &v.value {
                morphtrace_schema::Value::Object {
                    entries: Some(entries),
                    ..
                } => entries.iter().any(|e| &e.value == now),
                // Not expanded: it may hold it.
                morphtrace_schema::Value::Object { entries: None, .. } => true,
                _ => false,
            }
    })
}

/// Whether a step paused at `at` right where the previous pause was: no pass was made, yet
/// the place has one more pause (JavaScriptCore: a step into from a breakpoint's pause that
/// stops there again, its breakpoint hit a second time). The passes cannot be counted.
pub(in crate::metamorphic) fn repaused_in_place(
    parent: &[(Action, Option<Output>)],
    at: Location,
) -> bool {
    let mut previous: Option<Location> = None;
    for (a, o) in parent {
        if let Some(Output::Paused(p)) = o {
            let step = matches!(a, Action::StepInto | Action::StepOver | Action::StepOut);
            if step && p.location == at && previous == Some(at) {
                return true;
            }
            previous = Some(p.location);
        }
    }
    false
}
