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
    let mut printed = 0;
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
                let coverage = i
                    .by_mode_outcome
                    .contains_key("coverage")
                    .then(|| coverage_table(path));
                if json {
                    let mut v = serde_json::to_value(&i)?;
                    if let (Some(t), serde_json::Value::Object(o)) = (&coverage, &mut v) {
                        o.insert(
                            "inconsistencies".into(),
                            match t {
                                Ok(t) => t.json(),
                                Err(e) => serde_json::json!({ "error": e }),
                            },
                        );
                    }
                    infos.push(v);
                } else {
                    if printed > 0 {
                        println!();
                    }
                    printed += 1;
                    print!("{}", info::render(&i, programs));
                    match &coverage {
                        Some(Ok(t)) => print!("inconsistencies\n{}", t.render(Format::Markdown)),
                        Some(Err(e)) => println!("inconsistencies: not tabulated ({e})"),
                        None => {}
                    }
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
        if !wanted || (diverged && s.divergence.is_none() && s.warnings.is_empty()) {
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
        triage,
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
    // Each divergence's verdict under the triage given, else the one the archives recorded,
    // else the nearest triage file, when there is one.
    let sources: Vec<_> = d.sources.iter().collect();
    let triage = morphtrace_analyzer::triage::for_archives(triage.as_deref(), &sources)?;
    eprintln!(
        "triage: {}",
        morphtrace_analyzer::triage::judged_with(&triage)
    );
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
/// A coverage archive's inconsistencies by relation and profiler (Cod's table, as `tables`
/// prints it), or why they could not be tabulated.
fn coverage_table(path: &std::path::Path) -> Result<morphtrace_analyzer::render::Table, String> {
    let want = Want {
        coverage: true,
        ..Want::SUMMARY
    };
    let d = load::load(&[path.to_path_buf()], want).map_err(|e| e.to_string())?;
    morphtrace_analyzer::cod::table(&d.frames).map_err(|e| e.to_string())
}
