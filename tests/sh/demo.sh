#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 900
# The demo sweep end to end: every verdict in data/demo/EXPECTED.md, and the
# order-dependent test found only with --shuffle, seed kept; the failing
# line first, core concentration and cascades in the report and, with tmux,
# in the dashboard's details.
# 15 runs a pair, not 10: the cascade is shown only when its root failed
# often enough for the stratified test (p < 0.01), and TestMain's failures
# (1 run in 25) must show; at 10, the binomial puts too few of either at
# about 1 sweep in 100, and one CI run met it.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
demo=$CHECK_TMPDIR/demo
cp -r "$CHECK_SRCDIR/data/demo" "$demo"
cd "$demo"
rc=0
"$FLAKESWEEP" --cpu 1,2 --load 1,2 --count 15 --confirm 10 --timeout 3s --kill-grace 1s \
	--ui none -o "$CHECK_TMPDIR/out" ./... >"$CHECK_TMPDIR/report" 2>"$CHECK_TMPDIR/stderr" || rc=$?
cat "$CHECK_TMPDIR/stderr"
[ "$rc" = 1 ] || { echo "exit status $rc, expected 1"; exit 1; }
rc=0
"$FLAKESWEEP" --cpu 1,2 --load 1,2 --count 12 --timeout 3s --shuffle --run TestOrder \
	--ui none -o "$CHECK_TMPDIR/shuffled" ./... >/dev/null 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/stderr"; echo "shuffled: exit status $rc, expected 1"; exit 1; }
python3 - "$CHECK_SRCDIR/data/demo/EXPECTED.md" "$CHECK_TMPDIR/out" "$CHECK_TMPDIR/shuffled" <<'PY'
import json, os, re, sys
expected_md, out, shuffled = sys.argv[1:]
bad = []
def check(cond, what):
    if not cond:
        bad.append(what)
rows = [l.split("|")[1:3] for l in open(expected_md) if re.match(r"^\| Test", l)]
expected = {name.strip(): verdict.strip() for name, verdict in rows}
check(len(expected) == 12, "EXPECTED.md lists 12 tests, parsed %d" % len(expected))
d = json.load(open(os.path.join(out, "results.json")))
tests = {t["test"]: t for t in d["tests"]}
for name, verdict in expected.items():
    check(name in tests, name + " is listed")
    if name in tests:
        check(tests[name]["verdict"] == verdict,
              "%s: %s, expected %s" % (name, tests[name]["verdict"], verdict))
def cells(name):
    return [c for c in tests[name]["cells"]]
def total(name, key, cond=lambda c: True):
    return sum(c[key] for c in cells(name) if cond(c))
check(total("TestAlwaysPasses", "runs") > 0 and total("TestAlwaysPasses", "failures") == 0, "passes")
check(all(c["failures"] == c["runs"] > 0 for c in cells("TestCanaryRed")), "red canary every run")
check(total("TestCanaryGreen", "failures") + total("TestCanaryGreen", "hangs") == 0, "green canary")
check(all(c["failures"] == c["runs"] for c in cells("TestNeedsTwoCPUs") if c["cpu"] == 1), "cpu 1 fails")
check(total("TestNeedsTwoCPUs", "failures", lambda c: c["cpu"] == 2) == 0, "cpu 2 passes")
# It fails every cpu-1 run and runs overlap more at some pairs: within a
# pair that is no interference.
ntc = tests["TestNeedsTwoCPUs"]
check(ntc.get("interference", {}).get("p", 1) >= 0.01, "no interference: %s" % ntc.get("interference"))
check("interference" not in [c["cause"] for c in ntc.get("causes") or []],
      "no interference cause: %s" % ntc.get("causes"))
rep = tests["TestNeedsTwoCPUs"]["reproduce"]["direct"]
check(re.search(r"taskset -c \d+ ", rep) is not None, "one-core taskset: " + rep)
check("-test.cpu 1" in rep, "cpu 1 in " + rep)
h = tests["TestSometimesHangs"]
check(total("TestSometimesHangs", "hangs") > 0, "hangs counted")
check(total("TestSometimesHangs", "failures") == 0, "hangs are not failures")
check(h["first_failure"]["lines"][0].startswith("panic: test timed out"), "hang's first line")
check(any("TestSometimesHangs" in l for l in h["first_failure"]["lines"]), "hang's stack")
ls = tests["TestLoadSensitive"]
# Its rate is highest at load 2 on a quiet machine; any other load on the
# machine raises it at load 1 too, so only the load-2 failures are required.
check(total("TestLoadSensitive", "failures", lambda c: c["load"] == 2) > 0, "fails at load 2")
pkg = d["packages"][0]
check(pkg["failures_outside_tests"] > 0, "TestMain failures outside tests")
check(d["summary"]["flaky"] == 5 and d["summary"]["failing"] == 2, "summary %s" % d["summary"])
# The chatty test's assertion leads its first failure, the log after it.
cl = tests["TestChattyChecksum"]["first_failure"]["lines"]
check(any("checksum mismatch" in l for l in cl[:5]), "assertion first: %s" % cl[:5])
check("[... the output in order ...]" in cl, "the output in order follows")
# The core-sensitive test: its failures concentrate on one core, and the
# direct reproduce line pins that core.
pc = tests["TestPinnedCore"]
cc = pc["core_concentration"]
check(cc is not None and cc["cpu"] == 1 and cc["failures"] == cc["runs"] > 0
      and cc["other_failures"] == 0 and cc["p"] < 0.005, "core concentration %s" % cc)
if cc is not None:
    check(re.search(r"taskset -c %d " % cc["core"], pc["reproduce"]["direct"]) is not None,
          "pinned to core %d: %s" % (cc["core"], pc["reproduce"]["direct"]))
# Runs alone take the lane's first core: failures on one core are no
# interference.
check("interference" not in [c["cause"] for c in pc.get("causes") or []],
      "no interference cause for the pinned core: %s" % pc.get("causes"))
# Its runs on that core come in streaks (a lane's first free core), so its
# failures cluster in time; the core explains them: no episode.
check("episode" not in [c["cause"] for c in pc.get("causes") or []],
      "no episode cause for the pinned core: %s" % pc.get("causes"))
check(all("cores" in t for t in d["tests"]), "per-core counts for every test")
# The cascade is reported under the test that started it.
check(tests["TestServerEcho"]["cascade_of"] == "TestServerRestart", "cascade_of")
check(tests["TestServerRestart"]["cascades"] == ["TestServerEcho"], "cascades")
report = open(os.path.join(out, "..", "report")).read()
check("cascade: TestServerEcho failed" in report, "cascade in the text report")
check("failures concentrate on core" in report, "core concentration in the text report")
chatty = report.split("TestChattyChecksum  [")[-1].split("\n\n")[0]
check(0 <= chatty.find("checksum mismatch") < chatty.find("[... the output in order ..."),
      "the assertion first in the text report")
j = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl"))]
check(all(len(l.get("cores", [])) == l["cpu"] for l in j if l.get("type") == "run"),
      "every run line has its cores")
s = json.load(open(os.path.join(shuffled, "results.json")))
st = {t["test"]: t for t in s["tests"]}
q = st.get("TestOrderQuietByDefault")
check(q is not None and q["verdict"] == "flaky", "order-dependent test flaky with --shuffle")
if q is not None and q["first_failure"]:
    seed = q["first_failure"]["seed"]
    check(seed is not None and seed.isdigit(), "seed kept")
    check(("-test.shuffle %s" % seed) in q["reproduce"]["direct"], "seed in the reproduce line")
check(st["TestOrderSetsVerbose"]["verdict"] == "passed", "the polluter passes")
check("TestAlwaysPasses" not in st, "--run ran only TestOrder tests")
if bad:
    print("FAIL:\n  " + "\n  ".join(bad)); sys.exit(1)
print("ok: every verdict of EXPECTED.md")
PY
# The same on the dashboard: `view` of the sweep shows the details of the
# core-sensitive test, both ends of the cascade and the chatty test (its
# assertion before the output in order).
if command -v tmux >/dev/null 2>&1; then
	sock="fs-demo-$$"
	tm() { tmux -L "$sock" -f /dev/null "$@"; }
	trap 'tm kill-server >/dev/null 2>&1 || true' EXIT
	# details TEST TEXT...: TEST's details show every TEXT.
	details() {
		local test=$1 text i screen=
		shift
		tm new-session -d -s "$test" -x 200 -y 60 \
			"LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC $FLAKESWEEP view $CHECK_TMPDIR/out; sleep 60"
		tm set-option -t "$test" status off >/dev/null
		for i in $(seq 100); do
			tm capture-pane -p -t "$test" | grep -qF "view: complete" && break
			sleep 0.1
		done
		tm send-keys -t "$test" / "$test" Enter Enter
		for text in "$@"; do
			for i in $(seq 100); do
				screen=$(tm capture-pane -p -t "$test")
				grep -qF -- "$text" <<<"$screen" && continue 2
				sleep 0.1
			done
			echo "FAIL: the details of $test do not show \"$text\":" >&2
			echo "$screen" >&2
			exit 1
		done
		echo "$screen"
	}
	details TestPinnedCore "failures concentrate on core" >/dev/null
	details TestServerRestart "cascade: TestServerEcho fails only after this test failed" >/dev/null
	details TestServerEcho "cascade of TestServerRestart: fails only after it failed" >/dev/null
	details TestChattyChecksum "checksum mismatch" "[... the output in order ...]" |
		awk '/checksum mismatch/ { m = NR } /the output in order/ { o = NR }
			END { if (!(m && o && m < o)) { print "FAIL: the assertion is not first"; exit 1 } }'
	echo "ok: core concentration, cascade and the failing line first on the dashboard"
fi
