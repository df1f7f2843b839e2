/* SPDX-License-Identifier: MIT */
/*
 * decisions.c: reads and updates decisions.json (see decisions.h). It
 * never deletes an entry and never touches another file of the output
 * directory.
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
#include "base/timefmt.h"
#include "base/util.h"

/* decisions.json stays small: one entry per flaky test. */
#define DECISIONS_MAX_BYTES (64u << 20)

static const char *const decisions_kinds[] = {"posted", "confirmed", "quarantined", "dismissed"};

/* What is wrong with an entry of "tests", or NULL (caller frees). */
static char *
decisions_check_entry(const cJSON *e)
{
	static const char *const strings[] = {"url", "reason", "time"};
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(e, "decision");
	size_t i;

	if (!cJSON_IsObject(e))
		return xasprintf(_("tests: \"%s\": expected an object"), e->string);
	if (!cJSON_IsString(d))
		return xasprintf(_("tests: \"%s\": decision: expected a string"), e->string);
	for (i = 0; i < UTIL_ARRAY_LEN(decisions_kinds); i++) {
		if (strcmp(d->valuestring, decisions_kinds[i]) == 0)
			break;
	}
	if (i == UTIL_ARRAY_LEN(decisions_kinds))
		return xasprintf(_("tests: \"%s\": decision: \"%s\" is not posted, confirmed, "
		                   "quarantined or dismissed"),
		                 e->string, d->valuestring);
	for (i = 0; i < UTIL_ARRAY_LEN(strings); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, strings[i]);

		if (v != NULL && !cJSON_IsString(v) && !cJSON_IsNull(v))
			return xasprintf(_("tests: \"%s\": %s: expected a string"), e->string,
			                 strings[i]);
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
	const char *what;
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
		root = cJSON_ParseWithLength(text, len);
	if (root == NULL) {
		char *where = json_error(text, len, cJSON_GetErrorPtr());

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

static char *
dup_string(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
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
		v[count].test = xstrdup(e->string);
		v[count].decision = dup_string(e, "decision");
		v[count].url = dup_string(e, "url");
		v[count].reason = dup_string(e, "reason");
		v[count].time = dup_string(e, "time");
		count++;
	}
	cJSON_Delete(root);
	*out = v;
	*n = count;
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

int
decisions_record(const char *path, const char *test, const char *decision, const char *url,
                 const char *reason, int64_t time_ms)
{
	char *text = NULL, *why;
	char when[40];
	cJSON *root = NULL, *tests, *entry;
	int dfd, rc;

	/* Two writers (a dashboard and a headless report) must not lose each
	 * other's entries: lock the directory, not a file rename replaces. */
	dfd = util_lock_dir_of(path);
	if (dfd < 0)
		return dfd;
	rc = decisions_read(path, &root, &why);
	free(why);
	if (rc < 0)
		goto out;
	if (cJSON_GetObjectItemCaseSensitive(root, "schema") == NULL)
		cJSON_AddStringToObject(root, "schema", DECISIONS_SCHEMA);
	tests = cJSON_GetObjectItemCaseSensitive(root, "tests");
	entry = cJSON_GetObjectItemCaseSensitive(tests, test);
	if (!cJSON_IsObject(entry)) {
		cJSON_DeleteItemFromObjectCaseSensitive(tests, test);
		entry = cJSON_CreateObject();
		cJSON_AddItemToObject(tests, test, entry);
	}
	timefmt_format_rfc3339(time_ms, when, sizeof when);
	set_string(entry, "decision", decision);
	set_string(entry, "url", url);
	set_string(entry, "reason", reason);
	set_string(entry, "time", when);
	text = cJSON_Print(root);
	if (text == NULL)
		fatal("%s", _("out of memory"));
	{
		struct buf b;

		buf_init(&b);
		buf_adds(&b, text);
		buf_addc(&b, '\n');
		rc = util_write_file_atomic(path, b.data, b.len);
		buf_free(&b);
	}
out:
	if (text != NULL)
		cJSON_free(text);
	cJSON_Delete(root);
	close(dfd); /* also releases the lock */
	return rc;
}

void
decisions_free(struct decision *v, size_t n)
{
	size_t i;

	for (i = 0; v != NULL && i < n; i++) {
		free(v[i].test);
		free(v[i].decision);
		free(v[i].url);
		free(v[i].reason);
		free(v[i].time);
	}
	free(v);
}
