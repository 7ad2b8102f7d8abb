//! Where JavaScript functions return: each function body's closing brace and the end of each
//! `return` statement, with the body it returns from. A step that leaves a function pauses,
//! before the frame goes, at one or the other depending on the engine (V8 at the `return`'s
//! end, SpiderMonkey at the closing brace, JavaScriptCore just after it), so a divergence
//! between such pauses can say that both sides stand where the same function returns. Also each
//! function that ends in an `if` holding a `return`, whose end JavaScriptCore does not pause at.

use crate::js::ast;
use crate::js::visit::{Visit, VisitWith};
use morphtrace_schema::Location;

/// The function bodies of a program and where each returns.
#[derive(Debug, Default)]
pub struct Exits {
    bodies: Vec<Body>,
}

#[derive(Debug)]
struct Body {
    /// The body's opening brace.
    open: Location,
    /// The body's closing brace.
    brace: Location,
    /// From the end of each `return`'s argument (or of the keyword) to the statement's end.
    returns: Vec<(Location, Location)>,
    /// The body's last statement where it is an `if` that holds a `return` of the body's own
    /// (not a nested function's): its start and end. Where that `return` is not taken the
    /// function ends at its brace, which JavaScriptCore gives no pause (traces/findings/
    /// jsc-a-step-over-from-an-untaken-return-at-a-functions-end-runs-into-the-next-call).
    ending_if: Option<(Location, Location)>,
}

/// Whether a statement holds a `return` of its own function (nested functions and classes are
/// theirs).
struct HoldsAReturn(bool);

impl Visit for HoldsAReturn {
    fn visit_return_stmt(&mut self, _: &ast::ReturnStmt) {
        self.0 = true;
    }
    fn visit_function(&mut self, _: &ast::Function) {}
    fn visit_arrow_expr(&mut self, _: &ast::ArrowExpr) {}
    fn visit_class(&mut self, _: &ast::Class) {}
}

struct Collect<'a> {
    parsed: &'a crate::js::Parsed<'a>,
    out: Exits,
    /// The bodies being walked, innermost last (indices into `out.bodies`).
    open: Vec<usize>,
}

impl Collect<'_> {
    fn body(&mut self, block: &ast::FunctionBody) {
        let (lo, hi) = self.parsed.range(block.span);
        let brace = self.parsed.positions.location(hi.saturating_sub(1));
        let ending_if = match block.stmts.last() {
            Some(ast::Stmt::If(i)) => {
                let mut holds = HoldsAReturn(false);
                i.visit_with(&mut holds);
                holds.0.then(|| {
                    let (a, b) = self.parsed.range(i.span);
                    let p = &self.parsed.positions;
                    (p.location(a), p.location(b))
                })
            }
            _ => None,
        };
        self.out.bodies.push(Body {
            open: self.parsed.positions.location(lo),
            brace,
            returns: Vec::new(),
            ending_if,
        });
        self.open.push(self.out.bodies.len() - 1);
        block.visit_children_with(self);
        self.open.pop();
    }
}

impl Visit for Collect<'_> {
    fn visit_function(&mut self, f: &ast::Function) {
        f.params.visit_with(self);
        f.decorators.visit_with(self);
        if let Some(b) = &f.body {
            self.body(b);
        }
    }
    fn visit_constructor(&mut self, c: &ast::Constructor) {
        c.params.visit_with(self);
        if let Some(b) = &c.body {
            self.body(b);
        }
    }
    fn visit_arrow_expr(&mut self, a: &ast::ArrowExpr) {
        a.params.visit_with(self);
        match &*a.body {
            ast::ArrowFunctionBody::FunctionBody(b) => self.body(b),
            // An expression body has no brace: its function leaves at the expression's end.
            ast::ArrowFunctionBody::Expr(e) => {
                self.open.push(usize::MAX);
                e.visit_with(self);
                self.open.pop();
            }
        }
    }
    fn visit_return_stmt(&mut self, r: &ast::ReturnStmt) {
        let p = self.parsed;
        let (lo, hi) = p.range(r.span);
        let from = match &r.arg {
            Some(arg) => p.range(crate::js::Spanned::span(&**arg)).1,
            None => (lo + "return".len()).min(hi),
        };
        if let Some(&b) = self.open.last() {
            if let Some(body) = self.out.bodies.get_mut(b) {
                body.returns
                    .push((p.positions.location(from), p.positions.location(hi)));
            }
        }
        r.visit_children_with(self);
    }
}

impl Exits {
    /// The program's function bodies; `None` where it does not parse (or passes the parser's
    /// limits): then nothing is said of where a function returns.
    pub fn scan(text: &str) -> Option<Exits> {
        crate::js::parse(text, crate::js::Goal::Program, |parsed| {
            let mut c = Collect {
                parsed,
                out: Exits::default(),
                open: Vec::new(),
            };
            parsed.program.visit_with(&mut c);
            c.out
        })
        .ok()
    }

    /// The body whose closing brace is at `at` or just after it (JavaScriptCore's place).
    fn brace_at(&self, at: Location) -> Option<&Body> {
        self.bodies.iter().find(|b| {
            b.brace.line == at.line
                && (at.column == b.brace.column || at.column == b.brace.column + 1)
        })
    }

    /// The innermost function body that holds `at` (between its braces, both included), by its
    /// number in program order; `None`: top-level code. Two places are in the code of one
    /// function when they have the same.
    pub fn body_holding(&self, at: Location) -> Option<usize> {
        self.bodies
            .iter()
            .enumerate()
            .filter(|(_, b)| b.open <= at && at <= b.brace)
            .max_by_key(|(_, b)| b.open)
            .map(|(i, _)| i)
    }

    /// Every function body's closing brace, in program order.
    pub fn braces(&self) -> Vec<Location> {
        self.bodies.iter().map(|b| b.brace).collect()
    }

    /// Whether `at` is exactly at a function body's closing brace.
    pub fn closing_brace_exactly_at(&self, at: Location) -> bool {
        self.bodies.iter().any(|b| b.brace == at)
    }

    /// Whether `at` is at a function body's closing brace (or just after it).
    pub fn at_a_closing_brace(&self, at: Location) -> bool {
        self.brace_at(at).is_some()
    }

    /// Whether `a` and `b` are both at the closing brace of one function body (or just after).
    pub fn same_closing_brace(&self, a: Location, b: Location) -> bool {
        match (self.brace_at(a), self.brace_at(b)) {
            (Some(x), Some(y)) => std::ptr::eq(x, y),
            _ => false,
        }
    }

    /// Where the function whose closing brace is at `brace` (or just after it) ends in an `if`
    /// that holds a `return` of its own: that statement's start and end (exclusive).
    pub fn ending_if_at_brace(&self, brace: Location) -> Option<(Location, Location)> {
        self.brace_at(brace)?.ending_if
    }

    /// Whether `ret` is at the end of a `return` statement (between its argument's end and the
    /// statement's) of the function whose closing brace `brace` is at (or just after).
    pub fn returns_there(&self, ret: Location, brace: Location) -> bool {
        self.brace_at(brace)
            .is_some_and(|b| b.returns.iter().any(|&(from, to)| from <= ret && ret <= to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line1: u32, col1: u32) -> Location {
        Location::new(line1 - 1, col1 - 1)
    }

    #[test]
    fn a_functions_brace_and_the_ends_of_its_returns() {
        let text = "function f(a) {\n  const v = a + 1;\n  if (v) {\n    return (v * 2) | 0;\n  }\n  return;\n}\nconst g = (x) => {\n  return x;\n};\nconst h = (y) => y;\nclass C {\n  m() {\n    return () => { return 1 };\n  }\n}\n";
        let e = Exits::scan(text).unwrap();
        // f's brace at 7:1; JavaScriptCore's place just after it.
        assert!(e.at_a_closing_brace(at(7, 1)));
        assert!(e.at_a_closing_brace(at(7, 2)));
        assert!(!e.at_a_closing_brace(at(7, 3)));
        assert!(e.closing_brace_exactly_at(at(7, 1)));
        assert!(!e.closing_brace_exactly_at(at(7, 2)), "just after it");
        assert!(
            e.closing_brace_exactly_at(at(15, 3)),
            "a method's, indented"
        );
        // The `if` block's brace is not a function's.
        assert!(!e.at_a_closing_brace(at(5, 3)));
        // `return (v * 2) | 0;`: its argument ends at 4:23 (the `;`), the statement at 4:24.
        assert!(e.returns_there(at(4, 23), at(7, 1)));
        assert!(e.returns_there(at(4, 24), at(7, 2)));
        assert!(!e.returns_there(at(4, 22), at(7, 1)), "inside the argument");
        assert!(
            !e.returns_there(at(4, 5), at(7, 1)),
            "the statement's start"
        );
        // `return;`
        assert!(e.returns_there(at(6, 9), at(7, 1)));
        // g's return is g's, not f's; h has no brace.
        assert!(e.returns_there(at(9, 11), at(10, 1)));
        assert!(!e.returns_there(at(9, 11), at(7, 1)));
        assert!(!e.returns_there(at(4, 23), at(10, 1)));
        // A method's body, and an arrow's inside it: each its own returns (the arrow's
        // `return 1` ends at 14:28, its brace at 14:29; the method's at 14:30..14:31).
        assert!(e.returns_there(at(14, 28), at(14, 29)), "the arrow's");
        assert!(e.returns_there(at(14, 30), at(15, 3)), "the method's");
        assert!(!e.returns_there(at(14, 28), at(15, 3)));
    }

    #[test]
    fn a_function_that_ends_in_an_if_holding_a_return() {
        let text = "function a(v) {\n  var y = v;\n  if (y > 5) return 5;\n}\nfunction b(v) {\n  if (v) { v = 1; } else { return; }\n}\nfunction c(v) {\n  if (v) v = 1;\n}\nfunction d(v) {\n  if (v) return 1;\n  v = 2;\n}\nfunction e(v) {\n  if (v) { [1].map(() => { return 2; }); }\n}\n";
        let e = Exits::scan(text).unwrap();
        // a: the `if` from 3:3 to its end after `;` (3:23); b: in its `else`.
        assert_eq!(e.ending_if_at_brace(at(4, 1)), Some((at(3, 3), at(3, 23))));
        assert_eq!(e.ending_if_at_brace(at(4, 2)), Some((at(3, 3), at(3, 23))));
        assert!(e.ending_if_at_brace(at(7, 1)).is_some());
        // c: no return; d: the `if` is not the last statement; e: the return is the arrow's.
        assert_eq!(e.ending_if_at_brace(at(10, 1)), None);
        assert_eq!(e.ending_if_at_brace(at(14, 1)), None);
        assert_eq!(e.ending_if_at_brace(at(17, 1)), None);
        // Not at a brace.
        assert_eq!(e.ending_if_at_brace(at(3, 3)), None);
    }

    #[test]
    fn nothing_is_said_of_a_program_that_does_not_parse() {
        assert!(Exits::scan("function f( {\n  return 1;\n}\n").is_none());
    }
}
