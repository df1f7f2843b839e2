/* SPDX-License-Identifier: MIT */
/*
 * bisect.h: which commit made a test flaky. Binary search between a good
 * and a bad commit; each probed commit gets its own git worktree (the
 * user's tree is never touched) and a sequential run of the test at one
 * pair (sequential.h) until it is judged flaky or clean. A commit that
 * cannot run the test is skipped as `git bisect skip` does. A journal per
 * commit lets an interrupted bisect resume. It parses no command line.
 */
#ifndef FLAKESWEEP_BISECT_H
#define FLAKESWEEP_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/options.h"

struct bisect_config {
	const char *repo; /* the user's git tree */
	const char *good; /* revisions, as git names them */
	const char *bad;
	const char *test; /* the test's full name as runs report it */
	const char *id;   /* the test as given: names it in messages */
	/* The package whose test it is, as runs name it (the id's part before
	 * "::"); NULL: any. A same-named test of another package is not it. */
	const char *package;
	const char *outdir; /* worktrees, runs and journals go under it; NULL
	                     * for one under flakesweep-out/ named by id,
	                     * good and bad */
	int cpu, load;
	double p0, p1;         /* the sequential test: flaky at p0, clean at p1 */
	int64_t budget;        /* runs per commit at most */
	struct options *sweep; /* driver, command or package; -o and the
	                        * directory are set per commit */
};

enum bisect_state {
	BISECT_UNPROBED,
	BISECT_CLEAN,
	BISECT_FLAKY,
	BISECT_SKIPPED,   /* does not build or lacks the test */
	BISECT_UNDECIDED, /* the budget ran out first */
};

struct bisect_commit {
	char *sha;
	char *subject;
	enum bisect_state state;
	int64_t runs, failures;
	bool lacks_test; /* skipped: its first run did not report the test */
	char *why;       /* skipped: why its sweep could not start, or NULL */
	bool resumed;    /* read back from its journal */
};

struct bisect {
	struct bisect_commit *commits; /* good first, bad last */
	size_t ncommits;
	size_t lo, hi; /* the last clean and the first flaky commit known */
	char *outdir;  /* cfg->outdir, or the one picked without it */
};

/* What a bisect tells its front end as it goes, the way a sweep's observer
 * does; b is borrowed for the call. Any member may be NULL. */
struct bisect_observer {
	void *arg;
	/* The commits are listed; the range is good to bad. */
	void (*listed)(void *arg, const struct bisect *b);
	/* Commit i is about to be probed (or read back from its journal). */
	void (*probing)(void *arg, const struct bisect *b, size_t i);
	/* Commit i is judged, and b->lo and b->hi narrowed by it. */
	void (*probed)(void *arg, const struct bisect *b, size_t i);
	/* Something the user should know that does not stop the bisect
	 * (msg names the file). */
	void (*warning)(void *arg, const char *msg);
};

/* Bisects into *b (free with bisect_free), telling obs (borrowed, or
 * NULL) as it goes. A revision that starts with '-' or names no commit,
 * or good and bad that are the same commit, is -EINVAL with *err (caller
 * frees), as is a range git cannot list; a worktree that cannot be made
 * is -EIO; a test that no probed commit has is -ENOENT. SIGINT, SIGTERM
 * and SIGHUP are caught while it runs, never blocked, and stop it with
 * -EINTR during a probe or between two (the probe's worktree is removed;
 * the commits judged so far keep their journals). b->outdir is set once
 * the commits are listed. */
int bisect_run(const struct bisect_config *cfg, struct bisect *b, const struct bisect_observer *obs,
               char **err);

/* The first bad commit, or NULL when the evidence cannot separate the
 * commits from b->lo + 1 to b->hi. */
const struct bisect_commit *bisect_first_bad(const struct bisect *b);

/* The result for people: every probed commit with its runs and rate, then
 * the first bad commit or the range the evidence cannot separate. Caller
 * frees. */
char *bisect_to_text(const struct bisect *b);

const char *bisect_state_name(enum bisect_state s);

void bisect_free(struct bisect *b);

#endif
