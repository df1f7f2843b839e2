#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Several polluters of one Go victim, with --shuffle: in package "cache"
# TestColdStart passes alone but fails after TestWarmUp (which fills a
# package map) or after TestPinEntry (which sets a package flag); each
# alone breaks it, and three more tests touch nothing. The victim is
# flaky with the order cause, which names both; results.json's
# polluters[] names both, each with a reproduce command that, run as
# printed from another directory, fails the victim; report.txt says
# "TestColdStart fails after" each of them, with the command.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
T="$CHECK_TMPDIR/v5pg"
mkdir -p "$T/proj/cache"
cd "$T/proj"
export GOPROXY=off GOFLAGS=-mod=mod
cat > go.mod <<'G'
module example.net/shelf

go 1.19
G
cat > cache/cache_test.go <<'G'
package cache

import "testing"

var entries = map[string]int{}
var pinned bool

func TestWarmUp(t *testing.T)   { entries["home"] = 1 }
func TestPinEntry(t *testing.T) { pinned = true }
func TestSizes(t *testing.T)    {}
func TestNames(t *testing.T)    {}
func TestKeys(t *testing.T)     {}
func TestColdStart(t *testing.T) {
	if len(entries) != 0 {
		t.Fatal("cache not cold: entries left behind")
	}
	if pinned {
		t.Fatal("cache not cold: an entry is pinned")
	}
}
G

set +e
"$FLAKESWEEP" --shuffle --count 24 --confirm 20 --cpu 1 --load 1 -o "$T/out" ./... >"$T/sweep.out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || { tail -20 "$T/sweep.out"; fail "sweep exited $rc, not 1"; }
R="$T/out/results.json"
V='.tests[] | select(.id | test("TestColdStart$"))'
jq -e "[$V | .verdict] == [\"flaky\"]" "$R" >/dev/null || fail "victim not flaky: $(jq -c '[.tests[] | {id, verdict}]' "$R")"
names=$(jq -r "$V | .polluters[]?.test" "$R" | sort | tr '\n' ' ')
echo "polluters: $names"
case "$names" in *TestPinEntry*TestWarmUp*) ;; *)
	jq -c "$V | {polluter, polluters, causes}" "$R"
	fail "polluters[] does not name both TestWarmUp and TestPinEntry: '$names'" ;;
esac
case "$names" in *TestSizes* | *TestNames* | *TestKeys*) fail "an innocent test named a polluter: $names" ;; esac
order=$(grep -E "cause \(order\)" "$T/out/report.txt" || true)
echo "$order" | grep -q "TestWarmUp" && echo "$order" | grep -q "TestPinEntry" ||
	{ grep -n "cause" "$T/out/report.txt"; fail "the order cause does not name both polluters"; }
for p in TestWarmUp TestPinEntry; do
	grep -E "TestColdStart.* fails after .*$p" "$T/out/report.txt" >/dev/null ||
		{ grep -n "fails after\|polluter" "$T/out/report.txt"; fail "report.txt has no 'TestColdStart fails after $p' line"; }
	cmd=$(jq -r --arg p "$p" "$V | .polluters[] | select(.test | test(\$p)) | .reproduce" "$R")
	[ -n "$cmd" ] && [ "$cmd" != null ] || fail "no reproduce for $p"
	grep -qF -- "$cmd" "$T/out/report.txt" || fail "report.txt lacks the reproduce command for $p: $cmd"
	set +e
	(cd "$T" && bash -c "$cmd") >"$T/repro-$p.out" 2>&1
	rrc=$?
	set -e
	[ "$rrc" != 0 ] || { cat "$T/repro-$p.out"; fail "reproduce for $p exited 0: $cmd"; }
	grep -q "cache not cold" "$T/repro-$p.out" || { cat "$T/repro-$p.out"; fail "reproduce for $p did not fail the victim: $cmd"; }
done
echo "PASS"
