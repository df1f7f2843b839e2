#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# JUnit XML: a sweep with a passed, a flaky, a failing, a hung and a skipped
# test, written by --junit at its end and by `flakesweep junit DIR` alike.
# Each testsuite validates against Maven Surefire's schema
# (tests/fixtures/junit/surefire-test-report.xsd) with xmllint, and Python's
# xml.etree reads the file back: the flaky test has a flakyFailure for each
# failed run (its cell, cores and run in the message, its first failing
# lines in stackTrace) and no failure, the failing test one failure, the hung
# test an error of type hang, the skipped test skipped; the rates and causes
# are in the suite's properties. Output XML cannot hold comes out cleaned.
# A verify's directory gives a suite per pair; an interrupted sweep's file
# says it is incomplete; a directory without a journal is refused. A
# testcase's time is the median of its own times where the framework
# reports them (Go), else of its runs, with a property saying so (TAP).
set -eu
cd "$CHECK_TMPDIR"
command -v xmllint >/dev/null || { echo "SKIP xmllint is not installed"; exit 77; }
xsd="$CHECK_SRCDIR/tests/fixtures/junit/surefire-test-report.xsd"
fixture="$CHECK_SRCDIR/tests/fixtures/tap/junit.sh"

rc=0
"$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 10 --confirm 0 --canaries 0 --timeout 2s \
	--ui none --junit sweep.xml -o out -- sh "$fixture" >/dev/null 2>stderr || rc=$?
[ "$rc" = 1 ] || { echo "FAIL: sweep exit $rc, expected 1"; cat stderr; exit 1; }
"$FLAKESWEEP" junit out -o junit.xml
"$FLAKESWEEP" junit out >stdout.xml
cmp sweep.xml junit.xml || { echo "FAIL: --junit and junit differ"; diff sweep.xml junit.xml | head; exit 1; }
cmp junit.xml stdout.xml

# Each testsuite on its own against the schema (its root is testsuite).
validate() { # FILE
	python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
for i, s in enumerate(root.findall("testsuite")):
    ET.ElementTree(s).write("suite-%d.xml" % i, encoding="UTF-8", xml_declaration=True)
print(len(root.findall("testsuite")))
PY
}
n=$(validate junit.xml)
[ "$n" = 1 ] || { echo "FAIL: $n testsuites, expected 1"; exit 1; }
xmllint --noout --schema "$xsd" suite-0.xml
# The file as written, not only as Python writes it back.
python3 - junit.xml <<'PY'
import sys
root = open(sys.argv[1], "rb").read()
start = root.index(b"<testsuite ")
end = root.rindex(b"</testsuites>")
open("raw-suite.xml", "wb").write(b'<?xml version="1.0" encoding="UTF-8"?>\n' + root[start:end])
PY
xmllint --noout --schema "$xsd" raw-suite.xml

python3 - junit.xml <<'PY'
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
assert suite.get("tests") == "5" and suite.get("failures") == "1", suite.attrib
assert suite.get("errors") == "1" and suite.get("skipped") == "1", suite.attrib
assert suite.get("flakes") == "1", suite.attrib
cases = {c.get("name"): c for c in suite.findall("testcase")}
assert sorted(cases) == ["fails", "flaky <a&b>", "hangs", "passes", "skipped"], sorted(cases)
for c in cases.values():
    assert c.get("classname") == suite.get("name"), c.attrib
    assert float(c.get("time")) > 0, c.attrib
assert list(cases["passes"]) == []
flaky = cases["flaky <a&b>"]
ff = flaky.findall("flakyFailure")
assert len(ff) == 3 and flaky.find("failure") is None, ET.tostring(flaky)
for f in ff:
    assert f.get("type") == "failure", f.attrib
    assert f.get("message").startswith("sweep cpu 1 load 1, cores "), f.attrib
    trace = f.find("stackTrace").text
    assert "]]> <x>" in trace and "& want 42" in trace and "at flaky_test.sh:12" in trace, trace
    assert "\x01" not in trace and "\ufffe" not in trace and "\ufffd" in trace, repr(trace)
[fail] = cases["fails"].findall("failure")
assert fail.get("type") == "failure" and "expected 1, got 2" in fail.text, fail.attrib
assert cases["fails"].find("flakyFailure") is None
[err] = cases["hangs"].findall("error")
assert err.get("type") == "hang" and "time limit" in err.get("message"), err.attrib
assert cases["hangs"].find("failure") is None
assert cases["skipped"].find("skipped") is not None
props = {p.get("name"): p.get("value") for p in suite.iter("property")}
assert props["flakesweep.status"] == "complete" and "flakesweep.incomplete" not in props, props
assert props["flakesweep.test.flaky <a&b>.verdict"] == "flaky", props
assert props["flakesweep.test.flaky <a&b>.rate.sweep.cpu1.load1"] == "3/10", props
assert props["flakesweep.test.flaky <a&b>.bad_runs"] == "3 failed, 0 hung; 3 and 0 listed", props
assert "flakesweep.test.flaky <a&b>.cause" in props, props
assert props["flakesweep.test.hangs.rate.sweep.cpu1.load1"] == "10/10", props
# TAP reports no per-test times: the runs' median, and a property says so.
assert props["flakesweep.time"].startswith("runs: "), props
PY

# A testcase's time is the median of the test's own times where the
# framework reports them (go test's "--- PASS: TestX (0.30s)"), not of the
# runs it started in: TestFast shares its runs with TestSlow.
if command -v go >/dev/null 2>&1; then
	mkdir -p gomod
	printf 'module example.com/times\n\ngo 1.18\n' >gomod/go.mod
	cat >gomod/times_test.go <<'GO'
package times

import (
	"testing"
	"time"
)

func TestFast(t *testing.T) {}

func TestSlow(t *testing.T) { time.Sleep(400 * time.Millisecond) }
GO
	(cd gomod && GOFLAGS=-mod=mod "$FLAKESWEEP" --cpu 1 --load 1 --count 3 --confirm 0 --canaries 0 \
		--ui none -o ../goout ./... >/dev/null 2>../go.err) || { echo "FAIL: go sweep"; cat go.err; exit 1; }
	"$FLAKESWEEP" junit goout -o go.xml
	validate go.xml >/dev/null
	xmllint --noout --schema "$xsd" suite-0.xml
	grep -q '"times":\[' goout/journal.jsonl || { echo "FAIL: the journal has no per-test times"; exit 1; }
	python3 - go.xml <<'PY'
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
cases = {c.get("name"): float(c.get("time")) for c in suite.findall("testcase")}
assert cases["TestFast"] < 0.2 and cases["TestSlow"] >= 0.39, cases
props = {p.get("name"): p.get("value") for p in suite.iter("property")}
assert "flakesweep.time" not in props, props
PY
else
	echo "# no go: the per-test times of go test are not checked"
fi

# A verify's output directory: one output directory per pair.
mkdir verify
cp -r out verify/cpu-1-load-1
cp -r out verify/cpu-2-load-1
"$FLAKESWEEP" junit verify -o verify.xml
n=$(validate verify.xml)
[ "$n" = 2 ] || { echo "FAIL: verify: $n testsuites, expected 2"; exit 1; }
xmllint --noout --schema "$xsd" suite-0.xml suite-1.xml
grep -q 'testsuite name="sh [^"]*junit.sh (cpu-2-load-1)"' verify.xml ||
	{ echo "FAIL: verify: no suite named for its pair"; grep '<testsuite ' verify.xml; exit 1; }

# Interrupted, --junit still writes the file, marked incomplete.
"$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 200 --confirm 0 --canaries 0 --timeout 2s \
	--ui none --junit cut.xml -o cut -- sh "$fixture" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 400); do
	[ "$(grep -c '"type":"run"' cut/journal.jsonl 2>/dev/null || true)" -ge 2 ] && break
	sleep 0.05
done
kill -INT $pid
rc=0; wait $pid || rc=$?
[ "$rc" = 130 ] || { echo "FAIL: interrupted sweep exit $rc, expected 130"; exit 1; }
validate cut.xml >/dev/null
xmllint --noout --schema "$xsd" suite-0.xml
grep -q '<property name="flakesweep.incomplete" value="true"/>' cut.xml ||
	{ echo "FAIL: the interrupted sweep's file is not marked incomplete"; exit 1; }
grep -q '<property name="flakesweep.status" value="interrupted"/>' cut.xml

# Not an output directory.
mkdir empty
rc=0
"$FLAKESWEEP" junit empty >/dev/null 2>err || rc=$?
[ "$rc" = 2 ] && grep -q "empty: no journal.jsonl" err || { echo "FAIL: empty: exit $rc"; cat err; exit 1; }
echo "ok: junit validates and reads back"
