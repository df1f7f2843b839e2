#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# A sweep interrupted in its confirm phase writes the results.json and
# report.txt that `report --rebuild` of its journal writes, byte for byte:
# beta (failing in sweep run 2) is still being confirmed, alpha's pairs
# are done, and both are provisional, since the sweep did not complete.
# Interrupted while it builds, a sweep writes its results too, and --json
# prints them.
set -eu
cd "$CHECK_TMPDIR"
cat >t.sh <<'SH'
#!/bin/sh
echo 1..2
echo 'ok 1 - alpha'
if [ "$FLAKESWEEP_RUN" = 2 ]; then echo 'not ok 2 - beta'; else echo 'ok 2 - beta'; fi
[ "$FLAKESWEEP_RUN" -gt 4 ] && sleep 0.2
exit 0
SH
chmod +x t.sh
"$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 4 --confirm 40 --canaries 0 --ui none \
	-o out -- ./t.sh >stdout 2>stderr &
pid=$!
for _ in $(seq 200); do
	grep -q '"phase":"confirm"' out/journal.jsonl 2>/dev/null && break
	sleep 0.05
done
sleep 0.5
kill -INT $pid
rc=0; wait $pid || rc=$?
[ "$rc" = 130 ] || { echo "exit $rc, expected 130"; cat stderr; exit 1; }
confirm=$(grep '"type":"run"' out/journal.jsonl | grep -c '"phase":"confirm"' || true)
[ "$confirm" -gt 0 ] && [ "$confirm" -lt 40 ] ||
	{ echo "$confirm confirm runs: not interrupted mid-phase"; exit 1; }
cp out/results.json live.json
cp out/report.txt live.txt
"$FLAKESWEEP" report --rebuild out >/dev/null || true
cmp live.json out/results.json || { diff live.json out/results.json | head; exit 1; }
cmp live.txt out/report.txt
python3 - out/results.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "interrupted", r["status"]
p = {t["test"]: t["provisional"] for t in r["tests"]}
assert p == {"alpha": True, "beta": True}, p
PY
echo "ok: interrupted after $confirm of 40 confirm runs; live and rebuilt results agree"

command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
cp -r "$CHECK_SRCDIR/tests/fixtures/gomod" gomod
cd gomod
"$FLAKESWEEP" --cpu 1 --load 1 --count 5 --json --ui line -o ../built >../json 2>../err &
pid=$!
for _ in $(seq 400); do
	grep -q 'build phase' ../err 2>/dev/null && break
	sleep 0.02
done
kill -INT $pid
rc=0; wait $pid || rc=$?
cd ..
[ "$rc" = 130 ] || { echo "exit $rc, expected 130"; cat err; exit 1; }
cmp json built/results.json || { echo "--json printed what results.json does not hold"; exit 1; }
cp built/report.txt live.txt
"$FLAKESWEEP" report --rebuild built >/dev/null || true
cmp json built/results.json && cmp live.txt built/report.txt
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["status"] == "interrupted"' json
echo "ok: interrupted while building; results written and printed"
