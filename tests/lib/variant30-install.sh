# SPDX-License-Identifier: MIT
# Sourced by the variant30 install scripts. stage_install DIR runs
# make install DESTDIR=DIR from $CHECK_BUILDDIR (a SKIP where it cannot)
# and sets root (DIR followed by the configured prefix) and lib (the
# directory of flakesweep-cpu.so and flakesweep-canary, relative to root).
# wrap_canary ROOT FILE puts a script in place of ROOT's canary program
# that adds the path it was started as to FILE, then runs the real one.
stage_install() {
	local prefix shim
	[ -f "$CHECK_BUILDDIR/Makefile" ] || { echo "SKIP no Makefile in $CHECK_BUILDDIR"; exit 77; }
	make -s -C "$CHECK_BUILDDIR" install DESTDIR="$1" >"$1.log" 2>&1 ||
		{ cat "$1.log"; echo "SKIP make install DESTDIR= failed here"; exit 77; }
	prefix=$(sed -n 's/^prefix = //p' "$CHECK_BUILDDIR/Makefile")
	root=$1$prefix
	shim=$(cd "$root" && find . -path '*/flakesweep/flakesweep-cpu.so')
	[ -n "$shim" ] && [ -x "$root/bin/flakesweep" ] ||
		{ echo "SKIP the install has no bin/flakesweep or CPU shim below its prefix $prefix"; exit 77; }
	lib=$(dirname "${shim#./}")
	[ -x "$root/$lib/flakesweep-canary" ] || { echo "FAIL: no $lib/flakesweep-canary in the install"; exit 1; }
}

wrap_canary() {
	mv "$1/$lib/flakesweep-canary" "$1/$lib/flakesweep-canary.real"
	cat >"$1/$lib/flakesweep-canary" <<SH
#!/bin/sh
echo "\$0" >>"$2"
exec "\$0.real" "\$@"
SH
	chmod +x "$1/$lib/flakesweep-canary"
}

# sweep_ok RC OUT: a sweep that exited RC with its output in OUT failed a
# test (1) as it should; a harness spoilt only by a starved cores canary
# (a busy host) is a SKIP.
sweep_ok() {
	[ "$1" != 1 ] || return 0
	if [ "$1" = 2 ] && [ -f "$2/results.json" ] && python3 - "$2/results.json" <<'PY'; then
import json, re, sys
h = json.load(open(sys.argv[1])).get("harness") or {}
r = h.get("reasons") or []
starved = r"cores canary at cpu \d+ load \d+ \(canary run \d+\): got [0-9.]+ of \d+ core\(s\) at load \d+, less than [0-9.]+"
sys.exit(0 if r and all(re.fullmatch(starved, x) for x in r) else 1)
PY
		echo "SKIP a cores canary was starved: the host is too busy"
		exit 77
	fi
	echo "FAIL: exit $1, expected 1"
	exit 1
}
