/* SPDX-License-Identifier: MIT */
/*
 * replay.h: rebuilds a sweep's state from its journal: the header, the
 * packages, the results and how many runs each pair has done. --resume,
 * `report --rebuild` and `view` all start here. It only reads.
 */
#ifndef FLAKESWEEP_REPLAY_H
#define FLAKESWEEP_REPLAY_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "driver.h"
#include "results.h"
#include "sweep-config.h"

/* Runs done at one pair: (package, cpu, load) in the sweep, (test, cpu,
 * load) in confirm. */
struct replay_pair {
	enum results_phase phase;
	int pkg;
	char *test; /* confirm: the selected test's full name; NULL in the sweep */
	int cpu, load;
	int runs;
	int64_t ms; /* their total wall time */
};

/* A run that was spawned and never recorded as finished. */
struct replay_spawn {
	int64_t run;
	int pid;
	uint64_t start_ticks;
};

struct replay {
	struct journal_header header; /* the header line, decoded */
	bool has_header;
	struct pkg **pkgs; /* from the build lines, by index */
	size_t npkgs;
	struct results *results;
	struct replay_pair *pairs;
	size_t npairs;
	struct replay_spawn *unfinished;
	size_t nunfinished;
	char **confirm_tests; /* confirm lines: extra confirm runs asked for ... */
	int *confirm_counts;  /* ... and how many */
	size_t nconfirms;
	int64_t max_run;
	bool torn;        /* the last line was torn and skipped */
	char *end_status; /* from an end line, or NULL */
	int64_t started_ms, finished_ms;
};

/* Reads path into r (zeroed by the function). Returns 0, or a negative
 * errno with *err (caller frees) naming the file and line. */
int replay_journal(const char *path, struct replay *r, char **err);

/* Frees what r owns. */
void replay_free(struct replay *r);

#endif
