/* SPDX-License-Identifier: MIT */
/*
 * cmd-junit.c: `flakesweep junit DIR [-o FILE]`: the results of an output
 * directory as JUnit XML (junit.h), for CI servers and test dashboards.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "results/junit.h"

enum {
	CMD_JUNIT_OUT,
};

static const struct cli_option cmd_junit_options[] = {
    {"o", true, CMD_JUNIT_OUT},
    {NULL, false, 0},
};

static void
cmd_junit_usage(FILE *f)
{
	fputs(_("Usage: flakesweep junit DIR [-o FILE]\n"
	        "\n"
	        "Writes the results of DIR, the output directory of a sweep, confirm,\n"
	        "merge or verify, as JUnit XML (Maven Surefire's dialect, with\n"
	        "flakyFailure for each failed run of a flaky test) to FILE, or to\n"
	        "standard output without -o.\n"
	        "\n"
	        "Exit status: 0 written; 2 usage or input error.\n"),
	      f);
}

static int
cmd_junit(int argc, char **argv)
{
	const char *out = "-";
	struct cli c = {.options = cmd_junit_options, .set = cli_set_string, .arg = &out};
	char *err = NULL;
	int rc;

	rc = cli_parse_plain(&c, argc, argv, cmd_junit_usage);
	if (rc != 0)
		return rc > 0 ? 0 : 2;
	if (argc - c.first != 1 || out[0] == '\0') {
		fputs(_("flakesweep: usage: flakesweep junit DIR [-o FILE]\n"), stderr);
		return 2;
	}
	if (junit_write(argv[c.first], out, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		return 2;
	}
	return 0;
}

const struct cmd_entry cmd_junit_entry = {"junit", cmd_junit};
