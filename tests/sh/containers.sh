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
# level still swept. Then a module whose .flakesweep/levels.json makes its
# `docker_it` tag a container level with a label of its own: those
# containers are pinned (without the file the level is a unit level and
# its test fails); and --resume of that sweep with the engine gone fails
# the container package again, with the reason.
set -eu
. "$CHECK_SRCDIR/tests/lib/dockerd.sh"

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
# levels.json: the docker_it tag is a container level labelled com.example.pin=yes.
mkdir -p "$CHECK_TMPDIR/repo2/it" "$CHECK_TMPDIR/repo2/.flakesweep"
cd "$CHECK_TMPDIR/repo2"
printf 'module example.com/l\n\ngo 1.19\n' >go.mod
printf 'package it\n' >it/it.go
sed -e 's/^\/\/go:build testcontainers/\/\/go:build docker_it/' -e 's/^package ctr/package it/' \
	-e 's/org\.testcontainers=true/com.example.pin=yes/' ../repo/ctr/ctr_test.go >it/it_test.go
cat >.flakesweep/levels.json <<'EOF'
{
  "levels": {
    "docker_it": { "kind": "containers", "label": "com.example.pin=yes" }
  }
}
EOF
rc=0
"$FLAKESWEEP" --keep 1 --cpu 1 --load 1 --count 2 --confirm 0 --no-race --timeout 60s --ui none \
	-o "$CHECK_TMPDIR/labelled" >"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ $rc = 0 ] || { cat "$CHECK_TMPDIR/stdout" "$CHECK_TMPDIR/stderr"; fail "levels.json: exit $rc, expected 0"; }
python3 - "$CHECK_TMPDIR/labelled" "$kept" <<'PY'
import json, os, sys
out, kept = sys.argv[1:]
lines = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl"))]
pins = [(l["cpuset"], l["pkgs"], "error" in l) for l in lines if l["type"] == "pin"]
if pins != [(kept, [0], False)] * 2:
    print("FAIL: levels.json: pins %s, expected two on %s" % (pins, kept))
    sys.exit(1)
lc = lines[0]["config"].get("level_config")
if lc != {"docker_it": {"kind": "containers", "label": "com.example.pin=yes"}}:
    print("FAIL: levels.json: the header's level_config is %s" % lc)
    sys.exit(1)
res = json.load(open(os.path.join(out, "results.json")))
kinds = [(p["package"], p["level"], p["kind"]) for p in res["packages"]]
if kinds != [("example.com/l/it", "docker_it", "containers")]:
    print("FAIL: levels.json: packages %s" % kinds)
    sys.exit(1)
PY

# --resume with the engine gone: the journal cut after its build lines;
# the container package fails again, with the reason.
mkdir "$CHECK_TMPDIR/cut"
cp -r "$CHECK_TMPDIR/labelled/bin" "$CHECK_TMPDIR/cut/"
grep -E '"type":"(header|build)"' "$CHECK_TMPDIR/labelled/journal.jsonl" >"$CHECK_TMPDIR/cut/journal.jsonl"
rc=0
DOCKER_HOST=unix://$d/gone.sock "$FLAKESWEEP" --resume "$CHECK_TMPDIR/cut" --ui none \
	>"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ $rc = 2 ] || { cat "$CHECK_TMPDIR/stdout" "$CHECK_TMPDIR/stderr"; fail "resume, no engine: exit $rc, expected 2"; }
grep -q "cannot reach Docker at $d/gone.sock: " "$CHECK_TMPDIR/stderr" ||
	{ cat "$CHECK_TMPDIR/stderr"; fail "resume, no engine: the reason is not printed"; }
python3 - "$CHECK_TMPDIR/cut" "$d/gone.sock" <<'PY'
import json, os, sys
out, sock = sys.argv[1:]
res = json.load(open(os.path.join(out, "results.json")))
b = [(p["package"], p["build"]["ok"],
      p["build"]["output"].startswith("cannot reach Docker at " + sock)) for p in res["packages"]]
if b != [("example.com/l/it", False, True)]:
    print("FAIL: resume, no engine: packages %s" % res["packages"])
    sys.exit(1)
if "example.com/l/it" not in open(os.path.join(out, "report.txt")).read():
    print("FAIL: resume, no engine: report.txt does not name the package")
    sys.exit(1)
PY
echo "ok: containers pinned to core $kept; no engine gives exit 2 and the unit level is swept;" \
	"levels.json's label pinned; resume without an engine fails the container level again"
