/* SPDX-License-Identifier: MIT */
/*
 * test-polluter.c: the polluter search against a fake package whose victim
 * fails whenever one given test runs before it: the probes it asks for, in
 * order, and how many runs it needs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/polluter.h"
#include "base/util.h"

static const char *const order[] = {"TestA", "TestB", "TestC", "TestD", "TestE"};

/* Runs a probe: the whole package (every test of order, then the victim's
 * subtest) or the selection; the victim fails when polluter ran before it
 * and again is set. Appends the probe to log as "A,B>V" or "*". */
static void
fake_probe(char *const *tests, const char *polluter, bool again, struct buf *log, struct outcome *o)
{
	bool hit = false;
	size_t i;

	memset(o, 0, sizeof *o);
	if (tests == NULL) {
		buf_adds(log, "* ");
		for (i = 0; i < 5; i++)
			outcome_add(o, xstrdup(order[i]), OUTCOME_PASS, NULL);
		hit = again;
	} else {
		for (i = 0; tests[i + 1] != NULL; i++) {
			buf_printf(log, "%s%s", i > 0 ? "," : "", tests[i] + 4);
			outcome_add(o, xstrdup(tests[i]), OUTCOME_PASS, NULL);
			hit = hit || strcmp(tests[i], polluter) == 0;
		}
		buf_printf(log, ">%s ", tests[i]);
	}
	outcome_add(o, xstrdup("TestVictim"), OUTCOME_PASS, NULL);
	outcome_add(o, xstrdup("TestVictim/quiet"), hit ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
}

/* The probes of a whole search and what it found. */
static char *
search(const char *polluter, bool again, char found[16], int64_t *runs)
{
	struct polluter *p = polluter_new("TestVictim/quiet", "42");
	char *const *tests;
	struct outcome o;
	struct buf log;

	buf_init(&log);
	buf_adds(&log, "");
	while (polluter_next(p, &tests)) {
		fake_probe(tests, polluter, again, &log, &o);
		polluter_feed(p, &o);
		outcome_free(&o);
		CHECK(polluter_runs(p) < 20);
	}
	snprintf(found, 16, "%s", polluter_found(p) != NULL ? polluter_found(p) : "-");
	*runs = polluter_runs(p);
	polluter_free(p);
	return buf_steal(&log);
}

TEST(polluter_halves_the_tests_before_the_victim)
{
	char found[16];
	int64_t runs;
	char *log;

	/* Replay, then A,B pass so C,D,E; C passes so D,E; D fails. */
	log = search("TestD", true, found, &runs);
	CHECK_STR(log, "* A,B>TestVictim C>TestVictim D>TestVictim ");
	CHECK_STR(found, "TestD");
	CHECK_INT(runs, 4);
	free(log);
	/* The last test is taken without a probe, then confirmed alone with
	 * the victim. */
	log = search("TestE", true, found, &runs);
	CHECK_STR(log, "* A,B>TestVictim C>TestVictim D>TestVictim E>TestVictim ");
	CHECK_STR(found, "TestE");
	CHECK_INT(runs, 5);
	free(log);
	/* A victim that passes every replay has no polluter to find. */
	log = search("TestD", false, found, &runs);
	CHECK_STR(log, "* * * ");
	CHECK_STR(found, "-");
	CHECK_INT(runs, POLLUTER_REPLAYS);
	free(log);
	/* Two tests needed together: no single one breaks it. */
	log = search("TestNone", true, found, &runs);
	CHECK_STR(found, "-");
	CHECK_INT(runs, 5);
	free(log);
}
