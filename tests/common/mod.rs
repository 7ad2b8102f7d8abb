//! Helpers shared by the workspace's integration tests.

use morphtrace_schema::{ArchiveReader, Session, SessionId};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The repository's root (canonical: paths built from it compare and print as the repository's).
#[allow(dead_code)] // each test crate compiles this module; not all of them need the root
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the repository's root")
}

/// The analyzer's binary. The engine tests belong to the recorder's package (Cargo gives a test
/// the binaries of its own package only) but check the analyzer over what they record: both
/// binaries come from one `cargo test --workspace` build, side by side.
#[allow(dead_code)] // each test crate compiles this module; not all of them analyze
pub fn analyzer() -> PathBuf {
    let path =
        Path::new(env!("CARGO_BIN_EXE_morphtrace-record")).with_file_name("morphtrace-analyze");
    assert!(
        path.exists(),
        "{} is missing: the engine tests need both binaries (cargo test --workspace builds them)",
        path.display()
    );
    path
}

/// Sessions by id with everything time-dependent zeroed: what must be equal when a campaign is
/// recorded twice from the same seeds.
#[allow(dead_code)] // each test crate compiles this module; not all of them compare campaigns
pub fn normalized(path: &Path) -> BTreeMap<SessionId, Session> {
    let r = ArchiveReader::open(path).unwrap();
    r.sessions()
        .map(|s| {
            let mut s = s.unwrap();
            s.started_at_ms = 0;
            s.duration_us = 0;
            s.cpu_us = None;
            for t in &mut s.traces {
                for e in &mut t.events {
                    e.at_us = 0;
                }
            }
            (s.id, s)
        })
        .collect()
}

/// A trace's events without their times: what a replay on the same engine must reproduce.
#[allow(dead_code)] // each test crate compiles this module; not all of them replay
pub fn events(t: &morphtrace_schema::Trace) -> Vec<morphtrace_schema::EventKind> {
    t.events.iter().map(|e| e.kind.clone()).collect()
}

/// The ten SunSpider programs of `corpus/dbdb/sunspider/` the tests record (fewer and shorter
/// programs keep the suite within CI's time), one `--corpus` each.
#[allow(dead_code)] // each test crate compiles this module; not all of them record SunSpider
pub fn sunspider() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/dbdb/sunspider");
    [
        "3d-morph.js",
        "access-binary-trees.js",
        "access-fannkuch.js",
        "access-nsieve.js",
        "bitops-3bit-bits-in-byte.js",
        "bitops-bits-in-byte.js",
        "controlflow-recursive.js",
        "math-cordic.js",
        "math-spectral-norm.js",
        "string-validate-input.js",
    ]
    .iter()
    .map(|f| dir.join(f))
    .collect()
}

/// A session of `plan` on `p` in lockstep over `engines` (one or more) under `triage`.
#[allow(dead_code)] // each test crate compiles this module; not all of them record sessions
pub async fn lockstep_under(
    engines: &mut [&mut Box<dyn morphtrace_recorder::debugger::Engine>],
    p: &morphtrace_recorder::corpus::Loaded,
    plan: &morphtrace_recorder::task::Plan,
    triage: &morphtrace_judges::triage::Triage,
) -> morphtrace_recorder::session::Recording {
    use morphtrace_schema::EngineRef;
    let refs: Vec<EngineRef> = (0..engines.len() as u16).map(EngineRef).collect();
    let mut rec = morphtrace_recorder::session::Recording::new(&refs);
    morphtrace_recorder::session::run(
        engines,
        &p.file,
        &p.program.hash,
        &mut *plan.strategy().unwrap(),
        &morphtrace_judges::dbdb::ComparisonPolicy::default(),
        Some(triage),
        &mut rec,
    )
    .await
    .unwrap();
    rec
}

/// Runs `cmd` to its end; its output, once it has succeeded (else both streams in the panic).
#[allow(dead_code)] // each test crate compiles this module; not all of them run the binaries
pub fn succeeded(cmd: &mut std::process::Command) -> std::process::Output {
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "{cmd:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// An archive at `path` holding one differential session recorded by the library (`rec`, on
/// engines `descriptors` over `program`), as a campaign would write it: what `reduce` reads.
#[allow(dead_code)] // each test crate compiles this module; not all of them reduce
pub fn archive_of(
    path: &Path,
    descriptors: Vec<morphtrace_schema::EngineDescriptor>,
    program: &morphtrace_schema::Program,
    rec: morphtrace_recorder::session::Recording,
) {
    use morphtrace_schema::{
        ArchiveHeader, ArchiveWriter, CampaignConfig, EngineRef, SessionMode, WriterOptions,
    };
    let refs: Vec<EngineRef> = (0..descriptors.len() as u16).map(EngineRef).collect();
    let mut w = ArchiveWriter::create(
        path,
        &ArchiveHeader::new(CampaignConfig::default(), descriptors),
        WriterOptions::default(),
    )
    .unwrap();
    w.add_program(program).unwrap();
    let mut s = Session::new(
        SessionId(7),
        SessionMode::Differential,
        1,
        refs,
        program.hash,
        rec.final_outcome(),
    );
    s.traces = rec.traces;
    s.divergence = rec.divergence;
    s.divergences = rec.divergences;
    w.append(&s).unwrap();
    w.finish().unwrap();
}

/// `morphtrace-record reduce` (the binary `record`) on the archive's first session, into `out`,
/// with a budget of 300 s.
#[allow(dead_code)] // each test crate compiles this module; not all of them reduce
pub fn reduce(record: &str, archive: &Path, out: &Path) -> std::process::Output {
    std::process::Command::new(record)
        .arg("reduce")
        .arg(archive)
        .args(["--session", "0", "--budget", "300", "--out"])
        .arg(out)
        .output()
        .unwrap()
}
