//! Planted faults against the triage (issue 66): one differential campaign on real engines, then
//! the same campaign once per fault with the first engine's debugger lying in that one way (the
//! fault layer of `tests/support/faults.rs`). Every archive records what was planted
//! (`fault.planted`, `fault.engine`) and which campaign it belongs with (`fault.campaign`);
//! `morphtrace-analyze triage --check` reads them back and counts, per fault and per rule, the
//! divergences the fault caused (met in the faulty campaign, not in the real one, at the same
//! program, seed, action, kind and detail) that a rule excused. `scripts/fault-matrix.sh` runs it
//! for every pair `tests/fixtures/faults/` holds.
//!
//! ```text
//! cargo run --example fault-matrix -- --faulty node --against firefox \
//!     --corpus 'gen:1..20' --seeds 1..2 --out tests/fixtures/faults/node-vs-firefox
//! ```

// The tests' fault layer, whole; the campaign plants only the faults that need no program.
#[allow(dead_code)]
#[path = "../../tests/support/faults.rs"]
mod faults;

use anyhow::{bail, Context, Result};
use clap::Parser;
use faults::{Fault, FaultyEngine};
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_recorder::campaign::{self, Campaign};
use morphtrace_recorder::debugger::engines::EngineSpec;
use morphtrace_recorder::debugger::CaptureOptions;
use morphtrace_recorder::task::{ExceptionChoice, RandomParams};
use morphtrace_recorder::{corpus, dbdb, parse_seeds};
use morphtrace_schema::archive::WriterOptions;
use morphtrace_schema::CampaignConfig;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Records a differential campaign on real engines and once more per planted fault.
#[derive(Parser)]
struct Args {
    /// The engine whose debugger lies (the campaign's first engine).
    #[arg(long)]
    faulty: String,
    /// The engine it is compared with, honest.
    #[arg(long)]
    against: String,
    /// Programs, as `morphtrace-record run --corpus` takes them.
    #[arg(long, required = true)]
    corpus: Vec<String>,
    /// Seeds, as `run --seeds`.
    #[arg(long, default_value = "1..2")]
    seeds: String,
    /// Faults to plant (names as `fault.planted` records them); all of the campaign faults when
    /// none is given.
    #[arg(long = "fault")]
    faults: Vec<String>,
    /// The folder the archives go to: `real.mtrace` and one `<fault>.mtrace` per fault.
    #[arg(long)]
    out: PathBuf,
    /// The triage lockstep goes on under.
    #[arg(long, default_value = "triage.toml")]
    triage: PathBuf,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
}

fn main() -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let a = Args::parse();
    let faults: Vec<Option<Fault>> = if a.faults.is_empty() {
        Fault::CAMPAIGN.iter().cloned().map(Some).collect()
    } else {
        a.faults
            .iter()
            .map(|n| {
                Fault::CAMPAIGN
                    .iter()
                    .find(|f| f.name() == n)
                    .cloned()
                    .map(Some)
                    .with_context(|| format!("no campaign fault is named {n}"))
            })
            .collect::<Result<_>>()?
    };
    let specs = vec![
        EngineSpec::parse(&a.faulty).map_err(anyhow::Error::msg)?,
        EngineSpec::parse(&a.against).map_err(anyhow::Error::msg)?,
    ];
    let seeds = parse_seeds(&a.seeds).map_err(anyhow::Error::msg)?;
    let triage = morphtrace_judges::triage::find(Some(&a.triage))?;
    if triage.path.is_none() {
        bail!("{}: no triage", a.triage.display());
    }
    let triage = Arc::new(triage);
    std::fs::create_dir_all(&a.out)?;
    let dir = tempfile::tempdir()?;
    let programs = corpus::load_specs(&a.corpus, dir.path())?;
    if programs.is_empty() {
        bail!("the corpus holds no programs");
    }
    // DBDB's four actions and every modern one the engines share, exception pauses drawn.
    let params = RandomParams {
        evaluate_weight: 1.0,
        condition_weight: 1.0,
        logpoint_weight: 1.0,
        set_variable_weight: 1.0,
        continue_weight: 1.0,
        exceptions: ExceptionChoice::parse("random"),
        ..RandomParams::default()
    };
    let label = format!(
        "{} vs {} | {} | seeds {}",
        a.faulty,
        a.against,
        a.corpus.join(" "),
        a.seeds
    );
    for fault in std::iter::once(None).chain(faults) {
        let name = fault.as_ref().map_or("none", |f| f.name());
        let out = a.out.join(format!(
            "{}.mtrace",
            if fault.is_some() { name } else { "real" }
        ));
        if out.exists() {
            eprintln!("{} exists: kept", out.display());
            continue;
        }
        let mut kv = params.params();
        kv.extend([
            ("fault.campaign".to_string(), label.clone()),
            ("fault.planted".to_string(), name.to_string()),
            ("fault.engine".to_string(), "0".to_string()),
        ]);
        let tasks = dbdb::generation_tasks(&specs, &programs, &seeds, true, &params);
        let wrap: Option<campaign::Wrap> = fault.clone().map(|f| {
            Arc::new(move |i: usize, e| {
                if i == 0 {
                    FaultyEngine::wrap(e, f.clone())
                } else {
                    e
                }
            }) as campaign::Wrap
        });
        let c = Campaign {
            specs: specs.clone(),
            programs: programs.clone(),
            tasks,
            config: CampaignConfig {
                name: format!("planted fault {name}: {label}"),
                strategy: "differential".into(),
                corpus: a.corpus.clone(),
                seeds: a.seeds.clone(),
                params: kv,
                command_line: std::env::args().collect(),
            },
            policy: ComparisonPolicy::default(),
            triage: Some(triage.clone()),
            capture: CaptureOptions::default(),
            jobs: a.jobs,
            session_timeout: Duration::from_secs(60),
            prepared: 1,
            out: out.clone(),
            resume: false,
            writer: WriterOptions::default(),
            progress: false,
            workdir: dir.path().to_path_buf(),
            shard: None,
            wrap,
        };
        let t0 = std::time::Instant::now();
        let summary = campaign::run(c)?;
        eprint!(
            "{name}: {:.0} s -> {}\n{summary}",
            t0.elapsed().as_secs_f64(),
            out.display()
        );
    }
    Ok(())
}
