/* SPDX-License-Identifier: MIT */
/*
 * pytest-env.c: the Python and the plugin directory of pytest runs, and
 * the check that they load (pytest-env.h). A run that cannot load pytest
 * or the plugin never reaches a test: the check stops the sweep before the
 * first run, with the fix, rather than count every run as a failure.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "drivers/pytest-env.h"
#include "engine/proc.h"
#include "base/datadir.h"
#include "base/gettext.h"
#include "base/util.h"

extern char **environ;

#define PYTEST_ENV_PLUGIN "flakesweep_ledger"
#define PYTEST_ENV_OUTPUT_MAX (64 << 10)
/* The probes start Python and pytest only: a minute is generous. */
#define PYTEST_ENV_LIMIT_MS (60 * 1000)

/* Prints the interpreter's path, then exits 3 when pytest does not import. */
static const char pytest_env_probe[] = "import sys\n"
                                       "print(sys.executable)\n"
                                       "try:\n"
                                       "    import pytest\n"
                                       "except ImportError:\n"
                                       "    sys.exit(3)\n";

char *
pytest_env_python(void)
{
	const char *env = getenv("FLAKESWEEP_PYTHON");

	return xstrdup(env != NULL && *env != '\0' ? env : "python3");
}

char *
pytest_env_pythonpath(void)
{
	const char *old = getenv("PYTHONPATH");
	char *dir = datadir_find(PYTEST_ENV_PLUGIN ".py"), *path;

	if (old == NULL || *old == '\0')
		return dir;
	path = xasprintf("%s:%s", dir, old);
	free(dir);
	return path;
}

/* The last non-empty line of out, without its newline (caller frees). */
static char *
pytest_env_last_line(const char *out)
{
	const char *end = out + strlen(out), *start;

	while (end > out && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	start = end;
	while (start > out && start[-1] != '\n')
		start--;
	return xstrndup(start, (size_t)(end - start));
}

/* environ with PYTHONPATH replaced by path (caller frees). */
static char **
pytest_env_environ(const char *path)
{
	char **env = NULL, *v;
	size_t n = 0, i;

	for (i = 0; environ[i] != NULL; i++) {
		if (strncmp(environ[i], "PYTHONPATH=", 11) != 0)
			util_strv_add(&env, &n, environ[i]);
	}
	v = xasprintf("PYTHONPATH=%s", path);
	util_strv_add(&env, &n, v);
	free(v);
	return env;
}

/* Whether python imports pytest: 0 with *exe, its path, or -1 with *err,
 * which names the fix. */
static int
pytest_env_check_pytest(const char *python, char **exe, char **err)
{
	char *argv[] = {(char *)python, "-c", (char *)pytest_env_probe, NULL};
	char *out = NULL, *where;
	int rc = proc_capture_limit(argv, NULL, environ, PYTEST_ENV_OUTPUT_MAX, PYTEST_ENV_LIMIT_MS,
	                            &out);

	if (rc == 0) {
		*exe = pytest_env_last_line(out);
		free(out);
		return 0;
	}
	where = rc == 3 ? pytest_env_last_line(out) : NULL;
	if (where != NULL && *where != '\0')
		*err = xasprintf(_("%s at %s has no pytest: install python3-pytest or set "
		                   "FLAKESWEEP_PYTHON"),
		                 python, where);
	else
		*err = xasprintf(_("cannot run %s (%s): install python3-pytest or set "
		                   "FLAKESWEEP_PYTHON"),
		                 python, rc < 0 ? strerror(-rc) : out);
	free(where);
	free(out);
	return -1;
}

int
pytest_env_check(const char *python, const char *root, char **exe, char **err)
{
	char *argv[] = {(char *)python,     "-m",        "pytest", "-p", PYTEST_ENV_PLUGIN, "-p",
	                "no:cacheprovider", "--version", NULL};
	char *path, **env, *out = NULL, *why, *dir;
	int rc;

	*exe = NULL;
	if (pytest_env_check_pytest(python, exe, err) < 0)
		return -1;
	path = pytest_env_pythonpath();
	env = pytest_env_environ(path);
	rc = proc_capture_limit(argv, root, env, PYTEST_ENV_OUTPUT_MAX, PYTEST_ENV_LIMIT_MS, &out);
	if (rc != 0) {
		why = pytest_env_last_line(out);
		dir = datadir_find(PYTEST_ENV_PLUGIN ".py");
		if (strstr(out, PYTEST_ENV_PLUGIN) != NULL)
			*err = xasprintf(_("cannot import the %s plugin from %s (%s): set "
			                   "FLAKESWEEP_DATADIR to the directory that holds %s.py"),
			                 PYTEST_ENV_PLUGIN, dir, why, PYTEST_ENV_PLUGIN);
		else
			*err = xasprintf(_("%s -m pytest does not start in %s (%s):\n%s"), python,
			                 root, why, out);
		free(dir);
		free(why);
		free(*exe);
		*exe = NULL;
	}
	util_strv_free(env);
	free(path);
	free(out);
	return rc != 0 ? -1 : 0;
}
