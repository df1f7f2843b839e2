/* SPDX-License-Identifier: MIT */
/*
 * mask-cost.c: what masking costs one run, on the loop, without the noise
 * of spawning: a run's output (faketap's ten TAP lines, or a failing run's
 * 3 KiB with its environment) through a mask stream as proc.c does it
 * (a new stream, the output in chunks of CHUNK bytes, the flush, the free)
 * with 3 values whose first bytes are common in the output, against the
 * same with no value (proc.c then makes no stream: the bytes go straight
 * on, a call each). Prints the CPU nanoseconds per run of each and their
 * difference; checks that the masked output has no value left.
 * Build: make bench/mask-cost; usage: bench/mask-cost [RUNS [CHUNK]]
 * (default 200000 and 65536).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/mask.h"
#include "base/util.h"

static size_t out_bytes;

static void
sink(void *arg, const char *data, size_t len)
{
	(void)arg;
	(void)data;
	out_bytes += len;
}

static double
cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* CPU ns per run of text through m in chunks (m NULL: straight on). */
static double
per_run(const struct mask *m, const char *text, long runs, size_t chunk)
{
	size_t len = strlen(text), i;
	double t0 = cpu_ns();
	long r;

	for (r = 0; r < runs; r++) {
		struct mask_stream *ms = m != NULL ? mask_stream_new(m, sink, NULL) : NULL;

		for (i = 0; i < len; i += chunk) {
			size_t n = len - i < chunk ? len - i : chunk;

			if (ms != NULL)
				mask_stream_feed(ms, text + i, n);
			else
				sink(NULL, text + i, n);
		}
		if (ms != NULL)
			mask_stream_flush(ms);
		mask_stream_free(ms);
	}
	return (cpu_ns() - t0) / (double)runs;
}

int
main(int argc, char **argv)
{
	long runs = argc > 1 ? atol(argv[1]) : 200000;
	size_t chunk = argc > 2 ? (size_t)atol(argv[2]) : 65536;
	char *env[] = {"BENCH_TOKEN=case_11-value", "BENCH_SECRET=ok 99 - value",
	               "BENCH_PASSWORD=not ok 0 - value", NULL};
	struct mask *m = mask_new();
	struct buf pass, fail;
	char *masked;
	int i;

	mask_add_environ(m, env, NULL, 0);
	buf_init(&pass);
	buf_adds(&pass, "1..10\n");
	for (i = 1; i <= 10; i++)
		buf_printf(&pass, "ok %d - case_%d\n", i, i);
	buf_init(&fail);
	buf_adds(&fail, pass.data);
	while (fail.len < 3072)
		buf_printf(&fail, "# SOME_VARIABLE_%zu=/usr/local/share/value/%zu\n", fail.len,
		           fail.len);
	buf_adds(&fail, "# BENCH_TOKEN=case_11-value\n");
	masked = mask_text(m, fail.data);
	if (strstr(masked, "case_11-value") != NULL) {
		fprintf(stderr, "mask-cost: a value was left\n");
		return 1;
	}
	free(masked);
	for (i = 0; i < 2; i++) {
		const char *what = i == 0 ? "passing run (11 lines)" : "failing run (3 KiB)";
		const char *text = i == 0 ? pass.data : fail.data;
		double with = per_run(m, text, runs, chunk),
		       none = per_run(NULL, text, runs, chunk);

		printf("%s, %zu bytes, chunks of %zu: 3 values %.0f ns/run, none %.0f ns/run, "
		       "cost %.0f ns/run\n",
		       what, strlen(text), chunk, with, none, with - none);
	}
	buf_free(&pass);
	buf_free(&fail);
	mask_free(m);
	return out_bytes > 0 ? 0 : 1;
}
