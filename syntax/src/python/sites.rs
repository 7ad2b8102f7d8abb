//! The sites of a Python program ([`crate::sites`]): where a line may be inserted and which names
//! are bound there, the integer and boolean literals, the functions that can take one more
//! parameter, from tree-sitter-python's syntax tree (as for Cod's variants). The recorder's
//! edits spell what they insert in Python ([`Spelling::Python`]).
//!
//! Python reads a name as local to a function when the function assigns it anywhere: an
//! inserted `x = x` or `if False: x = 3` may only name what is already local and bound there.
//! So the names offered are a function's parameters (bound from its first line) and, at the top
//! level, names assigned by earlier top-level statements (run before, in order).

use super::PythonTree;
use crate::sites::{FunctionSite, Literal, LiteralValue, Name, Point, Sites, Spelling};
use morphtrace_schema::lines::{Breaks, Positions};
use tree_sitter::Node;

/// Expressions whose code runs in a frame of its own (CPython 3.11).
const OWN_FRAME: &[&str] = &[
    "lambda",
    "list_comprehension",
    "set_comprehension",
    "dictionary_comprehension",
    "generator_expression",
];

/// What names a statement list binds for the points in it.
#[derive(Clone)]
enum Scope {
    /// A function's body: its parameters.
    Function(Vec<String>),
    /// The module: names bound so far by top-level assignments.
    Module,
    /// A class body: no point (its names are not variables of the code around).
    Class,
}

/// Points, literals and functions of a Python program, or why not (tree-sitter-python could not
/// parse it).
pub fn sites(text: &str) -> Result<Sites, String> {
    let parsed =
        PythonTree::parse(text).ok_or_else(|| "tree-sitter-python gave no tree".to_string())?;
    let root = parsed.tree.root_node();
    if root.has_error() {
        return Err("tree-sitter-python could not parse it".into());
    }
    let positions = Positions::new(text, Breaks::C);
    let mut out = Sites::empty(positions, Spelling::Python);
    // Statement lists to visit, with the scope their points see and the names bound before.
    let mut lists: Vec<(Node, Scope, Vec<String>)> = vec![(root, Scope::Module, Vec::new())];
    while let Some((list, scope, mut bound)) = lists.pop() {
        let mut c = list.walk();
        let children: Vec<Node> = list.named_children(&mut c).collect();
        // After the last `from __future__` import: nothing may come before those.
        let first_allowed = children
            .iter()
            .rposition(|n| n.kind() == "future_import_statement")
            .map_or(0, |i| i + 1);
        for (i, stmt) in children.iter().enumerate() {
            if stmt.kind() == "comment" {
                continue;
            }
            let docstring = i == 0
                && stmt.kind() == "expression_statement"
                && stmt.named_child(0).is_some_and(|s| s.kind() == "string");
            let line_start = out.positions().lines.start(out.line_of(stmt.start_byte()));
            let starts_line = text[line_start..stmt.start_byte()]
                .chars()
                .all(|c| c == ' ' || c == '\t');
            let names: Vec<Name> = match &scope {
                Scope::Function(params) => params.clone(),
                Scope::Module => bound.clone(),
                Scope::Class => Vec::new(),
            }
            .into_iter()
            .map(|name| Name {
                name,
                assignable: true,
            })
            .collect();
            if starts_line && !docstring && i >= first_allowed && !matches!(scope, Scope::Class) {
                out.points.push(Point {
                    line_start,
                    line: out.line_of(stmt.start_byte()),
                    indent: text[line_start..stmt.start_byte()].to_string(),
                    names: names.clone(),
                });
            }
            literals(*stmt, text, &names, &mut out);
            // Nested statement lists, with their own scopes.
            nested(*stmt, &scope, &bound, text, &mut lists, &mut out);
            if matches!(scope, Scope::Module) {
                bound.extend(assigned(*stmt, text));
            }
        }
    }
    out.points.sort_by_key(|p| p.line_start);
    out.points.dedup_by_key(|p| p.line_start);
    out.literals.sort_by_key(|l| l.start);
    out.functions.sort_by_key(|f| f.insert_at);
    Ok(out)
}

/// Names a top-level statement binds for what comes after it: `x = ...`, `x: T = ...`, `x += `
/// (already bound), `def x`, `class x`, `import x`.
fn assigned(stmt: Node, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let name = |n: Node| text[n.byte_range()].to_string();
    match stmt.kind() {
        "expression_statement" => {
            if let Some(a) = stmt.named_child(0).filter(|a| a.kind() == "assignment") {
                // Chained `a = b = 1`: every plain-name target.
                let mut cur = Some(a);
                while let Some(n) = cur {
                    if let Some(l) = n.child_by_field_name("left") {
                        if l.kind() == "identifier" && n.child_by_field_name("right").is_some() {
                            out.push(name(l));
                        }
                    }
                    cur = n
                        .child_by_field_name("right")
                        .filter(|r| r.kind() == "assignment");
                }
            }
        }
        "function_definition" | "class_definition" => {
            if let Some(n) = stmt.child_by_field_name("name") {
                out.push(name(n));
            }
        }
        "decorated_definition" => {
            if let Some(d) = stmt.child_by_field_name("definition") {
                out.extend(assigned(d, text));
            }
        }
        _ => {}
    }
    out.retain(|n| !n.starts_with("__"));
    out
}

/// The plain parameters of a function (`a`, `a=1`, `a: int`, `a: int = 1`), in order; whether
/// it has `*args`, `**kwargs`, a bare `*` or `/`.
fn parameters(params: Node, text: &str) -> (Vec<String>, Option<usize>) {
    let mut names = Vec::new();
    let mut kwargs_at = None;
    let mut c = params.walk();
    for p in params.named_children(&mut c) {
        let ident = match p.kind() {
            "identifier" => Some(p),
            "default_parameter" | "typed_default_parameter" => p.child_by_field_name("name"),
            "typed_parameter" => p.named_child(0).filter(|n| n.kind() == "identifier"),
            "dictionary_splat_pattern" => {
                kwargs_at = Some(p.start_byte());
                None
            }
            _ => None,
        };
        if let Some(i) = ident.filter(|i| i.kind() == "identifier") {
            names.push(text[i.byte_range()].to_string());
        }
    }
    (names, kwargs_at)
}

/// The statement lists inside `stmt`, queued with their scopes; functions recorded as sites.
fn nested<'t>(
    stmt: Node<'t>,
    scope: &Scope,
    bound: &[String],
    text: &str,
    lists: &mut Vec<(Node<'t>, Scope, Vec<String>)>,
    out: &mut Sites,
) {
    let stmt = if stmt.kind() == "decorated_definition" {
        match stmt.child_by_field_name("definition") {
            Some(d) => d,
            None => return,
        }
    } else {
        stmt
    };
    match stmt.kind() {
        "function_definition" => {
            let (Some(params), Some(body)) = (
                stmt.child_by_field_name("parameters"),
                stmt.child_by_field_name("body"),
            ) else {
                return;
            };
            let (names, kwargs_at) = parameters(params, text);
            // From the start of the body's first line: Python's debuggers pause at a line's
            // column 0 (pdb) or give no column that matters (debugpy says 1 for every frame).
            let body_start = out.positions().lines.start(out.line_of(body.start_byte()));
            let body = (body_start, body.end_byte());
            out.bodies.push(body);
            // Lambdas and comprehensions run in frames of their own, which do not see a new
            // parameter: their lines, whole (a pause has no column that tells them apart).
            if let Some(block) = stmt.child_by_field_name("body") {
                let mut stack = vec![block];
                while let Some(n) = stack.pop() {
                    if OWN_FRAME.contains(&n.kind()) {
                        let start = out.positions().lines.start(out.line_of(n.start_byte()));
                        let last = out.line_of(n.end_byte().saturating_sub(1));
                        let end = out
                            .positions()
                            .lines
                            .start(last + 1)
                            .min(text.len())
                            .max(n.end_byte());
                        out.bodies.push((start, end));
                        continue;
                    }
                    if n.kind() == "function_definition" {
                        continue;
                    }
                    let mut c = n.walk();
                    stack.extend(n.named_children(&mut c));
                }
            }
            if params.named_child_count() > 0 {
                out.parameter_lists
                    .push((params.start_byte(), params.end_byte()));
            }
            // `, _mt1=None` before `**kwargs`, or before the closing parenthesis.
            let (insert_at, has_params) = match kwargs_at {
                Some(at) => (at, true),
                None => {
                    let close = params.end_byte() - 1;
                    // A trailing comma already separates: `def f(a, b,)`.
                    let before = text[params.start_byte() + 1..close].trim_end();
                    (close, !before.is_empty() && !before.ends_with(','))
                }
            };
            out.functions.push(FunctionSite {
                insert_at,
                has_params,
                body,
            });
            if let Some(block) = stmt.child_by_field_name("body") {
                lists.push((block, Scope::Function(names), Vec::new()));
            }
        }
        "class_definition" => {
            if let Some(body) = stmt.child_by_field_name("body") {
                lists.push((body, Scope::Class, Vec::new()));
            }
        }
        _ => {
            // Compound statements: their blocks (and their clauses' blocks) share the scope.
            let mut stack = vec![stmt];
            while let Some(n) = stack.pop() {
                let mut c = n.walk();
                for child in n.named_children(&mut c) {
                    match child.kind() {
                        "block" => lists.push((child, scope.clone(), bound.to_vec())),
                        k if k.ends_with("_clause") || k == "case_clause" => stack.push(child),
                        _ => {}
                    }
                }
            }
        }
    }
}

/// The integer and boolean literals of a simple statement, or of a compound statement's own
/// line (its condition, its iterable; not its blocks, which are lists of their own).
fn literals(stmt: Node, text: &str, names: &[Name], out: &mut Sites) {
    let mut stack = vec![stmt];
    while let Some(n) = stack.pop() {
        match n.kind() {
            // Statement lists and definitions are visited as lists; patterns cannot hold an
            // expression; a string's parts are not code (its interpolations are, but rarely).
            "block"
            | "function_definition"
            | "class_definition"
            | "case_pattern"
            | "string"
            | "decorator" => continue,
            "integer" => {
                let t = &text[n.byte_range()];
                if t.bytes().all(|b| b.is_ascii_digit()) && (t == "0" || !t.starts_with('0')) {
                    if let Ok(v) = t.parse::<u64>() {
                        out.literals.push(Literal {
                            start: n.start_byte(),
                            end: n.end_byte(),
                            value: LiteralValue::Int(v),
                            names: names.to_vec(),
                        });
                    }
                }
                continue;
            }
            "true" | "false" => {
                out.literals.push(Literal {
                    start: n.start_byte(),
                    end: n.end_byte(),
                    value: LiteralValue::Bool(n.kind() == "true"),
                    names: names.to_vec(),
                });
                continue;
            }
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str = "\"\"\"Module doc.\"\"\"
from __future__ import annotations
import sys

LIMIT = 10


def f(a, b=2, **kw):
    \"\"\"Doc.\"\"\"
    c = a + b
    if c > 3:
        return True
    return False


class K:
    x = 1

    def m(self):
        return self.x


print(f(LIMIT, 1), K().m())
";

    #[test]
    fn points_see_only_bound_names() {
        let a = sites(PROG).unwrap();
        let at = |line: u32| a.points.iter().find(|p| p.line == line);
        // Not before the module's docstring or the future import, nor in a class body.
        assert!(at(0).is_none() && at(1).is_none());
        assert!(at(2).is_some());
        assert!(at(16).is_none(), "a class body's statement");
        // Not before a function's docstring; its parameters after.
        assert!(at(8).is_none());
        let names = |l: u32| -> Vec<String> {
            at(l)
                .unwrap()
                .names
                .iter()
                .map(|n| n.name.clone())
                .collect()
        };
        assert_eq!(names(9), ["a", "b"]);
        assert_eq!(names(11), ["a", "b"]);
        assert_eq!(at(11).unwrap().indent, "        ");
        assert_eq!(names(19), ["self"]);
        // Top level: what earlier top-level statements bound.
        assert_eq!(names(22), ["LIMIT", "f", "K"]);
        assert_eq!(names(4), Vec::<String>::new());
    }

    #[test]
    fn broken_programs_are_refused() {
        assert!(sites("def f(:\n").is_err());
    }
}
