//! Node and Deno: one process per session (`--inspect` on an ephemeral loopback port),
//! pre-started in a small pool so that process start-up is off the critical path (docs/debugger-protocols.md §2).
//! Deno is another V8 embedder with the same inspector: it runs the same launcher, with no
//! permission granted (Deno denies file, network and process access by default) and a
//! DENO_DIR of its own per process.

use crate::child::{DieWithParent, WithoutAmbientNode};
use crate::debugger::cdp::{
    enable_debugger, syntax_error, CdpSession, Connection, Flavor, InspectorEvent, Teardown,
};
use crate::debugger::engines::prepared::Prepared;
use crate::debugger::engines::tier::Tier;
use crate::debugger::{CaptureOptions, Debugger, DebuggerError, Engine, ProgramFile, SyntaxError};
use async_trait::async_trait;
use morphtrace_schema::{EngineDescriptor, EngineKind, Protocol};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

const LAUNCHER: &str = include_str!("launcher.js");
const DENO_LAUNCHER: &str = include_str!("deno-launcher.mjs");
/// What the launcher writes to stderr once Node's environment is set up.
const READY: &str = "morphtrace: launcher ready";

/// A Node process paused in the launcher, waiting for a program path on stdin.
struct Waiting {
    child: Child,
    conn: Connection,
    events: mpsc::UnboundedReceiver<InspectorEvent>,
    crash: crate::debugger::cdp::session::CrashReport,
}

/// How a process of the runtime is started.
struct Runtime {
    exe: PathBuf,
    flavor: Flavor,
    /// The launcher's file name in `dir`.
    launcher: &'static str,
    /// `node` or `deno`, for messages.
    name: &'static str,
    /// Arguments before the launcher's path.
    args: Vec<String>,
    env: Vec<(String, PathBuf)>,
    dir: tempfile::TempDir,
    /// An expression whose promise settles on the event loop's first turn.
    idle: &'static str,
}

pub struct NodeEngine {
    desc: EngineDescriptor,
    opts: CaptureOptions,
    runtime: Arc<Runtime>,
    prepared: Prepared<Waiting>,
    /// The process of the session opened last (one process per session).
    current: Option<u32>,
}

async fn output_of(exe: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new(exe)
        .args(args)
        .without_ambient_node()
        .output()
        .await
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

impl NodeEngine {
    /// `kind`: Node or Deno; `tier`: the V8 flags of an execution tier, if one is asked for.
    pub async fn launch(
        kind: EngineKind,
        exe: PathBuf,
        opts: CaptureOptions,
        prepared: usize,
        tier: Option<&'static Tier>,
    ) -> Result<NodeEngine, DebuggerError> {
        let name = if kind == EngineKind::Deno {
            "deno"
        } else {
            "node"
        };
        let fail = |reason: String| DebuggerError::Launch {
            engine: format!("{name} ({})", exe.display()),
            reason,
        };
        let dir = tempfile::Builder::new()
            .prefix(&format!("morphtrace-{name}-"))
            .tempdir()
            .map_err(|e| fail(e.to_string()))?;
        let (launcher, text) = if kind == EngineKind::Deno {
            ("launcher.mjs", DENO_LAUNCHER)
        } else {
            ("launcher.js", LAUNCHER)
        };
        std::fs::write(dir.path().join(launcher), text).map_err(|e| fail(e.to_string()))?;
        let (version, v8, args, env, idle) = if kind == EngineKind::Deno {
            // `deno --version`: "deno 2.7.9 (stable, ...)", "v8 14.7.173.7-rusty", ...
            let said = output_of(&exe, &["--version"])
                .await
                .ok_or_else(|| fail("`deno --version` failed".into()))?;
            let word = |prefix: &str| {
                said.lines()
                    .find_map(|l| l.strip_prefix(prefix))
                    .and_then(|l| l.split_whitespace().next())
                    .map(str::to_string)
            };
            let version = word("deno ").ok_or_else(|| fail(format!("deno said {said:?}")))?;
            let mut args = vec![
                "run".to_string(),
                "--no-prompt".to_string(),
                "--no-config".to_string(),
                "--no-code-cache".to_string(),
                "--inspect=127.0.0.1:0".to_string(),
            ];
            if let Some(t) = tier {
                args.push(format!("--v8-flags={}", t.v8_flags().join(",")));
            }
            // DENO_DIR: one per process, see `start`.
            let env = Vec::new();
            let idle = "new Promise(function (r) { setTimeout(r, 0); })";
            (version, word("v8 "), args, env, idle)
        } else {
            let version = output_of(&exe, &["--version"])
                .await
                .ok_or_else(|| fail("`node --version` failed".into()))?;
            let v8 = output_of(&exe, &["-p", "process.versions.v8"]).await;
            let major: u32 = version
                .trim_start_matches('v')
                .split('.')
                .next()
                .and_then(|m| m.parse().ok())
                .unwrap_or(0);
            let mut args = permission_flags(&exe, major, dir.path()).await;
            args.push("--inspect=127.0.0.1:0".into());
            if let Some(t) = tier {
                v8_knows(&exe, t).await.map_err(fail)?;
                args.extend(t.v8_flags().iter().map(|f| f.to_string()));
            }
            let idle = "new Promise(function (r) { setImmediate(r); })";
            (version, v8, args, Vec::new(), idle)
        };
        let version = super::tier::version(version, tier);
        let mut details = vec![
            ("flags".into(), args.join(" ")),
            crate::debugger::determinism::detail(opts.prelude),
        ];
        details.extend(tier.map(Tier::detail));
        if let Some(p) = super::cache::package_of(&exe) {
            details.push(("package".into(), p));
        }
        let desc = EngineDescriptor {
            kind: kind.clone(),
            executable: exe.display().to_string(),
            version,
            protocol: Protocol::Cdp,
            engine_version: v8,
            details,
        };
        let runtime = Arc::new(Runtime {
            exe,
            flavor: if kind == EngineKind::Deno {
                Flavor::Deno
            } else {
                Flavor::Node
            },
            launcher,
            name,
            args,
            env,
            dir,
            idle,
        });
        let (rt, prelude, t) = (runtime.clone(), opts.prelude, opts.call_timeout);
        Ok(NodeEngine {
            desc,
            opts,
            runtime,
            prepared: Prepared::new(prepared, move || {
                let rt = rt.clone();
                Box::pin(async move { start(&rt, prelude, t).await })
            }),
            current: None,
        })
    }
}

impl super::prepared::Waiting for Waiting {
    fn start_kill(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// Whether this Node's V8 has the tier's flags (`node --v8-options`): V8 names a flag it does not
/// know only in a warning, and the tier would then be the default under another name.
async fn v8_knows(exe: &Path, tier: &Tier) -> Result<(), String> {
    let options = output_of(exe, &["--v8-options"])
        .await
        .ok_or("`node --v8-options` failed")?;
    for flag in tier.v8_flags() {
        let name = flag.trim_start_matches("--");
        if !options
            .lines()
            .any(|l| l.trim_start().starts_with(&format!("--{name} ")))
        {
            return Err(format!(
                "this V8 has no {flag} (node --v8-options): no tier {} here",
                tier.name
            ));
        }
    }
    Ok(())
}

/// Node's permission model where the inspector works with it: the program then cannot touch the
/// file system (the recorder hands it over CDP, the launcher is the only file read), spawn
/// processes or load addons. Node 20's experimental model refuses the inspector
/// (ERR_ACCESS_DENIED, resource PauseOnNextJavascriptStatement), so Node 20 runs without.
async fn permission_flags(exe: &Path, major: u32, dir: &Path) -> Vec<String> {
    if major < 22 {
        return Vec::new();
    }
    let read = format!("--allow-fs-read={}/*", dir.display());
    for flags in [
        vec![
            "--permission".to_string(),
            "--allow-inspector".to_string(),
            read.clone(),
        ],
        vec!["--permission".to_string(), read.clone()],
    ] {
        // Probe for real: the inspector must start under these flags.
        let out = Command::new(exe)
            .args(&flags)
            .args(["--inspect=127.0.0.1:0", "-e", "0"])
            .without_ambient_node()
            .output()
            .await;
        if let Ok(o) = out {
            let err = String::from_utf8_lossy(&o.stderr);
            if o.status.success() && !err.contains("ERR_ACCESS_DENIED") && err.contains("ws://") {
                return flags;
            }
        }
    }
    Vec::new()
}

/// A process of the runtime, ready for a program. Deno, about one start in twenty in campaigns
/// that kill hung programs, prints its inspector's address and then never runs the launcher
/// (the process idles; cause not found); a new process then starts normally, so Deno gets
/// three tries of 5 s each (it is ready in about 0.1 s).
async fn start(rt: &Runtime, prelude: bool, t: Duration) -> Result<Waiting, DebuggerError> {
    let (tries, wait) = match rt.flavor {
        Flavor::Deno => (3, Duration::from_secs(5)),
        _ => (1, Duration::from_secs(15)),
    };
    let mut attempt = 1;
    loop {
        match start_process(rt, prelude, t, wait).await {
            Err(e) if attempt < tries && e.to_string().contains(NOT_READY) => {
                tracing::warn!("{e}; starting another");
                attempt += 1;
            }
            r => return r,
        }
    }
}

const NOT_READY: &str = "the launcher never said";

async fn start_process(
    rt: &Runtime,
    prelude: bool,
    t: Duration,
    wait: Duration,
) -> Result<Waiting, DebuggerError> {
    let fail = |reason: String| DebuggerError::Launch {
        engine: format!("{} ({})", rt.name, rt.exe.display()),
        reason,
    };
    // Deno takes a lock in DENO_DIR while it loads `node:vm`; a process killed at that moment
    // (a restart drops the pool) left the others waiting for it (about 1 start in 10 never got
    // ready in 15 s with a shared DENO_DIR). So each process gets its own, removed once the
    // launcher is loaded: nothing reads it afterwards (no code cache, no imports).
    let deno_dir = match rt.flavor {
        Flavor::Deno => Some(
            tempfile::Builder::new()
                .prefix("deno-dir-")
                .tempdir_in(rt.dir.path())
                .map_err(|e| fail(e.to_string()))?,
        ),
        _ => None,
    };
    let mut child = Command::new(&rt.exe)
        .args(&rt.args)
        .arg(rt.dir.path().join(rt.launcher))
        .envs(rt.env.iter().map(|(k, v)| (k, v)))
        .envs(deno_dir.iter().map(|d| ("DENO_DIR", d.path())))
        .env("NO_COLOR", "1")
        .without_ambient_node()
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .die_with_parent()
        .spawn()
        .map_err(|e| fail(e.to_string()))?;
    let stderr = child
        .stderr
        .take()
        .ok_or_else(|| fail("no stderr".into()))?;
    let mut lines = BufReader::new(stderr).lines();
    let url = tokio::time::timeout(Duration::from_secs(15), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(i) = line.find("ws://") {
                return Some(line[i..].trim().to_string());
            }
        }
        None
    })
    .await
    .ok()
    .flatten()
    .ok_or_else(|| fail("no `Debugger listening on ws://` line on stderr".into()))?;
    let mut said = Vec::new();
    let ready = tokio::time::timeout(wait, async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains(READY) {
                return true;
            }
            said.push(line);
        }
        false
    })
    .await;
    if ready != Ok(true) {
        let ended = match child.try_wait() {
            Ok(Some(status)) => format!("; it ended: {status}"),
            _ => "; still running".into(),
        };
        return Err(fail(format!(
            "{NOT_READY} {READY:?} (it said {:?}{ended})",
            said.join(" | ")
        )));
    }
    drop(deno_dir);
    // Keep draining stderr so that the process never blocks on a full pipe.
    let crash = crate::debugger::cdp::session::CrashReport::default();
    let report = crash.clone();
    let name = rt.name;
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            // V8's fatal checks (`# Check failed: ...`) explain a lost connection.
            if let Some(m) = line.strip_prefix("# ").filter(|m| {
                m.starts_with("Check failed")
                    || m.starts_with("Fatal error") && !m.contains(", line 0")
            }) {
                tracing::warn!("{name} died: {m}");
                if let Ok(mut r) = report.lock() {
                    r.get_or_insert_with(|| format!("{name}: {m}"));
                }
            }
        }
    });
    let connected = async {
        let conn = Connection::connect(&url).await.map_err(|e| e.to_string())?;
        let events = conn.subscribe(None);
        conn.call(None, "Runtime.enable", json!({}), t)
            .await
            .map_err(|e| e.to_string())?;
        // Until its event loop turns, Node still runs start-up JavaScript, and an evaluation
        // arrives as an interrupt in the middle of it: Node 24 under the permission model was
        // seen mid-`require('stream')`, and the prelude's first touch of `crypto` (which loads
        // webcrypto, which requires `stream`) then threw, in about one session in four. So wait
        // for the loop's first turn. (`setImmediate` needs Node's environment, set up once the
        // launcher said it was ready: evaluated earlier, it crashed Node 24 in libuv.)
        let idle = conn
            .call(
                None,
                "Runtime.evaluate",
                json!({"expression": rt.idle, "awaitPromise": true, "silent": true}),
                t,
            )
            .await
            .map_err(|e| e.to_string())?;
        if let Some(d) = idle.get("exceptionDetails") {
            return Err(format!("waiting for the event loop: {d}"));
        }
        enable_debugger(&conn, None, prelude, None, t)
            .await
            .map_err(|e| e.to_string())?;
        Ok((conn, events))
    };
    let (conn, events) = match connected.await {
        Ok(c) => c,
        Err(reason) => {
            // Say how the process ended, if it did: a lost connection alone explains nothing.
            tokio::time::sleep(Duration::from_millis(100)).await;
            let ended = match child.try_wait() {
                Ok(Some(status)) => format!(" ({} ended: {status})", rt.name),
                _ => String::new(),
            };
            let said = crash
                .lock()
                .ok()
                .and_then(|r| r.clone())
                .map(|m| format!(" ({m})"))
                .unwrap_or_default();
            return Err(fail(format!("{reason}{ended}{said}")));
        }
    };
    Ok(Waiting {
        child,
        conn,
        events,
        crash,
    })
}

#[async_trait]
impl Engine for NodeEngine {
    fn descriptor(&self) -> &EngineDescriptor {
        &self.desc
    }

    async fn open(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<Box<dyn Debugger>, SyntaxError>, DebuggerError> {
        let mut w = self.prepared.take().await?;
        let t = self.opts.call_timeout;
        let crash = |e: crate::debugger::cdp::InspectorError| DebuggerError::Crashed(e.to_string());
        // Drop what the idle process reported while it waited in the pool.
        while w.events.try_recv().is_ok() {}
        let compiled = w
            .conn
            .call(
                None,
                "Runtime.compileScript",
                json!({"expression": program.text, "sourceURL": program.url, "persistScript": true}),
                t,
            )
            .await
            .map_err(crash)?;
        self.current = w.child.id();
        let teardown = Teardown::Process(w.child);
        let Some(script_id) = compiled.get("scriptId").and_then(Json::as_str) else {
            let (message, location) = syntax_error(&compiled);
            let s = CdpSession::new(
                w.conn,
                None,
                w.events,
                self.runtime.flavor,
                program.url.clone(),
                String::new(),
                self.opts.clone(),
                teardown,
            );
            Box::new(s).close().await;
            return Ok(Err(SyntaxError { message, location }));
        };
        Ok(Ok(Box::new(
            CdpSession::new(
                w.conn,
                None,
                w.events,
                self.runtime.flavor,
                program.url.clone(),
                script_id.to_string(),
                self.opts.clone(),
                teardown,
            )
            .with_program_text(&program.text)
            .with_crash_report(w.crash),
        )))
    }

    fn pid(&self) -> Option<u32> {
        self.current
    }

    async fn restart(&mut self) -> Result<(), DebuggerError> {
        self.prepared.restart();
        Ok(())
    }

    async fn shutdown(&mut self) {
        self.prepared.shutdown().await;
    }
}
