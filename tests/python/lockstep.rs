//! Debugpy and pdb in lockstep under triage: going on past the understood differences (breakpoint placements, steps out of calls, generators, raising conditions).

#[allow(unused_imports)]
use super::*;
#[allow(unused_imports)]
use crate::{debugpy::*, oracles::*, pdb::*};

/// Lockstep goes on past pdb's and debugpy's understood breakpoint differences (triage.toml):
/// a breakpoint pdb refuses on a blank line is removed where debugpy placed it, one placed on
/// different lines is removed on both, and the two then pause alike at the next breakpoint.
/// debugpy and pdb in lockstep over `actions` on `p`, going on past what `triage.toml` excuses.
pub(crate) async fn debugpy_and_pdb_under_triage(
    p: &corpus::Loaded,
    actions: Vec<Action>,
) -> Recording {
    let a = debugpy(CaptureOptions::default()).await;
    let b = pdb(CaptureOptions::default()).await;
    under_triage(a, b, p, actions).await
}

/// Engines `a` and `b` in lockstep over `actions` on `p`, going on past what `triage.toml`
/// excuses; both shut down after.
pub(crate) async fn under_triage(
    a: Box<dyn Engine>,
    b: Box<dyn Engine>,
    p: &corpus::Loaded,
    actions: Vec<Action>,
) -> Recording {
    let triage = morphtrace_judges::triage::Triage::load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../triage.toml"),
    )
    .unwrap();
    in_lockstep(a, b, p, &actions, Some(&triage)).await
}

/// Engines `a` and `b` in lockstep over `actions` on `p`, going on past what `triage` excuses
/// (without one, stopping at the first divergence); both shut down after.
pub(crate) async fn in_lockstep(
    mut a: Box<dyn Engine>,
    mut b: Box<dyn Engine>,
    p: &corpus::Loaded,
    actions: &[Action],
    triage: Option<&morphtrace_judges::triage::Triage>,
) -> Recording {
    let mut rec = Recording::new(&[EngineRef(0), EngineRef(1)]);
    session::run(
        &mut [&mut a, &mut b],
        &p.file,
        &p.program.hash,
        &mut Reissue { actions },
        &ComparisonPolicy::default(),
        triage,
        &mut rec,
    )
    .await
    .unwrap();
    a.shutdown().await;
    b.shutdown().await;
    rec
}

/// Each divergence of a lockstep recording: its action, its detail, whether it went on.
pub(crate) fn details(rec: &Recording) -> Vec<(&Action, &str, bool)> {
    rec.divergences
        .iter()
        .map(|d| (&d.action, d.detail.as_str(), d.continued.is_some()))
        .collect()
}

/// A breakpoint at `line` (0-based), run to it, a step out, a step over, resume.
pub(crate) fn break_then_step_out(line: u32) -> Vec<Action> {
    vec![
        bp(line),
        Action::Start,
        Action::StepOut,
        Action::StepOver,
        Action::Resume,
    ]
}

/// The lines of a trace's pauses, in order.
pub(crate) fn pause_lines(t: &morphtrace_schema::Trace) -> Vec<u32> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Output(Output::Paused(p)) => Some(p.location.line),
            _ => None,
        })
        .collect()
}

/// A program of comments and blank lines only: pdb itself never stops in it (bdb sees no line
/// event), so it takes no breakpoint, where debugpy takes one on line 1. The recorder's pdb says
/// that, the triage rule judges it by design, and lockstep goes on to both programs' end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_a_breakpoint_in_a_program_without_a_statement() {
    let _g = SERIAL.lock().await;
    let (dir, p) = inline("comments.py", "# nothing but a comment\n\n");
    // pdb alone, as a user runs it: no prompt, the program restarted again and again (with
    // no input, a pdb that prompted would read its end and quit).
    let python = EngineSpec::parse("pdb").unwrap().executable;
    let mut child = std::process::Command::new(&python)
        .args(["-m", "pdb"])
        .arg(dir.path().join("comments.py"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut buf = vec![0u8; 1 << 16];
        let mut got = Vec::new();
        while got.len() < 4096 {
            match std::io::Read::read(&mut stdout, &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
        String::from_utf8_lossy(&got).into_owned()
    });
    let said = reader.join().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        said.contains("The program finished and will be restarted") && !said.contains("(Pdb)"),
        "{said}"
    );
    let rec = debugpy_and_pdb_under_triage(&p, vec![bp(0), Action::Start]).await;
    assert_eq!(
        details(&rec),
        [(
            &bp(0),
            "second side refused the breakpoint: the program has no statement, so pdb never stopped in it",
            true
        )]
    );
    for t in &rec.traces {
        assert!(
            matches!(
                t.events.last().map(|e| &e.kind),
                Some(EventKind::Output(Output::Finished {
                    outcome: ProgramOutcome::Completed
                }))
            ),
            "{:?}",
            t.events
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_pdbs_and_debugpys_breakpoint_differences() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("planted.py", PLANTED);
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            // Blank (1-based line 4): pdb refuses, debugpy moves it up to `return out`.
            Action::SetBreakpoint {
                line: 3,
                column: None,
            },
            Action::SetBreakpoint {
                line: 1,
                column: None,
            },
            Action::Start,
            Action::StepOver,
            Action::Resume,
        ],
    )
    .await;
    assert_eq!(rec.divergences.len(), 1, "{:?}", rec.divergences);
    let d = &rec.divergences[0];
    assert_eq!(
        d.detail,
        "second side refused the breakpoint: Blank or comment"
    );
    // Judged by debugpy's own positions (the interpreter's line starts from `return out` to
    // the blank line: `return out`); pdb placed nothing to ask about.
    let asked: Vec<(EngineRef, Vec<Location>)> = d
        .facts
        .iter()
        .filter_map(|f| match f {
            morphtrace_schema::fact::Fact::BreakPositions {
                engine, positions, ..
            } => Some((*engine, positions.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(asked, [(EngineRef(0), vec![Location::new(2, 0)])]);
    // Both went on to the end of the plan, pausing alike at `out = v * k`.
    for t in &rec.traces {
        assert_eq!(pause_lines(t), vec![1, 2, 1], "{:?}", t.engine);
    }
    // The same refusal where pdb already has a breakpoint on the line debugpy moves this one
    // to (`return out`): the detail says so, and it is still pdb's `checkline`.
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            bp(2),
            bp(3),
            bp(1),
            Action::Start,
            Action::Resume,
            Action::Resume,
        ],
    )
    .await;
    assert_eq!(
        details(&rec),
        [(
            &bp(3),
            "second side refused the breakpoint: Blank or comment; second side already had a \
             breakpoint on the line where the other placed it",
            true
        )]
    );
    for t in &rec.traces {
        assert_eq!(pause_lines(t), vec![1, 2, 1], "{:?}", t.engine);
    }
}

/// Issue 66: a breakpoint debugpy and pdb place apart is judged by each one's own break
/// positions, asked at the divergence: debugpy's, the lines where its interpreter's compiled code
/// starts one (the table pydevd moves a breakpoint by); pdb's, the lines its own `checkline`
/// accepts. On the blank line 4 pdb refuses and debugpy moves the breakpoint up to `return out`,
/// as its positions say: excused. A debugpy that reports its breakpoints a line off (a planted
/// fault) says it placed this one on the blank line, where it has no position; a pdb that does
/// says `out = v * k`'s is on the next line, past a line it accepts: neither is excused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_breakpoints_placed_apart_are_judged_by_each_debuggers_own_positions() {
    use faults::{Fault, FaultyEngine};
    use morphtrace_schema::fact::Fact;
    use morphtrace_schema::DivergenceKind;
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("planted.py", PLANTED);
    let asked = |d: &morphtrace_schema::Divergence, e: u16| {
        d.facts.iter().find_map(|f| match f {
            Fact::BreakPositions {
                engine, positions, ..
            } if *engine == EngineRef(e) => Some(positions.clone()),
            _ => None,
        })
    };
    // The real debuggers on these plans: lockstep_goes_on_past_pdbs_and_debugpys_breakpoint_
    // differences (the refusal excused with debugpy's positions asked; `out = v * k`'s
    // breakpoint placed alike).
    let blank = vec![bp(3), bp(1), Action::Start, Action::Resume];
    let shifted = FaultyEngine::wrap(
        debugpy(CaptureOptions::default()).await,
        Fault::ShiftBreakpoint,
    );
    let rec = under_triage(shifted, pdb(CaptureOptions::default()).await, &p, blank).await;
    let d = rec.divergences.first().expect("the lie shows");
    assert_eq!(d.kind, DivergenceKind::BreakpointLocation);
    assert_eq!(asked(d, 0), Some(vec![]), "no position on the blank line");
    assert!(d.continued.is_none(), "{d:?} {:?}", rec.notes);

    let code = vec![bp(1), Action::Start, Action::Resume];
    let shifted = FaultyEngine::wrap(pdb(CaptureOptions::default()).await, Fault::ShiftBreakpoint);
    let rec = under_triage(debugpy(CaptureOptions::default()).await, shifted, &p, code).await;
    let d = rec.divergences.first().expect("the lie shows");
    assert_eq!(d.detail, "breakpoint at [2:1] vs [3:1]");
    assert_eq!(
        asked(d, 1),
        Some(vec![Location::new(1, 0), Location::new(2, 0)]),
        "pdb accepts both lines"
    );
    assert!(d.continued.is_none(), "{d:?} {:?}", rec.notes);
}

/// A step out of `f` returns into the caller in the middle of `b = f(3)`: debugpy stops there, on
/// the line of the call (pydevd's step return stops in the caller at once, as the JavaScript
/// debuggers do); pdb at the caller's next line event, `print("b is", b)` (bdb stops on a line
/// event, and the call's line has none left). The divergence says which side is on the call's
/// line, `triage.toml` judges it by design, and lockstep goes on: debugpy finishes the line with
/// a step over and both pause alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_a_step_that_returns_onto_the_line_of_the_call() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("values.py", VALUES);
    let rec = debugpy_and_pdb_under_triage(&p, break_then_step_out(12)).await;
    assert_eq!(rec.divergences.len(), 1, "{:?}", rec.divergences);
    let d = &rec.divergences[0];
    assert_eq!(d.action, Action::StepOut);
    assert!(
        d.detail.ends_with(
            "; first side on the caller's line of the call, second side on another line of the \
             caller"
        ),
        "{}",
        d.detail
    );
    assert!(d.continued.is_some(), "{d:?}");
    // debugpy: 12, 15 (the call), 16 (its catch-up step over), 17; pdb: 12, 16, 17.
    assert_eq!(pause_lines(&rec.traces[0]), vec![12, 15, 16, 17]);
    assert_eq!(pause_lines(&rec.traces[1]), vec![12, 16, 17]);
}

/// `b = g(f(3))`: a step out of `f` returns into the middle of the line, which calls `g` next.
pub(crate) const CALLS_ON_ONE_LINE: &str = "def f(a):
    return a + 1


def g(x):
    return x * 2


b = g(f(3))
print(b)
";

/// A step out of `f`: debugpy stops on the line of the call; pdb, stepping on from `f`'s return
/// event, at the next event anywhere, in `g` (bdb drops its stop frame when it returns). The
/// divergence says so, the rule judges it by design, and debugpy catches up with a step into
/// `g`. A step over `g`'s last line then brings both to `print(b)`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_a_step_out_that_pdb_continues_into_the_next_call() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("calls.py", CALLS_ON_ONE_LINE);
    let rec = debugpy_and_pdb_under_triage(&p, break_then_step_out(1)).await;
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOut,
            "paused at 9:1 vs 6:1; first side on the caller's line of the call, second side \
                 in a function called from that line",
            true
        ),]
    );
    assert_eq!(pause_lines(&rec.traces[0]), vec![1, 8, 5, 9]);
    assert_eq!(pause_lines(&rec.traces[1]), vec![1, 5, 9]);
}

/// A program with something for every program transformation of Table 1: a boolean, integers,
/// functions, and a statement that never runs (`print("big")`).
pub(crate) const TRANSFORMABLE: &str = r#"def scale(v, k):
    out = v * k
    if out > 100:
        print("big")
    return out


total = 0
flag = True
for i in range(3):
    total += scale(i, 2)
print(total, flag)
"#;

pub(crate) async fn chain(
    engine: &mut Box<dyn Engine>,
    program: &corpus::Loaded,
    params: &morphtrace_recorder::task::ChainParams,
) -> morphtrace_recorder::metamorphic::Chain {
    let policy = ComparisonPolicy::default();
    let workdir = tempfile::tempdir().unwrap();
    let (mut coverage, mut py_coverage) = (None, None);
    let mut ctx = morphtrace_recorder::metamorphic::Context {
        engine,
        engine_ref: EngineRef(0),
        policy: &policy,
        workdir: workdir.path(),
        coverage: &mut coverage,
        py_coverage: &mut py_coverage,
        node: "node".into(),
        session_timeout: Duration::from_secs(60),
        prelude: true,
    };
    morphtrace_recorder::metamorphic::run_chain(&mut ctx, "test", program, params, &[]).await
}

pub(crate) fn one(
    transformation: morphtrace_judges::metamorphic::Transformation,
    actions: Vec<Action>,
    line: Option<u32>,
) -> morphtrace_recorder::task::ChainParams {
    morphtrace_recorder::task::ChainParams {
        rounds: 1,
        transformations: vec![transformation],
        initial: Plan::Replay { actions },
        seed: 1,
        max_resync: 6,
        pin: morphtrace_recorder::task::Pin {
            line,
            ..Default::default()
        },
    }
}

/// A list comprehension calling `double` for each element.
pub(crate) const COMPREHENSION: &str = "def double(x):
    return x * 2


def run(xs):
    return [double(x) for x in xs]


print(run([1, 2]))
";

/// Why `replace-continue-by-step` may warn on debugpy where nothing is wrong: with breakpoints
/// in `double` and on the comprehension's line, a resume from `double` stops at the
/// comprehension's line as it runs again for the next element; a step out of `double` stops on
/// that line at once, where the call returned (mid-line), and the resume after it stops on the
/// same line again, at its breakpoint, as the line runs again. The pause the step made is one
/// the continue never makes (`triage.toml`'s rule on this warning).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debugpy_meets_a_breakpoint_again_on_the_line_a_step_out_stopped_on() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("comprehension.py", COMPREHENSION);
    let mut e = debugpy(CaptureOptions::default()).await;
    let mut pauses = Vec::new();
    for replaced in [Action::Resume, Action::StepOut] {
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(1, None).await.unwrap();
        d.set_breakpoint(5, None).await.unwrap();
        let mut seen = Vec::new();
        for a in [
            Action::Start,
            Action::Resume,
            Action::Resume,
            replaced,
            Action::Resume,
        ] {
            let q = paused(d.control(&a).await.unwrap());
            seen.push((q.location.line, q.reason.name().to_string()));
        }
        d.close().await;
        pauses.push(seen);
    }
    let at = |l: u32, r: &str| (l, r.to_string());
    // In `run`, in `<listcomp>` (the line runs for the first element), in `double`.
    let common = vec![
        at(5, "breakpoint"),
        at(5, "breakpoint"),
        at(1, "breakpoint"),
    ];
    let mut resumed = common.clone();
    resumed.extend([at(5, "breakpoint"), at(1, "breakpoint")]);
    let mut stepped = common;
    stepped.extend([at(5, "step"), at(5, "breakpoint")]);
    assert_eq!(pauses, vec![resumed, stepped]);
    e.shutdown().await;
}

/// `same(reflect(5, 2), 3)`: `sub` returns into `reflect`, which returns at once (`return
/// sub(a, b)`) into the top level's line, which calls `same` next.
pub(crate) const RETURNS_TWO_FRAMES: &str = "def sub(a, b):
    return a - b


def reflect(a, b):
    return sub(a, b)


def same(a, b):
    return a == b


print(same(reflect(5, 2), 3))
";

/// A step over `sub`'s last line: debugpy stops at `reflect`'s return, shown on the top
/// level's line of the call (pydevd's step over becomes a step into when its frame returns, and
/// a return event shows in the frame below); pdb at the next line or call event, in `same`. The
/// divergence says the caller is 2 frames down, the rule judges it by design, and debugpy
/// catches up with a step into `same`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_a_step_that_returns_two_frames_down() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("reflect.py", RETURNS_TWO_FRAMES);
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![bp(1), Action::Start, Action::StepOver, Action::Resume],
    )
    .await;
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOver,
            "paused at 13:1 vs 10:1; first side on the caller's line of the call 2 frames down, \
             second side in a function called from that line",
            true
        )]
    );
    assert_eq!(pause_lines(&rec.traces[0]), vec![1, 12, 9]);
    assert_eq!(pause_lines(&rec.traces[1]), vec![1, 9]);
}

/// A generator expression on `total`'s line, consumed by `sum`.
pub(crate) const GENEXPR: &str = "def total(xs):
    return sum(x * 2 for x in xs)


print(total([1, 2, 3]))
";

/// A step out of a `<genexpr>` frame with a breakpoint on its line: debugpy's settrace tracer
/// stops at the generator's first `yield`, shown in `total` (pydevd takes the yield for a return:
/// traces/findings/debugpy-a-step-out-of-a-generator-expression-stops-at-its-first-yield); pdb
/// runs on and stops in the generator at the breakpoint as it runs for the next element. The
/// divergence says pdb's side is one frame further in, in `<genexpr>`; the rule judges it a
/// debugpy fault, and lockstep goes on past the known bug (issue 66): debugpy, the side not
/// further in (read from the stacks, not from the rule), resumes once to pdb's pause, and the
/// plan's last resume goes on alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_debugpys_step_out_of_a_generator_expression_at_its_first_yield() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("genexpr.py", GENEXPR);
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            bp(1),
            Action::Start,
            Action::StepInto,
            Action::StepOut,
            Action::Resume,
        ],
    )
    .await;
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOut,
            "stack [total, ] vs [<genexpr>, total, ]; second side one frame further in, in \
             <genexpr>",
            true
        )]
    );
    let tops = |t: &morphtrace_schema::Trace| -> Vec<String> {
        t.pauses()
            .map(|p| {
                p.stack
                    .first()
                    .map(|f| f.function.clone())
                    .unwrap_or_default()
            })
            .collect()
    };
    let went = rec.divergences[0].continued.as_deref().unwrap_or_default();
    assert!(
        went.contains(
            "(engine bug), gone past: 1 extra resume(s) of the others brought the engines to pdb@"
        ),
        "{went}"
    );
    // debugpy's one extra resume, then the plan's resume on both, in the generator again.
    assert_eq!(
        tops(&rec.traces[0]),
        ["total", "<genexpr>", "total", "<genexpr>", "<genexpr>"]
    );
    assert_eq!(
        tops(&rec.traces[1]),
        ["total", "<genexpr>", "<genexpr>", "<genexpr>"]
    );
}

/// The same step out seen through a logpoint, between pydevd's two backends on a Python 3.12 or
/// later: with a logpoint (and no breakpoint) on the generator expression's line, a step into
/// the expression and out of it. The settrace tracer stops at the first `yield`, on `total`'s
/// line, before the logpoint fires again; the sys.monitoring backend runs the expression to its
/// end, the logpoint firing for each element left. The divergence says where the step out began,
/// the rule judges it the settrace tracer's fault, and lockstep goes on past it (issue 66: a known
/// bug ends no session; the answers agreed, so the engines stand where they did). The settrace
/// side then logs at the resume what it did not log during the step: that logpoint is set apart
/// for the rest of the session, and that echo is no second divergence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_past_where_the_settrace_tracer_steps_out_of_a_generator_expression_before_its_logpoint(
) {
    let _g = SERIAL.lock().await;
    let newer = morphtrace_recorder::profilers::python::newer_pythons();
    let python = newer.first().unwrap_or_else(|| {
        panic!("no Python 3.12 or later on this machine (python3.12 on PATH, or pyenv's versions)")
    });
    let (_dir, p) = inline("genexpr.py", GENEXPR);
    let launch = |tracer: &str| {
        let spec = EngineSpec::parse(&format!("debugpy+{tracer}={}", python.display())).unwrap();
        async move { spec.launch(&CaptureOptions::default(), 1).await.unwrap() }
    };
    let actions = vec![
        bp(1),
        Action::Start,
        Action::RemoveBreakpoint {
            id: BreakpointId(1),
        },
        Action::SetLogpoint {
            line: 1,
            expression: "x".into(),
            column: None,
        },
        Action::StepInto,
        Action::StepOut,
        Action::Resume,
    ];
    let rec = under_triage(launch("python").await, launch("sysmon").await, &p, actions).await;
    // The logpoint logs `x` for each element the sys.monitoring side runs after the step began.
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOut,
            "logpoints logged nothing vs #2 1 (line 1 of 0 vs 3); the step out began in a \
             generator expression, where first side logged nothing",
            true
        )]
    );
    let went = rec.divergences[0].continued.as_deref().unwrap_or_default();
    assert!(
        went.contains(
            "(engine bug), gone past: the engines are in step (they logged differently only)"
        ),
        "{went}"
    );
    // Both went on to the plan's last action and answered it.
    for t in &rec.traces {
        assert!(
            t.events.iter().any(|e| matches!(
                e.kind,
                morphtrace_schema::trace::EventKind::Action(Action::Resume)
            )),
            "{:?}",
            t.engine
        );
    }
}

/// A generator function consumed by a `for` loop, and one consumed by explicit `next` calls.
pub(crate) const GENERATOR_ENDS: &str = "def gen(n):
    for i in range(n):
        yield i
    done = n


def main():
    total = 0
    for v in gen(2):
        total += v
    it = gen(1)
    a = next(it)
    try:
        b = next(it)
    except StopIteration:
        b = 0
    return total + a + b


print(main())
";

/// A step over a generator's last statement (or a `<genexpr>`'s last element). Consumed by a
/// `for` loop or a built-in, pdb's step runs on to the next breakpoint or the program's end
/// (bdb ignores a generator's return events while stepping and waits for a StopIteration in the
/// caller, which CPython 3.11 raises in no frame here); debugpy stops in the caller. Consumed by
/// `next(it)`, pdb stops at the StopIteration exception event in the caller, on the line of the
/// call; debugpy on the caller's next line. The divergences say where the step began (from the
/// program's syntax) and, where pdb's driver saw the generator end, that it ended first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_that_ends_a_generator_on_debugpy_and_pdb() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("generator_ends.py", GENERATOR_ENDS);
    // The `for` loop's generator: debugpy in `main` at `it = gen(1)`, pdb at the breakpoint
    // again, in `gen(1)` (run on by the loop, the rest of `main` and the first `next`).
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![bp(3), Action::Start, Action::StepOver, Action::Resume],
    )
    .await;
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOver,
            "paused at 11:1 vs 4:1; second side stopped by a breakpoint, the other by its step; \
             the step began in a generator, which ended before the second side stopped",
            true
        )]
    );
    // An engine's fault (triage.toml judges this detail `engine-bug`, pdb ahead): debugpy
    // resumes to where pdb stands, and both go on.
    assert_eq!(
        (pause_lines(&rec.traces[0]), pause_lines(&rec.traces[1])),
        (vec![3, 10, 3], vec![3, 3])
    );
    // `next(it)`'s generator: pdb on `b = next(it)`, debugpy on `except StopIteration:`; pdb
    // finishes the line, and both go on to the end.
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            bp(3),
            Action::Start,
            Action::Resume,
            Action::StepOver,
            Action::Resume,
        ],
    )
    .await;
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOver,
            "paused at 15:1 vs 14:1; second side on the caller's line of the call, first side on \
             another line of the caller; the step began on a generator's last statement",
            true
        )]
    );
    assert_eq!(pause_lines(&rec.traces[0]), vec![3, 3, 14]);
    assert_eq!(pause_lines(&rec.traces[1]), vec![3, 3, 13, 14]);

    // A `<genexpr>` consumed by `set()`, stepped over at its last element: pdb runs on to the
    // breakpoint on `return ok`, and its driver saw the generator return for good first (the
    // pause's engine reason); debugpy's step ends on the statement's next line.
    let (_dir, p) = inline("genexpr_ends.py", GENEXPR_ENDS);
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            Action::SetConditionalBreakpoint {
                line: 1,
                condition: "locals().get('i') == 3".into(),
                column: None,
            },
            bp(3),
            Action::Start,
            Action::StepOver,
            Action::Resume,
        ],
    )
    .await;
    assert_eq!(
        details(&rec),
        vec![(
            &Action::StepOver,
            "paused at 3:1 vs 4:1; second side stopped by a breakpoint, the other by its step; \
             the step began in a generator, which ended before the second side stopped",
            true
        )]
    );
    assert_eq!(
        (pause_lines(&rec.traces[0]), pause_lines(&rec.traces[1])),
        (vec![1, 2, 3], vec![1, 3])
    );
    let reasons: Vec<Option<&str>> = rec.traces[1]
        .pauses()
        .map(|p| p.engine_reason.as_deref())
        .collect();
    assert_eq!(
        reasons,
        vec![None, Some(morphtrace_judges::dbdb::GENERATOR_ENDED)]
    );
}

/// Two generator expressions on a statement of two lines, as pyperformance's nqueens has.
pub(crate) const GENEXPR_ENDS: &str = "def check(vec, cols):
    ok = (len(vec) == len(set(vec[i] + i for i in cols))
          == len(set(vec[i] - i for i in cols)))
    return ok


print(check((1, 3, 0, 2), range(4)))
";

/// `f`'s breakpoint has a condition over a name defined nowhere.
pub(crate) const RAISING_CONDITION: &str = "def f(a):
    b = a * 2
    return b


x = f(1)
y = f(2)
print(x + y)
";

/// A breakpoint whose condition raises: pdb stops there (bdb's `effective`), debugpy goes on
/// (its DAP mode skips suspending on a condition's exception). The recorder evaluates the
/// condition again on pdb's paused frame, the divergence says it threw, the rule judges it by
/// design, and pdb resumes until both have ended. A condition that does not raise and does not
/// hold stops neither.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lockstep_goes_on_past_a_condition_that_raises() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("raising.py", RAISING_CONDITION);
    let at_f = |condition: &str| Action::SetConditionalBreakpoint {
        line: 1,
        condition: condition.into(),
        column: None,
    };
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![at_f("missing > 1"), bp(5), Action::Start, Action::Resume],
    )
    .await;
    // pdb stops in `f` for each call; the second call's pause, passed on the way back into
    // step, is a difference of its own, recorded as met there.
    let ended_apart = "first side ended (completed), second side paused at 2:1; second side at a \
                       breakpoint whose condition `missing > 1` threw NameError";
    assert_eq!(
        details(&rec),
        vec![
            (&Action::Resume, ended_apart, true),
            (&Action::Resume, ended_apart, true)
        ]
    );
    assert_eq!(met_in_resync(&rec), vec![false, true]);
    // pdb: `x = f(1)`, `f` for each call (its two extra resumes); debugpy: `x = f(1)` only.
    assert_eq!(pause_lines(&rec.traces[0]), vec![5]);
    assert_eq!(pause_lines(&rec.traces[1]), vec![5, 1, 1]);
    let checked: Vec<_> = rec.traces[1]
        .pauses()
        .map(|p| p.condition.as_ref().map(|c| c.threw))
        .collect();
    // Both of pdb's pauses in `f` checked: the second where the steps back into step met it.
    assert_eq!(checked, vec![None, Some(true), Some(true)]);

    // The same during a step over `x = f(1)`: bdb stops in `f` (a breakpoint's stop, reported
    // as one), debugpy's step goes on to `y = f(2)`, where a breakpoint is; pdb resumes to it.
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            at_f("missing > 1"),
            bp(5),
            bp(6),
            Action::Start,
            Action::StepOver,
            Action::Resume,
        ],
    )
    .await;
    assert_eq!(
        details(&rec),
        vec![
            (
                &Action::StepOver,
                "paused at 7:1 vs 2:1; second side at a breakpoint whose condition \
                 `missing > 1` threw NameError",
                true
            ),
            (
                &Action::Resume,
                "first side ended (completed), second side paused at 2:1; second side at a \
                 breakpoint whose condition `missing > 1` threw NameError",
                true
            )
        ]
    );
    assert_eq!(pause_lines(&rec.traces[0]), vec![5, 6]);
    assert_eq!(pause_lines(&rec.traces[1]), vec![5, 1, 6, 1]);
    let stopped_by = |t: &morphtrace_schema::Trace| -> Vec<bool> {
        t.pauses()
            .map(|p| matches!(p.reason, PauseReason::Breakpoint { .. }))
            .collect()
    };
    assert_eq!(stopped_by(&rec.traces[1]), vec![true, true, true, true]);

    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![at_f("a > 5"), bp(5), Action::Start, Action::Resume],
    )
    .await;
    assert!(rec.divergences.is_empty(), "{:?}", rec.divergences);
    assert_eq!(pause_lines(&rec.traces[1]), vec![5]);

    // The condition over a local not yet bound, on a comprehension's line: pdb stops on `f`'s
    // line and on each run of it in `<listcomp>`, debugpy at the next breakpoint; pdb alone
    // resumes until it is there too (debugpy stays).
    let (_dir, p) = inline("listcomp.py", LISTCOMP_CONDITION);
    let rec = debugpy_and_pdb_under_triage(
        &p,
        vec![
            Action::SetConditionalBreakpoint {
                line: 1,
                condition: "b is None".into(),
                column: None,
            },
            bp(6),
            Action::Start,
            Action::Resume,
        ],
    )
    .await;
    // pdb's pause in `f` and each in `<listcomp>` (its elements, and the comprehension's end):
    // the first judged at the action, the others met on the way back into step.
    let apart = "paused at 7:1 vs 2:1; second side at a breakpoint whose condition `b is None` \
                 threw NameError";
    assert_eq!(details(&rec), vec![(&Action::Start, apart, true); 5]);
    assert_eq!(met_in_resync(&rec), vec![false, true, true, true, true]);
    assert_eq!(pause_lines(&rec.traces[0]), vec![6]);
    let pdb = pause_lines(&rec.traces[1]);
    assert!(
        pdb.len() > 3 && pdb[..pdb.len() - 1].iter().all(|&l| l == 1) && pdb.ends_with(&[1, 6]),
        "{pdb:?}"
    );
}

/// `b = [a * k for k in range(3)]`: a comprehension's line runs once in `f` and once per
/// element in `<listcomp>`.
pub(crate) const LISTCOMP_CONDITION: &str = "def f(a):
    b = [a * k for k in range(3)]
    return b


x = f(1)
print(x)
";

/// Which of the session's divergences were met while the engines were brought back in step
/// past the one before.
pub(crate) fn met_in_resync(rec: &Recording) -> Vec<bool> {
    rec.divergences
        .iter()
        .map(|d| d.continued.as_deref() == Some(morphtrace_recorder::session::MET_IN_RESYNC))
        .collect()
}

pub(crate) fn bp(line: u32) -> Action {
    Action::SetBreakpoint { line, column: None }
}

/// `reduce` on a divergence between debugpy and pdb (pdb's step over a generator's end runs
/// on): a session recorded here and written to an archive as a campaign would, reduced by
/// replacing Python statements with `pass` (lines kept) and dropping actions. Its bundle holds
/// the Python program and says that no standalone reproducer speaks these debuggers yet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reduce_makes_a_python_finding_small() {
    let _g = SERIAL.lock().await;
    let text = "import sys\n\n\ndef gen():\n    yield 1\n    done = True\n\n\ndef twice(a):\n    b = a * 2\n    return b\n\n\ntotal = 0\nfor v in gen():\n    total += v\nextra = twice(3)\nprint(\"after the loop\", total, extra, len(sys.argv))\n";
    let (dir, p) = inline("padded.py", text);
    let a = debugpy(CaptureOptions::default()).await;
    let b = pdb(CaptureOptions::default()).await;
    let descriptors = vec![a.descriptor().clone(), b.descriptor().clone()];
    // Lines from 0: a breakpoint on `done = True`, then a step over the generator's end:
    // debugpy stops after the loop, pdb runs on to the program's end.
    let actions = vec![bp(5), Action::Start, Action::StepOver, Action::Resume];
    let rec = in_lockstep(a, b, &p, &actions, None).await;
    let d = rec.divergence.clone().unwrap_or_else(|| {
        let lines: Vec<Vec<u32>> = rec.traces.iter().map(pause_lines).collect();
        panic!(
            "pdb runs on where debugpy stops: {:?}, pauses {lines:?}",
            rec.final_outcome()
        )
    });
    assert_eq!(d.action, Action::StepOver, "{d:?}");
    let archive = dir.path().join("python.mtrace");
    common::archive_of(&archive, descriptors, &p.program, rec);
    let out = dir.path().join("bundle");
    let o = common::reduce(env!("CARGO_BIN_EXE_morphtrace-record"), &archive, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.starts_with(&format!(
            "reduced {} at stepOver on debugpy@",
            d.kind.name()
        )),
        "{said}"
    );
    let program = std::fs::read_to_string(out.join("program.py")).unwrap();
    for gone in ["twice", "import sys", "print"] {
        assert!(!program.contains(gone), "{gone}: {program}");
    }
    assert!(program.contains("yield 1"), "{program}");
    // Statements become `pass` where a block or the step's end needs one (13 non-blank lines
    // before).
    let kept = program.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(kept <= 10, "{program}");
    assert!(
        program.lines().count() < text.lines().count(),
        "blank lines dropped: {program}"
    );
    let reduced: Vec<Action> =
        serde_json::from_str(&std::fs::read_to_string(out.join("actions.json")).unwrap()).unwrap();
    assert!(reduced.len() < actions.len(), "{reduced:?}");
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.contains("```python\n"), "{readme}");
    assert!(
        readme.contains("No standalone reproducer: none speaks these engines' protocols yet"),
        "{readme}"
    );
}
