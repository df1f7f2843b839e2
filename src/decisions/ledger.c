/* SPDX-License-Identifier: MIT */
/*
 * ledger.c: reads an ambient-input ledger and merges the lines of each test
 * (several lines are several runs). It checks every line and stops at the
 * first malformed one; it never decides what a channel means.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/hash.h"
#include "base/json.h"
#include "decisions/ledger.h"
#include "base/util.h"

/* While lines are merged, an open-addressing table maps a test id to its
 * index in the growing array; it is dropped once the ledger is sorted. */
struct ledger_map {
	size_t *slots; /* index + 1, 0 = empty */
	size_t cap;    /* a power of two */
};

bool
ledger_channel_valid(const char *s)
{
	size_t i, n;

	if (s == NULL)
		return false;
	if (strcmp(s, "clock") == 0 || strcmp(s, "rng") == 0 || strcmp(s, "net") == 0)
		return true;
	if (strncmp(s, "env:", 4) != 0)
		return false;
	n = strlen(s + 4);
	if (n == 0 || n > 255)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[4 + i];

		if (c <= ' ' || c >= 0x7f || c == '=')
			return false;
	}
	return true;
}

static size_t *
ledger_map_slot(struct ledger_map *m, const struct ledger *l, const char *test)
{
	size_t i = (size_t)hash_fnv1a_str(test) & (m->cap - 1);

	while (m->slots[i] != 0 && strcmp(l->tests[m->slots[i] - 1].test, test) != 0)
		i = (i + 1) & (m->cap - 1);
	return &m->slots[i];
}

static void
ledger_map_grow(struct ledger_map *m, const struct ledger *l)
{
	size_t i;

	free(m->slots);
	m->cap = m->cap == 0 ? 64 : m->cap * 2;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	for (i = 0; i < l->ntests; i++)
		*ledger_map_slot(m, l, l->tests[i].test) = i + 1;
}

/* The record for test, created (with first line line) when new. */
static struct ledger_test *
ledger_get(struct ledger *l, struct ledger_map *m, const char *test, int line)
{
	size_t *slot;
	struct ledger_test *t;

	if ((l->ntests + 1) * 2 > m->cap)
		ledger_map_grow(m, l);
	slot = ledger_map_slot(m, l, test);
	if (*slot != 0)
		return &l->tests[*slot - 1];
	l->tests = xgrow(l->tests, l->ntests, sizeof *l->tests);
	t = &l->tests[l->ntests++];
	memset(t, 0, sizeof *t);
	t->test = xstrdup(test);
	t->line = line;
	*slot = l->ntests;
	return t;
}

static struct ledger_channel *
ledger_get_channel(struct ledger_test *t, const char *name)
{
	size_t i;
	struct ledger_channel *c;

	for (i = 0; i < t->nchannels; i++) {
		if (strcmp(t->channels[i].name, name) == 0)
			return &t->channels[i];
	}
	t->channels = xgrow(t->channels, t->nchannels, sizeof *t->channels);
	c = &t->channels[t->nchannels++];
	c->name = xstrdup(name);
	c->runs = 0;
	c->failures = 0;
	return c;
}

static int
ledger_cmp_tests(const void *a, const void *b)
{
	return strcmp(((const struct ledger_test *)a)->test, ((const struct ledger_test *)b)->test);
}

static int
ledger_cmp_channels(const void *a, const void *b)
{
	return strcmp(((const struct ledger_channel *)a)->name,
	              ((const struct ledger_channel *)b)->name);
}

/* A member of obj by its exact, case-sensitive name (cJSON's plain lookup
 * ignores case). */
static const cJSON *
ledger_member(const cJSON *obj, const char *name)
{
	return cJSON_GetObjectItemCaseSensitive(obj, name);
}

/* Checks and merges one line; returns NULL, or the problem (caller frees)
 * with *col the column it is at, or 0 when it concerns the whole line. */
static char *
ledger_add_line(struct ledger *l, struct ledger_map *m, const char *text, size_t len, int line,
                int *col)
{
	const char *end = NULL, *why;
	cJSON *root = NULL;
	const cJSON *test, *outcome, *channels, *c;
	struct ledger_test *t;
	bool skipped, failed;
	char *problem = NULL;
	size_t off = 0;
	int l1;

	/* Before cJSON, which takes invalid UTF-8 and cuts a string at a NUL:
	 * one value, valid UTF-8, no raw control character. */
	*col = 0;
	if (json_check(text, len, &off, &why) == 0)
		root = json_parse(text, len, &end, false);
	if (root == NULL) {
		why = json_why(text, len, end, &off);
		json_pos(text, len, off, &l1, col);
		problem = xasprintf(_("invalid JSON (%s)"), why);
		goto out;
	}
	if (!cJSON_IsObject(root)) {
		problem = xstrdup(_("expected a JSON object"));
		goto out;
	}
	test = ledger_member(root, "test");
	if (!cJSON_IsString(test) || test->valuestring[0] == '\0') {
		problem = xasprintf(_("\"%s\": missing or not a non-empty string"), "test");
		goto out;
	}
	outcome = ledger_member(root, "outcome");
	if (!cJSON_IsString(outcome)) {
		problem = xasprintf(_("\"%s\": missing or not a string"), "outcome");
		goto out;
	}
	if (strcmp(outcome->valuestring, "passed") != 0 &&
	    strcmp(outcome->valuestring, "failed") != 0 &&
	    strcmp(outcome->valuestring, "skipped") != 0 &&
	    strcmp(outcome->valuestring, "error") != 0) {
		problem =
		    xasprintf(_("\"outcome\": \"%s\" is not passed, failed, skipped or error"),
		              outcome->valuestring);
		goto out;
	}
	channels = ledger_member(root, "channels");
	if (!cJSON_IsArray(channels)) {
		problem = xasprintf(_("\"%s\": missing or not an array"), "channels");
		goto out;
	}
	cJSON_ArrayForEach(c, channels)
	{
		if (!cJSON_IsString(c)) {
			problem = xstrdup(_("\"channels\": expected an array of strings"));
			goto out;
		}
		if (!ledger_channel_valid(c->valuestring)) {
			problem = xasprintf(
			    _("\"channels\": unknown channel \"%s\" (expected clock, rng, net or env:NAME)"),
			    c->valuestring);
			goto out;
		}
	}
	skipped = strcmp(outcome->valuestring, "skipped") == 0;
	failed = strcmp(outcome->valuestring, "failed") == 0 ||
	         strcmp(outcome->valuestring, "error") == 0;
	t = ledger_get(l, m, test->valuestring, line);
	t->lines++;
	t->runs += !skipped;
	t->failures += failed;
	cJSON_ArrayForEach(c, channels)
	{
		struct ledger_channel *ch;
		const cJSON *d;
		bool dup = false;

		/* A channel listed twice on one line is still one run. */
		for (d = channels->child; d != c; d = d->next)
			dup = dup || strcmp(d->valuestring, c->valuestring) == 0;
		if (dup)
			continue;
		ch = ledger_get_channel(t, c->valuestring);
		ch->runs += !skipped;
		ch->failures += failed;
	}
out:
	cJSON_Delete(root);
	return problem;
}

int
ledger_parse(const char *path, const char *text, size_t len, struct ledger **out, char **err)
{
	struct ledger *l = xcalloc(1, sizeof *l);
	struct ledger_map m = {NULL, 0};
	size_t off = 0, i;
	int line = 0, rc = 0, col;

	l->path = xstrdup(path);
	*out = NULL;
	*err = NULL;
	while (off < len) {
		const char *p = text + off, *nl = memchr(p, '\n', len - off);
		size_t n = nl != NULL ? (size_t)(nl - p) : len - off;
		size_t j;
		bool blank = true;
		char *problem;

		line++;
		off += n + (nl != NULL);
		for (j = 0; j < n && blank; j++)
			blank = p[j] == ' ' || p[j] == '\t' || p[j] == '\r';
		if (blank)
			continue;
		if (n > LEDGER_MAX_LINE) {
			*err = xasprintf(_("%s:%d: line longer than %zu bytes"), path, line,
			                 LEDGER_MAX_LINE);
			rc = -EINVAL;
			goto out;
		}
		problem = ledger_add_line(l, &m, p, n, line, &col);
		if (problem != NULL) {
			*err = col > 0 ? xasprintf("%s:%d:%d: %s", path, line, col, problem)
			               : xasprintf("%s:%d: %s", path, line, problem);
			free(problem);
			rc = -EINVAL;
			goto out;
		}
	}
	if (l->ntests > 1)
		qsort(l->tests, l->ntests, sizeof *l->tests, ledger_cmp_tests);
	for (i = 0; i < l->ntests; i++) {
		if (l->tests[i].nchannels > 1)
			qsort(l->tests[i].channels, l->tests[i].nchannels,
			      sizeof *l->tests[i].channels, ledger_cmp_channels);
	}
out:
	free(m.slots);
	if (rc != 0) {
		ledger_free(l);
		return rc;
	}
	*out = l;
	return 0;
}

int
ledger_load(const char *path, struct ledger **out, char **err)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	*err = NULL;
	rc = util_read_file(path, LEDGER_MAX_BYTES, &text, &len);
	if (rc < 0) {
		*err = xasprintf("%s: %s", path, strerror(-rc));
		return rc;
	}
	rc = ledger_parse(path, text, len, out, err);
	free(text);
	return rc;
}

void
ledger_free(struct ledger *l)
{
	size_t i, j;

	if (l == NULL)
		return;
	for (i = 0; i < l->ntests; i++) {
		for (j = 0; j < l->tests[i].nchannels; j++)
			free(l->tests[i].channels[j].name);
		free(l->tests[i].channels);
		free(l->tests[i].test);
	}
	free(l->tests);
	free(l->path);
	free(l);
}

const struct ledger_test *
ledger_find(const struct ledger *l, const char *test)
{
	struct ledger_test key;

	if (l == NULL || l->ntests == 0)
		return NULL;
	memset(&key, 0, sizeof key);
	key.test = (char *)test;
	return bsearch(&key, l->tests, l->ntests, sizeof *l->tests, ledger_cmp_tests);
}

const struct ledger_channel *
ledger_test_channel(const struct ledger_test *t, const char *name)
{
	struct ledger_channel key;

	if (t == NULL || t->nchannels == 0)
		return NULL;
	key.name = (char *)name;
	key.runs = 0;
	key.failures = 0;
	return bsearch(&key, t->channels, t->nchannels, sizeof *t->channels, ledger_cmp_channels);
}

bool
ledger_same_channels(const struct ledger_test *a, const struct ledger_test *b)
{
	size_t i;

	if (a->nchannels != b->nchannels)
		return false;
	for (i = 0; i < a->nchannels; i++) {
		if (strcmp(a->channels[i].name, b->channels[i].name) != 0)
			return false;
	}
	return true;
}
