/* SPDX-License-Identifier: MIT */
/*
 * go-miss.c: what the Go driver's discovery says of a pattern that names
 * no package it can sweep (see go-miss.h). Each message names the pattern
 * and says what was expected, as a mistyped directory's does.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/gettext.h"
#include "base/util.h"
#include "drivers/go-miss.h"

bool
go_miss_match(const char *pattern, const char *path)
{
	const char *dots = strstr(pattern, "...");
	size_t len = strlen(pattern), head;

	/* Go's own sets, which it expands. */
	if (strcmp(pattern, "all") == 0 || strcmp(pattern, "std") == 0 ||
	    strcmp(pattern, "cmd") == 0)
		return true;
	if (len >= 4 && strcmp(pattern + len - 4, "/...") == 0 &&
	    strncmp(pattern, path, len - 4) == 0 && path[len - 4] == '\0')
		return true;
	if (dots == NULL)
		return strcmp(pattern, path) == 0;
	head = (size_t)(dots - pattern);
	if (strncmp(pattern, path, head) != 0)
		return false;
	for (path += head;; path++) {
		if (go_miss_match(dots + 3, path))
			return true;
		if (*path == '\0')
			return false;
	}
}

char *
go_miss_dir(const struct go_module *m, const char *root)
{
	size_t rlen = strlen(root);

	if (strcmp(m->dir, root) == 0)
		return xstrdup(".");
	if (strncmp(m->dir, root, rlen) == 0 && m->dir[rlen] == '/')
		return xasprintf(".%s", m->dir + rlen);
	return xstrdup(m->dir);
}

/* How a message names the modules of below: "the module P", "the modules
 * P, Q", or "a module here" when none has a path. */
static char *
go_miss_modules(const struct go_modules *below)
{
	struct buf b;
	size_t i, n = 0;
	char *list, *s;

	buf_init(&b);
	for (i = 0; i < below->n; i++) {
		if (below->v[i].path != NULL)
			buf_printf(&b, "%s%s", n++ > 0 ? ", " : "", below->v[i].path);
	}
	list = buf_steal(&b);
	s = n == 0   ? xstrdup(_("a module here"))
	    : n == 1 ? xasprintf(_("the module %s"), list)
	             : xasprintf(_("the modules %s"), list);
	free(list);
	return s;
}

/* The import path of the directory dir, in a module of below, with suffix
 * appended, or NULL when no module of below holds it. */
static char *
go_miss_path_of(const struct go_modules *below, const char *dir, const char *suffix)
{
	char *home = go_modules_home(dir), *real = realpath(dir, NULL), *path = NULL;
	size_t i;

	for (i = 0; home != NULL && real != NULL && path == NULL && i < below->n; i++) {
		const struct go_module *m = &below->v[i];

		if (m->path != NULL && strcmp(m->dir, home) == 0)
			path = xasprintf("%s%s%s", m->path, real + strlen(home), suffix);
	}
	free(real);
	free(home);
	return path;
}

char *
go_miss_import_path(const struct go_modules *below, const char *root, const char *pattern,
                    const char *why)
{
	const struct go_module *m = go_modules_owner(below, pattern);
	char *mods, *msg, *base, *dir, *path, *reason, *work;
	const char *dots = strstr(pattern, "...");
	size_t blen = dots != NULL ? (size_t)(dots - pattern) : strlen(pattern);
	struct stat st;

	if (m != NULL && (work = go_modules_work_leaves_out(m->dir)) != NULL) {
		/* The module is there, but the go.work in use leaves it out. */
		struct go_modules left;

		memset(&left, 0, sizeof left);
		go_modules_add(&left, m->dir);
		msg = go_miss_outside_work(pattern, &left, work, root);
		go_modules_free(&left);
		free(work);
		return msg;
	}
	if (m != NULL && dots != NULL)
		return xasprintf(_("%s: matches no package of module %s (%s): expected a pattern "
		                   "over its directories that hold Go files"),
		                 pattern, m->path, m->dir);
	if (m != NULL) {
		const char *rest = pattern + strlen(m->path);

		return xasprintf(_("%s: module %s (%s) has no package %s: expected the import path "
		                   "of one of its directories that holds Go files, or a pattern "
		                   "ending in /... that matches one"),
		                 pattern, m->path, m->dir,
		                 rest[0] == '/' ? rest + 1 : _("at its root"));
	}
	mods = go_miss_modules(below);
	while (blen > 0 && pattern[blen - 1] == '/')
		blen--;
	base = xstrndup(pattern, blen);
	dir = xasprintf("%s/%s", root, base);
	path = stat(dir, &st) == 0 && S_ISDIR(st.st_mode)
	           ? go_miss_path_of(below, dir, pattern + blen)
	           : NULL;
	if (path != NULL) {
		msg = xasprintf(
		    _("%s: neither a directory nor an import path of %s: expected ./%s or "
		      "%s"),
		    pattern, mods, pattern, path);
	} else {
		reason = why != NULL ? xstrndup(why, strcspn(why, "\n")) : NULL;
		msg = xasprintf(
		    _("%s: neither a directory nor an import path of %s%s%s%s: expected a "
		      "package directory (./DIR), a pattern ending in /... or an import "
		      "path"),
		    pattern, mods, reason != NULL ? " (go list: " : "",
		    reason != NULL ? reason : "", reason != NULL ? ")" : "");
		free(reason);
	}
	free(path);
	free(dir);
	free(base);
	free(mods);
	return msg;
}

char *
go_miss_outside_work(const char *pattern, const struct go_modules *left, const char *work,
                     const char *root)
{
	struct buf names, dirs;
	size_t i;
	char *msg, *n, *d;

	buf_init(&names);
	buf_init(&dirs);
	for (i = 0; i < left->n; i++) {
		char *dir = go_miss_dir(&left->v[i], root);

		buf_printf(&names, "%s%s (%s)", i > 0 ? ", " : "",
		           left->v[i].path != NULL ? left->v[i].path : dir, dir);
		buf_printf(&dirs, "%s%s", i > 0 ? " " : "", dir);
		free(dir);
	}
	n = buf_steal(&names);
	d = buf_steal(&dirs);
	msg = left->n == 1
	          ? xasprintf(_("%s: module %s is outside go.work (%s), which does not use "
	                        "it: `go work use %s` adds it"),
	                      pattern, n, work, d)
	          : xasprintf(_("%s: modules %s are outside go.work (%s), which uses none of "
	                        "them: `go work use %s` adds them"),
	                      pattern, n, work, d);
	free(n);
	free(d);
	return msg;
}

char *
go_miss_left_out(const struct go_module *m, const char *work, const char *root)
{
	char *dir = go_miss_dir(m, root), *msg;

	msg = xasprintf(_("go.work (%s) does not use module %s (%s): its tests are left out; `go "
	                  "work use %s` adds it"),
	                work, m->path != NULL ? m->path : dir, dir, dir);
	free(dir);
	return msg;
}
