/* SPDX-License-Identifier: MIT */
/*
 * ui-state.c: the dashboard's state that the loop (ui.c, ui-keys.c) and
 * the actions (decide.c, yank.c) share: the dirty bits, the message line,
 * the question asked on it, the tests listed and the selection, and what
 * an action asks of the loop once it returns (quit, or hand the terminal
 * to the editor or the pager). It calls no action and nothing of the
 * loop: the loop calls the actions, and the actions call this.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"
#include "base/util.h"

void
ui_dirty(struct ui *ui, unsigned mask)
{
	ui->dirty |= mask;
}

void
ui_message(struct ui *ui, bool error, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		fatal("%s", _("out of memory"));
	va_end(ap);
	free(ui->st.message);
	ui->st.message = s;
	ui->st.message_error = error;
	ui->st.message_small = false;
	ui->error_now = error;
	ui_dirty(ui, VIEW_DIRTY_STATUS);
}

void
ui_ask(struct ui *ui, enum prompt_kind kind, const char *question, const char *def,
       prompt_done_cb done)
{
	prompt_start(&ui->prompt, kind, question, def, done, ui);
	/* Asked again after an error: the error stays beside the question. */
	if (ui->error_now && ui->st.message != NULL)
		prompt_set_error(&ui->prompt, ui->st.message);
	ui_dirty(ui, VIEW_DIRTY_ALL);
}

const struct model_test *
ui_selected_test(struct ui *ui)
{
	if (ui->st.selected >= ui->nvisible)
		return NULL;
	return &ui->model->tests[ui->visible[ui->st.selected]];
}

/* Orders two visible tests by the list's sort key, as listed on a tie. */
static int
ui_cmp_visible(const void *a, const void *b, void *arg)
{
	const struct ui *ui = arg;
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	const struct model_test *x = &ui->model->tests[ia], *y = &ui->model->tests[ib];
	int c = 0;

	if (ui->st.sort == VIEW_SORT_RATE) {
		/* (fx / rx) > (fy / ry), without dividing. */
		double l = (double)(x->failures + x->hangs) * (double)(y->runs > 0 ? y->runs : 1);
		double r = (double)(y->failures + y->hangs) * (double)(x->runs > 0 ? x->runs : 1);

		c = l > r ? -1 : l < r;
	} else if (ui->st.sort == VIEW_SORT_NAME) {
		c = strcmp(x->pkg, y->pkg);
		if (c == 0)
			c = strcmp(x->name, y->name);
	}
	return c != 0 ? c : ia < ib ? -1 : ia > ib;
}

/* The tests that pass the filter in the list's order, and the selection
 * kept on the same test when the list changed order. */
void
ui_visible(struct ui *ui)
{
	const struct model *m = ui->model;
	const char *f = ui->st.filter;
	size_t i;

	free(ui->visible);
	ui->visible = xcalloc(m->ntests + 1, sizeof *ui->visible);
	ui->nvisible = 0;
	for (i = 0; i < m->ntests; i++) {
		if (f == NULL || *f == '\0' || strcasestr(m->tests[i].id, f) != NULL)
			ui->visible[ui->nvisible++] = i;
	}
	if (ui->st.sort != VIEW_SORT_LISTED)
		qsort_r(ui->visible, ui->nvisible, sizeof *ui->visible, ui_cmp_visible, ui);
	if (ui->st.selected_id != NULL) {
		for (i = 0; i < ui->nvisible; i++) {
			if (strcmp(m->tests[ui->visible[i]].id, ui->st.selected_id) == 0) {
				ui->st.selected = i;
				break;
			}
		}
	}
	if (ui->st.selected >= ui->nvisible)
		ui->st.selected = ui->nvisible > 0 ? ui->nvisible - 1 : 0;
	free(ui->st.selected_id);
	ui->st.selected_id =
	    ui->nvisible > 0 ? xstrdup(m->tests[ui->visible[ui->st.selected]].id) : NULL;
}

void
ui_select_undecided(struct ui *ui)
{
	size_t i;

	ui_visible(ui);
	for (i = 0; i < ui->nvisible; i++) {
		if (ui->model->tests[ui->visible[i]].undecided) {
			ui->st.selected = i;
			ui->st.detail_top = 0;
			free(ui->st.selected_id);
			ui->st.selected_id = xstrdup(ui->model->tests[ui->visible[i]].id);
			break;
		}
	}
	ui_dirty(ui, VIEW_DIRTY_TESTS | VIEW_DIRTY_DETAIL);
}

void
ui_want(struct ui *ui, enum ui_next next, const char *path, editor_done_cb done)
{
	ui->next = next;
	free(ui->next_path);
	ui->next_path = path != NULL ? xstrdup(path) : NULL;
	ui->next_done = done;
}
