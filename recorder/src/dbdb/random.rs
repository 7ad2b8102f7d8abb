//! DBDB's random actions (ASE 2022, Algorithm 1) as a strategy of the session core, and the
//! modern actions drawn from what a pause shows.

use super::rng_for;
use crate::debugger::DebuggerError;
use crate::session::{Lockstep, Strategy};
use crate::task::{ExceptionChoice, RandomParams};
use morphtrace_schema::{Action, Language, Output, SessionOutcome};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::ops::ControlFlow;

/// DBDB's Algorithm 1 as a session strategy: breakpoints at random lines (some removed again),
/// then random control actions while the program runs, with the modern actions weighted in when
/// asked (evaluations, conditions, logpoints, set variables, continues to a location, restarted
/// frames); every draw from the seed's and program's generator.
pub struct Random<'p> {
    pub params: &'p RandomParams,
    pub seed: u64,
}

/// What one session's draw keeps between actions.
struct Draw<'p> {
    params: &'p RandomParams,
    rng: ChaCha8Rng,
    /// The program's lines (at least one) and language.
    lines: u32,
    language: Language,
    /// Lines that hold a breakpoint of the session, as asked for and where placed.
    bps: BTreeSet<u32>,
    /// Names an assignment cannot change (see `drive`).
    fixed: morphtrace_syntax::js::tdz::Declarations,
    /// What a metamorphic campaign's parent carries for the relations asked for.
    carry: Carry,
}

/// The actions a metamorphic campaign's parent carries (`metamorphic::carrying`) and how far
/// it got with them.
#[derive(Default)]
struct Carry {
    /// Set-variable-as-code's set was made.
    set: bool,
    /// Plain breakpoints of the session (not conditions, logpoints or continues).
    plain: BTreeSet<morphtrace_schema::BreakpointId>,
    /// Logpoint-for-a-breakpoint's breakpoint, chosen at its first hit, left by resumes.
    resumed: Option<Vec<morphtrace_schema::BreakpointId>>,
    /// Restart-frame-as-reentry: lines that call a function without side effects, and those
    /// functions; `entered` once a step into paused in one.
    pure_calls: BTreeSet<u32>,
    pure: Vec<morphtrace_syntax::js::pure::Function>,
    entered: bool,
    /// Whether the last pause was reached by the start or a resume, and has had no action yet.
    by_resume: bool,
    fresh: bool,
}

#[async_trait::async_trait]
impl Strategy for Random<'_> {
    async fn drive(&mut self, ls: &mut Lockstep<'_>) -> Result<(), DebuggerError> {
        let program = ls.program();
        // Names an assignment cannot change: never set where one debugger sets by a request of
        // its own (CDP's changes them, an assignment throws: the difference would be the two
        // ways, not an engine's); where all assign, they are fair game.
        let by_assignment = ls.debuggers().iter().all(|d| d.sets_by_assignment());
        let fixed = if self.params.set_variable_weight > 0.0 && !by_assignment {
            morphtrace_syntax::js::tdz::Declarations::scan(&program.text)
        } else {
            Default::default()
        };
        let mut carry = Carry::default();
        if self.params.steps_into_pure_calls
            && program.language == Language::JavaScript
            && ls.restarts_frames()
        {
            carry.pure_calls = morphtrace_syntax::js::pure::pure_calls(&program.text);
            carry.pure = morphtrace_syntax::js::pure::functions(&program.text);
        }
        let mut draw = Draw {
            params: self.params,
            rng: rng_for(self.seed, ls.program_hash()),
            lines: program.lines.max(1),
            language: program.language,
            bps: BTreeSet::new(),
            fixed,
            carry,
        };
        if draw.breakpoints(ls).await?.is_break() || draw.exception_pauses(ls).await?.is_break() {
            return Ok(());
        }
        // Lines 16-27: start, then random control actions while the program runs.
        ls.apply(&Action::Start).await?;
        draw.run(ls).await
    }
}

impl Draw<'_> {
    /// Algorithm 1, lines 2-15: breakpoints at random lines, some removed again. Breaks where
    /// the session stopped at a divergence.
    async fn breakpoints(
        &mut self,
        ls: &mut Lockstep<'_>,
    ) -> Result<ControlFlow<()>, DebuggerError> {
        let (params, lines) = (self.params, self.lines);
        let max_bps = ((lines as f64) * params.bp_per_line)
            .round()
            .clamp(1.0, params.max_breakpoints.max(1) as f64) as usize;
        let mut attempts = 0;
        let placeable = if params.placeable_lines {
            ls.placeable_lines(lines).await?
        } else {
            None
        };
        while self.bps.len() < max_bps && attempts < 10 * max_bps + 10 {
            attempts += 1;
            let line = match &placeable {
                Some(p) if p.is_empty() => break,
                Some(p) => p[self.rng.random_range(0..p.len())],
                None => self.rng.random_range(0..lines),
            };
            if self.bps.contains(&line) {
                continue;
            }
            let outs = ls
                .apply(&Action::SetBreakpoint { line, column: None })
                .await?;
            if ls.stopped() {
                return Ok(ControlFlow::Break(()));
            }
            if ls.undone() {
                // An excused placement: removed again on every engine; the generator moves on.
                continue;
            }
            let id = match outs.first() {
                Some(Output::BreakpointSet { id, .. }) => Some(*id),
                _ => None,
            };
            match id {
                Some(id) if self.rng.random_bool(params.remove_prob) => {
                    ls.apply(&Action::RemoveBreakpoint { id }).await?;
                    if ls.stopped() {
                        return Ok(ControlFlow::Break(()));
                    }
                }
                _ => {
                    self.carry.plain.extend(id);
                    self.bps.insert(line);
                    for o in &outs {
                        if let Output::BreakpointSet { actual, .. } = o {
                            self.bps.extend(actual.iter().map(|l| l.line));
                        }
                    }
                }
            }
        }
        // Carried for restart-frame-as-reentry: a pause on a line that calls a function without
        // side effects, from which the draw steps in (`carried`), needs a breakpoint there.
        let calls: Vec<u32> = self.carry.pure_calls.iter().copied().collect();
        if !calls.is_empty() && !calls.iter().any(|l| self.bps.contains(l)) {
            let line = calls[self.rng.random_range(0..calls.len())];
            let outs = ls
                .apply(&Action::SetBreakpoint { line, column: None })
                .await?;
            if ls.stopped() {
                return Ok(ControlFlow::Break(()));
            }
            if !ls.undone() {
                for o in &outs {
                    if let Output::BreakpointSet { id, actual, .. } = o {
                        self.carry.plain.insert(*id);
                        self.bps.insert(line);
                        self.bps.extend(actual.iter().map(|l| l.line));
                    }
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Beyond Algorithm 1: which exceptions pause, before the program starts.
    async fn exception_pauses(
        &mut self,
        ls: &mut Lockstep<'_>,
    ) -> Result<ControlFlow<()>, DebuggerError> {
        use morphtrace_schema::ExceptionPause;
        let Some(choice) = self.params.exceptions else {
            return Ok(ControlFlow::Continue(()));
        };
        let mode = match choice {
            ExceptionChoice::Fixed(m) => m,
            ExceptionChoice::Random => [
                ExceptionPause::None,
                ExceptionPause::Uncaught,
                ExceptionPause::All,
            ][self.rng.random_range(0..3)],
        };
        ls.apply(&Action::PauseOnExceptions { mode }).await?;
        Ok(if ls.stopped() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    }

    /// Random actions from the start until the program ends, the action budget is spent or
    /// the session stops at a divergence.
    async fn run(&mut self, ls: &mut Lockstep<'_>) -> Result<(), DebuggerError> {
        let mut used = 1;
        self.carry.by_resume = true;
        self.carry.fresh = true;
        loop {
            if ls.stopped() {
                return Ok(());
            }
            if ls.all_finished() {
                ls.end(SessionOutcome::Finished);
                return Ok(());
            }
            if used >= self.params.max_actions {
                ls.end(SessionOutcome::ActionLimit);
                return Ok(());
            }
            let action = match self.carried(ls) {
                Some(a) => a,
                None => self.action(ls),
            };
            ls.apply(&action).await?;
            used += 1;
            if action.is_control() {
                self.carry.by_resume = matches!(action, Action::Resume);
                self.carry.fresh = true;
                if action == Action::StepInto && !self.carry.pure.is_empty() {
                    let pure = &self.carry.pure;
                    self.carry.entered |= ls
                        .last_pause()
                        .is_some_and(|p| morphtrace_syntax::js::pure::pure_at(pure, p.location));
                }
            } else {
                self.carry.fresh = false;
            }
        }
    }

    /// The action a metamorphic campaign's parent carries at this pause for a relation asked
    /// for, before any draw (`metamorphic::carrying`): set-variable-as-code's set at the first
    /// breakpoint pause with a local to set; logpoint-for-a-breakpoint's resume at each hit of
    /// one plain breakpoint reached by a resume; restart-frame-as-reentry's step into on a line
    /// that calls a function without side effects, until one is entered.
    fn carried(&mut self, ls: &Lockstep<'_>) -> Option<Action> {
        use morphtrace_schema::PauseReason;
        let p = ls.last_pause()?;
        let hit = match &p.reason {
            PauseReason::Breakpoint { ids } => Some(ids),
            _ => None,
        };
        if self.params.sets_at_breakpoints && !self.carry.set && hit.is_some() {
            let fixed = &self.fixed;
            if let Some(a) = assignment(&p, |n| fixed.fixed(n), &mut self.rng, self.language) {
                self.carry.set = true;
                return Some(a);
            }
        }
        // Only at a hit nothing was done at yet, reached by a resume: a relation's skipped
        // pause must have been a hit left at once.
        if let Some(ids) = hit.filter(|_| {
            self.params.resumes_at_a_breakpoint
                && self.carry.by_resume
                && self.carry.fresh
                && p.exception.is_none()
        }) {
            match &self.carry.resumed {
                Some(kept) if ids.iter().any(|i| kept.contains(i)) => return Some(Action::Resume),
                Some(_) => {}
                None => {
                    let primitive = morphtrace_judges::dbdb::visible_variables(p.top_scopes())
                        .into_iter()
                        .any(|(n, v)| spellable(n) && settable(v));
                    if primitive && ids.iter().all(|i| self.carry.plain.contains(i)) {
                        self.carry.resumed = Some(ids.clone());
                        return Some(Action::Resume);
                    }
                }
            }
        }
        if !self.carry.entered
            && self.carry.fresh
            && p.exception.is_none()
            && self.carry.pure_calls.contains(&p.location.line)
        {
            return Some(Action::StepInto);
        }
        None
    }

    /// Which kind of action comes next: DBDB's draw (four control actions alike) unless other
    /// actions are weighted in (4: evaluate, 5: a conditional breakpoint, 6: a logpoint, 7: set
    /// a variable, 8: continue to a location, 9: restart a frame).
    fn pick(&mut self) -> u32 {
        let extra = self.params.extra_weight();
        if extra > 0.0 {
            let x = self.rng.random_range(0.0..4.0 + extra);
            let mut bound = 4.0;
            let mut pick = x as u32;
            if x >= 4.0 {
                // Rounding past the last bound: a step over, as when nothing fits.
                pick = 3;
                for (k, w) in [
                    self.params.evaluate_weight,
                    self.params.condition_weight,
                    self.params.logpoint_weight,
                    self.params.set_variable_weight,
                    self.params.continue_weight,
                    self.params.restart_weight,
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
            self.rng.random_range(0..4)
        }
    }

    /// The next action, drawn from what the session's last pause shows; a step over where the
    /// drawn kind has nothing to act on.
    fn action(&mut self, ls: &Lockstep<'_>) -> Action {
        match self.pick() {
            0 => Action::Resume,
            1 => Action::StepInto,
            2 => Action::StepOut,
            3 => Action::StepOver,
            4 => match ls.last_pause().and_then(|p| expression(&p, &mut self.rng)) {
                Some(expression) => Action::Evaluate { expression },
                // Nothing to evaluate here: a control action instead.
                None => Action::StepOver,
            },
            5 => match ls
                .last_pause()
                .and_then(|p| conditional(&p, self.lines, &self.bps, &mut self.rng, self.language))
            {
                Some(a) => {
                    self.bps.extend(a.breakpoint_line());
                    a
                }
                None => Action::StepOver,
            },
            6 => match ls
                .last_pause()
                .and_then(|p| logpoint(&p, self.lines, &self.bps, &mut self.rng))
            {
                Some(a) => {
                    self.bps.extend(a.breakpoint_line());
                    a
                }
                None => Action::StepOver,
            },
            7 => match ls.last_pause() {
                Some(p)
                    if self.params.sets_at_breakpoints
                        && !matches!(
                            p.reason,
                            morphtrace_schema::PauseReason::Breakpoint { .. }
                        ) =>
                {
                    Action::Resume
                }
                p => match p.and_then(|p| {
                    assignment(&p, |n| self.fixed.fixed(n), &mut self.rng, self.language)
                }) {
                    Some(a) => a,
                    None => Action::StepOver,
                },
            },
            // Continue to a line below the pause, where every debugger can.
            8 => match ls.last_pause().filter(|_| ls.continues_to_location()) {
                Some(p) if p.location.line.saturating_add(1) < self.lines => {
                    let from = p.location.line + 1;
                    Action::ContinueToLocation {
                        line: self
                            .rng
                            .random_range(from..self.lines.min(from.saturating_add(10))),
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
                            frame: functions[self.rng.random_range(0..n)],
                        },
                    }
                }
                None => Action::StepOver,
            },
        }
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
        _ if language == Language::JavaScript => format!("{name} % 2 === 0"),
        _ => format!("{name} % 2 == 0"),
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
        .filter(|(n, v)| spellable(n) && !fixed(n) && settable(v))
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

/// A value a set variable may hold and a literal can spell: a number, string, boolean or null.
fn settable(v: &morphtrace_schema::Value) -> bool {
    use morphtrace_schema::Value;
    matches!(
        v,
        Value::Number(_) | Value::String(_) | Value::Bool(_) | Value::Null
    )
}

/// A primitive literal whose value differs from `now` and is of its type when it can be (a
/// number near it, a string with a letter more, the other boolean), spelled in the program's
/// language (JSON's spelling is JavaScript's; Python's booleans are capitalized, C's are 0 and 1).
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
        // C's `_Bool` takes an integer.
        Value::Bool(b) if language == Language::C => u8::from(!b).to_string(),
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
