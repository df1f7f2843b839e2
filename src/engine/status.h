/* SPDX-License-Identifier: MIT */
/*
 * status.h: where a sweep stands, as plain data for front ends: the phase,
 * the progress of that phase, the settings that size it, the lanes with
 * their runs and what each lane holds back, and the runs in flight. A live
 * sweep fills it (sweep_status) and so does a replayed journal
 * (replay_status), so a front end never reads the engine or the journal.
 */
#ifndef FLAKESWEEP_STATUS_H
#define FLAKESWEEP_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/observer.h"
#include "results/results.h"

/* A run in flight. */
struct status_run {
	int64_t id;
	char *cores;    /* "c4" or "c8-c11", ids ascending */
	int first_core; /* the lowest CPU id, to sort runs by core */
	char *pkg;      /* short package name */
	char *test;     /* confirm: the selected test, else NULL */
	int cpu, load;
	enum results_phase phase;
	int64_t started_ms;
};

struct status_lane {
	int ncores;
	int *cores;     /* CPU ids */
	int *core_runs; /* runs pinned to each core */
	int load;       /* 0 while empty */
	struct status_run *runs;
	size_t nruns;
	char *held;     /* the task it holds back ("demo cpu 2 load 1"), or NULL */
	char *held_why; /* what that task waits for, translated */
	/* The environment holding the lane and what it does ("flaky-wt1
	 * up", "flaky-wt1 ready", "flaky-wt1 down"), or NULL. */
	char *environment;
};

/* A package at a level that is not a unit level: its kind and, for a
 * container level, where its containers went. */
struct status_level_pkg {
	char *pkg;    /* full name */
	char *level;  /* the build tag */
	char *kind;   /* "containers" or "environment" */
	char *label;  /* containers: the label pinned, else NULL */
	char *cpuset; /* the cores its containers got, or NULL */
	int64_t pinned, pin_failed, pin_max_ms;
};

/* A lease of an exclusive group (--lease-dir) the sweep holds, or waits
 * for, and its owner: this sweep when held, else the one that holds it. */
struct status_lease {
	char *name;         /* the group's */
	char *path;         /* DIR/NAME */
	bool held;          /* ours; else the group's runs wait for it */
	char *host;         /* the owner's */
	int64_t pid;        /* the owner's */
	char *outdir;       /* the owner's output directory */
	char *started;      /* when the owner took it, RFC 3339 */
	int64_t started_ms; /* the same in ms since the epoch; 0 when unknown */
	int64_t age_s;      /* since its owner file was last refreshed */
};

struct sweep_status {
	enum sweep_phase phase;
	bool paused, finished;
	int64_t done, target; /* runs of the current phase */
	int64_t started_ms, finished_ms;
	int64_t deadline_ms;     /* --for, --until: when the budget ends; 0 without one */
	const int *cpus, *loads; /* borrowed from the sweep or the journal */
	int ncpus, nloads;
	int count, confirm;
	int64_t timeout_ms, kill_grace_ms; /* a run's --timeout and --kill-grace */
	bool run_only;                     /* --run: no confirm phase follows the sweep */
	const char *commit;                /* the project's commit (borrowed), or NULL */
	char **build_failed;               /* packages that did not build ("name (level)") */
	size_t nbuild_failed;
	int machine_cores, keep, width, nlanes;
	struct status_lane *lanes;
	int inflight; /* runs started and not finished, lanes unknown (a journal) */
	struct status_level_pkg *level_pkgs; /* packages at container or environment levels */
	size_t nlevel_pkgs;
	struct results_pin *pins; /* the last containers pinned, newest last */
	size_t npins;
	int64_t pinned, pin_failed;  /* every container pinned to the kept-back cores, and not */
	struct status_lease *leases; /* held or waited for */
	size_t nleases;
};

/* Adds a copy of lease to st's leases. */
void status_add_lease(struct sweep_status *st, const struct status_lease *lease);

/* Frees the lanes and their runs; st can be filled again. */
void status_free(struct sweep_status *st);

/* Fills dst with a copy of src; its lanes, packages and build failures
 * are dst's own, its cpus, loads and commit stay borrowed from src's
 * owner. Free with status_free. */
void status_copy(struct sweep_status *dst, const struct sweep_status *src);

/* Frees dst's lanes and fills it with a copy of src whose cpus and loads
 * live in *ints (reallocated; the caller frees it), so the copy outlives
 * src and its owner. */
void status_keep(struct sweep_status *dst, int **ints, const struct sweep_status *src);

/* Sets the lanes: nlanes of width cores each, cores[lane * width + i]. */
void status_set_lanes(struct sweep_status *st, int nlanes, int width, const int *cores);

/* Says lane l holds back a pair: pkg (full name) and test (or NULL) at
 * (cpu, load), and why, from the lane's load and its cores' runs. */
void status_hold(struct sweep_status *st, int l, const char *pkg, const char *test, int cpu,
                 int load);

/* Says lane l's held pair waits for the other runs of its package: it
 * runs alone (alone true), or one of them runs alone. */
void status_hold_alone(struct sweep_status *st, int l, bool alone);

/* Adds a run in flight on lane l, pinned to cpus (cpu of them). */
void status_add_run(struct sweep_status *st, int l, int64_t id, const int *cpus, int cpu, int load,
                    enum results_phase phase, const char *pkg, const char *test,
                    int64_t started_ms);

struct pkg;

/* Lists in st->build_failed the packages of pkgs that failed to build
 * (not those without tests at their level). */
void status_build_failed(struct sweep_status *st, struct pkg *const *pkgs, size_t npkgs);

struct levels;

/* Lists in st the packages of r at a level lv (NULL: the defaults) does
 * not call unit, and copies r's pins. */
void status_levels(struct sweep_status *st, const struct results *r, const struct levels *lv);

/* The short name of a package: its last two path elements when it has
 * three or more ("grpc/grpchealth"), else its last one. Caller frees. */
char *status_short_pkg(const char *pkg);

#endif
