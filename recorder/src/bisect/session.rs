//! Bisecting one recorded session (`morphtrace-record bisect`): each probe replays the session
//! with one engine replaced by a version of the range, under the options (and, past a first
//! divergence, the triage) the recording used, into an archive of its own; `judge` says whether
//! the finding shows there.

use super::{candidates, judge, parse_range, search, BisectError, Bisected, Probe, ProbeTarget};
use crate::campaign::{self, Campaign};
use crate::debugger::engines::EngineSpec;
use crate::debugger::CaptureOptions;
use crate::recorded;
use crate::reduce::Finding;
use crate::task::Task;
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_schema::{ArchiveReader, CampaignConfig, EngineKind, WriterOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// What to bisect.
#[derive(Debug, Clone)]
pub struct Request {
    pub archive: PathBuf,
    /// The session: its id (16 hex digits) or its position in the archive.
    pub session: String,
    /// `KIND@LOW..HIGH`.
    pub versions: String,
    /// The kind of the session's engine each version replaces (default: the range's kind).
    pub in_place_of: Option<String>,
    /// Directory for the probes' archives and bisect.json (created; must not exist).
    pub out: PathBuf,
    pub session_timeout: Duration,
    /// Which of the session's divergences (0: the first).
    pub divergence: usize,
    /// The command line, recorded in each probe's archive.
    pub command_line: Vec<String>,
}

/// How a bisection went: the probes in order, the verdict, and the sentence saying it.
#[derive(Debug, Clone)]
pub struct Report {
    pub finding: Finding,
    pub candidates: Vec<ProbeTarget>,
    pub probes: Vec<Probe>,
    pub bisected: Bisected,
    pub summary: String,
}

impl Report {
    /// A boundary both of whose sides were probed twice with the same answers.
    pub fn confirmed(&self) -> bool {
        matches!(
            self.bisected,
            Bisected::Boundary {
                confirmed: true,
                ..
            }
        )
    }

    /// One line per probe: version, answer, why.
    pub fn log(&self) -> String {
        let mut log = String::new();
        for p in &self.probes {
            let shows = match p.shows {
                Some(true) => "shows",
                Some(false) => "absent",
                None => "undecided",
            };
            log.push_str(&format!(
                "  {:<22} {shows:<9} {}\n",
                self.candidates[p.index].spec, p.note
            ));
        }
        log
    }
}

/// Says what the bisection found, claiming no more than was judged.
fn summary(finding: &Finding, c: &[ProbeTarget], probes: &[Probe], b: &Bisected) -> String {
    match b {
        Bisected::Boundary {
            before,
            after,
            appears,
            confirmed,
        } => format!(
            "{finding} {} between {} and {}{}",
            if *appears { "appears" } else { "disappears" },
            c[*before].spec,
            c[*after].spec,
            if *confirmed {
                " (both sides probed twice)"
            } else if probes.iter().rev().take(2).any(|p| p.shows.is_none()) {
                " (NOT confirmed: a second probe could not be judged)"
            } else {
                " (NOT confirmed: a second probe answered differently)"
            }
        ),
        Bisected::OneEnd { index, shows } => format!(
            "{finding} {} on {} only: no other version of the range could be judged, so no \
             boundary can be told",
            if *shows { "shows" } else { "is absent" },
            c[*index].spec
        ),
        Bisected::Same { shows: true } => {
            format!("{finding} shows on both ends of the range: no boundary within it")
        }
        Bisected::Same { shows: false } => {
            format!("{finding} shows on neither end of the range: no boundary within it")
        }
        Bisected::Unjudgeable { low, high } => format!(
            "no boundary between two adjacent versions: {finding} changes between {} and {}, \
             and no version between them could be judged",
            c[*low].spec, c[*high].spec
        ),
    }
}

/// Bisects the session `req` names; the probes' archives and `bisect.json` go into `req.out`.
/// `started` is told the finding and the versions before the first probe runs.
pub async fn bisect(
    req: &Request,
    started: impl FnOnce(&Finding, &[ProbeTarget]),
) -> Result<Report, BisectError> {
    let io = |what: String| move |e: std::io::Error| BisectError::Io(format!("{what}: {e}"));
    if req.out.exists() {
        return Err(BisectError::Refused(format!(
            "{} exists: give a new directory",
            req.out.display()
        )));
    }
    let reader = recorded::open(&req.archive)?;
    let session = recorded::session(&reader, &req.session, &req.archive)?;
    let divergence =
        recorded::divergence(&session, req.divergence, "bisect looks for a divergence")?;
    // Probes go on past what the recording went on past, under the triage it recorded.
    let triage = if req.divergence > 0 {
        recorded::triage(reader.header())?.map(Arc::new)
    } else {
        None
    };
    let finding = Finding::of(&divergence);
    let at = divergence.action_index;
    let (kind, low, high) = parse_range(&req.versions)?;
    let header = reader.header();
    let descriptors = recorded::engines(header, &session)?;
    let recorded: Vec<EngineSpec> = descriptors.iter().map(|d| EngineSpec::of(d)).collect();
    let replaced = req
        .in_place_of
        .as_deref()
        .map(EngineKind::parse)
        .unwrap_or_else(|| kind.clone());
    let j = recorded
        .iter()
        .position(|e| e.kind == replaced)
        .ok_or_else(|| {
            BisectError::Refused(format!(
                "session {} ran no {replaced} engine for {kind} to take the place of; say which \
                 with --in-place-of KIND",
                session.id
            ))
        })?;
    let candidates = tokio::task::spawn_blocking(move || candidates(&kind, &low, &high))
        .await
        .map_err(|e| BisectError::Io(e.to_string()))??;
    started(&finding, &candidates);
    let capture = CaptureOptions::recorded(header, &descriptors);
    let policy = ComparisonPolicy::from_params(&header.campaign.params);
    std::fs::create_dir_all(&req.out).map_err(io(format!("creating {}", req.out.display())))?;
    let work = tempfile::Builder::new()
        .prefix("morphtrace-programs-")
        .tempdir()
        .map_err(io("a work directory".into()))?;
    let mut counter = 0usize;
    let probe = |i: usize| {
        counter += 1;
        let p = Prober {
            n: counter,
            index: i,
            candidate: candidates[i].clone(),
            engines: recorded.clone(),
            replaced: j,
            capture: capture.clone(),
            policy: policy.clone(),
            triage: triage.clone(),
            work: work.path().to_path_buf(),
            finding: finding.clone(),
            at,
        };
        let (reader, session) = (&reader, &session);
        async move { p.probe(req, reader, session).await }
    };
    let (bisected, probes) = search(candidates.len(), probe).await;
    let summary = summary(&finding, &candidates, &probes, &bisected);
    let json = serde_json::json!({
        "archive": req.archive.display().to_string(),
        "session": session.id.to_string(),
        "finding": finding.to_string(),
        "versions": candidates.iter().map(|c| c.spec.clone()).collect::<Vec<_>>(),
        "probes": probes.iter().map(|p| serde_json::json!({
            "version": candidates[p.index].spec,
            "shows": p.shows,
            "note": p.note,
        })).collect::<Vec<_>>(),
        "verdict": summary,
    });
    let text = serde_json::to_vec_pretty(&json).map_err(|e| BisectError::Io(e.to_string()))?;
    std::fs::write(req.out.join("bisect.json"), text).map_err(io("writing bisect.json".into()))?;
    Ok(Report {
        finding,
        candidates,
        probes,
        bisected,
        summary,
    })
}

/// One probe: the session replayed with engine `replaced` as `candidate`.
struct Prober {
    n: usize,
    index: usize,
    candidate: ProbeTarget,
    engines: Vec<EngineSpec>,
    replaced: usize,
    capture: CaptureOptions,
    policy: ComparisonPolicy,
    triage: Option<Arc<morphtrace_judges::triage::Triage>>,
    work: PathBuf,
    finding: Finding,
    at: u32,
}

impl Prober {
    async fn probe(
        mut self,
        req: &Request,
        reader: &ArchiveReader,
        session: &morphtrace_schema::Session,
    ) -> Probe {
        let undecided = |note: String| Probe {
            index: self.index,
            shows: None,
            note,
        };
        let spec = match tokio::task::spawn_blocking({
            let s = self.candidate.spec.clone();
            move || EngineSpec::parse(&s)
        })
        .await
        {
            Ok(Ok(spec)) => spec,
            Ok(Err(e)) => return undecided(format!("not installable: {e}")),
            Err(e) => return undecided(e.to_string()),
        };
        self.engines[self.replaced] = spec;
        let replay = match crate::dbdb::replay::tasks(reader, &self.engines, &self.work) {
            Ok(r) => r,
            Err(e) => return undecided(e.to_string()),
        };
        let tasks: Vec<Task> = replay
            .tasks
            .into_iter()
            .filter(|t| t.parent.is_some_and(|p| p.session == session.id))
            .collect();
        let spec = &self.candidate.spec;
        let path = req.out.join(format!("probe-{:02}-{spec}.mtrace", self.n));
        let campaign = Campaign {
            specs: self.engines,
            programs: replay.programs,
            tasks,
            config: CampaignConfig {
                name: format!("bisect probe {}: session {} on {spec}", self.n, session.id),
                strategy: "replay".into(),
                corpus: vec![req.archive.display().to_string()],
                seeds: session.seed.to_string(),
                params: vec![("bisect.finding".into(), self.finding.to_string())],
                command_line: req.command_line.clone(),
            },
            policy: self.policy,
            // A probe asks whether the finding shows: the first divergence, or a later one
            // under the triage the recording went on under.
            triage: self.triage,
            capture: self.capture,
            jobs: 1,
            session_timeout: req.session_timeout,
            prepared: 1,
            out: path.clone(),
            resume: false,
            writer: WriterOptions::default(),
            progress: false,
            workdir: self.work,
            shard: None,
            wrap: None,
        };
        match tokio::task::spawn_blocking(move || campaign::run(campaign)).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => return undecided(e.to_string()),
            Err(e) => return undecided(e.to_string()),
        }
        judge_archive(self.index, &path, &self.finding, self.at)
    }
}

/// Whether a probe's archive shows the finding: its one session judged, and diverged with the
/// same type at the same kind of action (as `reduce` judges).
fn judge_archive(index: usize, path: &Path, finding: &Finding, at: u32) -> Probe {
    let probe = |shows, note| Probe { index, shows, note };
    let reader = match ArchiveReader::open(path) {
        Ok(r) => r,
        Err(e) => return probe(None, format!("no archive: {e}")),
    };
    let engine = reader
        .header()
        .engines
        .iter()
        .map(|e| e.label())
        .collect::<Vec<_>>()
        .join(" vs ");
    match reader.session(0) {
        Ok(s) => {
            let (shows, why) = judge(&s, finding, at);
            probe(shows, format!("{engine}: {why}"))
        }
        Err(e) => probe(None, format!("{engine}: {e}")),
    }
}
