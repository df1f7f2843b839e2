/* SPDX-License-Identifier: MIT */
/*
 * follow.c: the view subcommand (see follow.h). It replays the journal,
 * hands the dashboard a source that reads the replay, and reads the
 * journal again when it changed (lines are appended whole, so a read sees
 * whole lines and at most a torn last one, which replay skips). A big
 * journal is read back less often: never more than a tenth of the time.
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
#include "replay.h"
#include "ui.h"
#include "util.h"

#define FOLLOW_MIN_MS 1000

struct follow {
	uv_loop_t *loop;
	uv_timer_t timer;
	char *dir, *journal;
	struct replay r;
	int64_t signature; /* the journal's mtime and size when read */
	uint64_t interval_ms;
	struct ui *ui;
	bool timer_closed;
};

static int64_t
follow_signature(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec + st.st_size * 7919;
}

static void
follow_update(void *arg, struct model *m, int64_t now_ms)
{
	struct follow *f = arg;

	model_update_replay(m, &f->r, f->dir, now_ms);
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

	if (!f->timer_closed) {
		f->timer_closed = true;
		uv_close((uv_handle_t *)&f->timer, NULL);
	}
}

static void
follow_timer_cb(uv_timer_t *t)
{
	struct follow *f = t->data;
	struct replay nr;
	char *err = NULL;
	int64_t sig = follow_signature(f->journal), t0, cost;

	if (sig == f->signature)
		return;
	t0 = util_mono_ms();
	if (replay_journal(f->journal, &nr, &err) < 0) {
		ui_message(f->ui, true, "%s", err != NULL ? err : f->journal);
		free(err);
		replay_free(&nr);
		f->signature = sig;
		return;
	}
	/* The model borrows the replay's results: refresh it before the old
	 * replay goes. */
	model_update_replay(ui_model(f->ui), &nr, f->dir, util_now_ms());
	replay_free(&f->r);
	f->r = nr;
	f->signature = sig;
	ui_changed(f->ui);
	cost = util_mono_ms() - t0;
	f->interval_ms = (uint64_t)(cost * 10 > FOLLOW_MIN_MS ? cost * 10 : FOLLOW_MIN_MS);
	uv_timer_set_repeat(t, f->interval_ms);
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
		fwrite(text, 1, len, stdout);
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
	f.journal = xasprintf("%s/journal.jsonl", f.dir);
	f.signature = follow_signature(f.journal);
	if (replay_journal(f.journal, &f.r, &err) < 0) {
		fprintf(stderr, "flakesweep: %s\n", err);
		rc = 2;
		goto out;
	}
	if (!ui_usable(1, &why)) {
		rc = follow_print_report(f.dir, why);
		goto out;
	}
	qpath = quarantine != NULL ? xstrdup(quarantine) : follow_quarantine_path(&f.r);
	cfg.mode = _("view");
	cfg.outdir = f.dir;
	cfg.quarantine = qpath;
	signal(SIGPIPE, SIG_IGN);
	uv_loop_init(&loop);
	f.loop = &loop;
	f.ui = ui_new(&loop, &cfg, MODEL_VIEW, &err);
	if (f.ui == NULL) {
		fprintf(stderr, "flakesweep: %s\n", err);
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
	uv_timer_init(&loop, &f.timer);
	f.timer.data = &f;
	f.interval_ms = FOLLOW_MIN_MS;
	uv_timer_start(&f.timer, follow_timer_cb, f.interval_ms, f.interval_ms);
	uv_run(&loop, UV_RUN_DEFAULT);
	ui_free(f.ui);
	uv_run(&loop, UV_RUN_DEFAULT);
	if (uv_loop_close(&loop) != 0)
		fprintf(stderr, "flakesweep: %s\n", _("handles left open at exit"));
out:
	free(err);
	free(qpath);
	replay_free(&f.r);
	free(f.journal);
	free(f.dir);
	return rc;
}
