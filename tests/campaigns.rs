//! Campaigns through the `morphtrace-record` binary against real Chromium, Node and Firefox:
//! determinism, SIGKILL and resume, differential summaries, replay.

mod common;
use common::normalized;
use common::root;

use morphtrace_schema::{ArchiveReader, Session, SessionMode};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RECORD: &str = env!("CARGO_BIN_EXE_morphtrace-record");

fn corpus() -> Vec<String> {
    vec![
        root().join("tests/fixtures/prog.js").display().to_string(),
        root().join("corpus/dbdb/manual").display().to_string(),
    ]
}

fn record(args: &[&str], out: &Path) -> Command {
    let mut c = Command::new(RECORD);
    c.arg("run");
    for p in corpus() {
        c.args(["--corpus", &p]);
    }
    c.args(args).arg("--out").arg(out);
    c
}

const CAMPAIGN: &[&str] = &[
    "--engine",
    "chromium",
    "--engine",
    "node",
    "--seeds",
    "1..3",
    "--jobs",
    "2",
    "--max-actions",
    "12",
];

/// CPU of the children this process has waited for, in microseconds.
fn children_cpu_us() -> u64 {
    // SAFETY: getrusage writes one struct rusage, which we own.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) }, 0);
    let us = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    us(u.ru_utime) + us(u.ru_stime)
}

#[test]
fn same_campaign_twice_gives_identical_traces() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.mtrace"), dir.path().join("b.mtrace"));
    let waited_before = children_cpu_us();
    assert!(record(CAMPAIGN, &a).status().unwrap().success());
    let waited = children_cpu_us() - waited_before;
    assert!(record(CAMPAIGN, &b).status().unwrap().success());
    // Every session is charged CPU, and all of them together no more than the recorder and its
    // engines spent (other tests' processes only add to what this process waited for).
    let charged: Vec<Option<u64>> = ArchiveReader::open(&a)
        .unwrap()
        .sessions()
        .map(|s| s.unwrap().cpu_us)
        .collect();
    assert!(charged.iter().all(Option::is_some), "{charged:?}");
    let total: u64 = charged.iter().flatten().sum();
    assert!(
        total > 0 && total <= waited,
        "{total} µs charged of {waited} µs"
    );
    let (sa, sb) = (normalized(&a), normalized(&b));
    assert_eq!(sa.len(), 5 * 3 * 2, "programs × seeds × engines");
    assert!(sa.values().all(|s| s.event_count() > 2));
    for (id, s) in &sa {
        assert_eq!(
            Some(s),
            sb.get(id),
            "session {id} differs between two identical campaigns"
        );
    }
}

#[test]
fn campaign_killed_with_sigkill_resumes_to_the_same_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.mtrace");
    assert!(record(CAMPAIGN, &full).status().unwrap().success());

    let cut = dir.path().join("cut.mtrace");
    // A killed recorder cannot remove its engines' profiles: keep them in the test's directory.
    let mut child = record(CAMPAIGN, &cut)
        .env("TMPDIR", dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let n = ArchiveReader::open(&cut)
            .map(|r| r.session_count())
            .unwrap_or(0);
        if n >= 6 {
            break;
        }
        assert!(Instant::now() < deadline, "the campaign recorded nothing");
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let kept = ArchiveReader::open(&cut).unwrap().session_count();
    assert!(kept < 30, "killed before the end ({kept} sessions)");

    let mut args = CAMPAIGN.to_vec();
    args.push("--resume");
    let out = record(&args, &cut).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("already in the archive"), "{text}");
    let (a, b) = (normalized(&full), normalized(&cut));
    assert_eq!(a.len(), b.len(), "no session lost or duplicated");
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (id, s) in &a {
        assert_eq!(Some(s), b.get(id), "session {id}");
    }
    let r = ArchiveReader::open(&cut).unwrap();
    assert!(r.recovery().is_intact(), "{}", r.recovery());
}

#[test]
fn differential_campaign_is_summarized_by_divergence_type_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d.mtrace");
    let args = [
        "--engine",
        "chromium",
        "--engine",
        "node",
        "--strategy",
        "differential",
        "--seeds",
        "1..4",
    ];
    let o = record(&args, &out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = String::from_utf8_lossy(&o.stdout);
    assert!(summary.contains("recorded 20 sessions"), "{summary}");
    let r = ArchiveReader::open(&out).unwrap();
    assert_eq!(r.header().engines.len(), 2);
    let sessions: Vec<Session> = r.sessions().map(Result::unwrap).collect();
    assert!(sessions
        .iter()
        .all(|s| s.mode == SessionMode::Differential && s.traces.len() == 2));
    for s in sessions.iter().filter(|s| s.divergence.is_some()) {
        let d = s.divergence.as_ref().unwrap();
        assert_eq!(d.sides.len(), 2, "both sides recorded");
        assert!(!d.detail.is_empty());
    }
    // The analyzer summarizes divergences by type.
    let analyze = common::analyzer();
    let info = Command::new(&analyze)
        .arg("info")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(info.status.code(), Some(0));
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(text.contains("differential"), "{text}");
    if sessions.iter().any(|s| s.divergence.is_some()) {
        assert!(text.contains("divergences by type"), "{text}");
    }
    // Replay on Node: the same actions, one session per recorded session, linked to it.
    let replay = dir.path().join("r.mtrace");
    let o = Command::new(RECORD)
        .args(["replay"])
        .arg(&out)
        .args(["--engine", "node", "--out"])
        .arg(&replay)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rr = ArchiveReader::open(&replay).unwrap();
    let replayed: Vec<Session> = rr.sessions().map(Result::unwrap).collect();
    assert_eq!(replayed.len(), sessions.len());
    for s in &replayed {
        assert_eq!(s.mode, SessionMode::Replay);
        let parent = s.parent.expect("linked to the recorded session").session;
        let orig = sessions.iter().find(|o| o.id == parent).unwrap();
        // Node is deterministic: the replay reproduces Node's side of the original, every
        // action and every answer (a replay that issued fewer actions fails here).
        assert!(orig.traces[1].actions().count() > 1, "{parent}");
        assert_eq!(
            common::events(&s.traces[0]),
            common::events(&orig.traces[1]),
            "replay of {parent}"
        );
    }
}

/// Firefox in campaigns: deterministic, differential against Chromium, replayed onto Firefox.
#[test]
fn firefox_campaigns_are_deterministic_differential_and_replayable() {
    let dir = tempfile::tempdir().unwrap();
    let ff = [
        "--engine",
        "firefox",
        "--seeds",
        "1..2",
        "--max-actions",
        "12",
    ];
    let (a, b) = (dir.path().join("a.mtrace"), dir.path().join("b.mtrace"));
    assert!(record(&ff, &a).status().unwrap().success());
    assert!(record(&ff, &b).status().unwrap().success());
    let (sa, sb) = (normalized(&a), normalized(&b));
    assert_eq!(sa.len(), 5 * 2, "programs × seeds");
    for (id, s) in &sa {
        assert_eq!(
            Some(s),
            sb.get(id),
            "Firefox session {id} is not reproducible"
        );
    }
    let d = dir.path().join("cf.mtrace");
    let args = [
        "--engine",
        "chromium",
        "--engine",
        "firefox",
        "--strategy",
        "differential",
        "--seeds",
        "1..2",
    ];
    let o = record(&args, &d).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sessions: Vec<Session> = ArchiveReader::open(&d)
        .unwrap()
        .sessions()
        .map(Result::unwrap)
        .collect();
    assert_eq!(sessions.len(), 10);
    // dbdb-manual/1.js declares a parameter twice: Firefox shows the first argument, V8 the
    // last (the binding's real value). Some seed stops in that function and diverges there.
    assert!(
        sessions.iter().any(|s| s
            .divergence
            .as_ref()
            .is_some_and(|d| d.detail.starts_with("param: "))),
        "no duplicate-parameter divergence"
    );
    let r = dir.path().join("r.mtrace");
    let o = Command::new(RECORD)
        .arg("replay")
        .arg(&d)
        .args(["--engine", "firefox", "--out"])
        .arg(&r)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let replayed: Vec<Session> = ArchiveReader::open(&r)
        .unwrap()
        .sessions()
        .map(Result::unwrap)
        .collect();
    assert_eq!(replayed.len(), sessions.len());
    // Replayed onto Firefox, each session reproduces Firefox's side of the original, up to and
    // including the answer that diverged from Chromium's first (the duplicate parameter among
    // them). What came after may differ: lockstep went on past excused divergences, stepping
    // Firefox where Chromium did not.
    for s in &replayed {
        let parent = s.parent.expect("linked to the recorded session").session;
        let orig = sessions.iter().find(|o| o.id == parent).unwrap();
        let mut want = common::events(&orig.traces[1]);
        if let Some(d) = &orig.divergence {
            let mut actions = 0;
            let end = want
                .iter()
                .position(|e| {
                    if matches!(e, morphtrace_schema::EventKind::Action(_)) {
                        actions += 1;
                    }
                    actions == d.action_index + 1
                        && matches!(e, morphtrace_schema::EventKind::Output(_))
                })
                .map_or(want.len(), |i| i + 1);
            want.truncate(end);
        }
        let got = common::events(&s.traces[0]);
        assert!(
            got.len() >= want.len() && got[..want.len()] == want[..],
            "replay of {parent} on Firefox: {} events, the original's side {}",
            got.len(),
            want.len()
        );
    }
}

#[test]
fn bad_flags_and_inputs_fail_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.mtrace");
    let run = |args: &[&str]| Command::new(RECORD).args(args).output().unwrap();
    let o = run(&[
        "run",
        "--engine",
        "chromium",
        "--corpus",
        "/no/such/dir",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("/no/such/dir"));
    let o = run(&["run", "--engine", "netscape", "--corpus", "x", "--out", "y"]);
    assert_eq!(o.status.code(), Some(2), "unknown engine is a usage error");
    let o = run(&[
        "run",
        "--engine",
        "node",
        "--strategy",
        "differential",
        "--corpus",
        "tests",
        "--out",
        "y",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("two --engine"));
    let o = run(&[
        "run", "--engine", "node", "--seeds", "9..1", "--corpus", "x", "--out", "y",
    ]);
    // Wrong flags exit 2 (docs/concepts.md), an empty seed range and an engine that is not
    // installable on demand among them.
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("empty seed range"), "{err}");
    let o = run(&["engines", "--available", "firefox"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("chromium") && err.contains("deno"), "{err}");
}

/// A campaign in which no session could be judged (every one timed out) exits non-zero, says
/// why by reason, and keeps every session it recorded.
#[test]
fn a_campaign_that_judges_nothing_fails_and_keeps_its_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.mtrace");
    let o = Command::new(RECORD)
        .args(["run", "--engine", "node", "--seeds", "1..2", "--corpus"])
        .arg(root().join("tests/fixtures/loop.js"))
        .args(["--session-timeout", "1", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(
        stdout.contains("0 sessions complete (0.00/s), 2 undecided (timeout 2)"),
        "{stdout}"
    );
    assert!(
        stderr.contains("no session could be judged (2 undecided: timeout 2)"),
        "{stderr}"
    );
    let kept: Vec<Session> = ArchiveReader::open(&out)
        .unwrap()
        .sessions()
        .map(Result::unwrap)
        .collect();
    assert_eq!(kept.len(), 2);
    assert!(kept.iter().all(|s| s.outcome.name() == "timeout"));
}

/// A strategy-specific flag given to a strategy that does not use it is a usage error naming
/// both, for every such pair (never silently ignored).
#[test]
fn a_flag_of_another_strategy_is_refused_for_every_pair() {
    const ALL: [&str; 4] = ["random", "differential", "metamorphic", "coverage"];
    let debugging = &["random", "differential", "metamorphic"][..];
    let flags: &[(&str, Option<&str>, &[&str])] = &[
        ("--bp-per-line", Some("0.2"), debugging),
        ("--remove-prob", Some("0.1"), debugging),
        ("--max-actions", Some("5"), debugging),
        ("--session-timeout", Some("9"), debugging),
        ("--action-timeout", Some("2"), debugging),
        ("--depth", Some("1"), debugging),
        ("--prepared", Some("1"), debugging),
        ("--firefox-breakpoints", Some("same-line"), debugging),
        ("--restart-every", Some("9"), debugging),
        ("--variants", Some("2"), &["coverage"]),
        ("--run-timeout", Some("2"), &["coverage"]),
        ("--no-truth", None, &["coverage"]),
        ("--rounds", Some("2"), &["metamorphic"]),
        ("--transformations", Some("add-no-op"), &["metamorphic"]),
        ("--evaluate-weight", Some("1"), debugging),
        ("--condition-weight", Some("1"), debugging),
        ("--logpoint-weight", Some("1"), debugging),
        ("--pause-on-exceptions", Some("all"), debugging),
        ("--compare-columns", None, &["differential"]),
        ("--ignore-variables", None, &["differential"]),
        ("--ignore-breakpoints", None, &["differential"]),
        ("--ignore-object-shells", None, &["differential"]),
    ];
    // A run that cannot start (no corpus): only the flag check can stop it earlier.
    let run = |strategy: &str, flag: &str, value: Option<&str>| {
        let mut c = Command::new(RECORD);
        c.args([
            "run",
            "--engine",
            "node",
            "--corpus",
            "/no/such",
            "--out",
            "/no/such.mtrace",
        ])
        .args(["--strategy", strategy, flag]);
        if let Some(v) = value {
            c.arg(v);
        }
        c.output().unwrap()
    };
    let mut refused = 0;
    for (flag, value, fits) in flags {
        for strategy in ALL.iter().filter(|s| !fits.contains(s)) {
            let o = run(strategy, flag, *value);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{flag} with {strategy}: {err}");
            assert!(
                err.contains(&format!("{flag} does not apply to --strategy {strategy}")),
                "{flag} with {strategy}: {err}"
            );
            refused += 1;
        }
    }
    // 13 debugger flags × coverage, 3 coverage flags, 2 metamorphic and 4 differential ones × 3.
    assert_eq!(refused, 40);
    // A flag of the strategy itself passes this check (and fails later, on the missing corpus).
    let o = run("metamorphic", "--rounds", Some("2"));
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/no/such"));
}

/// Ctrl-C (SIGINT) stops every kind of campaign alike: the tasks in flight finish, the archive
/// is closed intact, the exit code is 130, and `--resume` records exactly what is missing.
/// One test for the shared runner pieces, over a debugger campaign, a coverage campaign and a
/// GenMorph recording.
#[test]
fn ctrl_c_stops_every_strategy_cleanly_and_resume_completes_it() {
    type Count = fn(&ArchiveReader) -> usize;
    let sessions: Count = |r| r.session_count();
    let executions: Count = |r| r.execution_count();
    let sunspider: Vec<String> = common::sunspider()
        .iter()
        .flat_map(|p| ["--corpus".to_string(), p.display().to_string()])
        .collect();
    let cases: Vec<(&str, Vec<String>, Count, usize)> = vec![
        (
            "random",
            ["run", "--engine", "node", "--seeds", "1"]
                .map(String::from)
                .into_iter()
                .chain(sunspider)
                .collect(),
            sessions,
            10,
        ),
        (
            "coverage",
            [
                "run",
                "--strategy",
                "coverage",
                "--engine",
                "gcov",
                "--corpus",
                "csmith:1..12",
            ]
            .map(String::from)
            .to_vec(),
            sessions,
            12,
        ),
        (
            "genmorph",
            [
                "genmorph",
                "--subjects",
                "mathjs.gcd,mathjs.lcm,mathjs.mod,lodash.repeat",
            ]
            .map(String::from)
            .to_vec(),
            executions,
            4,
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (name, args, count, total) in cases {
        let out = dir.path().join(format!("{name}.mtrace"));
        let child = Command::new(RECORD)
            .args(&args)
            .arg("--out")
            .arg(&out)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(300);
        while ArchiveReader::open(&out).map(|r| count(&r)).unwrap_or(0) == 0 {
            assert!(Instant::now() < deadline, "{name}: nothing recorded");
            std::thread::sleep(Duration::from_millis(50));
        }
        // SAFETY: signalling our own child process.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGINT);
        }
        let o = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(130), "{name}: {stdout}");
        assert!(stdout.contains("interrupted"), "{name}: {stdout}");
        let r = ArchiveReader::open(&out).unwrap();
        assert!(r.recovery().is_intact(), "{name}: {}", r.recovery());
        let kept = count(&r);
        assert!(kept >= 1 && kept < total, "{name}: kept {kept} of {total}");
        let o = Command::new(RECORD)
            .args(&args)
            .args(["--resume", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let r = ArchiveReader::open(&out).unwrap();
        assert_eq!(count(&r), total, "{name}: resumed to the whole campaign");
        if name != "genmorph" {
            let ids: BTreeSet<_> = r.sessions().map(|s| s.unwrap().id).collect();
            assert_eq!(ids.len(), total, "{name}: no session twice");
        }
    }
}

/// Processes in process group `group`, with their state letters (zombies included: an exited
/// process nobody reaped is still left behind).
fn processes_in_group(group: u32) -> Vec<(u32, char)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // `pid (comm) S ppid pgrp …`
        let Some(close) = stat.rfind(')') else {
            continue;
        };
        let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        if fields.get(2).and_then(|g| g.parse::<u32>().ok()) == Some(group) {
            out.push((pid, fields[0].chars().next().unwrap_or('?')));
        }
    }
    out
}

/// The recorder waits for its engines' processes (a browser's renderers, GPU and zygote
/// helpers, Firefox's content processes) to exit and reaps them: when it exits, nothing it
/// started is left in its process group, running or zombie. Nor in the temporary directory:
/// profiles, and what the engines themselves put there (Chromium's singleton socket
/// directory, which a killed browser never removes), are gone.
#[test]
fn the_recorder_leaves_no_engine_process_or_temporary_file_behind() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let program = root().join("corpus/dbdb/sunspider/3d-morph.js");
    for engine in ["chromium", "firefox", "node"] {
        let out = dir.path().join(format!("{engine}.mtrace"));
        let tmp = dir.path().join(format!("{engine}-tmp"));
        std::fs::create_dir(&tmp).unwrap();
        let mut child = Command::new(RECORD)
            .env("TMPDIR", &tmp)
            .args(["run", "--engine", engine, "--seeds", "1..2", "--corpus"])
            .arg(&program)
            .arg("--out")
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        let group = child.id();
        let status = child.wait().unwrap();
        assert!(status.success(), "{engine}: {status:?}");
        assert_eq!(
            ArchiveReader::open(&out).unwrap().session_count(),
            2,
            "{engine}"
        );
        let left = processes_in_group(group);
        assert!(left.is_empty(), "{engine}: left behind {left:?}");
        let files: Vec<_> = std::fs::read_dir(&tmp)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(files.is_empty(), "{engine}: left in TMPDIR {files:?}");
    }
}

/// Records the nondeterministic fixtures, seeds 1..8 (`program`: one of them, or "" for all).
fn nondeterministic(
    engines: &[&str],
    strategy: &str,
    program: &str,
    extra: &[&str],
    out: &Path,
) -> std::process::Output {
    let mut c = Command::new(RECORD);
    c.args([
        "run",
        "--strategy",
        strategy,
        "--seeds",
        "1..8",
        "--jobs",
        "2",
    ]);
    c.arg("--corpus")
        .arg(root().join("tests/fixtures/nondeterministic").join(program));
    for e in engines {
        c.args(["--engine", e]);
    }
    c.args(extra).arg("--out").arg(out);
    c.output().unwrap()
}

fn succeeded(o: std::process::Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Every console line the sessions of an archive printed, by the program's first word.
fn consoles(path: &Path) -> std::collections::BTreeMap<String, BTreeSet<String>> {
    let mut out: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for s in normalized(path).values() {
        for t in &s.traces {
            for line in &t.console {
                let key = line.split(' ').next().unwrap_or("").to_string();
                out.entry(key).or_default().insert(line.clone());
            }
        }
    }
    out
}

#[test]
fn math_random_and_clocks_read_the_same_on_every_engine_behind_the_prelude() {
    let dir = tempfile::tempdir().unwrap();
    let mut all: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    // Every Node version too: Node 22 and 24 run under the permission model, where an early
    // prelude once threw in one session of four (it ran mid-start-up).
    for engine in ["chromium", "node", "node@22", "node@24", "firefox"] {
        let out = dir.path().join(format!("{engine}.mtrace"));
        succeeded(nondeterministic(&[engine], "random", "", &[], &out));
        let sessions = normalized(&out);
        assert_eq!(sessions.len(), 16, "{engine}: 2 programs x 8 seeds");
        let undecided: Vec<String> = sessions
            .values()
            .filter_map(|s| s.outcome.undecided().map(|_| format!("{:?}", s.outcome)))
            .collect();
        assert!(undecided.is_empty(), "{engine}: {undecided:?}");
        let c = consoles(&out);
        assert_eq!(
            c.keys().cloned().collect::<Vec<_>>(),
            ["clock", "quiz"],
            "{engine}: both programs ran to their console.log: {c:?}"
        );
        for (k, v) in c {
            all.entry(k).or_default().extend(v);
        }
        let header = ArchiveReader::open(&out).unwrap().header().clone();
        assert!(
            header.engines[0]
                .details
                .iter()
                .any(|(k, v)| k == "determinism" && v.contains("mulberry32")),
            "{engine}: the archive says what was done: {:?}",
            header.engines[0].details
        );
    }
    // Eight seeds on three engines: one line per program, with the fixed clock's date.
    assert_eq!(all["quiz"].len(), 1, "{all:?}");
    assert_eq!(all["clock"].len(), 1, "{all:?}");
    let clock = all["clock"].iter().next().unwrap();
    assert!(clock.contains("2020-01-01T00:00:00"), "{clock}");

    // Without the prelude the same sessions do read the engine's clock and random source.
    let raw = dir.path().join("raw.mtrace");
    succeeded(nondeterministic(
        &["node"],
        "random",
        "",
        &["--no-prelude"],
        &raw,
    ));
    let c = consoles(&raw);
    assert!(c["clock"].len() > 1 || c["quiz"].len() > 1, "{c:?}");
    assert!(
        !c["clock"].iter().any(|l| l.contains("2020-01-01")),
        "{c:?}"
    );
}

#[test]
fn a_nondeterministic_program_is_never_reported() {
    let dir = tempfile::tempdir().unwrap();
    // Behind the prelude: deterministic, judged, no warning.
    let out = dir.path().join("prelude.mtrace");
    succeeded(nondeterministic(&["node"], "metamorphic", "", &[], &out));
    let s = normalized(&out);
    assert!(s.values().all(|s| s.warnings.is_empty()));
    assert!(s.values().all(|s| s.outcome.undecided().is_none()
        && s.outcome != morphtrace_schema::SessionOutcome::Violated));
    assert!(s.values().filter(|s| s.parent.is_some()).count() >= 20);
    // Without it, a violation the program's clock causes is caught by replaying the parent and
    // the follow-up: rejected as nondeterministic, never a warning. (The clock program prints
    // a new time on every run, so no replay reproduces it; a random branch may repeat by chance,
    // which is why the prelude, not the replay, is the guarantee.)
    let raw = dir.path().join("raw.mtrace");
    let o = nondeterministic(
        &["node"],
        "metamorphic",
        "clock.js",
        &["--no-prelude"],
        &raw,
    );
    // Every test case undecided: nothing judged is a failed campaign (exit 1).
    assert!(!o.status.success());
    let s = normalized(&raw);
    assert!(s.values().all(|s| s.warnings.is_empty()));
    let rejected: Vec<&Session> = s
        .values()
        .filter(|s| {
            matches!(&s.outcome, morphtrace_schema::SessionOutcome::Rejected { reason }
                if reason.starts_with("nondeterministic"))
        })
        .collect();
    assert!(
        !rejected.is_empty(),
        "the random program made some follow-up differ"
    );
    assert!(rejected
        .iter()
        .all(|s| s.notes.iter().any(|(k, _)| k == "unconfirmed warning")));
    // Differential: a divergence the randomness causes is not reported either.
    let diff = dir.path().join("diff.mtrace");
    nondeterministic(
        &["node", "node"],
        "differential",
        "clock.js",
        &["--no-prelude"],
        &diff,
    );
    // Two processes in lockstep often read the same millisecond: some sessions agree.
    let s = normalized(&diff);
    assert_eq!(s.len(), 8);
    assert!(
        s.values().all(|s| s.divergence.is_none()),
        "one engine twice never diverges from itself"
    );
    assert!(s.values().any(
        |s| matches!(&s.outcome, morphtrace_schema::SessionOutcome::Rejected { reason }
            if reason.starts_with("nondeterministic"))
    ));
}

/// Expressions shrink too: SunSpider string-unpack-code calls a packer with a 30 KB string
/// argument on one line; statements alone leave that line whole, simplification empties the
/// arguments and squeezes the blanks, and the call-stack divergence (V8 leaves the function
/// unnamed, SpiderMonkey names it after the variable) still shows.
#[test]
fn reduction_empties_long_arguments_and_keeps_the_finding() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bundle");
    let o = Command::new(RECORD)
        .arg("reduce")
        .arg(root().join("traces/differential-chromium-firefox-dbdb.mtrace"))
        .args(["--session", "84", "--budget", "240", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.starts_with("reduced call-stack at stepInto"), "{said}");
    // `reduce` ran the reproducer once and says so, in its line and in the README.
    let checked = "reproduce.mjs shows it without morphtrace";
    assert!(said.contains(checked), "{said}");
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("## Checked when written\n\n{checked}.")),
        "{readme}"
    );
    let original = std::fs::read_to_string(out.join("original.js")).unwrap();
    let program = std::fs::read_to_string(out.join("program.js")).unwrap();
    assert!(original.len() > 20_000, "{}", original.len());
    assert!(program.len() < 200, "{program}");
    assert!(
        program.contains("decompressedPrototype = function"),
        "{program}"
    );
    let o = Command::new("node")
        .arg(out.join("reproduce.mjs"))
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn reduce_writes_a_smaller_case_that_still_diverges_and_refuses_what_it_cannot_reduce() {
    let dir = tempfile::tempdir().unwrap();
    let archive = root().join("traces/differential-chromium-node-dbdb.mtrace");
    let out = dir.path().join("bundle");
    let reduce = |session: &str, out: &Path| {
        Command::new(RECORD)
            .arg("reduce")
            .arg(&archive)
            .args(["--session", session, "--budget", "240", "--out"])
            .arg(out)
            .output()
            .unwrap()
    };
    // SunSpider 3d-morph: Math.sin differs in the last digit between the two V8s.
    let o = reduce("776967b0145917b1", &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.starts_with("reduced variables at resume on chromium@"),
        "{said}"
    );
    let program = std::fs::read_to_string(out.join("program.js")).unwrap();
    let original = std::fs::read_to_string(out.join("original.js")).unwrap();
    assert!(
        program.lines().count() < original.lines().count() / 2,
        "{program}"
    );
    let actions: Vec<morphtrace_schema::Action> =
        serde_json::from_str(&std::fs::read_to_string(out.join("actions.json")).unwrap()).unwrap();
    let before: Vec<morphtrace_schema::Action> =
        serde_json::from_str(&std::fs::read_to_string(out.join("original-actions.json")).unwrap())
            .unwrap();
    assert!(actions.len() < before.len());
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    for part in [
        "## Versions",
        "## Steps",
        "## Expected",
        "## Actual",
        "node@20",
    ] {
        assert!(readme.contains(part), "{part}: {readme}");
    }
    // The standalone reproducer (CDP over Node's WebSocket, no morphtrace) shows it: exit 1,
    // with both engines' renderings of the variable the divergence names.
    let reproduce = |dir: &Path| {
        Command::new("node")
            .arg(dir.join("reproduce.mjs"))
            .output()
            .map(|o| {
                let said = String::from_utf8_lossy(&o.stdout).to_string();
                (o.status.code(), said + &String::from_utf8_lossy(&o.stderr))
            })
            .unwrap()
    };
    let (code, said) = reproduce(&out);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("the finding shows"), "{said}");
    assert!(
        said.contains("chromium (Chrome/") && said.contains("node (node v20"),
        "{said}"
    );
    // Asked about a step where the engines agree (the first breakpoint), it exits 0: it
    // compares, it does not assume.
    let spec = std::fs::read_to_string(out.join("finding.json")).unwrap();
    let mut spec: serde_json::Value = serde_json::from_str(&spec).unwrap();
    assert_eq!(spec["kind"], "variables");
    spec["step"] = serde_json::json!(0);
    spec["kind"] = serde_json::json!("breakpoint-location");
    let agreeing = dir.path().join("agreeing");
    std::fs::create_dir(&agreeing).unwrap();
    for f in ["reproduce.mjs", "program.js", "actions.json", "prelude.js"] {
        std::fs::copy(out.join(f), agreeing.join(f)).unwrap();
    }
    std::fs::write(agreeing.join("finding.json"), spec.to_string()).unwrap();
    let (code, said) = reproduce(&agreeing);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("does not show"), "{said}");
    // Refused, with a reason: a session that did not diverge, an unknown one, an existing DIR.
    let o = reduce("0", &dir.path().join("b"));
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("did not diverge"));
    let o = reduce("00000000000000ff", &dir.path().join("c"));
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no session"));
    let o = reduce("776967b0145917b1", &out);
    assert!(String::from_utf8_lossy(&o.stderr).contains("exists"));
}

/// traces/findings/: every bundle's standalone reproducer still shows its finding on the
/// engines of this machine (exit 1), with nothing of morphtrace but the bundle.
#[test]
fn every_finding_in_traces_reproduces_on_todays_engines() {
    let dir = root().join("traces/findings");
    let mut bundles: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    bundles.sort();
    assert!(!bundles.is_empty(), "{bundles:?}");
    for b in &bundles {
        let (tool, script) = if b.join("reproduce.sh").exists() {
            ("sh", "reproduce.sh")
        } else {
            ("node", "reproduce.mjs")
        };
        assert!(b.join(script).exists(), "{} has no reproducer", b.display());
        assert!(b.join("README.md").exists(), "{}", b.display());
        let tmp = tempfile::tempdir().unwrap();
        let run = || {
            Command::new(tool)
                .arg(b.join(script))
                .args(local_engines(b))
                // coverage.py's bundles: the pinned coverage.py of the clone's `tools/`.
                .env("COVERAGE_PATH", root().join("tools/coverage"))
                // debugpy's bundles: the pinned debugpy of the clone's `tools/`.
                .env("DEBUGPY_PATH", root().join("tools/python"))
                .env("TMPDIR", tmp.path())
                .output()
                .unwrap()
        };
        // A run in which an engine died of a signal nobody sent, or Firefox never loaded the
        // page (the reproducer says so and exits 2), tells nothing of the finding: it runs
        // again, three runs at most, as the recorder starts Firefox once more when a launch
        // does not come up. Node 20 under `--always-turbofan` fails a V8 CHECK in
        // ScopeIterator::VisitLocalScope at a pause on some runs only (2 of 12 here, concurrent
        // compilation's timing); a fresh-clone CI run lost this test once to a Firefox launch.
        let inconclusive = |o: &std::process::Output| {
            let said = [&o.stdout, &o.stderr].map(|b| String::from_utf8_lossy(b).into_owned());
            said.iter().any(|s| {
                s.contains("the engine died of SIG")
                    || s.contains("the page did not load in Firefox")
            })
        };
        let mut o = run();
        for _ in 1..3 {
            if !inconclusive(&o) {
                break;
            }
            o = run();
        }
        // What the engines and the reproducer put in TMPDIR (profiles, Chromium's singleton
        // socket) goes with them.
        let left: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "{}: left in TMPDIR {left:?}", b.display());
        let said = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(1),
            "{}: {said}{}",
            b.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(said.contains("the finding shows"), "{said}");
        // A C program reduced under the undefined-behaviour guard still passes it.
        if b.join("well-defined.sh").exists() {
            let guard = Command::new("sh")
                .arg("well-defined.sh")
                .arg("program.c")
                .current_dir(b)
                .status()
                .unwrap();
            assert!(
                guard.success(),
                "{}: program.c fails its guard",
                b.display()
            );
        }
        if script == "reproduce.mjs" {
            reproducer_agrees_where_the_engines_did(b, &said);
        }
    }
}

/// A metamorphic bundle's reproducer, asked about each run's `start` (both sessions reach the
/// same first pause unless the finding is there), exits 0; at the start itself, the parent
/// against itself.
fn metamorphic_reproducer_agrees_at_the_start(bundle: &Path, mut spec: serde_json::Value) {
    let read = |f: &str| std::fs::read_to_string(bundle.join(f)).unwrap();
    let start = |file: &str| {
        let actions: Vec<serde_json::Value> = serde_json::from_str(&read(file)).unwrap();
        actions.iter().position(|a| a == "Start").unwrap() as u64
    };
    let runs = spec["runs"].as_array_mut().unwrap();
    let parent_start = start(runs[0]["actions"].as_str().unwrap());
    if runs[0]["step"].as_u64() == Some(parent_start) {
        runs[1] = runs[0].clone();
    } else {
        let follow_start = start(runs[1]["actions"].as_str().unwrap());
        runs[0]["step"] = serde_json::json!(parent_start);
        runs[1]["step"] = serde_json::json!(follow_start);
    }
    let copy = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(bundle).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), copy.path().join(e.file_name())).unwrap();
    }
    std::fs::write(copy.path().join("finding.json"), spec.to_string()).unwrap();
    let o = Command::new("node")
        .arg(copy.path().join("reproduce.mjs"))
        .args(local_engines(bundle))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{} at the start: {said}{}",
        bundle.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `LABEL=PATH` for each engine of a bundle whose recorded executable is not on this machine:
/// project-local versions (`node@24`) live in the clone's `tools/`, wherever it is.
fn local_engines(bundle: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(bundle.join("finding.json")) else {
        return Vec::new();
    };
    let spec: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut out = Vec::new();
    for e in spec["engines"].as_array().into_iter().flatten() {
        let (Some(label), Some(exe)) = (e["label"].as_str(), e["executable"].as_str()) else {
            continue;
        };
        if Path::new(exe).exists() {
            continue;
        }
        // node@24.19.0 -> node@24
        let (kind, version) = label.split_once('@').unwrap_or((label, ""));
        let major = version.split('.').next().unwrap_or("");
        let spec =
            morphtrace_recorder::debugger::engines::EngineSpec::parse(&format!("{kind}@{major}"))
                .unwrap_or_else(|e| panic!("{}: {label}: {e}", bundle.display()));
        out.push(format!("{label}={}", spec.executable.display()));
    }
    out
}

/// A debugger bundle's reproducer, asked about the last step before the finding where every
/// engine answered alike in the recording (`answers.json`), finds them alike there: it
/// compares, it does not assume. Its run that showed the finding (`said`) compared every step
/// in the finding's aspect (`steps whose answers differ so`), so that run answers; the same
/// comparison as a run told to compare at that step, without running the engines again. A
/// finding at the first step has no such step: then the first engine is compared with itself
/// at the finding's step, in a run of its own, which must agree too.
fn reproducer_agrees_where_the_engines_did(bundle: &Path, said: &str) {
    let read = |f: &str| std::fs::read_to_string(bundle.join(f)).unwrap();
    let mut spec: serde_json::Value = serde_json::from_str(&read("finding.json")).unwrap();
    if spec.get("runs").is_some() {
        return metamorphic_reproducer_agrees_at_the_start(bundle, spec);
    }
    let answers: Vec<(String, Vec<String>, Vec<String>)> =
        serde_json::from_str(&read("answers.json")).unwrap();
    let step = spec["step"].as_u64().unwrap() as usize;
    let agreed = (0..step).rev().find(|&k| {
        answers
            .iter()
            .all(|(_, a, _)| a.get(k) == answers[0].1.get(k))
    });
    if let Some(k) = agreed {
        let differ: Vec<usize> = said
            .lines()
            .find_map(|l| l.strip_prefix("steps whose answers differ so: "))
            .unwrap_or_else(|| panic!("{}: no step-by-step comparison in {said}", bundle.display()))
            .split(", ")
            .filter(|s| *s != "none")
            .map(|s| s.parse().unwrap())
            .collect();
        // 1-based, as the reproducer shows steps.
        assert!(
            differ.contains(&(step + 1)) && !differ.contains(&(k + 1)),
            "{}: the finding's step {} must differ and step {} agree: {said}",
            bundle.display(),
            step + 1,
            k + 1
        );
        return;
    }
    let first = spec["engines"][0].clone();
    spec["engines"] = serde_json::json!([first.clone(), first]);
    let agreed = step;
    spec["step"] = serde_json::json!(agreed);
    let copy = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(bundle).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), copy.path().join(e.file_name())).unwrap();
    }
    std::fs::write(copy.path().join("finding.json"), spec.to_string()).unwrap();
    let o = Command::new("node")
        .arg(copy.path().join("reproduce.mjs"))
        .args(local_engines(bundle))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{} at step {agreed}: {said}{}",
        bundle.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `morphtrace-analyze findings` end to end: a differential campaign whose divergence is an
/// engine bug by triage (Firefox's duplicate parameters), reduced by the recorder into a bundle
/// whose reproducer shows it, and an index that names it. Lockstep goes on past the known bug
/// (issue 66), so the session meets what follows it too: at the same pause, V8's unreferenced
/// `var` (by design: the class is mixed), and Firefox's pause again at the script's end after a
/// step from there (a class of its own). Every class gets its bundle.
#[test]
fn findings_reduce_every_class_worth_a_bundle_and_index_them() {
    let analyze = Path::new(RECORD).with_file_name("morphtrace-analyze");
    assert!(analyze.is_file(), "{} is not built", analyze.display());
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("d.mtrace");
    let o = Command::new(RECORD)
        .args(["run", "--engine", "chromium", "--engine", "firefox"])
        .args(["--strategy", "differential", "--seeds", "1..1", "--corpus"])
        .arg(root().join("corpus/dbdb/manual/1.js"))
        .arg("--out")
        .arg(&archive)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.path().join("findings");
    let o = Command::new(&analyze)
        .current_dir(root())
        .arg("findings")
        .arg(&archive)
        .args(["--budget", "120", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        said.contains("reduced [mixed] variables / resume / ExpressionStatement"),
        "{said}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("findings.json")).unwrap()).unwrap();
    let entries = summary.as_array().expect("findings.json lists the bundles");
    assert_eq!(entries.len(), 2, "{summary}");
    assert!(
        said.contains("2 of 2 classes reduced into bundles"),
        "{said}"
    );
    let bug = entries
        .iter()
        .find(|e| e["verdict"] == "mixed")
        .expect("the mixed class's bundle");
    let name = bug["bundle"].as_str().unwrap().to_string();
    assert!(
        name.ends_with("-variables-resume-expressionstatement"),
        "{name}"
    );
    let bundle = out.join(&name);
    // The class's first member, the engine bug, is the one reduced.
    let finding: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(bundle.join("finding.json")).unwrap())
            .unwrap();
    assert_eq!(
        finding["detail"], "param: \"arg3\" vs \"arg1\"",
        "{finding}"
    );
    let program = std::fs::read_to_string(bundle.join("program.js")).unwrap();
    assert!(program.lines().count() <= 6, "{program}");
    let o = Command::new("node")
        .arg(bundle.join("reproduce.mjs"))
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains(&format!("id=\"{name}\"")), "{html}");
    assert!(html.contains("mixed"), "{html}");
}

/// Three engines in lockstep vote: every divergence records how the engines split, and when
/// the two V8 debuggers (Chromium, Node) agree against SpiderMonkey, Firefox is the suspect.
/// The known Firefox behaviours on the DBDB fixture (breakpoints on lines without a breakable
/// position, wave 1) must come out that way; the tables name the suspect per class.
#[test]
fn three_engines_vote_and_name_the_suspect() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("three.mtrace");
    let o = Command::new(RECORD)
        .current_dir(root())
        .args([
            "run", "--engine", "chromium", "--engine", "node", "--engine", "firefox",
        ])
        .args(["--strategy", "differential", "--seeds", "1..3", "--corpus"])
        .arg(root().join("corpus/dbdb/manual"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let reader = ArchiveReader::open(&out).unwrap();
    let kinds: Vec<String> = reader
        .header()
        .engines
        .iter()
        .map(|e| e.kind.to_string())
        .collect();
    let mut breakpoint_suspects = Vec::new();
    let mut diverged = 0;
    for s in reader.sessions() {
        let s = s.unwrap();
        let Some(d) = &s.divergence else { continue };
        diverged += 1;
        // Every engine is in exactly one group, and there are two groups at least.
        let mut all: Vec<u16> = d.groups.iter().flatten().map(|e| e.0).collect();
        all.sort();
        assert_eq!(all, [0, 1, 2], "{d:?}");
        assert!(d.groups.len() >= 2, "{d:?}");
        // A suspect is alone in its group, against one group of the two others.
        if let Some(x) = d.suspect {
            assert_eq!(d.groups.len(), 2, "{d:?}");
            assert_eq!(d.groups[1], [x], "{d:?}");
        }
        if d.kind == morphtrace_schema::DivergenceKind::BreakpointLocation {
            breakpoint_suspects.push(d.suspect.map(|e| kinds[e.0 as usize].clone()));
        }
    }
    assert!(diverged > 0);
    assert!(!breakpoint_suspects.is_empty());
    for s in &breakpoint_suspects {
        assert_eq!(s.as_deref(), Some("firefox"), "{breakpoint_suspects:?}");
    }
    // Recorded in the repository, the campaign went on under its triage.toml: the archive names
    // it, and sessions went on past divergences (Firefox's breakpoint placement is by design),
    // each later one among the engines still in lockstep.
    assert!(reader
        .header()
        .campaign
        .param("lockstep.triage.sha256")
        .is_some());
    let mut gone_past = 0;
    for s in reader.sessions() {
        let s = s.unwrap();
        for (k, d) in s.all_divergences().iter().enumerate() {
            gone_past += usize::from(d.continued.is_some());
            if k > 0 {
                assert!(s.all_divergences()[k - 1].continued.is_some(), "{d:?}");
            }
        }
    }
    assert!(gone_past > 0);
    let t = Command::new(common::analyzer())
        .args(["tables"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&t.stdout);
    assert!(text.contains("| Suspect |"), "{text}");
    assert!(
        text.contains("Divergences by suspect engine and type"),
        "{text}"
    );
    assert!(text.contains("| firefox@"), "{text}");
}

/// Chromium, Firefox and JavaScriptCore (Bun): three engine families vote. JavaScriptCore
/// slides a breakpoint on a line outside any function to the program's next statement (V8 and
/// SpiderMonkey go into the next function): such divergences name it the suspect, and
/// `classes` groups the classes by suspect.
#[test]
fn three_engine_families_vote_with_javascriptcore() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("families.mtrace");
    let o = Command::new(RECORD)
        .args([
            "run", "--engine", "chromium", "--engine", "firefox", "--engine", "bun",
        ])
        .args(["--strategy", "differential", "--seeds", "1..3", "--corpus"])
        .arg(root().join("corpus/dbdb/manual"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let reader = ArchiveReader::open(&out).unwrap();
    let header = reader.header().clone();
    let bun = header
        .engines
        .iter()
        .position(|e| e.kind == morphtrace_schema::EngineKind::Bun)
        .expect("bun in the header") as u16;
    let d = &header.engines[bun as usize];
    assert_eq!(d.protocol, morphtrace_schema::Protocol::WebKitInspector);
    assert!(
        d.engine_version
            .as_deref()
            .is_some_and(|v| v.starts_with("JavaScriptCore (WebKit ")),
        "{d:?}"
    );
    let (mut judged, mut bun_suspect) = (0, 0);
    for s in reader.sessions() {
        let s = s.unwrap();
        assert!(s.outcome.decision().is_judged(), "{:?}", s.outcome);
        judged += 1;
        let Some(d) = &s.divergence else { continue };
        let mut all: Vec<u16> = d.groups.iter().flatten().map(|e| e.0).collect();
        all.sort();
        assert_eq!(all, [0, 1, 2], "{d:?}");
        if d.suspect == Some(morphtrace_schema::EngineRef(bun)) {
            assert_eq!(d.groups.len(), 2, "{d:?}");
            assert_eq!(d.groups[1], [morphtrace_schema::EngineRef(bun)], "{d:?}");
            bun_suspect += 1;
        }
    }
    assert!(judged > 0);
    assert!(bun_suspect > 0, "JavaScriptCore never stood alone");
    let c = Command::new(common::analyzer())
        .args(["classes"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&c.stdout);
    assert!(
        text.contains("Divergence classes by suspect engine"),
        "{text}"
    );
    assert!(text.contains("| bun@"), "{text}");
}

/// A replay captures as the archive was recorded (here a depth of 0 and a 3 s action timeout)
/// unless the command line says otherwise, and its own header says what it used.
#[test]
fn a_replay_captures_as_its_archive_was_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let recorded = dir.path().join("a.mtrace");
    let o = Command::new(RECORD)
        .args([
            "run",
            "--engine",
            "node",
            "--depth",
            "0",
            "--action-timeout",
            "3",
        ])
        .args(["--seeds", "1..1", "--corpus"])
        .arg(root().join("tests/fixtures/prog.js"))
        .arg("--out")
        .arg(&recorded)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let param = |archive: &Path, key: &str| {
        ArchiveReader::open(archive)
            .unwrap()
            .header()
            .campaign
            .param(key)
            .map(str::to_string)
    };
    let replay = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let o = Command::new(RECORD)
            .arg("replay")
            .arg(&recorded)
            .args(["--engine", "node"])
            .args(extra)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out
    };
    let inherited = replay("b.mtrace", &[]);
    assert_eq!(param(&inherited, "capture.depth").as_deref(), Some("0"));
    assert_eq!(param(&inherited, "action_timeout_s").as_deref(), Some("3"));
    let given = replay("c.mtrace", &["--depth", "3"]);
    assert_eq!(param(&given, "capture.depth").as_deref(), Some("3"));
    assert_eq!(param(&given, "action_timeout_s").as_deref(), Some("3"));
}

/// `--corpus gen:A..B`: the generated programs are stored with their generator and seed, run
/// once before use (none rejected), and debugged like any other; the same seeds give the same
/// programs and traces. A bad specification is an error naming it.
#[test]
fn generated_programs_are_a_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.mtrace"), dir.path().join("b.mtrace"));
    let run = |out: &Path| {
        Command::new(RECORD)
            .args([
                "run", "--engine", "node", "--corpus", "gen:4..6", "--seeds", "1..2", "--out",
            ])
            .arg(out)
            .output()
            .unwrap()
    };
    succeeded(run(&a));
    succeeded(run(&b));
    let reader = ArchiveReader::open(&a).unwrap();
    let mut seeds: Vec<u64> = reader
        .programs()
        .values()
        .map(|p| match &p.origin {
            morphtrace_schema::ProgramOrigin::Generated { generator, seed } => {
                assert_eq!(generator, "gen");
                assert_eq!(
                    p.text,
                    morphtrace_recorder::corpus::generated::program(*seed)
                );
                *seed
            }
            other => panic!("not a generated program: {other:?}"),
        })
        .collect();
    seeds.sort();
    assert_eq!(seeds, [4, 5, 6]);
    let sessions: Vec<Session> = reader.sessions().map(Result::unwrap).collect();
    assert_eq!(sessions.len(), 6);
    assert!(
        sessions.iter().all(|s| s.outcome.name() != "rejected"),
        "{:?}",
        sessions
            .iter()
            .map(|s| s.outcome.name())
            .collect::<Vec<_>>()
    );
    assert_eq!(normalized(&a), normalized(&b));
    let o = Command::new(RECORD)
        .args(["run", "--engine", "node", "--corpus", "gen:9..x", "--out"])
        .arg(dir.path().join("c.mtrace"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("gen:9..x"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A generated program is used only once it parsed and ran to its checksum under node: each
/// way of failing is a reason, not a program debugged.
#[test]
fn a_generated_program_that_does_not_run_is_rejected_with_the_reason() {
    use morphtrace_recorder::corpus::generated::{check, checking_node, program};
    let node = checking_node().expect("node (scripts/setup.sh)");
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(check(&program(1), &node, dir.path()), Ok(()));
    let why = |text: &str| check(text, &node, dir.path()).unwrap_err();
    assert!(
        why("let x = ;\n").starts_with("does not parse"),
        "{}",
        why("let x = ;\n")
    );
    let thrown = why("throw new TypeError('boom');\n");
    assert!(thrown.contains("TypeError: boom"), "{thrown}");
    let silent = why("console.log('hello');\n");
    assert!(silent.contains("printed no checksum"), "{silent}");
    // Under the permission model the program reads no file but its own.
    let reads = why("require('fs').readFileSync('/etc/hostname');\nconsole.log('checksum 1');\n");
    assert!(
        reads.contains("Access to this API has been restricted"),
        "{reads}"
    );
}
