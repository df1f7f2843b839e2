#!/bin/bash
# SPDX-License-Identifier: MIT
# --adaptive against the same runs spread evenly: the Go module of
# tests/lib/adaptive-mod.sh (one test that fails one run in eight at cpu
# 2, one package that never fails) swept at cpu 1,2 and load 1 with
# --adaptive and a time budget, then with --count set so that the same
# total of sweep runs is spread evenly over the four pairs. Prints, for
# each, the runs at each pair and at the flaky pair its failures, the 95%
# Wilson interval's width and the anytime-valid interval's (the one valid
# under adaptive allocation), and the budget lines per 100 s.
#
# Usage: bench/adaptive.sh [DURATION] [COUNT-MIN] (from a build directory;
# default 60s and 30)
#
# On a shared 2-core machine (ASan build), with the defaults:
#   adaptive runs a pair: flaky@1 64  flaky@2 11779  quiet@1 261  quiet@2 262  (total 12366)
#   adaptive flaky@2: 1451 of 11779 failed; Wilson width 0.0119, anytime width 0.0241
#   even     runs a pair: flaky@1 3091  flaky@2 3091  quiet@1 3091  quiet@2 3091  (total 12364)
#   even     flaky@2: 389 of 3091 failed; Wilson width 0.0234, anytime width 0.0454
# flaky@1 stopped early (no failure, told apart from flaky@2); the budget
# wrote 15 lines in its 59 s (26 per 100 s, most in the first seconds).
set -eu
budget=${1:-60s}
min=${2:-30}
. "$(dirname "$0")/lib.sh"
command -v go >/dev/null || { echo "no go" >&2; exit 2; }
. "$here/../tests/lib/adaptive-mod.sh"
adaptive_mod "$work/mod" 7
cd "$work/mod"
export GOPROXY=off GOFLAGS=-mod=mod

sweep() { # NAME OPTIONS...
	local name=$1
	shift
	"$fs" "$@" --cpu 1,2 --load 1 --confirm 0 --no-race --ui none -o "$work/$name" ./... \
		>/dev/null 2>&1 || true
}

# show NAME: one line per sweep; prints its total of sweep runs last.
show() {
	python3 - "$work/$1" "$1" <<'PY'
import collections, json, math, os, sys
def anytime(k, n, alpha=0.05):
    # src/base/confseq.c's interval: every p where the Beta(1/2, 1/2)
    # mixture's likelihood ratio stays below 1/alpha.
    lb = lambda a, b: math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    mix = lb(0.5 + k, 0.5 + n - k) - lb(0.5, 0.5)
    def inside(p):
        like = (k * math.log(p) if k else 0) + ((n - k) * math.log1p(-p) if n > k else 0)
        return mix - like < math.log(1 / alpha)
    def edge(i, o):
        for _ in range(60):
            m = (i + o) / 2
            i, o = (m, o) if inside(m) else (i, m)
        return i
    return (edge(k / n, 0) if k else 0), (edge(k / n, 1) if k < n else 1)
out, name = sys.argv[1], sys.argv[2]
lines = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl"))]
names, runs, at = {}, collections.Counter(), {}
for l in lines:
    if l["type"] == "build":
        names[l["pkg"]] = l["package"].rsplit("/", 1)[-1]
    elif l["type"] == "run" and l.get("phase", "sweep") == "sweep":
        runs[(names[l["pkg"]], l["cpu"])] += 1
    elif l["type"] == "phase":
        at[l["phase"]] = l["at_ms"]
res = json.load(open(os.path.join(out, "results.json")))
for t in res["tests"]:
    for c in t["cells"]:
        if c["phase"] == "sweep" and t["id"].endswith("TestTwoCores") and c["cpu"] == 2:
            cell = c
k, n = cell["failures"] + cell["hangs"], cell["runs"]
lo, hi = anytime(k, n)
budget = sum(1 for l in lines if l["type"] == "budget")
secs = (at.get("confirm", at["done"]) - at["build"]) / 1000
print("%-8s runs a pair: flaky@1 %5d  flaky@2 %5d  quiet@1 %5d  quiet@2 %5d  (total %d)"
      % (name, runs[("flaky", 1)], runs[("flaky", 2)], runs[("quiet", 1)],
         runs[("quiet", 2)], sum(runs.values())))
print("%-8s flaky@2: %d of %d failed; Wilson width %.4f, anytime width %.4f; "
      "%d budget lines in %.0f s of build and sweep (%.0f per 100 s)"
      % (name, k, n, cell["rate_high"] - cell["rate_low"], hi - lo, budget, secs,
         100 * budget / secs if secs > 0 else 0))
print(sum(runs.values()))
PY
}

sweep adaptive --adaptive --count-min "$min" --for "$budget"
total=$(show adaptive | tee "$work/adaptive.txt" | tail -1)
head -n 2 "$work/adaptive.txt"
sweep even --count $((total / 4))
show even | head -n 2
