#!/usr/bin/env bash
# A throwaway single-node Slurm cluster for trying the scripts here and for morphtrace's test:
# munged with a generated key, slurmctld and slurmd in the foreground with a generated
# slurm.conf, everything under DIR, in a network namespace of its own (unshare: only loopback
# exists there, so the daemons' ports are reachable from nowhere else). Runs COMMAND with
# SLURM_CONF set, then stops the daemons:
#   deploy/slurm/local-cluster.sh DIR -- COMMAND [ARGS...]
# Needs root (for the namespace) and the Debian packages slurm-wlm and munge.
set -euo pipefail
dir=${1:?usage: local-cluster.sh DIR -- COMMAND...}
shift
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: local-cluster.sh DIR -- COMMAND..." >&2; exit 2; }
for tool in munged slurmctld slurmd sbatch unshare ip; do
  command -v "$tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
  command -v "$tool" >/dev/null 2>&1 || { echo "local-cluster.sh: $tool not found (scripts/setup.sh installs slurm-wlm and munge)" >&2; exit 1; }
done
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -z "${MORPHTRACE_IN_NETNS:-}" ]; then
  # Re-enter in a new network namespace; --kill-child ends the daemons with it.
  exec unshare --net --fork --kill-child env MORPHTRACE_IN_NETNS=1 bash "$0" "$dir" -- "$@"
fi
ip link set lo up
# Slurm binds its ports through getaddrinfo(AI_ADDRCONFIG), which finds nothing when 127.0.0.1 is
# the only address: a second one on loopback (still reachable from this namespace alone).
ip addr add 10.254.254.1/32 dev lo
user=$(id -un)
node=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
chmod 755 "$dir/munge"
key=$dir/munge/munge.key
[ -s "$key" ] || head -c 1024 /dev/urandom > "$key"
chmod 400 "$key"
socket=$dir/munge/munge.socket
cat > "$dir/slurm.conf" <<CONF
ClusterName=morphtrace-local
SlurmctldHost=$node(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
InactiveLimit=0
KillWait=10
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
pids=()
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop EXIT
munged --foreground --force --key-file="$key" --socket="$socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
  --seed-file="$dir/munge/munged.seed" &
pids+=($!)
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { echo "local-cluster.sh: munged did not start (see $dir/log/munged.log)" >&2; exit 1; }
slurmctld -D -i -f "$SLURM_CONF" >> "$dir/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" >> "$dir/log/slurmd.out" 2>&1 &
pids+=($!)
# Ready when the node is idle (slurmd registered with slurmctld).
for _ in $(seq 120); do
  state=$(sinfo -h -n "$node" -o '%t' 2>/dev/null || true)
  case "$state" in idle*|mix*|alloc*) break ;; esac
  sleep 0.5
done
case "$state" in
  idle*|mix*|alloc*) ;;
  *) echo "local-cluster.sh: the node did not come up (state: ${state:-none}); logs in $dir/log" >&2; exit 1 ;;
esac
echo "local-cluster.sh: single-node cluster up ($node, $cpus CPUs), SLURM_CONF=$SLURM_CONF" >&2
"$@"
