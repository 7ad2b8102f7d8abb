//! Programs-to-debug from files, directories and globs, written where the engines can load them.

use crate::debugger::ProgramFile;
use morphtrace_schema::{Language, Program, ProgramOrigin};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    #[error("{0}: no such file or directory, and no file matches it as a glob")]
    NotFound(String),
    #[error("{path}: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("bad glob {0}: {1}")]
    Glob(String, String),
}

/// A program with the file the engines load it from.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub program: Program,
    pub file: ProgramFile,
}

fn js_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            js_files(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "js") {
            out.push(p);
        }
    }
    Ok(())
}

/// Resolves corpus specifications (files, directories searched for `*.js`, globs) to paths,
/// sorted and without duplicates.
pub fn resolve(specs: &[String]) -> Result<Vec<PathBuf>, CorpusError> {
    let mut out = Vec::new();
    for spec in specs {
        let p = Path::new(spec);
        if p.is_dir() {
            js_files(p, &mut out).map_err(|e| CorpusError::Unreadable {
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
            out.extend(matches);
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Reads the programs and writes each into `dir` under its hash, so that every engine sees the
/// same bytes under a stable `file://` URL.
pub fn load(paths: &[PathBuf], dir: &Path) -> Result<Vec<Loaded>, CorpusError> {
    let mut out = Vec::with_capacity(paths.len());
    for p in paths {
        let text = std::fs::read_to_string(p).map_err(|e| CorpusError::Unreadable {
            path: p.display().to_string(),
            reason: e.to_string(),
        })?;
        let program = Program::new(
            Language::JavaScript,
            text,
            ProgramOrigin::File {
                path: p.display().to_string(),
            },
        );
        out.push(materialize(program, dir)?);
    }
    Ok(out)
}

/// Writes a program (e.g. one read back from an archive) where the engines can load it.
pub fn materialize(program: Program, dir: &Path) -> Result<Loaded, CorpusError> {
    let name = match &program.origin {
        ProgramOrigin::File { path } => Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "program.js".into()),
        _ => "program.js".into(),
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
        url: file_url(&path),
        path,
        text: program.text.clone(),
        // The line after a final newline is a real position (the script end).
        lines: program.text.split('\n').count() as u32,
    };
    Ok(Loaded { program, file })
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
