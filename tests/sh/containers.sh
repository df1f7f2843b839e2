#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Container levels (man 1 flakesweep, CONTAINER LEVELS). A dockerd of its
# own (no registry: the image is a static Go binary imported from a
# tarball) and a Go module whose `testcontainers` level runs a labelled
# container that prints its Cpus_allowed_list after 1.5 s. With --keep 1
# the container must find only the kept-back core: the test fails
# otherwise, and the journal has one "pin" line per container. Then with
# DOCKER_HOST on a dead socket: exit 2, the reason printed, and the unit
# level still swept.
set -eu
command -v dockerd >/dev/null || { echo "SKIP docker.io is not installed"; exit 77; }
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP dockerd needs root"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "SKIP needs 2 cores: one kept back, one lane"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
cd "$CHECK_TMPDIR"
export GOFLAGS=-mod=mod GOCACHE="$CHECK_TMPDIR/gocache" CGO_ENABLED=0
# A unix socket path must fit in 108 bytes: the daemon lives in /tmp.
d=$(mktemp -d /tmp/fs-dk.XXXXXX)
stop() {
	[ -s "$d/docker.pid" ] && kill "$(cat "$d/docker.pid")" 2>/dev/null
	for _ in $(seq 50); do [ -e "$d/docker.pid" ] || break; sleep 0.2; done
	umount -R "$d/data" 2>/dev/null || true
	rm -rf "$d"
}
trap stop EXIT
dockerd --host "unix://$d/docker.sock" --data-root "$d/data" --exec-root "$d/exec" \
	--pidfile "$d/docker.pid" --bridge none --iptables=false --ip6tables=false \
	>"$d/log" 2>&1 &
export DOCKER_HOST=unix://$d/docker.sock
for _ in $(seq 150); do
	[ "$(curl -s --unix-socket "$d/docker.sock" http://localhost/_ping)" = OK ] && break
	sleep 0.2
done
[ "$(curl -s --unix-socket "$d/docker.sock" http://localhost/_ping)" = OK ] ||
	{ cat "$d/log"; fail "dockerd did not start"; }

# The image: one static binary, imported from a tarball.
mkdir img
cat >img/main.go <<'EOF'
package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

func main() {
	time.Sleep(1500 * time.Millisecond)
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "Cpus_allowed_list:") {
			fmt.Println(strings.TrimSpace(strings.TrimPrefix(l, "Cpus_allowed_list:")))
		}
	}
}
EOF
printf 'module cpuset\n\ngo 1.19\n' >img/go.mod
(cd img && go build -o cpuset . && tar cf img.tar cpuset && docker import img.tar fs-cpuset:1 >/dev/null)

# The module: a unit level and a testcontainers level.
mkdir -p repo/unit repo/ctr
printf 'module example.com/c\n\ngo 1.19\n' >repo/go.mod
printf 'package unit\n\nimport "testing"\n\nfunc TestUnit(t *testing.T) {}\n' >repo/unit/unit_test.go
printf 'package ctr\n' >repo/ctr/ctr.go
cat >repo/ctr/ctr_test.go <<'EOF'
//go:build testcontainers

package ctr

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestPinned(t *testing.T) {
	start := time.Now()
	out, err := exec.Command("docker", "run", "--rm", "--network", "none",
		"--label", "org.testcontainers=true", "fs-cpuset:1", "/cpuset").CombinedOutput()
	if err != nil {
		t.Fatalf("docker run: %v: %s", err, out)
	}
	if f := os.Getenv("SPAN_FILE"); f != "" {
		w, _ := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		fmt.Fprintf(w, "%d %d\n", start.UnixNano(), time.Now().UnixNano())
		w.Close()
	}
	if got := strings.TrimSpace(string(out)); got != os.Getenv("WANT_CPUS") {
		t.Fatalf("the container runs on cores %q, want %q", got, os.Getenv("WANT_CPUS"))
	}
}
EOF
cp -r repo/ctr repo/ctr2
# --keep 1 keeps back the first core flakesweep may use.
kept=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
export WANT_CPUS=$kept
cd repo
rc=0
"$FLAKESWEEP" --keep 1 --cpu 1 --load 1 --count 2 --confirm 0 --no-race --timeout 60s --ui none \
	-o "$CHECK_TMPDIR/out" >"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ $rc = 0 ] || { cat "$CHECK_TMPDIR/stdout" "$CHECK_TMPDIR/stderr"; grep pin "$CHECK_TMPDIR/out/journal.jsonl"; fail "the sweep exited $rc, expected 0"; }
python3 - "$CHECK_TMPDIR/out" "$kept" <<'PY'
import json, os, sys
out, kept = sys.argv[1:]
lines = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl"))]
pins = [l for l in lines if l["type"] == "pin"]
runs = [l for l in lines if l["type"] == "run"]
bad = []
if len(pins) != 4:
    bad.append("%d pin lines, expected 4" % len(pins))
for p in pins:
    if p["cpuset"] != kept or "error" in p:
        bad.append("pin %s" % p)
if len(runs) != 6 or any(r.get("exit", 0) != 0 for r in runs):
    bad.append("runs: %s" % sorted((r["pkg"], r.get("exit", 0)) for r in runs))
res = json.load(open(os.path.join(out, "results.json")))
kinds = sorted((p["package"], p["level"], p["kind"], json.dumps(p.get("pinning"), sort_keys=True))
               for p in res["packages"])
names = {l["pkg"]: l["package"] for l in lines if l["type"] == "build" and l["level"] != "unit"}
def pinning(name):
    ms = [p["latency_ms"] for p in pins if [names.get(k) for k in p["pkgs"]] == [name]]
    return json.dumps({"containers": len(ms), "cpuset": kept, "failed": 0,
                       "max_latency_ms": max(ms or [0])}, sort_keys=True)
pin, pin2 = pinning("example.com/c/ctr"), pinning("example.com/c/ctr2")
want = sorted([("example.com/c/ctr", "testcontainers", "containers", pin),
               ("example.com/c/ctr2", "testcontainers", "containers", pin2),
               ("example.com/c/unit", "unit", "unit", "null")])
if kinds != want:
    bad.append("packages %s, expected %s" % (kinds, want))
if bad:
    print("FAIL:", "; ".join(bad))
    sys.exit(1)
print("pinning latency (ms):", ", ".join(str(p["latency_ms"]) for p in pins))
PY
# The journal rebuilds the same packages, pinning included.
cp "$CHECK_TMPDIR/out/results.json" "$CHECK_TMPDIR/before.json"
"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/out" >/dev/null
cmp -s <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["packages"])' "$CHECK_TMPDIR/before.json") \
	<(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["packages"])' "$CHECK_TMPDIR/out/results.json") ||
	fail "the rebuilt results.json has other packages"

# --containers 1: at load 2 the lane's core could hold both container
# packages' runs at once; the cap lets one run at a time.
rc=0
SPAN_FILE=$CHECK_TMPDIR/spans "$FLAKESWEEP" --keep 1 --cpu 1 --load 2 --count 2 --confirm 0 \
	--containers 1 --no-race --timeout 60s --ui none -o "$CHECK_TMPDIR/capped" \
	>"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ $rc = 0 ] || { cat "$CHECK_TMPDIR/stdout" "$CHECK_TMPDIR/stderr"; fail "--containers 1: exit $rc"; }
python3 - "$CHECK_TMPDIR/spans" <<'PY'
import sys
spans = sorted(tuple(map(int, l.split())) for l in open(sys.argv[1]))
if len(spans) != 4:
    print("FAIL: --containers 1: %d container runs, expected 4" % len(spans))
    sys.exit(1)
for a, b in zip(spans, spans[1:]):
    if b[0] < a[1]:
        print("FAIL: --containers 1: runs overlap: %s and %s" % (a, b))
        sys.exit(1)
PY

# No engine: the container level fails with the reason, the unit level is swept.
rc=0
DOCKER_HOST=unix://$d/gone.sock "$FLAKESWEEP" --keep 1 --cpu 1 --load 1 --count 2 --confirm 0 \
	--no-race --timeout 60s --ui none -o "$CHECK_TMPDIR/dead" \
	>"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ $rc = 2 ] || { cat "$CHECK_TMPDIR/stderr"; fail "no engine: exit $rc, expected 2"; }
grep -q "cannot reach Docker at $d/gone.sock: " "$CHECK_TMPDIR/stderr" ||
	{ cat "$CHECK_TMPDIR/stderr"; fail "no engine: the reason is not printed"; }
# A run line leaves out an exit status 0.
n=$(grep '"type":"run"' "$CHECK_TMPDIR/dead/journal.jsonl" | grep -vc '"exit":' || true)
[ "$n" = 2 ] || fail "no engine: $n unit runs passed, expected 2"
echo "ok: containers pinned to core $kept; no engine gives exit 2 and the unit level is swept"
