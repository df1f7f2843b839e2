#!/bin/bash
# SPDX-License-Identifier: MIT
# The CPU time `flakesweep merge` takes for SHARDS shards of RUNS runs each
# (default 10 x 100000), against the baseline of `report --rebuild` of the
# merged journal alone (the same lines read once): the ratio is what the
# renumbering and copying cost on top of one read. With BEFORE=PATH
# (another flakesweep binary, say an older build) it times that one's
# merge too and checks both write the same journal.
# Usage: bench/merge.sh FLAKESWEEP [SHARDS] [RUNS]
set -eu
fs=${1:?usage: bench/merge.sh FLAKESWEEP [SHARDS] [RUNS]}
shards=${2:-10}
runs=${3:-100000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "$shards" "$runs" <<'PY'
import json, os, sys
dir, n, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(1, n + 1):
    d = os.path.join(dir, "shard-%d" % i)
    os.makedirs(d)
    hdr = {"type": "header", "schema": "flakesweep/journal/v1",
           "started": "2026-12-01T01:00:%02dZ" % (i % 60),
           "config": {"cpu": [1, 2], "load": [1, 2], "count": runs // 4, "confirm": 0,
                      "timeout_ms": 120000, "kill_grace_ms": 30000, "shuffle": False,
                      "run": None, "skip": None, "levels": ["unit"], "tags": None,
                      "race": True, "isolate_net": False, "tap_select": "arg", "env": {},
                      "quarantine": None, "build_tags": None, "driver": "go",
                      "packages": [], "command": [],
                      "shard": {"index": i, "count": n, "buckets": [i - 1]}},
           "machine": {"host": "node%d" % i, "cores": 16, "keep": 0,
                       "lanes": [[0, 1, 2, 3], [4, 5, 6, 7]]},
           "project": {"driver": "go", "root": "/src", "commit": "abc", "toolchain": "go1.19",
                       "origin": None}}
    tests = ["Test%02d" % k for k in range(100)]
    with open(os.path.join(d, "journal.jsonl"), "w") as f:
        f.write(json.dumps(hdr, separators=(",", ":")) + "\n")
        f.write(json.dumps({"type": "build", "pkg": 0, "package": "example.com/p%d" % i,
                            "level": "unit", "dir": "/src/p%d" % i, "ok": True,
                            "binary": "/out/p.test", "tests": tests},
                           separators=(",", ":")) + "\n")
        f.write(json.dumps({"type": "set", "id": 1, "pkg": 0,
                            "order": ["P" + t for t in tests]}, separators=(",", ":")) + "\n")
        for r in range(1, runs + 1):
            cpu, load = ((1, 1), (1, 2), (2, 1), (2, 2))[r % 4]
            line = ('{"type":"run","run":%d,"pkg":0,"phase":"sweep","cpu":%d,"load":%d,'
                    '"lane":%d,"ms":%d,"exit":0,"set":1}\n' % (r, cpu, load, r % 2, 40 + r % 7))
            f.write(line)
        f.write('{"type":"end","status":"complete","finished":"2026-12-01T02:00:00Z"}\n')
PY
# cpu CMD...: the CPU seconds CMD takes (the machine may be busy: wall
# time would measure it), or "failed".
cpu() {
	/usr/bin/time -f "%U %S" -o "$dir/time" "$@" >/dev/null 2>&1 || { echo failed; return; }
	awk '{ printf "%.2f", $1 + $2 }' "$dir/time"
}
merge=$(cpu "$fs" merge -o "$dir/merged" "$dir"/shard-*)
[ "$merge" != failed ] || { echo "merge failed"; exit 1; }
rebuild=$(cpu "$fs" report --rebuild "$dir/merged")
if [ -n "${BEFORE:-}" ]; then
	echo "before: merge $(cpu "$BEFORE" merge -o "$dir/before" "$dir"/shard-*) s of CPU"
	cmp -s "$dir/merged/journal.jsonl" "$dir/before/journal.jsonl" &&
		echo "journal.jsonl: the same before and after" ||
		echo "journal.jsonl: DIFFERS before and after"
fi
python3 - "$merge" "$rebuild" "$shards" "$runs" "$dir/merged/results.json" <<'PY'
import json, sys
merge, rebuild, n, runs = map(float, sys.argv[1:5])
r = json.load(open(sys.argv[5]))
assert r["summary"]["runs"] == n * runs, r["summary"]["runs"]
print("merge of %d shards x %d runs: %.1f s of CPU; report --rebuild of the merge (baseline): "
      "%.1f s; ratio %.2f" % (n, runs, merge, rebuild, merge / rebuild))
PY
