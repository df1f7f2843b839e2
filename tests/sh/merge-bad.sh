#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# A bad line in a merge's input is blamed on that input, file and line,
# and the failed merge leaves nothing in its output: the same -o works
# again once the input is fixed. A kept log that is a symbolic link is
# skipped with a warning, and so is one that is missing (a shard copied
# without its runs/): the merge goes on. Shards of two projects without a
# commit are refused.
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

# A kept log that is a symbolic link (to a secret) is not carried: neither
# the link nor what it leads to reaches the merge; a warning names it.
shard l2 2 '{"type":"run","run":2,"pkg":0,"phase":"sweep","cpu":1,"load":1,"lane":0,"ms":40,"exit":1,"set":1,"log":"runs/2.log"}'
mkdir -p l2/runs
echo 'root:secret' >secret
ln -s "$PWD/secret" l2/runs/2.log
rc=0
"$FLAKESWEEP" merge -o ml s1 l2 >out 2>err || rc=$?
[ "$rc" -le 1 ] || { echo "FAIL: merge with a linked log: exit $rc: $(cat err)"; exit 1; }
grep -qx "flakesweep: l2/runs/2.log: not a regular file: not carried into the merge" err ||
	{ echo "FAIL: no warning naming the log: $(cat err)"; exit 1; }
if [ -n "$(ls -A ml/runs 2>/dev/null)" ] || grep -rqs 'root:secret' ml; then
	echo "FAIL: the linked log reached the merge: $(ls -l ml/runs)"; exit 1
fi

# A kept log that is missing: the shard is merged all the same, the
# warning names the log, and the run line loses its log.
shard m2 2 '{"type":"run","run":2,"pkg":0,"phase":"sweep","cpu":1,"load":1,"lane":0,"ms":40,"exit":1,"set":1,"log":"runs/2.log"}'
rc=0
"$FLAKESWEEP" merge -o mm2 s1 m2 >out 2>err || rc=$?
[ "$rc" -le 1 ] || { echo "FAIL: merge with a missing log: exit $rc: $(cat err)"; exit 1; }
grep -qx "flakesweep: m2/runs/2.log: missing: not carried into the merge" err ||
	{ echo "FAIL: no warning naming the missing log: $(cat err)"; exit 1; }
grep -q '"run":3,.*"exit":1' mm2/journal.jsonl && ! grep -q '"log"' mm2/journal.jsonl ||
	{ echo "FAIL: the failing run's line: $(grep '"type":"run"' mm2/journal.jsonl)"; exit 1; }

# Shards of two projects, neither in git: no commit vouches for them, and
# their roots differ. Refused, naming both directories and the field.
shard ng1 1
shard ng2 2
sed -i 's|"root":"/src","commit":"abc"|"root":"/w/multi"|' ng1/journal.jsonl
sed -i 's|"root":"/src","commit":"abc"|"root":"/w/flakycheck"|' ng2/journal.jsonl
rc=0
"$FLAKESWEEP" merge -o mng ng1 ng2 >out 2>err || rc=$?
[ "$rc" = 2 ] || { echo "FAIL: shards of two projects: exit $rc: $(cat err)"; exit 1; }
grep -qx "flakesweep: ng1 and ng2 differ in project.root (/w/multi, /w/flakycheck) and no commit vouches for them: shards of different projects cannot be merged" err ||
	{ echo "FAIL: shards of two projects: $(cat err)"; exit 1; }
echo "ok: blamed on c4/journal.jsonl:5, nothing left behind; a linked or missing log is not carried; two projects refused"
