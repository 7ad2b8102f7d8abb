//! A light view of a session, decoded straight from an archive frame without the values of
//! variables (the bulk of a trace): what summaries, classes and tables need, several times faster
//! to decode than a whole `Session`.
//!
//! The types mirror `Session`, `Trace`, `Event`, `Output`, `PauseState` and `Frame` field for field
//! and variant for variant (so that both the named and the compact encoding decode), with the
//! skipped parts read as `IgnoredAny`. A test checks the mirror against every field it keeps.

use crate::engine::EngineRef;
use crate::program::ProgramHash;
use crate::session::{
    DivergenceKind, ParentRef, Session, SessionId, SessionMode, SessionOutcome,
    TransformationRecord, Warning,
};
use crate::trace::{
    Action, BreakpointId, EventKind, ExceptionPause, Location, LocationSource, Output, PauseReason,
    ProgramOutcome, Trace,
};
use serde::de::IgnoredAny;
use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct FrameSummary {
    pub function: String,
    pub location: Location,
    #[serde(default)]
    scopes: IgnoredAny,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PauseSummary {
    pub location: Location,
    pub reason: PauseReason,
    #[serde(default)]
    engine_reason: IgnoredAny,
    pub stack: Vec<FrameSummary>,
    #[serde(default)]
    exception: IgnoredAny,
    #[serde(default)]
    async_stack: IgnoredAny,
    #[serde(default)]
    condition: IgnoredAny,
}

/// `Output` without variables.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub enum OutputSummary {
    BreakpointSet {
        id: BreakpointId,
        requested: Location,
        actual: Vec<Location>,
        source: LocationSource,
        #[serde(default)]
        policy: Option<String>,
    },
    BreakpointRemoved {
        id: BreakpointId,
        ok: bool,
    },
    Paused(PauseSummary),
    Finished {
        outcome: ProgramOutcome,
    },
    Error {
        message: String,
    },
    PauseOnExceptionsSet {
        mode: ExceptionPause,
    },
    Evaluated {
        value: IgnoredAny,
        threw: bool,
    },
    VariableSet {
        name: String,
        value: IgnoredAny,
    },
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub enum EventKindSummary {
    Action(Action),
    Output(OutputSummary),
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct EventSummary {
    pub at_us: u64,
    pub kind: EventKindSummary,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TraceSummary {
    pub engine: EngineRef,
    pub events: Vec<EventSummary>,
    #[serde(default)]
    console: IgnoredAny,
    #[serde(default)]
    logs: IgnoredAny,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SideSummary {
    pub engine: EngineRef,
    pub output: Option<OutputSummary>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct DivergenceSummary {
    pub kind: DivergenceKind,
    pub action_index: u32,
    pub action: Action,
    pub sides: Vec<SideSummary>,
    pub detail: String,
    #[serde(default)]
    pub groups: Vec<Vec<EngineRef>>,
    #[serde(default)]
    pub suspect: Option<EngineRef>,
    #[serde(default)]
    pub continued: Option<String>,
    #[serde(default)]
    pub program_differs: Option<String>,
    #[serde(default)]
    pub pairs: Vec<crate::session::DivergencePair>,
    #[serde(default)]
    pub facts: Vec<crate::fact::Fact>,
}

/// `Session` without variables, coverage and notes.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SessionSummary {
    pub id: SessionId,
    pub mode: SessionMode,
    pub seed: u64,
    pub engines: Vec<EngineRef>,
    pub program: ProgramHash,
    pub parent: Option<ParentRef>,
    pub transformations: Vec<TransformationRecord>,
    pub outcome: SessionOutcome,
    pub started_at_ms: i64,
    pub duration_us: u64,
    pub traces: Vec<TraceSummary>,
    pub divergence: Option<DivergenceSummary>,
    pub warnings: Vec<Warning>,
    #[serde(default)]
    coverage: IgnoredAny,
    #[serde(default)]
    pub notes: Vec<(String, String)>,
    #[serde(default)]
    pub divergences: Vec<DivergenceSummary>,
    #[serde(default)]
    pub cpu_us: Option<u64>,
}

impl SessionSummary {
    /// Every divergence of the session in order (see `Session::all_divergences`).
    pub fn all_divergences(&self) -> &[DivergenceSummary] {
        if self.divergences.is_empty() {
            self.divergence.as_slice()
        } else {
            &self.divergences
        }
    }
}

impl OutputSummary {
    /// Where a breakpoint was placed, if this output placed one.
    pub fn placed(&self) -> Option<&[Location]> {
        match self {
            OutputSummary::BreakpointSet { actual, .. } => Some(actual),
            _ => None,
        }
    }

    /// The name `Output::name` gives the same output.
    pub fn name(&self) -> &'static str {
        match self {
            OutputSummary::BreakpointSet { .. } => "breakpointSet",
            OutputSummary::BreakpointRemoved { .. } => "breakpointRemoved",
            OutputSummary::Paused(_) => "paused",
            OutputSummary::Finished { .. } => "finished",
            OutputSummary::Error { .. } => "error",
            OutputSummary::PauseOnExceptionsSet { .. } => "pauseOnExceptionsSet",
            OutputSummary::Evaluated { .. } => "evaluated",
            OutputSummary::VariableSet { .. } => "variableSet",
        }
    }
}

impl TraceSummary {
    pub fn actions(&self) -> impl Iterator<Item = &Action> {
        self.events.iter().filter_map(|e| match &e.kind {
            EventKindSummary::Action(a) => Some(a),
            _ => None,
        })
    }

    pub fn outputs(&self) -> impl Iterator<Item = &OutputSummary> {
        self.events.iter().filter_map(|e| match &e.kind {
            EventKindSummary::Output(o) => Some(o),
            _ => None,
        })
    }
}

impl SessionSummary {
    pub fn event_count(&self) -> usize {
        self.traces.iter().map(|t| t.events.len()).sum()
    }
}

impl From<&Output> for OutputSummary {
    fn from(o: &Output) -> OutputSummary {
        match o {
            Output::BreakpointSet {
                id,
                requested,
                actual,
                source,
                policy,
            } => OutputSummary::BreakpointSet {
                id: *id,
                requested: *requested,
                actual: actual.clone(),
                source: *source,
                policy: policy.clone(),
            },
            Output::BreakpointRemoved { id, ok } => {
                OutputSummary::BreakpointRemoved { id: *id, ok: *ok }
            }
            Output::Paused(p) => OutputSummary::Paused(PauseSummary {
                location: p.location,
                reason: p.reason.clone(),
                engine_reason: IgnoredAny,
                exception: IgnoredAny,
                async_stack: IgnoredAny,
                condition: IgnoredAny,
                stack: p
                    .stack
                    .iter()
                    .map(|f| FrameSummary {
                        function: f.function.clone(),
                        location: f.location,
                        scopes: IgnoredAny,
                    })
                    .collect(),
            }),
            Output::Finished { outcome } => OutputSummary::Finished {
                outcome: outcome.clone(),
            },
            Output::Error { message } => OutputSummary::Error {
                message: message.clone(),
            },
            Output::PauseOnExceptionsSet { mode } => {
                OutputSummary::PauseOnExceptionsSet { mode: *mode }
            }
            Output::Evaluated { threw, .. } => OutputSummary::Evaluated {
                value: IgnoredAny,
                threw: *threw,
            },
            Output::VariableSet { name, .. } => OutputSummary::VariableSet {
                name: name.clone(),
                value: IgnoredAny,
            },
        }
    }
}

impl From<&Trace> for TraceSummary {
    fn from(t: &Trace) -> TraceSummary {
        TraceSummary {
            engine: t.engine,
            events: t
                .events
                .iter()
                .map(|e| EventSummary {
                    at_us: e.at_us,
                    kind: match &e.kind {
                        EventKind::Action(a) => EventKindSummary::Action(a.clone()),
                        EventKind::Output(o) => EventKindSummary::Output(o.into()),
                    },
                })
                .collect(),
            console: IgnoredAny,
            logs: IgnoredAny,
        }
    }
}

impl From<&crate::session::Divergence> for DivergenceSummary {
    fn from(d: &crate::session::Divergence) -> DivergenceSummary {
        DivergenceSummary {
            kind: d.kind.clone(),
            action_index: d.action_index,
            action: d.action.clone(),
            sides: d
                .sides
                .iter()
                .map(|x| SideSummary {
                    engine: x.engine,
                    output: x.output.as_ref().map(OutputSummary::from),
                })
                .collect(),
            detail: d.detail.clone(),
            groups: d.groups.clone(),
            suspect: d.suspect,
            continued: d.continued.clone(),
            program_differs: d.program_differs.clone(),
            pairs: d.pairs.clone(),
            facts: d.facts.clone(),
        }
    }
}

impl From<&Session> for SessionSummary {
    fn from(s: &Session) -> SessionSummary {
        SessionSummary {
            id: s.id,
            mode: s.mode.clone(),
            seed: s.seed,
            engines: s.engines.clone(),
            program: s.program,
            parent: s.parent,
            transformations: s.transformations.clone(),
            outcome: s.outcome.clone(),
            started_at_ms: s.started_at_ms,
            duration_us: s.duration_us,
            traces: s.traces.iter().map(TraceSummary::from).collect(),
            divergence: s.divergence.as_ref().map(DivergenceSummary::from),
            divergences: s.divergences.iter().map(DivergenceSummary::from).collect(),
            warnings: s.warnings.clone(),
            coverage: IgnoredAny,
            notes: s.notes.clone(),
            cpu_us: s.cpu_us,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::Encoding;
    use crate::{ArchiveReader, ArchiveWriter, WriterOptions};

    /// Decoding the light view from an archive gives what converting the whole session gives,
    /// in both encodings: the mirror has every field in the right place.
    #[test]
    fn the_light_view_decodes_what_the_full_session_holds() {
        // Real sessions (Chromium vs Firefox: divergences, values of every kind, slid breakpoints).
        let (recorded, all) = crate::recorded("differential-chromium-firefox-dbdb.mtrace");
        assert!(all.iter().any(|s| s.divergence.is_some()));
        for encoding in [Encoding::Named, Encoding::Compact] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("a.mtrace");
            let opts = WriterOptions {
                encoding,
                ..WriterOptions::default()
            };
            let mut w = ArchiveWriter::create(&path, recorded.header(), opts).unwrap();
            let mut sessions = Vec::new();
            for (i, s) in all.iter().enumerate() {
                let mut s = s.clone();
                for p in s.referenced_programs() {
                    w.add_program(recorded.program(&p).unwrap()).unwrap();
                }
                s.notes.push(("k".into(), "v".into()));
                s.cpu_us = Some(1000 + i as u64);
                s.warnings.push(Warning {
                    relation: "r".into(),
                    round: 2,
                    against: Some(SessionId(9)),
                    event_index: Some(i as u32),
                    message: "m".into(),
                });
                w.append(&s).unwrap();
                sessions.push(s);
            }
            w.finish().unwrap();
            let r = ArchiveReader::open(&path).unwrap();
            for (i, s) in sessions.iter().enumerate() {
                let light: SessionSummary = r.session_as(i).unwrap();
                assert_eq!(light, SessionSummary::from(s), "{encoding:?} session {i}");
                assert_eq!(light.event_count(), s.event_count());
                for (lt, t) in light.traces.iter().zip(&s.traces) {
                    let names: Vec<&str> = t.outputs().map(|o| o.name()).collect();
                    let light_names: Vec<&str> = lt.outputs().map(|o| o.name()).collect();
                    assert_eq!(light_names, names);
                }
            }
        }
    }
}
