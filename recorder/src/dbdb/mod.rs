//! DBDB (ASE 2022) and the session strategies it rests on (docs/design.md §6): random generation
//! (Algorithm 1, `random`), differential lockstep over N debuggers (the session core's, compared
//! after every action), and replay of recorded actions; the tasks of `random` and `differential`
//! campaigns. Ground truth (`truth`), the steps oracle (`steps`) and the program with and without
//! the debugger (`attached`) are the single-engine oracles over the same core.

pub mod attached;
pub mod optimization;
pub mod random;
pub mod replay;
pub mod steps;
pub mod truth;

use crate::corpus::Loaded;
use crate::debugger::engines::EngineSpec;
use crate::debugger::DebuggerError;
use crate::session::Strategy;
use crate::task::{session_key, Plan, RandomParams, Task};
use morphtrace_schema::{Output, ProgramOutcome, SessionMode, Trace};

pub use crate::task::rng_for;
pub(crate) use random::spellable;
pub use random::{assignment, conditional, expression, logpoint, other_literal, Random};

impl Plan {
    /// The strategy that records a session of this plan. A steps plan records two sessions, one
    /// after the other (`steps::traces`): it has no strategy of its own.
    pub fn strategy(&self) -> Result<Box<dyn Strategy + '_>, DebuggerError> {
        Ok(match self {
            Plan::Random { params, seed } => Box::new(Random {
                params,
                seed: *seed,
            }),
            Plan::Replay { actions } => Box::new(crate::session::Reissue { actions }),
            Plan::Truth { seed, max_points } => Box::new(truth::Truth {
                seed: *seed,
                max_points: *max_points,
            }),
            Plan::Steps { .. } => {
                return Err(DebuggerError::Protocol(
                    "a steps session records its two traces as replays (steps::traces)".into(),
                ))
            }
            Plan::Optimization { .. } => {
                return Err(DebuggerError::Protocol(
                    "an optimization session records its two traces as replays \
                     (optimization::traces)"
                        .into(),
                ))
            }
        })
    }
}

/// The program outcome a trace ended with, if it ended.
pub fn program_outcome(trace: &Trace) -> Option<&ProgramOutcome> {
    trace.outputs().find_map(|o| match o {
        Output::Finished { outcome } => Some(outcome),
        _ => None,
    })
}

/// Tasks of a `random` (one engine per session) or `differential` (all engines in lockstep)
/// campaign: every program × seed (× engine for `random`).
pub fn generation_tasks(
    specs: &[EngineSpec],
    programs: &[Loaded],
    seeds: &[u64],
    differential: bool,
    params: &RandomParams,
) -> Vec<Task> {
    let (name, mode) = if differential {
        ("differential", SessionMode::Differential)
    } else {
        ("random", SessionMode::Random)
    };
    tasks_over(specs, programs, seeds, differential, name, mode, |seed| {
        Plan::Random {
            params: params.clone(),
            seed,
        }
    })
}

/// Every program × seed, on all engines in lockstep (`together`) or on each engine alone, as
/// strategy `name` with the plan `plan` gives for a seed.
pub fn tasks_over(
    specs: &[EngineSpec],
    programs: &[Loaded],
    seeds: &[u64],
    together: bool,
    name: &str,
    mode: SessionMode,
    plan: impl Fn(u64) -> Plan,
) -> Vec<Task> {
    let sets: Vec<Vec<usize>> = if together {
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
                    plan: plan(seed),
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
