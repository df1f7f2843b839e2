/* SPDX-License-Identifier: MIT */
/*
 * follow.c: the view subcommand (see follow.h). It follows the journal
 * (follower.h) and hands the dashboard a source that reads the latest
 * replay.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "follow.h"
#include "quarantine.h"
#include "follower.h"
#include "sanitize.h"
#include "ui.h"
#include "util.h"

struct follow {
	char *dir;
	struct follower *follower;
	struct ui *ui;
};

static void
follow_update(void *arg, struct model *m, int64_t now_ms)
{
	struct follow *f = arg;

	model_update_replay(m, follower_replay(f->follower), f->dir, now_ms);
}

static void
follow_reproduce(void *arg, struct model *m, size_t i, const char **fs, const char **direct)
{
	(void)arg;
	model_reproduce(m, NULL, i, fs, direct);
}

static void
follow_closed(void *arg)
{
	struct follow *f = arg;

	follower_stop(f->follower);
}

static void
follow_changed(void *arg, const struct replay *next)
{
	struct follow *f = arg;

	if (f->ui == NULL)
		return;
	/* The model borrows the replay's results: refresh it before the old
	 * replay goes. */
	model_update_replay(ui_model(f->ui), next, f->dir, util_now_ms());
	ui_changed(f->ui);
}

static void
follow_error(void *arg, const char *text)
{
	struct follow *f = arg;

	if (f->ui != NULL)
		ui_message(f->ui, true, "%s", text);
}

static void
follow_usage(FILE *out)
{
	fprintf(out, "%s",
	        _("usage: flakesweep view DIR [--quarantine FILE] [--repo OWNER/NAME]\n"
	          "                            [--category NAME] [--api-url URL]\n"
	          "Shows the dashboard of the sweep in DIR, finished or running elsewhere.\n"));
}

enum {
	FOLLOW_OPT_QUARANTINE = 256,
	FOLLOW_OPT_REPO,
	FOLLOW_OPT_CATEGORY,
	FOLLOW_OPT_API_URL,
	FOLLOW_OPT_HELP,
};

static const struct option follow_options[] = {
    {"quarantine", required_argument, NULL, FOLLOW_OPT_QUARANTINE},
    {"repo", required_argument, NULL, FOLLOW_OPT_REPO},
    {"category", required_argument, NULL, FOLLOW_OPT_CATEGORY},
    {"api-url", required_argument, NULL, FOLLOW_OPT_API_URL},
    {"help", no_argument, NULL, FOLLOW_OPT_HELP},
    {NULL, 0, NULL, 0},
};

/* The quarantine file of the sweep's project when it is on this machine,
 * else the default one from here. Caller frees. */
static char *
follow_quarantine_path(const struct replay *r)
{
	const char *root = r->header.project.root;
	struct stat st;

	if (root != NULL && stat(root, &st) == 0 && S_ISDIR(st.st_mode))
		return xasprintf("%s/%s", root, QUARANTINE_DEFAULT_FILE);
	return quarantine_default_path();
}

/* Without a terminal: the text report, if the sweep wrote one. */
static int
follow_print_report(const char *dir, const char *why)
{
	char *path = xasprintf("%s/report.txt", dir), *text = NULL;
	size_t len = 0;
	int rc = 0;

	fprintf(stderr, _("flakesweep: no dashboard (%s); printing %s\n"), why, path);
	if (util_read_file(path, (size_t)1 << 30, &text, &len) == 0) {
		sanitize_write(stdout, text, len);
	} else {
		fprintf(stderr, _("flakesweep: %s is not there yet\n"), path);
		rc = 2;
	}
	free(text);
	free(path);
	return rc;
}

int
follow_main(int argc, char **argv)
{
	struct follow f;
	struct follower_events ev;
	struct ui_config cfg;
	struct ui_source src;
	const char *quarantine = NULL, *why = NULL;
	char *err = NULL, *qpath = NULL;
	uv_loop_t loop;
	int c, rc = 0;

	memset(&f, 0, sizeof f);
	ui_config_init(&cfg);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long_only(argc, argv, ":", follow_options, NULL)) != -1) {
		switch (c) {
		case FOLLOW_OPT_QUARANTINE:
			quarantine = optarg;
			break;
		case FOLLOW_OPT_REPO:
			cfg.repo = optarg;
			break;
		case FOLLOW_OPT_CATEGORY:
			cfg.category = optarg;
			break;
		case FOLLOW_OPT_API_URL:
			cfg.api_url = optarg;
			break;
		case FOLLOW_OPT_HELP:
			follow_usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, _("flakesweep: option %s needs a value\n"),
			        argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr,
			        _("flakesweep: unknown option %s (see flakesweep view --help)\n"),
			        argv[optind - 1]);
			return 2;
		}
	}
	if (optind != argc - 1) {
		follow_usage(stderr);
		return 2;
	}
	f.dir = xstrdup(argv[optind]);
	uv_loop_init(&loop);
	ev.arg = &f;
	ev.changed = follow_changed;
	ev.error = follow_error;
	f.follower = follower_new(&loop, f.dir, &ev, &err);
	if (f.follower == NULL) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		uv_loop_close(&loop);
		rc = 2;
		goto out;
	}
	if (!ui_usable(1, &why)) {
		follower_stop(f.follower);
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		rc = follow_print_report(f.dir, why);
		goto out;
	}
	qpath = quarantine != NULL ? xstrdup(quarantine)
	                           : follow_quarantine_path(follower_replay(f.follower));
	cfg.mode = _("view");
	cfg.outdir = f.dir;
	cfg.quarantine = qpath;
	signal(SIGPIPE, SIG_IGN);
	f.ui = ui_new(&loop, &cfg, MODEL_VIEW, &err);
	if (f.ui == NULL) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		follower_stop(f.follower);
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		rc = 2;
		goto out;
	}
	memset(&src, 0, sizeof src);
	src.arg = &f;
	src.update = follow_update;
	src.reproduce = follow_reproduce;
	src.closed = follow_closed;
	ui_set_source(f.ui, &src);
	uv_run(&loop, UV_RUN_DEFAULT);
	ui_free(f.ui);
	uv_run(&loop, UV_RUN_DEFAULT);
	if (uv_loop_close(&loop) != 0)
		fprintf(stderr, "flakesweep: %s\n", _("handles left open at exit"));
out:
	free(err);
	free(qpath);
	follower_free(f.follower);
	free(f.dir);
	return rc;
}
