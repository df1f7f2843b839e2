#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# An install finds its own helpers (flakesweep(1), FILES): installed with
# make install DESTDIR=..., and then moved with its whole prefix, the
# binary runs the CPU shim and the canary program of its own prefix's
# library directory, never those of another install on the machine (the
# configured prefix may hold an older flakesweep). A TAP script that
# prints its LD_PRELOAD fails once; its first failure names the shim, and
# every canary run of the sweep (strace -e execve) executes the
# flakesweep-canary of the same prefix.
set -eu
command -v strace >/dev/null || { echo "SKIP strace is not installed"; exit 77; }
strace -f -qq -e trace=none true 2>/dev/null || { echo "SKIP strace cannot trace here"; exit 77; }
T=$CHECK_TMPDIR
inst=$T/inst
make -s -C "$CHECK_BUILDDIR" install DESTDIR="$inst" >"$T/install.log" 2>&1 ||
	{ cat "$T/install.log"; echo "make install failed"; exit 1; }
prefix=$(sed -n 's/^prefix = //p' "$CHECK_BUILDDIR/Makefile")
pkglib=$(sed -n 's/^pkglibdir = //p' "$CHECK_BUILDDIR/Makefile")
pkglib=${pkglib/\$(libdir)/$(sed -n 's/^libdir = //p' "$CHECK_BUILDDIR/Makefile")}
pkglib=${pkglib/\$\{exec_prefix\}/$prefix}
pkglib=${pkglib/\$(PACKAGE)/flakesweep}
case $pkglib in "$prefix"/*) ;; *) echo "SKIP pkglibdir $pkglib is not below $prefix"; exit 77 ;; esac
mkdir -p "$T/proj" && cd "$T/proj"
cat >t.sh <<'SH'
#!/bin/sh
echo 1..1
if [ "$FLAKESWEEP_RUN" = 1 ]; then
	echo "not ok 1 - preload"
	echo "# LD_PRELOAD=$LD_PRELOAD"
else
	echo "ok 1 - preload"
fi
SH
chmod +x t.sh

# check ROOT: the binary under ROOT (a prefix laid out as installed) uses
# ROOT's shim and canary program.
check() {
	local root=$1 out=$T/out-${1##*/} rc=0 lib
	lib=$root${pkglib#"$prefix"}
	[ -f "$lib/flakesweep-cpu.so" ] && [ -x "$lib/flakesweep-canary" ] ||
		{ echo "FAIL: no shim or canary program in $lib"; ls -l "$lib"; exit 1; }
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -s 512 -e trace=execve -o "$T/trace" \
		"$root/bin/flakesweep" --driver tap --cpu 1 --load 1 --count 3 --confirm 0 \
		--ui none -o "$out" -- ./t.sh >"$T/stdout" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { echo "FAIL: exit status $rc"; cat "$T/stdout"; exit 1; }
	python3 - "$out/results.json" "$lib/flakesweep-cpu.so" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))
lines = [l for t in res["tests"] if t["first_failure"] for l in t["first_failure"]["lines"]]
want = "LD_PRELOAD=" + sys.argv[2]
if not any(want in l for l in lines):
    sys.exit("FAIL: the run's preload is not %s: %s" % (sys.argv[2], lines))
PY
	grep -F 'execve(' "$T/trace" | grep -F 'flakesweep-canary' >"$T/canaries" || true
	[ -s "$T/canaries" ] || { echo "FAIL: no canary run executed flakesweep-canary"; exit 1; }
	if grep -vF "execve(\"$lib/flakesweep-canary\"" "$T/canaries"; then
		echo "FAIL: canary runs of another program than $lib/flakesweep-canary"
		exit 1
	fi
}

check "$inst$prefix"
# The whole prefix moved elsewhere.
mkdir -p "$T/moved"
mv "$inst$prefix" "$T/moved/p"
check "$T/moved/p"
echo "ok: the install and the moved install run their own helpers"
