#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# --until TIME as --for: a sweep of a dozen tiny Go packages at cpu 1,2 x
# load 1,2 told to end 40 seconds from now (in UTC) ends between 70% and
# 105% of that, with at least 3 runs a pair, the deadline in
# results.json's config.until and the count chosen.
set -eu
. "$CHECK_SRCDIR/tests/lib/budget-mod.sh"
start=$(date +%s%N)
until=$(date -u -d "@$((start / 1000000000 + 40))" +%Y-%m-%dT%H:%M:%SZ)
"$FLAKESWEEP" --until "$until" --cpu 1,2 --load 1,2 --no-race --ui none -o "$CHECK_TMPDIR/out" \
	./... >"$CHECK_TMPDIR/out.txt" 2>&1 || { cat "$CHECK_TMPDIR/out.txt"; echo "FAIL: --until"; exit 1; }
end=$(date +%s%N)
check_budget "$CHECK_TMPDIR/out" $((($(date -d "$until" +%s) * 1000000000 - start) / 1000000)) \
	$(((end - start) / 1000000)) until "$until"
