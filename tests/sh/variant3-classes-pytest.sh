#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 400
# Issue 29 (d), variant with pytest. (1) tests/test_spool.py writes its pid
# into one spool file outside TMPDIR, waits, and reads it back: runs of the
# same file collide at load 2 and never alone, so it is "harness-bug"
# (flakesweep(1), Classes), and quarantine add --results refuses it, naming
# the class, unless --force --reason. (2) tests/test_coin.py fails about one
# run in three (random.random() < 1/3, from the system's randomness) at
# every pair, alone or not: "test-flake", and quarantine add takes it.
# (3) The same refusal when the test is named by its bare pytest node id,
# which flakesweep(5), QUARANTINE FILE, says names the same test ("an entry
# may name either, and both name one test").
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_pytest

mkdir -p pyproj/tests
cd pyproj
export V3_SPOOL=$work/spool.txt
cat >tests/test_spool.py <<'PY'
import os
import time


def test_spool_roundtrip():
    me = str(os.getpid())
    with open(os.environ["V3_SPOOL"], "w") as f:
        f.write(me)
    time.sleep(0.5)
    with open(os.environ["V3_SPOOL"]) as f:
        assert f.read() == me, "spool overwritten by another printer job"
PY
cat >tests/test_coin.py <<'PY'
import random


def test_coin_lands_heads():
    assert random.SystemRandom().random() >= 1 / 3, "tails"
PY

sweep() {
	local name=$1 rc=0
	shift
	"$FLAKESWEEP" --driver pytest --canaries 0 --ui none -o "$work/$name" "$@" >"$work/$name.txt" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat "$work/$name.txt"; fail "$name: exit $rc, want 1"; }
}
show() { # name id-suffix
	json_get "$work/$1/results.json" "[(t['id'], t['verdict'], t.get('class'), [c['cause'] for c in t.get('causes') or []]) for t in d['tests'] if t['id'].endswith('$2')]"
}
sweep spool --cpu 1 --load 2 --count 16 --confirm 12 tests/test_spool.py
sweep coin --cpu 1,2 --load 1 --count 18 --confirm 6 tests/test_coin.py
echo "spool: $(show spool ::test_spool_roundtrip)"
echo "coin: $(show coin ::test_coin_lands_heads)"

q=$work/quarantine.json
add() { # want id results [options...]
	local want=$1 id=$2 res=$3 rc=0
	shift 3
	"$FLAKESWEEP" quarantine add "$id" any --owner qa --issue https://example.com/i/5 \
		--expires 2030-06-30 --results "$res" --file "$q" "$@" >"$work/add.txt" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { cat "$work/add.txt"; fail "quarantine add $id $*: exit $rc, want $want"; }
}

cls=$(json_get "$work/spool/results.json" "[t.get('class') for t in d['tests'] if t['id'].endswith('::test_spool_roundtrip')][0]")
[ "$cls" = harness-bug ] || fail "spool: class $cls, want harness-bug: $(show spool ::test_spool_roundtrip)"
add 2 tests/test_spool.py::tests/test_spool.py::test_spool_roundtrip "$work/spool/results.json"
grep -q harness-bug "$work/add.txt" || { cat "$work/add.txt"; fail "the refusal does not name the class"; }
echo "ok: refused: $(head -1 "$work/add.txt")"
add 0 tests/test_spool.py::tests/test_spool.py::test_spool_roundtrip "$work/spool/results.json" --force --reason "shared spool file"
e=$(json_get "$q" "[e for e in d if e['test'].endswith('test_spool_roundtrip')][0]")
case $e in *'"forced": true'*'"class": "harness-bug"'* | *'"class": "harness-bug"'*'"forced": true'*) ;;
*) fail "forced entry: $e, want forced true and class harness-bug" ;; esac
echo "ok: forced: $e"

cls=$(json_get "$work/coin/results.json" "[t.get('class') for t in d['tests'] if t['id'].endswith('::test_coin_lands_heads')][0]")
[ "$cls" = test-flake ] || fail "coin: class $cls, want test-flake: $(show coin ::test_coin_lands_heads)"
add 0 tests/test_coin.py::tests/test_coin.py::test_coin_lands_heads "$work/coin/results.json"
e=$(json_get "$q" "[e for e in d if e['test'].endswith('test_coin_lands_heads')][0]")
case $e in *'"class": "test-flake"'*) ;; *) fail "test-flake entry: $e" ;; esac
echo "ok: test-flake taken: $e"

# (3) the bare node id names the same test: refused the same way.
q=$work/quarantine-nodeid.json
add 2 tests/test_spool.py::test_spool_roundtrip "$work/spool/results.json"
grep -q harness-bug "$work/add.txt" || { cat "$work/add.txt"; fail "node id: the refusal does not name the class"; }
echo "ok: node id refused: $(head -1 "$work/add.txt")"
