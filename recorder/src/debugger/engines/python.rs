//! What Python's debuggers (debugpy, pdb) share: the interpreter they run on, read from itself,
//! and the directory with the engines' sitecustomize (`python-site.py`).

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
