/* SPDX-License-Identifier: MIT */
/* test-run-env.c: the runs' inherited environment built once, and each
 * run's block on top of it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/options.h"
#include "engine/run-env.h"
#include "base/util.h"

/* The value of name in env, or NULL; fails the test when it is there more
 * than once. */
static const char *
env_get(char *const *env, const char *name)
{
	size_t len = strlen(name), i;
	const char *found = NULL;

	for (i = 0; env[i] != NULL; i++) {
		if (strncmp(env[i], name, len) == 0 && env[i][len] == '=') {
			CHECK(found == NULL);
			found = env[i] + len + 1;
		}
	}
	return found;
}

TEST(run_env_block_replaces_by_name_and_keeps_the_zone)
{
	struct options o;
	struct run_env *e, *c;
	char *add[] = {"TMPDIR=/out/tmp/7", "FLAKESWEEP_RUN=7", "FS_TEST_DRIVER=run", NULL};
	char **env, **cenv;

	options_init(&o);
	free(o.tz);
	free(o.locale);
	o.tz = xstrdup("UTC");
	o.locale = xstrdup("C.UTF-8");
	setenv("TMPDIR", "/inherited", 1);
	setenv("TZ", "Europe/Paris", 1);
	setenv("FLAKESWEEP_CANARY_FAULT", "slow", 1);
	setenv("FS_TEST_DRIVER", "inherited", 1);
	setenv("FS_TEST_KEPT", "kept", 1);
	e = run_env_new(&o, false);
	c = run_env_new(&o, true);
	/* Built once: what flakesweep's environment becomes later is not
	 * seen. */
	setenv("FS_TEST_LATER", "later", 1);
	env = run_env_block(e, add, 3);
	CHECK_STR(env_get(env, "TMPDIR"), "/out/tmp/7");
	CHECK_STR(env_get(env, "FLAKESWEEP_RUN"), "7");
	CHECK_STR(env_get(env, "FS_TEST_DRIVER"), "run");
	CHECK_STR(env_get(env, "FS_TEST_KEPT"), "kept");
	CHECK_STR(env_get(env, "TZ"), "UTC");
	CHECK_STR(env_get(env, "LC_ALL"), "C.UTF-8");
	CHECK(env_get(env, "FLAKESWEEP_CANARY_FAULT") == NULL);
	CHECK(env_get(env, "FS_TEST_LATER") == NULL);
	/* The run's entries come last, in order. */
	{
		size_t n = 0;

		while (env[n] != NULL)
			n++;
		CHECK(n >= 3);
		CHECK_STR(env[n - 3], "TMPDIR=/out/tmp/7");
		CHECK_STR(env[n - 1], "FS_TEST_DRIVER=run");
	}
	/* A canary keeps the tests' fault list. */
	cenv = run_env_block(c, add, 1);
	CHECK_STR(env_get(cenv, "FLAKESWEEP_CANARY_FAULT"), "slow");
	CHECK_STR(env_get(cenv, "FS_TEST_DRIVER"), "inherited");
	free(env);
	free(cenv);
	run_env_free(e);
	run_env_free(c);
	options_free(&o);
	unsetenv("TMPDIR");
	unsetenv("TZ");
	unsetenv("FLAKESWEEP_CANARY_FAULT");
	unsetenv("FS_TEST_DRIVER");
	unsetenv("FS_TEST_KEPT");
	unsetenv("FS_TEST_LATER");
}
