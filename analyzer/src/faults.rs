//! Planted faults against the triage (issue 66): campaigns recorded once on real engines and once
//! per fault planted in one engine's debugger (the recorder's `fault-matrix` example writes them,
//! each header naming `fault.campaign`, `fault.planted` and `fault.engine`). A divergence of a
//! faulty campaign is *caused* by its fault when the real campaign of the same `fault.campaign`
//! met no divergence of the same kind, detail and action in the session of the same program and
//! seed, at the first action where the faulty session met such a divergence (up to there both
//! sessions went the same way; after it, the fault may have led the engines to places where they
//! differ by design as anywhere): what a rule excuses among those is a fault the oracle was
//! talked out of.

use crate::columns::{strings, u32s};
use crate::load::Archives;
use crate::triage::{members, Family, Triage};
use polars::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// A divergence as two campaigns of the same programs and seeds are matched by: program, seed,
/// action, kind, detail.
type Met = (String, u64, u32, String, String);

/// One faulty campaign's account.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Planted {
    /// The pair and programs (`fault.campaign`).
    pub campaign: String,
    pub fault: String,
    /// The faulty engine's label.
    pub engine: String,
    /// Sessions of the campaign.
    pub sessions: usize,
    pub divergences: usize,
    /// Divergences the fault caused: in each session, those at the first action where it met
    /// one the real session did not (up to there the two sessions went the same way).
    pub caused: usize,
    /// Divergences the real session did not meet, after that first action: met on a way the
    /// fault changed (where engines differ by design as anywhere), so not the fault's to answer
    /// for.
    pub later: usize,
    /// Of those, excused by a rule (by design, representation, not comparable), by rule number.
    pub excused: BTreeMap<usize, usize>,
    /// The first excused one of each rule: `session ID, action N: detail`.
    pub excused_first: BTreeMap<usize, String>,
    /// Of those, judged a known engine bug, by rule number.
    pub engine_bug: BTreeMap<usize, usize>,
    /// Of those, judged by no rule.
    pub new: usize,
}

impl Planted {
    pub fn excused_total(&self) -> usize {
        self.excused.values().sum()
    }

    /// The fault showed: one divergence it caused is not excused.
    pub fn caught(&self) -> bool {
        self.engine_bug.values().sum::<usize>() + self.new > 0
    }
}

/// What the planted faults among `d`'s archives came to under `triage`: one account per faulty
/// campaign whose real campaign is among them too (in archive order), and the archive numbers of
/// every faulty campaign (whose members are not the engines' own).
pub fn planted(triage: &Triage, d: &Archives) -> PolarsResult<(Vec<Planted>, BTreeSet<u32>)> {
    let mut faulty: BTreeSet<u32> = BTreeSet::new();
    // Archive -> (campaign, fault or none, faulty engine's label).
    let mut about: BTreeMap<u32, (String, Option<String>, String)> = BTreeMap::new();
    for (i, s) in d.sources.iter().enumerate() {
        let h = &s.header.campaign;
        let (Some(campaign), Some(fault)) = (h.param("fault.campaign"), h.param("fault.planted"))
        else {
            continue;
        };
        let engine = h
            .param("fault.engine")
            .and_then(|e| e.parse::<usize>().ok())
            .and_then(|e| s.header.engines.get(e))
            .map(|e| e.label())
            .unwrap_or_default();
        let fault = (fault != "none").then(|| fault.to_string());
        if fault.is_some() {
            faulty.insert(i as u32);
        }
        about.insert(i as u32, (campaign.to_string(), fault, engine));
    }
    if about.is_empty() {
        return Ok((Vec::new(), faulty));
    }
    let s = &d.frames.sessions;
    let (sa, sp, sprog) = (
        u32s(s, "archive")?,
        u32s(s, "session")?,
        strings(s, "program")?,
    );
    let seeds = crate::columns::u64s(s, "seed")?;
    let mut session_of: BTreeMap<(u32, u32), (String, u64)> = BTreeMap::new();
    let mut sessions: BTreeMap<u32, usize> = BTreeMap::new();
    let ids = strings(s, "id")?;
    let mut session_id: BTreeMap<(u32, u32), String> = BTreeMap::new();
    for i in 0..s.height() {
        session_id.insert((sa[i], sp[i]), ids[i].clone());
        session_of.insert((sa[i], sp[i]), (sprog[i].clone(), seeds[i]));
        *sessions.entry(sa[i]).or_default() += 1;
    }
    let dv = &d.frames.divergences;
    let (da, ds, kind, detail, at) = (
        u32s(dv, "archive")?,
        u32s(dv, "session")?,
        strings(dv, "kind")?,
        strings(dv, "detail")?,
        u32s(dv, "action_index")?,
    );
    let id: Vec<String> = (0..dv.height())
        .map(|row| {
            session_id
                .get(&(da[row], ds[row]))
                .cloned()
                .unwrap_or_default()
        })
        .collect();
    let key = |row: usize| {
        let (program, seed) = session_of
            .get(&(da[row], ds[row]))
            .cloned()
            .unwrap_or_default();
        (
            program,
            seed,
            at[row],
            kind[row].clone(),
            detail[row].clone(),
        )
    };
    // What each real campaign met.
    let mut real: BTreeMap<&str, HashSet<Met>> = BTreeMap::new();
    let mut has_real: BTreeSet<&str> = BTreeSet::new();
    for (campaign, fault, _) in about.values() {
        if fault.is_none() {
            has_real.insert(campaign.as_str());
        }
    }
    for (row, a) in da.iter().enumerate() {
        if let Some((campaign, None, _)) = about.get(a) {
            real.entry(campaign.as_str()).or_default().insert(key(row));
        }
    }
    let ms = members(dv, Family::Divergence)?;
    let mut out: BTreeMap<u32, Planted> = BTreeMap::new();
    for (a, (campaign, fault, engine)) in &about {
        if let (Some(fault), true) = (fault, has_real.contains(campaign.as_str())) {
            out.insert(
                *a,
                Planted {
                    campaign: campaign.clone(),
                    fault: fault.clone(),
                    engine: engine.clone(),
                    sessions: sessions.get(a).copied().unwrap_or(0),
                    ..Planted::default()
                },
            );
        }
    }
    let met_before = |row: usize| {
        about
            .get(&da[row])
            .is_some_and(|(c, _, _)| real.get(c.as_str()).is_some_and(|r| r.contains(&key(row))))
    };
    // Each faulty session's first action where it met a divergence the real session did not
    // (up to there the two went the same way), and the first such divergence where the engines
    // stood apart (a pause elsewhere, an end): what lockstep compared after it, it compared
    // where it had brought the engines, on the way the fault changed.
    let index = u32s(dv, "index")?;
    let mut first_new: BTreeMap<(u32, u32), (u32, u32)> = BTreeMap::new();
    for row in 0..dv.height() {
        if out.contains_key(&da[row]) && !met_before(row) {
            let apart = matches!(kind[row].as_str(), "pause-location" | "termination");
            let f = first_new
                .entry((da[row], ds[row]))
                .or_insert((at[row], u32::MAX));
            if at[row] < f.0 {
                *f = (at[row], u32::MAX);
            }
            if at[row] == f.0 && apart {
                f.1 = f.1.min(index[row]);
            }
        }
    }
    for (row, m) in ms.iter().enumerate() {
        let Some(p) = out.get_mut(&da[row]) else {
            continue;
        };
        p.divergences += 1;
        if met_before(row) {
            continue;
        }
        if first_new
            .get(&(da[row], ds[row]))
            .is_none_or(|&(a, apart)| a != at[row] || index[row] > apart)
        {
            p.later += 1;
            continue;
        }
        p.caused += 1;
        match triage.first_judging(m, Family::Divergence) {
            Some(i) if triage.rules[i].excuses() => {
                *p.excused.entry(i).or_default() += 1;
                p.excused_first.entry(i).or_insert_with(|| {
                    format!("session {}, action {}: {}", id[row], at[row], detail[row])
                });
            }
            Some(i) => *p.engine_bug.entry(i).or_default() += 1,
            None => p.new += 1,
        }
    }
    Ok((out.into_values().collect(), faulty))
}

/// Per rule, the fault-caused divergences it excused.
pub fn excused_by_rule(triage: &Triage, planted: &[Planted]) -> Vec<usize> {
    let mut v = vec![0; triage.rules.len()];
    for p in planted {
        for (i, n) in &p.excused {
            v[*i] += n;
        }
    }
    v
}

/// The planted faults as a table: one row per faulty campaign.
pub fn table(planted: &[Planted]) -> PolarsResult<DataFrame> {
    let col = |f: &dyn Fn(&Planted) -> String| planted.iter().map(f).collect::<Vec<String>>();
    let num =
        |f: &dyn Fn(&Planted) -> usize| planted.iter().map(|p| f(p) as u32).collect::<Vec<u32>>();
    df!(
        "campaign" => col(&|p| p.campaign.clone()),
        "fault" => col(&|p| p.fault.clone()),
        "faulty_engine" => col(&|p| p.engine.clone()),
        "sessions" => num(&|p| p.sessions),
        "divergences" => num(&|p| p.divergences),
        "caused" => num(&|p| p.caused),
        "later" => num(&|p| p.later),
        "excused" => num(&|p| p.excused_total()),
        "excused_by" => col(&|p| p
            .excused
            .iter()
            .map(|(i, n)| format!(
                "rule {i}: {n} (first: {})",
                p.excused_first.get(i).map(String::as_str).unwrap_or("")
            ))
            .collect::<Vec<_>>()
            .join(", ")),
        "engine_bug" => col(&|p| p
            .engine_bug
            .iter()
            .map(|(i, n)| format!("rule {i}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")),
        "new" => num(&|p| p.new),
        "caught" => col(&|p| if p.caught() {
            "yes".to_string()
        } else if p.caused == 0 {
            "no divergence caused".to_string()
        } else {
            "no".to_string()
        }),
    )
}
