/* SPDX-License-Identifier: MIT */
/*
 * decide-record.c: what every deciding key shares: the selected test it
 * acts on, and the record of a decision in the project's decisions file,
 * remembered for u.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"
#include "base/util.h"

const struct model_test *
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

int
decide_record_decision(struct ui *ui, const struct decision *d)
{
	const char *project = model_decisions_path(ui->model);
	struct ui_undo *u;
	char *path;
	int rc;

	if (project != NULL) {
		char *dir;

		path = xstrdup(project);
		/* .flakesweep/ may not be there yet. */
		dir = xstrndup(path, (size_t)(strrchr(path, '/') - path));
		util_mkdir_p(dir);
		free(dir);
	} else if (ui->model->outdir != NULL)
		path = xasprintf("%s/%s", ui->model->outdir, DECISIONS_FILE);
	else
		return -ENOENT;
	rc = decisions_record_one(path, d, util_now_ms());
	if (rc < 0) {
		char *why = decisions_error(path, rc);

		ui_message(ui, true, _("cannot record the decision: %s"), why);
		free(why);
		free(path);
	} else {
		ui->undo = xrealloc(ui->undo, sizeof *ui->undo * (ui->nundo + 1));
		u = &ui->undo[ui->nundo++];
		memset(u, 0, sizeof *u);
		u->test = xstrdup(d->test);
		u->path = path;
	}
	model_load_decisions(ui->model);
	ui_dirty(ui, VIEW_DIRTY_TESTS | VIEW_DIRTY_DETAIL);
	return rc;
}

int
decide_record(struct ui *ui, const char *test, const char *decision, const char *url,
              const char *reason)
{
	struct decision d;

	memset(&d, 0, sizeof d);
	d.test = (char *)test;
	d.decision = (char *)decision;
	d.url = (char *)url;
	d.reason = (char *)reason;
	return decide_record_decision(ui, &d);
}
