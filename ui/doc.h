/* SPDX-License-Identifier: MIT */
/*
 * doc.h: a scrollable text made of lines of styled spans, for the panes
 * whose content is longer than the screen: the test detail, the help
 * screen and the post preview. Views build a doc and draw a window of it;
 * it owns copies of its text and never reads the model.
 */
#ifndef FLAKESWEEP_UI_DOC_H
#define FLAKESWEEP_UI_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "draw.h"

struct doc_span {
	char *text;
	enum draw_role role;
};

struct doc_line {
	struct doc_span *spans;
	size_t nspans;
	int indent;  /* columns of indentation of wrapped continuation rows */
	bool nowrap; /* cut at the width instead of wrapping (tables) */
	bool slide;  /* one row that slides sideways by the doc's left */
};

struct doc {
	struct doc_line *lines;
	size_t nlines;
	size_t left;     /* columns the slide lines are moved left by */
	bool slid_right; /* after doc_wrap: some slide line goes on to the right */
};

void doc_init(struct doc *doc);
void doc_free(struct doc *doc);

/* Starts a new line; later spans go to it. indent: see doc_line. */
void doc_line(struct doc *doc, int indent, bool nowrap);

/* Starts a line that stays one row whatever its length (a command to
 * copy): doc_wrap keeps its first indent columns, moves the rest left by
 * the doc's left and marks with '<' and '>' where it goes on. */
void doc_line_slide(struct doc *doc, int indent);

/* Appends a span (text copied) to the last line, starting one if none. */
void doc_span(struct doc *doc, enum draw_role role, const char *text);
void doc_spanf(struct doc *doc, enum draw_role role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends text with embedded newlines as one line each (each line's
 * leading indent columns repeat on wrapped rows). */
void doc_text(struct doc *doc, enum draw_role role, int indent, const char *text);

/* Rewraps doc for width columns into out (initialised by the function):
 * long lines become several rows, broken at a space when one is near. */
void doc_wrap(const struct doc *doc, const struct draw *d, int width, struct doc *out);

/* Draws rows [top, top + h) of a wrapped doc at (y, x), w columns wide,
 * clearing what it does not fill. */
void doc_draw(const struct doc *doc, struct draw *d, int y, int x, int h, int w, size_t top);

#endif
