//! Where an instrumented copy of a C program records its own state (ground truth, issues 68 and
//! 71, after Li et al., PLDI'20): the statements that stand alone on their line inside a block,
//! a `case`'s body or under a label, each with the integer variables that hold a value there,
//! so that the recording call reads nothing indeterminate (which would be undefined behaviour,
//! and at `-O2` a value the compiler may choose freely).
//!
//! Names read at a point, innermost block first:
//! - the function's parameters of integer type (always initialized);
//! - integer locals declared with an initializer (or `static`) by a declaration passed before
//!   the point in an enclosing block, and a `for`'s own declaration in its body;
//! - none declared directly in a `case`'s body or a `switch`'s block (a case is entered by a
//!   jump past them);
//! - in a function with a `goto` or a label, only the parameters and the declarations of the
//!   function's own block that come before its first `goto` and first label: a jump cannot
//!   pass those, while it can pass any other;
//! - no name the function declares twice (a debugger lists shadowed names too).
//!
//! Integer means a type every debugger shows as the number it holds: `int`, `char`, `short`,
//! `long` in any combination with `signed`/`unsigned`, and `<stdint.h>`'s exact-width types,
//! `size_t`, `ssize_t`, `ptrdiff_t`, `intptr_t`, `uintptr_t`; not pointers, arrays, floats
//! (a debugger prints them rounded), `_Bool` or enumerations.
//!
//! Not a point: a statement sharing its line with other code (a call before it would be code
//! of another statement's line), one spread over lines (a line breakpoint pauses at its first),
//! a lone body of an `if` or a loop (a call before it would leave the statement outside the
//! body), a `static`, `extern` or `typedef` declaration, an empty statement.

use tree_sitter::Node;

/// One point: where its call goes and the variables it records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Point {
    /// 0-based line.
    pub line: u32,
    /// Byte offset of the statement's first token: the call goes right before it.
    pub offset: usize,
    /// The variables read there, sorted by name.
    pub names: Vec<Recorded>,
}

/// A variable a point records, and how it is read without changing its value.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Recorded {
    pub name: String,
    /// Read as `unsigned long long` (else `long long`).
    pub unsigned: bool,
}

/// Where an instrumented copy's calls go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub points: Vec<Point>,
    /// Byte offset of the first declaration or definition at file scope outside the
    /// preprocessor's conditionals: the recording function's prototype goes right before it,
    /// on its line, so that no line moves.
    pub prototype: usize,
}

const POINT_KINDS: &[&str] = &[
    "expression_statement",
    "return_statement",
    "declaration",
    "break_statement",
    "continue_statement",
    "goto_statement",
];

const EXACT_WIDTH: &[(&str, bool)] = &[
    ("int8_t", false),
    ("int16_t", false),
    ("int32_t", false),
    ("int64_t", false),
    ("uint8_t", true),
    ("uint16_t", true),
    ("uint32_t", true),
    ("uint64_t", true),
    ("size_t", true),
    ("ssize_t", false),
    ("ptrdiff_t", false),
    ("intptr_t", false),
    ("uintptr_t", true),
];

/// Whether a type (the declaration's `type` node) is an integer one, and whether unsigned.
fn integer(type_text: &str) -> Option<bool> {
    let words: Vec<&str> = type_text.split_whitespace().collect();
    if !words.is_empty()
        && words.iter().all(|w| {
            matches!(
                *w,
                "int" | "short" | "long" | "unsigned" | "signed" | "char"
            )
        })
    {
        return Some(words.contains(&"unsigned"));
    }
    EXACT_WIDTH
        .iter()
        .find(|(t, _)| *t == type_text)
        .map(|(_, u)| *u)
}

fn has_specifier(n: Node, text: &str, words: &[&str]) -> bool {
    let mut c = n.walk();
    let found = n.children(&mut c).any(|k| {
        matches!(k.kind(), "storage_class_specifier" | "type_qualifier")
            && words.contains(&&text[k.byte_range()])
    });
    found
}

/// The integer variables a declaration (or a parameter) gives a value: `(name, unsigned)`.
/// `all`: every declarator that names a plain identifier, initialized or not (to find names
/// declared twice).
fn declared(n: Node, text: &str, all: bool) -> Vec<(String, Option<bool>)> {
    let Some(ty) = n.child_by_field_name("type") else {
        return Vec::new();
    };
    let kind = integer(&text[ty.byte_range()]);
    let is_static = has_specifier(n, text, &["static"]);
    if !all && has_specifier(n, text, &["extern"]) {
        return Vec::new();
    }
    let parameter = n.kind() == "parameter_declaration";
    let mut out = Vec::new();
    let mut c = n.walk();
    for d in n.children_by_field_name("declarator", &mut c) {
        let (ident, initialized) = match d.kind() {
            "identifier" => (Some(d), parameter || is_static),
            "init_declarator" => (
                d.child_by_field_name("declarator")
                    .filter(|x| x.kind() == "identifier"),
                true,
            ),
            _ => (None, false),
        };
        let name = match ident {
            Some(i) => text[i.byte_range()].to_string(),
            None if all => {
                // Any other declarator still declares its bottom identifier.
                let mut cur = d;
                while let Some(inner) = cur.child_by_field_name("declarator") {
                    cur = inner;
                }
                if cur.kind() != "identifier" {
                    continue;
                }
                out.push((text[cur.byte_range()].to_string(), None));
                continue;
            }
            None => continue,
        };
        if all || initialized {
            out.push((name, if initialized { kind } else { None }));
        }
    }
    out
}

/// Whether `n` stands alone on its line: only blanks before it on its first line, nothing but
/// blanks or a comment after it on that line, and it ends there.
fn alone(n: Node, text: &str) -> bool {
    if n.start_position().row != n.end_position().row {
        return false;
    }
    let line_start = text[..n.start_byte()].rfind('\n').map_or(0, |i| i + 1);
    if !text[line_start..n.start_byte()].trim().is_empty() {
        return false;
    }
    let rest = &text[n.end_byte()..];
    let rest = &rest[..rest.find('\n').unwrap_or(rest.len())];
    let rest = rest.trim();
    rest.is_empty() || rest.starts_with("//") || (rest.starts_with("/*") && rest.ends_with("*/"))
}

/// The instrumentable points of `text` and where the prototype goes; `Err` when the parser
/// does not understand a function of the program, or there is no place for the prototype.
pub fn points(text: &str) -> Result<Plan, String> {
    let syntax = super::CSyntax::parse(text).ok_or("tree-sitter-c cannot parse it")?;
    let root = syntax.tree.root_node();
    // tree-sitter-c does not know every declaration compilers accept (Csmith's unnamed
    // zero-width bit-field `signed : 0;`): an error outside every function, holding no block,
    // leaves the functions' trees whole. One in or around a function's code does not.
    if syntax.has_errors() {
        let mut at = None;
        crate::trees::visit(root, &mut |n| {
            if at.is_some() || !(n.is_error() || n.is_missing()) {
                return;
            }
            let mut up = n.parent();
            let mut in_function = false;
            while let Some(p) = up {
                in_function |= p.kind() == "function_definition";
                up = p.parent();
            }
            let mut holds_block = false;
            crate::trees::visit(n, &mut |k| holds_block |= k.kind() == "compound_statement");
            if in_function || holds_block {
                at = Some(syntax.lines.line_of(n.start_byte()) + 1);
            }
        });
        if let Some(line) = at {
            return Err(format!(
                "tree-sitter-c does not parse its code without errors (line {line})"
            ));
        }
    }
    let mut c = root.walk();
    let prototype = root
        .named_children(&mut c)
        .find(|n| {
            matches!(
                n.kind(),
                "function_definition" | "declaration" | "type_definition"
            )
        })
        .map(|n| n.start_byte())
        .ok_or("no declaration at file scope outside the preprocessor's conditionals")?;
    let mut points = Vec::new();
    let mut c = root.walk();
    let functions: Vec<Node> = root
        .named_children(&mut c)
        .filter(|n| n.kind() == "function_definition")
        .collect();
    for f in functions {
        points.extend(in_function(f, text, &syntax.lines));
    }
    Ok(Plan { points, prototype })
}

fn in_function(f: Node, text: &str, lines: &morphtrace_schema::lines::LineIndex) -> Vec<Point> {
    let Some(body) = f.child_by_field_name("body") else {
        return Vec::new();
    };
    // Names the function declares more than once, and its first jump or label.
    let mut count: std::collections::HashMap<String, u32> = Default::default();
    let mut first_jump: Option<usize> = None;
    let mut candidates = Vec::new();
    crate::trees::visit(f, &mut |n| {
        match n.kind() {
            "declaration" | "parameter_declaration" => {
                for (name, _) in declared(n, text, true) {
                    *count.entry(name).or_default() += 1;
                }
            }
            "goto_statement" | "labeled_statement" => {
                first_jump = Some(first_jump.map_or(n.start_byte(), |j| j.min(n.start_byte())));
            }
            _ => {}
        }
        let in_sequence = n.parent().is_some_and(|p| {
            matches!(p.kind(), "compound_statement" | "case_statement")
                || (p.kind() == "labeled_statement" && n.kind() != "declaration")
        });
        if in_sequence
            && POINT_KINDS.contains(&n.kind())
            && n.named_child_count() + usize::from(n.kind() != "expression_statement") > 0
            && !(n.kind() == "declaration"
                && has_specifier(n, text, &["static", "extern", "typedef"]))
            && alone(n, text)
        {
            candidates.push(n);
        }
    });
    let params: Vec<(String, bool)> = {
        let mut out = Vec::new();
        let mut decl = f.child_by_field_name("declarator");
        // Down to the function declarator (`int *f(int a)` is a pointer declarator above it).
        while let Some(d) = decl {
            if d.kind() == "function_declarator" {
                break;
            }
            decl = d.child_by_field_name("declarator");
        }
        if let Some(list) = decl.and_then(|d| d.child_by_field_name("parameters")) {
            let mut c = list.walk();
            for p in list.named_children(&mut c) {
                if p.kind() == "parameter_declaration" {
                    out.extend(
                        declared(p, text, false)
                            .into_iter()
                            .filter_map(|(n, k)| Some((n, k?))),
                    );
                }
            }
        }
        out
    };
    candidates
        .into_iter()
        .map(|stmt| {
            let mut seen: std::collections::BTreeMap<String, Option<bool>> = Default::default();
            let mut add = |names: Vec<(String, Option<bool>)>| {
                for (name, kind) in names {
                    // The innermost declaration decides (walking outwards, the first seen).
                    seen.entry(name).or_insert(kind);
                }
            };
            let mut cur = stmt;
            while let Some(parent) = cur.parent() {
                match parent.kind() {
                    "compound_statement" => {
                        let switch_block = parent
                            .parent()
                            .is_some_and(|g| g.kind() == "switch_statement");
                        let function_block = parent == body;
                        if !switch_block && (first_jump.is_none() || function_block) {
                            let mut c = parent.walk();
                            for item in parent.named_children(&mut c) {
                                if item.start_byte() >= cur.start_byte() {
                                    break;
                                }
                                if item.kind() == "declaration"
                                    && first_jump.is_none_or(|j| item.end_byte() <= j)
                                {
                                    add(declared(item, text, false));
                                }
                            }
                        }
                    }
                    "for_statement" if first_jump.is_none() => {
                        let in_body = parent.child_by_field_name("body").is_some_and(|b| b == cur);
                        if let Some(init) = parent
                            .child_by_field_name("initializer")
                            .filter(|i| in_body && i.kind() == "declaration")
                        {
                            add(declared(init, text, false));
                        }
                    }
                    "function_definition" => break,
                    _ => {}
                }
                cur = parent;
            }
            add(params.iter().map(|(n, u)| (n.clone(), Some(*u))).collect());
            let names = seen
                .into_iter()
                .filter(|(name, _)| count.get(name).copied().unwrap_or(0) <= 1)
                .filter_map(|(name, kind)| {
                    Some(Recorded {
                        name,
                        unsigned: kind?,
                    })
                })
                .collect();
            Point {
                line: lines.line_of(stmt.start_byte()),
                offset: stmt.start_byte(),
                names,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(p: &Point) -> Vec<&str> {
        p.names.iter().map(|r| r.name.as_str()).collect()
    }

    #[test]
    fn points_read_only_integers_that_hold_a_value() {
        let text = "#include <stdint.h>\n\
                    static int g = 1;\n\
                    int f(int a, unsigned b, int *p, double d) {\n\
                    \x20 int x = a + 1, y;\n\
                    \x20 uint8_t u = 200; char *s = 0;\n\
                    \x20 y = x;\n\
                    \x20 if (a) y++;\n\
                    \x20 for (int i = 0; i < 2; i++) {\n\
                    \x20   static long t;\n\
                    \x20   y += i; t++;\n\
                    \x20   int z = y;\n\
                    \x20   y += z;\n\
                    \x20 }\n\
                    \x20 switch (a) {\n\
                    \x20 case 1:\n\
                    \x20   y = 2;\n\
                    \x20   int w = 3;\n\
                    \x20   break;\n\
                    \x20 }\n\
                    \x20 return y\n\
                    \x20   + 1;\n\
                    }\n";
        let plan = points(text).unwrap();
        assert_eq!(plan.prototype, text.find("static int g").unwrap());
        let got: Vec<(u32, Vec<&str>)> = plan.points.iter().map(|p| (p.line, names(p))).collect();
        assert_eq!(
            got,
            vec![
                (3, vec!["a", "b"]),
                // `u = 200; char *s = 0;`: two statements on a line, no point.
                (5, vec!["a", "b", "u", "x"]),
                // `if (a) y++;`: the lone body shares its line.
                // The `for` body: `i` and then `z`, `static` `t` (never a point itself).
                (10, vec!["a", "b", "i", "t", "u", "x"]),
                (11, vec!["a", "b", "i", "t", "u", "x", "z"]),
                // A case's body: its own declarations are passed by the jump.
                (15, vec!["a", "b", "u", "x"]),
                (16, vec!["a", "b", "u", "x"]),
                (17, vec!["a", "b", "u", "x"]),
            ]
        );
        assert!(plan.points[0]
            .names
            .iter()
            .any(|r| r.name == "b" && r.unsigned));
        assert!(plan.points[1]
            .names
            .iter()
            .any(|r| r.name == "u" && r.unsigned));
        assert!(plan.points[1]
            .names
            .iter()
            .any(|r| r.name == "x" && !r.unsigned));
    }

    #[test]
    fn a_function_that_jumps_reads_only_what_no_jump_can_pass() {
        let text = "int f(int a) {\n\
                    \x20 int x = 1;\n\
                    \x20 a++;\n\
                    \x20 int y = 2;\n\
                    lbl:\n\
                    \x20 a--;\n\
                    \x20 { int z = 3;\n\
                    \x20   x++;\n\
                    \x20 }\n\
                    \x20 if (a > 0) goto lbl;\n\
                    \x20 int x2 = 5;\n\
                    \x20 return x + y;\n\
                    }\n\
                    int g(int a) {\n\
                    \x20 int a2 = a;\n\
                    \x20 { int a = 3;\n\
                    \x20   a2++;\n\
                    \x20 }\n\
                    \x20 return a2;\n\
                    }\n";
        let plan = points(text).unwrap();
        let got: Vec<(u32, Vec<&str>)> = plan.points.iter().map(|p| (p.line, names(p))).collect();
        assert_eq!(
            got,
            vec![
                (1, vec!["a"]),
                (2, vec!["a", "x"]),
                (3, vec!["a", "x"]),
                (5, vec!["a", "x", "y"]),
                (7, vec!["a", "x", "y"]),
                (10, vec!["a", "x", "y"]),
                (11, vec!["a", "x", "y"]),
                // `a` is declared twice in `g`: never read there.
                (14, vec![]),
                (16, vec!["a2"]),
                (18, vec!["a2"]),
            ]
        );
    }

    #[test]
    fn a_program_without_a_place_for_the_prototype_or_with_errors_has_no_plan() {
        assert!(points("#ifdef X\nint f(void) { return 0; }\n#endif\n").is_err());
        assert!(points("int f( { return 0; }\n").is_err());
        assert!(points("int f(void) { int x = 1 +; return x; }\n").is_err());
        // An error in a declaration outside the functions (Csmith's `signed : 0;`) is not one.
        let csmith =
            "struct S { signed f1 : 10; signed : 0; };\nint f(int a) {\n  a++;\n  return a;\n}\n";
        assert_eq!(points(csmith).unwrap().points.len(), 2);
    }
}
