#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# flakesweep plan -o DIR writes the virtual sweep of a 256-core machine as
# a simulated sweep: a journal whose header says "simulated": true, with a
# run line for every run the plan counted, on the plan's lanes, and a
# results.json that says "simulated": true; each run line has its virtual
# start and end (began, ended) from the header's start. Every command that needs
# measured runs refuses it with exit 2, saying it is a plan's simulation:
# report (--rebuild and --results), merge, compare, quarantine list and
# check with --results, --resume, junit, verify and plan --durations.
set -eu
cd "$CHECK_TMPDIR"
sim=$CHECK_TMPDIR/sim
"$FLAKESWEEP" plan --cores 256 --cpu 1,2,4,8 --load 1,2 --count 20 --canaries 0 \
	--durations "$CHECK_SRCDIR/tests/fixtures/plan/dozen.json" --json -o "$sim" >plan.json
python3 - "$sim" plan.json <<'PY'
import json, os, sys
sim, plan = sys.argv[1:]
p = json.load(open(plan))
lines = [json.loads(l) for l in open(os.path.join(sim, "journal.jsonl"))]
def check(cond, what):
    if not cond:
        print("not ok: " + what)
        sys.exit(1)
h = lines[0]
check(h["type"] == "header" and h.get("simulated") is True, "the header says simulated")
check(h["machine"]["cores"] == 256, "the header's machine has 256 cores")
check(len(h["machine"]["lanes"]) == p["lanes"], "the header has the plan's lanes")
runs = [l for l in lines if l["type"] == "run"]
check(len(runs) == p["runs"], "a run line per run planned: %d of %d" % (len(runs), p["runs"]))
check(len({l["lane"] for l in runs}) == p["lanes"], "runs on every lane")
check(all(len(l["cores"]) == l["cpu"] for l in runs), "each run on its cpu's cores")
check(lines[-1]["type"] == "end" and lines[-1]["status"] == "complete", "an end line")
# Each run spawned and reaped at its virtual start and end, within the
# plan's wall time from the header's start: a view rebuilds the lanes.
import datetime
def ms(t):
    return int(datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ").replace(
        tzinfo=datetime.timezone.utc).timestamp() * 1000)
t0 = ms(h["started"])
check(all("began" in l and l["ended"] - l["began"] == l["ms"] for l in runs),
      "each run line has began and ended, ms apart")
check(min(l["began"] for l in runs) == t0, "the first run begins at the sweep's start")
wall = max(l["ended"] for l in runs) - t0
check(abs(wall - p["wall_s"] * 1000) <= 1, "the last run ends at the plan's wall time")
for lane in {l["lane"] for l in runs}:
    on = sorted((l["began"], l["ended"], l["cores"]) for l in runs if l["lane"] == lane)
    check(all(set(c) <= set(h["machine"]["lanes"][lane]) for _, _, c in on),
          "lane %d's runs on its cores" % lane)
d = json.load(open(os.path.join(sim, "results.json")))
check(d.get("simulated") is True, "results.json says simulated")
check(d["status"] == "complete", "results.json is complete")
print("ok: %d runs on %d lanes" % (len(runs), p["lanes"]))
PY
# A plan that cannot be played leaves no journal behind.
rc=0
"$FLAKESWEEP" plan --cores 4 --cpu 8 --durations "$CHECK_SRCDIR/tests/fixtures/plan/dozen.json" \
	-o nofit >/dev/null 2>err.txt || rc=$?
if [ "$rc" != 2 ] || [ -e nofit/journal.jsonl ]; then
	echo "not ok: a plan whose lanes do not fit exited $rc or left a journal"
	cat err.txt
	exit 1
fi
echo "a description" >desc.txt
refuse() {
	local rc=0
	"$FLAKESWEEP" "$@" >out.txt 2>err.txt </dev/null || rc=$?
	if [ "$rc" != 2 ] || ! grep -q "a plan's simulation" err.txt; then
		echo "not ok: flakesweep $* exited $rc:"
		cat err.txt
		exit 1
	fi
	echo "ok: flakesweep $1 $2 refuses it"
}
refuse report --rebuild "$sim"
refuse report --results "$sim/results.json" --test example.com/dozen/p00::TestA \
	--description desc.txt
refuse merge -o merged "$sim" "$sim"
refuse compare "$sim/results.json" "$sim/results.json"
refuse quarantine check --results "$sim/results.json"
refuse quarantine list --results "$sim/results.json"
refuse --resume "$sim"
refuse junit "$sim" -o junit.xml
refuse verify --test example.com/dozen/p00::TestA --results "$sim/results.json"
refuse plan --durations "$sim/results.json"
