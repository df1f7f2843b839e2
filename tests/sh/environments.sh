#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 400
# Environment levels (man 1 flakesweep, ENVIRONMENT LEVELS). A dockerd of
# its own and tests/fixtures/environments, three modules (the root, tools
# and the walkthrough wt1): a unit level, a testcontainers
# level and a walkthrough (wt1: a Dockerfile FROM scratch with a static Go
# binary, deploy/kind/up.sh starting a plain container labelled with the
# environment's name, down.sh removing it, functional tests). Swept from
# its root with no pattern, every level runs; the walkthrough's image is
# built, its environment comes up, its functional test finds the
# environment's container on its own lane's cores (CpusetCpus and the
# container's own affinity), and it is taken down; results.json says each
# package's kind and pinning. With two walkthroughs on two lanes,
# --clusters 1 keeps their environments apart in time (the journal's env
# lines), a confirm run getting a fresh one, while --clusters 2 overlaps
# them. Interrupted, the sweep takes its environments down. A failed up
# (from --env-up, or from the levels file, which comes first) and a dead
# daemon: exit 2 with the reason, the unit level swept.
set -eu
. "$CHECK_SRCDIR/tests/lib/dockerd.sh"

cp -r "$CHECK_SRCDIR/tests/fixtures/environments" repo
(cd repo/img && go build -o cpuset .)
kept=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
cd repo
rc=0
# An inherited KIND_CLUSTER_NAME gives way to the environment's.
KIND_CLUSTER_NAME=kind KEPT_CPUS=$kept "$FLAKESWEEP" --keep 1 --cpu 1 --load 1 --count 2 --confirm 0 --no-race \
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
    by.setdefault(names[r["pkg"]], []).append(r.get("exit", 0))
want = {"example.com/envs/unit": [0, 0], "example.com/envs/tools": [0, 0],
        "example.com/envs/ctr": [0, 0], "example.com/envs/wt1/functional": [0, 0]}
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
        "example.com/envs/tools": ("unit", "unit", None),
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
# The environments' lives, from the journal's env lines: "apart N" when
# none of the N overlaps another, else "overlap N".
spans() {
	python3 - "$1" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1] + "/journal.jsonl")]
up, spans = {}, []
for e in lines:
    if e.get("type") != "env":
        continue
    if "error" in e:
        print("FAIL: %s" % e)
        sys.exit(1)
    if e["event"] == "up":
        up[e["env"]] = e["at_ms"]
    else:
        spans.append((up.pop(e["env"]), e["at_ms"] + e["ms"]))
spans.sort()
apart = all(b[0] >= a[1] for a, b in zip(spans, spans[1:]))
print("apart" if apart else "overlap", len(spans))
PY
}
# --clusters 1, and a functional test that fails its first run: its
# confirm run gets a fresh environment, a third life.
rc=0
FLAKY_ONCE=$CHECK_TMPDIR/once "$FLAKESWEEP" --keep 0 --cpu 1 --load 1 --count 2 --confirm 1 \
	--no-race --timeout 60s --tags functional --clusters 1 --ui none -o "$CHECK_TMPDIR/c1" \
	>"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ $rc = 1 ] || { cat "$CHECK_TMPDIR/stderr"; fail "--clusters 1: exit $rc, expected 1 (flaky)"; }
got=$(spans "$CHECK_TMPDIR/c1")
[ "$got" = "apart 3" ] || fail "--clusters 1: the environments were $got, expected apart 3"
n=$(grep -c '"type":"run".*"phase":"confirm"' "$CHECK_TMPDIR/c1/journal.jsonl" || true)
[ "$n" = 1 ] || fail "--clusters 1: $n confirm runs, expected 1"
rc=0
"$FLAKESWEEP" --keep 0 --cpu 1 --load 1 --count 2 --confirm 0 --no-race --timeout 60s \
	--tags functional --clusters 2 --ui none -o "$CHECK_TMPDIR/c2" \
	>"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ $rc = 0 ] || { cat "$CHECK_TMPDIR/stderr"; fail "--clusters 2: exit $rc"; }
got=$(spans "$CHECK_TMPDIR/c2")
[ "$got" = "overlap 2" ] || fail "--clusters 2: the environments were $got, expected overlap 2"

# Interrupted while an environment is up: it is taken down before the
# sweep exits 130, and none of its containers is left.
"$FLAKESWEEP" --keep 0 --cpu 1 --load 1 --count 500 --confirm 0 --no-race --timeout 60s \
	--tags functional --ui none -o "$CHECK_TMPDIR/int" >"$CHECK_TMPDIR/stdout" \
	2>"$CHECK_TMPDIR/stderr" &
pid=$!
for _ in $(seq 300); do
	grep -q '"type":"run"' "$CHECK_TMPDIR/int/journal.jsonl" 2>/dev/null && break
	sleep 0.2
done
kill -INT $pid
rc=0
wait $pid || rc=$?
[ $rc = 130 ] || { cat "$CHECK_TMPDIR/stderr"; fail "interrupted: exit $rc, expected 130"; }
left=$(docker ps -aq --filter label=io.x-k8s.kind.cluster)
[ -z "$left" ] || fail "interrupted: containers left: $left"
n=$(grep -c '"type":"env","event":"down"' "$CHECK_TMPDIR/int/journal.jsonl" || true)
[ "$n" = 2 ] || fail "interrupted: $n down lines, expected 2"

# An up that fails: exit 2, the reason with up's output, the packages failed
# as the journal rebuilds them.
rc=0
"$FLAKESWEEP" --keep 0 --cpu 1 --load 1 --count 2 --confirm 0 --no-race --timeout 60s \
	--tags unit,functional --env-up 'echo no cluster here >&2; exit 3' --ui none \
	-o "$CHECK_TMPDIR/noup" >"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ $rc = 2 ] || { cat "$CHECK_TMPDIR/stderr"; fail "a failed up: exit $rc, expected 2"; }
grep -q "environment flaky-wt1 (.*/wt1): up exited with status 3:" "$CHECK_TMPDIR/stderr" ||
	{ cat "$CHECK_TMPDIR/stderr"; fail "a failed up: the reason is not printed"; }
grep -q "no cluster here" "$CHECK_TMPDIR/stderr" || fail "a failed up: its output is not quoted"
pkgs() { python3 -c 'import json,sys; print(sorted((p["package"], p["kind"], p["build"]["ok"], p["runs"]) for p in json.load(open(sys.argv[1]))["packages"]))' "$1"; }
before=$(pkgs "$CHECK_TMPDIR/noup/results.json")
[ "$before" = "[('example.com/envs/tools', 'unit', True, 2), ('example.com/envs/unit', 'unit', True, 2), ('example.com/envs/wt1/functional', 'environment', False, 0), ('example.com/envs/wt2/functional', 'environment', False, 0)]" ] ||
	fail "a failed up: packages $before"
# The rebuilt report's status: 1, a package failed to build.
rc=0
"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/noup" >/dev/null || rc=$?
[ $rc = 1 ] || fail "a failed up: report --rebuild exit $rc, expected 1"
[ "$(pkgs "$CHECK_TMPDIR/noup/results.json")" = "$before" ] || fail "a failed up: the rebuilt results.json differs"

# The levels file's up comes before --env-up.
mkdir -p .flakesweep
printf '{"levels": {"functional": {"kind": "environment", "up": "echo up from the levels file >&2; exit 4"}}}\n' \
	>.flakesweep/levels.json
rc=0
"$FLAKESWEEP" --keep 0 --cpu 1 --load 1 --count 1 --confirm 0 --no-race --timeout 60s \
	--tags functional --env-up 'exit 3' --ui none -o "$CHECK_TMPDIR/lvup" \
	>"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
rm -r .flakesweep
[ $rc = 2 ] || { cat "$CHECK_TMPDIR/stderr"; fail "the levels file's up: exit $rc, expected 2"; }
grep -q "up exited with status 4:" "$CHECK_TMPDIR/stderr" && grep -q "up from the levels file" "$CHECK_TMPDIR/stderr" ||
	{ cat "$CHECK_TMPDIR/stderr"; fail "the levels file's up was not the one run"; }

# No engine: the environment level fails with the reason, the unit level is swept.
rc=0
DOCKER_HOST=unix://$d/gone.sock "$FLAKESWEEP" --keep 0 --cpu 1 --load 1 --count 2 --confirm 0 \
	--tags unit,functional --no-race --timeout 60s --ui none -o "$CHECK_TMPDIR/dead" \
	>"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ $rc = 2 ] || { cat "$CHECK_TMPDIR/stderr"; fail "no engine: exit $rc, expected 2"; }
grep -q "cannot reach Docker at $d/gone.sock: " "$CHECK_TMPDIR/stderr" ||
	{ cat "$CHECK_TMPDIR/stderr"; fail "no engine: the reason is not printed"; }
n=$(python3 -c 'import json,sys; print(sum(1 for l in open(sys.argv[1]) if (j := json.loads(l))["type"] == "run" and j.get("exit", 0) == 0))' "$CHECK_TMPDIR/dead/journal.jsonl")
[ "$n" = 4 ] || fail "no engine: $n unit runs passed, expected 4"
echo "ok: the environment's container on its lane; --clusters 1 apart, 2 overlapping; taken down on interrupt; a failed up and no engine give exit 2"
