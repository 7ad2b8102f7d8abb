//! `engines`: the debuggers and profilers found here, the versions installable on demand, and
//! installing some ahead of a campaign.

use crate::cli::EnginesArgs;
use anyhow::{Context, Result};
use morphtrace_recorder::debugger::engines::{self, EngineSpec};
use morphtrace_recorder::debugger::CaptureOptions;
use morphtrace_schema::EngineKind;
use std::process::ExitCode;

pub(crate) async fn engines(a: EnginesArgs) -> Result<ExitCode> {
    if let Some(kind) = a.available {
        return list_available(&kind);
    }
    if !a.install.is_empty() {
        return install_engines(&a.install).await;
    }
    let found = engines::discover();
    if found.is_empty() {
        println!("no debuggers found (run scripts/setup.sh)");
    }
    for spec in found {
        if let Err(err) = launch_and_print(&spec).await {
            println!("{spec}: unusable: {err}");
        }
    }
    // Engines installed on demand (Chromium's older versions, Deno, Bun): those in the cache,
    // then what else can be had.
    use engines::cache::{self, Distribution};
    for source in [
        Distribution::Sparticuz,
        Distribution::Deno,
        Distribution::Bun,
    ] {
        for (version, complete) in cache::installed(source) {
            let spec = format!("{}@{}", source.kind(), version.text);
            if !complete {
                println!("{spec}: partly installed (engines --install {spec} completes it)");
                continue;
            }
            match EngineSpec::parse(&spec) {
                Ok(s) => {
                    if let Err(err) = launch_and_print(&s).await {
                        println!("{spec}: unusable: {err}");
                    }
                }
                Err(err) => println!("{spec}: unusable: {err}"),
            }
        }
    }
    println!(
        "installable on demand: chromium@92..153, deno, bun (`engines --available KIND` lists \
         their versions, `--engine KIND@VERSION` installs one into {})",
        cache::root().display()
    );
    // Execution tiers: how each JS engine above can run apart from its default.
    println!(
        "execution tiers (`--engine KIND+TIER`, e.g. node+jitless; each is checked when it \
         launches; two tiers of one engine are judged by no family's rules):"
    );
    for (kinds, kind) in [
        ("node, deno, chromium", EngineKind::Node),
        ("firefox", EngineKind::Firefox),
        ("bun", EngineKind::Bun),
    ] {
        for t in engines::tier::of(&kind) {
            println!("  {kinds:<22} +{:<10} {} ({})", t.name, t.what, t.set());
        }
    }
    // Coverage profilers: versions from the tools themselves.
    use morphtrace_recorder::profilers::c::{CProfiler, CTools};
    for (name, p) in [("gcov", CProfiler::Gcov), ("llvm-cov", CProfiler::LlvmCov)] {
        match CTools::find(p).versions() {
            Ok((compiler, tool)) => {
                println!("{name:<28} {:<10} {tool} ({compiler})", "tool")
            }
            Err(e) => println!("{name}: unusable: {e}"),
        }
    }
    println!(
        "{:<28} {:<10} block coverage of any node above (--engine v8, v8@24, v8=PATH)",
        "v8", "profiler"
    );
    // coverage.py: each core, checked by running a program under it.
    use morphtrace_recorder::debugger::PythonStart;
    use morphtrace_recorder::profilers::python::{Core, CoveragePy};
    if let Some(python) = morphtrace_recorder::debugger::engines::which("python3") {
        for core in [Core::CTrace, Core::PyTrace, Core::SysMon] {
            let name = format!("coverage.py+{}", core.as_str());
            match CoveragePy::start(&python, core, PythonStart::Cold) {
                Ok((_, d)) => println!(
                    "{:<28} {:<10} {} {}",
                    d.label(),
                    "tool",
                    d.engine_version.unwrap_or_default(),
                    d.executable
                ),
                Err(e) => println!("{name}: unusable: {e}"),
            }
        }
    }
    // sys.monitoring on the newer interpreters of this machine (`coverage.py+sysmon=PATH`).
    for python in morphtrace_recorder::profilers::python::newer_pythons() {
        let name = format!("coverage.py+sysmon={}", python.display());
        match CoveragePy::start(&python, Core::SysMon, PythonStart::Cold) {
            Ok((p, d)) => println!(
                "{name:<28} {:<10} {}{}",
                "tool",
                d.engine_version.unwrap_or_default(),
                if p.branch { "" } else { " (lines only)" }
            ),
            Err(e) => println!("{name}: unusable: {e}"),
        }
    }
    match morphtrace_recorder::corpus::csmith::version() {
        Ok(v) => println!("{:<28} {:<10} {v}", "csmith", "generator"),
        Err(e) => println!("csmith: unusable: {e}"),
    }
    Ok(ExitCode::SUCCESS)
}

async fn launch_and_print(
    spec: &EngineSpec,
) -> Result<(), morphtrace_recorder::debugger::DebuggerError> {
    let mut e = spec.launch(&CaptureOptions::default(), 1).await?;
    let d = e.descriptor().clone();
    println!(
        "{:<28} {:<10} {:<24} {}",
        d.label(),
        d.protocol.to_string(),
        d.engine_version.unwrap_or_default(),
        d.executable
    );
    e.shutdown().await;
    Ok(())
}

/// `engines --available KIND`: the registry's versions, with those in the cache marked.
fn list_available(kind: &str) -> Result<ExitCode> {
    use engines::cache;
    let k = EngineKind::parse(kind);
    let source = cache::Distribution::of(&k).with_context(|| {
        format!("{kind} is not installable on demand (chromium, deno, bun are)")
    })?;
    let available = cache::available(source)?;
    let installed = cache::installed(source);
    let mut out = format!(
        "{} versions of {} ({}; * installed in {})\n",
        available.len(),
        source.package(),
        k,
        cache::root().join(k.as_str()).display()
    );
    for v in &available {
        let mark = match installed.iter().find(|(i, _)| i == v) {
            Some((_, true)) => "*",
            Some((_, false)) => "(partial)",
            None => "",
        };
        let pre = if v.is_release() { "" } else { " (pre-release)" };
        out.push_str(&format!("{k}@{}{pre} {mark}\n", v.text));
    }
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), out.as_bytes());
    Ok(ExitCode::SUCCESS)
}

/// `engines --install SPEC...`: each installed (if need be) and launched once, so a campaign
/// later finds it ready and known to work.
async fn install_engines(specs: &[String]) -> Result<ExitCode> {
    let mut failed = 0;
    for s in specs {
        let spec = match EngineSpec::parse(s) {
            Ok(spec) => spec,
            Err(e) => {
                eprintln!("morphtrace-record: {e}");
                failed += 1;
                continue;
            }
        };
        match launch_and_print(&spec).await {
            Ok(()) => {}
            Err(err) => {
                eprintln!("morphtrace-record: {s}: installed but does not launch: {err}");
                failed += 1;
            }
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
