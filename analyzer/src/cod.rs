//! Coverage campaigns (Cod, C2V, ground truth): inconsistency classes, the evaluation tables,
//! and representatives shown with both reports side by side.

use crate::columns;
use crate::columns::{rows_where, strings, u32s};
use crate::dbdb::classes;
use crate::load::Archives;
use crate::render::{percent, Table};
use morphtrace_schema::lines::LineIndex;
use polars::prelude::*;
use std::collections::HashMap;

/// A coverage inconsistency's class: (relation, profiler, kind, syntax kind of the line).
pub const KEYS: [&str; 4] = morphtrace_judges::triage::INCONSISTENCY_KEYS;

/// The `noise` column: true where the weak-noise filter drops the inconsistency.
fn noise(df: &DataFrame) -> PolarsResult<Vec<bool>> {
    Ok(df
        .column("noise")?
        .bool()?
        .iter()
        .map(|b| b.unwrap_or(false))
        .collect())
}

/// Inconsistencies that pass the weak-noise filter.
pub fn reports(f: &crate::load::Frames) -> PolarsResult<DataFrame> {
    rows_where(
        &f.inconsistencies,
        noise(&f.inconsistencies)?.into_iter().map(|n| !n),
    )
}

/// Classes of the reports left after the weak-noise filter.
pub fn classes_table(f: &crate::load::Frames, top: usize) -> PolarsResult<Table> {
    let r = reports(f)?;
    let c = classes::classes(&r, &KEYS)?;
    let c = if top > 0 { c.head(Some(top)) } else { c };
    let mut t = Table::from_df(
        "coverage_classes",
        &format!(
            "Classes of {} coverage inconsistencies left after the weak-noise filter ({} of {} dropped)",
            r.height(),
            f.inconsistencies.height() - r.height(),
            f.inconsistencies.height()
        ),
        &c,
    );
    t.columns = [
        "Relation",
        "Profiler",
        "Kind",
        "Syntax of the line",
        "Size",
        "in %",
    ]
    .map(String::from)
    .to_vec();
    Ok(t)
}

/// Cod's evaluation per profiler: programs, variants, inconsistencies by kind, and what the
/// weak-noise filter leaves; C2V's per pair.
pub fn table(f: &crate::load::Frames) -> PolarsResult<Table> {
    let inc = &f.inconsistencies;
    let sessions = rows_where(
        &f.sessions,
        strings(&f.sessions, "mode")?
            .into_iter()
            .map(|m| m == "coverage"),
    )?;
    let outcomes = strings(&sessions, "outcome")?;
    let rejected = outcomes.iter().filter(|o| *o == "rejected").count();
    let mut t = Table::new(
        "cod",
        "Coverage inconsistencies by relation and profiler (Cod: P vs P'; C2V: two profilers on P; truth: the profiler vs counters in the program)",
        &[
            "Relation",
            "Profiler",
            "Programs with one",
            "Strong",
            "Weak",
            "Output",
            "All",
            "Left after the weak-noise filter",
        ],
    )
    .with_note(format!(
        "{} coverage sessions ({} programs rejected: no termination, environment, no compile)",
        sessions.height(),
        rejected
    ));
    let (program, kind, noise) = (strings(inc, "program")?, strings(inc, "kind")?, noise(inc)?);
    let mut groups = columns::groups(inc, &["relation", "profiler"])?;
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    for (key, rows) in groups {
        let programs: std::collections::HashSet<&str> =
            rows.iter().map(|&i| program[i].as_str()).collect();
        let k = |name: &str| rows.iter().filter(|&&i| kind[i] == name).count();
        let left = rows.iter().filter(|&&i| !noise[i]).count();
        let [r, p] = [key[0].clone(), key[1].clone()];
        t.push(vec![
            r,
            p,
            programs.len().to_string(),
            k("strong").to_string(),
            k("weak").to_string(),
            k("output").to_string(),
            rows.len().to_string(),
            format!("{left} ({})", percent(left, rows.len())),
        ]);
    }
    Ok(t)
}

/// Inconsistencies left after the filter by profiler, kind and the syntax kind of the line.
pub fn by_syntax(f: &crate::load::Frames, top: usize) -> PolarsResult<Table> {
    const KEYS: [&str; 3] = ["profiler", "kind", "syntax"];
    let r = reports(f)?;
    let program = strings(&r, "program")?;
    // Largest first, ties by key (`groups`' order).
    let rows: Vec<(Vec<String>, Vec<u32>)> = columns::groups(&r, &KEYS)?
        .into_iter()
        .map(|(key, rows)| {
            let programs: std::collections::HashSet<&str> =
                rows.iter().map(|&i| program[i].as_str()).collect();
            (key, vec![rows.len() as u32, programs.len() as u32])
        })
        .collect();
    let c = columns::frame(&KEYS, &rows, &["n", "programs"])?;
    let c = if top > 0 { c.head(Some(top)) } else { c };
    let mut t = Table::from_df(
        "coverage_syntax",
        "Inconsistencies left after the weak-noise filter, by the syntax of the line",
        &c,
    );
    t.columns = [
        "Profiler",
        "Kind",
        "Syntax of the line",
        "Inconsistencies",
        "Programs",
    ]
    .map(String::from)
    .to_vec();
    Ok(t)
}

/// Every coverage table.
pub fn tables(f: &crate::load::Frames, top: usize) -> PolarsResult<Vec<Table>> {
    Ok(vec![table(f)?, by_syntax(f, top)?, classes_table(f, top)?])
}

/// Counts of the lines of one report, from the `coverage_lines` frame.
fn line_counts(
    lines: &DataFrame,
    archive: u32,
    session: u32,
    engine: u32,
    program: &str,
) -> PolarsResult<HashMap<u32, u64>> {
    let (a, s, e, p) = (
        u32s(lines, "archive")?,
        u32s(lines, "session")?,
        u32s(lines, "engine")?,
        strings(lines, "program")?,
    );
    let df = rows_where(
        lines,
        (0..lines.height())
            .map(|i| a[i] == archive && s[i] == session && e[i] == engine && p[i] == program),
    )?;
    let l = u32s(&df, "line")?;
    let c = df.column("count")?.cast(&DataType::UInt64)?;
    Ok(l.into_iter()
        .zip(c.u64()?.iter())
        .filter_map(|(l, c)| c.map(|c| (l, c)))
        .collect())
}

/// `sample` for coverage: one representative per class in turn, each with P and the other
/// side's program around the line, both counts in the margin.
pub fn sample(d: &Archives, n: usize, seed: u64, context: u32) -> PolarsResult<String> {
    use std::fmt::Write;
    let members = reports(&d.frames)?;
    let drawn = classes::sample(&members, &KEYS, n, seed)?;
    let cls = classes::classes(&members, &KEYS)?;
    let sizes = u32s(&cls, "size")?;
    let col_s = |c: &str| strings(&members, c);
    let (arch, pos) = (u32s(&members, "archive")?, u32s(&members, "session")?);
    let (eng, line) = (u32s(&members, "engine")?, u32s(&members, "line")?);
    let other = u32s(
        &members
            .column("other_engine")?
            .fill_null(FillNullStrategy::Zero)?
            .into_frame(),
        "other_engine",
    )?;
    let has_other: Vec<bool> = members
        .column("other_engine")?
        .is_not_null()
        .iter()
        .map(|b| b.unwrap_or(false))
        .collect();
    let (prog, prog_b, count_a, count_b) = (
        col_s("program")?,
        col_s("program_b")?,
        col_s("count_a")?,
        col_s("count_b")?,
    );
    let (unit, relation) = (col_s("unit")?, col_s("relation")?);
    let by_short: HashMap<String, &morphtrace_schema::Program> =
        d.programs.values().map(|p| (p.hash.short(), p)).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} of {} coverage inconsistencies drawn from {} classes, round-robin, largest class first (seed {seed})",
        drawn.len(),
        members.height(),
        cls.height()
    );
    for (i, m) in drawn.iter().enumerate() {
        let r = m.row;
        let src = &d.sources[arch[r] as usize];
        let pname = by_short
            .get(&prog[r])
            .map(|p| p.origin.name())
            .unwrap_or_else(|| prog[r].clone());
        let _ = writeln!(
            out,
            "\n#{} class {} [{}] ({} members)\n  {} session {}: {pname}, {} {} at line {}: {} vs {}",
            i + 1,
            m.class + 1,
            m.key.join(" / "),
            sizes[m.class],
            src.path,
            pos[r],
            relation[r],
            unit[r],
            line[r],
            count_a[r],
            count_b[r]
        );
        let engine_b = if has_other[r] { other[r] } else { eng[r] };
        let a = line_counts(&d.frames.coverage_lines, arch[r], pos[r], eng[r], &prog[r])?;
        let b = line_counts(
            &d.frames.coverage_lines,
            arch[r],
            pos[r],
            engine_b,
            &prog_b[r],
        )?;
        let (Some(pa), pb) = (by_short.get(&prog[r]), by_short.get(&prog_b[r])) else {
            let _ = writeln!(out, "  (program text not in the archive)");
            continue;
        };
        let lines_of = |p: &morphtrace_schema::Program| -> Vec<String> {
            LineIndex::new(&p.text, p.language.into())
                .lines(&p.text)
                .map(str::to_string)
                .collect()
        };
        let a_lines = lines_of(pa);
        let b_lines = pb.map(|p| lines_of(p)).unwrap_or_default();
        let _ = writeln!(
            out,
            "  {:>6} {:>8} {:>8}  {:<48} | other side",
            "line", "P", "other", "P"
        );
        let lo = line[r].saturating_sub(context).max(1);
        let hi = line[r] + context;
        for l in lo..=hi {
            let Some(ta) = a_lines.get(l as usize - 1) else {
                break;
            };
            let tb = b_lines.get(l as usize - 1).map_or("", String::as_str);
            let fmt =
                |m: &HashMap<u32, u64>| m.get(&l).map(|c| c.to_string()).unwrap_or("-".into());
            let mark = if l == line[r] { "=>" } else { "  " };
            let clip = |s: &str| s.chars().take(48).collect::<String>();
            let _ = writeln!(
                out,
                "{mark}{:>6} {:>8} {:>8}  {:<48} | {}",
                l,
                fmt(&a),
                fmt(&b),
                clip(ta),
                clip(tb)
            );
        }
    }
    Ok(out)
}
