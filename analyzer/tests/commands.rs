//! Every analysis command on the archives in `traces/` (recorded by the project on real
//! debuggers), on a truncated copy, and on a hand-built archive with known divergences.

use morphtrace_analyzer::dbdb::{classes, rejudge};
use morphtrace_analyzer::load::{self, Want};
use morphtrace_analyzer::{columns, metamorphic, tables};
use morphtrace_schema::*;
use morphtrace_testkit::synth;
use std::path::{Path, PathBuf};
use std::process::Command;

type Run = std::process::Output;

const ANALYZE: &str = env!("CARGO_BIN_EXE_morphtrace-analyze");

fn traces() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces")
}

fn trace(name: &str) -> PathBuf {
    traces().join(name)
}

const FIREFOX: &str = "differential-chromium-firefox-dbdb.mtrace";
const NODE: &str = "differential-chromium-node-dbdb.mtrace";
const METAMORPHIC: &str = "metamorphic-chromium-node-dbdb.mtrace";

fn run(args: &[&str]) -> Run {
    Command::new(ANALYZE).args(args).output().expect("runs")
}

fn ok(args: &[&str]) -> String {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{args:?} failed: {err}");
    String::from_utf8(o.stdout).expect("utf-8")
}

fn p(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

// ---------- a hand-built archive with known divergences ----------

const PROG_A: &str = "var a = 1;\n\nfor (var i = 0; i < 2; i++) {\n  a += i;\n}\n";
const PROG_B: &str = "// comment\nfor (var j = 0; j < 3; j++) {\n  log(j);\n}\n";

type Output_ = morphtrace_schema::Output;

fn pause(line: u32) -> Output_ {
    Output::Paused(PauseState {
        location: Location::new(line, 0),
        reason: PauseReason::Step,
        engine_reason: None,
        stack: vec![Frame {
            function: String::new(),
            location: Location::new(line, 0),
            scopes: vec![],
        }],
        exception: None,
        async_stack: None,
        condition: None,
    })
}

fn bp(id: u32, line: u32, actual: u32) -> Output_ {
    Output::BreakpointSet {
        id: BreakpointId(id),
        requested: Location::new(line, 0),
        actual: vec![Location::new(actual, 0)],
        source: LocationSource::EngineReported,
        policy: None,
    }
}

/// Two lockstep traces from (action, output A, output B) steps; the last step diverges.
fn session(
    i: u64,
    program: &Program,
    steps: Vec<(Action, Output_, Output_)>,
    kind: DivergenceKind,
) -> Session {
    let mut ta = Trace {
        engine: EngineRef(0),
        events: vec![],
        console: vec![],
        logs: vec![],
    };
    let mut tb = Trace {
        engine: EngineRef(1),
        events: vec![],
        console: vec![],
        logs: vec![],
    };
    let n = steps.len();
    let (last_action, la, lb) = steps[n - 1].clone();
    for (k, (a, x, y)) in steps.into_iter().enumerate() {
        for (t, o) in [(&mut ta, x), (&mut tb, y)] {
            t.events.push(Event {
                at_us: 2 * k as u64,
                kind: EventKind::Action(a.clone()),
            });
            t.events.push(Event {
                at_us: 2 * k as u64 + 1,
                kind: EventKind::Output(o),
            });
        }
    }
    Session {
        id: SessionId(i),
        mode: SessionMode::Differential,
        seed: i,
        engines: vec![EngineRef(0), EngineRef(1)],
        program: program.hash,
        parent: None,
        transformations: vec![],
        outcome: SessionOutcome::Diverged,
        started_at_ms: 0,
        duration_us: 1000 * (i + 1),
        traces: vec![ta, tb],
        divergence: Some(Divergence {
            kind,
            action_index: (n - 1) as u32,
            action: last_action,
            sides: vec![
                DivergenceSide {
                    engine: EngineRef(0),
                    output: Some(la),
                },
                DivergenceSide {
                    engine: EngineRef(1),
                    output: Some(lb),
                },
            ],
            detail: "known".into(),
            groups: Vec::new(),
            suspect: None,
            continued: None,
            program_differs: None,
            pairs: Vec::new(),
            facts: Vec::new(),
        }),
        warnings: vec![],
        coverage: vec![],
        notes: vec![],
        divergences: Vec::new(),
        cpu_us: None,
    }
}

fn hand_built(dir: &Path) -> PathBuf {
    let path = dir.join("known.mtrace");
    let a = Program::new(
        Language::JavaScript,
        PROG_A,
        ProgramOrigin::Inline {
            name: "a.js".into(),
        },
    );
    let b = Program::new(
        Language::JavaScript,
        PROG_B,
        ProgramOrigin::Inline {
            name: "b.js".into(),
        },
    );
    let mut w = ArchiveWriter::create(&path, &synth::header("known"), WriterOptions::default())
        .expect("create");
    w.add_program(&a).unwrap();
    w.add_program(&b).unwrap();
    let sb = |l: u32| Action::SetBreakpoint {
        line: l,
        column: None,
    };
    let sessions = vec![
        // Breakpoint on the empty line 2 of A, and on the comment line 1 of B: (bp, setBreakpoint, Program).
        session(
            1,
            &a,
            vec![(sb(1), bp(0, 1, 2), bp(0, 1, 1))],
            DivergenceKind::BreakpointLocation,
        ),
        session(
            2,
            &b,
            vec![(sb(0), bp(0, 0, 1), bp(0, 0, 2))],
            DivergenceKind::BreakpointLocation,
        ),
        // Step over at the for loop header, in both programs: (pause, stepOver, ForStatement).
        session(
            3,
            &a,
            vec![
                (Action::Start, pause(0), pause(0)),
                (Action::StepOver, pause(2), pause(2)),
                (Action::StepOver, pause(3), pause(2)),
            ],
            DivergenceKind::PauseLocation,
        ),
        session(
            4,
            &b,
            vec![
                (Action::Start, pause(1), pause(1)),
                (Action::StepOver, pause(2), pause(1)),
            ],
            DivergenceKind::PauseLocation,
        ),
        // Variables after a step into from `a += i;`: (variables, stepInto, ExpressionStatement).
        session(
            5,
            &a,
            vec![
                (Action::Start, pause(0), pause(0)),
                (sb(3), bp(0, 3, 3), bp(0, 3, 3)),
                (Action::Resume, pause(3), pause(3)),
                (Action::StepInto, pause(2), pause(2)),
            ],
            DivergenceKind::Variables,
        ),
    ];
    for s in &sessions {
        w.append(s).unwrap();
    }
    w.finish().unwrap();
    path
}

#[test]
fn classes_of_a_hand_built_archive_are_the_expected_ones() {
    let dir = tempfile::tempdir().unwrap();
    let path = hand_built(dir.path());
    let d = load::load(&[path], Want::SUMMARY).unwrap();
    let c = classes::classes(&d.frames.divergences, &classes::DIVERGENCE_KEYS).unwrap();
    let rows: Vec<(String, String, String, u32)> = {
        let k = columns::strings(&c, "kind").unwrap();
        let l = columns::strings(&c, "last_action").unwrap();
        let n = columns::strings(&c, "ast_node").unwrap();
        let s = columns::u32s(&c, "size").unwrap();
        (0..c.height())
            .map(|i| (k[i].clone(), l[i].clone(), n[i].clone(), s[i]))
            .collect()
    };
    let r = |a: &str, b: &str, c: &str, n: u32| (a.to_string(), b.to_string(), c.to_string(), n);
    assert_eq!(
        rows,
        vec![
            r("breakpoint-location", "setBreakpoint", "Program", 2),
            r("pause-location", "stepOver", "ForStatement", 2),
            r("variables", "stepInto", "ExpressionStatement", 1),
        ]
    );
    // The line a class is computed from is where the last action was triggered (1-based).
    let lines = columns::u32s(&d.frames.divergences, "line").unwrap();
    assert_eq!(lines, [2, 1, 3, 2, 4]);
}

#[test]
fn sample_draws_round_robin_from_the_hand_built_classes() {
    let dir = tempfile::tempdir().unwrap();
    let path = hand_built(dir.path());
    let out = ok(&["sample", p(&path), "-n", "4", "--seed", "3"]);
    assert!(
        out.starts_with("4 of 5 divergences drawn from 3 classes"),
        "{out}"
    );
    let classes: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.split(" [").next().unwrap())
        .collect();
    assert_eq!(classes.len(), 4, "{out}");
    assert!(classes[0].ends_with("class 1"), "{out}");
    assert!(classes[1].ends_with("class 2"), "{out}");
    assert!(classes[2].ends_with("class 3"), "{out}");
    assert!(classes[3].ends_with("class 1"), "{out}");
    assert!(
        out.contains("=> stepOver") || out.contains("=> setBreakpoint"),
        "{out}"
    );
}

// ---------- the recorded archives in traces/ ----------

#[test]
fn triage_gives_each_class_its_verdict_and_lists_the_new_ones() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("triage.toml");
    // Only the largest class (breakpoints on a line holding only `}`) is judged.
    std::fs::write(
        &t,
        r#"
[[class]]
family = "divergence"
key = { kind = "breakpoint-location", ast_node = "BlockStatement" }
engines = ["firefox"]
verdict = "by-design"
note = "sliding is not specified"
evidence = ["https://example.org/sliding"]
examples = [{ key = { kind = "breakpoint-location", ast_node = "BlockStatement" }, detail = "breakpoint at [3:1] vs [4:1]", engines = ["chromium@156", "firefox@153"] }]
near_misses = [{ key = { kind = "breakpoint-location", ast_node = "Program" }, detail = "breakpoint at [3:1] vs [4:1]", engines = ["chromium@156", "firefox@153"] }]
"#,
    )
    .unwrap();
    let all = ok(&[
        "classes",
        p(&trace(FIREFOX)),
        "--triage",
        p(&t),
        "--format",
        "csv",
    ]);
    let judged: Vec<&str> = all.lines().filter(|l| l.contains(",by design,")).collect();
    assert_eq!(judged.len(), 1, "{all}");
    assert!(judged[0].starts_with("breakpoint-location,setBreakpoint,BlockStatement,20,"));
    let o = run(&[
        "classes",
        p(&trace(FIREFOX)),
        "--triage",
        p(&t),
        "--new",
        "--format",
        "csv",
    ]);
    assert_eq!(o.status.code(), Some(1), "new classes remain");
    let new = String::from_utf8_lossy(&o.stdout);
    assert!(!new.contains("BlockStatement,20"), "{new}");
    assert_eq!(
        new.lines().count(),
        1 + 23,
        "header and the 23 other classes: {new}"
    );
    assert!(new.lines().skip(1).all(|l| l.contains(",new,")), "{new}");
    // A rule for every divergence: nothing new, exit 0.
    std::fs::write(
        &t,
        "[[class]]\nfamily = \"divergence\"\nverdict = \"harness\"\nnote = \"all\"\n",
    )
    .unwrap();
    let none = ok(&[
        "classes",
        p(&trace(FIREFOX)),
        "--triage",
        p(&t),
        "--new",
        "--format",
        "csv",
    ]);
    assert_eq!(none.lines().count(), 1, "{none}");
    // A broken triage file is an error naming it, not an empty triage.
    std::fs::write(
        &t,
        "[[class]]\nfamily = \"divergence\"\nverdict = \"maybe\"\n",
    )
    .unwrap();
    let o = run(&["classes", p(&trace(FIREFOX)), "--triage", p(&t)]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("triage.toml"));
}

#[test]
fn the_repository_triage_judges_every_warning_and_inconsistency_class_of_traces() {
    // triage.toml is found from the current directory up (the repository's).
    let out = ok(&[
        "classes",
        p(&trace(METAMORPHIC)),
        p(&trace("coverage-csmith-fixtures.mtrace")),
        "--format",
        "csv",
    ]);
    assert!(!out.contains(",new,"), "{out}");
    assert!(out.contains(",engine bug,"), "the V8 coverage bug: {out}");
}

#[test]
fn classes_of_the_chromium_vs_firefox_campaign() {
    let out = ok(&["classes", p(&trace(FIREFOX))]);
    assert!(out.contains(" classes of 59 divergences"), "{out}");
    // A breakpoint on a line holding only `}`: V8 and SpiderMonkey place it apart (the largest class).
    let first = out.lines().nth(4).unwrap();
    assert!(
        first.starts_with("| breakpoint-location | setBreakpoint |"),
        "{out}"
    );
    let csv = ok(&[
        "classes",
        p(&trace(FIREFOX)),
        "--format",
        "csv",
        "--top",
        "3",
    ]);
    assert!(
        csv.starts_with("Diff. type,Last action,AST node,Size,in %,Verdict,Note\n"),
        "{csv}"
    );
    assert_eq!(
        csv.lines().count(),
        4,
        "header and the top 3 classes: {csv}"
    );
    assert!(!out.contains("warnings"), "no empty warnings table: {out}");
}

#[test]
fn tables_reproduce_the_shape_of_dbdb_table_2_and_figure_7() {
    let d = load::load(&[trace(FIREFOX)], Want::SUMMARY).unwrap();
    let t2 = tables::table2(&d.frames.divergences, 6).unwrap();
    assert_eq!(
        t2.columns,
        ["Diff. type", "Last action", "AST node", "Size", "in %"]
    );
    assert_eq!(t2.rows.len(), 6);
    let sizes: Vec<u32> = t2.rows.iter().map(|r| r[3].parse().unwrap()).collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
    let f7 = tables::figure7(&d.frames.sessions).unwrap();
    assert_eq!(f7.columns[0], "execution actions ≤ x");
    assert_eq!(f7.columns[1], "program finished");
    // Cumulative: each column never decreases, and the last row counts every completed run.
    let completed = f7.columns.len() - 2;
    for c in 1..=completed {
        let v: Vec<u32> = f7.rows.iter().map(|r| r[c].parse().unwrap()).collect();
        assert!(v.windows(2).all(|w| w[0] <= w[1]), "column {c}: {v:?}");
    }
    let last: u32 = f7.rows.last().unwrap()[completed].parse().unwrap();
    let outcomes = columns::strings(&d.frames.sessions, "outcome").unwrap();
    let done = outcomes
        .iter()
        .filter(|o| *o == "finished" || *o == "diverged")
        .count();
    assert_eq!(last as usize, done);
    // Breakpoint divergences are found before the program runs (x = 0), as in DBDB.
    let bp = f7
        .columns
        .iter()
        .position(|c| c == "breakpoint-location")
        .unwrap();
    assert!(f7.rows[0][bp].parse::<u32>().unwrap() > 0);

    for format in ["markdown", "csv", "latex"] {
        let out = ok(&[
            "tables",
            p(&trace(FIREFOX)),
            "--format",
            format,
            "--paper",
            "dbdb",
        ]);
        let want = if format == "csv" {
            "# table2\n"
        } else {
            "Table 2"
        };
        assert!(out.contains(want), "{format}: {out}");
    }
    let latex = ok(&[
        "tables",
        p(&trace(FIREFOX)),
        "--format",
        "latex",
        "--table",
        "table2",
    ]);
    assert!(latex.contains("\\begin{tabular}{lllrr}"), "{latex}");
    let dir = tempfile::tempdir().unwrap();
    let listed = ok(&[
        "tables",
        p(&trace(FIREFOX)),
        "--format",
        "csv",
        "--out",
        p(dir.path()),
    ]);
    assert!(listed.contains("figure7.csv"), "{listed}");
    assert!(dir.path().join("table2.csv").exists());
    // A table by a name that is none: a usage error (docs/concepts.md, exit codes).
    let o = run(&["tables", p(&trace(FIREFOX)), "--table", "nonsense"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn relations_rejudged_under_the_recorded_policy_agree_with_the_recording() {
    for name in [FIREFOX, NODE] {
        let r = morphtrace_schema::ArchiveReader::open(trace(name)).unwrap();
        let j = rejudge::rejudge(&[(name.to_string(), r)], &[]);
        assert_eq!(j.sessions, 90);
        assert!(j.inconsistent.is_empty(), "{name}: {:?}", j.inconsistent);
    }
    let out = ok(&[
        "relations",
        p(&trace(FIREFOX)),
        "--policy",
        "loose=variables=false,call_stack=false",
    ]);
    let row = |policy: &str| -> Vec<String> {
        out.lines()
            .find(|l| l.starts_with(&format!("| {policy} |")))
            .unwrap_or_else(|| panic!("no {policy} row: {out}"))
            .split('|')
            .map(|c| c.trim().to_string())
            .collect()
    };
    let diverged = |policy: &str| row(policy)[2].parse::<u32>().unwrap();
    assert_eq!(diverged("recorded"), 59);
    // Ignoring breakpoint outputs removes every breakpoint-location divergence (31 of them).
    assert_eq!(diverged("ignore breakpoint outputs"), 59 - 31);
    assert!(diverged("compare columns") > 59);
    assert!(diverged("loose") < diverged("ignore variables"));
    let o = run(&["relations", p(&trace(FIREFOX)), "--policy", "x=colour=true"]);
    assert_eq!(o.status.code(), Some(2), "a usage error");
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown key"));
}

/// Finding 1 of the honest-counts issue: a session whose engine died, timed out or lacks an
/// answer is undecided under every policy, never agreed; only a session recorded to its end is.
#[test]
fn relations_never_call_a_session_that_was_not_judged_to_its_end_agreed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("undecided.mtrace");
    let a = Program::new(
        Language::JavaScript,
        PROG_A,
        ProgramOrigin::Inline {
            name: "a.js".into(),
        },
    );
    let agreeing = |i: u64, outcome: SessionOutcome| {
        let mut s = session(
            i,
            &a,
            vec![
                (Action::Start, pause(0), pause(0)),
                (Action::StepOver, pause(2), pause(2)),
            ],
            DivergenceKind::PauseLocation,
        );
        s.outcome = outcome;
        s.divergence = None;
        s
    };
    let mut unanswered = agreeing(4, SessionOutcome::Finished);
    unanswered.traces[1].events.pop();
    let sessions = [
        agreeing(1, SessionOutcome::Finished),
        agreeing(2, SessionOutcome::Timeout),
        agreeing(
            3,
            SessionOutcome::HarnessError {
                message: "the engine died".into(),
            },
        ),
        unanswered,
    ];
    let mut w = ArchiveWriter::create(&path, &synth::header("undecided"), WriterOptions::default())
        .unwrap();
    w.add_program(&a).unwrap();
    for s in &sessions {
        w.append(s).unwrap();
    }
    w.finish().unwrap();
    let r = ArchiveReader::open(&path).unwrap();
    let j = rejudge::rejudge(&[("undecided".into(), r)], &[]);
    assert_eq!(j.sessions, 4);
    let undecided = |reason: &str| rejudge::VariantDecision::Undecided {
        reason: reason.into(),
    };
    for v in &j.decisions {
        assert_eq!(v.len(), j.variants.len());
    }
    let recorded: Vec<_> = j.decisions.iter().map(|v| v[0].clone()).collect();
    assert_eq!(
        recorded,
        [
            rejudge::VariantDecision::Agreed,
            undecided("timeout"),
            undecided("harness-error"),
            undecided("an action without an answer"),
        ]
    );
    // Session 4 was recorded as finished, yet a trace lacks an answer: the self-check says so.
    assert_eq!(j.inconsistent, ["undecided: session 0000000000000004"]);
    // The table counts one agreed and three undecided sessions, by reason, and rates over judged ones.
    let out = ok(&["relations", p(&path)]);
    let row = out
        .lines()
        .find(|l| l.starts_with("| recorded |"))
        .unwrap_or_else(|| panic!("{out}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(&cells[2..6], ["0", "0.0%", "1", "3"], "{row}");
    assert!(
        cells[6].contains("timeout: 1") && cells[6].contains("harness-error: 1"),
        "{row}"
    );
}

/// Sessions are told apart as the campaign made them: a metamorphic campaign's follow-ups of
/// one parent (same program, seed and mode) are each a session of their own, and every one is
/// counted and matched (they used to collapse into one per program and seed).
#[test]
fn compare_counts_and_matches_every_session_of_a_metamorphic_campaign() {
    let info = ok(&["info", p(&trace(METAMORPHIC))]);
    assert!(info.contains("sessions  718 "), "{info}");
    let same = ok(&["compare", p(&trace(METAMORPHIC)), p(&trace(METAMORPHIC))]);
    assert!(
        same.contains("| chromium@156.0.8078.79, node@20.20.2 | 718 | 0 | 718 | 0 |"),
        "{same}"
    );
    assert!(same.contains("0 matched sessions changed."), "{same}");
}

#[test]
fn compare_shows_what_changed_between_two_campaigns() {
    let same = ok(&["compare", p(&trace(FIREFOX)), p(&trace(FIREFOX))]);
    assert!(same.contains("0 matched sessions changed."), "{same}");
    let out = ok(&["compare", p(&trace(NODE)), p(&trace(FIREFOX))]);
    assert!(out.contains("| A | B | sessions | changed |"), "{out}");
    // Recorded before the engines were asked for their own break positions: the sliding rules,
    // which need that fact, judge none of its placements apart (issue 66).
    assert!(
        out.contains(
            "| breakpoint-location | setBreakpoint | BlockStatement | 0 | 20 | appeared, untriaged | new |"
        ),
        "{out}"
    );
    // A class that appeared and that a rule judges (Firefox's slow step out); Firefox's skipped
    // breakpoint, whose rule asks for the remark the recorder makes since issue 66
    // (`passed-where-it-stood`), which this recording predates: untriaged.
    for row in [
        "| termination | stepOut | ForStatement | 0 | 2 | appeared | engine bug |",
        "| pause-location | resume | VariableDeclaration | 0 | 1 | appeared, untriaged | new |",
    ] {
        assert!(out.contains(row), "{row}: {out}");
    }
    assert!(out.contains("matched sessions changed."), "{out}");
    // Under a triage that judges only the slow step out, the skipped breakpoint is flagged.
    let dir = tempfile::tempdir().unwrap();
    let one_rule = dir.path().join("triage.toml");
    std::fs::write(
        &one_rule,
        "[[class]]\nfamily = \"divergence\"\nkey = { kind = \"termination\" }\n\
         verdict = \"engine-bug\"\nnote = \"slow\"\n",
    )
    .unwrap();
    let out = ok(&[
        "compare",
        p(&trace(NODE)),
        p(&trace(FIREFOX)),
        "--triage",
        p(&one_rule),
    ]);
    assert!(
        out.contains("| termination | stepOut | ForStatement | 0 | 2 | appeared | engine bug |"),
        "{out}"
    );
    assert!(
        out.contains(
            "| pause-location | resume | VariableDeclaration | 0 | 1 | appeared, untriaged | new |"
        ),
        "{out}"
    );
}

#[test]
fn report_is_one_self_contained_html_page_with_svg_plots() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.html");
    ok(&["report", p(&traces()), "--out", p(&out)]);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(
        html.matches("<svg").count() >= 2,
        "Figure 7 and class sizes"
    );
    assert!(html.contains("DBDB Table 2"));
    assert!(!html.contains("<script") && !html.contains("src=\"http"));
    // New classes apart from triaged ones (the repository's triage.toml), new first.
    let new = html
        .find("id=\"divergence_classes_new\"")
        .expect("new classes");
    let triaged = html
        .find("id=\"divergence_classes_triaged\"")
        .expect("triaged classes");
    assert!(new < triaged);
    assert!(html[triaged..].contains("by design"));
    assert!(
        html[new..triaged].contains("<td>new</td>"),
        "{}",
        &html[new..triaged]
    );
}

#[test]
fn export_writes_every_frame_as_parquet_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let listed = ok(&[
        "export",
        p(&traces()),
        "--parquet",
        p(&dir.path().join("pq")),
    ]);
    for frame in [
        "sessions",
        "actions",
        "outputs",
        "frames",
        "variables",
        "breakpoints",
        "divergences",
        "warnings",
        "coverage_lines",
    ] {
        assert!(
            dir.path()
                .join("pq")
                .join(format!("{frame}.parquet"))
                .exists(),
            "{frame}: {listed}"
        );
    }
    ok(&[
        "export",
        p(&trace(NODE)),
        "--csv",
        p(&dir.path().join("csv")),
    ]);
    let sessions = std::fs::read_to_string(dir.path().join("csv/sessions.csv")).unwrap();
    assert_eq!(sessions.lines().count(), 91, "header and 90 sessions");
    assert!(sessions.starts_with("archive,session,id,mode,seed,"));
    let o = run(&["export", p(&trace(NODE))]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "no output directory given: a usage error"
    );
}

#[test]
fn the_readme_documents_every_exported_column() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("analyzer/README.md");
    let doc = ok(&["export", "--schema"]);
    assert!(
        readme.contains(&doc),
        "analyzer/README.md is out of date: paste `morphtrace-analyze export --schema` into it"
    );
}

// ---------- damaged and wrong input ----------

#[test]
fn a_truncated_archive_is_analyzed_for_what_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.mtrace");
    let bytes = std::fs::read(trace(FIREFOX)).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let o = run(&["tables", p(&cut), "--table", "outcomes"]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("damaged or truncated"), "{err}");
    let d = load::load(std::slice::from_ref(&cut), Want::ALL).unwrap();
    let n = d.frames.sessions.height();
    assert!(n > 30 && n < 90, "{n} sessions recovered");
    assert!(d.sources[0].is_damaged());
    for cmd in [
        &["classes"][..],
        &["sample", "-n", "2"],
        &["relations"],
        &["compare", p(&trace(FIREFOX))],
    ] {
        let mut args = vec![cmd[0], p(&cut)];
        args.extend(&cmd[1..]);
        let o = run(&args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn unreadable_and_missing_inputs_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.mtrace");
    std::fs::write(&junk, b"not an archive at all").unwrap();
    // The readable archive is still analyzed; the exit status says something was not.
    let o = run(&["classes", p(&junk), p(&trace(NODE))]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("divergences"));
    assert!(String::from_utf8_lossy(&o.stderr).contains("junk.mtrace"));
    let o = run(&["tables", "/nonexistent/x.mtrace"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such file"));
    let o = run(&["classes", p(&dir.path().join("*.nothing"))]);
    assert_eq!(o.status.code(), Some(1));
    let o = run(&["tables", p(&trace(NODE)), "--format", "pdf"]);
    assert_eq!(o.status.code(), Some(2), "usage error");
    for args in [
        &["classes"][..],
        &["sample"],
        &["tables"],
        &["compare"],
        &["report"],
    ] {
        assert_eq!(run(args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn globs_and_directories_expand_to_archives() {
    let pattern = traces().join("differential-*.mtrace");
    let d = load::load(&load::expand(&[pattern]).unwrap(), Want::SUMMARY).unwrap();
    assert_eq!(d.sources.len(), 2);
    let all = load::expand(&[traces()]).unwrap();
    assert!(all.len() >= 5);
    assert!(all.windows(2).all(|w| w[0] < w[1]));
}

// ---------- metamorphic campaigns ----------

/// The recorded metamorphic campaign: every follow-up judged again offline gets the verdict the
/// recorder gave it online, and the ISSTA tables count the recorded warnings.
#[test]
fn recorded_follow_ups_rejudged_offline_agree_with_the_recording() {
    let path = trace(METAMORPHIC);
    let r = ArchiveReader::open(&path).unwrap();
    let m = metamorphic::rejudge(&[(METAMORPHIC.to_string(), r)]);
    assert!(m.follow_ups.len() > 200, "{}", m.follow_ups.len());
    assert_eq!(m.orphans, 0);
    let differ: Vec<_> = m.follow_ups.iter().filter(|f| !f.agrees()).collect();
    assert!(differ.is_empty(), "{differ:?}");
    let transformations: std::collections::BTreeSet<&str> = m
        .follow_ups
        .iter()
        .map(|f| f.transformation.as_str())
        .collect();
    assert_eq!(
        transformations.len(),
        9,
        "all of Table 1: {transformations:?}"
    );
    let out = ok(&["relations", p(&path)]);
    assert!(
        out.contains("Metamorphic follow-ups re-judged offline against their parents"),
        "{out}"
    );
    assert!(out.contains("; 0 re-judged differently now."), "{out}");
    assert!(!out.contains("Differential sessions re-judged"), "{out}");

    let d = load::load(std::slice::from_ref(&path), Want::SUMMARY).unwrap();
    let warnings = d.frames.warnings.height();
    let recorded = m.follow_ups.iter().filter(|f| f.recorded.is_some()).count();
    assert_eq!(warnings, recorded);
    let f15 = tables::figure15(&d.frames.warnings).unwrap();
    if warnings > 0 {
        assert_eq!(
            f15.rows.last().unwrap()[2],
            warnings.to_string(),
            "cumulative: {:?}",
            f15.rows
        );
    }
    let rounds = columns::u32s(&d.frames.sessions, "round").unwrap();
    assert_eq!(rounds.into_iter().max(), Some(5), "five rounds");
}

// ---------- metamorphic warnings (hand-built: known classes and rounds) ----------

/// Follow-ups with warnings in rounds 1–3, some after an interactive transformation.
fn metamorphic(dir: &Path) -> PathBuf {
    let path = dir.join("meta.mtrace");
    let a = Program::new(
        Language::JavaScript,
        PROG_A,
        ProgramOrigin::Inline {
            name: "a.js".into(),
        },
    );
    let mut w =
        ArchiveWriter::create(&path, &synth::header("meta"), WriterOptions::default()).unwrap();
    w.add_program(&a).unwrap();
    // (round, transformation, interactive, line the differing event's action was issued from)
    let cases = [
        (1, "add-breakpoint-and-continue", true, 2),
        (1, "insert-dead-code", false, 2),
        (2, "add-breakpoint-and-continue", true, 3),
        (3, "replace-continue-by-step", true, 2),
        (3, "insert-dead-code", false, 2),
    ];
    for (i, (round, name, interactive, line)) in cases.into_iter().enumerate() {
        let mut s = session(
            100 + i as u64,
            &a,
            vec![
                (Action::Start, pause(0), pause(0)),
                (Action::StepOver, pause(line), pause(line)),
                (Action::StepOver, pause(4), pause(4)),
            ],
            DivergenceKind::PauseLocation,
        );
        s.mode = SessionMode::Metamorphic;
        s.traces.truncate(1);
        s.engines.truncate(1);
        s.divergence = None;
        s.outcome = SessionOutcome::Violated;
        s.parent = Some(ParentRef {
            session: SessionId(1),
            round,
        });
        s.transformations = vec![TransformationRecord {
            name: name.into(),
            interactive,
            params: vec![],
            program_before: a.hash,
            program_after: a.hash,
            mapping: None,
        }];
        s.warnings = vec![Warning {
            relation: "same-pauses".into(),
            round,
            against: Some(SessionId(1)),
            // Event 5 answers the second stepOver, issued from `line`.
            event_index: Some(5),
            message: "a pause is missing".into(),
        }];
        w.append(&s).unwrap();
    }
    w.finish().unwrap();
    path
}

#[test]
fn warnings_get_classes_rounds_and_the_interactive_share() {
    let dir = tempfile::tempdir().unwrap();
    let path = metamorphic(dir.path());
    let d = load::load(std::slice::from_ref(&path), Want::SUMMARY).unwrap();
    let c = classes::classes(&d.frames.warnings, &classes::WARNING_KEYS).unwrap();
    assert_eq!(
        columns::strings(&c, "transformation").unwrap(),
        [
            "insert-dead-code",
            "add-breakpoint-and-continue",
            "add-breakpoint-and-continue",
            "replace-continue-by-step"
        ]
    );
    assert_eq!(
        columns::strings(&c, "ast_node").unwrap(),
        [
            "ForStatement",
            "ExpressionStatement",
            "ForStatement",
            "ForStatement"
        ]
    );
    assert_eq!(columns::u32s(&c, "size").unwrap(), [2, 1, 1, 1]);
    let f15 = tables::figure15(&d.frames.warnings).unwrap();
    assert_eq!(
        f15.rows,
        [["1", "2", "2"], ["2", "1", "3"], ["3", "2", "5"]]
    );
    let share = tables::interactive_share(&d.frames.warnings).unwrap();
    assert_eq!(share.rows, [["5", "3", "60.0%"]]);
    let out = ok(&["sample", p(&path), "--warnings", "-n", "2"]);
    assert!(
        out.starts_with("2 of 5 warnings drawn from 4 classes"),
        "{out}"
    );
    assert!(
        out.contains("=> stepOver"),
        "the excerpt reaches the action before the warning: {out}"
    );
    let cls = ok(&["classes", p(&path)]);
    assert!(cls.contains("### 4 classes of 5 warnings"), "{cls}");
    assert!(!cls.contains("divergences"), "{cls}");
    let tables = ok(&["tables", p(&path), "--paper", "issta"]);
    assert!(
        tables.contains("| add-breakpoint-and-continue | 2 | 40.0% |"),
        "{tables}"
    );
}

/// Issue 69: `show --diverged` on a metamorphic campaign prints the follow-ups whose relation did
/// not hold (the committed campaign has two), each with its parent, its transformations and the
/// warning, and no follow-up that kept its relations.
#[test]
fn show_diverged_prints_the_metamorphic_warnings_with_their_transformations() {
    let out = ok(&[
        "show",
        p(&trace(METAMORPHIC)),
        "--diverged",
        "--limit",
        "50",
    ]);
    let heads: Vec<&str> = out.lines().filter(|l| l.starts_with("session ")).collect();
    assert_eq!(heads.len(), 2, "{out}");
    assert!(
        heads.iter().all(|h| h.contains("outcome Violated")),
        "{out}"
    );
    assert_eq!(out.matches("\nwarning: ").count(), 2, "{out}");
    assert_eq!(out.matches("\nfollow-up of ").count(), 2, "{out}");
    assert!(out.contains("\ntransformation: "), "{out}");
}

#[test]
fn show_prints_sessions_by_id_or_position_and_refuses_unknown_ones() {
    let out = ok(&["show", p(&trace(FIREFOX)), "--diverged", "--limit", "2"]);
    assert_eq!(
        out.matches("\nsession ").count() + usize::from(out.starts_with("session ")),
        2,
        "{out}"
    );
    // Numbered from 0, as `reduce --divergence N` takes them.
    assert!(out.contains("divergence #0: "), "{out}");
    assert!(
        out.contains("--- chromium@") && out.contains("--- firefox@"),
        "{out}"
    );
    let id = out
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap()
        .to_string();
    let by_id = ok(&["show", p(&trace(FIREFOX)), &id]);
    assert!(by_id.starts_with(&format!("session {id}")), "{by_id}");
    let by_position = ok(&["show", p(&trace(FIREFOX)), "0"]);
    assert!(by_position.starts_with("session "), "{by_position}");
    let o = run(&["show", p(&trace(FIREFOX)), "ffffffffffffffff"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such session"));
}

// ---------- coverage campaigns ----------

const COVERAGE: &str = "coverage-csmith-fixtures.mtrace";

#[test]
fn coverage_tables_classes_and_samples() {
    let t = ok(&[
        "tables",
        p(&trace(COVERAGE)),
        "--paper",
        "cod",
        "--format",
        "csv",
    ]);
    // Every relation the fixture exercises, with its profiler.
    assert!(t.contains("c2v,gcov/llvm-cov,"), "{t}");
    assert!(t.contains("truth,v8,"), "{t}");
    // The V8 bug of tests/fixtures/coverage/conditional-after-return.js, as a class.
    let c = ok(&["classes", p(&trace(COVERAGE))]);
    assert!(
        c.contains("| truth | v8 | strong | ReturnStatement |"),
        "{c}"
    );
    assert!(
        !c.contains("Diff. type"),
        "no divergence table for a coverage archive: {c}"
    );
    // C2V's weak inconsistencies are noise: none of them is a class.
    assert!(!c.contains("| c2v | gcov/llvm-cov | weak |"), "{c}");
    let s = ok(&["sample", p(&trace(COVERAGE)), "-n", "3", "--context", "1"]);
    assert!(s.contains("coverage inconsistencies drawn from"), "{s}");
    assert!(s.contains("=>"), "the line is marked: {s}");
    assert!(
        s.contains("return y;"),
        "the program text around the line: {s}"
    );
    let info = ok(&["info", p(&trace(COVERAGE))]);
    assert!(info.contains("rejected"), "{info}");
}

#[test]
fn coverage_inconsistencies_are_exported() {
    let dir = tempfile::tempdir().unwrap();
    ok(&["export", p(&trace(COVERAGE)), "--csv", p(dir.path())]);
    let csv = std::fs::read_to_string(dir.path().join("inconsistencies.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(
        header.starts_with("archive,session,relation,profiler,engine"),
        "{header}"
    );
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert!(
        rows.iter()
            .any(|r| r.contains(",c2v,") && r.ends_with(",true")),
        "C2V weak rows are noise"
    );
    assert!(rows
        .iter()
        .any(|r| r.contains(",truth,") && r.contains(",strong,") && r.ends_with(",false")));
    let lines = std::fs::read_to_string(dir.path().join("coverage_lines.csv")).unwrap();
    assert!(
        lines.lines().count() > 1000,
        "per-line counts of P and P' of every profiler"
    );
}

#[test]
fn show_prints_a_program_by_hash_prefix() {
    let r = ArchiveReader::open(trace(COVERAGE)).unwrap();
    let variant = r
        .programs()
        .values()
        .find(|p| matches!(&p.origin, ProgramOrigin::Transformed { transformation, .. } if transformation == "delete-unexecuted"))
        .expect("a variant P'");
    let prefix = &variant.hash.to_string()[..12];
    assert_eq!(
        ok(&["show", p(&trace(COVERAGE)), "--program", prefix]),
        variant.text
    );
    let o = run(&["show", p(&trace(COVERAGE)), "--program", "ffffffffffffffff"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no program"));
}

// ---------- findings ----------

/// `findings` says in its exit status when a class could not be reduced: a finding not
/// delivered is not a success (here the "recorder" is `false`, which reduces nothing).
#[test]
fn findings_exit_4_when_a_class_could_not_be_reduced() {
    let dir = tempfile::tempdir().unwrap();
    let path = hand_built(dir.path());
    let out = dir.path().join("findings");
    let o = run(&[
        "findings",
        p(&path),
        "--recorder",
        "/bin/false",
        "--out",
        p(&out),
    ]);
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(4), "{said}");
    assert!(said.contains("NOT REDUCED"), "{said}");
    assert!(said.contains("0 of "), "{said}");
    // The index and summary are still written: what was tried is kept.
    assert!(out.join("index.html").is_file() && out.join("findings.json").is_file());
}

/// One representative per class that no rule dismisses: by-design classes are left out with
/// their verdict, engine-bug and new ones are chosen (their first member).
#[test]
fn findings_choose_one_member_of_every_class_not_dismissed_by_triage() {
    let dir = tempfile::tempdir().unwrap();
    let path = hand_built(dir.path());
    let t = dir.path().join("triage.toml");
    std::fs::write(
        &t,
        r#"
[[class]]
family = "divergence"
key = { kind = "breakpoint-location" }
verdict = "by-design"
note = "sliding"
evidence = ["https://example.org/sliding"]
examples = [{ key = { kind = "breakpoint-location" } }]
near_misses = [{ key = { kind = "breakpoint-removal" } }]

[[class]]
family = "divergence"
key = { kind = "variables" }
verdict = "engine-bug"
note = "a bug"
"#,
    )
    .unwrap();
    let triage = morphtrace_analyzer::triage::Triage::load(&t).unwrap();
    let d = load::load(&[path], Want::SUMMARY).unwrap();
    let (chosen, skipped) = morphtrace_analyzer::findings::representatives(&d, &triage).unwrap();
    let got: Vec<(String, &str, usize)> = chosen
        .iter()
        .map(|r| (r.key.join(" / "), r.verdict.as_str(), r.size))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "pause-location / stepOver / ForStatement".to_string(),
                "new",
                2
            ),
            (
                "variables / stepInto / ExpressionStatement".to_string(),
                "engine bug",
                1
            ),
        ]
    );
    assert_eq!(skipped.len(), 1);
    assert_eq!(
        skipped[0].key.join(" / "),
        "breakpoint-location / setBreakpoint / Program"
    );
    assert_eq!(skipped[0].why, "triaged by design");
    // The representative is a member: its session diverged with that class's type.
    let r = &chosen[0];
    let reader = ArchiveReader::open(&r.archive).unwrap();
    let s = reader.session(r.session as usize).unwrap();
    assert_eq!(
        s.divergence.map(|d| d.kind.name().to_string()),
        Some("pause-location".into())
    );
    assert_eq!(
        chosen[1].slug(2),
        "02-variables-stepinto-expressionstatement"
    );
}

/// The index of traces/findings in a real browser: every bundle has its section, debugger
/// findings show each engine's pauses beside the program with the diverging step marked, and
/// headless Chromium renders the page to far more than a blank page's screenshot.
#[test]
fn the_findings_index_of_traces_renders_in_headless_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let bundles = dir.path().join("findings");
    std::fs::create_dir(&bundles).unwrap();
    let mut names = Vec::new();
    for e in std::fs::read_dir(traces().join("findings")).unwrap() {
        let e = e.unwrap();
        if !e.path().is_dir() {
            continue;
        }
        let to = bundles.join(e.file_name());
        std::fs::create_dir(&to).unwrap();
        for f in std::fs::read_dir(e.path()).unwrap() {
            let f = f.unwrap();
            std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
        }
        names.push(e.file_name().to_string_lossy().to_string());
    }
    assert!(names.len() >= 2, "{names:?}");
    ok(&["findings", "--index-only", "--out", p(&bundles)]);
    let html = std::fs::read_to_string(bundles.join("index.html")).unwrap();
    for n in &names {
        assert!(html.contains(&format!("id=\"{n}\"")), "{n} has no section");
    }
    assert!(html.contains("reduced, reproducible findings"), "{html}");
    // A debugger finding: both engines' pause columns and the diverging step's mark.
    assert!(html.contains("firefox@153"), "no Firefox pause column");
    assert!(
        html.contains("class=\"mark at\""),
        "no diverging step marked"
    );
    assert!(
        html.contains("class=\"diff\""),
        "no differing variable marked"
    );
    // In the browser: the page against a blank one of the same size.
    let shot = |url: &str, png: &Path| {
        let profile = tempfile::tempdir().unwrap();
        let o = Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!("--screenshot={}", png.display()))
            .args(["--window-size=1200,1600", url])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(png).unwrap()
    };
    let blank_html = dir.path().join("blank.html");
    std::fs::write(&blank_html, "<!DOCTYPE html><html><body></body></html>").unwrap();
    let blank = shot(
        &format!("file://{}", blank_html.display()),
        &dir.path().join("blank.png"),
    );
    let page = shot(
        &format!("file://{}", bundles.join("index.html").display()),
        &dir.path().join("index.png"),
    );
    // PNG, 1200 × 1600 (IHDR width and height).
    assert_eq!(&page[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(u32::from_be_bytes(page[16..20].try_into().unwrap()), 1200);
    assert_eq!(u32::from_be_bytes(page[20..24].try_into().unwrap()), 1600);
    assert!(
        page.len() > 10 * blank.len(),
        "the page renders like a blank one: {} vs {} bytes",
        page.len(),
        blank.len()
    );
}

/// `export --dataset`: one Parquet part per archive, and `tables`, `classes` and `compare` from
/// the dataset print what they print from the archives (the paths aside: a dataset names the
/// archives it was written from).
#[test]
fn a_dataset_gives_the_tables_classes_and_comparison_of_its_archives() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds");
    let (node, firefox, meta) = (trace(NODE), trace(FIREFOX), trace(METAMORPHIC));
    let out = ok(&[
        "export",
        p(&node),
        p(&firefox),
        p(&meta),
        "--dataset",
        p(&ds),
    ]);
    assert!(out.contains(": 3 parts, "), "{out}");
    for frame in ["sessions", "divergences", "warnings", "variables"] {
        for part in 0..3 {
            assert!(ds
                .join(frame)
                .join(format!("part-0000{part}.parquet"))
                .is_file());
        }
    }
    let both = [p(&node), p(&firefox), p(&meta)];
    for cmd in [
        vec!["tables"],
        vec!["tables", "--paper", "issta"],
        vec!["classes"],
    ] {
        let from_archives = ok(&[cmd.clone(), both.to_vec()].concat());
        let from_dataset = ok(&[cmd.clone(), vec![p(&ds)]].concat());
        assert!(from_archives.contains("| "), "{cmd:?}: {from_archives}");
        assert_eq!(from_dataset, from_archives, "{cmd:?}");
    }
    // compare: datasets on either side, each of one archive.
    let one = |a: &Path, name: &str| {
        let d = dir.path().join(name);
        ok(&["export", p(a), "--dataset", p(&d)]);
        d
    };
    let (dn, df) = (one(&node, "dn"), one(&firefox, "df"));
    let strip = |s: String| s.replace(p(&node), "A").replace(p(&firefox), "B");
    assert_eq!(
        strip(ok(&["compare", p(&dn), p(&df)])),
        strip(ok(&["compare", p(&node), p(&firefox)]))
    );
    // A dataset goes alone; an existing directory is not overwritten.
    let o = run(&["tables", p(&ds), p(&node)]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("is a dataset: give it alone"));
    let o = run(&["export", p(&node), "--dataset", p(&ds)]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not empty"));
}

/// Issue 69: verdicts do not depend on where the analyzer runs. `classes` judges with the
/// triage the archive's campaign went on under (`lockstep.triage.text`) and says so, also
/// beside a triage.toml that says otherwise; `--triage FILE` wins; an archive that recorded
/// none, or one this version does not read, is judged with the nearest triage.toml (none here
/// at first), and that is said too.
#[test]
fn classes_judge_with_the_triage_the_archive_recorded_wherever_they_run() {
    let dir = tempfile::tempdir().unwrap();
    let rules = "[[class]]\nfamily = \"divergence\"\nkey = { kind = \"pause-location\" }\nverdict = \"engine-bug\"\nnote = \"recorded rule\"\n";
    let write = |name: &str, triage: Option<&str>| {
        let mut header = synth::header(name);
        if let Some(t) = triage {
            header
                .campaign
                .params
                .push(("lockstep.triage.text".into(), t.into()));
        }
        let path = dir.path().join(format!("{name}.mtrace"));
        let mut w = ArchiveWriter::create(&path, &header, WriterOptions::default()).unwrap();
        let programs = synth::programs(3, 4);
        for i in 0..60u64 {
            let p = &programs[i as usize % 4];
            w.add_program(p).unwrap();
            w.append(&synth::session(3, i, p, 40)).unwrap();
        }
        w.finish().unwrap();
        path
    };
    let recorded = write("recorded", Some(rules));
    let bare = write("bare", None);
    let classes = |archive: &Path, extra: &[&str]| {
        let o = Command::new(ANALYZE)
            .current_dir(dir.path())
            .args(["classes", p(archive), "--format", "csv"])
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (
            String::from_utf8(o.stdout).unwrap(),
            String::from_utf8(o.stderr).unwrap(),
        )
    };
    let (out, err) = classes(&recorded, &[]);
    assert!(
        err.contains(&format!(
            "triage: the triage recorded in {} (1 rules)",
            recorded.display()
        )),
        "{err}"
    );
    assert!(out.contains("engine bug"), "{out}");
    // The file given wins over what the archive recorded.
    let file = dir.path().join("other.toml");
    std::fs::write(&file, rules.replace("engine-bug", "harness")).unwrap();
    let (out, err) = classes(&recorded, &["--triage", p(&file)]);
    assert!(err.contains("other.toml (1 rules)"), "{err}");
    assert!(
        out.contains("harness") && !out.contains("engine bug"),
        "{out}"
    );
    let (out, err) = classes(&bare, &[]);
    assert!(err.contains("the archives recorded none"), "{err}");
    assert!(!out.contains("engine bug"), "{out}");
    // Beside a triage.toml that judges otherwise: the recorded triage still judges; the file
    // judges an archive that recorded none, and one whose recorded rules this version refuses.
    std::fs::write(
        dir.path().join("triage.toml"),
        rules.replace("engine-bug", "harness"),
    )
    .unwrap();
    let (out, err) = classes(&recorded, &[]);
    assert!(err.contains("the triage recorded in"), "{err}");
    assert!(
        out.contains("engine bug") && !out.contains("harness"),
        "{out}"
    );
    let (out, err) = classes(&bare, &[]);
    assert!(err.contains("triage.toml (1 rules)"), "{err}");
    assert!(out.contains("harness"), "{out}");
    let old_syntax = write(
        "old-syntax",
        Some(&rules.replace("note =", "detail = \"paused\"\nnote =")),
    );
    let (out, err) = classes(&old_syntax, &[]);
    assert!(err.contains("is not read by this version"), "{err}");
    assert!(err.contains("triage.toml (1 rules)"), "{err}");
    assert!(out.contains("harness"), "{out}");
    // export: the verdict column by the same choice, said the same way.
    let csv = dir.path().join("csv");
    let o = Command::new(ANALYZE)
        .current_dir(dir.path())
        .args(["export", p(&recorded), "--csv", p(&csv)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the triage recorded in"));
    let divergences = std::fs::read_to_string(csv.join("divergences.csv")).unwrap();
    // Every pause-location member carries the recorded rule's verdict, said as `classes` says it.
    let mut lines = divergences.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (kind, verdict) = (column("kind"), column("verdict"));
    let mut judged = 0;
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        if cells[kind] == "pause-location" {
            assert_eq!(cells[verdict], "engine bug", "{line}");
            judged += 1;
        }
    }
    assert!(judged > 0, "no pause-location member: {divergences}");
    assert!(!divergences.contains("harness"), "{divergences}");
}

/// Issue 69: `versions` on the committed matrix names each column by the engine it changes
/// (Deno in Node's place last, not among Chromium's versions), and refuses archives of other
/// campaigns (all of `traces/`) instead of tabulating them together.
#[test]
fn versions_name_the_engine_each_column_changes_and_refuse_other_campaigns() {
    let out = ok(&[
        "versions",
        p(&trace("versions-chromium-node-dbdb")),
        "--format",
        "csv",
    ]);
    let rows: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("chromium@92"))
        .take_while(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(rows.len(), 13, "{out}");
    assert!(
        rows[..11].iter().all(|r| r.starts_with("chromium@")),
        "{rows:?}"
    );
    assert!(
        rows[11].starts_with("chromium@156") && rows[11].contains("+node@20"),
        "the base: {rows:?}"
    );
    assert!(rows[12].starts_with("deno@2.9.6"), "{rows:?}");
    let o = run(&["versions", p(&traces())]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("a version matrix replays one campaign"),
        "{err}"
    );
}

/// Issue 69: every command that prints tables prints them as JSON with `--format json`: one
/// array, each table with its name, columns and rows, the same cells as the other formats.
#[test]
fn tables_print_as_one_json_array() {
    for command in ["classes", "tables", "relations"] {
        let out = ok(&[command, p(&trace(FIREFOX)), "--format", "json"]);
        let v: serde_json::Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{command}: {e}: {out}"));
        let tables = v.as_array().expect("an array of tables");
        assert!(!tables.is_empty(), "{command}");
        for t in tables {
            let columns = t["columns"].as_array().unwrap().len();
            assert!(columns > 0, "{command}: {t}");
            for r in t["rows"].as_array().unwrap() {
                assert_eq!(r.as_array().unwrap().len(), columns, "{command}: {t}");
            }
        }
        let csv = ok(&[command, p(&trace(FIREFOX)), "--format", "csv"]);
        let row = tables
            .iter()
            .find_map(|t| t["rows"].as_array().and_then(|r| r.first()))
            .unwrap_or_else(|| panic!("{command}: no table has rows"));
        let cell = row[0].as_str().unwrap();
        assert!(csv.contains(cell), "{command}: {cell} not in the CSV");
    }
}

/// Issue 69: the HTML report has a table of contents whose every entry leads to a table of the
/// page, shows a rule's note once under its table (each row links to it) instead of on every
/// row, and links the evidence named in a note.
#[test]
fn the_report_has_contents_and_its_notes_once_with_their_links() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.html");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let o = Command::new(ANALYZE)
        .current_dir(&root)
        .args(["report", p(&trace(FIREFOX)), "--out", p(&out)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&out).unwrap();
    let nav = html
        .split("<nav>")
        .nth(1)
        .and_then(|n| n.split("</nav>").next())
        .expect("a table of contents");
    let targets: Vec<&str> = nav
        .split("href=\"#")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    assert!(targets.len() >= 5, "{nav}");
    for t in &targets {
        assert!(
            html.contains(&format!("<h3 id=\"{t}\">")),
            "{t} has no table"
        );
    }
    let triaged = html
        .split("<h3 id=\"divergence_classes_triaged\">")
        .nth(1)
        .and_then(|t| t.split("<h3").next())
        .expect("the triaged classes");
    let refs = triaged.matches(">note ").count();
    let notes = triaged
        .matches("<li id=\"divergence_classes_triaged-note-")
        .count();
    assert!(
        notes > 0 && refs > notes,
        "{refs} rows, {notes} notes: {triaged}"
    );
    for n in 1..=notes {
        assert!(triaged.contains(&format!("href=\"#divergence_classes_triaged-note-{n}\"")));
    }
    assert!(
        triaged.contains("<a href=\"file://") && triaged.contains("traces/findings/"),
        "a note's evidence is a link: {triaged}"
    );
}

/// Issue 66: the committed planted-fault campaigns (`tests/fixtures/faults`,
/// `scripts/fault-matrix.sh`: real Chromium,
/// Firefox, Bun, debugpy and pdb, each campaign once on the real engines and once per fault
/// planted in the first engine's debugger, on programs not in `corpus/`), judged under the
/// repository's `triage.toml`: no divergence a fault caused is excused, and each fault is caught
/// (one divergence it caused stays new or is a known engine bug) in every campaign where it
/// caused any, and caused some somewhere. `triage --check` prints the table and each rule's
/// score and exits 0; under a triage with one rule widened to excuse any breakpoint placement
/// apart, the placement faults' divergences are excused by it and `triage --check` exits 1.
#[test]
fn planted_faults_are_never_excused() {
    use morphtrace_analyzer::{faults, triage::Triage};
    let dir = traces().join("../tests/fixtures/faults");
    let archives = load::expand(std::slice::from_ref(&dir)).unwrap();
    let d = load::load(&archives, Want::SUMMARY).unwrap();
    let repo = Triage::load(&traces().join("../triage.toml")).unwrap();
    let (planted, faulty) = faults::planted(&repo, &d).unwrap();
    assert_eq!(
        planted.len(),
        faulty.len(),
        "every faulty campaign has its real one"
    );
    let pairs: std::collections::BTreeSet<&str> =
        planted.iter().map(|p| p.campaign.as_str()).collect();
    assert!(pairs.len() >= 4, "{pairs:?}");
    let mut caught = std::collections::BTreeSet::new();
    for p in &planted {
        assert_eq!(p.excused_total(), 0, "{p:?}");
        if p.caused > 0 {
            assert!(p.caught(), "{p:?}");
            caught.insert(p.fault.as_str());
        }
    }
    for f in [
        "hide-local",
        "shift-local",
        "swallow-pause",
        "extra-pause",
        "shift-breakpoint",
        "wrong-slide",
        "step-into-as-over",
        "wrong-evaluation",
    ] {
        assert!(caught.contains(f), "{f} caught somewhere: {caught:?}");
    }
    let o = run(&["triage", "--check", p(&dir), "--format", "csv"]);
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    // Every detail the recorder wrote reads back as a typed difference.
    let err = String::from_utf8_lossy(&o.stderr);
    let said = err
        .lines()
        .find(|l| l.contains("divergence details could not be read"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        said.starts_with("triage: 0 of ") && !said.starts_with("triage: 0 of 0 "),
        "{said}"
    );
    assert!(out.contains("planted_faults_excused"), "{out}");
    assert!(out.contains("shift-breakpoint"), "{out}");

    let tmp = tempfile::tempdir().unwrap();
    let widened = tmp.path().join("triage.toml");
    std::fs::write(
        &widened,
        format!(
            "{}\n{}",
            std::fs::read_to_string(traces().join("../triage.toml")).unwrap(),
            r#"
[[class]]
family = "divergence"
key = { kind = "breakpoint-location" }
difference = { shape = "*" }
verdict = "by-design"
note = "too wide: any placement apart"
evidence = ["https://example.org/none"]
examples = [{ key = { kind = "breakpoint-location" }, detail = "breakpoint at [3:1] vs [4:1]", engines = ["chromium@156", "firefox@153"] }]
near_misses = [{ key = { kind = "pause-location" }, detail = "paused at 3:1 vs 4:1", engines = ["chromium@156", "firefox@153"] }]
"#
        ),
    )
    .unwrap();
    let wide = Triage::load(&widened).unwrap();
    let (planted, _) = faults::planted(&wide, &d).unwrap();
    let last = wide.rules.len() - 1;
    let shifted: usize = planted
        .iter()
        .filter(|p| p.fault == "shift-breakpoint")
        .map(|p| p.excused.get(&last).copied().unwrap_or(0))
        .sum();
    assert!(shifted > 0, "{planted:?}");
    let o = run(&["triage", "--check", p(&dir), "--triage", p(&widened)]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("a rule excuses a fault"));
}

/// `yield`: one row per oracle with classes per 1,000 judged sessions and per CPU-hour, ours
/// counted apart; an archive without CPU records shows none rather than zero.
#[test]
fn yield_counts_classes_per_thousand_sessions_and_per_cpu_hour_with_ours_apart() {
    let dir = tempfile::tempdir().unwrap();
    let plain = hand_built(dir.path());
    // The same sessions, each charged 0.72 s of CPU: 3.6 s in all, 0.001 hours.
    let charged = dir.path().join("charged.mtrace");
    let r = ArchiveReader::open(&plain).unwrap();
    let mut w = ArchiveWriter::create(&charged, r.header(), WriterOptions::default()).unwrap();
    for i in 0..r.session_count() {
        let mut s = r.session(i).unwrap();
        for p in s.referenced_programs() {
            w.add_program(r.program(&p).unwrap()).unwrap();
        }
        s.cpu_us = Some(720_000);
        w.append(&s).unwrap();
    }
    w.finish().unwrap();
    let t = dir.path().join("triage.toml");
    std::fs::write(
        &t,
        "[[class]]\nfamily = \"divergence\"\nkey = { kind = \"pause-location\" }\nverdict = \"harness\"\nnote = \"ours\"\n",
    )
    .unwrap();
    let csv = ok(&["yield", p(&charged), "--triage", p(&t), "--format", "csv"]);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 2, "{csv}");
    let cells: Vec<&str> = rows[1].split(',').collect();
    // oracle, engines, archives, programs, judged, undecided, classes, new or bug, allowed,
    // ours, per 1,000, new or bug per 1,000, CPU hours, wall hours, per CPU-hour, new or bug
    // per CPU-hour: 3 classes, one of them ours.
    assert_eq!(
        &cells[2..],
        [
            "1", "2", "5", "0", "2", "2", "0", "1", "400.0", "400.0", "0.001", "0.000", "2000.0",
            "2000.0"
        ],
        "{csv}"
    );
    // Without CPU records: no CPU figures, the rest the same.
    let csv = ok(&["yield", p(&plain), "--triage", p(&t), "--format", "csv"]);
    let cells: Vec<String> = csv
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .map(String::from)
        .collect();
    assert_eq!(
        &cells[10..],
        ["400.0", "400.0", "-", "0.000", "-", "-"],
        "{csv}"
    );
}

/// A metamorphic campaign's follow-ups per transformation, with the rounds that could not apply
/// one and why (`info`, `tables`); `yield` judges the follow-ups, not the initial session.
#[test]
fn follow_ups_per_transformation_and_why_one_could_not_apply() {
    let dir = tempfile::tempdir().unwrap();
    let five = metamorphic(dir.path());
    let path = dir.path().join("with-initial.mtrace");
    let r = ArchiveReader::open(&five).unwrap();
    let mut w = ArchiveWriter::create(&path, r.header(), WriterOptions::default()).unwrap();
    let mut first = r.session(0).unwrap();
    for p in first.referenced_programs() {
        w.add_program(r.program(&p).unwrap()).unwrap();
    }
    // The chain's initial session: no parent, no transformation, not a test case.
    let mut initial = first.clone();
    initial.id = SessionId(1);
    initial.parent = None;
    initial.transformations.clear();
    initial.warnings.clear();
    initial.outcome = SessionOutcome::Finished;
    w.append(&initial).unwrap();
    first.notes.push((
        morphtrace_judges::metamorphic::NOT_APPLICABLE.into(),
        "set-variable-as-code: the parent sets no variable that took; breakpoint-sliding: no breakpoint of the parent slid".into(),
    ));
    w.append(&first).unwrap();
    for i in 1..r.session_count() {
        w.append(&r.session(i).unwrap()).unwrap();
    }
    w.finish().unwrap();
    let info = ok(&["info", p(&path)]);
    let row = |name: &str| -> Vec<String> {
        info.lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no {name} in {info}"))
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    // made, in %, judged, violated, not applicable
    assert_eq!(
        row("add-breakpoint-and-continue")[1..],
        ["2", "40.0", "2", "2", "0"],
        "{info}"
    );
    assert_eq!(
        row("set-variable-as-code")[1..],
        ["0", "0.0", "0", "0", "1"],
        "{info}"
    );
    assert!(
        info.contains("1  the parent sets no variable that took"),
        "{info}"
    );
    let csv = ok(&["tables", p(&path), "--paper", "issta", "--format", "csv"]);
    assert!(
        csv.contains("\nset-variable-as-code,0,0.0%,0,0,1\n"),
        "{csv}"
    );
    assert!(csv.contains("\ninsert-dead-code,2,40.0%,2,2,0\n"), "{csv}");
    let y = ok(&["yield", p(&path), "--format", "csv"]);
    let cells: Vec<&str> = y.lines().nth(1).unwrap().split(',').collect();
    // The oracle is the header's strategy (this archive's is synthetic); 5 follow-ups judged.
    assert_eq!(
        (cells[0], cells[4], cells[5]),
        ("synthetic", "5", "0"),
        "{y}"
    );
}
