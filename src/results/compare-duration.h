/* SPDX-License-Identifier: MIT */
/*
 * compare-duration.h: whether a test's runs got slower between the two
 * sides of a comparison by more than the sleeps its change added explain
 * (a slower test is a cost): its package's median run time at the pair
 * that decided the verdict, before and after, beside the sleep band-aids'
 * total. For compare and verify; it reads no file.
 */
#ifndef FLAKESWEEP_COMPARE_DURATION_H
#define FLAKESWEEP_COMPARE_DURATION_H

#include <stdint.h>

struct buf;
struct cJSON;
struct compare;
struct compare_test;
struct results;

/* Slower by less than this (ms), or this share of before's time and the
 * sleeps, is noise. */
#define COMPARE_DURATION_NOISE_MS 100
#define COMPARE_DURATION_NOISE_SHARE 0.2

/* Takes each test's median run times before and after (its package's, at
 * its decisive pair, else its first pair measured on both sides). */
void compare_durations(struct compare *c, const struct results *before,
                       const struct results *after);

/* The total of t's sleep band-aids, in ms, each counted once. */
int64_t compare_duration_sleeps(const struct compare_test *t);

/* How much slower t's runs got than its sleeps explain (ms), or 0 when
 * not more than noise, or its times are not known on both sides. */
int64_t compare_duration_unexplained(const struct compare_test *t);

/* t's tests[].duration object ({before_ms, after_ms, sleeps_ms,
 * unexplained_ms}), or NULL when its times are not known. */
struct cJSON *compare_duration_json(const struct compare_test *t);

/* A line for t under its verdict when its runs got slower than its
 * sleeps explain; nothing otherwise. */
void compare_duration_text(struct buf *b, const struct compare_test *t);

#endif
