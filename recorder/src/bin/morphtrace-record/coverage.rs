//! `coverage-check`: whether a class of coverage inconsistency shows on one program, the test
//! C-Vise runs when `reduce` reduces a C or Python coverage finding.

use crate::cli::CoverageCheckArgs;
use anyhow::{bail, Result};
use morphtrace_recorder::cod;
use morphtrace_recorder::reduce::session::check_options;
use morphtrace_schema::Language;
use std::process::ExitCode;
use std::time::Duration;

/// Exit 0 when the class shows on the program, 1 when not.
pub(crate) async fn coverage_check(c: CoverageCheckArgs) -> Result<ExitCode> {
    if c.run_timeout.is_nan() || c.run_timeout <= 0.0 {
        bail!("--run-timeout must be positive");
    }
    let language = match c.program.extension().and_then(|e| e.to_str()) {
        Some("c") => Language::C,
        Some("py") => Language::Python,
        _ => Language::JavaScript,
    };
    let (program, rejected) = morphtrace_recorder::corpus::read_program(&c.program, language)?;
    if let Some(why) = rejected {
        bail!("{}: {why}", c.program.display());
    }
    let opts = check_options(
        c.variants,
        Duration::from_secs_f64(c.run_timeout),
        !c.no_prelude,
    );
    let (specs, seed) = (c.engines.clone(), c.seed);
    let (session, found) =
        tokio::task::spawn_blocking(move || cod::findings(&specs, program, seed, &opts)).await??;
    if let Some(why) = cod::not_comparable(&session) {
        println!("{why}");
        return Ok(ExitCode::from(1));
    }
    let hits: Vec<&cod::Found> = found.iter().filter(|f| f.class() == c.class).collect();
    for f in &hits {
        println!(
            "line {}: {} ({:?} vs {:?})",
            f.line + 1,
            f.class(),
            f.a,
            f.b
        );
    }
    if hits.is_empty() {
        println!(
            "{} does not show ({} other inconsistencies)",
            c.class,
            found.len()
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
