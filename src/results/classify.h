/* SPDX-License-Identifier: MIT */
/*
 * classify.h: the class of a flaky test (man 1 flakesweep, Classes), from
 * the causes flakesweep computed, checked in this order: isolation-broken
 * (a canary misbehaved: nothing else can be trusted), harness-bug
 * (interference, host noise, a load episode or debris: the environment,
 * not the test's
 * code), race (its failures pile up at a cpu count or a load, and it fails
 * there also without company: in a run no other run of its package
 * overlapped), test-flake
 * (fails alike everywhere, alone or not, or only after a named polluter),
 * else unexplained. A cascade takes its root's class. The class also says
 * which quarantine channel it allows. It reads struct results and the
 * causes only; no I/O.
 */
#ifndef FLAKESWEEP_CLASSIFY_H
#define FLAKESWEEP_CLASSIFY_H

#include <stddef.h>

#include "results/causes.h"
#include "results/results.h"

enum classify_class {
	CLASSIFY_NONE, /* not flaky: no class */
	CLASSIFY_ISOLATION_BROKEN,
	CLASSIFY_HARNESS_BUG,
	CLASSIFY_RACE,
	CLASSIFY_TEST_FLAKE,
	CLASSIFY_UNEXPLAINED,
};

/* The largest channel text classify_test writes ("cpu=C,load=L"). */
#define CLASSIFY_CHANNEL_MAX 48

/* The class of r->tests[i] (c: causes_new of r), CLASSIFY_NONE unless its
 * verdict is flaky or cascade. channel (CLASSIFY_CHANNEL_MAX bytes) gets
 * the quarantine channel the class allows: "any" for a test-flake, the
 * cpu count, load or pair a race fails at ("cpu=2", "load=2",
 * "cpu=2,load=2"), "" for the others. */
enum classify_class classify_test(const struct results *r, const struct causes *c, size_t i,
                                  char *channel);

struct jsonw;

/* Writes results.json's tests[].class and tests[].class_channel of
 * r->tests[i] (man 5 flakesweep): the class name and the channel it
 * allows, each null when there is none. */
void classify_write(struct jsonw *w, const struct results *r, const struct causes *c, size_t i);

/* "isolation-broken", "harness-bug", "race", "test-flake", "unexplained"
 * (the results.json values, not translated), or NULL for CLASSIFY_NONE. */
const char *classify_name(enum classify_class k);

/* The class a name names, or CLASSIFY_NONE when it names none. */
enum classify_class classify_parse(const char *name);

/* What to do about a test of class k instead of quarantining it on a
 * channel the class does not allow, translated. */
const char *classify_advice(enum classify_class k);

#endif
