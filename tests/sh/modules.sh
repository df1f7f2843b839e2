#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 600
# A repository of several Go modules (tests/fixtures/modules: a root module,
# ./tools and ./example/wallet nested, a module whose go.mod does not parse,
# one whose dependency cannot be fetched, and go.mod files under vendor/,
# testdata/ and _old/ that Go skips) swept from its root:
# - with no pattern, every module's packages, each built with its own
#   go.mod; the two broken modules named as failed builds, the rest swept;
# - patterns relative to the root cross modules; an import path finds its
#   module; go.work's use list, when there is one, is the set of modules;
# - a module asking for a newer Go than this one is warned about;
# - --cover builds as `go test -c -cover` and is kept by the journal.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
work=$CHECK_TMPDIR/repo
cp -r "$CHECK_SRCDIR/tests/fixtures/modules" "$work"
cd "$work"
export GOPROXY=off
out=$CHECK_TMPDIR/out
sweep() { # NAME WANT_RC [OPTIONS AND PATTERNS...]
	local name=$1 want=$2 rc=0
	shift 2
	"$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --no-race --ui none \
		-o "$out/$name" "$@" >"$out/$name.txt" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { cat "$out/$name.txt"; echo "$name: exit $rc, expected $want"; exit 1; }
}
mkdir -p "$out"
sweep all 1
grep -q '^flakesweep: ./badmod (unit) failed to build or to list its tests; the rest goes on$' \
	"$out/all.txt"
grep -q '^BUILD FAILED example.com/broken (unit):$' "$out/all.txt"
if go version | grep -q 'go1\.\(1[0-9]\|20\)[. ]'; then
	grep -q '^flakesweep: module example.com/wallet asks for go 1.21 in its go.mod; the local Go is go1' \
		"$out/all.txt" || { cat "$out/all.txt"; echo "no warning for go 1.21"; exit 1; }
else
	! grep -q 'asks for go' "$out/all.txt"
fi
sweep core 0 ./core
sweep cross 0 ./example/... ./tools/lint
sweep importpath 0 example.com/repo/tools/lint
sweep cover 0 --cover ./tools/...
printf 'go 1.19\n\nuse (\n\t.\n\t./tools // the linters\n)\n' >go.work
sweep work 0
python3 - "$out" "$work" <<'PY'
import json, os, sys
out, work = sys.argv[1], sys.argv[2]
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
def pkgs(name):
    r = json.load(open(os.path.join(out, name, "results.json")))
    return {p["package"]: p["build"]["ok"] for p in r["packages"]}, r
got, r = pkgs("all")
check(got == {"example.com/repo/core": True, "./badmod": False, "example.com/broken": False,
              "example.com/wallet": True, "example.com/repo/tools/lint": True},
      "every module once, the broken ones failed: %s" % got)
check(r["project"]["root"] == os.path.realpath(work), "the root is where the sweep stood")
check(r["summary"]["runs"] == 3 and r["summary"]["passed"] == 3, "3 runs, 3 passed")
check("TestSkipped" not in [t["test"] for t in r["tests"]], "vendor, testdata and _old skipped")
check(pkgs("core")[0] == {"example.com/repo/core": True}, "./core")
check(pkgs("cross")[0] == {"example.com/wallet": True, "example.com/repo/tools/lint": True},
      "./example/... and ./tools/lint cross modules")
check(pkgs("importpath")[0] == {"example.com/repo/tools/lint": True}, "an import path")
check(pkgs("work")[0] == {"example.com/repo/core": True, "example.com/repo/tools/lint": True},
      "go.work's modules: %s" % pkgs("work")[0])
check(pkgs("cover")[1]["config"].get("cover") is True, "config.cover")
PY
grep -q '"cover":true' "$out/cover/journal.jsonl"
# The binary was built with -cover: it reports its coverage.
"$out"/cover/bin/example.com_repo_tools_lint.unit.test -test.v | grep -q '^coverage: '
echo ok
