#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# The canaries: a sweep whose canary misbehaves (FLAKESWEEP_CANARY_FAULT,
# read by the canary subcommand) leads its report with the reasons, exits
# 2, records them in results.json (rebuilt the same from the journal), and
# `report` refuses to post from it; the project's own counts are
# untouched. The canary subcommand is not in the usage text.
set -eu
T=$CHECK_TMPDIR
cat >"$T/t.sh" <<'SH'
#!/bin/sh
echo 1..2
echo ok 1 - a
echo ok 2 - b
SH
chmod +x "$T/t.sh"

# sweep KIND: a sweep whose KIND canaries misbehave, into $T/out-KIND.
sweep() {
	rc=0
	FLAKESWEEP_CANARY_FAULT=$1 "$FLAKESWEEP" --driver tap --cpu 1 --load 1,2 --count 3 \
		--confirm 0 --ui none -o "$T/out-$1" -- "$T/t.sh" \
		>"$T/stdout-$1" 2>"$T/stderr-$1" || rc=$?
	[ "$rc" = 2 ] || { echo "$1: exit status $rc, expected 2"; cat "$T/stderr-$1"; exit 1; }
}
sweep red
sweep cores

# The report leads with the reasons, one per misbehaving canary run.
head -n 4 "$T/stdout-red" >"$T/head"
cat >"$T/want" <<'TXT'
HARNESS NOT CLEAN: flakesweep's own canaries misbehaved, so nothing below can be trusted:
  red canary at cpu 1 load 1 (canary run N): passed; it must fail every run
  red canary at cpu 1 load 2 (canary run N): passed; it must fail every run

TXT
# Which pair's canaries run first depends on the lanes: the order and
# the run numbers are not compared.
sed -i 's/(canary run [0-9]*)/(canary run N)/' "$T/head"
{ sed -n 1p "$T/head"; sed -n 2,3p "$T/head" | sort; sed -n 4p "$T/head"; } >"$T/got"
diff -u "$T/want" "$T/got"
grep -qx 'flakesweep report (complete)' "$T/stdout-red"

python3 - "$T" <<'PY'
import json, os, sys
T = sys.argv[1]
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
for kind, why in (("red", "passed; it must fail every run"), ("cores", "affinity: pinned to 1 core(s)")):
    d = json.load(open(os.path.join(T, "out-" + kind, "results.json")))
    h = d["harness"]
    check(h["clean"] is False, kind + ": not clean")
    check(len(h["reasons"]) == 2 and all(why in r for r in h["reasons"]), kind + ": reasons %s" % h["reasons"])
    bad = sorted((c["kind"], c["load"], c["runs"], c["unexpected"]) for c in h["canaries"])
    want = sorted((k, l, 1, 1 if k == kind else 0) for k in ("cores", "green", "red") for l in (1, 2))
    check(bad == want, kind + ": canaries %s" % bad)
    # The project's counts: 2 pairs x 3 runs, two passing tests.
    check(d["summary"]["runs"] == 6 and d["summary"]["passed"] == 2, kind + ": summary")
    logs = sorted(os.listdir(os.path.join(T, "out-" + kind, "runs")))
    check(len(logs) == 2 and all(l.startswith("canary-") for l in logs), kind + ": logs %s" % logs)
print("ok: unclean harness recorded")
PY

# The journal alone gives the same harness, and the same exit status.
cp "$T/out-red/results.json" "$T/live.json"
rc=0
"$FLAKESWEEP" report --rebuild "$T/out-red" || rc=$?
[ "$rc" = 2 ] || { echo "rebuild exit status $rc, expected 2"; exit 1; }
python3 - "$T/live.json" "$T/out-red/results.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
if a["harness"] != b["harness"]:
    print("FAIL: rebuilt harness differs:", a["harness"], b["harness"]); sys.exit(1)
print("ok: rebuilt harness matches")
PY

# Posting refuses, naming the first reason; nothing is drafted.
echo "It fails." >"$T/desc.md"
rc=0
"$FLAKESWEEP" report --results "$T/out-red/results.json" --test './t.sh::a' \
	--description "$T/desc.md" --dry-run >"$T/post.out" 2>"$T/post.err" || rc=$?
[ "$rc" = 2 ] || { echo "report exit status $rc, expected 2"; cat "$T/post.err"; exit 1; }
[ ! -s "$T/post.out" ] || { echo "report drafted:"; cat "$T/post.out"; exit 1; }
grep -q "results.json: the harness is not clean, so its results are not posted: red canary at cpu 1 load [12] (canary run [0-9]*): passed; it must fail every run$" "$T/post.err" ||
	{ echo "refusal:"; cat "$T/post.err"; exit 1; }

# Hidden: the usage names the budget option, never the subcommand.
"$FLAKESWEEP" --help >"$T/help"
grep -q -- '--canaries PERCENT' "$T/help"
! grep -q 'flakesweep canary' "$T/help"
echo "ok: exit 2, report leads, rebuild matches, posting refused"
