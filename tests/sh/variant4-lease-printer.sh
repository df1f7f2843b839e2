#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 150
# Who holds a lease, where front ends look (Go, two projects, group "usb",
# one of them given as package::test): sweep A of project scanner holds
# LEASES/usb while its run naps; sweep B of project printer, same group
# name and lease directory, waits. A's control socket status says "held"
# (by this sweep); B's says "waiting", with A's host, pid and
# output directory; B's line front end and a `view` of B name the holder.
set -eu
. "$CHECK_SRCDIR/tests/lib/tmux.sh"
command -v go >/dev/null 2>&1 || { echo "SKIP go is not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP python3 is not installed"; exit 77; }
T="$CHECK_TMPDIR"
export GOFLAGS=-mod=mod GOCACHE="$T/gocache"
mkdir -p "$T/leases" "$T/scanner/feed" "$T/printer/spool"
printf 'module scan.example/scanner\n\ngo 1.19\n' >"$T/scanner/go.mod"
printf 'module print.example/printer\n\ngo 1.19\n' >"$T/printer/go.mod"
for f in scanner/feed/feed_test.go:feed:TestFeed printer/spool/spool_test.go:spool:TestPrint; do
	IFS=: read -r file pkg test <<<"$f"
	cat >"$T/$file" <<EOF2
package $pkg

import (
	"os"
	"testing"
	"time"
)

// $test keeps the printer until the script lets it go (at most 90 s).
func $test(t *testing.T) {
	for i := 0; i < 900; i++ {
		if _, err := os.Stat(os.Getenv("USB_RELEASE")); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestIdle(t *testing.T) {}
EOF2
done
export USB_RELEASE="$T/release"
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

(cd "$T/scanner" && exec "$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --no-race --ui line \
	-o "$T/outA" --exclusive usb=./feed --lease-dir "$T/leases" ./feed >"$T/outA.log" 2>&1) &
pidA=$!
pids="$pidA"
wait_file "$T/leases/usb/owner" || { cat "$T/outA.log"; fail "A never took the lease"; }
(cd "$T/printer" && exec "$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --no-race --ui line \
	-o "$T/outB" --exclusive usb=./spool::TestPrint --lease-dir "$T/leases" ./spool \
	>"$T/outB.log" 2>&1) &
pidB=$!
pids="$pids $pidB"
wait_file "$T/outB/control.sock" || { cat "$T/outB.log"; fail "B has no control socket"; }
host=$(uname -n)

python3 "$T/ctl.py" "$T/outA/control.sock" held >"$T/A.lease" ||
	{ cat "$T/outA.log"; fail "A's status never listed the lease it holds"; }
grep -qF "\"path\": \"$T/leases/usb\"" "$T/A.lease" || fail "A's lease: $(cat "$T/A.lease")"

python3 "$T/ctl.py" "$T/outB/control.sock" waiting >"$T/B.lease" ||
	{ cat "$T/outB.log"; fail "B's status never listed a lease it waits for"; }
python3 - "$T/B.lease" "$host" "$pidA" "$T/outA" <<'EOF2' || fail "B's status: $(cat "$T/B.lease")"
import json, sys
l = json.load(open(sys.argv[1]))
o = l  # the owner file's members sit beside name, path and state
ok = (l.get("name") == "usb" and o.get("host") == sys.argv[2]
      and o.get("pid") == int(sys.argv[3]) and o.get("outdir") == sys.argv[4]
      and o.get("started_ms", 0) > 0 and "age_s" in o)
sys.exit(0 if ok else 1)
EOF2

start view 160 40 "'$FLAKESWEEP' view '$T/outB'"
WAIT_SECONDS=20 wait_for view "lease usb held by $host:$pidA ($T/outA) for"
grep "$T/leases/usb" "$T/outB.log" | grep -F "$host" | grep -F "$pidA" | grep -qF "$T/outA" ||
	{ cat "$T/outB.log"; fail "B's line front end does not say who holds the lease"; }

touch "$T/release"
wait "$pidA" || fail "A: exit $? $(cat "$T/outA.log")"
wait "$pidB" || fail "B: exit $? $(cat "$T/outB.log")"
pids=""
echo "variant4-lease-printer: A holds, B's status, line and view name A"
