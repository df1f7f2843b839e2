/* SPDX-License-Identifier: MIT */
/*
 * view-help.c: the help screen, generated from the action table so the
 * keys it lists are the keys that work, followed by how to read the
 * heatmaps.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "action.h"
#include "base/util.h"
#include "view.h"

#define VIEW_HELP_KEYS_W 16

void
view_help_doc(struct doc *doc)
{
	const struct action *a;
	size_t n, i;

	doc_init(doc);
	doc_line(doc, 0, false);
	doc_span(doc, DRAW_BOLD, _("Keys of the flakesweep dashboard"));
	doc_line(doc, 0, false);
	for (a = action_table(&n), i = 0; i < n; i++) {
		int pad = VIEW_HELP_KEYS_W - (int)strlen(a[i].names);

		doc_line(doc, VIEW_HELP_KEYS_W + 2, false);
		doc_span(doc, DRAW_NORMAL, "  ");
		doc_span(doc, DRAW_KEY, a[i].names);
		doc_spanf(doc, DRAW_NORMAL, "%*s", pad > 0 ? pad : 1, "");
		doc_span(doc, DRAW_NORMAL, _(a[i].help));
	}
	doc_line(doc, 0, false);
	doc_line(doc, 2, false);
	doc_span(doc, DRAW_BOLD, _("Heatmaps"));
	doc_text(doc, DRAW_NORMAL, 2,
	         _("Rows are cores per run (cpu), columns runs per core (load). A cell gives "
	           "failures/runs (\"h\" counts hangs), the rate and its 95% interval; a cell "
	           "without failure gives the rate it is below. The list's mini heatmap has one "
	           "mark per pair, sweep and confirm together."));
	doc_line(doc, 4, false);
	doc_span(doc, DRAW_NORMAL, "  ");
	doc_span(doc, DRAW_HEAT_NONE, _(" no runs "));
	doc_span(doc, DRAW_NORMAL, " ");
	doc_span(doc, DRAW_HEAT_CLEAN, _(" no failure "));
	doc_span(doc, DRAW_NORMAL, " ");
	doc_span(doc, DRAW_HEAT_1, _(" <1% "));
	doc_span(doc, DRAW_NORMAL, " ");
	doc_span(doc, DRAW_HEAT_2, _(" <5% "));
	doc_span(doc, DRAW_NORMAL, " ");
	doc_span(doc, DRAW_HEAT_3, _(" <20% "));
	doc_span(doc, DRAW_NORMAL, " ");
	doc_span(doc, DRAW_HEAT_4, _(" <50% "));
	doc_span(doc, DRAW_NORMAL, " ");
	doc_span(doc, DRAW_HEAT_5, _(" 50% and over "));
	doc_line(doc, 0, false);
	doc_line(doc, 2, false);
	doc_span(doc, DRAW_BOLD, _("Decisions"));
	doc_text(doc, DRAW_NORMAL, 2,
	         _("Q, p and d record their decision in the project's .flakesweep/decisions.json, "
	           "so the next sweeps show it; c records confirmed once its runs have run; u "
	           "takes the last one back. Tests that need a decision come first, most severe "
	           "first. In a question, typing replaces the answer offered; Left, Right, Home "
	           "and End move, Ctrl-W and Ctrl-U delete, Esc cancels."));
}

void
view_help_draw(struct view_ctx *c, const struct view_rect *r)
{
	struct doc doc;

	view_title(c, r->y, r->x, r->w, _("Help (? or Esc closes it)"), true);
	view_help_doc(&doc);
	view_overlay_doc(c, r, &doc);
}
