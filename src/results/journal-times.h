/* SPDX-License-Identifier: MIT */
/*
 * journal-times.h: the per-test run times of a run line ("times",
 * flakesweep(5)): each test's own time as its framework reported it, in
 * an order both ends derive from the outcome alone (the passed and skipped
 * tests sorted by status and name, then the failed, then the hung, each as
 * the line lists them), so a set shared by runs that started their tests
 * in other orders still lines up. Older journals have none.
 */
#ifndef FLAKESWEEP_JOURNAL_TIMES_H
#define FLAKESWEEP_JOURNAL_TIMES_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/jsonw.h"
#include "drivers/outcome.h"

/* Writes the "times" member of o (ms, -1 for a test without one) into w,
 * unless no test of o has a time (the member is then left out). */
void journal_times_write(struct jsonw *w, const struct outcome *o);

/* Sets the ms of the tests of o, decoded from the same run line, from its
 * "times" member a (NULL or not an array: nothing changes). Values that
 * are not whole numbers from -1 up are taken as -1. */
void journal_times_decode(const cJSON *a, struct outcome *o);

/* The same from a fast line's array text ("12,-1,3", vlen bytes, without
 * its brackets); with o NULL it only checks the text. False when it is not
 * a list of whole numbers from -1 up. */
bool journal_times_fast(const char *val, size_t vlen, struct outcome *o);

#endif
