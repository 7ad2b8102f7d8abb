//! The archive header: what a reader needs to interpret every session without the recorder.

use crate::engine::EngineDescriptor;
use serde::{Deserialize, Serialize};

/// Archive format version. Readers accept every `major` up to their own and refuse newer ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FormatVersion {
    pub major: u16,
    pub minor: u16,
}

impl std::fmt::Display for FormatVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The machine a campaign was recorded on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostInfo {
    pub hostname: String,
    pub os: String,
    pub arch: String,
    pub cpus: u32,
    pub memory_bytes: Option<u64>,
}

impl HostInfo {
    /// Reads the current machine's facts; nothing here can fail the recording.
    pub fn current() -> HostInfo {
        let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .or_else(|_| std::fs::read_to_string("/etc/hostname"))
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "unknown".into());
        let memory_bytes = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
            m.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
                .map(|kb| kb * 1024)
        });
        HostInfo {
            hostname,
            os: std::env::consts::OS.into(),
            arch: std::env::consts::ARCH.into(),
            cpus: std::thread::available_parallelism()
                .map(|n| n.get() as u32)
                .unwrap_or(1),
            memory_bytes,
        }
    }
}

/// How the campaign was set up, so that it can be understood and re-run from the archive alone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignConfig {
    pub name: String,
    /// The strategy name (`random`, `differential`, `replay`, ...).
    pub strategy: String,
    /// Corpus specifications as given (paths, globs, `test262:...`, `csmith:1..500`).
    pub corpus: Vec<String>,
    /// Seed specification as given (`1..50`).
    pub seeds: String,
    /// Every strategy and policy parameter, as `name = value` text.
    pub params: Vec<(String, String)>,
    /// The command line that started the recording.
    pub command_line: Vec<String>,
}

impl CampaignConfig {
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveHeader {
    pub format: FormatVersion,
    /// `morphtrace <version>` of the writer.
    pub tool_version: String,
    pub campaign: CampaignConfig,
    /// Engines referred to by `EngineRef` index in sessions.
    pub engines: Vec<EngineDescriptor>,
    pub host: HostInfo,
    /// Milliseconds since the Unix epoch.
    pub started_at_ms: i64,
}

impl ArchiveHeader {
    /// A header for the current format, tool, host and time.
    pub fn new(campaign: CampaignConfig, engines: Vec<EngineDescriptor>) -> ArchiveHeader {
        ArchiveHeader {
            format: crate::archive::FORMAT_VERSION,
            tool_version: format!("morphtrace {}", env!("CARGO_PKG_VERSION")),
            campaign,
            engines,
            host: HostInfo::current(),
            started_at_ms: now_ms(),
        }
    }

    pub fn engine(&self, r: crate::engine::EngineRef) -> Option<&EngineDescriptor> {
        self.engines.get(r.0 as usize)
    }
}

/// Peak resident memory of this process in MB (Linux `VmHWM`; NaN where unavailable), for the
/// benchmarks' memory figures.
pub fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map(|kb| kb / 1024.0)
        .unwrap_or(f64::NAN)
}

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
