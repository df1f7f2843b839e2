/* SPDX-License-Identifier: MIT */
/*
 * cmd-view.c: `flakesweep view DIR...`: the dashboard on the journal of a
 * sweep, finished or running elsewhere, or on the journals of several
 * shards of one sweep at once. Without a usable terminal it prints each
 * DIR/report.txt instead.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "cli.h"
#include "cmd.h"
#include "follow.h"
#include "follow-shards.h"
#include "results/follower.h"
#include "decisions/quarantine.h"
#include "results/replay.h"
#include "ui.h"
#include "base/sanitize.h"
#include "base/util.h"

enum {
	CMD_VIEW_QUARANTINE,
	CMD_VIEW_VERIFIED,
};

static const struct cli_option cmd_view_options[] = {
    {"quarantine", true, CMD_VIEW_QUARANTINE},
    {"verified", true, CMD_VIEW_VERIFIED},
    CLI_GITHUB_OPTIONS,
    {NULL, false, 0},
};

struct cmd_view_args {
	const char *quarantine, *verified;
	struct cli_github gh;
};

static void
cmd_view_usage(FILE *out)
{
	fprintf(out, "%s",
	        _("usage: flakesweep view DIR... [--quarantine FILE] [--repo OWNER/NAME]\n"
	          "                               [--category NAME] [--api-url URL]\n"
	          "                               [--verified VDIR]\n"
	          "Shows the dashboard of the sweep in DIR, finished or running elsewhere;\n"
	          "of several DIRs, the shards of one sweep merged, lanes by host.\n"));
}

static int
cmd_view_set(void *arg, int id, const char *value)
{
	struct cmd_view_args *a = arg;

	if (cli_github_set(&a->gh, id, value))
		return 0;
	if (id == CMD_VIEW_VERIFIED)
		a->verified = value;
	else
		a->quarantine = value;
	return 0;
}

/* What a sweep makes in its output directory before its journal's first
 * line: a directory holding anything else and no journal is no sweep's. */
static bool
cmd_view_sweep_begins(const char *dir)
{
	static const char *const made[] = {".", "..", "runs", "bin", "tmp", "journal.jsonl"};
	struct dirent *de;
	bool ours = true;
	size_t i;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return true; /* the follower says why */
	while (ours && (de = readdir(d)) != NULL) {
		for (i = 0; i < UTIL_ARRAY_LEN(made) && strcmp(de->d_name, made[i]) != 0; i++)
			;
		ours = i < UTIL_ARRAY_LEN(made);
	}
	closedir(d);
	return ours;
}

/* A name that is no sweep's output directory is refused at once, saying
 * what view takes: only an empty directory, or one a sweep is beginning
 * in, may wait for its journal. */
static int
cmd_view_check_dirs(char *const *dirs, int n)
{
	struct stat st;
	int i;

	for (i = 0; i < n; i++) {
		char *journal = xasprintf("%s/journal.jsonl", dirs[i]);
		bool begun = access(journal, F_OK) == 0;

		free(journal);
		if (stat(dirs[i], &st) < 0 && errno == ENOENT) {
			sanitize_fprintf(stderr, _("flakesweep: %s: no such directory\n"), dirs[i]);
			return -1;
		}
		if (!S_ISDIR(st.st_mode)) {
			const char *slash = strrchr(dirs[i], '/');
			char *up = slash != NULL ? xstrndup(dirs[i], (size_t)(slash - dirs[i]))
			                         : xstrdup(".");

			sanitize_fprintf(
			    stderr,
			    _("flakesweep: %s is a file: view takes a sweep's output "
			      "directory, the one that holds journal.jsonl (here %s)\n"),
			    dirs[i], up);
			free(up);
			return -1;
		}
		if (!begun && !cmd_view_sweep_begins(dirs[i])) {
			sanitize_fprintf(stderr,
			                 _("flakesweep: %s holds no sweep (no journal.jsonl): view "
			                   "takes a sweep's output directory (-o)\n"),
			                 dirs[i]);
			return -1;
		}
	}
	return 0;
}

/* How long view waits for a sweep just started to write its journal's
 * first line (ms): the sweep makes the file, then writes the header. */
#define CMD_VIEW_WAIT_MS 10000

/* Waits until dir's journal holds its first whole line, or
 * CMD_VIEW_WAIT_MS; the follower then says what is wrong, if anything. */
static void
cmd_view_wait_journal(const char *dir)
{
	char *path = xasprintf("%s/journal.jsonl", dir), line[64];
	int64_t until = util_mono_ms() + CMD_VIEW_WAIT_MS;
	bool told = false;

	for (;;) {
		FILE *f = fopen(path, "r");
		bool whole = f != NULL && fgets(line, sizeof line, f) != NULL &&
		             (strchr(line, '\n') != NULL || strlen(line) == sizeof line - 1);

		if (f != NULL)
			fclose(f);
		if (whole || util_mono_ms() >= until)
			break;
		if (!told)
			sanitize_fprintf(stderr, _("flakesweep: waiting for %s to begin\n"), path);
		told = true;
		usleep(50 * 1000);
	}
	free(path);
}

/* Without a terminal: the text report, if the sweep wrote one. */
static int
cmd_view_print_report(const char *dir, const char *why)
{
	char *path = xasprintf("%s/report.txt", dir);
	int rc = 0;

	fprintf(stderr, _("flakesweep: no dashboard (%s); printing %s\n"), why, path);
	if (cli_print_file(dir, "report.txt") < 0) {
		fprintf(stderr, _("flakesweep: %s is not there yet\n"), path);
		rc = 2;
	}
	free(path);
	return rc;
}

/* The quarantine file: --quarantine, else the project's or the default. */
static char *
cmd_view_quarantine(const struct cmd_view_args *a, const char *root)
{
	struct stat st;

	if (a->quarantine != NULL)
		return xstrdup(a->quarantine);
	if (root != NULL && stat(root, &st) == 0 && S_ISDIR(st.st_mode))
		return xasprintf("%s/%s", root, QUARANTINE_DEFAULT_FILE);
	return quarantine_default_path();
}

/* The dashboard's settings for a view of dir. */
static void
cmd_view_config(struct ui_config *cfg, const struct cmd_view_args *a, const char *dir,
                const char *qpath)
{
	ui_config_init(cfg);
	cfg->repo = a->gh.repo;
	cfg->category = a->gh.category;
	cfg->api_url = a->gh.api_url;
	cfg->mode = _("view");
	cfg->outdir = dir;
	cfg->quarantine = qpath;
	cfg->verified = a->verified;
}

/* `view DIR DIR...`: the shards of one sweep in one dashboard. */
static int
cmd_view_shards(const struct cmd_view_args *a, char *const *dirs, int n)
{
	struct follow_shards *f;
	struct ui_config cfg;
	struct ui *ui = NULL;
	const char *why = NULL;
	char *err = NULL, *qpath = NULL;
	uv_loop_t loop;
	int i, rc = 0;

	uv_loop_init(&loop);
	f = follow_shards_new(&loop, dirs, n);
	if (follow_shards_start(f, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		rc = 2;
		goto close;
	}
	if (!ui_usable(1, &why)) {
		for (i = 0; i < n; i++)
			rc |= cmd_view_print_report(dirs[i], why);
		goto close;
	}
	qpath = cmd_view_quarantine(a, follow_shards_root(f));
	cmd_view_config(&cfg, a, dirs[0], qpath);
	signal(SIGPIPE, SIG_IGN);
	ui = ui_new(&loop, &cfg, MODEL_VIEW, &err);
	if (ui == NULL) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		rc = 2;
		goto close;
	}
	follow_shards_attach(f, ui);
	uv_run(&loop, UV_RUN_DEFAULT);
	ui_free(ui);
	goto out;
close:
	follow_shards_close(f);
out:
	uv_run(&loop, UV_RUN_DEFAULT);
	if (uv_loop_close(&loop) != 0)
		fprintf(stderr, "flakesweep: %s\n", _("handles left open at exit"));
	follow_shards_free(f);
	free(err);
	free(qpath);
	return rc;
}

static int
cmd_view(int argc, char **argv)
{
	struct cmd_view_args a;
	struct cli c = {cmd_view_options, cmd_view_set, &a, 0, 0, NULL, NULL};
	struct follower_events ev;
	struct follower *fw = NULL;
	struct follow *f = NULL;
	struct ui_config cfg;
	struct ui *ui;
	const char *why = NULL, *dir;
	char *err = NULL, *qpath = NULL;
	uv_loop_t loop;
	int rc = 0;

	memset(&a, 0, sizeof a);
	switch (cli_parse(&c, argc, argv)) {
	case CLI_OK:
		break;
	case CLI_HELP:
		cmd_view_usage(stdout);
		return 0;
	case CLI_NO_VALUE:
		fprintf(stderr, _("flakesweep: option %s needs a value\n"), c.bad);
		return 2;
	default:
		cli_unknown(&c, "flakesweep view --help");
		return 2;
	}
	if (c.first > argc - 1) {
		cmd_view_usage(stderr);
		return 2;
	}
	if (cmd_view_check_dirs(argv + c.first, argc - c.first) < 0)
		return 2;
	if (c.first < argc - 1)
		return cmd_view_shards(&a, argv + c.first, argc - c.first);
	dir = argv[c.first];
	f = follow_new(dir, &ev);
	uv_loop_init(&loop);
	/* A sweep alive elsewhere is attached to; without one (or with a
	 * stale socket, its sweep killed) the journal alone is followed. */
	if (follow_connect(f, &loop, &err) < 0) {
		free(err);
		err = NULL;
	}
	cmd_view_wait_journal(dir);
	fw = follower_new(&loop, dir, &ev, &err);
	if (fw == NULL) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		follow_close(f);
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		rc = 2;
		goto out;
	}
	if (!ui_usable(1, &why)) {
		follow_close(f);
		follower_stop(fw);
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		rc = cmd_view_print_report(dir, why);
		goto out;
	}
	qpath = cmd_view_quarantine(&a, follower_replay(fw)->header.project.root);
	cmd_view_config(&cfg, &a, dir, qpath);
	signal(SIGPIPE, SIG_IGN);
	ui = ui_new(&loop, &cfg, MODEL_VIEW, &err);
	if (ui == NULL) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		follow_close(f);
		follower_stop(fw);
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		rc = 2;
		goto out;
	}
	follow_attach(f, fw, ui);
	uv_run(&loop, UV_RUN_DEFAULT);
	ui_free(ui);
	uv_run(&loop, UV_RUN_DEFAULT);
	if (uv_loop_close(&loop) != 0)
		fprintf(stderr, "flakesweep: %s\n", _("handles left open at exit"));
out:
	free(err);
	free(qpath);
	follower_free(fw);
	follow_free(f);
	return rc;
}

const struct cmd_entry cmd_view_entry = {"view", cmd_view};
