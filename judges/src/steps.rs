//! The debugger against itself (issue 68; after DEVIL, ASPLOS'25): one program, one engine, two
//! traces that must agree without a second engine to compare with.
//!
//! - The *breakpoints* trace sets a breakpoint on every line, starts and only resumes.
//! - The *steps* trace sets one breakpoint, on the line of the other's first pause, starts and
//!   then only steps into, statement by statement, to the program's end.
//!
//! A breakpoint pauses the program at a place a step into would also have stopped at, in the
//! same state: every pause of the breakpoints trace is, in order, a pause of the steps trace
//! with the same stack and the same values ([`relation::REACHED`], [`relation::VALUES`]). Where
//! the engine pauses at a breakpoint's place each time the program runs it
//! ([`Breakpoints::AtPlace`]: V8, SpiderMonkey, CPython's line events), the converse holds too:
//! each time stepping stops at a place a breakpoint stands at, the breakpoints trace pauses
//! there ([`relation::MISSED`]). Where a breakpoint at a line's start matches the first
//! statement run each time the line is *entered* ([`Breakpoints::OnLineEntry`]: JavaScriptCore;
//! see `truth::relation::LINE_ENTRY`), a step onto the line from the line itself is no such
//! pause, and only the first relation is judged. Neither relation needs the program's output;
//! the third does: both runs print the same and end the same way, and as the program does run
//! without a debugger ([`relation::OUTPUT`], Dfusor's check, ASPLOS'23).

use crate::attached::apart;
use morphtrace_schema::session::Warning;
use morphtrace_schema::trace::{EventKind, Location, Output, PauseState, ProgramOutcome, Trace};
use std::collections::BTreeSet;
use std::ops::ControlFlow;

/// The relations of the debugger against itself.
pub mod relation {
    /// The breakpoints trace paused where stepping from the pause before never stopped.
    pub const REACHED: &str = "steps-unreached-pause";
    /// Stepping and a breakpoint stopped at one place with one stack, and the debugger showed
    /// other frames or values.
    pub const VALUES: &str = "steps-values";
    /// The breakpoints trace paused at a place of a line that stepping never stopped at, and
    /// stepping, at that moment (the same frames below), stopped at another place of that line.
    pub const COLUMN: &str = "steps-pause-column";
    /// Stepping stopped at a place where a breakpoint stands, and the breakpoints trace did not
    /// pause there then.
    pub const MISSED: &str = "steps-missed-pause";
    /// What the program printed, or how it ended, differs between the two traces or from the
    /// program's run without a debugger (the attached-output relation, shared with `attached`).
    pub use crate::attached::RELATION as OUTPUT;
    /// The engine died while the program ran under the debugger.
    pub const CRASH: &str = "steps-engine-crash";
}

/// How many warnings of one relation a session reports: one fault repeats at every pause
/// after it, and the first few say what it is.
pub const MAX_PER_RELATION: usize = 5;

/// When an engine's line breakpoint pauses (a fact of the engine, given by the recorder).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Breakpoints {
    /// Each time the program runs the place the breakpoint was put at.
    #[default]
    AtPlace,
    /// Each time the program enters the breakpoint's line from another line (or frame), at
    /// whatever statement it runs first there.
    OnLineEntry,
    /// Each time the program runs the line's first instruction, by a debugger whose pauses
    /// have no columns (gdb). A line breakpoint goes to the line's first instruction, so a
    /// `for` line pauses at its initialization only, while stepping stops on the line at every
    /// increment too; LLDB tells those stops apart by column, gdb's are all at the breakpoint's
    /// place (docs/gdb-mi-cookbook.md). A breakpoint pause is then one of the step pauses at its
    /// place, not always the next: the one that shows the same state, where one does; and a
    /// step pause there need not be a breakpoint pause (no converse).
    AtLineStart,
}

/// How the program ran without a debugger (JavaScript programs: `session::computes`).
pub use crate::attached::Plain;

/// What the judge must know besides the two traces.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    pub breakpoints: Breakpoints,
    /// A step from a `yield` or `await` runs on to the generator's or async function's
    /// resumption, past whatever runs meanwhile (V8's "generator stepping" mode,
    /// `Debug::Break` in v8/src/debug/debug.cc).
    pub steps_run_to_resumption: bool,
    /// A step from an `await` (or `yield`) that leaves the frame goes on in its caller, and
    /// the frame's continuation later runs unstepped (JavaScriptCore:
    /// traces/findings/jsc-a-step-out-does-not-follow-an-await-to-its-continuation, an engine
    /// bug): breakpoint pauses in that function's continuations are no step's.
    pub continuations_run_unstepped: bool,
    /// A step out of a frame stops once more as the frame pops, at the function's closing
    /// brace, also after a `return` that a breakpoint on that brace's line never sees
    /// (SpiderMonkey's devtools server: its step handler's `onPop`;
    /// tests/debuggers/, `firefox_pauses_again_as_the_script_frame_pops`).
    pub pauses_as_frames_pop: bool,
    /// Steps follow the thread they start on while a breakpoint pauses any (Delve's steps
    /// stay on their goroutine): a breakpoint pause on another thread is no step's. A pause's
    /// thread is told by its stack's outermost frame, the function the thread started in
    /// (`main.main` for Go's main goroutine, `main.send` for `go send()`); the program's own
    /// frames only are recorded, so code a library runs on a thread of its own counts as
    /// another thread too.
    pub steps_follow_one_thread: bool,
    /// The program's text (to tell a suspension's line and a closing brace).
    pub program: Option<&'a str>,
    pub plain: Option<Plain<'a>>,
}

/// The function a pause's thread started in: its outermost frame's.
fn outermost(p: &PauseState) -> Option<&str> {
    p.stack.last().map(|f| f.function.as_str())
}

/// Whether `p`'s top frame is gone by the pause `q`: `q` has fewer frames, or no frame of the
/// same function over the same callers (each at the same place) where `p`'s top frame was.
fn frame_gone(p: &PauseState, q: &PauseState) -> bool {
    let n = p.stack.len();
    if n == 0 || q.stack.len() < n {
        return true;
    }
    let there = &q.stack[q.stack.len() - n..];
    there[0].function != p.stack[0].function
        || there[1..]
            .iter()
            .zip(&p.stack[1..])
            .any(|(x, y)| x.function != y.function || x.location != y.location)
}

/// The program's character at a (0-based) location, columns counted in UTF-16 units as the
/// debuggers count them.
fn char_at(program: Option<&str>, at: Location) -> Option<char> {
    let line = program?.lines().nth(at.line as usize)?;
    let mut units = 0u32;
    for c in line.chars() {
        if units == at.column {
            return Some(c);
        }
        units += c.len_utf16() as u32;
    }
    None
}

/// Whether the (0-based) line holds a `yield` or an `await` (as a word).
fn on_a_suspension(program: Option<&str>, line: u32) -> bool {
    let Some(line) = program.and_then(|t| t.lines().nth(line as usize)) else {
        return false;
    };
    line.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .any(|w| w == "yield" || w == "await")
}

/// Which trace is which.
pub const STEPS: usize = 0;
pub const BREAKPOINTS: usize = 1;

fn pauses(trace: &Trace) -> Vec<(usize, &PauseState)> {
    trace
        .events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            EventKind::Output(Output::Paused(p)) => Some((i, p)),
            _ => None,
        })
        .collect()
}

fn ended(trace: &Trace) -> Option<&ProgramOutcome> {
    trace.outputs().find_map(|o| match o {
        // Detached: the session stopped while the program still ran; a crash cut it short.
        Output::Finished { outcome }
            if !matches!(
                outcome,
                ProgramOutcome::Detached | ProgramOutcome::EngineCrashed { .. }
            ) =>
        {
            Some(outcome)
        }
        _ => None,
    })
}

/// A pause's place: its location and every frame's function and location. Two pauses with one
/// key are the same moment of the program as far as the steps allow telling.
fn key(p: &PauseState) -> Vec<(&str, Location)> {
    let mut k = vec![("", p.location)];
    k.extend(p.stack.iter().map(|f| (f.function.as_str(), f.location)));
    k
}

fn at(p: &PauseState) -> String {
    let frames: Vec<String> = p
        .stack
        .iter()
        .map(|f| {
            format!(
                "{} {}:{}",
                f.shown_name(),
                f.location.line + 1,
                f.location.column + 1
            )
        })
        .collect();
    format!(
        "{}:{} [{}]",
        p.location.line + 1,
        p.location.column + 1,
        frames.join(" ← ")
    )
}

/// What a pause shows that both ways of getting there must agree on: the frames with the top
/// frame's scopes, functions' defining lines left out (SpiderMonkey gives one only where it has
/// the function's script at hand, which varies between runs).
fn shown(p: &PauseState) -> Output {
    let mut o = Output::Paused(PauseState {
        reason: morphtrace_schema::trace::PauseReason::Step,
        engine_reason: None,
        exception: None,
        async_stack: None,
        condition: None,
        ..p.clone()
    });
    o.map_function_lines(&|_| None);
    o
}

/// `p` as if paused at `to` (its top frame too).
fn moved(p: &PauseState, to: Location) -> PauseState {
    let mut p = p.clone();
    p.location = to;
    if let Some(f) = p.stack.first_mut() {
        f.location = to;
    }
    p
}

/// The first variable (or frame) two pauses show differently, in words.
fn first_difference(a: &PauseState, b: &PauseState) -> String {
    let (sa, sb) = (a.top_scopes(), b.top_scopes());
    for (x, y) in sa.iter().zip(sb) {
        for v in &x.variables {
            match y.variables.iter().find(|w| w.name == v.name) {
                Some(w) if w.value != v.value => {
                    return format!(
                        "{}: {} stepping vs {} at the breakpoint",
                        v.name, v.value, w.value
                    )
                }
                None => return format!("{} shown stepping only", v.name),
                _ => {}
            }
        }
        if let Some(w) = y
            .variables
            .iter()
            .find(|w| !x.variables.iter().any(|v| v.name == w.name))
        {
            return format!("{} shown at the breakpoint only", w.name);
        }
    }
    if sa.len() != sb.len() {
        return format!(
            "{} scopes stepping vs {} at the breakpoint",
            sa.len(),
            sb.len()
        );
    }
    "the frames' scopes differ".into()
}

/// The warnings of one session of the two traces (steps first). `Err` when the traces are not
/// a steps and a breakpoints trace of one program.
pub fn judge(traces: &[Trace], cx: Context<'_>) -> Result<Vec<Warning>, String> {
    let [steps, breakpoints] = traces else {
        return Err(format!(
            "a steps session has a steps and a breakpoints trace, not {} trace(s)",
            traces.len()
        ));
    };
    let mut warnings = walk(steps, breakpoints, &cx);
    warnings.extend(crash(steps, breakpoints));
    warnings.extend(output(steps, breakpoints, &cx));
    Ok(warnings)
}

/// A warning of `relation` at event `index` of its trace.
fn warn(relation: &str, index: Option<usize>, message: String) -> Warning {
    Warning {
        relation: relation.into(),
        round: 0,
        against: None,
        event_index: index.map(|i| i as u32),
        message,
    }
}

/// The two traces walked together: pauses missed, unreached, told at another column or showing
/// other values. A step pause where no breakpoint stands is passed over; one where a breakpoint
/// stands must be the breakpoints trace's next pause (engines that pause at a breakpoint's
/// place), and every breakpoint pause must come up among the step pauses, in order.
fn walk(steps: &Trace, breakpoints: &Trace, cx: &Context<'_>) -> Vec<Warning> {
    let b = pauses(breakpoints);
    let placed: BTreeSet<Location> = breakpoints
        .outputs()
        .filter_map(|o| match o {
            Output::BreakpointSet { actual, .. } => Some(actual.iter().copied()),
            _ => None,
        })
        .flatten()
        .chain(b.iter().map(|(_, p)| p.location))
        .collect();
    let mut w = Walk {
        a: pauses(steps),
        b,
        a_end: ended(steps),
        b_end: ended(breakpoints),
        cx,
        strict: cx.breakpoints == Breakpoints::AtPlace,
        placed,
        warnings: Vec::new(),
        i: 0,
        j: 0,
        suspended: false,
        last_match: None,
        left: BTreeSet::new(),
    };
    while w.step().is_continue() {}
    w.warnings
}

/// Where the walk of the two traces stands.
struct Walk<'t, 'c> {
    /// The steps trace's pauses and the breakpoints trace's, each with its event index.
    a: Vec<(usize, &'t PauseState)>,
    b: Vec<(usize, &'t PauseState)>,
    a_end: Option<&'t ProgramOutcome>,
    b_end: Option<&'t ProgramOutcome>,
    cx: &'c Context<'c>,
    /// Breakpoints pause at their place (every step pause there must be a breakpoint pause).
    strict: bool,
    /// Where the breakpoints were placed, and where the breakpoints trace paused.
    placed: BTreeSet<Location>,
    warnings: Vec<Warning>,
    /// The next step pause and the next breakpoint pause.
    i: usize,
    j: usize,
    /// Whether stepping passed a suspension since the last pause both traces share.
    suspended: bool,
    last_match: Option<usize>,
    /// The functions whose frames stepping left at an `await` or `yield` (where continuations
    /// run unstepped).
    left: BTreeSet<String>,
}

impl Walk<'_, '_> {
    fn count(&self, r: &str) -> usize {
        self.warnings.iter().filter(|w| w.relation == r).count()
    }

    /// Whether the step from step pause `k` may have run across a suspension: it stood on a
    /// `yield` or `await` line, or returned into a caller standing on one.
    fn suspends(&self, k: usize) -> bool {
        let (a, cx) = (&self.a, self.cx);
        let p = a[k].1;
        let on = |f: Option<&morphtrace_schema::trace::Frame>| {
            f.is_some_and(|f| on_a_suspension(cx.program, f.location.line))
        };
        cx.steps_run_to_resumption
            && (on(p.stack.first())
                || (on(p.stack.get(1))
                    && a.get(k + 1)
                        .is_none_or(|(_, q)| q.stack.len() < p.stack.len())))
    }

    /// A step that returns from a callee stops again where the caller stands, and one that a
    /// resumption ends stops where the frame awaited or yielded: places the frame stood at
    /// already in this visit, where a breakpoint does not pause again. And a pause as a frame
    /// pops is the frame's last, at a closing brace.
    fn landing(&self, k: usize) -> bool {
        let (a, cx) = (&self.a, self.cx);
        let p = a[k].1;
        let popping = cx.pauses_as_frames_pop
            && a.get(k + 1).is_none_or(|(_, q)| frame_gone(p, q))
            && char_at(cx.program, p.location) == Some('}');
        popping
            || k > 0 && {
                let before = a[k - 1].1;
                let top = |p: &PauseState| p.stack.first().map(|f| f.function.clone());
                before.stack.len() > p.stack.len()
                    || (on_a_suspension(cx.program, p.location.line) && top(before) != top(p))
            }
    }

    /// Stepping left step pause `k`'s frame at an `await` or `yield` (where continuations run
    /// unstepped).
    fn leave(&mut self, k: usize) {
        let p = self.a[k].1;
        if self.cx.continuations_run_unstepped
            && p.stack
                .first()
                .is_some_and(|f| on_a_suspension(self.cx.program, f.location.line))
            && self.a.get(k + 1).is_none_or(|(_, q)| frame_gone(p, q))
        {
            self.left.insert(p.stack[0].function.clone());
        }
    }

    /// Step pause `i` and breakpoint pause `j` are one: on to the next of each.
    fn matched(&mut self) {
        let i = self.i;
        self.suspended = self.suspends(i);
        self.leave(i);
        self.last_match = Some(i);
        self.i += 1;
        self.j += 1;
    }

    /// One step of the walk; breaks when nothing more is judged.
    fn step(&mut self) -> ControlFlow<()> {
        if self.j == self.b.len() {
            self.breakpoints_ended();
            return ControlFlow::Break(());
        }
        if self.i == self.a.len() {
            self.steps_ended();
            return ControlFlow::Break(());
        }
        let (i, j) = (self.i, self.j);
        let ((ai, ap), (bi, bp)) = (self.a[i], self.b[j]);
        if self.cx.steps_follow_one_thread && outermost(bp) != outermost(self.a[0].1) {
            self.j += 1;
            return ControlFlow::Continue(());
        }
        if key(ap) == key(bp) {
            // Where a breakpoint pauses at its line's first instruction only, a later step
            // pause at the same place that shows what the breakpoint pause shows is the same
            // moment; the step pauses before it, the line's other instructions.
            if self.cx.breakpoints == Breakpoints::AtLineStart && shown(ap) != shown(bp) {
                if let Some(k) = (i + 1..self.a.len()).find(|&k| {
                    let p = self.a[k].1;
                    key(p) == key(bp) && shown(p) == shown(bp)
                }) {
                    for skipped in i..k {
                        self.suspended |= self.suspends(skipped);
                        self.leave(skipped);
                    }
                    self.i = k;
                    self.matched();
                    return ControlFlow::Continue(());
                }
            }
            if shown(ap) != shown(bp) && self.count(relation::VALUES) < MAX_PER_RELATION {
                self.warnings.push(warn(
                    relation::VALUES,
                    Some(bi),
                    format!(
                        "at {} (step pause {}, breakpoint pause {}): {}",
                        at(bp),
                        i + 1,
                        j + 1,
                        first_difference(ap, bp)
                    ),
                ));
            }
            self.matched();
            return ControlFlow::Continue(());
        }
        // One moment told at two places of one line: the same frames below, the top frame
        // on the same line, and the breakpoint's place never coming up among the steps.
        let same_moment = ap.location.line == bp.location.line
            && ap.stack.len() == bp.stack.len()
            && key(ap)[2..] == key(bp)[2..]
            && ap.stack.first().map(|f| &f.function) == bp.stack.first().map(|f| &f.function)
            && !self.a[i + 1..].iter().any(|(_, p)| key(p) == key(bp));
        if same_moment {
            if self.count(relation::COLUMN) < MAX_PER_RELATION {
                self.warnings.push(warn(
                    relation::COLUMN,
                    Some(bi),
                    format!(
                        "breakpoint pause {} at {} is step pause {} at column {}{}",
                        j + 1,
                        at(bp),
                        i + 1,
                        ap.location.column + 1,
                        if shown(&moved(ap, bp.location)) == shown(bp) {
                            String::new()
                        } else {
                            format!(", and {}", first_difference(ap, bp))
                        }
                    ),
                ));
            }
            self.matched();
            return ControlFlow::Continue(());
        }
        // Whether the breakpoint pause comes up among the steps still to come.
        let later = self.a[i + 1..].iter().any(|(_, p)| key(p) == key(bp));
        if !later {
            return self.unreached();
        }
        // A step pause before the breakpoint pause: where a breakpoint stands at its place (and
        // the step did not land there by a return or a resumption), the breakpoints trace
        // missed it.
        if self.strict
            && !self.landing(i)
            && self.placed.contains(&ap.location)
            && self.count(relation::MISSED) < MAX_PER_RELATION
        {
            self.warnings.push(warn(
                relation::MISSED,
                Some(ai),
                format!(
                    "step pause {} at {}, where a breakpoint stands, is no breakpoint pause: the breakpoints trace paused next at {}",
                    i + 1,
                    at(ap),
                    at(bp)
                ),
            ));
        }
        self.suspended |= self.suspends(i);
        self.leave(i);
        self.i += 1;
        ControlFlow::Continue(())
    }

    /// The breakpoints trace is over: if it ran to the end, the step pauses left at a
    /// breakpoint's place are pauses it missed.
    fn breakpoints_ended(&mut self) {
        if !(self.strict && self.b_end.is_some()) {
            return;
        }
        for k in self.i..self.a.len() {
            let (ai, ap) = self.a[k];
            if !self.landing(k)
                && self.placed.contains(&ap.location)
                && self.count(relation::MISSED) < MAX_PER_RELATION
            {
                self.warnings.push(warn(
                    relation::MISSED,
                    Some(ai),
                    format!(
                        "stepping stopped at {}, where a breakpoint stands, after the breakpoints trace's last pause (the program {})",
                        at(ap),
                        self.b_end.map_or("cut short", |o| o.name())
                    ),
                ));
            }
        }
    }

    /// Stepping is over with breakpoint pause `j` to come.
    fn steps_ended(&mut self) {
        let (bi, bp) = self.b[self.j];
        if self.a_end.is_none() {
            // Stepping was cut short: what it did not reach is not judged.
            return;
        }
        // A step from the last frame of a task (one program frame) that returns lets the
        // program run on (V8 clears stepping when no JavaScript frame is left): breakpoint
        // pauses in the tasks after it (promise reactions, timers) are none of stepping's.
        let left_a_task = self.a.last().is_some_and(|(_, p)| p.stack.len() == 1);
        if left_a_task || self.suspended {
            return;
        }
        self.warnings.push(warn(
            relation::REACHED,
            Some(bi),
            format!(
                "breakpoint pause {} at {} is no step pause: stepping ended {} ({} step pauses, the program {})",
                self.j + 1,
                at(bp),
                self.last_match.map_or("before any".into(), |m| format!("after step pause {} at {}", m + 1, at(self.a[m].1))),
                self.a.len(),
                self.a_end.map_or("cut short", |o| o.name()),
            ),
        ));
    }

    /// Breakpoint pause `j` never comes up among the steps to come: passed over where stepping
    /// may have run past it (a suspension, a continuation run unstepped), else unreached and
    /// the end of the walk.
    fn unreached(&mut self) -> ControlFlow<()> {
        let (i, j) = (self.i, self.j);
        let ((_, ap), (bi, bp)) = (self.a[i], self.b[j]);
        // A continuation of a function stepping left at an `await`: run unstepped.
        let in_continuation = bp
            .stack
            .last()
            .is_some_and(|f| self.left.contains(&f.function));
        // Or the step from this step pause crosses a suspension, which the breakpoint
        // pause may have come in.
        if self.suspended || self.suspends(i) || in_continuation {
            // The step ran on from a suspension to the generator's or async function's
            // resumption: what ran meanwhile is no step's.
            self.j += 1;
            return ControlFlow::Continue(());
        }
        if self.a_end.is_none() {
            // Stepping was cut short: what it did not reach is not judged.
            return ControlFlow::Break(());
        }
        self.warnings.push(warn(
            relation::REACHED,
            Some(bi),
            format!(
                "breakpoint pause {} at {} is no step pause: stepping went from {} to {} ({} step pauses, the program {})",
                j + 1,
                at(bp),
                self.last_match.map_or("the start".into(), |m| format!("step pause {} at {}", m + 1, at(self.a[m].1))),
                at(ap),
                self.a.len(),
                self.a_end.map_or("cut short", |o| o.name()),
            ),
        ));
        // The two no longer line up: nothing after is judged.
        ControlFlow::Break(())
    }
}

/// A crash under either way of running.
fn crash(steps: &Trace, breakpoints: &Trace) -> Option<Warning> {
    let crashed = |t: &Trace| {
        t.outputs().find_map(|o| match o {
            Output::Finished {
                outcome: ProgramOutcome::EngineCrashed { message },
            } => Some(message.clone()),
            _ => None,
        })
    };
    let (ca, cb) = (crashed(steps), crashed(breakpoints));
    if ca.is_some() || cb.is_some() {
        let (how, last) = match (&ca, &cb) {
            (Some(_), Some(_)) => ("stepping and resuming", steps),
            (Some(_), None) => ("stepping", steps),
            _ => ("resuming", breakpoints),
        };
        let at_last = pauses(last)
            .last()
            .map_or("before any pause".to_string(), |(_, p)| {
                format!("after a pause at {}", at(p))
            });
        return Some(warn(
            relation::CRASH,
            None,
            format!(
                "the engine died {how} ({}), {at_last}",
                ca.or(cb).unwrap_or_default()
            ),
        ));
    }
    None
}

/// What the program printed and how it ended, judged where both traces ran to the end: alike
/// stepping and resuming, and (where the run without a debugger is known) as without one.
fn output(steps: &Trace, breakpoints: &Trace, cx: &Context<'_>) -> Option<Warning> {
    let (Some(ea), Some(eb)) = (ended(steps), ended(breakpoints)) else {
        return None;
    };
    let said = |o: &ProgramOutcome| o.name().to_string();
    if ea != eb || steps.console != breakpoints.console {
        return Some(warn(
            relation::OUTPUT,
            None,
            format!(
                "stepping and resuming: {}",
                apart(
                    (&said(ea), &steps.console),
                    (&said(eb), &breakpoints.console)
                )
            ),
        ));
    }
    let plain = cx.plain?;
    let plain_end = plain.end();
    (plain_end != ea.name() || plain.printed != steps.console.as_slice()).then(|| {
        warn(
            relation::OUTPUT,
            None,
            format!(
                "with the debugger and without: {}",
                apart((&said(ea), &steps.console), (plain_end, plain.printed))
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::engine::EngineRef;
    use morphtrace_schema::trace::{Event, Frame, PauseReason, Scope, ScopeKind, Variable};
    use morphtrace_schema::value::Value;

    /// A pause at 1-based `line`:`column` in the frames `stack` (function names, innermost
    /// first, each at the line and column given), `n` its one local.
    fn pause(line: u32, column: u32, stack: &[(&str, u32)], n: f64) -> Output {
        let at = Location::new(line - 1, column - 1);
        Output::Paused(PauseState {
            location: at,
            reason: PauseReason::Step,
            engine_reason: None,
            stack: stack
                .iter()
                .enumerate()
                .map(|(i, (f, l))| Frame {
                    function: f.to_string(),
                    location: if i == 0 { at } else { Location::new(l - 1, 0) },
                    scopes: if i == 0 {
                        vec![Scope {
                            kind: ScopeKind::Local,
                            name: None,
                            variables: vec![Variable {
                                name: "n".into(),
                                value: Value::Number(n),
                                reported: None,
                            }],
                        }]
                    } else {
                        Vec::new()
                    },
                })
                .collect(),
            exception: None,
            async_stack: None,
            condition: None,
        })
    }

    fn trace(placed: &[(u32, u32)], pauses: Vec<Output>, console: &[&str]) -> Trace {
        let mut events: Vec<Event> = placed
            .iter()
            .enumerate()
            .map(|(i, (l, c))| Event {
                at_us: 0,
                kind: EventKind::Output(Output::BreakpointSet {
                    id: morphtrace_schema::trace::BreakpointId(i as u32),
                    requested: Location::new(l - 1, 0),
                    actual: vec![Location::new(l - 1, c - 1)],
                    source: morphtrace_schema::trace::LocationSource::EngineReported,
                    policy: None,
                }),
            })
            .collect();
        events.extend(pauses.into_iter().map(|o| Event {
            at_us: 0,
            kind: EventKind::Output(o),
        }));
        events.push(Event {
            at_us: 0,
            kind: EventKind::Output(Output::Finished {
                outcome: ProgramOutcome::Completed,
            }),
        });
        Trace {
            engine: EngineRef(0),
            events,
            console: console.iter().map(|s| s.to_string()).collect(),
            logs: Vec::new(),
        }
    }

    fn relations(steps: Trace, breakpoints: Trace, cx: Context<'_>) -> Vec<String> {
        judge(&[steps, breakpoints], cx)
            .unwrap()
            .into_iter()
            .map(|w| w.relation)
            .collect()
    }

    const TOP: (&str, u32) = ("", 0);

    /// Top level on lines 1 and 3, a call on line 2 into `f` (lines 5, 6).
    fn steps() -> Vec<Output> {
        vec![
            pause(1, 1, &[TOP], 0.0),
            pause(2, 1, &[TOP], 0.0),
            pause(5, 3, &[("f", 0), ("", 2)], 1.0),
            pause(6, 3, &[("f", 0), ("", 2)], 2.0),
            // The step back into the caller stops where it stood: no breakpoint's pause.
            pause(2, 1, &[TOP], 0.0),
            pause(3, 1, &[TOP], 3.0),
        ]
    }

    const PLACED: &[(u32, u32)] = &[(1, 1), (2, 1), (3, 1), (5, 3), (6, 3)];

    /// The step pauses but those at `left_out` (indices).
    fn steps_without(left_out: &[usize]) -> Vec<Output> {
        steps()
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !left_out.contains(i))
            .map(|(_, o)| o)
            .collect()
    }

    #[test]
    fn the_same_run_two_ways_warns_nothing() {
        let b: Vec<Output> = steps_without(&[4]);
        let out = relations(
            trace(&[], steps(), &["x"]),
            trace(PLACED, b, &["x"]),
            Context::default(),
        );
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn a_step_over_a_call_leaves_its_breakpoint_pauses_unreached() {
        let over: Vec<Output> = steps_without(&[2, 3]);
        let b: Vec<Output> = steps_without(&[4]);
        let out = relations(
            trace(&[], over, &[]),
            trace(PLACED, b, &[]),
            Context::default(),
        );
        assert_eq!(out, [relation::REACHED]);
    }

    #[test]
    fn a_swallowed_breakpoint_pause_is_missed_where_breakpoints_pause_at_their_place() {
        // The breakpoints trace lacks line 6's pause.
        let b: Vec<Output> = steps_without(&[3, 4]);
        let out = relations(
            trace(&[], steps(), &[]),
            trace(PLACED, b.clone(), &[]),
            Context::default(),
        );
        assert_eq!(out, [relation::MISSED]);
        // On an engine whose breakpoints pause on entering a line, no converse is judged.
        let cx = Context {
            breakpoints: Breakpoints::OnLineEntry,
            ..Context::default()
        };
        let out = relations(trace(&[], steps(), &[]), trace(PLACED, b, &[]), cx);
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn a_value_shown_otherwise_at_one_place_is_a_values_warning() {
        let mut b: Vec<Output> = steps_without(&[4]);
        b[3] = pause(6, 3, &[("f", 0), ("", 2)], 7.0);
        let out = relations(
            trace(&[], steps(), &[]),
            trace(PLACED, b, &[]),
            Context::default(),
        );
        assert_eq!(out, [relation::VALUES]);
    }

    #[test]
    fn where_breakpoints_pause_at_a_lines_start_a_later_step_pause_showing_the_same_is_the_one() {
        // A loop's line stepped onto twice (its initialization, then its increment), the
        // breakpoint pausing at the initialization of the second pass only...
        let steps = vec![
            pause(1, 1, &[TOP], 0.0),
            pause(2, 1, &[TOP], 1.0),
            pause(2, 1, &[TOP], 2.0),
            pause(3, 1, &[TOP], 3.0),
        ];
        let b = vec![
            pause(1, 1, &[TOP], 0.0),
            pause(2, 1, &[TOP], 2.0),
            pause(3, 1, &[TOP], 3.0),
        ];
        let placed = &[(1, 1), (2, 1), (3, 1)];
        let at_start = Context {
            breakpoints: Breakpoints::AtLineStart,
            ..Context::default()
        };
        let out = relations(
            trace(&[], steps.clone(), &[]),
            trace(placed, b.clone(), &[]),
            at_start,
        );
        assert!(out.is_empty(), "{out:?}");
        // ...which is no excuse where breakpoints pause at their place.
        let out = relations(
            trace(&[], steps.clone(), &[]),
            trace(placed, b, &[]),
            Context::default(),
        );
        assert!(out.contains(&relation::VALUES.to_string()), "{out:?}");
        // A value no step pause there showed is a values warning still.
        let wrong = vec![
            pause(1, 1, &[TOP], 0.0),
            pause(2, 1, &[TOP], 7.0),
            pause(3, 1, &[TOP], 3.0),
        ];
        let out = relations(trace(&[], steps, &[]), trace(placed, wrong, &[]), at_start);
        assert_eq!(out, [relation::VALUES]);
    }

    #[test]
    fn output_differs_between_the_runs_or_from_the_run_without_a_debugger() {
        let b = || steps_without(&[4]);
        let out = relations(
            trace(&[], steps(), &["x"]),
            trace(PLACED, b(), &["y"]),
            Context::default(),
        );
        assert_eq!(out, [relation::OUTPUT]);
        let printed = ["x".to_string(), "z".to_string()];
        let cx = Context {
            plain: Some(Plain {
                ended: "completed, its state unread",
                printed: &printed,
            }),
            ..Context::default()
        };
        let out = relations(trace(&[], steps(), &["x"]), trace(PLACED, b(), &["x"]), cx);
        assert_eq!(out, [relation::OUTPUT]);
        let printed = ["x".to_string()];
        let cx = Context {
            plain: Some(Plain {
                ended: "completed",
                printed: &printed,
            }),
            ..Context::default()
        };
        let out = relations(trace(&[], steps(), &["x"]), trace(PLACED, b(), &["x"]), cx);
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn pauses_while_a_step_waits_for_a_resumption_are_excused_only_where_steps_run_to_it() {
        // Line 5 yields; the step runs to the generator's next resumption (line 6) while the
        // caller ran line 3.
        let program = "a\nb\nc\nd\n  yield n;\n  n++;\n";
        let s = vec![
            pause(2, 1, &[TOP], 0.0),
            pause(5, 3, &[("g", 0), ("", 2)], 1.0),
            pause(6, 3, &[("g", 0), ("", 2)], 1.0),
        ];
        let b = vec![
            pause(2, 1, &[TOP], 0.0),
            pause(5, 3, &[("g", 0), ("", 2)], 1.0),
            pause(3, 1, &[TOP], 0.0),
            pause(6, 3, &[("g", 0), ("", 2)], 1.0),
        ];
        let placed = &[(2, 1), (3, 1), (5, 3), (6, 3)];
        let cx = |run: bool| Context {
            steps_run_to_resumption: run,
            program: Some(program),
            ..Context::default()
        };
        let out = relations(
            trace(&[], s.clone(), &[]),
            trace(placed, b.clone(), &[]),
            cx(true),
        );
        assert!(out.is_empty(), "{out:?}");
        let out = relations(trace(&[], s, &[]), trace(placed, b, &[]), cx(false));
        assert_eq!(out, [relation::REACHED]);
    }

    #[test]
    fn continuations_run_unstepped_are_excused_only_where_the_engine_leaves_them() {
        // Line 5 awaits; stepping goes on in the caller (line 3) and the continuation (line
        // 6, no caller below) runs unstepped.
        let program = "a\nb\nc\nd\n  await n;\n  n++;\n";
        let s = vec![
            pause(2, 1, &[TOP], 0.0),
            pause(5, 3, &[("g", 0), ("", 2)], 1.0),
            pause(3, 1, &[TOP], 0.0),
            pause(4, 1, &[TOP], 0.0),
        ];
        let b = vec![
            pause(2, 1, &[TOP], 0.0),
            pause(5, 3, &[("g", 0), ("", 2)], 1.0),
            pause(3, 1, &[TOP], 0.0),
            pause(6, 3, &[("g", 0)], 1.0),
            pause(4, 1, &[TOP], 0.0),
        ];
        let placed = &[(2, 1), (3, 1), (4, 1), (5, 3), (6, 3)];
        let cx = |unstepped: bool| Context {
            continuations_run_unstepped: unstepped,
            program: Some(program),
            ..Context::default()
        };
        let out = relations(
            trace(&[], s.clone(), &[]),
            trace(placed, b.clone(), &[]),
            cx(true),
        );
        assert!(out.is_empty(), "{out:?}");
        // A pause of another function, after it, is still judged.
        let mut other = b.clone();
        other[3] = pause(6, 3, &[("h", 0)], 1.0);
        let out = relations(
            trace(&[], s.clone(), &[]),
            trace(placed, other, &[]),
            cx(true),
        );
        assert_eq!(out, [relation::REACHED]);
        let out = relations(trace(&[], s, &[]), trace(placed, b, &[]), cx(false));
        assert_eq!(out, [relation::REACHED]);
    }

    #[test]
    fn a_breakpoint_pause_of_another_thread_is_no_steps_where_steps_follow_one() {
        // Line 8 runs in a thread started in `worker` while stepping goes from line 2 to 3.
        let s = vec![pause(2, 1, &[TOP], 0.0), pause(3, 1, &[TOP], 0.0)];
        let b = vec![
            pause(2, 1, &[TOP], 0.0),
            pause(8, 3, &[("worker", 0)], 1.0),
            pause(3, 1, &[TOP], 0.0),
        ];
        let placed = &[(2, 1), (3, 1), (8, 3)];
        let cx = |one: bool| Context {
            steps_follow_one_thread: one,
            ..Context::default()
        };
        let out = relations(
            trace(&[], s.clone(), &[]),
            trace(placed, b.clone(), &[]),
            cx(true),
        );
        assert!(out.is_empty(), "{out:?}");
        let out = relations(
            trace(&[], s.clone(), &[]),
            trace(placed, b.clone(), &[]),
            cx(false),
        );
        assert_eq!(out, [relation::REACHED]);
        // A pause of the stepped thread that stepping never reached is still one.
        let mut same = b;
        same[1] = pause(8, 3, &[("worker", 0), ("", 2)], 1.0);
        let out = relations(trace(&[], s, &[]), trace(placed, same, &[]), cx(true));
        assert_eq!(out, [relation::REACHED]);
    }
}
