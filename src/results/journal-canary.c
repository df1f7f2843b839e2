/* SPDX-License-Identifier: MIT */
/*
 * journal-canary.c: encodes and decodes the journal's canary lines. It
 * never judges a canary or counts it: the sweep and results/harness.c do.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/journal-canary.h"
#include "base/gettext.h"
#include "base/util.h"

int
journal_canary_write(struct journal *j, const struct journal_canary *c)
{
	cJSON *line = cJSON_CreateObject();
	int rc;

	cJSON_AddStringToObject(line, "type", "canary");
	cJSON_AddNumberToObject(line, "canary", (double)c->canary);
	cJSON_AddStringToObject(line, "kind", c->kind);
	cJSON_AddNumberToObject(line, "cpu", c->cpu);
	cJSON_AddNumberToObject(line, "load", c->load);
	cJSON_AddNumberToObject(line, "lane", c->lane);
	cJSON_AddNumberToObject(line, "ms", (double)c->ms);
	cJSON_AddNumberToObject(line, "exit", c->exit.status);
	if (c->exit.signal != 0)
		cJSON_AddNumberToObject(line, "signal", c->exit.signal);
	if (c->exit.timed_out)
		cJSON_AddTrueToObject(line, "timed_out");
	if (c->ncores > 0)
		cJSON_AddItemToObject(line, "cores", cJSON_CreateIntArray(c->cores, c->ncores));
	if (c->has_noise)
		cJSON_AddNumberToObject(line, "noise", round(c->noise * 1000) / 1000);
	if (c->unexpected)
		cJSON_AddTrueToObject(line, "unexpected");
	if (c->noisy)
		cJSON_AddTrueToObject(line, "noisy");
	if (c->why != NULL)
		cJSON_AddStringToObject(line, "why", c->why);
	rc = journal_write(j, line);
	cJSON_Delete(line);
	return rc;
}

/* An optional true/false member; false when absent. */
static int
journal_canary_bool(const cJSON *line, const char *key, bool *out, char **why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(line, key);

	*out = cJSON_IsTrue(v);
	if (v == NULL || cJSON_IsBool(v))
		return 0;
	*why = xasprintf(_("canary line: %s: expected true or false"), key);
	return -EINVAL;
}

int
journal_canary_decode(const cJSON *line, struct journal_canary *c, char **why)
{
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(line, "kind");
	const cJSON *text = cJSON_GetObjectItemCaseSensitive(line, "why");
	const cJSON *noise = cJSON_GetObjectItemCaseSensitive(line, "noise");
	int64_t id = 0, cpu = 0, load = 0, lane = 0, ms = 0, ex = 0, sig = 0;
	const cJSON *v;

	memset(c, 0, sizeof *c);
	if (journal_decode_int(line, "canary", 1, JOURNAL_NUM_MAX, true, &id, why) < 0 ||
	    journal_decode_int(line, "cpu", 1, UTIL_LIST_MAX, true, &cpu, why) < 0 ||
	    journal_decode_int(line, "load", 1, UTIL_LIST_MAX, true, &load, why) < 0 ||
	    journal_decode_int(line, "lane", 0, UTIL_LIST_MAX, false, &lane, why) < 0 ||
	    journal_decode_int(line, "ms", 0, JOURNAL_NUM_MAX, false, &ms, why) < 0 ||
	    journal_decode_int(line, "exit", INT32_MIN, INT32_MAX, false, &ex, why) < 0 ||
	    journal_decode_int(line, "signal", 0, 255, false, &sig, why) < 0 ||
	    journal_canary_bool(line, "timed_out", &c->exit.timed_out, why) < 0 ||
	    journal_canary_bool(line, "unexpected", &c->unexpected, why) < 0 ||
	    journal_canary_bool(line, "noisy", &c->noisy, why) < 0)
		return -EINVAL;
	if (!cJSON_IsString(kind) || kind->valuestring[0] == '\0') {
		*why = xstrdup(_("canary line: kind: expected a string"));
		return -EINVAL;
	}
	if (text != NULL && !cJSON_IsString(text)) {
		*why = xstrdup(_("canary line: why: expected a string"));
		return -EINVAL;
	}
	if (noise != NULL &&
	    (!cJSON_IsNumber(noise) || noise->valuedouble < 0 || noise->valuedouble > 1)) {
		*why = xstrdup(_("canary line: noise: expected a share from 0 to 1"));
		return -EINVAL;
	}
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, "cores"))
	{
		if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > UTIL_LIST_MAX) {
			*why = xstrdup(_("canary line: cores: expected core numbers"));
			return -EINVAL;
		}
		if (c->ncores < JOURNAL_CORES_MAX)
			c->cores[c->ncores++] = (int)v->valuedouble;
	}
	c->canary = id;
	c->kind = kind->valuestring;
	c->cpu = (int)cpu;
	c->load = (int)load;
	c->lane = (int)lane;
	c->ms = ms;
	c->exit.status = (int)ex;
	c->exit.signal = (int)sig;
	c->has_noise = noise != NULL;
	c->noise = noise != NULL ? noise->valuedouble : 0;
	c->why = text != NULL ? text->valuestring : NULL;
	return 0;
}
