#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# Case 06 (tests/fixtures/case06, copied from the case): under -test.shuffle
# TestOutputQuietByDefault fails after TestSetVerbose, which leaves a
# package variable set, and passes alone. After the confirm phase the sweep
# replays its first failure's seed on the whole package and halves the
# tests that ran before it, in their order, until one is left: results.json
# names TestSetVerbose as its polluter with the seed and the runs the search
# took (as many as halving that order needs), the cause is order with the
# polluter, the report gives a command that runs the pair, and that command
# fails the victim. A rebuilt report keeps the polluter.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
core=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
cp -r "$CHECK_SRCDIR/tests/fixtures/case06" "$CHECK_TMPDIR/case06"
cd "$CHECK_TMPDIR/case06"
rc=0
taskset -c "$core" "$FLAKESWEEP" --shuffle --cpu 1 --load 1 --count 20 --confirm 4 --no-race \
	--ui none -o "$CHECK_TMPDIR/out" ./... >"$CHECK_TMPDIR/stdout" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/stdout"; exit 1; }
python3 - "$CHECK_TMPDIR/out" >"$CHECK_TMPDIR/command" <<'PY'
import json, os, re, sys
out = sys.argv[1]
res = json.load(open(os.path.join(out, "results.json")))
text = open(os.path.join(out, "report.txt")).read()
tests = {t["test"]: t for t in res["tests"]}
v = tests["TestOutputQuietByDefault"]
assert v["order_dependent"], v
p = v["polluter"]
seed = v["first_failure"]["seed"]
assert p["test"] == "TestSetVerbose" and p["seed"] == seed, p
# The order its first failure ran in is the order the seed replays.
log = open(os.path.join(out, v["first_failure"]["log"])).read()
ran = re.findall(r"^=== RUN   (Test\w+)$", log, re.M)
before = ran[:ran.index("TestOutputQuietByDefault")]
# Replay, then halve: a half that fails is kept, else the other half is
# taken, and a last probe confirms the one test left.
runs, lo, n = 1, 0, len(before)
while True:
    if n == 1:
        runs += 1
        break
    half = n // 2
    runs += 1
    if "TestSetVerbose" in before[lo:lo + half]:
        n = half
        if n == 1:
            break
    else:
        lo, n = lo + half, n - half
assert p["runs"] == runs, (p, before, runs)
causes = [c for c in v["causes"] if c["cause"] == "order"]
assert causes and causes[0]["evidence"] == ("fails after TestSetVerbose: under seed %s the two "
    "fail together, alone it passes (%d runs to find it)" % (seed, runs)), v["causes"]
assert "-test.run '^(TestSetVerbose|TestOutputQuietByDefault)$'" in p["reproduce"], p
assert "-test.shuffle %s" % seed in p["reproduce"], p
assert ("TestOutputQuietByDefault fails after TestSetVerbose: under seed %s the pair fails, "
        "found in %d runs; reproduce with: %s" % (seed, runs, p["reproduce"])) in text, text
for name in ("TestLookupDefaultCodec", "TestRegisterDefaults", "TestSetVerbose"):
    assert "polluter" not in tests[name], tests[name]
print(p["reproduce"])
print("case 06: %s fails after %s, %d before it, found in %d runs"
      % ("TestOutputQuietByDefault", p["test"], len(before), runs), file=sys.stderr)
PY
# The command runs the pair, and the victim fails.
rc=0
sh -c "$(cat "$CHECK_TMPDIR/command")" >"$CHECK_TMPDIR/pair" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/pair"; exit 1; }
grep -q '^--- FAIL: TestOutputQuietByDefault' "$CHECK_TMPDIR/pair"
[ "$(grep -c '^=== RUN' "$CHECK_TMPDIR/pair")" = 2 ]
cp "$CHECK_TMPDIR/out/results.json" "$CHECK_TMPDIR/live.json"
"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/out" >/dev/null || [ $? = 1 ]
python3 - "$CHECK_TMPDIR/live.json" "$CHECK_TMPDIR/out/results.json" <<'PY'
import json, sys
live, again = (json.load(open(f)) for f in sys.argv[1:])
pick = lambda d: [t.get("polluter") for t in d["tests"] if t["test"] == "TestOutputQuietByDefault"]
assert pick(live) == pick(again), (pick(live), pick(again))
PY
