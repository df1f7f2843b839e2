#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# A sweep of tests/fixtures/gomod, whose failures depend only on the run id,
# gives exact counts: every pair runs --count times, confirm runs every
# failed test --confirm times at every pair, and results.json says so. It
# runs once with each Go installed: 1.19 (plain -test.v output) and 1.23
# (-test.v=test2json framing).
set -eu
gos=""
for g in /usr/lib/go-1.19/bin/go /usr/lib/go-1.23/bin/go; do [ -x "$g" ] && gos="$gos $g"; done
[ -n "$gos" ] || { echo "SKIP no Go in /usr/lib/go-1.*"; exit 77; }
for go in $gos; do
export PATH=$(dirname "$go"):$PATH
want=$(go env GOVERSION)
echo "== $want"
work=$CHECK_TMPDIR/gomod-$want
cp -r "$CHECK_SRCDIR/tests/fixtures/gomod" "$work"
cd "$work"
# The project's quarantine file marks tests in the results; they still run.
mkdir -p .flakesweep
cat >.flakesweep/quarantine.json <<'JSON'
[
  {"test": "example.com/fixture::TestEveryFifth", "channel": "any", "reason": "flaky",
   "owner": "alice", "issue": "#1", "expires": "2099-01-01"},
  {"test": "example.com/fixture::TestPass", "channel": "cpu=1", "reason": "was flaky",
   "owner": "bob", "issue": "#2", "expires": "2099-01-01"}
]
JSON
out=$CHECK_TMPDIR/out-$want
rc=0
"$FLAKESWEEP" --cpu 1 --load 1,2 --count 5 --confirm 5 --no-race --timeout 30s --ui none \
	-o "$out" ./... >"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
cat "$CHECK_TMPDIR/stderr"
[ "$rc" = 1 ] || { echo "exit status $rc, expected 1 (a test failed)"; exit 1; }
grep -q '^flakesweep report (complete)$' "$CHECK_TMPDIR/stdout"
python3 - "$out" "$want" <<'PY'
import json, os, sys
out, want = sys.argv[1:]
d = json.load(open(os.path.join(out, "results.json")))
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
check(d["schema"] == "flakesweep/results/v1", "schema")
check(d["status"] == "complete", "status complete")
check(d["finished"] is not None, "finished set")
check(d["config"]["cpu"] == [1] and d["config"]["load"] == [1, 2], "config pairs")
check(d["config"]["levels"] == ["unit"], "levels")
check(d["machine"]["cores"] >= 1 and len(d["machine"]["lanes"]) >= 1, "machine")
check(d["project"]["driver"] == "go" and d["project"]["toolchain"] == want, "project toolchain")
check(d["packages"][0]["toolchain"] == want, "binary built by " + want)
# 2 pairs x 5 sweep runs, then 3 failed tests x 2 pairs x 5 confirm runs;
# then, for a failed test whose failures came in runs that overlapped
# another run of the package (whether they did is the machine's timing),
# 5 runs alone at each pair.
journal = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl"))]
alone = sum(1 for l in journal if l["type"] == "run" and l.get("phase") == "alone")
check(alone % 10 == 0 and alone <= 30, "alone runs come 5 a pair: %d" % alone)
check(d["summary"]["runs"] == 40 + alone, "%d runs, got %d" % (40 + alone, d["summary"]["runs"]))
check(d["packages"][0]["runs"] == 40 + alone and d["packages"][0]["build"]["ok"], "package runs")
tests = {t["test"]: t for t in d["tests"]}
check(sorted(tests) == ["TestEveryFifth", "TestPass", "TestSlow", "TestSub", "TestSub/a",
                        "TestSub/b", "TestTmpdirIsPrivate"], "tests listed: %s" % sorted(tests))
def cells(name, phase):
    return {(c["cpu"], c["load"]): c for c in tests[name]["cells"] if c["phase"] == phase}
for load in (1, 2):
    check(cells("TestPass", "sweep")[(1, load)]["runs"] == 5, "TestPass 5 runs at load %d" % load)
# Runs 1..10 are the sweep: 5 and 10 fail TestEveryFifth, 7 fails TestSub/b.
check(sum(c["failures"] for c in cells("TestEveryFifth", "sweep").values()) == 2, "fifth: 2")
check(sum(c["failures"] for c in cells("TestSub/b", "sweep").values()) == 1, "sub/b: 1")
check(sum(c["failures"] for c in cells("TestSub", "sweep").values()) == 1, "parent: 1")
# Confirm runs the failed TestEveryFifth, TestSub/b and TestSub alone, 5
# times per pair; TestSub's runs run its subtests too, and count for them.
for name, n in (("TestEveryFifth", 5), ("TestSub", 10), ("TestSub/b", 10), ("TestSub/a", 5)):
    cc = cells(name, "confirm")
    check(sorted(cc) == [(1, 1), (1, 2)], name + " confirmed at both pairs")
    check(all(c["runs"] == n for c in cc.values()), "%s: %d confirm runs per pair" % (name, n))
check("confirm" not in [c["phase"] for c in tests["TestPass"]["cells"]], "TestPass not confirmed")
for name in tests:
    ac = cells(name, "alone")
    check(not ac or (sorted(ac) == [(1, 1), (1, 2)] and
                     len({c["runs"] for c in ac.values()}) == 1), name + " alone alike at both pairs")
for name, verdict in [("TestPass", "passed"), ("TestSlow", "passed"), ("TestSub/a", "passed"),
                      ("TestTmpdirIsPrivate", "passed"), ("TestEveryFifth", "flaky"),
                      ("TestSub/b", "flaky"), ("TestSub", "flaky")]:
    check(tests[name]["verdict"] == verdict, "%s is %s, expected %s" % (name, tests[name]["verdict"], verdict))
f = tests["TestEveryFifth"]["first_failure"]
check(f["phase"] == "sweep" and f["run"] == 5, "first failure is run 5")
check(any("run 5 is a multiple of 5" in l for l in f["lines"]), "first failure lines")
check(os.path.exists(os.path.join(out, f["log"])), "log kept")
rep = tests["TestEveryFifth"]["reproduce"]
# Every reproduce line sets the zone and locale the runs had (flakesweep(1), Isolation).
check(rep["direct"].startswith("export TZ=UTC LC_ALL=C && cd ") and "taskset -c " in rep["direct"],
      "direct reproduce")
check("-test.run '^TestEveryFifth$'" in rep["direct"], "direct pattern: " + rep["direct"])
check("flakesweep stress" in rep["flakesweep"], "flakesweep reproduce")
check(tests["TestPass"]["reproduce"] is None, "no reproduce for a passed test")
# Quarantine: marked, still swept, judged on these results.
q = tests["TestEveryFifth"]
check(q["quarantined"] and q["quarantine"][0]["status"] == "active", "quarantine active")
check(q["quarantine"][0]["owner"] == "alice" and q["quarantine"][0]["expires_in_s"] > 0, "entry")
p = tests["TestPass"]
check(p["quarantined"] and p["quarantine"][0]["status"] == "unproven", "10 clean runs < 100")
check(sum(c["runs"] for c in p["cells"]) == 10, "a quarantined test still runs")
check(not tests["TestSlow"]["quarantined"] and "quarantine" not in tests["TestSlow"], "unmarked")
check(d["config"]["quarantine"].endswith(".flakesweep/quarantine.json"), "config names the file")
# Kept output and private TMPDIRs: only for runs that failed.
runs = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl")) if '"type":"run"' in l]
check(len(runs) == 40 + alone, "%d run lines" % (40 + alone))
failed = {r["run"] for r in runs if r.get("fail") or r.get("hang")}
check(set(int(x) for x in os.listdir(os.path.join(out, "tmp"))) == failed, "tmp dirs of failed runs only")
check(set(int(x[:-4]) for x in os.listdir(os.path.join(out, "runs"))) == failed, "logs of failed runs only")
check(all(r["ms"] >= 0 and r.get("exit", 0) in (0, 1) for r in runs), "exit codes")
# Canaries: 5 runs a pair at the default 1% is under the floor of 3 a pair,
# one of each kind at each pair; none is a run or a test of the project's.
h = d["harness"]
check(h["clean"] is True and h["reasons"] == [] and h["budget"] == 1, "harness clean")
got = sorted((c["kind"], c["cpu"], c["load"], c["runs"], c["unexpected"]) for c in h["canaries"])
check(got == [(k, 1, l, 1, 0) for k in ("cores", "green", "red") for l in (1, 2)],
      "one canary of each kind at each pair: %s" % got)
lines = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl"))]
kinds = [l["type"] for l in lines if l["type"] in ("run", "canary")]
check(kinds.count("canary") == 6, "6 canary lines")
# Interleaved with the sweep's runs, not all at the start.
check(kinds.index("canary") > 0 and "run" in kinds[kinds.index("canary"):], "interleaved: %s" % kinds)
print("ok: 40 runs, exact counts, 6 canaries")
PY
done
