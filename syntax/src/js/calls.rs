//! Calls whose arguments call only built-ins: where each such call starts. JavaScriptCore pauses
//! before every call, so a step into from the start of `mix(Math.abs(7))` enters no function
//! (the built-in has no source) and pauses before `mix` is called, at the very place it stood;
//! V8 and SpiderMonkey go on into `mix`. The recorder says when a side paused again there.

use crate::js::ast;
use crate::js::visit::{Visit, VisitWith};
use morphtrace_schema::Location;
use std::collections::HashSet;

/// ECMAScript's global objects and functions that a program calls as built-ins.
const BUILT_INS: &[&str] = &[
    "Math",
    "String",
    "Number",
    "Boolean",
    "Object",
    "Array",
    "JSON",
    "Reflect",
    "Symbol",
    "BigInt",
    "Date",
    "parseInt",
    "parseFloat",
    "isNaN",
    "isFinite",
];

/// The starts of the calls whose arguments call something, and only built-ins.
#[derive(Debug, Default)]
pub struct BuiltInArguments {
    starts: HashSet<Location>,
}

/// Every name the program binds (so that a built-in's name it rebinds is not taken for one).
struct Bound(HashSet<String>);
impl Visit for Bound {
    fn visit_binding_ident(&mut self, b: &ast::BindingIdent) {
        self.0.insert(b.id.sym.to_string());
    }
    fn visit_fn_decl(&mut self, f: &ast::FnDecl) {
        self.0.insert(f.ident.sym.to_string());
        f.visit_children_with(self);
    }
    fn visit_class_decl(&mut self, c: &ast::ClassDecl) {
        self.0.insert(c.ident.sym.to_string());
        c.visit_children_with(self);
    }
}

/// The calls made inside a call's arguments: whether there is one, and whether all are of
/// built-ins.
struct Inner<'a> {
    bound: &'a HashSet<String>,
    calls: usize,
    built_in: bool,
}

impl Inner<'_> {
    fn root(e: &ast::Expr) -> Option<&str> {
        match e {
            ast::Expr::Ident(i) => Some(&i.sym),
            ast::Expr::Member(m) => Self::root(&m.obj),
            _ => None,
        }
    }
}

impl Visit for Inner<'_> {
    fn visit_call_expr(&mut self, c: &ast::CallExpr) {
        self.calls += 1;
        let known = match &c.callee {
            ast::Callee::Expr(e) => {
                Self::root(e).is_some_and(|r| BUILT_INS.contains(&r) && !self.bound.contains(r))
            }
            _ => false,
        };
        self.built_in &= known;
        c.visit_children_with(self);
    }
    // A call is a call; a `new`, a tagged template, a getter or a function written in the
    // arguments (its body not run there) is not counted as built-in.
    fn visit_new_expr(&mut self, n: &ast::NewExpr) {
        self.built_in = false;
        n.visit_children_with(self);
    }
    fn visit_tagged_tpl(&mut self, t: &ast::TaggedTpl) {
        self.built_in = false;
        t.visit_children_with(self);
    }
}

struct Collect<'a> {
    parsed: &'a crate::js::Parsed<'a>,
    bound: HashSet<String>,
    out: BuiltInArguments,
}

impl Visit for Collect<'_> {
    fn visit_call_expr(&mut self, c: &ast::CallExpr) {
        let mut inner = Inner {
            bound: &self.bound,
            calls: 0,
            built_in: true,
        };
        c.args.visit_with(&mut inner);
        if inner.calls > 0 && inner.built_in {
            let p = self.parsed;
            self.out
                .starts
                .insert(p.positions.location(p.range(c.span).0));
        }
        c.visit_children_with(self);
    }
}

impl BuiltInArguments {
    /// The program's calls; `None` where it does not parse (nothing is said then).
    pub fn scan(text: &str) -> Option<BuiltInArguments> {
        crate::js::parse(text, crate::js::Goal::Program, |parsed| {
            let mut bound = Bound(HashSet::new());
            parsed.program.visit_with(&mut bound);
            let mut c = Collect {
                parsed,
                bound: bound.0,
                out: BuiltInArguments::default(),
            };
            parsed.program.visit_with(&mut c);
            c.out
        })
        .ok()
    }

    /// Whether a call whose arguments call only built-ins starts at `at`.
    pub fn starts_at(&self, at: Location) -> bool {
        self.starts.contains(&at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line1: u32, col1: u32) -> Location {
        Location::new(line1 - 1, col1 - 1)
    }

    #[test]
    fn calls_whose_arguments_call_only_built_ins() {
        let text = "function mix(v) {}\nfunction sq(x) { return x * x; }\nmix(Math.abs(-7));\nmix(String(3).length + parseInt(\"4\"));\nmix(sq(7));\nmix(Math.abs(sq(2)));\nmix(8);\n  mix(Math.max(1, 2));\nmix(new Date(0).getTime());\n";
        let c = BuiltInArguments::scan(text).unwrap();
        assert!(c.starts_at(at(3, 1)));
        assert!(c.starts_at(at(4, 1)));
        assert!(!c.starts_at(at(5, 1)), "sq is the program's");
        assert!(!c.starts_at(at(6, 1)), "a program function among them");
        assert!(!c.starts_at(at(7, 1)), "no call in the arguments");
        assert!(c.starts_at(at(8, 3)));
        assert!(!c.starts_at(at(8, 1)));
        assert!(!c.starts_at(at(9, 1)), "a constructor");
        // A program that rebinds a built-in's name.
        let shadow = BuiltInArguments::scan(
            "const Math = { abs(x) { return x; } };\nfunction mix(v) {}\nmix(Math.abs(1));\n",
        )
        .unwrap();
        assert!(!shadow.starts_at(at(3, 1)));
    }
}
