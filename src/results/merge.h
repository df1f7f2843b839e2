/* SPDX-License-Identifier: MIT */
/*
 * merge.h: one output directory from the shards of a sweep (`flakesweep
 * merge`). The journals are concatenated part by part, each part behind a
 * provenance line (its directory, host, shard and machine), with package,
 * set and run numbers moved past the parts before it and the kept logs
 * carried along; results.json and report.txt are then rebuilt from the
 * merged journal as from any other.
 */
#ifndef FLAKESWEEP_MERGE_H
#define FLAKESWEEP_MERGE_H

/* Writes OUT/journal.jsonl (and OUT/runs/) from the journals of the n
 * directories, each a shard or an earlier merge. Refuses shards of another
 * commit or configuration, naming both directories and the field, and a
 * shard present twice. A kept log is carried only when it is a regular file
 * in its shard's directory, and a run line that repeats a run of its
 * journal is not copied: *warnings (NULL-terminated or NULL, caller frees)
 * names each log skipped and each run repeated (run-ids.h). Returns 0, or
 * a negative errno with *err (caller frees). */
int merge_journals(const char *out, char *const *dirs, int n, char ***warnings, char **err);

#endif
