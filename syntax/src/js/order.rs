//! The order in which V8 reaches a program's break positions where it is not the source's.
//!
//! V8 places a breakpoint requested at a place without a break position at the first break
//! position *in its bytecode's order* at or after the place (`BreakIterator::
//! BreakIndexFromPosition`, v8/src/debug/debug.cc), not the first in the source. The two orders
//! differ where V8's bytecode generator emits a construct's parts out of source order
//! (v8/src/interpreter/bytecode-generator.cc):
//! - a `switch` evaluates its discriminant, then every case's test, then jumps into the bodies
//!   (`VisitSwitchStatement`), so a request in a case's body slides to a later case's test;
//! - a `for-in`/`for-of` evaluates its iterable, then per iteration assigns its binding and runs
//!   its body (`VisitForOfStatement`), so a request at the head's line slides to the iterable;
//! - a `for (init; test; update)` runs its body before its update (`VisitForStatement`).
//!
//! Everything else runs in the source's order. [`ExecutionOrder::cmp`] orders two positions of a
//! program by these rules; positions of parts that are not modelled compare by the source.

use crate::js::ast;
use crate::js::visit::{Visit, VisitWith};
use morphtrace_schema::Location;
use std::cmp::Ordering;

/// A construct whose parts run out of the source's order: its span and each part's span with
/// its rank (lower runs first).
#[derive(Debug, Clone)]
struct Construct {
    from: Location,
    to: Location,
    parts: Vec<(Location, Location, u8)>,
}

impl Construct {
    fn holds(&self, at: Location) -> bool {
        self.from <= at && at < self.to
    }

    fn rank(&self, at: Location) -> Option<u8> {
        self.parts
            .iter()
            .find(|(from, to, _)| *from <= at && at < *to)
            .map(|p| p.2)
    }
}

/// The constructs of a program whose parts V8 runs out of the source's order.
#[derive(Debug, Default)]
pub struct ExecutionOrder {
    /// Outermost first (by start, then by end descending): a construct's inner ones follow it.
    constructs: Vec<Construct>,
}

struct Collect<'a> {
    parsed: &'a crate::js::Parsed<'a>,
    out: Vec<Construct>,
}

impl Collect<'_> {
    fn span(&self, span: crate::js::Span) -> (Location, Location) {
        let (lo, hi) = self.parsed.range(span);
        (
            self.parsed.positions.location(lo),
            self.parsed.positions.location(hi),
        )
    }

    fn construct(&mut self, whole: crate::js::Span, parts: Vec<(crate::js::Span, u8)>) {
        let (from, to) = self.span(whole);
        let parts = parts
            .into_iter()
            .filter(|(s, _)| !s.is_dummy())
            .map(|(s, rank)| {
                let (a, b) = self.span(s);
                (a, b, rank)
            })
            .collect();
        self.out.push(Construct { from, to, parts });
    }
}

impl Visit for Collect<'_> {
    fn visit_switch_stmt(&mut self, s: &ast::SwitchStmt) {
        use crate::js::Spanned;
        let mut parts = vec![(s.discriminant.span(), 0)];
        for case in &s.cases {
            if let Some(test) = &case.test {
                parts.push((test.span(), 1));
            }
            if let (Some(first), Some(last)) = (case.cons.first(), case.cons.last()) {
                parts.push((first.span().to(last.span()), 2));
            }
        }
        self.construct(s.span, parts);
        s.visit_children_with(self);
    }
    fn visit_for_of_stmt(&mut self, s: &ast::ForOfStmt) {
        use crate::js::Spanned;
        self.construct(
            s.span,
            vec![(s.right.span(), 0), (s.left.span(), 1), (s.body.span(), 2)],
        );
        s.visit_children_with(self);
    }
    fn visit_for_in_stmt(&mut self, s: &ast::ForInStmt) {
        use crate::js::Spanned;
        self.construct(
            s.span,
            vec![(s.right.span(), 0), (s.left.span(), 1), (s.body.span(), 2)],
        );
        s.visit_children_with(self);
    }
    fn visit_for_stmt(&mut self, s: &ast::ForStmt) {
        use crate::js::Spanned;
        let mut parts = Vec::new();
        if let Some(init) = &s.init {
            parts.push((init.span(), 0));
        }
        if let Some(test) = &s.test {
            parts.push((test.span(), 1));
        }
        parts.push((s.body.span(), 2));
        if let Some(update) = &s.update {
            parts.push((update.span(), 3));
        }
        self.construct(s.span, parts);
        s.visit_children_with(self);
    }
}

impl ExecutionOrder {
    /// The program's reordering constructs; `None` where it does not parse (nothing is said
    /// then: callers keep the source's order).
    pub fn scan(text: &str) -> Option<ExecutionOrder> {
        crate::js::parse(text, crate::js::Goal::Program, |parsed| {
            let mut c = Collect {
                parsed,
                out: Vec::new(),
            };
            parsed.program.visit_with(&mut c);
            let mut constructs = c.out;
            constructs.sort_by(|a, b| a.from.cmp(&b.from).then(b.to.cmp(&a.to)));
            ExecutionOrder { constructs }
        })
        .ok()
    }

    /// Which of `a` and `b` V8 reaches first: by the ranks of their parts in the outermost
    /// construct that holds both in different parts, else by the source. A total order: each
    /// construct reorders its parts, and the positions inside a part keep their order.
    pub fn cmp(&self, a: Location, b: Location) -> Ordering {
        for c in self.constructs.iter().filter(|c| c.holds(a) && c.holds(b)) {
            match (c.rank(a), c.rank(b)) {
                (Some(ra), Some(rb)) if ra != rb => return ra.cmp(&rb),
                (Some(_), Some(_)) => continue,
                // A place of the construct outside its modelled parts (its keyword): the
                // source's order from here on.
                _ => break,
            }
        }
        a.cmp(&b)
    }

    /// The end of the outermost reordering construct that holds `at`: up to there, a position
    /// later in the source than `at` may run before it. `None` outside every construct.
    pub fn reordered_until(&self, at: Location) -> Option<Location> {
        self.constructs.iter().find(|c| c.holds(at)).map(|c| c.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line1: u32, col1: u32) -> Location {
        Location::new(line1 - 1, col1 - 1)
    }

    fn sorted(order: &ExecutionOrder, mut positions: Vec<Location>) -> Vec<Location> {
        positions.sort_by(|a, b| order.cmp(*a, *b));
        positions
    }

    #[test]
    fn a_switchs_tests_run_before_its_bodies() {
        let text = "function t(v) {\n  let r = 0;\n  switch (v) {\n    case 0:\n      r += 2;\n    case f(1):\n      r += 4;\n      break;\n    default:\n      r += 8;\n  }\n  return r;\n}\n";
        let o = ExecutionOrder::scan(text).unwrap();
        // Source order: r += 2 (5:7), f(1) (6:10), r += 4 (7:7), break (8:7), r += 8 (10:7).
        let got = sorted(
            &o,
            vec![
                at(5, 7),
                at(6, 10),
                at(7, 7),
                at(8, 7),
                at(10, 7),
                at(3, 11),
            ],
        );
        assert_eq!(
            got,
            vec![
                at(3, 11),
                at(6, 10),
                at(5, 7),
                at(7, 7),
                at(8, 7),
                at(10, 7)
            ]
        );
        // Outside the switch, the source's order; the switch runs between what surrounds it.
        assert_eq!(o.cmp(at(2, 3), at(6, 10)), Ordering::Less);
        assert_eq!(o.cmp(at(12, 3), at(5, 7)), Ordering::Greater);
        assert_eq!(o.reordered_until(at(5, 7)), Some(at(11, 4)));
        assert_eq!(o.reordered_until(at(12, 3)), None);
    }

    #[test]
    fn loop_heads_run_their_iterable_first_and_their_update_last() {
        let text = "for (const y of g(5)) {\n  y;\n}\nfor (let i = 0; i < 3; i++) {\n  i;\n}\nfor (const k in o) for (const x of h(k)) x;\n";
        let o = ExecutionOrder::scan(text).unwrap();
        // `const y` (1:12) is assigned after `g(5)` (1:17) runs; the body after both.
        assert_eq!(
            sorted(&o, vec![at(1, 12), at(1, 17), at(2, 3)]),
            vec![at(1, 17), at(1, 12), at(2, 3)]
        );
        // init, test, body, update.
        assert_eq!(
            sorted(&o, vec![at(4, 6), at(4, 17), at(4, 24), at(5, 3)]),
            vec![at(4, 6), at(4, 17), at(5, 3), at(4, 24)]
        );
        // Nested: the outer iterable, the outer binding, then the inner loop (its body) in its
        // own order.
        assert_eq!(
            sorted(
                &o,
                vec![at(7, 12), at(7, 17), at(7, 31), at(7, 36), at(7, 42)]
            ),
            vec![at(7, 17), at(7, 12), at(7, 36), at(7, 31), at(7, 42)]
        );
        assert!(ExecutionOrder::scan("switch (").is_none());
    }
}
