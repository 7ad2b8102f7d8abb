//! GenMorph search benchmark on recorded executions of real library functions: candidate
//! evaluations per second, and the mutation score (StrykerJS mutants, evaluation inputs, valid
//! relations after step 1) reached within growing budgets, i.e. the time to the final MS.
//! Baseline measured in the same run: random candidates' fitness evaluated state by state (a tree
//! walk per state, as the search did before the column-wise evaluator) one at a time on one thread
//! without the fitness cache.
//!
//! Run: `cargo bench --workspace --bench genmorph`.
//! Environment: MT_GENMORPH_ARCHIVE (default traces/genmorph150-lodash-mathjs.mtrace),
//! MT_GENMORPH_SUBJECTS (comma list; default lodash.repeat,mathjs.combinations,mathjs.gamma),
//! MT_GENMORPH_BUDGETS (seconds per function, comma list; default 30,180).

use morphtrace_analyzer::genmorph::data::Dataset;
use morphtrace_analyzer::genmorph::search::{evaluate_per_state, Config, Generator};
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

/// Fitness evaluations per second of a plain sequential loop over random candidates.
fn baseline(b: &ExecutionBatch, cfg: &Config) -> f64 {
    let t = (0..b.transformations.len())
        .map(|t| {
            (
                t,
                Dataset::training(b, t, cfg.max_correct, cfg.max_incorrect, 1),
            )
        })
        .max_by_key(|(_, d)| d.correct.len() + d.incorrect.len());
    let Some((_, data)) = t else { return f64::NAN };
    let constants: Vec<f64> = b.constants.iter().map(|c| c.0).collect();
    let g = Generator::new(&data.vars, &constants);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let exprs: Vec<_> = (0..4_000)
        .map(|_| g.initial(cfg.max_depth, &mut rng))
        .collect();
    let t0 = Instant::now();
    let mut n = 0u64;
    for e in exprs {
        std::hint::black_box(evaluate_per_state(e, &data, &data.vars));
        n += 1;
        if t0.elapsed() > Duration::from_secs(5) {
            break;
        }
    }
    n as f64 / t0.elapsed().as_secs_f64()
}

fn main() {
    let archive = std::env::var("MT_GENMORPH_ARCHIVE")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../traces/genmorph150-lodash-mathjs.mtrace")
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
        "| function | budget s | evaluations/s | baseline evaluations/s | speed-up | MRs | valid (step 1) | MS (all valid) | s to final relations |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for b in &batches {
        let cfg = Config::default();
        let base = baseline(b, &cfg);
        for &budget in &budgets {
            let cfg = Config {
                budget: Duration::from_secs_f64(budget),
                ..Config::default()
            };
            let s = synthesize(b, &cfg, 4, &Default::default());
            let r = row(b, &s.relations, None).expect("relations parse");
            let rate = s.evaluations() as f64 / s.elapsed().as_secs_f64().max(1e-9);
            println!(
                "| {} | {budget:.0} | {rate:.0} | {base:.0} | {:.1}x | {} | {} | {:.2} | {:.1} |",
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
