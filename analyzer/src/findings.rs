//! `findings` (issue 23): one representative per class that is worth an engine team's time (not
//! triaged as by design or as ours), reduced by the recorder into a bundle with a standalone
//! reproducer, and an HTML index of the bundles: the reduced program with each engine's pauses
//! marked side by side, the variables at the diverging step with those that differ marked, and
//! for coverage findings the line and each side's count.
//!
//! The analyzer never talks to a debugger: reduction runs `morphtrace-record reduce` as a
//! separate process.

use crate::columns::{groups, u32s};
use crate::load::Archives;
use crate::render::esc;
use crate::triage::JudgeFrames;
use crate::triage::{Family, Triage, Verdict};
use polars::prelude::*;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One class and the member chosen to stand for it.
#[derive(Debug, Clone)]
pub struct Representative {
    pub family: Family,
    /// The class key, e.g. `["variables", "resume", "ExpressionStatement"]`.
    pub key: Vec<String>,
    pub size: usize,
    /// `engine bug`, `representation`, `new` or `mixed`.
    pub verdict: String,
    pub archive: String,
    /// The session's position in its archive.
    pub session: u32,
    /// A divergence's place in its session (0: the first; more when lockstep went on past one).
    pub divergence: u32,
}

impl Representative {
    /// The directory name of its bundle: family, key, lower-case, dashes.
    pub fn slug(&self, n: usize) -> String {
        let words: String = self
            .key
            .join("-")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        let mut slug = String::new();
        for part in words.split('-').filter(|p| !p.is_empty()) {
            if !slug.is_empty() {
                slug.push('-');
            }
            slug.push_str(part);
        }
        format!("{n:02}-{slug}")
    }

    /// What `morphtrace-record reduce --class` takes for a coverage class.
    pub fn coverage_class(&self) -> Option<String> {
        (self.family == Family::Inconsistency).then(|| self.key.join(" "))
    }
}

/// A class left out, and why.
#[derive(Debug, Clone)]
pub struct Skipped {
    pub family: Family,
    pub key: Vec<String>,
    pub size: usize,
    pub why: String,
}

/// The representatives of every class whose members are not all triaged as by design or harness
/// (largest class first within a family), and the classes left out with the reason. A
/// representative is the class's first member (archive order) that no rule dismisses.
pub fn representatives(
    d: &Archives,
    triage: &Triage,
) -> PolarsResult<(Vec<Representative>, Vec<Skipped>)> {
    let coverage = crate::cod::reports(&d.frames)?;
    let families: [(Family, &DataFrame, &[&str]); 3] = [
        (
            Family::Divergence,
            &d.frames.divergences,
            &crate::dbdb::classes::DIVERGENCE_KEYS,
        ),
        (
            Family::Warning,
            &d.frames.warnings,
            &crate::dbdb::classes::WARNING_KEYS,
        ),
        (Family::Inconsistency, &coverage, &crate::cod::KEYS),
    ];
    let mut chosen = Vec::new();
    let mut skipped = Vec::new();
    for (family, members, keys) in families {
        if members.height() == 0 {
            continue;
        }
        let judged = triage.judge(members, family)?;
        let (archive, session) = (u32s(members, "archive")?, u32s(members, "session")?);
        let index = if family == Family::Divergence
            && members
                .get_column_names()
                .iter()
                .any(|c| c.as_str() == "index")
        {
            u32s(members, "index")?
        } else {
            vec![0; members.height()]
        };
        for (key, rows) in groups(members, keys)? {
            let verdicts: Vec<Option<Verdict>> = rows
                .iter()
                .map(|&r| judged[r].map(|i| triage.rules[i].verdict))
                .collect();
            let open = |v: &Option<Verdict>| v.is_none_or(|v| v.is_finding());
            let Some(k) = verdicts.iter().position(open) else {
                let names: Vec<&str> = verdicts.iter().flatten().map(|v| v.name()).collect();
                skipped.push(Skipped {
                    family,
                    key,
                    size: rows.len(),
                    why: format!("triaged {}", dedup(&names).join(", ")),
                });
                continue;
            };
            // As `classes` says it: one unjudged member keeps the class new; `mixed` when every
            // member is judged, by rules of different verdicts.
            let first = verdicts[0];
            let verdict = if verdicts.iter().any(Option::is_none) {
                "new"
            } else if verdicts.iter().all(|v| *v == first) {
                first.map_or("new", |v| v.name())
            } else {
                "mixed"
            };
            let row = rows[k];
            chosen.push(Representative {
                family,
                key,
                size: rows.len(),
                verdict: verdict.to_string(),
                archive: d.sources[archive[row] as usize].path.clone(),
                session: session[row],
                divergence: index[row],
            });
        }
    }
    Ok((chosen, skipped))
}

fn dedup<'a>(names: &[&'a str]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for n in names {
        if !out.contains(n) {
            out.push(n);
        }
    }
    out
}

/// What became of one representative.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub representative: Representative,
    /// The bundle's directory name under the output directory, when it was written.
    pub bundle: Option<String>,
    /// The recorder's last line: what was reduced to what, or why not.
    pub said: String,
}

/// Reads a bundle's file, if it is there.
fn read(dir: &Path, f: &str) -> Option<String> {
    std::fs::read_to_string(dir.join(f)).ok()
}

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}\
h1{font-size:22px}h2{font-size:17px;margin:32px 0 4px;border-top:2px solid #ccc;padding-top:16px}\
.meta{color:#555;margin:2px 0}code,pre,td.src{font:12px/1.35 ui-monospace,monospace}\
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:1px 6px;vertical-align:top}\
th{background:#f3f3f3;text-align:left}td.n{color:#888;text-align:right}td.src{white-space:pre}\
.mark{display:inline-block;min-width:18px;padding:0 3px;margin:0 1px;border-radius:3px;background:#dfe9f7;color:#0d47a1}\
.at{background:#c62828;color:#fff;font-weight:bold}tr.hit td.src{background:#fff3cd}\
.diff{background:#ffd6d6;font-weight:bold}.verdict{display:inline-block;padding:0 6px;border-radius:3px;background:#eee}\
.engine-bug{background:#ffcdd2}.new{background:#fff59d}.representation{background:#c8e6c9}";

/// The index of the bundles under `dir`: those `outcomes` name, in their order (with the
/// classes that were left out or not reproduced), or, without outcomes, every subdirectory
/// holding a `finding.json`.
pub fn index(dir: &Path, outcomes: Option<&[Outcome]>, skipped: &[Skipped]) -> String {
    let bundles: Vec<(Option<&Outcome>, PathBuf)> = match outcomes {
        Some(o) => o
            .iter()
            .filter_map(|o| o.bundle.as_ref().map(|b| (Some(o), dir.join(b))))
            .collect(),
        None => {
            let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.join("finding.json").is_file())
                .collect();
            dirs.sort();
            dirs.into_iter().map(|p| (None, p)).collect()
        }
    };
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>morphtrace findings</title>\
         <style>{STYLE}</style></head><body><h1>morphtrace findings: {} reduced, reproducible \
         finding{}</h1>",
        bundles.len(),
        if bundles.len() == 1 { "" } else { "s" }
    );
    let _ = write!(
        h,
        "<p class=\"meta\">Each bundle holds the reduced program, what each engine answered, a \
         README for the engine's tracker and a standalone reproducer (<code>node \
         reproduce.mjs</code> or <code>sh reproduce.sh</code>: exit 1 while the finding shows).</p>"
    );
    for (o, path) in &bundles {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        h.push_str(&bundle_html(path, &name, *o));
    }
    let failed: Vec<&Outcome> = outcomes
        .unwrap_or_default()
        .iter()
        .filter(|o| o.bundle.is_none())
        .collect();
    if !failed.is_empty() || !skipped.is_empty() {
        h.push_str("<h2>Classes without a bundle</h2><table><tr><th>Family</th><th>Class</th><th>Members</th><th>Why</th></tr>");
        let rows = failed
            .iter()
            .map(|o| {
                let r = &o.representative;
                (r.family, &r.key, r.size, format!("not reduced: {}", o.said))
            })
            .chain(
                skipped
                    .iter()
                    .map(|s| (s.family, &s.key, s.size, s.why.clone())),
            );
        for (family, key, size, why) in rows {
            let _ = write!(
                h,
                "<tr><td>{family:?}</td><td>{}</td><td>{size}</td><td>{}</td></tr>",
                esc(&key.join(" / ")),
                esc(&why)
            );
        }
        h.push_str("</table>");
    }
    h.push_str("</body></html>\n");
    h
}

/// One bundle's section.
fn bundle_html(dir: &Path, name: &str, o: Option<&Outcome>) -> String {
    let mut h = String::new();
    let spec: Json = read(dir, "finding.json")
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Json::Null);
    let title = spec["title"].as_str().unwrap_or(name);
    let _ = write!(h, "<h2 id=\"{}\">{}</h2>", esc(name), esc(title));
    if let Some(o) = o {
        let v = &o.representative.verdict;
        let _ = write!(
            h,
            "<p class=\"meta\"><span class=\"verdict {}\">{}</span> class {} ({} members), from {} \
             session {}</p>",
            v.replace(' ', "-"),
            esc(v),
            esc(&o.representative.key.join(" / ")),
            o.representative.size,
            esc(&o.representative.archive),
            o.representative.session
        );
        let _ = write!(h, "<p class=\"meta\">{}</p>", esc(&o.said));
    }
    let reproducer = ["reproduce.mjs", "reproduce.sh"]
        .into_iter()
        .find(|f| dir.join(f).is_file());
    let _ = write!(
        h,
        "<p class=\"meta\"><a href=\"{0}/README.md\">{0}/README.md</a>{1}</p>",
        esc(name),
        reproducer
            .map(|f| format!(
                " · reproducer <code>{}</code>",
                esc(&format!(
                    "{} {name}/{f}",
                    if f.ends_with(".sh") { "sh" } else { "node" }
                ))
            ))
            .unwrap_or_else(|| " · no standalone reproducer".into())
    );
    if let Some(program) = read(dir, "program.js").or_else(|| read(dir, "program.c")) {
        if spec.get("counts").is_some() {
            h.push_str(&coverage_html(&program, &spec));
        } else {
            let pauses = read(dir, "pauses.json")
                .and_then(|t| serde_json::from_str::<Json>(&t).ok())
                .unwrap_or(Json::Null);
            h.push_str(&debugger_html(&program, &pauses, &spec));
        }
    }
    h
}

/// The program with each engine's pauses beside its lines (step numbers, the diverging step
/// marked), then the variables at the diverging step with those that differ marked.
fn debugger_html(program: &str, pauses: &Json, spec: &Json) -> String {
    let step = spec["step"].as_u64().unwrap_or(u64::MAX);
    // A metamorphic bundle's two runs (parent, follow-up) each name their own step.
    let engines: Vec<(&str, &Vec<Json>, u64)> = pauses
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| {
            Some((
                e["engine"].as_str()?,
                e["pauses"].as_array()?,
                e["step"].as_u64().unwrap_or(step),
            ))
        })
        .collect();
    let mut h = String::from("<table><tr><th>#</th><th>program</th>");
    for (e, _, _) in &engines {
        let _ = write!(h, "<th>{} pauses (step)</th>", esc(e));
    }
    h.push_str("</tr>");
    // A pause past the program's last line (its end) gets its row too.
    let last_pause = engines
        .iter()
        .flat_map(|(_, ps, _)| ps.iter().filter_map(|p| p["line"].as_u64()))
        .max()
        .unwrap_or(0);
    let rows = (program.lines().count() as u64).max(last_pause) as usize;
    let text: Vec<&str> = program.lines().collect();
    for (i, line) in (0..rows).map(|i| (i, text.get(i).copied().unwrap_or(""))) {
        let n = i as u64 + 1;
        let marks: Vec<String> = engines
            .iter()
            .map(|(_, ps, step)| {
                ps.iter()
                    .filter(|p| p["line"].as_u64() == Some(n))
                    .map(|p| {
                        let s = p["step"].as_u64().unwrap_or(0);
                        format!(
                            "<span class=\"mark{}\" title=\"step {}, column {}\">{}</span>",
                            if s == *step { " at" } else { "" },
                            s + 1,
                            p["column"].as_u64().unwrap_or(0),
                            s + 1
                        )
                    })
                    .collect::<String>()
            })
            .collect();
        let hit = engines.iter().any(|(_, ps, step)| {
            ps.iter()
                .any(|p| p["line"].as_u64() == Some(n) && p["step"].as_u64() == Some(*step))
        });
        let _ = write!(
            h,
            "<tr{}><td class=\"n\">{n}</td><td class=\"src\">{}</td>",
            if hit { " class=\"hit\"" } else { "" },
            esc(line)
        );
        for m in marks {
            let _ = write!(h, "<td>{m}</td>");
        }
        h.push_str("</tr>");
    }
    h.push_str("</table>");
    // The variables of the pause each engine answered the diverging step with.
    let at: Vec<(&str, BTreeMap<String, String>)> = engines
        .iter()
        .map(|(e, ps, step)| {
            let vars = ps
                .iter()
                .find(|p| p["step"].as_u64() == Some(*step))
                .and_then(|p| p["variables"].as_array())
                .map(|vs| {
                    let mut m = BTreeMap::new();
                    for v in vs {
                        if let (Some(k), Some(x)) = (v[0].as_str(), v[1].as_str()) {
                            m.entry(k.to_string()).or_insert_with(|| x.to_string());
                        }
                    }
                    m
                })
                .unwrap_or_default();
            (*e, vars)
        })
        .collect();
    let names: std::collections::BTreeSet<&String> =
        at.iter().flat_map(|(_, m)| m.keys()).collect();
    // A bundle reduced by hand may name no step (its README tells the steps).
    if spec["step"].as_u64().is_some() {
        let _ = write!(
            h,
            "<p class=\"meta\">Step {}: {}</p>",
            step + 1,
            esc(spec["detail"].as_str().unwrap_or(""))
        );
    }
    if !names.is_empty() {
        h.push_str("<table><tr><th>variable</th>");
        for (e, _) in &at {
            let _ = write!(h, "<th>{}</th>", esc(e));
        }
        h.push_str("</tr>");
        for n in names {
            let vals: Vec<Option<&String>> = at.iter().map(|(_, m)| m.get(n)).collect();
            let differs = vals.iter().any(|v| *v != vals[0]);
            let _ = write!(
                h,
                "<tr><td{}>{}</td>",
                if differs { " class=\"diff\"" } else { "" },
                esc(n)
            );
            for v in vals {
                let _ = write!(
                    h,
                    "<td class=\"src{}\">{}</td>",
                    if differs { " diff" } else { "" },
                    v.map(|v| esc(v)).unwrap_or_else(|| "(absent)".into())
                );
            }
            h.push_str("</tr>");
        }
        h.push_str("</table>");
    }
    h
}

/// A coverage finding: the program with its line marked and each side's count.
fn coverage_html(program: &str, spec: &Json) -> String {
    let line = spec["line"].as_u64().unwrap_or(0);
    let count = |c: &Json| c.as_u64().map_or("no count".to_string(), |c| c.to_string());
    let sides: Vec<String> = match spec["engines"].as_array() {
        Some(e) => e
            .iter()
            .filter_map(|e| e.as_str().map(str::to_string))
            .collect(),
        None => Vec::new(),
    };
    let mut h = String::from("<table><tr><th>#</th><th>program</th><th>counts</th></tr>");
    for (i, text) in program.lines().enumerate() {
        let n = i as u64 + 1;
        let hit = n == line;
        let counts = if hit {
            let c = &spec["counts"];
            let (a, b) = (count(&c[0]), count(&c[1]));
            let rel = spec["relation"].as_str().unwrap_or("");
            let (x, y) = match (rel, sides.first(), sides.get(1)) {
                ("truth", Some(p), _) => (p.clone(), "runs (counter)".to_string()),
                (_, Some(p), Some(q)) => (p.clone(), q.clone()),
                (_, Some(p), None) => (p.clone(), "variant".to_string()),
                _ => ("a".into(), "b".into()),
            };
            format!(
                "<span class=\"mark at\">{}: {a}</span> <span class=\"mark at\">{}: {b}</span>",
                esc(&x),
                esc(&y)
            )
        } else {
            String::new()
        };
        let _ = write!(
            h,
            "<tr{}><td class=\"n\">{n}</td><td class=\"src\">{}</td><td>{counts}</td></tr>",
            if hit { " class=\"hit\"" } else { "" },
            esc(text)
        );
    }
    h.push_str("</table>");
    h
}

/// The recorder next to this executable (the workspace builds both into one directory), else
/// `morphtrace-record` from PATH.
pub fn recorder() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|me| me.parent().map(|d| d.join("morphtrace-record")))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("morphtrace-record"))
}

#[derive(Debug, thiserror::Error)]
pub enum FindingsError {
    #[error(transparent)]
    Polars(#[from] PolarsError),
    #[error("{what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
}

/// Reduces each of `chosen` with the recorder (`RECORDER reduce`, a child process that dies with
/// this one) into `out/NN-CLASS`, then writes `out/findings.json` and `out/index.html` (with
/// `skipped`, the classes left out); `each` is told every outcome as it comes.
pub fn reduce_all(
    chosen: &[Representative],
    skipped: &[Skipped],
    out: &Path,
    budget: f64,
    recorder: &Path,
    progress: bool,
    mut each: impl FnMut(&Outcome),
) -> Result<Vec<Outcome>, FindingsError> {
    let io = |what: String| move |source| FindingsError::Io { what, source };
    std::fs::create_dir_all(out).map_err(io(format!("creating {}", out.display())))?;
    let bar = indicatif::ProgressBar::new(chosen.len() as u64).with_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    if !progress {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut outcomes: Vec<Outcome> = Vec::new();
    for (i, r) in chosen.iter().enumerate() {
        let slug = r.slug(i + 1);
        bar.set_message(r.key.join(" / "));
        let mut cmd = std::process::Command::new(recorder);
        cmd.arg("reduce")
            .arg(&r.archive)
            .args(["--session", &r.session.to_string()])
            .args(["--budget", &budget.to_string()])
            .arg("--out")
            .arg(out.join(&slug));
        if let Some(c) = r.coverage_class() {
            cmd.args(["--class", &c]);
        }
        if r.divergence > 0 {
            cmd.args(["--divergence", &r.divergence.to_string()]);
        }
        // The reduction runs engines on hostile programs: it must not outlive the analyzer
        // (Ctrl-C, a killed parent). Its own children die with it in turn.
        // SAFETY: prctl with PR_SET_PDEATHSIG takes no pointers and is async-signal-safe.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut cmd, || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let o = cmd.output().map_err(io(format!(
            "running {} (give the recorder with --recorder)",
            recorder.display()
        )))?;
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        let last = |t: &str| {
            t.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .to_string()
        };
        let written = o.status.success() && out.join(&slug).join("README.md").is_file();
        let said = if written {
            stdout.lines().next().unwrap_or("").to_string()
        } else {
            last(&stderr)
        };
        let outcome = Outcome {
            representative: r.clone(),
            bundle: written.then_some(slug),
            said,
        };
        each(&outcome);
        outcomes.push(outcome);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let summary: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| {
            let r = &o.representative;
            serde_json::json!({
                "family": format!("{:?}", r.family).to_lowercase(),
                "class": r.key,
                "members": r.size,
                "verdict": r.verdict,
                "archive": r.archive,
                "session": r.session,
                "bundle": o.bundle,
                "said": o.said,
            })
        })
        .collect();
    let json = serde_json::to_string_pretty(&summary).unwrap_or_default() + "\n";
    std::fs::write(out.join("findings.json"), json).map_err(io("writing findings.json".into()))?;
    std::fs::write(out.join("index.html"), index(out, Some(&outcomes), skipped))
        .map_err(io("writing index.html".into()))?;
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pause past the program's last line (stepping off its end) has a row of its own, marked.
    #[test]
    fn a_pause_past_the_last_line_is_shown() {
        let pauses = serde_json::json!([
            {"engine": "a", "pauses": [{"step": 1, "line": 3, "column": 1, "stack": [], "variables": []}]},
            {"engine": "b", "pauses": [{"step": 1, "line": 1, "column": 1, "stack": [], "variables": []}]},
        ]);
        let h = debugger_html("f();\n", &pauses, &serde_json::json!({"step": 1}));
        assert!(h.contains("<td class=\"n\">3</td>"), "{h}");
        assert!(
            h.contains("<tr class=\"hit\"><td class=\"n\">3</td>"),
            "{h}"
        );
        assert!(h.contains("f();"), "{h}");
    }
}
