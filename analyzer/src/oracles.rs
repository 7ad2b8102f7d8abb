//! Yield by oracle: distinct classes per 1,000 judged sessions and per CPU-hour, so that
//! oracles run on the same programs (a two-family differential, ground truth, the debugger
//! against itself, the metamorphic relations, two tiers of one engine) can be compared.
//!
//! An oracle here is a campaign's strategy on its engines: archives of the same strategy and
//! engines (shards, resumed runs) count together. Classes are those of `classes`, formed within
//! each oracle's own members and judged by the same triage; classes judged ours (`harness`)
//! and those whose program computes otherwise on the engines (`not comparable`) are counted
//! apart and in no rate.

use crate::columns::{rows_where, strings, u32s};
use crate::load::Frames;
use crate::render::Table;
use crate::triage::{Family, JudgeFrames, Triage, Verdict};
use polars::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// What one oracle found, with the work it took.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Yield {
    pub strategy: String,
    pub engines: String,
    pub archives: usize,
    pub programs: usize,
    pub judged: usize,
    pub undecided: usize,
    /// Classes by verdict: `new`, `mixed`, or a triage verdict's name.
    pub classes: BTreeMap<String, usize>,
    /// CPU of the judged and undecided sessions alike, in hours; `None` when some session of the
    /// oracle has no CPU recorded (an archive older than `Session::cpu_us`).
    pub cpu_hours: Option<f64>,
    pub wall_hours: f64,
}

impl Yield {
    fn count(&self, verdict: &str) -> usize {
        self.classes.get(verdict).copied().unwrap_or(0)
    }

    /// Classes judged ours (morphtrace's false positives).
    pub fn ours(&self) -> usize {
        self.count(Verdict::Harness.name())
    }

    /// Every class but ours and the not comparable ones.
    pub fn counted(&self) -> usize {
        self.classes.values().sum::<usize>()
            - self.ours()
            - self.count(Verdict::NotComparable.name())
    }

    /// Classes that may be faults: new (not or not fully triaged), engine bugs, mixed.
    pub fn open_or_bug(&self) -> usize {
        self.count("new") + self.count("mixed") + self.count(Verdict::EngineBug.name())
    }

    /// Classes allowed as they are: by design, representation.
    pub fn allowed(&self) -> usize {
        self.count(Verdict::ByDesign.name()) + self.count(Verdict::Representation.name())
    }
}

/// Outcomes that judged nothing (the analyzer's frames hold outcomes by name).
fn undecided(outcome: &str) -> bool {
    matches!(outcome, "timeout" | "harness-error" | "rejected")
}

/// Every oracle of the frames, in the order its first archive was given.
pub fn yields(f: &Frames, triage: &Triage) -> PolarsResult<Vec<Yield>> {
    let a_strategy = strings(&f.archives, "strategy")?;
    let a_engines = strings(&f.archives, "engines")?;
    let a_number = u32s(&f.archives, "archive")?;
    let mut oracle_of: BTreeMap<u32, usize> = BTreeMap::new();
    let mut keys: Vec<(String, String)> = Vec::new();
    let mut out: Vec<Yield> = Vec::new();
    for i in 0..f.archives.height() {
        let key = (a_strategy[i].clone(), a_engines[i].clone());
        let k = match keys.iter().position(|x| *x == key) {
            Some(k) => k,
            None => {
                keys.push(key.clone());
                out.push(Yield {
                    strategy: key.0,
                    engines: key.1,
                    cpu_hours: Some(0.0),
                    ..Yield::default()
                });
                keys.len() - 1
            }
        };
        out[k].archives += 1;
        oracle_of.insert(a_number[i], k);
    }
    // Sessions: judged, undecided, programs, time.
    let s = &f.sessions;
    let archive = u32s(s, "archive")?;
    let outcome = strings(s, "outcome")?;
    let mode = strings(s, "mode")?;
    let parent = strings(s, "parent")?;
    let program = strings(s, "program")?;
    let wall = s.column("duration_ms")?.f64()?;
    let cpu = s.column("cpu_ms")?.f64()?;
    let mut programs: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); out.len()];
    for r in 0..s.height() {
        let Some(&k) = oracle_of.get(&archive[r]) else {
            continue;
        };
        let y = &mut out[k];
        // A metamorphic chain's initial session is no test case (its follow-ups are): its time
        // counts, its outcome does not.
        let initial = mode[r] == "metamorphic" && parent[r] == "-";
        if !initial && undecided(&outcome[r]) {
            y.undecided += 1;
        } else if !initial {
            y.judged += 1;
        }
        programs[k].insert(&program[r]);
        y.wall_hours += wall.get(r).unwrap_or(0.0) / 3_600_000.0;
        y.cpu_hours = match (y.cpu_hours, cpu.get(r)) {
            (Some(h), Some(ms)) => Some(h + ms / 3_600_000.0),
            _ => None,
        };
    }
    for (y, p) in out.iter_mut().zip(&programs) {
        y.programs = p.len();
    }
    // Classes, formed within each oracle.
    let cod_reports = crate::cod::reports(f)?;
    let families: [(&DataFrame, &[&str], Family); 3] = [
        (
            &f.divergences,
            &crate::dbdb::classes::DIVERGENCE_KEYS,
            Family::Divergence,
        ),
        (
            &f.warnings,
            &crate::dbdb::classes::WARNING_KEYS,
            Family::Warning,
        ),
        (&cod_reports, &crate::cod::KEYS, Family::Inconsistency),
    ];
    for (members, keys, family) in families {
        if members.height() == 0 {
            continue;
        }
        let member_archive = u32s(members, "archive")?;
        for (k, y) in out.iter_mut().enumerate() {
            let mine = rows_where(
                members,
                member_archive.iter().map(|a| oracle_of.get(a) == Some(&k)),
            )?;
            if mine.height() == 0 {
                continue;
            }
            let c = crate::dbdb::classes::classes(&mine, keys)?;
            let c = JudgeFrames::annotate(triage, &c, &mine, keys, family)?;
            for v in strings(&c, "verdict")? {
                *y.classes.entry(v).or_default() += 1;
            }
        }
    }
    Ok(out)
}

fn rate(n: usize, per: f64) -> String {
    if per <= 0.0 {
        "-".into()
    } else {
        format!("{:.1}", n as f64 / per)
    }
}

/// The yield table: one row per oracle.
pub fn table(ys: &[Yield]) -> Table {
    let mut t = Table::new(
        "oracle_yield",
        "Yield by oracle: distinct classes per 1,000 judged sessions and per CPU-hour",
        &[
            "oracle",
            "engines",
            "archives",
            "programs",
            "judged",
            "undecided",
            "classes",
            "new or bug",
            "allowed",
            "ours",
            "classes per 1,000",
            "new or bug per 1,000",
            "CPU hours",
            "wall hours",
            "classes per CPU-hour",
            "new or bug per CPU-hour",
        ],
    );
    t = t.with_note(
        "Classes: those of `classes`, formed within each oracle (same strategy and engines) and \
         judged by the same triage; ours (harness) and not comparable are counted apart and in \
         no rate. New or bug: new, mixed or engine bug; allowed: by design or representation. \
         Rates are per judged session (for metamorphic campaigns, per judged follow-up: an initial \
         session's time counts, its outcome does not). CPU: the recorder and every process it started, as the \
         archive recorded it per session (`-`: an archive older than that record); wall hours: the \
         sessions' own, summed."
            .to_string(),
    );
    for y in ys {
        let per_k = y.judged as f64 / 1000.0;
        t.push(vec![
            y.strategy.clone(),
            y.engines.clone(),
            y.archives.to_string(),
            y.programs.to_string(),
            y.judged.to_string(),
            y.undecided.to_string(),
            y.counted().to_string(),
            y.open_or_bug().to_string(),
            y.allowed().to_string(),
            y.ours().to_string(),
            rate(y.counted(), per_k),
            rate(y.open_or_bug(), per_k),
            y.cpu_hours
                .map(|h| format!("{h:.3}"))
                .unwrap_or_else(|| "-".into()),
            format!("{:.3}", y.wall_hours),
            y.cpu_hours
                .map(|h| rate(y.counted(), h))
                .unwrap_or_else(|| "-".into()),
            y.cpu_hours
                .map(|h| rate(y.open_or_bug(), h))
                .unwrap_or_else(|| "-".into()),
        ]);
    }
    t
}
