//! Analyzer benchmark on a large synthetic campaign (written with the schema's writer): load rate
//! into DataFrames on 1 and all threads, peak memory, and the time of `classes` and `tables`.
//! Baselines measured in the same run: decoding the sessions alone (the floor any loader pays),
//! and classes computed without the per-program AST memo (a parse per divergence).
//!
//! Run: `cargo bench --workspace --bench analyze`.
//! Environment: MT_BENCH_SESSIONS (default 100000), MT_BENCH_EVENTS (average per session, default 52),
//! MT_BENCH_ARCHIVE (reuse or create this file instead of a temporary one).

use morphtrace_analyzer::dbdb::ast::LineNodes;
use morphtrace_analyzer::dbdb::classes;
use morphtrace_analyzer::load::{self, Want};
use morphtrace_analyzer::tables;
use morphtrace_schema::rayon::prelude::*;
use morphtrace_schema::*;
use morphtrace_testkit::synth;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Resets the peak (Linux: writing 5 to clear_refs), so that each stage reports its own.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Every session diverges (the issue's `classes` target is over 100,000 divergences): sessions
/// the generator left undiverged get a divergence at one of their actions.
fn generate(path: &Path, sessions: usize, events: usize) {
    let t = Instant::now();
    let programs = synth::programs(7, 60);
    let all: Vec<Session> = (0..sessions as u64)
        .into_par_iter()
        .map(|i| {
            let p = &programs[(i as usize) % programs.len()];
            let mut s = synth::session(7, i, p, events);
            if s.divergence.is_none() {
                let actions: Vec<Action> = s.traces[0].actions().cloned().collect();
                let at = (i as usize * 7) % actions.len().max(1);
                let kinds = [
                    DivergenceKind::BreakpointLocation,
                    DivergenceKind::PauseLocation,
                    DivergenceKind::Termination,
                    DivergenceKind::Variables,
                    DivergenceKind::CallStack,
                ];
                s.divergence = Some(Divergence {
                    kind: kinds[i as usize % kinds.len()].clone(),
                    action_index: at as u32,
                    action: actions.get(at).cloned().unwrap_or(Action::Start),
                    sides: vec![],
                    detail: "synthetic".into(),
                    groups: Vec::new(),
                    suspect: None,
                    continued: None,
                    program_differs: None,
                    pairs: Vec::new(),
                    facts: Vec::new(),
                });
                s.outcome = SessionOutcome::Diverged;
            }
            s
        })
        .collect();
    let mut w = ArchiveWriter::create(
        path,
        &synth::header("analyzer-bench"),
        WriterOptions::default(),
    )
    .expect("create the benchmark archive");
    for p in &programs {
        w.add_program(p).expect("program");
    }
    for s in &all {
        w.append(s).expect("session");
    }
    w.finish().expect("finish");
    println!(
        "generated {} sessions into {} in {:.1} s",
        sessions,
        path.display(),
        t.elapsed().as_secs_f64()
    );
}

fn on_threads<T: Send>(n: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .expect("thread pool")
        .install(f)
}

fn main() {
    let sessions = env_or("MT_BENCH_SESSIONS", 100_000);
    let events = env_or("MT_BENCH_EVENTS", 52);
    let tmp = tempfile::tempdir().expect("tempdir");
    let path: PathBuf = std::env::var("MT_BENCH_ARCHIVE")
        .map(PathBuf::from)
        .unwrap_or_else(|_| tmp.path().join("bench.mtrace"));
    if !path.exists() {
        generate(&path, sessions, events);
    }
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!(
        "archive: {} ({:.0} MB), {threads} threads available",
        path.display(),
        size as f64 / 1e6
    );

    // Baselines: decoding every session (whole, and as the light view without variables) and
    // counting its events, nothing else: the floor of the full and the summary load.
    for n in [1, threads] {
        let t = Instant::now();
        let total: u64 = on_threads(n, || {
            let r = ArchiveReader::open(&path).expect("open");
            (0..r.session_count())
                .into_par_iter()
                .map(|i| {
                    r.session_as::<summary::SessionSummary>(i)
                        .map(|s| s.event_count() as u64)
                        .unwrap_or(0)
                })
                .sum()
        });
        let secs = t.elapsed().as_secs_f64();
        println!(
            "baseline decode of the light view only, {n} thread(s): {total} events in {secs:.2} s = {:.0} events/s",
            total as f64 / secs
        );
    }
    let mut decode_rate = Vec::new();
    for n in [1, threads] {
        let t = Instant::now();
        let total: u64 = on_threads(n, || {
            let r = ArchiveReader::open(&path).expect("open");
            r.par_sessions()
                .map(|s| s.map(|s| s.event_count() as u64).unwrap_or(0))
                .sum()
        });
        let secs = t.elapsed().as_secs_f64();
        decode_rate.push(total as f64 / secs);
        println!(
            "baseline decode of whole sessions only, {n} thread(s): {total} events in {secs:.2} s = {:.0} events/s",
            total as f64 / secs
        );
    }

    println!(
        "\n| load | threads | sessions | events | time | events/s | vs whole-session decode | peak RSS |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let paths = vec![path.clone()];
    let mut summary = None;
    for (name, want) in [("summary frames", Want::SUMMARY), ("all frames", Want::ALL)] {
        for (i, n) in [1, threads].into_iter().enumerate() {
            reset_peak();
            let t = Instant::now();
            let d = on_threads(n, || load::load(&paths, want).expect("load"));
            let secs = t.elapsed().as_secs_f64();
            let rate = d.events as f64 / secs;
            println!(
                "| {name} | {n} | {} | {} | {secs:.2} s | {rate:.0} | {:.0}% | {:.0} MB |",
                d.frames.sessions.height(),
                d.events,
                100.0 * rate / decode_rate[i],
                morphtrace_schema::header::peak_rss_mb()
            );
            if want.events {
                let rows: Vec<String> = d
                    .frames
                    .all()
                    .iter()
                    .map(|(n, f)| format!("{n} {}", f.height()))
                    .collect();
                if n == threads {
                    println!("|  rows: {} |", rows.join(", "));
                }
            } else if n == threads {
                summary = Some(d);
            }
        }
    }
    let d = summary.expect("summary loaded");
    let divergences = d.frames.divergences.height();

    println!();
    let t = Instant::now();
    let c = classes::classes(&d.frames.divergences, &classes::DIVERGENCE_KEYS).expect("classes");
    println!(
        "classes over {divergences} divergences (group, count, share, sort): {:.3} s, {} classes",
        t.elapsed().as_secs_f64(),
        c.height()
    );
    let t = Instant::now();
    let drawn =
        classes::sample(&d.frames.divergences, &classes::DIVERGENCE_KEYS, 50, 0).expect("sample");
    println!(
        "sample of {} (round robin): {:.3} s",
        drawn.len(),
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let ts = tables::all(&d.frames, tables::Paper::All, 6).expect("tables");
    println!(
        "tables ({} tables): {:.3} s",
        ts.len(),
        t.elapsed().as_secs_f64()
    );

    // `classes` end to end as the command runs it: load the summary frames, then group.
    let t = Instant::now();
    let d2 = load::load(&paths, Want::SUMMARY).expect("load");
    let _ = classes::classes(&d2.frames.divergences, &classes::DIVERGENCE_KEYS).expect("classes");
    println!(
        "`classes` end to end (load + AST nodes + group), {threads} threads: {:.2} s",
        t.elapsed().as_secs_f64()
    );

    // Baseline: AST nodes without the memo, one parse per divergence, on the first
    // MT_BENCH_MEMO_SAMPLE sessions (default 2,000; 0: every session, then nothing is estimated).
    let r = ArchiveReader::open(&path).expect("open");
    let wanted = match env_or("MT_BENCH_MEMO_SAMPLE", 2000) {
        0 => r.session_count(),
        n => n.min(r.session_count()),
    };
    let sample: Vec<Session> = (0..wanted).filter_map(|i| r.session(i).ok()).collect();
    let t = Instant::now();
    let nodes: usize = sample
        .par_iter()
        .filter_map(|s| {
            let div = s.divergence.as_ref()?;
            let line = load::trigger_line(&(&s.traces[0]).into(), div.action_index).unwrap_or(0);
            let p = r.program(&s.program)?;
            Some(LineNodes::compute(&p.text).of(line).len())
        })
        .count();
    let secs = t.elapsed().as_secs_f64();
    let per = secs / nodes.max(1) as f64;
    if nodes >= divergences {
        println!(
            "baseline without the AST memo: {secs:.1} s for all {divergences} divergences (measured), {:.1} µs each",
            per * 1e6
        );
    } else {
        println!(
            "baseline without the AST memo: {:.1} µs per divergence measured on {nodes} of {divergences}; \
             an estimated {:.1} s for all of them (extrapolated; MT_BENCH_MEMO_SAMPLE=0 measures all)",
            per * 1e6,
            per * divergences as f64
        );
    }
}
