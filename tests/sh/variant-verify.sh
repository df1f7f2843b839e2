#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# verify in two more shapes: a Go test fixed by an edit not yet committed
# (verify says the tree differs from the commit, naming the file, and its
# results record "dirty": true); and a pytest test verified first unfixed,
# then with its fix committed (no word about the tree, no "dirty"). Each
# verify ends with exactly one verdict line of its own, which matches its
# exit status: fixed at all 2 pairs (0), not fixed at a pair (1).
set -eu
command -v git >/dev/null || { echo "SKIP no git"; exit 77; }
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
out=$CHECK_TMPDIR/out
mkdir -p "$out"
fail() { echo "FAIL: $*"; cat "$out"/*.err "$out"/*.out 2>/dev/null; exit 1; }
# verify NAME WANT_RC VERDICT-LINE ARGS...: VERDICT-LINE, a basic regular
# expression, is the last line printed.
verify() {
	local name=$1 want=$2 line=$3 rc=0
	shift 3
	"$FLAKESWEEP" verify --ui none -o "$out/$name" "$@" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
	[ "$rc" = "$want" ] || fail "$name: exit $rc, expected $want"
	[ "$(grep -c '^verify: ' "$out/$name.out")" = 1 ] || fail "$name: not one verdict line"
	tail -n 1 "$out/$name.out" | grep -qx -- "$line" || fail "$name: last line $(tail -n 1 "$out/$name.out")"
}
# dirty NAME: the values of project.dirty in the results of verify NAME.
dirty() {
	python3 -c '
import json, sys
for f in sys.argv[1:]:
    print(json.load(open(f))["project"].get("dirty", "absent"))
' "$out/$1"/*/results.json | sort -u
}
if command -v go >/dev/null; then
	mkdir -p "$CHECK_TMPDIR/go/cache"
	cd "$CHECK_TMPDIR/go"
	git init -q .
	printf 'module example.com/vf\n\ngo 1.19\n' >go.mod
	cat >cache/cache_test.go <<'GO'
package cache

import (
	"os"
	"strconv"
	"testing"
)

func TestEvict(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FLAKESWEEP_RUN"))
	if n%2 == 0 {
		t.Fatal("evicted too early")
	}
}
GO
	git add -A && git commit -qm flaky
	rc=0
	GOPROXY=off "$FLAKESWEEP" --cpu 1,2 --load 1 --count 10 --confirm 0 --no-race --ui none \
		-o "$out/go-before" >"$out/go-before.out" 2>&1 || rc=$?
	[ "$rc" = 1 ] || fail "go sweep: exit $rc"
	sed -i 's/n%2 == 0/n < 0/' cache/cache_test.go
	commit=$(git rev-parse --short=12 HEAD)
	GOPROXY=off verify go-dirty 0 "verify: example.com/vf/cache::TestEvict fixed at all 2 pairs (exit 0)" \
		--test example.com/vf/cache::TestEvict --results "$out/go-before" --no-race
	grep -q "^flakesweep: the tree differs from commit $commit (cache/cache_test.go changed): verify measures your uncommitted edit" \
		"$out/go-dirty.err" || fail "go-dirty: no word about the tree"
	[ "$(dirty go-dirty)" = True ] || fail "go-dirty: dirty is $(dirty go-dirty)"
else
	echo "# no go: the Go verify is left out"
fi
py=$(. "$CHECK_SRCDIR/tests/lib/pytest.sh" >/dev/null && echo "$py") || py=
[ -n "$py" ] || { echo "# no pytest: the pytest verify is left out"; echo ok; exit 0; }
unset PYTEST_ADDOPTS PYTHONPATH FLAKESWEEP_DATADIR
export FLAKESWEEP_PYTHON=$py PYTHONDONTWRITEBYTECODE=1
mkdir -p "$CHECK_TMPDIR/py/tests"
cd "$CHECK_TMPDIR/py"
git init -q .
cat >tests/test_clock.py <<'PY'
import os

def test_deadline():
    assert int(os.environ.get("FLAKESWEEP_RUN", "1")) % 2 == 1, "deadline missed"
PY
printf '.pytest_cache/\nflakesweep-out/\n__pycache__/\n' >.gitignore
git add -A && git commit -qm flaky
rc=0
"$FLAKESWEEP" --driver pytest --cpu 1 --load 1,2 --count 10 --confirm 0 --ui none -o "$out/py-before" \
	>"$out/py-before.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "pytest sweep: exit $rc"
id=tests/test_clock.py::tests/test_clock.py::test_deadline
verify py-unfixed 1 "verify: $id not fixed at cpu 1 load [12] (exit 1)" --driver pytest --test "$id" \
	--results "$out/py-before/results.json"
sed -i 's/% 2 == 1/% 1 == 0/' tests/test_clock.py
git commit -qam fix
verify py-fixed 0 "verify: $id fixed at all 2 pairs (exit 0)" --driver pytest --test "$id" \
	--results "$out/py-before/results.json"
! grep -q 'tree differs' "$out/py-fixed.err" || fail "py-fixed: the tree is said to differ"
[ "$(dirty py-fixed)" = absent ] || fail "py-fixed: dirty is $(dirty py-fixed)"
echo ok
