#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# In a build tree, the canary runs use the program beside the binary
# (flakesweep(1), FILES: "pkglibdir/flakesweep-canary  The canary runs'
# program (see Canaries); in a build tree, beside the binary."). A TAP
# script project swept under strace -f -e trace=execve at --cpu 1 --load
# 1,2 --count 2 with the default canaries: every canary run is an execve
# of flakesweep-canary from the directory of $FLAKESWEEP, none of
# flakesweep's own canary subcommand; the harness is clean and the
# journal holds the canary lines (three kinds at each pair). LeakSanitizer,
# which cannot work under ptrace, is off.
set -eu
command -v strace >/dev/null || { echo "SKIP strace is not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP python3 is not installed"; exit 77; }
T=$CHECK_TMPDIR
strace -f -qq -e trace=none true 2>/dev/null || { echo "SKIP strace cannot trace here"; exit 77; }
bin=$(cd "$(dirname "$FLAKESWEEP")" && pwd -P)/$(basename "$FLAKESWEEP")
dir=${bin%/*}
[ -x "$dir/flakesweep-canary" ] || { echo "FAIL: no flakesweep-canary beside $bin"; exit 1; }
mkdir -p "$T/proj" && cd "$T/proj"
cat >t.sh <<'SH'
#!/bin/sh
echo 1..2
echo ok 1 - parse
echo ok 2 - render
SH
chmod +x t.sh
rc=0
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -s 256 -e trace=execve -o "$T/trace" \
	"$bin" --driver tap --cpu 1 --load 1,2 --count 2 --confirm 0 --ui none -o "$T/out" -- ./t.sh \
	>"$T/sweep.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$T/sweep.out"; echo "FAIL: the sweep exited $rc, expected 0"; exit 1; }
python3 - "$T" "$dir" <<'PY'
import json, os, re, sys
T, dir = sys.argv[1], sys.argv[2]
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
calls = [l for l in open(os.path.join(T, "trace")) if "execve(\"" in l and " = -1 " not in l]
prog = [l for l in calls if re.search(r'execve\("%s/flakesweep-canary", \[[^]]*"canary"' % re.escape(dir), l)]
own = [l for l in calls if re.search(r'execve\("[^"]*/flakesweep", \[[^]]*"canary"', l)]
j = [json.loads(l) for l in open(os.path.join(T, "out", "journal.jsonl"))]
can = [o for o in j if o["type"] == "canary"]
d = json.load(open(os.path.join(T, "out", "results.json")))
check(len(can) >= 6, "6 canary lines or more expected (3 a pair), got %d" % len(can))
check(sorted({(c["kind"], c["load"]) for c in can}) == [(k, l) for k in ("cores", "green", "red") for l in (1, 2)],
      "canary kinds: %s" % sorted({(c["kind"], c["load"]) for c in can}))
check(d["harness"]["clean"] is True, "harness not clean: %s" % d["harness"].get("reasons"))
check(not own, "a canary run used flakesweep's own canary subcommand: %s" % own[:2])
check(len(prog) == len(can), "%d canary lines, but %d execve of %s/flakesweep-canary; execve calls:\n%s"
      % (len(can), len(prog), dir, "".join(calls[:20])))
print("ok: %d canary runs, each an execve of %s/flakesweep-canary; harness clean" % (len(prog), dir))
PY
