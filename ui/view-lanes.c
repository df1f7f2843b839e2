/* SPDX-License-Identifier: MIT */
/*
 * view-lanes.c: the lane grid: every lane with its load, each core's slots
 * (a mark per run pinned to it), the runs in it with package, cpu and
 * elapsed time, and the task it holds with what it waits for. A lane's
 * parts flow onto more rows when one is not enough.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "view.h"

static int
view_lanes_cmp_runs(const void *a, const void *b)
{
	const struct status_run *x = a, *y = b;
	int c = strcmp(x->cores, y->cores);

	if (c != 0)
		return c;
	return x->started_ms < y->started_ms ? -1 : x->started_ms > y->started_ms;
}

/* Adds a chunk to the flowing rows: on the current row after a separator
 * when it fits, else on a new row indented by indent columns. */
static void
view_lanes_chunk(const struct view_ctx *c, struct doc *doc, int *col, int w, int indent,
                 const char *text, enum draw_role role)
{
	int tw = draw_width(c->d, text);

	if (*col > indent && *col + 3 + tw > w) {
		doc_line(doc, 0, true);
		doc_spanf(doc, DRAW_NORMAL, "%*s", indent, "");
		*col = indent;
	}
	if (*col > indent) {
		doc_span(doc, DRAW_DIM, " | ");
		*col += 3;
	}
	doc_span(doc, role, text);
	*col += tw;
}

static void
view_lanes_build(const struct view_ctx *c, int w, struct doc *doc)
{
	const struct model *m = c->m;
	int l, label_w = 0, i;
	char label[64];

	doc_init(doc);
	for (l = 0; l < m->nlanes; l++) {
		const struct status_lane *ml = &m->lanes[l];
		int tw;

		if (ml->load > 0)
			snprintf(label, sizeof label, _("L%d load %d"), l, ml->load);
		else
			snprintf(label, sizeof label, _("L%d idle"), l);
		tw = draw_width(c->d, label);
		if (tw > label_w)
			label_w = tw;
	}
	for (l = 0; l < m->nlanes; l++) {
		const struct status_lane *ml = &m->lanes[l];
		struct status_run *runs;
		struct buf b;
		int col, indent = label_w + 3, slots;
		size_t k;

		if (ml->load > 0)
			snprintf(label, sizeof label, _("L%d load %d"), l, ml->load);
		else
			snprintf(label, sizeof label, _("L%d idle"), l);
		doc_line(doc, 0, true);
		doc_span(doc, DRAW_NORMAL, " ");
		doc_span(doc, DRAW_BOLD, label);
		doc_spanf(doc, DRAW_NORMAL, "%*s", label_w - draw_width(c->d, label) + 2, "");
		col = indent;
		/* Each core with a mark per run pinned to it, and its free
		 * places at the lane's load. */
		buf_init(&b);
		for (i = 0; i < ml->ncores; i++) {
			slots = ml->load > ml->core_runs[i] ? ml->load : ml->core_runs[i];
			if (slots < 1)
				slots = 1;
			buf_printf(&b, "%sc%d ", i > 0 ? " " : "", ml->cores[i]);
			for (int s = 0; s < slots; s++)
				buf_adds(&b, draw_glyph(c->d, s < ml->core_runs[i]
				                                  ? DRAW_GLYPH_SLOT_BUSY
				                                  : DRAW_GLYPH_SLOT_FREE));
		}
		view_lanes_chunk(c, doc, &col, w, indent, b.data != NULL ? b.data : "",
		                 DRAW_NORMAL);
		buf_free(&b);
		runs = xcalloc(ml->nruns + 1, sizeof *runs);
		if (ml->nruns > 0)
			memcpy(runs, ml->runs, sizeof *runs * ml->nruns);
		qsort(runs, ml->nruns, sizeof *runs, view_lanes_cmp_runs);
		for (k = 0; k < ml->nruns; k++) {
			const struct status_run *r = &runs[k];
			char clock[32], *text;

			draw_clock((c->now_ms - r->started_ms) / 1000, clock, sizeof clock);
			if (r->test != NULL)
				text = xasprintf(_("%s %s %s cpu %d %s"), r->cores, r->pkg, r->test,
				                 r->cpu, clock);
			else
				text = xasprintf(_("%s %s cpu %d %s"), r->cores, r->pkg, r->cpu,
				                 clock);
			view_lanes_chunk(c, doc, &col, w, indent, text,
			                 r->phase == RESULTS_CONFIRM ? DRAW_KEY : DRAW_NORMAL);
			free(text);
		}
		free(runs);
		if (ml->held != NULL) {
			char *text = xasprintf(_("holding %s (%s)"), ml->held,
			                       ml->held_why != NULL ? ml->held_why : "");

			view_lanes_chunk(c, doc, &col, w, indent, text, DRAW_WARN);
			free(text);
		}
		if (m->source == MODEL_VIEW && !m->live && l == 0) {
			char *text;

			if (m->finished)
				text = xstrdup(_("the sweep is over"));
			else
				text = xasprintf(_("%d runs in flight elsewhere; the journal shows "
				                   "runs as they finish"),
				                 m->inflight);
			view_lanes_chunk(c, doc, &col, w, indent, text, DRAW_DIM);
			free(text);
		} else if (m->source == MODEL_LIVE && l == 0 && m->phase < SWEEP_PHASE_SWEEP) {
			view_lanes_chunk(c, doc, &col, w, indent,
			                 m->phase == SWEEP_PHASE_BUILD
			                     ? _("building the test binaries")
			                     : _("finding the packages"),
			                 DRAW_DIM);
		}
	}
	if (m->nlanes == 0) {
		doc_line(doc, 0, true);
		doc_span(doc, DRAW_DIM, _(" no lanes yet"));
	}
}

int
view_lanes_rows(const struct view_ctx *c, int w)
{
	struct doc doc;
	int n;

	view_lanes_build(c, w, &doc);
	n = (int)doc.nlines;
	doc_free(&doc);
	return n;
}

void
view_lanes_draw(struct view_ctx *c, const struct view_rect *r, bool focused)
{
	struct view_state *st = c->st;
	struct doc doc;
	char title[96];
	int rows = r->h - 1;

	view_lanes_build(c, r->w, &doc);
	st->lanes_rows = rows;
	st->lanes_lines = doc.nlines;
	if (st->lanes_top + (size_t)rows > doc.nlines)
		st->lanes_top = doc.nlines > (size_t)rows ? doc.nlines - (size_t)rows : 0;
	if (doc.nlines > (size_t)rows && rows > 0)
		snprintf(title, sizeof title, _("Lanes (%d, rows %zu-%zu of %zu)"), c->m->nlanes,
		         st->lanes_top + 1, st->lanes_top + (size_t)rows, doc.nlines);
	else
		snprintf(title, sizeof title, _("Lanes (%d)"), c->m->nlanes);
	view_title(c, r->y, r->x, r->w, title, focused);
	if (rows > 0)
		doc_draw(&doc, c->d, r->y + 1, r->x, rows, r->w, st->lanes_top);
	doc_free(&doc);
}
