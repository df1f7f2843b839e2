#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# `view` refuses at once a directory that does not exist, naming it, alone
# or among others; an existing one without a journal yet is waited for.
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
