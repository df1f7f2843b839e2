#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# --exclusive NAME=PKG::TEST (import-path form): a test part that matches
# none of the package's listed tests stops the sweep before its first run,
# exit 2, naming the pattern; one that matches a listed test is accepted.
set -eu
command -v go >/dev/null 2>&1 || { echo "SKIP go is not installed"; exit 77; }
T="$CHECK_TMPDIR"
export GOFLAGS=-mod=mod GOCACHE="$T/gocache" TZ=UTC LC_ALL=C
mkdir -p "$T/radio/tuner" "$T/radio/mixer"
cd "$T/radio"
printf 'module example.org/radio\n\ngo 1.19\n' >go.mod
cat >tuner/tuner_test.go <<'EOF2'
package tuner

import (
	"os"
	"testing"
)

func mark(t *testing.T) {
	f, err := os.OpenFile(os.Getenv("RADIO_MARK"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		f.WriteString(t.Name() + "\n")
		f.Close()
	}
}

func TestScan(t *testing.T) { mark(t) }
func TestSeek(t *testing.T) { mark(t) }
EOF2
cat >mixer/mixer_test.go <<'EOF2'
package mixer

import "testing"

func TestFade(t *testing.T) {}
EOF2
export RADIO_MARK="$T/ran"
bad=0

set +e
"$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --no-race --ui line -o "$T/out1" \
	--exclusive 'band=example.org/radio/tuner::TestNoSuchScan' ./... >"$T/1.out" 2>"$T/1.err"
rc=$?
set -e
if [ $rc != 2 ]; then
	echo "FAIL unmatched test part: exit $rc (want 2)"; cat "$T/1.err"; bad=1
fi
if ! grep -qF 'example.org/radio/tuner::TestNoSuchScan' "$T/1.err"; then
	echo "FAIL unmatched test part: stderr does not name the pattern:"; cat "$T/1.err"; bad=1
fi
if [ -s "$T/ran" ]; then
	echo "FAIL unmatched test part: a test ran before the error:"; cat "$T/ran"; bad=1
fi

rm -f "$T/ran"
set +e
"$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --no-race --ui line -o "$T/out2" \
	--exclusive 'band=example.org/radio/tuner::TestScan' ./... >"$T/2.out" 2>"$T/2.err"
rc=$?
set -e
if [ $rc != 0 ]; then
	echo "FAIL matching test part: exit $rc (want 0)"; cat "$T/2.err"; bad=1
fi
if ! grep -q TestScan "$T/ran" 2>/dev/null; then
	echo "FAIL matching test part: TestScan never ran"; cat "$T/2.err"; bad=1
fi
if ! grep -q '"band"' "$T/out2/results.json"; then
	echo "FAIL matching test part: results.json's config.exclusive lacks the group"; bad=1
fi
[ $bad = 0 ] && echo "variant4-exclusive-radio: unmatched refused, matched accepted"
exit $bad
