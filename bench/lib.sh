# SPDX-License-Identifier: MIT
# bench/lib.sh: what every benchmark here starts with, sourced from a
# build directory: $here (this folder), $fs (the build's flakesweep,
# refused when missing), $work (a scratch directory removed at exit; a
# script with more to clean sets its own EXIT trap after sourcing) and
# bench_faketap, which compiles bench/faketap.c to $work/faketap.
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$PWD}
fs=$build/flakesweep
[ -x "$fs" ] || { echo "run from the build directory (no ./flakesweep)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bench_faketap() {
	cc -O2 -o "$work/faketap" "$here/faketap.c"
}
