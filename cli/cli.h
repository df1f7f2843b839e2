/* SPDX-License-Identifier: MIT */
/*
 * cli.h: the one option parser of every subcommand. Each command lists
 * its options in a table; the parser accepts Go's single-dash spelling
 * (-cpu 1,2, -cpu=1,2) and GNU's (--cpu 1,2, --cpu=1,2), -o DIR and
 * -o=DIR, and stops at "--". It never prints: the caller words each error
 * its own way. Only cli/ uses it; the core never sees argv.
 */
#ifndef FLAKESWEEP_CLI_H
#define FLAKESWEEP_CLI_H

#include <stdbool.h>
#include <stdio.h>

/* One option of a command's table, which ends with a NULL name. */
struct cli_option {
	const char *name; /* the long name, without dashes; "o" is also -o */
	bool value;       /* takes a value */
	int id;           /* handed to the command's setter */
};

/* What cli_parse saw: the setter said stop, --help, an unknown option or
 * a missing value (cli.bad names it), or all went well. */
enum cli_status {
	CLI_OK,
	CLI_HELP,
	CLI_STOP,
	CLI_UNKNOWN,
	CLI_NO_VALUE,
};

/* The option every table has: --help. */
#define CLI_HELP_ID (-1)

struct cli {
	const struct cli_option *options;
	/* Called for each option in order with its id and value (NULL for a
	 * flag). Returns 0 to go on, or anything else to stop: cli_parse then
	 * returns CLI_STOP and leaves that number in stop. */
	int (*set)(void *arg, int id, const char *value);
	void *arg;
	/* Filled by cli_parse. */
	int first; /* argv index of the first operand, after the options */
	int stop;  /* what set returned */
	const char *bad;
	const char *near; /* with CLI_UNKNOWN: the option bad may be a slip for, or NULL */
};

/* "unknown option --cuont (did you mean --count? see flakesweep --help)"
 * to stderr, for c after CLI_UNKNOWN; see names the help to read. */
void cli_unknown(const struct cli *c, const char *see);

/* Parses argv[1..argc) against c->options. Operands may come before,
 * between and after options (they are moved behind them in argv); argv[0]
 * is the program or subcommand name. */
enum cli_status cli_parse(struct cli *c, int argc, char **argv);

/* A setter for a table whose options all take a value and store it in
 * the one string arg points at (const char *). */
int cli_set_string(void *arg, int id, const char *value);

/* cli_parse for such a command: for --help, prints usage to stdout and
 * returns 1; for an unknown option or a missing value, prints why to
 * stderr and returns -1; else returns 0. */
int cli_parse_plain(struct cli *c, int argc, char **argv, void (*usage)(FILE *f));

/* Takes the options of c->options out of argv wherever they stand, in the
 * same spellings as cli_parse but without abbreviations, calling c->set
 * for each; every other word (operands, options of another table) stays,
 * in order and with argv[0] first, in *rest for a second parser, and so
 * does everything from "--" on. *rest is NULL-terminated; free it with
 * free() (its strings are argv's). Returns CLI_OK, CLI_NO_VALUE (c->bad
 * names the option) or CLI_STOP. */
/* The option of table a or b (NULL for none) that the unknown option bad
 * may be a slip of the fingers for, as cli_parse leaves in near, or NULL:
 * for a command that takes b's options with cli_take, then a's. */
const char *cli_nearest_of(const struct cli_option *a, const struct cli_option *b, const char *bad);

enum cli_status cli_take(struct cli *c, int argc, char **argv, char ***rest, int *nrest);

/* The repository, endpoint and category options that `report` and `view`
 * share, with their ids above every command's own. */
enum {
	CLI_REPO = 1000,
	CLI_API_URL,
	CLI_CATEGORY,
};
#define CLI_GITHUB_OPTIONS                                          \
	{"repo", true, CLI_REPO}, {"category", true, CLI_CATEGORY}, \
	{                                                           \
		"api-url", true, CLI_API_URL                        \
	}

struct cli_github {
	const char *repo;     /* --repo OWNER/NAME, or NULL for the origin remote */
	const char *api_url;  /* --api-url URL, or NULL */
	const char *category; /* --category NAME, or NULL for Bugs */
};

/* Records one of the shared options. Returns true when id was one. */
bool cli_github_set(struct cli_github *g, int id, const char *value);

/* Prints DIR/NAME to stdout. Returns 0, or a negative errno when the file
 * cannot be read (nothing printed). */
int cli_print_file(const char *dir, const char *name);

#endif
