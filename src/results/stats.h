/* SPDX-License-Identifier: MIT */
/*
 * stats.h: the exact tests behind `compare`, `verify` and `bisect`:
 * Fisher's exact test of two failure rates, the Benjamini-Hochberg
 * adjustment across many tests, and Wald's sequential probability ratio
 * test for a rate. Pure arithmetic: no I/O, no allocation except where a
 * function says so. man 1 flakesweep, section STATISTICS, states the error
 * rates these give.
 */
#ifndef FLAKESWEEP_STATS_H
#define FLAKESWEEP_STATS_H

#include <stddef.h>
#include <stdint.h>

/* One-sided p-values of Fisher's exact test for k1 failures in n1 runs
 * (before) against k2 in n2 (after), conditioned on the k1 + k2 failures:
 * *less is P(after's failures <= k2) under equal rates (small when after's
 * rate is lower), *greater is P(after's failures >= k2) (small when it is
 * higher). Either pointer may be NULL. Both are 1 when a side has no run. */
void stats_fisher(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double *less, double *greater);

/* One 2x2 table of a stratified test, as stats_fisher takes it: k1
 * failures in n1 runs on one side, k2 in n2 on the other. */
struct stats_table {
	int64_t k1, n1, k2, n2;
};

/* The exact conditional test of a common effect across strata (the exact
 * stratified test behind Mantel-Haenszel, as Zelen and Mehta give it): the
 * one-sided p-value that the second sides' failures, summed over the n
 * tables, are at least what they are when in each table the failures fall
 * without regard to side, each table's margins fixed. Under that null each
 * table's count is hypergeometric and the sum's distribution is their
 * convolution. A table with an empty side holds its count fixed and adds
 * nothing. With one table it is stats_fisher's *greater; 1 when n is 0. */
double stats_strata_greater(const struct stats_table *t, size_t n);

/* Benjamini-Hochberg adjusted p-values (q-values) of p[0..n-1] into q
 * (which may be p itself): rejecting every q < alpha keeps the expected
 * share of false discoveries among the rejections at most alpha. */
void stats_bh(const double *p, size_t n, double *q);

/* Wald's sequential probability ratio test of "the rate is p0" (not fixed)
 * against "the rate is p1" (fixed), p1 < p0, with error rates alpha (say
 * fixed when it is not) and beta (say not fixed when it is). */
enum stats_sprt_state {
	STATS_SPRT_CONTINUE,
	STATS_SPRT_ACCEPT_P0, /* the rate is still near p0: not fixed */
	STATS_SPRT_ACCEPT_P1, /* the rate is at most p1: fixed */
};

struct stats_sprt {
	double p0, p1;
	double log_a, log_b; /* the boundaries of the log likelihood ratio */
	double llr;          /* log likelihood ratio of p1 against p0 so far */
	int64_t runs, failures;
};

/* Sets up the test; p0 and p1 are clamped into (0, 1) and p1 < p0 is
 * required (returns -EINVAL otherwise). */
int stats_sprt_init(struct stats_sprt *s, double p0, double p1, double alpha, double beta);
/* Adds one run (failed or not) and returns the state after it. */
enum stats_sprt_state stats_sprt_add(struct stats_sprt *s, int failed);

#endif
