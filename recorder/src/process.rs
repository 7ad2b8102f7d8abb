//! Running compilers, profilers and untrusted programs: a time limit, bounded output, resource
//! limits, and death with the recorder.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a finished (or killed) process left behind.
#[derive(Debug, Clone)]
pub struct Finished {
    pub stdout: String,
    pub stderr: String,
    /// `None`: killed by a signal or by the time limit.
    pub code: Option<i32>,
    pub timed_out: bool,
    /// Killed by the recorder's memory bound (`--memory-limit`), with the reason.
    pub memory: Option<String>,
}

impl Finished {
    pub fn ok(&self) -> bool {
        self.code == Some(0)
    }

    /// The last lines of stderr, for error messages.
    pub fn stderr_tail(&self) -> String {
        let lines: Vec<&str> = self.stderr.lines().collect();
        lines[lines.len().saturating_sub(6)..].join("\n")
    }
}

/// Output beyond this is dropped (a program that prints forever is cut, not buffered).
pub(crate) const OUTPUT_LIMIT: u64 = 4 << 20;

/// Limits for untrusted programs (not for the tools): CPU seconds, file size, address space.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub cpu_seconds: u64,
    pub file_bytes: u64,
    pub memory_bytes: u64,
}

fn read_all(r: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(r) = r {
            let _ = r.take(OUTPUT_LIMIT).read_to_end(&mut buf);
        }
        buf
    })
}

/// Runs `cmd` to its end or until `timeout`, whichever comes first; the process dies with the
/// recorder (`PR_SET_PDEATHSIG`) and, with `limits`, under rlimits.
pub fn run(
    cmd: &mut Command,
    timeout: Duration,
    limits: Option<Limits>,
) -> std::io::Result<Finished> {
    use std::os::unix::process::CommandExt;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: prctl and setrlimit are async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            crate::child::die_with_parent_now()?;
            if let Some(l) = limits {
                for (res, v) in [
                    (libc::RLIMIT_CPU, l.cpu_seconds),
                    (libc::RLIMIT_FSIZE, l.file_bytes),
                    (libc::RLIMIT_AS, l.memory_bytes),
                    (libc::RLIMIT_CORE, 0),
                ] {
                    let r = libc::rlimit {
                        rlim_cur: v as libc::rlim_t,
                        rlim_max: v as libc::rlim_t,
                    };
                    if libc::setrlimit(res, &r) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn()?;
    let pid = child.id();
    let out = read_all(child.stdout.take());
    let err = read_all(child.stderr.take());
    let start = Instant::now();
    let mut nap = Duration::from_micros(200);
    let (status, timed_out) = loop {
        if let Some(s) = child.try_wait()? {
            break (s, false);
        }
        if start.elapsed() >= timeout {
            let _ = child.kill();
            break (child.wait()?, true);
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(10));
    };
    let stdout = String::from_utf8_lossy(&out.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
    Ok(Finished {
        stdout,
        stderr,
        code: if timed_out { None } else { status.code() },
        timed_out,
        memory: crate::memory::take_kill(pid).map(|k| k.reason()),
    })
}

/// The first line a tool prints for `--version`.
pub fn version_line(exe: &str) -> Option<String> {
    let f = run(
        Command::new(exe).arg("--version"),
        Duration::from_secs(10),
        None,
    )
    .ok()?;
    f.stdout
        .lines()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
}
