#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 150
# Who holds a lease, where front ends look (Go, one project, group "gpu"):
# sweep A's run of ./probe holds the lease LEASES/gpu; sweep B, same group
# and lease directory, waits. B's control socket status lists the lease as
# "waiting", with A's host, pid and output directory beside it, and
# a `view` of B says "lease gpu held by HOST:PID (A's dir) for ...".
set -eu
. "$CHECK_SRCDIR/tests/lib/tmux.sh"
command -v go >/dev/null 2>&1 || { echo "SKIP go is not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP python3 is not installed"; exit 77; }
T="$CHECK_TMPDIR"
export GOFLAGS=-mod=mod GOCACHE="$T/gocache"
mkdir -p "$T/leases" "$T/proj/probe"
cd "$T/proj"
printf 'module probe.test/bench\n\ngo 1.19\n' >go.mod
cat >probe/probe_test.go <<'EOF2'
package probe

import (
	"os"
	"testing"
	"time"
)

// TestHold keeps the device until the script lets it go (at most 90 s).
func TestHold(t *testing.T) {
	for i := 0; i < 900; i++ {
		if _, err := os.Stat(os.Getenv("PROBE_RELEASE")); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}
EOF2
export PROBE_RELEASE="$T/release"
pids=""
cleanup() {
	touch "$T/release"
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	tmux_cleanup
}
trap cleanup EXIT
cat >"$T/ctl.py" <<'EOF2'
import json, socket, sys, time
# ctl.py SOCKET STATE: prints the first status lease in STATE (20 s).
path, want = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX)
s.connect(path)
s.settimeout(20)
buf, end = b"", time.time() + 20
while time.time() < end:
    chunk = s.recv(65536)
    if not chunk:
        break
    buf += chunk
    while b"\n" in buf:
        line, buf = buf.split(b"\n", 1)
        m = json.loads(line)
        for l in m.get("leases") or []:
            if l.get("state") == want:
                print(json.dumps(l))
                sys.exit(0)
sys.exit(1)
EOF2
wait_file() { for _ in $(seq 600); do [ -e "$1" ] && return 0; sleep 0.1; done; return 1; }

sweep() { # OUT
	exec "$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --no-race --ui line -o "$T/$1" \
		--exclusive gpu=./probe --lease-dir "$T/leases" ./probe >"$T/$1.log" 2>&1
}
sweep outA &
pidA=$!
pids="$pidA"
wait_file "$T/leases/gpu/owner" || { cat "$T/outA.log"; fail "A never took the lease"; }
sweep outB &
pidB=$!
pids="$pids $pidB"
wait_file "$T/outB/control.sock" || { cat "$T/outB.log"; fail "B has no control socket"; }
host=$(uname -n)

python3 "$T/ctl.py" "$T/outB/control.sock" waiting >"$T/B.lease" ||
	{ cat "$T/outB.log"; fail "B's status never listed a lease it waits for"; }
python3 - "$T/B.lease" "$host" "$pidA" "$T/outA" "$T/leases/gpu" <<'EOF2' || fail "B's status: $(cat "$T/B.lease")"
import json, sys
l = json.load(open(sys.argv[1]))
o = l  # the owner file's members sit beside name, path and state
ok = (l.get("name") == "gpu" and l.get("path") == sys.argv[5]
      and o.get("host") == sys.argv[2] and o.get("pid") == int(sys.argv[3])
      and o.get("outdir") == sys.argv[4] and o.get("started"))
sys.exit(0 if ok else 1)
EOF2

start view 160 40 "'$FLAKESWEEP' view '$T/outB'"
WAIT_SECONDS=20 wait_for view "lease gpu held by $host:$pidA ($T/outA) for"

touch "$T/release"
wait "$pidA" || fail "A: exit $? $(cat "$T/outA.log")"
wait "$pidB" || fail "B: exit $? $(cat "$T/outB.log")"
pids=""
echo "variant4-lease-probe: B's status and view name A as the holder"
