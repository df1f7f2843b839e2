/* SPDX-License-Identifier: MIT */
/*
 * view-status.c: the two bottom lines: the hints (the action table's keys
 * that have a label and work now, most needed first) and the message line, which shows a question
 * being asked, else a note that the terminal is too small, else the last message, else which sweep
 * this is: output directory, commit, start.
 */
#include "config.h"

#include <stdlib.h>

#include <stdio.h>
#include <string.h>

#include "action.h"
#include "base/timefmt.h"
#include "base/util.h"
#include "view.h"

/* Whether action id is one of only. */
static bool
view_status_shown(int id, const int *only, size_t nonly)
{
	size_t i;

	for (i = 0; i < nonly; i++) {
		if (only[i] == id)
			return true;
	}
	return false;
}

void
view_hints_draw(struct view_ctx *c, const struct view_rect *r, const int *only, size_t nonly)
{
	const struct action *a;
	size_t n, i;
	int x = r->x + 1, end = r->x + r->w, rank;

	draw_fill(c->d, r->y, r->x, r->w, ' ', DRAW_NORMAL);
	a = action_table(&n);
	for (rank = 1; rank <= (int)n; rank++) {
		for (i = 0; i < n; i++) {
			char key[32];
			const char *label;
			int need;

			if (a[i].hint == NULL || a[i].hint_rank != rank ||
			    !(only != NULL ? view_status_shown((int)a[i].id, only, nonly)
			                   : (c->actions & ACTION_BIT(a[i].id)) != 0))
				continue;
			snprintf(key, sizeof key, "%.*s", (int)strcspn(a[i].names, ","),
			         a[i].names);
			label = _(a[i].hint);
			need = draw_width(c->d, key) + 1 + draw_width(c->d, label);
			if (x + need > end)
				return;
			x += draw_text(c->d, r->y, x, end - x, key, DRAW_KEY, false);
			x += draw_text(c->d, r->y, x, end - x, " ", DRAW_NORMAL, false);
			x += draw_text(c->d, r->y, x, end - x, label, DRAW_NORMAL, false);
			x += 2;
		}
	}
}

/* Which sweep this is: "results in DIR @COMMIT, started 2026-12-01
 * 03:00 UTC". */
static void
view_status_where(struct view_ctx *c, int y, int x, int w)
{
	const struct model *m = c->m;
	char started[40], *text;

	if (m->outdir == NULL || m->started_ms <= 0)
		return;
	timefmt_format_rfc3339(m->started_ms, started, sizeof started);
	started[10] = ' ';
	started[16] = '\0';
	text =
	    xasprintf(_("results in %s%s%.7s, started %s UTC"), m->outdir,
	              m->commit != NULL ? " @" : "", m->commit != NULL ? m->commit : "", started);
	draw_text(c->d, y, x, w, text, DRAW_DIM, true);
	free(text);
}

/* The question and the answer being edited from column x: the text before
 * the cursor, the cursor (a cell in reverse video), the rest; a default
 * not yet touched shows dim, as typing replaces it. An error that has no
 * hints line to go to follows the answer. */
static void
view_status_answer(struct view_ctx *c, const struct view_rect *r, int x, const struct prompt *pr,
                   bool error_above)
{
	const char *answer = pr->text.data != NULL ? pr->text.data : "";
	size_t cur = pr->cursor <= pr->text.len ? pr->cursor : pr->text.len, n;
	int end = r->x + r->w;
	char *before = xstrndup(answer, cur), *at;
	enum draw_role role = pr->fresh ? DRAW_DIM : DRAW_NORMAL;

	x += draw_text(c->d, r->y, x, end - x, pr->question, DRAW_PROMPT, false);
	x += draw_text(c->d, r->y, x, end - x, " ", DRAW_NORMAL, false);
	/* Keep the cursor in sight: an answer too long shows its end. */
	x += draw_text(c->d, r->y, x, end - x - 1, before, role, false);
	free(before);
	n = 1;
	while (cur + n < pr->text.len && ((unsigned char)answer[cur + n] & 0xc0) == 0x80)
		n++;
	at = cur < pr->text.len ? xstrndup(answer + cur, n) : xstrdup(" ");
	if (x < end)
		x += draw_text(c->d, r->y, x, 1, at, DRAW_SELECTED, false);
	free(at);
	if (cur < pr->text.len && x < end)
		x += draw_text(c->d, r->y, x, end - x, answer + cur + n, role, true);
	if (pr->error != NULL && !error_above && x + 3 < end) {
		x += draw_text(c->d, r->y, x, end - x, "  ", DRAW_NORMAL, false);
		draw_text(c->d, r->y, x, end - x, pr->error, DRAW_ERROR, true);
	}
}

void
view_status_draw(struct view_ctx *c, const struct view_layout *l)
{
	const struct view_state *st = c->st;
	const struct view_rect *r = &l->message;
	int x = r->x, end = r->x + r->w;

	const struct prompt *pr = st->prompt;
	bool error_above = pr != NULL && pr->active && pr->error != NULL && l->hints.h > 0;

	/* An error beside a question asked again takes the hints line. */
	if (error_above) {
		draw_fill(c->d, l->hints.y, l->hints.x, l->hints.w, ' ', DRAW_NORMAL);
		draw_text(c->d, l->hints.y, l->hints.x + 1, l->hints.w - 1, pr->error, DRAW_ERROR,
		          true);
	} else if (pr != NULL && pr->active && pr->note != NULL && l->hints.h > 0) {
		/* What the answer may be takes the hints line. */
		draw_fill(c->d, l->hints.y, l->hints.x, l->hints.w, ' ', DRAW_NORMAL);
		draw_text(c->d, l->hints.y, l->hints.x + 1, l->hints.w - 1, pr->note, DRAW_DIM,
		          true);
	} else if (l->hints.h > 0) {
		view_hints_draw(c, &l->hints, NULL, 0);
	}
	if (r->h <= 0)
		return;
	draw_fill(c->d, r->y, r->x, r->w, ' ', DRAW_NORMAL);
	if (st->prompt != NULL && st->prompt->active) {
		if (st->prompt->kind == PROMPT_YESNO) {
			/* The answer keys always show: the question gives way. */
			const char *keys = _(" (y/n)");
			size_t n = mbstowcs(NULL, keys, 0);
			int keep = n == (size_t)-1 ? (int)strlen(keys) : (int)n;

			if (keep > end - x)
				keep = end - x;
			x += draw_text(c->d, r->y, x, end - x - keep, st->prompt->question,
			               DRAW_PROMPT, false);
			x += draw_text(c->d, r->y, x, end - x, keys, DRAW_PROMPT, false);
		} else {
			view_status_answer(c, r, x, pr, error_above);
		}
		return;
	}
	if (l->too_small && !(st->message != NULL && st->message_small)) {
		char note[128];

		/* The longest note that fits. */
		snprintf(note, sizeof note,
		         _("terminal too small (%dx%d): the dashboard needs %dx%d"), l->cols,
		         l->rows, VIEW_MIN_COLS, VIEW_MIN_ROWS);
		if (draw_width(c->d, note) > end - x)
			snprintf(note, sizeof note, _("too small: %dx%d, need %dx%d"), l->cols,
			         l->rows, VIEW_MIN_COLS, VIEW_MIN_ROWS);
		if (draw_width(c->d, note) > end - x)
			snprintf(note, sizeof note, _("need %dx%d"), VIEW_MIN_COLS, VIEW_MIN_ROWS);
		draw_text(c->d, r->y, x, end - x, note, DRAW_ERROR, true);
		return;
	}
	if (st->message != NULL)
		draw_text(c->d, r->y, x, end - x, st->message,
		          st->message_error ? DRAW_ERROR : DRAW_MESSAGE, true);
	else
		view_status_where(c, r->y, x, end - x);
}
