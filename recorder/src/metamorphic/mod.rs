//! Interactive metamorphic testing of one debugger (ISSTA 2019): an initial session, then a chain
//! of follow-ups, each derived from its parent by one transformation of Table 1 and judged
//! against it as soon as it ends. Action transformations that depend on what the debugger does
//! (a step consumed by a new breakpoint, a step that replaced a continue) are decided while the
//! follow-up runs, from the live outputs.

pub mod pure;
pub mod py_source;
pub mod source;

use crate::corpus::{self, Loaded};
use crate::dbdb;
use crate::debugger::engines::EngineSpec;
use crate::debugger::{DebuggerError, Engine};
use crate::profilers::v8::V8Runner;
use crate::session::{Lockstep, Recording, Strategy};
use crate::task::{ChainParams, ChainTask, Pin, Plan, RandomParams, Task};
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_judges::metamorphic::{self as mm, judge, Expectation, PositionMap, Transformation};
use morphtrace_schema::header::now_ms;
use morphtrace_schema::{
    Action, EngineRef, EventKind, ExceptionPause, Language, Location, Output, ParentRef, Program,
    ProgramOrigin, ProgramOutcome, Session, SessionId, SessionMode, SessionOutcome, Trace,
    TransformationRecord, Warning,
};
use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use source::{Analysis, Transformed};
use std::collections::{BTreeMap, BTreeSet, HashSet};
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

fn paused_at(o: &Output) -> Option<Location> {
    match o {
        Output::Paused(p) => Some(p.location),
        _ => None,
    }
}

/// Positions of the parent's control actions that were answered.
fn answered_controls(parent: &[(Action, Option<Output>)]) -> Vec<usize> {
    parent
        .iter()
        .enumerate()
        .filter(|(_, (a, o))| a.is_control() && o.is_some())
        .map(|(i, _)| i)
        .collect()
}

/// Lines of every frame of every pause of the parent: code it is seen running.
fn lines_on_stacks(parent: &[(Action, Option<Output>)]) -> impl Iterator<Item = u32> + '_ {
    parent
        .iter()
        .filter_map(|(_, o)| match o {
            Some(Output::Paused(p)) => Some(p.stack.iter().map(|f| f.location.line)),
            _ => None,
        })
        .flatten()
}

/// The functions on a pause's stack, innermost first (locations move with the program).
fn callers(o: &Output) -> Option<Vec<String>> {
    match o {
        Output::Paused(p) => Some(p.stack.iter().map(|f| f.function.clone()).collect()),
        _ => None,
    }
}

/// A pause where an exception was thrown.
fn thrown_at(o: &Output) -> bool {
    matches!(o, Output::Paused(p) if p.exception.is_some())
}

fn slid(action: &Action, out: &Option<Output>) -> bool {
    match (action, out) {
        (Action::SetBreakpoint { line, column }, Some(Output::BreakpointSet { actual, .. })) => {
            actual
                .first()
                .is_some_and(|a| a.line != *line || column.is_some_and(|c| c != a.column))
        }
        _ => false,
    }
}

/// A follow-up's recipe: the program's position map and the action changes to make.
#[derive(Debug, Clone)]
struct Recipe {
    name: Transformation,
    map: PositionMap,
    /// Program transformations: every breakpoint set at its parent's actual location (implicit
    /// sliding, §3.2.1), so that inserted code cannot capture it.
    slide_all: bool,
    /// Breakpoint sliding: slid breakpoints set at their actual location.
    slide_slid: bool,
    /// Add-breakpoint: before which parent action, at which line.
    new_breakpoint: Option<(usize, u32)>,
    /// The added breakpoint's condition (condition-false): it must never pause, so its line
    /// allows no extra pause.
    new_condition: Option<String>,
    /// A parent breakpoint request (by action index) set with this condition instead.
    conditioned: Option<(usize, String)>,
    /// Parent resumes left out: each left a pause the condition filters away.
    drop_resumes: BTreeSet<usize>,
    /// After which parent action (a pause) which local's name is evaluated.
    evaluate_after: Option<(usize, String)>,
    /// Every exception pauses: parent settings become `all`, and `all` is set before the start.
    exceptions_all: bool,
    /// A parent breakpoint request (by action index) set as a logpoint of this local instead.
    logpoint: Option<(usize, String)>,
    /// Replace-continue: which parent action, by which step.
    replace: Option<(usize, Action)>,
    /// A parent continue to a location (by action index) done as a temporary breakpoint there,
    /// a resume, and the breakpoint removed.
    continue_as_breakpoint: Option<usize>,
    /// A parent set variable (by action index) left out: the program does it (the inserted
    /// line), before the pause (the control action, by index) it was made at.
    set_as_code: Option<(usize, usize)>,
    /// After which parent control action (a pause in a function without side effects) its
    /// frame is restarted, and the parent's control action that entered the function: the
    /// actions after the entry up to the restart's place are issued again.
    restart: Option<(usize, usize)>,
    /// A step that stops on an inserted line is issued again (the new code is real code).
    restep_inserted: bool,
    /// Lines (follow-up coordinates) of code inserted by earlier rounds: dead code whose
    /// condition a later round made non-constant is real code to V8, which then steps there.
    inserted_code: BTreeSet<u32>,
}

/// A follow-up as a strategy of the session core: the parent's actions transformed by a recipe,
/// resynchronized where needed, what the relation expects of it noted as it runs.
struct FollowUpStrategy<'p> {
    parent: &'p [(Action, Option<Output>)],
    recipe: &'p Recipe,
    max_resync: u32,
    expect: Expectation,
}

#[async_trait::async_trait]
impl Strategy for FollowUpStrategy<'_> {
    async fn drive(&mut self, ls: &mut Lockstep<'_>) -> Result<(), DebuggerError> {
        let mut f = FollowUp {
            ls,
            expect: std::mem::take(&mut self.expect),
            astray: None,
            last_throw: None,
            popped_after_a_throw: false,
            stood_at_a_breakpoint: None,
            popped_where_it_stood: false,
        };
        let result = drive(&mut f, self.parent, self.recipe, self.max_resync).await;
        self.expect = std::mem::take(&mut f.expect);
        result
    }
}

/// One follow-up while it runs on its one debugger.
struct FollowUp<'l, 'a> {
    ls: &'l mut Lockstep<'a>,
    expect: Expectation,
    /// Why the follow-up could not be brought back to where the parent went (a temporary
    /// breakpoint the engine would not place there): the session is then undecided, not judged.
    astray: Option<String>,
    /// Where the last pause was, if it was an exception pause.
    last_throw: Option<Location>,
    /// The last pause was Firefox's once more where an exception pause stood, as the throw
    /// popped the frame (`POPPED_BY_A_THROW`).
    popped_after_a_throw: bool,
    /// Where the last pause was, if a resume (a breakpoint) brought the follow-up there.
    stood_at_a_breakpoint: Option<Location>,
    /// The last pause was Firefox's once more where a breakpoint pause stood, as the frame
    /// returned (`POPPED_BY_A_RETURN`): a step that arrived there never makes it.
    popped_where_it_stood: bool,
}

impl FollowUp<'_, '_> {
    async fn apply(&mut self, a: Action) -> Result<Output, DebuggerError> {
        let out = self.ls.apply(&a).await?.into_iter().next().ok_or_else(|| {
            DebuggerError::Protocol("a follow-up's one debugger answered nothing".into())
        })?;
        if let Output::Paused(q) = &out {
            self.popped_after_a_throw = self.last_throw == Some(q.location)
                && q.engine_reason.as_deref() == Some(crate::debugger::POPPED_BY_A_THROW);
            self.last_throw = q.exception.is_some().then_some(q.location);
            self.popped_where_it_stood = self.stood_at_a_breakpoint == Some(q.location)
                && q.engine_reason.as_deref() == Some(crate::debugger::POPPED_BY_A_RETURN);
            self.stood_at_a_breakpoint =
                matches!(a, Action::Resume | Action::Start).then_some(q.location);
        }
        Ok(out)
    }

    fn index(&self) -> u32 {
        self.ls.actions()
    }

    /// The program ended.
    fn finished(&self) -> bool {
        self.ls.all_finished()
    }

    /// Same place as the parent's answer (mapped), or both ended.
    fn in_sync(&self, out: &Output, parent: &Option<Output>) -> bool {
        match (out, parent) {
            (Output::Paused(q), Some(Output::Paused(p))) => {
                self.expect.map.to_parent(q.location) == Some(p.location)
            }
            (Output::Finished { .. }, Some(Output::Finished { .. })) => true,
            _ => false,
        }
    }
}

async fn drive(
    f: &mut FollowUp<'_, '_>,
    parent: &[(Action, Option<Output>)],
    r: &Recipe,
    max_resync: u32,
) -> Result<(), DebuggerError> {
    let mut ids = BTreeMap::new();
    let mut dropped_ids = HashSet::new();
    // Follow-up breakpoints by where they were requested: V8 refuses a second breakpoint at
    // the same place, which slid ones may share with one set there directly.
    let mut requested: BTreeMap<morphtrace_schema::BreakpointId, (u32, Option<u32>)> =
        BTreeMap::new();
    let mut users: BTreeMap<morphtrace_schema::BreakpointId, u32> = BTreeMap::new();
    // The parent's breakpoints by V8's key of its request (line, column; no column is 0): a
    // request that meets one of them was refused in the parent, and must be in the follow-up.
    let mut parent_keys: BTreeMap<(u32, u32), morphtrace_schema::BreakpointId> = BTreeMap::new();
    let mut new_bp = None;
    f.expect.extra_lines.extend(r.inserted_code.iter().copied());
    f.expect.extra_exception_pauses = r.exceptions_all;
    f.expect
        .skipped
        .extend(r.drop_resumes.iter().map(|k| (*k - 1) as u32));
    let first_control = parent
        .iter()
        .position(|(a, _)| a.is_control())
        .unwrap_or(parent.len());
    for (i, (action, parent_out)) in parent.iter().enumerate() {
        if r.new_breakpoint.is_some_and(|(at, _)| at == i) && !f.finished() {
            let line = r.new_breakpoint.map(|(_, l)| l).unwrap_or(0);
            f.expect.inserted.insert(f.index());
            let request = match &r.new_condition {
                Some(condition) => Action::SetConditionalBreakpoint {
                    line,
                    condition: condition.clone(),
                    column: None,
                },
                None => Action::SetBreakpoint { line, column: None },
            };
            if let Output::BreakpointSet { id, actual, .. } = f.apply(request).await? {
                if r.new_condition.is_none() {
                    new_bp = Some(id);
                    f.expect.extra_lines.extend(actual.iter().map(|l| l.line));
                }
            }
        }
        if r.exceptions_all && i == first_control && !f.finished() {
            f.expect.inserted.insert(f.index());
            f.apply(Action::PauseOnExceptions {
                mode: ExceptionPause::All,
            })
            .await?;
        }
        match action {
            Action::SetBreakpoint { .. }
            | Action::SetConditionalBreakpoint { .. }
            | Action::SetLogpoint { .. } => {
                let (line, column) = (
                    action.breakpoint_line().unwrap_or(0),
                    action.breakpoint_column(),
                );
                let parent_id = match parent_out {
                    Some(Output::BreakpointSet { id, .. }) => Some(*id),
                    _ => None,
                };
                let parent_key = (line, column.unwrap_or(0));
                // The parent asked for a breakpoint where one of its own stood, and was given it
                // (Firefox and JavaScriptCore: the second request changes the first's options,
                // a condition taken away): the follow-up asks alike, not shares.
                let asked_again = parent_id.is_some() && parent_keys.contains_key(&parent_key);
                let refused_like = match parent_id {
                    Some(p) => {
                        parent_keys.insert(parent_key, p);
                        None
                    }
                    None => parent_keys
                        .get(&parent_key)
                        .and_then(|p| ids.get(p))
                        .and_then(|fid| requested.get(fid).copied()),
                };
                // Program transformations set every breakpoint where the parent's landed; one
                // that landed nowhere (JavaScriptCore gives a breakpoint that slides onto a
                // taken place no location) has no place in the follow-up, where its request
                // could slide onto inserted code instead.
                if r.slide_all
                    && matches!(parent_out, Some(Output::BreakpointSet { actual, .. }) if actual.is_empty())
                {
                    f.expect.dropped.insert(i as u32);
                    dropped_ids.extend(parent_id);
                    continue;
                }
                let at_actual = r.slide_all || (r.slide_slid && slid(action, parent_out));
                let target = match (at_actual, parent_out) {
                    (true, Some(Output::BreakpointSet { actual, .. })) if !actual.is_empty() => r
                        .map
                        .to_follow_up(actual[0])
                        .map(|l| (l.line, Some(l.column))),
                    _ => r
                        .map
                        .to_follow_up(Location::new(line, column.unwrap_or(0)))
                        .map(|l| (l.line, column.map(|_| l.column))),
                };
                let Some((line, column)) = target else {
                    // In removed code: never hit in the parent, dropped with its removal.
                    f.expect.dropped.insert(i as u32);
                    dropped_ids.extend(parent_id);
                    continue;
                };
                // Two parent breakpoints that slid to one place are one breakpoint there: V8
                // refuses a second breakpoint with the same URL, line and column (no column
                // counts as column 0), so share it, and count its users.
                let shared = requested
                    .iter()
                    .find(|(_, &(l, c))| l == line && c.unwrap_or(0) == column.unwrap_or(0))
                    .map(|(&id, _)| id);
                if let (Some(fid), Some(p), false) = (shared, parent_id, asked_again) {
                    ids.insert(p, fid);
                    *users.entry(fid).or_insert(1) += 1;
                    f.expect.dropped.insert(i as u32);
                    continue;
                }
                // The parent asked again for a breakpoint it already had, and was refused: ask
                // the follow-up for the very same one again, to be refused alike.
                let (line, column) = refused_like.unwrap_or((line, column));
                let request = match (&r.conditioned, &r.logpoint) {
                    (Some((at, condition)), _) if *at == i => Action::SetConditionalBreakpoint {
                        line,
                        condition: condition.clone(),
                        column,
                    },
                    (_, Some((at, local))) if *at == i => {
                        let hits = r.drop_resumes.iter().map(|k| (*k - 1) as u32).collect();
                        f.expect.logged = Some((f.index(), hits, local.clone()));
                        Action::SetLogpoint {
                            line,
                            expression: local.clone(),
                            column,
                        }
                    }
                    _ => action.on_line(line, column),
                };
                // Where it was asked for as sent (V8 keys a request without a column at 0).
                let sent = (
                    request.breakpoint_line().unwrap_or(line),
                    request.breakpoint_column(),
                );
                let out = f.apply(request).await?;
                if let Output::BreakpointSet { id, .. } = &out {
                    requested.insert(*id, sent);
                    if let Some(p) = parent_id {
                        ids.insert(p, *id);
                    }
                }
            }
            Action::RemoveBreakpoint { id } => {
                parent_keys.retain(|_, p| p != id);
                if dropped_ids.contains(id) {
                    f.expect.dropped.insert(i as u32);
                    continue;
                }
                let id = ids.get(id).copied().unwrap_or(*id);
                if let Some(n) = users.get_mut(&id).filter(|n| **n > 1) {
                    *n -= 1;
                    f.expect.dropped.insert(i as u32);
                    continue;
                }
                users.remove(&id);
                requested.remove(&id);
                f.apply(Action::RemoveBreakpoint { id }).await?;
            }
            Action::PauseOnExceptions { mode } => {
                let mode = if r.exceptions_all {
                    ExceptionPause::All
                } else {
                    *mode
                };
                f.apply(Action::PauseOnExceptions { mode }).await?;
            }
            Action::SetVariable { .. } if r.set_as_code.is_some_and(|(_, s)| s == i) => {
                f.expect.dropped.insert(i as u32);
            }
            Action::Evaluate { .. } | Action::SetVariable { .. } => {
                f.apply(action.clone()).await?;
            }
            Action::ContinueToLocation { line } if r.continue_as_breakpoint == Some(i) => {
                if f.finished() {
                    break;
                }
                let line = r
                    .map
                    .to_follow_up(Location::new(*line, 0))
                    .map_or(*line, |l| l.line);
                f.expect.inserted.insert(f.index());
                let temp = f
                    .apply(Action::SetBreakpoint { line, column: None })
                    .await?;
                f.apply(Action::Resume).await?;
                if let Output::BreakpointSet { id, .. } = temp {
                    f.expect.inserted.insert(f.index());
                    f.apply(Action::RemoveBreakpoint { id }).await?;
                }
            }
            _ if r.drop_resumes.contains(&i) => {}
            control => {
                if f.finished() {
                    break;
                }
                let issued = match &r.replace {
                    Some((at, step)) if *at == i => {
                        f.expect.extra_actions.insert(f.index());
                        step.clone()
                    }
                    _ => match control {
                        Action::ContinueToLocation { line } => Action::ContinueToLocation {
                            line: r
                                .map
                                .to_follow_up(Location::new(*line, 0))
                                .map_or(*line, |l| l.line),
                        },
                        other => other.clone(),
                    },
                };
                let mut out = f.apply(issued.clone()).await?;
                let mut last = issued;
                // Caught exceptions can be thrown many times over (a loop around a try):
                // every one of their pauses is extra and resumed from.
                let budget = if r.exceptions_all { 64 } else { max_resync + 1 };
                for attempt in 0..budget {
                    if f.in_sync(&out, parent_out) {
                        break;
                    }
                    if (r.exceptions_all && f.popped_after_a_throw) || f.popped_where_it_stood {
                        // Firefox's server pauses once more where a step began as the frame
                        // pops: after an exception pause, as the throw pops it; after a
                        // breakpoint pause at the frame's last position (a rejoin's temporary
                        // breakpoint, or one a relation added), as it returns. The parent, which
                        // stood there otherwise (no exception pause; arrived by a step, that
                        // pause itself), never made it. The step again goes on.
                        f.expect.extra_actions.insert(f.index() - 1);
                        out = f.apply(last.clone()).await?;
                        continue;
                    }
                    let Some(here) = paused_at(&out) else { break };
                    let on_old_code = r.inserted_code.contains(&here.line);
                    let on_new_bp = f.expect.extra_lines.contains(&here.line) && !on_old_code;
                    let on_throw = r.exceptions_all && thrown_at(&out);
                    let stepped = !matches!(last, Action::Resume | Action::Start);
                    if ((on_new_bp && r.name == Transformation::AddBreakpoint) || on_throw)
                        && stepped
                    {
                        // Figure 7: the new breakpoint consumed a step; a temporary breakpoint
                        // where the parent's step went, a continue, and the breakpoint removed.
                        if let Some(to) = parent_out.as_ref().and_then(paused_at) {
                            let to = r.map.to_follow_up(to).unwrap_or(to);
                            f.expect.inserted.insert(f.index());
                            let temp = f
                                .apply(Action::SetBreakpoint {
                                    line: to.line,
                                    column: Some(to.column),
                                })
                                .await?;
                            let placed = matches!(&temp, Output::BreakpointSet { actual, .. } if actual.contains(&to));
                            out = f.apply(Action::Resume).await?;
                            // In a loop the new breakpoint comes round again before the
                            // temporary one: those pauses are extra; go on to the temporary
                            // one, and take the new breakpoint away once it keeps coming.
                            // The temporary breakpoint also stops in other calls than the one
                            // the parent's step went to (its function called from elsewhere
                            // first): those pauses are the breakpoint's alone, and extra too.
                            let wanted = parent_out.as_ref().and_then(callers);
                            let elsewhere =
                                |o: &Output| paused_at(o) == Some(to) && callers(o) != wanted;
                            let mut again = 0;
                            while paused_at(&out).is_some_and(|h| {
                                h != to
                                    && ((f.expect.extra_lines.contains(&h.line)
                                        && !r.inserted_code.contains(&h.line))
                                        || (r.exceptions_all && thrown_at(&out)))
                            }) || elsewhere(&out)
                            {
                                if elsewhere(&out) {
                                    f.expect.passed.insert(f.index() - 1);
                                }
                                again += 1;
                                if again > budget || f.finished() {
                                    break;
                                }
                                if again >= max_resync {
                                    if let Some(id) = new_bp.take() {
                                        f.expect.inserted.insert(f.index());
                                        f.apply(Action::RemoveBreakpoint { id }).await?;
                                    }
                                }
                                out = f.apply(Action::Resume).await?;
                            }
                            if elsewhere(&out) && f.astray.is_none() {
                                f.astray = Some(format!(
                                    "the follow-up could not rejoin the parent: a breakpoint at \
                                     {to}, where the parent's step went, stopped only in other calls"
                                ));
                            } else if paused_at(&out) != Some(to) && f.astray.is_none() {
                                // The resume did not reach where the parent's step went: the
                                // engine would not place the temporary breakpoint there
                                // (JavaScriptCore refuses some positions a step stops at), or a
                                // breakpoint there does not stop (V8: the position a step out
                                // returns to, in the middle of the caller's expression). The
                                // follow-up cannot rejoin the parent, and is not judged.
                                f.astray = Some(if placed {
                                    format!(
                                        "the follow-up could not rejoin the parent: a breakpoint \
                                         at {to}, where the parent's step went, did not stop"
                                    )
                                } else {
                                    format!(
                                        "the follow-up could not rejoin the parent: no breakpoint \
                                         at {to}, where the parent's step went"
                                    )
                                });
                            }
                            if let Output::BreakpointSet { id, .. } = temp {
                                f.expect.inserted.insert(f.index());
                                f.apply(Action::RemoveBreakpoint { id }).await?;
                            }
                        } else {
                            out = f.apply(Action::Resume).await?;
                        }
                        last = Action::Resume;
                    } else if on_new_bp
                        || on_throw
                        || f.expect.extra_actions.contains(&(f.index() - 1))
                    {
                        // A pause the parent did not have: continue to where it went. A new
                        // breakpoint in a loop is hit again and again: after a few times it is
                        // removed (its pauses so far stay extra).
                        if on_new_bp && attempt + 1 >= max_resync {
                            if let Some(id) = new_bp.take() {
                                f.expect.inserted.insert(f.index());
                                f.apply(Action::RemoveBreakpoint { id }).await?;
                            }
                        }
                        out = f.apply(Action::Resume).await?;
                        last = Action::Resume;
                    } else if on_old_code
                        || (r.restep_inserted && f.expect.map.to_parent(here).is_none())
                    {
                        out = f.apply(Action::StepOver).await?;
                        last = Action::StepOver;
                    } else {
                        break;
                    }
                }
            }
        }
        if let Some((entry, at)) = r.restart {
            if at == i && !f.finished() {
                f.apply(Action::RestartFrame { frame: 0 }).await?;
                for (again, _) in &parent[entry + 1..=at] {
                    if f.finished() {
                        break;
                    }
                    f.apply(again.clone()).await?;
                }
            }
        }
        if let Some((at, name)) = &r.evaluate_after {
            if *at == i && !f.finished() {
                f.expect.inserted.insert(f.index());
                f.expect.evaluated_locals.insert(f.index());
                f.apply(Action::Evaluate {
                    expression: name.clone(),
                })
                .await?;
            }
        }
    }
    let outcome = match f.astray.take() {
        Some(reason) => SessionOutcome::Rejected { reason },
        None if f.finished() => SessionOutcome::Finished,
        None => SessionOutcome::ActionLimit,
    };
    f.ls.end_as(outcome);
    Ok(())
}

/// The lines a parent's breakpoints ask for or landed on, and those its continues go to.
fn occupied_lines(parent: &[(Action, Option<Output>)]) -> BTreeSet<u32> {
    parent
        .iter()
        .flat_map(|(a, o)| {
            let landed = match o {
                Some(Output::BreakpointSet { actual, .. }) => {
                    actual.iter().map(|l| l.line).collect()
                }
                _ => Vec::new(),
            };
            // A continue's temporary breakpoint is where it was asked for, and where it arrived
            // (a later line when the asked one has no break position).
            let continued = match (a, o) {
                (Action::ContinueToLocation { line }, Some(Output::Paused(p))) => {
                    vec![*line, p.location.line]
                }
                (Action::ContinueToLocation { line }, _) => vec![*line],
                _ => Vec::new(),
            };
            a.breakpoint_line()
                .into_iter()
                .chain(landed)
                .chain(continued)
        })
        .collect()
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

/// Chooses a transformation for the next round and prepares the follow-up's program.
struct Choice {
    recipe: Recipe,
    program: Option<Transformed>,
    params: Vec<(String, String)>,
}

/// A line for add-breakpoint-and-continue that no breakpoint request of the parent names (at
/// its start, column 0 or none): V8 refuses a second breakpoint with the same URL, line and
/// column, so a breakpoint we add there would make the parent's own request, earlier or later,
/// answer differently in the follow-up (a collision of ours, not the engine's). `None` when
/// the parent asked for every line.
fn free_line(parent: &[(Action, Option<Output>)], lines: u32, rng: &mut ChaCha8Rng) -> Option<u32> {
    let taken: BTreeSet<u32> = parent
        .iter()
        .filter_map(|(a, _)| match a {
            Action::SetBreakpoint { line, column } if column.unwrap_or(0) == 0 => Some(*line),
            _ => None,
        })
        .collect();
    let free: Vec<u32> = (0..lines.max(1)).filter(|l| !taken.contains(l)).collect();
    free.choose(rng).copied()
}

/// The transformations a round could not apply to its parent, each with why: those found
/// unfit before the draw and those drawn and tried in vain before the one chosen (or all of
/// them, when none applied). Recorded in the follow-up's notes (`mm::NOT_APPLICABLE`).
type Unfit = Vec<(Transformation, String)>;

/// Table 1's transformations of the program text (the others change actions).
const PROGRAM_TRANSFORMATIONS: &[Transformation] = &[
    Transformation::InsertDeadCode,
    Transformation::AddNoOp,
    Transformation::AddParameter,
    Transformation::IntegerLiteral,
    Transformation::BooleanLiteral,
];

fn choose(
    ctx: &mut Context<'_>,
    pin: &Pin,
    allowed: &[Transformation],
    loaded: &Loaded,
    parent: &[(Action, Option<Output>)],
    rng: &mut ChaCha8Rng,
) -> (Option<Choice>, Unfit) {
    let python = loaded.program.language == Language::Python;
    let analysis = analysis_of(&loaded.program.text, loaded.program.language).ok();
    let mut options: Vec<Transformation> = vec![Transformation::AddBreakpoint];
    let mut unfit: Unfit = Vec::new();
    if parent
        .iter()
        .any(|(a, o)| matches!(a, Action::Resume) && o.is_some())
    {
        options.push(Transformation::ContinueToStep);
    } else {
        unfit.push((
            Transformation::ContinueToStep,
            "the parent resumes nowhere".into(),
        ));
    }
    if parent.iter().any(|(a, o)| slid(a, o)) {
        options.push(Transformation::Sliding);
    } else {
        unfit.push((
            Transformation::Sliding,
            "no breakpoint of the parent slid".into(),
        ));
    }
    match &analysis {
        Some(a) => {
            let here = a.applicable();
            for t in PROGRAM_TRANSFORMATIONS {
                if !here.contains(t) {
                    unfit.push((*t, "the program has no place for it".into()));
                }
            }
            options.extend(here);
            options.push(Transformation::RemoveDeadCode);
        }
        None => {
            for t in PROGRAM_TRANSFORMATIONS
                .iter()
                .chain([&Transformation::RemoveDeadCode])
            {
                unfit.push((*t, "the program is beyond its analysis".into()));
            }
        }
    }
    // The modern relations, each tried only where the parent has what it needs. They spell
    // conditions and code in JavaScript: not on Python programs.
    if !python {
        options.extend(Transformation::MODERN);
    } else {
        for t in Transformation::MODERN {
            unfit.push((t, "spelled in JavaScript: not on Python programs".into()));
        }
    }
    options.retain(|o| allowed.contains(o));
    unfit.retain(|(o, _)| allowed.contains(o));
    let chosen = draw(
        ctx,
        pin,
        loaded,
        parent,
        rng,
        analysis.as_ref(),
        python,
        options,
        &mut unfit,
    );
    (chosen, unfit)
}

/// Draws among `options` until one applies; each that does not is added to `unfit` with why.
#[allow(clippy::too_many_arguments)]
fn draw(
    ctx: &mut Context<'_>,
    pin: &Pin,
    loaded: &Loaded,
    parent: &[(Action, Option<Output>)],
    rng: &mut ChaCha8Rng,
    analysis: Option<&Analysis>,
    python: bool,
    mut options: Vec<Transformation>,
    unfit: &mut Unfit,
) -> Option<Choice> {
    let mut not = |name: Transformation, why: &str| unfit.push((name, why.to_string()));
    while !options.is_empty() {
        let k = rng.random_range(0..options.len());
        let name = options.swap_remove(k);
        let base = Recipe {
            name,
            map: PositionMap::default(),
            slide_all: false,
            slide_slid: false,
            new_breakpoint: None,
            new_condition: None,
            conditioned: None,
            drop_resumes: BTreeSet::new(),
            evaluate_after: None,
            exceptions_all: false,
            logpoint: None,
            replace: None,
            continue_as_breakpoint: None,
            set_as_code: None,
            restart: None,
            restep_inserted: false,
            inserted_code: BTreeSet::new(),
        };
        if name == Transformation::RestartAsReentry {
            // WebKit's protocol cannot restart a frame (the debugger says so per session; the
            // follow-up is chosen before one is opened).
            if ctx.engine.descriptor().protocol == morphtrace_schema::Protocol::WebKitInspector {
                not(name, "the engine's protocol cannot restart a frame");
                continue;
            }
            let options = reentries(&loaded.program.text, parent, pin.action);
            let Some(&(entry, at)) = options.choose(rng) else {
                not(
                    name,
                    "the parent never paused in a function without side effects it stepped into",
                );
                continue;
            };
            return Some(Choice {
                params: vec![
                    ("action".into(), at.to_string()),
                    ("entry".into(), entry.to_string()),
                ],
                recipe: Recipe {
                    restart: Some((entry, at)),
                    ..base
                },
                program: None,
            });
        }
        if name == Transformation::SetAsCode {
            let Some(a) = analysis else {
                not(name, "the program is beyond its analysis");
                continue;
            };
            match set_as_code(a, &loaded.program.text, base, pin, parent, rng) {
                Ok(c) => return Some(c),
                Err(why) => {
                    not(name, why);
                    continue;
                }
            }
        }
        if Transformation::MODERN.contains(&name) {
            match modern(name, base, pin, parent, analysis, rng) {
                Ok(c) => return Some(c),
                Err(why) => {
                    not(name, why);
                    continue;
                }
            }
        }
        match name {
            Transformation::AddBreakpoint => {
                let controls = answered_controls(parent);
                let Some(&at) = controls.choose(rng) else {
                    not(name, "the parent has no answered control action");
                    continue;
                };
                let at = pin.action.unwrap_or(at);
                let line = match pin.line {
                    Some(l) => l,
                    None => match free_line(parent, loaded.file.lines, rng) {
                        Some(l) => l,
                        None => {
                            not(name, "every line has a breakpoint of the parent");
                            continue;
                        }
                    },
                };
                return Some(Choice {
                    params: vec![
                        ("line".into(), line.to_string()),
                        ("before-action".into(), at.to_string()),
                    ],
                    recipe: Recipe {
                        new_breakpoint: Some((at, line)),
                        ..base
                    },
                    program: None,
                });
            }
            Transformation::ContinueToStep => {
                let resumes: Vec<usize> = parent
                    .iter()
                    .enumerate()
                    .filter(|(_, (a, o))| matches!(a, Action::Resume) && o.is_some())
                    .map(|(i, _)| i)
                    .collect();
                let Some(&at) = resumes.choose(rng) else {
                    not(name, "the parent resumes nowhere");
                    continue;
                };
                let step = [Action::StepOut, Action::StepOver, Action::StepInto]
                    .choose(rng)?
                    .clone();
                let at = pin.action.unwrap_or(at);
                let step = pin.step.clone().unwrap_or(step);
                return Some(Choice {
                    params: vec![
                        ("action".into(), at.to_string()),
                        ("step".into(), step.to_string()),
                    ],
                    recipe: Recipe {
                        replace: Some((at, step)),
                        ..base
                    },
                    program: None,
                });
            }
            Transformation::Sliding => {
                return Some(Choice {
                    params: vec![],
                    recipe: Recipe {
                        slide_slid: true,
                        ..base
                    },
                    program: None,
                })
            }
            Transformation::RemoveDeadCode => {
                let threw = parent.iter().any(|(_, o)| {
                    matches!(
                        o,
                        Some(Output::Finished {
                            outcome: ProgramOutcome::UncaughtException { .. }
                        })
                    )
                });
                let paused: HashSet<u32> = lines_on_stacks(parent).collect();
                if python {
                    match python_dead_code(ctx, loaded, &paused, pin.removed_lines(), rng) {
                        Some(t) => return Some(program_choice(base, t)),
                        None => {
                            not(name, "no code that never ran, outside every pause");
                            continue;
                        }
                    }
                }
                let Some(functions) = coverage_of(ctx, loaded, threw) else {
                    not(name, "no coverage of the program");
                    continue;
                };
                let Some(t) = source::remove_dead_code(
                    &loaded.program.text,
                    &functions,
                    &paused,
                    pin.removed_lines(),
                    rng,
                ) else {
                    not(name, "no code that never ran, outside every pause");
                    continue;
                };
                return Some(program_choice(base, t));
            }
            _ => {
                let Some(t) = analysis.and_then(|a| {
                    if pin.recorded.is_empty() {
                        a.transform_at(&loaded.program.text, name, pin.line, rng)
                    } else {
                        a.repeat(&loaded.program.text, name, &pin.recorded)
                    }
                }) else {
                    not(name, "the program has no place for it");
                    continue;
                };
                if analysis_of(&t.text, loaded.program.language).is_err() {
                    tracing::warn!("{name} produced a program that does not parse; skipped");
                    not(
                        name,
                        "its program does not parse (ours: a transformation's fault)",
                    );
                    continue;
                }
                return Some(program_choice(base, t));
            }
        }
    }
    None
}

/// A pinned choice (reduction) or one drawn from `candidates`.
fn pick<T: Clone + PartialEq>(
    pinned: Option<T>,
    candidates: &[T],
    rng: &mut ChaCha8Rng,
) -> Option<T> {
    match pinned {
        Some(p) => candidates.contains(&p).then_some(p),
        None => candidates.choose(rng).cloned(),
    }
}

/// A value an expression can spell exactly and compare with `!==`: an integer, a boolean.
fn literal(v: &morphtrace_schema::Value) -> Option<String> {
    use morphtrace_schema::Value;
    match v {
        Value::Number(x) if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e15 => {
            // -0 spells as 0, which `!==` does not tell from it.
            (*x != 0.0 || x.is_sign_positive()).then(|| format!("{}", *x as i64))
        }
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The value of `name` in a pause's top frame, as a condition would see it.
fn local<'a>(
    p: &'a morphtrace_schema::PauseState,
    name: &str,
) -> Option<&'a morphtrace_schema::Value> {
    morphtrace_judges::dbdb::visible_variables(p.top_scopes())
        .get(name)
        .copied()
}

/// The follow-up of a modern relation (`Transformation::MODERN`): what it changes in the parent's actions.
fn modern(
    name: Transformation,
    base: Recipe,
    pin: &Pin,
    parent: &[(Action, Option<Output>)],
    analysis: Option<&Analysis>,
    rng: &mut ChaCha8Rng,
) -> Result<Choice, &'static str> {
    let recorded = |k: &str| {
        pin.recorded
            .iter()
            .find(|(x, _)| x == k)
            .map(|(_, v)| v.clone())
    };
    let plain_breakpoints: Vec<usize> = parent
        .iter()
        .enumerate()
        .filter(|(_, (a, o))| {
            matches!(a, Action::SetBreakpoint { column: None, .. })
                && matches!(o, Some(Output::BreakpointSet { actual, .. }) if !actual.is_empty())
        })
        .map(|(i, _)| i)
        .collect();
    let choice = |recipe: Recipe, params: Vec<(&str, String)>| Choice {
        recipe,
        program: None,
        params: params
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    };
    match name {
        Transformation::ConditionTrue => {
            let at = pick(pin.action, &plain_breakpoints, rng)
                .ok_or("the parent placed no plain breakpoint")?;
            Ok(choice(
                Recipe {
                    conditioned: Some((at, "true".into())),
                    ..base
                },
                vec![("action", at.to_string()), ("condition", "true".into())],
            ))
        }
        Transformation::ConditionFalse => {
            // A line the program is seen running (a frame of some pause), where the parent asks
            // for no breakpoint and none of its breakpoints landed, nor a continue goes: a plain
            // one there would pause, a false one must not. (JavaScriptCore keeps one breakpoint
            // per place: a later breakpoint that slides to an occupied place gets no location, and
            // a continue to a place a false breakpoint holds runs past it, Bun's gen:1..200 six
            // times; traces/findings/jsc-drops-a-second-breakpoint-at-an-occupied-location.)
            let taken = occupied_lines(parent);
            let seen: BTreeSet<u32> = lines_on_stacks(parent)
                .filter(|l| !taken.contains(l))
                .collect();
            let lines: Vec<u32> = seen.into_iter().collect();
            let line = pick(pin.line, &lines, rng)
                .ok_or("every line the program was seen running has a breakpoint of the parent")?;
            let at = pick(pin.action, &answered_controls(parent), rng)
                .ok_or("the parent has no answered control action")?;
            Ok(choice(
                Recipe {
                    new_breakpoint: Some((at, line)),
                    new_condition: Some("false".into()),
                    ..base
                },
                vec![
                    ("line", line.to_string()),
                    ("before-action", at.to_string()),
                    ("condition", "false".into()),
                ],
            ))
        }
        Transformation::ConditionLocal => {
            let pinned_condition = recorded("condition");
            let mut options: Vec<(usize, String, BTreeSet<usize>)> = Vec::new();
            for &b in &plain_breakpoints {
                if pin.action.is_some_and(|a| a != b) {
                    continue;
                }
                options.extend(filters(parent, b));
            }
            if let Some(c) = &pinned_condition {
                options.retain(|(_, cond, _)| cond == c);
            }
            let (at, condition, skipped) = options
                .choose(rng)
                .ok_or(
                    "no plain breakpoint whose pauses a condition over a local filters exactly \
                     (each filtered pause reached and left by a resume)",
                )?
                .clone();
            Ok(choice(
                Recipe {
                    conditioned: Some((at, condition.clone())),
                    drop_resumes: skipped.iter().map(|k| k + 1).collect(),
                    ..base
                },
                vec![
                    ("action", at.to_string()),
                    ("condition", condition),
                    (
                        "skipped",
                        skipped
                            .iter()
                            .map(|k| k.to_string())
                            .collect::<Vec<_>>()
                            .join(","),
                    ),
                ],
            ))
        }
        Transformation::EvaluateLocal => {
            let mut options: Vec<(usize, String)> = Vec::new();
            for (i, (_, o)) in parent.iter().enumerate() {
                let Some(Output::Paused(p)) = o else { continue };
                if pin.action.is_some_and(|a| a != i) {
                    continue;
                }
                // In a parameter list the scopes list what is not bound yet (`in_parameters`).
                if analysis.is_some_and(|a| a.in_parameters(p.location)) {
                    continue;
                }
                for (n, v) in morphtrace_judges::dbdb::visible_variables(p.top_scopes()) {
                    if crate::dbdb::spellable(n) && primitive(v) {
                        options.push((i, n.to_string()));
                    }
                }
            }
            if let Some(n) = recorded("local") {
                options.retain(|(_, x)| *x == n);
            }
            let (at, local) = options
                .choose(rng)
                .ok_or("no pause shows a primitive local")?
                .clone();
            Ok(choice(
                Recipe {
                    evaluate_after: Some((at, local.clone())),
                    ..base
                },
                vec![("action", at.to_string()), ("local", local)],
            ))
        }
        Transformation::Logpoint => {
            let mut options: Vec<(usize, String, BTreeSet<usize>)> = Vec::new();
            for &b in &plain_breakpoints {
                if pin.action.is_some_and(|a| a != b) {
                    continue;
                }
                options.extend(logpoints(parent, b).into_iter().map(|(n, g)| (b, n, g)));
            }
            if let Some(n) = recorded("local") {
                options.retain(|(_, x, _)| *x == n);
            }
            let (at, local, gone) = options
                .choose(rng)
                .ok_or(
                    "no plain breakpoint whose every pause was reached and left by a resume and \
                     shows a primitive local",
                )?
                .clone();
            Ok(choice(
                Recipe {
                    logpoint: Some((at, local.clone())),
                    drop_resumes: gone.iter().map(|k| k + 1).collect(),
                    ..base
                },
                vec![("action", at.to_string()), ("local", local)],
            ))
        }
        Transformation::ContinueAsBreakpoint => {
            // Not to a line where the parent asked for a conditional breakpoint or a logpoint
            // before: V8 refuses the temporary breakpoint there (one place, one breakpoint), and
            // the resume would pass where the continue stops (a continue heeds no condition).
            let continues: Vec<usize> = parent
                .iter()
                .enumerate()
                .filter(|(i, (a, o))| {
                    let Action::ContinueToLocation { line } = a else {
                        return false;
                    };
                    let filtered = parent[..*i].iter().any(|(b, _)| {
                        matches!(
                            b,
                            Action::SetConditionalBreakpoint { .. } | Action::SetLogpoint { .. }
                        ) && b.breakpoint_line() == Some(*line)
                    });
                    !filtered && matches!(o, Some(Output::Paused(_) | Output::Finished { .. }))
                })
                .map(|(i, _)| i)
                .collect();
            let at = pick(pin.action, &continues, rng)
                .ok_or("the parent continues to no location (free of conditions and logpoints)")?;
            Ok(choice(
                Recipe {
                    continue_as_breakpoint: Some(at),
                    ..base
                },
                vec![("action", at.to_string())],
            ))
        }
        Transformation::PauseOnAll => {
            let all_already = parent.iter().any(|(a, _)| {
                matches!(
                    a,
                    Action::PauseOnExceptions {
                        mode: ExceptionPause::All
                    }
                )
            });
            if all_already {
                return Err("the parent pauses on all exceptions already");
            }
            if !parent.iter().any(|(a, _)| a.is_control()) {
                return Err("the parent takes no control action");
            }
            Ok(choice(
                Recipe {
                    exceptions_all: true,
                    ..base
                },
                vec![],
            ))
        }
        _ => Err("not a relation of its own"),
    }
}

/// Restart-frame-as-reentry: the parent's pauses in a function without side effects
/// (`pure`) that it entered by a step into from its caller, each with that entry: the parent's
/// control actions (pinned: `at`) whose pause is in the same call of the function (the frames
/// below unchanged), with only resumes and steps within it since the entry.
fn reentries(
    text: &str,
    parent: &[(Action, Option<Output>)],
    at: Option<usize>,
) -> Vec<(usize, usize)> {
    let functions = pure::functions(text);
    let pauses: Vec<(usize, &morphtrace_schema::PauseState)> = parent
        .iter()
        .enumerate()
        .filter_map(|(i, (a, o))| match o {
            Some(Output::Paused(p)) if a.is_control() => Some((i, p)),
            _ => None,
        })
        .collect();
    let names = |p: &morphtrace_schema::PauseState, from: usize| -> Vec<String> {
        p.stack[from..].iter().map(|f| f.function.clone()).collect()
    };
    let mut out = Vec::new();
    for (k, &(cr, r)) in pauses.iter().enumerate() {
        if at.is_some_and(|a| a != cr)
            || r.stack.len() < 2
            || r.stack[0].function.is_empty()
            || r.exception.is_some()
            || !pure::pure_at(&functions, r.location)
        {
            continue;
        }
        let below = &r.stack[1..];
        let same_call = |p: &morphtrace_schema::PauseState| {
            p.stack.len() == r.stack.len()
                && p.stack[0].function == r.stack[0].function
                && p.stack[1..] == *below
                && p.exception.is_none()
        };
        // Back through this call's pauses to the one a step into from the caller made.
        let mut entry = None;
        for j in (0..=k).rev() {
            let (cj, p) = pauses[j];
            if !same_call(p) {
                break;
            }
            let caller = j
                .checked_sub(1)
                .map(|h| pauses[h].1)
                .is_some_and(|q| q.stack.len() + 1 == r.stack.len() && names(q, 0) == names(r, 1));
            if parent[cj].0 == Action::StepInto && caller {
                entry = Some(cj);
                break;
            }
        }
        let Some(ce) = entry else { continue };
        let within = parent[ce + 1..=cr]
            .iter()
            .all(|(a, _)| matches!(a, Action::Resume | Action::StepInto | Action::StepOver));
        if within {
            out.push((ce, cr));
        }
    }
    out
}

/// Whether the frame's `arguments` object holds the value `name` has now: in a sloppy function
/// it may be that parameter's alias, which the assignment in the program changes too (and the
/// relation's expectation, the parent's pause with `name`'s new value, does not know).
fn aliased(q: &morphtrace_schema::PauseState, name: &str) -> bool {
    let vars: Vec<&morphtrace_schema::Variable> =
        q.top_scopes().iter().flat_map(|s| &s.variables).collect();
    let Some(now) = vars.iter().find(|v| v.name == name).map(|v| &v.value) else {
        return false;
    };
    vars.iter().any(|v| {
        v.name == "arguments"
            && match &v.value {
                morphtrace_schema::Value::Object {
                    entries: Some(entries),
                    ..
                } => entries.iter().any(|e| &e.value == now),
                // Not expanded: it may hold it.
                morphtrace_schema::Value::Object { entries: None, .. } => true,
                _ => false,
            }
    })
}

/// Whether a step paused at `at` right where the previous pause was: no pass was made, yet
/// the place has one more pause (JavaScriptCore: a step into from a breakpoint's pause that
/// stops there again, its breakpoint hit a second time). The passes cannot be counted.
fn repaused_in_place(parent: &[(Action, Option<Output>)], at: Location) -> bool {
    let mut previous: Option<Location> = None;
    for (a, o) in parent {
        if let Some(Output::Paused(p)) = o {
            let step = matches!(a, Action::StepInto | Action::StepOver | Action::StepOut);
            if step && p.location == at && previous == Some(at) {
                return true;
            }
            previous = Some(p.location);
        }
    }
    false
}

/// Set-variable-as-code: a parent set variable that took, made at a breakpoint's pause on a
/// statement that starts its line, done instead by an assignment inserted before that
/// statement, guarded to run only on the pass the set was made at. The pass is counted from
/// the parent: the breakpoint was there before the start and stayed, and every pause there
/// until the set was that breakpoint's (so each was one pass, and no pass went unseen).
fn set_as_code(
    analysis: &Analysis,
    text: &str,
    base: Recipe,
    pin: &Pin,
    parent: &[(Action, Option<Output>)],
    rng: &mut ChaCha8Rng,
) -> Result<Choice, &'static str> {
    let first_control = parent
        .iter()
        .position(|(a, _)| a.is_control())
        .ok_or("the parent takes no control action")?;

    let mut options: Vec<(usize, usize, Transformed)> = Vec::new();
    for (s, (a, o)) in parent.iter().enumerate() {
        let (Action::SetVariable { name, value }, Some(Output::VariableSet { .. })) = (a, o) else {
            continue;
        };
        if pin.action.is_some_and(|p| p != s) {
            continue;
        }
        // The pause it was made at: the last control's.
        let Some(c) = (0..s).rev().find(|&k| parent[k].0.is_control()) else {
            continue;
        };
        let Some(Output::Paused(q)) = &parent[c].1 else {
            continue;
        };
        // Nothing between the pause and the set looks at the frame: in the follow-up the
        // assignment has already run there.
        if parent[c + 1..s]
            .iter()
            .any(|(a, _)| matches!(a, Action::Evaluate { .. } | Action::SetVariable { .. }))
        {
            continue;
        }
        let at = q.location;
        // A breakpoint there from before the start, never removed before the set.
        let kept = parent[..first_control].iter().any(|(a, o)| match (a, o) {
            (_, Some(Output::BreakpointSet { id, actual, .. })) if a.sets_breakpoint() => {
                actual.contains(&at)
                    && !parent[..s]
                        .iter()
                        .any(|(r, _)| matches!(r, Action::RemoveBreakpoint { id: x } if x == id))
            }
            _ => false,
        });
        if !kept {
            continue;
        }
        let here: Vec<&morphtrace_schema::PauseState> = parent[..=c]
            .iter()
            .filter_map(|(_, o)| match o {
                Some(Output::Paused(p)) if p.location == at => Some(p),
                _ => None,
            })
            .collect();
        let all_hits = here.iter().all(|p| {
            matches!(p.reason, morphtrace_schema::PauseReason::Breakpoint { .. })
                && p.exception.is_none()
        });
        if !all_hits || repaused_in_place(&parent[..=c], at) || aliased(q, name) {
            continue;
        }
        // A counter of its own per line (an earlier round may have inserted another).
        let counter = format!("globalThis.__morphtraceSet{}", at.line + 1);
        if text.contains(&counter) {
            continue;
        }
        let code = format!(
            "if (({counter} = ({counter} || 0) + 1) === {}) {name} = {value};",
            here.len()
        );
        if let Some(t) = analysis.assignment_before(text, at, name, &code) {
            options.push((c, s, t));
        }
    }
    let k = rng.random_range(0..options.len().max(1));
    let took = |(a, o): &(Action, Option<Output>)| {
        matches!(
            (a, o),
            (Action::SetVariable { .. }, Some(Output::VariableSet { .. }))
        )
    };
    if options.is_empty() && !parent.iter().any(took) {
        return Err("the parent sets no variable that took");
    }
    if options.is_empty() {
        return Err(
            "no variable set at the pause of a breakpoint kept from the start (every pause there \
             its hit) before a statement an assignment can precede",
        );
    }
    let (c, s, t) = options.swap_remove(k);
    let mut choice = program_choice(base, t);
    choice.recipe.set_as_code = Some((c, s));
    choice.params.push(("action".into(), s.to_string()));
    Ok(choice)
}

/// A value whose evaluation and scope entry compare exactly (objects are captured to a depth
/// that an evaluation's result and a scope's entry may reach differently).
fn primitive(v: &morphtrace_schema::Value) -> bool {
    use morphtrace_schema::Value;
    matches!(
        v,
        Value::Undefined
            | Value::Null
            | Value::Bool(_)
            | Value::Number(_)
            | Value::BigInt(_)
            | Value::String(_)
    )
}

/// Conditions over a local for the plain breakpoint the parent set at action `b` that filter
/// some of its pauses away exactly: `x !== v` for a value `v` that `x` had at a pause there.
/// The pauses it filters must have been reached by a resume (or the start) and left by a resume
/// right away, so that dropping that resume is all the follow-up changes; every other pause at
/// the breakpoint's place must show `x` (the condition is evaluated there too). Returns
/// (`b`, condition, indices of the parent actions whose pauses go).
fn filters(parent: &[(Action, Option<Output>)], b: usize) -> Vec<(usize, String, BTreeSet<usize>)> {
    let pauses = hits(parent, b);
    let Some((_, first)) = pauses.first() else {
        return vec![];
    };
    let mut out = Vec::new();
    for (name, _) in morphtrace_judges::dbdb::visible_variables(first.top_scopes()) {
        if !crate::dbdb::spellable(name) {
            continue;
        }
        let Some(values) = pauses
            .iter()
            .map(|(i, p)| local(p, name).and_then(literal).map(|v| (*i, v)))
            .collect::<Option<Vec<(usize, String)>>>()
        else {
            continue;
        };
        let distinct: BTreeSet<&String> = values.iter().map(|(_, v)| v).collect();
        for v in distinct {
            let gone: BTreeSet<usize> = values
                .iter()
                .filter(|(_, x)| x == v)
                .map(|(i, _)| *i)
                .collect();
            if gone.iter().all(|&k| skippable(parent, k)) {
                out.push((b, format!("{name} !== {v}"), gone));
            }
        }
    }
    out
}

/// Whether the parent's pause answering action `k` can go with all else the same: it was
/// reached by a resume (or the start) and left by a resume at once.
fn skippable(parent: &[(Action, Option<Output>)], k: usize) -> bool {
    matches!(parent[k].0, Action::Resume | Action::Start)
        && matches!(parent.get(k + 1), Some((Action::Resume, Some(_))))
}

/// The parent's pauses at the place of the plain breakpoint it set at action `b`, while it was
/// set: its hits, or steps that ended there. Empty when another breakpoint shares its line (its
/// pauses could be that one's). A pause on an exception thrown there is neither (the first
/// relation campaign's warnings on Chromium and Node were that: a throw on the breakpoint's line
/// taken for a hit).
fn hits(
    parent: &[(Action, Option<Output>)],
    b: usize,
) -> Vec<(usize, &morphtrace_schema::PauseState)> {
    let Some(Output::BreakpointSet { id, actual, .. }) = &parent[b].1 else {
        return vec![];
    };
    let at = actual[0];
    let others = parent.iter().enumerate().any(|(i, (a, o))| {
        i != b
            && a.sets_breakpoint()
            && matches!(o, Some(Output::BreakpointSet { actual, .. }) if actual.iter().any(|l| l.line == at.line))
    });
    if others {
        return vec![];
    }
    let end = parent
        .iter()
        .enumerate()
        .skip(b)
        .find(|(_, (a, _))| matches!(a, Action::RemoveBreakpoint { id: r } if r == id))
        .map(|(i, _)| i)
        .unwrap_or(parent.len());
    // A pause the engine says this breakpoint made is its hit wherever it is: JavaScriptCore's
    // breakpoint at a line's start also stops in an arrow function's body later on that line.
    (b + 1..end)
        .filter_map(|i| match &parent[i].1 {
            Some(Output::Paused(p))
                if p.exception.is_none()
                    && (p.location == at
                        || matches!(&p.reason, morphtrace_schema::PauseReason::Breakpoint { ids } if ids.contains(id))) =>
            {
                Some((i, p))
            }
            _ => None,
        })
        .collect()
}

/// Logpoints for the plain breakpoint the parent set at action `b`: every pause at its place
/// was a hit that can go (`skippable`); each primitive local all of them show is a choice.
/// Returns (local, indices of the parent actions whose pauses go).
fn logpoints(parent: &[(Action, Option<Output>)], b: usize) -> Vec<(String, BTreeSet<usize>)> {
    let pauses = hits(parent, b);
    let Some((_, first)) = pauses.first() else {
        return vec![];
    };
    if !pauses.iter().all(|(k, _)| skippable(parent, *k)) {
        return vec![];
    }
    let gone: BTreeSet<usize> = pauses.iter().map(|(k, _)| *k).collect();
    morphtrace_judges::dbdb::visible_variables(first.top_scopes())
        .into_keys()
        .filter(|n| crate::dbdb::spellable(n))
        .filter(|n| {
            pauses
                .iter()
                .all(|(_, p)| local(p, n).is_some_and(primitive))
        })
        .map(|n| (n.to_string(), gone.clone()))
        .collect()
}

fn program_choice(base: Recipe, t: Transformed) -> Choice {
    Choice {
        params: t.params.clone(),
        recipe: Recipe {
            map: t.map.clone(),
            slide_all: true,
            restep_inserted: t.inserted_line.is_some(),
            ..base
        },
        program: Some(t),
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
    use crate::syntax::{python::PySyntax, variant};
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
    let cands: Vec<_> = variant::unexecuted_by_lines(&syntax.candidates(), &r.lines)
        .into_iter()
        .filter(|c| !(c.first_line..=c.last_line).any(|l| paused.contains(&l)))
        .filter(|c| at.is_none_or(|(a, b)| (c.first_line, c.last_line) == (a, b)))
        .collect();
    let c = cands.choose(rng)?.clone();
    let v = variant::apply_python(text, vec![c.clone()]);
    Some(source::dead_code_removed(c, v))
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
        let mut rng = dbdb::rng_for(
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
        &mut dbdb::replay::Reissue { actions: &actions },
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
    dbdb::difference(trace, &replay).map(|d| {
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
/// sets drawn at breakpoints' pauses only. The weights a campaign gave stay; relations not
/// asked for change nothing.
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

/// The analysis of a program in its language: JavaScript as a classic script (`source`), Python
/// by `py_source`; the `Err` says why it cannot be transformed. Here, above both, so that the
/// Python analysis can build `source`'s types without `source` depending on it.
pub fn analysis_of(text: &str, language: morphtrace_schema::Language) -> Result<Analysis, String> {
    match language {
        morphtrace_schema::Language::Python => py_source::analyze(text),
        _ => Analysis::of(text).map_err(|e| e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

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
}
