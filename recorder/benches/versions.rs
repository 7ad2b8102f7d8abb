//! Version-matrix benchmark: replayed sessions per second on each Chromium version (and Deno),
//! versions installed once beforehand, beside the time to install one version into an empty
//! cache (npm pack from the registry, gzip + tar, brotli, CRC-32 manifest), measured in the same
//! run. The replayed archive is the bundled Chromium-vs-Node differential campaign
//! (traces/differential-chromium-node-dbdb.mtrace, 90 sessions): each version takes Chromium's
//! place beside the archive's Node. Run: `cargo bench --workspace --bench versions`.
//! Environment: MT_BENCH_VERSIONS (default `chromium@92,chromium@110,chromium@123,chromium@153`),
//! MT_BENCH_INSTALL (the version installed into an empty cache, default `chromium@123`),
//! MT_BENCH_ONLY (versions containing this text), MT_BENCH_JOBS (workers, default 2).

mod common;

use morphtrace_recorder::campaign;
use morphtrace_recorder::debugger::engines::{cache, EngineSpec};
use morphtrace_schema::{ArchiveReader, EngineKind};
use std::path::Path;
use std::time::Instant;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let knobs = common::Knobs::from_env();
    let versions = std::env::var("MT_BENCH_VERSIONS")
        .unwrap_or_else(|_| "chromium@92,chromium@110,chromium@123,chromium@153,deno".to_string());
    let install = std::env::var("MT_BENCH_INSTALL").unwrap_or_else(|_| "chromium@123".into());

    // Installing one version into an empty cache.
    let fresh = tempfile::tempdir().unwrap();
    std::env::set_var("MORPHTRACE_ENGINES", fresh.path());
    let (kind, v) = install.split_once('@').unwrap_or((&install, ""));
    let source = cache::Distribution::of(&EngineKind::parse(kind)).expect("an installable kind");
    let t0 = Instant::now();
    let available = cache::available(source).unwrap();
    let listed = t0.elapsed().as_secs_f64();
    let version = cache::resolve(source, Some(v), &available).unwrap();
    let t1 = Instant::now();
    let installed = cache::ensure(source, &version, &|_| {}).unwrap();
    let install_s = t1.elapsed().as_secs_f64();
    // What a new process pays to use a cached install: the manifest's sizes and CRC-32s.
    let t2 = Instant::now();
    cache::verify(installed.executable.parent().unwrap()).unwrap();
    let cached_s = t2.elapsed().as_secs_f64();
    let size: u64 = std::fs::read_dir(installed.executable.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok()?.metadata().ok())
        .map(|m| m.len())
        .sum();
    std::env::remove_var("MORPHTRACE_ENGINES");
    println!(
        "install {} into an empty cache: {install_s:.1} s ({:.0} MB unpacked; listing the registry's versions {listed:.2} s); \
         using it from the cache in a new process (sizes and CRC-32 of every file checked) {cached_s:.3} s",
        installed.package,
        size as f64 / 1e6
    );

    // Replays, each version installed beforehand (outside the timing).
    let archive = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../traces/differential-chromium-node-dbdb.mtrace");
    let reader = ArchiveReader::open(&archive).unwrap();
    let node = EngineSpec::parse("node").unwrap();
    println!(
        "\n| version | V8 | sessions | judged | undecided | wall s | sessions/s | CPU/wall |\n|---|---|---|---|---|---|---|---|"
    );
    for spec in versions.split(',').filter(|v| knobs.wants(v)) {
        let engine = EngineSpec::parse(spec).unwrap();
        let engines = if engine.kind == EngineKind::Deno {
            vec![EngineSpec::parse("chromium").unwrap(), engine]
        } else {
            vec![engine, node.clone()]
        };
        let dir = tempfile::tempdir().unwrap();
        let replay =
            morphtrace_recorder::dbdb::replay::tasks(&reader, &engines, dir.path()).unwrap();
        let c = common::campaign(
            engines,
            replay.programs,
            replay.tasks,
            knobs.jobs,
            1,
            dir.path(),
        );
        let out = c.out.clone();
        let meter = common::CpuMeter::start();
        let summary = campaign::run(c).unwrap();
        let (cpu, wall) = meter.stop();
        let header = ArchiveReader::open(&out).unwrap().header().clone();
        let d = &header.engines[usize::from(spec.starts_with("deno"))];
        let t = &summary.tally;
        let judged = t.judged;
        println!(
            "| {} | {} | {} | {} | {} | {wall:.1} | {:.2} | {:.2} |",
            d.label(),
            d.engine_version.clone().unwrap_or_default(),
            t.recorded,
            judged,
            t.undecided_total(),
            judged as f64 / wall,
            cpu / wall
        );
    }
    println!(
        "\nsessions/s counts judged sessions over the campaign's wall time (engine launch included); \
         Deno replays in Node's place beside Debian's Chromium."
    );
}
