//! Recorder benchmark: sessions per second (complete random sessions, judged differential
//! ones; undecided ones shown by reason, never counted) on SunSpider (`corpus/dbdb/sunspider`) for
//! random campaigns on Chromium, Node, Firefox and JavaScriptCore (Bun) and differential ones
//! (two engines, and the three families Chromium, Firefox, JavaScriptCore), next to a naive
//! baseline measured in the same run on the same seeds (one session at a time, a new target or
//! process created per session, nothing prepared ahead). For both it prints the CPU seconds per
//! session (the recorder and every engine process, from /proc) and CPU/wall, and the floor this
//! machine allows: cores / CPU per session. Prints the recorder's own peak memory (engines are
//! separate processes). Run: `cargo bench --workspace --bench sessions`.
//! Firefox's naive baseline opens a new connection and watcher per session (docs/debugger-protocols.md §3.3);
//! Bun's starts a new process per session on the critical path, as Node's.
//! Environment: MT_BENCH_SEEDS (default `1..2`), MT_BENCH_BASELINE_SEEDS (default: the same),
//! MT_BENCH_ONLY (run the rows whose label contains this text, e.g. `firefox`), MT_BENCH_JOBS
//! (morphtrace's workers, default 2).

mod common;

use morphtrace_recorder::campaign;
use morphtrace_recorder::dbdb;
use morphtrace_recorder::debugger::engines::EngineSpec;
use morphtrace_recorder::parse_seeds;
use morphtrace_recorder::task::RandomParams;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn measure(
    engines: &[&str],
    differential: bool,
    seeds: &str,
    jobs: usize,
    pool: usize,
) -> Measured {
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
    let meter = common::CpuMeter::start();
    let summary = campaign::run(c).unwrap();
    let (cpu, wall) = meter.stop();
    Measured { summary, cpu, wall }
}

/// A campaign's summary with the CPU time of the recorder and its engines.
struct Measured {
    summary: campaign::Summary,
    cpu: f64,
    wall: f64,
}

impl Measured {
    fn cpu_per_session(&self) -> f64 {
        self.cpu / self.summary.tally.recorded.max(1) as f64
    }

    /// `0.098 s/session, CPU/wall 1.65`.
    fn cpu_cell(&self) -> String {
        format!(
            "{:.3} s/session, CPU/wall {:.2}",
            self.cpu_per_session(),
            self.cpu / self.wall.max(1e-9)
        )
    }
}

fn cores() -> f64 {
    std::thread::available_parallelism().map_or(1, |n| n.get()) as f64
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
    let base_seeds = knobs.baseline_seeds.as_deref().unwrap_or(seeds);
    println!("recorder benchmark on SunSpider (26 programs), DBDB Algorithm 1 defaults, fsync every session");
    println!();
    println!("| campaign | morphtrace ({} workers, sessions prepared ahead) | its CPU | naive baseline (1 at a time, nothing prepared) | its CPU | speed-up | floor: cores / CPU per session (reached) | target |", knobs.jobs);
    println!("|---|---|---|---|---|---|---|---|");
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
        (
            "random, JavaScriptCore (Bun)",
            &["bun"][..],
            false,
            "(none set)",
        ),
        (
            "differential, Chromium vs Firefox vs JavaScriptCore",
            &["chromium", "firefox", "bun"][..],
            true,
            "(none set)",
        ),
    ] {
        if !knobs.wants(label) {
            continue;
        }
        let fast = measure(engines, differential, seeds, knobs.jobs, 2);
        let slow = measure(engines, differential, base_seeds, 1, 0);
        let (f, s) = (&fast.summary, &slow.summary);
        let floor = cores() / fast.cpu_per_session();
        let rate = f.tally.recorded as f64 / f.elapsed.as_secs_f64().max(1e-9);
        println!(
            "| {label} | {} | {} | {} | {} | {:.2}× | {floor:.1}/s ({:.0}%) | {target} |",
            cell(f),
            fast.cpu_cell(),
            cell(s),
            slow.cpu_cell(),
            f.tally.rate(f.elapsed) / s.tally.rate(s.elapsed).max(1e-9),
            100.0 * rate / floor,
        );
    }
    println!();
    println!(
        "recorder peak RSS (engines are separate processes): {:.0} MB (target ≤ 300 MB)",
        morphtrace_schema::header::peak_rss_mb()
    );
}
