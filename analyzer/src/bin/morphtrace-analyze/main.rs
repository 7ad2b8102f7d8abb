//! `morphtrace-analyze`: offline analysis of morphtrace archives.

mod genmorph;

use anyhow::Result;
use clap::{Parser, Subcommand};
use morphtrace_analyzer::dbdb::{classes, rejudge};
use morphtrace_analyzer::load::{self, Archives, Want};
use morphtrace_analyzer::render::{Format, Table};
use morphtrace_analyzer::{compare, dataset, export, info, metamorphic, report, show, tables};
use morphtrace_schema::dbdb::ComparisonPolicy;
use morphtrace_schema::ArchiveReader;
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit code of `info` when an archive was readable but had to be recovered.
const EXIT_DAMAGED: u8 = 3;
const EXIT_UNREADABLE: u8 = 1;
/// Exit code of `findings` when some class chosen for reduction could not be reduced.
const EXIT_NOT_REDUCED: u8 = 4;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "morphtrace-analyze",
    version,
    about = "Analyze morphtrace trace archives offline (no debugger needed)",
    long_about = "Analyze morphtrace trace archives (.mtrace) offline. The analyzer never talks to a \
                  debugger: everything it needs (programs, engine versions, seeds, actions, outputs) is \
                  in the archive, so archives recorded on a test machine can be studied anywhere.",
    after_help = "ARCHIVES may be files, directories (every .mtrace below) or quoted glob patterns. \
                  A damaged or truncated archive contributes what it still holds (a warning says what \
                  was lost); an archive that cannot be read at all makes the exit status 1 after the \
                  others are analyzed."
)]
struct Cli {
    /// Log level filter (e.g. `info`, `debug`); also read from RUST_LOG.
    #[arg(long, global = true, default_value = "warn")]
    log: String,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Summarize archives: header, engines and versions, sessions by mode and outcome,
    /// divergences, programs, and integrity (what a damaged archive still holds).
    ///
    /// Exit status: 0 when every archive is intact, 3 when one had to be recovered (damaged or
    /// truncated: what could be read is reported), 1 when one cannot be read at all.
    Info {
        /// Archive files (.mtrace).
        #[arg(required = true)]
        archives: Vec<PathBuf>,
        /// Print JSON (one object per archive, in an array) instead of text.
        #[arg(long)]
        json: bool,
        /// How many programs to list per archive.
        #[arg(long, default_value_t = 10)]
        programs: usize,
    },
    /// Join the shards of one campaign (`morphtrace-record run ... --shard K/N`) into one
    /// archive, as if it had been recorded unsharded: the same sessions, ids and traces. Refuses
    /// archives of different campaigns (parameters, engines, versions), and — unless
    /// --allow-missing — a shard set with a shard or a shard's task missing (an interrupted
    /// array task: continue it with --resume); a shard given twice is kept once.
    Merge {
        /// Shard archives: files, directories (every .mtrace below) or quoted globs.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// The merged archive (must not exist).
        #[arg(long)]
        out: PathBuf,
        /// Merge what there is even when shards or tasks are missing (reported).
        #[arg(long)]
        allow_missing: bool,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print sessions event by event: actions, breakpoint locations, pauses with call stacks and
    /// variables, program ends, and the divergence if any.
    Show {
        archive: PathBuf,
        /// Session ids (16 hex digits) or positions in the archive (0-based); all if none.
        sessions: Vec<String>,
        /// Only sessions that diverged.
        #[arg(long)]
        diverged: bool,
        /// At most this many sessions.
        #[arg(long, default_value_t = 20)]
        limit: usize,
        /// Print the text of the program whose hash starts with this (a P' of a coverage
        /// campaign, an instrumented copy, ...) instead of sessions: a reproducer to hand on.
        #[arg(long, value_name = "HASH")]
        program: Option<String>,
    },
    /// DBDB equivalence classes: divergences by (type, last action, AST node type of the line
    /// where the last action was triggered), and warnings by (relation, transformation, AST
    /// node type), with sizes and shares, largest first; with three engines or more, the
    /// divergence classes again, grouped by suspect engine (the one that stood alone).
    Classes {
        #[arg(required = true)]
        archives: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Markdown)]
        format: Format,
        /// Print at most this many classes per table (0: all).
        #[arg(long, default_value_t = 0)]
        top: usize,
        /// The triage file giving each class its verdict (engine bug, by design,
        /// representation, harness). Default: the nearest triage.toml from the current
        /// directory up.
        #[arg(long, value_name = "FILE")]
        triage: Option<PathBuf>,
        /// Only the classes with members no triage rule judges; exit 1 if there are any.
        #[arg(long)]
        new: bool,
    },
    /// The triage file: read and check it (every rule that excuses a difference must carry
    /// evidence, an example it judges and a near miss it must not; each is checked), then list
    /// its rules. With --check ARCHIVES: per rule, how many members of the archives it is the
    /// first to judge and in how many distinct shapes (numbers and strings aside), so that a
    /// reviewer sees a rule that reaches further than its evidence; the members no rule
    /// judges close the list.
    Triage {
        /// Archives whose divergences, warnings and coverage inconsistencies to judge.
        #[arg(requires = "check")]
        archives: Vec<PathBuf>,
        /// Judge the members of ARCHIVES and count them per rule.
        #[arg(long, requires = "archives")]
        check: bool,
        /// The triage file (default: the nearest triage.toml from the current directory up).
        #[arg(long, value_name = "FILE")]
        triage: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Markdown)]
        format: Format,
    },
    /// Findings in one command: for every class not triaged as by design or as ours (new,
    /// engine bug, representation), reduce one representative with `morphtrace-record reduce`
    /// (run as a separate process: the analyzer never talks to a debugger) into DIR/NN-CLASS, a
    /// bundle with a standalone reproducer; then write DIR/index.html (per finding the reduced
    /// program with each engine's pauses side by side and the variables that differ, or the
    /// coverage line and its counts; for a metamorphic warning, parent and follow-up) and
    /// DIR/findings.json.
    ///
    /// Exit status: 0 when every chosen class was reduced (or none needed it), 4 when some
    /// class could not be reduced (each is listed as NOT REDUCED, with what `reduce` said), 1
    /// when an archive could not be read.
    Findings {
        /// Archives to draw the classes from (not with --index-only).
        #[arg(required_unless_present = "index_only")]
        archives: Vec<PathBuf>,
        /// Output directory (created; with --index-only, the directory of bundles to index).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Seconds of reduction per finding.
        #[arg(long, default_value_t = 300.0)]
        budget: f64,
        /// Reduce at most this many classes, largest first per family (0: all).
        #[arg(long, default_value_t = 0)]
        max: usize,
        /// The triage file (default: the nearest triage.toml from the current directory up).
        #[arg(long, value_name = "FILE")]
        triage: Option<PathBuf>,
        /// The recorder to reduce with (default: morphtrace-record next to this executable,
        /// else from PATH).
        #[arg(long, value_name = "PATH")]
        recorder: Option<PathBuf>,
        /// Only (re)write DIR/index.html for the bundles already in DIR (e.g. traces/findings).
        #[arg(long)]
        index_only: bool,
    },
    /// Draw divergences for manual inspection, one per class in turn, largest class first
    /// (DBDB §3.4), each with its trace excerpt around the divergence.
    Sample {
        #[arg(required = true)]
        archives: Vec<PathBuf>,
        /// How many to draw.
        #[arg(long, short, default_value_t = 50)]
        n: usize,
        /// Seed of the order within each class.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Actions shown before the diverging one.
        #[arg(long, default_value_t = 3)]
        context: u32,
        /// Draw warnings (metamorphic) instead of divergences.
        #[arg(long)]
        warnings: bool,
        /// Draw coverage inconsistencies (Cod, C2V, ground truth) left after the weak-noise
        /// filter, each with P and the other side around the line (the default when the archives
        /// hold neither divergences nor warnings). `--context` is then lines around it.
        #[arg(long)]
        coverage: bool,
    },
    /// Re-judge recorded differential sessions offline under the recorded comparison policy and
    /// under alternatives (compare columns; ignore variables; ignore breakpoint outputs; ignore
    /// object shells; ignore call stacks), printing how counts and classes change; and
    /// metamorphic follow-ups against their parents with their transformations' relations.
    Relations {
        #[arg(required = true)]
        archives: Vec<PathBuf>,
        /// An extra policy: NAME=SETTINGS with SETTINGS like `columns=true,variables=false`
        /// (keys: columns, call_stack, variables, breakpoints, object_shells), applied on top of
        /// each archive's recorded policy. Repeatable.
        #[arg(long = "policy", value_name = "NAME=SETTINGS")]
        policies: Vec<String>,
        #[arg(long, value_enum, default_value_t = Format::Markdown)]
        format: Format,
        /// Class changes listed per policy.
        #[arg(long, default_value_t = 10)]
        top: usize,
    },
    /// Regenerate the papers' evaluation tables: DBDB Figure 7 data, Table 2, divergence types,
    /// runtimes; ISSTA 2019 Figure 15, warnings per transformation, interactive share.
    Tables {
        #[arg(required = true)]
        archives: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Markdown)]
        format: Format,
        #[arg(long, value_enum, default_value_t = tables::Paper::All)]
        paper: tables::Paper,
        /// Only the table of this name (outcomes, figure7, table2, divergence_types, runtime,
        /// figure15, warnings_per_transformation, interactive_share).
        #[arg(long)]
        table: Option<String>,
        /// Classes in Table 2.
        #[arg(long, default_value_t = 6)]
        top: usize,
        /// Write one file per table into this directory instead of printing.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Compare two campaigns over the same programs and seeds (e.g. Chromium 155 vs 156, or a
    /// replay on a new version): changed outcomes, classes that appeared or vanished, programs.
    Compare {
        /// Archives of campaign A (file, directory or quoted glob).
        a: PathBuf,
        /// Archives of campaign B.
        b: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Markdown)]
        format: Format,
        /// Changed sessions listed.
        #[arg(long, default_value_t = 20)]
        limit: usize,
        /// The triage file (default: the nearest triage.toml from the current directory up):
        /// classes that appeared are flagged when no rule judges them.
        #[arg(long, value_name = "FILE")]
        triage: Option<PathBuf>,
    },
    /// A version matrix (`morphtrace-record replay A --engine chromium@92 --engine chromium@110
    /// ... --out DIR`): divergence classes × versions (members per version, first and last
    /// version a class shows in), outcomes per version, and the sessions whose outcome changed
    /// between neighbouring versions. Each archive is one version (its column named by the
    /// engine that differs), ordered by version number.
    Versions {
        /// Archives, directories of archives (one archive per version) or quoted globs.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Markdown)]
        format: Format,
        /// Also write the tables with a plot of class sizes across versions as HTML.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Write a self-contained HTML report (tables and SVG plots).
    Report {
        #[arg(required = true)]
        archives: Vec<PathBuf>,
        #[arg(long, default_value = "report.html")]
        out: PathBuf,
        #[arg(long, default_value_t = 10)]
        top: usize,
        /// The triage file (default: the nearest triage.toml from the current directory up):
        /// the report lists new classes apart from triaged ones.
        #[arg(long, value_name = "FILE")]
        triage: Option<PathBuf>,
    },
    /// Export every DataFrame (archives, engines, sessions, actions, outputs, frames, variables,
    /// breakpoints, divergences, warnings, coverage_lines, coverage_blocks) as Parquet or CSV.
    Export {
        archives: Vec<PathBuf>,
        /// Directory for one Parquet file per frame.
        #[arg(long, conflicts_with = "csv")]
        parquet: Option<PathBuf>,
        /// Directory for one CSV file per frame.
        #[arg(long, conflicts_with = "dataset")]
        csv: Option<PathBuf>,
        /// New directory for a partitioned Parquet dataset: DIR/<frame>/part-NNNNN.parquet, one
        /// part per archive (per shard), written one archive at a time, and DIR/dataset.json.
        /// `tables`, `classes` and `compare` take DIR in place of archives and read only the
        /// frames they need, without decoding the archives again.
        #[arg(long, conflicts_with = "parquet")]
        dataset: Option<PathBuf>,
        /// Print the frames' columns (Markdown) and exit.
        #[arg(long)]
        schema: bool,
    },
    /// Relation synthesis (GenMorph): search output relations over recorded executions of
    /// library functions, print Table II, write the relations as node tests.
    Genmorph {
        #[command(subcommand)]
        command: genmorph::GenmorphCommand,
    },
}

/// Loads the inputs (archives, or one dataset directory written by `export --dataset`),
/// reporting damage on stderr; fails when nothing could be read.
fn load_inputs(inputs: &[PathBuf], want: Want, unreadable: &mut bool) -> Result<Archives> {
    if let Some(d) = inputs.iter().find(|p| dataset::is_dataset(p)) {
        if inputs.len() > 1 {
            anyhow::bail!(
                "{} is a dataset: give it alone, not with other archives or datasets",
                d.display()
            );
        }
        let loaded = dataset::load(d, want)?;
        for u in &loaded.unreadable {
            eprintln!("morphtrace-analyze: when the dataset was written: {u}");
        }
        return Ok(loaded);
    }
    let paths = load::expand(inputs)?;
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message(format!("loading {} archive(s)", paths.len()));
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    let d = load::load(&paths, want)?;
    bar.finish_and_clear();
    for u in &d.unreadable {
        eprintln!("morphtrace-analyze: {u}");
        *unreadable = true;
    }
    for s in &d.sources {
        if !s.recovery.is_intact() {
            eprintln!(
                "morphtrace-analyze: {}: damaged or truncated, {} bytes dropped; analyzing the {} sessions it still holds",
                s.path,
                s.recovery.dropped_bytes(),
                s.sessions
            );
        }
        for u in &s.undecodable {
            eprintln!("morphtrace-analyze: {}: session {u}", s.path);
        }
    }
    if d.sources.is_empty() {
        anyhow::bail!("no archive could be read");
    }
    Ok(d)
}

fn print_tables(ts: &[Table], f: Format) {
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            println!();
        }
        if f == Format::Csv && ts.len() > 1 {
            println!("# {}", t.name);
        }
        print!("{}", t.render(f));
    }
}

/// `NAME=key=value,...` as a variant of `base` (the recorded policy).
fn parse_policy(spec: &str, base: &ComparisonPolicy) -> Result<rejudge::PolicyVariant> {
    let (name, settings) = spec
        .split_once('=')
        .ok_or_else(|| anyhow::anyhow!("--policy {spec:?}: expected NAME=key=value,..."))?;
    let mut policy = base.clone();
    for kv in settings.split(',') {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("--policy {spec:?}: {kv:?} is not key=value"))?;
        let v: bool = v
            .parse()
            .map_err(|_| anyhow::anyhow!("--policy {spec:?}: {v:?} is not true or false"))?;
        if !policy.set(k, v) {
            anyhow::bail!(
                "--policy {spec:?}: unknown key {k:?} ({})",
                ComparisonPolicy::KEYS.join(", ")
            );
        }
    }
    Ok(rejudge::PolicyVariant {
        name: name.to_string(),
        policy,
    })
}

fn main() -> ExitCode {
    // Like other Unix tools, stop quietly when the reader of our output goes away (`| head`)
    // instead of failing on the next print.
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(&cli.log));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("morphtrace-analyze: {e:#}");
            ExitCode::from(EXIT_UNREADABLE)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let mut unreadable = false;
    let code = |unreadable: bool| {
        if unreadable {
            ExitCode::from(EXIT_UNREADABLE)
        } else {
            ExitCode::SUCCESS
        }
    };
    match cli.command {
        Command::Merge {
            shards,
            out,
            allow_missing,
            json,
        } => {
            let paths = load::expand(&shards)?;
            let report = morphtrace_analyzer::merge::merge(&paths, &out, allow_missing)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{report}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Info {
            archives,
            json,
            programs,
        } => {
            let mut worst = 0u8;
            let mut infos = Vec::new();
            for path in &archives {
                let shown = path.display().to_string();
                match ArchiveReader::open(path) {
                    Ok(reader) => {
                        let i = info::summarize(&shown, &reader);
                        if i.is_damaged() && worst != EXIT_UNREADABLE {
                            worst = EXIT_DAMAGED;
                        }
                        if json {
                            infos.push(i);
                        } else {
                            if archives.len() > 1 && !infos.is_empty() {
                                println!();
                            }
                            print!("{}", info::render(&i, programs));
                            infos.push(i);
                        }
                    }
                    Err(e) => {
                        eprintln!("morphtrace-analyze: {shown}: {e}");
                        worst = EXIT_UNREADABLE;
                    }
                }
            }
            if json {
                println!("{}", serde_json::to_string_pretty(&infos)?);
            }
            Ok(ExitCode::from(worst))
        }
        Command::Show {
            archive,
            sessions,
            diverged,
            limit,
            program,
        } => {
            let reader = ArchiveReader::open(&archive)
                .map_err(|e| anyhow::anyhow!("{}: {e}", archive.display()))?;
            if let Some(prefix) = program {
                let prefix = prefix.to_ascii_lowercase();
                let found: Vec<_> = reader
                    .programs()
                    .values()
                    .filter(|p| p.hash.to_string().starts_with(&prefix))
                    .collect();
                match found.as_slice() {
                    [p] => {
                        print!("{}", p.text);
                        return Ok(code(unreadable));
                    }
                    [] => anyhow::bail!("no program {prefix}… in {}", archive.display()),
                    _ => anyhow::bail!(
                        "{} programs start with {prefix}: give more digits",
                        found.len()
                    ),
                }
            }
            let mut shown = 0;
            for (i, s) in reader.sessions().enumerate() {
                let s = match s {
                    Ok(s) => s,
                    Err(e) => {
                        eprintln!("morphtrace-analyze: session {i}: {e}");
                        continue;
                    }
                };
                let wanted = sessions.is_empty()
                    || sessions
                        .iter()
                        .any(|w| *w == s.id.to_string() || *w == i.to_string());
                if !wanted || (diverged && s.divergence.is_none()) {
                    continue;
                }
                if shown == limit {
                    break;
                }
                shown += 1;
                let program = reader.program(&s.program).map(|p| p.origin.name());
                println!("{}", show::render(reader.header(), &s, program.as_deref()));
            }
            if shown == 0 && !sessions.is_empty() {
                anyhow::bail!("no such session in {}", archive.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Classes {
            archives,
            format,
            top,
            triage,
            new,
        } => {
            let triage = morphtrace_analyzer::triage::find(triage.as_deref())?;
            let d = load_inputs(&archives, Want::SUMMARY, &mut unreadable)?;
            let f = &d.frames;
            let (shown, untriaged) = class_tables(
                f,
                &triage,
                if new { Split::NewOnly } else { Split::All },
                top,
            )?;
            let mut shown = shown;
            // Three engines or more: the same classes, grouped by the engine that stood alone.
            if !new {
                if let Some(t) =
                    morphtrace_analyzer::tables::classes_by_suspect(&f.divergences, top)?
                {
                    shown.push(t);
                }
            }
            print_tables(&shown, format);
            if let Some(p) = &triage.path {
                eprintln!(
                    "triage: {} ({} rules); {untriaged} classes not judged by any",
                    p.display(),
                    triage.rules.len()
                );
            } else {
                eprintln!("triage: no triage.toml found (every class is new)");
            }
            if new && untriaged > 0 {
                return Ok(ExitCode::FAILURE);
            }
            Ok(code(unreadable))
        }
        Command::Triage {
            archives,
            check,
            triage,
            format,
        } => {
            use morphtrace_analyzer::triage::{self, Family};
            let t = triage::find(triage.as_deref())?;
            let Some(path) = &t.path else {
                anyhow::bail!("no triage.toml found here or above; give one with --triage FILE");
            };
            let empty = load::Frames::empty()?;
            let d;
            let f = if check {
                d = load_inputs(&archives, Want::SUMMARY, &mut unreadable)?;
                &d.frames
            } else {
                &empty
            };
            let cod_reports = morphtrace_analyzer::cod::reports(f)?;
            let c = triage::check(
                &t,
                &[
                    (Family::Divergence, &f.divergences),
                    (Family::Warning, &f.warnings),
                    (Family::Inconsistency, &cod_reports),
                ],
            )?;
            print_tables(
                &[Table::from_df(
                    "triage_rules",
                    &format!("Triage rules of {}", path.display()),
                    &c,
                )],
                format,
            );
            eprintln!(
                "triage: {} rules, every example and near miss as its rule says",
                t.rules.len()
            );
            Ok(code(unreadable))
        }
        Command::Findings {
            archives,
            out,
            budget,
            max,
            triage,
            recorder,
            index_only,
        } => findings(
            &archives,
            &out,
            budget,
            max,
            triage.as_deref(),
            recorder,
            index_only,
        ),
        Command::Sample {
            archives,
            n,
            seed,
            context,
            warnings,
            coverage,
        } => {
            let want = Want {
                coverage: true,
                ..Want::SUMMARY
            };
            let d = load_inputs(&archives, want, &mut unreadable)?;
            let f = &d.frames;
            let only_coverage = f.divergences.height() == 0
                && f.warnings.height() == 0
                && f.inconsistencies.height() > 0;
            if coverage || (only_coverage && !warnings) {
                print!(
                    "{}",
                    morphtrace_analyzer::cod::sample(&d, n, seed, context)?
                );
                return Ok(code(unreadable));
            }
            let (members, keys) = if warnings {
                (&d.frames.warnings, classes::WARNING_KEYS)
            } else {
                (&d.frames.divergences, classes::DIVERGENCE_KEYS)
            };
            let drawn = classes::sample(members, &keys, n, seed)?;
            let cls = classes::classes(members, &keys)?;
            let sizes = classes::u32s(&cls, "size")?;
            let arch = classes::u32s(members, "archive")?;
            let pos = classes::u32s(members, "session")?;
            let details = classes::strings(members, if warnings { "message" } else { "detail" })?;
            let at: Vec<u32> = if warnings {
                classes::u32s(members, "event_index")?
            } else {
                classes::u32s(members, "action_index")?
            };
            println!(
                "{} of {} {} drawn from {} classes, round-robin, largest class first (seed {seed})",
                drawn.len(),
                members.height(),
                if warnings { "warnings" } else { "divergences" },
                cls.height()
            );
            let mut readers: std::collections::HashMap<u32, ArchiveReader> = Default::default();
            for (i, m) in drawn.iter().enumerate() {
                let a = arch[m.row];
                let src = &d.sources[a as usize];
                println!(
                    "\n#{} class {} [{}] ({} members): {}\n  {} session {}",
                    i + 1,
                    m.class + 1,
                    m.key.join(" / "),
                    sizes[m.class],
                    details[m.row],
                    src.path,
                    pos[m.row],
                );
                if let std::collections::hash_map::Entry::Vacant(e) = readers.entry(a) {
                    e.insert(ArchiveReader::open(&src.path)?);
                }
                let r = &readers[&a];
                match r.session(pos[m.row] as usize) {
                    Ok(s) => {
                        let program = r
                            .program(&s.program)
                            .map(|p| p.origin.name())
                            .unwrap_or_default();
                        println!("  program {program}, seed {}, id {}", s.seed, s.id);
                        // A warning's index counts events; the excerpt counts actions.
                        let action = if warnings {
                            s.traces
                                .first()
                                .and_then(|t| load::action_of_event(&t.into(), at[m.row]))
                                .unwrap_or(0)
                        } else {
                            at[m.row]
                        };
                        print!("{}", show::excerpt(r.header(), &s, action, context));
                    }
                    Err(e) => println!("  (session does not decode: {e})"),
                }
            }
            Ok(code(unreadable))
        }
        Command::Relations {
            archives,
            policies,
            format,
            top,
        } => {
            let (readers, bad) = load::open_all(&load::expand(&archives)?);
            for b in &bad {
                eprintln!("morphtrace-analyze: {b}");
                unreadable = true;
            }
            if readers.is_empty() {
                anyhow::bail!("no archive could be read");
            }
            let base = readers
                .first()
                .map(|(_, r)| ComparisonPolicy::from_params(&r.header().campaign.params))
                .unwrap_or_default();
            let mut extra = Vec::new();
            for spec in &policies {
                extra.push(parse_policy(spec, &base)?);
            }
            let r = rejudge::rejudge(&readers, &extra);
            for s in r.inconsistent.iter().take(10) {
                eprintln!("morphtrace-analyze: re-judging under the recorded policy disagrees with the recording: {s}");
            }
            let m = metamorphic::rejudge(&readers);
            for f in m.follow_ups.iter().filter(|f| !f.agrees()).take(10) {
                eprintln!(
                    "morphtrace-analyze: {}: follow-up {} re-judged differently: recorded {:?}, now {:?}{}",
                    f.archive,
                    f.session,
                    f.recorded,
                    f.again,
                    f.message.as_ref().map(|m| format!(" ({m})")).unwrap_or_default()
                );
            }
            let mut tables = Vec::new();
            if r.sessions > 0 || m.follow_ups.is_empty() {
                tables.extend(rejudge::tables(&r, top)?);
            }
            if !m.follow_ups.is_empty() {
                tables.push(metamorphic::table(&m));
            }
            print_tables(&tables, format);
            Ok(code(unreadable))
        }
        Command::Tables {
            archives,
            format,
            paper,
            table,
            top,
            out,
        } => {
            let d = load_inputs(&archives, Want::SUMMARY, &mut unreadable)?;
            let mut ts = tables::all(&d.frames, paper, top)?;
            if let Some(name) = &table {
                ts.retain(|t| &t.name == name);
                if ts.is_empty() {
                    anyhow::bail!("no table named {name:?} (see --help)");
                }
            }
            match out {
                Some(dir) => {
                    std::fs::create_dir_all(&dir)?;
                    for t in &ts {
                        let p = dir.join(format!("{}.{}", t.name, format.extension()));
                        std::fs::write(&p, t.render(format))?;
                        println!("{}", p.display());
                    }
                }
                None => print_tables(&ts, format),
            }
            Ok(code(unreadable))
        }
        Command::Compare {
            a,
            b,
            format,
            limit,
            triage,
        } => {
            let triage = morphtrace_analyzer::triage::find(triage.as_deref())?;
            let da = load_inputs(&[a], Want::SUMMARY, &mut unreadable)?;
            let db = load_inputs(&[b], Want::SUMMARY, &mut unreadable)?;
            print_tables(&compare::compare(&da, &db, limit, &triage)?, format);
            Ok(code(unreadable))
        }
        Command::Versions {
            inputs,
            format,
            html,
        } => {
            let paths = load::expand(&inputs)?;
            if paths.len() < 2 {
                anyhow::bail!(
                    "versions needs the archives of two versions or more ({} found)",
                    paths.len()
                );
            }
            let mut loaded = Vec::new();
            for p in &paths {
                match load_inputs(std::slice::from_ref(p), Want::SUMMARY, &mut unreadable) {
                    Ok(d) if !d.sources.is_empty() => loaded.push(d),
                    Ok(_) => {}
                    Err(e) => {
                        eprintln!("morphtrace-analyze: {}: {e:#}", p.display());
                        unreadable = true;
                    }
                }
            }
            let refs: Vec<&Archives> = loaded.iter().collect();
            let labels = morphtrace_analyzer::versions::labels(&refs);
            let mut columns: Vec<morphtrace_analyzer::versions::Column> = labels
                .into_iter()
                .zip(&loaded)
                .map(|(label, data)| morphtrace_analyzer::versions::Column { label, data })
                .collect();
            columns.sort_by_key(|c| morphtrace_analyzer::versions::version_key(&c.label));
            let ts = morphtrace_analyzer::versions::matrix(&columns)?;
            print_tables(&ts, format);
            if let Some(h) = html {
                let intro = format!(
                    "{} versions: {}.",
                    columns.len(),
                    columns
                        .iter()
                        .map(|c| c.label.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                std::fs::write(
                    &h,
                    report::tables_page("morphtrace version matrix", &intro, &ts),
                )
                .map_err(|e| anyhow::anyhow!("{}: {e}", h.display()))?;
                println!("{}", h.display());
            }
            Ok(code(unreadable))
        }
        Command::Report {
            archives,
            out,
            top,
            triage,
        } => {
            let triage = morphtrace_analyzer::triage::find(triage.as_deref())?;
            let d = load_inputs(&archives, Want::SUMMARY, &mut unreadable)?;
            let mut ts = tables::all(&d.frames, tables::Paper::All, top)?;
            // Every class, the ones nobody has judged first.
            ts.extend(class_tables(&d.frames, &triage, Split::Separate, 0)?.0);
            std::fs::write(&out, report::render(&d, &ts))
                .map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
            println!("{}", out.display());
            Ok(code(unreadable))
        }
        Command::Genmorph { command } => {
            genmorph::run(command)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Export {
            archives,
            parquet,
            csv,
            dataset,
            schema,
        } => {
            if schema {
                print!("{}", load::schema_markdown());
                return Ok(ExitCode::SUCCESS);
            }
            if let Some(dir) = dataset {
                if archives.is_empty() {
                    anyhow::bail!("export needs at least one archive");
                }
                let w = dataset::write(&load::expand(&archives)?, &dir)?;
                for u in &w.unreadable {
                    eprintln!("morphtrace-analyze: {u}");
                }
                println!(
                    "{}: {} parts, {} sessions, {} events",
                    dir.display(),
                    w.parts,
                    w.sessions,
                    w.events
                );
                for (frame, rows) in &w.rows {
                    println!("  {frame}\t{rows} rows");
                }
                return Ok(if w.unreadable.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(EXIT_UNREADABLE)
                });
            }
            let (dir, fmt) = match (parquet, csv) {
                (Some(d), None) => (d, export::FileFormat::Parquet),
                (None, Some(d)) => (d, export::FileFormat::Csv),
                _ => anyhow::bail!("export needs --parquet DIR, --csv DIR or --dataset DIR"),
            };
            if archives.is_empty() {
                anyhow::bail!("export needs at least one archive");
            }
            let mut d = load_inputs(&archives, Want::ALL, &mut unreadable)?;
            // Each divergence's verdict under the nearest triage file, when there is one.
            let triage = morphtrace_analyzer::triage::find(None)?;
            if triage.path.is_some() {
                d.frames.divergences =
                    morphtrace_analyzer::triage::with_verdicts(&triage, &d.frames.divergences)?;
            }
            for (p, rows) in export::export(&d.frames, &dir, fmt)? {
                println!("{}\t{rows} rows", p.display());
            }
            Ok(code(unreadable))
        }
    }
}

/// Which classes `class_tables` shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Split {
    All,
    /// Only classes with members no triage rule judges.
    NewOnly,
    /// Two tables per family: new classes, then triaged ones (the HTML report).
    Separate,
}

/// The class tables of every finding family the frames hold, each class with its triage
/// verdict; and how many classes have members no rule judges.
fn class_tables(
    f: &load::Frames,
    triage: &morphtrace_analyzer::triage::Triage,
    split: Split,
    top: usize,
) -> Result<(Vec<Table>, usize)> {
    use morphtrace_analyzer::triage::Family;
    let cod_reports = morphtrace_analyzer::cod::reports(f)?;
    let families = [
        ClassTable {
            name: "divergence_classes",
            what: "divergences",
            members: &f.divergences,
            keys: &classes::DIVERGENCE_KEYS,
            family: Family::Divergence,
            headers: &["Diff. type", "Last action", "AST node"],
        },
        ClassTable {
            name: "warning_classes",
            what: "warnings",
            members: &f.warnings,
            keys: &classes::WARNING_KEYS,
            family: Family::Warning,
            headers: &["Relation", "Transformation", "AST node"],
        },
        ClassTable {
            name: "coverage_classes",
            what: "coverage inconsistencies left after the weak-noise filter",
            members: &cod_reports,
            keys: &morphtrace_analyzer::cod::KEYS,
            family: Family::Inconsistency,
            headers: &["Relation", "Profiler", "Kind", "Syntax of the line"],
        },
    ];
    let mut shown: Vec<Table> = Vec::new();
    let mut untriaged = 0;
    let any = families.iter().any(|x| x.members.height() > 0);
    for ClassTable {
        name,
        what,
        members,
        keys,
        family,
        headers,
    } in families
    {
        // A table of nothing says nothing: show the kinds the archives have (both debugger
        // tables if they have none).
        if members.height() == 0 && (any || family == Family::Inconsistency) {
            continue;
        }
        let c = classes::classes(members, keys)?;
        let c =
            morphtrace_analyzer::triage::JudgeFrames::annotate(triage, &c, members, keys, family)?;
        let open: Vec<bool> = classes::u32s(&c, "untriaged")?
            .into_iter()
            .map(|n| n > 0)
            .collect();
        untriaged += open.iter().filter(|o| **o).count();
        let parts: Vec<(String, polars::prelude::DataFrame, &str)> = match split {
            Split::All => vec![(name.to_string(), c, "")],
            Split::NewOnly => vec![(
                name.to_string(),
                classes::rows_where(&c, open)?,
                " that no triage rule judges",
            )],
            Split::Separate => vec![
                (
                    format!("{name}_new"),
                    classes::rows_where(&c, open.iter().copied())?,
                    ": new, not (or not fully) triaged",
                ),
                (
                    format!("{name}_triaged"),
                    classes::rows_where(&c, open.iter().map(|o| !o))?,
                    ": triaged",
                ),
            ],
        };
        for (name, c, which) in parts {
            let c = c.drop("untriaged")?;
            let c = if split == Split::Separate {
                c
            } else {
                c.drop("link")?
            };
            let total = c.height();
            let c = if top > 0 { c.head(Some(top)) } else { c };
            let mut t = Table::from_df(
                &name,
                &format!("{total} classes of {} {what}{which}", members.height()),
                &c,
            );
            let mut extra = vec!["Size", "in %", "Verdict", "Note"];
            if split == Split::Separate {
                extra.push("Link");
            }
            t.columns = headers
                .iter()
                .chain(extra.iter())
                .map(|h| h.to_string())
                .collect();
            shown.push(t);
        }
    }
    Ok((shown, untriaged))
}

/// One table of `classes`: a finding family's members, class keys and column headers.
struct ClassTable<'a> {
    name: &'static str,
    what: &'static str,
    members: &'a polars::prelude::DataFrame,
    keys: &'static [&'static str],
    family: morphtrace_analyzer::triage::Family,
    headers: &'static [&'static str],
}

/// `findings`: select, reduce (by the recorder), index.
fn findings(
    archives: &[PathBuf],
    out: &std::path::Path,
    budget: f64,
    max: usize,
    triage: Option<&std::path::Path>,
    recorder: Option<PathBuf>,
    index_only: bool,
) -> Result<ExitCode> {
    use morphtrace_analyzer::findings::{self, Outcome};
    if index_only {
        if !out.is_dir() {
            anyhow::bail!("{} is not a directory of bundles", out.display());
        }
        let html = findings::index(out, None, &[]);
        std::fs::write(out.join("index.html"), html)?;
        println!("{}", out.join("index.html").display());
        return Ok(ExitCode::SUCCESS);
    }
    if budget.is_nan() || budget <= 0.0 {
        anyhow::bail!("--budget must be positive");
    }
    if out.exists() {
        anyhow::bail!("{} exists: give a new directory", out.display());
    }
    let triage = morphtrace_analyzer::triage::find(triage)?;
    let mut unreadable = false;
    let want = Want {
        coverage: true,
        ..Want::SUMMARY
    };
    let d = load_inputs(archives, want, &mut unreadable)?;
    let (mut chosen, skipped) = findings::representatives(&d, &triage)?;
    if max > 0 && chosen.len() > max {
        chosen.truncate(max);
    }
    let recorder = recorder.unwrap_or_else(findings::recorder);
    std::fs::create_dir_all(out)?;
    let bar = indicatif::ProgressBar::new(chosen.len() as u64).with_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut outcomes: Vec<Outcome> = Vec::new();
    for (i, r) in chosen.iter().enumerate() {
        let slug = r.slug(i + 1);
        bar.set_message(r.key.join(" / "));
        let mut cmd = std::process::Command::new(&recorder);
        cmd.arg("reduce")
            .arg(&r.archive)
            .args(["--session", &r.session.to_string()])
            .args(["--budget", &budget.to_string()])
            .arg("--out")
            .arg(out.join(&slug));
        if let Some(c) = r.coverage_class() {
            cmd.args(["--class", &c]);
        }
        if r.divergence > 0 {
            cmd.args(["--divergence", &r.divergence.to_string()]);
        }
        // The reduction runs engines on hostile programs: it must not outlive the analyzer
        // (Ctrl-C, a killed parent). Its own children die with it in turn.
        // SAFETY: prctl with PR_SET_PDEATHSIG takes no pointers and is async-signal-safe.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut cmd, || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let o = anyhow::Context::with_context(cmd.output(), || {
            format!(
                "running {} (give the recorder with --recorder)",
                recorder.display()
            )
        })?;
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        let last = |t: &str| {
            t.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .to_string()
        };
        let written = o.status.success() && out.join(&slug).join("README.md").is_file();
        let said = if written {
            stdout.lines().next().unwrap_or("").to_string()
        } else {
            last(&stderr)
        };
        println!(
            "{} [{}] {}: {}",
            if written { "reduced" } else { "NOT REDUCED" },
            r.verdict,
            r.key.join(" / "),
            said
        );
        outcomes.push(Outcome {
            representative: r.clone(),
            bundle: written.then_some(slug),
            said,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    for s in &skipped {
        println!("left out {}: {}", s.key.join(" / "), s.why);
    }
    let summary: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| {
            let r = &o.representative;
            serde_json::json!({
                "family": format!("{:?}", r.family).to_lowercase(),
                "class": r.key,
                "members": r.size,
                "verdict": r.verdict,
                "archive": r.archive,
                "session": r.session,
                "bundle": o.bundle,
                "said": o.said,
            })
        })
        .collect();
    std::fs::write(
        out.join("findings.json"),
        serde_json::to_string_pretty(&summary)? + "\n",
    )?;
    std::fs::write(
        out.join("index.html"),
        findings::index(out, Some(&outcomes), &skipped),
    )?;
    let done = outcomes.iter().filter(|o| o.bundle.is_some()).count();
    println!(
        "{done} of {} classes reduced into bundles, {} left out; {}",
        outcomes.len(),
        skipped.len(),
        out.join("index.html").display()
    );
    Ok(if unreadable {
        ExitCode::from(EXIT_UNREADABLE)
    } else if done < outcomes.len() {
        // A class that could not be reduced is a finding not delivered: say so in the status.
        ExitCode::from(EXIT_NOT_REDUCED)
    } else {
        ExitCode::SUCCESS
    })
}
