//! Commands over whole archives: `merge` shards, `info`, `show` sessions, `export` frames.

use crate::cli::{ExportArgs, InfoArgs, MergeArgs, ShowArgs};
use crate::inputs::{code, load_inputs, usage, EXIT_DAMAGED, EXIT_UNREADABLE};
use anyhow::Result;
use morphtrace_analyzer::load::{self, Want};
use morphtrace_analyzer::render::Format;
use morphtrace_analyzer::{dataset, export, info, show};
use morphtrace_schema::ArchiveReader;
use std::process::ExitCode;

pub(crate) fn merge(a: MergeArgs) -> Result<ExitCode> {
    let MergeArgs {
        shards,
        out,
        allow_missing,
        json,
    } = a;
    let paths = load::expand(&shards)?;
    let report = morphtrace_analyzer::merge::merge(&paths, &out, allow_missing)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{report}");
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn info(a: InfoArgs) -> Result<ExitCode> {
    let InfoArgs {
        archives,
        json,
        programs,
    } = a;
    let mut worst = 0u8;
    let mut infos = Vec::new();
    // Folders and globs as every other command takes them; an input that names nothing is
    // said and the others are still shown.
    let mut paths = Vec::new();
    for input in &archives {
        match load::expand(std::slice::from_ref(input)) {
            Ok(found) => paths.extend(found),
            Err(e) => {
                eprintln!("morphtrace-analyze: {e}");
                worst = EXIT_UNREADABLE;
            }
        }
    }
    let archives = paths;
    for path in &archives {
        let shown = path.display().to_string();
        match ArchiveReader::open(path) {
            Ok(reader) => {
                let i = info::summarize(&shown, &reader);
                if i.is_damaged() && worst != EXIT_UNREADABLE {
                    worst = EXIT_DAMAGED;
                }
                if json {
                    infos.push(i);
                } else {
                    if archives.len() > 1 && !infos.is_empty() {
                        println!();
                    }
                    print!("{}", info::render(&i, programs));
                    if i.by_mode_outcome.contains_key("coverage") {
                        print!("{}", coverage_summary(path));
                    }
                    infos.push(i);
                }
            }
            Err(e) => {
                eprintln!("morphtrace-analyze: {shown}: {e}");
                worst = EXIT_UNREADABLE;
            }
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&infos)?);
    }
    Ok(ExitCode::from(worst))
}

pub(crate) fn show(a: ShowArgs) -> Result<ExitCode> {
    let ShowArgs {
        archive,
        sessions,
        diverged,
        limit,
        program,
    } = a;
    let reader =
        ArchiveReader::open(&archive).map_err(|e| anyhow::anyhow!("{}: {e}", archive.display()))?;
    if let Some(prefix) = program {
        let prefix = prefix.to_ascii_lowercase();
        let found: Vec<_> = reader
            .programs()
            .values()
            .filter(|p| p.hash.to_string().starts_with(&prefix))
            .collect();
        match found.as_slice() {
            [p] => {
                print!("{}", p.text);
                return Ok(ExitCode::SUCCESS);
            }
            [] => anyhow::bail!("no program {prefix}… in {}", archive.display()),
            _ => anyhow::bail!(
                "{} programs start with {prefix}: give more digits",
                found.len()
            ),
        }
    }
    let mut shown = 0;
    for (i, s) in reader.sessions().enumerate() {
        let s = match s {
            Ok(s) => s,
            Err(e) => {
                eprintln!("morphtrace-analyze: session {i}: {e}");
                continue;
            }
        };
        let wanted = sessions.is_empty()
            || sessions
                .iter()
                .any(|w| *w == s.id.to_string() || *w == i.to_string());
        if !wanted || (diverged && s.divergence.is_none()) {
            continue;
        }
        if shown == limit {
            break;
        }
        shown += 1;
        let program = reader.program(&s.program).map(|p| p.origin.name());
        println!("{}", show::render(reader.header(), &s, program.as_deref()));
    }
    if shown == 0 && !sessions.is_empty() {
        anyhow::bail!("no such session in {}", archive.display());
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn export(a: ExportArgs) -> Result<ExitCode> {
    let ExportArgs {
        archives,
        parquet,
        csv,
        dataset,
        schema,
    } = a;
    let mut unreadable = false;
    if schema {
        print!("{}", load::schema_markdown());
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(dir) = dataset {
        if archives.is_empty() {
            return Err(usage("export needs at least one archive"));
        }
        let w = dataset::write(&load::expand(&archives)?, &dir)?;
        for u in &w.unreadable {
            eprintln!("morphtrace-analyze: {u}");
        }
        println!(
            "{}: {} parts, {} sessions, {} events",
            dir.display(),
            w.parts,
            w.sessions,
            w.events
        );
        for (frame, rows) in &w.rows {
            println!("  {frame}\t{rows} rows");
        }
        return Ok(if w.unreadable.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(EXIT_UNREADABLE)
        });
    }
    let (dir, fmt) = match (parquet, csv) {
        (Some(d), None) => (d, export::FileFormat::Parquet),
        (None, Some(d)) => (d, export::FileFormat::Csv),
        _ => {
            return Err(usage(
                "export needs --parquet DIR, --csv DIR or --dataset DIR",
            ))
        }
    };
    if archives.is_empty() {
        return Err(usage("export needs at least one archive"));
    }
    let mut d = load_inputs(&archives, Want::ALL, &mut unreadable)?;
    // Each divergence's verdict under the nearest triage file, else the one the archives
    // recorded, when there is one.
    let sources: Vec<_> = d.sources.iter().collect();
    let triage = morphtrace_analyzer::triage::for_archives(None, &sources)?;
    if triage.path.is_some() {
        d.frames.divergences =
            morphtrace_analyzer::triage::with_verdicts(&triage, &d.frames.divergences)?;
    }
    for (p, rows) in export::export(&d.frames, &dir, fmt)? {
        println!("{}\t{rows} rows", p.display());
    }
    Ok(code(unreadable))
}

/// A coverage archive's inconsistencies by relation and profiler (Cod's table), as `tables`
/// prints it; empty when the archive cannot be loaded as frames (its damage is said above).
fn coverage_summary(path: &std::path::Path) -> String {
    let want = Want {
        coverage: true,
        ..Want::SUMMARY
    };
    match load::load(&[path.to_path_buf()], want) {
        Ok(d) => match morphtrace_analyzer::cod::table(&d.frames) {
            Ok(t) => format!("inconsistencies\n{}", t.render(Format::Markdown)),
            Err(e) => format!("inconsistencies: not tabulated ({e})\n"),
        },
        Err(_) => String::new(),
    }
}
