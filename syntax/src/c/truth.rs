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

/// Where each line's code begins and ends (its first and last byte that is no blank), so that
/// whether a statement stands alone on its line costs no scan of the line (a program of one
/// long line holds every statement on it).
struct Lines {
    /// For each line (rows as tree-sitter counts them, by `\n`): where its code begins and
    /// ends (the byte after its last character that is no blank), none for a blank line.
    code: Vec<Option<(usize, usize)>>,
}

impl Lines {
    fn of(text: &str) -> Lines {
        let mut code = Vec::new();
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            let first = line.find(|c: char| !c.is_whitespace());
            let end = line.trim_end().len();
            code.push(first.map(|f| (start + f, start + end)));
            start += line.len();
        }
        Lines { code }
    }

    /// Whether `n` stands alone on its line: it begins the line's code, ends on that line, and
    /// after it the line holds nothing but a comment.
    fn alone(&self, n: Node, text: &str) -> bool {
        let row = n.start_position().row;
        if row != n.end_position().row {
            return false;
        }
        let Some(Some((first, end))) = self.code.get(row).copied() else {
            return false;
        };
        if first != n.start_byte() {
            return false;
        }
        if end <= n.end_byte() {
            return true;
        }
        // Only the line's first statement gets here: the scan is once per line. (Both ends
        // are character boundaries: a comment after the statement may hold any character.)
        let rest = text[n.end_byte()..end].trim();
        rest.starts_with("//") || (rest.starts_with("/*") && rest.ends_with("*/"))
    }
}

/// Each node of `root` entered (before its children) and left (after them), with its
/// ancestors (outermost first), without recursion and without `Node::parent`, which walks
/// from the root each time (quadratic on a program nested 10^4 deep).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    Enter,
    Leave,
}

fn walk<'t>(root: Node<'t>, f: &mut impl FnMut(Visit, Node<'t>, &[Node<'t>])) {
    let mut cursor = root.walk();
    let mut ancestors: Vec<Node<'t>> = Vec::new();
    loop {
        let node = cursor.node();
        f(Visit::Enter, node, &ancestors);
        if cursor.goto_first_child() {
            ancestors.push(node);
            continue;
        }
        f(Visit::Leave, node, &ancestors);
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            // The cursor came up to a node it went down from: its ancestors' top.
            let Some(parent) = ancestors.pop() else {
                return;
            };
            f(Visit::Leave, parent, &ancestors);
        }
    }
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
        // Functions above an error, errors above a block (short-circuited: a walk of the
        // ancestors only for an error or a block).
        let mut at = None;
        walk(root, &mut |visit, n, above| {
            if at.is_some() || visit == Visit::Leave {
                return;
            }
            let error_in_function = (n.is_error() || n.is_missing())
                && above.iter().any(|a| a.kind() == "function_definition");
            let block_in_error = matches!(n.kind(), "compound_statement" | "function_definition")
                && above.iter().any(|a| a.is_error());
            if error_in_function || block_in_error {
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
    let code = Lines::of(text);
    let mut points = Vec::new();
    let mut c = root.walk();
    let functions: Vec<Node> = root
        .named_children(&mut c)
        .filter(|n| n.kind() == "function_definition")
        .collect();
    for f in functions {
        points.extend(in_function(f, text, &syntax.lines, &code));
    }
    Ok(Plan { points, prototype })
}

/// At most this many variables a point records (the innermost first): the copy stays
/// proportional to the program, also one with thousands of locals in one block.
pub const MAX_NAMES: usize = 64;

/// A block's names readable after the declarations passed so far in it.
struct Scope {
    /// The node whose subtree the scope covers (a block, or a `for`'s body).
    owner: usize,
    names: Vec<Recorded>,
    /// Whether its declarations count (not a `switch`'s block; in a function that jumps, only
    /// the function's own block).
    active: bool,
}

fn in_function(
    f: Node,
    text: &str,
    lines: &morphtrace_schema::lines::LineIndex,
    code: &Lines,
) -> Vec<Point> {
    let Some(body) = f.child_by_field_name("body") else {
        return Vec::new();
    };
    // Names the function declares more than once, and its first jump or label.
    let mut count: std::collections::HashMap<String, u32> = Default::default();
    let mut first_jump: Option<usize> = None;
    crate::trees::visit(f, &mut |n| match n.kind() {
        "declaration" | "parameter_declaration" => {
            for (name, _) in declared(n, text, true) {
                *count.entry(name).or_default() += 1;
            }
        }
        "goto_statement" | "labeled_statement" => {
            first_jump = Some(first_jump.map_or(n.start_byte(), |j| j.min(n.start_byte())));
        }
        _ => {}
    });
    let once = |name: &str| count.get(name).copied().unwrap_or(0) <= 1;
    let recorded = |names: Vec<(String, Option<bool>)>| -> Vec<Recorded> {
        names
            .into_iter()
            .filter(|(n, _)| once(n))
            .filter_map(|(name, kind)| {
                Some(Recorded {
                    name,
                    unsigned: kind?,
                })
            })
            .collect()
    };
    let params: Vec<Recorded> = {
        let mut decl = f.child_by_field_name("declarator");
        // Down to the function declarator (`int *f(int a)` is a pointer declarator above it).
        while let Some(d) = decl {
            if d.kind() == "function_declarator" {
                break;
            }
            decl = d.child_by_field_name("declarator");
        }
        let mut out = Vec::new();
        if let Some(list) = decl.and_then(|d| d.child_by_field_name("parameters")) {
            let mut c = list.walk();
            for p in list.named_children(&mut c) {
                if p.kind() == "parameter_declaration" {
                    out.extend(recorded(declared(p, text, false)));
                }
            }
        }
        out
    };
    // One walk in source order: a block's scope grows as its declarations are passed (left),
    // and each point reads the scopes open around it. No `Node::parent` and no rescan of a
    // block per point: linear in the program (but for the names read, at most MAX_NAMES).
    let mut points = Vec::new();
    let mut scopes: Vec<Scope> = Vec::new();
    let enter = |n: Node, above: &[Node], scopes: &mut Vec<Scope>, points: &mut Vec<Point>| {
        let parent = above.last();
        if n.kind() == "compound_statement" {
            let switch_block = parent.is_some_and(|p| p.kind() == "switch_statement");
            scopes.push(Scope {
                owner: n.id(),
                names: Vec::new(),
                active: !switch_block && (first_jump.is_none() || n == body),
            });
        }
        if let Some(p) = parent.filter(|p| p.kind() == "for_statement") {
            let is_body = p.child_by_field_name("body").is_some_and(|b| b == n);
            if is_body && first_jump.is_none() {
                let names = p
                    .child_by_field_name("initializer")
                    .filter(|i| i.kind() == "declaration")
                    .map(|i| recorded(declared(i, text, false)))
                    .unwrap_or_default();
                // Before the body's own block scope, so that it is the outer of the two.
                let at = scopes
                    .iter()
                    .rposition(|s| s.owner == n.id())
                    .unwrap_or(scopes.len());
                scopes.insert(
                    at,
                    Scope {
                        owner: n.id(),
                        names,
                        active: true,
                    },
                );
            }
        }
        let in_sequence = parent.is_some_and(|p| {
            matches!(p.kind(), "compound_statement" | "case_statement")
                || (p.kind() == "labeled_statement" && n.kind() != "declaration")
        });
        if in_sequence
            && POINT_KINDS.contains(&n.kind())
            && n.named_child_count() + usize::from(n.kind() != "expression_statement") > 0
            && !(n.kind() == "declaration"
                && has_specifier(n, text, &["static", "extern", "typedef"]))
            && code.alone(n, text)
        {
            let mut names: Vec<Recorded> = scopes
                .iter()
                .rev()
                .filter(|s| s.active)
                .flat_map(|s| s.names.iter().rev())
                .chain(params.iter())
                .take(MAX_NAMES)
                .cloned()
                .collect();
            names.sort();
            points.push(Point {
                line: lines.line_of(n.start_byte()),
                offset: n.start_byte(),
                names,
            });
        }
    };
    let leave = |n: Node, above: &[Node], scopes: &mut Vec<Scope>| {
        // A declaration passed in a block: its names are readable from here on in the block.
        if n.kind() == "declaration" {
            if let (Some(p), Some(top)) = (above.last(), scopes.last_mut()) {
                if p.kind() == "compound_statement"
                    && top.owner == p.id()
                    && top.active
                    && first_jump.is_none_or(|j| n.end_byte() <= j)
                {
                    top.names.extend(recorded(declared(n, text, false)));
                }
            }
        }
        while scopes.last().is_some_and(|s| s.owner == n.id()) {
            scopes.pop();
        }
    };
    walk(f, &mut |visit, n, above| match visit {
        Visit::Enter => enter(n, above, &mut scopes, &mut points),
        Visit::Leave => leave(n, above, &mut scopes),
    });
    points
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
    fn a_program_nested_deep_or_with_thousands_of_locals_gets_points_with_at_most_max_names() {
        // 3,000 blocks nested over 3,000 lines, a statement in the innermost.
        let mut deep = String::from("int f(int a) {\n  int g = a;\n");
        deep.push_str(&"{\n".repeat(3000));
        deep.push_str("  g++;\n");
        deep.push_str(&"}\n".repeat(3000));
        deep.push_str("  return g;\n}\n");
        let plan = points(&deep).unwrap();
        let got: Vec<(u32, Vec<&str>)> = plan.points.iter().map(|p| (p.line, names(p))).collect();
        assert_eq!(
            got,
            vec![
                (1, vec!["a"]),
                (3002, vec!["a", "g"]),
                (6003, vec!["a", "g"])
            ]
        );
        // 5,000 locals in one block, each declared on a line of its own.
        let mut wide = String::from("int f(void) {\n");
        for i in 0..5000 {
            wide.push_str(&format!("  int v{i} = {i};\n"));
        }
        wide.push_str("  return v0;\n}\n");
        let plan = points(&wide).unwrap();
        assert_eq!(plan.points.len(), 5001);
        assert!(plan.points.iter().all(|p| p.names.len() <= MAX_NAMES));
        // The last point reads the innermost (latest) MAX_NAMES.
        let last = &plan.points[5000].names;
        assert_eq!(last.len(), MAX_NAMES);
        assert!(last.iter().any(|r| r.name == "v4999") && !last.iter().any(|r| r.name == "v0"));
    }

    #[test]
    fn a_comment_of_any_characters_after_a_statement_leaves_it_alone_on_its_line() {
        let text = "int f(int a) {\n  a++; // café ☕\n  a--; /* naïve */\n  a++; a--; // é\n  return a; /* é */ a++;\n}\n";
        let plan = points(text).unwrap();
        let lines: Vec<u32> = plan.points.iter().map(|p| p.line).collect();
        assert_eq!(lines, [1, 2]);
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
