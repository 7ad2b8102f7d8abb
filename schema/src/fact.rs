//! Typed facts the recorder attaches to a divergence (issue 66): what it asked an engine besides
//! the session's actions, at the divergence, so that a triage rule matches fields and sides, not
//! words. A fact is read-only: asking for it changes nothing in the program or the traces.

use crate::engine::EngineRef;
use crate::trace::Location;
use serde::{Deserialize, Serialize};

/// One fact about one engine at a divergence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    /// The engine's own break positions (CDP's `Debugger.getPossibleBreakpoints`, Firefox's
    /// `getBreakpointPositionsCompressed`) from the requested place (a line's start where the
    /// action gave no column) to where the engine placed the breakpoint, both included, in
    /// the order the engine reaches them. That is the source's order, except on V8, which
    /// slides to the first position of its bytecode at or after the request: there a
    /// construct V8 runs out of the source's order (a `switch`'s tests before its bodies, a
    /// loop head's iterable before its binding, a `for`'s body before its update:
    /// `morphtrace_syntax::js::order`) is listed in V8's order, and the range goes on to the
    /// construct's end, where a position later in the source may come first. A breakpoint the
    /// engine slid by its own rule lies on the first of its positions from the request on (V8
    /// also slides back to a function's return, with none between); one placed elsewhere was
    /// not slid by the engine's own rule, whatever another engine did.
    BreakPositions {
        engine: EngineRef,
        requested: Location,
        positions: Vec<Location>,
    },
    /// A triage rule excused the divergence (by design, a representation) but the engines
    /// could not be brought back in step past it: `why`, with what was tried. The excuse's
    /// account (the same run, shown or paused apart) did not hold, so no excusing rule judges
    /// the divergence: it stays new.
    OutOfStep { why: String },
}

impl Fact {
    /// The engine the fact is about; `None` for a fact about the session.
    pub fn engine(&self) -> Option<EngineRef> {
        match self {
            Fact::BreakPositions { engine, .. } => Some(*engine),
            Fact::OutOfStep { .. } => None,
        }
    }
}

/// Why the engines could not be brought back in step past the divergence, if they could not.
pub fn out_of_step(facts: &[Fact]) -> Option<&str> {
    facts.iter().find_map(|f| match f {
        Fact::OutOfStep { why } => Some(why.as_str()),
        _ => None,
    })
}

/// A breakpoint's placement on one engine as a triage rule sees it: where the engine said it
/// placed it and, where the engine can say, its own break positions from the requested place to
/// that placement (`Fact::BreakPositions`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// The engine's label (`chromium@156.0.8078.108`).
    pub engine: String,
    /// Where it placed the breakpoint (empty: nowhere).
    #[serde(default)]
    pub placed: Vec<Location>,
    /// Whether the engine was asked for its break positions (its protocol has the query).
    #[serde(default)]
    pub asked: bool,
    /// Where the breakpoint was requested (asked engines).
    #[serde(default)]
    pub requested: Location,
    /// Its own break positions from the request to the placement, both included, in the order
    /// the engine reaches them (`Fact::BreakPositions`).
    #[serde(default)]
    pub positions: Vec<Location>,
}

impl Placement {
    /// Placed where the engine's own break positions allow a slide from the request: forward,
    /// on the request itself where it is a position, else on the first position after it in
    /// the order listed (the engine's: V8's bytecode order, see `Fact::BreakPositions`); back
    /// (V8 to a function's return), on a position with none strictly between it and the
    /// request. Nowhere: nothing to contradict. `None`: the engine could not say.
    pub fn as_own_positions_say(&self) -> Option<bool> {
        if !self.asked {
            return None;
        }
        let Some(&p) = self.placed.first() else {
            return Some(true);
        };
        let r = self.requested;
        if p >= r {
            let first = if self.positions.contains(&r) {
                Some(r)
            } else {
                self.positions.iter().copied().find(|q| *q >= r)
            };
            return Some(first == Some(p));
        }
        Some(self.positions.contains(&p) && !self.positions.iter().any(|q| p < *q && *q < r))
    }
}

/// The placements of `engines` only: a two-engine view (a pair of a three-way divergence).
pub fn of_engines(placements: &[Placement], engines: &[String]) -> Vec<Placement> {
    placements
        .iter()
        .filter(|p| engines.contains(&p.engine))
        .cloned()
        .collect()
}

/// Each side's placement at a breakpoint-location divergence, with the facts asked of its
/// engine: the one way the recorder (live) and the analyzer (from an archive) make them.
/// `sides`: each side's engine and where its output placed the breakpoint (`None`: it placed
/// none, e.g. refused); `label`: an engine's label as rules name it. Empty when no side placed
/// a breakpoint.
pub fn placements<'a>(
    sides: impl IntoIterator<Item = (EngineRef, Option<&'a [Location]>)>,
    facts: &[Fact],
    label: impl Fn(EngineRef) -> String,
) -> Vec<Placement> {
    let sides: Vec<_> = sides.into_iter().collect();
    if sides.iter().all(|(_, placed)| placed.is_none()) {
        return Vec::new();
    }
    sides
        .into_iter()
        .map(|(engine, placed)| {
            let asked = facts.iter().find_map(|f| match f {
                Fact::BreakPositions {
                    engine: e,
                    requested,
                    positions,
                } if *e == engine => Some((*requested, positions.clone())),
                _ => None,
            });
            let (requested, positions) = asked.clone().unwrap_or_default();
            Placement {
                engine: label(engine),
                placed: placed.map(<[Location]>::to_vec).unwrap_or_default(),
                asked: asked.is_some(),
                requested,
                positions,
            }
        })
        .collect()
}

/// Whether the sides' call stacks (each side's function names, top first) have one depth and
/// differ only in the top frame's name: what a naming difference of the paused function looks
/// like, where a frame lost, added or named otherwise below the top is something else. Derived
/// from the recorded pauses (archives of any age have them). `false` with fewer than two stacks.
pub fn only_the_top_frame_differs<S: AsRef<str>>(stacks: &[Vec<S>]) -> bool {
    let Some((first, rest)) = stacks.split_first() else {
        return false;
    };
    let names = |v: &[S]| {
        v.iter()
            .skip(1)
            .map(|s| s.as_ref().to_string())
            .collect::<Vec<_>>()
    };
    !rest.is_empty()
        && !first.is_empty()
        && rest
            .iter()
            .all(|s| s.len() == first.len() && names(s) == names(first))
        && rest.iter().any(|s| s[0].as_ref() != first[0].as_ref())
}
