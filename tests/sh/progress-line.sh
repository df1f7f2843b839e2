#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# The last --ui line progress line counts the runs of every phase, and a
# command that cannot start stops the sweep at once: no run counted that
# did not run, no message after the last line (reliability #107).
set -eu
cd "$CHECK_TMPDIR"
cat >flaky.sh <<'SH'
#!/bin/sh
echo 1..1
if [ "$FLAKESWEEP_RUN" = 1 ]; then echo "not ok 1 - once"; else echo "ok 1 - once"; fi
SH
chmod +x flaky.sh
rc=0
"$FLAKESWEEP" --driver tap --cpu 1 --load 1,2 --count 3 --confirm 2 --timeout 10s --ui line \
	-o "$PWD/a" -- ./flaky.sh >out 2>err || rc=$?
[ "$rc" = 1 ] || { cat err; echo "exit status $rc, expected 1"; exit 1; }
# 6 sweep runs and 2 confirm runs at each of the 2 pairs; when the failed
# run overlapped another run of the package (the machine's timing decides),
# 2 more alone at each pair.
last=$(grep -v "^flakesweep: results in" err | tail -n 1)
case $last in
"[done] 10/10 runs (100%) | 1 flaky"* | "[done] 14/14 runs (100%) | 1 flaky"*) ;;
*) cat err; echo "FAIL: last line: $last"; exit 1 ;;
esac
rc=0
"$FLAKESWEEP" --driver tap --cpu 1 --load 1,2 --count 3 --confirm 1 --timeout 10s --ui line \
	-o "$PWD/b" -- ./missing.sh >out 2>err || rc=$?
[ "$rc" = 2 ] || { cat err; echo "exit status $rc, expected 2"; exit 1; }
[ "$(grep -c 'cannot start' err)" = 1 ] || { cat err; echo "FAIL: one cannot-start line"; exit 1; }
last=$(grep -v "^flakesweep: results in" err | tail -n 1)
case $last in
"[done] 0/6 runs (0%)"*) ;;
*) cat err; echo "FAIL: last line: $last"; exit 1 ;;
esac
# While packages build, no run is planned yet: the line counts packages
# built, not "0/0 runs" (a link that takes 6 s holds the build phase).
command -v go >/dev/null || exit 0
mkdir -p mod/p
printf 'module example.com/m\n\ngo 1.19\n' >mod/go.mod
printf 'package p\n\nimport "testing"\n\nfunc TestOK(t *testing.T) {}\n' >mod/p/p_test.go
printf '#!/bin/sh\ncase "$1" in */link) sleep 6 ;; esac\nexec "$@"\n' >slowlink.sh
chmod +x slowlink.sh
rc=0
(cd mod && GOFLAGS="-toolexec=$CHECK_TMPDIR/slowlink.sh" "$FLAKESWEEP" --cpu 1 --load 1 \
	--count 2 --confirm 0 --no-race --ui line -o "$CHECK_TMPDIR/c" ./... >../out 2>../err) || rc=$?
[ "$rc" = 0 ] || { cat err; echo "exit status $rc, expected 0"; exit 1; }
grep -q '^\[build\] 0/1 packages built | ' err || { cat err; echo "FAIL: no build line"; exit 1; }
! grep -q '^\[build\] .* runs (' err || { cat err; echo "FAIL: runs counted in the build"; exit 1; }
