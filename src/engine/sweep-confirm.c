/* SPDX-License-Identifier: MIT */
/*
 * sweep-confirm.c: confirm runs asked for on demand (the dashboard, the
 * control socket): journaled as a confirm line and handed to the
 * scheduler core; a sweep that ended complete comes back for them, its
 * timers and control socket with it. It never starts a run itself.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "engine/sched-core.h"
#include "engine/sweep-int.h"
#include "results/journal.h"

/* A finished sweep runs again for confirm runs of t: its timers and
 * control socket come back, the journal says it resumed, and a confirm
 * phase starts with none of the earlier runs counted in its plan. */
static int
sweep_reopen(struct sweep *s, const struct results_test *t)
{
	const struct pkg *pkg = s->pkgs[t->pkg];
	struct stat st;

	if (s->end_status == NULL || strcmp(s->end_status, "complete") != 0 || s->journal_blocked)
		return -EAGAIN;
	if (pkg->binary != NULL && access(pkg->binary, X_OK) < 0)
		return -ENOEXEC;
	if (s->proj.root != NULL && (stat(s->proj.root, &st) < 0 || !S_ISDIR(st.st_mode)))
		return -ENOTDIR;
	if (s->timers_closing > 0)
		return 0;
	s->finished = s->interrupting = s->stopped = false;
	s->end_status = NULL;
	s->finished_ms = 0;
	s->exit_status = 0;
	sweep_init_timers(s);
	sweep_start_timers(s);
	sweep_resume_line(s);
	sched_core_reopen(s->core);
	return 0;
}

int
sweep_confirm_now(struct sweep *s, const struct results_test *t, int count)
{
	cJSON *line;
	int rc;

	if (s->finished) {
		rc = sweep_reopen(s, t);
		if (rc < 0)
			return rc;
		if (s->finished) {
			/* The end's timers are still closing: the last one
			 * calls back. */
			if (s->reopen_test != NULL)
				return -EAGAIN;
			s->reopen_test = xstrdup(t->id);
			s->reopen_count = count;
			return 0;
		}
	} else if (s->interrupting) {
		return -EAGAIN;
	} else if (sweep_sched(s) == NULL) {
		return -ENOENT;
	}
	line = cJSON_CreateObject();
	cJSON_AddStringToObject(line, "type", "confirm");
	cJSON_AddStringToObject(line, "test", t->id);
	cJSON_AddNumberToObject(line, "count", count);
	sweep_journal_check(s, journal_write(s->journal, line));
	cJSON_Delete(line);
	sched_core_confirm(s->core, t, s->pkgs[t->pkg]->level, count);
	sweep_drive(s);
	return 0;
}

int
sweep_confirm(struct sweep *s, const char *test_id, int count)
{
	const struct results_test *t = results_find(s->results, test_id);

	if (t == NULL || count <= 0 || t->pkg < 0 || (size_t)t->pkg >= s->npkgs)
		return -ENOENT;
	return sweep_confirm_now(s, t, count);
}

const char *
sweep_confirm_strerror(int rc)
{
	switch (rc) {
	case -EAGAIN:
		return _("the sweep did not complete (or is ending): flakesweep --resume DIR "
		         "continues it first");
	case -ENOEXEC:
		return _("its test binary is not on this machine any more");
	case -ENOTDIR:
		return _("the project's directory is not on this machine any more");
	default:
		return _("the sweep never ran it (or has not begun its runs)");
	}
}
