#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# The flakesweep binary copied alone into an empty directory (no
# flakesweep-canary beside it, none in pkglibdir) still checks itself:
# "where it is missing, flakesweep's own subcommand canary, which does the
# same" (flakesweep(1), Canaries). A tiny pytest project swept at --cpu 1
# --load 1,2 --count 2 with the default canaries: exit 0, the harness is
# clean, the journal holds canary lines of the three kinds at both pairs,
# none unexpected; under strace (when there is one; LeakSanitizer, which
# cannot work under ptrace, off) each canary run is an
# execve of the copied binary with the argument canary.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
T=$CHECK_TMPDIR
pkglib=$(strings "$FLAKESWEEP" 2>/dev/null | grep -m1 '/lib/flakesweep$' || echo /usr/local/lib/flakesweep)
[ ! -e "$pkglib/flakesweep-canary" ] || { echo "SKIP $pkglib/flakesweep-canary is installed"; exit 77; }
mkdir -p "$T/solo" "$T/proj/tests"
cp "$FLAKESWEEP" "$T/solo/flakesweep"
bin=$(cd "$T/solo" && pwd -P)/flakesweep
cd "$T/proj"
cat >tests/test_cart.py <<'PY'
def test_total():
    assert sum([2, 3]) == 5


def test_empty():
    assert sum([]) == 0
PY
trace=()
if command -v strace >/dev/null && strace -f -qq -e trace=none true 2>/dev/null; then
	trace=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -s 256 -e trace=execve -o "$T/trace")
fi
rc=0
FLAKESWEEP_PYTHON=$py "${trace[@]}" "$bin" --driver pytest --cpu 1 --load 1,2 --count 2 --confirm 0 \
	--ui none -o "$T/out" tests >"$T/sweep.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$T/sweep.out"; echo "FAIL: the sweep exited $rc, expected 0"; exit 1; }
python3 - "$T" "$bin" "${#trace[@]}" <<'PY'
import json, os, re, sys
T, bin, traced = sys.argv[1], sys.argv[2], sys.argv[3] != "0"
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
j = [json.loads(l) for l in open(os.path.join(T, "out", "journal.jsonl"))]
can = [o for o in j if o["type"] == "canary"]
d = json.load(open(os.path.join(T, "out", "results.json")))
check(d["harness"]["clean"] is True, "harness not clean: %s" % d["harness"].get("reasons"))
kinds = sorted({(c["kind"], c["load"]) for c in can})
check(kinds == [(k, l) for k in ("cores", "green", "red") for l in (1, 2)], "canary kinds: %s" % kinds)
check(not [c for c in can if c.get("unexpected")], "unexpected canaries: %s" % [c for c in can if c.get("unexpected")])
check(d["summary"]["runs"] == 4, "4 project runs expected, got %s" % d["summary"]["runs"])
how = "not traced"
if traced:
    calls = [l for l in open(os.path.join(T, "trace")) if "execve(\"" in l and " = -1 " not in l]
    own = [l for l in calls if re.search(r'execve\("%s", \[[^]]*"canary"' % re.escape(bin), l)]
    check(len(own) == len(can), "%d canary lines, %d execve of %s canary" % (len(can), len(own), bin))
    check(not [l for l in calls if "flakesweep-canary" in l], "a flakesweep-canary was run")
    how = "each an execve of the copied binary's canary subcommand"
print("ok: %d canary runs by the binary alone (%s); harness clean" % (len(can), how))
PY
