//! `findings`: a representative of each class that needs one, reduced by the recorder into a
//! bundle, and the index of the bundles.

use crate::cli::FindingsArgs;
use crate::inputs::{load_inputs, EXIT_NOT_REDUCED, EXIT_UNREADABLE};
use anyhow::Result;
use morphtrace_analyzer::load::Want;
use std::path::PathBuf;
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
    let (archives, out, triage): (&[PathBuf], &std::path::Path, _) =
        (&archives, &out, triage.as_deref());
    use morphtrace_analyzer::findings::{self, Outcome};
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
        anyhow::bail!("--budget must be positive");
    }
    if out.exists() {
        anyhow::bail!("{} exists: give a new directory", out.display());
    }
    let triage = morphtrace_analyzer::triage::find(triage)?;
    let mut unreadable = false;
    let want = Want {
        coverage: true,
        ..Want::SUMMARY
    };
    let d = load_inputs(archives, want, &mut unreadable)?;
    let (mut chosen, skipped) = findings::representatives(&d, &triage)?;
    if max > 0 && chosen.len() > max {
        chosen.truncate(max);
    }
    let recorder = recorder.unwrap_or_else(findings::recorder);
    std::fs::create_dir_all(out)?;
    let bar = indicatif::ProgressBar::new(chosen.len() as u64).with_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut outcomes: Vec<Outcome> = Vec::new();
    for (i, r) in chosen.iter().enumerate() {
        let slug = r.slug(i + 1);
        bar.set_message(r.key.join(" / "));
        let mut cmd = std::process::Command::new(&recorder);
        cmd.arg("reduce")
            .arg(&r.archive)
            .args(["--session", &r.session.to_string()])
            .args(["--budget", &budget.to_string()])
            .arg("--out")
            .arg(out.join(&slug));
        if let Some(c) = r.coverage_class() {
            cmd.args(["--class", &c]);
        }
        if r.divergence > 0 {
            cmd.args(["--divergence", &r.divergence.to_string()]);
        }
        // The reduction runs engines on hostile programs: it must not outlive the analyzer
        // (Ctrl-C, a killed parent). Its own children die with it in turn.
        // SAFETY: prctl with PR_SET_PDEATHSIG takes no pointers and is async-signal-safe.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut cmd, || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let o = anyhow::Context::with_context(cmd.output(), || {
            format!(
                "running {} (give the recorder with --recorder)",
                recorder.display()
            )
        })?;
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        let last = |t: &str| {
            t.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .to_string()
        };
        let written = o.status.success() && out.join(&slug).join("README.md").is_file();
        let said = if written {
            stdout.lines().next().unwrap_or("").to_string()
        } else {
            last(&stderr)
        };
        println!(
            "{} [{}] {}: {}",
            if written { "reduced" } else { "NOT REDUCED" },
            r.verdict,
            r.key.join(" / "),
            said
        );
        outcomes.push(Outcome {
            representative: r.clone(),
            bundle: written.then_some(slug),
            said,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    for s in &skipped {
        println!("left out {}: {}", s.key.join(" / "), s.why);
    }
    let summary: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| {
            let r = &o.representative;
            serde_json::json!({
                "family": format!("{:?}", r.family).to_lowercase(),
                "class": r.key,
                "members": r.size,
                "verdict": r.verdict,
                "archive": r.archive,
                "session": r.session,
                "bundle": o.bundle,
                "said": o.said,
            })
        })
        .collect();
    std::fs::write(
        out.join("findings.json"),
        serde_json::to_string_pretty(&summary)? + "\n",
    )?;
    std::fs::write(
        out.join("index.html"),
        findings::index(out, Some(&outcomes), &skipped),
    )?;
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
