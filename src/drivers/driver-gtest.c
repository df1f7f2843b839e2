/* SPDX-License-Identifier: MIT */
/*
 * driver-gtest.c: the GoogleTest driver. Each word after `--` is one test
 * binary and one package; its tests are what --gtest_list_tests lists. A
 * run is the binary under a small shell wrapper that has it write
 * --gtest_output=json into the run's TMPDIR and copies that report after
 * its console output, so parse-gtest.c sees both in one stream: the console
 * says which test was running when a run hung, the report decides the
 * rest. --run and --skip are gtest filter patterns; a confirm run selects
 * its test with --gtest_filter=Suite.Name.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/driver.h"
#include "engine/options.h"
#include "drivers/parser-adapter.h"
#include "drivers/project.h"
#include "drivers/parse-gtest.h"
#include "engine/proc.h"
#include "base/sanitize.h"
#include "base/util.h"

/* The most a listing may print: a few thousand names. */
#define DRIVER_GTEST_LIST_MAX (8 << 20)

/* $0 is "sh", "$@" the binary and its flags. The report lives in the run's
 * own TMPDIR, which flakesweep removes with the run: no rm to start. */
#define DRIVER_GTEST_WRAPPER                                                       \
	"j=\"$TMPDIR/flakesweep-gtest.json\"; \"$@\" \"--gtest_output=json:$j\"; " \
	"rc=$?; if [ -f \"$j\" ]; then printf '\\n%s\\n' '" PARSE_GTEST_JSON_MARK  \
	"'; cat \"$j\"; fi; exit $rc"

static int
driver_gtest_discover(const struct options *o, struct project *proj, struct pkg ***pkgs,
                      size_t *npkgs, char **err)
{
	char *cwd = getcwd(NULL, 0);
	int i;

	proj->root = xstrdup(cwd != NULL ? cwd : ".");
	project_read_git(proj);
	*pkgs = xcalloc((size_t)o->ncommand, sizeof **pkgs);
	*npkgs = 0;
	for (i = 0; i < o->ncommand; i++) {
		const char *bin = o->command[i];
		struct pkg *p;

		if (access(bin, X_OK) != 0) {
			*err = xasprintf(_("%s: not an executable test binary"), bin);
			free(cwd);
			return -1;
		}
		p = xcalloc(1, sizeof *p);
		p->name = xstrdup(bin);
		p->level = xstrdup("unit");
		p->dir = xstrdup(proj->root);
		p->binary = bin[0] == '/' ? xstrdup(bin) : xasprintf("%s/%s", proj->root, bin);
		/* The reproduce line preloads the CPU shim as the runs did. */
		p->driver_data = o->cpu_shim_path != NULL ? xstrdup(o->cpu_shim_path) : NULL;
		(*pkgs)[(*npkgs)++] = p;
	}
	free(cwd);
	return 0;
}

static char **
driver_gtest_build_argv(const struct options *o, const struct project *proj, struct pkg *pkg,
                        const char *bindir)
{
	(void)o;
	(void)proj;
	(void)pkg;
	(void)bindir;
	return NULL;
}

static int
driver_gtest_prepare(const struct options *o, struct pkg *pkg)
{
	char *argv[] = {pkg->binary, "--gtest_list_tests", NULL}, *out = NULL, *err = NULL;
	int rc;

	(void)o;
	rc = proc_capture(argv, pkg->dir, NULL, DRIVER_GTEST_LIST_MAX, &out);
	if (rc != 0) {
		pkg->build_ok = false;
		pkg->build_output =
		    xasprintf(_("%s --gtest_list_tests failed (exit %d):\n%s"), pkg->name, rc, out);
		free(out);
		return -1;
	}
	util_strv_free(pkg->tests);
	pkg->tests = NULL;
	if (parse_gtest_list(out, &pkg->tests, &pkg->ntests, &err) < 0) {
		pkg->build_ok = false;
		pkg->build_output = xasprintf(_("%s --gtest_list_tests: %s"), pkg->name, err);
		free(err);
		free(out);
		return -1;
	}
	free(out);
	pkg->build_ok = true;
	pkg->empty = pkg->ntests == 0;
	return 0;
}

/* The --gtest_filter value of a run: its one test, or --run, minus --skip;
 * NULL when it runs everything. Caller frees. */
static char *
driver_gtest_filter_of(const struct pkg *pkg, const struct driver_run *r)
{
	const char *pos = r->test != NULL ? r->test : r->run_re;

	if (pos == NULL && pkg->run_filter != NULL)
		pos = pkg->run_filter;
	if (pos == NULL && r->skip_re == NULL)
		return NULL;
	if (r->skip_re == NULL)
		return xstrdup(pos);
	return xasprintf("%s-%s", pos != NULL ? pos : "*", r->skip_re);
}

/* gtest takes seeds from 1 to 99999; the one it printed is kept with the
 * result and is already in range. */
static char *
driver_gtest_seed(const char *seed)
{
	unsigned long long v = strtoull(seed, NULL, 10);

	return xasprintf("%llu", v >= 1 && v <= 99999 ? v : v % 99999 + 1);
}

/* The binary's flags of one run, after the binary. */
static void
driver_gtest_flags(const struct pkg *pkg, const struct driver_run *r, char ***argv, size_t *n)
{
	char *filter = driver_gtest_filter_of(pkg, r), *v;

	util_strv_add(argv, n, "--gtest_color=no");
	if (filter != NULL) {
		v = xasprintf("--gtest_filter=%s", filter);
		util_strv_add(argv, n, v);
		free(v);
		free(filter);
	}
	if (r->seed != NULL) {
		char *seed = driver_gtest_seed(r->seed);

		util_strv_add(argv, n, "--gtest_shuffle");
		v = xasprintf("--gtest_random_seed=%s", seed);
		util_strv_add(argv, n, v);
		free(v);
		free(seed);
	}
}

static char **
driver_gtest_run_argv(const struct options *o, const struct pkg *pkg, const struct driver_run *r)
{
	char **argv = NULL;
	size_t n = 0;

	(void)o;
	util_strv_add(&argv, &n, "/bin/sh");
	util_strv_add(&argv, &n, "-c");
	util_strv_add(&argv, &n, DRIVER_GTEST_WRAPPER);
	util_strv_add(&argv, &n, "sh");
	util_strv_add(&argv, &n, pkg->binary);
	driver_gtest_flags(pkg, r, &argv, &n);
	return argv;
}

static char **
driver_gtest_run_env(const struct options *o, const struct pkg *pkg, const struct driver_run *r)
{
	(void)o;
	(void)pkg;
	(void)r;
	return NULL;
}

PARSER_ADAPTER(driver_gtest_parser, struct parse_gtest, parse_gtest_feed, parse_gtest_finish,
               parse_gtest_free)

static struct driver_parser *
driver_gtest_parser_new(const struct pkg *pkg, const char *selected)
{
	(void)pkg;
	return driver_gtest_parser_wrap(parse_gtest_new(selected));
}

static char *
driver_gtest_package_args(const struct pkg *pkg)
{
	char *q = sanitize_shell_quote(pkg->name), *s = xasprintf("--driver gtest -- %s", q);

	free(q);
	return s;
}

static char *
driver_gtest_reproduce(const struct pkg *pkg, const struct driver_run *r, const int *cpus,
                       int count)
{
	char **argv = NULL, *line;
	size_t n = 0, i;
	struct buf cmd;

	buf_init(&cmd);
	util_strv_add(&argv, &n, strchr(pkg->name, '/') != NULL ? pkg->name : pkg->binary);
	driver_gtest_flags(pkg, r, &argv, &n);
	for (i = 0; i < n; i++) {
		char *q = sanitize_shell_quote(argv[i]);

		buf_printf(&cmd, "%s%s", i > 0 ? " " : "", q);
		free(q);
	}
	util_strv_free(argv);
	line = driver_reproduce_loop(pkg, r, cpus, count, pkg->driver_data, NULL, cmd.data);
	buf_free(&cmd);
	return line;
}

/* A --gtest_filter of exactly these tests. gtest shuffles every test of
 * the binary with the seed and then skips those the filter leaves out, so
 * the tests kept run in the order the whole binary ran them in. */
static char *
driver_gtest_select_in_order(char *const *tests)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	for (i = 0; tests[i] != NULL; i++) {
		if (i > 0)
			buf_addc(&b, ':');
		buf_adds(&b, tests[i]);
	}
	return buf_steal(&b);
}

const struct driver driver_gtest = {
    .name = "gtest",
    .own_timeout = false,
    .discover = driver_gtest_discover,
    .build_argv = driver_gtest_build_argv,
    .prepare = driver_gtest_prepare,
    .run_argv = driver_gtest_run_argv,
    .run_env = driver_gtest_run_env,
    .parser_new = driver_gtest_parser_new,
    .filter = xstrdup,
    .select_in_order = driver_gtest_select_in_order,
    .package_args = driver_gtest_package_args,
    .reproduce = driver_gtest_reproduce,
};
