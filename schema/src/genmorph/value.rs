//! JavaScript values as a function under test receives and returns them, encoded exactly:
//! NaN, ±Infinity and −0 survive (MessagePack keeps every f64 bit). Equality is JavaScript's
//! `Object.is`, element-wise for arrays, so that "the mutant returned the same" means the same.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A parameter's or a result's kind, as the input generators and the GP's type rules need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    Int,
    Number,
    Bool,
    Str,
    IntArray,
    NumberArray,
    BoolArray,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Int,
        Kind::Number,
        Kind::Bool,
        Kind::Str,
        Kind::IntArray,
        Kind::NumberArray,
        Kind::BoolArray,
    ];

    /// Strings and arrays: GenMorph's sequences.
    pub fn is_sequence(self) -> bool {
        matches!(
            self,
            Kind::Str | Kind::IntArray | Kind::NumberArray | Kind::BoolArray
        )
    }

    pub fn is_numeric(self) -> bool {
        matches!(self, Kind::Int | Kind::Number)
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Int => "int",
            Kind::Number => "number",
            Kind::Bool => "bool",
            Kind::Str => "string",
            Kind::IntArray => "int[]",
            Kind::NumberArray => "number[]",
            Kind::BoolArray => "bool[]",
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub kind: Kind,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum JsValue {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<JsValue>),
    /// Anything else (objects, functions, symbols, bigints), by its description.
    Other(String),
}

/// What one call did.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Outcome {
    Returned(JsValue),
    Threw {
        name: String,
        message: String,
    },
    /// No answer within the harness's per-call budget (an infinite loop in a mutant).
    Timeout,
}

/// `Object.is` on numbers: NaN is NaN, 0 is not −0.
pub fn same_number(a: f64, b: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    a == b && a.is_sign_negative() == b.is_sign_negative()
}

impl PartialEq for JsValue {
    fn eq(&self, other: &JsValue) -> bool {
        use JsValue::*;
        match (self, other) {
            (Undefined, Undefined) | (Null, Null) => true,
            (Bool(a), Bool(b)) => a == b,
            (Number(a), Number(b)) => same_number(*a, *b),
            (String(a), String(b)) | (Other(a), Other(b)) => a == b,
            (Array(a), Array(b)) => a == b,
            _ => false,
        }
    }
}

impl PartialEq for Outcome {
    fn eq(&self, other: &Outcome) -> bool {
        match (self, other) {
            (Outcome::Returned(a), Outcome::Returned(b)) => a == b,
            // The message names the fault, the name its kind: both must agree.
            (
                Outcome::Threw { name, message },
                Outcome::Threw {
                    name: n2,
                    message: m2,
                },
            ) => name == n2 && message == m2,
            (Outcome::Timeout, Outcome::Timeout) => true,
            _ => false,
        }
    }
}

/// A number exactly as JavaScript's `String(x)` prints it (ECMAScript Number::toString: the
/// shortest digits that round-trip, which Rust's formatter also finds, laid out by the spec's
/// rules), except that −0 is shown as `-0` (`String(-0)` is `0`; `js_to_string` gives that).
pub fn js_number(x: f64) -> String {
    if x == 0.0 && x.is_sign_negative() {
        return "-0".into();
    }
    js_to_string(x)
}

/// A number as a JavaScript literal that can stand as an operand: `js_number`, negatives
/// (−0 included) in parentheses.
pub fn js_literal(x: f64) -> String {
    let s = js_number(x);
    if s.starts_with('-') {
        format!("({s})")
    } else {
        s
    }
}

/// ECMAScript `Number::toString(x)` in radix 10.
pub fn js_to_string(x: f64) -> String {
    let mut s = String::with_capacity(24);
    write_js_number(x, &mut s);
    s
}

/// A fixed buffer for `{:e}` of an f64 (at most 24 bytes: `1.7976931348623157e308`).
struct Scratch {
    buf: [u8; 32],
    len: usize,
}

impl std::fmt::Write for Scratch {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(std::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Appends `Number::toString(x)` to `out` without allocating on its own: relation search
/// formats numbers millions of times.
pub fn write_js_number(x: f64, out: &mut String) {
    use std::fmt::Write;
    if x.is_nan() {
        out.push_str("NaN");
        return;
    }
    if x == 0.0 {
        out.push('0');
        return;
    }
    if x.is_infinite() {
        out.push_str(if x > 0.0 { "Infinity" } else { "-Infinity" });
        return;
    }
    if x < 0.0 {
        out.push('-');
    }
    // `{:e}` gives the shortest round-trip digits: d.ddde±x.
    let mut e = Scratch {
        buf: [0; 32],
        len: 0,
    };
    if write!(e, "{:e}", x.abs()).is_err() {
        // Unreachable for finite f64; fall back to Rust's form rather than lose the value.
        out.push_str(&x.abs().to_string());
        return;
    }
    let text = std::str::from_utf8(&e.buf[..e.len]).unwrap_or("0e0");
    let (mantissa, exp) = text.split_once('e').unwrap_or((text, "0"));
    let mut digits = [0u8; 24];
    let mut k = 0usize;
    for c in mantissa.bytes().filter(|c| *c != b'.') {
        digits[k] = c;
        k += 1;
    }
    let digits = std::str::from_utf8(&digits[..k]).unwrap_or("0");
    let k = k as i32;
    let n = exp.parse::<i32>().unwrap_or(0) + 1;
    let zeros = |out: &mut String, m: i32| (0..m).for_each(|_| out.push('0'));
    if k <= n && n <= 21 {
        out.push_str(digits);
        zeros(out, n - k);
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        zeros(out, -n);
        out.push_str(digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = n - 1;
        let _ = write!(out, "e{}{e}", if e >= 0 { "+" } else { "" });
    }
}

impl JsValue {
    /// A JavaScript expression that evaluates to this value (for generated tests).
    pub fn to_js(&self) -> String {
        match self {
            JsValue::Undefined => "undefined".into(),
            JsValue::Null => "null".into(),
            JsValue::Bool(b) => b.to_string(),
            JsValue::Number(x) => js_literal(*x),
            JsValue::String(s) => serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()),
            JsValue::Array(a) => {
                let items: Vec<String> = a.iter().map(JsValue::to_js).collect();
                format!("[{}]", items.join(", "))
            }
            JsValue::Other(d) => format!("undefined /* {d} */"),
        }
    }

    pub fn as_number(&self) -> Option<f64> {
        match self {
            JsValue::Number(x) => Some(*x),
            _ => None,
        }
    }

    /// Decodes the harness's tagged JSON: `["n", 1.5]`, `["n", "NaN"]` (also `"-0"`,
    /// `"Infinity"`, `"-Infinity"`), `["s", "..."]`, `["b", true]`, `["a", [...]]`, `["u"]`,
    /// `["l"]`, `["o", "description"]`.
    pub fn from_tagged(j: &serde_json::Value) -> Result<JsValue, String> {
        let a = j
            .as_array()
            .ok_or_else(|| format!("not a tagged value: {j}"))?;
        let tag = a.first().and_then(|t| t.as_str()).unwrap_or("");
        let arg = a.get(1);
        Ok(match (tag, arg) {
            ("u", _) => JsValue::Undefined,
            ("l", _) => JsValue::Null,
            ("b", Some(b)) => JsValue::Bool(b.as_bool().ok_or("bad boolean")?),
            ("n", Some(serde_json::Value::String(s))) => JsValue::Number(match s.as_str() {
                "NaN" => f64::NAN,
                "Infinity" => f64::INFINITY,
                "-Infinity" => f64::NEG_INFINITY,
                "-0" => -0.0,
                other => return Err(format!("bad special number {other:?}")),
            }),
            ("n", Some(n)) => JsValue::Number(n.as_f64().ok_or("bad number")?),
            ("s", Some(s)) => JsValue::String(s.as_str().ok_or("bad string")?.to_string()),
            ("a", Some(items)) => JsValue::Array(
                items
                    .as_array()
                    .ok_or("bad array")?
                    .iter()
                    .map(JsValue::from_tagged)
                    .collect::<Result<_, _>>()?,
            ),
            ("o", Some(d)) => JsValue::Other(d.as_str().unwrap_or("?").to_string()),
            _ => return Err(format!("unknown tagged value {j}")),
        })
    }

    /// The inverse of `from_tagged`.
    pub fn to_tagged(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            JsValue::Undefined => json!(["u"]),
            JsValue::Null => json!(["l"]),
            JsValue::Bool(b) => json!(["b", b]),
            JsValue::Number(x) if x.is_finite() && !(*x == 0.0 && x.is_sign_negative()) => {
                json!(["n", x])
            }
            JsValue::Number(x) => json!(["n", js_number(*x)]),
            JsValue::String(s) => json!(["s", s]),
            JsValue::Array(a) => json!(["a", a.iter().map(JsValue::to_tagged).collect::<Vec<_>>()]),
            JsValue::Other(d) => json!(["o", d]),
        }
    }
}

impl fmt::Display for JsValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsValue::Other(d) => write!(f, "<{d}>"),
            v => write!(f, "{}", v.to_js()),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Returned(v) => write!(f, "{v}"),
            Outcome::Threw { name, message } => write!(f, "throws {name}: {message}"),
            Outcome::Timeout => write!(f, "timeout"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_is_object_is() {
        let n = JsValue::Number;
        assert_eq!(n(f64::NAN), n(f64::NAN));
        assert_ne!(n(0.0), n(-0.0));
        assert_eq!(n(1.5), n(1.5));
        assert_ne!(n(1.0), JsValue::String("1".into()));
        assert_eq!(
            JsValue::Array(vec![n(f64::NAN), JsValue::Null]),
            JsValue::Array(vec![n(f64::NAN), JsValue::Null])
        );
        assert_ne!(
            JsValue::Array(vec![n(1.0)]),
            JsValue::Array(vec![n(1.0), n(1.0)])
        );
    }

    #[test]
    fn tagged_json_round_trips_special_numbers() {
        for x in [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.0,
            0.0,
            0.1,
            -3.0,
            1e300,
        ] {
            let v = JsValue::Number(x);
            let back = JsValue::from_tagged(&v.to_tagged()).unwrap();
            assert_eq!(v, back, "{x}");
        }
        let v = JsValue::Array(vec![
            JsValue::String("a\"b".into()),
            JsValue::Bool(true),
            JsValue::Undefined,
        ]);
        assert_eq!(JsValue::from_tagged(&v.to_tagged()).unwrap(), v);
        assert!(JsValue::from_tagged(&serde_json::json!(["n", "oops"])).is_err());
        assert!(JsValue::from_tagged(&serde_json::json!({"x": 1})).is_err());
    }

    #[test]
    fn messagepack_keeps_every_bit() {
        let v = JsValue::Array(vec![JsValue::Number(-0.0), JsValue::Number(f64::NAN)]);
        let bytes = rmp_serde::to_vec(&v).unwrap();
        let back: JsValue = rmp_serde::from_slice(&bytes).unwrap();
        assert_eq!(v, back);
    }

    #[test]
    fn javascript_literals() {
        assert_eq!(JsValue::Number(-0.0).to_js(), "(-0)");
        assert_eq!(JsValue::Number(3.0).to_js(), "3");
        assert_eq!(JsValue::Number(0.1).to_js(), "0.1");
        assert_eq!(JsValue::Number(f64::NAN).to_js(), "NaN");
        assert_eq!(JsValue::String("é\n".into()).to_js(), "\"é\\n\"");
    }

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        for (x, js) in [
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123.456, "123.456"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (-2.5, "-2.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (-0.0, "0"),
            (4294967296.0, "4294967296"),
        ] {
            assert_eq!(js_to_string(x), js, "{x:e}");
        }
        assert_eq!(js_number(-0.0), "-0");
    }
}
