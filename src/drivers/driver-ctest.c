/* SPDX-License-Identifier: MIT */
/*
 * driver-ctest.c: the CTest driver. The build directory (the one package
 * argument, "." by default) holds the tests `ctest --show-only=json-v1`
 * lists; each test is one package of one test, and a run is `ctest -R
 * '^NAME$'` in that directory, so the test starts with the command,
 * working directory and environment CTest gives it. A small shell wrapper
 * has ctest write --output-junit into the run's TMPDIR and copies the
 * report after the console output, where parse-ctest.c reads it. --run
 * and --skip are extended regular expressions over test names.
 */
#include "config.h"

#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/driver.h"
#include "engine/options.h"
#include "drivers/parser-adapter.h"
#include "drivers/project.h"
#include "drivers/parse-ctest.h"
#include "engine/proc.h"
#include "base/sanitize.h"
#include "base/util.h"

#define DRIVER_CTEST_LIST_MAX (16 << 20)

/* $1 is the anchored name. The report lives in the run's own TMPDIR,
 * which flakesweep removes with the run. */
#define DRIVER_CTEST_WRAPPER                                                                              \
	"j=\"$TMPDIR/flakesweep-ctest.xml\"; ctest -R \"$1\" --no-tests=error "                           \
	"--output-junit \"$j\"; rc=$?; if [ -f \"$j\" ]; then printf '\\n%s\\n' '" PARSE_CTEST_JUNIT_MARK \
	"'; cat \"$j\"; fi; exit $rc"

/* Whether name passes --run and --skip (compiled, or NULL). */
static bool
driver_ctest_selected(const regex_t *run, const regex_t *skip, const char *name)
{
	if (run != NULL && regexec(run, name, 0, NULL, 0) != 0)
		return false;
	return skip == NULL || regexec(skip, name, 0, NULL, 0) != 0;
}

static int
driver_ctest_compile(const char *opt, const char *re, regex_t *out, char **err)
{
	if (regcomp(out, re, REG_EXTENDED | REG_NOSUB) == 0)
		return 0;
	*err = xasprintf(_("--%s %s: not an extended regular expression"), opt, re);
	return -1;
}

static int
driver_ctest_discover(const struct options *o, struct project *proj, struct pkg ***pkgs,
                      size_t *npkgs, char **err)
{
	char *argv[] = {"ctest", "--show-only=json-v1", NULL}, *out = NULL, **names = NULL;
	char dir[PATH_MAX], *cwd = getcwd(NULL, 0);
	const char *arg = o->npackages > 0 ? o->packages[0] : ".";
	regex_t run, skip;
	bool has_run = false, has_skip = false;
	size_t n = 0, i;
	int rc = -1, st;

	*pkgs = NULL;
	*npkgs = 0;
	proj->root = xstrdup(cwd != NULL ? cwd : ".");
	project_read_git(proj);
	if (o->npackages > 1) {
		*err = xstrdup(_("--driver ctest takes one build directory"));
		goto out;
	}
	if (realpath(arg, dir) == NULL) {
		*err = xasprintf(_("%s: no such build directory"), arg);
		goto out;
	}
	st = proc_capture(argv, dir, NULL, DRIVER_CTEST_LIST_MAX, &out);
	if (st != 0) {
		*err = xasprintf(_("ctest --show-only=json-v1 in %s failed (exit %d):\n%s"), dir,
		                 st, out);
		goto out;
	}
	if (parse_ctest_list(out, &names, &n, err) < 0) {
		char *e = xasprintf(_("ctest --show-only=json-v1 in %s: %s"), dir, *err);

		free(*err);
		*err = e;
		goto out;
	}
	if (o->run_re != NULL) {
		if (driver_ctest_compile("run", o->run_re, &run, err) < 0)
			goto out;
		has_run = true;
	}
	if (o->skip_re != NULL) {
		if (driver_ctest_compile("skip", o->skip_re, &skip, err) < 0)
			goto out;
		has_skip = true;
	}
	*pkgs = xcalloc(n + 1, sizeof **pkgs);
	for (i = 0; i < n; i++) {
		struct pkg *p;

		if (!driver_ctest_selected(has_run ? &run : NULL, has_skip ? &skip : NULL,
		                           names[i]))
			continue;
		p = xcalloc(1, sizeof *p);
		p->name = xstrdup(names[i]);
		p->level = xstrdup("unit");
		p->dir = xstrdup(dir);
		p->tests = xcalloc(2, sizeof *p->tests);
		p->tests[0] = xstrdup(names[i]);
		p->ntests = 1;
		/* The reproduce line preloads the CPU shim as the runs did. */
		p->driver_data = o->cpu_shim_path != NULL ? xstrdup(o->cpu_shim_path) : NULL;
		(*pkgs)[(*npkgs)++] = p;
	}
	if (*npkgs == 0) {
		*err = xasprintf(_("ctest in %s lists no test to run"), dir);
		goto out;
	}
	rc = 0;
out:
	if (rc < 0) {
		driver_free_pkgs(*pkgs, *npkgs);
		*pkgs = NULL;
		*npkgs = 0;
	}
	if (has_run)
		regfree(&run);
	if (has_skip)
		regfree(&skip);
	util_strv_free(names);
	free(out);
	free(cwd);
	return rc;
}

static char **
driver_ctest_build_argv(const struct options *o, const struct project *proj, struct pkg *pkg,
                        const char *bindir)
{
	(void)o;
	(void)proj;
	(void)pkg;
	(void)bindir;
	return NULL;
}

static int
driver_ctest_prepare(const struct options *o, struct pkg *pkg)
{
	(void)o;
	pkg->build_ok = true;
	pkg->empty = false;
	return 0;
}

/* The -R pattern that matches exactly test: anchored, with the characters
 * CMake's regular expressions give a meaning escaped. Caller frees. */
static char *
driver_ctest_filter(const char *test)
{
	struct buf b;

	buf_init(&b);
	buf_addc(&b, '^');
	for (; *test != '\0'; test++) {
		if (strchr("^$.[]*+?()|\\", *test) != NULL)
			buf_addc(&b, '\\');
		buf_addc(&b, *test);
	}
	buf_addc(&b, '$');
	return buf_steal(&b);
}

static char **
driver_ctest_run_argv(const struct options *o, const struct pkg *pkg, const struct driver_run *r)
{
	char **argv = NULL, *re = driver_ctest_filter(pkg->tests[0]);
	size_t n = 0;

	(void)o;
	(void)r;
	util_strv_add(&argv, &n, "/bin/sh");
	util_strv_add(&argv, &n, "-c");
	util_strv_add(&argv, &n, DRIVER_CTEST_WRAPPER);
	util_strv_add(&argv, &n, "sh");
	util_strv_add(&argv, &n, re);
	free(re);
	return argv;
}

static char **
driver_ctest_run_env(const struct options *o, const struct pkg *pkg, const struct driver_run *r)
{
	(void)o;
	(void)pkg;
	(void)r;
	return NULL;
}

PARSER_ADAPTER(driver_ctest_parser, struct parse_ctest, parse_ctest_feed, parse_ctest_finish,
               parse_ctest_free)

static struct driver_parser *
driver_ctest_parser_new(const struct pkg *pkg, const char *selected)
{
	return driver_ctest_parser_wrap(
	    parse_ctest_new(selected != NULL ? selected : pkg->tests[0]));
}

static char *
driver_ctest_package_args(const struct pkg *pkg)
{
	char *q = sanitize_shell_quote(pkg->dir), *s = xasprintf("--driver ctest %s", q);

	free(q);
	return s;
}

static char *
driver_ctest_reproduce(const struct pkg *pkg, const struct driver_run *r, const int *cpus,
                       int count)
{
	char *re = driver_ctest_filter(pkg->tests[0]), *q = sanitize_shell_quote(re), *cmd, *line;

	cmd = xasprintf("ctest -R %s --output-on-failure", q);
	line = driver_reproduce_loop(pkg, r, cpus, count, pkg->driver_data, NULL, cmd);
	free(cmd);
	free(q);
	free(re);
	return line;
}

const struct driver driver_ctest = {
    .name = "ctest",
    .own_timeout = false,
    .discover = driver_ctest_discover,
    .build_argv = driver_ctest_build_argv,
    .prepare = driver_ctest_prepare,
    .run_argv = driver_ctest_run_argv,
    .run_env = driver_ctest_run_env,
    .parser_new = driver_ctest_parser_new,
    .filter = driver_ctest_filter,
    .package_args = driver_ctest_package_args,
    .reproduce = driver_ctest_reproduce,
};
