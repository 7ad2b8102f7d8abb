//! LLDB, LLVM's native debugger, through its Debug Adapter Protocol server (Debian 12's
//! `lldb-vscode-16`, renamed `lldb-dap` from LLVM 18), on C programs the recorder compiles for
//! each session. The compiler and its optimization level are the engine's variant
//! (`lldb+gcc-O0`, the default; `lldb+clang-O2`): the same debugger on another build of one
//! program is another engine, as a JS engine under another tier is.
//!
//! One adapter process per session, over its stdin and stdout; it launches the program with
//! address randomization off (LLDB's default), stops at `main`'s first statement (a function
//! breakpoint cleared at the first stop: its `stopOnEntry` stops in the loader) and reports
//! the program's output as `output` events. The program is the adapter's child, ptraced: it
//! dies with the adapter (LLDB asks the kernel to kill its tracees when it exits).

use crate::child::DieWithParent;
use crate::debugger::dap::session::{initialize, AdapterTraits, Dialect, Launched};
use crate::debugger::dap::{Connection, DapSession};
use crate::debugger::engines::forkserver::AdapterProcess;
use crate::debugger::{CaptureOptions, Debugger, DebuggerError, Engine, ProgramFile, SyntaxError};
use async_trait::async_trait;
use morphtrace_schema::{EngineDescriptor, EngineKind, Location, Protocol};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::process::Command;

/// The detail of the descriptor that names the build (`gcc -O0 -g`).
pub const BUILD: &str = "build";

/// How long a program may take to compile.
const COMPILE_TIMEOUT: Duration = Duration::from_secs(60);

/// How the program is built: a compiler and an optimization level, always with debug
/// information (`-g`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Build {
    pub compiler: &'static str,
    pub level: &'static str,
}

impl Default for Build {
    fn default() -> Build {
        Build {
            compiler: "gcc",
            level: "O0",
        }
    }
}

const COMPILERS: [&str; 2] = ["gcc", "clang"];
const LEVELS: [&str; 6] = ["O0", "O1", "O2", "O3", "Os", "Og"];

impl Build {
    /// `gcc-O0`, `clang-O2`, …: the engine variant after `lldb+`.
    pub fn parse(s: &str) -> Option<Build> {
        let (c, l) = s.split_once('-')?;
        Some(Build {
            compiler: COMPILERS.into_iter().find(|x| *x == c)?,
            level: LEVELS.into_iter().find(|x| *x == l)?,
        })
    }

    pub fn name(&self) -> String {
        format!("{}-{}", self.compiler, self.level)
    }

    pub const HELP: &'static str =
        "the builds are COMPILER-LEVEL: gcc or clang, O0, O1, O2, O3, Os or Og (e.g. lldb+clang-O2)";
}

pub struct LldbEngine {
    desc: EngineDescriptor,
    opts: CaptureOptions,
    adapter: PathBuf,
    build: Build,
    compiler: PathBuf,
    /// Where each session's binary is built, removed with the engine.
    dir: tempfile::TempDir,
    current: Option<u32>,
    sessions: u64,
}

impl LldbEngine {
    /// `adapter`: LLDB's DAP server (`lldb-vscode-16`, `lldb-dap`).
    pub async fn launch(
        adapter: PathBuf,
        build: Build,
        opts: CaptureOptions,
    ) -> Result<LldbEngine, DebuggerError> {
        let fail = |reason: String| DebuggerError::Launch {
            engine: format!("lldb ({})", adapter.display()),
            reason,
        };
        let compiler = crate::debugger::engines::which(build.compiler).ok_or_else(|| {
            fail(format!(
                "{} is not installed (run scripts/setup.sh)",
                build.compiler
            ))
        })?;
        // `lldb-vscode-16` has no version flag; the `lldb-16` beside it says LLDB's.
        let lldb = adapter
            .file_name()
            .and_then(|n| n.to_str())
            .map(|n| n.replace("lldb-vscode", "lldb").replace("lldb-dap", "lldb"))
            .map(|n| adapter.with_file_name(n))
            .filter(|p| p.is_file())
            .ok_or_else(|| fail("no lldb beside the adapter to say its version".into()))?;
        let version_line = crate::process::version_line(&lldb.display().to_string())
            .ok_or_else(|| fail(format!("{} --version said nothing", lldb.display())))?;
        // `lldb version 16.0.6`
        let version = version_line
            .split_whitespace()
            .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .unwrap_or(&version_line)
            .to_string();
        let cc_version =
            crate::process::version_line(&compiler.display().to_string()).unwrap_or_default();
        let desc = EngineDescriptor {
            kind: EngineKind::Lldb,
            executable: adapter.display().to_string(),
            // Two builds in one campaign must be told apart in every report.
            version: format!("{version}+{}", build.name()),
            protocol: Protocol::Dap,
            engine_version: Some(version_line.clone()),
            details: vec![
                // The variant first: a replay reads it back (`EngineSpec::of`).
                (
                    BUILD.into(),
                    format!(
                        "{} ({} -{} -g; {cc_version})",
                        build.name(),
                        build.compiler,
                        build.level
                    ),
                ),
                (
                    "launch".into(),
                    "function breakpoint at main, cleared at the first stop".into(),
                ),
            ],
        };
        let dir = tempfile::Builder::new()
            .prefix("morphtrace-lldb-")
            .tempdir()
            .map_err(|e| fail(e.to_string()))?;
        Ok(LldbEngine {
            desc,
            opts,
            adapter,
            build,
            compiler,
            dir,
            current: None,
            sessions: 0,
        })
    }

    /// The program built for this session, or the compiler's error as the program's syntax
    /// error (its first `FILE:LINE:COLUMN: error:` line).
    async fn compile(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<PathBuf, SyntaxError>, DebuggerError> {
        self.sessions += 1;
        let out = self.dir.path().join(format!("prog-{}", self.sessions));
        let mut cmd = std::process::Command::new(&self.compiler);
        // Csmith's programs include its header.
        cmd.arg(format!("-{}", self.build.level))
            .args(["-g", "-w", "-I", crate::profilers::c::CSMITH_INCLUDE, "-o"])
            .arg(&out)
            .arg(&program.path);
        let f = tokio::task::spawn_blocking(move || {
            crate::process::run(&mut cmd, COMPILE_TIMEOUT, None)
        })
        .await
        .map_err(|e| DebuggerError::Launch {
            engine: "lldb".into(),
            reason: e.to_string(),
        })?
        .map_err(|e| DebuggerError::Launch {
            engine: "lldb".into(),
            reason: format!("{}: {e}", self.build.compiler),
        })?;
        if f.ok() {
            return Ok(Ok(out));
        }
        Ok(Err(compile_error(&f.stderr, &program.path)))
    }

    async fn adapter(&mut self) -> Result<Launched, DebuggerError> {
        let fail = |reason: String| DebuggerError::Launch {
            engine: format!("lldb ({})", self.adapter.display()),
            reason,
        };
        let mut child = Command::new(&self.adapter)
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
        self.current = child.id();
        let (conn, events) = Connection::over(stdout, stdin, "lldb");
        let capabilities = initialize(&conn, "lldb", self.opts.call_timeout).await?;
        Ok(Launched {
            process: AdapterProcess::Spawned(child),
            conn,
            events,
            capabilities,
        })
    }
}

/// The compiler's first error as a syntax error at its place in the program.
fn compile_error(stderr: &str, path: &Path) -> SyntaxError {
    let file = path.display().to_string();
    let line = stderr
        .lines()
        .find(|l| l.contains(": error:") || l.contains(": fatal error:"))
        .unwrap_or_else(|| stderr.lines().last().unwrap_or("the compiler failed"));
    let location = line.strip_prefix(&format!("{file}:")).and_then(|rest| {
        let mut parts = rest.splitn(3, ':');
        let l = parts.next()?.parse::<u32>().ok()?;
        let c = parts.next()?.parse::<u32>().ok()?;
        Some(Location::new(l.saturating_sub(1), c.saturating_sub(1)))
    });
    let message = line
        .split_once("error: ")
        .map_or(line, |(_, m)| m)
        .to_string();
    SyntaxError { message, location }
}

#[async_trait]
impl Engine for LldbEngine {
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
        let w = self.adapter().await?;
        let traits = AdapterTraits {
            // C has no exceptions; C++'s filters are LLDB's `cpp_throw` and `cpp_catch`.
            uncaught: Vec::new(),
            all: Vec::new(),
            statuses: None,
            python: None,
            dialect: Dialect::C,
            entry_function: Some("main"),
        };
        let cwd = program
            .path
            .parent()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|| ".".into());
        let arguments = json!({
            "request": "launch",
            "program": binary.display().to_string(),
            "cwd": cwd,
            "stopOnEntry": false,
        });
        let opened = DapSession::open(
            w,
            program,
            arguments,
            traits,
            "lldb",
            self.opts.clone(),
            None,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_are_a_compiler_and_a_level() {
        assert_eq!(Build::parse("gcc-O0"), Some(Build::default()));
        assert_eq!(
            Build::parse("clang-O2"),
            Some(Build {
                compiler: "clang",
                level: "O2"
            })
        );
        assert_eq!(Build::parse("tcc-O0"), None);
        assert_eq!(Build::parse("gcc-O9"), None);
        assert_eq!(Build::parse("gcc"), None);
    }

    #[test]
    fn a_compile_error_is_the_programs_syntax_error_at_its_place() {
        let e = compile_error(
            "/tmp/p.c: In function 'main':\n/tmp/p.c:3:7: error: expected ';' before 'return'\n",
            Path::new("/tmp/p.c"),
        );
        assert_eq!(e.message, "expected ';' before 'return'");
        assert_eq!(e.location, Some(Location::new(2, 6)));
    }

    #[test]
    fn a_recorded_build_is_launched_again_as_it_was() {
        let d = EngineDescriptor {
            kind: EngineKind::Lldb,
            executable: "/usr/bin/lldb-vscode-16".into(),
            version: "16.0.6+clang-O2".into(),
            protocol: Protocol::Dap,
            engine_version: None,
            details: vec![(BUILD.into(), "clang-O2 (clang -O2 -g; clang 14)".into())],
        };
        let spec = crate::debugger::engines::EngineSpec::of(&d);
        assert_eq!(spec.variant.as_deref(), Some("clang-O2"));
        assert_eq!(
            spec.variant.as_deref().and_then(Build::parse),
            Some(Build {
                compiler: "clang",
                level: "O2"
            })
        );
    }
}
