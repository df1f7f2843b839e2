/* SPDX-License-Identifier: MIT */
/*
 * levels.c: reads .flakesweep/levels.json and the journal header's copy of
 * it (see levels.h). cJSON builds the tree; a small scan of the text finds
 * the line of the member that is wrong, since cJSON keeps no positions. It
 * never starts a container or an environment.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/util.h"
#include "drivers/levels.h"

/* The level that starts containers and the one that needs an environment
 * (its walkthrough's deploy/kind scripts) when no file says otherwise. */
static const struct levels_level levels_default = {(char *)"testcontainers", LEVELS_CONTAINERS,
                                                   (char *)"org.testcontainers=true", NULL, NULL};
static const struct levels_level levels_default_env = {(char *)"functional", LEVELS_ENVIRONMENT,
                                                       NULL, NULL, NULL};

static const char *const levels_kinds[] = {"unit", "containers", "environment"};

const char *
levels_kind_name(enum levels_kind kind)
{
	return levels_kinds[kind];
}

const struct levels_level *
levels_find(const struct levels *lv, const char *name)
{
	size_t i;

	for (i = 0; lv != NULL && i < lv->n; i++) {
		if (strcmp(lv->v[i].name, name) == 0)
			return lv->v[i].kind == LEVELS_UNIT ? NULL : &lv->v[i];
	}
	if (strcmp(name, levels_default.name) == 0)
		return &levels_default;
	return strcmp(name, levels_default_env.name) == 0 ? &levels_default_env : NULL;
}

void
levels_free(struct levels *lv)
{
	size_t i;

	if (lv == NULL)
		return;
	for (i = 0; i < lv->n; i++) {
		free(lv->v[i].name);
		free(lv->v[i].label);
		free(lv->v[i].up);
		free(lv->v[i].down);
	}
	free(lv->v);
	free(lv);
}

cJSON *
levels_json(const struct levels *lv)
{
	cJSON *o = cJSON_CreateObject();
	size_t i;

	for (i = 0; i < lv->n; i++) {
		const struct levels_level *l = &lv->v[i];
		cJSON *e = cJSON_AddObjectToObject(o, l->name);

		cJSON_AddStringToObject(e, "kind", levels_kind_name(l->kind));
		if (l->label != NULL)
			cJSON_AddStringToObject(e, "label", l->label);
		if (l->up != NULL)
			cJSON_AddStringToObject(e, "up", l->up);
		if (l->down != NULL)
			cJSON_AddStringToObject(e, "down", l->down);
	}
	return o;
}

/* ---- decoding ---- */

/* A build tag: letters, digits, '_' and '.', as Go's //go:build lines
 * allow. */
static bool
levels_name_ok(const char *s)
{
	const char *p;

	for (p = s; *p != '\0'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '.'))
			return false;
	}
	return p != s && p - s <= 256;
}

/* A Docker label filter: "key" or "key=value", the key not empty, no
 * blanks or control characters. */
static bool
levels_label_ok(const char *s)
{
	const char *p;

	if (s[0] == '\0' || s[0] == '=' || strlen(s) > 1024)
		return false;
	for (p = s; *p != '\0'; p++) {
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return false;
	}
	return true;
}

static int
levels_bad(struct levels_error *e, const char *name, const char *key, const char *expected)
{
	e->name = name;
	e->key = key;
	e->expected = expected;
	return -EINVAL;
}

/* A non-empty string member, or absent (NULL). */
static int
levels_string(const cJSON *e, const char *key, char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, key);

	*out = NULL;
	if (v == NULL)
		return 0;
	if (!cJSON_IsString(v) || v->valuestring[0] == '\0')
		return -EINVAL;
	*out = xstrdup(v->valuestring);
	return 0;
}

static int
levels_decode_one(const cJSON *e, struct levels_level *l, struct levels_error *err)
{
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(e, "kind"), *m;
	size_t k;

	if (!cJSON_IsObject(e))
		return levels_bad(err, e->string, NULL,
		                  _("an object with \"kind\" and its settings"));
	cJSON_ArrayForEach(m, e)
	{
		if (strcmp(m->string, "kind") != 0 && strcmp(m->string, "label") != 0 &&
		    strcmp(m->string, "up") != 0 && strcmp(m->string, "down") != 0)
			return levels_bad(err, e->string, m->string,
			                  _("no such member (kind, label, up or down)"));
		if (cJSON_GetObjectItemCaseSensitive(e, m->string) != m) {
			levels_bad(err, e->string, m->string, _("each member once"));
			err->nth = 1;
			return -EINVAL;
		}
	}
	for (k = 0; k < UTIL_ARRAY_LEN(levels_kinds); k++) {
		if (cJSON_IsString(kind) && strcmp(kind->valuestring, levels_kinds[k]) == 0)
			break;
	}
	if (k == UTIL_ARRAY_LEN(levels_kinds))
		return levels_bad(err, e->string, "kind",
		                  _("\"unit\", \"containers\" or \"environment\""));
	l->kind = (enum levels_kind)k;
	if (levels_string(e, "label", &l->label) < 0 ||
	    (l->label != NULL && !levels_label_ok(l->label)))
		return levels_bad(err, e->string, "label",
		                  _("a label as \"key=value\" or \"key\", without blanks"));
	if (l->label != NULL && l->kind != LEVELS_CONTAINERS)
		return levels_bad(err, e->string, "label",
		                  _("no label: only a containers level has one"));
	if (l->kind == LEVELS_CONTAINERS && l->label == NULL)
		l->label = xstrdup(levels_default.label);
	if (levels_string(e, "up", &l->up) < 0)
		return levels_bad(err, e->string, "up", _("a command (a string)"));
	if (levels_string(e, "down", &l->down) < 0)
		return levels_bad(err, e->string, "down", _("a command (a string)"));
	if (l->kind != LEVELS_ENVIRONMENT && (l->up != NULL || l->down != NULL))
		return levels_bad(err, e->string, l->up != NULL ? "up" : "down",
		                  _("no command: only an environment level has up and down"));
	return 0;
}

int
levels_decode(const cJSON *o, struct levels **out, struct levels_error *err)
{
	struct levels *lv;
	const cJSON *e;
	size_t i;
	int rc = 0;

	*out = NULL;
	memset(err, 0, sizeof *err);
	if (!cJSON_IsObject(o))
		return levels_bad(err, NULL, NULL,
		                  _("an object of levels (build tags) to their kinds"));
	lv = xcalloc(1, sizeof *lv);
	lv->v = xcalloc((size_t)cJSON_GetArraySize(o) + 1, sizeof *lv->v);
	cJSON_ArrayForEach(e, o)
	{
		struct levels_level *l = &lv->v[lv->n++];

		l->name = xstrdup(e->string);
		if (!levels_name_ok(l->name)) {
			rc =
			    levels_bad(err, e->string, NULL,
			               _("a build tag (letters, digits, '_' and '.') as the name"));
			break;
		}
		for (i = 0; i + 1 < lv->n && strcmp(lv->v[i].name, l->name) != 0; i++)
			;
		if (i + 1 < lv->n) {
			rc = levels_bad(err, e->string, NULL, _("each level named once"));
			err->nth = 1;
			break;
		}
		if ((rc = levels_decode_one(e, l, err)) < 0)
			break;
	}
	if (rc < 0) {
		levels_free(lv);
		return rc;
	}
	*out = lv;
	return 0;
}

char *
levels_where(const char *prefix, const struct levels_error *e)
{
	return xasprintf("%s%s%s%s%s", prefix, e->name != NULL ? "." : "",
	                 e->name != NULL ? e->name : "", e->key != NULL ? "." : "",
	                 e->key != NULL ? e->key : "");
}

/* ---- the file ---- */

/* Skips a JSON string starting at its opening quote; returns the offset
 * after the closing one. The text is valid JSON (cJSON took it). */
static size_t
levels_skip_string(const char *s, size_t n, size_t i)
{
	for (i++; i < n && s[i] != '"'; i++) {
		if (s[i] == '\\')
			i++;
	}
	return i + 1;
}

/* The offset of the key path[0..depth) of the document text (valid JSON),
 * as deep as it is found: path {"levels", NAME, KEY} finds KEY in NAME, or
 * NAME when it has no KEY; the last key's nth occurrence (from 0). The key is compared raw, so a
 * name written with escapes is found at its parent. */
static size_t
levels_offset(const char *s, size_t n, const char *const *path, int depth, int nth)
{
	size_t i = 0, best = 0, end;
	int level = 0, matched = 0;

	while (i < n) {
		if (s[i] == '{' || s[i] == '[') {
			level++;
			i++;
		} else if (s[i] == '}' || s[i] == ']') {
			/* Leaving the object the path went into: the member
			 * is not there. */
			if (level-- == matched + 1 && matched > 0)
				break;
			i++;
		} else if (s[i] == '"') {
			end = levels_skip_string(s, n, i);
			if (level == matched + 1 && matched < depth &&
			    end - i - 2 == strlen(path[matched]) &&
			    memcmp(s + i + 1, path[matched], end - i - 2) == 0) {
				size_t j = end;

				while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r' ||
				                 s[j] == '\n'))
					j++;
				if (j < n && s[j] == ':') {
					best = i;
					/* The nth of members named alike. */
					if (matched + 1 == depth && nth-- > 0) {
						i = end;
						continue;
					}
					if (++matched == depth)
						break;
				}
			}
			i = end;
		} else {
			i++;
		}
	}
	return best;
}

int
levels_parse(const char *path, const char *text, size_t len, struct levels **out, char **err)
{
	const char *errptr = NULL, *keys[3] = {"levels", NULL, NULL};
	struct levels_error e;
	cJSON *doc, *levels, *m;
	char *where;
	int rc = -EINVAL, line, col;

	*out = NULL;
	*err = NULL;
	doc = json_parse(text, len, &errptr, false);
	if (doc == NULL || json_check(text, len, &(size_t){0}, &e.expected) < 0) {
		char *why = json_error(text, len, errptr != NULL ? errptr : text + len);

		*err = xasprintf("%s:%s", path, why);
		free(why);
		goto out;
	}
	levels = cJSON_GetObjectItemCaseSensitive(doc, "levels");
	if (!cJSON_IsObject(doc) || levels == NULL) {
		*err = xasprintf(_("%s:1: expected an object {\"levels\": {...}}"), path);
		goto out;
	}
	cJSON_ArrayForEach(m, doc)
	{
		if (strcmp(m->string, "levels") != 0) {
			keys[0] = m->string;
			json_pos(text, len, levels_offset(text, len, keys, 1, 0), &line, &col);
			*err = xasprintf(_("%s:%d: %s: expected no such member (only \"levels\")"),
			                 path, line, m->string);
			goto out;
		}
		/* cJSON keeps both and finds the first: a second would be
		 * ignored without a word. */
		if (m != levels) {
			json_pos(text, len, levels_offset(text, len, keys, 1, 1), &line, &col);
			*err = xasprintf(_("%s:%d: levels: expected each member once"), path, line);
			goto out;
		}
	}
	rc = levels_decode(levels, out, &e);
	if (rc == 0)
		goto out;
	keys[1] = e.name;
	keys[2] = e.key;
	json_pos(text, len,
	         levels_offset(text, len, keys,
	                       e.name == NULL  ? 1
	                       : e.key == NULL ? 2
	                                       : 3,
	                       e.nth),
	         &line, &col);
	where = levels_where("levels", &e);
	*err = xasprintf(_("%s:%d: %s: expected %s"), path, line, where, e.expected);
	free(where);
out:
	cJSON_Delete(doc);
	return rc;
}

int
levels_load(const char *root, struct levels **out, char **err)
{
	char *path = xasprintf("%s/%s", root, LEVELS_FILE), *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	*err = NULL;
	rc = util_read_file(path, LEVELS_MAX_BYTES, &text, &len);
	if (rc == -ENOENT)
		rc = 0;
	else if (rc == -EFBIG)
		*err = xasprintf(_("%s: expected at most %d bytes"), path, LEVELS_MAX_BYTES);
	else if (rc < 0)
		*err = xasprintf("%s: %s", path, strerror(-rc));
	else
		rc = levels_parse(path, text, len, out, err);
	free(text);
	free(path);
	return rc;
}
