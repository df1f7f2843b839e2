# SPDX-License-Identifier: MIT
# Sourced by the tests/sh/variant28-*.sh scripts: tiny real projects built
# in a temporary directory, and JSON reads through python3.
command -v python3 >/dev/null || { echo "SKIP python3 is not installed"; exit 77; }
V28=${CHECK_TMPDIR:-$(mktemp -d)}
fail() {
	echo "FAIL: $*"
	exit 1
}
# gomod DIR MODULE PKG:MS...: a Go module whose package PKG has one test
# that sleeps MS milliseconds.
gomod() {
	local dir=$1 mod=$2 spec n ms
	shift 2
	mkdir -p "$dir"
	printf 'module %s\n\ngo 1.19\n' "$mod" >"$dir/go.mod"
	for spec in "$@"; do
		n=${spec%%:*} ms=${spec##*:}
		mkdir -p "$dir/$n"
		cat >"$dir/$n/${n}_test.go" <<GO
package $n

import (
	"testing"
	"time"
)

func TestSleep(t *testing.T) { time.Sleep(${ms} * time.Millisecond) }
GO
	done
}
# tapscript FILE MS TESTS: a TAP script that sleeps MS ms, then passes TESTS tests.
tapscript() {
	{
		echo '#!/bin/sh'
		echo "sleep $(awk "BEGIN{print $2/1000}")"
		echo "echo 1..$3"
		local i
		for i in $(seq "$3"); do echo "echo ok $i - t$i"; done
	} >"$1"
	chmod +x "$1"
}
# jq_py FILE EXPR: print the python expression EXPR over the JSON in FILE as d.
jq_py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
# view_lanes SCREEN LANES: the captured screen of view on a plan's
# simulation says "simulated", gives the plan's wall time ("plan: ... in
# all") and shows each of the LANES lanes, alone (L7) or in a cell of
# neighbours (L0-L3); it prints the runs its lane cells add up to.
view_lanes() {
	python3 - "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
lanes = int(sys.argv[2])
assert "simulated" in text, "no \"simulated\" in the header"
assert re.search(r"plan: ~?\S+ in all", text), "no \"plan: ... in all\" ETA"
seen, runs = [], 0
for m in re.finditer(r"\bL(\d+)(?:-L(\d+))?\s+\S+\s+\d+% (\d+) runs?", text):
    a = int(m.group(1)); b = int(m.group(2) or a)
    seen.extend(range(a, b + 1)); runs += int(m.group(3))
missing = sorted(set(range(lanes)) - set(seen))
assert not missing, "lanes not shown: %s" % missing
assert len(seen) == len(set(seen)) == lanes, "lanes shown twice or unknown: %s" % sorted(seen)
print(runs)
PY
}
