//! What Python's engines (debugpy, pdb, coverage.py) share: the interpreter they run on, read
//! from itself, the newer interpreters of the machine, and the directory with the engines'
//! sitecustomize (`python-site.py`).

use std::path::{Path, PathBuf};
use tokio::process::Command;

const SITE: &str = include_str!("python-site.py");

/// An interpreter as it says it is.
#[derive(Debug, Clone)]
pub struct Interpreter {
    /// The interpreter itself, not a launcher script in front of it (pyenv's shims run a shell
    /// first, every time).
    pub executable: PathBuf,
    /// `CPython 3.11.7`.
    pub name: String,
    /// `3.11.7`.
    pub version: String,
    /// What each of the asked expressions printed.
    pub answers: Vec<String>,
}

/// Asks `python` (isolated: `-I`, so that no PYTHONPATH of the caller's counts) what it is,
/// and the value of each expression of `ask` with `path` first on `sys.path`. `Err`: what it
/// wrote to stderr.
pub async fn interpreter(
    python: &Path,
    path: Option<&Path>,
    ask: &[&str],
) -> Result<Interpreter, String> {
    let mut code = String::from("import sys, platform\n");
    if let Some(p) = path {
        code.push_str(&format!(
            "sys.path.insert(0, {:?})\n",
            p.display().to_string()
        ));
    }
    code.push_str(
        "print(platform.python_implementation())\nprint(platform.python_version())\nprint(sys.executable)\n",
    );
    for a in ask {
        code.push_str(&format!("print({a})\n"));
    }
    let out = Command::new(python)
        .args(["-I", "-c", &code])
        .output()
        .await
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err.lines().last().unwrap_or("failed").trim().to_string());
    }
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    let mut lines = said.lines().map(str::to_string);
    let implementation = lines.next().unwrap_or_default();
    let version = lines.next().unwrap_or_default();
    let executable = lines
        .next()
        .map(PathBuf::from)
        .filter(|p| p.is_file())
        .unwrap_or_else(|| python.to_path_buf());
    Ok(Interpreter {
        executable,
        name: format!("{implementation} {version}"),
        version,
        answers: lines.collect(),
    })
}

/// The major and minor version of an interpreter as `interpreter` names it (`CPython 3.12.1` →
/// `(3, 12)`; `3.14.0a6` → `(3, 14)`); `(0, 0)` where it says none.
pub fn minor_version(interpreter: &str) -> (u32, u32) {
    let version = interpreter.rsplit(' ').next().unwrap_or("");
    let mut parts = version.split('.').map(|p| {
        p.chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse::<u32>()
            .unwrap_or(0)
    });
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

/// Interpreters of Python 3.12 or later on this machine (pyenv's versions, then `python3.12`..
/// on PATH), for the engines that need `sys.monitoring` (`coverage.py+sysmon=PATH`,
/// `debugpy+sysmon=PATH`).
pub fn newer_pythons() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let pyenv = std::env::var_os("PYENV_ROOT")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".pyenv")));
    if let Some(Ok(dir)) = pyenv.map(|p| std::fs::read_dir(p.join("versions"))) {
        let mut found: Vec<(Vec<u32>, PathBuf)> = dir
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let v: Vec<u32> = name
                    .split('.')
                    .map(|p| p.parse().ok())
                    .collect::<Option<_>>()?;
                let exe = e.path().join("bin/python3");
                (v.len() == 3 && v[..2] >= [3, 12][..] && exe.is_file()).then_some((v, exe))
            })
            .collect();
        found.sort();
        out.extend(found.into_iter().map(|(_, p)| p));
    }
    for minor in 12..=20 {
        let name = format!("python3.{minor}");
        if let Some(p) = std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|d| d.join(&name))
                .find(|p| p.is_file())
        }) {
            // pyenv's shims are scripts in front of some interpreter: name the interpreter.
            let script = std::fs::read(&p).is_ok_and(|b| b.starts_with(b"#!"));
            if !script && !out.iter().any(|o| same_file(o, &p)) {
                out.push(p);
            }
        }
    }
    out
}

fn same_file(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// A fresh directory holding the engines' sitecustomize and `files` (name, text): put on the
/// processes' `PYTHONPATH`, removed with the engine.
pub fn site(prefix: &str, files: &[(&str, &str)]) -> std::io::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new().prefix(prefix).tempdir()?;
    std::fs::write(dir.path().join("sitecustomize.py"), SITE)?;
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text)?;
    }
    Ok(dir)
}
