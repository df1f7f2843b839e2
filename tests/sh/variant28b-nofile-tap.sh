#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# "A run's limit of open files (RLIMIT_NOFILE) is the one flakesweep was
# started with. flakesweep raises its own to the hard limit"
# (flakesweep(1), Isolation). A TAP script project whose one test writes
# `ulimit -Sn` to a file per run outside the output directory, swept from
# a subshell whose soft limit is 512 (below the hard one) at --cpu 1
# --load 1,2 --count 3: every run saw 512, while flakesweep (the script's
# parent, read in /proc/PPID/limits) had raised its own to the hard limit.
set -eu
T=$CHECK_TMPDIR
hard=$(ulimit -Hn)
[ "$hard" = unlimited ] || [ "$hard" -gt 512 ] || { echo "SKIP the hard limit of open files is $hard"; exit 77; }
mkdir -p "$T/proj" "$T/rec" && cd "$T/proj"
cat >t.sh <<'SH'
#!/bin/sh
ulimit -Sn >"$V28B_REC/run-$FLAKESWEEP_RUN"
{ cat /proc/$PPID/comm; grep '^Max open files' /proc/$PPID/limits; } >"$V28B_REC/parent-$FLAKESWEEP_RUN"
echo 1..1
echo ok 1 - limits
SH
chmod +x t.sh
rc=0
(ulimit -Sn 512 && V28B_REC=$T/rec exec "$FLAKESWEEP" --driver tap --cpu 1 --load 1,2 --count 3 --confirm 0 \
	--ui none -o "$T/out" -- ./t.sh) >"$T/sweep.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$T/sweep.out"; echo "FAIL: the sweep exited $rc, expected 0"; exit 1; }
n=0
for f in "$T/rec"/run-*; do
	[ -e "$f" ] || break
	n=$((n + 1))
	[ "$(cat "$f")" = 512 ] || { echo "FAIL: ${f##*/} saw a soft limit of $(cat "$f"), expected 512"; exit 1; }
	p=$T/rec/parent-${f##*/run-}
	read -r comm <"$p"
	[ "$comm" = flakesweep ] || { echo "FAIL: ${f##*/}: the parent is $comm, not flakesweep"; exit 1; }
	set -- $(sed -n 2p "$p")
	[ "$4" = "$hard" ] || { echo "FAIL: flakesweep's own soft limit is $4, expected the hard limit $hard"; exit 1; }
done
[ "$n" = 6 ] || { echo "FAIL: $n runs recorded their limit, expected 6"; exit 1; }
echo "ok: all $n runs saw the soft limit of 512 flakesweep was started with; flakesweep's own is $hard"
