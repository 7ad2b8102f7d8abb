//! The lockstep core of every session (docs/architecture.md): the session's debuggers, each action
//! applied to every engine still in step at once, the answers recorded and compared, a divergence
//! recorded and, where the triage excuses it, gone on past (`continuation`). With one debugger it
//! records and compares nothing: every single-engine strategy drives the same core.

use super::computes;
use super::continuation;
use super::facts::ProgramFacts;
use super::quirks::generators::{
    began_in_a_generator_expression, generator_remark, generator_the_step_began_in,
};
use super::quirks::{interrupted_step, last_control, quiet_breakpoints, Answers, Recognizer};
use super::{Recording, MAX_DIVERGENCES_PER_ACTION, MET_IN_RESYNC};
use crate::debugger::{Debugger, DebuggerError, ProgramFile};
use futures_util::future::join_all;
use morphtrace_judges::dbdb::{compare_answers, ComparisonPolicy};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::trace::TriggerLines;
use morphtrace_schema::ProgramHash;
use morphtrace_schema::{
    Action, ConditionCheck, Divergence, DivergenceKind, DivergencePair, DivergenceSide, Event,
    EventKind, Location, Output, SessionOutcome, Trace,
};
use morphtrace_syntax::js::exits::Exits;
use morphtrace_syntax::js::order::ExecutionOrder;
use std::collections::BTreeSet;
use std::sync::Arc;

/// The session's debuggers in lockstep, and what the session recorded and learnt so far.
/// Strategies drive it through [`Lockstep::apply`] and read it through the methods below.
pub struct Lockstep<'a> {
    pub(super) debuggers: Vec<Box<dyn Debugger>>,
    pub(super) rec: &'a mut Recording,
    pub(super) policy: &'a ComparisonPolicy,
    pub(super) finished: Vec<bool>,
    /// Engines still in lockstep: a lone suspect is left out when it stands alone.
    pub(super) active: Vec<bool>,
    /// Where each engine's actions are triggered (its own trace's outputs so far).
    pub(super) triggers: Vec<TriggerLines>,
    /// The line the current action was triggered at, on the first engine in lockstep (the
    /// class key's AST node is that line's).
    pub(super) trigger: Option<u32>,
    /// The triage the session goes on under; `None`: it stops at the first divergence.
    pub(super) go_on: Option<continuation::GoOn<'a>>,
    /// Stopped at a divergence it could not go on past.
    pub(super) stopped: bool,
    /// Logpoints whose logs a known bug gone past set apart (by the request that set them): what they log
    /// later is that bug's echo (a tracer that logs at the next action what it did not log at
    /// this one), so it is not compared again; every other logpoint's is.
    pub(super) quiet_logpoints: std::collections::BTreeSet<morphtrace_judges::dbdb::Logpoint>,
    /// Where the engines stood apart after a whole round of the steps that brought them back
    /// in step past a divergence, before they met (engine order, the engines in lockstep):
    /// places the rule's account did not predict, compared and recorded once they meet.
    pub(super) met_in_resync: Vec<Vec<Output>>,
    /// The last action's breakpoint was removed again on every engine (an excused placement).
    pub(super) undone: bool,
    /// What the program computes on each engine without pausing, when the triage asks
    /// (`computes`): a divergence between engines whose runs differ says so.
    pub(super) computed: Vec<Option<computes::Computed>>,
    /// The program under test (a divergence's remarks read its syntax).
    pub(super) program: &'a ProgramFile,
    pub(super) program_hash: &'a ProgramHash,
    /// What the remarks read from the program's syntax, parsed at the first divergence that asks.
    pub(super) facts: ProgramFacts<'a>,
}

impl<'a> Lockstep<'a> {
    /// The core over `debuggers` opened on `program`, in step from the start.
    pub(super) fn new(
        debuggers: Vec<Box<dyn Debugger>>,
        rec: &'a mut Recording,
        policy: &'a ComparisonPolicy,
        go_on: Option<continuation::GoOn<'a>>,
        computed: Vec<Option<computes::Computed>>,
        program: &'a ProgramFile,
        program_hash: &'a ProgramHash,
    ) -> Lockstep<'a> {
        let n = debuggers.len();
        Lockstep {
            debuggers,
            rec,
            policy,
            finished: vec![false; n],
            active: vec![true; n],
            triggers: vec![TriggerLines::default(); n],
            trigger: None,
            go_on,
            stopped: false,
            quiet_logpoints: Default::default(),
            met_in_resync: Vec::new(),
            undone: false,
            computed,
            program,
            program_hash,
            facts: ProgramFacts::new(&program.text, program.language),
        }
    }

    /// The program under test (borrowed for the session, not from the core).
    pub fn program(&self) -> &'a ProgramFile {
        self.program
    }

    /// The program's hash (a strategy's seeded generator is the seed's and the program's).
    pub fn program_hash(&self) -> &'a ProgramHash {
        self.program_hash
    }
}

impl Lockstep<'_> {
    /// Where the program's functions are and return (JavaScript that parses).
    pub(super) fn exits(&self) -> Option<Arc<Exits>> {
        self.facts.get()
    }

    /// What recognizes known shapes in this session's divergences.
    pub(super) fn recognizer(&self) -> Recognizer<'_> {
        Recognizer {
            program: self.program,
            facts: &self.facts,
        }
    }

    /// The order the program's code runs in where it is not the source's, if the program is
    /// JavaScript that parses.
    pub(super) fn order(&self) -> Option<Arc<ExecutionOrder>> {
        self.facts.get()
    }

    /// The session's debuggers, in engine order (what each can do).
    pub fn debuggers(&self) -> &[Box<dyn Debugger>] {
        &self.debuggers
    }

    /// The recording so far (its traces, its divergences).
    pub fn recording(&self) -> &Recording {
        self.rec
    }

    /// Actions applied so far (the next action's index).
    pub fn actions(&self) -> u32 {
        self.rec.actions
    }

    /// The session stopped at a divergence it could not go on past: the strategy must end.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The last action's breakpoint was removed again on every engine (an excused placement).
    pub fn undone(&self) -> bool {
        self.undone
    }

    /// Ends the session with `outcome` (as the strategy saw it end: the lockstep core adds
    /// that it went on past divergences, when it did).
    pub fn end(&mut self, outcome: SessionOutcome) {
        let outcome = self.ended(outcome);
        self.rec.outcome = Some(outcome);
    }

    /// Ends the session with `outcome` as it is (a strategy's own verdict on the session, such
    /// as a program it cannot run).
    pub fn end_as(&mut self, outcome: SessionOutcome) {
        self.rec.outcome = Some(outcome);
    }

    /// The current pause of the first engine in lockstep, if it is paused.
    pub fn last_pause(&self) -> Option<morphtrace_schema::PauseState> {
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
    pub fn restarts_frames(&self) -> bool {
        self.debuggers.iter().all(|d| d.restarts_frames())
    }

    /// Whether every debugger of the session can continue to a location.
    pub fn continues_to_location(&self) -> bool {
        self.debuggers.iter().all(|d| d.continues_to_location())
    }

    pub(super) fn active(&self) -> Vec<usize> {
        (0..self.debuggers.len())
            .filter(|&i| self.active[i])
            .collect()
    }

    /// Records an output of engine `i` in its trace.
    pub(super) fn answer(&mut self, i: usize, o: Output, at_us: u64) {
        if matches!(o, Output::Finished { .. }) {
            self.finished[i] = true;
        }
        self.triggers[i].output(&o);
        self.rec.traces[i].events.push(Event {
            at_us,
            kind: EventKind::Output(o),
        });
    }

    pub(super) fn now_us(&self) -> u64 {
        self.rec.start.elapsed().as_micros() as u64
    }

    /// Applies one action to every engine in lockstep at once, records it, and compares the
    /// outputs; a divergence is recorded and, where the triage excuses it, gone on past.
    /// Returns the outputs of the engines in lockstep, in engine order.
    pub async fn apply(&mut self, action: &Action) -> Result<Vec<Output>, DebuggerError> {
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
            let mut quieted = false;
            if !stopped && d.kind == DivergenceKind::Log {
                let side = |k: usize| {
                    let e = d.sides.get(k)?.engine;
                    self.rec.traces.iter().find(|t| t.engine == e)
                };
                if let (Some(a), Some(b)) = (side(0), side(1)) {
                    let apart =
                        morphtrace_judges::dbdb::logs_apart(a, b, index, &self.quiet_logpoints);
                    for l in apart {
                        quieted |= self.quiet_logpoints.insert(l);
                    }
                }
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
            } else if quieted {
                // What the other logpoints logged during the action still compares.
                continue;
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
    pub(super) async fn facts(
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
    pub async fn placeable_lines(&mut self, lines: u32) -> Result<Option<Vec<u32>>, DebuggerError> {
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
    pub(super) async fn check_conditions(
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
    pub(super) fn compare(
        &self,
        active: &[usize],
        outputs: &[Output],
        index: u32,
        action: &Action,
        policy: &ComparisonPolicy,
    ) -> Option<Divergence> {
        // One engine has nothing to differ from.
        if outputs.len() < 2 {
            return None;
        }
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
                .map(|(kind, detail)| {
                    let (trace, own) = side(a);
                    let (trace_b, own_b) = side(b);
                    let answers = Answers {
                        action,
                        outputs: [&outputs[a], &outputs[b]],
                        before: [
                            morphtrace_judges::dbdb::pause_before(trace, own),
                            morphtrace_judges::dbdb::pause_before(trace_b, own_b),
                        ],
                        came_by: [last_control(trace, own), last_control(trace_b, own_b)],
                        interrupted: [
                            interrupted_step(trace, own),
                            interrupted_step(trace_b, own_b),
                        ],
                        quiet: [
                            quiet_breakpoints(trace, own),
                            quiet_breakpoints(trace_b, own_b),
                        ],
                    };
                    let detail = self.recognizer().remark(&kind, detail, &answers, policy);
                    (kind, detail)
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
            .then(|| generator_the_step_began_in(&self.recognizer(), first, own))
            .flatten()
        {
            detail.push_str(&generator_remark(place, &outputs[pair.0], &outputs[pair.1]));
        }
        if kind == DivergenceKind::Log
            && *action == Action::StepOut
            && began_in_a_generator_expression(&self.recognizer(), first, own)
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
    pub fn all_finished(&self) -> bool {
        self.active().iter().all(|&i| self.finished[i])
    }

    /// The outcome of a session that ran to `end` (its program's end, its action budget): one
    /// that went on past divergences diverged (DBDB counts its first), and says how it ended.
    pub(super) fn ended(&mut self, end: SessionOutcome) -> SessionOutcome {
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
