//! The `catch` clauses whose parameter is a destructuring pattern holding a default
//! (`catch ({ code = 1 })`, `catch ([[x] = [4]])`): JavaScriptCore (Bun 1.4.5) aborts when a
//! debugger resumes or steps out into one (traces/findings/
//! jsc-aborts-resumed-into-a-catch-parameter-with-a-default), so an engine's crash in a program
//! without one is not that bug.

use crate::js::ast;
use crate::js::visit::{Visit, VisitWith};

/// The lines (0-based) of a program's `catch` clauses whose parameter holds a default.
#[derive(Debug, Default)]
pub struct CatchDefaults {
    lines: Vec<u32>,
}

struct Collect<'a> {
    parsed: &'a crate::js::Parsed<'a>,
    out: CatchDefaults,
}

/// Whether a pattern holds a default anywhere (`= …` on an element or a property).
fn has_default(p: &ast::Pat) -> bool {
    match p {
        ast::Pat::Assign(_) => true,
        ast::Pat::Array(a) => a.elems.iter().flatten().any(has_default),
        ast::Pat::Object(o) => o.props.iter().any(|prop| match prop {
            ast::ObjectPatProp::KeyValue(kv) => has_default(&kv.value),
            ast::ObjectPatProp::Assign(a) => a.value.is_some(),
            ast::ObjectPatProp::Rest(r) => has_default(&r.arg),
        }),
        ast::Pat::Rest(r) => has_default(&r.arg),
        ast::Pat::Ident(_) | ast::Pat::Invalid(_) | ast::Pat::Expr(_) => false,
    }
}

impl Visit for Collect<'_> {
    fn visit_catch_clause(&mut self, c: &ast::CatchClause) {
        if c.param.as_ref().is_some_and(has_default) {
            let p = self.parsed;
            self.out
                .lines
                .push(p.positions.location(p.range(c.span).0).line);
        }
        c.visit_children_with(self);
    }
}

impl CatchDefaults {
    /// The program's such clauses; `None` where it does not parse (nothing is said then).
    pub fn scan(text: &str) -> Option<CatchDefaults> {
        crate::js::parse(text, crate::js::Goal::Program, |parsed| {
            let mut c = Collect {
                parsed,
                out: CatchDefaults::default(),
            };
            parsed.program.visit_with(&mut c);
            c.out
        })
        .ok()
    }

    /// Whether the program has one.
    pub fn any(&self) -> bool {
        !self.lines.is_empty()
    }

    /// Their lines, in the program's order.
    pub fn lines(&self) -> &[u32] {
        &self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catch_parameters_with_a_default_anywhere_in_their_pattern() {
        let text = "try { f(); } catch ({ code: c = 1, message }) {}\n\
                    try { f(); } catch ([[x, y] = [4, 5]]) {}\n\
                    try { f(); } catch ({ a: { b = 2 } }) {}\n\
                    try { f(); } catch ({ d = 3 }) {}\n\
                    try { f(); } catch ([, ...[e = 1]]) {}\n\
                    try { f(); } catch (e) {}\n\
                    try { f(); } catch ({ code, message: [m] }) {}\n\
                    try { f(); } catch {}\n\
                    function g() { try { f(); } catch ([z = 0]) {} }\n";
        let c = CatchDefaults::scan(text).unwrap();
        assert_eq!(c.lines(), [0, 1, 2, 3, 4, 8]);
        assert!(c.any());
        let none = CatchDefaults::scan("try { f(); } catch ({ code }) {}\n").unwrap();
        assert!(!none.any());
        assert!(CatchDefaults::scan("try {").is_none());
    }
}
