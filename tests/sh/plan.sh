#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# flakesweep plan predicts this machine's sweep: a real sweep of three
# packages whose tests sleep 80, 160 and 240 ms, then a plan for this
# machine's cores from its results.json; the plan's sweep phase is within
# 25% of the one the journal's phase lines measured; a package added since
# is planned too. Then the plan's refusals: no --durations, a file that is
# not there, a malformed one.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
. "$CHECK_SRCDIR/tests/lib/first.sh"
work=$CHECK_TMPDIR/gomod
cp -r "$CHECK_SRCDIR/tests/fixtures/plan/gomod" "$work"
cd "$work"
out=$CHECK_TMPDIR/out
cores=$(nproc)
"$FLAKESWEEP" --cpu 1 --load 1,2 --count 4 --canaries 0 --no-race --ui none -o "$out" ./... \
	>"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || {
	cat "$CHECK_TMPDIR/stderr"
	echo "the sweep failed"
	exit 1
}
"$FLAKESWEEP" plan --cores "$cores" --cpu 1 --load 1,2 --count 4 --canaries 0 \
	--durations "$out/results.json" --json ./... >"$CHECK_TMPDIR/plan.json"
python3 - "$out" "$CHECK_TMPDIR/plan.json" <<'PY'
import json, os, sys
out, plan = sys.argv[1:]
d = json.load(open(os.path.join(out, "results.json")))
p = json.load(open(plan))
at = {}
for line in open(os.path.join(out, "journal.jsonl")):
    l = json.loads(line)
    if l["type"] == "phase":
        at[l["phase"]] = l["at_ms"]
real = (at["confirm"] - at["sweep"]) / 1000.0
pred = p["phases"]["sweep"]["wall_s"]
print("sweep phase: real %.2f s, plan %.2f s (%+.0f%%), utilisation %.3f"
      % (real, pred, 100 * (pred - real) / real, p["utilisation"]))
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
check(all(len(k["durations"]) == 2 for k in d["packages"]), "durations at both loads")
check(p["phases"]["sweep"]["runs"] == 24, "24 sweep runs planned")
check(p["phases"]["confirm"]["runs"] == 0, "nothing to confirm")
check(0 < p["utilisation"] <= 1, "utilisation in (0, 1]")
check(abs(pred - real) <= 0.25 * real, "the plan is within 25% of the real sweep phase")
PY
# A package added since the durations were measured is looked up (go list)
# and planned at the other packages' median time, and the plan says so.
mkdir d
sed 's/^package a$/package d/' a/a_test.go >d/d_test.go
"$FLAKESWEEP" plan --cores "$cores" --cpu 1 --load 1,2 --count 4 --canaries 0 \
	--durations "$out/results.json" --json ./... >"$CHECK_TMPDIR/plan-new.json"
python3 - "$CHECK_TMPDIR/plan-new.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
new = sorted((s["package"], s["load"]) for s in p["scaled"] if s.get("new"))
if p["phases"]["sweep"]["runs"] != 32 or new != [("example.com/plan/d", 1), ("example.com/plan/d", 2)]:
    print("FAIL: the new package d is not planned from the others:", p["phases"], p["scaled"])
    sys.exit(1)
PY
# Refusals: each names what is wrong, exit status 2.
rc=0
"$FLAKESWEEP" plan --cores 4 ./... 2>"$CHECK_TMPDIR/err" || rc=$?
[ "$rc" = 2 ] && grep -q 'plan needs --durations FILE' "$CHECK_TMPDIR/err" ||
	{ cat "$CHECK_TMPDIR/err"; echo "no --durations: exit $rc"; exit 1; }
rc=0
"$FLAKESWEEP" plan --cores 4 --durations "$CHECK_TMPDIR/none.json" 2>"$CHECK_TMPDIR/err" || rc=$?
[ "$rc" = 2 ] && grep -q "none.json" "$CHECK_TMPDIR/err" ||
	{ cat "$CHECK_TMPDIR/err"; echo "missing file: exit $rc"; exit 1; }
sed -E 's/"median_ms":[[:space:]]*[0-9]+/"median_ms": "slow"/' "$out/results.json" >"$CHECK_TMPDIR/bad.json"
rc=0
"$FLAKESWEEP" plan --cores 4 --durations "$CHECK_TMPDIR/bad.json" 2>"$CHECK_TMPDIR/err" || rc=$?
cat "$CHECK_TMPDIR/err"
[ "$rc" = 2 ] && grep -Eq 'bad\.json:[0-9]+: packages\[0\]\.durations\[0\]\.median_ms: expected a whole number' \
	"$CHECK_TMPDIR/err" || { echo "malformed file: exit $rc"; exit 1; }
rc=0
"$FLAKESWEEP" plan --cores 0 --durations "$out/results.json" 2>"$CHECK_TMPDIR/err" || rc=$?
[ "$rc" = 2 ] && grep -q 'invalid value "0" for --cores' "$CHECK_TMPDIR/err" ||
	{ cat "$CHECK_TMPDIR/err"; echo "--cores 0: exit $rc"; exit 1; }
echo ok
