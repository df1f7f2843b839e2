/* SPDX-License-Identifier: MIT */
/*
 * quarantine-class.c: the quarantine a class allows. A race is allowed
 * only on its failing channel, compared as parsed channels so "cpu=2" and
 * a channel written the same way match; anything else is refused with the
 * class's own advice. It never reads or writes the file.
 */
#include "config.h"

#include <stdlib.h>

#include "decisions/quarantine-class.h"
#include "decisions/quarantine.h"

/* Whether channels a and b name the same runs. */
static bool
quarantine_class_same(const char *a, const char *b)
{
	struct quarantine_channel x, y;

	return quarantine_channel_parse(a, &x) == 0 && quarantine_channel_parse(b, &y) == 0 &&
	       x.kind == y.kind && x.cpu == y.cpu && x.load == y.load;
}

char *
quarantine_class_refusal(const char *test, enum classify_class k, const char *allowed,
                         const char *channel)
{
	/* A test that is not flaky (failing, skip-flaky) has no class: the
	 * table says nothing of it. */
	if (k == CLASSIFY_TEST_FLAKE || k == CLASSIFY_NONE)
		return NULL;
	if (k == CLASSIFY_RACE && allowed != NULL && quarantine_class_same(allowed, channel))
		return NULL;
	if (k == CLASSIFY_RACE)
		return xasprintf(_("%s is a race that fails at %s, not on channel %s: fix the "
		                   "race, or quarantine it on %s"),
		                 test, allowed != NULL ? allowed : "?", channel,
		                 allowed != NULL ? allowed : "?");
	return xasprintf(_("%s is %s: %s"), test, classify_name(k), classify_advice(k));
}
