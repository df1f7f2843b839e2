/* SPDX-License-Identifier: MIT */
/*
 * compare-duration.c: a test's run times on both sides of a comparison
 * and the part of their growth that its added sleeps do not explain. It
 * reads the results' durations and the band-aids found; nothing else.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/compare-duration.h"
#include "results/compare.h"
#include "results/results.h"

/* The median run time (ms) of test id's package at (cpu, load) in r, or
 * -1. */
static int64_t
compare_duration_median(const struct results *r, const char *id, int cpu, int load)
{
	const struct results_test *t = results_find(r, id);
	const struct durations *d;
	size_t i;

	if (t == NULL)
		return -1;
	d = &r->pkgs[t->pkg].durations;
	for (i = 0; i < d->ncells; i++) {
		struct durations_cell *cell = &d->cells[i];

		if (cell->cpu == cpu && cell->load == load && cell->runs > 0)
			return durations_median(cell);
	}
	return -1;
}

void
compare_durations(struct compare *c, const struct results *before, const struct results *after)
{
	size_t i;

	for (i = 0; i < c->ntests; i++) {
		struct compare_test *t = &c->tests[i];
		int k = t->decisive;

		if (k < 0)
			for (k = 0; k < t->npairs &&
			            (t->pairs[k].before.runs == 0 || t->pairs[k].after.runs == 0);
			     k++)
				;
		if (k >= t->npairs)
			continue;
		t->duration.before_ms =
		    compare_duration_median(before, t->id, t->pairs[k].cpu, t->pairs[k].load);
		t->duration.after_ms =
		    compare_duration_median(after, t->id, t->pairs[k].cpu, t->pairs[k].load);
		t->duration.known = t->duration.before_ms >= 0 && t->duration.after_ms >= 0;
	}
}

/* One sleep's time in ms, from its line: Go's time.Sleep(N * time.Unit)
 * (a bare number is nanoseconds), else seconds (Python's time.sleep(0.5),
 * a shell's sleep 1). */
static int64_t
compare_duration_sleep_ms(const char *text)
{
	static const struct {
		const char *unit;
		double ms;
	} units[] = {{"Nanosecond", 1e-6}, {"Microsecond", 1e-3}, {"Millisecond", 1},
	             {"Second", 1000},     {"Minute", 60000},     {"Hour", 3600000}};
	const char *p = strstr(text, "leep");
	double v = 1, unit = strstr(text, "Sleep(") != NULL ? 1e-6 : 1000;
	size_t i;

	for (p = p != NULL ? p : text; *p != '\0' && !isdigit((unsigned char)*p); p++)
		;
	if (*p != '\0')
		v = strtod(p, NULL);
	for (i = 0; i < UTIL_ARRAY_LEN(units); i++)
		if (strstr(text, units[i].unit) != NULL) {
			unit = units[i].ms;
			break;
		}
	return (int64_t)(v * unit + 0.5);
}

int64_t
compare_duration_sleeps(const struct compare_test *t)
{
	int64_t ms = 0;
	size_t i;

	for (i = 0; i < t->bandaids.n; i++)
		if (strcmp(t->bandaids.items[i].kind, "sleep") == 0)
			ms += compare_duration_sleep_ms(t->bandaids.items[i].text);
	return ms;
}

int64_t
compare_duration_unexplained(const struct compare_test *t)
{
	int64_t sleeps = compare_duration_sleeps(t), grew, noise;

	if (!t->duration.known)
		return 0;
	grew = t->duration.after_ms - t->duration.before_ms - sleeps;
	noise = (int64_t)(COMPARE_DURATION_NOISE_SHARE * (double)(t->duration.before_ms + sleeps));
	if (noise < COMPARE_DURATION_NOISE_MS)
		noise = COMPARE_DURATION_NOISE_MS;
	return grew > noise ? grew : 0;
}

cJSON *
compare_duration_json(const struct compare_test *t)
{
	cJSON *o;

	if (!t->duration.known)
		return NULL;
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "before_ms", (double)t->duration.before_ms);
	cJSON_AddNumberToObject(o, "after_ms", (double)t->duration.after_ms);
	cJSON_AddNumberToObject(o, "sleeps_ms", (double)compare_duration_sleeps(t));
	cJSON_AddNumberToObject(o, "unexplained_ms", (double)compare_duration_unexplained(t));
	return o;
}

void
compare_duration_text(struct buf *b, const struct compare_test *t)
{
	int64_t more = compare_duration_unexplained(t);

	if (more == 0)
		return;
	buf_printf(b,
	           _("%-12s slower: its runs took %lld ms, %lld ms before; the sleeps it "
	             "added explain %lld ms\n"),
	           "", (long long)t->duration.after_ms, (long long)t->duration.before_ms,
	           (long long)compare_duration_sleeps(t));
}
