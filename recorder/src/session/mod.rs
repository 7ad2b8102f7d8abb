//! One session core for every strategy (LibAFL's names: a strategy chooses, the core observes,
//! applies and records): the engines' debuggers opened on the program, a [`Strategy`] driving them
//! through the [`Lockstep`] core, everything observed kept in a [`Recording`] also when the
//! session is cut short. DBDB's random actions and replay, the metamorphic follow-ups, ground
//! truth and the steps oracle are strategies; the core compares when there are several engines.

pub mod computes;
pub mod continuation;
mod facts;
mod lockstep;
mod quirks;
mod replay;

pub use lockstep::Lockstep;
pub use replay::{difference, Reissue};

use crate::corpus::Loaded;
use crate::debugger::{Debugger, DebuggerError, Engine, ProgramFile};
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_judges::triage::Triage;
use morphtrace_schema::Language;
use morphtrace_schema::{
    Action, BreakpointId, Divergence, DivergenceSide, EngineRef, Event, EventKind, LogLine, Output,
    ProgramOutcome, SessionOutcome, Trace,
};
use std::time::Instant;

/// What a session produced so far: kept even when the session is cut short (timeout, crash).
#[derive(Debug)]
pub struct Recording {
    pub traces: Vec<Trace>,
    /// The first divergence (DBDB's).
    pub divergence: Option<Divergence>,
    /// Every divergence in order, the first included (lockstep continuation goes on past some).
    pub divergences: Vec<Divergence>,
    /// Facts about how the lockstep went (why it stopped where it could not go on).
    pub notes: Vec<(String, String)>,
    pub outcome: Option<SessionOutcome>,
    pub actions: u32,
    start: Instant,
}

impl Recording {
    /// The session's outcome; a harness error if nothing set one.
    pub fn final_outcome(&self) -> SessionOutcome {
        self.outcome
            .clone()
            .unwrap_or(SessionOutcome::HarnessError {
                message: "the session ended without an outcome".into(),
            })
    }

    /// Records how a session's run ended when it did not end by itself: an engine error or a
    /// session timeout becomes the outcome, and `None` says every engine must be restarted.
    pub fn settle<E: std::fmt::Display, T>(
        &mut self,
        result: Result<Result<T, E>, tokio::time::error::Elapsed>,
    ) -> Option<T> {
        match result {
            Ok(Ok(r)) => Some(r),
            Ok(Err(e)) => {
                self.outcome = Some(SessionOutcome::HarnessError {
                    message: e.to_string(),
                });
                None
            }
            Err(_) => {
                self.outcome = Some(SessionOutcome::Timeout);
                None
            }
        }
    }

    /// A session whose engine the memory guard killed ends with that reason, not with the
    /// protocol error the kill caused. `pids`: the engines' processes during the session.
    /// Returns the indices of the engines killed.
    pub fn note_memory_kill(&mut self, pids: impl IntoIterator<Item = Option<u32>>) -> Vec<usize> {
        let mut killed = Vec::new();
        for (i, pid) in pids.into_iter().enumerate() {
            let Some(pid) = pid else { continue };
            if let Some(k) = crate::memory::take_kill(pid) {
                self.outcome = Some(SessionOutcome::HarnessError {
                    message: k.reason(),
                });
                killed.push(i);
            }
        }
        killed
    }

    pub fn new(engines: &[EngineRef]) -> Recording {
        Recording {
            traces: engines
                .iter()
                .map(|&engine| Trace {
                    engine,
                    events: Vec::new(),
                    console: Vec::new(),
                    logs: Vec::new(),
                })
                .collect(),
            divergence: None,
            divergences: Vec::new(),
            notes: Vec::new(),
            outcome: None,
            actions: 0,
            start: Instant::now(),
        }
    }

    fn diverged(&mut self, d: Divergence) {
        if self.divergence.is_none() {
            self.divergence = Some(d.clone());
        }
        self.divergences.push(d);
    }

    /// Whether the session went on past a divergence (its divergences then go in the
    /// session's list, not only the first).
    pub fn continued(&self) -> bool {
        self.divergences.iter().any(|d| d.continued.is_some())
    }

    /// What engine `i`'s logpoints logged beyond what its trace holds, stamped with the action
    /// that was running (`logs`: everything they logged so far, in order).
    pub(crate) fn note_logs(&mut self, i: usize, logs: Vec<(BreakpointId, String)>, action: u32) {
        let t = &mut self.traces[i];
        let have = t.logs.len();
        t.logs.extend(
            logs.into_iter()
                .skip(have)
                .map(|(breakpoint, text)| LogLine {
                    action,
                    breakpoint,
                    text,
                }),
        );
    }

    pub(crate) fn push(&mut self, i: usize, kind: EventKind) {
        let at_us = self.start.elapsed().as_micros() as u64;
        self.traces[i].events.push(Event { at_us, kind });
    }
}

/// At most this many divergences are recorded at one action: the features of one pause, then
/// what the engines show where resyncs bring them back in step.
const MAX_DIVERGENCES_PER_ACTION: usize = 8;

/// How a session went on past a difference met while the engines were brought back in step
/// past the divergence before it: the steps went on to where they met.
pub const MET_IN_RESYNC: &str =
    "met while the engines were brought back in step past the divergence before; the steps went on";

/// How a session's actions are chosen: each strategy drives the session's debuggers through the
/// lockstep core until it is done, and sets the recording's outcome when the session ends by
/// itself (the program's end, the strategy's budget, a divergence it does not go on past).
#[async_trait::async_trait]
pub trait Strategy: Send {
    async fn drive(&mut self, ls: &mut Lockstep<'_>) -> Result<(), DebuggerError>;
}

/// Records one session of `strategy` on `engines` (in lockstep when several) within `timeout`,
/// never failing: an engine error, the timeout or the memory bound becomes the outcome, and the
/// engines the session left unusable are restarted. Without a `triage` the session stops at its
/// first divergence; with one it goes on past the divergences the triage excuses (and, with
/// three engines or more, past a lone suspect).
pub async fn record(
    engines: &mut [&mut Box<dyn Engine>],
    refs: &[EngineRef],
    loaded: &Loaded,
    strategy: &mut dyn Strategy,
    policy: &ComparisonPolicy,
    triage: Option<&Triage>,
    timeout: std::time::Duration,
) -> Recording {
    let mut rec = Recording::new(refs);
    let result = tokio::time::timeout(
        timeout,
        run(
            engines,
            &loaded.file,
            &loaded.program.hash,
            strategy,
            policy,
            triage,
            &mut rec,
        ),
    )
    .await;
    let settled = rec.settle(result);
    let killed = rec.note_memory_kill(engines.iter().map(|e| e.pid()));
    // Divergences recorded before the session was cut short were judged: the session keeps
    // them (diverged), and says how it ended.
    if !rec.divergences.is_empty() {
        if let Some(reason) = rec.outcome.as_ref().and_then(|o| o.undecided()) {
            let n = rec.divergences.len();
            rec.notes.push((
                "lockstep ended".into(),
                format!("{reason} after going on past {n} divergence(s)"),
            ));
            rec.outcome = Some(SessionOutcome::Diverged);
        }
    }
    let mut restart = settled.unwrap_or_else(|| (0..engines.len()).collect());
    for i in killed {
        if !restart.contains(&i) {
            restart.push(i);
        }
    }
    for i in restart {
        if let Err(e) = engines[i].restart().await {
            tracing::error!("restarting {}: {e}", engines[i].descriptor().label());
        }
    }
    rec
}
/// Runs one session of `program` on `engines` (1 = single debugger, 2+ = differential lockstep)
/// as `strategy` drives it, going on past the divergences `triage` excuses when given. Everything
/// observed is in `rec`, also when this returns an error or is cancelled. Returns the indices of
/// engines that must be restarted.
pub async fn run(
    engines: &mut [&mut Box<dyn Engine>],
    program: &ProgramFile,
    program_hash: &morphtrace_schema::ProgramHash,
    strategy: &mut dyn Strategy,
    policy: &ComparisonPolicy,
    triage: Option<&Triage>,
    rec: &mut Recording,
) -> Result<Vec<usize>, DebuggerError> {
    let labels: Vec<String> = engines.iter().map(|e| e.descriptor().label()).collect();
    // Runs of the program without pausing, where a rule excuses only what the program itself
    // computes differently (before any session opens: Firefox has one at a time).
    // (JavaScript: a Python program's run reads no globals and is never comparable.)
    let computed = if engines.len() > 1
        && program.language == Language::JavaScript
        && triage.is_some_and(|t| t.asks_what_programs_compute())
    {
        computes::on_each(engines, program).await
    } else {
        vec![None; engines.len()]
    };
    let mut opened = Vec::with_capacity(engines.len());
    for e in engines.iter_mut() {
        opened.push(e.open(program).await?);
    }
    if opened.iter().any(|o| o.is_err()) {
        // A program that does not compile is a program outcome, not a harness failure; if only
        // some engines refuse it, that is a termination divergence at `Start`.
        let mut outputs = Vec::new();
        for (i, o) in opened.into_iter().enumerate() {
            rec.push(i, EventKind::Action(Action::Start));
            let out = match o {
                Err(s) => Output::Finished {
                    outcome: ProgramOutcome::SyntaxError {
                        message: s.message,
                        location: s.location,
                    },
                },
                Ok(d) => {
                    d.close().await;
                    Output::Error {
                        message: "the program compiled here".into(),
                    }
                }
            };
            rec.push(i, EventKind::Output(out.clone()));
            outputs.push(out);
        }
        rec.actions = 1;
        rec.outcome = Some(SessionOutcome::Finished);
        if outputs.iter().any(|o| matches!(o, Output::Error { .. })) {
            rec.diverged(Divergence {
                kind: morphtrace_schema::DivergenceKind::Termination,
                action_index: 0,
                action: Action::Start,
                sides: rec
                    .traces
                    .iter()
                    .zip(outputs)
                    .map(|(t, o)| DivergenceSide {
                        engine: t.engine,
                        output: Some(o),
                    })
                    .collect(),
                detail: "the program compiles on one side only".into(),
                groups: Vec::new(),
                suspect: None,
                continued: None,
                program_differs: None,
                pairs: Vec::new(),
                facts: Vec::new(),
            });
            rec.outcome = Some(SessionOutcome::Diverged);
        }
        return Ok(Vec::new());
    }
    let debuggers: Vec<Box<dyn Debugger>> = opened.into_iter().filter_map(Result::ok).collect();
    let n = debuggers.len();
    // One engine has nothing to diverge from.
    let go_on = triage
        .filter(|_| n > 1)
        .map(|t| continuation::GoOn::new(t, labels, &program.text, program.language));
    let mut ls = Lockstep::new(
        debuggers,
        rec,
        policy,
        go_on,
        computed,
        program,
        program_hash,
    );
    let result = strategy.drive(&mut ls).await;
    if let Err(e) = &result {
        ls.rec.outcome = Some(SessionOutcome::HarnessError {
            message: e.to_string(),
        });
    }
    let consoles: Vec<Vec<String>> = ls.debuggers.iter().map(|d| d.console()).collect();
    // A last look under the memory bound while the programs still hold what they took (closing
    // a session may end its process): a program can pass the bound and end between two looks
    // of the watchdog.
    for pid in engines.iter().filter_map(|e| e.pid()) {
        crate::memory::look(pid);
    }
    let mut restart = Vec::new();
    for (i, d) in ls.debuggers.into_iter().enumerate() {
        if !d.close().await {
            restart.push(i);
        }
    }
    for (t, c) in ls.rec.traces.iter_mut().zip(consoles) {
        t.console = c;
    }
    result?;
    Ok(restart)
}
