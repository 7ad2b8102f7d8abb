//! What the native debuggers (LLDB, gdb) share: the C program compiled for each session by the
//! build the engine's variant names (`gcc-O0`, the default; `clang-O2`, …), with debug
//! information, in the engine's own temporary directory; a compile error is the program's
//! syntax error at its place.

use crate::debugger::{DebuggerError, ProgramFile, SyntaxError};
use morphtrace_schema::Location;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The detail of the descriptor that names the build (`gcc-O0 (gcc -O0 -g; gcc 12.2.0)`).
pub const BUILD: &str = "build";

/// How long a program may take to compile.
const COMPILE_TIMEOUT: Duration = Duration::from_secs(60);

/// The program's `argv[0]` under every native debugger: the same string whatever the binary's
/// path (each engine builds in a directory of its own, each session a binary of its own), so
/// that a program that reads it shows the same values under both debuggers and in every run.
pub const ARGV0: &str = "prog";

/// The native debuggers' launcher (launch.c): runs the program as `ARGV0`, killed with its
/// parent.
const LAUNCH_C: &str = include_str!("launch.c");

/// How the program is built: a compiler and an optimization level, always with debug
/// information (`-g`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Build {
    pub compiler: &'static str,
    pub level: &'static str,
}

impl Default for Build {
    fn default() -> Build {
        Build {
            compiler: "gcc",
            level: "O0",
        }
    }
}

const COMPILERS: [&str; 2] = ["gcc", "clang"];
const LEVELS: [&str; 6] = ["O0", "O1", "O2", "O3", "Os", "Og"];

impl Build {
    /// `gcc-O0`, `clang-O2`, …: the engine variant after `lldb+` or `gdb+`.
    pub fn parse(s: &str) -> Option<Build> {
        let (c, l) = s.split_once('-')?;
        Some(Build {
            compiler: COMPILERS.into_iter().find(|x| *x == c)?,
            level: LEVELS.into_iter().find(|x| *x == l)?,
        })
    }

    pub fn name(&self) -> String {
        format!("{}-{}", self.compiler, self.level)
    }

    pub const HELP: &'static str =
        "the builds are COMPILER-LEVEL: gcc or clang, O0, O1, O2, O3, Os or Og (e.g. lldb+clang-O2, gdb+gcc-O2)";
}

/// Compiles each session's program with one build.
pub struct Builder {
    pub build: Build,
    compiler: PathBuf,
    /// Where each session's binary is built, removed with the engine.
    dir: tempfile::TempDir,
    sessions: u64,
    launcher: Option<PathBuf>,
}

impl Builder {
    /// `engine`: the debugger's name, for errors.
    pub fn new(engine: &str, build: Build) -> Result<Builder, DebuggerError> {
        let fail = |reason: String| DebuggerError::Launch {
            engine: engine.to_string(),
            reason,
        };
        let compiler = crate::debugger::engines::which(build.compiler).ok_or_else(|| {
            fail(format!(
                "{} is not installed (run scripts/setup.sh)",
                build.compiler
            ))
        })?;
        let dir = tempfile::Builder::new()
            .prefix(&format!("morphtrace-{engine}-"))
            .tempdir()
            .map_err(|e| fail(e.to_string()))?;
        Ok(Builder {
            build,
            compiler,
            dir,
            sessions: 0,
            launcher: None,
        })
    }

    /// The descriptor's build detail; the variant first, as a replay reads it back
    /// (`EngineSpec::of`).
    pub fn detail(&self) -> (String, String) {
        let cc_version =
            crate::process::version_line(&self.compiler.display().to_string()).unwrap_or_default();
        (
            BUILD.into(),
            format!(
                "{} ({} -{} -g; {cc_version})",
                self.build.name(),
                self.build.compiler,
                self.build.level
            ),
        )
    }

    /// The launcher that runs the program as [`ARGV0`] and kills it with its parent (launch.c):
    /// gdb's exec wrapper, the program LLDB starts (and follows through its exec). Built at
    /// the first call with this build's compiler.
    pub async fn launcher(&mut self) -> Result<PathBuf, DebuggerError> {
        if let Some(l) = &self.launcher {
            return Ok(l.clone());
        }
        let fail = |reason: String| DebuggerError::Launch {
            engine: format!("{} (building the exec wrapper)", self.build.compiler),
            reason,
        };
        let source = self.dir.path().join("launch.c");
        std::fs::write(&source, LAUNCH_C).map_err(|e| fail(e.to_string()))?;
        let out = self.dir.path().join("launch");
        let mut cmd = std::process::Command::new(&self.compiler);
        // Stripped: a debugger that follows it into the program finds no `main` but the
        // program's.
        cmd.args(["-O1", "-s", "-o"]).arg(&out).arg(&source);
        let f = tokio::task::spawn_blocking(move || {
            crate::process::run(&mut cmd, COMPILE_TIMEOUT, None)
        })
        .await
        .map_err(|e| fail(e.to_string()))?
        .map_err(|e| fail(e.to_string()))?;
        if !f.ok() {
            return Err(fail(f.stderr_tail()));
        }
        self.launcher = Some(out.clone());
        Ok(out)
    }

    /// The program built for this session, or the compiler's error as the program's syntax
    /// error (its first `FILE:LINE:COLUMN: error:` line).
    pub async fn compile(
        &mut self,
        program: &ProgramFile,
    ) -> Result<Result<PathBuf, SyntaxError>, DebuggerError> {
        self.sessions += 1;
        let out = self.dir.path().join(format!("prog-{}", self.sessions));
        let mut cmd = std::process::Command::new(&self.compiler);
        // Csmith's programs include its header.
        cmd.arg(format!("-{}", self.build.level))
            .args(["-g", "-w", "-I", crate::profilers::c::CSMITH_INCLUDE, "-o"])
            .arg(&out)
            .arg(&program.path);
        let compiler = self.build.compiler;
        let f = tokio::task::spawn_blocking(move || {
            crate::process::run(&mut cmd, COMPILE_TIMEOUT, None)
        })
        .await
        .map_err(|e| DebuggerError::Launch {
            engine: compiler.into(),
            reason: e.to_string(),
        })?
        .map_err(|e| DebuggerError::Launch {
            engine: compiler.into(),
            reason: e.to_string(),
        })?;
        if f.ok() {
            return Ok(Ok(out));
        }
        Ok(Err(compile_error(&f.stderr, &program.path)))
    }
}

/// The compiler's first error as a syntax error at its place in the program.
fn compile_error(stderr: &str, path: &Path) -> SyntaxError {
    let file = path.display().to_string();
    let line = stderr
        .lines()
        .find(|l| l.contains(": error:") || l.contains(": fatal error:"))
        .unwrap_or_else(|| stderr.lines().last().unwrap_or("the compiler failed"));
    let location = line.strip_prefix(&format!("{file}:")).and_then(|rest| {
        let mut parts = rest.splitn(3, ':');
        let l = parts.next()?.parse::<u32>().ok()?;
        let c = parts.next()?.parse::<u32>().ok()?;
        Some(Location::new(l.saturating_sub(1), c.saturating_sub(1)))
    });
    let message = line
        .split_once("error: ")
        .map_or(line, |(_, m)| m)
        .to_string();
    SyntaxError { message, location }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_are_a_compiler_and_a_level() {
        assert_eq!(Build::parse("gcc-O0"), Some(Build::default()));
        assert_eq!(
            Build::parse("clang-O2"),
            Some(Build {
                compiler: "clang",
                level: "O2"
            })
        );
        assert_eq!(Build::parse("tcc-O0"), None);
        assert_eq!(Build::parse("gcc-O9"), None);
        assert_eq!(Build::parse("gcc"), None);
    }

    #[test]
    fn a_compile_error_is_the_programs_syntax_error_at_its_place() {
        let e = compile_error(
            "/tmp/p.c: In function 'main':\n/tmp/p.c:3:7: error: expected ';' before 'return'\n",
            Path::new("/tmp/p.c"),
        );
        assert_eq!(e.message, "expected ';' before 'return'");
        assert_eq!(e.location, Some(Location::new(2, 6)));
    }
}
