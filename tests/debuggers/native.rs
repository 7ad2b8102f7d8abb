//! LLDB (Debian 12's `lldb-16`, its DAP server `lldb-vscode-16`, installed by scripts/setup.sh)
//! on C programs the engine compiles per session (issue 71's first step): where it pauses and
//! what it shows, as the cookbook of a new engine.

use super::*;
use morphtrace_recorder::debugger::ProgramFile;
use morphtrace_schema::{BreakpointId, EngineKind, EventKind, Language, SessionOutcome};

const PROGRAM: &str = r#"#include <stdio.h>

struct pt { int x; double y; };

int add(int a, int b) {
  int s = a + b;
  return s;
}

int main(void) {
  int n = 3;
  char c = 'q';
  struct pt p = {1, 2.5};
  int arr[3] = {4, 5, 6};
  _Bool ok = 1;
  n = add(n, p.x);
  printf("%d %c %d\n", n, c, arr[2] + ok);
  return 0;
}
"#;

/// A C program written for one test (the directory lives as long as the first value).
fn c_program(text: &str) -> (tempfile::TempDir, ProgramFile) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("prog.c");
    std::fs::write(&path, text).unwrap();
    let file = ProgramFile {
        language: Language::C,
        url: format!("file://{}", path.display()),
        path,
        text: text.to_string(),
        lines: text.lines().count() as u32,
    };
    (dir, file)
}

fn number(p: &PauseState, name: &str) -> f64 {
    match var(p, name).value {
        Value::Number(x) => x,
        ref other => panic!("{name}: {other:?}"),
    }
}

#[tokio::test]
async fn lldb_steps_a_gcc_o0_program_and_shows_c_values() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = c_program(PROGRAM);
    let mut e = engine("lldb", CaptureOptions::default()).await;
    assert_eq!(e.descriptor().kind, EngineKind::Lldb);
    assert!(
        e.descriptor().version.ends_with("+gcc-O0"),
        "{:?}",
        e.descriptor()
    );
    let mut d = e.open(&p).await.unwrap().expect("the program compiles");
    // Breakpoints on `return s;` (line 7), on main's first statement (line 11, where the
    // session waits to start) and on the call of `add` (line 16). LLDB answers with lines alone.
    let set = d.set_breakpoint(6, None).await.unwrap();
    assert_eq!(actual(&set), vec![Location::new(6, 0)], "{set:?}");
    d.set_breakpoint(10, None).await.unwrap();
    d.set_breakpoint(15, None).await.unwrap();
    // Start: the first statement's breakpoint is hit there.
    let p0 = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!(p0.location.line, 10, "{p0:?}");
    assert_eq!(
        p0.reason,
        PauseReason::Breakpoint {
            ids: vec![BreakpointId(2)]
        }
    );
    let names: Vec<&str> = p0.stack.iter().map(|f| f.function.as_str()).collect();
    assert_eq!(names, ["main"], "the C library's frames are cut");
    // On to the call: values as C holds them.
    let p1 = paused(d.control(&Action::Resume).await.unwrap());
    assert_eq!(p1.location.line, 15, "{p1:?}");
    assert_eq!(number(&p1, "n"), 3.0);
    assert_eq!(number(&p1, "c"), f64::from(b'q'));
    assert_eq!(var(&p1, "ok").value, Value::Bool(true));
    match &var(&p1, "p").value {
        Value::Object {
            kind: ObjectKind::Object,
            class,
            entries: Some(entries),
            description,
            ..
        } => {
            assert_eq!(class, "pt");
            assert_eq!(description, &None, "a struct's address is not its value");
            let members: Vec<(&Key, &Value)> = entries.iter().map(|e| (&e.key, &e.value)).collect();
            assert_eq!(
                members,
                [
                    (&Key::Name("x".into()), &Value::Number(1.0)),
                    (&Key::Name("y".into()), &Value::Number(2.5))
                ]
            );
        }
        other => panic!("p: {other:?}"),
    }
    match &var(&p1, "arr").value {
        Value::Object {
            kind: ObjectKind::Array,
            entries: Some(entries),
            ..
        } => {
            let items: Vec<(&Key, &Value)> = entries.iter().map(|e| (&e.key, &e.value)).collect();
            assert_eq!(
                items,
                [
                    (&Key::Index(0), &Value::Number(4.0)),
                    (&Key::Index(1), &Value::Number(5.0)),
                    (&Key::Index(2), &Value::Number(6.0))
                ]
            );
        }
        other => panic!("arr: {other:?}"),
    }
    // Into `add`: two frames, its parameters.
    let p2 = paused(d.control(&Action::StepInto).await.unwrap());
    assert_eq!(p2.location.line, 5, "{p2:?}");
    let names: Vec<&str> = p2.stack.iter().map(|f| f.function.as_str()).collect();
    assert_eq!(names, ["add", "main"]);
    assert_eq!((number(&p2, "a"), number(&p2, "b")), (3.0, 1.0));
    // An evaluation in the frame, one that fails, and a set read back.
    match d.evaluate("a * 10 + b").await.unwrap() {
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
    // On to the breakpoint on `return s;`: the set value counted.
    let p3 = paused(d.control(&Action::Resume).await.unwrap());
    assert_eq!(p3.location.line, 6, "{p3:?}");
    assert!(
        matches!(p3.reason, PauseReason::Breakpoint { .. }),
        "{p3:?}"
    );
    assert_eq!(number(&p3, "s"), 7.0);
    // To the end: the program's output, its lines as it wrote them.
    match d.control(&Action::Resume).await.unwrap() {
        Output::Finished { outcome } => assert_eq!(outcome, ProgramOutcome::Completed),
        other => panic!("{other:?}"),
    }
    assert_eq!(d.console(), ["7 q 7"]);
    assert!(d.close().await);
    e.shutdown().await;
}

#[tokio::test]
async fn a_c_program_that_does_not_compile_is_its_syntax_error() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = c_program("int main(void) {\n  int x = 1\n  return x;\n}\n");
    let mut e = engine("lldb+clang-O0", CaptureOptions::default()).await;
    assert!(e.descriptor().version.ends_with("+clang-O0"));
    match e.open(&p).await.unwrap() {
        Err(s) => {
            assert!(s.message.contains("expected ';'"), "{s:?}");
            assert_eq!(s.location.map(|l| l.line), Some(1), "{s:?}");
        }
        Ok(_) => panic!("a program without a `;` compiled"),
    }
    e.shutdown().await;
}

/// A random campaign on LLDB over the bundled C programs: every session recorded and decided,
/// pauses with C values, logpoints that log through LLDB's console; the same seeds give the
/// same sessions; a strategy that does not know C says so.
#[tokio::test]
async fn a_random_campaign_on_c_programs_is_recorded_and_repeats() {
    let _g = SERIAL.lock().await;
    let record = env!("CARGO_BIN_EXE_morphtrace-record");
    let out = tempfile::tempdir().unwrap();
    let run = |name: &str| {
        let path = out.path().join(name);
        let o = std::process::Command::new(record)
            .args(["run", "--strategy", "random", "--engine", "lldb"])
            .args([
                "--corpus",
                "corpus/c",
                "--seeds",
                "1..3",
                "--logpoint-weight",
                "2",
            ])
            .arg("--out")
            .arg(&path)
            .current_dir(common::root())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        path
    };
    let first = run("a.mtrace");
    let sessions = common::normalized(&first);
    assert_eq!(sessions.len(), 9, "three programs, three seeds");
    let mut paused = 0;
    let mut logged = 0;
    for s in sessions.values() {
        assert_eq!(s.traces.len(), 1);
        assert!(
            matches!(
                s.outcome,
                SessionOutcome::Finished | SessionOutcome::ActionLimit
            ),
            "{:?}",
            s.outcome
        );
        for e in &s.traces[0].events {
            if let EventKind::Output(Output::Paused(p)) = &e.kind {
                paused += 1;
                assert!(!p.stack.is_empty() && p.stack.iter().all(|f| !f.function.is_empty()));
            }
        }
        logged += s.traces[0].logs.len();
    }
    assert!(paused >= 9, "{paused} pauses");
    assert!(logged > 0, "no logpoint logged in nine sessions");
    let again = run("b.mtrace");
    assert_eq!(
        common::normalized(&again),
        sessions,
        "same seeds, same sessions"
    );
    let o = std::process::Command::new(record)
        .args([
            "run",
            "--strategy",
            "metamorphic",
            "--engine",
            "lldb",
            "--corpus",
            "corpus/c",
        ])
        .arg("--out")
        .arg(out.path().join("m.mtrace"))
        .current_dir(common::root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not know C programs yet"));
}
