//! Coverage profilers on this machine: gcc/gcov, clang/llvm-cov, and V8 in Node. Our per-line
//! counts against the tools' own text reports on Csmith programs; V8's ranges against the
//! instrumented ground truth; variants that compile and keep outputs; whole campaigns through
//! the binary, with rejections.

mod common;
use common::root;
use morphtrace_judges::cod::{self, InconsistencyKind, Relation};
use morphtrace_recorder::corpus::csmith;
use morphtrace_recorder::profilers::c::{self as c_profilers, CProfiler, CTools};
use morphtrace_recorder::profilers::v8::V8Runner;
use morphtrace_schema::lines::Breaks;
use morphtrace_schema::{ArchiveReader, FileCoverage, Session, SessionOutcome};
use morphtrace_syntax::c::CSyntax;
use morphtrace_syntax::js::statements::JsProgram;
use morphtrace_syntax::{variant, Statements};
use rand::SeedableRng;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const RECORD: &str = env!("CARGO_BIN_EXE_morphtrace-record");
const RUN: Duration = Duration::from_secs(10);

fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/coverage").join(name)
}

fn csmith_program(seed: u64) -> String {
    let v = csmith::version().expect("csmith (scripts/setup.sh)");
    csmith::generate(seed, &v, Some(&csmith::cache_dir())).unwrap()
}

/// gcov's text report (`prog.c.gcov`): `count:line:source`, `-` no information, `#####` zero,
/// `N*` a line with an unexecuted block.
fn gcov_text(dir: &Path, lines: usize) -> Vec<Option<u64>> {
    let gcda = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| n.ends_with(".gcda"))
        .unwrap();
    let o = Command::new("gcov")
        .current_dir(dir)
        .arg(&gcda)
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = std::fs::read_to_string(dir.join("prog.c.gcov")).unwrap();
    let mut out = vec![None; lines];
    for l in text.lines() {
        let mut parts = l.splitn(3, ':');
        let (Some(count), Some(line)) = (parts.next(), parts.next()) else {
            continue;
        };
        let Ok(line) = line.trim().parse::<usize>() else {
            continue;
        };
        if line == 0 {
            continue;
        }
        let count = count.trim().trim_end_matches('*');
        out[line - 1] = match count {
            "-" => None,
            "#####" | "=====" => Some(0),
            n => Some(n.parse().unwrap()),
        };
    }
    out
}

/// LLVM's `formatCount`: `llvm-cov show` prints 1234 as `1.23k`.
fn llvm_format(n: u64) -> String {
    let s = n.to_string();
    if s.len() <= 3 {
        return s;
    }
    let int_len = if s.len().is_multiple_of(3) {
        3
    } else {
        s.len() % 3
    };
    let mut r = s[..int_len].to_string();
    if int_len != 3 {
        r.push('.');
        r.push_str(&s[int_len..3]);
    }
    r.push(" kMGTPEZY".as_bytes()[(s.len() - 1) / 3] as char);
    r
}

#[test]
fn gcov_counts_equal_gcov_text_output_on_csmith_programs() {
    let tools = CTools::find(CProfiler::Gcov);
    let tmp = tempfile::tempdir().unwrap();
    let mut compared = 0;
    for seed in 1..=4 {
        let text = csmith_program(seed);
        let n = text.split('\n').count();
        let b = c_profilers::compile(&tools, &tmp.path().join(seed.to_string()), &text).unwrap();
        let Ok(c_profilers::Profiled {
            run,
            lines: ours,
            functions,
        }) = c_profilers::profile(&tools, &b, &text, RUN)
        else {
            continue; // a program that outruns the limit is not a comparison
        };
        let main = functions.iter().find(|f| f.name == "main").expect("main");
        assert_eq!(main.ranges[0].count, 1, "main runs once");
        // gcov places a function at its name.
        assert!(text[main.ranges[0].start as usize..].starts_with("main ("));
        assert_eq!(run.exit_code, Some(0));
        assert!(run.stdout.starts_with("checksum = "), "{}", run.stdout);
        let theirs = gcov_text(&b.dir, n);
        assert_eq!(ours, theirs, "csmith seed {seed}");
        compared += ours.iter().flatten().count();
    }
    assert!(compared > 500, "only {compared} lines with counts");
}

#[test]
fn llvm_cov_counts_equal_llvm_cov_show_on_csmith_programs() {
    let tools = CTools::find(CProfiler::LlvmCov);
    let tmp = tempfile::tempdir().unwrap();
    let mut compared = 0;
    for seed in 1..=4 {
        let text = csmith_program(seed);
        let n = text.split('\n').count();
        let b = c_profilers::compile(&tools, &tmp.path().join(seed.to_string()), &text).unwrap();
        let Ok(c_profilers::Profiled {
            lines: ours,
            functions,
            ..
        }) = c_profilers::profile(&tools, &b, &text, RUN)
        else {
            continue;
        };
        // Regions: main's first region is its body, entered once.
        let main = functions.iter().find(|f| f.name == "main").expect("main");
        assert_eq!(main.ranges[0].count, 1);
        assert!(main.ranges.len() > 1);
        let o = Command::new("llvm-cov")
            .current_dir(&b.dir)
            .args(["show", "-instr-profile=prog.profdata", "./prog"])
            .output()
            .unwrap();
        assert!(o.status.success());
        let show = String::from_utf8(o.stdout).unwrap();
        // `show` prints the main file first; its lines are `  N|  count|source`.
        let mut seen = 0;
        for l in show.lines() {
            let mut parts = l.splitn(3, '|');
            let (Some(line), Some(count)) = (parts.next(), parts.next()) else {
                continue;
            };
            let Ok(line) = line.trim().parse::<usize>() else {
                continue;
            };
            if line <= seen {
                break; // the next file's listing (a header) begins
            }
            seen = line;
            let count = count.trim();
            let ours = ours[line - 1];
            if count.is_empty() {
                assert_eq!(ours, None, "seed {seed} line {line}");
            } else {
                assert_eq!(
                    ours.map(llvm_format).as_deref(),
                    Some(count),
                    "seed {seed} line {line}"
                );
                compared += 1;
            }
        }
        assert_eq!(seen, n - 1, "show listed every line of seed {seed}");
    }
    assert!(compared > 500, "only {compared} lines with counts");
}

fn v8() -> V8Runner {
    V8Runner::start(Path::new("node")).expect("node")
}

fn v8_file(runner: &mut V8Runner, text: &str) -> (JsProgram, FileCoverage, FileCoverage) {
    let js = JsProgram::parse(text).unwrap();
    let r = runner.run("t.js", text, RUN, None).unwrap();
    let v8 = FileCoverage {
        name: "t.js".into(),
        lines: js.line_counts(&r.functions),
        statements: js.statement_counts(&r.functions),
        functions: r.functions,
        line_kinds: js.line_kinds(),
        branches: Vec::new(),
        executed_only: false,
    };
    let (itext, counters) = js.instrument(text);
    let n = counters.iter().flatten().count();
    let t = runner.run("t.js", &itext, RUN, Some(n)).unwrap();
    assert_eq!(t.run, r.run, "the instrumented program behaves the same");
    let counts = t.counts.unwrap();
    let truth = FileCoverage {
        name: "t.js".into(),
        functions: vec![],
        lines: vec![],
        statements: js
            .statement_counts(&[])
            .into_iter()
            .zip(&counters)
            .map(|(mut s, c)| {
                s.count = c.map(|k| counts[k] as u64);
                s
            })
            .collect(),
        line_kinds: vec![],
        branches: Vec::new(),
        executed_only: false,
    };
    (js, v8, truth)
}

#[test]
fn v8_counts_per_line_and_statement_match_the_ground_truth() {
    let text = std::fs::read_to_string(fixture("counts.js")).unwrap();
    let mut r = v8();
    let (_, v8, truth) = v8_file(&mut r, &text);
    let line = |n: u32| v8.lines[(n - 1) as usize];
    assert_eq!(line(2), Some(1), "var total");
    assert_eq!(line(4), Some(2), "the for statement runs once per call");
    assert_eq!(line(6), Some(0), "inside the if that never runs");
    assert_eq!(line(9), Some(2), "return");
    assert_eq!(line(1), None, "comment");
    let st = |l: u32| {
        v8.statements
            .iter()
            .find(|s| s.line == l - 1 && s.kind == "ExpressionStatement")
            .unwrap()
            .count
    };
    // `total += i` is the brace-less loop body: 3 + 4 iterations.
    assert_eq!(st(4), Some(7));
    assert!(
        cod::against_truth(&v8, &truth).is_empty(),
        "{:?}",
        cod::against_truth(&v8, &truth)
    );
    let t = |l: u32| {
        truth
            .statements
            .iter()
            .find(|s| s.line == l - 1 && s.kind == "ExpressionStatement")
            .unwrap()
            .count
    };
    assert_eq!(t(4), Some(7));
    assert_eq!(t(6), Some(0));
}

#[test]
fn the_ground_truth_catches_v8_counting_a_return_that_never_runs() {
    let text = std::fs::read_to_string(fixture("conditional-after-return.js")).unwrap();
    let mut r = v8();
    let (_, v8, truth) = v8_file(&mut r, &text);
    let found = cod::against_truth(&v8, &truth);
    // If this fails because nothing is found, V8 fixed the bug: keep the fixture as a
    // regression test and flip the assertion.
    let ret = found
        .iter()
        .find(|i| i.line == 10 && i.statement.as_deref() == Some("ReturnStatement"))
        .unwrap_or_else(|| panic!("{found:?}"));
    assert_eq!(ret.kind, InconsistencyKind::Strong);
    assert_eq!(
        (ret.a, ret.b),
        (Some(10), Some(0)),
        "V8 says 10, the truth 0"
    );
}

#[test]
fn c_variants_compile_keep_outputs_and_map_lines() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let tmp = tempfile::tempdir().unwrap();
    let tools = CTools::find(CProfiler::Gcov);
    let mut variants = 0;
    for seed in 1..=3 {
        let text = csmith_program(seed);
        let n = text.split('\n').count();
        let syntax = CSyntax::parse(&text).unwrap();
        assert!(!syntax.has_errors(), "tree-sitter parses Csmith's C");
        let b = c_profilers::compile(&tools, &tmp.path().join(format!("p{seed}")), &text).unwrap();
        let Ok(c_profilers::Profiled { run, lines, .. }) =
            c_profilers::profile(&tools, &b, &text, RUN)
        else {
            continue;
        };
        let cands = variant::unexecuted_by_lines(&syntax.deletable(), &lines);
        for k in 0..3 {
            if cands.is_empty() {
                break;
            }
            let v = variant::apply(&text, variant::choose(&mut rng, &cands), Breaks::C);
            assert_eq!(v.text.split('\n').count(), n, "lines keep their numbers");
            for &d in &v.deleted_lines {
                assert_eq!(v.map.from_origin(d), None);
                assert!(v.text.split('\n').nth(d as usize).unwrap().trim().len() <= 1);
            }
            let dir = tmp.path().join(format!("v{seed}-{k}"));
            let vb = c_profilers::compile(&tools, &dir, &v.text).expect("variant compiles");
            let vrun = c_profilers::profile(&tools, &vb, &v.text, RUN).unwrap().run;
            assert_eq!(vrun, run, "deleting unexecuted code keeps the output");
            variants += 1;
        }
    }
    assert!(variants >= 3, "{variants} variants");
}

fn sessions(path: &Path) -> Vec<Session> {
    ArchiveReader::open(path)
        .unwrap()
        .sessions()
        .map(|s| s.unwrap())
        .collect()
}

fn run_coverage(args: &[&str], out: &Path) -> std::process::Output {
    Command::new(RECORD)
        .args(["run", "--strategy", "coverage", "--run-timeout", "2"])
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn a_c_campaign_records_p_variants_and_rejections() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("c.mtrace");
    let o = run_coverage(
        &[
            "--engine",
            "gcov",
            "--engine",
            "llvm-cov",
            "--corpus",
            "csmith:1..3",
            "--corpus",
            &fixture("reads-env.c").display().to_string(),
            "--corpus",
            &fixture("spins.c").display().to_string(),
        ],
        &out,
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.contains("recorded 5 programs"), "{stdout}");
    let all = sessions(&out);
    let reason = |name: &str| {
        all.iter()
            .find(|s| s.notes.iter().any(|(_, v)| v.ends_with(name)))
            .map(|s| s.outcome.clone())
            .unwrap()
    };
    assert!(
        matches!(reason("reads-env.c"), SessionOutcome::Rejected { reason } if reason.contains("getenv")),
    );
    assert!(
        matches!(reason("spins.c"), SessionOutcome::Rejected { reason } if reason.contains("does not terminate")),
    );
    let csmith: Vec<&Session> = all
        .iter()
        .filter(|s| s.notes.iter().any(|(_, v)| v.starts_with("csmith:")))
        .collect();
    assert_eq!(csmith.len(), 3);
    // Rejected programs are undecided: shown by reason, not counted as judged.
    let judged_programs = csmith
        .iter()
        .filter(|s| !matches!(s.outcome, SessionOutcome::Rejected { .. }))
        .count();
    assert!(
        stdout.contains(&format!("{judged_programs} programs judged"))
            && stdout.contains(&format!("{} undecided", 5 - judged_programs)),
        "{stdout}"
    );
    // The checks below must check something: most Csmith programs terminate in time.
    assert!(
        judged_programs >= 2,
        "{judged_programs} of 3 Csmith programs judged"
    );
    for s in csmith {
        if matches!(s.outcome, SessionOutcome::Rejected { .. }) {
            continue;
        }
        // P under both profilers, then the variants of each.
        let on_p = s.coverage.iter().filter(|c| c.program == s.program).count();
        assert_eq!(on_p, 2);
        assert_eq!(s.coverage.len(), 2 + s.transformations.len());
        for t in &s.transformations {
            assert_eq!(t.name, cod::DELETE);
            assert_eq!(t.program_before, s.program);
            assert!(t.mapping.is_some());
        }
        let judged = cod::judge_session(s);
        assert!(judged.unjudged.is_empty(), "{:?}", judged.unjudged);
        let judged = judged.found;
        assert!(judged.iter().any(|j| j.relation == Relation::C2v));
        assert!(!judged
            .iter()
            .any(|j| j.inconsistency.kind == InconsistencyKind::Output));
    }
}

#[test]
fn a_js_campaign_is_deterministic_and_rejects_what_cod_cannot_use() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = [
        fixture("counts.js"),
        fixture("conditional-after-return.js"),
        fixture("random.js"),
        fixture("broken.js"),
        root().join("corpus/dbdb/manual"),
    ];
    let mut args: Vec<String> = vec![
        "--engine".into(),
        "v8".into(),
        "--seeds".into(),
        "1..2".into(),
    ];
    for c in &corpus {
        args.push("--corpus".into());
        args.push(c.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let a = tmp.path().join("a.mtrace");
    let b = tmp.path().join("b.mtrace");
    for out in [&a, &b] {
        let o = run_coverage(&args, out);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let norm = |p: &Path| {
        sessions(p)
            .into_iter()
            .map(|mut s| {
                s.started_at_ms = 0;
                s.duration_us = 0;
                s.cpu_us = None;
                (s.id, s)
            })
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    assert_eq!(norm(&a), norm(&b), "same seeds, same archive");
    let all = sessions(&a);
    let outcome = |name: &str| {
        all.iter()
            .find(|s| s.notes.iter().any(|(_, v)| v.ends_with(name)))
            .map(|s| s.outcome.clone())
            .unwrap()
    };
    // Behind the determinism prelude Math.random is seeded: the program is usable.
    assert_eq!(outcome("random.js"), SessionOutcome::Finished);
    // On the engine's own random source its two runs differ: rejected, with the reason.
    let raw = tmp.path().join("raw.mtrace");
    let mut raw_args = args.clone();
    raw_args.push("--no-prelude");
    let o = run_coverage(&raw_args, &raw);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let raw_sessions = sessions(&raw);
    let random = raw_sessions
        .iter()
        .find(|s| s.notes.iter().any(|(_, v)| v.ends_with("random.js")))
        .unwrap();
    assert!(
        matches!(&random.outcome, SessionOutcome::Rejected { reason } if reason.contains("nondeterministic")),
        "{:?}",
        random.outcome
    );
    assert!(
        matches!(outcome("broken.js"), SessionOutcome::Rejected { reason } if reason.contains("parse"))
    );
    let bug = all
        .iter()
        .find(|s| {
            s.notes
                .iter()
                .any(|(_, v)| v.ends_with("conditional-after-return.js"))
        })
        .unwrap();
    assert_eq!(bug.outcome, SessionOutcome::Violated);
    assert!(cod::judge_session(bug)
        .found
        .iter()
        .any(|j| j.relation == Relation::Truth && j.inconsistency.line == 10));
    let variants: usize = all
        .iter()
        .map(|s| {
            s.transformations
                .iter()
                .filter(|t| t.name == cod::DELETE)
                .count()
        })
        .sum();
    assert!(variants > 0, "unexecuted statements were deleted somewhere");
}

#[test]
fn wrong_flags_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("x.mtrace");
    let o = run_coverage(&["--engine", "node", "--corpus", "csmith:1"], &out);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is a debugger"));
    let o = Command::new(RECORD)
        .args(["run", "--engine", "gcov", "--corpus", "csmith:1", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--strategy coverage"));
    let o = run_coverage(&["--engine", "gcov", "--corpus", "csmith:9..1"], &out);
    assert_eq!(o.status.code(), Some(1));
    assert!(!out.exists(), "nothing written for an impossible request");
}

#[test]
fn a_c_coverage_finding_is_reduced_by_cvise_and_keeps_its_class() {
    let fixture = root().join("tests/fixtures/cvise/dead-break.c");
    let class = "c2v gcov/llvm-cov strong break_statement";
    let (dir, out) = record_and_reduce(&["gcov", "llvm-cov"], &fixture, class, "120");
    let lines = |t: &str| t.lines().filter(|l| !l.trim().is_empty()).count();
    let before = std::fs::read_to_string(&fixture).unwrap();
    let program = std::fs::read_to_string(out.join("program.c")).unwrap();
    // How far C-Vise gets within the budget depends on the machine's load: 33 to 25 lines in 60
    // s as in 120 s on an idle machine, the unused global gone; the `printf` that calls into the
    // finding goes later (16 to 12 lines left within 240 s, in earlier runs).
    assert!(lines(&program) < lines(&before), "{program}");
    assert!(
        !program.contains("g_unused"),
        "the padding stays:\n{program}"
    );
    assert!(program.contains("break"), "{program}");
    // Every candidate passed the undefined-behaviour guard, and so does the result; the guard
    // refuses what C-Vise leaves without it (an uninitialized read, an implicit declaration).
    let guard = |file: &Path| {
        Command::new("sh")
            .arg(out.join("well-defined.sh"))
            .arg(file)
            .status()
            .unwrap()
            .code()
    };
    assert_eq!(guard(&out.join("program.c")), Some(0), "{program}");
    let undefined = dir.path().join("undefined.c");
    std::fs::write(
        &undefined,
        "int main(void) { int i; for (; i < 3; i++) puts(\"x\"); return 0; }\n",
    )
    .unwrap();
    assert_eq!(guard(&undefined), Some(1));
    // The reduced program keeps the class by the campaign's own judgement...
    let check = |file: &Path| {
        Command::new(RECORD)
            .arg("coverage-check")
            .arg(file)
            .args(["--engine", "gcov", "--engine", "llvm-cov", "--class", class])
            .status()
            .unwrap()
            .code()
    };
    assert_eq!(check(&out.join("program.c")), Some(0));
    // ... and by the standalone reproducer (gcc, gcov, clang, llvm-cov only): exit 1.
    let o = Command::new("sh")
        .arg(out.join("reproduce.sh"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(said.contains("gcov 1, llvm-cov 0"), "{said}");
    // Without the dead `break;` neither the check nor the reproducer sees it.
    let fixed = dir.path().join("fixed");
    std::fs::create_dir(&fixed).unwrap();
    let text = program.replacen("break;", ";", 1);
    std::fs::write(fixed.join("program.c"), &text).unwrap();
    assert_eq!(check(&fixed.join("program.c")), Some(1), "{text}");
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    for part in [
        "## Versions",
        "## Steps",
        "## Expected",
        "## Actual",
        "gcov@12",
        "Every candidate passed `well-defined.sh`",
    ] {
        assert!(readme.contains(part), "{part}: {readme}");
    }
}

/// A V8 coverage finding (V8 counts a statement that never runs, against the ground truth) in
/// a program padded with statements that do not matter: reduction blanks them and keeps the
/// class, and the bundle's reproducer (Node alone) still shows it.
#[test]
fn a_javascript_coverage_finding_is_reduced_by_statement_blanking() {
    let fixture = root().join("tests/fixtures/reduce/padded-conditional-return.js");
    let class = "truth v8 strong ReturnStatement";
    let (dir, out) = record_and_reduce(&["v8"], &fixture, class, "120");
    let program = std::fs::read_to_string(out.join("program.js")).unwrap();
    let lines = program.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(lines <= 10, "{lines} lines:\n{program}");
    for padding in ["pad(", "table", "Math.max", "console.log", "unused"] {
        assert!(!program.contains(padding), "{padding} stays:\n{program}");
    }
    assert!(program.contains("return 1;"), "{program}");
    let check = |file: &Path| {
        Command::new(RECORD)
            .arg("coverage-check")
            .arg(file)
            .args(["--engine", "v8", "--class", class])
            .status()
            .unwrap()
            .code()
    };
    assert_eq!(check(&out.join("program.js")), Some(0));
    // The standalone reproducer: V8's count of `return y;` against counted.js's counter.
    let o = Command::new("sh")
        .arg(out.join("reproduce.sh"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        said.contains("(return y;)") && said.contains("it ran 0 times"),
        "{said}"
    );
    // Where the statement really is skipped without a conditional expression before it, V8
    // counts it right and the class does not show.
    let fine = dir.path().join("fine.js");
    std::fs::write(
        &fine,
        "function Y(k) {\n    if (k) {\n        return 1;\n    }\n    var y = 2;\n    return y;\n}\nfor (var i = 0; i < 10; i++) Y(true);\n",
    )
    .unwrap();
    assert_eq!(check(&fine), Some(1));
}

/// Records a coverage campaign of `engines` on one program and reduces its session for
/// `class`; the temporary directory and the bundle written into it.
fn record_and_reduce(
    engines: &[&str],
    program: &Path,
    class: &str,
    budget: &str,
) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("c.mtrace");
    let mut run = Command::new(RECORD);
    run.args(["run", "--strategy", "coverage"]);
    for e in engines {
        run.args(["--engine", e]);
    }
    let o = run
        .arg("--corpus")
        .arg(program)
        .arg("--out")
        .arg(&archive)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.path().join("bundle");
    let o = Command::new(RECORD)
        .arg("reduce")
        .arg(&archive)
        .args([
            "--session",
            "0",
            "--class",
            class,
            "--budget",
            budget,
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let profiler = engines[0];
    assert!(
        said.starts_with(&format!("reduced {class} on {profiler}@")),
        "{said}"
    );
    (dir, out)
}

/// A Cod finding of V8 (a line counted differently in P and in its pruned variant P') reduces
/// into a bundle whose reproducer runs both programs under V8's precise coverage (Node alone):
/// exit 1 while the counts differ, 0 when the variant is P itself.
#[test]
fn a_v8_cod_finding_gets_a_standalone_reproducer() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bundle");
    let o = Command::new(RECORD)
        .arg("reduce")
        .arg(root().join("traces/coverage-csmith-fixtures.mtrace"))
        .args([
            "--session",
            "5",
            "--class",
            "cod v8 strong ReturnStatement",
            "--budget",
            "120",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let program = std::fs::read_to_string(out.join("program.js")).unwrap();
    let variant = std::fs::read_to_string(out.join("variant.js")).unwrap();
    assert_ne!(program, variant);
    let reproduce = || {
        let o = Command::new("sh")
            .arg(out.join("reproduce.sh"))
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr),
        )
    };
    let (code, said) = reproduce();
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("the finding shows"), "{said}");
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.contains("`variant.js` (P'"), "{readme}");
    // The same program on both sides: the counts agree and it says so.
    std::fs::write(out.join("variant.js"), &program).unwrap();
    let (code, said) = reproduce();
    assert_eq!(code, Some(0), "{said}");
}

#[test]
fn a_c_cod_reproducer_compares_one_line_of_p_and_its_variant_with_either_profiler() {
    // No C Cod finding is known on this machine's gcc 12 and clang 14, so the script is checked
    // on a variant whose loop runs once more: line 5 runs 3 times in P and 4 times in P'.
    let p = "int x;\nint main(void) {\n  int i;\n  for (i = 0; i < 3; i++)\n    x += i;\n  return 0;\n}\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("program.c"), p).unwrap();
    let run = |profiler: &str, variant: &str| {
        std::fs::write(dir.path().join("variant.c"), variant).unwrap();
        let script =
            morphtrace_recorder::reduce::coverage::c_cod_script(profiler, 4, 4, "strong").unwrap();
        std::fs::write(dir.path().join("reproduce.sh"), script).unwrap();
        let o = Command::new("sh")
            .arg(dir.path().join("reproduce.sh"))
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr),
        )
    };
    for profiler in ["gcov", "llvm-cov"] {
        let (code, said) = run(profiler, &p.replace("i < 3", "i < 4"));
        assert_eq!(code, Some(1), "{profiler}: {said}");
        assert!(
            said.contains(&format!("{profiler}: line 5 of P 3, line 5 of P' 4")),
            "{said}"
        );
        let (code, said) = run(profiler, p);
        assert_eq!(code, Some(0), "{profiler}: {said}");
        // A variant that prints something else is no Cod variant: refused, not judged.
        let printing = p.replace("return 0;", "return 1;");
        let (code, said) = run(profiler, &printing);
        assert_eq!(code, Some(2), "{profiler}: {said}");
        assert!(said.contains("behave differently"), "{said}");
    }
    assert!(morphtrace_recorder::reduce::coverage::c_cod_script("v8", 0, 0, "strong").is_none());
}

/// The command lines (arguments) of the processes that name something under `dir`.
fn processes_under(dir: &Path) -> Vec<Vec<String>> {
    let dir = dir.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| {
            String::from_utf8_lossy(&c)
                .split('\0')
                .filter(|a| !a.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|args| args.iter().any(|a| a.contains(&dir)))
        .collect()
}

/// C-Vise stops a test by killing its process group, and so does morphtrace when the reduction
/// budget ends: the undefined-behaviour guard's sanitized run of a looping candidate must go
/// with it (under plain `timeout` it sat in a group of its own and, once `timeout` was killed,
/// ran on for 40 minutes of a CI run).
#[test]
fn the_guard_s_sanitized_run_dies_with_the_killed_test() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let guard = dir.path().join("well-defined.sh");
    std::fs::write(&guard, morphtrace_recorder::reduce::coverage::WELL_DEFINED).unwrap();
    std::fs::write(
        dir.path().join("spin.c"),
        "int main(void) { volatile int i = 0; for (;;) i++; return 0; }\n",
    )
    .unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut test = Command::new("sh")
        .arg(&guard)
        .arg("spin.c")
        .current_dir(dir.path())
        .env("TMPDIR", &tmp)
        .process_group(0)
        .spawn()
        .unwrap();
    // Compiling with both compilers takes a few seconds; then the sanitized binary spins.
    let t0 = std::time::Instant::now();
    let running = loop {
        let found = processes_under(&tmp);
        // The sanitized binary itself (not clang's command that writes it).
        if found.iter().any(|args| args[0].ends_with("/ub")) {
            break found;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "the guard never ran the sanitized binary: {:?}",
            test.try_wait()
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    // SAFETY: kill(2) on the process group of our own child, which we have not reaped.
    unsafe {
        libc::kill(-(test.id() as i32), libc::SIGKILL);
    }
    let _ = test.wait();
    let t1 = std::time::Instant::now();
    // Well before the guard's own 10-second timeout would end it.
    while t1.elapsed() < Duration::from_secs(3) && !processes_under(&tmp).is_empty() {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left = processes_under(&tmp);
    assert!(
        left.is_empty(),
        "left running after the kill: {left:?} (before it: {running:?})"
    );
}
