/* SPDX-License-Identifier: MIT */
/*
 * view-lanes-plan.c: the lanes of a plan's simulated sweep (`plan -o`),
 * none of which is ever live: what each one carried on the virtual clock,
 * as a cell: its runs, their cpu counts, a meter of its cores' busy share
 * and when its last run ended. Every lane is shown: when one a cell does
 * not fit the rows given, neighbouring lanes share a cell, their runs
 * added up and their busy share taken together.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "view.h"

/* The forms of a cell: with the cpu counts, a 16-glyph meter and the last
 * run's end; or the label, an 8-glyph meter, the share and the runs. */
enum view_lanes_plan_form {
	VIEW_LANES_PLAN_WIDE,
	VIEW_LANES_PLAN_NARROW,
};

struct view_lanes_plan_cell {
	char label[32], cpus[64], busy[16], runs[32], last[64];
	double share; /* 0 to 1 */
};

struct view_lanes_plan_widths {
	int label, cpus, meter, busy, runs, last, cell;
};

/* The cell of lanes first to first + n - 1 (at most the model's). */
static void
view_lanes_plan_cell(const struct view_ctx *c, int first, int n, enum view_lanes_plan_form form,
                     struct view_lanes_plan_cell *cell)
{
	const struct model *m = c->m;
	const struct replay_lane *pl = m->plan_lanes;
	int64_t span = m->plan_now_ms - m->started_ms, runs = 0, ended = 0;
	double core_ms = 0;
	char clock[32];
	int l, i;

	memset(cell, 0, sizeof *cell);
	if (n == 1)
		snprintf(cell->label, sizeof cell->label, "L%d", first);
	else
		snprintf(cell->label, sizeof cell->label, "L%d-L%d", first, first + n - 1);
	for (l = first; l < first + n && pl != NULL && l < m->plan_nlanes; l++) {
		runs += pl[l].runs;
		core_ms += pl[l].core_ms;
		if (pl[l].ended > ended)
			ended = pl[l].ended;
	}
	if (span > 0 && m->width > 0)
		cell->share = core_ms / ((double)span * n * m->width);
	if (cell->share > 1)
		cell->share = 1;
	snprintf(cell->busy, sizeof cell->busy, "%.0f%%", 100 * cell->share);
	snprintf(cell->runs, sizeof cell->runs,
	         ngettext("%lld run", "%lld runs", (unsigned long)runs), (long long)runs);
	if (form != VIEW_LANES_PLAN_WIDE)
		return;
	if (pl != NULL && first < m->plan_nlanes && pl[first].ncpus > 0) {
		const struct replay_lane *rl = &pl[first];
		struct buf b;

		buf_init(&b);
		buf_printf(&b, _("cpu %d"), rl->cpus[0]);
		for (i = 1; i < rl->ncpus; i++)
			buf_printf(&b, ",%d", rl->cpus[i]);
		snprintf(cell->cpus, sizeof cell->cpus, "%s", b.data);
		buf_free(&b);
	}
	if (ended > 0) {
		draw_clock((ended - m->started_ms) / 1000, clock, sizeof clock);
		snprintf(cell->last, sizeof cell->last, _("last ends %s"), clock);
	}
}

static int
view_lanes_plan_max(int a, int b)
{
	return a > b ? a : b;
}

/* The widths of the cells of group lanes each in form. */
static void
view_lanes_plan_widths(const struct view_ctx *c, enum view_lanes_plan_form form, int group,
                       struct view_lanes_plan_widths *w)
{
	struct view_lanes_plan_cell cell;
	int l;

	memset(w, 0, sizeof *w);
	w->meter = form == VIEW_LANES_PLAN_WIDE ? 16 : 8;
	for (l = 0; l < c->m->nlanes; l += group) {
		int n = l + group <= c->m->nlanes ? group : c->m->nlanes - l;

		view_lanes_plan_cell(c, l, n, form, &cell);
		w->label = view_lanes_plan_max(w->label, draw_width(c->d, cell.label));
		w->cpus = view_lanes_plan_max(w->cpus, draw_width(c->d, cell.cpus));
		w->busy = view_lanes_plan_max(w->busy, draw_width(c->d, cell.busy));
		w->runs = view_lanes_plan_max(w->runs, draw_width(c->d, cell.runs));
		w->last = view_lanes_plan_max(w->last, draw_width(c->d, cell.last));
	}
	w->cell = w->label + 1 + w->meter + 1 + w->busy + 1 + w->runs;
	w->cell += w->cpus > 0 ? 1 + w->cpus : 0;
	w->cell += w->last > 0 ? 1 + w->last : 0;
}

static void
view_lanes_plan_pad(const struct view_ctx *c, struct doc *doc, enum draw_role role,
                    const char *text, int width)
{
	doc_span(doc, role, text);
	doc_spanf(doc, DRAW_NORMAL, "%*s", width - draw_width(c->d, text), "");
}

static void
view_lanes_plan_put(const struct view_ctx *c, struct doc *doc, int first, int n,
                    enum view_lanes_plan_form form, const struct view_lanes_plan_widths *w)
{
	struct view_lanes_plan_cell cell;
	int filled, g;
	struct buf b;

	view_lanes_plan_cell(c, first, n, form, &cell);
	view_lanes_plan_pad(c, doc, DRAW_BOLD, cell.label, w->label);
	if (w->cpus > 0) {
		doc_span(doc, DRAW_NORMAL, " ");
		view_lanes_plan_pad(c, doc, DRAW_NORMAL, cell.cpus, w->cpus);
	}
	doc_span(doc, DRAW_NORMAL, " ");
	filled = (int)(cell.share * w->meter + 0.5);
	buf_init(&b);
	for (g = 0; g < w->meter; g++)
		buf_adds(
		    &b, draw_glyph(c->d, g < filled ? DRAW_GLYPH_SLOT_BUSY : DRAW_GLYPH_SLOT_FREE));
	doc_span(doc, filled > 0 ? DRAW_OK : DRAW_DIM, b.data);
	buf_free(&b);
	doc_spanf(doc, DRAW_NORMAL, " %*s%s ", w->busy - draw_width(c->d, cell.busy), "",
	          cell.busy);
	view_lanes_plan_pad(c, doc, DRAW_NORMAL, cell.runs, w->runs);
	if (w->last > 0) {
		doc_span(doc, DRAW_NORMAL, " ");
		view_lanes_plan_pad(c, doc, DRAW_DIM, cell.last, w->last);
	}
}

/* Cells a row at width w: a space first, " | " between cells. */
static int
view_lanes_plan_per_row(const struct view_lanes_plan_widths *lw, int w)
{
	int n = (w - 1 + 3) / (lw->cell + 3);

	return n > 0 ? n : 1;
}

/* The lines of the richest form whose cells, each of as few lanes as can
 * be, fit max rows; *group is the lanes a cell. */
static void
view_lanes_plan_build(const struct view_ctx *c, int w, int max, struct doc *doc, int *group)
{
	int nlanes = c->m->nlanes, cells, per_row, i;
	enum view_lanes_plan_form form = VIEW_LANES_PLAN_WIDE;
	struct view_lanes_plan_widths lw;

	doc_init(doc);
	if (max < 1)
		max = 1;
	*group = 1;
	view_lanes_plan_widths(c, form, 1, &lw);
	if (lw.cell + 1 > w ||
	    (nlanes + view_lanes_plan_per_row(&lw, w) - 1) / view_lanes_plan_per_row(&lw, w) >
	        max) {
		form = VIEW_LANES_PLAN_NARROW;
		for (;; (*group)++) {
			view_lanes_plan_widths(c, form, *group, &lw);
			cells = (nlanes + *group - 1) / *group;
			per_row = view_lanes_plan_per_row(&lw, w);
			if ((cells + per_row - 1) / per_row <= max || *group >= nlanes)
				break;
		}
	}
	cells = (nlanes + *group - 1) / *group;
	/* As few cells a row as the rows allow. */
	per_row = (cells + max - 1) / max;
	if (per_row > view_lanes_plan_per_row(&lw, w))
		per_row = view_lanes_plan_per_row(&lw, w);
	for (i = 0; i < cells; i++) {
		int first = i * *group, n = first + *group <= nlanes ? *group : nlanes - first;

		if (i % per_row == 0) {
			doc_line(doc, 0, true);
			doc_span(doc, DRAW_NORMAL, " ");
		} else {
			doc_spanf(doc, DRAW_DIM, " %s ", draw_glyph(c->d, DRAW_GLYPH_VLINE));
		}
		view_lanes_plan_put(c, doc, first, n, form, &lw);
	}
}

int
view_lanes_plan_rows(const struct view_ctx *c, int w, int max)
{
	struct doc doc;
	int group, n;

	view_lanes_plan_build(c, w, max, &doc, &group);
	n = (int)doc.nlines;
	doc_free(&doc);
	return n;
}

void
view_lanes_plan_draw(struct view_ctx *c, const struct view_rect *r, bool focused)
{
	struct view_state *st = c->st;
	struct doc doc;
	char title[256];
	int rows = r->h - 1, group;

	view_lanes_plan_build(c, r->w, rows, &doc, &group);
	st->lanes_rows = rows;
	st->lanes_per_row = 0;
	st->lanes_cell_w = 0;
	st->lanes_lines = doc.nlines;
	if (st->lanes_top + (size_t)rows > doc.nlines)
		st->lanes_top = doc.nlines > (size_t)rows ? doc.nlines - (size_t)rows : 0;
	if (group > 1)
		snprintf(title, sizeof title,
		         _("Lanes (%d, %d a cell): the plan's runs on each, its cores' busy share"),
		         c->m->nlanes, group);
	else
		snprintf(title, sizeof title,
		         _("Lanes (%d): the plan's runs on each, its cores' busy share"),
		         c->m->nlanes);
	view_title(c, r->y, r->x, r->w, title, focused);
	if (rows > 0)
		doc_draw(&doc, c->d, r->y + 1, r->x, rows, r->w, st->lanes_top);
	doc_free(&doc);
}
