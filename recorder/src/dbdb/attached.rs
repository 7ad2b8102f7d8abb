//! The program with the debugger attached and without, in every session that only observed
//! (`morphtrace_schema::attached`; issue 68): each trace that ran to its end is held against
//! the program's run without a pause on the trace's own engine (`computes`, JavaScript).

use super::computes;
use crate::corpus::Loaded;
use crate::debugger::Engine;
use crate::task::Plan;
use morphtrace_schema::attached::{self, Plain};
use morphtrace_schema::dbdb::ComparisonPolicy;
use morphtrace_schema::{EngineRef, Language, Trace, Warning};
use std::time::Duration;

pub use morphtrace_schema::attached::NOTE;

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

/// Holds each of `traces` (the i-th recorded on `engines[i]`) against the program's run without
/// a pause on that engine. The plain run is made (or taken from the cache) only for a trace
/// that ran to its end and only observed.
pub async fn check(
    engines: &mut [&mut Box<dyn Engine>],
    loaded: &Loaded,
    traces: &[Trace],
) -> Found {
    if loaded.file.language != Language::JavaScript {
        return Found::NotJudged(
            "the program's run without a debugger is known for JavaScript only".into(),
        );
    }
    let mut apart = Vec::new();
    let mut judged = 0;
    let mut why_not = None;
    for (i, (trace, engine)) in traces.iter().zip(engines.iter_mut()).enumerate() {
        // Whether the trace could be judged at all, before any plain run is made.
        let ready = attached::ended(trace)
            .ok_or_else(|| "the program did not run to its end under the debugger".to_string())
            .and_then(|_| match attached::first_change(trace) {
                Some((a, why)) => Err(format!("{why} ({})", a.name())),
                None => Ok(()),
            });
        if let Err(why) = ready {
            why_not.get_or_insert(why);
            continue;
        }
        let computed = computes::computed(engine, &loaded.file).await;
        let plain = computed.as_ref().map(|c| Plain {
            ended: &c.ended,
            printed: &c.printed,
        });
        match attached::judgeable(trace, plain) {
            Err(why) => {
                why_not.get_or_insert(why);
            }
            Ok(_) => {
                judged += 1;
                if let Some(how) = attached::difference(trace, plain) {
                    let on = if traces.len() > 1 {
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

/// The check on a recorded session ([`check`]), confirmed: a trace found apart is replayed
/// alone on its engine (same program, same actions) after the program is run again without a
/// debugger, and counts only if the difference comes back the same. Returns the warnings and
/// adds the session's note (and, for a difference that did not come back, an unconfirmed one).
#[allow(clippy::too_many_arguments)]
pub async fn judge(
    engines: &mut [&mut Box<dyn Engine>],
    refs: &[EngineRef],
    loaded: &Loaded,
    traces: &[Trace],
    policy: &ComparisonPolicy,
    timeout: Duration,
    notes: &mut Vec<(String, String)>,
) -> Vec<Warning> {
    let found = match check(engines, loaded, traces).await {
        Found::Apart(first) => {
            let mut again = Vec::new();
            for (i, _) in &first {
                let (e, r) = (&mut *engines[*i], refs[*i]);
                computes::forget(&e.descriptor().label(), &loaded.file.text);
                let plan = Plan::Replay {
                    actions: traces[*i].actions().cloned().collect(),
                };
                let rec = super::record(&mut [&mut *e], &[r], loaded, &plan, policy, timeout).await;
                let replayed = rec.traces.into_iter().next();
                let second = match replayed {
                    Some(t) => check(&mut [&mut *e], loaded, std::slice::from_ref(&t)).await,
                    None => Found::NotJudged("the replay recorded no trace".into()),
                };
                again.push(match second {
                    Found::Apart(v) => v.into_iter().next().map(|(_, m)| m),
                    _ => None,
                });
            }
            // The replay names no engine (one trace): compare without the prefix.
            let bare = |m: &str| {
                m.split_once(", with the debugger")
                    .map_or(m.to_string(), |(_, r)| format!("with the debugger{r}"))
            };
            let same = first
                .iter()
                .zip(&again)
                .all(|((_, m), a)| a.as_deref().is_some_and(|a| bare(a) == bare(m)));
            if same {
                Found::Apart(first)
            } else {
                notes.push((
                    "unconfirmed warning".into(),
                    format!(
                        "{}: {} (replayed alone: {})",
                        attached::RELATION,
                        first.first().map_or("", |(_, m)| m.as_str()),
                        again
                            .first()
                            .cloned()
                            .flatten()
                            .unwrap_or_else(|| "alike or not judged".into())
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
