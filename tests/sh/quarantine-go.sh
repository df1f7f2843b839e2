#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# `quarantine export --format go-skip` in a git repository of three Go
# modules with no go.mod at its root: every command it prints runs from
# the directory it is printed in and passes (the quarantined tests fail),
# with Go 1.19 (no -skip: a comment and a -run of the other tests) and
# with Go 1.23 (-skip), from the root and from inside a module; the lines
# also run together, as one script, since each cd is in a subshell of its
# own; a package whose every test is quarantined (web) is named by its
# import path in Go 1.19's note, never `.`.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
work=$CHECK_TMPDIR/repo
mkdir -p "$work/alpha" "$work/beta/sub" "$work/web"
cd "$work"
for m in alpha beta web; do
	printf 'module example.com/%s\n\ngo 1.19\n' $m >$m/go.mod
done
cat >alpha/alpha_test.go <<'GO'
package alpha

import "testing"

func TestMain(m *testing.M) { m.Run() }
func TestAlpha(t *testing.T) {}
func TestFlaky(t *testing.T) { t.Fatal("quarantined") }
func TestOther(t *testing.T) {}
GO
cat >beta/sub/sub_test.go <<'GO'
package sub

import "testing"

func TestSub(t *testing.T) {}
func TestSubFlaky(t *testing.T) {
	t.Run("one", func(t *testing.T) { t.Fatal("quarantined") })
	t.Run("two", func(t *testing.T) {})
}
GO
cat >web/web_test.go <<'GO'
package web

import "testing"

func TestPage(t *testing.T) { t.Fatal("quarantined") }
GO
git init -q .
git add -A
git -c user.name=t -c user.email=t@example.com commit -qm fixture
export GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local
fail() { echo "FAIL: $*"; exit 1; }
for t in 'example.com/alpha::TestFlaky' 'example.com/beta/sub::TestSubFlaky/one' \
	'example.com/web::TestPage'; do
	"$FLAKESWEEP" quarantine add "$t" any --owner o --issue '#1' --expires 2099-01-01 >/dev/null
done

# check NAME WANT...: the export from here has each WANT line, names no
# package `.` in a note, each of its commands passes when run from here,
# and the whole export passes run as one script from here.
check() {
	local name=$1 line
	shift
	"$FLAKESWEEP" quarantine export --format go-skip >"$CHECK_TMPDIR/$name.txt" ||
		fail "$name: export failed"
	for want in "$@"; do
		grep -qxF -- "$want" "$CHECK_TMPDIR/$name.txt" ||
			{ cat "$CHECK_TMPDIR/$name.txt"; fail "$name: no line \"$want\""; }
	done
	! grep -q 'of \. is' "$CHECK_TMPDIR/$name.txt" ||
		{ cat "$CHECK_TMPDIR/$name.txt"; fail "$name: a package named ."; }
	while IFS= read -r line; do
		case $line in '#'*) continue ;; esac
		bash -c "$line" >"$CHECK_TMPDIR/$name.run" 2>&1 ||
			{ cat "$CHECK_TMPDIR/$name.run"; fail "$name: \`$line\` failed"; }
	done <"$CHECK_TMPDIR/$name.txt"
	bash -e "$CHECK_TMPDIR/$name.txt" >"$CHECK_TMPDIR/$name.run" 2>&1 ||
		{ cat "$CHECK_TMPDIR/$name.txt" "$CHECK_TMPDIR/$name.run"; fail "$name: the script failed"; }
}

old=$(go env GOVERSION)
case $old in go1.1[0-9] | go1.1[0-9].*)
	note="# $old has no -skip (Go 1.20 added it): a -run of the package's other tests instead"
	check old-root "$note" "(cd alpha && go test -run '^(TestAlpha|TestOther)\$' .)" \
		"(cd beta && go test -run '^(TestSub)\$' ./sub)" \
		"# $old has no -skip (Go 1.20 added it); every test of example.com/web is quarantined: nothing to run"
	cd beta/sub
	check old-sub "(cd ../../alpha && go test -run '^(TestAlpha|TestOther)\$' .)" \
		"(cd .. && go test -run '^(TestSub)\$' ./sub)"
	cd "$work"
	;;
esac
if [ -x /usr/lib/go-1.23/bin/go ]; then
	PATH=/usr/lib/go-1.23/bin:$PATH
	check new-root "(cd alpha && go test -skip '^TestFlaky\$' .)" \
		"(cd beta && go test -skip '^TestSubFlaky\$/^one\$' ./sub)" \
		"(cd web && go test -skip '^TestPage\$' .)"
	! grep -q '^#' "$CHECK_TMPDIR/new-root.txt" || fail "new-root: a comment with Go 1.23"
	cd alpha
	check new-alpha "go test -skip '^TestFlaky\$' ." \
		"(cd ../beta && go test -skip '^TestSubFlaky\$/^one\$' ./sub)" \
		"(cd ../web && go test -skip '^TestPage\$' .)"
fi
echo ok
