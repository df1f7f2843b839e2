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

#include "drivers/driver.h"
#include "results/journal-header.h"
#include "results/plan-pairs.h"
#include "results/replay-lanes.h"
#include "results/results.h"
#include "results/run-ids.h"

struct replay_shape;
struct journal_tail;

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
	struct plan runs;          /* the runs done at each pair (no targets) */
	struct replay_lanes lanes; /* what each lane carried */
	struct replay_spawn *unfinished;
	size_t nunfinished;
	char **confirm_tests; /* confirm lines: extra confirm runs asked for ... */
	int *confirm_counts;  /* ... and how many */
	size_t nconfirms;
	/* The --mask-env names resume lines added to the header's (a value
	 * masked once is masked on every later resume). */
	char **mask_env;
	size_t nmask_env;
	/* The same for --scrub-env's names. */
	char **scrub_env;
	size_t nscrub_env;
	int64_t max_run;
	int64_t max_canary; /* the last canary run's number */
	bool torn;          /* the last line was torn and skipped */
	char *end_status;   /* from an end line, or NULL */
	cJSON *parts;       /* a merged journal's part lines, or NULL */
	int64_t started_ms, finished_ms;
	struct run_ids run_ids;      /* counted; its warnings are for people */
	struct replay_shape *shapes; /* REPLAY_SHAPES, by set id modulo */
	char *path;                  /* the journal */
	struct journal_tail *tail;   /* where the lines not read yet start */
	unsigned flags;              /* REPLAY_* */
};

/* A simulated sweep's journal (`plan -o`) is read, not refused: view's. */
#define REPLAY_SIMULATED 1u

/* How many set lines' shapes replay keeps at once (a journal of unshuffled
 * runs has a few sets; an old shuffled one, one a run). */
#define REPLAY_SHAPES 64

/* Reads path into r (zeroed by the function). Returns 0, or a negative
 * errno with *err (caller frees) naming the file and line. */
int replay_journal(const char *path, struct replay *r, char **err);

/* The same with flags: a simulated sweep's journal is refused with
 * journal_simulated_refusal unless flags has REPLAY_SIMULATED. */
int replay_journal_flags(const char *path, unsigned flags, struct replay *r, char **err);

/* Reads the lines appended to r's journal since replay_journal or the
 * last call, on from where those stopped: at most about max_bytes of them
 * when max_bytes > 0 (then *more says whether some are left). Returns 0,
 * or a negative errno with *err (caller frees) naming the file and line;
 * the lines before that one are counted in r. */
int replay_update(struct replay *r, size_t max_bytes, bool *more, char **err);

/* Frees what r owns. */
void replay_free(struct replay *r);

#endif
