//! `at-an-indented-brace`: JavaScriptCore never pauses at a breakpoint on a function's closing
//! brace that stands indented.
//!
//! On the real engines:
//! - `tests/debuggers/breakpoints.rs#jsc_never_pauses_at_a_breakpoint_on_an_indented_closing_brace`

use super::{Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{DivergenceKind, Language, Output};

pub(super) struct IndentedBrace;

impl Quirk for IndentedBrace {
    /// Where one side, not the other, paused for a breakpoint on a function's closing brace
    /// that stands indented (`AT_AN_INDENTED_BRACE`): JavaScriptCore never pauses there.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let [a, b] = d.answers.outputs;
        let kind = d.kind;
        let (DivergenceKind::PauseLocation, Output::Paused(x), Output::Paused(y)) = (kind, a, b)
        else {
            return None;
        };
        if x.location == y.location || r.program.language != Language::JavaScript {
            return None;
        }
        let exits = r.exits();
        let at_brace = |p: &morphtrace_schema::PauseState| {
            matches!(p.reason, morphtrace_schema::PauseReason::Breakpoint { .. })
                && p.location.column > 0
                && exits
                    .as_ref()
                    .is_some_and(|e| e.closing_brace_exactly_at(p.location))
        };
        let side = Side::alone(at_brace(x), at_brace(y))?;
        Some(Remark::AtAnIndentedBrace { side })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    const BRACES: &str = "function g() {\n  if (g) {\n    g.x = 1;\n  }\n}\nconst o = {\n  m() {\n    return 2;\n  },\n};\no.m();\ng();\n";

    #[test]
    fn a_breakpoint_pause_at_an_indented_functions_brace_on_one_side() {
        let p = program(BRACES, Language::JavaScript);
        let at_brace = paused((8, 2), breakpoint(), &["m", ""], &[]);
        let past = paused((11, 0), breakpoint(), &[""], &[]);
        let detail = ["paused at 9:3 vs 12:1", "paused at 12:1 vs 9:3"];
        let got = both_ways(
            &p,
            DivergenceKind::PauseLocation,
            detail,
            Action::Resume,
            &at_brace,
            &past,
        );
        assert_eq!(got, oriented(|side| Remark::AtAnIndentedBrace { side }));
        // Planted: an `if`'s brace (not a function's), a function's brace at column 0, a step
        // (not a breakpoint) at the method's brace.
        let none = [String::new(), String::new()];
        for fault in [
            paused((3, 2), breakpoint(), &["g", ""], &[]),
            paused((4, 0), breakpoint(), &["g", ""], &[]),
            paused((8, 2), PauseReason::Step, &["m", ""], &[]),
        ] {
            let got = both_ways(
                &p,
                DivergenceKind::PauseLocation,
                detail,
                Action::Resume,
                &fault,
                &past,
            );
            assert_eq!(got, none, "{fault:?}");
        }
    }
}
