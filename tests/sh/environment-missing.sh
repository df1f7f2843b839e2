#!/bin/bash
# SPDX-License-Identifier: MIT
# An environment level (functional) whose package is in no walkthrough (no
# Dockerfile and deploy/kind/up.sh at or above it): the package fails with
# that reason, the sweep exits 2, and the unit level of the same package is
# swept. No Docker is needed to find that out.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
cd "$CHECK_TMPDIR"
export GOFLAGS=-mod=mod GOCACHE="$CHECK_TMPDIR/gocache"
mkdir -p m/f
printf 'module example.com/nw\n\ngo 1.19\n' >m/go.mod
printf 'package f\n' >m/f/f.go
printf '//go:build functional\n\npackage f\n\nimport "testing"\n\nfunc TestF(t *testing.T) {}\n' >m/f/f_test.go
printf 'package f\n\nimport "testing"\n\nfunc TestU(t *testing.T) {}\n' >m/f/u_test.go
rc=0
(cd m && "$FLAKESWEEP" --keep 0 --cpu 1 --load 1 --count 2 --confirm 0 --no-race --ui none \
	-o "$CHECK_TMPDIR/out" >"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr") || rc=$?
[ $rc = 2 ] || { cat "$CHECK_TMPDIR/stdout" "$CHECK_TMPDIR/stderr"; echo "FAIL: exit $rc, expected 2"; exit 1; }
want="flakesweep: example.com/nw/f (functional) is in no walkthrough: no directory at or above $CHECK_TMPDIR/m/f has a Dockerfile and deploy/kind/up.sh"
grep -qxF "$want" "$CHECK_TMPDIR/stderr" || { cat "$CHECK_TMPDIR/stderr"; echo "FAIL: the reason is not printed"; exit 1; }
n=$(python3 -c 'import json,sys; print(sum(1 for l in open(sys.argv[1]) if (j := json.loads(l))["type"] == "run" and j.get("exit", 0) == 0))' "$CHECK_TMPDIR/out/journal.jsonl")
[ "$n" = 2 ] || { echo "FAIL: $n unit runs passed, expected 2"; exit 1; }
grep -q '"type":"env"' "$CHECK_TMPDIR/out/journal.jsonl" && { echo "FAIL: an environment came up"; exit 1; }
echo "ok"
