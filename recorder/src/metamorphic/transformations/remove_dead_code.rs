//! Remove-dead-code (Table 1): a statement coverage saw never run, outside every pause of the
//! parent, removed (JavaScript: V8's precise block coverage from a warm Node; Python: a
//! statement coverage.py's C tracer saw unexecuted becomes `pass`, lines kept); the follow-up
//! must behave as the parent did.

use super::{lines_on_stacks, program_choice, Choice, Derive, Deriving, Recipe};
use crate::corpus::Loaded;
use crate::metamorphic::source::{self, Transformed};
use crate::metamorphic::{blocking, Context};
use crate::profilers::v8::V8Runner;
use morphtrace_schema::{Output, ProgramOutcome};
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::time::Duration;

pub(in crate::metamorphic) struct RemoveDeadCode;

impl Derive for RemoveDeadCode {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        let threw = d.parent.iter().any(|(_, o)| {
            matches!(
                o,
                Some(Output::Finished {
                    outcome: ProgramOutcome::UncaughtException { .. }
                })
            )
        });
        let paused: HashSet<u32> = lines_on_stacks(d.parent).collect();
        let removed = d.pin.removed_lines();
        if d.python {
            return python_dead_code(d.ctx, d.loaded, &paused, removed, rng)
                .map(|t| program_choice(base, t))
                .ok_or_else(|| "no code that never ran, outside every pause".into());
        }
        let functions = coverage_of(d.ctx, d.loaded, threw).ok_or("no coverage of the program")?;
        let t = source::remove_dead_code(&d.loaded.program.text, &functions, &paused, removed, rng)
            .ok_or("no code that never ran, outside every pause")?;
        Ok(program_choice(base, t))
    }
}

/// V8's precise block coverage of the program (remove-dead-code), from a warm Node. `None` also
/// when the coverage run threw and the debugged run (`threw`) did not: the harness's vm context
/// lacks some of the debugger's globals (`performance`, timers, `process`), and code after such
/// a throw is not dead in the program the debugger runs.
fn coverage_of(
    ctx: &mut Context<'_>,
    loaded: &Loaded,
    threw: bool,
) -> Option<Vec<morphtrace_schema::FunctionCoverage>> {
    if ctx.coverage.is_none() {
        match V8Runner::start(&ctx.node) {
            Ok(mut r) => {
                r.prelude = ctx.prelude;
                *ctx.coverage = Some(r)
            }
            Err(e) => {
                tracing::warn!("no coverage for remove-dead-code: {e}");
                return None;
            }
        }
    }
    let runner = ctx.coverage.as_mut()?;
    // A few milliseconds for the corpus' programs; bounded by the run timeout. A harness that
    // crashed or hung is respawned by the next run: one retry keeps a transient failure from
    // changing the chain (the choice must not depend on the machine's load).
    let mut last = None;
    for _ in 0..2 {
        let run = blocking(|| {
            runner.run(
                "program.js",
                &loaded.program.text,
                Duration::from_secs(5),
                None,
            )
        });
        match run {
            Ok(r) if r.error.is_some() && !threw => {
                tracing::debug!(
                    "no remove-dead-code for {}: the coverage run threw ({}), the debugged one did not",
                    loaded.program.hash.short(),
                    r.error.unwrap_or_default()
                );
                return None;
            }
            // Coverage of a program that throws is still coverage of what ran.
            Ok(r) => return Some(r.functions),
            Err(e) => last = Some(e),
        }
    }
    if let Some(e) = last {
        tracing::warn!(
            "no coverage of {} for remove-dead-code: {e}",
            loaded.program.hash.short()
        );
    }
    None
}

/// Remove dynamically dead code from a Python program: one statement coverage.py's C tracer saw
/// unexecuted (and where the parent never paused) becomes `pass` (Cod's Python variants),
/// lines kept.
fn python_dead_code(
    ctx: &mut Context<'_>,
    loaded: &Loaded,
    paused: &HashSet<u32>,
    at: Option<(u32, u32)>,
    rng: &mut ChaCha8Rng,
) -> Option<Transformed> {
    use crate::profilers::python;
    use morphtrace_syntax::python::statements::PySyntax;
    use morphtrace_syntax::{variant, Statements};
    if ctx.py_coverage.is_none() {
        let python3 = crate::debugger::engines::which("python3")?;
        match python::CoveragePy::start(
            &python3,
            python::Core::CTrace,
            crate::debugger::PythonStart::default(),
        ) {
            Ok((c, _)) => *ctx.py_coverage = Some(c),
            Err(e) => {
                tracing::warn!("no coverage for remove-dead-code: {e}");
                return None;
            }
        }
    }
    let cov = ctx.py_coverage.as_ref()?;
    let dir = tempfile::Builder::new()
        .prefix("dead-code-")
        .tempdir_in(ctx.workdir)
        .ok()?;
    let text = &loaded.program.text;
    let r = blocking(|| cov.profile(dir.path(), text, Duration::from_secs(5), ctx.prelude));
    let r = match r {
        Ok(r) if r.saved => r,
        Ok(_) => return None,
        Err(e) => {
            tracing::warn!(
                "no coverage of {} for remove-dead-code: {e}",
                loaded.program.hash.short()
            );
            return None;
        }
    };
    let syntax = PySyntax::parse(text)?;
    let cands: Vec<_> = variant::unexecuted_by_lines(&syntax.deletable(), &r.lines)
        .into_iter()
        .filter(|c| !(c.first_line..=c.last_line).any(|l| paused.contains(&l)))
        .filter(|c| at.is_none_or(|(a, b)| (c.first_line, c.last_line) == (a, b)))
        .collect();
    let c = cands.choose(rng)?.clone();
    let v = variant::apply_python(text, vec![c.clone()]);
    Some(source::dead_code_removed(c, v))
}
