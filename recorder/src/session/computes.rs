//! What a program computes on an engine, apart from any debugging: the program run once with no
//! breakpoint and no step, an epilogue appended that prints the globals it made and their values.
//! Two engines whose runs differ compute differently, so a value shown differently at a pause may
//! be the program's and not the debugger's: the divergence says so (`program_differs`) and a
//! triage rule may excuse exactly that (`program_differs = true`). Where the runs agree, a value
//! shown differently stays the debugger's to explain. This replaces hand-written rules that
//! excused a value shape (fractions differing) whatever the program did.
//!
//! The run goes through the engine's own session (its debugger attached, never pausing): the one
//! way to run a program that every engine here shares. Runs are cached per engine and program
//! text for the life of the process.

use crate::corpus;
use crate::debugger::{DebuggerError, Engine, ProgramFile};
use morphtrace_schema::{Action, Language, Output, Program, ProgramOrigin};
use std::collections::HashMap;
use std::sync::Mutex;

/// Marks the epilogue's line among what the program printed.
const STATE: &str = "__morphtrace_state__ ";

/// Prints every own property of the global object, rendered, on one line: a program's globals
/// are those an empty program's run does not print. Values are rendered the same way on every
/// engine (numbers in full, strings quoted, arrays and plain objects three levels deep).
const EPILOGUE: &str = r#"
;(function () {
  var seen = [];
  function show(v, d) {
    var t = typeof v;
    if (v === null) return 'null';
    if (t === 'string') return JSON.stringify(v);
    if (t === 'number') return (v === 0 && 1 / v < 0) ? '-0' : String(v);
    if (t === 'bigint') return String(v) + 'n';
    if (t === 'function') return 'function ' + v.name;
    if (t !== 'object') return String(v);
    if (seen.indexOf(v) >= 0) return '<cycle>';
    var proto = Object.getPrototypeOf(v);
    var plain = Array.isArray(v) || proto === Object.prototype || proto === null;
    if (!plain) return '[object ' + ((v.constructor && v.constructor.name) || '?') + ']';
    if (d > 2) return '{...}';
    seen.push(v);
    var keys = Object.keys(v).slice(0, 50);
    var out = keys.map(function (k) { return k + ': ' + show(v[k], d + 1); }).join(', ');
    seen.pop();
    return (Array.isArray(v) ? '[' : '{') + out + (Array.isArray(v) ? ']' : '}');
  }
  var g = typeof globalThis !== 'undefined' ? globalThis : this;
  var names = Object.getOwnPropertyNames(g).sort();
  var state = names.map(function (n) {
    var d = Object.getOwnPropertyDescriptor(g, n);
    var value;
    try { value = d && 'value' in d ? show(d.value, 0) : 'accessor'; } catch (e) { value = 'unreadable'; }
    return [n, value];
  });
  var text = JSON.stringify(state);
  var n = Math.max(1, Math.ceil(text.length / 4000));
  for (var i = 0; i < n; i++) {
    console.log('__morphtrace_state__ ' + i + '/' + n + ' ' + text.slice(i * 4000, (i + 1) * 4000));
  }
})();
"#;

/// How a run ended and what it printed, the globals it made last (`name = value`).
#[derive(Debug, Clone, PartialEq)]
pub struct Computed {
    pub ended: String,
    pub printed: Vec<String>,
    pub globals: Vec<String>,
}

type Cache = Mutex<HashMap<(String, u64), Computed>>;
static RUNS: std::sync::LazyLock<Cache> = std::sync::LazyLock::new(Default::default);

/// A run's cache key: the program's text and its file's name (a program may print its name).
fn file_hash(file: &ProgramFile) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    file.text.hash(&mut h);
    file.path.file_name().hash(&mut h);
    h.finish()
}

/// Where a run's printed lines name the folder its program file was in (a path, a URL, a
/// traceback), they say this instead: runs of one program from two folders print alike.
pub const FOLDER: &str = "<program folder>";

/// `lines` with `file`'s folder, as a path and as a URL, said as [`FOLDER`].
pub fn placeless(lines: &[String], file: &ProgramFile) -> Vec<String> {
    let Some(dir) = file.path.parent().map(|d| d.display().to_string()) else {
        return lines.to_vec();
    };
    let url_dir = file
        .url
        .rsplit_once('/')
        .map(|(d, _)| d.to_string())
        .filter(|d| d.len() > "file://".len());
    lines
        .iter()
        .map(|l| {
            let l = match &url_dir {
                Some(u) => l.replace(u.as_str(), FOLDER),
                None => l.clone(),
            };
            if dir.len() > 1 {
                l.replace(dir.as_str(), FOLDER)
            } else {
                l
            }
        })
        .collect()
}

/// One run of `file` on `engine` with no pause: how it ended, what it printed ([`placeless`])
/// and, for JavaScript, the global state line's entries. A JavaScript program runs as a copy
/// under its own file name with the epilogue appended; a Python program runs as it is.
async fn run(
    engine: &mut Box<dyn Engine>,
    file: &ProgramFile,
) -> Result<(String, Vec<String>, Vec<(String, String)>), DebuggerError> {
    let dir = tempfile::tempdir().map_err(|e| DebuggerError::Protocol(e.to_string()))?;
    let loaded;
    let file: &ProgramFile = match file.language {
        Language::JavaScript => {
            let name = file
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "program.js".into());
            let program = Program::new(
                Language::JavaScript,
                format!("{}{EPILOGUE}", file.text),
                ProgramOrigin::File { path: name },
            );
            loaded = corpus::materialize(program, dir.path())
                .map_err(|e| DebuggerError::Protocol(e.to_string()))?;
            &loaded.file
        }
        _ => file,
    };
    let session = match engine.open(file).await? {
        Ok(d) => d,
        Err(syntax) => {
            return Ok((
                format!("syntax-error: {}", syntax.message),
                Vec::new(),
                Vec::new(),
            ))
        }
    };
    let mut d = session;
    let answer = d.control(&Action::Start).await;
    let printed = placeless(&d.console(), file);
    if !d.close().await {
        engine.restart().await?;
    }
    let ended = match answer? {
        Output::Finished { outcome } => outcome.name().to_string(),
        // A pause with no breakpoint and no step (a `debugger` statement): not a plain run.
        other => format!("answered {}", other.name()),
    };
    let mut chunks = std::collections::BTreeMap::new();
    let mut count = None;
    let mut lines = Vec::new();
    for line in printed {
        match line.strip_prefix(STATE).and_then(chunk) {
            Some((i, n, text)) => {
                count = Some(n);
                chunks.insert(i, text);
            }
            None => lines.push(line),
        }
    }
    let state = count
        .filter(|&n| chunks.len() == n && chunks.keys().copied().eq(0..n))
        .and_then(|_| serde_json::from_str(&chunks.into_values().collect::<String>()).ok());
    let ended = match state {
        Some(_) => ended,
        // What the program left is unknown: the run says nothing about what it computes.
        None if ended == "completed" || ended == "uncaught-exception" => {
            format!("{ended}, its state unread")
        }
        None => ended,
    };
    Ok((ended, lines, state.unwrap_or_default()))
}

/// One piece of the state line, `I/N TEXT`: the epilogue cuts it into pieces of 4,000
/// characters, as Firefox hands a longer console argument over as a long string's first
/// characters only.
fn chunk(line: &str) -> Option<(usize, usize, String)> {
    let (head, text) = line.split_once(' ')?;
    let (i, n) = head.split_once('/')?;
    Some((i.parse().ok()?, n.parse().ok()?, text.to_string()))
}

/// What `program` computes on `engine` (cached): `None` when it could not be run. Python
/// programs: how they end and what they print, their globals unread (such runs are never
/// `comparable`, so no triage rule reads them).
pub async fn computed(engine: &mut Box<dyn Engine>, program: &ProgramFile) -> Option<Computed> {
    let label = engine.descriptor().label();
    let key = (label.clone(), file_hash(program));
    if let Some(c) = RUNS.lock().ok()?.get(&key) {
        return Some(c.clone());
    }
    if program.language == Language::Python {
        let (ended, printed, _) = match run(engine, program).await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!("running {} without a pause on {}: {e}", program.url, key.0);
                return None;
            }
        };
        let c = Computed {
            ended,
            printed,
            globals: Vec::new(),
        };
        RUNS.lock().ok()?.insert(key, c.clone());
        return Some(c);
    }
    // The epilogue that prints the globals is JavaScript.
    if program.language != Language::JavaScript {
        return None;
    }
    // The engine's own globals: what an empty program's run leaves.
    let base_key = (label, 0);
    let base = RUNS.lock().ok()?.get(&base_key).cloned();
    let base = match base {
        Some(b) => b,
        None => {
            let empty = ProgramFile {
                language: Language::JavaScript,
                path: "empty.js".into(),
                url: "file:///empty.js".into(),
                text: String::new(),
                lines: 1,
            };
            let (ended, printed, state) = match run(engine, &empty).await {
                Ok(r) => r,
                Err(e) => {
                    tracing::warn!("running an empty program on {}: {e}", base_key.0);
                    return None;
                }
            };
            let b = Computed {
                ended,
                printed,
                globals: state.into_iter().map(|(n, _)| n).collect(),
            };
            RUNS.lock().ok()?.insert(base_key, b.clone());
            b
        }
    };
    if base.ended != "completed" {
        // Without the engine's own globals, the program's cannot be told apart.
        tracing::warn!("an empty program on {}: ended {}", key.0, base.ended);
        return None;
    }
    let (ended, printed, state) = match run(engine, program).await {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!("running {} without a pause on {}: {e}", program.url, key.0);
            return None;
        }
    };
    tracing::debug!(
        "{} on {}: ended {ended}, printed {printed:?}, {} globals",
        program.url,
        key.0,
        state.len()
    );
    let globals = state
        .into_iter()
        .filter(|(n, _)| !base.globals.contains(n))
        .map(|(n, v)| format!("{n} = {v}"))
        .collect();
    let c = Computed {
        ended,
        printed,
        globals,
    };
    RUNS.lock().ok()?.insert(key, c.clone());
    Some(c)
}

/// Drops the cached run of `file` on the engine labelled `label`: the next `computed` runs it
/// again (a confirmation must not trust one run).
pub fn forget(label: &str, file: &ProgramFile) {
    if let Ok(mut runs) = RUNS.lock() {
        runs.remove(&(label.to_string(), file_hash(file)));
    }
}

/// Whether two printed lines differ only in an error's wording: both name the same error
/// types (`TypeError`, …) and hold the same numbers. ECMA-262 leaves the message of an error
/// the engine throws to the implementation, so such lines say nothing about the values a
/// program computes: a program whose runs differ only so computes alike.
fn wording_only(p: &str, q: &str) -> bool {
    fn tokens(s: &str) -> (Vec<&str>, Vec<&str>) {
        let errors = s
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '.'))
            .filter(|w| w.ends_with("Error") && w.chars().next().is_some_and(char::is_uppercase))
            .collect();
        let numbers = s
            .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'e'))
            .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
            .collect();
        (errors, numbers)
    }
    let ((ep, np), (eq, nq)) = (tokens(p), tokens(q));
    !ep.is_empty() && ep == eq && np == nq
}

/// The first way `a` and `b` differ in what they compute (how they ended, a printed line, a
/// global's final value), in words, or `None` when they compute the same. Printed lines are
/// compared one by one; a pair that differs only in an error's wording (`wording_only`) is no
/// difference in what is computed.
pub fn difference(a: &Computed, b: &Computed) -> Option<String> {
    let clip = |s: &str| -> String {
        if s.chars().count() > 120 {
            format!("{}…", s.chars().take(120).collect::<String>())
        } else {
            s.to_string()
        }
    };
    if a.ended != b.ended {
        return Some(format!("it ended {} vs {}", a.ended, b.ended));
    }
    let first = |x: &[String], y: &[String]| -> Option<(String, String)> {
        let n = x.len().max(y.len());
        (0..n).find_map(|i| {
            let (p, q) = (x.get(i), y.get(i));
            let alike = match (p, q) {
                (Some(p), Some(q)) => p == q || wording_only(p, q),
                _ => false,
            };
            (!alike).then(|| {
                let show = |v: Option<&String>| v.map_or("nothing".into(), |v| clip(v));
                (show(p), show(q))
            })
        })
    };
    if let Some((p, q)) = first(&a.printed, &b.printed) {
        return Some(format!("it printed {p} vs {q}"));
    }
    first(&a.globals, &b.globals).map(|(p, q)| format!("its globals: {p} vs {q}"))
}

/// What the program computes on each of `engines`, in order (`None` where it could not run).
pub async fn on_each(
    engines: &mut [&mut Box<dyn Engine>],
    program: &ProgramFile,
) -> Vec<Option<Computed>> {
    let mut out = Vec::with_capacity(engines.len());
    for e in engines.iter_mut() {
        out.push(computed(e, program).await);
    }
    out
}

/// Whether two runs' difference could only come from the program: a program that did not end
/// by itself on both engines says nothing about what it computes.
pub fn comparable(a: &Computed, b: &Computed) -> bool {
    let ran = |c: &Computed| matches!(c.ended.as_str(), "completed" | "uncaught-exception");
    ran(a) && ran(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(ended: &str, printed: &[&str], globals: &[&str]) -> Computed {
        Computed {
            ended: ended.into(),
            printed: printed.iter().map(|s| s.to_string()).collect(),
            globals: globals.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn a_programs_folder_is_said_alike_wherever_it_ran() {
        let file = ProgramFile {
            language: Language::Python,
            path: "/tmp/run-1/abc/h_imghdr.py".into(),
            url: "file:///tmp/run-1/abc/h_imghdr.py".into(),
            text: String::new(),
            lines: 1,
        };
        let lines = [
            "/tmp/run-1/abc/h_imghdr.py: None".to_string(),
            "at file:///tmp/run-1/abc/h_imghdr.py:3:1".to_string(),
            "./h_imghdr.py /tmp/run-2".to_string(),
        ];
        assert_eq!(
            placeless(&lines, &file),
            [
                "<program folder>/h_imghdr.py: None",
                "at <program folder>/h_imghdr.py:3:1",
                "./h_imghdr.py /tmp/run-2",
            ]
        );
    }

    #[test]
    fn runs_differ_by_end_then_output_then_globals() {
        let a = c("completed", &["1"], &["x = 0.1"]);
        assert_eq!(difference(&a, &a.clone()), None);
        assert_eq!(
            difference(&a, &c("uncaught-exception", &["1"], &["x = 0.1"])).as_deref(),
            Some("it ended completed vs uncaught-exception")
        );
        assert_eq!(
            difference(&a, &c("completed", &["2"], &["x = 0.1"])).as_deref(),
            Some("it printed 1 vs 2")
        );
        assert_eq!(
            difference(&a, &c("completed", &["1"], &["x = 0.10000000000000002"])).as_deref(),
            Some("its globals: x = 0.1 vs x = 0.10000000000000002")
        );
        assert_eq!(
            difference(&a, &c("completed", &["1"], &[])).as_deref(),
            Some("its globals: x = 0.1 vs nothing")
        );
        // An error's message worded otherwise is no difference in what the program computes;
        // another error, or another number in it, is.
        let caught = |line: &str| c("completed", &[line], &["x = 0.1"]);
        assert_eq!(
            difference(
                &caught("caught TypeError: o.f is not a function"),
                &caught("caught TypeError: undefined is not a function (near '...o.f...')")
            ),
            None
        );
        assert_eq!(
            difference(
                &caught("caught TypeError: o.f is not a function"),
                &caught("caught RangeError: o.f is not a function")
            )
            .as_deref(),
            Some("it printed caught TypeError: o.f is not a function vs caught RangeError: o.f is not a function")
        );
        assert!(difference(
            &caught("RangeError: index 3 out of range"),
            &caught("RangeError: index 4 out of range")
        )
        .is_some());
        assert!(difference(&caught("total 3"), &caught("sum 3")).is_some());
        assert!(!comparable(&a, &c("timeout", &[], &[])));
        assert!(!comparable(
            &a,
            &c("completed, its state unread", &["1"], &[])
        ));
    }

    #[test]
    fn the_state_line_comes_in_pieces_and_a_missing_piece_is_no_state() {
        assert_eq!(chunk("0/2 [[\"x\""), Some((0, 2, "[[\"x\"".into())));
        assert_eq!(chunk("garbage"), None);
        assert_eq!(chunk("a/b text"), None);
    }
}
