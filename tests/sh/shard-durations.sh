#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# --durations without a sweep: a durations file that knows none (or only
# some) of the packages still deals the packages it does not know round the
# shards, as a plan without one does, instead of piling them onto one
# shard; a FIFO, a device or a missing file is refused at once (exit 2)
# naming it, and so is --durations without --shard or --shard-plan, where
# it would do nothing.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
work=$CHECK_TMPDIR/proj
cp -r "$CHECK_SRCDIR/tests/fixtures/shards" "$work"
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# units N [OPTIONS...]: the number of units of each of N shards' plan.
units() {
	local n=$1 got
	shift
	got=$("$FLAKESWEEP" --shard-plan --shard "1/$n" "$@" ./... 2>"$CHECK_TMPDIR/plan-err" |
		awk '/^shard [0-9]+\// { printf "%s ", $3 }')
	[ "$(echo $got | wc -w)" = "$n" ] || fail "--shard-plan --shard 1/$n $*: $(cat "$CHECK_TMPDIR/plan-err")"
	echo "$got"
}
# results.json of a TAP sweep: its one package ("sh ./t.sh") is none of these.
none=$CHECK_SRCDIR/tests/fixtures/results/noise.json
for n in 2 3; do
	plain=$(units $n)
	got=$(units $n --durations "$none")
	echo "$n shards: without --durations: $plain; with one that knows none: $got"
	case " $got" in *" 0 "*) fail "$n shards: a shard got no unit: $got" ;; esac
done
# A file that knows some packages: weigh two of them, 1 s and 1 s.
python3 - "$none" "$CHECK_TMPDIR/some.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
p = r["packages"][0]
r["packages"] = [dict(p, package="example.com/shards/" + n, ms=1000) for n in ("alpha", "bravo")]
for t in r["tests"]:
    t["pkg"] = 0
json.dump(r, open(sys.argv[2], "w"))
PY
got=$(units 2 --durations "$CHECK_TMPDIR/some.json")
echo "2 shards, a file that knows 2 of 5: $got"
case " $got" in *" 0 "*) fail "a shard got no unit: $got" ;; esac

# Refusals: at once, exit 2, naming the file.
refused() { # WHAT OPTIONS... : exit 2 and WHAT on stderr
	local what=$1 rc=0
	shift
	timeout 20 "$FLAKESWEEP" --ui none --count 1 --cpu 1 --load 1 --confirm 0 \
		-o "$CHECK_TMPDIR/never" "$@" ./... >/dev/null 2>"$CHECK_TMPDIR/err" || rc=$?
	[ "$rc" = 2 ] || fail "$*: exit $rc, expected 2: $(cat "$CHECK_TMPDIR/err")"
	grep -qF -- "$what" "$CHECK_TMPDIR/err" || fail "$*: $(cat "$CHECK_TMPDIR/err")"
	[ ! -e "$CHECK_TMPDIR/never" ] || fail "$*: the output directory was made"
}
mkfifo "$CHECK_TMPDIR/fifo"
refused "--durations: $CHECK_TMPDIR/fifo is not a regular file" --shard-plan --shard 1/2 \
	--durations "$CHECK_TMPDIR/fifo"
refused "--durations: $CHECK_TMPDIR/fifo is not a regular file" --shard 1/2 \
	--durations "$CHECK_TMPDIR/fifo"
refused "--durations: /dev/zero is not a regular file" --shard 1/2 --durations /dev/zero
refused "--durations: cannot read $CHECK_TMPDIR/nonexist: No such file or directory" \
	--shard 1/2 --durations "$CHECK_TMPDIR/nonexist"
needs="--durations weighs the shards or plans a budget: it needs --shard, --shard-plan"
refused "$needs, --for or --until" --durations "$CHECK_TMPDIR/nonexist"
refused "$needs, --for or --until" --durations "$none"
echo ok
