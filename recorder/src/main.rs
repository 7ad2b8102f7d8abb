//! `morphtrace-record`: drives real debuggers and records sessions into .mtrace archives.

use anyhow::{bail, Context, Result};
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use morphtrace_recorder::campaign::{self, Campaign, Task};
use morphtrace_recorder::cod;
use morphtrace_recorder::corpus;
use morphtrace_recorder::dbdb::{self, RandomParams};
use morphtrace_recorder::debugger::engines::{self, EngineSpec};
use morphtrace_recorder::debugger::rdp::BreakpointPolicy;
use morphtrace_recorder::debugger::CaptureOptions;
use morphtrace_recorder::metamorphic;
use morphtrace_recorder::parse_seeds;
use morphtrace_recorder::shard;
use morphtrace_schema::archive::WriterOptions;
use morphtrace_schema::dbdb::ComparisonPolicy;
use morphtrace_schema::{
    Action, ArchiveReader, CampaignConfig, EngineKind, EngineRef, Language, Shard,
};

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "morphtrace-record",
    version,
    about = "Record debugging sessions of real debuggers, and coverage of real profilers, into .mtrace archives",
    long_about = "Record debugging sessions of real debuggers into .mtrace trace archives. The recorder \
                  launches engines (Chromium and Node over CDP, Firefox over RDP) on ephemeral loopback \
                  ports with fresh profiles, generates debugging actions from a seeded generator (DBDB \
                  Algorithm 1), runs them on one debugger or in lockstep on several (differential), and \
                  appends every completed session to a crash-safe archive that morphtrace-analyze reads \
                  offline. With --strategy coverage it records coverage profilers (gcov, llvm-cov, V8) on \
                  programs and on variants pruned of code reported unexecuted (Cod).",
    after_help = "Examples:\n  morphtrace-record engines\n  morphtrace-record run --engine chromium --engine node \
                  --strategy differential --corpus corpus/dbdb --seeds 1..10 --out d.mtrace\n  \
                  morphtrace-record replay d.mtrace --engine node@22 --out replay.mtrace\n  \
                  morphtrace-record run --strategy coverage --engine gcov --engine llvm-cov \
                  --corpus csmith:1..200 --out c.mtrace"
)]
struct Cli {
    /// Log filter (e.g. `info`, `morphtrace_recorder=debug`); RUST_LOG also works.
    #[arg(long, global = true, default_value = "warn")]
    log: String,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the debuggers and coverage profilers found on this machine with their versions;
    /// list the Chromium and Deno versions installable on demand (--available), or install
    /// some ahead of a campaign (--install).
    Engines(EnginesArgs),
    /// Record a campaign: programs × seeds × engines with a strategy.
    Run(RunArgs),
    /// Re-issue the actions of recorded sessions on other engines or versions.
    Replay(ReplayArgs),
    /// GenMorph's executions: library functions (pinned npm lodash and mathjs) on coverage-guided
    /// source inputs, random evaluation inputs and their follow-ups, as the original, our swc
    /// training mutants and StrykerJS's evaluation mutants, one frame per function.
    Genmorph(GenmorphArgs),
    /// GenMorph's filtering step 2 (the role of OASIs): search inputs that make the original
    /// break relations proposed by `morphtrace-analyze genmorph search` (those that passed
    /// step 1, the evaluation inputs).
    Falsify(FalsifyArgs),
    /// Reduce a finding to the fewest actions and program lines that still show it, and write
    /// the reduced case with what each engine answered and a standalone reproducer into DIR: a
    /// divergence (the same type at the same kind of action, on the archive's engines), a
    /// metamorphic warning (the same relation violated the same way after the same
    /// transformation, repeated at the same place) or a coverage inconsistency (its class;
    /// C programs by C-Vise).
    Reduce(ReduceArgs),
    /// Find the version where a finding (a diverged session: the same divergence type at the
    /// same kind of action, as `reduce` judges it) appears or disappears: binary search over the
    /// available versions of one engine (Chromium and Deno from the npm registry, installed as
    /// probed; Node: those installed here), the session's other engines kept, both sides of the
    /// boundary probed twice. Every probe is an archive in --out. Exit 0 with a confirmed
    /// boundary, 1 otherwise.
    Bisect(BisectArgs),
    /// Profile one program as a coverage campaign would and say whether a class of
    /// inconsistency shows (exit 0) or not (exit 1): the interestingness test C-Vise runs when
    /// `reduce` reduces a C coverage finding.
    CoverageCheck(CoverageCheckArgs),
}

#[derive(Args)]
#[command(
    after_help = "Engines installable on demand (`--engine chromium@123`, `--engine deno@2.7`) come \
                  from the npm registry (@sparticuz/chromium: headless Chromium 92..153; \
                  @deno/linux-x64-glibc) and are kept in ~/.cache/morphtrace/engines \
                  ($MORPHTRACE_ENGINES or $MORPHTRACE_CACHE/engines to move it)."
)]
struct EnginesArgs {
    /// List the versions of KIND (chromium or deno) that can be installed, marking those in
    /// the cache.
    #[arg(long, value_name = "KIND", conflicts_with = "install")]
    available: Option<String>,
    /// Install these engines into the cache (`chromium@92`, `chromium@123.0.1`, `deno@2.7`)
    /// and check that each launches; several at once for a version matrix.
    #[arg(long, value_name = "SPEC", num_args = 1..)]
    install: Vec<String>,
}

#[derive(Args)]
struct CoverageCheckArgs {
    /// The program: C (`.c`) or JavaScript.
    program: PathBuf,
    /// Coverage profilers, as for `run --strategy coverage`.
    #[arg(long = "engine", required = true, value_parser = EngineSpec::parse)]
    engines: Vec<EngineSpec>,
    /// The class that must show, as `morphtrace-analyze classes` names it: `RELATION PROFILERS
    /// KIND SYNTAX`, e.g. `c2v gcov/llvm-cov strong break_statement`.
    #[arg(long)]
    class: String,
    /// Seed of the variants (Cod's P').
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Variants (P') per profiler.
    #[arg(long, default_value_t = 3)]
    variants: usize,
    /// Run-time limit of one program run.
    #[arg(long, default_value_t = 5.0)]
    run_timeout: f64,
    /// Run JavaScript without the determinism prelude.
    #[arg(long)]
    no_prelude: bool,
    /// Memory bound per engine, in MiB, as for `run` (the programs are as hostile here). 0: none.
    #[arg(long, default_value_t = 2048)]
    memory_limit: u64,
}

#[derive(Args)]
struct BisectArgs {
    /// Archive holding the session.
    archive: PathBuf,
    /// The diverged session: its id (16 hex digits) or its position in the archive (0-based).
    #[arg(long)]
    session: String,
    /// The range: `chromium@92..153`, `deno@2.0..2.9`, `node@20..24` (bounds are version
    /// prefixes, both included).
    #[arg(long)]
    versions: String,
    /// The kind of the session's engine each probed version replaces (default: its own kind).
    #[arg(long, value_name = "KIND")]
    in_place_of: Option<String>,
    /// Directory for the probes' archives and bisect.json (created; must not exist).
    #[arg(long)]
    out: PathBuf,
    /// Longest one probe session may take.
    #[arg(long, default_value_t = 60.0)]
    session_timeout: f64,
    /// Sessions that went on past divergences: which one to bisect, by its place in the session
    /// (0: the first; the analyzer's divergences frame's `index`). Probes then go on under the
    /// triage the archive recorded, as the recording did.
    #[arg(long, default_value_t = 0)]
    divergence: usize,
    /// Memory bound per engine, in MiB, as for `run` (the programs are as hostile here). 0: none.
    #[arg(long, default_value_t = 2048)]
    memory_limit: u64,
}

#[derive(Args)]
struct ReduceArgs {
    /// Archive holding the session.
    archive: PathBuf,
    /// The session: its id (16 hex digits) or its position in the archive (0-based); a
    /// diverged session, a follow-up with a warning, or a coverage session.
    #[arg(long)]
    session: String,
    /// Directory for the reduced case (created; must not exist).
    #[arg(long)]
    out: PathBuf,
    /// Stop reducing after this many seconds and keep the smallest case found so far.
    #[arg(long, default_value_t = 300.0)]
    budget: f64,
    /// Longest one candidate session may take.
    #[arg(long, default_value_t = 30.0)]
    session_timeout: f64,
    /// Coverage sessions: the class to keep (`RELATION PROFILERS KIND SYNTAX`, as
    /// `morphtrace-analyze classes` names it); default: the session's first inconsistency
    /// beyond the weak-noise filter.
    #[arg(long)]
    class: Option<String>,
    /// Differential sessions that went on past divergences: which one to reduce, by its place
    /// in the session (0: the first; the analyzer's divergences frame's `index`).
    #[arg(long, default_value_t = 0)]
    divergence: usize,
    /// Memory bound per engine, in MiB, as for `run` (the programs are as hostile here). 0: none.
    #[arg(long, default_value_t = 2048)]
    memory_limit: u64,
}

#[derive(Args)]
struct GenmorphArgs {
    /// Functions: names (`lodash.padStart`), packages (`lodash`, `mathjs`) or `all`; comma list.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    subjects: Vec<String>,
    /// Seed of every generator (inputs, mutant sampling).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Source inputs per function (coverage-adding ones first). More give more correct states
    /// and fewer overfitted relations (60 → 150: PZ 0.57 → 0.87 on four functions).
    #[arg(long, default_value_t = 150)]
    sources: usize,
    /// Evaluation inputs per function (random; never seen by the search).
    #[arg(long, default_value_t = 100)]
    evaluation: usize,
    /// Rounds of 32 candidates in the coverage loop.
    #[arg(long, default_value_t = 12)]
    rounds: usize,
    /// At most this many training mutants per function (a seeded sample of ours).
    #[arg(long, default_value_t = 150)]
    max_training: usize,
    /// Per-call budget in milliseconds before a call counts as a timeout.
    #[arg(long, default_value_t = 25)]
    timeout_ms: u64,
    /// The Node executable of the harness (default: `node` on PATH; `node@22` for a local one).
    #[arg(long)]
    node: Option<String>,
    /// Archive to write.
    #[arg(long)]
    out: PathBuf,
    /// Continue: functions already in --out are skipped.
    #[arg(long)]
    resume: bool,
    #[arg(long)]
    name: Option<String>,
    #[command(flatten)]
    shard: ShardArg,
}

#[derive(Args)]
struct FalsifyArgs {
    /// The archive the relations were searched on.
    archive: PathBuf,
    /// Relations (JSON) written by `morphtrace-analyze genmorph search --relations`.
    #[arg(long)]
    relations: PathBuf,
    /// Report (JSON) to write, read by `morphtrace-analyze genmorph table --falsified`.
    #[arg(long)]
    out: PathBuf,
    /// Pairs tried per function and input transformation.
    #[arg(long, default_value_t = 2_000)]
    budget: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 25)]
    timeout_ms: u64,
    /// A relation not falsified on fewer judged pairs than this (pairs whose call or relation
    /// threw or timed out are skipped, not judged) is undecided, not a survivor. Default: a
    /// tenth of --budget.
    #[arg(long)]
    min_judged: Option<u32>,
    #[arg(long)]
    node: Option<String>,
    /// Judge every relation, also those that failed filtering step 1: for a refinement round
    /// (`genmorph search --counterexamples`), where every counterexample is something to learn.
    #[arg(long)]
    all: bool,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Strategy {
    /// DBDB Algorithm 1 on each engine separately.
    Random,
    /// The same actions in lockstep on all engines, stopping at the first divergence.
    Differential,
    /// Coverage profilers (gcov, llvm-cov, v8): reports of each program and of variants pruned
    /// of code reported unexecuted (Cod), for offline judging.
    Coverage,
    /// Interactive metamorphic testing of each engine on its own (ISSTA 2019): a random initial
    /// session, then --rounds follow-ups, each transformed from its parent (Table 1) and judged
    /// against it while recording; a chain stops at its first warning.
    Metamorphic,
}

#[derive(Args, Clone)]
struct EngineArgs {
    /// An engine: `chromium`, `node`, `firefox`, `KIND=/path/to/executable`, `node@22` (project-local
    /// version installed by scripts/setup.sh), or a version installed on demand from the npm
    /// registry into the engine cache: `chromium@92` .. `chromium@153` (`chromium@123.0.1`),
    /// `deno`, `deno@2.7`. Repeat for several.
    #[arg(long = "engine", required = true, value_parser = EngineSpec::parse)]
    engines: Vec<EngineSpec>,
    /// Parallel workers, each with its own engines.
    #[arg(long, short = 'j', default_value_t = 2)]
    jobs: usize,
    /// Longest a session may take before it is recorded as a timeout and its engines restarted.
    #[arg(long, default_value_t = 60.0)]
    session_timeout: f64,
    /// Longest wait for a pause or the program's end after one action (non-terminating programs).
    #[arg(long, default_value_t = 5.0)]
    action_timeout: f64,
    /// Depth to which objects in variables are expanded.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Sessions prepared ahead of time per engine and worker (Chromium targets, Node processes).
    /// 0 also gives Firefox a new connection per session (the naive baseline).
    #[arg(long, default_value_t = 2)]
    node_pool: usize,
    /// Where Firefox breakpoints go: its server does not slide them, so morphtrace chooses from
    /// the breakable positions and records that it did (and under which policy).
    #[arg(long, value_enum, default_value = "next-breakable")]
    firefox_breakpoints: BreakpointPolicy,
    /// Memory bound per engine, in MiB: the resident memory of its processes (a browser's
    /// helpers included). A session that passes it is ended, with that reason, and its engine
    /// restarted. 0: no bound.
    #[arg(long, default_value_t = 2048)]
    memory_limit: u64,
    /// Relaunch Firefox after this many sessions (0: never), against memory growth.
    #[arg(long, default_value_t = 200)]
    restart_every: usize,
    /// Differential: the triage file whose by-design and representation rules lockstep goes on
    /// past (the divergence is recorded, the engines brought back in step: a breakpoint placed
    /// differently removed on every engine, an extra pause stepped past, a value shown
    /// differently compared on); with three engines or more a lone suspect is left out and the
    /// others go on. Default: the nearest triage.toml from the current directory up. The
    /// archive records the triage (path, digest, text).
    #[arg(long, value_name = "FILE", conflicts_with = "stop_at_first_divergence")]
    triage: Option<PathBuf>,
    /// Differential: stop every session at its first divergence (DBDB's lockstep), triaged or
    /// not.
    #[arg(long)]
    stop_at_first_divergence: bool,
    /// Run programs on the engine's own clock and random source. By default a blackboxed
    /// prelude script seeds Math.random and crypto and fixes Date, performance.now and
    /// process.hrtime before every program (its text and positions untouched), so that parent
    /// and follow-up, or two engines, see the same values; the archive's engine details say
    /// which was done.
    #[arg(long)]
    no_prelude: bool,
    /// Compare columns as well as lines (differential).
    #[arg(long)]
    compare_columns: bool,
    /// Do not compare variables (differential).
    #[arg(long)]
    ignore_variables: bool,
    /// Do not compare breakpoint outputs (differential).
    #[arg(long)]
    ignore_breakpoints: bool,
    /// Compare objects by kind and entries only, not by class name or description (differential
    /// across engine families: Firefox says `Object` where V8 says `Point`).
    #[arg(long)]
    ignore_object_shells: bool,
    /// Archive to write.
    #[arg(long)]
    out: PathBuf,
    /// Continue an interrupted campaign: sessions already in --out are skipped.
    #[arg(long)]
    resume: bool,
    /// Campaign name stored in the archive.
    #[arg(long)]
    name: Option<String>,
    #[command(flatten)]
    shard: ShardArg,
}

#[derive(Args, Clone)]
struct ShardArg {
    /// Record only the K-th of N deterministic parts of the campaign (balanced by expected
    /// cost), into OUT with `.shard-K-of-N` before its extension; `morphtrace-analyze merge`
    /// joins the shards. `auto` reads a Slurm array task (SLURM_ARRAY_TASK_ID, _MIN, _COUNT) or
    /// a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, with MORPHTRACE_SHARDS or `auto/N` for
    /// N). With --resume, continues that shard's own archive.
    #[arg(long, value_name = "K/N|auto|auto/N")]
    shard: Option<String>,
}

impl ShardArg {
    /// The shard asked for, and the archive it writes instead of `out`.
    fn resolve(&self, out: &std::path::Path) -> Result<(Option<Shard>, PathBuf)> {
        match &self.shard {
            None => Ok((None, out.to_path_buf())),
            Some(spec) => {
                let s = shard::resolve(spec, |k| std::env::var(k).ok())
                    .map_err(|e| anyhow::anyhow!("--shard: {e}"))?;
                Ok((Some(s), shard::archive_path(out, s)))
            }
        }
    }
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    common: EngineArgs,
    /// Programs: files, directories (searched for *.js) or globs; `test262:PATH` for test262 tests
    /// (assembled with their harness, strict and non-strict variants). Repeat for several.
    #[arg(long, required = true)]
    corpus: Vec<String>,
    /// Seeds: `7`, `1..50` (inclusive) or a comma list.
    #[arg(long, default_value = "1")]
    seeds: String,
    #[arg(long, value_enum, default_value_t = Strategy::Random)]
    strategy: Strategy,
    /// Breakpoints per program line (DBDB: 0.1).
    #[arg(long, default_value_t = 0.1)]
    bp_per_line: f64,
    /// Probability of removing a breakpoint right after setting it (DBDB: 0.2).
    #[arg(long, default_value_t = 0.2)]
    remove_prob: f64,
    /// Control actions per session at most (DBDB: 20).
    #[arg(long, default_value_t = 20)]
    max_actions: u32,
    /// Coverage: variants (P') per program and profiler.
    #[arg(long, default_value_t = 3)]
    variants: usize,
    /// Coverage: run-time limit of one program run; programs that run longer are rejected.
    #[arg(long, default_value_t = 5.0)]
    run_timeout: f64,
    /// Coverage: skip the ground truth of JavaScript programs (an instrumented copy counting
    /// every statement).
    #[arg(long)]
    no_truth: bool,
    /// Metamorphic: follow-up rounds after the initial session (the paper: 5).
    #[arg(long, default_value_t = 5)]
    rounds: u32,
    /// Metamorphic: the transformations to choose from (comma list; default: all of Table 1):
    /// add-breakpoint-and-continue, replace-continue-by-step, breakpoint-sliding,
    /// insert-dead-code, remove-dead-code, add-parameter, add-no-op,
    /// integer-literal-to-expression, boolean-literal-to-expression.
    #[arg(long, value_delimiter = ',', value_parser = transformation)]
    transformations: Vec<&'static str>,
}

fn transformation(s: &str) -> Result<&'static str, String> {
    metamorphic::transformation_named(s).ok_or_else(|| {
        format!(
            "unknown transformation {s}; one of: {}",
            morphtrace_schema::metamorphic::ALL.join(", ")
        )
    })
}

#[derive(Args)]
#[command(after_help = "Two forms:\n  \
    replay d.mtrace --engine node@24 --out r.mtrace\n      the sessions on exactly the \
    engines given, in lockstep, into one archive\n  \
    replay d.mtrace --engine chromium@92 --engine chromium@110 --engine chromium@153 --out DIR\n      \
    a version matrix (--out is a directory: it exists, or its name does not end in .mtrace): \
    one archive per --engine, DIR/KIND@VERSION.mtrace, in which that engine takes the place of \
    the archive's engine of its kind (or of --in-place-of KIND) and the archive's other engines \
    stay; the versions one after another, each over all workers. `morphtrace-analyze versions \
    DIR` then tabulates classes x versions.")]
struct ReplayArgs {
    /// Archive whose sessions are replayed.
    archive: PathBuf,
    /// Version matrix: the kind of the archive's engine that each --engine replaces (default:
    /// the engine's own kind), e.g. `--engine deno --in-place-of node`.
    #[arg(long, value_name = "KIND")]
    in_place_of: Option<String>,
    #[command(flatten)]
    common: EngineArgs,
}

/// A replay captures as the archive was recorded (depth, Firefox's breakpoint policy, action
/// timeout, the prelude) unless the command line says otherwise: other options could make a
/// difference the replay then reports ours.
fn inherit_recorded_capture(r: &mut ReplayArgs, m: &ArgMatches) {
    let Ok(reader) = ArchiveReader::open(&r.archive) else {
        return; // `replay` reports the unreadable archive itself.
    };
    let header = reader.header();
    let engines: Vec<&morphtrace_schema::EngineDescriptor> = header.engines.iter().collect();
    let recorded = CaptureOptions::recorded(header, &engines);
    let given = |id: &str| m.value_source(id) == Some(ValueSource::CommandLine);
    let c = &mut r.common;
    if !given("depth") {
        c.depth = recorded.depth;
    }
    if !given("action_timeout") {
        c.action_timeout = recorded.action_timeout.as_secs_f64();
    }
    if !given("firefox_breakpoints") {
        c.firefox_breakpoints = recorded.breakpoint_policy;
    }
    if !given("no_prelude") {
        c.no_prelude = !recorded.prelude;
    }
}

/// Whether `out` names a version matrix's directory rather than one archive.
fn is_matrix_dir(out: &std::path::Path) -> bool {
    out.is_dir() || out.extension().is_none_or(|e| e != "mtrace")
}

/// The strategies that use each strategy-specific flag of `run`; the others refuse it, so that a
/// flag given to the wrong strategy is never silently ignored.
const STRATEGY_FLAGS: &[(&str, &[Strategy])] = {
    use Strategy::*;
    &[
        ("bp_per_line", &[Random, Differential, Metamorphic]),
        ("remove_prob", &[Random, Differential, Metamorphic]),
        ("max_actions", &[Random, Differential, Metamorphic]),
        ("variants", &[Coverage]),
        ("run_timeout", &[Coverage]),
        ("no_truth", &[Coverage]),
        ("rounds", &[Metamorphic]),
        ("transformations", &[Metamorphic]),
        ("compare_columns", &[Differential]),
        ("ignore_variables", &[Differential]),
        ("ignore_breakpoints", &[Differential]),
        ("ignore_object_shells", &[Differential]),
        ("session_timeout", &[Random, Differential, Metamorphic]),
        ("action_timeout", &[Random, Differential, Metamorphic]),
        ("depth", &[Random, Differential, Metamorphic]),
        ("node_pool", &[Random, Differential, Metamorphic]),
        ("firefox_breakpoints", &[Random, Differential, Metamorphic]),
        ("restart_every", &[Random, Differential, Metamorphic]),
        ("no_prelude", &[Random, Differential, Metamorphic, Coverage]),
    ]
};

/// Refuses a strategy-specific flag given (on the command line) to a strategy that does not use it.
fn check_strategy_flags(run: &ArgMatches, strategy: Strategy) -> Result<(), String> {
    let name = |s: Strategy| s.to_possible_value().map(|v| v.get_name().to_string());
    for (id, fits) in STRATEGY_FLAGS {
        if fits.contains(&strategy) || run.value_source(id) != Some(ValueSource::CommandLine) {
            continue;
        }
        let flag = format!("--{}", id.replace('_', "-"));
        let users: Vec<String> = fits.iter().filter_map(|s| name(*s)).collect();
        return Err(format!(
            "{flag} does not apply to --strategy {}: it is for --strategy {}",
            name(strategy).unwrap_or_default(),
            users.join(" or ")
        ));
    }
    Ok(())
}

fn main() -> ExitCode {
    morphtrace_recorder::child::adopt_orphans();
    let matches = Cli::command().get_matches();
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    if let (Command::Replay(r), Some(("replay", m))) = (&mut cli.command, matches.subcommand()) {
        inherit_recorded_capture(r, m);
    }
    if let (Command::Run(r), Some(("run", m))) = (&cli.command, matches.subcommand()) {
        if let Err(msg) = check_strategy_flags(m, r.strategy) {
            Cli::command()
                .error(clap::error::ErrorKind::ArgumentConflict, msg)
                .exit();
        }
    }
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(&cli.log));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("morphtrace-record: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = rt.block_on(run(cli));
    // Engines are shut down; their helpers may still be exiting: wait for them (and reap them)
    // so that nothing the recorder started outlives it.
    rt.shutdown_timeout(Duration::from_secs(2));
    morphtrace_recorder::child::reap_all(Duration::from_secs(5));
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("morphtrace-record: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Divergence `k` of `session` (0: its first), or why there is none (`why`: what the command
/// needs).
fn nth_divergence(
    session: &morphtrace_schema::Session,
    k: usize,
    why: &str,
) -> Result<morphtrace_schema::Divergence> {
    let all = session.all_divergences();
    if all.is_empty() {
        bail!(
            "session {} did not diverge ({}): {why}",
            session.id,
            session.outcome.name()
        );
    }
    all.get(k).cloned().with_context(|| {
        format!(
            "session {} has no divergence {k} (it has {}; 0 is the first)",
            session.id,
            all.len()
        )
    })
}

/// The triage an archive's campaign went on under (`lockstep.triage.text`), if it recorded one.
fn recorded_triage(reader: &ArchiveReader) -> Result<Option<morphtrace_schema::triage::Triage>> {
    let Some(text) = reader.header().campaign.param("lockstep.triage.text") else {
        return Ok(None);
    };
    let t = morphtrace_schema::triage::Triage::parse(
        text,
        std::path::Path::new("the archive's lockstep.triage"),
    )
    .context("the triage the archive recorded")?;
    Ok(Some(t))
}

/// The triage lockstep goes on under: `--triage FILE`, else the nearest triage.toml (none:
/// sessions stop at their first divergence, as with --stop-at-first-divergence).
fn lockstep_triage(
    a: &EngineArgs,
) -> Result<Option<std::sync::Arc<morphtrace_schema::triage::Triage>>> {
    if a.stop_at_first_divergence {
        return Ok(None);
    }
    let t = morphtrace_schema::triage::find(a.triage.as_deref())?;
    Ok(t.path.is_some().then(|| std::sync::Arc::new(t)))
}

fn capture(a: &EngineArgs) -> Result<CaptureOptions> {
    if !(a.action_timeout > 0.0 && a.session_timeout > 0.0) {
        bail!("timeouts must be positive");
    }
    Ok(CaptureOptions {
        depth: a.depth,
        action_timeout: Duration::from_secs_f64(a.action_timeout),
        breakpoint_policy: a.firefox_breakpoints,
        restart_every: a.restart_every,
        prelude: !a.no_prelude,
        ..CaptureOptions::default()
    })
}

/// Runs a campaign and prints its summary.
async fn run_and_report(c: Campaign) -> Result<ExitCode> {
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
async fn run_coverage(r: RunArgs, command_line: Vec<String>) -> Result<ExitCode> {
    use morphtrace_recorder::cod;
    let seeds = parse_seeds(&r.seeds).map_err(anyhow::Error::msg)?;
    if let Some(d) = r.common.engines.iter().find(|e| !e.kind.is_profiler()) {
        bail!(
            "--strategy coverage records coverage profilers (gcov, llvm-cov, v8); {} is a debugger",
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
        csmith_cache: Some(cod::csmith::cache_dir()),
        prelude: !r.common.no_prelude,
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

fn harness_node(spec: &Option<String>) -> Result<PathBuf> {
    match spec {
        None => {
            engines::which("node").context("no `node` on PATH (the GenMorph harness runs in Node)")
        }
        Some(s) if s.starts_with("node@") || s == "node" => {
            Ok(EngineSpec::parse(s).map_err(anyhow::Error::msg)?.executable)
        }
        Some(path) => Ok(PathBuf::from(path)),
    }
}

fn genmorph(g: GenmorphArgs, command_line: Vec<String>) -> Result<ExitCode> {
    use morphtrace_recorder::genmorph::{self, record, subjects};
    let (shard, out) = g.shard.resolve(&g.out)?;
    if out.exists() && !g.resume {
        bail!("{} exists (use --resume to continue it)", out.display());
    }
    if g.sources == 0 || g.timeout_ms == 0 {
        bail!("--sources and --timeout-ms must be positive");
    }
    let specs = subjects::select(&g.subjects)?;
    let options = record::Options {
        seed: g.seed,
        sources: g.sources,
        evaluation: g.evaluation,
        rounds: g.rounds.max(1),
        max_training: g.max_training,
        timeout_ms: g.timeout_ms,
        ..record::Options::default()
    };
    let params = vec![
        ("sources".to_string(), g.sources.to_string()),
        ("evaluation".to_string(), g.evaluation.to_string()),
        ("rounds".to_string(), options.rounds.to_string()),
        ("max_training".to_string(), g.max_training.to_string()),
        ("timeout_ms".to_string(), g.timeout_ms.to_string()),
    ];
    let config = CampaignConfig {
        name: g
            .name
            .clone()
            .unwrap_or_else(|| "genmorph executions".into()),
        strategy: "genmorph".into(),
        corpus: specs.iter().map(|s| s.name.to_string()).collect(),
        seeds: g.seed.to_string(),
        params,
        command_line,
    };
    let summary = genmorph::record_all(genmorph::Campaign {
        node: harness_node(&g.node)?,
        subjects: specs,
        options,
        out: out.clone(),
        resume: g.resume,
        config,
        progress: std::io::stderr().is_terminal(),
        shard,
    })?;
    print!("{summary}");
    println!("archive: {}", out.display());
    Ok(if summary.interrupted {
        println!("interrupted: continue with --resume");
        ExitCode::from(130)
    } else if summary.counts.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn falsify(f: FalsifyArgs) -> Result<ExitCode> {
    use morphtrace_recorder::genmorph::{falsify, harness};
    use morphtrace_schema::genmorph::relations::{FalsificationReport, RelationSet};
    let text = std::fs::read_to_string(&f.relations)
        .with_context(|| format!("reading {}", f.relations.display()))?;
    let set: RelationSet = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a relations file", f.relations.display()))?;
    let reader = ArchiveReader::open(&f.archive)
        .with_context(|| format!("opening {}", f.archive.display()))?;
    let mut h = harness::Harness::start(&harness_node(&f.node)?)?;
    let opts = falsify::Options {
        seed: f.seed,
        budget: f.budget,
        timeout_ms: f.timeout_ms,
        min_judged: f
            .min_judged
            .unwrap_or_else(|| falsify::Options::default_min_judged(f.budget)),
    };
    let mut results = Vec::new();
    let mut missing: Vec<String> = set.relations.iter().map(|r| r.subject.clone()).collect();
    missing.sort();
    missing.dedup();
    let bar = morphtrace_recorder::progress_bar(
        reader.execution_count(),
        std::io::stderr().is_terminal(),
    );
    for i in 0..reader.execution_count() {
        bar.inc(1);
        let batch = reader.executions(i)?;
        let rels: Vec<_> = set
            .relations
            .iter()
            // Step 2 judges what step 1 left.
            .filter(|r| r.subject == batch.subject.name && (f.all || r.evaluation_fp == 0))
            .cloned()
            .collect();
        missing.retain(|m| *m != batch.subject.name);
        if rels.is_empty() {
            continue;
        }
        bar.set_message(batch.subject.name.clone());
        results.extend(falsify::falsify(
            &mut h,
            &harness::js_dir(),
            &batch,
            &rels,
            &opts,
        )?);
    }
    bar.finish_and_clear();
    if !missing.is_empty() {
        bail!(
            "{} has no executions of {}",
            f.archive.display(),
            missing.join(", ")
        );
    }
    let n = results.iter().filter(|r| r.falsified).count();
    let undecided = results.iter().filter(|r| r.undecided.is_some()).count();
    let skipped: u64 = results.iter().map(|r| u64::from(r.skipped)).sum();
    let report = FalsificationReport {
        seed: f.seed,
        budget: f.budget,
        node: h.node_version.clone(),
        relations_digest: Some(set.digest()),
        min_judged: opts.min_judged,
        results,
    };
    std::fs::write(&f.out, serde_json::to_string_pretty(&report)?)
        .with_context(|| format!("writing {}", f.out.display()))?;
    println!(
        "{n} of {} relations falsified, {undecided} undecided (fewer than {} judged pairs), \
         {skipped} pairs skipped (a call or the relation threw or timed out); report: {}",
        report.results.len(),
        opts.min_judged,
        f.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn policy(a: &EngineArgs) -> ComparisonPolicy {
    ComparisonPolicy {
        columns: a.compare_columns,
        variables: !a.ignore_variables,
        breakpoints: !a.ignore_breakpoints,
        object_shells: !a.ignore_object_shells,
        ..ComparisonPolicy::default()
    }
}

fn campaign_of(
    a: &EngineArgs,
    programs: Vec<corpus::Loaded>,
    tasks: Vec<Task>,
    config: CampaignConfig,
    workdir: &std::path::Path,
) -> Result<Campaign> {
    let (shard, out) = a.shard.resolve(&a.out)?;
    Ok(Campaign {
        specs: a.engines.clone(),
        programs,
        tasks,
        config,
        policy: policy(a),
        triage: lockstep_triage(a)?,
        capture: capture(a)?,
        jobs: a.jobs.max(1),
        session_timeout: Duration::from_secs_f64(a.session_timeout),
        node_pool: a.node_pool,
        out,
        resume: a.resume,
        writer: WriterOptions::default(),
        progress: std::io::stderr().is_terminal(),
        workdir: workdir.to_path_buf(),
        shard,
    })
}

async fn run(cli: Cli) -> Result<ExitCode> {
    let command_line: Vec<String> = std::env::args().collect();
    let _memory_guard = match &cli.command {
        Command::Run(RunArgs { common, .. }) | Command::Replay(ReplayArgs { common, .. }) => {
            morphtrace_recorder::memory::Guard::start(common.memory_limit)
        }
        // Every command that runs programs-to-debug bounds their engines' memory.
        Command::Reduce(ReduceArgs { memory_limit, .. })
        | Command::Bisect(BisectArgs { memory_limit, .. })
        | Command::CoverageCheck(CoverageCheckArgs { memory_limit, .. }) => {
            morphtrace_recorder::memory::Guard::start(*memory_limit)
        }
        _ => None,
    };
    match cli.command {
        Command::Engines(EnginesArgs {
            available: Some(kind),
            ..
        }) => list_available(&kind),
        Command::Engines(EnginesArgs { install, .. }) if !install.is_empty() => {
            install_engines(&install).await
        }
        Command::Engines(_) => {
            let found = engines::discover();
            if found.is_empty() {
                println!("no debuggers found (run scripts/setup.sh)");
            }
            for spec in found {
                if let Err(err) = launch_and_print(&spec).await {
                    println!("{spec}: unusable: {err}");
                }
            }
            // Coverage profilers: versions from the tools themselves.
            use morphtrace_recorder::cod::c_profilers::{CProfiler, CTools};
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
            match morphtrace_recorder::cod::csmith::version() {
                Ok(v) => println!("{:<28} {:<10} {v}", "csmith", "generator"),
                Err(e) => println!("csmith: unusable: {e}"),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Genmorph(g) => {
            tokio::task::spawn_blocking(move || genmorph(g, command_line)).await?
        }
        Command::Falsify(f) => tokio::task::spawn_blocking(move || falsify(f)).await?,
        Command::Reduce(r) => reduce(r).await,
        Command::Bisect(b) => bisect(b, command_line).await,
        Command::CoverageCheck(c) => coverage_check(c).await,
        Command::Run(r) if r.strategy == Strategy::Coverage => run_coverage(r, command_line).await,
        Command::Run(r) => {
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
            let dir = tempfile::Builder::new()
                .prefix("morphtrace-programs-")
                .tempdir()?;
            let programs = corpus::load_specs(&r.corpus, dir.path())?;
            if programs.is_empty() {
                bail!("the corpus holds no programs");
            }
            let params = RandomParams {
                bp_per_line: r.bp_per_line,
                remove_prob: r.remove_prob,
                max_actions: r.max_actions,
            };
            let name = match r.strategy {
                Strategy::Random => "random",
                Strategy::Differential => "differential",
                Strategy::Coverage => "coverage",
                Strategy::Metamorphic => "metamorphic",
            };
            let transformations = if r.transformations.is_empty() {
                morphtrace_schema::metamorphic::ALL.to_vec()
            } else {
                r.transformations.clone()
            };
            let tasks = if r.strategy == Strategy::Metamorphic {
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
            let mut params_kv = params.params();
            if r.strategy == Strategy::Metamorphic {
                params_kv.push(("metamorphic.rounds".into(), r.rounds.to_string()));
                params_kv.push((
                    "metamorphic.transformations".into(),
                    transformations.join(","),
                ));
            }
            params_kv.push(("capture.depth".into(), r.common.depth.to_string()));
            if r.common
                .engines
                .iter()
                .any(|e| e.kind == EngineKind::Firefox)
            {
                params_kv.push((
                    "firefox.breakpoints".into(),
                    r.common.firefox_breakpoints.name().into(),
                ));
            }
            params_kv.push((
                "action_timeout_s".into(),
                r.common.action_timeout.to_string(),
            ));
            let config = CampaignConfig {
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
            run_and_report(campaign_of(&r.common, programs, tasks, config, dir.path())?).await
        }
        Command::Replay(r) if is_matrix_dir(&r.common.out) => replay_matrix(r, command_line).await,
        Command::Replay(r) => {
            let reader = open_replayed(&r.archive)?;
            let engines = r.common.engines.clone();
            replay(&r, &reader, engines, r.common.clone(), command_line).await
        }
    }
}

fn open_replayed(archive: &std::path::Path) -> Result<ArchiveReader> {
    let reader =
        ArchiveReader::open(archive).with_context(|| format!("reading {}", archive.display()))?;
    if !reader.recovery().is_intact() {
        eprintln!(
            "morphtrace-record: {}: {}",
            archive.display(),
            reader.recovery()
        );
    }
    Ok(reader)
}

/// The archive's sessions replayed on `engines` in lockstep into `common.out`.
async fn replay(
    r: &ReplayArgs,
    reader: &ArchiveReader,
    engines: Vec<EngineSpec>,
    mut common: EngineArgs,
    command_line: Vec<String>,
) -> Result<ExitCode> {
    common.engines = engines;
    let dir = tempfile::Builder::new()
        .prefix("morphtrace-programs-")
        .tempdir()?;
    let replay = morphtrace_recorder::dbdb::replay::tasks(reader, &common.engines, dir.path())?;
    for why in &replay.undecodable {
        eprintln!("morphtrace-record: skipping a session: {why}");
    }
    let (loaded, tasks) = (replay.programs, replay.tasks);
    let config = CampaignConfig {
        name: common
            .name
            .clone()
            .unwrap_or_else(|| format!("replay of {}", r.archive.display())),
        strategy: "replay".into(),
        corpus: vec![r.archive.display().to_string()],
        seeds: reader.header().campaign.seeds.clone(),
        params: vec![
            (
                "replay_of_campaign".into(),
                reader.header().campaign.name.clone(),
            ),
            // What it captured with (inherited from the archive unless given): a reduction or
            // bisection of a replayed session reruns it alike.
            ("capture.depth".into(), common.depth.to_string()),
            (
                "firefox.breakpoints".into(),
                common.firefox_breakpoints.name().into(),
            ),
            ("action_timeout_s".into(), common.action_timeout.to_string()),
        ],
        command_line,
    };
    run_and_report(campaign_of(&common, loaded, tasks, config, dir.path())?).await
}

/// The name of a version in a matrix: `chromium@92.0.0` (the cache's package version),
/// `node@22` (project-local), or the kind and the version the engine reports.
fn matrix_label(spec: &EngineSpec) -> String {
    if let Some(p) = engines::cache::package_of(&spec.executable) {
        let version = p.rsplit('@').next().unwrap_or(&p);
        return format!("{}@{version}", spec.kind);
    }
    if let Some(major) = engines::node_major(&spec.executable) {
        return format!("{}@{major}", spec.kind);
    }
    format!("{}@system", spec.kind)
}

/// `replay ARCHIVE --engine V1 --engine V2 ... --out DIR`: one archive per version.
async fn replay_matrix(r: ReplayArgs, command_line: Vec<String>) -> Result<ExitCode> {
    let reader = open_replayed(&r.archive)?;
    let recorded: Vec<EngineSpec> = reader.header().engines.iter().map(EngineSpec::of).collect();
    let mut plans = Vec::new();
    let mut names = std::collections::HashSet::new();
    for v in &r.common.engines {
        let replaced = r
            .in_place_of
            .as_deref()
            .map(EngineKind::parse)
            .unwrap_or_else(|| v.kind.clone());
        let Some(j) = recorded.iter().position(|e| e.kind == replaced) else {
            bail!(
                "{} has no {replaced} engine for {} to take the place of (its engines: {}); \
                 say which with --in-place-of KIND",
                r.archive.display(),
                v.kind,
                recorded
                    .iter()
                    .map(|e| e.kind.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        };
        let mut engines = recorded.clone();
        engines[j] = v.clone();
        if let Some(missing) = engines.iter().find(|e| !e.executable.is_file()) {
            bail!(
                "the archive's {} ({}) is not on this machine: replay on a machine that has it, \
                 or give the engines in lockstep with --out FILE.mtrace",
                missing.kind,
                missing.executable.display()
            );
        }
        let mut name = matrix_label(v);
        let mut n = 2;
        while !names.insert(name.clone()) {
            name = format!("{}-{n}", matrix_label(v));
            n += 1;
        }
        plans.push((name, engines));
    }
    std::fs::create_dir_all(&r.common.out)
        .with_context(|| format!("creating {}", r.common.out.display()))?;
    let mut worst = ExitCode::SUCCESS;
    for (i, (name, engines)) in plans.into_iter().enumerate() {
        let mut common = r.common.clone();
        common.out = r.common.out.join(format!("{name}.mtrace"));
        common.name = Some(format!(
            "{} on {name}",
            r.common
                .name
                .clone()
                .unwrap_or_else(|| format!("replay of {}", r.archive.display()))
        ));
        println!(
            "== {name} ({} of {}): {}",
            i + 1,
            r.common.engines.len(),
            engines
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join(" + ")
        );
        match replay(&r, &reader, engines, common, command_line.clone()).await {
            Ok(code) if code == ExitCode::SUCCESS => {}
            Ok(code) => worst = code,
            Err(e) => {
                // One version that cannot run (too old for a method, missing libraries) does
                // not cost the others.
                eprintln!("morphtrace-record: {name}: {e:#}");
                worst = ExitCode::FAILURE;
            }
        }
    }
    Ok(worst)
}

/// Launches `spec` once and prints the line `engines` lists it with: label, protocol, the
/// JavaScript engine's version, executable.
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
    let source = cache::Source::of(&k)
        .with_context(|| format!("{kind} is not installable on demand (chromium, deno are)"))?;
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

/// The session `--session` names: its id (16 hex digits) or its position in the archive.
fn session_arg(
    reader: &ArchiveReader,
    arg: &str,
    archive: &std::path::Path,
) -> Result<morphtrace_schema::Session> {
    match u64::from_str_radix(arg, 16) {
        Ok(id) if arg.len() == 16 => reader
            .session_by_id(morphtrace_schema::SessionId(id))
            .with_context(|| format!("no session {arg} in {}", archive.display())),
        _ => {
            let i: usize = arg.parse().map_err(|_| {
                anyhow::anyhow!("--session: 16 hex digits or a position, not {arg:?}")
            })?;
            reader
                .session(i)
                .with_context(|| format!("session {i} of {}", archive.display()))
        }
    }
}

/// `bisect`: where a diverged session's finding appears or disappears among versions.
async fn bisect(b: BisectArgs, command_line: Vec<String>) -> Result<ExitCode> {
    use morphtrace_recorder::bisect::{self, Probe, Verdict};
    use morphtrace_recorder::reduce::Finding;
    if b.out.exists() {
        bail!("{} exists: give a new directory", b.out.display());
    }
    let reader = open_replayed(&b.archive)?;
    let session = session_arg(&reader, &b.session, &b.archive)?;
    let divergence = nth_divergence(&session, b.divergence, "bisect looks for a divergence")?;
    // Probes go on past what the recording went on past, under the triage it recorded.
    let triage = if b.divergence > 0 {
        recorded_triage(&reader)?.map(std::sync::Arc::new)
    } else {
        None
    };
    let finding = Finding::of(&divergence);
    let at = divergence.action_index;
    let (kind, low, high) = bisect::parse_range(&b.versions)?;
    let header = reader.header();
    let recorded: Vec<EngineSpec> = session
        .engines
        .iter()
        .map(|e| {
            header
                .engines
                .get(e.0 as usize)
                .map(EngineSpec::of)
                .context("the session names an engine the header lacks")
        })
        .collect::<Result<_>>()?;
    let replaced = b
        .in_place_of
        .as_deref()
        .map(EngineKind::parse)
        .unwrap_or_else(|| kind.clone());
    let j = recorded
        .iter()
        .position(|e| e.kind == replaced)
        .with_context(|| {
            format!(
                "session {} ran no {replaced} engine for {kind} to take the place of; say which \
                 with --in-place-of KIND",
                session.id
            )
        })?;
    let candidates =
        tokio::task::spawn_blocking(move || bisect::candidates(&kind, &low, &high)).await??;
    println!(
        "bisecting {finding} (session {}) over {} versions: {} .. {}",
        session.id,
        candidates.len(),
        candidates[0].spec,
        candidates[candidates.len() - 1].spec
    );
    let descriptors: Vec<&morphtrace_schema::EngineDescriptor> = session
        .engines
        .iter()
        .filter_map(|e| header.engines.get(e.0 as usize))
        .collect();
    let capture = CaptureOptions::recorded(header, &descriptors);
    let policy = ComparisonPolicy::from_params(&header.campaign.params);
    std::fs::create_dir_all(&b.out).with_context(|| format!("creating {}", b.out.display()))?;
    let work = tempfile::Builder::new()
        .prefix("morphtrace-programs-")
        .tempdir()?;
    let mut counter = 0usize;
    let probe = |i: usize| {
        counter += 1;
        let n = counter;
        let c = candidates[i].clone();
        let mut engines = recorded.clone();
        let (capture, policy, work) = (capture.clone(), policy.clone(), work.path().to_path_buf());
        let (reader, out, finding) = (&reader, b.out.clone(), finding.clone());
        let (session_id, timeout) = (session.id, b.session_timeout);
        let command_line = command_line.clone();
        let archive = b.archive.display().to_string();
        let triage = triage.clone();
        async move {
            let undecided = |note: String| Probe {
                index: i,
                shows: None,
                note,
            };
            let spec = match tokio::task::spawn_blocking({
                let s = c.spec.clone();
                move || EngineSpec::parse(&s)
            })
            .await
            {
                Ok(Ok(spec)) => spec,
                Ok(Err(e)) => return undecided(format!("not installable: {e}")),
                Err(e) => return undecided(e.to_string()),
            };
            engines[j] = spec;
            let replay = match morphtrace_recorder::dbdb::replay::tasks(reader, &engines, &work) {
                Ok(r) => r,
                Err(e) => return undecided(e.to_string()),
            };
            let tasks: Vec<Task> = replay
                .tasks
                .into_iter()
                .filter(|t| t.parent.is_some_and(|p| p.session == session_id))
                .collect();
            let path = out.join(format!("probe-{n:02}-{}.mtrace", c.spec));
            let campaign = Campaign {
                specs: engines,
                programs: replay.programs,
                tasks,
                config: CampaignConfig {
                    name: format!("bisect probe {n}: session {session_id} on {}", c.spec),
                    strategy: "replay".into(),
                    corpus: vec![archive],
                    seeds: session.seed.to_string(),
                    params: vec![("bisect.finding".into(), finding.to_string())],
                    command_line,
                },
                policy,
                // A probe asks whether the finding shows: the first divergence, or a later one
                // under the triage the recording went on under.
                triage,
                capture,
                jobs: 1,
                session_timeout: Duration::from_secs_f64(timeout),
                node_pool: 1,
                out: path.clone(),
                resume: false,
                writer: WriterOptions::default(),
                progress: false,
                workdir: work,
                shard: None,
            };
            match tokio::task::spawn_blocking(move || campaign::run(campaign)).await {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => return undecided(e.to_string()),
                Err(e) => return undecided(e.to_string()),
            }
            judge_probe(i, &path, &finding, at)
        }
    };
    let (verdict, probes) = bisect::search(candidates.len(), probe).await;
    let mut log = String::new();
    for p in &probes {
        let shows = match p.shows {
            Some(true) => "shows",
            Some(false) => "absent",
            None => "undecided",
        };
        log.push_str(&format!(
            "  {:<22} {shows:<9} {}\n",
            candidates[p.index].spec, p.note
        ));
    }
    print!("{log}");
    let summary = match &verdict {
        Verdict::Boundary {
            before,
            after,
            appears,
            confirmed,
        } => format!(
            "{finding} {} between {} and {}{}",
            if *appears { "appears" } else { "disappears" },
            candidates[*before].spec,
            candidates[*after].spec,
            if *confirmed {
                " (both sides probed twice)"
            } else if probes.iter().rev().take(2).any(|p| p.shows.is_none()) {
                " (NOT confirmed: a second probe could not be judged)"
            } else {
                " (NOT confirmed: a second probe answered differently)"
            }
        ),
        Verdict::OneEnd { index, shows } => format!(
            "{finding} {} on {} only: no other version of the range could be judged, so no \
             boundary can be told",
            if *shows { "shows" } else { "is absent" },
            candidates[*index].spec
        ),
        Verdict::Same { shows: true } => {
            format!("{finding} shows on both ends of the range: no boundary within it")
        }
        Verdict::Same { shows: false } => {
            format!("{finding} shows on neither end of the range: no boundary within it")
        }
        Verdict::Unjudgeable { low, high } => format!(
            "no boundary between two adjacent versions: {finding} changes between {} and {}, \
             and no version between them could be judged",
            candidates[*low].spec, candidates[*high].spec
        ),
    };
    println!("{summary}");
    println!("probes: {}", b.out.display());
    let json = serde_json::json!({
        "archive": b.archive.display().to_string(),
        "session": session.id.to_string(),
        "finding": finding.to_string(),
        "versions": candidates.iter().map(|c| c.spec.clone()).collect::<Vec<_>>(),
        "probes": probes.iter().map(|p| serde_json::json!({
            "version": candidates[p.index].spec,
            "shows": p.shows,
            "note": p.note,
        })).collect::<Vec<_>>(),
        "verdict": summary,
    });
    std::fs::write(b.out.join("bisect.json"), serde_json::to_vec_pretty(&json)?)?;
    Ok(match verdict {
        Verdict::Boundary {
            confirmed: true, ..
        } => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// Whether a probe's archive shows the finding: its one session judged, and diverged with the
/// same type at the same kind of action (as `reduce` judges).
fn judge_probe(
    index: usize,
    path: &std::path::Path,
    finding: &morphtrace_recorder::reduce::Finding,
    at: u32,
) -> morphtrace_recorder::bisect::Probe {
    use morphtrace_recorder::bisect::Probe;
    let probe = |shows, note| Probe { index, shows, note };
    let reader = match ArchiveReader::open(path) {
        Ok(r) => r,
        Err(e) => return probe(None, format!("no archive: {e}")),
    };
    let engine = reader
        .header()
        .engines
        .iter()
        .map(|e| e.label())
        .collect::<Vec<_>>()
        .join(" vs ");
    match reader.session(0) {
        Ok(s) => {
            let (shows, why) = morphtrace_recorder::bisect::judge(&s, finding, at);
            probe(shows, format!("{engine}: {why}"))
        }
        Err(e) => probe(None, format!("{engine}: {e}")),
    }
}

/// `reduce`: one diverged session reduced on the engines that recorded it.
async fn reduce(r: ReduceArgs) -> Result<ExitCode> {
    use morphtrace_recorder::reduce::{Finding, Reducer};
    if !(r.budget > 0.0 && r.session_timeout > 0.0) {
        bail!("--budget and --session-timeout must be positive");
    }
    if r.out.exists() {
        bail!("{} exists: give a new directory", r.out.display());
    }
    let reader = ArchiveReader::open(&r.archive)
        .with_context(|| format!("reading {}", r.archive.display()))?;
    let session = session_arg(&reader, &r.session, &r.archive)?;
    if session.mode == morphtrace_schema::SessionMode::Coverage {
        return reduce_coverage(&r, &reader, &session).await;
    }
    if session.mode == morphtrace_schema::SessionMode::Metamorphic {
        return reduce_warning(&r, &reader, &session).await;
    }
    let divergence = nth_divergence(&session, r.divergence, "only divergences are reduced")?;
    let program = reader
        .program(&session.program)
        .with_context(|| format!("program {} is not in the archive", session.program.short()))?;
    let trace = session.traces.first().context("the session has no trace")?;
    let actions: Vec<Action> = trace.actions().cloned().collect();
    let header = reader.header();
    let descriptors: Vec<&morphtrace_schema::EngineDescriptor> = session
        .engines
        .iter()
        .map(|e| {
            header
                .engines
                .get(e.0 as usize)
                .context("the session names an engine the header lacks")
        })
        .collect::<Result<_>>()?;
    let capture = CaptureOptions::recorded(header, &descriptors);
    let prelude = capture.prelude;
    let mut launched = Vec::new();
    for d in &descriptors {
        let spec = EngineSpec::of(d);
        launched.push(
            spec.launch(&capture, 1)
                .await
                .with_context(|| format!("launching {spec}"))?,
        );
    }
    let refs: Vec<EngineRef> = (0..launched.len()).map(|i| EngineRef(i as u16)).collect();
    let policy = ComparisonPolicy::from_params(&header.campaign.params);
    let finding = Finding::of(&divergence);
    let work = tempfile::Builder::new()
        .prefix("morphtrace-reduce-")
        .tempdir()?;
    let bar = indicatif::ProgressBar::new_spinner().with_message(format!("reducing {finding}"));
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut reducer = Reducer::new(
        launched.iter_mut().collect(),
        refs,
        policy.clone(),
        work.path(),
        Duration::from_secs_f64(r.session_timeout),
        finding.clone(),
        Duration::from_secs_f64(r.budget),
        bar.clone(),
    );
    // A session that went on past divergences is rerun under the triage it was recorded with.
    if session
        .all_divergences()
        .iter()
        .any(|d| d.continued.is_some())
    {
        reducer.triage = recorded_triage(&reader)?;
    }
    let result = reducer.reduce(&program.text, &actions).await;
    bar.finish_and_clear();
    for e in launched.iter_mut() {
        e.shutdown().await;
    }
    let reduced = result?;
    let labels: Vec<String> = descriptors.iter().map(|d| d.label()).collect();
    let engines: Vec<morphtrace_schema::EngineDescriptor> =
        descriptors.iter().map(|d| (*d).clone()).collect();
    morphtrace_recorder::reduce::write_bundle(
        &r.out,
        &reduced,
        &finding,
        &morphtrace_recorder::reduce::Case {
            engines: &engines,
            columns: policy.columns,
            prelude,
            action_timeout: action_timeout(header),
            original: &program.text,
            original_actions: &actions,
            source: &format!("{} session {}", r.archive.display(), session.id),
        },
    )?;
    say_reduced(&finding.to_string(), &labels.join(" vs "), &reduced, &r.out);
    Ok(ExitCode::SUCCESS)
}

/// How long the recording waited for one action's answer (the campaign's parameter).
fn action_timeout(header: &morphtrace_schema::ArchiveHeader) -> Duration {
    CaptureOptions::recorded(header, &[]).action_timeout
}

/// The line `reduce` ends with, and the bundle's directory.
fn say_reduced(
    finding: &str,
    engines: &str,
    reduced: &morphtrace_recorder::reduce::Reduced,
    out: &std::path::Path,
) {
    println!(
        "reduced {finding} on {engines}: {} → {} lines, {} → {} actions, {} runs in {:.1} s{}",
        reduced.lines.0,
        reduced.lines.1,
        reduced.action_count.0,
        reduced.action_count.1,
        reduced.tests,
        reduced.elapsed.as_secs_f64(),
        unfinished(reduced.complete)
    );
    println!("{}", out.display());
}

/// `reduce` of a metamorphic follow-up that violated its relation: the parent's program and
/// actions reduced while a one-round chain with the recorded transformation still violates it.
async fn reduce_warning(
    r: &ReduceArgs,
    reader: &ArchiveReader,
    session: &morphtrace_schema::Session,
) -> Result<ExitCode> {
    use morphtrace_recorder::reduce::metamorphic::{ChainJudge, Violated};
    let Some(warning) = session.warnings.first() else {
        bail!(
            "session {} violated no relation ({}): only warnings of metamorphic sessions are reduced",
            session.id,
            session.outcome.name()
        );
    };
    let parent_id = session
        .parent
        .as_ref()
        .map(|p| p.session)
        .context("the warning's session has no parent")?;
    let parent = reader
        .session_by_id(parent_id)
        .with_context(|| format!("its parent {parent_id} is not in the archive"))?;
    let record = session
        .transformations
        .last()
        .context("the session records no transformation")?;
    let (parent_trace, follow_trace) = (
        parent.traces.first().context("the parent has no trace")?,
        session.traces.first().context("the session has no trace")?,
    );
    let violation = morphtrace_schema::metamorphic::judge(parent_trace, follow_trace, record)
        .context("the recorded follow-up no longer violates its relation when judged again")?;
    let program = reader
        .program(&parent.program)
        .with_context(|| format!("program {} is not in the archive", parent.program.short()))?;
    let actions: Vec<Action> = parent_trace.actions().cloned().collect();
    let header = reader.header();
    let descriptor = session
        .engines
        .first()
        .and_then(|e| header.engines.get(e.0 as usize))
        .context("the session names an engine the header lacks")?
        .clone();
    let capture = CaptureOptions::recorded(header, &[&descriptor]);
    let prelude = capture.prelude;
    let spec = EngineSpec::of(&descriptor);
    let mut engine = spec
        .launch(&capture, 1)
        .await
        .with_context(|| format!("launching {spec}"))?;
    let finding = Violated {
        relation: warning.relation.clone(),
        transformation: record.name.clone(),
        kind: violation.kind,
    };
    let work = tempfile::Builder::new()
        .prefix("morphtrace-reduce-")
        .tempdir()?;
    let bar = indicatif::ProgressBar::new_spinner().with_message(format!("reducing {finding}"));
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let policy = ComparisonPolicy::from_params(&header.campaign.params);
    let node =
        morphtrace_recorder::debugger::engines::which("node").unwrap_or_else(|| "node".into());
    let mut judge = ChainJudge::new(
        &mut engine,
        policy,
        work.path(),
        node,
        Duration::from_secs_f64(r.session_timeout),
        prelude,
        session.seed,
        finding.clone(),
        record,
    );
    let pinned = judge.anchored();
    let result = morphtrace_recorder::reduce::reduce_with(
        &mut judge,
        &program.text,
        &actions,
        pinned,
        false,
        Duration::from_secs_f64(r.budget),
        bar.clone(),
    )
    .await;
    judge.finish();
    bar.finish_and_clear();
    engine.shutdown().await;
    let (reduced, follow) = result?;
    morphtrace_recorder::reduce::bundle::write_metamorphic_bundle(
        &r.out,
        &reduced,
        &follow,
        &finding,
        &morphtrace_recorder::reduce::Case {
            engines: std::slice::from_ref(&descriptor),
            columns: true,
            prelude,
            action_timeout: action_timeout(header),
            original: &program.text,
            original_actions: &actions,
            source: &format!("{} session {}", r.archive.display(), session.id),
        },
    )?;
    say_reduced(&finding.to_string(), &descriptor.label(), &reduced, &r.out);
    Ok(ExitCode::SUCCESS)
}

/// Options of a one-program coverage run, as a campaign with these parameters records it.
fn check_options(variants: usize, run_timeout: f64, prelude: bool) -> cod::Options {
    cod::Options {
        variants,
        run_timeout: Duration::from_secs_f64(run_timeout),
        truth: true,
        jobs: 1,
        progress: false,
        resume: false,
        writer: WriterOptions::default(),
        csmith_cache: None,
        prelude,
        shard: None,
    }
}

/// `coverage-check`: exit 0 when the class shows on the program, 1 when not.
async fn coverage_check(c: CoverageCheckArgs) -> Result<ExitCode> {
    if c.run_timeout.is_nan() || c.run_timeout <= 0.0 {
        bail!("--run-timeout must be positive");
    }
    let language = if c.program.extension().is_some_and(|e| e == "c") {
        Language::C
    } else {
        Language::JavaScript
    };
    let (program, rejected) = morphtrace_recorder::corpus::read_program(&c.program, language)?;
    if let Some(why) = rejected {
        bail!("{}: {why}", c.program.display());
    }
    let opts = check_options(c.variants, c.run_timeout, !c.no_prelude);
    let (specs, seed) = (c.engines.clone(), c.seed);
    let (session, found) =
        tokio::task::spawn_blocking(move || cod::findings(&specs, program, seed, &opts)).await??;
    if let Some(why) = cod::not_comparable(&session) {
        println!("{why}");
        return Ok(ExitCode::from(1));
    }
    let hits: Vec<&cod::Found> = found.iter().filter(|f| f.class() == c.class).collect();
    for f in &hits {
        println!(
            "line {}: {} ({:?} vs {:?})",
            f.line + 1,
            f.class(),
            f.a,
            f.b
        );
    }
    if hits.is_empty() {
        println!(
            "{} does not show ({} other inconsistencies)",
            c.class,
            found.len()
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `reduce` of a coverage session: C programs by C-Vise, judged by `coverage-check`.
async fn reduce_coverage(
    r: &ReduceArgs,
    reader: &ArchiveReader,
    session: &morphtrace_schema::Session,
) -> Result<ExitCode> {
    use morphtrace_recorder::reduce::coverage;
    let program = reader
        .program(&session.program)
        .with_context(|| format!("program {} is not in the archive", session.program.short()))?;
    let header = reader.header();
    let found = cod::found(session, &header.engines);
    let class = match &r.class {
        Some(c) => c.clone(),
        None => found.first().map(|f| f.class()).with_context(|| {
            format!(
                "session {} shows no coverage inconsistency beyond the weak-noise filter",
                session.id
            )
        })?,
    };
    if !found.iter().any(|f| f.class() == class) {
        bail!(
            "session {} does not show {class}; it shows: {}",
            session.id,
            found
                .iter()
                .map(|f| f.class())
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    let param = |k: &str| campaign_param(header, k);
    // Variants matter only to Cod's relation: without them each candidate is judged faster.
    let variants: usize = if class.starts_with("cod ") {
        param("variants").and_then(|v| v.parse().ok()).unwrap_or(3)
    } else {
        0
    };
    let run_timeout: f64 = param("run_timeout_s")
        .and_then(|v| v.parse().ok())
        .unwrap_or(5.0);
    let used: Vec<&morphtrace_schema::EngineDescriptor> = session
        .engines
        .iter()
        .filter_map(|e| header.engines.get(e.0 as usize))
        .collect();
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
        run_timeout.to_string(),
    ]);
    let prelude = CaptureOptions::recorded(header, &used).prelude;
    let is_c = program.language == Language::C;
    let bar = indicatif::ProgressBar::new_spinner().with_message(format!(
        "{}: {class}",
        if is_c {
            "C-Vise"
        } else {
            "blanking statements"
        }
    ));
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let budget = Duration::from_secs_f64(r.budget);
    let (reduced, tests) = if is_c {
        let work = tempfile::Builder::new()
            .prefix("morphtrace-reduce-")
            .tempdir()?;
        let (text, path, args, b) = (
            program.text.clone(),
            work.path().to_path_buf(),
            check.clone(),
            bar.clone(),
        );
        let reduced =
            tokio::task::spawn_blocking(move || coverage::cvise(&text, &args, &path, budget, &b))
                .await??;
        (reduced, None)
    } else {
        // Judged in this process, as `coverage-check` would judge each candidate, and it must
        // end as the original did: a candidate that throws where the original did not shows
        // another behaviour of the profiler (counts after an exception), not this finding.
        let exit = |s: &morphtrace_schema::Session| {
            s.coverage
                .iter()
                .find(|r| r.program == s.program)
                .and_then(|r| r.run.as_ref())
                .map(|r| r.exit_code)
        };
        let original_exit = exit(session);
        let opts = check_options(variants, run_timeout, prelude);
        let (text, specs, seed, b, class) = (
            program.text.clone(),
            specs.clone(),
            session.seed,
            bar.clone(),
            class.clone(),
        );
        let blanked = tokio::task::spawn_blocking(move || {
            morphtrace_recorder::reduce::blank_statements(&text, budget, &b, |candidate| {
                let p = morphtrace_schema::Program::new(
                    Language::JavaScript,
                    candidate.to_string(),
                    morphtrace_schema::ProgramOrigin::File {
                        path: "program.js".into(),
                    },
                );
                let (judged, found) = cod::findings(&specs, p, seed, &opts)?;
                Ok::<bool, cod::CoverageError>(
                    cod::not_comparable(&judged).is_none()
                        && exit(&judged) == original_exit
                        && found.iter().any(|f| f.class() == class),
                )
            })
        })
        .await??;
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
    let (seed, text, language) = (session.seed, reduced.text.clone(), program.language);
    let specs2 = specs.clone();
    let (judged, now) = tokio::task::spawn_blocking(move || {
        cod::findings(
            &specs2,
            morphtrace_schema::Program::new(
                language,
                text,
                morphtrace_schema::ProgramOrigin::File {
                    path: if language == Language::C {
                        "program.c"
                    } else {
                        "program.js"
                    }
                    .into(),
                },
            ),
            seed,
            &opts,
        )
    })
    .await??;
    if let Some(why) = cod::not_comparable(&judged) {
        bail!("the reduced program is {why}; nothing written");
    }
    let Some(hit) = now.iter().find(|f| f.class() == class) else {
        bail!(
            "the reduced program showed {class} to the reduction's test but not when judged \
             again: its counts vary from run to run (in C, undefined behaviour such as an \
             uninitialized read that C-Vise introduced); nothing written"
        );
    };
    let lines = |t: &str| t.lines().filter(|l| !l.trim().is_empty()).count();
    let before = lines(&program.text);
    let after = lines(&reduced.text);
    let labels: Vec<String> = used.iter().map(|d| d.label()).collect();
    coverage::write_bundle(
        &r.out,
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
            source: &format!("{} session {}", r.archive.display(), session.id),
        },
    )?;
    println!(
        "reduced {class} on {}: {before} → {after} lines in {:.1} s{}",
        labels.join(" vs "),
        reduced.elapsed.as_secs_f64(),
        unfinished(reduced.complete)
    );
    println!("{}", r.out.display());
    Ok(ExitCode::SUCCESS)
}

/// A campaign parameter as the archive's header recorded it.
fn campaign_param(header: &morphtrace_schema::ArchiveHeader, key: &str) -> Option<String> {
    header
        .campaign
        .params
        .iter()
        .find(|(n, _)| n == key)
        .map(|(_, v)| v.clone())
}

/// What the reduction's last line adds when the budget stopped it.
fn unfinished(complete: bool) -> &'static str {
    if complete {
        ""
    } else {
        " (budget reached: not minimal)"
    }
}
