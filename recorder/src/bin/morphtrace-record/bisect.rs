//! `bisect`: where a recorded session's finding appears or disappears among versions (the
//! library's `bisect::session`).

use crate::cli::BisectArgs;
use anyhow::{bail, Result};
use morphtrace_recorder::bisect::session::{self, Request};
use std::process::ExitCode;
use std::time::Duration;

/// Exit 0 with a confirmed boundary, 1 otherwise.
pub(crate) async fn bisect(b: BisectArgs, command_line: Vec<String>) -> Result<ExitCode> {
    if !(b.session_timeout.is_finite() && b.session_timeout > 0.0) {
        bail!("--session-timeout must be positive");
    }
    let request = Request {
        archive: b.archive,
        session: b.session,
        versions: b.versions,
        in_place_of: b.in_place_of,
        out: b.out,
        session_timeout: Duration::from_secs_f64(b.session_timeout),
        divergence: b.divergence,
        command_line,
    };
    let report = session::bisect(&request, |finding, candidates| {
        println!(
            "bisecting {finding} (session {}) over {} versions: {} .. {}",
            request.session,
            candidates.len(),
            candidates[0].spec,
            candidates[candidates.len() - 1].spec
        );
    })
    .await?;
    print!("{}", report.log());
    println!("{}", report.summary);
    println!("probes: {}", request.out.display());
    Ok(if report.confirmed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
