//! A campaign's sessions counted by verdict (docs/design.md §2): what every summary line, rate and exit
//! code rests on. Only judged sessions make a rate; undecided ones are shown by reason.

use morphtrace_schema::{Decision, Session, SessionMode};
use std::collections::BTreeMap;
use std::time::Duration;

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Tally {
    /// Sessions appended to the archive by this run.
    pub recorded: usize,
    /// Sessions whose relation or comparison was judged (agreed, diverged or violated). A
    /// metamorphic initial session is a parent, not a test: it is never counted here.
    pub judged: usize,
    /// Judged sessions that diverged or violated a relation.
    pub diverged: usize,
    /// Metamorphic initial sessions that ended normally (parents of test cases).
    pub parents: usize,
    /// Sessions that could not be judged, by reason (`timeout`, `harness-error`, `rejected`).
    pub undecided: BTreeMap<String, usize>,
    /// Sessions by outcome name.
    pub outcomes: BTreeMap<String, usize>,
}

impl Tally {
    /// Counts one recorded session; returns its verdict.
    pub fn add(&mut self, s: &Session) -> Decision {
        self.recorded += 1;
        *self
            .outcomes
            .entry(s.outcome.name().to_string())
            .or_default() += 1;
        let verdict = s.outcome.decision();
        let parent = s.mode == SessionMode::Metamorphic && s.parent.is_none();
        match &verdict {
            Decision::Undecided { reason } => {
                *self.undecided.entry(reason.clone()).or_default() += 1;
            }
            _ if parent => self.parents += 1,
            Decision::Diverged => {
                self.judged += 1;
                self.diverged += 1;
            }
            Decision::Agreed => self.judged += 1,
        }
        verdict
    }

    pub fn undecided_total(&self) -> usize {
        self.undecided.values().sum()
    }

    /// True when this run recorded sessions but could judge none of them: the user asked for
    /// something that could not be done, and the process says so with its exit code.
    pub fn nothing_judged(&self) -> bool {
        self.recorded > 0 && self.judged == 0
    }

    /// Judged sessions per second of wall time.
    pub fn rate(&self, elapsed: Duration) -> f64 {
        self.judged as f64 / elapsed.as_secs_f64().max(1e-9)
    }

    /// `52 sessions judged (9.81/s), 2 undecided (timeout 2)`, with `what` naming the judged
    /// count (a random session is not compared with anything: it is `complete`).
    pub fn judged_line(&self, what: &str, elapsed: Duration) -> String {
        let mut s = format!("{} {what} ({:.2}/s)", self.judged, self.rate(elapsed));
        if self.parents > 0 {
            s.push_str(&format!(", {} initial sessions", self.parents));
        }
        s.push_str(&format!(", {} undecided", self.undecided_total()));
        if !self.undecided.is_empty() {
            s.push_str(&format!(" ({})", counts(&self.undecided)));
        }
        s
    }
}

/// `finished 3, violated 1`: counts by name.
pub fn counts(m: &BTreeMap<String, usize>) -> String {
    if m.is_empty() {
        return "none".into();
    }
    m.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::{EngineRef, ParentRef, ProgramHash, SessionId, SessionOutcome};

    fn session(mode: SessionMode, parent: bool, outcome: SessionOutcome) -> Session {
        Session {
            parent: parent.then_some(ParentRef {
                session: SessionId(0),
                round: 1,
            }),
            ..Session::new(
                SessionId(1),
                mode,
                1,
                vec![EngineRef(0)],
                ProgramHash([0; 32]),
                outcome,
            )
        }
    }

    #[test]
    fn only_judged_sessions_count_and_undecided_ones_keep_their_reason() {
        use SessionMode::*;
        use SessionOutcome::*;
        let mut t = Tally::default();
        t.add(&session(Metamorphic, false, Finished));
        t.add(&session(Metamorphic, true, Violated));
        t.add(&session(Metamorphic, true, Timeout));
        t.add(&session(
            Metamorphic,
            true,
            HarnessError {
                message: "died".into(),
            },
        ));
        // A replay has a parent too, but it is no metamorphic test case.
        t.add(&session(Replay, true, ActionLimit));
        t.add(&session(
            Coverage,
            false,
            Rejected {
                reason: "does not terminate".into(),
            },
        ));
        assert_eq!(t.recorded, 6);
        assert_eq!(t.judged, 2);
        assert_eq!(t.diverged, 1);
        assert_eq!(t.parents, 1);
        assert_eq!(t.undecided_total(), 3);
        assert_eq!(
            t.judged_line("sessions judged", Duration::from_secs(2)),
            "2 sessions judged (1.00/s), 1 initial sessions, 3 undecided \
             (harness-error 1, rejected 1, timeout 1)"
        );
        assert!(!t.nothing_judged());
        let mut none = Tally::default();
        assert!(!none.nothing_judged());
        none.add(&session(Random, false, Timeout));
        none.add(&session(Metamorphic, false, Finished));
        assert!(none.nothing_judged());
    }
}
