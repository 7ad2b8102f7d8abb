//! Reduction of a coverage finding. C programs: C-Vise (Debian `cvise`, the reducer that gcc's
//! and LLVM's bug trackers expect) with `morphtrace-record coverage-check` as its
//! interestingness test; JavaScript: statement blanking ([`super::blank_statements`]). Either way
//! every candidate is judged exactly as a campaign judges a program (same profilers, variants
//! and seed, the weak-noise filter, the class of the line).

use super::ReduceError;
use crate::cod::Found;
use morphtrace_schema::Language;
use morphtrace_syntax::js::statements::JsProgram;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The reproducer of a C2V finding (gcov against llvm-cov on one line).
pub const REPRODUCER_C2V: &str = include_str!("reproduce-c2v.sh");
/// The reproducer of a Cod finding of gcov or llvm-cov (P against its pruned variant P').
pub const REPRODUCER_C_COD: &str = include_str!("reproduce-c-cod.sh");
/// What both C reproducers share (a line's count from gcov and from llvm-cov, comparisons),
/// pasted into each at `@HARNESS@`.
const C_HARNESS: &str = include_str!("c-harness.sh");
/// The reproducer of a V8 finding against the ground truth (block count against a counter).
pub const REPRODUCER_V8: &str = include_str!("reproduce-v8.sh");
/// The reproducer of a Cod finding of V8 (P against its pruned variant P').
pub const REPRODUCER_V8_COD: &str = include_str!("reproduce-v8-cod.sh");
/// What both V8 reproducers share (the inspector session, running a script in a fresh context),
/// pasted into each at `@HARNESS@`.
const V8_HARNESS: &str = include_str!("v8-harness.js");
/// The reproducer of a coverage.py finding (C2V between two cores, Cod, or the counters).
pub const REPRODUCER_PY: &str = include_str!("reproduce-py.sh");
/// The guard against undefined behaviour in C-Vise's candidates: no warning that means it (gcc),
/// and a clean run under AddressSanitizer and UndefinedBehaviorSanitizer.
pub const WELL_DEFINED: &str = include_str!("well-defined.sh");

/// What C-Vise left and what it took.
#[derive(Debug, Clone)]
pub struct CReduced {
    pub text: String,
    pub elapsed: Duration,
    /// C-Vise reached its fixpoint within the budget.
    pub complete: bool,
    /// Every candidate passed [`WELL_DEFINED`] (`false`: the original itself did not, so the
    /// guard was left out).
    pub guarded: bool,
}

/// Single quotes for `sh` (the strings here hold no single quote; refused if one does).
fn quoted(s: &str) -> Result<String, ReduceError> {
    if s.contains('\'') {
        return Err(ReduceError::Write(format!("cannot quote {s:?} for sh")));
    }
    Ok(format!("'{s}'"))
}

/// Reduces `text` with C-Vise in `work` while `check_args` (the arguments of a
/// `coverage-check` run of this executable, the file last) still show the class, for at most
/// `budget`; the smallest program found so far is kept when the budget runs out. A Python
/// program goes through C-Vise's generic passes only (`--not-c`), without the C guard.
pub fn cvise(
    text: &str,
    language: Language,
    check: &[String],
    work: &Path,
    budget: Duration,
    progress: &indicatif::ProgressBar,
) -> Result<CReduced, ReduceError> {
    let io = |e: std::io::Error| ReduceError::Write(e.to_string());
    let me = std::env::current_exe().map_err(io)?;
    let is_c = language == Language::C;
    let (file, best_file) = if is_c {
        ("program.c", "best.c")
    } else {
        ("program.py", "best.py")
    };
    std::fs::write(work.join(file), text).map_err(io)?;
    // The guard runs first (it is cheaper than profiling) unless the original itself fails it.
    let guard = work.join("well-defined.sh");
    std::fs::write(&guard, WELL_DEFINED).map_err(io)?;
    let guarded = is_c
        && Command::new("sh")
            .arg(&guard)
            .arg("program.c")
            .current_dir(work)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(io)?
            .success();
    if is_c && !guarded {
        tracing::warn!("the original program shows signs of undefined behaviour: C-Vise runs without the guard");
    }
    let mut script = "#!/bin/sh\n".to_string();
    if guarded {
        script.push_str(&format!(
            "sh {} program.c >/dev/null 2>&1 || exit 1\n",
            quoted(&guard.display().to_string())?
        ));
    }
    script.push_str(&quoted(&me.display().to_string())?);
    for a in check {
        script.push(' ');
        script.push_str(&quoted(a)?);
    }
    script.push_str(&format!(" {file} >/dev/null 2>&1 || exit 1\n"));
    // C-Vise stopped by the budget may leave the program mid-pass: the test keeps the smallest
    // interesting candidate itself.
    let best = work.join(best_file);
    script.push_str(&format!(
        "best={}\nif [ ! -f \"$best\" ] || [ \"$(wc -c < {file})\" -lt \"$(wc -c < \"$best\")\" ]; then\n  \
         cp {file} \"$best.$$\" && mv \"$best.$$\" \"$best\"\nfi\nexit 0\n",
        quoted(&best.display().to_string())?
    ));
    let test = work.join("interesting.sh");
    std::fs::write(&test, script).map_err(io)?;
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&test, std::fs::Permissions::from_mode(0o755)).map_err(io)?;
    }
    let t0 = Instant::now();
    use std::os::unix::process::CommandExt;
    let mut child = crate::child::DieWithParent::die_with_parent(&mut Command::new("cvise"))
        .current_dir(work)
        // Its own process group: C-Vise's worker pool and the tests it runs go with it.
        .process_group(0)
        // Its temporary directories (and those of the tests) go into `work`, removed with it,
        // even when the budget stops it.
        .env("TMPDIR", work)
        .args(["--n", "2", "--timeout", "60", "--tidy", "--shaddap"])
        .args((!is_c).then_some("--not-c"))
        .arg(&test)
        .arg(file)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            ReduceError::Write(format!(
                "cannot run cvise ({e}): install the Debian package cvise (scripts/setup.sh does)"
            ))
        })?;
    let complete = loop {
        if let Some(status) = child.try_wait().map_err(io)? {
            if !status.success() {
                let mut err = String::new();
                if let Some(mut e) = child.stderr.take() {
                    use std::io::Read;
                    let _ = e.read_to_string(&mut err);
                }
                let tail: Vec<&str> = err.lines().rev().take(5).collect();
                return Err(ReduceError::NotReproduced(format!(
                    "cvise failed ({status}): {}",
                    tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
                )));
            }
            break true;
        }
        if t0.elapsed() >= budget {
            // C-Vise writes each improvement back to the file: what is there is the best so far.
            // SAFETY: kill(2) on the process group of our own child, which we have not reaped.
            unsafe {
                libc::kill(-(child.id() as i32), libc::SIGTERM);
            }
            std::thread::sleep(Duration::from_millis(500));
            // SAFETY: as above; whatever ignored SIGTERM.
            unsafe {
                libc::kill(-(child.id() as i32), libc::SIGKILL);
            }
            let _ = child.wait();
            break false;
        }
        progress.tick();
        std::thread::sleep(Duration::from_millis(250));
    };
    let done = if complete { file } else { best_file };
    let text = std::fs::read_to_string(work.join(done)).unwrap_or_else(|_| text.to_string());
    Ok(CReduced {
        text,
        elapsed: t0.elapsed(),
        complete,
        guarded,
    })
}

/// The reproducer script of a found C2V inconsistency.
pub fn reproducer(found: &Found) -> Option<String> {
    (found.relation == "c2v" && found.profilers == "gcov/llvm-cov").then(|| {
        REPRODUCER_C2V
            .replace("@HARNESS@", C_HARNESS)
            .replace("@LINE@", &(found.line + 1).to_string())
            .replace("@KIND@", &found.kind)
    })
}

/// The reproducer script of a C Cod finding: `profiler` (gcov or llvm-cov) on P's 0-based
/// `line` against P''s `line_b`; `kind` strong or weak. `None` for another profiler.
pub fn c_cod_script(profiler: &str, line: u32, line_b: u32, kind: &str) -> Option<String> {
    let (count, run) = match profiler {
        "gcov" => ("gcov_count", "gcc"),
        "llvm-cov" => ("llvm_count", "clang"),
        _ => return None,
    };
    Some(
        REPRODUCER_C_COD
            .replace("@HARNESS@", C_HARNESS)
            .replace("@PROFILER@", profiler)
            .replace("@COUNT@", count)
            .replace("@RUN@", run)
            .replace("@LINE_B@", &(line_b + 1).to_string())
            .replace("@LINE@", &(line + 1).to_string())
            .replace("@KIND@", kind),
    )
}

/// The reproducer of a Cod finding of gcov or llvm-cov and the variant's text (`variant.c`).
pub fn c_cod_reproducer(found: &Found) -> Option<(String, String)> {
    if found.relation != "cod" {
        return None;
    }
    let script = c_cod_script(&found.profilers, found.line, found.line_b, &found.kind)?;
    Some((script, found.text_b.clone()?))
}

/// The reproducer of a V8 statement count that the ground truth contradicts, and `counted.js`
/// (the program with a counter before every statement, as morphtrace's truth relation runs
/// it): `None` unless the finding is such and its statement has a counter.
pub fn v8_reproducer(found: &Found, text: &str) -> Option<(String, String)> {
    if found.relation != "truth" || found.profilers != "v8" {
        return None;
    }
    let p = JsProgram::parse(text).ok()?;
    let (counted, counters) = p.instrument(text);
    let (statement, counter) = p
        .statement_counts(&[])
        .into_iter()
        .zip(counters.iter().copied())
        .find(|(s, c)| s.line == found.line && s.kind == found.syntax && c.is_some())?;
    let script = REPRODUCER_V8
        .replace("@HARNESS@", V8_HARNESS)
        .replace("@LINE@", &(found.line + 1).to_string())
        .replace("@OFFSET@", &statement.start.to_string())
        .replace("@COUNTER@", &counter?.to_string())
        .replace("@COUNTERS@", &counters.iter().flatten().count().to_string())
        .replace("@KIND@", &found.kind);
    Some((script, counted))
}

/// The reproducer of a V8 Cod finding (a line's count in P against the same line's in P') and
/// the variant's text: `None` unless the finding is such and both lines hold a token.
pub fn v8_cod_reproducer(found: &Found, text: &str) -> Option<(String, String)> {
    if found.relation != "cod" || found.profilers != "v8" {
        return None;
    }
    let variant = found.text_b.clone()?;
    let offset = JsProgram::parse(text).ok()?.line_start_utf16(found.line)?;
    let offset_b = JsProgram::parse(&variant)
        .ok()?
        .line_start_utf16(found.line_b)?;
    let script = REPRODUCER_V8_COD
        .replace("@HARNESS@", V8_HARNESS)
        .replace("@LINE_B@", &(found.line_b + 1).to_string())
        .replace("@LINE@", &(found.line + 1).to_string())
        .replace("@OFFSET_B@", &offset_b.to_string())
        .replace("@OFFSET@", &offset.to_string())
        .replace("@KIND@", &found.kind);
    Some((script, variant))
}

/// The reproducer of a coverage.py finding and the programs it runs beside `program.py`
/// (`variant.py` for Cod, `count.py` for the counters): `None` unless every profiler of the
/// finding is a core of coverage.py.
pub fn py_reproducer(found: &Found) -> Option<(String, Vec<(&'static str, String)>)> {
    let cores: Vec<&str> = found
        .profilers
        .split('/')
        .map(|p| p.strip_prefix("coverage.py+"))
        .collect::<Option<_>>()?;
    if cores
        .iter()
        .any(|c| crate::profilers::python::Core::parse(c).is_none())
    {
        return None;
    }
    let beside = match (found.relation.as_str(), &cores[..]) {
        ("c2v", [_, _]) => Vec::new(),
        ("cod", [_]) => vec![("variant.py", found.text_b.clone()?)],
        ("truth", [_]) => vec![("count.py", crate::profilers::python::COUNT.to_string())],
        _ => return None,
    };
    let script = REPRODUCER_PY
        .replace("@RELATION@", &found.relation)
        .replace("@KIND@", &found.kind)
        .replace("@LINE_B@", &(found.line_b + 1).to_string())
        .replace("@LINE@", &(found.line + 1).to_string())
        .replace("@ARC@", found.arc.as_deref().unwrap_or(""))
        .replace("@CORE_A@", cores[0])
        .replace("@CORE_B@", cores.get(1).copied().unwrap_or(cores[0]));
    Some((script, beside))
}

/// A reduced coverage finding, ready to be written.
pub struct Bundle<'a> {
    pub class: &'a str,
    pub language: Language,
    /// The inconsistency on the reduced program.
    pub found: &'a Found,
    pub engines: &'a [String],
    pub text: &'a str,
    pub original: &'a str,
    /// The `coverage-check` arguments of the interestingness test (file last, not included).
    pub check: &'a [String],
    /// The programs ran after morphtrace's determinism prelude (JavaScript).
    pub prelude: bool,
    /// Non-blank lines before and after.
    pub lines: (usize, usize),
    /// Candidates judged (JavaScript; C-Vise does not say).
    pub tests: Option<usize>,
    pub elapsed: Duration,
    pub complete: bool,
    /// Every C-Vise candidate passed the undefined-behaviour guard.
    pub guarded: bool,
    pub source: &'a str,
}

/// Writes `program.c` or `program.js`, the original, `finding.json`, `reproduce.sh` (C2V and
/// V8-against-truth findings, with `counted.js` and `prelude.js` for V8) and a README.md for the
/// profiler's bug tracker into `dir`.
pub fn write_bundle(dir: &Path, b: &Bundle<'_>) -> std::io::Result<()> {
    use std::fmt::Write as _;
    let (ext, fence) = match b.language {
        Language::C => ("c", "c"),
        Language::Python => ("py", "python"),
        _ => ("js", "js"),
    };
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(format!("program.{ext}")), b.text)?;
    std::fs::write(dir.join(format!("original.{ext}")), b.original)?;
    // coverage.py records whether a line ran, not how often.
    let python = b.language == Language::Python;
    let count = |c: Option<u64>| match c {
        None if python => "no information".to_string(),
        None => "no count".to_string(),
        Some(0) if python => "not run".to_string(),
        Some(n) if python => format!("ran ({n})"),
        Some(n) => n.to_string(),
    };
    let spec = serde_json::json!({
        "title": format!("{} on {}", b.class, b.engines.join(" vs ")),
        "class": b.class,
        "relation": b.found.relation,
        "kind": b.found.kind,
        "line": b.found.line + 1,
        "counts": [b.found.a, b.found.b],
        "engines": b.engines,
        "check": b.check,
    });
    std::fs::write(
        dir.join("finding.json"),
        serde_json::to_string_pretty(&spec).unwrap_or_default() + "\n",
    )?;
    // The script, and the second program it runs (counted.js for truth, variant.js for Cod).
    let (script, beside) = match b.language {
        Language::C => match c_cod_reproducer(b.found) {
            Some((script, variant)) => (Some(script), vec![("variant.c", variant)]),
            None => (reproducer(b.found), Vec::new()),
        },
        Language::Python => match py_reproducer(b.found) {
            Some((script, beside)) => (Some(script), beside),
            None => (None, Vec::new()),
        },
        _ => match v8_reproducer(b.found, b.text) {
            Some((script, counted)) => (Some(script), vec![("counted.js", counted)]),
            None => match v8_cod_reproducer(b.found, b.text) {
                Some((script, variant)) => (Some(script), vec![("variant.js", variant)]),
                None => (None, Vec::new()),
            },
        },
    };
    for (name, text) in beside {
        std::fs::write(dir.join(name), text)?;
    }
    if b.prelude && b.language == Language::JavaScript {
        std::fs::write(
            dir.join("prelude.js"),
            crate::debugger::determinism::script(),
        )?;
    }
    if let Some(s) = &script {
        let path = dir.join("reproduce.sh");
        std::fs::write(&path, s)?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
    }
    let line = b.found.line + 1;
    let mut md = String::new();
    let _ = writeln!(md, "# {} on {}\n", b.class, b.engines.join(" vs "));
    let _ = writeln!(
        md,
        "Reduced by morphtrace with {} from {}: {} → {} lines ({}{:.1} s{}).\n",
        match b.language {
            Language::C => "C-Vise",
            Language::Python => {
                "whole statements replaced by `pass` (tree-sitter-python), then C-Vise's generic \
                 passes (`--not-c`)"
            }
            _ => "statement blanking over the syntax tree",
        },
        b.source,
        b.lines.0,
        b.lines.1,
        b.tests
            .map(|t| match b.language {
                Language::Python => format!("{t} runs of the statement pass, "),
                _ => format!("{t} runs, "),
            })
            .unwrap_or_default(),
        b.elapsed.as_secs_f64(),
        if b.complete { "" } else { ", budget reached" }
    );
    if b.language == Language::C {
        if b.guarded {
            std::fs::write(dir.join("well-defined.sh"), WELL_DEFINED)?;
            let _ = writeln!(
                md,
                "Every candidate passed `well-defined.sh`: no gcc warning that means undefined \
                 behaviour (uninitialized reads, implicit declarations, falling off a non-void \
                 function, ...) and a clean run under AddressSanitizer and \
                 UndefinedBehaviorSanitizer (`sh well-defined.sh program.c` exits 0).\n"
            );
        } else {
            let _ = writeln!(
                md,
                "The original program already showed signs of undefined behaviour to \
                 morphtrace's guard, so the reduction ran without it: check `program.c` before \
                 reporting.\n"
            );
        }
    }
    let _ = writeln!(md, "## Versions\n");
    for e in b.engines {
        let _ = writeln!(md, "- {e}");
    }
    let _ = writeln!(
        md,
        "\n## Program (`program.{ext}`)\n\n```{fence}\n{}```\n",
        b.text
    );
    let (what, expected) = match b.found.relation.as_str() {
        _ if b.language == Language::Python => python_steps(b.found),
        "c2v" => (
            "Compile `program.c` with `gcc -O0 --coverage` and with `clang -O0 \
             -fprofile-instr-generate -fcoverage-mapping`, run both, and read the execution \
             count of each line from `gcov` and from `llvm-cov` (LCOV export)."
                .to_string(),
            "Both profilers give the line the same execution count (C2V's relation: one \
             program, one execution)."
                .to_string(),
        ),
        "truth" => (
            "Run `program.js` as a classic script under V8's precise coverage (call counts, \
             block granularity) and read the count of the innermost range that holds the \
             statement's first character; run `counted.js` (the same program with a counter \
             before every statement) for how often the statement ran."
                .to_string(),
            "V8 counts the statement as often as it runs.".to_string(),
        ),
        "cod" if b.language == Language::C && b.found.text_b.is_some() => (
            format!(
                "Compile `program.c` (P) and `variant.c` (P': P without the code {} reported \
                 unexecuted) {}, run both and read each line's execution count from {}. Line {} \
                 of P is line {} of P'.",
                b.found.profilers,
                if b.found.profilers == "gcov" {
                    "with `gcc -O0 --coverage`"
                } else {
                    "with `clang -O0 -fprofile-instr-generate -fcoverage-mapping`"
                },
                if b.found.profilers == "gcov" {
                    "`gcov`"
                } else {
                    "`llvm-cov` (LCOV export)"
                },
                b.found.line + 1,
                b.found.line_b + 1
            ),
            format!(
                "Both programs print the same, so every line they share runs as often in both: \
                 {} gives it the same count (Cod's relation).",
                b.found.profilers
            ),
        ),
        "cod" if b.found.profilers == "v8" && b.found.text_b.is_some() => (
            format!(
                "Run `program.js` (P) and `variant.js` (P': P without the code V8 reported \
                 unexecuted) as classic scripts under V8's precise coverage (call counts, block \
                 granularity) and read each line's count at its first token. Line {} of P is \
                 line {} of P'.",
                b.found.line + 1,
                b.found.line_b + 1
            ),
            "Both programs print the same, so every line they share runs as often in both: \
             V8 gives it the same count (Cod's relation)."
                .to_string(),
        ),
        _ => (
            format!(
                "Profile `program.{ext}` with {} as morphtrace does (`morphtrace-record \
                 coverage-check program.{ext} {}`).",
                b.found.profilers,
                b.check[1..].join(" ")
            ),
            "The profiler's counts agree with the relation (Cod: a program and its variant \
             pruned of unexecuted code give the same counts on their common lines)."
                .to_string(),
        ),
    };
    let _ = writeln!(md, "## Steps\n\n{what}\n\n## Expected\n\n{expected}\n");
    if let Some((ra, rb)) = &b.found.runs {
        let mut sides = b.found.profilers.split('/');
        let a = sides.next().unwrap_or("");
        let (na, nb) = match (b.found.relation.as_str(), sides.next()) {
            ("c2v", Some(other)) => (a.to_string(), other.to_string()),
            _ => (format!("{a} on P"), format!("{a} on the other program")),
        };
        let _ = writeln!(md, "## Actual\n");
        for (name, r) in [(na, ra), (nb, rb)] {
            let _ = writeln!(
                md,
                "Under {name}: {}, and {} bytes on stdout{}\n",
                match r.exit_code {
                    Some(c) => format!("exit status {c}"),
                    None => "killed (a signal or the time limit)".into(),
                },
                r.stdout.len(),
                match r.stdout.lines().last() {
                    Some(l) => format!(", the last line `{}`", l.trim()),
                    None => String::new(),
                }
            );
        }
    } else {
        let _ = writeln!(
            md,
            "## Actual\n\nLine {line} (`{}`, {}): {} says {}, {} says {}.\n",
            b.text
                .lines()
                .nth(b.found.line as usize)
                .unwrap_or("")
                .trim(),
            b.found.syntax,
            b.found.profilers.split('/').next().unwrap_or(""),
            count(b.found.a),
            match (
                b.found.relation.as_str(),
                b.found.profilers.split('/').nth(1)
            ) {
                ("truth", _) => "its counter (how often it ran)",
                (_, Some(other)) => other,
                _ => "the other side",
            },
            count(b.found.b)
        );
    }
    if script.is_some() {
        let _ = writeln!(
            md,
            "## Reproduce\n\n`sh reproduce.sh` {} and exits 1 while {} still differs, 0 \
             once they agree.",
            match (b.language, b.found.relation.as_str()) {
                (Language::C, "cod") => "compiles, runs and reports both programs",
                (Language::C, _) => "compiles, runs and reports with both profilers",
                (Language::Python, _) =>
                    "runs `coverage run --branch` and `coverage json` as the relation needs",
                _ => "runs both programs under Node's V8 and compares",
            },
            if b.found.runs.is_some() {
                "what the program prints or how it exits".to_string()
            } else {
                format!("line {line}")
            }
        );
    }
    std::fs::write(dir.join("README.md"), md)
}

/// What a coverage.py finding's README asks and expects, by relation.
fn python_steps(f: &Found) -> (String, String) {
    let unit = match &f.arc {
        Some(arc) => format!("the arc {arc}"),
        None => format!("line {}", f.line + 1),
    };
    let core = |p: &str| {
        format!(
            "`COVERAGE_CORE={}`",
            p.strip_prefix("coverage.py+").unwrap_or(p)
        )
    };
    match f.relation.as_str() {
        "c2v" if f.kind == "output" => {
            let mut p = f.profilers.split('/');
            let (a, b) = (p.next().unwrap_or(""), p.next().unwrap_or(""));
            (
                format!(
                    "Run `python program.py`, then `coverage run --branch program.py` with {} \
                     and with {}; compare what each printed and its exit status.",
                    core(a),
                    core(b)
                ),
                "The program prints and exits alike under both cores, as it does without \
                 coverage.py: measuring a program does not change what it does."
                    .into(),
            )
        }
        "c2v" => {
            let mut p = f.profilers.split('/');
            let (a, b) = (p.next().unwrap_or(""), p.next().unwrap_or(""));
            (
                format!(
                    "Run `coverage run --branch program.py` with {} and with {}, then \
                     `coverage json`, and read {unit} from each report.",
                    core(a),
                    core(b)
                ),
                "Both cores measure the same execution: they agree on whether it ran.".into(),
            )
        }
        "cod" => (
            format!(
                "Run `coverage run --branch` with {} on `program.py` (P) and on `variant.py` (P': \
                 P with code the core reported unexecuted replaced by `pass`), then `coverage \
                 json`. Line {} of P is line {} of P'.",
                core(&f.profilers),
                f.line + 1,
                f.line_b + 1
            ),
            "Deleting code that never ran changes nothing: both programs print the same and \
             the core reports the same for every line and arc they share (Cod's relation)."
                .into(),
        ),
        _ => (
            format!(
                "Run `coverage run --branch program.py` with {}, then `coverage json`, and read \
                 {unit}; run `MORPHTRACE_COUNTS=counts.json python count.py program.py` (the \
                 program with a counter before every statement, in its syntax tree) for how \
                 often it ran.",
                core(&f.profilers)
            ),
            "coverage.py says a line ran exactly when its statements ran.".into(),
        ),
    }
}
