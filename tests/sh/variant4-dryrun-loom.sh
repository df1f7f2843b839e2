#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 150
# report --dry-run without --description (a real Go sweep of a test that
# fails every other run), with GITHUB_TOKEN set: it prints the comment it
# would add to an open discussion, a line naming the endpoint with
# "bearer ***", then each GraphQL request as "#n. Name", its document and
# "# variables" with JSON variables; the token appears nowhere, and nothing
# is sent (the endpoint does not listen).
set -eu
command -v go >/dev/null 2>&1 || { echo "SKIP go is not installed"; exit 77; }
command -v git >/dev/null 2>&1 || { echo "SKIP git is not installed"; exit 77; }
T="$CHECK_TMPDIR"
unset GH_TOKEN GH_ENTERPRISE_TOKEN GITHUB_ENTERPRISE_TOKEN GH_HOST || true
export GOFLAGS=-mod=mod GOCACHE="$T/gocache" TZ=UTC LC_ALL=C
fail() { echo "FAIL $*"; exit 1; }
mkdir -p "$T/loom/weave"
cd "$T/loom"
printf 'module loom.example/loom\n\ngo 1.19\n' >go.mod
cat >weave/weave_test.go <<EOF2
package weave

import (
	"os"
	"strings"
	"testing"
)

// TestShuttle fails every other run, counted in a file.
func TestShuttle(t *testing.T) {
	b, _ := os.ReadFile("$T/count")
	n := len(strings.TrimSpace(string(b)))
	os.WriteFile("$T/count", []byte(strings.Repeat("x", n+1)), 0o644)
	if n%2 == 1 {
		t.Fatal("thread snapped")
	}
}
EOF2
git init -q . && git add . && git -c user.name=t -c user.email=t@example.com commit -q -m loom
set +e
"$FLAKESWEEP" --cpu 1 --load 1 --count 6 --confirm 4 --no-race --ui line -o "$T/out" ./weave \
	>"$T/sweep.log" 2>&1
set -e
ID='loom.example/loom/weave::TestShuttle'
grep -qF "\"$ID\"" "$T/out/results.json" || { cat "$T/sweep.log"; fail "the sweep has no $ID"; }

export GITHUB_TOKEN=ghp_variant4LoomSecret9876543210fedcba
set +e
"$FLAKESWEEP" report --results "$T/out/results.json" --test "$ID" \
	--repo weaver/loom --api-url http://127.0.0.1:9/graphql --dry-run >"$T/dry.out" 2>"$T/dry.err"
rc=$?
set -e
[ $rc = 0 ] || { cat "$T/dry.err"; fail "report --dry-run: exit $rc (want 0)"; }
if grep -qF "$GITHUB_TOKEN" "$T/dry.out" "$T/dry.err"; then fail "the token was printed"; fi
grep -qF 'TestShuttle' "$T/dry.out" || fail "the comment is not printed"
grep -qF 'http://127.0.0.1:9/graphql' "$T/dry.out" || fail "no line names the endpoint"
grep -qiF 'bearer ***' "$T/dry.out" || fail "the Authorization header is not shown as bearer ***"
python3 - "$T/dry.out" <<'EOF2' || { cat "$T/dry.out"; fail "the requests are not printed as man 1 says"; }
import json, re, sys
text = open(sys.argv[1]).read()
parts = re.split(r"^# ?(\d+)\. (\w+)[^\n]*\n", text, flags=re.M)
names = parts[2::3]
bodies = parts[3::3]
assert "AddDiscussionComment" in names and "CreateDiscussion" not in names, names
assert names[0] == "RepoAndCategories" and "FindReports" in names, names
for n, b in zip(names, bodies):
    doc, sep, var = b.partition("\n# variables\n")
    assert sep, n + ": no # variables line"
    assert re.search(r"\b(query|mutation)\b", doc), n + ": no document"
    v = json.JSONDecoder().raw_decode(var.lstrip())[0]
    assert isinstance(v, dict), n
    if n == "AddDiscussionComment":
        assert "TestShuttle" in json.dumps(v), "the comment is not in the variables"
print("requests:", " ".join(names))
EOF2
# man 1: each request begins with "a line #n. Name".
grep -qE '^#1\. RepoAndCategories' "$T/dry.out" ||
	fail "no line '#1. RepoAndCategories' (man 1, --dry-run): $(grep -m1 -E '^# ?1\.' "$T/dry.out")"
echo "variant4-dryrun-loom: each request printed, token never"
