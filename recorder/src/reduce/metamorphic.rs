//! Reduction of a metamorphic warning: the parent's program and actions made smaller while a
//! one-round chain from them, with the recorded transformation repeated at the same place,
//! still violates the same relation in the same way (the same kind of difference). The
//! follow-up is derived again for every candidate, as the campaign derived it, and its warning
//! is confirmed by replay (the chain runner's rule), so a reduced case is never one that only
//! nondeterminism made.

use super::{materialized, Candidate, Judge, ReduceError, Run};
use crate::debugger::Engine;
use crate::metamorphic::{self, Context};
use crate::profilers::v8::V8Runner;
use crate::task::{ChainParams, Pin, Plan};
use morphtrace_judges::dbdb::ComparisonPolicy;
use morphtrace_judges::metamorphic::{judge, Transformation};
use morphtrace_schema::{
    Action, DivergenceKind, EngineRef, EventKind, Language, Trace, TransformationRecord,
};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What must stay the same: the relation, the transformation and what differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violated {
    pub relation: String,
    pub transformation: String,
    pub kind: DivergenceKind,
}

impl std::fmt::Display for Violated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} violated after {} ({})",
            self.relation,
            self.transformation,
            self.kind.name()
        )
    }
}

/// The follow-up of the reduced case: what the bundle and its reproducer need.
#[derive(Debug, Clone, Default)]
pub struct FollowUp {
    pub text: String,
    pub actions: Vec<Action>,
    pub record: Option<TransformationRecord>,
    /// The two answers the violation compares: the parent's and the follow-up's action
    /// positions.
    pub parent_step: Option<usize>,
    pub step: Option<usize>,
}

/// Position of the action an output event answers (`event`: an index into the trace).
fn action_of(t: &Trace, event: u32) -> Option<usize> {
    let n = t
        .events
        .get(..=event as usize)?
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Action(_)))
        .count();
    n.checked_sub(1)
}

/// The metamorphic judge: one engine, one transformation, repeated.
pub struct ChainJudge<'a> {
    pub engine: &'a mut Box<dyn Engine>,
    pub policy: ComparisonPolicy,
    pub workdir: &'a Path,
    pub node: PathBuf,
    pub session_timeout: Duration,
    pub prelude: bool,
    pub seed: u64,
    pub finding: Violated,
    /// The recorded transformation's choices (action positions replaced per candidate).
    pub pin: Pin,
    coverage: Option<V8Runner>,
    py_coverage: Option<crate::profilers::python::CoveragePy>,
}

impl<'a> ChainJudge<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        engine: &'a mut Box<dyn Engine>,
        policy: ComparisonPolicy,
        workdir: &'a Path,
        node: PathBuf,
        session_timeout: Duration,
        prelude: bool,
        seed: u64,
        finding: Violated,
        record: &TransformationRecord,
    ) -> ChainJudge<'a> {
        ChainJudge {
            engine,
            policy,
            workdir,
            node,
            session_timeout,
            prelude,
            seed,
            finding,
            pin: Pin::of(record),
            coverage: None,
            py_coverage: None,
        }
    }

    /// The parent action a transformation is anchored to, if it has one.
    pub fn anchored(&self) -> Option<usize> {
        matches!(
            Transformation::named(&self.finding.transformation),
            Some(
                Transformation::AddBreakpoint
                    | Transformation::ContinueToStep
                    | Transformation::ConditionTrue
                    | Transformation::ConditionFalse
                    | Transformation::ConditionLocal
                    | Transformation::EvaluateLocal
                    | Transformation::Logpoint
                    | Transformation::ContinueAsBreakpoint
                    | Transformation::SetAsCode
                    | Transformation::RestartAsReentry
            )
        )
        .then_some(self.pin.action)
        .flatten()
    }

    /// Stops the coverage harness remove-dead-code started.
    pub fn finish(&mut self) {
        self.coverage = None;
    }
}

impl Judge for ChainJudge<'_> {
    type Extra = FollowUp;

    async fn run(&mut self, c: Candidate<'_>) -> Result<Run<FollowUp>, ReduceError> {
        let no = |detail: String| Run {
            shows: false,
            at: None,
            traces: Vec::new(),
            detail,
            extra: FollowUp::default(),
        };
        let mut pin = match c.lines {
            Some(lines) => match self.pin.moved(lines) {
                Some(p) => p,
                None => return Ok(no("the transformation's place is gone".into())),
            },
            None => self.pin.clone(),
        };
        if self.anchored().is_some() {
            pin.action = c.pinned;
        }
        let Some(transformation) = Transformation::named(&self.finding.transformation) else {
            return Err(ReduceError::NotReproduced(format!(
                "unknown transformation {}",
                self.finding.transformation
            )));
        };
        let loaded = materialized(Language::JavaScript, c.text, "parent", self.workdir)?;
        let params = ChainParams {
            rounds: 1,
            transformations: vec![transformation],
            initial: Plan::Replay {
                actions: c.actions.to_vec(),
            },
            seed: self.seed,
            max_resync: 6,
            pin: pin.clone(),
        };
        let mut ctx = Context {
            engine: self.engine,
            engine_ref: EngineRef(0),
            policy: &self.policy,
            workdir: self.workdir,
            coverage: &mut self.coverage,
            py_coverage: &mut self.py_coverage,
            node: self.node.clone(),
            session_timeout: self.session_timeout,
            prelude: self.prelude,
        };
        let chain = metamorphic::run_chain(&mut ctx, "reduce", &loaded, &params, &[]).await;
        let (Some(parent), Some(follow)) = (chain.sessions.first(), chain.sessions.get(1)) else {
            let why = chain
                .sessions
                .first()
                .map(|s| format!("the parent ended {}", s.outcome.name()))
                .unwrap_or_default();
            return Ok(no(format!("no follow-up: {why}")));
        };
        let (Some(pt), Some(ft), Some(record)) = (
            parent.traces.first(),
            follow.traces.first(),
            follow.transformations.last(),
        ) else {
            return Ok(no(format!("the follow-up ended {}", follow.outcome.name())));
        };
        // Warnings are confirmed by replay; a rejected one (nondeterministic) never counts.
        let warned = follow
            .warnings
            .first()
            .is_some_and(|w| w.relation == self.finding.relation);
        let v = judge(pt, ft, record);
        let detail = v
            .as_ref()
            .map(|v| v.message.clone())
            .unwrap_or_else(|| format!("the follow-up ended {}", follow.outcome.name()));
        let Some(v) = v.filter(|v| warned && v.kind == self.finding.kind) else {
            return Ok(no(detail));
        };
        if c.lines.is_some() {
            // Lines moved for good (blank lines dropped): later runs start from here.
            self.pin = pin;
        }
        let text = chain
            .programs
            .first()
            .map(|p| p.text.clone())
            .unwrap_or_else(|| c.text.to_string());
        let step = v.event_index.and_then(|e| action_of(ft, e));
        Ok(Run {
            shows: true,
            at: step,
            traces: vec![pt.clone(), ft.clone()],
            detail,
            extra: FollowUp {
                text,
                actions: ft.actions().cloned().collect(),
                record: Some(record.clone()),
                parent_step: v.parent_event_index.and_then(|e| action_of(pt, e)),
                step,
            },
        })
    }
}
