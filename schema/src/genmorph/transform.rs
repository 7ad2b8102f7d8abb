//! GenMorph's six input-transformation templates (§5) and their canonical input relations: given
//! the source inputs, exactly one follow-up satisfies the relation, the one `apply` returns.

use super::value::{js_literal, js_number, JsValue, Kind, Param};
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum InputTransformation {
    /// Swaps two parameters of the same kind.
    PermuteParameters {
        a: usize,
        b: usize,
    },
    BooleanFlip {
        param: usize,
    },
    NumericAddition {
        param: usize,
        constant: f64,
    },
    NumericMultiplication {
        param: usize,
        constant: f64,
    },
    /// Removes one element; a negative index counts from the end (Python's way); out of bounds
    /// leaves the sequence as it is.
    SequenceRemove {
        param: usize,
        index: i64,
    },
    SequenceFlip {
        param: usize,
    },
}

/// Strings are sequences of UTF-16 code units, as JavaScript indexes them.
fn units(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

fn remove_at<T>(mut v: Vec<T>, index: i64) -> Vec<T> {
    let n = v.len() as i64;
    let i = if index < 0 { n + index } else { index };
    if (0..n).contains(&i) {
        v.remove(i as usize);
    }
    v
}

impl InputTransformation {
    pub fn template(&self) -> &'static str {
        match self {
            InputTransformation::PermuteParameters { .. } => "PermuteParameters",
            InputTransformation::BooleanFlip { .. } => "BooleanFlip",
            InputTransformation::NumericAddition { .. } => "NumericAddition",
            InputTransformation::NumericMultiplication { .. } => "NumericMultiplication",
            InputTransformation::SequenceRemove { .. } => "SequenceRemove",
            InputTransformation::SequenceFlip { .. } => "SequenceFlip",
        }
    }

    /// Whether the template applies to these parameters (same kinds to permute, a numeric
    /// parameter to add to, ...). An integer parameter only takes integer constants, so that
    /// follow-ups stay in the function's domain.
    pub fn applies_to(&self, params: &[Param]) -> bool {
        let kind = |i: usize| params.get(i).map(|p| p.kind);
        match *self {
            InputTransformation::PermuteParameters { a, b } => {
                a != b && kind(a).is_some() && kind(a) == kind(b)
            }
            InputTransformation::BooleanFlip { param } => kind(param) == Some(Kind::Bool),
            InputTransformation::NumericAddition { param, constant }
            | InputTransformation::NumericMultiplication { param, constant } => match kind(param) {
                Some(Kind::Int) => constant.fract() == 0.0 && constant.is_finite(),
                Some(Kind::Number) => constant.is_finite(),
                _ => false,
            },
            InputTransformation::SequenceRemove { param, .. }
            | InputTransformation::SequenceFlip { param } => {
                kind(param).is_some_and(Kind::is_sequence)
            }
        }
    }

    /// The follow-up inputs of these source inputs; None when a value has not the expected shape.
    pub fn apply(&self, source: &[JsValue]) -> Option<Vec<JsValue>> {
        let mut out = source.to_vec();
        match *self {
            InputTransformation::PermuteParameters { a, b } => {
                if a >= out.len() || b >= out.len() {
                    return None;
                }
                out.swap(a, b);
            }
            InputTransformation::BooleanFlip { param } => match out.get_mut(param)? {
                JsValue::Bool(b) => *b = !*b,
                _ => return None,
            },
            InputTransformation::NumericAddition { param, constant } => match out.get_mut(param)? {
                JsValue::Number(x) => *x += constant,
                _ => return None,
            },
            InputTransformation::NumericMultiplication { param, constant } => {
                match out.get_mut(param)? {
                    JsValue::Number(x) => *x *= constant,
                    _ => return None,
                }
            }
            InputTransformation::SequenceRemove { param, index } => {
                let v = out.get_mut(param)?;
                *v = match std::mem::replace(v, JsValue::Undefined) {
                    JsValue::String(s) => {
                        JsValue::String(String::from_utf16_lossy(&remove_at(units(&s), index)))
                    }
                    JsValue::Array(a) => JsValue::Array(remove_at(a, index)),
                    _ => return None,
                };
            }
            InputTransformation::SequenceFlip { param } => {
                let v = out.get_mut(param)?;
                *v = match std::mem::replace(v, JsValue::Undefined) {
                    JsValue::String(s) => {
                        let mut u = units(&s);
                        u.reverse();
                        JsValue::String(String::from_utf16_lossy(&u))
                    }
                    JsValue::Array(mut a) => {
                        a.reverse();
                        JsValue::Array(a)
                    }
                    _ => return None,
                };
            }
        }
        Some(out)
    }

    /// The canonical input relation: the follow-up is exactly the transformed source.
    pub fn holds(&self, source: &[JsValue], follow_up: &[JsValue]) -> bool {
        self.apply(source).is_some_and(|f| f == follow_up)
    }

    /// The source-side expression each follow-up parameter equals, over `<name>_s`.
    fn follow_up_exprs(&self, names: &[String], js: bool) -> Vec<String> {
        let src = |i: usize| format!("{}_s", names[i]);
        (0..names.len())
            .map(|i| match *self {
                InputTransformation::PermuteParameters { a, b } if i == a => src(b),
                InputTransformation::PermuteParameters { a, b } if i == b => src(a),
                InputTransformation::BooleanFlip { param } if i == param => format!("!{}", src(i)),
                InputTransformation::NumericAddition { param, constant } if i == param => {
                    format!("{} + {}", src(i), js_literal(constant))
                }
                InputTransformation::NumericMultiplication { param, constant } if i == param => {
                    format!("{} * {}", src(i), js_literal(constant))
                }
                InputTransformation::SequenceRemove { param, index } if i == param => {
                    if js {
                        format!("__mt.remove({}, {index})", src(i))
                    } else {
                        format!("remove({}, {index})", src(i))
                    }
                }
                InputTransformation::SequenceFlip { param } if i == param => {
                    if js {
                        format!("__mt.flip({})", src(i))
                    } else {
                        format!("flip({})", src(i))
                    }
                }
                _ => src(i),
            })
            .collect()
    }

    /// `(k_f = k_s) ∧ (e_f = e_s + -1)` for people.
    pub fn describe(&self, names: &[String]) -> String {
        self.follow_up_exprs(names, false)
            .iter()
            .enumerate()
            .map(|(i, e)| format!("({}_f = {e})", names[i]))
            .collect::<Vec<_>>()
            .join(" ∧ ")
    }

    /// The same relation as a JavaScript condition; `__mt.same` is `Object.is`, element-wise
    /// on arrays (the generated tests define it).
    pub fn js_condition(&self, names: &[String]) -> String {
        self.follow_up_exprs(names, true)
            .iter()
            .enumerate()
            .map(|(i, e)| format!("__mt.same({}_f, {e})", names[i]))
            .collect::<Vec<_>>()
            .join(" && ")
    }

    /// Every instantiation of the templates for these parameters, with the constant pool (§5:
    /// −1, 1 and the constants the function's own executions show). Numeric constants that make
    /// no change (adding 0, multiplying by 1) are left out.
    pub fn instantiations(params: &[Param], pool: &[f64]) -> Vec<InputTransformation> {
        let mut out = Vec::new();
        for a in 0..params.len() {
            for b in a + 1..params.len() {
                out.push(InputTransformation::PermuteParameters { a, b });
            }
        }
        for param in 0..params.len() {
            out.push(InputTransformation::BooleanFlip { param });
            out.push(InputTransformation::SequenceFlip { param });
            let mut seen: Vec<f64> = Vec::new();
            for &c in pool {
                if seen.contains(&c) {
                    continue;
                }
                seen.push(c);
                if c != 0.0 {
                    out.push(InputTransformation::NumericAddition { param, constant: c });
                }
                if c != 1.0 && c != 0.0 {
                    out.push(InputTransformation::NumericMultiplication { param, constant: c });
                }
                if c.fract() == 0.0 && c.abs() <= 16.0 {
                    out.push(InputTransformation::SequenceRemove {
                        param,
                        index: c as i64,
                    });
                }
            }
            out.push(InputTransformation::SequenceRemove { param, index: 0 });
        }
        let mut unique: Vec<InputTransformation> = Vec::new();
        for t in out {
            if t.applies_to(params) && !unique.contains(&t) {
                unique.push(t);
            }
        }
        unique
    }
}

impl fmt::Display for InputTransformation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            InputTransformation::PermuteParameters { a, b } => {
                write!(f, "PermuteParameters({a}, {b})")
            }
            InputTransformation::BooleanFlip { param } => write!(f, "BooleanFlip({param})"),
            InputTransformation::NumericAddition { param, constant } => {
                write!(f, "NumericAddition({param}, {})", js_number(constant))
            }
            InputTransformation::NumericMultiplication { param, constant } => {
                write!(f, "NumericMultiplication({param}, {})", js_number(constant))
            }
            InputTransformation::SequenceRemove { param, index } => {
                write!(f, "SequenceRemove({param}, {index})")
            }
            InputTransformation::SequenceFlip { param } => write!(f, "SequenceFlip({param})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use JsValue::{Array, Bool, Number, String as Str};

    fn params(kinds: &[Kind]) -> Vec<Param> {
        kinds
            .iter()
            .enumerate()
            .map(|(i, k)| Param {
                name: ["k", "e", "s"][i].to_string(),
                kind: *k,
            })
            .collect()
    }

    fn names(p: &[Param]) -> Vec<String> {
        p.iter().map(|p| p.name.clone()).collect()
    }

    #[test]
    fn permute_parameters() {
        let t = InputTransformation::PermuteParameters { a: 0, b: 1 };
        let p = params(&[Kind::Int, Kind::Int]);
        assert!(t.applies_to(&p));
        assert!(!t.applies_to(&params(&[Kind::Int, Kind::Str])));
        let f = t.apply(&[Number(2.0), Number(5.0)]).unwrap();
        assert_eq!(f, vec![Number(5.0), Number(2.0)]);
        assert!(t.holds(&[Number(2.0), Number(5.0)], &f));
        assert_eq!(t.describe(&names(&p)), "(k_f = e_s) ∧ (e_f = k_s)");
    }

    #[test]
    fn boolean_flip() {
        let t = InputTransformation::BooleanFlip { param: 1 };
        assert!(t.applies_to(&params(&[Kind::Str, Kind::Bool])));
        assert!(!t.applies_to(&params(&[Kind::Str, Kind::Int])));
        let f = t.apply(&[Str("a".into()), Bool(true)]).unwrap();
        assert_eq!(f[1], Bool(false));
        assert!(t.apply(&[Str("a".into()), Number(1.0)]).is_none());
    }

    #[test]
    fn numeric_addition_and_multiplication() {
        let add = InputTransformation::NumericAddition {
            param: 1,
            constant: -1.0,
        };
        let p = params(&[Kind::Int, Kind::Int]);
        assert!(add.applies_to(&p));
        let f = add.apply(&[Number(-128.0), Number(2.0)]).unwrap();
        assert_eq!(f, vec![Number(-128.0), Number(1.0)]);
        assert_eq!(add.describe(&names(&p)), "(k_f = k_s) ∧ (e_f = e_s + (-1))");
        assert_eq!(
            add.js_condition(&names(&p)),
            "__mt.same(k_f, k_s) && __mt.same(e_f, e_s + (-1))"
        );
        let half = InputTransformation::NumericMultiplication {
            param: 0,
            constant: 0.5,
        };
        assert!(!half.applies_to(&p), "integers take integer constants only");
        assert!(half.applies_to(&params(&[Kind::Number])));
        let f = half.apply(&[Number(f64::INFINITY)]).unwrap();
        assert_eq!(f, vec![Number(f64::INFINITY)]);
        // NaN stays NaN, and the relation still holds by Object.is.
        assert!(half.holds(&[Number(f64::NAN)], &[Number(f64::NAN)]));
    }

    #[test]
    fn sequence_remove_python_indices() {
        let p = params(&[Kind::IntArray]);
        let arr = |v: &[f64]| Array(v.iter().map(|x| Number(*x)).collect());
        let rm = |index| InputTransformation::SequenceRemove { param: 0, index };
        assert!(rm(0).applies_to(&p));
        assert_eq!(
            rm(0).apply(&[arr(&[1.0, 2.0, 3.0])]).unwrap()[0],
            arr(&[2.0, 3.0])
        );
        assert_eq!(
            rm(-1).apply(&[arr(&[1.0, 2.0, 3.0])]).unwrap()[0],
            arr(&[1.0, 2.0])
        );
        assert_eq!(
            rm(5).apply(&[arr(&[1.0])]).unwrap()[0],
            arr(&[1.0]),
            "out of bounds: no-op"
        );
        assert_eq!(rm(-2).apply(&[arr(&[])]).unwrap()[0], arr(&[]));
        assert_eq!(
            rm(1).apply(&[Str("héllo".into())]).unwrap()[0],
            Str("hllo".into())
        );
        assert!(!rm(0).applies_to(&params(&[Kind::Int])));
    }

    #[test]
    fn sequence_flip() {
        let t = InputTransformation::SequenceFlip { param: 0 };
        assert_eq!(t.apply(&[Str("abc".into())]).unwrap()[0], Str("cba".into()));
        assert_eq!(
            t.apply(&[Array(vec![Bool(true), Number(1.0)])]).unwrap()[0],
            Array(vec![Number(1.0), Bool(true)])
        );
        assert_eq!(t.describe(&["s".to_string()]), "(s_f = flip(s_s))");
    }

    #[test]
    fn instantiations_follow_kinds_and_pool() {
        let p = params(&[Kind::Int, Kind::Int]);
        let all = InputTransformation::instantiations(&p, &[-1.0, 1.0, 2.0, 0.5, 0.0]);
        assert!(all.contains(&InputTransformation::PermuteParameters { a: 0, b: 1 }));
        assert!(all.contains(&InputTransformation::NumericAddition {
            param: 1,
            constant: -1.0
        }));
        assert!(all.contains(&InputTransformation::NumericMultiplication {
            param: 0,
            constant: 2.0
        }));
        assert!(!all.iter().any(|t| matches!(t, InputTransformation::NumericMultiplication { constant, .. } if *constant == 1.0 || *constant == 0.5)));
        assert!(!all
            .iter()
            .any(|t| t.template() == "SequenceFlip" || t.template() == "BooleanFlip"));
        let s = params(&[Kind::Str, Kind::Int]);
        let all = InputTransformation::instantiations(&s, &[-1.0, 1.0]);
        assert!(all.contains(&InputTransformation::SequenceFlip { param: 0 }));
        assert!(all.contains(&InputTransformation::SequenceRemove {
            param: 0,
            index: -1
        }));
        assert!(!all.iter().any(|t| t.template() == "PermuteParameters"));
    }
}
