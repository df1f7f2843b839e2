/* SPDX-License-Identifier: MIT */
/*
 * quarantine-export.c: the quarantine file's tests as a driver's skip
 * arguments, one call of the driver's skip_args per package, packages and
 * tests in the order the file first names them.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/driver.h"
#include "decisions/quarantine.h"
#include "base/util.h"

/* A test of the export, with its package's length and its position. */
struct quarantine_ref {
	const char *test;
	size_t plen;
	size_t pos;
};

/* The tests of one package: refs[start, end), first seen at pos. */
struct quarantine_group {
	size_t start, end, pos;
};

static int
quarantine_cmp_packages(const struct quarantine_ref *x, const struct quarantine_ref *y)
{
	int c = memcmp(x->test, y->test, x->plen < y->plen ? x->plen : y->plen);

	if (c != 0)
		return c;
	return x->plen < y->plen ? -1 : x->plen > y->plen;
}

static int
quarantine_cmp_refs(const void *a, const void *b)
{
	const struct quarantine_ref *x = a, *y = b;
	int c = quarantine_cmp_packages(x, y);

	if (c != 0)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int
quarantine_cmp_groups(const void *a, const void *b)
{
	const struct quarantine_group *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Orders entries by test, then position. */
static int
quarantine_cmp_tests(const void *a, const void *b)
{
	const struct quarantine_entry *x = *(const struct quarantine_entry *const *)a;
	const struct quarantine_entry *y = *(const struct quarantine_entry *const *)b;
	int c = strcmp(x->test, y->test);

	if (c != 0)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

static bool
quarantine_in_package(const char *test, const char *package)
{
	size_t n = strlen(package);

	return strncmp(test, package, n) == 0 && strncmp(test + n, "::", 2) == 0;
}

char *
quarantine_export(const struct quarantine *q, const struct driver *drv, const char *package,
                  const char *root)
{
	const char **tests = xcalloc(q->nentries + 1, sizeof *tests);
	const struct quarantine_entry **sorted = xcalloc(q->nentries + 1, sizeof *sorted);
	bool *first = xcalloc(q->nentries + 1, sizeof *first);
	size_t ntests = 0, nsorted = 0, ngroups = 0, i, j, g;
	struct quarantine_ref *refs;
	struct quarantine_group *groups;
	const char **names;
	struct buf b;

	buf_init(&b);
	/* Each test once, at its first entry: sort, keep the first of each
	 * run, then walk the file order. Only the driver's own tests. */
	for (i = 0; i < q->nentries; i++) {
		const struct quarantine_entry *e = &q->entries[i];

		if (e->valid && drv->owns_test(e->test) &&
		    (package == NULL || quarantine_in_package(e->test, package)))
			sorted[nsorted++] = e;
	}
	if (nsorted > 1)
		qsort(sorted, nsorted, sizeof *sorted, quarantine_cmp_tests);
	for (i = 0; i < nsorted; i++)
		first[sorted[i]->index - 1] =
		    i == 0 || strcmp(sorted[i - 1]->test, sorted[i]->test) != 0;
	for (i = 0; i < q->nentries; i++) {
		if (first[i])
			tests[ntests++] = q->entries[i].test;
	}
	free(sorted);
	free(first);
	/* One call per package, packages in the order of their first test:
	 * sort by package (then position), cut into runs, order the runs. */
	refs = xcalloc(ntests + 1, sizeof *refs);
	for (i = 0; i < ntests; i++) {
		refs[i].test = tests[i];
		refs[i].plen = (size_t)(strstr(tests[i], "::") - tests[i]);
		refs[i].pos = i;
	}
	if (ntests > 1)
		qsort(refs, ntests, sizeof *refs, quarantine_cmp_refs);
	groups = xcalloc(ntests + 1, sizeof *groups);
	for (i = 0; i < ntests; i = j) {
		for (j = i + 1; j < ntests && quarantine_cmp_packages(&refs[i], &refs[j]) == 0; j++)
			;
		groups[ngroups].start = i;
		groups[ngroups].end = j;
		groups[ngroups].pos = refs[i].pos;
		ngroups++;
	}
	if (ngroups > 1)
		qsort(groups, ngroups, sizeof *groups, quarantine_cmp_groups);
	names = xcalloc(ntests + 1, sizeof *names);
	for (g = 0; g < ngroups; g++) {
		const struct quarantine_ref *r = &refs[groups[g].start];
		char *pkg = xstrndup(r->test, r->plen), *text;
		size_t nnames = 0;

		for (i = groups[g].start; i < groups[g].end; i++)
			names[nnames++] = refs[i].test + refs[i].plen + 2;
		text = drv->skip_args(pkg, names, nnames, package != NULL, root);
		buf_adds(&b, text);
		free(text);
		free(pkg);
	}
	free(names);
	free(groups);
	free(refs);
	/* A package named but without a quarantined test: an empty pattern. */
	if (package != NULL && ntests == 0) {
		char *text = drv->skip_args(package, NULL, 0, true, root);

		buf_adds(&b, text);
		free(text);
	}
	free(tests);
	buf_add(&b, "", 0);
	return buf_steal(&b);
}
