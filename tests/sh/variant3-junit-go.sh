#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Issue 30 (e), variant: a Go module of five packages, one per verdict:
# ./ledger passes, ./cache fails on odd runs (flaky), ./parser always fails
# and prints bytes XML 1.0 cannot hold (a control character, an escape
# sequence, invalid UTF-8), ./socket sleeps past --timeout (hangs every
# run), ./gpu skips itself. flakesweep junit DIR -o FILE (flakesweep(1),
# junit; flakesweep(5), JUNIT REPORT): a testsuites root whose every
# testsuite validates against the Surefire XSD kept in tests/fixtures/junit;
# the flaky test has flakyFailure (type "failure") and no failure, the
# failing one a single failure, the hung one an error of type "hang", the
# skipped one skipped, the passed one no child.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_go

gomod shelf example.com/shelf
mk() { # pkg body
	mkdir -p "shelf/$1"
	printf 'package %s\n\n%s\n' "$1" "$2" >"shelf/$1/$1_test.go"
}
mk ledger 'import "testing"

func TestBalance(t *testing.T) {}'
mk cache 'import (
	"os"
	"strconv"
	"testing"
)

func TestEvict(t *testing.T) {
	if n, _ := strconv.Atoi(os.Getenv("FLAKESWEEP_RUN")); n%2 == 1 {
		t.Fatalf("evicted the wrong key on run %d", n)
	}
}'
mk parser 'import (
	"os"
	"testing"
)

func TestParseHeader(t *testing.T) {
	os.Stdout.Write([]byte("bad byte \x01 esc \x1b[31mred\x1b[0m invalid \xff\xfe utf8\n"))
	t.Fatal("header: unexpected \x02 token \xc3\x28")
}'
mk socket 'import (
	"testing"
	"time"
)

func TestAcceptTimeout(t *testing.T) { time.Sleep(time.Hour) }'
mk gpu 'import "testing"

func TestKernel(t *testing.T) { t.Skip("no GPU on this runner") }'
cd shelf

rc=0
"$FLAKESWEEP" --cpu 1 --load 1 --count 3 --confirm 2 --canaries 0 --no-race --timeout 5s \
	--kill-grace 2s --ui none -o "$work/out" ./... >"$work/sweep.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$work/sweep.txt"; fail "sweep: exit $rc, want 1"; }
rc=0
"$FLAKESWEEP" junit "$work/out" -o "$work/report.xml" >"$work/junit.txt" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$work/junit.txt"; fail "flakesweep junit: exit $rc, want 0"; }
junit_check "$work/report.xml" >"$work/cases.txt"
cat "$work/cases.txt"

want() { # package test pattern-of-children what
	local line
	line=$(grep "^example.com/shelf/$1|$2|" "$work/cases.txt") || fail "no testcase $1 $2"
	[[ $line =~ $3 ]] || fail "$4: $line"
}
want ledger TestBalance '\|\|$' "the passed test has children"
want cache TestEvict '\|(flakyFailure,)*flakyFailure\|' "the flaky test should have only flakyFailure"
want cache TestEvict '\|failure(,failure)*$' "flaky flakyFailure type should be failure"
want parser TestParseHeader '\|failure\|failure$' "the failing test should have one failure"
want socket TestAcceptTimeout '\|error\|hang$' "the hung test should have one error of type hang"
want gpu TestKernel '\|skipped\|' "the skipped test should have skipped"
n=$(ls "$work/suites" | wc -l)
[ "$n" = 5 ] || fail "$n testsuites, want one per package (5)"
st=$(/usr/bin/python3 -c 'import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); print([c.findtext("stackTrace") for c in r.iter("flakyFailure")][0] is not None)' "$work/report.xml")
[ "$st" = True ] || fail "the flakyFailure has no stackTrace"
echo "ok: 5 testsuites validate; verdict elements as flakesweep(5) says"
