//! Instrumented copies for ground truth (issue 68): a Python program that records no state of
//! its own is given a copy in which statement lines begin with a recording call (`truth.py`,
//! on the standard library's `ast`; the recording function is the engines' sitecustomize's
//! `__mt_truth__`). Generated JavaScript programs record their own (`truth:SEEDS`); other
//! JavaScript programs are left as they are and their sessions say why they cannot be judged.

use super::{materialize, CorpusError, Loaded};
use morphtrace_schema::{Language, Program, ProgramOrigin};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The instrumenter, run by the interpreter of the campaign's Python engine.
const INSTRUMENT: &str = include_str!("truth.py");
/// The transformation an instrumented copy's origin names.
pub const TRANSFORMATION: &str = "truth";

/// Each Python program without points replaced by its instrumented copy (a transformed program
/// whose parent is the original); one the instrumenter refuses (a syntax error of `python`'s)
/// kept and marked rejected with its reason, so that its sessions say so and the campaign goes
/// on. Programs that already record their state, and JavaScript ones, are returned unchanged.
pub fn instrument(
    programs: Vec<Loaded>,
    python: &Path,
    dir: &Path,
) -> Result<Vec<Loaded>, CorpusError> {
    programs
        .into_iter()
        .map(|l| {
            if l.program.language != Language::Python
                || l.rejected.is_some()
                || !morphtrace_schema::truth::points(&l.program.text).is_empty()
            {
                return Ok(l);
            }
            match copy(python, &l.program.text) {
                Ok(text) => materialize(
                    Program::new(
                        Language::Python,
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
            morphtrace_schema::truth::points(&out),
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
        let out = instrument(vec![loaded], &python(), dir.path()).unwrap();
        let reason = out[0].rejected.as_deref().unwrap();
        assert!(reason.contains("SyntaxError"), "{reason}");
    }
}
