//! Hostile programs end one session, never the campaign: every strategy on every engine over a
//! corpus of odd but ordinary inputs (testkit::hostile) finishes, exits 0 (something was
//! judged), gives every program an outcome, and the analyzer reads the archive. Prints the table
//! program × strategy/engine → outcome.

mod common;

use morphtrace_schema::{ArchiveReader, ProgramOrigin, SessionOutcome};
use morphtrace_testkit::hostile;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RECORD: &str = env!("CARGO_BIN_EXE_morphtrace-record");

/// One campaign at a time: the out-of-memory program must pass its bound within one action's
/// time, which two campaigns sharing two cores can stretch.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Limits that keep the slow programs short (busy loops, the out-of-memory program).
const DEBUGGER_LIMITS: &[&str] = &[
    // Long enough for the out-of-memory program to pass the bound in one step.
    "--action-timeout",
    "8",
    // Not shorter: under CI's load the out-of-memory program's differential session took over
    // 12 s to pass the bound (it timed out instead).
    "--session-timeout",
    "25",
    "--memory-limit",
    "1024",
    "--max-actions",
    "8",
    // The ten-megabyte program's 163,841 lines would ask for 256 breakpoints (the default cap),
    // at 100-200 ms each in V8 on a script that size: past the session's timeout. The other
    // programs are a few lines long and ask for one or two.
    "--max-breakpoints",
    "16",
];

const COVERAGE_LIMITS: &[&str] = &["--run-timeout", "8", "--memory-limit", "1024"];

/// Ground truth takes no action budget (it only resumes, up to its points' pauses).
const TRUTH_LIMITS: &[&str] = &[
    "--action-timeout",
    "8",
    "--session-timeout",
    "25",
    "--memory-limit",
    "1024",
];

fn limits(args: &[&str]) -> &'static [&'static str] {
    if args.contains(&"coverage") {
        COVERAGE_LIMITS
    } else if args.contains(&"truth") {
        TRUTH_LIMITS
    } else {
        DEBUGGER_LIMITS
    }
}

struct Run {
    /// Program file name → outcomes of its sessions (`rejected: reason` for rejections).
    outcomes: BTreeMap<String, Vec<String>>,
    archive: PathBuf,
}

fn outcome(o: &SessionOutcome) -> String {
    match o {
        SessionOutcome::Rejected { reason } => format!("rejected ({reason})"),
        SessionOutcome::HarnessError { message } => {
            format!(
                "harness-error ({})",
                message.chars().take(60).collect::<String>()
            )
        }
        o => o.name().to_string(),
    }
}

fn read(archive: &Path) -> BTreeMap<String, Vec<String>> {
    let r = ArchiveReader::open(archive).expect("the archive reads");
    let names: BTreeMap<_, _> = r
        .programs()
        .values()
        .map(|p| {
            let name = match &p.origin {
                ProgramOrigin::File { path } => Path::new(path)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                o => o.name(),
            };
            (p.hash, name)
        })
        .collect();
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in r.sessions() {
        let s = s.expect("a session");
        // Metamorphic follow-ups run derived programs: they count under their chain's program.
        if s.parent.is_some() {
            continue;
        }
        let name = names.get(&s.program).cloned().unwrap_or_default();
        out.entry(name).or_default().push(outcome(&s.outcome));
    }
    out
}

fn record(dir: &Path, corpus: &Path, label: &str, args: &[&str]) -> Run {
    let archive = dir.join(format!("{}.mtrace", label.replace('/', "-")));
    // The campaign's own temporary directory: whatever crashed, timed out or passed the memory
    // bound, nothing is left in it (profiles, engines' sockets, programs) once it ends.
    let tmp = dir.join(format!("{}-tmp", label.replace('/', "-")));
    std::fs::create_dir_all(&tmp).unwrap();
    let t0 = Instant::now();
    let out = Command::new(RECORD)
        .env("TMPDIR", &tmp)
        .arg("run")
        .args(["--corpus", &corpus.display().to_string()])
        .args(args)
        .args(limits(args))
        .arg("--out")
        .arg(&archive)
        .stdin(Stdio::null())
        .output()
        .expect("the recorder runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{label}: the campaign must finish and exit 0: {:?}\n{stderr}",
        out.status
    );
    eprintln!("{label}: {:.1} s", t0.elapsed().as_secs_f64());
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{label}: left in TMPDIR {left:?}");
    // The analyzer reads what the campaign wrote.
    let report = dir.join(format!("{}.html", label.replace('/', "-")));
    let report = report.display().to_string();
    for cmd in [
        vec!["info"],
        vec!["classes"],
        vec!["relations"],
        vec!["tables"],
        vec!["report", "--out", &report],
    ] {
        let a = Command::new(common::analyzer())
            .args(&cmd)
            .arg(&archive)
            .output()
            .expect("the analyzer runs");
        let err = String::from_utf8_lossy(&a.stderr);
        assert!(
            a.status.code().is_some() && !err.contains("panicked"),
            "{label}: analyze {cmd:?} crashed: {err}"
        );
    }
    Run {
        outcomes: read(&archive),
        archive,
    }
}

/// Per engine of each initial session of the program that reached its start: the breakpoints
/// set and not removed before it.
/// The breakpoints standing when each session of `program` started, or when it ended without a
/// start (`false`: a session cut short by its time limit while it set them, as under CI's load).
fn standing_at_start(archive: &Path, program: &str) -> Vec<(usize, bool)> {
    use morphtrace_schema::{Action, EventKind};
    let r = ArchiveReader::open(archive).expect("the archive reads");
    let hash = r.programs().values().find_map(|p| match &p.origin {
        ProgramOrigin::File { path } if path.ends_with(program) => Some(p.hash),
        _ => None,
    });
    let mut out = Vec::new();
    for s in r.sessions() {
        let s = s.expect("a session");
        if s.parent.is_some() || Some(s.program) != hash {
            continue;
        }
        for t in &s.traces {
            let mut n = 0usize;
            let mut started = false;
            for e in &t.events {
                match &e.kind {
                    EventKind::Action(Action::SetBreakpoint { .. }) => n += 1,
                    EventKind::Action(Action::RemoveBreakpoint { .. }) => n -= 1,
                    EventKind::Action(Action::Start) => {
                        started = true;
                        break;
                    }
                    _ => {}
                }
            }
            out.push((n, started));
        }
    }
    out
}

/// Every program of the corpus has at least `per_program` outcomes.
/// Program file name → how the program ended in its first session's first trace
/// (`completed`, `syntax-error`, ...), where it ended.
fn program_ends(archive: &Path) -> BTreeMap<String, String> {
    use morphtrace_schema::{Output, ProgramOrigin};
    let r = ArchiveReader::open(archive).expect("the archive reads");
    let mut out = BTreeMap::new();
    for s in r.sessions() {
        let s = s.unwrap();
        let Some(p) = r.program(&s.program) else {
            continue;
        };
        let ProgramOrigin::File { path } = &p.origin else {
            continue;
        };
        let name = Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let end = s.traces.first().and_then(|t| {
            t.outputs().find_map(|o| match o {
                Output::Finished { outcome } => Some(outcome.name().to_string()),
                _ => None,
            })
        });
        if let Some(end) = end {
            out.entry(name).or_insert(end);
        }
    }
    out
}

fn check_all_accounted(label: &str, run: &Run, corpus: &[hostile::Hostile], per_program: usize) {
    for p in corpus {
        let n = run.outcomes.get(p.name).map_or(0, Vec::len);
        assert!(
            n >= per_program,
            "{label}: {} has {n} outcomes, want {per_program}: {:?}",
            p.name,
            run.outcomes
        );
    }
}

fn table(rows: &[(&str, &Run)], corpus: &[hostile::Hostile]) {
    eprintln!(
        "\n| program | {} |",
        rows.iter().map(|r| r.0).collect::<Vec<_>>().join(" | ")
    );
    eprintln!("|---|{}", "---|".repeat(rows.len()));
    for p in corpus {
        let cells: Vec<String> = rows
            .iter()
            .map(|(_, r)| {
                let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
                for o in r.outcomes.get(p.name).into_iter().flatten() {
                    *counts.entry(o.as_str()).or_default() += 1;
                }
                counts
                    .iter()
                    .map(|(o, n)| {
                        if *n > 1 {
                            format!("{o} ×{n}")
                        } else {
                            o.to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect();
        eprintln!("| {} | {} |", p.name, cells.join(" | "));
    }
}

fn rejected_for(run: &Run, name: &str, why: &str) -> bool {
    run.outcomes
        .get(name)
        .is_some_and(|o| !o.is_empty() && o.iter().all(|o| o.contains(why)))
}

fn js_corpus(dir: &Path) -> (PathBuf, Vec<hostile::Hostile>) {
    let corpus = hostile::javascript();
    let at = dir.join("js");
    hostile::write(&at, &corpus).expect("the corpus is written");
    (at, corpus)
}

#[test]
fn debugger_strategies_give_every_hostile_program_an_outcome() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let (corpus_dir, corpus) = js_corpus(dir.path());
    let mut runs = Vec::new();
    for engine in ["node", "chromium", "firefox"] {
        let label = format!("random/{engine}");
        let run = record(dir.path(), &corpus_dir, &label, &["--engine", engine]);
        check_all_accounted(&label, &run, &corpus, 1);
        assert!(
            rejected_for(&run, "random-bytes.js", "not UTF-8"),
            "{label}"
        );
        // Decoded like the engines decode them: these run.
        for ok in [
            "bom-utf8.js",
            "bom-utf16le.js",
            "bom-utf16be.js",
            "breaks-ls.js",
        ] {
            assert!(
                run.outcomes[ok]
                    .iter()
                    .all(|o| o == "finished" || o == "action-limit"),
                "{label}: {ok}: {:?}",
                run.outcomes[ok]
            );
        }
        runs.push((label, run));
    }
    let label = "differential/chromium+node".to_string();
    let run = record(
        dir.path(),
        &corpus_dir,
        &label,
        &[
            "--strategy",
            "differential",
            "--engine",
            "chromium",
            "--engine",
            "node",
        ],
    );
    check_all_accounted(&label, &run, &corpus, 1);
    runs.push((label, run));
    for engine in ["node", "chromium"] {
        let label = format!("metamorphic/{engine}");
        let run = record(
            dir.path(),
            &corpus_dir,
            &label,
            &[
                "--strategy",
                "metamorphic",
                "--engine",
                engine,
                "--rounds",
                "2",
            ],
        );
        check_all_accounted(&label, &run, &corpus, 1);
        // Too deep for our analysis: rejected with the reason (the engines may well run them).
        for deep in [
            "nested-brackets.js",
            "nested-statements.js",
            "nested-templates.js",
        ] {
            assert!(
                rejected_for(&run, deep, "too deep to analyze"),
                "{label}: {deep}"
            );
        }
        runs.push((label, run));
    }
    // The memory bound ends the session that passes it, with the reason, on every engine and
    // in every strategy.
    for (label, run) in &runs {
        assert!(
            rejected_for(run, "out-of-memory-at-once.js", "memory bound"),
            "{label}: {:?}",
            run.outcomes["out-of-memory-at-once.js"]
        );
    }
    // The breakpoints standing at the start are capped (`--max-breakpoints`), however long the
    // program: ten megabytes of statements asks for 16, not 16,384. A session its time limit
    // cut short before the start (CI's load, two engines opening ten megabytes) set no more;
    // most strategies start.
    let mut started = 0;
    for (label, run) in &runs {
        let standing = standing_at_start(&run.archive, "ten-megabytes.js");
        assert!(
            !standing.is_empty()
                && standing
                    .iter()
                    .all(|&(n, start)| n <= 16 && (n >= 1 || !start)),
            "{label}: ten-megabytes.js: {standing:?} breakpoints at the start"
        );
        started += usize::from(standing.iter().any(|&(n, start)| start && n >= 1));
    }
    assert!(
        started * 2 > runs.len(),
        "ten-megabytes.js started with breakpoints in {started} of {} strategies",
        runs.len()
    );
    let rows: Vec<(&str, &Run)> = runs.iter().map(|(l, r)| (l.as_str(), r)).collect();
    table(&rows, &corpus);
}

/// Python's debuggers alike: every hostile Python program ends one session of debugpy's, of
/// pdb's, of their differential and of a metamorphic chain on debugpy, with its outcome, and
/// the campaign goes on.
#[test]
fn python_debuggers_give_every_hostile_program_an_outcome() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let corpus = hostile::python();
    let corpus_dir = dir.path().join("py");
    hostile::write(&corpus_dir, &corpus).expect("the corpus is written");
    let mut runs = Vec::new();
    for args in [
        &["--engine", "debugpy"][..],
        &["--engine", "pdb"][..],
        &[
            "--strategy",
            "differential",
            "--engine",
            "debugpy",
            "--engine",
            "pdb",
        ][..],
        &[
            "--strategy",
            "metamorphic",
            "--engine",
            "debugpy",
            "--rounds",
            "1",
        ][..],
    ] {
        let label = args.join(" ");
        let run = record(dir.path(), &corpus_dir, &label, args);
        check_all_accounted(&label, &run, &corpus, 1);
        assert!(
            rejected_for(&run, "random-bytes.py", "not UTF-8"),
            "{label}"
        );
        assert!(
            rejected_for(&run, "out-of-memory-at-once.py", "memory bound"),
            "{label}: {:?}",
            run.outcomes["out-of-memory-at-once.py"]
        );
        if !label.contains("differential") && !label.contains("metamorphic") {
            for (name, want) in [
                ("bom-utf8.py", "finished|action-limit"),
                ("breaks-crlf.py", "finished|action-limit"),
                ("syntax-error.py", "finished"),
                ("nested-brackets.py", "finished"),
                ("endless.py", "finished|action-limit"),
                ("aborts.py", "finished|action-limit"),
            ] {
                assert!(
                    run.outcomes[name]
                        .iter()
                        .all(|o| want.split('|').any(|w| o == w)),
                    "{label}: {name}: {:?}",
                    run.outcomes[name]
                );
            }
        }
        runs.push((label, run));
    }
    let rows: Vec<(&str, &Run)> = runs.iter().map(|(l, r)| (l.as_str(), r)).collect();
    table(&rows, &corpus);
}

/// Ground truth on C (gdb): every hostile C program ends its session with an outcome, the
/// instrumenter refuses what it cannot copy with the reason (and in a fraction of a second on
/// 10,000 nested blocks), and the memory bound ends the program that passes it.
#[test]
fn truth_on_c_gives_every_hostile_program_an_outcome() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let c = hostile::c();
    let c_dir = dir.path().join("c");
    hostile::write(&c_dir, &c).unwrap();
    let label = "truth/gdb";
    let run = record(
        dir.path(),
        &c_dir,
        label,
        &["--strategy", "truth", "--engine", "gdb", "--seeds", "1"],
    );
    let all: Vec<&String> = run.outcomes.values().flatten().collect();
    assert_eq!(all.len(), c.len(), "{label}: {:?}", run.outcomes);
    assert!(rejected_for(&run, "random-bytes.c", "not UTF-8"));
    // One line of 20,000 braces, lone CRs (tree-sitter's rows count LF only), a program on one
    // line: no statement stands alone on its line.
    for p in ["nested-blocks.c", "breaks-cr.c", "nul-bytes.c"] {
        assert!(
            rejected_for(&run, p, "no statement stands alone on its line"),
            "{p}: {:?}",
            run.outcomes
        );
    }
    // The copies (named `truth(HASH)`): CRLF's runs to its end, the out-of-memory one is ended
    // by the bound.
    let copies: Vec<&String> = run
        .outcomes
        .iter()
        .filter(|(name, _)| name.starts_with("truth("))
        .flat_map(|(_, o)| o)
        .collect();
    assert_eq!(copies.len(), 2, "{:?}", run.outcomes);
    assert!(copies.iter().any(|o| *o == "finished"), "{copies:?}");
    assert!(
        copies.iter().any(|o| o.contains("memory bound")),
        "{copies:?}"
    );
}

/// Delve on hostile Go programs: every one ends its sessions with an outcome, what cannot run
/// is rejected or a syntax error with the reason, and the memory bound ends the program that
/// passes it; nothing is left running or in the temporary directory.
#[test]
fn delve_gives_every_hostile_go_program_an_outcome() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let go = hostile::go();
    let go_dir = dir.path().join("go");
    hostile::write(&go_dir, &go).unwrap();
    let label = "random/delve";
    let run = record(
        dir.path(),
        &go_dir,
        label,
        &["--strategy", "random", "--engine", "delve", "--seeds", "1"],
    );
    check_all_accounted(label, &run, &go, 1);
    assert!(rejected_for(&run, "random-bytes.go", "not UTF-8"));
    assert!(rejected_for(&run, "not-a-command.go", "not a command"));
    let only = |name: &str| -> String {
        let o = &run.outcomes[name];
        assert_eq!(o.len(), 1, "{name}: {o:?}");
        o[0].clone()
    };
    assert!(
        only("out-of-memory.go").contains("memory bound"),
        "{:?}",
        run.outcomes
    );
    // How each program ended, in its trace.
    let ends = program_ends(&run.archive);
    let end = |name: &str| ends.get(name).cloned().unwrap_or_default();
    assert_eq!(only("build-error.go"), "finished");
    assert_eq!(end("build-error.go"), "syntax-error");
    assert_eq!(end("panic.go"), "uncaught-exception");
    assert_eq!(end("spin.go"), "timeout");
    for p in ["exit-code.go", "output-flood.go", "reads-stdin.go"] {
        assert_eq!(only(p), "finished", "{p}");
        assert_eq!(end(p), "completed", "{p}");
    }
    // Its goroutines keep the runtime busy after main's end; the session ends either way.
    assert!(
        matches!(
            only("goroutines-left.go").as_str(),
            "finished" | "action-limit"
        ),
        "{:?}",
        run.outcomes
    );
    // No program outlives its session (Delve detaches what it leaves; the namespace kills it).
    let ours = dir.path().display().to_string();
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path().join("exe")).ok())
        .map(|x| x.display().to_string())
        .filter(|x| x.starts_with(&ours))
        .collect();
    assert!(left.is_empty(), "still running: {left:?}");
}

#[test]
fn coverage_gives_every_hostile_program_an_outcome() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let (js_dir, js) = js_corpus(dir.path());
    let label = "coverage/v8";
    let v8 = record(
        dir.path(),
        &js_dir,
        label,
        &["--strategy", "coverage", "--engine", "v8"],
    );
    check_all_accounted(label, &v8, &js, 1);
    assert!(rejected_for(
        &v8,
        "nested-brackets.js",
        "too deep to analyze"
    ));
    assert!(rejected_for(&v8, "random-bytes.js", "not UTF-8"));
    // The memory bound kills the warm Node running the program: the session says why.
    assert!(
        rejected_for(&v8, "out-of-memory-at-once.js", "memory bound"),
        "{:?}",
        v8.outcomes["out-of-memory-at-once.js"]
    );
    let c = hostile::c();
    let c_dir = dir.path().join("c");
    hostile::write(&c_dir, &c).unwrap();
    let label = "coverage/gcov+llvm-cov";
    let cc = record(
        dir.path(),
        &c_dir,
        label,
        &[
            "--strategy",
            "coverage",
            "--engine",
            "gcov",
            "--engine",
            "llvm-cov",
        ],
    );
    check_all_accounted(label, &cc, &c, 1);
    assert!(rejected_for(&cc, "random-bytes.c", "not UTF-8"));
    assert!(
        rejected_for(&cc, "out-of-memory.c", "memory bound"),
        "{:?}",
        cc.outcomes["out-of-memory.c"]
    );
    // Lines end where the compilers end them: no inconsistency of ours on CR or CRLF programs.
    for p in ["breaks-cr.c", "breaks-crlf.c"] {
        assert!(
            cc.outcomes[p].iter().all(|o| o == "finished"),
            "{p}: {:?}",
            cc.outcomes[p]
        );
    }
    table(&[("coverage/v8", &v8)], &js);
    table(&[("coverage/gcov+llvm-cov", &cc)], &c);
}

/// coverage.py alike: every hostile Python program ends one session of both cores' campaign
/// with its outcome.
#[test]
fn coverage_py_gives_every_hostile_python_program_an_outcome() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let corpus = hostile::python();
    let corpus_dir = dir.path().join("py");
    hostile::write(&corpus_dir, &corpus).expect("the corpus is written");
    let label = "coverage/coverage.py ctrace+pytrace";
    let run = record(
        dir.path(),
        &corpus_dir,
        label,
        &[
            "--strategy",
            "coverage",
            "--engine",
            "coverage.py",
            "--engine",
            "coverage.py+pytrace",
        ],
    );
    check_all_accounted(label, &run, &corpus, 1);
    assert!(rejected_for(&run, "random-bytes.py", "not UTF-8"));
    assert!(
        rejected_for(&run, "out-of-memory-at-once.py", "memory bound"),
        "{:?}",
        run.outcomes["out-of-memory-at-once.py"]
    );
    for (name, want) in [
        ("endless.py", "does not terminate"),
        ("aborts.py", "killed by a signal"),
        ("syntax-error.py", "could not parse"),
        // tree-sitter-python forgives these; CPython's compiler does not.
        ("bad-indent.py", "does not compile: IndentationError"),
        ("nested-brackets.py", "does not compile: SyntaxError"),
    ] {
        assert!(
            rejected_for(&run, name, want),
            "{name}: {:?}",
            run.outcomes[name]
        );
    }
    // Lines end where CPython ends them: no inconsistency of ours on a BOM, CRLF or CR.
    for p in ["bom-utf8.py", "breaks-crlf.py", "breaks-cr.py"] {
        assert!(
            run.outcomes[p].iter().all(|o| o == "finished"),
            "{p}: {:?}",
            run.outcomes[p]
        );
    }
    table(&[(label, &run)], &corpus);
}

/// Interrupted at any point (here: during the ten-megabyte program, the out-of-memory one and
/// the busy loop), `--resume` completes the campaign to the same outcomes.
#[test]
fn an_interrupted_hostile_campaign_resumes_to_every_outcome() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let (corpus_dir, corpus) = js_corpus(dir.path());
    let args = ["--engine", "node", "--jobs", "1"];
    let full = record(dir.path(), &corpus_dir, "full", &args);
    let cut = dir.path().join("cut.mtrace");
    for wait in [3.0, 9.0] {
        let mut child = Command::new(RECORD)
            .arg("run")
            .args(["--corpus", &corpus_dir.display().to_string()])
            .args(args)
            .args(DEBUGGER_LIMITS)
            .arg("--resume")
            .arg("--out")
            .arg(&cut)
            // A killed recorder cannot remove its engines' directories: keep them in the test's.
            .env("TMPDIR", dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_secs_f64(wait));
        // SAFETY: a signal to our own child.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGKILL);
        }
        let _ = child.wait();
    }
    let resumed = record(
        dir.path(),
        &corpus_dir,
        "cut",
        &[&args[..], &["--resume"]].concat(),
    );
    assert_eq!(resumed.archive, cut);
    // The same sessions (outcomes of the slow programs may differ with timing: timeouts).
    let counts = |r: &Run| -> BTreeMap<String, usize> {
        r.outcomes
            .iter()
            .map(|(k, v)| (k.clone(), v.len()))
            .collect()
    };
    assert_eq!(counts(&resumed), counts(&full));
    check_all_accounted("resumed", &resumed, &corpus, 1);
}

/// `reduce` and `bisect` run programs-to-debug as `run` does: under the memory bound, their
/// engines killed when they pass it, and said so. A bound no engine can keep (1 MiB) makes every
/// engine they start pass it; without the bound they would reduce and bisect as usual.
#[test]
fn reduce_and_bisect_run_their_engines_under_the_memory_bound() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let archive = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../traces/differential-chromium-node-dbdb.mtrace");
    let reader = ArchiveReader::open(&archive).unwrap();
    let session = reader
        .sessions()
        .map(|s| s.unwrap())
        .find(|s| s.divergence.is_some())
        .expect("the trace has a diverged session");
    let id = session.id.to_string();
    for (command, extra) in [
        ("reduce", ["--budget", "60", "--session-timeout", "10"]),
        (
            "bisect",
            ["--versions", "node@20..24", "--session-timeout", "10"],
        ),
    ] {
        let t0 = Instant::now();
        let o = Command::new(RECORD)
            .arg(command)
            .arg(&archive)
            .args(["--session", &id, "--memory-limit", "1", "--out"])
            .arg(dir.path().join(command))
            .args(extra)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success(),
            "{command} succeeded under a 1 MiB bound"
        );
        assert!(
            err.contains("(bound 1 MiB): killed"),
            "{command}: the memory guard killed nothing: {err}"
        );
        println!("{command}: refused in {:.1} s", t0.elapsed().as_secs_f64());
    }
}
