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
