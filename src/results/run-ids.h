/* SPDX-License-Identifier: MIT */
/*
 * run-ids.h: the run ids a reader of a journal has counted. Run ids are
 * unique among a journal's run lines (man 5 flakesweep, JOURNAL): a line
 * that repeats one (copied by hand, or appended twice) is counted once, and
 * the reader says where.
 */
#ifndef FLAKESWEEP_RUN_IDS_H
#define FLAKESWEEP_RUN_IDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The warnings kept, and one more saying there were more. */
#define RUN_IDS_WARNINGS 20

struct run_ids {
	struct idset *seen;
	/* "FILE:LINE: run N again; counted once", NULL-terminated */
	char **warnings;
	size_t nwarnings;
};

/* True the first time run (>= 1) is seen in ids (zeroed at first); else
 * false, with a warning naming path and lineno. */
bool run_ids_first(struct run_ids *ids, int64_t run, const char *path, int lineno);

/* Frees what ids holds and zeroes it. */
void run_ids_free(struct run_ids *ids);

#endif
