#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# kill -9 in the middle of a sweep leaves no run behind, and --resume
# finishes it: every pair ends with exactly --count sweep runs, and only
# the runs in flight at the kill are lost.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
work=$CHECK_TMPDIR/gomod
cp -r "$CHECK_SRCDIR/tests/fixtures/gomod" "$work"
cd "$work"
out=$CHECK_TMPDIR/out
export FIXTURE_SLOW_MS=150
"$FLAKESWEEP" --cpu 1 --load 1,2 --count 12 --confirm 0 --no-race --timeout 30s --ui none \
	-o "$out" ./... >/dev/null 2>&1 &
pid=$!
# Wait until some runs are journaled, then kill the sweep outright.
for _ in $(seq 600); do
	n=$(grep -c '"type":"run"' "$out/journal.jsonl" 2>/dev/null || true)
	[ "${n:-0}" -ge 6 ] && break
	sleep 0.1
done
[ "${n:-0}" -ge 6 ] || { echo "the sweep journaled no runs"; kill -9 $pid; exit 1; }
kill -9 $pid
wait $pid 2>/dev/null || true
sleep 0.5
# PR_SET_PDEATHSIG: no test binary outlives the sweep.
if pgrep -f "$out/bin/" >/dev/null; then
	echo "runs survived the sweep:"; pgrep -af "$out/bin/"; exit 1
fi
before=$(grep -c '"type":"run"' "$out/journal.jsonl")
# A kill mid-write leaves a torn last line: resume cuts it, and appends.
printf '{"type":"run","run":999,"pkg":0,"pha' >>"$out/journal.jsonl"
rc=0
"$FLAKESWEEP" --resume "$out" --ui none >"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
cat "$CHECK_TMPDIR/stderr"
[ "$rc" = 1 ] || { echo "resume exit status $rc, expected 1"; exit 1; }
python3 - "$out" "$before" <<'PY'
import json, os, sys
out, before = sys.argv[1], int(sys.argv[2])
d = json.load(open(os.path.join(out, "results.json")))
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
check(d["status"] == "complete", "complete after resume")
runs = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl")) if '"type":"run"' in l]
check(len(runs) == 24, "24 runs in all, got %d" % len(runs))
check(len(runs) > before, "the resume ran the rest")
check(len({r["run"] for r in runs}) == 24, "run ids unique")
t = {x["test"]: x for x in d["tests"]}
for load in (1, 2):
    c = [c for c in t["TestPass"]["cells"] if c["load"] == load and c["phase"] == "sweep"][0]
    check(c["runs"] == 12, "12 runs at load %d, got %d" % (load, c["runs"]))
check(d["summary"]["runs"] == 24, "summary runs")
# One canary of each kind at each pair, whether before or after the kill.
canaries = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl")) if '"type":"canary"' in l]
check(len(canaries) == 6 and len({c["canary"] for c in canaries}) == 6, "6 canaries, ids unique")
got = sorted((c["kind"], c["load"], c["runs"]) for c in d["harness"]["canaries"])
check(got == [(k, l, 1) for k in ("cores", "green", "red") for l in (1, 2)], "canaries: %s" % got)
print("ok: resumed from %d of 24 runs" % before)
PY
# The same journal rebuilds the same results.
cp "$out/results.json" "$CHECK_TMPDIR/before.json"
rc=0
"$FLAKESWEEP" report --rebuild "$out" || rc=$?
[ "$rc" = 1 ] || { echo "rebuild exit status $rc, expected 1"; exit 1; }
python3 - "$CHECK_TMPDIR/before.json" "$out/results.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for k in ("summary", "tests", "packages", "config", "status", "harness"):
    if a[k] != b[k]:
        if k == "tests":
            for x, y in zip(a[k], b[k]):
                for f in sorted(set(x) | set(y)):
                    if x.get(f) != y.get(f):
                        print("FAIL:", x.get("id"), f, json.dumps(x.get(f)), "rebuilt", json.dumps(y.get(f)))
        print("FAIL: rebuild differs in", k); sys.exit(1)
print("ok: rebuild matches")
PY
