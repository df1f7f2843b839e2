/* SPDX-License-Identifier: MIT */
/*
 * options-check.c: the rules of the sweep settings, shared by the command
 * line (engine/options.c) and the journal header (journal-header.c), so a
 * header holds only what a command line could have asked for.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "drivers/driver.h"
#include "results/options-check.h"
#include "base/util.h"

const char *
options_check_count(long long v, int min)
{
	if (v < min || v > OPTIONS_COUNT_MAX)
		return min > 0 ? _("a positive whole number, at most 100000000")
		               : _("a whole number, at most 100000000");
	return NULL;
}

const char *
options_check_quiet(long long v)
{
	if (v < 0 || v > 99)
		return _("a whole percentage from 1 to 99");
	return NULL;
}

const char *
options_check_canaries(double v)
{
	if (!(v >= 0 && v <= 100))
		return _("a percentage from 0 to 100");
	return NULL;
}

const char *
options_check_list(const int *v, int n)
{
	int i, j;

	if (n == 0)
		return _("a comma-separated list of positive numbers");
	for (i = 0; i < n; i++) {
		if (v[i] <= 0)
			return _("a comma-separated list of positive numbers");
		for (j = 0; j < i; j++) {
			if (v[i] == v[j])
				return _("a list that names each value once");
		}
	}
	return NULL;
}

const char *
options_check_loads(const int *v, int n)
{
	const char *expected = options_check_list(v, n);
	int i;

	for (i = 0; expected == NULL && i < n; i++) {
		/* Each lane runs load x cpu processes at once. */
		if (v[i] > OPTIONS_LOAD_MAX)
			expected = _("runs per core, each at most 64");
	}
	return expected;
}

const char *
options_check_timeout(const char *driver, int64_t ms)
{
	if (ms <= 0)
		return _("a duration above zero");
	/* Go's time.Duration holds at most 2562047h47m16s. */
	if (driver != NULL && strcmp(driver, "go") == 0 && ms > OPTIONS_GO_TIMEOUT_MAX_MS)
		return _("a duration of at most 2562047h with the go driver");
	return NULL;
}

const char *
options_check_driver(const char *name)
{
	return driver_find(name) != NULL ? NULL : "go, tap, pytest, gtest or ctest";
}

const char *
options_check_tap_select(const char *name)
{
	return strcmp(name, "arg") == 0 || strcmp(name, "env") == 0 ? NULL : "arg or env";
}

const char *
options_check_pytest_unit(const char *name)
{
	return strcmp(name, "file") == 0 || strcmp(name, "dir") == 0 ? NULL : "file or dir";
}

const char *
options_check_command(const char *driver, int ncommand)
{
	if ((strcmp(driver, "tap") == 0 || strcmp(driver, "gtest") == 0) && ncommand == 0)
		return _("the command after --");
	if ((strcmp(driver, "go") == 0 || strcmp(driver, "pytest") == 0) && ncommand > 0)
		return _("no command: a command needs --driver tap, gtest or ctest");
	return NULL;
}
