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
use crate::debugger::engines::native::Builder;
pub use crate::debugger::engines::native::{Build, BUILD};
use crate::debugger::{CaptureOptions, Debugger, DebuggerError, Engine, ProgramFile, SyntaxError};
use async_trait::async_trait;
use morphtrace_schema::{EngineDescriptor, EngineKind, Protocol};
use serde_json::json;
use std::path::PathBuf;
use std::process::Stdio;
use tokio::process::Command;

pub struct LldbEngine {
    desc: EngineDescriptor,
    opts: CaptureOptions,
    adapter: PathBuf,
    builder: Builder,
    current: Option<u32>,
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
        let builder = Builder::new("lldb", build)?;
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
        let desc = EngineDescriptor {
            kind: EngineKind::Lldb,
            executable: adapter.display().to_string(),
            // Two builds in one campaign must be told apart in every report.
            version: format!("{version}+{}", builder.build.name()),
            protocol: Protocol::Dap,
            engine_version: Some(version_line.clone()),
            details: vec![
                builder.detail(),
                (
                    "launch".into(),
                    "function breakpoint at main, cleared at the first stop".into(),
                ),
            ],
        };
        Ok(LldbEngine {
            desc,
            opts,
            adapter,
            builder,
            current: None,
        })
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

#[async_trait]
impl Engine for LldbEngine {
    fn descriptor(&self) -> &EngineDescriptor {
        &self.desc
    }

    async fn open(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<Box<dyn Debugger>, SyntaxError>, DebuggerError> {
        let binary = match self.builder.compile(program).await? {
            Ok(b) => b,
            Err(e) => return Ok(Err(e)),
        };
        let launcher = self.builder.launcher().await?;
        let w = self.adapter().await?;
        let traits = AdapterTraits {
            // C has no exceptions; C++'s filters are LLDB's `cpp_throw` and `cpp_catch`.
            uncaught: Vec::new(),
            all: Vec::new(),
            statuses: None,
            python: None,
            dialect: Dialect::C,
            entry_function: Some("main"),
            entry_step: false,
        };
        let cwd = program
            .path
            .parent()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|| ".".into());
        let arguments = json!({
            "request": "launch",
            // The launcher, which execs the program with its argv[0] the same under every
            // debugger (native::ARGV0; LLDB's target.arg0 is not honoured on Linux); LLDB
            // follows the exec without stopping and resolves the breakpoints in the program.
            "program": launcher.display().to_string(),
            "args": [crate::debugger::engines::native::ARGV0, binary.display().to_string()],
            "cwd": cwd,
            "stopOnEntry": false,
            "preRunCommands": ["settings set target.process.stop-on-exec false"],
        });
        let opened = DapSession::open(
            w,
            program,
            arguments,
            traits,
            "lldb",
            self.opts.clone(),
            None,
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
