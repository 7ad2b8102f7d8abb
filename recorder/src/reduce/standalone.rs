//! A bundle's standalone reproducer run once, as its reader will run it, right after `reduce`
//! wrote it: a reproducer that does not show what morphtrace's own adapters showed is a fault of
//! ours (it once put a breakpoint's condition where Node's protocol ignores it), so `reduce`
//! says which it is instead of leaving the reader to find out.

use crate::child::{DieWithParent, WithoutAmbientNode};
use std::fmt;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// What `node reproduce.mjs` answered (its exit codes: 1 shows, 0 does not, 2 could not run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standalone {
    Shows,
    DoesNotShow,
    /// It could not run (its last line of output), or ran past the time given.
    Failed(String),
}

impl fmt::Display for Standalone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Standalone::Shows => write!(f, "reproduce.mjs shows it without morphtrace"),
            Standalone::DoesNotShow => write!(
                f,
                "reproduce.mjs does NOT show it (exit 0), though morphtrace's adapters did: a \
                 fault of the reproducer's, please report it"
            ),
            Standalone::Failed(why) => write!(f, "reproduce.mjs could not run: {why}"),
        }
    }
}

/// Runs `dir/reproduce.mjs` with `node` (None when the bundle has none), killing it and the
/// engines it launched after `timeout`.
pub async fn check(dir: &Path, node: &Path, timeout: Duration) -> Option<Standalone> {
    if !dir.join("reproduce.mjs").is_file() {
        return None;
    }
    let child = tokio::process::Command::new(node)
        .arg("reproduce.mjs")
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .die_with_parent()
        .without_ambient_node()
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return Some(Standalone::Failed(format!("{}: {e}", node.display()))),
    };
    let stderr = child.stderr.take().map(|mut e| {
        tokio::spawn(async move {
            let mut said = String::new();
            let _ = tokio::io::AsyncReadExt::read_to_string(&mut e, &mut said).await;
            said
        })
    });
    let status = match tokio::time::timeout(timeout, child.wait()).await {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return Some(Standalone::Failed(e.to_string())),
        Err(_) => {
            // The engines it launched are its children: found while it still runs.
            if let Some(pid) = child.id() {
                for p in crate::child::descendants(pid) {
                    // SAFETY: kill takes no pointers.
                    unsafe { libc::kill(p as i32, libc::SIGKILL) };
                }
            }
            let _ = child.kill().await;
            return Some(Standalone::Failed(format!(
                "it ran longer than {} s",
                timeout.as_secs()
            )));
        }
    };
    Some(match status.code() {
        Some(1) => Standalone::Shows,
        Some(0) => Standalone::DoesNotShow,
        code => {
            let said = match stderr {
                Some(t) => t.await.unwrap_or_default(),
                None => String::new(),
            };
            let last = said.lines().rev().find(|l| !l.trim().is_empty());
            Standalone::Failed(format!(
                "exit {}{}",
                code.map_or("by a signal".to_string(), |c| c.to_string()),
                last.map(|l| format!(": {l}")).unwrap_or_default()
            ))
        }
    })
}
