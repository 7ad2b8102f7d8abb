//! `run`: a campaign of debugging sessions (random, differential, metamorphic) or of coverage
//! profiles (Cod), with its summary and exit code.

use crate::cli::{campaign_of, RunArgs, Strategy};
use anyhow::{bail, Result};
use clap::ValueEnum;
use morphtrace_judges::metamorphic::Transformation;
use morphtrace_recorder::campaign::{self, Campaign};
use morphtrace_recorder::dbdb;
use morphtrace_recorder::task::{ExceptionChoice, RandomParams};
use morphtrace_recorder::{corpus, metamorphic, parse_seeds};
use morphtrace_schema::archive::WriterOptions;
use morphtrace_schema::{CampaignConfig, EngineKind, Language};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

/// Runs a campaign and prints its summary.
pub(crate) async fn run_and_report(c: Campaign) -> Result<ExitCode> {
    let out = c.out.clone();
    let summary = tokio::task::spawn_blocking(move || campaign::run(c)).await??;
    print!("{summary}");
    println!("archive: {}", out.display());
    Ok(exit_code(
        &summary.tally,
        summary.skipped,
        summary.interrupted,
    ))
}

/// 130 if the campaign was interrupted (ctrl-c); 1 if it recorded sessions but could judge none
/// of them (every engine died, timed out or was rejected): the user asked for something that
/// could not be done. Every recorded session is in the archive either way.
/// 130 when interrupted; 1 when a campaign judged nothing at all. A resumed campaign whose last
/// sessions were all undecided (a slow program at the end) still holds the judged sessions of
/// its earlier runs: 0.
fn exit_code(
    tally: &morphtrace_recorder::tally::Tally,
    resumed: usize,
    interrupted: bool,
) -> ExitCode {
    if interrupted {
        ExitCode::from(130)
    } else if tally.nothing_judged() && resumed == 0 {
        if tally.undecided.is_empty() {
            eprintln!(
                "morphtrace-record: no session could be judged: no transformation applied to \
                 any of the {} initial sessions",
                tally.parents
            );
        } else {
            eprintln!(
                "morphtrace-record: no session could be judged ({} undecided: {})",
                tally.undecided_total(),
                morphtrace_recorder::tally::counts(&tally.undecided)
            );
        }
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `run --strategy coverage`: profilers are command-line tools and a warm Node, driven from
/// worker threads.
pub(crate) async fn coverage(r: RunArgs, command_line: Vec<String>) -> Result<ExitCode> {
    use morphtrace_recorder::cod;
    let seeds = parse_seeds(&r.seeds).map_err(anyhow::Error::msg)?;
    if let Some(d) = r.common.engines.iter().find(|e| !e.kind.is_profiler()) {
        bail!(
            "--strategy coverage records coverage profilers (gcov, llvm-cov, v8, coverage.py); {} is a debugger",
            d.kind
        );
    }
    if r.run_timeout.is_nan() || r.run_timeout <= 0.0 {
        bail!("--run-timeout must be positive");
    }
    let sources = cod::sources(&r.corpus)?;
    if sources.is_empty() {
        bail!("the corpus holds no programs");
    }
    let config = CampaignConfig {
        name: r
            .common
            .name
            .clone()
            .unwrap_or_else(|| "coverage campaign".into()),
        strategy: "coverage".into(),
        corpus: r.corpus.clone(),
        seeds: r.seeds.clone(),
        params: Vec::new(),
        command_line,
    };
    let (shard, out) = r.common.shard.resolve(&r.common.out)?;
    let opts = cod::Options {
        shard,
        variants: r.variants,
        run_timeout: Duration::from_secs_f64(r.run_timeout),
        truth: !r.no_truth,
        jobs: r.common.jobs.max(1),
        progress: std::io::stderr().is_terminal(),
        resume: r.common.resume,
        writer: WriterOptions::default(),
        csmith_cache: Some(morphtrace_recorder::corpus::csmith::cache_dir()),
        prelude: !r.common.no_prelude,
        python_start: r.common.python_start.into(),
    };
    if out.exists() && !opts.resume {
        bail!("{} exists (use --resume to continue it)", out.display());
    }
    let specs = r.common.engines.clone();
    let path = out.clone();
    let summary =
        tokio::task::spawn_blocking(move || cod::run(&specs, sources, &seeds, config, &opts, &out))
            .await??;
    print!("{summary}");
    println!("archive: {}", path.display());
    Ok(exit_code(
        &summary.tally,
        summary.skipped,
        summary.interrupted,
    ))
}

/// `run` with a debugger strategy: Algorithm 1's sessions, alone, in lockstep or in
/// metamorphic chains.
pub(crate) async fn debuggers(r: RunArgs, command_line: Vec<String>) -> Result<ExitCode> {
    let seeds = parse_seeds(&r.seeds).map_err(anyhow::Error::msg)?;
    if let Some(p) = r.common.engines.iter().find(|e| e.kind.is_profiler()) {
        bail!(
            "{} is a coverage profiler: record it with --strategy coverage",
            p.kind
        );
    }
    if r.common.engines.len() < 2 && r.strategy == Strategy::Differential {
        bail!("--strategy differential needs at least two --engine");
    }
    if !(0.0..=1.0).contains(&r.remove_prob) || r.bp_per_line < 0.0 {
        bail!("--remove-prob must be in 0..1 and --bp-per-line non-negative");
    }
    for (flag, w) in [
        ("--evaluate-weight", r.evaluate_weight),
        ("--condition-weight", r.condition_weight),
        ("--logpoint-weight", r.logpoint_weight),
        ("--set-variable-weight", r.set_variable_weight),
        ("--continue-weight", r.continue_weight),
        ("--restart-weight", r.restart_weight),
    ] {
        if !(w >= 0.0 && w.is_finite()) {
            bail!("{flag} must be a non-negative number");
        }
    }
    let exceptions = match r.pause_on_exceptions.as_deref() {
        None => None,
        Some(m) => Some(ExceptionChoice::parse(m).ok_or_else(|| {
            anyhow::anyhow!("--pause-on-exceptions {m}: expected none, uncaught, all or random")
        })?),
    };
    // C programs (LLDB, gdb) have DBDB's strategies, the debugger against itself (steps) and
    // two builds against each other (optimization), ground truth in an instrumented copy
    // (truth) so far; Go programs (Delve) DBDB's strategies and steps: the other oracles read
    // JavaScript or Python (program transformations).
    let native: [(Language, &[Strategy], &str); 2] = [
        (
            Language::C,
            &[
                Strategy::Random,
                Strategy::Differential,
                Strategy::Steps,
                Strategy::Optimization,
                Strategy::Truth,
            ],
            "random, differential, steps, optimization and truth do",
        ),
        (
            Language::Go,
            &[Strategy::Random, Strategy::Differential, Strategy::Steps],
            "random, differential and steps do",
        ),
    ];
    for (language, strategies, which) in native {
        let Some(e) = r
            .common
            .engines
            .iter()
            .find(|e| e.kind.debugs() == Some(language))
        else {
            continue;
        };
        if !strategies.contains(&r.strategy) {
            let name = r
                .strategy
                .to_possible_value()
                .map(|v| v.get_name().to_string())
                .unwrap_or_default();
            bail!(
                "{}: the {name} strategy does not know {language:?} programs yet (issue 71); \
                 {which}",
                e.kind
            );
        }
    }
    if r.strategy == Strategy::Optimization {
        if let Some(why) = dbdb::optimization::refusal(&r.common.engines) {
            bail!("{why}");
        }
    }
    let dir = tempfile::Builder::new()
        .prefix("morphtrace-programs-")
        .tempdir()?;
    let programs = corpus::load_specs(&r.corpus, dir.path())?;
    if programs.is_empty() {
        bail!("the corpus holds no programs");
    }
    // A debugger runs one language: a program in another would only meet a syntax error.
    for e in &r.common.engines {
        let Some(language) = e.kind.debugs() else {
            continue;
        };
        if let Some(p) = programs.iter().find(|p| p.program.language != language) {
            let name = match &p.program.origin {
                morphtrace_schema::ProgramOrigin::File { path } => path.clone(),
                _ => p.file.path.display().to_string(),
            };
            bail!(
                "{} debugs {language:?} programs, but the corpus holds {:?} ones (e.g. {}): \
                 give each language its own campaign",
                e.kind,
                p.program.language,
                name
            );
        }
    }
    // Ground truth in any program: an instrumented copy of each that records no state of its
    // own (a Python one made by the interpreter the campaign debugs on).
    let programs = if r.strategy == Strategy::Truth {
        let python = r
            .common
            .engines
            .iter()
            .find(|e| e.kind.debugs() == Some(Language::Python))
            .map(|e| e.executable.as_path());
        corpus::truth::instrument(programs, python, dir.path())?
    } else {
        programs
    };
    let params = RandomParams {
        bp_per_line: r.bp_per_line,
        max_breakpoints: r.max_breakpoints,
        remove_prob: r.remove_prob,
        max_actions: r.max_actions,
        evaluate_weight: r.evaluate_weight,
        condition_weight: r.condition_weight,
        logpoint_weight: r.logpoint_weight,
        set_variable_weight: r.set_variable_weight,
        continue_weight: r.continue_weight,
        restart_weight: r.restart_weight,
        sets_at_breakpoints: false,
        resumes_at_a_breakpoint: false,
        steps_into_pure_calls: false,
        placeable_lines: r.breakpoint_lines == crate::cli::BreakpointLines::Placeable,
        exceptions,
    };
    let name = match r.strategy {
        Strategy::Random => "random",
        Strategy::Differential => "differential",
        Strategy::Coverage => "coverage",
        Strategy::Metamorphic => "metamorphic",
        Strategy::Truth => "truth",
        Strategy::Steps => "steps",
        Strategy::Optimization => "optimization",
    };
    let transformations = if r.transformations.is_empty() {
        Transformation::TABLE1.to_vec()
    } else {
        let mut all: Vec<Transformation> = Vec::new();
        for &t in r.transformations.iter().flatten() {
            if !all.contains(&t) {
                all.push(t);
            }
        }
        all
    };
    // A relation asked for gets parents that carry what it needs (the weights recorded are
    // the ones used).
    let params = if r.strategy == Strategy::Metamorphic {
        metamorphic::carrying(&params, &transformations)
    } else {
        params
    };
    let tasks = if r.strategy == Strategy::Truth {
        dbdb::truth::tasks(&r.common.engines, &programs, &seeds, r.max_breakpoints)
    } else if r.strategy == Strategy::Steps {
        dbdb::steps::tasks(&r.common.engines, &programs, &seeds, r.max_pauses)
    } else if r.strategy == Strategy::Optimization {
        dbdb::optimization::tasks(&r.common.engines, &programs, &seeds, r.max_pauses)
    } else if r.strategy == Strategy::Metamorphic {
        metamorphic::tasks(
            &r.common.engines,
            &programs,
            &seeds,
            &params,
            r.rounds,
            &transformations,
        )
    } else {
        dbdb::generation_tasks(
            &r.common.engines,
            &programs,
            &seeds,
            r.strategy == Strategy::Differential,
            &params,
        )
    };
    let mut params_kv = if r.strategy == Strategy::Truth {
        vec![
            ("truth.max_points".into(), r.max_breakpoints.to_string()),
            (
                "truth.hits".into(),
                morphtrace_judges::truth::HITS.to_string(),
            ),
        ]
    } else if r.strategy == Strategy::Steps {
        vec![
            ("steps.max_pauses".into(), r.max_pauses.to_string()),
            ("steps.max_lines".into(), dbdb::steps::MAX_LINES.to_string()),
        ]
    } else if r.strategy == Strategy::Optimization {
        vec![
            ("optimization.max_pauses".into(), r.max_pauses.to_string()),
            (
                "optimization.reference".into(),
                r.common.engines[0].to_string(),
            ),
        ]
    } else {
        params.params()
    };
    if r.strategy == Strategy::Metamorphic {
        params_kv.push(("metamorphic.rounds".into(), r.rounds.to_string()));
        params_kv.push((
            "metamorphic.transformations".into(),
            transformations
                .iter()
                .map(|t| t.name())
                .collect::<Vec<_>>()
                .join(","),
        ));
    }
    let mut config = CampaignConfig {
        name: r
            .common
            .name
            .clone()
            .unwrap_or_else(|| format!("{name} campaign")),
        strategy: name.into(),
        corpus: r.corpus.clone(),
        seeds: r.seeds.clone(),
        params: params_kv,
        command_line,
    };
    let firefox = r
        .common
        .engines
        .iter()
        .any(|e| e.kind == EngineKind::Firefox);
    crate::cli::capture(&r.common)?
        .section(firefox)
        .write(&mut config);
    run_and_report(campaign_of(&r.common, programs, tasks, config, dir.path())?).await
}
