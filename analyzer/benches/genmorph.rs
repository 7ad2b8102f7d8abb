//! GenMorph search benchmark on recorded executions of real library functions: candidate
//! evaluations per second, and the mutation score (StrykerJS mutants, evaluation inputs, valid
//! relations after step 1) reached within growing budgets, i.e. the time to the final MS.
//! Baselines measured in the same run, on the same random candidates over every input relation's
//! dataset (the search splits its budget over all of them), one at a time on one thread without
//! the fitness cache: the tree walk per state (as the search did before the column-wise
//! evaluator), and the column-wise evaluator alone. The search's own rate also counts its cache
//! and its threads, on evolved (not random) candidates.
//!
//! Run: `cargo bench --workspace --bench genmorph`.
//! Environment: MT_GENMORPH_ARCHIVE (default traces/genmorph-executions.mtrace),
//! MT_GENMORPH_SUBJECTS (comma list; default lodash.repeat,mathjs.combinations,mathjs.gamma),
//! MT_GENMORPH_BUDGETS (seconds per function, comma list; default 30,180).

use morphtrace_analyzer::genmorph::columns::Columns;
use morphtrace_analyzer::genmorph::data::Dataset;
use morphtrace_analyzer::genmorph::search::{evaluate, evaluate_per_state, Config, Generator};
use morphtrace_analyzer::genmorph::synth::synthesize;
use morphtrace_analyzer::genmorph::table2::row;
use morphtrace_schema::genmorph::ExecutionBatch;
use morphtrace_schema::ArchiveReader;
use rand::SeedableRng;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn list(name: &str, default: &str) -> Vec<String> {
    std::env::var(name)
        .unwrap_or_else(|_| default.into())
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Fitness evaluations per second of two single-threaded loops without the fitness cache, over
/// the same random candidates on every input relation's dataset (the search splits its budget
/// over all of them): the tree walk per state (the search before the column-wise evaluator), and
/// the column-wise evaluator the search uses. Returns (tree walk, column-wise).
fn baselines(b: &ExecutionBatch, cfg: &Config) -> (f64, f64) {
    const PER_DATASET: usize = 300;
    let constants: Vec<f64> = b.constants.iter().map(|c| c.0).collect();
    let (mut walk, mut columns, mut n) = (Duration::ZERO, Duration::ZERO, 0u64);
    for t in 0..b.transformations.len() {
        let data = Dataset::training(b, t, cfg.max_correct, cfg.max_incorrect, 1);
        if data.correct.is_empty() && data.incorrect.is_empty() {
            continue;
        }
        let g = Generator::new(&data.vars, &constants);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(t as u64 + 1);
        let exprs: Vec<_> = (0..PER_DATASET)
            .map(|_| g.initial(cfg.max_depth, &mut rng))
            .collect();
        let t0 = Instant::now();
        for e in exprs.iter().cloned() {
            std::hint::black_box(evaluate_per_state(e, &data, &data.vars));
        }
        walk += t0.elapsed();
        let cols = Columns::new(&data);
        let t0 = Instant::now();
        for e in exprs {
            std::hint::black_box(evaluate(e, &cols, &data.vars));
        }
        columns += t0.elapsed();
        n += PER_DATASET as u64;
    }
    let rate = |d: Duration| n as f64 / d.as_secs_f64().max(1e-9);
    (rate(walk), rate(columns))
}

fn main() {
    let archive = std::env::var("MT_GENMORPH_ARCHIVE")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../traces/genmorph-executions.mtrace")
        });
    let subjects = list(
        "MT_GENMORPH_SUBJECTS",
        "lodash.repeat,mathjs.combinations,mathjs.gamma",
    );
    let budgets: Vec<f64> = list("MT_GENMORPH_BUDGETS", "30,180")
        .iter()
        .filter_map(|b| b.parse().ok())
        .collect();
    let reader = ArchiveReader::open(&archive).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (record one with scripts/genmorph.sh)",
            archive.display()
        )
    });
    let batches: Vec<ExecutionBatch> = (0..reader.execution_count())
        .filter_map(|i| reader.executions(i).ok())
        .filter(|b| subjects.contains(&b.subject.name))
        .collect();
    println!(
        "GenMorph search, Table III defaults (population 1000, size 16) on {} threads; archive {}",
        morphtrace_schema::rayon::current_num_threads(),
        archive.display()
    );
    println!(
        "| function | budget s | evaluations/s | baseline: tree walk per state, 1 thread | column-wise, 1 thread, same candidates | speed-up over the baseline | MRs | valid (step 1) | MS (all valid) | s to final relations |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for b in &batches {
        let cfg = Config::default();
        let (base, columns) = baselines(b, &cfg);
        for &budget in &budgets {
            let cfg = Config {
                budget: Duration::from_secs_f64(budget),
                ..Config::default()
            };
            let s = synthesize(b, &cfg, 4, &Default::default());
            let r = row(b, &s.relations, None).expect("relations parse");
            let rate = s.evaluations() as f64 / s.elapsed().as_secs_f64().max(1e-9);
            println!(
                "| {} | {budget:.0} | {rate:.0} | {base:.0} | {columns:.0} | {:.1}x | {} | {} | {:.2} | {:.1} |",
                b.subject.name,
                rate / base,
                s.relations.len(),
                r.valid.len(),
                r.ms_union,
                s.time_to_final()
            );
        }
    }
}
