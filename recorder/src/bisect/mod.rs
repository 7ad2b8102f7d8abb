//! Bisection over engine versions (`morphtrace-record bisect`): where a finding appears or
//! disappears among the available versions of one engine, by binary search, with both sides of
//! the boundary probed again to confirm it. A probe that cannot be judged (the engine did not
//! launch, the session timed out) is skipped, as `git bisect skip` would, never taken as either
//! side.

pub mod session;

use crate::debugger::engines::{cache, local_nodes, node_major, which};
use morphtrace_schema::EngineKind;
use std::collections::HashMap;

#[derive(Debug, thiserror::Error)]
pub enum BisectError {
    #[error("--versions {0:?}: expected KIND@LOW..HIGH, e.g. chromium@92..153 or node@20..24")]
    Range(String),
    #[error("no {kind} version between {low} and {high} is available{hint}")]
    Empty {
        kind: String,
        low: String,
        high: String,
        hint: String,
    },
    #[error(transparent)]
    Cache(#[from] cache::CacheError),
    /// The request cannot be done as asked (the directory exists, no engine to replace, …).
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Recorded(#[from] crate::recorded::RecordedError),
    #[error("{0}")]
    Io(String),
}

/// One version a bisection may probe: how to name it on a command line, and its version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeTarget {
    /// An `--engine` spec: `chromium@123.0.1`, `node@22`, `node` (the one on PATH).
    pub spec: String,
    pub version: cache::Version,
}

/// `KIND@LOW..HIGH`: the kind and the bounds (version prefixes, both included).
pub fn parse_range(s: &str) -> Result<(EngineKind, String, String), BisectError> {
    let bad = || BisectError::Range(s.to_string());
    let (kind, range) = s.split_once('@').ok_or_else(bad)?;
    let (low, high) = range.split_once("..").ok_or_else(bad)?;
    if cache::Version::parse(low).is_none() || cache::Version::parse(high).is_none() {
        return Err(bad());
    }
    Ok((EngineKind::parse(kind), low.to_string(), high.to_string()))
}

/// Whether `v` lies in `low..=high`, bounds taken as prefixes (`..153` includes 153.0.1).
fn within(v: &cache::Version, low: &str, high: &str) -> bool {
    let (Some(l), Some(h)) = (cache::Version::parse(low), cache::Version::parse(high)) else {
        return false;
    };
    let cut = |x: &cache::Version, n: usize| -> Vec<u64> {
        x.numbers().iter().copied().take(n).collect()
    };
    cut(v, l.numbers().len()) >= l.numbers().to_vec()
        && cut(v, h.numbers().len()) <= h.numbers().to_vec()
}

/// The versions of `kind` within the range, oldest first: Chromium and Deno releases from the
/// registry (installed when probed), Node versions installed here (PATH and project-local).
pub fn candidates(
    kind: &EngineKind,
    low: &str,
    high: &str,
) -> Result<Vec<ProbeTarget>, BisectError> {
    let mut out: Vec<ProbeTarget> = match cache::Distribution::of(kind) {
        Some(source) => cache::available(source)?
            .into_iter()
            .filter(|v| v.is_release() && within(v, low, high))
            .map(|v| ProbeTarget {
                spec: format!("{kind}@{}", v.text),
                version: v,
            })
            .collect(),
        None if *kind == EngineKind::Node => node_versions()
            .into_iter()
            .filter(|(v, _)| within(v, low, high))
            .map(|(version, spec)| ProbeTarget { spec, version })
            .collect(),
        None => Vec::new(),
    };
    out.sort_by(|a, b| a.version.cmp(&b.version));
    out.dedup_by(|a, b| a.version == b.version);
    if out.is_empty() {
        let hint = if *kind == EngineKind::Node {
            " (Node versions are those installed: PATH's node and scripts/setup.sh's)".to_string()
        } else {
            String::new()
        };
        return Err(BisectError::Empty {
            kind: kind.to_string(),
            low: low.into(),
            high: high.into(),
            hint,
        });
    }
    Ok(out)
}

/// Node versions on this machine: (version, spec).
fn node_versions() -> Vec<(cache::Version, String)> {
    let version_of = |exe: &std::path::Path| -> Option<cache::Version> {
        let out = std::process::Command::new(exe)
            .arg("--version")
            .output()
            .ok()?;
        cache::Version::parse(
            String::from_utf8_lossy(&out.stdout)
                .trim()
                .trim_start_matches('v'),
        )
    };
    let mut out = Vec::new();
    if let Some(exe) = which("node") {
        if let Some(v) = version_of(&exe) {
            out.push((v, "node".to_string()));
        }
    }
    for exe in local_nodes() {
        if let (Some(v), Some(major)) = (version_of(&exe), node_major(&exe)) {
            out.push((v, format!("node@{major}")));
        }
    }
    out
}

/// What probing a version showed: the finding (`Some(true)`), not (`Some(false)`), or nothing
/// judgeable (`None`), with a line saying why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    pub index: usize,
    pub shows: Option<bool>,
    pub note: String,
}

/// How a bisection ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bisected {
    /// The finding changes between the two adjacent (probed) versions `before` and `after`
    /// (indices); `appears`: absent before, present after. `confirmed`: both sides probed
    /// again gave the same answers.
    Boundary {
        before: usize,
        after: usize,
        appears: bool,
        confirmed: bool,
    },
    /// Both ends agree: no boundary in the range (the finding shows on both, or on neither).
    Same { shows: bool },
    /// Only one version could be judged (`index`, the lowest judgeable): nothing can be said
    /// of a boundary.
    OneEnd { index: usize, shows: bool },
    /// The change lies between `low` and `high`, but no version between them could be judged
    /// (or, with `low == 0` and `high == n - 1`, no end could).
    Unjudgeable { low: usize, high: usize },
}

/// Binary search over `n` versions with `probe(i)` (its answers cached; only confirmations
/// probe a version twice). Deterministic: the same answers give the same probes.
pub async fn search<F, Fut>(n: usize, mut probe: F) -> (Bisected, Vec<Probe>)
where
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = Probe>,
{
    let mut log: Vec<Probe> = Vec::new();
    let mut seen: HashMap<usize, Option<bool>> = HashMap::new();
    macro_rules! ask {
        ($i:expr) => {{
            let i = $i;
            match seen.get(&i) {
                Some(s) => *s,
                None => {
                    let p = probe(i).await;
                    let s = p.shows;
                    log.push(p);
                    seen.insert(i, s);
                    s
                }
            }
        }};
    }
    if n == 0 {
        return (Bisected::Unjudgeable { low: 0, high: 0 }, log);
    }
    // The ends, moving inward past versions that cannot be judged.
    let mut lo = 0;
    let lo_shows = loop {
        if lo >= n {
            return (
                Bisected::Unjudgeable {
                    low: 0,
                    high: n - 1,
                },
                log,
            );
        }
        match ask!(lo) {
            Some(s) => break s,
            None => lo += 1,
        }
    };
    let mut hi = n - 1;
    let hi_shows = loop {
        if hi <= lo {
            // No version above `lo` could be judged: one end is no comparison.
            return (
                Bisected::OneEnd {
                    index: lo,
                    shows: lo_shows,
                },
                log,
            );
        }
        match ask!(hi) {
            Some(s) => break s,
            None => hi -= 1,
        }
    };
    if lo_shows == hi_shows {
        return (Bisected::Same { shows: lo_shows }, log);
    }
    // Invariant: lo answers lo_shows, hi the other; versions between them are unknown.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        // The middle first, then its neighbours outward, skipping unjudgeable versions.
        let order: Vec<usize> = (0..(hi - lo - 1))
            .map(|k| {
                let step = k.div_ceil(2);
                if k % 2 == 1 {
                    mid + step
                } else {
                    mid - step
                }
            })
            .filter(|&i| i > lo && i < hi)
            .collect();
        let mut moved = false;
        for i in order {
            if let Some(s) = ask!(i) {
                if s == lo_shows {
                    lo = i;
                } else {
                    hi = i;
                }
                moved = true;
                break;
            }
        }
        if !moved {
            return (Bisected::Unjudgeable { low: lo, high: hi }, log);
        }
    }
    // Confirm: probe both sides again (new engines; a flaky answer shows here).
    let again_lo = probe(lo).await;
    let again_hi = probe(hi).await;
    let confirmed = again_lo.shows == Some(lo_shows) && again_hi.shows == Some(!lo_shows);
    log.push(again_lo);
    log.push(again_hi);
    (
        Bisected::Boundary {
            before: lo,
            after: hi,
            appears: !lo_shows,
            confirmed,
        },
        log,
    )
}

/// Whether a probe's session shows the finding — a divergence of `finding`'s type at its kind
/// of action, at action `at` of the bisected session — with a line saying why. A session that
/// diverged earlier than `at` with something else never reached the finding: undecided, not
/// absent.
pub fn judge(
    s: &morphtrace_schema::Session,
    finding: &crate::reduce::Finding,
    at: u32,
) -> (Option<bool>, String) {
    if !s.outcome.decision().is_judged() {
        return (None, s.outcome.decision().name());
    }
    let divergences = s.all_divergences();
    if let Some(d) = divergences.iter().find(|d| finding.matches(d)) {
        return (Some(true), d.detail.clone());
    }
    // The first divergence the session stopped at, if it stopped before the finding's action.
    match divergences.iter().find(|d| d.continued.is_none()) {
        Some(d) if d.action_index < at => (
            None,
            format!(
                "another divergence first ({} at {}, action {} < {at}) hides it",
                d.kind.name(),
                d.action.name(),
                d.action_index
            ),
        ),
        Some(d) => (
            Some(false),
            format!(
                "another divergence ({} at {})",
                d.kind.name(),
                d.action.name()
            ),
        ),
        None => (Some(false), s.outcome.name().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_that_diverged_before_the_finding_is_undecided_not_absent() {
        use morphtrace_schema::{
            Action, Divergence, DivergenceKind, EngineRef, ProgramHash, Session, SessionId,
            SessionMode, SessionOutcome,
        };
        let finding = crate::reduce::Finding {
            kind: DivergenceKind::Variables,
            action: "resume".into(),
            ends: Vec::new(),
            placed: Vec::new(),
            suspect: None,
        };
        let div = |kind: DivergenceKind, action: Action, at: u32| Divergence {
            kind,
            action_index: at,
            action,
            sides: vec![],
            detail: "d".into(),
            groups: vec![],
            suspect: None,
            continued: None,
            program_differs: None,
            pairs: vec![],
            facts: vec![],
        };
        let session = |d: Option<Divergence>| Session {
            divergence: d,
            ..Session::new(
                SessionId(1),
                SessionMode::Replay,
                1,
                vec![EngineRef(0), EngineRef(1)],
                ProgramHash([0; 32]),
                SessionOutcome::Diverged,
            )
        };
        let earlier = session(Some(div(
            DivergenceKind::BreakpointLocation,
            Action::SetBreakpoint {
                line: 1,
                column: None,
            },
            2,
        )));
        assert_eq!(judge(&earlier, &finding, 7).0, None);
        let later = session(Some(div(
            DivergenceKind::PauseLocation,
            Action::StepOver,
            9,
        )));
        assert_eq!(judge(&later, &finding, 7).0, Some(false));
        let same = session(Some(div(DivergenceKind::Variables, Action::Resume, 7)));
        assert_eq!(judge(&same, &finding, 7).0, Some(true));
        let timed_out = Session {
            outcome: SessionOutcome::Timeout,
            ..session(None)
        };
        assert_eq!(judge(&timed_out, &finding, 7).0, None);
    }

    #[test]
    fn one_judged_end_is_no_comparison() {
        // Only the low end can be judged: not "both ends agree".
        let (v, _) = run(vec![Some(true), None, None, None]);
        assert_eq!(
            v,
            Bisected::OneEnd {
                index: 0,
                shows: true
            }
        );
        let (v, _) = run(vec![None, None, Some(false), None]);
        assert_eq!(
            v,
            Bisected::OneEnd {
                index: 2,
                shows: false
            }
        );
    }

    fn run(answers: Vec<Option<bool>>) -> (Bisected, Vec<usize>) {
        let n = answers.len();
        let (v, log) = futures_util::FutureExt::now_or_never(search(n, |i| {
            let s = answers[i];
            async move {
                Probe {
                    index: i,
                    shows: s,
                    note: String::new(),
                }
            }
        }))
        .expect("the probes never wait");
        (v, log.iter().map(|p| p.index).collect())
    }

    #[test]
    fn finds_where_a_finding_appears_in_logarithmic_probes() {
        // 20 versions, the finding from version 13 on.
        let answers: Vec<Option<bool>> = (0..20).map(|i| Some(i >= 13)).collect();
        let (v, probed) = run(answers);
        assert_eq!(
            v,
            Bisected::Boundary {
                before: 12,
                after: 13,
                appears: true,
                confirmed: true
            }
        );
        // Two ends, at most ceil(log2(19)) = 5 middles, two confirmations.
        assert!(probed.len() <= 9, "{probed:?}");
        assert_eq!(probed[probed.len() - 2..], [12, 13]);
    }

    #[test]
    fn finds_where_it_disappears_and_skips_unjudgeable_versions() {
        // Shows up to 6; versions 3 and 5 cannot be judged (on the search's path): skipped.
        let mut answers: Vec<Option<bool>> = (0..12).map(|i| Some(i <= 6)).collect();
        answers[3] = None;
        answers[5] = None;
        let (v, probed) = run(answers);
        assert_eq!(
            v,
            Bisected::Boundary {
                before: 6,
                after: 7,
                appears: false,
                confirmed: true
            }
        );
        assert!(probed.contains(&5), "{probed:?}");
    }

    #[test]
    fn says_where_unjudgeable_versions_hide_the_boundary() {
        // Shows up to 5; 6 and 7 cannot be judged: the change is somewhere in 5..8.
        let mut answers: Vec<Option<bool>> = (0..12).map(|i| Some(i <= 5)).collect();
        answers[6] = None;
        answers[7] = None;
        let (v, _) = run(answers);
        assert_eq!(v, Bisected::Unjudgeable { low: 5, high: 8 });
    }

    #[test]
    fn says_when_both_ends_agree() {
        let (v, probed) = run(vec![Some(true); 7]);
        assert_eq!(v, Bisected::Same { shows: true });
        assert_eq!(probed, [0, 6]);
    }

    #[test]
    fn parses_ranges_and_keeps_prefix_bounds() {
        let (k, lo, hi) = parse_range("chromium@92..153").unwrap();
        assert_eq!(
            (k, lo.as_str(), hi.as_str()),
            (EngineKind::Chromium, "92", "153")
        );
        assert!(parse_range("chromium@92").is_err());
        let v = |s: &str| cache::Version::parse(s).unwrap();
        assert!(within(&v("153.0.1"), "92", "153"));
        assert!(within(&v("92.0.0"), "92", "153"));
        assert!(!within(&v("91.9.9"), "92", "153"));
        assert!(!within(&v("154.0.0"), "92", "153"));
        assert!(within(&v("2.7.14"), "2.7", "2.9"));
    }
}
