//! The oracles on one debugger (metamorphic relations, ground truth, the program with and without the debugger, the debugger against itself) and the breakpoints and exception pauses they rest on.

#[allow(unused_imports)]
use super::*;
#[allow(unused_imports)]
use crate::{debugpy::*, lockstep::*, pdb::*};

/// Table 1's program transformations on Python programs (spelled in Python, over
/// tree-sitter-python's tree; remove-dead-code by coverage.py): on the real debugpy each
/// follow-up keeps its relation to its parent. Behind the DAP proxy that drops the breakpoint
/// stop at one line, or misreports a frame's line there, inserted dead code moves the code
/// under that line away and the relation catches the difference; behind the one that hides the
/// fresh parameter, add-parameter does; without a fault, the same chains have no warning.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metamorphic_relations_hold_on_debugpy_and_catch_a_planted_fault() {
    use morphtrace_judges::metamorphic as mm;
    use morphtrace_recorder::debugger::engines::debugpy::{DebugpyEngine, Tracer};
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("transformable.py", TRANSFORMABLE);
    let actions = vec![
        bp(1),
        bp(4),
        bp(11),
        Action::Start,
        Action::StepOver,
        Action::StepInto,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
    ];
    let mut e = debugpy(CaptureOptions::default()).await;
    for t in [
        mm::Transformation::InsertDeadCode,
        mm::Transformation::AddNoOp,
        mm::Transformation::IntegerLiteral,
        mm::Transformation::BooleanLiteral,
        mm::Transformation::AddParameter,
        mm::Transformation::RemoveDeadCode,
    ] {
        let c = chain(&mut e, &p, &one(t, actions.clone(), None)).await;
        assert_eq!(c.sessions.len(), 2, "{t}: {:?}", c.sessions[0].outcome);
        let follow = &c.sessions[1];
        assert_eq!(follow.transformations.last().unwrap().name, t.name());
        assert!(follow.warnings.is_empty(), "{t}: {:?}", follow.warnings);
        let text = &c.programs.last().unwrap().text;
        match t {
            mm::Transformation::RemoveDeadCode => {
                assert!(!text.contains("print(\"big\")"), "{text}")
            }
            mm::Transformation::AddParameter => assert!(text.contains("_mt1=None"), "{text}"),
            mm::Transformation::BooleanLiteral => assert!(text.contains(" is "), "{text}"),
            _ => assert_ne!(text, TRANSFORMABLE),
        }
    }
    e.shutdown().await;

    let (_dir, p) = inline("planted.py", PLANTED);
    let python = EngineSpec::parse("debugpy").unwrap().executable;
    let proxy =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/support/dap-proxy.py");
    // Breakpoints on `out = v * k` and `print(total)` (1-based line 9); dead code goes in
    // before `total = 0`, so that `print(total)` moves to line 10.
    let actions = vec![
        bp(1),
        bp(8),
        Action::Start,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
    ];
    // Each fault against a relation whose follow-up it treats unlike the parent: a stop dropped,
    // or a frame's line misreported, at line 9 (the follow-up's `print(total)` is on line 10);
    // the fresh parameter `_mt1` hidden from the scopes. (A fault that does the same to parent
    // and follow-up, hiding `v` everywhere, is invisible to a relation between two runs of one
    // debugger: the differential catches that, `a_fault_planted_in_debugpys_messages_…`.)
    for (fault, transformation, warns) in [
        ("none:0", mm::Transformation::InsertDeadCode, None),
        (
            "drop-stop:9",
            mm::Transformation::InsertDeadCode,
            Some("expected the end (completed) as in the parent"),
        ),
        (
            "wrong-line:9",
            mm::Transformation::InsertDeadCode,
            Some("paused at 10:1 vs 9:1"),
        ),
        ("none:0", mm::Transformation::AddParameter, None),
        (
            "hide:_mt1",
            mm::Transformation::AddParameter,
            Some("the fresh parameter _mt1 is missing from the scope"),
        ),
    ] {
        let adapter = vec![
            python.display().to_string(),
            proxy.display().to_string(),
            fault.to_string(),
            "--".to_string(),
            python.display().to_string(),
            "-m".to_string(),
            "debugpy.adapter".to_string(),
        ];
        let mut planted: Box<dyn Engine> = Box::new(
            DebugpyEngine::launch_through(
                python.clone(),
                Tracer::Cython,
                CaptureOptions::default(),
                1,
                adapter,
            )
            .await
            .unwrap(),
        );
        let pin = (transformation == mm::Transformation::InsertDeadCode).then_some(5);
        let c = chain(&mut planted, &p, &one(transformation, actions.clone(), pin)).await;
        assert_eq!(c.sessions.len(), 2, "{fault}");
        let warnings = &c.sessions[1].warnings;
        let said: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
        match warns {
            None => assert!(said.is_empty(), "{fault}, {transformation}: {said:?}"),
            Some(what) => assert!(
                said.len() == 1 && said[0].contains(what),
                "{fault}, {transformation}: {said:?}"
            ),
        }
        planted.shutdown().await;
    }
}

/// A breakpoint asked for inside a module's docstring is placed on the docstring's first line,
/// the program's first statement, where the session waits before `start`: `start` reports it
/// hit there, as debugpy stops there (the session once compared the line asked for, ran on,
/// and made 28 false metamorphic warnings).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_breakpoint_placed_on_the_first_statement_is_hit_at_start() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "docstring.py",
        "# A comment.\n\"\"\"\nThe module's docstring.\n\"\"\"\n\nx = 1\nprint(x)\n",
    );
    let mut e = debugpy(CaptureOptions::default()).await;
    let mut d = open(&mut e, &p).await;
    let set = d.set_breakpoint(2, None).await.unwrap();
    assert!(
        matches!(&set, Output::BreakpointSet { actual, .. } if actual == &vec![Location::new(1, 0)]),
        "{set:?}"
    );
    let at = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!(
        (at.location.line, at.reason.clone()),
        (
            1,
            PauseReason::Breakpoint {
                ids: vec![BreakpointId(1)]
            }
        )
    );
    d.close().await;
    e.shutdown().await;
}

pub(crate) const MISSED: &str = "hits = 0
for i in range(3):
    try:
        if i == 1: raise ValueError('one')
    except ValueError:
        hits += 1
last = hits
";

/// Issue 66 on DAP: a pause on an exception on one side only, where the other side paused at
/// the same place for a breakpoint, shows. A breakpoint on the line that raises in the loop's
/// second turn: real debugpy pauses there for the breakpoint twice, on the exception, then for
/// the breakpoint; against itself it agrees. debugpy with a planted fault that never pauses on
/// an exception stands at the third turn's breakpoint when the real one stands on the
/// exception: an exception divergence at that resume, not excused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missed_exception_pause_on_debugpy_shows_at_the_place_of_a_breakpoint_pause() {
    use faults::{Fault, FaultyEngine};
    use morphtrace_schema::DivergenceKind;
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("missed.py", MISSED);
    let actions = vec![
        Action::PauseOnExceptions {
            mode: ExceptionPause::All,
        },
        bp(3),
        Action::Start,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
    ];
    let rec = under_triage(
        debugpy(CaptureOptions::default()).await,
        debugpy(CaptureOptions::default()).await,
        &p,
        actions.clone(),
    )
    .await;
    assert!(rec.divergences.is_empty(), "{:?}", details(&rec));
    let faulty = FaultyEngine::wrap(
        debugpy(CaptureOptions::default()).await,
        Fault::MissExceptionPause,
    );
    let rec = under_triage(
        debugpy(CaptureOptions::default()).await,
        faulty,
        &p,
        actions,
    )
    .await;
    let d = rec.divergences.first().expect("the missed pause shows");
    assert_eq!(d.kind, DivergenceKind::Exception, "{}", d.detail);
    assert_eq!(d.action_index, 4, "{}", d.detail);
    assert_eq!(
        d.detail,
        "first side paused on an exception (threw ValueError: one), second side there for another reason (breakpoint)"
    );
    assert!(d.continued.is_none(), "{:?} {:?}", d.continued, rec.notes);
}

/// A program nobody instrumented by hand: functions calling functions (the stack), a loop
/// (hits), floats to their last digit, strings, booleans, `None`, and a `__repr__` that the
/// debugger itself calls when it shows the object (a record no breakpoint stops at).
pub(crate) const TRUTH: &str = r#"import math


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __repr__(self):
        label = "Vec"
        return "%s(%r, %r)" % (label, self.x, self.y)


def norm(v):
    squared = v.x * v.x + v.y * v.y
    root = math.sqrt(squared)
    return root


def walk(steps):
    total = 0.0
    name = "walk"
    done = False
    last = None
    for i in range(steps):
        v = Vec(i / 3, 1 - i / 7)
        total += norm(v)
        last = v
    done = True
    return total


result = walk(4)
print("total %.6f" % result)
"#;

/// The program with the debugger and without on Python (`dbdb::attached`): on debugpy and pdb
/// the real debugger changes nothing the program prints; one that prints a line of its own at
/// a pause is caught, in a session that ran to the end and, with `run-on`, in one that stopped
/// with the program paused (the honest run-on is the JavaScript test's).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_program_prints_the_same_under_debugpy_and_pdb_and_without() {
    use faults::Fault;
    use morphtrace_judges::attached::{Check, RELATION};
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("attached.py", TRUTH);
    let timeout = Duration::from_secs(120);
    // A breakpoint on `done = True` (run once), a step, a read, a resume to the end.
    let looking = vec![
        Action::SetBreakpoint {
            line: 28,
            column: None,
        },
        Action::Start,
        Action::StepOver,
        Action::Evaluate {
            expression: "total".into(),
        },
        Action::Resume,
    ];
    let stopped = looking[..3].to_vec();
    let printed = "printed line 1: \"printed by the debugger\" vs \"total 4.048489\"";
    for name in ["debugpy", "pdb"] {
        let (mut e, switch) = faults::FaultyEngine::switchable(debugger(name).await, Fault::Honest);
        for (fault, actions, want) in [
            (Fault::Honest, &looking, None),
            (
                Fault::PrintAtPause,
                &looking,
                Some(format!("with the debugger and without: {printed}")),
            ),
            (
                Fault::PrintAtPause,
                &stopped,
                Some(format!(
                    "run on to its end after the session's 3 actions, with the debugger and \
                     without: {printed}"
                )),
            ),
        ] {
            switch.set(fault.clone());
            let policy = ComparisonPolicy {
                attached_output: Check::RunOn,
                ..ComparisonPolicy::default()
            };
            let plan = Plan::Replay {
                actions: actions.clone(),
            };
            let rec = session::record(
                &mut [&mut e],
                &[EngineRef(0)],
                &p,
                &mut *plan.strategy().unwrap(),
                &policy,
                None,
                timeout,
            )
            .await;
            let what = format!("{name}, {}, {} actions", fault.name(), actions.len());
            let setting = dbdb::attached::Setting {
                refs: &[EngineRef(0)],
                policy: &policy,
                timeout,
            };
            let mut notes = Vec::new();
            let w =
                dbdb::attached::judge(&mut [&mut e], &p, &rec.traces, &setting, &mut notes).await;
            let note = notes
                .iter()
                .find(|(k, _)| k == dbdb::attached::NOTE)
                .map(|(_, v)| v.as_str());
            match want {
                None => {
                    assert!(w.is_empty(), "{what}: {w:#?}");
                    assert_eq!(note, Some("alike (1 judged)"), "{what}");
                }
                Some(message) => {
                    assert_eq!(w.len(), 1, "{what}: {w:#?} {notes:?}");
                    assert_eq!(w[0].relation, RELATION, "{what}");
                    assert_eq!(w[0].message, message, "{what}");
                }
            }
        }
        e.shutdown().await;
    }
}

/// Ground truth on Python (issue 68): the program above, as its instrumented copy
/// (`corpus::truth`), is paused where it records its own state, on debugpy and on pdb alone.
/// The real debuggers contradict no record (and the object whose `__repr__` the debugger calls
/// records nothing the judge waits for); each planted fault contradicts the program in the way
/// that is its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ground_truth_catches_each_planted_fault_on_debugpy_and_pdb_alone() {
    use faults::Fault;
    use morphtrace_judges::truth::{judge, Context};
    let _g = SERIAL.lock().await;
    let (dir, original) = inline("truth.py", TRUTH);
    let python = EngineSpec::parse("debugpy").unwrap().executable;
    let p = corpus::truth::instrument(vec![original], Some(&python), dir.path())
        .unwrap()
        .remove(0);
    assert!(p.rejected.is_none(), "{:?}", p.rejected);
    assert!(
        p.program
            .text
            .contains("        __mt_truth__(5, 11); return \"%s(%r, %r)\""),
        "{}",
        p.program.text
    );
    let triage = morphtrace_judges::triage::Triage::default();
    // Seed 2's breakpoints leave the line after the first pause without one, so that the
    // extra pause's step (a resume turned into a step over) ends where no breakpoint is; with
    // seed 1 it ends on the next breakpoint, a pause no debugger could tell from the honest one.
    let plan = Plan::Truth {
        seed: 2,
        max_points: 256,
    };
    let planted = Fault::for_truth();
    for name in ["debugpy", "pdb"] {
        let (mut e, switch) = faults::FaultyEngine::switchable(debugger(name).await, Fault::Honest);
        let rec = common::lockstep_under(&mut [&mut e], &p, &plan, &triage).await;
        assert_eq!(
            rec.final_outcome(),
            morphtrace_schema::SessionOutcome::Finished,
            "{name}"
        );
        let t = &rec.traces[0];
        let pauses = t.pauses().count();
        assert!(pauses >= 10, "{name}: {pauses} pauses");
        assert!(
            t.console.iter().any(|l| l == "total 4.048489"),
            "{name}: {:?}",
            t.console
        );
        let w = judge(t, Context::default()).unwrap();
        assert!(w.is_empty(), "{name}, the real debugger: {w:#?}");
        for (fault, want) in &planted {
            switch.set(fault.clone());
            let rec = common::lockstep_under(&mut [&mut e], &p, &plan, &triage).await;
            let w = judge(&rec.traces[0], Context::default()).unwrap();
            assert!(
                w.iter().any(|w| w.relation == *want),
                "{name}, {}: no {want} among {w:#?} (pauses {:?})",
                fault.name(),
                rec.traces[0]
                    .pauses()
                    .map(|p| (p.location.to_string(), p.reason.name().to_string()))
                    .collect::<Vec<_>>()
            );
        }
        e.shutdown().await;
    }
}

/// The debugger against itself on Python (issue 68): the program above (not instrumented)
/// stepped into line by line and run from breakpoint to breakpoint, one on every line, on
/// debugpy and on pdb alone. The real debuggers' two traces agree and print what the program
/// prints; a step into that steps over leaves breakpoint pauses unreached, and a swallowed
/// breakpoint pause is a step's place missed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_debugger_against_itself_catches_planted_faults_on_debugpy_and_pdb_alone() {
    use faults::Fault;
    use morphtrace_judges::steps::relation;
    use morphtrace_schema::{EngineRef, SessionOutcome};
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("itself.py", TRUTH);
    let policy = ComparisonPolicy::default();
    let timeout = Duration::from_secs(120);
    for name in ["debugpy", "pdb"] {
        let (mut e, switch) = faults::FaultyEngine::switchable(debugger(name).await, Fault::Honest);
        for (fault, want) in [
            (Fault::Honest, ""),
            (Fault::StepIntoAsOver, relation::REACHED),
            (Fault::SwallowPause, relation::MISSED),
        ] {
            switch.set(fault.clone());
            let (traces, outcome, _) =
                dbdb::steps::traces(&mut [&mut e], &[EngineRef(0)], &p, 500, &policy, timeout)
                    .await;
            assert_eq!(
                outcome,
                SessionOutcome::Finished,
                "{name}, {}",
                fault.name()
            );
            let w = dbdb::steps::judge(&mut e, &p, &traces).await.unwrap();
            if fault == Fault::Honest {
                let pauses: Vec<usize> = traces.iter().map(|t| t.pauses().count()).collect();
                assert!(
                    pauses[0] >= pauses[1] && pauses[1] >= 20,
                    "{name}: {pauses:?} pauses"
                );
                assert!(w.is_empty(), "{name}, the real debugger: {w:#?}");
                for t in &traces {
                    assert!(
                        t.console.iter().any(|l| l == "total 4.048489"),
                        "{name}: {:?}",
                        t.console
                    );
                }
            } else {
                assert!(
                    w.iter().any(|w| w.relation == want),
                    "{name}, {}: no {want} among {w:#?}",
                    fault.name()
                );
            }
        }
        e.shutdown().await;
    }
}

/// Lines where debugpy and pdb place a breakpoint differently by design (blank and comment
/// lines, a docstring's inside, `else:`, a multi-line literal's lines) between lines with code.
pub(crate) const PLACEMENTS_APART: &str = "def f(x):
    \"\"\"A docstring
    over three lines.
    \"\"\"
    # a comment

    if x > 1:
        y = [
            x,
            x + 1,
        ]
    else:
        y = [x]
    return len(y)


total = 0
for i in range(6):
    # another comment
    total += f(i)
print(total)
";

/// `--breakpoint-lines placeable` (issue 70, Deliver 3): the breakpoints a differential sets
/// before the start go only on lines where debugpy and pdb each say one goes on that very
/// line, so no placement apart is tried; `any` (DBDB's draw) tries them, and triage excuses
/// them, on the same programs and seeds. The header says which was asked.
#[test]
fn breakpoints_go_only_where_both_debuggers_place_them_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("apart.py");
    std::fs::write(&prog, PLACEMENTS_APART).unwrap();
    // Lines (0-based) where a breakpoint stays on its line in both: a statement starts there
    // (the interpreter's line table: also the lines inside the list display) and pdb's checkline
    // accepts it.
    let placeable: Vec<u32> = vec![0, 6, 7, 8, 9, 12, 13, 16, 17, 19, 20];
    let mut placements_apart = Vec::new();
    for lines in ["placeable", "any"] {
        let out = dir.path().join(format!("{lines}.mtrace"));
        common::succeeded(
            std::process::Command::new(env!("CARGO_BIN_EXE_morphtrace-record"))
                .args(["run", "--strategy", "differential", "--engine", "debugpy"])
                .args(["--engine", "pdb", "--seeds", "1..6", "--bp-per-line", "0.5"])
                .args(["--breakpoint-lines", lines, "--corpus"])
                .arg(&prog)
                .arg("--out")
                .arg(&out),
        );
        let r = morphtrace_schema::ArchiveReader::open(&out).unwrap();
        let asked = r
            .header()
            .campaign
            .params
            .iter()
            .any(|(k, v)| k == "random.breakpoint_lines" && v == "placeable");
        assert_eq!(asked, lines == "placeable");
        let sessions: Vec<morphtrace_schema::Session> = r.sessions().map(|s| s.unwrap()).collect();
        assert_eq!(sessions.len(), 6);
        let mut set = 0;
        let mut apart = 0;
        for s in &sessions {
            for a in s.traces[0].actions() {
                if let (Action::SetBreakpoint { line, .. }, true) = (a, lines == "placeable") {
                    assert!(placeable.contains(line), "a breakpoint on line {line}");
                }
                set += usize::from(matches!(a, Action::SetBreakpoint { .. }));
            }
            apart += s
                .divergences
                .iter()
                .chain(&s.divergence)
                .filter(|d| d.kind == DivergenceKind::BreakpointLocation)
                .count();
        }
        assert!(set >= 6, "{set} breakpoints set");
        placements_apart.push(apart);
    }
    assert_eq!(
        placements_apart[0], 0,
        "placeable lines: no placement apart"
    );
    assert!(placements_apart[1] > 0, "any line: placements apart tried");
}
