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

struct options {
	int *cpus; /* --cpu, cores per run; NULL = the default, clipped to the machine */
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
	char *run_re;  /* --run: skip the sweep, run matching tests --count times */
	char *skip_re; /* --skip: tests not run */
	bool race;     /* false with --no-race */
	char *outdir;  /* -o; NULL = ./flakesweep-out/<timestamp> */
	char *resume;  /* --resume DIR */
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
