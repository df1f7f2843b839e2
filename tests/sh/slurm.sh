#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 600
# data/slurm on a real single-node Slurm: munged, slurmctld and slurmd
# start here with their own key, socket, configuration, ports and state
# under the scratch directory (root is needed to run slurmd), and are
# stopped by pid afterwards. The array job sweeps tests/fixtures/shards in
# two shards, one CPU each, called as data/slurm/README.md says; the merge
# job, held until both tasks ended well, merges them. The merged cells
# equal a sweep of the same fixture on this machine, and each shard's lanes
# lie inside the CPU set Slurm gave its task.
set -eu
for p in munged slurmctld slurmd sbatch squeue; do
	command -v $p >/dev/null || { echo "SKIP $p not installed (slurm-wlm, munge)"; exit 77; }
done
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP slurmd needs root"; exit 77; }
[ "$(basename "$FLAKESWEEP")" = flakesweep ] || { echo "SKIP FLAKESWEEP is not named flakesweep"; exit 77; }
ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || { echo "SKIP two CPUs needed"; exit 77; }

s=$CHECK_TMPDIR/slurm
mkdir -p "$s/state" "$s/spool" "$s/log"
pids=""
stop() {
	local f
	for f in "$s"/slurmd.pid "$s"/slurmctld.pid "$s"/munged.pid; do
		[ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
	done
	sleep 1
	for f in "$s"/slurmd.pid "$s"/slurmctld.pid "$s"/munged.pid; do
		[ -s "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null || true
	done
}
trap stop EXIT

# munge: its own key and socket.
dd if=/dev/urandom of="$s/munge.key" bs=1024 count=1 status=none
chmod 0400 "$s/munge.key"
munged --force --key-file="$s/munge.key" --socket="$s/munge.sock" \
	--pid-file="$s/munged.pid" --log-file="$s/log/munged.log" --seed-file="$s/munge.seed"

read -r p1 p2 < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
node=$(slurmd -C | awk 'NR == 1')
host=$(hostname -s)
cat >"$s/slurm.conf" <<CONF
ClusterName=flakesweep
SlurmctldHost=$host
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$s/munge.sock
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/log/slurmctld.log
SlurmdLogFile=$s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
$node State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$s/slurm.conf
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for i in $(seq 60); do
	state=$(sinfo -h -o %t 2>/dev/null | head -1)
	[ "$state" = idle ] && break
	sleep 1
done
[ "$state" = idle ] || { echo "the node is '$state', not idle"; tail -20 "$s"/log/*.log; exit 1; }

work=$CHECK_TMPDIR/proj
cp -r "$CHECK_SRCDIR/tests/fixtures/shards" "$work"
cd "$work"
export PATH=$(dirname "$FLAKESWEEP"):$PATH OUT=$CHECK_TMPDIR/out
opts="--cpu 1 --load 1 --count 3 --confirm 2 --no-race"
t0=$(date +%s.%N)
jid=$(sbatch --parsable --array=1-2 --cpus-per-task=1 --chdir="$work" \
	--output="$s/log/sweep-%a.out" "$CHECK_SRCDIR/data/slurm/sweep.sbatch" $opts ./...)
mid=$(sbatch --parsable --dependency=afterok:"$jid" --chdir="$work" \
	--output="$s/log/merge.out" "$CHECK_SRCDIR/data/slurm/merge.sbatch")
for i in $(seq 400); do
	[ -z "$(squeue -h -j "$jid,$mid" 2>/dev/null)" ] && break
	sleep 1
done
t1=$(date +%s.%N)
[ -z "$(squeue -h -j "$jid,$mid")" ] || { squeue; echo "jobs still queued"; exit 1; }
[ -s "$OUT/merged/results.json" ] || {
	tail -30 "$s"/log/sweep-*.out "$s"/log/merge.out "$s"/log/slurmctld.log; exit 1; }
grep -q '^merged from 2 shards' "$s/log/merge.out"

# The same sweep on this machine, one lane of one CPU.
rc=0
"$FLAKESWEEP" $opts --keep $((ncpu - 1)) --ui none -o "$CHECK_TMPDIR/whole" ./... >/dev/null 2>&1 ||
	rc=$?
[ "$rc" = 1 ] || { echo "whole sweep: exit $rc"; exit 1; }
python3 - "$OUT" "$CHECK_TMPDIR/whole" "$t0" "$t1" <<'PY'
import json, os, sys
out, whole, t0, t1 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
def cells(r):
    return {(t["id"], c["phase"], c["cpu"], c["load"]): (c["runs"], c["failures"], c["hangs"])
            for t in r["tests"] for c in t["cells"]}
m = json.load(open(os.path.join(out, "merged", "results.json")))
w = json.load(open(os.path.join(whole, "results.json")))
check(cells(m) == cells(w), "merged cells equal the whole sweep's")
check(m["summary"] == w["summary"], "summary %s vs %s" % (m["summary"], w["summary"]))
# 5 packages x 3 runs; TestAlwaysFails and TestNeedsTwoCPUs confirmed 2 times.
check(m["summary"]["runs"] == 19, "19 runs, got %d" % m["summary"]["runs"])
check(m["config"]["shard"]["merged"] == [1, 2], "both shards merged")
cores = []
for i in (1, 2):
    h = json.loads(open(os.path.join(out, "shard-%d" % i, "journal.jsonl")).readline())
    check(h["config"]["shard"]["index"] == i, "shard-%d is shard %d/2" % (i, i))
    check(h["machine"]["cores"] == 1, "shard %d had the one CPU of its task: %s" % (i, h["machine"]))
    cores.append(h["machine"]["lanes"][0][0])
check(cores[0] != cores[1], "the two tasks ran on different CPUs: %s" % cores)
# What Slurm costs: from submission to the first shard's start, and from the
# last shard's end to the merged report (the merge job's wait and run).
marks = []
for i in (1, 2):
    for line in open(os.path.join(out, "shard-%d" % i, "journal.jsonl")):
        if '"type":"phase"' in line:
            marks.append(json.loads(line)["at_ms"] / 1000)
print("# submission to first start %.1f s; sweeps %.1f s; last end to merged report %.1f s"
      % (min(marks) - t0, max(marks) - min(marks), t1 - max(marks)))
PY
echo ok
