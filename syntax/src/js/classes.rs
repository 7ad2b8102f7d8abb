//! Two places of class declarations a debugger may pause at apart from the others. Where a
//! class's methods take their parameters: the span from each method's (constructor's,
//! accessor's) name to its body, with the line its class begins on; JavaScriptCore has been seen
//! to pause there while the class is being defined, after a static block, where no code of the
//! method runs. And where a `class … extends …` declaration begins, with its end: SpiderMonkey
//! stops a step there (it evaluates the heritage) where V8 and JavaScriptCore step past. The
//! recorder says so of such pauses.

use crate::js::ast;
use crate::js::visit::{Visit, VisitWith};
use morphtrace_schema::Location;

/// The parameter lists of a program's class members.
#[derive(Debug, Default)]
pub struct ClassParams {
    /// From the end of a member's name to its body's `{`, and the line its class begins on.
    lists: Vec<(Location, Location, u32)>,
}

struct Collect<'a> {
    parsed: &'a crate::js::Parsed<'a>,
    out: ClassParams,
    /// The lines the classes being walked begin on, innermost last.
    classes: Vec<u32>,
}

impl Collect<'_> {
    /// The list from the end of a member's name (`key`: its span) to its body's `{`.
    fn list(&mut self, key: crate::js::Span, body: Option<&ast::FunctionBody>) {
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
        self.list(crate::js::Spanned::span(&m.key), m.function.body.as_ref());
        m.visit_children_with(self);
    }
    fn visit_constructor(&mut self, c: &ast::Constructor) {
        self.list(crate::js::Spanned::span(&c.key), c.body.as_ref());
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
        crate::js::parse(text, crate::js::Goal::Program, |parsed| {
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

/// The `class … extends …` declarations of a program: where each begins and ends.
#[derive(Debug, Default)]
pub struct Heritages {
    declarations: Vec<(Location, Location)>,
}

struct CollectHeritages<'a> {
    parsed: &'a crate::js::Parsed<'a>,
    out: Heritages,
}

impl Visit for CollectHeritages<'_> {
    fn visit_class_decl(&mut self, d: &ast::ClassDecl) {
        if d.class.super_class.is_some() {
            let p = self.parsed;
            let (lo, hi) = p.range(d.class.span);
            self.out
                .declarations
                .push((p.positions.location(lo), p.positions.location(hi)));
        }
        d.visit_children_with(self);
    }
}

impl Heritages {
    /// The program's `class … extends …` declarations; `None` where it does not parse.
    pub fn scan(text: &str) -> Option<Heritages> {
        crate::js::parse(text, crate::js::Goal::Program, |parsed| {
            let mut c = CollectHeritages {
                parsed,
                out: Heritages::default(),
            };
            parsed.program.visit_with(&mut c);
            c.out
        })
        .ok()
    }

    /// Where the declaration that begins at `at` ends, if one does.
    pub fn declaration_at(&self, at: Location) -> Option<Location> {
        self.declarations
            .iter()
            .find(|(from, _)| *from == at)
            .map(|&(_, to)| to)
    }
}

/// The program's named classes (declarations and named class expressions): each one's name and
/// where it begins and ends. Inside its braces a class's name is bound in a scope of the class
/// (ECMAScript's ClassDefinitionEvaluation), apart from any outer binding of the same name.
#[derive(Debug, Default)]
pub struct NamedClasses {
    classes: Vec<(String, Location, Location)>,
}

struct CollectNamed<'a> {
    parsed: &'a crate::js::Parsed<'a>,
    out: NamedClasses,
}

impl CollectNamed<'_> {
    fn push(&mut self, name: &ast::Ident, class: &ast::Class) {
        let p = self.parsed;
        let (lo, hi) = p.range(class.span);
        self.out.classes.push((
            name.sym.to_string(),
            p.positions.location(lo),
            p.positions.location(hi),
        ));
    }
}

impl Visit for CollectNamed<'_> {
    fn visit_class_decl(&mut self, d: &ast::ClassDecl) {
        self.push(&d.ident, &d.class);
        d.visit_children_with(self);
    }
    fn visit_class_expr(&mut self, e: &ast::ClassExpr) {
        if let Some(name) = &e.ident {
            self.push(name, &e.class);
        }
        e.visit_children_with(self);
    }
}

impl NamedClasses {
    /// The program's named classes; `None` where it does not parse.
    pub fn scan(text: &str) -> Option<NamedClasses> {
        crate::js::parse(text, crate::js::Goal::Program, |parsed| {
            let mut c = CollectNamed {
                parsed,
                out: NamedClasses::default(),
            };
            parsed.program.visit_with(&mut c);
            c.out
        })
        .ok()
    }

    /// Whether `at` lies inside a class named `name` (its own name is bound there).
    pub fn inside(&self, name: &str, at: Location) -> bool {
        self.classes
            .iter()
            .any(|(n, from, to)| n == name && *from < at && at < *to)
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

    #[test]
    fn where_a_class_binds_its_own_name() {
        let text = "var acc = 0;\nclass C1 {\n  static {\n    acc = 1;\n  }\n}\nconst D = class E {\n  m() {}\n};\nconst F = class {};\nacc = 2;\n";
        let c = NamedClasses::scan(text).unwrap();
        assert!(c.inside("C1", at(4, 5)), "a static block");
        assert!(!c.inside("C1", at(2, 1)), "where it begins");
        assert!(!c.inside("C1", at(11, 1)), "after it");
        assert!(!c.inside("acc", at(4, 5)), "another name");
        assert!(c.inside("E", at(8, 3)), "a named class expression");
        assert!(!c.inside("D", at(8, 3)), "the binding it is assigned to");
        assert!(!c.inside("F", at(10, 18)), "an anonymous class");
        assert!(NamedClasses::scan("class {").is_none());
    }

    #[test]
    fn where_a_class_with_a_heritage_begins_and_ends() {
        let text = "let a = 0;\nclass A {\n  m() { return 1; }\n}\nclass B extends A {\n  constructor() {\n    super();\n  }\n}\nconst D = class extends A {};\n  class C extends (a ? A : B) {}\n";
        let h = Heritages::scan(text).unwrap();
        assert_eq!(h.declaration_at(at(5, 1)), Some(at(9, 2)));
        assert_eq!(h.declaration_at(at(11, 3)), Some(at(11, 33)), "indented");
        assert_eq!(h.declaration_at(at(2, 1)), None, "no heritage");
        assert_eq!(h.declaration_at(at(10, 11)), None, "a class expression");
        assert_eq!(h.declaration_at(at(5, 7)), None, "not where it begins");
        assert!(Heritages::scan("class B extends {").is_none());
    }
}
