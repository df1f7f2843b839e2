#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# A bad line in a merge's input is blamed on that input, file and line,
# and the failed merge leaves nothing in its output: the same -o works
# again once the input is fixed.
set -eu
cd "$CHECK_TMPDIR"
shard() { # DIR INDEX [EXTRA LINE]
	mkdir -p "$1"
	cat >"$1/journal.jsonl" <<JSON
{"type":"header","schema":"flakesweep/journal/v1","started":"2026-12-01T01:00:0$2Z","config":{"cpu":[1],"load":[1],"count":1,"confirm":0,"levels":["unit"],"driver":"go","shard":{"index":$2,"count":2,"buckets":[$2]}},"machine":{"host":"node$2","cores":4,"keep":0,"lanes":[[0,1]]},"project":{"driver":"go","root":"/src","commit":"abc"}}
{"type":"build","pkg":0,"package":"example.com/p$2","level":"unit","dir":"/src/p$2","ok":true,"binary":"/out/p.test","tests":["TestA"]}
{"type":"set","id":1,"pkg":0,"order":["PTestA"]}
{"type":"run","run":1,"pkg":0,"phase":"sweep","cpu":1,"load":1,"lane":0,"ms":40,"exit":0,"set":1}
${3:-}
{"type":"end","status":"complete","finished":"2026-12-01T02:00:00Z"}
JSON
	[ -n "${3:-}" ] || sed -i '/^$/d' "$1/journal.jsonl"
}
shard s1 1
shard c4 2 '{"type":"run","id":"x"}'
rc=0
"$FLAKESWEEP" merge -o mm s1 c4 >out 2>err || rc=$?
[ "$rc" = 2 ] || { echo "FAIL: exit $rc, expected 2: $(cat err)"; exit 1; }
grep -q '^flakesweep: c4/journal.jsonl:5: run line: ' err || { echo "FAIL: $(cat err)"; exit 1; }
if [ -e mm ] && [ -n "$(ls -A mm)" ]; then
	echo "FAIL: the failed merge left $(ls -A mm | tr '\n' ' ')"; exit 1
fi
shard c4 2
"$FLAKESWEEP" merge -o mm s1 c4 >out 2>err || { echo "FAIL: again: $(cat err)"; exit 1; }
grep -q '"status":[[:space:]]*"complete"' mm/results.json || { echo "FAIL: not complete"; exit 1; }
echo "ok: blamed on c4/journal.jsonl:5, nothing left behind"
