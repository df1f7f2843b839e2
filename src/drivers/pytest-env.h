/* SPDX-License-Identifier: MIT */
/*
 * pytest-env.h: what a pytest run needs from the machine: the Python that
 * runs pytest, the directory of flakesweep's plugin, and the check, before
 * the first run, that this Python imports pytest and the plugin.
 */
#ifndef FLAKESWEEP_PYTEST_ENV_H
#define FLAKESWEEP_PYTEST_ENV_H

/* The Python that runs pytest: $FLAKESWEEP_PYTHON, else python3 from PATH.
 * Returns a new string. */
char *pytest_env_python(void);

/* The PYTHONPATH of a run: the plugin's directory (datadir_find), then the
 * caller's PYTHONPATH. Returns a new string. */
char *pytest_env_pythonpath(void);

/* Checks that python imports pytest and that pytest, started in root,
 * loads the flakesweep_ledger plugin from pytest_env_pythonpath(). Returns
 * 0 with *exe, python's absolute path (sys.executable, caller frees), or
 * -1 with *err (caller frees), a message that names the fix. */
int pytest_env_check(const char *python, const char *root, char **exe, char **err);

#endif
