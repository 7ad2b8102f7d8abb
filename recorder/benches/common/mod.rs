//! What the recorder's benchmarks share: the SunSpider corpus and a campaign around tasks.

use morphtrace_recorder::campaign::{Campaign, Task};
use morphtrace_recorder::corpus::{self, Loaded};
use morphtrace_recorder::debugger::engines::EngineSpec;
use morphtrace_recorder::debugger::CaptureOptions;
use morphtrace_schema::archive::{FsyncPolicy, WriterOptions};
use morphtrace_schema::dbdb::ComparisonPolicy;
use morphtrace_schema::CampaignConfig;
use std::path::Path;
use std::time::Duration;

/// SunSpider from `../shared/corpus/dbdb/sunspider`, materialized under `dir`.
pub fn sunspider(dir: &Path) -> Vec<Loaded> {
    let corpus_dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/dbdb/sunspider");
    let paths = corpus::resolve(&[corpus_dir.display().to_string()])
        .expect("the SunSpider corpus in ../shared");
    corpus::load(&paths, dir).unwrap()
}

/// A campaign writing into `dir` with fsync after every session (the recorder's default), no
/// progress bar; `pool` 0 is the naive baseline (nothing prepared ahead).
pub fn campaign(
    specs: Vec<EngineSpec>,
    programs: Vec<Loaded>,
    tasks: Vec<Task>,
    jobs: usize,
    pool: usize,
    dir: &Path,
) -> Campaign {
    Campaign {
        specs,
        programs,
        tasks,
        config: CampaignConfig::default(),
        policy: ComparisonPolicy::default(),
        capture: CaptureOptions::default(),
        jobs,
        session_timeout: Duration::from_secs(60),
        node_pool: pool,
        out: dir.join("bench.mtrace"),
        resume: false,
        writer: WriterOptions {
            fsync: FsyncPolicy::EverySession,
            ..WriterOptions::default()
        },
        progress: false,
        workdir: dir.to_path_buf(),
    }
}

/// The benchmarks' knobs, from the environment: MT_BENCH_SEEDS (default `1..2`),
/// MT_BENCH_BASELINE_SEEDS (each benchmark has its default), MT_BENCH_ONLY (rows whose label
/// contains this text).
pub struct Knobs {
    pub seeds: String,
    pub baseline_seeds: Option<String>,
    only: String,
}

impl Knobs {
    pub fn from_env() -> Knobs {
        let var = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.into());
        Knobs {
            seeds: var("MT_BENCH_SEEDS", "1..2"),
            baseline_seeds: std::env::var("MT_BENCH_BASELINE_SEEDS").ok(),
            only: var("MT_BENCH_ONLY", "").to_lowercase(),
        }
    }

    /// Whether the row labelled `label` is to run.
    pub fn wants(&self, label: &str) -> bool {
        self.only.is_empty() || label.to_lowercase().contains(&self.only)
    }
}

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}
