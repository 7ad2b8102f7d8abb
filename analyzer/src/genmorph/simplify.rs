//! Simplification for reading (§7's output "simplified"): constant subtrees are folded,
//! comparisons of a subtree with itself and Boolean identities are resolved. Every rewrite keeps
//! the relation's value on every state (NaN-safe: `x == x` is true because NaN equals NaN here;
//! `x * 0` is not folded, because NaN * 0 is NaN).

use super::tree::{apply, Expr, Op, Val};

fn constant(e: &Expr) -> Option<Val> {
    match e {
        Expr::Num(x) => Some(Val::N(*x)),
        Expr::Bool(b) => Some(Val::B(*b)),
        _ => None,
    }
}

pub fn simplify(e: &Expr) -> Expr {
    let Expr::Op(op, args) = e else {
        return e.clone();
    };
    let args: Vec<Expr> = args.iter().map(simplify).collect();
    if let Some(vals) = args.iter().map(constant).collect::<Option<Vec<Val>>>() {
        match apply(*op, vals) {
            Val::N(x) => return Expr::Num(x),
            Val::B(b) => return Expr::Bool(b),
            Val::S(_) => {}
        }
    }
    let same = args.len() == 2 && args[0] == args[1];
    let b = |i: usize| match args.get(i) {
        Some(Expr::Bool(v)) => Some(*v),
        _ => None,
    };
    let n = |i: usize| match args.get(i) {
        Some(Expr::Num(v)) => Some(*v),
        _ => None,
    };
    let arg = |i: usize| args[i].clone();
    let not = |e: Expr| match e {
        Expr::Op(Op::Not, mut a) if a.len() == 1 => a.swap_remove(0),
        Expr::Bool(v) => Expr::Bool(!v),
        other => Expr::Op(Op::Not, vec![other]),
    };
    match op {
        Op::Eq | Op::Le | Op::Ge | Op::SeqEq | Op::Iff | Op::Implies if same => Expr::Bool(true),
        Op::Ne | Op::Lt | Op::Gt | Op::SeqNe | Op::Xor if same => Expr::Bool(false),
        Op::And | Op::Or if same => arg(0),
        Op::And => match (b(0), b(1)) {
            (Some(false), _) | (_, Some(false)) => Expr::Bool(false),
            (Some(true), _) => arg(1),
            (_, Some(true)) => arg(0),
            _ => Expr::Op(*op, args),
        },
        Op::Or => match (b(0), b(1)) {
            (Some(true), _) | (_, Some(true)) => Expr::Bool(true),
            (Some(false), _) => arg(1),
            (_, Some(false)) => arg(0),
            _ => Expr::Op(*op, args),
        },
        Op::Implies => match (b(0), b(1)) {
            (Some(false), _) | (_, Some(true)) => Expr::Bool(true),
            (Some(true), _) => arg(1),
            (_, Some(false)) => not(arg(0)),
            _ => Expr::Op(*op, args),
        },
        Op::Iff | Op::Xor => {
            let pos = *op == Op::Iff;
            match (b(0), b(1)) {
                (Some(v), _) => {
                    if v == pos {
                        arg(1)
                    } else {
                        not(arg(1))
                    }
                }
                (_, Some(v)) => {
                    if v == pos {
                        arg(0)
                    } else {
                        not(arg(0))
                    }
                }
                _ => Expr::Op(*op, args),
            }
        }
        Op::Not => not(arg(0)),
        Op::Add if n(1) == Some(0.0) => arg(0),
        Op::Add if n(0) == Some(0.0) => arg(1),
        Op::Sub if n(1) == Some(0.0) => arg(0),
        Op::Mul if n(1) == Some(1.0) => arg(0),
        Op::Mul if n(0) == Some(1.0) => arg(1),
        Op::Div if n(1) == Some(1.0) => arg(0),
        Op::Flip if matches!(&args[0], Expr::Op(Op::Flip, _)) => match &args[0] {
            Expr::Op(_, inner) => inner[0].clone(),
            _ => arg(0),
        },
        _ => Expr::Op(*op, args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genmorph::tree::{Ty, Vars};

    fn v(i: u16) -> Expr {
        Expr::Var(i)
    }
    fn op(o: Op, a: Vec<Expr>) -> Expr {
        Expr::Op(o, a)
    }

    #[test]
    fn folds_constants_and_identities() {
        let vars = Vars {
            names: vec!["a".into(), "out_s".into(), "out_f".into()],
            types: vec![Ty::Num, Ty::Num, Ty::Num],
            outputs: (1, 2),
        };
        let core = op(Op::Eq, vec![v(2), op(Op::Mul, vec![v(1), v(0)])]);
        let e = op(
            Op::And,
            vec![
                core.clone(),
                op(
                    Op::Le,
                    vec![
                        op(Op::Add, vec![Expr::Num(1.0), Expr::Num(2.0)]),
                        Expr::Num(3.0),
                    ],
                ),
            ],
        );
        assert_eq!(simplify(&e), core);
        assert_eq!(simplify(&e).render(&vars), "(out_f == (out_s * a))");
        assert_eq!(simplify(&op(Op::Eq, vec![v(1), v(1)])), Expr::Bool(true));
        assert_eq!(
            simplify(&op(Op::Not, vec![op(Op::Not, vec![core.clone()])])),
            core
        );
        assert_eq!(
            simplify(&op(Op::Implies, vec![core.clone(), Expr::Bool(false)])),
            op(Op::Not, vec![core.clone()])
        );
        assert_eq!(
            simplify(&op(Op::Mul, vec![v(0), Expr::Num(0.0)])),
            op(Op::Mul, vec![v(0), Expr::Num(0.0)]),
            "NaN * 0 is NaN: not folded"
        );
        assert_eq!(
            simplify(&op(Op::Div, vec![Expr::Num(4.0), Expr::Num(0.0)])),
            Expr::Num(1.0),
            "protected division folds as it evaluates"
        );
    }

    #[test]
    fn simplification_keeps_values() {
        use crate::genmorph::tree::Val;
        let e = op(
            Op::Or,
            vec![
                op(
                    Op::Xor,
                    vec![op(Op::Lt, vec![v(0), v(1)]), Expr::Bool(true)],
                ),
                op(
                    Op::Iff,
                    vec![Expr::Bool(false), op(Op::Ge, vec![v(0), Expr::Num(0.0)])],
                ),
            ],
        );
        let s = simplify(&e);
        for a in [-2.0, 0.0, 3.0, f64::NAN] {
            for b in [-1.0, 0.0, 5.0] {
                let st = [Val::N(a), Val::N(b)];
                assert_eq!(e.holds(&st), s.holds(&st), "{a} {b}");
            }
        }
    }
}
