#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# The CPU shim: in a TAP run at cpu c, sysconf (getconf) and Python's
# os.cpu_count() and multiprocessing.cpu_count() answer c; LD_PRELOAD keeps
# what it held, the shim after it (both named in the test name); a program
# built with AddressSanitizer still starts; --no-cpu-shim gives the machine's count.
set -eu
[ -x "$(dirname "$FLAKESWEEP")/flakesweep-cpu.so" ] || { echo "no flakesweep-cpu.so beside $FLAKESWEEP"; exit 1; }
cores=$(getconf _NPROCESSORS_ONLN)
conf=$(getconf _NPROCESSORS_CONF)
cpus=1
[ "$cores" -ge 2 ] && cpus=1,2
cat >"$CHECK_TMPDIR/t.sh" <<'T'
#!/bin/sh
echo 1..1
py=$(python3 -c 'import os, multiprocessing; print(os.cpu_count(), multiprocessing.cpu_count())')
echo "ok 1 - getconf $(getconf _NPROCESSORS_ONLN) $(getconf _NPROCESSORS_CONF) python $py preload ${LD_PRELOAD%%:*} ${LD_PRELOAD##*/}"
T
chmod +x "$CHECK_TMPDIR/t.sh"
cd "$CHECK_TMPDIR"
# flakesweep itself may be built with AddressSanitizer, which refuses a
# preloaded library ahead of its runtime unless told.
LD_PRELOAD=libm.so.6 ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	"$FLAKESWEEP" --driver tap --cpu "$cpus" --load 1 --count 2 --confirm 0 \
	--keep 0 --ui none -o out -- ./t.sh >/dev/null
"$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 1 --confirm 0 --keep 0 --no-cpu-shim \
	--ui none -o off -- ./t.sh >/dev/null
python3 - "$cpus" "$cores" "$conf" <<'PY'
import json, sys
cpus, cores, conf = sys.argv[1:]
got = sorted(t["test"] for t in json.load(open("out/results.json"))["tests"])
want = sorted("getconf %s %s python %s %s preload libm.so.6 flakesweep-cpu.so" % (c, c, c, c)
              for c in cpus.split(","))
assert got == want, "got %s, expected %s" % (got, want)
got = [t["test"] for t in json.load(open("off/results.json"))["tests"]]
want = ["getconf %s %s python %s %s preload" % (cores, conf, cores, cores)]
assert got == want, "--no-cpu-shim: got %s, expected %s" % (got, want)
PY
# A program built with AddressSanitizer starts under the shim and sees 1.
if printf '#include <stdio.h>\n#include <unistd.h>\nint main(void){printf("%%ld\\n", sysconf(_SC_NPROCESSORS_ONLN));return 0;}\n' >a.c &&
	cc -fsanitize=address -o a a.c 2>/dev/null; then
	printf '#!/bin/sh\necho 1..1\necho "ok 1 - asan $(./a 2>&1 | head -c 60)"\n' >asan.sh
	chmod +x asan.sh
	"$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 1 --confirm 0 --keep 0 --ui none \
		-o asan -- ./asan.sh >/dev/null
	grep -q '"test":[[:space:]]*"asan 1"' asan/results.json ||
		{ grep '"test"' asan/results.json; echo "the ASan program did not see 1"; exit 1; }
fi
echo "cpu shim answers the run's CPU count"
