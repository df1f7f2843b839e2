#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# Runs never see the GitHub token variables, nor those named with
# --scrub-env: a test that prints its environment leaves them in no file
# of the output directory.
set -eu
cd "$CHECK_TMPDIR"
cp "$CHECK_SRCDIR/tests/fixtures/tap/envprint.sh" .
export GH_TOKEN=ghp_SECRETVALUE1 GITHUB_TOKEN=ghp_SECRETVALUE2
export GH_ENTERPRISE_TOKEN=ghp_SECRETVALUE3 GITHUB_ENTERPRISE_TOKEN=ghp_SECRETVALUE4
export MY_DB_PASSWORD=SECRETVALUE5 KEEP_ME=visible42
rc=0
"$FLAKESWEEP" --cpu 1 --load 1,2 --count 4 --confirm 2 --timeout 10s --ui none \
	--scrub-env MY_DB_PASSWORD -o out --driver tap -- ./envprint.sh >stdout 2>stderr || rc=$?
[ "$rc" = 1 ] || { echo "exit $rc, expected 1"; cat stderr; exit 1; }
# The failing runs' logs hold the environment: the check can fail.
grep -q 'KEEP_ME=visible42' out/runs/*.log || { echo "no environment in the logs"; exit 1; }
if grep -rl SECRETVALUE out stdout stderr; then
	echo "a secret reached the files above"; exit 1
fi
echo "ok: no secret in $(find out -type f | wc -l) files"

# -- --resume: the runs after it keep the --scrub-env names of the sweep it
# continues, and those given to it (its resume line records them, so a
# later resume keeps them too), told again or not.
. "$CHECK_SRCDIR/tests/lib/journal-cut.sh"
grep -q '"scrub_env":\["MY_DB_PASSWORD"\]' out/journal.jsonl ||
	{ echo "no scrub_env in the header"; exit 1; }
export OTHER_PASSWORD=SECRETVALUE6
journal_cut out 2
rc=0
"$FLAKESWEEP" --resume out --scrub-env OTHER_PASSWORD --ui none >stdout2 2>stderr2 || rc=$?
[ "$rc" = 1 ] || { echo "resume: exit $rc, expected 1"; cat stderr2; exit 1; }
grep -q 'KEEP_ME=visible42' out/runs/*.log || { echo "resume: no environment in the logs"; exit 1; }
if grep -rl SECRETVALUE out stdout2 stderr2; then
	echo "resume: a scrubbed variable reached the runs"; exit 1
fi
journal_cut out 2
rc=0
"$FLAKESWEEP" --resume out --ui none >stdout3 2>stderr3 || rc=$?
[ "$rc" = 1 ] || { echo "second resume: exit $rc, expected 1"; cat stderr3; exit 1; }
if grep -rl SECRETVALUE out stdout3 stderr3; then
	echo "second resume: a name given to the first resume reached the runs"; exit 1
fi
echo "ok: --resume keeps the --scrub-env names, recorded and given"
