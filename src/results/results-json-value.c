/* SPDX-License-Identifier: MIT */
/*
 * results-json-value.c: one value of results.json read and checked where
 * it is read. On a bad one it finds its line by walking the text along the
 * path of keys and indexes the reader followed (cJSON keeps no
 * positions), so the error names the file, the line and the field.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/results-json-in.h"
#include "results/results.h"
#include "base/util.h"
/* ---- Where a value is in the text ---- */

static const char *
results_json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* Past the value at p (valid JSON). */
static const char *
results_json_skip(const char *p)
{
	int depth = 0;

	do {
		if (*p == '"') {
			for (p++; *p != '"' && *p != '\0'; p++) {
				if (*p == '\\' && p[1] != '\0')
					p++;
			}
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			depth--;
		} else if (depth == 0) {
			while (*p != '\0' && strchr(",}] \t\r\n", *p) == NULL)
				p++;
			return p;
		}
		if (*p != '\0')
			p++;
	} while (depth > 0 && *p != '\0');
	return p;
}

/* The value of one step into the object or array at p, or NULL. */
static const char *
results_json_step_into(const char *p, const struct results_json_step *s)
{
	int i = 0;

	if (*p != (s->key != NULL ? '{' : '['))
		return NULL;
	for (p = results_json_ws(p + 1); *p != '\0' && *p != '}' && *p != ']';) {
		if (s->key != NULL) {
			const char *k = p + 1, *end = results_json_skip(p);
			size_t n = strlen(s->key);
			bool match = (size_t)(end - k) == n + 1 && strncmp(k, s->key, n) == 0;

			p = results_json_ws(results_json_ws(end) + 1); /* past ':' */
			if (match)
				return p;
		} else if (i++ == s->index) {
			return p;
		}
		p = results_json_ws(results_json_skip(p));
		if (*p == ',')
			p = results_json_ws(p + 1);
	}
	return NULL;
}

/* The 1-based line of the deepest step of the path that is found. */
static int
results_json_line(const struct results_json_in *in)
{
	const char *at = results_json_ws(in->text), *p;
	int i, line = 1;

	for (i = 0; i < in->depth && i < RESULTS_JSON_DEPTH; i++) {
		const char *next = results_json_step_into(at, &in->steps[i]);

		if (next == NULL)
			break;
		at = next;
	}
	for (p = in->text; p < at; p++)
		line += *p == '\n';
	return line;
}

int
results_json_fail(struct results_json_in *in, const char *key, const char *what)
{
	struct buf field;
	int i;

	if (key != NULL && in->depth < RESULTS_JSON_DEPTH)
		in->steps[in->depth++] = (struct results_json_step){key, 0};
	buf_init(&field);
	for (i = 0; i < in->depth && i < RESULTS_JSON_DEPTH; i++) {
		if (in->steps[i].key != NULL)
			buf_printf(&field, "%s%s", i > 0 ? "." : "", in->steps[i].key);
		else
			buf_printf(&field, "[%d]", in->steps[i].index);
	}
	if (in->err == NULL && field.len == 0)
		in->err = xasprintf("%s:%d: %s", in->path, results_json_line(in), what);
	else if (in->err == NULL)
		in->err = xasprintf(_("%s:%d: %s: %s"), in->path, results_json_line(in), field.data,
		                    what);
	buf_free(&field);
	if (key != NULL)
		in->depth--;
	return -EBADMSG;
}

void
results_json_push(struct results_json_in *in, const char *key, int index)
{
	if (in->depth < RESULTS_JSON_DEPTH)
		in->steps[in->depth] = (struct results_json_step){key, index};
	in->depth++;
}

void
results_json_pop(struct results_json_in *in)
{
	in->depth--;
}

/* ---- Reading values ---- */

/* A string field: *out borrows it, NULL when absent or null and optional. */
int
results_json_str(struct results_json_in *in, const cJSON *obj, const char *key, bool required,
                 const char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (cJSON_IsString(v)) {
		*out = v->valuestring;
		return 0;
	}
	if (!required && (v == NULL || cJSON_IsNull(v)))
		return 0;
	return results_json_fail(in, key, _("expected a string"));
}

char *
results_json_dup(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/* A whole number in [min, max]; 0 when absent and optional. */
int
results_json_int(struct results_json_in *in, const cJSON *obj, const char *key, bool required,
                 int64_t min, int64_t max, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char *what;
	int rc;

	*out = 0;
	if (v == NULL && !required)
		return 0;
	if (cJSON_IsNumber(v) && v->valuedouble >= (double)min && v->valuedouble <= (double)max &&
	    v->valuedouble == floor(v->valuedouble)) {
		*out = (int64_t)v->valuedouble;
		return 0;
	}
	what = xasprintf(_("expected a whole number from %lld to %lld"), (long long)min,
	                 (long long)max);
	rc = results_json_fail(in, key, what);
	free(what);
	return rc;
}

/* "noise": a share from 0 to 1, or null or absent when not measured. It
 * comes back as other processes' time out of a core time of 1, which is
 * all noise_share() and the causes need. */
int
results_json_noise_in(struct results_json_in *in, const cJSON *obj, double *other_ms,
                      double *core_ms)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "noise");

	*other_ms = *core_ms = 0;
	if (v == NULL || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 1)
		return results_json_fail(in, "noise", _("expected a share from 0 to 1, or null"));
	*other_ms = v->valuedouble;
	*core_ms = 1;
	return 0;
}

/* A cell's member key, {"runs", "failures"}: some of its runs (overlapped,
 * noisy) into *runs, their failures and hangs into *bad; absent is none. */
int
results_json_runs_in(struct results_json_in *in, const cJSON *cell, const char *key,
                     const struct results_cell *x, int64_t *runs, int64_t *bad)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(cell, key);
	int64_t most;
	int rc;

	if (o == NULL)
		return 0;
	if (!cJSON_IsObject(o))
		return results_json_fail(in, key, _("expected an object"));
	results_json_push(in, key, 0);
	rc = results_json_int(in, o, "runs", true, 0, x->runs, runs);
	most = *runs < x->failures + x->hangs ? *runs : x->failures + x->hangs;
	if (rc == 0)
		rc = results_json_int(in, o, "failures", true, 0, most, bad);
	results_json_pop(in);
	return rc;
}

int
results_json_phase(struct results_json_in *in, const cJSON *obj, enum results_phase *phase)
{
	const char *s;
	int rc = results_json_str(in, obj, "phase", true, &s);

	if (rc < 0)
		return rc;
	if (results_phase_parse(s) < 0)
		return results_json_fail(in, "phase",
		                         _("expected \"sweep\", \"confirm\" or \"alone\""));
	*phase = results_phase_parse(s);
	return 0;
}

/* phase, cpu and load of a cell or a failure. */
int
results_json_pair(struct results_json_in *in, const cJSON *obj, enum results_phase *phase, int *cpu,
                  int *load)
{
	int64_t c, l;
	int rc = results_json_phase(in, obj, phase);

	if (rc == 0)
		rc = results_json_int(in, obj, "cpu", true, 1, 1 << 20, &c);
	if (rc == 0)
		rc = results_json_int(in, obj, "load", true, 1, 1 << 20, &l);
	*cpu = (int)c;
	*load = (int)l;
	return rc;
}
