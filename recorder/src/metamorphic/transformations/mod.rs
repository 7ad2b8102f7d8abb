//! Each transformation as a type, one module each (Table 1's nine and the nine modern relations;
//! the five that rewrite the program's text share `program_text`, their writing being in `source`):
//! what it needs of the parent session and the follow-up it derives from it, a [`Recipe`] of
//! changes to the parent's actions and program. What the follow-up is judged by follows from the
//! recipe as the follow-up runs (`follow_up::drive` notes the [`Expectation`]s of what it did);
//! the relation it must keep is the transformation's own (`Transformation::relation`, in the
//! judges, where the analyzer re-judges archives with it).
//!
//! [`Expectation`]: morphtrace_judges::metamorphic::Expectation

pub(super) mod add_breakpoint;
pub(super) mod condition_false;
pub(super) mod condition_local;
pub(super) mod condition_true;
pub(super) mod continue_as_breakpoint;
pub(super) mod continue_to_step;
pub(super) mod evaluate_local;
pub(super) mod logpoint;
pub(super) mod pause_on_all;
pub(super) mod program_text;
pub(super) mod remove_dead_code;
pub(super) mod restart_as_reentry;
pub(super) mod set_as_code;
pub(super) mod sliding;

pub(super) use super::analysis_of;
use super::follow_up::{slid, Recipe};
use super::source::{Analysis, Transformed};
use super::Context;
use crate::corpus::Loaded;
use crate::task::Pin;
use morphtrace_judges::metamorphic::Transformation;
use morphtrace_schema::{Action, Language, Output};
use program_text::ProgramText;
use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// What a transformation derives its follow-up from: the parent's actions with their answers,
/// its program (and that program's analysis, when it has one), the pin a reduction repeats, and
/// the chain's context (the engine, the coverage runners remove-dead-code starts on first use).
pub(super) struct Deriving<'d, 'c> {
    pub ctx: &'d mut Context<'c>,
    pub pin: &'d Pin,
    pub loaded: &'d Loaded,
    pub parent: &'d [(Action, Option<Output>)],
    pub analysis: Option<&'d Analysis>,
    pub python: bool,
}

impl Deriving<'_, '_> {
    /// A choice the pinned transformation recorded (`local`, `condition`), repeated by a
    /// reduction.
    fn recorded(&self, k: &str) -> Option<String> {
        self.pin
            .recorded
            .iter()
            .find(|(x, _)| x == k)
            .map(|(_, v)| v.clone())
    }
}

/// A transformation: the follow-up it derives from the parent (`base`: a recipe that changes
/// nothing), or why it does not apply to this parent. Every draw from `rng`, in a fixed order.
pub(super) trait Derive: Sync {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String>;
}

/// The type of transformation `t`.
pub(super) fn derive(t: Transformation) -> &'static dyn Derive {
    match t {
        Transformation::AddBreakpoint => &add_breakpoint::AddBreakpoint,
        Transformation::ContinueToStep => &continue_to_step::ContinueToStep,
        Transformation::Sliding => &sliding::Sliding,
        Transformation::InsertDeadCode => &ProgramText(Transformation::InsertDeadCode),
        Transformation::RemoveDeadCode => &remove_dead_code::RemoveDeadCode,
        Transformation::AddParameter => &ProgramText(Transformation::AddParameter),
        Transformation::AddNoOp => &ProgramText(Transformation::AddNoOp),
        Transformation::IntegerLiteral => &ProgramText(Transformation::IntegerLiteral),
        Transformation::BooleanLiteral => &ProgramText(Transformation::BooleanLiteral),
        Transformation::ConditionTrue => &condition_true::ConditionTrue,
        Transformation::ConditionFalse => &condition_false::ConditionFalse,
        Transformation::ConditionLocal => &condition_local::ConditionLocal,
        Transformation::EvaluateLocal => &evaluate_local::EvaluateLocal,
        Transformation::PauseOnAll => &pause_on_all::PauseOnAll,
        Transformation::Logpoint => &logpoint::Logpoint,
        Transformation::ContinueAsBreakpoint => &continue_as_breakpoint::ContinueAsBreakpoint,
        Transformation::SetAsCode => &set_as_code::SetAsCode,
        Transformation::RestartAsReentry => &restart_as_reentry::RestartAsReentry,
    }
}

/// Chooses a transformation for the next round and prepares the follow-up's program.
pub(in crate::metamorphic) struct Choice {
    pub(in crate::metamorphic) recipe: Recipe,
    pub(in crate::metamorphic) program: Option<Transformed>,
    pub(in crate::metamorphic) params: Vec<(String, String)>,
}

/// The transformations a round could not apply to its parent, each with why: those found
/// unfit before the draw and those drawn and tried in vain before the one chosen (or all of
/// them, when none applied). Recorded in the follow-up's notes (`mm::NOT_APPLICABLE`).
pub(super) type Unfit = Vec<(Transformation, String)>;

/// Table 1's transformations of the program text (the others change actions).
const PROGRAM_TRANSFORMATIONS: &[Transformation] = &[
    Transformation::InsertDeadCode,
    Transformation::AddNoOp,
    Transformation::AddParameter,
    Transformation::IntegerLiteral,
    Transformation::BooleanLiteral,
];

pub(in crate::metamorphic) fn choose(
    ctx: &mut Context<'_>,
    pin: &Pin,
    allowed: &[Transformation],
    loaded: &Loaded,
    parent: &[(Action, Option<Output>)],
    rng: &mut ChaCha8Rng,
) -> (Option<Choice>, Unfit) {
    let python = loaded.program.language == Language::Python;
    let analysis = analysis_of(&loaded.program.text, loaded.program.language).ok();
    let mut options: Vec<Transformation> = vec![Transformation::AddBreakpoint];
    let mut unfit: Unfit = Vec::new();
    if parent
        .iter()
        .any(|(a, o)| matches!(a, Action::Resume) && o.is_some())
    {
        options.push(Transformation::ContinueToStep);
    } else {
        unfit.push((
            Transformation::ContinueToStep,
            "the parent resumes nowhere".into(),
        ));
    }
    if parent.iter().any(|(a, o)| slid(a, o)) {
        options.push(Transformation::Sliding);
    } else {
        unfit.push((
            Transformation::Sliding,
            "no breakpoint of the parent slid".into(),
        ));
    }
    match &analysis {
        Some(a) => {
            let here = a.applicable();
            for t in PROGRAM_TRANSFORMATIONS {
                if !here.contains(t) {
                    unfit.push((*t, "the program has no place for it".into()));
                }
            }
            options.extend(here);
            options.push(Transformation::RemoveDeadCode);
        }
        None => {
            for t in PROGRAM_TRANSFORMATIONS
                .iter()
                .chain([&Transformation::RemoveDeadCode])
            {
                unfit.push((*t, "the program is beyond its analysis".into()));
            }
        }
    }
    // The modern relations, each tried only where the parent has what it needs. They spell
    // conditions and code in JavaScript: not on Python programs.
    if !python {
        options.extend(Transformation::MODERN);
    } else {
        for t in Transformation::MODERN {
            unfit.push((t, "spelled in JavaScript: not on Python programs".into()));
        }
    }
    options.retain(|o| allowed.contains(o));
    unfit.retain(|(o, _)| allowed.contains(o));
    let mut d = Deriving {
        ctx,
        pin,
        loaded,
        parent,
        analysis: analysis.as_ref(),
        python,
    };
    let chosen = draw(&mut d, rng, options, &mut unfit);
    (chosen, unfit)
}

/// Draws among `options` until one applies; each that does not is added to `unfit` with why.
fn draw(
    d: &mut Deriving<'_, '_>,
    rng: &mut ChaCha8Rng,
    mut options: Vec<Transformation>,
    unfit: &mut Unfit,
) -> Option<Choice> {
    while !options.is_empty() {
        let k = rng.random_range(0..options.len());
        let t = options.swap_remove(k);
        match derive(t).follow_up(d, Recipe::new(t), rng) {
            Ok(c) => return Some(c),
            Err(why) => unfit.push((t, why)),
        }
    }
    None
}

/// A follow-up that changes the parent's actions only, with the parameters its record keeps.
fn action_choice(recipe: Recipe, params: Vec<(&str, String)>) -> Choice {
    Choice {
        recipe,
        program: None,
        params: params
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    }
}

/// The parent's plain breakpoints (no column) that landed somewhere, by action index.
fn plain_breakpoints(parent: &[(Action, Option<Output>)]) -> Vec<usize> {
    parent
        .iter()
        .enumerate()
        .filter(|(_, (a, o))| {
            matches!(a, Action::SetBreakpoint { column: None, .. })
                && matches!(o, Some(Output::BreakpointSet { actual, .. }) if !actual.is_empty())
        })
        .map(|(i, _)| i)
        .collect()
}

/// Positions of the parent's control actions that were answered.
pub(in crate::metamorphic) fn answered_controls(parent: &[(Action, Option<Output>)]) -> Vec<usize> {
    parent
        .iter()
        .enumerate()
        .filter(|(_, (a, o))| a.is_control() && o.is_some())
        .map(|(i, _)| i)
        .collect()
}

/// Lines of every frame of every pause of the parent: code it is seen running.
pub(in crate::metamorphic) fn lines_on_stacks(
    parent: &[(Action, Option<Output>)],
) -> impl Iterator<Item = u32> + '_ {
    parent
        .iter()
        .filter_map(|(_, o)| match o {
            Some(Output::Paused(p)) => Some(p.stack.iter().map(|f| f.location.line)),
            _ => None,
        })
        .flatten()
}

/// The lines a parent's breakpoints ask for or landed on, and those its continues go to.
pub(in crate::metamorphic) fn occupied_lines(parent: &[(Action, Option<Output>)]) -> BTreeSet<u32> {
    parent
        .iter()
        .flat_map(|(a, o)| {
            let landed = match o {
                Some(Output::BreakpointSet { actual, .. }) => {
                    actual.iter().map(|l| l.line).collect()
                }
                _ => Vec::new(),
            };
            // A continue's temporary breakpoint is where it was asked for, and where it arrived
            // (a later line when the asked one has no break position).
            let continued = match (a, o) {
                (Action::ContinueToLocation { line }, Some(Output::Paused(p))) => {
                    vec![*line, p.location.line]
                }
                (Action::ContinueToLocation { line }, _) => vec![*line],
                _ => Vec::new(),
            };
            a.breakpoint_line()
                .into_iter()
                .chain(landed)
                .chain(continued)
        })
        .collect()
}

/// A pinned choice (reduction) or one drawn from `candidates`.
pub(in crate::metamorphic) fn pick<T: Clone + PartialEq>(
    pinned: Option<T>,
    candidates: &[T],
    rng: &mut ChaCha8Rng,
) -> Option<T> {
    match pinned {
        Some(p) => candidates.contains(&p).then_some(p),
        None => candidates.choose(rng).cloned(),
    }
}

/// A value an expression can spell exactly and compare with `!==`: an integer, a boolean.
pub(in crate::metamorphic) fn literal(v: &morphtrace_schema::Value) -> Option<String> {
    use morphtrace_schema::Value;
    match v {
        Value::Number(x) if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e15 => {
            // -0 spells as 0, which `!==` does not tell from it.
            (*x != 0.0 || x.is_sign_positive()).then(|| format!("{}", *x as i64))
        }
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The value of `name` in a pause's top frame, as a condition would see it.
pub(in crate::metamorphic) fn local<'a>(
    p: &'a morphtrace_schema::PauseState,
    name: &str,
) -> Option<&'a morphtrace_schema::Value> {
    morphtrace_judges::dbdb::visible_variables(p.top_scopes())
        .get(name)
        .copied()
}

/// A value whose evaluation and scope entry compare exactly (objects are captured to a depth
/// that an evaluation's result and a scope's entry may reach differently).
pub(in crate::metamorphic) fn primitive(v: &morphtrace_schema::Value) -> bool {
    use morphtrace_schema::Value;
    matches!(
        v,
        Value::Undefined
            | Value::Null
            | Value::Bool(_)
            | Value::Number(_)
            | Value::BigInt(_)
            | Value::String(_)
    )
}

/// Whether the parent's pause answering action `k` can go with all else the same: it was
/// reached by a resume (or the start) and left by a resume at once.
pub(in crate::metamorphic) fn skippable(parent: &[(Action, Option<Output>)], k: usize) -> bool {
    matches!(parent[k].0, Action::Resume | Action::Start)
        && matches!(parent.get(k + 1), Some((Action::Resume, Some(_))))
}

/// The parent's pauses at the place of the plain breakpoint it set at action `b`, while it was
/// set: its hits, or steps that ended there. Empty when another breakpoint shares its line (its
/// pauses could be that one's). A pause on an exception thrown there is neither (the first
/// relation campaign's warnings on Chromium and Node were that: a throw on the breakpoint's line
/// taken for a hit).
pub(in crate::metamorphic) fn hits(
    parent: &[(Action, Option<Output>)],
    b: usize,
) -> Vec<(usize, &morphtrace_schema::PauseState)> {
    let Some(Output::BreakpointSet { id, actual, .. }) = &parent[b].1 else {
        return vec![];
    };
    let at = actual[0];
    let others = parent.iter().enumerate().any(|(i, (a, o))| {
        i != b
            && a.sets_breakpoint()
            && matches!(o, Some(Output::BreakpointSet { actual, .. }) if actual.iter().any(|l| l.line == at.line))
    });
    if others {
        return vec![];
    }
    let end = parent
        .iter()
        .enumerate()
        .skip(b)
        .find(|(_, (a, _))| matches!(a, Action::RemoveBreakpoint { id: r } if r == id))
        .map(|(i, _)| i)
        .unwrap_or(parent.len());
    // A pause the engine says this breakpoint made is its hit wherever it is: JavaScriptCore's
    // breakpoint at a line's start also stops in an arrow function's body later on that line.
    (b + 1..end)
        .filter_map(|i| match &parent[i].1 {
            Some(Output::Paused(p))
                if p.exception.is_none()
                    && (p.location == at
                        || matches!(&p.reason, morphtrace_schema::PauseReason::Breakpoint { ids } if ids.contains(id))) =>
            {
                Some((i, p))
            }
            _ => None,
        })
        .collect()
}

pub(in crate::metamorphic) fn program_choice(base: Recipe, t: Transformed) -> Choice {
    Choice {
        params: t.params.clone(),
        recipe: Recipe {
            map: t.map.clone(),
            slide_all: true,
            restep_inserted: t.inserted_line.is_some(),
            ..base
        },
        program: Some(t),
    }
}
