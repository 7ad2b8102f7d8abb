//! debugpy: Python's debugger behind the Debug Adapter Protocol, on the machine's CPython. One
//! adapter process (`python -m debugpy.adapter`, DAP over its stdin and stdout) per session;
//! it starts the program through debugpy's launcher, paused at its first statement
//! (`stopOnEntry`). Adapters are started and initialized ahead of time in a small pool.
//!
//! Warm (the default, `--python-start warm`): the program is instead forked from one interpreter
//! per engine that has imported debugpy (`forkserver`), and attached to the session's adapter,
//! which listens for it; the program runs as the launcher would have started it. Cold: the
//! launcher path above, as an IDE launches a program.
//!
//! Every process of a session runs the engine's sitecustomize (`python-site.py`): it dies with
//! its parent, defines the logpoints' `__morphtrace_log__` and, with the determinism prelude,
//! seeds `random` and fixes the program's clock readings. `PYTHONHASHSEED=0` keeps `set` and
//! `dict` orders of strings the same in every run.

use crate::child::DieWithParent;
use crate::debugger::dap::session::{
    initialize as initialize_adapter, AdapterTraits, Dialect, Launched,
};
use crate::debugger::dap::{Connection, DapSession};
use crate::debugger::engines::forkserver::{self, AdapterProcess, ForkServer, Forker, Warm};
use crate::debugger::engines::prepared::Prepared;
use crate::debugger::{
    CaptureOptions, Debugger, DebuggerError, Engine, ProgramFile, PythonStart, SyntaxError,
};
use async_trait::async_trait;
use morphtrace_schema::{EngineDescriptor, EngineKind, Protocol};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::process::Command;

/// The descriptor detail that names the tracer (`cython (PYDEVD_USE_CYTHON=YES)`).
pub const TRACER: &str = "tracer";

/// pydevd's tracers: over `sys.settrace`, its compiled one (Cython) and its pure-Python one,
/// which trace the same way; and, on CPython 3.12 and later, its `sys.monitoring` backend
/// (PEP 669, pure Python here), which pydevd picks by default there. A difference between any
/// two is pydevd's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Tracer {
    #[default]
    Cython,
    Python,
    SysMon,
}

impl Tracer {
    pub fn parse(s: &str) -> Option<Tracer> {
        match s {
            "cython" => Some(Tracer::Cython),
            "python" => Some(Tracer::Python),
            "sysmon" => Some(Tracer::SysMon),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Tracer::Cython => "cython",
            Tracer::Python => "python",
            Tracer::SysMon => "sysmon",
        }
    }

    /// pydevd's switch for its compiled code: `YES` fails at start-up when the compiled tracer
    /// does not load, rather than falling back to the other one silently. The `sys.monitoring`
    /// backend runs as Python (its compiled module is built per interpreter).
    fn env(self) -> &'static str {
        match self {
            Tracer::Cython => "YES",
            Tracer::Python | Tracer::SysMon => "NO",
        }
    }

    /// pydevd's backend switch, set either way: on 3.12 and later pydevd would otherwise pick
    /// `sys.monitoring` for the settrace tracers too.
    fn monitoring(self) -> &'static str {
        match self {
            Tracer::SysMon => "1",
            Tracer::Cython | Tracer::Python => "0",
        }
    }

    fn detail(self) -> String {
        format!(
            "{} (PYDEVD_USE_CYTHON={}, PYDEVD_USE_SYS_MONITORING={})",
            self.name(),
            self.env(),
            self.monitoring()
        )
    }
}

/// Whether an interpreter (`CPython 3.12.1`, as `python::interpreter` names it) has
/// `sys.monitoring`: pydevd reads its switch only there, and would trace with `sys.settrace`
/// silently elsewhere.
fn has_sys_monitoring(interpreter: &str) -> bool {
    super::python::minor_version(interpreter) >= (3, 12)
}

/// Where `scripts/setup.sh` installs debugpy (pinned): put on the adapter's `PYTHONPATH`.
pub fn tools_python() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/python");
    root.canonicalize().unwrap_or(root)
}

impl Runtime {
    /// Where the launcher writes programs' true exit statuses (`python-site.py`).
    fn statuses(&self) -> PathBuf {
        self.site.path().join("status")
    }
}

struct Runtime {
    python: PathBuf,
    /// The sitecustomize's directory (removed with the engine).
    site: tempfile::TempDir,
    path: String,
    tracer: Tracer,
    /// The command that runs the adapter; empty: `python -m debugpy.adapter`.
    adapter: Vec<String>,
    call_timeout: Duration,
    start: PythonStart,
    /// Warm: the server that forks adapters (started again when it has gone).
    adapters: tokio::sync::Mutex<Option<ForkServer>>,
}

impl Runtime {
    /// The environment debugpy's adapter runs in (cold: the adapter process's).
    fn adapter_env(&self) -> Vec<(String, String)> {
        [
            ("PYTHONPATH", self.path.clone()),
            ("PYTHONHASHSEED", "0".into()),
            (
                "MORPHTRACE_STATUS_DIR",
                self.statuses().display().to_string(),
            ),
            ("PYDEVD_USE_CYTHON", self.tracer.env().into()),
            ("PYDEVD_USE_SYS_MONITORING", self.tracer.monitoring().into()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    /// The adapters' fork server, started if it is not running.
    async fn adapter_forker(&self) -> Result<Forker, DebuggerError> {
        let mut server = self.adapters.lock().await;
        if let Some(s) = server.as_mut() {
            if s.alive() {
                return Ok(s.forker.clone());
            }
        }
        let ready = self.call_timeout.max(Duration::from_secs(30));
        let started = ForkServer::start(
            &self.python,
            self.site.path(),
            &self.adapter_env(),
            true,
            ready,
        )
        .await?;
        let forker = started.forker.clone();
        *server = Some(started);
        Ok(forker)
    }
}

pub struct DebugpyEngine {
    desc: EngineDescriptor,
    opts: CaptureOptions,
    runtime: Arc<Runtime>,
    prepared: Prepared<Launched>,
    current: Option<u32>,
    /// The warm start's server (`PythonStart::Warm`), started again when it has gone.
    server: Option<ForkServer>,
}

impl DebugpyEngine {
    /// `python`: the interpreter that runs the adapter and the programs.
    pub async fn launch(
        python: PathBuf,
        tracer: Tracer,
        opts: CaptureOptions,
        prepared: usize,
    ) -> Result<DebugpyEngine, DebuggerError> {
        DebugpyEngine::launch_through(python, tracer, opts, prepared, Vec::new()).await
    }

    /// [`launch`](Self::launch), with the adapter run by `adapter` (a program and its
    /// arguments) instead of `python -m debugpy.adapter`: a proxy in front of it (the tests'
    /// fault-planting one), or another build of it.
    pub async fn launch_through(
        python: PathBuf,
        tracer: Tracer,
        opts: CaptureOptions,
        prepared: usize,
        adapter: Vec<String>,
    ) -> Result<DebugpyEngine, DebuggerError> {
        let named = format!("debugpy ({})", python.display());
        let fail = |reason: String| DebuggerError::Launch {
            engine: named.clone(),
            reason,
        };
        let tools = tools_python();
        let found = super::python::interpreter(
            &python,
            Some(&tools),
            &["__import__('debugpy').__version__"],
        )
        .await
        .map_err(|e| {
            fail(format!(
                "debugpy does not import from {} ({e}); scripts/setup.sh installs it",
                tools.display()
            ))
        })?;
        let version = found.answers.first().cloned().unwrap_or_default();
        if tracer == Tracer::SysMon && !has_sys_monitoring(&found.name) {
            return Err(fail(format!(
                "debugpy+sysmon: pydevd's sys.monitoring backend needs Python 3.12 or later; this \
                 is {}{}",
                found.name,
                super::python::newer_pythons()
                    .first()
                    .map(|p| format!(" (try debugpy+sysmon={})", p.display()))
                    .unwrap_or_default()
            )));
        }
        let interpreter = Some(found.name);
        let python = found.executable;
        let site =
            super::python::site("morphtrace-python-", &[]).map_err(|e| fail(e.to_string()))?;
        std::fs::create_dir(site.path().join("status")).map_err(|e| fail(e.to_string()))?;
        let path = format!("{}:{}", site.path().display(), tools.display());
        let desc = EngineDescriptor {
            kind: EngineKind::Debugpy,
            executable: python.display().to_string(),
            // Both tracers in one campaign must be told apart in every report.
            version: format!("{version}+{}", tracer.name()),
            protocol: Protocol::Dap,
            engine_version: interpreter,
            details: vec![
                ("debugpy".into(), tools.display().to_string()),
                (TRACER.into(), tracer.detail()),
                (
                    "launch".into(),
                    "stopOnEntry, justMyCode, PYTHONHASHSEED=0".into(),
                ),
                crate::debugger::determinism::python_detail(opts.prelude),
                (
                    "start".into(),
                    match opts.python_start {
                        PythonStart::Warm => "warm: forked from an interpreter with debugpy \
                                              imported, attached to the adapter, which listens"
                            .into(),
                        PythonStart::Cold => "cold: through debugpy's launcher".into(),
                    },
                ),
            ],
        };
        let runtime = Arc::new(Runtime {
            python,
            site,
            path,
            tracer,
            adapter,
            call_timeout: opts.call_timeout,
            start: opts.python_start,
            adapters: tokio::sync::Mutex::new(None),
        });
        let rt = runtime.clone();
        let mut engine = DebugpyEngine {
            desc,
            opts,
            runtime,
            prepared: Prepared::new(prepared, move || {
                let rt = rt.clone();
                Box::pin(async move { start(&rt).await })
            }),
            current: None,
            server: None,
        };
        if engine.opts.python_start == PythonStart::Warm {
            engine.server = Some(engine.fork_server().await?);
        }
        Ok(engine)
    }

    /// The warm start's server, in the environment debugpy's launcher gives a program: the
    /// adapter's, the launch's `env`, and what the launcher adds for `redirectOutput`.
    async fn fork_server(&self) -> Result<ForkServer, DebuggerError> {
        let rt = &self.runtime;
        let mut env = rt.adapter_env();
        env.extend([
            ("PYTHONUNBUFFERED".to_string(), "1".to_string()),
            ("PYTHONIOENCODING".to_string(), "utf-8".to_string()),
        ]);
        // Importing debugpy takes about half a second alone; a loaded machine, more.
        let ready = self.opts.call_timeout.max(Duration::from_secs(30));
        ForkServer::start(&rt.python, rt.site.path(), &env, false, ready).await
    }

    fn arguments(&self, program: &ProgramFile) -> serde_json::Value {
        let path = program.path.display().to_string();
        if self.opts.python_start == PythonStart::Warm {
            // The program connects to the adapter; the adapter listens on a port of its
            // choosing, which it names in its `debugpyWaitingForServer` event. The debug
            // options are the launch's; the program's output is read apart, so pydevd
            // redirects none (`redirectOutput` false, as when the launcher redirects).
            return json!({
                "type": "python",
                "request": "attach",
                "listen": {"host": "127.0.0.1", "port": 0},
                "justMyCode": true,
                "rules": [{"path": self.runtime.site.path().display().to_string(), "include": false}],
                "redirectOutput": false,
                "showReturnValue": false,
                "subProcess": false,
            });
        }
        let dir = program
            .path
            .parent()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|| ".".into());
        let mut env = json!({
            "PYTHONHASHSEED": "0",
            "PYTHONPATH": self.runtime.path,
            "PYDEVD_USE_CYTHON": self.runtime.tracer.env(),
            "PYDEVD_USE_SYS_MONITORING": self.runtime.tracer.monitoring(),
        });
        if self.opts.prelude {
            env["MORPHTRACE_PRELUDE"] = json!(path);
        }
        json!({
            "type": "python",
            "request": "launch",
            "program": path,
            "cwd": dir,
            "python": [self.runtime.python.display().to_string()],
            "console": "internalConsole",
            "stopOnEntry": true,
            "justMyCode": true,
            // The sitecustomize is library code: no step stops in it.
            "rules": [{"path": self.runtime.site.path().display().to_string(), "include": false}],
            "env": env,
            "redirectOutput": true,
            "showReturnValue": false,
            "subProcess": false,
        })
    }
}

/// An adapter process, connected and initialized: forked when warm (unless another adapter
/// command is asked for), else started.
async fn start(rt: &Runtime) -> Result<Launched, DebuggerError> {
    let fail = |reason: String| DebuggerError::Launch {
        engine: format!("debugpy ({})", rt.python.display()),
        reason,
    };
    let (process, conn, events) = if rt.start == PythonStart::Warm && rt.adapter.is_empty() {
        let forker = rt.adapter_forker().await?;
        let (process, rx, tx) =
            forkserver::fork_adapter(&forker, rt.site.path(), rt.call_timeout).await?;
        let (conn, events) = Connection::over(rx, tx, "debugpy");
        (process, conn, events)
    } else {
        let (child, conn, events) = spawn(rt).await?;
        (AdapterProcess::Spawned(child), conn, events)
    };
    initialize(rt, process, conn, events)
        .await
        .map_err(|e| match e {
            DebuggerError::Launch { .. } => e,
            e => fail(e.to_string()),
        })
}

/// `python -m debugpy.adapter` (or the adapter command asked for), connected over its stdio.
async fn spawn(
    rt: &Runtime,
) -> Result<
    (
        tokio::process::Child,
        Connection,
        tokio::sync::mpsc::UnboundedReceiver<crate::debugger::dap::connection::DapEvent>,
    ),
    DebuggerError,
> {
    let fail = |reason: String| DebuggerError::Launch {
        engine: format!("debugpy ({})", rt.python.display()),
        reason,
    };
    let mut command = match rt.adapter.split_first() {
        Some((program, args)) => {
            let mut c = Command::new(program);
            c.args(args);
            c
        }
        None => {
            let mut c = Command::new(&rt.python);
            c.args(["-m", "debugpy.adapter"]);
            c
        }
    };
    let mut child = command
        .env("PYTHONPATH", &rt.path)
        .env("PYTHONHASHSEED", "0")
        .env("MORPHTRACE_STATUS_DIR", rt.statuses())
        .env("PYDEVD_USE_CYTHON", rt.tracer.env())
        .env("PYDEVD_USE_SYS_MONITORING", rt.tracer.monitoring())
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
    let (conn, events) = Connection::over(stdout, stdin, "debugpy");
    Ok((child, conn, events))
}

async fn initialize(
    rt: &Runtime,
    process: AdapterProcess,
    conn: Connection,
    events: tokio::sync::mpsc::UnboundedReceiver<crate::debugger::dap::connection::DapEvent>,
) -> Result<Launched, DebuggerError> {
    let capabilities = initialize_adapter(&conn, "debugpy", rt.call_timeout).await?;
    Ok(Launched {
        process,
        conn,
        events,
        capabilities,
    })
}

#[async_trait]
impl Engine for DebugpyEngine {
    fn descriptor(&self) -> &EngineDescriptor {
        &self.desc
    }

    async fn open(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<Box<dyn Debugger>, SyntaxError>, DebuggerError> {
        let warm = match self.opts.python_start {
            PythonStart::Cold => None,
            PythonStart::Warm => {
                if !self.server.as_mut().is_some_and(ForkServer::alive) {
                    self.server = Some(self.fork_server().await?);
                }
                let forker = self.server.as_ref().map(|s| s.forker.clone());
                let dir = program
                    .path
                    .parent()
                    .map(|d| d.display().to_string())
                    .unwrap_or_else(|| ".".into());
                let request = json!({
                    "program": program.path.display().to_string(),
                    "cwd": dir,
                    "prelude": self.opts.prelude,
                });
                match forker {
                    Some(f) => Some(Warm::new(f, self.runtime.site.path(), request).map_err(
                        |e| DebuggerError::Launch {
                            engine: "debugpy".into(),
                            reason: format!("the session's streams: {e}"),
                        },
                    )?),
                    None => None,
                }
            }
        };
        let w = self.prepared.take().await?;
        self.current = w.process.id();
        let filters = AdapterTraits {
            uncaught: vec!["uncaught"],
            all: vec!["raised", "uncaught"],
            statuses: Some(self.runtime.statuses()),
            python: Some(self.runtime.python.clone()),
            dialect: Dialect::Python,
            entry_function: None,
            entry_step: false,
        };
        Ok(DapSession::open(
            w,
            program,
            self.arguments(program),
            filters,
            "debugpy",
            self.opts.clone(),
            warm,
            None,
        )
        .await?
        .into_result())
    }

    /// The process tree the program runs in: the fork server's when warm (the memory guard
    /// kills that tree), else the adapter's.
    fn pid(&self) -> Option<u32> {
        match &self.server {
            Some(s) => s.pid(),
            None => self.current,
        }
    }

    async fn restart(&mut self) -> Result<(), DebuggerError> {
        self.prepared.restart();
        Ok(())
    }

    async fn shutdown(&mut self) {
        self.prepared.shutdown().await;
        if let Some(mut s) = self.server.take() {
            s.stop().await;
        }
        if let Some(mut s) = self.runtime.adapters.lock().await.take() {
            s.stop().await;
        }
    }
}
