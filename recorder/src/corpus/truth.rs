//! Instrumented copies for ground truth (issue 68): a program that records no state of its own
//! is given a copy in which statement lines begin with a recording call, on the same line (no
//! line moves). Python: `truth.py`, on the interpreter's own `ast`; the recording function is
//! the engines' sitecustomize's `__mt_truth__`, which reads the frame's locals itself.
//! JavaScript (classic scripts): `morphtrace_syntax::js::truth` finds the statements and the names
//! initialized at each, which the call passes (`{ a, b }`); the recording function
//! ([`record_js`]) follows the program. Generated programs record their own (`truth:SEEDS`).

use super::{materialize, CorpusError, Loaded};
use morphtrace_schema::{Language, Program, ProgramOrigin};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The instrumenter, run by the interpreter of the campaign's Python engine.
const INSTRUMENT: &str = include_str!("truth.py");
/// The recording function of JavaScript copies: generated programs' (`truth.js`) with typed
/// values (`truth-copy.js` in place of its `show`), so that the two read stacks alike.
fn record_js() -> String {
    let base = include_str!("truth.js");
    let from = base
        .find("  const show = ")
        .expect("truth.js writes values");
    let to = base
        .find("  // Every synchronous frame")
        .expect("truth.js reads the stack");
    format!(
        "{}{}{}",
        &base[..from],
        include_str!("truth-copy.js"),
        &base[to..]
    )
    .replace("stack }));", "stack, typed: true }));")
}
/// The transformation an instrumented copy's origin names.
pub const TRANSFORMATION: &str = "truth";

/// Each Python program without points replaced by its instrumented copy (a transformed program
/// whose parent is the original); one the instrumenter refuses (a syntax error of `python`'s)
/// kept and marked rejected with its reason, so that its sessions say so and the campaign goes
/// on. Programs that already record their state, and JavaScript ones, are returned unchanged.
pub fn instrument(
    programs: Vec<Loaded>,
    python: Option<&Path>,
    dir: &Path,
) -> Result<Vec<Loaded>, CorpusError> {
    programs
        .into_iter()
        .map(|l| {
            if l.rejected.is_some() || !morphtrace_judges::truth::points(&l.program.text).is_empty()
            {
                return Ok(l);
            }
            let made = match (l.program.language, python) {
                (Language::Python, Some(python)) => copy(python, &l.program.text),
                (Language::Python, None) => return Ok(l),
                (_, _) => copy_js(&l.program.text),
            };
            match made {
                Ok(text) => materialize(
                    Program::new(
                        l.program.language,
                        text,
                        ProgramOrigin::Transformed {
                            parent: l.program.hash,
                            transformation: TRANSFORMATION.into(),
                        },
                    ),
                    dir,
                ),
                Err(reason) => {
                    tracing::warn!(
                        "{}: no instrumented copy ({reason}); its sessions are recorded as rejected",
                        l.program.origin.name()
                    );
                    Ok(Loaded {
                        rejected: Some(format!("no instrumented copy for ground truth: {reason}")),
                        ..l
                    })
                }
            }
        })
        .collect()
}

/// The instrumented copy of a classic script, or why there is none (it does not parse as one,
/// or has no statement that begins its line).
pub fn copy_js(text: &str) -> Result<String, String> {
    let points = morphtrace_syntax::js::truth::points(text).map_err(|e| e.to_string())?;
    if points.is_empty() {
        return Err("no statement begins a line".into());
    }
    let mut out = text.to_string();
    for (i, p) in points.iter().enumerate().rev() {
        let names = match p.names.is_empty() {
            true => "{}".to_string(),
            false => format!("{{ {} }}", p.names.join(", ")),
        };
        let call = format!(
            "{}({}, {}, {names}); ",
            morphtrace_judges::truth::FUNCTION,
            i + 1,
            p.line + 1,
        );
        out.insert_str(p.offset, &call);
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&record_js());
    // The copy must parse where the program did (a call cannot join a line before it).
    morphtrace_syntax::js::parse(&out, morphtrace_syntax::js::Goal::Script, |_| ())
        .map_err(|e| format!("the instrumented copy does not parse: {e}"))?;
    Ok(out)
}

/// The instrumented text of `text`, or why `python` made none.
fn copy(python: &Path, text: &str) -> Result<String, String> {
    let mut child = Command::new(python)
        .args(["-I", "-c", INSTRUMENT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    // The program is written from another thread: a large one must not block on a full pipe
    // while the instrumenter's output fills the other.
    let mut stdin = child.stdin.take().expect("piped");
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err.lines().last().unwrap_or("failed").trim().to_string());
    }
    String::from_utf8(out.stdout).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn python() -> std::path::PathBuf {
        crate::debugger::engines::which("python3").expect("python3 on PATH")
    }

    #[test]
    fn points_go_where_one_statement_is_one_line_event_and_no_line_moves() {
        let text = "import math\n\"\"\"not a docstring\"\"\"\nx = 1\ndef f(a):\n    \"\"\"doc\"\"\"\n    global g\n    b = a + 1; c = 2\n    if b: return b\n    y = [i for i in range(3)]\n    z = (1 +\n       2)\n    return b\nprint(f(x))\n";
        let out = copy(&python(), text).unwrap();
        let want = "__mt_truth__(1, 1); import math\n__mt_truth__(2, 2); \"\"\"not a docstring\"\"\"\n__mt_truth__(3, 3); x = 1\ndef f(a):\n    \"\"\"doc\"\"\"\n    global g\n    __mt_truth__(4, 7); b = a + 1; c = 2\n    if b: return b\n    y = [i for i in range(3)]\n    z = (1 +\n       2)\n    __mt_truth__(5, 12); return b\n__mt_truth__(6, 13); print(f(x))\n";
        assert_eq!(out, want);
        assert_eq!(
            morphtrace_judges::truth::points(&out),
            vec![(1, 0), (2, 1), (3, 2), (4, 6), (5, 11), (6, 12)]
        );
    }

    #[test]
    fn a_program_python_cannot_parse_is_rejected_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let program = Program::new(
            Language::Python,
            "def f(:\n",
            ProgramOrigin::Inline { name: "bad".into() },
        );
        let loaded = materialize(program, dir.path()).unwrap();
        let out = instrument(vec![loaded], Some(&python()), dir.path()).unwrap();
        let reason = out[0].rejected.as_deref().unwrap();
        assert!(reason.contains("SyntaxError"), "{reason}");
    }

    #[test]
    fn a_javascript_copy_passes_the_names_initialized_at_each_point() {
        let text =
            "let a = 1;\nfunction f(p) {\n  const q = p + a;\n  return q;\n}\nconsole.log(f(2));";
        let out = copy_js(text).unwrap();
        let body: Vec<&str> = out.lines().take(6).collect();
        assert_eq!(
            body,
            [
                "__mt_truth(1, 1, {}); let a = 1;",
                "__mt_truth(2, 2, { a }); function f(p) {",
                "  __mt_truth(3, 3, { p }); const q = p + a;",
                "  __mt_truth(4, 4, { p, q }); return q;",
                "}",
                "__mt_truth(5, 6, { a }); console.log(f(2));",
            ]
        );
        let record = record_js();
        assert!(out.ends_with(&record));
        assert!(record.contains("typed: true }));") && !record.contains("const show"));
        assert_eq!(morphtrace_judges::truth::points(&out).len(), 5);
        assert!(copy_js("let x = ;").is_err());
    }
}
