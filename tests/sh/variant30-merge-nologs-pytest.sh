#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# merge of pytest shards where one kept log among several is missing and
# another is a symbolic link (flakesweep(1), merge): "Only a log that is a
# regular file inside its shard's directory is carried: a symbolic link
# ..., or a log that is missing (a shard copied without its runs/) is
# skipped with a warning on standard error naming it, and its run line
# loses its log"; the kept logs of runs are "linked or copied into
# out/runs under their new numbers"; "Its journal is the shards' journals
# part by part, each part behind a provenance line"; the exit status "0,
# 1 when a test failed or hung". flakesweep(5), part: "dir The shard's
# output directory, absolute".
# Five test files (one package each), four with a failing test, swept as
# shards 1/2 and 2/2 (--shard), both of which hold a failing file. In a
# copy of each shard one kept log is spoilt: removed in one, replaced by a
# symbolic link to a copy of itself in the other. The merge of the copies
# warns of those two only, their run lines alone lose their log, and every
# other log is carried with the shard's bytes; the merge of the shards as
# they were carries every log and warns of none.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
export FLAKESWEEP_PYTHON=$py FLAKESWEEP_DATADIR=$CHECK_SRCDIR/data PYTHONDONTWRITEBYTECODE=1
unset PYTEST_ADDOPTS PYTHONPATH
T=$CHECK_TMPDIR
mkdir -p "$T/proj"
cd "$T/proj"
for n in alpha beta gamma delta; do
	printf 'def test_%s_ok():\n    pass\n\n\ndef test_%s_bad():\n    assert False, "%s broke"\n' \
		"$n" "$n" "$n" >"test_$n.py"
done
printf 'def test_fine():\n    pass\n' >test_fine.py
for i in 1 2; do
	rc=0
	"$FLAKESWEEP" --driver pytest --shard "$i/2" --cpu 1 --load 1 --count 2 --confirm 0 \
		--canaries 0 --timeout 30s --ui none -o "$T/s$i" >/dev/null 2>"$T/err$i" || rc=$?
	[ "$rc" = 1 ] || { cat "$T/err$i"; echo "FAIL: shard $i/2: exit $rc, expected 1"; exit 1; }
done
cd "$T"
rc=0
"$FLAKESWEEP" merge -o whole s1 s2 >whole.out 2>whole.err || rc=$?
[ "$rc" = 1 ] || { cat whole.err; echo "FAIL: merge of the shards: exit $rc, expected 1"; exit 1; }
cp -r s1 c1
cp -r s2 c2
# c1 loses the log of its last failing run, c2's first becomes a link.
gone=$(grep -o '"log":"runs/[0-9]*\.log"' c1/journal.jsonl | tail -n 1 | cut -d'"' -f4)
linked=$(grep -o '"log":"runs/[0-9]*\.log"' c2/journal.jsonl | head -n 1 | cut -d'"' -f4)
[ -n "$gone" ] && [ -n "$linked" ] || { echo "FAIL: a shard kept no log: '$gone' '$linked'"; exit 1; }
rm "c1/$gone"
cp "c2/$linked" elsewhere.log
ln -sf "$T/elsewhere.log" "c2/$linked"
rc=0
"$FLAKESWEEP" merge -o spoilt c1 c2 >spoilt.out 2>spoilt.err || rc=$?
[ "$rc" = 1 ] || { cat spoilt.err; echo "FAIL: merge of the copies: exit $rc, expected 1"; exit 1; }

"$py" - "c1/$gone" "c2/$linked" <<'PY'
import json, os, sys
skipped = set(sys.argv[1:])
bad = []
def lines(d):
    return [json.loads(l) for l in open(os.path.join(d, "journal.jsonl"))]
def parts(d):
    """The merge's run lines by the shard directory of their part."""
    out, cur = {}, None
    for o in lines(d):
        if o["type"] == "part":
            cur = os.path.basename(o["dir"])
            out[cur] = []
        elif o["type"] == "run":
            out[cur].append(o)
    return out
for d, shards, expect in (("whole", ("s1", "s2"), set()), ("spoilt", ("c1", "c2"), skipped)):
    err = [l for l in open(d + ".err").read().splitlines() if "runs/" in l]
    for name in expect:
        if not any(name in l for l in err):
            bad.append("%s: no warning names %s: %s" % (d, name, err))
    if len(err) != len(expect):
        bad.append("%s: %d warnings of a log, expected %d: %s" % (d, len(err), len(expect), err))
    got = parts(d)
    if sorted(got) != sorted(shards):
        bad.append("%s: parts %s" % (d, sorted(got)))
        continue
    nlogs = 0
    for s in shards:
        mine = [o for o in lines(s) if o["type"] == "run"]
        if len(got[s]) != len(mine):
            bad.append("%s: %d runs from %s, which has %d" % (d, len(got[s]), s, len(mine)))
        for r, o in zip(got[s], mine):
            if r.get("fail") != o.get("fail") or r.get("began") != o.get("began"):
                bad.append("%s: run %d is not %s's run %d" % (d, r["run"], s, o["run"]))
            if "log" not in o:
                continue
            if s + "/" + o["log"] in expect:
                if "log" in r:
                    bad.append("%s: run %d keeps log %s of %s/%s" % (d, r["run"], r["log"], s, o["log"]))
                continue
            nlogs += 1
            want = open(os.path.join(s, o["log"]), "rb").read()
            path = os.path.join(d, r.get("log", "?"))
            if r.get("log") != "runs/%d.log" % r["run"] or not os.path.isfile(path) \
                    or os.path.islink(path) or open(path, "rb").read() != want:
                bad.append("%s: run %d: log %s is not %s/%s" % (d, r["run"], r.get("log"), s, o["log"]))
    carried = sorted(os.listdir(os.path.join(d, "runs")))
    if len(carried) != nlogs:
        bad.append("%s: runs/ holds %s, expected %d logs" % (d, carried, nlogs))
w = json.load(open("whole/results.json"))
s = json.load(open("spoilt/results.json"))
if w["summary"] != s["summary"]:
    bad.append("summary %s spoilt, %s whole" % (s["summary"], w["summary"]))
failing = sorted(t["test"] for t in s["tests"] if t["verdict"] == "failing")
if failing != ["test_%s.py::test_%s_bad" % (n, n) for n in ("alpha", "beta", "delta", "gamma")]:
    bad.append("failing tests %s" % failing)
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
