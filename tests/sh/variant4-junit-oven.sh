#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 150
# flakesweep junit of a real Go sweep: a package with a fast test and one
# that sleeps 1.5 s. Each testcase's time is the test's own (the median of
# its run lines' times), so the fast one is well under the slow one and
# under its package's run time; no flakesweep.time property says "runs";
# every testsuite validates alone against the Surefire XSD.
set -eu
command -v go >/dev/null 2>&1 || { echo "SKIP go is not installed"; exit 77; }
command -v xmllint >/dev/null 2>&1 || { echo "SKIP xmllint is not installed"; exit 77; }
T="$CHECK_TMPDIR"
XSD="$CHECK_SRCDIR/tests/fixtures/junit/surefire-test-report.xsd"
export GOFLAGS=-mod=mod GOCACHE="$T/gocache" TZ=UTC LC_ALL=C
fail() { echo "FAIL $*"; exit 1; }
mkdir -p "$T/oven/bake"
cd "$T/oven"
printf 'module oven.example/oven\n\ngo 1.19\n' >go.mod
cat >bake/bake_test.go <<'EOF2'
package bake

import (
	"testing"
	"time"
)

func TestPreheat(t *testing.T) {}

func TestSlowRoast(t *testing.T) { time.Sleep(1500 * time.Millisecond) }
EOF2
"$FLAKESWEEP" --cpu 1 --load 1 --count 3 --confirm 0 --no-race --ui line -o "$T/out" ./bake \
	>"$T/sweep.log" 2>&1 || { cat "$T/sweep.log"; fail "the sweep failed"; }
"$FLAKESWEEP" junit "$T/out" -o "$T/oven.xml" || fail "junit: exit $?"

python3 - "$T/oven.xml" "$T" <<'EOF2' || { cat "$T/oven.xml"; fail "testcase times are not the tests' own"; }
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
assert len(suites) == 1, len(suites)
cases = {c.get("name"): float(c.get("time")) for c in suites[0].findall("testcase")}
fast, slow = cases["TestPreheat"], cases["TestSlowRoast"]
print("TestPreheat", fast, "TestSlowRoast", slow)
assert 1.4 <= slow < 5, slow
assert fast < 0.5 and slow - fast > 1.0, (fast, slow)
for p in suites[0].iter("property"):
    assert p.get("name") != "flakesweep.time", "flakesweep.time says " + p.get("value")
# each suite on its own, for xmllint
for i, s in enumerate(suites):
    ET.ElementTree(s).write("%s/suite-%d.xml" % (sys.argv[2], i), encoding="UTF-8", xml_declaration=True)
EOF2
for s in "$T"/suite-*.xml; do
	xmllint --noout --schema "$XSD" "$s" 2>"$T/xmllint.err" ||
		{ cat "$T/xmllint.err"; fail "$(basename "$s") does not validate"; }
done
echo "variant4-junit-oven: own times differ, suites validate"
