//! Functions without side effects, for the restart-frame relation: running one again from its
//! start changes nothing its first run left behind, so its pauses repeat.
//!
//! Judged on the syntax tree, conservatively: a plain function (not a generator, not async)
//! whose body calls nothing (`f()`, `new`, tagged templates), reads no property (a getter may
//! run), defines no function or class, deletes nothing, and assigns only its own variables
//! (not its parameters: a restart runs it with the arguments its frame holds).

use super::ast;
use super::visit::{Visit, VisitWith};
use super::Goal;
use morphtrace_schema::Location;
use std::collections::{BTreeSet, HashSet};

/// A function of the program: where its body is, and whether it is without side effects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    pub body: (Location, Location),
    pub pure: bool,
}

/// Every function with a body (arrows with an expression body are not restartable places of
/// interest and are left out); empty when the program does not parse.
pub fn functions(text: &str) -> Vec<Function> {
    super::parse(text, Goal::Script, |p| Collect::of(p).out).unwrap_or_default()
}

/// Lines (0-based) holding a call by name to a function declaration without side effects: where
/// a step into can enter one, so that a metamorphic campaign's parents can carry what the
/// restart-frame relation needs (`metamorphic::carrying`). By name only, shadowing aside: it
/// steers a draw, it judges nothing.
pub fn pure_calls(text: &str) -> BTreeSet<u32> {
    super::parse(text, Goal::Script, |p| {
        let c = Collect::of(p);
        let mut calls = Calls {
            parsed: p,
            names: c.pure_names,
            lines: BTreeSet::new(),
        };
        p.program.visit_with(&mut calls);
        calls.lines
    })
    .unwrap_or_default()
}

/// Whether the innermost function whose body holds `at` is without side effects.
pub fn pure_at(functions: &[Function], at: Location) -> bool {
    functions
        .iter()
        .filter(|f| f.body.0 <= at && at < f.body.1)
        .max_by_key(|f| f.body.0)
        .is_some_and(|f| f.pure)
}

struct Collect<'a> {
    parsed: &'a super::Parsed<'a>,
    out: Vec<Function>,
    /// The name of the function declaration being visited, taken by its function.
    named: Option<String>,
    /// Names of function declarations without side effects.
    pure_names: HashSet<String>,
}

impl<'a> Collect<'a> {
    /// The program's functions, visited.
    fn of(parsed: &'a super::Parsed<'a>) -> Self {
        let mut c = Collect {
            parsed,
            out: Vec::new(),
            named: None,
            pure_names: HashSet::new(),
        };
        parsed.program.visit_with(&mut c);
        c
    }
}

impl Visit for Collect<'_> {
    fn visit_fn_decl(&mut self, d: &ast::FnDecl) {
        self.named = Some(d.ident.sym.to_string());
        d.function.visit_with(self);
    }

    fn visit_function(&mut self, f: &ast::Function) {
        let named = self.named.take();
        if let Some(body) = &f.body {
            let (lo, hi) = self.parsed.range(body.span);
            let p = &self.parsed.positions;
            let mut params = Names(Vec::new());
            f.params.visit_with(&mut params);
            let mut locals = Locals(HashSet::new());
            body.visit_with(&mut locals);
            let mut check = Purity {
                locals: locals.0,
                params: params.0.into_iter().collect(),
                pure: !f.is_generator && !f.is_async,
            };
            body.visit_with(&mut check);
            if check.pure {
                self.pure_names.extend(named);
            }
            self.out.push(Function {
                body: (p.location(lo), p.location(hi)),
                pure: check.pure,
            });
        }
        f.visit_children_with(self);
    }
}

/// Lines of calls whose callee is one of `names`.
struct Calls<'a> {
    parsed: &'a super::Parsed<'a>,
    names: HashSet<String>,
    lines: BTreeSet<u32>,
}

impl Visit for Calls<'_> {
    fn visit_call_expr(&mut self, c: &ast::CallExpr) {
        if let ast::Callee::Expr(e) = &c.callee {
            if let ast::Expr::Ident(i) = &**e {
                if self.names.contains(&*i.sym) {
                    let (lo, _) = self.parsed.range(c.span);
                    self.lines.insert(self.parsed.positions.location(lo).line);
                }
            }
        }
        c.visit_children_with(self);
    }
}

/// Binding names of a pattern (not those inside its default values).
struct Names(Vec<String>);
impl Visit for Names {
    fn visit_binding_ident(&mut self, b: &ast::BindingIdent) {
        self.0.push(b.id.sym.to_string());
    }
    fn visit_expr(&mut self, _: &ast::Expr) {}
}

/// The names a body declares (`var`, `let`, `const`, `catch`), nested functions aside.
struct Locals(HashSet<String>);
impl Visit for Locals {
    fn visit_var_declarator(&mut self, d: &ast::VarDeclarator) {
        let mut n = Names(Vec::new());
        d.name.visit_with(&mut n);
        self.0.extend(n.0);
        d.init.visit_with(self);
    }
    fn visit_catch_clause(&mut self, c: &ast::CatchClause) {
        let mut n = Names(Vec::new());
        c.param.visit_with(&mut n);
        self.0.extend(n.0);
        c.body.visit_with(self);
    }
    fn visit_function(&mut self, _: &ast::Function) {}
    fn visit_arrow_expr(&mut self, _: &ast::ArrowExpr) {}
}

struct Purity {
    locals: HashSet<String>,
    params: HashSet<String>,
    pure: bool,
}

impl Purity {
    fn own(&self, name: &str) -> bool {
        self.locals.contains(name) && !self.params.contains(name)
    }
}

impl Visit for Purity {
    fn visit_call_expr(&mut self, _: &ast::CallExpr) {
        self.pure = false;
    }
    fn visit_new_expr(&mut self, _: &ast::NewExpr) {
        self.pure = false;
    }
    fn visit_tagged_tpl(&mut self, _: &ast::TaggedTpl) {
        self.pure = false;
    }
    fn visit_yield_expr(&mut self, _: &ast::YieldExpr) {
        self.pure = false;
    }
    fn visit_await_expr(&mut self, _: &ast::AwaitExpr) {
        self.pure = false;
    }
    fn visit_member_expr(&mut self, _: &ast::MemberExpr) {
        self.pure = false;
    }
    fn visit_super_prop_expr(&mut self, _: &ast::SuperPropExpr) {
        self.pure = false;
    }
    fn visit_opt_chain_expr(&mut self, _: &ast::OptChainExpr) {
        self.pure = false;
    }
    fn visit_function(&mut self, _: &ast::Function) {
        self.pure = false;
    }
    fn visit_arrow_expr(&mut self, _: &ast::ArrowExpr) {
        self.pure = false;
    }
    fn visit_class(&mut self, _: &ast::Class) {
        self.pure = false;
    }
    fn visit_unary_expr(&mut self, u: &ast::UnaryExpr) {
        if u.op == ast::UnaryOp::Delete {
            self.pure = false;
        }
        u.arg.visit_with(self);
    }
    fn visit_assign_expr(&mut self, a: &ast::AssignExpr) {
        match &a.left {
            ast::AssignTarget::Simple(ast::SimpleAssignTarget::Ident(i)) if self.own(&i.id.sym) => {
            }
            _ => self.pure = false,
        }
        a.right.visit_with(self);
    }
    fn visit_update_expr(&mut self, u: &ast::UpdateExpr) {
        match &*u.arg {
            ast::Expr::Ident(i) if self.own(&i.sym) => {}
            _ => self.pure = false,
        }
    }
    fn visit_for_in_stmt(&mut self, f: &ast::ForInStmt) {
        // `for (x in o)` assigns `x`: only an own declaration may be the target.
        if !matches!(f.left, ast::ForHead::VarDecl(_)) {
            self.pure = false;
        }
        f.visit_children_with(self);
    }
    fn visit_for_of_stmt(&mut self, f: &ast::ForOfStmt) {
        // Iterating runs the iterable's iterator: program code.
        self.pure = false;
        f.visit_children_with(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn purity(text: &str) -> Vec<bool> {
        functions(text).into_iter().map(|f| f.pure).collect()
    }

    #[test]
    fn only_functions_that_change_nothing_outside_are_pure() {
        assert_eq!(
            purity("function f(n) {\n  let t = n * 2;\n  for (let i = 0; i < n; i++) { t += i; }\n  return t;\n}\n"),
            [true]
        );
        for impure in [
            "let c = 0;\nfunction f(n) { c += n; return c; }\n",
            "function f(n) { n = n + 1; return n; }\n",
            "function f(o) { return o.x; }\n",
            "function f(n) { return g(n); }\n",
            "function f(n) { let t = new Date(); return n; }\n",
            "function* f(n) { let t = n; yield t; }\n",
            "async function f(n) { let t = n; return t; }\n",
            "function f(n) { let g = () => n; return n; }\n",
            "function f(n) { for (const x of [n]) {} return n; }\n",
            "function f(n) { let t = 0; t++; c++; return t; }\n",
        ] {
            assert_eq!(purity(impure), [false], "{impure}");
        }
    }

    #[test]
    fn calls_by_name_to_pure_declarations_are_found_on_their_lines() {
        let text = "function sq(n) {\n  return n * n;\n}\nfunction log(n) {\n  console.log(n);\n}\nlet a = 1 + sq(2);\nlog(a);\nfunction outer() {\n  return [sq(a)];\n}\nouter();\n";
        assert_eq!(pure_calls(text), BTreeSet::from([6, 9]));
        // A function expression's name is no declaration; an impure body is no pure call.
        assert!(pure_calls("let f = function g(n) { return n; };\nf(1);\n").is_empty());
        assert!(pure_calls("not ( javascript").is_empty());
    }

    #[test]
    fn the_innermost_function_decides() {
        let text = "function outer(o) {\n  function inner(n) {\n    let t = n;\n    return t;\n  }\n  return o.x;\n}\n";
        let fs = functions(text);
        assert!(pure_at(&fs, Location::new(2, 4)));
        assert!(!pure_at(&fs, Location::new(5, 2)));
        assert!(!pure_at(&fs, Location::new(7, 0)), "top-level code");
    }
}
