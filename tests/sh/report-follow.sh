#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 200
# `flakesweep report` for a test that already has a discussion, against
# the local stand-in for GitHub's GraphQL endpoint (which checks every
# document against GitHub's published schema): an open discussion gets a
# comment with the new evidence, one closed as fixed is reopened with a
# comment saying it failed again; one discussion, never a second. A
# verified fix (report --close --verified DIR) comments and closes it, only
# when verify.json says fixed at the commit checked out, with a clean tree.
set -eu

command -v node >/dev/null 2>&1 || { echo "SKIP node is not installed"; exit 77; }
[ -d "$CHECK_SRCDIR/tests/server/node_modules/@octokit/graphql-schema" ] ||
	{ echo "SKIP tests/server/node_modules is missing: run (cd tests/server && npm ci)"; exit 77; }
T="$CHECK_TMPDIR"
fx="$CHECK_SRCDIR/tests/fixtures/post"
ID='example.com/widgets/cache::TestCache/evicts_under_pressure'
unset GH_TOKEN GITHUB_TOKEN GH_ENTERPRISE_TOKEN GITHUB_ENTERPRISE_TOKEN GH_HOST \
	FLAKESWEEP_HTTP_TRACE || true
export TZ=UTC LC_ALL=C FLAKESWEEP_GITHUB_TIMEOUT=3s
fail() { echo "FAIL $*"; exit 1; }
tmux_cleanup() { :; }
# shellcheck source=../lib/standin.sh
. "$CHECK_SRCDIR/tests/lib/standin.sh"

command -v git >/dev/null 2>&1 || { echo "SKIP git is not installed"; exit 77; }
mkdir -p "$T/project/cache" "$T/bodies"
cp "$fx/demo/project/go.mod" "$T/project/"
cp "$fx/demo/project/cache/cache_test.go" "$T/project/cache/"
g() { git -C "$T/project" -c user.name=t -c user.email=t@example.com "$@" >/dev/null; }
g init -q
g remote add origin git@github.com:demo/widgets.git
g add .
g commit -q -m fix
head=$(git -C "$T/project" rev-parse HEAD)
sed "s|@ROOT@|$T/project|g" "$fx/demo/results.json" >"$T/results.json"
printf 'It failed again on the nightly run.\n' >"$T/again.md"
STANDIN_BODIES="$T/bodies" standin_start "$ID" 180
export GH_TOKEN="$STANDIN_TOKEN"
base=${STANDIN_URL%/ok/graphql}

bad=0
# run NAME SCENARIO [ARGS...]: one report; NAME.out, .err and .rc in $T.
run() {
	local name=$1 scenario=$2
	shift 2
	set +e
	"$FLAKESWEEP" report --results "$T/results.json" --test "$ID" \
		--api-url "$base/$scenario/graphql" "$@" >"$T/$name.out" 2>"$T/$name.err"
	echo $? >"$T/$name.rc"
	set -e
}
expect() { # NAME RC STDOUT STDERR
	if [ "$(cat "$T/$1.rc")" != "$2" ] || [ "$(cat "$T/$1.out")" != "$3" ] ||
		[ "$(cat "$T/$1.err")" != "$4" ]; then
		echo "FAIL $1: exit $(cat "$T/$1.rc") (want $2)"
		echo "--- stdout:"; cat "$T/$1.out"; echo "--- want:"; printf '%s\n' "$3"
		echo "--- stderr:"; cat "$T/$1.err"; echo "--- want:"; printf '%s\n' "$4"
		bad=1
	fi
}
expect_ops() { # SCENARIO OPS: what the stand-in saw, in order
	local got
	got=$(awk -v s="$1" '$1 == s && $3 != "INVALID" { printf "%s%s:%s", sep, $3, $4; sep = " " } END { print "" }' \
		"$T/standin.log")
	[ "$got" = "$2" ] || { echo "FAIL $1: the stand-in saw: $got"; echo "   want: $2"; bad=1; }
}
has() { # FILE LINE...: each line is in the file
	local f=$1 l
	shift
	for l in "$@"; do
		grep -qF -- "$l" "$f" 2>/dev/null || { echo "FAIL $f lacks: $l"; bad=1; }
	done
}
D=https://github.com/demo/widgets/discussions

# The first report opens the discussion; the second comments on it, with
# or without a description, and never opens another.
run first follow --description "$fx/demo/description.md"
expect first 0 "$D/40" ""
run second follow
expect second 0 "$D/40#discussioncomment-4001" \
	"flakesweep: added the new evidence to the open discussion of $ID: $D/40"
run third follow --description "$T/again.md"
expect third 0 "$D/40#discussioncomment-4002" \
	"flakesweep: added the new evidence to the open discussion of $ID: $D/40"
expect_ops follow "RepoAndCategories:200 FindReports:200 CreateDiscussion:200 RepoAndCategories:200 FindReports:200 AddDiscussionComment:200 RepoAndCategories:200 FindReports:200 AddDiscussionComment:200"
[ ! -e "$T/bodies/follow-41.md" ] || { echo "FAIL follow: a second discussion"; bad=1; }
has "$T/bodies/follow-40-comment-1.md" "flakesweep measured \`TestCache/evicts_under_pressure\` again" \
	"- Commit: " "- Measured: " "| **cpu " "The first failure, in a " "Reproduce it at the pair where it failed most"
has "$T/bodies/follow-40-comment-2.md" "It failed again on the nightly run."

# Closed as fixed, failing again: reopened, with a comment saying so.
run reopen fixed-discussion
expect reopen 0 "$D/40#discussioncomment-4001" \
	"flakesweep: $ID failed again: reopened the discussion closed as fixed: $D/40"
expect_ops fixed-discussion "RepoAndCategories:200 FindReports:200 ReopenDiscussion:200 AddDiscussionComment:200"
has "$T/bodies/fixed-discussion-40-comment-1.md" \
	"\`TestCache/evicts_under_pressure\` failed again after this discussion was closed as fixed" "- Measured: "

# No discussion yet and no description: nothing is created.
run nodesc nodesc
expect nodesc 2 "" "flakesweep: no open discussion names $ID: a new report needs --description FILE"
expect_ops nodesc "RepoAndCategories:200 FindReports:200"
# An open issue is still not commented on.
run issue open-issue
expect issue 2 "https://github.com/demo/widgets/issues/12" \
	"flakesweep: an open issue already names $ID: https://github.com/demo/widgets/issues/12"

# A dry run without a description shows the comment, then each request
# it would send (sent here as scenario dry-check, to be checked against the
# schema with the others), and sends nothing.
dry_requests() { # NAME NAMES
	python3 "$CHECK_SRCDIR/tests/lib/dry-requests.py" "$T/$1.out" - "$2" \
		--post "$base/dry-check/graphql" >"$T/$1.requests" ||
		{ echo "FAIL $1: the requests it printed are not the ones expected"; bad=1; }
}
run dry never --dry-run
expect dry 0 "$(cat "$T/dry.out")" ""
has "$T/dry.out" "flakesweep measured \`TestCache/evicts_under_pressure\` again" "- Measured: "
dry_requests dry "RepoAndCategories FindReports AddDiscussionComment ReopenDiscussion AddDiscussionComment"
expect_ops never ""

# report --close: verify.json must say fixed, at HEAD, with a clean tree.
verified() { # DIR VERDICT COMMIT DIRTY
	mkdir -p "$T/$1"
	printf '{"schema":"flakesweep/verify/v1","test":"%s","verdict":"%s","commit":%s,"dirty":%s,"pairs":[{"cpu":4,"load":2,"runs":300,"failures":0,"decision":"fixed"}],"runs":300,"bandaids":[]}\n' \
		"$ID" "$2" "$3" "$4" >"$T/$1/verify.json"
}
close() { # NAME SCENARIO DIR [ARGS...]
	local name=$1 scenario=$2 dir=$3
	shift 3
	set +e
	(cd "$T/project" && "$FLAKESWEEP" report --close --test "$ID" --verified "$T/$dir" \
		--api-url "$base/$scenario/graphql" "$@") >"$T/$name.out" 2>"$T/$name.err"
	echo $? >"$T/$name.rc"
	set -e
}
verified v-notfixed not-fixed "\"$head\"" false
close notfixed follow v-notfixed
expect notfixed 2 "" "flakesweep: $T/v-notfixed/verify.json says not-fixed, not fixed: the discussion stays open"
verified v-dirty fixed "\"$head\"" true
close dirty follow v-dirty
expect dirty 2 "" "flakesweep: $T/v-dirty/verify.json measured an uncommitted edit: commit it and verify again"
verified v-other fixed '"0123456789abcdef0123456789abcdef01234567"' false
close other follow v-other
expect other 2 "" "flakesweep: $T/v-other/verify.json verified commit 0123456789ab, but ${head:0:12} is checked out"
verified v-nocommit fixed null false
close nocommit follow v-nocommit
expect nocommit 2 "" "flakesweep: $T/v-nocommit/verify.json has no commit: verify did not run in a git checkout"
verified v-fixed fixed "\"$head\"" false
echo edit >>"$T/project/go.mod"
close edited follow v-fixed
expect edited 2 "" "flakesweep: the checkout differs from commit ${head:0:12} (go.mod changed): the verified commit is not what is checked out"
g checkout -q go.mod
close none nodisc v-fixed
expect none 2 "" "flakesweep: no open discussion names $ID: there is nothing to close"
close close-dry never v-fixed --dry-run
has "$T/close-dry.out" "flakesweep verified the fix of" "| cpu 4, load 2 | 300 | 0 | fixed |"
dry_requests close-dry "RepoAndCategories FindReports AddDiscussionComment CloseDiscussion"
has "$T/close-dry.requests" 'CloseDiscussion {"input": {"discussionId": "<the id of the discussion FindReports finds>", "reason": "RESOLVED"}}'
expect_ops never ""
close closed follow v-fixed
expect closed 0 "$D/40" "flakesweep: closed the discussion of $ID as resolved: $D/40"
has "$T/bodies/follow-40-comment-3.md" "flakesweep verified the fix of \`TestCache/evicts_under_pressure\` at commit" \
	"| cpu 4, load 2 | 300 | 0 | fixed |"
# A failure after the close reopens it.
run after follow
expect after 0 "$D/40#discussioncomment-4004" \
	"flakesweep: $ID failed again: reopened the discussion closed as fixed: $D/40"
expect_ops follow "RepoAndCategories:200 FindReports:200 CreateDiscussion:200 RepoAndCategories:200 FindReports:200 AddDiscussionComment:200 RepoAndCategories:200 FindReports:200 AddDiscussionComment:200 RepoAndCategories:200 FindReports:200 AddDiscussionComment:200 CloseDiscussion:200 RepoAndCategories:200 FindReports:200 ReopenDiscussion:200 AddDiscussionComment:200"
[ ! -e "$T/bodies/follow-41.md" ] || { echo "FAIL follow: a second discussion"; bad=1; }

# Every document was valid against GitHub's schema.
if grep -E 'valid=no|INVALID|auth=missing|ua=bad' "$T/standin.log"; then
	echo "FAIL: the stand-in saw the requests above"; bad=1
fi
[ $bad = 0 ] && echo "report-follow: all scenarios behaved"
exit $bad
