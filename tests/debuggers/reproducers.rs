//! Standalone reproducers keep what the session set: variables, continues, restarted frames, conditions, logpoints.

use super::*;
/// A reproducer written for `actions` on `program`, its finding of `kind` at step 2 between
/// `engines`, run: its exit code and what it printed.
fn reproduce(
    program: &str,
    actions: &[Action],
    kind: &str,
    action: &Action,
    engines: &[&str],
    executables: &std::collections::BTreeMap<&str, String>,
) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let spec = serde_json::json!({
        "title": format!("{action} on {engines:?}"),
        "kind": kind,
        "action": action.name(),
        "step": 2,
        "detail": "",
        "variables": [],
        "columns": false,
        "prelude": false,
        "actionTimeoutMs": 5000,
        "engines": engines.iter().map(|k| serde_json::json!({
            "kind": k,
            "label": k,
            "executable": executables[k],
        })).collect::<Vec<_>>(),
    });
    std::fs::write(dir.path().join("program.js"), program).unwrap();
    std::fs::write(
        dir.path().join("actions.json"),
        serde_json::to_string(actions).unwrap(),
    )
    .unwrap();
    std::fs::write(dir.path().join("finding.json"), spec.to_string()).unwrap();
    std::fs::write(
        dir.path().join("reproduce.mjs"),
        morphtrace_recorder::reduce::reproducer::reproducer(&spec, &[actions]),
    )
    .unwrap();
    let o = std::process::Command::new("node")
        .arg(dir.path().join("reproduce.mjs"))
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code(), said)
}

/// A finding's standalone reproducer speaks the three newer actions on every protocol, as the
/// recorder does: it sets variables (CDP's request, an assignment elsewhere), continues to a
/// line and restarts a frame, and exits 1 only where the engines answer differently: V8 sets a
/// `const` when asked where Firefox's assignment leaves it (and Bun's throws); Bun cannot
/// restart a frame.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reproducers_set_variables_continue_and_restart_frames() {
    let _g = SERIAL.lock().await;
    let program = "const k = 1;\nfunction f(n) {\n  let t = n * 2;\n  return t + k;\n}\nlet r = f(3);\nconsole.log(r);\n";
    let mut executables = std::collections::BTreeMap::new();
    for kind in ["node", "firefox", "bun"] {
        let mut e = engine(kind, CaptureOptions::default()).await;
        executables.insert(kind, e.descriptor().executable.clone());
        e.shutdown().await;
    }
    let set = |name: &str, value: &str| Action::SetVariable {
        name: name.into(),
        value: value.into(),
    };
    let bp = Action::SetBreakpoint {
        line: 3,
        column: None,
    };
    let cases: Vec<(&str, [&str; 2], Action, i32)> = vec![
        ("variables", ["node", "firefox"], set("k", "5"), 1),
        ("variables", ["node", "firefox"], set("t", "100"), 0),
        ("variables", ["node", "bun"], set("t", "\"x\""), 0),
        (
            "pause-location",
            ["node", "bun"],
            Action::ContinueToLocation { line: 6 },
            0,
        ),
        (
            "pause-location",
            ["node", "firefox"],
            Action::RestartFrame { frame: 0 },
            0,
        ),
        (
            "pause-location",
            ["node", "bun"],
            Action::RestartFrame { frame: 0 },
            1,
        ),
    ];
    for (kind, engines, action, exit) in cases {
        let actions = vec![bp.clone(), Action::Start, action.clone()];
        let (code, said) = reproduce(program, &actions, kind, &action, &engines, &executables);
        assert_eq!(code, Some(exit), "{action} on {engines:?}: {said}");
        // Each answer is the action's own (a set reads back, a continue or restart pauses).
        let expected = match (&action, exit) {
            (Action::SetVariable { .. }, _) => "{\"set\":",
            (Action::ContinueToLocation { .. }, _) => "): 7\n",
            (_, 0) => "): 3\n",
            _ => "cannot restart a frame",
        };
        assert!(said.contains(expected), "{action} on {engines:?}: {said}");
    }
}

/// A reproducer keeps a breakpoint's condition and a logpoint's expression where each protocol
/// takes them, as the recorder does: beside the location, not in it (Node's
/// `Debugger.setBreakpoint` ignores a `condition` inside `location`, and then pauses). A
/// condition false at its line and a logpoint never pause, so every engine pauses first at the
/// plain breakpoint further on, and the reproducer exits 0; a true condition pauses at its line
/// on every engine (also 0); a pause elsewhere than in the other engine is an exit 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reproducers_keep_conditions_and_logpoints_beside_the_location() {
    let _g = SERIAL.lock().await;
    let program =
        "function f(n) {\n  let t = n * 2;\n  return t + 1;\n}\nlet r = f(3);\nconsole.log(r);\n";
    let mut executables = std::collections::BTreeMap::new();
    for kind in ["node", "firefox", "bun"] {
        let mut e = engine(kind, CaptureOptions::default()).await;
        executables.insert(kind, e.descriptor().executable.clone());
        e.shutdown().await;
    }
    let conditional = |condition: &str| Action::SetConditionalBreakpoint {
        line: 2,
        condition: condition.into(),
        column: None,
    };
    let logpoint = Action::SetLogpoint {
        line: 2,
        expression: "t".into(),
        column: None,
    };
    let plain = Action::SetBreakpoint {
        line: 5,
        column: None,
    };
    // (the action at line 3, the pair, where both must pause first)
    let cases: Vec<(Action, [&str; 2], &str)> = vec![
        (conditional("n > 5"), ["node", "firefox"], "): 6\n"),
        (conditional("n > 5"), ["node", "bun"], "): 6\n"),
        (conditional("n < 5"), ["node", "bun"], "): 3\n"),
        (logpoint.clone(), ["node", "firefox"], "): 6\n"),
        (logpoint, ["node", "bun"], "): 6\n"),
    ];
    for (action, engines, paused) in cases {
        let actions = vec![action.clone(), plain.clone(), Action::Start];
        let (code, said) = reproduce(
            program,
            &actions,
            "pause-location",
            &Action::Start,
            &engines,
            &executables,
        );
        assert_eq!(code, Some(0), "{action} on {engines:?}: {said}");
        // Both engines' answers name the line they paused at.
        assert_eq!(
            said.matches(paused).count(),
            2,
            "{action} on {engines:?}: {said}"
        );
    }
}
