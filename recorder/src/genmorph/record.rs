//! Recording one function: coverage-guided source inputs, random evaluation inputs, follow-ups
//! by the six templates, then the original, our training mutants and StrykerJS's evaluation
//! mutants on every input, into one `ExecutionBatch`.

use super::harness::Harness;
use super::inputs::{Generator, Style};
use super::mutants;
use super::subjects::Spec;
use super::GenmorphError;
use morphtrace_schema::genmorph::{
    ExecutionBatch, Implementation, InputOrigin, InputRecord, InputTransformation, JsValue,
    MutantRecord, MutantRole, Outcome, Param,
};
use morphtrace_schema::lines::Positions;
use morphtrace_schema::Location;
use rand::seq::index::sample;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;

pub const STRYKER_TOOL: &str = "StrykerJS 9.6.0";
pub const OUR_TOOL: &str = "morphtrace (swc)";

#[derive(Debug, Clone)]
pub struct Options {
    pub seed: u64,
    /// Source inputs wanted (coverage-adding ones first, then diverse ones).
    pub sources: usize,
    pub evaluation: usize,
    /// Rounds of the coverage loop, 32 candidates each.
    pub rounds: usize,
    /// At most this many training mutants (seeded sample).
    pub max_training: usize,
    /// Per-call budget before a call is recorded as a timeout.
    pub timeout_ms: u64,
    /// Constants of the function kept in the pool (besides −1 and 1), most frequent first.
    pub max_constants: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: 1,
            sources: 150,
            evaluation: 100,
            rounds: 12,
            max_training: 150,
            timeout_ms: 25,
            max_constants: 3,
        }
    }
}

type Report = Vec<(u32, u32, u32)>;

/// Blocks (V8 ranges inside the function) ever reported, and which of them a call covered: a
/// block is covered when the innermost reported range around it has a count (binary block
/// coverage leaves out nested ranges with their parent's count).
#[derive(Default)]
struct Blocks {
    all: BTreeSet<(u32, u32)>,
}

impl Blocks {
    fn add(&mut self, r: &Report) {
        self.all.extend(r.iter().map(|&(s, e, _)| (s, e)));
    }

    fn covered(&self, r: &Report) -> BTreeSet<(u32, u32)> {
        self.all
            .iter()
            .copied()
            .filter(|&(s, e)| {
                let inner = r
                    .iter()
                    .filter(|&&(a, b, _)| a <= s && e <= b)
                    .map(|&(a, b, _)| b - a)
                    .min();
                // Stale copies of the module (earlier variants at the same path) report the
                // same ranges uncalled: a block counts if any copy ran it.
                inner.is_some_and(|w| {
                    r.iter()
                        .any(|&(a, b, c)| a <= s && e <= b && b - a == w && c > 0)
                })
            })
            .collect()
    }
}

/// What the coverage loop works on.
struct Target<'a> {
    spec: &'a Spec,
    params: &'a [Param],
    path: &'a Path,
    /// The function's span in UTF-16 offsets (V8's).
    span16: (u32, u32),
}

/// The source inputs with their coverage reports, and every block seen.
struct Sources {
    inputs: Vec<Vec<JsValue>>,
    reports: Vec<Report>,
    blocks: Blocks,
}

/// Source inputs: rounds of fresh and mutated candidates, keeping those that cover new blocks
/// (EvoSuite's role), then topped up with candidates of unseen (coverage, outcome) kinds and
/// then any others, in generation order.
fn sources(
    h: &mut Harness,
    target: &Target,
    gen: &mut Generator,
    opts: &Options,
    rng: &mut ChaCha8Rng,
) -> Result<Sources, GenmorphError> {
    let params = target.params;
    let mut blocks = Blocks::default();
    let mut kept: Vec<(Vec<JsValue>, Report)> = Vec::new();
    let mut others: Vec<(Vec<JsValue>, Report, String)> = Vec::new();
    let mut total: BTreeSet<(u32, u32)> = BTreeSet::new();
    let mut seen_inputs: BTreeSet<String> = BTreeSet::new();
    for _ in 0..opts.rounds {
        let candidates: Vec<Vec<JsValue>> = (0..32)
            .map(|_| {
                if kept.is_empty() || rng.random_bool(0.5) {
                    gen.input(params, rng)
                } else {
                    let i = rng.random_range(0..kept.len());
                    gen.mutate(params, &kept[i].0, rng)
                }
            })
            .filter(|c| seen_inputs.insert(format!("{c:?}")))
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let cov = h.coverage(
            "o",
            target.path,
            target.span16,
            &candidates,
            opts.timeout_ms,
        )?;
        for ((c, r), o) in candidates.into_iter().zip(cov.ranges).zip(cov.outcomes) {
            blocks.add(&r);
            let cov = blocks.covered(&r);
            if !cov.is_subset(&total) {
                total.extend(cov);
                kept.push((c, r));
            } else {
                let kind = match &o {
                    Outcome::Returned(v) => format!("{cov:?} returned {}", shape(v)),
                    Outcome::Threw { name, .. } => format!("{cov:?} threw {name}"),
                    Outcome::Timeout => format!("{cov:?} timeout"),
                };
                others.push((c, r, kind));
            }
        }
        tracing::debug!(
            subject = target.spec.name,
            kept = kept.len(),
            blocks = blocks.all.len(),
            "coverage round"
        );
    }
    let mut kinds: BTreeSet<String> = BTreeSet::new();
    let mut rest = Vec::new();
    for (c, r, k) in others {
        if kept.len() < opts.sources && kinds.insert(k) {
            kept.push((c, r));
        } else {
            rest.push((c, r));
        }
    }
    let room = opts.sources.saturating_sub(kept.len()).min(rest.len());
    let mut picks: Vec<usize> = sample(rng, rest.len(), room).into_vec();
    picks.sort_unstable();
    let mut rest: Vec<Option<(Vec<JsValue>, Report)>> = rest.into_iter().map(Some).collect();
    for i in picks {
        if let Some(x) = rest[i].take() {
            kept.push(x);
        }
    }
    let (inputs, reports) = kept.into_iter().unzip();
    Ok(Sources {
        inputs,
        reports,
        blocks,
    })
}

/// A value's shape for diversity: type, and sign or emptiness.
fn shape(v: &JsValue) -> String {
    match v {
        JsValue::Number(x) if x.is_nan() => "NaN".into(),
        JsValue::Number(x) => format!("number{}", x.signum()),
        JsValue::String(s) => format!("string{}", s.is_empty()),
        JsValue::Array(a) => format!("array{}", a.is_empty()),
        other => format!("{:?}", std::mem::discriminant(other)),
    }
}

/// Records one subject. `h` runs the calls; `instrumenter` only runs StrykerJS's instrumenter
/// (Babel's thousands of functions would make every coverage snapshot of `h` slow). Either may
/// be left unusable on error (the caller restarts them).
pub fn record(
    h: &mut Harness,
    instrumenter: &mut Harness,
    spec: &Spec,
    js_dir: &Path,
    opts: &Options,
) -> Result<ExecutionBatch, GenmorphError> {
    let started = Instant::now();
    let subject = spec.subject(js_dir)?;
    let path = spec.module_path(js_dir);
    let source = subject.source.clone();
    let params = subject.params.clone();
    let (lo, hi) = (subject.span.0 as usize, subject.span.1 as usize);
    let positions = Positions::js(&source);
    let span16 = (positions.utf16(lo), positions.utf16(hi));
    let analysis = mutants::analyze(&source, spec.function)
        .ok_or_else(|| GenmorphError::Setup(format!("cannot parse {}", path.display())))?;
    // Separate seed streams per subject and per role, so that adding a subject changes nothing
    // else and the evaluation inputs never follow the source generator's choices.
    let stream = |role: u64| {
        let mut x = opts.seed ^ role.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for b in spec.name.bytes() {
            x = (x ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        ChaCha8Rng::seed_from_u64(x)
    };

    h.load("o", &path, &source, spec.call)?;
    let literals: Vec<f64> = analysis.numbers.iter().map(|n| n.0).collect();
    let mut src_gen = Generator::new(Style::Source, &literals);
    let mut rng = stream(1);
    let target = Target {
        spec,
        params: &params,
        path: &path,
        span16,
    };
    let Sources {
        inputs: source_inputs,
        reports,
        blocks,
    } = sources(h, &target, &mut src_gen, opts, &mut rng)?;
    let covered: BTreeSet<(u32, u32)> = reports.iter().flat_map(|r| blocks.covered(r)).collect();
    tracing::debug!(
        subject = spec.name,
        ms = started.elapsed().as_millis() as u64,
        "source inputs"
    );

    // §5's pool: −1, 1 and the function's numeric literals that executed (they hold the same
    // value in every execution), most frequent first.
    let mut counts: BTreeMap<u64, (f64, u32, usize)> = BTreeMap::new();
    for (i, &(v, at)) in analysis.numbers.iter().enumerate() {
        let at16 = positions.utf16(at);
        let executed = blocks
            .all
            .iter()
            .filter(|&&(s, e)| s <= at16 && at16 < e)
            .min_by_key(|&&(s, e)| e - s)
            .is_some_and(|b| covered.contains(b));
        if executed && v != 0.0 && v != 1.0 && v != -1.0 {
            let e = counts.entry(v.to_bits()).or_insert((v, 0, i));
            e.1 += 1;
        }
    }
    let mut found: Vec<(f64, u32, usize)> = counts.into_values().collect();
    found.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
    found.truncate(opts.max_constants);
    let n_src = source_inputs.len() as u32;
    let mut constants = vec![(-1.0, n_src), (1.0, n_src)];
    constants.extend(found.iter().map(|&(v, c, _)| (v, c * n_src)));
    let pool: Vec<f64> = constants.iter().map(|c| c.0).collect();
    let transformations = InputTransformation::instantiations(&params, &pool);

    let mut eval_gen = Generator::new(Style::Evaluation, &[]);
    let mut erng = stream(2);
    let evaluation: Vec<Vec<JsValue>> = (0..opts.evaluation)
        .map(|_| eval_gen.input(&params, &mut erng))
        .collect();

    let mut inputs: Vec<InputRecord> = Vec::new();
    for (origin, list) in [
        (InputOrigin::Source, source_inputs),
        (InputOrigin::Evaluation, evaluation),
    ] {
        for values in list {
            let at = inputs.len() as u32;
            inputs.push(InputRecord { origin, values });
            let values = inputs[at as usize].values.clone();
            for (t, tr) in transformations.iter().enumerate() {
                if let Some(f) = tr.apply(&values) {
                    inputs.push(InputRecord {
                        origin: InputOrigin::FollowUp {
                            source: at,
                            transformation: t as u32,
                        },
                        values: f,
                    });
                }
            }
        }
    }
    let calls: Vec<Vec<JsValue>> = inputs.iter().map(|r| r.values.clone()).collect();

    let mut variants = vec![Implementation::Original];
    let mut outcomes = vec![h.run("o", None, &calls, opts.timeout_ms)?];
    h.forget("o")?;

    // Training mutants: ours, a seeded sample when there are many.
    let all = analysis.mutations;
    let mut mrng = stream(3);
    let mut picks: Vec<usize> =
        sample(&mut mrng, all.len(), all.len().min(opts.max_training)).into_vec();
    picks.sort_unstable();
    for (n, i) in picks.into_iter().enumerate() {
        let m = &all[i];
        let id = format!("t{n}");
        let text = m.apply(&source);
        let text = mutants::guard_loops(&text).unwrap_or(text);
        if let Err(e) = h.load(&id, &path, &text, spec.call) {
            tracing::debug!(subject = spec.name, mutant = %id, "mutant does not load: {e}");
            continue;
        }
        let Location { line, column } = positions.location(m.start);
        let t0 = Instant::now();
        outcomes.push(h.run(&id, None, &calls, opts.timeout_ms)?);
        tracing::debug!(subject = spec.name, mutant = %id, op = m.operator, ms = t0.elapsed().as_millis() as u64, "ran");
        h.forget(&id)?;
        variants.push(Implementation::Mutant(MutantRecord {
            id,
            role: MutantRole::Training,
            tool: OUR_TOOL.into(),
            operator: m.operator.into(),
            line,
            column,
            original: source[m.start..m.end].to_string(),
            replacement: m.replacement.clone(),
        }));
    }

    // Evaluation mutants: StrykerJS's, those inside the function.
    let (instrumented, stryker) = instrumenter.instrument(&path, &source)?;
    // Our loop guard too: StrykerJS's hit counter sits in mutant switches, and a mutant that
    // empties a loop body leaves none to count.
    let instrumented = mutants::guard_loops(&instrumented).unwrap_or(instrumented);
    h.load("stryker", &path, &instrumented, spec.call)?;
    for m in stryker {
        let (Some(s), Some(e)) = (
            positions.byte_of(Location::new(m.start.0, m.start.1)),
            positions.byte_of(Location::new(m.end.0, m.end.1)),
        ) else {
            continue;
        };
        if s < lo || e > hi || s > e {
            continue;
        }
        let t0 = Instant::now();
        outcomes.push(h.run("stryker", Some(&m.id), &calls, opts.timeout_ms)?);
        tracing::debug!(subject = spec.name, mutant = %m.id, op = %m.mutator, ms = t0.elapsed().as_millis() as u64, "ran");
        variants.push(Implementation::Mutant(MutantRecord {
            id: format!("s{}", m.id),
            role: MutantRole::Evaluation,
            tool: STRYKER_TOOL.into(),
            operator: m.mutator,
            line: m.start.0,
            column: m.start.1,
            original: source[s..e].to_string(),
            replacement: m.replacement,
        }));
    }
    h.forget("stryker")?;

    let batch = ExecutionBatch {
        subject,
        seed: opts.seed,
        node: h.node_version.clone(),
        constants,
        transformations,
        inputs,
        variants,
        outcomes,
        coverage: (covered.len() as u32, blocks.all.len() as u32),
        elapsed_ms: started.elapsed().as_millis() as u64,
    };
    batch.validate().map_err(GenmorphError::Harness)?;
    Ok(batch)
}
