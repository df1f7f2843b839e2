#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# The output directory is new or an earlier sweep's: an empty -o, or an
# existing directory holding anything but a sweep, is refused with exit 2
# before anything is written. Runs' TMPDIRs live inside it, and removing a
# passing run's TMPDIR never follows a symbolic link out of it.
set -eu
cd "$CHECK_TMPDIR"
cp "$CHECK_SRCDIR/tests/fixtures/tap/envprint.sh" .
fs() { "$FLAKESWEEP" --cpu 1 --load 1 --count 2 --confirm 0 --timeout 10s --ui none "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

# -o '' is refused: nothing is written, here or at /.
mkdir empty-cwd && cd empty-cwd
rc=0; fs -o '' --driver tap -- ../envprint.sh >out 2>err || rc=$?
[ "$rc" = 2 ] || fail "-o '' exit $rc, expected 2"
grep -q -- '-o' err || fail "-o '' error does not name -o: $(cat err)"
[ "$(ls | tr '\n' ' ')" = "err out " ] || fail "-o '' wrote $(ls)"
cd ..

# An existing directory that is not a sweep's: refused, untouched.
mkdir -p victim/tmp/1/sub && echo precious >victim/tmp/1/sub/precious.txt
echo mine >victim/report.txt
rc=0; fs -o victim --driver tap -- ./envprint.sh >out 2>err || rc=$?
[ "$rc" = 2 ] || fail "non-sweep directory: exit $rc, expected 2"
grep -q 'victim' err || fail "the error does not name the directory: $(cat err)"
[ "$(cat victim/tmp/1/sub/precious.txt)" = precious ] || fail "precious.txt lost"
[ "$(cat victim/report.txt)" = mine ] || fail "report.txt overwritten"
[ "$(cd victim && find . | sort | tr '\n' ' ')" = ". ./report.txt ./tmp ./tmp/1 ./tmp/1/sub ./tmp/1/sub/precious.txt " ] ||
	fail "victim changed: $(cd victim && find .)"

# An empty existing directory is accepted.
mkdir emptydir
rc=0; fs -o emptydir --driver tap -- ./envprint.sh >out 2>err || rc=$?
[ "$rc" = 1 ] || fail "empty directory: exit $rc, expected 1 (run 2 fails)"
[ -s emptydir/journal.jsonl ] || fail "no journal in emptydir"

# A passing run whose TMPDIR links out of the output directory: the
# TMPDIR is inside the output directory, and its removal leaves the
# link's target alone.
mkdir outside && echo keep >outside/keep.txt
cat >linker.sh <<SH
#!/bin/sh
echo "\$TMPDIR" >>$CHECK_TMPDIR/tmpdirs
ln -s $CHECK_TMPDIR/outside "\$TMPDIR/link"
mkdir "\$TMPDIR/d" && ln -s $CHECK_TMPDIR/outside/keep.txt "\$TMPDIR/d/file"
echo "1..1"; echo "ok 1 - links"
SH
chmod +x linker.sh
rc=0; fs -o linked --driver tap -- ./linker.sh >out 2>err || rc=$?
[ "$rc" = 0 ] || fail "linker: exit $rc: $(cat err)"
[ "$(cat outside/keep.txt)" = keep ] || fail "a symbolic link was followed out of a TMPDIR"
real=$(cd linked && pwd -P)
[ "$(sort tmpdirs | tr '\n' ' ')" = "$real/tmp/1 $real/tmp/2 " ] || fail "TMPDIRs are not inside the output directory: $(cat tmpdirs)"
[ -z "$(ls linked/tmp)" ] || fail "passing runs' TMPDIRs kept: $(ls linked/tmp)"
# A sweep that cannot start (a levels file it refuses, a package that does
# not list) leaves its -o as it found it, so the same -o works once fixed.
mkdir -p proj/.flakesweep && cp envprint.sh proj/
echo '{"levels": {"x": {"kind": "env"}}}' >proj/.flakesweep/levels.json
rc=0; (cd proj && fs -o ../again --driver tap -- ./envprint.sh) >out 2>err || rc=$?
[ "$rc" = 2 ] || fail "a refused levels file: exit $rc, expected 2"
grep -q 'levels.json:1: levels.x.kind: expected' err || fail "a refused levels file: $(cat err)"
[ -z "$(ls -A again)" ] || fail "a sweep that never started left $(ls -A again)"
rm proj/.flakesweep/levels.json
rc=0; (cd proj && fs -o ../again --driver tap -- ./envprint.sh) >out 2>err || rc=$?
[ "$rc" = 1 ] || fail "the same -o once fixed: exit $rc, expected 1 (run 2 fails): $(cat err)"
head -1 again/journal.jsonl | grep -q '"type":"header"' || fail "the same -o once fixed: no header"
# The default output directory, flakesweep-out/TIMESTAMP in the
# repository swept, is ignored by git: a .gitignore in flakesweep-out says
# so, and one the user wrote there is left alone.
mkdir repo && cp envprint.sh repo/ && cd repo
git init -q . && git add envprint.sh && git -c user.name=t -c user.email=t@t commit -qm fixture
rc=0; fs --driver tap -- ./envprint.sh >../out 2>../err || rc=$?
[ "$rc" = 1 ] || fail "default -o: exit $rc, expected 1 (run 2 fails): $(cat ../err)"
[ -f flakesweep-out/.gitignore ] || fail "no flakesweep-out/.gitignore"
[ -z "$(git status --porcelain)" ] || fail "git sees the output: $(git status --porcelain)"
echo 'mine' >flakesweep-out/.gitignore
rc=0; fs --driver tap -o flakesweep-out/second -- ./envprint.sh >../out 2>../err || rc=$?
[ "$(cat flakesweep-out/.gitignore)" = mine ] || fail "the user's .gitignore was replaced"
cd ..
echo "ok: outdir checks"
