//! Chromium: one headless browser per worker, reused across sessions. Each session runs its
//! program in a fresh frame (compile → breakpoints → run, docs/debugger-protocols.md §1.2): a sandboxed
//! about:blank iframe, made anew in a page target that is either new or a healthy earlier one
//! reset (program terminated, breakpoints removed, the old frame removed). A new frame costs a
//! third of navigating the page to a new document and a quarter of creating a target (measured:
//! about 11 ms of CPU against 34 and 54). Relaunched after a crash or a hang.

use crate::child::DieWithParent;
use crate::debugger::cdp::{
    enable_debugger, syntax_error, CdpSession, Connection, Flavor, InspectorError, InspectorEvent,
    Leftover, Teardown,
};
use crate::debugger::engines::scratch::Scratch;
use crate::debugger::engines::tier::Tier;
use crate::debugger::{CaptureOptions, Debugger, DebuggerError, Engine, ProgramFile, SyntaxError};
use async_trait::async_trait;
use morphtrace_schema::{EngineDescriptor, EngineKind, Protocol};
use serde_json::{json, Value as Json};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::process::{Child, Command};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

pub struct ChromiumEngine {
    exe: PathBuf,
    /// The execution tier's V8 flags (empty: the default tier).
    js_flags: &'static [&'static str],
    desc: EngineDescriptor,
    opts: CaptureOptions,
    browser: Option<Browser>,
    /// Targets created, attached and enabled ahead of time: off the critical path.
    ready: VecDeque<JoinHandle<Result<Ready, InspectorError>>>,
    ready_targets: usize,
    /// Targets of healthy sessions, to be reset and reused (only when targets are prepared
    /// ahead: `ready_targets` 0 is the naive baseline, a new target per session).
    recycled: mpsc::UnboundedReceiver<Leftover>,
    recycle: mpsc::UnboundedSender<Leftover>,
    /// Whether a reset target is as good as a new one. Not before Chromium 110: replaying the
    /// bundled Chromium-vs-Node campaign on reused targets gave breakpoint-location divergences
    /// on 92 (21 of 90 sessions) and 103 (3) that a new target per session does not give (0),
    /// and none from 110 on; so older versions get a new target per session.
    reuse: bool,
    /// Sessions each live target has served.
    uses: std::collections::HashMap<String, u32>,
}

/// Sessions a target serves before it is closed, bounding what a page accumulates.
const TARGET_USES: u32 = 100;

/// A page target with Runtime and Debugger enabled and a fresh frame waiting for a program.
struct Ready {
    target_id: String,
    sid: String,
    events: mpsc::UnboundedReceiver<InspectorEvent>,
    /// The fresh frame's execution context: the program is compiled and run there.
    context: i64,
}

/// Replaces the page's program frame with a new one and returns its execution context. The
/// frame is a sandboxed about:blank iframe (`allow-scripts` only): a new global object every
/// session, and an opaque origin of its own, so a program cannot reach the page or leave state
/// in it for the next one (`parent.x = 1` throws). Both the naive and the reusing paths run
/// programs there, so the two record the same traces.
async fn fresh_frame(
    conn: &Connection,
    sid: &str,
    target_id: &str,
    events: &mut mpsc::UnboundedReceiver<InspectorEvent>,
    t: Duration,
) -> Result<i64, InspectorError> {
    let made = conn
        .call(
            Some(sid),
            "Runtime.evaluate",
            json!({
                "expression": "for (const f of document.querySelectorAll('iframe')) f.remove(); { const f = document.createElement('iframe'); f.sandbox = 'allow-scripts'; (document.body || document.documentElement).appendChild(f); }",
                "silent": true,
            }),
            t,
        )
        .await?;
    if let Some(d) = made.get("exceptionDetails") {
        return Err(InspectorError::Protocol {
            method: "Runtime.evaluate".into(),
            code: 0,
            message: format!("making the program's frame threw: {d}"),
        });
    }
    // The page's own frame has the target's id; the new frame's default context is the one.
    let deadline = tokio::time::Instant::now() + t;
    loop {
        let ev = tokio::time::timeout_at(deadline, events.recv())
            .await
            .map_err(|_| InspectorError::Timeout("the program frame's context".into(), t))?
            .ok_or(InspectorError::Closed)?;
        if ev.method != "Runtime.executionContextCreated" {
            continue;
        }
        let c = &ev.params["context"];
        let frame = c.pointer("/auxData/frameId").and_then(Json::as_str);
        let default = c.pointer("/auxData/isDefault").and_then(Json::as_bool) == Some(true);
        if let (true, Some(f), Some(id)) = (default, frame, c.get("id").and_then(Json::as_i64)) {
            if f != target_id {
                return Ok(id);
            }
        }
    }
}

/// Makes a healthy session's target like a new one: ends the program if it is still paused in
/// it, removes the breakpoints (Chromium keeps URL breakpoints across frames) and replaces the
/// program's frame with a fresh one, which discards the program's global state and scripts.
/// `None` if the target does not cooperate in time: it is then closed.
async fn reset(conn: &Connection, mut left: Leftover, prelude: bool, t: Duration) -> Option<Ready> {
    let s = Some(left.sid.as_str());
    if let Some(run) = left.run_reply.take() {
        // Terminate takes effect when the paused program resumes; its reply comes after. With
        // pauses skipped first: older V8 (Chromium 92) lets the resumed program pause again at
        // its next breakpoint before the termination lands, and the run never ends.
        let _ = conn
            .call(s, "Debugger.setSkipAllPauses", json!({"skip": true}), t)
            .await;
        let terminate = conn.send(s, "Runtime.terminateExecution", json!({}));
        let _ = conn.call(s, "Debugger.resume", json!({}), t).await;

        // "Execution was terminated", or the program's own end if it got there first.
        let ended = tokio::time::timeout(t, run).await;
        tracing::debug!("reset: the program ended: {}", ended.is_ok());
        let _ended = ended.ok()?.ok()?;
        let _ = tokio::time::timeout(t, terminate).await.ok()?;
    }
    let removals: Vec<_> = left
        .breakpoints
        .iter()
        .map(|id| conn.send(s, "Debugger.removeBreakpoint", json!({"breakpointId": id})))
        .collect();
    for r in removals {
        match tokio::time::timeout(t, r).await.ok()?.ok()? {
            Ok(_) | Err(InspectorError::Protocol { .. }) => {}
            Err(_) => return None,
        }
    }
    // Disabling the debugger drops the session's debugging state (breakpoints, stepping,
    // instrumented code) in one call, whatever the removals above missed.
    conn.call(s, "Debugger.disable", json!({}), t).await.ok()?;
    while left.events.try_recv().is_ok() {}
    tracing::debug!("reset: breakpoints removed");
    let context = fresh_frame(conn, &left.sid, &left.target_id, &mut left.events, t).await;
    tracing::debug!("reset: fresh frame {context:?}");
    let context = context.ok()?;
    enable_debugger(conn, s, prelude, Some(context), t)
        .await
        .ok()?;
    conn.call(s, "Debugger.setSkipAllPauses", json!({"skip": false}), t)
        .await
        .ok()?;
    // A page left paused would run the next program in a nested loop, never stopping at its
    // breakpoints: resume whatever pause there is ("not paused" is the usual answer). Sessions
    // that stepped off their program's end are not reused at all (see CdpSession::control).
    let _ = conn.call(s, "Debugger.resume", json!({}), t).await;

    // Whatever the old document still reported is not the next session's.
    while left.events.try_recv().is_ok() {}
    Some(Ready {
        target_id: left.target_id,
        sid: left.sid,
        events: left.events,
        context,
    })
}

async fn prepare(conn: Connection, prelude: bool, t: Duration) -> Result<Ready, InspectorError> {
    let target = conn
        .call(
            None,
            "Target.createTarget",
            json!({"url": "about:blank"}),
            t,
        )
        .await?;
    let target_id = target["targetId"].as_str().unwrap_or("").to_string();
    let attached = conn
        .call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
            t,
        )
        .await?;
    let sid = attached["sessionId"].as_str().unwrap_or("").to_string();
    let mut events = conn.subscribe(Some(&sid));
    // Inspector: its `targetCrashed` says the renderer died (a V8 CHECK), which would otherwise
    // read as a program that never answers.
    conn.call(Some(&sid), "Inspector.enable", json!({}), t)
        .await?;
    conn.call(Some(&sid), "Runtime.enable", json!({}), t)
        .await?;
    let context = fresh_frame(&conn, &sid, &target_id, &mut events, t).await?;
    enable_debugger(&conn, Some(&sid), prelude, Some(context), t).await?;
    // What the page reported while it was made ready is not the session's.
    while events.try_recv().is_ok() {}
    Ok(Ready {
        target_id,
        sid,
        events,
        context,
    })
}

struct Browser {
    child: Child,
    conn: Connection,
    // Removed when the browser is dropped.
    _profile: Profile,
}

/// A browser's profile directory. Chromium also makes a directory of its own in TMPDIR for its
/// singleton socket (linked from the profile) and removes it only on a clean exit, which a
/// killed browser never has: it goes with the profile. (TMPDIR inside the profile would do
/// too, but the socket's path must stay under 108 bytes, which a long TMPDIR passes.)
/// Fields drop in order: the singleton's directory first, then the profile.
struct Profile(Scratch);

impl Drop for Profile {
    fn drop(&mut self) {
        // Helpers left by a browser that died or was killed go first, found by the profile
        // they name (`--user-data-dir`, crashpad's database): under load they outlived the
        // removal's patience once and kept writing into the profile (a fresh-clone CI run of
        // the hostile programs, Chromium against Node, beside other work).
        if let Some(path) = self.0.path().to_str().filter(|p| !p.is_empty()) {
            crate::child::kill_naming(path);
        }
        let Ok(socket) = std::fs::read_link(self.0.path().join("SingletonSocket")) else {
            return;
        };
        if let Some(dir) = socket.parent().filter(|d| {
            d.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("org.chromium.Chromium."))
        }) {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

impl Browser {
    /// `js_flags`: V8 flags (an execution tier's), empty for none.
    async fn launch(exe: &Path, js_flags: &[&str]) -> Result<Browser, DebuggerError> {
        let fail = |reason: String| DebuggerError::Launch {
            engine: format!("chromium ({})", exe.display()),
            reason,
        };
        // Made a Profile at once: a launch that fails below removes the singleton's
        // directory too.
        let profile = Profile(
            Scratch::new("morphtrace-chromium-")
                .map_err(|e| fail(format!("profile directory: {e}")))?,
        );
        // Flags from the cookbook; background networking off because the network is closed.
        let mut child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--disable-dev-shm-usage",
                // A reused target is a background tab once newer ones exist: keep its renderer
                // at full priority (Puppeteer's defaults).
                "--disable-renderer-backgrounding",
                "--disable-background-timer-throttling",
                "--disable-backgrounding-occluded-windows",
                // The program's sandboxed frame stays in the page's renderer, so that its
                // context is reported to the page's session (see `fresh_frame`).
                "--disable-features=IsolateSandboxedIframes",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.0.path().display()))
            .args((!js_flags.is_empty()).then(|| format!("--js-flags={}", js_flags.join(" "))))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .die_with_parent()
            .spawn()
            .map_err(|e| fail(e.to_string()))?;
        let port_file = profile.0.path().join("DevToolsActivePort");
        // Not shorter: with two test binaries running at once, a start once took over 20 s. A
        // browser that died is seen at once below, whatever the deadline.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        let url = loop {
            if let Ok(s) = tokio::fs::read_to_string(&port_file).await {
                let mut lines = s.lines();
                if let (Some(port), Some(path)) = (lines.next(), lines.next()) {
                    break format!("ws://127.0.0.1:{}{}", port.trim(), path.trim());
                }
            }
            // A browser that died (a crash, the memory bound) will never listen: say so now.
            if let Ok(Some(status)) = child.try_wait() {
                return Err(fail(format!("it ended before it listened ({status})")));
            }
            if tokio::time::Instant::now() > deadline {
                return Err(fail("no DevToolsActivePort within 60 s".into()));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let conn = Connection::connect(&url)
            .await
            .map_err(|e| fail(e.to_string()))?;
        Ok(Browser {
            child,
            conn,
            _profile: profile,
        })
    }
}

impl ChromiumEngine {
    /// Launches the browser and reads its versions over CDP. `ready_targets`: targets prepared
    /// ahead of time (0: each created when a session opens).
    pub async fn launch(
        exe: PathBuf,
        opts: CaptureOptions,
        ready_targets: usize,
        tier: Option<&'static Tier>,
    ) -> Result<ChromiumEngine, DebuggerError> {
        let js_flags = tier.map(Tier::v8_flags).unwrap_or_default();
        let browser = Browser::launch(&exe, js_flags).await?;
        let v = browser
            .conn
            .call(None, "Browser.getVersion", json!({}), opts.call_timeout)
            .await
            .map_err(|e| DebuggerError::Launch {
                engine: "chromium".into(),
                reason: e.to_string(),
            })?;
        let s = |k: &str| v.get(k).and_then(Json::as_str).unwrap_or("").to_string();
        let product = s("product");
        let version = product.rsplit('/').next().unwrap_or(&product).to_string();
        // The major version below is read before the tier's suffix.
        let major: u32 = version
            .split('.')
            .next()
            .and_then(|m| m.parse().ok())
            .unwrap_or(0);
        let version = super::tier::version(version, tier);
        let mut details = vec![
            ("product".into(), product),
            ("protocolVersion".into(), s("protocolVersion")),
            ("userAgent".into(), s("userAgent")),
            crate::debugger::determinism::detail(opts.prelude),
        ];
        details.extend(tier.map(Tier::detail));
        if let Some(p) = super::cache::package_of(&exe) {
            details.push(("package".into(), p));
        }
        let desc = EngineDescriptor {
            kind: EngineKind::Chromium,
            executable: exe.display().to_string(),
            version,
            protocol: Protocol::Cdp,
            engine_version: Some(s("jsVersion")).filter(|s| !s.is_empty()),
            details,
        };
        let (recycle, recycled) = mpsc::unbounded_channel();
        let reuse = major >= 110;
        Ok(ChromiumEngine {
            exe,
            js_flags,
            desc,
            opts,
            browser: Some(browser),
            ready: VecDeque::new(),
            ready_targets,
            recycled,
            recycle,
            reuse,
            uses: Default::default(),
        })
    }

    fn fill(&mut self) {
        let Some(b) = &self.browser else { return };
        while self.ready.len() < self.ready_targets {
            let conn = b.conn.clone();
            let t = self.opts.call_timeout;
            self.ready
                .push_back(tokio::spawn(prepare(conn, self.opts.prelude, t)));
        }
    }

    fn drain(&mut self) {
        for h in self.ready.drain(..) {
            h.abort();
        }
        while self.recycled.try_recv().is_ok() {}
        self.uses.clear();
    }

    /// A reset target of an earlier session, if one is waiting; one that cannot be reset is
    /// closed.
    async fn reuse(&mut self, conn: &Connection) -> Option<Ready> {
        while let Ok(left) = self.recycled.try_recv() {
            let target_id = left.target_id.clone();
            let sid = left.sid.clone();
            match reset(conn, left, self.opts.prelude, self.opts.call_timeout).await {
                Some(r) => return Some(r),
                None => {
                    tracing::debug!("a target could not be reset; closing it");
                    self.uses.remove(&target_id);
                    conn.unsubscribe(Some(&sid));
                    conn.send(None, "Target.closeTarget", json!({"targetId": target_id}));
                }
            }
        }
        None
    }

    async fn browser(&mut self) -> Result<&Browser, DebuggerError> {
        let alive = match self.browser.as_mut() {
            Some(b) => matches!(b.child.try_wait(), Ok(None)),
            None => false,
        };
        if !alive {
            self.drain();
            self.browser = None;
            self.browser = Some(Browser::launch(&self.exe, self.js_flags).await?);
        }
        self.browser
            .as_ref()
            .ok_or_else(|| DebuggerError::Crashed("no browser".into()))
    }
}

#[async_trait]
impl Engine for ChromiumEngine {
    fn descriptor(&self) -> &EngineDescriptor {
        &self.desc
    }

    async fn open(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<Box<dyn Debugger>, SyntaxError>, DebuggerError> {
        let opts = self.opts.clone();
        let conn = self.browser().await?.conn.clone();
        let t = opts.call_timeout;
        let crash = |e: InspectorError| DebuggerError::Crashed(e.to_string());
        let ready = match self.reuse(&conn).await {
            Some(r) => r,
            None => {
                self.fill();
                let next = self.ready.pop_front();
                self.fill();
                match next {
                    Some(h) => match h.await {
                        Ok(r) => r.map_err(crash)?,
                        Err(e) => return Err(DebuggerError::Crashed(e.to_string())),
                    },
                    None => prepare(conn.clone(), self.opts.prelude, t)
                        .await
                        .map_err(crash)?,
                }
            }
        };
        let (target_id, sid, events, context) =
            (ready.target_id, ready.sid, ready.events, ready.context);
        let uses = self.uses.entry(target_id.clone()).or_insert(0);
        *uses += 1;
        let reusable = self.reuse && self.ready_targets > 0 && *uses < TARGET_USES;
        if !reusable {
            self.uses.remove(&target_id);
        }
        let s = Some(sid.as_str());
        let compiled = conn
            .call(
                s,
                "Runtime.compileScript",
                json!({"expression": program.text, "sourceURL": program.url, "persistScript": true,
                       "executionContextId": context}),
                t,
            )
            .await
            .map_err(crash)?;
        let teardown = Teardown::Target {
            browser: conn.clone(),
            target_id,
            recycle: reusable.then(|| self.recycle.clone()),
        };
        let Some(script_id) = compiled.get("scriptId").and_then(Json::as_str) else {
            let (message, location) = syntax_error(&compiled);
            let session = CdpSession::new(
                conn,
                Some(sid),
                events,
                Flavor::Chromium,
                program.url.clone(),
                String::new(),
                opts,
                teardown,
            );
            Box::new(session).close().await;
            return Ok(Err(SyntaxError { message, location }));
        };
        let session = CdpSession::new(
            conn,
            Some(sid),
            events,
            Flavor::Chromium,
            program.url.clone(),
            script_id.to_string(),
            opts,
            teardown,
        )
        .with_context(context);
        Ok(Ok(Box::new(session)))
    }

    fn pid(&self) -> Option<u32> {
        self.browser.as_ref().and_then(|b| b.child.id())
    }

    async fn restart(&mut self) -> Result<(), DebuggerError> {
        self.drain();
        if let Some(mut b) = self.browser.take() {
            let helpers = crate::child::helpers(&b.child);
            b.conn.close();
            let _ = b.child.kill().await;
            // Killed, not closed: its helpers (a renderer may be stuck in the program) go too.
            crate::child::wait_exited(&helpers, Duration::ZERO).await;
        }
        self.browser = Some(Browser::launch(&self.exe, self.js_flags).await?);
        Ok(())
    }

    async fn shutdown(&mut self) {
        self.drain();
        if let Some(mut b) = self.browser.take() {
            let helpers = crate::child::helpers(&b.child);
            let _ = b
                .conn
                .call(None, "Browser.close", json!({}), Duration::from_secs(2))
                .await;
            if tokio::time::timeout(Duration::from_secs(3), b.child.wait())
                .await
                .is_err()
            {
                let _ = b.child.kill().await;
            }
            crate::child::wait_exited(&helpers, Duration::from_secs(5)).await;
        }
    }
}
