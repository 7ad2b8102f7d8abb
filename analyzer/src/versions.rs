//! A version matrix (`morphtrace-record replay ARCHIVE --engine chromium@92 ... --out DIR`): the
//! same sessions on many versions of an engine, one archive per version. Tables of divergence
//! classes × versions (members per version, the first and last version a class shows in), of
//! outcomes per version and of the sessions whose outcome changed from one version to the next.

use crate::compare::{results, SessionResult};
use crate::load::Archives;
use crate::render::Table;
use polars::prelude::PolarsResult;
use std::collections::{BTreeMap, BTreeSet};

/// One version's archives, with the name its column gets.
pub struct Column<'a> {
    pub label: String,
    pub data: &'a Archives,
}

/// Each column's engine labels (`chromium@92.0.4512.0`, `node@20.20.2`).
fn engine_sets(columns: &[&Archives]) -> Vec<BTreeSet<String>> {
    columns
        .iter()
        .map(|d| {
            d.sources
                .iter()
                .flat_map(|s| s.header.engines.iter().map(|e| e.label()))
                .collect()
        })
        .collect()
}

/// The base of a matrix: the column that the most others differ from in one engine alone (the
/// campaign every other column replays with one engine changed); the first on a tie.
fn base(sets: &[BTreeSet<String>]) -> usize {
    let one_apart = |i: usize| {
        sets.iter()
            .filter(|s| s.difference(&sets[i]).count() == 1 && sets[i].difference(s).count() == 1)
            .count()
    };
    (0..sets.len())
        .max_by_key(|&i| (one_apart(i), std::cmp::Reverse(i)))
        .unwrap_or(0)
}

/// What each column varies: its engines that the base lacks (`chromium@92.0.4512.0`, or
/// `deno@2.9.6` in Node's place); the base, its engines that some other column changes
/// (`chromium@156…+node@20…`); the archive's path when every engine is shared.
pub fn labels(columns: &[&Archives]) -> Vec<String> {
    let sets = engine_sets(columns);
    let b = base(&sets);
    let varied: BTreeSet<String> = sets
        .iter()
        .flat_map(|s| sets[b].difference(s).cloned().collect::<Vec<_>>())
        .collect();
    sets.iter()
        .zip(columns)
        .enumerate()
        .map(|(i, (s, d))| {
            let own: Vec<String> = if i == b {
                s.intersection(&varied).cloned().collect()
            } else {
                s.difference(&sets[b]).cloned().collect()
            };
            if own.is_empty() {
                d.sources
                    .iter()
                    .map(|s| s.path.clone())
                    .collect::<Vec<_>>()
                    .join("+")
            } else {
                own.join("+")
            }
        })
        .collect()
}

/// Why `columns` are no version matrix, if they are not: columns of other campaigns (another
/// strategy, corpus or seeds than the first), or a column that changes more than one engine of
/// the base. `names`: each column as the user gave it.
pub fn not_a_matrix(columns: &[&Archives], names: &[String]) -> Option<String> {
    let campaign = |d: &Archives| {
        d.sources.first().map(|s| {
            let c = &s.header.campaign;
            (c.strategy.clone(), c.corpus.clone(), c.seeds.clone())
        })
    };
    let first = campaign(columns.first()?);
    for (d, name) in columns.iter().zip(names).skip(1) {
        let c = campaign(d);
        if c != first {
            let show = |c: &Option<(String, Vec<String>, String)>| match c {
                Some((s, corpus, seeds)) => {
                    format!("{s} of {} seeds {seeds}", corpus.join(" "))
                }
                None => "nothing".into(),
            };
            return Some(format!(
                "{name} is another campaign ({}) than {} ({}): a version matrix replays one campaign",
                show(&c),
                names[0],
                show(&first)
            ));
        }
    }
    let sets = engine_sets(columns);
    let b = base(&sets);
    for (i, s) in sets.iter().enumerate() {
        let changed: Vec<&String> = s.difference(&sets[b]).collect();
        if changed.len() > 1 {
            return Some(format!(
                "{} changes {} engines of {} ({}): a version matrix changes one engine at a time",
                names[i],
                changed.len(),
                names[b],
                changed
                    .iter()
                    .map(|c| c.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    None
}

/// A sort key that orders `chromium@92.0.4512.0` before `chromium@110.0.5481.0`: the kind, then
/// the numbers of the version.
pub fn version_key(label: &str) -> (String, Vec<u64>, String) {
    let (kind, version) = label.split_once('@').unwrap_or((label, ""));
    let numbers = version
        .split(|c: char| !c.is_ascii_digit())
        .filter(|n| !n.is_empty())
        .filter_map(|n| n.parse().ok())
        .collect();
    (kind.to_string(), numbers, label.to_string())
}

fn class_name(c: &[String; 3]) -> String {
    format!("{} / {} / {}", c[0], c[1], c[2])
}

/// The matrix as tables: per version, classes × versions, and outcome changes between
/// neighbouring versions (columns in the order given).
pub fn matrix(columns: &[Column<'_>]) -> PolarsResult<Vec<Table>> {
    let results: Vec<BTreeMap<crate::compare::SessionKey, SessionResult>> = columns
        .iter()
        .map(|c| results(c.data))
        .collect::<PolarsResult<_>>()?;
    let names: Vec<&str> = columns.iter().map(|c| c.label.as_str()).collect();

    let mut overview = Table::new(
        "versions_overview",
        "Sessions per version",
        &[
            "version",
            "sessions",
            "judged",
            "diverged",
            "undecided",
            "classes",
        ],
    )
    .with_note(
        "judged: sessions that ended in a verdict (agreed or diverged); undecided: the engine \
         died, timed out or was rejected (counted apart, never as agreed).",
    );
    for (c, r) in columns.iter().zip(&results) {
        let diverged = r.values().filter(|x| x.class.is_some()).count();
        let undecided = r.values().filter(|x| x.undecided).count();
        let classes: BTreeSet<&[String; 3]> = r.values().filter_map(|x| x.class.as_ref()).collect();
        overview.push(vec![
            c.label.clone(),
            r.len().to_string(),
            (r.len() - undecided).to_string(),
            diverged.to_string(),
            undecided.to_string(),
            classes.len().to_string(),
        ]);
    }

    // Members of each class per version.
    let mut members: BTreeMap<[String; 3], Vec<usize>> = BTreeMap::new();
    for (i, r) in results.iter().enumerate() {
        for c in r.values().filter_map(|x| x.class.as_ref()) {
            members
                .entry(c.clone())
                .or_insert_with(|| vec![0; columns.len()])[i] += 1;
        }
    }
    let mut cols = vec!["class (type / last action / AST node)"];
    cols.extend(names.iter().copied());
    cols.extend(["first", "last", "gaps"]);
    let mut t_classes = Table::new(
        "versions_classes",
        "Divergence classes × versions (members per version)",
        &cols,
    )
    .with_note(
        "first/last: the first and last version (in column order) with a member; gaps: \
         versions between them without one (a class that comes and goes).",
    );
    let mut rows: Vec<_> = members.into_iter().collect();
    rows.sort_by(|a, b| {
        let first = |v: &[usize]| v.iter().position(|&n| n > 0);
        first(&a.1)
            .cmp(&first(&b.1))
            .then(b.1.iter().sum::<usize>().cmp(&a.1.iter().sum::<usize>()))
            .then(a.0.cmp(&b.0))
    });
    for (c, counts) in rows {
        let first = counts.iter().position(|&n| n > 0).unwrap_or(0);
        let last = counts.iter().rposition(|&n| n > 0).unwrap_or(0);
        let gaps = counts[first..=last].iter().filter(|&&n| n == 0).count();
        let mut row = vec![class_name(&c)];
        row.extend(counts.iter().map(|n| n.to_string()));
        row.push(names[first].to_string());
        row.push(names[last].to_string());
        row.push(gaps.to_string());
        t_classes.push(row);
    }

    // Outcome categories per version.
    let mut categories: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, r) in results.iter().enumerate() {
        for x in r.values() {
            categories
                .entry(x.category.clone())
                .or_insert_with(|| vec![0; columns.len()])[i] += 1;
        }
    }
    let mut cols = vec!["outcome"];
    cols.extend(names.iter().copied());
    let mut t_outcomes = Table::new("versions_outcomes", "Outcomes per version", &cols);
    for (k, counts) in categories {
        let mut row = vec![k];
        row.extend(counts.iter().map(|n| n.to_string()));
        t_outcomes.push(row);
    }

    // Sessions whose outcome changed between neighbouring versions.
    let mut t_changes = Table::new(
        "versions_changes",
        "Outcome changes between neighbouring versions (sessions matched by program, seed, mode)",
        &[
            "from",
            "to",
            "outcome before",
            "outcome after",
            "sessions",
            "e.g. program",
        ],
    );
    for i in 1..results.len() {
        let (a, b) = (&results[i - 1], &results[i]);
        let mut changes: BTreeMap<(String, String), (usize, String)> = BTreeMap::new();
        for (k, x) in a {
            let Some(y) = b.get(k) else { continue };
            if x.category != y.category || x.class != y.class {
                let before = x
                    .class
                    .as_ref()
                    .map(class_name)
                    .unwrap_or(x.category.clone());
                let after = y
                    .class
                    .as_ref()
                    .map(class_name)
                    .unwrap_or(y.category.clone());
                let e = changes
                    .entry((before, after))
                    .or_insert((0, format!("{} seed {}", x.program_name, k.1)));
                e.0 += 1;
            }
        }
        let mut v: Vec<_> = changes.into_iter().collect();
        v.sort_by(|x, y| y.1 .0.cmp(&x.1 .0).then(x.0.cmp(&y.0)));
        for ((before, after), (n, example)) in v {
            t_changes.push(vec![
                names[i - 1].to_string(),
                names[i].to_string(),
                before,
                after,
                n.to_string(),
                example,
            ]);
        }
    }
    if t_changes.rows.is_empty() {
        t_changes = t_changes.with_note("No session changed its outcome between neighbours.");
    }
    Ok(vec![overview, t_classes, t_outcomes, t_changes])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_versions_by_their_numbers() {
        let mut v = vec![
            "chromium@110.0.5481.0",
            "chromium@92.0.4512.0",
            "chromium@153.0.8010.0",
            "deno@2.9.6",
        ];
        v.sort_by_key(|l| version_key(l));
        assert_eq!(
            v,
            [
                "chromium@92.0.4512.0",
                "chromium@110.0.5481.0",
                "chromium@153.0.8010.0",
                "deno@2.9.6"
            ]
        );
    }
}
