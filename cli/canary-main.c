/* SPDX-License-Identifier: MIT */
/*
 * canary-main.c: flakesweep-canary, the canary runs' program: the
 * subcommand `flakesweep canary` alone, linked with nothing but the C
 * library, so that a canary run starts in a fraction of a millisecond
 * where flakesweep, with its libraries and their constructors, takes
 * several. It is started as "flakesweep-canary canary KIND ...", the
 * arguments of the subcommand.
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "base/gettext.h"
#include "base/util.h"

int
main(int argc, char **argv)
{
	const char *localedir = getenv("FLAKESWEEP_LOCALEDIR");

	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, localedir != NULL ? localedir : LOCALEDIR);
	textdomain(PACKAGE);
	if (argc < 2 || strcmp(argv[1], "canary") != 0) {
		fputs(_("flakesweep: usage: flakesweep canary green|red|cores --cpu C --load L "
		        "--cores LIST [--shim]\n"),
		      stderr);
		return 2;
	}
	return cmd_canary_entry.run(argc - 1, argv + 1);
}
