//! Go values as Delve's DAP server shows them (a type name and Delve's one-line rendering) turned
//! into the normalized [`Value`]: integers of every width are numbers (big integers past 2^53),
//! floats numbers, `bool` a boolean, a `string` its characters (Delve quotes it as Go's `%q`
//! does), `nil` null; structs, arrays, slices, maps, pointers and interfaces are objects whose
//! children are their fields, elements, entries, pointee or dynamic value.
//!
//! As for C, a pointer is not described by its address (another build, another run and another
//! heap give another one); what it is compares: nil or not, and its pointee.

use super::values::int;
use morphtrace_schema::{Key, ObjectKind, Value};

fn is_integer(t: &str) -> bool {
    matches!(
        t,
        "int"
            | "int8"
            | "int16"
            | "int32"
            | "int64"
            | "uint"
            | "uint8"
            | "uint16"
            | "uint32"
            | "uint64"
            | "uintptr"
            | "byte"
            | "rune"
    )
}

/// The type of a value: a map's entry is typed `KEY: VALUE` (`string: int`), its value's type
/// after the colon.
pub fn value_type(type_name: &str) -> &str {
    match type_name.split_once(": ") {
        Some((_, v)) if !type_name.starts_with("func") && !type_name.starts_with("struct") => v,
        _ => type_name,
    }
}

/// A primitive from its type and Delve's rendering, or `None` when the value is an object.
pub fn primitive(type_name: &str, repr: &str) -> Option<Value> {
    // `(unreadable could not find loclist entry at 0x… for address 0x…)`: the optimized build
    // keeps no location for the variable here; any other unreadable value has none either.
    if let Some(why) = repr.strip_prefix("(unreadable ") {
        return Some(if why.contains("loclist") || why.contains("optimized") {
            Value::OptimizedOut
        } else {
            Value::Unavailable
        });
    }
    if is_integer(type_name) {
        // A rune or byte may come with its character: `97 'a'`.
        let number = repr.split_once(' ').map_or(repr, |(n, _)| n);
        return int(number);
    }
    match type_name {
        "float32" | "float64" => float(repr),
        "bool" => match repr {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        "string" => unquote(repr).map(Value::String),
        _ if repr == "nil" || repr.ends_with(" nil") => Some(Value::Null),
        _ => None,
    }
}

fn float(repr: &str) -> Option<Value> {
    match repr {
        "+Inf" => Some(Value::Number(f64::INFINITY)),
        "-Inf" => Some(Value::Number(f64::NEG_INFINITY)),
        "NaN" => Some(Value::Number(f64::NAN)),
        // Delve formats with strconv's shortest repr (`%g`-like `2.5`, `1e+21`): reads back.
        r => r.parse::<f64>().ok().map(Value::Number),
    }
}

/// A Go string literal as `strconv.Quote` writes it, read back; `None` when it is not one
/// (Delve cut a long string: `"abc"...+100 more`).
pub fn unquote(repr: &str) -> Option<String> {
    let inner = repr.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = Vec::<u8>::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '"' {
            // An unescaped quote: the rendering is not one literal.
            return None;
        }
        if c != '\\' {
            let mut b = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            continue;
        }
        fn hex(chars: &mut std::str::Chars<'_>, n: usize) -> Option<u32> {
            let s: String = chars.by_ref().take(n).collect();
            (s.len() == n).then_some(())?;
            u32::from_str_radix(&s, 16).ok()
        }
        let code = match chars.next()? {
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'n' => 10,
            'r' => 13,
            't' => 9,
            'v' => 11,
            '\\' => 92,
            '"' => 34,
            '\'' => 39,
            // A byte that is not UTF-8: kept as the byte.
            'x' => {
                out.push(u8::try_from(hex(&mut chars, 2)?).ok()?);
                continue;
            }
            'u' => hex(&mut chars, 4)?,
            'U' => hex(&mut chars, 8)?,
            _ => return None,
        };
        let mut b = [0u8; 4];
        out.extend_from_slice(char::from_u32(code)?.encode_utf8(&mut b).as_bytes());
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// What kind of object a Go type is: arrays and slices are arrays, maps maps, the rest objects.
pub fn kind(type_name: &str) -> ObjectKind {
    if type_name.starts_with('[') {
        ObjectKind::Array
    } else if type_name.starts_with("map[") {
        ObjectKind::Map
    } else if type_name.starts_with("func(") || type_name == "func" {
        ObjectKind::Function
    } else {
        ObjectKind::Object
    }
}

/// Whether a local Delve lists is one of the program's names in scope: not one an inner block
/// shadows (Delve lists it in parentheses, `(n)`; the debugger evaluates the innermost, listed
/// bare), nor one the compiler made (`~r0`, `~p0`: no Go identifier begins with `~`): an unnamed
/// result is listed before the function returns with whatever its stack slot held, which
/// changes from run to run (seen on Go's own test programs, `decl.go`, `func.go`).
pub fn is_program_name(name: &str) -> bool {
    !(name.starts_with('~') || (name.starts_with('(') && name.ends_with(')')))
}

/// Delve's children that are no part of the value: a map's `len()`.
pub fn is_synthetic(name: &str) -> bool {
    name == "len()"
}

/// The key of a child named `name` of an object of kind `parent`: `[3]` of an array or slice is
/// index 3; a map's key as Delve renders it (`"a"`, `3`); a field its name; a pointer's pointee
/// (which Delve leaves unnamed) `*`.
pub fn key(parent: &ObjectKind, name: &str) -> Key {
    let index = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .and_then(|n| n.parse::<u64>().ok());
    match (parent, index) {
        (ObjectKind::Array, Some(i)) => Key::Index(i),
        _ if name.is_empty() => Key::Name("*".into()),
        _ => Key::Name(name.to_string()),
    }
}

/// An object's description: a function's name (`main.add`), else none: an aggregate's rendering
/// is its children again, a pointer's or a slice's holds addresses and capacities that another
/// build lays out otherwise.
pub fn described(type_name: &str, repr: &str) -> Option<String> {
    (kind(type_name) == ObjectKind::Function).then(|| repr.to_string())
}

/// An object shown by its type alone (depth exhausted, or nothing to expand).
pub fn shell(type_name: &str, repr: &str) -> Value {
    Value::Object {
        kind: kind(type_name),
        class: type_name.to_string(),
        description: described(type_name, repr),
        entries: None,
        truncated: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_of_every_width_read_exactly() {
        assert_eq!(primitive("int", "3"), Some(Value::Number(3.0)));
        assert_eq!(primitive("int8", "-128"), Some(Value::Number(-128.0)));
        assert_eq!(
            primitive("uint64", "18446744073709551615"),
            Some(Value::BigInt("18446744073709551615".into()))
        );
        assert_eq!(primitive("rune", "97 'a'"), Some(Value::Number(97.0)));
        assert_eq!(primitive("float64", "2.5"), Some(Value::Number(2.5)));
        assert_eq!(
            primitive("float32", "-Inf"),
            Some(Value::Number(f64::NEG_INFINITY))
        );
        assert_eq!(primitive("bool", "true"), Some(Value::Bool(true)));
    }

    #[test]
    fn strings_read_back_as_go_quotes_them() {
        assert_eq!(
            primitive("string", r#""go\t\"x\"\n\u00e9\x00""#),
            Some(Value::String("go\t\"x\"\né\0".into()))
        );
        // Cut by Delve: not one literal, an object shown by its type.
        assert_eq!(primitive("string", r#""abc"...+100 more"#), None);
        assert_eq!(unquote(r#""a"b""#), None);
    }

    #[test]
    fn nil_and_unreadable_values() {
        assert_eq!(primitive("*main.point", "nil"), Some(Value::Null));
        assert_eq!(primitive("error", "error nil"), Some(Value::Null));
        assert_eq!(
            primitive(
                "int",
                "(unreadable could not find loclist entry at 0x1234 for address 0x5678)"
            ),
            Some(Value::OptimizedOut)
        );
        assert_eq!(
            primitive("int", "(unreadable invalid address)"),
            Some(Value::Unavailable)
        );
        assert_eq!(primitive("main.point", "main.point {x: 1, y: 2}"), None);
    }

    #[test]
    fn children_are_keyed_by_index_name_or_pointee() {
        assert_eq!(kind("[]int"), ObjectKind::Array);
        assert_eq!(kind("[3]string"), ObjectKind::Array);
        assert_eq!(kind("map[string]int"), ObjectKind::Map);
        assert_eq!(key(&ObjectKind::Array, "[2]"), Key::Index(2));
        assert_eq!(key(&ObjectKind::Map, "\"a\""), Key::Name("\"a\"".into()));
        assert_eq!(key(&ObjectKind::Object, ""), Key::Name("*".into()));
        assert!(is_synthetic("len()"));
        assert!(is_program_name("n"));
        assert!(!is_program_name("(n)"));
        assert!(!is_program_name("~r0"));
        assert_eq!(value_type("string: int"), "int");
        assert_eq!(value_type("main.point: []int"), "[]int");
        assert_eq!(value_type("struct { a int }"), "struct { a int }");
        assert_eq!(described("*main.point", "*main.point {x: 1}"), None);
        assert_eq!(
            described("func(int, int) int", "main.add"),
            Some("main.add".into())
        );
    }
}
