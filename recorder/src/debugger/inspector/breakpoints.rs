//! Our breakpoint ids against an engine's, and where each resolved: the book-keeping CDP and
//! the WebKit Inspector Protocol (same replies: `breakpointId`, `locations` or
//! `actualLocation`) share.

use super::session::location;
use super::{Connection, InspectorError};
use morphtrace_schema::{BreakpointId, Location, LocationSource, Output};
use serde_json::{json, Value as Json};
use std::collections::HashMap;
use std::time::Duration;

#[derive(Debug, Default)]
pub struct Breakpoints {
    engine: HashMap<BreakpointId, String>,
    ours: HashMap<String, BreakpointId>,
    at: HashMap<BreakpointId, Vec<Location>>,
    next: u32,
}

impl Breakpoints {
    /// The id the next breakpoint set will get (a logpoint names itself in what it logs).
    pub fn next_id(&self) -> BreakpointId {
        BreakpointId(self.next)
    }

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

    /// Removes one of ours (`Debugger.removeBreakpoint`, the same in both protocols): the
    /// output, or the connection's error when the engine did not answer.
    pub async fn remove(
        &mut self,
        conn: &Connection,
        sid: Option<&str>,
        id: BreakpointId,
        t: Duration,
    ) -> Result<Output, InspectorError> {
        let Some(engine_id) = self.engine.get(&id).cloned() else {
            return Ok(Output::BreakpointRemoved { id, ok: false });
        };
        let params = json!({"breakpointId": engine_id});
        match conn.call(sid, "Debugger.removeBreakpoint", params, t).await {
            Ok(_) => {
                self.engine.remove(&id);
                self.at.remove(&id);
                Ok(Output::BreakpointRemoved { id, ok: true })
            }
            Err(InspectorError::Protocol { .. }) => Ok(Output::BreakpointRemoved { id, ok: false }),
            Err(e) => Err(e),
        }
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
