//! Tables and pages: the papers' `tables`, `compare` of two runs, the `versions` matrix, the
//! HTML `report`.

use crate::cli::{CompareArgs, ReportArgs, TablesArgs, VersionsArgs};
use crate::inputs::{code, load_inputs, print_tables, usage};
use anyhow::Result;
use morphtrace_analyzer::load::{self, Archives, Want};
use morphtrace_analyzer::triage::{class_tables, Split};
use morphtrace_analyzer::{compare, report, tables};
use std::process::ExitCode;

pub(crate) fn tables(a: TablesArgs) -> Result<ExitCode> {
    let TablesArgs {
        archives,
        format,
        paper,
        table,
        top,
        out,
    } = a;
    let mut unreadable = false;
    let d = load_inputs(&archives, Want::SUMMARY, &mut unreadable)?;
    let mut ts = tables::all(&d.frames, paper, top)?;
    if let Some(name) = &table {
        ts.retain(|t| &t.name == name);
        if ts.is_empty() {
            return Err(usage(format!("no table named {name:?} (see --help)")));
        }
    }
    match out {
        Some(dir) => {
            std::fs::create_dir_all(&dir)?;
            for t in &ts {
                let p = dir.join(format!("{}.{}", t.name, format.extension()));
                std::fs::write(&p, t.render(format))?;
                println!("{}", p.display());
            }
        }
        None => print_tables(&ts, format),
    }
    Ok(code(unreadable))
}

pub(crate) fn compare(a: CompareArgs) -> Result<ExitCode> {
    let CompareArgs {
        a,
        b,
        format,
        limit,
        triage,
    } = a;
    let mut unreadable = false;
    let da = load_inputs(&[a], Want::SUMMARY, &mut unreadable)?;
    let db = load_inputs(&[b], Want::SUMMARY, &mut unreadable)?;
    let sources: Vec<_> = da.sources.iter().chain(&db.sources).collect();
    let triage = morphtrace_analyzer::triage::for_archives(triage.as_deref(), &sources)?;
    eprintln!(
        "triage: {}",
        morphtrace_analyzer::triage::judged_with(&triage)
    );
    print_tables(&compare::compare(&da, &db, limit, &triage)?, format);
    Ok(code(unreadable))
}

pub(crate) fn versions(a: VersionsArgs) -> Result<ExitCode> {
    let VersionsArgs {
        inputs,
        format,
        html,
    } = a;
    let mut unreadable = false;
    let paths = load::expand(&inputs)?;
    if paths.len() < 2 {
        anyhow::bail!(
            "versions needs the archives of two versions or more ({} found)",
            paths.len()
        );
    }
    let mut loaded = Vec::new();
    for p in &paths {
        match load_inputs(std::slice::from_ref(p), Want::SUMMARY, &mut unreadable) {
            Ok(d) if !d.sources.is_empty() => loaded.push(d),
            Ok(_) => {}
            Err(e) => {
                eprintln!("morphtrace-analyze: {}: {e:#}", p.display());
                unreadable = true;
            }
        }
    }
    let refs: Vec<&Archives> = loaded.iter().collect();
    let names: Vec<String> = loaded
        .iter()
        .map(|d| {
            d.sources
                .iter()
                .map(|s| s.path.clone())
                .collect::<Vec<_>>()
                .join("+")
        })
        .collect();
    if let Some(why) = morphtrace_analyzer::versions::not_a_matrix(&refs, &names) {
        anyhow::bail!("{why}");
    }
    let labels = morphtrace_analyzer::versions::labels(&refs);
    let mut columns: Vec<morphtrace_analyzer::versions::Column> = labels
        .into_iter()
        .zip(&loaded)
        .map(|(label, data)| morphtrace_analyzer::versions::Column { label, data })
        .collect();
    columns.sort_by_key(|c| morphtrace_analyzer::versions::version_key(&c.label));
    let ts = morphtrace_analyzer::versions::matrix(&columns)?;
    print_tables(&ts, format);
    if let Some(h) = html {
        let intro = format!(
            "{} versions: {}.",
            columns.len(),
            columns
                .iter()
                .map(|c| c.label.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        std::fs::write(
            &h,
            report::tables_page("morphtrace version matrix", &intro, &ts),
        )
        .map_err(|e| anyhow::anyhow!("{}: {e}", h.display()))?;
        println!("{}", h.display());
    }
    Ok(code(unreadable))
}

pub(crate) fn report(a: ReportArgs) -> Result<ExitCode> {
    let ReportArgs {
        archives,
        out,
        top,
        triage,
    } = a;
    let mut unreadable = false;
    let d = load_inputs(&archives, Want::SUMMARY, &mut unreadable)?;
    let sources: Vec<_> = d.sources.iter().collect();
    let triage = morphtrace_analyzer::triage::for_archives(triage.as_deref(), &sources)?;
    eprintln!(
        "triage: {}",
        morphtrace_analyzer::triage::judged_with(&triage)
    );
    let mut ts = tables::all(&d.frames, tables::Paper::All, top)?;
    // Every class, the ones nobody has judged first.
    ts.extend(class_tables(&d.frames, &triage, Split::Separate, 0)?.0);
    std::fs::write(&out, report::render(&d, &ts))
        .map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
    println!("{}", out.display());
    Ok(code(unreadable))
}
