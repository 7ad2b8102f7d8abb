//! Where an instrumented copy of a JavaScript program records its own state (ground truth,
//! issue 68): the statements that begin their line inside a statement list, each with the
//! names that are bound *and initialized* there, so that reading them cannot throw (no
//! temporal dead zone) and does not change what the program does.
//!
//! Names, innermost scope first (the first scope that declares a name decides):
//! - parameters, `var`s and function declarations of the enclosing functions (hoisted: always
//!   readable, `undefined` before their assignment), not the script's own (global);
//! - `let`, `const` and `class` bindings of enclosing blocks whose declaration statement has
//!   been passed in the same statement list before the point; none of a `switch`'s cases (a
//!   case is entered by a jump); none across a function *declaration* (hoisted, so it may run
//!   before the outer declaration did), while a function expression, arrow, method or static
//!   block sees those declared before its text (it exists only once they ran);
//! - loop-head and `catch` bindings in their bodies.
//!
//! Not a point: a directive (`"use strict"`), an empty statement, a statement inside `with`
//! (names resolve through an object there), a statement that is the lone body of an `if` or a
//! loop (a call before it would leave the statement outside the body).

use crate::js::ast;
use crate::js::visit::{Visit, VisitWith};
use std::collections::HashMap;

/// One point: where its call goes and what it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Point {
    /// 0-based line.
    pub line: u32,
    /// Byte offset in the text of the statement's first token (the call goes right before).
    pub offset: usize,
    /// Names readable there, sorted.
    pub names: Vec<String>,
}

/// Names that cannot be written as a shorthand property in every context, or that a program
/// does not own.
const UNREADABLE: &[&str] = &[
    "arguments",
    "eval",
    "yield",
    "await",
    "let",
    "static",
    "async",
];

#[derive(Clone, Copy, PartialEq)]
enum Binding {
    /// Parameter, `var`, function declaration: readable anywhere in its scope.
    Hoisted,
    /// `let`/`const`/`class`: readable once its declaration ran.
    Lexical { passed: bool },
    /// A function declaration: it shadows, and is not read (a function is no recorded value,
    /// and a script's own are globals).
    Function,
}

struct Scope {
    names: HashMap<String, Binding>,
    /// A function declaration's scope: outer lexical bindings are not safe to read inside.
    hoisted_function: bool,
}

struct Collect<'a> {
    parsed: &'a crate::js::Parsed<'a>,
    firsts: Vec<Option<(usize, usize)>>,
    scopes: Vec<Scope>,
    /// Set by `visit_fn_decl` for the function it visits next.
    declaring: bool,
    within_with: u32,
    out: Vec<Point>,
}

impl Collect<'_> {
    fn readable(&self) -> Vec<String> {
        let mut seen: HashMap<&str, bool> = HashMap::new();
        let mut crossed = false;
        for scope in self.scopes.iter().rev() {
            for (name, b) in &scope.names {
                if seen.contains_key(name.as_str()) {
                    continue;
                }
                let ok = match b {
                    Binding::Hoisted => true,
                    Binding::Lexical { passed } => *passed && !crossed,
                    Binding::Function => false,
                };
                seen.insert(name, ok);
            }
            if scope.hoisted_function {
                crossed = true;
            }
        }
        let mut names: Vec<String> = seen
            .into_iter()
            .filter(|(n, ok)| *ok && !UNREADABLE.contains(n))
            .map(|(n, _)| n.to_string())
            .collect();
        names.sort();
        names
    }

    fn push(&mut self, hoisted_function: bool) {
        self.scopes.push(Scope {
            names: HashMap::new(),
            hoisted_function,
        });
    }

    fn declare(&mut self, name: &str, b: Binding) {
        if let Some(s) = self.scopes.last_mut() {
            s.names.insert(name.to_string(), b);
        }
    }

    /// A function's parameters and the `var`s and function declarations of its body.
    fn function_scope(&mut self, params: &[&ast::Pat], body: Option<&[ast::Stmt]>) {
        let hoisted = std::mem::take(&mut self.declaring);
        self.push(hoisted);
        for p in params {
            crate::nodes::pattern_names(p, &mut |n| self.declare(n, Binding::Hoisted));
        }
        if let Some(b) = body {
            let mut vars = Vars(Vec::new());
            for s in b {
                s.visit_with(&mut vars);
            }
            for n in vars.0 {
                self.declare(&n, Binding::Hoisted);
            }
        }
    }

    /// A statement list: its lexical names first (uninitialized; function declarations
    /// initialized), then each statement, a point before it where one may go.
    fn statements<'s>(&mut self, stmts: impl Iterator<Item = &'s ast::Stmt> + Clone, passes: bool) {
        self.push(false);
        for s in stmts.clone() {
            lexical(s, &mut |n, b| self.declare(n, b));
        }
        let mut prologue = true;
        for s in stmts {
            let directive = prologue
                && matches!(s, ast::Stmt::Expr(e) if matches!(&*e.expr, ast::Expr::Lit(ast::Lit::Str(_))));
            prologue = directive;
            if !directive && self.within_with == 0 && !matches!(s, ast::Stmt::Empty(_)) {
                let (lo, _) = self.parsed.range(crate::js::Spanned::span(s));
                let line = self.parsed.positions.location(lo).line;
                let first = self.firsts.get(line as usize).copied().flatten();
                let taken = self.out.last().is_some_and(|p| p.line == line);
                if first.is_some_and(|(f, _)| f == lo) && !taken {
                    let names = self.readable();
                    self.out.push(Point {
                        line,
                        offset: lo,
                        names,
                    });
                }
            }
            s.visit_with(self);
            if passes {
                lexical(s, &mut |n, b| {
                    if let Binding::Lexical { .. } = b {
                        self.declare(n, Binding::Lexical { passed: true })
                    }
                });
            }
        }
        self.scopes.pop();
    }
}

/// The lexical names a statement declares in its list.
fn lexical(s: &ast::Stmt, each: &mut dyn FnMut(&str, Binding)) {
    let uninit = Binding::Lexical { passed: false };
    match s {
        ast::Stmt::Decl(ast::Decl::Var(v)) if v.kind != ast::VarDeclKind::Var => {
            for d in &v.decls {
                crate::nodes::pattern_names(&d.name, &mut |n| each(n, uninit));
            }
        }
        ast::Stmt::Decl(ast::Decl::Class(c)) => each(&c.ident.sym, uninit),
        ast::Stmt::Decl(ast::Decl::Fn(f)) => each(&f.ident.sym, Binding::Function),
        _ => {}
    }
}

/// The `var` names of a function body (not of functions inside it; its function declarations
/// are the statement lists').
struct Vars(Vec<String>);

impl Visit for Vars {
    fn visit_var_decl(&mut self, v: &ast::VarDecl) {
        if v.kind == ast::VarDeclKind::Var {
            for d in &v.decls {
                crate::nodes::pattern_names(&d.name, &mut |n| self.0.push(n.to_string()));
            }
        }
        v.visit_children_with(self);
    }
    fn visit_fn_decl(&mut self, _: &ast::FnDecl) {}
    fn visit_function(&mut self, _: &ast::Function) {}
    fn visit_arrow_expr(&mut self, _: &ast::ArrowExpr) {}
    fn visit_class(&mut self, _: &ast::Class) {}
}

impl Visit for Collect<'_> {
    fn visit_fn_decl(&mut self, f: &ast::FnDecl) {
        self.declaring = true;
        f.function.visit_with(self);
        self.declaring = false;
    }
    fn visit_function(&mut self, f: &ast::Function) {
        let params: Vec<&ast::Pat> = f.params.iter().map(|p| &p.pat).collect();
        self.function(&params, f.body.as_ref().map(|b| &b.stmts[..]), None);
    }
    fn visit_arrow_expr(&mut self, a: &ast::ArrowExpr) {
        let params: Vec<&ast::Pat> = a.params.iter().collect();
        match &*a.body {
            ast::ArrowFunctionBody::FunctionBody(b) => self.function(&params, Some(&b.stmts), None),
            ast::ArrowFunctionBody::Expr(e) => self.function(&params, None, Some(e)),
        }
    }
    fn visit_constructor(&mut self, c: &ast::Constructor) {
        let params: Vec<&ast::Pat> = c
            .params
            .iter()
            .filter_map(|p| match p {
                ast::ParamOrTsParamProp::Param(p) => Some(&p.pat),
                _ => None,
            })
            .collect();
        self.function(&params, c.body.as_ref().map(|b| &b.stmts[..]), None);
    }
    fn visit_static_block(&mut self, s: &ast::StaticBlock) {
        self.function(&[], Some(&s.body.stmts), None);
    }
    fn visit_block_stmt(&mut self, b: &ast::BlockStmt) {
        self.statements(b.stmts.iter(), true);
    }
    fn visit_switch_stmt(&mut self, s: &ast::SwitchStmt) {
        s.discriminant.visit_with(self);
        // One scope for all cases, whose lexical names never count as passed: a case is
        // entered by a jump over the cases before it.
        let all = s.cases.iter().flat_map(|c| c.cons.iter());
        for c in &s.cases {
            if let Some(t) = &c.test {
                t.visit_with(self);
            }
        }
        self.statements(all, false);
    }
    fn visit_catch_clause(&mut self, c: &ast::CatchClause) {
        self.push(false);
        if let Some(p) = &c.param {
            crate::nodes::pattern_names(p, &mut |n| {
                self.declare(n, Binding::Lexical { passed: true })
            });
        }
        c.body.visit_with(self);
        self.scopes.pop();
    }
    fn visit_for_stmt(&mut self, f: &ast::ForStmt) {
        self.push(false);
        if let Some(ast::VarDeclOrExpr::VarDecl(v)) = &f.init {
            if v.kind != ast::VarDeclKind::Var {
                for d in &v.decls {
                    crate::nodes::pattern_names(&d.name, &mut |n| {
                        self.declare(n, Binding::Lexical { passed: true })
                    });
                }
            }
        }
        f.visit_children_with(self);
        self.scopes.pop();
    }
    fn visit_for_in_stmt(&mut self, f: &ast::ForInStmt) {
        self.head(&f.left);
        f.visit_children_with(self);
        self.scopes.pop();
    }
    fn visit_for_of_stmt(&mut self, f: &ast::ForOfStmt) {
        self.head(&f.left);
        f.visit_children_with(self);
        self.scopes.pop();
    }
    fn visit_with_stmt(&mut self, w: &ast::WithStmt) {
        w.obj.visit_with(self);
        self.within_with += 1;
        w.body.visit_with(self);
        self.within_with -= 1;
    }
}

impl Collect<'_> {
    /// A function's (or static block's) scope, its parameters' default values, then its body:
    /// statements, or an arrow's expression.
    fn function(
        &mut self,
        params: &[&ast::Pat],
        body: Option<&[ast::Stmt]>,
        expr: Option<&ast::Expr>,
    ) {
        self.function_scope(params, body);
        for p in params {
            p.visit_with(self);
        }
        if let Some(stmts) = body {
            self.statements(stmts.iter(), true);
        }
        if let Some(e) = expr {
            e.visit_with(self);
        }
        self.scopes.pop();
    }

    fn head(&mut self, left: &ast::ForHead) {
        self.push(false);
        if let ast::ForHead::VarDecl(v) = left {
            if v.kind != ast::VarDeclKind::Var {
                for d in &v.decls {
                    crate::nodes::pattern_names(&d.name, &mut |n| {
                        self.declare(n, Binding::Lexical { passed: true })
                    });
                }
            }
        }
    }
}

/// The points of a classic script (`Err` where it does not parse as one); a module gets none.
pub fn points(text: &str) -> Result<Vec<Point>, crate::js::Refusal> {
    crate::js::parse(text, crate::js::Goal::Script, |parsed| {
        let Some(script) = parsed.script() else {
            return Vec::new();
        };
        let mut c = Collect {
            parsed,
            firsts: parsed.line_tokens(),
            scopes: Vec::new(),
            declaring: false,
            within_with: 0,
            out: Vec::new(),
        };
        // The script's statements. Its own `var`s are properties of the global object in a
        // browser's script (locals of the module wrapper in Node's): no debugger here lists the
        // global scope, so they are not read.
        c.statements(script.body.iter(), true);
        c.out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_at(text: &str) -> Vec<(u32, Vec<String>)> {
        points(text)
            .unwrap()
            .into_iter()
            .map(|p| (p.line + 1, p.names))
            .collect()
    }

    fn v(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn names_are_read_only_where_they_are_initialized() {
        let text = "\"a directive\";\nlet a = 1;\nfunction f(p) {\n  var q = p;\n  return a + q;\n}\n{\n  let b = 2;\n  const g = () => {\n    return b;\n  };\n}\nswitch (a) {\n  case 1:\n    let c = 3;\n  case 2:\n    a = 4;\n}\nfor (let i = 0; i < 1; i++) {\n  a += i;\n}\nif (a) a = 5;\nwith (Math) {\n  a = 6;\n}\nlet z = 7;\n";
        assert_eq!(
            names_at(text),
            vec![
                // Not the directive; `a` not before its declaration ran; no function is read.
                (2, v(&[])),
                (3, v(&["a"])),
                // Inside a declaration: no outer `let` (it may run first), `p` and `q` yes.
                (4, v(&["p", "q"])),
                (5, v(&["p", "q"])),
                (7, v(&["a"])),
                (8, v(&["a"])),
                (9, v(&["a", "b"])),
                // An arrow sees what ran before its text.
                (10, v(&["a", "b"])),
                (13, v(&["a"])),
                // A case's `let` never counts as initialized in another case (or its own).
                (15, v(&["a"])),
                (17, v(&["a"])),
                (19, v(&["a"])),
                (20, v(&["a", "i"])),
                // The lone body of `if` is no point; nor inside `with`.
                (22, v(&["a"])),
                (23, v(&["a"])),
                (26, v(&["a"])),
            ]
        );
    }

    #[test]
    fn an_inner_binding_in_its_dead_zone_hides_the_outer_one() {
        let text = "let x = 1;\n{\n  x;\n  let x = 2;\n  x;\n}\n";
        assert_eq!(
            names_at(text),
            vec![
                (1, v(&[])),
                (2, v(&["x"])),
                (3, v(&[])),
                (4, v(&[])),
                (5, v(&["x"]))
            ]
        );
    }
}
