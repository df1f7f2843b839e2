#!/bin/bash
# SPDX-License-Identifier: MIT
# Rebuild benchmark (DESIGN section 11): makes a journal of RUNS runs of a
# 100-test package (bench/genjournal.py: spawn and run lines, one run in
# 1000 failing) and times, in one run, `report --rebuild` of it against a
# plain cJSON parse of the same lines (bench/jsonparse.c, the floor of any
# reader that parses every line). Prints wall and CPU seconds of each,
# their ratio, the rebuild's peak RSS, and the journal's bytes per run.
# With BEFORE=PATH (another flakesweep binary, say an older build) it
# times that one too and checks both write the same results.json.
#
# Usage: bench/rebuild.sh [RUNS] (from a build directory; default 1000000)
# Target: under 3 s and 64 MiB for a million runs.
set -eu
runs=${1:-1000000}
. "$(dirname "$0")/lib.sh"
cc -O2 -o "$work/jsonparse" "$here/jsonparse.c" -lcjson
mkdir "$work/out"
python3 "$here/genjournal.py" "$work/out/journal.jsonl" "$runs"
bytes=$(stat -c %s "$work/out/journal.jsonl")
cat "$work/out/journal.jsonl" >/dev/null

# timed NAME CMD...: "NAME wall_s cpu_s maxrss_kb", whatever CMD exits with.
timed() {
	local name=$1
	shift
	/usr/bin/time -f "$name %e %U %S %M" -o "$work/time" "$@" >/dev/null 2>&1 || true
	# The last line: a failing command gets a line about its status first.
	tail -n 1 "$work/time" | awk '{ printf "%s %.2f %.2f %d\n", $1, $2, $3 + $4, $5 }'
}
parse=$(timed parse "$work/jsonparse" "$work/out/journal.jsonl")
rebuild=$(timed rebuild "$fs" report --rebuild "$work/out")
echo "journal: $runs runs, $((bytes / runs)) bytes a run"
echo "$parse" | awk '{ printf "plain parse:  %6.2f s wall %6.2f s cpu\n", $2, $3 }'
echo "$rebuild" | awk '{ printf "rebuild:      %6.2f s wall %6.2f s cpu %6.1f MiB\n", $2, $3, $4 / 1024 }'
if [ -n "${BEFORE:-}" ]; then
	cp "$work/out/results.json" "$work/after.json"
	before=$(timed before "$BEFORE" report --rebuild "$work/out")
	echo "$before" | awk '{ printf "before:       %6.2f s wall %6.2f s cpu %6.1f MiB\n", $2, $3, $4 / 1024 }'
	cmp -s "$work/out/results.json" "$work/after.json" &&
		echo "results.json: the same before and after" ||
		echo "results.json: DIFFERS before and after"
fi
printf '%s\n%s\n' "$parse" "$rebuild" | awk '
	$1 == "parse" { p = $3 } $1 == "rebuild" { r = $3 }
	END { printf "rebuild / plain parse (cpu): %.2f\n", r / p }'
