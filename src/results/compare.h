/* SPDX-License-Identifier: MIT */
/*
 * compare.h: did a fix work? Compares the failure rates of every test in
 * two results (any mix of sweeps, confirms and merges) pair by pair, with
 * Fisher's exact test and a Benjamini-Hochberg control across every pair
 * of every test, and gives each test one verdict (man 1 flakesweep,
 * COMPARE). It reads no file and prints nothing; the compare command does.
 */
#ifndef FLAKESWEEP_COMPARE_H
#define FLAKESWEEP_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/bandaid.h"

struct results;
struct cJSON;

enum compare_verdict {
	COMPARE_FIXED,        /* significantly lower and below the level */
	COMPARE_RARER,        /* significantly lower, still above the level */
	COMPARE_UNCHANGED,    /* the same rate within the margin, or passed both times */
	COMPARE_WORSE,        /* significantly higher */
	COMPARE_NEW,          /* fails only after */
	COMPARE_INCONCLUSIVE, /* the runs cannot tell */
	COMPARE_NOT_RUN,      /* after has no run of it */
	/* Fixed, rarer or inconclusive by the rates, through band-aids only
	 * (bandaid.h): no synchronisation was added. */
	COMPARE_MASKED,
	COMPARE_SKIPPED, /* the change skips the test or renames it out of collection */
};

/* The number of verdicts, for arrays counted by verdict. */
#define COMPARE_VERDICTS (COMPARE_SKIPPED + 1)

struct compare_options {
	double alpha;  /* false discovery rate across all pairs (0.05) */
	double level;  /* fixed means after's upper bound is below this rate;
	                * negative: a tenth of before's lower bound at the pair */
	double margin; /* unchanged means the difference is within this share
	                * of before's rate (0.2) */
};

/* The runs and failures (hangs included) of a test at one pair, over its
 * sweep and confirm cells. */
struct compare_counts {
	int64_t runs, failures;
};

struct compare_pair {
	int cpu, load;
	struct compare_counts before, after;
	double p_lower;  /* one-sided Fisher p-value: after's rate is lower */
	double p_higher; /* one-sided: after's rate is higher */
	double q;        /* BH-adjusted p-value of the two-sided question */
	double level;    /* the rate fixed must be under at this pair */
	enum compare_verdict verdict;
	/* For INCONCLUSIVE: runs after the fix, all passing, that would show it
	 * fixed at this pair; 0 otherwise. */
	int64_t runs_needed;
	bool compared; /* measured on both sides (or failing only after) */
};

struct compare_test {
	char *id;
	struct compare_pair *pairs;
	int npairs;
	int decisive; /* index of the pair that decided the verdict, or -1 */
	enum compare_verdict verdict;
	int64_t runs_needed;
	/* With band-aids looked for (compare_set_bandaids): those found, and
	 * the verdict the rates gave before they made it masked or skipped. */
	bool checked;
	struct bandaid_list bandaids;
	enum compare_verdict measured;
	/* Its package's median run time (ms) at the decisive pair on both
	 * sides, when known (compare-duration.h). */
	struct {
		bool known;
		int64_t before_ms, after_ms;
	} duration;
};

struct compare {
	struct compare_options opts;
	struct compare_test *tests; /* sorted by id */
	size_t ntests;
};

/* Defaults: alpha 0.05, level a tenth of before's lower bound, margin 0.2. */
void compare_options_default(struct compare_options *o);

/* Compares every test of before and after (borrowed; neither is kept). */
struct compare *compare_new(const struct results *before, const struct results *after,
                            const struct compare_options *opts);
void compare_free(struct compare *c);

/* Gives the test with this id the band-aids l names (taking what l holds;
 * l is zeroed): skipped when one skips the test or renames it, masked when
 * the rates say fixed, rarer or inconclusive and no synchronisation was
 * added. A test c lacks frees l. */
void compare_set_bandaids(struct compare *c, const char *id, struct bandaid_list *l);

/* t's band-aids as a JSON array of {kind, file, line, text} (compare's
 * tests[].bandaids[]). Caller frees with cJSON_Delete. */
struct cJSON *compare_bandaids_json(const struct compare_test *t);

/* The test with this id, or NULL. */
const struct compare_test *compare_find(const struct compare *c, const char *id);

const char *compare_verdict_name(enum compare_verdict v);

/* The comparison as JSON, schema flakesweep/compare/v1 (man 5 flakesweep);
 * before and after are the paths shown in it. Caller frees with
 * cJSON_Delete. */
struct cJSON *compare_to_json(const struct compare *c, const char *before, const char *after);

/* The comparison for people (man 1 flakesweep, COMPARE): one line per test
 * (verdict, id sanitised for a terminal, the decisive pair, before's and
 * after's failures over runs with rates, the runs that would settle an
 * inconclusive test), then a summary line. With nids > 0 only the tests
 * named in ids are shown (a name that neither side has shows as missing).
 * Caller frees. */
char *compare_to_text(const struct compare *c, char *const *ids, size_t nids);

/* The tests before ran that after ran too; *nbefore gets the tests before
 * ran. */
size_t compare_ran_after(const struct compare *c, size_t *nbefore);

/* The exit status of the compare command: 2 when after ran none of the
 * tests before ran (there were some); else 0 when every test in ids is
 * fixed (nids > 0) or, with no ids, when no test is worse or new; 1
 * otherwise. */
int compare_exit_status(const struct compare *c, char *const *ids, size_t nids);

#endif
