//! Python sessions' speed (issue 70): sessions per second of debugpy alone, pdb alone and debugpy
//! against pdb, and of coverage.py's two cores (Cod's sessions: each program and its variants
//! under the C and the Python tracer, and the counted copy), each with the warm start (`--python-start warm`, the default: programs
//! forked from a server that has imported debugpy) beside the cold start (debugpy's launcher, as
//! an IDE launches a program; coverage.py: `python -m coverage` per run) measured in the same run on the same programs and seeds, with the
//! CPU seconds per session (the recorder and every process below it, from /proc).
//!
//! Programs: modules of the machine's own CPython standard library run as scripts (`MODULES`,
//! copied; none is in `corpus/`), so that the figures are not tuned to the bundled corpus. pdb
//! has no warm start: its row is measured once a side, as a control of the machine's noise.
//! Run: `cargo bench --workspace --bench python`. Environment: MT_BENCH_SEEDS (default `1..2`),
//! MT_BENCH_ONLY (rows whose label contains this text), MT_BENCH_JOBS (workers, default 2).

mod common;

use morphtrace_recorder::campaign;
use morphtrace_recorder::cod;
use morphtrace_recorder::corpus::{self, Loaded};
use morphtrace_recorder::dbdb;
use morphtrace_recorder::debugger::engines::EngineSpec;
use morphtrace_recorder::debugger::PythonStart;
use morphtrace_recorder::parse_seeds;
use morphtrace_recorder::task::RandomParams;
use std::path::Path;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Standard-library modules that run as scripts in well under a second without a debugger, and
/// end (those with a `__main__` block that reads stdin get an empty one).
const MODULES: &[&str] = &[
    "bisect",
    "colorsys",
    "copy",
    "fnmatch",
    "genericpath",
    "glob",
    "graphlib",
    "keyword",
    "numbers",
    "opcode",
    "queue",
    "reprlib",
    "sched",
    "stat",
    "string",
    "textwrap",
];

/// The modules' sources, copied from the interpreter's library under `dir`.
fn programs(dir: &Path) -> Vec<Loaded> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
        .expect("python3 runs");
    let lib = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let src = dir.join("programs");
    std::fs::create_dir_all(&src).unwrap();
    let mut paths = Vec::new();
    for m in MODULES {
        let to = src.join(format!("std_{m}.py"));
        std::fs::copy(Path::new(&lib).join(format!("{m}.py")), &to)
            .unwrap_or_else(|e| panic!("{lib}/{m}.py: {e}"));
        paths.push(to);
    }
    corpus::load(&paths, dir).unwrap()
}

struct Measured {
    summary: campaign::Summary,
    cpu: f64,
    wall: f64,
}

/// How a differential goes on: DBDB's lockstep (stops at the first divergence), or the CLI's
/// (goes on past what the repository's triage.toml excuses), with breakpoints on any line or
/// on placeable ones only (`--breakpoint-lines`).
#[derive(Clone, Copy)]
enum Lockstep {
    First,
    Triaged { placeable: bool },
}

fn measure(
    engines: &[&str],
    seeds: &str,
    jobs: usize,
    start: PythonStart,
    lockstep: Lockstep,
) -> Measured {
    let dir = tempfile::tempdir().unwrap();
    let programs = programs(dir.path());
    let specs: Vec<EngineSpec> = engines
        .iter()
        .map(|e| EngineSpec::parse(e).unwrap())
        .collect();
    let seeds = parse_seeds(seeds).unwrap();
    let differential = engines.len() > 1;
    let params = RandomParams {
        placeable_lines: matches!(lockstep, Lockstep::Triaged { placeable: true }),
        ..RandomParams::default()
    };
    let tasks = dbdb::generation_tasks(&specs, &programs, &seeds, differential, &params);
    let mut c = common::campaign(specs, programs, tasks, jobs, 2, dir.path());
    c.capture.python_start = start;
    if let Lockstep::Triaged { .. } = lockstep {
        let toml = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../triage.toml");
        c.triage = Some(std::sync::Arc::new(
            morphtrace_judges::triage::find(Some(&toml)).unwrap(),
        ));
    }
    let meter = common::CpuMeter::start();
    let summary = campaign::run(c).unwrap();
    let (cpu, wall) = meter.stop();
    Measured { summary, cpu, wall }
}

/// Cod's sessions on coverage.py's C and Python tracers (P and two variants each, the counted
/// copy, two workers), warm or cold.
fn measure_coverage(seeds: &str, jobs: usize, start: PythonStart) -> Measured {
    let dir = tempfile::tempdir().unwrap();
    let sources = programs(dir.path())
        .into_iter()
        .map(|l| cod::Input::Loaded(Box::new(l.program), l.rejected))
        .collect();
    let opts = cod::Options {
        variants: 2,
        run_timeout: std::time::Duration::from_secs(10),
        truth: true,
        jobs,
        progress: false,
        resume: false,
        writer: morphtrace_schema::WriterOptions {
            fsync: morphtrace_schema::archive::FsyncPolicy::Never,
            ..Default::default()
        },
        csmith_cache: None,
        prelude: true,
        shard: None,
        python_start: start,
    };
    let specs = ["coverage.py", "coverage.py+pytrace"].map(|e| EngineSpec::parse(e).unwrap());
    let meter = common::CpuMeter::start();
    let s = cod::run(
        &specs,
        sources,
        &parse_seeds(seeds).unwrap(),
        morphtrace_schema::CampaignConfig::default(),
        &opts,
        &dir.path().join("c.mtrace"),
    )
    .unwrap();
    let (cpu, wall) = meter.stop();
    Measured {
        summary: campaign::Summary {
            tally: s.tally,
            elapsed: s.elapsed,
            ..Default::default()
        },
        cpu,
        wall,
    }
}

/// `1.23/s (32 of 32 sessions; undecided: …), 0.81 s CPU/session`: the rate counts complete
/// (random) or judged (differential) sessions only; the rest are shown by reason.
fn cell(m: &Measured) -> String {
    let t = &m.summary.tally;
    let mut c = format!(
        "{:.2}/s ({} of {} sessions",
        t.rate(m.summary.elapsed),
        t.judged,
        t.recorded
    );
    if !t.undecided.is_empty() {
        c.push_str(&format!(
            "; undecided: {}",
            morphtrace_recorder::tally::counts(&t.undecided)
        ));
    }
    c.push_str(&format!(
        "), {:.2} s CPU/session, CPU/wall {:.2}",
        m.cpu / t.recorded.max(1) as f64,
        m.cpu / m.wall.max(1e-9)
    ));
    c
}

fn main() {
    let knobs = common::Knobs::from_env();
    println!(
        "Python sessions on {} CPython standard-library modules run as scripts, seeds {}, {} workers, adapters prepared ahead",
        MODULES.len(),
        knobs.seeds,
        knobs.jobs
    );
    println!();
    println!("| campaign | warm start | cold start (debugpy's launcher; python -m coverage) | speed-up | goal |");
    println!("|---|---|---|---|---|");
    let first = Lockstep::First;
    let triaged = Lockstep::Triaged { placeable: false };
    let placeable = Lockstep::Triaged { placeable: true };
    for (label, engines, lockstep, goal) in [
        (
            "random, debugpy",
            &["debugpy"][..],
            first,
            "≥ 5× its cold start",
        ),
        (
            "random, pdb (no warm start: control)",
            &["pdb"][..],
            first,
            "–",
        ),
        (
            "differential, debugpy vs pdb, to the first divergence (DBDB)",
            &["debugpy", "pdb"][..],
            first,
            "≥ 1 run/s",
        ),
        (
            "differential, debugpy vs pdb, past what triage.toml excuses (the CLI's)",
            &["debugpy", "pdb"][..],
            triaged,
            "≥ 1 run/s",
        ),
        (
            "differential, debugpy vs pdb, triaged, --breakpoint-lines placeable",
            &["debugpy", "pdb"][..],
            placeable,
            "≥ 1 run/s",
        ),
        (
            "coverage, coverage.py ctrace and pytrace (Cod)",
            &[][..],
            first,
            "faster than its cold start",
        ),
    ] {
        if !knobs.wants(label) {
            continue;
        }
        let (warm, cold) = if engines.is_empty() {
            (
                measure_coverage(&knobs.seeds, knobs.jobs, PythonStart::Warm),
                measure_coverage(&knobs.seeds, knobs.jobs, PythonStart::Cold),
            )
        } else {
            (
                measure(
                    engines,
                    &knobs.seeds,
                    knobs.jobs,
                    PythonStart::Warm,
                    lockstep,
                ),
                measure(
                    engines,
                    &knobs.seeds,
                    knobs.jobs,
                    PythonStart::Cold,
                    lockstep,
                ),
            )
        };
        let rate = |m: &Measured| m.summary.tally.rate(m.summary.elapsed);
        println!(
            "| {label} | {} | {} | {:.2}× | {goal} |",
            cell(&warm),
            cell(&cold),
            rate(&warm) / rate(&cold).max(1e-9)
        );
    }
}
