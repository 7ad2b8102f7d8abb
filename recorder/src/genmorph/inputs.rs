//! Input generators. `Style::Source` plays EvoSuite's role: small values, the function's own
//! literals, and mutation of inputs kept for covering new blocks (the coverage loop is in
//! `record`). `Style::Evaluation` plays Randoop's: a separate generator with its own seed
//! stream and its own distributions, never seen by the search.

use morphtrace_schema::genmorph::{JsValue, Kind, Param};
use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Source,
    Evaluation,
}

pub struct Generator {
    pub style: Style,
    /// The function's numeric literals (source style only).
    pub literals: Vec<f64>,
    /// Strings generated so far: reusing one makes equal and prefix-related arguments likely.
    strings: Vec<String>,
}

const SOURCE_CHARS: &[char] = &['a', 'b', 'c', 'A', 'B', ' ', '-', '_', '0', '1', 'x', 'y'];
const EVALUATION_CHARS: &[char] = &[
    'a', 'e', 'i', 'o', 'z', 'Q', 'W', ' ', '.', ',', '7', '9', '\u{e9}', '#',
];
/// Largest integer argument `Generator::widen` makes.
const MAX_WIDE_INT: f64 = 10_000.0;
/// Randoop's seed primitives.
const RANDOOP_INTS: &[f64] = &[-1.0, 0.0, 1.0, 10.0, 100.0];

impl Generator {
    pub fn new(style: Style, literals: &[f64]) -> Generator {
        Generator {
            style,
            literals: literals.iter().copied().filter(|x| x.is_finite()).collect(),
            strings: Vec::new(),
        }
    }

    fn int(&self, rng: &mut ChaCha8Rng) -> f64 {
        match self.style {
            Style::Source => {
                let p: f64 = rng.random();
                if p < 0.4 {
                    rng.random_range(-10..=10) as f64
                } else if p < 0.6 && !self.literals.is_empty() {
                    let l = self.literals.choose(rng).copied().unwrap_or(0.0).trunc();
                    l + rng.random_range(-1..=1) as f64
                } else if p < 0.75 {
                    rng.random_range(0..=3) as f64
                } else if p < 0.92 {
                    rng.random_range(-100..=100) as f64
                } else {
                    rng.random_range(-1000..=1000) as f64
                }
            }
            Style::Evaluation => {
                if rng.random_bool(0.2) {
                    RANDOOP_INTS.choose(rng).copied().unwrap_or(0.0)
                } else {
                    rng.random_range(-50..=50) as f64
                }
            }
        }
    }

    fn number(&self, rng: &mut ChaCha8Rng) -> f64 {
        let p: f64 = rng.random();
        match self.style {
            Style::Source => {
                if p < 0.3 {
                    self.int(rng)
                } else if p < 0.6 {
                    (rng.random_range(-10.0..10.0f64) * 100.0).round() / 100.0
                } else if p < 0.75 && !self.literals.is_empty() {
                    self.literals.choose(rng).copied().unwrap_or(0.0)
                } else if p < 0.82 {
                    [
                        0.0,
                        -0.0,
                        0.5,
                        -0.5,
                        f64::INFINITY,
                        f64::NEG_INFINITY,
                        f64::NAN,
                    ]
                    .choose(rng)
                    .copied()
                    .unwrap_or(0.0)
                } else {
                    rng.random_range(-1000.0..1000.0f64)
                }
            }
            Style::Evaluation => {
                if p < 0.4 {
                    self.int(rng)
                } else {
                    rng.random_range(-100.0..100.0f64)
                }
            }
        }
    }

    fn string(&mut self, rng: &mut ChaCha8Rng) -> String {
        if !self.strings.is_empty() && rng.random_bool(0.15) {
            let s = self.strings.choose(rng).cloned().unwrap_or_default();
            // A prefix or the whole of an earlier string.
            let n = s.chars().count();
            return s.chars().take(rng.random_range(0..=n)).collect();
        }
        let (chars, max) = match self.style {
            Style::Source => (SOURCE_CHARS, 8),
            Style::Evaluation => (EVALUATION_CHARS, 12),
        };
        let len = rng.random_range(0..=max);
        let s: String = (0..len)
            .filter_map(|_| chars.choose(rng).copied())
            .collect();
        self.strings.push(s.clone());
        if self.strings.len() > 64 {
            self.strings.remove(0);
        }
        s
    }

    fn element(&self, kind: Kind, rng: &mut ChaCha8Rng) -> JsValue {
        match kind {
            Kind::IntArray => JsValue::Number(match self.style {
                Style::Source => rng.random_range(-5..=10) as f64,
                Style::Evaluation => rng.random_range(-20..=20) as f64,
            }),
            Kind::BoolArray => JsValue::Bool(rng.random()),
            _ => JsValue::Number(match self.style {
                Style::Source if rng.random_bool(0.5) => rng.random_range(-5..=10) as f64,
                Style::Source => (rng.random_range(-10.0..10.0f64) * 10.0).round() / 10.0,
                Style::Evaluation => rng.random_range(-100.0..100.0f64),
            }),
        }
    }

    pub fn value(&mut self, kind: Kind, rng: &mut ChaCha8Rng) -> JsValue {
        match kind {
            Kind::Int => JsValue::Number(self.int(rng)),
            Kind::Number => JsValue::Number(self.number(rng)),
            Kind::Bool => JsValue::Bool(rng.random()),
            Kind::Str => JsValue::String(self.string(rng)),
            Kind::IntArray | Kind::NumberArray | Kind::BoolArray => {
                let max = if self.style == Style::Source { 6 } else { 8 };
                let len = rng.random_range(0..=max);
                JsValue::Array((0..len).map(|_| self.element(kind, rng)).collect())
            }
        }
    }

    pub fn input(&mut self, params: &[Param], rng: &mut ChaCha8Rng) -> Vec<JsValue> {
        params.iter().map(|p| self.value(p.kind, rng)).collect()
    }

    /// A small change to one argument of a kept input (EvoSuite-style local search).
    pub fn mutate(
        &mut self,
        params: &[Param],
        input: &[JsValue],
        rng: &mut ChaCha8Rng,
    ) -> Vec<JsValue> {
        let mut out = input.to_vec();
        if params.is_empty() {
            return out;
        }
        let k = rng.random_range(0..params.len());
        let kind = params[k].kind;
        if rng.random_bool(0.2) {
            out[k] = self.value(kind, rng);
            return out;
        }
        out[k] = match (&input[k], kind) {
            (JsValue::Number(x), Kind::Int | Kind::Number) => {
                let x = *x;
                let step = if kind == Kind::Int {
                    1.0
                } else {
                    rng.random_range(0.01..1.0f64)
                };
                JsValue::Number(match rng.random_range(0..5) {
                    0 => x + step,
                    1 => x - step,
                    2 => -x,
                    3 => x * 2.0,
                    _ => (x / 2.0).trunc(),
                })
            }
            (JsValue::Bool(b), _) => JsValue::Bool(!b),
            (JsValue::String(s), _) => {
                let mut cs: Vec<char> = s.chars().collect();
                let c = SOURCE_CHARS.choose(rng).copied().unwrap_or('a');
                match rng.random_range(0..3) {
                    0 => cs.insert(rng.random_range(0..=cs.len()), c),
                    1 if !cs.is_empty() => {
                        cs.remove(rng.random_range(0..cs.len()));
                    }
                    _ if !cs.is_empty() => {
                        let i = rng.random_range(0..cs.len());
                        cs[i] = c;
                    }
                    _ => cs.push(c),
                }
                JsValue::String(cs.into_iter().collect())
            }
            (JsValue::Array(a), _) => {
                let mut a = a.clone();
                let e = self.element(kind, rng);
                match rng.random_range(0..3) {
                    0 => a.insert(rng.random_range(0..=a.len()), e),
                    1 if !a.is_empty() => {
                        a.remove(rng.random_range(0..a.len()));
                    }
                    _ if !a.is_empty() => {
                        let i = rng.random_range(0..a.len());
                        a[i] = e;
                    }
                    _ => a.push(e),
                }
                JsValue::Array(a)
            }
            _ => self.value(kind, rng),
        };
        out
    }

    /// Falsification's wider reach: OASIs searches the whole input space, while both our
    /// generators keep to small values. One argument is scaled by 10, 100 or 1000 (a number, or
    /// every number of an array; integers stay integers, zero becomes ±factor) or a string is
    /// repeated. Relations that hold only on the small values the search saw (thresholds such as
    /// `out_f ≤ 17.8`) break on these inputs.
    pub fn widen(
        &mut self,
        params: &[Param],
        input: &[JsValue],
        rng: &mut ChaCha8Rng,
    ) -> Vec<JsValue> {
        let mut out = input.to_vec();
        let n = params.len().min(out.len());
        if n == 0 {
            return out;
        }
        let k = rng.random_range(0..n);
        let f = [10.0, 100.0, 1000.0].choose(rng).copied().unwrap_or(10.0);
        out[k] = match &input[k] {
            JsValue::Number(x) => {
                let y = if *x == 0.0 {
                    if rng.random_bool(0.5) {
                        f
                    } else {
                        -f
                    }
                } else {
                    x * f
                };
                // Integer arguments are often sizes (padStart's length, repeat's count): past
                // ±10,000 a call only builds huge strings.
                JsValue::Number(if params[k].kind == Kind::Int {
                    y.clamp(-MAX_WIDE_INT, MAX_WIDE_INT)
                } else {
                    y
                })
            }
            // Widened inputs are widened again later: strings stop growing at 256 units.
            JsValue::String(s) if s.is_empty() || s.encode_utf16().count() > 256 => {
                JsValue::String(self.string(rng))
            }
            JsValue::String(s) => JsValue::String(s.repeat(rng.random_range(2..=4))),
            JsValue::Array(a) => JsValue::Array(
                a.iter()
                    .map(|e| match e {
                        JsValue::Number(x) => JsValue::Number(x * f),
                        other => other.clone(),
                    })
                    .collect(),
            ),
            other => other.clone(),
        };
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn params() -> Vec<Param> {
        [
            Kind::Int,
            Kind::Number,
            Kind::Str,
            Kind::IntArray,
            Kind::Bool,
        ]
        .into_iter()
        .enumerate()
        .map(|(i, kind)| Param {
            name: format!("p{i}"),
            kind,
        })
        .collect()
    }

    fn fits(kind: Kind, v: &JsValue) -> bool {
        match (kind, v) {
            (Kind::Int, JsValue::Number(x)) => x.fract() == 0.0,
            (Kind::Number, JsValue::Number(_)) | (Kind::Bool, JsValue::Bool(_)) => true,
            (Kind::Str, JsValue::String(_)) => true,
            (Kind::IntArray, JsValue::Array(a)) => a
                .iter()
                .all(|e| matches!(e, JsValue::Number(x) if x.fract() == 0.0)),
            _ => false,
        }
    }

    #[test]
    fn values_have_their_kinds_and_are_seeded() {
        let ps = params();
        for style in [Style::Source, Style::Evaluation] {
            let run = |seed| {
                let mut g = Generator::new(style, &[7.0, 0.5]);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut out = Vec::new();
                for _ in 0..200 {
                    let i = g.input(&ps, &mut rng);
                    let m = g.mutate(&ps, &i, &mut rng);
                    for input in [&i, &m] {
                        for (p, v) in ps.iter().zip(input.iter()) {
                            assert!(fits(p.kind, v), "{style:?} {:?} {v:?}", p.kind);
                        }
                    }
                    out.push(i);
                    out.push(m);
                }
                out
            };
            assert_eq!(run(3), run(3));
            assert_ne!(run(3), run(4));
        }
    }

    #[test]
    fn widening_keeps_kinds_and_leaves_the_small_values() {
        let ps = params();
        let run = |seed| {
            let mut g = Generator::new(Style::Source, &[7.0]);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..300)
                .map(|_| {
                    let i = g.input(&ps, &mut rng);
                    g.widen(&ps, &i, &mut rng)
                })
                .collect::<Vec<_>>()
        };
        let wide = run(5);
        assert_eq!(wide, run(5));
        for input in &wide {
            for (p, v) in ps.iter().zip(input) {
                assert!(fits(p.kind, v), "{:?} {v:?}", p.kind);
            }
        }
        // Source integers stay within ±1000 and array elements within [-5, 10]: widened ones
        // go beyond, and strings beyond the source's 8 characters.
        let big = |v: &JsValue| match v {
            JsValue::Number(x) => x.abs() > 1000.0,
            JsValue::Array(a) => a
                .iter()
                .any(|e| matches!(e, JsValue::Number(x) if x.abs() > 10.0)),
            JsValue::String(s) => s.chars().count() > 8,
            _ => false,
        };
        for k in 0..4 {
            assert!(
                wide.iter().any(|i| big(&i[k])),
                "argument {k} never widened"
            );
        }
    }
}
