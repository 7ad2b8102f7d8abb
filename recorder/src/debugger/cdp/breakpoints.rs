//! Our breakpoint ids against an engine's, and where each resolved: the book-keeping CDP and
//! the WebKit Inspector Protocol (same replies: `breakpointId`, `locations` or
//! `actualLocation`) share.

use super::session::location;
use morphtrace_schema::{BreakpointId, Location, LocationSource, Output};
use serde_json::Value as Json;
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct Breakpoints {
    engine: HashMap<BreakpointId, String>,
    ours: HashMap<String, BreakpointId>,
    at: HashMap<BreakpointId, Vec<Location>>,
    next: u32,
}

impl Breakpoints {
    /// Records the engine's reply to a set-breakpoint request (its locations in `script_id`
    /// only) and answers the output.
    pub fn set(&mut self, reply: &Json, script_id: &str, requested: Location) -> Output {
        let id = BreakpointId(self.next);
        self.next += 1;
        let engine_id = reply
            .get("breakpointId")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string();
        let actual: Vec<Location> = reply
            .get("locations")
            .and_then(Json::as_array)
            .cloned()
            .or_else(|| reply.get("actualLocation").map(|l| vec![l.clone()]))
            .into_iter()
            .flatten()
            .filter(|l| l.get("scriptId").and_then(Json::as_str) == Some(script_id))
            .map(|l| location(&l))
            .collect();
        self.ours.insert(engine_id.clone(), id);
        self.engine.insert(id, engine_id);
        self.at.insert(id, actual.clone());
        Output::BreakpointSet {
            id,
            requested,
            actual,
            source: LocationSource::EngineReported,
            policy: None,
        }
    }

    /// The engine's id of one of ours still set.
    pub fn engine_id(&self, id: BreakpointId) -> Option<String> {
        self.engine.get(&id).cloned()
    }

    pub fn removed(&mut self, id: BreakpointId) {
        self.engine.remove(&id);
        self.at.remove(&id);
    }

    /// Ours, from the engine's id.
    pub fn ours(&self, engine_id: &str) -> Option<BreakpointId> {
        self.ours.get(engine_id).copied()
    }

    /// Ours resolved at `at`, in order.
    pub fn resolved_at(&self, at: Location) -> Vec<BreakpointId> {
        let mut ids: Vec<BreakpointId> = self
            .at
            .iter()
            .filter(|(_, ls)| ls.contains(&at))
            .map(|(id, _)| *id)
            .collect();
        ids.sort();
        ids
    }

    /// The engine's ids of every breakpoint still set.
    pub fn engine_ids(&self) -> Vec<String> {
        self.engine.values().cloned().collect()
    }
}
