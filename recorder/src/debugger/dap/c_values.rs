//! C values as LLDB's adapter and gdb's variable objects show them (a type name and the
//! debugger's summary) turned into the normalized [`Value`]: integers, characters and
//! floating-point numbers are numbers (a `char` is the integer it holds, whichever way a
//! debugger writes it: LLDB `'b'`, gdb `98 'b'`), `_Bool` a boolean, a value the optimizer left
//! no location for is optimized out; structs, unions and arrays are objects whose children are
//! their members, pointers objects whose children are what they point to.
//!
//! A pointer is not described by its address: two debuggers start the program with other
//! environments and other paths, and two builds lay out memory differently, so the same
//! pointer has another address in each (a stack address differs by the size of the
//! environment). What a pointer is compares instead: null or not, the string a `char *` points
//! to, the function a function pointer names, and its children (the pointee).
//! Type names are compared without `struct`, `union` and `enum` (LLDB leaves them out, gdb
//! writes them) and without a space before an array's brackets (gdb's `int [3]`).

use super::values::int;
use morphtrace_schema::{Key, ObjectKind, Value};

/// A type's name without the qualifiers that do not change how its value reads.
fn bare(type_name: &str) -> &str {
    let mut t = type_name.trim();
    while let Some(rest) = ["const ", "volatile ", "register ", "static "]
        .iter()
        .find_map(|q| t.strip_prefix(q))
    {
        t = rest;
    }
    t
}

fn is_char(t: &str) -> bool {
    matches!(t, "char" | "signed char" | "unsigned char")
}

fn is_float(t: &str) -> bool {
    matches!(t, "float" | "double" | "long double")
}

fn is_integer(t: &str) -> bool {
    let words: Vec<&str> = t.split_whitespace().collect();
    !words.is_empty()
        && words.iter().all(|w| {
            matches!(
                *w,
                "int" | "short" | "long" | "unsigned" | "signed" | "char" | "__int128"
            )
        })
        || matches!(
            t,
            "size_t"
                | "ssize_t"
                | "ptrdiff_t"
                | "intptr_t"
                | "uintptr_t"
                | "int8_t"
                | "int16_t"
                | "int32_t"
                | "int64_t"
                | "uint8_t"
                | "uint16_t"
                | "uint32_t"
                | "uint64_t"
        )
}

/// A primitive from its type and LLDB's summary, or `None` when the value is an aggregate, a
/// pointer or an enumeration (shown as an object).
pub fn primitive(type_name: &str, repr: &str) -> Option<Value> {
    // `<variable not available>`, `<error: variable not available>`: no location at this pc.
    if repr.starts_with('<') && repr.contains("variable not available") {
        return Some(Value::OptimizedOut);
    }
    // gdb's word for it; LLDB's for a variable the compiler gave no location at all
    // (`<error: no location, value may have been optimized out>` through DAP).
    if repr == "<optimized out>"
        || (repr.starts_with('<')
            && repr.contains("no location, value may have been optimized out"))
    {
        return Some(Value::OptimizedOut);
    }
    // `<error: parent is NULL>` (LLDB), `<error: Cannot access memory at address 0x0>` (gdb):
    // a member below a null pointer, which has none.
    if repr.starts_with("<error:") {
        return Some(Value::Unavailable);
    }
    let t = bare(type_name);
    // `int8_t` and `uint8_t` are characters to LLDB (`'\xd2'`), as `char` is; a signed one's
    // high byte is negative (`char` is signed on the x86-64 System V ABI).
    if is_char(t) || is_integer(t) {
        let signed = matches!(t, "char" | "signed char" | "int8_t");
        return char_literal(repr, signed)
            .or_else(|| int(repr))
            .or_else(|| repr.split_once(" '").and_then(|(n, _)| int(n)));
    }
    if is_float(t) {
        return float(repr);
    }
    match (t, repr) {
        ("_Bool" | "bool", "true") => Some(Value::Bool(true)),
        ("_Bool" | "bool", "false") => Some(Value::Bool(false)),
        _ => None,
    }
}

fn float(repr: &str) -> Option<Value> {
    match repr {
        "inf" | "+Inf" => Some(Value::Number(f64::INFINITY)),
        "-inf" | "-Inf" => Some(Value::Number(f64::NEG_INFINITY)),
        "nan" | "NaN" | "-nan" => Some(Value::Number(f64::NAN)),
        // gdb writes a NaN's payload: `nan(0x8000000000000)`.
        r if r.trim_start_matches('-').starts_with("nan(") => Some(Value::Number(f64::NAN)),
        r => r.parse::<f64>().ok().map(Value::Number),
    }
}

/// A character as LLDB writes it (`'q'`, `'\0'`, `'\n'`, `'\x7f'`) as the number it is, of a
/// signed or unsigned type.
fn char_literal(repr: &str, signed: bool) -> Option<Value> {
    let inner = repr.strip_prefix('\'')?.strip_suffix('\'')?;
    let code = match inner.strip_prefix('\\') {
        None => {
            let mut chars = inner.chars();
            let c = chars.next()?;
            if chars.next().is_some() {
                return None;
            }
            u32::from(c)
        }
        Some(e) => match e {
            "0" => 0,
            "a" => 7,
            "b" => 8,
            "t" => 9,
            "n" => 10,
            "v" => 11,
            "f" => 12,
            "r" => 13,
            "e" => 27,
            "\\" => 92,
            "'" => 39,
            "\"" => 34,
            x => u32::from_str_radix(x.strip_prefix('x')?, 16).ok()?,
        },
    };
    let value = if signed && (128..256).contains(&code) {
        f64::from(code) - 256.0
    } else {
        f64::from(code)
    };
    Some(Value::Number(value))
}

/// What kind of object a C type is: an array, else an object (a struct, a union, a pointer).
pub fn kind(type_name: &str) -> ObjectKind {
    if bare(type_name).ends_with(']') {
        ObjectKind::Array
    } else {
        ObjectKind::Object
    }
}

/// The key of a child named `name` of an object of kind `parent`: `[3]` of an array is index
/// 3; a member its name.
pub fn key(parent: &ObjectKind, name: &str) -> Key {
    let index = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .and_then(|n| n.parse::<u64>().ok());
    match (parent, index) {
        (ObjectKind::Array, Some(i)) => Key::Index(i),
        _ => Key::Name(name.to_string()),
    }
}

/// A member's name as gdb gives it, from LLDB's DAP name and type, or `None` for a member LLDB
/// makes up. LLDB names every unnamed member `<null>`: an anonymous struct or union
/// (`(anonymous union)`), which gdb names `<anonymous union>`, and the unnamed bit-field it
/// fills a gap between bit-fields with (DWARFASTParserClang adds one where the layout skips
/// bits): C has no such member (an unnamed bit-field is padding, C11 6.7.2.1p12; gcc gives it no
/// DWARF) and gdb lists none.
pub fn member_name(name: &str, type_name: &str) -> Option<String> {
    if name != "<null>" && !name.is_empty() {
        return Some(name.to_string());
    }
    let t = bare(type_name);
    ["union", "struct"]
        .into_iter()
        .find(|k| t == format!("(anonymous {k})"))
        .map(|k| format!("<anonymous {k}>"))
}

/// A type's name as both debuggers write it: without `struct`, `union` and `enum` (LLDB leaves
/// them out), without qualifiers (gdb writes `int32_t * volatile`, LLDB `int32_t *volatile`,
/// and an array of them `int32_t * volatile[4]` and `int32_t *volatile volatile[4]`), with no
/// space between pointer stars or before an array's brackets.
pub fn class(type_name: &str) -> String {
    // An anonymous struct or union: gdb writes its type `union {...}`, LLDB `(anonymous union)`.
    for k in ["union", "struct"] {
        if bare(type_name) == format!("{k} {{...}}") {
            return format!("(anonymous {k})");
        }
    }
    let spaced = type_name.replace('*', " * ").replace('[', " [");
    let mut out = String::new();
    for w in spaced.split_whitespace().filter(|w| {
        !matches!(
            *w,
            "struct" | "union" | "enum" | "const" | "volatile" | "restrict" | "__restrict"
        )
    }) {
        let glued = w.starts_with('[') || (w == "*" && out.ends_with('*'));
        if !out.is_empty() && !glued {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// Whether a type is a data pointer (`int *`, `int32_t * volatile`).
fn is_pointer(type_name: &str) -> bool {
    class(type_name).ends_with('*')
}

/// An object's description: none for an array, a struct or a union, whose summary is its
/// members again (LLDB writes `pt @ 0x7ffe…` where a struct lives on the stack, gdb `{...}`);
/// a pointer's as [`pointer`] says; an enumeration's summary as written.
pub fn described(type_name: &str, repr: &str) -> Option<String> {
    let t = bare(type_name);
    if t.contains('(') {
        return function(repr).or_else(|| pointer(repr));
    }
    if is_pointer(t) {
        // Csmith's `uint8_t *` points at a number: LLDB and gdb read it as a string of
        // whatever bytes follow (each with its own escapes and length limit); its child is the
        // number.
        let pointee = class(type_name);
        let pointee = pointee.trim_end_matches('*').trim();
        if matches!(pointee, "int8_t" | "uint8_t") {
            return pointer(repr).filter(|d| d == "NULL");
        }
        return pointer(repr);
    }
    // LLDB writes an aggregate the optimizer keeps in registers as its type's name (`box`).
    let aggregate = t.ends_with(']')
        || repr == t
        || repr.contains(" @ 0x")
        || repr.starts_with('{')
        || type_name.contains("struct ")
        || type_name.contains("union ");
    (!aggregate).then(|| repr.to_string())
}

/// A data pointer without its address: `NULL`, the string a character pointer points to
/// (`"hi"`, as both debuggers quote it), else nothing (its children say what it points to).
pub fn pointer(repr: &str) -> Option<String> {
    let (address, rest) = repr.split_once(' ').unwrap_or((repr, ""));
    let hex = address.strip_prefix("0x")?;
    if hex.bytes().all(|b| b == b'0') {
        return Some("NULL".into());
    }
    // gdb names the symbol a pointer points into (`0x55… <calls>`, before the string a
    // character pointer points to: `0x55… <name> "hi"`); LLDB does not.
    let mut rest = rest.trim();
    if rest.starts_with('<') {
        rest = rest.split_once("> ").map_or("", |(_, r)| r.trim());
    }
    rest.starts_with('"').then(|| rest.to_string())
}

/// The function a function pointer points to, as `<NAME>`: gdb writes `{int (int)} 0x55…
/// <fib>`, LLDB `0x00005555… (prog`fib at fib.c:5)`.
fn function(repr: &str) -> Option<String> {
    if let Some(inner) = repr.rsplit_once('<').and_then(|(_, r)| r.strip_suffix('>')) {
        let name = inner.split('+').next().unwrap_or(inner);
        return Some(format!("<{name}>"));
    }
    let inner = repr.rsplit_once('(')?.1.strip_suffix(')')?;
    let name = inner.split_once('`')?.1.split_whitespace().next()?;
    Some(format!("<{name}>"))
}

/// An object shown by its summary only (depth exhausted, or nothing to expand).
pub fn shell(type_name: &str, repr: &str) -> Value {
    Value::Object {
        kind: kind(type_name),
        class: class(type_name),
        description: described(type_name, repr),
        entries: None,
        truncated: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unnamed_members_are_named_as_gdb_names_them_or_left_out() {
        assert_eq!(member_name("x", "int"), Some("x".into()));
        assert_eq!(
            member_name("<null>", "(anonymous union)"),
            Some("<anonymous union>".into())
        );
        assert_eq!(
            member_name("<null>", "(anonymous struct)"),
            Some("<anonymous struct>".into())
        );
        // LLDB's bit-field in a gap.
        assert_eq!(member_name("<null>", "int"), None);
        assert_eq!(member_name("", "unsigned int:5"), None);
        // The anonymous aggregate's type reads alike from both.
        assert_eq!(class("union {...}"), "(anonymous union)");
        assert_eq!(class("(anonymous union)"), "(anonymous union)");
        assert_eq!(class("struct {...}"), "(anonymous struct)");
        assert_eq!(class("struct pt"), "pt");
    }

    #[test]
    fn c_primitives_read_as_numbers_booleans_or_optimized_out() {
        let n = |x: f64| Some(Value::Number(x));
        assert_eq!(primitive("int", "3"), n(3.0));
        // gdb's spellings.
        assert_eq!(primitive("char", "98 'b'"), n(98.0));
        assert_eq!(primitive("int8_t", "-46 '\\322'"), n(-46.0));
        assert_eq!(primitive("uint8_t", "210 '\\322'"), n(210.0));
        assert_eq!(
            primitive("int", "<optimized out>"),
            Some(Value::OptimizedOut)
        );
        assert_eq!(
            primitive("double", "-nan(0x8000000000000)")
                .map(|v| matches!(v, Value::Number(x) if x.is_nan())),
            Some(true)
        );
        assert_eq!(
            primitive("int", "<error: Cannot access memory at address 0x0>"),
            Some(Value::Unavailable)
        );
        assert_eq!(
            primitive("const unsigned long", "18446744073709551615"),
            Some(Value::BigInt("18446744073709551615".into()))
        );
        assert_eq!(primitive("long long", "-7"), n(-7.0));
        assert_eq!(primitive("char", "'q'"), n(113.0));
        assert_eq!(primitive("char", "'\\0'"), n(0.0));
        assert_eq!(primitive("unsigned char", "'\\xff'"), n(255.0));
        assert_eq!(primitive("double", "2.5"), n(2.5));
        assert_eq!(primitive("float", "-inf"), n(f64::NEG_INFINITY));
        assert_eq!(primitive("_Bool", "true"), Some(Value::Bool(true)));
        assert_eq!(
            primitive("int", "<variable not available>"),
            Some(Value::OptimizedOut)
        );
        assert_eq!(
            primitive(
                "int",
                "<error: no location, value may have been optimized out>"
            ),
            Some(Value::OptimizedOut)
        );
        assert_eq!(primitive("uint32_t", "42"), n(42.0));
        // Csmith's fixed-width types: `int8_t` is a `signed char` to LLDB.
        assert_eq!(primitive("int8_t", "'\\xd2'"), n(-46.0));
        assert_eq!(primitive("uint8_t", "'\\xd2'"), n(210.0));
        assert_eq!(primitive("const uint8_t", "'\\a'"), n(7.0));
        assert_eq!(
            primitive("int8_t", "<error: parent is NULL>"),
            Some(Value::Unavailable)
        );
        // Aggregates, pointers and enumerations are objects.
        assert_eq!(primitive("pt", "pt @ 0x7fffffffe510"), None);
        assert_eq!(primitive("const char *", "0x0000555555556004 \"hi\""), None);
        assert_eq!(primitive("enum color", "RED"), None);
    }

    #[test]
    fn arrays_are_indexed_and_stack_addresses_are_no_description() {
        assert_eq!(kind("int[3]"), ObjectKind::Array);
        assert_eq!(kind("pt"), ObjectKind::Object);
        assert_eq!(key(&ObjectKind::Array, "[2]"), Key::Index(2));
        assert_eq!(key(&ObjectKind::Object, "x"), Key::Name("x".into()));
        assert_eq!(described("pt", "pt @ 0x7fffffffe510"), None);
        assert_eq!(described("struct box", "{...}"), None);
        assert_eq!(described("box", "box"), None);
        assert_eq!(described("enum color", "RED"), Some("RED".into()));
    }

    #[test]
    fn pointers_read_alike_in_both_debuggers_without_their_addresses() {
        let hi = Some("\"hi\"".to_string());
        assert_eq!(described("const char *", "0x0000555555556004 \"hi\""), hi);
        assert_eq!(described("const char *", "0x555555556004 \"hi\""), hi);
        assert_eq!(described("box *", "0x00007fffffffe6a0"), None);
        assert_eq!(described("int *", "0x55555555801c <calls>"), None);
        // gdb names the global a string begins in.
        assert_eq!(described("char *", "0x555555558010 <name> \"hi\""), hi);
        // A byte-sized number's pointer is no string, whatever bytes follow it.
        assert_eq!(described("uint8_t *", "0x555555558010 <g> \"\\027\""), None);
        assert_eq!(
            described("int8_t *", "0x0000555555558010 \"\\U00000017\""),
            None
        );
        assert_eq!(described("uint8_t *", "0x0"), Some("NULL".into()));
        assert_eq!(
            described("int *", "0x0000000000000000"),
            Some("NULL".into())
        );
        assert_eq!(described("int *", "0x0"), Some("NULL".into()));
        let fib = Some("<fib>".to_string());
        assert_eq!(
            described("int (*)(int)", "0x0000555555555139 (prog-1`fib at fib.c:5)"),
            fib
        );
        assert_eq!(
            described("int (*)(int)", "{int (int)} 0x555555555139 <fib>"),
            fib
        );
        assert_eq!(
            described("int (int)", "{int (int)} 0x555555555139 <fib>"),
            fib
        );
        assert_eq!(class("struct box *"), "box *");
        assert_eq!(class("const struct point"), "point");
        assert_eq!(class("int32_t * volatile"), "int32_t *");
        assert_eq!(class("int32_t *volatile"), "int32_t *");
        assert_eq!(class("int32_t * volatile[4]"), "int32_t *[4]");
        assert_eq!(class("int32_t *volatile volatile[4]"), "int32_t *[4]");
        assert_eq!(class("int32_t **const volatile"), "int32_t **");
        assert_eq!(class("char *"), "char *");
        assert_eq!(
            described("int32_t * volatile", "0x555555558010 <g_5>"),
            None
        );
        assert_eq!(class("int [3]"), "int[3]");
        assert_eq!(class("int[3]"), "int[3]");
    }
}
