#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# bisect without -o, in two more shapes: a module at the repository's root
# with revisions given as tags, run to the end and again (the rerun probes
# nothing); and a module in a subdirectory, a subtest whose id holds a
# space and a slash, interrupted after its first judged commit and run
# again with the revisions spelled otherwise (a hash, HEAD). Each time the
# directory flakesweep-out/bisect-ID-HASH-GOOD-BAD is printed, the same one
# is found again, it resumes, the first bad commit is right, and the
# working tree stays clean (flakesweep-out is ignored).
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
command -v git >/dev/null || { echo "SKIP no git"; exit 77; }
export GOPROXY=off GOFLAGS=-mod=mod GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
out=$CHECK_TMPDIR/out
fail() { echo "FAIL: $*"; cat "$out".*; exit 1; }
commit() { git add -A && git commit -qm "$1"; }
bisect() { # NAME WANT_RC ARGS...
	local name=$1 want=$2 rc=0
	shift 2
	"$FLAKESWEEP" bisect --ui none --no-race "$@" >"$out.$name" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || fail "$name: exit $rc, expected $want"
}
# dir NAME: the directory bisect NAME printed.
dir() { sed -n 's/^flakesweep: bisect journals in //p' "$out.$1"; }

# 1. A module at the root, tags.
mkdir -p "$CHECK_TMPDIR/root/parse"
cd "$CHECK_TMPDIR/root"
git init -q .
printf 'module example.org/bis\n\ngo 1.19\n' >go.mod
printf 'package parse\n\nfunc Parse(s string) int { return len(s) }\n' >parse/parse.go
cat >parse/parse_test.go <<'GO'
package parse

import "testing"

func TestParse(t *testing.T) {
	if Parse("abc") != 3 {
		t.Fatal("len")
	}
}
GO
commit c0 && git tag good
echo '// doc' >>parse/parse.go && commit c1
cat >parse/parse.go <<'GO'
package parse

import "time"

func Parse(s string) int {
	if time.Now().UnixNano()/1000%2 == 0 {
		return 0
	}
	return len(s)
}
GO
commit "c2 cache" && culprit=$(git rev-parse HEAD)
echo '// more' >>parse/parse.go && commit c3 && git tag bad
id=example.org/bis/parse::TestParse
want="flakesweep-out/bisect-example.org_bis_parse__TestParse-"
bisect root1 0 --good good --bad bad --test "$id"
d=$(dir root1)
case $d in "$want"????????-"$(git rev-parse --short=12 good)"-"$(git rev-parse --short=12 bad)") ;;
*) fail "root1: directory $d" ;; esac
[ -d "$d/commits" ] || fail "root1: $d has no commits"
grep -q "^first bad commit: $culprit" "$out.root1" || fail "root1: not $culprit"
bisect root2 0 --good good --bad bad --test "$id"
[ "$(dir root2)" = "$d" ] || fail "root2: another directory"
if grep 'after' "$out.root2" | grep -v -q '(from its journal)'; then fail "root2: probed again"; fi
grep -q "^first bad commit: $culprit" "$out.root2" || fail "root2: not $culprit"
[ -z "$(git status --porcelain)" ] || fail "root: the tree is not clean: $(git status --porcelain)"

# 2. A module in a subdirectory, a subtest, interrupted.
mkdir -p "$CHECK_TMPDIR/sub/svc/tok"
cd "$CHECK_TMPDIR/sub"
git init -q .
cd svc
printf 'module example.com/svc\n\ngo 1.19\n' >go.mod
cat >tok/tok_test.go <<'GO'
package tok

import (
	"testing"
	"time"
)

func TestSplit(t *testing.T) {
	t.Run("empty input", func(t *testing.T) {
		time.Sleep(50 * time.Millisecond)
		if len(Split("")) != 0 {
			t.Fatal("not empty")
		}
	})
}
GO
printf 'package tok\n\nfunc Split(s string) []string {\n\tif s == "" {\n\t\treturn nil\n\t}\n\treturn []string{s}\n}\n' >tok/tok.go
commit c0 && good=$(git rev-parse HEAD)
for i in 1 2 3; do echo "// $i" >>tok/tok.go && commit "c$i"; done
cat >tok/tok.go <<'GO'
package tok

import "time"

func Split(s string) []string {
	if time.Now().UnixNano()/1000%3 == 0 {
		return []string{""}
	}
	if s == "" {
		return nil
	}
	return []string{s}
}
GO
commit "c4 culprit" && culprit=$(git rev-parse HEAD)
for i in 5 6; do echo "// $i" >>tok/tok.go && commit "c$i"; done
id='example.com/svc/tok::TestSplit/empty_input'
rc=0
"$FLAKESWEEP" bisect --ui none --no-race --good HEAD~6 --bad HEAD --test "$id" >"$out.sub1" 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q ' after ' "$out.sub1" && break; sleep 0.1; done
kill -INT "$pid" 2>/dev/null || true
wait "$pid" || rc=$?
[ "$rc" = 130 ] || [ "$rc" = 0 ] || fail "sub1: exit $rc, expected 130"
d=$(dir sub1)
case $d in flakesweep-out/bisect-example.com_svc_tok__TestSplit_empty_inp-????????-"${good:0:12}"-"$(git rev-parse --short=12 HEAD)") ;;
*) fail "sub1: directory $d" ;; esac
bisect sub2 0 --good "$good" --bad "$(git rev-parse HEAD)" --test "$id"
[ "$(dir sub2)" = "$d" ] || fail "sub2: another directory"
grep -q '(from its journal)' "$out.sub2" || fail "sub2: did not resume"
grep -q "^first bad commit: $culprit" "$out.sub2" || fail "sub2: not $culprit"
[ -z "$(git status --porcelain)" ] || fail "sub: the tree is not clean: $(git status --porcelain)"
echo ok
