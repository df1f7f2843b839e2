/* SPDX-License-Identifier: MIT */
/*
 * journal.h: the append-only journal.jsonl, the sweep's source of truth
 * (DESIGN section 5). One JSON object a line, each written whole with one
 * write(2): a header, then build, spawn and run lines; passing test names
 * are stored once per distinct set so a passing run costs under 200 bytes.
 * Format: man 5 flakesweep.
 */
#ifndef FLAKESWEEP_JOURNAL_H
#define FLAKESWEEP_JOURNAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/proc-exit.h"
#include "drivers/driver.h"
#include "drivers/outcome.h"
#include "results/results.h"

#define JOURNAL_SCHEMA "flakesweep/journal/v1"

struct journal;

#define JOURNAL_CORES_MAX 256
/* Debris entries one run line names, at most. */
#define JOURNAL_DEBRIS_MAX 16

/* What the journal records of one finished run besides its outcome. */
struct journal_run {
	int64_t run; /* run id, 1, 2, ... */
	int pkg;     /* package index, as in the build lines */
	enum results_phase phase;
	int cpu, load;
	int lane;
	int64_t ms; /* wall time of the run */
	/* When it was spawned and when it was reaped, in ms since the Unix
	 * epoch (CLOCK_REALTIME, so they survive a reboot and compare across
	 * a merge); 0 when the line has none (journals before them). */
	int64_t began, ended;
	struct proc_exit exit;
	const char *log;      /* kept output, relative to the output directory, or NULL */
	const char *selected; /* confirm: the one test the run selected, or NULL */
	bool leaked;
	int cores[JOURNAL_CORES_MAX]; /* the cores it was pinned to, ncores of them */
	int ncores;
	/* Host noise while it ran (noise.h), when measured: the share of its
	 * cores' time that other processes took, 0.0-1.0, and that time in ms
	 * summed over its cores. */
	bool has_noise;
	double noise, noise_ms;
	bool overlapped; /* another run of its package was alive while it ran */
	/* Debris in the package's shared directory found when it ended (the
	 * path and the run after which each was first seen), and whether it
	 * started with debris there (workdir.h). */
	const char *debris[JOURNAL_DEBRIS_MAX];
	int64_t debris_run[JOURNAL_DEBRIS_MAX];
	int ndebris;
	bool after_debris;
};

/* Opens path for appending (created if missing); the set lines already in
 * it are read back so appended runs can point at them. Returns NULL and
 * sets *err (caller frees) on failure. */
struct journal *journal_open(const char *path, char **err);

/* The same for a journal that read (journal_tail_read) has just read
 * whole, its last line torn or not: the set lines come from read instead
 * of a second read of the file, unless the file changed since. */
struct journal_tail;
struct journal *journal_open_read(const char *path, const struct journal_tail *read, bool torn,
                                  char **err);

/* Closes j. NULL is a no-op. */
void journal_close(struct journal *j);

/* Appends obj as one line (compact JSON + "\n"), whole, in one write,
 * after the lines still pending. Returns 0 or a negative errno (-ENOSPC or
 * -EDQUOT when the disk is full): the file then ends with its last whole
 * line and obj stays pending, in order, for the next write or
 * journal_flush. */
int journal_write(struct journal *j, const cJSON *obj);

/* Writes the pending lines. Returns 0 when none is left, else a negative
 * errno as journal_write. journal_close tries once more. */
int journal_flush(struct journal *j);

/* While held, journal_write only appends a line to the pending ones and
 * returns 0: journal_flush writes them all at once (a sweep's loop does at
 * the end of each turn, so a turn's lines cost one write). Releasing it
 * writes nothing; the next journal_write or journal_flush does. */
void journal_hold(struct journal *j, bool held);

/* True while lines are pending: held, or a write failed and none got them
 * out since. */
bool journal_pending(const struct journal *j);

/* Replaces write(2) for j, so tests can fail writes (a full disk); NULL
 * restores write(2). */
typedef ssize_t (*journal_write_cb)(int fd, const void *buf, size_t len);
void journal_set_write(struct journal *j, journal_write_cb fn);

/* Appends a build line for package index idx: what discovery and the
 * build found, so a resume or a rebuild needs neither again. */
int journal_write_build(struct journal *j, int idx, const struct pkg *pkg);

/* Decodes a build line into a new pkg (caller frees with
 * driver_free_pkgs) and its index. Returns 0, or -EINVAL with *why naming
 * the line's kind and field (caller frees). */
int journal_decode_build(const cJSON *line, struct pkg **pkg, int *idx, char **why);

/* Reads member key of line as a whole number in [min, max] into *out; an
 * absent member is an error only when required (else *out is kept).
 * Returns 0, or -EINVAL with *why ("run line: cpu: expected a whole number
 * from 1 to 1048576", caller frees). Never casts an out-of-range value. */
int journal_decode_int(const cJSON *line, const char *key, int64_t min, int64_t max, bool required,
                       int64_t *out, char **why);

/* The largest package index a build line may carry, and the largest whole
 * number a line's double holds exactly (2^53: run ids, ms, ticks). */
#define JOURNAL_PKG_MAX 1000000
#define JOURNAL_NUM_MAX 9007199254740992LL

/* NULL when header (a header line) names the schema this build reads,
 * else what is wrong ("schema: ...", caller frees). */
char *journal_schema_error(const cJSON *header);

/* Appends a spawn line: the run's pid and the start time of the process
 * (clock ticks, proc_start_ticks), so --resume can kill what a dead sweep
 * left running. */
int journal_write_spawn(struct journal *j, int64_t run, int pid, uint64_t start_ticks);

/* Appends a run line (and the set line its passing tests need, once). */
int journal_write_run(struct journal *j, const struct journal_run *jr, const struct outcome *o);

/* Reads a journal line by line. For each complete line, calls line_cb with
 * the parsed object (borrowed) and its 1-based line number; a line that is
 * not a JSON object, or a set line out of bounds, stops the read with
 * -EINVAL and *err naming the line (and column, for a syntax error), except a
 * torn last line (no newline), which is skipped with *torn set. Run lines
 * are decoded with journal_decode_run, which needs the set lines seen
 * before: pass the same journal_reader to both. Returns 0 or < 0. */
struct journal_reader;
typedef int (*journal_line_cb)(void *arg, struct journal_reader *jr, const cJSON *line, int lineno);
int journal_read(const char *path, journal_line_cb line_cb, void *arg, bool *torn, char **err);

/* A spawn line or a run line every test of which passed or was skipped
 * (no fail, hang, lines, reasons, channels, package or reliability note),
 * read without a cJSON tree: a journal has millions of them. */
struct flatjson_member;

enum journal_fast_kind {
	JOURNAL_FAST_SPAWN,
	JOURNAL_FAST_RUN,
};

struct journal_fast {
	enum journal_fast_kind kind;
	struct journal_run run; /* spawn lines: run.run only; strings borrowed */
	int pid;                /* spawn lines */
	uint64_t start_ticks;   /* spawn lines */
	int64_t set;            /* run lines: the set id, > 0 */
	int set_line;           /* the line that defined that set: a set id
	                         * defined again names another set */
	const char *times;      /* run lines: the "times" array's text, without
	                         * its brackets (journal-times.h), or NULL */
	size_t times_len;
	/* The line's members in order ("type" first), for a reader that
	 * copies the line (flatjson.h). */
	const struct flatjson_member *members;
	int nmembers;
};

/* Called for each fast line before any tree is built. Returns 1 when it
 * took the line, 0 to have it parsed and given to line_cb like any other,
 * or < 0 to stop the read with that value. */
typedef int (*journal_fast_cb)(void *arg, struct journal_reader *reader,
                               const struct journal_fast *line, int lineno);

/* journal_read, offering spawn lines and passing run lines to fast_cb
 * first. */
int journal_read_fast(const char *path, journal_line_cb line_cb, journal_fast_cb fast_cb, void *arg,
                      bool *torn, char **err);

/* A journal read up to some line, to be read on from there as it grows
 * (view follows a running sweep's journal this way). */
struct journal_tail;

struct journal_tail *journal_tail_new(const char *path);

/* Frees t. NULL is a no-op. */
void journal_tail_free(struct journal_tail *t);

/* Where the lines t has not read start. */
off_t journal_tail_offset(const struct journal_tail *t);

/* Reads the whole lines of t's journal after its offset, as
 * journal_read_fast, and moves the offset past each line taken. An
 * unfinished last line sets *torn and is read again next time. With
 * max_bytes > 0 it stops after the line that passes it and sets *more
 * (when not NULL). Returns 0 or < 0; the offset stays at the line that
 * failed. */
int journal_tail_read(struct journal_tail *t, journal_line_cb line_cb, journal_fast_cb fast_cb,
                      void *arg, size_t max_bytes, bool *torn, bool *more, char **err);

/* The overlapped of a run line read next that has none: that of the
 * last defaults line read, false before any. */
bool journal_reader_overlapped(const struct journal_reader *reader);

/* Adds the tests of the set of fast run line l (passed or skipped, in
 * start order) to o (zeroed by the caller). */
void journal_fast_outcome(struct journal_reader *reader, const struct journal_fast *l,
                          struct outcome *o);

/* The kind of a line: "header", "build", "spawn", "set", "run", "confirm",
 * "end". */
const char *journal_line_type(const cJSON *line);

/* Decodes a run line into jr (strings borrowed from line) and a new
 * outcome o (zeroed by the caller; free with outcome_free). Values are
 * checked with the command line's bounds. Returns 0, or -EINVAL with *why
 * naming the field (caller frees). */
int journal_decode_run(struct journal_reader *reader, const cJSON *line, struct journal_run *jr,
                       struct outcome *o, char **why);

#endif
