/* SPDX-License-Identifier: MIT */
/*
 * quarantine.h: the quarantine file (DESIGN section 7; man 5 flakesweep,
 * QUARANTINE FILE). One entry per (test, channel), each with an owner, an
 * issue and an expiry; its status comes from evidence (a results.json and an
 * ambient ledger) at a given time, so the list proves itself stale. The
 * module reads, checks and appends to the file and judges entries; it never
 * runs a test and never skips one.
 */
#ifndef FLAKESWEEP_QUARANTINE_H
#define FLAKESWEEP_QUARANTINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "drivers/driver.h"
#include "decisions/ledger.h"
#include "results/results.h"

struct buf;
struct jsonw;

/* The default file, relative to the project root. */
#define QUARANTINE_DEFAULT_FILE ".flakesweep/quarantine.json"
/* Runs without a failure or hang that prove an entry stale (--min-runs). */
#define QUARANTINE_DEFAULT_MIN_RUNS 100
/* Largest quarantine file read (bytes). */
#define QUARANTINE_MAX_BYTES ((size_t)16 << 20)

enum quarantine_channel_kind {
	QUARANTINE_CHANNEL_ANY,  /* "any": every run of the test */
	QUARANTINE_CHANNEL_PAIR, /* "cpu=C", "load=L" or "cpu=C,load=L" */
	QUARANTINE_CHANNEL_CLOCK,
	QUARANTINE_CHANNEL_RNG,
	QUARANTINE_CHANNEL_NET,
	QUARANTINE_CHANNEL_ENV, /* "env:NAME" */
};

struct quarantine_channel {
	enum quarantine_channel_kind kind;
	int cpu;  /* PAIR: cores per run, or 0 for any */
	int load; /* PAIR: runs per core, or 0 for any */
};

enum quarantine_status {
	QUARANTINE_UNPROVEN, /* not expired; no evidence covers it, or too little */
	QUARANTINE_ACTIVE,   /* not expired; the cause is still seen */
	QUARANTINE_STALE,    /* the evidence shows the cause gone: remove it */
	QUARANTINE_OVERDUE,  /* expired and not shown stale */
	QUARANTINE_INVALID,  /* the entry breaks a rule of the format */
};

/* What the evidence says about one entry. */
struct quarantine_evidence {
	bool covered;      /* some evidence has runs of the test under the channel */
	bool channel_gone; /* the ledger has the test but never shows the channel */
	long runs;         /* runs under the channel: results cells plus ledger runs */
	long failures;
	long hangs;
	long ledger_runs; /* the test's runs in the ledger, for messages */
};

struct quarantine_entry {
	int index; /* 1-based position in the array */
	int line;  /* 1-based line of the entry's first character */
	/* The fields as written; NULL when absent or not a string. */
	char *test;
	char *channel;
	char *reason;
	char *owner;
	char *issue;
	char *expires;
	char *klass;  /* "class": the test's class when it was added, or NULL */
	char *forced; /* "true" when "forced" is true (added against its class), or NULL */
	bool valid;   /* no error in this entry */
	struct quarantine_channel ch; /* parsed channel, when valid */
	int64_t expiry_end_ms;        /* 00:00 UTC of the day after expires, when valid */
	/* Set by quarantine_evaluate(); UNPROVEN (or INVALID) before it. */
	enum quarantine_status status;
	struct quarantine_evidence ev;
	long next_same; /* the next valid entry of the same test, or -1 */
};

/* One line of validation output. */
struct quarantine_problem {
	int index;     /* the entry's 1-based index, or 0 for the whole file */
	int line;      /* 1-based */
	bool warning;  /* a warning does not make the file invalid */
	char *message; /* "PATH:LINE: entry N: FIELD: what is wrong" */
};

struct strmap;

struct quarantine {
	char *path; /* as given; names the file in every message */
	char *text; /* the file's bytes (NUL-terminated), or NULL if it does not exist */
	size_t len;
	struct quarantine_entry *entries; /* in file order */
	size_t nentries;
	struct strmap *by_test;              /* test -> its first valid entry, NULL with none */
	struct quarantine_problem *problems; /* in file order */
	size_t nproblems;
	int nerrors; /* problems that are not warnings */
};

/* Parses a channel ("cpu=2", "load=1", "cpu=1,load=2", "any", "clock",
 * "rng", "net", "env:NAME"). Numbers are positive, without sign or leading
 * zero. Returns 0 or -EINVAL. */
int quarantine_channel_parse(const char *s, struct quarantine_channel *out);

/* Parses len bytes of a quarantine file; path names it in messages. Syntax
 * and validation errors do not fail the call: they are recorded in
 * q->problems (q->nerrors counts the errors) and the entries they concern
 * are marked invalid. Never returns NULL; quarantine_free() it. */
struct quarantine *quarantine_parse(const char *path, const char *text, size_t len);

/* An empty quarantine for a file that does not exist yet (text NULL). */
struct quarantine *quarantine_new(const char *path);

/* Reads path (at most QUARANTINE_MAX_BYTES) and parses it. Returns 0 and
 * *out; -ENOENT when the file does not exist (*out NULL, *err set), so the
 * caller may treat a missing default file as empty; or another negative
 * errno from reading, with *err set (caller frees). */
int quarantine_load(const char *path, struct quarantine **out, char **err);

/* Frees q and everything it owns; NULL is a no-op. */
void quarantine_free(struct quarantine *q);

/* The default file: the first directory from the working directory upwards
 * that holds .flakesweep/quarantine.json, else the first that holds go.mod,
 * .git or .flakesweep, else the working directory; with
 * QUARANTINE_DEFAULT_FILE appended. Relative when the directory is the
 * working directory. Caller frees. */
char *quarantine_default_path(void);

/* Adds the cells of one test at one pair to ev when the channel covers the
 * pair (ANY: all; PAIR: matching cpu and load; ambient channels: never).
 * For engines that hold results in memory rather than as JSON. */
void quarantine_evidence_add_cell(struct quarantine_evidence *ev,
                                  const struct quarantine_channel *ch, int cpu, int load, long runs,
                                  long failures, long hangs);

/* The test of results that an entry's test names: by its id, or for a
 * pytest node id (a file's entry may name it alone), the test whose id
 * ends in it; NULL when none. */
const struct results_test *quarantine_results_test(const struct results *results, const char *test);

/* Gathers the evidence for e: the cells of e->test in results (found by
 * id; NULL for none) and its lines in ledger (NULL for none). ev is
 * overwritten. */
void quarantine_evidence_collect(const struct quarantine_entry *e, const struct results *results,
                                 const struct ledger *ledger, struct quarantine_evidence *ev);

/* The status of a valid entry from its evidence at now_ms (ms since the
 * epoch): a failure or hang seen makes it ACTIVE (OVERDUE once expired);
 * else min_runs clean runs, or a ledger that has the test without the
 * channel, make it STALE; else it is UNPROVEN (OVERDUE once expired). */
enum quarantine_status quarantine_judge(const struct quarantine_entry *e,
                                        const struct quarantine_evidence *ev, int min_runs,
                                        int64_t now_ms);

/* Sets status and ev of every entry of q from results and ledger (either
 * may be NULL) at now_ms. Invalid entries get QUARANTINE_INVALID. */
void quarantine_evaluate(struct quarantine *q, const struct results *results,
                         const struct ledger *ledger, int min_runs, int64_t now_ms);

/* Sets ev of the valid entries of t's test from t's cells alone, as
 * quarantine_evaluate with results and no ledger does: a writer that
 * judges again only the tests whose results changed calls it for those,
 * then quarantine_judge_all. */
void quarantine_evaluate_test(struct quarantine *q, const struct results_test *t);

/* Sets the status of every entry from its ev at now_ms (quarantine_judge):
 * the clock moves expiries when no result changed. */
void quarantine_judge_all(struct quarantine *q, int min_runs, int64_t now_ms);

/* The next valid entry for test after prev (NULL: the first), or NULL.
 * Iterates a test's entries, one per channel. */
const struct quarantine_entry *quarantine_next_for_test(const struct quarantine *q,
                                                        const char *test,
                                                        const struct quarantine_entry *prev);

/* The name under which test's entries are kept: the id, or for a pytest
 * result's id ("P::tests/test_x.py::test_y") its node id
 * ("tests/test_x.py::test_y"), so that an entry may name either. */
const char *quarantine_test_key(const char *id);

/* True when q has a valid entry for test (any channel). */
bool quarantine_has_test(const struct quarantine *q, const char *test);

/* Seconds from now_ms until e expires (the end of its expiry day, UTC);
 * zero or negative once expired. */
int64_t quarantine_countdown_s(const struct quarantine_entry *e, int64_t now_ms);

/* Formats a countdown in seconds as "2d 04:11:07" (days only when there are
 * any), with a leading '-' when negative, into out (size bytes). */
void quarantine_format_countdown(int64_t s, char *out, size_t size);

/* "unproven", "active", "stale", "overdue" or "invalid" (not translated:
 * they are the JSON values too). */
const char *quarantine_status_name(enum quarantine_status s);

/* One line describing ev for entry e ("3 failures, 0 hangs in 500 runs"),
 * translated, into b. */
void quarantine_evidence_describe(const struct quarantine_entry *e,
                                  const struct quarantine_evidence *ev, struct buf *b);

/* The entries of q with their status and countdown at now_ms as JSON
 * (schema flakesweep/quarantine-status/v1, man 5 flakesweep). Caller
 * cJSON_Delete()s it. */
cJSON *quarantine_to_json(const struct quarantine *q, int min_runs, int64_t now_ms);

/* Writes the valid entries of test as a JSON array under key, for
 * results.json's tests[].quarantine ({channel, owner, issue, expires,
 * status, expires_in_s}); nothing when the test has none. */
void quarantine_test_write(struct jsonw *w, const char *key, const struct quarantine *q,
                           const char *test, int64_t now_ms);

/* A new entry for quarantine_add(); reason may be NULL. */
struct quarantine_new_entry {
	const char *test;
	const char *channel;
	const char *reason;
	const char *owner;
	const char *issue;
	const char *expires; /* YYYY-MM-DD */
	const char *klass;   /* the test's class (classify.h), or NULL when unknown */
	bool forced;         /* added against what its class allows (needs a reason) */
};

/* Appends an entry to q's file and to q: refused (-EINVAL, *err naming the
 * field) when a field breaks a rule or expires is before the day of now_ms,
 * when q has errors, and (-EEXIST) when (test, channel) is already there.
 * The text is spliced in after the last entry in the style of the first
 * (indentation, one line or one member per line), so the rest of the file
 * is kept byte for byte; a new file is written with two-space indentation.
 * The file is replaced atomically (util_write_file_atomic) under a lock
 * (util_lock_file), where q->path's symbolic links lead, so the links stay
 * links; its directory is created when missing. On success q describes the new file (statuses
 * reset to UNPROVEN: evaluate again). Returns 0, or a negative errno with
 * *err set (caller frees). */
int quarantine_add(struct quarantine *q, const struct quarantine_new_entry *ne, int64_t now_ms,
                   char **err);

/* Removes from q's file (and q) every entry of test, or only the one for
 * channel when it is not NULL, locked and atomic like quarantine_add and
 * on the file as it is now; the rest of the text is kept byte for byte.
 * *removed (may be NULL) gets how many went. Returns 0, -ENOENT when no
 * entry matches, or another negative errno, with *err (caller frees)
 * saying why. */
int quarantine_remove(struct quarantine *q, const char *test, const char *channel, int *removed,
                      char **err);

/* The export text of q's valid entries that drv owns, each test once, in
 * file order of their packages' first test: drv->skip_args once per
 * package (bare when package is given, which keeps only the tests whose id
 * starts with PACKAGE::; a bare empty pattern when it has none), e.g. "go
 * test -skip PATTERN PACKAGE" lines or pytest "--deselect ID" lines; root
 * (or NULL) is the project's directory, where drv finds each package.
 * Caller frees. */
char *quarantine_export(const struct quarantine *q, const struct driver *drv, const char *package,
                        const char *root);

#endif
