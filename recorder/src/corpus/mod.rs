//! Programs-to-debug from files, directories and globs, written where the engines can load them.

use crate::debugger::ProgramFile;
use morphtrace_schema::{Language, Program, ProgramOrigin};
use std::path::{Path, PathBuf};

pub mod csmith;
pub mod generated;
pub mod truth;

#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    #[error("{0}: no such file or directory, and no file matches it as a glob")]
    NotFound(String),
    #[error("{path}: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("bad glob {0}: {1}")]
    Glob(String, String),
    #[error("{0}")]
    Generator(String),
}

/// A program with the file the engines load it from.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub program: Program,
    pub file: ProgramFile,
    /// Why no engine may run it (its bytes are not text an engine decodes): every session of
    /// it is recorded as rejected with this reason, and the campaign goes on.
    pub rejected: Option<String>,
}

/// Decodes a program file as the engines do: UTF-8 with or without a byte order mark, UTF-16
/// (LE or BE) with one. The mark is not part of the text (engines drop it before positions are
/// counted). `Err` says why the bytes are none of these.
pub fn decode(bytes: &[u8]) -> Result<String, String> {
    let utf16 = |be: bool| -> Result<String, String> {
        let body = &bytes[2..];
        if !body.len().is_multiple_of(2) {
            return Err("UTF-16 (by its byte order mark) with an odd number of bytes".into());
        }
        let units = body.chunks_exact(2).map(|c| {
            if be {
                u16::from_be_bytes([c[0], c[1]])
            } else {
                u16::from_le_bytes([c[0], c[1]])
            }
        });
        char::decode_utf16(units)
            .enumerate()
            .map(|(i, c)| {
                c.map_err(|e| {
                    format!(
                        "UTF-16 (by its byte order mark) with an unpaired surrogate {:04X} at byte {}",
                        e.unpaired_surrogate(),
                        2 + 2 * i
                    )
                })
            })
            .collect()
    };
    match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => std::str::from_utf8(rest)
            .map(str::to_string)
            .map_err(|e| format!("UTF-8 byte order mark, then {}", not_utf8(e, 3))),
        [0xFF, 0xFE, ..] => utf16(false),
        [0xFE, 0xFF, ..] => utf16(true),
        _ => std::str::from_utf8(bytes)
            .map(str::to_string)
            .map_err(|e| not_utf8(e, 0)),
    }
}

fn not_utf8(e: std::str::Utf8Error, skipped: usize) -> String {
    format!(
        "not UTF-8 (an invalid byte at offset {}) nor UTF-16 with a byte order mark",
        e.valid_up_to() + skipped
    )
}

/// Reads and decodes a program file; undecodable bytes become a rejected program (its text the
/// lossy decoding, for the archive's reader), never an error of the campaign.
pub fn read_program(
    path: &Path,
    language: Language,
) -> Result<(Program, Option<String>), CorpusError> {
    let bytes = std::fs::read(path).map_err(|e| CorpusError::Unreadable {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    let (text, rejected) = match decode(&bytes) {
        Ok(t) => (t, None),
        Err(reason) => (String::from_utf8_lossy(&bytes).into_owned(), Some(reason)),
    };
    // A Go file that is no command (a library package, no `func main`) builds no program.
    let rejected = rejected.or_else(|| match language {
        Language::Go => morphtrace_syntax::go::GoSyntax::parse(&text).and_then(|s| s.rejection()),
        _ => None,
    });
    let origin = ProgramOrigin::File {
        path: path.display().to_string(),
    };
    Ok((classified(Program::new(language, text, origin)), rejected))
}

/// `p` with its lines' kinds of statement where the analyzer cannot parse its language (C, Go):
/// the archive then carries what the analyzer classifies its divergences by.
pub(crate) fn classified(mut p: Program) -> Program {
    match p.language {
        Language::C => {
            p.line_kinds = morphtrace_syntax::c::CSyntax::parse(&p.text)
                .map(|s| morphtrace_syntax::Statements::line_kinds(&s));
        }
        Language::Go => {
            p.line_kinds = morphtrace_syntax::go::GoSyntax::parse(&p.text).map(|s| s.line_kinds());
        }
        _ => {}
    }
    p
}

/// The language a program file is in, by its extension (`.js`, `.py`, `.c`, `.go`); `None` for any
/// other.
pub fn language_of(path: &Path) -> Option<Language> {
    match path.extension()?.to_str()? {
        "js" => Some(Language::JavaScript),
        "py" => Some(Language::Python),
        "c" => Some(Language::C),
        "go" => Some(Language::Go),
        _ => None,
    }
}

fn program_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            program_files(&p, out)?;
        } else if language_of(&p).is_some() {
            out.push(p);
        }
    }
    Ok(())
}

/// Resolves corpus specifications (files, directories searched for `*.js`, `*.py` and `*.c`, globs) to paths,
/// sorted and without duplicates.
pub fn resolve(specs: &[String]) -> Result<Vec<PathBuf>, CorpusError> {
    let mut out = Vec::new();
    for spec in specs {
        let p = Path::new(spec);
        if p.is_dir() {
            program_files(p, &mut out).map_err(|e| CorpusError::Unreadable {
                path: spec.clone(),
                reason: e.to_string(),
            })?;
        } else if p.is_file() {
            out.push(p.to_path_buf());
        } else {
            let matches: Vec<PathBuf> = glob::glob(spec)
                .map_err(|e| CorpusError::Glob(spec.clone(), e.to_string()))?
                .filter_map(Result::ok)
                .filter(|p| p.is_file())
                .collect();
            if matches.is_empty() {
                return Err(CorpusError::NotFound(spec.clone()));
            }
            let (programs, other): (Vec<PathBuf>, Vec<PathBuf>) =
                matches.into_iter().partition(|p| language_of(p).is_some());
            if !other.is_empty() {
                tracing::warn!(
                    "{spec}: skipped {} file(s) that are not .js, .py or .c (e.g. {})",
                    other.len(),
                    other[0].display()
                );
            }
            if programs.is_empty() {
                return Err(CorpusError::NotFound(format!(
                    "{spec} (no .js, .py or .c file)"
                )));
            }
            out.extend(programs);
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Reads the programs and writes each into `dir` under its hash, so that every engine sees the
/// same bytes (UTF-8, whatever the file's encoding) under a stable `file://` URL.
pub fn load(paths: &[PathBuf], dir: &Path) -> Result<Vec<Loaded>, CorpusError> {
    let mut out = Vec::with_capacity(paths.len());
    for p in paths {
        // A file named on the command line is JavaScript unless it says otherwise.
        let language = language_of(p).unwrap_or(Language::JavaScript);
        let (program, rejected) = read_program(p, language)?;
        if let Some(r) = &rejected {
            tracing::warn!(
                "{}: {r}; its sessions are recorded as rejected",
                p.display()
            );
        }
        out.push(Loaded {
            rejected,
            ..materialize(program, dir)?
        });
    }
    Ok(out)
}

/// Writes a program (e.g. one read back from an archive) where the engines can load it.
pub fn materialize(program: Program, dir: &Path) -> Result<Loaded, CorpusError> {
    let name = match &program.origin {
        ProgramOrigin::File { path } => Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("program.{}", extension(program.language))),
        ProgramOrigin::Generated { generator, seed } => {
            format!("{generator}-{seed}.{}", extension(program.language))
        }
        _ => format!("program.{}", extension(program.language)),
    };
    let sub = dir.join(program.hash.short());
    let path = sub.join(&name);
    let fail = |e: std::io::Error| CorpusError::Unreadable {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    std::fs::create_dir_all(&sub).map_err(fail)?;
    std::fs::write(&path, &program.text).map_err(fail)?;
    let path = path.canonicalize().map_err(fail)?;
    let file = ProgramFile {
        language: program.language,
        url: file_url(&path),
        path,
        text: program.text.clone(),
        // The line after a final line break is a real position (the script end).
        lines: program.line_count() as u32,
    };
    Ok(Loaded {
        program,
        file,
        rejected: None,
    })
}

/// The file extension of a language's programs.
pub fn extension(language: Language) -> &'static str {
    match language {
        Language::JavaScript => "js",
        Language::C => "c",
        Language::Python => "py",
        Language::Go => "go",
    }
}

/// `file://` URL of an absolute path, percent-encoding what Node's pathToFileURL encodes.
pub fn file_url(path: &Path) -> String {
    let mut s = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                s.push(b as char)
            }
            _ => s.push_str(&format!("%{b:02X}")),
        }
    }
    s
}

/// Loads every corpus specification: plain files, directories and globs, and
/// `test262:PATH` (a test262 test, directory of tests or glob inside a test262 checkout).
pub fn load_specs(specs: &[String], dir: &Path) -> Result<Vec<Loaded>, CorpusError> {
    let (generated, specs): (Vec<&String>, Vec<&String>) = specs
        .iter()
        .partition(|s| s.starts_with("gen:") || s.starts_with("truth:"));
    let (csmith, specs): (Vec<&String>, Vec<&String>) =
        specs.into_iter().partition(|s| s.starts_with("csmith:"));
    let (t262, plain): (Vec<&String>, Vec<&String>) =
        specs.into_iter().partition(|s| s.starts_with("test262:"));
    let plain: Vec<String> = plain.into_iter().cloned().collect();
    let mut out = if plain.is_empty() {
        Vec::new()
    } else {
        load(&resolve(&plain)?, dir)?
    };
    for spec in t262 {
        let rest = spec.trim_start_matches("test262:").to_string();
        let paths: Vec<PathBuf> = resolve(std::slice::from_ref(&rest))?
            .into_iter()
            .filter(|p| !p.to_string_lossy().ends_with("_FIXTURE.js"))
            .collect();
        for p in paths {
            let (programs, rejected) = test262::assemble(&p)?;
            if let Some(r) = &rejected {
                tracing::warn!(
                    "{}: {r}; its sessions are recorded as rejected",
                    p.display()
                );
            }
            for program in programs {
                out.push(Loaded {
                    rejected: rejected.clone(),
                    ..materialize(program, dir)?
                });
            }
        }
    }
    for spec in generated {
        out.extend(match spec.strip_prefix("truth:") {
            Some(seeds) => load_generated(seeds, true, dir)?,
            None => load_generated(spec.trim_start_matches("gen:"), false, dir)?,
        });
    }
    for spec in csmith {
        out.extend(load_csmith(spec.trim_start_matches("csmith:"), dir)?);
    }
    out.sort_by_key(|l| l.program.origin.name());
    // The same text under two paths (overlapping corpora, copies) is one program: a session is
    // identified by its program's hash, and must be recorded once.
    let mut seen = std::collections::HashSet::new();
    out.retain(|l| {
        let first = seen.insert(l.program.hash);
        if !first {
            tracing::warn!(
                "{}: same text as an earlier program, recorded once",
                l.program.origin.name()
            );
        }
        first
    });
    Ok(out)
}

/// The generated programs of `gen:SEEDS` (with `truth`, of `truth:SEEDS`: the same programs
/// recording their own state), each parsed and run once (`generated::check`, on every core);
/// one that fails is kept as a rejected program with the reason.
fn load_generated(seeds: &str, truth: bool, dir: &Path) -> Result<Vec<Loaded>, CorpusError> {
    use std::io::IsTerminal;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let generator = if truth {
        generated::TRUTH_GENERATOR
    } else {
        generated::GENERATOR
    };
    let seeds = crate::parse_seeds(seeds)
        .map_err(|e| CorpusError::Generator(format!("{generator}:{seeds}: {e}")))?;
    let node = generated::checking_node();
    let texts: Vec<String> = seeds
        .iter()
        .map(|&s| {
            if truth {
                generated::with_truth(s)
            } else {
                generated::program(s)
            }
        })
        .collect();
    let progress = crate::progress_bar(seeds.len(), std::io::stderr().is_terminal());
    progress.set_message("generated programs run once");
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut rejected: Vec<Option<String>> = vec![None; texts.len()];
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    let scratch = tempfile::tempdir();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(text) = texts.get(i) else { break };
                        let why = match (&node, &scratch) {
                            (Some(node), Ok(dir)) => generated::check(text, node, dir.path()).err(),
                            (None, _) => Some(
                                "no node to run it once before use (scripts/setup.sh installs one)"
                                    .to_string(),
                            ),
                            (_, Err(e)) => {
                                Some(format!("no temporary directory to run it in: {e}"))
                            }
                        };
                        out.push((i, why));
                        progress.inc(1);
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            for (i, why) in h.join().unwrap_or_default() {
                rejected[i] = why;
            }
        }
    });
    progress.finish_and_clear();
    let mut out = Vec::with_capacity(seeds.len());
    for ((seed, text), rejected) in seeds.into_iter().zip(texts).zip(rejected) {
        if let Some(r) = &rejected {
            tracing::warn!("{generator}:{seed}: {r}; its sessions are recorded as rejected");
        }
        let program = Program::new(
            Language::JavaScript,
            text,
            ProgramOrigin::Generated {
                generator: generator.into(),
                seed,
            },
        );
        out.push(Loaded {
            rejected,
            ..materialize(program, dir)?
        });
    }
    Ok(out)
}

/// The C programs of `csmith:SEEDS`: `csmith --seed N` for each seed, the same programs the
/// coverage campaigns take (and the same cache), generated on every core.
fn load_csmith(seeds: &str, dir: &Path) -> Result<Vec<Loaded>, CorpusError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let seeds = crate::parse_seeds(seeds)
        .map_err(|e| CorpusError::Generator(format!("csmith:{seeds}: {e}")))?;
    let version = csmith::version().map_err(|e| {
        CorpusError::Generator(format!("csmith: {e} (scripts/setup.sh installs it)"))
    })?;
    let cache = csmith::cache_dir();
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut texts: Vec<Option<Result<String, String>>> = vec![None; seeds.len()];
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&seed) = seeds.get(i) else { break };
                        let text = csmith::generate(seed, &version, Some(&cache))
                            .map_err(|e| e.to_string());
                        out.push((i, text));
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            for (i, text) in h.join().unwrap_or_default() {
                texts[i] = Some(text);
            }
        }
    });
    let mut out = Vec::with_capacity(seeds.len());
    for (seed, text) in seeds.into_iter().zip(texts) {
        let text = match text {
            Some(Ok(t)) => t,
            Some(Err(e)) => return Err(CorpusError::Generator(format!("csmith:{seed}: {e}"))),
            None => {
                return Err(CorpusError::Generator(format!(
                    "csmith:{seed}: its generator thread failed"
                )))
            }
        };
        let program = classified(Program::new(
            Language::C,
            text,
            ProgramOrigin::Generated {
                generator: "csmith".into(),
                seed,
            },
        ));
        out.push(materialize(program, dir)?);
    }
    Ok(out)
}

/// test262 tests are not self-contained: a runnable program is the harness (`assert.js`,
/// `sta.js`, the front matter's `includes:`) followed by the test, with `"use strict";` first for
/// the strict variant. The line map leads program lines back to the test file.
pub mod test262 {
    use super::CorpusError;
    use morphtrace_schema::lines::{self, Breaks};
    use morphtrace_schema::{Language, LineMap, LineSegment, Program, ProgramOrigin};
    use std::path::{Path, PathBuf};

    fn root_of(test: &Path) -> Option<PathBuf> {
        test.ancestors()
            .find(|a| a.join("harness/assert.js").is_file())
            .map(Path::to_path_buf)
    }

    /// The YAML front matter's list under `key` (inline `[a, b]` or block `- a` form).
    pub fn front_matter_list(text: &str, key: &str) -> Vec<String> {
        let Some(start) = text.find("/*---") else {
            return Vec::new();
        };
        let Some(len) = text[start..].find("---*/") else {
            return Vec::new();
        };
        let fm = &text[start + 5..start + len];
        let mut lines = fm.lines();
        while let Some(line) = lines.next() {
            let t = line.trim_start();
            let Some(rest) = t.strip_prefix(&format!("{key}:")) else {
                continue;
            };
            let rest = rest.trim();
            if let Some(inner) = rest.strip_prefix('[') {
                return inner
                    .trim_end_matches(']')
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect();
            }
            let mut out = Vec::new();
            for l in lines.by_ref() {
                match l.trim_start().strip_prefix("- ") {
                    Some(item) => out.push(item.trim().to_string()),
                    None => break,
                }
            }
            return out;
        }
        Vec::new()
    }

    /// The test's runnable programs (strict and sloppy where both apply), and why none may run
    /// if the test's bytes are not text.
    pub fn assemble(test: &Path) -> Result<(Vec<Program>, Option<String>), CorpusError> {
        let fail = |reason: String| CorpusError::Unreadable {
            path: test.display().to_string(),
            reason,
        };
        let root = root_of(test).ok_or_else(|| {
            fail("not inside a test262 checkout (no harness/assert.js above it)".into())
        })?;
        let bytes = std::fs::read(test).map_err(|e| fail(e.to_string()))?;
        let (text, rejected) = match super::decode(&bytes) {
            Ok(t) => (t, None),
            Err(r) => (String::from_utf8_lossy(&bytes).into_owned(), Some(r)),
        };
        let flags = front_matter_list(&text, "flags");
        let includes = front_matter_list(&text, "includes");
        let raw = flags.iter().any(|f| f == "raw");
        let mut harness = String::new();
        if !raw {
            for h in ["assert.js", "sta.js"]
                .into_iter()
                .map(str::to_string)
                .chain(includes.iter().cloned())
            {
                let p = root.join("harness").join(&h);
                let t =
                    std::fs::read_to_string(&p).map_err(|e| fail(format!("harness {h}: {e}")))?;
                harness.push_str(&t);
                if !t.ends_with('\n') {
                    harness.push('\n');
                }
            }
        }
        let strict_modes: Vec<bool> = if flags.iter().any(|f| f == "onlyStrict") {
            vec![true]
        } else if raw || flags.iter().any(|f| f == "noStrict") {
            vec![false]
        } else {
            vec![false, true]
        };
        let rel = test
            .strip_prefix(&root)
            .unwrap_or(test)
            .display()
            .to_string();
        let programs = strict_modes
            .into_iter()
            .map(|strict| {
                let prefix = if strict { "\"use strict\";\n" } else { "" };
                let head = format!("{prefix}{harness}");
                let offset = lines::count(&head, Breaks::EcmaScript) as u32 - 1;
                let mut p = Program::new(
                    Language::JavaScript,
                    format!("{head}{text}"),
                    ProgramOrigin::Test262 {
                        path: rel.clone(),
                        strict,
                        includes: includes.clone(),
                    },
                );
                p.origin_map = Some(LineMap {
                    segments: vec![LineSegment {
                        start: offset,
                        len: lines::count(&text, Breaks::EcmaScript) as u32,
                        origin_start: 0,
                    }],
                });
                p
            })
            .collect();
        Ok((programs, rejected))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn front_matter_lists_in_both_forms() {
            let t = "/*---\nincludes: [a.js, b.js]\nflags:\n  - onlyStrict\n  - noStrict\nx: 1\n---*/\ncode";
            assert_eq!(front_matter_list(t, "includes"), ["a.js", "b.js"]);
            assert_eq!(front_matter_list(t, "flags"), ["onlyStrict", "noStrict"]);
            assert!(front_matter_list(t, "features").is_empty());
        }

        #[test]
        fn corpus_tests_assemble_with_a_line_map_back_to_the_test() {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/test262");
            let test = root.join("test/language/expressions/async-arrow-function/prototype.js");
            let (programs, rejected) = assemble(&test).unwrap();
            assert_eq!(rejected, None);
            assert_eq!(programs.len(), 2, "strict and non-strict");
            let original = std::fs::read_to_string(&test).unwrap();
            for p in &programs {
                assert!(p.text.contains("function assert(") || p.text.contains("assert ="));
                assert!(
                    p.text.contains("getWellKnownIntrinsicObject = function")
                        || p.text.contains("function getWellKnownIntrinsicObject")
                );
                let map = p.origin_map.as_ref().unwrap();
                let lines: Vec<&str> = p.text.split('\n').collect();
                for (i, line) in original.split('\n').enumerate() {
                    let at = map.from_origin(i as u32).unwrap() as usize;
                    assert_eq!(lines[at], line);
                    assert_eq!(map.to_origin(at as u32), Some(i as u32));
                }
            }
            assert!(programs[1].text.starts_with("\"use strict\";\n"));
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_same_text_under_two_paths_is_one_program() {
        let src = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        for (name, text) in [
            ("a.js", "var x = 1;\n"),
            ("b.js", "var x = 1;\n"),
            ("c.js", "1;\n"),
        ] {
            std::fs::write(src.path().join(name), text).unwrap();
        }
        let spec = src.path().display().to_string();
        let loaded = super::load_specs(&[spec.clone(), spec], out.path()).unwrap();
        assert_eq!(loaded.len(), 2);
    }

    /// `csmith:SEEDS` gives the C programs Csmith generates for those seeds (scripts/setup.sh
    /// installs it), each materialized as a file the native debuggers compile.
    #[test]
    fn csmith_seeds_are_c_programs_from_csmith() {
        use morphtrace_schema::{Language, ProgramOrigin};
        let out = tempfile::tempdir().unwrap();
        let loaded = super::load_specs(&["csmith:3,5".to_string()], out.path()).unwrap();
        let seeds: Vec<u64> = loaded
            .iter()
            .map(|l| match &l.program.origin {
                ProgramOrigin::Generated { generator, seed } if generator == "csmith" => *seed,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(seeds, [3, 5]);
        let version = super::csmith::version().unwrap();
        for l in &loaded {
            assert_eq!(l.program.language, Language::C);
            assert_eq!(l.rejected, None);
            assert_eq!(
                std::fs::read_to_string(&l.file.path).unwrap(),
                l.program.text
            );
            assert!(
                l.file.path.extension().is_some_and(|e| e == "c"),
                "{:?}",
                l.file.path
            );
        }
        assert_eq!(
            loaded[0].program.text,
            super::csmith::generate(3, &version, None).unwrap(),
            "the text csmith --seed 3 gives"
        );
        assert!(super::load_specs(&["csmith:x".to_string()], out.path()).is_err());
    }

    #[test]
    fn files_are_decoded_as_engines_decode_them() {
        use super::decode;
        assert_eq!(decode(b"var x;").as_deref(), Ok("var x;"));
        assert_eq!(
            decode(b"\xEF\xBB\xBFvar x;").as_deref(),
            Ok("var x;"),
            "BOM dropped"
        );
        let le: Vec<u8> = [0xFF, 0xFE, b'x', 0, 0x3D, 0xD8, 0x00, 0xDE].to_vec();
        assert_eq!(decode(&le).as_deref(), Ok("x\u{1F600}"));
        let be: Vec<u8> = [0xFE, 0xFF, 0, b'x', 0, b';'].to_vec();
        assert_eq!(decode(&be).as_deref(), Ok("x;"));
        let e = decode(b"var \xC3(;").unwrap_err();
        assert!(e.contains("not UTF-8") && e.contains("offset 4"), "{e}");
        assert!(decode(&[0xFF, 0xFE, b'x'])
            .unwrap_err()
            .contains("odd number"));
        let lone = decode(&[0xFF, 0xFE, 0x00, 0xD8, b'x', 0]).unwrap_err();
        assert!(lone.contains("unpaired surrogate D800"), "{lone}");
    }

    #[test]
    fn undecodable_files_are_rejected_programs_not_errors() {
        let src = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        std::fs::write(src.path().join("bad.js"), b"\xFF\x00\xC3(").unwrap();
        std::fs::write(src.path().join("good.js"), "1;\n").unwrap();
        std::fs::write(src.path().join("notes.txt"), "not a program").unwrap();
        let glob = format!("{}/*", src.path().display());
        let loaded = super::load_specs(&[glob], out.path()).unwrap();
        assert_eq!(loaded.len(), 2, "the .txt file is skipped");
        let bad = loaded.iter().find(|l| l.rejected.is_some()).unwrap();
        assert!(bad.program.origin.name().ends_with("bad.js"));
        assert!(loaded.iter().any(|l| l.rejected.is_none()));
    }
}
