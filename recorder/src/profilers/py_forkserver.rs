//! coverage.py's warm start (issue 70): interpreters that have imported coverage.py's command
//! line once (`py-forkserver.py`) fork a child per run, which runs as `python -m coverage ARGS`
//! would have. A cold run spends about 0.1 s of an interpreter's start-up and coverage.py's
//! import; a fork, a few milliseconds.
//!
//! A server runs one child at a time and serves one worker at a time (taken from a pool, put
//! back after the run), so that the memory guard's kill of a server's tree is the kill of one
//! run, as in a cold start. The child's standard output and error are two FIFOs read here, as
//! the cold start reads its pipes; its status comes from the server, which reaps it.

use crate::process::{Finished, Limits, OUTPUT_LIMIT};
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The server's script, written beside the engine's sitecustomize: the fork loop both Python
/// fork servers share, then its own part.
pub const SCRIPT: &str = concat!(
    include_str!("../debugger/engines/python-forkloop.py"),
    include_str!("py-forkserver.py")
);
pub const SCRIPT_NAME: &str = "morphtrace_coverage_forkserver.py";

/// How long a server may take to import coverage.py, and a fork to be answered.
const START: Duration = Duration::from_secs(60);
const FORK: Duration = Duration::from_secs(10);
/// How long a child killed at its time limit may take to be reaped.
const REAP: Duration = Duration::from_secs(10);

/// What one run asks for, besides the environment every run of the engine shares.
pub struct Request<'a> {
    /// `coverage`'s arguments (`run …`, `json …`).
    pub argv: Vec<String>,
    pub cwd: &'a Path,
    pub env: Vec<(&'a str, String)>,
    pub limits: Option<Limits>,
    /// The determinism prelude's program path, as `MORPHTRACE_PRELUDE` names it.
    pub prelude: Option<&'a Path>,
}

/// A pool of servers for one interpreter and environment.
pub struct ForkServers {
    python: PathBuf,
    /// Asks the spawning thread for a new server.
    spawn: Mutex<mpsc::Sender<mpsc::Sender<std::io::Result<Server>>>>,
    idle: Mutex<Vec<Server>>,
}

/// How servers are started.
#[derive(Clone)]
struct Spec {
    python: PathBuf,
    /// The environment every run shares (the server's; a cold run's is set per process).
    env: Vec<(OsString, OsString)>,
    /// The script's directory (the engine's sitecustomize folder): the server's working
    /// directory.
    dir: PathBuf,
}

impl std::fmt::Debug for ForkServers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ForkServers")
            .field("python", &self.python)
            .finish_non_exhaustive()
    }
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    /// The server's lines; disconnected when it has gone.
    lines: Receiver<String>,
    /// The end of what the server wrote on its standard error (why it died, if it did).
    said: std::sync::Arc<Mutex<String>>,
}

/// Why a run could not be had from a server.
enum Lost {
    /// The server went (its tree killed by the memory guard, or it crashed).
    Gone,
    Io(std::io::Error),
}

impl Server {
    /// Not exited (a server killed between two runs is not reused).
    fn alive(&self) -> bool {
        // Running or asleep, not a zombie (exited, not waited for yet).
        std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))
            .ok()
            .and_then(|s| s.rsplit_once(") ").map(|(_, r)| !r.starts_with('Z')))
            .unwrap_or(false)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl ForkServers {
    /// Servers of `python` with `env` (as a cold run's `Command` would have it, cleared of the
    /// recorder's), whose script is written into `dir`.
    pub fn new(
        python: &Path,
        env: Vec<(OsString, OsString)>,
        dir: &Path,
    ) -> std::io::Result<ForkServers> {
        std::fs::write(dir.join(SCRIPT_NAME), SCRIPT)?;
        let spec = Spec {
            python: python.to_path_buf(),
            env,
            dir: dir.to_path_buf(),
        };
        // Servers are started by a thread of their own, which lives as long as they may: the
        // parent-death signal is the spawning *thread's*, and a campaign's worker that started
        // one may end while another worker still runs programs in it.
        let (spawn, asked) = mpsc::channel::<mpsc::Sender<std::io::Result<Server>>>();
        std::thread::Builder::new()
            .name("coveragepy-forkservers".into())
            .spawn(move || {
                for reply in asked {
                    let _ = reply.send(spec.start());
                }
            })?;
        Ok(ForkServers {
            python: python.to_path_buf(),
            spawn: Mutex::new(spawn),
            idle: Mutex::new(Vec::new()),
        })
    }

    fn start(&self) -> std::io::Result<Server> {
        let (reply, answer) = mpsc::channel();
        self.spawn
            .lock()
            .map_err(|_| std::io::Error::other("the fork servers' spawner is gone"))?
            .send(reply)
            .map_err(|_| std::io::Error::other("the fork servers' spawner is gone"))?;
        answer
            .recv()
            .map_err(|_| std::io::Error::other("the fork servers' spawner is gone"))?
    }
}

impl Spec {
    fn start(&self) -> std::io::Result<Server> {
        use std::os::unix::process::CommandExt;
        let mut cmd = Command::new(&self.python);
        cmd.current_dir(&self.dir)
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .arg(self.dir.join(SCRIPT_NAME))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            cmd.pre_exec(crate::child::die_with_parent_now);
        }
        let mut child = cmd.spawn()?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(std::io::Error::other(
                "coverage.py's fork server has no stdio",
            ));
        };
        let said = std::sync::Arc::new(Mutex::new(String::new()));
        let tail = said.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Ok(mut t) = tail.lock() {
                    t.push_str(&line);
                    t.push('\n');
                    let cut = t.len().saturating_sub(4096);
                    let cut = (cut..t.len()).find(|&i| t.is_char_boundary(i)).unwrap_or(0);
                    t.drain(..cut);
                }
            }
        });
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let server = Server {
            child,
            stdin,
            lines,
            said,
        };
        match server.lines.recv_timeout(START) {
            Ok(l) if l == "ready" => Ok(server),
            Ok(l) => Err(std::io::Error::other(format!(
                "coverage.py's fork server said {l:?} at its start"
            ))),
            Err(_) => Err(std::io::Error::other(
                "coverage.py's fork server did not start (coverage.py not importable?)",
            )),
        }
    }
}

impl ForkServers {
    /// Runs `request` in a child of an idle server (started if none is), to its end or until
    /// `timeout`, as `process::run` runs a cold one.
    pub fn run(&self, request: &Request, timeout: Duration) -> std::io::Result<Finished> {
        let idle = self.idle.lock().ok().and_then(|mut i| i.pop());
        let mut server = match idle.filter(|s| s.alive()) {
            Some(s) => s,
            None => self.start()?,
        };
        let pid = server.child.id();
        match run_in(&mut server, request, timeout) {
            Ok(f) => {
                if let Ok(mut i) = self.idle.lock() {
                    i.push(server);
                }
                Ok(f)
            }
            Err(Lost::Gone) => {
                // Its children died with it (their parent-death signal).
                let status = server.child.wait().ok();
                let said = server.said.lock().map(|s| s.clone()).unwrap_or_default();
                drop(server);
                match crate::memory::take_kill(pid) {
                    Some(k) => Ok(Finished {
                        stdout: String::new(),
                        stderr: String::new(),
                        code: None,
                        timed_out: false,
                        memory: Some(k.reason()),
                    }),
                    None => Err(std::io::Error::other(format!(
                        "coverage.py's fork server died during a run ({}): {}",
                        status.map(|s| s.to_string()).unwrap_or_default(),
                        said.trim()
                    ))),
                }
            }
            Err(Lost::Io(e)) => Err(e),
        }
    }
}

fn run_in(server: &mut Server, request: &Request, timeout: Duration) -> Result<Finished, Lost> {
    let dir = tempfile::Builder::new()
        .prefix("morphtrace-coveragepy-run-")
        .tempdir()
        .map_err(Lost::Io)?;
    let (out, err) = (dir.path().join("out"), dir.path().join("err"));
    let (out_r, out_w) = stream(&out).map_err(Lost::Io)?;
    let (err_r, err_w) = stream(&err).map_err(Lost::Io)?;
    let env: serde_json::Map<String, serde_json::Value> = request
        .env
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone().into()))
        .collect();
    let line = serde_json::json!({
        "argv": request.argv,
        "cwd": request.cwd.display().to_string(),
        "env": env,
        "out": out.display().to_string(),
        "err": err.display().to_string(),
        "limits": request.limits.map(|l| [l.cpu_seconds, l.file_bytes, l.memory_bytes]),
        "prelude": request.prelude.map(|p| p.display().to_string()),
    })
    .to_string()
        + "\n";
    if server.stdin.write_all(line.as_bytes()).is_err() || server.stdin.flush().is_err() {
        return Err(Lost::Gone);
    }
    let said = |lines: &Receiver<String>, until: Duration| match lines.recv_timeout(until) {
        Ok(l) => Ok(Some(l)),
        Err(RecvTimeoutError::Timeout) => Ok(None),
        Err(RecvTimeoutError::Disconnected) => Err(Lost::Gone),
    };
    let pid: u32 = match said(&server.lines, FORK)? {
        Some(l) => l
            .strip_prefix("forked ")
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| {
                Lost::Io(std::io::Error::other(format!("the fork server said {l:?}")))
            })?,
        None => {
            return Err(Lost::Io(std::io::Error::other(
                "the fork server did not fork",
            )))
        }
    };
    let exited = |l: &str| -> Option<i64> {
        let rest = l.strip_prefix("exited ")?;
        let (p, status) = rest.split_once(' ')?;
        (p.parse::<u32>().ok()? == pid).then_some(())?;
        status.parse().ok()
    };
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        let left = timeout.saturating_sub(start.elapsed());
        let until = if timed_out { REAP } else { left };
        match said(&server.lines, until)? {
            Some(l) => {
                if let Some(s) = exited(&l) {
                    break s;
                }
            }
            None if !timed_out => {
                timed_out = true;
                // SAFETY: kill takes no pointers; a pid gone meanwhile is an ESRCH, ignored.
                unsafe {
                    libc::kill(pid as i32, libc::SIGKILL);
                }
            }
            None => {
                return Err(Lost::Io(std::io::Error::other(
                    "a run killed at its time limit was not reaped",
                )))
            }
        }
    };
    // The child has ended: its ends of the FIFOs are closed, and with ours the readers see
    // their end once what it wrote is read (a descendant that kept them open keeps them, as a
    // cold run's pipes are kept).
    drop((out_w, err_w));
    let stdout = String::from_utf8_lossy(&out_r.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err_r.join().unwrap_or_default()).into_owned();
    Ok(Finished {
        stdout,
        stderr,
        code: if timed_out || status < 0 {
            None
        } else {
            Some(status as i32)
        },
        timed_out,
        memory: None,
    })
}

/// A FIFO at `path` read by a thread (up to the output limit, as a cold run's pipe), and this
/// end's own writer, which keeps the reader from its end until the child has ended (whether or
/// not the child ever opened it).
fn stream(path: &Path) -> std::io::Result<(std::thread::JoinHandle<Vec<u8>>, std::fs::File)> {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes())
        .map_err(std::io::Error::other)?;
    // SAFETY: a path as a C string; mkfifo takes no other pointer.
    if unsafe { libc::mkfifo(c.as_ptr(), 0o600) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // Opened without waiting for a writer, then made blocking for the reads.
    let reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let writer = std::fs::OpenOptions::new().write(true).open(path)?;
    {
        use std::os::fd::AsRawFd;
        let fd = reader.as_raw_fd();
        // SAFETY: fcntl on a descriptor we own; no pointers.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) < 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
    }
    let handle = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = reader.take(OUTPUT_LIMIT).read_to_end(&mut buf);
        buf
    });
    Ok((handle, writer))
}
