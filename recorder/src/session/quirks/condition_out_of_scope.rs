//! `condition-out-of-scope`: a conditional breakpoint whose condition names a variable the
//! breakpoint's function cannot see (the random strategy writes conditions from the pause it is
//! at, for a line anywhere): gdb checks a condition's symbols in the breakpoint's context when it
//! is set and refuses it (`No symbol "n" in current context.`; the GDB manual, "Break
//! Conditions"); LLDB sets it and evaluates the condition only when the line runs.
//!
//! On the real engines:
//! - `tests/debuggers/native.rs#gdb_refuses_a_condition_on_a_name_out_of_scope`

use super::{Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{Action, DivergenceKind, Output};
use morphtrace_syntax::c::{FunctionSpan, WrittenNames};

pub(super) struct ConditionOutOfScope;

/// The name gdb says it cannot find, from its refusal.
fn unknown_symbol(message: &str) -> Option<&str> {
    let rest = message.strip_suffix("\" in current context.")?;
    let (_, name) = rest.rsplit_once("No symbol \"")?;
    Some(name)
}

impl Quirk for ConditionOutOfScope {
    /// Where one side refused a conditional breakpoint for a name the condition uses, the other
    /// placed it on one line (or nowhere, where the request is outside every function: then the
    /// line is the next function's start, where the refusing side checked it), and that name
    /// is written neither in the function definition that holds the line (its parameters,
    /// locals, uses) nor outside every function (a global, a function, an enumerator, a macro).
    /// A refusal for a name the function or the file writes, a placement on several lines, or
    /// nowhere for a request inside a function, gets no remark.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        if *d.kind != DivergenceKind::BreakpointLocation {
            return None;
        }
        let Action::SetConditionalBreakpoint { condition, .. } = d.answers.action else {
            return None;
        };
        let (side, refusal, placed) = match d.answers.outputs {
            [Output::Error { message }, other] => (Side::First, message, other),
            [other, Output::Error { message }] => (Side::Second, message, other),
            _ => return None,
        };
        let Output::BreakpointSet { actual, .. } = placed else {
            return None;
        };
        let line = match actual.as_slice() {
            [at] => at.line,
            // Placed nowhere: a request outside every function, which gdb places at the next
            // function's start (`slid-into-the-next-function`) and checks the condition there.
            [] => {
                let requested = d.answers.action.breakpoint_line()?;
                let functions = r.facts.get::<Vec<FunctionSpan>>()?;
                if functions.iter().any(|f| f.holds(requested)) {
                    return None;
                }
                functions.iter().find(|f| f.start > requested)?.start
            }
            _ => return None,
        };
        let name = unknown_symbol(refusal)?;
        let used = condition
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == name);
        let foreign = r.facts.get::<WrittenNames>()?.foreign_at(name, line)?;
        (used && foreign).then_some(Remark::ConditionOutOfScope { side })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use morphtrace_schema::{BreakpointId, LocationSource};

    const C: &str = "int g;\nint f(int k) {\n  int m = k + g;\n  return m;\n}\nint main(void) {\n  int n = f(3);\n  return n;\n}\n";

    fn remarked(condition: &str, refused: &str, at: &[u32]) -> [String; 2] {
        remarked_on(2, condition, refused, at)
    }

    fn remarked_on(line: u32, condition: &str, refused: &str, at: &[u32]) -> [String; 2] {
        let set = Output::BreakpointSet {
            id: BreakpointId(1),
            requested: Location::new(line, 0),
            actual: at.iter().map(|&l| Location::new(l, 0)).collect(),
            source: LocationSource::EngineReported,
            policy: None,
        };
        let error = Output::Error {
            message: format!("-break-insert: No symbol \"{refused}\" in current context."),
        };
        both_ways(
            &program(C, Language::C),
            DivergenceKind::BreakpointLocation,
            [
                "first side refused the breakpoint: …",
                "second side refused the breakpoint: …",
            ],
            Action::SetConditionalBreakpoint {
                line,
                condition: condition.into(),
                column: None,
            },
            &error,
            &set,
        )
    }

    #[test]
    fn a_condition_refused_for_a_name_the_placed_function_cannot_see() {
        assert_eq!(
            remarked("n % 2 == 0", "n", &[2]),
            oriented(|side| Remark::ConditionOutOfScope { side })
        );
        // Planted: a refusal for the function's own parameter, its local, a global, a name the
        // condition does not use; a placement where the name is seen, on no line, on two.
        for (condition, refused, at) in [
            ("k > 1", "k", &[2][..]),
            ("m > 1", "m", &[2]),
            ("g == 0", "g", &[2]),
            ("n > 1", "nn", &[2]),
            ("n > 1", "n", &[6]),
            ("n > 1", "n", &[]),
            ("n > 1", "n", &[2, 3]),
        ] {
            assert_eq!(
                remarked(condition, refused, at),
                [String::new(), String::new()],
                "{condition} {refused} {at:?}"
            );
        }
        // Placed nowhere by the other side, a request outside every function: the next
        // function (`f`, line 1) is where the name must be written for the refusal to be wrong.
        assert_eq!(
            remarked_on(0, "n % 2 == 0", "n", &[]),
            oriented(|side| Remark::ConditionOutOfScope { side })
        );
        assert_eq!(
            remarked_on(0, "k % 2 == 0", "k", &[]),
            [String::new(), String::new()]
        );
        assert_eq!(
            super::unknown_symbol("No symbol \"x\" in current context."),
            Some("x")
        );
        assert_eq!(super::unknown_symbol("No symbol table is loaded."), None);
    }
}
