//! Campaigns: programs × seeds × engines in parallel workers, one crash-safe archive, resumable.

use crate::corpus::Loaded;
use crate::dbdb;
use crate::debugger::engines::EngineSpec;
use crate::debugger::DebuggerError;
use crate::debugger::{CaptureOptions, Engine};
use crate::metamorphic;
use crate::profilers::v8::V8Runner;
use crate::runner::{self, Key, OpenError};
use crate::session::{self, Recording};
pub use crate::tally::counts;
use crate::task::Task;
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_schema::archive::WriterOptions;
use morphtrace_schema::header::now_ms;
use morphtrace_schema::{ArchiveError, ArchiveWriter};
use morphtrace_schema::{
    ArchiveHeader, CampaignConfig, Divergence, EngineDescriptor, EngineRef, Program, Session,
    SessionOutcome, Shard,
};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::runtime::Runtime;

/// Why a campaign could not run or could not keep what it recorded (a session's own failure is
/// its outcome, never an error).
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    #[error("launching {engine}: {source}")]
    Launch {
        engine: String,
        source: DebuggerError,
    },
    #[error(transparent)]
    Open(#[from] OpenError),
    #[error("writing the archive: {0}")]
    Write(#[from] ArchiveError),
    #[error("starting a worker's async runtime: {0}")]
    Runtime(#[from] std::io::Error),
}

pub struct Campaign {
    pub specs: Vec<EngineSpec>,
    pub programs: Vec<Loaded>,
    pub tasks: Vec<Task>,
    pub config: CampaignConfig,
    pub policy: ComparisonPolicy,
    /// Lockstep goes on past the divergences this triage excuses (`None`: it stops at the
    /// first, as DBDB does).
    pub triage: Option<std::sync::Arc<morphtrace_judges::triage::Triage>>,
    pub capture: CaptureOptions,
    pub jobs: usize,
    pub session_timeout: Duration,
    /// Sessions each engine prepares ahead of time per worker (`--prepared`).
    pub prepared: usize,
    pub out: PathBuf,
    pub resume: bool,
    pub writer: WriterOptions,
    pub progress: bool,
    /// Where derived programs (metamorphic follow-ups) are written for the engines.
    pub workdir: PathBuf,
    /// Record only this part of the tasks.
    pub shard: Option<Shard>,
    /// Each engine as launched, given to this first with its position (`None`: as launched).
    /// What a test harness plants a fault with, to check the oracle on a debugger that lies.
    pub wrap: Option<Wrap>,
}

/// Replaces a launched engine (its position in the campaign, the engine) by another that drives
/// it: see [`Campaign::wrap`].
pub type Wrap = std::sync::Arc<dyn Fn(usize, Box<dyn Engine>) -> Box<dyn Engine> + Send + Sync>;

/// What a debugger campaign counts beyond the tally.
#[derive(Debug, Default)]
pub struct Counts {
    /// The strategy's name (`random`, `differential`, `metamorphic`, `replay`).
    pub strategy: String,
    pub divergences: BTreeMap<String, usize>,
    /// Metamorphic: warnings by last transformation and round.
    pub warnings: BTreeMap<(String, u32), usize>,
}

impl runner::Counts for Counts {
    fn unit(&self) -> &'static str {
        "sessions"
    }

    fn judged(&self) -> Option<&'static str> {
        // A random session is compared with nothing while recording: it is complete, not judged.
        Some(match self.strategy.as_str() {
            "random" | "replay" => "sessions complete",
            "metamorphic" => "test cases judged",
            _ => "sessions judged",
        })
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.divergences.is_empty() {
            writeln!(f, "divergences: {}", counts(&self.divergences))?;
        }
        if self.strategy == "metamorphic" {
            writeln!(f, "warnings: {}", self.warnings.values().sum::<usize>())?;
            for ((t, round), n) in &self.warnings {
                writeln!(f, "  {t} (round {round}): {n}")?;
            }
        }
        Ok(())
    }
}

pub type Summary = runner::Summary<Counts>;

async fn launch_all(
    specs: &[EngineSpec],
    capture: &CaptureOptions,
    pool: usize,
) -> Result<Vec<Box<dyn Engine>>, CampaignError> {
    let mut out = Vec::new();
    for s in specs {
        out.push(
            s.launch(capture, pool)
                .await
                .map_err(|source| CampaignError::Launch {
                    engine: s.to_string(),
                    source,
                })?,
        );
    }
    Ok(out)
}

/// What one task recorded.
pub struct Done {
    sessions: Vec<Session>,
    /// Programs the sessions derived (metamorphic follow-ups).
    programs: Vec<Program>,
}

/// A debugger campaign for the runner: engines launched per worker thread, each worker driving
/// its own on a single-threaded runtime of its own.
struct Debugging {
    specs: Vec<EngineSpec>,
    programs: Vec<Loaded>,
    policy: ComparisonPolicy,
    triage: Option<std::sync::Arc<morphtrace_judges::triage::Triage>>,
    capture: CaptureOptions,
    session_timeout: Duration,
    prepared: usize,
    workdir: PathBuf,
    strategy: String,
    /// The engines launched to write the header, with the runtime that drives them, handed to
    /// the first worker that starts.
    first: Mutex<Option<Station>>,
    node: PathBuf,
    wrap: Option<Wrap>,
}

/// A worker's engines, and a warm Node for precise coverage (metamorphic dead-code removal).
pub struct Station {
    /// The worker's runtime: its sessions, their connections' readers and writers and the
    /// engines' helpers all run on the worker's thread. On the shared multi-threaded runtime
    /// every CDP round trip crossed threads twice (writer task, then reader task, then the
    /// waiting worker), latency that left the cores idle.
    rt: Runtime,
    engines: Vec<Box<dyn Engine>>,
    coverage: Option<V8Runner>,
    py_coverage: Option<crate::profilers::python::CoveragePy>,
}

impl Station {
    /// A new worker runtime with the campaign's engines launched on it.
    fn launch(
        specs: &[EngineSpec],
        capture: &CaptureOptions,
        prepared: usize,
        wrap: Option<&Wrap>,
    ) -> Result<Station, CampaignError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(CampaignError::Runtime)?;
        let mut engines = rt.block_on(launch_all(specs, capture, prepared))?;
        if let Some(wrap) = wrap {
            engines = engines
                .into_iter()
                .enumerate()
                .map(|(i, e)| wrap(i, e))
                .collect();
        }
        Ok(Station {
            rt,
            engines,
            coverage: None,
            py_coverage: None,
        })
    }
}

impl runner::Work for Debugging {
    type Task = Task;
    type Worker = Station;
    type Done = Done;
    type Counts = Counts;
    type Error = CampaignError;

    fn key(&self, task: &Task) -> Key {
        Key::Session(task.id)
    }

    /// Lines of the program (a session's actions and pauses grow with them) × engines ×
    /// sessions in the task (a metamorphic chain's rounds).
    fn cost(&self, task: &Task) -> u64 {
        let lines = self
            .programs
            .get(task.program)
            .map_or(1, |l| l.program.text.lines().count() as u64);
        let sessions = task
            .chain
            .as_ref()
            .map_or(1, |c| 1 + c.params.rounds as u64);
        (lines + 10) * task.engines.len().max(1) as u64 * sessions
    }

    fn start(&self, _index: usize) -> Result<Station, CampaignError> {
        match self.first.lock().ok().and_then(|mut f| f.take()) {
            Some(station) => Ok(station),
            None => Station::launch(
                &self.specs,
                &self.capture,
                self.prepared,
                self.wrap.as_ref(),
            ),
        }
    }

    fn record(&self, w: &mut Station, task: Task) -> Done {
        let loaded = &self.programs[task.program];
        let rejection = loaded.rejected.clone().or_else(|| {
            task.chain
                .as_ref()
                .and_then(|_| metamorphic::rejection(&loaded.program))
        });
        match (&task.chain, rejection) {
            (_, Some(reason)) => Done {
                sessions: vec![rejected(&task, loaded, reason)],
                programs: Vec::new(),
            },
            (Some(chain), None) => {
                let e = task.engines.first().copied().unwrap_or(0);
                let mut ctx = metamorphic::Context {
                    engine: &mut w.engines[e],
                    engine_ref: EngineRef(e as u16),
                    policy: &self.policy,
                    workdir: &self.workdir,
                    coverage: &mut w.coverage,
                    py_coverage: &mut w.py_coverage,
                    node: self.node.clone(),
                    session_timeout: self.session_timeout,
                    prelude: self.capture.prelude,
                };
                let c = w.rt.block_on(metamorphic::run_chain(
                    &mut ctx,
                    &chain.key,
                    loaded,
                    &chain.params,
                    &task.notes,
                ));
                Done {
                    sessions: c.sessions,
                    programs: c.programs,
                }
            }
            (None, None) => Done {
                sessions: vec![w.rt.block_on(record(
                    &mut w.engines,
                    loaded,
                    &task,
                    &self.policy,
                    self.triage.as_deref(),
                    self.session_timeout,
                ))],
                programs: Vec::new(),
            },
        }
    }

    fn stop(&self, mut w: Station) {
        w.rt.block_on(async {
            for e in w.engines.iter_mut() {
                e.shutdown().await;
            }
        });
    }

    fn charge(&self, done: &mut Done, cpu_us: u64) {
        let walls: Vec<u64> = done.sessions.iter().map(|s| s.duration_us).collect();
        for (s, c) in done
            .sessions
            .iter_mut()
            .zip(crate::cpu::share(cpu_us, &walls))
        {
            s.cpu_us = Some(c);
        }
    }

    fn write(&self, done: &Done, writer: &mut ArchiveWriter) -> Result<(), ArchiveError> {
        for p in &done.programs {
            writer.add_program(p)?;
        }
        for session in &done.sessions {
            for p in session.referenced_programs() {
                if let Some(l) = self.programs.iter().find(|l| l.program.hash == p) {
                    writer.add_program(&l.program)?;
                }
            }
            writer.append(session)?;
        }
        Ok(())
    }

    fn sessions<'a>(&self, done: &'a Done) -> &'a [Session] {
        &done.sessions
    }

    fn count(&self, done: &Done, counts: &mut Counts) {
        for session in &done.sessions {
            for w in &session.warnings {
                let t = session
                    .transformations
                    .last()
                    .map(|t| t.name.clone())
                    .unwrap_or_else(|| w.relation.clone());
                *counts.warnings.entry((t, w.round)).or_default() += 1;
            }
            if let Some(d) = &session.divergence {
                *counts
                    .divergences
                    .entry(d.kind.name().to_string())
                    .or_default() += 1;
            }
        }
    }
}

/// Records a campaign through the runner. Blocking: call it off any async runtime's worker
/// threads (e.g. in `spawn_blocking`); every worker drives its engines on a runtime of its own.
pub fn run(c: Campaign) -> Result<Summary, CampaignError> {
    // The first engines' launch is the campaign's CPU too.
    let cpu_from = crate::cpu::spent_us();
    // Launch once up front: versions for the header, and the first worker reuses these engines.
    let first = Station::launch(&c.specs, &c.capture, c.prepared, c.wrap.as_ref())?;
    let descriptors: Vec<EngineDescriptor> = first
        .engines
        .iter()
        .map(|e| e.descriptor().clone())
        .collect();
    let mut config = c.config.clone();
    config.params.extend(c.policy.params());
    // The triage lockstep went on under, so that an analysis can tell what was gone past.
    if let Some(t) = &c.triage {
        config.params.extend(lockstep_params(t));
    }
    let header = ArchiveHeader::new(config, descriptors);
    let opts = runner::Options {
        out: c.out,
        resume: c.resume,
        writer: c.writer,
        jobs: c.jobs,
        progress: c.progress,
        shard: c.shard,
        cpu_from: Some(cpu_from),
    };
    let work = Debugging {
        specs: c.specs,
        programs: c.programs,
        policy: c.policy,
        triage: c.triage,
        capture: c.capture,
        session_timeout: c.session_timeout,
        prepared: c.prepared,
        workdir: c.workdir,
        strategy: c.config.strategy.clone(),
        first: Mutex::new(Some(first)),
        node: crate::debugger::engines::which("node").unwrap_or_else(|| "node".into()),
        wrap: c.wrap,
    };
    let mut summary = runner::run(&work, &header, c.tasks, &opts)?;
    summary.counts.strategy = work.strategy;
    Ok(summary)
}

/// The session of a task whose program may not run (never started on an engine).
fn rejected(task: &Task, loaded: &Loaded, reason: String) -> Session {
    Session {
        parent: task.parent,
        started_at_ms: now_ms(),
        notes: task.notes.clone(),
        ..Session::new(
            task.id,
            task.mode.clone(),
            task.seed,
            task.engines.iter().map(|&i| EngineRef(i as u16)).collect(),
            loaded.program.hash,
            SessionOutcome::Rejected { reason },
        )
    }
}

/// The header parameters that name the triage a campaign went on under: its path, digest and
/// text (`lockstep.triage*`).
pub fn lockstep_params(t: &morphtrace_judges::triage::Triage) -> Vec<(String, String)> {
    vec![
        (
            "lockstep.triage".into(),
            t.path
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        ),
        ("lockstep.triage.sha256".into(), t.digest()),
        ("lockstep.triage.rules".into(), t.rules.len().to_string()),
        (
            morphtrace_judges::triage::RECORDED_TEXT.into(),
            t.text.clone(),
        ),
    ]
}

/// Where two runs' divergences first differ: its position, and how it reads on each run
/// (`None`: no such divergence on that run). Alike: the same kind at the same action, the same
/// answers, gone past on both or on neither.
fn first_apart(a: &[Divergence], b: &[Divergence]) -> Option<(usize, String, String)> {
    let alike = |d: &Divergence, e: &Divergence| {
        e.kind == d.kind
            && e.action_index == d.action_index
            && answers_alike(&d.sides, &e.sides)
            && e.continued.is_some() == d.continued.is_some()
    };
    let i = (0..a.len().max(b.len())).find(|&i| match (a.get(i), b.get(i)) {
        (Some(d), Some(e)) => !alike(d, e),
        _ => true,
    })?;
    let say = |d: Option<&Divergence>, other: Option<&Divergence>| match d {
        None => "none".to_string(),
        Some(d) => {
            let mut s = format!(
                "{} at action {}: {}",
                d.kind.name(),
                d.action_index,
                d.detail
            );
            if let Some(o) = other.filter(|o| o.detail == d.detail) {
                if !answers_alike(&o.sides, &d.sides) {
                    s.push_str(&format!(
                        " (the answers differ in what the detail does not say: {})",
                        sides_apart(&d.sides, &o.sides)
                    ));
                } else if o.continued.is_some() != d.continued.is_some() {
                    let went = if d.continued.is_some() {
                        "gone past"
                    } else {
                        "stopped at"
                    };
                    s.push_str(&format!(" ({went})"));
                }
            }
            s
        }
    };
    Some((i, say(a.get(i), b.get(i)), say(b.get(i), a.get(i))))
}

/// Two runs' answers to one diverging action alike, but for functions' defining lines, which
/// the comparison counts only where both sides show one, and this check not at all (the detail,
/// compared besides, says any line the divergence is about). SpiderMonkey's debugger gives a
/// function's `location` only where it has the function's script at hand (`Debugger.Object`'s
/// `script`), which varies from run to run of one program (met in SunSpider's
/// date-format-tofte and string-tagcloud: the same function with and without its line), and
/// the comparison between engines leaves a line out unless both have one.
fn answers_alike(
    a: &[morphtrace_schema::DivergenceSide],
    b: &[morphtrace_schema::DivergenceSide],
) -> bool {
    if a == b {
        return true;
    }
    let lineless = |s: &[morphtrace_schema::DivergenceSide]| -> Vec<_> {
        s.iter()
            .map(|side| {
                let mut side = side.clone();
                if let Some(o) = &mut side.output {
                    o.map_function_lines(&|_| None);
                }
                side
            })
            .collect()
    };
    lineless(a) == lineless(b)
}

/// Where two runs' answers to one diverging action first differ, for a person to see why the
/// session was not repeatable: the engine and a few characters around the first difference of
/// each run's answer (as `Debug` prints it), this run's first.
fn sides_apart(
    a: &[morphtrace_schema::DivergenceSide],
    b: &[morphtrace_schema::DivergenceSide],
) -> String {
    let Some((x, y)) = a.iter().zip(b).find(|(x, y)| x != y) else {
        return format!("{} answers then, {} again", a.len(), b.len());
    };
    let (p, q) = (format!("{:?}", x.output), format!("{:?}", y.output));
    let at = p
        .char_indices()
        .zip(q.chars())
        .find(|((_, c), d)| c != d)
        .map_or(p.len().min(q.len()), |((i, _), _)| i);
    let around = |t: &str| {
        let mut from = at.saturating_sub(60).min(t.len());
        while !t.is_char_boundary(from) {
            from -= 1;
        }
        let mut to = (at + 60).min(t.len());
        while !t.is_char_boundary(to) {
            to += 1;
        }
        format!("…{}…", &t[from..to])
    };
    format!(
        "engine #{}'s, `{}` then, `{}` again",
        x.engine.0,
        around(&p),
        around(&q)
    )
}

/// The ground truth warnings of a truth session's one trace.
fn truth_warnings(
    traces: &[morphtrace_schema::Trace],
    cx: morphtrace_judges::truth::Context<'_>,
) -> Result<Vec<morphtrace_schema::Warning>, String> {
    match traces {
        [t] => morphtrace_judges::truth::judge(t, cx),
        _ => Err(format!(
            "a truth session has one trace, not {}",
            traces.len()
        )),
    }
}

/// The task's plan recorded once more on the same engines: a finding counts only if it comes
/// back.
async fn once_more(
    selected: &mut [&mut Box<dyn Engine>],
    refs: &[EngineRef],
    loaded: &Loaded,
    task: &Task,
    policy: &ComparisonPolicy,
    triage: Option<&morphtrace_judges::triage::Triage>,
    timeout: Duration,
) -> Recording {
    record_plan(selected, refs, loaded, &task.plan, policy, triage, timeout).await
}

/// Records one session of `plan` (`session::record`); a plan without a strategy of its own is
/// the session's harness error.
async fn record_plan(
    selected: &mut [&mut Box<dyn Engine>],
    refs: &[EngineRef],
    loaded: &Loaded,
    plan: &crate::task::Plan,
    policy: &ComparisonPolicy,
    triage: Option<&morphtrace_judges::triage::Triage>,
    timeout: Duration,
) -> Recording {
    match plan.strategy() {
        Ok(mut strategy) => {
            session::record(
                selected,
                refs,
                loaded,
                &mut *strategy,
                policy,
                triage,
                timeout,
            )
            .await
        }
        Err(e) => {
            let mut rec = Recording::new(refs);
            rec.outcome = Some(SessionOutcome::HarnessError {
                message: e.to_string(),
            });
            rec
        }
    }
}

/// A single-engine oracle's warnings, confirmed by a second recording of the same actions:
/// the warnings if the second gives the same (relations and messages), else the session's
/// rejection as nondeterministic (a note keeps the first warning).
fn confirmed(
    first: Vec<morphtrace_schema::Warning>,
    second: Result<Vec<morphtrace_schema::Warning>, String>,
    oracle: &str,
    notes: &mut Vec<(String, String)>,
) -> Result<Vec<morphtrace_schema::Warning>, SessionOutcome> {
    let said = |w: &[morphtrace_schema::Warning]| -> Vec<(String, String)> {
        w.iter()
            .map(|w| (w.relation.clone(), w.message.clone()))
            .collect()
    };
    let again = match second {
        Ok(v) if said(&v) == said(&first) => return Ok(first),
        Ok(v) => v.first().map_or("none".to_string(), |v| v.message.clone()),
        Err(e) => e,
    };
    let head = first.first().map_or(String::new(), |w| w.message.clone());
    notes.push((format!("unconfirmed {oracle} warning"), head.clone()));
    Err(SessionOutcome::Rejected {
        reason: format!(
            "nondeterministic: the same actions again gave other {oracle} warnings ({} then, \
             first {head:?}; again: {again})",
            first.len()
        ),
    })
}

/// The task's engines among the campaign's.
fn task_engines<'a>(
    engines: &'a mut [Box<dyn Engine>],
    task: &Task,
) -> Vec<&'a mut Box<dyn Engine>> {
    engines
        .iter_mut()
        .enumerate()
        .filter(|(i, _)| task.engines.contains(i))
        .map(|(_, e)| e)
        .collect()
}

/// The oracles that record two traces of fixed actions, one after the other, and judge them
/// against each other: the debugger against itself (`steps`), two builds (`optimization`).
#[derive(Clone, Copy)]
enum Pair {
    Steps,
    Optimization,
}

impl Pair {
    async fn traces(
        self,
        engines: &mut [&mut Box<dyn Engine>],
        refs: &[EngineRef],
        loaded: &Loaded,
        max_pauses: u32,
        policy: &ComparisonPolicy,
        timeout: Duration,
    ) -> (
        Vec<morphtrace_schema::Trace>,
        SessionOutcome,
        Vec<(String, String)>,
    ) {
        match self {
            Pair::Steps => {
                dbdb::steps::traces(engines, refs, loaded, max_pauses, policy, timeout).await
            }
            Pair::Optimization => {
                dbdb::optimization::traces(engines, refs, loaded, max_pauses, policy, timeout).await
            }
        }
    }

    /// The warnings, and the notes the judge adds (the optimization oracle's figures).
    async fn judge(
        self,
        engine: &mut Box<dyn Engine>,
        loaded: &Loaded,
        traces: &[morphtrace_schema::Trace],
    ) -> Result<(Vec<morphtrace_schema::Warning>, Vec<(String, String)>), String> {
        match self {
            Pair::Steps => Ok((
                dbdb::steps::judge(engine, loaded, traces).await?,
                Vec::new(),
            )),
            Pair::Optimization => {
                dbdb::optimization::judge(loaded, traces).map(|(w, c)| (w, c.notes()))
            }
        }
    }

    fn name(self) -> &'static str {
        match self {
            Pair::Steps => "steps",
            Pair::Optimization => "optimization",
        }
    }
}

/// A session of a [`Pair`] oracle: its two traces, judged; warnings are confirmed by a second
/// recording, as every oracle's are.
async fn record_pair(
    engines: &mut [Box<dyn Engine>],
    loaded: &Loaded,
    task: &Task,
    pair: Pair,
    max_pauses: u32,
    policy: &ComparisonPolicy,
    timeout: Duration,
) -> Session {
    let refs: Vec<EngineRef> = task.engines.iter().map(|&i| EngineRef(i as u16)).collect();
    let started_at_ms = now_ms();
    let t0 = Instant::now();
    let mut selected = task_engines(engines, task);
    let (mut traces, mut outcome, mut notes) = pair
        .traces(&mut selected, &refs, loaded, max_pauses, policy, timeout)
        .await;
    notes.splice(0..0, task.notes.iter().cloned());
    let mut warnings = Vec::new();
    if outcome.undecided().is_none() {
        match pair.judge(&mut *selected[0], loaded, &traces).await {
            Err(why) => outcome = SessionOutcome::Rejected { reason: why },
            Ok((w, figures)) if w.is_empty() => notes.extend(figures),
            Ok((w, _)) => {
                let (again, again_outcome, _) = pair
                    .traces(&mut selected, &refs, loaded, max_pauses, policy, timeout)
                    .await;
                let second = if again_outcome.undecided().is_some() {
                    Err(format!(
                        "the second recording ended {}",
                        again_outcome.name()
                    ))
                } else {
                    pair.judge(&mut *selected[0], loaded, &again).await
                };
                let figures = second.as_ref().map(|(_, f)| f.clone()).unwrap_or_default();
                match confirmed(w, second.map(|(w, _)| w), pair.name(), &mut notes) {
                    Ok(w) => {
                        warnings = w;
                        outcome = SessionOutcome::Violated;
                        notes.extend(figures);
                    }
                    Err(rejected) => {
                        outcome = rejected;
                        traces = again;
                    }
                }
            }
        }
    }
    Session {
        parent: task.parent,
        started_at_ms,
        warnings,
        duration_us: t0.elapsed().as_micros() as u64,
        traces,
        notes,
        ..Session::new(
            task.id,
            task.mode.clone(),
            task.seed,
            refs,
            loaded.program.hash,
            outcome,
        )
    }
}

/// Records one task; never fails: harness problems become the session's outcome.
async fn record(
    engines: &mut [Box<dyn Engine>],
    loaded: &Loaded,
    task: &Task,
    policy: &ComparisonPolicy,
    triage: Option<&morphtrace_judges::triage::Triage>,
    timeout: Duration,
) -> Session {
    match task.plan {
        crate::task::Plan::Steps { max_pauses } => {
            return record_pair(
                engines,
                loaded,
                task,
                Pair::Steps,
                max_pauses,
                policy,
                timeout,
            )
            .await
        }
        crate::task::Plan::Optimization { max_pauses } => {
            let pair = Pair::Optimization;
            return record_pair(engines, loaded, task, pair, max_pauses, policy, timeout).await;
        }
        _ => {}
    }
    let refs: Vec<EngineRef> = task.engines.iter().map(|&i| EngineRef(i as u16)).collect();
    let started_at_ms = now_ms();
    let t0 = Instant::now();
    let mut selected = task_engines(engines, task);
    let mut rec = record_plan(
        &mut selected,
        &refs,
        loaded,
        &task.plan,
        policy,
        triage,
        timeout,
    )
    .await;
    let mut outcome = rec.final_outcome();
    let mut notes = task.notes.clone();
    notes.extend(rec.notes.iter().cloned());
    // A divergence counts only if it is reproducible: the same plan again must diverge the same
    // way (same type, same action, same answers; every divergence gone past alike), or the
    // program or an engine is not deterministic and the comparison says nothing.
    if let Some(d) = &rec.divergence {
        let again = once_more(&mut selected, &refs, loaded, task, policy, triage, timeout).await;
        if let Some((i, first, second)) = first_apart(&rec.divergences, &again.divergences) {
            notes.push((
                "unconfirmed divergence".into(),
                format!(
                    "{} at action {}: {}",
                    d.kind.name(),
                    d.action_index,
                    d.detail
                ),
            ));
            outcome = SessionOutcome::Rejected {
                reason: format!(
                    "nondeterministic: the same actions again gave another divergence #{} ({} then, {} again): {second}, not {first}",
                    i + 1,
                    rec.divergences.len(),
                    again.divergences.len(),
                ),
            };
        }
    }
    // Ground truth: the trace against what the program recorded, confirmed by a second run
    // (a contradiction that does not come back says nothing about the debugger).
    let mut warnings = Vec::new();
    let mut traces = std::mem::take(&mut rec.traces);
    let cx = morphtrace_judges::truth::Context {
        program: Some(&loaded.program.text),
        // JavaScriptCore: proper tail calls in strict code.
        proper_tail_calls: selected
            .iter()
            .any(|e| e.descriptor().kind == morphtrace_schema::EngineKind::Bun),
    };
    if task.mode == morphtrace_schema::SessionMode::Truth && outcome.undecided().is_none() {
        match truth_warnings(&traces, cx) {
            Err(why) => outcome = SessionOutcome::Rejected { reason: why },
            Ok(w) if w.is_empty() => {}
            Ok(w) => {
                let again =
                    once_more(&mut selected, &refs, loaded, task, policy, triage, timeout).await;
                match confirmed(
                    w,
                    truth_warnings(&again.traces, cx),
                    "ground truth",
                    &mut notes,
                ) {
                    Ok(w) => {
                        warnings = w;
                        outcome = SessionOutcome::Violated;
                    }
                    Err(rejected) => {
                        outcome = rejected;
                        traces = again.traces;
                    }
                }
            }
        }
    }
    // The program with the debugger and without, in every session that only observed.
    if outcome.undecided().is_none() {
        let setting = dbdb::attached::Setting {
            refs: &refs,
            policy,
            timeout,
        };
        let found =
            dbdb::attached::judge(&mut selected, loaded, &traces, &setting, &mut notes).await;
        if !found.is_empty() && selected.len() == 1 {
            outcome = SessionOutcome::Violated;
        }
        warnings.extend(found);
    }
    Session {
        parent: task.parent,
        started_at_ms,
        warnings,
        duration_us: t0.elapsed().as_micros() as u64,
        divergence: rec
            .divergence
            .clone()
            .filter(|_| outcome == SessionOutcome::Diverged),
        // Every divergence, when the session went on past one.
        divergences: if outcome == SessionOutcome::Diverged && rec.continued() {
            rec.divergences
        } else {
            Vec::new()
        },
        traces,
        notes,
        ..Session::new(
            task.id,
            task.mode.clone(),
            task.seed,
            refs,
            loaded.program.hash,
            outcome,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::{Action, DivergenceKind};

    fn divergence(action_index: u32, detail: &str, continued: bool) -> Divergence {
        Divergence {
            kind: DivergenceKind::BreakpointLocation,
            action_index,
            action: Action::Start,
            // The answers as the detail says them (alike answers, alike divergences).
            sides: vec![morphtrace_schema::DivergenceSide {
                engine: morphtrace_schema::EngineRef(0),
                output: Some(morphtrace_schema::Output::Error {
                    message: detail.into(),
                }),
            }],
            detail: detail.into(),
            groups: Vec::new(),
            suspect: None,
            continued: continued.then(|| "excused".to_string()),
            program_differs: None,
            pairs: Vec::new(),
            facts: Vec::new(),
        }
    }

    /// A session rejected as nondeterministic says which divergence differed and how, not the
    /// first divergence's kind and action twice.
    #[test]
    fn the_first_divergence_two_runs_differ_in_is_named() {
        let a = [
            divergence(1, "x", true),
            divergence(5, "breakpoint at [3:1] vs []", false),
        ];
        assert_eq!(first_apart(&a, &a), None);
        let b = [
            divergence(1, "x", true),
            divergence(5, "breakpoint at [4:1] vs []", false),
        ];
        assert_eq!(
            first_apart(&a, &b),
            Some((
                1,
                "breakpoint-location at action 5: breakpoint at [3:1] vs []".into(),
                "breakpoint-location at action 5: breakpoint at [4:1] vs []".into()
            ))
        );
        let c = [divergence(1, "x", false)];
        let (i, first, second) = first_apart(&a, &c).unwrap();
        assert_eq!(i, 0);
        assert!(first.ends_with("x (gone past)"), "{first}");
        assert!(second.ends_with("x (stopped at)"), "{second}");
        assert_eq!(first_apart(&a[..1], &[]).unwrap().2, "none");
    }

    /// A function's defining line shown on one run and not the other (SpiderMonkey's grips) is
    /// no difference between runs, as it is none between engines; any other difference in the
    /// function still is.
    #[test]
    fn a_function_line_shown_on_one_run_only_keeps_a_session_repeatable() {
        use morphtrace_schema::{ObjectKind, Output, Value};
        let with = |line: Option<u32>, name: &str| {
            let mut d = divergence(3, "x", false);
            d.sides[0].output = Some(Output::Evaluated {
                value: Value::Object {
                    kind: ObjectKind::Function,
                    class: "Function".into(),
                    description: None,
                    entries: Some(Value::function_entries(Some(name.into()), line)),
                    truncated: false,
                },
                threw: false,
            });
            [d]
        };
        assert_eq!(first_apart(&with(Some(7), "f"), &with(None, "f")), None);
        assert_eq!(first_apart(&with(None, "f"), &with(Some(7), "f")), None);
        let (i, first, _) = first_apart(&with(Some(7), "f"), &with(None, "g")).unwrap();
        assert_eq!(i, 0);
        assert!(first.contains("String(\"f\")"), "{first}");
    }

    /// Alike details, answers apart: the rejection shows where the answers part, so that a
    /// session that is not repeatable can be explained without recording it again.
    #[test]
    fn answers_apart_under_one_detail_are_shown_where_they_part() {
        let a = [divergence(2, "x", false)];
        let mut b = a.clone();
        b[0].sides[0].output = Some(morphtrace_schema::Output::Error {
            message: "y".into(),
        });
        let (_, first, second) = first_apart(&a, &b).unwrap();
        assert_eq!(
            first,
            "breakpoint-location at action 2: x (the answers differ in what the detail does not \
             say: engine #0's, `…Some(Error { message: \"x\" })…` then, `…Some(Error { message: \"y\" })…` again)"
        );
        assert!(
            second.contains("`…Some(Error { message: \"y\" })…` then"),
            "{second}"
        );
    }
}
