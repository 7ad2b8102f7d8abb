//! Shards end to end: `run --shard K/N` on real engines, `morphtrace-analyze merge`, and a real
//! single-node Slurm (deploy/slurm) running a job array of shards. The merged archive must hold
//! what the unsharded campaign holds, session for session.

mod common;
use common::root;

use common::{analyzer, normalized};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const RECORD: &str = env!("CARGO_BIN_EXE_morphtrace-record");

fn ok(o: &Output, what: &str) {
    assert!(
        o.status.success(),
        "{what} failed ({}):\n{}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The campaign of these tests: every program of the DBDB fixture, two seeds.
fn campaign(engines: &[&str], strategy: &str) -> Vec<String> {
    let mut a: Vec<String> = vec!["run".into()];
    for e in engines {
        a.extend(["--engine".into(), e.to_string()]);
    }
    a.extend(
        [
            "--strategy",
            strategy,
            "--seeds",
            "1..2",
            "--jobs",
            "1",
            "--name",
            "shard test",
            "--corpus",
        ]
        .map(String::from),
    );
    a.push(root().join("corpus/dbdb/manual").display().to_string());
    a
}

fn record(args: &[String], extra: &[&str]) -> Output {
    Command::new(RECORD)
        .args(args)
        .args(extra)
        .output()
        .unwrap()
}

fn merge(shards: &[PathBuf], out: &Path, extra: &[&str]) -> Output {
    Command::new(analyzer())
        .arg("merge")
        .args(shards)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// What `info --json` says of an archive, without what differs between any two recordings
/// (path, size, time, host, command line).
fn info(path: &Path) -> serde_json::Value {
    let o = Command::new(analyzer())
        .args(["info", "--json", "--programs", "100"])
        .arg(path)
        .output()
        .unwrap();
    ok(&o, "info");
    let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let a = &mut v[0];
    for k in [
        "path",
        "file_len",
        "started_at_ms",
        "host",
        "command_line",
        "recovery",
    ] {
        a.as_object_mut().unwrap().remove(k);
    }
    v
}

fn assert_same_campaign(merged: &Path, whole: &Path) {
    let (m, w) = (normalized(merged), normalized(whole));
    assert!(!w.is_empty());
    assert_eq!(
        m.keys().collect::<Vec<_>>(),
        w.keys().collect::<Vec<_>>(),
        "the merged archive holds other sessions than the unsharded one"
    );
    for (id, s) in &w {
        assert_eq!(
            &m[id], s,
            "session {id} differs between merged and unsharded"
        );
    }
    assert_eq!(info(merged), info(whole));
}

#[test]
fn shards_merge_into_the_unsharded_campaign_and_a_cut_shard_is_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let args = campaign(&["node"], "random");
    let whole = dir.path().join("whole.mtrace");
    ok(
        &record(&args, &["--out", whole.to_str().unwrap()]),
        "the unsharded run",
    );
    let out = dir.path().join("c.mtrace");
    let mut shards = Vec::new();
    for k in 1..=3 {
        let o = record(
            &args,
            &["--out", out.to_str().unwrap(), "--shard", &format!("{k}/3")],
        );
        ok(&o, "a shard");
        assert!(
            String::from_utf8_lossy(&o.stdout).contains(&format!("shard {k}/3: ")),
            "{}",
            String::from_utf8_lossy(&o.stdout)
        );
        shards.push(dir.path().join(format!("c.shard-{k}-of-3.mtrace")));
    }
    // 4 programs × 2 seeds = 8 tasks, dealt by cost: every shard has some.
    for s in &shards {
        assert!(!normalized(s).is_empty(), "{} is empty", s.display());
    }

    // A missing shard: refused, naming it; the same set with --allow-missing merges what is there.
    let merged = dir.path().join("merged.mtrace");
    let o = merge(&shards[..2], &merged, &[]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("missing shards: 3/3"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!merged.exists());
    let partial = dir.path().join("partial.mtrace");
    ok(
        &merge(&shards[..2], &partial, &["--allow-missing"]),
        "merge --allow-missing",
    );
    assert!(normalized(&partial).len() < normalized(&whole).len());
    // ... and says so: `info` shows what the merge went without; a complete merge shows nothing.
    let info = |a: &Path| {
        let o = Command::new(analyzer())
            .arg("info")
            .arg(a)
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    let said = info(&partial);
    assert!(
        said.contains("INCOMPLETE") && said.contains("missing shards: 3/3"),
        "{said}"
    );
    assert!(!info(&whole).contains("INCOMPLETE"));

    // A shard given twice (a retried array task) is reported and kept once.
    let o = merge(
        &[shards.clone(), vec![shards[0].clone()]].concat(),
        &merged,
        &[],
    );
    ok(&o, "merge with a duplicate");
    assert!(String::from_utf8_lossy(&o.stdout).contains("duplicated shard 1/3"));
    assert_same_campaign(&merged, &whole);
    std::fs::remove_file(&merged).unwrap();

    // A shard cut in its last session (a preempted task): the merge names the missing task
    // and --resume on that shard completes it.
    let last = &shards[2];
    let cut = morphtrace_schema::ArchiveReader::open(last)
        .unwrap()
        .session_frames()
        .last()
        .unwrap()
        .offset as usize
        + 40;
    let bytes = std::fs::read(last).unwrap();
    std::fs::write(last, &bytes[..cut]).unwrap();
    let o = merge(&shards, &merged, &[]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("shard 3/3") && err.contains("--resume"),
        "{err}"
    );
    let o = record(
        &args,
        &["--out", out.to_str().unwrap(), "--shard", "3/3", "--resume"],
    );
    ok(&o, "resuming the cut shard");
    ok(&merge(&shards, &merged, &[]), "merge after the resume");
    assert_same_campaign(&merged, &whole);

    // Shards of another campaign (other seeds) do not merge with these.
    let other = dir.path().join("o.mtrace");
    let mut args2 = args.clone();
    let i = args2.iter().position(|a| a == "1..2").unwrap();
    args2[i] = "3".into();
    ok(
        &record(
            &args2,
            &["--out", other.to_str().unwrap(), "--shard", "1/3"],
        ),
        "a shard of another campaign",
    );
    let o = merge(
        &[shards[0].clone(), dir.path().join("o.shard-1-of-3.mtrace")],
        &dir.path().join("mixed.mtrace"),
        &[],
    );
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("not shards of one campaign") && err.contains("seeds"),
        "{err}"
    );
    // An unsharded archive is not a shard.
    let o = merge(
        std::slice::from_ref(&whole),
        &dir.path().join("x.mtrace"),
        &[],
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a shard"));
}

/// deploy/slurm end to end: a real slurmctld, slurmd and munged (deploy/slurm/local-cluster.sh,
/// in a network namespace of their own), a 4-task job array of a differential campaign and the
/// dependent merge job; the merged archive equals the unsharded run's.
#[test]
fn a_slurm_job_array_of_four_shards_merges_into_the_unsharded_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let args = campaign(&["chromium", "node"], "differential");
    let whole = dir.path().join("whole.mtrace");
    ok(
        &record(&args, &["--out", whole.to_str().unwrap()]),
        "the unsharded run",
    );
    let results = dir.path().join("results");
    let slurm = root().join("deploy/slurm");
    let o = Command::new("bash")
        .arg(slurm.join("local-cluster.sh"))
        .arg(dir.path().join("cluster"))
        .arg("--")
        .arg("bash")
        .arg(slurm.join("submit.sh"))
        .args(["-n", "4", "-w", "-o"])
        .arg(&results)
        .arg("--")
        .args(&args)
        .env("MORPHTRACE_RECORD", RECORD)
        .env("MORPHTRACE_ANALYZE", analyzer())
        .output()
        .unwrap();
    let logs = std::fs::read_dir(&results)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "log"))
                .map(|e| {
                    format!(
                        "== {}\n{}",
                        e.path().display(),
                        std::fs::read_to_string(e.path()).unwrap_or_default()
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    assert!(
        o.status.success(),
        "the Slurm run failed ({}):\n{}\n{}\n{logs}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    for k in 1..=4 {
        let shard = results.join(format!("campaign.shard-{k}-of-4.mtrace"));
        assert!(shard.exists(), "{} missing\n{logs}", shard.display());
    }
    assert_same_campaign(&results.join("campaign.mtrace"), &whole);
    assert!(results.join("info.txt").exists());
}

/// deploy/k8s as Kubernetes would run it (deploy/k8s/local-run.py: the manifests checked, every
/// completion index's container command run with its JOB_COMPLETION_INDEX, then the merge Job's
/// command), on one seed instead of fifty; the merged archive equals the unsharded run's.
#[test]
fn the_kubernetes_indexed_job_runs_its_shards_and_merges_them() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let bin = Path::new(RECORD).parent().unwrap();
    let o = Command::new("python3")
        .arg(root().join("deploy/k8s/local-run.py"))
        .arg("--bin")
        .arg(bin)
        .arg("--results")
        .arg(&results)
        .args(["--seeds", "1..1"])
        .output()
        .unwrap();
    ok(&o, "deploy/k8s/local-run.py");
    for k in 1..=4 {
        assert!(results
            .join(format!("campaign.shard-{k}-of-4.mtrace"))
            .exists());
    }
    // The same campaign unsharded, from the manifest's own arguments.
    let whole = dir.path().join("whole.mtrace");
    let o = record(
        &[
            "run",
            "--engine=chromium",
            "--engine=node",
            "--strategy=differential",
            "--seeds=1..1",
            "--jobs=2",
            "--name=k8s differential campaign",
        ]
        .map(String::from),
        &[
            &format!("--corpus={}", root().join("corpus/dbdb/manual").display()),
            &format!("--out={}", whole.display()),
        ],
    );
    ok(&o, "the unsharded run");
    assert_same_campaign(&results.join("campaign.mtrace"), &whole);
    assert!(std::fs::read_to_string(results.join("info.txt"))
        .unwrap()
        .contains("k8s differential campaign"));
}
