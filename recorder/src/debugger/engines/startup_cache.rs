//! Firefox's start-up cache, made once per Firefox build and copied into each fresh profile.
//!
//! A fresh profile has no start-up cache, so every browser compiled all of its own front-end
//! JavaScript again: 0.55–0.75 s of the 2.8–3.9 s of CPU a headless Firefox 153 spent in its
//! first seconds here (docs/benchmarks.md, "Firefox's start, again"). The cache
//! (`startupCache/`: the bytecode of Firefox's own chrome and actor scripts, nothing of a page's)
//! is written by Firefox a few seconds after its first start; it is made here once in a profile
//! of its own that loads nothing but `about:blank`, kept in the recorder's cache directory, and
//! copied with `compatibility.ini` (the build it belongs to) into each new profile. Firefox
//! itself throws the cache away when `compatibility.ini` names another build, so a stale copy
//! costs a slow start, never a wrong one. Programs never run in the profile the cache is made
//! in, and nothing is ever copied back out of a session's profile.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// What Firefox writes last when it saves its start-up cache (about 5 s after start here).
const LAST_WRITTEN: &str = "scriptCache.bin";
/// How long the cache may take to appear.
const PATIENCE: Duration = Duration::from_secs(30);

/// Where the cache of the Firefox at `exe` is kept: one directory per executable path.
fn kept(exe: &Path) -> PathBuf {
    let path = exe.canonicalize().unwrap_or_else(|_| exe.to_path_buf());
    let key = crc32fast::hash(path.as_os_str().as_encoded_bytes());
    crate::cache_root()
        .join("firefox-startup")
        .join(format!("{key:08x}"))
}

/// When the Firefox at `exe` was installed: the newest of its executable and `libxul.so`.
fn installed(exe: &Path) -> Option<SystemTime> {
    let exe = exe.canonicalize().ok()?;
    let mut at = exe.metadata().ok()?.modified().ok()?;
    if let Some(xul) = exe.parent().map(|d| d.join("libxul.so")) {
        if let Ok(t) = xul.metadata().and_then(|m| m.modified()) {
            at = at.max(t);
        }
    }
    Some(at)
}

/// Whether a kept cache exists and is newer than the Firefox it was made by.
fn fresh(dir: &Path, exe: &Path) -> bool {
    let made = dir
        .join("compatibility.ini")
        .metadata()
        .and_then(|m| m.modified());
    match (made, installed(exe)) {
        (Ok(made), Some(installed)) => made >= installed && dir.join("startupCache").is_dir(),
        _ => false,
    }
}

/// How Firefox is started on a profile (the caller's own command line, so that the cache is
/// made by the Firefox the sessions run).
pub type Start = fn(&Path, &Path) -> tokio::process::Command;

/// Copies the kept start-up cache of the Firefox at `exe` into `profile`, making it first if
/// there is none (under a lock; a process that finds another making it goes on without). A
/// failure costs only the slow start: it is logged, never the launch's error.
pub async fn seed(profile: &Path, exe: &Path, user_js: &str, start: Start) {
    let dir = kept(exe);
    if !fresh(&dir, exe) {
        if let Err(e) = make(&dir, exe, user_js, start).await {
            tracing::warn!("Firefox's start-up cache: {e}; starting without it");
            return;
        }
    }
    if let Err(e) = copy_into(&dir, profile) {
        tracing::warn!("Firefox's start-up cache: copying it: {e}; starting without it");
    }
}

fn copy_into(dir: &Path, profile: &Path) -> std::io::Result<()> {
    std::fs::copy(
        dir.join("compatibility.ini"),
        profile.join("compatibility.ini"),
    )?;
    let to = profile.join("startupCache");
    std::fs::create_dir_all(&to)?;
    for f in std::fs::read_dir(dir.join("startupCache"))? {
        let f = f?;
        std::fs::copy(f.path(), to.join(f.file_name()))?;
    }
    Ok(())
}

/// Starts Firefox on a profile of its own until it has written its start-up cache, and keeps
/// the cache in `dir` (staged, then renamed into place).
async fn make(dir: &Path, exe: &Path, user_js: &str, start: Start) -> Result<(), String> {
    let parent = dir.parent().ok_or("no cache directory")?;
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let lock = std::fs::File::create(parent.join(".lock")).map_err(|e| e.to_string())?;
    if lock.try_lock().is_err() {
        return Err("another process is making it".into());
    }
    // Under the lock: another process may have made it meanwhile.
    if fresh(dir, exe) {
        return Ok(());
    }
    let profile = super::scratch::Scratch::new("morphtrace-firefox-startup-")
        .map_err(|e| format!("profile directory: {e}"))?;
    std::fs::write(profile.path().join("user.js"), user_js).map_err(|e| e.to_string())?;
    let mut child = start(exe, profile.path())
        .arg("about:blank")
        .spawn()
        .map_err(|e| format!("starting {}: {e}", exe.display()))?;
    let written = profile.path().join("startupCache").join(LAST_WRITTEN);
    let deadline = tokio::time::Instant::now() + PATIENCE;
    // Written when its size stays the same across two looks.
    let mut last = None;
    let outcome = loop {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let size = written.metadata().map(|m| m.len()).ok();
        if size.is_some() && size == last {
            break Ok(());
        }
        last = size;
        if !matches!(child.try_wait(), Ok(None)) {
            break Err("Firefox exited before writing it".to_string());
        }
        if tokio::time::Instant::now() > deadline {
            break Err(format!("not written within {} s", PATIENCE.as_secs()));
        }
    };
    let helpers = crate::child::helpers(&child);
    let _ = child.kill().await;
    crate::child::wait_exited(&helpers, Duration::from_secs(5)).await;
    outcome?;
    let staged = parent.join(format!(".staged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staged);
    std::fs::create_dir_all(&staged).map_err(|e| e.to_string())?;
    copy_into(profile.path(), &staged).map_err(|e| format!("keeping it: {e}"))?;
    let _ = std::fs::remove_dir_all(dir);
    std::fs::rename(&staged, dir).map_err(|e| format!("keeping it: {e}"))?;
    tracing::info!("Firefox's start-up cache kept in {}", dir.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cache made by an older Firefox than the one installed is not used; one made after it
    /// is, and only with its `startupCache` directory.
    #[test]
    fn a_kept_cache_is_fresh_only_when_made_after_its_firefox() {
        let root = tempfile::tempdir().unwrap();
        let exe = root.path().join("firefox");
        std::fs::write(&exe, "").unwrap();
        let dir = root.path().join("kept");
        std::fs::create_dir_all(&dir).unwrap();
        assert!(!fresh(&dir, &exe), "nothing kept yet");
        std::fs::write(dir.join("compatibility.ini"), "").unwrap();
        assert!(!fresh(&dir, &exe), "no startupCache directory");
        std::fs::create_dir_all(dir.join("startupCache")).unwrap();
        assert!(fresh(&dir, &exe));
        let later = SystemTime::now() + Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&exe)
            .unwrap()
            .set_modified(later)
            .unwrap();
        assert!(!fresh(&dir, &exe), "Firefox installed after the cache");
    }
}
