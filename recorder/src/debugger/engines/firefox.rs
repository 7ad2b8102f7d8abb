//! Firefox (SpiderMonkey) over the Remote Debugging Protocol: one headless browser per worker with
//! a fresh profile, reused across sessions and relaunched after a crash, a hang, or every N
//! sessions. Each session navigates the tab to a generated page that loads the program and then
//! logs an end marker (docs/debugger-protocols.md §3.3, §3.5).

use crate::child::DieWithParent;
use crate::debugger::determinism;
use crate::debugger::engines::scratch::Scratch;
use crate::debugger::engines::tier::Tier;
use crate::debugger::rdp::session::{
    page_error, parse_positions, resources, where_location, FirstPause, Link,
};
use crate::debugger::rdp::{BreakpointPolicy, Connection, RdpError, RdpSession};
use crate::debugger::{CaptureOptions, Debugger, DebuggerError, Engine, ProgramFile, SyntaxError};
use async_trait::async_trait;
use morphtrace_schema::{EngineDescriptor, EngineKind, Location, Protocol};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::process::{Child, Command};
use tokio::sync::Mutex;

/// Preferences of the fresh profile: the debugger server without prompts, and nothing that
/// talks to the network (which is closed) or competes for the CPU: no add-ons, studies, remote
/// settings, telemetry, prefetching or session restore (with the start-up cache, a start's CPU
/// went from 3.7–4.4 s to 2.0–2.5 s: docs/benchmarks.md, "Firefox's start, again"). None of
/// them is about JavaScript or its debugger.
const USER_JS: &str = r#"user_pref("devtools.debugger.remote-enabled", true);
user_pref("devtools.chrome.enabled", true);
user_pref("devtools.debugger.prompt-connection", false);
user_pref("devtools.debugger.force-local", true);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.page", 0);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("browser.aboutwelcome.enabled", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("datareporting.healthreport.uploadEnabled", false);
user_pref("toolkit.telemetry.enabled", false);
user_pref("app.update.enabled", false);
user_pref("app.update.auto", false);
user_pref("browser.safebrowsing.malware.enabled", false);
user_pref("browser.safebrowsing.phishing.enabled", false);
user_pref("browser.safebrowsing.downloads.enabled", false);
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("extensions.update.enabled", false);
user_pref("browser.search.update", false);
user_pref("dom.max_script_run_time", 0);
user_pref("javascript.options.asyncstack", true);
user_pref("dom.ipc.processPrelaunch.enabled", false);
user_pref("browser.tabs.remote.separatePrivilegedContentProcess", false);
user_pref("browser.newtabpage.enabled", false);
user_pref("browser.newtabpage.activity-stream.feeds.system.topstories", false);
user_pref("browser.newtabpage.activity-stream.feeds.section.topstories", false);
user_pref("extensions.pocket.enabled", false);
user_pref("browser.places.importBookmarksHTML", false);
user_pref("media.gmp-manager.updateEnabled", false);
user_pref("browser.pagethumbnails.capturing_disabled", true);
user_pref("extensions.enabledScopes", 0);
user_pref("extensions.autoDisableScopes", 15);
user_pref("extensions.systemAddon.update.enabled", false);
user_pref("extensions.getAddons.cache.enabled", false);
user_pref("extensions.formautofill.addresses.enabled", false);
user_pref("extensions.formautofill.creditCards.enabled", false);
user_pref("app.normandy.enabled", false);
user_pref("app.shield.optoutstudies.enabled", false);
user_pref("browser.sessionstore.resume_from_crash", false);
user_pref("browser.startup.blankWindow", false);
user_pref("services.settings.server", "data:,");
user_pref("browser.region.network.url", "");
user_pref("browser.region.update.enabled", false);
user_pref("browser.topsites.contile.enabled", false);
user_pref("browser.search.geoip.url", "");
user_pref("toolkit.telemetry.server", "data:,");
user_pref("toolkit.telemetry.archive.enabled", false);
user_pref("toolkit.telemetry.unified", false);
user_pref("browser.ping-centre.telemetry", false);
user_pref("network.dns.disablePrefetch", true);
user_pref("network.prefetch-next", false);
user_pref("network.http.speculative-parallel-limit", 0);
user_pref("browser.discovery.enabled", false);
user_pref("signon.rememberSignons", false);
user_pref("security.OCSP.enabled", 0);
user_pref("security.remote_settings.crlite_filters.enabled", false);
user_pref("security.remote_settings.intermediates.enabled", false);
user_pref("browser.translations.enable", false);
user_pref("browser.ml.enable", false);
"#;

/// Pages generated so far in this process (unique page names and end markers).
static PAGES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How long a new browser's first requests may take (Chromium's start-up deadline too).
const STARTUP: Duration = Duration::from_secs(60);

/// Frame targets and the resources the adapter reads.
/// `prelude`: the determinism prelude's URL, blackboxed for the watcher's lifetime.
async fn establish(
    port: u16,
    t: Duration,
    owned: bool,
    prelude: Option<&str>,
) -> Result<Link, RdpError> {
    let (conn, _greeting, events) = Connection::connect(port, t).await?;
    // `getTab` fails until the first tab is ready (pitfall 1).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let tab = loop {
        match conn.request("root", "getTab", json!({}), t).await {
            Ok(r) => {
                if let Some(a) = r.pointer("/tab/actor").and_then(Json::as_str) {
                    break a.to_string();
                }
            }
            Err(RdpError::Server { .. }) => {}
            Err(e) => return Err(e),
        }
        if tokio::time::Instant::now() > deadline {
            return Err(RdpError::Io("getTab kept failing for 30 s".into()));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let watcher = conn
        .request(
            &tab,
            "getWatcher",
            json!({"isServerTargetSwitchingEnabled": true, "isPopupDebuggingEnabled": false}),
            t,
        )
        .await?;
    let watcher = watcher
        .get("actor")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string();
    conn.request(&watcher, "watchTargets", json!({"targetType": "frame"}), t)
        .await?;
    let bl = conn
        .request(&watcher, "getBreakpointListActor", json!({}), t)
        .await?;
    let breakpoint_list = bl
        .pointer("/breakpointList/actor")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string();
    let tc = conn
        .request(&watcher, "getThreadConfigurationActor", json!({}), t)
        .await?;
    let thread_configuration = tc
        .pointer("/configuration/actor")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string();
    // Off until asked: without these, a pause after an `await` shows the resumed frame alone
    // (the frames that awaited it are saved frames, or live ones suspended at their `await`).
    conn.request(
        &thread_configuration,
        "updateConfiguration",
        json!({"configuration": {
            "shouldIncludeSavedFrames": true,
            "shouldIncludeAsyncLiveFrames": true,
        }}),
        t,
    )
    .await?;
    conn.request(
        &watcher,
        "watchResources",
        json!({"resourceTypes": ["console-message", "error-message"]}),
        t,
    )
    .await?;
    if let Some(url) = prelude {
        let bb = conn
            .request(&watcher, "getBlackboxingActor", json!({}), t)
            .await?;
        let bb = bb
            .pointer("/blackboxing/actor")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string();
        // No range: the whole source.
        conn.request(&bb, "blackbox", json!({"url": url, "range": []}), t)
            .await?;
    }
    Ok(Link {
        conn,
        tab,
        breakpoint_list,
        thread_configuration,
        events: Arc::new(Mutex::new(events)),
        owned,
    })
}

/// Firefox without a window on `profile`, its output dropped, killed with its handle and with
/// the recorder; the caller adds the page and the rest.
fn headless(exe: &Path, profile: &Path) -> Command {
    let mut c = Command::new(exe);
    c.args(["--headless", "--no-remote", "--profile"])
        .arg(profile)
        .env("MOZ_CRASHREPORTER_DISABLE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .die_with_parent();
    c
}

struct Browser {
    child: Child,
    port: u16,
    /// The persistent connection (None in naive mode: one connection per session).
    link: Option<Link>,
    /// The determinism prelude's URL (in the profile), if programs run after it.
    prelude: Option<String>,
    _profile: Scratch,
}

impl Browser {
    /// A browser, started once more if the first does not come up (it exited during start-up,
    /// or its debugger connection closed before its first answers: seen once under CI's load,
    /// where another process may also take the free port between its probe and Firefox's bind).
    /// A browser that fails twice is the launch's error.
    async fn launch(
        exe: &Path,
        t: Duration,
        persistent: bool,
        prelude: bool,
        tier: Option<&'static Tier>,
    ) -> Result<Browser, DebuggerError> {
        match Browser::launch_once(exe, t, persistent, prelude, tier).await {
            Ok(b) => Ok(b),
            Err(e) => {
                tracing::warn!("{e}; starting Firefox once more");
                Browser::launch_once(exe, t, persistent, prelude, tier).await
            }
        }
    }

    async fn launch_once(
        exe: &Path,
        t: Duration,
        persistent: bool,
        prelude: bool,
        tier: Option<&'static Tier>,
    ) -> Result<Browser, DebuggerError> {
        let fail = |reason: String| DebuggerError::Launch {
            engine: format!("firefox ({})", exe.display()),
            reason,
        };
        let profile = Scratch::new("morphtrace-firefox-")
            .map_err(|e| fail(format!("profile directory: {e}")))?;
        let user_js = format!("{USER_JS}{}", tier.map(Tier::user_js).unwrap_or_default());
        std::fs::write(profile.path().join("user.js"), user_js)
            .map_err(|e| fail(format!("profile: {e}")))?;
        super::startup_cache::seed(profile.path(), exe, USER_JS, headless).await;
        let prelude = if prelude {
            let path = profile.path().join(determinism::URL);
            std::fs::write(&path, determinism::PRELUDE)
                .map_err(|e| fail(format!("profile: {e}")))?;
            Some(format!("file://{}", file_url_path(&path)))
        } else {
            None
        };
        // Firefox takes a port number, not 0: take a free ephemeral one from the kernel. The
        // server listens on loopback only (devtools.debugger.force-local).
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| fail(format!("no free port: {e}")))?
            .port();
        let child = headless(exe, profile.path())
            .arg("--start-debugger-server")
            .arg(port.to_string())
            .arg("about:blank")
            .spawn()
            .map_err(|e| fail(e.to_string()))?;
        let mut b = Browser {
            child,
            port,
            link: None,
            prelude,
            _profile: profile,
        };
        // The port opens after 1–2.5 s (docs/debugger-protocols.md §3.7).
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                break;
            }
            if !matches!(b.child.try_wait(), Ok(None)) {
                return Err(fail("exited during start-up".into()));
            }
            if tokio::time::Instant::now() > deadline {
                return Err(fail("the debugger server did not open within 30 s".into()));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // The first requests of a new browser are answered once its first tab is up: under a
        // loaded machine (two test binaries at a time on two cores) that took over 10 s.
        let link = establish(port, t.max(STARTUP), !persistent, b.prelude.as_deref())
            .await
            .map_err(|e| fail(e.to_string()))?;
        if let Some(tier) = tier {
            tier_holds(&link.conn, tier, t).await.map_err(fail)?;
        }
        if persistent {
            b.link = Some(link);
        } else {
            link.conn.close();
        }
        Ok(b)
    }

    /// Kills the browser and its content processes, and waits for them to exit.
    async fn kill(mut self) {
        let helpers = crate::child::helpers(&self.child);
        if let Some(l) = &self.link {
            l.conn.close();
        }
        let _ = self.child.kill().await;
        // Killed, not closed: its content processes go too.
        crate::child::wait_exited(&helpers, Duration::ZERO).await;
    }
}

/// Whether the browser reads the tier's preferences as user.js set them, asked over the
/// protocol (the root's preference actor): a preference renamed in another Firefox would
/// otherwise leave the default tier running under the tier's name.
async fn tier_holds(conn: &Connection, tier: &Tier, t: Duration) -> Result<(), String> {
    let fail = |e: String| format!("firefox+{}: {e}", tier.name);
    let root = conn
        .request("root", "getRoot", json!({}), t)
        .await
        .map_err(|e| fail(e.to_string()))?;
    let actor = root
        .get("preferenceActor")
        .and_then(Json::as_str)
        .ok_or_else(|| fail("the root has no preference actor".into()))?;
    for (name, want) in tier.prefs() {
        let method = if matches!(*want, "true" | "false") {
            "getBoolPref"
        } else {
            "getIntPref"
        };
        let got = conn
            .request(actor, method, json!({ "value": name }), t)
            .await
            .map_err(|e| fail(format!("{name}: {e}")))?;
        let got = got.get("value").map(Json::to_string).unwrap_or_default();
        if got != *want {
            return Err(fail(format!("{name} reads {got}, not {want}")));
        }
    }
    Ok(())
}

pub struct FirefoxEngine {
    exe: PathBuf,
    tier: Option<&'static Tier>,
    desc: EngineDescriptor,
    opts: CaptureOptions,
    policy: BreakpointPolicy,
    persistent: bool,
    restart_every: usize,
    browser: Option<Browser>,
    since_launch: usize,
}

/// `firefox-esr --version` → `153.7.0esr`.
async fn version(exe: &Path) -> String {
    let out = Command::new(exe)
        .arg("--version")
        .env("MOZ_CRASHREPORTER_DISABLE", "1")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .await;
    out.ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .and_then(|s| s.rsplit(' ').next().map(str::to_string))
        .unwrap_or_default()
}

/// Percent-encodes what a file URL cannot carry verbatim.
fn file_url_path(p: &Path) -> String {
    let mut out = String::new();
    for b in p.display().to_string().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl FirefoxEngine {
    /// `persistent`: one connection and watcher for all sessions (false: the naive baseline,
    /// one connection per session). `restart_every`: relaunch after that many sessions (0: never).
    pub async fn launch(
        exe: PathBuf,
        opts: CaptureOptions,
        policy: BreakpointPolicy,
        persistent: bool,
        restart_every: usize,
        tier: Option<&'static Tier>,
    ) -> Result<FirefoxEngine, DebuggerError> {
        let v = version(&exe).await;
        let browser =
            Browser::launch(&exe, opts.call_timeout, persistent, opts.prelude, tier).await?;
        let mut details = vec![
            ("breakpointPolicy".into(), policy.name().into()),
            crate::debugger::determinism::detail(opts.prelude),
        ];
        details.extend(tier.map(Tier::detail));
        let desc = EngineDescriptor {
            kind: EngineKind::Firefox,
            executable: exe.display().to_string(),
            version: super::tier::version(v.clone(), tier),
            protocol: Protocol::Rdp,
            engine_version: Some(format!("SpiderMonkey {v}")),
            details,
        };
        Ok(FirefoxEngine {
            exe,
            tier,
            desc,
            opts,
            policy,
            persistent,
            restart_every,
            browser: Some(browser),
            since_launch: 0,
        })
    }

    async fn ensure_browser(&mut self) -> Result<(), DebuggerError> {
        let due = self.restart_every > 0 && self.since_launch >= self.restart_every;
        let alive = match self.browser.as_mut() {
            Some(b) => {
                matches!(b.child.try_wait(), Ok(None))
                    && b.link.as_ref().is_none_or(|l| !l.conn.is_broken())
            }
            None => false,
        };
        if !alive || due {
            self.relaunch().await?;
        }
        Ok(())
    }

    async fn relaunch(&mut self) -> Result<(), DebuggerError> {
        if let Some(b) = self.browser.take() {
            b.kill().await;
        }
        self.browser = Some(
            Browser::launch(
                &self.exe,
                self.opts.call_timeout,
                self.persistent,
                self.opts.prelude,
                self.tier,
            )
            .await?,
        );
        self.since_launch = 0;
        Ok(())
    }

    async fn link(&mut self) -> Result<Link, DebuggerError> {
        self.ensure_browser().await?;
        let b = self
            .browser
            .as_ref()
            .ok_or_else(|| DebuggerError::Crashed("no browser".into()))?;
        match &b.link {
            Some(l) => Ok(Link {
                conn: l.conn.clone(),
                breakpoint_list: l.breakpoint_list.clone(),
                thread_configuration: l.thread_configuration.clone(),
                events: l.events.clone(),
                owned: false,
                tab: l.tab.clone(),
            }),
            None => establish(b.port, self.opts.call_timeout, true, b.prelude.as_deref())
                .await
                .map_err(|e| DebuggerError::Crashed(e.to_string())),
        }
    }
}

fn crash(e: RdpError) -> DebuggerError {
    DebuggerError::Crashed(e.to_string())
}

/// The URL of a paused source (it can be missing from the thread's list for a moment: ask
/// again).
async fn source_url_of(
    conn: &Connection,
    thread: &str,
    source_actor: &str,
    t: Duration,
) -> Result<String, DebuggerError> {
    for _ in 0..40 {
        let sources = conn
            .request(thread, "sources", json!({}), t)
            .await
            .map_err(crash)?;
        let url = sources
            .get("sources")
            .and_then(Json::as_array)
            .and_then(|a| a.iter().find(|s| s["actor"] == source_actor))
            .and_then(|s| s.get("url"))
            .and_then(Json::as_str);
        if let Some(u) = url {
            return Ok(u.to_string());
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    Err(DebuggerError::Protocol(format!(
        "the paused source {source_actor} is not among the thread's sources"
    )))
}

#[async_trait]
impl Engine for FirefoxEngine {
    fn descriptor(&self) -> &EngineDescriptor {
        &self.desc
    }

    async fn open(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<Box<dyn Debugger>, SyntaxError>, DebuggerError> {
        match self.open_once(program).await {
            // The browser died between sessions (killed, crashed) and it was not yet visible:
            // relaunch it once and try again.
            Err(DebuggerError::Crashed(why)) => {
                tracing::warn!("firefox: {why}; relaunching");
                self.restart().await?;
                self.open_once(program).await
            }
            other => other,
        }
    }

    fn pid(&self) -> Option<u32> {
        self.browser.as_ref().and_then(|b| b.child.id())
    }

    async fn restart(&mut self) -> Result<(), DebuggerError> {
        self.relaunch().await
    }

    async fn shutdown(&mut self) {
        if let Some(b) = self.browser.take() {
            b.kill().await;
        }
    }
}

impl FirefoxEngine {
    async fn open_once(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<Box<dyn Debugger>, SyntaxError>, DebuggerError> {
        let link = self.link().await?;
        self.since_launch += 1;
        let t = self.opts.call_timeout;
        // One session at a time per browser: the previous one must have been closed.
        let mut events = tokio::time::timeout(t, link.events.clone().lock_owned())
            .await
            .map_err(|_| {
                DebuggerError::Protocol("the previous Firefox session was not closed".into())
            })?;
        // Whatever an earlier page still said is not this session's.
        while events.try_recv().is_ok() {}
        // Unique across the workers' browsers: two of them may run the same program at once,
        // and each session removes its page when it closes.
        let n = PAGES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let marker = format!("__MORPHTRACE_END_{n}__");
        let page = program.path.with_extension(format!("{n}.morphtrace.html"));
        let prelude = self.browser.as_ref().and_then(|b| b.prelude.clone());
        let prelude_tag = prelude
            .as_deref()
            .map(|u| format!("<script src=\"{u}\"></script>"))
            .unwrap_or_default();
        // The body's `onerror` (the window's) logs a line before the end marker when a script
        // throws: Firefox's error resource can come after the marker, and the session then
        // knows to wait for it. An attribute handler, not a script: no first-statement pause.
        let threw = crate::debugger::rdp::session::threw_marker(&marker);
        let html = format!(
            "<!DOCTYPE html><meta charset=\"utf-8\"><title>morphtrace</title>\
             <body onerror=\"console.log('{threw}')\">{prelude_tag}\
             <script src=\"{}\"></script><script>console.log(\"{marker}\")</script>\n",
            program.url
        );
        std::fs::write(&page, html).map_err(|e| DebuggerError::Launch {
            engine: "firefox".into(),
            reason: format!("{}: {e}", page.display()),
        })?;
        let conn = link.conn.clone();
        let bl = link.breakpoint_list.clone();
        conn.request(
            &bl,
            "setActiveEventBreakpoints",
            json!({"ids": ["script.source.firstStatement"]}),
            t,
        )
        .await
        .map_err(crash)?;
        // The reply may come only once the page is idle (pitfall 5): do not wait for it.
        {
            let (conn, tab) = (conn.clone(), link.tab.clone());
            let url = format!("file://{}", file_url_path(&page));
            tokio::spawn(async move {
                let _ = conn
                    .request(
                        &tab,
                        "navigateTo",
                        json!({"url": url, "waitForLoad": false}),
                        t,
                    )
                    .await;
            });
        }
        // The first statement of the first script: the program's, or the marker's when the
        // program did not compile (or has no statement). The prelude's first statement comes
        // before them if its blackboxing does not silence that pause: go on past it.
        let deadline = tokio::time::Instant::now() + t + Duration::from_secs(5);
        let mut console = Vec::new();
        let mut errors = Vec::new();
        let mut threw_early = false;
        let mut console_actor = None;
        let (paused, thread, source_actor, source_url) = loop {
            let paused = loop {
                let ev = tokio::select! {
                    ev = events.recv() => ev.ok_or_else(|| crash(RdpError::Closed))?,
                    _ = tokio::time::sleep_until(deadline) => {
                        return Err(DebuggerError::Timeout("the page did not load".into()))
                    }
                };
                match ev.get("type").and_then(Json::as_str) {
                    Some("paused") => break ev,
                    // Navigation makes a new target: its console actor evaluates on frames.
                    Some("target-available-form") => {
                        if let Some(c) = ev.pointer("/target/consoleActor").and_then(Json::as_str) {
                            console_actor = Some(c.to_string());
                        }
                    }
                    Some("resources-available-array") => {
                        for (ty, r) in resources(&ev) {
                            match ty {
                                "console-message" => {
                                    let line = crate::debugger::rdp::session::console_line(r);
                                    if line == threw {
                                        threw_early = true;
                                    } else {
                                        console.push(line);
                                    }
                                }
                                "error-message" => errors.extend(page_error(r)),
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            };
            let thread = paused
                .get("from")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string();
            let source_actor = paused
                .pointer("/frame/where/actor")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string();
            let source_url = source_url_of(&conn, &thread, &source_actor, t).await?;
            if prelude.as_deref() == Some(source_url.as_str()) {
                conn.request(&thread, "resume", json!({}), t)
                    .await
                    .map_err(crash)?;
                continue;
            }
            break (paused, thread, source_actor, source_url);
        };
        let first = where_location(&paused["frame"]["where"]);
        conn.request(&bl, "setActiveEventBreakpoints", json!({"ids": []}), t)
            .await
            .map_err(crash)?;
        let is_program = source_url == program.url
            || Path::new(source_url.trim_start_matches("file://")).file_name()
                == program.path.file_name();
        if source_url.ends_with("/aboutTabCrashed.js") {
            // The content process died while the page loaded: Firefox shows its crashed-tab page
            // (the kernel logs a fault in libxul). An engine crash, not a program that did not
            // compile.
            return Err(DebuggerError::Crashed(
                "Firefox's content process crashed while the page loaded (its crashed-tab page \
                 paused instead of the program)"
                    .into(),
            ));
        }
        if !is_program {
            // No pause in the program: it did not compile. Let the page end, then read its error.
            let first_pause = format!(
                "first pause in {source_url} ({})",
                paused
                    .pointer("/why/type")
                    .and_then(Json::as_str)
                    .unwrap_or("?")
            );
            return self
                .without_program(
                    link,
                    events,
                    &thread,
                    &marker,
                    (errors, threw_early),
                    page,
                    first_pause,
                )
                .await;
        }
        let positions = conn
            .request(
                &source_actor,
                "getBreakpointPositionsCompressed",
                json!({}),
                t,
            )
            .await
            .map_err(crash)?;
        let loaded = FirstPause {
            thread,
            source_actor,
            source_url,
            first,
            positions: parse_positions(&positions),
            console,
            console_actor,
        };
        Ok(Ok(Box::new(RdpSession::new(
            &link,
            events,
            loaded,
            marker,
            self.policy,
            self.opts.clone(),
            page,
        ))))
    }

    /// The page ran without ever pausing in the program: report its syntax error, or, if the
    /// program has no statement at all, a session that ends as soon as it starts.
    #[allow(clippy::too_many_arguments)]
    async fn without_program(
        &mut self,
        link: Link,
        mut events: tokio::sync::OwnedMutexGuard<tokio::sync::mpsc::UnboundedReceiver<Json>>,
        thread: &str,
        marker: &str,
        (mut errors, mut threw): (Vec<(String, Option<Location>)>, bool),
        page: PathBuf,
        first_pause: String,
    ) -> Result<Result<Box<dyn Debugger>, SyntaxError>, DebuggerError> {
        let t = self.opts.call_timeout;
        link.conn
            .request(thread, "resume", json!({"resumeLimit": null}), t)
            .await
            .map_err(crash)?;
        // The error can arrive after the marker: when the page said a script threw, wait for
        // it; otherwise a little past the marker.
        let threw_line = crate::debugger::rdp::session::threw_marker(marker);
        let mut deadline = tokio::time::Instant::now() + self.opts.action_timeout;
        let mut ended = false;
        while errors.is_empty() {
            let ev = tokio::select! {
                ev = events.recv() => ev.ok_or_else(|| crash(RdpError::Closed))?,
                _ = tokio::time::sleep_until(deadline) => break,
            };
            for (ty, r) in resources(&ev) {
                match ty {
                    "console-message" => {
                        let line = crate::debugger::rdp::session::console_line(r);
                        if line == threw_line {
                            threw = true;
                        } else if !ended && line == marker {
                            ended = true;
                            if !threw {
                                deadline = tokio::time::Instant::now() + Duration::from_millis(500);
                            }
                        }
                    }
                    "error-message" => errors.extend(page_error(r)),
                    _ => {}
                }
            }
        }
        let _ = std::fs::remove_file(&page);
        drop(events);
        if link.owned {
            link.conn.close();
        }
        match errors.into_iter().next() {
            Some((message, location)) => Ok(Err(SyntaxError { message, location })),
            // Nothing to pause at, nothing wrong: the program ends as soon as it starts.
            None if ended => Ok(Ok(Box::new(
                crate::debugger::rdp::session::EmptyProgram::new(self.policy),
            ))),
            None => Err(DebuggerError::Timeout(format!(
                "the page neither paused in the program nor ended ({first_pause})"
            ))),
        }
    }
}
