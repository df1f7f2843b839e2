/* SPDX-License-Identifier: MIT */
/*
 * test-polluter.c: the polluter search against a fake package whose victim
 * fails whenever one of given tests runs before it: the probes it asks
 * for, in order, what it finds and how many runs it needs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/polluter.h"
#include "base/util.h"

static const char *const order[] = {"TestA", "TestB", "TestC", "TestD", "TestE"};

/* The fake package: the victim breaks after any test named in polluters
 * (a comma-separated list); the whole package under the failing seed
 * runs order with the victim after its first `before` tests, and fails
 * only when again is set. */
struct fake {
	const char *polluters;
	size_t before;
	bool again;
};

/* Whether test is one of f's polluters. */
static bool
fake_pollutes(const struct fake *f, const char *test)
{
	const char *at = strstr(f->polluters, test);

	return at != NULL && (at[strlen(test)] == ',' || at[strlen(test)] == '\0');
}

/* Runs a probe: the whole package or the selection, whose tests run in
 * the order given, then the victim (and its subtest). Appends the probe to
 * log as "A,B>V" or "*". */
static void
fake_probe(const struct fake *f, char *const *tests, struct buf *log, struct outcome *o)
{
	bool hit = false;
	size_t i;

	memset(o, 0, sizeof *o);
	if (tests == NULL) {
		buf_adds(log, "* ");
		for (i = 0; i <= 5; i++) {
			if (i == f->before) {
				outcome_add(o, xstrdup("TestVictim"), OUTCOME_PASS, NULL);
				outcome_add(o, xstrdup("TestVictim/quiet"),
				            f->again ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
			}
			if (i < 5)
				outcome_add(o, xstrdup(order[i]), OUTCOME_PASS, NULL);
		}
		return;
	}
	for (i = 0; tests[i + 1] != NULL; i++) {
		buf_printf(log, "%s%s", i > 0 ? "," : "", tests[i] + 4);
		outcome_add(o, xstrdup(tests[i]), OUTCOME_PASS, NULL);
		hit = hit || fake_pollutes(f, tests[i]);
	}
	buf_printf(log, ">%s ", tests[i]);
	outcome_add(o, xstrdup("TestVictim"), OUTCOME_PASS, NULL);
	outcome_add(o, xstrdup("TestVictim/quiet"), hit ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
}

/* The probes of a whole search; found gets the polluters it found, each
 * with its seed ("TestD@42"), *first the runs to the first, *runs all. */
static char *
search(const struct fake *f, char found[64], int64_t *first, int64_t *runs)
{
	struct polluter *p = polluter_new("TestVictim/quiet", "42", true);
	const char *name, *seed;
	char *const *tests;
	struct outcome o;
	struct buf log;
	size_t i, n = 0;

	buf_init(&log);
	buf_adds(&log, "");
	while (polluter_next(p, &tests)) {
		CHECK(polluter_seed(p) != NULL);
		fake_probe(f, tests, &log, &o);
		polluter_feed(p, &o);
		outcome_free(&o);
		CHECK(polluter_runs(p) < 30);
	}
	found[0] = '\0';
	for (i = 0; (name = polluter_nth(p, i, &seed)) != NULL; i++)
		n += (size_t)snprintf(found + n, 64 - n, "%s%s@%s", i > 0 ? " " : "", name,
		                      strcmp(seed, "42") == 0 ? "42" : "new");
	CHECK_INT(polluter_count(p), i);
	CHECK(i == 0 ? polluter_found(p) == NULL : strcmp(polluter_found(p), "TestA") >= 0);
	*first = polluter_first_runs(p);
	*runs = polluter_runs(p);
	polluter_free(p);
	return buf_steal(&log);
}

TEST(polluter_halves_the_tests_before_the_victim)
{
	struct fake f = {"TestD", 5, true};
	int64_t first, runs;
	char found[64];
	char *log;

	/* Replay, then A,B pass so C,D,E; C passes so D,E; D fails. E is
	 * still in doubt: it runs with the victim and passes. */
	log = search(&f, found, &first, &runs);
	CHECK_STR(log, "* A,B>TestVictim C>TestVictim D>TestVictim E>TestVictim ");
	CHECK_STR(found, "TestD@42");
	CHECK_INT(first, 4);
	CHECK_INT(runs, 5);
	free(log);
	/* The last test is taken without a probe, then confirmed alone with
	 * the victim; every other test was cleared on the way. */
	f.polluters = "TestE";
	log = search(&f, found, &first, &runs);
	CHECK_STR(log, "* A,B>TestVictim C>TestVictim D>TestVictim E>TestVictim ");
	CHECK_STR(found, "TestE@42");
	CHECK_INT(first, 5);
	CHECK_INT(runs, 5);
	free(log);
	/* A victim that passes every replay has no polluter to find. */
	f.again = false;
	log = search(&f, found, &first, &runs);
	CHECK_STR(log, "* * * ");
	CHECK_STR(found, "");
	CHECK_INT(runs, POLLUTER_REPLAYS);
	free(log);
	/* Two tests needed together: no single one breaks it. */
	f.polluters = "TestNone";
	f.again = true;
	log = search(&f, found, &first, &runs);
	CHECK_STR(found, "");
	CHECK_INT(first, 5);
	CHECK_INT(runs, 5);
	free(log);
}

TEST(polluter_names_every_polluter_of_a_victim)
{
	struct fake f = {"TestB,TestD", 5, true};
	int64_t first, runs;
	char found[64];
	char *log;

	/* Both ran before the victim under the failing seed: B is found by
	 * halving, then C, D, E (in doubt) fail together and are halved. */
	log = search(&f, found, &first, &runs);
	CHECK_STR(log, "* A,B>TestVictim A>TestVictim B>TestVictim C,D,E>TestVictim C>TestVictim "
	               "D>TestVictim E>TestVictim ");
	CHECK_STR(found, "TestB@42 TestD@42");
	CHECK_INT(first, 4);
	CHECK_INT(runs, 8);
	free(log);
	/* E ran after the victim under the failing seed: after B, and C
	 * cleared, D and E are probed under a new seed, and halved there. */
	f.polluters = "TestB,TestE";
	f.before = 3;
	log = search(&f, found, &first, &runs);
	CHECK_STR(log, "* A>TestVictim B>TestVictim C>TestVictim D,E>TestVictim D>TestVictim "
	               "E>TestVictim ");
	CHECK_STR(found, "TestB@42 TestE@new");
	CHECK_INT(first, 3);
	CHECK_INT(runs, 7);
	free(log);
	/* The failing run's tests before the victim are all cleared: the
	 * first polluter shows only under a new seed, and has that seed. */
	f.polluters = "TestE";
	log = search(&f, found, &first, &runs);
	CHECK_STR(log, "* A>TestVictim B>TestVictim C>TestVictim D,E>TestVictim D>TestVictim "
	               "E>TestVictim ");
	CHECK_STR(found, "TestE@new");
	CHECK_INT(first, 7);
	CHECK_INT(runs, 7);
	free(log);
	/* One polluter, and the tests after the victim cleared under a new
	 * seed: one probe more. */
	f.polluters = "TestB";
	log = search(&f, found, &first, &runs);
	CHECK_STR(log, "* A>TestVictim B>TestVictim C>TestVictim D,E>TestVictim ");
	CHECK_STR(found, "TestB@42");
	CHECK_INT(runs, 5);
	free(log);
}

/* Names with '/' that are no subtests (a pytest node id in a directory):
 * the victim is the whole name, and a test before it whose name holds a
 * '/' is a candidate. Runs: the victim fails after test_poll. */
TEST(polluter_names_with_slashes_are_whole_without_subtests)
{
	static const char *const names[] = {"tests/t.py::test_a", "tests/t.py::test_poll",
	                                    "tests/t.py::test_b"};
	const char *victim = "tests/t.py::test_victim";
	struct polluter *p = polluter_new(victim, "7", false);
	char *const *tests;
	struct outcome o;
	size_t i;

	while (polluter_next(p, &tests)) {
		bool hit = false;

		memset(&o, 0, sizeof o);
		for (i = 0; i < UTIL_ARRAY_LEN(names); i++) {
			bool chosen = tests == NULL;
			size_t j;

			for (j = 0; tests != NULL && tests[j] != NULL; j++)
				chosen = chosen || strcmp(tests[j], names[i]) == 0;
			if (!chosen)
				continue;
			outcome_add(&o, xstrdup(names[i]), OUTCOME_PASS, NULL);
			hit = hit || strcmp(names[i], "tests/t.py::test_poll") == 0;
		}
		outcome_add(&o, xstrdup(victim), hit ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
		polluter_feed(p, &o);
		outcome_free(&o);
		CHECK(polluter_runs(p) < 30);
	}
	CHECK(polluter_found(p) != NULL);
	CHECK_STR(polluter_found(p), "tests/t.py::test_poll");
	CHECK_INT(polluter_count(p), 1);
	polluter_free(p);
}
