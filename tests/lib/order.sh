# SPDX-License-Identifier: MIT
# Sourced by the polluter tests: the fixture tests/fixtures/$1 is copied
# to $CHECK_TMPDIR/$1, the current directory after; and sweep OUT
# OPTIONS... sweeps it with --shuffle at cpu 1, load 1 into
# $CHECK_TMPDIR/OUT (its output in OUT.txt) and fails unless the sweep
# exits 1, as when a test is flaky; and check OUT VICTIM NEEDLE
# POLLUTER... checks that the victim is order-dependent with exactly those
# polluters in results.json (the first also as polluter, found under the
# failing seed), each named by the order cause and in report.txt with a
# reproduce line that selects it alone with the victim and, run, prints
# NEEDLE.
work=$CHECK_TMPDIR/$1
cp -r "$CHECK_SRCDIR/tests/fixtures/$1" "$work"
chmod -R u+w "$work"
cd "$work"
sweep() { # OUT OPTIONS...
	local out=$1 rc=0
	shift
	"$FLAKESWEEP" --shuffle --cpu 1 --load 1 --count 16 --confirm 3 --timeout 30s --ui none \
		-o "$CHECK_TMPDIR/$out" "$@" >"$CHECK_TMPDIR/$out.txt" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/$out.txt"; echo "FAIL: $out: exit $rc, expected 1"; exit 1; }
}
check() { # OUT VICTIM NEEDLE POLLUTER...: NEEDLE in each reproduce line's output
	python3 - "$CHECK_TMPDIR/$1" "$2" "$3" "${@:4}" <<'PY'
import json, os, subprocess, sys
out, victim, needle = sys.argv[1:4]
want = sorted(sys.argv[4:])
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
res = json.load(open(os.path.join(out, "results.json")))
tests = {t["test"]: t for t in res["tests"]}
v = tests[victim]
check(v["verdict"] == "flaky" and v["order_dependent"], "%s flaky, order-dependent: %s" % (victim, v))
first = v.get("polluter") or {}
found = v.get("polluters") or []
check(sorted(p["test"] for p in found) == want, "every polluter named: %s" % found)
check(found[0]["test"] == first.get("test") and found[0]["seed"] == first.get("seed") and
      found[0]["reproduce"] == first.get("reproduce"), "the first is polluter: %s %s" % (first, found))
check(found[0]["seed"] == v["first_failure"]["seed"], "the first under the failing seed: %s" % found)
check(len(want) < 2 or first["search_runs"] > first["runs"], "the search's runs: %s" % first)
evidence = [c["evidence"] for c in v["causes"] if c["cause"] == "order"]
text = open(os.path.join(out, "report.txt")).read()
for p in found:
    name = p["test"]
    check(tests[name]["verdict"] == "passed", "%s passes" % name)
    check(evidence and name in evidence[0], "the order cause names %s: %s" % (name, evidence))
    check("%s fails after %s: under seed %s" % (victim, name, p["seed"]) in text and
          p["reproduce"] in text, "report.txt names %s and its reproduce line" % name)
    check(name.split("::")[-1] in p["reproduce"], "the reproduce line selects %s" % name)
    other = [q["test"].split("::")[-1] for q in found if q is not p]
    check(not [o for o in other if o in p["reproduce"]], "only %s: %s" % (name, p["reproduce"]))
    got = subprocess.run(["bash", "-c", p["reproduce"]], capture_output=True, text=True)
    check(needle in got.stdout + got.stderr, "the reproduce line fails the victim: %s\n%s" %
          (p["reproduce"], (got.stdout + got.stderr)[-2000:]))
    print("%s: %s under seed %s: %s" % (out, name, p["seed"], p["reproduce"]))
print("%s: %d runs to the first, %d in all" % (out, first["runs"], first["search_runs"]))
PY
}
