#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# A tired user's input, in more shapes: a mistyped package directory with
# and without /..., and --ui line; a directory with no Go module, swept with
# no pattern and with a directory in it; view of a project directory, of a
# sweep's subdirectory, of its results.json and of its journal; compare and
# verify given a journal; and mistyped options of a sweep, view, compare and
# report. Each says what it takes (naming the path, or the nearest option),
# exits 2, and leaves no output directory.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
export GOPROXY=off GOFLAGS=
out=$CHECK_TMPDIR/out.txt
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }
# refused WHAT MESSAGE ARGS...: flakesweep ARGS exits 2 and prints MESSAGE.
refused() {
	local what=$1 msg=$2 rc=0
	shift 2
	timeout 20 "$FLAKESWEEP" "$@" </dev/null >"$out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "$what: exit $rc, expected 2"
	grep -qF -- "$msg" "$out" || fail "$what: no \"$msg\""
}
mkdir -p "$CHECK_TMPDIR/repo/pkg/net"
cd "$CHECK_TMPDIR/repo"
printf 'module example.com/bad\n\ngo 1.19\n' >go.mod
printf 'package net\n\nimport "testing"\n\nfunc TestDial(t *testing.T) {}\n' >pkg/net/net_test.go
want="no such directory in $PWD: expected a package directory, a pattern ending in /... or an import path"
refused typo "flakesweep: ./pkg/nett: $want" --ui none --count 1 ./pkg/nett
refused typo-dots "flakesweep: ./pkg/nett/...: $want" --ui none --count 1 ./pkg/nett/...
refused typo-line "flakesweep: ./pkg/nett: $want" --ui line --count 1 ./pkg/nett
! grep -q 'done\]' "$out" || fail "typo-line: [done] before the error"
[ "$(ls -A)" = "go.mod
pkg" ] || fail "typo: left $(ls -A)"
mkdir -p "$CHECK_TMPDIR/nomod/scripts"
cd "$CHECK_TMPDIR/nomod"
printf 'package main\n\nfunc main() {}\n' >scripts/main.go
refused nomod "flakesweep: ./...: no Go module in $PWD, above it or below it: expected a go.mod" --ui none
refused nomod-dir "flakesweep: ./scripts: no Go module in" --ui none ./scripts
[ "$(ls -A)" = scripts ] || fail "nomod: left $(ls -A)"
cd "$CHECK_TMPDIR/repo"
"$FLAKESWEEP" --ui none --cpu 1 --load 1 --count 1 --confirm 0 --no-race -o "$CHECK_TMPDIR/sweep" \
	>"$out" 2>&1 || fail "the sweep failed"
cd "$CHECK_TMPDIR"
said="view takes a sweep's output directory"
refused view-project "flakesweep: repo holds no sweep (no journal.jsonl): $said" view repo
refused view-runs "flakesweep: sweep/bin holds no sweep (no journal.jsonl): $said" view sweep/bin
refused view-results "flakesweep: sweep/results.json is a file: $said, the one that holds journal.jsonl (here sweep)" \
	view sweep/results.json
refused view-journal "flakesweep: sweep/journal.jsonl is a file: $said" view sweep/journal.jsonl
journal="flakesweep: sweep/journal.jsonl is a sweep's journal: give its results.json, or the directory that holds them"
refused compare-before "$journal" compare sweep/journal.jsonl sweep
refused compare-after "$journal" compare sweep sweep/journal.jsonl
refused verify-journal "$journal" verify --test example.com/bad/pkg/net::TestDial --results sweep/journal.jsonl
refused option-count "unknown option --cuont (did you mean --count?" --cuont 5
refused option-shuffle "unknown option --shufle (did you mean --shuffle?" --shufle
refused option-timeout "unknown option --timout (did you mean --timeout?" --timout 5s
refused option-view "unknown option --qurantine (did you mean --quarantine?" view --qurantine f sweep
refused option-compare "unknown option --jsno (did you mean --json?)" compare --jsno sweep sweep
refused option-report "unknown option --dry-rn (did you mean --dry-run?" report --dry-rn
echo ok
