//! Archive benchmark: writes and reads a campaign of realistic sessions and prints throughput,
//! size and compression next to a baseline measured in the same run (JSON Lines, the format a
//! quick tool would reach for). Run: `cargo bench --workspace --bench archive`.
//! Environment: MT_BENCH_SESSIONS (default 10000), MT_BENCH_EVENTS (average per session, default 110).

use morphtrace_schema::archive::{FsyncPolicy, IndexStatus};
use morphtrace_schema::rayon::prelude::*;
use morphtrace_schema::{ArchiveReader, ArchiveWriter, Session, WriterOptions};
use morphtrace_testkit::synth;
use std::io::{BufRead, BufWriter, Write};
use std::time::Instant;

// The binaries use mimalloc; measure what they run.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn write_archive(
    path: &std::path::Path,
    sessions: &[Session],
    programs: &[morphtrace_schema::Program],
    fsync: FsyncPolicy,
) -> f64 {
    let _ = std::fs::remove_file(path);
    let t = Instant::now();
    let encoding = if std::env::var("MT_BENCH_COMPACT").is_ok() {
        morphtrace_schema::archive::Encoding::Compact
    } else {
        morphtrace_schema::archive::Encoding::Named
    };
    let opts = WriterOptions {
        fsync,
        encoding,
        ..WriterOptions::default()
    };
    let mut w = ArchiveWriter::create(path, &synth::header("bench"), opts).unwrap();
    for p in programs {
        w.add_program(p).unwrap();
    }
    for s in sessions {
        w.append(s).unwrap();
    }
    w.finish().unwrap();
    t.elapsed().as_secs_f64()
}

fn main() {
    // `cargo bench` passes `--bench`; filters are not supported, everything runs.
    let n = env_or("MT_BENCH_SESSIONS", 10_000);
    let avg = env_or("MT_BENCH_EVENTS", 110);
    let threads = rayon::current_num_threads();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.mtrace");

    let programs = synth::programs(42, 100);
    let sessions: Vec<Session> = (0..n as u64)
        .into_par_iter()
        .map(|i| synth::session(42, i, &programs[i as usize % programs.len()], avg))
        .collect();
    let events: usize = sessions.iter().map(Session::event_count).sum();
    let variables: usize = sessions
        .iter()
        .flat_map(|s| s.traces.iter())
        .flat_map(|t| t.pauses())
        .flat_map(|p| p.top_scopes())
        .map(|s| s.variables.len())
        .sum();
    let raw_bytes: usize = sessions
        .par_iter()
        .map(|s| rmp_serde::to_vec_named(s).unwrap().len())
        .sum();
    println!("archive benchmark: {n} sessions, {events} events, {variables} variables in pauses, {threads} threads");

    // --- morphtrace archive: write
    let write_s = write_archive(&path, &sessions, &programs, FsyncPolicy::Never);
    let size = std::fs::metadata(&path).unwrap().len();
    let fsync_n = n.min(2000);
    let fsync_path = dir.path().join("fsync.mtrace");
    let fsync_s = write_archive(
        &fsync_path,
        &sessions[..fsync_n],
        &programs,
        FsyncPolicy::EverySession,
    );
    let fsync_events: usize = sessions[..fsync_n].iter().map(Session::event_count).sum();

    // --- morphtrace archive: read, 1 thread and all threads
    let t = Instant::now();
    let r = ArchiveReader::open(&path).unwrap();
    assert_eq!(r.recovery().index, IndexStatus::Used);
    let mut read_events = 0;
    for s in r.sessions() {
        read_events += s.unwrap().event_count();
    }
    let read1_s = t.elapsed().as_secs_f64();
    assert_eq!(read_events, events);
    drop(r);
    let t = Instant::now();
    let r = ArchiveReader::open(&path).unwrap();
    let par_events: usize = r.par_sessions().map(|s| s.unwrap().event_count()).sum();
    let readn_s = t.elapsed().as_secs_f64();
    assert_eq!(par_events, events);
    // Unindexed read (a killed recorder's archive): scan instead of seek.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() - 1);
    let t = Instant::now();
    let r = ArchiveReader::from_bytes(bytes).unwrap();
    let scan_events: usize = r.par_sessions().map(|s| s.unwrap().event_count()).sum();
    let scan_s = t.elapsed().as_secs_f64();
    assert!(scan_events >= events - 200);

    // --- baseline: JSON Lines, one session per line, no compression
    let json_path = dir.path().join("bench.jsonl");
    let t = Instant::now();
    {
        let mut f = BufWriter::new(std::fs::File::create(&json_path).unwrap());
        for s in &sessions {
            serde_json::to_writer(&mut f, s).unwrap();
            f.write_all(b"\n").unwrap();
        }
        f.flush().unwrap();
    }
    let json_write_s = t.elapsed().as_secs_f64();
    let json_size = std::fs::metadata(&json_path).unwrap().len();
    let t = Instant::now();
    let f = std::io::BufReader::new(std::fs::File::open(&json_path).unwrap());
    let mut json_events = 0;
    for line in f.lines() {
        let s: Session = serde_json::from_str(&line.unwrap()).unwrap();
        json_events += s.event_count();
    }
    let json_read_s = t.elapsed().as_secs_f64();
    assert_eq!(json_events, events);

    let rate = |e: usize, s: f64| e as f64 / s;
    println!();
    println!("| figure | morphtrace .mtrace | baseline JSON Lines | target |");
    println!("|---|---|---|---|");
    println!(
        "| write, events/s (no fsync) | {:.0} | {:.0} | ≥ 500,000 |",
        rate(events, write_s),
        rate(events, json_write_s)
    );
    println!(
        "| write, events/s (fdatasync every session, {fsync_n} sessions) | {:.0} | – | |",
        rate(fsync_events, fsync_s)
    );
    println!(
        "| read, events/s, 1 thread | {:.0} | {:.0} | ≥ 1,000,000 |",
        rate(events, read1_s),
        rate(events, json_read_s)
    );
    println!(
        "| read, events/s, {threads} threads | {:.0} | – | |",
        rate(events, readn_s)
    );
    println!(
        "| read without index (scan), events/s, {threads} threads | {:.0} | – | |",
        rate(events, scan_s)
    );
    println!(
        "| bytes per event | {:.1} | {:.1} | ≤ 40 |",
        size as f64 / events as f64,
        json_size as f64 / events as f64
    );
    println!(
        "| compression ratio (MessagePack / archive) | {:.1}x | – | |",
        raw_bytes as f64 / size as f64
    );
    println!(
        "| archive size | {:.1} MB | {:.1} MB | |",
        size as f64 / 1e6,
        json_size as f64 / 1e6
    );
    println!(
        "peak RSS of the benchmark process (sessions held in memory): {:.0} MB",
        morphtrace_schema::header::peak_rss_mb()
    );
}
