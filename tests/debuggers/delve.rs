//! Delve on Go programs the engine builds per session (issue 71's item 6): Debian 12's delve
//! 1.20 and Go 1.19, installed by scripts/setup.sh, through the DAP session that debugpy and
//! LLDB use. Where it pauses and what it shows, as the cookbook of a new engine.

use super::*;
use morphtrace_recorder::debugger::SyntaxError;
use morphtrace_schema::{BreakpointId, EngineKind, Key};

const PROGRAM: &str = r#"package main

import "fmt"

type point struct {
	x int
	y float64
}

func add(a, b int) int {
	s := a + b
	return s
}

func main() {
	n := 3
	name := "go\t!"
	p := point{1, 2.5}
	xs := []int{4, 5, 6}
	m := map[string]int{"a": 1}
	ptr := &p
	ok := true
	var none *point
	n = add(n, p.x)
	fmt.Println(n, name, xs[2], m["a"], ptr.y, ok, none == nil)
}
"#;

fn number(p: &PauseState, name: &str) -> f64 {
    match var(p, name).value {
        Value::Number(x) => x,
        ref other => panic!("{name}: {other:?}"),
    }
}

fn entries(v: &Value) -> Vec<(Key, Value)> {
    match v {
        Value::Object {
            entries: Some(e), ..
        } => e.iter().map(|e| (e.key.clone(), e.value.clone())).collect(),
        other => panic!("not an expanded object: {other:?}"),
    }
}

#[tokio::test]
async fn delve_steps_a_go_program_and_shows_go_values() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("prog.go", PROGRAM);
    let mut e = engine("delve", CaptureOptions::default()).await;
    assert_eq!(e.descriptor().kind, EngineKind::Delve);
    assert!(
        e.descriptor().version.ends_with("+noopt"),
        "{:?}",
        e.descriptor()
    );
    let mut d = open(&mut e, &p).await;
    // Breakpoints on `return s` (line 12), on main's first statement (line 16, where the
    // session waits to start) and on the call of `add` (line 24).
    let set = d.set_breakpoint(11, None).await.unwrap();
    assert_eq!(actual(&set), vec![Location::new(11, 0)], "{set:?}");
    d.set_breakpoint(15, None).await.unwrap();
    d.set_breakpoint(23, None).await.unwrap();
    // A line without a statement: Delve refuses it ("could not find statement").
    assert!(matches!(
        d.set_breakpoint(0, None).await.unwrap(),
        Output::Error { .. } | Output::BreakpointSet { .. }
    ));
    let p0 = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!(p0.location.line, 15, "{p0:?}");
    assert_eq!(
        p0.reason,
        PauseReason::Breakpoint {
            ids: vec![BreakpointId(2)]
        }
    );
    let names: Vec<&str> = p0.stack.iter().map(|f| f.function.as_str()).collect();
    assert_eq!(names, ["main.main"], "the runtime's frames are cut");
    // On to the call: values as Go holds them.
    let p1 = paused(d.control(&Action::Resume).await.unwrap());
    assert_eq!(p1.location.line, 23, "{p1:?}");
    assert_eq!(number(&p1, "n"), 3.0);
    assert_eq!(var(&p1, "name").value, Value::String("go\t!".into()));
    assert_eq!(var(&p1, "ok").value, Value::Bool(true));
    assert_eq!(var(&p1, "none").value, Value::Null);
    let point = vec![
        (Key::Name("x".into()), Value::Number(1.0)),
        (Key::Name("y".into()), Value::Number(2.5)),
    ];
    assert_eq!(entries(&var(&p1, "p").value), point);
    match &var(&p1, "p").value {
        Value::Object {
            class, description, ..
        } => {
            assert_eq!(class, "main.point");
            assert_eq!(description, &None);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        entries(&var(&p1, "xs").value),
        [
            (Key::Index(0), Value::Number(4.0)),
            (Key::Index(1), Value::Number(5.0)),
            (Key::Index(2), Value::Number(6.0))
        ]
    );
    assert_eq!(
        entries(&var(&p1, "m").value),
        [(Key::Name("\"a\"".into()), Value::Number(1.0))]
    );
    // A pointer: its pointee, not its address.
    let pointee = entries(&var(&p1, "ptr").value);
    assert_eq!(pointee.len(), 1, "{pointee:?}");
    assert_eq!(pointee[0].0, Key::Name("*".into()));
    assert_eq!(entries(&pointee[0].1), point);
    // Into `add`: two frames, its parameters.
    let p2 = paused(d.control(&Action::StepInto).await.unwrap());
    let names: Vec<&str> = p2.stack.iter().map(|f| f.function.as_str()).collect();
    assert_eq!(names, ["main.add", "main.main"], "{p2:?}");
    assert_eq!((number(&p2, "a"), number(&p2, "b")), (3.0, 1.0));
    // An evaluation in the frame, one that fails, and a set read back.
    match d.evaluate("a*10 + b").await.unwrap() {
        Output::Evaluated { value, threw } => {
            assert!(!threw);
            assert_eq!(value, Value::Number(31.0));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        d.evaluate("no_such_name").await.unwrap(),
        Output::Evaluated { threw: true, .. }
    ));
    let set = d.set_variable("b", "4").await.unwrap();
    assert!(
        matches!(&set, Output::VariableSet { value, .. } if *value == Value::Number(4.0)),
        "{set:?}"
    );
    // On to the breakpoint on `return s`: the set value counted.
    let p3 = paused(d.control(&Action::Resume).await.unwrap());
    assert_eq!(p3.location.line, 11, "{p3:?}");
    assert!(
        matches!(p3.reason, PauseReason::Breakpoint { .. }),
        "{p3:?}"
    );
    assert_eq!(number(&p3, "s"), 7.0);
    // To the end: the program's output, read from the adapter's own stdout.
    match d.control(&Action::Resume).await.unwrap() {
        Output::Finished { outcome } => assert_eq!(outcome, ProgramOutcome::Completed),
        other => panic!("{other:?}"),
    }
    assert_eq!(d.console(), ["7 go\t! 6 1 2.5 true true"]);
    assert!(d.close().await);
    e.shutdown().await;
}

const LOOP: &str = r#"package main

import "fmt"

func twice(k int) int {
	return 2 * k
}

func main() {
	total := 0
	for i := 0; i < 4; i++ {
		t := twice(i)
		total += t
	}
	fmt.Println(total)
	var xs []int
	fmt.Println(xs[total])
}
"#;

/// A condition, a logpoint, and a program that panics: it ends as the program's uncaught
/// exception at its line.
#[tokio::test]
async fn delve_holds_conditions_logs_and_ends_a_panicking_program() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("loop.go", LOOP);
    let mut e = engine("delve", CaptureOptions::default()).await;
    let mut d = open(&mut e, &p).await;
    let cond = d
        .set_conditional_breakpoint(5, None, "k == 2")
        .await
        .unwrap();
    assert_eq!(actual(&cond), vec![Location::new(5, 0)], "{cond:?}");
    let log = d.set_logpoint(12, None, "t").await.unwrap();
    assert_eq!(actual(&log), vec![Location::new(12, 0)], "{log:?}");
    // No breakpoint on main's first statement: on to the condition's first true.
    let p1 = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!(p1.location.line, 5, "{p1:?}");
    assert_eq!(number(&p1, "k"), 2.0, "the condition held the other calls");
    // The unrecovered panic: Delve stops in the runtime (`runtime.fatalpanic`, its
    // `unrecovered-panic` breakpoint), outside the program, which the session goes on past:
    // the program ends, its panic its uncaught exception at the line that raised it.
    match d.control(&Action::Resume).await.unwrap() {
        Output::Finished {
            outcome: ProgramOutcome::UncaughtException { message, location },
        } => {
            assert!(message.starts_with("panic: runtime error: index out of range"));
            assert_eq!(location, Some(Location::new(16, 0)));
        }
        other => panic!("{other:?}"),
    }
    let logs: Vec<String> = d.logs().into_iter().map(|(_, l)| l).collect();
    assert_eq!(logs, ["0", "2", "4", "6"]);
    assert_eq!(d.console(), ["12"]);
    assert!(d.close().await);
    e.shutdown().await;
}

#[tokio::test]
async fn a_go_build_error_is_the_programs_syntax_error_on_delve() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("bad.go", "package main\n\nfunc main() {\n\tx := 1\n}\n");
    let mut e = engine("delve", CaptureOptions::default()).await;
    match e.open(&p.file).await.unwrap() {
        Err(SyntaxError { message, location }) => {
            assert_eq!(message, "x declared but not used");
            assert_eq!(location, Some(Location::new(3, 1)));
        }
        Ok(_) => panic!("an unused variable does not build"),
    }
    e.shutdown().await;
}

/// A killed Delve detaches its program rather than killing it; the namespace it runs in
/// takes the program with it.
#[tokio::test]
async fn a_go_program_dies_with_its_debugger() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "spin.go",
        "package main\n\nfunc main() {\n\tn := 0\n\tfor {\n\t\tn++\n\t}\n}\n",
    );
    let mut e = engine("delve", CaptureOptions::default()).await;
    let mut d = open(&mut e, &p).await;
    // Running, in a loop without end.
    d.set_breakpoint(5, None).await.unwrap();
    paused(d.control(&Action::Start).await.unwrap());
    d.remove_breakpoint(BreakpointId(1)).await.unwrap();
    let adapter = e.pid().expect("the adapter's process");
    let program: Vec<u32> = morphtrace_recorder::child::descendants(adapter)
        .into_iter()
        .filter(|pid| {
            std::fs::read_link(format!("/proc/{pid}/exe"))
                .is_ok_and(|x| x.to_string_lossy().contains("prog-"))
        })
        .collect();
    assert_eq!(program.len(), 1, "the program runs under the adapter");
    let resumed = tokio::time::timeout(
        std::time::Duration::from_millis(500),
        d.control(&Action::Resume),
    )
    .await;
    assert!(resumed.is_err(), "the program loops: {resumed:?}");
    // SAFETY: kill takes no pointers.
    unsafe {
        libc::kill(adapter as i32, libc::SIGKILL);
    }
    let gone = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |s| {
            s.rsplit_once(')')
                .is_some_and(|(_, r)| r.trim_start().starts_with('Z'))
        })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !gone(program[0]) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(gone(program[0]), "the program outlived its debugger");
    drop(d);
    e.shutdown().await;
}

/// A `for` line's breakpoint pauses at the loop's initialization only, while stepping stops on
/// the line at the initialization and at each condition, all at column 0, as on gdb: the steps
/// judge's `AtLineStart` (no converse relation).
#[tokio::test]
async fn a_for_lines_breakpoint_pauses_at_its_initialization_only_on_delve() {
    let _g = SERIAL.lock().await;
    let program = "package main\n\nfunc main() {\n\ts := 0\n\tfor i := 0; i < 3; i++ {\n\t\ts += i\n\t}\n\t_ = s\n}\n";
    let (_dir, p) = inline("for.go", program);
    let mut e = engine("delve", CaptureOptions::default()).await;
    let mut d = open(&mut e, &p).await;
    d.set_breakpoint(4, None).await.unwrap();
    let mut at_for = 0;
    let mut out = d.control(&Action::Start).await.unwrap();
    while let Output::Paused(q) = &out {
        assert_eq!(q.location, Location::new(4, 0), "{q:?}");
        at_for += 1;
        out = d.control(&Action::Resume).await.unwrap();
    }
    assert!(matches!(out, Output::Finished { .. }), "{out:?}");
    assert_eq!(
        at_for, 1,
        "the breakpoint pauses at the initialization only"
    );
    assert!(d.close().await);
    let mut d = open(&mut e, &p).await;
    d.set_breakpoint(3, None).await.unwrap();
    let mut on_for = Vec::new();
    let mut out = d.control(&Action::Start).await.unwrap();
    while let Output::Paused(q) = &out {
        if q.location.line == 4 && q.stack.len() == 1 {
            on_for.push(q.location.column);
        }
        out = d.control(&Action::StepInto).await.unwrap();
    }
    assert_eq!(
        on_for,
        [0, 0, 0, 0],
        "initialization, then three conditions"
    );
    assert!(d.close().await);
    e.shutdown().await;
}

/// The debugger against itself on Delve: every session judged; a goroutine's breakpoint pause
/// is no step's (Delve steps one goroutine), a method reached through a compiler-made wrapper
/// is stepped into, as is program code a library calls back; and a deferred call with an argument, which runs as its function returns:
/// Delve's step into from the closing brace runs it without stopping in it, which a breakpoint
/// there sees (traces/findings/delve-a-step-into-at-a-return-runs-the-deferred-calls-unstepped).
#[tokio::test]
async fn delve_steps_against_its_breakpoints_on_go() {
    let _g = SERIAL.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.go");
    std::fs::write(&plain, "package main\n\nimport \"fmt\"\n\nfunc sq(k int) int {\n\treturn k * k\n}\n\nfunc main() {\n\tt := 0\n\tfor i := 0; i < 3; i++ {\n\t\tt += sq(i)\n\t}\n\tfmt.Println(t)\n}\n").unwrap();
    let deferred = dir.path().join("deferred.go");
    std::fs::write(&deferred, "package main\n\nimport \"fmt\"\n\nvar log string\n\nfunc note(s string) {\n\tlog += s\n}\n\nfunc work() {\n\tdefer note(\"done\")\n\tlog += \"work \"\n}\n\nfunc main() {\n\twork()\n\tfmt.Println(log)\n}\n").unwrap();
    // A goroutine pauses at its breakpoint while stepping stays on main's (no step of its). The
    // channel is a package variable: a local one's queue of senders shows the schedule, and the
    // session would be rejected as not repeatable (seen in a CI run).
    let goroutine = dir.path().join("goroutine.go");
    std::fs::write(&goroutine, "package main\n\nimport \"fmt\"\n\nvar c = make(chan int)\n\nfunc worker() {\n\tv := 6 * 7\n\tc <- v\n}\n\nfunc main() {\n\tgo worker()\n\tv := <-c\n\tfmt.Println(v)\n}\n").unwrap();
    // A method expression through an interface calls the method through a wrapper the
    // compiler made, without a source: stepping goes on into the method.
    let wrapper = dir.path().join("wrapper.go");
    std::fs::write(&wrapper, "package main\n\ntype I interface{ m() int }\n\ntype S struct{}\n\nfunc (S) m() int {\n\treturn 3\n}\n\nfunc main() {\n\tv := I.m(S{})\n\tprintln(v)\n}\n").unwrap();
    // Program code a library calls back (`fmt` calling a `String` method, `sort.Sort` the
    // methods of its argument): the step into the library call ends there.
    let callback = dir.path().join("callback.go");
    std::fs::write(&callback, "package main\n\nimport (\n\t\"fmt\"\n\t\"sort\"\n)\n\ntype T int\n\nfunc (t T) String() string {\n\treturn \"t\"\n}\n\ntype byValue []int\n\nfunc (b byValue) Len() int {\n\treturn len(b)\n}\n\nfunc (b byValue) Less(i, j int) bool {\n\treturn b[i] < b[j]\n}\n\nfunc (b byValue) Swap(i, j int) {\n\tb[i], b[j] = b[j], b[i]\n}\n\nfunc main() {\n\tfmt.Println(T(1))\n\txs := []int{3, 1, 2}\n\tsort.Sort(byValue(xs))\n\tfmt.Println(xs)\n}\n").unwrap();
    // A panic a deferred call recovers (the `shouldPanic` helper of Go's own tests): the step
    // from the deferred call's end goes into `runtime.gopanic`, which never returns; the step
    // ends where `main` goes on after the recovery, as the breakpoints trace pauses there.
    let recovered = dir.path().join("recovered.go");
    std::fs::write(&recovered, "package main\n\nvar n int\n\nfunc shouldPanic(f func()) {\n\tdefer func() {\n\t\tif recover() == nil {\n\t\t\tpanic(\"no panic\")\n\t\t}\n\t}()\n\tf()\n}\n\nfunc boom() {\n\tvar p *int\n\tn += *p\n}\n\nfunc main() {\n\tshouldPanic(boom)\n\tn++\n\tshouldPanic(boom)\n\tn++\n\tprintln(n)\n}\n").unwrap();
    let out = dir.path().join("steps.mtrace");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_morphtrace-record"))
        .args([
            "run",
            "--strategy",
            "steps",
            "--engine",
            "delve",
            "--seeds",
            "1",
        ])
        .args(
            [
                &plain, &deferred, &goroutine, &wrapper, &callback, &recovered,
            ]
            .map(|p| format!("--corpus={}", p.display())),
        )
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let archive = morphtrace_schema::archive::ArchiveReader::open(&out).unwrap();
    let sessions: Vec<morphtrace_schema::Session> =
        archive.sessions().map(|s| s.unwrap()).collect();
    assert_eq!(sessions.len(), 6);
    let warnings = |name: &str| -> Vec<String> {
        let s = sessions
            .iter()
            .find(|s| {
                archive
                    .program(&s.program)
                    .is_some_and(|p| format!("{:?}", p.origin).contains(name))
            })
            .unwrap_or_else(|| panic!("no session of {name}"));
        assert!(
            !matches!(
                s.outcome,
                morphtrace_schema::SessionOutcome::Rejected { .. }
            ),
            "{name}: {:?}",
            s.outcome
        );
        s.warnings.iter().map(|w| w.relation.clone()).collect()
    };
    assert_eq!(warnings("plain.go"), Vec::<String>::new());
    assert_eq!(warnings("goroutine.go"), Vec::<String>::new());
    assert_eq!(warnings("wrapper.go"), Vec::<String>::new());
    assert_eq!(warnings("callback.go"), Vec::<String>::new());
    assert_eq!(warnings("recovered.go"), Vec::<String>::new());
    assert_eq!(warnings("deferred.go"), ["steps-unreached-pause"]);
}

/// Same seed, same engine, same trace: a random campaign on Delve recorded twice.
#[tokio::test]
async fn a_random_campaign_on_delve_records_the_same_sessions_twice() {
    let _g = SERIAL.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("prog.go");
    std::fs::write(&program, PROGRAM).unwrap();
    let record = |name: &str| {
        let out = dir.path().join(name);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_morphtrace-record"))
            .args([
                "run",
                "--strategy",
                "random",
                "--engine",
                "delve",
                "--seeds",
                "1..3",
            ])
            .args(["--evaluate-weight", "1", "--set-variable-weight", "1"])
            .arg("--corpus")
            .arg(&program)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        common::normalized(&out)
    };
    let first = record("a.mtrace");
    assert_eq!(first.len(), 3);
    assert!(
        first.values().all(|s| s.traces[0].events.len() > 3),
        "{first:?}"
    );
    assert_eq!(first, record("b.mtrace"));
}

/// The debugger against itself catches planted faults on Delve with the goroutine fact on: the
/// real Delve warns nothing on a program whose goroutine pauses at its breakpoints while main's
/// is stepped; a step into taken as a step over leaves main's own callee's pauses unreached,
/// which the fact does not excuse.
#[tokio::test]
async fn the_debugger_against_itself_catches_planted_faults_on_delve() {
    use faults::Fault;
    use morphtrace_judges::steps::relation;
    use morphtrace_schema::{EngineRef, SessionOutcome};
    let _g = SERIAL.lock().await;
    // The channel is a package variable: Delve lists no globals, and a local channel's state
    // (its queue of senders) would show the schedule, which is the program's, not the debugger's.
    let program = "package main\n\nimport \"fmt\"\n\nvar c = make(chan int)\n\nfunc sq(k int) int {\n\tr := k * k\n\treturn r\n}\n\nfunc worker() {\n\tv := sq(6)\n\tc <- v\n}\n\nfunc main() {\n\tgo worker()\n\tt := sq(2)\n\tt += <-c\n\tfmt.Println(t)\n}\n";
    let (_dir, p) = inline("itself.go", program);
    let policy = ComparisonPolicy::default();
    let (mut e, switch) = faults::FaultyEngine::switchable(
        engine("delve", CaptureOptions::default()).await,
        Fault::Honest,
    );
    for (fault, want) in [
        (Fault::Honest, ""),
        (Fault::StepIntoAsOver, relation::REACHED),
    ] {
        switch.set(fault.clone());
        let (traces, outcome, _) = dbdb::steps::traces(
            &mut [&mut e],
            &[EngineRef(0)],
            &p,
            500,
            &policy,
            Duration::from_secs(60),
        )
        .await;
        assert_eq!(outcome, SessionOutcome::Finished, "{}", fault.name());
        let w = dbdb::steps::judge(&mut e, &p, &traces).await.unwrap();
        if fault == Fault::Honest {
            // The worker's pauses are in the breakpoints trace, outside main's steps.
            let in_worker = traces[1]
                .pauses()
                .filter(|q| q.stack.last().is_some_and(|f| f.function == "main.worker"))
                .count();
            assert!(in_worker >= 2, "{in_worker} pauses in the worker goroutine");
            assert!(w.is_empty(), "the real Delve: {w:#?}");
            assert_eq!(traces[0].console, ["40"]);
        } else {
            assert!(
                w.iter().any(|w| w.relation == want),
                "{}: no {want} among {w:#?}",
                fault.name()
            );
        }
    }
    e.shutdown().await;
}
