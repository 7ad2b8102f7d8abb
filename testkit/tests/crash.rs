//! A writer killed with SIGKILL mid-write loses nothing it had returned from, and can be resumed.

use morphtrace_schema::archive::IndexStatus;
use morphtrace_schema::{ArchiveReader, SessionId};
use morphtrace_testkit::synth;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

const SYNTH: &str = env!("CARGO_BIN_EXE_morphtrace-synth");

/// Runs the synthetic writer, kills it with SIGKILL after `after` sessions were reported durable,
/// and returns the ids it reported.
fn write_and_kill(path: &Path, after: usize, events: usize, resume: bool) -> BTreeSet<SessionId> {
    let mut cmd = Command::new(SYNTH);
    cmd.args(["--sessions", "100000", "--events"])
        .arg(events.to_string())
        .args(["--seed", "7", "--report", "--out"])
        .arg(path)
        .stdout(Stdio::piped());
    if resume {
        cmd.arg("--resume");
    }
    let mut child = cmd.spawn().expect("spawn morphtrace-synth");
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let mut reported = BTreeSet::new();
    while reported.len() < after {
        let line = lines
            .next()
            .expect("writer ended early")
            .expect("read writer output");
        let hex = line.strip_prefix("appended ").expect("report line");
        reported.insert(SessionId(u64::from_str_radix(hex, 16).unwrap()));
    }
    child.kill().expect("SIGKILL"); // std's kill is SIGKILL on Unix
    child.wait().unwrap();
    // Lines already in the pipe were printed after their session was durable: they count too.
    for line in lines.map_while(Result::ok) {
        if let Some(hex) = line.strip_prefix("appended ") {
            reported.insert(SessionId(u64::from_str_radix(hex, 16).unwrap()));
        }
    }
    reported
}

fn ids(r: &ArchiveReader) -> BTreeSet<SessionId> {
    r.sessions()
        .map(|s| s.expect("kept sessions decode").id)
        .collect()
}

#[test]
fn sigkill_keeps_every_returned_session_and_reports_the_cut() {
    let dir = tempfile::tempdir().unwrap();
    let mut torn = 0;
    for (round, after) in [40usize, 150, 333, 5, 600].into_iter().enumerate() {
        let path = dir.path().join(format!("killed-{round}.mtrace"));
        // Large sessions make each write long, so kills often land inside one.
        let reported = write_and_kill(&path, after, 400 + round * 300, false);
        let r = ArchiveReader::open(&path).expect("a killed writer's archive opens");
        assert_eq!(r.recovery().index, IndexStatus::Missing);
        let kept = ids(&r);
        let lost: Vec<_> = reported.difference(&kept).collect();
        assert!(
            lost.is_empty(),
            "sessions reported durable but lost: {lost:?}"
        );
        // At most the one session whose report was not printed yet may be extra.
        assert!(kept.len() <= reported.len() + 1);
        for d in &r.recovery().dropped {
            assert!(d.reason.contains("torn write"), "unexpected damage: {d:?}");
            assert_eq!(
                d.offset + d.len,
                r.recovery().file_len,
                "damage only at the tail"
            );
            torn += 1;
        }
    }
    eprintln!("{torn} of 5 kills landed inside a frame write");
}

#[test]
fn resumed_writer_ends_with_the_same_sessions_as_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.mtrace");
    let status = Command::new(SYNTH)
        .args([
            "--sessions",
            "400",
            "--events",
            "300",
            "--seed",
            "7",
            "--out",
        ])
        .arg(&full)
        .status()
        .unwrap();
    assert!(status.success());

    let resumed = dir.path().join("resumed.mtrace");
    write_and_kill(&resumed, 120, 300, false);
    write_and_kill(&resumed, 50, 300, true); // killed again while resuming
    let status = Command::new(SYNTH)
        .args([
            "--sessions",
            "400",
            "--events",
            "300",
            "--seed",
            "7",
            "--resume",
            "--out",
        ])
        .arg(&resumed)
        .status()
        .unwrap();
    assert!(status.success());

    let a = ArchiveReader::open(&full).unwrap();
    let b = ArchiveReader::open(&resumed).unwrap();
    assert_eq!(b.recovery().index, IndexStatus::Used);
    assert!(b.recovery().is_intact(), "{}", b.recovery());
    let sa: Vec<_> = a.sessions().map(Result::unwrap).collect();
    let mut sb: Vec<_> = b.sessions().map(Result::unwrap).collect();
    assert_eq!(sb.len(), 400, "no session duplicated or missing");
    sb.sort_by_key(|s| s.seed);
    assert_eq!(sa, sb);
    assert_eq!(a.programs(), b.programs());
    // The sessions are the generator's, bit for bit.
    let programs = synth::programs(7, 50);
    assert_eq!(sa[3], synth::session(7, 3, &programs[3], 300));
}
