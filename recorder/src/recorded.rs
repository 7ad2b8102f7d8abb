//! A recorded session read back to act on it (`replay`, `reduce`, `bisect`): the session a
//! `--session` argument names, its k-th divergence, its engines, and what it was recorded under
//! (capture options, triage), so that a rerun differs from the recording only where asked.

use crate::debugger::CaptureOptions;
use morphtrace_judges::triage::{Triage, TriageError};
use morphtrace_schema::archive::ArchiveError;
use morphtrace_schema::{ArchiveHeader, ArchiveReader, Divergence, EngineDescriptor, Session};
use std::path::Path;
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum RecordedError {
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    #[error("no session {id} in {archive}")]
    NoSession { id: String, archive: String },
    #[error("--session: 16 hex digits or a position, not {0:?}")]
    SessionArg(String),
    #[error("session {session} did not diverge ({outcome}): {why}")]
    NotDiverged {
        session: String,
        outcome: String,
        why: String,
    },
    #[error("session {session} has no divergence {k} (it has {count}; 0 is the first)")]
    NoDivergence {
        session: String,
        k: usize,
        count: usize,
    },
    #[error("the session names engine {0}, which the archive's header lacks")]
    NoEngine(u16),
    #[error("program {0} is not in the archive")]
    NoProgram(String),
    #[error("the triage the archive recorded: {0}")]
    Triage(#[from] TriageError),
}

/// Opens an archive to act on; a damaged one is read as far as it is intact, and said so.
pub fn open(archive: &Path) -> Result<ArchiveReader, RecordedError> {
    let reader = ArchiveReader::open(archive)?;
    if !reader.recovery().is_intact() {
        tracing::warn!("{}: {}", archive.display(), reader.recovery());
    }
    Ok(reader)
}

/// The session `--session` names: its id (16 hex digits) or its position in the archive.
pub fn session(
    reader: &ArchiveReader,
    arg: &str,
    archive: &Path,
) -> Result<Session, RecordedError> {
    match u64::from_str_radix(arg, 16) {
        Ok(id) if arg.len() == 16 => reader
            .session_by_id(morphtrace_schema::SessionId(id))
            .ok_or_else(|| RecordedError::NoSession {
                id: arg.to_string(),
                archive: archive.display().to_string(),
            }),
        _ => {
            let i: usize = arg
                .parse()
                .map_err(|_| RecordedError::SessionArg(arg.to_string()))?;
            Ok(reader.session(i)?)
        }
    }
}

/// Divergence `k` of `session` (0: its first), or why there is none (`why`: what the command
/// needs).
pub fn divergence(session: &Session, k: usize, why: &str) -> Result<Divergence, RecordedError> {
    let all = session.all_divergences();
    if all.is_empty() {
        return Err(RecordedError::NotDiverged {
            session: session.id.to_string(),
            outcome: session.outcome.name().to_string(),
            why: why.to_string(),
        });
    }
    all.get(k).cloned().ok_or(RecordedError::NoDivergence {
        session: session.id.to_string(),
        k,
        count: all.len(),
    })
}

/// The engines a session ran, as the header describes them, in the session's order.
pub fn engines<'h>(
    header: &'h ArchiveHeader,
    session: &Session,
) -> Result<Vec<&'h EngineDescriptor>, RecordedError> {
    session
        .engines
        .iter()
        .map(|e| {
            header
                .engines
                .get(e.0 as usize)
                .ok_or(RecordedError::NoEngine(e.0))
        })
        .collect()
}

/// The triage an archive's campaign went on under (`lockstep.triage.text`), if it recorded one.
pub fn triage(header: &ArchiveHeader) -> Result<Option<Triage>, RecordedError> {
    Ok(
        morphtrace_judges::triage::recorded(header, Path::new("the archive's lockstep.triage"))
            .transpose()?,
    )
}

/// How long the recording waited for one action's answer (the campaign's parameter).
pub fn action_timeout(header: &ArchiveHeader) -> Duration {
    CaptureOptions::recorded(header, &[]).action_timeout
}
