//! Training mutants (the role Major plays in GenMorph): our own operators on the syntax tree of
//! the function under test (swc), as text edits inside the function's span. Operators:
//! arithmetic, relational, conditional and logical (bitwise) operator replacement, literal value
//! replacement, statement deletion and unary insertion. Every mutant parses.

use morphtrace_syntax::js::ast;
use morphtrace_syntax::js::visit::{Visit, VisitWith};
use morphtrace_syntax::js::Goal;
use morphtrace_syntax::js::{Span, Spanned};

/// One edit of the module's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutation {
    pub operator: &'static str,
    /// Byte range replaced.
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

impl Mutation {
    pub fn apply(&self, source: &str) -> String {
        format!(
            "{}{}{}",
            &source[..self.start],
            self.replacement,
            &source[self.end..]
        )
    }
}

/// Runs `f` on the script's syntax tree and swc's offset of its first byte; `None` when it does
/// not parse (or is beyond what morphtrace analyzes).
fn with_script<T: Send>(text: &str, f: impl FnOnce(&ast::Script, u32) -> T + Send) -> Option<T> {
    morphtrace_syntax::js::parse(text, Goal::Script, |p| p.script().map(|s| f(s, p.base)))
        .ok()
        .flatten()
}

/// The top-level declaration `function name(...) {...}` of a script.
fn find_function<'a>(script: &'a ast::Script, name: &str) -> Option<&'a ast::FnDecl> {
    script.body.iter().find_map(|s| match s {
        ast::Stmt::Decl(ast::Decl::Fn(f)) if f.ident.sym == *name => Some(f),
        _ => None,
    })
}

/// Byte range of the top-level `function name(...) {...}` in a module.
pub fn function_span(source: &str, name: &str) -> Option<(u32, u32)> {
    with_script(source, |script, base| {
        let f = find_function(script, name)?;
        Some((f.span().lo.0 - base, f.span().hi.0 - base))
    })?
}

const ARITHMETIC: &[&str] = &["+", "-", "*", "/", "%"];
const ORDERING: &[&str] = &["<", "<=", ">", ">="];
const EQUALITY: &[&str] = &["==", "!=", "===", "!=="];
const BITWISE: &[&str] = &["&", "|", "^", "<<", ">>", ">>>"];
const ASSIGN: &[&str] = &["+=", "-=", "*=", "/=", "%="];

struct Finder<'a> {
    src: &'a str,
    base: u32,
    out: Vec<Mutation>,
    /// Numeric literals and their byte offsets (the constant pool's candidates).
    numbers: Vec<(f64, usize)>,
}

impl Finder<'_> {
    fn range(&self, s: Span) -> (usize, usize) {
        ((s.lo.0 - self.base) as usize, (s.hi.0 - self.base) as usize)
    }

    fn push(&mut self, operator: &'static str, start: usize, end: usize, replacement: String) {
        if self.src.get(start..end) != Some(replacement.as_str()) {
            self.out.push(Mutation {
                operator,
                start,
                end,
                replacement,
            });
        }
    }

    /// Replaces the operator token `op` that lies between `left` and `right`.
    fn replace_op(
        &mut self,
        operator: &'static str,
        left: Span,
        right: Span,
        op: &str,
        with: &[&str],
    ) {
        let (_, gap_lo) = self.range(left);
        let (gap_hi, _) = self.range(right);
        let Some(at) = self.src.get(gap_lo..gap_hi).and_then(|g| g.find(op)) else {
            return;
        };
        for w in with.iter().filter(|w| **w != op) {
            self.push(
                operator,
                gap_lo + at,
                gap_lo + at + op.len(),
                (*w).to_string(),
            );
        }
    }

    /// Unary insertion on a numeric operand: `-x`, `(x + 1)`, `(x - 1)`.
    fn unary_operand(&mut self, e: &ast::Expr) {
        if let ast::Expr::Ident(id) = e {
            let (s, t) = self.range(id.span);
            let name = &self.src[s..t];
            for r in [
                format!("-{name}"),
                format!("({name} + 1)"),
                format!("({name} - 1)"),
            ] {
                self.push("unary insertion", s, t, r);
            }
        }
    }

    /// Unary insertion on a condition: `!(test)`.
    fn negate(&mut self, test: &ast::Expr) {
        let (s, t) = self.range(test.span());
        let r = format!("!({})", &self.src[s..t]);
        self.push("unary insertion", s, t, r);
    }
}

impl Visit for Finder<'_> {
    fn visit_bin_expr(&mut self, b: &ast::BinExpr) {
        let op = b.op.as_str();
        let (l, r) = (b.left.span(), b.right.span());
        if ARITHMETIC.contains(&op) {
            self.replace_op("arithmetic operator replacement", l, r, op, ARITHMETIC);
            self.unary_operand(&b.left);
            self.unary_operand(&b.right);
        } else if ORDERING.contains(&op) || EQUALITY.contains(&op) {
            let with = if ORDERING.contains(&op) {
                ORDERING
            } else {
                EQUALITY
            };
            self.replace_op("relational operator replacement", l, r, op, with);
            let (s, t) = self.range(b.span);
            for v in ["true", "false"] {
                self.push("relational operator replacement", s, t, v.into());
            }
            self.unary_operand(&b.left);
            self.unary_operand(&b.right);
        } else if op == "&&" || op == "||" {
            let other = if op == "&&" { "||" } else { "&&" };
            self.replace_op("conditional operator replacement", l, r, op, &[other]);
            let (s, t) = self.range(b.span);
            for side in [l, r] {
                let (a, z) = self.range(side);
                let text = self.src[a..z].to_string();
                self.push("conditional operator replacement", s, t, text);
            }
        } else if BITWISE.contains(&op) {
            self.replace_op("logical operator replacement", l, r, op, BITWISE);
        }
        b.visit_children_with(self);
    }

    fn visit_assign_expr(&mut self, a: &ast::AssignExpr) {
        let op = a.op.as_str();
        if ASSIGN.contains(&op) {
            self.replace_op(
                "arithmetic operator replacement",
                a.left.span(),
                a.right.span(),
                op,
                ASSIGN,
            );
        }
        a.visit_children_with(self);
    }

    fn visit_update_expr(&mut self, u: &ast::UpdateExpr) {
        let (s, t) = self.range(u.span);
        let text = &self.src[s..t];
        let flipped = if text.contains("++") {
            text.replacen("++", "--", 1)
        } else {
            text.replacen("--", "++", 1)
        };
        self.push("arithmetic operator replacement", s, t, flipped);
        u.visit_children_with(self);
    }

    fn visit_lit(&mut self, l: &ast::Lit) {
        let (s, t) = self.range(l.span());
        match l {
            ast::Lit::Num(n) => {
                self.numbers.push((n.value, s));
                let v = n.value;
                let mut seen = vec![v];
                for r in [0.0, 1.0, v + 1.0, v - 1.0, -v] {
                    if !seen.contains(&r) && r.is_finite() {
                        seen.push(r);
                        let text = if r < 0.0 {
                            format!("({r})")
                        } else {
                            format!("{r}")
                        };
                        self.push("literal value replacement", s, t, text);
                    }
                }
            }
            ast::Lit::Str(x) => {
                let r = if x.value.is_empty() { "'x'" } else { "''" };
                self.push("literal value replacement", s, t, r.into());
            }
            ast::Lit::Bool(b) => {
                self.push("literal value replacement", s, t, (!b.value).to_string());
            }
            _ => {}
        }
    }

    fn visit_stmt(&mut self, st: &ast::Stmt) {
        let deletable = matches!(
            st,
            ast::Stmt::Expr(_)
                | ast::Stmt::Return(_)
                | ast::Stmt::Throw(_)
                | ast::Stmt::Break(_)
                | ast::Stmt::Continue(_)
                | ast::Stmt::If(_)
        );
        if deletable {
            let (s, t) = self.range(st.span());
            self.push("statement deletion", s, t, ";".into());
        }
        match st {
            ast::Stmt::If(i) => self.negate(&i.test),
            ast::Stmt::While(w) => self.negate(&w.test),
            ast::Stmt::DoWhile(w) => self.negate(&w.test),
            ast::Stmt::For(f) => {
                if let Some(t) = &f.test {
                    self.negate(t);
                }
            }
            _ => {}
        }
        st.visit_children_with(self);
    }

    fn visit_cond_expr(&mut self, c: &ast::CondExpr) {
        self.negate(&c.test);
        c.visit_children_with(self);
    }

    // Property names are not values: `{ length: n }` keeps its key.
    fn visit_prop_name(&mut self, _: &ast::PropName) {}
}

/// What the function's syntax offers: its mutants (each parses) and its numeric literals.
pub struct Analysis {
    pub mutations: Vec<Mutation>,
    pub numbers: Vec<(f64, usize)>,
}

/// Every training mutant of function `name` in `source`.
pub fn analyze(source: &str, name: &str) -> Option<Analysis> {
    let (mut mutations, numbers) = with_script(source, |script, base| {
        let f = find_function(script, name)?;
        let mut finder = Finder {
            src: source,
            base,
            out: Vec::new(),
            numbers: Vec::new(),
        };
        if let Some(body) = &f.function.body {
            body.visit_with(&mut finder);
        }
        Some((finder.out, finder.numbers))
    })??;
    mutations.dedup();
    mutations.retain(|m| with_script(&m.apply(source), |_, _| ()).is_some());
    Some(Analysis { mutations, numbers })
}

/// Loop and function bodies of a module, for the loop guard.
struct Loops<'a> {
    base: u32,
    src: &'a str,
    /// (byte offset, text) insertions.
    edits: Vec<(usize, &'static str)>,
}

impl Loops<'_> {
    fn body(&mut self, b: &ast::Stmt) {
        let lo = (b.span().lo.0 - self.base) as usize;
        let hi = (b.span().hi.0 - self.base) as usize;
        if matches!(b, ast::Stmt::Block(_)) && self.src.as_bytes().get(lo) == Some(&b'{') {
            self.edits.push((lo + 1, " __mt_tick();"));
        } else {
            self.edits.push((lo, "{ __mt_tick(); "));
            self.edits.push((hi, " }"));
        }
    }

    /// A function's entry: a deep recursion without loops (8e8 calls of a divide-and-conquer
    /// product) stops by the harness's count of calls too. After the body's directives, so that
    /// "use strict" stays one (the `;` ends a directive written without its own).
    fn entry(&mut self, b: &ast::FunctionBody) {
        let directive = |s: &ast::Stmt| matches!(s, ast::Stmt::Expr(e) if matches!(&*e.expr, ast::Expr::Lit(ast::Lit::Str(_))));
        match b.stmts.iter().take_while(|s| directive(s)).last() {
            Some(d) => self
                .edits
                .push(((d.span().hi.0 - self.base) as usize, "; __mt_lib_tick();")),
            None => self
                .edits
                .push(((b.span.lo.0 - self.base) as usize + 1, " __mt_lib_tick();")),
        }
    }
}

impl Visit for Loops<'_> {
    fn visit_while_stmt(&mut self, w: &ast::WhileStmt) {
        self.body(&w.body);
        w.visit_children_with(self);
    }
    fn visit_do_while_stmt(&mut self, w: &ast::DoWhileStmt) {
        self.body(&w.body);
        w.visit_children_with(self);
    }
    fn visit_for_stmt(&mut self, f: &ast::ForStmt) {
        self.body(&f.body);
        f.visit_children_with(self);
    }
    fn visit_for_in_stmt(&mut self, f: &ast::ForInStmt) {
        self.body(&f.body);
        f.visit_children_with(self);
    }
    fn visit_for_of_stmt(&mut self, f: &ast::ForOfStmt) {
        self.body(&f.body);
        f.visit_children_with(self);
    }
    /// Every kind of function: declarations, expressions, arrows, methods, accessors,
    /// constructors.
    fn visit_function_body(&mut self, b: &ast::FunctionBody) {
        self.entry(b);
        b.visit_children_with(self);
    }
}

/// The mutant with a guard at the top of every loop body of the module (the mutated function's
/// and the helpers it may call with what the mutation changed) and of every function body: the
/// harness counts iterations (`__mt_tick`) and calls (`__mt_lib_tick`, as in the library's
/// other modules) per call and stops a call past its limit (recorded as a timeout), as
/// StrykerJS's hit limit does for its own mutants. Below the limit the guard changes nothing. The library's other
/// modules get the harness's own guard when they load.
pub fn guard_loops(source: &str) -> Option<String> {
    let mut edits = with_script(source, |script, base| {
        let mut loops = Loops {
            base,
            src: source,
            edits: Vec::new(),
        };
        script.visit_with(&mut loops);
        loops.edits
    })?;
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = source.to_string();
    for (at, text) in edits {
        out.insert_str(at, text);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "'use strict';\nfunction gcd(a, b) {\n  if (b === 0) { return a < 0 ? -a : a; }\n  let r = a % b;\n  while (b !== 0 && r > 1) { r -= 1; b++; }\n  return gcd(b, r);\n}\nfunction other(x) { return x + 1; }\n";

    #[test]
    fn mutants_stay_in_the_function_and_parse() {
        let (lo, hi) = function_span(SRC, "gcd").unwrap();
        assert!(SRC[lo as usize..hi as usize].starts_with("function gcd"));
        let a = analyze(SRC, "gcd").unwrap();
        let ops: std::collections::HashSet<_> = a.mutations.iter().map(|m| m.operator).collect();
        for op in [
            "arithmetic operator replacement",
            "relational operator replacement",
            "conditional operator replacement",
            "literal value replacement",
            "statement deletion",
            "unary insertion",
        ] {
            assert!(ops.contains(op), "{op} missing");
        }
        for m in &a.mutations {
            assert!(m.start >= lo as usize && m.end <= hi as usize, "{m:?}");
            let text = m.apply(SRC);
            assert_ne!(text, SRC);
            assert!(with_script(&text, |_, _| ()).is_some(), "{m:?}");
        }
        // `a % b` becomes each other arithmetic operator; `r -= 1` each other assignment.
        assert!(a
            .mutations
            .iter()
            .any(|m| m.apply(SRC).contains("let r = a * b;")));
        assert!(a.mutations.iter().any(|m| m.apply(SRC).contains("r += 1")));
        assert!(a.mutations.iter().any(|m| m.apply(SRC).contains("b--")));
        assert!(a
            .mutations
            .iter()
            .any(|m| m.apply(SRC).contains("if (!(b === 0))")));
        assert!(a
            .mutations
            .iter()
            .any(|m| m.apply(SRC).contains("while (b !== 0 || r > 1)")));
        assert_eq!(
            a.numbers.iter().map(|n| n.0).collect::<Vec<_>>(),
            vec![0.0, 0.0, 0.0, 1.0, 1.0]
        );
        assert!(function_span(SRC, "nope").is_none());
    }

    #[test]
    fn loop_guards() {
        let src = "function f(n) { let i = 0; while (i < n) i++; for (;;) { break; } do { i--; } while (i > 0); return i; }\nfunction g() { while (1) {} }";
        let g = guard_loops(src).unwrap();
        assert_eq!(g.matches("__mt_tick();").count(), 4);
        assert_eq!(g.matches("__mt_lib_tick();").count(), 2, "{g}");
        assert!(
            g.starts_with("function f(n) { __mt_lib_tick(); let i = 0;"),
            "{g}"
        );
        assert!(g.contains("while (i < n) { __mt_tick(); i++; }"));
        assert!(g.contains("for (;;) { __mt_tick(); break; }"));
        assert!(g.contains("do { __mt_tick(); i--; } while (i > 0);"));
        assert!(
            g.ends_with("function g() { __mt_lib_tick(); while (1) { __mt_tick();} }"),
            "a helper's loop is guarded too: {g}"
        );
        assert_eq!(g.lines().count(), src.lines().count(), "lines stay");
        assert!(with_script(&g, |_, _| ()).is_some());
        // Directives stay directives; every kind of function body counts its calls.
        let src = "function s() { 'use strict'\n  return this; }\nconst a = (x) => { return x; };\nclass C { constructor() { this.x = 1; } m() {} }\nconst o = { get p() { return 1; }, set p(v) {} };";
        let g = guard_loops(src).unwrap();
        assert!(
            g.starts_with("function s() { 'use strict'; __mt_lib_tick();\n"),
            "{g}"
        );
        assert_eq!(g.matches("__mt_lib_tick();").count(), 6, "{g}");
        assert!(with_script(&g, |_, _| ()).is_some());
    }
}
