/* SPDX-License-Identifier: MIT */
/*
 * cmd-bisect.c: `flakesweep bisect --good REV --bad REV --test ID [-o DIR]
 * [--results FILE] [--budget N] [sweep options]`. bisect.c searches the
 * range, a worktree and a sequential test per probed commit; this file
 * picks the pair and the rates and prints what each probe found, or with
 * --ui full shows it on the board (ui/board.h) as the probes finish.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "cmd.h"
#include "rates.h"
#include "ui.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "engine/bisect.h"
#include "engine/options.h"
#include "results/results.h"
#include "results/verify.h"

static void
cmd_bisect_where(const struct bisect *b)
{
	sanitize_fprintf(stderr, _("flakesweep: bisect journals in %s\n"), b->outdir);
}

static void
cmd_bisect_listed(void *arg, const struct bisect *b)
{
	(void)arg;
	cmd_bisect_where(b);
}

static void
cmd_bisect_probed(void *arg, const struct bisect *b, size_t i)
{
	const struct bisect_commit *c = &b->commits[i];

	(void)arg;
	if (c->why != NULL)
		sanitize_fprintf(stderr, _("flakesweep: %.12s skipped: %s%s\n"), c->sha, c->why,
		                 c->resumed ? _(" (from its journal)") : "");
	else if (c->lacks_test)
		fprintf(stderr,
		        _("flakesweep: %.12s skipped: its first run did not report the test%s\n"),
		        c->sha, c->resumed ? _(" (from its journal)") : "");
	else
		fprintf(stderr, _("flakesweep: %.12s %s after %lld runs, %lld failed%s\n"), c->sha,
		        bisect_state_name(c->state), (long long)c->runs, (long long)c->failures,
		        c->resumed ? _(" (from its journal)") : "");
}

static void
cmd_bisect_warning(void *arg, const char *msg)
{
	(void)arg;
	sanitize_fprintf(stderr, _("flakesweep: warning: %s\n"), msg);
}

/* The board's observer, with the warnings held until the board is
 * closed: none is lost, and none is written over curses. */
struct cmd_bisect_held {
	struct bisect_observer board;
	struct buf warnings;
};

static void
cmd_bisect_held_listed(void *arg, const struct bisect *b)
{
	struct cmd_bisect_held *h = arg;

	h->board.listed(h->board.arg, b);
}

static void
cmd_bisect_held_probing(void *arg, const struct bisect *b, size_t i)
{
	struct cmd_bisect_held *h = arg;

	h->board.probing(h->board.arg, b, i);
}

static void
cmd_bisect_held_probed(void *arg, const struct bisect *b, size_t i)
{
	struct cmd_bisect_held *h = arg;

	h->board.probed(h->board.arg, b, i);
}

static void
cmd_bisect_held_warning(void *arg, const char *msg)
{
	struct cmd_bisect_held *h = arg;

	buf_printf(&h->warnings, _("flakesweep: warning: %s\n"), msg);
}

/* The board on the terminal, or NULL after saying why not. */
static struct board *
cmd_bisect_board(const char *test)
{
	struct board_config bc;
	struct board *board;
	char *err = NULL;

	board_config_init(&bc);
	board = board_new_bisect(&bc, test, &err);
	if (board == NULL) {
		fprintf(stderr, _("flakesweep: no dashboard (%s); printing text\n"), err);
		free(err);
	}
	return board;
}

static void
cmd_bisect_usage(FILE *f)
{
	fputs(
	    _("Usage: flakesweep bisect --good REV --bad REV --test ID [-o DIR] "
	      "[--results FILE] [--budget N] [sweep options]\n"
	      "Finds the commit that made the test flaky, probing the commits between GOOD and\n"
	      "BAD. It takes a sweep's options too (flakesweep --help); see flakesweep(1), bisect.\n"),
	    f);
}

static int
cmd_bisect(int argc, char **argv)
{
	struct rates_seq a;
	struct options o;
	struct results *before = NULL;
	struct bisect_config cfg = {0};
	struct bisect b = {0};
	struct bisect_observer obs = {NULL, cmd_bisect_listed, NULL, cmd_bisect_probed,
	                              cmd_bisect_warning};
	struct cmd_bisect_held held = {{0}, {NULL, 0, 0}};
	struct board *board = NULL;
	struct verify_plan vp = {0};
	char *err = NULL, *text, *cwd = NULL, *package = NULL;
	int rc;

	rc = rates_seq_parse(&a, &o, argc, argv, "bisect", cmd_bisect_usage);
	if (rc != 0) {
		rc = rc == 1 ? 0 : 2;
		goto out;
	}
	rc = 2;
	if (a.test == NULL || a.good == NULL || a.bad == NULL) {
		fprintf(
		    stderr, "%s\n",
		    _("flakesweep: usage: flakesweep bisect --good REV --bad REV --test ID [-o DIR] "
		      "[--results FILE] [--budget N] [sweep options]"));
		goto out;
	}
	cfg.cpu = cfg.load = 1;
	cfg.p0 = 0.1;
	cfg.p1 = a.co.level > 0 ? a.co.level : cfg.p0 / 10;
	cfg.test = strstr(a.test, "::") != NULL ? strstr(a.test, "::") + 2 : a.test;
	package = cfg.test != a.test ? xstrndup(a.test, (size_t)(cfg.test - 2 - a.test)) : NULL;
	cfg.package = package;
	if (a.results != NULL) {
		before = rates_load(a.results);
		if (before == NULL)
			goto out;
		if (verify_plan(before, a.test, &a.co, &vp, &err) < 0) {
			sanitize_fprintf(stderr, "flakesweep: %s: %s\n", a.results, err);
			goto out;
		}
		/* The worst pair is where the flake shows first. */
		rates_seq_package(&o, vp.package);
		cfg.cpu = vp.pairs[0].cpu;
		cfg.load = vp.pairs[0].load;
		cfg.p0 = vp.pairs[0].p0;
		cfg.p1 = vp.pairs[0].p1;
		cfg.test = vp.test->test;
		cfg.package = vp.package;
	}
	cwd = getcwd(NULL, 0);
	cfg.repo = cwd != NULL ? cwd : ".";
	cfg.id = a.test;
	cfg.good = a.good;
	cfg.bad = a.bad;
	cfg.outdir = o.outdir;
	cfg.budget = a.budget;
	cfg.sweep = &o;
	o.outdir = NULL;
	if (o.ui == OPTIONS_UI_FULL) {
		/* The board, as stress's --ui full: text when the terminal cannot
		 * have it. */
		const char *why;

		if (!ui_usable(STDOUT_FILENO, &why))
			fprintf(stderr, _("flakesweep: no dashboard (%s); printing text\n"), why);
		else if ((board = cmd_bisect_board(a.test)) != NULL) {
			struct bisect_observer on_board = {
			    &held, cmd_bisect_held_listed, cmd_bisect_held_probing,
			    cmd_bisect_held_probed, cmd_bisect_held_warning};

			held.board = *board_bisect_observer(board);
			obs = on_board;
		}
	}
	rc = bisect_run(&cfg, &b, &obs, &err);
	if (board != NULL) {
		if (rc == 0) {
			board_bisect_finished(board);
			if (board_run(board) == 130) {
				err = xstrdup(_("interrupted"));
				rc = -EINTR;
			}
		}
		board_free(board);
		if (held.warnings.len > 0)
			sanitize_write(stderr, held.warnings.data, held.warnings.len);
		if (b.outdir != NULL)
			cmd_bisect_where(&b);
	}
	if (rc < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		rc = rc == -EINTR ? 130 : 2;
		goto out;
	}
	text = bisect_to_text(&b);
	sanitize_write(stdout, text, strlen(text));
	free(text);
	rc = bisect_first_bad(&b) != NULL ? 0 : 1;
out:
	buf_free(&held.warnings);
	free(err);
	free(cwd);
	free(package);
	free((char *)cfg.outdir);
	verify_plan_free(&vp);
	bisect_free(&b);
	results_free(before);
	options_free(&o);
	return rc;
}

const struct cmd_entry cmd_bisect_entry = {"bisect", cmd_bisect};
