//! Delve, Go's debugger, through its Debug Adapter Protocol server (`dlv dap`; Debian 12's
//! delve 1.20 with Go 1.19), on Go programs the recorder builds for each session. The build is
//! the engine's variant: `delve+noopt` (the default; `-gcflags=all=-N -l`, optimizations and
//! inlining off, as `dlv debug` builds) or `delve+opt` (`go build`'s own optimized code).
//!
//! The same DAP session as debugpy's and LLDB's (the `Go` dialect), with three differences:
//! - The adapter dials in (`--client-addr`) to a port the recorder listens on, on loopback: no
//!   port is opened by the debugger.
//! - Delve 1.20 does not send the program's output as events: the program writes to the
//!   adapter's own stdout and stderr, which are pipes the session reads to the end when the
//!   program has ended. Its exit status comes in Delve's console (`Process N has exited with
//!   status S`).
//! - A tracee outlives a killed Delve (it is detached, not killed: checked with a program that
//!   loops), so each adapter runs as the first process of a PID namespace of its own
//!   (`unshare --pid --fork --kill-child`, `--mount-proc` for Delve's `/proc` reads): when it
//!   dies, the kernel kills the program with it, and it dies with the recorder.
//!
//! The entry: a function breakpoint on `main.main` (cleared at its stop), which Delve places on
//! the `func main() {` line, then one step over to `main`'s first statement.

use crate::child::DieWithParent;
use crate::debugger::dap::session::{initialize, AdapterTraits, Dialect, Launched};
use crate::debugger::dap::{Connection, DapSession};
use crate::debugger::engines::forkserver::{AdapterProcess, Stream};
use crate::debugger::{CaptureOptions, Debugger, DebuggerError, Engine, ProgramFile, SyntaxError};
use async_trait::async_trait;
use morphtrace_schema::{EngineDescriptor, EngineKind, Location, Protocol};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::process::Command;

/// The descriptor's detail that names the build (`noopt (go build -gcflags=all=-N -l; go1.19.8)`),
/// as it names a C program's.
use crate::debugger::engines::native::BUILD;

/// How long a program may take to build (the first build of a campaign also builds the
/// standard library without optimizations into the Go cache: about 3 s here).
const BUILD_TIMEOUT: Duration = Duration::from_secs(120);

/// The environment of the adapter, and so of the program (Delve passes its own): the same
/// under every run. `XDG_CONFIG_HOME`: where Delve would write its configuration file (none is
/// written where the directory does not exist).
const ENVIRONMENT: [(&str, &str); 3] = [
    ("PATH", "/usr/local/bin:/usr/bin:/bin"),
    ("LC_ALL", "C"),
    ("XDG_CONFIG_HOME", "/nonexistent"),
];

/// How a Go program is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GoBuild {
    /// Optimizations and inlining off (`-gcflags=all=-N -l`), as `dlv debug` builds.
    #[default]
    NoOpt,
    /// `go build`'s default: optimized, functions inlined.
    Opt,
}

impl GoBuild {
    pub fn parse(s: &str) -> Option<GoBuild> {
        match s {
            "noopt" => Some(GoBuild::NoOpt),
            "opt" => Some(GoBuild::Opt),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            GoBuild::NoOpt => "noopt",
            GoBuild::Opt => "opt",
        }
    }

    fn flags(self) -> &'static [&'static str] {
        match self {
            GoBuild::NoOpt => &["-gcflags=all=-N -l"],
            GoBuild::Opt => &[],
        }
    }

    pub const HELP: &'static str = "the builds are noopt (-gcflags=all=-N -l, the default) and opt (go build's optimized code), e.g. delve+opt";
}

pub struct DelveEngine {
    desc: EngineDescriptor,
    opts: CaptureOptions,
    dlv: PathBuf,
    go: PathBuf,
    build: GoBuild,
    /// `unshare` and its flags: the adapter's own PID namespace.
    namespace: Vec<String>,
    /// Each session's binary and pipes, removed with the engine.
    dir: tempfile::TempDir,
    sessions: u64,
    current: Option<u32>,
}

impl DelveEngine {
    /// `dlv`: Delve's executable; Go's `go` comes from PATH.
    pub async fn launch(
        dlv: PathBuf,
        build: GoBuild,
        opts: CaptureOptions,
    ) -> Result<DelveEngine, DebuggerError> {
        let fail = |reason: String| DebuggerError::Launch {
            engine: format!("delve ({})", dlv.display()),
            reason,
        };
        let go = super::which("go")
            .ok_or_else(|| fail("go is not installed (run scripts/setup.sh)".into()))?;
        let unshare = super::which("unshare")
            .ok_or_else(|| fail("unshare (util-linux) is not installed".into()))?;
        let mut namespace = vec![unshare.display().to_string()];
        // Without root, a user namespace first (the caller becomes root in it).
        // SAFETY: geteuid takes nothing and cannot fail.
        if unsafe { libc::geteuid() } != 0 {
            namespace.extend(["--user".into(), "--map-root-user".into()]);
        }
        namespace.extend(
            ["--pid", "--fork", "--mount-proc", "--kill-child"]
                .iter()
                .map(|s| s.to_string()),
        );
        let first_line = |exe: &Path, args: &[&str], word: &str| {
            let mut cmd = std::process::Command::new(exe);
            cmd.args(args);
            crate::process::run(&mut cmd, Duration::from_secs(10), None)
                .ok()
                .and_then(|f| {
                    f.stdout
                        .lines()
                        .find(|l| l.contains(word))
                        .map(|l| l.trim().to_string())
                })
        };
        // `Version: 1.20.2`
        let version = first_line(&dlv, &["version"], "Version:")
            .and_then(|l| l.split_whitespace().last().map(str::to_string))
            .ok_or_else(|| fail("`dlv version` names no version".into()))?;
        // `go version go1.19.8 linux/amd64`
        let go_version = first_line(&go, &["version"], "go version")
            .ok_or_else(|| fail("`go version` said nothing".into()))?;
        // The namespace must be had here, or a killed recorder would leave programs running.
        let mut probe = std::process::Command::new(&namespace[0]);
        probe.args(&namespace[1..]).arg("true");
        match crate::process::run(&mut probe, Duration::from_secs(10), None) {
            Ok(f) if f.ok() => {}
            Ok(f) => {
                return Err(fail(format!(
                    "its programs must die with the recorder, and so run in a PID namespace of \
                     their own, which this machine refuses ({}): {}",
                    namespace.join(" "),
                    f.stderr_tail()
                )))
            }
            Err(e) => return Err(fail(e.to_string())),
        }
        let dir = tempfile::Builder::new()
            .prefix("morphtrace-delve-")
            .tempdir()
            .map_err(|e| fail(e.to_string()))?;
        let flags = build.flags().join(" ");
        let desc = EngineDescriptor {
            kind: EngineKind::Delve,
            executable: dlv.display().to_string(),
            // Two builds in one campaign must be told apart in every report.
            version: format!("{version}+{}", build.name()),
            protocol: Protocol::Dap,
            engine_version: Some(format!("Delve {version}; {go_version}")),
            details: vec![
                (
                    BUILD.into(),
                    format!("{} (go build {flags}; {go_version})", build.name()),
                ),
                (
                    "launch".into(),
                    "function breakpoint at main.main, cleared at its stop, then a step over"
                        .into(),
                ),
            ],
        };
        Ok(DelveEngine {
            desc,
            opts,
            dlv,
            go,
            build,
            namespace,
            dir,
            sessions: 0,
            current: None,
        })
    }

    /// Builds this session's binary, or answers the compiler's first error as the program's
    /// syntax error. The previous session's files go first (a Go binary is megabytes).
    async fn compile(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<PathBuf, SyntaxError>, DebuggerError> {
        let fail = |reason: String| DebuggerError::Launch {
            engine: "go build".into(),
            reason,
        };
        if self.sessions > 0 {
            for f in ["prog", "out", "err"] {
                let _ = std::fs::remove_file(self.file(f, self.sessions));
            }
        }
        self.sessions += 1;
        let out = self.file("prog", self.sessions);
        let mut cmd = std::process::Command::new(&self.go);
        cmd.arg("build")
            .args(self.build.flags())
            .arg("-o")
            .arg(&out)
            .arg(&program.path)
            .current_dir(self.dir.path())
            .env_clear()
            .envs(ENVIRONMENT)
            // One build cache for every campaign; no module, no network, no C.
            .env("GOCACHE", crate::cache_root().join("go-build"))
            .env("GOPATH", self.dir.path().join("gopath"))
            .env("GO111MODULE", "off")
            .env("GOPROXY", "off")
            .env("GOFLAGS", "")
            .env("CGO_ENABLED", "0");
        let f =
            tokio::task::spawn_blocking(move || crate::process::run(&mut cmd, BUILD_TIMEOUT, None))
                .await
                .map_err(|e| fail(e.to_string()))?
                .map_err(|e| fail(e.to_string()))?;
        if f.ok() && out.is_file() {
            return Ok(Ok(out));
        }
        Ok(Err(compile_error(&f.stderr, &program.path)))
    }

    fn file(&self, what: &str, session: u64) -> PathBuf {
        self.dir.path().join(format!("{what}-{session}"))
    }

    /// The adapter in its namespace, dialled in and initialized, its streams (the program's)
    /// read apart.
    async fn adapter(&mut self) -> Result<(Launched, Stream, Stream), DebuggerError> {
        let fail = |reason: String| DebuggerError::Launch {
            engine: format!("delve ({})", self.dlv.display()),
            reason,
        };
        let out = Stream::open(self.file("out", self.sessions)).map_err(|e| fail(e.to_string()))?;
        let err = Stream::open(self.file("err", self.sessions)).map_err(|e| fail(e.to_string()))?;
        let writer = |s: &Stream| {
            std::fs::OpenOptions::new()
                .write(true)
                .open(&s.path)
                .map_err(|e| fail(e.to_string()))
        };
        let (stdout, stderr) = (writer(&out)?, writer(&err)?);
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| fail(e.to_string()))?;
        let port = listener
            .local_addr()
            .map_err(|e| fail(e.to_string()))?
            .port();
        let mut child = Command::new(&self.namespace[0])
            .args(&self.namespace[1..])
            .arg(&self.dlv)
            .arg("dap")
            .arg(format!("--client-addr=127.0.0.1:{port}"))
            // Addresses alike from run to run, as LLDB and gdb run programs.
            .arg("--disable-aslr")
            .env_clear()
            .envs(ENVIRONMENT)
            .stdin(Stdio::null())
            .stdout(Stdio::from(stdout))
            .stderr(Stdio::from(stderr))
            .kill_on_drop(true)
            .die_with_parent()
            .spawn()
            .map_err(|e| fail(e.to_string()))?;
        self.current = child.id();
        let accepted = tokio::time::timeout(self.opts.call_timeout, listener.accept()).await;
        let stream = match accepted {
            Ok(Ok((stream, _))) => stream,
            Ok(Err(e)) => return Err(fail(e.to_string())),
            Err(_) => {
                let _ = child.start_kill();
                return Err(fail(format!(
                    "Delve did not dial in within {:?}: {}",
                    self.opts.call_timeout,
                    err.text().trim()
                )));
            }
        };
        drop(listener);
        let _ = stream.set_nodelay(true);
        let (read, write) = stream.into_split();
        let (conn, events) = Connection::over(read, write, "delve");
        let capabilities = initialize(&conn, "go", self.opts.call_timeout).await?;
        Ok((
            Launched {
                process: AdapterProcess::Spawned(child),
                conn,
                events,
                capabilities,
            },
            out,
            err,
        ))
    }
}

#[async_trait]
impl Engine for DelveEngine {
    fn descriptor(&self) -> &EngineDescriptor {
        &self.desc
    }

    async fn open(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<Box<dyn Debugger>, SyntaxError>, DebuggerError> {
        let binary = match self.compile(program).await? {
            Ok(b) => b,
            Err(e) => return Ok(Err(e)),
        };
        let (w, out, err) = self.adapter().await?;
        let traits = AdapterTraits {
            // Delve 1.20 offers no exception filters: it always stops where a panic is not
            // recovered (its `unrecovered-panic` breakpoint).
            uncaught: Vec::new(),
            all: Vec::new(),
            statuses: None,
            python: None,
            dialect: Dialect::Go,
            entry_function: Some("main.main"),
            entry_step: true,
        };
        let cwd = program
            .path
            .parent()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|| ".".into());
        let arguments = json!({
            "request": "launch",
            "mode": "exec",
            "program": binary.display().to_string(),
            "cwd": cwd,
            "stopOnEntry": false,
        });
        let opened = DapSession::open(
            w,
            program,
            arguments,
            traits,
            "delve",
            self.opts.clone(),
            None,
            Some((out, err)),
        )
        .await?;
        Ok(opened.into_result())
    }

    fn pid(&self) -> Option<u32> {
        self.current
    }

    async fn restart(&mut self) -> Result<(), DebuggerError> {
        Ok(())
    }

    async fn shutdown(&mut self) {}
}

/// The compiler's first error as a syntax error at its place in the program: `go build` writes
/// `# command-line-arguments` and then `FILE:LINE:COLUMN: MESSAGE`, the file relative to where
/// it ran or absolute.
fn compile_error(stderr: &str, path: &Path) -> SyntaxError {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let placed = stderr.lines().find_map(|l| {
        let rest = &l[l.find(&format!("{name}:"))? + name.len() + 1..];
        let mut parts = rest.splitn(3, ':');
        let line = parts.next()?.trim().parse::<u32>().ok()?;
        let (column, message) = match (parts.next(), parts.next()) {
            (Some(c), Some(m)) if c.trim().parse::<u32>().is_ok() => {
                (c.trim().parse::<u32>().ok(), m.trim())
            }
            (Some(m), rest) => (None, rest.map_or(m.trim(), |r| r.trim())),
            (None, _) => (None, ""),
        };
        Some(SyntaxError {
            message: message.to_string(),
            location: Some(Location::new(
                line.saturating_sub(1),
                column.map_or(0, |c| c.saturating_sub(1)),
            )),
        })
    });
    placed.unwrap_or_else(|| SyntaxError {
        message: stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .unwrap_or("go build failed")
            .trim()
            .to_string(),
        location: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_error_is_the_programs_syntax_error_at_its_place() {
        let e = compile_error(
            "# command-line-arguments\n./bad.go:2:15: x declared but not used\n./bad.go:3:2: undefined: y\n",
            Path::new("/tmp/x/bad.go"),
        );
        assert_eq!(e.message, "x declared but not used");
        assert_eq!(e.location, Some(Location::new(1, 14)));
        let e = compile_error(
            "can't load package: package main: no Go files\n",
            Path::new("/tmp/x/bad.go"),
        );
        assert_eq!(e.message, "can't load package: package main: no Go files");
        assert_eq!(e.location, None);
    }

    #[test]
    fn builds_are_named_and_parsed_back() {
        assert_eq!(GoBuild::parse("noopt"), Some(GoBuild::NoOpt));
        assert_eq!(GoBuild::parse("opt"), Some(GoBuild::Opt));
        assert_eq!(GoBuild::parse("O2"), None);
        assert_eq!(GoBuild::default().name(), "noopt");
    }
}
