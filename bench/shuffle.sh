#!/bin/bash
# SPDX-License-Identifier: MIT
# Shuffle cost benchmark (DESIGN section 11): journals of RUNS shuffled
# runs of a 100-test package written as before (a set line per order), with
# seeds (the run's seed, and one set for the same tests in any order), and
# compact (seeds, and a sweep run's phase and exit status 0 left out) and
# as now (also an overlapped at its defaults line's value left out), by
# bench/genjournal.py in the writer's format. Prints each one's bytes per
# run (spawn lines apart) and the peak RSS of `report --rebuild` of each,
# at RUNS and at 4 x RUNS runs: memory that does not grow with runs (a
# journal with a set line per run still keeps about 50 bytes a line).
#
# Usage: bench/shuffle.sh [RUNS] (from a build directory; default 50000)
# Target: at most 150 bytes per passing run; memory independent of runs.
set -eu
runs=${1:-50000}
. "$(dirname "$0")/lib.sh"

# one NAME FLAG N: "NAME N runs: B bytes a run, rebuild R MiB"
one() {
	local dir=$work/$1-$3
	mkdir "$dir"
	python3 "$here/genjournal.py" "$dir/journal.jsonl" "$3" $2
	grep -v '^{"type":"spawn"' "$dir/journal.jsonl" >"$dir/runs"
	/usr/bin/time -f "%M" -o "$dir/time" "$fs" report --rebuild "$dir" >/dev/null 2>&1 || true
	printf '%-7s %8d runs: %5d bytes a run (spawn lines apart), rebuild %6.1f MiB\n' "$1" "$3" \
		$(($(stat -c %s "$dir/runs") / $3)) "$(tail -n 1 "$dir/time" | awk '{ print $1 / 1024 }')"
}
one before --shuffle "$runs"
one before --shuffle $((runs * 4))
one seed --shuffle=seed "$runs"
one seed --shuffle=seed $((runs * 4))
one compact "--shuffle=seed --compact" "$runs"
one compact "--shuffle=seed --compact" $((runs * 4))
one now "--shuffle=seed --compact --defaults" "$runs"
one now "--shuffle=seed --compact --defaults" $((runs * 4))
