/* SPDX-License-Identifier: MIT */
/* The command line: the stress options in both spellings, the TAP command
 * after "--" and the errors that exit 2. */
#include "config.h"

#include <stdlib.h>

#include "check.h"
#include "cli.h"
#include "cmd.h"
#include "engine/options.h"
#include "base/util.h"

TEST(cli_stress_go_and_gnu_spellings)
{
	struct options o;
	char *argv[] = {"stress", "-cpu", "1,2",       "--load=2", "-count=7",  "--timeout", "90s",
	                "-o",     "out",  "--shuffle", "sync",     "./pkg/...", NULL};
	char *go_o[] = {"stress", "-o=out2", "--ui=line", NULL};

	options_init(&o);
	CHECK_INT(cmd_stress_parse(&o, 12, argv), 0);
	CHECK_INT(o.ncpus, 2);
	CHECK_INT(o.cpus[1], 2);
	CHECK_INT(o.nloads, 1);
	CHECK_INT(o.loads[0], 2);
	CHECK_INT(o.count, 7);
	CHECK_INT(o.timeout_ms, 90000);
	CHECK_STR(o.outdir, "out");
	CHECK(o.shuffle);
	CHECK_INT(o.npackages, 2);
	CHECK_STR(o.packages[1], "./pkg/...");
	options_free(&o);
	options_init(&o);
	CHECK_INT(cmd_stress_parse(&o, 3, go_o), 0);
	CHECK_STR(o.outdir, "out2");
	CHECK_INT(o.ui, OPTIONS_UI_LINE);
	CHECK_INT(o.npackages, 0);
	options_free(&o);
}

TEST(cli_stress_tap_command_after_dashes)
{
	struct options o;
	char *argv[] = {"stress", "--driver", "tap", "--count", "3",
	                "--",     "prove",    "-v",  "t/x.t",   NULL};

	options_init(&o);
	CHECK_INT(cmd_stress_parse(&o, 9, argv), 0);
	CHECK_STR(o.driver, "tap");
	CHECK_INT(o.ncommand, 3);
	CHECK_STR(o.command[1], "-v");
	CHECK(o.command[3] == NULL);
	CHECK_INT(o.npackages, 0);
	options_free(&o);
}

TEST(cli_stress_errors)
{
	struct options o;
	char *bad_cpu[] = {"stress", "--cpu", "1,0", NULL};
	char *unknown[] = {"stress", "--frobnicate", NULL};
	char *missing[] = {"stress", "--count", NULL};
	char *tap[] = {"stress", "--driver", "tap", NULL};

	options_init(&o);
	CHECK_INT(cmd_stress_parse(&o, 3, bad_cpu), -1);
	options_free(&o);
	options_init(&o);
	CHECK_INT(cmd_stress_parse(&o, 2, unknown), -1);
	options_free(&o);
	options_init(&o);
	CHECK_INT(cmd_stress_parse(&o, 2, missing), -1);
	options_free(&o);
	options_init(&o);
	CHECK_INT(cmd_stress_parse(&o, 3, tap), -1);
	options_free(&o);
}

static int
cli_test_set(void *arg, int id, const char *value)
{
	(void)arg, (void)id, (void)value;
	return 0;
}

static int
cli_test_count(void *arg, int id, const char *value)
{
	(void)id, (void)value;
	(*(int *)arg)++;
	return 0;
}

/* An unknown option one or two slips away from a known one names it; one
 * further away, or too short to judge, names none. */
TEST(cli_unknown_option_names_the_nearest)
{
	static const struct cli_option opts[] = {{"count", true, 1},
	                                         {"confirm", true, 2},
	                                         {"timeout", true, 3},
	                                         {"o", true, 4},
	                                         {NULL, false, 0}};
	struct cli c = {opts, cli_test_set, NULL, 0, 0, NULL, NULL};
	char *swapped[] = {"x", "--cuont", "2", NULL};
	char *dropped[] = {"x", "--timout=3s", NULL};
	char *far[] = {"x", "--frobnicate", NULL};
	char *shortone[] = {"x", "-q", NULL};

	CHECK_INT(cli_parse(&c, 3, swapped), CLI_UNKNOWN);
	CHECK_STR(c.near, "count");
	CHECK_INT(cli_parse(&c, 2, dropped), CLI_UNKNOWN);
	CHECK_STR(c.near, "timeout");
	CHECK_INT(cli_parse(&c, 2, far), CLI_UNKNOWN);
	CHECK(c.near == NULL);
	CHECK_INT(cli_parse(&c, 2, shortone), CLI_UNKNOWN);
	CHECK(c.near == NULL);
}

/* verify and bisect take their own options, then a sweep's: an unknown
 * option is compared with both tables, and verify's usage answers --help. */
TEST(cli_verify_unknown_option_names_its_own)
{
	static const struct cli_option own[] = {
	    {"budget", true, 1}, {"test", true, 2}, {NULL, false, 0}};
	static const struct cli_option sweep[] = {
	    {"count", true, 3}, {"confirm", true, 4}, {NULL, false, 0}};
	struct options o;
	char *bad[] = {"verify", "--bugdet", "3", NULL};

	CHECK_STR(cli_nearest_of(sweep, own, "--bugdet"), "budget");
	/* A prefix of several names them all. */
	CHECK_STR(cli_nearest_of(sweep, own, "--bu"), "budget");
	CHECK_STR(cli_nearest_of(sweep, own, "--co"), "count, --confirm");
	CHECK(cli_nearest_of(sweep, own, "--c") == NULL);
	CHECK_STR(cli_nearest_of(sweep, own, "--cuont=2"), "count");
	CHECK(cli_nearest_of(sweep, NULL, "--bugdet") == NULL);
	options_init(&o);
	CHECK_INT(cmd_stress_parse(&o, 3, bad), -1);
	options_free(&o);
}

/* A prefix of an option is no option: "--for 100s" is not --force and a
 * package, and "--conf 5" is not --confirm. Each is an unknown option
 * that names the one it may mean; nothing was set. */
TEST(cli_prefix_is_unknown)
{
	static const struct cli_option opts[] = {
	    {"confirm", true, 1}, {"force", false, 2}, {"o", true, 3}, {NULL, false, 0}};
	int seen = 0;
	struct cli c = {opts, cli_test_count, &seen, 0, 0, NULL, NULL};
	char *flag[] = {"x", "--confirm", "5", "--for", "100s", NULL};
	char *valued[] = {"x", "--conf", "5", NULL};
	char *whole[] = {"x", "-force", "--confirm", "--for", "-o", "d", "-o=e", "pkg", NULL};

	CHECK_INT(cli_parse(&c, 5, flag), CLI_UNKNOWN);
	CHECK_STR(c.bad, "--for");
	CHECK_STR(c.near, "force");
	CHECK_INT(seen, 0);
	CHECK_INT(cli_parse(&c, 3, valued), CLI_UNKNOWN);
	CHECK_STR(c.bad, "--conf");
	CHECK_STR(c.near, "confirm");
	/* A value that looks like an option is the value. */
	CHECK_INT(cli_parse(&c, 8, whole), CLI_OK);
	CHECK_INT(seen, 4);
	CHECK_STR(whole[c.first], "pkg");
}
