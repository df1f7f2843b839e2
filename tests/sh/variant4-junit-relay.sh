#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 150
# A sweep's --junit FILE, two Go packages: relay (a quick test and one that
# sleeps 0.8 s) and wire (quick tests only). Each testcase's time is the
# test's own, so relay's quick test is far under its slow neighbour and
# under the package's run, each suite's time is the sum of its cases', and
# every testsuite validates alone against the Surefire XSD.
set -eu
command -v go >/dev/null 2>&1 || { echo "SKIP go is not installed"; exit 77; }
command -v xmllint >/dev/null 2>&1 || { echo "SKIP xmllint is not installed"; exit 77; }
T="$CHECK_TMPDIR"
XSD="$CHECK_SRCDIR/tests/fixtures/junit/surefire-test-report.xsd"
export GOFLAGS=-mod=mod GOCACHE="$T/gocache" TZ=UTC LC_ALL=C
fail() { echo "FAIL $*"; exit 1; }
mkdir -p "$T/net/relay" "$T/net/wire"
cd "$T/net"
printf 'module net.example/net\n\ngo 1.19\n' >go.mod
cat >relay/relay_test.go <<'EOF2'
package relay

import (
	"testing"
	"time"
)

func TestHandshake(t *testing.T) {}

func TestBackoff(t *testing.T) { time.Sleep(800 * time.Millisecond) }
EOF2
cat >wire/wire_test.go <<'EOF2'
package wire

import "testing"

func TestFrame(t *testing.T)    {}
func TestChecksum(t *testing.T) {}
EOF2
"$FLAKESWEEP" --cpu 1 --load 1 --count 3 --confirm 0 --no-race --ui line -o "$T/out" \
	--junit "$T/net.xml" ./relay ./wire >"$T/sweep.log" 2>&1 || { cat "$T/sweep.log"; fail "the sweep failed"; }

python3 - "$T/net.xml" "$T" <<'EOF2' || { cat "$T/net.xml"; fail "testcase times are not the tests' own"; }
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
suites = {s.get("name"): s for s in root.findall("testsuite")}
assert len(suites) == 2, list(suites)
relay = [s for n, s in suites.items() if "relay" in n][0]
cases = {c.get("name"): float(c.get("time")) for c in relay.findall("testcase")}
print(cases)
assert 0.75 <= cases["TestBackoff"] < 4, cases
assert cases["TestHandshake"] < 0.3, cases
for s in suites.values():
    total = sum(float(c.get("time")) for c in s.findall("testcase"))
    assert abs(float(s.get("time")) - total) < 0.01, (s.get("name"), s.get("time"), total)
for i, s in enumerate(suites.values()):
    ET.ElementTree(s).write("%s/suite-%d.xml" % (sys.argv[2], i), encoding="UTF-8", xml_declaration=True)
EOF2
for s in "$T"/suite-*.xml; do
	xmllint --noout --schema "$XSD" "$s" 2>"$T/xmllint.err" ||
		{ cat "$T/xmllint.err"; fail "$(basename "$s") does not validate"; }
done
echo "variant4-junit-relay: own times differ, suites validate"
