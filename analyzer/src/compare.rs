//! Two campaigns over the same programs and seeds (typically two versions of one engine, or a
//! replay on a new version): what changed, session by session, class by class, program by program.

use crate::columns::{strings, u32s};
use crate::load::Archives;
use crate::render::Table;
use crate::triage::JudgeFrames;
use morphtrace_schema::SessionOutcome;
use polars::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What a session came to, as compared across campaigns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SessionResult {
    pub id: String,
    pub program_name: String,
    /// `finished`, `action-limit`, `diverged: pause-location`, ...
    pub category: String,
    pub class: Option<[String; 3]>,
    pub detail: String,
    /// Timed out, harness error or rejected: no verdict.
    pub undecided: bool,
}

/// What identifies a session across two campaigns of the same programs and seeds (other engine
/// versions, another engine, a replay): program, seed, mode, and `who` — which of its campaign's
/// engines the session ran on (by position: the first engine of one campaign pairs with the
/// first of the other), the metamorphic round and last transformation, and the session's rank
/// among those alike in its campaign (follow-ups of one parent, recorded in a deterministic
/// order).
pub(crate) type SessionKey = (String, u64, String, String);

/// Every session by its [`SessionKey`].
pub(crate) fn results(d: &Archives) -> PolarsResult<BTreeMap<SessionKey, SessionResult>> {
    let s = &d.frames.sessions;
    let (engines, transformation) = (strings(s, "engines")?, strings(s, "transformation")?);
    let round = strings(s, "round")?;
    let (arch, pos) = (u32s(s, "archive")?, u32s(s, "session")?);
    let (program, mode, outcome, divergence) = (
        strings(s, "program")?,
        strings(s, "mode")?,
        strings(s, "outcome")?,
        strings(s, "divergence")?,
    );
    let (id, name) = (strings(s, "id")?, strings(s, "program_name")?);
    let seeds = crate::columns::u64s(s, "seed")?;
    let dv = &crate::load::first_divergences(&d.frames.divergences)?;
    let (da, ds) = (u32s(dv, "archive")?, u32s(dv, "session")?);
    let (kind, last, node, detail) = (
        strings(dv, "kind")?,
        strings(dv, "last_action")?,
        strings(dv, "ast_node")?,
        strings(dv, "detail")?,
    );
    let mut div: HashMap<(u32, u32), usize> = HashMap::new();
    for i in 0..dv.height() {
        div.insert((da[i], ds[i]), i);
    }
    let mut out = BTreeMap::new();
    let mut seen: HashMap<(String, u64, String, String), usize> = HashMap::new();
    for i in 0..s.height() {
        // A session on every engine of its campaign is `all`; one on some of them (a random
        // campaign's, a metamorphic chain's) names their positions.
        let campaign: Vec<String> = d
            .sources
            .get(arch[i] as usize)
            .map(|s| s.header.engines.iter().map(|e| e.label()).collect())
            .unwrap_or_default();
        let mine: Vec<&str> = engines[i].split(" vs ").collect();
        let slots = if mine.len() == campaign.len() {
            "all".to_string()
        } else {
            mine.iter()
                .map(|m| match campaign.iter().position(|c| c == m) {
                    Some(k) => format!("engine {}", k + 1),
                    None => m.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" + ")
        };
        let alike = (
            program[i].clone(),
            seeds[i],
            mode[i].clone(),
            format!("{slots} | round {} | {}", round[i], transformation[i]),
        );
        let rank = seen.entry(alike.clone()).or_default();
        *rank += 1;
        let who = if *rank == 1 {
            alike.3
        } else {
            format!("{} | #{}", alike.3, rank)
        };
        let d = div.get(&(arch[i], pos[i])).copied();
        let category = if outcome[i] == "diverged" {
            format!("diverged: {}", divergence[i])
        } else {
            outcome[i].clone()
        };
        out.insert(
            (alike.0, alike.1, alike.2, who),
            SessionResult {
                id: id[i].clone(),
                program_name: name[i].clone(),
                category,
                class: d.map(|j| [kind[j].clone(), last[j].clone(), node[j].clone()]),
                detail: d.map(|j| detail[j].clone()).unwrap_or_default(),
                // An outcome the schema does not know is no verdict either.
                undecided: SessionOutcome::decision_of(&outcome[i]).is_none_or(|v| !v.is_judged()),
            },
        );
    }
    Ok(out)
}

/// Each divergence class's verdict under `triage`, and whether some member is untriaged.
fn verdicts(
    d: &Archives,
    triage: &crate::triage::Triage,
) -> PolarsResult<HashMap<[String; 3], (String, bool)>> {
    use crate::dbdb::classes;
    let m = &d.frames.divergences;
    let c = classes::classes(m, &classes::DIVERGENCE_KEYS)?;
    let c = triage.annotate(
        &c,
        m,
        &classes::DIVERGENCE_KEYS,
        crate::triage::Family::Divergence,
    )?;
    let (k, l, n) = (
        strings(&c, "kind")?,
        strings(&c, "last_action")?,
        strings(&c, "ast_node")?,
    );
    let (v, u) = (strings(&c, "verdict")?, u32s(&c, "untriaged")?);
    Ok((0..c.height())
        .map(|i| {
            (
                [k[i].clone(), l[i].clone(), n[i].clone()],
                (v[i].clone(), u[i] > 0),
            )
        })
        .collect())
}

fn engines(d: &Archives) -> String {
    let mut labels: Vec<String> = d
        .sources
        .iter()
        .flat_map(|s| s.header.engines.iter().map(|e| e.label()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    labels.sort();
    labels.join(", ")
}

/// The comparison as tables: overview, outcome transitions, classes, programs, changed sessions.
/// `triage` gives each class its verdict; a class that appeared in B with members no rule
/// judges is flagged `appeared, untriaged`.
pub fn compare(
    a: &Archives,
    b: &Archives,
    limit: usize,
    triage: &crate::triage::Triage,
) -> PolarsResult<Vec<Table>> {
    let ra = results(a)?;
    let rb = results(b)?;
    let matched: Vec<_> = ra.keys().filter(|k| rb.contains_key(*k)).cloned().collect();
    let mut overview = Table::new(
        "compare_overview",
        "Campaigns compared",
        &[
            "side",
            "archives",
            "engines",
            "sessions",
            "diverged",
            "matched",
            "only here",
        ],
    )
    .with_note(
        "Sessions are matched by program, seed, mode, the campaign's engines they ran on (by \
         position), metamorphic round and transformation, and rank among sessions alike \
         (follow-ups of one parent). Only matched sessions enter the tables below.",
    );
    for (side, d, r, other) in [("A", a, &ra, &rb), ("B", b, &rb, &ra)] {
        overview.push(vec![
            side.into(),
            d.sources
                .iter()
                .map(|s| s.path.clone())
                .collect::<Vec<_>>()
                .join(", "),
            engines(d),
            r.len().to_string(),
            r.values().filter(|x| x.class.is_some()).count().to_string(),
            matched.len().to_string(),
            r.keys()
                .filter(|k| !other.contains_key(*k))
                .count()
                .to_string(),
        ]);
    }

    let mut transitions: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut classes: BTreeMap<[String; 3], (usize, usize)> = BTreeMap::new();
    let mut programs: BTreeMap<String, (usize, usize, usize, usize)> = BTreeMap::new();
    let mut changed = Vec::new();
    for k in &matched {
        let (x, y) = (&ra[k], &rb[k]);
        *transitions
            .entry((x.category.clone(), y.category.clone()))
            .or_default() += 1;
        if let Some(c) = &x.class {
            classes.entry(c.clone()).or_default().0 += 1;
        }
        if let Some(c) = &y.class {
            classes.entry(c.clone()).or_default().1 += 1;
        }
        let p = programs.entry(x.program_name.clone()).or_default();
        p.0 += 1;
        p.1 += usize::from(x.class.is_some());
        p.2 += usize::from(y.class.is_some());
        if x.category != y.category || x.class != y.class {
            p.3 += 1;
            changed.push((k.clone(), x.clone(), y.clone()));
        }
    }

    let mut t_trans = Table::new(
        "compare_outcomes",
        "Outcomes in A and B (matched sessions)",
        &["A", "B", "sessions", "changed"],
    );
    let mut trans: Vec<_> = transitions.into_iter().collect();
    trans.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    for ((x, y), n) in trans {
        let ch = if x == y { "" } else { "yes" };
        t_trans.push(vec![x, y, n.to_string(), ch.into()]);
    }

    let verdicts = {
        let mut v = verdicts(a, triage)?;
        v.extend(verdicts(b, triage)?);
        v
    };
    let mut t_classes = Table::new(
        "compare_classes",
        "Equivalence classes that appeared, vanished or changed size",
        &[
            "Diff. type",
            "Last action",
            "AST node",
            "A",
            "B",
            "change",
            "verdict",
        ],
    );
    let mut cl: Vec<_> = classes.into_iter().filter(|(_, (x, y))| x != y).collect();
    cl.sort_by(|x, y| {
        let d = |c: &(usize, usize)| (c.1 as i64 - c.0 as i64).abs();
        d(&y.1).cmp(&d(&x.1)).then(x.0.cmp(&y.0))
    });
    for ([k, l, n], (x, y)) in cl {
        let (verdict, open) = verdicts
            .get(&[k.clone(), l.clone(), n.clone()])
            .cloned()
            .unwrap_or_else(|| ("new".into(), true));
        let change = match (x, y) {
            (0, _) if open => "appeared, untriaged".to_string(),
            (0, _) => "appeared".to_string(),
            (_, 0) => "vanished".to_string(),
            _ => format!("{:+}", y as i64 - x as i64),
        };
        t_classes.push(vec![k, l, n, x.to_string(), y.to_string(), change, verdict]);
    }

    let mut t_prog = Table::new(
        "compare_programs",
        "Per program (programs with changed sessions)",
        &[
            "program",
            "matched",
            "diverged in A",
            "diverged in B",
            "changed",
        ],
    );
    for (p, (m, x, y, c)) in programs.into_iter().filter(|(_, v)| v.3 > 0) {
        t_prog.push(vec![
            p,
            m.to_string(),
            x.to_string(),
            y.to_string(),
            c.to_string(),
        ]);
    }

    let mut t_sess = Table::new(
        "compare_sessions",
        &format!("Changed sessions (first {limit})"),
        &[
            "program", "seed", "A", "B", "A detail", "B detail", "A id", "B id",
        ],
    )
    .with_note(format!("{} matched sessions changed.", changed.len()));
    for ((_, seed, _, _), x, y) in changed.into_iter().take(limit) {
        t_sess.push(vec![
            x.program_name,
            seed.to_string(),
            x.category,
            y.category,
            x.detail,
            y.detail,
            x.id,
            y.id,
        ]);
    }
    Ok(vec![overview, t_trans, t_classes, t_prog, t_sess])
}
