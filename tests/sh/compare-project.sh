#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# compare judges two results of one project only (flakesweep(1), PROJECT
# IDENTITY). The same origin, written once as an ssh address and once as
# an https URL, swept at two roots and two commits: compared. Another
# origin: exit 2 naming both origins, no verdicts. Neither side in a git
# checkout: the roots decide.
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
python3 "$CHECK_SRCDIR/tests/fixtures/seq/gen-compare.py" .
# project DOC OUT ROOT COMMIT ORIGIN: DOC with that project object, as OUT.
project() {
	python3 - "$@" <<'PY'
import json, sys
doc, out, root, commit, origin = sys.argv[1:]
d = json.load(open(doc))
d["project"] = {"driver": "go", "root": root, "commit": commit or None,
                "toolchain": "go1.19.8", "origin": origin or None}
json.dump(d, open(out, "w"))
PY
}
project before/results.json a.json /home/ann/flakycheck c025ae1 git@example.com:o/flakycheck.git
project after.json b.json /tmp/clone/flakycheck 9d1e2f0 https://example.com/o/flakycheck
project after.json c.json /home/ann/demo 9d1e2f0 git@example.com:o/demo.git
project before/results.json d.json /w/ng1 "" ""
project after.json e.json /w/ng2 "" ""
project after.json f.json /w/ng1/sub "" ""

rc=0; "$FLAKESWEEP" compare a.json b.json >out 2>err || rc=$?
[ "$rc" = 1 ] || fail "the same origin at another root: exit $rc, expected 1: $(cat err)"
grep -q '^8 tests: 1 fixed' out || fail "the same origin at another root: $(cat out)"
[ ! -s err ] || fail "the same origin at another root: stderr: $(cat err)"

rc=0; "$FLAKESWEEP" compare a.json c.json >out 2>err || rc=$?
[ "$rc" = 2 ] || fail "another origin: exit $rc, expected 2"
[ ! -s out ] || fail "another origin: verdicts printed: $(cat out)"
grep -qxF "flakesweep: a.json and c.json are of different projects: origin git@example.com:o/flakycheck.git vs git@example.com:o/demo.git" err ||
	fail "another origin: $(cat err)"

rc=0; "$FLAKESWEEP" compare d.json e.json >out 2>err || rc=$?
[ "$rc" = 2 ] || fail "two roots, no origin: exit $rc, expected 2"
grep -qxF "flakesweep: d.json and e.json are of different projects: root /w/ng1 vs /w/ng2" err ||
	fail "two roots, no origin: $(cat err)"

rc=0; "$FLAKESWEEP" compare d.json f.json >out 2>err || rc=$?
[ "$rc" = 1 ] || fail "a root inside the other: exit $rc, expected 1: $(cat err)"
echo "ok: one project at two roots compared; another origin or root refused"
