#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# flakesweep plan takes a sweep's command line: every option and pattern a
# sweep takes, with plan's own --cores and --durations, so `plan` can go in
# front of a sweep's command. Options that do not change the schedule give
# the same plan as without them; those that change it in ways the plan
# does not model are said on standard error, and the plan goes on. A
# sweep's refusals stay refusals, named as a sweep names them; --help is
# plan's.
set -eu
cd "$CHECK_TMPDIR"
dozen=$CHECK_SRCDIR/tests/fixtures/plan/dozen.json
fail() { echo "FAIL: $*"; exit 1; }
base=(plan --cores 64 --cpu 1,2 --load 1,2 --count 20 --canaries 0 --durations "$dozen" --json)
"$FLAKESWEEP" "${base[@]}" >plain.json 2>plain.err || fail "the plain plan: $(cat plain.err)"
[ ! -s plain.err ] || fail "the plain plan said: $(cat plain.err)"
# Options that change nothing the scheduler decides, in both spellings.
"$FLAKESWEEP" "${base[@]}" --timeout 5m -kill-grace=10s --shuffle --skip '^TestX$' --no-race \
	--cover --private-workdir --tz UTC --locale C --scrub-env A --mask-env B --ui none \
	--build-tags x --quarantine q.json --junit j.xml --force --tap-select arg \
	--pytest-unit file --no-cpu-shim --lease-ttl 5m --driver go \
	>same.json 2>same.err || fail "a sweep's options refused: $(cat same.err)"
[ ! -s same.err ] || fail "options that change nothing were said: $(cat same.err)"
[ ! -e j.xml ] || fail "--junit wrote a file"
python3 - plain.json same.json <<'PY' || exit 1
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for k in ("runs", "wall_s", "lanes", "utilisation"):
    if a[k] != b[k]:
        print("FAIL: %s %r became %r with options that change no schedule" % (k, a[k], b[k]))
        sys.exit(1)
print("ok: the same plan with a sweep's other options")
PY
# A sweep's command line with plan in front: a TAP command after --.
"$FLAKESWEEP" plan --cores 16 --durations "$dozen" --count 2 --driver tap --tap-select env \
	-- ./t.sh --verbose >tap.txt 2>tap.err || fail "a TAP sweep's line: $(cat tap.err)"
grep -q '^machine: 16 cores' tap.txt || fail "no plan for the TAP line: $(cat tap.txt)"
# Options that change the schedule in ways the plan leaves out are named.
mkdir -p leases
"$FLAKESWEEP" "${base[@]}" --for 8h --exclusive db=example.com/dozen/p0 --quiet 50 \
	--lease-dir leases >left.json 2>left.err || fail "the plan refused: $(cat left.err)"
for o in --for --exclusive --quiet --lease-dir; do
	grep -q -- "$o" left.err || fail "the plan does not say it leaves $o out: $(cat left.err)"
done
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' left.json || fail "--json broke"
# A sweep's refusals, as a sweep words them, with exit status 2.
refuse() { # WHAT ARGS...
	local what=$1 rc=0
	shift
	"$FLAKESWEEP" plan --cores 16 --durations "$dozen" "$@" >out.txt 2>err.txt || rc=$?
	[ "$rc" = 2 ] && grep -q -- "$what" err.txt || fail "plan $*: exit $rc: $(cat err.txt)"
}
refuse 'invalid value "fast" for --timeout' --timeout fast
refuse 'unknown option --cuont' --cuont 3
refuse 'needs a command after --' --driver tap
refuse 'a command after -- needs --driver tap' -- ./t.sh
refuse 'invalid value "0" for --cores' --cores 0
# --help is plan's own.
"$FLAKESWEEP" plan --help >help.txt
grep -q '^Usage: flakesweep plan' help.txt || fail "plan --help: $(head -1 help.txt)"
echo "ok: plan takes a sweep's command line"
