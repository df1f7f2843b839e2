/* SPDX-License-Identifier: MIT */
/*
 * exclusive.c: the exclusive groups' names and patterns. A package pattern
 * matches an import path, or, when it starts with ./, ../ or /, a package's
 * directory; "..." in it matches any text, and "x/..." matches x itself
 * too, as go's patterns do. It never starts a process.
 */
#include "config.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/exclusive.h"

/* Whether s matches pattern p, "..." matching any text. */
static bool
exclusive_glob(const char *p, const char *s)
{
	const char *dots = strstr(p, "...");
	size_t k;

	if (dots == NULL)
		return strcmp(p, s) == 0;
	k = (size_t)(dots - p);
	if (strncmp(p, s, k) != 0)
		return false;
	/* "x/..." matches x too. */
	if (k > 0 && p[k - 1] == '/' && dots[3] == '\0' && strlen(s) == k - 1 &&
	    strncmp(p, s, k - 1) == 0)
		return true;
	for (s += k;; s++) {
		if (exclusive_glob(dots + 3, s))
			return true;
		if (*s == '\0')
			return false;
	}
}

static bool
exclusive_is_dir(const char *pattern)
{
	return strncmp(pattern, "./", 2) == 0 || strncmp(pattern, "../", 3) == 0 ||
	       pattern[0] == '/' || strcmp(pattern, ".") == 0;
}

/* A directory pattern with its fixed part (up to "...") resolved: the
 * pattern relative to dir, "/..." kept after it. Caller frees. */
static char *
exclusive_resolve(const char *p, const char *dir)
{
	char *abs = p[0] == '/' ? xstrdup(p) : xasprintf("%s/%s", dir != NULL ? dir : ".", p);
	char *dots = strstr(abs, "..."), *rest = xstrdup(dots != NULL ? dots : ""), *out;
	char real[PATH_MAX];

	if (dots != NULL)
		*dots = '\0';
	if (realpath(abs, real) == NULL) {
		if (dots != NULL)
			*dots = '.';
		free(rest);
		return abs;
	}
	out = xasprintf("%s%s%s", real, dots != NULL && dots[-1] == '/' ? "/" : "", rest);
	free(rest);
	free(abs);
	return out;
}

/* Whether package pattern pat (len bytes) matches pkg. */
static bool
exclusive_pkg(const char *pat, size_t len, const char *dir, const struct pkg *pkg)
{
	char *p = xstrndup(pat, len), *full, real[PATH_MAX];
	bool ok;

	if (!exclusive_is_dir(p)) {
		ok = exclusive_glob(p, pkg->name);
		free(p);
		return ok;
	}
	full = exclusive_resolve(p, dir);
	ok = pkg->dir != NULL && realpath(pkg->dir, real) != NULL && exclusive_glob(full, real);
	free(full);
	free(p);
	return ok;
}

/* Whether group spec matches a run of pkg (test: the one it runs, or NULL
 * for the whole package). */
static bool
exclusive_matches(const char *spec, const char *dir, const struct pkg *pkg, const char *test)
{
	const char *pat = strchr(spec, '=') + 1, *sep = strstr(pat, "::");
	size_t plen = sep != NULL ? (size_t)(sep - pat) : strlen(pat);

	if (!exclusive_pkg(pat, plen, dir, pkg))
		return false;
	if (sep == NULL || test == NULL)
		return true;
	/* A confirm run of the test, or of one of its subtests. */
	return exclusive_glob(sep + 2, test) ||
	       (strncmp(test, sep + 2, strlen(sep + 2)) == 0 && test[strlen(sep + 2)] == '/');
}

unsigned
exclusive_mask(char *const *specs, int n, const char *dir, const struct pkg *pkg, const char *test)
{
	unsigned mask = 0;
	int i;

	for (i = 0; i < n && i < OPTIONS_EXCLUSIVE_MAX; i++)
		if (exclusive_matches(specs[i], dir, pkg, test))
			mask |= 1u << i;
	return mask;
}

char *
exclusive_unmatched(char *const *specs, int n, const char *dir, struct pkg *const *pkgs,
                    size_t npkgs)
{
	int i;
	size_t j, t;

	for (i = 0; i < n; i++) {
		const char *sep = strstr(strchr(specs[i], '=') + 1, "::");
		bool pkg_found = false, found = false;

		for (j = 0; j < npkgs && !found; j++) {
			if (!exclusive_matches(specs[i], dir, pkgs[j], NULL))
				continue;
			pkg_found = true;
			found = sep == NULL || pkgs[j]->tests == NULL;
			for (t = 0; !found && t < pkgs[j]->ntests; t++)
				found =
				    exclusive_matches(specs[i], dir, pkgs[j], pkgs[j]->tests[t]);
		}
		if (!pkg_found)
			return xasprintf(_("--exclusive %s matches no package"), specs[i]);
		if (!found)
			return xasprintf(_("--exclusive %s matches no test of its packages"),
			                 specs[i]);
	}
	return NULL;
}

char *
exclusive_unlisted(char *const *specs, int i, const char *dir, struct pkg *const *pkgs,
                   size_t npkgs)
{
	size_t j;

	if (strstr(strchr(specs[i], '=') + 1, "::") == NULL)
		return NULL;
	for (j = 0; j < npkgs; j++)
		if (pkgs[j]->build_ok && pkgs[j]->tests == NULL &&
		    exclusive_matches(specs[i], dir, pkgs[j], NULL))
			return xasprintf(_("--exclusive %s: %s does not list its tests before they "
			                   "run, so only the pattern's package is checked"),
			                 specs[i], pkgs[j]->name);
	return NULL;
}

void
exclusive_name(char *const *specs, int i, char *out, size_t size)
{
	size_t k = strcspn(specs[i], "=");

	if (k >= size)
		k = size - 1;
	memcpy(out, specs[i], k);
	out[k] = '\0';
}
