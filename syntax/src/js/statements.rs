//! JavaScript programs on a real syntax tree (swc): statements and their offsets, per-line and
//! per-statement counts from V8's block ranges, deletable statements, and the ground-truth
//! instrumentation (a counter per statement).

use super::ast;
use super::visit::{Visit, VisitWith};
use super::Spanned;
use super::{Goal, Refusal};
use crate::variant::{Deletable, LineKinds};
use crate::Statements;
use morphtrace_schema::coverage::v8_count_at;
use morphtrace_schema::lines::Positions;
use morphtrace_schema::{FunctionCoverage, StatementCount};
use std::collections::HashSet;

/// The global array the instrumented program counts in.
pub const COUNTERS: &str = "__morphtrace_counts";

#[derive(Debug, Clone)]
pub struct Stmt {
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub last_line: u32,
    pub kind: &'static str,
    /// In a statement list (block, program, `case`), where it can be deleted or preceded by a
    /// counter; otherwise the body of an `if`, a loop or a label.
    pub listed: bool,
    /// Contains `return`, `break`, `continue` or `throw`.
    pub jumps: bool,
    /// A directive such as `"use strict"` (nothing may precede it).
    pub directive: bool,
    /// The body of a labeled statement (`continue L` needs it to stay a loop).
    pub labeled_body: bool,
}

impl Stmt {
    /// Declarations are hoisted or scoped: deleting one changes more than control flow, and V8
    /// gives a function declaration's start the function's own count.
    pub fn is_declaration(&self) -> bool {
        matches!(
            self.kind,
            "FunctionDeclaration" | "ClassDeclaration" | "VariableDeclaration"
        )
    }
}

pub struct JsProgram {
    text: String,
    pub statements: Vec<Stmt>,
    /// Expressions reduction may shrink, outermost first (see [`Simplification`]).
    pub simplifications: Vec<Simplification>,
    /// First token of each line (byte offset), if the line has one.
    first_token: Vec<Option<usize>>,
    positions: Positions,
}

struct Collector<'a> {
    base: u32,
    line_of: &'a dyn Fn(usize) -> u32,
    listed: HashSet<u32>,
    labeled: HashSet<u32>,
    directives: HashSet<u32>,
    out: Vec<Stmt>,
}

/// A smaller stand-in for an expression: a long string, template, array or object literal
/// becomes an empty one, a call's long argument list goes. Byte span, and what goes in its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simplification {
    pub start: usize,
    pub end: usize,
    pub by: &'static str,
}

/// Below this many bytes an expression is left alone: each candidate costs a debugger run.
const SIMPLIFY_AT: usize = 16;

struct Simplifiable {
    base: u32,
    out: Vec<Simplification>,
}

impl Simplifiable {
    fn push(&mut self, span: super::Span, by: &'static str) {
        let (start, end) = (
            (span.lo.0 - self.base) as usize,
            (span.hi.0 - self.base) as usize,
        );
        if end >= start + SIMPLIFY_AT {
            self.out.push(Simplification { start, end, by });
        }
    }
}

impl Visit for Simplifiable {
    fn visit_expr(&mut self, e: &ast::Expr) {
        match e {
            ast::Expr::Lit(ast::Lit::Str(l)) => self.push(l.span, "''"),
            ast::Expr::Tpl(t) => self.push(t.span, "``"),
            ast::Expr::Array(a) if !a.elems.is_empty() => self.push(a.span, "[]"),
            ast::Expr::Object(o) if !o.props.is_empty() => self.push(o.span, "{}"),
            _ => {}
        }
        e.visit_children_with(self);
    }

    fn visit_call_expr(&mut self, c: &ast::CallExpr) {
        if let (Some(first), Some(last)) = (c.args.first(), c.args.last()) {
            self.push(super::Span::new(first.span().lo, last.span().hi), "");
        }
        c.visit_children_with(self);
    }
}

struct Jumps(bool);
impl Visit for Jumps {
    fn visit_return_stmt(&mut self, _: &ast::ReturnStmt) {
        self.0 = true;
    }
    fn visit_break_stmt(&mut self, _: &ast::BreakStmt) {
        self.0 = true;
    }
    fn visit_continue_stmt(&mut self, _: &ast::ContinueStmt) {
        self.0 = true;
    }
    fn visit_throw_stmt(&mut self, _: &ast::ThrowStmt) {
        self.0 = true;
    }
}

impl Collector<'_> {
    fn list(&mut self, stmts: &[ast::Stmt]) {
        let mut prologue = true;
        for s in stmts {
            self.listed.insert(s.span().lo.0);
            let is_directive = matches!(s, ast::Stmt::Expr(e) if matches!(&*e.expr, ast::Expr::Lit(ast::Lit::Str(_))));
            if prologue && is_directive {
                self.directives.insert(s.span().lo.0);
            } else {
                prologue = false;
            }
        }
    }
}

impl Visit for Collector<'_> {
    fn visit_stmts(&mut self, stmts: &[ast::Stmt]) {
        self.list(stmts);
        stmts.visit_children_with(self);
    }

    fn visit_function(&mut self, f: &ast::Function) {
        if let Some(b) = &f.body {
            self.list(&b.stmts);
        }
        f.visit_children_with(self);
    }

    fn visit_labeled_stmt(&mut self, l: &ast::LabeledStmt) {
        self.labeled.insert(l.body.span().lo.0);
        l.visit_children_with(self);
    }

    fn visit_stmt(&mut self, s: &ast::Stmt) {
        let span = s.span();
        let start = (span.lo.0 - self.base) as usize;
        let end = (span.hi.0 - self.base) as usize;
        let mut j = Jumps(false);
        s.visit_children_with(&mut j);
        let mut jumps = j.0;
        if matches!(
            s,
            ast::Stmt::Return(_)
                | ast::Stmt::Break(_)
                | ast::Stmt::Continue(_)
                | ast::Stmt::Throw(_)
        ) {
            jumps = true;
        }
        self.out.push(Stmt {
            start,
            end,
            line: (self.line_of)(start),
            last_line: (self.line_of)(end.saturating_sub(1).max(start)),
            kind: super::statement_kind(s),
            listed: self.listed.contains(&span.lo.0),
            jumps,
            directive: self.directives.contains(&span.lo.0),
            labeled_body: self.labeled.contains(&span.lo.0),
        });
        s.visit_children_with(self);
    }
}

impl JsProgram {
    /// Parses a classic script (what Node's `vm.Script` runs): a syntax error, or a program
    /// too large or deep for morphtrace (then it must be rejected), is the `Err`.
    pub fn parse(text: &str) -> Result<JsProgram, Refusal> {
        super::parse(text, Goal::Script, |p| {
            let Some(script) = p.script() else {
                return Err(Refusal::Syntax("not a script".into()));
            };
            let lines = &p.positions.lines;
            let line_of = |off: usize| lines.line_of(off);
            let mut c = Collector {
                base: p.base,
                line_of: &line_of,
                listed: HashSet::new(),
                labeled: HashSet::new(),
                directives: HashSet::new(),
                out: Vec::new(),
            };
            c.list(&script.body);
            script.visit_with(&mut c);
            let mut statements = c.out;
            statements.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end)));
            let mut e = Simplifiable {
                base: p.base,
                out: Vec::new(),
            };
            script.visit_with(&mut e);
            let mut simplifications = e.out;
            simplifications.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end)));
            Ok(JsProgram {
                text: text.to_string(),
                statements,
                simplifications,
                first_token: p.line_tokens().iter().map(|t| t.map(|(f, _)| f)).collect(),
                positions: p.positions.clone(),
            })
        })?
    }

    /// Lines (0-based) that hold no token: blank or only comment.
    pub fn tokenless_lines(&self) -> Vec<u32> {
        self.first_token
            .iter()
            .enumerate()
            .filter(|(_, t)| t.is_none())
            .map(|(i, _)| i as u32)
            .collect()
    }

    /// The UTF-16 offset of `line`'s first token (0-based line), where morphtrace reads V8's
    /// count of a line.
    pub fn line_start_utf16(&self, line: u32) -> Option<u32> {
        self.first_token
            .get(line as usize)
            .copied()
            .flatten()
            .map(|b| self.utf16(b))
    }

    /// The UTF-16 offset (V8's unit) of a byte offset.
    pub fn utf16(&self, byte: usize) -> u32 {
        self.positions.utf16(byte)
    }

    /// Statements whose counts are compared: not function or class declarations, whose start V8
    /// attributes to the function itself.
    fn counted(&self) -> impl Iterator<Item = &Stmt> {
        self.statements.iter().filter(|s| {
            !matches!(
                s.kind,
                "FunctionDeclaration" | "ClassDeclaration" | "EmptyStatement"
            )
        })
    }

    /// Per-line counts: V8's count at the line's first token (coverage.md); `None` without tokens.
    pub fn line_counts(&self, functions: &[FunctionCoverage]) -> Vec<Option<u64>> {
        self.first_token
            .iter()
            .map(|t| t.and_then(|b| v8_count_at(functions, self.utf16(b))))
            .collect()
    }

    /// Per-statement counts: V8's count at each statement's start.
    pub fn statement_counts(&self, functions: &[FunctionCoverage]) -> Vec<StatementCount> {
        self.counted()
            .map(|s| StatementCount {
                start: self.utf16(s.start),
                line: s.line,
                kind: s.kind.into(),
                count: v8_count_at(functions, self.utf16(s.start)),
            })
            .collect()
    }

    /// Of `statements`, those V8 reports unexecuted: count 0 at the statement's start.
    pub fn unexecuted(
        &self,
        statements: &[Deletable],
        functions: &[FunctionCoverage],
    ) -> Vec<Deletable> {
        statements
            .iter()
            .filter(|s| v8_count_at(functions, self.utf16(s.start)) == Some(0))
            .cloned()
            .collect()
    }

    /// The ground-truth program: `;COUNTERS[i]++;` before every counted statement in a list, and
    /// `{;COUNTERS[i]++; S}` around a statement that is the body of an `if` or a loop. Returns the
    /// text and, per counted statement (in `statement_counts` order), its counter if it has one.
    /// The runner defines `COUNTERS` (an array of zeros) before the program runs: a declaration
    /// in the text would end a `"use strict"` prologue.
    pub fn instrument(&self, text: &str) -> (String, Vec<Option<usize>>) {
        let mut inserts: Vec<(usize, String)> = Vec::new();
        let mut counters = Vec::new();
        let mut n = 0usize;
        for s in self.counted() {
            let instrumentable =
                !s.directive && !s.labeled_body && (s.listed || !s.is_declaration());
            if !instrumentable {
                counters.push(None);
                continue;
            }
            if s.listed {
                inserts.push((s.start, format!(";{COUNTERS}[{n}]++;")));
            } else {
                inserts.push((s.start, format!("{{;{COUNTERS}[{n}]++;")));
                inserts.push((s.end, "}".into()));
            }
            counters.push(Some(n));
            n += 1;
        }
        // By offset; at one offset the closing `}` of a wrapped body first: the next statement's
        // counter must not land inside the body it follows (`while (c--) x(); y();`).
        inserts.sort_by_key(|(at, s)| (*at, !s.starts_with('}')));
        let mut out = String::with_capacity(text.len() + inserts.len() * 32);
        let mut pos = 0;
        for (at, s) in &inserts {
            out.push_str(&text[pos..*at]);
            out.push_str(s);
            pos = *at;
        }
        out.push_str(&text[pos..]);
        (out, counters)
    }
}

impl Statements for JsProgram {
    /// A program that parses is used: the engines' verdict comes from running it.
    fn rejection(&self) -> Option<String> {
        None
    }

    /// The syntax kind of each line: the innermost statement starting on it, else `brace`,
    /// `else`, `comment` or `blank`.
    fn line_kinds(&self) -> LineKinds {
        let text = &self.text;
        let mut kinds: Vec<String> = self
            .positions
            .lines
            .lines(text)
            .enumerate()
            .map(|(i, l)| {
                if l.trim().is_empty() {
                    "blank"
                } else if self.first_token.get(i).copied().flatten().is_none() {
                    "comment"
                } else {
                    crate::variant::structural_kind(l, &[')', ',']).unwrap_or("?")
                }
                .to_string()
            })
            .collect();
        // Statements are sorted outer first: the innermost starting on a line is written last.
        for s in &self.statements {
            if let Some(k) = kinds.get_mut(s.line as usize) {
                if k == "?" || (k != "blank" && k != "comment" && k != "else" && k != "brace") {
                    *k = s.kind.to_string();
                }
            }
        }
        for k in kinds.iter_mut().filter(|k| *k == "?") {
            *k = "Expression".into();
        }
        kinds
    }

    /// Statements Cod may delete: in a statement list, not a declaration or directive, without
    /// jumps.
    fn deletable(&self) -> Vec<Deletable> {
        self.statements
            .iter()
            .filter(|s| s.listed && !s.is_declaration() && !s.directive && !s.jumps)
            .filter(|s| s.kind != "EmptyStatement")
            .map(|s| Deletable {
                start: s.start,
                end: s.end,
                first_line: s.line,
                last_line: s.last_line,
                kind: s.kind.to_string(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::BlockRange;

    const SRC: &str = "\"use strict\";\n// a comment\nvar a = 1;\nfunction f(x) {\n  if (x) return 1;\n  for (var i = 0; i < 2; i++) a++;\n  L: for (;;) { break L; }\n  return 0;\n}\nf(0); f(0);\nif (a > 100) {\n  a = 'é';\n} else {\n  a = 2;\n}\n";

    #[test]
    fn statements_lines_and_kinds() {
        let p = JsProgram::parse(SRC).unwrap();
        let kinds = p.line_kinds();
        assert_eq!(kinds[0], "ExpressionStatement");
        assert_eq!(kinds[1], "comment");
        assert_eq!(kinds[2], "VariableDeclaration");
        assert_eq!(kinds[4], "ReturnStatement");
        assert_eq!(
            kinds[5], "ExpressionStatement",
            "innermost: the loop body a++"
        );
        assert_eq!(kinds[8], "brace");
        assert_eq!(kinds[12], "else");
        let directive = p.statements.iter().find(|s| s.line == 0).unwrap();
        assert!(directive.directive && directive.listed);
        let ret = p
            .statements
            .iter()
            .find(|s| s.kind == "ReturnStatement")
            .unwrap();
        assert!(!ret.listed && ret.jumps);
        assert!(JsProgram::parse("var = ;").is_err());
    }

    #[test]
    fn counts_from_v8_ranges() {
        let p = JsProgram::parse(SRC).unwrap();
        let len = SRC.encode_utf16().count() as u32;
        let if_start = p.utf16(SRC.find("{\n  a = 'é'").unwrap());
        let else_start = p.utf16(SRC.find("{\n  a = 2").unwrap());
        let functions = vec![FunctionCoverage {
            name: String::new(),
            ranges: vec![
                BlockRange {
                    start: 0,
                    end: len,
                    count: 1,
                },
                BlockRange {
                    start: if_start,
                    end: else_start - 6,
                    count: 0,
                },
            ],
            is_block_coverage: true,
        }];
        let lines = p.line_counts(&functions);
        assert_eq!(lines[1], None, "comment line");
        assert_eq!(lines[11], Some(0));
        assert_eq!(lines[13], Some(1));
        let c = p.unexecuted(&p.deletable(), &functions);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].first_line, 11);
        let st = p.statement_counts(&functions);
        assert!(st.iter().all(|s| s.kind != "FunctionDeclaration"));
        assert_eq!(st.iter().find(|s| s.line == 11).unwrap().count, Some(0));
    }

    #[test]
    fn instrumentation_keeps_the_program_valid() {
        let p = JsProgram::parse(SRC).unwrap();
        let (text, counters) = p.instrument(SRC);
        assert!(text.contains(&format!("{{;{COUNTERS}[")), "{text}");
        let q = JsProgram::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert!(q.statements.len() > p.statements.len());
        // A counter after a brace-less loop body stays outside the body.
        let loop_src = "var c = 3;while(c--)c=c;c=1;";
        let l = JsProgram::parse(loop_src).unwrap();
        let (t, _) = l.instrument(loop_src);
        assert!(
            t.contains("{;__morphtrace_counts[2]++;c=c;};__morphtrace_counts[3]++;c=1;"),
            "{t}"
        );
        // The directive and the labeled loop have no counter.
        assert_eq!(counters[0], None);
        assert_eq!(counters.iter().filter(|c| c.is_none()).count(), 2);
    }
}
