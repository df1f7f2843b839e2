/* SPDX-License-Identifier: MIT */
/*
 * decisions.c: reads and updates decisions.json (see decisions.h). It
 * deletes an entry only when its last decision is taken back, and never
 * touches another file of the directory.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "results/decisions.h"
#include "base/json.h"
#include "base/jsonw.h"
#include "base/timefmt.h"
#include "base/util.h"

/* decisions.json stays small: one entry per flaky test. */
#define DECISIONS_MAX_BYTES (64u << 20)

static const char *const decisions_kinds[] = {"posted", "confirmed", "quarantined", "dismissed",
                                              "closed"};

/* What is wrong with a decision object of test (an entry of "tests", or
 * the element at of its history when at >= 0), or NULL (caller frees). */
static char *
decisions_check_decision(const cJSON *e, const char *test, int at)
{
	static const char *const strings[] = {"url", "reason", "channel", "time"};
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(e, "decision");
	char *where = at < 0 ? xasprintf("tests: \"%s\"", test)
	                     : xasprintf("tests: \"%s\": history[%d]", test, at);
	char *why = NULL;
	size_t i;

	if (!cJSON_IsObject(e)) {
		why = xasprintf(_("%s: expected an object"), where);
		goto out;
	}
	if (!cJSON_IsString(d)) {
		why = xasprintf(_("%s: decision: expected a string"), where);
		goto out;
	}
	for (i = 0; i < UTIL_ARRAY_LEN(decisions_kinds); i++) {
		if (strcmp(d->valuestring, decisions_kinds[i]) == 0)
			break;
	}
	if (i == UTIL_ARRAY_LEN(decisions_kinds)) {
		why = xasprintf(_("%s: decision: \"%s\" is not posted, confirmed, quarantined, "
		                  "dismissed or closed"),
		                where, d->valuestring);
		goto out;
	}
	for (i = 0; i < UTIL_ARRAY_LEN(strings); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, strings[i]);

		if (v != NULL && !cJSON_IsString(v) && !cJSON_IsNull(v)) {
			why = xasprintf(_("%s: %s: expected a string"), where, strings[i]);
			goto out;
		}
	}
out:
	free(where);
	return why;
}

/* What is wrong with an entry of "tests", or NULL (caller frees). */
static char *
decisions_check_entry(const cJSON *e)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(e, "history"), *x;
	char *why = decisions_check_decision(e, e->string, -1);
	int at = 0;

	if (why != NULL || h == NULL || cJSON_IsNull(h))
		return why;
	if (!cJSON_IsArray(h))
		return xasprintf(_("tests: \"%s\": history: expected an array"), e->string);
	cJSON_ArrayForEach(x, h)
	{
		why = decisions_check_decision(x, e->string, at++);
		if (why != NULL)
			return why;
	}
	return NULL;
}

/* Reads path as a decisions document; a missing file is a new empty one.
 * A file that is not one gives -EBADMSG and *why (caller frees). */
static int
decisions_read(const char *path, cJSON **out, char **why)
{
	char *text = NULL;
	size_t len = 0, off;
	cJSON *root = NULL, *tests;
	const cJSON *e;
	const char *what, *end = NULL;
	int rc;

	*out = NULL;
	*why = NULL;
	rc = util_read_file(path, DECISIONS_MAX_BYTES, &text, &len);
	if (rc == -ENOENT) {
		root = cJSON_CreateObject();
		cJSON_AddStringToObject(root, "schema", DECISIONS_SCHEMA);
		cJSON_AddItemToObject(root, "tests", cJSON_CreateObject());
		*out = root;
		return 0;
	}
	if (rc < 0)
		return rc;
	/* Clean JSON first: cJSON takes invalid UTF-8 and cuts at a NUL. */
	if (json_check(text, len, &off, &what) == 0)
		root = json_parse(text, len, &end, false);
	if (root == NULL) {
		char *where = json_error(text, len, end);

		*why = xasprintf("%s:%s", path, where);
		free(where);
		free(text);
		return -EBADMSG;
	}
	free(text);
	tests = cJSON_GetObjectItemCaseSensitive(root, "tests");
	if (!cJSON_IsObject(root) || !cJSON_IsObject(tests)) {
		*why = xasprintf(_("%s: expected an object with an object \"tests\""), path);
		cJSON_Delete(root);
		return -EBADMSG;
	}
	cJSON_ArrayForEach(e, tests)
	{
		char *bad = decisions_check_entry(e);

		if (bad != NULL) {
			*why = xasprintf("%s: %s", path, bad);
			free(bad);
			cJSON_Delete(root);
			return -EBADMSG;
		}
	}
	*out = root;
	return 0;
}

char *
decisions_problem(const char *path)
{
	cJSON *root = NULL;
	char *why = NULL;

	decisions_read(path, &root, &why);
	cJSON_Delete(root);
	return why;
}

char *
decisions_error(const char *path, int rc)
{
	char *why = rc == -EBADMSG ? decisions_problem(path) : NULL;

	return why != NULL ? why : xasprintf("%s: %s", path, strerror(-rc));
}

static char *
dup_string(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
}

/* Fills d from the decision object e of test. */
static void
decisions_fill(struct decision *d, const char *test, const cJSON *e)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(e, "history"), *x;

	d->test = xstrdup(test);
	d->decision = dup_string(e, "decision");
	d->url = dup_string(e, "url");
	d->reason = dup_string(e, "reason");
	d->channel = dup_string(e, "channel");
	d->time = dup_string(e, "time");
	if (!cJSON_IsArray(h) || cJSON_GetArraySize(h) == 0)
		return;
	d->history = xcalloc((size_t)cJSON_GetArraySize(h), sizeof *d->history);
	cJSON_ArrayForEach(x, h) decisions_fill(&d->history[d->nhistory++], test, x);
}

int
decisions_load(const char *path, struct decision **out, size_t *n)
{
	cJSON *root, *tests, *e;
	struct decision *v;
	size_t count = 0;
	char *why;
	int rc;

	*out = NULL;
	*n = 0;
	rc = decisions_read(path, &root, &why);
	free(why);
	if (rc < 0)
		return rc;
	tests = cJSON_GetObjectItemCaseSensitive(root, "tests");
	v = xcalloc((size_t)cJSON_GetArraySize(tests) + 1, sizeof *v);
	cJSON_ArrayForEach(e, tests)
	{
		if (!cJSON_IsObject(e) || e->string == NULL)
			continue;
		decisions_fill(&v[count++], e->string, e);
	}
	cJSON_Delete(root);
	*out = v;
	*n = count;
	return 0;
}

int
decisions_load_both(const char *path, const char *over, struct decision **out, size_t *n)
{
	struct decision *a = NULL, *b = NULL;
	size_t na = 0, nb = 0, i, j;
	int rc;

	*out = NULL;
	*n = 0;
	rc = decisions_load(path, &a, &na);
	if (rc == 0 && over != NULL)
		rc = decisions_load(over, &b, &nb);
	if (rc < 0) {
		decisions_free(a, na);
		decisions_free(b, nb);
		return rc;
	}
	a = xrealloc(a, sizeof *a * (na + nb + 1));
	for (j = 0; j < nb; j++) {
		for (i = 0; i < na && strcmp(a[i].test, b[j].test) != 0; i++)
			;
		if (i < na)
			decision_clear(&a[i]);
		else
			na++;
		a[i] = b[j];
	}
	free(b);
	*out = a;
	*n = na;
	return 0;
}

const struct decision *
decisions_find(const struct decision *v, size_t n, const char *test)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(v[i].test, test) == 0)
			return &v[i];
	}
	return NULL;
}

static void
set_string(cJSON *obj, const char *key, const char *value)
{
	cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
	if (value != NULL)
		cJSON_AddStringToObject(obj, key, value);
}

/* Changes test's entry of tests; returns 0 or a negative errno. */
typedef int (*decisions_change_cb)(cJSON *tests, const char *test, void *arg);

/* Applies change to path's document under the directory's lock and writes
 * it back atomically. */
static int
decisions_change(const char *path, const char *test, decisions_change_cb change, void *arg)
{
	char *text = NULL, *why, *target;
	cJSON *root = NULL;
	struct buf b;
	int dfd, rc;

	/* Two writers (a dashboard and a headless report, perhaps through two
	 * links to one shared file) must not lose each other's entries. */
	dfd = util_lock_file(path, &target);
	if (dfd < 0)
		return dfd;
	rc = decisions_read(path, &root, &why);
	free(why);
	if (rc < 0)
		goto out;
	if (cJSON_GetObjectItemCaseSensitive(root, "schema") == NULL)
		cJSON_AddStringToObject(root, "schema", DECISIONS_SCHEMA);
	rc = change(cJSON_GetObjectItemCaseSensitive(root, "tests"), test, arg);
	if (rc < 0)
		goto out;
	text = jsonw_print(root, true);
	buf_init(&b);
	buf_adds(&b, text);
	buf_addc(&b, '\n');
	rc = util_write_file_atomic(target, b.data, b.len);
	buf_free(&b);
out:
	if (text != NULL)
		cJSON_free(text);
	cJSON_Delete(root);
	free(target);
	close(dfd); /* also releases the lock */
	return rc;
}

/* The members of a decision, in the order they are written. */
static const char *const decisions_members[] = {"decision", "url", "reason", "channel", "time"};

struct decisions_new {
	const struct decision *d;
	const char *when;
};

static int
decisions_change_record(cJSON *tests, const char *test, void *arg)
{
	const struct decisions_new *nd = arg;
	const char *values[] = {nd->d->decision, nd->d->url, nd->d->reason, nd->d->channel,
	                        nd->when};
	cJSON *entry = cJSON_GetObjectItemCaseSensitive(tests, test), *h, *old;
	size_t i;

	if (!cJSON_IsObject(entry)) {
		cJSON_DeleteItemFromObjectCaseSensitive(tests, test);
		entry = cJSON_CreateObject();
		cJSON_AddItemToObject(tests, test, entry);
	}
	/* The history stays the entry's last member. */
	h = cJSON_DetachItemFromObjectCaseSensitive(entry, "history");
	if (!cJSON_IsArray(h)) {
		cJSON_Delete(h);
		h = cJSON_CreateArray();
	}
	if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(entry, "decision"))) {
		/* The decision replaced goes to the history. */
		old = cJSON_CreateObject();
		for (i = 0; i < UTIL_ARRAY_LEN(decisions_members); i++) {
			const cJSON *v =
			    cJSON_GetObjectItemCaseSensitive(entry, decisions_members[i]);

			if (cJSON_IsString(v))
				cJSON_AddStringToObject(old, decisions_members[i], v->valuestring);
		}
		cJSON_AddItemToArray(h, old);
	}
	for (i = 0; i < UTIL_ARRAY_LEN(decisions_members); i++)
		set_string(entry, decisions_members[i], values[i]);
	if (cJSON_GetArraySize(h) > 0)
		cJSON_AddItemToObject(entry, "history", h);
	else
		cJSON_Delete(h);
	return 0;
}

int
decisions_record_one(const char *path, const struct decision *d, int64_t time_ms)
{
	char when[40];
	struct decisions_new nd = {d, when};

	timefmt_format_rfc3339(time_ms, when, sizeof when);
	return decisions_change(path, d->test, decisions_change_record, &nd);
}

int
decisions_record(const char *path, const char *test, const char *decision, const char *url,
                 const char *reason, int64_t time_ms)
{
	struct decision d;

	memset(&d, 0, sizeof d);
	d.test = (char *)test;
	d.decision = (char *)decision;
	d.url = (char *)url;
	d.reason = (char *)reason;
	return decisions_record_one(path, &d, time_ms);
}

static int
decisions_change_undo(cJSON *tests, const char *test, void *arg)
{
	struct decision *undone = arg;
	cJSON *entry = cJSON_GetObjectItemCaseSensitive(tests, test), *h, *last;
	size_t i;

	if (!cJSON_IsObject(entry))
		return -ENOENT;
	if (undone != NULL)
		decisions_fill(undone, test, entry);
	h = cJSON_DetachItemFromObjectCaseSensitive(entry, "history");
	if (!cJSON_IsArray(h) || cJSON_GetArraySize(h) == 0) {
		cJSON_Delete(h);
		cJSON_DeleteItemFromObjectCaseSensitive(tests, test);
		return 0;
	}
	last = cJSON_DetachItemFromArray(h, cJSON_GetArraySize(h) - 1);
	for (i = 0; i < UTIL_ARRAY_LEN(decisions_members); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(last, decisions_members[i]);

		set_string(entry, decisions_members[i], cJSON_IsString(v) ? v->valuestring : NULL);
	}
	cJSON_Delete(last);
	if (cJSON_GetArraySize(h) > 0)
		cJSON_AddItemToObject(entry, "history", h);
	else
		cJSON_Delete(h);
	return 0;
}

int
decisions_undo(const char *path, const char *test, struct decision *undone)
{
	if (undone != NULL)
		memset(undone, 0, sizeof *undone);
	return decisions_change(path, test, decisions_change_undo, undone);
}

void
decision_clear(struct decision *d)
{
	free(d->test);
	free(d->decision);
	free(d->url);
	free(d->reason);
	free(d->channel);
	free(d->time);
	decisions_free(d->history, d->nhistory);
	memset(d, 0, sizeof *d);
}

void
decisions_free(struct decision *v, size_t n)
{
	size_t i;

	for (i = 0; v != NULL && i < n; i++)
		decision_clear(&v[i]);
	free(v);
}
