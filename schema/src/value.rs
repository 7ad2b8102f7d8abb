//! Values of variables as a bounded tree, with exact primitives.

use serde::{Deserialize, Serialize};
use std::fmt;

/// What kind of object an `Object` value is; drives how its entries are read.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ObjectKind {
    Object,
    Array,
    Map,
    Set,
    Function,
    Error,
    Date,
    RegExp,
    Promise,
    Proxy,
    TypedArray,
    WeakMap,
    WeakSet,
    Generator,
    Other(String),
}

/// The key of an object entry: a property name, an array index, or (for `Map`) a value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Key {
    Name(String),
    Index(u64),
    Value(Value),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub key: Key,
    pub value: Value,
}

/// A JavaScript (or C) value as shown by a debugger, normalized.
///
/// Numbers are stored as `f64` bit-exactly, so NaN, -0 and ±Infinity survive the archive.
/// Objects are expanded to a depth limit; `entries: None` means "not expanded" (limit reached),
/// `truncated: true` means "expanded, but more entries exist than were recorded".
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Value {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    /// Decimal digits with an optional sign, without the `n` suffix.
    BigInt(String),
    String(String),
    /// The symbol's description.
    Symbol(String),
    /// A `let`/`const`/`class` binding in its temporal dead zone.
    Uninitialized,
    /// The engine says the value was optimized away.
    OptimizedOut,
    /// The engine gave no value and no reason.
    Unavailable,
    Object {
        kind: ObjectKind,
        /// Constructor or class name as reported (`Object`, `Array`, `Point`, ...).
        class: String,
        /// The engine's one-line description (`Array(3)`, `function f(a)`), when it gives one.
        description: Option<String>,
        entries: Option<Vec<Entry>>,
        truncated: bool,
    },
}

impl Value {
    /// The type name used in tables (`number`, `object`, `uninitialized`, ...).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Undefined => "undefined",
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::BigInt(_) => "bigint",
            Value::String(_) => "string",
            Value::Symbol(_) => "symbol",
            Value::Uninitialized => "uninitialized",
            Value::OptimizedOut => "optimized-out",
            Value::Unavailable => "unavailable",
            Value::Object {
                kind: ObjectKind::Function,
                ..
            } => "function",
            Value::Object { .. } => "object",
        }
    }

    /// Exact equality: numbers compare by bits (NaN equals NaN, -0 differs from +0).
    pub fn same(&self, other: &Value) -> bool {
        self == other
    }

    /// Where two unequal values first differ: a path below the value (`[3].x`, empty for the
    /// value itself) and the two sub-values there, so that a divergence names the one element
    /// that differs instead of printing two large arrays.
    pub fn first_difference<'a>(
        &'a self,
        other: &'a Value,
    ) -> Option<(String, &'a Value, &'a Value)> {
        self.first_difference_under(other, true)
    }

    /// Equality, exact but for objects' class names and descriptions when `shells` is false.
    /// An error's description is never compared: engines put the stack there, each in its own
    /// words and paths (V8 `TypeError: m\n    at f (file:…)`, SpiderMonkey none).
    pub fn equal_under(&self, other: &Value, shells: bool) -> bool {
        if let (
            Value::Object {
                kind: ObjectKind::Error,
                class: c1,
                ..
            },
            Value::Object {
                kind: ObjectKind::Error,
                class: c2,
                ..
            },
        ) = (self, other)
        {
            if shells && c1 != c2 {
                return false;
            }
            return self.entries_equal(other);
        }
        if shells {
            return self == other;
        }
        self.entries_equal(other)
    }

    /// Objects by kind and entries (their entries without shells), anything else exactly.
    fn entries_equal(&self, other: &Value) -> bool {
        match (self, other) {
            (
                Value::Object {
                    kind: k1,
                    entries: e1,
                    truncated: t1,
                    ..
                },
                Value::Object {
                    kind: k2,
                    entries: e2,
                    truncated: t2,
                    ..
                },
            ) => {
                k1 == k2
                    && t1 == t2
                    && match (e1, e2) {
                        (Some(a), Some(b)) => {
                            a.len() == b.len()
                                && a.iter().zip(b).all(|(x, y)| {
                                    x.key == y.key && x.value.equal_under(&y.value, false)
                                })
                        }
                        (None, None) => true,
                        _ => false,
                    }
            }
            _ => self == other,
        }
    }

    /// [`Value::first_difference`] under [`Value::equal_under`].
    pub fn first_difference_under<'a>(
        &'a self,
        other: &'a Value,
        shells: bool,
    ) -> Option<(String, &'a Value, &'a Value)> {
        if self.equal_under(other, shells) {
            return None;
        }
        if let (
            Value::Object {
                kind: k1,
                entries: Some(e1),
                ..
            },
            Value::Object {
                kind: k2,
                entries: Some(e2),
                ..
            },
        ) = (self, other)
        {
            // Entries of the same kind compare whatever the classes are called, so that a class
            // named otherwise (Firefox's grips call every instance `Object`) does not hide a
            // difference in what the object holds.
            if k1 == k2 {
                for (x, y) in e1.iter().zip(e2) {
                    if x.key != y.key {
                        break;
                    }
                    if let Some((p, a, b)) = x.value.first_difference_under(&y.value, shells) {
                        return Some((format!("{}{p}", x.key.path_step()), a, b));
                    }
                }
                // Shared entries equal, counts or truncation not: the objects themselves differ.
            }
        }
        Some((String::new(), self, other))
    }

    /// What differs between two objects besides their entries, in words (`description
    /// "Set(1)" vs None`); empty if nothing does or they are not both objects.
    pub fn shell_difference(&self, other: &Value) -> String {
        let (
            Value::Object {
                kind: k1,
                class: c1,
                description: d1,
                truncated: t1,
                entries: e1,
            },
            Value::Object {
                kind: k2,
                class: c2,
                description: d2,
                truncated: t2,
                entries: e2,
            },
        ) = (self, other)
        else {
            return String::new();
        };
        let mut out = Vec::new();
        if k1 != k2 {
            out.push(format!("kind {k1:?} vs {k2:?}"));
        }
        if c1 != c2 {
            out.push(format!("class {c1:?} vs {c2:?}"));
        }
        if d1 != d2 {
            out.push(format!("description {d1:?} vs {d2:?}"));
        }
        if t1 != t2 {
            out.push(format!("truncated {t1} vs {t2}"));
        }
        let n = |e: &Option<Vec<Entry>>| e.as_ref().map(Vec::len);
        if n(e1) != n(e2) {
            out.push(format!("entries {:?} vs {:?}", n(e1), n(e2)));
        }
        out.join(", ")
    }
}

impl Key {
    /// How this key extends a path: `[3]`, `.name`, `{key}`.
    pub fn path_step(&self) -> String {
        match self {
            Key::Index(i) => format!("[{i}]"),
            Key::Name(n) => format!(".{n}"),
            Key::Value(v) => format!("{{{v}}}"),
        }
    }
}

/// Equality is exact: it is what a debugger test must compare. `0.0 != -0.0`, `NaN == NaN`.
impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        use Value::*;
        match (self, other) {
            (Undefined, Undefined)
            | (Null, Null)
            | (Uninitialized, Uninitialized)
            | (OptimizedOut, OptimizedOut)
            | (Unavailable, Unavailable) => true,
            (Bool(a), Bool(b)) => a == b,
            (Number(a), Number(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
            (BigInt(a), BigInt(b)) | (String(a), String(b)) | (Symbol(a), Symbol(b)) => a == b,
            (
                Object {
                    kind: k1,
                    class: c1,
                    description: d1,
                    entries: e1,
                    truncated: t1,
                },
                Object {
                    kind: k2,
                    class: c2,
                    description: d2,
                    entries: e2,
                    truncated: t2,
                },
            ) => k1 == k2 && c1 == c2 && d1 == d2 && e1 == e2 && t1 == t2,
            _ => false,
        }
    }
}

/// Renders a value the way JavaScript source would write it (objects abbreviated).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Undefined => f.write_str("undefined"),
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Number(n) => {
                if n.is_nan() {
                    f.write_str("NaN")
                } else if n.is_infinite() {
                    f.write_str(if *n > 0.0 { "Infinity" } else { "-Infinity" })
                } else if *n == 0.0 && n.is_sign_negative() {
                    f.write_str("-0")
                } else {
                    write!(f, "{n}")
                }
            }
            Value::BigInt(s) => write!(f, "{s}n"),
            Value::String(s) => write!(f, "{s:?}"),
            Value::Symbol(s) => write!(f, "Symbol({s})"),
            Value::Uninitialized => f.write_str("<uninitialized>"),
            Value::OptimizedOut => f.write_str("<optimized out>"),
            Value::Unavailable => f.write_str("<unavailable>"),
            Value::Object {
                class,
                description,
                entries,
                truncated,
                ..
            } => {
                let Some(entries) = entries else {
                    return f.write_str(description.as_deref().unwrap_or(class));
                };
                write!(f, "{class} {{")?;
                for (i, e) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    match &e.key {
                        Key::Name(n) => write!(f, " {n}: {}", e.value)?,
                        Key::Index(i) => write!(f, " [{i}]: {}", e.value)?,
                        Key::Value(k) => write!(f, " {k} => {}", e.value)?,
                    }
                }
                if *truncated {
                    f.write_str(", …")?;
                }
                f.write_str(" }")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(class: &str, description: &str) -> Value {
        Value::Object {
            kind: ObjectKind::Error,
            class: class.into(),
            description: Some(description.into()),
            entries: Some(vec![]),
            truncated: false,
        }
    }

    /// An error's description (where engines put the stack) never counts; its class does
    /// when shells count, and its entries always.
    #[test]
    fn errors_compare_without_their_descriptions() {
        let v8 = error(
            "ReferenceError",
            "ReferenceError: x is not defined\n    at f (file:///a.js:2:3)",
        );
        let sm = error("ReferenceError", "ReferenceError: x is not defined");
        assert!(v8.equal_under(&sm, true) && v8.equal_under(&sm, false));
        let other = error("TypeError", "TypeError: x is not defined");
        assert!(!v8.equal_under(&other, true));
        assert!(v8.equal_under(&other, false));
        let with_entry = Value::Object {
            kind: ObjectKind::Error,
            class: "ReferenceError".into(),
            description: None,
            entries: Some(vec![Entry {
                key: Key::Name("code".into()),
                value: Value::Number(1.0),
            }]),
            truncated: false,
        };
        assert!(!v8.equal_under(&with_entry, true));
        // Anything else keeps its description when shells count.
        let a = Value::Object {
            kind: ObjectKind::Function,
            class: "Function".into(),
            description: Some("function f(a)".into()),
            entries: None,
            truncated: false,
        };
        let b = Value::Object {
            kind: ObjectKind::Function,
            class: "Function".into(),
            description: Some("function f(b)".into()),
            entries: None,
            truncated: false,
        };
        assert!(!a.equal_under(&b, true) && a.equal_under(&b, false));
    }

    #[test]
    fn numbers_compare_exactly() {
        assert_eq!(Value::Number(f64::NAN), Value::Number(f64::NAN));
        assert_ne!(Value::Number(0.0), Value::Number(-0.0));
        assert_eq!(Value::Number(-0.0).to_string(), "-0");
        assert_eq!(Value::Number(f64::NEG_INFINITY).to_string(), "-Infinity");
    }

    fn array(items: &[f64]) -> Value {
        Value::Object {
            kind: ObjectKind::Array,
            class: "Array".into(),
            description: Some(format!("Array({})", items.len())),
            entries: Some(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, n)| Entry {
                        key: Key::Index(i as u64),
                        value: Value::Number(*n),
                    })
                    .collect(),
            ),
            truncated: false,
        }
    }

    #[test]
    fn first_difference_names_the_element() {
        let a = array(&[1.0, 2.0, 3.0]);
        let b = array(&[1.0, 2.5, 3.0]);
        let (path, x, y) = a.first_difference(&b).unwrap();
        assert_eq!(path, "[1]");
        assert_eq!((x.to_string(), y.to_string()), ("2".into(), "2.5".into()));
        assert!(a.first_difference(&a.clone()).is_none());
        // Different lengths: the arrays themselves differ.
        let c = array(&[1.0, 2.0]);
        assert_eq!(a.first_difference(&c).unwrap().0, "");
        assert_eq!(
            Value::Number(0.0)
                .first_difference(&Value::Number(-0.0))
                .unwrap()
                .0,
            ""
        );
        // Without shells, class names and descriptions do not count; entries still do.
        let mut renamed = a.clone();
        if let Value::Object {
            class, description, ..
        } = &mut renamed
        {
            *class = "Object".into();
            *description = None;
        }
        assert!(!a.equal_under(&renamed, true));
        assert!(a.equal_under(&renamed, false));
        assert!(a.first_difference_under(&renamed, false).is_none());
        assert_eq!(b.first_difference_under(&renamed, false).unwrap().0, "[1]");
        // With shells, the class alone differs: the object itself; an entry too: that entry.
        assert_eq!(a.first_difference_under(&renamed, true).unwrap().0, "");
        assert_eq!(b.first_difference_under(&renamed, true).unwrap().0, "[1]");
    }

    #[test]
    fn display_abbreviates_objects() {
        let v = Value::Object {
            kind: ObjectKind::Array,
            class: "Array".into(),
            description: Some("Array(2)".into()),
            entries: Some(vec![Entry {
                key: Key::Index(0),
                value: Value::BigInt("-12".into()),
            }]),
            truncated: true,
        };
        assert_eq!(v.to_string(), "Array { [0]: -12n, … }");
        assert_eq!(v.type_name(), "object");
    }
}
