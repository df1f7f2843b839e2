/* SPDX-License-Identifier: MIT */
/*
 * view-compare.c: compare's board. The header counts the verdicts; the
 * list gives each test's verdict and its decisive pair's counts before and
 * after; under it the selected test's verdict in words, then its before
 * and after heatmaps side by side, drawn by view-heatmap.c so they read as
 * the dashboard's do. It never changes the comparison.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "base/util.h"
#include "view.h"

/* The verdict's role: good news green, bad news red. */
static enum draw_role
view_compare_role(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_FIXED:
		return DRAW_OK;
	case COMPARE_WORSE:
	case COMPARE_NEW:
		return DRAW_BAD;
	case COMPARE_RARER:
	case COMPARE_INCONCLUSIVE:
	case COMPARE_NOT_RUN:
	case COMPARE_MASKED:
	case COMPARE_SKIPPED:
		return DRAW_WARN;
	case COMPARE_UNCHANGED:
		break;
	}
	return DRAW_NORMAL;
}

static void
view_compare_header(struct view_ctx *c, const struct view_compare *vc, int cols)
{
	int counts[COMPARE_VERDICTS] = {0}, x, v;
	size_t i;
	char *s;

	for (i = 0; i < vc->cmp->ntests; i++)
		counts[vc->cmp->tests[i].verdict]++;
	draw_fill(c->d, 0, 0, cols, ' ', DRAW_HEADER);
	/* The counts first: the paths may be long. */
	s = xasprintf(_(" compare  %zu tests:"), vc->cmp->ntests);
	x = draw_text(c->d, 0, 0, cols, s, DRAW_HEADER, true);
	free(s);
	for (v = 0; v < COMPARE_VERDICTS && x < cols; v++) {
		if (counts[v] == 0)
			continue;
		s = xasprintf(" %d %s", counts[v], compare_verdict_name(v));
		x += draw_text(c->d, 0, x, cols - x, s, DRAW_HEADER, true);
		free(s);
	}
	if (x < cols) {
		s = xasprintf("   %s -> %s", vc->before_name, vc->after_name);
		draw_text(c->d, 0, x, cols - x, s, DRAW_HEADER, true);
		free(s);
	}
}

/* "7/50" of one side at the decisive pair, or "-" when not run. */
static void
view_compare_counts(const struct compare_counts *n, char *out, size_t size)
{
	if (n->runs == 0)
		snprintf(out, size, "-");
	else
		snprintf(out, size, "%lld/%lld", (long long)n->failures, (long long)n->runs);
}

static void
view_compare_list(struct view_ctx *c, struct view_compare *vc, const struct view_rect *r)
{
	const struct compare *cmp = vc->cmp;
	char *title = xasprintf(_("Tests (%zu)"), cmp->ntests);
	int rows = r->h - 1, row;

	view_title(c, r->y, r->x, r->w, title, true);
	free(title);
	if (vc->selected < vc->list_top)
		vc->list_top = vc->selected;
	if (rows > 0 && vc->selected >= vc->list_top + (size_t)rows)
		vc->list_top = vc->selected - (size_t)rows + 1;
	for (row = 0; row < rows; row++) {
		size_t i = vc->list_top + (size_t)row;
		const struct compare_test *t;
		enum draw_role base;
		char b[48], a[48], *counts;
		int x = r->x, y = r->y + 1 + row, end = r->x + r->w, cw;

		draw_fill(c->d, y, r->x, r->w, ' ', DRAW_NORMAL);
		if (i >= cmp->ntests)
			continue;
		t = &cmp->tests[i];
		base = i == vc->selected ? DRAW_SELECTED : DRAW_NORMAL;
		if (base == DRAW_SELECTED)
			draw_fill(c->d, y, r->x, r->w, ' ', base);
		x += draw_text(c->d, y, x, end - x, " ", base, false);
		x += draw_text(c->d, y, x, 13, compare_verdict_name(t->verdict),
		               base == DRAW_SELECTED ? base : view_compare_role(t->verdict), false);
		x = r->x + 14;
		if (t->decisive >= 0) {
			view_compare_counts(&t->pairs[t->decisive].before, b, sizeof b);
			view_compare_counts(&t->pairs[t->decisive].after, a, sizeof a);
			counts = xasprintf("%s -> %s", b, a);
		} else {
			counts = xstrdup("");
		}
		cw = draw_width(c->d, counts);
		draw_text(c->d, y, x, end - x - cw - 2, t->id, base, true);
		if (end - cw - 1 > x)
			draw_text(c->d, y, end - cw - 1, cw, counts, base, false);
		free(counts);
	}
}

/* One side's heatmaps of the test with this id, or why there are none. */
static void
view_compare_side(struct view_ctx *c, const struct results *r, const char *id, const char *name,
                  const struct view_rect *rect)
{
	const struct results_test *t = r != NULL ? results_find(r, id) : NULL;
	struct doc doc, wrapped;

	view_title(c, rect->y, rect->x, rect->w, name, false);
	doc_init(&doc);
	if (t == NULL) {
		doc_line(&doc, 0, false);
		doc_span(&doc, DRAW_DIM, _("not run"));
	} else {
		view_heatmap_table(c, &doc, t, rect->w - 1, false);
	}
	doc_wrap(&doc, c->d, rect->w - 1, &wrapped);
	doc_draw(&wrapped, c->d, rect->y + 1, rect->x, rect->h - 1, rect->w - 1, 0);
	doc_free(&wrapped);
	doc_free(&doc);
}

void
view_compare_draw(struct view_ctx *c, struct view_compare *vc, int rows, int cols)
{
	static const int hints[] = {ACTION_HELP, ACTION_QUIT};
	const struct compare_test *t = NULL;
	struct view_rect list, left, right, hint;
	int list_h, body = rows - 2, y, half = cols / 2;
	char *line, *name;

	if (rows < 6 || cols < 20)
		return;
	view_compare_header(c, vc, cols);
	list_h = (int)vc->cmp->ntests + 1;
	if (list_h > body / 3 + 1)
		list_h = body / 3 + 1;
	if (list_h < 2)
		list_h = 2;
	list = (struct view_rect){1, 0, list_h, cols};
	view_compare_list(c, vc, &list);
	y = 1 + list_h;
	if (vc->selected < vc->cmp->ntests)
		t = &vc->cmp->tests[vc->selected];
	/* The verdict in words: compare's own line for this test. */
	draw_fill(c->d, y, 0, cols, ' ', DRAW_NORMAL);
	if (t != NULL) {
		char *ids[1] = {t->id};

		line = compare_to_text(vc->cmp, ids, 1);
		line[strcspn(line, "\n")] = '\0';
		draw_text(c->d, y, 1, cols - 1, line, DRAW_BOLD, true);
		free(line);
	}
	y++;
	left = (struct view_rect){y, 0, rows - 1 - y, half};
	right = (struct view_rect){y, half, rows - 1 - y, cols - half};
	if (t != NULL && left.h > 1) {
		name = xasprintf(_("Before: %s"), vc->before_name);
		view_compare_side(c, vc->before, t->id, name, &left);
		free(name);
		name = xasprintf(_("After: %s"), vc->after_name);
		view_compare_side(c, vc->after, t->id, name, &right);
		free(name);
	}
	hint = (struct view_rect){rows - 1, 0, 1, cols};
	view_hints_draw(c, &hint, hints, UTIL_ARRAY_LEN(hints));
}
