#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 400
# Exclusive groups: two packages that share one device (a lock file each
# run creates with O_EXCL) collide at load 2 without --exclusive and never
# with it, on one core; the group is in the journal header and in
# results.json's config. A pattern that matches no package (or, PKG::TEST,
# no test its packages list), a group named twice and a malformed group
# are errors before any run.
set -eu
. "$CHECK_SRCDIR/tests/lib/isolation.sh"
core=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')

# sweep NAME WANT [OPTIONS...]: ./device/... at load 2 on one core.
sweep() {
	local name=$1 want=$2 rc=0
	shift 2
	taskset -c "$core" "$FLAKESWEEP" --cpu 1 --load 2 --count 12 --confirm 0 --canaries 0 \
		--timeout 30s --ui none -o "$CHECK_TMPDIR/$name" "$@" ./device/... \
		>"$CHECK_TMPDIR/$name.out" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { cat "$CHECK_TMPDIR/$name.out"; fail "$name: exit $rc, want $want"; }
}
failures() {
	python3 -c 'import json, sys; print(sum(c["failures"] for t in json.load(open(sys.argv[1]))["tests"] for c in t["cells"]))' \
		"$CHECK_TMPDIR/$1/results.json"
}
sweep without 1
n=$(failures without)
[ "$n" -gt 0 ] || fail "without the group the runs never collided"
sweep with 0 --exclusive dev=./device/...
[ "$(failures with)" = 0 ] || fail "with the group the runs collided"
python3 - "$CHECK_TMPDIR/with" <<'PY'
import json, os, sys
out = sys.argv[1]
res = json.load(open(os.path.join(out, "results.json")))
head = json.loads(open(os.path.join(out, "journal.jsonl")).readline())
for cfg in (res["config"], head["config"]):
    assert cfg["exclusive"] == {"dev": "./device/..."}, cfg
runs = sum(c["runs"] for t in res["tests"] for c in t["cells"])
assert runs == 24, runs
PY
echo "exclusive: $n collisions without the group, 0 with it"

# Bad input: exit 2 before anything runs, naming what is wrong.
bad() {
	local want=$1 rc=0
	shift
	"$FLAKESWEEP" --cpu 1 --load 1 --count 1 --ui none -o "$CHECK_TMPDIR/bad" "$@" ./device/... \
		>"$CHECK_TMPDIR/bad.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || { cat "$CHECK_TMPDIR/bad.out"; fail "$*: exit $rc, want 2"; }
	grep -qF -- "$want" "$CHECK_TMPDIR/bad.out" || { cat "$CHECK_TMPDIR/bad.out"; fail "$*: no \"$want\""; }
	[ ! -e "$CHECK_TMPDIR/bad/runs" ] || fail "$*: runs began"
	rm -rf "$CHECK_TMPDIR/bad"
}
bad "--exclusive dev=./nowhere/... matches no package" --exclusive dev=./nowhere/...
bad "--exclusive gpu=example.com/none matches no package" --exclusive gpu=example.com/none
bad 'invalid value "dev=./zone" for --exclusive: expected a group name not given before' \
	--exclusive dev=./device/... --exclusive dev=./zone
bad 'invalid value "=./zone" for --exclusive: expected NAME=PATTERN' --exclusive =./zone
bad 'invalid value "a/b=./zone" for --exclusive: expected NAME=PATTERN' --exclusive a/b=./zone
# PKG::TEST is checked once the packages listed their tests: after the
# build, before the first run, exit 2 naming it.
rc=0
"$FLAKESWEEP" --cpu 1 --load 1 --count 1 --canaries 0 --ui none -o "$CHECK_TMPDIR/notest" \
	--exclusive dev=./device/...::TestNone ./device/... >"$CHECK_TMPDIR/notest.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$CHECK_TMPDIR/notest.out"; fail "::TestNone: exit $rc, want 2"; }
grep -qF -- "--exclusive dev=./device/...::TestNone matches no test of its packages" \
	"$CHECK_TMPDIR/notest.out" || { cat "$CHECK_TMPDIR/notest.out"; fail "::TestNone: no message"; }
! grep -q '"type":"run"' "$CHECK_TMPDIR/notest/journal.jsonl" || fail "::TestNone: runs began"
# A framework that lists no tests before they run (TAP): the sweep says
# only the pattern's package is checked, and goes on.
printf '#!/bin/sh\necho 1..1\necho ok 1 - one\n' >one.sh
chmod +x one.sh
"$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 1 --confirm 0 --canaries 0 --ui line \
	-o "$CHECK_TMPDIR/tap" --exclusive tap=.::none -- ./one.sh >"$CHECK_TMPDIR/tap.out" 2>&1 ||
	{ cat "$CHECK_TMPDIR/tap.out"; fail "tap: exit $?"; }
grep -qF -- "--exclusive tap=.::none: " "$CHECK_TMPDIR/tap.out" &&
	grep -qF "does not list its tests before they run, so only the pattern's package is checked" \
		"$CHECK_TMPDIR/tap.out" || { cat "$CHECK_TMPDIR/tap.out"; fail "tap: no note"; }
echo "exclusive: ok"
