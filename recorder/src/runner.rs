//! What every campaign runner shares (random, differential, metamorphic and replay campaigns,
//! coverage campaigns, GenMorph recordings): the archive, opened new or resumed only with the
//! engines it was recorded with, and Ctrl-C, which stops taking tasks, lets the ones in flight
//! finish and closes the archive.

use morphtrace_schema::archive::{ArchiveError, ResumeInfo, WriterOptions};
use morphtrace_schema::{ArchiveHeader, ArchiveWriter, EngineDescriptor};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// Set by the first SIGINT of the process (a second one kills as usual).
#[derive(Clone)]
pub struct Interrupt(Arc<AtomicBool>);

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

extern "C" fn on_sigint(_: libc::c_int) {
    if let Some(s) = FLAG.get() {
        s.store(true, Ordering::SeqCst);
    }
    // SAFETY: restoring the default disposition is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

impl Interrupt {
    /// The process's flag, with the handler installed on first use. Works alike for worker
    /// threads and async tasks: the handler only stores to an atomic.
    pub fn install() -> Interrupt {
        let mut first = false;
        let flag = FLAG.get_or_init(|| {
            first = true;
            Arc::new(AtomicBool::new(false))
        });
        if first {
            // SAFETY: the handler only stores to an atomic and resets the disposition.
            unsafe {
                libc::signal(
                    libc::SIGINT,
                    on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t,
                );
            }
        }
        Interrupt(flag.clone())
    }

    pub fn requested(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("reopening {path} to resume: {source}")]
    Reopen { path: String, source: ArchiveError },
    #[error(
        "{path} was recorded with other engines ({engines}); resume with the same --engine list"
    )]
    OtherEngines { path: String, engines: String },
    #[error("creating {path} (use --resume to continue it): {source}")]
    Create { path: String, source: ArchiveError },
}

/// The same engine: kind, executable and version (a resumed campaign must not mix versions).
pub fn same_engine(a: &EngineDescriptor, b: &EngineDescriptor) -> bool {
    a.kind == b.kind && a.executable == b.executable && a.version == b.version
}

/// Opens `out`: with `resume` and an existing file, the archive to append to (a torn tail cut),
/// refused unless it was recorded with `header`'s engines; otherwise a new archive with `header`.
/// Returns the writer and, when resuming, what the archive already holds.
pub fn open_archive(
    out: &Path,
    resume: bool,
    header: &ArchiveHeader,
    options: WriterOptions,
) -> Result<(ArchiveWriter, Option<ResumeInfo>), OpenError> {
    let path = out.display().to_string();
    if resume && out.exists() {
        let (w, info) =
            ArchiveWriter::open_append(out, options).map_err(|source| OpenError::Reopen {
                path: path.clone(),
                source,
            })?;
        let recorded = &info.header.engines;
        if recorded.len() != header.engines.len()
            || !recorded
                .iter()
                .zip(&header.engines)
                .all(|(a, b)| same_engine(a, b))
        {
            return Err(OpenError::OtherEngines {
                path,
                engines: recorded
                    .iter()
                    .map(|e| e.label())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        if info.truncated_bytes > 0 {
            tracing::warn!(
                "cut {} bytes of a torn tail before resuming",
                info.truncated_bytes
            );
        }
        return Ok((w, Some(info)));
    }
    let w = ArchiveWriter::create(out, header, options)
        .map_err(|source| OpenError::Create { path, source })?;
    Ok((w, None))
}
