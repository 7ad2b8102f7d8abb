//! Which JavaScript functions ECMAScript leaves without a name, and the names a debugger may
//! infer for them from the code around them. A function expression or arrow in no position
//! that names it (assigned to a property, passed, returned, called at once) has the empty
//! `name`; V8 and SpiderMonkey then show its frame under a name they infer from the assignment
//! it is in (`D.m` or `D.prototype.m` for `D.prototype.m = function () {…}`, SpiderMonkey's
//! `decompressedJQuery<` for a function inside that variable's initializer), JavaScriptCore
//! shows none. A frame named so is a difference of representation; the same difference at a
//! function the program names (`function f`, `const f = () => …`, a method) is a lost or wrong
//! name, so the triage asks this module which it is.

use crate::js::ast;
use crate::js::visit::{Visit, VisitWith};
use crate::js::{BytePos, Spanned};
use morphtrace_schema::Location;
use std::collections::HashSet;

/// The functions of one program: where each is, whether ECMAScript names it, and the
/// assignments around it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FunctionNames {
    functions: Vec<Function>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Function {
    /// From its first token (`function`, its parameters) to its last.
    from: Location,
    to: Location,
    /// ECMAScript gives it no name (its `name` is the empty string).
    anonymous: bool,
    /// The targets of the assignments, declarations and properties it is inside, innermost
    /// first, as the source spells them (`D.prototype.m`, `o.k`, `x`); computed members are
    /// left out.
    around: Vec<String>,
}

struct Collect<'a> {
    parsed: &'a crate::js::Parsed<'a>,
    out: Vec<Function>,
    /// Where functions in a position that names them begin (`const f = function () {}`,
    /// `x = () => 1`, `{ k: function () {} }`, a default value, a class field).
    named: HashSet<BytePos>,
    /// The enclosing targets, outermost first.
    around: Vec<String>,
}

/// The function expression `e` is (through parentheses), where it begins.
fn function_start(e: &ast::Expr) -> Option<BytePos> {
    match e {
        ast::Expr::Fn(_) | ast::Expr::Arrow(_) | ast::Expr::Class(_) => Some(e.span().lo),
        ast::Expr::Paren(p) => function_start(&p.expr),
        _ => None,
    }
}

/// A member expression's path as the source spells it (`a.b.c`, `this.x`); `None` where a part
/// is computed or not a name.
fn path(e: &ast::Expr) -> Option<String> {
    match e {
        ast::Expr::Ident(i) => Some(i.sym.to_string()),
        ast::Expr::This(_) => Some("this".into()),
        ast::Expr::Member(m) => {
            let ast::MemberProp::Ident(p) = &m.prop else {
                return None;
            };
            Some(format!("{}.{}", path(&m.obj)?, p.sym))
        }
        ast::Expr::Paren(p) => path(&p.expr),
        _ => None,
    }
}

fn key_name(k: &ast::PropName) -> Option<String> {
    match k {
        ast::PropName::Ident(i) => Some(i.sym.to_string()),
        ast::PropName::Str(s) => Some(s.value.to_string_lossy().into_owned()),
        _ => None,
    }
}

impl Collect<'_> {
    fn function(&mut self, start: BytePos, span: crate::js::Span, own_name: bool) {
        let (lo, hi) = self.parsed.range(span);
        let p = &self.parsed.positions;
        self.out.push(Function {
            from: p.location(lo),
            to: p.location(hi.saturating_sub(1)),
            anonymous: !own_name && !self.named.contains(&start),
            around: self.around.iter().rev().cloned().collect(),
        });
    }

    /// Visits `inner` inside the target `target` (if it has a path).
    fn inside<T: VisitWith<Self> + ?Sized>(&mut self, target: Option<String>, inner: &T) {
        let pushed = target.is_some();
        if let Some(t) = target {
            self.around.push(t);
        }
        inner.visit_with(self);
        if pushed {
            self.around.pop();
        }
    }
}

impl Visit for Collect<'_> {
    fn visit_var_declarator(&mut self, d: &ast::VarDeclarator) {
        let target = match &d.name {
            ast::Pat::Ident(i) => Some(i.id.sym.to_string()),
            _ => None,
        };
        if let (Some(_), Some(init)) = (&target, &d.init) {
            self.named.extend(function_start(init));
        }
        d.name.visit_with(self);
        self.inside(target, &d.init);
    }

    fn visit_assign_expr(&mut self, a: &ast::AssignExpr) {
        let target = match &a.left {
            ast::AssignTarget::Simple(ast::SimpleAssignTarget::Ident(i)) => {
                // `x = function () {}` names it `x`; `o.k = …` does not.
                self.named.extend(function_start(&a.right));
                Some(i.id.sym.to_string())
            }
            ast::AssignTarget::Simple(ast::SimpleAssignTarget::Member(m)) => {
                path(&ast::Expr::Member(m.clone()))
            }
            _ => None,
        };
        a.left.visit_with(self);
        self.inside(target, &a.right);
    }

    fn visit_key_value_prop(&mut self, p: &ast::KeyValueProp) {
        self.named.extend(function_start(&p.value));
        let key = key_name(&p.key).map(|k| match self.around.last() {
            Some(outer) => format!("{outer}.{k}"),
            None => k,
        });
        p.key.visit_with(self);
        self.inside(key, &p.value);
    }

    fn visit_assign_pat(&mut self, p: &ast::AssignPat) {
        if matches!(&*p.left, ast::Pat::Ident(_)) {
            self.named.extend(function_start(&p.right));
        }
        p.visit_children_with(self);
    }

    fn visit_assign_pat_prop(&mut self, p: &ast::AssignPatProp) {
        if let Some(v) = &p.value {
            self.named.extend(function_start(v));
        }
        p.visit_children_with(self);
    }

    fn visit_class_prop(&mut self, p: &ast::ClassProp) {
        if let Some(v) = &p.value {
            self.named.extend(function_start(v));
        }
        p.visit_children_with(self);
    }

    fn visit_fn_expr(&mut self, f: &ast::FnExpr) {
        let start = f.span().lo;
        self.function(start, f.function.span, f.ident.is_some());
        f.visit_children_with(self);
    }

    fn visit_arrow_expr(&mut self, a: &ast::ArrowExpr) {
        self.function(a.span.lo, a.span, false);
        a.visit_children_with(self);
    }

    fn visit_fn_decl(&mut self, f: &ast::FnDecl) {
        self.function(f.span().lo, f.function.span, true);
        f.visit_children_with(self);
    }

    // Methods, accessors and constructors are named by their keys or their class; an
    // anonymous class's constructor is counted as named too (no rule may excuse there).
    fn visit_class_method(&mut self, m: &ast::ClassMethod) {
        self.function(m.span.lo, m.span, true);
        m.function.visit_children_with(self);
    }

    fn visit_private_method(&mut self, m: &ast::PrivateMethod) {
        self.function(m.span.lo, m.span, true);
        m.function.visit_children_with(self);
    }

    fn visit_constructor(&mut self, c: &ast::Constructor) {
        self.function(c.span.lo, c.span, true);
        c.visit_children_with(self);
    }

    fn visit_method_prop(&mut self, m: &ast::MethodProp) {
        self.function(m.function.span.lo, m.function.span, true);
        m.function.visit_children_with(self);
    }

    fn visit_getter_prop(&mut self, g: &ast::GetterProp) {
        self.function(g.span.lo, g.span, true);
        g.visit_children_with(self);
    }

    fn visit_setter_prop(&mut self, s: &ast::SetterProp) {
        self.function(s.span.lo, s.span, true);
        s.visit_children_with(self);
    }
}

impl FunctionNames {
    /// The program's functions; `None` where it does not parse (or passes the parser's limits).
    pub fn scan(text: &str) -> Option<FunctionNames> {
        crate::js::parse(text, crate::js::Goal::Program, |parsed| {
            let mut c = Collect {
                parsed,
                out: Vec::new(),
                named: HashSet::new(),
                around: Vec::new(),
            };
            parsed.program.visit_with(&mut c);
            // The `named` set fills as declarations are entered, before their functions are
            // visited; nothing is left to resolve afterwards.
            FunctionNames { functions: c.out }
        })
        .ok()
    }

    /// The innermost function whose code holds `at`.
    fn at(&self, at: Location) -> Option<&Function> {
        self.functions
            .iter()
            .filter(|f| f.from <= at && at <= f.to)
            .max_by_key(|f| f.from)
    }

    /// Whether the innermost function at `at` is one ECMAScript leaves without a name; `None`
    /// in top-level code.
    pub fn anonymous_at(&self, at: Location) -> Option<bool> {
        self.at(at).map(|f| f.anonymous)
    }

    /// Whether `name`, a debugger's name for the frame of the function at `at`, is one inferred
    /// from the assignments around a function ECMAScript leaves without a name: its root (up
    /// to SpiderMonkey's `<` "inside" or `/` "returned from" marks) is the path of one of them,
    /// `.prototype` left out on both sides (V8 names `D.prototype.m = function` `D.m`). An
    /// empty name, a function the program names, or any other name: `false`.
    pub fn inferred(&self, at: Location, name: &str) -> bool {
        let Some(f) = self.at(at).filter(|f| f.anonymous) else {
            return false;
        };
        let root = name.split(['<', '/']).next().unwrap_or_default();
        if root.is_empty() {
            return false;
        }
        let plain = |p: &str| p.replace(".prototype.", ".");
        f.around.iter().any(|t| plain(t) == plain(root))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line1: u32, col1: u32) -> Location {
        Location::new(line1 - 1, col1 - 1)
    }

    const PROGRAM: &str = "function f() {
  return 1;
}
const g = function () {
  return 2;
};
D.prototype.m = function () {
  return 3;
};
var q = (function () {
  return function () {
    return 4;
  };
})();
o.k = () => {
  return 5;
};
var h = { k: function () { return 6; } };
";

    #[test]
    fn functions_the_program_names_and_those_it_leaves_anonymous() {
        let n = FunctionNames::scan(PROGRAM).unwrap();
        assert_eq!(n.anonymous_at(at(2, 3)), Some(false), "a declaration");
        assert_eq!(
            n.anonymous_at(at(5, 3)),
            Some(false),
            "named by its declaration"
        );
        assert_eq!(
            n.anonymous_at(at(8, 3)),
            Some(true),
            "assigned to a property"
        );
        assert_eq!(n.anonymous_at(at(11, 3)), Some(true), "called at once");
        assert_eq!(n.anonymous_at(at(12, 5)), Some(true), "returned");
        assert_eq!(
            n.anonymous_at(at(16, 3)),
            Some(true),
            "an arrow assigned to a property"
        );
        assert_eq!(
            n.anonymous_at(at(18, 28)),
            Some(false),
            "named by its property"
        );
        assert_eq!(n.anonymous_at(at(19, 1)), None, "top-level code");
    }

    #[test]
    fn names_inferred_from_the_assignments_around() {
        let n = FunctionNames::scan(PROGRAM).unwrap();
        // V8's and SpiderMonkey's names for `D.prototype.m = function`.
        assert!(n.inferred(at(8, 3), "D.m"));
        assert!(n.inferred(at(8, 3), "D.prototype.m"));
        assert!(!n.inferred(at(8, 3), "D.n"));
        assert!(!n.inferred(at(8, 3), "f"));
        assert!(!n.inferred(at(8, 3), ""));
        // SpiderMonkey's marks for inside and returned from.
        assert!(n.inferred(at(12, 5), "q</<"));
        assert!(n.inferred(at(11, 3), "q<"));
        assert!(n.inferred(at(16, 3), "o.k"));
        // A function the program names: no inferred name is its name.
        assert!(!n.inferred(at(2, 3), "f"));
        assert!(!n.inferred(at(5, 3), "g"));
    }
}
