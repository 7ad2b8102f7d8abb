//! The options a rerun of a session must repeat to be a rerun (replay, reduce, bisect), typed:
//! how values were captured and how long an action could take; for coverage campaigns, the
//! variants and the run timeout. Written into a campaign's parameters and read back from them
//! here and nowhere else. The archive keeps them among the header's `name = value` parameters
//! (`CampaignConfig::params`), so that every archive ever written still reads; a field an
//! older archive lacks, or holds a value this build cannot read, is `None`, and the reader
//! chooses the default.

use crate::header::CampaignConfig;
use std::time::Duration;

/// How a debugger campaign captured what it saw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Capture {
    /// How deep objects were expanded (`--depth`).
    pub depth: Option<u32>,
    /// How many program frames, top first, had their scopes read (0: every frame).
    pub frame_scopes: Option<usize>,
    /// Firefox's breakpoint policy by its command-line name (`--firefox-breakpoints`); written
    /// only where a Firefox ran.
    pub firefox_breakpoints: Option<String>,
    /// The longest wait for a pause or the program's end after a control action.
    pub action_timeout: Option<Duration>,
}

/// How a coverage campaign ran its programs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Coverage {
    /// Variants pruned per program for Cod's relation.
    pub variants: Option<usize>,
    /// The longest a program may run under a profiler.
    pub run_timeout: Option<Duration>,
    /// Whether ground truth by counters was recorded.
    pub truth: Option<bool>,
    /// The Csmith version that generated programs, where Csmith did.
    pub csmith: Option<String>,
}

// The parameters' names: the archive's wire form, fixed once written.
const DEPTH: &str = "capture.depth";
const FRAME_SCOPES: &str = "capture.frame_scopes";
const FIREFOX_BREAKPOINTS: &str = "firefox.breakpoints";
const ACTION_TIMEOUT: &str = "action_timeout_s";
const VARIANTS: &str = "variants";
const RUN_TIMEOUT: &str = "run_timeout_s";
const TRUTH: &str = "truth";
const CSMITH: &str = "csmith";

fn seconds(v: &str) -> Option<Duration> {
    v.parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t > 0.0)
        .map(Duration::from_secs_f64)
}

/// Sets `name` to `value` (once: a later write replaces an earlier one, so a campaign never
/// says two things of one option).
fn set(params: &mut Vec<(String, String)>, name: &str, value: String) {
    params.retain(|(k, _)| k != name);
    params.push((name.to_string(), value));
}

impl Capture {
    pub fn write(&self, config: &mut CampaignConfig) {
        let p = &mut config.params;
        if let Some(d) = self.depth {
            set(p, DEPTH, d.to_string());
        }
        if let Some(f) = self.frame_scopes {
            set(p, FRAME_SCOPES, f.to_string());
        }
        if let Some(f) = &self.firefox_breakpoints {
            set(p, FIREFOX_BREAKPOINTS, f.clone());
        }
        if let Some(t) = self.action_timeout {
            set(p, ACTION_TIMEOUT, t.as_secs_f64().to_string());
        }
    }

    pub fn read(config: &CampaignConfig) -> Capture {
        Capture {
            depth: config.param(DEPTH).and_then(|v| v.parse().ok()),
            frame_scopes: config.param(FRAME_SCOPES).and_then(|v| v.parse().ok()),
            firefox_breakpoints: config.param(FIREFOX_BREAKPOINTS).map(str::to_string),
            action_timeout: config.param(ACTION_TIMEOUT).and_then(seconds),
        }
    }
}

impl Coverage {
    pub fn write(&self, config: &mut CampaignConfig) {
        let p = &mut config.params;
        if let Some(v) = self.variants {
            set(p, VARIANTS, v.to_string());
        }
        if let Some(t) = self.run_timeout {
            set(p, RUN_TIMEOUT, t.as_secs_f64().to_string());
        }
        if let Some(t) = self.truth {
            set(p, TRUTH, t.to_string());
        }
        if let Some(c) = &self.csmith {
            set(p, CSMITH, c.clone());
        }
    }

    pub fn read(config: &CampaignConfig) -> Coverage {
        Coverage {
            variants: config.param(VARIANTS).and_then(|v| v.parse().ok()),
            run_timeout: config.param(RUN_TIMEOUT).and_then(seconds),
            truth: config.param(TRUTH).and_then(|v| v.parse().ok()),
            csmith: config.param(CSMITH).map(str::to_string),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(params: &[(&str, &str)]) -> CampaignConfig {
        CampaignConfig {
            params: params
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..CampaignConfig::default()
        }
    }

    #[test]
    fn options_read_back_as_written_and_once() {
        let capture = Capture {
            depth: Some(4),
            frame_scopes: Some(0),
            firefox_breakpoints: Some("same-line".into()),
            action_timeout: Some(Duration::from_millis(2500)),
        };
        let coverage = Coverage {
            variants: Some(3),
            run_timeout: Some(Duration::from_secs(5)),
            truth: Some(false),
            csmith: Some("csmith 2.3.0".into()),
        };
        let mut c = config(&[("capture.depth", "9"), ("random.max_actions", "20")]);
        capture.write(&mut c);
        coverage.write(&mut c);
        assert_eq!(Capture::read(&c), capture);
        assert_eq!(Coverage::read(&c), coverage);
        // Written over, not beside: one value per name; other parameters kept.
        assert_eq!(c.params.iter().filter(|(k, _)| k == DEPTH).count(), 1);
        assert_eq!(c.param("random.max_actions"), Some("20"));
        assert_eq!(c.param(ACTION_TIMEOUT), Some("2.5"));
    }

    #[test]
    fn what_an_archive_lacks_or_cannot_say_is_none() {
        assert_eq!(Capture::read(&config(&[])), Capture::default());
        assert_eq!(Coverage::read(&config(&[])), Coverage::default());
        let bad = config(&[
            ("capture.depth", "-1"),
            ("action_timeout_s", "NaN"),
            ("run_timeout_s", "0"),
            ("truth", "yes"),
        ]);
        assert_eq!(Capture::read(&bad).depth, None);
        assert_eq!(Capture::read(&bad).action_timeout, None);
        assert_eq!(Coverage::read(&bad).run_timeout, None);
        assert_eq!(Coverage::read(&bad).truth, None);
    }

    /// The names are the archive's: the committed campaigns, written before this module, read.
    #[test]
    fn committed_archives_read_with_these_names() {
        let (r, _) = crate::recorded("differential-chromium-firefox-dbdb.mtrace");
        let c = Capture::read(&r.header().campaign);
        assert!(c.depth.is_some() && c.action_timeout.is_some(), "{c:?}");
        assert!(c.firefox_breakpoints.is_some(), "{c:?}");
        let (r, _) = crate::recorded("coverage-csmith-fixtures.mtrace");
        let c = Coverage::read(&r.header().campaign);
        assert!(c.variants.is_some() && c.run_timeout.is_some(), "{c:?}");
    }
}
