//! V8 block coverage from a warm Node process (`harness.js`): many programs per process, each in
//! a fresh vm context, coverage taken over the in-process inspector (CDP
//! `Profiler.takePreciseCoverage`, call counts, block granularity).

use super::CoverageError;
use morphtrace_schema::{BlockRange, FunctionCoverage, ProgramRun};
use serde::Deserialize;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const HARNESS: &str = include_str!("harness.js");

/// Restart the process after this many programs: vm contexts and compiled scripts accumulate.
const RESTART_EVERY: usize = 400;

#[derive(Deserialize)]
struct Hello {
    node: String,
    v8: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Reply {
    id: i64,
    #[serde(default)]
    fatal: Option<String>,
    #[serde(default)]
    stdout: String,
    #[serde(default)]
    exit: i32,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    timed_out: bool,
    #[serde(default)]
    functions: Vec<V8Function>,
    #[serde(default)]
    counts: Option<Vec<i64>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct V8Function {
    function_name: String,
    ranges: Vec<V8Range>,
    is_block_coverage: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct V8Range {
    start_offset: u32,
    end_offset: u32,
    count: u64,
}

/// What one run gave.
#[derive(Debug, Clone)]
pub struct V8Run {
    pub run: ProgramRun,
    /// The uncaught exception, if any (first line of its stack).
    pub error: Option<String>,
    pub functions: Vec<FunctionCoverage>,
    /// Ground-truth counters, when the program was instrumented (`-1`: not a number anymore).
    pub counts: Option<Vec<i64>>,
}

/// One warm Node process.
pub struct V8Runner {
    node: PathBuf,
    dir: tempfile::TempDir,
    child: Option<(Child, ChildStdin, mpsc::Receiver<String>)>,
    served: usize,
    next_id: i64,
    pub version: String,
    pub v8_version: String,
    /// Whether the process runs under Node's permission model (Node >= 24 with --allow-inspector).
    pub permission_model: bool,
    /// Programs run after the determinism prelude (on unless turned off).
    pub prelude: bool,
}

fn major(version: &str) -> u32 {
    version
        .trim_start_matches('v')
        .split('.')
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0)
}

impl V8Runner {
    pub fn start(node: &Path) -> Result<V8Runner, CoverageError> {
        let dir = tempfile::Builder::new()
            .prefix("morphtrace-v8-")
            .tempdir()?;
        std::fs::write(dir.path().join("harness.js"), HARNESS)?;
        let mut r = V8Runner {
            node: node.to_path_buf(),
            dir,
            child: None,
            served: 0,
            next_id: 0,
            version: String::new(),
            v8_version: String::new(),
            permission_model: false,
            prelude: true,
        };
        r.spawn()?;
        Ok(r)
    }

    fn spawn(&mut self) -> Result<(), CoverageError> {
        self.kill();
        let harness = self.dir.path().join("harness.js");
        let version = crate::process::version_line(&self.node.to_string_lossy())
            .ok_or_else(|| CoverageError::Missing(self.node.display().to_string()))?;
        // The programs are untrusted and a vm context is no sandbox: under the permission model
        // (Node >= 24, whose model admits the in-process inspector) they cannot touch files or
        // spawn processes. Node 20 and 22 refuse the inspector under it.
        self.permission_model = major(&version) >= 24;
        let mut cmd = Command::new(&self.node);
        if self.permission_model {
            cmd.arg("--permission")
                .arg("--allow-inspector")
                .arg(format!("--allow-fs-read={}", harness.display()))
                .arg("--no-warnings");
        }
        cmd.arg(&harness)
            .current_dir(self.dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        crate::child::DieWithParent::die_with_parent(&mut cmd);
        crate::child::WithoutAmbientNode::without_ambient_node(&mut cmd);
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take().ok_or(CoverageError::Crashed)?;
        let stdout = child.stdout.take().ok_or(CoverageError::Crashed)?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let hello = rx
            .recv_timeout(Duration::from_secs(30))
            .map_err(|_| CoverageError::Crashed)?;
        let h: Hello = serde_json::from_str(&hello)
            .map_err(|e| CoverageError::Format(format!("harness hello: {e}: {hello}")))?;
        self.version = h.node;
        self.v8_version = h.v8;
        self.child = Some((child, stdin, rx));
        self.served = 0;
        Ok(())
    }

    fn kill(&mut self) {
        if let Some((mut c, _, _)) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// The Node process died under a run: killed by the recorder's memory bound (the reason
    /// says so) or crashed. Either way the next run starts a new one.
    fn died(&mut self) -> CoverageError {
        let pid = self.child.as_ref().map(|(c, _, _)| c.id());
        self.kill();
        match pid.and_then(crate::memory::take_kill) {
            Some(k) => CoverageError::Memory(k.reason()),
            None => CoverageError::Crashed,
        }
    }

    /// Runs `source` (named `name`) with a `timeout` on its synchronous part; `counters` is the
    /// number of ground-truth counters the instrumented program increments, if it is one.
    pub fn run(
        &mut self,
        name: &str,
        source: &str,
        timeout: Duration,
        counters: Option<usize>,
    ) -> Result<V8Run, CoverageError> {
        if self.child.is_none() || self.served >= RESTART_EVERY {
            self.spawn()?;
        }
        self.served += 1;
        self.next_id += 1;
        let id = self.next_id;
        // A unique URL per run: coverage of earlier runs' scripts is never mistaken for this one.
        let url = format!("/morphtrace/{id}/{name}");
        let req = serde_json::json!({
            "id": id,
            "url": url,
            "source": source,
            "timeoutMs": timeout.as_millis() as u64,
            "counters": counters,
            "countersName": morphtrace_syntax::js::statements::COUNTERS,
            "prelude": self.prelude.then_some(crate::debugger::determinism::PRELUDE),
        });
        let Some((_, stdin, rx)) = self.child.as_mut() else {
            return Err(CoverageError::Crashed);
        };
        let sent = writeln!(stdin, "{req}").and_then(|_| stdin.flush());
        if sent.is_err() {
            return Err(self.died());
        }
        // The vm timeout stops synchronous loops; a hang beyond it (an endless promise chain)
        // or a crash ends the process, and the next run starts a new one.
        let line = match rx.recv_timeout(timeout + Duration::from_secs(10)) {
            Ok(l) => l,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                self.kill();
                return Err(CoverageError::Timeout(timeout));
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err(self.died()),
        };
        let r: Reply = serde_json::from_str(&line)
            .map_err(|e| CoverageError::Format(format!("harness reply: {e}")))?;
        if let Some(f) = r.fatal {
            self.kill();
            return Err(CoverageError::Format(format!("harness: {f}")));
        }
        if r.id != id {
            self.kill();
            return Err(CoverageError::Format(format!(
                "harness replied to {} instead of {id}",
                r.id
            )));
        }
        if r.timed_out {
            return Err(CoverageError::Timeout(timeout));
        }
        Ok(V8Run {
            run: ProgramRun::new(r.stdout, Some(r.exit)),
            error: r.error,
            functions: r
                .functions
                .into_iter()
                .map(|f| FunctionCoverage {
                    name: f.function_name,
                    ranges: f
                        .ranges
                        .into_iter()
                        .map(|r| BlockRange {
                            start: r.start_offset,
                            end: r.end_offset,
                            count: r.count,
                        })
                        .collect(),
                    is_block_coverage: f.is_block_coverage,
                })
                .collect(),
            counts: r.counts,
        })
    }
}

impl Drop for V8Runner {
    fn drop(&mut self) {
        self.kill();
    }
}
