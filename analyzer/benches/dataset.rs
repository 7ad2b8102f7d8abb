//! Analysis at scale: `classes` and `tables` over a campaign of many shards, from the archives
//! (decoding every session into DataFrames, the baseline) and from a partitioned Parquet
//! dataset (`export --dataset`: only the frames those commands read). Each path runs in a fresh
//! process of this benchmark, so that its peak RSS is its own; the one-time export is measured
//! too.
//!
//! Run: `cargo bench --workspace --bench dataset`.
//! Environment: MT_BENCH_SHARDS (default 50), MT_BENCH_SESSIONS (per shard, default 4000),
//! MT_BENCH_EVENTS (average per session, default 52: 50 × 4000 × 52 ≈ 10.4 million events),
//! MT_BENCH_DIR (reuse or create the shards and dataset there instead of a temporary directory).

use morphtrace_analyzer::dataset;
use morphtrace_analyzer::dbdb::classes;
use morphtrace_analyzer::load::{self, Archives, Want};
use morphtrace_analyzer::tables;
use morphtrace_schema::rayon::prelude::*;
use morphtrace_schema::*;
use morphtrace_testkit::synth;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Shard `k` of a synthetic differential campaign: sessions with pauses, stacks and variables
/// (testkit's generator), every one diverged so that `classes` has work.
fn generate(path: &Path, k: usize, count: usize, sessions: usize, events: usize) {
    let programs = synth::programs(7, 60);
    let mut header = synth::header("dataset-bench");
    header.shard = Some(Shard::new(k as u32, count as u32).expect("shard"));
    let mut w = ArchiveWriter::create(path, &header, WriterOptions::default()).expect("create");
    for p in &programs {
        w.add_program(p).expect("program");
    }
    let kinds = [
        DivergenceKind::BreakpointLocation,
        DivergenceKind::PauseLocation,
        DivergenceKind::Termination,
        DivergenceKind::Variables,
        DivergenceKind::CallStack,
    ];
    for j in 0..sessions as u64 {
        let i = (k * sessions) as u64 + j;
        let p = &programs[(i as usize) % programs.len()];
        let mut s = synth::session(7, i, p, events);
        if s.divergence.is_none() {
            let actions: Vec<Action> = s.traces[0].actions().cloned().collect();
            let at = (i as usize * 7) % actions.len().max(1);
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
        w.append(&s).expect("session");
    }
    w.finish().expect("finish");
}

/// `classes` and `tables` as the commands compute them; a line of what they found.
fn analyze(d: &Archives) -> String {
    let c = classes::classes(&d.frames.divergences, &classes::DIVERGENCE_KEYS).expect("classes");
    let t = tables::all(&d.frames, tables::Paper::All, 10).expect("tables");
    format!(
        "{} sessions, {} divergences, {} classes, {} tables ({} rows)",
        d.frames.sessions.height(),
        d.frames.divergences.height(),
        c.height(),
        t.len(),
        t.iter().map(|t| t.rows.len()).sum::<usize>()
    )
}

/// One stage, in this (child) process: prints `seconds peak_mb what`.
fn stage(name: &str, dir: &Path, shards: &[PathBuf]) {
    let t = Instant::now();
    let what = match name {
        "archives" => analyze(&load::load(shards, Want::SUMMARY).expect("load the archives")),
        "export" => {
            let w = dataset::write(shards, &dir.join("dataset")).expect("export the dataset");
            format!("{} parts, {} events", w.parts, w.events)
        }
        "dataset" => {
            analyze(&dataset::load(&dir.join("dataset"), Want::SUMMARY).expect("load the dataset"))
        }
        other => panic!("unknown stage {other}"),
    };
    println!(
        "{:.3} {:.0} {what}",
        t.elapsed().as_secs_f64(),
        header::peak_rss_mb()
    );
}

fn main() {
    let count = env_or("MT_BENCH_SHARDS", 50);
    let sessions = env_or("MT_BENCH_SESSIONS", 4000);
    let events = env_or("MT_BENCH_EVENTS", 52);
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir: PathBuf = std::env::var("MT_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| tmp.path().to_path_buf());
    std::fs::create_dir_all(&dir).expect("bench directory");
    let shards: Vec<PathBuf> = (0..count)
        .map(|k| dir.join(format!("bench.shard-{}-of-{count}.mtrace", k + 1)))
        .collect();
    if let Ok(name) = std::env::var("MT_BENCH_STAGE") {
        stage(&name, &dir, &shards);
        return;
    }
    let t = Instant::now();
    shards.par_iter().enumerate().for_each(|(k, p)| {
        if !p.exists() {
            generate(p, k, count, sessions, events);
        }
    });
    let bytes: u64 = shards
        .iter()
        .map(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .sum();
    println!(
        "{count} shards of {sessions} sessions (~{events} events each) in {} ({:.0} MB), ready in {:.1} s",
        dir.display(),
        bytes as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(dir.join("dataset"));
    let exe = std::env::current_exe().expect("this benchmark's executable");
    println!("\n| path | time | peak RSS | what |\n|---|---|---|---|");
    for (name, label) in [
        ("archives", "classes + tables from the archives (baseline)"),
        ("export", "export --dataset (once)"),
        ("dataset", "classes + tables from the dataset"),
    ] {
        let o = Command::new(&exe)
            .env("MT_BENCH_STAGE", name)
            .env("MT_BENCH_DIR", &dir)
            .env("MT_BENCH_SHARDS", count.to_string())
            .output()
            .expect("run a stage");
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "stage {name} failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let line = out.lines().last().unwrap_or_default();
        let mut f = line.splitn(3, ' ');
        let (secs, mb, what) = (
            f.next().unwrap_or("?"),
            f.next().unwrap_or("?"),
            f.next().unwrap_or(""),
        );
        println!("| {label} | {secs} s | {mb} MB | {what} |");
    }
}
