//! Metamorphic benchmark: judged test cases (a parent session and its follow-up whose relation
//! was judged; undecided ones are shown by reason, never counted) per second on
//! SunSpider (`corpus/dbdb/sunspider`), every transformation of Table 1, five rounds,
//! on Chromium (and Node) with two workers and targets prepared ahead, next to the same chains
//! run one session at a time with a new target or process per session and nothing prepared,
//! measured in the same run. Run: `cargo bench --workspace --bench metamorphic`.
//! Environment: MT_BENCH_SEEDS (default `1..2`), MT_BENCH_BASELINE_SEEDS (default: the same),
//! MT_BENCH_ONLY (rows whose label contains this text, e.g. `node`), MT_BENCH_JOBS (workers, default 2).

mod common;

use morphtrace_judges::metamorphic as mm;
use morphtrace_recorder::campaign::{self, Summary};
use morphtrace_recorder::debugger::engines::EngineSpec;
use morphtrace_recorder::metamorphic;
use morphtrace_recorder::parse_seeds;
use morphtrace_recorder::task::RandomParams;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn measure(engine: &str, seeds: &str, jobs: usize, pool: usize) -> (Summary, String) {
    let dir = tempfile::tempdir().unwrap();
    let programs = common::sunspider(dir.path());
    let specs = vec![EngineSpec::parse(engine).unwrap()];
    let seeds = parse_seeds(seeds).unwrap();
    let tasks = metamorphic::tasks(
        &specs,
        &programs,
        &seeds,
        &RandomParams::default(),
        5,
        &mm::Transformation::TABLE1,
    );
    let c = common::campaign(specs, programs, tasks, jobs, pool, dir.path());
    let meter = common::CpuMeter::start();
    let s = campaign::run(c).unwrap();
    let (cpu, wall) = meter.stop();
    // CPU of the recorder and every engine process, per recorded session.
    let cpu_cell = format!(
        "{:.3} s/session, CPU/wall {:.2}",
        cpu / s.tally.recorded.max(1) as f64,
        cpu / wall.max(1e-9)
    );
    (s, cpu_cell)
}

/// Judged test cases per second: a follow-up whose engine died or timed out is undecided and
/// not counted.
fn rate(s: &Summary) -> f64 {
    s.tally.rate(s.elapsed)
}

fn undecided(s: &Summary) -> String {
    if s.tally.undecided.is_empty() {
        "none".into()
    } else {
        morphtrace_recorder::tally::counts(&s.tally.undecided)
    }
}

fn main() {
    let knobs = common::Knobs::from_env();
    // The baseline records the same chains (same seeds) unless told otherwise.
    let seeds = &knobs.seeds;
    let base_seeds = knobs.baseline_seeds.as_deref().unwrap_or(seeds);
    println!(
        "metamorphic benchmark on SunSpider (26 programs), all of Table 1, 5 rounds, seeds {seeds} \
         (baseline {base_seeds}), fsync every session"
    );
    println!();
    println!("| engine | morphtrace ({} workers, targets prepared ahead) | its CPU | one at a time, a new target per session | its CPU | speed-up | warnings | undecided (morphtrace; baseline) | target |", knobs.jobs);
    println!("|---|---|---|---|---|---|---|---|---|");
    for (label, engine, target) in [
        ("Chromium", "chromium", "≥ 5 test cases/s"),
        ("Node", "node", "–"),
    ] {
        if !knobs.wants(label) {
            continue;
        }
        let (fast, fast_cpu) = measure(engine, seeds, knobs.jobs, 2);
        let (slow, slow_cpu) = measure(engine, base_seeds, 1, 0);
        println!(
            "| {label} | {:.2}/s ({} test cases judged, {} sessions, {:.1} s) | {fast_cpu} | {:.2}/s ({} test cases judged, {:.1} s) | {slow_cpu} | {:.1}× | {} | {}; {} | {target} |",
            rate(&fast),
            fast.tally.judged,
            fast.tally.recorded,
            fast.elapsed.as_secs_f64(),
            rate(&slow),
            slow.tally.judged,
            slow.elapsed.as_secs_f64(),
            rate(&fast) / rate(&slow),
            fast.counts.warnings.values().sum::<usize>(),
            undecided(&fast),
            undecided(&slow),
        );
    }
    println!();
    println!("the paper (ISSTA 2019, §5): about 0.07 test cases/s per virtual machine");
    println!(
        "recorder peak RSS (engines are separate processes): {:.0} MB",
        morphtrace_schema::header::peak_rss_mb()
    );
}
