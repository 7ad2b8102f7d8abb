//! Equivalence classes (DBDB §3.4, Definition 4) and round-robin sampling from them.
//!
//! A divergence's class is (divergence type, last action, AST node type of the line where the
//! last action was triggered); a warning's class is (relation, transformation, AST node type).

use crate::columns::{frame, groups};
use polars::prelude::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

pub const DIVERGENCE_KEYS: [&str; 3] = morphtrace_judges::triage::DIVERGENCE_KEYS;
pub const WARNING_KEYS: [&str; 3] = morphtrace_judges::triage::WARNING_KEYS;

/// Classes of `members` by `keys`: one row per class with `size` and `share` (percent of all
/// members), largest first, ties by key so that the order is stable.
pub fn classes(members: &DataFrame, keys: &[&str]) -> PolarsResult<DataFrame> {
    let total = members.height().max(1) as f64;
    let rows: Vec<(Vec<String>, Vec<u32>)> = groups(members, keys)?
        .into_iter()
        .map(|(k, r)| (k, vec![r.len() as u32]))
        .collect();
    let mut df = frame(keys, &rows, &["size"])?;
    let share: Vec<f64> = rows
        .iter()
        .map(|r| f64::from(r.1[0]) * 100.0 / total)
        .collect();
    df.with_column(Column::new("share".into(), share))?;
    Ok(df)
}

/// One member drawn by `sample`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    /// Rank of its class (0: the largest).
    pub class: usize,
    pub key: Vec<String>,
    /// Row of the member in the members frame.
    pub row: usize,
}

/// DBDB's sampling: one member per class in turn, largest class first, until `n` are drawn or
/// every member is; within a class, members come in a seeded random order.
pub fn sample(members: &DataFrame, keys: &[&str], n: usize, seed: u64) -> PolarsResult<Vec<Drawn>> {
    let groups = groups(members, keys)?;
    let class_keys: Vec<Vec<String>> = groups.iter().map(|g| g.0.clone()).collect();
    let mut by_key: HashMap<Vec<String>, Vec<usize>> = groups.into_iter().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut queues: Vec<Vec<usize>> = class_keys
        .iter()
        .map(|k| {
            let mut rows = by_key.remove(k).unwrap_or_default();
            rows.shuffle(&mut rng);
            rows.reverse(); // popped from the back
            rows
        })
        .collect();
    let mut out = Vec::new();
    while out.len() < n && queues.iter().any(|q| !q.is_empty()) {
        for (class, q) in queues.iter_mut().enumerate() {
            if out.len() == n {
                break;
            }
            if let Some(row) = q.pop() {
                out.push(Drawn {
                    class,
                    key: class_keys[class].clone(),
                    row,
                });
            }
        }
    }
    Ok(out)
}

/// `sample`'s text: `n` members drawn round-robin from the classes of divergences (or warnings),
/// largest class first, each with its trace excerpt (`context` actions either side).
pub fn sample_excerpts(
    d: &crate::load::Archives,
    n: usize,
    seed: u64,
    context: u32,
    warnings: bool,
) -> PolarsResult<String> {
    use morphtrace_schema::ArchiveReader;
    use std::fmt::Write as _;
    let mut out = String::new();
    let (members, keys) = if warnings {
        (&d.frames.warnings, WARNING_KEYS)
    } else {
        (&d.frames.divergences, DIVERGENCE_KEYS)
    };
    let drawn = sample(members, &keys, n, seed)?;
    let cls = classes(members, &keys)?;
    let sizes = crate::columns::u32s(&cls, "size")?;
    let arch = crate::columns::u32s(members, "archive")?;
    let pos = crate::columns::u32s(members, "session")?;
    let details = crate::columns::strings(members, if warnings { "message" } else { "detail" })?;
    let at: Vec<u32> = if warnings {
        crate::columns::u32s(members, "event_index")?
    } else {
        crate::columns::u32s(members, "action_index")?
    };
    let _ = writeln!(
        out,
        "{} of {} {} drawn from {} classes, round-robin, largest class first (seed {seed})",
        drawn.len(),
        members.height(),
        if warnings { "warnings" } else { "divergences" },
        cls.height()
    );
    let mut readers: std::collections::HashMap<u32, ArchiveReader> = Default::default();
    for (i, m) in drawn.iter().enumerate() {
        let a = arch[m.row];
        let src = &d.sources[a as usize];
        let _ = writeln!(
            out,
            "\n#{} class {} [{}] ({} members): {}\n  {} session {}",
            i + 1,
            m.class + 1,
            m.key.join(" / "),
            sizes[m.class],
            details[m.row],
            src.path,
            pos[m.row],
        );
        if let std::collections::hash_map::Entry::Vacant(e) = readers.entry(a) {
            match ArchiveReader::open(&src.path) {
                Ok(r) => {
                    e.insert(r);
                }
                Err(err) => {
                    let _ = writeln!(out, "  (archive does not open: {err})");
                    continue;
                }
            }
        }
        let r = &readers[&a];
        match r.session(pos[m.row] as usize) {
            Ok(s) => {
                let program = r
                    .program(&s.program)
                    .map(|p| p.origin.name())
                    .unwrap_or_default();
                let _ = writeln!(out, "  program {program}, seed {}, id {}", s.seed, s.id);
                // A warning's index counts events; the excerpt counts actions.
                let action = if warnings {
                    s.traces
                        .first()
                        .and_then(|t| crate::load::action_of_event(&t.into(), at[m.row]))
                        .unwrap_or(0)
                } else {
                    at[m.row]
                };
                out.push_str(&crate::show::excerpt(r.header(), &s, action, context));
            }
            Err(e) => {
                let _ = writeln!(out, "  (session does not decode: {e})");
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::{strings, u32s};

    fn members() -> DataFrame {
        df!(
            "kind" => ["a", "a", "a", "b", "b", "c"],
            "last_action" => ["x", "x", "x", "x", "x", "y"],
            "ast_node" => ["P", "P", "P", "Q", "Q", "P"],
        )
        .unwrap()
    }

    #[test]
    fn classes_are_counted_and_sorted_largest_first() {
        let c = classes(&members(), &DIVERGENCE_KEYS).unwrap();
        assert_eq!(strings(&c, "kind").unwrap(), ["a", "b", "c"]);
        assert_eq!(u32s(&c, "size").unwrap(), [3, 2, 1]);
        let share = c.column("share").unwrap().f64().unwrap().get(0).unwrap();
        assert!((share - 50.0).abs() < 1e-9);
    }

    #[test]
    fn sampling_is_round_robin_largest_first_and_seeded() {
        let d = sample(&members(), &DIVERGENCE_KEYS, 5, 7).unwrap();
        let classes: Vec<usize> = d.iter().map(|x| x.class).collect();
        assert_eq!(classes, [0, 1, 2, 0, 1]);
        assert_eq!(d, sample(&members(), &DIVERGENCE_KEYS, 5, 7).unwrap());
        // Every member of class 0 is one of rows 0..3.
        assert!(d.iter().filter(|x| x.class == 0).all(|x| x.row < 3));
        // Asking for more than there is draws everything once.
        let all = sample(&members(), &DIVERGENCE_KEYS, 50, 1).unwrap();
        let mut rows: Vec<usize> = all.iter().map(|x| x.row).collect();
        rows.sort();
        assert_eq!(rows, [0, 1, 2, 3, 4, 5]);
    }
}
