//! Helpers shared by the workspace's integration tests.

use morphtrace_schema::{ArchiveReader, Session, SessionId};
use std::collections::BTreeMap;
use std::path::Path;

/// Sessions by id with everything time-dependent zeroed: what must be equal when a campaign is
/// recorded twice from the same seeds.
pub fn normalized(path: &Path) -> BTreeMap<SessionId, Session> {
    let r = ArchiveReader::open(path).unwrap();
    r.sessions()
        .map(|s| {
            let mut s = s.unwrap();
            s.started_at_ms = 0;
            s.duration_us = 0;
            for t in &mut s.traces {
                for e in &mut t.events {
                    e.at_us = 0;
                }
            }
            (s.id, s)
        })
        .collect()
}

/// A trace's events without their times: what a replay on the same engine must reproduce.
#[allow(dead_code)] // each test crate compiles this module; not all of them replay
pub fn events(t: &morphtrace_schema::Trace) -> Vec<morphtrace_schema::EventKind> {
    t.events.iter().map(|e| e.kind.clone()).collect()
}
