/* SPDX-License-Identifier: MIT */
/*
 * sweep-int.h: the state one sweep shares among its own files: sweep.c
 * (its life and commands), sweep-exec.c (the scheduler core's decisions
 * carried out), sweep-end.c (the records and the end), sweep-confirm.c,
 * sweep-status.c, sweep-reproduce.c, run.c (one run), build.c (the build
 * phase), order.c (the polluter searches), sweep-containers.c,
 * sweep-environments.c, sweep-secrets.c. It is not installed and nothing
 * outside those files includes it; everyone else sees the sweep through
 * sweep.h.
 */
#ifndef FLAKESWEEP_SWEEP_INT_H
#define FLAKESWEEP_SWEEP_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "decisions/quarantine.h"
#include "engine/control.h"
#include "drivers/project.h"
#include "engine/containers.h"
#include "engine/lanes.h"
#include "engine/noise.h"
#include "engine/plan.h"
#include "engine/polluter.h"
#include "engine/proc.h"
#include "engine/sched.h"
#include "engine/sched-core.h"
#include "engine/sweep-config.h"
#include "engine/sweep.h"
#include "engine/tmpdir-pool.h"
#include "engine/workdir.h"
#include "results/journal.h"
#include "results/replay.h"
#include "base/util.h"

#define SWEEP_PORT_FIRST 20000
#define SWEEP_PORT_WINDOW 100
#define SWEEP_PORT_SLOTS ((65000 - SWEEP_PORT_FIRST) / SWEEP_PORT_WINDOW)

struct sweep_live {
	struct sweep_run pub;
	struct sweep *s;
	struct sched_run *sr;
	struct proc *proc;
	struct driver_parser *parser;
	struct buf head;
	char *tail; /* ring of the last RUN_CAPTURE_TAIL bytes once head is full */
	size_t tail_len, tail_pos;
	int64_t dropped;
	char *tmpdir;
	bool leaked; /* something it started outlived it: its TMPDIR is not reused */
	int port_slot;
	struct noise_run *noise;
	/* Its noise once it ended (run_end_noise): the share, < 0 unmeasured,
	 * and the other processes' time on its cores, ms. */
	double noise_share, noise_other_ms;
	bool overlapped; /* another run of its package was alive meanwhile */
	int canary;      /* a canary run's kind (engine/canary.h), else -1 */
	/* It started with debris in its package's directory. */
	bool after_debris;
};

/* The polluter searches of the confirm phase's end (order.c): one at a
 * time, one probe run at a time. */
struct sweep_order {
	struct polluter *search; /* the current one, or NULL */
	size_t next;             /* the next test to consider */
	size_t test;             /* the current one's test */
	char *seed;              /* its failing seed */
	char **commands;         /* each polluter found's direct command, or NULL */
	size_t ncommands;
	struct plan_pair **probes; /* each with its own seed */
	size_t nprobes;
};

struct sweep_build {
	struct sweep *s;
	int pkg;
	struct buf out;
	struct proc *proc;        /* the build, then the listing */
	int tries;                /* the listing's */
	struct sweep_build *next; /* builds in flight */
};

struct sweep {
	uv_loop_t *loop;
	struct options *o;
	struct observer obs;
	const struct driver *driver;
	struct project proj;
	char *outdir;
	struct journal *journal;
	struct journal_header hdr; /* as written, or as resumed with this machine */
	cJSON *header;             /* hdr encoded, for results.json */
	struct lanes lanes;
	struct pkg **pkgs;
	size_t npkgs;
	struct results *results;
	struct sched_core *core; /* the run phases' plans and scheduler */
	bool *pkg_capped;        /* per package: its runs count against --containers */
	enum sweep_phase phase;
	struct sweep_live **live;
	size_t nlive;
	bool port_used[SWEEP_PORT_SLOTS];
	int64_t next_run;
	int64_t next_canary;  /* canary runs number on their own */
	char *canary_program; /* flakesweep's own executable, run as the canaries */
	int64_t started_ms, finished_ms;
	size_t next_build, builds_running, builds_done;
	struct sweep_build *builds; /* in flight, for the interrupt */
	int build_parallel;
	uv_timer_t flush_timer;
	uv_timer_t reap_timer;
	uv_timer_t journal_timer;   /* retries the journal while it is blocked */
	bool journal_blocked;       /* lines wait in memory: no run starts */
	int64_t journal_blocked_ms; /* since when (util_mono_ms) */
	const char *end_status;     /* set by sweep_finish */
	uv_timer_t quiet_timer;     /* --quiet: lets held lanes probe */
	uv_prepare_t settle;        /* the end of each turn of the loop: sweep_settle_cb */
	int timers_closing;         /* the four timers and settle, closed by sweep_finish */
	char *reopen_test;          /* confirm runs asked while they close */
	int reopen_count;
	struct control *control; /* the control socket, or NULL */
	bool *quiet_waiting;     /* per lane: its last run was noisy */
	bool dirty, interrupting, finished, resumed, infra_error;
	bool stopped;                  /* sweep_stop: the interrupt ends the sweep as complete */
	bool checked;                  /* the driver checked the options (driver.check) */
	int outdir_made;               /* trailing directories of outdir the sweep created */
	struct replay replay;          /* what --resume read back */
	struct quarantine *quarantine; /* the quarantine file, or NULL */
	/* results.json's and report.txt's texts kept between rewrites */
	struct report_keep *json_cache;
	struct noise *noise;          /* host noise on the lanes' cores */
	struct sweep_lease *lease;    /* --lease-dir (sweep-lease.h), or NULL */
	struct workdir_watch **watch; /* per package, from its first run on */
	struct tmpdir_pool *tmp_pool; /* the runs' idle TMPDIRs */
	struct run_env *run_env[2];   /* what runs, [0], and canaries, [1], inherit */
	struct sweep_order order;     /* polluter searches */
	struct sweep_watch *watches;  /* per container label: pins its containers */
	size_t nwatches;
	struct sweep_env **envs; /* the walkthroughs' environments */
	size_t nenvs;
	int *pkg_env;       /* per package: its environment, or -1 */
	bool images_begun;  /* sweep_envs_images ran */
	int images_running; /* image builds in flight */
	int exit_status;
	struct mask *mask;     /* the values masked in the children's output */
	struct budget *budget; /* --for, --until (budget.c), or NULL */
};

/* sweep-secrets.c: takes the values to mask from flakesweep's environment
 * (names that look like secrets', and o->mask_env) and masks them in every
 * child's output from then on; the end stops masking. */
void sweep_secrets_begin(struct sweep *s);
void sweep_secrets_end(struct sweep *s);

/* The current phase's scheduler, or NULL before the first. */
static inline struct sched *
sweep_sched(const struct sweep *s)
{
	return s->core != NULL ? sched_core_sched(s->core) : NULL;
}

/* sweep-exec.c: a message to the front end (stderr without one); a
 * problem for the observer; the journal write's result (a failure pauses
 * the sweep); the phase, journaled and told; the harness recorded from the
 * sweep phase on; the sweep phase begun (the packages are built); the
 * core's decisions carried out until it has none (after every event); the
 * interrupt. */
void sweep_message(struct sweep *s, const char *fmt, ...);
/* Tells the observer of a problem (observer.problem); text from fmt. */
void sweep_problem(struct sweep *s, enum observer_problem kind, const char *what, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));
void sweep_journal_check(struct sweep *s, int rc);
void sweep_set_phase(struct sweep *s, enum sweep_phase phase);
void sweep_harness_on(struct sweep *s);
void sweep_begin_sweep(struct sweep *s);
void sweep_drive(struct sweep *s);

/* sweep-end.c: the timers of a running sweep and its control socket
 * (at the start, and when a finished sweep takes confirm runs); the end:
 * the last results written, the journal's end line, the exit status. */
void sweep_init_timers(struct sweep *s);
void sweep_start_timers(struct sweep *s);
void sweep_finish(struct sweep *s, const char *status);

/* sweep-confirm.c: journals a confirm request for count runs of t and
 * hands it to the core, reopening a sweep that ended complete; 0 or
 * -EAGAIN, -ENOEXEC, -ENOTDIR, -ENOENT (sweep_confirm_strerror). */
int sweep_confirm_now(struct sweep *s, const struct results_test *t, int count);

/* sweep-resume.c: the journal's resume line. */
void sweep_resume_line(struct sweep *s);

/* sweep-containers.c: when a package to run is at a container level, follows the
 * engine and pins its containers to the kept-back cores; without an engine
 * those packages fail with the reason, as a build does. */
void sweep_watch_containers(struct sweep *s);
/* The package is at a container level: its runs count against
 * --containers. */
bool sweep_containers_level(const struct sweep *s, const struct pkg *p);
/* Stops following the engine. */
void sweep_containers_close(struct sweep *s);
/* Journals a "pin" line for container id pinned to cpuset (error NULL) or
 * not, counting it for the n packages pkgs in the results. */
void sweep_containers_journal_pin(struct sweep *s, const char *id, const char *cpuset,
                                  int64_t latency_ms, const char *error, const int *pkgs, size_t n);

/* sweep-environments.c: environment levels. sweep_envs_find finds each
 * environment level's walkthrough (a package in none fails), once;
 * sweep_envs_images finds them and starts their image builds, once;
 * true while images build (build_next is called when the last is done).
 * sweep_envs_up brings environment e up on lane (its containers pinned
 * to the lane's cores as they start), sweep_envs_down takes it down (the
 * scheduler core decides both); sweep_envs_run_env adds the environment's names
 * to a run of pkg; sweep_envs_stop takes every environment still up down
 * (the sweep ends); sweep_envs_free frees them. */
bool sweep_envs_level(const struct sweep *s, const struct pkg *p);
void sweep_envs_find(struct sweep *s);
bool sweep_envs_images(struct sweep *s);
void sweep_envs_up(struct sweep *s, int e, int lane);
void sweep_envs_down(struct sweep *s, int e, int lane);
void sweep_envs_run_env(const struct sweep *s, int pkg, char ***env, size_t *n);
void sweep_envs_stop(struct sweep *s);
/* What environment env (-1: none) does, for the status ("flaky-wt1 up"),
 * or NULL. Caller frees. */
char *sweep_envs_label(const struct sweep *s, int env);
void sweep_envs_free(struct sweep *s);

/* run.c: starts one run the scheduler core placed; frees one run that is
 * over or never started. */
void run_start(struct sweep *s, struct sched_run *sr);
void run_free(struct sweep_live *l);
/* The shuffle seed of run id started at now_ms, in decimal digits (at most
 * 12), into buf. */
void run_seed(char *buf, size_t size, int64_t now_ms, int64_t id);

/* build.c: starts builds while fewer than build_parallel run; once all
 * are done, splits the levels, journals the builds and begins the sweep
 * phase. */
void build_next(struct sweep *s);
/* build.c: a package's build (and listing) is over: checks the options
 * against the first package that listed, frees b and starts the next. */
void build_finish(struct sweep_build *b);
/* build.c: a build's or a listing's output into b->out (a proc_output_cb),
 * at most a megabyte. */
void build_on_output(void *arg, const char *data, size_t len);

/* listing.c: runs the driver's listing of b's package (built) on the
 * loop, as b, then calls build_finish. */
void listing_start(struct sweep_build *b);

/* order.c: schedules the next probe of the polluter searches (each test
 * that looks order-dependent once the confirm phase is done, one at a
 * time), recording each search that ends in results and the journal;
 * false when none is left. order_feed takes a probe's outcome, its run's
 * cores (cpu of them) for the reproduce command; order_free frees the
 * searches and their probe pairs. */
bool order_next(struct sweep *s);
void order_feed(struct sweep *s, const struct plan_pair *probe, const int *cpus,
                const struct outcome *o);
void order_free(struct sweep *s);

#endif
