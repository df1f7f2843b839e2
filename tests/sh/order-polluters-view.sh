#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# The dashboard's detail of a victim with two polluters
# (tests/fixtures/polluters, the Go module, swept with --shuffle) lists
# each polluter with its seed and, on the next row, the command that runs
# it and then the victim (the command itself is order-polluters.sh's). A polluter missed by the search (one sweep in about two
# thousand, see order-polluters.sh) fails it.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
. "$CHECK_SRCDIR/tests/lib/tmux.sh"
. "$CHECK_SRCDIR/tests/lib/order.sh" polluters
sweep go --no-race ./...
start one 200 60 "$FLAKESWEEP view $CHECK_TMPDIR/go"
wait_for one "Flaky tests (1)"
tm send-keys -t one Enter
for p in TestSetColor TestSetVerbose; do
	seed=$(python3 - "$CHECK_TMPDIR/go/results.json" "$p" <<'PY'
import json, sys
[t] = [t for t in json.load(open(sys.argv[1]))["tests"] if t["test"] == "TestOutputPlainByDefault"]
print([p["seed"] for p in t["polluters"] if p["test"] == sys.argv[2]][0])
PY
	)
	wait_for one "after $p (seed $seed):"
	# The command, slid to be read whole with > and <, on the next row.
	screen one | grep -A1 -F "after $p (seed $seed):" | tail -1 |
		grep -qF "cd $CHECK_TMPDIR/polluters && taskset" || { screen one; fail "no command after $p"; }
done
echo "the detail lists both polluters with their commands"
