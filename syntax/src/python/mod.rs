//! Python by tree-sitter-python (the grammar family of Cod's C variants: one runtime, no
//! recursion on deep programs): the statement (or clause) each line belongs to, shared by the
//! recorder (coverage classes, Cod's variants) and the analyzer (the `ast_node` of a Python
//! line); [`statements`]: what Cod may delete.

pub mod sites;
pub mod statements;

use morphtrace_schema::lines::{Breaks, LineIndex};
use tree_sitter::{Node, Parser, Tree};

/// Statements as tree-sitter-python names them (simple ones and compound ones).
pub const STATEMENTS: &[&str] = &[
    "expression_statement",
    "return_statement",
    "pass_statement",
    "break_statement",
    "continue_statement",
    "raise_statement",
    "assert_statement",
    "delete_statement",
    "import_statement",
    "import_from_statement",
    "future_import_statement",
    "global_statement",
    "nonlocal_statement",
    "print_statement",
    "exec_statement",
    "type_alias_statement",
    "if_statement",
    "for_statement",
    "while_statement",
    "try_statement",
    "with_statement",
    "match_statement",
    "function_definition",
    "class_definition",
    "decorated_definition",
];

/// A Python program's syntax tree, with its lines as CPython counts them.
pub struct PythonTree {
    pub tree: Tree,
    /// Lines as CPython's tokenizer counts them (`\n`, `\r\n`, `\r`).
    pub lines: LineIndex,
}

impl PythonTree {
    pub fn parse(text: &str) -> Option<PythonTree> {
        let mut p = Parser::new();
        p.set_language(&tree_sitter_python::LANGUAGE.into()).ok()?;
        // tree-sitter-python ends lines at `\n` only; CPython also at a lone `\r`. The same
        // bytes with each lone `\r` as `\n` keep every offset.
        let tree = if text.contains('\r') {
            let b = text.as_bytes();
            let unix: Vec<u8> = b
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    if c == b'\r' && b.get(i + 1) != Some(&b'\n') {
                        b'\n'
                    } else {
                        c
                    }
                })
                .collect();
            p.parse(&unix, None)?
        } else {
            p.parse(text, None)?
        };
        Some(PythonTree {
            tree,
            lines: LineIndex::new(text, Breaks::C),
        })
    }

    /// tree-sitter-python had to recover from errors.
    pub fn has_error(&self) -> bool {
        self.tree.root_node().has_error()
    }

    /// The syntax kind of every line: the statement (or clause) the line's text belongs to,
    /// `else`, `except`, `finally` for those clauses' lines, `blank` and `comment`.
    pub fn line_kinds(&self, text: &str) -> Vec<&'static str> {
        let mut kinds = Vec::with_capacity(self.lines.len());
        for l in 0..self.lines.len() as u32 {
            let offset = self.lines.start(l);
            let line = self.lines.line(text, l);
            let trimmed = line.trim();
            if trimmed.is_empty() {
                kinds.push("blank");
                continue;
            }
            if trimmed.starts_with('#') {
                kinds.push("comment");
                continue;
            }
            let start = offset + (line.len() - line.trim_start().len());
            let end = offset + line.trim_end().len();
            let Some(mut n) = self
                .tree
                .root_node()
                .named_descendant_for_byte_range(start, end)
            else {
                kinds.push("?");
                continue;
            };
            // `a = 1; b = 2`: the block holding both; name the first.
            if matches!(n.kind(), "block" | "module") {
                let mut c = n.walk();
                let first = n.named_children(&mut c).find(|c| c.start_byte() == start);
                if let Some(first) = first {
                    n = first;
                }
            }
            // `x = 1` is an assignment inside an expression statement: name the statement
            // (the innermost node that starts where the line's text starts and is one).
            while !STATEMENTS.contains(&n.kind()) && n.kind() != "decorator" {
                match n.parent() {
                    Some(p) if p.start_byte() == n.start_byte() && p.kind() != "module" => n = p,
                    _ => break,
                }
            }
            kinds.push(match n.kind() {
                "else_clause" => "else",
                "except_clause" | "except_group_clause" => "except",
                "finally_clause" => "finally",
                "module" | "comment" => "comment",
                k => k,
            });
        }
        kinds
    }

    /// Whether a frame of `function` at `line` (0-based) runs a generator's code, and where: a
    /// generator expression (CPython names its code `<genexpr>`), or the innermost `def` of that
    /// name around the line whose own body yields (not a nested function's, lambda's or
    /// class's). A debugger's step that ends a generator ends where the consumer goes on, which
    /// bdb and pydevd place differently (and bdb's `next`, at times, nowhere).
    pub fn generator_at(&self, text: &str, function: &str, line: u32) -> Option<InGenerator> {
        if function == "<genexpr>" {
            return Some(InGenerator::Within);
        }
        let row = line as usize;
        let mut innermost: Option<Node> = None;
        let mut stack = vec![self.tree.root_node()];
        while let Some(n) = stack.pop() {
            if n.start_position().row > row || n.end_position().row < row {
                continue;
            }
            if n.kind() == "function_definition"
                && n.child_by_field_name("name")
                    .and_then(|m| text.get(m.byte_range()))
                    == Some(function)
            {
                innermost = Some(n);
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        let body = innermost?.child_by_field_name("body")?;
        if !yields(body) {
            return None;
        }
        Some(if on_last_statement(body, row) {
            InGenerator::LastStatement
        } else {
            InGenerator::Within
        })
    }
}

/// Where in a generator's code a frame is (`PythonTree::generator_at`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InGenerator {
    /// On the last statement its body can run: none after it in the text, and no loop of the
    /// function around it (after it, the generator can only end).
    LastStatement,
    /// Anywhere else (a `<genexpr>` always: it loops).
    Within,
}

/// Whether `row` is on the last statement of a function's `body` that can run: the innermost
/// simple statement there, no statement of the function (nested scopes aside) starting on a
/// later row, and no `for` or `while` of the function around it.
fn on_last_statement(body: Node, row: usize) -> bool {
    let mut stack = vec![body];
    let mut here: Option<Node> = None;
    while let Some(n) = stack.pop() {
        // A statement after the line (a nested `def` too: it binds its name when it runs).
        if n.start_position().row > row && STATEMENTS.contains(&n.kind()) {
            return false;
        }
        if matches!(n.kind(), "for_statement" | "while_statement") && n.end_position().row >= row {
            return false;
        }
        if matches!(
            n.kind(),
            "function_definition" | "class_definition" | "lambda"
        ) {
            continue;
        }
        if STATEMENTS.contains(&n.kind()) && n.end_position().row >= row {
            here = Some(n);
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    here.is_some()
}

/// Whether `n` holds a `yield` of its own scope.
fn yields(n: Node) -> bool {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "yield" => return true,
            "function_definition" | "lambda" | "class_definition" => continue,
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_runs_a_generator_when_its_own_function_yields_and_may_be_at_its_end() {
        let text = "def gen(n):
    for i in range(n):
        yield i


def outer(xs):
    def inner():
        yield 1
    return sum(x for x in xs) + len(list(inner()))


async def agen():
    yield 2


def tree(t):
    if t:
        yield from tree(t[1:])
";
        let t = PythonTree::parse(text).unwrap();
        let at = |f: &str, line: u32| t.generator_at(text, f, line);
        use InGenerator::*;
        // `yield i` runs again (the loop); `done`-less `gen` ends after the loop.
        assert_eq!(at("gen", 1), Some(Within));
        assert_eq!(at("gen", 2), Some(Within));
        // `outer` only holds a generator function and a generator expression.
        assert_eq!(at("outer", 8), None);
        assert_eq!(at("inner", 7), Some(LastStatement));
        assert_eq!(at("<genexpr>", 8), Some(Within));
        assert_eq!(at("agen", 12), Some(LastStatement));
        // `yield from` in an `if`, the body's last statement.
        assert_eq!(at("tree", 17), Some(LastStatement));
        assert_eq!(at("tree", 16), Some(Within));
        // A name that is not the function around the line.
        assert_eq!(at("gen", 8), None);
        // After a loop, in a `try` with a `finally` after it, a statement of several lines.
        let text = "def g(xs):
    for x in xs:
        yield x
    try:
        last = (1,
                2)
    finally:
        done = 3
";
        let t = PythonTree::parse(text).unwrap();
        assert_eq!(t.generator_at(text, "g", 4), Some(Within));
        assert_eq!(t.generator_at(text, "g", 7), Some(LastStatement));
    }
}
