//! The `.mtrace` archive: the contract between recorder and analyzer (docs/design.md §5).
//!
//! Layout (all integers little-endian):
//!
//! ```text
//! prelude   "MTRACE\r\n" major:u16 minor:u16 reserved:u32                      16 bytes
//! frame*    "MTFR" kind:u8 codec:u8 flags:u16 payload_len:u32 raw_len:u32
//!           payload_crc:u32 header_crc:u32                                       24 bytes
//!           payload: zstd(MessagePack(value))                                    payload_len bytes
//! trailer   "MTIX" reserved:u32 index_offset:u64 frames:u32 crc:u32              24 bytes, clean close only
//! ```
//!
//! The first frame is the header; program frames precede the first session that needs them;
//! each session is its own frame, so every frame is independently decodable and a torn write
//! can only damage the last one. On a clean close an index frame and the trailer are appended,
//! and readers then seek by index instead of scanning. The header CRC lets a reader find the next
//! frame after a damaged one by scanning for the magic.

mod frame;
mod reader;
mod writer;

pub use frame::{FrameKind, FRAME_HEADER_LEN, PRELUDE_LEN, TRAILER_LEN};
pub use reader::{ArchiveReader, DroppedRange, IndexStatus, RecoveryReport, SessionFrame};
pub use writer::{ArchiveWriter, Encoding, FsyncPolicy, ResumeInfo, WriterOptions};

use crate::header::FormatVersion;
use crate::program::ProgramHash;
use crate::session::SessionId;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

pub use crate::header::FORMAT_VERSION;

/// The conventional file extension.
pub const EXTENSION: &str = "mtrace";

#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    // The OS error is part of the message, not a `source`: printing the chain would repeat it.
    #[error("{}: {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("empty file: no archive was ever written to it")]
    Empty,
    #[error("not a morphtrace archive (no MTRACE prelude)")]
    NotAnArchive,
    #[error("archive is {len} bytes, shorter than the {PRELUDE_LEN}-byte prelude")]
    TooShort { len: u64 },
    #[error("archive format {found} is newer than this build reads (up to {supported}.x); upgrade morphtrace")]
    NewerFormat {
        found: FormatVersion,
        supported: u16,
    },
    #[error("archive header is unreadable: {0}")]
    HeaderUnreadable(String),
    #[error("frame at byte {offset}: {reason}")]
    Frame { offset: u64, reason: String },
    #[error(
        "session {session} refers to program {program} which was not added to the archive first"
    )]
    UnknownProgram {
        session: SessionId,
        program: ProgramHash,
    },
    #[error("session {0} is already in the archive")]
    DuplicateSession(SessionId),
    #[error("cannot encode {what}: {reason}")]
    Encode { what: &'static str, reason: String },
    #[error("the writer failed earlier and was closed: {0}")]
    Poisoned(String),
}

/// One entry of the index frame written on clean close.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexEntry {
    pub offset: u64,
    pub kind: u8,
    pub session: Option<SessionId>,
    pub program: Option<ProgramHash>,
    pub mode: Option<String>,
    pub outcome: Option<String>,
    pub events: u32,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Index {
    pub entries: Vec<IndexEntry>,
}
