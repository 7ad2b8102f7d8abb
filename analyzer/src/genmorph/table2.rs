//! The analogue of GenMorph's Table II per function: MS on StrykerJS's mutants with the
//! evaluation inputs, PZ (no false positive on the evaluation inputs), PZO (no counterexample
//! found by the falsification search either), and ΔMS over the mutants that regression
//! assertions on the evaluation inputs miss.

use super::data::vars;
use super::evaluate::{kills, regression_kills};
use super::tree::Expr;
use crate::render::Table;
use morphtrace_schema::genmorph::relations::{FalsificationReport, RelationRecord, Step2};
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
    /// Of those passing step 1 and decided by step 2, not falsified (None: no falsification
    /// report, or no relation decided).
    pub pzo: Option<f64>,
    /// Relations passing step 1 that step 2 could not decide (too few judged pairs).
    pub undecided: usize,
    /// Falsification pairs skipped (a call or the relation threw or timed out), all relations.
    pub skipped: u64,
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

/// One function's row. A relation is valid when it passes step 1 and (given a report) survives
/// step 2; one that step 2 could not decide is neither valid nor counted in PZO.
pub fn row(
    batch: &ExecutionBatch,
    relations: &[RelationRecord],
    falsified: Option<&HashMap<String, (Step2, u32)>>,
) -> Result<Row, String> {
    let v = vars(batch);
    let eval = batch.mutants(MutantRole::Evaluation);
    let mut killed_by: Vec<BTreeSet<usize>> = Vec::new();
    let mut valid = Vec::new();
    let mut passed_one = 0;
    let (mut undecided, mut skipped) = (0, 0u64);
    for r in relations {
        let e = Expr::parse_sexpr(&r.tree, &v).map_err(|e| format!("relation {}: {e}", r.id))?;
        let one = r.evaluation_fp == 0;
        let two = match falsified.map(|m| m.get(&r.id)) {
            // A report that does not cover a relation leaves it undecided.
            Some(step) => {
                let (step, n) = step.copied().unwrap_or((Step2::Undecided, 0));
                skipped += u64::from(n);
                undecided += usize::from(one && step == Step2::Undecided);
                one && step == Step2::Survived
            }
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
        pzo: falsified.and_then(|_| ratio(valid.len(), passed_one - undecided)),
        undecided,
        skipped,
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

/// `id → (what step 2 established, pairs skipped)` of a report.
pub fn step2_map(report: &FalsificationReport) -> HashMap<String, (Step2, u32)> {
    report
        .results
        .iter()
        .map(|r| (r.id.clone(), (r.step2(), r.skipped)))
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
            "function", "signature", "Stryker mutants", "MRs", "PZ", "PZO", "undecided (step 2)",
            "skipped pairs", "MS", "MS (valid MRs)",
            "MS (all valid)", "regression MS", "ΔMS", "best relation",
        ],
    )
    .with_note(
        "MRs: relations the search returned (no false positive on the training states). PZ: share \
         without false positives on the evaluation inputs (filtering step 1); PZO: share of those \
         the falsification search could not break (step 2), over the relations it decided; \
         undecided (step 2): relations passing step 1 on which the search judged too few pairs \
         (their calls or the relation threw or timed out): neither valid nor in PZO; skipped \
         pairs: falsification pairs not judged, all relations of the function. MS: mutation score on StrykerJS's \
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
            r.undecided.to_string(),
            r.skipped.to_string(),
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
            rows.iter().map(|r| r.undecided).sum::<usize>().to_string(),
            rows.iter().map(|r| r.skipped).sum::<u64>().to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genmorph::tests::pow_batch_of;
    use morphtrace_schema::genmorph::InputOrigin;

    fn relation(id: &str, tree: &str, evaluation_fp: u32) -> RelationRecord {
        RelationRecord {
            id: id.into(),
            subject: "test.pow".into(),
            transformation: 0,
            input_relation: "e_f = e_s - 1".into(),
            text: tree.into(),
            js: String::new(),
            tree: tree.into(),
            names: vec![],
            fp: 0,
            fn_: 0,
            evaluation_fp,
        }
    }

    /// Table II's arithmetic on a batch whose kills are known (see evaluate.rs): pow with two
    /// evaluation mutants, fault 2 (adds instead of multiplying: `out_s = out_f · k` breaks)
    /// and fault 4 (negates: the relation still holds; regression assertions see both).
    #[test]
    fn a_row_computed_by_hand() {
        let b = pow_batch_of(
            &[(2, 3), (3, 2), (-2, 5), (5, 0), (1, 7)],
            &[2, 4],
            MutantRole::Evaluation,
            InputOrigin::Evaluation,
        );
        let good = "(eq out_s (mul out_f k_s))";
        let rels = [
            relation("r0", good, 0),                         // valid, kills fault 2
            relation("r1", "(eq out_s (mul out_f 2.0))", 2), // fails step 1
            relation("r2", good, 0),                         // falsified by step 2
            relation("r3", good, 0),                         // step 2 undecided
            relation("r4", good, 0),                         // valid, kills fault 2
        ];
        let map: HashMap<String, (Step2, u32)> = [
            ("r0", (Step2::Survived, 0)),
            ("r1", (Step2::Survived, 0)),
            ("r2", (Step2::Falsified, 3)),
            ("r3", (Step2::Undecided, 7)),
            ("r4", (Step2::Survived, 0)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let r = row(&b, &rels, Some(&map)).unwrap();
        assert_eq!((r.relations, r.evaluation_mutants), (5, 2));
        // PZ: 4 of 5 pass step 1. PZO: of those, r3 is undecided; 2 of the 3 decided survive.
        assert_eq!(r.pz, Some(0.8));
        assert_eq!(r.pzo, Some(2.0 / 3.0));
        assert_eq!((r.undecided, r.skipped), (1, 10));
        // MS: (1/2 + 0 + 0 + 0 + 1/2) / 5; over valid MRs: (1 + 1) / (2 · 2); together: 1 of 2.
        assert_eq!(r.ms, Some(0.2));
        assert_eq!(r.ms_valid, Some(0.5));
        assert_eq!(r.ms_union, 0.5);
        // Regression assertions kill both mutants: nothing left for ΔMS.
        assert_eq!((r.regression_ms, r.delta_ms), (1.0, None));
        assert_eq!(r.valid, ["r0", "r4"]);
        // Without a report, step 1 alone decides validity.
        let r = row(&b, &rels, None).unwrap();
        assert_eq!((r.pzo, r.undecided), (None, 0));
        assert_eq!(r.valid, ["r0", "r2", "r3", "r4"]);
        // A report that does not cover a relation leaves it undecided, never valid.
        let partial: HashMap<_, _> = map.into_iter().filter(|(k, _)| k != "r4").collect();
        let r = row(&b, &rels, Some(&partial)).unwrap();
        assert_eq!((r.undecided, r.pzo), (2, Some(0.5)));
    }
}
