#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 400
# A slower test is a cost (flakesweep(1), compare): in a real git
# repository, a coin-flip test swept before and after two "fixes" that
# retry the coin. One also busy-waits 600 ms, which no sleep it added
# explains: compare says it got slower, with its runs' median times before
# and after and the sleeps' total, in the text and in --json's
# tests[].duration. The other only sleeps 400 ms: its sleeps explain its
# growth, and nothing is said. verify of the slow one says it too.
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
command -v git >/dev/null || { echo "SKIP git is not installed"; exit 77; }
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
export XDG_CACHE_HOME="$CHECK_TMPDIR/cache"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com

sweep() { # OUT: a sweep of the checkout in repo
	local rc=0
	(cd repo && "$FLAKESWEEP" --cpu 1 --load 1 --count 12 --confirm 0 --canaries 0 --timeout 60s \
		--ui none -o "$CHECK_TMPDIR/$1" >/dev/null 2>"$CHECK_TMPDIR/$1.err") || rc=$?
	[ "$rc" -le 1 ] || { cat "$1.err"; fail "sweep $1: exit $rc"; }
}
commit() { # BRANCH FILE: commits standard input as FILE on BRANCH, from base
	git -C repo checkout -q -b "$1" base
	cat >"repo/$2"
	git -C repo commit -qam "$1"
}
fix() { # BODY: the coin test, retried, with BODY before the coin
	cat <<GO
package coin

import (
	"math/rand"
	"testing"
	"time"
)

func TestCoin(t *testing.T) {
	rand.Seed(time.Now().UnixNano())
$1
	for i := 0; i < 30; i++ {
		if rand.Intn(2) != 0 {
			return
		}
	}
	t.Fatal("tails")
}
GO
}

mkdir repo
git -C repo init -q -b base
printf 'module example.com/coin\n\ngo 1.19\n' >repo/go.mod
fix "	if rand.Intn(2) == 0 {
		t.Fatal(\"tails\")
	}" | sed '/for i := 0/,/t.Fatal("tails")$/d' >repo/coin_test.go
git -C repo add . && git -C repo commit -qm base
id=example.com/coin::TestCoin
sweep before
grep -q ' 1 flaky,' before/report.txt || fail "the coin is not flaky before: $(cat before/report.txt)"

fix "	for start := time.Now(); time.Since(start) < 600*time.Millisecond; {
	}
	time.Sleep(time.Millisecond)" | commit slow coin_test.go
sweep slow
git -C repo checkout -q base
fix "	time.Sleep(400 * time.Millisecond)" | commit sleepy coin_test.go
sweep sleepy

for after in slow sleepy; do
	"$FLAKESWEEP" compare before $after --test "$id" --level 0.2 >$after.txt 2>$after.cerr || true
	"$FLAKESWEEP" compare before $after --level 0.2 --json >$after.json 2>/dev/null || true
done
grep -q "^ *slower: its runs took [0-9]* ms, [0-9]* ms before; the sleeps it added explain 1 ms$" slow.txt ||
	fail "slow: $(cat slow.txt slow.cerr)"
! grep -q "slower" sleepy.txt || fail "sleepy: $(cat sleepy.txt)"
python3 - <<'PY'
import json
slow = {t["id"]: t for t in json.load(open("slow.json"))["tests"]}["example.com/coin::TestCoin"]
d = slow["duration"]
assert d["sleeps_ms"] == 1 and d["after_ms"] - d["before_ms"] >= 500, d
assert d["unexplained_ms"] == d["after_ms"] - d["before_ms"] - 1, d
sleepy = {t["id"]: t for t in json.load(open("sleepy.json"))["tests"]}["example.com/coin::TestCoin"]
d = sleepy["duration"]
assert d["sleeps_ms"] == 400 and d["unexplained_ms"] == 0, d
assert "sleep" in [b["kind"] for b in sleepy["bandaids"]], sleepy
PY

# verify at the slow one's checkout says it too.
git -C repo checkout -q slow
rc=0
(cd repo && "$FLAKESWEEP" verify --test "$id" --results "$CHECK_TMPDIR/before/results.json" \
	--budget 60 --timeout 60s --canaries 0 --ui none -o "$CHECK_TMPDIR/verify-slow" \
	>"$CHECK_TMPDIR/verify.txt" 2>"$CHECK_TMPDIR/verify.err") || rc=$?
grep -q "slower: its runs took [0-9]* ms, [0-9]* ms before; the sleeps it added explain 1 ms" verify.txt ||
	fail "verify (exit $rc): $(cat verify.txt verify.err)"
echo "ok: a slower test is named, with the time its sleeps do not explain"
