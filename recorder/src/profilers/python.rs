//! coverage.py on the machine's CPython: one engine per core it has there (its C tracer, its
//! Python tracer and, on Python 3.12+, `sys.monitoring`), run as users run it (`coverage run
//! --branch`, then `coverage json`), and the ground truth of a counted copy of the program
//! (`python-count.py`). Runs under coverage.py start warm by default (`py_forkserver`: forked
//! from an interpreter that has imported coverage.py), or cold (`--python-start cold`: a new
//! interpreter per run); the counted copy always starts cold.

use super::py_forkserver::{self, ForkServers};
use super::CoverageError;
use crate::debugger::engines::python::minor_version;
pub use crate::debugger::engines::python::newer_pythons;
use crate::debugger::PythonStart;
use crate::process::{self, Finished, Limits};
use morphtrace_schema::lines::{Breaks, LineIndex};
use morphtrace_schema::{BranchCount, EngineDescriptor, EngineKind, ProgramRun, Protocol};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

/// The descriptor detail naming the core (`ctrace`, as asked; what coverage.py ran is checked).
pub const CORE: &str = "core";
/// The descriptor detail saying what a run measures (`CoveragePy::run_detail`).
pub const RUN: &str = "run";
/// The descriptor detail saying how runs start (`warm …` or `cold …`).
pub const START: &str = "start";

/// Whether coverage.py's `sysmon` core measures branches on this interpreter (`CPython 3.14.0`):
/// from Python 3.14, whose `sys.monitoring` has `BRANCH_LEFT`/`BRANCH_RIGHT` (coverage.py's
/// `env.PYBEHAVIOR.branch_right_left`, 3.14.0a6 on; an alpha is not told apart here).
pub fn measures_branches_by_sysmon(interpreter: &str) -> bool {
    minor_version(interpreter) >= (3, 14)
}

/// ` (found here: coverage.py+sysmon=/path/python3 ...)` when this machine has a newer Python.
fn newer_pythons_hint() -> String {
    let found = newer_pythons();
    if found.is_empty() {
        return String::new();
    }
    format!(
        " (found here: {})",
        found
            .iter()
            .map(|p| format!("coverage.py+sysmon={}", p.display()))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The counting harness (the ground truth).
pub const COUNT: &str = include_str!("python-count.py");

/// A core of coverage.py: how it learns which lines run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Core {
    /// The C extension's tracer (`sys.settrace` in C), coverage.py's default before 3.12.
    #[default]
    CTrace,
    /// The pure-Python tracer.
    PyTrace,
    /// `sys.monitoring` (PEP 669), Python 3.12 and later.
    SysMon,
}

impl Core {
    pub fn parse(s: &str) -> Option<Core> {
        match s {
            "ctrace" => Some(Core::CTrace),
            "pytrace" => Some(Core::PyTrace),
            "sysmon" => Some(Core::SysMon),
            _ => None,
        }
    }

    /// `COVERAGE_CORE`'s value.
    pub fn as_str(self) -> &'static str {
        match self {
            Core::CTrace => "ctrace",
            Core::PyTrace => "pytrace",
            Core::SysMon => "sysmon",
        }
    }

    /// How `coverage run --debug=sys` names the core that ran.
    fn ran(self) -> &'static str {
        match self {
            Core::CTrace => "CTracer",
            Core::PyTrace => "PyTracer",
            Core::SysMon => "SysMonitor",
        }
    }
}

/// Where `scripts/setup.sh` installs coverage.py.
pub fn tools_coverage() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/coverage");
    root.canonicalize().unwrap_or(root)
}

/// coverage.py with one core, on one interpreter.
#[derive(Debug, Clone)]
pub struct CoveragePy {
    /// The interpreter itself (not a shim in front of it).
    pub python: PathBuf,
    pub core: Core,
    /// coverage.py's `__version__`.
    pub version: String,
    /// Whether runs measure branches (`coverage run --branch`): not where the core cannot
    /// (`sys.monitoring` before Python 3.14 has no branch events, and coverage.py would fall back
    /// to another core), nor beside such an engine in one campaign (`cod::profilers`).
    pub branch: bool,
    /// The engines' sitecustomize (death with the recorder, the determinism prelude) and the
    /// counting harness; removed with the last clone.
    site: Arc<tempfile::TempDir>,
    /// The fork servers runs start from (`None`: each run starts cold).
    warm: Option<Arc<ForkServers>>,
}

/// What one run under coverage.py gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PyProfiled {
    pub run: ProgramRun,
    /// Per 0-based line: 1 ran, 0 did not, `None` not a statement (coverage.py counts nothing).
    pub lines: Vec<Option<u64>>,
    pub branches: Vec<BranchCount>,
    /// coverage.py saved data (a program that leaves by `os._exit` or a signal leaves none:
    /// then nothing is known of any line).
    pub saved: bool,
    /// Why `coverage json` could not read what `coverage run` saved, if it could not (the
    /// program left the interpreter's built-ins changed, which coverage.py's data layer uses
    /// when it saves): nothing is known of any line, as when nothing was saved.
    pub unreadable: Option<String>,
}

/// `dir/run` (the program's directory and working directory) and `dir/tool` (coverage.py's
/// files), both emptied.
fn fresh_layout(dir: &Path) -> std::io::Result<(PathBuf, PathBuf)> {
    let (run, tool) = (dir.join("run"), dir.join("tool"));
    for d in [&run, &tool] {
        match std::fs::remove_dir_all(d) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        std::fs::create_dir_all(d)?;
    }
    Ok((run, tool))
}

/// Limits of a Python program's run (untrusted).
fn limits(timeout: Duration) -> Limits {
    Limits {
        cpu_seconds: timeout.as_secs() + 1,
        file_bytes: 64 << 20,
        memory_bytes: 2 << 30,
    }
}

const TOOL_TIMEOUT: Duration = Duration::from_secs(60);

/// How the program's run under its limits ended; killed by the memory bound or the time limit
/// is the error.
fn untrusted(f: std::io::Result<Finished>, timeout: Duration) -> Result<Finished, CoverageError> {
    let f = f?;
    if let Some(reason) = f.memory {
        return Err(CoverageError::Memory(reason));
    }
    if f.timed_out {
        return Err(CoverageError::Timeout(timeout));
    }
    Ok(f)
}

impl CoveragePy {
    /// coverage.py with `core` on `python`, its version read from it and the core checked by
    /// running a program under it (coverage.py falls back to another core with only a warning).
    pub fn start(
        python: &Path,
        core: Core,
        start: PythonStart,
    ) -> Result<(CoveragePy, EngineDescriptor), CoverageError> {
        let tools = tools_coverage();
        if !tools.join("coverage").is_dir() {
            return Err(CoverageError::Missing(format!(
                "coverage.py ({})",
                tools.display()
            )));
        }
        let site = crate::debugger::engines::python::site(
            "morphtrace-coveragepy-",
            &[("morphtrace_count.py", COUNT)],
        )?;
        let probe = process::run(
            Command::new(python)
                .env_clear()
                .env("PYTHONPATH", tools.as_os_str())
                .args([
                    "-c",
                    "import sys, platform, coverage\nprint(sys.executable)\nprint(platform.python_implementation(), platform.python_version())\nprint(coverage.__version__)",
                ]),
            TOOL_TIMEOUT,
            None,
        )?;
        if !probe.ok() {
            return Err(CoverageError::Missing(format!(
                "coverage.py on {}: {}",
                python.display(),
                probe.stderr_tail()
            )));
        }
        let said: Vec<&str> = probe.stdout.lines().collect();
        let [exe, interpreter, version] = said[..] else {
            return Err(CoverageError::Format(format!(
                "the interpreter's probe said {:?}",
                probe.stdout
            )));
        };
        let mut me = CoveragePy {
            python: Some(PathBuf::from(exe))
                .filter(|p| p.is_file())
                .unwrap_or_else(|| python.to_path_buf()),
            core,
            version: version.to_string(),
            branch: core != Core::SysMon || measures_branches_by_sysmon(interpreter),
            site: Arc::new(site),
            warm: None,
        };
        if start == PythonStart::Warm {
            me.warm = Some(Arc::new(ForkServers::new(
                &me.python,
                me.shared_env(),
                me.site.path(),
            )?));
        }
        // The core that runs, on a program of two branches.
        let dir = tempfile::Builder::new()
            .prefix("morphtrace-coveragepy-check-")
            .tempdir()?;
        let check = me.profile(dir.path(), "x = 1\nif x:\n    x = 2\n", TOOL_TIMEOUT, false);
        match check {
            Ok(p) if p.lines.get(..3) == Some(&[Some(1), Some(1), Some(1)][..]) => {}
            Ok(p) => {
                return Err(CoverageError::Format(format!(
                    "coverage.py reported {:?} for a three-line program that runs every line",
                    p.lines
                )))
            }
            Err(CoverageError::Tool { message, .. }) if message.contains("ran core") => {
                let why = match core {
                    Core::SysMon => format!(
                        "sys.monitoring needs Python 3.12 or later; this is {interpreter}{}",
                        newer_pythons_hint()
                    ),
                    _ => format!(
                        "coverage.py has no C tracer for {interpreter} in {}",
                        tools.display()
                    ),
                };
                return Err(CoverageError::Usage(format!(
                    "coverage.py+{}: {message} ({why})",
                    core.as_str()
                )));
            }
            Err(e) => return Err(e),
        }
        let d = EngineDescriptor {
            kind: EngineKind::CoveragePy,
            executable: me.python.display().to_string(),
            version: format!("{}+{}", me.version, core.as_str()),
            protocol: Protocol::CoverageTool,
            engine_version: Some(interpreter.to_string()),
            details: vec![
                (CORE.into(), format!("{} ({})", core.as_str(), core.ran())),
                ("coverage".into(), tools.display().to_string()),
                (RUN.into(), me.run_detail()),
                (START.into(), me.start_detail()),
            ],
        };
        Ok((me, d))
    }

    /// The descriptor's `run` detail: what each run measures.
    pub fn run_detail(&self) -> String {
        if self.branch {
            "coverage run --branch; coverage json (lines ran or not, arcs)".into()
        } else {
            "coverage run; coverage json (lines ran or not; no arcs: a core of the campaign \
             measures no branches on this interpreter)"
                .into()
        }
    }

    /// The descriptor's `start` detail.
    fn start_detail(&self) -> String {
        if self.warm.is_some() {
            "warm (forked from an interpreter that has imported coverage.py; the counted copy cold)"
                .into()
        } else {
            "cold (a new interpreter per run)".into()
        }
    }

    /// The environment of every process (set alone: the recorder's own is not passed on).
    fn shared_env(&self) -> Vec<(OsString, OsString)> {
        let path = format!(
            "{}:{}",
            self.site.path().display(),
            tools_coverage().display()
        );
        [
            ("PYTHONPATH", path.as_str()),
            ("PYTHONHASHSEED", "0"),
            ("PYTHONDONTWRITEBYTECODE", "1"),
            ("PYTHONIOENCODING", "utf-8"),
            ("LC_ALL", "C.UTF-8"),
        ]
        .into_iter()
        .map(|(k, v)| (k.into(), v.into()))
        .collect()
    }

    fn command(&self, dir: &Path, prelude: Option<&Path>) -> Command {
        let mut cmd = Command::new(&self.python);
        cmd.current_dir(dir).env_clear().envs(self.shared_env());
        if let Some(p) = prelude {
            cmd.env("MORPHTRACE_PRELUDE", p);
        }
        cmd
    }

    /// `python -m coverage ARGS` in `dir`, with `env` added, warm or cold: how it ended.
    fn coverage(
        &self,
        dir: &Path,
        prelude: Option<&Path>,
        env: Vec<(&str, String)>,
        args: Vec<String>,
        timeout: Duration,
        limits: Option<Limits>,
    ) -> std::io::Result<Finished> {
        match &self.warm {
            Some(servers) => servers.run(
                &py_forkserver::Request {
                    argv: args,
                    cwd: dir,
                    env,
                    limits,
                    prelude,
                },
                timeout,
            ),
            None => {
                let mut cmd = self.command(dir, prelude);
                cmd.envs(env).args(["-m", "coverage"]).args(args);
                process::run(&mut cmd, timeout, limits)
            }
        }
    }

    /// Runs `text` as `dir/run/prog.py` under coverage.py (fresh data, in `dir/tool`) and reads
    /// its report. Every run of a session is given the same `dir` (P, its variants, each core,
    /// the counters): the program sees the same path, `__file__` and directory, emptied of what
    /// the run before left, so that what it prints cannot differ by where it ran.
    pub fn profile(
        &self,
        dir: &Path,
        text: &str,
        timeout: Duration,
        prelude: bool,
    ) -> Result<PyProfiled, CoverageError> {
        let (run_dir, tool) = fresh_layout(dir)?;
        let prog = run_dir.join("prog.py");
        std::fs::write(&prog, text)?;
        // No configuration file of the user's (or the program's directory) applies.
        let rc = tool.join("coveragerc");
        std::fs::write(&rc, "")?;
        let data = tool.join("coverage.data");
        let debug = tool.join("coverage.debug");
        let mut args = vec!["run".to_string(), "--debug=sys".into()];
        args.extend(self.branch.then(|| "--branch".to_string()));
        args.extend([
            format!("--rcfile={}", rc.display()),
            format!("--data-file={}", data.display()),
            prog.display().to_string(),
        ]);
        let f = untrusted(
            self.coverage(
                &run_dir,
                prelude.then_some(prog.as_path()),
                vec![
                    ("COVERAGE_CORE", self.core.as_str().into()),
                    ("COVERAGE_DEBUG_FILE", debug.display().to_string()),
                ],
                args,
                timeout,
                Some(limits(timeout)),
            ),
            timeout,
        )?;
        let ran = std::fs::read_to_string(&debug).unwrap_or_default();
        let core = ran
            .lines()
            .find_map(|l| l.trim().strip_prefix("core:"))
            .map(str::trim);
        if let Some(core) = core.filter(|c| *c != self.core.ran()) {
            return Err(CoverageError::Tool {
                what: "coverage run".into(),
                message: format!("asked for {}, ran core {core}", self.core.as_str()),
            });
        }
        // `Couldn't run '.../prog.py' as Python code: IndentationError: ...`: CPython did not
        // compile it (tree-sitter-python forgives more).
        // It says so on stdout, as its last line, and exits 1.
        let head = format!("Couldn't run '{}' as Python code: ", prog.display());
        if let Some(why) = f
            .stdout
            .lines()
            .last()
            .and_then(|l| l.strip_prefix(&head))
            .filter(|_| f.code == Some(1))
        {
            return Err(CoverageError::Compile(why.trim().to_string()));
        }
        let run = ProgramRun {
            stdout: f.stdout,
            exit_code: f.code,
            interpreter: Some(self.python.display().to_string()),
        };
        let lines = LineIndex::new(text, Breaks::C).len();
        if !data.is_file() {
            return Ok(PyProfiled {
                run,
                lines: vec![None; lines],
                branches: Vec::new(),
                saved: false,
                unreadable: None,
            });
        }
        let json = tool.join("coverage.json");
        let r = self.coverage(
            &tool,
            None,
            Vec::new(),
            vec![
                "json".into(),
                "-q".into(),
                format!("--rcfile={}", rc.display()),
                format!("--data-file={}", data.display()),
                "-o".into(),
                json.display().to_string(),
            ],
            TOOL_TIMEOUT,
            None,
        )?;
        if !r.ok() {
            // What the program did to the interpreter it shares with coverage.py (it may break
            // a built-in the saving uses): the program's doing, or coverage.py's, never ours.
            return Ok(PyProfiled {
                run,
                lines: vec![None; lines],
                branches: Vec::new(),
                saved: false,
                unreadable: Some(
                    format!("coverage json: {}{}", r.stderr_tail(), r.stdout)
                        .trim()
                        .to_string(),
                ),
            });
        }
        let (lines, branches) = read_json(&std::fs::read_to_string(&json)?, lines)?;
        Ok(PyProfiled {
            run,
            lines,
            branches,
            saved: true,
            unreadable: None,
        })
    }

    /// The ground truth: `text` run with a counter before each statement. Per 0-based line, how
    /// often the statements starting there started (`None`: no statement with a counter).
    pub fn count(
        &self,
        dir: &Path,
        text: &str,
        timeout: Duration,
        prelude: bool,
    ) -> Result<(ProgramRun, Vec<Option<u64>>), CoverageError> {
        let (run_dir, tool) = fresh_layout(dir)?;
        let prog = run_dir.join("prog.py");
        std::fs::write(&prog, text)?;
        let counts = tool.join("counts.json");
        let mut cmd = self.command(&run_dir, prelude.then_some(prog.as_path()));
        cmd.env("MORPHTRACE_COUNTS", &counts)
            .arg(self.site.path().join("morphtrace_count.py"))
            .arg(&prog);
        let f = untrusted(
            process::run(&mut cmd, timeout, Some(limits(timeout))),
            timeout,
        )?;
        let run = ProgramRun {
            stdout: f.stdout,
            exit_code: f.code,
            interpreter: Some(self.python.display().to_string()),
        };
        let said: BTreeMap<String, u64> = match std::fs::read_to_string(&counts) {
            Ok(s) => serde_json::from_str(&s)
                .map_err(|e| CoverageError::Format(format!("the counters' file: {e}")))?,
            Err(_) => {
                return Err(CoverageError::NoData(
                    "the counters were not written".into(),
                ))
            }
        };
        let n = LineIndex::new(text, Breaks::C).len();
        let mut lines = vec![None; n];
        for (line, count) in said {
            if let Some(slot) = line
                .parse::<usize>()
                .ok()
                .and_then(|l| l.checked_sub(1))
                .and_then(|l| lines.get_mut(l))
            {
                *slot = Some(count);
            }
        }
        Ok((run, lines))
    }
}

#[derive(Deserialize)]
struct Report {
    files: BTreeMap<String, ReportFile>,
}

#[derive(Deserialize)]
struct ReportFile {
    executed_lines: Vec<i64>,
    missing_lines: Vec<i64>,
    #[serde(default)]
    executed_branches: Vec<(i64, i64)>,
    #[serde(default)]
    missing_branches: Vec<(i64, i64)>,
}

/// `coverage json`'s report of `prog.py`: per 0-based line 1 (executed), 0 (missing) or `None`
/// (not a statement, or excluded), and the arcs with 1 or 0.
pub fn read_json(
    json: &str,
    lines: usize,
) -> Result<(Vec<Option<u64>>, Vec<BranchCount>), CoverageError> {
    let r: Report = serde_json::from_str(json)
        .map_err(|e| CoverageError::Format(format!("coverage json: {e}")))?;
    let mut out = vec![None; lines];
    let mut branches = Vec::new();
    let Some(f) = r
        .files
        .iter()
        .find(|(name, _)| Path::new(name).file_name().is_some_and(|n| n == "prog.py"))
        .map(|(_, f)| f)
    else {
        // Nothing of the program ran under the tracer (it failed to compile, say).
        return Ok((out, branches));
    };
    for (list, count) in [(&f.executed_lines, 1), (&f.missing_lines, 0)] {
        for &l in list {
            if let Some(slot) = usize::try_from(l - 1).ok().and_then(|l| out.get_mut(l)) {
                *slot = Some(count);
            }
        }
    }
    for (list, count) in [(&f.executed_branches, 1), (&f.missing_branches, 0)] {
        branches.extend(
            list.iter()
                .filter_map(|&(a, b)| BranchCount::from_arc(a, b, Some(count))),
        );
    }
    branches.sort();
    Ok((out, branches))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_and_arcs() {
        let json = r#"{"meta": {}, "files": {"/tmp/x/sitecustomize.py": {"executed_lines": [1], "missing_lines": []},
            "prog.py": {"executed_lines": [1, 2, 5], "missing_lines": [3], "excluded_lines": [4],
            "executed_branches": [[2, 5], [5, -1]], "missing_branches": [[2, 3]]}}}"#;
        let (lines, branches) = read_json(json, 6).unwrap();
        assert_eq!(
            lines,
            [Some(1), Some(1), Some(0), None, Some(1), None],
            "excluded and non-statement lines have no information"
        );
        let arcs: Vec<(String, Option<u64>)> =
            branches.iter().map(|b| (b.arc(), b.count)).collect();
        assert_eq!(
            arcs,
            [
                ("2->3".to_string(), Some(0)),
                ("2->5".to_string(), Some(1)),
                ("5->exit(1)".to_string(), Some(1)),
            ]
        );
        assert!(read_json("{", 3).is_err());
    }

    #[test]
    fn cores_by_name() {
        for c in [Core::CTrace, Core::PyTrace, Core::SysMon] {
            assert_eq!(Core::parse(c.as_str()), Some(c));
        }
        assert_eq!(Core::parse("cython"), None);
    }
}
