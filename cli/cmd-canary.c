/* SPDX-License-Identifier: MIT */
/*
 * cmd-canary.c: `flakesweep canary green|red|cores --cpu C --load L
 * --cores LIST [--shim]`, the hidden subcommand a sweep runs as its
 * canaries (man 1 flakesweep, CANARIES). It is not in the usage text:
 * people have no reason to run it. It parses argv and hands the work to
 * engine/canary.c.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd.h"
#include "base/gettext.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "engine/canary.h"

#define CMD_CANARY_CORES_MAX 1024

enum {
	CMD_CANARY_CPU,
	CMD_CANARY_LOAD,
	CMD_CANARY_CORES,
	CMD_CANARY_SHIM,
};

static const struct cli_option cmd_canary_options[] = {
    {"cpu", true, CMD_CANARY_CPU},
    {"load", true, CMD_CANARY_LOAD},
    {"cores", true, CMD_CANARY_CORES},
    {"shim", false, CMD_CANARY_SHIM},
    {NULL, false, 0},
};

struct cmd_canary_args {
	struct canary_args a;
	int cores[CMD_CANARY_CORES_MAX];
};

/* A whole number from 0 to max, or -1. */
static int
cmd_canary_number(const char *s, int max)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end != s && *end == '\0' && v >= 0 && v <= max ? (int)v : -1;
}

static int
cmd_canary_set(void *arg, int id, const char *value)
{
	struct cmd_canary_args *c = arg;
	char *copy, *save = NULL, *w;
	int bad = 0;

	switch (id) {
	case CMD_CANARY_CPU:
		c->a.cpu = cmd_canary_number(value, CMD_CANARY_CORES_MAX);
		return c->a.cpu > 0 ? 0 : 2;
	case CMD_CANARY_LOAD:
		c->a.load = cmd_canary_number(value, 1000);
		return c->a.load > 0 ? 0 : 2;
	case CMD_CANARY_CORES:
		copy = xstrdup(value);
		c->a.ncores = 0;
		for (w = strtok_r(copy, ",", &save); w != NULL && !bad;
		     w = strtok_r(NULL, ",", &save)) {
			int core = cmd_canary_number(w, CPU_SETSIZE - 1);

			bad = core < 0 || c->a.ncores == CMD_CANARY_CORES_MAX;
			if (!bad)
				c->cores[c->a.ncores++] = core;
		}
		free(copy);
		return bad ? 2 : 0;
	case CMD_CANARY_SHIM:
		c->a.shim = true;
		return 0;
	}
	return 2;
}

static int
cmd_canary(int argc, char **argv)
{
	struct cmd_canary_args *c = xcalloc(1, sizeof *c);
	struct cli p = {cmd_canary_options, cmd_canary_set, c, 0, 0, NULL, NULL};
	int kind, rc = 2;

	c->a.cpu = c->a.load = 1;
	c->a.cores = c->cores;
	if (cli_parse(&p, argc, argv) != CLI_OK || argc - p.first != 1 ||
	    (kind = canary_kind_find(argv[p.first])) < 0) {
		fputs(_("flakesweep: usage: flakesweep canary green|red|cores --cpu C --load L "
		        "--cores LIST [--shim]\n"),
		      stderr);
		goto out;
	}
	c->a.kind = (enum canary_kind)kind;
	c->a.fault = getenv("FLAKESWEEP_CANARY_FAULT");
	rc = canary_run(&c->a, stdout);
out:
	free(c);
	return rc;
}

const struct cmd_entry cmd_canary_entry = {"canary", cmd_canary};
