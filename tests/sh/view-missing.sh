#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# `view` refuses at once a directory that does not exist, naming it, alone
# or among others, a file, and a directory that is no sweep's; an existing
# one without a journal yet is waited for.
set -eu
cd "$CHECK_TMPDIR"
mkdir s1
for args in "nonexist" "s1 nonexist"; do
	rc=0
	timeout 10 "$FLAKESWEEP" view $args </dev/null >out 2>err || rc=$?
	[ "$rc" = 2 ] || { echo "FAIL: view $args: exit $rc: $(cat err)"; exit 1; }
	grep -qx "flakesweep: nonexist: no such directory" err ||
		{ echo "FAIL: view $args: $(cat err)"; exit 1; }
done
echo "ok: refused at once"

# A sweep just started has made its journal but not yet written its first
# line: view waits for it rather than calling it no journal.
printf '#!/bin/sh\necho 1..1\necho ok 1 - alpha\n' >t.sh
chmod +x t.sh
"$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 2 --confirm 0 --canaries 0 --ui none \
	-o done -- ./t.sh >/dev/null
mkdir late
: >late/journal.jsonl
(sleep 1; cp done/report.txt late/; cp done/journal.jsonl late/) &
rc=0
timeout 20 "$FLAKESWEEP" view late </dev/null >out 2>err || rc=$?
wait
[ "$rc" = 0 ] && grep -qx "flakesweep: waiting for late/journal.jsonl to begin" err &&
	cmp -s out done/report.txt ||
	{ echo "FAIL: view of a journal not begun: exit $rc: $(cat err)"; exit 1; }
echo "ok: a journal not yet begun is waited for"

# What is no sweep's output directory is refused at once, saying what view
# takes: a file (results.json given for its directory), and a directory
# that holds other files and no journal (a package, not a sweep).
rc=0
timeout 10 "$FLAKESWEEP" view done/results.json </dev/null >out 2>err || rc=$?
[ "$rc" = 2 ] && grep -qx "flakesweep: done/results.json is a file: view takes a sweep's output directory, the one that holds journal.jsonl (here done)" err ||
	{ echo "FAIL: view of a file: exit $rc: $(cat err)"; exit 1; }
mkdir pkg && cp t.sh pkg/
rc=0
timeout 10 "$FLAKESWEEP" view pkg </dev/null >out 2>err || rc=$?
[ "$rc" = 2 ] && grep -qx "flakesweep: pkg holds no sweep (no journal.jsonl): view takes a sweep's output directory (-o)" err ||
	{ echo "FAIL: view of a package: exit $rc: $(cat err)"; exit 1; }
echo "ok: what is no sweep is refused"
