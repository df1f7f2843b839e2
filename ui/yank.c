/* SPDX-License-Identifier: MIT */
/*
 * yank.c: the keys that hand the selected test's facts to the rest of the
 * desk: y copies its reproduce command, its direct command, its post's
 * URL or its id to the clipboard (OSC 52; y again copies the next), and o
 * opens its first failure's log in $PAGER. It decides nothing and writes
 * no file.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clipboard.h"
#include "ui-int.h"
#include "base/util.h"

/* What y can copy, in the order it copies them. */
enum yank_item {
	YANK_REPRODUCE,
	YANK_DIRECT,
	YANK_URL,
	YANK_ID,
	YANK_ITEMS,
};

static const char *
yank_label(enum yank_item i)
{
	switch (i) {
	case YANK_REPRODUCE:
		return _("the reproduce command");
	case YANK_DIRECT:
		return _("the direct command");
	case YANK_URL:
		return _("the post's URL");
	default:
		return _("the test id");
	}
}

/* The text of item i for test k of the model, or NULL when it has none. */
static const char *
yank_text(struct ui *ui, size_t k, enum yank_item i)
{
	const struct model_test *mt = &ui->model->tests[k];
	const struct decision *d;
	const char *fs = "", *direct = "";

	switch (i) {
	case YANK_REPRODUCE:
	case YANK_DIRECT:
		if (ui->src.reproduce != NULL)
			ui->src.reproduce(ui->src.arg, ui->model, k, &fs, &direct);
		fs = i == YANK_REPRODUCE ? fs : direct;
		return fs != NULL && *fs != '\0' ? fs : NULL;
	case YANK_URL:
		d = decisions_find(ui->model->decisions, ui->model->ndecisions, mt->id);
		return d != NULL ? d->url : NULL;
	default:
		return mt->id;
	}
}

void
yank_copy(struct ui *ui)
{
	const struct model_test *mt = ui_selected_test(ui);
	size_t k;
	int i, next, tries;
	const char *text = NULL;

	if (mt == NULL) {
		ui_message(ui, false, "%s", _("no flaky test selected: nothing to copy"));
		return;
	}
	k = ui->visible[ui->st.selected];
	if (ui->yank_test == NULL || strcmp(ui->yank_test, mt->id) != 0) {
		free(ui->yank_test);
		ui->yank_test = xstrdup(mt->id);
		ui->yank_next = YANK_REPRODUCE;
	}
	/* The next item the test has (it always has an id). */
	for (i = ui->yank_next, tries = 0; tries < YANK_ITEMS; tries++, i = (i + 1) % YANK_ITEMS) {
		text = yank_text(ui, k, (enum yank_item)i);
		if (text != NULL)
			break;
	}
	if (clipboard_copy(ui->cfg.out, text) < 0) {
		ui_message(ui, true, "%s", _("cannot write to the terminal: nothing copied"));
		return;
	}
	for (next = (i + 1) % YANK_ITEMS; yank_text(ui, k, (enum yank_item)next) == NULL;)
		next = (next + 1) % YANK_ITEMS;
	ui->yank_next = next;
	ui_message(ui, false, _("copied %s to the clipboard (OSC 52); y again copies %s"),
	           yank_label((enum yank_item)i), yank_label((enum yank_item)next));
}

static void
yank_pager_done(void *arg, int status)
{
	struct ui *ui = arg;

	if (status == 127)
		ui_message(ui, true, "%s", _("cannot run the pager: set PAGER"));
	else if (status > 0)
		ui_message(ui, true, _("the pager exited with status %d"), status);
}

void
yank_open_log(struct ui *ui)
{
	const struct model_test *mt = ui_selected_test(ui);
	const struct results_test *t;
	struct stat st;
	char *path;

	if (mt == NULL) {
		ui_message(ui, false, "%s", _("no flaky test selected: no log to open"));
		return;
	}
	t = model_results_test(ui->model, ui->visible[ui->st.selected]);
	if (t == NULL || t->first == NULL || t->first->log == NULL || ui->model->outdir == NULL) {
		ui_message(ui, false, _("no log was kept of %s's first failure"), mt->name);
		return;
	}
	path = t->first->log[0] == '/' ? xstrdup(t->first->log)
	                               : xasprintf("%s/%s", ui->model->outdir, t->first->log);
	if (stat(path, &st) < 0) {
		ui_message(ui, true, _("cannot open %s: %s"), path, strerror(errno));
		free(path);
		return;
	}
	ui_want(ui, UI_NEXT_PAGER, path, yank_pager_done);
	free(path);
}
