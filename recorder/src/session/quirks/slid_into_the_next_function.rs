//! `slid-into-the-next-function`: gdb moves a breakpoint on a line outside every function (a
//! global's declaration, a comment between functions) to the next line with code, the start of the
//! next function defined, where LLDB places it nowhere (it moves a breakpoint only within the
//! function that holds the request).
//!
//! On the real engines:
//! - `tests/debuggers/native.rs#a_breakpoint_outside_every_function_slides_on_gdb_alone`

use super::{Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{DivergenceKind, Output};
use morphtrace_syntax::c::FunctionSpan;

pub(super) struct SlidIntoTheNextFunction;

impl Quirk for SlidIntoTheNextFunction {
    /// Where a breakpoint requested on a line of a C program outside every function definition
    /// was placed by one side on one line of the next function defined after it, from that
    /// function's first line to the first line where its unoptimized code runs, and by the other
    /// nowhere. A placement anywhere else (further into that function, in another function, a
    /// line back) gets no remark.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        if *d.kind != DivergenceKind::BreakpointLocation {
            return None;
        }
        let requested = d.answers.action.breakpoint_line()?;
        let functions = r.facts.get::<Vec<FunctionSpan>>()?;
        if functions.iter().any(|f| f.holds(requested)) {
            return None;
        }
        let next = functions.iter().find(|f| f.start > requested)?;
        let placed = |o: &Output| match o {
            Output::BreakpointSet { actual, .. } => Some(actual.iter().map(|l| l.line).collect()),
            _ => None,
        };
        let [a, b]: [Option<Vec<u32>>; 2] = d.answers.outputs.map(placed);
        let slid = |p: &[u32]| matches!(p, [l] if (next.start..=next.first_code).contains(l));
        match (a?.as_slice(), b?.as_slice()) {
            (p, []) if slid(p) => Some(Remark::SlidIntoTheNextFunction { side: Side::First }),
            ([], p) if slid(p) => Some(Remark::SlidIntoTheNextFunction { side: Side::Second }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use morphtrace_schema::{BreakpointId, LocationSource};

    const C: &str = "#include <stdio.h>\nstatic int g = 1;\n\n/* f */\nstatic int\nf(int k)\n{\n  int a;\n  int c = k + g;\n  return c;\n}\n\nint main(void)\n{\n  return f(2);\n}\n";

    fn set(line: u32, at: &[u32]) -> Output {
        Output::BreakpointSet {
            id: BreakpointId(1),
            requested: Location::new(line, 0),
            actual: at.iter().map(|&l| Location::new(l, 0)).collect(),
            source: LocationSource::EngineReported,
            policy: None,
        }
    }

    fn remark(line: u32, a: &[u32], b: &[u32]) -> [String; 2] {
        both_ways(
            &program(C, Language::C),
            DivergenceKind::BreakpointLocation,
            ["breakpoint at [..] vs []", "breakpoint at [] vs [..]"],
            Action::SetBreakpoint { line, column: None },
            &set(line, a),
            &set(line, b),
        )
    }

    #[test]
    fn a_breakpoint_outside_every_function_placed_at_the_next_ones_start() {
        let slid = oriented(|side| Remark::SlidIntoTheNextFunction { side });
        // The global's line and the comment's, to f's first line with code (0-based 8) or its
        // first line (4): the shape gdb gives.
        assert_eq!(remark(1, &[8], &[]), slid);
        assert_eq!(remark(3, &[4], &[]), slid);
        // Between f and main, to main's.
        assert_eq!(remark(11, &[14], &[]), slid);
    }

    #[test]
    fn planted_placements_of_the_same_shape_get_no_remark() {
        let none = [String::new(), String::new()];
        // One line past the function's first line with code, a line back, into main past f.
        assert_eq!(remark(1, &[9], &[]), none);
        assert_eq!(remark(3, &[2], &[]), none);
        assert_eq!(remark(1, &[14], &[]), none);
        // A request inside a function (its declaration without code) slid: not outside.
        assert_eq!(remark(7, &[8], &[]), none);
        // Both placed, or neither.
        assert_eq!(remark(1, &[8], &[9]), none);
        assert_eq!(remark(1, &[], &[]), none);
        // Not C: no function facts.
        let js = both_ways(
            &program(C, Language::JavaScript),
            DivergenceKind::BreakpointLocation,
            ["breakpoint at [..] vs []", "breakpoint at [] vs [..]"],
            Action::SetBreakpoint {
                line: 1,
                column: None,
            },
            &set(1, &[8]),
            &set(1, &[]),
        );
        assert_eq!(js, none);
    }
}
