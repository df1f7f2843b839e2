/* SPDX-License-Identifier: MIT */
/*
 * confseq.c: the beta-binomial mixture confidence sequence (see
 * confseq.h).
 */
#include "config.h"

#include <math.h>

#include "base/confseq.h"

/* Bisection steps: 2^-60 of the unit interval, below a double's
 * resolution there. */
#define CONFSEQ_STEPS 60

static double
confseq_lbeta(double a, double b)
{
	return lgamma(a) + lgamma(b) - lgamma(a + b);
}

/* log M_n(p) - log(1/alpha): below zero inside the interval. */
static double
confseq_excess(double k, double n, double p, double mix, double level)
{
	double like = 0;

	if (k > 0)
		like += k * log(p);
	if (n - k > 0)
		like += (n - k) * log1p(-p);
	return mix - like - level;
}

/* The end of the interval between in (inside) and out (outside). */
static double
confseq_edge(double k, double n, double in, double out, double mix, double level)
{
	int i;

	for (i = 0; i < CONFSEQ_STEPS; i++) {
		double mid = (in + out) / 2;

		if (confseq_excess(k, n, mid, mix, level) < 0)
			in = mid;
		else
			out = mid;
	}
	return in;
}

void
confseq_rate(int64_t k, int64_t n, double alpha, double *lo, double *hi)
{
	double kd = (double)k, nd = (double)n, mle, mix, level = log(1 / alpha);

	*lo = 0;
	*hi = 1;
	if (n <= 0 || k < 0 || k > n)
		return;
	mle = kd / nd;
	mix = confseq_lbeta(0.5 + kd, 0.5 + nd - kd) - confseq_lbeta(0.5, 0.5);
	/* At p = 0 (1) the ratio is infinite unless no event (every try)
	 * was seen; then the interval reaches that end. */
	if (k > 0)
		*lo = confseq_edge(kd, nd, mle, 0, mix, level);
	if (k < n)
		*hi = confseq_edge(kd, nd, mle, 1, mix, level);
}
