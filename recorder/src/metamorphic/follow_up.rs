//! A follow-up while it runs: the parent's actions transformed by a [`Recipe`], issued through
//! the session core on the live debugger, brought back in step with the parent where a
//! transformation made the debugger stop elsewhere (decided from the live outputs), and what the
//! relation expects of it noted as it goes.

use crate::debugger::DebuggerError;
use crate::session::{Lockstep, Strategy};
use morphtrace_judges::metamorphic::{Expectation, PositionMap, Transformation};
use morphtrace_schema::{Action, BreakpointId, ExceptionPause, Location, Output, SessionOutcome};
use std::collections::{BTreeMap, BTreeSet, HashSet};

pub(in crate::metamorphic) fn paused_at(o: &Output) -> Option<Location> {
    match o {
        Output::Paused(p) => Some(p.location),
        _ => None,
    }
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

pub(in crate::metamorphic) fn slid(action: &Action, out: &Option<Output>) -> bool {
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
pub(in crate::metamorphic) struct Recipe {
    pub(in crate::metamorphic) name: Transformation,
    pub(in crate::metamorphic) map: PositionMap,
    /// Program transformations: every breakpoint set at its parent's actual location (implicit
    /// sliding, §3.2.1), so that inserted code cannot capture it.
    pub(in crate::metamorphic) slide_all: bool,
    /// Breakpoint sliding: slid breakpoints set at their actual location.
    pub(in crate::metamorphic) slide_slid: bool,
    /// Add-breakpoint: before which parent action, at which line.
    pub(in crate::metamorphic) new_breakpoint: Option<(usize, u32)>,
    /// The added breakpoint's condition (condition-false): it must never pause, so its line
    /// allows no extra pause.
    pub(in crate::metamorphic) new_condition: Option<String>,
    /// A parent breakpoint request (by action index) set with this condition instead.
    pub(in crate::metamorphic) conditioned: Option<(usize, String)>,
    /// Parent resumes left out: each left a pause the condition filters away.
    pub(in crate::metamorphic) drop_resumes: BTreeSet<usize>,
    /// After which parent action (a pause) which local's name is evaluated.
    pub(in crate::metamorphic) evaluate_after: Option<(usize, String)>,
    /// Every exception pauses: parent settings become `all`, and `all` is set before the start.
    pub(in crate::metamorphic) exceptions_all: bool,
    /// A parent breakpoint request (by action index) set as a logpoint of this local instead.
    pub(in crate::metamorphic) logpoint: Option<(usize, String)>,
    /// Replace-continue: which parent action, by which step.
    pub(in crate::metamorphic) replace: Option<(usize, Action)>,
    /// A parent continue to a location (by action index) done as a temporary breakpoint there,
    /// a resume, and the breakpoint removed.
    pub(in crate::metamorphic) continue_as_breakpoint: Option<usize>,
    /// A parent set variable (by action index) left out: the program does it (the inserted
    /// line), before the pause (the control action, by index) it was made at.
    pub(in crate::metamorphic) set_as_code: Option<(usize, usize)>,
    /// After which parent control action (a pause in a function without side effects) its
    /// frame is restarted, and the parent's control action that entered the function: the
    /// actions after the entry up to the restart's place are issued again.
    pub(in crate::metamorphic) restart: Option<(usize, usize)>,
    /// A step that stops on an inserted line is issued again (the new code is real code).
    pub(in crate::metamorphic) restep_inserted: bool,
    /// Lines (follow-up coordinates) of code inserted by earlier rounds: dead code whose
    /// condition a later round made non-constant is real code to V8, which then steps there.
    pub(in crate::metamorphic) inserted_code: BTreeSet<u32>,
}

impl Recipe {
    /// The recipe of transformation `name` that changes nothing yet.
    pub(in crate::metamorphic) fn new(name: Transformation) -> Recipe {
        Recipe {
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
        }
    }
}

/// A follow-up as a strategy of the session core: the parent's actions transformed by a recipe,
/// resynchronized where needed, what the relation expects of it noted as it runs.
pub(super) struct FollowUpStrategy<'p> {
    pub(super) parent: &'p [(Action, Option<Output>)],
    pub(super) recipe: &'p Recipe,
    pub(super) max_resync: u32,
    pub(super) expect: Expectation,
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
            ids: BTreeMap::new(),
            dropped_ids: HashSet::new(),
            requested: BTreeMap::new(),
            users: BTreeMap::new(),
            parent_keys: BTreeMap::new(),
            new_bp: None,
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
    /// The follow-up's breakpoints by the parent's.
    ids: BTreeMap<BreakpointId, BreakpointId>,
    /// The parent's breakpoints the follow-up does without (in removed code, shared).
    dropped_ids: HashSet<BreakpointId>,
    /// Follow-up breakpoints by where they were requested: V8 refuses a second breakpoint at
    /// the same place, which slid ones may share with one set there directly.
    requested: BTreeMap<BreakpointId, (u32, Option<u32>)>,
    /// How many parent breakpoints a shared follow-up breakpoint stands for.
    users: BTreeMap<BreakpointId, u32>,
    /// The parent's breakpoints by V8's key of its request (line, column; no column is 0): a
    /// request that meets one of them was refused in the parent, and must be in the follow-up.
    parent_keys: BTreeMap<(u32, u32), BreakpointId>,
    /// The breakpoint add-breakpoint-and-continue added, while it stands.
    new_bp: Option<BreakpointId>,
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
        f.before(i, r, first_control).await?;
        match action {
            Action::SetBreakpoint { .. }
            | Action::SetConditionalBreakpoint { .. }
            | Action::SetLogpoint { .. } => f.request(i, action, parent_out, r).await?,
            Action::RemoveBreakpoint { id } => f.remove(i, *id).await?,
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
                f.continue_as_breakpoint(*line, r).await?;
            }
            _ if r.drop_resumes.contains(&i) => {}
            control => {
                if f.finished() {
                    break;
                }
                f.control(i, control, parent_out, r, max_resync).await?;
            }
        }
        f.after(i, parent, r).await?;
    }
    let outcome = match f.astray.take() {
        Some(reason) => SessionOutcome::Rejected { reason },
        None if f.finished() => SessionOutcome::Finished,
        None => SessionOutcome::ActionLimit,
    };
    f.ls.end_as(outcome);
    Ok(())
}

impl FollowUp<'_, '_> {
    /// What a relation adds before parent action `i`: its new breakpoint, and pausing on every
    /// exception before the first control action.
    async fn before(
        &mut self,
        i: usize,
        r: &Recipe,
        first_control: usize,
    ) -> Result<(), DebuggerError> {
        if r.new_breakpoint.is_some_and(|(at, _)| at == i) && !self.finished() {
            let line = r.new_breakpoint.map(|(_, l)| l).unwrap_or(0);
            self.expect.inserted.insert(self.index());
            let request = match &r.new_condition {
                Some(condition) => Action::SetConditionalBreakpoint {
                    line,
                    condition: condition.clone(),
                    column: None,
                },
                None => Action::SetBreakpoint { line, column: None },
            };
            if let Output::BreakpointSet { id, actual, .. } = self.apply(request).await? {
                if r.new_condition.is_none() {
                    self.new_bp = Some(id);
                    self.expect
                        .extra_lines
                        .extend(actual.iter().map(|l| l.line));
                }
            }
        }
        if r.exceptions_all && i == first_control && !self.finished() {
            self.expect.inserted.insert(self.index());
            self.apply(Action::PauseOnExceptions {
                mode: ExceptionPause::All,
            })
            .await?;
        }
        Ok(())
    }

    /// Parent action `i`, a breakpoint request, as the recipe has it asked for.
    async fn request(
        &mut self,
        i: usize,
        action: &Action,
        parent_out: &Option<Output>,
        r: &Recipe,
    ) -> Result<(), DebuggerError> {
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
        let asked_again = parent_id.is_some() && self.parent_keys.contains_key(&parent_key);
        let refused_like = match parent_id {
            Some(p) => {
                self.parent_keys.insert(parent_key, p);
                None
            }
            None => self
                .parent_keys
                .get(&parent_key)
                .and_then(|p| self.ids.get(p))
                .and_then(|fid| self.requested.get(fid).copied()),
        };
        // Program transformations set every breakpoint where the parent's landed; one
        // that landed nowhere (JavaScriptCore gives a breakpoint that slides onto a
        // taken place no location) has no place in the follow-up, where its request
        // could slide onto inserted code instead.
        if r.slide_all
            && matches!(parent_out, Some(Output::BreakpointSet { actual, .. }) if actual.is_empty())
        {
            self.expect.dropped.insert(i as u32);
            self.dropped_ids.extend(parent_id);
            return Ok(());
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
            self.expect.dropped.insert(i as u32);
            self.dropped_ids.extend(parent_id);
            return Ok(());
        };
        // Two parent breakpoints that slid to one place are one breakpoint there: V8
        // refuses a second breakpoint with the same URL, line and column (no column
        // counts as column 0), so share it, and count its self.users.
        let shared = self
            .requested
            .iter()
            .find(|(_, &(l, c))| l == line && c.unwrap_or(0) == column.unwrap_or(0))
            .map(|(&id, _)| id);
        if let (Some(fid), Some(p), false) = (shared, parent_id, asked_again) {
            self.ids.insert(p, fid);
            *self.users.entry(fid).or_insert(1) += 1;
            self.expect.dropped.insert(i as u32);
            return Ok(());
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
                self.expect.logged = Some((self.index(), hits, local.clone()));
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
        let out = self.apply(request).await?;
        if let Output::BreakpointSet { id, .. } = &out {
            self.requested.insert(*id, sent);
            if let Some(p) = parent_id {
                self.ids.insert(p, *id);
            }
        }
        Ok(())
    }

    /// Parent action `i`, removing the parent's breakpoint `id`, on the follow-up's breakpoint.
    async fn remove(&mut self, i: usize, id: BreakpointId) -> Result<(), DebuggerError> {
        self.parent_keys.retain(|_, p| *p != id);
        if self.dropped_ids.contains(&id) {
            self.expect.dropped.insert(i as u32);
            return Ok(());
        }
        let id = self.ids.get(&id).copied().unwrap_or(id);
        if let Some(n) = self.users.get_mut(&id).filter(|n| **n > 1) {
            *n -= 1;
            self.expect.dropped.insert(i as u32);
            return Ok(());
        }
        self.users.remove(&id);
        self.requested.remove(&id);
        self.apply(Action::RemoveBreakpoint { id }).await?;
        Ok(())
    }

    /// A continue to `line` done as a temporary breakpoint there, a resume, and the breakpoint
    /// removed.
    async fn continue_as_breakpoint(&mut self, line: u32, r: &Recipe) -> Result<(), DebuggerError> {
        let line = r
            .map
            .to_follow_up(Location::new(line, 0))
            .map_or(line, |l| l.line);
        self.expect.inserted.insert(self.index());
        let temp = self
            .apply(Action::SetBreakpoint { line, column: None })
            .await?;
        self.apply(Action::Resume).await?;
        if let Output::BreakpointSet { id, .. } = temp {
            self.expect.inserted.insert(self.index());
            self.apply(Action::RemoveBreakpoint { id }).await?;
        }
        Ok(())
    }

    /// Parent control action `i`, issued (or replaced by the recipe's step) and brought back in
    /// step with where the parent's answer went.
    async fn control(
        &mut self,
        i: usize,
        control: &Action,
        parent_out: &Option<Output>,
        r: &Recipe,
        max_resync: u32,
    ) -> Result<(), DebuggerError> {
        let issued = match &r.replace {
            Some((at, step)) if *at == i => {
                self.expect.extra_actions.insert(self.index());
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
        let mut out = self.apply(issued.clone()).await?;
        let mut last = issued;
        // Caught exceptions can be thrown many times over (a loop around a try):
        // every one of their pauses is extra and resumed from.
        let budget = if r.exceptions_all { 64 } else { max_resync + 1 };
        for attempt in 0..budget {
            if self.in_sync(&out, parent_out) {
                break;
            }
            if (r.exceptions_all && self.popped_after_a_throw) || self.popped_where_it_stood {
                // Firefox's server pauses once more where a step began as the frame
                // pops: after an exception pause, as the throw pops it; after a
                // breakpoint pause at the frame's last position (a rejoin's temporary
                // breakpoint, or one a relation added), as it returns. The parent, which
                // stood there otherwise (no exception pause; arrived by a step, that
                // pause itself), never made it. The step again goes on.
                self.expect.extra_actions.insert(self.index() - 1);
                out = self.apply(last.clone()).await?;
                continue;
            }
            let Some(here) = paused_at(&out) else { break };
            let on_old_code = r.inserted_code.contains(&here.line);
            let on_new_bp = self.expect.extra_lines.contains(&here.line) && !on_old_code;
            let on_throw = r.exceptions_all && thrown_at(&out);
            let stepped = !matches!(last, Action::Resume | Action::Start);
            if ((on_new_bp && r.name == Transformation::AddBreakpoint) || on_throw) && stepped {
                // Figure 7: the new breakpoint consumed a step.
                out = self.rejoin(parent_out, r, budget, max_resync).await?;
                last = Action::Resume;
            } else if on_new_bp
                || on_throw
                || self.expect.extra_actions.contains(&(self.index() - 1))
            {
                // A pause the parent did not have: continue to where it went. A new
                // breakpoint in a loop is hit again and again: after a few times it is
                // removed (its pauses so far stay extra).
                if on_new_bp && attempt + 1 >= max_resync {
                    if let Some(id) = self.new_bp.take() {
                        self.expect.inserted.insert(self.index());
                        self.apply(Action::RemoveBreakpoint { id }).await?;
                    }
                }
                out = self.apply(Action::Resume).await?;
                last = Action::Resume;
            } else if on_old_code
                || (r.restep_inserted && self.expect.map.to_parent(here).is_none())
            {
                out = self.apply(Action::StepOver).await?;
                last = Action::StepOver;
            } else {
                break;
            }
        }
        Ok(())
    }

    /// After a step the new breakpoint (or a thrown exception) consumed: a temporary breakpoint
    /// where the parent's step went, a continue, and the breakpoint removed (Figure 7). Returns
    /// where the follow-up then stands.
    async fn rejoin(
        &mut self,
        parent_out: &Option<Output>,
        r: &Recipe,
        budget: u32,
        max_resync: u32,
    ) -> Result<Output, DebuggerError> {
        let mut out;
        // Figure 7: the new breakpoint consumed a step; a temporary breakpoint
        // where the parent's step went, a continue, and the breakpoint removed.
        if let Some(to) = parent_out.as_ref().and_then(paused_at) {
            let to = r.map.to_follow_up(to).unwrap_or(to);
            self.expect.inserted.insert(self.index());
            let temp = self
                .apply(Action::SetBreakpoint {
                    line: to.line,
                    column: Some(to.column),
                })
                .await?;
            let placed =
                matches!(&temp, Output::BreakpointSet { actual, .. } if actual.contains(&to));
            out = self.apply(Action::Resume).await?;
            // In a loop the new breakpoint comes round again before the
            // temporary one: those pauses are extra; go on to the temporary
            // one, and take the new breakpoint away once it keeps coming.
            // The temporary breakpoint also stops in other calls than the one
            // the parent's step went to (its function called from elsewhere
            // first): those pauses are the breakpoint's alone, and extra too.
            let wanted = parent_out.as_ref().and_then(callers);
            let elsewhere = |o: &Output| paused_at(o) == Some(to) && callers(o) != wanted;
            let mut again = 0;
            while paused_at(&out).is_some_and(|h| {
                h != to
                    && ((self.expect.extra_lines.contains(&h.line)
                        && !r.inserted_code.contains(&h.line))
                        || (r.exceptions_all && thrown_at(&out)))
            }) || elsewhere(&out)
            {
                if elsewhere(&out) {
                    self.expect.passed.insert(self.index() - 1);
                }
                again += 1;
                if again > budget || self.finished() {
                    break;
                }
                if again >= max_resync {
                    if let Some(id) = self.new_bp.take() {
                        self.expect.inserted.insert(self.index());
                        self.apply(Action::RemoveBreakpoint { id }).await?;
                    }
                }
                out = self.apply(Action::Resume).await?;
            }
            if elsewhere(&out) && self.astray.is_none() {
                self.astray = Some(format!(
                    "the follow-up could not rejoin the parent: a breakpoint at \
                     {to}, where the parent's step went, stopped only in other calls"
                ));
            } else if paused_at(&out) != Some(to) && self.astray.is_none() {
                // The resume did not reach where the parent's step went: the
                // engine would not place the temporary breakpoint there
                // (JavaScriptCore refuses some positions a step stops at), or a
                // breakpoint there does not stop (V8: the position a step out
                // returns to, in the middle of the caller's expression). The
                // follow-up cannot rejoin the parent, and is not judged.
                self.astray = Some(if placed {
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
                self.expect.inserted.insert(self.index());
                self.apply(Action::RemoveBreakpoint { id }).await?;
            }
        } else {
            out = self.apply(Action::Resume).await?;
        }
        Ok(out)
    }

    /// What a relation adds after parent action `i`: a restarted frame and the actions since
    /// its entry again, an evaluated local.
    async fn after(
        &mut self,
        i: usize,
        parent: &[(Action, Option<Output>)],
        r: &Recipe,
    ) -> Result<(), DebuggerError> {
        if let Some((entry, at)) = r.restart {
            if at == i && !self.finished() {
                self.apply(Action::RestartFrame { frame: 0 }).await?;
                for (again, _) in &parent[entry + 1..=at] {
                    if self.finished() {
                        break;
                    }
                    self.apply(again.clone()).await?;
                }
            }
        }
        if let Some((at, name)) = &r.evaluate_after {
            if *at == i && !self.finished() {
                self.expect.inserted.insert(self.index());
                self.expect.evaluated_locals.insert(self.index());
                self.apply(Action::Evaluate {
                    expression: name.clone(),
                })
                .await?;
            }
        }
        Ok(())
    }
}
