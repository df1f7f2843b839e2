#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# A sweep interrupted in its confirm phase writes the results.json and
# report.txt that `report --rebuild` of its journal writes, byte for byte:
# beta (failing in sweep run 2) is still being confirmed, alpha's pairs
# are done, and both are provisional, since the sweep did not complete.
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
