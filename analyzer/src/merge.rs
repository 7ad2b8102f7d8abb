//! `morphtrace-analyze merge`: the shards of one campaign joined into the archive an unsharded
//! run would have written (the same sessions, ids and traces; the order of frames aside).

use morphtrace_schema::archive::WriterOptions;
use morphtrace_schema::{
    ArchiveError, ArchiveHeader, ArchiveReader, ArchiveWriter, SessionId, TaskKey,
};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{path}: {source}")]
    Read { path: String, source: ArchiveError },
    #[error(
        "{path} is not a shard (recorded without --shard): only the shards of one campaign merge"
    )]
    NotAShard { path: String },
    #[error("{a} and {b} are not shards of one campaign: {what} differ ({detail})")]
    Mixed {
        a: String,
        b: String,
        what: &'static str,
        detail: String,
    },
    #[error("{0} exists: give a new --out")]
    Exists(String),
    #[error("no shards given")]
    Empty,
    #[error(
        "the shards are incomplete (nothing written; --allow-missing merges what there is):\n{0}"
    )]
    Incomplete(String),
    #[error("writing {path}: {source}")]
    Write { path: String, source: ArchiveError },
}

/// One shard archive as the merge found it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ShardFound {
    pub path: String,
    pub shard: String,
    pub sessions: usize,
    pub executions: usize,
    /// Tasks of the shard (from its header) with nothing in any archive.
    pub missing_tasks: usize,
    pub tasks: usize,
    /// What the reader recovered from a damaged or truncated archive (empty: intact).
    pub recovery: String,
}

impl ShardFound {
    /// What the reader recovered, between `open` and `close`; nothing for an intact archive.
    fn damage(&self, open: &str, close: &str) -> String {
        if self.recovery.is_empty() {
            String::new()
        } else {
            format!("{open}{}{close}", self.recovery)
        }
    }
}

/// What a merge did, or would have done.
#[derive(Debug, Clone, serde::Serialize)]
pub struct MergeReport {
    pub out: String,
    pub count: u32,
    pub shards: Vec<ShardFound>,
    /// Shards (1-based) of the campaign with no archive.
    pub missing_shards: Vec<u32>,
    /// Shards (1-based) given more than once (a retried array task), with their archives.
    pub duplicated_shards: Vec<(u32, Vec<String>)>,
    /// Sessions or execution frames found in more than one archive: kept once, the first.
    pub duplicates: usize,
    pub sessions: usize,
    pub executions: usize,
    pub programs: usize,
    /// Engines that ran from different executables on different shards (same versions).
    pub notes: Vec<String>,
}

impl MergeReport {
    pub fn is_complete(&self) -> bool {
        self.missing_shards.is_empty() && self.shards.iter().all(|s| s.missing_tasks == 0)
    }

    /// What is missing, a line each.
    fn gaps(&self) -> String {
        let mut s = String::new();
        if !self.missing_shards.is_empty() {
            let list: Vec<String> = self
                .missing_shards
                .iter()
                .map(|k| format!("{k}/{}", self.count))
                .collect();
            let _ = writeln!(s, "  missing shards: {}", list.join(", "));
        }
        for f in self.shards.iter().filter(|f| f.missing_tasks > 0) {
            let _ = writeln!(
                s,
                "  shard {} ({}): {} of its {} tasks missing{} — continue it with --resume",
                f.shard,
                f.path,
                f.missing_tasks,
                f.tasks,
                f.damage(" (", ")")
            );
        }
        s
    }
}

impl std::fmt::Display for MergeReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "merged {} archives of {} shards into {}: {} sessions, {} execution frames, {} programs",
            self.shards.len(),
            self.count,
            self.out,
            self.sessions,
            self.executions,
            self.programs
        )?;
        for s in &self.shards {
            writeln!(
                f,
                "  shard {:<7} {:>6} sessions {:>5} execution frames  {}{}",
                s.shard,
                s.sessions,
                s.executions,
                s.path,
                s.damage("  [", "]")
            )?;
        }
        for (k, paths) in &self.duplicated_shards {
            writeln!(
                f,
                "duplicated shard {k}/{}: {} (each session kept once)",
                self.count,
                paths.join(", ")
            )?;
        }
        if self.duplicates > 0 {
            writeln!(
                f,
                "{} sessions or frames were in more than one archive: the first kept",
                self.duplicates
            )?;
        }
        for n in &self.notes {
            writeln!(f, "note: {n}")?;
        }
        if !self.is_complete() {
            write!(f, "incomplete:\n{}", self.gaps())?;
        }
        Ok(())
    }
}

/// What decides that two archives are parts of one campaign: everything in the header but the
/// host, the time, the command line (each shard's has its --shard) and the shard itself.
fn same_campaign(a: &ArchiveHeader, b: &ArchiveHeader) -> Result<(), (&'static str, String)> {
    let (ca, cb) = (&a.campaign, &b.campaign);
    if a.tool_version != b.tool_version {
        return Err((
            "tool versions",
            format!("{} vs {}", a.tool_version, b.tool_version),
        ));
    }
    if ca.name != cb.name || ca.strategy != cb.strategy {
        return Err((
            "campaigns",
            format!(
                "{} ({}) vs {} ({})",
                ca.name, ca.strategy, cb.name, cb.strategy
            ),
        ));
    }
    if ca.corpus != cb.corpus || ca.seeds != cb.seeds {
        return Err((
            "corpora or seeds",
            format!(
                "{:?} seeds {} vs {:?} seeds {}",
                ca.corpus, ca.seeds, cb.corpus, cb.seeds
            ),
        ));
    }
    if ca.params != cb.params {
        let diff: Vec<String> = ca
            .params
            .iter()
            .filter(|p| !cb.params.contains(p))
            .map(|(k, v)| format!("{k} = {v} vs {}", cb.param(k).unwrap_or("(unset)")))
            .chain(
                cb.params
                    .iter()
                    .filter(|(k, _)| ca.param(k).is_none())
                    .map(|(k, v)| format!("{k} = (unset) vs {v}")),
            )
            .collect();
        return Err(("parameters", diff.join("; ")));
    }
    let label = |h: &ArchiveHeader| {
        h.engines
            .iter()
            .map(|e| format!("{} {}", e.kind, e.version))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if a.engines.len() != b.engines.len()
        || a.engines
            .iter()
            .zip(&b.engines)
            .any(|(x, y)| x.kind != y.kind || x.version != y.version)
    {
        return Err((
            "engines or versions",
            format!("{} vs {}", label(a), label(b)),
        ));
    }
    match (a.shard, b.shard) {
        (Some(x), Some(y)) if x.count != y.count => Err((
            "shard counts",
            format!("{} shards vs {} shards", x.count, y.count),
        )),
        _ => Ok(()),
    }
}

/// A shard's command line without its `--shard`: the command of the unsharded campaign (its
/// `--out` is the name the shards were derived from).
fn unsharded(command: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in command {
        if std::mem::take(&mut skip) {
            continue;
        }
        if a == "--shard" {
            skip = true;
        } else if !a.starts_with("--shard=") {
            out.push(a.clone());
        }
    }
    out
}

struct Found {
    path: PathBuf,
    header: ArchiveHeader,
    sessions: Vec<SessionId>,
    subjects: Vec<String>,
    recovery: String,
}

fn open(path: &Path) -> Result<ArchiveReader, MergeError> {
    ArchiveReader::open(path).map_err(|source| MergeError::Read {
        path: path.display().to_string(),
        source,
    })
}

/// Merges `paths` (shards of one campaign) into `out`. Checks everything before writing
/// anything; refuses mixed campaigns, and missing shards or tasks unless `allow_missing`.
pub fn merge(
    paths: &[PathBuf],
    out: &Path,
    allow_missing: bool,
) -> Result<MergeReport, MergeError> {
    if paths.is_empty() {
        return Err(MergeError::Empty);
    }
    if out.exists() {
        return Err(MergeError::Exists(out.display().to_string()));
    }
    // Pass 1: headers and what each archive holds, one archive in memory at a time.
    let mut found = Vec::new();
    for path in paths {
        let r = open(path)?;
        if r.header().shard.is_none() {
            return Err(MergeError::NotAShard {
                path: path.display().to_string(),
            });
        }
        let sessions = r.sessions().filter_map(Result::ok).map(|s| s.id).collect();
        let subjects = (0..r.execution_count())
            .filter_map(|i| r.executions(i).ok())
            .map(|b| b.subject.name)
            .collect();
        let recovery = if r.recovery().is_intact() {
            String::new()
        } else {
            r.recovery().to_string()
        };
        found.push(Found {
            path: path.clone(),
            header: r.header().clone(),
            sessions,
            subjects,
            recovery,
        });
    }
    let first = &found[0];
    for f in &found[1..] {
        same_campaign(&first.header, &f.header).map_err(|(what, detail)| MergeError::Mixed {
            a: first.path.display().to_string(),
            b: f.path.display().to_string(),
            what,
            detail,
        })?;
    }
    let count = first.header.shard.map_or(1, |s| s.count);
    let mut by_shard: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for f in &found {
        if let Some(s) = f.header.shard {
            by_shard
                .entry(s.index + 1)
                .or_default()
                .push(f.path.display().to_string());
        }
    }
    let held: HashSet<TaskKey> = found
        .iter()
        .flat_map(|f| {
            f.sessions
                .iter()
                .map(|&id| TaskKey::Session(id))
                .chain(f.subjects.iter().map(|s| TaskKey::Subject(s.clone())))
        })
        .collect();
    let mut notes = Vec::new();
    for (i, e) in first.header.engines.iter().enumerate() {
        let others: HashSet<&str> = found
            .iter()
            .filter_map(|f| f.header.engines.get(i))
            .map(|x| x.executable.as_str())
            .filter(|x| *x != e.executable)
            .collect();
        if !others.is_empty() {
            notes.push(format!(
                "engine {} ran from {} and {}",
                e.label(),
                e.executable,
                others.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    let mut report = MergeReport {
        out: out.display().to_string(),
        count,
        shards: found
            .iter()
            .map(|f| ShardFound {
                path: f.path.display().to_string(),
                shard: f.header.shard.map(|s| s.to_string()).unwrap_or_default(),
                sessions: f.sessions.len(),
                executions: f.subjects.len(),
                tasks: f.header.shard_tasks.len(),
                missing_tasks: f
                    .header
                    .shard_tasks
                    .iter()
                    .filter(|k| !held.contains(k))
                    .count(),
                recovery: f.recovery.clone(),
            })
            .collect(),
        missing_shards: (1..=count).filter(|k| !by_shard.contains_key(k)).collect(),
        duplicated_shards: by_shard.into_iter().filter(|(_, p)| p.len() > 1).collect(),
        duplicates: 0,
        sessions: 0,
        executions: 0,
        programs: 0,
        notes,
    };
    if !report.is_complete() && !allow_missing {
        return Err(MergeError::Incomplete(report.gaps()));
    }
    // Pass 2: one archive, written beside `out` and renamed when complete.
    let mut header = first.header.clone();
    header.shard = None;
    header.shard_tasks.clear();
    // A merge of what there is must not pass for the whole campaign: the header keeps the gaps
    // (`info` shows them), and those of shards that were themselves partial merges.
    header.incomplete = report
        .gaps()
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .chain(found.iter().flat_map(|f| f.header.incomplete.clone()))
        .collect();
    header.campaign.command_line = unsharded(&header.campaign.command_line);
    header.started_at_ms = found
        .iter()
        .map(|f| f.header.started_at_ms)
        .min()
        .unwrap_or(header.started_at_ms);
    let partial = out.with_extension("mtrace.partial");
    let write_err = |source| MergeError::Write {
        path: out.display().to_string(),
        source,
    };
    let mut w =
        ArchiveWriter::create(&partial, &header, WriterOptions::default()).map_err(write_err)?;
    let mut subjects_written = HashSet::new();
    // Shards in order, so that the same shards give the same file.
    let mut order: Vec<&Found> = found.iter().collect();
    order.sort_by_key(|f| f.header.shard);
    for f in order {
        let r = open(&f.path)?;
        let mut programs: Vec<_> = r.programs().values().collect();
        programs.sort_by_key(|p| p.hash);
        for p in programs {
            if w.add_program(p).map_err(write_err)? {
                report.programs += 1;
            }
        }
        for s in r.sessions().filter_map(Result::ok) {
            if w.has_session(&s.id) {
                report.duplicates += 1;
                continue;
            }
            w.append(&s).map_err(write_err)?;
            report.sessions += 1;
        }
        for b in (0..r.execution_count()).filter_map(|i| r.executions(i).ok()) {
            if !subjects_written.insert(b.subject.name.clone()) {
                report.duplicates += 1;
                continue;
            }
            w.append_executions(&b).map_err(write_err)?;
            report.executions += 1;
        }
    }
    w.finish().map_err(write_err)?;
    std::fs::rename(&partial, out).map_err(|error| MergeError::Write {
        path: out.display().to_string(),
        source: ArchiveError::Io {
            path: partial.clone(),
            error,
        },
    })?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_merged_command_line_has_no_shard() {
        let c = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            super::unsharded(&c("rec run --shard 2/4 --out d.mtrace --shard=auto -j 2")),
            c("rec run --out d.mtrace -j 2")
        );
    }
}
