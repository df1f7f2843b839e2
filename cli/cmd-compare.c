/* SPDX-License-Identifier: MIT */
/*
 * cmd-compare.c: `flakesweep compare BEFORE AFTER [--test ID]... [--json]
 * [--level RATE] [--margin SHARE] [--alpha A] [--ui full|line]`. It loads both results,
 * refuses those of two projects (identity.h), lets compare.c judge every
 * test and prints the verdicts as text or JSON; with --ui full it first
 * shows them on the board (ui/board.h).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "board.h"
#include "cli.h"
#include "cmd.h"
#include "rates.h"
#include "base/jsonw.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "results/compare-bandaids.h"
#include "results/compare.h"
#include "results/identity.h"
#include "results/results.h"
#include "ui.h"

enum {
	CMD_COMPARE_TEST,
	CMD_COMPARE_JSON,
	CMD_COMPARE_UI,
};

static const struct cli_option cmd_compare_options[] = {
    {"test", true, CMD_COMPARE_TEST},
    {"json", false, CMD_COMPARE_JSON},
    {"ui", true, CMD_COMPARE_UI},
    RATES_OPTIONS,
    {NULL, false, 0},
};

struct cmd_compare_args {
	struct compare_options co;
	char **ids;
	size_t nids;
	bool json;
	bool board; /* --ui full */
};

static void
cmd_compare_usage(FILE *f)
{
	fputs(_("Usage: flakesweep compare BEFORE AFTER [--test ID]... [--json]\n"
	        "                          [--level RATE] [--margin SHARE] [--alpha A]\n"
	        "                          [--ui full|line]\n"
	        "\n"
	        "Compares the failure rates of every test in two results (results.json\n"
	        "files or output directories) pair by pair with Fisher's exact test and\n"
	        "a Benjamini-Hochberg control across all pairs, and gives each test one\n"
	        "verdict: fixed, rarer, unchanged, worse, new or inconclusive (with the\n"
	        "passing runs that would settle it).\n"
	        "\n"
	        "Options:\n"
	        "  --test ID          the tests whose fix is checked (repeatable)\n"
	        "  --json             print the comparison as JSON\n"
	        "  --level RATE       fixed means after's upper bound is below RATE\n"
	        "                     (default a tenth of before's lower bound)\n"
	        "  --margin SHARE     unchanged means within SHARE of before's rate (0.2)\n"
	        "  --alpha A          false discovery rate across all pairs (0.05)\n"
	        "  --ui full|line     full: browse the tests and their heatmaps before and\n"
	        "                     after on the terminal; line: print them (default)\n"
	        "\n"
	        "Exit status: 0 every test named by --test is fixed (without --test:\n"
	        "nothing is worse or new); 1 otherwise; 2 usage or input error, or\n"
	        "AFTER ran none of BEFORE's tests, or they are of different projects.\n"),
	      f);
}

static int
cmd_compare_set(void *arg, int id, const char *value)
{
	struct cmd_compare_args *a = arg;
	int rc;

	switch (id) {
	case CMD_COMPARE_TEST:
		util_strv_add(&a->ids, &a->nids, value);
		return 0;
	case CMD_COMPARE_JSON:
		a->json = true;
		return 0;
	case CMD_COMPARE_UI:
		if (strcmp(value, "full") != 0 && strcmp(value, "line") != 0) {
			sanitize_fprintf(stderr, _("flakesweep: --ui %s: expected full or line\n"),
			                 value);
			return 2;
		}
		a->board = strcmp(value, "full") == 0;
		return 0;
	}
	rc = rates_set(&a->co, id, value);
	return rc < 0 ? 2 : 0;
}

/* The board until the user quits (0) or a signal comes (130); -1 when the
 * terminal cannot have it, after saying why. */
static int
cmd_compare_board(const struct compare *cmp, const struct results *before,
                  const struct results *after, const char *bname, const char *aname)
{
	struct board_config bc;
	struct board *board;
	const char *why;
	char *err = NULL;
	int rc;

	if (!ui_usable(STDOUT_FILENO, &why)) {
		fprintf(stderr, _("flakesweep: no dashboard (%s); printing text\n"), why);
		return -1;
	}
	board_config_init(&bc);
	board = board_new_compare(&bc, cmp, before, after, bname, aname, &err);
	if (board == NULL) {
		fprintf(stderr, _("flakesweep: no dashboard (%s); printing text\n"), err);
		free(err);
		return -1;
	}
	rc = board_run(board);
	board_free(board);
	return rc;
}

static int
cmd_compare(int argc, char **argv)
{
	struct cmd_compare_args a = {0};
	struct cli c = {cmd_compare_options, cmd_compare_set, &a, 0, 0, NULL, NULL};
	struct results *before = NULL, *after = NULL;
	struct compare *cmp = NULL;
	struct identity_diff d;
	cJSON *pb = NULL, *pa = NULL;
	char *text, *err = NULL;
	size_t nbefore;
	int rc = 2;

	compare_options_default(&a.co);
	switch (cli_parse(&c, argc, argv)) {
	case CLI_OK:
		break;
	case CLI_HELP:
		cmd_compare_usage(stdout);
		rc = 0;
		goto out;
	case CLI_NO_VALUE:
		sanitize_fprintf(stderr, _("flakesweep: option %s needs a value\n"), c.bad);
		goto usage;
	case CLI_UNKNOWN:
		cli_unknown(&c, NULL);
		goto usage;
	case CLI_STOP:
		goto out;
	}
	if (argc - c.first != 2) {
		fputs(
		    _("flakesweep: usage: flakesweep compare BEFORE AFTER [--test ID]... [--json]\n"),
		    stderr);
		goto usage;
	}
	before = rates_load_project(argv[c.first], &pb);
	after = before != NULL ? rates_load_project(argv[c.first + 1], &pa) : NULL;
	if (after == NULL)
		goto out;
	if (!identity_same(pb, pa, &d)) {
		text = identity_diff_text(&d);
		sanitize_fprintf(stderr, _("flakesweep: %s and %s are of different projects: %s\n"),
		                 argv[c.first], argv[c.first + 1], text);
		free(text);
		goto out;
	}
	cmp = compare_new(before, after, &a.co);
	if (compare_bandaids(cmp, pb, pa, NULL, &err) < 0) {
		sanitize_fprintf(stderr, _("flakesweep: no band-aids looked for: %s\n"), err);
		free(err);
	}
	if (a.board && !a.json &&
	    cmd_compare_board(cmp, before, after, argv[c.first], argv[c.first + 1]) == 130) {
		rc = 130;
		goto out;
	}
	if (a.json) {
		cJSON *j = compare_to_json(cmp, argv[c.first], argv[c.first + 1]);

		text = jsonw_print(j, true);
		printf("%s\n", text);
		cJSON_Delete(j);
	} else {
		text = compare_to_text(cmp, a.ids, a.nids);
		fputs(text, stdout);
	}
	free(text);
	rc = compare_exit_status(cmp, a.ids, a.nids);
	if (compare_ran_after(cmp, &nbefore) == 0 && nbefore > 0)
		sanitize_fprintf(stderr, _("flakesweep: %s ran none of the %zu tests of %s\n"),
		                 argv[c.first + 1], nbefore, argv[c.first]);
	goto out;
usage:
	fputs(_("Try 'flakesweep compare --help'.\n"), stderr);
out:
	compare_free(cmp);
	results_free(before);
	results_free(after);
	cJSON_Delete(pb);
	cJSON_Delete(pa);
	util_strv_free(a.ids);
	return rc;
}

const struct cmd_entry cmd_compare_entry = {"compare", cmd_compare};
