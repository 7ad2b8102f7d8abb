//! What the recorder's benchmarks share: the SunSpider corpus and a campaign around tasks.
// Each benchmark uses part of this.
#![allow(dead_code)]

use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_recorder::campaign::Campaign;
use morphtrace_recorder::corpus::{self, Loaded};
use morphtrace_recorder::debugger::engines::EngineSpec;
use morphtrace_recorder::debugger::CaptureOptions;
use morphtrace_recorder::task::Task;
use morphtrace_schema::archive::{FsyncPolicy, WriterOptions};
use morphtrace_schema::CampaignConfig;
use std::path::Path;
use std::time::Duration;

/// SunSpider from `corpus/dbdb/sunspider`, materialized under `dir`.
pub fn sunspider(dir: &Path) -> Vec<Loaded> {
    let corpus_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/dbdb/sunspider");
    let paths = corpus::resolve(&[corpus_dir.display().to_string()])
        .expect("the SunSpider corpus in corpus/dbdb");
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
        // The benchmarks time DBDB's lockstep, which stops at the first divergence.
        triage: None,
        capture: CaptureOptions::default(),
        jobs,
        session_timeout: Duration::from_secs(60),
        prepared: pool,
        out: dir.join("bench.mtrace"),
        resume: false,
        writer: WriterOptions {
            fsync: FsyncPolicy::EverySession,
            ..WriterOptions::default()
        },
        progress: false,
        workdir: dir.to_path_buf(),
        shard: None,
        wrap: None,
    }
}

/// The benchmarks' knobs, from the environment: MT_BENCH_SEEDS (default `1..2`),
/// MT_BENCH_BASELINE_SEEDS (each benchmark has its default), MT_BENCH_ONLY (rows whose label
/// contains this text), MT_BENCH_JOBS (morphtrace's workers, default 2: the machine's cores).
pub struct Knobs {
    pub seeds: String,
    pub baseline_seeds: Option<String>,
    pub jobs: usize,
    only: String,
}

impl Knobs {
    pub fn from_env() -> Knobs {
        let var = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.into());
        Knobs {
            seeds: var("MT_BENCH_SEEDS", "1..2"),
            baseline_seeds: std::env::var("MT_BENCH_BASELINE_SEEDS").ok(),
            jobs: var("MT_BENCH_JOBS", "2").parse().unwrap_or(2),
            only: var("MT_BENCH_ONLY", "").to_lowercase(),
        }
    }

    /// Whether the row labelled `label` is to run.
    pub fn wants(&self, label: &str) -> bool {
        self.only.is_empty() || label.to_lowercase().contains(&self.only)
    }
}

/// CPU time of this process and of every process below it (engines and their helpers), read
/// from /proc every 20 ms while it runs: a process's last reading counts, so one that starts
/// and ends between two readings is missed (a lower bound; short helpers are rare).
pub struct CpuMeter {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<f64>,
    started: std::time::Instant,
}

/// (user + system ticks) of `pid`.
fn ticks(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let f: Vec<&str> = s.get(s.rfind(')')? + 1..)?.split_whitespace().collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

impl CpuMeter {
    pub fn start() -> CpuMeter {
        use std::sync::atomic::Ordering;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let me = std::process::id();
        let before = ticks(me).unwrap_or(0);
        let thread = std::thread::spawn(move || {
            let mut last: std::collections::HashMap<u32, u64> = Default::default();
            loop {
                let done = flag.load(Ordering::SeqCst);
                let children = morphtrace_recorder::child::children_by_parent();
                for pid in morphtrace_recorder::child::tree(&children, me) {
                    if let Some(t) = ticks(pid) {
                        last.insert(pid, t);
                    }
                }
                if done {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            // SAFETY: sysconf has no preconditions.
            let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
            let own = last.get(&me).copied().unwrap_or(before) - before;
            let others: u64 = last
                .iter()
                .filter(|(p, _)| **p != me)
                .map(|(_, t)| *t)
                .sum();
            (own + others) as f64 / hz
        });
        CpuMeter {
            stop,
            thread,
            started: std::time::Instant::now(),
        }
    }

    /// (CPU seconds, wall seconds) since `start`.
    pub fn stop(self) -> (f64, f64) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let wall = self.started.elapsed().as_secs_f64();
        (self.thread.join().unwrap_or(0.0), wall)
    }
}
