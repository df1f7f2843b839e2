# SPDX-License-Identifier: MIT
# Sourced by the tests/sh/variant3-*.sh scripts: fail, skip, the Go and
# pytest tool checks, a work directory, and jq-like reads of JSON files
# with python3 (json_get FILE EXPR: EXPR is a Python expression on d).
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP $*"; exit 77; }
: "${CHECK_TMPDIR:=$(mktemp -d)}"
: "${FLAKESWEEP:?FLAKESWEEP is not set}"
work=$CHECK_TMPDIR/v3
mkdir -p "$work"
cd "$work"

need_go() {
	command -v go >/dev/null || skip "no go"
	export GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local
	export GOCACHE=${GOCACHE:-$HOME/.cache/go-build}
}

need_pytest() {
	py=
	for cand in "${FLAKESWEEP_PYTHON:-}" /usr/bin/python3 python3; do
		[ -n "$cand" ] || continue
		if "$cand" -c 'import pytest' 2>/dev/null; then
			py=$(command -v "$cand")
			break
		fi
	done
	[ -n "$py" ] || skip "no python3 with pytest"
	export FLAKESWEEP_PYTHON=$py
}

# json_get FILE EXPR: print the value of the Python expression EXPR, where d
# is FILE's JSON; strings print bare, everything else as JSON.
json_get() {
	/usr/bin/python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(v if isinstance(v, str) else json.dumps(v))
EOF
}

# gomod DIR MODULE: a go.mod for MODULE in DIR.
gomod() {
	mkdir -p "$1"
	printf 'module %s\n\ngo 1.19\n' "$2" >"$1/go.mod"
}
