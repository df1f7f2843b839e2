#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Masking through the pytest driver, whose failures come through its report
# pipe as JSON: a test that prints secret values and fails with them in its
# assertion, one with a quote and a backslash (escaped in the JSON), leaves
# none in the output directory or on the terminal; the test saw them.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
export FLAKESWEEP_PYTHON=$py FLAKESWEEP_DATADIR=$CHECK_SRCDIR/data PYTHONDONTWRITEBYTECODE=1
unset PYTEST_ADDOPTS PYTHONPATH
mkdir -p "$CHECK_TMPDIR/proj"
cd "$CHECK_TMPDIR/proj"
cat >test_secret.py <<'PY'
import os


def test_prints_secrets():
    quoted = os.environ["QUOTED_SECRET"]
    token = os.environ["CI_JOB_TOKEN"]
    # The values are not in the source: pytest shows the lines it fails at.
    assert len(quoted) == 20 and '"' in quoted and "\\" in quoted
    assert token.endswith("TokenPy")
    print("the token is", token, "and", quoted)
    assert int(os.environ["FLAKESWEEP_RUN"]) % 2, "leaked " + token + " " + quoted
PY
export QUOTED_SECRET='MASKMEpy"quote\value' CI_JOB_TOKEN=MASKMEjobTokenPy
rc=0
"$FLAKESWEEP" --driver pytest --cpu 1 --load 1 --count 4 --confirm 0 --timeout 30s \
	--ui line -o "$CHECK_TMPDIR/out" >"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/stderr"; echo "exit status $rc, expected 1"; exit 1; }
cd "$CHECK_TMPDIR"
grep -q 'leaked \*\*\* \*\*\*' out/results.json ||
	{ echo "no masked assertion in results.json"; grep -o '"lines".\{0,300\}' out/results.json; exit 1; }
# Each value whole, and the quoted one as JSON writes it. (pytest's short
# summary cuts a long line to the terminal's width: "leaked MASKMEjob..."
# shows the beginning of a value, which is no value to mask.)
for v in "$QUOTED_SECRET" 'MASKMEpy\"quote\\value' "$CI_JOB_TOKEN"; do
	if grep -rlF "$v" out stdout stderr; then
		echo "the secret value $v reached the files above"
		grep -rF "$v" out stdout stderr | head -5
		exit 1
	fi
done
echo "ok: no secret in $(find out -type f | wc -l) files, stdout or stderr"
