//! The reproducer bundle of a reduced finding: the reduced program and actions, what each engine
//! answered, a standalone reproducer that needs only the engines (`reproduce.mjs`, written for
//! the finding by `reproducer`) and a README.md written for the engine's bug tracker.

use super::{Finding, Reduced};
use morphtrace_schema::{
    Action, DivergenceKind, EngineDescriptor, EngineKind, EventKind, Output, ProgramOutcome, Trace,
};
use std::path::Path;

/// Engines the reproducer drives.
pub fn reproducible(d: &EngineDescriptor) -> bool {
    matches!(
        d.kind.to_string().as_str(),
        "chromium" | "node" | "firefox" | "bun"
    )
}

/// Where the reduced case came from and how it was judged.
pub struct Case<'a> {
    pub engines: &'a [EngineDescriptor],
    /// The comparison looked at columns, not only lines.
    pub columns: bool,
    /// The determinism prelude ran before the program.
    pub prelude: bool,
    /// How long the recording waited for one action's answer (a program still running then
    /// ended by `timeout`): the reproducer waits as long.
    pub action_timeout: std::time::Duration,
    pub original: &'a str,
    pub original_actions: &'a [Action],
    /// A phrase naming the archive and session.
    pub source: &'a str,
}

/// The variables a divergence's detail names (`name.path: x vs y`, `name only on the first
/// side`).
fn named_variable(detail: &str) -> Option<String> {
    let name: String = detail
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The top frame's variables, innermost scope first, values rendered.
fn top_variables(p: &morphtrace_schema::PauseState) -> Vec<(String, String)> {
    p.stack
        .first()
        .map(|f| {
            f.scopes
                .iter()
                .flat_map(|s| s.variables.iter())
                .map(|v| (v.name.clone(), v.value.to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// One line saying what an engine answered.
pub fn answer(o: &Output) -> String {
    match o {
        Output::BreakpointSet { actual, .. } => format!(
            "breakpoint at [{}]",
            actual
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Output::BreakpointRemoved { ok, .. } => format!("breakpoint removed: {ok}"),
        Output::Paused(p) => {
            let stack: Vec<String> = p
                .stack
                .iter()
                .map(|f| {
                    let name = if f.function.is_empty() {
                        "(anonymous)"
                    } else {
                        f.function.as_str()
                    };
                    format!("{name}@{}", f.location)
                })
                .collect();
            let vars: Vec<String> = top_variables(p)
                .into_iter()
                .map(|(n, v)| format!("{n} = {v}"))
                .collect();
            format!(
                "paused at {} (stack: {}; variables: {}){}",
                p.location,
                stack.join(" < "),
                if vars.is_empty() {
                    "none".into()
                } else {
                    vars.join(", ")
                },
                p.exception
                    .as_ref()
                    .map(|e| format!(" on the exception {e}"))
                    .unwrap_or_default()
            )
        }
        Output::Finished {
            outcome: ProgramOutcome::EngineCrashed { message },
        } => format!("program finished: engine-crashed ({message})"),
        Output::Finished { outcome } => format!("program finished: {}", outcome.name()),
        Output::Error { message } => format!("error: {message}"),
        Output::PauseOnExceptionsSet { mode } => format!("pausing on exceptions: {}", mode.name()),
        Output::Evaluated { value, threw } => {
            format!("{} {value}", if *threw { "threw" } else { "evaluated to" })
        }
        Output::VariableSet { name, value } => format!("{name} now reads {value}"),
    }
}

/// The answers of a trace, one per action.
fn answers(t: &Trace) -> Vec<String> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Output(o) => Some(answer(o)),
            EventKind::Action(_) => None,
        })
        .collect()
}

/// Each pause of a trace: the step (action position, 0-based), the 1-based line and column, the
/// stack and the top frame's variables; what the findings index marks beside the program.
fn pauses(t: &Trace) -> Vec<serde_json::Value> {
    let mut step = None::<usize>;
    let mut out = Vec::new();
    for e in &t.events {
        match &e.kind {
            EventKind::Action(_) => step = Some(step.map_or(0, |s| s + 1)),
            EventKind::Output(Output::Paused(p)) => {
                let variables = top_variables(p);
                out.push(serde_json::json!({
                    "step": step.unwrap_or(0),
                    "line": u64::from(p.location.line) + 1,
                    "column": u64::from(p.location.column) + 1,
                    "stack": p.stack.iter().map(|f| f.function.clone()).collect::<Vec<_>>(),
                    "variables": variables,
                }));
            }
            EventKind::Output(_) => {}
        }
    }
    out
}

/// Writes the reduced case into `dir`: `program.js`, `original.js`, `actions.json`, each
/// engine's answers (`answers.json`), and a README.md written for the engine's bug tracker.
pub fn write_bundle(
    dir: &Path,
    r: &Reduced,
    finding: &Finding,
    case: &Case<'_>,
) -> std::io::Result<()> {
    use std::fmt::Write as _;
    let (original, original_actions, source) = (case.original, case.original_actions, case.source);
    let engines: Vec<String> = case.engines.iter().map(|d| d.label()).collect();
    // Python's debuggers run `program.py`; every other engine here, a script.
    let python = case
        .engines
        .iter()
        .all(|d| matches!(d.kind, EngineKind::Debugpy | EngineKind::Pdb));
    let (extension, fence) = if python {
        ("py", "python")
    } else {
        ("js", "js")
    };
    let per_engine = write_case(dir, extension, r, original, original_actions, &engines)?;
    // What logpoints logged is not read by the reproducer (only the behaviour they leave).
    let reproducer = case.engines.iter().all(reproducible) && finding.kind != DivergenceKind::Log;
    if reproducer {
        let mut spec = finding_spec(finding, r, &engines);
        spec.extend(
            serde_json::json!({
                "columns": case.columns,
                "prelude": case.prelude,
                "actionTimeoutMs": case.action_timeout.as_millis() as u64,
                "engines": case.engines.iter().map(|d| serde_json::json!({
                    "kind": d.kind.to_string(),
                    "label": d.label(),
                    "executable": d.executable,
                    // Firefox arms exact positions only: where a breakpoint goes is the client's.
                    "breakpointPolicy": d.details.iter()
                        .find(|(k, _)| k == "breakpointPolicy")
                        .map(|(_, v)| v.as_str()),
                    "tier": tier_spec(d),
                })).collect::<Vec<_>>(),
            })
            .as_object()
            .cloned()
            .unwrap_or_default(),
        );
        write_reproducer(dir, &spec.into(), case.prelude, &[&r.actions])?;
    }
    let mut md = String::new();
    let _ = writeln!(md, "# {} on {}\n", finding, engines.join(" vs "));
    let _ = writeln!(md, "{}.\n", provenance(r, source, "actions"));
    let _ = writeln!(md, "## Versions\n");
    for e in engines {
        let _ = writeln!(md, "- {e}");
    }
    let _ = writeln!(
        md,
        "\n## Program (`program.{extension}`)\n\n```{fence}\n{}```\n",
        r.text
    );
    if python {
        let _ = writeln!(
            md,
            "## Steps\n\nRun `python program.py` under each debugger, stopped before its first \
             line; then (lines 1-based; `start` runs the program):\n"
        );
    } else {
        let _ = writeln!(
            md,
            "## Steps\n\nCompile `program.js` as a classic script in each debugger without \
             running it{}; then (lines and columns 1-based; `start` runs the script):\n",
            after_prelude(case.prelude)
        );
    }
    steps_md(&mut md, r, finding, &per_engine);
    if reproducer {
        let _ = writeln!(
            md,
            "## Reproduce\n\n`node reproduce.mjs` (Node.js 20 or later; engines as recorded, or \
             {}) replays the steps over the debuggers' own protocols and exits 1 while step {} \
             still shows the difference, 0 once the debuggers agree.",
            other_engines(case.engines),
            r.step + 1
        );
    } else {
        md.push_str(&no_reproducer(finding));
    }
    std::fs::write(dir.join("README.md"), md)
}

/// How the README says to run the reproducer on other executables: by kind, or by label when
/// two engines are one kind (`node@20.20.2=PATH`).
fn other_engines(engines: &[EngineDescriptor]) -> String {
    let mut names: Vec<String> = Vec::new();
    for d in engines {
        let kind = d.kind.to_string();
        let twice = engines.iter().filter(|e| e.kind == d.kind).count() > 1;
        let name = if twice { d.label() } else { kind };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
        .iter()
        .map(|n| format!("`{n}=PATH`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where a reduced case came from and what reduction took.
pub(super) fn provenance(r: &Reduced, source: &str, actions: &str) -> String {
    format!(
        "Reduced by morphtrace from {source}: {} → {} lines, {} → {} {actions} ({} runs, {:.1} s{})",
        r.lines.0,
        r.lines.1,
        r.action_count.0,
        r.action_count.1,
        r.tests,
        r.elapsed.as_secs_f64(),
        if r.complete { "" } else { ", budget reached" }
    )
}

/// The README's words for the determinism prelude, when the recording ran it.
fn after_prelude(prelude: bool) -> &'static str {
    if prelude {
        " (after `prelude.js`, a blackboxed script that seeds `Math.random` and fixes the clock)"
    } else {
        ""
    }
}

/// `finding.json`, the reproducer written for it and, when the recording ran it, the prelude.
fn write_reproducer(
    dir: &Path,
    spec: &serde_json::Value,
    prelude: bool,
    actions: &[&[Action]],
) -> std::io::Result<()> {
    std::fs::write(dir.join("finding.json"), pretty(spec))?;
    std::fs::write(
        dir.join("reproduce.mjs"),
        super::reproducer::reproducer(spec, actions),
    )?;
    if prelude {
        std::fs::write(
            dir.join("prelude.js"),
            crate::debugger::determinism::script(),
        )?;
    }
    Ok(())
}

/// The README's last section where a finding has no reproducer, and why: the reproducers do
/// not read what logpoints log, and speak only some engines' protocols.
pub(super) fn no_reproducer(finding: &Finding) -> String {
    let why = if finding.kind == DivergenceKind::Log {
        "it does not read what logpoints log"
    } else {
        "none speaks these engines' protocols yet"
    };
    format!(
        "## Reproduce\n\nNo standalone reproducer: {why}; replay the steps with \
         `morphtrace-record replay`.\n"
    )
}

/// What every reproducer reads of its finding: its title, kind, action, the step where it
/// shows, the divergence's words and the variable they name.
pub(super) fn finding_spec(
    finding: &Finding,
    r: &Reduced,
    engines: &[String],
) -> serde_json::Map<String, serde_json::Value> {
    let variables: Vec<String> = match finding.kind {
        DivergenceKind::Variables => named_variable(&r.detail).into_iter().collect(),
        _ => Vec::new(),
    };
    let spec = serde_json::json!({
        "title": format!("{} on {}", finding, engines.join(" vs ")),
        "kind": finding.kind.name(),
        "action": finding.action,
        "step": r.step,
        "detail": r.detail,
        "variables": variables,
    });
    spec.as_object().cloned().unwrap_or_default()
}

/// One engine's side of a reduced case: its label, its answers step by step, its console.
pub(super) type Side = (String, Vec<String>, Vec<String>);

/// A reduced case's files: `program.EXT`, `original.EXT`, the actions before and after,
/// `answers.json` (each engine's answers and console) and `pauses.json`; returns the answers.
pub(super) fn write_case(
    dir: &Path,
    extension: &str,
    r: &Reduced,
    original: &str,
    original_actions: &[Action],
    engines: &[String],
) -> std::io::Result<Vec<Side>> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(format!("program.{extension}")), &r.text)?;
    std::fs::write(dir.join(format!("original.{extension}")), original)?;
    std::fs::write(dir.join("actions.json"), pretty(&r.actions))?;
    std::fs::write(dir.join("original-actions.json"), pretty(&original_actions))?;
    let per_engine: Vec<Side> = engines
        .iter()
        .zip(&r.traces)
        .map(|(e, t)| (e.clone(), answers(t), t.console.clone()))
        .collect();
    std::fs::write(dir.join("answers.json"), pretty(&per_engine))?;
    let paused: Vec<serde_json::Value> = engines
        .iter()
        .zip(&r.traces)
        .map(|(e, t)| serde_json::json!({"engine": e, "pauses": pauses(t)}))
        .collect();
    std::fs::write(dir.join("pauses.json"), pretty(&paused))?;
    Ok(per_engine)
}

/// The README's numbered steps, what was expected, what each side answered.
pub(super) fn steps_md(md: &mut String, r: &Reduced, finding: &Finding, sides: &[Side]) {
    use std::fmt::Write as _;
    for (i, a) in r.actions.iter().enumerate() {
        let _ = writeln!(md, "{}. `{a}`", i + 1);
    }
    let _ = writeln!(
        md,
        "\n## Expected\n\nThe debuggers answer every step alike (DBDB's relation: same breakpoint \
         locations, pauses, call stacks and variables).\n\n## Actual\n\n{}: {}\n",
        finding, r.detail
    );
    answers_md(md, sides);
}

/// Each side's answers, numbered, and what it printed: a README section per side.
fn answers_md(md: &mut String, sides: &[Side]) {
    use std::fmt::Write as _;
    for (name, answers, console) in sides {
        let _ = writeln!(md, "### {name}\n");
        for (i, x) in answers.iter().enumerate() {
            let _ = writeln!(md, "{}. {x}", i + 1);
        }
        if !console.is_empty() {
            let _ = writeln!(md, "\nconsole: {}", console.join(" | "));
        }
        md.push('\n');
    }
}

/// Pretty JSON (these types always serialize).
pub(super) fn pretty<T: serde::Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default() + "\n"
}

/// The compared detail of a relation's message (after "as in the parent: " or "answered
/// differently: "), where DBDB's comparison names the variable.
fn compared_detail(message: &str) -> &str {
    [" as in the parent: ", " answered differently: "]
        .iter()
        .find_map(|m| message.split_once(m).map(|(_, d)| d))
        .unwrap_or(message)
}

/// Writes a reduced metamorphic warning into `dir`: the parent (`program.js`, `actions.json`)
/// and the follow-up the transformation made of it (`follow-up.js`, `follow-up-actions.json`),
/// what the engine answered to each, the follow-up's pauses in the parent's lines for the
/// findings index, a reproducer that runs both on the engine alone, and a README.md.
pub fn write_metamorphic_bundle(
    dir: &Path,
    r: &Reduced,
    follow: &super::metamorphic::FollowUp,
    finding: &super::metamorphic::Violated,
    case: &Case<'_>,
) -> std::io::Result<()> {
    use morphtrace_judges::metamorphic::Expectation;
    use morphtrace_schema::Location;
    use std::fmt::Write as _;
    let engine = case.engines.first().map(|d| d.label()).unwrap_or_default();
    let record = follow.record.as_ref();
    let map = record.map(|t| Expectation::of(t).map).unwrap_or_default();
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("program.js"), &r.text)?;
    std::fs::write(dir.join("follow-up.js"), &follow.text)?;
    std::fs::write(dir.join("original.js"), case.original)?;
    std::fs::write(dir.join("actions.json"), pretty(&r.actions))?;
    std::fs::write(dir.join("follow-up-actions.json"), pretty(&follow.actions))?;
    std::fs::write(
        dir.join("original-actions.json"),
        pretty(&case.original_actions),
    )?;
    let (parent_trace, follow_trace) = (r.traces.first(), r.traces.get(1));
    let sides = [
        (format!("parent ({engine})"), parent_trace),
        (format!("follow-up ({engine})"), follow_trace),
    ];
    let per_run: Vec<(String, Vec<String>, Vec<String>)> = sides
        .iter()
        .filter_map(|(n, t)| t.map(|t| (n.clone(), answers(t), t.console.clone())))
        .collect();
    std::fs::write(dir.join("answers.json"), pretty(&per_run))?;
    // The follow-up's pauses on the parent's lines (the index shows `program.js`).
    let in_parent = |t: &Trace| {
        let mut ps = pauses(t);
        for p in &mut ps {
            let (line, column) = (p["line"].as_u64(), p["column"].as_u64());
            if let (Some(l), Some(c)) = (line, column) {
                let at = Location::new(l as u32 - 1, c as u32 - 1);
                let q = map.to_parent(at);
                p["line"] = q.map_or(serde_json::Value::Null, |q| (u64::from(q.line) + 1).into());
                p["column"] = q.map_or(serde_json::Value::Null, |q| {
                    (u64::from(q.column) + 1).into()
                });
            }
        }
        ps
    };
    let paused = serde_json::json!([
        {"engine": sides[0].0, "pauses": parent_trace.map(pauses).unwrap_or_default(),
         "step": follow.parent_step},
        {"engine": format!("{} in the parent's lines", sides[1].0),
         "pauses": follow_trace.map(in_parent).unwrap_or_default(), "step": follow.step},
    ]);
    std::fs::write(dir.join("pauses.json"), pretty(&paused))?;
    let title = format!("{finding} on {engine}");
    let transformation = record
        .map(|t| {
            t.params
                .iter()
                .filter(|(k, _)| !k.starts_with("expect."))
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    // Only a difference between two answers is checked by the reproducer (not what the
    // program printed, nor a count of breakpoint answers).
    let reproducer = case.engines.iter().all(reproducible)
        && follow.parent_step.is_some()
        && follow.step.is_some()
        && !matches!(finding.kind, DivergenceKind::Other(_));
    if reproducer {
        let follow_lines = follow.text.lines().count().max(1) as u32;
        let lines: Vec<Option<u32>> = (0..follow_lines)
            .map(|l| map.to_parent(Location::new(l, 0)).map(|x| x.line))
            .collect();
        let edits: Vec<serde_json::Value> = map
            .edits
            .iter()
            .map(|e| {
                serde_json::json!({"line": e.line, "column": e.column,
                                   "oldLen": e.old_len, "newLen": e.new_len})
            })
            .collect();
        let variables: Vec<String> = match finding.kind {
            DivergenceKind::Variables => named_variable(compared_detail(&r.detail))
                .into_iter()
                .collect(),
            _ => Vec::new(),
        };
        let d = &case.engines[0];
        let spec = serde_json::json!({
            "title": title,
            "kind": finding.kind.name(),
            "relation": finding.relation,
            "transformation": finding.transformation,
            "detail": r.detail,
            "step": follow.step,
            "variables": variables,
            "columns": true,
            "prelude": case.prelude,
            "actionTimeoutMs": case.action_timeout.as_millis() as u64,
            "engines": [{
                "kind": d.kind.to_string(),
                "label": d.label(),
                "executable": d.executable,
                "tier": tier_spec(d),
            }],
            "runs": [
                {"program": "program.js", "actions": "actions.json", "step": follow.parent_step},
                {"program": "follow-up.js", "actions": "follow-up-actions.json",
                 "step": follow.step, "map": {"lines": lines, "edits": edits}},
            ],
        });
        write_reproducer(dir, &spec, case.prelude, &[&r.actions, &follow.actions])?;
    } else {
        let spec = serde_json::json!({
            "title": title, "kind": finding.kind.name(), "detail": r.detail,
            "step": follow.step,
        });
        std::fs::write(dir.join("finding.json"), pretty(&spec))?;
    }
    let mut md = String::new();
    let _ = writeln!(md, "# {title}\n");
    let _ = writeln!(
        md,
        "{}. A metamorphic test of one debugger: the program (the parent) and a transformed \
         version of it (the follow-up) are debugged, and the transformation says how their \
         answers must relate.\n",
        provenance(r, case.source, "actions of the parent")
    );
    let _ = writeln!(md, "## Version\n\n- {engine}\n");
    let _ = writeln!(
        md,
        "## Parent (`program.js`)\n\n```js\n{}```\n\n## Follow-up (`follow-up.js`): {}{}\n\n```js\n{}```\n",
        r.text,
        finding.transformation,
        if transformation.is_empty() {
            String::new()
        } else {
            format!(" ({transformation})")
        },
        follow.text
    );
    let _ = writeln!(
        md,
        "## Steps\n\nCompile each program as a classic script in the debugger without running \
         it{}; then (lines and columns 1-based; `start` runs the script):\n",
        after_prelude(case.prelude)
    );
    for (name, actions) in [("parent", &r.actions), ("follow-up", &follow.actions)] {
        let _ = writeln!(md, "{name}:\n");
        for (i, a) in actions.iter().enumerate() {
            let _ = writeln!(md, "{}. `{a}`", i + 1);
        }
        md.push('\n');
    }
    let meaning = match finding.relation.as_str() {
        "extra-pauses-only-at-the-new-breakpoint" => {
            "the follow-up pauses where the parent paused, in order, with the same call stacks \
             and variables, and elsewhere only at the added breakpoint"
        }
        "every-parent-pause-still-appears" => {
            "every pause of the parent appears in the follow-up, in order, with the same call \
             stacks and variables (the step may add pauses)"
        }
        "same-behaviour-plus-an-undefined-parameter" => {
            "the follow-up pauses where the parent paused with the same call stacks and \
             variables, plus the added parameter, undefined, inside its function"
        }
        _ => {
            "the follow-up sets the same breakpoints and pauses where the parent paused, with the \
             same call stacks and variables, and prints the same"
        }
    };
    let _ = writeln!(
        md,
        "## Expected\n\n{}: {meaning}, positions mapped through the transformation (Tolksdorf \
         et al., interactive metamorphic testing of debuggers, Table 1).\n\n## Actual\n\n{}\n",
        finding.relation, r.detail
    );
    answers_md(&mut md, &per_run);
    if reproducer {
        let _ = writeln!(
            md,
            "## Reproduce\n\n`node reproduce.mjs` (Node.js 20 or later; the engine as recorded, \
             or `{}=PATH`) runs both programs and exits 1 while the parent's answer to step {} \
             and the follow-up's to step {} still differ, 0 once they agree.",
            case.engines[0].kind,
            follow.parent_step.map_or(0, |s| s + 1),
            follow.step.map_or(0, |s| s + 1)
        );
    } else {
        let _ = writeln!(
            md,
            "## Reproduce\n\nNo standalone reproducer: it compares two answers of one debugger, \
             and this violation ({}) is not one answer against another.",
            finding.kind.name()
        );
    }
    std::fs::write(dir.join("README.md"), md)
}

/// The execution tier an engine ran under (`node+jitless`), as the reproducer sets it: V8 flags
/// (Node's command line, Chromium's `--js-flags`), Firefox preferences, JavaScriptCore options
/// in Bun's environment; `null` for the default tier.
fn tier_spec(d: &morphtrace_schema::EngineDescriptor) -> serde_json::Value {
    let Some(t) = crate::debugger::engines::tier::of_descriptor(d) else {
        return serde_json::Value::Null;
    };
    serde_json::json!({
        "name": t.name,
        "v8Flags": t.v8_flags(),
        "prefs": t.prefs().iter().map(|(k, v)| (k.to_string(), serde_json::json!(v))).collect::<serde_json::Map<_, _>>(),
        "env": t.env().into_iter().map(|(k, v)| (k, serde_json::json!(v))).collect::<serde_json::Map<_, _>>(),
    })
}
