//! The optimization strategy's sessions (issue 71, after Debug²; the oracle is
//! `morphtrace_judges::optimization`): one native debugger on two builds of a C program, the
//! first engine the reference (`gdb+gcc-O0`), the second an optimized build (`gdb+gcc-O2`).
//! Each build runs fixed actions on its own (not in lockstep: the builds pause at other lines,
//! other times): the reference with a breakpoint on every line, stepped into from its first
//! pause to the end (every moment a line is current: a `for` line's initialization and each
//! increment), the optimized build with a breakpoint on every line, resumed from pause to
//! pause. The session keeps both traces, the reference's first, and the judge compares what
//! they show line by line.

use crate::corpus::Loaded;
use crate::debugger::engines::EngineSpec;
use crate::debugger::Engine;
use crate::session::Reissue;
use crate::task::{Plan, Task};
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_judges::optimization::{self as judged, Counts};
use morphtrace_schema::{Action, EngineRef, SessionMode, SessionOutcome, Trace, Warning};
use std::time::Duration;

/// Why a campaign's engines cannot make this oracle, if they cannot: two builds of one native
/// debugger (the same kind, other variants).
pub fn refusal(specs: &[EngineSpec]) -> Option<String> {
    let [reference, optimized] = specs else {
        return Some(format!(
            "the optimization strategy takes two engines, the reference build first \
             (--engine gdb+gcc-O0 --engine gdb+gcc-O2), not {}",
            specs.len()
        ));
    };
    let native = |s: &EngineSpec| s.kind.debugs() == Some(morphtrace_schema::Language::C);
    if !native(reference) || reference.kind != optimized.kind {
        return Some(format!(
            "the optimization strategy compares two builds under one native debugger (lldb or \
             gdb), not {reference} and {optimized}"
        ));
    }
    if reference.to_string() == optimized.to_string() {
        return Some(format!("{reference} twice: the two builds must differ"));
    }
    None
}

/// The tasks of an optimization campaign: every program, both engines in one session. The
/// session has no random choice, so one seed (the first) stands for all.
pub fn tasks(
    specs: &[EngineSpec],
    programs: &[Loaded],
    seeds: &[u64],
    max_pauses: u32,
) -> Vec<Task> {
    let seeds = &seeds[..seeds.len().min(1)];
    super::tasks_over(
        specs,
        programs,
        seeds,
        true,
        "optimization",
        SessionMode::Optimization,
        |_| Plan::Optimization { max_pauses },
    )
}

/// Each build's trace, one after the other (the reference's first), and how the session ended:
/// the first undecided outcome, else `ActionLimit` if either ran out of actions, else
/// `Finished`.
pub async fn traces(
    engines: &mut [&mut Box<dyn Engine>],
    refs: &[EngineRef],
    loaded: &Loaded,
    max_pauses: u32,
    policy: &ComparisonPolicy,
    timeout: Duration,
) -> (Vec<Trace>, SessionOutcome, Vec<(String, String)>) {
    let resumed = super::steps::breakpoints_actions(loaded.file.lines, max_pauses);
    let mut stepped: Vec<Action> = resumed
        .iter()
        .filter(|a| !matches!(a, Action::Resume))
        .cloned()
        .collect();
    stepped.extend(std::iter::repeat_n(Action::StepInto, max_pauses as usize));
    let mut traces = Vec::new();
    let mut notes = Vec::new();
    let mut outcome = SessionOutcome::Finished;
    for (i, (engine, r)) in engines.iter_mut().zip(refs).enumerate() {
        let actions = if i == 0 { &stepped } else { &resumed };
        let mut one = crate::session::record(
            &mut [&mut **engine],
            std::slice::from_ref(r),
            loaded,
            &mut Reissue { actions },
            policy,
            None,
            timeout,
        )
        .await;
        notes.append(&mut one.notes);
        let o = one.final_outcome();
        traces.append(&mut one.traces);
        if o.undecided().is_some() {
            return (traces, o, notes);
        }
        if o == SessionOutcome::ActionLimit {
            outcome = o;
        }
    }
    (traces, outcome, notes)
}

/// The warnings of an optimization session and its figures, the program's local declarations
/// telling where a variable is not yet initialized.
pub fn judge(loaded: &Loaded, traces: &[Trace]) -> Result<(Vec<Warning>, Counts), String> {
    let declared: Vec<(String, u32)> = morphtrace_syntax::c::CSyntax::parse(&loaded.file.text)
        .map(|c| c.local_names())
        .unwrap_or_default();
    judged::judge(
        traces,
        judged::Context {
            declared: &declared,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_builds_of_one_native_debugger_make_the_oracle() {
        let spec = |s: &str| EngineSpec::parse(s).unwrap();
        assert_eq!(refusal(&[spec("gdb+gcc-O0"), spec("gdb+gcc-O2")]), None);
        assert_eq!(refusal(&[spec("lldb"), spec("lldb+clang-O2")]), None);
        assert!(refusal(&[spec("gdb+gcc-O0")]).is_some());
        assert!(refusal(&[spec("gdb"), spec("lldb+gcc-O2")]).is_some());
        assert!(refusal(&[spec("gdb+gcc-O2"), spec("gdb+gcc-O2")]).is_some());
        assert!(refusal(&[spec("node"), spec("node+jitless")]).is_some());
    }
}
