/* SPDX-License-Identifier: MIT */
/*
 * cmd.h: the subcommands, one file each (cmd-NAME.c), and the table
 * main.c picks them from. Each takes argv with argv[0] the subcommand's
 * name and returns the exit status: 0, 1, 2 or 130 (man 1 flakesweep).
 */
#ifndef FLAKESWEEP_CLI_CMD_H
#define FLAKESWEEP_CLI_CMD_H

#include <stdio.h>

#include "engine/options.h"

struct cmd_entry {
	const char *name;
	int (*run)(int argc, char **argv);
};

/* Every subcommand, stress first: it also runs when none is named. */
extern const struct cmd_entry *const cmd_table[];

extern const struct cmd_entry cmd_stress_entry;
extern const struct cmd_entry cmd_view_entry;
extern const struct cmd_entry cmd_report_entry;
extern const struct cmd_entry cmd_quarantine_entry;
extern const struct cmd_entry cmd_gate_entry;
extern const struct cmd_entry cmd_compare_entry;
extern const struct cmd_entry cmd_verify_entry;
extern const struct cmd_entry cmd_bisect_entry;
extern const struct cmd_entry cmd_merge_entry;
extern const struct cmd_entry cmd_junit_entry;
extern const struct cmd_entry cmd_plan_entry;
/* Hidden from the usage text: the program a sweep runs as its canaries. */
extern const struct cmd_entry cmd_canary_entry;

/* The stress command line into o (options_init'ed by the caller).
 * Returns 0; 1 when --help was asked for (usage printed to stdout); or -1
 * after printing a one-line error naming the option to stderr (exit 2). */
int cmd_stress_parse(struct options *o, int argc, char **argv);

/* A command that takes a sweep's options besides its own (verify,
 * bisect): its own options, among which an unknown one's nearest is looked
 * for too, its name, which the error's "see" names, and its usage, which
 * --help prints. */
struct cmd_stress_host {
	const struct cli_option *options;
	const char *name;
	void (*usage)(FILE *f);
};

/* cmd_stress_parse for host's command line (the rest of it, once host's
 * own options are taken out). */
int cmd_stress_parse_for(struct options *o, int argc, char **argv,
                         const struct cmd_stress_host *host);

/* cmd_stress_parse_for for a command whose own options (own, with
 * own->set returning 0, or the status to leave with) may stand anywhere
 * in argv: takes them out (cli_take), then parses the rest as a sweep's
 * into o. Returns 0 to go on, 1 when --help was printed (leave with 0),
 * or 2 after printing an error. */
struct cli;
int cmd_stress_parse_after(struct cli *own, struct options *o, int argc, char **argv,
                           const struct cmd_stress_host *host);

/* `report --rebuild DIR`: results.json and report.txt again from the
 * journal; returns the exit status the sweep would have had. */
int cmd_report_rebuild(const char *dir, unsigned flags);

#endif
