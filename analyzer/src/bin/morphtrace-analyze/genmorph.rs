//! `morphtrace-analyze genmorph ...`: the command line of the search over recorded executions,
//! Table II and the generated JS tests (the work itself is the library's `genmorph` module). The
//! command line lives with the binary: the library has no CLI code and no anyhow.

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use morphtrace_analyzer::genmorph::search::Config;
use morphtrace_analyzer::genmorph::synth::synthesize_all;
use morphtrace_analyzer::genmorph::table2::{row, step2_map, table};
use morphtrace_analyzer::render::{Format, Table};
use morphtrace_schema::genmorph::relations::{
    FalsificationReport, RelationRecord, RelationSet, Step2,
};
use morphtrace_schema::genmorph::ExecutionBatch;
use morphtrace_schema::ArchiveReader;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Subcommand)]
pub enum GenmorphCommand {
    /// Evolve output relations for every function in the archive.
    ///
    /// Evolve output relations (Algorithm 1) for every function in the archive, split the
    /// budget over its input relations, keep those without false positives, apply filtering
    /// step 1 (evaluation inputs), and write them as JSON for `morphtrace-record falsify` and
    /// `genmorph table`. Prints candidate evaluations per second and the time to the final
    /// relations of each function.
    Search(SearchArgs),
    /// GenMorph's Table II per function.
    ///
    /// Table II per function from the archive and the relations (and a falsification report).
    Table(TableArgs),
    /// Write the valid relations as `node --test` files.
    ///
    /// Write the valid relations as `node --test` files (Listing 4's shape), one per function.
    Tests(TestsArgs),
}

#[derive(Args)]
pub struct SearchArgs {
    /// Archive with execution frames (`morphtrace-record genmorph`).
    pub archive: PathBuf,
    /// Relations file to write (JSON).
    #[arg(long)]
    pub out: PathBuf,
    /// Seconds of search per function, shared by its input relations (Table III: 30 minutes
    /// per method; our target is 3).
    #[arg(long, default_value_t = 180.0)]
    pub budget: f64,
    /// Stop each search after this many generations (deterministic runs).
    #[arg(long)]
    pub max_generations: Option<usize>,
    /// Relations kept per input relation.
    #[arg(long, default_value_t = 4)]
    pub top: usize,
    /// Only these functions (comma list of names).
    #[arg(long, value_delimiter = ',')]
    pub subjects: Vec<String>,
    /// Seed of the search's random choices (same seed and budget in generations, same
    /// relations).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Population per side (Table III: 1000).
    #[arg(long, default_value_t = 1000)]
    pub population: usize,
    /// Largest tree (Table III: 16 nodes).
    #[arg(long, default_value_t = 16)]
    pub size_bound: usize,
    /// Caps of E+ and E− (Table III: 9000 each).
    #[arg(long, default_value_t = 9000)]
    pub max_states: usize,
    /// Counterexample-guided refinement: falsification reports of an earlier round
    /// (`morphtrace-record falsify`) whose counterexamples join the correct states. Repeatable.
    /// Judge the refined relations with a falsify run of another seed.
    #[arg(long)]
    pub counterexamples: Vec<PathBuf>,
    /// Relations of an earlier round (a `genmorph search` output) that the populations start
    /// from.
    #[arg(long)]
    pub warm: Option<PathBuf>,
}

#[derive(Args)]
pub struct TableArgs {
    /// Archive with execution frames (`morphtrace-record genmorph`).
    pub archive: PathBuf,
    /// Relations written by `genmorph search`.
    #[arg(long)]
    pub relations: PathBuf,
    /// Report of `morphtrace-record falsify` (PZO and step 2); without it, step 1 only.
    #[arg(long)]
    pub falsified: Option<PathBuf>,
    /// How tables are printed: Markdown, CSV, LaTeX or JSON (one array of every table).
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    pub format: Format,
    /// Also list every valid relation per function.
    #[arg(long)]
    pub relations_list: bool,
    /// Only these functions (comma list of names), e.g. those a `search --subjects` covered:
    /// the means then leave the others out.
    #[arg(long, value_delimiter = ',')]
    pub subjects: Vec<String>,
}

#[derive(Args)]
pub struct TestsArgs {
    /// Archive with execution frames (`morphtrace-record genmorph`).
    pub archive: PathBuf,
    /// Relations written by `genmorph search`.
    #[arg(long)]
    pub relations: PathBuf,
    /// Report of `morphtrace-record falsify`: only the relations it did not falsify are
    /// written; without it, every relation that passed filtering step 1.
    #[arg(long)]
    pub falsified: Option<PathBuf>,
    /// Directory for the test files.
    #[arg(long)]
    pub out: PathBuf,
    /// Where the libraries are installed (a folder with node_modules); default: the harness
    /// folder recorded in the archive.
    #[arg(long)]
    pub js_dir: Option<PathBuf>,
}

pub fn run(cmd: GenmorphCommand) -> Result<()> {
    match cmd {
        GenmorphCommand::Search(a) => search(a),
        GenmorphCommand::Table(a) => print_table(a),
        GenmorphCommand::Tests(a) => tests(a),
    }
}

fn batches(archive: &Path) -> Result<Vec<ExecutionBatch>> {
    let reader =
        ArchiveReader::open(archive).with_context(|| format!("opening {}", archive.display()))?;
    let n = reader.execution_count();
    if n == 0 {
        bail!(
            "{} holds no execution frames (record them with `morphtrace-record genmorph`)",
            archive.display()
        );
    }
    (0..n)
        .map(|i| {
            reader
                .executions(i)
                .with_context(|| format!("execution frame {i}"))
        })
        .collect()
}

fn read_relations(path: &Path) -> Result<RelationSet> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a relations file", path.display()))
}

fn read_report(p: &Path) -> Result<FalsificationReport> {
    let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a falsification report", p.display()))
}

/// The falsification report of `set`: refused when it judged another relation set (ids repeat
/// every round, so a stale report would otherwise apply silently).
fn read_falsified(
    path: &Option<PathBuf>,
    set: &RelationSet,
) -> Result<Option<FalsificationReport>> {
    let Some(p) = path.as_deref() else {
        return Ok(None);
    };
    let report = read_report(p)?;
    match &report.relations_digest {
        Some(d) if *d != set.digest() => bail!(
            "{} judged another relation set (digest {}…, these relations {}…): run \
             `morphtrace-record falsify` on these relations",
            p.display(),
            // The report's digest is whatever its file says: cut by characters, not bytes.
            d.chars().take(12).collect::<String>(),
            &set.digest()[..12]
        ),
        Some(_) => {}
        None => tracing::warn!(
            "{} predates relation-set digests: it cannot be checked against these relations",
            p.display()
        ),
    }
    Ok(Some(report))
}

fn search(a: SearchArgs) -> Result<()> {
    if !(a.budget > 0.0 && a.budget.is_finite()) {
        bail!("--budget must be a positive number of seconds");
    }
    if a.population < 4 || a.size_bound < 3 {
        bail!("--population must be at least 4 and --size-bound at least 3");
    }
    let all = only(batches(&a.archive)?, &a.subjects, &a.archive)?;
    let cfg = Config {
        budget: Duration::from_secs_f64(a.budget),
        max_generations: a.max_generations,
        population: a.population,
        size_bound: a.size_bound,
        max_correct: a.max_states,
        max_incorrect: a.max_states,
        migrants: (a.population * 4 / 25).max(1),
        seed: a.seed,
        ..Config::default()
    };
    let reports = a
        .counterexamples
        .iter()
        .map(|p| read_report(p))
        .collect::<Result<Vec<FalsificationReport>>>()?;
    let warm = a.warm.as_deref().map(read_relations).transpose()?;
    let searched = synthesize_all(
        &all,
        &cfg,
        a.top,
        &reports,
        warm.as_ref(),
        std::io::stderr().is_terminal(),
    )
    .map_err(anyhow::Error::msg)
    .context("--warm")?;
    let (relations, perf, added) = (searched.relations, searched.table, searched.added);
    let set = RelationSet {
        archive: a.archive.display().to_string(),
        relations,
    };
    std::fs::write(&a.out, serde_json::to_string_pretty(&set)?)
        .with_context(|| format!("writing {}", a.out.display()))?;
    print!("{}", perf.render(Format::Markdown));
    if !a.counterexamples.is_empty() {
        println!("refinement: {added} counterexample states added to the correct ones");
    }
    println!(
        "relations: {} ({} pass step 1)",
        a.out.display(),
        set.relations
            .iter()
            .filter(|r| r.evaluation_fp == 0)
            .count()
    );
    Ok(())
}

/// The batches of these functions (all when none is named); a name the archive lacks is an error.
fn only(
    mut all: Vec<ExecutionBatch>,
    subjects: &[String],
    archive: &Path,
) -> Result<Vec<ExecutionBatch>> {
    if !subjects.is_empty() {
        let known: Vec<String> = all.iter().map(|b| b.subject.name.clone()).collect();
        if let Some(s) = subjects.iter().find(|s| !known.contains(s)) {
            bail!(
                "{} has no executions of {s}; it has {}",
                archive.display(),
                known.join(", ")
            );
        }
        all.retain(|b| subjects.contains(&b.subject.name));
    }
    Ok(all)
}

fn print_table(a: TableArgs) -> Result<()> {
    let all = only(batches(&a.archive)?, &a.subjects, &a.archive)?;
    let set = read_relations(&a.relations)?;
    let report = read_falsified(&a.falsified, &set)?;
    let map = report.as_ref().map(step2_map);
    if let Some(m) = &map {
        let unchecked: Vec<&str> = set
            .relations
            .iter()
            .filter(|r| r.evaluation_fp == 0 && !m.contains_key(&r.id))
            .map(|r| r.id.as_str())
            .collect();
        if !unchecked.is_empty() {
            bail!(
                "the falsification report does not cover {} (of {}); run falsify on these relations",
                unchecked.len(),
                unchecked.first().copied().unwrap_or("")
            );
        }
    }
    let mut rows = Vec::new();
    for b in &all {
        let rels: Vec<RelationRecord> = set
            .relations
            .iter()
            .filter(|r| r.subject == b.subject.name)
            .cloned()
            .collect();
        rows.push(row(b, &rels, map.as_ref()).map_err(anyhow::Error::msg)?);
    }
    print!("{}", table(&rows).render(a.format));
    if a.relations_list {
        let mut t = Table::new(
            "genmorph-valid",
            "Valid relations",
            &["function", "id", "input relation", "output relation"],
        );
        for r in &set.relations {
            if rows.iter().any(|row| row.valid.contains(&r.id)) {
                t.push(vec![
                    r.subject.clone(),
                    r.id.clone(),
                    r.input_relation.clone(),
                    r.text.clone(),
                ]);
            }
        }
        print!("\n{}", t.render(a.format));
    }
    Ok(())
}

/// The harness folder recorded in the archive's header.
fn recorded_js_dir(archive: &Path) -> Option<PathBuf> {
    let reader = ArchiveReader::open(archive).ok()?;
    let harness = reader
        .header()
        .engines
        .iter()
        .flat_map(|e| e.details.iter())
        .find(|(k, _)| k == "harness")?
        .1
        .clone();
    Path::new(&harness).parent().map(Path::to_path_buf)
}

fn tests(a: TestsArgs) -> Result<()> {
    let all = batches(&a.archive)?;
    let set = read_relations(&a.relations)?;
    let report = read_falsified(&a.falsified, &set)?;
    let map = report.as_ref().map(step2_map);
    let js_dir = a
        .js_dir
        .clone()
        .or_else(|| recorded_js_dir(&a.archive))
        .context("no --js-dir given and none recorded in the archive")?;
    std::fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let mut written = 0;
    for b in &all {
        let valid: Vec<&RelationRecord> = set
            .relations
            .iter()
            .filter(|r| r.subject == b.subject.name && r.evaluation_fp == 0)
            .filter(|r| {
                map.as_ref()
                    .is_none_or(|m| m.get(&r.id).is_some_and(|s| s.0 == Step2::Survived))
            })
            .collect();
        if valid.is_empty() {
            continue;
        }
        let text = morphtrace_analyzer::genmorph::jstests::test_file(
            b,
            &valid,
            &a.archive.display().to_string(),
            &js_dir.display().to_string(),
        );
        let file = a.out.join(format!("{}.test.js", b.subject.name));
        std::fs::write(&file, text).with_context(|| format!("writing {}", file.display()))?;
        written += 1;
    }
    println!(
        "{written} test files in {} (run: node --test {})",
        a.out.display(),
        a.out.display()
    );
    Ok(())
}
