/* SPDX-License-Identifier: MIT */
/*
 * view-post.c: the post preview: the target repository, the rendered
 * title and body exactly as they will be sent, scrollable, while the
 * message line asks whether to send it.
 */
#include "config.h"

#include <stdio.h>

#include "base/util.h"
#include "view.h"

void
view_post_draw(struct view_ctx *c, const struct view_rect *r)
{
	struct view_state *st = c->st;
	struct doc doc;
	char title[256];

	snprintf(title, sizeof title, _("Post to %s (y sends it, n or Esc cancels)"),
	         st->post_repo != NULL ? st->post_repo : _("no repository"));
	view_title(c, r->y, r->x, r->w, title, true);
	doc_init(&doc);
	doc_line(&doc, 0, false);
	doc_spanf(&doc, DRAW_DIM, _("repository: %s"),
	          st->post_repo != NULL ? st->post_repo
	                                : _("none (no GitHub origin remote): it cannot be posted"));
	doc_line(&doc, 0, false);
	doc_span(&doc, DRAW_DIM, _("title: "));
	doc_span(&doc, DRAW_BOLD, st->post_title != NULL ? st->post_title : "");
	doc_line(&doc, 0, false);
	doc_text(&doc, DRAW_NORMAL, 0, st->post_body != NULL ? st->post_body : "");
	view_overlay_doc(c, r, &doc);
}
