#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 400
# Band-aids (flakesweep(1), compare): in a real git repository, a coin-flip
# test swept before and after each "fix". A retry loop around the coin is
# named retry and the test is masked, never fixed, its rates' verdict
# beside it; t.Skip makes it skipped, named skip; a mutex and a WaitGroup
# are a real fix: fixed, with no band-aid. A pytest coin fixed with a sleep
# through an import alias and a flaky decorator is masked with sleep and
# flaky-marker. --json lists tests[].bandaids[] with kind, file, line and
# text; masked and skipped exit 1 for a compare of the test, as rarer does.
# verify of the retry at its checkout says masked, exit 1, and so does its
# verify.json; that of the mutex says fixed, and --junit writes its runs.
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
command -v git >/dev/null || { echo "SKIP git is not installed"; exit 77; }
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
export XDG_CACHE_HOME="$CHECK_TMPDIR/cache"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com

sweep() { # OUT ARGS...: a sweep of the checkout in repo
	local out=$1 rc=0
	shift
	(cd repo && "$FLAKESWEEP" --cpu 1 --load 1 --count 20 --confirm 0 --canaries 0 --timeout 60s \
		--ui none -o "$CHECK_TMPDIR/$out" "$@" >/dev/null 2>"$CHECK_TMPDIR/$out.err") || rc=$?
	[ "$rc" -le 1 ] || { cat "$out.err"; fail "sweep $out: exit $rc"; }
}
commit() { # BRANCH: commits the tree as BRANCH, from base
	git -C repo checkout -q -b "$1" base
	cat >"repo/$2"
	git -C repo commit -qam "$1"
}
compare() { # AFTER: compare before AFTER for the test; stdout and exit status kept
	rc=0
	"$FLAKESWEEP" compare before "$1" --test "$id" --level 0.2 >"$1.txt" 2>"$1.cerr" || rc=$?
	"$FLAKESWEEP" compare before "$1" --level 0.2 --json >"$1.json" 2>/dev/null || true
}

# Go.
mkdir repo
git -C repo init -q -b base
printf 'module example.com/coin\n\ngo 1.19\n' >repo/go.mod
cat >repo/coin_test.go <<'GO'
package coin

import (
	"math/rand"
	"testing"
	"time"
)

func TestCoin(t *testing.T) {
	rand.Seed(time.Now().UnixNano())
	if rand.Intn(2) == 0 {
		t.Fatal("tails")
	}
}
GO
git -C repo add . && git -C repo commit -qm base
id=example.com/coin::TestCoin
sweep before
grep -q '"flaky"' before/results.json || fail "the coin is not flaky before: $(cat before/report.txt)"

commit retry coin_test.go <<'GO'
package coin

import (
	"math/rand"
	"testing"
	"time"
)

func TestCoin(t *testing.T) {
	rand.Seed(time.Now().UnixNano())
	for i := 0; i < 20; i++ {
		if rand.Intn(2) != 0 {
			return
		}
	}
	t.Fatal("tails")
}
GO
sweep retry
compare retry
[ "$rc" = 1 ] || fail "retry: exit $rc, expected 1: $(cat retry.txt retry.cerr)"
grep -q "^masked  *$id .*; fixed by the rates$" retry.txt || fail "retry: $(cat retry.txt)"
grep -q "band-aid retry at coin_test.go:11: for i := 0; i < 20; i++ {" retry.txt || fail "retry: $(cat retry.txt)"
# verify at the retry's checkout: the sequential tests say fixed, the fix is
# masked.
rc=0
(cd repo && "$FLAKESWEEP" verify --test "$id" --results "$CHECK_TMPDIR/before/results.json" \
	--budget 300 --timeout 60s --canaries 0 --ui none -o "$CHECK_TMPDIR/verify-retry" \
	>"$CHECK_TMPDIR/verify.txt" 2>"$CHECK_TMPDIR/verify.err") || rc=$?
[ "$rc" = 1 ] || fail "verify: exit $rc, expected 1: $(cat verify.txt verify.err)"
grep -qxF "verify: $id masked: its fix is band-aids only (exit 1)" verify.txt || fail "verify: $(cat verify.txt)"
grep -q "band-aid retry at coin_test.go:11" verify.txt || fail "verify: $(cat verify.txt)"
python3 - "$(git -C repo rev-parse HEAD)" <<'PY'
import json, sys
v = json.load(open("verify-retry/verify.json"))
assert v["schema"] == "flakesweep/verify/v1" and v["verdict"] == "masked", v
assert v["test"] == "example.com/coin::TestCoin" and v["commit"] == sys.argv[1], v
assert v["dirty"] is False and v["runs"] == sum(p["runs"] for p in v["pairs"]), v
assert [p["decision"] for p in v["pairs"]] == ["fixed"], v
assert [b["kind"] for b in v["bandaids"]] == ["retry"], v
PY

git -C repo checkout -q base
commit skip coin_test.go <<'GO'
package coin

import (
	"math/rand"
	"testing"
	"time"
)

func TestCoin(t *testing.T) {
	t.Skip("flaky")
	rand.Seed(time.Now().UnixNano())
	if rand.Intn(2) == 0 {
		t.Fatal("tails")
	}
}
GO
sweep skip
compare skip
[ "$rc" = 1 ] || fail "skip: exit $rc, expected 1: $(cat skip.txt skip.cerr)"
grep -q "^skipped  *$id" skip.txt || fail "skip: $(cat skip.txt)"
grep -q 'band-aid skip at coin_test.go:10: t.Skip("flaky")' skip.txt || fail "skip: $(cat skip.txt)"

git -C repo checkout -q base
commit mutex coin_test.go <<'GO'
package coin

import (
	"sync"
	"testing"
)

func TestCoin(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			n++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		t.Fatal("tails")
	}
}
GO
sweep mutex
compare mutex
[ "$rc" = 0 ] || fail "mutex: exit $rc, expected 0: $(cat mutex.txt mutex.cerr)"
grep -q "^fixed  *$id" mutex.txt || fail "mutex: $(cat mutex.txt)"
! grep -q "band-aid" mutex.txt || fail "mutex: a band-aid named: $(cat mutex.txt)"
rc=0
(cd repo && "$FLAKESWEEP" verify --test "$id" --results "$CHECK_TMPDIR/before/results.json" \
	--budget 300 --timeout 60s --canaries 0 --ui none -o "$CHECK_TMPDIR/verify-mutex" \
	--junit "$CHECK_TMPDIR/verify.xml" >"$CHECK_TMPDIR/verify.txt" 2>"$CHECK_TMPDIR/verify.err") || rc=$?
[ "$rc" = 0 ] || fail "verify mutex: exit $rc, expected 0: $(cat verify.txt verify.err)"
grep -q '<testcase name="TestCoin" classname="example.com/coin"' verify.xml || fail "verify --junit: $(cat verify.xml)"
python3 - <<'PY'
import json
v = json.load(open("verify-mutex/verify.json"))
assert v["verdict"] == "fixed" and v["bandaids"] == [] and v["dirty"] is False, v
PY

python3 - <<'PY'
import json
def test(name):
    [t] = [t for t in json.load(open(name + ".json"))["tests"] if t["id"] == "example.com/coin::TestCoin"]
    return t
t = test("retry")
assert t["verdict"] == "masked" and t["measured"] == "fixed", t
assert t["bandaids"] == [{"kind": "retry", "file": "coin_test.go", "line": 11,
                          "text": "for i := 0; i < 20; i++ {"}], t["bandaids"]
t = test("skip")
assert t["verdict"] == "skipped" and [b["kind"] for b in t["bandaids"]] == ["skip"], t
t = test("mutex")
assert t["verdict"] == "fixed" and t["bandaids"] == [] and "measured" not in t, t
PY

# pytest.
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
export FLAKESWEEP_PYTHON="$py"
rm -rf repo before
mkdir repo
git -C repo init -q -b base
cat >repo/test_coin.py <<'PY'
import random


def test_coin():
    assert random.random() < 0.5
PY
git -C repo add . && git -C repo commit -qm base
id=test_coin.py::test_coin.py::test_coin
sweep before --driver pytest
grep -q '"flaky"' before/results.json || fail "pytest: the coin is not flaky before: $(cat before/report.txt)"
commit sleepy test_coin.py <<'PY'
import random
import time as clock

import pytest


@pytest.mark.flaky(reruns=3)
def test_coin():
    clock.sleep(0.01)
    assert random.random() < 1.5
PY
sweep sleepy --driver pytest
compare sleepy
[ "$rc" = 1 ] || fail "pytest: exit $rc, expected 1: $(cat sleepy.txt sleepy.cerr)"
grep -q "^masked  *$id" sleepy.txt || fail "pytest: $(cat sleepy.txt)"
grep -q "band-aid flaky-marker at test_coin.py:7: @pytest.mark.flaky(reruns=3)" sleepy.txt || fail "pytest: $(cat sleepy.txt)"
grep -q "band-aid sleep at test_coin.py:9: clock.sleep(0.01)" sleepy.txt || fail "pytest: $(cat sleepy.txt)"
echo "ok: retry and skip named, the mutex fix is fixed; pytest's sleep and flaky marker named"
