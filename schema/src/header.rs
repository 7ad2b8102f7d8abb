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

/// The format this build writes. Readers accept any major up to `FORMAT_VERSION.major`.
/// 1.1 added execution frames (GenMorph); 1.0 readers skip them.
pub const FORMAT_VERSION: FormatVersion = FormatVersion { major: 1, minor: 1 };

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
    /// The part of the campaign this archive holds when it was recorded as a shard (`None`:
    /// the whole campaign, or shards merged back into it).
    #[serde(default)]
    pub shard: Option<Shard>,
    /// A shard's tasks, so that a merge can tell a complete shard from an interrupted one.
    #[serde(default)]
    pub shard_tasks: Vec<TaskKey>,
    /// What this archive lacks of its campaign, a line each (empty: nothing known missing): the
    /// shards and tasks a `merge --allow-missing` went without.
    #[serde(default)]
    pub incomplete: Vec<String>,
}

/// What identifies a task's result in an archive: a resumed campaign skips the tasks whose
/// key it holds, and a merge checks that every task of every shard is there.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TaskKey {
    /// A session (or the initial session of a metamorphic chain).
    Session(crate::session::SessionId),
    /// The execution frame of a GenMorph subject.
    Subject(String),
}

/// The K-th of N deterministic parts of a campaign (docs/design.md §2). `index` is 0-based; people
/// see `K/N` with K from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The shard `index` (0-based) of `count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, String> {
        if count == 0 {
            return Err("a campaign has at least one shard (N ≥ 1)".into());
        }
        if index >= count {
            return Err(format!(
                "shard {} of {count} does not exist: K runs from 1 to {count}",
                index as u64 + 1
            ));
        }
        Ok(Shard { index, count })
    }

    /// `K/N` with K from 1, as people write it.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("a shard is K/N with 1 ≤ K ≤ N (e.g. 2/4), not {s:?}");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u32 = k.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        if k == 0 {
            return Err(bad());
        }
        Shard::new(k - 1, n)
    }

    /// `2-of-4`: the shard in a file name.
    pub fn file_tag(&self) -> String {
        format!("{}-of-{}", self.index + 1, self.count)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

impl ArchiveHeader {
    /// A header for the current format, tool, host and time.
    pub fn new(campaign: CampaignConfig, engines: Vec<EngineDescriptor>) -> ArchiveHeader {
        ArchiveHeader {
            format: FORMAT_VERSION,
            tool_version: format!("morphtrace {}", env!("CARGO_PKG_VERSION")),
            campaign,
            engines,
            host: HostInfo::current(),
            started_at_ms: now_ms(),
            shard: None,
            shard_tasks: Vec::new(),
            incomplete: Vec::new(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_written_k_of_n_from_one() {
        let s = Shard::parse("2/4").unwrap();
        assert_eq!((s.index, s.count), (1, 4));
        assert_eq!(s.to_string(), "2/4");
        assert_eq!(s.file_tag(), "2-of-4");
        for bad in ["0/4", "5/4", "1/0", "4", "a/b", "-1/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
