//! Replay (docs/design.md §6): the actions of recorded sessions re-issued on other engines or versions,
//! one task of the campaign runner per recorded session, linked to it.

use crate::corpus::{self, CorpusError, Loaded};
use crate::debugger::engines::EngineSpec;
use crate::task::{session_key, Plan, Task};
use morphtrace_schema::{ArchiveReader, ParentRef, SessionMode};
use std::collections::HashMap;
use std::path::Path;

/// What replaying an archive records.
pub struct Replayed {
    /// The recorded programs, written to `dir` for the engines.
    pub programs: Vec<Loaded>,
    pub tasks: Vec<Task>,
    /// Sessions that could not be decoded (skipped, with why).
    pub undecodable: Vec<String>,
}

/// One task per decodable session of `reader`, all `engines` in lockstep, re-issuing the actions
/// of the session's first trace; a resumed replay recognises its tasks by (engines, session, seed).
pub fn tasks(
    reader: &ArchiveReader,
    engines: &[EngineSpec],
    dir: &Path,
) -> Result<Replayed, CorpusError> {
    let all: Vec<usize> = (0..engines.len()).collect();
    let labels: Vec<String> = engines.iter().map(|e| e.to_string()).collect();
    let mut programs = Vec::new();
    let mut index = HashMap::new();
    let mut tasks = Vec::new();
    let mut undecodable = Vec::new();
    for s in reader.sessions() {
        let s = match s {
            Ok(s) => s,
            Err(e) => {
                undecodable.push(e.to_string());
                continue;
            }
        };
        let Some(program) = reader.program(&s.program) else {
            undecodable.push(format!(
                "session {}: its program is not in the archive",
                s.id
            ));
            continue;
        };
        let pi = *index.entry(s.program).or_insert_with(|| {
            programs.push(program.clone());
            programs.len() - 1
        });
        let actions: Vec<_> = s
            .traces
            .first()
            .map(|t| t.actions().cloned().collect())
            .unwrap_or_default();
        tasks.push(Task {
            id: session_key("replay", &labels, &s.id.to_string(), s.seed),
            program: pi,
            seed: s.seed,
            engines: all.clone(),
            plan: Plan::Replay { actions },
            mode: SessionMode::Replay,
            parent: Some(ParentRef {
                session: s.id,
                round: 0,
            }),
            notes: vec![("replay_of".into(), s.id.to_string())],
            chain: None,
        });
    }
    let programs = programs
        .into_iter()
        .map(|p| corpus::materialize(p, dir))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Replayed {
        programs,
        tasks,
        undecodable,
    })
}
