//! The command line: every command's arguments and what `--help` says of them.

use crate::genmorph;
use clap::{Args, Parser, Subcommand};
use morphtrace_analyzer::render::Format;
use morphtrace_analyzer::tables;
use std::path::PathBuf;

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
pub(crate) struct Cli {
    /// Log level filter (e.g. `info`, `debug`); also read from RUST_LOG.
    #[arg(long, global = true, default_value = "warn")]
    pub(crate) log: String,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// What archives hold and whether they are intact.
    ///
    /// Summarize archives: header, engines and versions, sessions by mode and outcome,
    /// divergences, programs, and integrity (what a damaged archive still holds).
    ///
    /// Exit status: 0 when every archive is intact, 3 when one had to be recovered (damaged or
    /// truncated: what could be read is reported), 1 when one cannot be read at all.
    Info(InfoArgs),
    /// Join the shards of one campaign into one archive.
    ///
    /// Join the shards of one campaign (`morphtrace-record run ... --shard K/N`) into one
    /// archive, as if it had been recorded unsharded: the same sessions, ids and traces. Refuses
    /// archives of different campaigns (parameters, engines, versions), and — unless
    /// --allow-missing — a shard set with a shard or a shard's task missing (an interrupted
    /// array task: continue it with --resume); a shard given twice is kept once.
    Merge(MergeArgs),
    /// Print sessions event by event.
    ///
    /// Print sessions event by event: actions, breakpoint locations, pauses with call stacks and
    /// variables, program ends, and the divergence if any.
    Show(ShowArgs),
    /// Divergences and warnings in classes, with their triage verdicts.
    ///
    /// DBDB equivalence classes: divergences by (type, last action, AST node type of the line
    /// where the last action was triggered), and warnings by (relation, transformation, AST
    /// node type), with sizes and shares, largest first; with three engines or more, the
    /// divergence classes again, grouped by suspect engine (the one that stood alone).
    Classes(ClassesArgs),
    /// Yield by oracle: classes per 1,000 judged sessions and per CPU-hour.
    ///
    /// One row per oracle (a strategy on its engines; shards and resumed runs count together):
    /// programs, judged and undecided sessions, distinct classes (formed within the oracle, as
    /// `classes` forms them, and judged by the same triage) split into new or engine bug,
    /// allowed (by design, representation) and ours (harness, counted apart and in no rate),
    /// with classes per 1,000 judged sessions and per CPU-hour (the CPU of the recorder and
    /// every process it started, as recorded per session). Give the archives of campaigns run on
    /// the same programs and seeds to compare oracles.
    Yield(YieldArgs),
    /// Check triage.toml and list its rules; with --check, what each rule judges.
    ///
    /// The triage file: read and check it (every rule that excuses a difference must carry
    /// evidence, an example it judges and a near miss it must not; each is checked), then list
    /// its rules. With --check ARCHIVES: per rule, how many members of the archives it is the
    /// first to judge and in how many distinct shapes (numbers and strings aside), so that a
    /// reviewer sees a rule that reaches further than its evidence; the members no rule
    /// judges close the list. Among ARCHIVES, campaigns recorded with a fault planted in one
    /// debugger (scripts/fault-matrix.sh, beside the real campaign): a table of the divergences
    /// each fault caused and how they were judged, each excusing rule's score, and exit 1
    /// when a rule excuses any of them.
    Triage(TriageArgs),
    /// Reduce every class worth a report into a bundle with a standalone reproducer.
    ///
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
    Findings(FindingsArgs),
    /// Draw divergences to read, one per class in turn.
    ///
    /// Draw divergences for manual inspection, one per class in turn, largest class first
    /// (DBDB §3.4), each with its trace excerpt around the divergence.
    Sample(SampleArgs),
    /// Re-judge recorded sessions offline under other comparison policies.
    ///
    /// Re-judge recorded differential sessions offline under the recorded comparison policy and
    /// under alternatives (compare columns; ignore variables; ignore breakpoint outputs; ignore
    /// object shells; ignore call stacks), printing how counts and classes change; and
    /// metamorphic follow-ups against their parents with their transformations' relations.
    Relations(RelationsArgs),
    /// Regenerate the papers' evaluation tables and figures' data.
    ///
    /// Regenerate the papers' evaluation tables: DBDB Figure 7 data, Table 2, divergence types,
    /// runtimes; ISSTA 2019 Figure 15, warnings per transformation, interactive share.
    Tables(TablesArgs),
    /// Compare two campaigns over the same programs and seeds.
    ///
    /// Compare two campaigns over the same programs and seeds (e.g. Chromium 155 vs 156, or a
    /// replay on a new version): changed outcomes, classes that appeared or vanished, programs.
    Compare(CompareArgs),
    /// A version matrix: classes and outcomes across engine versions.
    ///
    /// A version matrix (`morphtrace-record replay A --engine chromium@92 --engine chromium@110
    /// ... --out DIR`): divergence classes × versions (members per version, first and last
    /// version a class shows in), outcomes per version, and the sessions whose outcome changed
    /// between neighbouring versions. Each archive is one version (its column named by the
    /// engine that differs), ordered by version number.
    Versions(VersionsArgs),
    /// One self-contained HTML page of tables, plots and classes.
    ///
    /// Write a self-contained HTML report (tables and SVG plots).
    Report(ReportArgs),
    /// Write the frames as Parquet, CSV or a partitioned dataset.
    ///
    /// Export every DataFrame (archives, engines, sessions, actions, outputs, frames, variables,
    /// breakpoints, divergences, warnings, coverage_lines, coverage_blocks) as Parquet or CSV.
    Export(ExportArgs),
    /// GenMorph: search, tabulate and write output relations.
    ///
    /// Relation synthesis (GenMorph): search output relations over recorded executions of
    /// library functions, print Table II, write the relations as node tests.
    Genmorph {
        #[command(subcommand)]
        command: genmorph::GenmorphCommand,
    },
}

#[derive(Args)]
pub(crate) struct InfoArgs {
    /// Archives: files, directories (every .mtrace below) or quoted globs.
    #[arg(required = true)]
    pub(crate) archives: Vec<PathBuf>,
    /// Print JSON (one object per archive, in an array) instead of text.
    #[arg(long)]
    pub(crate) json: bool,
    /// How many programs to list per archive.
    #[arg(long, default_value_t = 10)]
    pub(crate) programs: usize,
}

#[derive(Args)]
pub(crate) struct MergeArgs {
    /// Shard archives: files, directories (every .mtrace below) or quoted globs.
    #[arg(required = true)]
    pub(crate) shards: Vec<PathBuf>,
    /// The merged archive (must not exist).
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Merge what there is even when shards or tasks are missing (reported).
    #[arg(long)]
    pub(crate) allow_missing: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Args)]
pub(crate) struct ShowArgs {
    /// The archive (.mtrace) to print sessions of.
    pub(crate) archive: PathBuf,
    /// Session ids (16 hex digits) or positions in the archive (0-based); all if none.
    pub(crate) sessions: Vec<String>,
    /// Only sessions that diverged or warned: a divergence between engines, or a metamorphic
    /// relation that did not hold.
    #[arg(long)]
    pub(crate) diverged: bool,
    /// At most this many sessions.
    #[arg(long, default_value_t = 20)]
    pub(crate) limit: usize,
    /// Print the text of the program whose hash starts with this (a P' of a coverage
    /// campaign, an instrumented copy, ...) instead of sessions: a reproducer to hand on.
    #[arg(long, value_name = "HASH")]
    pub(crate) program: Option<String>,
}

#[derive(Args)]
pub(crate) struct ClassesArgs {
    /// Archives: files, directories (every .mtrace below) or quoted globs; or one dataset
    /// directory written by `export --dataset`.
    #[arg(required = true)]
    pub(crate) archives: Vec<PathBuf>,
    /// How tables are printed: Markdown, CSV, LaTeX or JSON (one array of every table).
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    pub(crate) format: Format,
    /// Print at most this many classes per table (0: all).
    #[arg(long, default_value_t = 0)]
    pub(crate) top: usize,
    /// The triage file giving each class its verdict (engine bug, by design,
    /// representation, harness). Default: the triage the archives were recorded under, else
    /// the nearest triage.toml from the current directory up (said on stderr). Give
    /// triage.toml to judge with rules edited since.
    #[arg(long, value_name = "FILE")]
    pub(crate) triage: Option<PathBuf>,
    /// Only the classes with members no triage rule judges; exit 1 if there are any.
    #[arg(long)]
    pub(crate) new: bool,
}

#[derive(Args)]
pub(crate) struct YieldArgs {
    /// Archives: files, directories (every .mtrace below) or quoted globs; or one dataset
    /// directory written by `export --dataset`.
    #[arg(required = true)]
    pub(crate) archives: Vec<PathBuf>,
    /// How tables are printed: Markdown, CSV, LaTeX or JSON (one array of every table).
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    pub(crate) format: Format,
    /// The triage file giving each class its verdict, as for `classes`.
    #[arg(long, value_name = "FILE")]
    pub(crate) triage: Option<PathBuf>,
}

#[derive(Args)]
pub(crate) struct TriageArgs {
    /// Archives whose divergences, warnings and coverage inconsistencies to judge.
    #[arg(requires = "check")]
    pub(crate) archives: Vec<PathBuf>,
    /// Judge the members of ARCHIVES and count them per rule.
    #[arg(long, requires = "archives")]
    pub(crate) check: bool,
    /// The triage file (default: the nearest triage.toml from the current directory up).
    #[arg(long, value_name = "FILE")]
    pub(crate) triage: Option<PathBuf>,
    /// How tables are printed: Markdown, CSV, LaTeX or JSON (one array of every table).
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    pub(crate) format: Format,
}

#[derive(Args)]
pub(crate) struct FindingsArgs {
    /// Archives to draw the classes from (not with --index-only).
    #[arg(required_unless_present = "index_only")]
    pub(crate) archives: Vec<PathBuf>,
    /// Output directory (created; with --index-only, the directory of bundles to index).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// Seconds of reduction per finding.
    #[arg(long, default_value_t = 300.0)]
    pub(crate) budget: f64,
    /// Reduce at most this many classes, largest first per family (0: all).
    #[arg(long, default_value_t = 0)]
    pub(crate) max: usize,
    /// The triage file (default: the triage the archives were recorded under, else the
    /// nearest triage.toml from the current directory up).
    #[arg(long, value_name = "FILE")]
    pub(crate) triage: Option<PathBuf>,
    /// The recorder to reduce with (default: morphtrace-record next to this executable,
    /// else from PATH).
    #[arg(long, value_name = "PATH")]
    pub(crate) recorder: Option<PathBuf>,
    /// Only (re)write DIR/index.html for the bundles already in DIR (e.g. traces/findings).
    #[arg(long)]
    pub(crate) index_only: bool,
}

#[derive(Args)]
pub(crate) struct SampleArgs {
    /// Archives: files, directories (every .mtrace below) or quoted globs; or one dataset
    /// directory written by `export --dataset`.
    #[arg(required = true)]
    pub(crate) archives: Vec<PathBuf>,
    /// How many to draw.
    #[arg(long, short, default_value_t = 50)]
    pub(crate) n: usize,
    /// Seed of the order within each class.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Actions shown before the diverging one.
    #[arg(long, default_value_t = 3)]
    pub(crate) context: u32,
    /// Draw warnings (metamorphic) instead of divergences.
    #[arg(long)]
    pub(crate) warnings: bool,
    /// Draw coverage inconsistencies (Cod, C2V, ground truth) left after the weak-noise
    /// filter, each with P and the other side around the line (the default when the archives
    /// hold neither divergences nor warnings). `--context` is then lines around it.
    #[arg(long)]
    pub(crate) coverage: bool,
}

#[derive(Args)]
pub(crate) struct RelationsArgs {
    /// Archives: files, directories (every .mtrace below) or quoted globs; or one dataset
    /// directory written by `export --dataset`.
    #[arg(required = true)]
    pub(crate) archives: Vec<PathBuf>,
    /// An extra policy: NAME=SETTINGS with SETTINGS like `columns=true,variables=false`
    /// (keys: columns, call_stack, variables, breakpoints, object_shells), applied on top of
    /// each archive's recorded policy. Repeatable.
    #[arg(long = "policy", value_name = "NAME=SETTINGS")]
    pub(crate) policies: Vec<String>,
    /// How tables are printed: Markdown, CSV, LaTeX or JSON (one array of every table).
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    pub(crate) format: Format,
    /// Class changes listed per policy.
    #[arg(long, default_value_t = 10)]
    pub(crate) top: usize,
}

#[derive(Args)]
pub(crate) struct TablesArgs {
    /// Archives: files, directories (every .mtrace below) or quoted globs; or one dataset
    /// directory written by `export --dataset`.
    #[arg(required = true)]
    pub(crate) archives: Vec<PathBuf>,
    /// How tables are printed: Markdown, CSV, LaTeX or JSON (one array of every table).
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    pub(crate) format: Format,
    /// Only the tables of one paper (`dbdb`, `issta`, `cod`), or all.
    #[arg(long, value_enum, default_value_t = tables::Paper::All)]
    pub(crate) paper: tables::Paper,
    /// Only the table of this name (outcomes, figure7, table2, divergence_types, runtime,
    /// figure15, warnings_per_transformation, interactive_share).
    #[arg(long)]
    pub(crate) table: Option<String>,
    /// Classes in Table 2.
    #[arg(long, default_value_t = 6)]
    pub(crate) top: usize,
    /// Write one file per table into this directory instead of printing.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
}

#[derive(Args)]
pub(crate) struct CompareArgs {
    /// Archives of campaign A (file, directory or quoted glob).
    pub(crate) a: PathBuf,
    /// Archives of campaign B.
    pub(crate) b: PathBuf,
    /// How tables are printed: Markdown, CSV, LaTeX or JSON (one array of every table).
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    pub(crate) format: Format,
    /// Changed sessions listed.
    #[arg(long, default_value_t = 20)]
    pub(crate) limit: usize,
    /// The triage file (default: the triage the archives were recorded under, else the
    /// nearest triage.toml from the current directory up): classes that appeared are flagged
    /// when no rule judges them.
    #[arg(long, value_name = "FILE")]
    pub(crate) triage: Option<PathBuf>,
}

#[derive(Args)]
pub(crate) struct VersionsArgs {
    /// Archives, directories of archives (one archive per version) or quoted globs.
    #[arg(required = true)]
    pub(crate) inputs: Vec<PathBuf>,
    /// How tables are printed: Markdown, CSV, LaTeX or JSON (one array of every table).
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    pub(crate) format: Format,
    /// Also write the tables with a plot of class sizes across versions as HTML.
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,
}

#[derive(Args)]
pub(crate) struct ReportArgs {
    /// Archives: files, directories (every .mtrace below) or quoted globs; or one dataset
    /// directory written by `export --dataset`.
    #[arg(required = true)]
    pub(crate) archives: Vec<PathBuf>,
    /// The HTML file to write.
    #[arg(long, default_value = "report.html")]
    pub(crate) out: PathBuf,
    /// Classes listed per table (largest first).
    #[arg(long, default_value_t = 10)]
    pub(crate) top: usize,
    /// The triage file (default: the triage the archives were recorded under, else the
    /// nearest triage.toml from the current directory up): the report lists new classes
    /// apart from triaged ones.
    #[arg(long, value_name = "FILE")]
    pub(crate) triage: Option<PathBuf>,
}

#[derive(Args)]
pub(crate) struct ExportArgs {
    /// Archives: files, directories (every .mtrace below) or quoted globs; or one dataset
    /// directory written by `export --dataset`.
    pub(crate) archives: Vec<PathBuf>,
    /// Directory for one Parquet file per frame.
    #[arg(long, conflicts_with = "csv")]
    pub(crate) parquet: Option<PathBuf>,
    /// Directory for one CSV file per frame.
    #[arg(long, conflicts_with = "dataset")]
    pub(crate) csv: Option<PathBuf>,
    /// New directory for a partitioned Parquet dataset: DIR/<frame>/part-NNNNN.parquet, one
    /// part per archive (per shard), written one archive at a time, and DIR/dataset.json.
    /// `tables`, `classes` and `compare` take DIR in place of archives and read only the
    /// frames they need, without decoding the archives again.
    #[arg(long, conflicts_with = "parquet")]
    pub(crate) dataset: Option<PathBuf>,
    /// Print the frames' columns (Markdown) and exit.
    #[arg(long)]
    pub(crate) schema: bool,
    /// The triage file giving each divergence its `verdict` (default: the triage the archives
    /// were recorded under, else the nearest triage.toml from the current directory up).
    #[arg(long, value_name = "FILE")]
    pub(crate) triage: Option<PathBuf>,
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
