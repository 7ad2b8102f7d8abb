//! Triage that persists (issue 23): `triage.toml`, reviewed like code, says what each class of
//! finding is — an engine bug, by design (definitional), a representation difference, or the
//! harness's own — with a note and a link. The analyzer shows every class's verdict and which
//! classes nobody has judged yet.
//!
//! A rule names the family it judges (divergence, warning, inconsistency), the class-key fields
//! it requires (`*` matches any run of characters, `|` separates alternatives), and optionally the engines and a regular
//! expression over the member's detail or message. A class takes a rule's verdict when every
//! member matches that rule (the first matching rule per member); otherwise it is `new`, or
//! `mixed` when only some members are triaged.

use polars::prelude::*;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum TriageError {
    #[error("{path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{path}: rule {index} ({note:?}): {message}")]
    Rule {
        path: PathBuf,
        index: usize,
        note: String,
        message: String,
    },
}

/// What a class of findings is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The engine or profiler is wrong: report it.
    EngineBug,
    /// Both answers are allowed (definitional, documented, or a design choice).
    ByDesign,
    /// The engines agree on the behaviour and differ in how they present it.
    Representation,
    /// morphtrace's own false positive: a bug of ours.
    Harness,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::EngineBug => "engine bug",
            Verdict::ByDesign => "by design",
            Verdict::Representation => "representation",
            Verdict::Harness => "harness",
        }
    }

    /// Worth a reduced reproducer (`findings`): not ours, not allowed behaviour.
    pub fn is_finding(self) -> bool {
        matches!(self, Verdict::EngineBug | Verdict::Representation)
    }
}

/// The finding families a rule can judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    Divergence,
    Warning,
    Inconsistency,
}

impl Family {
    /// The member frame's columns that carry the detail and the engines.
    fn detail_column(self) -> &'static str {
        match self {
            Family::Divergence => "detail",
            Family::Warning => "message",
            Family::Inconsistency => "detail",
        }
    }

    fn engine_columns(self) -> &'static [&'static str] {
        match self {
            Family::Divergence => &["engine_a", "engine_b"],
            Family::Warning => &["engine"],
            Family::Inconsistency => &["profiler"],
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleText {
    family: Family,
    #[serde(default)]
    key: BTreeMap<String, String>,
    #[serde(default)]
    engines: Vec<String>,
    detail: Option<String>,
    verdict: Verdict,
    note: String,
    link: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileText {
    #[serde(default, rename = "class")]
    rules: Vec<RuleText>,
}

/// One rule of `triage.toml`.
#[derive(Debug, Clone)]
pub struct Rule {
    pub family: Family,
    pub key: BTreeMap<String, String>,
    pub engines: Vec<String>,
    pub detail: Option<regex::Regex>,
    pub verdict: Verdict,
    pub note: String,
    pub link: Option<String>,
}

/// The rules, in file order (the first that matches a member judges it).
#[derive(Debug, Clone, Default)]
pub struct Triage {
    pub rules: Vec<Rule>,
    pub path: Option<PathBuf>,
}

/// `|` separates alternatives; `*` matches any run of characters; everything else literally,
/// case-sensitively.
fn glob(pattern: &str, text: &str) -> bool {
    pattern.split('|').any(|p| glob_one(p, text))
}

fn glob_one(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for p in &parts[1..parts.len() - 1] {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    true
}

impl Triage {
    pub fn parse(text: &str, path: &Path) -> Result<Triage, TriageError> {
        let f: FileText = toml::from_str(text).map_err(|e| TriageError::Parse {
            path: path.into(),
            message: e.to_string(),
        })?;
        let mut rules = Vec::new();
        for (index, r) in f.rules.into_iter().enumerate() {
            let fail = |message: String| TriageError::Rule {
                path: path.into(),
                index,
                note: r.note.clone(),
                message,
            };
            let allowed: &[&str] = match r.family {
                Family::Divergence => &crate::dbdb::classes::DIVERGENCE_KEYS,
                Family::Warning => &crate::dbdb::classes::WARNING_KEYS,
                Family::Inconsistency => &crate::cod::KEYS,
            };
            if let Some(k) = r.key.keys().find(|k| !allowed.contains(&k.as_str())) {
                return Err(fail(format!(
                    "unknown key field {k:?} (this family's: {})",
                    allowed.join(", ")
                )));
            }
            let detail = match &r.detail {
                Some(d) => Some(regex::Regex::new(d).map_err(|e| fail(e.to_string()))?),
                None => None,
            };
            rules.push(Rule {
                family: r.family,
                key: r.key,
                engines: r.engines,
                detail,
                verdict: r.verdict,
                note: r.note,
                link: r.link,
            });
        }
        Ok(Triage {
            rules,
            path: Some(path.into()),
        })
    }

    pub fn load(path: &Path) -> Result<Triage, TriageError> {
        let text = std::fs::read_to_string(path).map_err(|source| TriageError::Read {
            path: path.into(),
            source,
        })?;
        Triage::parse(&text, path)
    }

    /// The first rule judging each member (row) of `members`, a frame of `family`.
    pub fn judge(&self, members: &DataFrame, family: Family) -> PolarsResult<Vec<Option<usize>>> {
        let n = members.height();
        let text = |name: &str| -> PolarsResult<Vec<String>> {
            if members
                .get_column_names()
                .iter()
                .any(|c| c.as_str() == name)
            {
                crate::dbdb::classes::strings(members, name)
            } else {
                Ok(vec![String::new(); n])
            }
        };
        let mut keys: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for r in self.rules.iter().filter(|r| r.family == family) {
            for k in r.key.keys() {
                if !keys.contains_key(k.as_str()) {
                    keys.insert(k.as_str(), text(k)?);
                }
            }
        }
        let detail = text(family.detail_column())?;
        let engines: Vec<Vec<String>> = family
            .engine_columns()
            .iter()
            .map(|c| text(c))
            .collect::<PolarsResult<_>>()?;
        // Three engines or more: a divergence with a suspect is that engine's behaviour, so a
        // rule's engines are matched against the suspect alone (the first two engines, the
        // divergence's sides a and b, may be the two that agree).
        let suspect = text("suspect")?;
        let member_engines = |row: usize| -> Vec<&str> {
            match suspect[row].as_str() {
                "" | "-" => engines.iter().map(|col| col[row].as_str()).collect(),
                s => vec![s],
            }
        };
        Ok((0..n)
            .map(|row| {
                self.rules.iter().position(|r| {
                    r.family == family
                        && r.key.iter().all(|(k, p)| glob(p, &keys[k.as_str()][row]))
                        && (r.engines.is_empty()
                            || member_engines(row)
                                .iter()
                                .any(|m| r.engines.iter().any(|e| engine_matches(e, m))))
                        && r.detail.as_ref().is_none_or(|d| d.is_match(&detail[row]))
                })
            })
            .collect())
    }

    /// `classes` (one row per class, as `dbdb::classes::classes` makes them from `members` by
    /// `keys`) with `verdict`, `note`, `link` and `untriaged` (members no rule judges) columns.
    pub fn annotate(
        &self,
        classes: &DataFrame,
        members: &DataFrame,
        keys: &[&str],
        family: Family,
    ) -> PolarsResult<DataFrame> {
        let judged = self.judge(members, family)?;
        let groups = crate::dbdb::classes::groups(members, keys)?;
        let by_key: BTreeMap<Vec<String>, Vec<usize>> = groups.into_iter().collect();
        let class_keys: Vec<Vec<String>> = {
            let cols: Vec<Vec<String>> = keys
                .iter()
                .map(|k| crate::dbdb::classes::strings(classes, k))
                .collect::<PolarsResult<_>>()?;
            (0..classes.height())
                .map(|i| cols.iter().map(|c| c[i].clone()).collect())
                .collect()
        };
        let mut verdict = Vec::new();
        let mut note = Vec::new();
        let mut link = Vec::new();
        let mut untriaged: Vec<u32> = Vec::new();
        for k in &class_keys {
            let rows = by_key.get(k).cloned().unwrap_or_default();
            let rules: std::collections::BTreeSet<Option<usize>> =
                rows.iter().map(|&r| judged[r]).collect();
            untriaged.push(rows.iter().filter(|&&r| judged[r].is_none()).count() as u32);
            let (v, n, l) = match rules.iter().collect::<Vec<_>>().as_slice() {
                [Some(i)] => {
                    let r = &self.rules[*i];
                    (
                        r.verdict.name().to_string(),
                        r.note.clone(),
                        r.link.clone().unwrap_or_default(),
                    )
                }
                [None] | [] => ("new".into(), String::new(), String::new()),
                several => {
                    let triaged = rows.iter().filter(|&&r| judged[r].is_some()).count();
                    let names: Vec<&str> = several
                        .iter()
                        .filter_map(|i| i.map(|i| self.rules[i].verdict.name()))
                        .collect();
                    (
                        "mixed".into(),
                        format!(
                            "{triaged} of {} members triaged ({})",
                            rows.len(),
                            names.join(", ")
                        ),
                        String::new(),
                    )
                }
            };
            verdict.push(v);
            note.push(n);
            link.push(l);
        }
        let mut out = classes.clone();
        out.with_column(Column::new("verdict".into(), verdict))?;
        out.with_column(Column::new("note".into(), note))?;
        out.with_column(Column::new("link".into(), link))?;
        out.with_column(Column::new("untriaged".into(), untriaged))?;
        Ok(out)
    }
}

/// `chromium` matches `chromium@156.0…`; `node@20` matches `node@20.20.2`; a full label
/// matches itself.
fn engine_matches(pattern: &str, label: &str) -> bool {
    label == pattern
        || label
            .strip_prefix(pattern)
            .is_some_and(|rest| rest.starts_with('@') || rest.starts_with('.'))
        || glob(pattern, label)
}

/// The triage file to use: the one given, else `triage.toml` in the current directory or the
/// nearest parent that has one (a repository's), else none.
pub fn find(given: Option<&Path>) -> Result<Triage, TriageError> {
    if let Some(p) = given {
        return Triage::load(p);
    }
    let mut dir = std::env::current_dir().ok();
    while let Some(d) = dir {
        let p = d.join("triage.toml");
        if p.is_file() {
            return Triage::load(&p);
        }
        dir = d.parent().map(Path::to_path_buf);
    }
    Ok(Triage::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_runs_and_literals() {
        assert!(glob("*", "anything"));
        assert!(glob("Variable*", "VariableDeclaration"));
        assert!(glob("*Statement", "IfStatement"));
        assert!(glob("a*c*e", "abcde"));
        assert!(!glob("a*c*e", "abde"));
        assert!(!glob("If*", "ExpressionStatement"));
        assert!(glob("exact", "exact"));
        assert!(glob("IfStatement|Return*", "ReturnStatement"));
        assert!(!glob("IfStatement|Return*", "BlockStatement"));
        assert!(!glob("exact", "exactly"));
        assert!(engine_matches("node@20", "node@20.20.2"));
        assert!(engine_matches("chromium", "chromium@156.0.8078.79"));
        assert!(!engine_matches("node@2", "node@20.20.2"));
    }

    fn members() -> DataFrame {
        df!(
            "kind" => ["variables", "variables", "pause-location", "pause-location"],
            "last_action" => ["stepOver", "stepOver", "resume", "stepInto"],
            "ast_node" => ["VariableDeclaration", "VariableDeclaration", "IfStatement", "IfStatement"],
            "detail" => ["x missing on chromium", "x missing on chromium", "3 vs 4", "closing brace"],
            "engine_a" => ["chromium@156", "chromium@156", "chromium@156", "chromium@156"],
            "engine_b" => ["firefox@153", "firefox@153", "firefox@153", "firefox@153"],
        )
        .unwrap()
    }

    const FILE: &str = r#"
[[class]]
family = "divergence"
key = { kind = "variables", ast_node = "Variable*" }
engines = ["chromium"]
detail = "missing"
verdict = "by-design"
note = "V8 leaves an unused local out of its scopes"
link = "https://example.org/v8"

[[class]]
family = "divergence"
key = { kind = "pause-location" }
detail = "brace"
verdict = "representation"
note = "closing braces"
"#;

    #[test]
    fn a_suspects_divergence_is_judged_by_the_suspects_rules() {
        // Chromium, Firefox and Bun: sides a and b are always the first two engines.
        let m = df!(
            "kind" => ["breakpoint-location", "breakpoint-location", "breakpoint-location"],
            "last_action" => ["setBreakpoint", "setBreakpoint", "setBreakpoint"],
            "ast_node" => ["Program", "Program", "Program"],
            "detail" => ["breakpoint at [3:1] vs [9:1]", "breakpoint at [3:1] vs [9:1]", "breakpoint at [3:1] vs [9:1]"],
            "engine_a" => ["chromium@156", "chromium@156", "chromium@156"],
            "engine_b" => ["firefox@153", "firefox@153", "firefox@153"],
            "suspect" => [Some("bun@1.4.5"), Some("firefox@153"), None],
        )
        .unwrap();
        let rules = r#"
[[class]]
family = "divergence"
key = { kind = "breakpoint-location" }
engines = ["firefox"]
verdict = "by-design"
note = "SpiderMonkey"

[[class]]
family = "divergence"
key = { kind = "breakpoint-location" }
engines = ["bun"]
verdict = "engine-bug"
note = "JavaScriptCore"
"#;
        let t = Triage::parse(rules, Path::new("t.toml")).unwrap();
        // Bun stood alone: Firefox's rule does not judge it although Firefox is side b. No
        // suspect: the sides' engines are matched.
        assert_eq!(
            t.judge(&m, Family::Divergence).unwrap(),
            [Some(1), Some(0), Some(0)]
        );
    }

    #[test]
    fn classes_take_the_verdict_every_member_shares() {
        let t = Triage::parse(FILE, Path::new("t.toml")).unwrap();
        let m = members();
        assert_eq!(
            t.judge(&m, Family::Divergence).unwrap(),
            [Some(0), Some(0), None, Some(1)]
        );
        // Warnings are another family: no divergence rule judges them.
        assert_eq!(
            t.judge(&m, Family::Warning).unwrap(),
            [None, None, None, None]
        );
        let keys = crate::dbdb::classes::DIVERGENCE_KEYS;
        let c = crate::dbdb::classes::classes(&m, &keys).unwrap();
        let a = t.annotate(&c, &m, &keys, Family::Divergence).unwrap();
        let v = crate::dbdb::classes::strings(&a, "verdict").unwrap();
        let kinds = crate::dbdb::classes::strings(&a, "kind").unwrap();
        let last = crate::dbdb::classes::strings(&a, "last_action").unwrap();
        let got: Vec<(String, String, String)> = kinds
            .into_iter()
            .zip(last)
            .zip(v)
            .map(|((k, l), v)| (k, l, v))
            .collect();
        assert!(got.contains(&("variables".into(), "stepOver".into(), "by design".into())));
        assert!(got.contains(&("pause-location".into(), "resume".into(), "new".into())));
        assert!(got.contains(&(
            "pause-location".into(),
            "stepInto".into(),
            "representation".into()
        )));
        // A rule limited to other engines judges nothing.
        let other = FILE.replace("[\"chromium\"]", "[\"node\"]");
        let t = Triage::parse(&other, Path::new("t.toml")).unwrap();
        assert_eq!(t.judge(&m, Family::Divergence).unwrap()[0], None);
    }

    #[test]
    fn mixed_classes_say_how_many_members_are_triaged() {
        let t = Triage::parse(
            r#"
[[class]]
family = "divergence"
key = { kind = "pause-location" }
detail = "brace"
verdict = "engine-bug"
note = "n"
"#,
            Path::new("t.toml"),
        )
        .unwrap();
        let m = members();
        let keys = ["kind"];
        let c = crate::dbdb::classes::classes(&m, &keys).unwrap();
        let a = t.annotate(&c, &m, &keys, Family::Divergence).unwrap();
        let v = crate::dbdb::classes::strings(&a, "verdict").unwrap();
        let n = crate::dbdb::classes::strings(&a, "note").unwrap();
        let i = v.iter().position(|x| x == "mixed").unwrap();
        assert_eq!(n[i], "1 of 2 members triaged (engine bug)");
        assert_eq!(crate::dbdb::classes::u32s(&a, "untriaged").unwrap()[i], 1);
    }

    #[test]
    fn bad_rules_are_refused_with_their_place() {
        let e = Triage::parse(
            "[[class]]\nfamily = \"divergence\"\nkey = { knd = \"x\" }\nverdict = \"harness\"\nnote = \"typo\"\n",
            Path::new("t.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("rule 0") && e.contains("knd"), "{e}");
        let e = Triage::parse(
            "[[class]]\nfamily = \"divergence\"\nverdict = \"maybe\"\nnote = \"n\"\n",
            Path::new("t.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("t.toml"), "{e}");
        let e = Triage::parse(
            "[[class]]\nfamily = \"warning\"\ndetail = \"(\"\nverdict = \"harness\"\nnote = \"n\"\n",
            Path::new("t.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("rule 0"), "{e}");
    }
}
