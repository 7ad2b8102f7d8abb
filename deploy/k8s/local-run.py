#!/usr/bin/env python3
"""Runs deploy/k8s's Jobs the way Kubernetes would, on this machine without a cluster: checks the
manifests (an Indexed Job whose completions match MORPHTRACE_SHARDS, volumes that exist, the
merge reading what the shards write), then runs every completion index's container command with
the environment Kubernetes gives it (JOB_COMPLETION_INDEX), then the merge Job's command.

    deploy/k8s/local-run.py --bin DIR --results DIR [--seeds 1..2]

Paths inside the image are mapped: /opt/morphtrace -> this repository, /results -> --results,
and the binaries come from --bin. --seeds replaces the campaign's seeds (a smaller run).
Needs PyYAML (Debian python3-yaml)."""
import argparse
import os
import pathlib
import subprocess
import sys

import yaml

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent


def fail(msg):
    print(f"local-run.py: {msg}", file=sys.stderr)
    sys.exit(1)


def load(name):
    with open(HERE / name) as f:
        return yaml.safe_load(f)


def env_of(container):
    return {e["name"]: str(e["value"]) for e in container.get("env", [])}


def check_pod(job, name):
    spec = job["spec"]["template"]["spec"]
    volumes = {v["name"] for v in spec.get("volumes", [])}
    for c in spec["containers"]:
        for m in c.get("volumeMounts", []):
            if m["name"] not in volumes:
                fail(f"{name}: container {c['name']} mounts {m['name']}, which is not a volume")
    claims = {v["persistentVolumeClaim"]["claimName"] for v in spec["volumes"] if "persistentVolumeClaim" in v}
    pvc = load("results-pvc.yaml")
    if claims != {pvc["metadata"]["name"]}:
        fail(f"{name}: claims {claims}, but results-pvc.yaml defines {pvc['metadata']['name']}")
    if "ReadWriteMany" not in pvc["spec"]["accessModes"]:
        fail("results-pvc.yaml: the shards write at once: ReadWriteMany")
    return spec["containers"][0]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="directory with morphtrace-record and morphtrace-analyze")
    ap.add_argument("--results", required=True)
    ap.add_argument("--seeds", help="replace the campaign's --seeds")
    a = ap.parse_args()
    shards = load("shards-job.yaml")
    merge = load("merge-job.yaml")
    kust = load("kustomization.yaml")
    for f in kust["resources"]:
        if not (HERE / f).exists():
            fail(f"kustomization.yaml lists {f}, which does not exist")
    spec = shards["spec"]
    if spec.get("completionMode") != "Indexed":
        fail("shards-job.yaml: completionMode must be Indexed (JOB_COMPLETION_INDEX)")
    n = int(spec["completions"])
    if int(spec.get("parallelism", n)) > n:
        fail("shards-job.yaml: parallelism above completions")
    rec = check_pod(shards, "shards-job.yaml")
    mer = check_pod(merge, "merge-job.yaml")
    for what, c in (("shards-job.yaml", rec), ("merge-job.yaml", mer)):
        if env_of(c).get("MORPHTRACE_SHARDS") != str(n):
            fail(f"{what}: MORPHTRACE_SHARDS must equal the completions ({n})")
    args = list(rec["args"])
    for flag in ("--shard=auto", "--resume"):
        if flag not in args:
            fail(f"shards-job.yaml: the recorder needs {flag}")
    results = pathlib.Path(a.results).resolve()
    results.mkdir(parents=True, exist_ok=True)
    binaries = pathlib.Path(a.bin).resolve()

    def mapped(s):
        return s.replace("/opt/morphtrace", str(REPO)).replace("/results", str(results))

    args = [mapped(x) for x in args]
    if a.seeds:
        args = [f"--seeds={a.seeds}" if x.startswith("--seeds=") else x for x in args]
    record = binaries / "morphtrace-record"
    for index in range(n):
        env = dict(os.environ, JOB_COMPLETION_INDEX=str(index), **env_of(rec))
        print(f"local-run.py: completion index {index}: morphtrace-record {' '.join(args)}", file=sys.stderr)
        r = subprocess.run([str(record), *args], env=env)
        if r.returncode != 0:
            fail(f"completion index {index} exited {r.returncode}")
    script = mapped(" ".join(mer["args"]))
    env = dict(os.environ, **env_of(mer))
    env["PATH"] = f"{binaries}:{env['PATH']}"
    r = subprocess.run([*mer["command"], script], env=env)
    if r.returncode != 0:
        fail(f"the merge exited {r.returncode}")


if __name__ == "__main__":
    main()
