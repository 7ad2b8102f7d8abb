//! `reduce`: one recorded session's finding reduced into a bundle (the library's
//! `reduce::session`).

use crate::cli::ReduceArgs;
use anyhow::{bail, Result};
use morphtrace_recorder::reduce::session::{self, Request};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

pub(crate) async fn reduce(r: ReduceArgs) -> Result<ExitCode> {
    let seconds = |s: f64, flag: &str| {
        if s.is_finite() && s > 0.0 {
            Ok(Duration::from_secs_f64(s))
        } else {
            bail!("{flag} must be positive")
        }
    };
    let request = Request {
        archive: r.archive,
        session: r.session,
        out: r.out,
        budget: seconds(r.budget, "--budget")?,
        session_timeout: seconds(r.session_timeout, "--session-timeout")?,
        class: r.class,
        divergence: r.divergence,
        progress: std::io::stderr().is_terminal(),
    };
    let outcome = session::reduce(&request).await?;
    println!("{outcome}");
    Ok(ExitCode::SUCCESS)
}
