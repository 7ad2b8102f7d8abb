//! `genmorph` and `falsify`: GenMorph's executions recorded, and its relations' falsification.

use crate::cli::{FalsifyArgs, GenmorphArgs};
use anyhow::{bail, Context, Result};
use morphtrace_recorder::debugger::engines::{self, EngineSpec};
use morphtrace_schema::{ArchiveReader, CampaignConfig};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// The Node that runs the GenMorph harness.
fn harness_node(spec: &Option<String>) -> Result<PathBuf> {
    match spec {
        None => {
            engines::which("node").context("no `node` on PATH (the GenMorph harness runs in Node)")
        }
        Some(s) if s.starts_with("node@") || s == "node" => {
            Ok(EngineSpec::parse(s).map_err(anyhow::Error::msg)?.executable)
        }
        Some(path) => Ok(PathBuf::from(path)),
    }
}

pub(crate) fn genmorph(g: GenmorphArgs, command_line: Vec<String>) -> Result<ExitCode> {
    use morphtrace_recorder::genmorph::{self, record, subjects};
    let (shard, out) = g.shard.resolve(&g.out)?;
    if out.exists() && !g.resume {
        bail!("{} exists (use --resume to continue it)", out.display());
    }
    if g.sources == 0 || g.timeout_ms == 0 {
        bail!("--sources and --timeout-ms must be positive");
    }
    let specs = subjects::select(&g.subjects)?;
    let options = record::Options {
        seed: g.seed,
        sources: g.sources,
        evaluation: g.evaluation,
        rounds: g.rounds.max(1),
        max_training: g.max_training,
        timeout_ms: g.timeout_ms,
        ..record::Options::default()
    };
    let params = vec![
        ("sources".to_string(), g.sources.to_string()),
        ("evaluation".to_string(), g.evaluation.to_string()),
        ("rounds".to_string(), options.rounds.to_string()),
        ("max_training".to_string(), g.max_training.to_string()),
        ("timeout_ms".to_string(), g.timeout_ms.to_string()),
    ];
    let config = CampaignConfig {
        name: g
            .name
            .clone()
            .unwrap_or_else(|| "genmorph executions".into()),
        strategy: "genmorph".into(),
        corpus: specs.iter().map(|s| s.name.to_string()).collect(),
        seeds: g.seed.to_string(),
        params,
        command_line,
    };
    let summary = genmorph::record_all(genmorph::Campaign {
        node: harness_node(&g.node)?,
        subjects: specs,
        options,
        out: out.clone(),
        resume: g.resume,
        config,
        progress: std::io::stderr().is_terminal(),
        shard,
    })?;
    print!("{summary}");
    println!("archive: {}", out.display());
    Ok(if summary.interrupted {
        println!("interrupted: continue with --resume");
        ExitCode::from(130)
    } else if summary.counts.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

pub(crate) fn falsify(f: FalsifyArgs) -> Result<ExitCode> {
    use morphtrace_recorder::genmorph::{falsify, harness};
    use morphtrace_schema::genmorph::relations::{FalsificationReport, RelationSet};
    let text = std::fs::read_to_string(&f.relations)
        .with_context(|| format!("reading {}", f.relations.display()))?;
    let set: RelationSet = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a relations file", f.relations.display()))?;
    let reader = ArchiveReader::open(&f.archive)
        .with_context(|| format!("opening {}", f.archive.display()))?;
    let mut h = harness::Harness::start(&harness_node(&f.node)?)?;
    let opts = falsify::Options {
        seed: f.seed,
        budget: f.budget,
        timeout_ms: f.timeout_ms,
        min_judged: f
            .min_judged
            .unwrap_or_else(|| falsify::Options::default_min_judged(f.budget)),
    };
    let mut results = Vec::new();
    let mut missing: Vec<String> = set.relations.iter().map(|r| r.subject.clone()).collect();
    missing.sort();
    missing.dedup();
    let bar = morphtrace_recorder::progress_bar(
        reader.execution_count(),
        std::io::stderr().is_terminal(),
    );
    for i in 0..reader.execution_count() {
        bar.inc(1);
        let batch = reader.executions(i)?;
        let rels: Vec<_> = set
            .relations
            .iter()
            // Step 2 judges what step 1 left.
            .filter(|r| r.subject == batch.subject.name && (f.all || r.evaluation_fp == 0))
            .cloned()
            .collect();
        missing.retain(|m| *m != batch.subject.name);
        if rels.is_empty() {
            continue;
        }
        bar.set_message(batch.subject.name.clone());
        results.extend(falsify::falsify(
            &mut h,
            &harness::js_dir(),
            &batch,
            &rels,
            &opts,
        )?);
    }
    bar.finish_and_clear();
    if !missing.is_empty() {
        bail!(
            "{} has no executions of {}",
            f.archive.display(),
            missing.join(", ")
        );
    }
    let n = results.iter().filter(|r| r.falsified).count();
    let undecided = results.iter().filter(|r| r.undecided.is_some()).count();
    let skipped: u64 = results.iter().map(|r| u64::from(r.skipped)).sum();
    let report = FalsificationReport {
        seed: f.seed,
        budget: f.budget,
        node: h.node_version.clone(),
        relations_digest: Some(set.digest()),
        min_judged: opts.min_judged,
        results,
    };
    std::fs::write(&f.out, serde_json::to_string_pretty(&report)?)
        .with_context(|| format!("writing {}", f.out.display()))?;
    println!(
        "{n} of {} relations falsified, {undecided} undecided (fewer than {} judged pairs), \
         {skipped} pairs skipped (a call or the relation threw or timed out); report: {}",
        report.results.len(),
        opts.min_judged,
        f.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
