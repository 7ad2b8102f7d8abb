//! GenMorph for one function (§3 steps 3–6): the budget split over the input relations that
//! have something to learn, Algorithm 1 for each, the relations without false positives kept
//! (no tautologies: each must reject some incorrect state), and filtering step 1 applied.

use super::data::{vars, Dataset};
use super::evaluate::evaluation_fp;
use super::search::{search, Config};
use morphtrace_schema::genmorph::relations::RelationRecord;
use morphtrace_schema::genmorph::ExecutionBatch;
use std::time::Duration;

/// One input relation's search.
#[derive(Debug, Clone)]
pub struct TransformationRun {
    pub transformation: usize,
    pub correct: usize,
    pub incorrect: usize,
    pub generations: usize,
    pub evaluations: u64,
    pub elapsed: Duration,
    /// When (seconds into this search) its best relation last improved.
    pub last_improvement: f64,
}

#[derive(Debug, Clone)]
pub struct Synthesis {
    pub subject: String,
    pub relations: Vec<RelationRecord>,
    pub runs: Vec<TransformationRun>,
}

impl Synthesis {
    pub fn evaluations(&self) -> u64 {
        self.runs.iter().map(|r| r.evaluations).sum()
    }

    pub fn elapsed(&self) -> Duration {
        self.runs.iter().map(|r| r.elapsed).sum()
    }

    /// Seconds into the function's whole search when the last of its final relations was
    /// found (the searches run one after another).
    pub fn time_to_final(&self) -> f64 {
        let mut start = 0.0;
        let mut last: f64 = 0.0;
        for r in &self.runs {
            last = last.max(start + r.last_improvement);
            start += r.elapsed.as_secs_f64();
        }
        last
    }
}

/// Runs the search for every input relation of `batch` within `cfg.budget` in all, keeping up to
/// `top` relations per input relation.
pub fn synthesize(batch: &ExecutionBatch, cfg: &Config, top: usize) -> Synthesis {
    let names = batch.subject.param_names();
    let v = vars(batch);
    let constants: Vec<f64> = batch.constants.iter().map(|c| c.0).collect();
    let datasets: Vec<(usize, Dataset)> = (0..batch.transformations.len())
        .map(|t| {
            (
                t,
                Dataset::training(batch, t, cfg.max_correct, cfg.max_incorrect, cfg.seed),
            )
        })
        // Nothing to learn without correct states, or without mutants to tell apart.
        .filter(|(_, d)| !d.correct.is_empty() && !d.incorrect.is_empty())
        .collect();
    let share = cfg.budget / datasets.len().max(1) as u32;
    let mut out = Synthesis {
        subject: batch.subject.name.clone(),
        relations: Vec::new(),
        runs: Vec::new(),
    };
    for (t, data) in datasets {
        let run_cfg = Config {
            budget: share,
            seed: cfg.seed ^ (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            ..cfg.clone()
        };
        let res = search(&data, &constants, &run_cfg, top);
        out.runs.push(TransformationRun {
            transformation: t,
            correct: data.correct.len(),
            incorrect: data.incorrect.len(),
            generations: res.generations,
            evaluations: res.evaluations,
            elapsed: res.elapsed,
            last_improvement: res.progress.last().map_or(0.0, |p| p.0),
        });
        let input_relation = batch.transformations[t].describe(&names);
        for (rank, ind) in res
            .relations
            .iter()
            .filter(|i| i.fp == 0 && i.fn_ < data.incorrect.len())
            .enumerate()
        {
            out.relations.push(RelationRecord {
                id: format!("{}#{t}.{rank}", batch.subject.name),
                subject: batch.subject.name.clone(),
                transformation: t as u32,
                input_relation: input_relation.clone(),
                text: ind.text.clone(),
                js: ind.expr.to_js(&v),
                tree: ind.expr.to_sexpr(&v),
                names: v.names.clone(),
                fp: ind.fp as u32,
                fn_: ind.fn_ as u32,
                evaluation_fp: evaluation_fp(batch, t, &ind.expr),
            });
        }
    }
    out
}
