//! Coverage benchmark: programs per minute per profiler for the `coverage` strategy (P and 3
//! variants each, two workers, a warm Node for V8), next to a naive loop measured in the same
//! run: one program at a time, a fresh process for every compile, link, run and report (for V8
//! `NODE_V8_COVERAGE=dir node prog.js` per run, its JSON read back), the same variant algorithm.
//! Csmith programs come from the cache (generated before timing: generation is not profiling).
//! Run: `cargo bench --workspace --bench coverage`.
//! Environment: MT_BENCH_C (Csmith programs, default 40), MT_BENCH_JS_SEEDS (seeds over the JS
//! corpus, default `1..4`), MT_BENCH_NAIVE (Csmith programs of the naive rows, default: all of
//! them, so that both sides profile the same programs).

use morphtrace_recorder::cod::{self, Input, Options};
use morphtrace_recorder::corpus::csmith;
use morphtrace_recorder::debugger::engines::EngineSpec;
use morphtrace_recorder::parse_seeds;
use morphtrace_recorder::process;
use morphtrace_recorder::profilers::c::{self as c_profilers, CProfiler, CTools};
use morphtrace_schema::archive::{FsyncPolicy, WriterOptions};
use morphtrace_schema::lines::Breaks;
use morphtrace_schema::{BlockRange, CampaignConfig, FunctionCoverage};
use morphtrace_syntax::c::CSyntax;
use morphtrace_syntax::js::statements::JsProgram;
use morphtrace_syntax::{variant, Statements};
use rand::SeedableRng;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const RUN: Duration = Duration::from_secs(5);

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.into())
}

/// Judged programs (rejected ones are undecided: they do not count toward the rate), every
/// program recorded, and seconds.
fn ours(engine: &str, sources: Vec<Input>, seeds: &[u64], truth: bool) -> (usize, usize, f64) {
    let dir = tempfile::tempdir().unwrap();
    let opts = Options {
        variants: 3,
        run_timeout: RUN,
        truth,
        jobs: 2,
        progress: false,
        resume: false,
        writer: WriterOptions {
            fsync: FsyncPolicy::Never,
            ..WriterOptions::default()
        },
        csmith_cache: Some(csmith::cache_dir()),
        prelude: true,
        python_start: morphtrace_recorder::debugger::PythonStart::default(),
        shard: None,
    };
    let specs = vec![EngineSpec::parse(engine).unwrap()];
    let s = cod::run(
        &specs,
        sources,
        seeds,
        CampaignConfig::default(),
        &opts,
        &dir.path().join("b.mtrace"),
    )
    .unwrap();
    (s.tally.judged, s.tally.recorded, s.elapsed.as_secs_f64())
}

/// The naive loop for C: compile and link apart, every step its own process, one at a time.
fn naive_c(profiler: CProfiler, programs: &[String]) -> f64 {
    let tools = CTools::find(profiler);
    let tmp = tempfile::tempdir().unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let start = Instant::now();
    for (i, text) in programs.iter().enumerate() {
        let profile = |t: &str, sub: String| {
            let dir = tmp.path().join(sub);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("prog.c"), t).unwrap();
            let cc = |args: &[&str]| {
                let mut c = Command::new(&tools.compiler);
                c.current_dir(&dir).args(args);
                process::run(&mut c, Duration::from_secs(60), None).unwrap()
            };
            match profiler {
                CProfiler::Gcov => {
                    cc(&[
                        "-O0",
                        "-w",
                        "-I",
                        c_profilers::CSMITH_INCLUDE,
                        "--coverage",
                        "-c",
                        "prog.c",
                        "-o",
                        "prog.o",
                    ]);
                    cc(&["--coverage", "prog.o", "-o", "prog"]);
                }
                CProfiler::LlvmCov => {
                    cc(&[
                        "-O0",
                        "-w",
                        "-I",
                        c_profilers::CSMITH_INCLUDE,
                        "-fprofile-instr-generate",
                        "-fcoverage-mapping",
                        "-c",
                        "prog.c",
                        "-o",
                        "prog.o",
                    ]);
                    cc(&["-fprofile-instr-generate", "prog.o", "-o", "prog"]);
                }
            }
            let b = c_profilers::Build {
                dir: dir.clone(),
                exe: dir.join("prog"),
            };
            c_profilers::profile(&tools, &b, t, RUN).ok()
        };
        let Some(c_profilers::Profiled { lines, .. }) = profile(text, format!("p{i}")) else {
            continue;
        };
        let syntax = CSyntax::parse(text).unwrap();
        let cands = variant::unexecuted_by_lines(&syntax.deletable(), &lines);
        for k in 0..3 {
            if cands.is_empty() {
                break;
            }
            let v = variant::apply(text, variant::choose(&mut rng, &cands), Breaks::C);
            let _ = profile(&v.text, format!("v{i}-{k}"));
        }
    }
    start.elapsed().as_secs_f64()
}

/// The naive loop for V8: `NODE_V8_COVERAGE` and a new node per run of P and its variants.
fn naive_v8(programs: &[String]) -> f64 {
    let tmp = tempfile::tempdir().unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let start = Instant::now();
    let run = |text: &str, name: String| -> Vec<FunctionCoverage> {
        let dir = tmp.path().join(&name);
        let cov = dir.join("cov");
        std::fs::create_dir_all(&cov).unwrap();
        let file = dir.join("prog.js");
        std::fs::write(&file, text).unwrap();
        let mut c = Command::new("node");
        c.env("NODE_V8_COVERAGE", &cov).arg(&file);
        let _ = process::run(&mut c, RUN, None);
        let url = format!("file://{}", file.display());
        let mut out = Vec::new();
        for e in std::fs::read_dir(&cov).unwrap().flatten() {
            let j: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap();
            for s in j["result"].as_array().into_iter().flatten() {
                if s["url"] != url.as_str() {
                    continue;
                }
                for f in s["functions"].as_array().into_iter().flatten() {
                    out.push(FunctionCoverage {
                        name: f["functionName"].as_str().unwrap_or("").into(),
                        ranges: f["ranges"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .map(|r| BlockRange {
                                start: r["startOffset"].as_u64().unwrap_or(0) as u32,
                                end: r["endOffset"].as_u64().unwrap_or(0) as u32,
                                count: r["count"].as_u64().unwrap_or(0),
                            })
                            .collect(),
                        is_block_coverage: f["isBlockCoverage"].as_bool().unwrap_or(false),
                    });
                }
            }
        }
        out
    };
    for (i, text) in programs.iter().enumerate() {
        let Ok(js) = JsProgram::parse(text) else {
            continue;
        };
        let functions = run(text, format!("p{i}"));
        let _ = js.line_counts(&functions);
        let cands = js.unexecuted(&js.deletable(), &functions);
        for k in 0..3 {
            if cands.is_empty() {
                break;
            }
            let v = variant::apply(text, variant::choose(&mut rng, &cands), Breaks::C);
            let _ = run(&v.text, format!("v{i}-{k}"));
        }
    }
    start.elapsed().as_secs_f64()
}

fn row(
    label: &str,
    (n, all, secs): (usize, usize, f64),
    base_n: usize,
    base_secs: f64,
    target: &str,
) {
    let ours = n as f64 * 60.0 / secs;
    let base = base_n as f64 * 60.0 / base_secs;
    println!(
        "| {label} | {ours:.0} programs/min ({n} judged of {all} in {secs:.1} s) | {base:.0} programs/min ({base_n} in {base_secs:.1} s) | {:.1}x | {target} |",
        ours / base
    );
}

fn main() {
    let n_c: u64 = env_or("MT_BENCH_C", "40").parse().unwrap();
    let naive_n: usize = env_or("MT_BENCH_NAIVE", &n_c.to_string()).parse().unwrap();
    let js_seeds = parse_seeds(&env_or("MT_BENCH_JS_SEEDS", "1..4")).unwrap();
    let version = csmith::version().expect("csmith (scripts/setup.sh)");
    let cache = csmith::cache_dir();
    eprintln!(
        "generating {n_c} Csmith programs (cached in {})",
        cache.display()
    );
    let programs: Vec<String> = (1..=n_c)
        .map(|s| csmith::generate(s, &version, Some(&cache)).unwrap())
        .collect();
    let js_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/dbdb");
    let js_sources = cod::sources(&[js_dir.display().to_string()]).unwrap();
    let js_texts: Vec<String> = js_sources
        .iter()
        .filter_map(|s| match s {
            Input::Loaded(p, _) => Some(p.text.clone()),
            Input::Csmith(_) => None,
        })
        .collect();
    println!("Coverage benchmark: 2 cores, P + 3 variants per program, run limit {RUN:?}\n");
    println!("| profiler | morphtrace (2 workers) | naive loop (sequential, a process per step) | speed-up | target |");
    println!("|---|---|---|---|---|");
    let csmith_sources = || (1..=n_c).map(Input::Csmith).collect::<Vec<_>>();
    let r = ours("gcov", csmith_sources(), &[1], false);
    let base = naive_c(CProfiler::Gcov, &programs[..naive_n.min(programs.len())]);
    row("gcov", r, naive_n, base, "≥ 60");
    let r = ours("llvm-cov", csmith_sources(), &[1], false);
    let base = naive_c(CProfiler::LlvmCov, &programs[..naive_n.min(programs.len())]);
    row("llvm-cov", r, naive_n, base, "≥ 60");
    let r = ours("v8", js_sources.clone(), &js_seeds, false);
    let base_js = js_texts;
    let base = naive_v8(&base_js);
    row("v8", r, base_js.len(), base, "≥ 300");
    let r = ours("v8", js_sources, &js_seeds, true);
    row("v8 + ground truth", r, base_js.len(), base, "-");
    println!(
        "\nrecorder peak RSS: {:.0} MB (compilers, programs and Node are separate processes)",
        morphtrace_schema::header::peak_rss_mb()
    );
}
