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
    /// The member frame's column that carries the detail.
    fn detail_column(self) -> &'static str {
        match self {
            Family::Divergence => "detail",
            Family::Warning => "message",
            Family::Inconsistency => "detail",
        }
    }

    fn keys(self) -> &'static [&'static str] {
        match self {
            Family::Divergence => &crate::dbdb::classes::DIVERGENCE_KEYS,
            Family::Warning => &crate::dbdb::classes::WARNING_KEYS,
            Family::Inconsistency => &crate::cod::KEYS,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Family::Divergence => "divergence",
            Family::Warning => "warning",
            Family::Inconsistency => "inconsistency",
        }
    }
}

/// One member of a class as a rule sees it: its class key, its detail (a divergence's detail, a
/// warning's message), its engines and, for a variables divergence, how the program binds the
/// name. Rules' examples and near misses are written in the same shape.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Member {
    #[serde(default)]
    pub key: BTreeMap<String, String>,
    #[serde(default)]
    pub detail: String,
    /// A divergence's two sides in order (the detail's first and second side), or with three
    /// engines or more every engine; a warning's engine; an inconsistency's profiler.
    #[serde(default)]
    pub engines: Vec<String>,
    /// Three engines or more: the engine that stood alone.
    #[serde(default)]
    pub suspect: Option<String>,
    /// How the program binds the variable a variables divergence names (`unreferenced var`).
    #[serde(default)]
    pub binding: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleText {
    family: Family,
    #[serde(default)]
    key: BTreeMap<String, String>,
    #[serde(default)]
    engines: Vec<String>,
    #[serde(default)]
    against: Vec<String>,
    binding: Option<String>,
    detail: Option<String>,
    verdict: Verdict,
    note: String,
    link: Option<String>,
    #[serde(default)]
    evidence: Vec<String>,
    #[serde(default)]
    examples: Vec<Member>,
    #[serde(default)]
    near_misses: Vec<Member>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileText {
    #[serde(default, rename = "class")]
    rules: Vec<RuleText>,
}

/// One rule of `triage.toml`: which engine does what, against which, in which class.
#[derive(Debug, Clone)]
pub struct Rule {
    pub family: Family,
    pub key: BTreeMap<String, String>,
    /// The engine that behaves so: with three engines or more the suspect, with two either
    /// side (the other side then must match `against`). Empty: any engine.
    pub engines: Vec<String>,
    /// The engines it behaves so against (divergences): every other engine must match one.
    /// Empty: any.
    pub against: Vec<String>,
    /// Variables divergences: how the program binds the name (a glob over `Member::binding`).
    pub binding: Option<String>,
    pub detail: Option<regex::Regex>,
    pub verdict: Verdict,
    pub note: String,
    pub link: Option<String>,
    /// Links (specification, engine source, tracker) and reduced bundles (paths relative to
    /// the triage file) that show the behaviour; `link` counts as one.
    pub evidence: Vec<String>,
    /// Members the rule must judge and near misses it must not: checked when the file is read.
    pub examples: Vec<Member>,
    pub near_misses: Vec<Member>,
}

/// The sides' names in a divergence's detail, as a rule with engines reads them: the side of
/// the engine that behaves so is `this side`, the other one `the other side`.
fn orient(detail: &str, behaving_is_first: bool) -> String {
    let (first, second) = if behaving_is_first {
        ("this side", "other side")
    } else {
        ("other side", "this side")
    };
    detail
        .replace("first side", "\u{0}")
        .replace("second side", second)
        .replace('\u{0}', first)
}

impl Rule {
    /// Whether this rule judges `m` (a member of the rule's family).
    pub fn judges(&self, m: &Member) -> bool {
        let key_ok = self
            .key
            .iter()
            .all(|(k, p)| glob(p, m.key.get(k).map(String::as_str).unwrap_or("-")));
        let binding_ok = self
            .binding
            .as_ref()
            .is_none_or(|b| m.binding.as_deref().is_some_and(|x| glob(b, x)));
        if !key_ok || !binding_ok {
            return false;
        }
        let detail_ok = |d: &str| self.detail.as_ref().is_none_or(|r| r.is_match(d));
        if self.engines.is_empty() && self.against.is_empty() {
            return detail_ok(&m.detail);
        }
        let names = |patterns: &[String], label: &str| {
            patterns.is_empty() || patterns.iter().any(|p| engine_matches(p, label))
        };
        self.orientations(m)
            .into_iter()
            .any(|(behaving, others, first)| {
                names(&self.engines, behaving)
                    && others.iter().all(|o| names(&self.against, o))
                    && detail_ok(&if self.family == Family::Divergence {
                        orient(&m.detail, first)
                    } else {
                        m.detail.clone()
                    })
            })
    }

    /// Who may be the engine that behaves so, the others, and whether it is the detail's first
    /// side. A divergence among three engines or more is one engine's only when it stood alone
    /// (it is then the detail's second side); without a suspect no engine rule judges it.
    fn orientations<'m>(&self, m: &'m Member) -> Vec<(&'m str, Vec<&'m str>, bool)> {
        match self.family {
            Family::Divergence => match (&m.suspect, m.engines.as_slice()) {
                (Some(s), all) => {
                    let others = all.iter().map(String::as_str).filter(|e| e != s).collect();
                    vec![(s.as_str(), others, false)]
                }
                (None, [a, b]) => vec![
                    (a.as_str(), vec![b.as_str()], true),
                    (b.as_str(), vec![a.as_str()], false),
                ],
                (None, _) => Vec::new(),
            },
            _ => m
                .engines
                .iter()
                .map(|e| (e.as_str(), Vec::new(), true))
                .collect(),
        }
    }

    /// Excuses a difference: by design or a representation. Such a rule must carry evidence,
    /// an example and a near miss.
    pub fn excuses(&self) -> bool {
        matches!(self.verdict, Verdict::ByDesign | Verdict::Representation)
    }
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
            let allowed = r.family.keys();
            let fields = r.key.keys().chain(
                r.examples
                    .iter()
                    .chain(&r.near_misses)
                    .flat_map(|m| m.key.keys()),
            );
            if let Some(k) = fields.clone().find(|k| !allowed.contains(&k.as_str())) {
                return Err(fail(format!(
                    "unknown key field {k:?} (this family's: {})",
                    allowed.join(", ")
                )));
            }
            if r.family != Family::Divergence && (!r.against.is_empty() || r.binding.is_some()) {
                return Err(fail(
                    "`against` and `binding` are for divergences (a warning or inconsistency has one engine)".into(),
                ));
            }
            let detail = match &r.detail {
                Some(d) => Some(regex::Regex::new(d).map_err(|e| fail(e.to_string()))?),
                None => None,
            };
            let mut evidence = r.evidence.clone();
            evidence.extend(r.link.clone());
            let rule = Rule {
                family: r.family,
                key: r.key.clone(),
                engines: r.engines.clone(),
                against: r.against.clone(),
                binding: r.binding.clone(),
                detail,
                verdict: r.verdict,
                note: r.note.clone(),
                link: r.link.clone(),
                evidence,
                examples: r.examples.clone(),
                near_misses: r.near_misses.clone(),
            };
            if rule.excuses() {
                // A rule that excuses a difference can silence a fault: it must say why (the
                // evidence) and how far it reaches (what it judges and what it must not).
                if rule.evidence.is_empty() {
                    return Err(fail(format!(
                        "a {} rule needs evidence: a link (specification, engine source, tracker) or a reduced bundle",
                        rule.verdict.name()
                    )));
                }
                if rule.examples.is_empty() || rule.near_misses.is_empty() {
                    return Err(fail(format!(
                        "a {} rule needs an example it judges and a near miss it must not (`examples`, `near_misses`)",
                        rule.verdict.name()
                    )));
                }
            }
            if let Some(i) = rule.examples.iter().position(|m| !rule.judges(m)) {
                return Err(fail(format!(
                    "example {i} is not judged by the rule: {:?}",
                    rule.examples[i]
                )));
            }
            if let Some(i) = rule.near_misses.iter().position(|m| rule.judges(m)) {
                return Err(fail(format!(
                    "near miss {i} is judged by the rule (too broad): {:?}",
                    rule.near_misses[i]
                )));
            }
            rules.push(rule);
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

    /// The members (rows) of `members`, a frame of `family`, as rules see them.
    pub fn members(members: &DataFrame, family: Family) -> PolarsResult<Vec<Member>> {
        let n = members.height();
        let text = |name: &str| -> PolarsResult<Vec<String>> {
            if members
                .get_column_names()
                .iter()
                .any(|c| c.as_str() == name)
            {
                crate::dbdb::classes::strings(members, name)
            } else {
                Ok(vec!["-".to_string(); n])
            }
        };
        let keys: Vec<(&str, Vec<String>)> = family
            .keys()
            .iter()
            .map(|k| Ok((*k, text(k)?)))
            .collect::<PolarsResult<_>>()?;
        let detail = text(family.detail_column())?;
        let given = |v: &str| (v != "-" && !v.is_empty()).then(|| v.to_string());
        let (a, b, suspect, agreement, binding) = match family {
            Family::Divergence => (
                text("engine_a")?,
                text("engine_b")?,
                text("suspect")?,
                text("agreement")?,
                text("binding")?,
            ),
            Family::Warning => {
                let e = text("engine")?;
                (e, Vec::new(), Vec::new(), Vec::new(), Vec::new())
            }
            Family::Inconsistency => {
                let e = text("profiler")?;
                (e, Vec::new(), Vec::new(), Vec::new(), Vec::new())
            }
        };
        Ok((0..n)
            .map(|row| {
                let engines = match family {
                    Family::Divergence => match given(&agreement[row]) {
                        // `a+b vs c`: every engine of the session.
                        Some(g) => g
                            .split(" vs ")
                            .flat_map(|x| x.split('+'))
                            .map(str::to_string)
                            .collect(),
                        None => vec![a[row].clone(), b[row].clone()],
                    },
                    _ => vec![a[row].clone()],
                };
                Member {
                    key: keys
                        .iter()
                        .map(|(k, v)| (k.to_string(), v[row].clone()))
                        .collect(),
                    detail: detail[row].clone(),
                    engines,
                    suspect: suspect.get(row).and_then(|s| given(s)),
                    binding: binding.get(row).and_then(|s| given(s)),
                }
            })
            .collect())
    }

    /// The first rule judging each member (row) of `members`, a frame of `family`.
    pub fn judge(&self, members: &DataFrame, family: Family) -> PolarsResult<Vec<Option<usize>>> {
        let rows = Triage::members(members, family)?;
        Ok(rows.iter().map(|m| self.first_judging(m, family)).collect())
    }

    /// The first rule of `family` that judges `m`.
    pub fn first_judging(&self, m: &Member, family: Family) -> Option<usize> {
        self.rules
            .iter()
            .position(|r| r.family == family && r.judges(m))
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

/// The shape of a member, to tell how many different things a rule judges (its class key aside,
/// which the rule names): the engines without versions (`X alone` for a suspect), the binding,
/// and the detail with numbers as `N` and quoted strings as `S`.
pub fn shape(m: &Member) -> String {
    let mut detail = String::new();
    let mut chars = m.detail.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                chars.next();
            }
            detail.push('N');
        } else if c == '"' {
            for d in chars.by_ref() {
                if d == '"' {
                    break;
                }
            }
            detail.push('S');
        } else {
            detail.push(c);
        }
    }
    let family = |e: &str| e.split('@').next().unwrap_or(e).to_string();
    let engines: Vec<String> = match &m.suspect {
        Some(s) => std::iter::once(format!("{} alone", family(s))).collect(),
        None => m.engines.iter().map(|e| family(e)).collect(),
    };
    format!(
        "{} | {}{}",
        engines.join(" vs "),
        m.binding
            .as_ref()
            .map(|b| format!("{b} | "))
            .unwrap_or_default(),
        detail
    )
}

/// What each rule judged in some archives (`triage --check`): per rule, the members it is the
/// first to judge, in how many distinct shapes (a rule that judges many shapes may reach
/// further than its evidence), the most common shape, and its evidence and examples.
pub fn check(triage: &Triage, families: &[(Family, &DataFrame)]) -> PolarsResult<DataFrame> {
    let mut judged: Vec<BTreeMap<String, u32>> = vec![BTreeMap::new(); triage.rules.len()];
    let mut unjudged: BTreeMap<&str, u32> = BTreeMap::new();
    for (family, frame) in families {
        for m in Triage::members(frame, *family)? {
            match triage.first_judging(&m, *family) {
                Some(i) => *judged[i].entry(shape(&m)).or_default() += 1,
                None => *unjudged.entry(family.name()).or_default() += 1,
            }
        }
    }
    let n = triage.rules.len();
    let mut rule = Vec::with_capacity(n);
    let mut family = Vec::with_capacity(n);
    let mut verdict = Vec::with_capacity(n);
    let mut engines = Vec::with_capacity(n);
    let mut members = Vec::with_capacity(n);
    let mut shapes = Vec::with_capacity(n);
    let mut commonest = Vec::with_capacity(n);
    let mut evidence = Vec::with_capacity(n);
    let mut tests = Vec::with_capacity(n);
    let mut note = Vec::with_capacity(n);
    for (i, r) in triage.rules.iter().enumerate() {
        rule.push(i.to_string());
        family.push(r.family.name().to_string());
        verdict.push(r.verdict.name().to_string());
        engines.push(match (r.engines.is_empty(), r.against.is_empty()) {
            (true, true) => "any".to_string(),
            (false, true) => r.engines.join(", "),
            (true, false) => format!("any against {}", r.against.join(", ")),
            (false, false) => format!("{} against {}", r.engines.join(", "), r.against.join(", ")),
        });
        members.push(judged[i].values().sum::<u32>());
        shapes.push(judged[i].len() as u32);
        commonest.push(
            judged[i]
                .iter()
                .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
                .map(|(s, k)| format!("{k}x {s}"))
                .unwrap_or_default(),
        );
        evidence.push(r.evidence.join(" "));
        tests.push(format!(
            "{} judged, {} not",
            r.examples.len(),
            r.near_misses.len()
        ));
        note.push(r.note.chars().take(80).collect::<String>());
    }
    // The members no rule judges, so the listing accounts for every member.
    for (f, k) in unjudged {
        rule.push("-".to_string());
        family.push(f.to_string());
        verdict.push("new".to_string());
        engines.push(String::new());
        members.push(k);
        shapes.push(0);
        commonest.push(String::new());
        evidence.push(String::new());
        tests.push(String::new());
        note.push("judged by no rule".to_string());
    }
    df!(
        "rule" => rule,
        "family" => family,
        "verdict" => verdict,
        "engines" => engines,
        "members" => members,
        "shapes" => shapes,
        "commonest_shape" => commonest,
        "evidence" => evidence,
        "examples" => tests,
        "note" => note,
    )
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
            "detail" => ["t only on the second side", "t only on the second side", "3 vs 4", "closing brace"],
            "engine_a" => ["chromium@156", "chromium@156", "chromium@156", "chromium@156"],
            "engine_b" => ["firefox@153", "firefox@153", "firefox@153", "firefox@153"],
            "binding" => [Some("unreferenced var"), Some("let"), None, None],
        )
        .unwrap()
    }

    /// A by-design rule as the repository writes them: the engine that behaves so, against
    /// which, how narrow, its evidence, an example and near misses.
    const FILE: &str = r#"
[[class]]
family = "divergence"
key = { kind = "variables", ast_node = "Variable*" }
engines = ["chromium"]
against = ["firefox"]
binding = "unreferenced var"
detail = '^\w+ only on the other side$'
verdict = "by-design"
note = "V8 leaves an unreferenced local out of its scopes"
link = "https://example.org/v8"
examples = [{ key = { kind = "variables", last_action = "stepOver", ast_node = "VariableDeclaration" }, detail = "t only on the second side", engines = ["chromium@156", "firefox@153"], binding = "unreferenced var" }]
near_misses = [
  { key = { kind = "variables", last_action = "stepOver", ast_node = "VariableDeclaration" }, detail = "t only on the second side", engines = ["chromium@156", "firefox@153"], binding = "let" },
  { key = { kind = "variables", last_action = "stepOver", ast_node = "VariableDeclaration" }, detail = "t only on the first side", engines = ["chromium@156", "firefox@153"], binding = "unreferenced var" },
]

[[class]]
family = "divergence"
key = { kind = "pause-location" }
detail = "brace"
verdict = "representation"
note = "closing braces"
evidence = ["traces/findings/some-bundle"]
examples = [{ key = { kind = "pause-location" }, detail = "closing brace" }]
near_misses = [{ key = { kind = "pause-location" }, detail = "3 vs 4" }]
"#;

    fn member(detail: &str, engines: &[&str], suspect: Option<&str>) -> Member {
        Member {
            key: [("kind".to_string(), "variables".to_string())].into(),
            detail: detail.into(),
            engines: engines.iter().map(|e| e.to_string()).collect(),
            suspect: suspect.map(str::to_string),
            binding: Some("unreferenced var".into()),
        }
    }

    fn rule(extra: &str) -> Rule {
        let text = format!(
            "[[class]]\nfamily = \"divergence\"\nkey = {{ kind = \"variables\" }}\n{extra}\nverdict = \"engine-bug\"\nnote = \"n\"\n"
        );
        Triage::parse(&text, Path::new("t.toml"))
            .unwrap()
            .rules
            .remove(0)
    }

    #[test]
    fn a_rule_names_the_engine_that_behaves_so_and_against_which() {
        let r = rule("engines = [\"chromium\", \"node\"]\nagainst = [\"firefox\"]\ndetail = '^t only on the other side$'");
        // Chromium lacks `t`, whichever side it is on.
        assert!(r.judges(&member(
            "t only on the second side",
            &["chromium@156", "firefox@153"],
            None
        )));
        assert!(r.judges(&member(
            "t only on the first side",
            &["firefox@153", "node@22.1.0"],
            None
        )));
        // Firefox lacks it: another engine's behaviour.
        assert!(!r.judges(&member(
            "t only on the first side",
            &["chromium@156", "firefox@153"],
            None
        )));
        // V8 against V8: not what the rule says.
        assert!(!r.judges(&member(
            "t only on the second side",
            &["chromium@156", "node@22.1.0"],
            None
        )));
        // Three engines: the suspect's behaviour (it is the detail's second side) against all
        // the others, which must all match `against`.
        let three = ["firefox@153", "bun@1.4.5", "chromium@156"];
        let r3 = rule("engines = [\"chromium\"]\nagainst = [\"firefox\", \"bun\"]\ndetail = '^t only on the other side$'");
        assert!(r3.judges(&member(
            "t only on the first side",
            &three,
            Some("chromium@156")
        )));
        assert!(!r3.judges(&member(
            "t only on the first side",
            &three,
            Some("bun@1.4.5")
        )));
        // No engine stood alone: no engine's rule can judge it.
        assert!(!r3.judges(&member("t only on the first side", &three, None)));
        // A rule without engines reads the detail as written.
        let any = rule("detail = '^t only on the first side$'");
        assert!(any.judges(&member("t only on the first side", &three, None)));
    }

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
            "agreement" => [Some("chromium@156+firefox@153 vs bun@1.4.5"), Some("chromium@156+bun@1.4.5 vs firefox@153"), None],
        )
        .unwrap();
        let rules = r#"
[[class]]
family = "divergence"
key = { kind = "breakpoint-location" }
engines = ["firefox"]
verdict = "engine-bug"
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
        // suspect (two engines): the sides' engines are matched.
        assert_eq!(
            t.judge(&m, Family::Divergence).unwrap(),
            [Some(1), Some(0), Some(0)]
        );
    }

    #[test]
    fn classes_take_the_verdict_every_member_shares() {
        let t = Triage::parse(FILE, Path::new("t.toml")).unwrap();
        let m = members();
        // The unreferenced `var` is judged; the `let` missing in the same way is not.
        assert_eq!(
            t.judge(&m, Family::Divergence).unwrap(),
            [Some(0), None, None, Some(1)]
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
        assert!(got.contains(&("variables".into(), "stepOver".into(), "mixed".into())));
        assert!(got.contains(&("pause-location".into(), "resume".into(), "new".into())));
        assert!(got.contains(&(
            "pause-location".into(),
            "stepInto".into(),
            "representation".into()
        )));
    }

    #[test]
    fn a_rule_that_excuses_must_show_evidence_an_example_and_a_near_miss() {
        let base = "[[class]]\nfamily = \"divergence\"\nkey = { kind = \"variables\" }\ndetail = '^\\w+: -?\\d+\\.\\d+ vs -?\\d+\\.\\d+$'\nverdict = \"by-design\"\nnote = \"n\"\n";
        let example =
            "examples = [{ key = { kind = \"variables\" }, detail = \"x: 0.1 vs 0.2\" }]\n";
        let near = "near_misses = [{ key = { kind = \"variables\" }, detail = \"x: 1 vs 2\" }]\n";
        let evidence = "evidence = [\"traces/findings/x\"]\n";
        let err = |t: String| {
            Triage::parse(&t, Path::new("t.toml"))
                .unwrap_err()
                .to_string()
        };
        assert!(err(format!("{base}{example}{near}")).contains("needs evidence"));
        assert!(err(format!("{base}{evidence}{near}")).contains("near miss"));
        assert!(err(format!("{base}{evidence}{example}")).contains("near miss"));
        Triage::parse(
            &format!("{base}{evidence}{example}{near}"),
            Path::new("t.toml"),
        )
        .unwrap();
        // An example the rule does not judge, a near miss it does: refused with which.
        let wrong = "examples = [{ key = { kind = \"variables\" }, detail = \"x: 1 vs 2\" }]\n";
        assert!(err(format!("{base}{evidence}{wrong}{near}")).contains("example 0 is not judged"));
        // The numeric rule as it was: integers too.
        let broad = base.replace("\\.\\d+", "(\\.\\d+)?");
        let e = err(format!("{broad}{evidence}{example}{near}"));
        assert!(e.contains("near miss 0 is judged"), "{e}");
    }

    #[test]
    fn the_repositorys_triage_file_holds_its_examples_and_evidence() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let t = Triage::load(&dir.join("triage.toml")).unwrap();
        for (i, r) in t.rules.iter().enumerate() {
            if r.excuses() {
                assert!(
                    !r.examples.is_empty() && !r.near_misses.is_empty(),
                    "rule {i}"
                );
            }
            // A bundle or test named as evidence is in the repository (`path#name`: a test
            // of that name in that file).
            for e in r.evidence.iter().filter(|e| !e.starts_with("http")) {
                let (path, name) = e.split_once('#').unwrap_or((e, ""));
                let p = dir.join(path);
                assert!(
                    p.exists(),
                    "rule {i}: evidence {e} is not in the repository"
                );
                if !name.is_empty() {
                    let text = std::fs::read_to_string(&p).unwrap();
                    assert!(
                        text.contains(&format!("fn {name}(")),
                        "rule {i}: no test {name} in {path}"
                    );
                }
            }
        }
    }

    #[test]
    fn check_counts_what_each_rule_judges_and_in_how_many_shapes() {
        let t = Triage::parse(FILE, Path::new("t.toml")).unwrap();
        let c = check(&t, &[(Family::Divergence, &members())]).unwrap();
        let members = crate::dbdb::classes::u32s(&c, "members").unwrap();
        let shapes = crate::dbdb::classes::u32s(&c, "shapes").unwrap();
        let verdicts = crate::dbdb::classes::strings(&c, "verdict").unwrap();
        // Rule 0 judges the unreferenced var, rule 1 the brace; the `let` and `3 vs 4` are new.
        assert_eq!(members, [1, 1, 2]);
        assert_eq!(shapes, [1, 1, 0]);
        assert_eq!(verdicts, ["by design", "representation", "new"]);
        let m = |d: &str| Member {
            detail: d.into(),
            engines: vec!["chromium@156".into(), "node@22".into()],
            ..Member::default()
        };
        // Numbers and strings do not make shapes; names and engines do.
        assert_eq!(shape(&m("x: 1.5 vs 2.25")), shape(&m("x: 3.0 vs 4.75")));
        assert_ne!(shape(&m("x: 1.5 vs 2.25")), shape(&m("x: 1 vs 2")));
        assert_eq!(
            shape(&m("s: \"a\" vs \"b\"")),
            "chromium vs node | s: S vs S"
        );
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
