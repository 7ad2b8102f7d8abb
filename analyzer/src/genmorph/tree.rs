//! Output relations as typed expression trees over Table I's operators. Every operator is total
//! (protected division, NaN-safe comparisons with a tolerance), and the JavaScript rendering
//! calls helpers (`__mt`, see `js::PRELUDE`) with exactly these semantics, so that a relation
//! judged here judges the same in a generated test.

use morphtrace_schema::genmorph::value::{js_literal, js_to_string, write_js_number};
use std::fmt::Write;

/// Relative tolerance of numeric comparisons (GenMorph compares reals at fixed precision).
pub const TOLERANCE: f64 = 1e-9;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ty {
    Num,
    Bool,
    Seq,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    N(f64),
    B(bool),
    S(Vec<f64>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Abs,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    ToString,
    And,
    Or,
    Xor,
    Iff,
    Implies,
    Not,
    Length,
    Sum,
    SeqEq,
    SeqNe,
    Flip,
    Remove,
    Truncate,
}

use Ty::{Bool as B, Num as N, Seq as S};

impl Op {
    pub const ALL: [Op; 25] = [
        Op::Add,
        Op::Sub,
        Op::Mul,
        Op::Div,
        Op::Abs,
        Op::Eq,
        Op::Ne,
        Op::Lt,
        Op::Gt,
        Op::Le,
        Op::Ge,
        Op::ToString,
        Op::And,
        Op::Or,
        Op::Xor,
        Op::Iff,
        Op::Implies,
        Op::Not,
        Op::Length,
        Op::Sum,
        Op::SeqEq,
        Op::SeqNe,
        Op::Flip,
        Op::Remove,
        Op::Truncate,
    ];

    /// Table I: operand types and result type.
    pub fn signature(self) -> (&'static [Ty], Ty) {
        match self {
            Op::Add | Op::Sub | Op::Mul | Op::Div => (&[N, N], N),
            Op::Abs => (&[N], N),
            Op::Eq | Op::Ne | Op::Lt | Op::Gt | Op::Le | Op::Ge => (&[N, N], B),
            Op::ToString => (&[N], S),
            Op::And | Op::Or | Op::Xor | Op::Iff | Op::Implies => (&[B, B], B),
            Op::Not => (&[B], B),
            Op::Length | Op::Sum => (&[S], N),
            Op::SeqEq | Op::SeqNe => (&[S, S], B),
            Op::Flip => (&[S], S),
            Op::Remove | Op::Truncate => (&[S, N], S),
        }
    }

    pub fn ret(self) -> Ty {
        self.signature().1
    }

    fn infix(self) -> Option<&'static str> {
        Some(match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::Eq | Op::SeqEq => "==",
            Op::Ne | Op::SeqNe => "≠",
            Op::Lt => "<",
            Op::Gt => ">",
            Op::Le => "≤",
            Op::Ge => "≥",
            Op::And => "∧",
            Op::Or => "∨",
            Op::Xor => "⊕",
            Op::Iff => "⇔",
            Op::Implies => "⇒",
            _ => return None,
        })
    }

    /// The name of the `__mt` helper that computes this operator in JavaScript.
    pub fn js(self) -> &'static str {
        match self {
            Op::Add => "add",
            Op::Sub => "sub",
            Op::Mul => "mul",
            Op::Div => "div",
            Op::Abs => "abs",
            Op::Eq => "eq",
            Op::Ne => "ne",
            Op::Lt => "lt",
            Op::Gt => "gt",
            Op::Le => "le",
            Op::Ge => "ge",
            Op::ToString => "str",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
            Op::Iff => "iff",
            Op::Implies => "implies",
            Op::Not => "not",
            Op::Length => "length",
            Op::Sum => "sum",
            Op::SeqEq => "seqEq",
            Op::SeqNe => "seqNe",
            Op::Flip => "flip",
            Op::Remove => "remove",
            Op::Truncate => "truncate",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Num(f64),
    Bool(bool),
    Var(u16),
    Op(Op, Vec<Expr>),
}

/// The variables a relation may use: every input and the output, of the source and of the
/// follow-up execution.
#[derive(Debug, Clone, PartialEq)]
pub struct Vars {
    pub names: Vec<String>,
    pub types: Vec<Ty>,
    /// Indices of the source and follow-up outputs (the soft constraint needs both).
    pub outputs: (u16, u16),
}

impl Vars {
    pub fn of_type(&self, t: Ty) -> Vec<u16> {
        (0..self.types.len() as u16)
            .filter(|&i| self.types[i as usize] == t)
            .collect()
    }
}

/// Numbers equal within the tolerance; NaN equals NaN (a relation over outputs that are both
/// NaN holds), infinities equal themselves only.
pub fn close(a: f64, b: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a == b {
        return true;
    }
    if a.is_infinite() || b.is_infinite() {
        return false;
    }
    (a - b).abs() <= TOLERANCE * 1f64.max(a.abs()).max(b.abs())
}

/// Python-style index, truncated towards zero; NaN or out of range: None.
fn py_index(len: usize, i: f64) -> Option<usize> {
    if !i.is_finite() {
        return None;
    }
    let i = i.trunc() as i64;
    let n = len as i64;
    let j = if i < 0 { n + i } else { i };
    (0..n).contains(&j).then_some(j as usize)
}

/// `String(x)` as UTF-16 code units (all ASCII), formatted in a reused per-thread buffer.
pub fn js_string_units(x: f64) -> Vec<f64> {
    thread_local! {
        static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    SCRATCH.with_borrow_mut(|s| {
        s.clear();
        write_js_number(x, s);
        s.bytes().map(f64::from).collect()
    })
}

impl Expr {
    pub fn ty(&self, vars: &Vars) -> Ty {
        match self {
            Expr::Num(_) => Ty::Num,
            Expr::Bool(_) => Ty::Bool,
            Expr::Var(i) => vars.types[*i as usize],
            Expr::Op(op, _) => op.ret(),
        }
    }

    pub fn size(&self) -> usize {
        match self {
            Expr::Op(_, args) => 1 + args.iter().map(Expr::size).sum::<usize>(),
            _ => 1,
        }
    }

    pub fn depth(&self) -> usize {
        match self {
            Expr::Op(_, args) => 1 + args.iter().map(Expr::depth).max().unwrap_or(0),
            _ => 1,
        }
    }

    pub fn uses(&self, var: u16) -> bool {
        match self {
            Expr::Var(i) => *i == var,
            Expr::Op(_, args) => args.iter().any(|a| a.uses(var)),
            _ => false,
        }
    }

    /// Evaluates over one execution state (values indexed as `Vars`). Ill-typed trees are never
    /// built; should one be, it evaluates to a neutral value rather than panicking.
    pub fn eval(&self, state: &[Val]) -> Val {
        match self {
            Expr::Num(x) => Val::N(*x),
            Expr::Bool(b) => Val::B(*b),
            Expr::Var(i) => state.get(*i as usize).cloned().unwrap_or(Val::N(f64::NAN)),
            Expr::Op(op, args) => {
                let v: Vec<Val> = args.iter().map(|a| a.eval(state)).collect();
                apply(*op, v)
            }
        }
    }

    /// Evaluates a Boolean tree.
    pub fn holds(&self, state: &[Val]) -> bool {
        matches!(self.eval(state), Val::B(true))
    }

    /// Node `idx` in prefix order.
    pub fn node(&self, idx: usize) -> Option<&Expr> {
        let mut i = idx;
        self.find(&mut i)
    }

    fn find(&self, i: &mut usize) -> Option<&Expr> {
        if *i == 0 {
            return Some(self);
        }
        *i -= 1;
        if let Expr::Op(_, args) = self {
            for a in args {
                if let Some(e) = a.find(i) {
                    return Some(e);
                }
            }
        }
        None
    }

    pub fn node_mut(&mut self, idx: usize) -> Option<&mut Expr> {
        let mut i = idx;
        self.find_mut(&mut i)
    }

    fn find_mut(&mut self, i: &mut usize) -> Option<&mut Expr> {
        if *i == 0 {
            return Some(self);
        }
        *i -= 1;
        if let Expr::Op(_, args) = self {
            for a in args {
                if let Some(e) = a.find_mut(i) {
                    return Some(e);
                }
            }
        }
        None
    }

    /// Exact prefix form for files: `(eq out_f (div out_s 2.5))`; numbers round-trip.
    pub fn to_sexpr(&self, vars: &Vars) -> String {
        match self {
            Expr::Num(x) => format!("{x:?}"),
            Expr::Bool(b) => b.to_string(),
            Expr::Var(i) => vars.names[*i as usize].clone(),
            Expr::Op(op, args) => {
                let mut s = format!("({}", op.js());
                for a in args {
                    s.push(' ');
                    s.push_str(&a.to_sexpr(vars));
                }
                s.push(')');
                s
            }
        }
    }

    /// The inverse of `to_sexpr`, with the types checked.
    pub fn parse_sexpr(text: &str, vars: &Vars) -> Result<Expr, String> {
        let spaced = text.replace('(', " ( ").replace(')', " ) ");
        let mut tokens = spaced.split_whitespace().peekable();
        let e = parse_tokens(&mut tokens, vars)?;
        if tokens.next().is_some() {
            return Err(format!("trailing text in {text:?}"));
        }
        e.check(vars)?;
        Ok(e)
    }

    fn check(&self, vars: &Vars) -> Result<Ty, String> {
        match self {
            Expr::Num(_) => Ok(Ty::Num),
            Expr::Bool(_) => Ok(Ty::Bool),
            Expr::Var(i) => Ok(vars.types[*i as usize]),
            Expr::Op(op, args) => {
                let (want, ret) = op.signature();
                if want.len() != args.len() {
                    return Err(format!("{} takes {} operands", op.js(), want.len()));
                }
                for (a, t) in args.iter().zip(want) {
                    if a.check(vars)? != *t {
                        return Err(format!("an operand of {} has the wrong type", op.js()));
                    }
                }
                Ok(ret)
            }
        }
    }

    /// For people: `(out_f == (out_s / k_s))`.
    pub fn render(&self, vars: &Vars) -> String {
        let mut s = String::new();
        self.render_into(vars, &mut s);
        s
    }

    fn render_into(&self, vars: &Vars, out: &mut String) {
        match self {
            Expr::Num(x) => {
                let _ = write!(out, "{}", js_to_string(*x));
            }
            Expr::Bool(b) => {
                let _ = write!(out, "{b}");
            }
            Expr::Var(i) => out.push_str(&vars.names[*i as usize]),
            Expr::Op(op, args) => match (op.infix(), args.as_slice()) {
                (Some(sym), [a, b]) => {
                    out.push('(');
                    a.render_into(vars, out);
                    let _ = write!(out, " {sym} ");
                    b.render_into(vars, out);
                    out.push(')');
                }
                _ => {
                    let name = match op {
                        Op::Not => "¬",
                        Op::ToString => "toString",
                        other => other.js(),
                    };
                    out.push_str(name);
                    out.push('(');
                    for (k, a) in args.iter().enumerate() {
                        if k > 0 {
                            out.push_str(", ");
                        }
                        a.render_into(vars, out);
                    }
                    out.push(')');
                }
            },
        }
    }

    /// JavaScript over the relation's variables, e.g. `__mt.eq(out_f, __mt.div(out_s, k_s))`.
    pub fn to_js(&self, vars: &Vars) -> String {
        match self {
            Expr::Num(x) => js_literal(*x),
            Expr::Bool(b) => b.to_string(),
            Expr::Var(i) => vars.names[*i as usize].clone(),
            Expr::Op(op, args) => {
                let a: Vec<String> = args.iter().map(|a| a.to_js(vars)).collect();
                format!("__mt.{}({})", op.js(), a.join(", "))
            }
        }
    }
}

fn parse_tokens<'a, I: Iterator<Item = &'a str>>(
    tokens: &mut std::iter::Peekable<I>,
    vars: &Vars,
) -> Result<Expr, String> {
    let t = tokens.next().ok_or("unexpected end")?;
    if t == "(" {
        let name = tokens.next().ok_or("missing operator")?;
        let op = Op::ALL
            .into_iter()
            .find(|o| o.js() == name)
            .ok_or_else(|| format!("unknown operator {name}"))?;
        let mut args = Vec::new();
        while tokens.peek() != Some(&")") {
            args.push(parse_tokens(tokens, vars)?);
        }
        tokens.next();
        return Ok(Expr::Op(op, args));
    }
    match t {
        "true" => return Ok(Expr::Bool(true)),
        "false" => return Ok(Expr::Bool(false)),
        ")" => return Err("unexpected )".into()),
        _ => {}
    }
    if let Some(i) = vars.names.iter().position(|n| n == t) {
        return Ok(Expr::Var(i as u16));
    }
    t.parse::<f64>()
        .map(Expr::Num)
        .map_err(|_| format!("unknown name {t}"))
}

fn num(v: &Val) -> f64 {
    match v {
        Val::N(x) => *x,
        _ => f64::NAN,
    }
}

fn boolean(v: &Val) -> bool {
    matches!(v, Val::B(true))
}

fn seq(v: Val) -> Vec<f64> {
    match v {
        Val::S(s) => s,
        _ => Vec::new(),
    }
}

/// One operator on evaluated operands.
pub fn apply(op: Op, mut v: Vec<Val>) -> Val {
    let a = v.first().map(num).unwrap_or(f64::NAN);
    let b = v.get(1).map(num).unwrap_or(f64::NAN);
    let p = v.first().map(boolean).unwrap_or(false);
    let q = v.get(1).map(boolean).unwrap_or(false);
    match op {
        Op::Add => Val::N(a + b),
        Op::Sub => Val::N(a - b),
        Op::Mul => Val::N(a * b),
        // Protected division: a zero divisor gives 1, as in Koza's GP.
        Op::Div => Val::N(if b == 0.0 { 1.0 } else { a / b }),
        Op::Abs => Val::N(a.abs()),
        Op::Eq => Val::B(close(a, b)),
        Op::Ne => Val::B(!close(a, b)),
        Op::Lt => Val::B(a < b && !close(a, b)),
        Op::Gt => Val::B(a > b && !close(a, b)),
        Op::Le => Val::B(a < b || close(a, b)),
        Op::Ge => Val::B(a > b || close(a, b)),
        Op::ToString => Val::S(js_string_units(a)),
        Op::And => Val::B(p && q),
        Op::Or => Val::B(p || q),
        Op::Xor => Val::B(p != q),
        Op::Iff => Val::B(p == q),
        Op::Implies => Val::B(!p || q),
        Op::Not => Val::B(!p),
        Op::Length => Val::N(v.first().map_or(0, |s| match s {
            Val::S(s) => s.len(),
            _ => 0,
        }) as f64),
        Op::Sum => Val::N(match v.first() {
            Some(Val::S(s)) => s.iter().sum(),
            _ => 0.0,
        }),
        Op::SeqEq | Op::SeqNe => {
            let same = match (v.first(), v.get(1)) {
                (Some(Val::S(x)), Some(Val::S(y))) => {
                    x.len() == y.len() && x.iter().zip(y).all(|(a, b)| close(*a, *b))
                }
                _ => false,
            };
            Val::B(same == (op == Op::SeqEq))
        }
        Op::Flip => {
            let mut s = seq(v.swap_remove(0));
            s.reverse();
            Val::S(s)
        }
        Op::Remove => {
            let mut s = seq(v.swap_remove(0));
            if let Some(i) = py_index(s.len(), b) {
                s.remove(i);
            }
            Val::S(s)
        }
        Op::Truncate => {
            let mut s = seq(v.swap_remove(0));
            let k = if b.is_nan() { 0.0 } else { b.trunc().max(0.0) };
            if k < s.len() as f64 {
                s.truncate(k as usize);
            }
            Val::S(s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(x: f64) -> Expr {
        Expr::Num(x)
    }
    fn op(o: Op, a: Vec<Expr>) -> Expr {
        Expr::Op(o, a)
    }
    fn ev(e: &Expr) -> Val {
        e.eval(&[])
    }
    fn s(v: &[f64]) -> Val {
        Val::S(v.to_vec())
    }

    #[test]
    fn arithmetic_and_protected_division() {
        assert_eq!(ev(&op(Op::Add, vec![n(2.0), n(3.0)])), Val::N(5.0));
        assert_eq!(ev(&op(Op::Sub, vec![n(2.0), n(3.0)])), Val::N(-1.0));
        assert_eq!(ev(&op(Op::Mul, vec![n(2.0), n(-3.0)])), Val::N(-6.0));
        assert_eq!(ev(&op(Op::Div, vec![n(3.0), n(2.0)])), Val::N(1.5));
        assert_eq!(ev(&op(Op::Div, vec![n(3.0), n(0.0)])), Val::N(1.0));
        assert_eq!(ev(&op(Op::Div, vec![n(3.0), n(-0.0)])), Val::N(1.0));
        assert_eq!(ev(&op(Op::Abs, vec![n(-7.5)])), Val::N(7.5));
    }

    #[test]
    fn comparisons_with_tolerance_and_nan() {
        let cmp = |o, a, b| ev(&op(o, vec![n(a), n(b)]));
        assert_eq!(
            cmp(Op::Eq, 0.1 + 0.2, 0.3),
            Val::B(true),
            "within tolerance"
        );
        assert_eq!(cmp(Op::Eq, 1.0, 1.0001), Val::B(false));
        assert_eq!(cmp(Op::Eq, 1e20, 1e20 + 1e5), Val::B(true), "relative");
        assert_eq!(cmp(Op::Eq, f64::NAN, f64::NAN), Val::B(true));
        assert_eq!(cmp(Op::Eq, f64::NAN, 1.0), Val::B(false));
        assert_eq!(cmp(Op::Eq, f64::INFINITY, f64::INFINITY), Val::B(true));
        assert_eq!(cmp(Op::Eq, f64::INFINITY, 1e308), Val::B(false));
        assert_eq!(cmp(Op::Ne, 1.0, 2.0), Val::B(true));
        assert_eq!(cmp(Op::Lt, 1.0, 2.0), Val::B(true));
        assert_eq!(
            cmp(Op::Lt, 0.3, 0.1 + 0.2),
            Val::B(false),
            "close is not less"
        );
        assert_eq!(cmp(Op::Le, 0.30000000000000004, 0.3), Val::B(true));
        assert_eq!(cmp(Op::Gt, 2.0, 1.0), Val::B(true));
        assert_eq!(cmp(Op::Ge, 1.0, 2.0), Val::B(false));
        assert_eq!(cmp(Op::Lt, f64::NAN, 1.0), Val::B(false));
        assert_eq!(cmp(Op::Ge, f64::NAN, 1.0), Val::B(false));
    }

    #[test]
    fn boolean_operators() {
        let t = Expr::Bool(true);
        let f = Expr::Bool(false);
        let b = |o, x: &Expr, y: &Expr| ev(&op(o, vec![x.clone(), y.clone()]));
        assert_eq!(b(Op::And, &t, &f), Val::B(false));
        assert_eq!(b(Op::Or, &t, &f), Val::B(true));
        assert_eq!(b(Op::Xor, &t, &t), Val::B(false));
        assert_eq!(b(Op::Iff, &f, &f), Val::B(true));
        assert_eq!(b(Op::Implies, &f, &t), Val::B(true));
        assert_eq!(b(Op::Implies, &t, &f), Val::B(false));
        assert_eq!(ev(&op(Op::Not, vec![t])), Val::B(false));
    }

    #[test]
    fn sequence_operators() {
        let vars = Vars {
            names: vec!["xs".into()],
            types: vec![Ty::Seq],
            outputs: (0, 0),
        };
        let st = [s(&[1.0, 2.0, 3.0])];
        let x = || Expr::Var(0);
        let e = |o, a: Vec<Expr>| op(o, a).eval(&st);
        assert_eq!(e(Op::Length, vec![x()]), Val::N(3.0));
        assert_eq!(e(Op::Sum, vec![x()]), Val::N(6.0));
        assert_eq!(e(Op::Flip, vec![x()]), s(&[3.0, 2.0, 1.0]));
        assert_eq!(e(Op::Remove, vec![x(), n(-1.0)]), s(&[1.0, 2.0]));
        assert_eq!(
            e(Op::Remove, vec![x(), n(0.9)]),
            s(&[2.0, 3.0]),
            "truncated index"
        );
        assert_eq!(e(Op::Remove, vec![x(), n(7.0)]), s(&[1.0, 2.0, 3.0]));
        assert_eq!(e(Op::Remove, vec![x(), n(f64::NAN)]), s(&[1.0, 2.0, 3.0]));
        assert_eq!(e(Op::Truncate, vec![x(), n(2.0)]), s(&[1.0, 2.0]));
        assert_eq!(e(Op::Truncate, vec![x(), n(-2.0)]), s(&[]));
        assert_eq!(e(Op::Truncate, vec![x(), n(9.0)]), s(&[1.0, 2.0, 3.0]));
        assert_eq!(
            e(
                Op::SeqEq,
                vec![op(Op::Flip, vec![op(Op::Flip, vec![x()])]), x()]
            ),
            Val::B(true)
        );
        assert_eq!(
            e(Op::SeqNe, vec![op(Op::Flip, vec![x()]), x()]),
            Val::B(true)
        );
        // toString gives JavaScript's String(x), as UTF-16 code units.
        assert_eq!(
            ev(&op(Op::ToString, vec![n(-1.5)])),
            s(&[45.0, 49.0, 46.0, 53.0])
        );
        assert_eq!(
            ev(&op(Op::Length, vec![op(Op::ToString, vec![n(1e21)])])),
            Val::N(5.0)
        );
        assert_eq!(op(Op::Length, vec![x()]).ty(&vars), Ty::Num);
    }

    #[test]
    fn every_operator_is_typed_and_total() {
        for o in Op::ALL {
            let (args, _) = o.signature();
            let vals: Vec<Val> = args
                .iter()
                .map(|t| match t {
                    Ty::Num => Val::N(f64::NAN),
                    Ty::Bool => Val::B(true),
                    Ty::Seq => Val::S(vec![]),
                })
                .collect();
            let out = apply(o, vals);
            let ty = match out {
                Val::N(_) => Ty::Num,
                Val::B(_) => Ty::Bool,
                Val::S(_) => Ty::Seq,
            };
            assert_eq!(ty, o.ret(), "{o:?}");
        }
    }

    #[test]
    fn prefix_indexing_rendering_and_javascript() {
        let vars = Vars {
            names: vec!["k_s".into(), "out_s".into(), "out_f".into()],
            types: vec![Ty::Num, Ty::Num, Ty::Num],
            outputs: (1, 2),
        };
        let e = op(
            Op::Eq,
            vec![Expr::Var(2), op(Op::Div, vec![Expr::Var(1), Expr::Var(0)])],
        );
        assert_eq!(e.size(), 5);
        assert_eq!(e.depth(), 3);
        assert_eq!(e.node(3), Some(&Expr::Var(1)));
        assert!(e.node(5).is_none());
        assert_eq!(e.render(&vars), "(out_f == (out_s / k_s))");
        assert_eq!(e.to_js(&vars), "__mt.eq(out_f, __mt.div(out_s, k_s))");
        assert!(e.holds(&[Val::N(-128.0), Val::N(16384.0), Val::N(-128.0)]));
        assert!(!e.holds(&[Val::N(-128.0), Val::N(-128.0), Val::N(-128.0)]));
        assert_eq!(n(-2.0).to_js(&vars), "(-2)");
    }
}
