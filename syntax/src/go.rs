//! Go programs on a real syntax tree (tree-sitter-go): the syntax kind of each line, and why a
//! program cannot be run as a command (`go build` makes a program only of `package main` with a
//! `func main()`). Nothing is deleted from Go programs: Cod's profilers do not read Go.

use crate::trees::visit;
use crate::variant::LineKinds;
use morphtrace_schema::lines::{Breaks, LineIndex};
use tree_sitter::{Parser, Tree};

pub struct GoSyntax {
    text: String,
    tree: Tree,
    /// Lines as Go's scanner counts them (LF; tree-sitter's rows agree).
    lines: LineIndex,
}

impl GoSyntax {
    pub fn parse(text: &str) -> Option<GoSyntax> {
        let mut p = Parser::new();
        p.set_language(&tree_sitter_go::LANGUAGE.into()).ok()?;
        // tree-sitter parses without recursion, and the walk below does not recurse either.
        let tree = p.parse(text, None)?;
        Some(GoSyntax {
            text: text.to_string(),
            tree,
            lines: LineIndex::new(text, Breaks::C),
        })
    }

    /// Why the program cannot be built and run as a command, `None` when it can (as far as its
    /// syntax tells: the compiler has the last word, and its errors are the program's syntax
    /// errors).
    pub fn rejection(&self) -> Option<String> {
        let root = self.tree.root_node();
        let mut package = None;
        let mut main = false;
        let mut c = root.walk();
        for n in root.named_children(&mut c) {
            match n.kind() {
                "package_clause" => {
                    package = n
                        .named_child(0)
                        .and_then(|id| id.utf8_text(self.text.as_bytes()).ok())
                        .map(str::to_string);
                }
                "function_declaration" => {
                    let name = n
                        .child_by_field_name("name")
                        .and_then(|id| id.utf8_text(self.text.as_bytes()).ok());
                    main |= name == Some("main");
                }
                _ => {}
            }
        }
        match package.as_deref() {
            None => return Some("no package clause".into()),
            Some("main") => {}
            Some(p) => return Some(format!("package {p}, not a command (package main)")),
        }
        if !main {
            return Some("no func main".into());
        }
        None
    }

    /// Whether the parser had to recover from errors.
    pub fn has_errors(&self) -> bool {
        self.tree.root_node().has_error()
    }

    /// The syntax kind of every line: the smallest named node covering the line's text, with
    /// lines of braces, `else`, labels and `case` clauses named as such.
    pub fn line_kinds(&self) -> LineKinds {
        let text = &self.text;
        let mut kinds = Vec::new();
        for l in 0..self.lines.len() as u32 {
            let offset = self.lines.start(l);
            let line = self.lines.line(text, l);
            let trimmed = line.trim();
            let kind = if let Some(k) = crate::variant::structural_kind(line, &[')']) {
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
                        "labeled_statement" | "label_name" if trimmed.ends_with(':') => {
                            "label".into()
                        }
                        "expression_case" | "type_case" | "default_case" | "communication_case" => {
                            "case".into()
                        }
                        "source_file" | "comment" => "comment".into(),
                        "import_declaration" | "import_spec" | "import_spec_list" => {
                            "import".into()
                        }
                        "package_clause" => "package".into(),
                        k => k.to_string(),
                    },
                    None => "?".into(),
                }
            };
            kinds.push(kind);
        }
        kinds
    }

    /// The program's functions, methods and closures as Delve names them (`main.add`,
    /// `main.T.String`, `main.(*T).Grow`; a function's closures numbered in source order,
    /// `main.main.func1`, and theirs after a dot, `main.main.func1.1`, as Go 1.19's compiler
    /// names them); generic ones are left out. No recursion on the program's nesting: closures
    /// nested 10^5 deep are named, not fatal.
    pub fn functions(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (name, body) in self.declared() {
            out.push(name.clone());
            // (a body, the name its closures are named after, their prefix), depth first.
            let mut work = Vec::new();
            if let Some(body) = body {
                work.push((body, name, "func"));
            }
            while let Some((n, outer, prefix)) = work.pop() {
                let (found, wrapped) = direct_closures(n);
                let literals = found.len();
                let mut next = Vec::new();
                for (i, f) in found.into_iter().enumerate() {
                    let name = format!("{outer}.{prefix}{}", i + 1);
                    out.push(name.clone());
                    if let Some(body) = f.child_by_field_name("body") {
                        next.push((body, name, ""));
                    }
                }
                out.extend((1..=wrapped).map(|k| format!("{outer}.{prefix}{}", literals + k)));
                // Depth first would name a closure's own before its next sibling; Delve's
                // names do not depend on the order, only the list's does: siblings first.
                work.extend(next.into_iter().rev());
            }
        }
        out
    }

    /// The lines (0-based) of every function's and method's body, closures' included, in
    /// order: where a Go program's code can resume after a recovered panic.
    pub fn body_lines(&self) -> Vec<u32> {
        let root = self.tree.root_node();
        let mut out = Vec::new();
        let mut c = root.walk();
        for n in root.named_children(&mut c) {
            if !matches!(n.kind(), "function_declaration" | "method_declaration") {
                continue;
            }
            if let Some(body) = n.child_by_field_name("body") {
                let from = body.start_position().row as u32;
                let to = body.end_position().row as u32;
                out.extend(from..=to);
            }
        }
        out
    }

    /// Each function's and method's Delve name and body.
    fn declared(&self) -> Vec<(String, Option<tree_sitter::Node<'_>>)> {
        let root = self.tree.root_node();
        let text = |n: tree_sitter::Node| n.utf8_text(self.text.as_bytes()).ok();
        let mut out = Vec::new();
        let mut c = root.walk();
        for n in root.named_children(&mut c) {
            if n.child_by_field_name("type_parameters").is_some() {
                continue;
            }
            let Some(name) = n.child_by_field_name("name").and_then(text) else {
                continue;
            };
            match n.kind() {
                "function_declaration" => {
                    out.push((format!("main.{name}"), n.child_by_field_name("body")))
                }
                "method_declaration" => {
                    // `(s *T)`, `(T)`: the receiver's type, a pointer or not.
                    let Some(receiver) = n
                        .child_by_field_name("receiver")
                        .and_then(|r| r.named_child(0))
                        .and_then(|p| p.child_by_field_name("type"))
                    else {
                        continue;
                    };
                    let Some(t) = text(receiver) else { continue };
                    match t.strip_prefix('*') {
                        Some(base) if !base.contains('[') => out.push((
                            format!("main.(*{}).{name}", base.trim()),
                            n.child_by_field_name("body"),
                        )),
                        None if !t.contains('[') => {
                            out.push((format!("main.{t}.{name}"), n.child_by_field_name("body")))
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The names declared at package scope by `var` (Delve lists no globals unless asked; the
    /// order is the program's).
    pub fn globals(&self) -> Vec<String> {
        let root = self.tree.root_node();
        let mut out = Vec::new();
        let mut c = root.walk();
        for n in root.named_children(&mut c) {
            if n.kind() != "var_declaration" {
                continue;
            }
            visit(n, &mut |s| {
                if s.kind() == "var_spec" {
                    let mut c = s.walk();
                    for name in s.children_by_field_name("name", &mut c) {
                        if let Ok(t) = name.utf8_text(self.text.as_bytes()) {
                            if t != "_" {
                                out.push(t.to_string());
                            }
                        }
                    }
                }
            });
        }
        out
    }
}

/// The closures directly in `n`, not in a closure of theirs, in source order, and how many
/// `go` and `defer` statements there call with arguments: Go 1.19's compiler wraps each such
/// call in a closure of its own, numbered after the function's literal closures (`go worker(c)`
/// in `main` is `main.main.func3` where `main` has two literals; seen with `go tool objdump`).
/// A call without arguments that the compiler wraps all the same (a method's, one with results)
/// is not counted: the wrappers after it are then named one short.
fn direct_closures(n: tree_sitter::Node<'_>) -> (Vec<tree_sitter::Node<'_>>, usize) {
    let mut found = Vec::new();
    let mut wrapped = 0;
    let mut c = n.walk();
    'walk: loop {
        let node = c.node();
        let inner = node.kind() == "func_literal" && node != n;
        if inner {
            found.push(node);
        }
        if matches!(node.kind(), "go_statement" | "defer_statement")
            && node
                .named_child(0)
                .and_then(|call| call.child_by_field_name("arguments"))
                .is_some_and(|args| args.named_child_count() > 0)
        {
            wrapped += 1;
        }
        if !inner && c.goto_first_child() {
            continue;
        }
        loop {
            if c.node() == n {
                break 'walk;
            }
            if c.goto_next_sibling() {
                break;
            }
            if !c.goto_parent() {
                break 'walk;
            }
        }
    }
    (found, wrapped)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: &str = "package main\n\nimport \"fmt\"\n\nvar total, _ = 3, 4\n\n\
        func add(a, b int) int {\n\ts := a + b\n\treturn s\n}\n\n\
        func main() {\n\t// a comment\n\tn := add(1, 2)\n\tswitch n {\n\tcase 3:\n\t\tfmt.Println(n)\n\t}\n\
        \tif n > 2 {\n\t\tn++\n\t} else {\n\t\tn--\n\t}\n}\n";

    #[test]
    fn every_line_gets_its_statement_kind() {
        let s = GoSyntax::parse(PROGRAM).unwrap();
        assert!(!s.has_errors());
        let kinds = s.line_kinds();
        let at = |l: usize| kinds[l - 1].as_str();
        // The empty line after the last line break counts, as the compilers count it.
        assert_eq!(kinds.len(), 25);
        assert_eq!(at(25), "blank");
        assert_eq!(at(1), "package");
        assert_eq!(at(2), "blank");
        assert_eq!(at(3), "import");
        assert_eq!(at(5), "var_declaration");
        assert_eq!(at(8), "short_var_declaration");
        assert_eq!(at(9), "return_statement");
        assert_eq!(at(10), "brace");
        assert_eq!(at(13), "comment");
        assert_eq!(at(15), "expression_switch_statement");
        assert_eq!(at(16), "case");
        assert_eq!(at(17), "call_expression");
        assert_eq!(at(19), "if_statement");
        assert_eq!(at(20), "inc_statement");
        assert_eq!(at(21), "else");
    }

    /// Body lines run from each function's `{` to its `}` (1-based 7..=10 and 12..=24 here),
    /// package-level lines are none of them.
    #[test]
    fn body_lines_are_the_lines_of_the_functions_bodies() {
        let s = GoSyntax::parse(PROGRAM).unwrap();
        let want: Vec<u32> = (6..=9).chain(11..=23).collect();
        assert_eq!(s.body_lines(), want);
    }

    #[test]
    fn only_a_main_package_with_a_main_function_runs() {
        assert_eq!(GoSyntax::parse(PROGRAM).unwrap().rejection(), None);
        let lib = "package sort\n\nfunc main() {}\n";
        assert_eq!(
            GoSyntax::parse(lib).unwrap().rejection().as_deref(),
            Some("package sort, not a command (package main)")
        );
        let no_main = "package main\n\nfunc helper() {}\n";
        assert_eq!(
            GoSyntax::parse(no_main).unwrap().rejection().as_deref(),
            Some("no func main")
        );
        assert_eq!(
            GoSyntax::parse("func main() {}\n")
                .unwrap()
                .rejection()
                .as_deref(),
            Some("no package clause")
        );
    }

    #[test]
    fn functions_are_named_as_delve_names_them() {
        let program =
            "package main\n\ntype T struct{}\n\nfunc (t T) String() string { return \"t\" }\n\
            func (t *T) Grow() {}\nfunc (T) bare() {}\nfunc add(a, b int) int { return a + b }\n\
            func id[X any](x X) X { return x }\nfunc main() { f := func() {}; f() }\n";
        assert_eq!(
            GoSyntax::parse(program).unwrap().functions(),
            [
                "main.T.String",
                "main.(*T).Grow",
                "main.T.bare",
                "main.add",
                "main.main",
                "main.main.func1"
            ]
        );
    }

    #[test]
    fn closures_are_numbered_in_source_order_and_nested_after_a_dot() {
        let program =
            "package main\n\nfunc main() {\n\ta := func() {\n\t\tb := func() {}\n\t\tb()\n\t}\n\
            \tif true {\n\t\tgo func() {}()\n\t}\n\ta()\n}\n";
        assert_eq!(
            GoSyntax::parse(program).unwrap().functions(),
            [
                "main.main",
                "main.main.func1",
                "main.main.func2",
                "main.main.func1.1"
            ]
        );
    }

    #[test]
    fn go_and_defer_calls_with_arguments_are_wrappers_numbered_after_the_literals() {
        // As Go 1.19 names them (`go tool nm` and `objdump` on the build of this program).
        let program = "package main\n\nfunc worker(c chan int) { c <- 1 }\n\nfunc main() {\n\
            \tc := make(chan int)\n\tgo worker(c)\n\tf := func() int { return <-c }\n\
            \tdefer println(\"x\")\n\tg := func() {}\n\tg()\n\tdefer g()\n\tprintln(f())\n}\n";
        assert_eq!(
            GoSyntax::parse(program).unwrap().functions(),
            [
                "main.worker",
                "main.main",
                "main.main.func1",
                "main.main.func2",
                "main.main.func3",
                "main.main.func4"
            ]
        );
    }

    #[test]
    fn closures_nested_deep_are_named_without_recursion() {
        let depth = 10_000;
        let program = format!(
            "package main\n\nfunc main() {{\n{}{}}}\n",
            "_ = func() {\n".repeat(depth),
            "}\n".repeat(depth)
        );
        let names = GoSyntax::parse(&program).unwrap().functions();
        assert_eq!(names.len(), depth + 1);
        assert_eq!(names[2], "main.main.func1.1");
    }

    #[test]
    fn globals_are_the_package_vars_in_order_without_blanks() {
        let s = GoSyntax::parse(PROGRAM).unwrap();
        assert_eq!(s.globals(), vec!["total".to_string()]);
        let grouped = "package main\n\nvar (\n\ta int\n\tb, c = 1, 2\n)\n\nfunc main() {}\n";
        assert_eq!(
            GoSyntax::parse(grouped).unwrap().globals(),
            vec!["a".to_string(), "b".into(), "c".into()]
        );
    }
}
