//! Triage over the analyzer's frames: the rules of `morphtrace_judges::triage` applied to the
//! members of each class, each class's verdict, the class tables with verdicts (`classes`, the
//! report), and `triage --check`.

use crate::render::Table;
pub use morphtrace_judges::triage::*;
use polars::prelude::*;
use std::collections::BTreeMap;

/// The members (rows) of `members`, a frame of `family`, as rules see them.
pub fn members(members: &DataFrame, family: Family) -> PolarsResult<Vec<Member>> {
    let n = members.height();
    let text = |name: &str| -> PolarsResult<Vec<String>> {
        if members
            .get_column_names()
            .iter()
            .any(|c| c.as_str() == name)
        {
            crate::columns::strings(members, name)
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
    // A frame without a divergence's columns (warnings, inconsistencies) reads them as absent.
    let a = text(match family {
        Family::Divergence => "engine_a",
        Family::Warning => "engine",
        Family::Inconsistency => "profiler",
    })?;
    let b = text("engine_b")?;
    let suspect = text("suspect")?;
    let agreement = text("agreement")?;
    let binding = text("binding")?;
    let differs = text("program_differs")?;
    let after = text("after_the_code")?;
    let pairs = text("pairs")?;
    let placements = text("placements")?;
    let out_of_step = text("out_of_step")?;
    let braces = text("at_a_closing_brace")?;
    let inferred = text("named_by_inference")?;
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
            let key: BTreeMap<String, String> = keys
                .iter()
                .map(|(k, v)| (k.to_string(), v[row].clone()))
                .collect();
            let program_differs = differs.get(row).is_some_and(|s| given(s).is_some());
            let after_the_code = after.get(row).is_some_and(|s| s == "true");
            let at_a_closing_brace: Vec<String> = braces
                .get(row)
                .and_then(|b| given(b))
                .map(|b| b.split('+').map(str::to_string).collect())
                .unwrap_or_default();
            let named_by_inference: Vec<String> = inferred
                .get(row)
                .and_then(|b| given(b))
                .map(|b| b.split('+').map(str::to_string).collect())
                .unwrap_or_default();
            let placements: Vec<morphtrace_schema::fact::Placement> = placements
                .get(row)
                .and_then(|p| given(p))
                .and_then(|p| serde_json::from_str(&p).ok())
                .unwrap_or_default();
            let pairs = pairs
                .get(row)
                .and_then(|p| given(p))
                .and_then(|p| serde_json::from_str::<Vec<crate::load::PairRow>>(&p).ok())
                .unwrap_or_default()
                .into_iter()
                .map(|p| {
                    let mut key = key.clone();
                    key.insert("kind".into(), p.kind);
                    let engines = vec![p.engine_a, p.engine_b];
                    Member {
                        key,
                        detail: p.detail,
                        placements: morphtrace_schema::fact::of_engines(&placements, &engines),
                        engines,
                        binding: p.binding,
                        program_differs,
                        after_the_code,
                        at_a_closing_brace: at_a_closing_brace.clone(),
                        named_by_inference: match p.named_by_inference {
                            Some(n) => n.split('+').map(str::to_string).collect(),
                            None => named_by_inference.clone(),
                        },
                        ..Member::default()
                    }
                })
                .collect();
            Member {
                key,
                detail: detail[row].clone(),
                engines,
                suspect: suspect.get(row).and_then(|s| given(s)),
                binding: binding.get(row).and_then(|s| given(s)),
                program_differs,
                after_the_code,
                pairs,
                placements,
                out_of_step: out_of_step.get(row).is_some_and(|s| given(s).is_some()),
                named_by_inference,
                at_a_closing_brace,
            }
        })
        .collect())
}

/// The triage to judge `sources` with: the file given; else the one the archives' campaigns
/// went on under (`lockstep.triage.text`), when they all recorded the same and this version
/// reads it, so that what a command says of an archive does not depend on where it runs; else
/// the nearest `triage.toml` from the current directory up; else none. Its `path` says which
/// (`the triage recorded in ARCHIVE`), so that a command can say what it judged with; where a
/// recorded triage is passed over, a warning says why.
pub fn for_archives(
    given: Option<&std::path::Path>,
    sources: &[&crate::load::Source],
) -> Result<Triage, TriageError> {
    if given.is_some() {
        return find(given);
    }
    let texts: Vec<&str> = sources
        .iter()
        .filter_map(|s| s.header.campaign.param(RECORDED_TEXT))
        .collect();
    let first = sources
        .iter()
        .find(|s| s.header.campaign.param(RECORDED_TEXT).is_some());
    if let Some(s) = first {
        if texts.len() < sources.len() || texts.iter().any(|t| *t != texts[0]) {
            tracing::warn!(
                "the archives recorded different triages (or some none): judging with the \
                 nearest triage.toml (give one with --triage FILE)"
            );
        } else {
            let label = format!("the triage recorded in {}", s.path);
            match recorded(&s.header, std::path::Path::new(&label)) {
                Some(Ok(t)) => return Ok(t),
                Some(Err(e)) => tracing::warn!(
                    "{label} is not read by this version ({}): judging with the nearest \
                     triage.toml (give one with --triage FILE)",
                    why_unread(&e)
                ),
                None => {}
            }
        }
    }
    find(None)
}

/// Why a recorded triage was not read, on one line: the path is the warning's own label, and
/// a TOML error's caret drawing is left to `triage --triage FILE` on the extracted text.
fn why_unread(e: &TriageError) -> String {
    match e {
        TriageError::Parse { message, .. } => {
            let lines: Vec<&str> = message
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            match (lines.first(), lines.last()) {
                (Some(first), Some(last)) if first != last => format!("{first}: {last}"),
                (Some(first), _) => (*first).to_string(),
                _ => message.clone(),
            }
        }
        TriageError::Rule {
            index,
            note,
            message,
            ..
        } => format!("rule {index} ({note:?}): {message}"),
        TriageError::Read { source, .. } => source.to_string(),
    }
}

/// What a command says of the triage it judged with, on stderr.
pub fn judged_with(t: &Triage) -> String {
    match &t.path {
        Some(p) => format!("{} ({} rules)", p.display(), t.rules.len()),
        None => {
            "no triage.toml here or above, and the archives recorded none (or several different \
                 ones): every class is new (give one with --triage FILE)"
                .into()
        }
    }
}

/// `divergences` with its `verdict` column set member by member under `triage` (the rule that
/// judges it, or `new`).
pub fn with_verdicts(triage: &Triage, divergences: &DataFrame) -> PolarsResult<DataFrame> {
    let verdicts: Vec<String> = members(divergences, Family::Divergence)?
        .iter()
        .map(|m| match triage.first_judging(m, Family::Divergence) {
            Some(i) => triage.rules[i].verdict.name().to_string(),
            None => "new".to_string(),
        })
        .collect();
    let mut out = divergences.clone();
    out.with_column(Column::new("verdict".into(), verdicts))?;
    Ok(out)
}

/// The rules applied to frames of members.
pub trait JudgeFrames {
    /// The first rule judging each member (row) of `members`, a frame of `family`.
    fn judge(&self, members: &DataFrame, family: Family) -> PolarsResult<Vec<Option<usize>>>;

    /// `classes` (one row per class, as `dbdb::classes::classes` makes them from `members` by
    /// `keys`) with `verdict`, `note`, `link` and `untriaged` (members no rule judges) columns.
    fn annotate(
        &self,
        classes: &DataFrame,
        members: &DataFrame,
        keys: &[&str],
        family: Family,
    ) -> PolarsResult<DataFrame>;
}

impl JudgeFrames for Triage {
    fn judge(&self, members: &DataFrame, family: Family) -> PolarsResult<Vec<Option<usize>>> {
        let rows = self::members(members, family)?;
        Ok(rows.iter().map(|m| self.first_judging(m, family)).collect())
    }

    fn annotate(
        &self,
        classes: &DataFrame,
        members: &DataFrame,
        keys: &[&str],
        family: Family,
    ) -> PolarsResult<DataFrame> {
        let judged = self.judge(members, family)?;
        let groups = crate::columns::groups(members, keys)?;
        let by_key: BTreeMap<Vec<String>, Vec<usize>> = groups.into_iter().collect();
        let class_keys: Vec<Vec<String>> = {
            let cols: Vec<Vec<String>> = keys
                .iter()
                .map(|k| crate::columns::strings(classes, k))
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
            let triaged = rows.iter().filter(|&&r| judged[r].is_some()).count();
            let by: Vec<usize> = rules.iter().flatten().copied().collect();
            // Each verdict once, whatever the number of rules that gave it.
            let verdicts: std::collections::BTreeSet<Verdict> =
                by.iter().map(|&i| self.rules[i].verdict).collect();
            let names: Vec<&str> = verdicts.iter().map(|v| v.name()).collect();
            let numbers = |by: &[usize]| {
                by.iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            // One unjudged member keeps a class new (docs/concepts.md); `mixed` is a class every
            // member of which is judged, by rules of different verdicts.
            let (v, n, l) = match (&by[..], verdicts.iter().next()) {
                (_, None) => ("new".into(), String::new(), String::new()),
                _ if triaged < rows.len() => (
                    "new".into(),
                    format!(
                        "{triaged} of {} members triaged ({})",
                        rows.len(),
                        names.join(", ")
                    ),
                    String::new(),
                ),
                ([i], _) => {
                    let r = &self.rules[*i];
                    (
                        r.verdict.name().to_string(),
                        r.note.clone(),
                        r.link.clone().unwrap_or_default(),
                    )
                }
                (_, Some(v)) if verdicts.len() == 1 => (
                    v.name().to_string(),
                    format!("judged by rules {}", numbers(&by)),
                    String::new(),
                ),
                _ => (
                    "mixed".into(),
                    format!(
                        "every member judged, by rules {} ({})",
                        numbers(&by),
                        names.join(", ")
                    ),
                    String::new(),
                ),
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

/// How many of a divergences frame's details (and its pairs' details) the analyzer cannot read
/// as a typed difference (`Difference::parse`), of how many: no `difference` pattern judges
/// those, so they stay new whatever the rules say.
pub fn unread_differences(divergences: &DataFrame) -> PolarsResult<(usize, usize)> {
    let members = members(divergences, Family::Divergence)?;
    let details = members
        .iter()
        .flat_map(|m| std::iter::once(m).chain(&m.pairs))
        .map(|m| morphtrace_judges::remark::split(&m.detail).0.to_string());
    let (mut unread, mut all) = (0, 0);
    for d in details {
        all += 1;
        unread += usize::from(morphtrace_judges::difference::Difference::parse(&d).is_none());
    }
    Ok((unread, all))
}

/// What each rule judged in some archives (`triage --check`): per rule, the members it is the
/// first to judge, in how many distinct shapes (a rule that judges many shapes may reach
/// further than its evidence), the most common shape, and its evidence and examples; with
/// `planted` (per rule, the divergences planted faults caused that it excused: see
/// [`crate::faults`]), that score too.
pub fn check(
    triage: &Triage,
    families: &[(Family, &DataFrame)],
    planted: Option<&[usize]>,
) -> PolarsResult<DataFrame> {
    let mut judged: Vec<BTreeMap<String, u32>> = vec![BTreeMap::new(); triage.rules.len()];
    let mut unjudged: BTreeMap<&str, u32> = BTreeMap::new();
    for (family, frame) in families {
        for m in members(frame, *family)? {
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
    let mut df = df!(
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
    )?;
    if let Some(p) = planted {
        let score: Vec<String> = (0..df.height())
            .map(|i| match p.get(i) {
                Some(n) if triage.rules[i].excuses() => n.to_string(),
                _ => String::new(),
            })
            .collect();
        df.insert_column(6, Column::new("planted_faults_excused".into(), score))?;
    }
    Ok(df)
}

/// Which classes `class_tables` shows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Split {
    All,
    /// Only classes with members no triage rule judges.
    NewOnly,
    /// Two tables per family: new classes, then triaged ones (the HTML report).
    Separate,
}

/// How many classes `class_tables` found that are not judged work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Unjudged {
    /// Classes with members no rule judges (new).
    pub untriaged: usize,
    /// Classes whose every member is *not comparable* (the program computes otherwise): no
    /// verdict on either debugger, counted apart from the judged classes.
    pub not_comparable: usize,
}

/// The class tables of every finding family the frames hold, each class with its triage
/// verdict; and how many classes are new or not comparable.
pub fn class_tables(
    f: &crate::load::Frames,
    triage: &Triage,
    split: Split,
    top: usize,
) -> PolarsResult<(Vec<Table>, Unjudged)> {
    let cod_reports = crate::cod::reports(f)?;
    let families = [
        ClassTable {
            name: "divergence_classes",
            what: "divergences",
            members: &f.divergences,
            keys: &crate::dbdb::classes::DIVERGENCE_KEYS,
            family: Family::Divergence,
            headers: &["Diff. type", "Last action", "AST node"],
        },
        ClassTable {
            name: "warning_classes",
            what: "warnings",
            members: &f.warnings,
            keys: &crate::dbdb::classes::WARNING_KEYS,
            family: Family::Warning,
            headers: &["Relation", "Transformation", "AST node"],
        },
        ClassTable {
            name: "coverage_classes",
            what: "coverage inconsistencies left after the weak-noise filter",
            members: &cod_reports,
            keys: &crate::cod::KEYS,
            family: Family::Inconsistency,
            headers: &["Relation", "Profiler", "Kind", "Syntax of the line"],
        },
    ];
    let mut shown: Vec<Table> = Vec::new();
    let mut untriaged = 0;
    let mut not_comparable = 0;
    let any = families.iter().any(|x| x.members.height() > 0);
    for ClassTable {
        name,
        what,
        members,
        keys,
        family,
        headers,
    } in families
    {
        // A table of nothing says nothing: show the kinds the archives have (both debugger
        // tables if they have none).
        if members.height() == 0 && (any || family == Family::Inconsistency) {
            continue;
        }
        let c = crate::dbdb::classes::classes(members, keys)?;
        let c = JudgeFrames::annotate(triage, &c, members, keys, family)?;
        let open: Vec<bool> = crate::columns::u32s(&c, "untriaged")?
            .into_iter()
            .map(|n| n > 0)
            .collect();
        untriaged += open.iter().filter(|o| **o).count();
        not_comparable += crate::columns::strings(&c, "verdict")?
            .iter()
            .filter(|v| *v == Verdict::NotComparable.name())
            .count();
        let parts: Vec<(String, polars::prelude::DataFrame, &str)> = match split {
            Split::All => vec![(name.to_string(), c, "")],
            Split::NewOnly => vec![(
                name.to_string(),
                crate::columns::rows_where(&c, open)?,
                " that no triage rule judges",
            )],
            Split::Separate => vec![
                (
                    format!("{name}_new"),
                    crate::columns::rows_where(&c, open.iter().copied())?,
                    ": new, not (or not fully) triaged",
                ),
                (
                    format!("{name}_triaged"),
                    crate::columns::rows_where(&c, open.iter().map(|o| !o))?,
                    ": triaged",
                ),
            ],
        };
        for (name, c, which) in parts {
            let c = c.drop("untriaged")?;
            let c = if split == Split::Separate {
                c
            } else {
                c.drop("link")?
            };
            let total = c.height();
            let c = if top > 0 { c.head(Some(top)) } else { c };
            let mut t = Table::from_df(
                &name,
                &format!("{total} classes of {} {what}{which}", members.height()),
                &c,
            );
            let mut extra = vec!["Size", "in %", "Verdict", "Note"];
            if split == Split::Separate {
                extra.push("Link");
            }
            t.columns = headers
                .iter()
                .chain(extra.iter())
                .map(|h| h.to_string())
                .collect();
            shown.push(t);
        }
    }
    Ok((
        shown,
        Unjudged {
            untriaged,
            not_comparable,
        },
    ))
}

/// One table of `classes`: a finding family's members, class keys and column headers.
struct ClassTable<'a> {
    name: &'static str,
    what: &'static str,
    members: &'a polars::prelude::DataFrame,
    keys: &'static [&'static str],
    family: Family,
    headers: &'static [&'static str],
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn members() -> DataFrame {
        df!(
            "kind" => ["variables", "variables", "pause-location", "pause-location"],
            "last_action" => ["stepOver", "stepOver", "resume", "stepInto"],
            "ast_node" => ["VariableDeclaration", "VariableDeclaration", "IfStatement", "IfStatement"],
            "detail" => ["t only on the second side", "t only on the second side", "paused at 3:5 vs 4:2", "paused at 3:5 vs 4:1"],
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
difference = { shape = "only-on", only_on = "other" }
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
difference = { shape = "paused-at", other_column = "1" }
verdict = "representation"
note = "closing braces"
evidence = ["traces/findings/some-bundle"]
examples = [{ key = { kind = "pause-location" }, detail = "paused at 3:5 vs 4:1" }]
near_misses = [{ key = { kind = "pause-location" }, detail = "paused at 3:5 vs 4:2" }]
"#;

    /// A three-engine divergence no engine stood alone in: each pair of groups is a member of
    /// its own, and a call-stack pair reads which of its two engines name by inference from
    /// the pair (the divergence itself, a pause location, says nothing of names).
    #[test]
    fn a_call_stack_pair_of_a_three_engine_divergence_knows_its_own_naming() {
        let pairs = r#"[{"engine_a":"chromium@156","engine_b":"firefox@153","kind":"pause-location","detail":"paused at 12:48 vs 13:5","binding":null},{"engine_a":"firefox@153","engine_b":"bun@1.4.5","kind":"call-stack","detail":"stack [Math.random, ] vs [, ]","binding":null,"named_by_inference":"firefox@153+bun@1.4.5"},{"engine_a":"chromium@156","engine_b":"bun@1.4.5","kind":"call-stack","detail":"stack [f, ] vs [, ]","binding":null}]"#;
        let frame = df!(
            "kind" => ["pause-location"],
            "last_action" => ["stepOver"],
            "ast_node" => ["ReturnStatement"],
            "detail" => ["paused at 12:48 vs 13:5"],
            "engine_a" => ["chromium@156"],
            "engine_b" => ["firefox@153"],
            "agreement" => ["chromium@156 vs firefox@153 vs bun@1.4.5"],
            "pairs" => [pairs],
        )
        .unwrap();
        let m = super::members(&frame, Family::Divergence)
            .unwrap()
            .remove(0);
        assert_eq!(m.engines.len(), 3);
        assert!(m.named_by_inference.is_empty());
        let named: Vec<&Vec<String>> = m.pairs.iter().map(|p| &p.named_by_inference).collect();
        assert_eq!(
            named,
            [
                &Vec::<String>::new(),
                &vec!["firefox@153".to_string(), "bun@1.4.5".to_string()],
                &Vec::<String>::new(),
            ]
        );
    }

    fn member(detail: &str, engines: &[&str], suspect: Option<&str>) -> Member {
        Member {
            key: [("kind".to_string(), "variables".to_string())].into(),
            detail: detail.into(),
            engines: engines.iter().map(|e| e.to_string()).collect(),
            suspect: suspect.map(str::to_string),
            binding: Some("unreferenced var".into()),
            program_differs: false,
            after_the_code: false,
            ..Member::default()
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
        let r = rule("engines = [\"chromium\", \"node\"]\nagainst = [\"firefox\"]\ndifference = { shape = \"only-on\", name = \"t\", only_on = \"other\" }");
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
        // The engine that behaves so is the side the rule names, whichever side it is.
        let m = member(
            "t only on the first side",
            &["firefox@153", "node@22.1.0"],
            None,
        );
        assert_eq!(r.behaving(&m), Some("node@22.1.0"));
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
        let r3 = rule("engines = [\"chromium\"]\nagainst = [\"firefox\", \"bun\"]\ndifference = { shape = \"only-on\", name = \"t\", only_on = \"other\" }");
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
        // A rule without engines reads either side as the one that behaves so.
        let any = rule("difference = { shape = \"only-on\", name = \"t\", only_on = \"other\" }");
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

    /// Three engines, none alone: judged when a rule judges each two groups' difference (read
    /// from the `pairs` column, each with its own kind), by an engine-bug rule among them if
    /// there is one; not when one difference is unjudged, nor with no pairs recorded.
    #[test]
    fn a_divergence_no_engine_stood_alone_in_is_judged_difference_by_difference() {
        let pair = |a: &str, b: &str, kind: &str, detail: &str| {
            format!(
                r#"{{"engine_a":"{a}","engine_b":"{b}","kind":"{kind}","detail":"{detail}","binding":null}}"#
            )
        };
        let cf = pair(
            "chromium@156",
            "firefox@153",
            "breakpoint-location",
            "breakpoint at [3:1] vs [4:1]",
        );
        let cb = pair(
            "chromium@156",
            "bun@1.4.5",
            "breakpoint-location",
            "breakpoint at [3:1] vs [9:1]",
        );
        let fb = pair(
            "firefox@153",
            "bun@1.4.5",
            "breakpoint-location",
            "breakpoint at [4:1] vs [9:1]",
        );
        let odd = pair("firefox@153", "bun@1.4.5", "variables", "x: 1 vs 2");
        let all = format!("[{cf},{cb},{fb}]");
        let one_odd = format!("[{cf},{cb},{odd}]");
        let m = df!(
            "kind" => ["breakpoint-location"; 3],
            "last_action" => ["setBreakpoint"; 3],
            "ast_node" => ["Program"; 3],
            "detail" => ["breakpoint at [3:1] vs [4:1]"; 3],
            "engine_a" => ["chromium@156"; 3],
            "engine_b" => ["firefox@153"; 3],
            "suspect" => [None::<&str>, None, None],
            "agreement" => [Some("chromium@156 vs firefox@153 vs bun@1.4.5"); 3],
            "pairs" => [Some(all.as_str()), Some(one_odd.as_str()), None],
        )
        .unwrap();
        let rules = r#"
[[class]]
family = "divergence"
key = { kind = "breakpoint-location" }
engines = ["firefox"]
verdict = "by-design"
note = "SpiderMonkey"
evidence = ["e"]
examples = [{ key = { kind = "breakpoint-location" }, detail = "x", engines = ["firefox@153", "bun@1.4.5"] }]
near_misses = [{ key = { kind = "breakpoint-location" }, detail = "x", engines = ["chromium@156", "bun@1.4.5"] }]

[[class]]
family = "divergence"
key = { kind = "breakpoint-location" }
engines = ["bun"]
against = ["chromium"]
verdict = "engine-bug"
note = "JavaScriptCore"
"#;
        let t = Triage::parse(rules, Path::new("t.toml")).unwrap();
        // Firefox's rule judges chromium/firefox and firefox/bun, Bun's chromium/bun: the
        // engine-bug verdict is the divergence's. A variables difference no rule judges, or no
        // pairs at all, leave it new.
        assert_eq!(
            t.judge(&m, Family::Divergence).unwrap(),
            [Some(1), None, None]
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
        let v = crate::columns::strings(&a, "verdict").unwrap();
        let kinds = crate::columns::strings(&a, "kind").unwrap();
        let last = crate::columns::strings(&a, "last_action").unwrap();
        let got: Vec<(String, String, String)> = kinds
            .into_iter()
            .zip(last)
            .zip(v)
            .map(|((k, l), v)| (k, l, v))
            .collect();
        // The `var` judged, the `let` not: one unjudged member keeps the class new.
        assert!(got.contains(&("variables".into(), "stepOver".into(), "new".into())));
        assert!(got.contains(&("pause-location".into(), "resume".into(), "new".into())));
        assert!(got.contains(&(
            "pause-location".into(),
            "stepInto".into(),
            "representation".into()
        )));
    }

    #[test]
    fn a_rule_that_excuses_must_show_evidence_an_example_and_a_near_miss() {
        let base = "[[class]]\nfamily = \"divergence\"\nkey = { kind = \"variables\" }\ndifference = { shape = \"value\", this = \"*.*\", other = \"*.*\" }\nverdict = \"by-design\"\nnote = \"n\"\n";
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
        // The numeric rule widened: integers too.
        let broad = base.replace("\"*.*\"", "\"*\"");
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
        let c = check(&t, &[(Family::Divergence, &members())], None).unwrap();
        let members = crate::columns::u32s(&c, "members").unwrap();
        let shapes = crate::columns::u32s(&c, "shapes").unwrap();
        let verdicts = crate::columns::strings(&c, "verdict").unwrap();
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
difference = { shape = "paused-at", other_column = "1" }
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
        let v = crate::columns::strings(&a, "verdict").unwrap();
        let n = crate::columns::strings(&a, "note").unwrap();
        // One unjudged member keeps the class new; the note says how much is triaged.
        let i = n
            .iter()
            .position(|x| x == "1 of 2 members triaged (engine bug)")
            .unwrap();
        assert_eq!(v[i], "new");
        assert_eq!(crate::columns::u32s(&a, "untriaged").unwrap()[i], 1);
    }

    /// A class whose every member is judged: by one rule, its verdict, note and link; by two
    /// rules of one verdict, that verdict (not `mixed`), the rules named; by rules of different
    /// verdicts, `mixed`, with the rules and verdicts named.
    #[test]
    fn a_class_judged_throughout_takes_its_verdict_or_is_mixed() {
        let rule = |column: &str, verdict: &str| {
            format!(
                "[[class]]\nfamily = \"divergence\"\nkey = {{ kind = \"pause-location\" }}\ndifference = {{ shape = \"paused-at\", other_column = \"{column}\" }}\nverdict = \"{verdict}\"\nnote = \"{column} note\"\n"
            )
        };
        let keys = ["kind"];
        let m = members();
        let c = crate::dbdb::classes::classes(&m, &keys).unwrap();
        let class = |file: String| {
            let t = Triage::parse(&file, Path::new("t.toml")).unwrap();
            let a = t.annotate(&c, &m, &keys, Family::Divergence).unwrap();
            let kinds = crate::columns::strings(&a, "kind").unwrap();
            let i = kinds.iter().position(|k| k == "pause-location").unwrap();
            (
                crate::columns::strings(&a, "verdict").unwrap()[i].clone(),
                crate::columns::strings(&a, "note").unwrap()[i].clone(),
            )
        };
        // `…4:2` and `…4:1`: the two pause-location members.
        assert_eq!(
            class(rule("*", "engine-bug")),
            ("engine bug".into(), "* note".into())
        );
        assert_eq!(
            class(rule("2", "engine-bug") + &rule("1", "engine-bug")),
            ("engine bug".into(), "judged by rules 0, 1".into())
        );
        assert_eq!(
            class(rule("2", "engine-bug") + &rule("1", "harness")),
            (
                "mixed".into(),
                "every member judged, by rules 0, 1 (engine bug, harness)".into()
            )
        );
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
        assert!(e.contains("rule 0") && e.contains("not its words"), "{e}");
        // Typed patterns name shapes, fields and asides that exist.
        let refused = |extra: &str, family: &str| {
            Triage::parse(
                &format!("[[class]]\nfamily = \"{family}\"\n{extra}\nverdict = \"harness\"\nnote = \"n\"\n"),
                Path::new("t.toml"),
            )
            .unwrap_err()
            .to_string()
        };
        let e = refused(
            "difference = { shape = \"paused-at\", this_line = \"3\" }",
            "divergence",
        );
        assert!(e.contains("no field \"this_line\""), "{e}");
        let e = refused("difference = { shape = \"paused\" }", "divergence");
        assert!(e.contains("names no shape"), "{e}");
        let e = refused("message = { aside = \"in-a-catch\" }", "warning");
        assert!(e.contains("names no aside"), "{e}");
        let e = refused("message = { aside = \"in-a-catch-block\" }", "divergence");
        assert!(e.contains("`message` is for warnings"), "{e}");
    }
}
