//! Recorder benchmark: sessions per second (complete random sessions, judged differential
//! ones; undecided ones shown by reason, never counted) on SunSpider (`../shared/corpus/dbdb/sunspider`) for
//! random campaigns on Chromium and on Node and for a Chromium-vs-Node differential campaign,
//! next to a naive baseline measured in the same run (one session at a time, a new target or
//! process created per session, nothing prepared ahead). Prints the recorder's own peak memory
//! (engines are separate processes). Run: `cargo bench --workspace --bench sessions`.
//! Firefox's naive baseline opens a new connection and watcher per session (cookbook §3.3).
//! Environment: MT_BENCH_SEEDS (default `1..2`), MT_BENCH_BASELINE_SEEDS (default `1`),
//! MT_BENCH_ONLY (run the rows whose label contains this text, e.g. `firefox`).

mod common;

use morphtrace_recorder::campaign;
use morphtrace_recorder::dbdb::{self, RandomParams};
use morphtrace_recorder::debugger::engines::EngineSpec;
use morphtrace_recorder::parse_seeds;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn measure(
    rt: &tokio::runtime::Runtime,
    engines: &[&str],
    differential: bool,
    seeds: &str,
    jobs: usize,
    pool: usize,
) -> campaign::Summary {
    let dir = tempfile::tempdir().unwrap();
    let programs = common::sunspider(dir.path());
    let specs: Vec<EngineSpec> = engines
        .iter()
        .map(|e| EngineSpec::parse(e).unwrap())
        .collect();
    let seeds = parse_seeds(seeds).unwrap();
    let tasks = dbdb::generation_tasks(
        &specs,
        &programs,
        &seeds,
        differential,
        &RandomParams::default(),
    );
    let c = common::campaign(specs, programs, tasks, jobs, pool, dir.path());
    campaign::run(c, rt.handle().clone()).unwrap()
}

/// `9.81/s (52 complete of 52; undecided: timeout 1)`: the rate counts complete (random) or
/// judged (differential) sessions only; the rest are shown by reason.
fn cell(s: &campaign::Summary) -> String {
    let t = &s.tally;
    let mut c = format!(
        "{:.2}/s ({} of {} sessions",
        t.rate(s.elapsed),
        t.judged,
        t.recorded
    );
    if !t.undecided.is_empty() {
        c.push_str(&format!(
            "; undecided: {}",
            morphtrace_recorder::tally::counts(&t.undecided)
        ));
    }
    c.push(')');
    c
}

fn main() {
    let knobs = common::Knobs::from_env();
    let seeds = &knobs.seeds;
    let base_seeds = knobs.baseline_seeds.as_deref().unwrap_or("1");
    let rt = common::runtime();
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
        if !knobs.wants(label) {
            continue;
        }
        let fast = measure(&rt, engines, differential, seeds, 2, 2);
        let slow = measure(&rt, engines, differential, base_seeds, 1, 0);
        println!("| {label} | {} | {} | {target} |", cell(&fast), cell(&slow));
    }
    println!();
    println!(
        "recorder peak RSS (engines are separate processes): {:.0} MB (target ≤ 300 MB)",
        morphtrace_schema::header::peak_rss_mb()
    );
}
