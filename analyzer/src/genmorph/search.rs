//! GenMorph's co-evolutionary search (Algorithm 1, §6): two populations of output relations,
//! one ranked by FP-dominance and one by FN-dominance (Definitions 4–5), tournament (K = 2) and
//! best-match selection, subtree crossover, node/subtree/constant mutation, elitism with the
//! uniqueness constraints, periodic migration, a size bound and the soft constraint. Every
//! random choice comes from one seeded generator; with a generation cap instead of a time
//! budget, a run is deterministic.

use super::columns::Columns;
use super::data::Dataset;
use super::simplify::simplify;
use super::tree::{Expr, Op, Ty, Vars};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// Table III, plus what the paper leaves implicit.
#[derive(Debug, Clone)]
pub struct Config {
    pub budget: Duration,
    /// Stop after this many generations even if time is left (deterministic runs).
    pub max_generations: Option<usize>,
    pub max_correct: usize,
    pub max_incorrect: usize,
    pub size_bound: usize,
    pub population: usize,
    pub crossover: f64,
    pub mutation: f64,
    pub migration_every: usize,
    pub elitism: usize,
    pub migrants: usize,
    pub tournament: usize,
    /// Probability of best-match selection (else tournament).
    pub best_match: f64,
    /// Constant mutation's step Δ.
    pub delta: f64,
    pub max_depth: usize,
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            budget: Duration::from_secs(180),
            max_generations: None,
            max_correct: 9_000,
            max_incorrect: 9_000,
            size_bound: 16,
            population: 1_000,
            crossover: 0.9,
            mutation: 0.3,
            migration_every: 10,
            elitism: 10,
            migrants: 160,
            tournament: 2,
            best_match: 0.5,
            delta: 0.1,
            max_depth: 5,
            seed: 1,
        }
    }
}

/// An output relation with its counts over E+ and E−.
#[derive(Debug, Clone)]
pub struct Individual {
    pub expr: Expr,
    pub fp: usize,
    pub fn_: usize,
    pub size: usize,
    /// Bit i set: state i (E+ then E−) is classified correctly (E+: holds; E−: fails).
    pub right: Vec<u64>,
    /// Identity of the set of false negatives (uniqueness constraint).
    pub fn_hash: u64,
    pub text: String,
}

/// Definition 4: fewer FPs, then fewer FNs, then smaller.
pub fn dominates_fp(a: &Individual, b: &Individual) -> Ordering {
    (a.fp, a.fn_, a.size).cmp(&(b.fp, b.fn_, b.size))
}

/// Definition 5: fewer FNs, then fewer FPs, then smaller.
pub fn dominates_fn(a: &Individual, b: &Individual) -> Ordering {
    (a.fn_, a.fp, a.size).cmp(&(b.fn_, b.fp, b.size))
}

type Rank = fn(&Individual, &Individual) -> Ordering;

/// The soft constraint (§6.2): both the source and the follow-up output occur.
pub fn is_mr(expr: &Expr, vars: &Vars) -> bool {
    expr.uses(vars.outputs.0) && expr.uses(vars.outputs.1)
}

/// Fitness over E+ and E− (column-wise: see `columns`).
pub fn evaluate(expr: Expr, cols: &Columns, vars: &Vars) -> Individual {
    let holds = cols.holds(&expr);
    individual(expr, cols.correct, holds.into_iter(), vars)
}

/// The same fitness computed state by state with `Expr::holds`: the reference for `evaluate`,
/// and the benchmark's baseline.
pub fn evaluate_per_state(expr: Expr, data: &Dataset, vars: &Vars) -> Individual {
    let holds: Vec<bool> = data
        .correct
        .iter()
        .chain(&data.incorrect)
        .map(|st| expr.holds(st))
        .collect();
    individual(expr, data.correct.len(), holds.into_iter(), vars)
}

/// Counts from whether the relation holds on each state (E+ first, then E−).
fn individual(
    expr: Expr,
    correct: usize,
    holds: impl ExactSizeIterator<Item = bool>,
    vars: &Vars,
) -> Individual {
    let n = holds.len();
    let mut right = vec![0u64; n.div_ceil(64)];
    let (mut fp, mut fn_) = (0, 0);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, held) in holds.enumerate() {
        // E+: right when it holds; E−: right when it fails.
        let ok = if i < correct {
            fp += usize::from(!held);
            held
        } else if held {
            fn_ += 1;
            h = (h ^ (i - correct) as u64).wrapping_mul(0x100_0000_01b3);
            false
        } else {
            true
        };
        if ok {
            right[i / 64] |= 1 << (i % 64);
        }
    }
    Individual {
        size: expr.size(),
        text: expr.render(vars),
        expr,
        fp,
        fn_,
        right,
        fn_hash: h,
    }
}

/// Random trees of a type (grow method); sequences come from sequence variables or
/// `toString` when the function has none.
pub struct Generator<'a> {
    pub vars: &'a Vars,
    pub constants: Vec<f64>,
    by_type: HashMap<Ty, Vec<u16>>,
    ops: HashMap<Ty, Vec<Op>>,
}

impl<'a> Generator<'a> {
    pub fn new(vars: &'a Vars, constants: &[f64]) -> Generator<'a> {
        let mut by_type = HashMap::new();
        for t in [Ty::Num, Ty::Bool, Ty::Seq] {
            by_type.insert(t, vars.of_type(t));
        }
        let has_seq = !vars.of_type(Ty::Seq).is_empty();
        let mut ops: HashMap<Ty, Vec<Op>> = HashMap::new();
        for o in Op::ALL {
            // Without sequence inputs or outputs, sequences only come from toString of numbers:
            // keep the operators, they can still say something about digits.
            let (args, ret) = o.signature();
            if !has_seq && args.contains(&Ty::Seq) && o != Op::Length && o != Op::SeqEq {
                continue;
            }
            ops.entry(ret).or_default().push(o);
        }
        let mut c: Vec<f64> = vec![-1.0, 0.0, 1.0, 2.0];
        for k in constants {
            if !c.contains(k) && k.is_finite() {
                c.push(*k);
            }
        }
        Generator {
            vars,
            constants: c,
            by_type,
            ops,
        }
    }

    pub fn leaf(&self, t: Ty, rng: &mut ChaCha8Rng) -> Expr {
        let vs = &self.by_type[&t];
        match t {
            Ty::Num if vs.is_empty() || rng.random_bool(0.3) => {
                if rng.random_bool(0.6) {
                    Expr::Num(*self.constants.choose(rng).unwrap_or(&1.0))
                } else {
                    Expr::Num((rng.random_range(-100.0f64..=100.0) * 10.0).round() / 10.0)
                }
            }
            Ty::Bool if vs.is_empty() || rng.random_bool(0.2) => Expr::Bool(rng.random_bool(0.5)),
            Ty::Seq if vs.is_empty() => Expr::Op(Op::ToString, vec![self.leaf(Ty::Num, rng)]),
            _ => Expr::Var(*vs.choose(rng).unwrap_or(&0)),
        }
    }

    pub fn tree(&self, t: Ty, depth: usize, rng: &mut ChaCha8Rng) -> Expr {
        let ops = self.ops.get(&t).map(Vec::as_slice).unwrap_or(&[]);
        if depth <= 1 || ops.is_empty() || (t != Ty::Bool && rng.random_bool(0.35)) {
            return self.leaf(t, rng);
        }
        let op = *ops.choose(rng).unwrap_or(&Op::Not);
        let args = op
            .signature()
            .0
            .iter()
            .map(|a| self.tree(*a, depth - 1, rng))
            .collect();
        Expr::Op(op, args)
    }

    /// An initial relation: half of them compare an expression of the follow-up output with
    /// one of the source output (our seeding; the rest are random Boolean trees).
    pub fn initial(&self, max_depth: usize, rng: &mut ChaCha8Rng) -> Expr {
        let out_t = self.vars.types[self.vars.outputs.0 as usize];
        if rng.random_bool(0.5) {
            let cmp: &[Op] = match out_t {
                Ty::Num => &[Op::Eq, Op::Ne, Op::Lt, Op::Gt, Op::Le, Op::Ge],
                Ty::Bool => &[Op::Iff, Op::Xor, Op::Implies],
                Ty::Seq => &[Op::SeqEq, Op::SeqNe],
            };
            let op = *cmp.choose(rng).unwrap_or(&Op::Eq);
            let side = |v: u16, rng: &mut ChaCha8Rng| {
                if rng.random_bool(0.5) {
                    Expr::Var(v)
                } else {
                    let mut e = self.tree(out_t, 3, rng);
                    // Make sure the output is in there.
                    let n = e.size();
                    let k = rng.random_range(0..n);
                    let typed: Vec<usize> = (0..n)
                        .filter(|&i| e.node(i).is_some_and(|x| x.ty(self.vars) == out_t))
                        .collect();
                    let at = typed.get(k % typed.len().max(1)).copied().unwrap_or(0);
                    if let Some(slot) = e.node_mut(at) {
                        *slot = Expr::Var(v);
                    }
                    e
                }
            };
            let (os, of) = self.vars.outputs;
            let a = side(of, rng);
            let b = side(os, rng);
            return Expr::Op(op, vec![a, b]);
        }
        let d = rng.random_range(2..=max_depth.max(2));
        self.tree(Ty::Bool, d, rng)
    }
}

/// Swaps a random subtree of `a` with a random subtree of `b` of the same type.
pub fn crossover(a: &Expr, b: &Expr, vars: &Vars, rng: &mut ChaCha8Rng) -> (Expr, Expr) {
    let (mut x, mut y) = (a.clone(), b.clone());
    let i = rng.random_range(0..x.size());
    let Some(t) = x.node(i).map(|n| n.ty(vars)) else {
        return (x, y);
    };
    let same: Vec<usize> = (0..y.size())
        .filter(|&j| y.node(j).is_some_and(|n| n.ty(vars) == t))
        .collect();
    let Some(&j) = same.choose(rng) else {
        return (x, y);
    };
    let (Some(sx), Some(sy)) = (x.node(i).cloned(), y.node(j).cloned()) else {
        return (x, y);
    };
    if let Some(slot) = x.node_mut(i) {
        *slot = sy;
    }
    if let Some(slot) = y.node_mut(j) {
        *slot = sx;
    }
    (x, y)
}

/// One of the three mutations (§6.1.2), chosen at random.
pub fn mutate(e: &Expr, g: &Generator, cfg: &Config, rng: &mut ChaCha8Rng) -> Expr {
    let mut out = e.clone();
    let n = out.size();
    match rng.random_range(0..3) {
        // Node mutation: a leaf becomes another leaf of its type.
        0 => {
            let leaves: Vec<usize> = (0..n)
                .filter(|&i| !matches!(out.node(i), Some(Expr::Op(..))))
                .collect();
            if let Some(&i) = leaves.choose(rng) {
                let t = out.node(i).map(|x| x.ty(g.vars)).unwrap_or(Ty::Num);
                let fresh = g.leaf(t, rng);
                if let Some(slot) = out.node_mut(i) {
                    *slot = fresh;
                }
            }
        }
        // Subtree mutation: an inner node's subtree is regrown.
        1 => {
            let inner: Vec<usize> = (0..n)
                .filter(|&i| matches!(out.node(i), Some(Expr::Op(..))))
                .collect();
            if let Some(&i) = inner.choose(rng) {
                let t = out.node(i).map(|x| x.ty(g.vars)).unwrap_or(Ty::Bool);
                let fresh = g.tree(t, rng.random_range(1..=3), rng);
                if let Some(slot) = out.node_mut(i) {
                    *slot = fresh;
                }
            }
        }
        // Constant mutation: a numeric constant moves by ±Δ.
        _ => {
            let consts: Vec<usize> = (0..n)
                .filter(|&i| matches!(out.node(i), Some(Expr::Num(_))))
                .collect();
            if let Some(&i) = consts.choose(rng) {
                let d = if rng.random_bool(0.5) {
                    cfg.delta
                } else {
                    -cfg.delta
                };
                if let Some(Expr::Num(x)) = out.node_mut(i) {
                    *x = ((*x + d) * 1e6).round() / 1e6;
                }
            }
        }
    }
    out
}

/// The best individuals by `rank` that are MRs (soft constraint), with unique relations and
/// unique sets of false negatives.
pub fn best(pop: &[Individual], rank: Rank, n: usize, vars: &Vars) -> Vec<Individual> {
    let mut sorted: Vec<&Individual> = pop.iter().collect();
    sorted.sort_by(|a, b| rank(a, b).then_with(|| a.text.cmp(&b.text)));
    let mut texts = HashSet::new();
    let mut fns = HashSet::new();
    let mut out = Vec::new();
    for i in sorted {
        if out.len() >= n {
            break;
        }
        if !is_mr(&i.expr, vars) {
            continue;
        }
        // Both constraints: another individual with the same relation, or with the same set of
        // false negatives, is already in.
        if texts.contains(&i.text) || fns.contains(&(i.fn_, i.fn_hash)) {
            continue;
        }
        texts.insert(i.text.clone());
        fns.insert((i.fn_, i.fn_hash));
        out.push(i.clone());
    }
    out
}

fn union_right(a: &Individual, b: &Individual) -> u32 {
    a.right
        .iter()
        .zip(&b.right)
        .map(|(x, y)| (x | y).count_ones())
        .sum()
}

fn select(pop: &[Individual], rank: Rank, cfg: &Config, rng: &mut ChaCha8Rng) -> (usize, usize) {
    let tournament = |rng: &mut ChaCha8Rng| {
        let mut best = rng.random_range(0..pop.len());
        for _ in 1..cfg.tournament {
            let c = rng.random_range(0..pop.len());
            if rank(&pop[c], &pop[best]) == Ordering::Less {
                best = c;
            }
        }
        best
    };
    if rng.random_bool(cfg.best_match) {
        // Best match: a random first parent, and of a sample of candidates the one that covers
        // most executions together with it.
        let p1 = rng.random_range(0..pop.len());
        let mut p2 = rng.random_range(0..pop.len());
        let mut cover = union_right(&pop[p1], &pop[p2]);
        for _ in 0..7 {
            let c = rng.random_range(0..pop.len());
            let u = union_right(&pop[p1], &pop[c]);
            if u > cover {
                p2 = c;
                cover = u;
            }
        }
        (p1, p2)
    } else {
        (tournament(rng), tournament(rng))
    }
}

struct Evaluator<'a> {
    data: &'a Dataset,
    cols: Columns,
    cache: HashMap<String, Individual>,
    evaluations: u64,
}

impl Evaluator<'_> {
    fn all(&mut self, exprs: Vec<Expr>) -> Vec<Individual> {
        let vars = &self.data.vars;
        let texts: Vec<String> = exprs.iter().map(|e| e.render(vars)).collect();
        let todo: Vec<(usize, Expr)> = exprs
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.cache.contains_key(&texts[*i]))
            .map(|(i, e)| (i, e.clone()))
            .collect();
        let done: Vec<Individual> = todo
            .into_par_iter()
            .map(|(_, e)| evaluate(e, &self.cols, vars))
            .collect();
        self.evaluations += done.len() as u64;
        for d in done {
            self.cache.insert(d.text.clone(), d);
        }
        // Bounded memory: the cache is a speed-up, not a record.
        if self.cache.len() > 200_000 {
            self.cache.clear();
        }
        exprs
            .into_iter()
            .zip(texts)
            .map(|(e, t)| match self.cache.get(&t) {
                Some(i) => i.clone(),
                None => evaluate(e, &self.cols, vars),
            })
            .collect()
    }
}

fn reproduce(
    pop: &[Individual],
    rank: Rank,
    g: &Generator,
    cfg: &Config,
    rng: &mut ChaCha8Rng,
) -> (Vec<Individual>, Vec<Expr>) {
    let elite = best(pop, rank, cfg.elitism, g.vars);
    let mut children = Vec::new();
    let mut seen: HashSet<String> = elite.iter().map(|i| i.text.clone()).collect();
    let want = cfg.population.saturating_sub(elite.len());
    let mut attempts = 0;
    while children.len() < want && attempts < want * 20 {
        attempts += 1;
        let (a, b) = select(pop, rank, cfg, rng);
        let (mut x, mut y) = if rng.random_bool(cfg.crossover) {
            crossover(&pop[a].expr, &pop[b].expr, g.vars, rng)
        } else {
            (pop[a].expr.clone(), pop[b].expr.clone())
        };
        if rng.random_bool(cfg.mutation) {
            x = mutate(&x, g, cfg, rng);
        }
        if rng.random_bool(cfg.mutation) {
            y = mutate(&y, g, cfg, rng);
        }
        // The size bound is a hard constraint: such offspring are dropped unevaluated. A child
        // that repeats one already made is mutated, then replaced by a fresh tree: without this,
        // both populations fill with copies of their leaders and the search stalls.
        for mut c in [x, y] {
            let mut tries = 0;
            while seen.contains(&c.render(g.vars)) && tries < 4 {
                c = if tries < 3 {
                    mutate(&c, g, cfg, rng)
                } else {
                    g.initial(cfg.max_depth, rng)
                };
                tries += 1;
            }
            if c.size() <= cfg.size_bound && children.len() < want {
                seen.insert(c.render(g.vars));
                children.push(c);
            }
        }
    }
    (elite, children)
}

/// What a search returns.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// Best MRs of both populations by FP-dominance, unique, simplified.
    pub relations: Vec<Individual>,
    pub generations: usize,
    pub evaluations: u64,
    pub elapsed: Duration,
    /// (seconds, FPs, FNs) of the best MR each time it improved.
    pub progress: Vec<(f64, usize, usize)>,
}

/// Algorithm 1 for one input relation. `warm`: relations of an earlier round that both initial
/// populations start with (refinement); the rest is random.
pub fn search(
    data: &Dataset,
    constants: &[f64],
    cfg: &Config,
    top: usize,
    warm: &[Expr],
) -> SearchResult {
    let t0 = Instant::now();
    let vars = &data.vars;
    let g = Generator::new(vars, constants);
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut ev = Evaluator {
        data,
        cols: Columns::new(data),
        cache: HashMap::new(),
        evaluations: 0,
    };
    let init = |rng: &mut ChaCha8Rng| {
        let mut v: Vec<Expr> = warm
            .iter()
            .filter(|e| e.size() <= cfg.size_bound)
            .take(cfg.population / 2)
            .cloned()
            .collect();
        while v.len() < cfg.population {
            let e = g.initial(cfg.max_depth, rng);
            if e.size() <= cfg.size_bound {
                v.push(e);
            }
        }
        v
    };
    let a = init(&mut rng);
    let b = init(&mut rng);
    let mut pop_fp = ev.all(a);
    let mut pop_fn = ev.all(b);
    let mut generations = 0;
    let mut progress: Vec<(f64, usize, usize)> = Vec::new();
    loop {
        if let Some(b) = best(&pop_fp, dominates_fp, 1, vars).first() {
            if progress
                .last()
                .is_none_or(|&(_, fp, fn_)| (b.fp, b.fn_) < (fp, fn_))
            {
                progress.push((t0.elapsed().as_secs_f64(), b.fp, b.fn_));
            }
        }
        let done_by_count = cfg.max_generations.is_some_and(|m| generations >= m);
        if done_by_count || t0.elapsed() >= cfg.budget {
            break;
        }
        generations += 1;
        // Both populations reproduce from one generator stream, in a fixed order: the same seed
        // gives the same search whatever the thread count.
        let (elite_fp, kids_fp) = reproduce(&pop_fp, dominates_fp, &g, cfg, &mut rng);
        let (elite_fn, kids_fn) = reproduce(&pop_fn, dominates_fn, &g, cfg, &mut rng);
        let mut next_fp = elite_fp;
        next_fp.extend(ev.all(kids_fp));
        let mut next_fn = elite_fn;
        next_fn.extend(ev.all(kids_fn));
        if generations % cfg.migration_every.max(1) == 0 {
            let to_fp = best(&next_fn, dominates_fn, cfg.migrants, vars);
            let to_fn = best(&next_fp, dominates_fp, cfg.migrants, vars);
            next_fp.extend(to_fp);
            next_fn.extend(to_fn);
        }
        pop_fp = next_fp;
        pop_fn = next_fn;
    }
    let mut all = pop_fp;
    all.extend(pop_fn);
    // Simplified forms may coincide: rank again after simplifying.
    let simplified: Vec<Expr> = best(&all, dominates_fp, top * 4 + 10, vars)
        .into_iter()
        .map(|i| simplify(&i.expr))
        .filter(|e| is_mr(e, vars))
        .collect();
    let relations = best(&ev.all(simplified), dominates_fp, top, vars);
    SearchResult {
        relations,
        generations,
        evaluations: ev.evaluations,
        elapsed: t0.elapsed(),
        progress,
    }
}
