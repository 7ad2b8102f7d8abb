//! Interactive metamorphic testing of one debugger (ISSTA 2019): an initial session, then a chain
//! of follow-ups, each derived from its parent by one transformation of Table 1 and judged
//! against it as soon as it ends. Action transformations that depend on what the debugger does
//! (a step consumed by a new breakpoint, a step that replaced a continue) are decided while the
//! follow-up runs, from the live outputs.

mod follow_up;
pub mod source;
mod transformations;

use follow_up::FollowUpStrategy;
use transformations::choose;

use crate::corpus::{self, Loaded};
use crate::dbdb;
use crate::debugger::engines::EngineSpec;
use crate::debugger::Engine;
use crate::profilers::v8::V8Runner;
use crate::session::Recording;
use crate::task::{ChainParams, ChainTask, Pin, Plan, RandomParams, Task};
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_judges::metamorphic::{self as mm, judge, Expectation, Transformation};
use morphtrace_schema::header::now_ms;
use morphtrace_schema::{
    Action, EngineRef, EventKind, Language, Location, Output, ParentRef, Program, ProgramOrigin,
    ProgramOutcome, Session, SessionId, SessionMode, SessionOutcome, Trace, TransformationRecord,
    Warning,
};
use source::Analysis;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

impl ChainParams {
    pub fn random(seed: u64, rounds: u32, random: RandomParams) -> ChainParams {
        ChainParams {
            rounds,
            transformations: Transformation::TABLE1.to_vec(),
            initial: Plan::Random {
                params: random,
                seed,
            },
            seed,
            max_resync: 6,
            pin: Pin::default(),
        }
    }
}

/// Everything a chain recorded: its sessions (initial first) and the programs it derived.
#[derive(Debug, Default)]
pub struct Chain {
    pub sessions: Vec<Session>,
    pub programs: Vec<Program>,
}

/// What the chain runner needs besides the engine.
pub struct Context<'a> {
    pub engine: &'a mut Box<dyn Engine>,
    pub engine_ref: EngineRef,
    pub policy: &'a ComparisonPolicy,
    /// Where derived programs are written for the engine to load.
    pub workdir: &'a Path,
    /// Precise coverage for remove-dead-code, started on first use.
    pub coverage: &'a mut Option<V8Runner>,
    /// coverage.py for remove-dead-code on Python programs, started on first use.
    pub py_coverage: &'a mut Option<crate::profilers::python::CoveragePy>,
    pub node: PathBuf,
    pub session_timeout: Duration,
    /// Coverage runs behind the determinism prelude, like the debugger's (CaptureOptions).
    pub prelude: bool,
}

/// The parent's actions with the outputs that answered them (`None`: cut short).
fn steps(t: &Trace) -> Vec<(Action, Option<Output>)> {
    let mut out: Vec<(Action, Option<Output>)> = Vec::new();
    for e in &t.events {
        match &e.kind {
            EventKind::Action(a) => out.push((a.clone(), None)),
            EventKind::Output(o) => {
                if let Some(last) = out.last_mut() {
                    if last.1.is_none() {
                        last.1 = Some(o.clone());
                    }
                }
            }
        }
    }
    out
}

/// The index of a trace's event where its engine crashed, if it did.
fn crashed_at(t: &Trace) -> Option<u32> {
    t.events
        .iter()
        .enumerate()
        .find_map(|(i, e)| match &e.kind {
            EventKind::Output(Output::Finished {
                outcome: ProgramOutcome::EngineCrashed { .. },
            }) => u32::try_from(i).ok(),
            _ => None,
        })
}

pub fn session_id(chain_key: &str, round: u32) -> SessionId {
    SessionId::from_key(&format!("{chain_key}|round {round}"))
}

fn ok_to_continue(o: &SessionOutcome) -> bool {
    matches!(o, SessionOutcome::Finished | SessionOutcome::ActionLimit)
}

/// Records a whole chain: the initial session, then up to `rounds` follow-ups, stopping at the
/// first violation or at a session that did not end normally. Never fails: problems become
/// session outcomes.
/// Why a program cannot start a chain: it is beyond what morphtrace analyzes (program
/// transformations and position maps need its syntax tree). A syntax error is no reason: the
/// chain debugs such a program with action transformations.
pub fn rejection(program: &Program) -> Option<String> {
    if program.language != Language::JavaScript {
        return None;
    }
    match Analysis::of(&program.text) {
        Err(e) if e.is_limit() => Some(e.to_string()),
        _ => None,
    }
}

pub async fn run_chain(
    ctx: &mut Context<'_>,
    chain_key: &str,
    loaded: &Loaded,
    params: &ChainParams,
    notes: &[(String, String)],
) -> Chain {
    let mut chain = Chain::default();
    let initial = record_initial(ctx, loaded, params, session_id(chain_key, 0), notes).await;
    let mut ok = ok_to_continue(&initial.outcome);
    let mut parent_id = initial.id;
    let mut parent_trace = initial.traces.first().cloned();
    chain.sessions.push(initial);
    let mut current = loaded.clone();
    let mut records: Vec<TransformationRecord> = Vec::new();
    // Lines of code inserted by the chain so far, in the current program.
    let mut inserted_code: BTreeSet<u32> = BTreeSet::new();
    for round in 1..=params.rounds {
        let Some(pt) = parent_trace.clone().filter(|_| ok) else {
            break;
        };
        let parent_steps = steps(&pt);
        let mut rng = crate::task::rng_for(
            params.seed ^ u64::from(round).wrapping_mul(0x9e37_79b9),
            &current.program.hash,
        );
        let (chosen, unfit) = choose(
            ctx,
            &params.pin,
            &params.transformations,
            &current,
            &parent_steps,
            &mut rng,
        );
        let unfit =
            (!unfit.is_empty()).then(|| (mm::NOT_APPLICABLE.to_string(), mm::unfit_note(&unfit)));
        let Some(mut choice) = chosen else {
            tracing::debug!(
                "no transformation applies to {}",
                current.program.hash.short()
            );
            // Said on the parent, the chain's last session: why its chain ends there.
            if let (Some(u), Some(last)) = (unfit, chain.sessions.last_mut()) {
                last.notes.push(u);
            }
            break;
        };
        inserted_code = inserted_code
            .iter()
            .filter_map(|&l| {
                choice
                    .recipe
                    .map
                    .to_follow_up(Location::new(l, 0))
                    .map(|x| x.line)
            })
            .collect();
        choice.recipe.inserted_code = inserted_code.clone();
        if let Some(l) = choice.program.as_ref().and_then(|t| t.inserted_line) {
            inserted_code.insert(l);
        }
        let next = match &choice.program {
            Some(t) => {
                let p = Program {
                    origin_map: None,
                    line_kinds: None,
                    ..Program::new(
                        Language::JavaScript,
                        t.text.clone(),
                        ProgramOrigin::Transformed {
                            parent: current.program.hash,
                            transformation: t.name.name().into(),
                        },
                    )
                };
                match corpus::materialize(p, ctx.workdir) {
                    Ok(l) => l,
                    Err(e) => {
                        tracing::error!("writing a follow-up program: {e}");
                        break;
                    }
                }
            }
            None => current.clone(),
        };
        let expect = Expectation {
            map: choice.recipe.map.clone(),
            extra_on_inserted_lines: choice.recipe.restep_inserted,
            fresh: choice.program.as_ref().and_then(|t| t.fresh.clone()),
            object_shells: choice.program.is_none(),
            assigned: choice.recipe.set_as_code.map(|(c, s)| (c as u32, s as u32)),
            repeated: choice.recipe.restart.map(|(e, r)| (e as u32, r as u32)),
            ..Default::default()
        };
        let id = session_id(chain_key, round);
        let started_at_ms = now_ms();
        let t0 = Instant::now();
        let mut strategy = FollowUpStrategy {
            parent: &parent_steps,
            recipe: &choice.recipe,
            max_resync: params.max_resync,
            expect,
        };
        let rec = crate::session::record(
            &mut [&mut *ctx.engine],
            &[ctx.engine_ref],
            &next,
            &mut strategy,
            ctx.policy,
            None,
            ctx.session_timeout,
        )
        .await;
        // A follow-up cut short (timeout) expects what it was given: nothing was judged.
        let expect = strategy.expect;
        let mut params_out = choice.params.clone();
        params_out.extend(expect.params());
        let record = TransformationRecord {
            name: choice.recipe.name.name().into(),
            interactive: choice.recipe.name.is_interactive(),
            params: params_out,
            program_before: current.program.hash,
            program_after: next.program.hash,
            mapping: choice.recipe.map.lines.clone(),
        };
        records.push(record.clone());
        let mut outcome = rec.final_outcome();
        let trace = rec.traces.into_iter().next();
        let mut warnings = Vec::new();
        let mut session_notes = notes.to_vec();
        session_notes.extend(unfit);
        if ok_to_continue(&outcome) {
            if let Some(v) = trace.as_ref().and_then(|t| judge(&pt, t, &record)) {
                // A violation counts only if both runs are reproducible: run each again. One
                // found where the parent's engine crashed says nothing of the relation: what
                // the parent would have done after its crash is not known.
                let mut why = (v.parent_event_index.is_some()
                    && v.parent_event_index == crashed_at(&pt))
                .then(|| "its parent's engine crashed there: nothing to compare after it".into());
                if why.is_none() {
                    why = confirm(ctx, &current, &pt, "parent").await;
                }
                if why.is_none() {
                    if let Some(t) = &trace {
                        why = confirm(ctx, &next, t, "follow-up").await;
                    }
                }
                match why {
                    None => {
                        warnings.push(Warning {
                            relation: v.relation.to_string(),
                            round,
                            against: Some(parent_id),
                            event_index: v.event_index,
                            message: v.message,
                        });
                        outcome = SessionOutcome::Violated;
                    }
                    Some(why) => {
                        session_notes.push((
                            "unconfirmed warning".into(),
                            format!("{}: {}", v.relation, v.message),
                        ));
                        outcome = SessionOutcome::Rejected { reason: why };
                    }
                }
            }
        }
        if ok_to_continue(&outcome) {
            warnings = attached_output(ctx, &next, trace.as_ref(), &mut session_notes).await;
            if !warnings.is_empty() {
                outcome = SessionOutcome::Violated;
            }
        }
        ok = ok_to_continue(&outcome);
        if let Some(t) = &choice.program {
            let _ = t;
            chain.programs.push(next.program.clone());
        }
        chain.sessions.push(Session {
            parent: Some(ParentRef {
                session: parent_id,
                round,
            }),
            transformations: records.clone(),
            started_at_ms,
            duration_us: t0.elapsed().as_micros() as u64,
            traces: trace.clone().into_iter().collect(),
            warnings,
            notes: session_notes,
            ..Session::new(
                id,
                SessionMode::Metamorphic,
                params.seed,
                vec![ctx.engine_ref],
                next.program.hash,
                outcome,
            )
        });
        parent_id = id;
        parent_trace = trace;
        current = next;
    }
    chain
}

/// Why a violation cannot be trusted: a session (`which`: parent or follow-up), replayed (same
/// program, same actions), answered differently or did not run to the same end. `None`: it is
/// reproducible.
async fn confirm(
    ctx: &mut Context<'_>,
    program: &Loaded,
    trace: &Trace,
    which: &str,
) -> Option<String> {
    let actions: Vec<Action> = trace.actions().cloned().collect();
    let rec = crate::session::record(
        &mut [&mut *ctx.engine],
        &[ctx.engine_ref],
        program,
        &mut crate::session::Reissue { actions: &actions },
        ctx.policy,
        None,
        ctx.session_timeout,
    )
    .await;
    let outcome = rec.final_outcome();
    if !ok_to_continue(&outcome) {
        return Some(format!(
            "unconfirmed: the {which}'s replay ended {}",
            outcome.name()
        ));
    }
    let replay = rec.traces.into_iter().next()?;
    crate::session::difference(trace, &replay).map(|d| {
        format!(
            "nondeterministic: the {which}'s replay (same program, same actions) differs at {d}"
        )
    })
}

/// The program with the debugger and without (`dbdb::attached::judge`) on a chain's session.
async fn attached_output(
    ctx: &mut Context<'_>,
    program: &Loaded,
    trace: Option<&Trace>,
    notes: &mut Vec<(String, String)>,
) -> Vec<Warning> {
    let Some(trace) = trace else {
        return Vec::new();
    };
    let refs = [ctx.engine_ref];
    let setting = dbdb::attached::Setting {
        refs: &refs,
        policy: ctx.policy,
        timeout: ctx.session_timeout,
    };
    dbdb::attached::judge(
        &mut [&mut *ctx.engine],
        program,
        std::slice::from_ref(trace),
        &setting,
        notes,
    )
    .await
}

async fn record_initial(
    ctx: &mut Context<'_>,
    loaded: &Loaded,
    params: &ChainParams,
    id: SessionId,
    notes: &[(String, String)],
) -> Session {
    let started_at_ms = now_ms();
    let t0 = Instant::now();
    let rec = match params.initial.strategy() {
        Ok(mut strategy) => {
            crate::session::record(
                &mut [&mut *ctx.engine],
                &[ctx.engine_ref],
                loaded,
                &mut *strategy,
                ctx.policy,
                None,
                ctx.session_timeout,
            )
            .await
        }
        Err(e) => {
            let mut rec = Recording::new(&[ctx.engine_ref]);
            rec.outcome = Some(SessionOutcome::HarnessError {
                message: e.to_string(),
            });
            rec
        }
    };
    let mut outcome = rec.final_outcome();
    let mut notes = notes.to_vec();
    let mut warnings = Vec::new();
    if ok_to_continue(&outcome) {
        warnings = attached_output(ctx, loaded, rec.traces.first(), &mut notes).await;
        if !warnings.is_empty() {
            outcome = SessionOutcome::Violated;
        }
    }
    Session {
        started_at_ms,
        duration_us: t0.elapsed().as_micros() as u64,
        traces: rec.traces,
        notes,
        warnings,
        ..Session::new(
            id,
            SessionMode::Metamorphic,
            params.seed,
            vec![ctx.engine_ref],
            loaded.program.hash,
            outcome,
        )
    }
}

/// The weight `carrying` gives an action a relation asked for needs in its parents, where the
/// campaign gave it none: a control action's.
pub const CARRY_WEIGHT: f64 = 1.0;

/// The parents' action draw for a campaign over `transformations`: a relation whose follow-up
/// changes an action the random draw makes only when weighted in (set-variable-as-code needs a
/// set variable at a breakpoint's pause, continue-as-breakpoint a continue to a location) gets
/// that action weighted `CARRY_WEIGHT` where it had no weight, so that it can apply at all, and
/// sets drawn at breakpoints' pauses only. Logpoint-for-a-breakpoint needs a plain breakpoint
/// whose every hit was reached and left by a resume: one breakpoint's hits are left so.
/// Restart-frame-as-reentry needs a pause in a function without side effects entered by a step
/// into: lines that call one are left by a step into until one is entered. The weights a
/// campaign gave stay; relations not asked for change nothing.
pub fn carrying(random: &RandomParams, transformations: &[Transformation]) -> RandomParams {
    let mut r = random.clone();
    let asked = |t: Transformation| transformations.contains(&t);
    if asked(Transformation::SetAsCode) {
        if r.set_variable_weight == 0.0 {
            r.set_variable_weight = CARRY_WEIGHT;
        }
        r.sets_at_breakpoints = true;
    }
    if asked(Transformation::ContinueAsBreakpoint) && r.continue_weight == 0.0 {
        r.continue_weight = CARRY_WEIGHT;
    }
    if asked(Transformation::Logpoint) {
        r.resumes_at_a_breakpoint = true;
    }
    if asked(Transformation::RestartAsReentry) {
        r.steps_into_pure_calls = true;
    }
    r
}

/// Metamorphic tasks: for every program × seed × engine, one chain.
pub fn tasks(
    specs: &[EngineSpec],
    programs: &[Loaded],
    seeds: &[u64],
    random: &RandomParams,
    rounds: u32,
    transformations: &[Transformation],
) -> Vec<Task> {
    let names: Vec<&str> = transformations.iter().map(|t| t.name()).collect();
    let mut tasks = Vec::new();
    for (pi, p) in programs.iter().enumerate() {
        for &seed in seeds {
            for (ei, spec) in specs.iter().enumerate() {
                let key = format!(
                    "metamorphic|{spec}|{}|{seed}|{rounds}|{}",
                    p.program.hash,
                    names.join(",")
                );
                let mut params = ChainParams::random(seed, rounds, random.clone());
                params.transformations = transformations.to_vec();
                tasks.push(Task {
                    id: session_id(&key, 0),
                    program: pi,
                    seed,
                    engines: vec![ei],
                    plan: params.initial.clone(),
                    mode: SessionMode::Metamorphic,
                    parent: None,
                    notes: vec![],
                    chain: Some(ChainTask { key, params }),
                });
            }
        }
    }
    tasks
}

/// Runs blocking work from async code: on a multi-threaded runtime the other tasks move to
/// another thread meanwhile; a campaign worker's single-threaded runtime has nothing else to
/// run while its session waits, so the work just runs.
fn blocking<T>(f: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        _ => f(),
    }
}

/// The analysis of a program in its language: JavaScript as a classic script, Python by
/// tree-sitter-python (the sites are `morphtrace_syntax`'s, the edits `source`'s); the `Err` says
/// why it cannot be transformed.
pub fn analysis_of(text: &str, language: morphtrace_schema::Language) -> Result<Analysis, String> {
    match language {
        morphtrace_schema::Language::Python => {
            morphtrace_syntax::python::sites::sites(text).map(Analysis::from)
        }
        _ => Analysis::of(text).map_err(|e| e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::transformations::add_breakpoint::free_line;
    use super::transformations::condition_local::filters;
    use super::transformations::set_as_code::{aliased, repaused_in_place};
    use super::transformations::{hits, occupied_lines};
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Campaign workers run chains on single-threaded runtimes, `reduce` on a multi-threaded
    /// one: blocking work (the remove-dead-code coverage run) must work on both.
    #[test]
    fn blocking_work_runs_on_either_runtime() {
        let current = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        assert_eq!(current.block_on(async { blocking(|| 7) }), 7);
        let multi = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap();
        assert_eq!(multi.block_on(async { blocking(|| 8) }), 8);
        assert_eq!(blocking(|| 9), 9);
    }

    #[test]
    fn a_condition_filters_only_hits_of_its_breakpoint() {
        use morphtrace_schema::{
            BreakpointId, Frame, LocationSource, PauseReason, PauseState, Scope, ScopeKind, Value,
            Variable,
        };
        let pause = |column: u32, a: f64, thrown: bool| {
            Some(Output::Paused(PauseState {
                location: Location::new(5, column),
                reason: PauseReason::Step,
                engine_reason: None,
                stack: vec![Frame {
                    function: "f".into(),
                    location: Location::new(5, column),
                    scopes: vec![Scope {
                        kind: ScopeKind::Local,
                        name: None,
                        variables: vec![Variable {
                            name: "a".into(),
                            value: Value::Number(a),
                            reported: None,
                        }],
                    }],
                }],
                exception: thrown.then(|| Box::new(Value::Number(3.0))),
                condition: None,
                async_stack: None,
            }))
        };
        let parent = vec![
            (
                Action::SetBreakpoint {
                    line: 5,
                    column: None,
                },
                Some(Output::BreakpointSet {
                    id: BreakpointId(0),
                    requested: Location::new(5, 0),
                    actual: vec![Location::new(5, 9)],
                    source: LocationSource::EngineReported,
                    policy: None,
                }),
            ),
            (Action::Start, pause(9, 2.0, false)),
            // A throw on the breakpoint's line (Chromium, gen:60): no hit of it.
            (Action::Resume, pause(22, 2.0, true)),
            (Action::Resume, pause(9, 4.0, false)),
            (Action::Resume, None),
        ];
        let found: Vec<(String, BTreeSet<usize>)> = filters(&parent, 0)
            .into_iter()
            .map(|(_, c, gone)| (c, gone))
            .collect();
        // `a !== 4` is not exact: the pause it would filter is the parent's last answered one.
        assert_eq!(found, [("a !== 2".to_string(), BTreeSet::from([1]))]);
    }

    #[test]
    fn a_false_breakpoint_never_takes_a_line_the_parent_continues_to() {
        use morphtrace_schema::LocationSource;
        let parent = vec![
            (
                Action::SetBreakpoint {
                    line: 2,
                    column: None,
                },
                Some(Output::BreakpointSet {
                    id: morphtrace_schema::BreakpointId(0),
                    requested: Location::new(2, 0),
                    actual: vec![Location::new(3, 4)],
                    source: LocationSource::EngineReported,
                    policy: None,
                }),
            ),
            (Action::Start, None),
            (Action::ContinueToLocation { line: 7 }, None),
            (Action::StepOver, None),
            (
                Action::ContinueToLocation { line: 11 },
                Some(Output::Paused(morphtrace_schema::PauseState {
                    location: Location::new(12, 4),
                    reason: morphtrace_schema::PauseReason::Other("continue-to-location".into()),
                    engine_reason: None,
                    stack: vec![],
                    exception: None,
                    condition: None,
                    async_stack: None,
                })),
            ),
        ];
        assert_eq!(occupied_lines(&parent), BTreeSet::from([2, 3, 7, 11, 12]));
    }

    #[test]
    fn a_breakpoints_hits_are_the_pauses_it_made_wherever_they_are() {
        use morphtrace_schema::{BreakpointId, LocationSource, PauseReason, PauseState};
        let pause = |line, column, reason| {
            Some(Output::Paused(PauseState {
                location: Location::new(line, column),
                reason,
                engine_reason: None,
                stack: vec![],
                exception: None,
                condition: None,
                async_stack: None,
            }))
        };
        let hit = |id| PauseReason::Breakpoint {
            ids: vec![BreakpointId(id)],
        };
        let parent = vec![
            (
                Action::SetBreakpoint {
                    line: 109,
                    column: None,
                },
                Some(Output::BreakpointSet {
                    id: BreakpointId(0),
                    requested: Location::new(109, 0),
                    actual: vec![Location::new(109, 0)],
                    source: LocationSource::EngineReported,
                    policy: None,
                }),
            ),
            (Action::Start, pause(109, 0, hit(0))),
            // Bun 1.4.5, gen:35: the same breakpoint in the arrow function's body on its line.
            (Action::Resume, pause(109, 23, hit(0))),
            (Action::Resume, pause(122, 2, hit(1))),
            (Action::StepOver, pause(109, 0, PauseReason::Step)),
        ];
        let found: Vec<usize> = hits(&parent, 0).into_iter().map(|(k, _)| k).collect();
        assert_eq!(found, [1, 2, 4]);
    }

    #[test]
    fn a_step_that_pauses_where_it_was_makes_no_pass() {
        use morphtrace_schema::{PauseReason, PauseState};
        let pause = |line| {
            Some(Output::Paused(PauseState {
                location: Location::new(line, 6),
                reason: PauseReason::Breakpoint { ids: vec![] },
                engine_reason: None,
                stack: vec![],
                exception: None,
                condition: None,
                async_stack: None,
            }))
        };
        // Bun 1.4.5, a set-variable-as-code follow-up of gen:*: 131:7, a step into, 131:7 again.
        let twice = vec![(Action::Start, pause(130)), (Action::StepInto, pause(130))];
        assert!(repaused_in_place(&twice, Location::new(130, 6)));
        // A loop that comes round to the place by a resume makes a pass each time.
        let looped = vec![
            (Action::Start, pause(130)),
            (Action::Resume, pause(130)),
            (Action::StepOver, pause(129)),
        ];
        assert!(!repaused_in_place(&looped, Location::new(130, 6)));
    }

    #[test]
    fn a_parameter_the_arguments_object_may_alias_is_not_set_as_code() {
        use morphtrace_schema::{
            Entry, Frame, Key, ObjectKind, PauseReason, PauseState, Scope, ScopeKind, Value,
            Variable,
        };
        let var = |name: &str, value| Variable {
            name: name.into(),
            value,
            reported: None,
        };
        let args = |v: &str| Value::Object {
            kind: ObjectKind::Other("arguments".into()),
            class: "Arguments".into(),
            description: None,
            entries: Some(vec![Entry {
                key: Key::Index(1),
                value: Value::String(v.into()),
            }]),
            truncated: false,
        };
        let pause = |vars| PauseState {
            location: Location::new(235, 1),
            reason: PauseReason::Step,
            engine_reason: None,
            stack: vec![Frame {
                function: "verifyProperty".into(),
                location: Location::new(235, 1),
                scopes: vec![Scope {
                    kind: ScopeKind::Local,
                    name: None,
                    variables: vars,
                }],
            }],
            exception: None,
            condition: None,
            async_stack: None,
        };
        // test262's harness, verifyProperty(obj, name, ...): `arguments[1]` is `name`.
        let q = pause(vec![
            var("name", Value::String("length".into())),
            var("arguments", args("length")),
        ]);
        assert!(aliased(&q, "name"));
        let other = pause(vec![
            var("name", Value::String("length".into())),
            var("arguments", args("value")),
        ]);
        assert!(!aliased(&other, "name"));
        let none = pause(vec![var("name", Value::String("length".into()))]);
        assert!(!aliased(&none, "name"));
    }

    #[test]
    fn parents_carry_the_actions_the_relations_asked_for_need() {
        let dbdb = RandomParams::default();
        let r = carrying(
            &dbdb,
            &[
                Transformation::SetAsCode,
                Transformation::ContinueAsBreakpoint,
            ],
        );
        assert_eq!(r.set_variable_weight, CARRY_WEIGHT);
        assert_eq!(r.continue_weight, CARRY_WEIGHT);
        assert_eq!(r.evaluate_weight, 0.0);
        assert!(!r.resumes_at_a_breakpoint && !r.steps_into_pure_calls);
        let r = carrying(
            &dbdb,
            &[Transformation::Logpoint, Transformation::RestartAsReentry],
        );
        assert!(r.resumes_at_a_breakpoint && r.steps_into_pure_calls);
        assert!(!r.sets_at_breakpoints);
        assert_eq!(r.set_variable_weight, 0.0);
        // Not asked for: DBDB's draw as it was; a weight the campaign gave stays.
        let r = carrying(&dbdb, &Transformation::TABLE1);
        assert_eq!(r.params(), dbdb.params());
        let given = RandomParams {
            set_variable_weight: 2.0,
            ..RandomParams::default()
        };
        assert_eq!(
            carrying(&given, &[Transformation::SetAsCode]).set_variable_weight,
            2.0
        );
    }

    #[test]
    fn a_crash_is_found_where_the_engine_died() {
        let ev = |kind| morphtrace_schema::Event { at_us: 0, kind };
        let mut t = Trace {
            engine: EngineRef(0),
            events: vec![
                ev(EventKind::Action(Action::Start)),
                ev(EventKind::Output(Output::Finished {
                    outcome: ProgramOutcome::Completed,
                })),
            ],
            console: vec![],
            logs: vec![],
        };
        assert_eq!(crashed_at(&t), None);
        t.events[1] = ev(EventKind::Output(Output::Finished {
            outcome: ProgramOutcome::EngineCrashed {
                message: "node died of SIGTRAP".into(),
            },
        }));
        assert_eq!(crashed_at(&t), Some(1));
    }

    #[test]
    fn an_added_breakpoint_never_takes_a_line_the_parent_asks_for() {
        let bp = |line, column| (Action::SetBreakpoint { line, column }, None);
        // The parent asks for lines 0, 2 (column 0) and 4 (no column), before and after its
        // start; a request with a column elsewhere in line 3 does not collide with ours.
        let parent = vec![
            bp(0, None),
            (Action::Start, None),
            bp(2, Some(0)),
            bp(3, Some(5)),
            bp(4, None),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen = BTreeSet::new();
        for _ in 0..200 {
            seen.insert(free_line(&parent, 6, &mut rng).expect("a free line"));
        }
        assert_eq!(seen, BTreeSet::from([1, 3, 5]));
        let all: Vec<_> = (0..3).map(|l| bp(l, None)).collect();
        assert_eq!(free_line(&all, 3, &mut rng), None);
    }

    #[test]
    fn a_recorded_transformation_is_pinned_and_moves_with_its_lines() {
        let record = |t: Transformation, params: &[(&str, &str)]| TransformationRecord {
            name: t.name().into(),
            interactive: t.is_interactive(),
            params: params
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            program_before: morphtrace_schema::ProgramHash::of("a"),
            program_after: morphtrace_schema::ProgramHash::of("b"),
            mapping: None,
        };
        let p = Pin::of(&record(
            Transformation::ContinueToStep,
            &[("action", "4"), ("step", "stepInto")],
        ));
        assert_eq!((p.action, p.step), (Some(4), Some(Action::StepInto)));
        let p = Pin::of(&record(
            Transformation::AddBreakpoint,
            &[("line", "7"), ("before-action", "2")],
        ));
        assert_eq!((p.line, p.action), (Some(7), Some(2)));
        // Lines 0..=5 keep 0, 2, 3, 5 (1 and 4 were blank): new numbers 0, 1, 2, 3.
        let lines = [Some(0), None, Some(1), Some(2), None, Some(3)];
        let p = Pin::of(&record(
            Transformation::IntegerLiteral,
            &[
                ("location", "4:9"),
                ("literal", "10"),
                ("expect.object-shells", "false"),
            ],
        ));
        assert_eq!(p.recorded.len(), 2, "expectations are not choices");
        let moved = p.moved(&lines).unwrap();
        assert_eq!(moved.recorded[0], ("location".into(), "3:9".into()));
        let p = Pin::of(&record(
            Transformation::RemoveDeadCode,
            &[("lines", "3-5"), ("statement", "IfStatement")],
        ));
        assert_eq!(p.moved(&lines).unwrap().removed_lines(), Some((2, 3)));
        // A place on a line that is gone cannot be repeated.
        let p = Pin::of(&record(
            Transformation::AddNoOp,
            &[("line", "4"), ("code", "x = x;")],
        ));
        assert!(p.moved(&lines).is_none());
    }

    const PROG: &str = "LIMIT = 10


def f(a, b=2, **kw):
    n = a * b
    while n > 3:
        n -= 1
    return n == 3 or False


print(f(LIMIT, 1))
";

    #[test]
    fn python_transformations_keep_the_program() {
        let a = analysis_of(PROG, Language::Python).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let applicable = a.applicable();
        for name in [
            Transformation::InsertDeadCode,
            Transformation::AddNoOp,
            Transformation::IntegerLiteral,
            Transformation::BooleanLiteral,
            Transformation::AddParameter,
        ] {
            assert!(applicable.contains(&name), "{name} in {applicable:?}");
            for _ in 0..20 {
                let t = a.transform(PROG, name, &mut rng).unwrap();
                // Python compiles it (the interpreter is the judge, not tree-sitter).
                let o = std::process::Command::new("python3")
                    .args(["-c", "import sys; compile(sys.stdin.read(), 'p', 'exec')"])
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .and_then(|mut c| {
                        use std::io::Write;
                        c.stdin.take().unwrap().write_all(t.text.as_bytes())?;
                        c.wait_with_output()
                    })
                    .unwrap();
                assert!(
                    o.status.success(),
                    "{name}:\n{}\n{}",
                    t.text,
                    String::from_utf8_lossy(&o.stderr)
                );
                assert!(analysis_of(&t.text, Language::Python).is_ok());
            }
        }
        let t = a
            .transform(PROG, Transformation::AddParameter, &mut rng)
            .unwrap();
        assert!(
            t.text.contains("def f(a, b=2, _mt1=None, **kw):"),
            "{}",
            t.text
        );
        let t = a
            .transform(PROG, Transformation::InsertDeadCode, &mut rng)
            .unwrap();
        assert!(t.text.contains("if False: "), "{}", t.text);
    }
}
