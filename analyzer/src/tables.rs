//! The debugger papers' evaluation tables, regenerated from archives: DBDB Figure 7 data,
//! Table 2, divergence types and runtimes; ISSTA 2019 Figure 15, warnings per transformation and
//! the share of warnings with an interactive transformation.

use crate::columns::{strings, u32s};
use crate::dbdb::classes::{self, DIVERGENCE_KEYS};
use crate::load::Frames;
use crate::render::{percent, Table};
use polars::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// DBDB's divergence types in the paper's order, then anything else alphabetically.
fn kind_rank(k: &str) -> (usize, String) {
    use morphtrace_schema::DivergenceKind;
    (
        DivergenceKind::DBDB
            .iter()
            .position(|x| x.name() == k)
            .unwrap_or(DivergenceKind::DBDB.len()),
        k.to_string(),
    )
}

/// Which tables `tables` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Paper {
    /// DBDB (differential testing of debuggers).
    Dbdb,
    /// ISSTA 2019 (interactive metamorphic testing of debuggers).
    Issta,
    /// Cod (ASE 2019) and C2V: coverage inconsistencies.
    Cod,
    All,
}

pub fn all(f: &Frames, paper: Paper, top: usize) -> PolarsResult<Vec<Table>> {
    let mut out = Vec::new();
    if matches!(paper, Paper::Dbdb | Paper::All) {
        // DBDB's tables count each session's first divergence, as DBDB's lockstep stopped there.
        let first = crate::load::first_divergences(&f.divergences)?;
        out.push(outcomes(&f.sessions)?);
        out.push(figure7(&f.sessions)?);
        out.push(table2(&first, top)?);
        out.push(divergence_types(&f.sessions, &first)?);
        if let Some(t) = classes_by_suspect(&first, top)? {
            out.push(t);
        }
        if let Some(t) = by_suspect(&first)? {
            out.push(t);
        }
        out.push(runtime(&f.sessions)?);
    }
    if matches!(paper, Paper::Issta | Paper::All) {
        out.push(figure15(&f.warnings)?);
        out.push(per_transformation(&f.warnings)?);
        out.push(follow_ups(&f.sessions)?);
        out.push(interactive_share(&f.warnings)?);
    }
    if paper == Paper::Cod || (paper == Paper::All && f.inconsistencies.height() > 0) {
        out.extend(crate::cod::tables(f, top)?);
    }
    Ok(out)
}

/// Sessions by mode and outcome.
pub fn outcomes(sessions: &DataFrame) -> PolarsResult<Table> {
    let mode = strings(sessions, "mode")?;
    let outcome = strings(sessions, "outcome")?;
    let mut counts: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (m, o) in mode.into_iter().zip(outcome) {
        *counts.entry((m, o)).or_default() += 1;
    }
    let total = sessions.height();
    let mut t = Table::new(
        "outcomes",
        "Sessions by mode and outcome",
        &["mode", "outcome", "sessions", "in %"],
    );
    for ((m, o), n) in counts {
        t.push(vec![m, o, n.to_string(), percent(n, total)]);
    }
    Ok(t)
}

/// DBDB Figure 7: test runs completed (cumulatively) after at most x execution actions (start,
/// resume, steps), by result: program finished, or the divergence type that ended the run.
pub fn figure7(sessions: &DataFrame) -> PolarsResult<Table> {
    let outcome = strings(sessions, "outcome")?;
    let divergence = strings(sessions, "divergence")?;
    let x = u32s(sessions, "control_actions")?;
    let runs = sessions.height();
    let mut completed: Vec<(u32, String)> = Vec::new();
    for i in 0..runs {
        match outcome[i].as_str() {
            "finished" => completed.push((x[i], "program finished".into())),
            "diverged" => completed.push((x[i], divergence[i].clone())),
            _ => {}
        }
    }
    let mut cats: Vec<String> = completed
        .iter()
        .map(|(_, c)| c.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    cats.sort_by_key(|c| {
        if c == "program finished" {
            (0, String::new())
        } else {
            let (r, s) = kind_rank(c);
            (r + 1, s)
        }
    });
    let max_x = completed.iter().map(|(x, _)| *x).max().unwrap_or(0);
    let mut cols = vec!["execution actions ≤ x"];
    cols.extend(cats.iter().map(String::as_str));
    cols.extend(["completed", "of all runs"]);
    let mut t = Table::new(
        "figure7",
        "DBDB Figure 7: completed runs by number of execution actions and result (cumulative)",
        &cols,
    )
    .with_note(format!(
        "{runs} runs; x counts start, resume and step actions (breakpoint actions before start are x = 0). \
         Runs stopped by the action limit, a timeout or a harness error never complete."
    ));
    for xi in 0..=max_x {
        let mut row = vec![xi.to_string()];
        let mut sum = 0;
        for c in &cats {
            let n = completed
                .iter()
                .filter(|(x, cat)| *x <= xi && cat == c)
                .count();
            sum += n;
            row.push(n.to_string());
        }
        row.push(sum.to_string());
        row.push(percent(sum, runs));
        t.push(row);
    }
    Ok(t)
}

/// DBDB Table 2: the top equivalence classes of diverging behaviour.
pub fn table2(divergences: &DataFrame, top: usize) -> PolarsResult<Table> {
    let c = classes::classes(divergences, &DIVERGENCE_KEYS)?;
    let total_classes = c.height();
    let c = c.head(Some(top));
    let kind = strings(&c, "kind")?;
    let last = strings(&c, "last_action")?;
    let node = strings(&c, "ast_node")?;
    let size = u32s(&c, "size")?;
    // Three engines or more: each class's members by suspect engine (DBDB had two engines and
    // no such column).
    let suspects = suspects_by_class(divergences)?;
    let mut columns = vec!["Diff. type", "Last action", "AST node", "Size", "in %"];
    if suspects.is_some() {
        columns.push("Suspect");
    }
    let mut t = Table::new(
        "table2",
        &format!(
            "DBDB Table 2: the top {} equivalence classes of diverging behavior",
            c.height()
        ),
        &columns,
    )
    .with_note(format!(
        "{} divergences in {total_classes} classes.{}",
        divergences.height(),
        if suspects.is_some() {
            " Suspect: the engine that disagreed when all the others agreed, per member \
             (`none`: no single odd one out)."
        } else {
            ""
        }
    ));
    for i in 0..c.height() {
        let mut row = vec![
            kind[i].clone(),
            last[i].clone(),
            node[i].clone(),
            size[i].to_string(),
            percent(size[i] as usize, divergences.height()),
        ];
        if let Some(s) = &suspects {
            let key = (kind[i].clone(), last[i].clone(), node[i].clone());
            let counts = s.get(&key).cloned().unwrap_or_default();
            let mut v: Vec<(String, usize)> = counts.into_iter().collect();
            v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            row.push(
                v.iter()
                    .map(|(e, n)| format!("{e} {n}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
        }
        t.push(row);
    }
    Ok(t)
}

type ClassKey = (String, String, String);

/// Each class's members counted by suspect (`none` without one); `None` when no divergence
/// had three engines or more.
fn suspects_by_class(
    divergences: &DataFrame,
) -> PolarsResult<Option<BTreeMap<ClassKey, BTreeMap<String, usize>>>> {
    let agreement = divergences.column("agreement")?;
    if agreement.null_count() == divergences.height() {
        return Ok(None);
    }
    let (kind, last, node, suspect) = (
        strings(divergences, "kind")?,
        strings(divergences, "last_action")?,
        strings(divergences, "ast_node")?,
        strings(divergences, "suspect")?,
    );
    let mut out: BTreeMap<ClassKey, BTreeMap<String, usize>> = BTreeMap::new();
    for i in 0..divergences.height() {
        let s = if suspect[i] == "-" {
            "none".to_string()
        } else {
            suspect[i].clone()
        };
        *out.entry((kind[i].clone(), last[i].clone(), node[i].clone()))
            .or_default()
            .entry(s)
            .or_default() += 1;
    }
    Ok(Some(out))
}

/// Three engines or more: divergences by suspect engine and type (`none`: no single engine
/// stood alone). `None` for campaigns of two engines.
pub fn by_suspect(divergences: &DataFrame) -> PolarsResult<Option<Table>> {
    let agreement = divergences.column("agreement")?;
    if agreement.null_count() == divergences.height() {
        return Ok(None);
    }
    let (kind, suspect) = (
        strings(divergences, "kind")?,
        strings(divergences, "suspect")?,
    );
    let mut counts: BTreeMap<(String, (usize, String)), usize> = BTreeMap::new();
    for i in 0..divergences.height() {
        let s = if suspect[i] == "-" {
            "none".to_string()
        } else {
            suspect[i].clone()
        };
        *counts.entry((s, kind_rank(&kind[i]))).or_default() += 1;
    }
    let mut t = Table::new(
        "by_suspect",
        "Divergences by suspect engine and type",
        &["suspect", "type", "divergences", "of divergences"],
    )
    .with_note(
        "The suspect is the one engine that disagreed when all the others agreed; `none`: the \
         engines split otherwise (no majority against a single engine).",
    );
    for ((s, (_, k)), n) in counts {
        t.push(vec![s, k, n.to_string(), percent(n, divergences.height())]);
    }
    Ok(Some(t))
}

/// Three engines or more: the DBDB classes grouped by suspect engine, each engine's classes
/// largest first (`none`: no single engine stood alone). `None` for campaigns of two engines.
pub fn classes_by_suspect(divergences: &DataFrame, top: usize) -> PolarsResult<Option<Table>> {
    let agreement = divergences.column("agreement")?;
    if agreement.null_count() == divergences.height() {
        return Ok(None);
    }
    let mut keys = vec!["suspect"];
    keys.extend(classes::DIVERGENCE_KEYS);
    let c = classes::classes(divergences, &keys)?;
    let (suspect, kind, last, node, size) = (
        strings(&c, "suspect")?,
        strings(&c, "kind")?,
        strings(&c, "last_action")?,
        strings(&c, "ast_node")?,
        u32s(&c, "size")?,
    );
    let name = |s: &str| {
        if s == "-" {
            "none".to_string()
        } else {
            s.to_string()
        }
    };
    let mut per: BTreeMap<String, usize> = BTreeMap::new();
    for (s, n) in suspect.iter().zip(&size) {
        *per.entry(name(s)).or_default() += *n as usize;
    }
    // Engines with most divergences first, `none` last; within one, classes largest first.
    let mut order: Vec<usize> = (0..c.height()).collect();
    order.sort_by(|&a, &b| {
        let (sa, sb) = (name(&suspect[a]), name(&suspect[b]));
        (
            sa == "none",
            std::cmp::Reverse(per[&sa]),
            sa,
            std::cmp::Reverse(size[a]),
        )
            .cmp(&(
                sb == "none",
                std::cmp::Reverse(per[&sb]),
                sb,
                std::cmp::Reverse(size[b]),
            ))
            .then(a.cmp(&b))
    });
    let mut t = Table::new(
        "classes_by_suspect",
        "Divergence classes by suspect engine",
        &[
            "Suspect",
            "Diff. type",
            "Last action",
            "AST node",
            "Size",
            "of the suspect's",
        ],
    )
    .with_note(
        "Each engine's classes are the divergences where it stood alone against all the other \
         engines (`none`: the engines split otherwise).",
    );
    let mut shown: BTreeMap<String, usize> = BTreeMap::new();
    for i in order {
        let s = name(&suspect[i]);
        let k = shown.entry(s.clone()).or_default();
        *k += 1;
        if top > 0 && *k > top {
            continue;
        }
        t.push(vec![
            s.clone(),
            kind[i].clone(),
            last[i].clone(),
            node[i].clone(),
            size[i].to_string(),
            percent(size[i] as usize, per[&s]),
        ]);
    }
    Ok(Some(t))
}

/// Counts and shares per divergence type (of divergences and of all runs).
pub fn divergence_types(sessions: &DataFrame, divergences: &DataFrame) -> PolarsResult<Table> {
    let kinds = strings(divergences, "kind")?;
    let mut counts: BTreeMap<(usize, String), usize> = BTreeMap::new();
    for k in &kinds {
        *counts.entry(kind_rank(k)).or_default() += 1;
    }
    let mut t = Table::new(
        "divergence_types",
        "Divergences per type",
        &["type", "divergences", "of divergences", "of runs"],
    );
    for ((_, k), n) in counts {
        t.push(vec![
            k,
            n.to_string(),
            percent(n, kinds.len()),
            percent(n, sessions.height()),
        ]);
    }
    Ok(t)
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Runtime per run (DBDB Figure 8's data): per program and over all runs, in milliseconds.
pub fn runtime(sessions: &DataFrame) -> PolarsResult<Table> {
    let program = strings(sessions, "program_name")?;
    let ms: Vec<f64> = sessions
        .column("duration_ms")?
        .f64()?
        .iter()
        .map(|v| v.unwrap_or(0.0))
        .collect();
    let mut by: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for (p, d) in program.into_iter().zip(&ms) {
        by.entry(p).or_default().push(*d);
    }
    let mut t = Table::new(
        "runtime",
        "Runtime per run (ms)",
        &["program", "runs", "mean", "median", "p90", "max"],
    );
    let mut row = |name: String, v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
        t.push(vec![
            name,
            v.len().to_string(),
            format!("{mean:.1}"),
            format!("{:.1}", quantile(v, 0.5)),
            format!("{:.1}", quantile(v, 0.9)),
            format!("{:.1}", v.last().copied().unwrap_or(0.0)),
        ]);
    };
    for (p, mut v) in by {
        row(if p.is_empty() { "(unnamed)".into() } else { p }, &mut v);
    }
    let mut all = ms.clone();
    row("all runs".into(), &mut all);
    Ok(t)
}

/// ISSTA 2019 Figure 15: cumulative warnings after N iteratively applied transformations.
pub fn figure15(warnings: &DataFrame) -> PolarsResult<Table> {
    let rounds = u32s(warnings, "round")?;
    let max = rounds.iter().copied().max().unwrap_or(0);
    let mut t = Table::new(
        "figure15",
        "ISSTA 2019 Figure 15: cumulative warnings per transformation round",
        &["round", "warnings", "cumulative"],
    );
    let mut cum = 0;
    for r in 0..=max {
        let n = rounds.iter().filter(|x| **x == r).count();
        if r == 0 && n == 0 {
            continue; // round 0 only holds non-iterative relations
        }
        cum += n;
        t.push(vec![r.to_string(), n.to_string(), cum.to_string()]);
    }
    Ok(t)
}

/// Warnings per (last) transformation of the chain.
pub fn per_transformation(warnings: &DataFrame) -> PolarsResult<Table> {
    let c = classes::classes(warnings, &["transformation"])?;
    let name = strings(&c, "transformation")?;
    let size = u32s(&c, "size")?;
    let mut t = Table::new(
        "warnings_per_transformation",
        "Warnings per transformation",
        &["transformation", "warnings", "in %"],
    );
    for i in 0..c.height() {
        t.push(vec![
            name[i].clone(),
            size[i].to_string(),
            percent(size[i] as usize, warnings.height()),
        ]);
    }
    Ok(t)
}

/// Follow-ups per (last) transformation, with how often a round could not apply it to its
/// parent: the share each relation got of a campaign.
pub fn follow_ups(sessions: &DataFrame) -> PolarsResult<Table> {
    let transformation = strings(sessions, "transformation")?;
    let parent = strings(sessions, "parent")?;
    let outcome = strings(sessions, "outcome")?;
    let unfit = sessions.column("not_applicable")?.str()?.clone();
    // transformation -> [follow-ups, judged, violated, rounds not applicable]
    let mut by: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    for i in 0..sessions.height() {
        if parent[i] != "-" && transformation[i] != "-" {
            let e = by.entry(transformation[i].clone()).or_default();
            e[0] += 1;
            e[1] += usize::from(
                morphtrace_schema::SessionOutcome::decision_of(&outcome[i])
                    .is_some_and(|d| d.is_judged()),
            );
            e[2] += usize::from(outcome[i] == "violated");
        }
        if let Some(v) = unfit.get(i) {
            for (t, _) in morphtrace_judges::metamorphic::unfit_of_note(v) {
                by.entry(t.to_string()).or_default()[3] += 1;
            }
        }
    }
    let total: usize = by.values().map(|c| c[0]).sum();
    let mut t = Table::new(
        "follow_ups_per_transformation",
        "Follow-ups per transformation, and rounds that could not apply it",
        &[
            "transformation",
            "follow-ups",
            "in %",
            "judged",
            "violated",
            "not applicable",
        ],
    );
    t = t.with_note(
        "Not applicable: rounds whose parent lacked what the transformation needs (drawn and \
         tried in vain, or unfit before the draw); `info` lists the reasons."
            .to_string(),
    );
    for (name, c) in &by {
        t.push(vec![
            name.clone(),
            c[0].to_string(),
            percent(c[0], total),
            c[1].to_string(),
            c[2].to_string(),
            c[3].to_string(),
        ]);
    }
    Ok(t)
}

/// ISSTA 2019 §5.3: how many warnings involve at least one interactive transformation.
pub fn interactive_share(warnings: &DataFrame) -> PolarsResult<Table> {
    let n = warnings.height();
    let inter = warnings
        .column("interactive")?
        .bool()?
        .iter()
        .filter(|v| v.unwrap_or(false))
        .count();
    let mut t = Table::new(
        "interactive_share",
        "Warnings involving an interactive transformation",
        &["warnings", "with an interactive transformation", "in %"],
    );
    t.push(vec![n.to_string(), inter.to_string(), percent(inter, n)]);
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure7_is_cumulative_and_ignores_incomplete_runs() {
        let s = df!(
            "outcome" => ["finished", "diverged", "diverged", "action-limit", "diverged"],
            "divergence" => [None, Some("breakpoint-location"), Some("pause-location"), None, Some("breakpoint-location")],
            "control_actions" => [2u32, 0, 1, 20, 2],
        )
        .unwrap();
        let t = figure7(&s).unwrap();
        assert_eq!(
            t.columns,
            [
                "execution actions ≤ x",
                "program finished",
                "breakpoint-location",
                "pause-location",
                "completed",
                "of all runs"
            ]
        );
        assert_eq!(t.rows[0], ["0", "0", "1", "0", "1", "20.0%"]);
        assert_eq!(t.rows[1], ["1", "0", "1", "1", "2", "40.0%"]);
        assert_eq!(t.rows[2], ["2", "1", "2", "1", "4", "80.0%"]);
        assert_eq!(t.rows.len(), 3);
    }

    #[test]
    fn figure15_accumulates_over_rounds() {
        let w = df!("round" => [1u32, 1, 3, 2, 3, 3]).unwrap();
        let t = figure15(&w).unwrap();
        assert_eq!(t.rows, [["1", "2", "2"], ["2", "1", "3"], ["3", "3", "6"]]);
    }

    #[test]
    fn quantiles_interpolate() {
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.5);
        assert_eq!(quantile(&[5.0], 0.9), 5.0);
    }
}
