//! Shards: the K-th of N deterministic parts of a campaign's task list, for one array task of a
//! batch engine (Slurm, Kubernetes). Every shard of one campaign computes the same partition
//! from the same task list, so the shards never overlap and together hold every task.

use morphtrace_schema::Shard;
use std::path::{Path, PathBuf};

/// Which shard of each task: tasks are dealt largest expected cost first, each to the shard
/// with the least cost so far (ties: the task that comes first, the lowest shard), so that the
/// shards take about equally long even when a few programs cost far more than the others.
pub fn partition(costs: &[u64], count: u32) -> Vec<u32> {
    let count = count.max(1) as usize;
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].cmp(&costs[a]).then(a.cmp(&b)));
    let mut load = vec![0u64; count];
    let mut out = vec![0u32; costs.len()];
    for i in order {
        let (s, _) = load
            .iter()
            .enumerate()
            .min_by_key(|&(s, l)| (*l, s))
            .unwrap_or((0, &0));
        load[s] += costs[i].max(1);
        out[i] = s as u32;
    }
    out
}

/// The shard a `--shard` value names: `K/N`; `auto` (a Slurm array task: K from
/// `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN`, N from `SLURM_ARRAY_TASK_COUNT`; or a
/// Kubernetes Indexed Job: K from `JOB_COMPLETION_INDEX`, N from `MORPHTRACE_SHARDS`, the
/// Job's completions); or `auto/N` (N given, K from either).
pub fn resolve(spec: &str, env: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
    let Some(rest) = spec.strip_prefix("auto") else {
        return Shard::parse(spec);
    };
    let given = match rest {
        "" => None,
        r => Some(
            r.strip_prefix('/')
                .and_then(|n| n.parse::<u32>().ok())
                .ok_or_else(|| {
                    format!(
                        "--shard auto/N: N is a number, not {:?}",
                        r.trim_start_matches('/')
                    )
                })?,
        ),
    };
    let number = |name: &str| -> Result<Option<u32>, String> {
        match env(name) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| format!("{name}={v:?} is not a number")),
        }
    };
    if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
        let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let count = match given {
            Some(n) => n,
            None => number("SLURM_ARRAY_TASK_COUNT")?
                .ok_or("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")?,
        };
        let index = id.checked_sub(min).ok_or_else(|| {
            format!("SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {min}")
        })?;
        return Shard::new(index, count).map_err(|e| {
            format!(
                "{e} (a Slurm array of {count} tasks needs --array={min}-{})",
                min + count - 1
            )
        });
    }
    if let Some(index) = number("JOB_COMPLETION_INDEX")? {
        let count = match given {
            Some(n) => n,
            None => number("MORPHTRACE_SHARDS")?.ok_or(
                "JOB_COMPLETION_INDEX is set but not the shard count: set MORPHTRACE_SHARDS to \
                 the Job's completions, or pass --shard auto/N",
            )?,
        };
        return Shard::new(index, count);
    }
    Err(
        "--shard auto needs a Slurm array task (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed \
         Job (JOB_COMPLETION_INDEX); elsewhere give --shard K/N"
            .into(),
    )
}

/// The archive of a shard: `OUT` with `.shard-K-of-N` before its extension
/// (`d.mtrace` → `d.shard-2-of-4.mtrace`), so that the shards of one command line never write
/// the same file.
pub fn archive_path(out: &Path, shard: Shard) -> PathBuf {
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match out.extension() {
        Some(ext) => format!(
            "{stem}.shard-{}.{}",
            shard.file_tag(),
            ext.to_string_lossy()
        ),
        None => format!("{stem}.shard-{}", shard.file_tag()),
    };
    out.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn every_task_in_exactly_one_shard_balanced_by_cost() {
        // One program ten times as costly as the others: by count its shard would take as many
        // tasks as any other (10), and 90 units longer; by cost it takes fewer tasks.
        let mut costs = vec![10u64; 40];
        costs[7] = 100;
        let parts = partition(&costs, 4);
        assert_eq!(parts.len(), 40);
        let mut load = [0u64; 4];
        let mut tasks = [0usize; 4];
        for (i, &s) in parts.iter().enumerate() {
            load[s as usize] += costs[i];
            tasks[s as usize] += 1;
        }
        assert_eq!(load.iter().sum::<u64>(), 490);
        assert!(
            load.iter().max().unwrap() - load.iter().min().unwrap() <= 10,
            "{load:?}"
        );
        assert_eq!(tasks[parts[7] as usize], 4, "{tasks:?}");
        // Deterministic: the same list gives the same partition.
        assert_eq!(partition(&costs, 4), parts);
        // More shards than tasks: some shards are empty, none has a task twice.
        assert_eq!(partition(&[5, 5], 4), vec![0, 1]);
    }

    #[test]
    fn auto_reads_slurm_and_kubernetes() {
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(
            resolve("auto", env(&slurm)).unwrap(),
            Shard::new(2, 4).unwrap()
        );
        let k8s = [("JOB_COMPLETION_INDEX", "0"), ("MORPHTRACE_SHARDS", "5")];
        assert_eq!(
            resolve("auto", env(&k8s)).unwrap(),
            Shard::new(0, 5).unwrap()
        );
        assert_eq!(
            resolve("auto/3", env(&[("JOB_COMPLETION_INDEX", "2")])).unwrap(),
            Shard::new(2, 3).unwrap()
        );
        let e = resolve("auto", env(&[("JOB_COMPLETION_INDEX", "2")])).unwrap_err();
        assert!(e.contains("MORPHTRACE_SHARDS"), "{e}");
        let e = resolve("auto", env(&[])).unwrap_err();
        assert!(e.contains("--shard K/N"), "{e}");
        let e = resolve("auto/2", env(&[("JOB_COMPLETION_INDEX", "2")])).unwrap_err();
        assert!(e.contains("does not exist"), "{e}");
        assert_eq!(resolve("2/4", env(&[])).unwrap(), Shard::new(1, 4).unwrap());
    }

    #[test]
    fn each_shard_has_its_own_archive() {
        let s = Shard::new(1, 4).unwrap();
        assert_eq!(
            archive_path(Path::new("out/d.mtrace"), s),
            Path::new("out/d.shard-2-of-4.mtrace")
        );
        assert_eq!(archive_path(Path::new("d"), s), Path::new("d.shard-2-of-4"));
    }
}
