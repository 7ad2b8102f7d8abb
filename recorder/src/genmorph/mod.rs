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
use morphtrace_schema::genmorph::ExecutionBatch;
use morphtrace_schema::{ArchiveHeader, CampaignConfig, EngineDescriptor, EngineKind, Protocol};
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

/// What a GenMorph recording counts: the functions recorded and those that failed (why).
#[derive(Debug, Default)]
pub struct Counts {
    pub recorded: Vec<String>,
    pub failed: Vec<(String, String)>,
}

impl crate::runner::Counts for Counts {
    fn unit(&self) -> &'static str {
        "functions"
    }

    fn judged(&self) -> Option<&'static str> {
        None
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} recorded, {} failed",
            self.recorded.len(),
            self.failed.len()
        )?;
        for (name, why) in &self.failed {
            writeln!(f, "  failed: {name}: {why}")?;
        }
        Ok(())
    }
}

pub type Summary = crate::runner::Summary<Counts>;

/// A GenMorph recording campaign: which functions, how, into which archive.
pub struct Campaign {
    pub node: PathBuf,
    pub subjects: Vec<subjects::Spec>,
    pub options: record::Options,
    pub out: PathBuf,
    pub resume: bool,
    pub config: CampaignConfig,
    pub progress: bool,
    /// Record only this part of the functions.
    pub shard: Option<morphtrace_schema::Shard>,
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

/// The two warm Node processes of a worker: one runs the functions, one runs StrykerJS's
/// instrumenter. `None` after a failure that could not restart them.
pub struct Harnesses {
    run: Option<harness::Harness>,
    instrumenter: Option<harness::Harness>,
}

/// A GenMorph recording for the runner: one task per function.
struct Executions {
    node: PathBuf,
    js: PathBuf,
    options: record::Options,
    /// The harnesses started to learn Node's version, handed to the first worker.
    first: std::sync::Mutex<Option<Harnesses>>,
}

/// One function's executions, or why they could not be recorded.
pub type Done = (String, Result<ExecutionBatch, String>);

impl Executions {
    fn harnesses(&self) -> Result<Harnesses, GenmorphError> {
        Ok(Harnesses {
            run: Some(harness::Harness::start(&self.node)?),
            instrumenter: Some(harness::Harness::start(&self.node)?),
        })
    }
}

impl crate::runner::Work for Executions {
    type Task = subjects::Spec;
    type Worker = Harnesses;
    type Done = Done;
    type Counts = Counts;
    type Error = GenmorphError;

    fn key(&self, spec: &subjects::Spec) -> crate::runner::Key {
        crate::runner::Key::Subject(spec.name.to_string())
    }

    fn start(&self, _index: usize) -> Result<Harnesses, GenmorphError> {
        match self.first.lock().ok().and_then(|mut f| f.take()) {
            Some(h) => Ok(h),
            None => self.harnesses(),
        }
    }

    /// A subject that fails is reported and the harnesses restarted (a setup error leaves them
    /// as they are: it happened before anything ran).
    fn record(&self, w: &mut Harnesses, spec: subjects::Spec) -> Done {
        let name = spec.name.to_string();
        if w.run.is_none() || w.instrumenter.is_none() {
            match self.harnesses() {
                Ok(h) => *w = h,
                Err(e) => return (name, Err(format!("restarting the harness: {e}"))),
            }
        }
        let (Some(h), Some(i)) = (w.run.as_mut(), w.instrumenter.as_mut()) else {
            return (name, Err("no harness".into()));
        };
        h.wall_clock_stops = 0;
        let recorded = record::record(h, i, &spec, &self.js, &self.options);
        if h.wall_clock_stops > 0 {
            // Loop counts decide the rest; these the clock did, and the load can change them.
            tracing::warn!(
                subject = spec.name,
                calls = h.wall_clock_stops,
                "calls stopped by the wall clock, not by a loop count: their timeouts may differ from run to run"
            );
        }
        match recorded {
            Ok(batch) => {
                tracing::info!(
                    subject = spec.name,
                    inputs = batch.inputs.len(),
                    variants = batch.variants.len(),
                    ms = batch.elapsed_ms,
                    "recorded"
                );
                (name, Ok(batch))
            }
            Err(e) => {
                tracing::error!(subject = spec.name, "not recorded: {e}");
                if !matches!(e, GenmorphError::Setup(_)) {
                    w.run = None;
                    w.instrumenter = None;
                }
                (name, Err(e.to_string()))
            }
        }
    }

    fn write(
        &self,
        (_, done): &Done,
        writer: &mut morphtrace_schema::ArchiveWriter,
    ) -> Result<(), morphtrace_schema::ArchiveError> {
        match done {
            Ok(batch) => writer.append_executions(batch),
            Err(_) => Ok(()),
        }
    }

    fn count(&self, (name, done): &Done, c: &mut Counts) {
        match done {
            Ok(_) => c.recorded.push(name.clone()),
            Err(why) => c.failed.push((name.clone(), why.clone())),
        }
    }
}

/// Records every subject into `out` through the runner; completed frames are kept whatever
/// happens later.
pub fn record_all(r: Campaign) -> Result<Summary, GenmorphError> {
    let work = Executions {
        js: harness::js_dir(),
        options: r.options,
        first: std::sync::Mutex::new(None),
        node: r.node,
    };
    let first = work.harnesses()?;
    let version = first
        .run
        .as_ref()
        .map(|h| h.node_version.clone())
        .unwrap_or_default();
    let header = ArchiveHeader::new(r.config, vec![descriptor(&work.node, &version)]);
    if let Ok(mut f) = work.first.lock() {
        *f = Some(first);
    }
    let opts = crate::runner::Options {
        out: r.out,
        resume: r.resume,
        writer: WriterOptions::default(),
        // One worker: the functions share the machine's cores with their harness processes.
        jobs: 1,
        progress: r.progress,
        shard: r.shard,
        cpu_from: None,
    };
    crate::runner::run(&work, &header, r.subjects, &opts)
}
