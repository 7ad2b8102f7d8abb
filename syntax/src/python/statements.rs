//! Python programs for coverage.py: tree-sitter-python's syntax tree (the same parser family
//! as C's), the kind of every line, and the statements Cod may delete.

use super::{PythonTree, STATEMENTS};
use crate::trees::visit;
use crate::variant::{Deletable, LineKinds};
use crate::Statements;
use tree_sitter::Node;

/// Declarations the compiler acts on whether or not the line runs: deleting one changes the
/// meaning of code that did run.
const NOT_DELETABLE: &[&str] = &[
    "global_statement",
    "nonlocal_statement",
    "future_import_statement",
];

pub struct PySyntax {
    text: String,
    tree: PythonTree,
}

impl PySyntax {
    pub fn parse(text: &str) -> Option<PySyntax> {
        PythonTree::parse(text).map(|tree| PySyntax {
            text: text.to_string(),
            tree,
        })
    }

    /// A block without a statement: tree-sitter-python takes one at the end of the text (`if
    /// x:` as the last line), the interpreter does not.
    pub fn has_empty_block(&self) -> bool {
        let mut empty = false;
        visit(self.tree.tree.root_node(), &mut |n: Node| {
            let mut c = n.walk();
            empty |= n.kind() == "block"
                && !n
                    .named_children(&mut c)
                    .any(|s| STATEMENTS.contains(&s.kind()));
        });
        empty
    }
}

impl Statements for PySyntax {
    /// Why the program cannot be profiled from its syntax alone: tree-sitter-python had to
    /// recover from errors (the interpreter's own verdict comes from running it).
    fn rejection(&self) -> Option<String> {
        self.tree
            .has_error()
            .then(|| "tree-sitter-python could not parse it".to_string())
    }

    /// The syntax kind of every line ([`PythonTree::line_kinds`]).
    fn line_kinds(&self) -> LineKinds {
        self.tree
            .line_kinds(&self.text)
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    /// Statements Cod may delete when coverage.py reports them unexecuted: a whole statement
    /// of a module or a block (a deleted one becomes `pass`, so that no block is left empty),
    /// never a declaration the compiler reads whether or not it runs.
    fn deletable(&self) -> Vec<Deletable> {
        let mut out = Vec::new();
        // Children of every statement list (`parent()` walks from the root: quadratic on a
        // deeply nested program).
        visit(self.tree.tree.root_node(), &mut |list: Node| {
            if !matches!(list.kind(), "module" | "block") {
                return;
            }
            let mut c = list.walk();
            for n in list.named_children(&mut c) {
                if STATEMENTS.contains(&n.kind()) && !NOT_DELETABLE.contains(&n.kind()) {
                    out.push(Deletable {
                        start: n.start_byte(),
                        end: n.end_byte(),
                        first_line: self.tree.lines.line_of(n.start_byte()),
                        last_line: self.tree.lines.line_of(n.end_byte().saturating_sub(1)),
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
        let k = s.line_kinds();
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
        let c = s.deletable();
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
            s.line_kinds()[..3],
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
