//! Column-wise evaluation of a relation over all states of a dataset at once: one tight loop per
//! tree node instead of one tree walk (with an operand vector per node) per state. Fitness is
//! the search's whole cost, so this sets how many generations fit in the budget. The semantics
//! are `tree::apply`'s, operator for operator; a test compares both on random trees.

use super::data::Dataset;
use super::tree::{apply, close, js_string_units, Expr, Op, Ty, Val};
use std::borrow::Cow;

/// A column of values, one per state; a column of length 1 is a constant that stands for every
/// state (constants are never broadcast).
#[derive(Debug, Clone)]
enum Col<'a> {
    N(Cow<'a, [f64]>),
    B(Cow<'a, [bool]>),
    S(Cow<'a, [Vec<f64>]>),
}

/// The states of a dataset by variable: E+ first, then E−.
#[derive(Debug, Clone)]
pub struct Columns {
    pub correct: usize,
    pub incorrect: usize,
    vars: Vec<Col<'static>>,
    /// `toString` of each numeric variable, computed once: formatting numbers is the most
    /// expensive operator, and its operand is most often a variable.
    strings: Vec<Option<Vec<Vec<f64>>>>,
}

impl Columns {
    /// Every variable as a column of its declared type. States hold declared types (`data::to_val`
    /// guarantees it); a value of another shape would become NaN, false or the empty sequence,
    /// which is what every operator makes of it anyway.
    pub fn new(data: &Dataset) -> Columns {
        let states: Vec<&[Val]> = data
            .correct
            .iter()
            .chain(&data.incorrect)
            .map(Vec::as_slice)
            .collect();
        let vars = data
            .vars
            .types
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let at = |st: &[Val]| st.get(i).cloned();
                match t {
                    Ty::Num => Col::N(Cow::Owned(
                        states
                            .iter()
                            .map(|s| match at(s) {
                                Some(Val::N(x)) => x,
                                _ => f64::NAN,
                            })
                            .collect(),
                    )),
                    Ty::Bool => Col::B(Cow::Owned(
                        states
                            .iter()
                            .map(|s| matches!(at(s), Some(Val::B(true))))
                            .collect(),
                    )),
                    Ty::Seq => Col::S(Cow::Owned(
                        states
                            .iter()
                            .map(|s| match at(s) {
                                Some(Val::S(v)) => v,
                                _ => Vec::new(),
                            })
                            .collect(),
                    )),
                }
            })
            .collect::<Vec<_>>();
        let strings = vars
            .iter()
            .map(|c| match c {
                Col::N(x) => Some(x.iter().map(|v| js_string_units(*v)).collect()),
                _ => None,
            })
            .collect();
        Columns {
            correct: data.correct.len(),
            incorrect: data.incorrect.len(),
            vars,
            strings,
        }
    }

    pub fn len(&self) -> usize {
        self.correct + self.incorrect
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the relation holds on each state (a non-Boolean tree holds nowhere).
    pub fn holds(&self, expr: &Expr) -> Vec<bool> {
        let n = self.len();
        match self.eval(expr) {
            Col::B(b) if b.len() == n => b.into_owned(),
            Col::B(b) => vec![b.first().copied().unwrap_or(false); n],
            _ => vec![false; n],
        }
    }

    fn eval(&self, e: &Expr) -> Col<'_> {
        match e {
            Expr::Num(x) => Col::N(Cow::Owned(vec![*x])),
            Expr::Bool(b) => Col::B(Cow::Owned(vec![*b])),
            Expr::Var(i) => match self.vars.get(*i as usize) {
                Some(Col::N(c)) => Col::N(Cow::Borrowed(c)),
                Some(Col::B(c)) => Col::B(Cow::Borrowed(c)),
                Some(Col::S(c)) => Col::S(Cow::Borrowed(c)),
                None => Col::N(Cow::Owned(vec![f64::NAN])),
            },
            Expr::Op(op, args) => {
                if let (Op::ToString, [Expr::Var(i)]) = (op, args.as_slice()) {
                    if let Some(Some(s)) = self.strings.get(*i as usize) {
                        return Col::S(Cow::Borrowed(s));
                    }
                }
                let v: Vec<Col> = args.iter().map(|a| self.eval(a)).collect();
                op_col(*op, v)
            }
        }
    }
}

/// Element `i` of a column that may be a broadcast constant.
#[inline(always)]
fn pick<T>(c: &[T], i: usize) -> &T {
    if c.len() == 1 {
        &c[0]
    } else {
        &c[i]
    }
}

#[inline(always)]
fn at<T: Copy>(c: &[T], i: usize) -> T {
    *pick(c, i)
}

fn len2(a: usize, b: usize) -> usize {
    if a == 1 {
        b
    } else {
        a
    }
}

fn nums<'a>(c: Option<&'a Col<'a>>) -> Cow<'a, [f64]> {
    match c {
        Some(Col::N(x)) => Cow::Borrowed(x),
        _ => Cow::Owned(vec![f64::NAN]),
    }
}

fn bools<'a>(c: Option<&'a Col<'a>>) -> Cow<'a, [bool]> {
    match c {
        Some(Col::B(x)) => Cow::Borrowed(x),
        _ => Cow::Owned(vec![false]),
    }
}

fn seqs<'a>(c: Option<&'a Col<'a>>) -> Cow<'a, [Vec<f64>]> {
    match c {
        Some(Col::S(x)) => Cow::Borrowed(x),
        _ => Cow::Owned(vec![Vec::new()]),
    }
}

fn map_n<T>(a: &[f64], b: &[f64], f: impl Fn(f64, f64) -> T) -> Vec<T> {
    if a.len() == b.len() {
        return a.iter().zip(b).map(|(x, y)| f(*x, *y)).collect();
    }
    (0..len2(a.len(), b.len()))
        .map(|i| f(at(a, i), at(b, i)))
        .collect()
}

fn map_b(a: &[bool], b: &[bool], f: impl Fn(bool, bool) -> bool) -> Vec<bool> {
    if a.len() == b.len() {
        return a.iter().zip(b).map(|(x, y)| f(*x, *y)).collect();
    }
    (0..len2(a.len(), b.len()))
        .map(|i| f(at(a, i), at(b, i)))
        .collect()
}

fn n(v: Vec<f64>) -> Col<'static> {
    Col::N(Cow::Owned(v))
}

fn b(v: Vec<bool>) -> Col<'static> {
    Col::B(Cow::Owned(v))
}

/// One operator over operand columns; the same results as `tree::apply` state by state.
fn op_col<'a>(op: Op, v: Vec<Col<'a>>) -> Col<'a> {
    let (x, y) = (v.first(), v.get(1));
    match op {
        Op::Add => n(map_n(&nums(x), &nums(y), |a, b| a + b)),
        Op::Sub => n(map_n(&nums(x), &nums(y), |a, b| a - b)),
        Op::Mul => n(map_n(&nums(x), &nums(y), |a, b| a * b)),
        Op::Div => n(map_n(&nums(x), &nums(y), |a, b| {
            if b == 0.0 {
                1.0
            } else {
                a / b
            }
        })),
        Op::Abs => n(nums(x).iter().map(|a| a.abs()).collect()),
        Op::Eq => b(map_n(&nums(x), &nums(y), close)),
        Op::Ne => b(map_n(&nums(x), &nums(y), |a, b| !close(a, b))),
        Op::Lt => b(map_n(&nums(x), &nums(y), |a, b| a < b && !close(a, b))),
        Op::Gt => b(map_n(&nums(x), &nums(y), |a, b| a > b && !close(a, b))),
        Op::Le => b(map_n(&nums(x), &nums(y), |a, b| a < b || close(a, b))),
        Op::Ge => b(map_n(&nums(x), &nums(y), |a, b| a > b || close(a, b))),
        Op::ToString => Col::S(Cow::Owned(
            nums(x).iter().map(|a| js_string_units(*a)).collect(),
        )),
        Op::And => b(map_b(&bools(x), &bools(y), |p, q| p && q)),
        Op::Or => b(map_b(&bools(x), &bools(y), |p, q| p || q)),
        Op::Xor => b(map_b(&bools(x), &bools(y), |p, q| p != q)),
        Op::Iff => b(map_b(&bools(x), &bools(y), |p, q| p == q)),
        Op::Implies => b(map_b(&bools(x), &bools(y), |p, q| !p || q)),
        Op::Not => b(bools(x).iter().map(|p| !p).collect()),
        Op::Length => n(seqs(x).iter().map(|s| s.len() as f64).collect()),
        Op::Sum => n(seqs(x).iter().map(|s| s.iter().sum()).collect()),
        Op::SeqEq | Op::SeqNe => {
            let want = op == Op::SeqEq;
            let (p, q) = (seqs(x), seqs(y));
            b((0..len2(p.len(), q.len()))
                .map(|i| {
                    let (s, t) = (pick(&p, i), pick(&q, i));
                    let same = s.len() == t.len() && s.iter().zip(t).all(|(a, b)| close(*a, *b));
                    same == want
                })
                .collect())
        }
        // Sequence results allocate per state anyway: `apply` itself computes them.
        Op::Flip | Op::Remove | Op::Truncate => {
            let (p, q) = (seqs(x), nums(y));
            Col::S(Cow::Owned(
                (0..len2(p.len(), q.len()))
                    .map(|i| {
                        let s = Val::S(pick(&p, i).clone());
                        match apply(op, vec![s, Val::N(at(&q, i))]) {
                            Val::S(r) => r,
                            _ => Vec::new(),
                        }
                    })
                    .collect(),
            ))
        }
    }
}

#[cfg(test)]
impl Columns {
    /// Every state's value of a tree of any type, as `Expr::eval` gives it.
    fn values(&self, e: &Expr) -> Vec<Val> {
        let col = self.eval(e);
        (0..self.len())
            .map(|i| match &col {
                Col::N(c) => Val::N(at(c, i)),
                Col::B(c) => Val::B(at(c, i)),
                Col::S(c) => Val::S(pick(c, i).clone()),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genmorph::search::Generator;
    use crate::genmorph::tree::Vars;
    use rand::seq::IndexedRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    const AWKWARD: [f64; 14] = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        0.5,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e21,
        3.7,
        -12.0,
        1e-7,
        1.000_000_000_1,
    ];

    fn random_state(types: &[Ty], rng: &mut ChaCha8Rng) -> Vec<Val> {
        let num = |rng: &mut ChaCha8Rng| {
            if rng.random_bool(0.7) {
                *AWKWARD.choose(rng).unwrap()
            } else {
                rng.random_range(-50.0..50.0)
            }
        };
        types
            .iter()
            .map(|t| match t {
                Ty::Num => Val::N(num(rng)),
                Ty::Bool => Val::B(rng.random_bool(0.5)),
                Ty::Seq => Val::S((0..rng.random_range(0..5)).map(|_| num(rng)).collect()),
            })
            .collect()
    }

    fn key(v: &Val) -> String {
        format!("{v:?}")
    }

    /// Column-wise and state-by-state evaluation agree on every node of random trees of every
    /// type, with NaN, ±Infinity, −0, empty sequences and constants among the values.
    #[test]
    fn columns_evaluate_as_the_tree_evaluator() {
        let types = [
            Ty::Num,
            Ty::Num,
            Ty::Seq,
            Ty::Seq,
            Ty::Bool,
            Ty::Bool,
            Ty::Seq,
            Ty::Seq,
        ];
        let vars = Vars {
            names: (0..types.len()).map(|i| format!("v{i}")).collect(),
            types: types.to_vec(),
            outputs: (6, 7),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let data = Dataset {
            vars: vars.clone(),
            correct: (0..40).map(|_| random_state(&types, &mut rng)).collect(),
            incorrect: (0..30).map(|_| random_state(&types, &mut rng)).collect(),
            incorrect_mutant: vec![0; 30],
        };
        let cols = Columns::new(&data);
        let states: Vec<&Vec<Val>> = data.correct.iter().chain(&data.incorrect).collect();
        let g = Generator::new(&vars, &[-1.0, 0.5, 3.0]);
        let mut ops_seen = std::collections::HashSet::new();
        for k in 0..3000 {
            let t = [Ty::Bool, Ty::Num, Ty::Seq][k % 3];
            let e = g.tree(t, rng.random_range(1..=5), &mut rng);
            for i in 0..e.size() {
                let node = e.node(i).unwrap();
                if let Expr::Op(op, _) = node {
                    ops_seen.insert(*op);
                }
                let got = cols.values(node);
                for (st, v) in states.iter().zip(&got) {
                    assert_eq!(key(v), key(&node.eval(st)), "{node:?} on {st:?}");
                }
            }
            if t == Ty::Bool {
                let held = cols.holds(&e);
                let want: Vec<bool> = states.iter().map(|st| e.holds(st)).collect();
                assert_eq!(held, want);
            }
        }
        assert_eq!(ops_seen.len(), Op::ALL.len(), "every operator exercised");
    }

    /// A Boolean constant and a non-Boolean tree have a value for every state.
    #[test]
    fn constants_stand_for_every_state() {
        let vars = Vars {
            names: vec!["out_s".into(), "out_f".into()],
            types: vec![Ty::Num, Ty::Num],
            outputs: (0, 1),
        };
        let st = |a: f64, b: f64| vec![Val::N(a), Val::N(b)];
        let data = Dataset {
            vars,
            correct: vec![st(1.0, 1.0), st(2.0, 3.0)],
            incorrect: vec![st(f64::NAN, f64::NAN)],
            incorrect_mutant: vec![0],
        };
        let cols = Columns::new(&data);
        assert_eq!(cols.holds(&Expr::Bool(true)), vec![true; 3]);
        assert_eq!(cols.holds(&Expr::Num(1.0)), vec![false; 3]);
        let eq = Expr::Op(Op::Eq, vec![Expr::Var(0), Expr::Var(1)]);
        assert_eq!(cols.holds(&eq), vec![true, false, true]);
    }
}
