//! Random truncations, byte flips and splices over a real archive: the reader never panics and
//! either reads (keeping only intact sessions, never a corrupted one) or says why it cannot.

use morphtrace_schema::archive::{FsyncPolicy, IndexStatus, PRELUDE_LEN};
use morphtrace_schema::{ArchiveReader, ArchiveWriter, Session, SessionId, WriterOptions};
use morphtrace_testkit::synth;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// Archives for the fuzz cases: the ones recorded into `traces/` by the project, plus a synthetic one.
fn archives() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let traces = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces");
    if let Ok(dir) = std::fs::read_dir(&traces) {
        let mut paths: Vec<_> = dir
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "mtrace"))
            .collect();
        paths.sort();
        for p in paths.into_iter().take(3) {
            out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fuzz.mtrace");
    let opts = WriterOptions {
        fsync: FsyncPolicy::Never,
        ..WriterOptions::default()
    };
    let mut w = ArchiveWriter::create(&path, &synth::header("fuzz"), opts).unwrap();
    let programs = synth::programs(3, 6);
    for i in 0..40u64 {
        let p = &programs[i as usize % programs.len()];
        w.add_program(p).unwrap();
        w.append(&synth::session(3, i, p, 60)).unwrap();
    }
    w.finish().unwrap();
    out.push(("synthetic".into(), std::fs::read(&path).unwrap()));
    out
}

fn mutate(rng: &mut ChaCha8Rng, data: &[u8]) -> (String, Vec<u8>) {
    let mut d = data.to_vec();
    let what = rng.random_range(0..6);
    let desc = match what {
        0 => {
            let cut = rng.random_range(0..d.len());
            d.truncate(cut);
            format!("truncate at {cut}")
        }
        1 | 2 => {
            let flips = rng.random_range(1..=if what == 1 { 1 } else { 16 });
            for _ in 0..flips {
                let at = rng.random_range(0..d.len());
                d[at] ^= 1 << rng.random_range(0..8);
            }
            format!("{flips} bit flips")
        }
        3 => {
            let at = rng.random_range(0..d.len());
            let n = rng.random_range(1..200).min(d.len() - at);
            for b in &mut d[at..at + n] {
                *b = rng.random();
            }
            format!("{n} random bytes at {at}")
        }
        4 => {
            let at = rng.random_range(0..d.len());
            let n = rng.random_range(1..500).min(d.len() - at);
            d.drain(at..at + n);
            format!("{n} bytes deleted at {at}")
        }
        _ => {
            let at = rng.random_range(0..d.len());
            let n = rng.random_range(1..500).min(d.len() - at);
            let chunk = d[at..at + n].to_vec();
            let to = rng.random_range(0..d.len());
            d.splice(to..to, chunk);
            format!("{n} bytes from {at} duplicated at {to}")
        }
    };
    (desc, d)
}

#[test]
fn reader_never_panics_and_never_returns_a_corrupted_session() {
    // One thread per archive: the same cases, over both cores (each archive's cases are drawn
    // from a generator of its own).
    let counts: Vec<(usize, usize, usize)> = std::thread::scope(|scope| {
        let threads: Vec<_> = archives()
            .into_iter()
            .map(|(name, data)| scope.spawn(move || fuzz_one(&name, &data)))
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let (cases, read, refused) = counts
        .iter()
        .fold((0, 0, 0), |a, c| (a.0 + c.0, a.1 + c.1, a.2 + c.2));
    eprintln!("{cases} cases: {read} read (with recovery), {refused} refused with an error");
    assert!(read > refused, "most damage is recoverable");
}

/// 1500 damaged copies of one archive: (cases, read, refused).
fn fuzz_one(name: &str, data: &[u8]) -> (usize, usize, usize) {
    let (mut cases, mut read, mut refused) = (0, 0, 0);
    let original = ArchiveReader::from_bytes(data.to_vec()).unwrap();
    let truth: HashMap<SessionId, Session> = original
        .sessions()
        .map(|s| s.map(|s| (s.id, s)))
        .collect::<Result<_, _>>()
        .unwrap();
    let offsets: Vec<u64> = original.session_frames().iter().map(|f| f.offset).collect();
    // Session frames that end at or before `cut` (the next frame's start bounds each one's
    // end; the last one's end is unknown, so it is never required).
    let whole_before = |cut: usize| offsets.windows(2).filter(|w| w[1] <= cut as u64).count();
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed ^ data.len() as u64);
    for _ in 0..1500 {
        cases += 1;
        let (desc, bytes) = mutate(&mut rng, data);
        let result = std::panic::catch_unwind(|| match ArchiveReader::from_bytes(bytes.clone()) {
            Ok(r) => {
                let report = r.recovery().to_string();
                assert!(!report.is_empty());
                let mut kept = 0;
                for s in r.sessions() {
                    match s {
                        Ok(s) => {
                            let t = truth.get(&s.id);
                            assert_eq!(t, Some(&s), "{name}: {desc}: a session came back altered");
                            kept += 1;
                        }
                        Err(e) => assert!(!e.to_string().is_empty()),
                    }
                }
                if bytes.len() < data.len() && data.starts_with(&bytes) {
                    // A pure truncation loses only sessions whose frame was cut: it
                    // cannot use the index, and keeps every frame before the cut.
                    assert!(r.recovery().index != IndexStatus::Used);
                    let want = whole_before(bytes.len());
                    assert!(
                        kept >= want,
                        "{name}: {desc}: kept {kept} sessions, {want} frames were whole"
                    );
                }
                (true, kept)
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                (false, 0)
            }
        });
        match result {
            Ok((true, _)) => read += 1,
            Ok((false, _)) => refused += 1,
            Err(_) => panic!("{name}: reader panicked on: {desc}"),
        }
    }
    (cases, read, refused)
}

#[test]
fn truncation_keeps_exactly_the_sessions_before_the_cut() {
    let (_, data) = archives().pop().unwrap();
    let full = ArchiveReader::from_bytes(data.clone()).unwrap();
    let offsets: Vec<u64> = full.session_frames().iter().map(|f| f.offset).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..300 {
        let cut = rng.random_range(PRELUDE_LEN + 1..data.len());
        let Ok(r) = ArchiveReader::from_bytes(data[..cut].to_vec()) else {
            // Only a cut inside the header frame makes the archive unreadable.
            assert!(offsets.first().is_none_or(|&o| cut < o as usize + 24));
            continue;
        };
        let kept = r.session_count();
        // Every session frame that starts before the cut and ends before it is kept.
        let expected = offsets
            .iter()
            .enumerate()
            .filter(|(i, &o)| {
                let end = offsets.get(i + 1).copied().unwrap_or(u64::MAX);
                o < cut as u64 && end <= cut as u64
            })
            .count();
        assert!(
            kept >= expected && kept <= expected + 1,
            "cut {cut}: kept {kept}, expected {expected}"
        );
        if cut < data.len() {
            assert!(!r.recovery().is_intact() || r.recovery().index == IndexStatus::Missing);
        }
    }
}

#[test]
fn newer_major_format_is_refused_with_a_clear_message() {
    let (_, mut data) = archives().pop().unwrap();
    data[8] = 9; // major version 9
    let err = ArchiveReader::from_bytes(data).err().expect("refused");
    let msg = err.to_string();
    assert!(msg.contains("9.1") && msg.contains("newer"), "{msg}");
    let err = ArchiveReader::from_bytes(b"PK\x03\x04 not ours".to_vec())
        .err()
        .unwrap();
    assert!(err.to_string().contains("not a morphtrace archive"));
}
