#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 600
# Shards: tests/fixtures/shards (five Go packages whose results depend only
# on the cores a run has) swept whole, in 2 shards and in 3 shards; each
# split merges into cells equal to the whole sweep's, run for run. Adding
# a package moves no other one between shards, with and without
# --durations. merge refuses another configuration, a shard given twice
# and a sweep that was not sharded; merging a merge with the last shard, or
# merging twice, gives the same results.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
work=$CHECK_TMPDIR/proj
cp -r "$CHECK_SRCDIR/tests/fixtures/shards" "$work"
cd "$work"
out=$CHECK_TMPDIR/out
sweep() { # NAME [OPTIONS...]
	local name=$1 rc=0
	shift
	"$FLAKESWEEP" --cpu 1,2 --load 1 --count 1 --confirm 2 --no-race --keep 0 --ui none \
		-o "$out/$name" "$@" ./... >"$out/$name.txt" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat "$out/$name.txt"; echo "sweep $name: exit $rc, expected 1"; exit 1; }
}
mkdir -p "$out"
sweep all
for i in 1 2; do sweep s2-$i --shard $i/2; done
for i in 1 2 3; do sweep s3-$i --shard $i/3; done
merge() { # OUT DIR... : a merge with failing tests exits 1, as the sweep did
	local name=$1 rc=0
	shift
	"$FLAKESWEEP" merge -o "$out/$name" "$@" >"$out/$name.txt" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat "$out/$name.txt"; echo "merge $name: exit $rc, expected 1"; exit 1; }
}
merge m2 "$out/s2-2" "$out/s2-1"
merge m3 "$out/s3-1" "$out/s3-3" "$out/s3-2"
# A merge of a merge and the last shard, and a merge of a merge.
merge m12 "$out/s3-1" "$out/s3-2"
merge m3b "$out/m12" "$out/s3-3"
merge m3c "$out/m3"
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
def load(name):
    return json.load(open(os.path.join(out, name, "results.json")))
def cells(r):
    return {(t["id"], c["phase"], c["cpu"], c["load"]): (c["runs"], c["failures"], c["hangs"])
            for t in r["tests"] for c in t["cells"]}
whole = load("all")
# 5 packages x 2 pairs x 1 run; 3 failed tests x 2 pairs x 2 confirm runs.
# One sweep run a package and pair: no run overlaps another of its package,
# so no test gets alone cells (those depend on the machine's timing).
check(whole["summary"]["runs"] == 22, "whole: 22 runs, got %d" % whole["summary"]["runs"])
check((whole["summary"]["flaky"], whole["summary"]["failing"]) == (2, 1), "whole verdicts")
want = cells(whole)
check(want[("example.com/shards/bravo::TestNeedsTwoCPUs", "sweep", 1, 1)] == (1, 1, 0),
      "bravo fails at cpu 1")
check(want[("example.com/shards/bravo::TestNeedsTwoCPUs", "confirm", 2, 1)] == (2, 0, 0),
      "bravo passes at cpu 2")
shards = {}
for n in (2, 3):
    seen = []
    for i in range(1, n + 1):
        r = load("s%d-%d" % (n, i))
        check(r["config"]["shard"]["index"] == i and r["config"]["shard"]["count"] == n,
              "config.shard of s%d-%d" % (n, i))
        seen += [p["package"] for p in r["packages"]]
    check(sorted(seen) == sorted(p["package"] for p in whole["packages"]),
          "%d shards sweep every package once: %s" % (n, seen))
for name, n in (("m2", 2), ("m3", 3), ("m3b", 3), ("m3c", 3)):
    m = load(name)
    check(cells(m) == want, "%s: cells equal the whole sweep's" % name)
    check(m["summary"] == whole["summary"], "%s: summary %s" % (name, m["summary"]))
    check(m["status"] == "complete", name + " complete")
    check(m["config"]["shard"]["merged"] == list(range(1, n + 1)), name + " config.shard.merged")
    check(sorted(x["shard"]["index"] for x in m["machines"]) == list(range(1, n + 1)),
          name + " machines")
    runs = {p["package"]: p["runs"] for p in m["packages"]}
    check(runs == {p["package"]: p["runs"] for p in whole["packages"]}, name + " package runs")
check(open(os.path.join(out, "m3", "results.json")).read() ==
      open(os.path.join(out, "m3c", "results.json")).read().replace(
          os.path.join(out, "m3c"), os.path.join(out, "m3")), "merging a merge changes nothing")
check(cells(load("m3b")) == cells(load("m3")), "merge of a merge and a shard")
# A merge missing a shard says so.
check(load("m12")["status"] == "partial", "m12 (2 of 3 shards): status " + load("m12")["status"])
PY
grep -q '^merged from 3 shards; each confirmed the failures of its own packages:$' "$out/m3/report.txt"
grep -q '^flakesweep report (partial)$' "$out/m12/report.txt" || { cat "$out/m12/report.txt"; exit 1; }
grep -q '^merged from 2 of 3 shards; missing: 3/3$' "$out/m12/report.txt" ||
	{ cat "$out/m12/report.txt"; exit 1; }
# Every run's log came along: the first failures' logs exist in the merge.
for f in $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(" ".join(t["first_failure"]["log"] for t in r["tests"] if t.get("first_failure") and t["first_failure"].get("log")))' "$out/m3/results.json"); do
	[ -s "$out/m3/$f" ] || { echo "missing $f in the merge"; exit 1; }
done

# Refusals: exit 2 with both directories and the field named.
"$FLAKESWEEP" --shard 3/3 --count 3 --cpu 1 --load 1 --confirm 0 --no-race --keep 0 --ui none \
	-o "$out/other" ./... >/dev/null 2>&1 || true
rc=0
"$FLAKESWEEP" merge -o "$out/bad1" "$out/s3-1" "$out/other" 2>"$out/err" || rc=$?
[ "$rc" = 2 ] || { echo "other configuration: exit $rc"; exit 1; }
grep -q "$out/s3-1 and $out/other differ in config.cpu" "$out/err" || { cat "$out/err"; exit 1; }
rc=0
"$FLAKESWEEP" merge -o "$out/bad2" "$out/m12" "$out/s3-2" 2>"$out/err" || rc=$?
[ "$rc" = 2 ] && grep -q "shard 2/3 is in both $out/m12 and $out/s3-2" "$out/err" ||
	{ echo "shard twice: exit $rc"; cat "$out/err"; exit 1; }
rc=0
"$FLAKESWEEP" merge -o "$out/bad3" "$out/all" 2>"$out/err" || rc=$?
[ "$rc" = 2 ] && grep -q "not a shard" "$out/err" || { echo "unsharded: exit $rc"; exit 1; }
rc=0
"$FLAKESWEEP" merge -o "$out/m2" "$out/s2-1" 2>"$out/err" || rc=$?
[ "$rc" = 2 ] && grep -q "is not empty" "$out/err" || { echo "existing OUT: exit $rc"; exit 1; }
rc=0
"$FLAKESWEEP" --shard 0/3 ./... 2>"$out/err" || rc=$?
[ "$rc" = 2 ] && grep -q "1 <= I <= N <= 512" "$out/err" || { echo "--shard 0/3: exit $rc"; exit 1; }

# Stability: a new package moves no other one, by buckets and by durations.
plan() { "$FLAKESWEEP" --shard-plan --shard 1/3 "$@" ./... | awk '
	/^shard [0-9]+\/3/ { s = $2 } /^  / { print $1, s }' | sort; }
plan >"$out/plan-before"
plan --durations "$out/all" >"$out/plan-d-before"
grep -q '^shard plan: 3 shards of 512 buckets, weighed by seconds$' \
	<("$FLAKESWEEP" --shard-plan --shard 1/3 --durations "$out/all/results.json" ./...)
[ "$(wc -l <"$out/plan-before")" = 5 ] || { cat "$out/plan-before"; exit 1; }
mkdir foxtrot
printf 'package foxtrot\n\nimport "testing"\n\nfunc TestPass(t *testing.T) {}\n' \
	>foxtrot/foxtrot_test.go
plan >"$out/plan-after"
plan --durations "$out/all" >"$out/plan-d-after"
for p in plan plan-d; do
	[ "$(wc -l <"$out/$p-after")" = 6 ] || { echo "$p: foxtrot missing"; exit 1; }
	grep -v foxtrot "$out/$p-after" | diff "$out/$p-before" - ||
		{ echo "$p: adding a package moved another"; exit 1; }
done
[ "$("$FLAKESWEEP" --shard-plan --shard 1/1 ./... | head -1)" = \
	"shard plan: 1 shard of 512 buckets, weighed by buckets" ] || { echo "1 shards"; exit 1; }
# A durations file that knows only some packages says so, once: foxtrot
# and the packages of the other two shards weigh nothing.
known=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["packages"]))' \
	"$out/s3-1/results.json")
"$FLAKESWEEP" --shard-plan --shard 1/3 --durations "$out/s3-1" ./... >/dev/null 2>"$out/err"
unknown=$((6 - known))
[ "$(grep -c . "$out/err")" = 1 ] &&
	grep -qx "flakesweep: $out/s3-1 does not know $unknown packages of 6: they weigh nothing in the plan" \
		"$out/err" || { echo "partial durations: $(cat "$out/err")"; exit 1; }
echo ok
