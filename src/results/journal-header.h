/* SPDX-License-Identifier: MIT */
/*
 * journal-header.h: the record of a sweep that a journal's header line
 * holds: its settings, the machine and the project, and the line both
 * ways. Format: man 5 flakesweep.
 */
#ifndef FLAKESWEEP_JOURNAL_HEADER_H
#define FLAKESWEEP_JOURNAL_HEADER_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "drivers/levels.h"

/* What the sweep's options record. */
struct sweep_config {
	int *cpus, ncpus;
	int *loads, nloads;
	int count, confirm;
	/* --for in ms, or --until as ms since the epoch; 0 when not given
	 * (then absent from the header as for_s and until). */
	int64_t for_ms, until_ms;
	/* --adaptive and --count-min (absent from the header without it). */
	bool adaptive;
	int count_min;
	/* The runs whose time limit the budget clipped to what it had left
	 * (a clipped line); absent from the config when none. */
	int64_t clipped_limits;
	int64_t timeout_ms, kill_grace_ms;
	bool shuffle, race, isolate_net, cover;
	bool private_workdir; /* absent from the header when off */
	bool cpu_shim;        /* false with --no-cpu-shim (absent when true) */
	int quiet;            /* --quiet N%, 0 when off (then absent from the header) */
	double canaries;      /* --canaries N% (absent from the header at the default) */
	/* --containers and --clusters (absent from the header at their
	 * defaults); --env-up and --env-down, or NULL (then absent). */
	int containers, clusters;
	char *env_up, *env_down;
	char *run_re, *skip_re; /* or NULL */
	char **levels;          /* the levels the sweep found */
	int nlevels;
	char **tags; /* --tags; NULL = every level */
	int ntags;
	char *tap_select; /* "arg" or "env" */
	/* The build environment the sweep ran with (GOFLAGS=...), for the
	 * reproduce lines. */
	char **env_names, **env_values;
	int nenv;
	/* --mask-env: the names only, never a value (absent when none). */
	char **mask_env;
	int nmask_env;
	/* --scrub-env: the names withheld from the runs (absent when none). */
	char **scrub_env;
	int nscrub_env;
	char *quarantine, *build_tags; /* or NULL */
	char *driver;                  /* "go", "tap" or "pytest" */
	char *pytest_unit;             /* pytest: "file" or "dir"; else NULL */
	char **packages;               /* go: the package patterns; none = ./... */
	int npackages;
	char **command; /* tap: the command, NULL-terminated; none for go */
	int ncommand;
	/* --shard I/N (0/0: not sharded) and the buckets (shard.h) shard I
	 * owns, so the shard can be rerun exactly. */
	int shard_index, shard_count;
	int *shard_buckets;
	int nshard_buckets;
	int *shard_merged; /* a merge: the shards it holds, or NULL */
	int nshard_merged;
	/* The project's .flakesweep/levels.json (levels.h), or NULL without
	 * one (then absent from the header). */
	struct levels *level_config;
	/* --tz and --locale: every run's TZ and LC_ALL, or "inherit" (a
	 * header without them, from before flakesweep set them, reads as
	 * inherit). */
	char *tz, *locale;
	/* --exclusive: "NAME=PATTERN" each (absent from the header when none). */
	char **exclusive;
	int nexclusive;
	/* --lease-dir, or NULL (then both absent from the header), and
	 * --lease-ttl. */
	char *lease_dir;
	int64_t lease_ttl_ms;
};

/* The machine the sweep ran on. */
struct journal_machine {
	char *host; /* its name, or NULL */
	int cores, keep;
	int nlanes, width;
	int *lanes; /* nlanes x width core numbers */
};

struct journal_project {
	char *driver;
	char *root, *commit, *toolchain, *origin; /* or NULL */
	bool dirty; /* a tracked file differed from the commit when it began */
};

struct journal_header {
	int64_t started_ms;
	bool simulated; /* written by `plan -o`: a plan's virtual runs */
	struct sweep_config config;
	struct journal_machine machine;
	struct journal_project project;
};

/* Records that the sweep ran with NAME=VALUE in its environment. */
void sweep_config_add_env(struct sweep_config *c, const char *name, const char *value);

void sweep_config_free(struct sweep_config *c);

/* The header line {"type":"header","schema",...}; caller frees. */
cJSON *journal_header_encode(const struct journal_header *h);

/* The config, machine and project objects of an encoded header line
 * (borrowed), for results.json, which copies them. */
void journal_header_parts(const cJSON *line, const cJSON **config, const cJSON **machine,
                          const cJSON **project);

/* Decodes a header line (line lineno of path) into h. Every value is
 * checked with the command line's rules. Returns 0, or -EINVAL with h
 * freed and *err (caller frees) as "PATH:LINE: FIELD: expected WHAT". */
int journal_header_decode(const cJSON *line, const char *path, int lineno, struct journal_header *h,
                          char **err);

void journal_header_free(struct journal_header *h);

/* Whether a header line (or a results.json document) says "simulated":
 * true: the virtual runs of `flakesweep plan -o`, not measured ones. */
bool journal_header_simulated(const cJSON *line);

/* Why a command that needs measured runs refuses path, a simulated
 * sweep's file (caller frees). */
char *journal_simulated_refusal(const char *path);

#endif
