//! Bun: JavaScriptCore, WebKit's engine, behind the WebKit Inspector Protocol. One process per
//! session (`--inspect` on an ephemeral loopback port, a random path), pre-started in a small
//! pool as for Node. The launcher (`bun-launcher.js`) compiles and runs the program through
//! node:vm, which hands JavaScriptCore the program's own text: Bun's transpiler (and its source
//! maps) never touches it.
//!
//! `open` runs the program up to its first statement: JavaScriptCore makes a script known to
//! the debugger only when it runs, and a breakpoint set before that has no location to report.

use crate::child::DieWithParent;
use crate::debugger::engines::prepared::Prepared;
use crate::debugger::engines::tier::Tier;
use crate::debugger::inspector::{Connection, InspectorEvent};
use crate::debugger::jsc::{JscSession, Opened};
use crate::debugger::{CaptureOptions, Debugger, DebuggerError, Engine, ProgramFile, SyntaxError};
use async_trait::async_trait;
use morphtrace_schema::{EngineDescriptor, EngineKind, Protocol};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

const LAUNCHER: &str = include_str!("bun-launcher.js");
/// What the launcher writes to stderr once it is loaded.
const READY: &str = "morphtrace: launcher ready";

/// A Bun process idle in the launcher, connected and with its domains enabled.
pub struct Waiting {
    pub child: Child,
    pub conn: Connection,
    pub events: mpsc::UnboundedReceiver<InspectorEvent>,
}

struct Runtime {
    exe: PathBuf,
    /// An execution tier's JavaScriptCore options (`BUN_JSC_…`), empty for the default.
    env: Vec<(String, String)>,
    dir: tempfile::TempDir,
    prelude: bool,
    call_timeout: Duration,
}

pub struct BunEngine {
    desc: EngineDescriptor,
    opts: CaptureOptions,
    /// Its start closure holds the runtime (and so the launcher's directory) for as long as
    /// the engine lives.
    prepared: Prepared<Waiting>,
    current: Option<u32>,
}

async fn output_of(exe: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new(exe)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .await
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The flags every Bun process gets (before `--inspect` and the launcher): no automatic package
/// installs, and no transpiler cache written to disk.
const FLAGS: &[&str] = &["--no-install"];

/// Whether this Bun's JavaScriptCore takes the tier's options: with `dumpOptions` it lists the
/// options set apart from their defaults (on stderr); an option it does not know is not there,
/// and the tier would be the default under another name.
async fn jsc_takes(exe: &Path, tier: &Tier) -> Result<(), String> {
    let out = Command::new(exe)
        .args(["-e", "0"])
        .envs(tier.env())
        .env("BUN_JSC_dumpOptions", "1")
        .output()
        .await
        .map_err(|e| e.to_string())?;
    let listed = String::from_utf8_lossy(&out.stderr);
    for (name, _) in tier.env() {
        let option = name.trim_start_matches("BUN_JSC_");
        if !listed
            .lines()
            .any(|l| l.trim_start().starts_with(&format!("{option}=")) && l.contains("(default:"))
        {
            return Err(format!(
                "bun+{}: this JavaScriptCore does not take {name} (BUN_JSC_dumpOptions lists no {option})",
                tier.name
            ));
        }
    }
    Ok(())
}

impl BunEngine {
    pub async fn launch(
        exe: PathBuf,
        opts: CaptureOptions,
        prepared: usize,
        tier: Option<&'static Tier>,
    ) -> Result<BunEngine, DebuggerError> {
        let fail = |reason: String| DebuggerError::Launch {
            engine: format!("bun ({})", exe.display()),
            reason,
        };
        let version = output_of(&exe, &["--version"])
            .await
            .ok_or_else(|| fail("`bun --version` failed".into()))?;
        // JavaScriptCore has no release numbers of its own: Bun builds a WebKit commit.
        let webkit = output_of(&exe, &["-p", "process.versions.webkit"])
            .await
            .filter(|w| !w.is_empty())
            .map(|w| format!("JavaScriptCore (WebKit {w})"));
        let dir = tempfile::Builder::new()
            .prefix("morphtrace-bun-")
            .tempdir()
            .map_err(|e| fail(e.to_string()))?;
        std::fs::write(dir.path().join("launcher.js"), LAUNCHER)
            .map_err(|e| fail(e.to_string()))?;
        let env = tier.map(Tier::env).unwrap_or_default();
        if let Some(t) = tier {
            jsc_takes(&exe, t).await.map_err(fail)?;
        }
        let mut details = vec![
            ("flags".into(), FLAGS.join(" ")),
            crate::debugger::determinism::detail(opts.prelude),
        ];
        details.extend(tier.map(Tier::detail));
        if let Some(p) = super::cache::package_of(&exe) {
            details.push(("package".into(), p));
        }
        let desc = EngineDescriptor {
            kind: EngineKind::Bun,
            executable: exe.display().to_string(),
            version: super::tier::version(version, tier),
            protocol: Protocol::WebKitInspector,
            engine_version: webkit,
            details,
        };
        let runtime = Arc::new(Runtime {
            exe,
            env,
            dir,
            prelude: opts.prelude,
            call_timeout: opts.call_timeout,
        });
        Ok(BunEngine {
            desc,
            opts,
            prepared: Prepared::new(prepared, move || {
                let rt = runtime.clone();
                Box::pin(async move { start(&rt).await })
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

/// A Bun process, connected, with the Debugger, Runtime, Console and Inspector domains enabled
/// and the determinism prelude run.
async fn start(rt: &Runtime) -> Result<Waiting, DebuggerError> {
    let fail = |reason: String| DebuggerError::Launch {
        engine: format!("bun ({})", rt.exe.display()),
        reason,
    };
    // A path nobody can guess: the port is loopback-only, the path keeps other local users'
    // processes from attaching to a session by trying ports.
    let token = format!("{:032x}", rand::random::<u128>());
    let mut child = Command::new(&rt.exe)
        .args(FLAGS)
        .arg(format!("--inspect=127.0.0.1:0/{token}"))
        .arg(rt.dir.path().join("launcher.js"))
        .current_dir(rt.dir.path())
        .env("NO_COLOR", "1")
        .env("BUN_RUNTIME_TRANSPILER_CACHE_PATH", "0")
        .envs(rt.env.iter().map(|(k, v)| (k, v)))
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
    // The launcher's line and the inspector's banner come in either order.
    let mut said = Vec::new();
    let found = tokio::time::timeout(Duration::from_secs(15), async {
        let (mut url, mut ready) = (None, false);
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(i) = line.find("ws://") {
                url = Some(line[i..].trim().to_string());
            } else if line.contains(READY) {
                ready = true;
            } else {
                said.push(line);
            }
            if ready && url.is_some() {
                return url;
            }
        }
        None
    })
    .await;
    let url = match found {
        Ok(Some(url)) => url,
        _ => {
            let ended = match child.try_wait() {
                Ok(Some(status)) => format!("; it ended: {status}"),
                _ => "; still running".into(),
            };
            return Err(fail(format!(
                "no inspector address and {READY:?} on stderr (it said {:?}{ended})",
                said.join(" | ")
            )));
        }
    };
    // Keep draining stderr so that the process never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let t = rt.call_timeout;
    let connected = async {
        let conn = Connection::connect(&url).await.map_err(|e| e.to_string())?;
        let events = conn.subscribe(None);
        for (method, params) in [
            ("Inspector.enable", json!({})),
            ("Runtime.enable", json!({})),
            ("Console.enable", json!({})),
            ("Debugger.enable", json!({})),
            // Off until a front-end turns them on: without these no breakpoint or `debugger`
            // statement pauses.
            ("Debugger.setBreakpointsActive", json!({"active": true})),
            (
                "Debugger.setPauseOnDebuggerStatements",
                json!({"enabled": true}),
            ),
            // Off until asked: without it a pause after an `await` shows no async stack.
            (
                "Debugger.setAsyncStackTraceDepth",
                json!({"depth": crate::debugger::inspector::session::ASYNC_STACK_DEPTH}),
            ),
            ("Inspector.initialized", json!({})),
        ] {
            conn.call(None, method, params, t)
                .await
                .map_err(|e| e.to_string())?;
        }
        if rt.prelude {
            use crate::debugger::determinism;
            conn.call(
                None,
                "Debugger.setShouldBlackboxURL",
                json!({"url": determinism::BLACKBOX_PATTERN, "isRegex": true, "shouldBlackbox": true}),
                t,
            )
            .await
            .map_err(|e| e.to_string())?;
            let r = conn
                .call(
                    None,
                    "Runtime.evaluate",
                    json!({"expression": determinism::script(), "silent": true}),
                    t,
                )
                .await
                .map_err(|e| e.to_string())?;
            if r.get("wasThrown").and_then(serde_json::Value::as_bool) == Some(true) {
                return Err(format!("the determinism prelude threw: {}", r["result"]));
            }
        }
        Ok((conn, events))
    };
    let (conn, events) = match connected.await {
        Ok(c) => c,
        Err(reason) => {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let ended = match child.try_wait() {
                Ok(Some(status)) => format!(" (bun ended: {status})"),
                _ => String::new(),
            };
            return Err(fail(format!("{reason}{ended}")));
        }
    };
    Ok(Waiting {
        child,
        conn,
        events,
    })
}

#[async_trait]
impl Engine for BunEngine {
    fn descriptor(&self) -> &EngineDescriptor {
        &self.desc
    }

    async fn open(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<Box<dyn Debugger>, SyntaxError>, DebuggerError> {
        let w = self.prepared.take().await?;
        self.current = w.child.id();
        match JscSession::open(w, program, self.opts.clone()).await? {
            Opened::Session(s) => Ok(Ok(s)),
            Opened::SyntaxError(e) => Ok(Err(e)),
        }
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
