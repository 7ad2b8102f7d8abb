//! Re-judging recorded differential sessions offline with the relations in `schema`, under the
//! recorded comparison policy and under alternatives, without re-recording.
//!
//! A recording stops at its first divergence, so a laxer policy can only say that the recorded
//! prefix agrees: such sessions are *undecided* (what came after was never recorded). So are
//! sessions whose engine died, that timed out or hit a harness error (unless a stricter policy
//! finds a divergence in what was recorded), and traces that lack an answer. A stricter policy
//! can find an earlier divergence in any session.

use crate::dbdb::ast::Memo;
use crate::dbdb::classes::{self, DIVERGENCE_KEYS};
use crate::load::trigger_line;
use crate::render::{percent, Table};
use morphtrace_judges::dbdb::{judge_session, ComparisonPolicy, LockstepDecision};
use morphtrace_schema::{ArchiveReader, Decision as SessionDecision, Session};
use polars::prelude::*;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// A named variant of a policy.
pub struct PolicyVariant {
    pub name: String,
    pub policy: ComparisonPolicy,
}

/// The recorded policy and the alternatives the issue names: columns too, no variables, no
/// breakpoint outputs; plus no object shells and no call stacks.
pub fn variants(recorded: &ComparisonPolicy) -> Vec<PolicyVariant> {
    let v = |name: &str, f: &dyn Fn(&mut ComparisonPolicy)| {
        let mut p = recorded.clone();
        f(&mut p);
        PolicyVariant {
            name: name.into(),
            policy: p,
        }
    };
    vec![
        v("recorded", &|_| {}),
        v("compare columns", &|p| p.columns = true),
        v("ignore variables", &|p| p.variables = false),
        v("ignore breakpoint outputs", &|p| p.breakpoints = false),
        v("ignore object shells", &|p| p.object_shells = false),
        v("ignore call stacks", &|p| p.call_stack = false),
    ]
}

/// One session's verdict under one variant.
#[derive(Debug, Clone, PartialEq)]
pub enum VariantDecision {
    Diverged {
        class: [String; 3],
    },
    Agreed,
    /// Nothing diverged in what was recorded, but the recording did not reach the program's end
    /// or its action budget: it stopped at a divergence of another policy, the engine died, the
    /// session timed out, or a trace lacks an answer. The reason says which.
    Undecided {
        reason: String,
    },
}

/// Every differential session's recorded class and decisions, in archive order.
pub struct Rejudged {
    pub variants: Vec<String>,
    pub sessions: usize,
    pub recorded: Vec<Option<[String; 3]>>,
    pub decisions: Vec<Vec<VariantDecision>>,
    /// Sessions where re-judging under the recorded policy does not give the recorded verdict.
    pub inconsistent: Vec<String>,
}

fn class_of(
    s: &Session,
    memo: &Memo,
    reader: &ArchiveReader,
    action_index: u32,
    kind: &str,
    action: &str,
) -> [String; 3] {
    let line = s
        .traces
        .first()
        .and_then(|t| trigger_line(&t.into(), action_index));
    let node = match (line, reader.program(&s.program)) {
        (None, _) => crate::dbdb::ast::PROGRAM.to_string(),
        (Some(l), Some(p)) => memo.get(p).of(l).to_string(),
        (Some(_), None) => "Unknown".into(),
    };
    [kind.to_string(), action.to_string(), node]
}

pub fn rejudge(readers: &[(String, ArchiveReader)], extra: &[PolicyVariant]) -> Rejudged {
    let memo = Memo::default();
    let mut names: Vec<String> = Vec::new();
    let mut recorded_all = Vec::new();
    let mut decisions_all = Vec::new();
    let mut inconsistent = Vec::new();
    for (path, r) in readers {
        let recorded_policy = ComparisonPolicy::from_params(&r.header().campaign.params);
        let mut vs = variants(&recorded_policy);
        vs.extend(extra.iter().map(|v| PolicyVariant {
            name: v.name.clone(),
            policy: v.policy.clone(),
        }));
        if names.is_empty() {
            names = vs.iter().map(|v| v.name.clone()).collect();
        }
        type Row = (Option<[String; 3]>, Vec<VariantDecision>, Option<String>);
        let rows: Vec<Row> = r
            .par_sessions()
            .filter_map(|s| s.ok())
            .filter(|s| s.traces.len() >= 2)
            .map(|s| {
                let recorded = s.divergence.as_ref().map(|d| {
                    class_of(&s, &memo, r, d.action_index, d.kind.name(), d.action.name())
                });
                let decisions: Vec<VariantDecision> = vs
                    .iter()
                    .map(|v| match judge_session(&s.traces, &s.outcome, &v.policy) {
                        LockstepDecision::Diverged(j) => VariantDecision::Diverged {
                            class: class_of(
                                &s,
                                &memo,
                                r,
                                j.action_index,
                                j.kind.name(),
                                j.action.name(),
                            ),
                        },
                        LockstepDecision::Agreed => VariantDecision::Agreed,
                        LockstepDecision::Undecided { reason } => {
                            VariantDecision::Undecided { reason }
                        }
                    })
                    .collect();
                // The self-check compares whole decisions: the recorded class, or agreement for
                // a session recorded to its end, or undecided for one that never was.
                let consistent = match (&decisions[0], &recorded) {
                    (VariantDecision::Diverged { class }, Some(rec)) => class == rec,
                    (VariantDecision::Agreed, None) => {
                        s.outcome.decision() == SessionDecision::Agreed
                    }
                    (VariantDecision::Undecided { .. }, None) => !s.outcome.decision().is_judged(),
                    _ => false,
                };
                let bad = (!consistent).then(|| format!("{path}: session {}", s.id));
                (recorded, decisions, bad)
            })
            .collect();
        for (rec, v, bad) in rows {
            recorded_all.push(rec);
            decisions_all.push(v);
            inconsistent.extend(bad);
        }
    }
    Rejudged {
        variants: names,
        sessions: recorded_all.len(),
        recorded: recorded_all,
        decisions: decisions_all,
        inconsistent,
    }
}

fn classes_df(keys: &[[String; 3]]) -> PolarsResult<DataFrame> {
    let col = |i: usize| keys.iter().map(|k| k[i].clone()).collect::<Vec<_>>();
    df!(
        DIVERGENCE_KEYS[0] => col(0),
        DIVERGENCE_KEYS[1] => col(1),
        DIVERGENCE_KEYS[2] => col(2),
    )
}

/// Tables: verdict counts per policy, divergence types per policy, and classes that appear or
/// vanish under each alternative.
pub fn tables(r: &Rejudged, top: usize) -> PolarsResult<Vec<Table>> {
    let mut summary = Table::new(
        "relations",
        "Differential sessions re-judged under each comparison policy",
        &[
            "policy",
            "diverged",
            "of judged",
            "agreed",
            "undecided",
            "undecided by reason",
            "newly diverged",
            "no longer diverged",
            "classes",
        ],
    )
    .with_note(format!(
        "{} differential sessions. Undecided: nothing diverged under this policy in what was \
         recorded, but the recording did not reach the program's end or its action budget (it \
         stopped at the recorded divergence, the engine died, the session timed out, or a trace \
         lacks an answer), so what came after is unknown; undecided sessions are not counted in \
         `of judged`. Re-judging under the recorded policy gave the recorded verdict (class, \
         agreed or undecided) for all but {} sessions.",
        r.sessions,
        r.inconsistent.len()
    ));
    let mut kinds_by_policy: Vec<BTreeMap<String, usize>> = Vec::new();
    let mut changes = Vec::new();
    let base: Vec<[String; 3]> = r.recorded.iter().flatten().cloned().collect();
    let base_classes = count_classes(&base);
    for (vi, name) in r.variants.iter().enumerate() {
        let mut diverged = Vec::new();
        let (mut agreed, mut undecided, mut new, mut gone) = (0, 0, 0, 0);
        let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
        let mut kinds = BTreeMap::new();
        for (si, vs) in r.decisions.iter().enumerate() {
            match &vs[vi] {
                VariantDecision::Diverged { class } => {
                    if r.recorded[si].is_none() {
                        new += 1;
                    }
                    *kinds.entry(class[0].clone()).or_insert(0) += 1;
                    diverged.push(class.clone());
                }
                VariantDecision::Agreed => {
                    agreed += 1;
                    if r.recorded[si].is_some() {
                        gone += 1;
                    }
                }
                VariantDecision::Undecided { reason } => {
                    undecided += 1;
                    *reasons.entry(reason.as_str()).or_default() += 1;
                    if r.recorded[si].is_some() {
                        gone += 1;
                    }
                }
            }
        }
        let classes = classes::classes(&classes_df(&diverged)?, &DIVERGENCE_KEYS)?;
        summary.push(vec![
            name.clone(),
            diverged.len().to_string(),
            percent(diverged.len(), diverged.len() + agreed),
            agreed.to_string(),
            undecided.to_string(),
            reasons
                .iter()
                .map(|(k, n)| format!("{k}: {n}"))
                .collect::<Vec<_>>()
                .join(", "),
            new.to_string(),
            gone.to_string(),
            classes.height().to_string(),
        ]);
        kinds_by_policy.push(kinds);
        if vi > 0 {
            let now = count_classes(&diverged);
            for (k, n) in &now {
                let before = base_classes.get(k).copied().unwrap_or(0);
                if before != *n {
                    changes.push((name.clone(), k.clone(), before, *n));
                }
            }
            for (k, n) in &base_classes {
                if !now.contains_key(k) {
                    changes.push((name.clone(), k.clone(), *n, 0));
                }
            }
        }
    }
    let all_kinds: std::collections::BTreeSet<String> = kinds_by_policy
        .iter()
        .flat_map(|m| m.keys().cloned())
        .collect();
    let mut cols = vec!["policy".to_string()];
    cols.extend(all_kinds.iter().cloned());
    let mut by_kind = Table::new(
        "relations_by_type",
        "Divergences per type under each policy",
        &[],
    );
    by_kind.columns = cols;
    for (name, m) in r.variants.iter().zip(&kinds_by_policy) {
        let mut row = vec![name.clone()];
        row.extend(
            all_kinds
                .iter()
                .map(|k| m.get(k).copied().unwrap_or(0).to_string()),
        );
        by_kind.push(row);
    }
    // Largest changes first, per policy.
    changes.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(
                (b.3 as i64 - b.2 as i64)
                    .abs()
                    .cmp(&(a.3 as i64 - a.2 as i64).abs()),
            )
            .then(a.1.cmp(&b.1))
    });
    let mut per_policy: BTreeMap<String, usize> = BTreeMap::new();
    let mut t = Table::new(
        "relations_class_changes",
        &format!("Classes whose size changes under each policy (at most {top} per policy)"),
        &[
            "policy",
            "Diff. type",
            "Last action",
            "AST node",
            "recorded",
            "now",
        ],
    );
    for (p, k, before, now) in changes {
        let n = per_policy.entry(p.clone()).or_default();
        if *n >= top {
            continue;
        }
        *n += 1;
        let [a, b, c] = k;
        t.push(vec![p, a, b, c, before.to_string(), now.to_string()]);
    }
    Ok(vec![summary, by_kind, t])
}

fn count_classes(keys: &[[String; 3]]) -> BTreeMap<[String; 3], usize> {
    let mut m = BTreeMap::new();
    for k in keys {
        *m.entry(k.clone()).or_insert(0) += 1;
    }
    m
}
