//! Re-judging recorded metamorphic follow-ups offline: each follow-up against its parent with
//! the relation of its last transformation (`judges::metamorphic::judge`), from what the archive
//! holds (both traces, the transformation record with its mapping and expectation parameters).
//! Shows that the recorder's online verdicts are reproducible, and re-judges old archives after
//! a relation changes.

use crate::render::Table;
use morphtrace_judges::metamorphic::judge;
use morphtrace_schema::{ArchiveReader, Session, SessionId, SessionOutcome, Trace};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};

/// One follow-up's verdicts: as recorded and again.
#[derive(Debug, Clone)]
pub struct FollowUp {
    pub archive: String,
    pub session: SessionId,
    pub transformation: String,
    pub round: u32,
    /// The recorded warning's (relation, first differing event).
    pub recorded: Option<(String, Option<u32>)>,
    pub again: Option<(String, Option<u32>)>,
    pub message: Option<String>,
}

impl FollowUp {
    pub fn agrees(&self) -> bool {
        self.recorded == self.again
    }
}

/// Follow-ups re-judged, in archive order; follow-ups whose parent is not in the same archive
/// (a damaged archive) are counted apart.
#[derive(Debug, Default)]
pub struct Rejudged {
    pub follow_ups: Vec<FollowUp>,
    pub orphans: usize,
}

/// Whether the recorder judged a follow-up with this outcome (the others never ran to an end).
fn judged(o: &SessionOutcome) -> bool {
    matches!(
        o,
        SessionOutcome::Finished | SessionOutcome::ActionLimit | SessionOutcome::Violated
    )
}

pub fn rejudge(readers: &[(String, ArchiveReader)]) -> Rejudged {
    let mut out = Rejudged::default();
    for (path, r) in readers {
        let sessions: Vec<Session> = r
            .par_sessions()
            .filter_map(|s| s.ok())
            .filter(|s| s.mode == morphtrace_schema::SessionMode::Metamorphic)
            .collect();
        let traces: HashMap<SessionId, &Trace> = sessions
            .iter()
            .filter_map(|s| s.traces.first().map(|t| (s.id, t)))
            .collect();
        let rows: Vec<Option<FollowUp>> = sessions
            .par_iter()
            .filter(|s| judged(&s.outcome))
            .filter_map(|s| {
                let parent = s.parent?;
                let t = s.transformations.last()?;
                let follow = s.traces.first()?;
                let Some(p) = traces.get(&parent.session) else {
                    return Some(None);
                };
                let again = judge(p, follow, t);
                Some(Some(FollowUp {
                    archive: path.clone(),
                    session: s.id,
                    transformation: t.name.clone(),
                    round: parent.round,
                    recorded: s
                        .warnings
                        .first()
                        .map(|w| (w.relation.clone(), w.event_index)),
                    message: again.as_ref().map(|v| v.message.clone()),
                    again: again.map(|v| (v.relation.to_string(), v.event_index)),
                }))
            })
            .collect();
        for row in rows {
            match row {
                Some(f) => out.follow_ups.push(f),
                None => out.orphans += 1,
            }
        }
    }
    out
}

/// Per transformation: follow-ups judged, warnings recorded and found again, agreement.
pub fn table(r: &Rejudged) -> Table {
    let mut t = Table::new(
        "metamorphic_rejudged",
        "Metamorphic follow-ups re-judged offline against their parents",
        &[
            "transformation",
            "follow-ups",
            "warnings recorded",
            "warnings now",
            "same verdict",
        ],
    );
    let disagree = r.follow_ups.iter().filter(|f| !f.agrees()).count();
    t =
        t.with_note(format!(
        "{} follow-ups judged while recording (finished, action limit or violated); {} re-judged \
         differently now{}. Same verdict: no warning either time, or the same relation at the same \
         event.",
        r.follow_ups.len(),
        disagree,
        if r.orphans > 0 {
            format!("; {} follow-ups without their parent in the archive", r.orphans)
        } else {
            String::new()
        }
    ));
    let mut by: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for f in &r.follow_ups {
        let e = by.entry(f.transformation.as_str()).or_default();
        e[0] += 1;
        e[1] += usize::from(f.recorded.is_some());
        e[2] += usize::from(f.again.is_some());
        e[3] += usize::from(f.agrees());
    }
    let mut total = [0usize; 4];
    for (name, c) in &by {
        for i in 0..4 {
            total[i] += c[i];
        }
        t.push(row(name, c));
    }
    if by.len() > 1 {
        t.push(row("all", &total));
    }
    t
}

fn row(name: &str, c: &[usize; 4]) -> Vec<String> {
    vec![
        name.to_string(),
        c[0].to_string(),
        c[1].to_string(),
        c[2].to_string(),
        c[3].to_string(),
    ]
}
