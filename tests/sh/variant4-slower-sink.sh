#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 150
# compare of a "fix" that made the test slower beyond its added sleeps, in
# a real git repository (Go), the fix left uncommitted (the working tree is
# the after side): before, TestDrain fails every other run; the edit adds
# a sleep through an import alias, clock.Sleep(120 * clock.Millisecond),
# and an 800 ms busy wait in the package's shared helper. compare says
# "slower: ... the sleeps it added explain 120 ms" under the test, and
# --json gives tests[].duration with sleeps_ms 120 and unexplained_ms well
# above noise.
set -eu
command -v go >/dev/null 2>&1 || { echo "SKIP go is not installed"; exit 77; }
command -v git >/dev/null 2>&1 || { echo "SKIP git is not installed"; exit 77; }
T="$CHECK_TMPDIR"
export GOFLAGS=-mod=mod GOCACHE="$T/gocache" XDG_CACHE_HOME="$T/cache" TZ=UTC LC_ALL=C
fail() { echo "FAIL $*"; exit 1; }
mkdir -p "$T/sink/basin"
cd "$T/sink"
g() { git -c user.name=t -c user.email=t@example.com "$@" >/dev/null; }
printf 'module sink.example/sink\n\ngo 1.19\n' >go.mod
cat >basin/basin_test.go <<EOF2
package basin

import (
	"os"
	"strings"
	"testing"
)

// TestDrain fails every other run, counted in a file.
func TestDrain(t *testing.T) {
	b, _ := os.ReadFile("$T/count")
	n := len(strings.TrimSpace(string(b)))
	os.WriteFile("$T/count", []byte(strings.Repeat("x", n+1)), 0o644)
	if n%2 == 1 {
		t.Fatal("clogged")
	}
}
EOF2
g init -q . && g add . && g commit -q -m before
sweep() { # OUT
	set +e
	"$FLAKESWEEP" --cpu 1 --load 1 --count 6 --confirm 0 --no-race --ui line -o "$T/$1" ./basin \
		>"$T/$1.log" 2>&1
	set -e
	[ -s "$T/$1/results.json" ] || { cat "$T/$1.log"; fail "sweep $1 wrote no results"; }
}
sweep before
cat >basin/basin_test.go <<'EOF2'
package basin

import (
	clock "time"
	"testing"
)

// settle waits for the water to settle.
func settle() {
	start := clock.Now()
	for clock.Since(start) < 800*clock.Millisecond {
	}
}

// TestDrain waits for the basin to empty.
func TestDrain(t *testing.T) {
	clock.Sleep(120 * clock.Millisecond)
	settle()
}
EOF2
sweep after
ID='sink.example/sink/basin::TestDrain'

set +e
"$FLAKESWEEP" compare --ui line "$T/before" "$T/after" >"$T/cmp.out" 2>"$T/cmp.err"
rc=$?
"$FLAKESWEEP" compare --json "$T/before" "$T/after" >"$T/cmp.json" 2>"$T/cmp.jerr"
jrc=$?
set -e
[ $rc != 2 ] || { cat "$T/cmp.err"; fail "compare: exit 2"; }
[ $jrc != 2 ] || { cat "$T/cmp.jerr"; fail "compare --json: exit 2"; }
grep -qE '^ *slower: its runs took [0-9]+ ms, [0-9]+ ms before; the sleeps it added explain 120 ms' "$T/cmp.out" ||
	{ cat "$T/cmp.out" "$T/cmp.err"; fail "compare has no slower line"; }
python3 - "$T/cmp.json" "$ID" <<'EOF2' || { cat "$T/cmp.json"; fail "compare --json has no duration as man 5 says"; }
import json, sys
c = json.load(open(sys.argv[1]))
t = [t for t in c["tests"] if t["id"] == sys.argv[2]][0]
d = t["duration"]
print(t["verdict"], d)
assert d["sleeps_ms"] == 120, d
assert d["after_ms"] - d["before_ms"] >= 500, d
assert d["unexplained_ms"] >= 400, d
assert any(b["kind"] == "sleep" for b in t["bandaids"]), t["bandaids"]
EOF2
echo "variant4-slower-sink: slower beyond the sleeps, text and json"
