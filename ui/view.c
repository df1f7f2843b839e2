/* SPDX-License-Identifier: MIT */
/*
 * view.c: lays the panes out on the screen and draws the dirty ones. The
 * layout follows the terminal: lanes on top, the flaky tests with the
 * detail beside them (or instead of them on a narrow screen), the
 * quarantine below, hints and messages at the bottom. A screen too small
 * for it keeps the header, the list and the message line, and says so.
 */
#include "config.h"

#include <string.h>

#include "action.h"
#include "base/util.h"
#include "view.h"

long
view_selected(const struct view_ctx *c)
{
	if (c->nvisible == 0 || c->st->selected >= c->nvisible)
		return -1;
	return (long)c->visible[c->st->selected];
}

static int
view_min(int a, int b)
{
	return a < b ? a : b;
}

static int
view_max(int a, int b)
{
	return a > b ? a : b;
}

void
view_layout(const struct view_ctx *c, int rows, int cols, struct view_layout *out)
{
	int body, lanes_h, lanes_max, quar_h, mid_h, y;

	memset(out, 0, sizeof *out);
	out->rows = rows;
	out->cols = cols;
	out->too_small = rows < VIEW_MIN_ROWS || cols < VIEW_MIN_COLS;
	out->header = (struct view_rect){0, 0, rows > 0 ? 1 : 0, cols};
	out->message = (struct view_rect){rows - 1, 0, rows > 1 ? 1 : 0, cols};
	if (out->too_small) {
		/* What fits: the header, the flaky tests, the message line. */
		if (rows >= 4)
			out->tests = (struct view_rect){1, 0, rows - 2, cols};
		if (rows >= 4)
			out->overlay = out->tests;
		return;
	}
	out->hints = (struct view_rect){rows - 2, 0, 1, cols};
	body = rows - 3;
	/* A lane opened to its runs may take half the body. */
	lanes_max =
	    view_max(c->st->lane_open && c->st->focus == VIEW_PANE_LANES ? body / 2 : body / 5, 1);
	lanes_h = 1 + view_min(view_lanes_rows(c, cols, lanes_max), lanes_max);
	quar_h = view_min(view_quarantine_rows(c), 1 + view_max(body / 6, 1));
	mid_h = body - lanes_h - quar_h;
	y = 1;
	out->lanes = (struct view_rect){y, 0, lanes_h, cols};
	y += lanes_h;
	out->split = cols >= VIEW_SPLIT_COLS;
	if (out->split) {
		int lw = cols * 9 / 20;

		out->tests = (struct view_rect){y, 0, mid_h, lw};
		out->detail = (struct view_rect){y, lw, mid_h, cols - lw};
	} else if (c->st->focus == VIEW_PANE_DETAIL) {
		out->detail = (struct view_rect){y, 0, mid_h, cols};
	} else {
		out->tests = (struct view_rect){y, 0, mid_h, cols};
	}
	y += mid_h;
	out->quarantine = (struct view_rect){y, 0, quar_h, cols};
	out->overlay = (struct view_rect){1, 0, body, cols};
}

void
view_cpuset(struct buf *b, const char *cpuset)
{
	const char *p;

	for (p = cpuset; *p != '\0'; p++) {
		if (p == cpuset || p[-1] == ',')
			buf_addc(b, 'c');
		buf_addc(b, *p);
	}
}

void
view_title(struct view_ctx *c, int y, int x, int w, const char *title, bool focused)
{
	enum draw_role role = focused ? DRAW_TITLE_FOCUS : DRAW_TITLE;
	char fill = focused ? '=' : '-';
	int used;

	if (w <= 0)
		return;
	draw_fill(c->d, y, x, 1, fill, role);
	used = 1;
	if (w > 2) {
		draw_fill(c->d, y, x + 1, 1, ' ', role);
		used = 2 + draw_text(c->d, y, x + 2, w - 3, title, role, true);
	}
	if (used < w) {
		draw_fill(c->d, y, x + used, 1, ' ', role);
		used++;
	}
	draw_fill(c->d, y, x + used, w - used, fill, role);
}

void
view_overlay_doc(struct view_ctx *c, const struct view_rect *r, struct doc *doc)
{
	struct view_state *st = c->st;
	struct doc wrapped;
	int rows = r->h - 1;

	doc_wrap(doc, c->d, r->w - 1, &wrapped);
	st->overlay_rows = rows;
	st->overlay_lines = wrapped.nlines;
	if (rows > 0) {
		if (st->overlay_top + (size_t)rows > wrapped.nlines)
			st->overlay_top =
			    wrapped.nlines > (size_t)rows ? wrapped.nlines - (size_t)rows : 0;
		doc_draw(&wrapped, c->d, r->y + 1, r->x, rows, r->w, st->overlay_top);
	}
	doc_free(&wrapped);
	doc_free(doc);
}

static void
view_clear(struct view_ctx *c, const struct view_rect *r)
{
	int i;

	for (i = 0; i < r->h; i++)
		draw_fill(c->d, r->y + i, r->x, r->w, ' ', DRAW_NORMAL);
}

void
view_draw(struct view_ctx *c, const struct view_layout *l, unsigned mask)
{
	const struct view_state *st = c->st;

	if (l->rows <= 0 || l->cols <= 0)
		return;
	if (mask & VIEW_DIRTY_HEADER)
		view_header_draw(c, &l->header);
	if (st->overlay != VIEW_OVERLAY_NONE && l->overlay.h > 0) {
		if (mask & (VIEW_DIRTY_OVERLAY | VIEW_DIRTY_TESTS | VIEW_DIRTY_DETAIL)) {
			view_clear(c, &l->overlay);
			if (st->overlay == VIEW_OVERLAY_HELP)
				view_help_draw(c, &l->overlay);
			else if (st->overlay == VIEW_OVERLAY_LOG)
				view_log_draw(c, &l->overlay);
			else
				view_post_draw(c, &l->overlay);
		}
	} else {
		if ((mask & VIEW_DIRTY_LANES) && l->lanes.h > 0)
			view_lanes_draw(c, &l->lanes, st->focus == VIEW_PANE_LANES);
		if ((mask & VIEW_DIRTY_TESTS) && l->tests.h > 0)
			view_tests_draw(c, &l->tests, st->focus == VIEW_PANE_TESTS || l->too_small);
		if ((mask & VIEW_DIRTY_DETAIL) && l->detail.h > 0)
			view_detail_draw(c, &l->detail, st->focus == VIEW_PANE_DETAIL);
		if ((mask & VIEW_DIRTY_QUARANTINE) && l->quarantine.h > 0)
			view_quarantine_draw(c, &l->quarantine, st->focus == VIEW_PANE_QUARANTINE);
	}
	if (mask & VIEW_DIRTY_STATUS)
		view_status_draw(c, l);
}

void
view_move(size_t *at, enum action_id a, size_t page, size_t max)
{
	switch (a) {
	case ACTION_DOWN:
		(*at)++;
		break;
	case ACTION_UP:
		if (*at > 0)
			(*at)--;
		break;
	case ACTION_PAGE_DOWN:
		*at += page;
		break;
	case ACTION_PAGE_UP:
		*at = *at > page ? *at - page : 0;
		break;
	case ACTION_TOP:
		*at = 0;
		break;
	case ACTION_BOTTOM:
		*at = max;
		break;
	default:
		return;
	}
	if (*at > max)
		*at = max;
}
