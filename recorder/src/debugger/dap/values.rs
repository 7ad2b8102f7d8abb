//! Python values as a DAP adapter shows them (a `repr` and a type name) turned into the
//! normalized [`Value`]: what is exact in Python stays exact (an `int` of any size, a `float`'s
//! bits, a `str`'s characters); everything else is an object with its type as class, its
//! `repr` as description and its children as entries.

use morphtrace_schema::{Key, ObjectKind, Value};

/// Integers up to this magnitude are numbers (an `f64` holds them exactly); larger ones are
/// big integers, digits as written.
const EXACT: u64 = 1 << 53;

/// A primitive from its type and `repr`, or `None` when the value is an object (or its `repr`
/// cannot be read back, as a long string the adapter cut).
pub fn primitive(type_name: &str, repr: &str) -> Option<Value> {
    match type_name {
        "NoneType" => Some(Value::Null),
        "bool" => match repr {
            "True" => Some(Value::Bool(true)),
            "False" => Some(Value::Bool(false)),
            _ => None,
        },
        "int" => int(repr),
        "float" => float(repr),
        "str" => unrepr(repr).map(Value::String),
        _ => None,
    }
}

/// An integer's decimal digits as a number (exact up to 2^53) or a big integer.
pub(super) fn int(repr: &str) -> Option<Value> {
    let digits = repr.strip_prefix('-').unwrap_or(repr);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match digits.parse::<u64>() {
        Ok(n) if n <= EXACT => {
            let x = n as f64;
            Some(Value::Number(if repr.starts_with('-') { -x } else { x }))
        }
        _ => Some(Value::BigInt(repr.to_string())),
    }
}

fn float(repr: &str) -> Option<Value> {
    match repr {
        "inf" => Some(Value::Number(f64::INFINITY)),
        "-inf" => Some(Value::Number(f64::NEG_INFINITY)),
        "nan" => Some(Value::Number(f64::NAN)),
        // Python's float repr is the shortest that reads back: Rust reads it to the same bits.
        r => r.parse::<f64>().ok().map(Value::Number),
    }
}

/// A Python `str` literal as `repr` writes it (quoted with `'` or `"`, escapes `\\`, `\'`,
/// `\n`, `\r`, `\t`, `\xNN`, `\uNNNN`, `\UNNNNNNNN`) read back, `None` when it is not one.
pub fn unrepr(repr: &str) -> Option<String> {
    let q = repr.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let inner = repr.strip_prefix(q)?.strip_suffix(q)?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == q {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let hex = |chars: &mut std::str::Chars, n: usize| -> Option<char> {
            let s: String = chars.by_ref().take(n).collect();
            (s.len() == n).then_some(())?;
            char::from_u32(u32::from_str_radix(&s, 16).ok()?)
        };
        match chars.next()? {
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'x' => out.push(hex(&mut chars, 2)?),
            'u' => out.push(hex(&mut chars, 4)?),
            'U' => out.push(hex(&mut chars, 8)?),
            _ => return None,
        }
    }
    Some(out)
}

/// What kind of object a Python type is, by its name.
pub fn kind(type_name: &str) -> ObjectKind {
    match type_name {
        "list" | "tuple" => ObjectKind::Array,
        "dict" => ObjectKind::Map,
        "set" | "frozenset" => ObjectKind::Set,
        "function" | "builtin_function_or_method" | "method" | "type" => ObjectKind::Function,
        "generator" | "coroutine" | "async_generator" => ObjectKind::Generator,
        t if t.ends_with("Error") || t.ends_with("Exception") || t == "StopIteration" => {
            ObjectKind::Error
        }
        _ => ObjectKind::Object,
    }
}

/// Types shown by their `repr` only, never expanded: their names say what they are, and their
/// members are the interpreter's (a coroutine's frame holds the debugger's own trace function,
/// a code object its bytecode), not the program's state. `pdb-driver.py` keeps the same list.
pub const OPAQUE: [&str; 12] = [
    "module",
    "function",
    "builtin_function_or_method",
    "method",
    "type",
    "code",
    "frame",
    "traceback",
    "cell",
    "generator",
    "coroutine",
    "async_generator",
];

/// Whether a child an adapter lists is one of its own groupings or helpers (debugpy's
/// `special variables`, `function variables`, `class variables`, `len()`), not the value's.
pub fn is_grouping(name: &str) -> bool {
    name.contains(' ') || name == "len()"
}

/// The key of a child named `name`, listed `position`-th, of an object of type `parent`: an
/// index of a sequence, a position in a set (debugpy names a set's members by their `id`, an
/// address), a key of a dict (its `repr` read back when it is a primitive's), or an attribute.
pub fn key(parent: &ObjectKind, name: &str, position: usize) -> Key {
    match parent {
        ObjectKind::Set => Key::Index(position as u64),
        ObjectKind::Array => match name.parse::<u64>() {
            Ok(i) => Key::Index(i),
            Err(_) => Key::Name(name.to_string()),
        },
        ObjectKind::Map => {
            let guess = ["str", "int", "float", "bool", "NoneType"]
                .into_iter()
                .find_map(|t| primitive(t, name));
            match guess {
                Some(v) => Key::Value(v),
                None => Key::Name(name.to_string()),
            }
        }
        _ => Key::Name(name.to_string()),
    }
}

/// An object without its entries (depth reached, or no children).
pub fn shell(type_name: &str, repr: &str) -> Value {
    let kind = kind(type_name);
    Value::Object {
        description: described(&kind, repr),
        kind,
        class: type_name.to_string(),
        entries: None,
        truncated: false,
    }
}

/// An object's description: its `repr` without addresses, but none for a list, tuple, dict or
/// set, whose `repr` is its entries again, cut where each debugger chooses (pydevd's safe_repr
/// ends a long one with `...`; pdb prints it whole).
pub fn described(kind: &ObjectKind, repr: &str) -> Option<String> {
    match kind {
        ObjectKind::Array | ObjectKind::Map | ObjectKind::Set => None,
        _ => Some(description(repr)),
    }
}

/// A `repr` as an object's description, without the addresses in it: the default `repr`
/// (`<__main__.Point object at 0x7f3a…>`, `<function f at 0x…>`) names where the object is
/// in memory, which differs from run to run and says nothing of the program. Any `0x` and
/// eight or more hex digits is taken for one.
pub fn description(repr: &str) -> String {
    let mut out = String::with_capacity(repr.len());
    let mut rest = repr;
    while let Some(i) = rest.find("0x") {
        out.push_str(&rest[..i + 2]);
        let after = &rest[i + 2..];
        let digits = after.bytes().take_while(u8::is_ascii_hexdigit).count();
        if digits >= 8 {
            out.push('…');
            rest = &after[digits..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// What an evaluation threw, from the adapter's message (`NameError: name 'x' is not
/// defined`): an error object with the exception's type as class.
pub fn thrown(message: &str) -> Value {
    let first = message.lines().next().unwrap_or_default();
    let class = first
        .split_once(':')
        .map(|(c, _)| c.trim())
        .filter(|c| !c.is_empty() && !c.contains(' '))
        .unwrap_or("Exception");
    Value::Object {
        kind: ObjectKind::Error,
        class: class.to_string(),
        description: Some(first.to_string()),
        entries: None,
        truncated: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_primitives_read_back_exactly() {
        assert_eq!(primitive("int", "-42"), Some(Value::Number(-42.0)));
        assert_eq!(
            primitive("int", "9007199254740993"),
            Some(Value::BigInt("9007199254740993".into()))
        );
        assert_eq!(primitive("float", "0.1"), Some(Value::Number(0.1)));
        assert!(
            matches!(primitive("float", "-0.0"), Some(Value::Number(x)) if x == 0.0 && x.is_sign_negative())
        );
        assert!(matches!(primitive("float", "nan"), Some(Value::Number(x)) if x.is_nan()));
        assert_eq!(primitive("bool", "True"), Some(Value::Bool(true)));
        assert_eq!(primitive("NoneType", "None"), Some(Value::Null));
        assert_eq!(
            primitive("str", r#"'it\'s\n\x00é\u2063"'"#),
            Some(Value::String("it's\n\u{0}é\u{2063}\"".into()))
        );
        assert_eq!(
            primitive("str", r#""a'b""#),
            Some(Value::String("a'b".into()))
        );
        // Cut by the adapter: not a literal, so not a string we could vouch for.
        assert_eq!(primitive("str", "'abc..."), None);
        assert_eq!(primitive("list", "[1]"), None);
    }

    #[test]
    fn an_address_in_a_repr_is_not_part_of_the_description() {
        assert_eq!(
            description("<__main__.P object at 0x7f3a12bc4d90>"),
            "<__main__.P object at 0x…>"
        );
        assert_eq!(
            description("[<function f at 0x7f3a12bc4d90>, 0x10]"),
            "[<function f at 0x…>, 0x10]"
        );
    }

    #[test]
    fn children_are_keyed_as_python_names_them() {
        assert_eq!(key(&ObjectKind::Array, "3", 3), Key::Index(3));
        assert_eq!(key(&ObjectKind::Set, "140234567890", 1), Key::Index(1));
        assert_eq!(
            key(&ObjectKind::Map, "'k'", 0),
            Key::Value(Value::String("k".into()))
        );
        assert_eq!(
            key(&ObjectKind::Map, "7", 1),
            Key::Value(Value::Number(7.0))
        );
        assert_eq!(key(&ObjectKind::Object, "x", 0), Key::Name("x".into()));
        assert!(is_grouping("special variables") && is_grouping("len()") && !is_grouping("x"));
        assert_eq!(kind("ZeroDivisionError"), ObjectKind::Error);
    }

    #[test]
    fn a_failed_evaluation_names_its_exception() {
        match thrown("NameError: name 'x' is not defined") {
            Value::Object { class, kind, .. } => {
                assert_eq!((class.as_str(), kind), ("NameError", ObjectKind::Error))
            }
            other => panic!("{other:?}"),
        }
    }
}
