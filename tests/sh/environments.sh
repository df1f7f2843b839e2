#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 400
# Environment levels (man 1 flakesweep, ENVIRONMENT LEVELS). A dockerd of
# its own and tests/fixtures/environments: a unit level, a testcontainers
# level and a walkthrough (wt1: a Dockerfile FROM scratch with a static Go
# binary, deploy/kind/up.sh starting a plain container labelled with the
# environment's name, down.sh removing it, functional tests). Swept from
# its root with no pattern, every level runs; the walkthrough's image is
# built, its environment comes up, its functional test finds the
# environment's container on its own lane's cores (CpusetCpus and the
# container's own affinity), and it is taken down; results.json says each
# package's kind and pinning. With two walkthroughs on two lanes,
# --clusters 1 keeps their environments apart in time (the journal's env
# lines) while --clusters 2 overlaps them. A dead daemon: exit 2 with the
# reason, the unit level swept.
set -eu
. "$CHECK_SRCDIR/tests/sh/docker/dockerd.sh"

cp -r "$CHECK_SRCDIR/tests/fixtures/environments" repo
(cd repo/img && go build -o cpuset .)
kept=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
cd repo
rc=0
KEPT_CPUS=$kept "$FLAKESWEEP" --keep 1 --cpu 1 --load 1 --count 2 --confirm 0 --no-race \
	--timeout 60s --ui none -o "$CHECK_TMPDIR/out" >"$CHECK_TMPDIR/stdout" \
	2>"$CHECK_TMPDIR/stderr" || rc=$?
[ $rc = 0 ] || { cat "$CHECK_TMPDIR/stdout" "$CHECK_TMPDIR/stderr"; fail "the sweep exited $rc, expected 0"; }
python3 - "$CHECK_TMPDIR/out" "$kept" <<'PY'
import json, os, sys
out, kept = sys.argv[1:]
lines = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl"))]
header = lines[0]
lane = ",".join(str(c) for c in header["machine"]["lanes"][0])
names = {l["pkg"]: l["package"] for l in lines if l["type"] == "build"}
runs = [l for l in lines if l["type"] == "run"]
envs = [l for l in lines if l["type"] == "env"]
pins = [l for l in lines if l["type"] == "pin"]
bad = []
by = {}
for r in runs:
    by.setdefault(names[r["pkg"]], []).append(r["exit"])
want = {"example.com/envs/unit": [0, 0], "example.com/envs/ctr": [0, 0],
        "example.com/envs/wt1/functional": [0, 0]}
if by != want:
    bad.append("runs %s, expected %s" % (by, want))
if [(e["event"], e["env"], e["cpuset"], "error" in e) for e in envs] != \
        [("up", "flaky-wt1", lane, False), ("down", "flaky-wt1", lane, False)]:
    bad.append("env lines %s" % envs)
env_pins = [p for p in pins if [names[k] for k in p["pkgs"]] == ["example.com/envs/wt1/functional"]]
if len(env_pins) != 1 or env_pins[0]["cpuset"] != lane:
    bad.append("environment pins %s, expected one on %s" % (env_pins, lane))
res = json.load(open(os.path.join(out, "results.json")))
kinds = {p["package"]: (p["level"], p["kind"], (p.get("pinning") or {}).get("cpuset"))
         for p in res["packages"]}
want = {"example.com/envs/unit": ("unit", "unit", None),
        "example.com/envs/ctr": ("testcontainers", "containers", kept),
        "example.com/envs/wt1/functional": ("functional", "environment", lane)}
if kinds != want:
    bad.append("packages %s, expected %s" % (kinds, want))
if bad:
    print("FAIL:", "; ".join(bad))
    sys.exit(1)
for e in envs:
    print("%s %s: %d ms" % (e["env"], e["event"], e["ms"]))
PY

# Two walkthroughs, two lanes (no core kept back), the functional level only.
cp -r wt1 wt2
sed -i 's/wt1/wt2/' wt2/go.mod
spans() {
	python3 - "$1" <<'PY'
import json, sys
envs = [json.loads(l) for l in open(sys.argv[1] + "/journal.jsonl")]
envs = [l for l in envs if l.get("type") == "env"]
span = {}
for e in envs:
    if "error" in e:
        print("FAIL: %s" % e)
        sys.exit(1)
    s = span.setdefault(e["env"], [None, None])
    if e["event"] == "up":
        s[0] = e["at_ms"]
    else:
        s[1] = e["at_ms"] + e["ms"]
a, b = sorted(span.values())
print("overlap" if b[0] < a[1] else "apart", len(span))
PY
}
for n in 1 2; do
	rc=0
	"$FLAKESWEEP" --keep 0 --cpu 1 --load 1 --count 2 --confirm 0 --no-race --timeout 60s \
		--tags functional --clusters $n --ui none -o "$CHECK_TMPDIR/c$n" \
		>"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
	[ $rc = 0 ] || { cat "$CHECK_TMPDIR/stderr"; fail "--clusters $n: exit $rc"; }
done
got=$(spans "$CHECK_TMPDIR/c1")
[ "$got" = "apart 2" ] || fail "--clusters 1: the environments were $got"
got=$(spans "$CHECK_TMPDIR/c2")
[ "$got" = "overlap 2" ] || fail "--clusters 2: the environments were $got"

# No engine: the environment level fails with the reason, the unit level is swept.
rc=0
DOCKER_HOST=unix://$d/gone.sock "$FLAKESWEEP" --keep 0 --cpu 1 --load 1 --count 2 --confirm 0 \
	--tags unit,functional --no-race --timeout 60s --ui none -o "$CHECK_TMPDIR/dead" \
	>"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ $rc = 2 ] || { cat "$CHECK_TMPDIR/stderr"; fail "no engine: exit $rc, expected 2"; }
grep -q "cannot reach Docker at $d/gone.sock: " "$CHECK_TMPDIR/stderr" ||
	{ cat "$CHECK_TMPDIR/stderr"; fail "no engine: the reason is not printed"; }
n=$(grep -c '"type":"run".*"exit":0,' "$CHECK_TMPDIR/dead/journal.jsonl" || true)
[ "$n" = 2 ] || fail "no engine: $n unit runs passed, expected 2"
echo "ok: the environment's container on its lane; --clusters 1 apart, 2 overlapping; no engine gives exit 2"
