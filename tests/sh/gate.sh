#!/bin/bash
# SPDX-License-Identifier: MIT
# `flakesweep gate` on the ledgers under tests/fixtures/gate: each case's
# standard output, standard error and exit status must match its golden
# file in expected/ exactly (FLAKESWEEP_UPDATE_GOLDEN=1 rewrites them).
set -u
fix="$CHECK_SRCDIR/tests/fixtures/gate"
exp="$fix/expected"
bad=0

cd "$fix" || exit 1

# run NAME ARGS...: runs `flakesweep gate ARGS` and compares.
run() {
	local name=$1 got
	shift
	got=$(
		"$FLAKESWEEP" gate "$@" >"$CHECK_TMPDIR/out" 2>"$CHECK_TMPDIR/err"
		rc=$?
		cat "$CHECK_TMPDIR/out"
		echo "--- stderr"
		cat "$CHECK_TMPDIR/err"
		echo "--- exit $rc"
	)
	if [ "${FLAKESWEEP_UPDATE_GOLDEN:-}" = 1 ]; then
		printf '%s\n' "$got" >"$exp/$name.txt"
	elif ! diff -u "$exp/$name.txt" <(printf '%s\n' "$got"); then
		echo "FAIL: $name"
		bad=1
	fi
}

run plain base.jsonl head.jsonl
run control base.jsonl head.jsonl --control head2.jsonl
run options base.jsonl head.jsonl --integration 'test_api' --allow-env=CI,REGION
run no-env-allowed base.jsonl head.jsonl --allow-env ''
run json base.jsonl head.jsonl --control head2.jsonl --json
run same base.jsonl base.jsonl
run probe base.jsonl head.jsonl --probe --probe-count 0
run bad-json base.jsonl bad-json.jsonl
run bad-outcome base.jsonl bad-outcome.jsonl
run bad-channel base.jsonl bad-channel.jsonl
run bad-test base.jsonl bad-test.jsonl
run bad-channels bad-channels.jsonl head.jsonl
run bad-trailing base.jsonl bad-trailing.jsonl
run bad-array base.jsonl head.jsonl --control bad-array.jsonl
run bad-regex base.jsonl head.jsonl --integration '('
run missing base.jsonl missing.jsonl
run usage-one base.jsonl
run usage-option base.jsonl head.jsonl --frob

exit $bad
