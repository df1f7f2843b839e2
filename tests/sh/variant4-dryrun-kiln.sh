#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 150
# report --dry-run of a new report (a real Go sweep of a test that fails
# every other run), with GH_TOKEN set: it prints the title and body, a line
# naming the endpoint with "bearer ***", then each GraphQL request as
# "#n. Name", its document and "# variables" with JSON variables; the token
# appears nowhere, and nothing is sent (the endpoint does not listen).
set -eu
command -v go >/dev/null 2>&1 || { echo "SKIP go is not installed"; exit 77; }
command -v git >/dev/null 2>&1 || { echo "SKIP git is not installed"; exit 77; }
T="$CHECK_TMPDIR"
unset GITHUB_TOKEN GH_ENTERPRISE_TOKEN GITHUB_ENTERPRISE_TOKEN GH_HOST || true
export GOFLAGS=-mod=mod GOCACHE="$T/gocache" TZ=UTC LC_ALL=C
fail() { echo "FAIL $*"; exit 1; }
mkdir -p "$T/kiln/firing"
cd "$T/kiln"
printf 'module kiln.example/kiln\n\ngo 1.19\n' >go.mod
cat >firing/firing_test.go <<EOF2
package firing

import (
	"os"
	"strings"
	"testing"
)

// TestGlaze fails every other run, counted in a file.
func TestGlaze(t *testing.T) {
	b, _ := os.ReadFile("$T/count")
	n := len(strings.TrimSpace(string(b)))
	os.WriteFile("$T/count", []byte(strings.Repeat("x", n+1)), 0o644)
	if n%2 == 1 {
		t.Fatal("glaze cracked")
	}
}
EOF2
git init -q . && git add . && git -c user.name=t -c user.email=t@example.com commit -q -m kiln
set +e
"$FLAKESWEEP" --cpu 1 --load 1 --count 6 --confirm 4 --no-race --ui line -o "$T/out" ./firing \
	>"$T/sweep.log" 2>&1
set -e
ID='kiln.example/kiln/firing::TestGlaze'
grep -qF "\"$ID\"" "$T/out/results.json" || { cat "$T/sweep.log"; fail "the sweep has no $ID"; }
printf 'The glaze cracks every other firing.\n' >"$T/what.md"

export GH_TOKEN=ghp_variant4KilnSecret0123456789abcdef
set +e
"$FLAKESWEEP" report --results "$T/out/results.json" --test "$ID" --description "$T/what.md" \
	--repo potter/kiln --api-url http://127.0.0.1:9/graphql --dry-run >"$T/dry.out" 2>"$T/dry.err"
rc=$?
set -e
[ $rc = 0 ] || { cat "$T/dry.err"; fail "report --dry-run: exit $rc (want 0)"; }
if grep -qF "$GH_TOKEN" "$T/dry.out" "$T/dry.err"; then fail "the token was printed"; fi
grep -qF 'glaze cracks every other firing' "$T/dry.out" || fail "the body is not printed"
grep -qF 'http://127.0.0.1:9/graphql' "$T/dry.out" || fail "no line names the endpoint"
grep -qiF 'bearer ***' "$T/dry.out" || fail "the Authorization header is not shown as bearer ***"
python3 - "$T/dry.out" <<'EOF2' || { cat "$T/dry.out"; fail "the requests are not printed as man 1 says"; }
import json, re, sys
text = open(sys.argv[1]).read()
parts = re.split(r"^# ?(\d+)\. (\w+)[^\n]*\n", text, flags=re.M)
names = parts[2::3]
bodies = parts[3::3]
assert "CreateDiscussion" in names, names
assert names[0] == "RepoAndCategories" and "FindReports" in names, names
for n, b in zip(names, bodies):
    doc, sep, var = b.partition("\n# variables\n")
    assert sep, n + ": no # variables line"
    assert re.search(r"\b(query|mutation)\b", doc), n + ": no document"
    v = json.JSONDecoder().raw_decode(var.lstrip())[0]
    assert isinstance(v, dict), n
    if n == "CreateDiscussion":
        assert "glaze cracks" in json.dumps(v), "the body is not in the variables"
print("requests:", " ".join(names))
EOF2
# man 1: each request begins with "a line #n. Name".
grep -qE '^#1\. RepoAndCategories' "$T/dry.out" ||
	fail "no line '#1. RepoAndCategories' (man 1, --dry-run): $(grep -m1 -E '^# ?1\.' "$T/dry.out")"
echo "variant4-dryrun-kiln: each request printed, token never"
