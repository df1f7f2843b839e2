# SPDX-License-Identifier: MIT
# Sourced by the tests/sh/variant3-*.sh scripts: fail, skip, the Go and
# pytest tool checks, a work directory, and jq-like reads of JSON files
# with python3 (json_get FILE EXPR: EXPR is a Python expression on d).
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP $*"; exit 77; }
: "${CHECK_TMPDIR:=$(mktemp -d)}"
: "${FLAKESWEEP:?FLAKESWEEP is not set}"
work=$CHECK_TMPDIR/v3
mkdir -p "$work"
cd "$work"

need_go() {
	command -v go >/dev/null || skip "no go"
	export GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local
	export GOCACHE=${GOCACHE:-$HOME/.cache/go-build}
}

need_pytest() {
	py=
	for cand in "${FLAKESWEEP_PYTHON:-}" /usr/bin/python3 python3; do
		[ -n "$cand" ] || continue
		if "$cand" -c 'import pytest' 2>/dev/null; then
			py=$(command -v "$cand")
			break
		fi
	done
	[ -n "$py" ] || skip "no python3 with pytest"
	export FLAKESWEEP_PYTHON=$py
}

# json_get FILE EXPR: print the value of the Python expression EXPR, where d
# is FILE's JSON; strings print bare, everything else as JSON.
json_get() {
	/usr/bin/python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(v if isinstance(v, str) else json.dumps(v))
EOF
}

# gomod DIR MODULE: a go.mod for MODULE in DIR.
gomod() {
	mkdir -p "$1"
	printf 'module %s\n\ngo 1.19\n' "$2" >"$1/go.mod"
}

# junit_check XML: every testsuite of XML's testsuites root, on its own,
# validates with xmllint against the Surefire schema kept in tests/; then
# print one line per testcase: "classname|name|child,child,...|type,...".
junit_check() {
	local xsd=$CHECK_SRCDIR/tests/fixtures/junit/surefire-test-report.xsd f
	command -v xmllint >/dev/null || skip "no xmllint"
	xmllint --noout "$1" || fail "$1 is not well-formed XML"
	rm -rf "$work/suites"
	mkdir -p "$work/suites"
	/usr/bin/python3 - "$1" "$work/suites" <<'PY' || fail "$1: cannot split its testsuites"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", "root is %s, not testsuites" % root.tag
for i, s in enumerate(root.findall("testsuite")):
    ET.ElementTree(s).write("%s/%d.xml" % (sys.argv[2], i), encoding="UTF-8", xml_declaration=True)
PY
	ls "$work/suites"/*.xml >/dev/null 2>&1 || fail "$1 has no testsuite"
	for f in "$work/suites"/*.xml; do
		xmllint --noout --schema "$xsd" "$f" 2>"$work/xsd.err" ||
			{ cat "$work/xsd.err"; fail "$1: testsuite ${f##*/} does not validate against the Surefire schema"; }
	done
	/usr/bin/python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
for c in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    kids = [k.tag for k in c]
    types = [k.get("type") or "" for k in c]
    print("%s|%s|%s|%s" % (c.get("classname"), c.get("name"), ",".join(kids), ",".join(types)))
PY
}

# order_check RESULTS VICTIM-SUFFIX POLLUTER-SUFFIX: the victim is flaky,
# order_dependent, with an "order" cause, and results.json's polluter
# names the polluter; the report says "fails after" it.
order_check() {
	local r=$1 v=$2 p=$3 row
	row=$(json_get "$r" "[(t['id'], t['verdict'], t.get('order_dependent'), [c['cause'] for c in t.get('causes') or []], t.get('polluter')) for t in d['tests'] if t['id'].endswith('$v')]")
	echo "victim: $row"
	json_get "$r" "[t['verdict'] for t in d['tests'] if t['id'].endswith('$v')][0]" | grep -qx flaky ||
		fail "$v is not flaky: $row"
	json_get "$r" "any(c['cause'] == 'order' for t in d['tests'] if t['id'].endswith('$v') for c in t.get('causes') or [])" |
		grep -qx true || fail "$v has no order cause: $row"
	json_get "$r" "[(t.get('polluter') or {}).get('test') or '' for t in d['tests'] if t['id'].endswith('$v')][0]" |
		grep -q -- "$p\$" || fail "$v: the polluter is not named $p: $row"
	grep -q "fails after.*$p" "${r%/results.json}/report.txt" ||
		fail "report.txt does not say the victim fails after $p: $(grep -n -i 'after\|polluter' "${r%/results.json}/report.txt" | head -5)"
	echo "ok: $v flaky, order, after $p"
}

# need_gtest: skip without g++ and GoogleTest.
need_gtest() {
	command -v g++ >/dev/null || skip "no g++"
	echo 'int main(){}' | g++ -x c++ - -o /dev/null -lgtest -pthread 2>/dev/null || skip "no libgtest"
}
