//! Recorder benchmark: sessions per second on SunSpider (`../shared/corpus/dbdb/sunspider`) for
//! random campaigns on Chromium and on Node and for a Chromium-vs-Node differential campaign,
//! next to a naive baseline measured in the same run (one session at a time, a new target or
//! process created per session, nothing prepared ahead). Prints the recorder's own peak memory
//! (engines are separate processes). Run: `cargo bench --workspace --bench sessions`.
//! Firefox's naive baseline opens a new connection and watcher per session (cookbook §3.3).
//! Environment: MT_BENCH_SEEDS (default `1..2`), MT_BENCH_BASELINE_SEEDS (default `1`),
//! MT_BENCH_ONLY (run the rows whose label contains this text, e.g. `firefox`).

use morphtrace_recorder::campaign::{self, Campaign};
use morphtrace_recorder::corpus;
use morphtrace_recorder::debugger::CaptureOptions;
use morphtrace_recorder::engines::EngineSpec;
use morphtrace_recorder::parse_seeds;
use morphtrace_recorder::strategy::RandomParams;
use morphtrace_schema::archive::{FsyncPolicy, WriterOptions};
use morphtrace_schema::relation::ComparisonPolicy;
use morphtrace_schema::CampaignConfig;
use std::path::Path;
use std::time::Duration;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

async fn measure(
    engines: &[&str],
    differential: bool,
    seeds: &str,
    jobs: usize,
    pool: usize,
) -> (usize, f64) {
    let dir = tempfile::tempdir().unwrap();
    let corpus_dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/dbdb/sunspider");
    let paths = corpus::resolve(&[corpus_dir.display().to_string()])
        .expect("the SunSpider corpus in ../shared");
    let programs = corpus::load(&paths, dir.path()).unwrap();
    let specs: Vec<EngineSpec> = engines
        .iter()
        .map(|e| EngineSpec::parse(e).unwrap())
        .collect();
    let seeds = parse_seeds(seeds).unwrap();
    let tasks = campaign::generation_tasks(
        &specs,
        &programs,
        &seeds,
        differential,
        &RandomParams::default(),
    );
    let c = Campaign {
        specs,
        programs,
        tasks,
        config: CampaignConfig::default(),
        policy: ComparisonPolicy::default(),
        capture: CaptureOptions::default(),
        jobs,
        session_timeout: Duration::from_secs(60),
        node_pool: pool,
        out: dir.path().join("bench.mtrace"),
        resume: false,
        writer: WriterOptions {
            fsync: FsyncPolicy::EverySession,
            ..WriterOptions::default()
        },
        progress: false,
        workdir: dir.path().to_path_buf(),
    };
    let s = campaign::run(c).await.unwrap();
    (s.recorded, s.recorded as f64 / s.elapsed.as_secs_f64())
}

fn main() {
    let seeds = std::env::var("MT_BENCH_SEEDS").unwrap_or_else(|_| "1..2".into());
    let base_seeds = std::env::var("MT_BENCH_BASELINE_SEEDS").unwrap_or_else(|_| "1".into());
    let only = std::env::var("MT_BENCH_ONLY").unwrap_or_default();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    println!("recorder benchmark on SunSpider (26 programs), DBDB Algorithm 1 defaults, fsync every session");
    println!();
    println!("| campaign | morphtrace (2 workers, sessions prepared ahead) | naive baseline (1 at a time, nothing prepared) | target |");
    println!("|---|---|---|---|");
    for (label, engines, differential, target) in [
        (
            "random, Chromium",
            &["chromium"][..],
            false,
            "≥ 10 sessions/s",
        ),
        ("random, Node", &["node"][..], false, "≥ 4 sessions/s"),
        (
            "differential, Chromium vs Node",
            &["chromium", "node"][..],
            true,
            "≥ 3 runs/s",
        ),
        ("random, Firefox", &["firefox"][..], false, "≥ 2 sessions/s"),
        (
            "differential, Chromium vs Firefox",
            &["chromium", "firefox"][..],
            true,
            "≥ 1.5 runs/s",
        ),
    ] {
        if !only.is_empty() && !label.to_lowercase().contains(&only.to_lowercase()) {
            continue;
        }
        let (n, fast) = rt.block_on(measure(engines, differential, &seeds, 2, 2));
        let (m, slow) = rt.block_on(measure(engines, differential, &base_seeds, 1, 0));
        println!(
            "| {label} | {fast:.2}/s ({n} sessions) | {slow:.2}/s ({m} sessions) | {target} |"
        );
    }
    println!();
    println!(
        "recorder peak RSS (engines are separate processes): {:.0} MB (target ≤ 300 MB)",
        morphtrace_schema::header::peak_rss_mb()
    );
}
