//! Instrumented copies for ground truth (issue 68): a program that records no state of its own
//! is given a copy in which statement lines begin with a recording call, on the same line (no
//! line moves). Python: `truth.py`, on the interpreter's own `ast`; the recording function is
//! the engines' sitecustomize's `__mt_truth__`, which reads the frame's locals itself.
//! JavaScript (classic scripts): `morphtrace_syntax::js::truth` finds the statements and the names
//! initialized at each, which the call passes (`{ a, b }`); the recording function
//! ([`record_js`]) follows the program. C: `morphtrace_syntax::c::truth` finds the statements
//! and the integer variables that hold a value at each, which the call formats as JSON
//! (`__mt_truth(P, L, "{\"a\":%lld}", (long long)(a))`); the recording function (`truth.c`)
//! follows the program, its prototype goes before the first declaration at file scope, on that
//! declaration's line. Generated programs record their own (`truth:SEEDS`).

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
                (Language::C, _) => copy_c(&l.program.text),
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

/// The instrumented copy of a C program, or why there is none (tree-sitter-c does not parse it
/// without errors, it has no statement alone on its line, or no declaration at file scope).
/// The copy's calls read each point's integer variables as `long long` or `unsigned long long`
/// (the value unchanged); a point with none still records that it ran.
pub fn copy_c(text: &str) -> Result<String, String> {
    let plan = morphtrace_syntax::c::truth::points(text)?;
    if plan.points.is_empty() {
        return Err("no statement stands alone on its line in a function".into());
    }
    // Insertions from the end, so that each offset still holds.
    let mut inserts: Vec<(usize, String)> = plan
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let fields: Vec<String> = p
                .names
                .iter()
                .map(|r| {
                    format!(
                        "\\\"{}\\\":{}",
                        r.name,
                        if r.unsigned { "%llu" } else { "%lld" }
                    )
                })
                .collect();
            let args: String = p
                .names
                .iter()
                .map(|r| {
                    format!(
                        ", ({})({})",
                        if r.unsigned {
                            "unsigned long long"
                        } else {
                            "long long"
                        },
                        r.name
                    )
                })
                .collect();
            let call = format!(
                "{}({}, {}, \"{{{}}}\"{args}); ",
                morphtrace_judges::truth::FUNCTION,
                i + 1,
                p.line + 1,
                fields.join(",")
            );
            (p.offset, call)
        })
        .collect();
    inserts.push((
        plan.prototype,
        format!(
            "void {}(int, int, const char *, ...); ",
            morphtrace_judges::truth::FUNCTION
        ),
    ));
    inserts.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
    let mut out = text.to_string();
    for (at, s) in inserts {
        out.insert_str(at, &s);
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(
        &RECORD_C
            .replace("@POINTS@", &plan.points.len().to_string())
            .replace("@HITS@", &morphtrace_judges::truth::HITS.to_string()),
    );
    Ok(out)
}

/// The recording function of C copies, appended to the program.
const RECORD_C: &str = include_str!("truth.c");

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

    /// A C copy keeps every line where it was, compiles, and records at each point what the
    /// program's variables hold there, three times at most.
    #[test]
    fn a_c_copy_records_its_integers_and_moves_no_line() {
        let text = "#include <stdio.h>\n#include <stdint.h>\n\nstatic int g;\nint f(int8_t a, uint64_t b) {\n  int s = a + g;\n  for (int i = 0; i < 5; i++) {\n    s += i;\n  }\n  return s + (int) b;\n}\nint main(void) {\n  printf(\"%d\\n\", f(-3, 18446744073709551615ULL));\n  return 0;\n}\n";
        let copy = copy_c(text).unwrap();
        let (before, after): (Vec<&str>, Vec<&str>) =
            (text.lines().collect(), copy.lines().collect());
        for (i, line) in before.iter().enumerate() {
            assert!(
                after[i].ends_with(line.trim_start()),
                "line {}: {:?}",
                i + 1,
                after[i]
            );
        }
        assert_eq!(
            after[3],
            "void __mt_truth(int, int, const char *, ...); static int g;"
        );
        assert_eq!(
            after[7],
            "    __mt_truth(2, 8, \"{\\\"a\\\":%lld,\\\"b\\\":%llu,\\\"i\\\":%lld,\\\"s\\\":%lld}\", (long long)(a), (unsigned long long)(b), (long long)(i), (long long)(s)); s += i;"
        );
        let dir = tempfile::tempdir().unwrap();
        let (src, bin) = (dir.path().join("p.c"), dir.path().join("p"));
        std::fs::write(&src, &copy).unwrap();
        let cc = std::process::Command::new("gcc")
            .args(["-O0", "-g", "-Wall", "-Werror", "-o"])
            .arg(&bin)
            .arg(&src)
            .output()
            .unwrap();
        assert!(
            cc.status.success(),
            "{}",
            String::from_utf8_lossy(&cc.stderr)
        );
        let run = std::process::Command::new(&bin).output().unwrap();
        let out: Vec<String> = String::from_utf8(run.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        let records = morphtrace_judges::truth::records(&out).unwrap();
        // f's points: line 6 once, line 8 five times (three recorded), line 10 once; main's two
        // points once each, around the program's own line.
        let lines: Vec<(u32, u32)> = records.iter().map(|r| (r.line, r.hit)).collect();
        assert_eq!(
            lines,
            [(13, 1), (6, 1), (8, 1), (8, 2), (8, 3), (10, 1), (14, 1)]
        );
        let at = |i: usize, name: &str| records[i].values[name].clone();
        assert_eq!(at(1, "a"), serde_json::json!(-3));
        assert_eq!(at(1, "b"), serde_json::json!(18446744073709551615u64));
        assert_eq!(
            (at(4, "i"), at(4, "s")),
            (serde_json::json!(2), serde_json::json!(-2))
        );
        assert!(records.iter().all(|r| r.typed && r.stack.is_none()));
        // Every run counts, the unrecorded among them (line 8's fourth and fifth).
        let seq: Vec<Option<u64>> = records.iter().map(|r| r.seq).collect();
        assert_eq!(seq, [1, 2, 3, 4, 5, 8, 9].map(Some));
        // One site per point (nothing duplicated at -O0), a different one for each point.
        let sites: std::collections::BTreeSet<(u32, Option<i64>)> =
            records.iter().map(|r| (r.point, r.site)).collect();
        assert_eq!(sites.len(), 5, "{sites:?}");
        assert!(sites.iter().all(|(_, s)| s.is_some()));
        assert!(out.contains(&"6".to_string()), "{out:?}");
        assert_eq!(morphtrace_judges::truth::points(&copy).len(), 5);
        assert!(copy_c("int f( {").is_err());
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
