/* SPDX-License-Identifier: MIT */
/*
 * test-canary.c: the canary program's TAP and the judgement of a canary
 * run parsed from it: what is expected of each kind, and the one
 * exception, a cores canary starved only of its CPU share while the host
 * was busy (noisy, not unexpected); the harness's counts, reasons and
 * JSON.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "drivers/parse-tap.h"
#include "engine/canary.h"
#include "results/harness.h"
#include "base/util.h"

/* Judges a canary run of kind that printed tap and exited status. */
static enum canary_verdict
judge(enum canary_kind kind, const char *tap, int status, double noise, char **why)
{
	struct parse_tap *p = parse_tap_new(NULL);
	struct proc_exit ex = {status, 0, false};
	struct outcome o;
	enum canary_verdict v;

	memset(&o, 0, sizeof o);
	parse_tap_feed(p, tap, strlen(tap));
	parse_tap_finish(p, &ex, &o);
	v = canary_judge(kind, &o, &ex, noise, why);
	outcome_free(&o);
	parse_tap_free(p);
	return v;
}

#define CORES_OK "1..4\nok 1 - affinity\nok 2 - count\nok 3 - cpu\n"
#define SHARE_LOW "not ok 4 - share\n# got 0.12 of 1 core(s) at load 1, less than 0.50\n"

TEST(canary_judges_each_kind)
{
	char *why;

	CHECK_INT(judge(CANARY_GREEN, "1..1\nok 1 - green\n", 0, 0, &why), CANARY_EXPECTED);
	CHECK(why == NULL);
	CHECK_INT(judge(CANARY_GREEN, "1..1\nnot ok 1 - green\n# asked to fail\n", 1, 0, &why),
	          CANARY_UNEXPECTED);
	CHECK_STR(why, "green: asked to fail");
	free(why);
	CHECK_INT(judge(CANARY_RED, "1..1\nnot ok 1 - red\n# fails by design\n", 1, 0, &why),
	          CANARY_EXPECTED);
	CHECK_INT(judge(CANARY_RED, "1..1\nok 1 - red\n", 0, 0, &why), CANARY_UNEXPECTED);
	CHECK_STR(why, "passed; it must fail every run");
	free(why);
	/* A red canary must fail by its one point, not by a broken stream. */
	CHECK_INT(judge(CANARY_RED, "1..2\nnot ok 1 - red\n", 1, 0, &why), CANARY_UNEXPECTED);
	free(why);
	CHECK_INT(judge(CANARY_CORES, CORES_OK "ok 4 - share\n", 0, 0.9, &why), CANARY_EXPECTED);
}

/* The share alone, on a busy host (noise at least 20%, or unmeasured), is
 * the host's doing; on a quiet one, or with any hard fact wrong, it is
 * the harness's. */
TEST(canary_cores_share_rule)
{
	char *why;

	CHECK_INT(judge(CANARY_CORES, CORES_OK SHARE_LOW, 1, 0.5, &why), CANARY_NOISY);
	CHECK_STR(why, "share: got 0.12 of 1 core(s) at load 1, less than 0.50");
	free(why);
	CHECK_INT(judge(CANARY_CORES, CORES_OK SHARE_LOW, 1, 0.2, &why), CANARY_NOISY);
	free(why);
	CHECK_INT(judge(CANARY_CORES, CORES_OK SHARE_LOW, 1, -1, &why), CANARY_NOISY);
	free(why);
	CHECK_INT(judge(CANARY_CORES, CORES_OK SHARE_LOW, 1, 0.05, &why), CANARY_UNEXPECTED);
	free(why);
	CHECK_INT(
	    judge(CANARY_CORES,
	          "1..4\nnot ok 1 - affinity\n# pinned to 2 core(s) 0,1; the lane assigned 1: "
	          "0\nok 2 - count\nok 3 - cpu\n" SHARE_LOW,
	          1, 0.9, &why),
	    CANARY_UNEXPECTED);
	CHECK_STR(why, "affinity: pinned to 2 core(s) 0,1; the lane assigned 1: 0; share: got 0.12 "
	               "of 1 core(s) at load 1, less than 0.50");
	free(why);
}

/* Runs the canary program into a string. */
static char *
run_canary(const struct canary_args *a, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f != NULL);
	*rc = canary_run(a, f);
	fclose(f);
	return text;
}

TEST(canary_program_and_its_faults)
{
	struct canary_args a = {CANARY_GREEN, 1, 1, NULL, 0, false, NULL};
	char *out, env[16];
	int rc, core;

	out = run_canary(&a, &rc);
	CHECK_STR(out, "1..1\nok 1 - green\n");
	CHECK_INT(rc, 0);
	free(out);
	a.fault = "cores,green";
	out = run_canary(&a, &rc);
	CHECK_STR(out, "1..1\nnot ok 1 - green\n# asked to fail\n");
	CHECK_INT(rc, 1);
	free(out);
	a.kind = CANARY_RED;
	a.fault = "greenish";
	out = run_canary(&a, &rc);
	CHECK_STR(out, "1..1\nnot ok 1 - red\n# fails by design\n");
	CHECK_INT(rc, 1);
	free(out);
	/* Pinned to one core, told one: the hard facts hold (the share
	 * depends on this host). */
	core = check_one_core();
	snprintf(env, sizeof env, "%d", 1);
	setenv("FLAKESWEEP_CPU", env, 1);
	a.kind = CANARY_CORES;
	a.cores = &core;
	a.ncores = 1;
	a.fault = NULL;
	out = run_canary(&a, &rc);
	CHECK(strncmp(out, "1..4\nok 1 - affinity\nok 2 - count\nok 3 - cpu\n", 44) == 0);
	free(out);
	a.fault = "cores";
	out = run_canary(&a, &rc);
	CHECK(strncmp(out, "1..4\nnot ok 1 - affinity\n# pinned to 1 core(s)", 45) == 0);
	CHECK_INT(rc, 1);
	free(out);
}

TEST(canary_harness_counts_and_json)
{
	struct harness h, back;
	const char *field;
	char *what, *text;
	cJSON *j, *bad;

	memset(&h, 0, sizeof h);
	h.on = true;
	h.budget = 1;
	harness_add_run(&h, "green", 1, 1, false, false, NULL, 1);
	harness_add_run(&h, "cores", 1, 1, false, true, "share: low", 2);
	harness_add_run(&h, "red", 1, 2, true, false, "passed; it must fail every run", 3);
	CHECK(!harness_clean(&h));
	text = harness_reasons_text(&h, "  ");
	CHECK_STR(text,
	          "  red canary at cpu 1 load 2 (canary run 3): passed; it must fail every run\n");
	free(text);
	j = harness_to_json(&h);
	CHECK_INT(harness_from_json(&back, j, &field, &what), 0);
	CHECK_INT(back.ncells, 3);
	CHECK_INT(back.cells[1].noisy, 1);
	CHECK_INT(back.unexpected, 1);
	CHECK_STR(back.reasons[0], h.reasons[0]);
	harness_free(&back);
	/* Not clean without a reason is no harness this writes. */
	bad = cJSON_Duplicate(j, 1);
	cJSON_ReplaceItemInObject(bad, "reasons", cJSON_CreateArray());
	CHECK(harness_from_json(&back, bad, &field, &what) < 0);
	CHECK_STR(field, "reasons");
	CHECK_STR(what, "expected a reason when clean is false");
	free(what);
	harness_free(&back);
	cJSON_Delete(bad);
	cJSON_Delete(j);
	harness_free(&h);
	CHECK(harness_clean(&h));
}

/* Makes path an executable file (or, with mode 0644, a plain one). */
static void
touch_mode(const char *path, mode_t mode)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	fclose(f);
	CHECK_INT(chmod(path, mode), 0);
}

/* The canary runs' program: flakesweep-canary beside flakesweep (a build
 * tree), else the installed one's in its library directory, else
 * flakesweep itself. */
TEST(canary_program_beside_installed_or_self)
{
	const char *t = check_tmpdir();
	char *build = xasprintf("%s/build", t), *bin = xasprintf("%s/bin", t);
	char *lib = xasprintf("%s/lib", t), *exe, *got, *want;

	CHECK_INT(mkdir(build, 0755), 0);
	CHECK_INT(mkdir(bin, 0755), 0);
	CHECK_INT(mkdir(lib, 0755), 0);
	/* A build tree: the one beside it. */
	exe = xasprintf("%s/flakesweep", build);
	touch_mode(exe, 0755);
	want = xasprintf("%s/flakesweep-canary", build);
	touch_mode(want, 0755);
	got = canary_program_for(exe, bin, lib);
	CHECK_STR(got, want);
	free(got);
	/* Not executable: flakesweep itself. */
	CHECK_INT(chmod(want, 0644), 0);
	got = canary_program_for(exe, bin, lib);
	CHECK_STR(got, exe);
	free(got);
	free(want);
	/* A build tree never takes an installed one. */
	want = xasprintf("%s/flakesweep-canary", lib);
	touch_mode(want, 0755);
	got = canary_program_for(exe, bin, lib);
	CHECK_STR(got, exe);
	free(got);
	free(exe);
	/* Installed in bindir: the one in the library directory. */
	exe = xasprintf("%s/flakesweep", bin);
	touch_mode(exe, 0755);
	got = canary_program_for(exe, bin, lib);
	CHECK_STR(got, want);
	free(got);
	/* Without one there: flakesweep itself. */
	CHECK_INT(unlink(want), 0);
	got = canary_program_for(exe, bin, lib);
	CHECK_STR(got, exe);
	free(got);
	free(want);
	free(exe);
	free(build);
	free(bin);
	free(lib);
}
