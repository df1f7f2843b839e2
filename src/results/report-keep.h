/* SPDX-License-Identifier: MIT */
/*
 * report-keep.h: what one rewrite of results.json and report.txt keeps for
 * the next (a sweep rewrites both every 2 s): for each test, what its texts
 * were made of and the texts themselves, so that a test whose results did
 * not change since is copied, not written again. It compares and stores;
 * it never writes a file nor renders a test.
 */
#ifndef FLAKESWEEP_REPORT_KEEP_H
#define FLAKESWEEP_REPORT_KEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/jsonw.h"
#include "base/util.h"
#include "results/report.h"
#include "results/results.h"

/* One test's texts as the last rewrite wrote them, NULL until written
 * (and again once the test changed). */
struct report_kept {
	/* Its tests[] item in results.json, open: the '{' and every member
	 * but "quarantine", which a countdown changes every second. */
	char *json;
	size_t json_len;
	/* Its section of report.txt, cleaned (sanitize_text). */
	char *text;
	size_t text_len;
	enum results_verdict verdict;
	bool quarantined; /* the quarantine has an entry for it */
	bool changed;     /* at the last report_keep_derive */
};

struct report_keep;
struct report_writer;

struct report_keep *report_keep_new(void);
/* NULL is a no-op. */
void report_keep_free(struct report_keep *k);

/* Works out d for r as report_derive does (report_derived_free frees
 * it), testing again the causes of only the tests whose own results
 * changed, and compares each test with what k kept of it: a test is
 * unchanged when its cells, cores, first failure, polluter, cascade
 * candidates, verdict, cascade root, provisional flag, causes and the
 * cascades that follow it are what they were, and m's status, quarantine
 * and reproduce callback too. A changed test loses its texts. Judges the
 * entries of m->quarantine on r at m->now_ms (as quarantine_evaluate),
 * gathering again the evidence of changed tests only. Called again with
 * nothing changed, it changes nothing but the judging of the clock. */
void report_keep_derive(struct report_keep *k, const struct results *r, const struct report_meta *m,
                        struct report_derived *d);

/* Test i's entry (report_keep_derive first, for the same r). */
struct report_kept *report_keep_at(struct report_keep *k, size_t i);

/* Whether test i is provisional (as report_keep_derive saw it). */
bool report_keep_provisional(const struct report_keep *k, size_t i);

/* The tests of each verdict, as results_counts counts them. */
void report_keep_counts(const struct report_keep *k, int64_t *passed, int64_t *flaky,
                        int64_t *failing);

/* Where results.json's text is written (results_json_write), kept from
 * one rewrite to the next with its memory. */
struct buf *report_keep_json_buf(struct report_keep *k);

/* The kept texts that results.json's text refers to (results_json_write),
 * valid until the tests change. */
struct jsonw_refs *report_keep_json_refs(struct report_keep *k);

/* The thread that writes the files of a rewrite while running
 * (report_write hands them to it), so that the loop does not wait for
 * them; report_keep_free waits for its last write. */
struct report_writer *report_keep_writer(struct report_keep *k);

#endif
