//! Sessions: one program run under one or more debuggers, with its trace(s) and verdicts.

use crate::coverage::CoverageReport;
use crate::engine::EngineRef;
use crate::program::{LineMap, ProgramHash};
use crate::trace::{Action, Output, Trace};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Deterministic identity of a session within a campaign (a hash of what it runs), so that a
/// resumed campaign can recognise the sessions it already has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SessionId(pub u64);

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl SessionId {
    /// A stable id from a textual key (FNV-1a 64: fixed across platforms and versions).
    pub fn from_key(key: &str) -> SessionId {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in key.as_bytes() {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        SessionId(h)
    }
}

/// Which strategy produced the session (docs/design.md §6).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SessionMode {
    /// DBDB Algorithm 1 on one debugger.
    Random,
    /// The same actions in lockstep on 2+ debuggers.
    Differential,
    /// Actions of a recorded session re-issued.
    Replay,
    /// A metamorphic initial session or follow-up.
    Metamorphic,
    /// Coverage of a program (or a pruned variant) under a profiler.
    Coverage,
    /// Executions recorded for relation synthesis.
    Synthesis,
    /// One debugger paused where the program records its own state, judged against the
    /// records (`truth`).
    Truth,
    /// One debugger against itself: the program stepped through statement by statement and
    /// run with a breakpoint on every line, the two traces judged against each other
    /// (`steps`).
    Steps,
    /// One debugger on two builds of one program, the reference unoptimized: what the
    /// optimized build shows must be what the reference showed at the same line
    /// (`optimization`).
    Optimization,
    Other(String),
}

impl SessionMode {
    pub fn name(&self) -> &str {
        match self {
            SessionMode::Random => "random",
            SessionMode::Differential => "differential",
            SessionMode::Replay => "replay",
            SessionMode::Metamorphic => "metamorphic",
            SessionMode::Coverage => "coverage",
            SessionMode::Synthesis => "synthesis",
            SessionMode::Truth => "truth",
            SessionMode::Steps => "steps",
            SessionMode::Optimization => "optimization",
            SessionMode::Other(s) => s,
        }
    }
}

/// How the session ended, from the harness's point of view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SessionOutcome {
    /// The program ran to its end under every debugger and nothing diverged.
    Finished,
    /// The action budget was used up before the program ended.
    ActionLimit,
    /// Differential: the debuggers diverged (see `divergence`).
    Diverged,
    /// Metamorphic/coverage: a relation was violated (see `warnings`).
    Violated,
    /// The session exceeded its time limit.
    Timeout,
    /// The harness could not complete the session (engine crash, protocol error); the campaign went on.
    HarnessError { message: String },
    /// Coverage: the program cannot be used (does not compile or terminate, reads its
    /// environment), with the reason.
    Rejected { reason: String },
}

impl SessionOutcome {
    pub fn name(&self) -> &'static str {
        match self {
            SessionOutcome::Finished => "finished",
            SessionOutcome::ActionLimit => "action-limit",
            SessionOutcome::Diverged => "diverged",
            SessionOutcome::Violated => "violated",
            SessionOutcome::Timeout => "timeout",
            SessionOutcome::HarnessError { .. } => "harness-error",
            SessionOutcome::Rejected { .. } => "rejected",
        }
    }
}

impl SessionOutcome {
    /// The decision of an outcome known by its name (as the analyzer's frames hold it); `None`
    /// for a name no outcome has.
    pub fn decision_of(name: &str) -> Option<Decision> {
        let message = String::new;
        [
            SessionOutcome::Finished,
            SessionOutcome::ActionLimit,
            SessionOutcome::Diverged,
            SessionOutcome::Violated,
            SessionOutcome::Timeout,
            SessionOutcome::HarnessError { message: message() },
            SessionOutcome::Rejected { reason: message() },
        ]
        .into_iter()
        .find(|o| o.name() == name)
        .map(|o| o.decision())
    }

    /// Why the session is undecided (`timeout`, `harness-error`, `rejected`), or `None`
    /// when the recording reached a point where its relation or comparison was judged.
    pub fn undecided(&self) -> Option<&'static str> {
        match self {
            SessionOutcome::Timeout
            | SessionOutcome::HarnessError { .. }
            | SessionOutcome::Rejected { .. } => Some(self.name()),
            _ => None,
        }
    }

    /// The session's decision as recorded (docs/design.md §2): judged (agreed, or diverged/violated) or
    /// undecided with the reason.
    pub fn decision(&self) -> Decision {
        match self {
            SessionOutcome::Finished | SessionOutcome::ActionLimit => Decision::Agreed,
            SessionOutcome::Diverged | SessionOutcome::Violated => Decision::Diverged,
            other => Decision::Undecided {
                reason: other.name().to_string(),
            },
        }
    }
}

/// What a session's recording established. Rates and tables count judged sessions only
/// (`Agreed`, `Diverged`); an undecided one is shown by its reason, never folded into either.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Decision {
    /// Judged: nothing diverged, no relation was violated.
    Agreed,
    /// Judged: the debuggers diverged, or a relation was violated.
    Diverged,
    /// Not judged: the engine died, the session timed out, the harness failed, the program was
    /// rejected, or a trace lacks the answer the judgement needs.
    Undecided { reason: String },
}

impl Decision {
    pub fn is_judged(&self) -> bool {
        !matches!(self, Decision::Undecided { .. })
    }

    /// `agreed`, `diverged`, or `undecided (reason)`.
    pub fn name(&self) -> String {
        match self {
            Decision::Agreed => "agreed".into(),
            Decision::Diverged => "diverged".into(),
            Decision::Undecided { reason } => format!("undecided ({reason})"),
        }
    }
}

/// The six divergence types of DBDB §3.4.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DivergenceKind {
    BreakpointLocation,
    BreakpointRemoval,
    Termination,
    PauseLocation,
    CallStack,
    Variables,
    Other(String),
    /// An expression evaluated on a paused frame gave different values (or threw on one side).
    Evaluation,
    /// Both paused on an exception, thrown with different values.
    Exception,
    /// Logpoints logged different lines.
    Log,
    /// Both paused at one place with one synchronous stack, but their async call stacks name
    /// different functions.
    AsyncStack,
}

impl DivergenceKind {
    /// DBDB's six, in the paper's order.
    pub const DBDB: [DivergenceKind; 6] = [
        DivergenceKind::BreakpointLocation,
        DivergenceKind::BreakpointRemoval,
        DivergenceKind::Termination,
        DivergenceKind::PauseLocation,
        DivergenceKind::CallStack,
        DivergenceKind::Variables,
    ];

    pub fn name(&self) -> &str {
        match self {
            DivergenceKind::BreakpointLocation => "breakpoint-location",
            DivergenceKind::BreakpointRemoval => "breakpoint-removal",
            DivergenceKind::Termination => "termination",
            DivergenceKind::PauseLocation => "pause-location",
            DivergenceKind::CallStack => "call-stack",
            DivergenceKind::Variables => "variables",
            DivergenceKind::Other(s) => s,
            DivergenceKind::Evaluation => "evaluation",
            DivergenceKind::Log => "log",
            DivergenceKind::Exception => "exception",
            DivergenceKind::AsyncStack => "async-stack",
        }
    }
}

/// One debugger's side of a divergence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DivergenceSide {
    pub engine: EngineRef,
    /// The output this debugger gave to the diverging action (`None`: it gave none).
    pub output: Option<Output>,
}

/// The first point where the debuggers' traces differ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Divergence {
    pub kind: DivergenceKind,
    /// Index (0-based) of the diverging action among the session's actions.
    pub action_index: u32,
    pub action: Action,
    pub sides: Vec<DivergenceSide>,
    /// What differs, in words (e.g. the first differing variable).
    pub detail: String,
    /// Three engines or more: the engines grouped by the output they agree on at the diverging
    /// action, largest group first (ties in engine order). Empty with two engines.
    #[serde(default)]
    pub groups: Vec<Vec<EngineRef>>,
    /// Three engines or more: the one engine that disagrees when all the others agree (DESIGN
    /// §2, *suspect*); `None` when no single engine stands alone against one agreeing group.
    #[serde(default)]
    pub suspect: Option<EngineRef>,
    /// How the session went on past this divergence (lockstep continuation: excused by a triage
    /// rule, or a lone suspect left out), in words; `None`: the session stopped here.
    #[serde(default)]
    pub continued: Option<String>,
    /// The program itself computes differently on the diverging engines: run without a pause on
    /// each, it ended or printed otherwise (its globals' values included); the first difference,
    /// in words. `None`: it computes the same, or that was not looked at (one engine, an old
    /// archive).
    #[serde(default)]
    pub program_differs: Option<String>,
    /// Three engines or more with no suspect: what differs between each two groups (their first
    /// engines), so that triage can judge a divergence no engine stands alone in by judging
    /// every difference it holds. Empty otherwise, and in older archives.
    // Not skipped when empty: `facts` follows, and the compact encoding is positional.
    #[serde(default)]
    pub pairs: Vec<DivergencePair>,
    /// What the recorder asked the engines at this divergence besides the session's actions
    /// (`fact::Fact`: e.g. each engine's own break position for a breakpoint placed apart).
    /// Empty: nothing was asked, or an older archive.
    #[serde(default)]
    pub facts: Vec<crate::fact::Fact>,
}

/// What differs between two engines' outputs at a divergence among three engines or more.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DivergencePair {
    /// The detail's first and second side.
    pub sides: [EngineRef; 2],
    pub kind: DivergenceKind,
    pub detail: String,
}

/// Engines grouped by agreement: `same(i, j)` says whether outputs `i` and `j` agree. Each
/// output joins the first group whose first member it agrees with; groups largest first (ties:
/// engine order). With the groups, the suspect: the engine alone in a group of one when exactly
/// one other group holds all the rest (two of them at least).
pub fn agreement(
    n: usize,
    same: impl Fn(usize, usize) -> bool,
) -> (Vec<Vec<usize>>, Option<usize>) {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        match groups.iter_mut().find(|g| same(g[0], i)) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
    let suspect = match groups.as_slice() {
        [many, one] if one.len() == 1 && many.len() >= 2 => Some(one[0]),
        _ => None,
    };
    (groups, suspect)
}

/// A metamorphic transformation applied to obtain this session from its parent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransformationRecord {
    /// E.g. `add-breakpoint-and-continue`, `insert-dead-code`, `literal-to-expression`.
    pub name: String,
    /// Decided while the follow-up ran, from the live debugger state.
    pub interactive: bool,
    pub params: Vec<(String, String)>,
    /// The program before and after (equal for action transformations).
    pub program_before: ProgramHash,
    pub program_after: ProgramHash,
    /// Lines of `program_after` mapped to lines of `program_before`.
    pub mapping: Option<LineMap>,
}

/// A violated relation: the evidence a person needs to judge it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Warning {
    pub relation: String,
    /// The transformation round in which it was found (1-based; 0 for non-iterative relations).
    pub round: u32,
    /// The session the relation compared this one with.
    pub against: Option<SessionId>,
    /// Index of the first differing event in this session's first trace, when there is one.
    pub event_index: Option<u32>,
    pub message: String,
}

/// Link of a follow-up session to the session it was derived from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParentRef {
    pub session: SessionId,
    pub round: u32,
}

/// One session: a program, one seed, one or more debuggers, their traces and the verdicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub id: SessionId,
    pub mode: SessionMode,
    pub seed: u64,
    pub engines: Vec<EngineRef>,
    pub program: ProgramHash,
    pub parent: Option<ParentRef>,
    pub transformations: Vec<TransformationRecord>,
    pub outcome: SessionOutcome,
    /// Wall-clock start, milliseconds since the Unix epoch.
    pub started_at_ms: i64,
    pub duration_us: u64,
    /// One trace per engine, in the order of `engines`.
    pub traces: Vec<Trace>,
    pub divergence: Option<Divergence>,
    pub warnings: Vec<Warning>,
    pub coverage: Vec<CoverageReport>,
    /// Free-form facts about the session (strategy parameters, replay source, ...).
    #[serde(default)]
    pub notes: Vec<(String, String)>,
    /// Every divergence the session met, in order, when it went on past one (lockstep
    /// continuation); the first is `divergence` (DBDB's tables count it). Empty in sessions
    /// that met at most one (and in archives older than continuation).
    #[serde(default)]
    pub divergences: Vec<Divergence>,
    /// CPU time, user and system, of the recorder and every process it started (engines,
    /// adapters, their children) since the run's previous session was written, shared among
    /// the sessions written together in proportion to their wall time. Summed over a run it is
    /// the run's CPU (shutdown aside); one session's share is exact only with one job. `None`
    /// in archives older than this field and for sessions not recorded by a campaign.
    #[serde(default)]
    pub cpu_us: Option<u64>,
}

impl Session {
    /// A session with its identity, engines, program and outcome and nothing recorded yet (no
    /// parent, traces, transformations, coverage or notes; time 0): callers add what they have
    /// with struct update syntax.
    pub fn new(
        id: SessionId,
        mode: SessionMode,
        seed: u64,
        engines: Vec<EngineRef>,
        program: ProgramHash,
        outcome: SessionOutcome,
    ) -> Session {
        Session {
            id,
            mode,
            seed,
            engines,
            program,
            parent: None,
            transformations: Vec::new(),
            outcome,
            started_at_ms: 0,
            duration_us: 0,
            traces: Vec::new(),
            divergence: None,
            warnings: Vec::new(),
            coverage: Vec::new(),
            notes: Vec::new(),
            divergences: Vec::new(),
            cpu_us: None,
        }
    }

    /// Every divergence of the session in order: `divergences`, or the one `divergence`.
    pub fn all_divergences(&self) -> &[Divergence] {
        if self.divergences.is_empty() {
            self.divergence.as_slice()
        } else {
            &self.divergences
        }
    }

    /// Number of events (actions + outputs) over all traces.
    pub fn event_count(&self) -> usize {
        self.traces.iter().map(|t| t.events.len()).sum()
    }

    /// Every program this session refers to (its own and those of its transformations).
    pub fn referenced_programs(&self) -> Vec<ProgramHash> {
        let mut v = vec![self.program];
        for t in &self.transformations {
            v.push(t.program_before);
            v.push(t.program_after);
        }
        for c in &self.coverage {
            v.push(c.program);
        }
        v.sort();
        v.dedup();
        v
    }
}

#[cfg(test)]
mod verdict_tests {
    use super::*;

    #[test]
    fn every_outcome_name_has_its_verdict() {
        assert_eq!(
            SessionOutcome::decision_of("finished"),
            Some(Decision::Agreed)
        );
        assert_eq!(
            SessionOutcome::decision_of("violated"),
            Some(Decision::Diverged)
        );
        for name in ["timeout", "harness-error", "rejected"] {
            let v = SessionOutcome::decision_of(name).unwrap();
            assert!(!v.is_judged(), "{name}");
        }
        assert_eq!(SessionOutcome::decision_of("nonsense"), None);
    }
}

#[cfg(test)]
mod agreement_tests {
    use super::agreement;

    #[test]
    fn a_lone_engine_against_an_agreeing_majority_is_the_suspect() {
        // Outputs 0 and 1 agree, 2 differs.
        let out = ["a", "a", "b"];
        assert_eq!(
            agreement(3, |i, j| out[i] == out[j]),
            (vec![vec![0, 1], vec![2]], Some(2))
        );
        // The odd one out first: groups still largest first.
        let out = ["b", "a", "a", "a"];
        assert_eq!(
            agreement(4, |i, j| out[i] == out[j]),
            (vec![vec![1, 2, 3], vec![0]], Some(0))
        );
    }

    #[test]
    fn no_suspect_without_one_lone_engine_against_one_group() {
        let all_differ = ["a", "b", "c"];
        assert_eq!(agreement(3, |i, j| all_differ[i] == all_differ[j]).1, None);
        let two_pairs = ["a", "a", "b", "b"];
        assert_eq!(agreement(4, |i, j| two_pairs[i] == two_pairs[j]).1, None);
        let all_agree = ["a", "a", "a"];
        assert_eq!(
            agreement(3, |i, j| all_agree[i] == all_agree[j]),
            (vec![vec![0, 1, 2]], None)
        );
        // Two engines: a pair cannot outvote one.
        let pair = ["a", "b"];
        assert_eq!(agreement(2, |i, j| pair[i] == pair[j]).1, None);
    }
}
