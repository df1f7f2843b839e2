/* SPDX-License-Identifier: MIT */
/*
 * view-lanes.c: the lane overview: one cell per lane (its load, the cpu
 * counts of its runs, a meter of its occupied slots, how many runs it
 * holds, the oldest one and the runs near or past --timeout), as many
 * cells per row as the width takes, the richest form that fits the rows
 * given. With room to spare each lane lists its runs under it; Enter on a
 * lane lists its runs alone, sorted by core. A sweep that is over, or one
 * whose lanes only another process knows, collapses to its title line.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "view.h"

/* A run this close to --timeout (in parts of it) is near it. */
#define VIEW_LANES_NEAR_NUM 3
#define VIEW_LANES_NEAR_DEN 4

/* The forms of a cell, richest first. */
enum view_lanes_form {
	VIEW_LANES_WIDE,   /* a 16-glyph meter, the oldest run's package, marks in words */
	VIEW_LANES_MEDIUM, /* an 8-glyph meter, the oldest run's package */
	VIEW_LANES_NARROW, /* an 8-glyph meter, the oldest run's time, marks as !N */
	VIEW_LANES_TINY,   /* a 4-glyph meter */
	VIEW_LANES_FORMS
};

static const int view_lanes_meter[VIEW_LANES_FORMS] = {16, 8, 8, 4};

/* One lane's cell, as its columns. */
struct view_lanes_cell {
	char label[16], state[32], cpus[48], count[32], oldest[96], marks[64];
	int busy, slots;
	bool past; /* marks name a run past its timeout */
};

enum view_lanes_col { VIEW_LANES_LABEL, VIEW_LANES_STATE, VIEW_LANES_CPUS, VIEW_LANES_COLS };

/* A run's timeout state: 0 fine, 1 near --timeout, 2 past it. */
static int
view_lanes_late(const struct view_ctx *c, const struct status_run *r)
{
	int64_t age = c->now_ms - r->started_ms, t = c->m->timeout_ms;

	if (t <= 0)
		return 0;
	if (age > t)
		return 2;
	return age * VIEW_LANES_NEAR_DEN >= t * VIEW_LANES_NEAR_NUM;
}

/* The shard lane l belongs to, or NULL outside a view of several. */
static const struct model_shard *
view_lanes_shard(const struct model *m, int l)
{
	size_t i;

	for (i = 0; i < m->nshards; i++) {
		const struct model_shard *s = &m->shards[i];

		if (l >= s->first_lane && l < s->first_lane + s->nlanes)
			return s;
	}
	return NULL;
}

/* Lane l's number in its own sweep. */
static int
view_lanes_number(const struct model *m, int l)
{
	const struct model_shard *s = view_lanes_shard(m, l);

	return s != NULL ? l - s->first_lane : l;
}

static void
view_lanes_cell(const struct view_ctx *c, int l, enum view_lanes_form form,
                struct view_lanes_cell *cell)
{
	const struct status_lane *ml = &c->m->lanes[l];
	const struct status_run *oldest = NULL;
	int i, near = 0, past = 0, cpus[8], ncpus = 0;
	char clock[32];
	size_t k;
	struct buf b;

	memset(cell, 0, sizeof *cell);
	snprintf(cell->label, sizeof cell->label, "L%d", view_lanes_number(c->m, l));
	if (ml->environment != NULL)
		snprintf(cell->state, sizeof cell->state, _("env %s"), ml->environment);
	else if (ml->load > 0)
		snprintf(cell->state, sizeof cell->state, _("load %d"), ml->load);
	else
		snprintf(cell->state, sizeof cell->state, "%s", _("idle"));
	for (i = 0; i < ml->ncores; i++) {
		int slots = ml->load > ml->core_runs[i] ? ml->load : ml->core_runs[i];

		cell->slots += slots > 0 ? slots : 1;
		cell->busy += ml->core_runs[i];
	}
	for (k = 0; k < ml->nruns; k++) {
		const struct status_run *r = &ml->runs[k];
		int late = view_lanes_late(c, r), j;

		near += late == 1;
		past += late == 2;
		if (oldest == NULL || r->started_ms < oldest->started_ms)
			oldest = r;
		for (j = 0; j < ncpus && cpus[j] != r->cpu; j++)
			;
		if (j == ncpus && ncpus < (int)UTIL_ARRAY_LEN(cpus))
			cpus[ncpus++] = r->cpu;
	}
	if (ncpus > 0) {
		/* Ascending, as the options list them. */
		for (i = 1; i < ncpus; i++) {
			for (int j = i; j > 0 && cpus[j] < cpus[j - 1]; j--) {
				int t = cpus[j];

				cpus[j] = cpus[j - 1];
				cpus[j - 1] = t;
			}
		}
		buf_init(&b);
		buf_printf(&b, _("cpu %d"), cpus[0]);
		for (i = 1; i < ncpus; i++)
			buf_printf(&b, ",%d", cpus[i]);
		snprintf(cell->cpus, sizeof cell->cpus, "%s", b.data);
		buf_free(&b);
	}
	snprintf(cell->count, sizeof cell->count,
	         ngettext("%zu run", "%zu runs", (unsigned long)ml->nruns), ml->nruns);
	if (oldest != NULL) {
		draw_clock((c->now_ms - oldest->started_ms) / 1000, clock, sizeof clock);
		if (form <= VIEW_LANES_MEDIUM)
			snprintf(cell->oldest, sizeof cell->oldest, _("oldest %s %s"), clock,
			         oldest->pkg);
		else
			snprintf(cell->oldest, sizeof cell->oldest, "%s", clock);
	} else if (ml->held != NULL && form <= VIEW_LANES_MEDIUM) {
		snprintf(cell->oldest, sizeof cell->oldest, _("holds %s"), ml->held);
	}
	cell->past = past > 0;
	if (near + past == 0)
		return;
	if (form >= VIEW_LANES_NARROW)
		snprintf(cell->marks, sizeof cell->marks, "!%d", near + past);
	else if (past == 0)
		snprintf(cell->marks, sizeof cell->marks, _("%d near timeout"), near);
	else if (near == 0)
		snprintf(cell->marks, sizeof cell->marks, _("%d past timeout"), past);
	else
		snprintf(cell->marks, sizeof cell->marks, _("%d near, %d past timeout"), near,
		         past);
}

/* The widths of a form's columns over every lane. */
struct view_lanes_widths {
	int label, state, cpus, count, oldest, marks, meter, cell;
};

static int
view_lanes_max(int a, int b)
{
	return a > b ? a : b;
}

static void
view_lanes_widths(const struct view_ctx *c, enum view_lanes_form form, struct view_lanes_widths *w)
{
	struct view_lanes_cell cell;
	int l, n = 0;

	memset(w, 0, sizeof *w);
	w->meter = view_lanes_meter[form];
	for (l = 0; l < c->m->nlanes; l++) {
		view_lanes_cell(c, l, form, &cell);
		w->label = view_lanes_max(w->label, draw_width(c->d, cell.label));
		w->state = view_lanes_max(w->state, draw_width(c->d, cell.state));
		w->cpus = view_lanes_max(w->cpus, draw_width(c->d, cell.cpus));
		w->count = view_lanes_max(w->count, draw_width(c->d, cell.count));
		w->oldest = view_lanes_max(w->oldest, draw_width(c->d, cell.oldest));
		w->marks = view_lanes_max(w->marks, draw_width(c->d, cell.marks));
	}
	/* The columns a cell has, a space between them. */
	w->cell = w->label + 1 + w->state + 1 + w->meter + 1 + w->count;
	n += w->cpus > 0 ? 1 + w->cpus : 0;
	n += w->oldest > 0 ? 1 + w->oldest : 0;
	n += w->marks > 0 ? 1 + w->marks : 0;
	w->cell += n;
}

/* Cells per row at width w (a space first, " | " between cells). */
static int
view_lanes_per_row(const struct view_lanes_widths *lw, int w)
{
	int n = (w - 1 + 3) / (lw->cell + 3);

	return n > 0 ? n : 1;
}

static void
view_lanes_pad(struct doc *doc, enum draw_role role, const char *text, int width,
               const struct view_ctx *c)
{
	doc_span(doc, role, text);
	doc_spanf(doc, DRAW_NORMAL, "%*s", width - draw_width(c->d, text), "");
}

static void
view_lanes_put_cell(const struct view_ctx *c, struct doc *doc, int l, enum view_lanes_form form,
                    const struct view_lanes_widths *w, bool last)
{
	const struct status_lane *ml = &c->m->lanes[l];
	struct view_lanes_cell cell;
	bool selected = c->st->focus == VIEW_PANE_LANES && c->st->lane_selected == l;
	int filled, g;
	struct buf b;

	view_lanes_cell(c, l, form, &cell);
	view_lanes_pad(doc, selected ? DRAW_SELECTED : DRAW_BOLD, cell.label, w->label, c);
	doc_span(doc, DRAW_NORMAL, " ");
	view_lanes_pad(doc, ml->load > 0 ? DRAW_NORMAL : DRAW_DIM, cell.state, w->state, c);
	if (w->cpus > 0) {
		doc_span(doc, DRAW_NORMAL, " ");
		view_lanes_pad(doc, DRAW_NORMAL, cell.cpus, w->cpus, c);
	}
	doc_span(doc, DRAW_NORMAL, " ");
	filled = cell.slots > 0 ? (cell.busy * w->meter + cell.slots - 1) / cell.slots : 0;
	if (filled > w->meter)
		filled = w->meter;
	buf_init(&b);
	for (g = 0; g < w->meter; g++)
		buf_adds(
		    &b, draw_glyph(c->d, g < filled ? DRAW_GLYPH_SLOT_BUSY : DRAW_GLYPH_SLOT_FREE));
	doc_span(doc, cell.busy > 0 ? DRAW_OK : DRAW_DIM, b.data);
	buf_free(&b);
	doc_span(doc, DRAW_NORMAL, " ");
	view_lanes_pad(doc, DRAW_NORMAL, cell.count, w->count, c);
	if (w->oldest > 0) {
		doc_span(doc, DRAW_NORMAL, " ");
		view_lanes_pad(doc, DRAW_DIM, cell.oldest, w->oldest, c);
	}
	if (w->marks > 0) {
		doc_span(doc, DRAW_NORMAL, " ");
		if (last)
			doc_span(doc, cell.past ? DRAW_BAD : DRAW_WARN, cell.marks);
		else
			view_lanes_pad(doc, cell.past ? DRAW_BAD : DRAW_WARN, cell.marks, w->marks,
			               c);
	}
}

static int
view_lanes_cmp_runs(const void *a, const void *b)
{
	const struct status_run *x = a, *y = b;

	if (x->first_core != y->first_core)
		return x->first_core < y->first_core ? -1 : 1;
	return x->started_ms < y->started_ms ? -1 : x->started_ms > y->started_ms;
}

/* Lane l's runs, one a line sorted by core, then what it holds. */
static void
view_lanes_runs(const struct view_ctx *c, struct doc *doc, int l, int indent)
{
	const struct status_lane *ml = &c->m->lanes[l];
	struct status_run *runs = xcalloc(ml->nruns + 1, sizeof *runs);
	int cores_w = 0;
	size_t k;

	if (ml->nruns > 0)
		memcpy(runs, ml->runs, sizeof *runs * ml->nruns);
	qsort(runs, ml->nruns, sizeof *runs, view_lanes_cmp_runs);
	for (k = 0; k < ml->nruns; k++)
		cores_w = view_lanes_max(cores_w, draw_width(c->d, runs[k].cores));
	for (k = 0; k < ml->nruns; k++) {
		const struct status_run *r = &runs[k];
		int late = view_lanes_late(c, r);
		char clock[32];

		draw_clock((c->now_ms - r->started_ms) / 1000, clock, sizeof clock);
		doc_line(doc, 0, true);
		doc_spanf(doc, DRAW_NORMAL, "%*s", indent, "");
		view_lanes_pad(doc, DRAW_NORMAL, r->cores, cores_w + 2, c);
		if (r->test != NULL)
			doc_spanf(doc, r->phase == RESULTS_CONFIRM ? DRAW_KEY : DRAW_NORMAL,
			          _("%s %s cpu %d"), r->pkg, r->test, r->cpu);
		else
			doc_spanf(doc, r->phase == RESULTS_CONFIRM ? DRAW_KEY : DRAW_NORMAL,
			          _("%s cpu %d"), r->pkg, r->cpu);
		doc_spanf(doc, DRAW_NORMAL, "  %s", clock);
		if (late == 1)
			doc_spanf(doc, DRAW_WARN, "  %s", _("near timeout"));
		else if (late == 2)
			doc_spanf(doc, DRAW_BAD, "  %s", _("past timeout: killed after the grace"));
	}
	free(runs);
	if (ml->held != NULL) {
		doc_line(doc, 0, true);
		doc_spanf(doc, DRAW_NORMAL, "%*s", indent, "");
		doc_spanf(doc, DRAW_WARN, _("holding %s (%s)"), ml->held,
		          ml->held_why != NULL ? ml->held_why : "");
	}
}

/* The kept-back cores and the containers pinned there (container
 * levels), as "kept c0: 3 containers pinned, 1 not", then with last
 * "; last 4f3a2b1c9d8e (it) 12 ms"; empty when no container was. */
static void
view_lanes_kept(const struct model *m, bool with_last, struct buf *b)
{
	const struct results_pin *last;
	const char *p;
	char *pkgs;

	if (m->npins == 0)
		return;
	last = &m->pins[m->npins - 1];
	buf_adds(b, _("kept "));
	view_cpuset(b, last->cpuset);
	buf_printf(b,
	           ngettext(": %lld container pinned", ": %lld containers pinned",
	                    (unsigned long)m->pinned),
	           (long long)m->pinned);
	if (m->pin_failed > 0)
		buf_printf(b, _(", %lld not"), (long long)m->pin_failed);
	if (!with_last)
		return;
	/* The package that started it, short: the last of several. */
	p = strrchr(last->pkgs, ' ');
	pkgs = status_short_pkg(p != NULL ? p + 1 : last->pkgs);
	if (last->error != NULL)
		buf_printf(b, _("; last %s (%s) not pinned: %s"), last->container, pkgs,
		           last->error);
	else
		buf_printf(b, _("; last %s (%s) %lld ms"), last->container, pkgs,
		           (long long)last->latency_ms);
	free(pkgs);
}

/* A line for each lease the sweep holds or waits for: "lease gpu held by
 * host:pid (DIR) for 3m", its owner's, or this sweep's. */
static void
view_lanes_leases(const struct view_ctx *c, struct doc *doc)
{
	const struct model *m = c->m;
	char held[32];
	size_t i;

	for (i = 0; i < m->nleases; i++) {
		const struct status_lease *l = &m->leases[i];

		draw_eta(l->started_ms > 0 ? (c->now_ms - l->started_ms) / 1000 : 0, held,
		         sizeof held);
		doc_line(doc, 0, true);
		if (l->held)
			doc_spanf(doc, DRAW_DIM, _(" lease %s held by this sweep for %s"), l->name,
			          held);
		else
			doc_spanf(doc, DRAW_WARN,
			          _(" lease %s held by %s:%lld (%s) for %s; its runs wait"),
			          l->name, l->host, (long long)l->pid, l->outdir, held);
	}
}

/* Whether the pane is one line: nothing goes on in lanes seen here. */
static bool
view_lanes_collapsed(const struct model *m)
{
	return m->nshards == 0 && m->nlanes > 0 &&
	       (m->finished || (m->source == MODEL_VIEW && !m->live));
}

/* The collapsed pane's title: the lanes' shape and why nothing shows. */
static void
view_lanes_summary(const struct view_ctx *c, char *title, size_t size)
{
	const struct model *m = c->m;
	struct buf kept;
	char shape[256];

	snprintf(shape, sizeof shape,
	         ngettext("%d lane x %d", "%d lanes x %d", (unsigned long)m->nlanes), m->nlanes,
	         m->width);
	buf_init(&kept);
	view_lanes_kept(m, false, &kept);
	if (kept.len > 0)
		snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "; %s", kept.data);
	buf_free(&kept);
	if (m->finished)
		snprintf(title, size, _("Lanes: %s, idle: the sweep is over"), shape);
	else
		snprintf(title, size,
		         ngettext("Lanes: %s, %d run in flight elsewhere (the journal shows runs "
		                  "as they finish)",
		                  "Lanes: %s, %d runs in flight elsewhere (the journal shows runs "
		                  "as they finish)",
		                  (unsigned long)m->inflight),
		         shape, m->inflight);
}

/* How the lines came out: whether they write runs near --timeout as !N,
 * and for a grid of cells (one line a row) its cells a row and their
 * width (0 when the lines are not such a grid). */
struct view_lanes_shape {
	bool marks;
	int per_row, cell_w;
};

/* The richest form whose cells fit width w and whose lines fit max rows:
 * lines with the runs under their lanes, else the extra lines and the
 * cells, as many a row as fit; the tiniest when none does. */
static enum view_lanes_form
view_lanes_form(const struct view_ctx *c, int w, int max, int lines, int extra, int cells)
{
	struct view_lanes_widths lw;
	enum view_lanes_form form;
	int per_row;

	for (form = VIEW_LANES_WIDE; form < VIEW_LANES_TINY; form++) {
		view_lanes_widths(c, form, &lw);
		if (lw.cell + 1 > w)
			continue;
		per_row = view_lanes_per_row(&lw, w);
		if (lines <= max || extra + (cells + per_row - 1) / per_row <= max)
			break;
	}
	return form;
}

/* A shard's line in a view of several: its host, shard and state. */
static void
view_lanes_shard_line(const struct view_ctx *c, struct doc *doc, const struct model_shard *s)
{
	doc_line(doc, 0, true);
	if (s->host == NULL) {
		doc_spanf(doc, DRAW_BOLD, " %s", s->dir);
		doc_span(doc, DRAW_DIM, _(": waiting for its journal"));
		return;
	}
	doc_spanf(doc, DRAW_BOLD, _(" %s shard %d/%d"), s->host, s->index, s->count);
	doc_spanf(doc, DRAW_DIM, " (%s)", s->dir);
	doc_span(doc, DRAW_NORMAL, ": ");
	if (s->state == MODEL_SHARD_FINISHED)
		doc_span(doc, strcmp(s->status, "complete") == 0 ? DRAW_OK : DRAW_WARN,
		         view_header_status(s->status));
	else if (s->state == MODEL_SHARD_LIVE)
		doc_span(doc, DRAW_OK, s->paused ? _("live, paused") : _("live"));
	else
		doc_spanf(doc, DRAW_NORMAL,
		          ngettext("running elsewhere, %d run in flight",
		                   "running elsewhere, %d runs in flight",
		                   (unsigned long)s->inflight),
		          s->inflight);
	doc_spanf(doc, DRAW_DIM,
	          ngettext(", %d lane x %d", ", %d lanes x %d", (unsigned long)s->nlanes),
	          s->nlanes, s->width);
	(void)c;
}

/* The lanes of a view of several shards: a line per shard, the lanes of
 * those attached under it, each shard's rows its own. */
static void
view_lanes_build_shards(const struct view_ctx *c, int w, int max, struct doc *doc,
                        struct view_lanes_shape *shape)
{
	const struct model *m = c->m;
	struct view_lanes_widths lw;
	enum view_lanes_form form;
	int l, k, per_row = 1, lines = (int)m->nshards, rows = (int)m->nshards, cells = 0;
	size_t i;

	for (i = 0; i < m->nshards; i++) {
		const struct model_shard *s = &m->shards[i];

		if (s->state != MODEL_SHARD_LIVE)
			continue;
		cells += s->nlanes;
		for (l = s->first_lane; l < s->first_lane + s->nlanes; l++)
			lines += 1 + (int)m->lanes[l].nruns + (m->lanes[l].held != NULL);
	}
	form = view_lanes_form(c, w, max, lines, rows, cells);
	view_lanes_widths(c, form, &lw);
	shape->marks = form >= VIEW_LANES_NARROW && lw.marks > 0;
	per_row = lines <= max ? 1 : view_lanes_per_row(&lw, w);
	for (i = 0; i < m->nshards; i++) {
		const struct model_shard *s = &m->shards[i];

		view_lanes_shard_line(c, doc, s);
		for (k = 0; s->state == MODEL_SHARD_LIVE && k < s->nlanes; k++) {
			l = s->first_lane + k;
			if (k % per_row == 0) {
				doc_line(doc, 0, true);
				doc_span(doc, DRAW_NORMAL, "   ");
			} else {
				doc_spanf(doc, DRAW_DIM, " %s ",
				          draw_glyph(c->d, DRAW_GLYPH_VLINE));
			}
			view_lanes_put_cell(c, doc, l, form, &lw,
			                    k % per_row == per_row - 1 || k == s->nlanes - 1);
			if (lines <= max)
				view_lanes_runs(c, doc, l, 3 + lw.label + 1);
		}
	}
}

/* The lines of the richest form that fits max rows, or of the tiniest. */
static void
view_lanes_build(const struct view_ctx *c, int w, int max, struct doc *doc,
                 struct view_lanes_shape *shape)
{
	const struct model *m = c->m;
	struct view_lanes_widths lw;
	enum view_lanes_form form;
	struct buf kept;
	int l, per_row = 1, lines = 0;

	memset(shape, 0, sizeof *shape);
	doc_init(doc);
	if (m->nshards > 0 && !(c->st->lane_open && c->st->lane_selected < m->nlanes)) {
		view_lanes_build_shards(c, w, max, doc, shape);
		return;
	}
	if (m->nlanes == 0) {
		doc_line(doc, 0, true);
		doc_span(doc, DRAW_DIM, _(" no lanes yet"));
		return;
	}
	if (view_lanes_collapsed(m))
		return;
	if (c->st->lane_open && c->st->lane_selected < m->nlanes) {
		view_lanes_widths(c, VIEW_LANES_WIDE, &lw);
		doc_line(doc, 0, true);
		doc_span(doc, DRAW_NORMAL, " ");
		view_lanes_put_cell(c, doc, c->st->lane_selected, VIEW_LANES_WIDE, &lw, true);
		view_lanes_runs(c, doc, c->st->lane_selected, 1 + lw.label + 1);
		return;
	}
	/* The kept-back cores' line takes one row of those given. */
	buf_init(&kept);
	view_lanes_kept(m, true, &kept);
	if (kept.len > 0 && max > 1)
		max--;
	max -= max > (int)m->nleases ? (int)m->nleases : 0;
	/* Runs under their lanes when every one fits. */
	for (l = 0; l < m->nlanes; l++)
		lines += 1 + (int)m->lanes[l].nruns + (m->lanes[l].held != NULL);
	form = view_lanes_form(c, w, max, lines, 0, m->nlanes);
	view_lanes_widths(c, form, &lw);
	shape->marks = form >= VIEW_LANES_NARROW && lw.marks > 0;
	/* As few cells a row as the rows allow: lanes read down. */
	per_row = 1;
	if (lines > max) {
		per_row = (m->nlanes + max - 1) / (max > 0 ? max : 1);
		if (per_row > view_lanes_per_row(&lw, w))
			per_row = view_lanes_per_row(&lw, w);
		shape->per_row = per_row;
		shape->cell_w = lw.cell;
	}
	for (l = 0; l < m->nlanes; l++) {
		bool first = l % per_row == 0,
		     last = l % per_row == per_row - 1 || l == m->nlanes - 1;

		if (first) {
			doc_line(doc, 0, true);
			doc_span(doc, DRAW_NORMAL, " ");
		} else {
			doc_spanf(doc, DRAW_DIM, " %s ", draw_glyph(c->d, DRAW_GLYPH_VLINE));
		}
		view_lanes_put_cell(c, doc, l, form, &lw, last);
		if (lines <= max)
			view_lanes_runs(c, doc, l, 1 + lw.label + 1);
	}
	if (kept.len > 0) {
		doc_line(doc, 0, true);
		doc_spanf(doc, DRAW_DIM, " %s", kept.data);
	}
	buf_free(&kept);
	view_lanes_leases(c, doc);
	if (m->source == MODEL_LIVE && m->phase < SWEEP_PHASE_SWEEP) {
		doc_line(doc, 0, true);
		doc_span(doc, DRAW_DIM,
		         m->phase == SWEEP_PHASE_BUILD ? _(" building the test binaries")
		                                       : _(" finding the packages"));
	}
}

int
view_lanes_rows(const struct view_ctx *c, int w, int max)
{
	struct view_lanes_shape shape;
	struct doc doc;
	int n;

	if (c->m->simulated && c->m->nshards == 0 && c->m->nlanes > 0)
		return view_lanes_plan_rows(c, w, max);
	view_lanes_build(c, w, max, &doc, &shape);
	n = (int)doc.nlines;
	doc_free(&doc);
	return n;
}

void
view_lanes_draw(struct view_ctx *c, const struct view_rect *r, bool focused)
{
	struct view_state *st = c->st;
	struct doc doc;
	char title[256], rows_shown[96] = "";
	int rows = r->h - 1;
	struct view_lanes_shape shape;

	if (c->m->simulated && c->m->nshards == 0 && c->m->nlanes > 0) {
		view_lanes_plan_draw(c, r, focused);
		return;
	}
	view_lanes_build(c, r->w, rows, &doc, &shape);
	st->lanes_rows = rows;
	st->lanes_per_row = shape.per_row;
	st->lanes_cell_w = shape.cell_w;
	st->lanes_lines = doc.nlines;
	if (st->lanes_top + (size_t)rows > doc.nlines)
		st->lanes_top = doc.nlines > (size_t)rows ? doc.nlines - (size_t)rows : 0;
	if (doc.nlines > (size_t)rows && rows > 0)
		snprintf(rows_shown, sizeof rows_shown, _(", rows %zu-%zu of %zu"),
		         st->lanes_top + 1, st->lanes_top + (size_t)rows, doc.nlines);
	if (view_lanes_collapsed(c->m))
		view_lanes_summary(c, title, sizeof title);
	else if (st->lane_open && st->lane_selected < c->m->nlanes)
		snprintf(title, sizeof title, _("Lanes (%d): L%d%s; Esc goes back"), c->m->nlanes,
		         view_lanes_number(c->m, st->lane_selected), rows_shown);
	else if (c->m->nshards > 0)
		snprintf(title, sizeof title,
		         ngettext("Lanes (%d, by host%s)", "Lanes (%d, by host%s)",
		                  (unsigned long)c->m->nlanes),
		         c->m->nlanes, rows_shown);
	else if (shape.marks)
		snprintf(title, sizeof title, _("Lanes (%d%s; !N: runs near or past --timeout)"),
		         c->m->nlanes, rows_shown);
	else
		snprintf(title, sizeof title, _("Lanes (%d%s)"), c->m->nlanes, rows_shown);
	view_title(c, r->y, r->x, r->w, title, focused);
	if (rows > 0)
		doc_draw(&doc, c->d, r->y + 1, r->x, rows, r->w, st->lanes_top);
	doc_free(&doc);
}
