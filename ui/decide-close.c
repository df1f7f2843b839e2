/* SPDX-License-Identifier: MIT */
/*
 * decide-close.c: V, the verified close of the selected test: when its
 * verify record (the view's --verified DIR, else a verify.json in the
 * sweep's own directory) says fixed at the commit checked out, its open
 * discussion gets the evidence and is closed as resolved, exactly as
 * `report --close --verified DIR` does (post_close_prepare, post_start);
 * then the test's quarantine entries are offered for removal
 * (quarantine_remove) and the close is recorded in the decisions file.
 * It never calls into the loop (ui.c, ui-keys.c, ui-live.c).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "github/github.h"
#include "github/post-close.h"
#include "github/post.h"
#include "ui-int.h"
#include "base/util.h"

/* A close in flight: the test and the discussion it closes. */
struct decide_close {
	struct ui *ui;
	char *test;
};

/* The directory whose verify.json V reads, or NULL (caller frees). */
static char *
decide_close_dir(const struct ui *ui)
{
	char *path;
	bool found;

	if (ui->cfg.verified != NULL)
		return xstrdup(ui->cfg.verified);
	if (ui->model->outdir == NULL)
		return NULL;
	path = xasprintf("%s/verify.json", ui->model->outdir);
	found = access(path, F_OK) == 0;
	free(path);
	return found ? xstrdup(ui->model->outdir) : NULL;
}

/* The checkout whose commit the record must name: the sweep's project. */
static const char *
decide_close_checkout(const struct ui *ui)
{
	return ui->model->root != NULL ? ui->model->root : ".";
}

/* How many entries of the quarantine file name test. */
static int
decide_close_entries(const struct ui *ui, const char *test)
{
	const struct quarantine *q = ui->model->quarantine;
	int n = 0;
	size_t i;

	for (i = 0; q != NULL && i < q->nentries; i++)
		if (q->entries[i].test != NULL && strcmp(q->entries[i].test, test) == 0)
			n++;
	return n;
}

/* Records the close of act_test (its discussion in act_issue), with what
 * became of its entries. */
static void
decide_close_record(struct ui *ui, const char *entries)
{
	char *reason = xasprintf("verified fixed; %s", entries);

	decide_record(ui, ui->act_test, "closed", ui->act_issue, reason);
	free(reason);
}

static void
decide_close_unquarantine_done(void *arg, const char *answer)
{
	struct ui *ui = arg;
	struct model *m = ui->model;
	char *err = NULL, *path, *what;
	int rc, removed = 0;

	path = xstrdup(m->quarantine->path);
	if (answer == NULL || strcmp(answer, "y") != 0) {
		what = xasprintf("its quarantine entries stay in %s", path);
		decide_close_record(ui, what);
		ui_message(ui, false, _("closed %s; its quarantine entries stay in %s"),
		           ui->act_test, path);
		goto out;
	}
	rc = quarantine_remove(m->quarantine, ui->act_test, NULL, &removed, &err);
	model_load_quarantine(m, path, true);
	if (rc < 0) {
		ui_message(ui, true, _("closed %s, but its quarantine entries stay: %s"),
		           ui->act_test, err);
		what = xasprintf("its quarantine entries stay in %s", path);
	} else {
		ui_message(ui, false,
		           ngettext("closed %s and removed its %d quarantine entry from %s",
		                    "closed %s and removed its %d quarantine entries from %s",
		                    (unsigned long)removed),
		           ui->act_test, removed, path);
		what = xasprintf("quarantine entries removed from %s: %d", path, removed);
	}
	decide_close_record(ui, what);
out:
	free(what);
	free(err);
	free(path);
	ui_dirty(ui, VIEW_DIRTY_ALL | UI_DIRTY_JUDGE);
}

static void
decide_close_done(const struct post_result *r, void *data)
{
	struct decide_close *c = data;
	struct ui *ui = c->ui;
	char *q;
	int n;

	ui->post = NULL;
	if (ui->closing)
		goto out;
	if (r->status != POST_CLOSED) {
		if (r->status == POST_CANCELLED)
			ui_message(ui, false, "%s", _("close cancelled"));
		else
			ui_message(ui, true, _("not closed: %s"),
			           r->message != NULL ? r->message : "?");
		goto out;
	}
	free(ui->act_test);
	ui->act_test = xstrdup(c->test);
	free(ui->act_issue);
	ui->act_issue = r->url != NULL ? xstrdup(r->url) : NULL;
	ui_message(ui, false, "%s", r->message != NULL ? r->message : "");
	n = decide_close_entries(ui, c->test);
	if (n == 0) {
		decide_close_record(ui, "it had no quarantine entry");
		goto out;
	}
	q = xasprintf(ngettext("closed. Remove the %d quarantine entry of %s from %s?",
	                       "closed. Remove the %d quarantine entries of %s from %s?",
	                       (unsigned long)n),
	              n, c->test, ui->model->quarantine->path);
	ui_ask(ui, PROMPT_YESNO, q, NULL, decide_close_unquarantine_done);
	free(q);
out:
	ui_dirty(ui, VIEW_DIRTY_ALL);
	free(c->test);
	free(c);
}

static void
decide_close_note(const char *line, void *data)
{
	ui_message(data, false, "%s", line);
}

/* Checks the record again (the checkout may have moved since the
 * question) and sends the close. */
static void
decide_close_send(struct ui *ui)
{
	struct post_options o;
	struct post_draft *d = NULL;
	struct decide_close *c;
	char *dir = decide_close_dir(ui), *comment = NULL, *err = NULL;
	int rc;

	rc = dir == NULL ? -ENOENT
	                 : post_close_prepare(dir, ui->act_test, decide_close_checkout(ui),
	                                      ui->cfg.repo, &d, &comment, &err);
	if (rc < 0) {
		ui_message(ui, true, _("not closed: %s"), err != NULL ? err : strerror(-rc));
		goto out;
	}
	post_options_init(&o);
	o.category = ui->cfg.category;
	o.github.api_url = ui->cfg.api_url;
	o.github.note = decide_close_note;
	o.github.note_data = ui;
	o.close_comment = comment;
	c = xcalloc(1, sizeof *c);
	c->ui = ui;
	c->test = xstrdup(ui->act_test);
	rc = post_start(ui->loop, d, &o, decide_close_done, c, &ui->post, &err);
	if (rc < 0) {
		ui->post = NULL;
		free(c->test);
		free(c);
		ui_message(ui, true, _("not closed: %s"), err != NULL ? err : strerror(-rc));
	} else {
		ui_message(ui, false, _("closing the discussion of %s..."), ui->act_test);
	}
out:
	free(comment);
	free(err);
	free(dir);
	ui_dirty(ui, VIEW_DIRTY_ALL);
}

static void
decide_close_answer(void *arg, const char *answer)
{
	struct ui *ui = arg;

	if (answer == NULL || strcmp(answer, "y") != 0) {
		ui_message(ui, false, "%s", _("close cancelled: nothing was sent"));
		return;
	}
	decide_close_send(ui);
}

void
decide_close(struct ui *ui)
{
	const struct model_test *mt = decide_begin(ui);
	struct post_draft *d = NULL;
	char *dir, *comment = NULL, *err = NULL, *q;

	if (mt == NULL)
		return;
	if (ui->post != NULL) {
		ui_message(ui, false, "%s", _("a post is in flight: wait for it"));
		return;
	}
	dir = decide_close_dir(ui);
	if (dir == NULL) {
		ui_message(ui, true, "%s",
		           _("not closed: no verify record (flakesweep view DIR --verified VDIR "
		             "names the directory of verify -o VDIR)"));
		return;
	}
	if (post_close_prepare(dir, mt->id, decide_close_checkout(ui), ui->cfg.repo, &d, &comment,
	                       &err) < 0 ||
	    github_check_token(&err) < 0) {
		ui_message(ui, true, _("not closed: %s"), err);
		goto out;
	}
	if (post_draft_repo(d) == NULL) {
		ui_message(ui, true, "%s",
		           _("not closed: the project has no GitHub origin remote (flakesweep view "
		             "DIR --repo OWNER/NAME names one)"));
		goto out;
	}
	q = xasprintf(_("%s/verify.json says %s is fixed: close its discussion in %s as "
	                "resolved?"),
	              dir, mt->id, post_draft_repo(d));
	ui_ask(ui, PROMPT_YESNO, q, NULL, decide_close_answer);
	free(q);
out:
	post_draft_free(d);
	free(comment);
	free(err);
	free(dir);
}
