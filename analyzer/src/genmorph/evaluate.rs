//! Judging relations on what the search never saw (§7–§8): filtering step 1 on the evaluation
//! inputs, and the mutation score on StrykerJS's mutants with the evaluation inputs; regression
//! assertions on the evaluation inputs alone as the baseline of ΔMS.

use super::data::state;
use super::tree::Expr;
use morphtrace_schema::genmorph::executions::Pair;
use morphtrace_schema::genmorph::{ExecutionBatch, InputOrigin, Outcome};

/// The evaluation pairs of transformation `t`.
pub fn evaluation_pairs(batch: &ExecutionBatch, t: usize) -> Vec<Pair> {
    batch
        .pairs(InputOrigin::Evaluation)
        .into_iter()
        .filter(|p| p.transformation == t)
        .collect()
}

/// Filtering step 1: on how many evaluation pairs the original breaks the relation (pairs
/// whose outputs have no GP value, e.g. a throw, do not count).
pub fn evaluation_fp(batch: &ExecutionBatch, t: usize, expr: &Expr) -> u32 {
    let orig = batch.original();
    evaluation_pairs(batch, t)
        .iter()
        .filter_map(|p| {
            state(
                batch,
                p.source,
                p.follow_up,
                &orig[p.source],
                &orig[p.follow_up],
            )
        })
        .filter(|st| !expr.holds(st))
        .count() as u32
}

/// Whether a test of the relation on the evaluation pairs fails on variant `v`: a pair whose
/// original outputs the relation accepts, and on which the mutant throws, loops, returns
/// something without a GP value, or returns outputs the relation rejects.
pub fn kills(batch: &ExecutionBatch, t: usize, expr: &Expr, v: usize) -> bool {
    let orig = batch.original();
    let out = &batch.outcomes[v];
    evaluation_pairs(batch, t).iter().any(|p| {
        let Some(good) = state(
            batch,
            p.source,
            p.follow_up,
            &orig[p.source],
            &orig[p.follow_up],
        ) else {
            return false;
        };
        if !expr.holds(&good) {
            return false;
        }
        if out[p.source] == orig[p.source] && out[p.follow_up] == orig[p.follow_up] {
            return false;
        }
        match state(
            batch,
            p.source,
            p.follow_up,
            &out[p.source],
            &out[p.follow_up],
        ) {
            None => true,
            Some(st) => !expr.holds(&st),
        }
    })
}

/// What a regression assertion observes: the value (`Object.is`), or the error's name, or a
/// timeout.
fn same_observable(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Outcome::Returned(x), Outcome::Returned(y)) => x == y,
        (Outcome::Threw { name: x, .. }, Outcome::Threw { name: y, .. }) => x == y,
        (Outcome::Timeout, Outcome::Timeout) => true,
        _ => false,
    }
}

/// Whether regression assertions captured on the evaluation inputs alone (the role of
/// Randoop's tests: each evaluation input with the original's observed result) fail on `v`.
pub fn regression_kills(batch: &ExecutionBatch, v: usize) -> bool {
    let orig = batch.original();
    let out = &batch.outcomes[v];
    batch
        .inputs
        .iter()
        .enumerate()
        .any(|(i, r)| r.origin == InputOrigin::Evaluation && !same_observable(&orig[i], &out[i]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genmorph::data::vars;
    use crate::genmorph::tests::pow_batch_of;
    use morphtrace_schema::genmorph::MutantRole;

    #[test]
    fn step_one_kills_and_regressions() {
        // Faults: 2 adds instead of multiplying, 4 negates the result.
        let sources = [(2, 3), (3, 2), (-2, 5), (5, 0), (1, 7)];
        let b = pow_batch_of(
            &sources,
            &[2, 4],
            MutantRole::Evaluation,
            InputOrigin::Evaluation,
        );
        let v = vars(&b);
        let rel = Expr::parse_sexpr("(eq out_s (mul out_f k_s))", &v).unwrap();
        let wrong = Expr::parse_sexpr("(eq out_s (mul out_f 2.0))", &v).unwrap();
        assert_eq!(evaluation_fp(&b, 0, &rel), 0);
        assert!(
            evaluation_fp(&b, 0, &wrong) >= 2,
            "3^2 = 3^1 * 2 fails, and more"
        );
        assert!(kills(&b, 0, &rel, 1), "adding breaks the relation");
        // −k^e = −k^(e−1) · k: the negated pow keeps the relation; regression assertions see it.
        assert!(!kills(&b, 0, &rel, 2));
        assert!(regression_kills(&b, 2));
        assert!(regression_kills(&b, 1));
        assert!(
            !kills(&b, 0, &rel, 0) && !regression_kills(&b, 0),
            "the original"
        );
        // (5, 0) has a follow-up e = −1 that throws on the original: that pair does not count.
        assert_eq!(evaluation_pairs(&b, 0).len(), sources.len());
        assert!(b.pairs(InputOrigin::Source).is_empty());
    }

    #[test]
    fn relations_round_trip_through_prefix_form() {
        let b = pow_batch_of(
            &[(2, 3)],
            &[],
            MutantRole::Evaluation,
            InputOrigin::Evaluation,
        );
        let v = vars(&b);
        for text in [
            "(eq out_s (mul out_f k_s))",
            "(and (lt (abs out_s) 1.5e300) (seqEq (flip (str out_s)) (str -0.0)))",
            "(eq out_f NaN)",
        ] {
            let e = Expr::parse_sexpr(text, &v).unwrap();
            assert_eq!(e.to_sexpr(&v), text);
        }
        assert!(Expr::parse_sexpr("(eq out_s)", &v).is_err(), "arity");
        assert!(Expr::parse_sexpr("(add out_s true)", &v).is_err(), "types");
        assert!(Expr::parse_sexpr("(eq out_s zz)", &v).is_err(), "names");
        assert!(Expr::parse_sexpr("(eq out_s 1) 2", &v).is_err(), "trailing");
    }
}
