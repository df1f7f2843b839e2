/* SPDX-License-Identifier: MIT */
/*
 * bandaid-reach.c: which tests a band-aid or a synchronisation primitive
 * found in a change can touch, from the file and the declaration that hold
 * it (bandaid-reach.h). Pure: it reads no file.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "drivers/bandaid-reach.h"

char *
bandaid_test_func(bool go, const char *test)
{
	const char *s = test, *end, *p;

	if (go)
		return xstrndup(s, strcspn(s, "/"));
	end = s + strcspn(s, "[");
	while ((p = strstr(s, "::")) != NULL && p < end)
		s = p + 2;
	return xstrndup(s, (size_t)(end - s));
}

static bool
bandaid_reach_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* A file the framework collects tests from: Go's _test.go, pytest's
 * test_*.py and *_test.py (never conftest.py). */
static bool
bandaid_reach_test_file(bool go, const char *path)
{
	const char *base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	if (go)
		return bandaid_reach_suffix(base, "_test.go");
	return strcmp(base, "conftest.py") != 0 &&
	       ((strncmp(base, "test_", 5) == 0 && bandaid_reach_suffix(base, ".py")) ||
	        bandaid_reach_suffix(base, "_test.py"));
}

/* A test of its own: Go's top-level Test, Benchmark, Fuzz and Example
 * functions (TestMain runs them all), pytest's test functions and Test
 * classes. */
static bool
bandaid_reach_is_test(bool go, const char *decl)
{
	static const char *const go_prefixes[] = {"Test", "Benchmark", "Fuzz", "Example"};
	size_t i;

	if (!go)
		return strncmp(decl, "test", 4) == 0 || strncmp(decl, "Test", 4) == 0;
	if (strchr(decl, '.') != NULL || strcmp(decl, "TestMain") == 0)
		return false;
	for (i = 0; i < sizeof go_prefixes / sizeof *go_prefixes; i++)
		if (strncmp(decl, go_prefixes[i], strlen(go_prefixes[i])) == 0)
			return true;
	return false;
}

/* decl names one of the parts of a pytest name: a class or the function. */
static bool
bandaid_reach_names_part(const char *test, const char *decl)
{
	size_t n = strlen(decl);
	const char *s = test, *end = test + strcspn(test, "[");

	while (n > 0) {
		size_t len = strcspn(s, ":[");

		if (len == n && strncmp(s, decl, n) == 0)
			return true;
		if ((s = strstr(s, "::")) == NULL || s >= end)
			return false;
		s += 2;
	}
	return false;
}

enum bandaid_reach
bandaid_reach(bool go, const char *path, bool declares, const char *decl, const char *test)
{
	char *func = bandaid_test_func(go, test);
	bool own = decl[0] != '\0' &&
	           (strcmp(decl, func) == 0 || (!go && bandaid_reach_names_part(test, decl)));

	free(func);
	if (own)
		return BANDAID_OWN;
	if (!declares && !bandaid_reach_test_file(go, path))
		return BANDAID_SHARED;
	if (decl[0] != '\0' && bandaid_reach_is_test(go, decl))
		return BANDAID_OTHER;
	return go || declares ? BANDAID_SHARED : BANDAID_OTHER;
}

static bool
bandaid_reach_word(const char *uses, const char *word, size_t n)
{
	const char *s = uses;

	while (*s != '\0') {
		size_t len = strcspn(s, " ");

		if (len == n && strncmp(s, word, n) == 0)
			return true;
		s += len;
		s += strspn(s, " ");
	}
	return false;
}

bool
bandaid_reach_uses(const char *uses, const char *decl)
{
	const char *dot = strchr(decl, '.');

	if (decl[0] == '\0')
		return true;
	if (dot != NULL)
		return bandaid_reach_word(uses, decl, (size_t)(dot - decl)) ||
		       bandaid_reach_word(uses, dot + 1, strlen(dot + 1));
	return bandaid_reach_word(uses, decl, strlen(decl));
}
