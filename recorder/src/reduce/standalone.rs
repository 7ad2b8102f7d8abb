//! A bundle's standalone reproducer run once, as its reader will run it, right after `reduce`
//! wrote it: a reproducer that does not show what morphtrace's own adapters showed is a fault of
//! ours (it once put a breakpoint's condition where Node's protocol ignores it), so `reduce`
//! says which it is instead of leaving the reader to find out.

use crate::child::{DieWithParent, WithoutAmbientNode};
use std::fmt;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// What the reproducer answered (its exit codes: 1 shows, 0 does not, 2 could not run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standalone {
    /// `reproduce.mjs` (JavaScript debuggers, run by Node) or `reproduce.sh` (native ones).
    pub script: &'static str,
    pub answer: Answer,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Shows,
    DoesNotShow,
    /// It could not run (its last line of output), or ran past the time given.
    Failed(String),
}

impl fmt::Display for Standalone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let script = self.script;
        match &self.answer {
            Answer::Shows => write!(f, "{script} shows it without morphtrace"),
            Answer::DoesNotShow => write!(
                f,
                "{script} does NOT show it (exit 0), though morphtrace's adapters did: a fault \
                 of the reproducer's, please report it"
            ),
            Answer::Failed(why) => write!(f, "{script} could not run: {why}"),
        }
    }
}

/// Runs the bundle's reproducer in `dir` (None when it has none): `reproduce.mjs` with `node`,
/// else `reproduce.sh` with `sh`, killing it and the engines it launched after `timeout`.
pub async fn check(dir: &Path, node: &Path, timeout: Duration) -> Option<Standalone> {
    let (runner, script) = if dir.join("reproduce.mjs").is_file() {
        (node, "reproduce.mjs")
    } else if dir.join("reproduce.sh").is_file() {
        (Path::new("sh"), "reproduce.sh")
    } else {
        return None;
    };
    let answer = run(dir, runner, script, timeout).await;
    Some(Standalone { script, answer })
}

async fn run(dir: &Path, runner: &Path, script: &str, timeout: Duration) -> Answer {
    let child = tokio::process::Command::new(runner)
        .arg(script)
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
        Err(e) => return Answer::Failed(format!("{}: {e}", runner.display())),
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
        Ok(Err(e)) => return Answer::Failed(e.to_string()),
        Err(_) => {
            // The engines it launched are its children: found while it still runs.
            if let Some(pid) = child.id() {
                for p in crate::child::descendants(pid) {
                    // SAFETY: kill takes no pointers.
                    unsafe { libc::kill(p as i32, libc::SIGKILL) };
                }
            }
            let _ = child.kill().await;
            return Answer::Failed(format!("it ran longer than {} s", timeout.as_secs()));
        }
    };
    match status.code() {
        Some(1) => Answer::Shows,
        Some(0) => Answer::DoesNotShow,
        code => {
            let said = match stderr {
                Some(t) => t.await.unwrap_or_default(),
                None => String::new(),
            };
            let last = said.lines().rev().find(|l| !l.trim().is_empty());
            Answer::Failed(format!(
                "exit {}{}",
                code.map_or("by a signal".to_string(), |c| c.to_string()),
                last.map(|l| format!(": {l}")).unwrap_or_default()
            ))
        }
    }
}
