#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# merge of a shard copied without its runs/ (flakesweep(1), merge): "a log
# that is missing (a shard copied without its runs/) is skipped with a
# warning on standard error naming it, and its run line loses its log";
# the merge goes on: "The results.json and report.txt of out are rebuilt
# from it as report --rebuild does", "The exit status is that of a sweep
# with these results: 0, 1 when a test failed". flakesweep(5),
# first_failure: "log: The run's kept output, relative to the output
# directory, or null".
# A TAP command whose second test fails every run, swept as shards 1/2
# and 2/2 (--shard: "The unit of a shard is a package at one level"; the
# TAP driver has one package, so one shard holds its runs). Merged as they
# are, every run line keeps a log that the merge carries. Merged with the
# shard that ran copied without its runs/, a warning names each of its
# logs, no run line has a log, no log is carried, and the results are the
# same runs, failures and verdicts.
set -eu
T=$CHECK_TMPDIR
cd "$T"
cat >t.sh <<'SH'
#!/bin/sh
echo 1..2
echo "ok 1 - steady"
echo "not ok 2 - wobble"
echo "# wobble in run $FLAKESWEEP_RUN"
SH
chmod +x t.sh
for i in 1 2; do
	rc=0
	"$FLAKESWEEP" --driver tap --shard "$i/2" --cpu 1 --load 1 --count 3 --confirm 0 \
		--canaries 0 --ui none -o "s$i" -- ./t.sh >/dev/null 2>"err$i" || rc=$?
	[ "$rc" -le 1 ] || { cat "err$i"; echo "FAIL: shard $i/2: exit $rc"; exit 1; }
done
ran=$(grep -l '"type":"run"' s1/journal.jsonl s2/journal.jsonl)
ran=${ran%/journal.jsonl}
[ "$(echo "$ran" | wc -l)" = 1 ] || { echo "FAIL: runs in both shards of one package: $ran"; exit 1; }
[ -n "$(ls -A "$ran/runs")" ] || { echo "FAIL: shard $ran kept no log"; exit 1; }
other=s1
[ "$ran" = s2 ] || other=s2

rc=0
"$FLAKESWEEP" merge -o whole s1 s2 >whole.out 2>whole.err || rc=$?
[ "$rc" = 1 ] || { cat whole.err; echo "FAIL: merge of the shards: exit $rc, expected 1"; exit 1; }
if grep -F 'runs/' whole.err; then
	echo "FAIL: merge of whole shards warned of a log"; exit 1
fi

# The shard copied without its runs/.
cp -r "$ran" copy
rm -r copy/runs
rc=0
"$FLAKESWEEP" merge -o lost "$other" copy >lost.out 2>lost.err || rc=$?
[ "$rc" = 1 ] || { cat lost.err; echo "FAIL: merge without runs/: exit $rc, expected 1"; exit 1; }

python3 - "$ran" <<'PY'
import json, os, sys
ran = sys.argv[1]
bad = []
def journal(d):
    return [json.loads(l) for l in open(os.path.join(d, "journal.jsonl"))]
shard = [o for o in journal(ran) if o["type"] == "run"]
logs = [r["log"] for r in shard if "log" in r]
if len(logs) != 3:
    bad.append("the shard kept %d logs of 3 failing runs: %s" % (len(logs), logs))
err = [l for l in open("lost.err").read().splitlines() if "runs/" in l]
# Each missing log is named, by the directory it was looked for in.
for log in logs:
    name = "copy/" + log
    if not any(name in l for l in err):
        bad.append("no warning names %s: %s" % (name, err))
if len(err) != len(logs):
    bad.append("%d warnings of a log for %d missing logs: %s" % (len(err), len(logs), err))
for d, kept in (("whole", True), ("lost", False)):
    runs = [o for o in journal(d) if o["type"] == "run"]
    if len(runs) != len(shard):
        bad.append("%s: %d run lines, the shard has %d" % (d, len(runs), len(shard)))
    for r, s in zip(runs, shard):
        if ("log" in r) != kept:
            bad.append("%s: run %d: log %s" % (d, r["run"], r.get("log")))
        for key in ("fail", "lines", "ms", "began", "ended", "cpu", "load"):
            if r.get(key) != s.get(key):
                bad.append("%s: run %d: %s %s, the shard's %s" % (d, r["run"], key, r.get(key), s.get(key)))
        if kept and "log" in r:
            # Carried under the run's new number with the shard's bytes.
            got = open(os.path.join(d, r["log"]), "rb").read()
            if r["log"] != "runs/%d.log" % r["run"] or got != open(os.path.join(ran, s["log"]), "rb").read():
                bad.append("whole: run %d: log %s not the shard's %s" % (r["run"], r["log"], s["log"]))
    carried = os.listdir(os.path.join(d, "runs")) if os.path.isdir(os.path.join(d, "runs")) else []
    if not kept and carried:
        bad.append("lost: logs carried from nowhere: %s" % carried)
w = json.load(open("whole/results.json"))
l = json.load(open("lost/results.json"))
if w["summary"] != l["summary"]:
    bad.append("summary %s without logs, %s with" % (l["summary"], w["summary"]))
wt = {t["id"]: t for t in w["tests"]}
lt = {t["id"]: t for t in l["tests"]}
if sorted(wt) != sorted(lt):
    bad.append("tests %s without logs, %s with" % (sorted(lt), sorted(wt)))
for i in wt:
    if i not in lt:
        continue
    for key in ("verdict", "cells"):
        if wt[i][key] != lt[i][key]:
            bad.append("%s: %s %s without logs, %s with" % (i, key, lt[i][key], wt[i][key]))
    ff = lt[i].get("first_failure")
    if ff is not None and ff.get("log") is not None:
        bad.append("%s: first failure's log %s without logs" % (i, ff["log"]))
    if i.endswith("::wobble") and (wt[i]["first_failure"] or {}).get("log") is None:
        bad.append("%s: no first failure's log with the logs" % i)
if [t["verdict"] for t in l["tests"] if t["id"].endswith("::wobble")] != ["failing"]:
    bad.append("wobble: %s" % [(t["id"], t["verdict"]) for t in l["tests"]])
if "runs/" in open("lost/report.txt").read():
    bad.append("lost/report.txt names a log")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
