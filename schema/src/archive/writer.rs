//! Crash-safe, append-only archive writer.
//!
//! Durability policy: every `append` hands the whole frame to the kernel in one `write` before it
//! returns, so a recorder killed at any moment (SIGKILL, panic, OOM) leaves every appended session
//! readable. With `FsyncPolicy::EverySession` (the default) it also `fdatasync`s, so sessions
//! survive a power loss or kernel crash too; `FsyncPolicy::Never` leaves that to the OS and is
//! for bulk writers (benchmarks, generated archives) that can be re-created.

use super::frame::{self, FrameEncoder, FrameKind, PRELUDE_LEN};
use super::reader::{ArchiveReader, RecoveryReport};
use super::{ArchiveError, Index, IndexEntry, FORMAT_VERSION};
use crate::header::ArchiveHeader;
use crate::program::{Program, ProgramHash};
use crate::session::{Session, SessionId};
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FsyncPolicy {
    /// `fdatasync` after every session: survives power loss.
    EverySession,
    /// Only `write`: survives the process dying, not the machine.
    Never,
}

/// How structs are laid out in MessagePack. Both are read back transparently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Structs as maps with field names: readers of older minor versions skip fields they do
    /// not know, which is what makes adding optional fields a minor change.
    Named,
    /// Structs as arrays: smaller, but old readers reject structs with extra fields.
    Compact,
}

#[derive(Debug, Clone, Copy)]
pub struct WriterOptions {
    pub fsync: FsyncPolicy,
    pub zstd_level: i32,
    pub encoding: Encoding,
}

impl Default for WriterOptions {
    fn default() -> Self {
        WriterOptions {
            fsync: FsyncPolicy::EverySession,
            zstd_level: 3,
            encoding: Encoding::Named,
        }
    }
}

/// What an archive reopened for appending already holds.
#[derive(Debug)]
pub struct ResumeInfo {
    pub header: ArchiveHeader,
    pub sessions: HashSet<SessionId>,
    /// GenMorph subjects whose execution frame the archive holds (one that no longer decodes is
    /// not held: it is recorded again).
    pub subjects: HashSet<String>,
    pub recovery: RecoveryReport,
    /// Bytes of a torn or corrupt tail that were cut before appending.
    pub truncated_bytes: u64,
}

pub struct ArchiveWriter {
    file: File,
    path: PathBuf,
    pos: u64,
    opts: WriterOptions,
    encoder: FrameEncoder,
    buf: Vec<u8>,
    programs: HashSet<ProgramHash>,
    sessions: HashSet<SessionId>,
    index: Vec<IndexEntry>,
    poisoned: Option<String>,
}

impl ArchiveWriter {
    /// Creates a new archive; refuses to overwrite an existing file.
    pub fn create(
        path: impl AsRef<Path>,
        header: &ArchiveHeader,
        opts: WriterOptions,
    ) -> Result<ArchiveWriter, ArchiveError> {
        let path = path.as_ref().to_path_buf();
        let io = |error| ArchiveError::Io {
            path: path.clone(),
            error,
        };
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(io)?;
        let mut w = ArchiveWriter::with_file(file, path.clone(), opts)?;
        let mut header = header.clone();
        header.format = FORMAT_VERSION;
        w.buf.extend_from_slice(&frame::prelude(FORMAT_VERSION));
        w.encoder.encode(FrameKind::Header, &header, &mut w.buf)?;
        w.index.push(IndexEntry {
            offset: PRELUDE_LEN as u64,
            kind: FrameKind::Header as u8,
            session: None,
            program: None,
            mode: None,
            outcome: None,
            events: 0,
        });
        w.flush_buf(true)?;
        Ok(w)
    }

    /// Reopens an archive to append more sessions (`--resume`). A torn or corrupt tail left by a
    /// killed writer is cut; intact frames, wherever they are, are kept.
    pub fn open_append(
        path: impl AsRef<Path>,
        opts: WriterOptions,
    ) -> Result<(ArchiveWriter, ResumeInfo), ArchiveError> {
        let path = path.as_ref().to_path_buf();
        let reader = ArchiveReader::open(&path)?;
        let io = |error| ArchiveError::Io {
            path: path.clone(),
            error,
        };
        let file = OpenOptions::new().write(true).open(&path).map_err(io)?;
        let mut w = ArchiveWriter::with_file(file, path.clone(), opts)?;
        let mut sessions = HashSet::new();
        for (i, sf) in reader.session_frames().iter().enumerate() {
            // Sessions that no longer decode are not "had": the campaign records them again.
            let id = match sf.id {
                Some(id) => id,
                None => match reader.session(i) {
                    Ok(s) => s.id,
                    Err(_) => continue,
                },
            };
            sessions.insert(id);
            w.index.push(IndexEntry {
                offset: sf.offset,
                kind: FrameKind::Session as u8,
                session: Some(id),
                program: None,
                mode: sf.mode.clone(),
                outcome: sf.outcome.clone(),
                events: sf.events,
            });
        }
        w.index.insert(
            0,
            IndexEntry {
                offset: PRELUDE_LEN as u64,
                kind: FrameKind::Header as u8,
                session: None,
                program: None,
                mode: None,
                outcome: None,
                events: 0,
            },
        );
        for (hash, offset) in reader.program_offsets() {
            w.programs.insert(hash);
            w.index.push(IndexEntry {
                offset,
                kind: FrameKind::Program as u8,
                session: None,
                program: Some(hash),
                mode: None,
                outcome: None,
                events: 0,
            });
        }
        let subjects = (0..reader.execution_count())
            .filter_map(|i| reader.executions(i).ok())
            .map(|b| b.subject.name)
            .collect();
        for &offset in reader.execution_offsets() {
            w.index.push(IndexEntry {
                offset,
                kind: FrameKind::Executions as u8,
                session: None,
                program: None,
                mode: None,
                outcome: None,
                events: 0,
            });
        }
        w.index.sort_by_key(|e| e.offset);
        w.sessions = sessions.clone();
        // Append after the last intact data frame: this drops the old index and trailer (rewritten
        // on the next clean close) and any torn tail.
        let end = reader.data_end();
        let len = std::fs::metadata(&path).map_err(io)?.len();
        w.file.set_len(end).map_err(io)?;
        w.file.seek(SeekFrom::Start(end)).map_err(io)?;
        w.file.sync_data().map_err(io)?;
        w.pos = end;
        let info = ResumeInfo {
            header: reader.header().clone(),
            sessions,
            subjects,
            recovery: reader.recovery().clone(),
            truncated_bytes: len - end,
        };
        Ok((w, info))
    }

    fn with_file(file: File, path: PathBuf, opts: WriterOptions) -> Result<Self, ArchiveError> {
        Ok(ArchiveWriter {
            file,
            path,
            pos: 0,
            encoder: FrameEncoder::new(opts.zstd_level, opts.encoding == Encoding::Named)?,
            opts,
            buf: Vec::with_capacity(64 * 1024),
            programs: HashSet::new(),
            sessions: HashSet::new(),
            index: Vec::new(),
            poisoned: None,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn has_program(&self, hash: &ProgramHash) -> bool {
        self.programs.contains(hash)
    }

    pub fn has_session(&self, id: &SessionId) -> bool {
        self.sessions.contains(id)
    }

    pub fn session_count(&self) -> usize {
        self.sessions.len()
    }

    /// Stores a program once per archive. It becomes durable with the next `append`.
    /// Returns whether it was new.
    pub fn add_program(&mut self, program: &Program) -> Result<bool, ArchiveError> {
        self.check_poisoned()?;
        if self.programs.contains(&program.hash) {
            return Ok(false);
        }
        let offset = self.pos;
        self.encoder
            .encode(FrameKind::Program, program, &mut self.buf)?;
        self.flush_buf(false)?;
        self.programs.insert(program.hash);
        self.index.push(IndexEntry {
            offset,
            kind: FrameKind::Program as u8,
            session: None,
            program: Some(program.hash),
            mode: None,
            outcome: None,
            events: 0,
        });
        Ok(true)
    }

    /// Appends one completed session. When this returns `Ok`, the session survives the process
    /// being killed (and, with `FsyncPolicy::EverySession`, the machine losing power).
    pub fn append(&mut self, session: &Session) -> Result<(), ArchiveError> {
        self.check_poisoned()?;
        if self.sessions.contains(&session.id) {
            return Err(ArchiveError::DuplicateSession(session.id));
        }
        if let Some(missing) = session
            .referenced_programs()
            .into_iter()
            .find(|h| !self.programs.contains(h))
        {
            return Err(ArchiveError::UnknownProgram {
                session: session.id,
                program: missing,
            });
        }
        let offset = self.pos;
        self.encoder
            .encode(FrameKind::Session, session, &mut self.buf)?;
        self.flush_buf(self.opts.fsync == FsyncPolicy::EverySession)?;
        self.sessions.insert(session.id);
        self.index.push(IndexEntry {
            offset,
            kind: FrameKind::Session as u8,
            session: Some(session.id),
            program: Some(session.program),
            mode: Some(session.mode.name().to_string()),
            outcome: Some(session.outcome.name().to_string()),
            events: session.event_count() as u32,
        });
        Ok(())
    }

    /// Appends the recorded executions of one function (GenMorph), durable like a session.
    pub fn append_executions(
        &mut self,
        batch: &crate::genmorph::ExecutionBatch,
    ) -> Result<(), ArchiveError> {
        self.check_poisoned()?;
        batch.validate().map_err(|reason| ArchiveError::Encode {
            what: "executions",
            reason,
        })?;
        let offset = self.pos;
        self.encoder
            .encode(FrameKind::Executions, batch, &mut self.buf)?;
        self.flush_buf(self.opts.fsync == FsyncPolicy::EverySession)?;
        self.index.push(IndexEntry {
            offset,
            kind: FrameKind::Executions as u8,
            session: None,
            program: None,
            mode: Some("executions".into()),
            outcome: None,
            events: batch.inputs.len() as u32,
        });
        Ok(())
    }

    /// Writes the index and trailer and syncs: readers can then seek without scanning.
    pub fn finish(mut self) -> Result<u64, ArchiveError> {
        self.check_poisoned()?;
        let index_offset = self.pos;
        let index = Index {
            entries: std::mem::take(&mut self.index),
        };
        let frames = index.entries.len() as u32;
        self.encoder
            .encode(FrameKind::Index, &index, &mut self.buf)?;
        self.buf
            .extend_from_slice(&frame::trailer(index_offset, frames));
        self.flush_buf(true)?;
        Ok(self.pos)
    }

    fn check_poisoned(&self) -> Result<(), ArchiveError> {
        match &self.poisoned {
            Some(why) => Err(ArchiveError::Poisoned(why.clone())),
            None => Ok(()),
        }
    }

    /// One `write` per frame; on failure, cut the partial frame so the file stays well-formed.
    fn flush_buf(&mut self, sync: bool) -> Result<(), ArchiveError> {
        let res = self.file.write_all(&self.buf).and_then(|_| {
            if sync {
                self.file.sync_data()
            } else {
                Ok(())
            }
        });
        match res {
            Ok(()) => {
                self.pos += self.buf.len() as u64;
                self.buf.clear();
                Ok(())
            }
            Err(source) => {
                self.buf.clear();
                let cut = self
                    .file
                    .set_len(self.pos)
                    .and_then(|_| self.file.seek(SeekFrom::Start(self.pos)).map(|_| ()));
                if let Err(e) = cut {
                    self.poisoned =
                        Some(format!("{source}; cutting the partial frame failed: {e}"));
                }
                Err(ArchiveError::Io {
                    path: self.path.clone(),
                    error: source,
                })
            }
        }
    }
}
