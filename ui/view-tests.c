/* SPDX-License-Identifier: MIT */
/*
 * view-tests.c: the flaky tests pane: every flaky, failing or skip-flaky
 * test in the model's order (those that need a decision, those decided, the
 * failing; each most severe first), with its package, name, failures of runs
 * (a skip-flaky test's: skipped of runs and skips), mini
 * heatmap, verdict and decision; the title counts those that need one. Columns drop out from the
 * least needed when the pane is narrow; the name takes what is left.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "view.h"

#define VIEW_TESTS_PKG_MAX 20
#define VIEW_TESTS_NAME_MIN 12

static const char *
view_tests_decision(const struct model_test *mt)
{
	if (mt->decision != NULL) {
		if (strcmp(mt->decision, "confirmed") == 0)
			return _("confirmed");
		if (strcmp(mt->decision, "quarantined") == 0)
			return _("quarantined");
		if (strcmp(mt->decision, "posted") == 0)
			return _("posted");
		if (strcmp(mt->decision, "dismissed") == 0)
			return _("dismissed");
		if (strcmp(mt->decision, "closed") == 0)
			return _("closed");
		return mt->decision;
	}
	if (mt->quarantined)
		return _("quarantined");
	return mt->undecided ? _("to decide") : "-";
}

/* The verdict, and the class beside it when the test has one and
 * with_class. */
static const char *
view_tests_verdict(const struct model_test *mt, bool with_class, char *out, size_t size)
{
	const char *v = mt->verdict == RESULTS_CASCADE      ? _("cascade")
	                : mt->verdict == RESULTS_SKIP_FLAKY ? _("skip-flaky")
	                : mt->verdict == RESULTS_FAILING    ? _("failing")
	                                                    : _("flaky");

	bool k = with_class && mt->klass != CLASSIFY_NONE;

	snprintf(out, size, "%s%s%s", v, k ? " " : "", k ? classify_name(mt->klass) : "");
	return out;
}

/* Its failures of its runs; a skip-flaky test's skips of its runs and
 * skips. */
static void
view_tests_count(char *n, size_t size, const struct model_test *mt)
{
	if (mt->verdict == RESULTS_SKIP_FLAKY)
		snprintf(n, size, "%lld/%lld", (long long)mt->skipped,
		         (long long)(mt->runs + mt->skipped));
	else
		snprintf(n, size, "%lld/%lld", (long long)(mt->failures + mt->hangs),
		         (long long)mt->runs);
}

void
view_tests_draw(struct view_ctx *c, const struct view_rect *r, bool focused)
{
	const struct model *m = c->m;
	struct view_state *st = c->st;
	char title[160];
	int rows = r->h - 1, count_w = 3, pkg_w = 0, verdict_w, decision_w = 0, heat_w, name_w;
	int plain_w;      /* the verdicts' width without the classes */
	int name_max = 0; /* the widest name */
	bool with_class = true;
	int fixed, i, sep;
	size_t k;
	bool same_pkg = true;

	/* The detail stands to the right: keep a separator column. */
	sep = r->x + r->w < getmaxx(c->d->win) ? 1 : 0;
	if (st->filter != NULL && *st->filter != '\0')
		snprintf(title, sizeof title, _("Flaky tests (%zu of %zu, filter \"%s\")"),
		         c->nvisible, m->ntests, st->filter);
	else
		snprintf(title, sizeof title, _("Flaky tests (%zu)"), m->ntests);
	if (m->undecided > 0) {
		size_t n = strlen(title);

		snprintf(title + n, sizeof title - n,
		         ngettext(" %zu needs a decision", " %zu need a decision",
		                  (unsigned long)m->undecided),
		         m->undecided);
	}
	if (st->sort != VIEW_SORT_LISTED)
		snprintf(title + strlen(title), sizeof title - strlen(title), " %s",
		         st->sort == VIEW_SORT_RATE ? _("by failure rate") : _("by name"));
	view_title(c, r->y, r->x, r->w - sep, title, focused);
	if (sep)
		draw_text(c->d, r->y, r->x + r->w - 1, 1, "+",
		          focused ? DRAW_TITLE_FOCUS : DRAW_TITLE, false);
	st->list_rows = rows;
	if (rows <= 0)
		return;
	/* Keep the selection in sight. */
	if (st->selected < st->list_top)
		st->list_top = st->selected;
	if (st->selected >= st->list_top + (size_t)rows)
		st->list_top = st->selected - (size_t)rows + 1;
	if (st->list_top + (size_t)rows > c->nvisible)
		st->list_top = c->nvisible > (size_t)rows ? c->nvisible - (size_t)rows : 0;

	verdict_w = plain_w = draw_width(c->d, _("failing"));
	for (k = 0; k < c->nvisible; k++) {
		const struct model_test *mt = &m->tests[c->visible[k]];
		char n[64], v[96];
		int w;

		view_tests_count(n, sizeof n, mt);
		if ((int)strlen(n) > count_w)
			count_w = (int)strlen(n);
		w = draw_width(c->d, view_tests_verdict(mt, true, v, sizeof v));
		if (w > verdict_w)
			verdict_w = w;
		w = draw_width(c->d, view_tests_verdict(mt, false, v, sizeof v));
		if (w > plain_w)
			plain_w = w;
		w = draw_width(c->d, mt->name);
		if (w > name_max)
			name_max = w;
		w = draw_width(c->d, mt->pkg);
		if (w > pkg_w)
			pkg_w = w;
		if (w > 0 && strcmp(mt->pkg, m->tests[c->visible[0]].pkg) != 0)
			same_pkg = false;
		w = draw_width(c->d, view_tests_decision(mt));
		if (w > decision_w)
			decision_w = w;
	}
	if (pkg_w > VIEW_TESTS_PKG_MAX)
		pkg_w = VIEW_TESTS_PKG_MAX;
	heat_w = view_heatmap_mini_width(m);
	fixed = 2 + count_w + 1 + heat_w + 1 + verdict_w + sep;
	/* The decisions matter more than the classes: the classes go first
	 * when both do not fit (the detail and the report still say them). */
	if (decision_w > 0 && r->w - fixed - 1 - decision_w - 1 < VIEW_TESTS_NAME_MIN) {
		fixed -= verdict_w - plain_w;
		verdict_w = plain_w;
		with_class = false;
	}
	if (decision_w > 0 && r->w - fixed - 1 - decision_w - 1 < VIEW_TESTS_NAME_MIN)
		decision_w = 0;
	if (decision_w > 0)
		fixed += decision_w + 1;
	/* One package for every test: its name is in the detail, not here. */
	if (same_pkg && c->nvisible > 0 && r->w - fixed - pkg_w - 1 < 40)
		pkg_w = 0;
	if (pkg_w > 0 && r->w - fixed - pkg_w - 1 < VIEW_TESTS_NAME_MIN)
		pkg_w = 0;
	if (pkg_w > 0)
		fixed += pkg_w + 1;
	name_w = r->w - fixed - 2;
	/* Whole names matter more than the classes too. */
	if (with_class && name_w < name_max) {
		name_w += verdict_w - plain_w;
		verdict_w = plain_w;
		with_class = false;
	}
	if (name_w < 1)
		name_w = 1;

	for (i = 0; i < rows; i++) {
		size_t vi = st->list_top + (size_t)i;
		int y = r->y + 1 + i, x = r->x;
		const struct model_test *mt;
		const struct results_test *t;
		enum draw_role role = DRAW_NORMAL, vrole;
		char n[64], v[96];
		bool sel;

		draw_fill(c->d, y, r->x, r->w - sep, ' ', DRAW_NORMAL);
		if (sep)
			draw_text(c->d, y, r->x + r->w - 1, 1, draw_glyph(c->d, DRAW_GLYPH_VLINE),
			          DRAW_DIM, false);
		if (vi >= c->nvisible) {
			if (i == 0)
				draw_text(c->d, y, x + 2, r->w - 2 - sep,
				          m->ntests == 0
				              ? _("no flaky test yet")
				              : _("no test matches the filter (/ to change it)"),
				          DRAW_DIM, true);
			continue;
		}
		mt = &m->tests[c->visible[vi]];
		t = model_results_test(m, c->visible[vi]);
		sel = vi == st->selected;
		if (sel)
			role = focused ? DRAW_SELECTED : DRAW_BOLD;
		if (sel)
			draw_fill(c->d, y, x, r->w - sep, ' ', role);
		draw_text(c->d, y, x, 2, sel ? "> " : "  ", role, false);
		x += 2;
		if (pkg_w > 0) {
			draw_text(c->d, y, x, pkg_w, mt->pkg, role, true);
			x += pkg_w + 1;
		}
		draw_text(c->d, y, x, name_w, mt->name, role, true);
		x += name_w + 1;
		view_tests_count(n, sizeof n, mt);
		draw_text(c->d, y, x + count_w - (int)strlen(n), count_w, n, role, false);
		x += count_w + 1;
		if (t != NULL)
			view_heatmap_mini(c, y, x, heat_w, t);
		x += heat_w + 1;
		vrole = sel ? role : (mt->verdict == RESULTS_FAILING ? DRAW_BAD : DRAW_WARN);
		draw_text(c->d, y, x, verdict_w, view_tests_verdict(mt, with_class, v, sizeof v),
		          vrole, false);
		x += verdict_w + 1;
		if (decision_w > 0)
			draw_text(c->d, y, x, decision_w, view_tests_decision(mt),
			          sel                                       ? role
			          : mt->decision != NULL || mt->quarantined ? DRAW_OK
			          : mt->undecided                           ? DRAW_WARN
			                                                    : DRAW_DIM,
			          false);
	}
}
