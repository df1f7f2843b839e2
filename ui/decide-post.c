/* SPDX-License-Identifier: MIT */
/*
 * decide-post.c: p, a bug report for the selected test: its description
 * written in $EDITOR (which the loop opens when asked, ui_want), the post
 * previewed in an overlay, then sent with post_start beside the loop and
 * recorded as posted in the decisions file. Nothing here blocks the loop,
 * and nothing calls into it (ui.c, ui-keys.c, ui-live.c).
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "action.h"
#include "drivers/project.h"
#include "github/github.h"
#include "github/post-draft.h"
#include "github/post.h"
#include "ui-int.h"
#include "base/util.h"

static void
decide_post_close(struct ui *ui)
{
	post_draft_free(ui->draft);
	ui->draft = NULL;
	ui->st.post_title = ui->st.post_body = ui->st.post_repo = NULL;
	ui->st.overlay = VIEW_OVERLAY_NONE;
	ui_dirty(ui, VIEW_DIRTY_ALL);
}

/* The post ends without a URL: a quarantine waiting for one is not
 * written (the message said why nothing was posted). */
static void
decide_post_abandon(struct ui *ui)
{
	ui->after_post = NULL;
}

void
decide_cleanup(struct ui *ui)
{
	/* Quitting on a signal while the editor runs: it goes too. */
	if (ui->editing && ui->editor_pid > 0)
		kill(ui->editor_pid, SIGTERM);
	if (ui->draft != NULL)
		decide_post_close(ui);
	if (ui->post != NULL)
		post_cancel(ui->post);
}

static void
decide_post_done(const struct post_result *r, void *data)
{
	struct ui *ui = data;
	void (*after)(struct ui *, const char *);

	ui->post = NULL;
	if (ui->closing)
		return;
	after = ui->after_post;
	ui->after_post = NULL;
	switch (r->status) {
	case POST_POSTED:
		/* The post recorded itself in the output directory; the
		 * project's file keeps it for the next sweeps. */
		if (!r->recorded || model_decisions_path(ui->model) != NULL)
			decide_record(ui, ui->act_test != NULL ? ui->act_test : "", "posted",
			              r->url, NULL);
		else
			model_load_decisions(ui->model);
		ui_message(ui, false, _("posted: %s"), r->url != NULL ? r->url : "");
		break;
	case POST_COMMENTED:
	case POST_CLOSED:
		ui_message(ui, false, "%s", r->message != NULL ? r->message : "");
		break;
	case POST_EXISTS:
		ui_message(ui, false, _("not posted: an open report already names the test: %s"),
		           r->url != NULL ? r->url : "");
		break;
	case POST_FAILED:
		ui_message(ui, true, _("not posted: %s"), r->message != NULL ? r->message : "?");
		break;
	case POST_CANCELLED:
		ui_message(ui, false, "%s", _("post cancelled"));
		break;
	}
	if (after != NULL && r->status != POST_FAILED && r->status != POST_CANCELLED &&
	    r->url != NULL)
		after(ui, r->url);
	else if (after != NULL)
		ui_message(ui, true, "%s",
		           _("not quarantined: the post gave no URL for the entry's issue"));
	ui_dirty(ui, VIEW_DIRTY_ALL);
}

static void
decide_post_note(const char *line, void *data)
{
	ui_message(data, false, "%s", line);
}

static void
decide_post_send(struct ui *ui)
{
	struct post_options o;
	struct post_draft *d = ui->draft;
	char *err = NULL, *repo;
	int rc;

	if (post_draft_repo(d) == NULL) {
		decide_post_abandon(ui);
		ui_message(ui, true, "%s",
		           _("no repository to post to: the project has no GitHub origin remote "
		             "(flakesweep view DIR --repo OWNER/NAME names one)"));
		return;
	}
	repo = xstrdup(post_draft_repo(d));
	ui->draft = NULL;
	ui->st.post_title = ui->st.post_body = ui->st.post_repo = NULL;
	ui->st.overlay = VIEW_OVERLAY_NONE;
	post_options_init(&o);
	o.category = ui->cfg.category;
	o.github.api_url = ui->cfg.api_url;
	o.github.note = decide_post_note;
	o.github.note_data = ui;
	rc = post_start(ui->loop, d, &o, decide_post_done, ui, &ui->post, &err);
	if (rc < 0) {
		ui->post = NULL;
		decide_post_abandon(ui);
		ui_message(ui, true, _("not posted: %s"), err != NULL ? err : strerror(-rc));
		free(err);
	} else {
		ui_message(ui, false, _("posting %s to %s..."), ui->act_test, repo);
	}
	free(repo);
	ui_dirty(ui, VIEW_DIRTY_ALL);
}

void
decide_post_key(struct ui *ui, int key)
{
	const struct action *a = action_for_key(key);

	if (key == 'y' || key == 'Y') {
		decide_post_send(ui);
		return;
	}
	if (key == 'n' || key == 'N' ||
	    (a != NULL && (a->id == ACTION_BACK || a->id == ACTION_QUIT))) {
		decide_post_close(ui);
		ui_message(ui, false, "%s",
		           ui->after_post != NULL
		               ? _("post cancelled: nothing was sent, nothing was quarantined")
		               : _("post cancelled: nothing was sent"));
		decide_post_abandon(ui);
		return;
	}
	ui_message(ui, false, "%s", _("y sends the post, n cancels it, j and k scroll it"));
}

/* The description without the comment lines, trimmed; caller frees. */
static char *
decide_post_description(const char *text)
{
	struct buf b;
	const char *p = text;
	size_t start, end;
	char *s;

	buf_init(&b);
	while (*p != '\0') {
		size_t n = strcspn(p, "\n");

		if (p[0] != '#')
			buf_printf(&b, "%.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	s = buf_steal(&b);
	if (s == NULL)
		return xstrdup("");
	for (start = 0; s[start] == ' ' || s[start] == '\n' || s[start] == '\t'; start++)
		;
	for (end = strlen(s); end > start && (s[end - 1] == ' ' || s[end - 1] == '\n' ||
	                                      s[end - 1] == '\t' || s[end - 1] == '\r');
	     end--)
		;
	memmove(s, s + start, end - start);
	s[end - start] = '\0';
	return s;
}

/* Drafts the post from the description written; false when it ends
 * there, said why. */
static bool
decide_post_draft(struct ui *ui, int status)
{
	struct post_input in;
	char *text = NULL, *desc, *err = NULL, *results;
	size_t len;
	int rc;

	if (status > 0) {
		ui_message(ui, true, _("the editor exited with status %d: nothing is posted"),
		           status);
		return false;
	}
	rc = util_read_file(ui->post_file, POST_TEXT_MAX, &text, &len);
	if (rc < 0) {
		ui_message(ui, true, _("cannot read %s: %s"), ui->post_file, strerror(-rc));
		return false;
	}
	desc = decide_post_description(text);
	free(text);
	if (*desc == '\0') {
		ui_message(ui, false, "%s", _("the description is empty: nothing is posted"));
		free(desc);
		return false;
	}
	results = xasprintf("%s/results.json", ui->model->outdir);
	memset(&in, 0, sizeof in);
	in.results_path = results;
	in.test_id = ui->act_test;
	in.description = desc;
	in.repo = ui->cfg.repo;
	rc = post_draft_new(&in, &ui->draft, &err);
	free(results);
	free(desc);
	if (rc < 0) {
		ui->draft = NULL;
		ui_message(ui, true, _("not posted: %s"), err != NULL ? err : strerror(-rc));
		free(err);
		return false;
	}
	ui->st.post_title = post_draft_title(ui->draft);
	ui->st.post_body = post_draft_body(ui->draft);
	ui->st.post_repo = post_draft_repo(ui->draft);
	ui->st.overlay = VIEW_OVERLAY_POST;
	ui->st.overlay_top = 0;
	if (ui->st.post_repo != NULL)
		ui_message(ui, false, _("post this to %s? y sends it, n cancels; j and k scroll"),
		           ui->st.post_repo);
	else
		ui_message(ui, true, "%s",
		           _("no repository to post to (no GitHub origin remote); n closes"));
	ui_dirty(ui, VIEW_DIRTY_ALL);
	return true;
}

static void
decide_post_edited(void *arg, int status)
{
	struct ui *ui = arg;

	if (!decide_post_draft(ui, status))
		decide_post_abandon(ui);
}

/* Whether the post can go anywhere, said before the editor opens: a
 * token, a repository, and no post already recorded for mt. */
static bool
decide_post_target(struct ui *ui, const struct model_test *mt)
{
	const struct decision *d =
	    decisions_find(ui->model->decisions, ui->model->ndecisions, mt->id);
	struct project_git g = {NULL, NULL, NULL, NULL};
	char *err = NULL, *repo = NULL;
	bool ok;

	if (d != NULL && d->url != NULL && d->decision != NULL &&
	    strcmp(d->decision, "posted") == 0) {
		ui_message(ui, false, _("%s is already posted: %s"), mt->name, d->url);
		return false;
	}
	if (github_check_token(&err) < 0) {
		ui_message(ui, true, _("not posted: %s"), err);
		free(err);
		return false;
	}
	if (ui->cfg.repo != NULL)
		return true;
	if (ui->model->root != NULL && project_git_find(ui->model->root, &g) == 0 &&
	    g.origin != NULL)
		post_draft_parse_remote(g.origin, &repo);
	project_git_free(&g);
	ok = repo != NULL;
	free(repo);
	if (!ok)
		ui_message(ui, true, "%s",
		           _("no repository to post to: the project has no GitHub origin remote "
		             "(flakesweep view DIR --repo OWNER/NAME names one)"));
	return ok;
}

/* Opens the editor on the post's description; false when it cannot,
 * said why. */
static bool
decide_post_open(struct ui *ui)
{
	const struct model_test *mt = decide_begin(ui);
	char hash[17], *dir, *results;
	struct stat st;
	int rc;

	if (mt == NULL)
		return false;
	if (mt->verdict == RESULTS_FAILING) {
		ui_message(
		    ui, false,
		    _("%s failed every run at some pair: it is failing, not flaky, and is not "
		      "posted"),
		    mt->id);
		return false;
	}
	if (ui->post != NULL) {
		ui_message(ui, false, "%s", _("a post is in flight: wait for it"));
		return false;
	}
	if (ui->model->outdir == NULL || !decide_post_target(ui, mt))
		return false;
	results = xasprintf("%s/results.json", ui->model->outdir);
	rc = stat(results, &st);
	free(results);
	if (rc < 0) {
		ui_message(ui, false, "%s",
		           _("results.json is not written yet: try again in a few seconds"));
		return false;
	}
	post_draft_hash(mt->id, hash);
	dir = xasprintf("%s/posts", ui->model->outdir);
	util_mkdir_p(dir);
	free(ui->post_file);
	ui->post_file = xasprintf("%s/%s.md", dir, hash);
	free(dir);
	if (stat(ui->post_file, &st) < 0) {
		char *text = xasprintf(
		    _("\n"
		      "# Describe how %s fails and what it touches, in Markdown without headings.\n"
		      "# Lines starting with '#' are removed; an empty description posts nothing.\n"
		      "# flakesweep adds the rates at every pair, the first failure and the\n"
		      "# commands that reproduce it; you review the post before it is sent.\n"),
		    mt->id);

		util_write_file_atomic(ui->post_file, text, strlen(text));
		free(text);
	}
	ui_want(ui, UI_NEXT_EDITOR, ui->post_file, decide_post_edited);
	return true;
}

void
decide_post(struct ui *ui)
{
	if (!decide_post_open(ui))
		decide_post_abandon(ui);
}
