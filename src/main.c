/* SPDX-License-Identifier: MIT */
/*
 * main.c: the composition root. It sets up the locale, picks the
 * subcommand, parses its options and hands over to the module that runs
 * it. Nothing else in flakesweep is global.
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "util.h"

struct main_command {
	const char *name;
	int (*run)(int argc, char **argv);
};

static int
main_stress(int argc, char **argv)
{
	struct options o;
	int rc;

	options_init(&o);
	rc = options_parse(&o, argc, argv);
	if (rc != 0) {
		options_free(&o);
		return rc > 0 ? 0 : 2;
	}
	fprintf(stderr, "%s\n", _("flakesweep: the sweep engine is not built yet"));
	options_free(&o);
	return 2;
}

static const struct main_command main_commands[] = {
    {"stress", main_stress},
};

int
main(int argc, char **argv)
{
	size_t i;

	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);

	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-version") == 0)) {
		printf("flakesweep %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (argc >= 2 && argv[1][0] != '-') {
		for (i = 0; i < UTIL_ARRAY_LEN(main_commands); i++) {
			if (strcmp(argv[1], main_commands[i].name) == 0)
				return main_commands[i].run(argc - 1, argv + 1);
		}
	}
	return main_stress(argc, argv);
}
