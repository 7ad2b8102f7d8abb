//! The truth strategy's session (issue 68; the oracle is `morphtrace_judges::truth`): on one
//! engine, breakpoints on some of the lines where the program records its own state, each
//! removed after its `HITS` pauses, and nothing but resumes, so that the pauses are the records,
//! in order. A strategy of the session core with one debugger.

use super::rng_for;
use crate::corpus::Loaded;
use crate::debugger::engines::EngineSpec;
use crate::debugger::DebuggerError;
use crate::session::{Lockstep, Strategy};
use crate::task::{Plan, Task};
use morphtrace_judges::truth::{points, HITS};
use morphtrace_schema::{Action, Output, SessionMode, SessionOutcome};
use rand::seq::index::sample;
use rand::Rng;
use std::collections::BTreeMap;

/// Resumes a session may take beyond its points' pauses (for pauses where no point is).
const SLACK: usize = 20;

/// The tasks of a truth campaign: every program × seed × engine, one engine per session.
pub fn tasks(
    specs: &[EngineSpec],
    programs: &[Loaded],
    seeds: &[u64],
    max_points: u32,
) -> Vec<Task> {
    super::tasks_over(
        specs,
        programs,
        seeds,
        false,
        "truth",
        SessionMode::Truth,
        |seed| Plan::Truth { seed, max_points },
    )
}

/// Ground truth as a strategy of the session core, on one engine.
pub struct Truth {
    pub seed: u64,
    /// At most this many of the program's points are paused at.
    pub max_points: u32,
}

#[async_trait::async_trait]
impl Strategy for Truth {
    async fn drive(&mut self, ls: &mut Lockstep<'_>) -> Result<(), DebuggerError> {
        session(ls, self.seed, self.max_points).await
    }
}

async fn session(ls: &mut Lockstep<'_>, seed: u64, max_points: u32) -> Result<(), DebuggerError> {
    let (program, program_hash) = (ls.program(), ls.program_hash());
    let all = points(&program.text);
    if all.is_empty() {
        ls.end_as(SessionOutcome::Rejected {
            reason: format!(
                "the program records no ground truth (no line begins with a call of {}; \
                 `run --strategy truth` gives scripts, Python and C programs an \
                 instrumented copy, not modules)",
                morphtrace_judges::truth::FUNCTION
            ),
        });
        return Ok(());
    }
    let mut rng = rng_for(seed, program_hash);
    // About half of the points, a different half for each seed; at least one.
    let want = (0..all.len())
        .filter(|_| rng.random_bool(0.5))
        .count()
        .clamp(1, (max_points.max(1) as usize).min(all.len()));
    let mut chosen: Vec<u32> = sample(&mut rng, all.len(), want)
        .into_iter()
        .map(|i| all[i].1)
        .collect();
    chosen.sort_unstable();
    // The breakpoints by the lines the debugger placed them on (where they pause), which may
    // be another point's line or a line with none (a slide past code an engine does not compile).
    let mut ids: BTreeMap<u32, Vec<morphtrace_schema::BreakpointId>> = BTreeMap::new();
    for &line in &chosen {
        let outs = ls
            .apply(&Action::SetBreakpoint { line, column: None })
            .await?;
        if let Some(Output::BreakpointSet { id, actual, .. }) = outs.first() {
            let mut at: Vec<u32> = actual.iter().map(|l| l.line).collect();
            at.dedup();
            if at.is_empty() {
                at.push(line);
            }
            for l in at {
                ids.entry(l).or_default().push(*id);
            }
        }
    }
    ls.apply(&Action::Start).await?;
    let mut hits: BTreeMap<u32, u32> = BTreeMap::new();
    let mut removed = std::collections::BTreeSet::new();
    let budget = chosen.len() * HITS as usize + SLACK;
    for _ in 0..budget {
        if ls.all_finished() {
            ls.end_as(SessionOutcome::Finished);
            return Ok(());
        }
        // A line's breakpoints go once the program has recorded its point as often as it
        // records (each breakpoint once: one may have been placed on more than one line).
        if let Some(p) = ls.last_pause() {
            let line = p.location.line;
            if ids.contains_key(&line) {
                let n = hits.entry(line).or_default();
                *n += 1;
                if *n == HITS {
                    for id in ids.remove(&line).unwrap_or_default() {
                        if removed.insert(id) {
                            ls.apply(&Action::RemoveBreakpoint { id }).await?;
                        }
                    }
                }
            }
        }
        ls.apply(&Action::Resume).await?;
    }
    ls.end_as(if ls.all_finished() {
        SessionOutcome::Finished
    } else {
        SessionOutcome::ActionLimit
    });
    Ok(())
}
