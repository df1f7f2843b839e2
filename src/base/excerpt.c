/* SPDX-License-Identifier: MIT */
/*
 * excerpt.c: puts a failed test's error lines before its log noise, within
 * the size cap of a first failure. It only reorders text.
 */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/excerpt.h"
#include "base/util.h"

struct excerpt_line {
	const char *p;
	size_t n; /* without the newline */
};

/* "    name_test.go:12: ..." as Go's testing package prints t.Errorf and
 * t.Log: blanks, a file name ending in .go, a colon, digits, ": ". */
static bool
excerpt_is_assertion(const char *p, size_t n)
{
	size_t i = 0, name;

	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (i == 0)
		return false;
	if (n - i >= 6 && strncmp(p + i, "Error:", 6) == 0)
		return true;
	name = i;
	while (i < n && p[i] != ':' && p[i] != ' ')
		i++;
	if (i - name < 4 || i >= n || p[i] != ':' || strncmp(p + i - 3, ".go", 3) != 0)
		return false;
	i++;
	if (i >= n || !isdigit((unsigned char)p[i]))
		return false;
	while (i < n && isdigit((unsigned char)p[i]))
		i++;
	return i + 1 < n && p[i] == ':' && p[i + 1] == ' ';
}

static bool
excerpt_starts(const struct excerpt_line *l, const char *prefix)
{
	size_t i = 0, k = strlen(prefix);

	while (i < l->n && l->p[i] == ' ')
		i++;
	return l->n - i >= k && strncmp(l->p + i, prefix, k) == 0;
}

static void
excerpt_add_line(struct buf *b, const struct excerpt_line *l)
{
	buf_add(b, l->p, l->n);
	buf_addc(b, '\n');
}

/* Appends text to b up to cap bytes in all: its head and its tail, cut at
 * line ends, with a mark saying how much was cut between them. */
static void
excerpt_add_capped(struct buf *b, const char *text, size_t cap)
{
	size_t len = strlen(text), room, head, tail;
	char mark[64];

	if (b->len + len <= cap) {
		buf_add(b, text, len);
		return;
	}
	room = cap > b->len + sizeof mark ? cap - b->len - sizeof mark : 0;
	head = room / 2;
	while (head > 0 && text[head - 1] != '\n')
		head--;
	tail = len - (room - head);
	while (tail < len && text[tail - 1] != '\n')
		tail++;
	buf_add(b, text, head);
	snprintf(mark, sizeof mark, "[... %zu bytes cut ...]\n", tail - head);
	buf_adds(b, mark);
	buf_add(b, text + tail, len - tail);
}

char *
excerpt_failure_first(const char *text, size_t cap)
{
	struct excerpt_line *lines = NULL;
	size_t n = 0, i, panic = (size_t)-1, nassert = 0, first_assert;
	const char *p = text;
	struct buf b;
	bool any = false;

	while (*p != '\0') {
		const char *nl = strchr(p, '\n');
		size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);

		lines = xrealloc(lines, sizeof *lines * (n + 1));
		lines[n].p = p;
		lines[n++].n = len;
		p += len + (nl != NULL);
	}
	if (n <= EXCERPT_SHORT_LINES) {
		free(lines);
		return xstrdup(text);
	}
	buf_init(&b);
	buf_add(&b, "", 0);
	for (i = 0; i < n; i++) {
		if (excerpt_starts(&lines[i], "--- FAIL:") ||
		    excerpt_starts(&lines[i], "not ok ")) {
			excerpt_add_line(&b, &lines[i]);
			any = true;
		}
		if (panic == (size_t)-1 && strncmp(lines[i].p, "panic: ", 7) == 0)
			panic = i;
		if (excerpt_is_assertion(lines[i].p, lines[i].n))
			nassert++;
	}
	first_assert = nassert > EXCERPT_ERROR_LINES ? nassert - EXCERPT_ERROR_LINES : 0;
	for (i = 0, nassert = 0; i < n && i < panic; i++) {
		if (!excerpt_is_assertion(lines[i].p, lines[i].n) || nassert++ < first_assert)
			continue;
		excerpt_add_line(&b, &lines[i]);
		any = true;
	}
	for (i = panic; i < n; i++) {
		excerpt_add_line(&b, &lines[i]);
		any = true;
	}
	free(lines);
	if (!any) {
		buf_free(&b);
		return xstrdup(text);
	}
	return excerpt_lead(&b, text, cap);
}

char *
excerpt_lead(struct buf *lead, const char *text, size_t cap)
{
	if (lead->len > cap / 2) {
		/* A long lead (a panic) keeps its head; the output in order
		 * still follows. */
		lead->len = cap / 2;
		while (lead->len > 0 && lead->data[lead->len - 1] != '\n')
			lead->len--;
		lead->data[lead->len] = '\0';
	}
	buf_adds(lead, "[... the output in order ...]\n");
	excerpt_add_capped(lead, text, cap);
	return buf_steal(lead);
}
