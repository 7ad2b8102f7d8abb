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

/// The entry under which a function records the line its definition begins on.
pub const FUNCTION_LINE: &str = "[[line]]";

/// The entries of two objects of kind `kind` that compare: all, but a function's defining line
/// only where both have one.
fn comparable_entries<'a>(
    kind: &ObjectKind,
    a: &'a [Entry],
    b: &'a [Entry],
) -> (Vec<&'a Entry>, Vec<&'a Entry>) {
    let is_line = |e: &Entry| matches!(&e.key, Key::Name(k) if k == FUNCTION_LINE);
    let both = *kind != ObjectKind::Function || (a.iter().any(is_line) && b.iter().any(is_line));
    let keep = |v: &'a [Entry]| v.iter().filter(|e| both || !is_line(e)).collect();
    (keep(a), keep(b))
}

impl Value {
    /// An error's message as its engine shows it: the first line of the error's description
    /// after `Name: ` (V8, SpiderMonkey and JavaScriptCore describe an error so, and debugpy and
    /// pdb an exception an evaluation raised), empty where that line is the name alone. `None`
    /// for anything else: not an error, no description, or one of another shape (a stack
    /// alone, a Python exception's repr), where no message can be read.
    pub fn error_message(&self) -> Option<&str> {
        let Value::Object {
            kind: ObjectKind::Error,
            description: Some(d),
            ..
        } = self
        else {
            return None;
        };
        let line = d.lines().next().unwrap_or("");
        let is_name = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.')
        };
        match line.split_once(": ") {
            Some((name, message)) if is_name(name) => Some(message),
            _ if is_name(line) => Some(""),
            _ => None,
        }
    }

    /// Two errors' messages where both can be read and they differ.
    pub fn messages_apart<'a>(&'a self, other: &'a Value) -> Option<(&'a str, &'a str)> {
        match (self.error_message(), other.error_message()) {
            (Some(a), Some(b)) if a != b => Some((a, b)),
            _ => None,
        }
    }

    /// A function's entries as every JavaScript adapter records them where the value is
    /// expanded (issue 66: any function equalled any other): its `name`, the own data property
    /// the program reads (ECMAScript's SetFunctionName gives every engine the same), and the
    /// 1-based line of the program its code begins on (`FUNCTION_LINE`; a class's is its own
    /// constructor's where it has one, in V8, SpiderMonkey and JavaScriptCore alike, and only
    /// V8 and SpiderMonkey give a class without one its own line); each left out
    /// where the engine has none (a built-in, a function of another script, a `name` a static
    /// method or accessor took over).
    pub fn function_entries(name: Option<String>, line: Option<u32>) -> Vec<Entry> {
        let name = name.map(|n| Entry {
            key: Key::Name("name".into()),
            value: Value::String(n),
        });
        let line = line.map(|l| Entry {
            key: Key::Name(FUNCTION_LINE.into()),
            value: Value::Number(f64::from(l)),
        });
        name.into_iter().chain(line).collect()
    }

    /// Moves the defining lines of the functions in this value (`FUNCTION_LINE`, 1-based) by
    /// `to`, which takes a 0-based line of one program to the other's; a line `to` has no
    /// counterpart for (inserted) is left out. The metamorphic relations compare a follow-up's
    /// values with its parent's this way, as they do its pauses' places.
    pub fn map_function_lines(&mut self, to: &impl Fn(u32) -> Option<u32>) {
        let Value::Object { kind, entries, .. } = self else {
            return;
        };
        let Some(entries) = entries else { return };
        if *kind == ObjectKind::Function {
            entries.retain_mut(|e| {
                let (Key::Name(k), Value::Number(n)) = (&e.key, &mut e.value) else {
                    return true;
                };
                if k != FUNCTION_LINE || *n < 1.0 {
                    return true;
                }
                match to(*n as u32 - 1) {
                    Some(l) => {
                        *n = f64::from(l + 1);
                        true
                    }
                    None => false,
                }
            });
        }
        for e in entries {
            e.value.map_function_lines(to);
            if let Key::Value(k) = &mut e.key {
                k.map_function_lines(to);
            }
        }
    }

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
    /// words and paths (V8 `TypeError: m\n    at f (file:…)`, SpiderMonkey none); its message
    /// is, where both sides' can be read (`error_message`: what the program reads). A function's
    /// defining line compares where both engines say one (JavaScriptCore has none for a class
    /// without a constructor of its own).
    pub fn equal_under(&self, other: &Value, shells: bool) -> bool {
        self.equal_as(other, shells, true)
    }

    /// [`Value::equal_under`], errors' messages compared only where `messages` is true.
    pub fn equal_as(&self, other: &Value, shells: bool, messages: bool) -> bool {
        match (self, other) {
            (
                Value::Object {
                    kind: k1,
                    class: c1,
                    description: d1,
                    entries: e1,
                    truncated: t1,
                },
                Value::Object {
                    kind: k2,
                    class: c2,
                    description: d2,
                    entries: e2,
                    truncated: t2,
                },
            ) => {
                let errors = *k1 == ObjectKind::Error && *k2 == ObjectKind::Error;
                if shells && (c1 != c2 || (!errors && d1 != d2)) {
                    return false;
                }
                if errors && messages && self.messages_apart(other).is_some() {
                    return false;
                }
                k1 == k2
                    && t1 == t2
                    && match (e1, e2) {
                        (Some(a), Some(b)) => {
                            let (a, b) = comparable_entries(k1, a, b);
                            a.len() == b.len()
                                && a.iter().zip(&b).all(|(x, y)| {
                                    x.key == y.key && x.value.equal_as(&y.value, shells, messages)
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
        self.first_difference_as(other, shells, true)
    }

    /// [`Value::first_difference_under`] under [`Value::equal_as`].
    pub fn first_difference_as<'a>(
        &'a self,
        other: &'a Value,
        shells: bool,
        messages: bool,
    ) -> Option<(String, &'a Value, &'a Value)> {
        if self.equal_as(other, shells, messages) {
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
                let (e1, e2) = comparable_entries(k1, e1, e2);
                for (x, y) in e1.into_iter().zip(e2) {
                    if x.key != y.key {
                        break;
                    }
                    if let Some((p, a, b)) = x.value.first_difference_as(&y.value, shells, messages)
                    {
                        return Some((format!("{}{p}", x.key.path_step()), a, b));
                    }
                }
                // Shared entries equal, counts or truncation not: the objects themselves differ.
            }
        }
        Some((String::new(), self, other))
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

    /// Issue 66: functions compare by name, and by defining line where both sides say one; a
    /// metamorphic follow-up's lines map back to the parent's (a line with none is left out).
    #[test]
    fn functions_compare_by_name_and_the_lines_both_give() {
        let f = |name: &str, line: Option<u32>| Value::Object {
            kind: ObjectKind::Function,
            class: "Function".into(),
            description: None,
            entries: Some(Value::function_entries(Some(name.into()), line)),
            truncated: false,
        };
        assert!(f("a", Some(3)).equal_under(&f("a", Some(3)), true));
        assert!(f("a", Some(3)).equal_under(&f("a", None), true));
        assert!(!f("a", Some(3)).equal_under(&f("a", Some(4)), true));
        assert!(!f("a", None).equal_under(&f("b", None), false));
        let (x, y) = (f("a", Some(3)), f("b", None));
        let (path, _, _) = x.first_difference_under(&y, true).unwrap();
        assert_eq!(path, ".name");
        // Inside an object too.
        let holder = |v: Value| Value::Object {
            kind: ObjectKind::Object,
            class: "Object".into(),
            description: None,
            entries: Some(vec![Entry {
                key: Key::Name("cb".into()),
                value: v,
            }]),
            truncated: false,
        };
        assert!(holder(f("a", Some(3))).equal_under(&holder(f("a", None)), true));
        assert!(!holder(f("a", Some(3))).equal_under(&holder(f("a", Some(5))), true));
        let mut moved = holder(f("a", Some(5)));
        moved.map_function_lines(&|l| (l != 0).then(|| l - 2));
        assert_eq!(
            moved.to_string(),
            r#"Object { cb: Function { name: "a", [[line]]: 3 } }"#
        );
        let mut inserted = f("a", Some(1));
        inserted.map_function_lines(&|l| (l != 0).then(|| l - 2));
        assert_eq!(inserted.to_string(), r#"Function { name: "a" }"#);
    }

    fn error(class: &str, description: &str) -> Value {
        Value::Object {
            kind: ObjectKind::Error,
            class: class.into(),
            description: Some(description.into()),
            entries: Some(vec![]),
            truncated: false,
        }
    }

    /// Issue 66: an error's message (its description's first line after the name) compares
    /// where both sides' can be read; a stack or a repr says none.
    #[test]
    fn errors_compare_by_message_where_both_say_one() {
        let v8 = error(
            "RangeError",
            "RangeError: out of range\n    at f (file:///a.js:4:9)",
        );
        let sm = error("RangeError", "RangeError: out of range");
        let other = error("RangeError", "RangeError: out of bounds");
        let bare = error("Error", "Error\n    at f (file:///a.js:4:9)");
        assert_eq!(v8.error_message(), Some("out of range"));
        assert_eq!(bare.error_message(), Some(""));
        assert_eq!(error("E", "f@file:///a.js:4:9").error_message(), None);
        assert_eq!(error("E", "ValueError('x')").error_message(), None);
        assert!(v8.equal_under(&sm, true) && v8.equal_under(&sm, false));
        assert!(!v8.equal_under(&other, true) && !v8.equal_under(&other, false));
        assert!(v8.equal_under(&error("RangeError", "f@file:///a.js:4:9"), true));
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
