/* SPDX-License-Identifier: MIT */
/*
 * model.h: everything the dashboard draws, as plain data: the header's
 * numbers, the lanes and their runs, the flaky and failing tests, their
 * decisions and the quarantine entries with their status. It is built from
 * a sweep_status (status.h: a live sweep's or a replayed journal's), the
 * results, the decisions and the quarantine file, so every view is a
 * function of a model and golden screens need no live sweep. It never
 * draws.
 */
#ifndef FLAKESWEEP_UI_MODEL_H
#define FLAKESWEEP_UI_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "results/classify.h"
#include "results/decisions.h"
#include "engine/observer.h"
#include "decisions/quarantine.h"
#include "results/replay.h"
#include "results/results-json.h"
#include "results/results.h"
#include "engine/status.h"

struct sweep;

enum model_source {
	MODEL_LIVE, /* a sweep running in this process */
	MODEL_VIEW, /* a journal read back (`flakesweep view DIR`) */
};

/* Where one directory of a view over several shards stands. */
enum model_shard_state {
	MODEL_SHARD_WAITING,   /* no journal yet */
	MODEL_SHARD_LIVE,      /* attached to its sweep's control socket */
	MODEL_SHARD_ELSEWHERE, /* running, its journal followed */
	MODEL_SHARD_FINISHED,
};

/* A shard as the view shows it: its lanes are m->lanes[first_lane] on. */
struct model_shard {
	char *dir, *host; /* host NULL while waiting */
	int index, count;
	int *held, nheld; /* the shards its directory holds: several for a merge */
	enum model_shard_state state;
	char *status; /* finished: "complete", "interrupted"... */
	bool paused;
	int first_lane, nlanes, width;
	int64_t done, target; /* its current phase's runs; every run once finished */
	int inflight;
};

/* What a view over several shards knows of one directory. */
struct model_shard_in {
	const char *dir;
	const struct replay *r;        /* its journal, or NULL: none yet */
	const struct sweep_status *st; /* attached: the status its sweep pushed, or NULL */
	const char *end;               /* attached: how it ended, or NULL */
};

/* A flaky, failing or skip-flaky test. */
struct model_test {
	size_t index; /* into results->tests */
	char *id;
	char *pkg;  /* short package name */
	char *name; /* the test's full name */
	int64_t runs, failures, hangs;
	int64_t skipped; /* the runs it skipped itself in: not among runs */
	enum results_verdict verdict;
	const char *decision; /* "confirmed", "quarantined", "posted", "dismissed" or NULL */
	bool quarantined;     /* the quarantine file has an entry for it */
	bool undecided;       /* flaky, neither decided nor quarantined */
	double severity;      /* the worst pair's lower 95% bound of its failure rate */
	/* Its class (classify.h) and the quarantine channel the class
	 * allows ("" for none), worked out when the tests are listed. */
	enum classify_class klass;
	char class_channel[CLASSIFY_CHANNEL_MAX];
};

/* Something that happened while the dashboard watched a live sweep. */
struct model_event {
	int64_t ms; /* when, ms since the epoch */
	bool problem;
	char *text;
};

/* The event log keeps this many, the oldest dropped first. */
#define MODEL_EVENTS_MAX 500

struct model {
	enum model_source source;
	const struct results *results; /* borrowed: the sweep's or the replay's */
	const struct sweep *sweep;     /* borrowed: the live sweep, or NULL */
	char *outdir;
	char *root; /* the project's root, or NULL */

	/* The header. */
	enum sweep_phase phase;
	char *status;   /* view: "running", "complete" or "interrupted" */
	bool simulated; /* view: a plan's virtual sweep (plan -o) */
	/* A simulated sweep: what each lane carried (the replay's array,
	 * borrowed as results is; NULL otherwise), and its virtual clock: its
	 * last run's end (ms since the epoch). */
	const struct replay_lane *plan_lanes;
	int plan_nlanes;
	int64_t plan_now_ms;
	bool paused, finished;
	bool live;            /* the lanes are a sweep's own: in this process, or attached */
	int64_t done, target; /* runs of the current phase */
	int64_t eta_s;        /* the current phase; -1 when unknown */
	int64_t total_eta_s;  /* the whole sweep, confirm runs projected; -1 when unknown */
	int64_t projected;    /* confirm runs projected for the failed tests, not planned yet */
	int64_t runs;         /* every run counted */
	int64_t flaky, failing, hangs;
	int machine_cores, keep, nlanes, width;
	int64_t started_ms, finished_ms; /* finished_ms 0 while running */
	int *cpus, *loads;
	int ncpus, nloads;
	int count, confirm;
	int64_t deadline_ms; /* a budget's end (--for, --until), or 0 */
	int64_t timeout_ms, kill_grace_ms;
	bool run_only; /* --run: no confirm phase */
	char *commit;  /* the project's commit, or NULL */

	/* Problems: packages that did not build ("name (level)"), and the
	 * counts of the results that no test list shows. */
	char **build_failed;
	size_t nbuild_failed;
	int64_t outside_runs; /* runs that failed outside any test */
	int64_t leaked_runs;  /* runs that left processes behind */
	size_t order_tests;   /* tests that look order-dependent */

	/* A view over several shards: each directory, in the order named
	 * (none otherwise). */
	struct model_shard *shards;
	size_t nshards;

	/* The lane grid. */
	struct status_lane *lanes; /* the lane grid (status.h) */
	int inflight;              /* view: runs started and not finished, elsewhere */

	/* Container and environment levels (status.h): their packages, the
	 * last containers pinned to the kept-back cores, and how many were. */
	struct status_level_pkg *level_pkgs;
	size_t nlevel_pkgs;
	struct results_pin *pins;
	size_t npins;
	int64_t pinned, pin_failed;
	/* The exclusive groups' leases the sweep holds or waits for
	 * (--lease-dir), with their owners. */
	struct status_lease *leases;
	size_t nleases;

	/* Flaky and failing tests: those that need a decision, those decided,
	 * then the failing ones, each group most severe first. */
	struct model_test *tests;
	size_t ntests;
	size_t undecided;       /* tests that need a decision */
	int64_t tests_failures; /* r->failures + r->hangs when tests were listed */

	struct decision *decisions;
	size_t ndecisions;
	/* The project's decisions file, or NULL to use the output directory's. */
	char *decisions_path;

	struct quarantine *quarantine; /* never NULL once loaded */
	char *quarantine_error;        /* why the file could not be read, or NULL */
	int64_t quarantine_mtime_ns;

	/* The live sweep's events, oldest first. */
	struct model_event *events;
	size_t nevents;

	/* ETA bookkeeping: the current phase's start, and since when the
	 * estimate is frozen by a pause (0 when not paused). */
	enum sweep_phase eta_phase;
	int64_t eta_since_ms, eta_done0, paused_since_ms;

	/* view: results.json, for the reproduce commands. */
	struct results *saved;
	struct results_meta saved_meta;
	int64_t results_mtime_ns;
	/* The last reproduce commands, and what they were for. */
	char *repro_key, *repro_flakesweep, *repro_direct;
};

struct model *model_new(enum model_source source);
/* Frees m and what it owns; NULL is a no-op. */
void model_free(struct model *m);

/* Adds an event at ms (text copied); past MODEL_EVENTS_MAX the oldest
 * goes. */
void model_add_event(struct model *m, int64_t ms, bool problem, const char *text);

/* Refreshes everything but the quarantine from a live sweep at now_ms
 * (ms since the epoch). The sweep's results stay borrowed. */
void model_update_live(struct model *m, const struct sweep *s, int64_t now_ms);

/* Recomputes the current phase's ETA and the whole sweep's (the confirm
 * runs of the tests failed so far in the sweep projected) at now_ms, at
 * the pace of the phase so far. While paused both stay as they were and
 * the pause does not count in the pace. Every update calls it. */
void model_eta(struct model *m, int64_t now_ms);

/* Refreshes everything but the quarantine from a replayed journal of the
 * sweep in outdir (both borrowed until the next update). */
void model_update_replay(struct model *m, const struct replay *r, const char *outdir,
                         int64_t now_ms);

/* Like model_update_replay, but the header and the lanes are st's, the
 * status a sweep running elsewhere pushed on its control socket
 * (end_status: how it ended, or NULL while it runs). */
void model_update_attached(struct model *m, const struct replay *r, const struct sweep_status *st,
                           const char *end_status, const char *outdir, int64_t now_ms);

/* Refreshes everything but the quarantine from the n directories of a
 * view over the shards of one sweep: the results are merged (borrowed
 * until the next update), the lanes each sweep's in turn (m->shards says
 * whose), the header's numbers summed over the shards. */
void model_update_shards(struct model *m, const struct results *merged,
                         const struct model_shard_in *in, size_t n, int64_t now_ms);

/* Rebuilds the list of flaky and failing tests from the results (every
 * update does it when a test failed for the first time; call it after the
 * decisions or the quarantine changed). */
void model_list_tests(struct model *m);

/* Reads decisions.json from the output directory and the project's
 * decisions file again. Returns 0 or a negative errno (the decisions are
 * kept as they were). */
int model_load_decisions(struct model *m);

/* Whether the quarantine file exists, or would be created inside the
 * sweep's project (its root on this machine). */
bool model_quarantine_in_project(const struct model *m);

/* The project's decisions file: beside the quarantine file when its
 * directory exists or lies inside the sweep's project; else NULL, and
 * decisions go to decisions.json in the output directory. Borrowed from m
 * until the next call. */
const char *model_decisions_path(struct model *m);

/* Reads the quarantine file at path (copied into the quarantine); a
 * missing file is an empty list. Sets quarantine_error on other errors.
 * Reads only when the file changed since the last call, unless force. */
void model_load_quarantine(struct model *m, const char *path, bool force);

/* Judges every quarantine entry from the results at now_ms (min runs:
 * QUARANTINE_DEFAULT_MIN_RUNS). */
void model_judge_quarantine(struct model *m, int64_t now_ms);

/* The package named pkg when it is at a container or environment level,
 * else NULL (a unit level). */
const struct status_level_pkg *model_level_pkg(const struct model *m, const char *pkg);

/* The test of m->tests at i in the results. */
const struct results_test *model_results_test(const struct model *m, size_t i);

/* Whether t's verdict is provisional: some pair of it has not had its
 * planned runs (sweep_provisional) while the sweep runs; in a view, the
 * sweep did not complete. */
bool model_provisional(const struct model *m, const struct results_test *t);

/* The reproduce commands of test i (borrowed until the next call; empty
 * strings when unknown): from the sweep s, or without one from
 * results.json in the output directory. Cached per test and worst pair. */
void model_reproduce(struct model *m, const struct sweep *s, size_t i, const char **flakesweep,
                     const char **direct);

/* The channel to offer when quarantining t: "any" when it failed at every
 * cpu and every load, "load=L" when it failed at every cpu only at load L,
 * else its worst pair ("cpu=2,load=1"); "any" when it never failed.
 * Caller frees. */
char *model_worst_channel(const struct results_test *t);

#endif
