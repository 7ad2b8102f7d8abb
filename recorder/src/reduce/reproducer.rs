//! A debugger bundle's standalone reproducer, `reproduce.mjs`, written from one template
//! (`reproduce.mjs.template`) for what its finding uses: only the protocols of its engines, the
//! actions its steps take and the aspect it compares, so that a vendor reads a short script in
//! their own protocol. The template keeps a line between `//#if TAGS` and `//#end` (or
//! `//#else`) when any of its tags holds (`!TAG`: when it does not); `//##` lines are the
//! template's own notes.

use morphtrace_schema::{Action, DivergenceKind};
use std::collections::BTreeSet;
use std::path::Path;

pub const TEMPLATE: &str = include_str!("reproduce.mjs.template");

/// The tags the template may test besides finding kinds: engine kinds and what the steps use.
pub const TAGS: &[&str] = &[
    "chromium",
    "node",
    "bun",
    "firefox",
    "prelude",
    "metamorphic",
    "remove",
    "exceptions",
    "evaluate",
    "conditions",
    "logpoints",
    "set",
    "continue",
    "restart",
];

/// The finding kinds the template tells apart: DBDB's six and those of the newer actions.
fn finding_kinds() -> impl Iterator<Item = DivergenceKind> {
    DivergenceKind::DBDB.into_iter().chain([
        DivergenceKind::Evaluation,
        DivergenceKind::Exception,
        DivergenceKind::AsyncStack,
    ])
}

/// Whether `name` is a tag: one of [`TAGS`] or a finding kind.
fn is_tag(name: &str) -> bool {
    TAGS.contains(&name) || finding_kinds().any(|k| k.name() == name)
}

/// A template that does not parse: an unknown tag, an unbalanced directive.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error("line {line}: unknown tag `{tag}`")]
    UnknownTag { line: usize, tag: String },
    #[error("line {line}: `{directive}` without `//#if`")]
    Unopened { line: usize, directive: String },
    #[error("`//#if` on line {line} is never closed")]
    Unclosed { line: usize },
}

/// What holds for a finding: the tags its `finding.json` and its actions (every run's) imply.
pub fn tags(spec: &serde_json::Value, actions: &[&[Action]]) -> BTreeSet<String> {
    let mut on = BTreeSet::new();
    let mut hold = |name: &str| {
        if is_tag(name) {
            on.insert(name.to_string());
        }
    };
    for e in spec["engines"].as_array().into_iter().flatten() {
        hold(e["kind"].as_str().unwrap_or_default());
    }
    hold(spec["kind"].as_str().unwrap_or_default());
    if spec["prelude"].as_bool() == Some(true) {
        hold("prelude");
    }
    if spec.get("runs").is_some() {
        hold("metamorphic");
    }
    let removes = actions
        .iter()
        .flat_map(|a| a.iter())
        .any(|a| matches!(a, Action::RemoveBreakpoint { .. }));
    if removes {
        hold("remove");
    }
    let uses = |f: fn(&Action) -> bool| actions.iter().flat_map(|a| a.iter()).any(f);
    if uses(|a| matches!(a, Action::PauseOnExceptions { .. })) {
        hold("exceptions");
    }
    if uses(|a| matches!(a, Action::Evaluate { .. })) {
        hold("evaluate");
    }
    if uses(|a| matches!(a, Action::SetConditionalBreakpoint { .. })) {
        hold("conditions");
    }
    if uses(|a| matches!(a, Action::SetLogpoint { .. })) {
        hold("logpoints");
    }
    if uses(|a| matches!(a, Action::SetVariable { .. })) {
        hold("set");
    }
    if uses(|a| matches!(a, Action::ContinueToLocation { .. })) {
        hold("continue");
    }
    if uses(|a| matches!(a, Action::RestartFrame { .. })) {
        hold("restart");
    }
    on
}

/// The template with the lines whose conditions `on` meets, directives and notes removed.
pub fn render(template: &str, on: &BTreeSet<String>) -> Result<String, TemplateError> {
    // For each open `//#if`: (its line, whether the enclosing text is kept, its condition).
    let mut open: Vec<(usize, bool, bool)> = Vec::new();
    let mut out = String::with_capacity(template.len());
    let kept = |open: &[(usize, bool, bool)]| open.last().is_none_or(|&(_, outer, c)| outer && c);
    for (n, line) in template.lines().enumerate() {
        let t = line.trim_start();
        if let Some(cond) = t.strip_prefix("//#if ") {
            let mut holds = false;
            for tag in cond.split_whitespace() {
                let (negated, name) = match tag.strip_prefix('!') {
                    Some(n) => (true, n),
                    None => (false, tag),
                };
                if !is_tag(name) {
                    return Err(TemplateError::UnknownTag {
                        line: n + 1,
                        tag: tag.into(),
                    });
                }
                holds |= on.contains(name) != negated;
            }
            let outer = kept(&open);
            open.push((n + 1, outer, holds));
        } else if t == "//#else" || t == "//#end" {
            let Some(top) = open.last_mut() else {
                return Err(TemplateError::Unopened {
                    line: n + 1,
                    directive: t.into(),
                });
            };
            if t == "//#else" {
                top.2 = !top.2;
            } else {
                open.pop();
            }
        } else if !t.starts_with("//##") && kept(&open) {
            out.push_str(line);
            out.push('\n');
        }
    }
    match open.first() {
        Some(&(line, _, _)) => Err(TemplateError::Unclosed { line }),
        None => Ok(out),
    }
}

/// The reproducer of a finding, from its `finding.json` and its actions.
pub fn reproducer(spec: &serde_json::Value, actions: &[&[Action]]) -> String {
    // The template is tested to parse under every combination of tags (tests below).
    render(TEMPLATE, &tags(spec, actions)).unwrap_or_else(|e| panic!("reproduce.mjs.template: {e}"))
}

/// The reproducer a bundle's `finding.json` and action files call for (what `reduce` would
/// write into `dir` today), or `None` when the bundle has no reproducer of this kind.
pub fn for_bundle(dir: &Path) -> std::io::Result<Option<String>> {
    let read = |f: &str| std::fs::read_to_string(dir.join(f));
    let Ok(text) = read("finding.json") else {
        return Ok(None);
    };
    let bad = |e: serde_json::Error| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
    let spec: serde_json::Value = serde_json::from_str(&text).map_err(bad)?;
    // Coverage bundles have a shell reproducer and no actions.
    if spec.get("engines").is_none() || !dir.join("actions.json").exists() {
        return Ok(None);
    }
    let files: Vec<String> = match spec["runs"].as_array() {
        Some(runs) => runs
            .iter()
            .filter_map(|r| r["actions"].as_str().map(String::from))
            .collect(),
        None => vec!["actions.json".into()],
    };
    let mut actions = Vec::new();
    for f in files {
        actions.push(serde_json::from_str::<Vec<Action>>(&read(&f)?).map_err(bad)?);
    }
    let slices: Vec<&[Action]> = actions.iter().map(Vec::as_slice).collect();
    Ok(Some(reproducer(&spec, &slices)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn set(tags: &[&str]) -> BTreeSet<String> {
        tags.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn directives_nest_negate_and_branch() {
        let t =
            "a\n//#if node\nn\n//#if !bun\nnot bun\n//#else\nbun\n//#end\n//#end\n//## note\nz\n";
        assert_eq!(render(t, &set(&["node"])).unwrap(), "a\nn\nnot bun\nz\n");
        assert_eq!(render(t, &set(&["node", "bun"])).unwrap(), "a\nn\nbun\nz\n");
        // An `else` inside a dropped block stays dropped.
        assert_eq!(render(t, &set(&["bun"])).unwrap(), "a\nz\n");
        assert!(matches!(
            render("//#if nodejs\n//#end\n", &set(&[])),
            Err(TemplateError::UnknownTag { line: 1, .. })
        ));
        assert!(matches!(
            render("//#if node\n", &set(&[])),
            Err(TemplateError::Unclosed { line: 1 })
        ));
        assert!(matches!(
            render("//#end\n", &set(&[])),
            Err(TemplateError::Unopened { line: 1, .. })
        ));
    }

    fn spec(engines: &[&str], kind: &str, metamorphic: bool) -> serde_json::Value {
        let mut s = serde_json::json!({
            "kind": kind,
            "prelude": true,
            "engines": engines.iter().map(|k| serde_json::json!({"kind": k})).collect::<Vec<_>>(),
        });
        if metamorphic {
            s["runs"] = serde_json::json!([]);
        }
        s
    }

    /// Every engine set and finding kind renders, and Node parses the result (`node --check`).
    #[test]
    fn every_combination_is_a_script_node_accepts() {
        let dir = tempfile::tempdir().unwrap();
        let engines: &[&[&str]] = &[
            &["chromium", "node"],
            &["node", "node"],
            &["chromium", "firefox"],
            &["chromium", "firefox", "bun"],
            &["bun", "chromium"],
            &["firefox", "bun"],
        ];
        let kinds: Vec<String> = finding_kinds().map(|k| k.name().to_string()).collect();
        let remove = [
            Action::RemoveBreakpoint {
                id: morphtrace_schema::BreakpointId(0),
            },
            Action::PauseOnExceptions {
                mode: morphtrace_schema::ExceptionPause::All,
            },
            Action::Evaluate {
                expression: "x".into(),
            },
            Action::SetConditionalBreakpoint {
                line: 1,
                condition: "x > 1".into(),
                column: None,
            },
            Action::SetLogpoint {
                line: 2,
                expression: "x * 2".into(),
                column: None,
            },
            Action::SetVariable {
                name: "x".into(),
                value: "3".into(),
            },
            Action::ContinueToLocation { line: 3 },
            Action::RestartFrame { frame: 0 },
        ];
        let mut checked = 0;
        for (i, e) in engines.iter().enumerate() {
            for (j, k) in kinds.iter().enumerate() {
                let metamorphic = e.len() == 2 && e[0] == e[1];
                let acts: &[&[Action]] = if j % 2 == 0 { &[&remove] } else { &[] };
                let text = reproducer(&spec(e, k, metamorphic), acts);
                let f = dir.path().join(format!("r{i}-{j}.mjs"));
                std::fs::write(&f, &text).unwrap();
                let out = std::process::Command::new("node")
                    .arg("--check")
                    .arg(&f)
                    .output()
                    .expect("node runs");
                assert!(
                    out.status.success(),
                    "{e:?} {k}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let directive = |l: &str| {
                    let t = l.trim_start();
                    t.starts_with("//#if ")
                        || t == "//#else"
                        || t == "//#end"
                        || t.starts_with("//##")
                };
                assert!(!text.lines().any(directive), "{e:?} {k}: a directive left");
                assert_eq!(undefined_methods(&text), Vec::<String>::new(), "{e:?} {k}");
                checked += 1;
            }
            // Each action alone, in a finding of a kind that reads no values: what the action
            // calls is there (an evaluation once called `show`, which only value kinds kept).
            for a in &remove {
                let text = reproducer(
                    &spec(e, "pause-location", false),
                    &[std::slice::from_ref(a)],
                );
                assert_eq!(undefined_methods(&text), Vec::<String>::new(), "{e:?} {a}");
            }
        }
        assert_eq!(checked, engines.len() * kinds.len());
    }

    /// Methods a rendered reproducer calls on `this` that none of its classes defines (nor
    /// sets as a field).
    fn undefined_methods(text: &str) -> Vec<String> {
        let ident = |s: &str| -> String {
            s.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        };
        let mut known = BTreeSet::new();
        for line in text.lines() {
            let t = line.trim_start();
            let t = t.strip_prefix("async ").unwrap_or(t);
            let t = t.strip_prefix("static ").unwrap_or(t);
            let t = t.strip_prefix('*').unwrap_or(t);
            let name = ident(t);
            if !name.is_empty()
                && t[name.len()..].starts_with('(')
                && line.trim_end().ends_with('{')
            {
                known.insert(name);
            }
        }
        // Fields given at once: `Object.assign(this, { ws, wake: () => {} })`.
        for (i, _) in text.match_indices("Object.assign(this, {") {
            let body = &text[i + "Object.assign(this, {".len()..];
            let body = &body[..body.find('\n').unwrap_or(body.len())];
            for part in body.split(',') {
                known.insert(ident(part.trim_start()));
            }
        }
        let mut called = BTreeSet::new();
        for (i, _) in text.match_indices("this.") {
            let name = ident(&text[i + 5..]);
            let rest = text[i + 5 + name.len()..].trim_start();
            if rest.starts_with('=') && !rest.starts_with("==") {
                known.insert(name);
            } else if rest.starts_with('(') && !name.is_empty() {
                called.insert(name);
            }
        }
        called.difference(&known).cloned().collect()
    }

    /// A finding carries only its engines' protocols and what its steps use; a two-engine V8
    /// finding reads in a couple of hundred lines.
    #[test]
    fn a_reproducer_carries_only_what_its_finding_uses() {
        let v8 = reproducer(&spec(&["chromium", "node"], "pause-location", false), &[]);
        // 876 lines when every bundle carried every protocol; 282 (239 of code) when written,
        // 304 once it told a crashed Chromium renderer from a program that runs on, 311 once it
        // removed a killed Chromium's singleton-socket directory, 321 once it listed every step
        // whose answers differ, 330 once it removed the shared memory files a killed Chromium
        // left.
        let lines = v8.lines().count();
        assert!(lines <= 330, "{lines} lines");
        for absent in [
            "Rdp",
            "Firefox",
            "JscSession",
            "SHOW",
            "removeBreakpoint",
            "toParent",
        ] {
            assert!(!v8.contains(absent), "{absent} in a V8 pause finding");
        }
        for present in [
            "launchChromium",
            "launchNode",
            "Debugger.setBreakpointByUrl",
        ] {
            assert!(v8.contains(present), "{present} missing");
        }
        let jsc = reproducer(&spec(&["chromium", "bun"], "variables", false), &[]);
        assert!(jsc.contains("class JscSession") && jsc.contains("SHOW"));
        assert!(!jsc.contains("launchNode") && !jsc.contains("class Rdp"));
        let ff = reproducer(&spec(&["firefox"], "termination", true), &[]);
        assert!(ff.contains("class Rdp") && ff.contains("toParent"));
        assert!(!ff.contains("WebSocket") && !ff.contains("class Cdp"));
    }

    fn findings() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/findings")
    }

    /// traces/findings holds what today's code writes: each debugger bundle's reproducer is the
    /// template rendered for its finding (`UPDATE_EXPECT=1` rewrites them).
    #[test]
    fn committed_reproducers_are_what_the_template_writes() {
        let mut compared = 0;
        let mut bundles: Vec<PathBuf> = std::fs::read_dir(findings())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        bundles.sort();
        for b in bundles {
            let Some(expected) = for_bundle(&b).unwrap() else {
                continue;
            };
            let file = b.join("reproduce.mjs");
            if std::env::var_os("UPDATE_EXPECT").is_some() {
                std::fs::write(&file, &expected).unwrap();
            }
            let committed = std::fs::read_to_string(&file).unwrap_or_default();
            assert!(
                committed == expected,
                "{} is not what the template writes (UPDATE_EXPECT=1 cargo test -p \
                 morphtrace-recorder committed_reproducers rewrites it)",
                file.display()
            );
            compared += 1;
        }
        // Seven debugger bundles at the time of writing; none may silently drop out.
        assert!(compared >= 7, "{compared} bundles compared");
    }
}
