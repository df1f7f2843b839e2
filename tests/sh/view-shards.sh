#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# `flakesweep view s1 s2` over two headless shard sweeps of
# tests/fixtures/shards, black-box in a private tmux server: shard 2 not
# started yet is waited for; both live (each held paused from its own
# view) show under a line per host with their own lanes; P in the view of
# both is refused; resumed, both finish and the view's counts are those
# of `flakesweep merge`'s results.json; c then names the shard's own
# view. Two directories of different configurations are refused, naming
# both and the field, and so are a shard given twice and a merge given
# with one of its shards.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
. "$CHECK_SRCDIR/tests/lib/tmux.sh"
T="$CHECK_TMPDIR"
WAIT_SECONDS=20
pids=
cleanup() {
	tmux_cleanup
	for p in $pids; do kill -9 "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
cp -r "$CHECK_SRCDIR/tests/fixtures/shards" "$T/proj"
# A slow test in every package, so the sweeps are caught while they run.
for d in "$T"/proj/*/; do
	printf 'package %s\n\nimport (\n\t"testing"\n\t"time"\n)\n\nfunc TestSlow(t *testing.T) { time.Sleep(150 * time.Millisecond) }\n' \
		"$(basename "$d")" >"$d/slow_test.go"
done
cd "$T"
# sweep I: shard I/2, headless, in the background.
sweep() {
	(cd proj && setsid "$FLAKESWEEP" --cpu 1,2 --load 1 --count 8 --confirm 2 --no-race \
		--keep 0 --ui none --shard "$1/2" -o "$T/s$1" ./... >"$T/s$1.out" 2>&1 </dev/null) &
	pids="$pids $!"
}
# hold I: a view of shard I alone pauses its sweep as soon as it serves.
hold() {
	local i
	for i in $(seq 600); do
		[ -S "s$1/control.sock" ] && grep -q '"type":"run"' "s$1/journal.jsonl" && break
		sleep 0.1
	done
	[ -S "s$1/control.sock" ] || { cat "s$1.out"; fail "shard $1 serves no control socket"; }
	start "p$1" 120 40 "$FLAKESWEEP view s$1"
	wait_for "p$1" ", live"
	tm send-keys -t "p$1" P
	wait_for "p$1" "(paused), live"
}

sweep 1
hold 1
# s2 exists, empty: a directory named that does not exist is refused.
mkdir s2
start v 120 40 "$FLAKESWEEP view s1 s2"
wait_for v "view: 2 shards: 1 live 1 waiting"
wait_for v " s2: waiting for its journal"
sweep 2
hold 2
wait_for v "view: 2 shards: 2 live"
host=$(hostname)
wait_for v " $host shard 1/2 (s1): live, paused, 1 lane x 2"
wait_for v " $host shard 2/2 (s2): live, paused, 1 lane x 2"
# Each host's lanes under its line, numbered from L0 by its own sweep.
screen v | awk '/shard 1\/2/ { s = 1; next } /shard 2\/2/ { s = 2; next }
	/^   L0 / { n[s]++ } END { exit !(n[1] == 1 && n[2] == 1) }' ||
	{ screen v; fail "not one L0 under each host"; }
tm send-keys -t v P
wait_for v "2 sweeps are live in this view: pause or stop one in flakesweep view DIR"
for i in 1 2; do
	tm send-keys -t "p$i" P
	tm send-keys -t "p$i" q
done
wait_for v "view: 2 shards: 2 finished" 120
for p in $pids; do wait "$p" || [ $? = 1 ] || fail "a shard sweep failed"; done
pids=
"$FLAKESWEEP" merge -o m s1 s2 >m.out 2>&1 || [ $? = 1 ] || { cat m.out; fail "merge failed"; }
screen v >v.txt
python3 - m/results.json v.txt <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
screen = open(sys.argv[2]).read()
def check(cond, what):
    if not cond:
        print("FAIL:", what); print(screen); sys.exit(1)
s = r["summary"]
check("%d/%d runs" % (s["runs"], s["runs"]) in screen, "header runs %d" % s["runs"])
check("%d flaky %d failing tests" % (s["flaky"], s["failing"]) in screen, "header verdicts")
listed = 0
for t in r["tests"]:
    runs = sum(c["runs"] for c in t["cells"])
    bad = sum(c["failures"] + c["hangs"] for c in t["cells"])
    if bad == 0:
        continue
    name = t["id"].split("::")[1]
    # The list may cut a long name short.
    check(re.search(r"%s\S* +%d/%d " % (re.escape(name[:12]), bad, runs), screen),
          "%s %d/%d" % (name, bad, runs))
    listed += 1
check(listed == 3, "3 failed tests, got %d" % listed)
PY
# c on a test of a shard that is over: refused, naming its own view.
tm send-keys -t v c
wait_for v "runs at each of"
tm send-keys -t v Enter
wait_for v "is not live here: confirm it in flakesweep view s"
tm send-keys -t v q
wait_for v "EXIT:0"

# Another configuration: refused before any screen, both directories named.
mkdir other
sed '1s/"count":8,/"count":9,/' s2/journal.jsonl >other/journal.jsonl
rc=0
"$FLAKESWEEP" view s1 other 2>err.txt || rc=$?
[ "$rc" = 2 ] || fail "view of another configuration: exit $rc"
grep -q "s1 and other differ in config.count" err.txt || { cat err.txt; fail "refusal"; }
# A shard twice, or inside a merge given with it.
for args in "s1 s1:shard 1/2 is in both s1 and s1" "m s2:shard 2/2 is in both m and s2"; do
	rc=0
	"$FLAKESWEEP" view ${args%%:*} 2>err.txt || rc=$?
	[ "$rc" = 2 ] && grep -qF "${args#*:}" err.txt || { cat err.txt; fail "view ${args%%:*}: exit $rc"; }
done
echo ok
