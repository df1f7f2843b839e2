/* SPDX-License-Identifier: MIT */
/*
 * view-quarantine.c: the quarantine file's entries with their expiry
 * counting down every second and their status (active, stale, overdue,
 * unproven, invalid) judged again as results come in.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "view.h"

static enum draw_role
view_quarantine_role(enum quarantine_status s)
{
	switch (s) {
	case QUARANTINE_ACTIVE:
		return DRAW_WARN;
	case QUARANTINE_STALE:
		return DRAW_OK;
	case QUARANTINE_OVERDUE:
	case QUARANTINE_INVALID:
		return DRAW_BAD;
	case QUARANTINE_UNPROVEN:
		break;
	}
	return DRAW_DIM;
}

int
view_quarantine_rows(const struct view_ctx *c)
{
	const struct quarantine *q = c->m->quarantine;
	size_t n = q != NULL ? q->nentries : 0;

	return 1 + (n > 0 ? (int)n : 1);
}

/* The test id with its package shortened, as in the list. */
static char *
view_quarantine_test(const char *id)
{
	const char *sep = id != NULL ? strstr(id, "::") : NULL;
	char *pkg, *short_pkg, *s;

	if (sep == NULL)
		return xstrdup(id != NULL ? id : "?");
	pkg = xstrndup(id, (size_t)(sep - id));
	short_pkg = status_short_pkg(pkg);
	s = xasprintf("%s%s", short_pkg, sep);
	free(short_pkg);
	free(pkg);
	return s;
}

/* The countdown of e at now_ms: "expires in 2d 04:11:07" or "expired
 * 04:05:03 ago". */
static void
view_quarantine_when(const struct quarantine_entry *e, int64_t now_ms, char *out, size_t size)
{
	char cd[48];
	int64_t s;

	if (!e->valid) {
		snprintf(out, size, _("expires %s"), e->expires != NULL ? e->expires : "?");
		return;
	}
	s = quarantine_countdown_s(e, now_ms);
	quarantine_format_countdown(s > 0 ? s : -s, cd, sizeof cd);
	if (s > 0)
		snprintf(out, size, _("expires in %s"), cd);
	else
		snprintf(out, size, _("expired %s ago"), cd);
}

void
view_quarantine_draw(struct view_ctx *c, const struct view_rect *r, bool focused)
{
	const struct model *m = c->m;
	const struct quarantine *q = m->quarantine;
	struct view_state *st = c->st;
	char title[512], when[64], shown[64];
	int rows = r->h - 1, test_w = 8, chan_w = 7, when_w = 0, status_w = 0, i, fixed;
	size_t n = q != NULL ? q->nentries : 0, k;

	st->quarantine_rows = rows;
	st->quarantine_lines = n;
	if (rows > 0 && st->quarantine_top + (size_t)rows > n)
		st->quarantine_top = n > (size_t)rows ? n - (size_t)rows : 0;
	shown[0] = '\0';
	if (rows > 0 && n > (size_t)rows)
		snprintf(shown, sizeof shown, _(", %zu-%zu shown"), st->quarantine_top + 1,
		         st->quarantine_top + (size_t)rows);
	if (q != NULL && q->nerrors > 0)
		snprintf(title, sizeof title,
		         _("Quarantine (%zu%s, %s: %d errors, see flakesweep quarantine check)"), n,
		         shown, q->path, q->nerrors);
	else
		snprintf(title, sizeof title, _("Quarantine (%zu%s, %s)"), n, shown,
		         q != NULL ? q->path : "-");
	view_title(c, r->y, r->x, r->w, title, focused);
	if (rows <= 0)
		return;
	for (k = 0; k < n; k++) {
		const struct quarantine_entry *e = &q->entries[k];
		char *t = view_quarantine_test(e->test);
		int w = draw_width(c->d, t);

		if (w > test_w)
			test_w = w;
		w = e->channel != NULL ? draw_width(c->d, e->channel) : 1;
		if (w > chan_w)
			chan_w = w;
		view_quarantine_when(e, c->now_ms, when, sizeof when);
		w = draw_width(c->d, when);
		if (w > when_w)
			when_w = w;
		w = draw_width(c->d, quarantine_status_name(e->status));
		if (w > status_w)
			status_w = w;
		free(t);
	}
	if (chan_w > 20)
		chan_w = 20;
	/* The status and the countdown always show; the test name gives way. */
	fixed = 1 + chan_w + 2 + when_w + 2 + status_w + 2;
	if (test_w > r->w - fixed)
		test_w = r->w - fixed > 8 ? r->w - fixed : 8;
	for (i = 0; i < rows; i++) {
		size_t ei = st->quarantine_top + (size_t)i;
		int y = r->y + 1 + i, x = r->x + 1, end = r->x + r->w;
		const struct quarantine_entry *e;
		char *t;

		draw_fill(c->d, y, r->x, r->w, ' ', DRAW_NORMAL);
		if (ei >= n) {
			if (i == 0 && m->quarantine_error != NULL)
				draw_text(c->d, y, x, end - x, m->quarantine_error, DRAW_BAD, true);
			else if (i == 0)
				draw_text(c->d, y, x, end - x,
				          _("no entries: Q on a flaky test adds one"), DRAW_DIM,
				          true);
			continue;
		}
		e = &q->entries[ei];
		t = view_quarantine_test(e->test);
		draw_text(c->d, y, x, test_w, t, DRAW_NORMAL, true);
		free(t);
		x += test_w + 2;
		if (x < end)
			draw_text(c->d, y, x, end - x < chan_w ? end - x : chan_w,
			          e->channel != NULL ? e->channel : "?", DRAW_NORMAL, true);
		x += chan_w + 2;
		view_quarantine_when(e, c->now_ms, when, sizeof when);
		if (x < end)
			draw_text(c->d, y, x, end - x, when, DRAW_NORMAL, false);
		x += when_w + 2;
		if (x < end)
			draw_text(c->d, y, x, end - x, quarantine_status_name(e->status),
			          view_quarantine_role(e->status), false);
		x += status_w + 2;
		if (x < end && e->issue != NULL)
			x += draw_text(c->d, y, x, end - x, e->issue, DRAW_NORMAL, true) + 2;
		if (x < end && e->owner != NULL)
			draw_text(c->d, y, x, end - x, e->owner, DRAW_DIM, true);
	}
}
