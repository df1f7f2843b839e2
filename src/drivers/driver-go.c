/* SPDX-License-Identifier: MIT */
/*
 * driver-go.c: the Go driver. It builds each package discovery found
 * (go-discover.c) into a test binary with `go test -c`, lists its tests
 * with -test.list, and gives the argv of one run. Parsing a run's output
 * is parse-go.c's job.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/driver.h"
#include "engine/options.h"
#include "drivers/parser-adapter.h"
#include "drivers/go-discover.h"
#include "drivers/go-modules.h"
#include "drivers/go-skip.h"
#include "drivers/parse-go.h"
#include "engine/proc.h"
#include "drivers/project.h"
#include "base/sanitize.h"
#include "base/util.h"

extern char **environ;

#define DRIVER_GO_OUTPUT_MAX (16 << 20)
/* The largest _test.go file searched for a test's definition (bytes). */
#define DRIVER_GO_SOURCE_MAX ((size_t)4 << 20)

static char *
driver_go_binary_name(const struct pkg *pkg, const char *bindir)
{
	char *name = xasprintf("%s/%s.%s.test", bindir, pkg->name, pkg->level), *p;

	for (p = name + strlen(bindir) + 1; *p != '\0'; p++) {
		if (*p == '/')
			*p = '_';
	}
	return name;
}

static char **
driver_go_build_argv(const struct options *o, const struct project *proj, struct pkg *pkg,
                     const char *bindir)
{
	char **argv = NULL;
	size_t n = 0;

	(void)proj;
	free(pkg->binary);
	pkg->binary = driver_go_binary_name(pkg, bindir);
	util_strv_add(&argv, &n, "go");
	util_strv_add(&argv, &n, "test");
	util_strv_add(&argv, &n, "-c");
	util_strv_add(&argv, &n, "-o");
	util_strv_add(&argv, &n, pkg->binary);
	if (o->race)
		util_strv_add(&argv, &n, "-race");
	if (o->cover)
		util_strv_add(&argv, &n, "-cover");
	if (strcmp(pkg->level, "unit") != 0 || o->build_tags != NULL) {
		char *tags;

		if (strcmp(pkg->level, "unit") == 0)
			tags = xstrdup(o->build_tags);
		else if (o->build_tags != NULL)
			tags = xasprintf("%s,%s", pkg->level, o->build_tags);
		else
			tags = xstrdup(pkg->level);
		util_strv_add(&argv, &n, "-tags");
		util_strv_add(&argv, &n, tags);
		free(tags);
	}
	util_strv_add(&argv, &n, pkg->name);
	return argv;
}

/* "go1.23.5" from the `go version BINARY` line "BINARY: go1.23.5". */
static char *
driver_go_binary_version(const char *binary)
{
	char *argv[] = {"go", "version", (char *)binary, NULL};
	char *line = proc_capture_line(argv, NULL), *v, *end;

	if (line == NULL)
		return NULL;
	v = strstr(line, ": go");
	if (v == NULL) {
		free(line);
		return NULL;
	}
	v += 2;
	end = v + strcspn(v, " \t");
	v = xstrndup(v, (size_t)(end - v));
	free(line);
	return v;
}

static bool
driver_go_has_marker(const char *version)
{
	int major = 0, minor = 0;

	if (version == NULL || sscanf(version, "go%d.%d", &major, &minor) != 2)
		return false;
	return major > 1 || (major == 1 && minor >= 20);
}

static char **
driver_go_list_argv(const struct options *o, struct pkg *pkg)
{
	char **argv = NULL;
	size_t n = 0;

	(void)o;
	if (access(pkg->binary, X_OK) < 0) {
		/* go test -c writes nothing for a package with no test files at
		 * this level: nothing to run, and no failure. */
		pkg->empty = true;
		return NULL;
	}
	util_strv_add(&argv, &n, pkg->binary);
	util_strv_add(&argv, &n, "-test.list");
	util_strv_add(&argv, &n, ".*");
	return argv;
}

/* The listing runs TestMain, which may itself be flaky (the sweep tries
 * it three times) or hang (its limit is a run's). */
static int
driver_go_listed(const struct options *o, struct pkg *pkg, int rc, const char *listing)
{
	char *out = xstrdup(listing), *line, *save = NULL;
	char **tests = NULL;
	size_t n = 0;

	if (rc == -ETIMEDOUT) {
		pkg->build_ok = false;
		free(pkg->build_output);
		pkg->build_output =
		    xasprintf(_("%s -test.list passed its time limit of %lld ms:\n%s"), pkg->binary,
		              (long long)DRIVER_LIST_LIMIT_MS(o), out);
		free(out);
		return -1;
	}
	/* A TestMain that fails after m.Run() still printed the list. */
	if (rc != 0 && strstr(out, "\nTest") == NULL && strncmp(out, "Test", 4) != 0) {
		pkg->build_ok = false;
		free(pkg->build_output);
		pkg->build_output =
		    xasprintf(_("%s -test.list failed (exit %d):\n%s"), pkg->binary, rc, out);
		free(out);
		return -1;
	}
	for (line = strtok_r(out, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		/* Benchmarks do not run without -test.bench. */
		if (strncmp(line, "Test", 4) == 0 || strncmp(line, "Example", 7) == 0 ||
		    strncmp(line, "Fuzz", 4) == 0)
			util_strv_add(&tests, &n, line);
	}
	free(out);
	util_strv_free(pkg->tests);
	pkg->tests = tests;
	pkg->ntests = n;
	pkg->empty = n == 0;
	free(pkg->toolchain);
	pkg->toolchain = driver_go_binary_version(pkg->binary);
	pkg->framing_marker = driver_go_has_marker(pkg->toolchain);
	return 0;
}

/* Whether the binary's regexp package compiles re: -test.list compiles its
 * pattern whole (and a pattern that compiles whole compiles in each of the
 * '/'-separated elements -test.run and -test.skip match level by level). */
static int
driver_go_check_regexp(const struct options *o, const struct pkg *pkg, const char *opt,
                       const char *re, char **err)
{
	char *arg = xasprintf("-test.list=%s", re), *out = NULL, *why;
	char *argv[] = {pkg->binary, arg, NULL};
	int rc;

	rc = proc_capture_limit(argv, pkg->dir, environ, DRIVER_GO_OUTPUT_MAX,
	                        DRIVER_LIST_LIMIT_MS(o), &out);
	free(arg);
	why = strstr(out, "invalid regexp");
	if (rc != 0 && why != NULL) {
		/* "testing: invalid regexp in -test.list (PATTERN): error
		 * parsing regexp: ...": keep Go's reason. */
		char *reason = strstr(why, "): ");

		reason = reason != NULL ? reason + 3 : why;
		reason[strcspn(reason, "\n")] = '\0';
		*err = xasprintf(_("invalid regexp for --%s \"%s\": %s"), opt, re, reason);
		free(out);
		return -1;
	}
	free(out);
	return 0;
}

static int
driver_go_check(const struct options *o, const struct pkg *pkg, char **err)
{
	if (o->run_re != NULL && driver_go_check_regexp(o, pkg, "run", o->run_re, err) < 0)
		return -1;
	if (o->skip_re != NULL && driver_go_check_regexp(o, pkg, "skip", o->skip_re, err) < 0)
		return -1;
	return 0;
}

/* For Go 1.19, which has no -test.skip: a -test.run pattern naming the
 * listed top-level tests that run_re (when set) and not skip_re select.
 * POSIX extended regexps stand in for Go's syntax, which they share for
 * the usual patterns; one that does not compile selects nothing. Caller
 * frees. */
static char *
driver_go_spared_pattern(const struct pkg *pkg, const char *run_re, const char *skip_re)
{
	regex_t run, skip;
	struct buf b;
	bool have_run = run_re != NULL, any = false;
	size_t i;

	if (regcomp(&skip, skip_re, REG_EXTENDED | REG_NOSUB) != 0)
		return xstrdup("^$");
	if (have_run && regcomp(&run, run_re, REG_EXTENDED | REG_NOSUB) != 0) {
		regfree(&skip);
		return xstrdup("^$");
	}
	buf_init(&b);
	buf_adds(&b, "^(");
	for (i = 0; i < pkg->ntests; i++) {
		if (have_run && regexec(&run, pkg->tests[i], 0, NULL, 0) != 0)
			continue;
		if (regexec(&skip, pkg->tests[i], 0, NULL, 0) == 0)
			continue;
		buf_printf(&b, "%s%s", any ? "|" : "", pkg->tests[i]);
		any = true;
	}
	buf_adds(&b, ")$");
	regfree(&skip);
	if (have_run)
		regfree(&run);
	if (!any) {
		buf_free(&b);
		return xstrdup("^$");
	}
	return buf_steal(&b);
}

static char **
driver_go_run_argv(const struct options *o, const struct pkg *pkg, const struct driver_run *r)
{
	char **argv = NULL, *s, *pat = NULL;
	size_t n = 0;

	(void)o;
	util_strv_add(&argv, &n, pkg->binary);
	util_strv_add(&argv, &n, pkg->framing_marker ? "-test.v=test2json" : "-test.v");
	util_strv_add(&argv, &n, "-test.paniconexit0");
	util_strv_add(&argv, &n, "-test.count=1");
	s = xasprintf("-test.cpu=%d", r->cpu);
	util_strv_add(&argv, &n, s);
	free(s);
	s = xasprintf("-test.timeout=%lldms", (long long)r->timeout_ms);
	util_strv_add(&argv, &n, s);
	free(s);
	if (r->seed != NULL) {
		s = xasprintf("-test.shuffle=%s", r->seed);
		util_strv_add(&argv, &n, s);
		free(s);
	}
	if (r->test != NULL)
		pat = parse_go_run_pattern(r->test);
	else if (r->skip_re != NULL && !pkg->framing_marker)
		/* Go 1.19 has no -test.skip: run the listed tests it spares. */
		pat = driver_go_spared_pattern(pkg, r->run_re, r->skip_re);
	else if (r->run_re != NULL)
		pat = xstrdup(r->run_re);
	else if (pkg->run_filter != NULL)
		pat = xstrdup(pkg->run_filter);
	if (pat != NULL) {
		s = xasprintf("-test.run=%s", pat);
		util_strv_add(&argv, &n, s);
		free(s);
		free(pat);
	}
	if (r->skip_re != NULL && r->test == NULL && pkg->framing_marker) {
		s = xasprintf("-test.skip=%s", r->skip_re);
		util_strv_add(&argv, &n, s);
		free(s);
	}
	return argv;
}

PARSER_ADAPTER(driver_go_parser, struct parse_go, parse_go_feed, parse_go_finish, parse_go_free)

static struct driver_parser *
driver_go_parser_new(const struct pkg *pkg, const char *selected)
{
	struct parse_go_opts opts;

	memset(&opts, 0, sizeof opts);
	opts.framing_marker = pkg->framing_marker;
	opts.import_path = pkg->name;
	opts.listed = (const char *const *)pkg->tests;
	opts.selected = selected;
	return driver_go_parser_wrap(parse_go_new(&opts));
}

static char *
driver_go_reproduce(const struct pkg *pkg, const struct driver_run *r, const int *cpus, int count)
{
	const char *test = r->test, *seed = r->seed;
	int64_t timeout_ms = r->timeout_ms;
	int ncpus = r->cpu;
	struct buf b;
	char *q, *pat;
	int i;

	buf_init(&b);
	q = sanitize_shell_quote(pkg->dir);
	buf_printf(&b, "cd %s && taskset -c ", q);
	free(q);
	for (i = 0; i < ncpus; i++)
		buf_printf(&b, "%s%d", i > 0 ? "," : "", cpus[i]);
	q = sanitize_shell_quote(pkg->binary);
	buf_printf(&b, " %s -test.v -test.paniconexit0", q);
	free(q);
	if (test != NULL) {
		pat = parse_go_run_pattern(test);
		q = sanitize_shell_quote(pat);
		buf_printf(&b, " -test.run %s", q);
		free(q);
		free(pat);
	} else if (r->run_re != NULL || pkg->run_filter != NULL) {
		q = sanitize_shell_quote(r->run_re != NULL ? r->run_re : pkg->run_filter);
		buf_printf(&b, " -test.run %s", q);
		free(q);
	}
	buf_printf(&b, " -test.cpu %d -test.count %d", ncpus, count);
	if (seed != NULL)
		buf_printf(&b, " -test.shuffle %s", seed);
	/* -test.timeout bounds the whole binary, all count runs: the sweep's
	 * limit for each of them. */
	buf_printf(&b, " -test.timeout %lldms", (long long)timeout_ms * count);
	return buf_steal(&b);
}

static char *
driver_go_package_args(const struct pkg *pkg)
{
	return sanitize_shell_quote(pkg->name);
}

static char **
driver_go_run_env(const struct options *o, const struct pkg *pkg, const struct driver_run *r)
{
	(void)o;
	(void)pkg;
	(void)r;
	return NULL;
}

static int
driver_go_cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Finds "func TOPLEVEL(" in the package directory's _test.go files (in
 * name order) and returns the file's name and the line, or 0. */
static int
driver_go_find_test_func(const char *dir, const char *test, char **file)
{
	char *top = xstrndup(test, strcspn(test, "/")), *needle = xasprintf("func %s(", top);
	char **names = NULL;
	size_t count = 0, i;
	int line = 0;
	DIR *d = opendir(dir);
	struct dirent *de;

	*file = NULL;
	while (d != NULL && (de = readdir(d)) != NULL) {
		if (go_discover_is_test_file(de->d_name) && count < 10000) {
			names = xrealloc(names, sizeof *names * (count + 1));
			names[count++] = xstrdup(de->d_name);
		}
	}
	if (d != NULL)
		closedir(d);
	if (count > 0)
		qsort(names, count, sizeof *names, driver_go_cmp_names);
	for (i = 0; i < count && line == 0; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]), *text = NULL;

		if (project_read_file(path, DRIVER_GO_SOURCE_MAX, &text) == 0) {
			const char *p = text;
			int ln = 1;

			while (*p != '\0') {
				if (strncmp(p, needle, strlen(needle)) == 0) {
					line = ln;
					*file = xstrdup(names[i]);
					break;
				}
				p = strchr(p, '\n');
				if (p == NULL)
					break;
				p++;
				ln++;
			}
		}
		free(text);
		free(path);
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	free(needle);
	free(top);
	return line;
}

static int
driver_go_locate_test(const char *root, const char *package, const char *test, char **dir,
                      char **file, int *line)
{
	struct go_modules mods = {NULL, 0};
	const struct go_module *m;
	size_t len;

	*dir = *file = NULL;
	*line = 0;
	/* The module at the root, or one below it (a repository of several). */
	go_modules_below(root, true, &mods);
	m = go_modules_owner(&mods, package);
	if (m == NULL || strstr(package, "..") != NULL) {
		go_modules_free(&mods);
		return -ENOENT;
	}
	len = strlen(m->path);
	*dir =
	    package[len] == '\0' ? xstrdup(m->dir) : xasprintf("%s/%s", m->dir, package + len + 1);
	*line = driver_go_find_test_func(*dir, test, file);
	go_modules_free(&mods);
	return 0;
}

/* A Go test id names a package path, not a .py file (those are
 * pytest's, swept through the tap driver). */
static bool
driver_go_owns_test(const char *id)
{
	const char *sep = strstr(id, "::");

	return sep != NULL && !(sep - id >= 3 && strncmp(sep - 3, ".py", 3) == 0);
}

const struct driver driver_go = {
    .name = "go",
    .own_timeout = true,
    .discover = go_discover,
    .build_argv = driver_go_build_argv,
    .build_in_pkg_dir = true,
    .subtests = true,
    .list_argv = driver_go_list_argv,
    .listed = driver_go_listed,
    .check = driver_go_check,
    .run_argv = driver_go_run_argv,
    .run_env = driver_go_run_env,
    .parser_new = driver_go_parser_new,
    .filter = parse_go_run_pattern,
    .select_in_order = parse_go_run_alternation,
    .package_args = driver_go_package_args,
    .reproduce = driver_go_reproduce,
    .locate_test = driver_go_locate_test,
    .owns_test = driver_go_owns_test,
    .skip_args = go_skip_args,
};
