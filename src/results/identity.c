/* SPDX-License-Identifier: MIT */
/*
 * identity.c: whether two recorded projects are the same project (see
 * identity.h). It reads no file.
 */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/identity.h"

const char *
identity_member(const cJSON *project, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(project, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

/* The origin URL as host/path (caller frees): the scheme, the user and
 * the port dropped, the host in lower case; a local path stays a path.
 * A trailing ".git" or "/" is dropped from either, so "git@host:o/r.git"
 * and "https://host/o/r" are one. */
static char *
identity_origin_key(const char *url)
{
	const char *scheme = strstr(url, "://"), *host = scheme != NULL ? scheme + 3 : url;
	const char *at = strchr(host, '@'), *slash, *colon, *path;
	char *key;
	size_t i, hlen = 0, len;

	slash = strchr(host, '/');
	if (at != NULL && (slash == NULL || at < slash))
		host = at + 1;
	slash = strchr(host, '/');
	colon = strchr(host, ':');
	if (scheme == NULL && (colon == NULL || (slash != NULL && slash < colon))) {
		key = xstrdup(url);
	} else {
		hlen = colon != NULL && (slash == NULL || colon < slash) ? (size_t)(colon - host)
		       : slash != NULL                                   ? (size_t)(slash - host)
		                                                         : strlen(host);
		path = scheme == NULL ? colon + 1 : slash != NULL ? slash + 1 : "";
		while (*path == '/')
			path++;
		key = xasprintf("%.*s/%s", (int)hlen, host, path);
	}
	for (i = 0; i < hlen; i++)
		key[i] = (char)tolower((unsigned char)key[i]);
	len = strlen(key);
	while (len > 1 && key[len - 1] == '/')
		key[--len] = '\0';
	if (len > 4 && strcmp(key + len - 4, ".git") == 0)
		key[len - 4] = '\0';
	return key;
}

/* Whether directory a is b or inside it. */
static bool
identity_inside(const char *a, const char *b)
{
	size_t n = strlen(b);

	return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/' || (n > 0 && b[n - 1] == '/'));
}

/* The directory a local origin names, written plainly (caller frees):
 * "file://" dropped, "." and ".." components and repeated or trailing
 * slashes resolved, a last "/.git" dropped; NULL when origin is no
 * absolute local path. Links are not followed: this reads no file. */
static char *
identity_local_dir(const char *origin)
{
	const char *p = strncmp(origin, "file://", 7) == 0 ? origin + 7 : origin;
	char *out, *o;
	size_t len;

	if (*p != '/')
		return NULL;
	out = xmalloc(strlen(p) + 2);
	o = out;
	while (*p != '\0') {
		const char *end;

		while (*p == '/')
			p++;
		end = p + strcspn(p, "/");
		len = (size_t)(end - p);
		if (len == 2 && strncmp(p, "..", 2) == 0) {
			while (o > out && *--o != '/')
				;
		} else if (len > 0 && !(len == 1 && *p == '.')) {
			*o++ = '/';
			memcpy(o, p, len);
			o += len;
		}
		p = end;
	}
	if (o - out >= 5 && strncmp(o - 5, "/.git", 5) == 0)
		o -= 5;
	if (o == out)
		*o++ = '/';
	*o = '\0';
	return out;
}

/* Whether origin is a local path naming root (the other side's, which
 * records no origin of its own) or a directory that holds it. */
static bool
identity_names_root(const char *origin, const char *other_origin, const char *root)
{
	char *dir;
	bool same;

	if (*other_origin != '\0' || *root == '\0' || (dir = identity_local_dir(origin)) == NULL)
		return false;
	same = identity_inside(root, dir);
	free(dir);
	return same;
}

int
identity_same(const cJSON *pa, const cJSON *pb, struct identity_diff *d)
{
	const char *ca = identity_member(pa, "commit"), *cb = identity_member(pb, "commit");
	const char *oa = identity_member(pa, "origin"), *ob = identity_member(pb, "origin");
	const char *ra = identity_member(pa, "root"), *rb = identity_member(pb, "root");
	char *ka, *kb;
	bool same;

	if (*ca != '\0' && strcmp(ca, cb) == 0)
		return 1;
	/* A clone of a repository that has no origin records that
	 * repository's directory as its origin. */
	if (identity_names_root(oa, ob, rb) || identity_names_root(ob, oa, ra))
		return 1;
	ka = identity_origin_key(oa);
	kb = identity_origin_key(ob);
	same = strcmp(ka, kb) == 0;
	free(ka);
	free(kb);
	d->field = "origin";
	d->a = oa;
	d->b = ob;
	if (!same || *oa != '\0')
		return same;
	d->field = "root";
	d->a = ra;
	d->b = rb;
	return *ra == '\0' || *rb == '\0' || identity_inside(ra, rb) || identity_inside(rb, ra);
}

char *
identity_diff_text(const struct identity_diff *d)
{
	return xasprintf(_("%s %s vs %s"), d->field, identity_shown(d->a), identity_shown(d->b));
}

const char *
identity_shown(const char *value)
{
	return *value != '\0' ? value : _("none");
}
