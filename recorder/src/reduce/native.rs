//! The bundle of a finding between native debuggers (gdb, LLDB) on a C program: the reduced
//! program, its actions, what each side answered, and a standalone reproducer (`reproduce.sh`)
//! that builds the program as each side built it and replays the actions through each
//! debugger's own Python API (`drive.py`), the API its machine interface and its DAP adapter are
//! built on, without morphtrace.

use super::bundle::{finding_spec, pretty, provenance, steps_md, write_case};
use super::{Case, Finding, Reduced};
use crate::debugger::engines::native::{Build, BUILD};
use morphtrace_schema::{DivergenceKind, EngineDescriptor, EngineKind};
use std::fmt::Write as _;
use std::path::Path;

/// The reproducer's shell part, which builds the program and runs each side.
const REPRODUCER: &str = include_str!("reproduce-native.sh");
/// Its driver of gdb and LLDB, and the comparison of their answers.
const DRIVER: &str = include_str!("native-drive.py");

/// Whether the reproducer can drive this engine: gdb and LLDB.
pub fn reproducible(d: &EngineDescriptor) -> bool {
    matches!(d.kind, EngineKind::Gdb | EngineKind::Lldb)
}

/// The build a native engine's descriptor names (`gcc-O0 (gcc -O0 -g; …)`).
fn build(d: &EngineDescriptor) -> Build {
    d.details
        .iter()
        .find(|(k, _)| k == BUILD)
        .and_then(|(_, v)| v.split_whitespace().next())
        .and_then(Build::parse)
        .unwrap_or_default()
}

/// The line of `reproduce.sh` that runs side `n`.
fn side(n: usize, d: &EngineDescriptor) -> String {
    let b = build(d);
    let debugger = match d.kind {
        EngineKind::Gdb => "gdb",
        _ => "lldb",
    };
    format!("side {n} {debugger} {} {} || exit 2", b.compiler, b.level)
}

pub fn write_bundle(
    dir: &Path,
    r: &Reduced,
    finding: &Finding,
    case: &Case<'_>,
) -> std::io::Result<()> {
    let labels: Vec<String> = case.engines.iter().map(|d| d.label()).collect();
    let per_engine = write_case(dir, "c", r, case.original, case.original_actions, &labels)?;
    // What logpoints logged is not compared by the reproducer.
    let reproducer = case.engines.len() == 2 && finding.kind != DivergenceKind::Log;
    if reproducer {
        let mut spec = finding_spec(finding, r, &labels);
        spec.extend(
            serde_json::json!({
                "engines": case.engines.iter().map(|d| {
                    let b = build(d);
                    serde_json::json!({
                        "kind": d.kind.to_string(),
                        "label": d.label(),
                        "executable": d.executable,
                        "compiler": b.compiler,
                        "level": b.level,
                    })
                }).collect::<Vec<_>>(),
            })
            .as_object()
            .cloned()
            .unwrap_or_default(),
        );
        std::fs::write(dir.join("finding.json"), pretty(&spec))?;
        let sides: Vec<String> = case
            .engines
            .iter()
            .enumerate()
            .map(|(n, d)| side(n, d))
            .collect();
        std::fs::write(
            dir.join("reproduce.sh"),
            REPRODUCER.replace("@SIDES@", &sides.join("\n")),
        )?;
        std::fs::write(dir.join("drive.py"), DRIVER)?;
    }
    let mut md = String::new();
    let _ = writeln!(md, "# {} on {}\n", finding, labels.join(" vs "));
    let _ = writeln!(md, "{}.\n", provenance(r, case.source, "actions"));
    let _ = writeln!(md, "## Versions\n");
    for (e, d) in labels.iter().zip(case.engines) {
        let b = build(d);
        let _ = writeln!(
            md,
            "- {e}: `{}`, the program built by `{} -{} -g`",
            d.executable, b.compiler, b.level
        );
    }
    let _ = writeln!(md, "\n## Program (`program.c`)\n\n```c\n{}```\n", r.text);
    let _ = writeln!(
        md,
        "## Steps\n\nBuild `program.c` as each side built it and load it in the debugger; then \
         (lines 1-based; `start` runs the program):\n"
    );
    steps_md(&mut md, r, finding, &per_engine);
    if reproducer {
        let _ = writeln!(
            md,
            "## Reproduce\n\n`sh reproduce.sh` (gdb, lldb-16, gcc, clang and python3 from PATH, \
             or `GDB=`, `LLDB=`, `GCC=`, `CLANG=`) builds the program for each side and replays \
             the steps through each debugger's own Python API (`drive.py`: gdb's `gdb` module, \
             LLDB's `lldb` module, on which gdb's machine interface and LLDB's DAP adapter are \
             built); it prints each side's answers and exits 1 while step {} still shows the \
             difference, 0 once the debuggers agree, 2 when a tool fails.",
            r.step + 1
        );
    } else {
        md.push_str(&super::bundle::no_reproducer(finding));
    }
    std::fs::write(dir.join("README.md"), md)
}
