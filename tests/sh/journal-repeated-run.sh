#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# Run ids are unique: a run line repeated in the journal (a passing one,
# read on the fast path, and a failing one, read as JSON; one appended and
# one in place) is counted once, with a warning naming the file and line.
# `report --rebuild` then writes what the journal without the copies
# rebuilds to, and --resume of the complete sweep runs nothing and counts
# each run once.
set -eu
cd "$CHECK_TMPDIR"
cat >t.sh <<'SH'
#!/bin/sh
echo 1..2
echo 'ok 1 - alpha'
if [ $((FLAKESWEEP_RUN % 3)) = 0 ]; then echo 'not ok 2 - beta'; else echo 'ok 2 - beta'; fi
SH
chmod +x t.sh
rc=0
"$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 8 --confirm 2 --canaries 0 --ui none \
	-o base -- ./t.sh >/dev/null 2>&1 || rc=$?
[ "$rc" = 1 ] || { echo "the sweep exited $rc, expected 1"; exit 1; }
cp -a base dup
J=dup/journal.jsonl
pass=$(grep -n '"type":"run"' $J | grep -v '"fail"' | head -1)
fail=$(grep -n '"type":"run"' $J | grep '"fail"' | head -1)
[ -n "$pass" ] && [ -n "$fail" ] || { echo "no passing or no failing run line"; exit 1; }
# The failing one again right after itself, the passing one at the end.
sed -i "${fail%%:*}p" $J
printf '%s\n' "${pass#*:}" >>$J
passid=$(printf '%s' "$pass" | sed 's/.*"run":\([0-9]*\).*/\1/')
failid=$(printf '%s' "$fail" | sed 's/.*"run":\([0-9]*\).*/\1/')
failat=$((${fail%%:*} + 1))
passat=$(wc -l <$J)

"$FLAKESWEEP" report --rebuild base >/dev/null 2>base.err || true
"$FLAKESWEEP" report --rebuild dup >/dev/null 2>dup.err || true
expected="flakesweep: dup/journal.jsonl:$failat: run $failid again; counted once
flakesweep: dup/journal.jsonl:$passat: run $passid again; counted once"
[ "$(cat dup.err)" = "$expected" ] || {
	echo "report --rebuild said:"; cat dup.err; echo "expected:"; echo "$expected"; exit 1
}
[ ! -s base.err ] || { echo "the journal without copies warned:"; cat base.err; exit 1; }
cmp base/results.json dup/results.json || { diff base/results.json dup/results.json | head; exit 1; }
cmp base/report.txt dup/report.txt
echo "ok: report --rebuild counts runs $failid and $passid once and says where they repeat"

runs() { grep -c '"type":"run"' "$1/journal.jsonl"; }
n=$(runs dup)
rc=0
"$FLAKESWEEP" --resume dup --ui none >/dev/null 2>resume.err || rc=$?
[ "$rc" = 1 ] || { echo "--resume exited $rc, expected 1"; cat resume.err; exit 1; }
grep -q "dup/journal.jsonl:$failat: run $failid again; counted once" resume.err ||
	{ echo "--resume did not warn:"; cat resume.err; exit 1; }
[ "$(runs dup)" = "$n" ] || { echo "--resume ran $(($(runs dup) - n)) runs"; exit 1; }
python3 - base/results.json dup/results.json <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["summary"] == b["summary"], (a["summary"], b["summary"])
cells = lambda r: {t["id"]: t["cells"] for t in r["tests"]}
assert cells(a) == cells(b), (cells(a), cells(b))
PY
echo "ok: --resume of the complete sweep runs nothing and counts each run once"
