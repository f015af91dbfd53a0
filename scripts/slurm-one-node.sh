#!/usr/bin/env bash
# examples/slurm on a real scheduler: install Debian's slurm-wlm and munge (as root, if missing),
# start a one-node cluster on this machine (munged, slurmctld, slurmd; every file, socket and port
# of it in a temporary directory, nothing under /etc touched), then:
#   1. submit examples/slurm/sweep.sbatch as an array of 4 shards with a dependent collect
#      (collect.sbatch, --dependency=afterany);
#   2. cancel task 3 (scancel) once it has finished a run and is in the middle of the next: the
#      sweep must stop at once (SIGTERM reaches node: no wrapper), keeping its finished run;
#      and requeue task 2 (scontrol requeue) once it has finished a run: its second start must
#      keep that run and run only the rest;
#   3. the collect must refuse the incomplete sweep (exit 1, naming the missing runs);
#   4. resubmit task 3 alone (--array=3) with a collect after it: it runs only the missing runs;
#   5. the merged tables must be the unsharded run's: samples.parquet and samples.csv byte for
#      byte, runs.csv with its timing columns left out.
# Exits 0 when every check holds; stops every daemon it started and removes its directory.
# Usage: bash scripts/slurm-one-node.sh   (MURMUR_SLURM_KEEP=1 keeps the directory; exit 77: the
# packages could not be installed)
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
export DEBIAN_FRONTEND=noninteractive
t0=$SECONDS
say() { printf '[slurm-one-node %3ds] %s\n' $((SECONDS - t0)) "$*"; }
fail() {
  say "FAIL: $*"
  exit 1
}

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  [ "$(id -u)" = 0 ] || fail "slurm-wlm and munge are not installed and this is not root"
  say "installing slurm-wlm and munge (Debian)"
  # no packages to be had (no mirror): exit 77, which the test reports as a skip, not a failure
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null; }; then
    say "SKIP: apt-get could not install slurm-wlm and munge"
    exit 77
  fi
fi
say "$(slurmctld -V), munge $(dpkg-query -W -f '${Version}' munge)"

D=$(mktemp -d /tmp/murmur-slurm-XXXXXX)
chmod 755 "$D"
mkdir -p "$D/state" "$D/spool" "$D/munge" "$D/shared" "$D/work"
MUNGE_PID=
cleanup() {
  local rc=$?
  # the jobs first (a job being cancelled holds slurmd until its processes are gone), then the
  # daemons this script started, by their pid files: SIGTERM, and SIGKILL after 10 s
  if [ -f "$D/slurm.conf" ]; then
    export SLURM_CONF=$D/slurm.conf
    scancel --user="$(id -un)" 2>/dev/null || true
    for _ in $(seq 20); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 1; done
  fi
  local pids=()
  for f in "$D/slurmd.pid" "$D/slurmctld.pid"; do [ -f "$f" ] && pids+=("$(cat "$f")"); done
  [ -n "$MUNGE_PID" ] && pids+=("$MUNGE_PID")
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for _ in $(seq 20); do
    alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.5
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "$rc" != 0 ]; then
    for f in "$D"/*.log "$D"/work/*.log; do
      [ -f "$f" ] && { echo "--- $f (last 30 lines)"; tail -n 30 "$f"; }
    done
  fi
  if [ "${MURMUR_SLURM_KEEP:-0}" = 1 ]; then say "kept $D"; else rm -rf "$D"; fi
  exit "$rc"
}
trap cleanup EXIT

# munge: its own key, socket and files in $D
dd if=/dev/urandom of="$D/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$D/munge/munge.key"
chmod 711 "$D/munge" # the socket reachable, the key not readable
munged --force --foreground --key-file="$D/munge/munge.key" --socket="$D/munge/munge.sock" \
  --pid-file="$D/munge/munged.pid" --log-file="$D/munge.log" --seed-file="$D/munge/seed" 2>>"$D/munge.log" &
MUNGE_PID=$!
for _ in $(seq 50); do [ -S "$D/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$D/munge/munge.sock" ] || fail "munged did not start"

# the node as this machine is: its CPUs and 90 % of its memory
HOST=$(hostname -s)
CPUS=$(nproc)
MEM_MB=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1024 * 9 / 10))
PORT=${MURMUR_SLURM_PORT:-26817}
cat >"$D/slurm.conf" <<EOF
ClusterName=murmur-test
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# a requeued job waits out its old credential's lifetime (cred_expire, default 120 s) before it
# starts again: 20 s here, so the test does not sit out two minutes
AuthInfo=socket=$D/munge/munge.sock,cred_expire=20
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdParameters=config_overrides
KillWait=10
MinJobAge=3600
SchedulerParameters=sched_interval=2
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM_MB State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$D/slurm.conf
slurmctld -i
slurmd
for _ in $(seq 60); do
  state=$(sinfo -h -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 1
done
[ "$state" = idle ] || fail "the node did not come up (sinfo: ${state:-nothing})"
say "cluster up: node $HOST, $CPUS CPUs, ${MEM_MB} MB, partition test"

# job state of one job or array task: PENDING, RUNNING, COMPLETED, CANCELLED, FAILED, …
job_state() { scontrol -o show job "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
job_exit() { scontrol -o show job "$1" | sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p' | head -1; }
wait_gone() { # until no job of this id is pending or running
  for _ in $(seq "${2:-600}"); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 1
  done
  fail "job $1 still in the queue after ${2:-600} s"
}

SWEEP=$REPO/test/experiments/slurm-sweep.yaml
OUT=$D/shared/couzin
export MURMUR=$REPO/bin/murmur.js
RUNS=$(node "$MURMUR" sweep "$SWEEP" --dry-run --json | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).runs')
SHARDS=4
say "sweep $SWEEP: $RUNS runs, $SHARDS shards"
cd "$D/work"

# 1. the array and a collect that waits for it
A=$(sbatch --parsable -c 1 --array=0-$((SHARDS - 1)) "$REPO/examples/slurm/sweep.sbatch" "$SWEEP" "$OUT" $SHARDS)
C1=$(sbatch --parsable --dependency=afterany:"$A" "$REPO/examples/slurm/collect.sbatch" "$OUT")
say "submitted array job $A (tasks 0-$((SHARDS - 1)), -c 1) and collect $C1 (afterany:$A)"

# 2. cancel task 3 once its first run (run 3) is written and the next one has started
first=$(printf '%s/runs/run-%06d.json' "$OUT" 3)
for _ in $(seq 1500); do
  [ -f "$first" ] && break
  sleep 0.2
done
[ -f "$first" ] || fail "task 3 wrote no run in 300 s"
before=$(ls "$OUT/runs" | wc -l)
pgrep -f -- "--shard 3/$SHARDS" >/dev/null || fail "task 3's sweep is not running"
cancelled_at=$SECONDS
scancel "${A}_3"
# the sweep process must end of itself on SIGTERM, well before Slurm's SIGKILL (KillWait=10 s); a
# process that ignored it would be killed without a word in its log
for _ in $(seq 60); do
  pgrep -f -- "--shard 3/$SHARDS" >/dev/null || break
  sleep 0.25
done
stop_s=$((SECONDS - cancelled_at))
pgrep -f -- "--shard 3/$SHARDS" >/dev/null && fail "task 3's node process survived scancel for 15 s"
s=$(job_state "${A}_3")
[ "$s" = CANCELLED ] || fail "task 3 is $s after scancel, not CANCELLED"
log3=$D/work/murmur-sweep-${A}_3.log
grep -q 'interrupted' "$log3" || fail "task 3's sweep did not report the interruption: $(cat "$log3")"
[ -f "$first" ] || fail "the finished run 3 was lost"
say "scancel ${A}_3 with $before run files written: CANCELLED, its node process gone within ${stop_s} s (KillWait 10 s)"
say "task 3's log: $(grep -h 'murmur sweep' "$log3" | tail -1)"

# 2b. requeue task 2 once its first run (run 2) is written: Slurm stops it (SIGTERM) and starts it
# again; the second start must keep run 2 and run only the rest (the log is appended to)
second=$(printf '%s/runs/run-%06d.json' "$OUT" 2)
for _ in $(seq 1500); do
  [ -f "$second" ] && break
  sleep 0.2
done
[ -f "$second" ] || fail "task 2 wrote no run in 300 s"
scontrol requeue "${A}_2" || fail "scontrol requeue ${A}_2 refused"
say "scontrol requeue ${A}_2 with run 2 written"

# 3. the collect runs when every task has ended, and refuses the incomplete sweep
wait_gone "$A"
wait_gone "$C1"
[ "$(job_state "$C1")" = FAILED ] || fail "collect $C1 is $(job_state "$C1"), not FAILED, on an incomplete sweep"
missing=$(grep -o '[0-9]* of [0-9]* runs are missing ([0-9, ]*)' "$D/work/murmur-collect-$C1.log" || true)
[ -n "$missing" ] || fail "collect did not list the missing runs: $(cat "$D/work/murmur-collect-$C1.log")"
say "collect $C1: FAILED, exit $(job_exit "$C1"): $missing"
for i in 0 1 2; do
  [ "$(job_state "${A}_$i")" = COMPLETED ] || fail "task $i is $(job_state "${A}_$i")"
done
log2=$D/work/murmur-sweep-${A}_2.log
restarts=$(scontrol -o show job "${A}_2" | sed -n 's/.* Restarts=\([0-9]*\).*/\1/p')
[ "${restarts:-0}" -ge 1 ] || fail "task 2 was not requeued (Restarts=${restarts:-?})"
grep -Eq '[1-9][0-9]* finished before, kept' "$log2" || fail "the requeued task 2 kept no finished run: $(cat "$log2")"
say "task ${A}_2 requeued (Restarts=$restarts): first $(grep -h 'finished before' "$log2" | head -1 | sed 's/^murmur sweep [^:]*: //')"
say "  then $(grep -h 'finished before' "$log2" | tail -1 | sed 's/^murmur sweep [^:]*: //')"

# 4. resubmit task 3 alone: it runs only its missing runs; then collect
B=$(sbatch --parsable -c 1 --array=3 "$REPO/examples/slurm/sweep.sbatch" "$SWEEP" "$OUT" $SHARDS)
C2=$(sbatch --parsable --dependency=afterok:"$B" "$REPO/examples/slurm/collect.sbatch" "$OUT")
say "resubmitted task 3 as job $B (--array=3) and collect $C2 (afterok:$B)"
wait_gone "$B"
wait_gone "$C2"
[ "$(job_state "${B}_3")" = COMPLETED ] || fail "the resubmitted task is $(job_state "${B}_3")"
[ "$(job_state "$C2")" = COMPLETED ] || fail "collect $C2 is $(job_state "$C2"): $(cat "$D/work/murmur-collect-$C2.log")"
say "task ${B}_3: $(grep -h 'murmur sweep' "$D/work/murmur-sweep-${B}_3.log" | tail -1)"
grep -q "shard 3/$SHARDS" "$D/work/murmur-sweep-${B}_3.log" || fail "the resubmitted task ran another shard"
grep -Eq '[1-9][0-9]* finished before, kept' "$D/work/murmur-sweep-${B}_3.log" || fail "the resubmitted task kept no finished run"
say "collect $C2: $(tail -1 "$D/work/murmur-collect-$C2.log")"

# 5. the same sweep unsharded, on this machine, outside Slurm
say "the unsharded run"
node "$MURMUR" sweep "$SWEEP" --out "$D/unsharded" --jobs "$CPUS" >/dev/null 2>"$D/unsharded.log"
for f in samples.parquet samples.csv; do
  cmp "$OUT/$f" "$D/unsharded/$f" || fail "$f differs from the unsharded run's"
  say "$f identical: sha256 $(sha256sum <"$OUT/$f" | cut -c1-16)…, $(stat -c %s "$OUT/$f") bytes"
done
# runs.csv: every column but the timing ones (wallMs, stepMs, agentStepsPerSec)
untimed() {
  node -e '
    const rows = require("fs").readFileSync(process.argv[1], "utf8").trimEnd().split("\n").map((l) => l.split(","));
    const keep = rows[0].map((h, i) => ["wallMs", "stepMs", "agentStepsPerSec"].includes(h) ? -1 : i).filter((i) => i >= 0);
    console.log(rows.map((r) => keep.map((i) => r[i]).join(",")).join("\n"));' "$1"
}
[ "$(untimed "$OUT/runs.csv")" = "$(untimed "$D/unsharded/runs.csv")" ] || fail "runs.csv differs beyond its timing columns"
say "runs.csv identical but for wallMs, stepMs, agentStepsPerSec ($(($(wc -l <"$OUT/runs.csv") - 1)) runs)"
say "PASS"
