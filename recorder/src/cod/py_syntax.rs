//! Python programs for coverage.py: tree-sitter-python's syntax tree (the same parser family
//! as C's), the kind of every line, and the statements Cod may delete.

use super::variant::{Deletable, LineKinds};
use morphtrace_schema::lines::{Breaks, LineIndex};
use tree_sitter::{Node, Parser, Tree};

/// Statements as tree-sitter-python names them (simple ones and compound ones).
const STATEMENTS: &[&str] = &[
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

/// Declarations the compiler acts on whether or not the line runs: deleting one changes the
/// meaning of code that did run.
const NOT_DELETABLE: &[&str] = &[
    "global_statement",
    "nonlocal_statement",
    "future_import_statement",
];

pub struct PySyntax {
    tree: Tree,
    /// Lines as CPython's tokenizer counts them (`\n`, `\r\n`, `\r`).
    lines: LineIndex,
}

impl PySyntax {
    pub fn parse(text: &str) -> Option<PySyntax> {
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
        Some(PySyntax {
            tree,
            lines: LineIndex::new(text, Breaks::C),
        })
    }

    /// Why the program cannot be profiled from its syntax alone: tree-sitter-python had to
    /// recover from errors (the interpreter's own verdict comes from running it).
    pub fn rejection(&self) -> Option<String> {
        self.tree
            .root_node()
            .has_error()
            .then(|| "tree-sitter-python could not parse it".to_string())
    }

    /// The syntax kind of every line: the statement (or clause) the line's text belongs to,
    /// `else`, `except`, `finally` for those clauses' lines, `blank` and `comment`.
    pub fn line_kinds(&self, text: &str) -> LineKinds {
        let mut kinds = Vec::with_capacity(self.lines.len());
        for l in 0..self.lines.len() as u32 {
            let offset = self.lines.start(l);
            let line = self.lines.line(text, l);
            let trimmed = line.trim();
            if trimmed.is_empty() {
                kinds.push("blank".to_string());
                continue;
            }
            if trimmed.starts_with('#') {
                kinds.push("comment".to_string());
                continue;
            }
            let start = offset + (line.len() - line.trim_start().len());
            let end = offset + line.trim_end().len();
            let Some(mut n) = self
                .tree
                .root_node()
                .named_descendant_for_byte_range(start, end)
            else {
                kinds.push("?".into());
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
            kinds.push(
                match n.kind() {
                    "else_clause" => "else",
                    "except_clause" | "except_group_clause" => "except",
                    "finally_clause" => "finally",
                    "decorator" => "decorator",
                    "module" | "comment" => "comment",
                    k => k,
                }
                .to_string(),
            );
        }
        kinds
    }

    /// Statements Cod may delete when coverage.py reports them unexecuted: a whole statement
    /// of a module or a block (a deleted one becomes `pass`, so that no block is left empty),
    /// never a declaration the compiler reads whether or not it runs.
    pub fn candidates(&self) -> Vec<Deletable> {
        let mut out = Vec::new();
        // Children of every statement list (`parent()` walks from the root: quadratic on a
        // deeply nested program).
        super::c_syntax::visit(self.tree.root_node(), &mut |list: Node| {
            if !matches!(list.kind(), "module" | "block") {
                return;
            }
            let mut c = list.walk();
            for n in list.named_children(&mut c) {
                if STATEMENTS.contains(&n.kind()) && !NOT_DELETABLE.contains(&n.kind()) {
                    out.push(Deletable {
                        start: n.start_byte(),
                        end: n.end_byte(),
                        first_line: self.lines.line_of(n.start_byte()),
                        last_line: self.lines.line_of(n.end_byte().saturating_sub(1)),
                        kind: n.kind().to_string(),
                    });
                }
            }
        });
        // Outer statements before the ones nested in them.
        out.sort_by_key(|d| (d.start, std::cmp::Reverse(d.end)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str = "import sys\n\n# a comment\n@staticmethod\ndef f(x):\n    \"\"\"doc\"\"\"\n    global g\n    if x > 2:\n        y = (1 +\n             2)\n        return y\n    elif x:\n        pass\n    else:\n        return 2\n    try:\n        g = 1; h = 2\n    except ValueError:\n        raise\n    finally:\n        print(x)\n\nfor i in range(3):\n    f(i)\n";

    #[test]
    fn kinds_of_lines() {
        let s = PySyntax::parse(PROG).unwrap();
        assert!(s.rejection().is_none());
        let k = s.line_kinds(PROG);
        let expect = [
            "import_statement",
            "blank",
            "comment",
            "decorator",
            "function_definition",
            "expression_statement",
            "global_statement",
            "if_statement",
            "expression_statement",
            "parenthesized_expression",
            "return_statement",
            "elif_clause",
            "pass_statement",
            "else",
            "return_statement",
            "try_statement",
            "expression_statement",
            "except",
            "raise_statement",
            "finally",
            "expression_statement",
            "blank",
            "for_statement",
            "expression_statement",
            "blank",
        ];
        assert_eq!(k, expect);
    }

    #[test]
    fn candidates_are_whole_statements_of_blocks() {
        let s = PySyntax::parse(PROG).unwrap();
        let c = s.candidates();
        let named: Vec<(&str, u32, u32)> = c
            .iter()
            .map(|d| (&PROG[d.start..d.end], d.first_line, d.last_line))
            .map(|(t, a, b)| (t.lines().next().unwrap(), a, b))
            .collect();
        assert!(named.contains(&("y = (1 +", 8, 9)), "{named:?}");
        assert!(named.contains(&("g = 1", 16, 16)), "{named:?}");
        assert!(named.contains(&("h = 2", 16, 16)), "{named:?}");
        assert!(named.contains(&("if x > 2:", 7, 14)), "{named:?}");
        // The decorated definition as a whole, never its `def` apart from its decorator.
        assert!(named.contains(&("@staticmethod", 3, 20)), "{named:?}");
        assert!(
            !named.iter().any(|(t, _, _)| t.starts_with("def ")),
            "{named:?}"
        );
        assert!(
            !named.iter().any(|(t, _, _)| t.starts_with("global")),
            "{named:?}"
        );
    }

    #[test]
    fn lone_carriage_returns_end_lines() {
        let text = "if True:\r    x = 1\rprint(x)\r";
        let s = PySyntax::parse(text).unwrap();
        assert!(s.rejection().is_none());
        assert_eq!(
            s.line_kinds(text)[..3],
            [
                "if_statement",
                "expression_statement",
                "expression_statement"
            ]
        );
    }

    #[test]
    fn broken_programs_are_rejected() {
        let s = PySyntax::parse("def f(:\n    pass\n").unwrap();
        assert!(s.rejection().is_some());
    }
}
