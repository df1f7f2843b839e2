/* SPDX-License-Identifier: MIT */
/*
 * options.h: the sweep's configuration and the setter that checks each
 * value's syntax (DESIGN section 10); cli/cmd-stress.c maps the command
 * line onto it. What fits the machine is decided by lanes.c.
 */
#ifndef FLAKESWEEP_OPTIONS_H
#define FLAKESWEEP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "results/options-check.h"

enum options_ui {
	OPTIONS_UI_AUTO, /* full on a terminal, line otherwise */
	OPTIONS_UI_FULL,
	OPTIONS_UI_LINE,
	OPTIONS_UI_NONE,
};

/* Bits of options.given: the sweep settings named on the command line,
 * which --resume compares with the journal's. */
enum options_given {
	OPTIONS_GIVEN_CPU = 1 << 0,
	OPTIONS_GIVEN_LOAD = 1 << 1,
	OPTIONS_GIVEN_COUNT = 1 << 2,
	OPTIONS_GIVEN_CONFIRM = 1 << 3,
	OPTIONS_GIVEN_TIMEOUT = 1 << 4,
	OPTIONS_GIVEN_KEEP = 1 << 5,
	OPTIONS_GIVEN_TAGS = 1 << 6,
	OPTIONS_GIVEN_SHUFFLE = 1 << 7,
	OPTIONS_GIVEN_RUN = 1 << 8,
	OPTIONS_GIVEN_SKIP = 1 << 9,
	OPTIONS_GIVEN_RACE = 1 << 10,
	OPTIONS_GIVEN_DRIVER = 1 << 11,
	OPTIONS_GIVEN_PACKAGES = 1 << 12,
	OPTIONS_GIVEN_SHARD = 1 << 13,
	OPTIONS_GIVEN_CANARIES = 1 << 14,
	OPTIONS_GIVEN_ZONE = 1 << 15, /* --tz or --locale */
	OPTIONS_GIVEN_EXCLUSIVE = 1 << 16,
};

struct options {
	unsigned given; /* enum options_given bits */
	int *cpus;      /* --cpu, cores per run; NULL = the default, clipped to the machine */
	int ncpus;
	int *loads; /* --load, runs per core */
	int nloads;
	int count;             /* --count, sweep runs per (package, cpu, load) */
	int confirm;           /* --confirm, runs per (test, cpu, load) */
	int64_t for_ms;        /* --for: the time the sweep may take; 0: none */
	char *until;           /* --until TIME as given, or NULL */
	int64_t until_ms;      /* --until: its deadline (ms since the epoch); 0: none */
	bool until_tomorrow;   /* --until HH:MM was past today: it is tomorrow's */
	bool adaptive;         /* --adaptive: a budget's runs where intervals are widest */
	int count_min;         /* --count-min: each pair's runs before --adaptive chooses */
	int64_t timeout_ms;    /* --timeout */
	int64_t kill_grace_ms; /* --kill-grace */
	int keep;              /* --keep cores; -1 = by machine size */
	int containers;        /* --containers: runs of container levels at once */
	int clusters;          /* --clusters: environments up at once */
	char *env_up;          /* --env-up: brings an environment up; NULL: the default */
	char *env_down;        /* --env-down: takes it down; NULL: the default */
	char **tags;           /* --tags: the levels to run; NULL = every level found */
	int ntags;
	bool shuffle;
	char *run_re;     /* --run: skip the sweep, run matching tests --count times */
	char *skip_re;    /* --skip: tests not run */
	bool race;        /* false with --no-race */
	bool cover;       /* --cover: builds with -cover, as CI's go test -cover */
	bool isolate_net; /* --isolate-net: a network namespace per run */
	/* --private-workdir: each run in its own copy of its package's directory */
	bool private_workdir;
	int quiet;        /* --quiet N%: hold a lane while its noise is above N; 0: off */
	double canaries;  /* --canaries N%: canary runs, percent of the sweep's; 0: off */
	char *build_tags; /* --build-tags: added to every build, not levels ("a,b") */
	char *outdir;     /* -o; NULL = ./flakesweep-out/<timestamp> */
	char *resume;     /* --resume DIR */
	bool force;
	char *quarantine; /* --quarantine FILE */
	enum options_ui ui;
	bool json;
	char *junit;       /* --junit FILE: JUnit XML written at the end (junit.h) */
	char *driver;      /* "go" (default), "tap", "pytest", "gtest" or "ctest" */
	char *tap_select;  /* "arg" (default) or "env" */
	char *pytest_unit; /* "file" (default) or "dir": one pytest package */
	bool cpu_shim;     /* false with --no-cpu-shim */
	/* The CPU preload library every run of a non-Go driver gets in
	 * LD_PRELOAD, or NULL (--no-cpu-shim, the go driver, not found). */
	char *cpu_shim_path;
	char **packages; /* go: package patterns; NULL = ./...; pytest: paths */
	int npackages;
	char **command; /* tap: the command after --, NULL-terminated */
	int ncommand;
	/* --scrub-env: variables removed from every child's environment, on
	 * top of the GitHub token variables. */
	char **scrub_env;
	int nscrub_env;
	/* --mask-env: variables whose values are masked in what the sweep
	 * records and shows, on top of those whose names look like secrets'
	 * (base/mask.h). */
	char **mask_env;
	int nmask_env;
	int shard_index, shard_count; /* --shard I/N; 0/0 when not sharded */
	char *durations;              /* --durations FILE: weighs the shards */
	bool shard_plan;              /* --shard-plan: print the plan and stop */
	char *dir;                    /* where discovery runs; NULL = the current directory
	                               * (--resume sets the journal's project root) */
	char *tz;                     /* --tz: every run's TZ, or "inherit" (engine/zone.h) */
	char *locale;                 /* --locale: every run's LC_ALL, or "inherit" */
	/* --exclusive: "NAME=PATTERN" groups whose runs never run two at a
	 * time (engine/exclusive.h), in the order given. */
	char **exclusive;
	int nexclusive;
	char *lease_dir;      /* --lease-dir: the groups' leases, or NULL */
	int64_t lease_ttl_ms; /* --lease-ttl: a lease not refreshed for this long is stale */
};

/* Fills o with the defaults of DESIGN section 3. */
void options_init(struct options *o);

/* Frees what options_set and friends allocated; o itself belongs to the
 * caller. */
void options_free(struct options *o);

/* The settings options_set() takes, one per stress option. */
enum options_key {
	OPTIONS_CPU,
	OPTIONS_LOAD,
	OPTIONS_COUNT,
	OPTIONS_CONFIRM,
	OPTIONS_TIMEOUT,
	OPTIONS_KILL_GRACE,
	OPTIONS_KEEP,
	OPTIONS_CONTAINERS,
	OPTIONS_CLUSTERS,
	OPTIONS_ENV_UP,
	OPTIONS_ENV_DOWN,
	OPTIONS_TAGS,
	OPTIONS_BUILD_TAGS,
	OPTIONS_SHUFFLE,
	OPTIONS_RUN,
	OPTIONS_SKIP,
	OPTIONS_NO_RACE,
	OPTIONS_COVER,
	OPTIONS_ISOLATE_NET,
	OPTIONS_PRIVATE_WORKDIR,
	OPTIONS_QUIET,
	OPTIONS_CANARIES,
	OPTIONS_OUTDIR,
	OPTIONS_RESUME,
	OPTIONS_FORCE,
	OPTIONS_QUARANTINE,
	OPTIONS_UI,
	OPTIONS_JSON,
	OPTIONS_JUNIT,
	OPTIONS_DRIVER,
	OPTIONS_TAP_SELECT,
	OPTIONS_SCRUB_ENV,
	OPTIONS_MASK_ENV,
	OPTIONS_PYTEST_UNIT,
	OPTIONS_NO_CPU_SHIM,
	OPTIONS_SHARD,
	OPTIONS_DURATIONS,
	OPTIONS_SHARD_PLAN,
	OPTIONS_TZ,
	OPTIONS_LOCALE,
	OPTIONS_EXCLUSIVE,
	OPTIONS_LEASE_DIR,
	OPTIONS_LEASE_TTL,
	OPTIONS_FOR,
	OPTIONS_UNTIL,
	OPTIONS_ADAPTIVE,
	OPTIONS_COUNT_MIN,
};

/* Sets one setting from its text (value is ignored for flags) and marks
 * it given where --resume compares it. Returns 0, or -EINVAL with
 * *expected set to what the value should have been (a static, translated
 * phrase such as "a positive whole number"); o keeps its old value. */
int options_set(struct options *o, enum options_key key, const char *value, const char **expected);

/* Adds a --mask-env name, unless it is there already. */
void options_add_mask_env(struct options *o, const char *name);

/* Adds a --scrub-env name, unless it is there already. */
void options_add_scrub_env(struct options *o, const char *name);

/* Appends a package pattern, or one word of the TAP command (kept
 * NULL-terminated). */
void options_add_package(struct options *o, const char *pattern);
void options_add_command_arg(struct options *o, const char *arg);

#endif
