//! GDB, the GNU debugger, over its machine interface (`gdb --interpreter=mi3`; Debian 12's
//! gdb 13.1 has no DAP server), on C programs the recorder compiles for each session with the
//! build the variant names (`gdb+gcc-O0`, the default; `gdb+clang-O2`), as LLDB's are
//! (`native`): one binary, two debuggers, for the DBDB differential.
//!
//! One gdb per session, on its stdin and stdout; the program runs in a terminal of its own
//! (`mi::terminal`), with address randomization off, under `setpriv --pdeathsig KILL` (gdb
//! leaves its tracee running when gdb is killed; this way the program dies with it).

use crate::child::DieWithParent;
use crate::debugger::engines::native::{Build, Builder};
use crate::debugger::mi::session::MiSession;
use crate::debugger::mi::terminal::Terminal;
use crate::debugger::mi::Connection;
use crate::debugger::{CaptureOptions, Debugger, DebuggerError, Engine, ProgramFile, SyntaxError};
use async_trait::async_trait;
use morphtrace_schema::{EngineDescriptor, EngineKind, Protocol};
use std::path::PathBuf;
use std::process::Stdio;
use tokio::process::Command;

pub struct GdbEngine {
    desc: EngineDescriptor,
    opts: CaptureOptions,
    gdb: PathBuf,
    builder: Builder,
    current: Option<u32>,
}

impl GdbEngine {
    pub async fn launch(
        gdb: PathBuf,
        build: Build,
        opts: CaptureOptions,
    ) -> Result<GdbEngine, DebuggerError> {
        let fail = |reason: String| DebuggerError::Launch {
            engine: format!("gdb ({})", gdb.display()),
            reason,
        };
        let builder = Builder::new("gdb", build)?;
        // `GNU gdb (Debian 13.1-3) 13.1`
        let version_line = crate::process::version_line(&gdb.display().to_string())
            .ok_or_else(|| fail(format!("{} --version said nothing", gdb.display())))?;
        let version = version_line
            .split_whitespace()
            .last()
            .unwrap_or(&version_line)
            .to_string();
        if crate::debugger::engines::which("setpriv").is_none() {
            return Err(fail(
                "setpriv (util-linux) is missing: the program would outlive a killed gdb".into(),
            ));
        }
        let desc = EngineDescriptor {
            kind: EngineKind::Gdb,
            executable: gdb.display().to_string(),
            version: format!("{version}+{}", builder.build.name()),
            protocol: Protocol::GdbMi,
            engine_version: Some(version_line.clone()),
            details: vec![
                builder.detail(),
                (
                    "launch".into(),
                    "temporary breakpoint at main, -exec-run; the program in a terminal of its own"
                        .into(),
                ),
            ],
        };
        Ok(GdbEngine {
            desc,
            opts,
            gdb,
            builder,
            current: None,
        })
    }
}

#[async_trait]
impl Engine for GdbEngine {
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
        let fail = |reason: String| DebuggerError::Launch {
            engine: format!("gdb ({})", self.gdb.display()),
            reason,
        };
        let terminal = Terminal::open().map_err(|e| fail(format!("a terminal: {e}")))?;
        let mut child = Command::new(&self.gdb)
            .args(["--interpreter=mi3", "-q", "-nx", "-nh"])
            .arg(&binary)
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
        let (conn, events) = Connection::over(stdout, stdin);
        MiSession::open(
            child,
            conn,
            events,
            terminal,
            &launcher,
            program,
            self.opts.clone(),
        )
        .await
    }

    fn pid(&self) -> Option<u32> {
        self.current
    }

    async fn restart(&mut self) -> Result<(), DebuggerError> {
        Ok(())
    }

    async fn shutdown(&mut self) {}
}
