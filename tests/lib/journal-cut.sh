# SPDX-License-Identifier: MIT
# Sourced by tests that resume a sweep killed part way.
# journal_cut DIR N: DIR's journal keeps its first N runs and no end, as a
# sweep killed there leaves it; its run logs and results go.
journal_cut() {
	python3 - "$1/journal.jsonl" "$2" <<'PY'
import json, sys
path, n = sys.argv[1], int(sys.argv[2])
keep, runs = [], 0
for l in open(path).read().splitlines():
    t = json.loads(l)["type"]
    if t == "run":
        runs += 1
        if runs > n:
            continue
    if t in ("end", "phase", "confirm") and runs > 0:
        continue
    keep.append(l)
open(path, "w").write("\n".join(keep) + "\n")
PY
	rm -rf "$1"/runs/* "$1/results.json" "$1/report.txt"
}
