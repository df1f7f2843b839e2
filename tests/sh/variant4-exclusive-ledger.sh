#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# --exclusive NAME=PKG::TEST (directory form, two groups): a group whose
# test part matches none of its package's listed tests stops the sweep
# before its first run, exit 2, naming that pattern, even when the other
# group is fine; with both test parts matching, the sweep runs.
set -eu
command -v go >/dev/null 2>&1 || { echo "SKIP go is not installed"; exit 77; }
T="$CHECK_TMPDIR"
export GOFLAGS=-mod=mod GOCACHE="$T/gocache" TZ=UTC LC_ALL=C
mkdir -p "$T/ledger/books" "$T/ledger/vault"
cd "$T/ledger"
printf 'module ledger.test/ledger\n\ngo 1.19\n' >go.mod
for p in books vault; do
	cat >$p/${p}_test.go <<EOF2
package $p

import (
	"os"
	"testing"
)

func mark(t *testing.T) {
	f, err := os.OpenFile(os.Getenv("LEDGER_MARK"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		f.WriteString(t.Name() + "\n")
		f.Close()
	}
}

func TestPost$p(t *testing.T)  { mark(t) }
func TestAudit$p(t *testing.T) { mark(t) }
EOF2
done
export LEDGER_MARK="$T/ran"
bad=0

set +e
"$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --no-race --ui line -o "$T/out1" \
	--exclusive 'disk=./books::TestPostbooks' --exclusive 'hsm=./vault::TestRotatevault' \
	./books ./vault >"$T/1.out" 2>"$T/1.err"
rc=$?
set -e
if [ $rc != 2 ]; then
	echo "FAIL unmatched test part: exit $rc (want 2)"; cat "$T/1.err"; bad=1
fi
if ! grep -qF './vault::TestRotatevault' "$T/1.err"; then
	echo "FAIL unmatched test part: stderr does not name the pattern:"; cat "$T/1.err"; bad=1
fi
if grep -qF 'TestPostbooks' "$T/1.err"; then
	echo "FAIL the matching group is named as an error too:"; cat "$T/1.err"; bad=1
fi
if [ -s "$T/ran" ]; then
	echo "FAIL unmatched test part: a test ran before the error:"; cat "$T/ran"; bad=1
fi

rm -f "$T/ran"
set +e
"$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --no-race --ui line -o "$T/out2" \
	--exclusive 'disk=./books::TestPostbooks' --exclusive 'hsm=./vault::TestAuditvault' \
	./books ./vault >"$T/2.out" 2>"$T/2.err"
rc=$?
set -e
if [ $rc != 0 ]; then
	echo "FAIL matching test parts: exit $rc (want 0)"; cat "$T/2.err"; bad=1
fi
if ! grep -q TestAuditvault "$T/ran" 2>/dev/null; then
	echo "FAIL matching test parts: TestAuditvault never ran"; cat "$T/2.err"; bad=1
fi
for g in '"disk"' '"hsm"'; do
	grep -q "$g" "$T/out2/results.json" ||
		{ echo "FAIL results.json's config.exclusive lacks $g"; bad=1; }
done
[ $bad = 0 ] && echo "variant4-exclusive-ledger: unmatched refused, matched accepted"
exit $bad
