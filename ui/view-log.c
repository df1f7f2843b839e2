/* SPDX-License-Identifier: MIT */
/*
 * view-log.c: the event log overlay (L): which sweep this is (output
 * directory, commit, start), in a live sweep what happened while the
 * dashboard watched, with times, the problems no test list shows (packages
 * that did not build, runs that failed outside any test or left
 * processes behind, tests that look order-dependent), each test's first
 * failure in run order, and the decisions taken (posts, quarantines,
 * dismissals, confirms) in time order. All but the session's events are
 * read from the results and decisions, so a view of a finished sweep
 * shows them as the live dashboard did.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"
#include "base/util.h"
#include "view.h"

static void
view_log_heading(struct doc *doc, const char *text)
{
	doc_line(doc, 0, false);
	doc_line(doc, 1, false);
	doc_span(doc, DRAW_BOLD, text);
}

static void
view_log_where(const struct model *m, struct doc *doc)
{
	char started[40];

	doc_line(doc, 3, false);
	doc_spanf(doc, DRAW_NORMAL, _(" results in %s"), m->outdir != NULL ? m->outdir : "?");
	if (m->commit != NULL) {
		doc_line(doc, 3, false);
		doc_spanf(doc, DRAW_NORMAL, _(" commit %s"), m->commit);
	}
	if (m->started_ms > 0) {
		timefmt_format_rfc3339(m->started_ms, started, sizeof started);
		doc_line(doc, 3, false);
		doc_spanf(doc, DRAW_NORMAL, _(" started %s"), started);
	}
}

static void
view_log_problems(const struct model *m, struct doc *doc)
{
	const struct results *r = m->results;
	size_t i, n = 0;

	view_log_heading(doc, _("Problems"));
	for (i = 0; i < m->nbuild_failed; i++, n++) {
		doc_line(doc, 3, false);
		doc_spanf(doc, DRAW_BAD,
		          _(" build failed: %s (flakesweep report shows the "
		            "compiler's output)"),
		          m->build_failed[i]);
	}
	for (i = 0; r != NULL && i < r->npkgs; i++) {
		const struct results_pkg *p = &r->pkgs[i];

		if (p->failures_outside_tests > 0) {
			doc_line(doc, 3, false);
			doc_spanf(doc, DRAW_BAD,
			          ngettext(" %s: %lld of %lld runs failed outside any test",
			                   " %s: %lld of %lld runs failed outside any test",
			                   (unsigned long)p->failures_outside_tests),
			          p->name, (long long)p->failures_outside_tests,
			          (long long)p->runs);
			n++;
		}
		if (p->leaked_runs > 0) {
			doc_line(doc, 3, false);
			doc_spanf(doc, DRAW_WARN,
			          ngettext(" %s: %lld run left processes behind (killed)",
			                   " %s: %lld runs left processes behind (killed)",
			                   (unsigned long)p->leaked_runs),
			          p->name, (long long)p->leaked_runs);
			n++;
		}
	}
	for (i = 0; r != NULL && i < r->ntests; i++) {
		if (r->tests[i].first == NULL || !results_order_dependent(&r->tests[i]))
			continue;
		doc_line(doc, 3, false);
		doc_spanf(doc, DRAW_WARN,
		          _(" order-dependent: %s failed only in shuffled runs of the whole "
		            "package"),
		          r->tests[i].id);
		n++;
	}
	if (n == 0) {
		doc_line(doc, 3, false);
		doc_span(doc, DRAW_DIM, _(" none"));
	}
}

static int
view_log_cmp_first(const void *a, const void *b)
{
	const struct results_test *x = *(const struct results_test *const *)a;
	const struct results_test *y = *(const struct results_test *const *)b;

	return x->first->run < y->first->run ? -1 : x->first->run > y->first->run;
}

static void
view_log_failures(const struct model *m, struct doc *doc)
{
	const struct results *r = m->results;
	const struct results_test **v;
	size_t i, n = 0;

	view_log_heading(doc, _("First failures, in run order"));
	v = xcalloc(r != NULL ? r->ntests + 1 : 1, sizeof *v);
	for (i = 0; r != NULL && i < r->ntests; i++) {
		if (r->tests[i].first != NULL)
			v[n++] = &r->tests[i];
	}
	qsort(v, n, sizeof *v, view_log_cmp_first);
	for (i = 0; i < n; i++) {
		const struct results_failure *f = v[i]->first;

		doc_line(doc, 3, false);
		doc_spanf(doc, DRAW_NORMAL, _(" run %lld (%s, cpu %d, load %d): %s"),
		          (long long)f->run,
		          f->phase == RESULTS_CONFIRM ? _("confirm") : _("sweep"), f->cpu, f->load,
		          v[i]->id);
	}
	if (n == 0) {
		doc_line(doc, 3, false);
		doc_span(doc, DRAW_DIM, _(" none yet"));
	}
	free(v);
}

static void
view_log_decisions(const struct model *m, struct doc *doc)
{
	size_t i;

	view_log_heading(doc, _("Decisions"));
	for (i = 0; i < m->ndecisions; i++) {
		const struct decision *d = &m->decisions[i];

		doc_line(doc, 3, false);
		doc_spanf(doc, DRAW_NORMAL, " %s %s %s%s%s", d->time != NULL ? d->time : "",
		          d->decision, d->test, d->url != NULL ? " " : "",
		          d->url != NULL ? d->url : "");
	}
	if (m->ndecisions == 0) {
		doc_line(doc, 3, false);
		doc_span(doc, DRAW_DIM, _(" none yet"));
	}
}

/* What the live sweep told while this dashboard watched. */
static void
view_log_events(const struct model *m, struct doc *doc)
{
	char when[40];
	size_t i;

	if (m->source != MODEL_LIVE)
		return;
	view_log_heading(doc, _("This session, UTC"));
	for (i = 0; i < m->nevents; i++) {
		const struct model_event *e = &m->events[i];

		timefmt_format_rfc3339(e->ms, when, sizeof when);
		doc_line(doc, 10, false);
		doc_spanf(doc, DRAW_DIM, " %.8s ", when + 11);
		doc_span(doc, e->problem ? DRAW_BAD : DRAW_NORMAL, e->text);
	}
	if (m->nevents == 0) {
		doc_line(doc, 3, false);
		doc_span(doc, DRAW_DIM, _(" nothing yet"));
	}
}

void
view_log_doc(const struct view_ctx *c, struct doc *doc)
{
	doc_init(doc);
	view_log_where(c->m, doc);
	view_log_events(c->m, doc);
	view_log_problems(c->m, doc);
	view_log_failures(c->m, doc);
	view_log_decisions(c->m, doc);
}

void
view_log_draw(struct view_ctx *c, const struct view_rect *r)
{
	struct doc doc;

	view_title(c, r->y, r->x, r->w, _("Event log (L or Esc closes it)"), true);
	view_log_doc(c, &doc);
	view_overlay_doc(c, r, &doc);
}
