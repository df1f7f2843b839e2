/* SPDX-License-Identifier: MIT */
/*
 * driver-pytest.c: the pytest driver. It discovers node ids with
 * `python3 -m pytest --collect-only -q` from the project's root and makes
 * each test file (or, with --pytest-unit dir, each directory) one package.
 * Runs load flakesweep's plugin (data/flakesweep_ledger.py, found through
 * PYTHONPATH, pytest-env.c) which reports on the pipe flakesweep passes as descriptor
 * FLAKESWEEP_REPORT_FD, shuffles with the run's seed and dumps every
 * thread's stack on SIGTERM. Parsing the report is parse-pytest.c's job.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/driver.h"
#include "engine/options.h"
#include "drivers/parser-adapter.h"
#include "drivers/project.h"
#include "drivers/parse-pytest.h"
#include "drivers/pytest-env.h"
#include "engine/proc.h"
#include "base/sanitize.h"
#include "base/util.h"

extern char **environ;

#define DRIVER_PYTEST_OUTPUT_MAX (16 << 20)

/* The package a node id belongs to: its file, or the file's directory. */
static char *
driver_pytest_unit(const struct options *o, const char *nodeid)
{
	const char *sep = strstr(nodeid, "::"), *slash;
	char *file = sep != NULL ? xstrndup(nodeid, (size_t)(sep - nodeid)) : xstrdup(nodeid);

	if (strcmp(o->pytest_unit, "dir") != 0)
		return file;
	slash = strrchr(file, '/');
	if (slash == NULL) {
		free(file);
		return xstrdup(".");
	}
	file[slash - file] = '\0';
	return file;
}

static struct pkg *
driver_pytest_get_pkg(struct pkg ***pkgs, size_t *npkgs, const char *unit, const char *root,
                      const char *python, const char *cpu_shim)
{
	struct pkg *p;
	size_t i;

	for (i = 0; i < *npkgs; i++) {
		if (strcmp((*pkgs)[i]->name, unit) == 0)
			return (*pkgs)[i];
	}
	p = xcalloc(1, sizeof *p);
	p->name = xstrdup(unit);
	p->level = xstrdup("unit");
	p->dir = xstrdup(root);
	/* Kept in the journal, so a resumed sweep runs the same Python. */
	p->toolchain = xstrdup(python);
	/* The reproduce line preloads the CPU shim as the runs did. */
	p->driver_data = cpu_shim != NULL ? xstrdup(cpu_shim) : NULL;
	*pkgs = xrealloc(*pkgs, sizeof **pkgs * (*npkgs + 1));
	(*pkgs)[(*npkgs)++] = p;
	return p;
}

static int
driver_pytest_discover(const struct options *o, struct project *proj, struct pkg ***pkgs,
                       size_t *npkgs, char **err)
{
	char **argv = NULL, *out = NULL, *line, *next, *cwd = getcwd(NULL, 0);
	char *python = pytest_env_python(), *exe = NULL;
	size_t n = 0;
	int i, rc;

	proj->root = xstrdup(cwd != NULL ? cwd : ".");
	project_read_git(proj);
	*pkgs = NULL;
	*npkgs = 0;
	/* A run that cannot load pytest or the plugin reaches no test. */
	rc = pytest_env_check(python, proj->root, &exe, err);
	if (rc < 0)
		goto out;
	/* A name found on PATH becomes the Python's own path, so that runs, a
	 * resumed sweep and reproduce lines in another shell start the same
	 * one; a path given (a wrapper, say) is kept as it is. */
	if (strchr(python, '/') == NULL && exe != NULL && exe[0] == '/') {
		free(python);
		python = exe;
		exe = NULL;
	}
	util_strv_add(&argv, &n, python);
	util_strv_add(&argv, &n, "-m");
	util_strv_add(&argv, &n, "pytest");
	util_strv_add(&argv, &n, "--collect-only");
	util_strv_add(&argv, &n, "-q");
	util_strv_add(&argv, &n, "-p");
	util_strv_add(&argv, &n, "no:cacheprovider");
	for (i = 0; i < o->npackages; i++)
		util_strv_add(&argv, &n, o->packages[i]);
	rc = proc_capture(argv, proj->root, environ, DRIVER_PYTEST_OUTPUT_MAX, &out);
	/* 5: no tests collected, an empty sweep rather than an error. */
	if (rc != 0 && rc != 5) {
		*err = xasprintf(_("%s -m pytest --collect-only -q in %s failed (exit %d):\n%s"),
		                 python, proj->root, rc, out);
		rc = -1;
		goto out;
	}
	for (line = out; line != NULL && *line != '\0'; line = next) {
		struct pkg *p;
		char *unit;

		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (*line == '\0')
			break; /* the summary follows the node ids */
		if (strstr(line, "::") == NULL || *line == ' ')
			continue;
		unit = driver_pytest_unit(o, line);
		p = driver_pytest_get_pkg(pkgs, npkgs, unit, proj->root, python, o->cpu_shim_path);
		util_strv_add(&p->tests, &p->ntests, line);
		free(unit);
	}
	rc = 0;
out:
	util_strv_free(argv);
	free(out);
	free(python);
	free(exe);
	free(cwd);
	return rc;
}

static char **
driver_pytest_build_argv(const struct options *o, const struct project *proj, struct pkg *pkg,
                         const char *bindir)
{
	(void)o;
	(void)proj;
	(void)pkg;
	(void)bindir;
	return NULL;
}

static int
driver_pytest_prepare(const struct options *o, struct pkg *pkg)
{
	(void)o;
	pkg->build_ok = true;
	pkg->empty = pkg->ntests == 0;
	return 0;
}

/* The Python discovery chose for pkg, kept as its toolchain. */
static const char *
driver_pytest_pkg_python(const struct pkg *pkg)
{
	return pkg->toolchain != NULL ? pkg->toolchain : "python3";
}

/* The arguments after `python3 -m pytest` that select and order a run:
 * the node id (or the package and what r->run_re keeps of it), the plugin
 * and the seed. */
static void
driver_pytest_args(char ***argv, size_t *n, const struct pkg *pkg, const struct driver_run *r)
{
	char *v;

	util_strv_add(argv, n, r->test != NULL ? r->test : pkg->name);
	util_strv_add(argv, n, "-p");
	util_strv_add(argv, n, "flakesweep_ledger");
	/* Runs are ordered by the seed alone, never by pytest-randomly. */
	util_strv_add(argv, n, "-p");
	util_strv_add(argv, n, "no:randomly");
	util_strv_add(argv, n, "-p");
	util_strv_add(argv, n, "no:cacheprovider");
	if (r->seed != NULL) {
		v = xasprintf("--flakesweep-seed=%s", r->seed);
		util_strv_add(argv, n, v);
		free(v);
	}
	if (r->test == NULL && r->run_re != NULL) {
		v = xasprintf("--flakesweep-run=%s", r->run_re);
		util_strv_add(argv, n, v);
		free(v);
	}
}

static char **
driver_pytest_run_argv(const struct options *o, const struct pkg *pkg, const struct driver_run *r)
{
	char **argv = NULL, *v;
	size_t n = 0;

	(void)o;
	util_strv_add(&argv, &n, driver_pytest_pkg_python(pkg));
	util_strv_add(&argv, &n, "-m");
	util_strv_add(&argv, &n, "pytest");
	util_strv_add(&argv, &n, "-q");
	driver_pytest_args(&argv, &n, pkg, r);
	if (r->test == NULL && r->skip_re != NULL) {
		v = xasprintf("--flakesweep-skip=%s", r->skip_re);
		util_strv_add(&argv, &n, v);
		free(v);
	}
	return argv;
}

static char **
driver_pytest_run_env(const struct options *o, const struct pkg *pkg, const struct driver_run *r)
{
	char **env = NULL, *path = pytest_env_pythonpath(), *v;
	size_t n = 0;

	(void)o;
	(void)pkg;
	(void)r;
	v = xasprintf("PYTHONPATH=%s", path);
	util_strv_add(&env, &n, v);
	free(v);
	free(path);
	return env;
}

PARSER_ADAPTER(driver_pytest_parser, struct parse_pytest, parse_pytest_feed_output,
               parse_pytest_finish, parse_pytest_free)

static void
driver_pytest_parser_feed_report(struct driver_parser *dp, const char *data, size_t len)
{
	parse_pytest_feed_report(((struct driver_pytest_parser *)dp)->p, data, len);
}

static struct driver_parser *
driver_pytest_parser_new(const struct pkg *pkg, const char *selected)
{
	struct driver_parser *dp;

	(void)pkg;
	dp = driver_pytest_parser_wrap(parse_pytest_new(selected));
	dp->feed_report = driver_pytest_parser_feed_report;
	return dp;
}

static char *
driver_pytest_package_args(const struct pkg *pkg)
{
	char *q = sanitize_shell_quote(pkg->name), *s;
	size_t len = strlen(pkg->name);
	bool file = len > 3 && strcmp(pkg->name + len - 3, ".py") == 0;

	s = xasprintf("--driver pytest%s %s", file ? "" : " --pytest-unit dir", q);
	free(q);
	return s;
}

/* The node ids, each quoted for Python's re and anchored: the plugin
 * shuffles every collected test with the seed before it keeps those
 * (flakesweep_ledger.py), so they run in the whole file's order. */
static char *
driver_pytest_select_in_order(char *const *tests)
{
	struct buf b;
	const char *s;
	size_t i;

	buf_init(&b);
	/* One test as --run's filter spells it: ^ID$. */
	buf_adds(&b, tests[0] != NULL && tests[1] != NULL ? "^(?:" : "^");
	for (i = 0; tests[i] != NULL; i++) {
		if (i > 0)
			buf_addc(&b, '|');
		for (s = tests[i]; *s != '\0'; s++) {
			if (strchr("\\.^$*+?{}[]|()", *s) != NULL)
				buf_addc(&b, '\\');
			buf_addc(&b, *s);
		}
	}
	buf_adds(&b, tests[0] != NULL && tests[1] != NULL ? ")$" : "$");
	return buf_steal(&b);
}

/* The --run pattern (a Python regular expression searched in node ids)
 * that selects exactly test. */
static char *
driver_pytest_filter(const char *test)
{
	char *const one[] = {(char *)test, NULL};

	return driver_pytest_select_in_order(one);
}

static char *
driver_pytest_reproduce(const struct pkg *pkg, const struct driver_run *r, const int *cpus,
                        int count)
{
	char **args = NULL, *q, *path = pytest_env_pythonpath(), *env, *line;
	struct buf cmd;
	size_t n = 0;
	int i;

	q = sanitize_shell_quote(path);
	env = xasprintf("PYTHONPATH=%s", q);
	free(q);
	buf_init(&cmd);
	q = sanitize_shell_quote(driver_pytest_pkg_python(pkg));
	buf_printf(&cmd, "%s -m pytest", q);
	free(q);
	driver_pytest_args(&args, &n, pkg, r);
	for (i = 0; args[i] != NULL; i++) {
		q = sanitize_shell_quote(args[i]);
		buf_printf(&cmd, " %s", q);
		free(q);
	}
	line = driver_reproduce_loop(pkg, r, cpus, count, pkg->driver_data, env, cmd.data);
	buf_free(&cmd);
	util_strv_free(args);
	free(env);
	free(path);
	return line;
}

/* The Python, the plugin's directory and the tests' own imports. */
static const char *const driver_pytest_env[] = {"FLAKESWEEP_PYTHON", "FLAKESWEEP_DATADIR",
                                                "PYTHONPATH", NULL};

const struct driver driver_pytest = {
    .name = "pytest",
    .repro_env = driver_pytest_env,
    .own_timeout = false,
    .report_pipe = true,
    .discover = driver_pytest_discover,
    .build_argv = driver_pytest_build_argv,
    .prepare = driver_pytest_prepare,
    .run_argv = driver_pytest_run_argv,
    .run_env = driver_pytest_run_env,
    .parser_new = driver_pytest_parser_new,
    .filter = driver_pytest_filter,
    .select_in_order = driver_pytest_select_in_order,
    .package_args = driver_pytest_package_args,
    .reproduce = driver_pytest_reproduce,
};
