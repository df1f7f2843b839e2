/* SPDX-License-Identifier: MIT */
/*
 * quarantine-class.h: which quarantines a test's class allows (man 1
 * flakesweep, Classes): a test-flake on any channel, a race on the channel
 * where it fails; never an isolation-broken, harness-bug or unexplained
 * test, whose bug is elsewhere or not found yet. It judges one request; it
 * never reads or writes the file.
 */
#ifndef FLAKESWEEP_QUARANTINE_CLASS_H
#define FLAKESWEEP_QUARANTINE_CLASS_H

#include "results/classify.h"

/* NULL when class k (allowed: the channel it allows, "" for none) lets
 * test be quarantined on channel, or when the test has no class
 * (CLASSIFY_NONE: not flaky, or not in the results); else why not and what
 * to do instead, translated (caller frees). */
char *quarantine_class_refusal(const char *test, enum classify_class k, const char *allowed,
                               const char *channel);

#endif
