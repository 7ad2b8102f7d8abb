//! Commands over classes of findings: `classes` with their triage verdicts, `triage --check`,
//! `sample` members to read.

use crate::cli::{ClassesArgs, SampleArgs, TriageArgs};
use crate::inputs::{code, load_inputs, print_tables};
use anyhow::Result;
use morphtrace_analyzer::columns;
use morphtrace_analyzer::dbdb::classes;
use morphtrace_analyzer::load::{self, Want};
use morphtrace_analyzer::render::Table;
use morphtrace_analyzer::show;
use morphtrace_schema::ArchiveReader;
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
    let triage = morphtrace_analyzer::triage::find(triage.as_deref())?;
    let d = load_inputs(&archives, Want::SUMMARY, &mut unreadable)?;
    let f = &d.frames;
    let (shown, untriaged) = class_tables(
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
    if let Some(p) = &triage.path {
        eprintln!(
            "triage: {} ({} rules); {untriaged} classes not judged by any",
            p.display(),
            triage.rules.len()
        );
    } else {
        eprintln!("triage: no triage.toml found (every class is new)");
    }
    if new && untriaged > 0 {
        return Ok(ExitCode::FAILURE);
    }
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
    let empty = load::Frames::empty()?;
    let d;
    let f = if check {
        d = load_inputs(&archives, Want::SUMMARY, &mut unreadable)?;
        &d.frames
    } else {
        &empty
    };
    let cod_reports = morphtrace_analyzer::cod::reports(f)?;
    let c = triage::check(
        &t,
        &[
            (Family::Divergence, &f.divergences),
            (Family::Warning, &f.warnings),
            (Family::Inconsistency, &cod_reports),
        ],
    )?;
    print_tables(
        &[Table::from_df(
            "triage_rules",
            &format!("Triage rules of {}", path.display()),
            &c,
        )],
        format,
    );
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
    let (members, keys) = if warnings {
        (&d.frames.warnings, classes::WARNING_KEYS)
    } else {
        (&d.frames.divergences, classes::DIVERGENCE_KEYS)
    };
    let drawn = classes::sample(members, &keys, n, seed)?;
    let cls = classes::classes(members, &keys)?;
    let sizes = columns::u32s(&cls, "size")?;
    let arch = columns::u32s(members, "archive")?;
    let pos = columns::u32s(members, "session")?;
    let details = columns::strings(members, if warnings { "message" } else { "detail" })?;
    let at: Vec<u32> = if warnings {
        columns::u32s(members, "event_index")?
    } else {
        columns::u32s(members, "action_index")?
    };
    println!(
        "{} of {} {} drawn from {} classes, round-robin, largest class first (seed {seed})",
        drawn.len(),
        members.height(),
        if warnings { "warnings" } else { "divergences" },
        cls.height()
    );
    let mut readers: std::collections::HashMap<u32, ArchiveReader> = Default::default();
    for (i, m) in drawn.iter().enumerate() {
        let a = arch[m.row];
        let src = &d.sources[a as usize];
        println!(
            "\n#{} class {} [{}] ({} members): {}\n  {} session {}",
            i + 1,
            m.class + 1,
            m.key.join(" / "),
            sizes[m.class],
            details[m.row],
            src.path,
            pos[m.row],
        );
        if let std::collections::hash_map::Entry::Vacant(e) = readers.entry(a) {
            e.insert(ArchiveReader::open(&src.path)?);
        }
        let r = &readers[&a];
        match r.session(pos[m.row] as usize) {
            Ok(s) => {
                let program = r
                    .program(&s.program)
                    .map(|p| p.origin.name())
                    .unwrap_or_default();
                println!("  program {program}, seed {}, id {}", s.seed, s.id);
                // A warning's index counts events; the excerpt counts actions.
                let action = if warnings {
                    s.traces
                        .first()
                        .and_then(|t| load::action_of_event(&t.into(), at[m.row]))
                        .unwrap_or(0)
                } else {
                    at[m.row]
                };
                print!("{}", show::excerpt(r.header(), &s, action, context));
            }
            Err(e) => println!("  (session does not decode: {e})"),
        }
    }
    Ok(code(unreadable))
}

/// Which classes `class_tables` shows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Split {
    All,
    /// Only classes with members no triage rule judges.
    NewOnly,
    /// Two tables per family: new classes, then triaged ones (the HTML report).
    Separate,
}

/// The class tables of every finding family the frames hold, each class with its triage
/// verdict; and how many classes have members no rule judges.
pub(crate) fn class_tables(
    f: &load::Frames,
    triage: &morphtrace_analyzer::triage::Triage,
    split: Split,
    top: usize,
) -> Result<(Vec<Table>, usize)> {
    use morphtrace_analyzer::triage::Family;
    let cod_reports = morphtrace_analyzer::cod::reports(f)?;
    let families = [
        ClassTable {
            name: "divergence_classes",
            what: "divergences",
            members: &f.divergences,
            keys: &classes::DIVERGENCE_KEYS,
            family: Family::Divergence,
            headers: &["Diff. type", "Last action", "AST node"],
        },
        ClassTable {
            name: "warning_classes",
            what: "warnings",
            members: &f.warnings,
            keys: &classes::WARNING_KEYS,
            family: Family::Warning,
            headers: &["Relation", "Transformation", "AST node"],
        },
        ClassTable {
            name: "coverage_classes",
            what: "coverage inconsistencies left after the weak-noise filter",
            members: &cod_reports,
            keys: &morphtrace_analyzer::cod::KEYS,
            family: Family::Inconsistency,
            headers: &["Relation", "Profiler", "Kind", "Syntax of the line"],
        },
    ];
    let mut shown: Vec<Table> = Vec::new();
    let mut untriaged = 0;
    let any = families.iter().any(|x| x.members.height() > 0);
    for ClassTable {
        name,
        what,
        members,
        keys,
        family,
        headers,
    } in families
    {
        // A table of nothing says nothing: show the kinds the archives have (both debugger
        // tables if they have none).
        if members.height() == 0 && (any || family == Family::Inconsistency) {
            continue;
        }
        let c = classes::classes(members, keys)?;
        let c =
            morphtrace_analyzer::triage::JudgeFrames::annotate(triage, &c, members, keys, family)?;
        let open: Vec<bool> = columns::u32s(&c, "untriaged")?
            .into_iter()
            .map(|n| n > 0)
            .collect();
        untriaged += open.iter().filter(|o| **o).count();
        let parts: Vec<(String, polars::prelude::DataFrame, &str)> = match split {
            Split::All => vec![(name.to_string(), c, "")],
            Split::NewOnly => vec![(
                name.to_string(),
                columns::rows_where(&c, open)?,
                " that no triage rule judges",
            )],
            Split::Separate => vec![
                (
                    format!("{name}_new"),
                    columns::rows_where(&c, open.iter().copied())?,
                    ": new, not (or not fully) triaged",
                ),
                (
                    format!("{name}_triaged"),
                    columns::rows_where(&c, open.iter().map(|o| !o))?,
                    ": triaged",
                ),
            ],
        };
        for (name, c, which) in parts {
            let c = c.drop("untriaged")?;
            let c = if split == Split::Separate {
                c
            } else {
                c.drop("link")?
            };
            let total = c.height();
            let c = if top > 0 { c.head(Some(top)) } else { c };
            let mut t = Table::from_df(
                &name,
                &format!("{total} classes of {} {what}{which}", members.height()),
                &c,
            );
            let mut extra = vec!["Size", "in %", "Verdict", "Note"];
            if split == Split::Separate {
                extra.push("Link");
            }
            t.columns = headers
                .iter()
                .chain(extra.iter())
                .map(|h| h.to_string())
                .collect();
            shown.push(t);
        }
    }
    Ok((shown, untriaged))
}

/// One table of `classes`: a finding family's members, class keys and column headers.
pub(crate) struct ClassTable<'a> {
    name: &'static str,
    what: &'static str,
    members: &'a polars::prelude::DataFrame,
    keys: &'static [&'static str],
    family: morphtrace_analyzer::triage::Family,
    headers: &'static [&'static str],
}
