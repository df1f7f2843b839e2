#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# Interference across packages through a fixed TCP port: package server
# listens on a fixed loopback port while its test runs; package client
# binds the same port for its own fake server and fails while server holds
# it. A third package, util, shares nothing. Swept at cpu 1, load 1,2 on
# two cores, client is flaky with the cause interference and server as
# its partner (results.json causes[].partner and the report), never timing.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
command -v taskset >/dev/null || { echo "SKIP taskset is not installed"; exit 77; }
cores=$(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(",".join(map(str, c[:2])) if len(c) >= 2 else "")')
[ -n "$cores" ] || { echo "SKIP needs two cores"; exit 77; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export VARIANT_PORT=$port
mkdir -p "$CHECK_TMPDIR/m/server" "$CHECK_TMPDIR/m/client" "$CHECK_TMPDIR/m/util"
cd "$CHECK_TMPDIR/m"
printf 'module example.com/ports\n\ngo 1.19\n' >go.mod
cat >server/server_test.go <<'GO'
package server

import (
	"net"
	"os"
	"testing"
	"time"
)

func TestServe(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:"+os.Getenv("VARIANT_PORT"))
	if err != nil {
		t.Skip("port busy")
	}
	defer l.Close()
	time.Sleep(400 * time.Millisecond)
}
GO
cat >client/client_test.go <<'GO'
package client

import (
	"net"
	"os"
	"testing"
	"time"
)

func TestFakeServer(t *testing.T) {
	for i := 0; i < 40; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:"+os.Getenv("VARIANT_PORT"))
		if err != nil {
			t.Fatalf("fake server: %v", err)
		}
		l.Close()
		time.Sleep(10 * time.Millisecond)
	}
}
GO
cat >util/util_test.go <<'GO'
package util

import (
	"testing"
	"time"
)

func TestJoin(t *testing.T) { time.Sleep(200 * time.Millisecond) }
GO
rc=0
taskset -c "$cores" "$FLAKESWEEP" --cpu 1 --load 1,2 --count 20 --confirm 10 --no-race \
	--ui none -o "$CHECK_TMPDIR/out" ./... >"$CHECK_TMPDIR/stdout" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/stdout"; echo "FAIL: exit $rc, expected 1"; exit 1; }
python3 - "$CHECK_TMPDIR/out/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = {t["test"]: t for t in r["tests"]}["TestFakeServer"]
causes = t.get("causes", [])
names = [c["cause"] for c in causes]
if t["verdict"] != "flaky" or "interference" not in names or "timing" in names:
    print("FAIL: client: %s, causes %s" % (t["verdict"], causes)); sys.exit(1)
c = [c for c in causes if c["cause"] == "interference"][0]
if c.get("partner") != "example.com/ports/server":
    print("FAIL: partner %r: %s" % (c.get("partner"), c)); sys.exit(1)
PY
grep -q 'cause (interference)' "$CHECK_TMPDIR/out/report.txt" || { cat "$CHECK_TMPDIR/out/report.txt"; echo "FAIL: report"; exit 1; }
grep -q 'example.com/ports/server' "$CHECK_TMPDIR/out/report.txt" || { cat "$CHECK_TMPDIR/out/report.txt"; echo "FAIL: partner in report"; exit 1; }
if grep -q 'cause (timing)' "$CHECK_TMPDIR/out/report.txt"; then echo "FAIL: timing"; exit 1; fi
echo ok
