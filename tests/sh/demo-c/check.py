# SPDX-License-Identifier: MIT
# Checks a sweep of data/demo-c against its EXPECTED.md (the column of the
# driver given) and writes each test's direct reproduce command to
# REPRO_DIR/TEST for the calling script to run.
# Usage: check.py gtest|ctest EXPECTED.md results.json REPRO_DIR
import json, os, re, sys

driver, expected_md, results, repro = sys.argv[1:]
col = {"gtest": 2, "ctest": 3}[driver]
bad = []


def check(cond, what):
    if not cond:
        bad.append(what)


rows = [l.split("|") for l in open(expected_md) if re.match(r"^\| (Demo|Order)\.", l)]
expected = {r[1].strip(): r[col].strip() for r in rows}
check(len(expected) == 7, "EXPECTED.md lists 7 tests, parsed %d" % len(expected))
d = json.load(open(results))
tests = {t["test"]: t for t in d["tests"]}
for name, verdict in expected.items():
    if verdict == "-":
        check(name not in tests, name + " is skipped")
        continue
    check(name in tests, name + " is listed")
    if name in tests:
        check(tests[name]["verdict"] == verdict,
              "%s: %s, expected %s" % (name, tests[name]["verdict"], verdict))
if bad:
    print("\n".join(bad))
    print(json.dumps({n: t["verdict"] for n, t in tests.items()}))
    sys.exit(1)


def total(name, key, cond=lambda c: True):
    return sum(c[key] for c in tests[name]["cells"] if cond(c))


check(total("Demo.AlwaysPasses", "runs") > 0, "passes has runs")
check(total("Demo.AlwaysPasses", "failures") + total("Demo.AlwaysPasses", "hangs") == 0,
      "passes never fails")
check(all(c["failures"] == c["runs"] > 0 for c in tests["Demo.CanaryRed"]["cells"]),
      "red canary every run")
check(all(c["failures"] == c["runs"] > 0 for c in tests["Demo.NeedsTwoCPUs"]["cells"]
          if c["cpu"] == 1), "cpu 1 fails every run")
check(total("Demo.NeedsTwoCPUs", "failures", lambda c: c["cpu"] == 2) == 0, "cpu 2 passes")
lines = "\n".join(tests["Demo.NeedsTwoCPUs"]["first_failure"]["lines"])
check("a pool of 0 from hardware_concurrency() = 1" in lines, "the shim's 1 in: " + lines)
check(total("Demo.Flaky", "failures") > 0, "flaky fails")
h = tests["Demo.SometimesHangs"]
check(total("Demo.SometimesHangs", "hangs") > 0, "hangs counted")
check(total("Demo.SometimesHangs", "failures") == 0, "hangs are not failures")
check(h["first_failure"]["reason"].startswith("still running when the run was stopped"),
      "the hang's reason: %s" % h["first_failure"].get("reason"))
rep = tests["Demo.NeedsTwoCPUs"]["reproduce"]["direct"]
check(re.search(r"LD_PRELOAD=\S*flakesweep-cpu\.so taskset|LD_PRELOAD=\S*flakesweep-cpu\.so timeout",
                rep) is not None, "the shim in " + rep)
check(re.search(r"taskset -c \d+ ", rep) is not None, "one-core taskset: " + rep)
if driver == "gtest":
    check("--gtest_filter=Demo.NeedsTwoCPUs" in rep, "filter in " + rep)
    o = tests["Order.QuietByDefault"]
    seed = o["first_failure"].get("seed")
    check(seed is not None, "the order failure keeps its seed")
    check("--gtest_random_seed=%s" % seed in o["reproduce"]["direct"],
          "seed in " + o["reproduce"]["direct"])
else:
    check("ctest -R '^Demo\\.NeedsTwoCPUs$'" in rep, "ctest -R in " + rep)
os.makedirs(repro, exist_ok=True)
for name, t in tests.items():
    if t["reproduce"] is None:
        continue
    with open(os.path.join(repro, name), "w") as f:
        f.write(t["reproduce"]["direct"] + "\n")
if bad:
    print("\n".join(bad))
    sys.exit(1)
