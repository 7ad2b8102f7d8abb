//! What a campaign records, task by task: the session's identity, programs, engines and where its
//! actions come from (DBDB's random generation, given actions, or a metamorphic chain). A leaf:
//! the strategies that make tasks (`dbdb`, `metamorphic`) and the runner that records them
//! (`campaign`) all build on it.

use morphtrace_judges::metamorphic::Transformation;
use morphtrace_schema::{Action, ParentRef, SessionId, SessionMode, TransformationRecord};

/// DBDB Algorithm 1's parameters.
#[derive(Debug, Clone)]
pub struct RandomParams {
    /// Breakpoints to set per program line (DBDB: 0.1).
    pub bp_per_line: f64,
    /// Breakpoints to set before the start at most, whatever the program's length: beyond
    /// DBDB, whose programs were short. Ten megabytes of statements would otherwise ask for
    /// some 16k breakpoints, one round trip each, and spend the session on them.
    pub max_breakpoints: u32,
    /// Probability of removing a breakpoint right after setting it (DBDB: 0.2).
    pub remove_prob: f64,
    /// Control actions (start, resume, steps) and evaluations at most (DBDB: 20).
    pub max_actions: u32,
    /// Weight of an evaluation at a pause against each of DBDB's four control actions (weight
    /// 1 each). 0 (the default) is DBDB's Algorithm 1 exactly, random draws included.
    pub evaluate_weight: f64,
    /// Weight of setting a conditional breakpoint at a pause (on a line below it, the condition
    /// over a number the pause shows), like `evaluate_weight`.
    pub condition_weight: f64,
    /// Weight of setting a logpoint at a pause (on a line below it, logging an expression over
    /// what the pause shows), like `evaluate_weight`.
    pub logpoint_weight: f64,
    /// Weight of setting a local the pause shows to another primitive value, like
    /// `evaluate_weight`.
    pub set_variable_weight: f64,
    /// Weight of continuing to a line below the pause, like `evaluate_weight` (only where
    /// every debugger of the session can).
    pub continue_weight: f64,
    /// Weight of restarting a function's frame of the pause (only where every debugger of
    /// the session can), like `evaluate_weight`.
    pub restart_weight: f64,
    /// Sets where set-variable-as-code can use them, where a breakpoint counts the passes
    /// (`metamorphic::carrying`): the first breakpoint pause with a local to set gets a set
    /// before any draw, and a set drawn at a pause not a breakpoint's is a resume instead,
    /// which runs on to the next breakpoint.
    pub sets_at_breakpoints: bool,
    /// Resumes where logpoint-for-a-breakpoint can use them (`metamorphic::carrying`): one
    /// plain breakpoint, the first whose hit (reached by the start or a resume) shows a local
    /// holding a primitive, is left by a resume at each of its hits, before any draw.
    pub resumes_at_a_breakpoint: bool,
    /// Steps into where restart-frame-as-reentry can use them (`metamorphic::carrying`; where
    /// every debugger of the session restarts frames): a breakpoint on one line that calls a
    /// function without side effects, where the draw set none, and a pause on such a line left
    /// by a step into, before any draw, until the session pauses in such a function.
    pub steps_into_pure_calls: bool,
    /// Breakpoints only on lines where every debugger of the session says one goes on that very
    /// line (its break positions, asked once before the first breakpoint): no placement that
    /// differs by design is tried, set, judged and removed again (issue 70: debugpy against
    /// pdb spent a fifth of its round trips so). Lines where placements differ go untested.
    pub placeable_lines: bool,
    /// Which exceptions pause, set before `Start`; `None` (the default) sets nothing.
    pub exceptions: Option<ExceptionChoice>,
}

/// The pause-on-exceptions setting of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExceptionChoice {
    Fixed(morphtrace_schema::ExceptionPause),
    /// Each session draws none, uncaught or all.
    Random,
}

impl ExceptionChoice {
    pub fn name(&self) -> &'static str {
        match self {
            ExceptionChoice::Fixed(m) => m.name(),
            ExceptionChoice::Random => "random",
        }
    }

    pub fn parse(s: &str) -> Option<ExceptionChoice> {
        use morphtrace_schema::ExceptionPause::*;
        Some(match s {
            "none" => ExceptionChoice::Fixed(None),
            "uncaught" => ExceptionChoice::Fixed(Uncaught),
            "all" => ExceptionChoice::Fixed(All),
            "random" => ExceptionChoice::Random,
            _ => return Option::None,
        })
    }
}

impl Default for RandomParams {
    fn default() -> Self {
        RandomParams {
            bp_per_line: 0.1,
            max_breakpoints: 256,
            remove_prob: 0.2,
            max_actions: 20,
            evaluate_weight: 0.0,
            condition_weight: 0.0,
            logpoint_weight: 0.0,
            set_variable_weight: 0.0,
            continue_weight: 0.0,
            restart_weight: 0.0,
            sets_at_breakpoints: false,
            resumes_at_a_breakpoint: false,
            steps_into_pure_calls: false,
            placeable_lines: false,
            exceptions: None,
        }
    }
}

impl RandomParams {
    /// The weights of every action beyond DBDB's four, summed.
    pub fn extra_weight(&self) -> f64 {
        self.evaluate_weight
            + self.condition_weight
            + self.logpoint_weight
            + self.set_variable_weight
            + self.continue_weight
            + self.restart_weight
    }

    /// `name=value` pairs for the archive header; the action weights only when they are not
    /// DBDB's (an archive without them was generated by Algorithm 1 as published).
    pub fn params(&self) -> Vec<(String, String)> {
        let mut out = vec![
            ("random.bp_per_line".into(), self.bp_per_line.to_string()),
            (
                "random.max_breakpoints".into(),
                self.max_breakpoints.to_string(),
            ),
            ("random.remove_prob".into(), self.remove_prob.to_string()),
            ("random.max_actions".into(), self.max_actions.to_string()),
        ];
        if self.extra_weight() > 0.0 {
            let mut w = format!(
                "resume=1,stepInto=1,stepOut=1,stepOver=1,evaluate={},condition={}",
                self.evaluate_weight, self.condition_weight
            );
            for (name, weight) in [
                ("logpoint", self.logpoint_weight),
                ("setVariable", self.set_variable_weight),
                ("continueToLocation", self.continue_weight),
                ("restartFrame", self.restart_weight),
            ] {
                if weight > 0.0 {
                    w.push_str(&format!(",{name}={weight}"));
                }
            }
            out.push(("random.weights".into(), w));
        }
        if self.sets_at_breakpoints {
            out.push(("random.set_variable_at".into(), "breakpoints".into()));
        }
        if self.resumes_at_a_breakpoint {
            out.push(("random.resume_at".into(), "a-breakpoint".into()));
        }
        if self.steps_into_pure_calls {
            out.push(("random.step_into_at".into(), "pure-calls".into()));
        }
        if self.placeable_lines {
            out.push(("random.breakpoint_lines".into(), "placeable".into()));
        }
        if let Some(e) = self.exceptions {
            out.push(("random.pause_on_exceptions".into(), e.name().into()));
        }
        out
    }
}

/// Where the actions come from.
#[derive(Debug, Clone)]
pub enum Plan {
    Random {
        params: RandomParams,
        seed: u64,
    },
    /// Ground truth: pauses on the points where the program records its state (at most
    /// `max_points` of them), compared with what it records (`dbdb::truth`).
    Truth {
        seed: u64,
        max_points: u32,
    },
    Replay {
        actions: Vec<Action>,
    },
    /// The debugger against itself: the program stepped through and run from breakpoint to
    /// breakpoint, each at most `max_pauses` pauses (`dbdb::steps`).
    Steps {
        max_pauses: u32,
    },
    /// One debugger on two builds: each run from breakpoint to breakpoint, at most
    /// `max_pauses` pauses (`dbdb::optimization`).
    Optimization {
        max_pauses: u32,
    },
}

/// One session to record.
#[derive(Debug, Clone)]
pub struct Task {
    pub id: SessionId,
    pub program: usize,
    pub seed: u64,
    /// Indices into the campaign's engines.
    pub engines: Vec<usize>,
    pub plan: Plan,
    pub mode: SessionMode,
    pub parent: Option<ParentRef>,
    pub notes: Vec<(String, String)>,
    /// A metamorphic chain (initial session and follow-ups) instead of one session; `id` is
    /// then the initial session's.
    pub chain: Option<ChainTask>,
}

/// What a metamorphic task needs besides the initial plan.
#[derive(Debug, Clone)]
pub struct ChainTask {
    pub key: String,
    pub params: ChainParams,
}

/// How a chain is built.
#[derive(Debug, Clone)]
pub struct ChainParams {
    /// Follow-up rounds after the initial session (the paper: 5).
    pub rounds: u32,
    /// Transformations that may be chosen.
    pub transformations: Vec<Transformation>,
    /// The initial session: DBDB's random actions, or given actions (tests, replays).
    pub initial: Plan,
    pub seed: u64,
    /// How many times a follow-up may resynchronize after one parent action.
    pub max_resync: u32,
    /// Fixed choices instead of random ones (reproducing a case, tests).
    pub pin: Pin,
}

/// Choices a chain makes at random, fixed: where a breakpoint or line goes, which continue
/// becomes which step.
#[derive(Debug, Clone, Default)]
pub struct Pin {
    /// Add-breakpoint: the line; dead code and no-op: the line they are inserted before.
    pub line: Option<u32>,
    /// Add-breakpoint: the parent action it precedes; replace-continue: the continue replaced.
    pub action: Option<usize>,
    /// Replace-continue: the step.
    pub step: Option<Action>,
    /// A program transformation repeated exactly as recorded (its record's parameters: the
    /// place, the inserted code); reduction re-derives a follow-up from a smaller parent so.
    pub recorded: Vec<(String, String)>,
}

impl Pin {
    /// The choices a transformation record fixed.
    pub fn of(record: &TransformationRecord) -> Pin {
        let get = |k: &str| {
            record
                .params
                .iter()
                .find(|(x, _)| x == k)
                .map(|(_, v)| v.as_str())
        };
        let number = |k: &str| get(k).and_then(|v| v.parse::<u32>().ok());
        match Transformation::named(&record.name) {
            Some(Transformation::AddBreakpoint) => Pin {
                line: number("line"),
                action: number("before-action").map(|a| a as usize),
                ..Pin::default()
            },
            Some(Transformation::ContinueToStep) => Pin {
                action: number("action").map(|a| a as usize),
                step: get("step").and_then(|s| {
                    [Action::StepOver, Action::StepInto, Action::StepOut]
                        .into_iter()
                        .find(|a| a.to_string() == s)
                }),
                ..Pin::default()
            },
            // Anchored to a parent action; their other choices (a condition, a local) are
            // repeated as recorded.
            Some(
                Transformation::ConditionTrue
                | Transformation::ConditionLocal
                | Transformation::EvaluateLocal
                | Transformation::Logpoint
                | Transformation::ContinueAsBreakpoint
                | Transformation::SetAsCode
                | Transformation::RestartAsReentry,
            ) => Pin {
                action: number("action").map(|a| a as usize),
                recorded: record.params.clone(),
                ..Pin::default()
            },
            Some(Transformation::ConditionFalse) => Pin {
                line: number("line"),
                action: number("before-action").map(|a| a as usize),
                ..Pin::default()
            },
            _ => Pin {
                recorded: record
                    .params
                    .iter()
                    .filter(|(k, _)| !k.starts_with("expect."))
                    .cloned()
                    .collect(),
                ..Pin::default()
            },
        }
    }

    /// The same choices in a program whose lines moved (`lines[old]`: the new line, `None`
    /// for a line that is gone); `None` when a line they name is gone.
    pub fn moved(&self, lines: &[Option<u32>]) -> Option<Pin> {
        let at = |l: u32| lines.get(l as usize).copied().flatten();
        let mut out = self.clone();
        if let Some(l) = self.line {
            out.line = Some(at(l)?);
        }
        for (k, v) in &mut out.recorded {
            *v = match k.as_str() {
                "line" => at(v.parse().ok()?)?.to_string(),
                "lines" => {
                    let (a, b) = v.split_once('-')?;
                    format!("{}-{}", at(a.parse().ok()?)?, at(b.parse().ok()?)?)
                }
                // 1-based `line:column`.
                "location" => {
                    let (l, c) = v.split_once(':')?;
                    format!("{}:{c}", at(l.parse::<u32>().ok()?.checked_sub(1)?)? + 1)
                }
                _ => continue,
            };
        }
        Some(out)
    }

    /// `lines` of a recorded remove-dead-code.
    pub(crate) fn removed_lines(&self) -> Option<(u32, u32)> {
        let v = self.recorded.iter().find(|(k, _)| k == "lines")?;
        let (a, b) = v.1.split_once('-')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    }
}

/// A seed mixed with the program's identity, so that programs get independent action streams.
pub fn rng_for(seed: u64, program: &morphtrace_schema::ProgramHash) -> rand_chacha::ChaCha8Rng {
    let mut h = seed ^ 0x9e37_79b9_7f4a_7c15;
    for b in program.0 {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(h)
}

/// The deterministic identity of a session (what a resumed campaign recognises).
pub fn session_key(strategy: &str, labels: &[String], program: &str, seed: u64) -> SessionId {
    SessionId::from_key(&format!("{strategy}|{}|{program}|{seed}", labels.join("+")))
}
