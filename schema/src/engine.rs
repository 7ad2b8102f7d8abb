//! Engine descriptors: which concrete debugger or profiler a session ran against.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The family of a debugger or profiler. `Other` keeps archives from newer recorders readable.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EngineKind {
    Chromium,
    Node,
    Firefox,
    Deno,
    /// Bun: JavaScriptCore (WebKit's engine) behind the WebKit Inspector Protocol.
    Bun,
    /// gcc + gcov.
    Gcov,
    /// clang + llvm-cov.
    LlvmCov,
    /// V8's precise block coverage, from a Node process.
    V8,
    /// debugpy: Python's debugger behind the Debug Adapter Protocol, on CPython.
    Debugpy,
    /// pdb: the Python standard library's debugger (bdb), over its own command interface.
    Pdb,
    /// coverage.py: Python's line and branch coverage (`coverage run`, `coverage json`).
    CoveragePy,
    /// LLDB, LLVM's native debugger, behind its Debug Adapter Protocol server (`lldb-vscode`,
    /// later `lldb-dap`), on C programs the recorder compiles.
    Lldb,
    /// GDB, the GNU debugger, over its machine interface (GDB/MI), on C programs the recorder
    /// compiles.
    Gdb,
    /// Delve, Go's debugger, behind its Debug Adapter Protocol server (`dlv dap`), on Go
    /// programs the recorder builds.
    Delve,
    Other(String),
}

impl EngineKind {
    /// A coverage profiler (recorded by the `coverage` strategy), not a debugger.
    pub fn is_profiler(&self) -> bool {
        matches!(
            self,
            EngineKind::Gcov | EngineKind::LlvmCov | EngineKind::V8 | EngineKind::CoveragePy
        )
    }

    /// The language of the programs a debugger runs (`None` for profilers and unknown kinds:
    /// the coverage strategy matches those itself).
    pub fn debugs(&self) -> Option<crate::language::Language> {
        use crate::language::Language;
        match self {
            EngineKind::Chromium
            | EngineKind::Node
            | EngineKind::Firefox
            | EngineKind::Deno
            | EngineKind::Bun => Some(Language::JavaScript),
            EngineKind::Debugpy | EngineKind::Pdb => Some(Language::Python),
            EngineKind::Lldb | EngineKind::Gdb => Some(Language::C),
            EngineKind::Delve => Some(Language::Go),
            _ => None,
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            EngineKind::Chromium => "chromium",
            EngineKind::Node => "node",
            EngineKind::Firefox => "firefox",
            EngineKind::Deno => "deno",
            EngineKind::Bun => "bun",
            EngineKind::Gcov => "gcov",
            EngineKind::LlvmCov => "llvm-cov",
            EngineKind::V8 => "v8",
            EngineKind::Debugpy => "debugpy",
            EngineKind::Pdb => "pdb",
            EngineKind::CoveragePy => "coverage.py",
            EngineKind::Lldb => "lldb",
            EngineKind::Gdb => "gdb",
            EngineKind::Delve => "delve",
            EngineKind::Other(s) => s,
        }
    }

    /// Parses the names used on command lines (`--engine node`).
    pub fn parse(s: &str) -> EngineKind {
        match s.to_ascii_lowercase().as_str() {
            "chromium" | "chrome" => EngineKind::Chromium,
            "node" | "nodejs" => EngineKind::Node,
            "firefox" | "firefox-esr" => EngineKind::Firefox,
            "deno" => EngineKind::Deno,
            // The engine family's names: Bun is how JavaScriptCore runs here.
            "bun" | "jsc" | "javascriptcore" => EngineKind::Bun,
            "gcov" => EngineKind::Gcov,
            "llvm-cov" | "llvmcov" => EngineKind::LlvmCov,
            "v8" => EngineKind::V8,
            "debugpy" => EngineKind::Debugpy,
            "pdb" => EngineKind::Pdb,
            "coverage.py" | "coveragepy" | "coverage-py" => EngineKind::CoveragePy,
            "lldb" => EngineKind::Lldb,
            "gdb" => EngineKind::Gdb,
            "delve" | "dlv" => EngineKind::Delve,
            _ => EngineKind::Other(s.to_string()),
        }
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The protocol the recorder used to talk to the engine.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Protocol {
    /// Chrome DevTools Protocol (Chromium, Node, Deno).
    Cdp,
    /// Firefox Remote Debugging Protocol.
    Rdp,
    /// WebKit Inspector Protocol (JavaScriptCore: Bun, Safari, WebKitGTK).
    WebKitInspector,
    /// A coverage tool driven through files and its command line (gcov, llvm-cov).
    CoverageTool,
    /// The Debug Adapter Protocol (debugpy; lldb-dap, Delve and js-debug speak it too).
    Dap,
    /// pdb's command interface (its prompt and commands), as a person types them.
    PdbCommands,
    /// GDB's machine interface (`gdb --interpreter=mi3`).
    GdbMi,
    Other(String),
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Protocol::Cdp => f.write_str("cdp"),
            Protocol::Rdp => f.write_str("rdp"),
            Protocol::WebKitInspector => f.write_str("webkit-inspector"),
            Protocol::CoverageTool => f.write_str("coverage-tool"),
            Protocol::Dap => f.write_str("dap"),
            Protocol::PdbCommands => f.write_str("pdb-commands"),
            Protocol::GdbMi => f.write_str("gdb-mi"),
            Protocol::Other(s) => f.write_str(s),
        }
    }
}

/// Index of an engine in the archive header's `engines` list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct EngineRef(pub u16);

/// One concrete debugger or profiler, with the versions read from the engine itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineDescriptor {
    pub kind: EngineKind,
    /// Absolute path of the executable that was launched.
    pub executable: String,
    /// Product version as reported by the engine, e.g. `156.0.8078.79` or `v20.20.2`.
    pub version: String,
    pub protocol: Protocol,
    /// Version of the JavaScript engine or compiler inside, e.g. the V8 or SpiderMonkey build.
    #[serde(default)]
    pub engine_version: Option<String>,
    /// Protocol revision or other details (user agent, flags) worth keeping.
    #[serde(default)]
    pub details: Vec<(String, String)>,
}

impl EngineDescriptor {
    /// `kind@version`, the name used in reports, e.g. `chromium@156.0.8078.79`.
    pub fn label(&self) -> String {
        format!("{}@{}", self.kind, self.version.trim_start_matches('v'))
    }

    /// The profiler's name in coverage classes and tables: its kind, with the core where the
    /// kind runs more than one (`coverage.py+pytrace`; the `core` detail's first word).
    pub fn profiler(&self) -> String {
        match self.details.iter().find(|(k, _)| k == "core") {
            Some((_, core)) => format!(
                "{}+{}",
                self.kind,
                core.split_whitespace().next().unwrap_or(core)
            ),
            None => self.kind.to_string(),
        }
    }
}
