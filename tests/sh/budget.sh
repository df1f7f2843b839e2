#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# A time budget instead of a count: --for 100s on a dozen tiny Go packages
# at cpu 1,2 x load 1,2 ends 70 to 105 seconds after it started, with at
# least 3 runs a pair; results.json keeps the budget (config.for_s) and
# the count chosen, and the journal has a budget line for each choice.
# Bad budgets are refused with a clear message before anything runs.
set -eu
. "$CHECK_SRCDIR/tests/lib/budget-mod.sh"
fail() { echo "FAIL: $*"; exit 1; }
refused() { # WHAT PATTERN OPTIONS...
	local what=$1 pattern=$2 rc=0
	shift 2
	"$FLAKESWEEP" --ui none -o "$CHECK_TMPDIR/refused" "$@" ./... >"$CHECK_TMPDIR/err" 2>&1 || rc=$?
	[ "$rc" = 2 ] || { cat "$CHECK_TMPDIR/err"; fail "$what: exit $rc, expected 2"; }
	grep -q -- "$pattern" "$CHECK_TMPDIR/err" || { cat "$CHECK_TMPDIR/err"; fail "$what: no '$pattern'"; }
	[ ! -e "$CHECK_TMPDIR/refused" ] || fail "$what: wrote its output directory"
}
refused zero 'invalid value "0" for --for: expected a duration above zero' --for 0
refused negative 'invalid value "-5m" for --for: expected a duration above zero' --for -5m
refused unparsable 'invalid value "soon" for --for' --for soon
refused past-date 'invalid value "2001-01-01T07:00:00Z" for --until: expected a time still to come' \
	--until 2001-01-01T07:00:00Z
refused bad-time 'invalid value "25:00" for --until' --until 25:00
refused both '--for and --until cannot be combined' --for 1h --until 07:00
refused resume '--for and --until cannot be given to --resume' --for 1h --resume "$CHECK_TMPDIR/x"
# A time of day already past today is tomorrow's, and the sweep says so.
past=$(date -d '-2 minutes' +%H:%M)
"$FLAKESWEEP" --until "$past" --shard-plan --ui none ./... >/dev/null 2>"$CHECK_TMPDIR/err" || true
grep -q "^flakesweep: --until $past is past today: the sweep ends by $past tomorrow" \
	"$CHECK_TMPDIR/err" || { cat "$CHECK_TMPDIR/err"; fail "--until $past not said to be tomorrow's"; }
# Too small for one run a pair: an error that names the least budget.
rc=0
"$FLAKESWEEP" --for 1s --cpu 1,2 --load 1,2 --no-race --ui none -o "$CHECK_TMPDIR/small" ./... \
	>"$CHECK_TMPDIR/small.txt" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$CHECK_TMPDIR/small.txt"; fail "--for 1s: exit $rc, expected 2"; }
grep -q 'the budget of 1s is too small for one run a pair: it needs at least [0-9]' \
	"$CHECK_TMPDIR/small.txt" || { cat "$CHECK_TMPDIR/small.txt"; fail "--for 1s: no minimum"; }

start=$(date +%s%N)
"$FLAKESWEEP" --for 100s --cpu 1,2 --load 1,2 --no-race --ui none -o "$CHECK_TMPDIR/out" ./... \
	>"$CHECK_TMPDIR/out.txt" 2>&1 || { cat "$CHECK_TMPDIR/out.txt"; fail "--for 100s failed"; }
end=$(date +%s%N)
check_budget "$CHECK_TMPDIR/out" 100000 $(((end - start) / 1000000)) for_s 100
