//! `replay`: recorded sessions re-issued on other engines in lockstep, or on each version of a
//! matrix into an archive of its own.

use crate::cli::{campaign_of, is_matrix_dir, EngineArgs, ReplayArgs};
use crate::run::run_and_report;
use anyhow::{bail, Context, Result};
use morphtrace_recorder::debugger::engines::{self, EngineSpec};
use morphtrace_recorder::recorded;
use morphtrace_schema::{ArchiveReader, CampaignConfig, EngineKind};
use std::process::ExitCode;

pub(crate) async fn replay(r: ReplayArgs, command_line: Vec<String>) -> Result<ExitCode> {
    if is_matrix_dir(&r.common.out) {
        return matrix(r, command_line).await;
    }
    let reader = recorded::open(&r.archive)?;
    let engines = r.common.engines.clone();
    lockstep(&r, &reader, engines, r.common.clone(), command_line).await
}

/// The archive's sessions replayed on `engines` in lockstep into `common.out`.
async fn lockstep(
    r: &ReplayArgs,
    reader: &ArchiveReader,
    engines: Vec<EngineSpec>,
    mut common: EngineArgs,
    command_line: Vec<String>,
) -> Result<ExitCode> {
    common.engines = engines;
    let dir = tempfile::Builder::new()
        .prefix("morphtrace-programs-")
        .tempdir()?;
    let replay = morphtrace_recorder::dbdb::replay::tasks(reader, &common.engines, dir.path())?;
    for why in &replay.undecodable {
        eprintln!("morphtrace-record: skipping a session: {why}");
    }
    let (loaded, tasks) = (replay.programs, replay.tasks);
    let mut config = CampaignConfig {
        name: common
            .name
            .clone()
            .unwrap_or_else(|| format!("replay of {}", r.archive.display())),
        strategy: "replay".into(),
        corpus: vec![r.archive.display().to_string()],
        seeds: reader.header().campaign.seeds.clone(),
        params: vec![(
            "replay_of_campaign".into(),
            reader.header().campaign.name.clone(),
        )],
        command_line,
    };
    // What it captured with (inherited from the archive unless given): a reduction or
    // bisection of a replayed session reruns it alike.
    let firefox = common.engines.iter().any(|e| e.kind == EngineKind::Firefox);
    crate::cli::capture(&common)?
        .section(firefox)
        .write(&mut config);
    run_and_report(campaign_of(&common, loaded, tasks, config, dir.path())?).await
}

/// The name of a version in a matrix: `chromium@92.0.0` (the cache's package version),
/// `node@22` (project-local), or the kind and the version the engine reports.
fn matrix_label(spec: &EngineSpec) -> String {
    if let Some(p) = engines::cache::package_of(&spec.executable) {
        let version = p.rsplit('@').next().unwrap_or(&p);
        return format!("{}@{version}", spec.kind);
    }
    if let Some(major) = engines::node_major(&spec.executable) {
        return format!("{}@{major}", spec.kind);
    }
    format!("{}@system", spec.kind)
}

/// `replay ARCHIVE --engine V1 --engine V2 ... --out DIR`: one archive per version.
async fn matrix(r: ReplayArgs, command_line: Vec<String>) -> Result<ExitCode> {
    let reader = recorded::open(&r.archive)?;
    let recorded: Vec<EngineSpec> = reader.header().engines.iter().map(EngineSpec::of).collect();
    let mut plans = Vec::new();
    let mut names = std::collections::HashSet::new();
    for v in &r.common.engines {
        let replaced = r
            .in_place_of
            .as_deref()
            .map(EngineKind::parse)
            .unwrap_or_else(|| v.kind.clone());
        let Some(j) = recorded.iter().position(|e| e.kind == replaced) else {
            bail!(
                "{} has no {replaced} engine for {} to take the place of (its engines: {}); \
                 say which with --in-place-of KIND",
                r.archive.display(),
                v.kind,
                recorded
                    .iter()
                    .map(|e| e.kind.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        };
        let mut engines = recorded.clone();
        engines[j] = v.clone();
        if let Some(missing) = engines.iter().find(|e| !e.executable.is_file()) {
            bail!(
                "the archive's {} ({}) is not on this machine: replay on a machine that has it, \
                 or give the engines in lockstep with --out FILE.mtrace",
                missing.kind,
                missing.executable.display()
            );
        }
        let mut name = matrix_label(v);
        let mut n = 2;
        while !names.insert(name.clone()) {
            name = format!("{}-{n}", matrix_label(v));
            n += 1;
        }
        plans.push((name, engines));
    }
    std::fs::create_dir_all(&r.common.out)
        .with_context(|| format!("creating {}", r.common.out.display()))?;
    let mut worst = ExitCode::SUCCESS;
    for (i, (name, engines)) in plans.into_iter().enumerate() {
        let mut common = r.common.clone();
        common.out = r.common.out.join(format!("{name}.mtrace"));
        common.name = Some(format!(
            "{} on {name}",
            r.common
                .name
                .clone()
                .unwrap_or_else(|| format!("replay of {}", r.archive.display()))
        ));
        println!(
            "== {name} ({} of {}): {}",
            i + 1,
            r.common.engines.len(),
            engines
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join(" + ")
        );
        match lockstep(&r, &reader, engines, common, command_line.clone()).await {
            Ok(code) if code == ExitCode::SUCCESS => {}
            Ok(code) => worst = code,
            Err(e) => {
                // One version that cannot run (too old for a method, missing libraries) does
                // not cost the others.
                eprintln!("morphtrace-record: {name}: {e:#}");
                worst = ExitCode::FAILURE;
            }
        }
    }
    Ok(worst)
}
