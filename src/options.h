/* SPDX-License-Identifier: MIT */
/*
 * options.h: the sweep's configuration and its command-line parser
 * (DESIGN section 10). It only parses and checks syntax; what fits the
 * machine is decided by lanes.c.
 */
#ifndef FLAKESWEEP_OPTIONS_H
#define FLAKESWEEP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

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
};

/* The largest --count and --confirm, --load, and --timeout with the go
 * driver (Go's time.Duration tops out at 2562047h47m16s). */
#define OPTIONS_COUNT_MAX 100000000
#define OPTIONS_LOAD_MAX 64
#define OPTIONS_GO_TIMEOUT_MAX_MS (2562047LL * 3600 * 1000)

struct options {
	unsigned given; /* enum options_given bits */
	int *cpus;      /* --cpu, cores per run; NULL = the default, clipped to the machine */
	int ncpus;
	int *loads; /* --load, runs per core */
	int nloads;
	int count;             /* --count, sweep runs per (package, cpu, load) */
	int confirm;           /* --confirm, runs per (test, cpu, load) */
	int64_t timeout_ms;    /* --timeout */
	int64_t kill_grace_ms; /* --kill-grace */
	int keep;              /* --keep cores; -1 = by machine size */
	char **tags;           /* --tags: the levels to run; NULL = every level found */
	int ntags;
	bool shuffle;
	char *run_re;     /* --run: skip the sweep, run matching tests --count times */
	char *skip_re;    /* --skip: tests not run */
	bool race;        /* false with --no-race */
	bool isolate_net; /* --isolate-net: a network namespace per run */
	int quiet;        /* --quiet N%: hold a lane while its noise is above N; 0: off */
	char *build_tags; /* --build-tags: added to every build, not levels ("a,b") */
	char *outdir;     /* -o; NULL = ./flakesweep-out/<timestamp> */
	char *resume;     /* --resume DIR */
	bool force;
	char *quarantine; /* --quarantine FILE */
	enum options_ui ui;
	bool json;
	char *driver;     /* "go" (default) or "tap" */
	char *tap_select; /* "arg" (default) or "env" */
	char **packages;  /* go: package patterns; NULL = ./... */
	int npackages;
	char **command; /* tap: the command after --, NULL-terminated */
	int ncommand;
	/* --scrub-env: variables removed from every child's environment, on
	 * top of the GitHub token variables. */
	char **scrub_env;
	int nscrub_env;
};

/* Fills o with the defaults of DESIGN section 3. */
void options_init(struct options *o);

/* Frees what options_parse allocated; o itself belongs to the caller. */
void options_free(struct options *o);

/* Parses the stress command line (argv[0] is the subcommand or program
 * name). Accepts Go's single-dash spelling (-cpu 1,2) and --cpu=1,2.
 * Returns 0; 1 when --help was asked for (usage printed to stdout); or -1
 * after printing a one-line error naming the option to stderr (exit 2). */
int options_parse(struct options *o, int argc, char **argv);

/* Prints the stress usage text (translated) to f. */
void options_usage(void *f);

#endif
