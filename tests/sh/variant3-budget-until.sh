#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Issue 31 (g), variant: --until HH:MM:SS, 25 s from now in local time, on
# three pytest files at cpu 1,2 x load 1,2. flakesweep(1), --until: "the
# same, with the deadline given as a time"; it ends between 70% and 105% of
# the time to the deadline with at least 3 runs a pair, config.until (RFC
# 3339 in UTC) and config.count in results.json. Bad input: a date and time
# already past (an error), --until with --for, an hour that is no time;
# and a time of day already past today is tomorrow's "and the sweep says so".
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_pytest

mkdir -p zoo/tests
cd zoo
for f in lion otter crane; do
	cat >tests/test_$f.py <<PY
import time


def test_${f}_fed():
    time.sleep(0.05)


def test_${f}_counted():
    assert "$f"
PY
done

deadline=$(date -d '+25 seconds' +%H:%M:%S)
start=$(date +%s.%N)
rc=0
"$FLAKESWEEP" --driver pytest --until "$deadline" --cpu 1,2 --load 1,2 --canaries 0 --ui none \
	-o "$work/out" tests >"$work/out.txt" 2>&1 || rc=$?
end=$(date +%s.%N)
took=$(/usr/bin/python3 -c "print(round($end - $start, 1))")
echo "--until $deadline: exit $rc after ${took}s"
[ "$rc" = 0 ] || { cat "$work/out.txt"; fail "--until: exit $rc, want 0"; }
/usr/bin/python3 -c "import sys; sys.exit(not (17 <= $took <= 26.3))" ||
	fail "--until 25 s ahead ended after ${took}s, want between 17 (70%) and 26.3 (105%)"
r=$work/out/results.json
u=$(json_get "$r" 'd["config"].get("until")')
want=$(date -u -d "$deadline" +%Y-%m-%dT%H:%M:%SZ)
[ "$u" = "$want" ] || fail "config.until is $u, want $want"
c=$(json_get "$r" 'd["config"].get("count")')
[ "$c" -ge 3 ] 2>/dev/null || fail "config.count is $c, want the count chosen, at least 3"
low=$(json_get "$r" 'min(c["runs"] for t in d["tests"] for c in t["cells"] if c.get("phase", "sweep") == "sweep")')
pairs=$(json_get "$r" 'len({(t["id"], c["cpu"], c["load"]) for t in d["tests"] for c in t["cells"]})')
[ "$pairs" = 24 ] || fail "$pairs (test, pair) cells, want 6 tests x 4 pairs"
[ "$low" -ge 3 ] || fail "a pair had $low runs, want at least 3"
echo "ok: ${took}s; config.until $u count $c; at least $low runs a pair"

bad() { # name pattern args...
	local name=$1 pat=$2 rc=0
	shift 2
	"$FLAKESWEEP" --driver pytest "$@" --cpu 1 --load 1 --canaries 0 --ui none tests/test_lion.py \
		>"$work/$name.txt" 2>&1 || rc=$?
	[ "$rc" = 2 ] || { cat "$work/$name.txt"; fail "$name: exit $rc, want 2"; }
	grep -qi -- "$pat" "$work/$name.txt" || { cat "$work/$name.txt"; fail "$name: the message lacks $pat"; }
	echo "ok: $name: $(grep -i -m1 -- "$pat" "$work/$name.txt")"
}
bad pastdate '2021-03-04T05:06:07Z' --until 2021-03-04T05:06:07Z -o "$work/b1"
bad withfor '--for' --until 23:59 --for 10m -o "$work/b2"
bad nohour '25:61' --until 25:61 -o "$work/b3"

# A time of day already past today means tomorrow, said so; stopped at once.
past=$(date -d '-2 minutes' +%H:%M)
[ "$past" \< "$(date +%H:%M)" ] || skip "too close to midnight for the past-time check"
rc=0
timeout -s INT 15 "$FLAKESWEEP" --driver pytest --until "$past" --cpu 1 --load 1 --canaries 0 \
	--ui line -o "$work/tomorrow" tests/test_lion.py >"$work/tomorrow.txt" 2>&1 || rc=$?
grep -qi 'tomorrow' "$work/tomorrow.txt" || { cat "$work/tomorrow.txt"; fail "--until $past (past today): no word that it means tomorrow"; }
echo "ok: --until $past: $(grep -i -m1 tomorrow "$work/tomorrow.txt") (exit $rc after SIGINT)"
