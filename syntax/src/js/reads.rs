//! The names a debugger's expression refers to (`v44 - i72` reads `v44` and `i72`): where one
//! engine evaluates an expression and another throws a `ReferenceError`, whether the expression
//! reads a binding that the throwing side shows in its temporal dead zone at that pause.

use crate::js::ast;
use crate::js::visit::{Visit, VisitWith};

struct Collect(Vec<String>);

impl Visit for Collect {
    fn visit_expr(&mut self, e: &ast::Expr) {
        if let ast::Expr::Ident(i) = e {
            self.push(&i.sym);
        }
        e.visit_children_with(self);
    }

    // `{ x }` reads `x` as well.
    fn visit_prop(&mut self, p: &ast::Prop) {
        if let ast::Prop::Shorthand(i) = p {
            self.push(&i.sym);
        }
        p.visit_children_with(self);
    }
}

impl Collect {
    fn push(&mut self, name: &str) {
        if !self.0.iter().any(|n| n == name) {
            self.0.push(name.to_string());
        }
    }
}

/// Every identifier reference in `expression`, each once, in the order they appear (property
/// names after a `.` and object literal keys are not references). `None` where the text is not
/// one expression (a statement list, a syntax error).
pub fn names_read(expression: &str) -> Option<Vec<String>> {
    // Parenthesized, so that only an expression parses (`x; y` or `let x` do not).
    let text = format!("({expression}\n)");
    crate::js::parse(&text, crate::js::Goal::Script, |parsed| {
        let script = parsed.script()?;
        let [ast::Stmt::Expr(_)] = script.body.as_slice() else {
            return None;
        };
        let mut c = Collect(Vec::new());
        script.visit_with(&mut c);
        Some(c.0)
    })
    .ok()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::names_read;

    #[test]
    fn references_but_not_property_names_or_keys() {
        assert_eq!(names_read("v44 - i72").unwrap(), ["v44", "i72"]);
        assert_eq!(names_read("v19").unwrap(), ["v19"]);
        assert_eq!(
            names_read("o.x + f(a, o)[b] + { k: c, d }.k").unwrap(),
            ["o", "f", "a", "b", "c", "d"]
        );
        assert_eq!(names_read("`${t}` + 1").unwrap(), ["t"]);
        assert_eq!(names_read("1 + 2").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn only_one_expression() {
        assert_eq!(names_read("x; y"), None);
        assert_eq!(names_read("let x = 1"), None);
        assert_eq!(names_read("x +"), None);
        assert_eq!(names_read("x) + (y"), Some(vec!["x".into(), "y".into()]));
    }
}
