//! The sites of a JavaScript program ([`crate::sites`]): which variables are initialized at each
//! statement that starts its line (scopes and the temporal dead zone, on swc's tree), the decimal
//! integer and boolean literals in expressions, and the functions that can take one more formal
//! parameter (not getters or setters, not read as `f.length`, without rest parameters or
//! `arguments`).

use super::ast;
use super::visit::{Visit, VisitWith};
use super::{Goal, Refusal, Spanned};
use crate::sites::{FunctionSite, Literal, LiteralValue, Name, Point, Sites, Spelling};
use morphtrace_schema::lines::LineIndex;
use std::collections::HashSet;

/// Names kept per point or literal: the innermost (a transformation names one of them).
const MAX_NAMES: usize = 256;
/// Points and literals kept per program: the first (a chain uses a handful; a generated program
/// may have millions, and each keeps its names).
const MAX_SITES: usize = 20_000;

/// Binding names of a pattern (not those inside default values).
struct Bindings(Vec<String>);
impl Visit for Bindings {
    fn visit_binding_ident(&mut self, b: &ast::BindingIdent) {
        self.0.push(b.id.sym.to_string());
    }
    fn visit_expr(&mut self, _: &ast::Expr) {}
}

fn bindings<N: VisitWith<Bindings>>(n: &N) -> Vec<String> {
    let mut b = Bindings(Vec::new());
    n.visit_with(&mut b);
    b.0
}

/// `var` and function declarations of a body, not descending into nested functions.
struct Hoisted {
    out: Vec<String>,
    depth: u32,
}
impl Visit for Hoisted {
    fn visit_var_decl(&mut self, d: &ast::VarDecl) {
        if d.kind == ast::VarDeclKind::Var {
            for x in &d.decls {
                self.out.extend(bindings(&x.name));
            }
        }
        d.visit_children_with(self);
    }
    fn visit_fn_decl(&mut self, f: &ast::FnDecl) {
        if self.depth == 0 {
            self.out.push(f.ident.sym.to_string());
        }
    }
    fn visit_block_stmt(&mut self, b: &ast::BlockStmt) {
        self.depth += 1;
        b.visit_children_with(self);
        self.depth -= 1;
    }
    fn visit_function(&mut self, _: &ast::Function) {}
    fn visit_arrow_expr(&mut self, _: &ast::ArrowExpr) {}
    fn visit_class(&mut self, _: &ast::Class) {}
}

fn hoisted(stmts: &[ast::Stmt]) -> Vec<String> {
    let mut h = Hoisted {
        out: Vec::new(),
        depth: 0,
    };
    for s in stmts {
        s.visit_with(&mut h);
    }
    h.out
}

/// Names that must never be picked: assigning them is a syntax error in strict code, or they
/// are not plain variables.
fn usable(name: &str) -> bool {
    !matches!(
        name,
        "arguments" | "eval" | "undefined" | "NaN" | "Infinity"
    )
}

#[derive(Default)]
struct Frame {
    hoisted: Vec<Name>,
    blocks: Vec<Vec<Name>>,
    uses_arguments: bool,
}

struct Collector<'a> {
    base: u32,
    text: &'a str,
    lines: &'a LineIndex,
    frames: Vec<Frame>,
    in_params: u32,
    /// The next function is a getter or setter (its parameter count is fixed).
    accessor: bool,
    /// The name the next function expression gets bound to (for `.length` reads).
    pending_name: Option<String>,
    length_reads: HashSet<String>,
    candidates: Vec<(FunctionSite, Vec<String>, bool)>,
    out: Sites,
}

impl Collector<'_> {
    fn off(&self, pos: super::BytePos) -> usize {
        (pos.0 - self.base) as usize
    }

    fn line_of(&self, off: usize) -> u32 {
        self.lines.line_of(off)
    }

    /// The names visible here, each once (a later declaration shadows an earlier one and
    /// takes its place), at most [`MAX_NAMES`]: the innermost.
    fn names(&self) -> Vec<Name> {
        if self.in_params > 0 {
            return Vec::new();
        }
        let Some(f) = self.frames.last() else {
            return Vec::new();
        };
        let mut seen = HashSet::new();
        let mut out: Vec<Name> = Vec::new();
        for n in f
            .blocks
            .iter()
            .rev()
            .flat_map(|b| b.iter().rev())
            .chain(f.hoisted.iter().rev())
        {
            if out.len() == MAX_NAMES {
                break;
            }
            if seen.insert(n.name.as_str()) {
                out.push(n.clone());
            }
        }
        out.reverse();
        out
    }

    fn declare(&mut self, names: Vec<String>, assignable: bool) {
        if let Some(b) = self.frames.last_mut().and_then(|f| f.blocks.last_mut()) {
            b.extend(
                names
                    .into_iter()
                    .filter(|n| usable(n))
                    .map(|name| Name { name, assignable }),
            );
        }
    }

    fn push_frame(&mut self, params: Vec<String>, body: &[ast::Stmt], global: bool) {
        let mut hoisted: Vec<Name> = params
            .into_iter()
            .filter(|n| usable(n))
            .map(|name| Name {
                name,
                assignable: true,
            })
            .collect();
        hoisted.extend(
            self::hoisted(body)
                .into_iter()
                .filter(|n| usable(n))
                .map(|name| Name {
                    name,
                    assignable: !global,
                }),
        );
        // `var x` repeated a hundred thousand times is one name.
        let mut seen = HashSet::new();
        hoisted.reverse();
        hoisted.retain(|n| seen.insert(n.name.clone()));
        hoisted.reverse();
        self.frames.push(Frame {
            hoisted,
            blocks: vec![Vec::new()],
            uses_arguments: false,
        });
    }

    /// The statement starts its line, with only blanks before it on that line.
    fn point(&self, s: &ast::Stmt) -> Option<Point> {
        let start = self.off(s.span().lo);
        let line = self.line_of(start);
        let line_start = self.lines.start(line);
        let prefix = &self.text[line_start..start];
        prefix
            .chars()
            .all(|c| c == ' ' || c == '\t')
            .then(|| Point {
                line_start,
                line,
                indent: prefix.to_string(),
                names: self.names(),
            })
    }
}

impl Visit for Collector<'_> {
    fn visit_stmts(&mut self, stmts: &[ast::Stmt]) {
        if let Some(f) = self.frames.last_mut() {
            f.blocks.push(Vec::new());
        }
        let mut prologue = true;
        for s in stmts {
            let directive = matches!(s, ast::Stmt::Expr(e) if matches!(&*e.expr, ast::Expr::Lit(ast::Lit::Str(_))));
            prologue = prologue && directive;
            if !prologue && self.out.points.len() < MAX_SITES {
                if let Some(p) = self.point(s) {
                    self.out.points.push(p);
                }
            }
            s.visit_with(self);
            // Declared only after their statement ran (before it, a read throws).
            match s {
                ast::Stmt::Decl(ast::Decl::Var(v)) if v.kind != ast::VarDeclKind::Var => {
                    let names = v.decls.iter().flat_map(|d| bindings(&d.name)).collect();
                    self.declare(names, v.kind == ast::VarDeclKind::Let);
                }
                ast::Stmt::Decl(ast::Decl::Class(c)) => {
                    self.declare(vec![c.ident.sym.to_string()], false);
                }
                _ => {}
            }
        }
        if let Some(f) = self.frames.last_mut() {
            f.blocks.pop();
        }
    }

    fn visit_script(&mut self, s: &ast::Script) {
        self.push_frame(Vec::new(), &s.body, true);
        self.visit_stmts(&s.body);
        self.frames.pop();
    }

    fn visit_class_method(&mut self, m: &ast::ClassMethod) {
        self.accessor = m.kind != ast::MethodKind::Method;
        m.visit_children_with(self);
    }

    fn visit_private_method(&mut self, m: &ast::PrivateMethod) {
        self.accessor = m.kind != ast::MethodKind::Method;
        m.visit_children_with(self);
    }

    fn visit_getter_prop(&mut self, g: &ast::GetterProp) {
        g.key.visit_with(self);
        self.accessor = true;
        g.function.visit_with(self);
    }

    fn visit_setter_prop(&mut self, g: &ast::SetterProp) {
        g.key.visit_with(self);
        self.accessor = true;
        g.function.visit_with(self);
    }

    fn visit_fn_decl(&mut self, f: &ast::FnDecl) {
        self.pending_name = Some(f.ident.sym.to_string());
        f.function.visit_with(self);
    }

    fn visit_fn_expr(&mut self, f: &ast::FnExpr) {
        if let Some(i) = &f.ident {
            self.pending_name = Some(i.sym.to_string());
        }
        f.function.visit_with(self);
    }

    fn visit_var_declarator(&mut self, d: &ast::VarDeclarator) {
        d.name.visit_with(self);
        if let (ast::Pat::Ident(b), Some(init)) = (&d.name, &d.init) {
            if matches!(&**init, ast::Expr::Fn(f) if f.ident.is_none()) {
                self.pending_name = Some(b.id.sym.to_string());
            }
        }
        d.init.visit_with(self);
    }

    fn visit_function(&mut self, f: &ast::Function) {
        let accessor = std::mem::take(&mut self.accessor);
        let name = self.pending_name.take();
        let Some(body) = &f.body else {
            return;
        };
        let params: Vec<String> = f.params.iter().flat_map(|p| bindings(&p.pat)).collect();
        if let (Some(first), Some(last)) = (f.params.first(), f.params.last()) {
            let range = (self.off(first.span.lo), self.off(last.span.hi));
            self.out.parameter_lists.push(range);
        }
        self.push_frame(params, &body.stmts, false);
        self.in_params += 1;
        f.params.visit_with(self);
        self.in_params -= 1;
        self.visit_stmts(&body.stmts);
        let frame = self.frames.pop().unwrap_or_default();
        let range = (self.off(body.span.lo), self.off(body.span.hi));
        self.out.bodies.push(range);
        let rest = f
            .params
            .last()
            .is_some_and(|p| matches!(p.pat, ast::Pat::Rest(_)));
        if accessor || rest || frame.uses_arguments {
            return;
        }
        let insert_at = match f.params.last() {
            Some(p) => Some(self.off(p.span.hi)),
            None => {
                // The first `(` after the name (or the `function` keyword) opens the list.
                let from = self.off(f.span.lo);
                self.text[from..range.0].find('(').map(|i| from + i + 1)
            }
        };
        if let Some(insert_at) = insert_at {
            let site = FunctionSite {
                insert_at,
                has_params: !f.params.is_empty(),
                body: range,
            };
            self.candidates
                .push((site, name.into_iter().collect(), f.is_generator));
        }
    }

    fn visit_arrow_expr(&mut self, a: &ast::ArrowExpr) {
        let params: Vec<String> = a.params.iter().flat_map(bindings).collect();
        if let (Some(first), Some(last)) = (a.params.first(), a.params.last()) {
            let range = (self.off(first.span().lo), self.off(last.span().hi));
            self.out.parameter_lists.push(range);
        }
        let stmts: &[ast::Stmt] = match &*a.body {
            ast::ArrowFunctionBody::FunctionBody(b) => &b.stmts,
            ast::ArrowFunctionBody::Expr(_) => &[],
        };
        self.push_frame(params, stmts, false);
        self.in_params += 1;
        a.params.visit_with(self);
        self.in_params -= 1;
        match &*a.body {
            ast::ArrowFunctionBody::FunctionBody(b) => {
                self.visit_stmts(&b.stmts);
                self.out
                    .bodies
                    .push((self.off(b.span.lo), self.off(b.span.hi)));
            }
            ast::ArrowFunctionBody::Expr(e) => {
                e.visit_with(self);
                let s = e.span();
                self.out.bodies.push((self.off(s.lo), self.off(s.hi)));
            }
        }
        // Arrows see their parent's `arguments`.
        let uses = self.frames.pop().is_some_and(|f| f.uses_arguments);
        if let Some(f) = self.frames.last_mut() {
            f.uses_arguments |= uses;
        }
    }

    fn visit_for_stmt(&mut self, f: &ast::ForStmt) {
        f.init.visit_with(self);
        let mut pushed = false;
        if let Some(ast::VarDeclOrExpr::VarDecl(v)) = &f.init {
            if v.kind != ast::VarDeclKind::Var {
                if let Some(fr) = self.frames.last_mut() {
                    fr.blocks.push(Vec::new());
                    pushed = true;
                }
                let names = v.decls.iter().flat_map(|d| bindings(&d.name)).collect();
                self.declare(names, v.kind == ast::VarDeclKind::Let);
            }
        }
        f.test.visit_with(self);
        f.update.visit_with(self);
        f.body.visit_with(self);
        if pushed {
            if let Some(fr) = self.frames.last_mut() {
                fr.blocks.pop();
            }
        }
    }

    fn visit_for_in_stmt(&mut self, f: &ast::ForInStmt) {
        self.for_each(&f.left, &f.right, &f.body);
    }

    fn visit_for_of_stmt(&mut self, f: &ast::ForOfStmt) {
        self.for_each(&f.left, &f.right, &f.body);
    }

    fn visit_catch_clause(&mut self, c: &ast::CatchClause) {
        if let Some(fr) = self.frames.last_mut() {
            fr.blocks.push(Vec::new());
        }
        if let Some(p) = &c.param {
            self.declare(bindings(p), true);
        }
        c.body.visit_with(self);
        if let Some(fr) = self.frames.last_mut() {
            fr.blocks.pop();
        }
    }

    fn visit_with_stmt(&mut self, w: &ast::WithStmt) {
        self.out.has_with = true;
        w.visit_children_with(self);
    }

    fn visit_ident(&mut self, i: &ast::Ident) {
        if &*i.sym == "arguments" {
            if let Some(f) = self.frames.last_mut() {
                f.uses_arguments = true;
            }
        }
    }

    fn visit_member_expr(&mut self, m: &ast::MemberExpr) {
        if let (ast::Expr::Ident(o), ast::MemberProp::Ident(p)) = (&*m.obj, &m.prop) {
            if &*p.sym == "length" {
                self.length_reads.insert(o.sym.to_string());
            }
        }
        m.visit_children_with(self);
    }

    fn visit_prop_name(&mut self, p: &ast::PropName) {
        // Keys such as `{ 1: x }` are not expressions; only computed keys hold some.
        if let ast::PropName::Computed(c) = p {
            c.visit_with(self);
        }
    }

    fn visit_expr(&mut self, e: &ast::Expr) {
        if let ast::Expr::Lit(l) = e {
            let value = match l {
                ast::Lit::Num(n) => n
                    .raw
                    .as_ref()
                    .filter(|r| r.bytes().all(|b| b.is_ascii_digit()))
                    .filter(|r| r.len() == 1 || !r.starts_with('0'))
                    .filter(|_| n.value < 1e9)
                    .map(|_| LiteralValue::Int(n.value as u64)),
                ast::Lit::Bool(b) => Some(LiteralValue::Bool(b.value)),
                _ => None,
            };
            if let Some(value) = value.filter(|_| self.out.literals.len() < MAX_SITES) {
                let s = l.span();
                self.out.literals.push(Literal {
                    start: self.off(s.lo),
                    end: self.off(s.hi),
                    value,
                    names: self.names(),
                });
            }
        }
        e.visit_children_with(self);
    }
}

impl Collector<'_> {
    fn for_each(&mut self, left: &ast::ForHead, right: &ast::Expr, body: &ast::Stmt) {
        right.visit_with(self);
        left.visit_with(self);
        let mut pushed = false;
        if let ast::ForHead::VarDecl(v) = left {
            if v.kind != ast::VarDeclKind::Var {
                if let Some(fr) = self.frames.last_mut() {
                    fr.blocks.push(Vec::new());
                    pushed = true;
                }
                let names = v.decls.iter().flat_map(|d| bindings(&d.name)).collect();
                self.declare(names, v.kind == ast::VarDeclKind::Let);
            }
        }
        body.visit_with(self);
        if pushed {
            if let Some(fr) = self.frames.last_mut() {
                fr.blocks.pop();
            }
        }
    }
}

/// The sites of a classic script: a syntax error, or a program too large or deep for
/// morphtrace, is the `Err`.
pub fn sites(text: &str) -> Result<Sites, Refusal> {
    super::parse(text, Goal::Script, |p| {
        let Some(script) = p.script() else {
            return Err(Refusal::Syntax("not a script".into()));
        };
        let mut c = Collector {
            base: p.base,
            text,
            lines: &p.positions.lines,
            frames: Vec::new(),
            in_params: 0,
            accessor: false,
            pending_name: None,
            length_reads: HashSet::new(),
            candidates: Vec::new(),
            out: Sites::empty(p.positions.clone(), Spelling::JavaScript),
        };
        script.visit_with(&mut c);
        let reads = std::mem::take(&mut c.length_reads);
        let mut out = c.out;
        // `f.length` counts formal parameters: a function read that way keeps its count.
        out.functions = c
            .candidates
            .into_iter()
            .filter(|(_, names, _)| !names.iter().any(|n| reads.contains(n)))
            .map(|(s, _, _)| s)
            .collect();
        out.functions.sort_by_key(|f| f.insert_at);
        out.points.sort_by_key(|p| p.line_start);
        out.points.dedup_by_key(|p| p.line_start);
        out.literals.sort_by_key(|l| l.start);
        Ok(out)
    })?
}

#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::Location;

    #[test]
    fn a_place_in_a_parameter_list_is_told_from_the_body() {
        // test262 `generators/dflt-params-ref-later.js`: `y` is read in its dead zone.
        let text = "function* f(x = y, y) {\n  return x;\n}\nconst g = (a, { b } = {}) => a + b;\n";
        let a = sites(text).unwrap();
        assert!(a.in_parameters(Location::new(0, 16)), "x = y");
        // test262 `generators/dflt-params-ref-self.js` on Bun: the throw of `x = x` at the `)`.
        assert!(a.in_parameters(Location::new(0, 20)), "after y");
        assert!(a.in_parameters(Location::new(3, 14)), "{{ b }}");
        assert!(!a.in_parameters(Location::new(1, 2)), "the body");
        assert!(!a.in_parameters(Location::new(3, 30)), "the arrow's body");
        assert!(!a.in_parameters(Location::new(0, 0)), "before the list");
    }

    #[test]
    fn names_respect_scopes_and_the_temporal_dead_zone() {
        let text = "function f(a) {\n  var v;\n  let before = 1;\n  g();\n  const c = 2;\n  let after = 3;\n  function inner(b) {\n    return b;\n  }\n  return a;\n}\n";
        let a = sites(text).unwrap();
        let at = |line: u32| {
            let p = a.points.iter().find(|p| p.line == line).unwrap();
            p.names
                .iter()
                .map(|n| (n.name.as_str(), n.assignable))
                .collect::<Vec<_>>()
        };
        // Line 3 (`g();`): `before` is initialized, `c` and `after` are not yet.
        assert_eq!(
            at(3),
            vec![("a", true), ("v", true), ("inner", true), ("before", true)]
        );
        // Line 5: after the const.
        assert!(at(5).contains(&("c", false)));
        // Inside `inner`: only its own names.
        assert_eq!(at(7), vec![("b", true)]);
        // Top level: a global function is readable but never assigned.
        assert_eq!(at(0), vec![("f", false)]);
    }

    #[test]
    fn unsafe_places_are_not_offered() {
        let text = "var o = { 1: 2, get x() { return true; }, set y(v) {} };\nfunction h() { return h.length; }\nfunction r(...xs) { return xs; }\nfunction u() { return arguments[0]; }\n/* a\n */ var z = 0x10 + 010 + 1e3 + 1.5;\nwith (o) { x; }\n";
        let a = sites(text).unwrap();
        // No site in a getter, a setter, a function read as `h.length`, a rest parameter or
        // one using `arguments`.
        assert!(a.functions.is_empty(), "{:?}", a.functions);
        // Only decimal integers in expressions: `2` (a value) but not the key `1`.
        let ints: Vec<&str> = a
            .literals
            .iter()
            .filter(|l| matches!(l.value, LiteralValue::Int(_)))
            .map(|l| &text[l.start..l.end])
            .collect();
        assert_eq!(ints, vec!["2", "0"]);
        // The line that starts inside a comment is no insertion point.
        assert!(a.points.iter().all(|p| p.line != 5));
        assert!(a.has_with);
    }
}
