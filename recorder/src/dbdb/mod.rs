//! DBDB (ASE 2022) and the session strategies it rests on (docs/design.md §6): random generation
//! (Algorithm 1), differential lockstep over N debuggers (the same loop, compared after every
//! action), and replay of recorded actions; the tasks of `random` and `differential` campaigns.

pub mod attached;
pub mod computes;
pub mod continuation;
pub mod replay;
pub mod steps;
pub mod truth;

use crate::corpus::Loaded;
use crate::debugger::engines::EngineSpec;
use crate::debugger::{Debugger, DebuggerError, Engine, ProgramFile};
use crate::task::{session_key, ExceptionChoice, Plan, RandomParams, Task};
use futures_util::future::join_all;
use morphtrace_js::calls::BuiltInArguments;
use morphtrace_js::classes::{ClassParams, Heritages, NamedClasses};
use morphtrace_js::exits::Exits;
use morphtrace_js::loops::HeadIterables;
use morphtrace_js::python::{InGenerator, PythonTree};
use morphtrace_js::switches::Discriminants;
use morphtrace_judges::dbdb::{compare_answers, ComparisonPolicy};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_judges::triage::Triage;
use morphtrace_schema::trace::TriggerLines;
use morphtrace_schema::Language;
use morphtrace_schema::{
    Action, BreakpointId, ConditionCheck, Divergence, DivergenceKind, DivergencePair,
    DivergenceSide, EngineRef, Event, EventKind, Location, LogLine, ObjectKind, Output,
    ProgramOutcome, SessionMode, SessionOutcome, Trace, Value,
};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::time::Instant;

/// What a session produced so far: kept even when the session is cut short (timeout, crash).
#[derive(Debug)]
pub struct Recording {
    pub traces: Vec<Trace>,
    /// The first divergence (DBDB's).
    pub divergence: Option<Divergence>,
    /// Every divergence in order, the first included (lockstep continuation goes on past some).
    pub divergences: Vec<Divergence>,
    /// Facts about how the lockstep went (why it stopped where it could not go on).
    pub notes: Vec<(String, String)>,
    pub outcome: Option<SessionOutcome>,
    pub actions: u32,
    start: Instant,
}

impl Recording {
    /// The session's outcome; a harness error if nothing set one.
    pub fn final_outcome(&self) -> SessionOutcome {
        self.outcome
            .clone()
            .unwrap_or(SessionOutcome::HarnessError {
                message: "the session ended without an outcome".into(),
            })
    }

    /// Records how a session's run ended when it did not end by itself: an engine error or a
    /// session timeout becomes the outcome, and `None` says every engine must be restarted.
    pub fn settle<E: std::fmt::Display, T>(
        &mut self,
        result: Result<Result<T, E>, tokio::time::error::Elapsed>,
    ) -> Option<T> {
        match result {
            Ok(Ok(r)) => Some(r),
            Ok(Err(e)) => {
                self.outcome = Some(SessionOutcome::HarnessError {
                    message: e.to_string(),
                });
                None
            }
            Err(_) => {
                self.outcome = Some(SessionOutcome::Timeout);
                None
            }
        }
    }

    /// A session whose engine the memory guard killed ends with that reason, not with the
    /// protocol error the kill caused. `pids`: the engines' processes during the session.
    pub fn note_memory_kill(&mut self, pids: impl IntoIterator<Item = Option<u32>>) {
        for pid in pids.into_iter().flatten() {
            if let Some(k) = crate::memory::take_kill(pid) {
                self.outcome = Some(SessionOutcome::HarnessError {
                    message: k.reason(),
                });
            }
        }
    }

    pub fn new(engines: &[EngineRef]) -> Recording {
        Recording {
            traces: engines
                .iter()
                .map(|&engine| Trace {
                    engine,
                    events: Vec::new(),
                    console: Vec::new(),
                    logs: Vec::new(),
                })
                .collect(),
            divergence: None,
            divergences: Vec::new(),
            notes: Vec::new(),
            outcome: None,
            actions: 0,
            start: Instant::now(),
        }
    }

    fn diverged(&mut self, d: Divergence) {
        if self.divergence.is_none() {
            self.divergence = Some(d.clone());
        }
        self.divergences.push(d);
    }

    /// Whether the session went on past a divergence (its divergences then go in the
    /// session's list, not only the first).
    pub fn continued(&self) -> bool {
        self.divergences.iter().any(|d| d.continued.is_some())
    }

    /// What engine `i`'s logpoints logged beyond what its trace holds, stamped with the action
    /// that was running (`logs`: everything they logged so far, in order).
    pub(crate) fn note_logs(&mut self, i: usize, logs: Vec<(BreakpointId, String)>, action: u32) {
        let t = &mut self.traces[i];
        let have = t.logs.len();
        t.logs.extend(
            logs.into_iter()
                .skip(have)
                .map(|(breakpoint, text)| LogLine {
                    action,
                    breakpoint,
                    text,
                }),
        );
    }

    pub(crate) fn push(&mut self, i: usize, kind: EventKind) {
        let at_us = self.start.elapsed().as_micros() as u64;
        self.traces[i].events.push(Event { at_us, kind });
    }
}

pub use crate::task::rng_for;

/// At most this many divergences are recorded at one action: the features of one pause, then
/// what the engines show where resyncs bring them back in step.
const MAX_DIVERGENCES_PER_ACTION: usize = 8;

/// How a session went on past a difference met while the engines were brought back in step
/// past the divergence before it: the steps went on to where they met.
pub const MET_IN_RESYNC: &str =
    "met while the engines were brought back in step past the divergence before; the steps went on";

struct Lockstep<'a> {
    debuggers: Vec<Box<dyn Debugger>>,
    rec: &'a mut Recording,
    policy: &'a ComparisonPolicy,
    finished: Vec<bool>,
    /// Engines still in lockstep: a lone suspect is left out when it stands alone.
    active: Vec<bool>,
    /// Where each engine's actions are triggered (its own trace's outputs so far).
    triggers: Vec<TriggerLines>,
    /// The line the current action was triggered at, on the first engine in lockstep (the
    /// class key's AST node is that line's).
    trigger: Option<u32>,
    /// The triage the session goes on under; `None`: it stops at the first divergence.
    go_on: Option<continuation::GoOn<'a>>,
    /// Stopped at a divergence it could not go on past.
    stopped: bool,
    /// Logpoints whose logs a known bug gone past set apart (`Recording` ids): what they log
    /// later is that bug's echo (a tracer that logs at the next action what it did not log at
    /// this one), so it is not compared again; every other logpoint's is.
    quiet_logpoints: std::collections::BTreeSet<u32>,
    /// Where the engines stood apart after a whole round of the steps that brought them back
    /// in step past a divergence, before they met (engine order, the engines in lockstep):
    /// places the rule's account did not predict, compared and recorded once they meet.
    met_in_resync: Vec<Vec<Output>>,
    /// The last action's breakpoint was removed again on every engine (an excused placement).
    undone: bool,
    /// What the program computes on each engine without pausing, when the triage asks
    /// (`computes`): a divergence between engines whose runs differ says so.
    computed: Vec<Option<computes::Computed>>,
    /// The program under test (a divergence's remarks read its syntax).
    program: &'a ProgramFile,
    /// Where the program's functions return and its class members take their parameters
    /// (JavaScript), read at the first divergence that asks.
    exits: std::sync::OnceLock<Option<Exits>>,
    /// Where the program's code runs out of the source's order (JavaScript), for the break
    /// positions of an engine that slides in its code's order.
    order: std::sync::OnceLock<Option<morphtrace_js::order::ExecutionOrder>>,
    class_params: std::sync::OnceLock<Option<ClassParams>>,
    heritages: std::sync::OnceLock<Option<Heritages>>,
    named_classes: std::sync::OnceLock<Option<NamedClasses>>,
    built_in_arguments: std::sync::OnceLock<Option<BuiltInArguments>>,
    head_iterables: std::sync::OnceLock<Option<HeadIterables>>,
    discriminants: std::sync::OnceLock<Option<Discriminants>>,
    /// How the program binds each name (JavaScript), for the closing-brace remark.
    nodes: std::sync::OnceLock<morphtrace_js::nodes::LineNodes>,
}

impl Lockstep<'_> {
    /// Where the program's functions are and return (JavaScript that parses).
    fn exits(&self) -> Option<&Exits> {
        self.exits
            .get_or_init(|| {
                (self.program.language == Language::JavaScript)
                    .then(|| Exits::scan(&self.program.text))
                    .flatten()
            })
            .as_ref()
    }

    /// The order the program's code runs in where it is not the source's, if the program is
    /// JavaScript that parses.
    fn order(&self) -> Option<&morphtrace_js::order::ExecutionOrder> {
        self.order
            .get_or_init(|| {
                (self.program.language == Language::JavaScript)
                    .then(|| morphtrace_js::order::ExecutionOrder::scan(&self.program.text))
                    .flatten()
            })
            .as_ref()
    }

    /// The current pause of the first engine in lockstep, if it is paused.
    fn last_pause(&self) -> Option<morphtrace_schema::PauseState> {
        let first = *self.active().first()?;
        // Evaluations and settings answer while the program stays where it paused.
        let last = self.rec.traces[first]
            .outputs()
            .filter(|o| matches!(o, Output::Paused(_) | Output::Finished { .. }))
            .last()?;
        match last {
            Output::Paused(p) => Some(p.clone()),
            _ => None,
        }
    }

    /// Whether every debugger of the session can restart a frame.
    fn restarts_frames(&self) -> bool {
        self.debuggers.iter().all(|d| d.restarts_frames())
    }

    /// Whether every debugger of the session can continue to a location.
    fn continues_to_location(&self) -> bool {
        self.debuggers.iter().all(|d| d.continues_to_location())
    }

    fn active(&self) -> Vec<usize> {
        (0..self.debuggers.len())
            .filter(|&i| self.active[i])
            .collect()
    }

    /// Records an output of engine `i` in its trace.
    fn answer(&mut self, i: usize, o: Output, at_us: u64) {
        if matches!(o, Output::Finished { .. }) {
            self.finished[i] = true;
        }
        self.triggers[i].output(&o);
        self.rec.traces[i].events.push(Event {
            at_us,
            kind: EventKind::Output(o),
        });
    }

    fn now_us(&self) -> u64 {
        self.rec.start.elapsed().as_micros() as u64
    }

    /// Applies one action to every engine in lockstep at once, records it, and compares the
    /// outputs; a divergence is recorded and, where the triage excuses it, gone on past.
    /// Returns the outputs of the engines in lockstep, in engine order.
    async fn apply(&mut self, action: &Action) -> Result<Vec<Output>, DebuggerError> {
        let active = self.active();
        self.trigger = active.first().and_then(|&i| self.triggers[i].of(action));
        for &i in &active {
            self.rec.push(i, EventKind::Action(action.clone()));
        }
        let start = self.rec.start;
        // Each output is timed when its own debugger answers, not when the slowest one does.
        let on = &self.active;
        let outs: Vec<(Result<Output, DebuggerError>, u64)> = join_all(
            self.debuggers
                .iter_mut()
                .enumerate()
                .filter(|(i, _)| on[*i])
                .map(|(_, d)| async move {
                    let o = crate::debugger::apply(d.as_mut(), action).await;
                    (o, start.elapsed().as_micros() as u64)
                }),
        )
        .await;
        let mut outputs = Vec::with_capacity(outs.len());
        for (&i, (o, at_us)) in active.iter().zip(outs) {
            let o = o?;
            self.answer(i, o.clone(), at_us);
            outputs.push(o);
        }
        let index = self.rec.actions;
        for &i in &active {
            let logs = self.debuggers[i].logs();
            self.rec.note_logs(i, logs, index);
        }
        self.rec.actions += 1;
        self.undone = false;
        // What compares: the action's answers, then where a resync brought the engines back
        // in step; at one pause, what divergences gone past there judged is masked, and the
        // rest of the pause still compares (an excused difference masks only itself).
        let mut policy = self.policy.clone();
        let mut current = outputs.clone();
        for round in 0..MAX_DIVERGENCES_PER_ACTION {
            let mut diverged = self.compare(&active, &current, index, action, &policy);
            if round == 0
                && diverged.as_ref().is_some_and(|d| {
                    matches!(
                        d.kind,
                        DivergenceKind::PauseLocation | DivergenceKind::Termination
                    )
                })
                && self.check_conditions(&active, &mut current).await?
            {
                outputs.clone_from(&current);
                diverged = self.compare(&active, &current, index, action, &policy);
            }
            let Some(mut d) = diverged else { break };
            d.facts = self.facts(&d, &active).await?;
            let went = self.go_on_past(&mut d, &active, &current).await?;
            let (how, resynced) = match went {
                Some(w) => (Some(w.how), w.resynced),
                None => (None, None),
            };
            let stopped = how.is_none();
            if !stopped && d.kind == DivergenceKind::Log {
                self.quiet_logpoints
                    .extend(morphtrace_judges::dbdb::logpoints_apart(&d.detail));
            }
            if stopped {
                self.stopped = true;
                self.rec.outcome = Some(SessionOutcome::Diverged);
            }
            let (kind, detail) = (d.kind.clone(), d.detail.clone());
            self.rec.diverged(Divergence {
                continued: how,
                ..d
            });
            if stopped {
                break;
            }
            // Where the steps back into step passed with the engines still apart: each is a
            // difference of its own, judged as any other (a second pause an engine swallowed on
            // the way is not the first one's excuse).
            for met in std::mem::take(&mut self.met_in_resync) {
                let unmasked = self.policy.clone();
                if let Some(mut m) = self.compare(&active, &met, index, action, &unmasked) {
                    m.facts = self.facts(&m, &active).await?;
                    m.continued = Some(MET_IN_RESYNC.into());
                    self.rec.diverged(m);
                }
            }
            if let Some(r) = resynced {
                // Back in step at a new place: everything there compares.
                current = r;
                policy.mask = Default::default();
            } else if !(current.iter().all(|o| matches!(o, Output::Paused(_)))
                && policy.mask.cover(&kind, &detail))
            {
                break;
            }
        }
        Ok(outputs)
    }

    /// What the engines in lockstep say besides their answers, at divergence `d`: at a
    /// breakpoint placed apart, each engine's own break positions from the request to where it
    /// placed it (where its protocol can say). Read-only questions: the traces do not change.
    async fn facts(
        &mut self,
        d: &Divergence,
        active: &[usize],
    ) -> Result<Vec<morphtrace_schema::fact::Fact>, DebuggerError> {
        let mut facts = Vec::new();
        let (DivergenceKind::BreakpointLocation, Some(line)) =
            (&d.kind, d.action.breakpoint_line())
        else {
            return Ok(facts);
        };
        let requested = Location::new(line, d.action.breakpoint_column().unwrap_or(0));
        for (&k, side) in active.iter().zip(&d.sides) {
            let Some(Output::BreakpointSet { actual, .. }) = &side.output else {
                continue;
            };
            let Some(&placed) = actual.first() else {
                continue;
            };
            let (from, to) = (requested.min(placed), requested.max(placed));
            if let Some(mut positions) = self.debuggers[k].break_positions(from, to).await? {
                // An engine that slides in its code's order may have reached a position later
                // in the source first, up to the end of the construct it runs out of order:
                // those positions too, and all of them in its order.
                if self.debuggers[k].slides_in_execution_order() && placed >= requested {
                    let end = self
                        .order()
                        .and_then(|o| o.reordered_until(placed))
                        .filter(|e| *e > placed);
                    if let Some(end) = end {
                        if let Some(more) = self.debuggers[k].break_positions(placed, end).await? {
                            positions.extend(more.into_iter().filter(|q| *q > placed));
                        }
                    }
                    if let Some(order) = self.order() {
                        positions.sort_by(|a, b| order.cmp(*a, *b));
                    }
                }
                // Where the engine slides only within the request's function, positions in
                // functions nested there are not where it could go.
                if self.debuggers[k].slides_within_its_function() {
                    if let Some(exits) = self.exits() {
                        let own = exits.body_holding(requested);
                        positions.retain(|q| exits.body_holding(*q) == own);
                    }
                }
                facts.push(morphtrace_schema::fact::Fact::BreakPositions {
                    engine: self.rec.traces[k].engine,
                    requested,
                    positions,
                });
            }
        }
        Ok(facts)
    }

    /// The lines (0-based, below `lines`) where every debugger says a breakpoint goes on that
    /// very line, in order; `None` when one cannot say (then any line is drawn).
    async fn placeable_lines(&mut self, lines: u32) -> Result<Option<Vec<u32>>, DebuggerError> {
        let mut common: Option<BTreeSet<u32>> = None;
        for d in &mut self.debuggers {
            let Some(positions) = d
                .break_positions(Location::new(0, 0), Location::new(lines, 0))
                .await?
            else {
                return Ok(None);
            };
            let own: BTreeSet<u32> = positions.iter().map(|l| l.line).collect();
            common = Some(match common {
                None => own,
                Some(c) => c.intersection(&own).copied().collect(),
            });
        }
        Ok(common.map(|c| c.into_iter().filter(|&l| l < lines).collect()))
    }

    /// At pauses apart where a side paused on a conditional breakpoint: its condition evaluated
    /// on the paused frame, kept in the pause (in `outputs` and in the trace), so that the
    /// divergence can say whether it threw or does not hold there. Whether any was checked.
    async fn check_conditions(
        &mut self,
        active: &[usize],
        outputs: &mut [Output],
    ) -> Result<bool, DebuggerError> {
        let mut checked = false;
        for (pos, &k) in active.iter().enumerate() {
            let Output::Paused(p) = &outputs[pos] else {
                continue;
            };
            let Some(condition) = self.rec.traces[k].condition_at(p).map(str::to_string) else {
                continue;
            };
            let answer = crate::debugger::apply(
                self.debuggers[k].as_mut(),
                &Action::Evaluate {
                    expression: condition.clone(),
                },
            )
            .await?;
            let Output::Evaluated { value, threw } = answer else {
                continue;
            };
            let check = Some(Box::new(ConditionCheck {
                condition,
                value,
                threw,
            }));
            if let Output::Paused(p) = &mut outputs[pos] {
                p.condition = check.clone();
            }
            // The answer is the last output of its trace (logs are kept apart).
            if let Some(EventKind::Output(Output::Paused(p))) = self.rec.traces[k]
                .events
                .iter_mut()
                .rev()
                .find(|e| matches!(e.kind, EventKind::Output(_)))
                .map(|e| &mut e.kind)
            {
                p.condition = check;
            }
            checked = true;
        }
        Ok(checked)
    }

    /// The divergence among the engines in lockstep, if any. Two engines: the first difference.
    /// Three or more: the engines grouped by agreement, and the divergence told between the
    /// largest group and the next (its odd one out, the suspect, when there is exactly one).
    fn compare(
        &self,
        active: &[usize],
        outputs: &[Output],
        index: u32,
        action: &Action,
        policy: &ComparisonPolicy,
    ) -> Option<Divergence> {
        // Outputs first, then what logpoints logged meanwhile.
        // The action's place in the first active engine's own trace (an engine that joined or
        // left lockstep holds fewer actions than the session).
        let first = &self.rec.traces[active[0]];
        let own_of = |t: &Trace| {
            t.events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Action(_)))
                .count()
                .saturating_sub(1)
        };
        let own = own_of(first);
        let differ = |a: usize, b: usize| {
            let side = |k: usize| {
                let t = &self.rec.traces[active[k]];
                (t, own_of(t))
            };
            compare_answers([side(a), side(b)], action, &outputs[a], &outputs[b], policy)
                .map(|(kind, mut detail)| {
                    let exit = self.exit_remark(&kind, &detail, action, &outputs[a], &outputs[b]);
                    detail.push_str(&exit);
                    let head = self.head_remark(&kind, &detail, &outputs[a], &outputs[b]);
                    detail.push_str(&head);
                    let switch = self.discriminant_remark(&kind, &detail, &outputs[a], &outputs[b]);
                    detail.push_str(&switch);
                    let heritage = self.heritage_remark(&kind, action, &outputs[a], &outputs[b]);
                    detail.push_str(&heritage);
                    let own = self.own_name_remark(&kind, &detail, &outputs[a], &outputs[b]);
                    detail.push_str(&own);
                    detail.push_str(&self.brace_breakpoint_remark(&kind, &outputs[a], &outputs[b]));
                    detail.push_str(&self.class_definition_remark(
                        &kind,
                        action,
                        &outputs[a],
                        &outputs[b],
                    ));
                    detail.push_str(&self.message_remark(
                        &kind,
                        &detail,
                        &outputs[a],
                        &outputs[b],
                        policy,
                    ));
                    let (trace, own) = side(a);
                    let before = morphtrace_judges::dbdb::pause_before(trace, own);
                    detail.push_str(&self.again_remark(
                        &kind,
                        action,
                        before,
                        &outputs[a],
                        &outputs[b],
                    ));
                    let (trace_b, own_b) = side(b);
                    let before_b = morphtrace_judges::dbdb::pause_before(trace_b, own_b);
                    detail.push_str(&passed_remark(
                        &kind,
                        action,
                        [before, before_b],
                        [last_control(trace, own), last_control(trace_b, own_b)],
                        [&outputs[a], &outputs[b]],
                    ));
                    (kind, detail)
                })
                .or_else(|| {
                    morphtrace_judges::dbdb::compare_logs(
                        &self.rec.traces[active[a]],
                        &self.rec.traces[active[b]],
                        index,
                        morphtrace_judges::dbdb::timed_out(&outputs[a])
                            && morphtrace_judges::dbdb::timed_out(&outputs[b]),
                        &self.quiet_logpoints,
                    )
                })
        };
        let (groups, suspect) = if outputs.len() > 2 {
            morphtrace_schema::session::agreement(outputs.len(), |a, b| differ(a, b).is_none())
        } else {
            (Vec::new(), None)
        };
        let pair = match groups.as_slice() {
            [] => (1..outputs.len())
                .find(|&i| differ(0, i).is_some())
                .map(|i| (0, i)),
            [_] => None,
            [first, second, ..] => Some((first[0], second[0])),
        }?;
        let (kind, mut detail) = differ(pair.0, pair.1)?;
        // No engine stood alone: every two groups' difference, for triage to judge each.
        let pairs = if suspect.is_none() && groups.len() > 1 {
            let firsts: Vec<usize> = groups.iter().map(|g| g[0]).collect();
            let mut v = Vec::new();
            for (i, &x) in firsts.iter().enumerate() {
                for &y in &firsts[i + 1..] {
                    if let Some((kind, detail)) = differ(x, y) {
                        v.push(DivergencePair {
                            sides: [
                                self.rec.traces[active[x]].engine,
                                self.rec.traces[active[y]].engine,
                            ],
                            kind,
                            detail,
                        });
                    }
                }
            }
            v
        } else {
            Vec::new()
        };
        let stepped = matches!(
            kind,
            DivergenceKind::PauseLocation | DivergenceKind::Termination
        ) && matches!(
            action,
            Action::StepInto | Action::StepOver | Action::StepOut
        );
        if let Some(place) = stepped
            .then(|| self.generator_the_step_began_in(first, own))
            .flatten()
        {
            detail.push_str(&generator_remark(place, &outputs[pair.0], &outputs[pair.1]));
        }
        if kind == DivergenceKind::Log
            && *action == Action::StepOut
            && self.began_in_a_generator_expression(first, own)
        {
            // Which side logged nothing during the step, for triage to tell the sides apart.
            let logged_nothing = |k: usize| {
                self.rec.traces[active[k]]
                    .logs
                    .iter()
                    .all(|l| l.action != index)
            };
            let silent = if logged_nothing(pair.0) {
                Some(Side::First)
            } else if logged_nothing(pair.1) {
                Some(Side::Second)
            } else {
                None
            };
            detail.push_str(&Remark::StepOutBeganInAGeneratorExpression { silent }.to_string());
        }
        let engine = |k: usize| self.rec.traces[active[k]].engine;
        // The engines the divergence is between: the pair compared (the largest group's first
        // and the next group's), the suspect against one of the others.
        let program_differs = match (
            self.computed.get(active[pair.0]).cloned().flatten(),
            self.computed.get(active[pair.1]).cloned().flatten(),
        ) {
            (Some(a), Some(b)) if computes::comparable(&a, &b) => computes::difference(&a, &b),
            _ => None,
        };
        Some(Divergence {
            kind,
            action_index: index,
            action: action.clone(),
            sides: active
                .iter()
                .zip(outputs)
                .map(|(&i, o)| DivergenceSide {
                    engine: self.rec.traces[i].engine,
                    output: Some(o.clone()),
                })
                .collect(),
            detail,
            groups: groups
                .iter()
                .map(|g| g.iter().map(|&k| engine(k)).collect())
                .collect(),
            suspect: suspect.map(engine),
            continued: None,
            program_differs,
            pairs,
            facts: Vec::new(),
        })
    }

    /// Where in a generator's code the pause action `index` of `trace` stepped from was, if it
    /// was in one (Python, from the program's syntax: the JavaScript engines' steps out of
    /// generators have shown no such difference).
    fn generator_the_step_began_in(
        &self,
        trace: &morphtrace_schema::Trace,
        index: usize,
    ) -> Option<InGenerator> {
        if self.program.language != Language::Python {
            return None;
        }
        let top = morphtrace_judges::dbdb::pause_before(trace, index)?
            .stack
            .first()?;
        PythonTree::parse(&self.program.text)?.generator_at(
            &self.program.text,
            &top.function,
            top.location.line,
        )
    }

    /// Where both sides stand where one function returns, each as its engine shows it (a
    /// JavaScript program's syntax): after a step, one at the end of a `return` and the other at
    /// that function's closing brace, in the same frames (`RETURN_AND_BRACE`); or, where their
    /// variables differ, both at one function's closing brace (`BOTH_AT_A_CLOSING_BRACE`).
    fn exit_remark(
        &self,
        kind: &DivergenceKind,
        detail: &str,
        action: &Action,
        a: &Output,
        b: &Output,
    ) -> String {
        let (Output::Paused(x), Output::Paused(y)) = (a, b) else {
            return String::new();
        };
        let exits = || self.exits();
        let same_frames = same_frames(x, y);
        match kind {
            DivergenceKind::PauseLocation
                if same_frames
                    && matches!(
                        action,
                        Action::StepInto | Action::StepOver | Action::StepOut
                    ) =>
            {
                let Some(e) = exits() else {
                    return String::new();
                };
                let side = if e.returns_there(x.location, y.location) {
                    Side::First
                } else if e.returns_there(y.location, x.location) {
                    Side::Second
                } else {
                    return String::new();
                };
                Remark::ReturnAndBrace { side }.to_string()
            }
            // Only a lexical binding one side lacks (what the remark's rule is about): other
            // rules read the other variables divergences as they are.
            DivergenceKind::Variables if same_frames && self.lexical_on_one_side(detail) => {
                match exits() {
                    Some(e) if e.same_closing_brace(x.location, y.location) => {
                        Remark::BothAtAClosingBrace.to_string()
                    }
                    _ => String::new(),
                }
            }
            _ => String::new(),
        }
    }

    /// Where both sides stand, in the same frames, in the iterable of a `for-in`/`for-of` head
    /// that declares the `let` or `const` one side lacks (`IN_A_HEADS_ITERABLE`): the binding
    /// is in its dead zone there, in a scope of the head's own.
    fn head_remark(&self, kind: &DivergenceKind, detail: &str, a: &Output, b: &Output) -> String {
        let (DivergenceKind::Variables, Output::Paused(x), Output::Paused(y)) = (kind, a, b) else {
            return String::new();
        };
        let Some((name, _)) = one_sided(detail) else {
            return String::new();
        };
        let same_frames = same_frames(x, y);
        if !same_frames || self.program.language != Language::JavaScript {
            return String::new();
        }
        let heads = self
            .head_iterables
            .get_or_init(|| HeadIterables::scan(&self.program.text));
        match heads {
            Some(h)
                if h.declares_around(name, x.location) && h.declares_around(name, y.location) =>
            {
                Remark::InAHeadsIterable.to_string()
            }
            _ => String::new(),
        }
    }

    /// Where both sides stand, in the same frames, in the discriminant of a `switch` whose case
    /// block declares the name one side lacks, and the other side shows it uninitialized
    /// (`IN_A_DISCRIMINANT`): that block's scope does not exist yet.
    fn discriminant_remark(
        &self,
        kind: &DivergenceKind,
        detail: &str,
        a: &Output,
        b: &Output,
    ) -> String {
        let (DivergenceKind::Variables, Output::Paused(x), Output::Paused(y)) = (kind, a, b) else {
            return String::new();
        };
        let Some((name, first)) = one_sided(detail) else {
            return String::new();
        };
        let shown = if first { x } else { y };
        let uninitialized = morphtrace_judges::dbdb::visible_variables(shown.top_scopes())
            .get(name)
            .is_some_and(|v| **v == morphtrace_schema::Value::Uninitialized);
        if !uninitialized || !same_frames(x, y) || self.program.language != Language::JavaScript {
            return String::new();
        }
        let switches = self
            .discriminants
            .get_or_init(|| Discriminants::scan(&self.program.text));
        match switches {
            Some(s) if s.declares_after(name, x.location) && s.declares_after(name, y.location) => {
                Remark::InADiscriminant.to_string()
            }
            _ => String::new(),
        }
    }

    /// Where one side, not the other, paused for a breakpoint on a function's closing brace
    /// that stands indented (`AT_AN_INDENTED_BRACE`): JavaScriptCore never pauses there.
    fn brace_breakpoint_remark(&self, kind: &DivergenceKind, a: &Output, b: &Output) -> String {
        let (DivergenceKind::PauseLocation, Output::Paused(x), Output::Paused(y)) = (kind, a, b)
        else {
            return String::new();
        };
        if x.location == y.location || self.program.language != Language::JavaScript {
            return String::new();
        }
        let exits = self
            .exits
            .get_or_init(|| Exits::scan(&self.program.text))
            .as_ref();
        let at_brace = |p: &morphtrace_schema::PauseState| {
            matches!(p.reason, morphtrace_schema::PauseReason::Breakpoint { .. })
                && p.location.column > 0
                && exits.is_some_and(|e| e.closing_brace_exactly_at(p.location))
        };
        let Some(side) = Side::alone(at_brace(x), at_brace(y)) else {
            return String::new();
        };
        Remark::AtAnIndentedBrace { side }.to_string()
    }

    /// Whether `detail` says that one side lacks a binding the program declares with `let`,
    /// `const` or `class` (`v only on the second side`).
    fn lexical_on_one_side(&self, detail: &str) -> bool {
        let Some((name, _)) = one_sided(detail) else {
            return false;
        };
        let nodes = self
            .nodes
            .get_or_init(|| morphtrace_js::nodes::LineNodes::compute(&self.program.text));
        let binding = nodes.binding(name).unwrap_or_default();
        matches!(
            binding.strip_prefix("unreferenced ").unwrap_or(&binding),
            "let" | "const" | "class"
        )
    }

    /// Where one side's step stopped in a class member's parameter list while that class is
    /// being defined (its caller's frame stands on the class's first line): no code of the member
    /// runs then (`IN_PARAMETERS_WHILE_DEFINED`; JavaScriptCore after a static block).
    fn class_definition_remark(
        &self,
        kind: &DivergenceKind,
        action: &Action,
        a: &Output,
        b: &Output,
    ) -> String {
        if *kind != DivergenceKind::PauseLocation
            || !matches!(
                action,
                Action::StepInto | Action::StepOver | Action::StepOut
            )
            || self.program.language != Language::JavaScript
        {
            return String::new();
        }
        let (Output::Paused(x), Output::Paused(y)) = (a, b) else {
            return String::new();
        };
        let Some(classes) = self
            .class_params
            .get_or_init(|| ClassParams::scan(&self.program.text))
            .as_ref()
        else {
            return String::new();
        };
        let defining = |p: &morphtrace_schema::PauseState| {
            p.stack.get(1).is_some_and(|caller| {
                classes.class_of_params_at(p.location) == Some(caller.location.line)
            })
        };
        let Some(side) = Side::alone(defining(x), defining(y)) else {
            return String::new();
        };
        Remark::InParametersWhileDefined { side }.to_string()
    }

    /// Where one side's step stopped where a `class … extends …` declaration begins and the
    /// other's, in the same frames, went past the declaration (`AT_A_HERITAGE`).
    fn heritage_remark(
        &self,
        kind: &DivergenceKind,
        action: &Action,
        a: &Output,
        b: &Output,
    ) -> String {
        if *kind != DivergenceKind::PauseLocation
            || !matches!(action, Action::StepInto | Action::StepOver)
            || self.program.language != Language::JavaScript
        {
            return String::new();
        }
        let (Output::Paused(x), Output::Paused(y)) = (a, b) else {
            return String::new();
        };
        let same_frames = same_frames(x, y);
        let Some(heritages) = self
            .heritages
            .get_or_init(|| Heritages::scan(&self.program.text))
            .as_ref()
            .filter(|_| same_frames)
        else {
            return String::new();
        };
        let past = |at: &morphtrace_schema::PauseState, other: &morphtrace_schema::PauseState| {
            heritages
                .declaration_at(at.location)
                .is_some_and(|end| other.location >= end)
        };
        let side = if past(x, y) {
            Side::First
        } else if past(y, x) {
            Side::Second
        } else {
            return String::new();
        };
        Remark::AtAHeritage { side }.to_string()
    }

    /// Where one side shows a class's own name uninitialized inside that class, and the other
    /// shows it optimized out or as a function (`OWN_NAME_UNINITIALIZED`): the class binds its
    /// name in a scope of its own, which V8 leaves out where nothing in the class refers to it,
    /// showing the outer binding (in its dead zone while the class is being defined).
    fn own_name_remark(
        &self,
        kind: &DivergenceKind,
        detail: &str,
        a: &Output,
        b: &Output,
    ) -> String {
        use morphtrace_judges::dbdb::visible_variables;
        if *kind != DivergenceKind::Variables || self.program.language != Language::JavaScript {
            return String::new();
        }
        let (Output::Paused(x), Output::Paused(y)) = (a, b) else {
            return String::new();
        };
        let Some(name) = morphtrace_judges::difference::variable_name(detail)
            .filter(|n| detail[n.len()..].starts_with(": "))
        else {
            return String::new();
        };
        if x.location.line != y.location.line {
            return String::new();
        }
        let inside = self
            .named_classes
            .get_or_init(|| NamedClasses::scan(&self.program.text))
            .as_ref()
            .is_some_and(|c| c.inside(name, x.location) && c.inside(name, y.location));
        if !inside {
            return String::new();
        }
        let value = |p: &morphtrace_schema::PauseState| {
            visible_variables(p.top_scopes())
                .get(name)
                .map(|v| (*v).clone())
        };
        // The class itself: a function that says no name, or the class's own.
        let unavailable_or_class = |v: &Option<Value>| match v {
            Some(Value::OptimizedOut) => true,
            Some(Value::Object {
                kind: ObjectKind::Function,
                entries,
                ..
            }) => entries.iter().flatten().all(|e| {
                !matches!(&e.key, morphtrace_schema::Key::Name(k) if k == "name")
                    || matches!(&e.value, Value::String(n) if n == name)
            }),
            _ => false,
        };
        let (vx, vy) = (value(x), value(y));
        let side = if vx == Some(Value::Uninitialized) && unavailable_or_class(&vy) {
            Side::First
        } else if vy == Some(Value::Uninitialized) && unavailable_or_class(&vx) {
            Side::Second
        } else {
            return String::new();
        };
        Remark::OwnNameUninitialized { side }.to_string()
    }

    /// Where one side's step into paused again where it stood (the same place and frames), at
    /// the start of a call whose arguments call only built-ins (`AGAIN_BEFORE_A_CALL`):
    /// JavaScriptCore pauses before each call, and the built-in it stepped into has no source.
    fn again_remark(
        &self,
        kind: &DivergenceKind,
        action: &Action,
        before: Option<&morphtrace_schema::PauseState>,
        a: &Output,
        b: &Output,
    ) -> String {
        if *kind != DivergenceKind::PauseLocation
            || *action != Action::StepInto
            || self.program.language != Language::JavaScript
        {
            return String::new();
        }
        let (Some(before), Output::Paused(x), Output::Paused(y)) = (before, a, b) else {
            return String::new();
        };
        let again = |p: &morphtrace_schema::PauseState| {
            p.location == before.location && same_frames(p, before)
        };
        let (side, at) = match (again(x), again(y)) {
            (true, false) => (Side::First, x.location),
            (false, true) => (Side::Second, y.location),
            _ => return String::new(),
        };
        let calls = self
            .built_in_arguments
            .get_or_init(|| BuiltInArguments::scan(&self.program.text));
        match calls {
            Some(c) if c.starts_at(at) => Remark::AgainBeforeACall { side }.to_string(),
            _ => String::new(),
        }
    }

    /// Where two errors of one class differ in their messages alone and neither message is in
    /// the program's text (`EngineWordedMessages`): each engine worded an error it threw itself.
    /// A message the program wrote, shown otherwise by one side, gets no remark.
    fn message_remark(
        &self,
        kind: &DivergenceKind,
        detail: &str,
        a: &Output,
        b: &Output,
        policy: &ComparisonPolicy,
    ) -> String {
        let Some((m, n)) = morphtrace_judges::dbdb::messages_apart_in(kind, detail, a, b, policy)
        else {
            return String::new();
        };
        let written = |m: &str| !m.is_empty() && self.program.text.contains(m);
        if written(&m) || written(&n) {
            String::new()
        } else {
            Remark::EngineWordedMessages.to_string()
        }
    }

    /// Whether the pause action `index` of `trace` stepped from was in a Python generator
    /// expression's frame (CPython names its code `<genexpr>`).
    fn began_in_a_generator_expression(
        &self,
        trace: &morphtrace_schema::Trace,
        index: usize,
    ) -> bool {
        self.program.language == Language::Python
            && morphtrace_judges::dbdb::pause_before(trace, index)
                .and_then(|p| p.stack.first())
                .is_some_and(|top| top.function == "<genexpr>")
    }

    fn all_finished(&self) -> bool {
        self.active().iter().all(|&i| self.finished[i])
    }

    /// The outcome of a session that ran to `end` (its program's end, its action budget): one
    /// that went on past divergences diverged (DBDB counts its first), and says how it ended.
    fn ended(&mut self, end: SessionOutcome) -> SessionOutcome {
        let n = self.rec.divergences.len();
        if n == 0 {
            return end;
        }
        self.rec.notes.push((
            "lockstep ended".into(),
            format!("{} after going on past {n} divergence(s)", end.name()),
        ));
        SessionOutcome::Diverged
    }
}

/// Records one session of `plan` on `engines` (in lockstep when several) within `timeout`,
/// never failing: an engine error, the timeout or the memory bound becomes the outcome, and the
/// engines the session left unusable are restarted. The session stops at its first divergence.
pub async fn record(
    engines: &mut [&mut Box<dyn Engine>],
    refs: &[EngineRef],
    loaded: &Loaded,
    plan: &Plan,
    policy: &ComparisonPolicy,
    timeout: std::time::Duration,
) -> Recording {
    record_under(engines, refs, loaded, plan, policy, None, timeout).await
}

/// [`record`], going on past the divergences `triage` excuses (and, with three engines or more,
/// past a lone suspect) when given.
pub async fn record_under(
    engines: &mut [&mut Box<dyn Engine>],
    refs: &[EngineRef],
    loaded: &Loaded,
    plan: &Plan,
    policy: &ComparisonPolicy,
    triage: Option<&Triage>,
    timeout: std::time::Duration,
) -> Recording {
    let mut rec = Recording::new(refs);
    let result = tokio::time::timeout(
        timeout,
        run_under(
            engines,
            &loaded.file,
            &loaded.program.hash,
            plan,
            policy,
            triage,
            &mut rec,
        ),
    )
    .await;
    let settled = rec.settle(result);
    rec.note_memory_kill(engines.iter().map(|e| e.pid()));
    // Divergences recorded before the session was cut short were judged: the session keeps
    // them (diverged), and says how it ended.
    if !rec.divergences.is_empty() {
        if let Some(reason) = rec.outcome.as_ref().and_then(|o| o.undecided()) {
            let n = rec.divergences.len();
            rec.notes.push((
                "lockstep ended".into(),
                format!("{reason} after going on past {n} divergence(s)"),
            ));
            rec.outcome = Some(SessionOutcome::Diverged);
        }
    }
    for i in settled.unwrap_or_else(|| (0..engines.len()).collect()) {
        if let Err(e) = engines[i].restart().await {
            tracing::error!("restarting {}: {e}", engines[i].descriptor().label());
        }
    }
    rec
}

/// Where, after a resume from a place both sides stood at (`before`, by line), one side went on
/// past it from a pause a step had brought it to (`came_by`: each side's control action before
/// this one) and the other stopped there again at a breakpoint (`PassedWhereItStood`): the shape
/// of Firefox's devtools server passing a breakpoint at the prior pause's place when that pause
/// was not a breakpoint's own (a step's that landed there).
fn passed_remark(
    kind: &DivergenceKind,
    action: &Action,
    before: [Option<&morphtrace_schema::PauseState>; 2],
    came_by: [Option<&Action>; 2],
    outputs: [&Output; 2],
) -> String {
    use morphtrace_schema::PauseReason;
    if !matches!(
        kind,
        DivergenceKind::PauseLocation | DivergenceKind::Termination
    ) || *action != Action::Resume
    {
        return String::new();
    }
    let [Some(x), Some(y)] = before else {
        return String::new();
    };
    // Places by line, as pause locations compare by default (engines put a statement's pause
    // at different columns).
    if x.location.line != y.location.line {
        return String::new();
    }
    let stopped_there = |o: &Output| {
        matches!(o, Output::Paused(p)
            if p.location.line == x.location.line
                && matches!(p.reason, PauseReason::Breakpoint { .. }))
    };
    let (side, came) = match (stopped_there(outputs[0]), stopped_there(outputs[1])) {
        (false, true) => (Side::First, came_by[0]),
        (true, false) => (Side::Second, came_by[1]),
        _ => return String::new(),
    };
    if !matches!(
        came,
        Some(Action::StepInto | Action::StepOver | Action::StepOut)
    ) {
        return String::new();
    }
    Remark::PassedWhereItStood { side }.to_string()
}

/// The last control action (one that runs the program) of `trace` before its action `index`.
fn last_control(trace: &morphtrace_schema::Trace, index: usize) -> Option<&Action> {
    trace
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Action(a) => Some(a),
            _ => None,
        })
        .take(index)
        .filter(|a| a.is_control())
        .last()
}

/// The remark of a divergence after a step that began in a generator (`place`), given the two
/// sides' answers: which side a breakpoint stopped where the other's step ended (bdb's `next`
/// can lose a generator's frame and run on to the next breakpoint), then where in the generator
/// the step began, or that it ended before that side stopped (pdb's driver says so in the
/// pause's engine reason).
fn generator_remark(place: InGenerator, a: &Output, b: &Output) -> String {
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

/// Runs one session of `program` on `engines` (1 = single debugger, 2+ = differential lockstep),
/// stopping at the first divergence. Everything observed is in `rec`, also when this returns an
/// error or is cancelled. Returns the indices of engines that must be restarted.
pub async fn run(
    engines: &mut [&mut Box<dyn Engine>],
    program: &ProgramFile,
    program_hash: &morphtrace_schema::ProgramHash,
    plan: &Plan,
    policy: &ComparisonPolicy,
    rec: &mut Recording,
) -> Result<Vec<usize>, DebuggerError> {
    run_under(engines, program, program_hash, plan, policy, None, rec).await
}

/// [`run`], going on past the divergences `triage` excuses when given.
pub async fn run_under(
    engines: &mut [&mut Box<dyn Engine>],
    program: &ProgramFile,
    program_hash: &morphtrace_schema::ProgramHash,
    plan: &Plan,
    policy: &ComparisonPolicy,
    triage: Option<&Triage>,
    rec: &mut Recording,
) -> Result<Vec<usize>, DebuggerError> {
    let labels: Vec<String> = engines.iter().map(|e| e.descriptor().label()).collect();
    // Runs of the program without pausing, where a rule excuses only what the program itself
    // computes differently (before any session opens: Firefox has one at a time).
    // (JavaScript: a Python program's run reads no globals and is never comparable.)
    let computed = if engines.len() > 1
        && program.language == Language::JavaScript
        && triage.is_some_and(|t| t.asks_what_programs_compute())
    {
        computes::on_each(engines, program).await
    } else {
        vec![None; engines.len()]
    };
    let mut opened = Vec::with_capacity(engines.len());
    for e in engines.iter_mut() {
        opened.push(e.open(program).await?);
    }
    if opened.iter().any(|o| o.is_err()) {
        // A program that does not compile is a program outcome, not a harness failure; if only
        // some engines refuse it, that is a termination divergence at `Start`.
        let mut outputs = Vec::new();
        for (i, o) in opened.into_iter().enumerate() {
            rec.push(i, EventKind::Action(Action::Start));
            let out = match o {
                Err(s) => Output::Finished {
                    outcome: ProgramOutcome::SyntaxError {
                        message: s.message,
                        location: s.location,
                    },
                },
                Ok(d) => {
                    d.close().await;
                    Output::Error {
                        message: "the program compiled here".into(),
                    }
                }
            };
            rec.push(i, EventKind::Output(out.clone()));
            outputs.push(out);
        }
        rec.actions = 1;
        rec.outcome = Some(SessionOutcome::Finished);
        if outputs.iter().any(|o| matches!(o, Output::Error { .. })) {
            rec.diverged(Divergence {
                kind: morphtrace_schema::DivergenceKind::Termination,
                action_index: 0,
                action: Action::Start,
                sides: rec
                    .traces
                    .iter()
                    .zip(outputs)
                    .map(|(t, o)| DivergenceSide {
                        engine: t.engine,
                        output: Some(o),
                    })
                    .collect(),
                detail: "the program compiles on one side only".into(),
                groups: Vec::new(),
                suspect: None,
                continued: None,
                program_differs: None,
                pairs: Vec::new(),
                facts: Vec::new(),
            });
            rec.outcome = Some(SessionOutcome::Diverged);
        }
        return Ok(Vec::new());
    }
    let debuggers: Vec<Box<dyn Debugger>> = opened.into_iter().filter_map(Result::ok).collect();
    let n = debuggers.len();
    let mut ls = Lockstep {
        debuggers,
        rec,
        policy,
        finished: vec![false; n],
        active: vec![true; n],
        triggers: vec![TriggerLines::default(); n],
        trigger: None,
        // One engine has nothing to diverge from.
        go_on: triage
            .filter(|_| n > 1)
            .map(|t| continuation::GoOn::new(t, labels, &program.text, program.language)),
        stopped: false,
        quiet_logpoints: Default::default(),
        met_in_resync: Vec::new(),
        undone: false,
        computed,
        program,
        exits: std::sync::OnceLock::new(),
        order: std::sync::OnceLock::new(),
        class_params: std::sync::OnceLock::new(),
        heritages: std::sync::OnceLock::new(),
        named_classes: std::sync::OnceLock::new(),
        built_in_arguments: std::sync::OnceLock::new(),
        head_iterables: std::sync::OnceLock::new(),
        discriminants: std::sync::OnceLock::new(),
        nodes: std::sync::OnceLock::new(),
    };
    let result = match plan {
        Plan::Random { params, seed } => {
            // Names an assignment cannot change: never set where one debugger sets by a request
            // of its own (CDP's changes them, an assignment throws: the difference would be the
            // two ways, not an engine's); where all assign, they are fair game.
            let by_assignment = ls.debuggers.iter().all(|d| d.sets_by_assignment());
            let fixed = if params.set_variable_weight > 0.0 && !by_assignment {
                crate::syntax::tdz::Declarations::scan(&program.text)
            } else {
                Default::default()
            };
            random(&mut ls, program, params, *seed, program_hash, &fixed).await
        }
        Plan::Replay { actions } => replay(&mut ls, actions).await,
        Plan::Truth { seed, max_points } => {
            truth::session(&mut ls, program, *seed, program_hash, *max_points).await
        }
        // Two replays, recorded one after the other by the campaign (`steps::plans`).
        Plan::Steps { .. } => Err(DebuggerError::Protocol(
            "a steps session records its two traces as replays (steps::plans)".into(),
        )),
    };
    if let Err(e) = &result {
        ls.rec.outcome = Some(SessionOutcome::HarnessError {
            message: e.to_string(),
        });
    }
    let consoles: Vec<Vec<String>> = ls.debuggers.iter().map(|d| d.console()).collect();
    let mut restart = Vec::new();
    for (i, d) in ls.debuggers.into_iter().enumerate() {
        if !d.close().await {
            restart.push(i);
        }
    }
    for (t, c) in ls.rec.traces.iter_mut().zip(consoles) {
        t.console = c;
    }
    result?;
    Ok(restart)
}

async fn random(
    ls: &mut Lockstep<'_>,
    program: &ProgramFile,
    params: &RandomParams,
    seed: u64,
    program_hash: &morphtrace_schema::ProgramHash,
    fixed: &crate::syntax::tdz::Declarations,
) -> Result<(), DebuggerError> {
    let mut rng = rng_for(seed, program_hash);
    let (lines, language) = (program.lines.max(1), program.language);
    let max_bps = ((lines as f64) * params.bp_per_line)
        .round()
        .clamp(1.0, params.max_breakpoints.max(1) as f64) as usize;
    let mut bps: BTreeSet<u32> = BTreeSet::new();
    let mut attempts = 0;
    let placeable = if params.placeable_lines {
        ls.placeable_lines(lines).await?
    } else {
        None
    };
    // Algorithm 1, lines 2-15: breakpoints at random lines, some removed again.
    while bps.len() < max_bps && attempts < 10 * max_bps + 10 {
        attempts += 1;
        let line = match &placeable {
            Some(p) if p.is_empty() => break,
            Some(p) => p[rng.random_range(0..p.len())],
            None => rng.random_range(0..lines),
        };
        if bps.contains(&line) {
            continue;
        }
        let outs = ls
            .apply(&Action::SetBreakpoint { line, column: None })
            .await?;
        if ls.stopped {
            return Ok(());
        }
        if ls.undone {
            // An excused placement: removed again on every engine; the generator moves on.
            continue;
        }
        let id = match outs.first() {
            Some(Output::BreakpointSet { id, .. }) => Some(*id),
            _ => None,
        };
        match id {
            Some(id) if rng.random_bool(params.remove_prob) => {
                ls.apply(&Action::RemoveBreakpoint { id }).await?;
                if ls.stopped {
                    return Ok(());
                }
            }
            _ => {
                bps.insert(line);
                for o in &outs {
                    if let Output::BreakpointSet { actual, .. } = o {
                        bps.extend(actual.iter().map(|l| l.line));
                    }
                }
            }
        }
    }
    // Beyond Algorithm 1: which exceptions pause, before the program starts.
    if let Some(choice) = params.exceptions {
        use morphtrace_schema::ExceptionPause;
        let mode = match choice {
            ExceptionChoice::Fixed(m) => m,
            ExceptionChoice::Random => [
                ExceptionPause::None,
                ExceptionPause::Uncaught,
                ExceptionPause::All,
            ][rng.random_range(0..3)],
        };
        ls.apply(&Action::PauseOnExceptions { mode }).await?;
        if ls.stopped {
            return Ok(());
        }
    }
    // Lines 16-27: start, then random control actions while the program runs.
    ls.apply(&Action::Start).await?;
    let mut used = 1;
    let mut carried_set = false;
    loop {
        if ls.stopped {
            return Ok(());
        }
        if ls.all_finished() {
            ls.rec.outcome = Some(ls.ended(SessionOutcome::Finished));
            return Ok(());
        }
        if used >= params.max_actions {
            ls.rec.outcome = Some(ls.ended(SessionOutcome::ActionLimit));
            return Ok(());
        }
        // Carried for set-variable-as-code: the first breakpoint pause with a local to set
        // gets a set before anything else is drawn.
        if params.sets_at_breakpoints && !carried_set {
            let set = ls
                .last_pause()
                .filter(|p| matches!(p.reason, morphtrace_schema::PauseReason::Breakpoint { .. }))
                .and_then(|p| assignment(&p, |n| fixed.fixed(n), &mut rng, language));
            if let Some(a) = set {
                carried_set = true;
                ls.apply(&a).await?;
                used += 1;
                continue;
            }
        }
        // DBDB's draw (four actions alike) unless other actions are weighted in.
        let extra = params.extra_weight();
        let pick = if extra > 0.0 {
            let x = rng.random_range(0.0..4.0 + extra);
            let mut bound = 4.0;
            let mut pick = x as u32;
            if x >= 4.0 {
                // Rounding past the last bound: a step over, as when nothing fits.
                pick = 3;
                for (k, w) in [
                    params.evaluate_weight,
                    params.condition_weight,
                    params.logpoint_weight,
                    params.set_variable_weight,
                    params.continue_weight,
                    params.restart_weight,
                ]
                .into_iter()
                .enumerate()
                {
                    bound += w;
                    if x < bound {
                        pick = 4 + k as u32;
                        break;
                    }
                }
            }
            pick
        } else {
            rng.random_range(0..4)
        };
        let action = match pick {
            0 => Action::Resume,
            1 => Action::StepInto,
            2 => Action::StepOut,
            3 => Action::StepOver,
            4 => match ls.last_pause().and_then(|p| expression(&p, &mut rng)) {
                Some(expression) => Action::Evaluate { expression },
                // Nothing to evaluate here: a control action instead.
                None => Action::StepOver,
            },
            5 => match ls
                .last_pause()
                .and_then(|p| conditional(&p, lines, &bps, &mut rng, language))
            {
                Some(a) => {
                    bps.extend(a.breakpoint_line());
                    a
                }
                None => Action::StepOver,
            },
            6 => match ls
                .last_pause()
                .and_then(|p| logpoint(&p, lines, &bps, &mut rng))
            {
                Some(a) => {
                    bps.extend(a.breakpoint_line());
                    a
                }
                None => Action::StepOver,
            },
            7 => match ls.last_pause() {
                Some(p)
                    if params.sets_at_breakpoints
                        && !matches!(
                            p.reason,
                            morphtrace_schema::PauseReason::Breakpoint { .. }
                        ) =>
                {
                    Action::Resume
                }
                p => match p.and_then(|p| assignment(&p, |n| fixed.fixed(n), &mut rng, language)) {
                    Some(a) => a,
                    None => Action::StepOver,
                },
            },
            // Continue to a line below the pause, where every debugger can.
            8 => match ls.last_pause().filter(|_| ls.continues_to_location()) {
                Some(p) if p.location.line.saturating_add(1) < lines => {
                    let from = p.location.line + 1;
                    Action::ContinueToLocation {
                        line: rng.random_range(from..lines.min(from.saturating_add(10))),
                    }
                }
                _ => Action::StepOver,
            },
            // Restart a function's frame (not the top-level code's), where every debugger can.
            _ => match ls.last_pause().filter(|_| ls.restarts_frames()) {
                Some(p) => {
                    let functions: Vec<u32> = p
                        .stack
                        .iter()
                        .enumerate()
                        .filter(|(_, f)| !f.function.is_empty())
                        .map(|(i, _)| i as u32)
                        .collect();
                    match functions.len() {
                        0 => Action::StepOver,
                        n => Action::RestartFrame {
                            frame: functions[rng.random_range(0..n)],
                        },
                    }
                }
                None => Action::StepOver,
            },
        };
        ls.apply(&action).await?;
        used += 1;
    }
}

/// A conditional breakpoint to set at a pause: on one of the ten lines below it that has no
/// breakpoint yet, the condition over a number local the pause shows (`n > K`, `n <= K`,
/// `n % 2 === 0`, K near its value now), so that it holds at some of the later passes.
pub fn conditional(
    p: &morphtrace_schema::PauseState,
    lines: u32,
    bps: &BTreeSet<u32>,
    rng: &mut ChaCha8Rng,
    language: Language,
) -> Option<Action> {
    use morphtrace_schema::Value;
    let numbers: Vec<(&str, f64)> = morphtrace_judges::dbdb::visible_variables(p.top_scopes())
        .into_iter()
        .filter_map(|(n, v)| match v {
            Value::Number(x) if x.is_finite() && x.fract() == 0.0 && spellable(n) => Some((n, *x)),
            _ => None,
        })
        .collect();
    let from = p.location.line.saturating_add(1);
    let free: Vec<u32> = (from..lines.min(from.saturating_add(10)))
        .filter(|l| !bps.contains(l))
        .collect();
    if numbers.is_empty() || free.is_empty() {
        return None;
    }
    let (name, now) = numbers[rng.random_range(0..numbers.len())];
    let k = now as i64 + rng.random_range(-1..=2);
    let condition = match rng.random_range(0..3) {
        0 => format!("{name} > {k}"),
        1 => format!("{name} <= {k}"),
        _ if language == Language::Python => format!("{name} % 2 == 0"),
        _ => format!("{name} % 2 === 0"),
    };
    Some(Action::SetConditionalBreakpoint {
        line: free[rng.random_range(0..free.len())],
        condition,
        column: None,
    })
}

/// A variable to set at a pause: a local of the top frame that the pause shows holding a
/// primitive (a number, string, boolean or null), set to another such value (`literal`).
/// `None` when the pause shows none.
pub fn assignment(
    p: &morphtrace_schema::PauseState,
    fixed: impl Fn(&str) -> bool,
    rng: &mut ChaCha8Rng,
    language: Language,
) -> Option<Action> {
    use morphtrace_schema::Value;
    let vars: Vec<(&str, &Value)> = morphtrace_judges::dbdb::visible_variables(p.top_scopes())
        .into_iter()
        .filter(|(n, v)| {
            spellable(n)
                && !fixed(n)
                && matches!(
                    v,
                    Value::Number(_) | Value::String(_) | Value::Bool(_) | Value::Null
                )
        })
        .collect();
    if vars.is_empty() {
        return None;
    }
    let (name, now) = vars[rng.random_range(0..vars.len())];
    Some(Action::SetVariable {
        name: name.to_string(),
        value: other_literal(now, rng, language),
    })
}

/// A primitive literal whose value differs from `now` and is of its type when it can be (a
/// number near it, a string with a letter more, the other boolean), spelled in the program's
/// language (JSON's spelling is JavaScript's; Python's booleans are capitalized).
pub fn other_literal(
    now: &morphtrace_schema::Value,
    rng: &mut ChaCha8Rng,
    language: Language,
) -> String {
    use morphtrace_schema::Value;
    match now {
        Value::Number(x) if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e15 => {
            let d = [1i64, -1, 7, 100][rng.random_range(0..4)];
            (*x as i64 + d).to_string()
        }
        Value::Number(_) => "0".into(),
        Value::String(s) => {
            let mut t: String = s.chars().take(20).collect();
            t.push(['a', 'z', '0'][rng.random_range(0..3)]);
            serde_json::Value::String(t).to_string()
        }
        Value::Bool(b) if language == Language::Python => {
            if *b { "False" } else { "True" }.to_string()
        }
        Value::Bool(b) => (!b).to_string(),
        _ => rng.random_range(0..100).to_string(),
    }
}

/// A logpoint to set at a pause: on one of the ten lines below it that has no breakpoint of
/// ours, logging an expression over what the pause shows (`expression`).
pub fn logpoint(
    p: &morphtrace_schema::PauseState,
    lines: u32,
    bps: &BTreeSet<u32>,
    rng: &mut ChaCha8Rng,
) -> Option<Action> {
    let from = p.location.line.saturating_add(1);
    let free: Vec<u32> = (from..lines.min(from.saturating_add(10)))
        .filter(|l| !bps.contains(l))
        .collect();
    if free.is_empty() {
        return None;
    }
    let line = free[rng.random_range(0..free.len())];
    Some(Action::SetLogpoint {
        line,
        expression: expression(p, rng)?,
        column: None,
    })
}

/// Whether an expression can name this binding (engines list some under other names).
pub(crate) fn spellable(n: &str) -> bool {
    let mut c = n.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_' || f == '$')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_' || x == '$')
}

/// An expression to evaluate at a pause, from what the pause shows (its top frame's visible
/// variables): a local's name, a member of an object local, arithmetic over two number locals,
/// or a comparison of a number local with a constant. `None` when no variable is visible.
pub fn expression(p: &morphtrace_schema::PauseState, rng: &mut ChaCha8Rng) -> Option<String> {
    use morphtrace_schema::{Key, Value};
    let vars = morphtrace_judges::dbdb::visible_variables(p.top_scopes());
    let plain = spellable;
    let named: Vec<(&str, &Value)> = vars
        .into_iter()
        .filter(|(n, v)| plain(n) && !matches!(v, Value::Uninitialized))
        .collect();
    if named.is_empty() {
        return None;
    }
    let numbers: Vec<&str> = named
        .iter()
        .filter(|(_, v)| matches!(v, Value::Number(_)))
        .map(|(n, _)| *n)
        .collect();
    let members: Vec<(&str, &str)> = named
        .iter()
        .filter_map(|(n, v)| match v {
            Value::Object {
                entries: Some(e), ..
            } => e.iter().find_map(|e| match &e.key {
                Key::Name(k) if plain(k) => Some((*n, k.as_str())),
                _ => None,
            }),
            _ => None,
        })
        .collect();
    Some(match rng.random_range(0..4) {
        1 if !members.is_empty() => {
            let (o, k) = members[rng.random_range(0..members.len())];
            format!("{o}.{k}")
        }
        2 if !numbers.is_empty() => {
            let a = numbers[rng.random_range(0..numbers.len())];
            let b = numbers[rng.random_range(0..numbers.len())];
            let op = ["+", "-", "*"][rng.random_range(0..3)];
            format!("{a} {op} {b}")
        }
        3 if !numbers.is_empty() => {
            let a = numbers[rng.random_range(0..numbers.len())];
            format!("{a} < {}", rng.random_range(0..10))
        }
        _ => named[rng.random_range(0..named.len())].0.to_string(),
    })
}

async fn replay(ls: &mut Lockstep<'_>, actions: &[Action]) -> Result<(), DebuggerError> {
    for a in actions {
        if a.is_control() && ls.all_finished() {
            break;
        }
        ls.apply(a).await?;
        if ls.stopped {
            return Ok(());
        }
    }
    let end = if ls.all_finished() {
        SessionOutcome::Finished
    } else {
        SessionOutcome::ActionLimit
    };
    ls.rec.outcome = Some(ls.ended(end));
    Ok(())
}

/// Where a second run of the same actions on the same program answered differently from the
/// first (the first differing event, or the console), `None` if it did not: a program or engine
/// that is not deterministic makes any comparison with another run meaningless.
pub fn difference(first: &Trace, second: &Trace) -> Option<String> {
    let short = |k: Option<&EventKind>| {
        let s = match k {
            Some(k) => format!("{k:?}"),
            None => "nothing".into(),
        };
        s.chars().take(160).collect::<String>()
    };
    let n = first.events.len().max(second.events.len());
    for i in 0..n {
        let a = first.events.get(i).map(|e| &e.kind);
        let b = second.events.get(i).map(|e| &e.kind);
        if a != b {
            return Some(format!("event {i}: {} then {}", short(a), short(b)));
        }
    }
    (first.console != second.console).then(|| "the console output".into())
}

/// The program outcome a trace ended with, if it ended.
pub fn program_outcome(trace: &Trace) -> Option<&ProgramOutcome> {
    trace.outputs().find_map(|o| match o {
        Output::Finished { outcome } => Some(outcome),
        _ => None,
    })
}

/// Tasks of a `random` (one engine per session) or `differential` (all engines in lockstep)
/// campaign: every program × seed (× engine for `random`).
pub fn generation_tasks(
    specs: &[EngineSpec],
    programs: &[Loaded],
    seeds: &[u64],
    differential: bool,
    params: &RandomParams,
) -> Vec<Task> {
    let (name, mode) = if differential {
        ("differential", SessionMode::Differential)
    } else {
        ("random", SessionMode::Random)
    };
    tasks_over(specs, programs, seeds, differential, name, mode, |seed| {
        Plan::Random {
            params: params.clone(),
            seed,
        }
    })
}

/// Every program × seed, on all engines in lockstep (`together`) or on each engine alone, as
/// strategy `name` with the plan `plan` gives for a seed.
pub fn tasks_over(
    specs: &[EngineSpec],
    programs: &[Loaded],
    seeds: &[u64],
    together: bool,
    name: &str,
    mode: SessionMode,
    plan: impl Fn(u64) -> Plan,
) -> Vec<Task> {
    let sets: Vec<Vec<usize>> = if together {
        vec![(0..specs.len()).collect()]
    } else {
        (0..specs.len()).map(|i| vec![i]).collect()
    };
    let mut tasks = Vec::new();
    for (pi, p) in programs.iter().enumerate() {
        for &seed in seeds {
            for set in &sets {
                let labels: Vec<String> = set.iter().map(|&i| specs[i].to_string()).collect();
                tasks.push(Task {
                    id: session_key(name, &labels, &p.program.hash.to_string(), seed),
                    program: pi,
                    seed,
                    engines: set.clone(),
                    plan: plan(seed),
                    mode: mode.clone(),
                    parent: None,
                    notes: vec![],
                    chain: None,
                });
            }
        }
    }
    tasks
}

/// The name a variables divergence says only one side shows (`v only on the first side`), and
/// whether that is the first side.
fn one_sided(detail: &str) -> Option<(&str, bool)> {
    detail
        .strip_suffix(" only on the first side")
        .map(|n| (n, true))
        .or_else(|| {
            detail
                .strip_suffix(" only on the second side")
                .map(|n| (n, false))
        })
}

/// Whether two pauses are in the same functions, frame by frame (where they stand in them
/// aside).
fn same_frames(x: &morphtrace_schema::PauseState, y: &morphtrace_schema::PauseState) -> bool {
    x.stack.len() == y.stack.len()
        && x.stack
            .iter()
            .zip(&y.stack)
            .all(|(f, g)| f.function == g.function)
}

#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::{
        Entry, Frame, Key, Location, ObjectKind, PauseReason, PauseState, Scope, ScopeKind, Value,
        Variable,
    };
    use rand::SeedableRng;

    fn var(name: &str, value: Value) -> Variable {
        Variable {
            name: name.into(),
            value,
            reported: None,
        }
    }

    /// Expressions come from what the pause shows: names it can spell, numbers for arithmetic,
    /// an object's member; never a binding in its temporal dead zone. Same seed, same draws.
    #[test]
    fn evaluations_are_drawn_from_the_pause() {
        let point = Value::Object {
            kind: ObjectKind::Object,
            class: "Object".into(),
            description: None,
            entries: Some(vec![Entry {
                key: Key::Name("x".into()),
                value: Value::Number(1.0),
            }]),
            truncated: false,
        };
        let pause = PauseState {
            location: Location::new(3, 0),
            reason: PauseReason::Step,
            engine_reason: None,
            stack: vec![Frame {
                function: "f".into(),
                location: Location::new(3, 0),
                scopes: vec![Scope {
                    kind: ScopeKind::Local,
                    name: None,
                    variables: vec![
                        var("a", Value::Number(2.0)),
                        var("b", Value::Number(3.0)),
                        var("p", point),
                        var("later", Value::Uninitialized),
                        var("4", Value::Undefined),
                    ],
                }],
            }],
            exception: None,
            condition: None,
            async_stack: None,
        };
        let draw = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..200)
                .map(|_| expression(&pause, &mut rng).unwrap())
                .collect::<Vec<_>>()
        };
        let drawn = draw(1);
        assert_eq!(drawn, draw(1));
        let shapes: BTreeSet<&str> = drawn
            .iter()
            .map(|e| match e.as_str() {
                "a" | "b" | "p" => "local",
                "p.x" => "member",
                e if e.contains(" < ") => "comparison",
                e if [" + ", " - ", " * "].iter().any(|o| e.contains(o)) => "arithmetic",
                other => panic!("an expression the pause does not show: {other}"),
            })
            .collect();
        assert_eq!(shapes.len(), 4, "{shapes:?}");
        let empty = PauseState {
            stack: vec![],
            ..pause
        };
        assert_eq!(expression(&empty, &mut ChaCha8Rng::seed_from_u64(1)), None);
    }
}
