//! GenMorph's executions (TSE, §3 steps 1–2, §5): real functions of pinned npm libraries run in
//! one warm Node process on coverage-guided source inputs, random evaluation inputs and their
//! follow-ups, as the original, our training mutants and StrykerJS's evaluation mutants; one
//! `ExecutionBatch` frame per function. The search itself is offline (morphtrace-analyze).

pub mod falsify;
pub mod harness;
pub mod inputs;
pub mod mutants;
pub mod record;
pub mod subjects;

use morphtrace_schema::archive::WriterOptions;
use morphtrace_schema::{
    ArchiveHeader, ArchiveReader, CampaignConfig, EngineDescriptor, EngineKind, Protocol,
};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum GenmorphError {
    #[error("{0}")]
    Setup(String),
    #[error("harness: {0}")]
    Harness(String),
    #[error("harness request {op} failed: {message}")]
    Request { op: String, message: String },
    #[error("archive: {0}")]
    Archive(#[from] morphtrace_schema::archive::ArchiveError),
    #[error(transparent)]
    Open(#[from] crate::runner::OpenError),
}

/// What a recording did.
#[derive(Debug, Default)]
pub struct Summary {
    pub recorded: Vec<String>,
    pub skipped: Vec<String>,
    pub failed: Vec<(String, String)>,
    /// Ctrl-C stopped the recording between two functions.
    pub interrupted: bool,
}

/// A GenMorph recording campaign: which functions, how, into which archive.
pub struct Campaign {
    pub node: PathBuf,
    pub subjects: Vec<subjects::Spec>,
    pub options: record::Options,
    pub out: PathBuf,
    pub resume: bool,
    pub config: CampaignConfig,
    pub progress: bool,
}

fn descriptor(node: &Path, version: &str) -> EngineDescriptor {
    EngineDescriptor {
        kind: EngineKind::Node,
        executable: node.display().to_string(),
        version: version.to_string(),
        protocol: Protocol::Other("genmorph harness (JSON lines on stdin)".into()),
        engine_version: None,
        details: vec![(
            "harness".into(),
            harness::js_dir().join("harness.js").display().to_string(),
        )],
    }
}

/// Records every subject into `out`; a subject that fails is reported and the harness
/// restarted, and completed frames are kept whatever happens later.
pub fn record_all(r: Campaign) -> Result<Summary, GenmorphError> {
    let js = harness::js_dir();
    let mut h = harness::Harness::start(&r.node)?;
    let mut instrumenter = harness::Harness::start(&r.node)?;
    let mut summary = Summary::default();
    let mut done: Vec<String> = Vec::new();
    if r.resume && r.out.exists() {
        // The functions already recorded (execution frames are not sessions: read them here).
        let reader = ArchiveReader::open(&r.out)?;
        for i in 0..reader.execution_count() {
            done.push(reader.executions(i)?.subject.name);
        }
    }
    let header = ArchiveHeader::new(r.config.clone(), vec![descriptor(&r.node, &h.node_version)]);
    let (mut writer, _) =
        crate::runner::open_archive(&r.out, r.resume, &header, WriterOptions::default())?;
    let stop = crate::runner::Interrupt::install();
    let bar = crate::progress_bar(r.subjects.len(), r.progress);
    for spec in &r.subjects {
        if stop.requested() {
            summary.interrupted = true;
            break;
        }
        bar.set_message(spec.name);
        if done.iter().any(|d| d == spec.name) {
            summary.skipped.push(spec.name.into());
            bar.inc(1);
            continue;
        }
        match record::record(&mut h, &mut instrumenter, spec, &js, &r.options) {
            Ok(batch) => {
                writer.append_executions(&batch)?;
                tracing::info!(
                    subject = spec.name,
                    inputs = batch.inputs.len(),
                    variants = batch.variants.len(),
                    ms = batch.elapsed_ms,
                    "recorded"
                );
                summary.recorded.push(spec.name.into());
            }
            Err(e) => {
                tracing::error!(subject = spec.name, "not recorded: {e}");
                summary.failed.push((spec.name.into(), e.to_string()));
                if matches!(e, GenmorphError::Setup(_)) {
                    bar.inc(1);
                    continue;
                }
                h = harness::Harness::start(&r.node)?;
                instrumenter = harness::Harness::start(&r.node)?;
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    writer.finish()?;
    Ok(summary)
}
