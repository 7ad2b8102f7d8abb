//! Fitness, dominance, data preparation and a search that must recover a known relation.

use super::columns::Columns;
use super::data::Dataset;
use super::search::*;
use super::synth::{parse_id, synthesize, Refinement};
use super::tree::{Expr, Op, Val};
use morphtrace_schema::genmorph::*;
use std::cmp::Ordering;
use std::time::Duration;

/// `pow(k, e)` by squaring, as in the paper's Listing 1, with an optional fault.
fn pow(k: i64, e: i64, fault: u8) -> Outcome {
    if e < 0 {
        return Outcome::Threw {
            name: "Error".into(),
            message: "NotPositiveException".into(),
        };
    }
    let (mut result, mut k2p, mut e) = (1f64, k as f64, e);
    while e != 0 {
        if e & 1 != 0 {
            if fault == 2 {
                result += k2p;
            } else {
                result *= k2p;
            }
        }
        if fault != 1 {
            k2p *= k2p; // fault 1 removes this line (the paper's mutant)
        }
        e >>= if fault == 3 { 2 } else { 1 };
    }
    Outcome::Returned(JsValue::Number(if fault == 4 { -result } else { result }))
}

fn pow_batch(sources: &[(i64, i64)], mutants: &[u8], role: MutantRole) -> ExecutionBatch {
    pow_batch_of(sources, mutants, role, InputOrigin::Source)
}

/// `pow` on these inputs (of this origin), each with its follow-up by e − 1, and mutants with
/// the faults of `pow` above.
pub(crate) fn pow_batch_of(
    sources: &[(i64, i64)],
    mutants: &[u8],
    role: MutantRole,
    origin: InputOrigin,
) -> ExecutionBatch {
    let n = |x: i64| JsValue::Number(x as f64);
    let t = InputTransformation::NumericAddition {
        param: 1,
        constant: -1.0,
    };
    let mut inputs = Vec::new();
    for &(k, e) in sources {
        let s = inputs.len() as u32;
        inputs.push(InputRecord {
            origin,
            values: vec![n(k), n(e)],
        });
        inputs.push(InputRecord {
            origin: InputOrigin::FollowUp {
                source: s,
                transformation: 0,
            },
            values: t.apply(&[n(k), n(e)]).unwrap(),
        });
    }
    let mut variants = vec![Implementation::Original];
    for &m in mutants {
        variants.push(Implementation::Mutant(MutantRecord {
            id: format!("m{m}"),
            role,
            tool: "test".into(),
            operator: format!("fault {m}"),
            line: 0,
            column: 0,
            original: String::new(),
            replacement: String::new(),
        }));
    }
    let outcomes = std::iter::once(0u8)
        .chain(mutants.iter().copied())
        .map(|m| {
            inputs
                .iter()
                .map(|i| {
                    let k = i.values[0].as_number().unwrap() as i64;
                    let e = i.values[1].as_number().unwrap() as i64;
                    pow(k, e, m)
                })
                .collect()
        })
        .collect();
    let int = |name: &str| Param {
        name: name.into(),
        kind: Kind::Int,
    };
    let b = ExecutionBatch {
        subject: Subject {
            name: "test.pow".into(),
            package: "test".into(),
            version: "0".into(),
            module: "pow.js".into(),
            function: "pow".into(),
            call: "m => m".into(),
            params: vec![int("k"), int("e")],
            returns: Kind::Int,
            source: String::new(),
            span: (0, 0),
        },
        seed: 1,
        node: "none".into(),
        constants: vec![(-1.0, 1), (1.0, 1)],
        transformations: vec![t],
        inputs,
        variants,
        outcomes,
        coverage: (0, 0),
        elapsed_ms: 0,
    };
    b.validate().unwrap();
    b
}

fn grid() -> Vec<(i64, i64)> {
    let mut v = Vec::new();
    for k in [-7, -3, -2, -1, 0, 1, 2, 3, 5, 9] {
        for e in 0..7 {
            v.push((k, e));
        }
    }
    v
}

#[test]
fn datasets_keep_only_what_mutants_change() {
    let b = pow_batch(&grid(), &[1, 2], MutantRole::Training);
    let d = Dataset::training(&b, 0, 9000, 9000, 1);
    assert_eq!(d.vars.names, ["k_s", "k_f", "e_s", "e_f", "out_s", "out_f"]);
    // e = 0 makes the follow-up throw: those pairs are not states.
    assert_eq!(d.correct.len(), 10 * 6);
    assert!(!d.incorrect.is_empty());
    for (st, m) in d.incorrect.iter().zip(&d.incorrect_mutant) {
        assert!(
            !d.correct.contains(st),
            "mutant {m} state equals a correct one"
        );
    }
    // Sampling caps are honoured, deterministically.
    let small = Dataset::training(&b, 0, 10, 5, 7);
    assert_eq!((small.correct.len(), small.incorrect.len()), (10, 5));
    let again = Dataset::training(&b, 0, 10, 5, 7);
    assert_eq!(small.correct, again.correct);
}

#[test]
fn fitness_counts_false_positives_and_negatives() {
    let b = pow_batch(&grid(), &[1, 2, 3], MutantRole::Training);
    let d = Dataset::training(&b, 0, 9000, 9000, 1);
    let (os, of) = d.vars.outputs;
    let k_s = 0;
    // out_s == out_f * k_s: the paper's Eq. 1, rearranged so that k = 0 is no exception.
    let good = Expr::Op(
        Op::Eq,
        vec![
            Expr::Var(os),
            Expr::Op(Op::Mul, vec![Expr::Var(of), Expr::Var(k_s)]),
        ],
    );
    let i = evaluate(good.clone(), &Columns::new(&d), &d.vars);
    assert_eq!(i.fp, 0);
    let held: usize = d.incorrect.iter().filter(|s| good.holds(s)).count();
    assert_eq!(i.fn_, held);
    assert!(
        i.fn_ < d.incorrect.len() / 2,
        "{} of {}",
        i.fn_,
        d.incorrect.len()
    );
    // The paper's invalid Eq. 2 (outputs differ) has false positives at k = 0 and k = 1.
    let bad = Expr::Op(Op::Ne, vec![Expr::Var(of), Expr::Var(os)]);
    let j = evaluate(bad, &Columns::new(&d), &d.vars);
    assert!(j.fp > 0);
    // A tautology has no FP and every FN.
    let taut = Expr::Op(Op::Eq, vec![Expr::Var(os), Expr::Var(os)]);
    let t = evaluate(taut, &Columns::new(&d), &d.vars);
    assert_eq!((t.fp, t.fn_), (0, d.incorrect.len()));
    assert!(
        !is_mr(&t.expr, &d.vars),
        "the soft constraint wants both outputs"
    );
    assert!(is_mr(&good, &d.vars));
    // Correctly classified states are marked for best-match selection.
    let right: u32 = i.right.iter().map(|w| w.count_ones()).sum();
    assert_eq!(right as usize, d.correct.len() + d.incorrect.len() - i.fn_);
}

fn ind(fp: usize, fn_: usize, size: usize) -> Individual {
    Individual {
        expr: Expr::Bool(true),
        fp,
        fn_,
        size,
        right: vec![],
        fn_hash: 0,
        text: String::new(),
    }
}

#[test]
fn dominance_orders_as_definitions_4_and_5() {
    use Ordering::*;
    assert_eq!(dominates_fp(&ind(0, 9, 9), &ind(1, 0, 1)), Less);
    assert_eq!(dominates_fp(&ind(1, 2, 9), &ind(1, 3, 1)), Less);
    assert_eq!(dominates_fp(&ind(1, 2, 3), &ind(1, 2, 4)), Less);
    assert_eq!(dominates_fp(&ind(1, 2, 3), &ind(1, 2, 3)), Equal);
    assert_eq!(dominates_fn(&ind(9, 0, 9), &ind(0, 1, 1)), Less);
    assert_eq!(dominates_fn(&ind(2, 1, 9), &ind(3, 1, 1)), Less);
    assert_eq!(dominates_fn(&ind(2, 1, 3), &ind(2, 1, 4)), Less);
}

#[test]
fn elites_are_unique_by_relation_and_by_false_negatives() {
    let b = pow_batch(&grid(), &[1, 2, 3], MutantRole::Training);
    let d = Dataset::training(&b, 0, 9000, 9000, 1);
    let (os, of) = d.vars.outputs;
    let eq = |a: Expr, b: Expr| Expr::Op(Op::Eq, vec![a, b]);
    let r1 = eq(Expr::Var(of), Expr::Var(os));
    // Same FN set as r1 (a tautological conjunct), different text.
    let r2 = Expr::Op(Op::And, vec![r1.clone(), Expr::Bool(true)]);
    let r3 = eq(
        Expr::Var(os),
        Expr::Op(Op::Mul, vec![Expr::Var(of), Expr::Var(0)]),
    );
    let pop: Vec<Individual> = [r1.clone(), r1.clone(), r2, r3]
        .into_iter()
        .map(|e| evaluate(e, &Columns::new(&d), &d.vars))
        .collect();
    let elite = best(&pop, dominates_fp, 10, &d.vars);
    assert_eq!(
        elite.len(),
        2,
        "{:?}",
        elite.iter().map(|i| &i.text).collect::<Vec<_>>()
    );
}

#[test]
fn crossover_and_mutation_keep_types_and_bounds() {
    use rand::SeedableRng;
    let b = pow_batch(&grid(), &[1], MutantRole::Training);
    let d = Dataset::training(&b, 0, 9000, 9000, 1);
    let g = Generator::new(&d.vars, &[-1.0, 1.0]);
    let cfg = Config::default();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..500 {
        let a = g.initial(5, &mut rng);
        let c = g.initial(5, &mut rng);
        let (x, y) = crossover(&a, &c, &d.vars, &mut rng);
        let m = mutate(&x, &g, &cfg, &mut rng);
        for e in [&a, &c, &x, &y, &m] {
            assert_eq!(e.ty(&d.vars), super::tree::Ty::Bool);
            // Well-typed: evaluation yields a Boolean on every state.
            assert!(matches!(e.eval(&d.correct[0]), Val::B(_)));
        }
    }
}

#[test]
fn search_recovers_the_pow_relation() {
    let b = pow_batch(&grid(), &[1, 2, 3, 4], MutantRole::Training);
    let d = Dataset::training(&b, 0, 9000, 9000, 1);
    let cfg = Config {
        population: 1000,
        max_generations: Some(100),
        budget: Duration::from_secs(600),
        seed: 9,
        ..Config::default()
    };
    let out = search(&d, &[-1.0, 1.0], &cfg, 4, &[]);
    let best = &out.relations[0];
    // The paper's Eq. 1 (as out_s == out_f * k_s, which has no k = 0 exception) is the bar:
    // some mutant states satisfy it too, so its false negatives are not zero.
    let (os, of) = d.vars.outputs;
    let eq1 = Expr::Op(
        Op::Eq,
        vec![
            Expr::Var(os),
            Expr::Op(Op::Mul, vec![Expr::Var(of), Expr::Var(0)]),
        ],
    );
    let bar = evaluate(eq1, &Columns::new(&d), &d.vars);
    assert_eq!(best.fp, 0, "{}", best.text);
    assert!(
        best.fn_ <= bar.fn_,
        "{} has {} FNs, Eq. 1 {}",
        best.text,
        best.fn_,
        bar.fn_
    );
    // It generalizes: no false positive on unseen pairs, and it catches unseen faults.
    let fresh: Vec<(i64, i64)> = (0..200).map(|i| ((i % 23) - 11, (i % 9) + 1)).collect();
    let unseen = pow_batch(&fresh, &[1, 2, 3, 4], MutantRole::Evaluation);
    let vars = super::data::vars(&unseen);
    for p in unseen.pairs(InputOrigin::Source) {
        let orig = unseen.original();
        let st = super::data::state(
            &unseen,
            p.source,
            p.follow_up,
            &orig[p.source],
            &orig[p.follow_up],
        )
        .unwrap();
        assert!(
            best.expr.holds(&st),
            "FP of {} on {:?}",
            best.expr.render(&vars),
            st
        );
    }
    assert!(out.generations == 100 && out.evaluations > 1000);
    // The same seed gives the same relations.
    let small = Config {
        population: 200,
        max_generations: Some(10),
        ..cfg
    };
    let out = search(&d, &[-1.0, 1.0], &small, 4, &[]);
    let again = search(&d, &[-1.0, 1.0], &small, 4, &[]);
    let texts = |o: &SearchResult| {
        o.relations
            .iter()
            .map(|i| i.text.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(texts(&out), texts(&again));
}

#[test]
fn counterexample_states_join_e_plus_and_leave_e_minus() {
    let b = pow_batch(&grid(), &[1], MutantRole::Training);
    let mut d = Dataset::training(&b, 0, 9000, 9000, 1);
    let (nc, ni) = (d.correct.len(), d.incorrect.len());
    // An incorrect state declared correct moves over; a known correct one is not repeated.
    let moved = d.incorrect[0].clone();
    let known = d.correct[0].clone();
    assert_eq!(d.add_correct(&[moved.clone(), known, moved.clone()]), 1);
    assert_eq!(d.correct.len(), nc + 1);
    assert_eq!(d.incorrect.len(), ni - 1);
    assert_eq!(d.incorrect.len(), d.incorrect_mutant.len());
    assert!(!d.incorrect.contains(&moved));
    assert_eq!(parse_id("mathjs.pow#3.1"), Some(("mathjs.pow", 3)));
    assert_eq!(parse_id("a#b#12.0"), Some(("a#b", 12)));
    assert_eq!(parse_id("nohash"), None);
}

/// Counterexample-guided refinement: relations learned on positive bases only overfit; their
/// counterexamples (as the falsification report carries them) enter E+, and the next round's
/// relations hold on all of them.
#[test]
fn refinement_learns_from_counterexamples() {
    let positive: Vec<(i64, i64)> = (1..=6).flat_map(|k| (1..=6).map(move |e| (k, e))).collect();
    let b = pow_batch(&positive, &[1, 2, 3, 4], MutantRole::Training);
    let v = super::data::vars(&b);
    let cfg = Config {
        population: 300,
        max_generations: Some(15),
        seed: 5,
        ..Config::default()
    };
    let first = synthesize(&b, &cfg, 4, &Refinement::default());
    assert!(!first.relations.is_empty());
    let value = |o: Outcome| match o {
        Outcome::Returned(v) => v,
        _ => unreachable!("pow returns for e >= 0"),
    };
    let others: Vec<(i64, i64)> = (-6..=0)
        .flat_map(|k| (1..=6).map(move |e| (k, e)))
        .collect();
    let mut reports = Vec::new();
    for r in &first.relations {
        let e = Expr::parse_sexpr(&r.tree, &v).unwrap();
        let fails: Vec<Vec<serde_json::Value>> = others
            .iter()
            .filter_map(|&(k, x)| {
                let src = [JsValue::Number(k as f64), JsValue::Number(x as f64)];
                let fu = [JsValue::Number(k as f64), JsValue::Number((x - 1) as f64)];
                let (os, of) = (value(pow(k, x, 0)), value(pow(k, x - 1, 0)));
                let st = super::data::state_of(&b, &src, &fu, &os, &of)?;
                (!e.holds(&st)).then(|| relations::counterexample(&src, &fu, &os, &of))
            })
            .collect();
        if let Some((c, more)) = fails.split_first() {
            reports.push(relations::Falsification {
                id: r.id.clone(),
                falsified: true,
                evaluations: 1,
                skipped: 0,
                undecided: None,
                counterexample: Some(c.clone()),
                more: more.to_vec(),
            });
        }
    }
    assert!(
        !reports.is_empty(),
        "premise: a relation overfits positive bases"
    );
    let mut refine = Refinement::default();
    assert_eq!(refine.add_counterexamples(&b, &reports), 0);
    refine.add_warm(&b, &first.relations).unwrap();
    let learned = &refine.correct[&0];
    assert!(!learned.is_empty());
    let second = synthesize(&b, &cfg, 4, &refine);
    assert!(!second.relations.is_empty());
    for r in &second.relations {
        let e = Expr::parse_sexpr(&r.tree, &v).unwrap();
        for st in learned {
            assert!(e.holds(st), "{} fails on a counterexample {st:?}", r.text);
        }
    }
    // Counterexamples of another function are not taken.
    let mut other = Refinement::default();
    let foreign: Vec<_> = reports
        .iter()
        .map(|f| relations::Falsification {
            id: f.id.replace("test.pow", "test.other"),
            ..f.clone()
        })
        .collect();
    other.add_counterexamples(&b, &foreign);
    assert!(other.correct.is_empty());
}

/// The `__mt` helpers that generated tests and the falsification search use must judge every
/// relation as the search's evaluator does: random typed trees over numbers (NaN, −0,
/// infinities, exponent forms), strings (surrogate pairs), arrays and Booleans, evaluated here
/// and by node.
#[test]
fn javascript_helpers_judge_as_the_tree_evaluator() {
    use super::data::to_val;
    use super::tree::{Ty, Vars};
    use rand::seq::IndexedRandom;
    use rand::{Rng, SeedableRng};
    let kinds = [Kind::Number, Kind::Str, Kind::NumberArray, Kind::Bool];
    let mut names = Vec::new();
    let mut types = Vec::new();
    let mut var_kinds = Vec::new();
    for (p, k) in ["k", "s", "a", "b"].iter().zip(kinds) {
        for side in ["s", "f"] {
            names.push(format!("{p}_{side}"));
            types.push(super::data::ty(k));
            var_kinds.push(k);
        }
    }
    for side in ["s", "f"] {
        names.push(format!("out_{side}"));
        types.push(Ty::Seq);
        var_kinds.push(Kind::Str);
    }
    let vars = Vars {
        names: names.clone(),
        types,
        outputs: (8, 9),
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let numbers = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.5,
        0.1,
        3.0,
        1e21,
        1.5e-7,
        -123456.75,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e-300,
    ];
    let strings = [
        "",
        "a",
        "ab",
        "ba",
        "\u{e9}t\u{e9}",
        "x\u{1f600}y",
        "10",
        "  ",
    ];
    let value = |k: Kind, rng: &mut rand_chacha::ChaCha8Rng| match k {
        Kind::Number => JsValue::Number(*numbers.choose(rng).unwrap()),
        Kind::Str => JsValue::String(strings.choose(rng).unwrap().to_string()),
        Kind::Bool => JsValue::Bool(rng.random()),
        _ => JsValue::Array(
            (0..rng.random_range(0..4))
                .map(|_| JsValue::Number(*numbers.choose(rng).unwrap()))
                .collect(),
        ),
    };
    let states: Vec<Vec<JsValue>> = (0..24)
        .map(|_| var_kinds.iter().map(|&k| value(k, &mut rng)).collect())
        .collect();
    let g = Generator::new(&vars, &[-1.0, 2.0, 0.5]);
    let trees: Vec<Expr> = (0..400).map(|_| g.tree(Ty::Bool, 4, &mut rng)).collect();
    let mut js = String::from(PRELUDE);
    js.push_str("const states = [\n");
    for st in &states {
        let vals: Vec<String> = st.iter().map(JsValue::to_js).collect();
        js.push_str(&format!("  [{}],\n", vals.join(", ")));
    }
    js.push_str("];\nconst rels = [\n");
    for t in &trees {
        js.push_str(&format!(
            "  ({}) => {},\n",
            names.join(", "),
            t.to_js(&vars)
        ));
    }
    js.push_str(
        "];\nconsole.log(JSON.stringify(rels.map((r) => states.map((s) => (r(...s) === true ? '1' : '0')).join(''))));\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("check.js");
    std::fs::write(&file, js).unwrap();
    let o = std::process::Command::new("node")
        .arg(&file)
        .output()
        .expect("node");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let judged: Vec<String> = serde_json::from_slice(&o.stdout).unwrap();
    let vals: Vec<Vec<Val>> = states
        .iter()
        .map(|st| {
            st.iter()
                .zip(&var_kinds)
                .map(|(v, &k)| to_val(k, v).unwrap())
                .collect()
        })
        .collect();
    let mut mixed = 0;
    for (t, line) in trees.iter().zip(&judged) {
        let ours: String = vals
            .iter()
            .map(|st| if t.holds(st) { '1' } else { '0' })
            .collect();
        assert_eq!(&ours, line, "{}", t.to_js(&vars));
        mixed += usize::from(ours.contains('1') && ours.contains('0'));
    }
    assert!(mixed > 50, "the trees tell states apart ({mixed})");
}
