#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# Host noise: the same one-lane sweep of a test that spins on its one
# core, once as it is and once with a busy loop pinned to that core. With
# the loop, the cell's noise is about half (the two share the core) and
# results.json, the report and the run lines say so; without it, the cell
# is quiet. The test runs in a session of its own raised to the highest
# priority where that is allowed (its autogroup, else its nice value), so
# a host busy with other work yields the core and the contrast is the
# loop's.
set -eu
. "$CHECK_SRCDIR/tests/lib/first.sh"
core=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
cd "$CHECK_TMPDIR"
sweep() {
	local rc=0
	"${first[@]}" taskset -c "$core" "$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 20 \
		--confirm 0 --timeout 20s --ui none -o "$CHECK_TMPDIR/$1" \
		-- sh "$CHECK_SRCDIR/tests/fixtures/tap/spin.sh" >/dev/null || rc=$?
	[ "$rc" = 1 ] # the test is flaky
}
sweep quiet
"${first[@]}" taskset -c "$core" sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null || true' EXIT
sweep hog
# --quiet: the lane waits while the loop runs and goes on once it is gone.
"${first[@]}" taskset -c "$core" "$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 40 \
	--confirm 0 --timeout 20s --quiet 30% --ui none -o "$CHECK_TMPDIR/held" \
	-- sh "$CHECK_SRCDIR/tests/fixtures/tap/spin.sh" >"$CHECK_TMPDIR/held.log" 2>&1 &
held=$!
sleep 3
runs_held=$(grep -c '"type":"run"' "$CHECK_TMPDIR/held/journal.jsonl" || true)
kill $hog
wait $held || [ $? = 1 ]
grep -q "lane 0 waits for quiet" "$CHECK_TMPDIR/held.log"
grep -q "lane 0 is quiet again" "$CHECK_TMPDIR/held.log"
[ "$(grep -c '"type":"run"' "$CHECK_TMPDIR/held/journal.jsonl")" = 40 ]
# Runs go on until the second reading (a second in): at most about ten.
[ "$runs_held" -le 15 ] || { echo "$runs_held runs while the lane was noisy"; exit 1; }
echo "--quiet 30%: $runs_held of 40 runs while the loop ran"
python3 - "$CHECK_TMPDIR" <<'PY'
import json, os, sys
d = sys.argv[1]
got = {}
for name in ("quiet", "hog"):
    res = json.load(open(os.path.join(d, name, "results.json")))
    runs = [json.loads(l) for l in open(os.path.join(d, name, "journal.jsonl"))
            if '"type":"run"' in l]
    text = open(os.path.join(d, name, "report.txt")).read()
    [cell] = res["tests"][0]["cells"]
    assert len(runs) == 20 and all(0 <= r["noise"] <= 1 and "noise_ms" in r for r in runs), runs[:2]
    assert cell["runs"] == 20 and cell["failures"] == 2, cell
    noisy = cell["noise"] > 0.2
    assert ("noisy: " in text) == noisy, text
    assert ("host noise:" in text) == (res["machine"]["noise"] > 0.2), text
    got[name] = (cell["noise"], res["machine"]["noise"], sum(r["noise"] for r in runs) / len(runs))
    print("%s: cell noise %.3f, machine noise %.3f, mean run noise %.3f, marked %s"
          % ((name,) + got[name] + ("noisy" if noisy else "quiet",)))
assert got["quiet"][0] <= 0.2, got
assert got["hog"][0] >= 0.3, got
PY
