/* SPDX-License-Identifier: MIT */
/*
 * doc.c: builds, wraps and draws docs (see doc.h). Wrapping works on the
 * sanitised text, with the same column widths draw_text() uses, so what
 * is measured is what is drawn.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "base/sanitize.h"
#include "base/util.h"

void
doc_init(struct doc *doc)
{
	memset(doc, 0, sizeof *doc);
}

void
doc_free(struct doc *doc)
{
	size_t i, j;

	for (i = 0; i < doc->nlines; i++) {
		for (j = 0; j < doc->lines[i].nspans; j++)
			free(doc->lines[i].spans[j].text);
		free(doc->lines[i].spans);
	}
	free(doc->lines);
	memset(doc, 0, sizeof *doc);
}

void
doc_line(struct doc *doc, int indent, bool nowrap)
{
	struct doc_line *l;

	doc->lines = xrealloc(doc->lines, sizeof *doc->lines * (doc->nlines + 1));
	l = &doc->lines[doc->nlines++];
	memset(l, 0, sizeof *l);
	l->indent = indent;
	l->nowrap = nowrap;
}

void
doc_line_slide(struct doc *doc, int indent)
{
	doc_line(doc, indent, true);
	doc->lines[doc->nlines - 1].slide = true;
}

static void
doc_span_take(struct doc *doc, enum draw_role role, char *text)
{
	struct doc_line *l;

	if (doc->nlines == 0)
		doc_line(doc, 0, false);
	l = &doc->lines[doc->nlines - 1];
	l->spans = xrealloc(l->spans, sizeof *l->spans * (l->nspans + 1));
	l->spans[l->nspans].text = text;
	l->spans[l->nspans].role = role;
	l->nspans++;
}

void
doc_span(struct doc *doc, enum draw_role role, const char *text)
{
	doc_span_take(doc, role, xstrdup(text));
}

void
doc_spanf(struct doc *doc, enum draw_role role, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		fatal("%s", _("out of memory"));
	va_end(ap);
	doc_span_take(doc, role, s);
}

void
doc_text(struct doc *doc, enum draw_role role, int indent, const char *text)
{
	const char *p = text;

	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);

		if (nl == NULL && n == 0 && p != text)
			break;
		doc_line(doc, indent, false);
		if (indent > 0)
			doc_spanf(doc, role, "%*s", indent, "");
		doc_span_take(doc, role, xstrndup(p, n));
		if (nl == NULL)
			break;
		p = nl + 1;
	}
}

/* One character of a line being wrapped. */
struct doc_unit {
	const char *at; /* into the sanitised span text */
	size_t len;
	int cols;
	size_t span;
};

static void
doc_emit(struct doc *out, const struct doc_line *l, const struct doc_unit *u, size_t from,
         size_t to, int indent)
{
	size_t i = from;

	doc_line(out, 0, true);
	if (indent > 0)
		doc_spanf(out, DRAW_NORMAL, "%*s", indent, "");
	while (i < to) {
		size_t j = i;

		while (j < to && u[j].span == u[i].span)
			j++;
		doc_span_take(out, l->spans[u[i].span].role,
		              xstrndup(u[i].at, (size_t)(u[j - 1].at + u[j - 1].len - u[i].at)));
		i = j;
	}
}

/* Emits slide line l of units u[0, nu): its indent, then what is left
 * after moving left columns, cut at width; sets out->slid_right when it
 * goes on. */
static void
doc_emit_slide(struct doc *out, const struct doc_line *l, const struct doc_unit *u, size_t nu,
               size_t left, int width)
{
	size_t a = 0, b, c;
	int cols = 0, skip = 0;

	while (a < nu && cols < l->indent)
		cols += u[a++].cols;
	b = a;
	while (b < nu && (size_t)skip < left)
		skip += u[b++].cols;
	c = b;
	while (c < nu && cols + u[c].cols <= width - 1)
		cols += u[c++].cols;
	if (c + 1 == nu && cols + u[c].cols <= width)
		c++;
	doc_emit(out, l, u, 0, a, 0);
	if (b > a)
		doc_span(out, DRAW_DIM, "<");
	if (b > a && b < c)
		b++; /* the mark takes a column */
	if (b < c) {
		struct doc tail;

		doc_init(&tail);
		doc_emit(&tail, l, u, b, c, 0);
		for (size_t k = 0; k < tail.lines[0].nspans; k++)
			doc_span(out, tail.lines[0].spans[k].role, tail.lines[0].spans[k].text);
		doc_free(&tail);
	}
	if (c < nu) {
		doc_span(out, DRAW_DIM, ">");
		out->slid_right = true;
	}
}

void
doc_wrap(const struct doc *doc, const struct draw *d, int width, struct doc *out)
{
	size_t i, j;

	doc_init(out);
	if (width < 4)
		width = 4;
	for (i = 0; i < doc->nlines; i++) {
		const struct doc_line *l = &doc->lines[i];
		char **clean = xcalloc(l->nspans + 1, sizeof *clean);
		struct doc_unit *u = NULL;
		size_t nu = 0, cap = 0, start = 0;
		int cols = 0, indent = l->indent < width / 2 ? l->indent : 0;
		bool first = true;

		for (j = 0; j < l->nspans; j++) {
			const char *p;

			clean[j] = sanitize_text(l->spans[j].text, strlen(l->spans[j].text));
			for (p = clean[j]; *p != '\0';) {
				const char *at = p;
				int w = draw_step(d, &p);

				if (w < 0)
					continue;
				if (nu == cap) {
					cap = cap ? cap * 2 : 64;
					u = xrealloc(u, sizeof *u * cap);
				}
				u[nu].at = at;
				u[nu].len = (size_t)(p - at);
				u[nu].cols = w;
				u[nu].span = j;
				nu++;
			}
		}
		if (nu == 0)
			doc_line(out, 0, true);
		j = 0;
		if (l->slide && nu > 0) {
			doc_emit_slide(out, l, u, nu, doc->left, width);
			j = start = nu;
		}
		while (j < nu) {
			int avail = width - (first ? 0 : indent);
			size_t cut = j, k;

			if (cols + u[j].cols <= avail || j == start) {
				cols += u[j].cols;
				j++;
				continue;
			}
			if (l->nowrap) {
				doc_emit(out, l, u, start, j, 0);
				start = nu;
				break;
			}
			/* Break after the last space when it is not too far back. */
			for (k = j; k > start + 1; k--) {
				if (u[k - 1].len == 1 && u[k - 1].at[0] == ' ' &&
				    (int)(j - k) < avail / 3) {
					cut = k;
					break;
				}
			}
			doc_emit(out, l, u, start, cut, first ? 0 : indent);
			first = false;
			start = cut;
			/* Spaces at the start of a continuation row are dropped. */
			while (start < nu && u[start].len == 1 && u[start].at[0] == ' ')
				start++;
			cols = 0;
			j = start;
		}
		if (start < nu)
			doc_emit(out, l, u, start, nu, first ? 0 : indent);
		for (j = 0; j < l->nspans; j++)
			free(clean[j]);
		free(clean);
		free(u);
	}
}

void
doc_draw(const struct doc *doc, struct draw *d, int y, int x, int h, int w, size_t top)
{
	int row;

	for (row = 0; row < h; row++) {
		size_t li = top + (size_t)row;
		int col = 0;

		draw_fill(d, y + row, x, w, ' ', DRAW_NORMAL);
		if (li >= doc->nlines)
			continue;
		for (size_t k = 0; k < doc->lines[li].nspans && col < w; k++) {
			const struct doc_span *sp = &doc->lines[li].spans[k];

			col += draw_text(d, y + row, x + col, w - col, sp->text, sp->role, false);
		}
	}
}
