# SPDX-License-Identifier: MIT
# Sourced by the budget tests: a Go module of a dozen packages, each one
# test that passes at once, in $CHECK_TMPDIR/mod, the current directory
# after; and check_budget OUT BUDGET_MS TOOK_MS KEY VALUE, which checks a
# budgeted sweep's results: it took 70% to 105% of the budget, its
# config has KEY (for_s, until) as VALUE and the last count chosen, and
# each of its 48 pairs had at least 3 runs, and 90% of that count.
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
mkdir -p "$CHECK_TMPDIR/mod"
cd "$CHECK_TMPDIR/mod"
export GOPROXY=off GOFLAGS=-mod=mod
printf 'module example.com/budget\n\ngo 1.19\n' >go.mod
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do
	mkdir -p "p$i"
	printf 'package p%s\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n' "$i" >"p$i/p_test.go"
done
check_budget() {
	python3 - "$@" <<'PY'
import collections, json, os, sys
out, budget, took = sys.argv[1], int(sys.argv[2]) / 1000, int(sys.argv[3]) / 1000
key, value = sys.argv[4], sys.argv[5]
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
check(0.7 * budget <= took <= 1.05 * budget, "a budget of %.1f s took %.1f s" % (budget, took))
c = json.load(open(os.path.join(out, "results.json")))["config"]
check(str(c.get(key)) == value, "config.%s is %s: %s" % (key, value, c.get(key)))
runs = collections.Counter()
lines = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl"))]
for l in lines:
    if l["type"] == "run" and l.get("phase", "sweep") == "sweep":
        runs[(l["pkg"], l["cpu"], l["load"])] += 1
check(len(runs) == 48, "48 pairs ran: %d" % len(runs))
check(min(runs.values()) >= 3, "at least 3 runs a pair: %d" % min(runs.values()))
chosen = [l for l in lines if l["type"] == "budget" and l["phase"] == "sweep"]
check(chosen and c["count"] == chosen[-1]["count"],
      "config.count is the last count chosen: %s, %s" % (c["count"], chosen[-1:]))
# A host that slows down at the end may stop the last round short.
check(min(runs.values()) >= 0.9 * c["count"],
      "every pair got the count chosen: %d < %d" % (min(runs.values()), c["count"]))
print("took %.1f s of %.1f, %d budget lines, count %d, runs a pair %d..%d" %
      (took, budget, len(chosen), c["count"], min(runs.values()), max(runs.values())))
PY
}
