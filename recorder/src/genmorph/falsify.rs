//! Filtering step 2 (§7, the role of OASIs): a search for source inputs on which the original
//! function breaks a relation that passed the evaluation inputs. The search is seeded: rounds
//! of fresh inputs and mutations of the recorded source inputs and of earlier candidates, each
//! with its follow-up by the relation's transformation, judged in the harness with the same
//! `__mt` helpers as generated tests. A quarter of the candidates are widened (numbers scaled by
//! 10–1000, strings repeated). Unlike OASIs, it has no branch-distance guidance.

use super::harness::{Harness, PairCheck};
use super::inputs::{Generator, Style};
use super::GenmorphError;
use morphtrace_schema::genmorph::relations::{counterexample, Falsification, RelationRecord};
use morphtrace_schema::genmorph::{ExecutionBatch, InputOrigin, JsValue, PRELUDE};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

#[derive(Debug, Clone)]
pub struct Options {
    pub seed: u64,
    /// Pairs tried per transformation before a relation is deemed to survive.
    pub budget: u32,
    pub timeout_ms: u64,
    /// A relation not falsified with fewer judged pairs than this is undecided.
    pub min_judged: u32,
}

impl Options {
    /// The threshold `falsify` uses by default: a tenth of the budget (at least one pair).
    pub fn default_min_judged(budget: u32) -> u32 {
        (budget / 10).max(1)
    }
}

/// Searches counterexamples for `relations` (all of `batch`'s subject).
pub fn falsify(
    h: &mut Harness,
    js_dir: &Path,
    batch: &ExecutionBatch,
    relations: &[RelationRecord],
    opts: &Options,
) -> Result<Vec<Falsification>, GenmorphError> {
    let s = &batch.subject;
    let path = js_dir.join("node_modules").join(&s.package).join(&s.module);
    // The recorded text, at the original's path: the search runs what was recorded.
    h.load("o", &path, &s.source, &s.call)?;
    h.prelude(PRELUDE)?;
    let seeds: Vec<Vec<JsValue>> = batch
        .inputs
        .iter()
        .filter(|r| r.origin == InputOrigin::Source)
        .map(|r| r.values.clone())
        .collect();
    let literals: Vec<f64> = batch.constants.iter().map(|c| c.0).collect();
    let mut out: Vec<Falsification> = relations
        .iter()
        .map(|r| Falsification {
            id: r.id.clone(),
            falsified: false,
            evaluations: 0,
            skipped: 0,
            undecided: None,
            counterexample: None,
            more: Vec::new(),
        })
        .collect();
    let mut groups: Vec<u32> = relations.iter().map(|r| r.transformation).collect();
    groups.sort_unstable();
    groups.dedup();
    for t in groups {
        let members: Vec<usize> = (0..relations.len())
            .filter(|&i| relations[i].transformation == t)
            .collect();
        let Some(tr) = batch.transformations.get(t as usize) else {
            for &i in &members {
                out[i].undecided = Some(format!("unknown transformation {t}"));
            }
            continue;
        };
        let mut x = opts.seed ^ u64::from(t).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for b in s.name.bytes() {
            x = (x ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(x);
        let mut gen = Generator::new(Style::Source, &literals);
        let mut pool = seeds.clone();
        let mut tried = 0u32;
        while tried < opts.budget && members.iter().any(|&i| !out[i].falsified) {
            let want = (opts.budget - tried).min(64) as usize;
            let mut pairs = Vec::new();
            let mut attempts = 0;
            while pairs.len() < want && attempts < want * 4 {
                attempts += 1;
                let c = if pool.is_empty() || rng.random_bool(0.4) {
                    gen.input(&s.params, &mut rng)
                } else {
                    let i = rng.random_range(0..pool.len());
                    gen.mutate(&s.params, &pool[i], &mut rng)
                };
                // Now and then far from the small values both the sources and `gen` keep to;
                // widened inputs join the pool, so magnitudes also grow step by step.
                let c = if rng.random_bool(0.25) {
                    gen.widen(&s.params, &c, &mut rng)
                } else {
                    c
                };
                if let Some(f) = tr.apply(&c) {
                    pairs.push((c, f));
                }
            }
            if pairs.is_empty() {
                break;
            }
            for &i in &members {
                if out[i].falsified {
                    continue;
                }
                let verdicts = h.check(
                    "o",
                    &relations[i].js,
                    &relations[i].names,
                    &pairs,
                    opts.timeout_ms,
                )?;
                // Every failing pair of the round is kept (up to 32): a refining search learns
                // more from several counterexamples than from one.
                let fails: Vec<_> = verdicts
                    .iter()
                    .enumerate()
                    .filter_map(|(k, v)| match v {
                        PairCheck::Fails { out_s, out_f } => {
                            Some((k, counterexample(&pairs[k].0, &pairs[k].1, out_s, out_f)))
                        }
                        _ => None,
                    })
                    .take(32)
                    .collect();
                // Pairs up to the first failure (or all): judged ones count, skipped ones are
                // counted apart and never credited.
                let seen = fails.first().map_or(verdicts.len(), |f| f.0 + 1);
                let skipped = verdicts[..seen]
                    .iter()
                    .filter(|v| matches!(v, PairCheck::Skipped(_)))
                    .count() as u32;
                out[i].skipped += skipped;
                out[i].evaluations += seen as u32 - skipped;
                if !fails.is_empty() {
                    out[i].falsified = true;
                    let mut cs = fails.into_iter().map(|f| f.1);
                    out[i].counterexample = cs.next();
                    out[i].more = cs.collect();
                }
            }
            tried += pairs.len() as u32;
            pool.extend(pairs.into_iter().map(|p| p.0));
            if pool.len() > 2_000 {
                pool.drain(..pool.len() - 2_000);
            }
        }
    }
    for f in out
        .iter_mut()
        .filter(|f| !f.falsified && f.undecided.is_none())
    {
        if f.evaluations < opts.min_judged {
            f.undecided = Some(if f.evaluations + f.skipped == 0 {
                "no pairs could be generated".into()
            } else {
                format!(
                    "{} pairs judged ({} skipped), fewer than {}",
                    f.evaluations, f.skipped, opts.min_judged
                )
            });
        }
    }
    h.forget("o")?;
    Ok(out)
}
