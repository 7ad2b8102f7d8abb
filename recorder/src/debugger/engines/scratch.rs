//! A browser's profile directory, removed when the browser goes.
//!
//! A browser that was killed (a hung program, a crash, the memory bound, a launch that never
//! came up) leaves helpers that may still write into its profile for a moment after the
//! browser itself is gone: a plain `remove_dir_all` then fails on a directory that is not empty
//! yet, and the profile stayed in TMPDIR (seen once in a fresh-clone CI run of the hostile
//! programs under Chromium). Removal is tried again until the helpers are quiet.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long removal keeps trying. Helpers left by a killed browser die with it (their parent's
/// death, or the recorder's wait on them) within a second or two on an idle machine; 3 s was
/// not enough once, in a fresh-clone CI run of the hostile programs under Chromium on a machine
/// busy with other campaigns (the profile stayed). Paid only after a browser that did not end
/// cleanly.
const PATIENCE: Duration = Duration::from_secs(10);

pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    /// A new directory in TMPDIR whose name starts with `prefix`.
    pub fn new(prefix: &str) -> std::io::Result<Scratch> {
        let dir = tempfile::Builder::new().prefix(prefix).tempdir()?;
        Ok(Scratch { path: dir.keep() })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            match std::fs::remove_dir_all(&self.path) {
                Ok(()) => return,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
                Err(e) if std::time::Instant::now() >= deadline => {
                    tracing::warn!("could not remove {}: {e}", self.path.display());
                    return;
                }
                // Blocking on purpose: a drop cannot await, and this wait is only ever paid
                // after a browser that did not end cleanly.
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }
}
