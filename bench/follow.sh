#!/bin/bash
# SPDX-License-Identifier: MIT
# Follow cost benchmark (DESIGN section 11): `flakesweep view DIR` in a
# 120x40 tmux terminal follows a journal that already holds BASE runs of
# a 100-test package (bench/genjournal.py) while a writer appends RATE
# passing runs a second to it for SECS seconds, as a running sweep does.
# Prints view's CPU time over those seconds as a share of one core. With
# BEFORE=PATH (another flakesweep binary) it measures that one too, on the
# same journal, first.
#
# Usage: bench/follow.sh [BASE [RATE [SECS]]] (from a build directory;
# default 200000 runs, 1000 a second, 20 seconds)
# Target: under 2% of a core at 1,000 runs a second.
set -eu
base=${1:-200000}
rate=${2:-1000}
secs=${3:-20}
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || { echo "needs tmux" >&2; exit 2; }
sock="fs-follow-$$"
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
python3 "$here/genjournal.py" "$work/seed.jsonl" "$base"
# The end line goes: the sweep is still running.
grep -v '^{"type":"end"' "$work/seed.jsonl" >"$work/base.jsonl"
hz=$(getconf CLK_TCK)

# share NAME BINARY: view's CPU share of one core while runs are appended.
share() {
	local name=$1 bin=$2 dir=$work/$1 pid t0 t1
	mkdir "$dir"
	cp "$work/base.jsonl" "$dir/journal.jsonl"
	tmux -L "$sock" new-session -d -x 120 -y 40 -s "$name" "$bin view $dir"
	sleep 3
	pid=$(tmux -L "$sock" list-panes -t "$name" -F '#{pane_pid}')
	t0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	python3 - "$dir/journal.jsonl" "$base" "$rate" "$secs" <<'PY'
import sys, time
path, run, rate, secs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
start = time.monotonic()
tick = start
with open(path, "a") as f:
    while time.monotonic() - start < secs:
        # A tenth of a second's runs at a time, each line written whole.
        for _ in range(rate // 10):
            run += 1
            f.write('{"type":"spawn","run":%d,"pid":4242,"start":99}\n' % run)
            f.write('{"type":"run","run":%d,"pkg":0,"phase":"sweep","cpu":1,"load":1,'
                    '"lane":0,"ms":50,"exit":0,"set":1,"cores":[0],"noise":0.01,'
                    '"noise_ms":0.5}\n' % run)
            f.flush()
        tick += 0.1
        time.sleep(max(0, tick - time.monotonic()))
PY
	t1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	tmux -L "$sock" kill-session -t "$name"
	python3 -c "print('%-7s %5.1f%% of a core (%d runs there, %d a second for %d s)' %
		('$name', 100.0 * ($t1 - $t0) / $hz / $secs, $base, $rate, $secs))"
}
if [ -n "${BEFORE:-}" ]; then
	share before "$BEFORE"
fi
share after "$fs"
