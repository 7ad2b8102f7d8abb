//! Replay as a strategy of the session core, and whether two runs of the same actions answered
//! alike: what DBDB's replay campaigns, the metamorphic chains' repeat check, reduction and the
//! output check all re-run recorded actions with.

use super::{Lockstep, Strategy};
use crate::debugger::DebuggerError;
use morphtrace_schema::{Action, EventKind, SessionOutcome, Trace};

/// Replay as a strategy of the session core: the recorded actions re-issued in order on every
/// engine, until the program ends (a control action after the end is not issued).
pub struct Reissue<'p> {
    pub actions: &'p [Action],
}

#[async_trait::async_trait]
impl Strategy for Reissue<'_> {
    async fn drive(&mut self, ls: &mut Lockstep<'_>) -> Result<(), DebuggerError> {
        for a in self.actions {
            if a.is_control() && ls.all_finished() {
                break;
            }
            ls.apply(a).await?;
            if ls.stopped() {
                return Ok(());
            }
        }
        ls.end(if ls.all_finished() {
            SessionOutcome::Finished
        } else {
            SessionOutcome::ActionLimit
        });
        Ok(())
    }
}

/// Where a second run of the same actions on the same program answered differently from the
/// first (the first differing event, or the console), `None` if it did not: a program or engine
/// that is not deterministic makes any comparison with another run meaningless.
pub fn difference(first: &Trace, second: &Trace) -> Option<String> {
    let short = |k: Option<&EventKind>| {
        let s = match k {
            Some(k) => format!("{k:?}"),
            None => "nothing".into(),
        };
        s.chars().take(160).collect::<String>()
    };
    let n = first.events.len().max(second.events.len());
    for i in 0..n {
        let a = first.events.get(i).map(|e| &e.kind);
        let b = second.events.get(i).map(|e| &e.kind);
        if a != b {
            return Some(format!("event {i}: {} then {}", short(a), short(b)));
        }
    }
    (first.console != second.console).then(|| "the console output".into())
}
