/* SPDX-License-Identifier: MIT */
/*
 * driver-tap.c: the TAP driver. The command after `--` is one package; it
 * has no build and no listing, its tests are the TAP points it prints. A
 * run learns its CPU count from its pinning and FLAKESWEEP_CPU; a confirm
 * run names its test as a last argument or in FLAKESWEEP_TEST
 * (--tap-select). Parsing is parse-tap.c's job.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/driver.h"
#include "engine/options.h"
#include "drivers/parser-adapter.h"
#include "drivers/project.h"
#include "drivers/parse-tap.h"
#include "base/sanitize.h"
#include "base/util.h"

static int
driver_tap_discover(const struct options *o, struct project *proj, struct pkg ***pkgs,
                    size_t *npkgs, char **err)
{
	struct pkg *p;
	struct buf name;
	char *cwd = o->dir != NULL ? xstrdup(o->dir) : getcwd(NULL, 0);
	int i;

	(void)err;
	proj->root = xstrdup(cwd != NULL ? cwd : ".");
	project_read_git(proj);
	buf_init(&name);
	for (i = 0; i < o->ncommand; i++) {
		char *q = sanitize_shell_quote(o->command[i]);

		buf_printf(&name, "%s%s", i > 0 ? " " : "", q);
		free(q);
	}
	p = xcalloc(1, sizeof *p);
	p->name = buf_steal(&name);
	p->level = xstrdup("unit");
	p->dir = xstrdup(proj->root);
	/* The reproduce line preloads the CPU shim as the runs did. */
	p->driver_data = o->cpu_shim_path != NULL ? xstrdup(o->cpu_shim_path) : NULL;
	*pkgs = xcalloc(1, sizeof **pkgs);
	(*pkgs)[0] = p;
	*npkgs = 1;
	free(cwd);
	return 0;
}

static char **
driver_tap_build_argv(const struct options *o, const struct project *proj, struct pkg *pkg,
                      const char *bindir)
{
	(void)o;
	(void)proj;
	(void)pkg;
	(void)bindir;
	return NULL;
}

static int
driver_tap_prepare(const struct options *o, struct pkg *pkg)
{
	(void)o;
	/* Tests are known only as they run; the package is never empty. */
	pkg->build_ok = true;
	pkg->ntests = 0;
	pkg->empty = false;
	return 0;
}

/* The one test a run selects: a confirm run's, or with --run the name it
 * gives (a TAP command has no pattern syntax: the name is passed as is). */
static const char *
driver_tap_selected(const struct driver_run *r)
{
	return r->test != NULL ? r->test : r->run_re;
}

static char **
driver_tap_run_argv(const struct options *o, const struct pkg *pkg, const struct driver_run *r)
{
	char **argv = NULL;
	size_t n = 0;
	int i;

	(void)pkg;
	for (i = 0; i < o->ncommand; i++)
		util_strv_add(&argv, &n, o->command[i]);
	if (driver_tap_selected(r) != NULL && strcmp(o->tap_select, "arg") == 0)
		util_strv_add(&argv, &n, driver_tap_selected(r));
	return argv;
}

static char **
driver_tap_run_env(const struct options *o, const struct pkg *pkg, const struct driver_run *r)
{
	char **env = NULL, *v;
	size_t n = 0;

	(void)pkg;
	if (driver_tap_selected(r) != NULL && strcmp(o->tap_select, "env") == 0) {
		v = xasprintf("FLAKESWEEP_TEST=%s", driver_tap_selected(r));
		util_strv_add(&env, &n, v);
		free(v);
	}
	return env;
}

PARSER_ADAPTER(driver_tap_parser, struct parse_tap, parse_tap_feed, parse_tap_finish,
               parse_tap_free)

static struct driver_parser *
driver_tap_parser_new(const struct pkg *pkg, const char *selected)
{
	(void)pkg;
	return driver_tap_parser_wrap(parse_tap_new(selected));
}

static char *
driver_tap_package_args(const struct pkg *pkg)
{
	/* The package's name is the command line, quoted word by word. */
	return xasprintf("--driver tap -- %s", pkg->name);
}

static char *
driver_tap_reproduce(const struct pkg *pkg, const struct driver_run *r, const int *cpus, int count)
{
	char *q = r->test != NULL && !r->select_env ? sanitize_shell_quote(r->test) : NULL, *cmd,
	     *line;

	cmd = q != NULL ? xasprintf("%s %s", pkg->name, q) : xstrdup(pkg->name);
	line = driver_reproduce_loop(pkg, r, cpus, count, pkg->driver_data, NULL, cmd);
	free(cmd);
	free(q);
	return line;
}

/* A pytest node id ("tests/test_x.py::test_y"): the part before the
 * first "::" is a .py file. */
static bool
driver_tap_owns_test(const char *id)
{
	const char *sep = strstr(id, "::");

	return sep != NULL && sep - id >= 3 && strncmp(sep - 3, ".py", 3) == 0;
}

static char *
driver_tap_skip_args(const char *package, const char *const *tests, size_t n, bool bare,
                     const char *root)
{
	struct buf out;
	size_t i;

	(void)bare;
	(void)root;
	buf_init(&out);
	buf_add(&out, "", 0);
	for (i = 0; i < n; i++) {
		/* An entry of a pytest result's id: its test is the node id. */
		char *id = driver_tap_owns_test(tests[i]) ? xstrdup(tests[i])
		                                          : xasprintf("%s::%s", package, tests[i]),
		     *quoted = sanitize_shell_quote(id);

		buf_printf(&out, "--deselect %s\n", quoted);
		free(quoted);
		free(id);
	}
	return buf_steal(&out);
}

const struct driver driver_tap = {
    .name = "tap",
    .own_timeout = false,
    .discover = driver_tap_discover,
    .build_argv = driver_tap_build_argv,
    .prepare = driver_tap_prepare,
    .run_argv = driver_tap_run_argv,
    .run_env = driver_tap_run_env,
    .parser_new = driver_tap_parser_new,
    .filter = xstrdup,
    .package_args = driver_tap_package_args,
    .reproduce = driver_tap_reproduce,
    .owns_test = driver_tap_owns_test,
    .skip_args = driver_tap_skip_args,
};
