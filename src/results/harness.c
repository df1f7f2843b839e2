/* SPDX-License-Identifier: MIT */
/*
 * harness.c: the canaries' counts per (kind, cpu, load) and the reasons
 * the harness is not clean, and their place in results.json. Cells are
 * few (three kinds times the pairs): lookups are linear. It never judges
 * a run: the sweep (engine/canary.c) says whether it was unexpected.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/harness.h"
#include "base/gettext.h"
#include "base/util.h"

void
harness_free(struct harness *h)
{
	size_t i;

	for (i = 0; i < h->ncells; i++)
		free(h->cells[i].kind);
	free(h->cells);
	util_strv_free_n(h->reasons, (int)h->nreasons);
	memset(h, 0, sizeof *h);
}

static struct harness_cell *
harness_cell(struct harness *h, const char *kind, int cpu, int load)
{
	struct harness_cell *c;
	size_t i;

	for (i = 0; i < h->ncells; i++) {
		c = &h->cells[i];
		if (c->cpu == cpu && c->load == load && strcmp(c->kind, kind) == 0)
			return c;
	}
	h->cells = xrealloc(h->cells, sizeof *h->cells * (h->ncells + 1));
	c = &h->cells[h->ncells++];
	memset(c, 0, sizeof *c);
	c->kind = xstrdup(kind);
	c->cpu = cpu;
	c->load = load;
	return c;
}

void
harness_add_run(struct harness *h, const char *kind, int cpu, int load, bool unexpected, bool noisy,
                const char *why, int64_t run)
{
	struct harness_cell *c = harness_cell(h, kind, cpu, load);

	c->runs++;
	c->noisy += noisy && !unexpected;
	if (!unexpected)
		return;
	c->unexpected++;
	h->unexpected++;
	if (h->nreasons < HARNESS_REASONS_MAX) {
		h->reasons = xrealloc(h->reasons, sizeof *h->reasons * (h->nreasons + 1));
		h->reasons[h->nreasons++] =
		    xasprintf(_("%s canary at cpu %d load %d (canary run %lld): %s"), kind, cpu,
		              load, (long long)run, why != NULL ? why : "?");
	}
}

void
harness_absorb(struct harness *dst, const struct harness *src)
{
	size_t i;

	dst->on |= src->on;
	if (dst->budget == 0)
		dst->budget = src->budget;
	for (i = 0; i < src->ncells; i++) {
		const struct harness_cell *s = &src->cells[i];
		struct harness_cell *c = harness_cell(dst, s->kind, s->cpu, s->load);

		c->runs += s->runs;
		c->unexpected += s->unexpected;
		c->noisy += s->noisy;
	}
	dst->unexpected += src->unexpected;
	for (i = 0; i < src->nreasons && dst->nreasons < HARNESS_REASONS_MAX; i++) {
		dst->reasons = xrealloc(dst->reasons, sizeof *dst->reasons * (dst->nreasons + 1));
		dst->reasons[dst->nreasons++] = xstrdup(src->reasons[i]);
	}
}

bool
harness_clean(const struct harness *h)
{
	return h->unexpected == 0 && h->nreasons == 0;
}

char *
harness_reasons_text(const struct harness *h, const char *prefix)
{
	struct buf b;
	size_t i;
	char *s;

	if (harness_clean(h))
		return NULL;
	buf_init(&b);
	for (i = 0; i < h->nreasons; i++)
		buf_printf(&b, "%s%s\n", prefix, h->reasons[i]);
	if (h->nreasons == HARNESS_REASONS_MAX && h->unexpected > (int64_t)h->nreasons)
		buf_printf(&b, _("%sand %lld more unexpected canary runs\n"), prefix,
		           (long long)(h->unexpected - (int64_t)h->nreasons));
	s = xstrdup(b.data != NULL ? b.data : "");
	buf_free(&b);
	return s;
}

cJSON *
harness_to_json(const struct harness *h)
{
	cJSON *o = cJSON_CreateObject(), *a;
	size_t i;

	cJSON_AddBoolToObject(o, "clean", harness_clean(h));
	cJSON_AddNumberToObject(o, "budget", h->budget);
	a = cJSON_AddArrayToObject(o, "canaries");
	for (i = 0; i < h->ncells; i++) {
		const struct harness_cell *c = &h->cells[i];
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "kind", c->kind);
		cJSON_AddNumberToObject(x, "cpu", c->cpu);
		cJSON_AddNumberToObject(x, "load", c->load);
		cJSON_AddNumberToObject(x, "runs", (double)c->runs);
		cJSON_AddNumberToObject(x, "unexpected", (double)c->unexpected);
		cJSON_AddNumberToObject(x, "noisy", (double)c->noisy);
		cJSON_AddItemToArray(a, x);
	}
	a = cJSON_AddArrayToObject(o, "reasons");
	for (i = 0; i < h->nreasons; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(h->reasons[i]));
	if (h->nreasons == HARNESS_REASONS_MAX && h->unexpected > (int64_t)h->nreasons) {
		char *more = xasprintf(_("and %lld more unexpected canary runs"),
		                       (long long)(h->unexpected - (int64_t)h->nreasons));

		cJSON_AddItemToArray(a, cJSON_CreateString(more));
		free(more);
	}
	return o;
}

/* A whole number from 0 up, or -1. */
static int64_t
harness_count(const cJSON *obj, const char *key, int64_t max)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > (double)max ||
	    v->valuedouble != floor(v->valuedouble))
		return -1;
	return (int64_t)v->valuedouble;
}

int
harness_from_json(struct harness *h, const cJSON *obj, const char **field, char **what)
{
	static const char *const counts[] = {"cpu", "load", "runs", "unexpected", "noisy"};
	const cJSON *a, *x, *budget = cJSON_GetObjectItemCaseSensitive(obj, "budget");
	int64_t v[5];
	size_t k;

	memset(h, 0, sizeof *h);
	*field = NULL;
	*what = NULL;
	if (!cJSON_IsObject(obj)) {
		*what = xstrdup(_("expected an object"));
		return -EBADMSG;
	}
	h->on = true;
	if (!cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(obj, "clean"))) {
		*field = "clean";
		*what = xstrdup(_("expected true or false"));
		return -EBADMSG;
	}
	if (budget != NULL &&
	    (!cJSON_IsNumber(budget) || budget->valuedouble < 0 || budget->valuedouble > 100)) {
		*field = "budget";
		*what = xstrdup(_("expected a percentage from 0 to 100"));
		return -EBADMSG;
	}
	h->budget = budget != NULL ? budget->valuedouble : 0;
	a = cJSON_GetObjectItemCaseSensitive(obj, "canaries");
	if (!cJSON_IsArray(a)) {
		*field = "canaries";
		*what = xstrdup(_("expected an array"));
		return -EBADMSG;
	}
	cJSON_ArrayForEach(x, a)
	{
		const cJSON *kind = cJSON_GetObjectItemCaseSensitive(x, "kind");
		struct harness_cell *c;

		for (k = 0; k < 5; k++)
			v[k] = harness_count(x, counts[k], 9000000000000000LL);
		if (!cJSON_IsString(kind) || v[0] < 1 || v[1] < 1 || v[0] > 1 << 20 ||
		    v[1] > 1 << 20 || v[2] < 0 || v[3] < 0 || v[4] < 0) {
			*field = "canaries";
			*what = xstrdup(_("expected entries with kind, cpu, load, runs, unexpected "
			                  "and noisy"));
			return -EBADMSG;
		}
		c = harness_cell(h, kind->valuestring, (int)v[0], (int)v[1]);
		c->runs = v[2];
		c->unexpected = v[3];
		c->noisy = v[4];
		h->unexpected += v[3];
	}
	a = cJSON_GetObjectItemCaseSensitive(obj, "reasons");
	if (!cJSON_IsArray(a)) {
		*field = "reasons";
		*what = xstrdup(_("expected an array of strings"));
		return -EBADMSG;
	}
	cJSON_ArrayForEach(x, a)
	{
		if (!cJSON_IsString(x)) {
			*field = "reasons";
			*what = xstrdup(_("expected an array of strings"));
			return -EBADMSG;
		}
		h->reasons = xrealloc(h->reasons, sizeof *h->reasons * (h->nreasons + 1));
		h->reasons[h->nreasons++] = xstrdup(x->valuestring);
	}
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(obj, "clean")) && h->nreasons == 0) {
		*field = "reasons";
		*what = xstrdup(_("expected a reason when clean is false"));
		return -EBADMSG;
	}
	return 0;
}
