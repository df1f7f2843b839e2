/* SPDX-License-Identifier: MIT */
/*
 * compare-bandaids.c: finds, for compare and verify, the band-aids of each
 * test that failed before, in the change between the two sides' commits,
 * and hands them to the comparison, which calls the test masked or skipped
 * (compare.h). It reads the results' project objects and lets bandaid.c
 * read the checkout.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "drivers/bandaid.h"
#include "results/compare-bandaids.h"

static const char *
compare_bandaids_str(const cJSON *project, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(project, key);

	return cJSON_IsString(v) && v->valuestring[0] != '\0' ? v->valuestring : NULL;
}

static bool
compare_bandaids_failed_before(const struct compare_test *t)
{
	int i;

	for (i = 0; i < t->npairs; i++)
		if (t->pairs[i].before.failures > 0)
			return true;
	return false;
}

int
compare_bandaids(struct compare *c, const cJSON *pb, const cJSON *pa, const char *root, char **err)
{
	const char *before = compare_bandaids_str(pb, "commit");
	const char *after = compare_bandaids_str(pa, "commit");
	const char *driver = compare_bandaids_str(pa, "driver");
	bool worktree = root != NULL || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pa, "dirty"));
	struct stat st;
	size_t i;
	int rc = 0;

	if (root == NULL)
		root = compare_bandaids_str(pa, "root");
	if (before == NULL || driver == NULL || root == NULL || (after == NULL && !worktree) ||
	    (!worktree && strcmp(before, after) == 0) || stat(root, &st) < 0 ||
	    !S_ISDIR(st.st_mode))
		return 0;
	for (i = 0; i < c->ntests && rc == 0; i++) {
		struct compare_test *t = &c->tests[i];
		const char *test = strstr(t->id, "::");
		struct bandaid_list l;

		if (test == NULL || !compare_bandaids_failed_before(t))
			continue;
		rc = bandaid_find(root, before, worktree ? NULL : after, driver, test + 2, &l, err);
		if (rc == 0)
			compare_set_bandaids(c, t->id, &l);
	}
	return rc;
}
