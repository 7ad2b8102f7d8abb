//! From recorded executions to GenMorph's correct (E+) and incorrect (E−) executions for one
//! input relation (§3 step 4): states of (source inputs, follow-up inputs, both outputs).

use super::tree::{Ty, Val, Vars};
use morphtrace_schema::genmorph::{
    ExecutionBatch, InputOrigin, JsValue, Kind, MutantRole, Outcome,
};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

pub fn ty(kind: Kind) -> Ty {
    match kind {
        Kind::Int | Kind::Number => Ty::Num,
        Kind::Bool => Ty::Bool,
        _ => Ty::Seq,
    }
}

/// A recorded value as the GP sees it. Strings are UTF-16 code units, Boolean array elements
/// 0/1. A value of another shape than declared: numbers take JavaScript's `Number(v)` for
/// undefined (NaN) and null (0); anything else has no GP value (None), and the state is left
/// out (a call that returns such a thing fails any generated test that reads it).
pub fn to_val(kind: Kind, v: &JsValue) -> Option<Val> {
    match (ty(kind), v) {
        (Ty::Num, JsValue::Number(x)) => Some(Val::N(*x)),
        (Ty::Num, JsValue::Undefined) => Some(Val::N(f64::NAN)),
        (Ty::Num, JsValue::Null) => Some(Val::N(0.0)),
        (Ty::Bool, JsValue::Bool(b)) => Some(Val::B(*b)),
        (Ty::Seq, JsValue::String(s)) => Some(Val::S(s.encode_utf16().map(f64::from).collect())),
        (Ty::Seq, JsValue::Array(items)) => items
            .iter()
            .map(|i| match i {
                JsValue::Number(x) => Some(*x),
                JsValue::Bool(b) => Some(f64::from(u8::from(*b))),
                _ => None,
            })
            .collect::<Option<Vec<f64>>>()
            .map(Val::S),
        _ => None,
    }
}

/// `k_s, k_f, e_s, e_f, out_s, out_f` for `pow(k, e)`.
pub fn vars(batch: &ExecutionBatch) -> Vars {
    let mut names = Vec::new();
    let mut types = Vec::new();
    for p in &batch.subject.params {
        for side in ["s", "f"] {
            names.push(format!("{}_{side}", p.name));
            types.push(ty(p.kind));
        }
    }
    let o = names.len() as u16;
    names.push("out_s".into());
    names.push("out_f".into());
    types.push(ty(batch.subject.returns));
    types.push(ty(batch.subject.returns));
    Vars {
        names,
        types,
        outputs: (o, o + 1),
    }
}

/// The GP state of one pair with these outputs; None if a value has no GP form.
pub fn state(
    batch: &ExecutionBatch,
    source: usize,
    follow_up: usize,
    out_s: &Outcome,
    out_f: &Outcome,
) -> Option<Vec<Val>> {
    let (Outcome::Returned(os), Outcome::Returned(of)) = (out_s, out_f) else {
        return None;
    };
    state_of(
        batch,
        &batch.inputs[source].values,
        &batch.inputs[follow_up].values,
        os,
        of,
    )
}

/// The GP state of a pair given by its values (a falsification's counterexample).
pub fn state_of(
    batch: &ExecutionBatch,
    source: &[JsValue],
    follow_up: &[JsValue],
    out_s: &JsValue,
    out_f: &JsValue,
) -> Option<Vec<Val>> {
    let mut st = Vec::new();
    for (k, p) in batch.subject.params.iter().enumerate() {
        st.push(to_val(p.kind, source.get(k)?)?);
        st.push(to_val(p.kind, follow_up.get(k)?)?);
    }
    st.push(to_val(batch.subject.returns, out_s)?);
    st.push(to_val(batch.subject.returns, out_f)?);
    Some(st)
}

/// E+ and E− for one transformation, over the source (search) inputs and the training mutants.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub vars: Vars,
    pub correct: Vec<Vec<Val>>,
    pub incorrect: Vec<Vec<Val>>,
    /// The mutant (variant index) behind each incorrect state.
    pub incorrect_mutant: Vec<usize>,
}

fn key(st: &[Val]) -> Vec<u64> {
    let mut k = Vec::new();
    for v in st {
        match v {
            Val::N(x) => k.push(x.to_bits()),
            Val::B(b) => k.push(2 + u64::from(*b)),
            Val::S(s) => {
                k.push(s.len() as u64 | 1 << 63);
                k.extend(s.iter().map(|x| x.to_bits()));
            }
        }
    }
    k
}

impl Dataset {
    /// GenMorph's filtering of states (§3 step 4): duplicates go, and a mutant's state counts
    /// only when the mutant changed an output of the pair; at most `max_*` of each, sampled
    /// with the seed.
    pub fn training(
        batch: &ExecutionBatch,
        transformation: usize,
        max_correct: usize,
        max_incorrect: usize,
        seed: u64,
    ) -> Dataset {
        let pairs: Vec<_> = batch
            .pairs(InputOrigin::Source)
            .into_iter()
            .filter(|p| p.transformation == transformation)
            .collect();
        let orig = batch.original();
        let mut seen = HashSet::new();
        let mut correct = Vec::new();
        for p in &pairs {
            if let Some(st) = state(
                batch,
                p.source,
                p.follow_up,
                &orig[p.source],
                &orig[p.follow_up],
            ) {
                if seen.insert(key(&st)) {
                    correct.push(st);
                }
            }
        }
        let mut incorrect = Vec::new();
        let mut incorrect_mutant = Vec::new();
        let mut seen_bad = HashSet::new();
        for m in batch.mutants(MutantRole::Training) {
            let out = &batch.outcomes[m];
            for p in &pairs {
                if out[p.source] == orig[p.source] && out[p.follow_up] == orig[p.follow_up] {
                    continue;
                }
                if let Some(st) = state(
                    batch,
                    p.source,
                    p.follow_up,
                    &out[p.source],
                    &out[p.follow_up],
                ) {
                    if seen_bad.insert(key(&st)) && !seen.contains(&key(&st)) {
                        incorrect.push(st);
                        incorrect_mutant.push(m);
                    }
                }
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        if correct.len() > max_correct {
            correct.shuffle(&mut rng);
            correct.truncate(max_correct);
        }
        if incorrect.len() > max_incorrect {
            let mut idx: Vec<usize> = (0..incorrect.len()).collect();
            idx.shuffle(&mut rng);
            idx.truncate(max_incorrect);
            idx.sort_unstable();
            incorrect = idx.iter().map(|&i| incorrect[i].clone()).collect();
            incorrect_mutant = idx.iter().map(|&i| incorrect_mutant[i]).collect();
        }
        Dataset {
            vars: vars(batch),
            correct,
            incorrect,
            incorrect_mutant,
        }
    }

    /// Adds correct states found after the recording (counterexamples of an earlier round's
    /// relations). A state that is correct cannot count as incorrect: such states leave E−.
    /// Returns how many were new.
    pub fn add_correct(&mut self, states: &[Vec<Val>]) -> usize {
        let mut seen: HashSet<Vec<u64>> = self.correct.iter().map(|s| key(s)).collect();
        let before = self.correct.len();
        for st in states {
            if seen.insert(key(st)) {
                self.correct.push(st.clone());
            }
        }
        let (incorrect, mutants) = std::mem::take(&mut self.incorrect)
            .into_iter()
            .zip(std::mem::take(&mut self.incorrect_mutant))
            .filter(|(st, _)| !seen.contains(&key(st)))
            .unzip();
        self.incorrect = incorrect;
        self.incorrect_mutant = mutants;
        self.correct.len() - before
    }
}
