//! `morphtrace-analyze info`: what an archive holds and whether it is intact.

use morphtrace_schema::archive::IndexStatus;
use morphtrace_schema::{ArchiveReader, RecoveryReport, Session};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

#[derive(Debug, Serialize)]
pub struct EngineSummary {
    pub index: usize,
    pub label: String,
    pub kind: String,
    pub version: String,
    pub engine_version: Option<String>,
    pub protocol: String,
    pub executable: String,
    pub details: Vec<(String, String)>,
}

#[derive(Debug, Serialize)]
pub struct ProgramSummary {
    pub hash: String,
    pub name: String,
    pub lines: usize,
}

/// Everything `info` prints, also available as JSON.
#[derive(Debug, Serialize)]
pub struct ArchiveInfo {
    pub path: String,
    pub file_len: u64,
    pub format: String,
    pub tool_version: String,
    pub campaign: String,
    pub strategy: String,
    pub corpus: Vec<String>,
    pub seeds: String,
    pub params: Vec<(String, String)>,
    /// The recorder's command line (what made the archive).
    pub command_line: Vec<String>,
    pub started_at_ms: i64,
    pub host: String,
    /// `2/4 (13 tasks)` when the archive is one shard of a campaign.
    pub shard: Option<String>,
    /// What the archive lacks of its campaign (a partial merge's missing shards and tasks).
    pub incomplete: Vec<String>,
    pub engines: Vec<EngineSummary>,
    pub sessions: usize,
    pub events: usize,
    /// Sessions judged (the engines agreed, or diverged / violated a relation).
    pub judged: usize,
    /// Sessions undecided, by reason (timeout, harness-error, rejected, ...).
    pub undecided: BTreeMap<String, usize>,
    /// GenMorph's recorded executions (`morphtrace-record genmorph`), which are not sessions.
    pub executions: usize,
    /// mode -> outcome -> count
    pub by_mode_outcome: BTreeMap<String, BTreeMap<String, usize>>,
    /// Sessions' first divergences by type (DBDB's).
    pub divergences: BTreeMap<String, usize>,
    /// Lockstep continuation: divergences the sessions went on past, and those met after a
    /// session's first.
    pub gone_past: usize,
    pub after_first: usize,
    pub warnings: BTreeMap<String, usize>,
    /// Metamorphic follow-ups by (last) transformation, and the rounds it could not apply.
    pub follow_ups: BTreeMap<String, FollowUps>,
    /// Sessions by what the output check found (`morphtrace_judges::attached`): alike, apart,
    /// or not judged with the reason.
    pub attached: BTreeMap<String, usize>,
    pub undecodable_sessions: Vec<String>,
    pub programs: Vec<ProgramSummary>,
    pub recovery: RecoveryReport,
}

impl ArchiveInfo {
    /// Damaged: some bytes were dropped or some session frame does not decode.
    pub fn is_damaged(&self) -> bool {
        !self.recovery.is_intact() || !self.undecodable_sessions.is_empty()
    }
}

/// One transformation's follow-ups: how many, judged, violated; and how often a round could
/// not apply it to its parent, by reason.
#[derive(Debug, Default, Clone, Serialize)]
pub struct FollowUps {
    pub follow_ups: usize,
    pub judged: usize,
    pub violated: usize,
    pub not_applicable: BTreeMap<String, usize>,
}

impl FollowUps {
    fn merge(&mut self, o: FollowUps) {
        self.follow_ups += o.follow_ups;
        self.judged += o.judged;
        self.violated += o.violated;
        for (k, v) in o.not_applicable {
            *self.not_applicable.entry(k).or_default() += v;
        }
    }
}

#[derive(Default)]
struct Tally {
    sessions: usize,
    events: usize,
    judged: usize,
    undecided: BTreeMap<String, usize>,
    by_mode_outcome: BTreeMap<String, BTreeMap<String, usize>>,
    divergences: BTreeMap<String, usize>,
    gone_past: usize,
    after_first: usize,
    warnings: BTreeMap<String, usize>,
    follow_ups: BTreeMap<String, FollowUps>,
    attached: BTreeMap<String, usize>,
    errors: Vec<String>,
}

impl Tally {
    fn add(mut self, s: &Session) -> Tally {
        self.sessions += 1;
        self.events += s.event_count();
        match s.outcome.decision() {
            morphtrace_schema::Decision::Undecided { reason } => {
                *self.undecided.entry(reason).or_default() += 1
            }
            _ => self.judged += 1,
        }
        *self
            .by_mode_outcome
            .entry(s.mode.name().to_string())
            .or_default()
            .entry(s.outcome.name().to_string())
            .or_default() += 1;
        if let Some(d) = &s.divergence {
            *self
                .divergences
                .entry(d.kind.name().to_string())
                .or_default() += 1;
        }
        let all = s.all_divergences();
        self.gone_past += all.iter().filter(|d| d.continued.is_some()).count();
        self.after_first += all.len().saturating_sub(1);
        for w in &s.warnings {
            *self.warnings.entry(w.relation.clone()).or_default() += 1;
        }
        if let (Some(_), Some(t)) = (&s.parent, s.transformations.last()) {
            let f = self.follow_ups.entry(t.name.clone()).or_default();
            f.follow_ups += 1;
            f.judged += usize::from(s.outcome.decision().is_judged());
            f.violated += usize::from(s.outcome == morphtrace_schema::SessionOutcome::Violated);
        }
        for (k, v) in &s.notes {
            if k == morphtrace_judges::attached::NOTE {
                let key = morphtrace_judges::attached::note_key(v).to_string();
                *self.attached.entry(key).or_default() += 1;
            }
            if k != morphtrace_judges::metamorphic::NOT_APPLICABLE {
                continue;
            }
            for (t, why) in morphtrace_judges::metamorphic::unfit_of_note(v) {
                let f = self.follow_ups.entry(t.to_string()).or_default();
                *f.not_applicable.entry(why.to_string()).or_default() += 1;
            }
        }
        self
    }

    fn merge(mut self, o: Tally) -> Tally {
        self.sessions += o.sessions;
        self.events += o.events;
        self.judged += o.judged;
        for (k, v) in o.undecided {
            *self.undecided.entry(k).or_default() += v;
        }
        for (m, outcomes) in o.by_mode_outcome {
            let e = self.by_mode_outcome.entry(m).or_default();
            for (k, v) in outcomes {
                *e.entry(k).or_default() += v;
            }
        }
        for (k, v) in o.divergences {
            *self.divergences.entry(k).or_default() += v;
        }
        self.gone_past += o.gone_past;
        self.after_first += o.after_first;
        for (k, v) in o.follow_ups {
            self.follow_ups.entry(k).or_default().merge(v);
        }
        for (k, v) in o.warnings {
            *self.warnings.entry(k).or_default() += v;
        }
        for (k, v) in o.attached {
            *self.attached.entry(k).or_default() += v;
        }
        self.errors.extend(o.errors);
        self
    }
}

pub fn summarize(path: &str, reader: &ArchiveReader) -> ArchiveInfo {
    use rayon::prelude::*;
    let h = reader.header();
    let tally = reader
        .par_sessions()
        .fold(Tally::default, |t, s| match s {
            Ok(s) => t.add(&s),
            Err(e) => {
                let mut t = t;
                t.errors.push(e.to_string());
                t
            }
        })
        .reduce(Tally::default, Tally::merge);
    let mut programs: Vec<ProgramSummary> = reader
        .programs()
        .values()
        .map(|p| ProgramSummary {
            hash: p.hash.to_string(),
            name: p.origin.name(),
            lines: p.line_count(),
        })
        .collect();
    programs.sort_by(|a, b| a.name.cmp(&b.name).then(a.hash.cmp(&b.hash)));
    let mem = h
        .host
        .memory_bytes
        .map(|b| format!(", {:.1} GiB", b as f64 / (1u64 << 30) as f64))
        .unwrap_or_default();
    ArchiveInfo {
        path: path.to_string(),
        file_len: reader.recovery().file_len,
        format: reader.recovery().format.to_string(),
        tool_version: h.tool_version.clone(),
        campaign: h.campaign.name.clone(),
        strategy: h.campaign.strategy.clone(),
        corpus: h.campaign.corpus.clone(),
        seeds: h.campaign.seeds.clone(),
        params: h.campaign.params.clone(),
        command_line: h.campaign.command_line.clone(),
        started_at_ms: h.started_at_ms,
        shard: h
            .shard
            .map(|s| format!("{s} ({} tasks)", h.shard_tasks.len())),
        incomplete: h.incomplete.clone(),
        host: format!(
            "{} ({}/{}, {} cpus{mem})",
            h.host.hostname, h.host.os, h.host.arch, h.host.cpus
        ),
        engines: h
            .engines
            .iter()
            .enumerate()
            .map(|(i, e)| EngineSummary {
                index: i,
                label: e.label(),
                kind: e.kind.to_string(),
                version: e.version.clone(),
                engine_version: e.engine_version.clone(),
                protocol: e.protocol.to_string(),
                executable: e.executable.clone(),
                details: e.details.clone(),
            })
            .collect(),
        sessions: tally.sessions + tally.errors.len(),
        events: tally.events,
        judged: tally.judged,
        undecided: tally.undecided,
        executions: reader.execution_count(),
        by_mode_outcome: tally.by_mode_outcome,
        divergences: tally.divergences,
        gone_past: tally.gone_past,
        after_first: tally.after_first,
        warnings: tally.warnings,
        follow_ups: tally.follow_ups,
        attached: tally.attached,
        undecodable_sessions: tally.errors,
        programs,
        recovery: reader.recovery().clone(),
    }
}

fn time(ms: i64) -> String {
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms.max(0) as u64);
    humantime::format_rfc3339_seconds(t).to_string()
}

/// Renders the summary for people. `max_programs` bounds the program list.
pub fn render(info: &ArchiveInfo, max_programs: usize) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "archive   {}", info.path);
    let _ = writeln!(
        o,
        "format    {} ({} bytes), written by {}",
        info.format, info.file_len, info.tool_version
    );
    let _ = writeln!(
        o,
        "campaign  {:?}: strategy {}, seeds {}, corpus {}",
        info.campaign,
        info.strategy,
        info.seeds,
        info.corpus.join(" ")
    );
    if !info.params.is_empty() {
        let p: Vec<String> = info
            .params
            .iter()
            .map(|(k, v)| {
                // A file's text (the triage lockstep went on under) is named, not printed.
                if v.contains('\n') {
                    format!("{k}=<{} lines>", v.lines().count())
                } else {
                    format!("{k}={v}")
                }
            })
            .collect();
        let _ = writeln!(o, "params    {}", p.join(", "));
    }
    if !info.command_line.is_empty() {
        let _ = writeln!(o, "command   {}", info.command_line.join(" "));
    }
    let _ = writeln!(o, "recorded  {} on {}", time(info.started_at_ms), info.host);
    if let Some(s) = &info.shard {
        let _ = writeln!(
            o,
            "shard     {s}: `morphtrace-analyze merge` joins the shards"
        );
    }
    if !info.incomplete.is_empty() {
        let _ = writeln!(
            o,
            "INCOMPLETE: not the whole campaign (merged with --allow-missing):"
        );
        for l in &info.incomplete {
            let _ = writeln!(o, "  {l}");
        }
    }
    let _ = writeln!(o, "engines   {}", info.engines.len());
    for e in &info.engines {
        let inner = e
            .engine_version
            .as_deref()
            .map(|v| format!(" [{v}]"))
            .unwrap_or_default();
        let _ = writeln!(
            o,
            "  #{} {}{} over {} ({})",
            e.index, e.label, inner, e.protocol, e.executable
        );
    }
    let _ = writeln!(o, "sessions  {} ({} events)", info.sessions, info.events);
    if info.sessions > 0 {
        let undecided: usize = info.undecided.values().sum();
        let reasons: Vec<String> = info
            .undecided
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(
            o,
            "decided   {} judged, {undecided} undecided{}",
            info.judged,
            if reasons.is_empty() {
                String::new()
            } else {
                format!(" ({})", reasons.join(", "))
            }
        );
    }
    if info.executions > 0 {
        let _ = writeln!(
            o,
            "executions {} (GenMorph: calls of the subject functions, not debugging sessions)",
            info.executions
        );
    }
    let outcomes: std::collections::BTreeSet<&String> = info
        .by_mode_outcome
        .values()
        .flat_map(|m| m.keys())
        .collect();
    if !outcomes.is_empty() {
        let _ = write!(o, "  {:<14}", "mode");
        for k in &outcomes {
            let _ = write!(o, " {:>13}", k);
        }
        let _ = writeln!(o, " {:>8}", "total");
        for (mode, m) in &info.by_mode_outcome {
            let _ = write!(o, "  {:<14}", mode);
            for k in &outcomes {
                let _ = write!(o, " {:>13}", m.get(*k).copied().unwrap_or(0));
            }
            let _ = writeln!(o, " {:>8}", m.values().sum::<usize>());
        }
    }
    if !info.divergences.is_empty() {
        let total: usize = info.divergences.values().sum();
        let _ = writeln!(o, "divergences by type ({total})");
        let mut d: Vec<_> = info.divergences.iter().collect();
        d.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (k, v) in d {
            let _ = writeln!(
                o,
                "  {:<22} {:>6} {:>6.1}%",
                k,
                v,
                100.0 * *v as f64 / total as f64
            );
        }
        if info.gone_past > 0 {
            let _ = writeln!(
                o,
                "lockstep  went on past {} divergences (excused by triage, or a lone suspect left out); {} more met after sessions' first",
                info.gone_past, info.after_first
            );
        }
    }
    if !info.warnings.is_empty() {
        let _ = writeln!(o, "warnings by relation");
        for (k, v) in &info.warnings {
            let _ = writeln!(o, "  {:<22} {:>6}", k, v);
        }
    }
    if !info.follow_ups.is_empty() {
        let total: usize = info.follow_ups.values().map(|f| f.follow_ups).sum();
        let _ = writeln!(
            o,
            "follow-ups by transformation ({total}; rounds that could not apply it, by reason)"
        );
        let _ = writeln!(
            o,
            "  {:<38} {:>6} {:>6} {:>8} {:>8} {:>14}",
            "transformation", "made", "in %", "judged", "violated", "not applicable"
        );
        for (t, f) in &info.follow_ups {
            let unfit: usize = f.not_applicable.values().sum();
            let _ = writeln!(
                o,
                "  {:<38} {:>6} {:>6.1} {:>8} {:>8} {:>14}",
                t,
                f.follow_ups,
                100.0 * f.follow_ups as f64 / total.max(1) as f64,
                f.judged,
                f.violated,
                unfit
            );
            let mut why: Vec<_> = f.not_applicable.iter().collect();
            why.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            for (reason, n) in why {
                let _ = writeln!(o, "    {n:>6}  {reason}");
            }
        }
    }
    if !info.attached.is_empty() {
        let total: usize = info.attached.values().sum();
        let _ = writeln!(
            o,
            "output with the debugger and without ({total} sessions; the program's run without a pause)"
        );
        let mut by: Vec<_> = info.attached.iter().collect();
        by.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (k, n) in by {
            let _ = writeln!(o, "  {n:>6}  {k}");
        }
    }
    let _ = writeln!(o, "programs  {}", info.programs.len());
    for p in info.programs.iter().take(max_programs) {
        let _ = writeln!(o, "  {}  {} ({} lines)", &p.hash[..12], p.name, p.lines);
    }
    if info.programs.len() > max_programs {
        let _ = writeln!(o, "  … and {} more", info.programs.len() - max_programs);
    }
    let status = if info.is_damaged() {
        "DAMAGED (recovered)"
    } else if info.recovery.index == IndexStatus::Used {
        "intact"
    } else {
        "intact (unfinished)"
    };
    let _ = writeln!(o, "integrity {status}: {}", info.recovery);
    for e in &info.undecodable_sessions {
        let _ = writeln!(o, "  undecodable: {e}");
    }
    o
}
