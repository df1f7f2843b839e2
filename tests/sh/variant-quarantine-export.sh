#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# quarantine export --format go-skip for a module at the project's root
# with a quarantined test and a quarantined subtest: under Go 1.19 (no
# -skip) a comment says so and a -run names the package's other tests,
# leaving out the whole test of the subtest; under Go 1.20 or later (when
# one is installed) the -skip command, which leaves out only the subtest.
# Each printed command runs as printed and runs no quarantined test.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
export GOPROXY=off GOFLAGS=
work=$CHECK_TMPDIR/repo
mkdir -p "$work/store"
cd "$work"
printf 'module example.com/qx\n\ngo 1.19\n' >go.mod
cat >store/store_test.go <<'GO'
package store

import "testing"

func TestPut(t *testing.T) {}

func TestGet(t *testing.T) { t.Fatal("quarantined") }

func TestList(t *testing.T) {
	t.Run("empty", func(t *testing.T) {})
	t.Run("many", func(t *testing.T) { t.Fatal("quarantined subtest") })
}

func TestDelete(t *testing.T) {}
GO
fail() { echo "FAIL: $*"; exit 1; }
"$FLAKESWEEP" quarantine add example.com/qx/store::TestGet any --owner alice --issue '#3' \
	--expires 2099-06-01 >/dev/null
"$FLAKESWEEP" quarantine add example.com/qx/store::TestList/many cpu=1 --owner bob --issue '#4' \
	--expires 2099-06-01 >/dev/null
# export_with GO RAN: prints the export under the toolchain GO, runs its commands
# with -v and checks that the tests that ran are RAN.
export_with() {
	local dir got
	dir=$(dirname "$1")
	PATH=$dir:$PATH "$FLAKESWEEP" quarantine export --format go-skip >"$CHECK_TMPDIR/export.txt" ||
		fail "$1: export failed"
	PATH=$dir:$PATH bash -e "$CHECK_TMPDIR/export.txt" >/dev/null || fail "$1: $(cat "$CHECK_TMPDIR/export.txt")"
	sed -i '/^go test/s/$/ -v/' "$CHECK_TMPDIR/export.txt"
	got=$(PATH=$dir:$PATH bash -e "$CHECK_TMPDIR/export.txt" | sed -n 's/^=== RUN   //p' | sort | tr '\n' ' ')
	[ "$got" = "$2 " ] || fail "$1: ran $got"
}
v=$(go env GOVERSION)
case $v in
go1.1[0-9] | go1.1[0-9].*)
	export_with "$(command -v go)" "TestDelete TestPut"
	[ "$(cat "$CHECK_TMPDIR/export.txt")" = "# $v has no -skip (Go 1.20 added it): a -run of the package's other tests instead
go test -run '^(TestDelete|TestPut)\$' ./store -v" ] || fail "$v: $(cat "$CHECK_TMPDIR/export.txt")"
	;;
esac
for g in /usr/lib/go-1.2[0-9]/bin/go; do
	[ -x "$g" ] || continue
	export_with "$g" "TestDelete TestList TestList/empty TestPut"
	[ "$(cat "$CHECK_TMPDIR/export.txt")" = "go test -skip '^TestGet\$|^TestList\$/^many\$' ./store -v" ] ||
		fail "$g: $(cat "$CHECK_TMPDIR/export.txt")"
	break
done
echo ok
