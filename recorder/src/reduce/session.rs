//! Reducing one recorded session (`morphtrace-record reduce`): a divergence on the engines that
//! recorded it, a metamorphic warning on its engine, or a coverage inconsistency on its
//! profilers, each rerun with the options it was recorded under, and written as a bundle.

use super::coverage;
use super::metamorphic::{ChainJudge, Violated};
use super::standalone::{self, Standalone};
use super::{Case, Finding, ReduceError, Reduced, Reducer};
use crate::cod;
use crate::debugger::engines::EngineSpec;
use crate::debugger::{CaptureOptions, Engine};
use crate::recorded;
use indicatif::ProgressBar;
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_schema::{
    Action, ArchiveReader, EngineDescriptor, EngineRef, Language, Program, ProgramOrigin, Session,
    SessionMode,
};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What to reduce and how long to try.
#[derive(Debug, Clone)]
pub struct Request {
    pub archive: PathBuf,
    /// The session: its id (16 hex digits) or its position in the archive.
    pub session: String,
    /// The bundle's directory (created; must not exist).
    pub out: PathBuf,
    pub budget: Duration,
    /// Longest one candidate session may take.
    pub session_timeout: Duration,
    /// Coverage: the class to keep (default: the session's first).
    pub class: Option<String>,
    /// Differential: which of the session's divergences (0: the first).
    pub divergence: usize,
    /// Show a spinner on stderr.
    pub progress: bool,
}

/// What a reduction achieved: the line `reduce` ends with.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub finding: String,
    /// The engines' labels, `a vs b`.
    pub engines: String,
    /// Non-blank lines before and after (coverage), or all lines (debuggers).
    pub lines: (usize, usize),
    pub actions: Option<(usize, usize)>,
    /// Candidates judged, where the reduction counted them (C-Vise does not).
    pub tests: Option<usize>,
    pub elapsed: Duration,
    /// Stopped by the budget: not minimal.
    pub complete: bool,
    pub out: PathBuf,
    /// What the bundle's standalone reproducer answered when run once (debugger bundles).
    pub standalone: Option<Standalone>,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "reduced {} on {}: {} → {} lines",
            self.finding, self.engines, self.lines.0, self.lines.1
        )?;
        if let Some((a, b)) = self.actions {
            write!(f, ", {a} → {b} actions")?;
        }
        match self.tests {
            Some(n) => write!(f, ", {n} runs in")?,
            None => write!(f, " in")?,
        }
        write!(f, " {:.1} s", self.elapsed.as_secs_f64())?;
        if !self.complete {
            write!(f, " (budget reached: not minimal)")?;
        }
        if let Some(s) = &self.standalone {
            write!(f, "\n{s}")?;
        }
        write!(f, "\n{}", self.out.display())
    }
}

impl Outcome {
    fn of(finding: String, engines: String, r: &Reduced, out: &Path) -> Outcome {
        Outcome {
            finding,
            engines,
            lines: r.lines,
            actions: Some(r.action_count),
            tests: Some(r.tests),
            elapsed: r.elapsed,
            complete: r.complete,
            out: out.to_path_buf(),
            standalone: None,
        }
    }
}

/// Reduces the session `req` names, by its mode.
pub async fn reduce(req: &Request) -> Result<Outcome, ReduceError> {
    if req.budget.is_zero() || req.session_timeout.is_zero() {
        return Err(ReduceError::Refused(
            "--budget and --session-timeout must be positive".into(),
        ));
    }
    if req.out.exists() {
        return Err(ReduceError::Refused(format!(
            "{} exists: give a new directory",
            req.out.display()
        )));
    }
    let reader = recorded::open(&req.archive)?;
    let session = recorded::session(&reader, &req.session, &req.archive)?;
    match session.mode {
        SessionMode::Coverage => reduce_coverage(req, &reader, &session).await,
        SessionMode::Metamorphic => reduce_warning(req, &reader, &session).await,
        _ => reduce_divergence(req, &reader, &session).await,
    }
}

fn spinner(message: String, visible: bool) -> ProgressBar {
    let bar = ProgressBar::new_spinner().with_message(message);
    if !visible {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar
}

fn work_dir() -> Result<tempfile::TempDir, ReduceError> {
    tempfile::Builder::new()
        .prefix("morphtrace-reduce-")
        .tempdir()
        .map_err(|e| ReduceError::Write(e.to_string()))
}

fn program<'r>(reader: &'r ArchiveReader, s: &Session) -> Result<&'r Program, ReduceError> {
    Ok(reader
        .program(&s.program)
        .ok_or_else(|| recorded::RecordedError::NoProgram(s.program.short()))?)
}

fn source(req: &Request, session: &Session) -> String {
    format!("{} session {}", req.archive.display(), session.id)
}

async fn launch(
    spec: &EngineSpec,
    capture: &CaptureOptions,
) -> Result<Box<dyn Engine>, ReduceError> {
    spec.launch(capture, 1)
        .await
        .map_err(|e| ReduceError::Launch {
            engine: spec.to_string(),
            message: e.to_string(),
        })
}

/// A diverged session reduced on the engines that recorded it.
async fn reduce_divergence(
    req: &Request,
    reader: &ArchiveReader,
    session: &Session,
) -> Result<Outcome, ReduceError> {
    let divergence = recorded::divergence(session, req.divergence, "only divergences are reduced")?;
    let program = program(reader, session)?;
    let trace = session
        .traces
        .first()
        .ok_or_else(|| ReduceError::Refused("the session has no trace".into()))?;
    let actions: Vec<Action> = trace.actions().cloned().collect();
    let header = reader.header();
    let descriptors = recorded::engines(header, session)?;
    let capture = CaptureOptions::recorded(header, &descriptors);
    let mut launched = Vec::new();
    for d in &descriptors {
        match launch(&EngineSpec::of(d), &capture).await {
            Ok(e) => launched.push(e),
            Err(e) => {
                for e in launched.iter_mut() {
                    e.shutdown().await;
                }
                return Err(e);
            }
        }
    }
    let refs: Vec<EngineRef> = (0..launched.len()).map(|i| EngineRef(i as u16)).collect();
    let policy = ComparisonPolicy::from_params(&header.campaign.params);
    let finding = Finding::of(&divergence);
    let work = work_dir()?;
    let bar = spinner(format!("reducing {finding}"), req.progress);
    let mut reducer = Reducer::new(
        launched.iter_mut().collect(),
        refs,
        policy.clone(),
        work.path(),
        req.session_timeout,
        finding.clone(),
        req.budget,
        bar.clone(),
    );
    match program.language {
        Language::C => {
            reducer.in_c(&program.text)?;
        }
        language => reducer.language = language,
    }
    // A session that went on past divergences is rerun under the triage it was recorded with.
    if session
        .all_divergences()
        .iter()
        .any(|d| d.continued.is_some())
    {
        reducer.triage = recorded::triage(header)?;
    }
    let result = reducer.reduce(&program.text, &actions).await;
    bar.finish_and_clear();
    for e in launched.iter_mut() {
        e.shutdown().await;
    }
    let reduced = result?;
    let labels: Vec<String> = descriptors.iter().map(|d| d.label()).collect();
    let engines: Vec<EngineDescriptor> = descriptors.iter().map(|d| (*d).clone()).collect();
    super::write_bundle(
        &req.out,
        &reduced,
        &finding,
        &Case {
            engines: &engines,
            columns: policy.columns,
            prelude: capture.prelude,
            action_timeout: recorded::action_timeout(header),
            original: &program.text,
            original_actions: &actions,
            source: &source(req, session),
        },
    )
    .map_err(|e| ReduceError::Write(e.to_string()))?;
    let mut outcome = Outcome::of(finding.to_string(), labels.join(" vs "), &reduced, &req.out);
    outcome.standalone = check_standalone(req, engines.len()).await?;
    Ok(outcome)
}

/// A metamorphic follow-up that violated its relation: the parent's program and actions reduced
/// while a one-round chain with the recorded transformation still violates it.
async fn reduce_warning(
    req: &Request,
    reader: &ArchiveReader,
    session: &Session,
) -> Result<Outcome, ReduceError> {
    let refused = |s: String| ReduceError::Refused(s);
    let Some(warning) = session.warnings.first() else {
        return Err(refused(format!(
            "session {} violated no relation ({}): only warnings of metamorphic sessions are reduced",
            session.id,
            session.outcome.name()
        )));
    };
    let parent_id = session
        .parent
        .as_ref()
        .map(|p| p.session)
        .ok_or_else(|| refused("the warning's session has no parent".into()))?;
    let parent = reader
        .session_by_id(parent_id)
        .ok_or_else(|| refused(format!("its parent {parent_id} is not in the archive")))?;
    let record = session
        .transformations
        .last()
        .ok_or_else(|| refused("the session records no transformation".into()))?;
    let parent_trace = parent
        .traces
        .first()
        .ok_or_else(|| refused("the parent has no trace".into()))?;
    let follow_trace = session
        .traces
        .first()
        .ok_or_else(|| refused("the session has no trace".into()))?;
    let violation = morphtrace_judges::metamorphic::judge(parent_trace, follow_trace, record)
        .ok_or_else(|| {
            refused(
                "the recorded follow-up no longer violates its relation when judged again".into(),
            )
        })?;
    let program = program(reader, &parent)?;
    let actions: Vec<Action> = parent_trace.actions().cloned().collect();
    let header = reader.header();
    let descriptor = recorded::engines(header, session)?
        .first()
        .map(|d| (*d).clone())
        .ok_or_else(|| refused("the session ran no engine".into()))?;
    let capture = CaptureOptions::recorded(header, &[&descriptor]);
    let mut engine = launch(&EngineSpec::of(&descriptor), &capture).await?;
    let finding = Violated {
        relation: warning.relation.clone(),
        transformation: record.name.clone(),
        kind: violation.kind,
    };
    let work = work_dir()?;
    let bar = spinner(format!("reducing {finding}"), req.progress);
    let policy = ComparisonPolicy::from_params(&header.campaign.params);
    let node = crate::debugger::engines::which("node").unwrap_or_else(|| "node".into());
    let mut judge = ChainJudge::new(
        &mut engine,
        policy,
        work.path(),
        node,
        req.session_timeout,
        capture.prelude,
        session.seed,
        finding.clone(),
        record,
    );
    let pinned = judge.anchored();
    let result = super::reduce_with(
        &mut judge,
        &program.text,
        &actions,
        pinned,
        false,
        req.budget,
        bar.clone(),
    )
    .await;
    judge.finish();
    bar.finish_and_clear();
    engine.shutdown().await;
    let (reduced, follow) = result?;
    super::bundle::write_metamorphic_bundle(
        &req.out,
        &reduced,
        &follow,
        &finding,
        &Case {
            engines: std::slice::from_ref(&descriptor),
            columns: true,
            prelude: capture.prelude,
            action_timeout: recorded::action_timeout(header),
            original: &program.text,
            original_actions: &actions,
            source: &source(req, session),
        },
    )
    .map_err(|e| ReduceError::Write(e.to_string()))?;
    let mut outcome = Outcome::of(finding.to_string(), descriptor.label(), &reduced, &req.out);
    // The parent and the follow-up: two sessions.
    outcome.standalone = check_standalone(req, 2).await?;
    Ok(outcome)
}

/// Runs the bundle's reproducer once (`sessions` of at most the session timeout each, and their
/// engines' launches) and says in its README what it answered.
async fn check_standalone(
    req: &Request,
    sessions: usize,
) -> Result<Option<Standalone>, ReduceError> {
    let node = crate::debugger::engines::which("node").unwrap_or_else(|| "node".into());
    let timeout = req.session_timeout * sessions as u32 + Duration::from_secs(60);
    let Some(answer) = standalone::check(&req.out, &node, timeout).await else {
        return Ok(None);
    };
    let readme = req.out.join("README.md");
    let mut text =
        std::fs::read_to_string(&readme).map_err(|e| ReduceError::Write(e.to_string()))?;
    text.push_str(&format!("\n## Checked when written\n\n{answer}.\n"));
    std::fs::write(&readme, text).map_err(|e| ReduceError::Write(e.to_string()))?;
    Ok(Some(answer))
}

/// Options of a one-program coverage run, as a campaign with these parameters records it.
pub fn check_options(variants: usize, run_timeout: Duration, prelude: bool) -> cod::Options {
    cod::Options {
        variants,
        run_timeout,
        truth: true,
        jobs: 1,
        progress: false,
        resume: false,
        writer: morphtrace_schema::WriterOptions::default(),
        csmith_cache: None,
        prelude,
        python_start: crate::debugger::PythonStart::default(),
        shard: None,
    }
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ReduceError> + Send + 'static,
) -> Result<T, ReduceError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ReduceError::Write(format!("a reduction thread failed: {e}")))?
}

fn program_file(language: Language, text: String) -> Program {
    let path = match language {
        Language::C => "program.c",
        Language::Python => "program.py",
        _ => "program.js",
    };
    Program::new(language, text, ProgramOrigin::File { path: path.into() })
}

/// A coverage session: C programs by C-Vise, judged by `coverage-check`; JavaScript by blanking
/// statements, judged here.
async fn reduce_coverage(
    req: &Request,
    reader: &ArchiveReader,
    session: &Session,
) -> Result<Outcome, ReduceError> {
    let refused = ReduceError::Refused;
    let program = program(reader, session)?;
    let header = reader.header();
    let found = cod::found(session, &header.engines);
    let class = match &req.class {
        Some(c) => c.clone(),
        None => found.first().map(|f| f.class()).ok_or_else(|| {
            refused(format!(
                "session {} shows no coverage inconsistency beyond the weak-noise filter",
                session.id
            ))
        })?,
    };
    if !found.iter().any(|f| f.class() == class) {
        return Err(refused(format!(
            "session {} does not show {class}; it shows: {}",
            session.id,
            found
                .iter()
                .map(|f| f.class())
                .collect::<Vec<_>>()
                .join("; ")
        )));
    }
    let recorded = morphtrace_schema::options::Coverage::read(&header.campaign);
    // Variants matter only to Cod's relation: without them each candidate is judged faster.
    let variants: usize = if class.starts_with("cod ") {
        recorded.variants.unwrap_or(3)
    } else {
        0
    };
    let run_timeout = recorded.run_timeout.unwrap_or(Duration::from_secs(5));
    let used = recorded::engines(header, session)?;
    let specs: Vec<EngineSpec> = used.iter().map(|d| EngineSpec::of(d)).collect();
    let mut check = vec!["coverage-check".to_string()];
    for s in &specs {
        check.extend(["--engine".to_string(), s.to_string()]);
    }
    check.extend([
        "--class".into(),
        class.clone(),
        "--seed".into(),
        session.seed.to_string(),
        "--variants".into(),
        variants.to_string(),
        "--run-timeout".into(),
        run_timeout.as_secs_f64().to_string(),
    ]);
    let prelude = CaptureOptions::recorded(header, &used).prelude;
    // C and Python by C-Vise (Python through its generic passes), JavaScript by blanking.
    let is_c = program.language != Language::JavaScript;
    let tool = if is_c {
        "C-Vise"
    } else {
        "blanking statements"
    };
    let bar = spinner(format!("{tool}: {class}"), req.progress);
    let budget = req.budget;
    // A candidate must end, under the first profiler, as the original did: one that throws where
    // the original did not (a name its reduction took away) shows another behaviour of the
    // profiler (counts after an exception, output cut short), not this finding.
    let exit = |s: &Session| {
        s.coverage
            .iter()
            .find(|r| r.program == s.program)
            .and_then(|r| r.run.as_ref())
            .map(|r| r.exit_code)
    };
    let original_exit = exit(session);
    let (reduced, tests) = if is_c {
        let work = work_dir()?;
        // Python: whole statements first, judged in this process as `coverage-check` would,
        // then C-Vise on what is left, with what is left of the budget.
        let (mut text, mut left, mut pruned) = (program.text.clone(), budget, None);
        if program.language == Language::Python {
            let opts = check_options(variants, run_timeout, prelude);
            let (t, specs, seed, b, class) = (
                text.clone(),
                specs.clone(),
                session.seed,
                bar.clone(),
                class.clone(),
            );
            let p = blocking(move || {
                super::python::prune_statements(&t, budget, &b, |candidate| {
                    let p = program_file(Language::Python, candidate.to_string());
                    let (judged, found) = cod::findings(&specs, p, seed, &opts)?;
                    Ok::<bool, cod::CoverageError>(
                        cod::not_comparable(&judged).is_none()
                            && exit(&judged) == original_exit
                            && found.iter().any(|f| f.class() == class),
                    )
                })
                .map_err(ReduceError::from)
            })
            .await?;
            text = p.text.clone();
            left = budget.saturating_sub(p.elapsed);
            pruned = Some(p);
        }
        let (path, args, b, language) = (
            work.path().to_path_buf(),
            check.clone(),
            bar.clone(),
            program.language,
        );
        let mut reduced = if left >= Duration::from_secs(5) {
            blocking(move || coverage::cvise(&text, language, &args, &path, left, &b)).await?
        } else {
            coverage::CReduced {
                text,
                elapsed: Duration::ZERO,
                complete: false,
                guarded: false,
            }
        };
        if let Some(p) = &pruned {
            reduced.elapsed += p.elapsed;
            reduced.complete &= p.complete;
        }
        (reduced, pruned.map(|p| p.tests))
    } else {
        // Judged in this process, as `coverage-check` would judge each candidate, and it must
        // end as the original did (`exit` above).
        let opts = check_options(variants, run_timeout, prelude);
        let (text, specs, seed, b, class) = (
            program.text.clone(),
            specs.clone(),
            session.seed,
            bar.clone(),
            class.clone(),
        );
        let blanked = blocking(move || {
            super::blank_statements(&text, budget, &b, |candidate| {
                let p = program_file(Language::JavaScript, candidate.to_string());
                let (judged, found) = cod::findings(&specs, p, seed, &opts)?;
                Ok::<bool, cod::CoverageError>(
                    cod::not_comparable(&judged).is_none()
                        && exit(&judged) == original_exit
                        && found.iter().any(|f| f.class() == class),
                )
            })
            .map_err(ReduceError::from)
        })
        .await?;
        (
            coverage::CReduced {
                text: blanked.text,
                elapsed: blanked.elapsed,
                complete: blanked.complete,
                guarded: false,
            },
            Some(blanked.tests),
        )
    };
    bar.finish_and_clear();
    // Judged once more, here, for the line the bundle points at.
    let opts = check_options(variants, run_timeout, prelude);
    let (seed, candidate) = (
        session.seed,
        program_file(program.language, reduced.text.clone()),
    );
    let specs2 = specs.clone();
    let (judged, now) =
        blocking(move || cod::findings(&specs2, candidate, seed, &opts).map_err(ReduceError::from))
            .await?;
    if let Some(why) = cod::not_comparable(&judged) {
        return Err(refused(format!(
            "the reduced program is {why}; nothing written"
        )));
    }
    let Some(hit) = now.iter().find(|f| f.class() == class) else {
        return Err(ReduceError::NotReproduced(format!(
            "the reduced program showed {class} to the reduction's test but not when judged \
             again: its counts vary from run to run (in C, undefined behaviour such as an \
             uninitialized read that C-Vise introduced); nothing written"
        )));
    };
    let lines = |t: &str| t.lines().filter(|l| !l.trim().is_empty()).count();
    let before = lines(&program.text);
    let after = lines(&reduced.text);
    let labels: Vec<String> = used.iter().map(|d| d.label()).collect();
    coverage::write_bundle(
        &req.out,
        &coverage::Bundle {
            class: &class,
            language: program.language,
            prelude,
            tests,
            found: hit,
            engines: &labels,
            text: &reduced.text,
            original: &program.text,
            check: &check,
            lines: (before, after),
            elapsed: reduced.elapsed,
            complete: reduced.complete,
            guarded: reduced.guarded,
            source: &source(req, session),
        },
    )
    .map_err(|e| ReduceError::Write(e.to_string()))?;
    Ok(Outcome {
        finding: class,
        engines: labels.join(" vs "),
        lines: (before, after),
        actions: None,
        // Shown by the bundle's README; the line has always given lines and time only.
        tests: None,
        elapsed: reduced.elapsed,
        complete: reduced.complete,
        out: req.out.clone(),
        standalone: None,
    })
}
