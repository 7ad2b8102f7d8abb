//! debugpy's warm start (issue 70): one interpreter per engine that has imported debugpy once
//! (`python-forkserver.py`) forks a child per session, which connects to the session's adapter
//! (an `attach` whose adapter listens) and runs the program as debugpy's launcher would have
//! started it, paused at its first statement. A cold start spends about 1.2 s of two
//! interpreters' start-up and debugpy's import per session; a fork, a few milliseconds.
//!
//! The child's standard output and error go to two FIFOs of the session's, read here while it
//! runs (the adapter relays nothing: its launcher, which would, is not there); its exit status
//! comes from the server, which reaps it, when the session asks for the program's end.

use crate::child::DieWithParent;
use crate::debugger::DebuggerError;
use serde_json::{json, Value as Json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{mpsc, Mutex as AsyncMutex, Notify};
use tokio::task::JoinHandle;

/// The server's script, written beside the engine's sitecustomize: the fork loop both Python
/// fork servers share, then its own part.
pub const SCRIPT: &str = concat!(
    include_str!("python-forkloop.py"),
    include_str!("python-forkserver.py")
);
pub const SCRIPT_NAME: &str = "morphtrace_forkserver.py";

/// Exit statuses the server reported, by pid (as `subprocess`'s returncode: negative for a
/// signal), until a session takes its own. Only the children still owned are kept (a session
/// that ended without asking, killed by its close, is forgotten), so that a long campaign does
/// not accumulate them.
#[derive(Clone, Default)]
pub struct Exits {
    /// `None`: forked, not ended yet.
    statuses: Arc<Mutex<HashMap<u32, Option<i64>>>>,
    changed: Arc<Notify>,
    /// The server has gone (killed with its children by the memory guard, or crashed): no
    /// status will come.
    gone: Arc<std::sync::atomic::AtomicBool>,
}

/// Why a child's status did not come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoStatus {
    /// The server went, and its children with it.
    ServerGone,
    /// The deadline passed.
    Late,
}

impl Exits {
    fn forked(&self, pid: u32) {
        if let Ok(mut s) = self.statuses.lock() {
            s.insert(pid, None);
        }
    }

    fn put(&self, pid: u32, status: i64) {
        if let Ok(mut s) = self.statuses.lock() {
            if let Some(slot) = s.get_mut(&pid) {
                *slot = Some(status);
            }
        }
        self.changed.notify_waiters();
    }

    /// No status of `pid` is wanted any more.
    pub fn forget(&self, pid: u32) {
        if let Ok(mut s) = self.statuses.lock() {
            s.remove(&pid);
        }
    }

    fn went(&self) {
        self.gone.store(true, std::sync::atomic::Ordering::SeqCst);
        self.changed.notify_waiters();
    }

    /// The status of `pid`, once the server has reaped it.
    pub async fn wait(&self, pid: u32, deadline: tokio::time::Instant) -> Result<i64, NoStatus> {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if let Some(s) = self
                .statuses
                .lock()
                .ok()
                .and_then(|s| s.get(&pid).copied().flatten())
            {
                return Ok(s);
            }
            if self.gone.load(std::sync::atomic::Ordering::SeqCst) {
                return Err(NoStatus::ServerGone);
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return Err(NoStatus::Late);
            }
        }
    }
}

/// The server's request side, shared by the engine and the session it opens.
#[derive(Clone)]
pub struct Forker {
    stdin: Arc<AsyncMutex<ChildStdin>>,
    forked: Arc<AsyncMutex<mpsc::UnboundedReceiver<u32>>>,
    pub exits: Exits,
}

impl Forker {
    /// Forks a child that runs `request` (see `python-forkserver.py`); its pid.
    pub async fn fork(
        &self,
        request: &Json,
        timeout: std::time::Duration,
    ) -> Result<u32, DebuggerError> {
        let gone = || DebuggerError::Crashed("debugpy's fork server is gone".into());
        let mut forked = self.forked.lock().await;
        {
            let mut stdin = self.stdin.lock().await;
            let mut line = request.to_string();
            line.push('\n');
            stdin.write_all(line.as_bytes()).await.map_err(|_| gone())?;
            stdin.flush().await.map_err(|_| gone())?;
        }
        match tokio::time::timeout(timeout, forked.recv()).await {
            Ok(Some(pid)) => Ok(pid),
            Ok(None) => Err(gone()),
            Err(_) => Err(DebuggerError::Timeout(
                "debugpy's fork server did not fork".into(),
            )),
        }
    }
}

pub struct ForkServer {
    child: Child,
    pub forker: Forker,
    reader: JoinHandle<()>,
}

impl ForkServer {
    /// Starts the server with `python` (flags as debugpy's launcher gives the program's
    /// interpreter) in `env`, its script in `site`; returns once debugpy is imported.
    /// `adapters`: a server of debugpy's adapters (`fork_adapter`) instead of programs.
    pub async fn start(
        python: &Path,
        site: &Path,
        env: &[(String, String)],
        adapters: bool,
        timeout: std::time::Duration,
    ) -> Result<ForkServer, DebuggerError> {
        let fail = |reason: String| DebuggerError::Launch {
            engine: format!("debugpy's fork server ({})", python.display()),
            reason,
        };
        let script = site.join(SCRIPT_NAME);
        if !script.is_file() {
            std::fs::write(&script, SCRIPT).map_err(|e| fail(e.to_string()))?;
        }
        let mut command = Command::new(python);
        if adapters {
            command.arg(&script).arg("adapter");
        } else {
            // As debugpy's launcher starts the program's interpreter (launcher/handlers.py).
            command.args(["-X", "frozen_modules=off"]).arg(&script);
        }
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .die_with_parent()
            .spawn()
            .map_err(|e| fail(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(fail("no stdio".into()));
        };
        // Ready once debugpy is imported: a server that cannot import it ends here, with its
        // reason, rather than at the first session.
        let mut lines = BufReader::new(stdout).lines();
        match tokio::time::timeout(timeout, lines.next_line()).await {
            Ok(Ok(Some(l))) if l == "ready" => {}
            Ok(_) => {
                let status = child
                    .wait()
                    .await
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                return Err(fail(format!("it ended before it was ready ({status})")));
            }
            Err(_) => return Err(fail(format!("not ready within {timeout:?}"))),
        }
        let exits = Exits::default();
        let (tx, rx) = mpsc::unbounded_channel();
        let e = exits.clone();
        let reader = tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                let mut words = line.split(' ');
                match (words.next(), words.next(), words.next()) {
                    (Some("forked"), Some(pid), None) => {
                        if let Ok(pid) = pid.parse() {
                            // Before any `exited` line of it, which the server writes later.
                            e.forked(pid);
                            let _ = tx.send(pid);
                        }
                    }
                    (Some("exited"), Some(pid), Some(status)) => {
                        if let (Ok(pid), Ok(status)) = (pid.parse(), status.parse()) {
                            e.put(pid, status);
                        }
                    }
                    _ => tracing::warn!("debugpy's fork server said {line:?}"),
                }
            }
            e.went();
        });
        Ok(ForkServer {
            child,
            forker: Forker {
                stdin: Arc::new(AsyncMutex::new(stdin)),
                forked: Arc::new(AsyncMutex::new(rx)),
                exits,
            },
            reader,
        })
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Whether the server still runs (the memory guard kills it with the child that passed the
    /// bound).
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    pub async fn stop(&mut self) {
        self.reader.abort();
        let _ = self.child.kill().await;
    }
}

/// One of the child's standard streams: a FIFO read while the program runs.
pub struct Stream {
    pub path: PathBuf,
    text: Arc<Mutex<Vec<u8>>>,
    finish: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl Stream {
    /// A FIFO at `path`, opened for reading and writing so that it has a reader before the
    /// child opens it, and no end of file between the child's writers; read until `finish`.
    pub fn open(path: PathBuf) -> std::io::Result<Stream> {
        mkfifo(&path)?;
        let rx = tokio::net::unix::pipe::OpenOptions::new()
            .read_write(true)
            .open_receiver(&path)?;
        let text = Arc::new(Mutex::new(Vec::new()));
        let (finish, mut finished) = tokio::sync::oneshot::channel::<()>();
        let t = text.clone();
        let task = tokio::spawn(async move {
            let mut buf = vec![0u8; 65536];
            let mut read = |rx: &tokio::net::unix::pipe::Receiver| loop {
                match rx.try_read(&mut buf) {
                    Ok(0) => return false,
                    Ok(n) => {
                        if let Ok(mut t) = t.lock() {
                            t.extend_from_slice(&buf[..n]);
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return true,
                    Err(_) => return false,
                }
            };
            loop {
                tokio::select! {
                    r = rx.readable() => {
                        if r.is_err() || !read(&rx) {
                            return;
                        }
                    }
                    _ = &mut finished => {
                        // The child has ended: what it wrote is in the pipe.
                        read(&rx);
                        return;
                    }
                }
            }
        });
        Ok(Stream {
            path,
            text,
            finish: Some(finish),
            task: Some(task),
        })
    }

    /// What was read so far.
    pub fn text(&self) -> String {
        self.text
            .lock()
            .map(|t| String::from_utf8_lossy(&t).into_owned())
            .unwrap_or_default()
    }

    /// Reads what is left (the child has ended) and stops reading.
    pub async fn finish(&mut self) {
        if let Some(f) = self.finish.take() {
            let _ = f.send(());
        }
        if let Some(t) = self.task.take() {
            let _ = t.await;
        }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        if let Some(t) = self.task.take() {
            t.abort();
        }
    }
}

/// A session's warm program: the request that forks it, its streams, and once forked its pid.
pub struct Warm {
    forker: Forker,
    request: Json,
    pub stdout: Stream,
    pub stderr: Stream,
    pub pid: Option<u32>,
    /// The FIFOs' directory, removed with the session.
    _dir: tempfile::TempDir,
}

impl Warm {
    /// A session's streams in a fresh directory under `parent`; `request` without the port.
    pub fn new(forker: Forker, parent: &Path, mut request: Json) -> std::io::Result<Warm> {
        let dir = tempfile::Builder::new()
            .prefix("session-")
            .tempdir_in(parent)?;
        let stdout = Stream::open(dir.path().join("out"))?;
        let stderr = Stream::open(dir.path().join("err"))?;
        request["out"] = json!(stdout.path.display().to_string());
        request["err"] = json!(stderr.path.display().to_string());
        Ok(Warm {
            forker,
            request,
            stdout,
            stderr,
            pid: None,
            _dir: dir,
        })
    }

    /// Forks the program, to connect to the adapter's `port`.
    pub async fn start(
        &mut self,
        port: u16,
        timeout: std::time::Duration,
    ) -> Result<u32, DebuggerError> {
        let mut request = self.request.clone();
        request["port"] = json!(port);
        let pid = self.forker.fork(&request, timeout).await?;
        self.pid = Some(pid);
        Ok(pid)
    }

    /// The program's exit status once it has ended, its streams read to the end (`Ok(None)`:
    /// it was never forked).
    pub async fn end(&mut self, deadline: tokio::time::Instant) -> Result<Option<i64>, NoStatus> {
        let Some(pid) = self.pid else {
            return Ok(None);
        };
        let status = self.forker.exits.wait(pid, deadline).await;
        self.stdout.finish().await;
        self.stderr.finish().await;
        status.map(Some)
    }

    /// Kills the program and whatever it started.
    pub fn kill(&self) {
        let Some(pid) = self.pid else { return };
        let mut all = crate::child::descendants(pid);
        all.push(pid);
        for p in all {
            // SAFETY: kill takes no pointers; a pid gone meanwhile is an ESRCH, ignored.
            unsafe {
                libc::kill(p as i32, libc::SIGKILL);
            }
        }
    }
}

/// A debug adapter's process: started (`python -m debugpy.adapter`) or forked from the adapters'
/// fork server.
pub enum AdapterProcess {
    Spawned(Child),
    Forked(ForkedAdapter),
}

/// A forked adapter: its pid, and where its status comes from.
pub struct ForkedAdapter {
    pid: u32,
    exits: Exits,
    /// The FIFOs' directory, removed with the adapter.
    _dir: tempfile::TempDir,
}

impl AdapterProcess {
    pub fn id(&self) -> Option<u32> {
        match self {
            AdapterProcess::Spawned(c) => c.id(),
            AdapterProcess::Forked(f) => Some(f.pid),
        }
    }

    /// Sends the kill; does not wait.
    pub fn start_kill(&mut self) {
        match self {
            AdapterProcess::Spawned(c) => {
                let _ = c.start_kill();
            }
            AdapterProcess::Forked(f) => {
                // SAFETY: kill takes no pointers; a pid gone meanwhile is an ESRCH, ignored.
                unsafe {
                    libc::kill(f.pid as i32, libc::SIGKILL);
                }
            }
        }
    }

    /// How it ended, within `within` (`None`: still running, or not known).
    pub async fn wait(&mut self, within: std::time::Duration) -> Option<std::process::ExitStatus> {
        use std::os::unix::process::ExitStatusExt;
        match self {
            AdapterProcess::Spawned(c) => tokio::time::timeout(within, c.wait()).await.ok()?.ok(),
            AdapterProcess::Forked(f) => {
                let code = f
                    .exits
                    .wait(f.pid, tokio::time::Instant::now() + within)
                    .await
                    .ok()?;
                // As a wait status: a signal's number, or the exit code in the second byte.
                let raw = if code < 0 {
                    (-code) as i32
                } else {
                    (code as i32) << 8
                };
                Some(std::process::ExitStatus::from_raw(raw))
            }
        }
    }
}

/// Forks an adapter speaking DAP over two FIFOs in a fresh directory under `parent`: its
/// process, and the ends to read its output from and write its input to.
pub async fn fork_adapter(
    forker: &Forker,
    parent: &Path,
    timeout: std::time::Duration,
) -> Result<
    (
        AdapterProcess,
        tokio::net::unix::pipe::Receiver,
        tokio::net::unix::pipe::Sender,
    ),
    DebuggerError,
> {
    let io = |e: std::io::Error| DebuggerError::Launch {
        engine: "debugpy's adapter".into(),
        reason: format!("its streams: {e}"),
    };
    let dir = tempfile::Builder::new()
        .prefix("adapter-")
        .tempdir_in(parent)
        .map_err(io)?;
    let (input, output) = (dir.path().join("in"), dir.path().join("out"));
    for p in [&input, &output] {
        mkfifo(p).map_err(io)?;
    }
    // Written and read by this end too, so that opening it never waits for the adapter.
    let sender = tokio::net::unix::pipe::OpenOptions::new()
        .read_write(true)
        .open_sender(&input)
        .map_err(io)?;
    let request = json!({
        "in": input.display().to_string(),
        "out": output.display().to_string(),
    });
    let pid = forker.fork(&request, timeout).await?;
    // Opened for reading only, so that the adapter's end is an end of file: the open waits
    // for the adapter's; if the adapter never opens it, an open for writing here ends the wait.
    let path = output.clone();
    let open = tokio::task::spawn_blocking(move || std::fs::File::open(path));
    let file = match tokio::time::timeout(timeout, open).await {
        Ok(Ok(Ok(f))) => f,
        Ok(Ok(Err(e))) => return Err(io(e)),
        Ok(Err(e)) => return Err(io(std::io::Error::other(e))),
        Err(_) => {
            use std::os::unix::fs::OpenOptionsExt;
            let _ = std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&output);
            // SAFETY: kill takes no pointers.
            unsafe {
                libc::kill(pid as i32, libc::SIGKILL);
            }
            return Err(DebuggerError::Timeout(
                "debugpy's forked adapter did not open its output".into(),
            ));
        }
    };
    let receiver = tokio::net::unix::pipe::Receiver::from_file(file).map_err(io)?;
    Ok((
        AdapterProcess::Forked(ForkedAdapter {
            pid,
            exits: forker.exits.clone(),
            _dir: dir,
        }),
        receiver,
        sender,
    ))
}

fn mkfifo(path: &Path) -> std::io::Result<()> {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes())
        .map_err(std::io::Error::other)?;
    // SAFETY: a path as a C string; mkfifo takes no other pointer.
    if unsafe { libc::mkfifo(c.as_ptr(), 0o600) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

impl Drop for Warm {
    fn drop(&mut self) {
        if let Some(pid) = self.pid {
            self.forker.exits.forget(pid);
        }
    }
}

impl Drop for ForkedAdapter {
    fn drop(&mut self) {
        self.exits.forget(self.pid);
    }
}
