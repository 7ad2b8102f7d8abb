#!/usr/bin/env bash
# Runs the campaign on the current kubectl context: namespace, results volume and the Indexed Job
# of shards (kustomization.yaml), waits for every shard, then runs the merge Job and prints its
# log. The image (Containerfile) must be where the cluster pulls from.
#   deploy/k8s/run.sh [TIMEOUT]      (default 24h)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
timeout=${1:-24h}
kubectl apply -k "$here"
kubectl -n morphtrace wait --for=condition=complete job/morphtrace-shards --timeout="$timeout"
kubectl -n morphtrace delete job morphtrace-merge --ignore-not-found
kubectl apply -f "$here/merge-job.yaml"
kubectl -n morphtrace wait --for=condition=complete job/morphtrace-merge --timeout=2h
kubectl -n morphtrace logs job/morphtrace-merge
