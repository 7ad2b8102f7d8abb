//! GenMorph end to end against real Node and the pinned npm libraries: the harness's exact
//! values and loop handling, recording real functions with StrykerJS and our mutants, the
//! analyzer's search, the falsification search, Table II and generated tests run by node.

mod common;

use morphtrace_recorder::genmorph::harness::{Harness, PairCheck};
use morphtrace_recorder::genmorph::mutants::guard_loops;
use morphtrace_schema::genmorph::relations::{FalsificationReport, RelationRecord, RelationSet};
use morphtrace_schema::genmorph::{
    ExecutionBatch, Implementation, InputOrigin, JsValue, MutantRole, Outcome, PRELUDE,
};
use morphtrace_schema::ArchiveReader;
use std::path::{Path, PathBuf};
use std::process::Command;

const RECORD: &str = env!("CARGO_BIN_EXE_morphtrace-record");

fn node() -> PathBuf {
    morphtrace_recorder::debugger::engines::which("node").expect("node on PATH")
}

fn run(cmd: &mut Command) -> String {
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "{cmd:?}\n{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn harness_keeps_values_exact_and_survives_loops() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.js");
    let source = "const helper = require('./helper');\nfunction f(x, n) {\n  if (x === 'loop') { while (n !== 0) { n -= 2; } return n; }\n  if (x === 'helper') return helper.spin(n);\n  if (x === 'swallow') return helper.swallow(n);\n  if (x === 'deep') return helper.deep(1, n);\n  if (x === 'throw') throw new RangeError('no ' + n);\n  return x;\n}\nmodule.exports = f;\n";
    std::fs::write(&path, source).unwrap();
    // A module the function requires: its loops get the harness's guard when it loads, also
    // one whose error the library catches.
    std::fs::write(
        dir.path().join("helper.js"),
        "exports.spin = function (n) { while (n !== 0) n -= 2; return n; };\n\
         exports.swallow = function (n) { try { for (;;) { if (n === 0) break; n -= 2; } } catch (e) { return 'caught'; } return n; };\n\
         exports.deep = function deep(i, n) { 'use strict'\n  if (n <= i) return this === undefined ? 1 : NaN; const h = (i + n) >> 1; return deep(i, h) + deep(h + 1, n); };\n",
    )
    .unwrap();
    let mut h = Harness::start(&node()).unwrap();
    assert!(h.node_version.starts_with('v'));
    h.load("o", &path, source, "m => m").unwrap();
    let n = JsValue::Number;
    let s = |x: &str| JsValue::String(x.into());
    let inputs = vec![
        vec![n(-0.0), n(0.0)],
        vec![n(f64::NAN), n(0.0)],
        vec![n(f64::NEG_INFINITY), n(0.0)],
        vec![
            JsValue::Array(vec![n(1.0), s("a"), JsValue::Bool(true)]),
            n(0.0),
        ],
        vec![JsValue::Undefined, JsValue::Null],
        vec![s("throw"), n(3.0)],
        vec![s("loop"), n(4.0)],
        vec![s("loop"), n(3.0)],
        vec![s("\u{e9}\u{1f600}"), n(1.0)],
        vec![s("helper"), n(4.0)],
        vec![s("helper"), n(3.0)],
        vec![s("swallow"), n(3.0)],
        vec![s("deep"), n(8.0)],
        vec![s("deep"), n(4e8)],
    ];
    let out = h.run("o", None, &inputs, 25).unwrap();
    assert_eq!(out[9], Outcome::Returned(n(0.0)));
    assert_eq!(
        out[10],
        Outcome::Timeout,
        "a helper's loop stops by its count"
    );
    assert_eq!(
        out[11],
        Outcome::Timeout,
        "a caught guard is still a timeout"
    );
    // A guarded function keeps its "use strict" (`this` undefined: 8 leaves of 1).
    assert_eq!(out[12], Outcome::Returned(n(8.0)));
    assert_eq!(out[13], Outcome::Timeout, "8e8 calls stop by their count");
    // Only input 7 (the unguarded loop of the module itself) needed the clock.
    assert_eq!(h.wall_clock_stops, 1);
    for (i, v) in [0, 1, 2, 3, 4, 8].into_iter().map(|i| (i, &inputs[i][0])) {
        assert_eq!(out[i], Outcome::Returned(v.clone()), "input {i}");
    }
    assert_eq!(
        out[5],
        Outcome::Threw {
            name: "RangeError".into(),
            message: "no 3".into()
        }
    );
    assert_eq!(out[6], Outcome::Returned(n(0.0)));
    assert_eq!(out[7], Outcome::Timeout, "3, 1, -1, ... never reaches 0");
    // With the loop guard the same loop stops by the iteration limit, and the harness goes on.
    let guarded = guard_loops(source).unwrap();
    h.load("g", &path, &guarded, "m => m").unwrap();
    let many: Vec<Vec<JsValue>> = (0..200)
        .map(|i| vec![s(["loop", "helper", "swallow"][i % 3]), n(3.0)])
        .collect();
    let t0 = std::time::Instant::now();
    let out = h.run("g", None, &many, 25).unwrap();
    assert!(out.iter().all(|o| *o == Outcome::Timeout));
    assert_eq!(
        h.wall_clock_stops, 1,
        "no call of the guarded module needed the clock"
    );
    assert!(t0.elapsed().as_secs() < 20, "{:?}", t0.elapsed());
    // A relation judged in the harness with the prelude.
    h.prelude(PRELUDE).unwrap();
    let names: Vec<String> = ["x_s", "x_f", "n_s", "n_f", "out_s", "out_f"]
        .iter()
        .map(|x| x.to_string())
        .collect();
    let pairs = vec![
        (vec![n(2.0), n(0.0)], vec![n(2.0), n(0.0)]),
        (vec![n(2.0), n(0.0)], vec![n(3.0), n(0.0)]),
        (vec![s("throw"), n(0.0)], vec![n(3.0), n(0.0)]),
    ];
    let v = h
        .check("o", "__mt.eq(out_s, out_f)", &names, &pairs, 25)
        .unwrap();
    assert!(matches!(v[0], PairCheck::Holds));
    assert!(
        matches!(&v[1], PairCheck::Fails { out_s, out_f } if *out_s == n(2.0) && *out_f == n(3.0))
    );
    assert!(matches!(v[2], PairCheck::Skipped(_)));
    // Bad requests are errors, not crashes.
    assert!(h.run("nope", None, &inputs, 25).is_err());
    assert!(h.load("bad", &path, "function (", "m => m").is_err());
    assert_eq!(h.run("o", None, &inputs[..1], 25).unwrap().len(), 1);
}

fn gcd(a: f64, b: f64) -> f64 {
    let (mut a, mut b) = (a, b);
    while b != 0.0 {
        let r = a % b;
        a = b;
        b = r;
    }
    if a < 0.0 {
        -a
    } else {
        a
    }
}

fn record(out: &Path, subjects: &str, seed: &str) {
    run(Command::new(RECORD).args([
        "genmorph",
        "--subjects",
        subjects,
        "--seed",
        seed,
        "--sources",
        "30",
        "--evaluation",
        "40",
        "--max-training",
        "40",
        "--out",
        out.to_str().unwrap(),
    ]));
}

fn batches(path: &Path) -> Vec<ExecutionBatch> {
    let r = ArchiveReader::open(path).unwrap();
    (0..r.execution_count())
        .map(|i| r.executions(i).unwrap())
        .collect()
}

#[test]
fn records_searches_falsifies_and_generates_tests() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("g.mtrace");
    record(&archive, "mathjs.gcd,lodash.repeat", "3");
    let all = batches(&archive);
    assert_eq!(all.len(), 2);
    for b in &all {
        b.validate().unwrap();
        let (lo, hi) = b.subject.span;
        assert!(b.subject.source[lo as usize..].starts_with("function "));
        assert!(b.inputs.iter().any(|i| i.origin == InputOrigin::Source));
        assert_eq!(
            b.inputs
                .iter()
                .filter(|i| i.origin == InputOrigin::Evaluation)
                .count(),
            40
        );
        assert!(
            b.coverage.0 > 0 && b.coverage.0 <= b.coverage.1,
            "{:?}",
            b.coverage
        );
        assert!(!b.mutants(MutantRole::Training).is_empty());
        assert!(!b.mutants(MutantRole::Evaluation).is_empty());
        for v in &b.variants[1..] {
            let Implementation::Mutant(m) = v else {
                panic!()
            };
            let line_start: usize = b
                .subject
                .source
                .split('\n')
                .take(m.line as usize)
                .map(|l| l.len() + 1)
                .sum();
            assert!(line_start + (m.column as usize) >= lo as usize, "{m:?}");
            assert!(line_start <= hi as usize, "{m:?} outside the function");
        }
        // Follow-ups are their transformation of their source.
        for r in &b.inputs {
            if let InputOrigin::FollowUp {
                source,
                transformation,
            } = r.origin
            {
                let t = &b.transformations[transformation as usize];
                assert!(t.holds(&b.inputs[source as usize].values, &r.values));
            }
        }
    }
    // gcd: the original's outcomes are Euclid's; non-integers throw mathjs's error.
    let g = &all[0];
    assert_eq!(g.subject.name, "mathjs.gcd");
    for (i, r) in g.inputs.iter().enumerate() {
        let (JsValue::Number(a), JsValue::Number(b)) = (&r.values[0], &r.values[1]) else {
            panic!("{r:?}");
        };
        match &g.original()[i] {
            Outcome::Returned(JsValue::Number(x)) => {
                assert!(a.fract() == 0.0 && b.fract() == 0.0);
                assert_eq!(*x, gcd(*a, *b), "gcd({a}, {b})");
            }
            Outcome::Threw { message, .. } => {
                assert!(message.contains("integer"), "{message}");
                assert!(a.fract() != 0.0 || b.fract() != 0.0 || !a.is_finite() || !b.is_finite());
            }
            o => panic!("gcd({a}, {b}): {o:?}"),
        }
    }
    // Some mutant of each role behaves differently from the original somewhere.
    for role in [MutantRole::Training, MutantRole::Evaluation] {
        assert!(g
            .mutants(role)
            .iter()
            .any(|&m| g.outcomes[m] != g.outcomes[0]));
    }
    // The same seed gives the same executions.
    let again = dir.path().join("again.mtrace");
    record(&again, "mathjs.gcd", "3");
    let mut a = batches(&again).remove(0);
    a.elapsed_ms = g.elapsed_ms;
    assert!(a == *g, "recording is deterministic");

    // Search (deterministic: a generation cap), step 1, falsification, Table II, tests.
    let search = |out: &Path| -> RelationSet {
        let text = run(Command::new(common::analyzer()).args([
            "genmorph",
            "search",
            archive.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--budget",
            "120",
            "--max-generations",
            "8",
            "--population",
            "200",
            "--top",
            "2",
        ]));
        assert!(text.contains("evaluations/s"), "{text}");
        serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
    };
    let rel = dir.path().join("rel.json");
    let set = search(&rel);
    assert!(!set.relations.is_empty());
    let set2 = search(&dir.path().join("rel2.json"));
    assert_eq!(
        set.relations, set2.relations,
        "the search is deterministic under a cap"
    );

    // Falsification: add a relation that is false for gcd (gcd(a, b) == gcd(a + 1, b) ...) and
    // one that is true (gcd is symmetric); the first must fall, the second stand.
    let mut set = set;
    let t_perm = g
        .transformations
        .iter()
        .position(|t| t.template() == "PermuteParameters")
        .unwrap();
    let t_add = g
        .transformations
        .iter()
        .position(|t| t.template() == "NumericAddition")
        .unwrap();
    let names: Vec<String> = ["a_s", "a_f", "b_s", "b_f", "out_s", "out_f"]
        .iter()
        .map(|x| x.to_string())
        .collect();
    // A third relation throws on every pair: nothing is judged, so it is undecided, never a
    // survivor (the skipped pairs are counted, not credited).
    for (id, t, tree, js) in [
        (
            "test#true",
            t_perm,
            "(eq out_s out_f)",
            "__mt.eq(out_s, out_f)",
        ),
        (
            "test#false",
            t_add,
            "(eq out_s out_f)",
            "__mt.eq(out_s, out_f)",
        ),
        (
            "test#throws",
            t_perm,
            "(eq out_s out_f)",
            "(() => { throw new Error('no') })()",
        ),
    ] {
        set.relations.push(RelationRecord {
            id: id.into(),
            subject: "mathjs.gcd".into(),
            transformation: t as u32,
            input_relation: g.transformations[t].describe(&g.subject.param_names()),
            text: "out_s == out_f".into(),
            js: js.into(),
            tree: tree.into(),
            names: names.clone(),
            fp: 0,
            fn_: 0,
            evaluation_fp: 0,
        });
    }
    std::fs::write(&rel, serde_json::to_string(&set).unwrap()).unwrap();
    let report = dir.path().join("falsified.json");
    run(Command::new(RECORD).args([
        "falsify",
        archive.to_str().unwrap(),
        "--relations",
        rel.to_str().unwrap(),
        "--out",
        report.to_str().unwrap(),
        "--budget",
        "300",
    ]));
    let rep: FalsificationReport =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let by_id = |id: &str| rep.results.iter().find(|r| r.id == id).unwrap().clone();
    let t = by_id("test#true");
    assert!(!t.falsified && t.undecided.is_none() && t.evaluations >= rep.min_judged);
    let f = by_id("test#false");
    assert!(f.falsified && f.counterexample.as_ref().is_some_and(|c| c.len() == 4));
    let x = by_id("test#throws");
    assert!(!x.falsified && x.evaluations == 0 && x.skipped > 0, "{x:?}");
    assert!(
        x.undecided
            .as_deref()
            .is_some_and(|u| u.contains("0 pairs judged")),
        "{x:?}"
    );
    assert_eq!(rep.relations_digest, Some(set.digest()));
    assert_eq!(
        rep.results.len(),
        set.relations
            .iter()
            .filter(|r| r.evaluation_fp == 0)
            .count(),
        "step 2 judges what step 1 left"
    );

    // Refinement: the counterexamples join the correct states of a second round that starts
    // from the first round's relations; `falsify --all` judges every relation.
    let refined = dir.path().join("refined.json");
    let text = run(Command::new(common::analyzer()).args([
        "genmorph",
        "search",
        archive.to_str().unwrap(),
        "--out",
        refined.to_str().unwrap(),
        "--max-generations",
        "4",
        "--population",
        "200",
        "--counterexamples",
        report.to_str().unwrap(),
        "--warm",
        rel.to_str().unwrap(),
    ]));
    let added: usize = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("refinement: ")?
                .split(' ')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no refinement line in {text}"));
    assert!(added >= 1, "{text}");
    let refined_set: RelationSet =
        serde_json::from_str(&std::fs::read_to_string(&refined).unwrap()).unwrap();
    assert!(
        refined_set
            .relations
            .iter()
            .all(|r| !(r.transformation as usize == t_add && r.tree == "(eq out_s out_f)")),
        "the broken relation is not found again"
    );
    let all_report = dir.path().join("all.json");
    run(Command::new(RECORD).args([
        "falsify",
        archive.to_str().unwrap(),
        "--relations",
        refined.to_str().unwrap(),
        "--out",
        all_report.to_str().unwrap(),
        "--budget",
        "100",
        "--all",
    ]));
    let all: FalsificationReport =
        serde_json::from_str(&std::fs::read_to_string(&all_report).unwrap()).unwrap();
    assert_eq!(all.results.len(), refined_set.relations.len());

    let table = run(Command::new(common::analyzer()).args([
        "genmorph",
        "table",
        archive.to_str().unwrap(),
        "--relations",
        rel.to_str().unwrap(),
        "--falsified",
        report.to_str().unwrap(),
        "--format",
        "csv",
    ]));
    assert!(table.contains("mathjs.gcd,\"int(int,int)\""), "{table}");
    assert!(
        table.contains("lodash.repeat,\"string(string,int)\""),
        "{table}"
    );
    // The undecided relation is counted apart, with its skipped pairs, and not in PZO.
    let gcd_row = table
        .lines()
        .find(|l| l.starts_with("mathjs.gcd,"))
        .unwrap_or_else(|| panic!("{table}"));
    // After the quoted signature: mutants, MRs, PZ, PZO, undecided (step 2), skipped pairs, ...
    let cells: Vec<&str> = gcd_row.split_once("\",").unwrap().1.split(',').collect();
    assert_eq!(cells[4], "1", "one relation undecided by step 2: {gcd_row}");
    let gcd_ids: Vec<&str> = set
        .relations
        .iter()
        .filter(|r| r.subject == "mathjs.gcd")
        .map(|r| r.id.as_str())
        .collect();
    let skipped: u32 = rep
        .results
        .iter()
        .filter(|r| gcd_ids.contains(&r.id.as_str()))
        .map(|r| r.skipped)
        .sum();
    assert_eq!(cells[5], skipped.to_string(), "{gcd_row}");
    // A report is bound to the relation set it judged: another set's report is refused.
    let o = Command::new(common::analyzer())
        .args([
            "genmorph",
            "table",
            archive.to_str().unwrap(),
            "--relations",
        ])
        .arg(&refined)
        .arg("--falsified")
        .arg(&report)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("judged another relation set"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // --subjects keeps those rows only (and their means); an unknown name is an error.
    let table_args = |subjects: &str| {
        let mut c = Command::new(common::analyzer());
        c.args([
            "genmorph",
            "table",
            archive.to_str().unwrap(),
            "--relations",
        ])
        .arg(&rel)
        .arg("--falsified")
        .arg(&report)
        .args(["--format", "csv", "--subjects", subjects]);
        c
    };
    let gcd_only = run(&mut table_args("mathjs.gcd"));
    assert!(gcd_only.contains("mathjs.gcd,"), "{gcd_only}");
    assert!(!gcd_only.contains("lodash.repeat"), "{gcd_only}");
    let o = table_args("mathjs.nope").output().unwrap();
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("has no executions of mathjs.nope"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    // Generated tests pass on the installed (original) library under node --test.
    let tests = dir.path().join("tests");
    run(Command::new(common::analyzer()).args([
        "genmorph",
        "tests",
        archive.to_str().unwrap(),
        "--relations",
        rel.to_str().unwrap(),
        "--falsified",
        report.to_str().unwrap(),
        "--out",
        tests.to_str().unwrap(),
    ]));
    let gcd_tests = tests.join("mathjs.gcd.test.js");
    let text = std::fs::read_to_string(&gcd_tests).unwrap();
    assert!(text.contains("test#true") && !text.contains("test#false"));
    let o = Command::new(node())
        .arg("--test")
        .arg(&gcd_tests)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("# fail 0"), "{out}");
    // ... and fail on a broken gcd: the true relation's test catches an asymmetric mutant.
    let broken = text.replacen("const f = (", "const f0 = (", 1).replacen(
        "\ntest.describe(",
        "\nconst f = (a, b) => (a > b ? f0(a, b) : f0(a, b) + 1);\ntest.describe(",
        1,
    );
    let broken_path = tests.join("broken.test.js");
    std::fs::write(&broken_path, broken).unwrap();
    let o = Command::new(node())
        .arg("--test")
        .arg(&broken_path)
        .output()
        .unwrap();
    assert!(
        !o.status.success(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn bad_input_gives_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.mtrace");
    let fails = |cmd: &mut Command, expect: &str| {
        let o = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{cmd:?} succeeded");
        assert!(err.contains(expect), "{cmd:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    fails(
        Command::new(RECORD)
            .args(["genmorph", "--subjects", "lodash.nope", "--out"])
            .arg(&out),
        "no subject \"lodash.nope\"",
    );
    assert!(!out.exists(), "nothing written for an impossible request");
    let no_frames =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/random-node-manual.mtrace");
    fails(
        Command::new(common::analyzer())
            .args(["genmorph", "search"])
            .arg(&no_frames)
            .args(["--out"])
            .arg(dir.path().join("r.json")),
        "holds no execution frames",
    );
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "{\"relations\": 3}").unwrap();
    fails(
        Command::new(RECORD)
            .arg("falsify")
            .arg(&no_frames)
            .arg("--relations")
            .arg(&garbage)
            .arg("--out")
            .arg(dir.path().join("f.json")),
        "is not a relations file",
    );
    fails(
        Command::new(common::analyzer())
            .args(["genmorph", "search"])
            .arg(&no_frames)
            .args(["--budget", "0", "--out", "r.json"]),
        "--budget must be a positive",
    );
    let recorded =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/genmorph-executions.mtrace");
    fails(
        Command::new(common::analyzer())
            .args(["genmorph", "search"])
            .arg(&recorded)
            .args(["--subjects", "mathjs.gcd", "--counterexamples"])
            .arg(&garbage)
            .arg("--out")
            .arg(dir.path().join("r.json")),
        "is not a falsification report",
    );
    fails(
        Command::new(common::analyzer())
            .args(["genmorph", "search"])
            .arg(&recorded)
            .args(["--subjects", "mathjs.gcd", "--warm"])
            .arg(&garbage)
            .arg("--out")
            .arg(dir.path().join("r.json")),
        "is not a relations file",
    );
    assert!(!dir.path().join("r.json").exists());
}
