//! The command line: every command's arguments, with what `--help` says of them, and their
//! translation into the library's options.

use anyhow::{bail, Result};
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_judges::metamorphic::Transformation;
use morphtrace_recorder::campaign::Campaign;
use morphtrace_recorder::corpus;
use morphtrace_recorder::debugger::engines::EngineSpec;
use morphtrace_recorder::debugger::rdp::BreakpointPolicy;
use morphtrace_recorder::debugger::{CaptureOptions, PythonStart};
use morphtrace_recorder::shard;
use morphtrace_recorder::task::Task;
use morphtrace_schema::archive::WriterOptions;
use morphtrace_schema::{ArchiveReader, CampaignConfig, Shard};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

/// The command line parsed, with a replay's capture options inherited from its archive, and a
/// strategy-specific flag given to another strategy refused (clap's usage error, exit 2).
pub(crate) fn parse(matches: &ArgMatches) -> Cli {
    let mut cli = match Cli::from_arg_matches(matches) {
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
    cli
}

impl Command {
    /// The memory bound of a command that runs programs-to-debug (MiB; 0: none).
    pub(crate) fn memory_limit(&self) -> Option<u64> {
        match self {
            Command::Run(RunArgs { common, .. }) | Command::Replay(ReplayArgs { common, .. }) => {
                Some(common.memory_limit)
            }
            Command::Reduce(ReduceArgs { memory_limit, .. })
            | Command::Bisect(BisectArgs { memory_limit, .. })
            | Command::CoverageCheck(CoverageCheckArgs { memory_limit, .. }) => Some(*memory_limit),
            Command::Engines(_) | Command::Genmorph(_) | Command::Falsify(_) => None,
        }
    }
}

#[derive(Parser)]
#[command(
    name = "morphtrace-record",
    version,
    about = "Record debugging sessions of real debuggers, and coverage of real profilers, into .mtrace archives",
    long_about = "Record debugging sessions of real debuggers into .mtrace trace archives. The recorder \
                  launches engines (Chromium, Node and Deno over CDP, Firefox over its remote debugging \
                  protocol, Bun over WebKit's inspector protocol, debugpy over DAP, pdb over its command \
                  line, LLDB over DAP and gdb over its machine interface on C programs it compiles) on \
                  ephemeral loopback ports with fresh profiles, generates debugging actions from a \
                  seeded generator (DBDB \
                  Algorithm 1), runs them on one debugger or in lockstep on several (differential), and \
                  appends every completed session to a crash-safe archive that morphtrace-analyze reads \
                  offline. With --strategy coverage it records coverage profilers (gcov, llvm-cov, V8, \
                  coverage.py's cores) on \
                  programs and on variants pruned of code reported unexecuted (Cod).",
    after_help = "Examples:\n  morphtrace-record engines\n  morphtrace-record run --engine chromium --engine node \
                  --strategy differential --corpus corpus/dbdb --seeds 1..10 --out d.mtrace\n  \
                  morphtrace-record replay d.mtrace --engine node@22 --out replay.mtrace\n  \
                  morphtrace-record run --strategy coverage --engine gcov --engine llvm-cov \
                  --corpus csmith:1..200 --out c.mtrace"
)]
pub(crate) struct Cli {
    /// Log filter (e.g. `info`, `morphtrace_recorder=debug`); RUST_LOG also works.
    #[arg(long, global = true, default_value = "warn")]
    pub(crate) log: String,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// List the debuggers and profilers found here; list or install others.
    ///
    /// List the debuggers and coverage profilers found on this machine with their versions;
    /// list the Chromium and Deno versions installable on demand (--available), or install
    /// some ahead of a campaign (--install).
    Engines(EnginesArgs),
    /// Record a campaign: programs × seeds × engines with a strategy.
    Run(RunArgs),
    /// Re-issue the actions of recorded sessions on other engines or versions.
    Replay(ReplayArgs),
    /// Record GenMorph's executions of library functions.
    ///
    /// GenMorph's executions: library functions (pinned npm lodash and mathjs) on coverage-guided
    /// source inputs, random evaluation inputs and their follow-ups, as the original, our swc
    /// training mutants and StrykerJS's evaluation mutants, one frame per function.
    Genmorph(GenmorphArgs),
    /// GenMorph's filtering step 2: search inputs that break proposed relations.
    ///
    /// GenMorph's filtering step 2 (the role of OASIs): search inputs that make the original
    /// break relations proposed by `morphtrace-analyze genmorph search` (those that passed
    /// step 1, the evaluation inputs).
    Falsify(FalsifyArgs),
    /// Reduce a finding to a small case with a standalone reproducer.
    ///
    /// Reduce a finding to the fewest actions and program lines that still show it, and write
    /// the reduced case with what each engine answered and a standalone reproducer into DIR: a
    /// divergence (the same type at the same kind of action, on the archive's engines; JS, C
    /// between gdb and LLDB with `reproduce.sh`, Python between debugpy and pdb without a
    /// reproducer), a metamorphic warning (the same relation violated the same way after the
    /// same transformation, repeated at the same place) or a coverage inconsistency (its class;
    /// C programs by C-Vise).
    Reduce(ReduceArgs),
    /// Find the engine version where a finding appears or disappears.
    ///
    /// Find the version where a finding (a diverged session: the same divergence type at the
    /// same kind of action, as `reduce` judges it) appears or disappears: binary search over the
    /// available versions of one engine (Chromium and Deno from the npm registry, installed as
    /// probed; Node: those installed here), the session's other engines kept, both sides of the
    /// boundary probed twice. Every probe is an archive in --out. Exit 0 with a confirmed
    /// boundary, 1 otherwise.
    Bisect(BisectArgs),
    /// Whether one program shows a class of coverage inconsistency (C-Vise's test).
    ///
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
pub(crate) struct EnginesArgs {
    /// List the versions of KIND (chromium, deno or bun) that can be installed, marking those
    /// in the cache.
    #[arg(long, value_name = "KIND", conflicts_with = "install", value_parser = ["chromium", "deno", "bun"])]
    pub(crate) available: Option<String>,
    /// Install these engines into the cache (`chromium@92`, `chromium@123.0.1`, `deno@2.7`)
    /// and check that each launches; several at once for a version matrix.
    #[arg(long, value_name = "SPEC", num_args = 1..)]
    pub(crate) install: Vec<String>,
}

#[derive(Args)]
pub(crate) struct CoverageCheckArgs {
    /// The program: C (`.c`), Python (`.py`) or JavaScript.
    pub(crate) program: PathBuf,
    /// Coverage profilers, as for `run --strategy coverage`.
    #[arg(long = "engine", required = true, value_parser = EngineSpec::parse)]
    pub(crate) engines: Vec<EngineSpec>,
    /// The class that must show, as `morphtrace-analyze classes` names it: `RELATION PROFILERS
    /// KIND SYNTAX`, e.g. `c2v gcov/llvm-cov strong break_statement`.
    #[arg(long)]
    pub(crate) class: String,
    /// Seed of the variants (Cod's P').
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Variants (P') per profiler.
    #[arg(long, default_value_t = 3)]
    pub(crate) variants: usize,
    /// Run-time limit of one program run.
    #[arg(long, default_value_t = 5.0)]
    pub(crate) run_timeout: f64,
    /// Run JavaScript without the determinism prelude.
    #[arg(long)]
    pub(crate) no_prelude: bool,
    /// Memory bound per engine, in MiB, as for `run` (the programs are as hostile here). 0: none.
    #[arg(long, default_value_t = 2048)]
    pub(crate) memory_limit: u64,
}

#[derive(Args)]
pub(crate) struct BisectArgs {
    /// Archive holding the session.
    pub(crate) archive: PathBuf,
    /// The diverged session: its id (16 hex digits) or its position in the archive (0-based).
    #[arg(long)]
    pub(crate) session: String,
    /// The range: `chromium@92..153`, `deno@2.0..2.9`, `node@20..24` (bounds are version
    /// prefixes, both included).
    #[arg(long)]
    pub(crate) versions: String,
    /// The kind of the session's engine each probed version replaces (default: its own kind).
    #[arg(long, value_name = "KIND")]
    pub(crate) in_place_of: Option<String>,
    /// Directory for the probes' archives and bisect.json (created; must not exist).
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Longest one probe session may take.
    #[arg(long, default_value_t = 60.0)]
    pub(crate) session_timeout: f64,
    /// Sessions that went on past divergences: which one to bisect, by its place in the session
    /// (0: the first; `morphtrace-analyze show` prints it as `divergence #N`, the divergences
    /// frame as `index`). Probes then go on under the
    /// triage the archive recorded, as the recording did.
    #[arg(long, default_value_t = 0)]
    pub(crate) divergence: usize,
    /// Memory bound per engine, in MiB, as for `run` (the programs are as hostile here). 0: none.
    #[arg(long, default_value_t = 2048)]
    pub(crate) memory_limit: u64,
}

#[derive(Args)]
pub(crate) struct ReduceArgs {
    /// Archive holding the session.
    pub(crate) archive: PathBuf,
    /// The session: its id (16 hex digits) or its position in the archive (0-based); a
    /// diverged session, a follow-up with a warning, or a coverage session.
    #[arg(long)]
    pub(crate) session: String,
    /// Directory for the reduced case (created; must not exist).
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Stop reducing after this many seconds and keep the smallest case found so far.
    #[arg(long, default_value_t = 300.0)]
    pub(crate) budget: f64,
    /// Longest one candidate session may take.
    #[arg(long, default_value_t = 30.0)]
    pub(crate) session_timeout: f64,
    /// Coverage sessions: the class to keep (`RELATION PROFILERS KIND SYNTAX`, as
    /// `morphtrace-analyze classes` names it); default: the session's first inconsistency
    /// beyond the weak-noise filter.
    #[arg(long)]
    pub(crate) class: Option<String>,
    /// Differential sessions that went on past divergences: which one to reduce, by its place
    /// in the session (0: the first; `morphtrace-analyze show` prints it as `divergence #N`,
    /// the divergences frame as `index`).
    #[arg(long, default_value_t = 0)]
    pub(crate) divergence: usize,
    /// Memory bound per engine, in MiB, as for `run` (the programs are as hostile here). 0: none.
    #[arg(long, default_value_t = 2048)]
    pub(crate) memory_limit: u64,
}

#[derive(Args)]
pub(crate) struct GenmorphArgs {
    /// Functions: names (`lodash.padStart`), packages (`lodash`, `mathjs`) or `all`; comma list.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub(crate) subjects: Vec<String>,
    /// Seed of every generator (inputs, mutant sampling).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Source inputs per function (coverage-adding ones first). More give more correct states
    /// and fewer overfitted relations (60 → 150: PZ 0.57 → 0.87 on four functions).
    #[arg(long, default_value_t = 150)]
    pub(crate) sources: usize,
    /// Evaluation inputs per function (random; never seen by the search).
    #[arg(long, default_value_t = 100)]
    pub(crate) evaluation: usize,
    /// Rounds of 32 candidates in the coverage loop.
    #[arg(long, default_value_t = 12)]
    pub(crate) rounds: usize,
    /// At most this many training mutants per function (a seeded sample of ours).
    #[arg(long, default_value_t = 150)]
    pub(crate) max_training: usize,
    /// Per-call budget in milliseconds before a call counts as a timeout.
    #[arg(long, default_value_t = 25)]
    pub(crate) timeout_ms: u64,
    /// The Node executable of the harness (default: `node` on PATH; `node@22` for a local one).
    #[arg(long)]
    pub(crate) node: Option<String>,
    /// Archive to write.
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Continue: functions already in --out are skipped.
    #[arg(long)]
    pub(crate) resume: bool,
    /// Campaign name stored in the archive.
    #[arg(long)]
    pub(crate) name: Option<String>,
    #[command(flatten)]
    pub(crate) shard: ShardArg,
}

#[derive(Args)]
pub(crate) struct FalsifyArgs {
    /// The archive the relations were searched on.
    pub(crate) archive: PathBuf,
    /// Relations (JSON) written by `morphtrace-analyze genmorph search --out`.
    #[arg(long)]
    pub(crate) relations: PathBuf,
    /// Report (JSON) to write, read by `morphtrace-analyze genmorph table --falsified`.
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Pairs tried per function and input transformation.
    #[arg(long, default_value_t = 2_000)]
    pub(crate) budget: u32,
    /// Seed of the inputs drawn (same seed, same pairs).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Longest one call of a function or relation may take, in milliseconds, before the pair
    /// counts as timed out (skipped, not judged).
    #[arg(long, default_value_t = 25)]
    pub(crate) timeout_ms: u64,
    /// A relation not falsified on fewer judged pairs than this (pairs whose call or relation
    /// threw or timed out are skipped, not judged) is undecided, not a survivor. Default: a
    /// tenth of --budget.
    #[arg(long)]
    pub(crate) min_judged: Option<u32>,
    /// The Node executable of the harness (default: `node` on PATH; `node@22` for a local one).
    #[arg(long)]
    pub(crate) node: Option<String>,
    /// Judge every relation, also those that failed filtering step 1: for a refinement round
    /// (`genmorph search --counterexamples`), where every counterexample is something to learn.
    #[arg(long)]
    pub(crate) all: bool,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum Strategy {
    /// DBDB Algorithm 1 on each engine separately.
    Random,
    /// The same actions in lockstep on all engines, compared after every action. A divergence
    /// whose class triage.toml judges is recorded, the engines are brought back in step, and
    /// the session goes on; one no rule judges ends the session (docs/concepts.md).
    Differential,
    /// Coverage profilers (gcov, llvm-cov, v8, coverage.py and its cores): reports of each
    /// program and of variants pruned of code reported unexecuted (Cod), for offline judging.
    Coverage,
    /// Interactive metamorphic testing of each engine on its own (ISSTA 2019): a random initial
    /// session, then --rounds follow-ups, each transformed from its parent (Table 1) and judged
    /// against it while recording; a chain stops at its first warning.
    Metamorphic,
    /// Ground truth on each engine separately (no second engine): programs that record their
    /// own state (`--corpus truth:SEEDS`, or an instrumented copy of any script, Python or C
    /// program, made before the sessions) are paused where they record it, and what the
    /// debugger shows (values, frames, where and how often it pauses) is judged against the
    /// records (docs/recording.md, "Ground truth").
    Truth,
    /// Each engine against itself (no second engine): each program run twice with a
    /// breakpoint on every line, once stepped into statement by statement from the first pause
    /// and once resumed from pause to pause; every breakpoint pause must be a step pause with
    /// the same frames and values, every step onto a breakpoint a breakpoint pause (engines
    /// that pause at a breakpoint's place), and both runs print what the program prints
    /// without a debugger (docs/recording.md, "The debugger against itself"). One session per
    /// program and engine: the first seed stands for all.
    Steps,
    /// One native debugger on two builds of each C program, the first engine the reference
    /// (`--engine gdb+gcc-O0 --engine gdb+gcc-O2`): each build run with a breakpoint on every
    /// line and resumed from pause to pause; a value the optimized build shows at a line must
    /// be one the reference showed for that variable at that line (optimized out is counted
    /// apart, as availability), and both builds print the same (after Debug², ASPLOS'21). One
    /// session per program: the first seed stands for all.
    Optimization,
}

#[derive(Args, Clone)]
pub(crate) struct EngineArgs {
    /// An engine: `chromium`, `node`, `firefox`, `KIND=/path/to/executable`, `node@22` (project-local
    /// version installed by scripts/setup.sh), or a version installed on demand from the npm
    /// registry into the engine cache: `chromium@92` .. `chromium@153` (`chromium@123.0.1`),
    /// `deno`, `deno@2.7`, `bun`, `bun@1.4`; Python's `debugpy` (`debugpy+python`: pydevd's pure-Python tracer; `debugpy+sysmon=PY`: its sys.monitoring backend, on a Python 3.12+),
    /// `pdb`; `lldb` and `gdb` on C programs, built per session as the variant says
    /// (`lldb+gcc-O0`, the default; `gdb+clang-O2`: gcc or clang, O0 to O3, Os, Og); coverage profilers `gcov`,
    /// `llvm-cov`, `v8`, `coverage.py` (its C tracer;
    /// `coverage.py+pytrace`, `coverage.py+sysmon` its other cores, `coverage.py=/path/to/python`
    /// another interpreter). A JS engine under another execution tier: `node+jitless`,
    /// `chromium@123+turbofan`, `firefox+nojit`, `bun+nojit` (`engines` lists the tiers).
    /// Repeat for several.
    #[arg(long = "engine", required = true, value_parser = EngineSpec::parse)]
    pub(crate) engines: Vec<EngineSpec>,
    /// Parallel workers, each with its own engines.
    #[arg(long, short = 'j', default_value_t = 2)]
    pub(crate) jobs: usize,
    /// Longest a session may take before it is recorded as a timeout and its engines restarted.
    #[arg(long, default_value_t = 60.0)]
    pub(crate) session_timeout: f64,
    /// Longest wait for a pause or the program's end after one action (non-terminating programs).
    #[arg(long, default_value_t = 5.0)]
    pub(crate) action_timeout: f64,
    /// Depth to which objects in variables are expanded.
    #[arg(long, default_value_t = 2)]
    pub(crate) depth: u32,
    /// How many program frames, top first, have their scopes read at each pause (0: every
    /// frame). Lockstep compares the variables of every frame both debuggers read that is the
    /// same function's on both (`frame 2 (outer): x: 1 vs 2`). pdb reads the top frame's only.
    #[arg(long, default_value_t = 1)]
    pub(crate) frame_scopes: usize,
    /// Sessions prepared ahead of time per engine and worker, whatever the engine prepares: a
    /// Chromium target, a paused Node, Deno or Bun process, a Firefox connection. 0: each
    /// session starts from nothing (the naive baseline). (`--node-pool` is its former name.)
    #[arg(long, alias = "node-pool", default_value_t = 2)]
    pub(crate) prepared: usize,
    /// Where Firefox breakpoints go: its server does not slide them, so morphtrace chooses from
    /// the breakable positions and records that it did (and under which policy).
    #[arg(long, value_enum, default_value = "next-breakable")]
    pub(crate) firefox_breakpoints: BreakpointPolicy,
    /// Memory bound per engine, in MiB: the resident memory of its processes (a browser's
    /// helpers included). A session that passes it is ended, with that reason, and its engine
    /// restarted. 0: no bound.
    #[arg(long, default_value_t = 2048)]
    pub(crate) memory_limit: u64,
    /// Relaunch Firefox after this many sessions (0: never), against memory growth.
    #[arg(long, default_value_t = 200)]
    pub(crate) restart_every: usize,
    /// Differential: the triage file whose by-design and representation rules lockstep goes on
    /// past (the divergence is recorded, the engines brought back in step: a breakpoint placed
    /// differently removed on every engine, an extra pause stepped past, a value shown
    /// differently compared on); with three engines or more a lone suspect is left out and the
    /// others go on. Default: the nearest triage.toml from the current directory up. The
    /// archive records the triage (path, digest, text).
    #[arg(long, value_name = "FILE", conflicts_with = "stop_at_first_divergence")]
    pub(crate) triage: Option<PathBuf>,
    /// Differential: stop every session at its first divergence (DBDB's lockstep), triaged or
    /// not.
    #[arg(long)]
    pub(crate) stop_at_first_divergence: bool,
    /// Run programs on the engine's own clock and random source. By default a blackboxed
    /// prelude script seeds Math.random and crypto and fixes Date, performance.now and
    /// process.hrtime before every program (its text and positions untouched), so that parent
    /// and follow-up, or two engines, see the same values; the archive's engine details say
    /// which was done.
    #[arg(long)]
    pub(crate) no_prelude: bool,
    /// How debugpy and coverage.py start each program. `warm`: forked from an interpreter that
    /// has imported the tool (debugpy: attached to the session's adapter and run as debugpy's
    /// launcher runs it, paused at its first statement; coverage.py: run as `python -m
    /// coverage run` runs it), with the same argv, sys.path, __main__ and environment: a few
    /// milliseconds instead of an interpreter's start-up. `cold`: a new interpreter per run
    /// (debugpy through its launcher, as an IDE launches a program): the baseline;
    /// docs/recording.md says what a program could tell apart. The archive's engine details
    /// say which.
    #[arg(long, value_enum, default_value = "warm")]
    pub(crate) python_start: PythonStartArg,
    /// Compare columns as well as lines (differential).
    #[arg(long)]
    pub(crate) compare_columns: bool,
    /// Do not compare variables (differential).
    #[arg(long)]
    pub(crate) ignore_variables: bool,
    /// Do not compare breakpoint outputs (differential).
    #[arg(long)]
    pub(crate) ignore_breakpoints: bool,
    /// Compare objects by kind and entries only, not by class name or description (differential
    /// across engine families: Firefox says `Object` where V8 says `Point`).
    #[arg(long)]
    pub(crate) ignore_object_shells: bool,
    /// Do not compare async call stacks (differential): the functions that awaited or scheduled
    /// the paused code, which JavaScriptCore keeps only to the first resumption.
    #[arg(long)]
    pub(crate) ignore_async_stacks: bool,
    /// Which sessions are held to what the program prints and how it ends without a debugger
    /// (every strategy that records sessions; `steps` has its own check): `ended`, each trace
    /// that ran to the program's end and only observed (no set, restart or expression that may
    /// call or assign); `run-on`, those and each observing trace stopped with the program paused
    /// (the action limit), replayed and run on to the end, its breakpoints removed: every
    /// observing session judged, at the cost of one more run of each; `off`.
    #[arg(long, value_enum, default_value = "ended")]
    pub(crate) attached_output: AttachedOutput,
    /// Archive to write.
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Continue an interrupted campaign: sessions already in --out are skipped.
    #[arg(long)]
    pub(crate) resume: bool,
    /// Campaign name stored in the archive.
    #[arg(long)]
    pub(crate) name: Option<String>,
    #[command(flatten)]
    pub(crate) shard: ShardArg,
}

#[derive(Args, Clone)]
pub(crate) struct ShardArg {
    /// Record only the K-th of N deterministic parts of the campaign (balanced by expected
    /// cost), into OUT with `.shard-K-of-N` before its extension; `morphtrace-analyze merge`
    /// joins the shards. `auto` reads a Slurm array task (SLURM_ARRAY_TASK_ID, _MIN, _COUNT) or
    /// a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, with MORPHTRACE_SHARDS or `auto/N` for
    /// N). With --resume, continues that shard's own archive.
    #[arg(long, value_name = "K/N|auto|auto/N")]
    pub(crate) shard: Option<String>,
}

impl ShardArg {
    /// The shard asked for, and the archive it writes instead of `out`.
    pub(crate) fn resolve(&self, out: &std::path::Path) -> Result<(Option<Shard>, PathBuf)> {
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
pub(crate) struct RunArgs {
    #[command(flatten)]
    pub(crate) common: EngineArgs,
    /// Programs: files, directories (searched for *.js, *.py, *.c) or globs; `test262:PATH` for
    /// test262 tests (assembled with their harness, strict and non-strict variants); `gen:1..N`
    /// for programs generated for debugging from those seeds (each run once under node before
    /// use); `truth:1..N` for the same programs recording their own state (`--strategy truth`);
    /// `csmith:1..N` for the C programs `csmith --seed N` generates (for coverage and for the
    /// native debuggers; cached by seed and Csmith version). Repeat for several.
    #[arg(long, required = true)]
    pub(crate) corpus: Vec<String>,
    /// Seeds: `7`, `1..50` (inclusive) or a comma list.
    #[arg(long, default_value = "1", value_parser = seed_spec)]
    pub(crate) seeds: String,
    /// How sessions are made and judged (see the values below).
    #[arg(long, value_enum, default_value_t = Strategy::Random)]
    pub(crate) strategy: Strategy,
    /// Breakpoints per program line (DBDB: 0.1).
    #[arg(long, default_value_t = 0.1)]
    pub(crate) bp_per_line: f64,
    /// Breakpoints set before the start at most, however long the program (beyond DBDB: at
    /// 0.1 per line the cap binds from 2,560 lines on).
    #[arg(long, default_value_t = 256)]
    pub(crate) max_breakpoints: u32,
    /// Probability of removing a breakpoint right after setting it (DBDB: 0.2).
    #[arg(long, default_value_t = 0.2)]
    pub(crate) remove_prob: f64,
    /// Which lines the breakpoints set before the start go on. `any`: any line, as DBDB draws
    /// them (a placement two debuggers make differently by design is set, judged by triage and
    /// removed again). `placeable`: only lines where every debugger of the session says a
    /// breakpoint goes on that very line (its own break positions, asked once per session:
    /// pdb's checkline, the interpreter's line table for debugpy, the JavaScript engines'
    /// possible breakpoints), so none of those placements is tried; faster on Python
    /// (debugpy against pdb), and lines where placements differ go untested.
    #[arg(long, value_enum, default_value = "any")]
    pub(crate) breakpoint_lines: BreakpointLines,
    /// Control actions per session at most (DBDB: 20).
    #[arg(long, default_value_t = 20)]
    pub(crate) max_actions: u32,
    /// Steps and optimization: pauses per trace at most (steps into, or resumes); what a trace
    /// cut short did not reach is not judged.
    #[arg(long, default_value_t = 500)]
    pub(crate) max_pauses: u32,
    /// Weight of evaluating an expression at a pause (a local, a member, arithmetic over
    /// locals, drawn from what the pause shows) against each of the four control actions
    /// (weight 1 each). 0, the default, is DBDB's Algorithm 1 exactly.
    #[arg(long, default_value_t = 0.0)]
    pub(crate) evaluate_weight: f64,
    /// Weight of setting a conditional breakpoint at a pause (on one of the ten lines below it,
    /// the condition over a number the pause shows) against each control action's 1.
    #[arg(long, default_value_t = 0.0)]
    pub(crate) condition_weight: f64,
    /// Weight of setting a logpoint at a pause (on one of the ten lines below it, logging an
    /// expression over what the pause shows: a local, a member, arithmetic) against each
    /// control action's 1.
    #[arg(long, default_value_t = 0.0)]
    pub(crate) logpoint_weight: f64,
    /// Weight of setting a local the pause shows (a number, string, boolean or null) to
    /// another primitive value against each control action's 1. CDP sets it with
    /// `setVariableValue`; Firefox and Bun, whose protocols have no such request, by an
    /// assignment evaluated on the frame.
    #[arg(long, default_value_t = 0.0)]
    pub(crate) set_variable_weight: f64,
    /// Weight of continuing to one of the ten lines below the pause against each control
    /// action's 1. Only drawn where every engine of the session can (Firefox's protocol
    /// cannot).
    #[arg(long, default_value_t = 0.0)]
    pub(crate) continue_weight: f64,
    /// Weight of restarting the frame of a function on the pause's stack (not the top-level
    /// code's) against each control action's 1. Only drawn where every engine of the session
    /// can (WebKit's protocol, Bun's, cannot).
    #[arg(long, default_value_t = 0.0)]
    pub(crate) restart_weight: f64,
    /// Which thrown exceptions pause, set before the program starts: none, uncaught, all, or
    /// random (each session draws one). Unset: nothing is set (the engine's default, none).
    #[arg(long, value_name = "MODE")]
    pub(crate) pause_on_exceptions: Option<String>,
    /// Coverage: variants (P') per program and profiler.
    #[arg(long, default_value_t = 3)]
    pub(crate) variants: usize,
    /// Coverage: run-time limit of one program run; programs that run longer are rejected.
    #[arg(long, default_value_t = 5.0)]
    pub(crate) run_timeout: f64,
    /// Coverage: skip the ground truth of JavaScript and Python programs (an instrumented copy
    /// counting every statement).
    #[arg(long)]
    pub(crate) no_truth: bool,
    /// Metamorphic: follow-up rounds after the initial session (the paper: 5).
    #[arg(long, default_value_t = 5)]
    pub(crate) rounds: u32,
    /// Metamorphic: the transformations to choose from (comma list; default: `table1`).
    /// `table1` is the 2019 paper's: add-breakpoint-and-continue, replace-continue-by-step,
    /// breakpoint-sliding, insert-dead-code, remove-dead-code, add-parameter, add-no-op,
    /// integer-literal-to-expression, boolean-literal-to-expression. `modern` is the relations
    /// over conditions, evaluation and exception pauses: condition-true, condition-false,
    /// condition-over-a-local, evaluate-a-local, pause-on-all-exceptions,
    /// logpoint-for-a-breakpoint, continue-to-location-as-a-breakpoint, set-variable-as-code,
    /// restart-frame-as-reentry.
    #[arg(long, value_delimiter = ',', value_parser = transformations)]
    pub(crate) transformations: Vec<Vec<Transformation>>,
}

/// A transformation's name, or a group's (`table1`, `modern`).
pub(crate) fn transformations(s: &str) -> Result<Vec<Transformation>, String> {
    match s {
        "table1" => Ok(Transformation::TABLE1.to_vec()),
        "modern" => Ok(Transformation::MODERN.to_vec()),
        _ => Transformation::named(s).map(|t| vec![t]).ok_or_else(|| {
            let names: Vec<&str> = Transformation::TABLE1
                .iter()
                .chain(&Transformation::MODERN)
                .map(|t| t.name())
                .collect();
            format!(
                "unknown transformation {s}; one of: table1, modern, {}",
                names.join(", ")
            )
        }),
    }
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
pub(crate) struct ReplayArgs {
    /// Archive whose sessions are replayed.
    pub(crate) archive: PathBuf,
    /// Version matrix: the kind of the archive's engine that each --engine replaces (default:
    /// the engine's own kind), e.g. `--engine deno --in-place-of node`.
    #[arg(long, value_name = "KIND")]
    pub(crate) in_place_of: Option<String>,
    #[command(flatten)]
    pub(crate) common: EngineArgs,
}

/// A replay captures as the archive was recorded (depth, Firefox's breakpoint policy, action
/// timeout, the prelude) unless the command line says otherwise: other options could make a
/// difference the replay then reports ours.
pub(crate) fn inherit_recorded_capture(r: &mut ReplayArgs, m: &ArgMatches) {
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
    if !given("frame_scopes") {
        c.frame_scopes = recorded.frame_scopes;
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
pub(crate) fn is_matrix_dir(out: &std::path::Path) -> bool {
    out.is_dir() || out.extension().is_none_or(|e| e != "mtrace")
}

/// The strategies that use each strategy-specific flag of `run`; the others refuse it, so that a
/// flag given to the wrong strategy is never silently ignored.
pub(crate) const STRATEGY_FLAGS: &[(&str, &[Strategy])] = {
    use Strategy::*;
    &[
        ("bp_per_line", &[Random, Differential, Metamorphic]),
        (
            "max_breakpoints",
            &[Random, Differential, Metamorphic, Truth],
        ),
        ("remove_prob", &[Random, Differential, Metamorphic]),
        ("breakpoint_lines", &[Random, Differential, Metamorphic]),
        ("max_actions", &[Random, Differential, Metamorphic]),
        ("max_pauses", &[Steps, Optimization]),
        ("evaluate_weight", &[Random, Differential, Metamorphic]),
        ("condition_weight", &[Random, Differential, Metamorphic]),
        ("logpoint_weight", &[Random, Differential, Metamorphic]),
        ("set_variable_weight", &[Random, Differential, Metamorphic]),
        ("continue_weight", &[Random, Differential, Metamorphic]),
        ("restart_weight", &[Random, Differential, Metamorphic]),
        ("pause_on_exceptions", &[Random, Differential, Metamorphic]),
        ("variants", &[Coverage]),
        ("run_timeout", &[Coverage]),
        ("no_truth", &[Coverage]),
        ("rounds", &[Metamorphic]),
        ("transformations", &[Metamorphic]),
        ("compare_columns", &[Differential]),
        ("ignore_variables", &[Differential]),
        ("ignore_breakpoints", &[Differential]),
        ("ignore_object_shells", &[Differential]),
        ("ignore_async_stacks", &[Differential]),
        (
            "attached_output",
            &[Random, Differential, Metamorphic, Truth],
        ),
        (
            "session_timeout",
            &[
                Random,
                Differential,
                Metamorphic,
                Truth,
                Steps,
                Optimization,
            ],
        ),
        (
            "action_timeout",
            &[
                Random,
                Differential,
                Metamorphic,
                Truth,
                Steps,
                Optimization,
            ],
        ),
        (
            "depth",
            &[
                Random,
                Differential,
                Metamorphic,
                Truth,
                Steps,
                Optimization,
            ],
        ),
        (
            "prepared",
            &[
                Random,
                Differential,
                Metamorphic,
                Truth,
                Steps,
                Optimization,
            ],
        ),
        (
            "firefox_breakpoints",
            &[Random, Differential, Metamorphic, Truth, Steps],
        ),
        (
            "restart_every",
            &[
                Random,
                Differential,
                Metamorphic,
                Truth,
                Steps,
                Optimization,
            ],
        ),
        (
            "python_start",
            &[Random, Differential, Metamorphic, Coverage, Truth, Steps],
        ),
        (
            "no_prelude",
            &[Random, Differential, Metamorphic, Coverage, Truth, Steps],
        ),
    ]
};

/// Refuses a strategy-specific flag given (on the command line) to a strategy that does not use it.
pub(crate) fn check_strategy_flags(run: &ArgMatches, strategy: Strategy) -> Result<(), String> {
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

/// The triage lockstep goes on under: `--triage FILE`, else the nearest triage.toml (none:
/// sessions stop at their first divergence, as with --stop-at-first-divergence).
pub(crate) fn lockstep_triage(
    a: &EngineArgs,
) -> Result<Option<std::sync::Arc<morphtrace_judges::triage::Triage>>> {
    if a.stop_at_first_divergence {
        return Ok(None);
    }
    let t = morphtrace_judges::triage::find(a.triage.as_deref())?;
    Ok(t.path.is_some().then(|| std::sync::Arc::new(t)))
}

pub(crate) fn capture(a: &EngineArgs) -> Result<CaptureOptions> {
    if !(a.action_timeout > 0.0 && a.session_timeout > 0.0) {
        bail!("timeouts must be positive");
    }
    Ok(CaptureOptions {
        depth: a.depth,
        frame_scopes: a.frame_scopes,
        action_timeout: Duration::from_secs_f64(a.action_timeout),
        breakpoint_policy: a.firefox_breakpoints,
        restart_every: a.restart_every,
        prelude: !a.no_prelude,
        python_start: a.python_start.into(),
        ..CaptureOptions::default()
    })
}

impl From<PythonStartArg> for PythonStart {
    fn from(a: PythonStartArg) -> PythonStart {
        match a {
            PythonStartArg::Warm => PythonStart::Warm,
            PythonStartArg::Cold => PythonStart::Cold,
        }
    }
}

/// `--breakpoint-lines`'s values (`RandomParams::placeable_lines`).
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub(crate) enum BreakpointLines {
    Any,
    Placeable,
}

/// `--python-start`'s values (`morphtrace_recorder::debugger::PythonStart`).
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub(crate) enum PythonStartArg {
    Warm,
    Cold,
}

/// `--attached-output`'s values (`morphtrace_judges::attached::Check`).
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub(crate) enum AttachedOutput {
    Off,
    Ended,
    RunOn,
}

pub(crate) fn policy(a: &EngineArgs) -> ComparisonPolicy {
    use morphtrace_judges::attached::Check;
    ComparisonPolicy {
        attached_output: match a.attached_output {
            AttachedOutput::Off => Check::Off,
            AttachedOutput::Ended => Check::Ended,
            AttachedOutput::RunOn => Check::RunOn,
        },
        columns: a.compare_columns,
        variables: !a.ignore_variables,
        breakpoints: !a.ignore_breakpoints,
        object_shells: !a.ignore_object_shells,
        async_stack: !a.ignore_async_stacks,
        ..ComparisonPolicy::default()
    }
}

pub(crate) fn campaign_of(
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
        prepared: a.prepared,
        out,
        resume: a.resume,
        writer: WriterOptions::default(),
        progress: std::io::stderr().is_terminal(),
        workdir: workdir.to_path_buf(),
        shard,
        wrap: None,
    })
}

/// `--seeds` checked where the flags are parsed, so that an empty or malformed range is a usage
/// error (exit 2) like any other wrong flag; kept as written for the archive's header.
fn seed_spec(spec: &str) -> Result<String, String> {
    morphtrace_recorder::parse_seeds(spec).map(|_| spec.to_string())
}

#[cfg(test)]
mod tests {
    /// Every subcommand and argument says what it is in `--help`, and the list of subcommands
    /// gives each one line (the rest of a description is in its own `--help`).
    #[test]
    fn every_command_and_argument_is_described_and_summarized_in_one_line() {
        use clap::CommandFactory;
        morphtrace_testkit::cli::assert_help_is_complete(&super::Cli::command(), 90);
    }
}
