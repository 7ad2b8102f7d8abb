//! `morphtrace-analyze info` on healthy, unfinished, truncated, corrupt and foreign files.

use std::path::Path;
use std::process::{Command, Output};

const ANALYZE: &str = env!("CARGO_BIN_EXE_morphtrace-analyze");

fn synth(path: &Path, extra: &[&str]) {
    // The synthetic generator lives in the testkit package; build the archive through the library.
    use morphtrace_schema::archive::FsyncPolicy;
    use morphtrace_schema::{ArchiveWriter, WriterOptions};
    use morphtrace_testkit::synth;
    let opts = WriterOptions {
        fsync: FsyncPolicy::Never,
        ..WriterOptions::default()
    };
    let mut w = ArchiveWriter::create(path, &synth::header("info-test"), opts).unwrap();
    let programs = synth::programs(5, 4);
    for i in 0..60u64 {
        let p = &programs[i as usize % 4];
        w.add_program(p).unwrap();
        w.append(&synth::session(5, i, p, 80)).unwrap();
    }
    if !extra.contains(&"unfinished") {
        w.finish().unwrap();
    }
}

fn info(args: &[&Path], json: bool) -> Output {
    let mut c = Command::new(ANALYZE);
    c.arg("info");
    if json {
        c.arg("--json");
    }
    c.args(args).output().unwrap()
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn healthy_archive_shows_header_engines_sessions_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.mtrace");
    synth(&a, &[]);
    let o = info(&[&a], false);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(out.contains("campaign  \"info-test\""), "{out}");
    assert!(out.contains("chromium@156.0.8078.79") && out.contains("node@20.20.2"));
    assert!(out.contains("sessions  60"));
    assert!(out.contains("differential") && out.contains("random"));
    assert!(out.contains("programs  4"));
    assert!(out.contains("integrity intact: index used"));
    assert!(!out.contains("panicked") && !err.contains("panicked"));
}

#[test]
fn unfinished_archive_is_intact_but_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.mtrace");
    synth(&a, &["unfinished"]);
    let o = info(&[&a], false);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        out.contains("intact (unfinished)") && out.contains("no index"),
        "{out}"
    );
}

#[test]
fn truncated_archive_prints_the_recovery_report_and_exits_3() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.mtrace");
    synth(&a, &[]);
    let bytes = std::fs::read(&a).unwrap();
    let t = dir.path().join("t.mtrace");
    std::fs::write(&t, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let o = info(&[&t], false);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(3), "{out}{err}");
    assert!(out.contains("DAMAGED (recovered)"), "{out}");
    assert!(out.contains("torn write"), "{out}");
    assert!(!err.contains("panicked"));
    // JSON carries the same report.
    let o = info(&[&t], true);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let kept = v[0]["recovery"]["sessions_kept"].as_u64().unwrap();
    assert!(kept > 0 && kept < 60, "{kept}");
    assert_eq!(v[0]["recovery"]["dropped"].as_array().unwrap().len(), 1);
}

#[test]
fn unreadable_files_give_one_line_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8], &str); 4] = [
        (
            "foreign.mtrace",
            b"{\"not\": \"an archive\"}",
            "not a morphtrace archive",
        ),
        ("empty.mtrace", b"", "empty file"),
        ("short.mtrace", b"MTRACE\r\n\x01", "shorter than"),
        (
            "newer.mtrace",
            b"MTRACE\r\n\x07\x00\x00\x00\x00\x00\x00\x00",
            "newer than this build",
        ),
    ];
    for (name, bytes, expect) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        let o = info(&[&p], false);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{name}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(expect), "{name}: {err}");
    }
    let o = info(&[&dir.path().join("missing.mtrace")], false);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("no such file or directory"));
}

#[test]
fn several_archives_worst_status_wins() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.mtrace");
    synth(&a, &[]);
    let bad = dir.path().join("bad.mtrace");
    std::fs::write(&bad, b"garbage").unwrap();
    let o = info(&[&a, &bad], false);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).0.contains("sessions  60"),
        "good archives are still shown"
    );
}

/// `info` takes folders (every .mtrace below, sorted) and quoted globs, as the other commands
/// do; a folder or glob with no archive is said, and the archives found are still shown.
#[test]
fn folders_and_globs_name_every_archive_in_them() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    for name in ["b.mtrace", "sub/a.mtrace"] {
        synth(&dir.path().join(name), &[]);
    }
    std::fs::write(dir.path().join("notes.txt"), "not an archive").unwrap();
    let shown = |o: &Output| -> Vec<String> {
        text(o)
            .0
            .lines()
            .filter(|l| l.ends_with(".mtrace"))
            .map(|l| l.rsplit('/').next().unwrap().to_string())
            .collect()
    };
    let o = info(&[dir.path()], false);
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
    assert_eq!(shown(&o), ["b.mtrace", "a.mtrace"], "{}", text(&o).0);
    let glob = dir.path().join("*.mtrace");
    let o = info(&[&glob], false);
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
    assert_eq!(shown(&o), ["b.mtrace"]);
    let empty = tempfile::tempdir().unwrap();
    let o = info(&[empty.path(), &glob], false);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).1.contains("no .mtrace archive found"),
        "{:?}",
        text(&o)
    );
    assert_eq!(shown(&o), ["b.mtrace"]);
}

#[test]
fn wrong_flags_are_usage_errors() {
    let o = Command::new(ANALYZE).args(["info"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = Command::new(ANALYZE).args(["frobnicate"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = Command::new(ANALYZE).arg("--help").output().unwrap();
    let (out, _) = text(&o);
    assert!(out.contains("info") && out.contains("offline"));
}

/// An archive says how it was made: the recorder's command line, from its header.
#[test]
fn info_prints_the_command_that_recorded_the_archive() {
    let a = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../traces/differential-chromium-node-dbdb.mtrace");
    let o = info(&[&a], false);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with("command   "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains(
            "morphtrace-record run --engine chromium --engine node --strategy differential"
        ),
        "{line}"
    );
}

/// `info` says how many sessions were judged and how many are undecided, by reason (the
/// README's promise), and counts GenMorph's executions, which are no sessions.
#[test]
fn info_counts_judged_and_undecided_sessions_and_genmorphs_executions() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.mtrace");
    synth(&a, &[]);
    let o = info(&[&a], true);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let judged = v[0]["judged"].as_u64().unwrap();
    let undecided: u64 = v[0]["undecided"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(judged + undecided, 60, "{v}");
    let (out, _) = text(&info(&[&a], false));
    let line = out.lines().find(|l| l.starts_with("decided")).unwrap();
    assert!(
        line.starts_with(&format!("decided   {judged} judged, {undecided} undecided")),
        "{line}"
    );
    let g = Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/genmorph-executions.mtrace");
    let (out, _) = text(&info(&[&g], false));
    let line = out
        .lines()
        .find(|l| l.starts_with("executions"))
        .expect(&out);
    let n: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(n > 0, "{line}");
}

/// A coverage archive's `info` ends with its inconsistencies by relation and profiler (Cod's
/// table, as `tables` prints it), in text and in `--json` (the table's columns and rows); a
/// debugging archive's has none.
#[test]
fn coverage_archives_show_their_inconsistencies() {
    let traces = Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces");
    let (out, _) = text(&info(
        &[&traces.join("coverage-csmith-fixtures.mtrace")],
        false,
    ));
    let table = out
        .split("\ninconsistencies\n")
        .nth(1)
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        table.contains("| Relation | Profiler | Programs with one | Strong | Weak |"),
        "{table}"
    );
    assert!(table.contains("| c2v | gcov/llvm-cov |"), "{table}");
    let (out, _) = text(&info(
        &[&traces.join("differential-chromium-node-dbdb.mtrace")],
        false,
    ));
    assert!(!out.contains("\ninconsistencies\n"), "{out}");
    let json = |archive: &str| -> serde_json::Value {
        let o = info(&[&traces.join(archive)], true);
        assert!(o.status.success(), "{}", text(&o).1);
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let v = json("coverage-csmith-fixtures.mtrace");
    let table = &v[0]["inconsistencies"];
    assert_eq!(table["columns"][0], "Relation", "{table}");
    let rows = table["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("{table}"));
    assert!(
        rows.iter()
            .any(|r| r[0] == "c2v" && r[1] == "gcov/llvm-cov"),
        "{table}"
    );
    let v = json("differential-chromium-node-dbdb.mtrace");
    assert!(v[0].get("inconsistencies").is_none(), "{v}");
}
