//! Commands over classes of findings: `classes` with their triage verdicts, `triage --check`,
//! `sample` members to read.

use crate::cli::{ClassesArgs, SampleArgs, TriageArgs, YieldArgs};
use crate::inputs::{code, load_inputs, print_tables};
use anyhow::Result;
use morphtrace_analyzer::dbdb::classes;
use morphtrace_analyzer::load::{self, Want};
use morphtrace_analyzer::render::Table;
use morphtrace_analyzer::triage::{class_tables, Split};
use std::process::ExitCode;

pub(crate) fn classes(a: ClassesArgs) -> Result<ExitCode> {
    let ClassesArgs {
        archives,
        format,
        top,
        triage,
        new,
    } = a;
    let mut unreadable = false;
    let d = load_inputs(&archives, Want::SUMMARY, &mut unreadable)?;
    let sources: Vec<_> = d.sources.iter().collect();
    let triage = morphtrace_analyzer::triage::for_archives(triage.as_deref(), &sources)?;
    let f = &d.frames;
    let (shown, unjudged) = class_tables(
        f,
        &triage,
        if new { Split::NewOnly } else { Split::All },
        top,
    )?;
    let mut shown = shown;
    // Three engines or more: the same classes, grouped by the engine that stood alone.
    if !new {
        if let Some(t) = morphtrace_analyzer::tables::classes_by_suspect(&f.divergences, top)? {
            shown.push(t);
        }
    }
    print_tables(&shown, format);
    if triage.path.is_some() {
        eprintln!(
            "triage: {}; {} classes not judged by any; {} not comparable (the program computes otherwise on those engines: counted apart)",
            morphtrace_analyzer::triage::judged_with(&triage),
            unjudged.untriaged,
            unjudged.not_comparable
        );
    } else {
        eprintln!(
            "triage: {}",
            morphtrace_analyzer::triage::judged_with(&triage)
        );
    }
    if new && unjudged.untriaged > 0 {
        return Ok(ExitCode::FAILURE);
    }
    Ok(code(unreadable))
}

/// `yield`: one row per oracle.
pub(crate) fn oracle_yield(a: YieldArgs) -> Result<ExitCode> {
    let YieldArgs {
        archives,
        format,
        triage,
    } = a;
    let mut unreadable = false;
    let d = load_inputs(&archives, Want::SUMMARY, &mut unreadable)?;
    let sources: Vec<_> = d.sources.iter().collect();
    let triage = morphtrace_analyzer::triage::for_archives(triage.as_deref(), &sources)?;
    let ys = morphtrace_analyzer::oracles::yields(&d.frames, &triage)?;
    print_tables(&[morphtrace_analyzer::oracles::table(&ys)], format);
    eprintln!(
        "triage: {}",
        morphtrace_analyzer::triage::judged_with(&triage)
    );
    Ok(code(unreadable))
}

pub(crate) fn triage(a: TriageArgs) -> Result<ExitCode> {
    let TriageArgs {
        archives,
        check,
        triage,
        format,
    } = a;
    let mut unreadable = false;
    use morphtrace_analyzer::triage::{self, Family};
    let t = triage::find(triage.as_deref())?;
    let Some(path) = &t.path else {
        anyhow::bail!("no triage.toml found here or above; give one with --triage FILE");
    };
    let mut tables = Vec::new();
    let (c, excused) = if check {
        let d = load_inputs(&archives, Want::SUMMARY, &mut unreadable)?;
        let (planted, faulty) = morphtrace_analyzer::faults::planted(&t, &d)?;
        // A faulty campaign's members are not the engines' own: the rules' counts leave them
        // out, and the planted faults' table accounts for them.
        let own = |df: &polars::prelude::DataFrame| -> Result<polars::prelude::DataFrame> {
            let a = morphtrace_analyzer::columns::u32s(df, "archive")?;
            Ok(morphtrace_analyzer::columns::rows_where(
                df,
                a.iter().map(|a| !faulty.contains(a)),
            )?)
        };
        let (div, warn) = (own(&d.frames.divergences)?, own(&d.frames.warnings)?);
        let (unread, all) = triage::unread_differences(&d.frames.divergences)?;
        eprintln!(
            "triage: {unread} of {all} divergence details could not be read as a typed difference (no `difference` pattern judges those)"
        );
        let cod_reports = morphtrace_analyzer::cod::reports(&d.frames)?;
        let by_rule = morphtrace_analyzer::faults::excused_by_rule(&t, &planted);
        let c = triage::check(
            &t,
            &[
                (Family::Divergence, &div),
                (Family::Warning, &warn),
                (Family::Inconsistency, &cod_reports),
            ],
            (!planted.is_empty()).then_some(by_rule.as_slice()),
        )?;
        if !planted.is_empty() {
            tables.push(Table::from_df(
                "planted_faults",
                "Planted faults: divergences each caused (the first a session met that the real one at that program and seed did not, by action, kind and detail), how they were judged, and those met later on the way the fault changed",
                &morphtrace_analyzer::faults::table(&planted)?,
            ));
        }
        (c, planted.iter().map(|p| p.excused_total()).sum::<usize>())
    } else {
        let empty = load::Frames::empty()?;
        (
            triage::check(
                &t,
                &[
                    (Family::Divergence, &empty.divergences),
                    (Family::Warning, &empty.warnings),
                    (
                        Family::Inconsistency,
                        &morphtrace_analyzer::cod::reports(&empty)?,
                    ),
                ],
                None,
            )?,
            0,
        )
    };
    tables.insert(
        0,
        Table::from_df(
            "triage_rules",
            &format!("Triage rules of {}", path.display()),
            &c,
        ),
    );
    print_tables(&tables, format);
    if excused > 0 {
        eprintln!(
            "triage: {excused} divergence(s) caused by planted faults are excused (see the planted faults table): a rule excuses a fault"
        );
        return Ok(ExitCode::FAILURE);
    }
    eprintln!(
        "triage: {} rules, every example and near miss as its rule says",
        t.rules.len()
    );
    Ok(code(unreadable))
}

pub(crate) fn sample(a: SampleArgs) -> Result<ExitCode> {
    let SampleArgs {
        archives,
        n,
        seed,
        context,
        warnings,
        coverage,
    } = a;
    let mut unreadable = false;
    let want = Want {
        coverage: true,
        ..Want::SUMMARY
    };
    let d = load_inputs(&archives, want, &mut unreadable)?;
    let f = &d.frames;
    let only_coverage =
        f.divergences.height() == 0 && f.warnings.height() == 0 && f.inconsistencies.height() > 0;
    if coverage || (only_coverage && !warnings) {
        print!(
            "{}",
            morphtrace_analyzer::cod::sample(&d, n, seed, context)?
        );
        return Ok(code(unreadable));
    }
    print!(
        "{}",
        classes::sample_excerpts(&d, n, seed, context, warnings)?
    );
    Ok(code(unreadable))
}
