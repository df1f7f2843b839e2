#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# --adaptive: a Go module of two packages, one test of which fails half
# the time at cpu 2 (it reads GOMAXPROCS) and never at cpu 1, swept with
# --for 45s at cpu 1,2 and load 1. Once each pair has its --count-min,
# the flaky pair gets more runs than each quiet one; results.json records
# config.adaptive and config.count_min and each sweep cell's allocation,
# with the anytime-valid interval beside the fixed-sample one; the report
# says which intervals are not valid under adaptive allocation.
# --adaptive without a budget is refused.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
. "$CHECK_SRCDIR/tests/lib/adaptive-mod.sh"
adaptive_mod "$CHECK_TMPDIR/mod"
cd "$CHECK_TMPDIR/mod"
export GOPROXY=off GOFLAGS=-mod=mod

for opts in "--adaptive" "--count-min 5" "--adaptive --for 1m --count 9"; do
	rc=0
	# shellcheck disable=SC2086 # the options are words
	"$FLAKESWEEP" $opts --ui none -o "$CHECK_TMPDIR/refused" ./... >"$CHECK_TMPDIR/err" 2>&1 || rc=$?
	[ "$rc" = 2 ] || { cat "$CHECK_TMPDIR/err"; fail "$opts: exit $rc, expected 2"; }
	grep -q -- '--adaptive and --count-min need a time budget (--for or --until)' \
		"$CHECK_TMPDIR/err" || { cat "$CHECK_TMPDIR/err"; fail "$opts: no message"; }
done
rc=0
"$FLAKESWEEP" --for 1m --count-min 5 --ui none -o "$CHECK_TMPDIR/refused" ./... \
	>"$CHECK_TMPDIR/err" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q -- '--count-min needs --adaptive' "$CHECK_TMPDIR/err" ||
	{ cat "$CHECK_TMPDIR/err"; fail "--count-min without --adaptive: exit $rc"; }

rc=0
"$FLAKESWEEP" --adaptive --count-min 10 --for 45s --cpu 1,2 --load 1 --confirm 0 --no-race \
	--ui none -o "$CHECK_TMPDIR/out" ./... >"$CHECK_TMPDIR/out.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/out.txt"; fail "the sweep exited $rc, expected 1 (flaky)"; }
python3 - "$CHECK_TMPDIR/out" <<'PY'
import collections, json, os, sys
out = sys.argv[1]
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
res = json.load(open(os.path.join(out, "results.json")))
c = res["config"]
check(c.get("adaptive") is True and c.get("count_min") == 10, "config: %s" % c)
runs, names = collections.Counter(), {}
for l in open(os.path.join(out, "journal.jsonl")):
    l = json.loads(l)
    if l["type"] == "build":
        names[l["pkg"]] = l["package"].rsplit("/", 1)[-1]
    elif l["type"] == "run" and l.get("phase", "sweep") == "sweep":
        runs[(names[l["pkg"]], l["cpu"])] += 1
print("# runs a pair:", dict(runs))
check(len(runs) == 4, "4 pairs ran: %s" % runs)
check(min(runs.values()) >= 10, "every pair had its minimum: %s" % runs)
flaky = runs[("flaky", 2)]
for pair, n in runs.items():
    if pair != ("flaky", 2):
        check(flaky > n, "the flaky pair had %d runs, %s had %d" % (flaky, pair, n))
alloc = {}
for t in res["tests"]:
    for x in t["cells"]:
        if x["phase"] == "sweep":
            alloc[(t["id"].split("::")[-1], x["cpu"])] = x.get("allocation")
            check(x["rate_low_anytime"] <= x["rate_low"] and
                  x["rate_high_anytime"] >= x["rate_high"], "anytime interval: %s" % x)
print("# allocation:", alloc)
check(alloc[("TestTwoCores", 2)] == "adaptive", "the flaky cell's allocation: %s" % alloc)
check(all(a in ("minimum", "adaptive", "stopped-early") for a in alloc.values()),
      "allocations: %s" % alloc)
text = open(os.path.join(out, "report.txt")).read()
check("runs were allocated adaptively (--adaptive)" in text, "report.txt says nothing")
PY
