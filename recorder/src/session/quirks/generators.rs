//! Steps that began in a Python generator (`stopped-by-a-breakpoint`, `began-in-a-generator`,
//! `began-on-a-generators-last-statement`): bdb's `next` can lose a generator's frame and run on to
//! the next breakpoint, and debugpy's and pdb's steps out of a generator end in different places.
//! Recognized for the whole divergence (all engine pairs at once), not per pair as [`super::QUIRKS`].
//!
//! On the real engines:
//! - `tests/python/lockstep.rs#a_step_that_ends_a_generator_on_debugpy_and_pdb`
//! - `tests/python/lockstep.rs#lockstep_goes_past_where_the_settrace_tracer_steps_out_of_a_generator_expression_before_its_logpoint`

use super::Recognizer;
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{Language, Output};
use morphtrace_syntax::python::{InGenerator, PythonTree};

/// Where in a generator's code the pause action `index` of `trace` stepped from was, if it
/// was in one (Python, from the program's syntax: the JavaScript engines' steps out of
/// generators have shown no such difference).
pub(in crate::session) fn generator_the_step_began_in(
    r: &Recognizer,
    trace: &morphtrace_schema::Trace,
    index: usize,
) -> Option<InGenerator> {
    if r.program.language != Language::Python {
        return None;
    }
    let top = morphtrace_judges::dbdb::pause_before(trace, index)?
        .stack
        .first()?;
    PythonTree::parse(&r.program.text)?.generator_at(
        &r.program.text,
        &top.function,
        top.location.line,
    )
}

/// Whether the pause action `index` of `trace` stepped from was in a Python generator
/// expression's frame (CPython names its code `<genexpr>`).
pub(in crate::session) fn began_in_a_generator_expression(
    r: &Recognizer,
    trace: &morphtrace_schema::Trace,
    index: usize,
) -> bool {
    r.program.language == Language::Python
        && morphtrace_judges::dbdb::pause_before(trace, index)
            .and_then(|p| p.stack.first())
            .is_some_and(|top| top.function == "<genexpr>")
}

/// The remark of a divergence after a step that began in a generator (`place`), given the two
/// sides' answers: which side a breakpoint stopped where the other's step ended (bdb's `next`
/// can lose a generator's frame and run on to the next breakpoint), then where in the generator
/// the step began, or that it ended before that side stopped (pdb's driver says so in the
/// pause's engine reason).
pub(in crate::session) fn generator_remark(place: InGenerator, a: &Output, b: &Output) -> String {
    use morphtrace_judges::dbdb::GENERATOR_ENDED;
    use morphtrace_schema::PauseReason;
    let stopped_by_a_breakpoint = match (a, b) {
        (Output::Paused(x), Output::Paused(y)) => match (&x.reason, &y.reason) {
            (PauseReason::Breakpoint { .. }, PauseReason::Step) => Some((Side::First, x)),
            (PauseReason::Step, PauseReason::Breakpoint { .. }) => Some((Side::Second, y)),
            _ => None,
        },
        _ => None,
    };
    let mut remark = String::new();
    let mut ended_first = None;
    if let Some((side, p)) = stopped_by_a_breakpoint {
        remark.push_str(&Remark::StoppedByABreakpoint { side }.to_string());
        if p.engine_reason.as_deref() == Some(GENERATOR_ENDED) {
            ended_first = Some(side);
        }
    }
    let began = match (ended_first, place) {
        (Some(side), _) => Remark::BeganInAGenerator {
            ended_before: Some(side),
        },
        (None, InGenerator::LastStatement) => Remark::BeganOnAGeneratorsLastStatement,
        (None, InGenerator::Within) => Remark::BeganInAGenerator { ended_before: None },
    };
    remark.push_str(&began.to_string());
    remark
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;

    #[test]
    fn a_breakpoint_that_stopped_where_the_others_step_out_of_a_generator_ended() {
        use morphtrace_judges::dbdb::GENERATOR_ENDED;
        let step = paused((3, 4), PauseReason::Step, &["g", ""], &[]);
        let mut hit = pause((7, 0), breakpoint(), &[""], &[]);
        let plain = generator_remark(InGenerator::Within, &Output::Paused(hit.clone()), &step);
        assert_eq!(
            plain,
            format!(
                "{}{}",
                Remark::StoppedByABreakpoint { side: Side::First },
                Remark::BeganInAGenerator { ended_before: None }
            )
        );
        hit.engine_reason = Some(GENERATOR_ENDED.into());
        let ended = generator_remark(InGenerator::LastStatement, &step, &Output::Paused(hit));
        assert_eq!(
            ended,
            format!(
                "{}{}",
                Remark::StoppedByABreakpoint { side: Side::Second },
                Remark::BeganInAGenerator {
                    ended_before: Some(Side::Second)
                }
            )
        );
        // Two steps apart: only where the step began.
        let other = paused((4, 4), PauseReason::Step, &["g", ""], &[]);
        assert_eq!(
            generator_remark(InGenerator::LastStatement, &step, &other),
            Remark::BeganOnAGeneratorsLastStatement.to_string()
        );
    }
}
