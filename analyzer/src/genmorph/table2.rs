//! The analogue of GenMorph's Table II per function: MS on StrykerJS's mutants with the
//! evaluation inputs, PZ (no false positive on the evaluation inputs), PZO (no counterexample
//! found by the falsification search either), and ΔMS over the mutants that regression
//! assertions on the evaluation inputs miss.

use super::data::vars;
use super::evaluate::{kills, regression_kills};
use super::tree::Expr;
use crate::table::Table;
use morphtrace_schema::genmorph::relations::{FalsificationReport, RelationRecord};
use morphtrace_schema::genmorph::{ExecutionBatch, MutantRole};
use std::collections::{BTreeSet, HashMap};

#[derive(Debug, Clone)]
pub struct Row {
    pub subject: String,
    pub signature: String,
    pub evaluation_mutants: usize,
    pub training_mutants: usize,
    /// Relations the search returned (no FP on the training states).
    pub relations: usize,
    /// Of those, without FP on the evaluation inputs.
    pub pz: Option<f64>,
    /// Of those passing step 1, not falsified (None: no falsification report).
    pub pzo: Option<f64>,
    /// The paper's MS: mean over the returned relations, 0 for an invalid one.
    pub ms: Option<f64>,
    /// Mean over the valid relations only (0 when none is valid).
    pub ms_valid: Option<f64>,
    /// All valid relations together.
    pub ms_union: f64,
    /// Regression assertions on the evaluation inputs alone.
    pub regression_ms: f64,
    /// Valid relations' MS over the mutants the regression assertions miss.
    pub delta_ms: Option<f64>,
    /// The valid relation that kills most, with its input relation.
    pub best: Option<String>,
    pub valid: Vec<String>,
}

fn ratio(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

/// One function's row. A relation is valid when it passes step 1 and (given a report) step 2.
pub fn row(
    batch: &ExecutionBatch,
    relations: &[RelationRecord],
    falsified: Option<&HashMap<String, bool>>,
) -> Result<Row, String> {
    let v = vars(batch);
    let eval = batch.mutants(MutantRole::Evaluation);
    let mut killed_by: Vec<BTreeSet<usize>> = Vec::new();
    let mut valid = Vec::new();
    let mut passed_one = 0;
    for r in relations {
        let e = Expr::parse_sexpr(&r.tree, &v).map_err(|e| format!("relation {}: {e}", r.id))?;
        let one = r.evaluation_fp == 0;
        let two = match falsified {
            Some(map) => one && !map.get(&r.id).copied().unwrap_or(false),
            None => one,
        };
        passed_one += usize::from(one);
        if two {
            let t = r.transformation as usize;
            killed_by.push(
                eval.iter()
                    .copied()
                    .filter(|&m| kills(batch, t, &e, m))
                    .collect(),
            );
            valid.push(r);
        } else {
            killed_by.push(BTreeSet::new());
        }
    }
    let union: BTreeSet<usize> = killed_by.iter().flatten().copied().collect();
    let missed: Vec<usize> = eval
        .iter()
        .copied()
        .filter(|&m| !regression_kills(batch, m))
        .collect();
    // The valid relation that kills most (first of equals).
    let mut best: Option<(usize, &RelationRecord)> = None;
    for (r, k) in relations.iter().zip(&killed_by) {
        if valid.iter().any(|x| x.id == r.id) && best.is_none_or(|(n, _)| k.len() > n) {
            best = Some((k.len(), r));
        }
    }
    Ok(Row {
        subject: batch.subject.name.clone(),
        signature: batch.subject.signature(),
        evaluation_mutants: eval.len(),
        training_mutants: batch.mutants(MutantRole::Training).len(),
        relations: relations.len(),
        pz: ratio(passed_one, relations.len()),
        pzo: falsified.and_then(|_| ratio(valid.len(), passed_one)),
        ms: (!relations.is_empty() && !eval.is_empty()).then(|| {
            killed_by
                .iter()
                .map(|k| k.len() as f64 / eval.len() as f64)
                .sum::<f64>()
                / relations.len() as f64
        }),
        // A function whose relations are all invalid scores 0 here too (not left out of means).
        ms_valid: (!relations.is_empty() && !eval.is_empty()).then(|| {
            killed_by.iter().map(|k| k.len() as f64).sum::<f64>()
                / (valid.len().max(1) * eval.len()) as f64
        }),
        ms_union: ratio(union.len(), eval.len()).unwrap_or(0.0),
        regression_ms: ratio(eval.len() - missed.len(), eval.len()).unwrap_or(0.0),
        delta_ms: ratio(
            missed.iter().filter(|m| union.contains(m)).count(),
            missed.len(),
        ),
        best: best.map(|(n, r)| format!("{} ⇒ {} (kills {n})", r.input_relation, r.text)),
        valid: valid.iter().map(|r| r.id.clone()).collect(),
    })
}

/// `id → falsified` of a report.
pub fn falsified_map(report: &FalsificationReport) -> HashMap<String, bool> {
    report
        .results
        .iter()
        .map(|r| (r.id.clone(), r.falsified))
        .collect()
}

fn num(x: Option<f64>) -> String {
    x.map_or_else(|| "–".into(), |x| format!("{x:.2}"))
}

pub fn table(rows: &[Row]) -> Table {
    let mut t = Table::new(
        "genmorph-table2",
        "GenMorph Table II analogue: relations of each function, judged on unseen inputs and StrykerJS mutants",
        &[
            "function", "signature", "Stryker mutants", "MRs", "PZ", "PZO", "MS", "MS (valid MRs)",
            "MS (all valid)", "regression MS", "ΔMS", "best relation",
        ],
    )
    .with_note(
        "MRs: relations the search returned (no false positive on the training states). PZ: share \
         without false positives on the evaluation inputs (filtering step 1); PZO: share of those \
         the falsification search could not break (step 2). MS: mutation score on StrykerJS's \
         mutants with the evaluation inputs, mean over the returned MRs with 0 for an invalid one \
         (the paper's definition); MS (valid MRs): mean over the valid MRs; MS (all valid): the valid MRs together. Regression MS: assertions of the \
         original's results on the evaluation inputs alone (Randoop's role); ΔMS: the valid MRs' \
         MS over the mutants those assertions miss. –: nothing to measure.",
    );
    for r in rows {
        t.push(vec![
            r.subject.clone(),
            r.signature.clone(),
            r.evaluation_mutants.to_string(),
            r.relations.to_string(),
            num(r.pz),
            num(r.pzo),
            num(r.ms),
            num(r.ms_valid),
            format!("{:.2}", r.ms_union),
            format!("{:.2}", r.regression_ms),
            num(r.delta_ms),
            r.best.clone().unwrap_or_default(),
        ]);
    }
    let mean = |f: &dyn Fn(&Row) -> Option<f64>| {
        let xs: Vec<f64> = rows.iter().filter_map(f).collect();
        (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
    };
    if rows.len() > 1 {
        t.push(vec![
            "mean".into(),
            String::new(),
            String::new(),
            String::new(),
            num(mean(&|r| r.pz)),
            num(mean(&|r| r.pzo)),
            num(mean(&|r| r.ms)),
            num(mean(&|r| r.ms_valid)),
            num(mean(&|r| Some(r.ms_union))),
            num(mean(&|r| Some(r.regression_ms))),
            num(mean(&|r| r.delta_ms)),
            String::new(),
        ]);
    }
    t
}
