#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# Test names, quarantine entries, ledger ids, journal fields and old report
# files that carry escape sequences (OSC title and clipboard, CSI, their C1
# forms, U+202E): no front end or subcommand may print one. Each output is
# compared with its golden file in tests/golden/terminal
# (FLAKESWEEP_UPDATE_GOLDEN=1 rewrites them) and searched for control
# bytes; the raw bytes must stay in the run logs.
set -u
T="$CHECK_TMPDIR/terminal"
golden="$CHECK_SRCDIR/tests/golden/terminal"
export TZ=UTC LC_ALL=C
unset GH_TOKEN GITHUB_TOKEN GH_ENTERPRISE_TOKEN GITHUB_ENTERPRISE_TOKEN GH_HOST || true
bad=0

mkdir -p "$T/tap" || exit 1
cd "$T/tap" || exit 1
cat >esc.sh <<'EOF'
#!/bin/sh
echo "1..3"
echo "ok 1 - fine"
printf 'not ok 2 - title \033]0;PWNED-NAME\007 clear \033[2J osc52 \033]52;c;UFdORUQ=\007 end\n'
printf 'not ok 3 - c1 \302\233 2J \302\2352;PWNED\302\234 rlo \342\200\256 eman\n'
EOF
chmod +x esc.sh

# unsafe FILE: true when FILE holds a C0 control other than \n and \t, DEL,
# a C1 control in UTF-8 or a bidirectional control.
unsafe_re='[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]'
unsafe() {
	grep -qaP "$unsafe_re" "$1"
}

# check NAME FILE: FILE is clean and, after $T is replaced by T and the
# host noise (which depends on what else the machine runs) is dropped,
# equals the golden NAME.
check() {
	local name=$1 file=$2
	if unsafe "$file"; then
		echo "FAIL $name: a control byte reached the output:"
		grep -naP "$unsafe_re" "$file" | cat -A | head -5
		bad=1
	fi
	sed -i -e "s|$T|T|g" -e "s|taskset -c [0-9,]*|taskset -c CORES|g" -e '/^host noise: /d' \
	    -e 's/  noisy: [0-9]*%$//' "$file"
	if [ "${FLAKESWEEP_UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$file" "$golden/$name.txt"
	elif ! diff -u "$golden/$name.txt" "$file"; then
		echo "FAIL $name: differs from tests/golden/terminal/$name.txt"
		bad=1
	fi
}

# run NAME CMD...: CMD's stdout, stderr and exit status, checked as NAME.
run() {
	local name=$1 rc
	shift
	"$@" >"$T/.out" 2>"$T/.err" </dev/null
	rc=$?
	{
		cat "$T/.out"
		echo "--- stderr"
		cat "$T/.err"
		echo "--- exit $rc"
	} >"$T/$name.got"
	check "$name" "$T/$name.got"
}

# The line front end: progress lines and the report on stdout. The
# progress line's clock is the only line that varies: one lane, so run 1
# fails first, and no CPU shim, whose path is this build's.
"$FLAKESWEEP" --cpu 1 --load 1 --count 2 --confirm 1 --no-race --timeout 10s --ui line \
	--keep $(($(nproc) - 1)) --no-cpu-shim \
	-o "$T/out" --driver tap -- ./esc.sh >"$T/line.out" 2>"$T/line.err" </dev/null
echo "--- exit $?" >>"$T/line.err"
sed -i 's/| [0-9]*:[0-9][0-9]:[0-9][0-9]$/| CLOCK/' "$T/line.err"
check line-stdout "$T/line.out"
check line-stderr "$T/line.err"
cp "$T/out/report.txt" "$T/report.txt"
check report "$T/report.txt"
grep -q $'\033\\]0;PWNED-NAME\a' "$T/out/runs/1.log" ||
	{ echo "FAIL: runs/1.log lost the raw bytes"; bad=1; }

# The report rebuilt from a journal whose package name and build output
# carry sequences, and `view` without a terminal printing an old report.
mkdir -p "$T/rebuild"
sed 's/{"type":"build","pkg":0,"package":"\.\/esc\.sh","level":"unit","dir":"[^"]*","ok":true/{"type":"build","pkg":0,"package":".\/esc\\u001b]0;PKG\\u0007.sh","level":"unit","dir":"\/x","ok":false,"output":"cc: \\u001b[31merror\\u001b[0m \\u001b]52;c;UFdORUQ=\\u0007\\u009b2J\\u202e"/' \
	"$T/out/journal.jsonl" >"$T/rebuild/journal.jsonl"
grep -q '"ok":false' "$T/rebuild/journal.jsonl" || { echo "FAIL: the journal was not edited"; bad=1; }
run rebuild "$FLAKESWEEP" report --rebuild "$T/rebuild"
cp "$T/rebuild/report.txt" "$T/rebuild-report.txt"
check rebuild-report "$T/rebuild-report.txt"
printf 'old \033]0;PWNED\007 report \302\233 2J \342\200\256 end\n' >"$T/rebuild/report.txt"
run view "$FLAKESWEEP" view "$T/rebuild"

# Quarantine entries.
cd "$T" || exit 1
printf '%s\n' '[{"expires":"2026-12-31","owner":"o\u001b]0;PWNED\u0007wner","issue":"#9\u009b2J",' \
	'"test":"pkg::Test\u001b]52;c;SGVsbG8=\u0007X\u202eY","channel":"clock","reason":"r\u001b[2Jr"}]' >q.json
printf '%s\n' '[{"expires":"2026-12-31","owner":"o","issue":"#1","test":"pkg::T\u009d0;X\u009c",' \
	'"channel":"env:\u001b]0;PWNED\u0007"}]' >qbad.json
now=--now=2026-11-30T12:00:00Z
run quarantine-list "$FLAKESWEEP" quarantine list --file q.json $now
run quarantine-check "$FLAKESWEEP" quarantine check --file q.json --now=2027-01-30T12:00:00Z
run quarantine-export "$FLAKESWEEP" quarantine export --file q.json --format go-skip
run quarantine-bad "$FLAKESWEEP" quarantine check --file qbad.json $now
run quarantine-add "$FLAKESWEEP" quarantine add $'pkg::A\e]0;PWNED\a' clock --file qadd.json \
	--owner o --issue 1 --expires 2026-12-20 --reason r $now

# Gate: a ledger id in a verdict line, a channel in an error.
printf '%s\n' '{"test": "t.py::test_a\u001b]0;PWNED\u0007\u202e", "outcome": "passed", "channels": []}' >base.jsonl
printf '%s\n' '{"test": "t.py::test_a\u001b]0;PWNED\u0007\u202e", "outcome": "passed", "channels": ["net"]}' >head.jsonl
printf '%s\n' '{"test": "t.py::b", "outcome": "passed", "channels": ["env:\u001b]52;c;SGVsbG8=\u0007"]}' >badch.jsonl
run gate "$FLAKESWEEP" gate base.jsonl head.jsonl
run gate-channel "$FLAKESWEEP" gate base.jsonl badch.jsonl

# Posting: a test id from the command line that is not in the results.
printf 'Fails.\n' >d.md
run post-missing "$FLAKESWEEP" report --results "$T/out/results.json" --test $'x\e]0;PWNED\a\xc2\x9b2J' \
	--description d.md --dry-run

[ $bad = 0 ] && echo "terminal: no control byte reached a terminal"
exit $bad
