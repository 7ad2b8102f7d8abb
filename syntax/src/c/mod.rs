//! C programs on a real syntax tree (tree-sitter-c): the syntax kind of each line, the statements
//! Cod may delete, and programs rejected because they read their environment.

use crate::trees::visit;
use crate::variant::{Deletable, LineKinds};
use crate::Statements;
use morphtrace_schema::lines::{Breaks, LineIndex};
use tree_sitter::{Node, Parser, Tree};

pub mod truth;

/// Calls that make a run depend on the environment or on time, so that P and P' may differ
/// for reasons other than the profiler.
const ENVIRONMENT: &[&str] = &[
    "getenv",
    "secure_getenv",
    "scanf",
    "fscanf",
    "sscanf",
    "fgets",
    "gets",
    "getchar",
    "getc",
    "fgetc",
    "fread",
    "read",
    "fopen",
    "open",
    "time",
    "clock",
    "gettimeofday",
    "clock_gettime",
    "rand",
    "srand",
    "random",
    "getpid",
    "system",
    "popen",
    "fork",
];

/// Statements that jump away: deleting one, even unexecuted, can make code the compiler removed
/// as dead live again (coverage.md), which gives weak inconsistencies that are not profiler bugs.
const JUMPS: &[&str] = &[
    "return_statement",
    "break_statement",
    "continue_statement",
    "goto_statement",
    "labeled_statement",
];
const NORETURN: &[&str] = &[
    "abort",
    "exit",
    "_Exit",
    "_exit",
    "longjmp",
    "__builtin_unreachable",
];

const DELETABLE: &[&str] = &[
    "expression_statement",
    "compound_statement",
    "if_statement",
    "for_statement",
    "while_statement",
    "do_statement",
    "switch_statement",
];

/// A local declaration: its bytes, first line and declared names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub names: Vec<String>,
    /// `const`-qualified (`const int32_t l_5[2] = ...`).
    pub is_const: bool,
}

/// Where each identifier of a text starts (byte offsets, ascending): whole runs of
/// `[A-Za-z0-9_]`, collected in one pass so that counting a name's uses costs a lookup, not a
/// scan of the program per declaration and name (Csmith programs have hundreds of each).
struct Identifiers<'t>(std::collections::HashMap<&'t str, Vec<usize>>);

impl<'t> Identifiers<'t> {
    fn of(text: &'t str) -> Self {
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let bytes = text.as_bytes();
        let mut at: std::collections::HashMap<&str, Vec<usize>> = Default::default();
        let mut i = 0;
        while i < bytes.len() {
            if ident(bytes[i]) {
                let start = i;
                while i < bytes.len() && ident(bytes[i]) {
                    i += 1;
                }
                at.entry(&text[start..i]).or_default().push(start);
            } else {
                i += 1;
            }
        }
        Identifiers(at)
    }

    /// How often `name` occurs as a whole identifier outside `skip`.
    fn uses(&self, name: &str, skip: &std::ops::Range<usize>) -> usize {
        self.0
            .get(name)
            .map_or(0, |at| at.iter().filter(|i| !skip.contains(i)).count())
    }
}

/// Declarations whose code gcc may legitimately stop emitting in a variant (same offsets:
/// deletions are blanked): a local the variant leaves unused (no code even at -O0), or a
/// `const` local that lost a use (gcc folds constant reads of const locals at -O0 and
/// materializes the object only where its address or a variable index needs it). Returns their
/// lines.
pub fn losing_uses(p: &str, variant: &str, decls: &[Declaration]) -> Vec<u32> {
    let (in_p, in_variant) = (Identifiers::of(p), Identifiers::of(variant));
    decls
        .iter()
        .filter(|d| {
            let skip = d.start..d.end;
            let before: Vec<usize> = d.names.iter().map(|n| in_p.uses(n, &skip)).collect();
            let after: Vec<usize> = d.names.iter().map(|n| in_variant.uses(n, &skip)).collect();
            let unused = before.iter().all(|&b| b > 0) && after.iter().all(|&a| a == 0);
            let const_lost = d.is_const && before.iter().zip(&after).any(|(b, a)| a < b);
            unused || const_lost
        })
        .map(|d| d.line)
        .collect()
}

/// A function definition's lines (0-based; see [`CSyntax::functions`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionSpan {
    pub name: String,
    pub start: u32,
    pub end: u32,
    pub first_code: u32,
}

impl FunctionSpan {
    pub fn holds(&self, line: u32) -> bool {
        (self.start..=self.end).contains(&line)
    }
}

pub struct CSyntax {
    text: String,
    tree: Tree,
    /// Lines as gcc and clang count them (tree-sitter's rows count `\n` only).
    lines: LineIndex,
}

impl CSyntax {
    pub fn parse(text: &str) -> Option<CSyntax> {
        let mut p = Parser::new();
        p.set_language(&tree_sitter_c::LANGUAGE.into()).ok()?;
        // tree-sitter parses without recursion; the walks below do not recurse either, so a
        // program nested 10^5 deep is analyzed, not fatal.
        let tree = p.parse(text, None)?;
        Some(CSyntax {
            text: text.to_string(),
            tree,
            lines: LineIndex::new(text, Breaks::C),
        })
    }

    /// Whether the parser had to recover from errors (the program is not plain C it understands).
    pub fn has_errors(&self) -> bool {
        self.tree.root_node().has_error()
    }

    /// What a reduction may blank, outer before inner (by start, the longer first): each item of
    /// a block or of a `case`'s body, and each definition or declaration at file scope but
    /// `main`'s. Blanking one leaves the program well formed (a block may be empty), though
    /// perhaps not compilable: a use may lose its declaration, which the compiler then refuses.
    pub fn removable(&self) -> Vec<(usize, usize)> {
        let text = &self.text;
        let mut out = Vec::new();
        visit(self.tree.root_node(), &mut |n| {
            let kind = n.kind();
            if !matches!(
                kind,
                "compound_statement" | "case_statement" | "translation_unit"
            ) {
                return;
            }
            let value = n.child_by_field_name("value").map(|v| v.id());
            let mut c = n.walk();
            for item in n.named_children(&mut c) {
                if item.kind() == "comment" || Some(item.id()) == value || item.is_missing() {
                    continue;
                }
                if kind == "translation_unit" {
                    let is_main = item.kind() == "function_definition"
                        && item
                            .child_by_field_name("declarator")
                            .and_then(|d| d.child_by_field_name("declarator"))
                            .is_some_and(|d| &text[d.byte_range()] == "main");
                    if is_main {
                        continue;
                    }
                }
                out.push((item.start_byte(), item.end_byte()));
            }
        });
        out.sort_by_key(|&(start, end)| (start, std::cmp::Reverse(end)));
        out.dedup();
        out
    }

    /// Initializers a reduction may shrink, outermost first: each brace-enclosed list of 16
    /// bytes or more (`{1, 2, …}`, Csmith's tables), to stand in for by `{0}`, which
    /// initializes any array, struct or union in C.
    pub fn long_initializers(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        visit(self.tree.root_node(), &mut |n| {
            if n.kind() == "initializer_list" && n.end_byte() - n.start_byte() >= 16 {
                out.push((n.start_byte(), n.end_byte()));
            }
        });
        out
    }

    /// The lines (0-based) that hold comments and nothing else.
    pub fn comment_lines(&self) -> Vec<u32> {
        let mut code = vec![false; self.lines.len()];
        let mut comment = vec![false; self.lines.len()];
        // Leaves only: a comment, or a token of code.
        visit(self.tree.root_node(), &mut |n| {
            if n.child_count() > 0 {
                return;
            }
            let (first, last) = (
                self.lines.line_of(n.start_byte()),
                self.lines
                    .line_of(n.end_byte().saturating_sub(1).max(n.start_byte())),
            );
            let marks = if n.kind() == "comment" {
                &mut comment
            } else {
                &mut code
            };
            for l in first..=last {
                if let Some(m) = marks.get_mut(l as usize) {
                    *m = true;
                }
            }
        });
        (0..self.lines.len() as u32)
            .filter(|&l| comment[l as usize] && !code[l as usize])
            .collect()
    }

    fn called(&self) -> Vec<&str> {
        let text = &self.text;
        let mut out = Vec::new();
        visit(self.tree.root_node(), &mut |n| {
            if n.kind() == "call_expression" {
                if let Some(f) = n.child_by_field_name("function") {
                    if f.kind() == "identifier" {
                        out.push(&text[f.byte_range()]);
                    }
                }
            }
        });
        out
    }

    /// The program's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The names of the variables the program defines at file scope, in order (global and
    /// `static`; not functions, `extern` declarations or types): what a debugger lists as the
    /// program's globals.
    pub fn globals(&self) -> Vec<String> {
        let text = &self.text;
        let root = self.tree.root_node();
        let mut out = Vec::new();
        let mut c = root.walk();
        for n in root.children(&mut c) {
            if n.kind() != "declaration" {
                continue;
            }
            let mut s = n.walk();
            let external = n.children(&mut s).any(|k| {
                k.kind() == "storage_class_specifier" && &text[k.byte_range()] == "extern"
            });
            if external {
                continue;
            }
            let mut d = n.walk();
            for decl in n.children_by_field_name("declarator", &mut d) {
                let mut cur = decl;
                let mut function = false;
                while let Some(inner) = declarator_below(cur) {
                    // `int f(int);`, but not `int (*fp)(int);`, a variable.
                    function |= cur.kind() == "function_declarator" && inner.kind() == "identifier";
                    cur = inner;
                }
                if cur.kind() == "identifier" && !function {
                    out.push(text[cur.byte_range()].to_string());
                }
            }
        }
        out
    }

    /// Every name declared inside a function (in a block or a `for`'s initializer) with the
    /// (0-based) line of its declaration: where a debugger shows it before it holds a value.
    pub fn local_names(&self) -> Vec<(String, u32)> {
        let text = &self.text;
        let mut out = Vec::new();
        visit(self.tree.root_node(), &mut |n| {
            if n.kind() != "declaration"
                || n.parent().is_none_or(|p| p.kind() == "translation_unit")
            {
                return;
            }
            let mut c = n.walk();
            for d in n.children_by_field_name("declarator", &mut c) {
                let mut cur = d;
                while let Some(inner) = declarator_below(cur) {
                    cur = inner;
                }
                if cur.kind() == "identifier" {
                    out.push((
                        text[cur.byte_range()].to_string(),
                        self.lines.line_of(n.start_byte()),
                    ));
                }
            }
        });
        out
    }

    /// The program's function definitions in source order, each with its lines (0-based): where
    /// it begins (its declaration specifiers), where its body closes, and the first line of its
    /// body where unoptimized code runs after the prologue (the first statement, or declaration
    /// with an initializer, that is not `static`; the closing brace where there is none). Where a
    /// native debugger at `-O0` places a breakpoint on the function.
    pub fn functions(&self) -> Vec<FunctionSpan> {
        let text = &self.text;
        let root = self.tree.root_node();
        let mut out = Vec::new();
        let mut c = root.walk();
        for n in root.children(&mut c) {
            if n.kind() != "function_definition" {
                continue;
            }
            let (Some(declarator), Some(body)) = (
                n.child_by_field_name("declarator"),
                n.child_by_field_name("body"),
            ) else {
                continue;
            };
            let mut cur = declarator;
            while let Some(inner) = declarator_below(cur) {
                cur = inner;
            }
            let mut b = body.walk();
            let runs = body.named_children(&mut b).find(|item| match item.kind() {
                "comment" => false,
                "declaration" => {
                    let mut k = item.walk();
                    let is_static = item.children(&mut k).any(|s| {
                        s.kind() == "storage_class_specifier" && &text[s.byte_range()] == "static"
                    });
                    let mut d = item.walk();
                    let initialized = item
                        .children_by_field_name("declarator", &mut d)
                        .any(|d| d.kind() == "init_declarator");
                    initialized && !is_static
                }
                _ => true,
            });
            let first_code = runs.map_or(body.end_byte().saturating_sub(1), |r| r.start_byte());
            out.push(FunctionSpan {
                name: text[cur.byte_range()].to_string(),
                start: self.lines.line_of(n.start_byte()),
                end: self.lines.line_of(body.end_byte().saturating_sub(1)),
                first_code: self.lines.line_of(first_code),
            });
        }
        out
    }

    /// Local declarations (in a block) with the names they declare.
    pub fn declarations(&self) -> Vec<Declaration> {
        let text = &self.text;
        let mut out = Vec::new();
        visit(self.tree.root_node(), &mut |n| {
            if n.kind() != "declaration"
                || n.parent().is_none_or(|p| p.kind() != "compound_statement")
            {
                return;
            }
            let mut names = Vec::new();
            let mut c = n.walk();
            for d in n.children_by_field_name("declarator", &mut c) {
                // `x`, `x = 1`, `*x[3] = {...}`: the identifier at the bottom of the declarator.
                let mut cur = d;
                while let Some(inner) = cur.child_by_field_name("declarator") {
                    cur = inner;
                }
                if cur.kind() == "identifier" {
                    names.push(text[cur.byte_range()].to_string());
                }
            }
            // `const int x[2]` or `struct S ** const x[2]`: a `const` before the initializer.
            let head_end = text[n.byte_range()]
                .find('=')
                .map_or(n.end_byte(), |i| n.start_byte() + i);
            let is_const = text[n.start_byte()..head_end]
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w == "const");
            if !names.is_empty() {
                out.push(Declaration {
                    start: n.start_byte(),
                    end: n.end_byte(),
                    line: self.lines.line_of(n.start_byte()),
                    names,
                    is_const,
                });
            }
        });
        out
    }
}

impl Statements for CSyntax {
    /// Why the program cannot be used (it reads its environment, or has no `main`).
    fn rejection(&self) -> Option<String> {
        let text = &self.text;
        let calls = self.called();
        if let Some(c) = calls.iter().find(|c| ENVIRONMENT.contains(c)) {
            return Some(format!("reads its environment or the clock: calls {c}()"));
        }
        let mut has_main = false;
        visit(self.tree.root_node(), &mut |n| {
            if n.kind() == "function_declarator" {
                if let Some(d) = n.child_by_field_name("declarator") {
                    if &text[d.byte_range()] == "main" {
                        has_main = true;
                    }
                }
            }
        });
        (!has_main).then(|| "has no main function".to_string())
    }

    /// The syntax kind of every line: the smallest named node covering the line's text, with
    /// lines of braces, `else`, labels and `case` named as such.
    fn line_kinds(&self) -> LineKinds {
        let text = &self.text;
        let mut kinds = Vec::new();
        for l in 0..self.lines.len() as u32 {
            let offset = self.lines.start(l);
            let line = self.lines.line(text, l);
            let trimmed = line.trim();
            let kind = if let Some(k) = crate::variant::structural_kind(line, &[]) {
                k.to_string()
            } else {
                let start = offset + (line.len() - line.trim_start().len());
                let end = offset + line.trim_end().len();
                match self
                    .tree
                    .root_node()
                    .named_descendant_for_byte_range(start, end)
                {
                    Some(n) => match n.kind() {
                        "labeled_statement" if trimmed.ends_with(':') => "label".into(),
                        "case_statement" => "case".into(),
                        "preproc_include" | "preproc_def" | "preproc_call" => "preproc".into(),
                        "translation_unit" | "comment" => "comment".into(),
                        k => k.to_string(),
                    },
                    None => "?".into(),
                }
            };
            kinds.push(kind);
        }
        kinds
    }

    /// Statements that may be deleted when unexecuted: a whole statement inside a block or a
    /// `case` (never the only body of a brace-less `if`/loop, which gcc drops with its
    /// condition), containing no jump and no call to a noreturn function.
    fn deletable(&self) -> Vec<Deletable> {
        collect_candidates(self.tree.root_node(), &self.text, &self.lines)
    }
}

/// Deletable statements below `root`, outer statements before the ones nested in them (as a
/// pre-order walk lists them). One bottom-up pass, without recursion: Csmith nests deeply, and a
/// hostile program deeper still.
fn collect_candidates(root: Node, text: &str, lines: &LineIndex) -> Vec<Deletable> {
    struct Open<'t> {
        node: Node<'t>,
        /// Its rank in a pre-order walk.
        order: usize,
        jumps: bool,
    }
    let own_jump = |n: Node| {
        JUMPS.contains(&n.kind())
            || (n.kind() == "call_expression"
                && n.child_by_field_name("function")
                    .is_some_and(|f| NORETURN.contains(&&text[f.byte_range()])))
    };
    let mut found: Vec<(usize, Deletable)> = Vec::new();
    let mut order = 0;
    let mut stack = vec![Open {
        node: root,
        order,
        jumps: own_jump(root),
    }];
    let mut cursor = root.walk();
    'walk: loop {
        if cursor.goto_first_child() {
            order += 1;
            let node = cursor.node();
            stack.push(Open {
                node,
                order,
                jumps: own_jump(node),
            });
            continue;
        }
        // Close nodes until one has a next sibling.
        while let Some(done) = stack.pop() {
            let n = done.node;
            // The parent is the next one down the stack (tree-sitter's `parent()` walks from
            // the root: quadratic on deep programs).
            let in_list = stack
                .last()
                .is_some_and(|p| matches!(p.node.kind(), "compound_statement" | "case_statement"));
            if DELETABLE.contains(&n.kind()) && in_list && !done.jumps {
                found.push((
                    done.order,
                    Deletable {
                        start: n.start_byte(),
                        end: n.end_byte(),
                        first_line: lines.line_of(n.start_byte()),
                        last_line: lines.line_of(n.end_byte()),
                        kind: n.kind().to_string(),
                    },
                ));
            }
            let Some(parent) = stack.last_mut() else {
                break 'walk;
            };
            parent.jumps |= done.jumps;
            if cursor.goto_next_sibling() {
                order += 1;
                let node = cursor.node();
                stack.push(Open {
                    node,
                    order,
                    jumps: own_jump(node),
                });
                continue 'walk;
            }
            cursor.goto_parent();
        }
        break;
    }
    // Outer statements before the ones nested in them, as a pre-order walk lists them.
    found.sort_by_key(|(order, _)| *order);
    found.into_iter().map(|(_, c)| c).collect()
}

/// Every identifier a C program writes, outside every function (its globals, functions,
/// enumerators, types, macros) and in each function definition (parameters, locals, uses): an
/// over-approximation of the names a debugger can see at a line, so that a name absent from both
/// is surely not in scope there.
#[derive(Debug, Default)]
pub struct WrittenNames {
    outside: std::collections::HashSet<String>,
    /// Each function definition's lines (0-based, first and last) and the identifiers in it.
    functions: Vec<(u32, u32, std::collections::HashSet<String>)>,
}

impl WrittenNames {
    /// Whether `name` is written nowhere outside every function, nor in the function definition
    /// that holds `line`; `None` where no function holds it.
    pub fn foreign_at(&self, name: &str, line: u32) -> Option<bool> {
        let (_, _, inside) = self
            .functions
            .iter()
            .find(|(start, end, _)| (*start..=*end).contains(&line))?;
        Some(!inside.contains(name) && !self.outside.contains(name))
    }
}

impl CSyntax {
    pub fn written_names(&self) -> WrittenNames {
        let text = &self.text;
        let mut out = WrittenNames::default();
        let root = self.tree.root_node();
        let mut c = root.walk();
        for item in root.children(&mut c) {
            let mut names = std::collections::HashSet::new();
            visit(item, &mut |n| {
                if matches!(n.kind(), "identifier" | "type_identifier") {
                    names.insert(text[n.byte_range()].to_string());
                }
            });
            if item.kind() == "function_definition" {
                out.functions.push((
                    self.lines.line_of(item.start_byte()),
                    self.lines.line_of(item.end_byte().saturating_sub(1)),
                    names,
                ));
            } else {
                out.outside.extend(names);
            }
        }
        // A function's own name is seen from everywhere.
        for f in self.functions() {
            out.outside.insert(f.name);
        }
        out
    }
}

/// Whether a C expression's outermost operator (inside any parentheses) is one whose result C
/// types `int`, 0 or 1, where C++ types it `bool`: a relational or equality comparison, `&&`,
/// `||` or `!`. `None` when the text is not one C expression.
pub fn is_comparison(expression: &str) -> Option<bool> {
    // As a statement in a function: one expression statement, or it was not one expression.
    let text = format!("void f(void) {{\n({expression}\n);\n}}\n");
    let mut p = Parser::new();
    p.set_language(&tree_sitter_c::LANGUAGE.into()).ok()?;
    let tree = p.parse(&text, None)?;
    let root = tree.root_node();
    if root.has_error() {
        return None;
    }
    let body = root
        .named_child(0)
        .filter(|f| f.kind() == "function_definition")?
        .child_by_field_name("body")?;
    if body.named_child_count() != 1 {
        return None;
    }
    let mut e = body
        .named_child(0)
        .filter(|s| s.kind() == "expression_statement")?
        .named_child(0)?;
    while e.kind() == "parenthesized_expression" {
        e = e.named_child(0)?;
    }
    let operator = |n: Node| {
        n.child_by_field_name("operator")
            .map(|o| text[o.byte_range()].to_string())
    };
    Some(match e.kind() {
        "binary_expression" => matches!(
            operator(e).as_deref(),
            Some("<" | ">" | "<=" | ">=" | "==" | "!=" | "&&" | "||")
        ),
        "unary_expression" => operator(e).as_deref() == Some("!"),
        _ => false,
    })
}

/// The declarator inside one: its field, or a parenthesized declarator's child (`(*fp)`).
fn declarator_below<'t>(n: tree_sitter::Node<'t>) -> Option<tree_sitter::Node<'t>> {
    n.child_by_field_name("declarator").or_else(|| {
        (n.kind() == "parenthesized_declarator")
            .then(|| n.named_child(0))
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str = "#include <stdio.h>\nint g;\nint main(void) {\n    if (g)\n        g = 2;\n    if (g) {\n        g = 3;\n        return 1;\n    } else {\n        g = 4;\n    }\nlbl:\n    g++;\n    switch (g) {\n    case 1:\n        g = 5;\n        break;\n    }\n    printf(\"%d\\n\", g);\n    return 0;\n}\n";

    #[test]
    fn kinds_of_lines() {
        let s = CSyntax::parse(PROG).unwrap();
        let k = s.line_kinds();
        assert_eq!(k[0], "preproc");
        assert_eq!(k[1], "declaration");
        assert_eq!(k[2], "function_definition");
        assert_eq!(k[3], "if_statement");
        assert_eq!(k[4], "expression_statement");
        assert_eq!(k[8], "else");
        assert_eq!(k[10], "brace");
        assert_eq!(k[11], "label");
        assert_eq!(k[14], "case");
        assert_eq!(k[16], "break_statement");
        assert_eq!(k[19], "return_statement");
    }

    #[test]
    fn a_reduction_blanks_items_of_blocks_and_of_the_file_but_main() {
        let p = "int g; /* a */\n// only a comment\nint f(int k) { return k; }\nint main(void) {\n  switch (g) {\n  case 1:\n    g = 5; // five\n    break;\n  }\n  if (g) { g = 2; }\n  return f(g);\n}\n";
        let s = CSyntax::parse(p).unwrap();
        let items: Vec<&str> = s.removable().iter().map(|&(a, b)| &p[a..b]).collect();
        assert_eq!(
            items,
            [
                "int g;",
                "int f(int k) { return k; }",
                "return k;",
                "switch (g) {\n  case 1:\n    g = 5; // five\n    break;\n  }",
                "case 1:\n    g = 5; // five\n    break;",
                "g = 5;",
                "break;",
                "if (g) { g = 2; }",
                "g = 2;",
                "return f(g);",
            ]
        );
        assert_eq!(s.comment_lines(), [1]);
        let t = "int a[4] = {1, 2, 3, 4};\nint b[2][3] = {{1, 2, 3}, {4, 5, 6}};\n";
        let s = CSyntax::parse(t).unwrap();
        let spans: Vec<&str> = s
            .long_initializers()
            .iter()
            .map(|&(a, b)| &t[a..b])
            .collect();
        assert_eq!(spans, ["{{1, 2, 3}, {4, 5, 6}}"], "short lists stay");
    }

    #[test]
    fn the_globals_are_the_file_scope_variables_it_defines() {
        let p = "#include <stdio.h>\nstatic int calls = 0, *p;\nextern int elsewhere;\nint f(int);\nint (*fp)(int) = 0;\nstruct pt { int x; } origin;\ntypedef int word;\nconst char *names[2];\nint f(int k) {\n  static int inner;\n  int local = k;\n  return local;\n}\n";
        let s = CSyntax::parse(p).unwrap();
        assert_eq!(s.globals(), ["calls", "p", "fp", "origin", "names"]);
        let locals = CSyntax::parse("int main(void) {\n  int a = 1;\n  for (int i = 0; i < 2; i++) {\n    int t, *q;\n  }\n  return 0;\n}\n").unwrap().local_names();
        let named: Vec<(&str, u32)> = locals.iter().map(|(n, l)| (n.as_str(), *l)).collect();
        assert_eq!(named, [("a", 1), ("i", 2), ("t", 3), ("q", 3)]);
    }

    #[test]
    fn functions_with_the_first_line_their_unoptimized_code_runs() {
        let p = "int g = 1;\n/* f */\nstatic int *\nf(int k)\n{\n  int a, *b;\n  static int s = 2;\n  int c = k;\n  return c;\n}\nint h(void) { }\nvoid m(void)\n{\n  // only\n  g++;\n}\n";
        let s = CSyntax::parse(p).unwrap();
        let f = s.functions();
        let spans: Vec<(&str, u32, u32, u32)> = f
            .iter()
            .map(|f| (f.name.as_str(), f.start, f.end, f.first_code))
            .collect();
        assert_eq!(
            spans,
            [("f", 2, 9, 7), ("h", 10, 10, 10), ("m", 11, 15, 14)]
        );
        assert!(!f.iter().any(|f| f.holds(0) || f.holds(1)));
        assert!(f[0].holds(2) && f[0].holds(9) && !f[0].holds(10));
    }

    #[test]
    fn declarations_left_unused_by_a_deletion() {
        let p = "int main(void) {\n    int a = 1, *b[2] = {0};\n    const int c[2] = {1, 2};\n    a = c[1];\n    return a;\n}\n";
        let s = CSyntax::parse(p).unwrap();
        let d = s.declarations();
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].names, vec!["a", "b"]);
        assert_eq!(d[1].names, vec!["c"]);
        assert!(!d[0].is_const && d[1].is_const);
        let v = p.replace("    a = c[1];", "    ;        ");
        assert_eq!(v.len(), p.len());
        // `c` is unused in the variant; `a`/`b` were never all used (b is not).
        assert_eq!(losing_uses(p, &v, &d), vec![2]);
        assert!(losing_uses(p, p, &d).is_empty());
        // A const local that loses one of two uses; a plain local that does is still used.
        let p2 = "int main(void) {\n    int * const c[2] = {0, 0};\n    int a = c[0] != 0;\n    a += c[1] != 0;\n    return a;\n}\n";
        let s2 = CSyntax::parse(p2).unwrap();
        let d2 = s2.declarations();
        let v2 = p2.replace("    a += c[1] != 0;", "    ;              ");
        assert_eq!(losing_uses(p2, &v2, &d2), vec![1]);
    }

    #[test]
    fn candidates_avoid_jumps_and_lone_bodies() {
        let s = CSyntax::parse(PROG).unwrap();
        let c: Vec<(u32, String)> = s
            .deletable()
            .into_iter()
            .map(|c| (c.first_line, c.kind))
            .collect();
        // Line 4 (`g = 2;`) is the only body of a brace-less if: not deletable.
        assert!(!c.iter().any(|(l, _)| *l == 4));
        // The if at line 5 contains a return; its then-block too.
        assert!(!c.iter().any(|(l, _)| *l == 5));
        assert!(c.contains(&(6, "expression_statement".into())));
        assert!(c.contains(&(9, "expression_statement".into())));
        assert!(c.contains(&(15, "expression_statement".into())));
        // The switch contains a break.
        assert!(!c.iter().any(|(_, k)| k == "switch_statement"));
        assert_eq!(s.rejection(), None);
        let env = "int main(void) { return getenv(\"X\") != 0; }";
        assert!(CSyntax::parse(env)
            .unwrap()
            .rejection()
            .unwrap()
            .contains("getenv"));
        let nomain = "int f(void) { return 0; }";
        assert!(CSyntax::parse(nomain).unwrap().rejection().is_some());
    }

    /// gcc and clang end lines at CR and CRLF too (checked with both): our lines must agree.
    #[test]
    fn lines_end_where_the_compilers_end_them() {
        let s = CSyntax::parse(PROG).unwrap();
        let want = (s.line_kinds(), s.deletable(), s.declarations());
        for br in ["\r", "\r\n"] {
            let text = PROG.replace('\n', br);
            let t = CSyntax::parse(&text).unwrap();
            assert_eq!(t.line_kinds(), want.0, "{br:?}");
            let lines = |c: &[Deletable]| -> Vec<(u32, u32)> {
                c.iter().map(|c| (c.first_line, c.last_line)).collect()
            };
            assert_eq!(lines(&t.deletable()), lines(&want.1), "{br:?}");
            let decl: Vec<u32> = t.declarations().iter().map(|d| d.line).collect();
            assert_eq!(decl, want.2.iter().map(|d| d.line).collect::<Vec<_>>());
        }
    }

    /// The walks do not recurse: a program nested 100,000 deep is analyzed.
    #[test]
    fn deep_programs_are_walked_without_recursion() {
        let n = 100_000;
        let text = format!(
            "int main(void) {{ int g = 0; {} g++; {} return g; }}\n",
            "{ ".repeat(n),
            "} ".repeat(n)
        );
        let s = CSyntax::parse(&text).unwrap();
        assert_eq!(s.rejection(), None);
        let c = s.deletable();
        assert!(
            c.len() > n,
            "every nested block and the statement: {}",
            c.len()
        );
        assert_eq!(s.declarations().len(), 1);
    }

    #[test]
    fn comparisons_are_told_from_other_expressions() {
        for e in [
            "n < 0",
            "(a == b)",
            "!x",
            "a && b || c",
            "((p != 0))",
            "x >= y + 1",
        ] {
            assert_eq!(super::is_comparison(e), Some(true), "{e}");
        }
        for e in [
            "i - i",
            "x",
            "(a < b) + 1",
            "-(a < b)",
            "a = b < c",
            "f(a < b)",
            "a ? b < c : d",
        ] {
            assert_eq!(super::is_comparison(e), Some(false), "{e}");
        }
        // Not one expression: a second statement, a comment eating the rest, nothing.
        for e in ["a < b); (c", "a < b /*", "", "int x"] {
            assert_eq!(super::is_comparison(e), None, "{e}");
        }
    }

    #[test]
    fn a_name_foreign_to_a_function_is_written_neither_there_nor_outside() {
        let text = "#define N 3\nint g;\nenum e { RED };\nint f(int k) {\n  int m = k + g;\n  return m;\n}\nint main(void) {\n  int n = f(N);\n  return n;\n}\n";
        let ids = CSyntax::parse(text).unwrap().written_names();
        // In f (lines 3..6): its parameter, local and uses, the globals, the enumerator, the macro
        // and main (a function's name) are seen; main's local is not.
        for name in ["k", "m", "g", "RED", "N", "main", "f"] {
            assert_eq!(ids.foreign_at(name, 4), Some(false), "{name}");
        }
        assert_eq!(ids.foreign_at("n", 4), Some(true));
        assert_eq!(
            ids.foreign_at("k", 8),
            Some(true),
            "f's parameter, from main"
        );
        assert_eq!(ids.foreign_at("n", 1), None, "no function holds line 1");
    }
}
