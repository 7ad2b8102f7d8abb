//! Archive reader: seeks by index after a clean close, scans otherwise, and recovers what a
//! torn or corrupt file still holds, reporting exactly what it dropped.

use super::frame::{
    self, parse_frame_header, parse_prelude, parse_trailer, FrameHeader, FrameKind,
    FRAME_HEADER_LEN, FRAME_MAGIC, PRELUDE_LEN, TRAILER_LEN,
};
use super::{ArchiveError, Index, FORMAT_VERSION};
use crate::header::{ArchiveHeader, FormatVersion};
use crate::program::{Program, ProgramHash};
use crate::session::{Session, SessionId};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// A stretch of the file that did not yield a frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DroppedRange {
    pub offset: u64,
    pub len: u64,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum IndexStatus {
    /// Closed cleanly; frames located through the index.
    Used,
    /// No trailer: the writer has not finished (still running, or killed). Frames were scanned.
    Missing,
    /// A trailer exists but does not match the file; frames were scanned.
    Invalid(String),
}

/// What a reader found, kept and dropped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryReport {
    pub file_len: u64,
    pub format: FormatVersion,
    pub index: IndexStatus,
    pub sessions_kept: usize,
    pub programs_kept: usize,
    pub dropped: Vec<DroppedRange>,
}

impl RecoveryReport {
    /// No byte of the file was lost (an unfinished archive is healthy if every frame is intact).
    pub fn is_intact(&self) -> bool {
        self.dropped.is_empty()
    }

    pub fn dropped_bytes(&self) -> u64 {
        self.dropped.iter().map(|d| d.len).sum()
    }
}

impl fmt::Display for RecoveryReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let index = match &self.index {
            IndexStatus::Used => "index used (closed cleanly)".to_string(),
            IndexStatus::Missing => "no index (writer did not finish); frames scanned".to_string(),
            IndexStatus::Invalid(why) => format!("index invalid ({why}); frames scanned"),
        };
        write!(
            f,
            "{index}; kept {} sessions and {} programs",
            self.sessions_kept, self.programs_kept
        )?;
        if self.dropped.is_empty() {
            write!(f, "; nothing dropped")
        } else {
            write!(
                f,
                "; dropped {} bytes in {} range(s):",
                self.dropped_bytes(),
                self.dropped.len()
            )?;
            for d in &self.dropped {
                write!(
                    f,
                    "\n  bytes {}..{}: {}",
                    d.offset,
                    d.offset + d.len,
                    d.reason
                )?;
            }
            Ok(())
        }
    }
}

/// Where a session frame is, and what the index says of it (nothing, when frames were scanned).
#[derive(Debug, Clone)]
pub struct SessionFrame {
    pub offset: u64,
    pub id: Option<SessionId>,
    pub mode: Option<String>,
    pub outcome: Option<String>,
    pub events: u32,
}

pub struct ArchiveReader {
    data: Vec<u8>,
    path: Option<PathBuf>,
    header: ArchiveHeader,
    programs: HashMap<ProgramHash, Program>,
    program_offsets: Vec<(ProgramHash, u64)>,
    sessions: Vec<SessionFrame>,
    /// Offsets of `FrameKind::Executions` frames, in file order.
    executions: Vec<u64>,
    by_id: HashMap<SessionId, usize>,
    data_end: u64,
    recovery: RecoveryReport,
}

struct Located {
    offset: u64,
    header: FrameHeader,
}

impl ArchiveReader {
    pub fn open(path: impl AsRef<Path>) -> Result<ArchiveReader, ArchiveError> {
        let path = path.as_ref();
        let data = std::fs::read(path).map_err(|error| ArchiveError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        let mut r = ArchiveReader::from_bytes(data)?;
        r.path = Some(path.to_path_buf());
        Ok(r)
    }

    /// Reads an archive held in memory. Never panics, whatever the bytes.
    pub fn from_bytes(data: Vec<u8>) -> Result<ArchiveReader, ArchiveError> {
        let format = parse_prelude(&data)?;
        if format.major > FORMAT_VERSION.major {
            return Err(ArchiveError::NewerFormat {
                found: format,
                supported: FORMAT_VERSION.major,
            });
        }
        let mut dropped = Vec::new();
        let (frames, index_status, data_end) = match locate_by_index(&data) {
            Ok(Some(found)) => (found.0, IndexStatus::Used, found.1),
            Ok(None) => {
                let (f, end) = scan(&data, &mut dropped);
                (f, IndexStatus::Missing, end)
            }
            Err(why) => {
                let (f, end) = scan(&data, &mut dropped);
                (f, IndexStatus::Invalid(why), end)
            }
        };
        let first = frames
            .first()
            .filter(|f| f.offset == PRELUDE_LEN as u64 && f.header.kind == FrameKind::Header as u8)
            .ok_or_else(|| {
                ArchiveError::HeaderUnreadable("the first frame is missing or damaged".into())
            })?;
        let header: ArchiveHeader = frame::decode_payload(&first.header, &data[PRELUDE_LEN..])
            .map_err(ArchiveError::HeaderUnreadable)?;

        let mut programs = HashMap::new();
        let mut program_offsets = Vec::new();
        let mut sessions = Vec::new();
        let mut executions = Vec::new();
        for f in &frames[1..] {
            match FrameKind::from_u8(f.header.kind) {
                Some(FrameKind::Program) => {
                    let at = &data[f.offset as usize..];
                    match frame::decode_payload::<Program>(&f.header, at) {
                        Ok(p) => {
                            program_offsets.push((p.hash, f.offset));
                            programs.insert(p.hash, p);
                        }
                        Err(e) => dropped.push(DroppedRange {
                            offset: f.offset,
                            len: f.header.total_len() as u64,
                            reason: format!("program frame does not decode: {e}"),
                        }),
                    }
                }
                Some(FrameKind::Session) => sessions.push(SessionFrame {
                    offset: f.offset,
                    id: None,
                    mode: None,
                    outcome: None,
                    events: 0,
                }),
                Some(FrameKind::Executions) => executions.push(f.offset),
                // A stray header or index frame in the data (e.g. a duplicated header) carries no data.
                _ => {}
            }
        }
        let mut by_id = HashMap::new();
        if index_status == IndexStatus::Used {
            if let Ok(Some(index)) = read_index(&data) {
                let mut at: HashMap<u64, usize> = HashMap::new();
                for (i, s) in sessions.iter().enumerate() {
                    at.insert(s.offset, i);
                }
                for e in index.entries {
                    if let (Some(&i), Some(id)) = (at.get(&e.offset), e.session) {
                        let s = &mut sessions[i];
                        s.id = Some(id);
                        s.mode = e.mode;
                        s.outcome = e.outcome;
                        s.events = e.events;
                        by_id.insert(id, i);
                    }
                }
            }
        }
        let recovery = RecoveryReport {
            file_len: data.len() as u64,
            format,
            index: index_status,
            sessions_kept: sessions.len(),
            programs_kept: programs.len(),
            dropped,
        };
        Ok(ArchiveReader {
            data,
            path: None,
            header,
            programs,
            program_offsets,
            sessions,
            executions,
            by_id,
            data_end,
            recovery,
        })
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    pub fn header(&self) -> &ArchiveHeader {
        &self.header
    }

    pub fn recovery(&self) -> &RecoveryReport {
        &self.recovery
    }

    pub fn programs(&self) -> &HashMap<ProgramHash, Program> {
        &self.programs
    }

    pub fn program(&self, hash: &ProgramHash) -> Option<&Program> {
        self.programs.get(hash)
    }

    pub(crate) fn program_offsets(&self) -> Vec<(ProgramHash, u64)> {
        self.program_offsets.clone()
    }

    /// End of the last intact data frame: where an appending writer continues.
    pub(crate) fn data_end(&self) -> u64 {
        self.data_end
    }

    /// Offsets of the archive's execution frames (GenMorph), in file order.
    pub fn execution_offsets(&self) -> &[u64] {
        &self.executions
    }

    pub fn execution_count(&self) -> usize {
        self.executions.len()
    }

    /// Decodes the `i`-th execution frame.
    pub fn executions(&self, i: usize) -> Result<crate::genmorph::ExecutionBatch, ArchiveError> {
        let offset = *self.executions.get(i).ok_or_else(|| ArchiveError::Frame {
            offset: 0,
            reason: format!("no execution frame number {i}"),
        })?;
        let at = &self.data[offset as usize..];
        let header = parse_frame_header(at).ok_or_else(|| ArchiveError::Frame {
            offset,
            reason: "frame header damaged".into(),
        })?;
        frame::decode_payload(&header, at).map_err(|reason| ArchiveError::Frame {
            offset,
            reason: format!("execution frame does not decode: {reason}"),
        })
    }

    pub fn session_frames(&self) -> &[SessionFrame] {
        &self.sessions
    }

    pub fn session_count(&self) -> usize {
        self.sessions.len()
    }

    /// Decodes the `i`-th session frame.
    pub fn session(&self, i: usize) -> Result<Session, ArchiveError> {
        self.session_as(i)
    }

    /// Decodes the `i`-th session frame into another view of a session, e.g.
    /// `crate::summary::SessionSummary`, which skips variables.
    pub fn session_as<T: serde::de::DeserializeOwned>(&self, i: usize) -> Result<T, ArchiveError> {
        let sf = self.sessions.get(i).ok_or_else(|| ArchiveError::Frame {
            offset: 0,
            reason: format!("no session number {i}"),
        })?;
        let at = &self.data[sf.offset as usize..];
        let header = parse_frame_header(at).ok_or_else(|| ArchiveError::Frame {
            offset: sf.offset,
            reason: "frame header damaged".into(),
        })?;
        frame::decode_payload(&header, at).map_err(|reason| ArchiveError::Frame {
            offset: sf.offset,
            reason: format!("session frame does not decode: {reason}"),
        })
    }

    /// Finds a session by id: through the index when the archive was closed cleanly, by decoding otherwise.
    pub fn session_by_id(&self, id: SessionId) -> Option<Session> {
        if let Some(&i) = self.by_id.get(&id) {
            return self.session(i).ok();
        }
        if self.recovery.index == IndexStatus::Used {
            return None;
        }
        self.sessions().filter_map(Result::ok).find(|s| s.id == id)
    }

    /// Sessions in file order; a frame that does not decode yields an error and iteration goes on.
    pub fn sessions(&self) -> impl Iterator<Item = Result<Session, ArchiveError>> + '_ {
        (0..self.sessions.len()).map(move |i| self.session(i))
    }

    /// Sessions decoded on all of rayon's threads, in file order when collected.
    pub fn par_sessions(
        &self,
    ) -> impl IndexedParallelIterator<Item = Result<Session, ArchiveError>> + '_ {
        (0..self.sessions.len())
            .into_par_iter()
            .map(move |i| self.session(i))
    }
}

fn read_index(data: &[u8]) -> Result<Option<Index>, String> {
    if data.len() < PRELUDE_LEN + TRAILER_LEN {
        return Ok(None);
    }
    let Some((offset, _frames)) = parse_trailer(&data[data.len() - TRAILER_LEN..]) else {
        return Ok(None);
    };
    let at = usize::try_from(offset)
        .ok()
        .filter(|&o| o >= PRELUDE_LEN && o < data.len() - TRAILER_LEN)
        .ok_or("index offset outside the file")?;
    let h = parse_frame_header(&data[at..]).ok_or("index frame header damaged")?;
    if h.kind != FrameKind::Index as u8 || at + h.total_len() + TRAILER_LEN != data.len() {
        return Err("index frame does not end where the trailer begins".into());
    }
    if crc32fast::hash(&data[at + FRAME_HEADER_LEN..at + h.total_len()]) != h.payload_crc {
        return Err("index frame checksum mismatch".into());
    }
    frame::decode_payload(&h, &data[at..]).map(Some)
}

/// Locates frames through the index. `Ok(None)`: no trailer. `Err`: trailer present but unusable.
fn locate_by_index(data: &[u8]) -> Result<Option<(Vec<Located>, u64)>, String> {
    let Some(index) = read_index(data)? else {
        return Ok(None);
    };
    let mut frames = Vec::with_capacity(index.entries.len());
    let mut end = PRELUDE_LEN as u64;
    for e in &index.entries {
        let at = usize::try_from(e.offset)
            .ok()
            .filter(|&o| o < data.len())
            .ok_or_else(|| format!("entry at {} is outside the file", e.offset))?;
        let h = parse_frame_header(&data[at..])
            .ok_or_else(|| format!("no intact frame at {}", e.offset))?;
        let stop = at + h.total_len();
        if stop > data.len()
            || h.kind != e.kind
            || crc32fast::hash(&data[at + FRAME_HEADER_LEN..stop]) != h.payload_crc
        {
            return Err(format!("frame at {} does not match the index", e.offset));
        }
        end = end.max(stop as u64);
        frames.push(Located {
            offset: e.offset,
            header: h,
        });
    }
    frames.sort_by_key(|f| f.offset);
    Ok(Some((frames, end)))
}

/// Walks the file frame by frame, verifying both checksums; after damage, resynchronizes on the
/// next intact frame header. Returns the intact frames and the end of the last data frame.
fn scan(data: &[u8], dropped: &mut Vec<DroppedRange>) -> (Vec<Located>, u64) {
    let mut frames = Vec::new();
    let mut pos = PRELUDE_LEN;
    let mut data_end = PRELUDE_LEN as u64;
    let len = data.len();
    while pos < len {
        if pos + TRAILER_LEN == len && parse_trailer(&data[pos..]).is_some() {
            break;
        }
        match parse_frame_header(&data[pos..]) {
            Some(h) if pos + h.total_len() <= len => {
                let stop = pos + h.total_len();
                if crc32fast::hash(&data[pos + FRAME_HEADER_LEN..stop]) == h.payload_crc {
                    if h.kind != FrameKind::Index as u8 {
                        data_end = stop as u64;
                        frames.push(Located {
                            offset: pos as u64,
                            header: h,
                        });
                    }
                } else {
                    dropped.push(DroppedRange {
                        offset: pos as u64,
                        len: h.total_len() as u64,
                        reason: format!(
                            "{} frame checksum mismatch (corrupt payload)",
                            kind_name(h.kind)
                        ),
                    });
                }
                pos = stop;
            }
            Some(h) => {
                dropped.push(DroppedRange {
                    offset: pos as u64,
                    len: (len - pos) as u64,
                    reason: format!(
                        "truncated {} frame: {} of {} bytes present (torn write)",
                        kind_name(h.kind),
                        len - pos,
                        h.total_len()
                    ),
                });
                break;
            }
            None => {
                let next = next_frame(data, pos + 1);
                let stop = next.unwrap_or(len);
                let reason = if next.is_none() && len - pos < FRAME_HEADER_LEN {
                    "truncated frame header (torn write)".to_string()
                } else if next.is_none() {
                    "damaged bytes up to the end of the file".to_string()
                } else {
                    "damaged frame header; resynchronized on the next frame".to_string()
                };
                dropped.push(DroppedRange {
                    offset: pos as u64,
                    len: (stop - pos) as u64,
                    reason,
                });
                pos = stop;
            }
        }
    }
    (frames, data_end)
}

/// The next offset at or after `from` that holds an intact frame header (or a final trailer).
fn next_frame(data: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i + 4 <= data.len() {
        let rel = data[i..]
            .windows(4)
            .position(|w| w == FRAME_MAGIC || w == b"MTIX")?;
        let at = i + rel;
        if parse_frame_header(&data[at..]).is_some()
            || (at + TRAILER_LEN == data.len() && parse_trailer(&data[at..]).is_some())
        {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

fn kind_name(kind: u8) -> &'static str {
    match FrameKind::from_u8(kind) {
        Some(FrameKind::Header) => "header",
        Some(FrameKind::Program) => "program",
        Some(FrameKind::Session) => "session",
        Some(FrameKind::Index) => "index",
        Some(FrameKind::Executions) => "executions",
        None => "unknown",
    }
}
