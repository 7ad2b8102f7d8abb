//! What a campaign records, task by task: the session's identity, programs, engines and where its
//! actions come from (DBDB's random generation, given actions, or a metamorphic chain). A leaf:
//! the strategies that make tasks (`dbdb`, `metamorphic`) and the runner that records them
//! (`campaign`) all build on it.

use morphtrace_schema::metamorphic::{ADD_BREAKPOINT, CONTINUE_TO_STEP};
use morphtrace_schema::{Action, ParentRef, SessionId, SessionMode, TransformationRecord};

/// DBDB Algorithm 1's parameters.
#[derive(Debug, Clone)]
pub struct RandomParams {
    /// Breakpoints to set per program line (DBDB: 0.1).
    pub bp_per_line: f64,
    /// Probability of removing a breakpoint right after setting it (DBDB: 0.2).
    pub remove_prob: f64,
    /// Control actions (start, resume, steps) at most (DBDB: 20).
    pub max_actions: u32,
}

impl Default for RandomParams {
    fn default() -> Self {
        RandomParams {
            bp_per_line: 0.1,
            remove_prob: 0.2,
            max_actions: 20,
        }
    }
}

impl RandomParams {
    pub fn params(&self) -> Vec<(String, String)> {
        vec![
            ("random.bp_per_line".into(), self.bp_per_line.to_string()),
            ("random.remove_prob".into(), self.remove_prob.to_string()),
            ("random.max_actions".into(), self.max_actions.to_string()),
        ]
    }
}

/// Where the actions come from.
#[derive(Debug, Clone)]
pub enum Plan {
    Random { params: RandomParams, seed: u64 },
    Replay { actions: Vec<Action> },
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
    /// Transformations that may be chosen (names from `schema::metamorphic::ALL`).
    pub transformations: Vec<&'static str>,
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
        match record.name.as_str() {
            ADD_BREAKPOINT => Pin {
                line: number("line"),
                action: number("before-action").map(|a| a as usize),
                ..Pin::default()
            },
            CONTINUE_TO_STEP => Pin {
                action: number("action").map(|a| a as usize),
                step: get("step").and_then(|s| {
                    [Action::StepOver, Action::StepInto, Action::StepOut]
                        .into_iter()
                        .find(|a| a.to_string() == s)
                }),
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

/// The deterministic identity of a session (what a resumed campaign recognises).
pub fn session_key(strategy: &str, labels: &[String], program: &str, seed: u64) -> SessionId {
    SessionId::from_key(&format!("{strategy}|{}|{program}|{seed}", labels.join("+")))
}
