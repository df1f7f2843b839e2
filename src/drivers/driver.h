/* SPDX-License-Identifier: MIT */
/*
 * driver.h: what a test framework must provide (DESIGN section 2):
 * discover packages, build them, give the argv of one run, parse a run's
 * output and quote a test name into a filter. Each driver is one file
 * (driver-go.c, driver-tap.c); the engine only sees this interface.
 */
#ifndef FLAKESWEEP_DRIVER_H
#define FLAKESWEEP_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The options are the engine's; a driver reads them through a pointer. */
struct options;
#include "drivers/levels.h"
#include "drivers/outcome.h"
#include "base/proc-exit.h"

/* One package at one level: the unit of building and of sweep runs. */
struct pkg {
	char *name;   /* import path (go) or the command line (tap) */
	char *level;  /* "unit" or a build tag */
	char *dir;    /* where its runs start */
	char *binary; /* the built test binary (absolute), or NULL */
	bool build_ok;
	bool empty;         /* built, but no test at this level: not run, not a failure */
	char *build_output; /* compiler output when the build failed */
	char **tests;       /* top-level tests the binary lists; NULL-terminated */
	size_t ntests;
	char *run_filter;    /* a filter every run of this level applies, or NULL */
	bool framing_marker; /* go: the binary is Go >= 1.20 (-test.v=test2json) */
	char *toolchain;     /* e.g. "go1.19.8" */
	void *driver_data;
};

/* What one run is asked to do. */
struct driver_run {
	int cpu;             /* cores, also told to the framework */
	int64_t timeout_ms;  /* --timeout */
	const char *seed;    /* shuffle seed, or NULL */
	const char *test;    /* confirm: the one full test name, or NULL */
	const char *run_re;  /* --run, or NULL */
	const char *skip_re; /* --skip, or NULL */
	bool select_env;     /* tap: the test is selected through FLAKESWEEP_TEST */
};

/* A run's output parser, fed as bytes arrive. */
struct driver_parser {
	void (*feed)(struct driver_parser *p, const char *data, size_t len);
	/* The bytes of the report pipe (driver.report_pipe), or NULL. */
	void (*feed_report)(struct driver_parser *p, const char *data, size_t len);
	/* Fills out (zeroed by the caller) from what was fed and how the process
	 * ended. */
	void (*finish)(struct driver_parser *p, const struct proc_exit *exit, struct outcome *out);
	void (*free)(struct driver_parser *p);
};

struct project {
	char *root;      /* absolute */
	char *commit;    /* git HEAD, or NULL */
	char *toolchain; /* e.g. "go1.19.8", or NULL */
	char *origin;    /* the origin remote's URL, or NULL */
	bool dirty;      /* a tracked file differs from the commit (project.h) */
	char **warnings; /* what discovery found worth saying, or NULL */
	size_t nwarnings;
};

/* The time limit of a package's listing (ms): a run's, --timeout plus
 * --kill-grace, since a listing runs the package's setup (TestMain) too. */
#define DRIVER_LIST_LIMIT_MS(o) ((o)->timeout_ms + (o)->kill_grace_ms)

struct driver {
	const char *name;
	/* The framework stops a run itself at the limit (Go panics and dumps
	 * the goroutines); otherwise flakesweep sends SIGTERM at the limit. */
	bool own_timeout;
	/* Runs get a report pipe on descriptor PROC_REPORT_FD, named to them
	 * in FLAKESWEEP_REPORT_FD, fed to the parser's feed_report. */
	bool report_pipe;
	/* Each package builds in its own directory (the Go driver: so each
	 * module of a repository builds with its own go.mod), else in the
	 * project's root. */
	bool build_in_pkg_dir;
	/* A '/' in a test's name starts its subtest's part (Go's t.Run):
	 * "TestA/case" is a subtest of the top-level test TestA. Other
	 * frameworks' names are whole, '/' and all. */
	bool subtests;
	/* The variables of flakesweep's own environment, besides the Go
	 * toolchain's, that change what its runs do (NULL-terminated, or NULL):
	 * a reproduce line sets them, so it runs the same in a fresh shell. */
	const char *const *repro_env;
	/* Finds the packages to run. Returns 0 and a new array (caller frees
	 * with driver_free_pkgs), or -1 with *err (caller frees). */
	int (*discover)(const struct options *o, struct project *proj, struct pkg ***pkgs,
	                size_t *npkgs, char **err);
	/* The argv that builds pkg into bindir (NULL-terminated, caller frees
	 * with util_strv_free()), or NULL when the framework has no build. */
	char **(*build_argv)(const struct options *o, const struct project *proj, struct pkg *pkg,
	                     const char *bindir);
	/* After a successful build: reads what the binary lists and which
	 * toolchain built it. Returns 0, or -1 with pkg->build_ok cleared and
	 * pkg->build_output set. NULL when list_argv and listed do it. */
	int (*prepare)(const struct options *o, struct pkg *pkg);
	/* A listing the sweep runs on its loop after a successful build, so
	 * one that blocks costs only its package: the argv that lists pkg's
	 * tests (caller frees with util_strv_free()), or NULL when there is
	 * nothing to list (pkg->empty set). It has DRIVER_LIST_LIMIT_MS(o) and
	 * three tries while it exits non-zero. NULL for a framework whose
	 * prepare lists. */
	char **(*list_argv)(const struct options *o, struct pkg *pkg);
	/* What the listing's last try printed (masked, at most a megabyte)
	 * and how it ended: its exit status, 128+signal, or -ETIMEDOUT at its
	 * limit. Returns what prepare does. */
	int (*listed)(const struct options *o, struct pkg *pkg, int rc, const char *out);
	/* Checks what only a built package can tell about the options (go:
	 * that --run and --skip compile with the binary's own regexp package),
	 * once, after the first package built and listed. NULL when there is
	 * nothing to check. Returns 0, or -1 with *err (caller frees). */
	int (*check)(const struct options *o, const struct pkg *pkg, char **err);
	/* The argv of one run (caller frees with util_strv_free()). */
	char **(*run_argv)(const struct options *o, const struct pkg *pkg,
	                   const struct driver_run *r);
	/* Extra environment entries for a run ("NAME=value"), NULL-terminated,
	 * caller frees with util_strv_free(); NULL when none. */
	char **(*run_env)(const struct options *o, const struct pkg *pkg,
	                  const struct driver_run *r);
	struct driver_parser *(*parser_new)(const struct pkg *pkg, const char *selected);
	/* The end of a flakesweep command line that sweeps pkg again (go: the
	 * quoted import path; tap: "--driver tap -- COMMAND"). Caller frees. */
	char *(*package_args)(const struct pkg *pkg);
	/* The filter that selects exactly this test (Go: -test.run with each
	 * level quoted and anchored). Caller frees. */
	char *(*filter)(const char *test);
	/* A filter (driver_run.run_re) that selects exactly these top-level
	 * tests (NULL-terminated) and, under a shuffle seed, runs them in the
	 * order the whole package ran them with that seed (Go shuffles every
	 * test, then filters). NULL when the framework cannot: no polluter
	 * search then. Caller frees. */
	char *(*select_in_order)(char *const *tests);
	/* The command that reproduces runs directly: r->test (the whole
	 * package, or what r->run_re selects, when NULL) count times, pinned with taskset to cpus
	 * (r->cpu ids), with r's seed and time limit. Caller frees. */
	char *(*reproduce)(const struct pkg *pkg, const struct driver_run *r, const int *cpus,
	                   int count);
	/* Where test of package (as results.json names them) is defined in
	 * the project at root: *dir, the package's directory, and *file (a
	 * name in it, or NULL) with *line (0 when unknown); caller frees both.
	 * Returns 0, or -ENOENT when the package is not in the project. NULL
	 * when the framework cannot say. */
	int (*locate_test)(const char *root, const char *package, const char *test, char **dir,
	                   char **file, int *line);
	/* Whether a test id ("PACKAGE::TEST") is one of this framework's. */
	bool (*owns_test)(const char *id);
	/* The text that skips tests (n names within package, in the order
	 * given) in the framework's own runner, ending in a newline: go, a
	 * `go test -skip PATTERN PACKAGE` line that works from the current
	 * directory with the toolchain of the package's module (found at or
	 * below root, NULL for none), or only the pattern when bare; tap, one
	 * pytest `--deselect ID` line per test. Caller frees. */
	char *(*skip_args)(const char *package, const char *const *tests, size_t n, bool bare,
	                   const char *root);
};

/* The driver named name ("go", "tap", "pytest", "gtest", "ctest"), or NULL. */
const struct driver *driver_find(const char *name);

/* What a level's tests need, as lv (the project's levels file, NULL for
 * none) says: "containers" (its tests start containers; without a file,
 * the testcontainers level), "environment" (its tests run against their
 * walkthrough's environment; without a file, the functional level) or
 * "unit". */
const char *driver_level_kind(const struct levels *lv, const char *level);

extern const struct driver driver_go;
extern const struct driver driver_tap;
extern const struct driver driver_pytest;
extern const struct driver driver_gtest;
extern const struct driver driver_ctest;

/* The reproduce line of a driver whose runs are one shell command: cd to
 * pkg->dir, then count times run command (already quoted) with
 * FLAKESWEEP_CPU, LD_PRELOAD=preload (the CPU shim, or NULL), the
 * driver's own assignments env (already quoted, or NULL), r's time limit
 * and taskset on cpus (r->cpu ids). Caller frees. */
char *driver_reproduce_loop(const struct pkg *pkg, const struct driver_run *r, const int *cpus,
                            int count, const char *preload, const char *env, const char *command);

void driver_free_pkg(struct pkg *p);
void driver_free_pkgs(struct pkg **pkgs, size_t n);
void driver_free_project(struct project *proj);

#endif
