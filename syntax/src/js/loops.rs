//! Where a `for (let|const … in|of …)` head evaluates its iterable: the expression's span, with
//! the names the head declares. While it runs, ECMAScript's ForIn/OfHeadEvaluation holds those
//! names in a scope of their own, uninitialized; V8 13 lists no such scope (SpiderMonkey,
//! JavaScriptCore and V8 12 do), so a divergence over such a name there says so.
//!
//! And where each `for-in`/`for-of` iteration begins: V8 and JavaScriptCore
//! pause at the head's declaration each time the iterator gives the next value, SpiderMonkey not
//! (it goes on to the body's first statement), so a step there stands at two places for one point
//! of control.

use crate::js::ast;
use crate::js::visit::{Visit, VisitWith};
use morphtrace_schema::Location;

/// A program's `for-in`/`for-of` heads: the iterables of those that declare `let` or `const`
/// names, and where each loop's iterations begin.
#[derive(Debug, Default)]
pub struct LoopHeads {
    /// Each iterable, with the names its head declares.
    heads: crate::js::NamedSpans,
    /// Each loop: (its head's start, its end exclusive, the body's first statement's start).
    loops: Vec<(Location, Location, Location)>,
}

struct Collect<'a> {
    parsed: &'a crate::js::Parsed<'a>,
    out: LoopHeads,
}

impl Collect<'_> {
    fn head(&mut self, left: &ast::ForHead, right: &ast::Expr, body: &ast::Stmt) {
        self.iteration(left, body);
        let ast::ForHead::VarDecl(d) = left else {
            return;
        };
        if d.kind == ast::VarDeclKind::Var {
            return;
        }
        let mut names = Vec::new();
        for decl in &d.decls {
            crate::nodes::pattern_names(&decl.name, &mut |n| names.push(n.to_string()));
        }
        self.out
            .heads
            .push(self.parsed, crate::js::Spanned::span(right), names);
    }

    fn iteration(&mut self, left: &ast::ForHead, body: &ast::Stmt) {
        let first = match body {
            ast::Stmt::Block(b) => match b.stmts.first() {
                Some(s) => crate::js::Spanned::span(s),
                None => return,
            },
            s => crate::js::Spanned::span(s),
        };
        let (from, to) = self.parsed.range(crate::js::Spanned::span(left));
        let at = |offset| self.parsed.positions.location(offset);
        self.out
            .loops
            .push((at(from), at(to), at(self.parsed.offset(first.lo))));
    }
}

impl Visit for Collect<'_> {
    fn visit_for_of_stmt(&mut self, s: &ast::ForOfStmt) {
        self.head(&s.left, &s.right, &s.body);
        s.visit_children_with(self);
    }
    fn visit_for_in_stmt(&mut self, s: &ast::ForInStmt) {
        self.head(&s.left, &s.right, &s.body);
        s.visit_children_with(self);
    }
}

impl LoopHeads {
    /// The program's loop heads; `None` where it does not parse (nothing is said then).
    pub fn scan(text: &str) -> Option<LoopHeads> {
        crate::js::parse(text, crate::js::Goal::Program, |parsed| {
            let mut c = Collect {
                parsed,
                out: LoopHeads::default(),
            };
            parsed.program.visit_with(&mut c);
            c.out
        })
        .ok()
    }

    /// Whether `at` is in the iterable of a head that declares `name`.
    pub fn declares_around(&self, name: &str, at: Location) -> bool {
        self.heads.names_at(name, at)
    }

    /// Whether `head` is in the head of a `for-in`/`for-of` loop (what it declares or assigns)
    /// and `body` exactly where that same loop's body's first statement begins.
    pub fn head_and_body(&self, head: Location, body: Location) -> bool {
        self.loops
            .iter()
            .any(|&(from, to, first)| from <= head && head < to && body == first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line1: u32, col1: u32) -> Location {
        Location::new(line1 - 1, col1 - 1)
    }

    #[test]
    fn a_heads_iterable_and_the_names_it_declares() {
        let text = "function* g(n) {\n  yield n;\n}\nfor (const y of g(5)) {\n  y;\n}\nfor (let { a, b: [c] } in { k: g(1) }) {}\nfor (var v of g(2)) {}\nfor (const w of [1]) for (const x of g(w)) {}\n";
        let h = LoopHeads::scan(text).unwrap();
        // `g(5)` from 4:17 to its `)` at 4:20.
        assert!(h.declares_around("y", at(4, 17)));
        assert!(h.declares_around("y", at(4, 20)));
        assert!(!h.declares_around("y", at(4, 21)), "after the iterable");
        assert!(!h.declares_around("y", at(4, 12)), "the declaration");
        assert!(!h.declares_around("y", at(5, 3)), "the body");
        assert!(!h.declares_around("n", at(4, 17)), "another name");
        for name in ["a", "c"] {
            assert!(h.declares_around(name, at(7, 30)), "{name}: a pattern's");
        }
        assert!(!h.declares_around("b", at(7, 30)), "a property's key");
        assert!(!h.declares_around("v", at(8, 15)), "a `var` head");
        // An inner head's iterable (in the outer loop's body): its own name only.
        assert!(h.declares_around("x", at(9, 38)));
        assert!(!h.declares_around("w", at(9, 38)));
        assert!(LoopHeads::scan("for (const of").is_none());
    }

    #[test]
    fn a_loops_head_and_its_bodys_first_statement() {
        let text = "function* g(n) {\n  yield n;\n}\nfor (const y of g(5)) {\n  y;\n  y;\n}\nfor (let k in { a: 1 }) k;\nvar v;\nfor (v of [1]) {}\nfor (const w of [1]) for (const x of g(w)) {\n  x;\n}\n";
        let s = LoopHeads::scan(text).unwrap();
        // V8 at the binding (4:12), JavaScriptCore at `const` (4:6), both to the body's 5:3.
        assert!(s.head_and_body(at(4, 12), at(5, 3)));
        assert!(s.head_and_body(at(4, 6), at(5, 3)));
        assert!(
            !s.head_and_body(at(4, 12), at(6, 3)),
            "the body's second statement"
        );
        assert!(!s.head_and_body(at(4, 17), at(5, 3)), "the iterable");
        assert!(!s.head_and_body(at(4, 1), at(5, 3)), "the `for` keyword");
        assert!(!s.head_and_body(at(5, 3), at(4, 12)), "the other way round");
        // A body without braces; an empty body has no first statement.
        assert!(s.head_and_body(at(8, 10), at(8, 25)));
        assert!(!s.head_and_body(at(10, 6), at(10, 16)));
        // Nested loops: each head with its own body only.
        assert!(s.head_and_body(at(11, 33), at(12, 3)));
        assert!(
            !s.head_and_body(at(11, 12), at(12, 3)),
            "the outer head, the inner body"
        );
        assert!(
            s.head_and_body(at(11, 6), at(11, 22)),
            "the outer body is the inner loop"
        );
        assert!(LoopHeads::scan("for (const of").is_none());
    }
}
