/* SPDX-License-Identifier: MIT */
/*
 * view-heatmap.c: a test's CPU x load heatmaps. The mini heatmap is one
 * glyph per pair for the list; the full one is a table per phase with the
 * counts, the rate and its 95% interval in each cell: anytime-valid in the
 * dashboard and view, Wilson's in compare's board. Colours go
 * from green (no failure) through yellow to red by rate, and the counts are
 * always printed, so the table reads without colour.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/confseq.h"
#include "base/util.h"
#include "view.h"

/* Sums the cells of t at (cpu, load), of one phase or (phase < 0) both. */
static void
view_heatmap_sum(const struct results_test *t, int phase, int cpu, int load, int64_t *runs,
                 int64_t *failures, int64_t *hangs)
{
	int i;

	*runs = *failures = *hangs = 0;
	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *c = &t->cells[i];

		if (c->cpu != cpu || c->load != load || (phase >= 0 && (int)c->phase != phase))
			continue;
		*runs += c->runs;
		*failures += c->failures;
		*hangs += c->hangs;
	}
}

int
view_heatmap_mini_width(const struct model *m)
{
	if (m->ncpus <= 0 || m->nloads <= 0)
		return 0;
	return m->ncpus * m->nloads + m->ncpus - 1;
}

int
view_heatmap_mini(struct view_ctx *c, int y, int x, int maxw, const struct results_test *t)
{
	const struct model *m = c->m;
	int w = view_heatmap_mini_width(m), col = 0, ci, li;

	if (w <= 0 || w > maxw)
		return 0;
	for (ci = 0; ci < m->ncpus; ci++) {
		if (ci > 0)
			col += draw_text(c->d, y, x + col, 1, " ", DRAW_NORMAL, false);
		for (li = 0; li < m->nloads; li++) {
			int64_t runs, failures, hangs;
			enum draw_role role;

			view_heatmap_sum(t, -1, m->cpus[ci], m->loads[li], &runs, &failures,
			                 &hangs);
			role = draw_heat_role(runs, failures + hangs);
			draw_text(c->d, y, x + col, 1, draw_glyph(c->d, draw_heat_glyph(role)),
			          role, false);
			col++;
		}
	}
	return w;
}

/* The 95% interval of bad in runs: the confidence sequence's, or
 * Wilson's. */
static void
view_heatmap_interval(int64_t bad, int64_t runs, bool anytime, double *lo, double *hi)
{
	if (anytime)
		confseq_rate(bad, runs, CONFSEQ_ALPHA, lo, hi);
	else
		results_wilson(bad, runs, lo, hi);
}

/* The text of one cell at a level of detail: 0 counts, 1 with the rate,
 * 2 with the 95% interval. Caller frees. */
static char *
view_heatmap_cell(int64_t runs, int64_t failures, int64_t hangs, int level, bool anytime)
{
	struct buf b;
	char rate[16], lo_s[16], hi_s[16];
	double lo, hi;
	int64_t bad = failures + hangs;

	buf_init(&b);
	if (runs == 0) {
		buf_adds(&b, "-");
		return buf_steal(&b);
	}
	if (hangs > 0 && failures > 0)
		buf_printf(&b, "%lld+%lldh/%lld", (long long)failures, (long long)hangs,
		           (long long)runs);
	else if (hangs > 0)
		buf_printf(&b, "%lldh/%lld", (long long)hangs, (long long)runs);
	else
		buf_printf(&b, "%lld/%lld", (long long)failures, (long long)runs);
	if (level >= 1 && bad == 0) {
		/* No failure in n runs: the rate is below the interval's
		 * upper bound at 95% (3/n says nothing at small n). */
		view_heatmap_interval(0, runs, anytime, &lo, &hi);
		draw_percent(hi, rate, sizeof rate);
		buf_printf(&b, " <%s", rate);
	} else if (level >= 1) {
		draw_percent((double)bad / (double)runs, rate, sizeof rate);
		buf_printf(&b, " %s", rate);
		if (level >= 2) {
			view_heatmap_interval(bad, runs, anytime, &lo, &hi);
			draw_percent(lo, lo_s, sizeof lo_s);
			draw_percent(hi, hi_s, sizeof hi_s);
			lo_s[strcspn(lo_s, "%")] = '\0';
			buf_printf(&b, " [%s-%s]", lo_s, hi_s);
		}
	}
	return buf_steal(&b);
}

static bool
view_heatmap_has_phase(const struct results_test *t, enum results_phase phase)
{
	int i;

	for (i = 0; i < t->ncells; i++) {
		if (t->cells[i].phase == phase && t->cells[i].runs > 0)
			return true;
	}
	return false;
}

/* The widest cell of both phases at a level, in columns. */
static int
view_heatmap_cell_width(const struct view_ctx *c, const struct results_test *t, int level,
                        bool anytime)
{
	const struct model *m = c->m;
	int best = 0, ci, li, ph;

	for (ph = 0; ph < 2; ph++) {
		for (ci = 0; ci < m->ncpus; ci++) {
			for (li = 0; li < m->nloads; li++) {
				int64_t runs, failures, hangs;
				char *s;
				int w;

				view_heatmap_sum(t, ph, m->cpus[ci], m->loads[li], &runs, &failures,
				                 &hangs);
				s = view_heatmap_cell(runs, failures, hangs, level, anytime);
				w = draw_width(c->d, s);
				free(s);
				if (w > best)
					best = w;
			}
		}
	}
	return best;
}

void
view_heatmap_table(const struct view_ctx *c, struct doc *doc, const struct results_test *t,
                   int width, bool anytime)
{
	const struct model *m = c->m;
	static const enum results_phase phases[] = {RESULTS_SWEEP, RESULTS_CONFIRM};
	int label_w = 8, level, col_w = 0, ci, li;
	size_t p;

	for (level = 2; level >= 0; level--) {
		col_w = view_heatmap_cell_width(c, t, level, anytime) + 3;
		if (col_w < 9)
			col_w = 9;
		if (label_w + m->nloads * col_w <= width || level == 0)
			break;
	}
	for (p = 0; p < UTIL_ARRAY_LEN(phases); p++) {
		const char *name = phases[p] == RESULTS_SWEEP ? _("sweep") : _("confirm");

		if (!view_heatmap_has_phase(t, phases[p]))
			continue;
		doc_line(doc, 0, true);
		doc_span(doc, DRAW_BOLD, name);
		doc_spanf(doc, DRAW_NORMAL, "%*s", label_w - draw_width(c->d, name), "");
		for (li = 0; li < m->nloads; li++) {
			char *h = xasprintf(_("load %d"), m->loads[li]);

			doc_span(doc, DRAW_DIM, " ");
			doc_span(doc, DRAW_DIM, h);
			doc_spanf(doc, DRAW_NORMAL, "%*s", col_w - 1 - draw_width(c->d, h), "");
			free(h);
		}
		for (ci = 0; ci < m->ncpus; ci++) {
			char *label = xasprintf(_("cpu %d"), m->cpus[ci]);

			doc_line(doc, 0, true);
			doc_span(doc, DRAW_NORMAL, label);
			doc_spanf(doc, DRAW_NORMAL, "%*s", label_w - draw_width(c->d, label), "");
			free(label);
			for (li = 0; li < m->nloads; li++) {
				int64_t runs, failures, hangs;
				char *s, *cell;
				int pad;

				view_heatmap_sum(t, (int)phases[p], m->cpus[ci], m->loads[li],
				                 &runs, &failures, &hangs);
				s = view_heatmap_cell(runs, failures, hangs, level, anytime);
				pad = col_w - 3 - draw_width(c->d, s);
				cell = xasprintf(" %s%*s ", s, pad > 0 ? pad : 0, "");
				doc_span(doc, draw_heat_role(runs, failures + hangs), cell);
				doc_span(doc, DRAW_NORMAL, " ");
				free(cell);
				free(s);
			}
		}
	}
	if (level >= 1 && anytime)
		doc_text(doc, DRAW_DIM, 0,
		         /* xgettext:no-c-format */
		         _("< and [ ]: 95% anytime-valid bounds (a confidence sequence), safe to "
		           "watch; the report's are fixed-sample"));
}
