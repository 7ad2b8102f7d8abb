//! One archive frame per function under test (`FrameKind::Executions`): what was called, with
//! which inputs, and what the original and every mutant did with each.

use super::transform::InputTransformation;
use super::value::Outcome;
pub use super::value::{Kind, Param};
use super::JsValue;
use serde::{Deserialize, Serialize};

/// A function of a library pinned from the npm registry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Subject {
    /// `lodash.padStart`.
    pub name: String,
    pub package: String,
    pub version: String,
    /// The module file inside the package, e.g. `padStart.js`.
    pub module: String,
    /// The function declaration in that module whose body is mutated.
    pub function: String,
    /// A JavaScript expression that maps the loaded module to the function called with the
    /// parameters in order, e.g. `m => (s, n, o) => m(s, { length: n, omission: o })`.
    pub call: String,
    pub params: Vec<Param>,
    pub returns: Kind,
    /// The module's text as recorded: mutants are edits of it.
    pub source: String,
    /// Byte range of the function in `source`: mutations stay inside it.
    pub span: (u32, u32),
}

impl Subject {
    /// `string(string, int, string)`, as Table II writes signatures.
    pub fn signature(&self) -> String {
        let ps: Vec<&str> = self.params.iter().map(|p| p.kind.name()).collect();
        format!("{}({})", self.returns.name(), ps.join(","))
    }

    pub fn param_names(&self) -> Vec<String> {
        self.params.iter().map(|p| p.name.clone()).collect()
    }
}

/// Mutants for the search (ours) are never used to measure it (StrykerJS's), as GenMorph keeps
/// Major apart from PIT.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MutantRole {
    Training,
    Evaluation,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MutantRecord {
    pub id: String,
    pub role: MutantRole,
    /// `morphtrace (swc)` or `StrykerJS 9.6.0`.
    pub tool: String,
    /// The operator or mutator, e.g. `arithmetic` or `EqualityOperator`.
    pub operator: String,
    /// 0-based position in the module's source.
    pub line: u32,
    pub column: u32,
    pub original: String,
    pub replacement: String,
}

/// Which implementation of the function ran: the library's own or a mutant of it (the batch's
/// `variants`, a name the archive keeps).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Implementation {
    Original,
    Mutant(MutantRecord),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum InputOrigin {
    /// Coverage-guided generation (EvoSuite's role): seen by the search.
    Source,
    /// Random generation (Randoop's role): never seen by the search; filtering step 1 and the
    /// mutation score.
    Evaluation,
    /// Found by a search for inputs that break a relation (OASIs's role).
    Search,
    /// `transformation` applied to input `source`.
    FollowUp { source: u32, transformation: u32 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputRecord {
    pub origin: InputOrigin,
    pub values: Vec<JsValue>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExecutionBatch {
    pub subject: Subject,
    pub seed: u64,
    /// `node --version` of the harness.
    pub node: String,
    /// §5's constant pool: −1, 1 and the values that stayed the same in every source execution,
    /// with how often each was seen.
    pub constants: Vec<(f64, u32)>,
    pub transformations: Vec<InputTransformation>,
    pub inputs: Vec<InputRecord>,
    /// `variants[0]` is the original.
    pub variants: Vec<Implementation>,
    /// `outcomes[v][i]`: variant `v` called with input `i`.
    pub outcomes: Vec<Vec<Outcome>>,
    /// Blocks of the function covered by the source inputs, of all its blocks (V8 coverage).
    pub coverage: (u32, u32),
    pub elapsed_ms: u64,
}

/// A source input, a transformation and the follow-up it gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    pub source: usize,
    pub follow_up: usize,
    pub transformation: usize,
}

impl ExecutionBatch {
    pub fn original(&self) -> &[Outcome] {
        self.outcomes.first().map(Vec::as_slice).unwrap_or(&[])
    }

    /// Every recorded (source, follow-up) pair whose source has origin `origin`.
    pub fn pairs(&self, origin: InputOrigin) -> Vec<Pair> {
        self.inputs
            .iter()
            .enumerate()
            .filter_map(|(i, r)| match r.origin {
                InputOrigin::FollowUp {
                    source,
                    transformation,
                } if self
                    .inputs
                    .get(source as usize)
                    .is_some_and(|s| s.origin == origin) =>
                {
                    Some(Pair {
                        source: source as usize,
                        follow_up: i,
                        transformation: transformation as usize,
                    })
                }
                _ => None,
            })
            .collect()
    }

    /// Indices of the variants that are mutants of this role.
    pub fn mutants(&self, role: MutantRole) -> Vec<usize> {
        self.variants
            .iter()
            .enumerate()
            .filter_map(|(i, v)| match v {
                Implementation::Mutant(m) if m.role == role => Some(i),
                _ => None,
            })
            .collect()
    }

    /// Checks the batch's shape: one outcome per variant and input, follow-ups that point back.
    pub fn validate(&self) -> Result<(), String> {
        if !matches!(self.variants.first(), Some(Implementation::Original)) {
            return Err("the first variant is not the original".into());
        }
        if self.outcomes.len() != self.variants.len() {
            return Err(format!(
                "{} outcome rows for {} variants",
                self.outcomes.len(),
                self.variants.len()
            ));
        }
        if let Some(v) = self
            .outcomes
            .iter()
            .position(|r| r.len() != self.inputs.len())
        {
            return Err(format!("variant {v} lacks outcomes"));
        }
        for (i, r) in self.inputs.iter().enumerate() {
            if r.values.len() != self.subject.params.len() {
                return Err(format!("input {i} has {} values", r.values.len()));
            }
            if let InputOrigin::FollowUp {
                source,
                transformation,
            } = r.origin
            {
                if source as usize >= i || transformation as usize >= self.transformations.len() {
                    return Err(format!("input {i} is a follow-up of nothing recorded"));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A tiny batch: `pow(k, e)` on two sources, one follow-up each, one mutant.
    pub fn pow_batch() -> ExecutionBatch {
        let n = JsValue::Number;
        let subject = Subject {
            name: "test.pow".into(),
            package: "test".into(),
            version: "0".into(),
            module: "pow.js".into(),
            function: "pow".into(),
            call: "m => m".into(),
            params: vec![
                Param {
                    name: "k".into(),
                    kind: Kind::Int,
                },
                Param {
                    name: "e".into(),
                    kind: Kind::Int,
                },
            ],
            returns: Kind::Int,
            source: "function pow(k, e) { return k ** e; }".into(),
            span: (0, 37),
        };
        let inputs = vec![
            InputRecord {
                origin: InputOrigin::Source,
                values: vec![n(-128.0), n(2.0)],
            },
            InputRecord {
                origin: InputOrigin::FollowUp {
                    source: 0,
                    transformation: 0,
                },
                values: vec![n(-128.0), n(1.0)],
            },
        ];
        let ret = |x: f64| Outcome::Returned(n(x));
        ExecutionBatch {
            subject,
            seed: 1,
            node: "v20".into(),
            constants: vec![(-1.0, 1), (1.0, 1)],
            transformations: vec![InputTransformation::NumericAddition {
                param: 1,
                constant: -1.0,
            }],
            inputs,
            variants: vec![
                Implementation::Original,
                Implementation::Mutant(MutantRecord {
                    id: "m0".into(),
                    role: MutantRole::Training,
                    tool: "morphtrace (swc)".into(),
                    operator: "statement deletion".into(),
                    line: 0,
                    column: 21,
                    original: "k2p *= k2p;".into(),
                    replacement: "".into(),
                }),
            ],
            outcomes: vec![
                vec![ret(16384.0), ret(-128.0)],
                vec![ret(-128.0), ret(-128.0)],
            ],
            coverage: (3, 4),
            elapsed_ms: 5,
        }
    }

    #[test]
    fn pairs_mutants_and_validation() {
        let b = pow_batch();
        b.validate().unwrap();
        assert_eq!(
            b.pairs(InputOrigin::Source),
            vec![Pair {
                source: 0,
                follow_up: 1,
                transformation: 0
            }]
        );
        assert!(b.pairs(InputOrigin::Evaluation).is_empty());
        assert_eq!(b.mutants(MutantRole::Training), vec![1]);
        assert_eq!(b.subject.signature(), "int(int,int)");
        let mut bad = b.clone();
        bad.outcomes[1].pop();
        assert!(bad.validate().is_err());
        let mut bad = b;
        bad.inputs[1].origin = InputOrigin::FollowUp {
            source: 5,
            transformation: 0,
        };
        assert!(bad.validate().is_err());
    }
}
