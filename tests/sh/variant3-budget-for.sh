#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Issue 31 (g), variant: --for 25s on four Go packages (tests of 50-150 ms)
# at cpu 1,2 x load 1,2. flakesweep(1), --for: "the sweep (build, sweep and
# confirm phases) ends within duration of its start"; the issue: between
# 70% and 105% of it, with at least 3 runs a pair, the budget and the count
# in results.json (flakesweep(5): config.for_s; "config in results.json has
# the last ones"; a budget line in the journal). Bad input: --for 0, a
# negative and an unparsable duration, --for with --resume, a budget too
# small for one run a pair (an error naming the least budget), and --unti
# (a prefix: an unknown option "that names the option it may mean") each
# exit 2 with a clear message.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_go

gomod farm example.com/farm
for p in barn silo mill coop; do
	mkdir -p farm/$p
	cat >farm/$p/${p}_test.go <<GO
package $p

import (
	"testing"
	"time"
)

func TestFeed(t *testing.T) { time.Sleep(50 * time.Millisecond) }

func TestWater(t *testing.T) { time.Sleep(100 * time.Millisecond) }
GO
done
cd farm

start=$(date +%s.%N)
rc=0
"$FLAKESWEEP" --for 25s --cpu 1,2 --load 1,2 --canaries 0 --no-race --ui none -o "$work/out" ./... \
	>"$work/out.txt" 2>&1 || rc=$?
end=$(date +%s.%N)
took=$(/usr/bin/python3 -c "print(round($end - $start, 1))")
echo "--for 25s: exit $rc after ${took}s"
[ "$rc" = 0 ] || { cat "$work/out.txt"; fail "--for 25s: exit $rc, want 0"; }
/usr/bin/python3 -c "import sys; sys.exit(not (17.5 <= $took <= 26.25))" ||
	fail "--for 25s ended after ${took}s, want between 17.5 (70%) and 26.25 (105%)"
r=$work/out/results.json
fs=$(json_get "$r" 'd["config"].get("for_s")')
[ "$fs" = 25 ] || fail "config.for_s is $fs, want 25"
c=$(json_get "$r" 'd["config"].get("count")')
[ "$c" -ge 3 ] 2>/dev/null || fail "config.count is $c, want the count chosen, at least 3"
st=$(json_get "$r" 'd["status"]')
[ "$st" = complete ] || fail "status $st, want complete"
grep -q '"budget"\|"type":"budget"\|"type": "budget"' "$work/out/journal.jsonl" || fail "no budget line in the journal"
low=$(json_get "$r" 'min(c["runs"] for t in d["tests"] for c in t["cells"] if c.get("phase", "sweep") == "sweep")')
pairs=$(json_get "$r" 'len({(t["id"], c["cpu"], c["load"]) for t in d["tests"] for c in t["cells"]})')
[ "$pairs" = 32 ] || fail "$pairs (test, pair) cells, want 8 tests x 4 pairs"
[ "$low" -ge 3 ] || fail "a pair had $low runs, want at least 3"
echo "ok: ${took}s; config.for_s $fs count $c; at least $low runs a pair"

bad() { # name pattern args...
	local name=$1 pat=$2 rc=0
	shift 2
	"$FLAKESWEEP" "$@" --cpu 1 --load 1 --no-race --canaries 0 --ui none ./barn \
		>"$work/$name.txt" 2>&1 || rc=$?
	[ "$rc" = 2 ] || { cat "$work/$name.txt"; fail "$name: exit $rc, want 2"; }
	grep -qi -- "$pat" "$work/$name.txt" || { cat "$work/$name.txt"; fail "$name: the message lacks $pat"; }
	echo "ok: $name: $(grep -i -m1 -- "$pat" "$work/$name.txt")"
}
bad zero '--for' --for 0 -o "$work/b1"
bad negative '--for' --for -5s -o "$work/b2"
bad garbage 'soon' --for soon -o "$work/b3"
bad resume '--resume' --for 30s --resume "$work/out"
bad tiny 'budget' --for 1ms -o "$work/b5"
grep -Eq '[0-9]+(ms|s|m)' "$work/tiny.txt" || fail "tiny: the least budget is not named: $(cat "$work/tiny.txt")"
bad prefix '--until' --unti 23:00 -o "$work/b6"
