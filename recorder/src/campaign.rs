//! Campaigns: programs × seeds × engines in parallel workers, one crash-safe archive, resumable.

use crate::corpus::Loaded;
use crate::debugger::DebuggerError;
use crate::debugger::{CaptureOptions, Engine};
use crate::engines::EngineSpec;
use crate::metamorphic::{self, ChainParams};
use crate::runner::{open_archive, Interrupt, OpenError};
use crate::strategy::{self, Plan, Recording};
pub use crate::tally::counts;
use crate::tally::Tally;
use morphtrace_schema::archive::WriterOptions;
use morphtrace_schema::dbdb::ComparisonPolicy;
use morphtrace_schema::header::now_ms;
use morphtrace_schema::ArchiveError;
use morphtrace_schema::{
    ArchiveHeader, CampaignConfig, EngineDescriptor, EngineRef, ParentRef, Program, Session,
    SessionId, SessionMode, SessionOutcome,
};
use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

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
}

/// One session to record.
#[derive(Debug, Clone)]
pub struct Task {
    pub id: SessionId,
    pub program: usize,
    pub seed: u64,
    /// Indices into the campaign's engines.
    pub engines: Vec<usize>,
    pub plan: Plan,
    pub mode: SessionMode,
    pub parent: Option<ParentRef>,
    pub notes: Vec<(String, String)>,
    /// A metamorphic chain (initial session and follow-ups) instead of one session; `id` is
    /// then the initial session's.
    pub chain: Option<ChainTask>,
}

/// What a metamorphic task needs besides the initial plan.
#[derive(Debug, Clone)]
pub struct ChainTask {
    pub key: String,
    pub params: ChainParams,
}

pub struct Campaign {
    pub specs: Vec<EngineSpec>,
    pub programs: Vec<Loaded>,
    pub tasks: Vec<Task>,
    pub config: CampaignConfig,
    pub policy: ComparisonPolicy,
    pub capture: CaptureOptions,
    pub jobs: usize,
    pub session_timeout: Duration,
    pub node_pool: usize,
    pub out: PathBuf,
    pub resume: bool,
    pub writer: WriterOptions,
    pub progress: bool,
    /// Where derived programs (metamorphic follow-ups) are written for the engines.
    pub workdir: PathBuf,
}

/// What a campaign did, for the summary.
#[derive(Debug, Default)]
pub struct Summary {
    /// The strategy's name (`random`, `differential`, `metamorphic`, `replay`).
    pub strategy: String,
    pub skipped: usize,
    pub tally: Tally,
    pub divergences: BTreeMap<String, usize>,
    pub elapsed: Duration,
    pub interrupted: bool,
    /// Metamorphic: warnings by last transformation and round.
    pub warnings: BTreeMap<(String, u32), usize>,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        // A random session is compared with nothing while recording: it is complete, not judged.
        let what = match self.strategy.as_str() {
            "random" | "replay" => "sessions complete",
            "metamorphic" => "test cases judged",
            _ => "sessions judged",
        };
        writeln!(
            f,
            "recorded {} sessions in {:.1} s{}: {}",
            self.tally.recorded,
            secs,
            resume_note(self.skipped, self.interrupted),
            self.tally.judged_line(what, self.elapsed)
        )?;
        writeln!(f, "outcomes: {}", counts(&self.tally.outcomes))?;
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

/// `, 3 already in the archive — interrupted`: what a summary's first line adds.
pub fn resume_note(skipped: usize, interrupted: bool) -> String {
    let mut s = String::new();
    if skipped > 0 {
        s.push_str(&format!(", {skipped} already in the archive"));
    }
    if interrupted {
        s.push_str(" — interrupted");
    }
    s
}

/// Tasks of a `random` (one engine per session) or `differential` (all engines in lockstep)
/// campaign: every program × seed (× engine for `random`).
pub fn generation_tasks(
    specs: &[EngineSpec],
    programs: &[Loaded],
    seeds: &[u64],
    differential: bool,
    params: &strategy::RandomParams,
) -> Vec<Task> {
    let (name, mode) = if differential {
        ("differential", SessionMode::Differential)
    } else {
        ("random", SessionMode::Random)
    };
    let sets: Vec<Vec<usize>> = if differential {
        vec![(0..specs.len()).collect()]
    } else {
        (0..specs.len()).map(|i| vec![i]).collect()
    };
    let mut tasks = Vec::new();
    for (pi, p) in programs.iter().enumerate() {
        for &seed in seeds {
            for set in &sets {
                let labels: Vec<String> = set.iter().map(|&i| specs[i].to_string()).collect();
                tasks.push(Task {
                    id: session_key(name, &labels, &p.program.hash.to_string(), seed),
                    program: pi,
                    seed,
                    engines: set.clone(),
                    plan: Plan::Random {
                        params: params.clone(),
                        seed,
                    },
                    mode: mode.clone(),
                    parent: None,
                    notes: vec![],
                    chain: None,
                });
            }
        }
    }
    tasks
}

/// The deterministic identity of a session (what a resumed campaign recognises).
pub fn session_key(strategy: &str, labels: &[String], program: &str, seed: u64) -> SessionId {
    SessionId::from_key(&format!("{strategy}|{}|{program}|{seed}", labels.join("+")))
}

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

struct Done {
    sessions: Vec<Session>,
    /// Programs the sessions derived (metamorphic follow-ups).
    programs: Vec<Program>,
}

/// Metamorphic tasks: for every program × seed × engine, one chain.
pub fn metamorphic_tasks(
    specs: &[EngineSpec],
    programs: &[Loaded],
    seeds: &[u64],
    random: &strategy::RandomParams,
    rounds: u32,
    transformations: &[&'static str],
) -> Vec<Task> {
    let mut tasks = Vec::new();
    for (pi, p) in programs.iter().enumerate() {
        for &seed in seeds {
            for (ei, spec) in specs.iter().enumerate() {
                let key = format!(
                    "metamorphic|{spec}|{}|{seed}|{rounds}|{}",
                    p.program.hash,
                    transformations.join(",")
                );
                let mut params = ChainParams::random(seed, rounds, random.clone());
                params.transformations = transformations.to_vec();
                tasks.push(Task {
                    id: metamorphic::session_id(&key, 0),
                    program: pi,
                    seed,
                    engines: vec![ei],
                    plan: params.initial.clone(),
                    mode: SessionMode::Metamorphic,
                    parent: None,
                    notes: vec![],
                    chain: Some(ChainTask { key, params }),
                });
            }
        }
    }
    tasks
}

pub async fn run(c: Campaign) -> Result<Summary, CampaignError> {
    let started = Instant::now();
    // Launch once up front: versions for the header, and worker 0 reuses these engines.
    let first = launch_all(&c.specs, &c.capture, c.node_pool).await?;
    let descriptors: Vec<EngineDescriptor> = first.iter().map(|e| e.descriptor().clone()).collect();
    let mut config = c.config.clone();
    config.params.extend(c.policy.params());
    let header = ArchiveHeader::new(config, descriptors.clone());
    let (mut writer, resumed) = open_archive(&c.out, c.resume, &header, c.writer)?;
    let done_ids = resumed.map(|r| r.sessions).unwrap_or_default();
    let total = c.tasks.len();
    let todo: VecDeque<Task> = c
        .tasks
        .into_iter()
        .filter(|t| !done_ids.contains(&t.id))
        .collect();
    let mut summary = Summary {
        strategy: c.config.strategy.clone(),
        skipped: total - todo.len(),
        ..Summary::default()
    };
    let bar = crate::progress_bar(todo.len(), c.progress);
    let queue = Arc::new(Mutex::new(todo));
    let stop = Interrupt::install();
    let programs = Arc::new(c.programs);
    let (tx, mut rx) = mpsc::channel::<Done>(64);
    let mut workers = Vec::new();
    let mut first = Some(first);
    for w in 0..c.jobs.max(1) {
        let engines = first.take();
        let specs = c.specs.clone();
        let capture = c.capture.clone();
        let pool = c.node_pool;
        let queue = queue.clone();
        let stop = stop.clone();
        let programs = programs.clone();
        let tx = tx.clone();
        let policy = c.policy.clone();
        let timeout = c.session_timeout;
        let workdir = c.workdir.clone();
        workers.push(tokio::spawn(async move {
            let mut engines = match engines {
                Some(e) => e,
                None => launch_all(&specs, &capture, pool).await?,
            };
            tracing::debug!("worker {w} ready");
            let mut coverage = None;
            let node = crate::engines::which("node").unwrap_or_else(|| "node".into());
            loop {
                if stop.requested() {
                    break;
                }
                let task = match queue.lock() {
                    Ok(mut q) => q.pop_front(),
                    Err(_) => None,
                };
                let Some(task) = task else { break };
                let loaded = &programs[task.program];
                let rejection = loaded.rejected.clone().or_else(|| {
                    task.chain
                        .as_ref()
                        .and_then(|_| metamorphic::rejection(&loaded.program))
                });
                let done = match (&task.chain, rejection) {
                    (_, Some(reason)) => Done {
                        sessions: vec![rejected(&task, loaded, reason)],
                        programs: Vec::new(),
                    },
                    (Some(chain), None) => {
                        let e = task.engines.first().copied().unwrap_or(0);
                        let mut ctx = metamorphic::Context {
                            engine: &mut engines[e],
                            engine_ref: EngineRef(e as u16),
                            policy: &policy,
                            workdir: &workdir,
                            coverage: &mut coverage,
                            node: node.clone(),
                            session_timeout: timeout,
                        };
                        let c = metamorphic::run_chain(
                            &mut ctx,
                            &chain.key,
                            loaded,
                            &chain.params,
                            &task.notes,
                        )
                        .await;
                        Done {
                            sessions: c.sessions,
                            programs: c.programs,
                        }
                    }
                    (None, None) => Done {
                        sessions: vec![record(&mut engines, loaded, &task, &policy, timeout).await],
                        programs: Vec::new(),
                    },
                };
                if tx.send(done).await.is_err() {
                    break;
                }
            }
            for e in engines.iter_mut() {
                e.shutdown().await;
            }
            Ok::<(), CampaignError>(())
        }));
    }
    drop(tx);
    while let Some(Done {
        sessions,
        programs: derived,
    }) = rx.recv().await
    {
        for p in &derived {
            writer.add_program(p)?;
        }
        for session in sessions {
            for p in session.referenced_programs() {
                if let Some(l) = programs.iter().find(|l| l.program.hash == p) {
                    writer.add_program(&l.program)?;
                }
            }
            writer.append(&session)?;
            summary.tally.add(&session);
            for w in &session.warnings {
                let t = session
                    .transformations
                    .last()
                    .map(|t| t.name.clone())
                    .unwrap_or_default();
                *summary.warnings.entry((t, w.round)).or_default() += 1;
            }
            if let Some(d) = &session.divergence {
                *summary
                    .divergences
                    .entry(d.kind.name().to_string())
                    .or_default() += 1;
            }
            bar.inc(1);
            let o: Vec<String> = summary
                .tally
                .outcomes
                .iter()
                .map(|(k, v)| format!("{k}:{v}"))
                .collect();
            bar.set_message(o.join(" "));
        }
    }
    bar.finish_and_clear();
    for w in workers {
        match w.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::error!("a worker stopped: {e}"),
            Err(e) => tracing::error!("a worker panicked: {e}"),
        }
    }
    writer.finish()?;
    summary.interrupted = stop.requested();
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// The session of a task whose program may not run (never started on an engine).
fn rejected(task: &Task, loaded: &Loaded, reason: String) -> Session {
    Session {
        id: task.id,
        mode: task.mode.clone(),
        seed: task.seed,
        engines: task.engines.iter().map(|&i| EngineRef(i as u16)).collect(),
        program: loaded.program.hash,
        parent: task.parent,
        transformations: Vec::new(),
        outcome: SessionOutcome::Rejected { reason },
        started_at_ms: now_ms(),
        duration_us: 0,
        traces: Vec::new(),
        divergence: None,
        warnings: Vec::new(),
        coverage: Vec::new(),
        notes: task.notes.clone(),
    }
}

/// Records one task; never fails: harness problems become the session's outcome.
async fn record(
    engines: &mut [Box<dyn Engine>],
    loaded: &Loaded,
    task: &Task,
    policy: &ComparisonPolicy,
    timeout: Duration,
) -> Session {
    let refs: Vec<EngineRef> = task.engines.iter().map(|&i| EngineRef(i as u16)).collect();
    let mut rec = Recording::new(&refs);
    let started_at_ms = now_ms();
    let t0 = Instant::now();
    let mut selected: Vec<&mut Box<dyn Engine>> = engines
        .iter_mut()
        .enumerate()
        .filter(|(i, _)| task.engines.contains(i))
        .map(|(_, e)| e)
        .collect();
    let result = tokio::time::timeout(
        timeout,
        strategy::run(
            &mut selected,
            &loaded.file,
            &loaded.program.hash,
            &task.plan,
            policy,
            &mut rec,
        ),
    )
    .await;
    let settled = rec.settle(result);
    rec.note_memory_kill(selected.iter().map(|e| e.pid()));
    let restart: Vec<usize> = settled.unwrap_or_else(|| (0..selected.len()).collect());
    for i in restart {
        if let Err(e) = selected[i].restart().await {
            tracing::error!("restarting {}: {e}", selected[i].descriptor().label());
        }
    }
    Session {
        id: task.id,
        mode: task.mode.clone(),
        seed: task.seed,
        engines: refs,
        program: loaded.program.hash,
        parent: task.parent,
        transformations: Vec::new(),
        outcome: rec.final_outcome(),
        started_at_ms,
        duration_us: t0.elapsed().as_micros() as u64,
        traces: rec.traces,
        divergence: rec.divergence,
        warnings: Vec::new(),
        coverage: Vec::new(),
        notes: task.notes.clone(),
    }
}
