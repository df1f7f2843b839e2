/* SPDX-License-Identifier: MIT */
/*
 * main.c: the program. It sets up the locale and the message catalogue,
 * picks the subcommand from cmd_table (stress when none is named) and
 * returns its exit status: 0, 1, 2 or 130. Nothing else is global.
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "base/util.h"

const struct cmd_entry *const cmd_table[] = {
    &cmd_stress_entry,
    &cmd_quarantine_entry,
    &cmd_gate_entry,
    &cmd_report_entry,
    &cmd_view_entry,
    &cmd_compare_entry,
    &cmd_verify_entry,
    &cmd_bisect_entry,
    &cmd_merge_entry,
    &cmd_junit_entry,
    &cmd_plan_entry,
    &cmd_canary_entry,
    NULL,
};

int
main(int argc, char **argv)
{
	const char *localedir = getenv("FLAKESWEEP_LOCALEDIR");
	size_t i;

	setlocale(LC_ALL, "");
	/* An uninstalled build finds its catalogues through FLAKESWEEP_LOCALEDIR. */
	bindtextdomain(PACKAGE, localedir != NULL ? localedir : LOCALEDIR);
	textdomain(PACKAGE);

	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-version") == 0)) {
		printf("flakesweep %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (argc >= 2 && argv[1][0] != '-') {
		for (i = 0; cmd_table[i] != NULL; i++) {
			if (strcmp(argv[1], cmd_table[i]->name) == 0)
				return cmd_table[i]->run(argc - 1, argv + 1);
		}
	}
	return cmd_stress_entry.run(argc, argv);
}
