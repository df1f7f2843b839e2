#!/bin/bash
# SPDX-License-Identifier: MIT
# The sharding examples under data/ parse and say what they mean: the
# Kubernetes Indexed Job and the GitHub Actions matrix are valid YAML of the
# right shape, their shells' scripts pass sh -n / bash -n, and run with a
# stand-in flakesweep on PATH they ask for the right shard (the index
# counted from 1, of as many shards as the job has) and turn the sweep's
# "tests failed" (exit 1) into success while an error (exit 2) still fails.
set -eu
python3 -c 'import yaml' 2>/dev/null || { echo "SKIP python3-yaml missing"; exit 77; }
for f in sweep.sbatch merge.sbatch; do bash -n "$CHECK_SRCDIR/data/slurm/$f"; done
stub=$CHECK_TMPDIR/bin
mkdir -p "$stub"
cat >"$stub/flakesweep" <<'SH'
#!/bin/sh
echo "$*" >>"$STUB_LOG"
exit "${STUB_RC:-1}"
SH
chmod +x "$stub/flakesweep"
export STUB_LOG=$CHECK_TMPDIR/calls PATH=$stub:$PATH
python3 - "$CHECK_SRCDIR/data" "$CHECK_TMPDIR" <<'PY'
import os, subprocess, sys, yaml
data, tmp = sys.argv[1], sys.argv[2]
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
def run(shell, script, env, rc):
    for syntax in ([shell, "-n", "-c", script],):
        check(subprocess.run(syntax).returncode == 0, "syntax of " + script[:40])
    open(os.environ["STUB_LOG"], "w").close()
    e = dict(os.environ, **env)
    got = subprocess.run([shell, "-c", script], env=e, cwd=tmp).returncode
    return got, open(os.environ["STUB_LOG"]).read()

job = yaml.safe_load(open(os.path.join(data, "kubernetes", "sweep-job.yaml")))
spec = job["spec"]
check(job["kind"] == "Job" and spec["completionMode"] == "Indexed", "an Indexed Job")
n = spec["completions"]
check(spec["parallelism"] == n, "every shard at once")
c = spec["template"]["spec"]["containers"][0]
env = {e["name"]: e["value"] for e in c["env"]}
check(env["SHARDS"] == str(n), "SHARDS equals completions")
script = c["command"][-1]
for rc_in, rc_out in ((1, 0), (0, 0), (2, 2)):
    got, calls = run("/bin/sh", script.replace("/out/", tmp + "/k8s/"),
                     dict(env, JOB_COMPLETION_INDEX="2", STUB_RC=str(rc_in)), rc_out)
    check(got == rc_out, "k8s: flakesweep exit %d gives %d, got %d" % (rc_in, rc_out, got))
    check("--shard 3/%d " % n in calls, "index 2 sweeps shard 3/%d: %s" % (n, calls))
merge = yaml.safe_load(open(os.path.join(data, "kubernetes", "merge-job.yaml")))
script = merge["spec"]["template"]["spec"]["containers"][0]["command"][-1]
got, calls = run("/bin/sh", script, {"STUB_RC": "1"}, 0)
check(got == 0 and calls.startswith("merge -o /out/merged"), "k8s merge: %d %s" % (got, calls))

wf = yaml.safe_load(open(os.path.join(data, "github-actions", "flakesweep-shards.yml")))
sweep, mergejob = wf["jobs"]["sweep"], wf["jobs"]["merge"]
shards = sweep["strategy"]["matrix"]["shard"]
check(shards == list(range(1, len(shards) + 1)), "matrix shards 1..N: %s" % shards)
check(mergejob["needs"] == "sweep", "merge needs the sweep")
step = [s for s in sweep["steps"] if s.get("name", "").startswith("Sweep shard")][0]
for shard in shards:
    script = step["run"].replace("${{ matrix.shard }}", str(shard))
    got, calls = run("/bin/bash", script, {"STUB_RC": "1"}, 0)
    check(got == 0 and "--shard %d/%d " % (shard, len(shards)) in calls,
          "GitHub Actions shard %d: %d %s" % (shard, got, calls))
step = [s for s in mergejob["steps"] if s.get("name") == "Merge"][0]
os.makedirs(os.path.join(tmp, "out", "merged"), exist_ok=True)
open(os.path.join(tmp, "out", "merged", "report.txt"), "w").write("report\n")
got, calls = run("/bin/bash", step["run"], {"STUB_RC": "2"}, 2)
check(got == 2 and calls.startswith("merge -o out/merged"), "a failed merge fails: %d" % got)
PY
echo ok
