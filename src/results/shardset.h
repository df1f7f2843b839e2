/* SPDX-License-Identifier: MIT */
/*
 * shardset.h: the rules that make directories the shards of one sweep,
 * shared by `flakesweep merge` (merge.h) and `flakesweep view DIR...`:
 * the same commit and configuration (the shard aside), one shard count,
 * each shard once; parts ordered by when they started, then by shard;
 * and the results of several shards as one, as the merged journal would
 * count them. It reads no file.
 */
#ifndef FLAKESWEEP_SHARDSET_H
#define FLAKESWEEP_SHARDSET_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

/* Whether the header lines ha (of directory a) and hb (of b) are of one
 * sweep: the same project.commit and config, config.shard aside, and,
 * when neither has a commit to vouch for its tree, the same project
 * (identity.h: the same origin, else the same root). Returns 0, or -EINVAL with *err (caller frees)
 * naming both directories and the first field that differs. */
int shardset_check_headers(const char *a, const cJSON *ha, const char *b, const cJSON *hb,
                           char **err);

/* Whether shard index_b/count_b of directory b may join shard
 * index_a/count_a of a: the same count, an index in 1..count, not the
 * same index. Returns 0, or -EINVAL with *err (caller frees). */
int shardset_check_index(const char *a, int index_a, int count_a, const char *b, int index_b,
                         int count_b, char **err);

/* The order of parts: the one that started first (ms since the epoch),
 * then the lower shard. Negative, 0 or positive, as for qsort. */
int shardset_cmp(int64_t started_a, int index_a, int64_t started_b, int index_b);

/* One shard's results, for shardset_results. */
struct shardset_part {
	const struct results *results;
	int64_t started_ms;
	int index;
	const char *logdir; /* prefixed to its kept logs' paths, or NULL */
};

/* The results of n parts as the merge of their journals counts them: cells
 * and package counts summed, tests keyed by id and packages by name and
 * level across parts, each test's first failure the one of the earliest
 * part that had one (shardset_cmp), counts by core summed, cascade
 * candidates those every part kept. parts is sorted in place. Free with
 * results_free. */
struct results *shardset_results(struct shardset_part *parts, size_t n);

#endif
