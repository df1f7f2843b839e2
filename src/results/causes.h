/* SPDX-License-Identifier: MIT */
/*
 * causes.h: why each failing test fails, with its evidence: cpu (its
 * failures pile up at one CPU count), load (at one load), noise (in runs
 * measured under host noise, or with more noise than its passing runs),
 * interference (in runs that another run of any package overlapped, with
 * the partner package when the overlaps concentrate on one: overlap.h),
 * episode (failures clustered in time: episode.h), order
 * (order_dependent), or timing when none of these explains it and each
 * could have, else unexplained. Each test is one-sided, stratified by
 * (cpu, load) pair where it compares runs; the p-values of every test of
 * the sweep are adjusted together (Benjamini-Hochberg). It reads struct
 * results only; no I/O.
 */
#ifndef FLAKESWEEP_CAUSES_H
#define FLAKESWEEP_CAUSES_H

#include <cjson/cJSON.h>

#include "results/results.h"
#include "base/util.h"

/* A cause is named when its adjusted p-value (q) is below this. */
#define CAUSES_ALPHA 0.01

struct causes;

/* The causes of every test of r that failed or hung (r borrowed: it must
 * outlive the result). */
struct causes *causes_new(const struct results *r);
/* causes_new, but each test i whose kept[i] is not NULL takes its
 * p-values from those bytes (causes_key of an earlier causes_new of the
 * same test with the same results) instead of testing again; q-values are
 * always adjusted anew, over every test. kept may be NULL. */
struct causes *causes_new_kept(const struct results *r, const void *const *kept);
/* NULL is a no-op. */
void causes_free(struct causes *c);

/* results.json tests[].causes for r->tests[i]: an array of {"cause",
 * "evidence", "p", "q"} (p and q null for order, timing and unexplained;
 * "partner" for an interference that has one, "window" for an episode), or NULL when
 * the test never failed or failed every run. */
cJSON *causes_json(const struct causes *c, size_t i);

/* The bytes that r->tests[i]'s causes are made of (its p- and q-values,
 * their counts and its polluter), *len of them (0 when it has none): a
 * test whose bytes did not change has the same causes_json and
 * causes_text. */
const void *causes_key(const struct causes *c, size_t i, size_t *len);

/* The report's sentences for r->tests[i], one line per cause. */
void causes_text(struct buf *b, const struct causes *c, size_t i);

#endif
