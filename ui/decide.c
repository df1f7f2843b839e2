/* SPDX-License-Identifier: MIT */
/*
 * decide.c: the keys that decide, one per test: confirm it now (c),
 * quarantine it (Q), post a bug report (p), dismiss it (d), and the keys
 * that steer the sweep: pause (P) and quit (q). Each asks its questions on
 * the message line, then calls the core (sweep commands through the
 * source, quarantine_add, post_start) and records the decision in
 * decisions.json. Nothing here blocks the loop: the editor and the post
 * run beside it.
 */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "action.h"
#include "editor.h"
#include "engine/sweep.h"
#include "github/post.h"
#include "ui-int.h"
#include "base/util.h"

#define DECIDE_EXPIRY_DAYS 14
#define DECIDE_CONFIRM_MAX 1000000

int
ui_record(struct ui *ui, const char *test, const char *decision, const char *url,
          const char *reason)
{
	char *path;
	int rc;

	if (ui->model->outdir == NULL)
		return -ENOENT;
	path = xasprintf("%s/%s", ui->model->outdir, DECISIONS_FILE);
	rc = decisions_record(path, test, decision, url, reason, util_now_ms());
	if (rc < 0)
		ui_message(ui, true, _("cannot record the decision in %s: %s"), path,
		           strerror(-rc));
	free(path);
	model_load_decisions(ui->model);
	ui_dirty(ui, VIEW_DIRTY_TESTS | VIEW_DIRTY_DETAIL);
	return rc;
}

/* The selected test, remembered for the questions that follow; NULL with a
 * message when there is none. */
static const struct model_test *
decide_begin(struct ui *ui)
{
	const struct model_test *mt = ui_selected_test(ui);

	if (mt == NULL) {
		ui_message(ui, false, "%s", _("no flaky test selected"));
		return NULL;
	}
	free(ui->act_test);
	ui->act_test = xstrdup(mt->id);
	return mt;
}

static const struct results_test *
decide_results_test(struct ui *ui)
{
	return ui->act_test != NULL && ui->model->results != NULL
	           ? results_find(ui->model->results, ui->act_test)
	           : NULL;
}

/* ---- c: confirm ---- */

static void
decide_confirm_done(void *arg, const char *answer)
{
	struct ui *ui = arg;
	char *end;
	long n;
	int rc, pairs = ui->model->ncpus * ui->model->nloads;

	if (answer == NULL) {
		ui_message(ui, false, "%s", _("confirm cancelled"));
		return;
	}
	n = strtol(answer, &end, 10);
	if (end == answer || *end != '\0' || n <= 0 || n > DECIDE_CONFIRM_MAX) {
		ui_message(ui, true, _("\"%s\" is not a number of runs (1 to %d)"), answer,
		           DECIDE_CONFIRM_MAX);
		return;
	}
	rc = ui->src.confirm(ui->src.arg, ui->act_test, (int)n);
	/* -ECANCELED: the source said why itself. */
	if (rc < 0) {
		if (rc != -ECANCELED)
			ui_message(ui, true, _("cannot confirm %s now: %s"), ui->act_test,
			           sweep_confirm_strerror(rc));
		return;
	}
	ui_record(ui, ui->act_test, "confirmed", NULL, NULL);
	ui_message(ui, false, _("queued %ld runs of %s alone at each of %d pairs"), n, ui->act_test,
	           pairs);
	ui_dirty(ui, VIEW_DIRTY_ALL | UI_DIRTY_MODEL);
}

void
decide_confirm(struct ui *ui)
{
	const struct model_test *mt = decide_begin(ui);
	char def[32], *q;
	int pairs = ui->model->ncpus * ui->model->nloads;

	if (mt == NULL)
		return;
	if (ui->src.confirm == NULL) {
		ui_message(
		    ui, false, "%s",
		    _("confirm runs need the sweep itself: this view only reads its journal"));
		return;
	}
	snprintf(def, sizeof def, "%d", ui->model->confirm > 0 ? ui->model->confirm : 100);
	q = xasprintf(_("confirm %s: runs at each of %d pairs:"), mt->name, pairs);
	ui_ask(ui, PROMPT_LINE, q, def, decide_confirm_done);
	free(q);
}

/* ---- Q: quarantine ---- */

static void decide_ask_channel(struct ui *ui, const char *def);
static void decide_ask_owner(struct ui *ui, const char *def);
static void decide_ask_issue(struct ui *ui, const char *def);
static void decide_ask_expiry(struct ui *ui, const char *def);

static void
decide_expiry_done(void *arg, const char *answer)
{
	struct ui *ui = arg;
	struct model *m = ui->model;
	const struct results_test *t = decide_results_test(ui);
	const struct results_cell *worst = t != NULL ? results_worst_cell(t) : NULL;
	struct quarantine_new_entry ne;
	int64_t runs = 0, failures = 0, hangs = 0;
	char *reason, *err = NULL, *path;
	int rc;

	if (answer == NULL) {
		ui_message(ui, false, "%s", _("quarantine cancelled"));
		return;
	}
	if (t != NULL)
		results_test_totals(t, &runs, &failures, &hangs);
	if (worst != NULL)
		reason = xasprintf(
		    _("flakesweep: %lld of %lld runs failed or hung; worst at cpu %d "
		      "load %d"),
		    (long long)(failures + hangs), (long long)runs, worst->cpu, worst->load);
	else
		reason = xstrdup(_("flakesweep: quarantined from the dashboard"));
	memset(&ne, 0, sizeof ne);
	ne.test = ui->act_test;
	ne.channel = ui->act_channel;
	ne.reason = reason;
	ne.owner = ui->act_owner;
	ne.issue = ui->act_issue;
	ne.expires = answer;
	rc = quarantine_add(m->quarantine, &ne, util_now_ms(), &err);
	free(reason);
	if (rc < 0) {
		ui_message(ui, true, _("not quarantined: %s"), err != NULL ? err : strerror(-rc));
		/* A bad date is asked again; other refusals end here. */
		if (rc == -EINVAL && err != NULL && strncmp(err, "expires", 7) == 0)
			decide_ask_expiry(ui, answer);
		free(err);
		return;
	}
	path = xstrdup(m->quarantine->path);
	model_load_quarantine(m, path, true);
	ui_record(ui, ui->act_test, "quarantined", NULL, NULL);
	ui_message(ui, false, _("quarantined %s (%s) until %s in %s"), ui->act_test,
	           ui->act_channel, answer, path);
	free(path);
	ui_dirty(ui, VIEW_DIRTY_ALL | UI_DIRTY_JUDGE);
}

static void
decide_ask_expiry(struct ui *ui, const char *def)
{
	ui_ask(ui, PROMPT_LINE, _("expires (YYYY-MM-DD):"), def, decide_expiry_done);
}

static void
decide_issue_done(void *arg, const char *answer)
{
	struct ui *ui = arg;
	char day[16];
	time_t t;
	struct tm tm;

	if (answer == NULL) {
		ui_message(ui, false, "%s", _("quarantine cancelled"));
		return;
	}
	if (*answer == '\0') {
		ui_message(ui, true, "%s", _("an issue is needed: its URL or #number"));
		decide_ask_issue(ui, NULL);
		return;
	}
	free(ui->act_issue);
	ui->act_issue = xstrdup(answer);
	t = (time_t)(util_now_ms() / 1000) + (time_t)DECIDE_EXPIRY_DAYS * 86400;
	gmtime_r(&t, &tm);
	strftime(day, sizeof day, "%Y-%m-%d", &tm);
	decide_ask_expiry(ui, day);
}

static void
decide_ask_issue(struct ui *ui, const char *def)
{
	ui_ask(ui, PROMPT_LINE, _("issue (URL or #number):"), def, decide_issue_done);
}

static void
decide_owner_done(void *arg, const char *answer)
{
	struct ui *ui = arg;

	if (answer == NULL) {
		ui_message(ui, false, "%s", _("quarantine cancelled"));
		return;
	}
	if (*answer == '\0') {
		ui_message(ui, true, "%s", _("an owner is needed: a person or a team"));
		decide_ask_owner(ui, NULL);
		return;
	}
	free(ui->act_owner);
	ui->act_owner = xstrdup(answer);
	decide_ask_issue(ui, NULL);
}

static void
decide_ask_owner(struct ui *ui, const char *def)
{
	ui_ask(ui, PROMPT_LINE, _("owner (a person or team):"), def, decide_owner_done);
}

static void
decide_channel_done(void *arg, const char *answer)
{
	struct ui *ui = arg;
	struct quarantine_channel ch;

	if (answer == NULL) {
		ui_message(ui, false, "%s", _("quarantine cancelled"));
		return;
	}
	if (quarantine_channel_parse(answer, &ch) < 0) {
		ui_message(
		    ui, true,
		    _("\"%s\" is not a channel: cpu=C, load=L, cpu=C,load=L, any, clock, rng, "
		      "net or env:NAME"),
		    answer);
		decide_ask_channel(ui, answer);
		return;
	}
	free(ui->act_channel);
	ui->act_channel = xstrdup(answer);
	decide_ask_owner(ui, NULL);
}

static void
decide_ask_channel(struct ui *ui, const char *def)
{
	char *q = xasprintf(_("quarantine %s: channel:"), ui->act_test);

	ui_ask(ui, PROMPT_LINE, q, def, decide_channel_done);
	free(q);
}

void
decide_quarantine(struct ui *ui)
{
	const struct model_test *mt = decide_begin(ui);
	const struct quarantine *q = ui->model->quarantine;
	char *channel;

	if (mt == NULL)
		return;
	if (q == NULL || q->nerrors > 0) {
		ui_message(ui, true,
		           _("%s has errors: fix them first (flakesweep quarantine check)"),
		           q != NULL ? q->path : "?");
		return;
	}
	channel = model_worst_channel(decide_results_test(ui));
	decide_ask_channel(ui, channel);
	free(channel);
}

/* ---- d: dismiss ---- */

static void
decide_dismiss_done(void *arg, const char *answer)
{
	struct ui *ui = arg;
	char *q;

	if (answer == NULL) {
		ui_message(ui, false, "%s", _("dismiss cancelled"));
		return;
	}
	if (*answer == '\0') {
		ui_message(ui, true, "%s", _("a reason is needed to dismiss a test"));
		q = xasprintf(_("dismiss %s: reason:"), ui->act_test);
		ui_ask(ui, PROMPT_LINE, q, NULL, decide_dismiss_done);
		free(q);
		return;
	}
	if (ui_record(ui, ui->act_test, "dismissed", NULL, answer) == 0)
		ui_message(ui, false, _("dismissed %s: %s"), ui->act_test, answer);
}

void
decide_dismiss(struct ui *ui)
{
	const struct model_test *mt = decide_begin(ui);
	char *q;

	if (mt == NULL)
		return;
	q = xasprintf(_("dismiss %s: reason:"), mt->name);
	ui_ask(ui, PROMPT_LINE, q, NULL, decide_dismiss_done);
	free(q);
}

/* ---- P: pause, q: quit ---- */

void
decide_pause(struct ui *ui)
{
	bool paused = !ui->model->paused;
	int rc;

	if (ui->src.pause == NULL) {
		ui_message(ui, false, "%s",
		           _("this view only reads the journal: nothing to pause"));
		return;
	}
	rc = ui->src.pause(ui->src.arg, paused);
	if (rc < 0) {
		ui_message(ui, false, "%s",
		           ui->model->finished
		               ? _("the sweep is over: nothing to pause")
		               : _("nothing to pause yet: runs start after the builds"));
		return;
	}
	ui->model->paused = paused;
	if (paused)
		ui_message(ui, false, "%s",
		           _("paused: no new run starts, runs in flight go on; P resumes"));
	else
		ui_message(ui, false, "%s", _("resumed"));
	ui_dirty(ui, VIEW_DIRTY_HEADER | UI_DIRTY_MODEL);
}

/* ---- S: stop ---- */

static void
decide_stop_done(void *arg, const char *answer)
{
	struct ui *ui = arg;

	if (answer == NULL || strcmp(answer, "y") != 0) {
		ui_message(ui, false, "%s", _("still sweeping"));
		return;
	}
	ui_message(ui, false, "%s", _("stopping the runs in flight..."));
	if (ui->src.stop != NULL)
		ui->src.stop(ui->src.arg);
	else
		ui->src.interrupt(ui->src.arg);
}

void
decide_stop(struct ui *ui)
{
	char *q;

	if (ui->src.stop == NULL && ui->src.interrupt == NULL) {
		ui_message(ui, false, "%s", _("this view only reads the journal: nothing to stop"));
		return;
	}
	if (ui->model->finished) {
		ui_message(ui, false, "%s", _("the sweep is over: nothing to stop"));
		return;
	}
	q = xasprintf(_("stop the sweep? (flakesweep --resume %s continues it)"),
	              ui->model->outdir != NULL ? ui->model->outdir : "DIR");
	ui_ask(ui, PROMPT_YESNO, q, NULL, decide_stop_done);
	free(q);
}

static void
decide_quit_done(void *arg, const char *answer)
{
	struct ui *ui = arg;

	if (answer != NULL && strcmp(answer, "y") == 0)
		ui_quit(ui);
	else
		ui_message(ui, false, "%s", _("still sweeping"));
}

void
decide_quit(struct ui *ui)
{
	char *q;

	if (ui->src.interrupt != NULL && !ui->model->finished && !ui->finished_seen) {
		q = xasprintf(_("runs are going: stop them and quit? (flakesweep --resume %s "
		                "continues later)"),
		              ui->model->outdir != NULL ? ui->model->outdir : "DIR");
		ui_ask(ui, PROMPT_YESNO, q, NULL, decide_quit_done);
		free(q);
		return;
	}
	ui_quit(ui);
}

/* ---- p: post a bug report ---- */

static void
decide_close_preview(struct ui *ui)
{
	post_draft_free(ui->draft);
	ui->draft = NULL;
	ui->st.post_title = ui->st.post_body = ui->st.post_repo = NULL;
	ui->st.overlay = VIEW_OVERLAY_NONE;
	ui_dirty(ui, VIEW_DIRTY_ALL);
}

void
decide_cleanup(struct ui *ui)
{
	/* Quitting on a signal while the editor runs: it goes too. */
	if (ui->editing && ui->editor_pid > 0)
		kill(ui->editor_pid, SIGTERM);
	if (ui->draft != NULL)
		decide_close_preview(ui);
	if (ui->post != NULL)
		post_cancel(ui->post);
}

static void
decide_post_done(const struct post_result *r, void *data)
{
	struct ui *ui = data;

	ui->post = NULL;
	if (ui->closing)
		return;
	switch (r->status) {
	case POST_POSTED:
		if (!r->recorded)
			ui_record(ui, ui->act_test != NULL ? ui->act_test : "", "posted", r->url,
			          NULL);
		else
			model_load_decisions(ui->model);
		ui_message(ui, false, _("posted: %s"), r->url != NULL ? r->url : "");
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
		decide_close_preview(ui);
		ui_message(ui, false, "%s", _("post cancelled: nothing was sent"));
		return;
	}
	if (a != NULL &&
	    (a->id == ACTION_DOWN || a->id == ACTION_UP || a->id == ACTION_PAGE_DOWN ||
	     a->id == ACTION_PAGE_UP || a->id == ACTION_TOP || a->id == ACTION_BOTTOM)) {
		ui_move(ui, a->id);
		return;
	}
	ui_message(ui, false, "%s", _("y sends the post, n cancels it, j and k scroll it"));
}

/* The description without the comment lines, trimmed; caller frees. */
static char *
decide_description(const char *text)
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

static void
decide_editor_done(void *arg, int status)
{
	struct ui *ui = arg;
	struct post_input in;
	char *text = NULL, *desc, *err = NULL, *results;
	size_t len;
	int rc;

	ui->editing = false;
	if (ui->closing)
		return;
	ui_suspend(ui, false);
	if (status > 0) {
		ui_message(ui, true, _("the editor exited with status %d: nothing is posted"),
		           status);
		return;
	}
	rc = util_read_file(ui->post_file, POST_TEXT_MAX, &text, &len);
	if (rc < 0) {
		ui_message(ui, true, _("cannot read %s: %s"), ui->post_file, strerror(-rc));
		return;
	}
	desc = decide_description(text);
	free(text);
	if (*desc == '\0') {
		ui_message(ui, false, "%s", _("the description is empty: nothing is posted"));
		free(desc);
		return;
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
		return;
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
}

void
decide_post(struct ui *ui)
{
	const struct model_test *mt = decide_begin(ui);
	char hash[17], *dir, *results;
	struct stat st;
	int rc;

	if (mt == NULL)
		return;
	if (mt->verdict == RESULTS_FAILING) {
		ui_message(
		    ui, false,
		    _("%s failed every run at some pair: it is failing, not flaky, and is not "
		      "posted"),
		    mt->id);
		return;
	}
	if (ui->post != NULL) {
		ui_message(ui, false, "%s", _("a post is in flight: wait for it"));
		return;
	}
	if (ui->model->outdir == NULL)
		return;
	results = xasprintf("%s/results.json", ui->model->outdir);
	rc = stat(results, &st);
	free(results);
	if (rc < 0) {
		ui_message(ui, false, "%s",
		           _("results.json is not written yet: try again in a few seconds"));
		return;
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
	ui->editing = true;
	ui_suspend(ui, true);
	rc = editor_start(ui->loop, ui->post_file, decide_editor_done, ui, &ui->editor_pid);
	if (rc < 0) {
		ui->editing = false;
		ui_suspend(ui, false);
		ui_message(ui, true, _("cannot start the editor: %s"), strerror(-rc));
	}
}
