/* SPDX-License-Identifier: MIT */
/*
 * view-bisect.c: bisect's board. The header names the test and what the
 * bisect is doing; a line gives the range still in doubt; the list shows
 * every commit from good to bad with its verdict, failures of runs and
 * subject, the one being probed marked and the range barred; at the end
 * the first bad commit, or the commits the evidence cannot separate. It
 * draws the copy of the bisect's last event and never runs anything.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "base/util.h"
#include "view.h"

static enum draw_role
view_bisect_role(enum bisect_state s)
{
	switch (s) {
	case BISECT_CLEAN:
		return DRAW_OK;
	case BISECT_FLAKY:
		return DRAW_BAD;
	case BISECT_SKIPPED:
	case BISECT_UNDECIDED:
		return DRAW_WARN;
	case BISECT_UNPROBED:
		break;
	}
	return DRAW_DIM;
}

static void
view_bisect_header(struct view_ctx *c, const struct view_bisect *vb, int cols)
{
	const struct bisect *b = &vb->b;
	char *s;

	draw_fill(c->d, 0, 0, cols, ' ', DRAW_HEADER);
	if (vb->finished)
		s = xasprintf(_(" bisect  %s  done"), vb->test);
	else if (vb->probing >= 0)
		s = xasprintf(_(" bisect  %s  probing %.12s"), vb->test,
		              b->commits[vb->probing].sha);
	else
		s = xasprintf(_(" bisect  %s  listing the commits"), vb->test);
	draw_text(c->d, 0, 0, cols, s, DRAW_HEADER, true);
	free(s);
}

/* The range line: what is known good and bad, and what is in doubt. */
static void
view_bisect_range(struct view_ctx *c, const struct view_bisect *vb, int y, int cols)
{
	const struct bisect *b = &vb->b;
	int64_t runs = 0, failures = 0;
	size_t i, probed = 0;
	char *s;

	for (i = 1; i + 1 < b->ncommits; i++) {
		if (b->commits[i].state == BISECT_UNPROBED)
			continue;
		probed++;
		runs += b->commits[i].runs;
		failures += b->commits[i].failures;
	}
	s = xasprintf(_("range %.12s..%.12s: %zu in doubt; %zu probed, %lld runs, %lld failed"),
	              b->commits[b->lo].sha, b->commits[b->hi].sha, b->hi - b->lo, probed,
	              (long long)runs, (long long)failures);
	draw_fill(c->d, y, 0, cols, ' ', DRAW_NORMAL);
	draw_text(c->d, y, 1, cols - 1, s, DRAW_NORMAL, true);
	free(s);
}

static void
view_bisect_row(struct view_ctx *c, const struct view_bisect *vb, size_t i, int y, int cols)
{
	const struct bisect_commit *k = &vb->b.commits[i];
	bool probing = (long)i == vb->probing && !vb->finished;
	bool doubt = i > vb->b.lo && i <= vb->b.hi;
	enum draw_role base = probing ? DRAW_SELECTED : DRAW_NORMAL;
	bool end = (i == 0 || i + 1 == vb->b.ncommits) && k->runs == 0;
	const char *state = probing ? _("probing") : bisect_state_name(k->state);
	char counts[64], rate[16];
	int x = 0;

	/* good and bad as given: nothing was run there. */
	if (end)
		state = i == 0 ? _("good") : _("bad");

	draw_fill(c->d, y, 0, cols, ' ', base);
	x += draw_text(c->d, y, x, cols - x, probing ? ">" : " ", base, false);
	x += draw_text(c->d, y, x, cols - x, doubt ? "|" : " ", doubt ? DRAW_BOLD : base, false);
	x += draw_text(c->d, y, x, cols - x, " ", base, false);
	draw_text(c->d, y, x, cols - x, state, probing ? base : view_bisect_role(k->state), false);
	x += 10;
	if (x >= cols)
		return;
	draw_text(c->d, y, x, cols - x < 12 ? cols - x : 12, k->sha, base, false);
	x += 13;
	counts[0] = '\0';
	if (k->runs > 0) {
		draw_percent((double)k->failures / (double)k->runs, rate, sizeof rate);
		snprintf(counts, sizeof counts, "%lld/%lld %s", (long long)k->failures,
		         (long long)k->runs, rate);
	} else if (k->state != BISECT_UNPROBED && !probing && !end) {
		snprintf(counts, sizeof counts, "0/0");
	}
	if (x < cols)
		draw_text(c->d, y, x, cols - x, counts, base, false);
	x += 16;
	if (x < cols)
		draw_text(c->d, y, x, cols - x, k->subject, base, true);
}

/* The last line before the hints: the answer once the bisect is over. */
static void
view_bisect_answer(struct view_ctx *c, const struct view_bisect *vb, int y, int cols)
{
	const struct bisect_commit *bad = bisect_first_bad(&vb->b);
	char *s;

	draw_fill(c->d, y, 0, cols, ' ', DRAW_NORMAL);
	if (!vb->finished)
		return;
	if (bad != NULL)
		s = xasprintf(_("first bad commit: %.12s %s"), bad->sha, bad->subject);
	else
		s = xasprintf(_("the evidence cannot separate the %zu commits after %.12s up to "
		                "%.12s"),
		              vb->b.hi - vb->b.lo, vb->b.commits[vb->b.lo].sha,
		              vb->b.commits[vb->b.hi].sha);
	draw_text(c->d, y, 1, cols - 1, s, bad != NULL ? DRAW_BOLD : DRAW_WARN, true);
	free(s);
}

void
view_bisect_draw(struct view_ctx *c, struct view_bisect *vb, int rows, int cols)
{
	static const int hints[] = {ACTION_HELP, ACTION_QUIT};
	const struct bisect *b = &vb->b;
	struct view_rect hint = {rows - 1, 0, 1, cols};
	char *title;
	int list_rows = rows - 5, row;

	if (rows < 6 || cols < 20)
		return;
	view_bisect_header(c, vb, cols);
	if (vb->listed)
		view_bisect_range(c, vb, 1, cols);
	title = xasprintf(_("Commits (%zu)"), b->ncommits);
	view_title(c, 2, 0, cols, title, true);
	free(title);
	/* Keep the commit being probed in sight. */
	if (vb->probing >= 0 && !vb->finished) {
		if ((size_t)vb->probing < vb->top)
			vb->top = (size_t)vb->probing;
		if ((size_t)vb->probing >= vb->top + (size_t)list_rows)
			vb->top = (size_t)vb->probing - (size_t)list_rows + 1;
	}
	if (b->ncommits <= (size_t)list_rows)
		vb->top = 0;
	else if (vb->top > b->ncommits - (size_t)list_rows)
		vb->top = b->ncommits - (size_t)list_rows;
	for (row = 0; row < list_rows; row++) {
		size_t i = vb->top + (size_t)row;

		if (i < b->ncommits)
			view_bisect_row(c, vb, i, 3 + row, cols);
		else
			draw_fill(c->d, 3 + row, 0, cols, ' ', DRAW_NORMAL);
	}
	view_bisect_answer(c, vb, rows - 2, cols);
	view_hints_draw(c, &hint, hints, UTIL_ARRAY_LEN(hints));
}
