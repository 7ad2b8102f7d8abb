//! Where a class's methods take their parameters: the span from each method's (constructor's,
//! accessor's) name to its body, with the line its class begins on. JavaScriptCore has been seen
//! to pause there while the class is being defined, after a static block, where no code of the
//! method runs (the recorder says so of such a pause).

use crate::ast;
use crate::visit::{Visit, VisitWith};
use morphtrace_schema::Location;

/// The parameter lists of a program's class members.
#[derive(Debug, Default)]
pub struct ClassParams {
    /// From the end of a member's name to its body's `{`, and the line its class begins on.
    lists: Vec<(Location, Location, u32)>,
}

struct Collect<'a> {
    parsed: &'a crate::Parsed<'a>,
    out: ClassParams,
    /// The lines the classes being walked begin on, innermost last.
    classes: Vec<u32>,
}

impl Collect<'_> {
    /// The list from the end of a member's name (`key`: its span) to its body's `{`.
    fn list(&mut self, key: crate::Span, body: Option<&ast::FunctionBody>) {
        let (Some(&class), Some(body)) = (self.classes.last(), body) else {
            return;
        };
        let p = self.parsed;
        let from = p.range(key).1;
        let to = p.range(body.span).0;
        self.out
            .lists
            .push((p.positions.location(from), p.positions.location(to), class));
    }
}

impl Visit for Collect<'_> {
    fn visit_class(&mut self, c: &ast::Class) {
        let line = self
            .parsed
            .positions
            .location(self.parsed.range(c.span).0)
            .line;
        self.classes.push(line);
        c.visit_children_with(self);
        self.classes.pop();
    }
    fn visit_class_method(&mut self, m: &ast::ClassMethod) {
        self.list(crate::Spanned::span(&m.key), m.function.body.as_ref());
        m.visit_children_with(self);
    }
    fn visit_constructor(&mut self, c: &ast::Constructor) {
        self.list(crate::Spanned::span(&c.key), c.body.as_ref());
        c.visit_children_with(self);
    }
    fn visit_private_method(&mut self, m: &ast::PrivateMethod) {
        self.list(m.key.span, m.function.body.as_ref());
        m.visit_children_with(self);
    }
    // A function inside a member's body is not a member of the class.
    fn visit_function(&mut self, f: &ast::Function) {
        let outer = std::mem::take(&mut self.classes);
        f.visit_children_with(self);
        self.classes = outer;
    }
    fn visit_arrow_expr(&mut self, a: &ast::ArrowExpr) {
        let outer = std::mem::take(&mut self.classes);
        a.visit_children_with(self);
        self.classes = outer;
    }
}

impl ClassParams {
    /// The program's class members; `None` where it does not parse (nothing is said then).
    pub fn scan(text: &str) -> Option<ClassParams> {
        crate::parse(text, crate::Goal::Program, |parsed| {
            let mut c = Collect {
                parsed,
                out: ClassParams::default(),
                classes: Vec::new(),
            };
            parsed.program.visit_with(&mut c);
            c.out
        })
        .ok()
    }

    /// The line of the class whose member takes its parameters at `at`, if any.
    pub fn class_of_params_at(&self, at: Location) -> Option<u32> {
        self.lists
            .iter()
            .find(|&&(from, to, _)| from <= at && at < to)
            .map(|&(_, _, class)| class)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line1: u32, col1: u32) -> Location {
        Location::new(line1 - 1, col1 - 1)
    }

    #[test]
    fn a_class_members_parameters_and_its_classs_line() {
        let text = "var acc = 0;\nclass C1 {\n  static made = 0;\n  static {\n    this.made = 1;\n  }\n  constructor(start) {\n    this.base = start | 0;\n  }\n  m(a, b) { return () => { function g(x) {} }; }\n  #p(n) {}\n  get total() { return 1; }\n}\nfunction f(q) {}\nconst o = { k(z) {} };\n";
        let c = ClassParams::scan(text).unwrap();
        // The constructor's `(start)`: JavaScriptCore's pause at 7:15.
        assert_eq!(c.class_of_params_at(at(7, 15)), Some(1));
        assert_eq!(c.class_of_params_at(at(7, 14)), Some(1));
        assert_eq!(c.class_of_params_at(at(7, 22)), None, "the body's brace");
        assert_eq!(c.class_of_params_at(at(8, 5)), None, "the body");
        assert_eq!(c.class_of_params_at(at(10, 5)), Some(1), "a method's");
        assert_eq!(
            c.class_of_params_at(at(11, 6)),
            Some(1),
            "a private method's"
        );
        assert_eq!(c.class_of_params_at(at(12, 12)), Some(1), "a getter's");
        assert_eq!(
            c.class_of_params_at(at(10, 38)),
            None,
            "a function inside a method"
        );
        assert_eq!(c.class_of_params_at(at(14, 12)), None, "a function");
        assert_eq!(
            c.class_of_params_at(at(15, 15)),
            None,
            "an object literal's method"
        );
        assert_eq!(c.class_of_params_at(at(5, 5)), None, "the static block");
    }
}
