#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# --resume takes everything from the journal's header: a TAP sweep gets its
# command back, a Go sweep killed while building discovers the recorded
# packages in the recorded project root (not ./... of the current
# directory), and a damaged header is refused naming the file, line 1 and
# the field, before anything runs. A sweep whose kept-back cores and widest
# run need more cores than this machine lets it use is refused, naming both.
set -eu
work=$CHECK_TMPDIR/work
mkdir -p "$work"
cd "$CHECK_TMPDIR"

# -- A TAP sweep interrupted after its first runs resumes with its command.
cat >"$work/t.sh" <<'SH'
#!/bin/sh
echo "1..2"
echo "ok 1 - alpha"
echo "ok 2 - beta"
SH
chmod +x "$work/t.sh"
tap=$CHECK_TMPDIR/tap
(cd "$work" && "$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 6 --confirm 0 --ui none \
	-o "$tap" -- ./t.sh >/dev/null)
# Keep the header, the build line and two runs: the sweep "died" there.
python3 - "$tap/journal.jsonl" <<'PY'
import json, sys
path = sys.argv[1]
lines = open(path).read().splitlines()
keep, runs = [], 0
for l in lines:
    t = json.loads(l)["type"]
    if t == "run":
        runs += 1
        if runs > 2:
            continue
    if t in ("end", "phase") and runs > 0:
        continue
    keep.append(l)
open(path, "w").write("\n".join(keep) + "\n")
PY
rc=0
"$FLAKESWEEP" --resume "$tap" --ui none >"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" || rc=$?
cat "$CHECK_TMPDIR/stderr"
[ "$rc" = 0 ] || { echo "tap resume: exit status $rc, expected 0"; exit 1; }
python3 - "$tap" <<'PY'
import json, os, sys
d = json.load(open(os.path.join(sys.argv[1], "results.json")))
assert d["status"] == "complete", d["status"]
assert d["summary"]["runs"] == 6, d["summary"]
assert d["config"]["command"] == ["./t.sh"], d["config"]["command"]
print("ok: tap resume ran the 4 runs left with ./t.sh")
PY

# -- A Go sweep killed while building: only the header was written.
if command -v go >/dev/null; then
	gw=$CHECK_TMPDIR/gomod
	cp -r "$CHECK_SRCDIR/tests/fixtures/gomod" "$gw"
	mkdir -p "$gw/extra"
	printf 'package extra\n\nimport "testing"\n\nfunc TestExtra(t *testing.T) {}\n' \
		>"$gw/extra/extra_test.go"
	gout=$CHECK_TMPDIR/gout
	mkdir -p "$gout"
	cat >"$gout/journal.jsonl" <<JSON
{"type":"header","schema":"flakesweep/journal/v1","started":"2026-12-01T10:00:00Z","config":{"cpu":[1],"load":[1],"count":2,"confirm":0,"timeout_ms":30000,"kill_grace_ms":30000,"shuffle":false,"run":null,"skip":null,"levels":[],"tags":null,"race":false,"isolate_net":false,"quarantine":null,"build_tags":null,"driver":"go","packages":["."],"command":[]},"machine":{"cores":1,"keep":0,"lanes":[[0]]},"project":{"driver":"go","root":"$gw","commit":null,"toolchain":null,"origin":null}}
JSON
	rc=0
	"$FLAKESWEEP" --resume "$gout" --ui none >"$CHECK_TMPDIR/stdout" 2>"$CHECK_TMPDIR/stderr" ||
		rc=$?
	cat "$CHECK_TMPDIR/stderr"
	[ "$rc" = 0 ] || { echo "go resume: exit status $rc, expected 0"; exit 1; }
	python3 - "$gout" <<'PY'
import json, os, sys
d = json.load(open(os.path.join(sys.argv[1], "results.json")))
pkgs = [p["package"] for p in d["packages"]]
assert pkgs == ["example.com/fixture"], pkgs
assert d["summary"]["runs"] == 2, d["summary"]
print("ok: go resume swept the recorded package in the recorded root")
PY
else
	echo "# no go: the Go half is skipped"
fi

# -- A sweep that kept a core back, resumed where flakesweep may use one core
# (taskset), is refused naming what its header asks and what this machine
# has, before anything runs; --keep 0 --force resumes it on that one core.
one=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
kout=$CHECK_TMPDIR/kout
mkdir -p "$kout"
cat >"$kout/journal.jsonl" <<JSON
{"type":"header","schema":"flakesweep/journal/v1","started":"2026-12-01T10:00:00Z","config":{"cpu":[1],"load":[1],"count":2,"confirm":0,"timeout_ms":30000,"kill_grace_ms":30000,"shuffle":false,"run":null,"skip":null,"levels":["unit"],"tags":null,"race":false,"isolate_net":false,"tap_select":"arg","quarantine":null,"build_tags":null,"driver":"tap","packages":[],"command":["./t.sh"]},"machine":{"cores":2,"keep":1,"lanes":[[1]]},"project":{"driver":"tap","root":"$work","commit":null,"toolchain":null,"origin":null}}
JSON
cp "$kout/journal.jsonl" "$CHECK_TMPDIR/kjournal"
rc=0
taskset -c "$one" "$FLAKESWEEP" --resume "$kout" --ui none >/dev/null 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ "$rc" = 2 ] || { echo "keep resume: exit status $rc, expected 2"; cat "$CHECK_TMPDIR/stderr"; exit 1; }
want="flakesweep: $kout was swept with --keep 1 and runs up to --cpu 1, 2 cores in all, and flakesweep may use 1 here: resume it where it may use 2, or keep fewer cores back with --keep 0 --force"
got=$(cat "$CHECK_TMPDIR/stderr")
[ "$got" = "$want" ] || { printf 'keep resume: got\n%s\nwant\n%s\n' "$got" "$want"; exit 1; }
[ ! -e "$kout/runs" ] || { echo "keep resume: the refused resume created $kout/runs"; exit 1; }
cmp -s "$kout/journal.jsonl" "$CHECK_TMPDIR/kjournal" ||
	{ echo "keep resume: the refused resume changed the journal"; exit 1; }
rc=0
taskset -c "$one" "$FLAKESWEEP" --resume "$kout" --keep 0 --force --ui none >/dev/null \
	2>"$CHECK_TMPDIR/stderr" || rc=$?
[ "$rc" = 0 ] || { echo "keep 0 resume: exit status $rc, expected 0"; cat "$CHECK_TMPDIR/stderr"; exit 1; }
python3 - "$kout" <<'PY'
import json, os, sys
d = json.load(open(os.path.join(sys.argv[1], "results.json")))
assert d["status"] == "complete", d["status"]
assert d["summary"]["runs"] == 2, d["summary"]
print("ok: a resume short of cores is refused; --keep 0 --force runs it")
PY

# -- Damaged headers are refused with file:line: field.
bad() {
	local dir=$CHECK_TMPDIR/bad-$1 want=$3 rc=0
	mkdir -p "$dir"
	printf '%s\n' "$2" >"$dir/journal.jsonl"
	"$FLAKESWEEP" --resume "$dir" --ui none >/dev/null 2>"$CHECK_TMPDIR/stderr" || rc=$?
	[ "$rc" = 2 ] || { echo "$1: exit status $rc, expected 2"; exit 1; }
	got=$(cat "$CHECK_TMPDIR/stderr")
	[ "$got" = "flakesweep: $dir/journal.jsonl:1: $want" ] ||
		{ printf '%s: got\n%s\nwant\nflakesweep: %s\n' "$1" "$got" "$dir/journal.jsonl:1: $want"; exit 1; }
	[ ! -e "$dir/runs" ] || { echo "$1: the refused resume created $dir/runs"; exit 1; }
}
cfg='"cpu":[1],"load":[1],"count":2,"confirm":0,"driver":"go","packages":[],"command":[]'
hdr='{"type":"header","schema":"flakesweep/journal/v1","started":"2026-12-01T10:00:00Z"'
bad schema '{"type":"header","schema":"flakesweep/journal/v999","config":{'"$cfg"'}}' \
	'schema: "flakesweep/journal/v999" is not a journal this flakesweep reads (expected flakesweep/journal/v1)'
bad count "$hdr"',"config":{'"${cfg/\"count\":2/\"count\":-7}"'}}' \
	'config.count: expected a positive whole number, at most 100000000'
bad cpu "$hdr"',"config":{'"${cfg/\"cpu\":\[1\]/\"cpu\":[0]}"'}}' \
	'config.cpu: expected a comma-separated list of positive numbers'
bad config "$hdr"',"config":null}' 'config: expected an object'
bad tap "$hdr"',"config":{'"${cfg/\"driver\":\"go\"/\"driver\":\"tap\"}"'}}' \
	'config.command: expected the command after --'
echo "ok: damaged headers refused"
