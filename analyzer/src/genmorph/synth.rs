//! GenMorph for one function (§3 steps 3–6): the budget split over the input relations that
//! have something to learn, Algorithm 1 for each, the relations without false positives kept
//! (no tautologies: each must reject some incorrect state), and filtering step 1 applied.

use super::data::{state_of, vars, Dataset};
use super::evaluate::evaluation_fp;
use super::search::{search, Config};
use super::tree::{Expr, Val};
use morphtrace_schema::genmorph::relations::{Falsification, RelationRecord};
use morphtrace_schema::genmorph::{ExecutionBatch, JsValue};
use std::collections::HashMap;
use std::time::Duration;

/// What an earlier round left for a function's next search (counterexample-guided refinement):
/// per transformation, correct states that broke its relations, and the relations to start from.
#[derive(Debug, Clone, Default)]
pub struct Refinement {
    pub correct: HashMap<usize, Vec<Vec<Val>>>,
    pub warm: HashMap<usize, Vec<Expr>>,
}

/// A relation's id: subject, transformation index, rank (`mathjs.pow#3.1`).
pub fn relation_id(subject: &str, transformation: usize, rank: usize) -> String {
    format!("{subject}#{transformation}.{rank}")
}

/// The inverse of `relation_id` up to the rank: `mathjs.pow#3.1` → (`mathjs.pow`, 3).
pub fn parse_id(id: &str) -> Option<(&str, usize)> {
    let (subject, rest) = id.rsplit_once('#')?;
    let t = rest.split('.').next()?.parse().ok()?;
    Some((subject, t))
}

impl Refinement {
    /// Adds the counterexamples of `falsified` that belong to `batch`'s subject. Returns how
    /// many counterexamples could not be read as states (a value without a GP form).
    pub fn add_counterexamples(
        &mut self,
        batch: &ExecutionBatch,
        falsified: &[Falsification],
    ) -> usize {
        let mut unreadable = 0;
        for f in falsified {
            let Some((subject, t)) = parse_id(&f.id) else {
                continue;
            };
            if subject != batch.subject.name || t >= batch.transformations.len() {
                continue;
            }
            for c in f.counterexamples() {
                let st = read_counterexample(batch, c);
                match st {
                    Some(st) => self.correct.entry(t).or_default().push(st),
                    None => unreadable += 1,
                }
            }
        }
        unreadable
    }

    /// Starts the transformations' searches from `relations` (of `batch`'s subject).
    pub fn add_warm(
        &mut self,
        batch: &ExecutionBatch,
        relations: &[RelationRecord],
    ) -> Result<(), String> {
        let v = vars(batch);
        for r in relations.iter().filter(|r| r.subject == batch.subject.name) {
            let e =
                Expr::parse_sexpr(&r.tree, &v).map_err(|e| format!("relation {}: {e}", r.id))?;
            self.warm
                .entry(r.transformation as usize)
                .or_default()
                .push(e);
        }
        Ok(())
    }
}

fn read_counterexample(batch: &ExecutionBatch, c: &[serde_json::Value]) -> Option<Vec<Val>> {
    let [source, follow_up, out_s, out_f] = c else {
        return None;
    };
    let list = |j: &serde_json::Value| -> Option<Vec<JsValue>> {
        j.as_array()?
            .iter()
            .map(|x| JsValue::from_tagged(x).ok())
            .collect()
    };
    state_of(
        batch,
        &list(source)?,
        &list(follow_up)?,
        &JsValue::from_tagged(out_s).ok()?,
        &JsValue::from_tagged(out_f).ok()?,
    )
}

/// One input relation's search.
#[derive(Debug, Clone)]
pub struct TransformationRun {
    pub transformation: usize,
    pub correct: usize,
    pub incorrect: usize,
    /// Correct states that came from counterexamples (refinement), new to E+.
    pub added: usize,
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
/// `top` relations per input relation; `refine` adds an earlier round's counterexamples to E+
/// and starts from its relations.
pub fn synthesize(
    batch: &ExecutionBatch,
    cfg: &Config,
    top: usize,
    refine: &Refinement,
) -> Synthesis {
    let names = batch.subject.param_names();
    let v = vars(batch);
    let constants: Vec<f64> = batch.constants.iter().map(|c| c.0).collect();
    let datasets: Vec<(usize, Dataset, usize)> = (0..batch.transformations.len())
        .map(|t| {
            let mut d = Dataset::training(batch, t, cfg.max_correct, cfg.max_incorrect, cfg.seed);
            let added = refine
                .correct
                .get(&t)
                .map_or(0, |extra| d.add_correct(extra));
            (t, d, added)
        })
        // Nothing to learn without correct states, or without mutants to tell apart.
        .filter(|(_, d, _)| !d.correct.is_empty() && !d.incorrect.is_empty())
        .collect();
    let share = cfg.budget / datasets.len().max(1) as u32;
    let mut out = Synthesis {
        subject: batch.subject.name.clone(),
        relations: Vec::new(),
        runs: Vec::new(),
    };
    for (t, data, added) in datasets {
        let run_cfg = Config {
            budget: share,
            seed: cfg.seed ^ (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            ..cfg.clone()
        };
        let warm = refine.warm.get(&t).map(Vec::as_slice).unwrap_or(&[]);
        let res = search(&data, &constants, &run_cfg, top, warm);
        out.runs.push(TransformationRun {
            transformation: t,
            correct: data.correct.len(),
            incorrect: data.incorrect.len(),
            added,
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
                id: relation_id(&batch.subject.name, t, rank),
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

/// What `synthesize_all` found: every function's relations, its search figures (one row per
/// function), and how many counterexample states refinement added.
pub struct Searched {
    pub relations: Vec<RelationRecord>,
    pub table: crate::render::Table,
    pub added: usize,
}

/// The search over every function of `batches`, refined by the counterexamples of `reports`
/// and warm-started from `warm` (an error: a warm relation that does not parse).
pub fn synthesize_all(
    batches: &[ExecutionBatch],
    cfg: &Config,
    top: usize,
    reports: &[morphtrace_schema::genmorph::relations::FalsificationReport],
    warm: Option<&morphtrace_schema::genmorph::relations::RelationSet>,
    progress: bool,
) -> Result<Searched, String> {
    use crate::render::Table;
    let bar = if progress {
        indicatif::ProgressBar::new(batches.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    let mut relations: Vec<RelationRecord> = Vec::new();
    let mut added = 0;
    let mut perf = Table::new(
        "genmorph-search",
        "GenMorph search per function",
        &[
            "function",
            "input relations",
            "generations",
            "candidate evaluations",
            "evaluations/s",
            "search s",
            "s to final relations",
            "MRs (no FP)",
            "pass step 1",
        ],
    );
    for b in batches {
        bar.set_message(b.subject.name.clone());
        let mut refine = Refinement::default();
        for r in reports {
            let unreadable = refine.add_counterexamples(b, &r.results);
            if unreadable > 0 {
                tracing::warn!(
                    "{}: {unreadable} counterexamples have values without a GP form; left out",
                    b.subject.name
                );
            }
        }
        if let Some(w) = warm {
            refine.add_warm(b, &w.relations)?;
        }
        let s = synthesize(b, cfg, top, &refine);
        let secs = s.elapsed().as_secs_f64();
        perf.push(vec![
            s.subject.clone(),
            s.runs.len().to_string(),
            s.runs
                .iter()
                .map(|r| r.generations)
                .sum::<usize>()
                .to_string(),
            s.evaluations().to_string(),
            format!("{:.0}", s.evaluations() as f64 / secs.max(1e-9)),
            format!("{secs:.1}"),
            format!("{:.1}", s.time_to_final()),
            s.relations.len().to_string(),
            s.relations
                .iter()
                .filter(|r| r.evaluation_fp == 0)
                .count()
                .to_string(),
        ]);
        added += s.runs.iter().map(|r| r.added).sum::<usize>();
        relations.extend(s.relations);
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(Searched {
        relations,
        table: perf,
        added,
    })
}
