//! Lockstep continuation: a divergence whose class the triage judges (by design, a
//! representation, or a known engine bug) is recorded and the session goes on, the engines
//! brought back in step by what that class is; with three engines or more a lone suspect is left
//! out and the others go on. Without this, a known difference or bug ends every session it shows
//! in, and the actions after it — where the bugs a campaign looks for would show — never run.
//! Where an excused divergence cannot be gone past, the excuse did not hold: the divergence gets
//! an `OutOfStep` fact and stays new.
//!
//! What brings the engines back in step is never an action of the session: the actions stay the
//! same on every trace (a replay re-issues them and goes on past the same divergences in the same
//! way), and what was done shows as further outputs of the engines concerned after their answer
//! to the diverging action, with the divergence's `continued` saying what they are.

use super::Lockstep;
use crate::debugger::DebuggerError;
use morphtrace_judges::dbdb::{same_place, shown_at_one_place};
use morphtrace_judges::difference::variable_name;
use morphtrace_judges::remark::{self, PastTheCall, Remark};
use morphtrace_judges::triage::{Apart, Family, Member, Triage, Verdict};
use morphtrace_schema::fact::Fact;
use morphtrace_schema::{Action, Divergence, DivergenceKind, Output};
use morphtrace_syntax::nodes::LineNodes;

/// At most this many rounds of extra steps (the engine apart, then the others) to get back in step.
const MAX_EXTRA_STEPS: usize = 3;
/// The same where only the engine apart resumes, past a breakpoint only it stops at (a
/// condition that raises there): once per run of the line, and a comprehension's line runs
/// once per element.
const MAX_EXTRA_RESUMES: usize = 12;

/// What a session needs to go on past divergences: the triage, the engines' labels (as rules
/// name them, in the order of the session's traces) and the program (the class key's AST node,
/// a variable's binding).
pub struct GoOn<'a> {
    pub triage: &'a Triage,
    pub labels: Vec<String>,
    pub program: &'a str,
    pub language: morphtrace_schema::Language,
}

impl<'a> GoOn<'a> {
    pub fn new(
        triage: &'a Triage,
        labels: Vec<String>,
        program: &'a str,
        language: morphtrace_schema::Language,
    ) -> GoOn<'a> {
        GoOn {
            triage,
            labels,
            program,
            language,
        }
    }
}

/// How a session went on past a divergence.
pub(super) struct Went {
    /// What judged it and what was done, as the divergence's `continued` says.
    pub how: String,
    /// Where steps taken to bring the engines back in step left them (engine order, the
    /// engines in lockstep): what they show there compares next. `None`: the engines stand
    /// where they answered the action (a difference in what one pause shows, a breakpoint
    /// removed again).
    pub resynced: Option<Vec<Output>>,
}

impl Lockstep<'_> {
    /// The divergence `d` as the triage's rules see it: its class key (the AST node of the line
    /// the action was triggered at, on the first engine in lockstep), detail, engines and
    /// binding, as the analyzer makes the member from the archive.
    fn member(&mut self, d: &Divergence) -> Option<Member> {
        let line = self.trigger;
        let refs: Vec<morphtrace_schema::EngineRef> =
            self.rec.traces.iter().map(|t| t.engine).collect();
        let go = self.go_on.as_mut()?;
        let labels = go.labels.clone();
        let label = |e: morphtrace_schema::EngineRef| {
            refs.iter()
                .position(|r| *r == e)
                .and_then(|k| labels.get(k).cloned())
                .unwrap_or_default()
        };
        let engines: Vec<String> = if d.groups.is_empty() {
            // Two engines: the detail's sides.
            d.sides.iter().take(2).map(|s| label(s.engine)).collect()
        } else {
            d.sides.iter().map(|s| label(s.engine)).collect()
        };
        let suspect = d.suspect.map(label);
        let nodes = self.facts.get::<LineNodes>()?;
        let ast_node = match line {
            Some(l) => nodes.of(l),
            None => morphtrace_syntax::nodes::PROGRAM,
        };
        let binding = match (&d.kind, variable_name(&d.detail)) {
            (DivergenceKind::Variables, Some(name)) => nodes.binding(name),
            _ => None,
        };
        let after_the_code = line.is_some_and(|l| nodes.after_the_code(l));
        let key = |kind: &DivergenceKind| {
            [
                ("kind", kind.name().to_string()),
                ("last_action", d.action.name().to_string()),
                ("ast_node", ast_node.to_string()),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
        };
        let at_a_closing_brace: Vec<String> = d
            .sides
            .iter()
            .filter(|s| match &s.output {
                Some(Output::Paused(p)) => nodes.at_a_closing_brace(p.location),
                _ => false,
            })
            .map(|s| label(s.engine))
            .collect();
        // Where the engines name the top frame's function by inference (a call-stack
        // difference: the same pause on each side compared), of the whole divergence or of
        // one pair of groups in it (three engines: two at one place, named apart, the third
        // elsewhere).
        let inferring = |among: &dyn Fn(morphtrace_schema::EngineRef) -> bool| -> Vec<String> {
            let paused: Vec<(
                morphtrace_schema::EngineRef,
                Vec<(&str, morphtrace_schema::Location)>,
            )> = d
                .sides
                .iter()
                .filter(|s| among(s.engine))
                .filter_map(|s| match &s.output {
                    Some(Output::Paused(p)) => Some((
                        s.engine,
                        p.stack
                            .iter()
                            .map(|f| (f.function.as_str(), f.location))
                            .collect(),
                    )),
                    _ => None,
                })
                .collect();
            nodes
                .named_by_inference(&paused)
                .into_iter()
                .map(label)
                .collect()
        };
        let named_by_inference: Vec<String> = if d.kind == DivergenceKind::CallStack {
            inferring(&|_| true)
        } else {
            Vec::new()
        };
        let placements = morphtrace_schema::fact::placements(
            d.sides.iter().map(|s| {
                let placed = match &s.output {
                    Some(Output::BreakpointSet { actual, .. }) => Some(actual.as_slice()),
                    _ => None,
                };
                (s.engine, placed)
            }),
            &d.facts,
            label,
        );
        let pairs = d
            .pairs
            .iter()
            .map(|p| {
                let engines: Vec<String> = p.sides.iter().map(|&e| label(e)).collect();
                Member {
                    key: key(&p.kind),
                    detail: p.detail.clone(),
                    placements: morphtrace_schema::fact::of_engines(&placements, &engines),
                    engines,
                    binding: match (&p.kind, variable_name(&p.detail)) {
                        (DivergenceKind::Variables, Some(name)) => nodes.binding(name),
                        _ => None,
                    },
                    program_differs: d.program_differs.is_some(),
                    after_the_code,
                    at_a_closing_brace: at_a_closing_brace.clone(),
                    named_by_inference: if p.kind == DivergenceKind::CallStack {
                        inferring(&|e| p.sides.contains(&e))
                    } else {
                        named_by_inference.clone()
                    },
                    ..Member::default()
                }
            })
            .collect();
        Some(Member {
            key: key(&d.kind),
            detail: d.detail.clone(),
            engines,
            suspect,
            binding,
            program_differs: d.program_differs.is_some(),
            after_the_code,
            pairs,
            placements,
            out_of_step: morphtrace_schema::fact::out_of_step(&d.facts).is_some(),
            named_by_inference,
            at_a_closing_brace,
        })
    }

    /// Goes on past divergence `d` if it can: says how, or `None` when the session must stop
    /// there. A divergence a rule judges (excused, or a known engine bug in a breakpoint's
    /// placement, in what logpoints logged or in values: a known bug must not end the sessions
    /// in which the next one would show) is gone past where the engines can be brought back in step; where an excusing
    /// rule's account fails that way, `d` gets an `OutOfStep` fact, and no excusing rule judges
    /// it (it stays new).
    pub(super) async fn go_on_past(
        &mut self,
        d: &mut Divergence,
        active: &[usize],
        outputs: &[Output],
    ) -> Result<Option<Went>, DebuggerError> {
        let member = self.member(d);
        self.met_in_resync.clear();
        let Some(go) = self.go_on.as_ref() else {
            return Ok(None);
        };
        // A known bug is gone past where being back in step needs no account of who behaves
        // how (a breakpoint removed everywhere, what one pause shows), or where its rule says
        // which way its engine is apart (`apart`). The other stepping resyncs follow an
        // excusing rule's account of the engine apart.
        let steps_back = |r: &morphtrace_judges::triage::Rule| {
            r.excuses()
                || (r.verdict == Verdict::EngineBug
                    && (d.kind == DivergenceKind::BreakpointLocation
                        || d.kind == DivergenceKind::Log
                        || shown_at_one_place(&d.kind, &d.detail)
                        || (r.apart.is_some()
                            && matches!(
                                d.kind,
                                DivergenceKind::PauseLocation | DivergenceKind::Termination
                            ))))
        };
        let judged = member.and_then(|m| {
            let i = go.triage.first_judging(&m, Family::Divergence)?;
            let rule = &go.triage.rules[i];
            if steps_back(rule) {
                return Some((i, rule.clone(), rule.clone(), m));
            }
            // Three engines or more apart in pairs, each pair judged: the divergence's verdict
            // is the worst pair's (a known bug), but the engines are brought back in step by
            // the account of a pair whose difference is the divergence's own kind (where they
            // stand); the other pairs' differences are in what one pause shows, and compare
            // again where the engines meet.
            let by = m
                .pairs
                .iter()
                .filter(|p| p.key.get("kind").map(String::as_str) == Some(d.kind.name()))
                .filter_map(|p| go.triage.first_judging(p, Family::Divergence))
                .map(|j| &go.triage.rules[j])
                .find(|r| steps_back(r))?;
            (!m.pairs.is_empty() && m.suspect.is_none()).then(|| (i, rule.clone(), by.clone(), m))
        });
        if let Some((i, rule, by, member)) = judged {
            let why = if rule.verdict == Verdict::NotComparable {
                format!("set apart by triage rule {i} (not comparable)")
            } else if rule.excuses() {
                format!("excused by triage rule {i} ({})", rule.verdict.name())
            } else {
                format!("judged by triage rule {i} (engine bug), gone past")
            };
            match self.back_in_step(d, active, outputs, &by, &member).await? {
                Ok((how, resynced)) => {
                    return Ok(Some(Went {
                        how: format!("{why}: {how}"),
                        resynced,
                    }))
                }
                Err(no_way) => {
                    // The session stops at `d`; where the steps passed stays in the traces.
                    self.met_in_resync.clear();
                    self.rec.notes.push((
                        "lockstep stopped".into(),
                        format!("{why} at action {}, but {no_way}", d.action_index),
                    ));
                    if rule.excuses() {
                        d.facts.push(Fact::OutOfStep {
                            why: format!("triage rule {i} excused it, but {no_way}"),
                        });
                    }
                }
            }
        }
        // Three engines or more: the one that stood alone leaves the lockstep.
        if let Some(s) = d.suspect {
            if let Some(&k) = active.iter().find(|&&k| self.rec.traces[k].engine == s) {
                if active.len() > 2 {
                    self.active[k] = false;
                    let name = self.label(k);
                    return Ok(Some(Went {
                        how: format!("{name} stood alone: left out, the others go on in lockstep"),
                        resynced: None,
                    }));
                }
            }
        }
        Ok(None)
    }

    /// Brings the engines back in step after an excused divergence: `Ok((how, where the steps
    /// left them))`, or `Err(why not)`.
    async fn back_in_step(
        &mut self,
        d: &Divergence,
        active: &[usize],
        outputs: &[Output],
        rule: &morphtrace_judges::triage::Rule,
        member: &Member,
    ) -> Result<Result<(String, Option<Vec<Output>>), String>, DebuggerError> {
        match (&d.kind, &d.action) {
            // Placed differently, or refused on one side: removed again on every engine that
            // placed it; the actions go on without it.
            (DivergenceKind::BreakpointLocation, a) if a.sets_breakpoint() => {
                for (&k, o) in active.iter().zip(outputs) {
                    let id = match o {
                        Output::BreakpointSet { id, .. } => id,
                        // A refusal placed nothing: nothing to remove there.
                        Output::Error { .. } => continue,
                        other => {
                            return Ok(Err(format!(
                                "engine {k} set no breakpoint to remove ({})",
                                other.name()
                            )))
                        }
                    };
                    let removed = self.debuggers[k].remove_breakpoint(*id).await?;
                    let ok = matches!(removed, Output::BreakpointRemoved { ok: true, .. });
                    let at = self.now_us();
                    self.answer(k, removed, at);
                    if !ok {
                        return Ok(Err(format!("engine {k} could not remove its breakpoint")));
                    }
                }
                self.undone = true;
                Ok(Ok((
                    "the breakpoint removed on every engine that placed it".into(),
                    None,
                )))
            }
            // A step out that one side took past a generator's `yield` (it is one frame further
            // in, stopped at a breakpoint in the generator on the way): the others resume to it.
            // Which side is further in is read from the stacks, not from the rule (an engine-bug
            // rule names the engine at fault, which is the one that is not).
            (DivergenceKind::CallStack, Action::StepOut)
                if remark::of(&d.detail)
                    .iter()
                    .any(|r| matches!(r, Remark::OneFrameFurther { .. })) =>
            {
                let depth = |o: &Output| match o {
                    Output::Paused(p) => p.stack.len(),
                    _ => 0,
                };
                let deepest = outputs.iter().map(depth).max().unwrap_or(0);
                let further_in = |k: usize| depth(&outputs[k]) == deepest;
                let positions = 0..active.len();
                let (ahead, others): (Vec<usize>, Vec<usize>) =
                    positions.partition(|&k| further_in(k));
                let (Some(&first_ahead), false) = (ahead.first(), others.is_empty()) else {
                    return Ok(Err("no side is one frame further in".into()));
                };
                let first_ahead = active[first_ahead];
                let others: Vec<usize> = others.into_iter().map(|k| active[k]).collect();
                let (resumes, in_step) = self
                    .step_until_in_step(
                        active,
                        outputs,
                        &[others],
                        &Action::Resume,
                        MAX_EXTRA_STEPS,
                    )
                    .await?;
                if let Some(at) = in_step {
                    return Ok(Ok((
                        format!(
                            "{resumes} extra resume(s) of the others brought the engines to {}'s pause",
                            self.label(first_ahead)
                        ),
                        Some(at),
                    )));
                }
                Ok(Err(format!(
                    "{resumes} extra resumes of the others did not reach {}'s pause",
                    self.label(first_ahead)
                )))
            }
            // What logpoints logged is compared only where the answers agree: the engines stand
            // where they did, and the next action's logs compare apart.
            (DivergenceKind::Log, _)
                if outputs
                    .iter()
                    .all(|o| same_place(&outputs[0], o, self.policy)) =>
            {
                Ok(Ok((
                    "the engines are in step (they logged differently only)".into(),
                    None,
                )))
            }
            // The same place, shown differently: the engines are in step; go on comparing.
            _ if shown_at_one_place(&d.kind, &d.detail) => Ok(Ok((
                "the engines are in step (shown differently only)".into(),
                None,
            ))),
            // Pauses apart: the engine the rule names steps on (the same action) until it is
            // where the others are; where both sides pause once apart (V8 at a `return`,
            // SpiderMonkey at the closing brace), the others step once more too. A step that
            // returned into the caller, one side still on the line of the call: that side
            // finishes the line with a step over (the same step out would leave the caller), or
            // steps into the function the other side went on into from that line.
            (DivergenceKind::PauseLocation | DivergenceKind::Termination, a) if a.is_control() => {
                let Some(behind) = self.behaving(rule, member, active) else {
                    return Ok(Err("the rule does not say which engine pauses apart".into()));
                };
                if rule.apart == Some(Apart::Ahead) {
                    return self.catch_up_with(behind, d, active, outputs).await;
                }
                let remarks = remark::of(&d.detail);
                let past_the_call = remarks.iter().find_map(|r| match r {
                    Remark::OnTheCallLine { other, .. } => Some(*other),
                    _ => None,
                });
                // A pause only one side made, at a breakpoint whose condition threw there: the
                // others are where it will be once it goes on past that breakpoint (resumed:
                // a step that stopped there has ended, as a step a breakpoint interrupts does).
                let alone = remarks
                    .iter()
                    .any(|r| matches!(r, Remark::AtACondition { .. }));
                // One side in a loop's head where the engine the rule names (SpiderMonkey, at
                // the body's first statement) has no pause: the head's engines finish the head
                // with a step over, and it waits for them.
                let at_the_head = remarks
                    .iter()
                    .any(|r| matches!(r, Remark::AtALoopHeadAndItsBody { .. }));
                let at_a_heritage = remarks
                    .iter()
                    .any(|r| matches!(r, Remark::AtAHeritage { .. }));
                let a = if alone {
                    &Action::Resume
                } else if at_the_head || (at_a_heritage && *a == Action::StepOut) {
                    // A step out already ended in this frame: from the heritage, on to the
                    // declaration's end as the others went.
                    &Action::StepOver
                } else if past_the_call == Some(PastTheCall::InACallFromIt) {
                    &Action::StepInto
                } else if past_the_call == Some(PastTheCall::AnotherLine) {
                    &Action::StepOver
                } else if *a == Action::Start {
                    // The program runs already: on from the pause apart, as `start` would go.
                    &Action::Resume
                } else {
                    a
                };
                let rounds = if alone {
                    MAX_EXTRA_RESUMES
                } else {
                    MAX_EXTRA_STEPS
                };
                // A step that stopped where others have no step position (a class's heritage):
                // the others are past it already, so only it steps on.
                // So too where a known bug's engine stopped where the others do not.
                let extra_stop = rule.apart == Some(Apart::Behind) || at_a_heritage;
                // With three engines or more, the engines standing where the one the rule names
                // stands go with it (SpiderMonkey and JavaScriptCore both at a brace V8 has left).
                let at = |k: usize| active.iter().position(|&x| x == k).map(|i| &outputs[i]);
                let with_it = |k: usize| {
                    k == behind
                        || matches!((at(k), at(behind)), (Some(x), Some(y)) if same_place(x, y, self.policy))
                };
                let first: Vec<usize> = active.iter().copied().filter(|&k| with_it(k)).collect();
                let others = active
                    .iter()
                    .copied()
                    .filter(|&k| !with_it(k) && !alone && !extra_stop);
                let groups = if at_the_head {
                    [others.collect(), Vec::new()]
                } else {
                    [first, others.collect()]
                };
                let (steps, in_step) = self
                    .step_until_in_step(active, outputs, &groups, a, rounds)
                    .await?;
                if let Some(at) = in_step {
                    return Ok(Ok((
                        format!(
                            "{steps} extra {} step(s), {} first, brought the engines back in step",
                            a.name(),
                            self.label(behind)
                        ),
                        Some(at),
                    )));
                }
                Ok(Err(format!(
                    "{steps} extra {} steps ({} first) did not bring the engines back in step",
                    a.name(),
                    self.label(behind)
                )))
            }
            _ => Ok(Err(format!(
                "no way back into step is known for a {} divergence after {}",
                d.kind.name(),
                d.action.name()
            ))),
        }
    }

    /// Past a known bug by which engine `ahead` went on past a place the others stopped at (a
    /// pause it swallowed, a step that ran on, an end): the others go on to it while it waits,
    /// resumed where it stands at a breakpoint or has ended, else by the diverging action.
    async fn catch_up_with(
        &mut self,
        ahead: usize,
        d: &Divergence,
        active: &[usize],
        outputs: &[Output],
    ) -> Result<Result<(String, Option<Vec<Output>>), String>, DebuggerError> {
        let Some(at) = active.iter().position(|&k| k == ahead) else {
            return Ok(Err("the engine ahead is not in lockstep".into()));
        };
        let resume = match &outputs[at] {
            Output::Finished { .. } => true,
            Output::Paused(p) => {
                matches!(p.reason, morphtrace_schema::PauseReason::Breakpoint { .. })
            }
            _ => false,
        };
        let a = if resume || d.action == Action::Start {
            Action::Resume
        } else {
            d.action.clone()
        };
        let rounds = if a == Action::Resume {
            MAX_EXTRA_RESUMES
        } else {
            MAX_EXTRA_STEPS
        };
        let others: Vec<usize> = active.iter().copied().filter(|&k| k != ahead).collect();
        let (steps, in_step) = self
            .step_until_in_step(active, outputs, &[others], &a, rounds)
            .await?;
        let name = self.label(ahead);
        Ok(match in_step {
            Some(there) => Ok((
                format!(
                    "{steps} extra {} step(s) of the others brought them to {name}, ahead",
                    a.name()
                ),
                Some(there),
            )),
            None => Err(format!(
                "{steps} extra {} steps of the others did not bring them to {name}, ahead",
                a.name()
            )),
        })
    }

    /// Applies `action` to each group of engines in turn (a finished engine sitting out), for
    /// at most `rounds` rounds, until the engines stand at one place again (`same_place`): how
    /// many were applied, and each engine's last answer where they do. What they show there is
    /// the caller's to compare: a difference met where they meet again is recorded, not
    /// stepped past.
    async fn step_until_in_step(
        &mut self,
        active: &[usize],
        outputs: &[Output],
        groups: &[Vec<usize>],
        action: &Action,
        rounds: usize,
    ) -> Result<(usize, Option<Vec<Output>>), DebuggerError> {
        let mut current: Vec<Output> = outputs.to_vec();
        let mut steps = 0;
        // An engine whose program ended during these steps while another then still paused in
        // it went past pauses the other made (a step that ran to the end): meeting again at the
        // end is no way back into step, and what was gone past stays new.
        let ended_before = self.finished.clone();
        let mut ended_here = false;
        let mut paused_after_an_end = false;
        for _ in 0..rounds {
            for group in groups {
                for &k in group {
                    if self.finished[k] {
                        continue;
                    }
                    let o = self.debuggers[k].control(action).await?;
                    match &o {
                        Output::Finished { .. } if !ended_before[k] => ended_here = true,
                        Output::Paused(_) if ended_here => paused_after_an_end = true,
                        _ => {}
                    }
                    let at = self.now_us();
                    self.answer(k, o.clone(), at);
                    // What its logpoints logged on this step belongs to the action being gone
                    // past (the one just counted), not to the next action: stamped so, the
                    // engines' logs compare action by action as if no step had been added.
                    let logs = self.debuggers[k].logs();
                    self.rec
                        .note_logs(k, logs, self.rec.actions.saturating_sub(1));
                    steps += 1;
                    if let Some(p) = active.iter().position(|&x| x == k) {
                        current[p] = o;
                    }
                }
                if current
                    .iter()
                    .all(|o| same_place(&current[0], o, self.policy))
                {
                    if paused_after_an_end {
                        return Ok((steps, None));
                    }
                    return Ok((steps, Some(current)));
                }
                if active.iter().all(|&k| self.finished[k]) {
                    return Ok((steps, None));
                }
            }
            // A whole round and still apart: a place the account did not predict. What a
            // conditional breakpoint's condition gives there is read now, while the engines
            // stand there (the divergence's remark says whether it threw).
            let mut met = current.clone();
            self.check_conditions(active, &mut met).await?;
            self.met_in_resync.push(met);
        }
        Ok((steps, None))
    }

    /// The engine in lockstep that the rule says behaves so in `member`.
    fn behaving(
        &self,
        rule: &morphtrace_judges::triage::Rule,
        member: &Member,
        active: &[usize],
    ) -> Option<usize> {
        // No engine alone: the engine of the first pair the rule judges (the others step after
        // it, so it need not be the only one apart).
        let label = rule
            .behaving(member)
            .or_else(|| member.pairs.iter().find_map(|p| rule.behaving(p)))?;
        active.iter().copied().find(|&k| self.label(k) == label)
    }

    /// The label of the engine of trace `k`.
    fn label(&self, k: usize) -> String {
        self.go_on
            .as_ref()
            .and_then(|g| g.labels.get(k).cloned())
            .unwrap_or_default()
    }
}
