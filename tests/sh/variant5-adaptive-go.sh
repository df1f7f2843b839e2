#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# --adaptive on a Go module of its own: package "ledger" has a test that
# fails about half its runs when runtime.GOMAXPROCS(0) is 2 and never at 1;
# package "quiet" never fails. Swept with --for 25s --count-min 4 at cpu 1,2
# and load 1: the flaky pair (ledger, cpu 2) gets more sweep runs than each
# quiet pair; results.json has config.adaptive, config.count_min and each
# sweep cell's allocation; report.txt says which intervals are not valid
# under adaptive allocation. --adaptive without a budget, or with --count,
# is an error (exit 2), and so is --count-min without --adaptive.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
T="$CHECK_TMPDIR/v5ad"
mkdir -p "$T/proj/ledger" "$T/proj/quiet"
cd "$T/proj"
export GOPROXY=off GOFLAGS=-mod=mod
cat > go.mod <<'G'
module example.org/books

go 1.19
G
cat > ledger/ledger_test.go <<'G'
package ledger

import (
	"runtime"
	"testing"
	"time"
)

func TestPostingBalances(t *testing.T) {
	if runtime.GOMAXPROCS(0) == 2 && time.Now().UnixNano()/1000%2 == 0 {
		t.Fatal("balance drifted with two procs")
	}
}

func TestOpening(t *testing.T) {}
G
cat > quiet/quiet_test.go <<'G'
package quiet

import "testing"

func TestNothingHappens(t *testing.T) {}
G

# Refusals: --adaptive without a budget or with --count, and --count-min
# without --adaptive.
for opts in "--adaptive" "--adaptive --for 25s --count 9" "--for 25s --count-min 5"; do
	set +e
	# shellcheck disable=SC2086
	"$FLAKESWEEP" $opts --cpu 1,2 --load 1 -o "$T/bad" ./... >"$T/bad.out" 2>&1
	rc=$?
	set -e
	[ "$rc" = 2 ] || { cat "$T/bad.out"; fail "'$opts' exited $rc, not 2"; }
	grep -qi -- "adaptive" "$T/bad.out" || { cat "$T/bad.out"; fail "'$opts' error does not name --adaptive"; }
	[ ! -f "$T/bad/journal.jsonl" ] || fail "'$opts' started a sweep"
done

set +e
"$FLAKESWEEP" --adaptive --for 25s --count-min 4 --confirm 0 --cpu 1,2 --load 1 \
	-o "$T/out" ./... >"$T/sweep.out" 2>&1
rc=$?
set -e
[ "$rc" = 0 ] || [ "$rc" = 1 ] || { tail -20 "$T/sweep.out"; fail "sweep exited $rc"; }
R="$T/out/results.json"
[ -f "$R" ] || fail "no results.json"
jq -e '.config.adaptive == true' "$R" >/dev/null || fail "config.adaptive is not true: $(jq -c .config "$R")"
jq -e '.config.count_min == 4' "$R" >/dev/null || fail "config.count_min is not 4: $(jq -c .config "$R")"

# Sweep runs per (package, cpu): the most any test of the package ran there.
runs() {
	jq -r --arg p "$1" --argjson c "$2" '[.tests[] | select(.package == $p or (.id|startswith($p+"::")))
		| .cells[] | select((.phase // "sweep") == "sweep" and .cpu == $c and .load == 1) | .runs] | max // 0' "$R"
}
flaky=$(runs example.org/books/ledger 2)
q1=$(runs example.org/books/ledger 1)
q2=$(runs example.org/books/quiet 1)
q3=$(runs example.org/books/quiet 2)
echo "sweep runs: ledger@2=$flaky ledger@1=$q1 quiet@1=$q2 quiet@2=$q3"
[ "$flaky" -gt 0 ] || { jq -c '.tests[] | {id, package, cells}' "$R" | head; fail "no sweep cell for the flaky pair"; }
for q in "$q1" "$q2" "$q3"; do
	[ "$flaky" -gt "$q" ] || fail "flaky pair got $flaky runs, a quiet pair $q"
	[ "$q" -ge 4 ] || fail "a quiet pair got $q runs, under --count-min 4"
done
jq -e '[.tests[] | select(.id | test("TestPostingBalances")) | .verdict] == ["flaky"]' "$R" >/dev/null ||
	fail "TestPostingBalances not flaky: $(jq -c '[.tests[] | {id, verdict}]' "$R")"

# Every sweep cell says how its runs were allocated, with the anytime interval.
bad=$(jq -r '[.tests[] | .cells[] | select((.phase // "sweep") == "sweep")
	| select((.allocation | IN("minimum", "adaptive", "stopped-early") | not)
		or (.rate_low_anytime == null) or (.rate_high_anytime == null))] | length' "$R")
[ "$bad" = 0 ] || fail "$bad sweep cells lack allocation or anytime interval: $(jq -c '[.tests[].cells[]][0]' "$R")"
jq -e '[.tests[] | select(.id | test("TestPostingBalances")) | .cells[]
	| select((.phase // "sweep") == "sweep" and .cpu == 2) | .allocation] == ["adaptive"]' "$R" >/dev/null ||
	fail "flaky cell's allocation is not adaptive: $(jq -c '[.tests[] | select(.id|test("Posting")) | .cells[]]' "$R")"

grep -Ei "adaptiv.*not valid|not valid.*adaptiv" "$T/out/report.txt" >/dev/null ||
	{ head -30 "$T/out/report.txt"; fail "report.txt does not say which intervals are not valid under adaptive allocation"; }
echo "PASS"
