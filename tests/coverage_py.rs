//! coverage.py (pinned by scripts/setup.sh) on this machine's CPython, through the binary: both
//! cores on a program whose every line and arc is known, Cod's `pass` variants, the ground truth
//! of counters, and a core with a planted fault that C2V, Cod and the truth each catch.

mod common;

use morphtrace_judges::cod::{self, InconsistencyKind, Relation, Unit};
use morphtrace_schema::{ArchiveHeader, ArchiveReader, Session, SessionOutcome};
use std::path::{Path, PathBuf};
use std::process::Command;

const RECORD: &str = env!("CARGO_BIN_EXE_morphtrace-record");

/// Lines 1-based: 3 (`return 1`) and 11 (`print("never")`) never run; 5 runs.
const PROGRAM: &str = "def sign(x):
    if x < 0:
        return 1
    else:
        return 2

total = 0
for i in range(4):
    total += sign(i)
if total > 100:
    print(\"never\")
print(total)
";

fn record(
    dir: &Path,
    program: &str,
    engines: &[&str],
    seed: &str,
) -> (PathBuf, ArchiveHeader, Vec<Session>) {
    let prog = dir.join("prog_under_test.py");
    std::fs::write(&prog, program).unwrap();
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = dir.join(format!("c-{seed}-{n}.mtrace"));
    let mut cmd = Command::new(RECORD);
    cmd.args(["run", "--strategy", "coverage", "--run-timeout", "10"])
        .args(["--variants", "3", "--seeds", seed, "--corpus"])
        .arg(&prog)
        .arg("--out")
        .arg(&out);
    for e in engines {
        cmd.args(["--engine", e]);
    }
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let r = ArchiveReader::open(&out).unwrap();
    let header = r.header().clone();
    let sessions = r.sessions().map(|s| s.unwrap()).collect();
    (out, header, sessions)
}

/// `morphtrace-record reduce` of the archive's first session to `class`, 30 s at most, into
/// `bundle` (returned).
fn reduce(archive: &Path, class: &str, bundle: &Path) -> PathBuf {
    let o = Command::new(RECORD)
        .arg("reduce")
        .arg(archive)
        .args([
            "--session",
            "0",
            "--class",
            class,
            // A cap, not the time it takes: C-Vise stops once no pass shrinks the program. 30 s
            // left it no candidate on a machine running two test binaries at once.
            "--budget",
            "120",
            "--out",
        ])
        .arg(bundle)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    bundle.to_path_buf()
}

/// The 1-based lines a report counts `n` (coverage.py: 1 ran, 0 did not).
fn lines_with(f: &morphtrace_schema::FileCoverage, n: u64) -> Vec<usize> {
    (0..f.lines.len())
        .filter(|&l| f.lines[l] == Some(n))
        .map(|l| l + 1)
        .collect()
}

#[test]
fn both_cores_report_every_line_and_arc_and_agree_with_the_counters() {
    let dir = tempfile::tempdir().unwrap();
    let (_, header, sessions) = record(
        dir.path(),
        PROGRAM,
        &["coverage.py", "coverage.py+pytrace"],
        "1",
    );
    // The core asked for is the core that ran (coverage.py falls back with a warning only).
    let cores: Vec<String> = header.engines.iter().map(|d| d.profiler()).collect();
    assert_eq!(cores, ["coverage.py+ctrace", "coverage.py+pytrace"]);
    let [s] = &sessions[..] else {
        panic!("{sessions:?}")
    };
    assert_eq!(s.outcome, SessionOutcome::Finished, "{:?}", s.notes);
    let on_p: Vec<_> = s
        .coverage
        .iter()
        .filter(|c| c.program == s.program)
        .collect();
    assert_eq!(on_p.len(), 2);
    for r in &on_p {
        let f = &r.files[0];
        assert!(f.executed_only);
        assert_eq!(lines_with(f, 1), [1, 2, 5, 7, 8, 9, 10, 12]);
        assert_eq!(lines_with(f, 0), [3, 11]);
        let arcs: Vec<(String, Option<u64>)> =
            f.branches.iter().map(|b| (b.arc(), b.count)).collect();
        for want in [
            ("2->3".to_string(), Some(0)),
            ("2->5".to_string(), Some(1)),
            ("10->11".to_string(), Some(0)),
            ("10->12".to_string(), Some(1)),
        ] {
            assert!(arcs.contains(&want), "{want:?} in {arcs:?}");
        }
        assert_eq!(r.run.as_ref().unwrap().stdout, "8\n");
    }
    // The counters: the `for` statement starts once, its body once per iteration, `sign`'s
    // lines once per call.
    let truth: Vec<_> = s
        .transformations
        .iter()
        .filter(|t| t.name == cod::COUNT)
        .collect();
    assert_eq!(truth.len(), 2, "one ground truth per core");
    let counted = cod::report(s, morphtrace_schema::EngineRef(0), truth[0].program_after).unwrap();
    let lines = &counted.files[0].lines;
    assert_eq!(
        (lines[1], lines[2], lines[4], lines[7], lines[8], lines[10]),
        (Some(4), Some(0), Some(4), Some(1), Some(4), Some(0))
    );
    // Cod's variants: unexecuted statements became `pass`, lines kept.
    let variants: Vec<_> = s
        .transformations
        .iter()
        .filter(|t| t.name == cod::DELETE)
        .collect();
    assert!(!variants.is_empty());
    let judged = cod::judge_session(s);
    assert!(judged.unjudged.is_empty(), "{:?}", judged.unjudged);
    assert!(
        judged.found.is_empty(),
        "coverage.py's cores agree with each other, with their variants and with the counters: {:?}",
        judged.found
    );
}

/// A faulty core: a venv whose interpreter loads, at start-up, a patch of coverage.py's Python
/// tracer that loses the first line event of a frame after a call from it returns.
fn faulty_python(dir: &Path) -> PathBuf {
    let venv = dir.join("faulty");
    let o = Command::new("python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let site = std::fs::read_dir(venv.join("lib"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("site-packages"))
        .find(|p| p.is_dir())
        .expect("the venv's site-packages");
    std::fs::write(
        site.join("planted_fault.py"),
        "import coverage.pytracer as p\n\
         original = p.PyTracer._trace\n\
         returned = set()\n\
         def _trace(self, frame, event, arg, lineno=None):\n\
         \x20   if event == 'return' and frame.f_back is not None:\n\
         \x20       returned.add(id(frame.f_back))\n\
         \x20   elif event == 'line' and id(frame) in returned:\n\
         \x20       returned.discard(id(frame))\n\
         \x20       return self._cached_bound_method_trace\n\
         \x20   return original(self, frame, event, arg, lineno)\n\
         p.PyTracer._trace = _trace\n",
    )
    .unwrap();
    // Only where coverage.py is importable (the recorder puts it on PYTHONPATH).
    std::fs::write(
        site.join("planted_fault.pth"),
        "import importlib.util, sys; importlib.util.find_spec('coverage') and __import__('planted_fault')\n",
    )
    .unwrap();
    venv.join("bin/python")
}

/// Line 7 runs after every return from `double`: the faulty core reports it unexecuted.
const AFTER_CALLS: &str = "def double(x):
    return 2 * x

total = 0
for i in range(3):
    total = double(total + i)
    total = total - 1
print(total)
";

#[test]
fn a_planted_fault_in_a_core_is_caught_by_c2v_cod_and_the_counters() {
    let dir = tempfile::tempdir().unwrap();
    let faulty = faulty_python(dir.path());
    let faulty_engine = format!("coverage.py+pytrace={}", faulty.display());
    let (archive, _, sessions) = record(
        dir.path(),
        AFTER_CALLS,
        &["coverage.py", &faulty_engine],
        "1",
    );
    let [s] = &sessions[..] else {
        panic!("{sessions:?}")
    };
    let found = cod::judge_session(s).found;
    let at = |relation: Relation, engine: u16| {
        found
            .iter()
            .filter(|j| j.relation == relation && j.engine.0 == engine)
            .map(|j| {
                (
                    j.inconsistency.kind,
                    j.inconsistency.unit,
                    j.inconsistency.line + 1,
                )
            })
            .collect::<Vec<_>>()
    };
    // C2V: the sound core ran line 7, the faulty one says not.
    let c2v: Vec<_> = found
        .iter()
        .filter(|j| j.relation == Relation::C2v)
        .map(|j| {
            (
                j.inconsistency.kind,
                j.inconsistency.line + 1,
                j.inconsistency.a,
                j.inconsistency.b,
            )
        })
        .collect();
    assert!(
        c2v.contains(&(InconsistencyKind::Strong, 7, Some(1), Some(0))),
        "{c2v:?}"
    );
    // The counters: line 7 started three times.
    assert!(
        at(Relation::Truth, 1).contains(&(InconsistencyKind::Strong, Unit::Line, 7)),
        "{found:?}"
    );
    // Cod: deleting line 7 as unexecuted changes what the program prints.
    assert!(
        at(Relation::Cod, 1)
            .iter()
            .any(|(k, _, _)| *k == InconsistencyKind::Output),
        "{found:?}"
    );
    assert_eq!(s.outcome, SessionOutcome::Violated);
    // The sound core alone: nothing.
    assert!(at(Relation::Truth, 0).is_empty() && at(Relation::Cod, 0).is_empty());

    // Reduced by C-Vise's generic passes, into a bundle whose reproducer needs only coverage.py:
    // it shows the finding on the faulty interpreter and not on a sound one.
    let class = "c2v coverage.py+ctrace/coverage.py+pytrace strong expression_statement";
    let bundle = reduce(&archive, class, &dir.path().join("reduced"));
    let reduced = std::fs::read_to_string(bundle.join("program.py")).unwrap();
    assert!(
        reduced.lines().count() < AFTER_CALLS.lines().count(),
        "{reduced}"
    );
    let coverage = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/coverage");
    let reproduce = |python: &Path| {
        Command::new("sh")
            .arg(bundle.join("reproduce.sh"))
            .env("PYTHON", python)
            .env("COVERAGE_PATH", &coverage)
            .output()
            .unwrap()
    };
    let shows = reproduce(&faulty);
    assert_eq!(
        shows.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&shows.stdout)
    );
    let sound = reproduce(Path::new("python3"));
    assert_eq!(
        sound.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&sound.stdout),
        String::from_utf8_lossy(&sound.stderr)
    );

    // The same program and the same core without the fault: nothing at all.
    let (_, _, sessions) = record(
        dir.path(),
        AFTER_CALLS,
        &["coverage.py", "coverage.py+pytrace"],
        "1",
    );
    let found = cod::judge_session(&sessions[0]).found;
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_core_the_interpreter_lacks_is_refused() {
    // sys.monitoring arrived in Python 3.12: on an older interpreter coverage.py would fall back
    // to another core with a warning; the recorder refuses instead.
    let o = Command::new("python3")
        .args(["-c", "import sys; print(sys.version_info >= (3, 12))"])
        .output()
        .unwrap();
    let has_sysmon = String::from_utf8_lossy(&o.stdout).trim() == "True";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.py"), "print(1)\n").unwrap();
    // (whether the campaign ran, what it said on stderr)
    let campaign = |engine: &str, out: &str| {
        let o = Command::new(RECORD)
            .args(["run", "--strategy", "coverage", "--engine", engine])
            .arg("--corpus")
            .arg(dir.path().join("p.py"))
            .arg("--out")
            .arg(dir.path().join(out))
            .output()
            .unwrap();
        (
            o.status.success(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (ran, err) = campaign("coverage.py+sysmon", "s.mtrace");
    if has_sysmon {
        assert!(ran, "{err}");
    } else {
        assert!(!ran);
        assert!(err.contains("sys.monitoring needs Python 3.12"), "{err}");
    }
    let (ran, err) = campaign("coverage.py+cython", "t.mtrace");
    assert!(!ran);
    assert!(err.contains("the cores are `ctrace`"), "{err}");
}

/// `sys.monitoring` (coverage.py's `sysmon` core) on a Python 3.12 or later of this machine, against
/// the C tracer on the same interpreter (setup.sh adds that interpreter's C tracer to coverage.py).
/// Before 3.14 sysmon measures no branches: both engines then measure lines only, so a line's
/// difference is the cores'. The C tracer alone on that interpreter still measures arcs.
#[test]
fn sys_monitoring_on_a_newer_python_measures_what_the_c_tracer_does() {
    let newer = morphtrace_recorder::profilers::python::newer_pythons();
    let python = newer.first().unwrap_or_else(|| {
        panic!("no Python 3.12 or later on this machine (python3.12 on PATH, or pyenv's versions)")
    });
    let py = python.display();
    let dir = tempfile::tempdir().unwrap();
    let (_, header, sessions) = record(
        dir.path(),
        PROGRAM,
        &[
            &format!("coverage.py={py}"),
            &format!("coverage.py+sysmon={py}"),
        ],
        "1",
    );
    let cores: Vec<String> = header.engines.iter().map(|d| d.profiler()).collect();
    assert_eq!(cores, ["coverage.py+ctrace", "coverage.py+sysmon"]);
    let branches_by_sysmon = morphtrace_recorder::profilers::python::measures_branches_by_sysmon(
        header.engines[1].engine_version.as_deref().unwrap(),
    );
    for d in &header.engines {
        let run = d.details.iter().find(|(k, _)| k == "run").unwrap();
        assert_eq!(
            run.1.contains("--branch"),
            branches_by_sysmon,
            "{:?}: {run:?}",
            d.engine_version
        );
    }
    let [s] = &sessions[..] else {
        panic!("{sessions:?}")
    };
    assert_eq!(s.outcome, SessionOutcome::Finished, "{:?}", s.notes);
    for r in s.coverage.iter().filter(|c| c.program == s.program) {
        let f = &r.files[0];
        assert_eq!(
            (lines_with(f, 1), lines_with(f, 0)),
            (vec![1, 2, 5, 7, 8, 9, 10, 12], vec![3, 11])
        );
        assert_eq!(f.branches.is_empty(), !branches_by_sysmon);
        assert_eq!(r.run.as_ref().unwrap().stdout, "8\n");
    }
    let judged = cod::judge_session(s);
    assert!(judged.unjudged.is_empty(), "{:?}", judged.unjudged);
    assert!(judged.found.is_empty(), "{:?}", judged.found);
    // The C tracer alone on that interpreter measures arcs as on the machine's own.
    let (_, header, sessions) = record(dir.path(), PROGRAM, &[&format!("coverage.py={py}")], "1");
    assert!(header.engines[0]
        .details
        .iter()
        .any(|(k, v)| k == "run" && v.contains("--branch")));
    let arcs: Vec<String> = sessions[0].coverage[0].files[0]
        .branches
        .iter()
        .map(|b| b.arc())
        .collect();
    assert!(arcs.contains(&"2->3".to_string()), "{arcs:?}");
}

/// A program that rebinds `builtins.len` while a function of its returns (found in CPython's
/// `test_dynamic.py`, a held-out program). coverage.py's Python tracer, with `--branch`, calls
/// `len` on the returning frame's bytecode: it gets the program's `len`, indexes past the
/// bytecode, and the IndexError surfaces in the program, which exits 1 where it exits 0 without
/// coverage.py and under the C tracer.
const REBINDS_LEN: &str = "import builtins

def foo():
    return len([1, 2, 3])

def shadowed():
    return len([1, 2])

print(foo())
real = builtins.len
builtins.len = lambda x: 7
try:
    n = foo()
finally:
    builtins.len = real
print(n)
print(shadowed())
";

/// The same, the other way: `len` shadowed by a module global. The tracer does not see the
/// program's globals, and nothing differs.
const SHADOWS_LEN: &str = "def foo():
    return len([1, 2, 3])

print(foo())
len = lambda x: 7
n = foo()
del len
print(n)
";

#[test]
fn the_python_tracer_changes_a_program_that_rebinds_a_builtin_and_c2v_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let cores = ["coverage.py", "coverage.py+pytrace"];
    let (archive, _, sessions) = record(dir.path(), REBINDS_LEN, &cores, "1");
    let [s] = &sessions[..] else {
        panic!("{sessions:?}")
    };
    let found = cod::judge_session(s).found;
    let output: Vec<_> = found
        .iter()
        .filter(|j| {
            j.relation == Relation::C2v && j.inconsistency.kind == InconsistencyKind::Output
        })
        .collect();
    assert_eq!(output.len(), 1, "{found:?}");
    let exit = |engine: u16| {
        s.coverage
            .iter()
            .find(|c| c.program == s.program && c.engine.0 == engine)
            .and_then(|c| c.run.as_ref())
            .map(|r| (r.exit_code, r.stdout.clone()))
    };
    assert_eq!(exit(0), Some((Some(0), "3\n7\n2\n".to_string())));
    assert_eq!(exit(1), Some((Some(1), "3\n".to_string())));
    assert_eq!(s.outcome, SessionOutcome::Violated);

    // Reduced, and reproduced with nothing but coverage.py: exit 1 while the cores differ.
    let class = "c2v coverage.py+ctrace/coverage.py+pytrace output output";
    let bundle = reduce(&archive, class, &dir.path().join("reduced"));
    let reduced = std::fs::read_to_string(bundle.join("program.py")).unwrap();
    assert!(reduced.contains("builtins.len"), "{reduced}");
    assert!(
        reduced.lines().count() < REBINDS_LEN.lines().count(),
        "{reduced}"
    );
    let readme = std::fs::read_to_string(bundle.join("README.md")).unwrap();
    assert!(
        readme.contains("Under coverage.py+ctrace: exit status 0")
            && readme.contains("Under coverage.py+pytrace: exit status 1"),
        "{readme}"
    );
    let shows = Command::new("sh")
        .arg(bundle.join("reproduce.sh"))
        .env(
            "COVERAGE_PATH",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/coverage"),
        )
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&shows.stdout);
    assert_eq!(shows.status.code(), Some(1), "{said}");
    assert!(
        said.contains("under ctrace: as without coverage.py")
            && said.contains("under pytrace: not as without coverage.py"),
        "{said}"
    );

    // Shadowing `len` in the module's globals changes nothing for either core.
    let (_, _, sessions) = record(dir.path(), SHADOWS_LEN, &cores, "1");
    let found = cod::judge_session(&sessions[0]).found;
    assert!(found.is_empty(), "{found:?}");
}

/// What a program sees of its start under coverage.py (as the C tracer's own test programs
/// would look: `__main__`, `__file__`, `sys.argv`, `sys.path`, the working directory, the
/// environment, standard streams, flags, imported modules, the frames below it, signal
/// handlers), printed; then a branch for the report.
const PROBE: &str = r#"import inspect, json, os, signal, sys, threading
seen = {
    "name": __name__, "file": __file__, "argv": sys.argv, "path": sys.path[:3],
    "cwd": os.getcwd(), "spec": repr(__spec__), "builtins": type(__builtins__).__name__,
    "env": sorted(os.environ), "stdin": sys.stdin.read(),
    "threads": sorted(t.name for t in threading.enumerate()), "tty": sys.stdout.isatty(),
    "encoding": sys.stdout.encoding, "hash": hash("abc"), "flags": str(sys.flags),
    "traced": sys.gettrace() is not None, "depth": len(inspect.stack()),
    "executable": sys.executable, "modules": sorted(sys.modules),
    "stdout": os.fstat(1).st_mode >> 12,
    "signals": [str(signal.getsignal(s)) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD)],
    "limits": __import__("resource").getrlimit(__import__("resource").RLIMIT_AS),
}
for k, v in seen.items():
    print(k, json.dumps(v))
if seen["depth"] > 1000:
    print("deep")
"#;

/// coverage.py's warm start (programs forked from an interpreter that has imported it) and its
/// cold start (`python -m coverage run` per run) record the same sessions: what a program sees
/// of its start and prints, each core's report, the counters, Cod's variants, and how runs end
/// (an exception, an exit code, `os._exit`, a signal, the time limit, the address-space bound,
/// the determinism prelude's clock and random numbers).
#[test]
fn coverage_py_runs_a_program_warm_as_it_runs_it_cold() {
    let dir = tempfile::tempdir().unwrap();
    let programs = dir.path().join("programs");
    std::fs::create_dir_all(&programs).unwrap();
    for (name, text) in [
        ("probe.py", PROBE),
        ("counted.py", PROGRAM),
        ("throws.py", "x = 1\nif x:\n    raise ValueError('no')\nprint('never')\n"),
        ("exits.py", "import sys\nprint('a')\nsys.exit(3)\n"),
        ("leaves.py", "import os\nprint('a', flush=True)\nos._exit(0)\n"),
        ("killed.py", "import os\nos.kill(os.getpid(), 9)\n"),
        ("spins.py", "while True:\n    pass\n"),
        ("grows.py", "try:\n    b = bytearray(3 << 30)\nexcept MemoryError:\n    print('bounded')\n"),
        (
            "clock.py",
            "import random, time\nprint(time.time(), random.random())\nif time.time() > 0:\n    print('later')\n",
        ),
    ] {
        std::fs::write(programs.join(name), text).unwrap();
    }
    let mut seen = Vec::new();
    for start in ["warm", "cold"] {
        let out = dir.path().join(format!("{start}.mtrace"));
        common::succeeded(
            Command::new(RECORD)
                .args(["run", "--strategy", "coverage", "--run-timeout", "3"])
                .args(["--variants", "2", "--seeds", "1", "--jobs", "2"])
                .args(["--engine", "coverage.py", "--engine", "coverage.py+pytrace"])
                .args(["--python-start", start, "--corpus"])
                .arg(&programs)
                .arg("--out")
                .arg(&out),
        );
        let r = ArchiveReader::open(&out).unwrap();
        let starts: Vec<String> = r
            .header()
            .engines
            .iter()
            .map(|d| {
                d.details
                    .iter()
                    .find(|(k, _)| k == "start")
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default()
            })
            .collect();
        let mut sessions: Vec<String> = r
            .sessions()
            .map(|s| {
                let mut v = serde_json::to_value(s.unwrap()).unwrap();
                // When and how long: the start's own difference.
                for k in ["started_at_ms", "duration_us", "cpu_us"] {
                    v.as_object_mut().unwrap().remove(k);
                }
                // A campaign's scratch folder and the engine's sitecustomize folder have a
                // name of their own in each campaign (six random letters).
                let mut text = serde_json::to_string_pretty(&v).unwrap();
                for prefix in ["morphtrace-coverage-", "morphtrace-coveragepy-"] {
                    let mut from = 0;
                    while let Some(at) = text[from..].find(prefix) {
                        let start = from + at + prefix.len();
                        text.replace_range(start..start + 6, "XXXXXX");
                        from = start;
                    }
                }
                text
            })
            .collect();
        sessions.sort();
        seen.push((starts, sessions));
    }
    let ((warm_starts, warm), (cold_starts, cold)) = (&seen[0], &seen[1]);
    for (w, c) in warm_starts.iter().zip(cold_starts) {
        assert!(w.starts_with("warm"), "{warm_starts:?}");
        assert!(c.starts_with("cold"), "{cold_starts:?}");
    }
    assert_eq!(warm.len(), 9, "one session per program");
    assert_eq!(warm.len(), cold.len());
    // No run was lost to the harness (a fork server that died, a run not reaped).
    for s in warm.iter().chain(cold) {
        if let Some(at) = s.find("HarnessError") {
            panic!("{}", s[at..].chars().take(300).collect::<String>());
        }
    }
    // Every way a run ends was met (else the comparison below would not cover it).
    let text = warm.join("\n");
    for shown in [
        "name \\\"__main__\\\"\\nfile",
        "\"exit_code\": 1",
        "\"exit_code\": 3",
        "saved no data",
        "killed by a signal",
        "does not terminate within 3s",
        "\"stdout\": \"bounded\\n\"",
        "\"stdout\": \"1577836800.001 ",
    ] {
        assert!(text.contains(shown), "{shown} not in the warm sessions");
    }
    for (w, c) in warm.iter().zip(cold) {
        if w != c {
            let first = w.lines().zip(c.lines()).find(|(a, b)| a != b);
            panic!("a session differs by how its runs started: {first:?}");
        }
    }
}
