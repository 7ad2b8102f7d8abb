//! `findings`: a representative of each class that needs one, reduced by the recorder into a
//! bundle, and the index of the bundles.

use crate::cli::FindingsArgs;
use crate::inputs::{load_inputs, usage, EXIT_NOT_REDUCED, EXIT_UNREADABLE};
use anyhow::Result;
use morphtrace_analyzer::findings;
use morphtrace_analyzer::load::Want;
use std::process::ExitCode;

/// `findings`: select, reduce (by the recorder), index.
pub(crate) fn findings(a: FindingsArgs) -> Result<ExitCode> {
    let FindingsArgs {
        archives,
        out,
        budget,
        max,
        triage,
        recorder,
        index_only,
    } = a;
    let out = out.as_path();
    if index_only {
        if !out.is_dir() {
            anyhow::bail!("{} is not a directory of bundles", out.display());
        }
        let html = findings::index(out, None, &[]);
        std::fs::write(out.join("index.html"), html)?;
        println!("{}", out.join("index.html").display());
        return Ok(ExitCode::SUCCESS);
    }
    if budget.is_nan() || budget <= 0.0 {
        return Err(usage("--budget must be positive"));
    }
    if out.exists() {
        anyhow::bail!("{} exists: give a new directory", out.display());
    }
    let mut unreadable = false;
    let want = Want {
        coverage: true,
        ..Want::SUMMARY
    };
    let d = load_inputs(&archives, want, &mut unreadable)?;
    let sources: Vec<_> = d.sources.iter().collect();
    let triage = morphtrace_analyzer::triage::for_archives(triage.as_deref(), &sources)?;
    eprintln!(
        "triage: {}",
        morphtrace_analyzer::triage::judged_with(&triage)
    );
    let (mut chosen, skipped) = findings::representatives(&d, &triage)?;
    if max > 0 && chosen.len() > max {
        chosen.truncate(max);
    }
    let recorder = recorder.unwrap_or_else(findings::recorder);
    let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let outcomes =
        findings::reduce_all(&chosen, &skipped, out, budget, &recorder, progress, |o| {
            println!(
                "{} [{}] {}: {}",
                if o.bundle.is_some() {
                    "reduced"
                } else {
                    "NOT REDUCED"
                },
                o.representative.verdict,
                o.representative.key.join(" / "),
                o.said
            );
        })?;
    for s in &skipped {
        println!("left out {}: {}", s.key.join(" / "), s.why);
    }
    let done = outcomes.iter().filter(|o| o.bundle.is_some()).count();
    println!(
        "{done} of {} classes reduced into bundles, {} left out; {}",
        outcomes.len(),
        skipped.len(),
        out.join("index.html").display()
    );
    Ok(if unreadable {
        ExitCode::from(EXIT_UNREADABLE)
    } else if done < outcomes.len() {
        // A class that could not be reduced is a finding not delivered: say so in the status.
        ExitCode::from(EXIT_NOT_REDUCED)
    } else {
        ExitCode::SUCCESS
    })
}
