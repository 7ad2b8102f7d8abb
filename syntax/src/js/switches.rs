//! Where a `switch` evaluates its discriminant, with the `let`, `const` and `class` names its
//! case block declares. ECMAScript creates the case block's scope only once the discriminant
//! is evaluated (SwitchStatement's evaluation); V8 lists it, uninitialized, while the
//! discriminant runs, so a divergence over such a name there says so.

use crate::js::ast;
use crate::js::visit::{Visit, VisitWith};
use morphtrace_schema::Location;

/// The discriminants of a program's `switch` statements whose case blocks declare lexical names.
#[derive(Debug, Default)]
pub struct Discriminants {
    /// Each discriminant, with the names its case block declares.
    switches: crate::js::NamedSpans,
}

struct Collect<'a> {
    parsed: &'a crate::js::Parsed<'a>,
    out: Discriminants,
}

impl Visit for Collect<'_> {
    fn visit_switch_stmt(&mut self, s: &ast::SwitchStmt) {
        let mut names = Vec::new();
        for stmt in s.cases.iter().flat_map(|c| &c.cons) {
            match stmt {
                ast::Stmt::Decl(ast::Decl::Var(d)) if d.kind != ast::VarDeclKind::Var => {
                    for decl in &d.decls {
                        crate::nodes::pattern_names(&decl.name, &mut |n| names.push(n.to_string()));
                    }
                }
                ast::Stmt::Decl(ast::Decl::Class(c)) => names.push(c.ident.sym.to_string()),
                _ => {}
            }
        }
        if !names.is_empty() {
            self.out.switches.push(
                self.parsed,
                crate::js::Spanned::span(&*s.discriminant),
                names,
            );
        }
        s.visit_children_with(self);
    }
}

impl Discriminants {
    /// The program's `switch` statements; `None` where it does not parse (nothing is said then).
    pub fn scan(text: &str) -> Option<Discriminants> {
        crate::js::parse(text, crate::js::Goal::Program, |parsed| {
            let mut c = Collect {
                parsed,
                out: Discriminants::default(),
            };
            parsed.program.visit_with(&mut c);
            c.out
        })
        .ok()
    }

    /// Whether `at` is in the discriminant of a `switch` whose case block declares `name`.
    pub fn declares_after(&self, name: &str, at: Location) -> bool {
        self.switches.names_at(name, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line1: u32, col1: u32) -> Location {
        Location::new(line1 - 1, col1 - 1)
    }

    #[test]
    fn a_discriminant_and_the_names_its_cases_declare() {
        let text = "let a = 1;\nswitch (Math.abs(a) % 2) {\n  case 0:\n    const v = 1;\n    let { w, x: [y] } = { w: 1, x: [2] };\n    break;\n  default:\n    class K {}\n    var z = 3;\n    { let inner = 1; }\n}\nswitch (a) {\n  case 1:\n    a += 1;\n}\n";
        let d = Discriminants::scan(text).unwrap();
        // `Math.abs(a) % 2` from 2:9 to 2:24.
        for name in ["v", "w", "y", "K"] {
            assert!(d.declares_after(name, at(2, 9)), "{name}");
            assert!(d.declares_after(name, at(2, 13)), "{name}: at the call");
        }
        assert!(!d.declares_after("v", at(2, 24)), "after the discriminant");
        assert!(!d.declares_after("v", at(4, 5)), "in a case");
        assert!(!d.declares_after("z", at(2, 9)), "a `var`");
        assert!(!d.declares_after("inner", at(2, 9)), "a nested block's");
        assert!(!d.declares_after("x", at(2, 9)), "a property's key");
        assert!(
            !d.declares_after("a", at(12, 9)),
            "a switch that declares nothing"
        );
        assert!(Discriminants::scan("switch (").is_none());
    }
}
