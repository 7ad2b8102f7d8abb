//! Execution tiers: one engine run another way that must not change what a debugger shows (an
//! interpreter only, a JIT that compiles everything at once), named `KIND+TIER`
//! (`--engine node+jitless`). Debug² (ASPLOS'21) compared optimized with unoptimized builds of
//! one compiler; a differential between two tiers of one engine has no "by design" between
//! families to excuse, so the triage judges it with no family's rules (see
//! `morphtrace_judges::triage`: only a rule that names the tier pair applies).
//!
//! A tier's engine records the tier in its version (`20.20.2+jitless`, as debugpy's tracers
//! do), so every report tells the two apart, and in a `tier` detail with what was set.

use morphtrace_schema::EngineKind;

/// The descriptor detail that names the tier (`jitless (--jitless: …)`).
pub const DETAIL: &str = "tier";

#[derive(Debug, PartialEq, Eq)]
pub struct Tier {
    pub name: &'static str,
    /// What runs the program under it, for `engines` and the descriptor.
    pub what: &'static str,
    pub how: How,
}

#[derive(Debug, PartialEq, Eq)]
pub enum How {
    /// V8 flags: on Node's command line, in Deno's `--v8-flags=`, in Chromium's `--js-flags=`.
    V8(&'static [&'static str]),
    /// Firefox preferences (the profile's user.js), as `about:config` names them.
    Prefs(&'static [(&'static str, &'static str)]),
    /// JavaScriptCore options, which Bun reads from its environment as `BUN_JSC_NAME`.
    Jsc(&'static [(&'static str, &'static str)]),
}

/// V8's tiers (Ignition, Sparkplug, Maglev, Turbofan), in Node, Deno and Chromium alike.
const V8: &[Tier] = &[
    Tier {
        name: "jitless",
        what: "Ignition only: no executable memory, no Sparkplug, Maglev or Turbofan (and no WebAssembly)",
        how: How::V8(&["--jitless"]),
    },
    Tier {
        name: "sparkplug",
        what: "every function compiled by Sparkplug, the baseline compiler, before its first run",
        how: How::V8(&["--always-sparkplug"]),
    },
    Tier {
        name: "turbofan",
        what: "every function optimized by Turbofan wherever it can be",
        how: How::V8(&["--always-turbofan"]),
    },
];

/// SpiderMonkey's tiers (the C++ interpreter, the baseline interpreter, the baseline JIT, Ion).
const SPIDERMONKEY: &[Tier] = &[
    Tier {
        name: "nojit",
        what: "the C++ interpreter only: baseline interpreter, baseline JIT and Ion off",
        how: How::Prefs(&[
            ("javascript.options.blinterp", "false"),
            ("javascript.options.baselinejit", "false"),
            ("javascript.options.ion", "false"),
        ]),
    },
    Tier {
        name: "noion",
        what: "the interpreters and the baseline JIT, Ion off",
        how: How::Prefs(&[("javascript.options.ion", "false")]),
    },
    Tier {
        name: "eager",
        what: "every tier entered at once: the warm-up thresholds of the baseline interpreter, the baseline JIT and Ion at 0",
        how: How::Prefs(&[
            ("javascript.options.blinterp.threshold", "0"),
            ("javascript.options.baselinejit.threshold", "0"),
            ("javascript.options.ion.threshold", "0"),
        ]),
    },
];

/// JavaScriptCore's tiers (LLInt, Baseline, DFG, FTL).
const JSC: &[Tier] = &[
    Tier {
        name: "nojit",
        what: "the LLInt interpreter only",
        how: How::Jsc(&[("useJIT", "0")]),
    },
    Tier {
        name: "nodfg",
        what: "the LLInt and the Baseline JIT, the optimizing DFG and FTL off",
        how: How::Jsc(&[("useDFGJIT", "0")]),
    },
];

/// The tiers an engine kind can run under (none for the others: debugpy's tracers and
/// coverage.py's cores are variants of their own).
pub fn of(kind: &EngineKind) -> &'static [Tier] {
    match kind {
        EngineKind::Node | EngineKind::Deno | EngineKind::Chromium => V8,
        EngineKind::Firefox => SPIDERMONKEY,
        EngineKind::Bun => JSC,
        _ => &[],
    }
}

/// The tier `name` of `kind`, or why not (naming the tiers there are).
pub fn find(kind: &EngineKind, name: &str) -> Result<&'static Tier, String> {
    let tiers = of(kind);
    tiers.iter().find(|t| t.name == name).ok_or_else(|| {
        if tiers.is_empty() {
            format!("{kind}+{name}: {kind} runs one way only")
        } else {
            let names: Vec<&str> = tiers.iter().map(|t| t.name).collect();
            format!(
                "{kind}+{name}: {kind}'s tiers are {} (morphtrace-record engines lists them)",
                names.join(", ")
            )
        }
    })
}

impl Tier {
    /// The descriptor's `tier` detail: the name first (read back by `EngineSpec::of`).
    pub fn detail(&self) -> (String, String) {
        (
            DETAIL.into(),
            format!("{} ({}: {})", self.name, self.set(), self.what),
        )
    }

    /// What the tier sets, as a user would write it.
    pub fn set(&self) -> String {
        match &self.how {
            How::V8(flags) => flags.join(" "),
            How::Prefs(prefs) => prefs
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", "),
            How::Jsc(options) => options
                .iter()
                .map(|(k, v)| format!("BUN_JSC_{k}={v}"))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }

    pub fn v8_flags(&self) -> &'static [&'static str] {
        match self.how {
            How::V8(f) => f,
            _ => &[],
        }
    }

    /// Firefox preferences, as `(name, value)`.
    pub fn prefs(&self) -> &'static [(&'static str, &'static str)] {
        match self.how {
            How::Prefs(p) => p,
            _ => &[],
        }
    }

    /// user.js lines.
    pub fn user_js(&self) -> String {
        match self.how {
            How::Prefs(prefs) => prefs
                .iter()
                .map(|(k, v)| format!("user_pref(\"{k}\", {v});\n"))
                .collect(),
            _ => String::new(),
        }
    }

    /// Environment variables.
    pub fn env(&self) -> Vec<(String, String)> {
        match self.how {
            How::Jsc(options) => options
                .iter()
                .map(|(k, v)| (format!("BUN_JSC_{k}"), v.to_string()))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The tier an engine ran under, as its descriptor records it (the `tier` detail's first word).
pub fn of_descriptor(d: &morphtrace_schema::EngineDescriptor) -> Option<&'static Tier> {
    let (_, v) = d.details.iter().find(|(k, _)| k == DETAIL)?;
    find(&d.kind, v.split_whitespace().next()?).ok()
}

/// The version a tier's engine records: the engine's own, then `+TIER`.
pub fn version(version: String, tier: Option<&Tier>) -> String {
    match tier {
        Some(t) => format!("{version}+{}", t.name),
        None => version,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_are_found_by_name_and_refused_with_the_names_there_are() {
        assert_eq!(
            find(&EngineKind::Node, "jitless").unwrap().v8_flags(),
            ["--jitless"]
        );
        assert_eq!(
            find(&EngineKind::Firefox, "noion").unwrap().user_js(),
            "user_pref(\"javascript.options.ion\", false);\n"
        );
        assert_eq!(
            find(&EngineKind::Bun, "nojit").unwrap().env(),
            [("BUN_JSC_useJIT".to_string(), "0".to_string())]
        );
        let e = find(&EngineKind::Firefox, "jitless").unwrap_err();
        assert!(e.contains("nojit, noion, eager"), "{e}");
        let e = find(&EngineKind::Pdb, "jitless").unwrap_err();
        assert!(e.contains("runs one way only"), "{e}");
        assert_eq!(
            version("20.20.2".into(), of(&EngineKind::Node).first()),
            "20.20.2+jitless"
        );
    }
}
