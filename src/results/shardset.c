/* SPDX-License-Identifier: MIT */
/*
 * shardset.c: the rules that make directories the shards of one sweep
 * (see shardset.h), for merge and for a view of several directories, so
 * both refuse the same pairs with the same words and count the same
 * results. It reads no file.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/identity.h"
#include "results/shardset.h"

/* The first field of config (shard aside) where a and b differ, or NULL. */
static const char *
shardset_config_diff(const cJSON *a, const cJSON *b)
{
	const cJSON *x, *y;

	cJSON_ArrayForEach(x, a)
	{
		if (strcmp(x->string, "shard") == 0)
			continue;
		y = cJSON_GetObjectItemCaseSensitive(b, x->string);
		if (y == NULL || !cJSON_Compare(x, y, true))
			return x->string;
	}
	cJSON_ArrayForEach(y, b)
	{
		if (strcmp(y->string, "shard") != 0 &&
		    cJSON_GetObjectItemCaseSensitive(a, y->string) == NULL)
			return y->string;
	}
	return NULL;
}

int
shardset_check_headers(const char *a, const cJSON *ha, const char *b, const cJSON *hb, char **err)
{
	const cJSON *pa = cJSON_GetObjectItemCaseSensitive(ha, "project"),
	            *pb = cJSON_GetObjectItemCaseSensitive(hb, "project");
	const char *ca = identity_member(pa, "commit"), *cb = identity_member(pb, "commit");
	struct identity_diff d;
	const char *field;

	if (strcmp(ca, cb) != 0) {
		*err = xasprintf(_("%s and %s differ in project.commit (%s, %s): shards of "
		                   "different commits cannot be merged"),
		                 a, b, ca, cb);
		return -EINVAL;
	}
	/* The same commit passed above; without one, the project's identity
	 * (identity.h) says whether they are one project. */
	if (!identity_same(pa, pb, &d)) {
		*err = xasprintf(_("%s and %s differ in project.%s (%s, %s) and no commit "
		                   "vouches for them: shards of different projects cannot "
		                   "be merged"),
		                 a, b, d.field, identity_shown(d.a), identity_shown(d.b));
		return -EINVAL;
	}
	field = shardset_config_diff(cJSON_GetObjectItemCaseSensitive(ha, "config"),
	                             cJSON_GetObjectItemCaseSensitive(hb, "config"));
	if (field != NULL) {
		*err = xasprintf(_("%s and %s differ in config.%s: shards of different "
		                   "configurations cannot be merged"),
		                 a, b, field);
		return -EINVAL;
	}
	return 0;
}

int
shardset_check_index(const char *a, int index_a, int count_a, const char *b, int index_b,
                     int count_b, char **err)
{
	if (count_b != count_a || index_b < 1 || index_b > count_b) {
		*err = xasprintf(_("%s and %s differ in config.shard.count (%d, %d)"), a, b,
		                 count_a, count_b);
		return -EINVAL;
	}
	if (index_a == index_b) {
		*err = xasprintf(_("shard %d/%d is in both %s and %s"), index_b, count_b, a, b);
		return -EINVAL;
	}
	return 0;
}

int
shardset_cmp(int64_t started_a, int index_a, int64_t started_b, int index_b)
{
	if (started_a != started_b)
		return started_a < started_b ? -1 : 1;
	return index_a - index_b;
}

static int
shardset_part_cmp(const void *a, const void *b)
{
	const struct shardset_part *x = a, *y = b;

	return shardset_cmp(x->started_ms, x->index, y->started_ms, y->index);
}

struct results *
shardset_results(struct shardset_part *parts, size_t n)
{
	struct results *r = results_new();
	size_t i;

	qsort(parts, n, sizeof *parts, shardset_part_cmp);
	for (i = 0; i < n; i++)
		results_absorb_part(r, parts[i].results, parts[i].logdir);
	return r;
}
