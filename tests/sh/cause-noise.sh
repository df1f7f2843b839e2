#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# The noise cause: a test with a wall-clock budget
# (tests/fixtures/tap/budget.sh) swept at cpu 1, load 1 on two cores, two
# lanes, with a busy loop pinned to one of them. Runs on the loop's core
# share it, take about twice their CPU time, fail and are noisy; runs on
# the other core pass. Both kinds are in the one (cpu 1, load 1) cell, whose
# mean noise hides the busy core, so the cause is judged on runs: noisy
# against quiet within the pair, those of 100 ms or more. The cause is
# noise, with the counts of the journal's runs and the exact p-value;
# rebuilt from the journal, the same. The sweep and the loop run first (tests/lib/first.sh). Needs
# two usable cores, and a host that leaves most runs on the quiet one
# quiet.
set -eu
. "$CHECK_SRCDIR/tests/lib/first.sh"
read -r quiet busy < <(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0))[:2])')
[ -n "$busy" ] || { echo "SKIP one usable core: no second core to keep quiet"; exit 77; }
cd "$CHECK_TMPDIR"
"${first[@]}" taskset -c "$busy" sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null || true' EXIT
rc=0
"${first[@]}" taskset -c "$quiet,$busy" "$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 60 \
	--confirm 0 --timeout 20s --ui none -o "$CHECK_TMPDIR/out" \
	-- sh "$CHECK_SRCDIR/tests/fixtures/tap/budget.sh" >/dev/null || rc=$?
kill $hog
[ "$rc" = 1 ] # the test is flaky
# Rebuilt from the journal, the results are the live ones.
cp -r "$CHECK_TMPDIR/out" "$CHECK_TMPDIR/rebuilt"
"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/rebuilt" >/dev/null || [ $? = 1 ]
python3 - "$CHECK_TMPDIR/out" "$quiet" "$busy" <<'PY'
import json, math, os, sys
d, quiet, busy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
res = json.load(open(os.path.join(d, "results.json")))
text = open(os.path.join(d, "report.txt")).read()
runs = [json.loads(l) for l in open(os.path.join(d, "journal.jsonl")) if '"type":"run"' in l]
assert res["machine"]["lanes"] == [[quiet], [busy]], res["machine"]
[t] = res["tests"]
[again] = json.load(open(os.path.join(d, "..", "rebuilt", "results.json")))["tests"]
for key in ("cells", "causes", "interference", "cores"):
    assert again[key] == t[key], (key, again[key], t[key])
[cell] = t["cells"]
assert cell["runs"] == 60, cell
# A run is noisy when other processes took more than a fifth of its core's
# time while it ran, as the journal's noise_ms over its ms says.
def noisy(r):
    return r["noise_ms"] > 0.2 * r["ms"] * r["cpu"]
def failed(r):
    return "fail" in r
by_core = {}
for r in runs:
    [core] = r["cores"]
    s = by_core.setdefault(core, [0, 0, 0, []])
    s[0] += 1
    s[1] += noisy(r)
    s[2] += failed(r)
    s[3].append(r["noise"])
for core in sorted(by_core):
    n, nn, nf, shares = by_core[core]
    print("core %d%s: %d runs, %d noisy, %d failed, run noise %.3f-%.3f (mean %.3f)"
          % (core, " (loop)" if core == busy else "", n, nn, nf, min(shares), max(shares),
             sum(shares) / n))
assert sorted(by_core) == [quiet, busy], by_core
# A host busy enough to make most runs on the quiet core noisy too leaves
# little to compare with: the runs beside the loop (a quarter to a third
# of the 60, all noisy and failed) against the quiet core's half that
# stayed quiet give p below 0.001 (C(36,12) / C(60,12) with 12 of them),
# fewer quiet runs may not.
if 2 * by_core[quiet][1] > by_core[quiet][0]:
    print("SKIP the host kept core %d noisy in %d of its %d runs"
          % ((quiet,) + tuple(by_core[quiet][1::-1])))
    sys.exit(77)
# Every run beside the loop fails and is noisy. On the quiet core the
# host's other work (this machine's, the sweep's own) may still push a run
# past its budget now and then, but seldom.
n = by_core[busy][0]
assert by_core[busy][1:3] == [n, n], by_core
assert by_core[quiet][2] <= 2, by_core
# The cell counts the noisy runs as the journal has them.
k1 = sum(1 for r in runs if noisy(r) and failed(r))
n1 = sum(1 for r in runs if noisy(r))
k2 = sum(1 for r in runs if not noisy(r) and failed(r))
assert cell["noisy"] == {"runs": n1, "failures": k1}, cell
assert cell["failures"] == k1 + k2, cell
# The cause compares the runs of 100 ms or more (the run line's ms): a
# shorter one is noisy from one stray tick.
runs = [r for r in runs if r["ms"] >= 100]
N = len(runs)
k1 = sum(1 for r in runs if noisy(r) and failed(r))
n1 = sum(1 for r in runs if noisy(r))
k2 = sum(1 for r in runs if not noisy(r) and failed(r))
causes = [x["cause"] for x in t["causes"]]
assert causes == ["noise"], t["causes"]
c = t["causes"][0]
ev = "fails under host noise: %d/%d noisy runs against %d/%d quiet ones" % (k1, n1, k2, N - n1)
assert c["evidence"] == ev, c
# One pair, one table: the chance of k1 or more of the k1 + k2 failures
# among the n1 noisy runs of N, the failures falling without regard to
# noise (hypergeometric).
p = sum(math.comb(n1, x) * math.comb(N - n1, k1 + k2 - x)
        for x in range(k1, min(n1, k1 + k2) + 1)) / math.comb(N, k1 + k2)
unit = 10 ** (math.floor(math.log10(p)) - 2)  # results.json's three digits
assert math.isclose(c["p"], round(p / unit) * unit, rel_tol=1e-9), (c, p)
assert c["q"] < 0.01, c
assert "  cause (noise): " + ev + " (q=" in text, text
print("cell noise %.3f, noisy %s; %s; p %s, q %s" % (cell["noise"], cell["noisy"], ev, c["p"], c["q"]))
PY
