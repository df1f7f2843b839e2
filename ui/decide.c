/* SPDX-License-Identifier: MIT */
/*
 * decide.c: the keys that decide, one per test: confirm it now (c),
 * quarantine it (Q), dismiss it (d) (posting it, p, is decide-post.c,
 * which the quarantine dialog starts when the issue is yet to be posted),
 * and the keys that steer the sweep: pause (P), stop (S) and quit (q),
 * and u, which takes the last decision back. Each asks its questions on
 * the message line, then calls the core (sweep commands through the
 * source, quarantine_add) and records the decision in the project's
 * decisions file. It never calls into the loop (ui.c, ui-keys.c,
 * ui-live.c), only the shared state (ui-state.c); quitting is asked with
 * ui_want().
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/sweep.h"
#include "ui-int.h"
#include "base/util.h"

#define DECIDE_EXPIRY_DAYS 14
#define DECIDE_CONFIRM_MAX 1000000

static void
decide_undo_free(struct ui_undo *u)
{
	free(u->test);
	free(u->path);
	free(u->qpath);
}

void
decide_free(struct ui *ui)
{
	size_t i;

	for (i = 0; i < ui->nundo; i++)
		decide_undo_free(&ui->undo[i]);
	free(ui->undo);
	ui->undo = NULL;
	ui->nundo = 0;
	for (i = 0; i < ui->nconfirms; i++)
		free(ui->confirms[i].test);
	free(ui->confirms);
	ui->confirms = NULL;
	ui->nconfirms = 0;
}

/* Takes back the quarantine entry the decision u added for channel;
 * removes the file when that entry created it and it is left empty.
 * Returns 0 or a negative errno with a message shown. */
static int
decide_undo_quarantine(struct ui *ui, const struct ui_undo *u, const char *channel)
{
	struct model *m = ui->model;
	struct quarantine *q = NULL;
	char *err = NULL;
	int rc;

	rc = quarantine_load(u->qpath, &q, &err);
	if (rc == 0)
		rc = quarantine_remove(q, u->test, channel, NULL, &err);
	/* Already taken out by hand (or the file with it): nothing to do. */
	if (rc == -ENOENT) {
		free(err);
		err = NULL;
		rc = 0;
	}
	if (rc == 0 && q != NULL && u->qcreated && q->nentries == 0 && unlink(u->qpath) < 0)
		rc = -errno;
	if (rc < 0)
		ui_message(ui, true, _("the quarantine entry stays: %s"),
		           err != NULL ? err : strerror(-rc));
	quarantine_free(q);
	free(err);
	if (m->quarantine != NULL && strcmp(m->quarantine->path, u->qpath) == 0) {
		char *path = xstrdup(u->qpath);

		model_load_quarantine(m, path, true);
		free(path);
	}
	ui_dirty(ui, VIEW_DIRTY_ALL | UI_DIRTY_JUDGE);
	return rc;
}

void
decide_undo(struct ui *ui)
{
	struct ui_undo u;
	struct decision undone;
	const struct decision *now;
	int rc;

	if (ui->nundo == 0) {
		ui_message(ui, false, "%s", _("nothing to take back: no decision was taken here"));
		return;
	}
	u = ui->undo[--ui->nundo];
	rc = decisions_undo(u.path, u.test, &undone);
	if (rc < 0) {
		char *why = decisions_error(u.path, rc);

		ui_message(ui, true, _("cannot take back the decision on %s: %s"), u.test, why);
		free(why);
		goto out;
	}
	if (u.qpath != NULL && undone.decision != NULL &&
	    strcmp(undone.decision, "quarantined") == 0 &&
	    decide_undo_quarantine(ui, &u, undone.channel) < 0)
		goto out;
	model_load_decisions(ui->model);
	now = decisions_find(ui->model->decisions, ui->model->ndecisions, u.test);
	if (undone.url != NULL)
		ui_message(ui, false, _("took back %s on %s (the discussion stays: %s)"),
		           undone.decision, u.test, undone.url);
	else if (now != NULL)
		ui_message(ui, false, _("took back %s on %s: it is %s again"), undone.decision,
		           u.test, now->decision);
	else
		ui_message(ui, false, _("took back %s on %s: it needs a decision again"),
		           undone.decision, u.test);
	free(ui->st.selected_id);
	ui->st.selected_id = xstrdup(u.test);
	ui_dirty(ui, VIEW_DIRTY_ALL);
out:
	decision_clear(&undone);
	decide_undo_free(&u);
}

void
decide_check_confirms(struct ui *ui)
{
	const struct results *r = ui->model->results;
	size_t i = 0;

	while (i < ui->nconfirms) {
		struct ui_confirm *c = &ui->confirms[i];
		const struct results_test *t = r != NULL ? results_find(r, c->test) : NULL;
		int64_t runs = 0;
		int k;

		for (k = 0; t != NULL && k < t->ncells; k++) {
			if (t->cells[k].phase == RESULTS_CONFIRM)
				runs += t->cells[k].runs;
		}
		if (runs < c->runs && !ui->model->finished) {
			i++;
			continue;
		}
		if (runs >= c->runs) {
			decide_record(ui, c->test, "confirmed", NULL, NULL);
			ui_message(ui, false, _("confirmed %s: its confirm runs have run"),
			           c->test);
		} else {
			ui_message(
			    ui, false,
			    _("the confirm runs of %s did not all run: it is not recorded as "
			      "confirmed"),
			    c->test);
		}
		free(c->test);
		memmove(c, c + 1, sizeof *c * (ui->nconfirms - i - 1));
		ui->nconfirms--;
	}
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
	const struct results_test *t;
	int64_t before = 0;
	char *end;
	long n;
	int rc, k, pairs = ui->model->ncpus * ui->model->nloads;

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
	t = decide_results_test(ui);
	for (k = 0; t != NULL && k < t->ncells; k++) {
		if (t->cells[k].phase == RESULTS_CONFIRM)
			before += t->cells[k].runs;
	}
	rc = ui->src.confirm(ui->src.arg, ui->act_test, (int)n);
	/* -ECANCELED: the source said why itself. */
	if (rc < 0) {
		if (rc != -ECANCELED)
			ui_message(ui, true, _("cannot confirm %s now: %s"), ui->act_test,
			           sweep_confirm_strerror(rc));
		return;
	}
	/* Recorded as confirmed once they have run, not now. */
	ui->confirms = xrealloc(ui->confirms, sizeof *ui->confirms * (ui->nconfirms + 1));
	ui->confirms[ui->nconfirms].test = xstrdup(ui->act_test);
	ui->confirms[ui->nconfirms].runs = before + (int64_t)n * pairs;
	ui->nconfirms++;
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
	struct decision d;
	int64_t runs = 0, failures = 0, hangs = 0;
	char *reason, *err = NULL, *path;
	bool created;
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
	created = m->quarantine->text == NULL;
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
		/* A bad date is asked again; other refusals end here. */
		if (rc == -EINVAL && err != NULL && strncmp(err, "expires", 7) == 0) {
			ui_message(ui, true, _("%s: give another date"), err);
			decide_ask_expiry(ui, answer);
		} else {
			ui_message(ui, true, _("not quarantined: %s"),
			           err != NULL ? err : strerror(-rc));
		}
		free(err);
		return;
	}
	path = xstrdup(m->quarantine->path);
	model_load_quarantine(m, path, true);
	memset(&d, 0, sizeof d);
	d.test = ui->act_test;
	d.decision = "quarantined";
	d.channel = ui->act_channel;
	if (decide_record_decision(ui, &d) == 0) {
		/* u takes the entry back too. */
		ui->undo[ui->nundo - 1].qpath = xstrdup(path);
		ui->undo[ui->nundo - 1].qcreated = created;
	}
	ui_message(ui, false, _("quarantined %s (%s) until %s in %s; u takes it back"),
	           ui->act_test, ui->act_channel, answer, path);
	free(path);
	ui_select_undecided(ui);
	ui_dirty(ui, VIEW_DIRTY_ALL | UI_DIRTY_JUDGE);
}

static void
decide_ask_expiry(struct ui *ui, const char *def)
{
	ui_ask(ui, PROMPT_LINE, _("expires (YYYY-MM-DD):"), def, decide_expiry_done);
}

/* The URL of the selected test's post, when the decisions have one: the
 * issue a quarantine entry names by default. */
static const char *
decide_posted_url(const struct ui *ui)
{
	const struct model *m = ui->model;
	const struct decision *d = decisions_find(m->decisions, m->ndecisions, ui->act_test);
	size_t i;

	if (d != NULL && d->url != NULL)
		return d->url;
	for (i = 0; d != NULL && i < d->nhistory; i++) {
		if (d->history[i].url != NULL)
			return d->history[i].url;
	}
	return NULL;
}

/* The issue is known (typed, or the URL of the post the dialog made):
 * the expiry is the last question. */
static void
decide_issue_posted(struct ui *ui, const char *issue)
{
	char day[16];
	time_t t;
	struct tm tm;

	free(ui->act_issue);
	ui->act_issue = xstrdup(issue);
	t = (time_t)(util_now_ms() / 1000) + (time_t)DECIDE_EXPIRY_DAYS * 86400;
	gmtime_r(&t, &tm);
	strftime(day, sizeof day, "%Y-%m-%d", &tm);
	decide_ask_expiry(ui, day);
}

static void
decide_issue_done(void *arg, const char *answer)
{
	struct ui *ui = arg;

	if (answer == NULL) {
		ui_message(ui, false, "%s", _("quarantine cancelled"));
		return;
	}
	if (*answer == '\0') {
		ui_message(ui, true, "%s", _("an issue is needed: its URL or #number"));
		decide_ask_issue(ui, NULL);
		return;
	}
	if (strcmp(answer, "p") == 0 && decide_posted_url(ui) == NULL) {
		/* The post comes first; the entry names its URL. */
		ui->after_post = decide_issue_posted;
		ui_message(ui, false, "%s",
		           _("the quarantine entry is written once the post gives its URL"));
		decide_post(ui);
		return;
	}
	decide_issue_posted(ui, answer);
}

static void
decide_ask_issue(struct ui *ui, const char *def)
{
	ui_ask(ui, PROMPT_LINE,
	       def != NULL ? _("issue (URL or #number; the post's by default):")
	                   : _("issue (URL or #number; none yet? p posts the report first):"),
	       def, decide_issue_done);
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
	decide_ask_issue(ui, decide_posted_url(ui));
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
	const struct quarantine *q = ui->model->quarantine;
	struct quarantine_channel ch;
	size_t i;

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
	/* Already there: say so now, not after three more answers. */
	for (i = 0; q != NULL && i < q->nentries; i++) {
		const struct quarantine_entry *e = &q->entries[i];

		if (e->test != NULL && e->channel != NULL && strcmp(e->test, ui->act_test) == 0 &&
		    strcmp(e->channel, answer) == 0) {
			ui_message(ui, true, _("entry %d (line %d) already quarantines it for %s"),
			           e->index, e->line, answer);
			decide_ask_channel(ui, answer);
			return;
		}
	}
	free(ui->act_channel);
	ui->act_channel = xstrdup(answer);
	decide_ask_owner(ui, ui->act_owner);
}

static void
decide_ask_channel(struct ui *ui, const char *def)
{
	char *q = xasprintf(_("quarantine %s: channel:"), ui->act_test);

	ui_ask(ui, PROMPT_LINE, q, def, decide_channel_done);
	prompt_set_note(&ui->prompt,
	                _("channels: cpu=C,load=L (a pair), cpu=C, load=L, any, clock, rng, net, "
	                  "env:NAME"));
	free(q);
}

static void
decide_outside_done(void *arg, const char *answer)
{
	struct ui *ui = arg;
	char *channel;

	if (answer == NULL || strcmp(answer, "y") != 0) {
		ui_message(
		    ui, false, "%s",
		    _("quarantine cancelled: flakesweep view DIR --quarantine FILE names the "
		      "project's file"));
		return;
	}
	channel = model_worst_channel(decide_results_test(ui));
	decide_ask_channel(ui, channel);
	free(channel);
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
	if (!model_quarantine_in_project(ui->model)) {
		char *question = xasprintf(
		    _("%s does not exist and is not in the sweep's project (%s): create it?"),
		    q->path, ui->model->root != NULL ? ui->model->root : _("not on this machine"));

		ui_ask(ui, PROMPT_YESNO, question, NULL, decide_outside_done);
		free(question);
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
	if (decide_record(ui, ui->act_test, "dismissed", NULL, answer) == 0) {
		ui_message(ui, false, _("dismissed %s: %s; u takes it back"), ui->act_test, answer);
		ui_select_undecided(ui);
	}
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

/* In a view of several shards, the directory of the one live sweep that P
 * and S steer; NULL (said on the message line) when none or several are
 * live, or outside such a view. */
static const char *
decide_live_shard(struct ui *ui, bool *refused)
{
	const struct model *m = ui->model;
	const char *dir = NULL;
	size_t i, live = 0;

	*refused = false;
	if (m->nshards == 0)
		return NULL;
	for (i = 0; i < m->nshards; i++) {
		if (m->shards[i].state == MODEL_SHARD_LIVE) {
			dir = m->shards[i].dir;
			live++;
		}
	}
	if (live == 1)
		return dir;
	*refused = true;
	if (live == 0)
		ui_message(ui, false, "%s",
		           _("no sweep of this view is live here: nothing to pause or stop"));
	else
		ui_message(ui, true,
		           _("%zu sweeps are live in this view: pause or stop one in flakesweep "
		             "view DIR"),
		           live);
	return NULL;
}

void
decide_pause(struct ui *ui)
{
	bool paused = !ui->model->paused, refused;
	int rc;

	decide_live_shard(ui, &refused);
	if (refused)
		return;
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
	const char *dir;
	bool refused;
	char *q;

	dir = decide_live_shard(ui, &refused);
	if (refused)
		return;
	if (ui->src.stop == NULL && ui->src.interrupt == NULL) {
		ui_message(ui, false, "%s", _("this view only reads the journal: nothing to stop"));
		return;
	}
	if (ui->model->finished) {
		ui_message(ui, false, "%s", _("the sweep is over: nothing to stop"));
		return;
	}
	if (dir == NULL)
		dir = ui->model->outdir != NULL ? ui->model->outdir : "DIR";
	q = xasprintf(_("stop the sweep? (flakesweep --resume %s continues it)"), dir);
	ui_ask(ui, PROMPT_YESNO, q, NULL, decide_stop_done);
	free(q);
}

static void
decide_quit_done(void *arg, const char *answer)
{
	struct ui *ui = arg;

	if (answer != NULL && strcmp(answer, "y") == 0)
		ui_want(ui, UI_NEXT_QUIT, NULL, NULL);
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
	ui_want(ui, UI_NEXT_QUIT, NULL, NULL);
}
