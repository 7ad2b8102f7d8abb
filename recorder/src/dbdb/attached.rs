//! The program with the debugger attached and without, in every session that only observed
//! (`morphtrace_judges::attached`; issue 68): each trace is held against the program's run
//! without a pause on the trace's own engine (`computes`). A trace whose session
//! ended with the program still paused (DBDB's action limit) is replayed alone and run on to the
//! end, its breakpoints removed, so that its actions are judged too.

use crate::corpus::Loaded;
use crate::debugger::Engine;
use crate::session::computes;
use morphtrace_judges::attached::{self, Plain};
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_schema::{
    Action, BreakpointId, EngineRef, Language, Output, ProgramOutcome, Trace, Warning,
};
use std::time::Duration;

pub use morphtrace_judges::attached::NOTE;

/// What the check found in one session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// Every trace judged printed and ended as the program does without a debugger.
    Alike { traces: usize },
    /// The traces (by index) that printed or ended otherwise, each with how.
    Apart(Vec<(usize, String)>),
    /// No trace could be judged: why the first could not.
    NotJudged(String),
}

impl Found {
    /// The session's note value.
    pub fn note(&self) -> String {
        match self {
            Found::Alike { traces } => format!("alike ({traces} judged)"),
            Found::Apart(v) => format!("apart ({} traces)", v.len()),
            Found::NotJudged(why) => format!("not judged: {why}"),
        }
    }
}

/// Where the check runs: the engines' references, the comparison policy and the time a replay
/// may take.
pub struct Setting<'a> {
    pub refs: &'a [EngineRef],
    pub policy: &'a ComparisonPolicy,
    pub timeout: Duration,
}

/// How many resumes may follow a session's last action before its program is taken as not
/// ending (a `debugger` statement or an exception pause in a loop).
const RESUMES: usize = 50;

/// The trace's actions, then what runs its program on to the end without changing it: every
/// breakpoint still set removed, then resumes. `None` for a trace that ran to its end, or whose
/// program cannot go on (it did not start, timed out, crashed, or the engine's session failed).
pub fn to_the_end(trace: &Trace) -> Option<Vec<Action>> {
    // The program's last state: still paused (a session stopped by its action limit ends
    // with the program detached at a pause), not ended, timed out or crashed.
    let last = trace
        .outputs()
        .filter(|o| match o {
            Output::Paused(_) => true,
            Output::Finished { outcome } => *outcome != ProgramOutcome::Detached,
            _ => false,
        })
        .last();
    if !matches!(last, Some(Output::Paused(_))) {
        return None;
    }
    let mut live: Vec<BreakpointId> = trace
        .outputs()
        .filter_map(|o| match o {
            Output::BreakpointSet { id, .. } => Some(*id),
            _ => None,
        })
        .collect();
    for a in trace.actions() {
        if let Action::RemoveBreakpoint { id } = a {
            live.retain(|l| l != id);
        }
    }
    let mut actions: Vec<Action> = trace.actions().cloned().collect();
    actions.extend(live.into_iter().map(|id| Action::RemoveBreakpoint { id }));
    actions.extend(std::iter::repeat_n(Action::Resume, RESUMES));
    Some(actions)
}

/// One trace held against the program's run without a pause on its engine: `Ok(None)` alike,
/// `Ok(Some(how))` apart, `Err(why)` not judged. A trace whose program was still paused when
/// the session ended is replayed alone and run on to its end ([`to_the_end`]); with `replay`,
/// a trace that ran to its end is replayed too (a confirmation must not trust one run).
async fn one(
    engine: &mut Box<dyn Engine>,
    r: EngineRef,
    loaded: &Loaded,
    trace: &Trace,
    s: &Setting<'_>,
    replay: bool,
) -> Result<Option<String>, String> {
    if let Some((a, why)) = attached::first_change(trace) {
        return Err(format!("{why} ({})", a.name()));
    }
    let ended = attached::ended(trace).is_some();
    let runs_on = s.policy.attached_output == attached::Check::RunOn;
    let (actions, run_on) = match (ended, to_the_end(trace)) {
        (true, _) if !replay => (None, None),
        (true, _) => (Some(trace.actions().cloned().collect::<Vec<_>>()), None),
        (false, Some(a)) if runs_on => {
            let n = trace.actions().count();
            (Some(a), Some(n))
        }
        (false, Some(_)) => {
            return Err(
                "the session stopped with the program paused (--attached-output run-on runs it on)"
                    .into(),
            )
        }
        (false, None) => return Err("the program did not run to its end under the debugger".into()),
    };
    let replayed;
    let judged = match actions {
        None => trace,
        Some(actions) => {
            let t0 = std::time::Instant::now();
            let rec = crate::session::record(
                &mut [&mut *engine],
                &[r],
                loaded,
                &mut crate::session::Reissue { actions: &actions },
                s.policy,
                None,
                s.timeout,
            )
            .await;
            tracing::debug!(
                "output check: replayed {} in {:?}, {}",
                loaded.file.url,
                t0.elapsed(),
                rec.final_outcome().name()
            );
            replayed = rec.traces.into_iter().next();
            match &replayed {
                Some(t) if attached::ended(t).is_some() => t,
                _ => {
                    return Err(match run_on {
                        Some(_) => "the program did not run to its end when resumed after the \
                                    session"
                            .into(),
                        None => "the replay did not run to the program's end".into(),
                    })
                }
            }
        }
    };
    let computed = computes::computed(engine, &loaded.file).await;
    let plain = computed.as_ref().map(|c| Plain {
        ended: &c.ended,
        printed: &c.printed,
    });
    attached::judgeable(judged, plain)?;
    // What the session printed, its program's folder said as the plain run says its own.
    let placeless = Trace {
        console: computes::placeless(&judged.console, &loaded.file),
        ..judged.clone()
    };
    Ok(
        attached::difference(&placeless, plain).map(|how| match run_on {
            Some(n) => format!("run on to its end after the session's {n} actions, {how}"),
            None => how,
        }),
    )
}

/// Holds each of `traces` (the i-th recorded on `engines[i]`) against the program's run without
/// a pause on that engine ([`one`]). The plain run is made (or taken from the cache) only for a
/// trace that only observed and ran, or could be run on, to its end.
pub async fn check(
    engines: &mut [&mut Box<dyn Engine>],
    loaded: &Loaded,
    traces: &[Trace],
    s: &Setting<'_>,
) -> Found {
    if !matches!(
        loaded.file.language,
        Language::JavaScript | Language::Python
    ) {
        return Found::NotJudged("no run without a debugger is made for this language".into());
    }
    if s.policy.attached_output == attached::Check::Off {
        return Found::NotJudged("the check is off (--attached-output off)".into());
    }
    let mut apart = Vec::new();
    let mut judged = 0;
    let mut why_not = None;
    let many = traces.len() > 1;
    for (i, (trace, engine)) in traces.iter().zip(engines.iter_mut()).enumerate() {
        match one(engine, s.refs[i], loaded, trace, s, false).await {
            Err(why) => {
                why_not.get_or_insert(why);
            }
            Ok(how) => {
                judged += 1;
                if let Some(how) = how {
                    let on = if many {
                        format!("on {}, ", engine.descriptor().label())
                    } else {
                        String::new()
                    };
                    apart.push((i, format!("{on}{how}")));
                }
            }
        }
    }
    match (judged, apart.is_empty()) {
        (0, _) => Found::NotJudged(why_not.unwrap_or_else(|| "no trace".into())),
        (n, true) => Found::Alike { traces: n },
        (_, false) => Found::Apart(apart),
    }
}

/// The check on a recorded session ([`check`]), confirmed: each trace found apart is replayed
/// alone on its engine (same program, same actions, run on to the end as before) after the
/// program is run again without a debugger, and counts only if the difference comes back the
/// same. Returns the warnings and adds the session's note (and, for a difference that did not
/// come back, an unconfirmed one).
pub async fn judge(
    engines: &mut [&mut Box<dyn Engine>],
    loaded: &Loaded,
    traces: &[Trace],
    s: &Setting<'_>,
    notes: &mut Vec<(String, String)>,
) -> Vec<Warning> {
    let found = match check(engines, loaded, traces, s).await {
        Found::Apart(first) => {
            let mut again = Vec::new();
            for (i, _) in &first {
                let e = &mut *engines[*i];
                computes::forget(&e.descriptor().label(), &loaded.file);
                again.push(one(e, s.refs[*i], loaded, &traces[*i], s, true).await);
            }
            // The first names the engine when there are several.
            let same = first.iter().zip(&again).all(|((_, m), a)| match a {
                Ok(Some(a)) => m == a || m.ends_with(&format!(", {a}")),
                _ => false,
            });
            if same {
                Found::Apart(first)
            } else {
                let said = match again.first() {
                    Some(Ok(Some(a))) => a.clone(),
                    Some(Ok(None)) => "alike".into(),
                    Some(Err(why)) => format!("not judged: {why}"),
                    None => "nothing".into(),
                };
                notes.push((
                    "unconfirmed warning".into(),
                    format!(
                        "{}: {} (replayed alone: {said})",
                        attached::RELATION,
                        first.first().map_or("", |(_, m)| m.as_str()),
                    ),
                ));
                Found::NotJudged(
                    "nondeterministic: replayed, the session or the plain run said otherwise"
                        .into(),
                )
            }
        }
        other => other,
    };
    notes.push((NOTE.into(), found.note()));
    match found {
        Found::Apart(v) => warnings(&v),
        _ => Vec::new(),
    }
}

/// The warnings of a confirmed difference.
fn warnings(apart: &[(usize, String)]) -> Vec<Warning> {
    apart
        .iter()
        .map(|(_, message)| Warning {
            relation: attached::RELATION.to_string(),
            round: 0,
            against: None,
            event_index: None,
            message: message.clone(),
        })
        .collect()
}
